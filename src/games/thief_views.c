/*
 * thief_views.c - what Thief and Four Card Thief show (RULINGS THF-1 .. THF-8, FCT-1 .. FCT-7):
 * the JSON view and its zones (docs/views.md), the text view, what a move is told as and where it
 * takes a card.
 */
#include <stdio.h>
#include <string.h>

#include "core/slots.h"
#include "core/view.h"
#include "games/thief.h"

/* ------------------------------------------------------------------------------------------ */
/* Views                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* A capture's slots, bottom first. */
static int cap_slots(const thf_state *s, int id, uint8_t *out) {
  int n = s->cap_size[id], slot = s->cap_top[id];
  for (int i = n - 1; i >= 0; i--, slot = s->below[slot]) out[i] = (uint8_t)slot;
  return n;
}

/* The captures of a pile, bottom first. */
static int pile_caps(const thf_state *s, int p, uint8_t *ids) {
  int n = s->pile_caps[p], id = s->pile_top[p];
  for (int i = n - 1; i >= 0; i--, id = s->cap_under[id]) ids[i] = (uint8_t)id;
  return n;
}

static void pile_write(const thf_state *s, int p, pf_jw *w) {
  uint8_t ids[MAX_CARDS], slots[MAX_CARDS];
  int n = pile_caps(s, p, ids);
  pf_jw_open(w, '{');
  pf_jw_key_int(w, "size", s->pile_cards[p]);
  pf_jw_key(w, "top");
  pf_card_write_seen(w, n ? pile_top_card(s, p) : 0, n > 0);
  pf_jw_key(w, "captures"); /* bottom first; everyone saw them played (THF-3) */
  pf_jw_open(w, '[');
  for (int i = 0; i < n; i++) pf_slots_write(w, s->card, slots, cap_slots(s, ids[i], slots));
  pf_jw_close(w, ']');
  if (s->fct) {
    pf_jw_key(w, "locked");
    pf_jw_bool(w, n && cap_locked(s, s->pile_top[p]));
  }
  pf_jw_key_int(w, "points", pile_points(s, p));
  pf_jw_close(w, '}');
}

static const char *phase_name(const thf_state *s) {
  switch (s->phase) {
  case PH_START: return "start";
  case PH_CAPTURED: return "captured";
  case PH_DISCARDED: return "discarded";
  case PH_ANSWER: return "answer";
  default: return "over";
  }
}

/* The zone of seat p's capture pile: every capture's cards, bottom first (THF-3). */
static void captures_zone(const thf_state *s, int p, pf_jw *w) {
  uint8_t ids[MAX_CARDS], slots[MAX_CARDS];
  char id[PF_ZONE_ID], label[32], note[80];
  int n = pile_caps(s, p, ids);
  pf_snprintf(id, sizeof id, "captures:%d", p);
  pf_snprintf(label, sizeof label, "Seat %d's captures", p);
  int top = n ? s->cap_size[s->pile_top[p]] : 0; /* what a steal takes (THF-4c), and FCT-4's lock */
  if (top)
    pf_snprintf(note, sizeof note, "%d point%s; top capture %d card%s%s", pile_points(s, p),
                pile_points(s, p) == 1 ? "" : "s", top, top == 1 ? "" : "s", cap_locked(s, s->pile_top[p]) ? ", locked" : "");
  else
    pf_snprintf(note, sizeof note, "%d point%s", pile_points(s, p), pile_points(s, p) == 1 ? "" : "s");
  pf_zone_open(w, id, "captures", p, label, PF_STACK);
  for (int i = 0; i < n; i++)
    for (int k = 0, m = cap_slots(s, ids[i], slots); k < m; k++) pf_card_write(w, s->card[slots[k]]);
  pf_zone_write_note(w, note);
  pf_zone_close(w);
}

/* The zones (docs/views.md): the stock, the discard pile (Four Card Thief: the table cards, one
 * zone each), the capture piles, the hands. */
static void thf_zones(const thf_state *s, int seat, pf_jw *w) {
  pf_stock_zone_write(w, s->card, s->next_slot, s->ncards, seat);
  if (s->fct) {
    pf_pool_zones_write(w, "table", "Table card", s->card, s->heap, s->nheap);
  } else {
    pf_zone_open(w, "discard", "discard", -1, "Discard pile", PF_STACK);
    for (int k = 0; k < s->nheap; k++) pf_card_write(w, s->card[s->heap[k]]);
    pf_zone_close(w);
  }
  for (int p = 0; p < s->players; p++) captures_zone(s, p, w);
  pf_hands h = hands_of(s);
  pf_hands_zones_write(w, s->card, &h, seat);
}

/* ---- the end, in data and in words (view.h: pf_end_open) ---- */

/* The seat with the highest of v (the first of equals) and whether another has as much. */
static int best_of(const int *v, int n, bool *shared) {
  int best = 0;
  for (int p = 1; p < n; p++)
    if (v[p] > v[best]) best = p;
  *shared = false;
  for (int p = 0; p < n; p++)
    if (p != best && v[p] == v[best]) *shared = true;
  return best;
}

/* THF-7: the last hand's end, the stock empty: the cards left in hands and on the discard pile
 * (Four Card Thief: the table) count for nobody ("hand_over": "hand", "left_in_hands", "left_on_table"
 * or "left_in_discard", "hand_scores"); THF-8: after several hands, the highest total
 * ("match_over": "hands", "totals"). */
static void end_write(const thf_state *s, pf_jw *w) {
  int in_hands = 0;
  bool shared;
  pf_buf say = {0};
  for (int p = 0; p < s->players; p++) in_hands += s->hand_len[p];
  pf_end_open(w);
  pf_end_event(w, "hand_over", "THF-7");
  pf_jw_key_int(w, "hand", s->hand_no);
  pf_jw_key_int(w, "left_in_hands", in_hands);
  pf_jw_key_int(w, s->fct ? "left_on_table" : "left_in_discard", s->nheap);
  pf_jw_key(w, "hand_scores");
  pf_jw_ints(w, s->last_hand, s->players);
  int best = best_of(s->last_hand, s->players, &shared);
  pf_buf_printf(&say, "The stock ran out, ending %s", s->hands == 1 ? "the hand" : "the last hand");
  if (in_hands || s->nheap) {
    pf_buf_puts(&say, ": the ");
    if (in_hands) pf_buf_printf(&say, "%d card%s left in hands", in_hands, in_hands == 1 ? "" : "s");
    if (in_hands && s->nheap) pf_buf_puts(&say, " and the ");
    if (s->nheap)
      pf_buf_printf(&say, "%d card%s %s", s->nheap, s->nheap == 1 ? "" : "s", s->fct ? "on the table" : "of the discard pile");
    pf_buf_printf(&say, " count%s for nobody", in_hands + s->nheap == 1 ? "s" : "");
  }
  pf_buf_putc(&say, '.');
  if (s->hands > 1 && !shared)
    pf_buf_printf(&say, " {%d} took the most in it, %d point%s.", best, s->last_hand[best], s->last_hand[best] == 1 ? "" : "s");
  pf_end_say(w, pf_buf_str(&say));
  pf_buf_clear(&say);
  if (!s->fct && s->x_thief != NONE) { /* THF-5: the last turn's steal and its exchange */
    int r = s->x_recaptures;
    pf_end_event(w, "last_exchange", "THF-5");
    pf_jw_key_int(w, "thief", s->x_thief);
    pf_jw_key_int(w, "victim", s->x_victim);
    pf_jw_key_int(w, "recaptures", r);
    pf_jw_key_int(w, "holder", s->x_holder);
    pf_jw_key_int(w, "cards", s->x_cards);
    pf_buf_printf(&say, "In the last turn {%d} stole the top capture of {%d}", s->x_thief, s->x_victim);
    if (r == 1 || r == 2)
      pf_buf_printf(&say, "; it was re-captured %s, and {%d} kept it, %d cards.", r == 1 ? "once" : "twice", s->x_holder,
                    s->x_cards);
    else if (r)
      pf_buf_printf(&say, "; it was re-captured %d times, and {%d} kept it, %d cards.", r, s->x_holder, s->x_cards);
    else
      pf_buf_printf(&say, ", %d cards, and kept it.", s->x_cards);
    pf_end_say(w, pf_buf_str(&say));
    pf_buf_clear(&say);
  }
  if (s->hands > 1) {
    best = best_of(s->total, s->players, &shared);
    pf_end_event(w, "match_over", "THF-8");
    pf_jw_key_int(w, "hands", s->hands);
    pf_jw_key(w, "totals");
    pf_jw_ints(w, s->total, s->players);
    pf_buf_clear(&say);
    pf_buf_printf(&say, "After %d hands, ", s->hands);
    if (shared)
      pf_buf_printf(&say, "the highest total, %d points, is shared.", s->total[best]);
    else
      pf_buf_printf(&say, "{%d} has the highest total, %d points.", best, s->total[best]);
    pf_end_say(w, pf_buf_str(&say));
  }
  pf_end_close(w);
  pf_buf_free(&say);
}

void thf_view_write(const void *vs, int seat, pf_jw *w) {
  const thf_state *s = vs;
  pf_jw_key_int(w, "hand_number", s->hand_no + (s->phase == PH_OVER ? 0 : 1));
  pf_jw_key_int(w, "hands_in_game", s->hands);
  pf_jw_key_int(w, "dealer", s->dealer);
  pf_jw_key(w, "turn");
  if (s->phase == PH_OVER)
    pf_jw_null(w);
  else
    pf_jw_int(w, s->turn);
  pf_jw_key_str(w, "phase", phase_name(s));
  pf_jw_key_int(w, "stock", s->ncards - s->next_slot);
  pf_jw_key(w, "last_turn");
  pf_jw_bool(w, s->last_turn);
  if (seat == PF_VIEW_ALL) { /* the full state: the stock's order too, next card first */
    pf_jw_key(w, "stock_cards");
    pf_stock_write(w, s->card, s->next_slot, s->ncards);
  }
  pf_jw_key(w, s->fct ? "table" : "discard");
  pf_slots_write(w, s->card, s->heap, s->nheap);
  if (s->phase == PH_ANSWER) {
    char r[8];
    pf_jw_key(w, "exchange");
    pf_jw_open(w, '{');
    pf_jw_key_int(w, "thief", s->turn);
    pf_jw_key_int(w, "victim", s->turn == s->answerer ? s->other : s->answerer);
    pf_jw_key_int(w, "answering", s->answerer);
    pf_jw_key_str(w, "contested_rank", rank_name(s->contested, r));
    pf_jw_close(w, '}');
  }
  pf_jw_key(w, "piles");
  pf_jw_open(w, '[');
  for (int p = 0; p < s->players; p++) pile_write(s, p, w);
  pf_jw_close(w, ']');
  pf_hands h = hands_of(s);
  pf_jw_key(w, "hands");
  pf_hands_write(w, s->card, &h, seat);
  pf_jw_key(w, "totals");
  pf_jw_ints(w, s->total, s->players);
  if (s->hand_no > 0) {
    pf_jw_key(w, "last_hand_scores");
    pf_jw_ints(w, s->last_hand, s->players);
  }
  if (s->phase == PH_OVER) end_write(s, w);
  thf_zones(s, seat, w);
}

void thf_view_text(const void *vs, int seat, const pf_style *st, pf_buf *out) {
  const thf_state *s = vs;
  const char *title = s->fct ? "Four Card Thief" : "Thief";
  if (s->phase == PH_OVER)
    pf_buf_printf(out, "%s, %d players: game over after %d hand%s\n", title, s->players, s->hands, s->hands == 1 ? "" : "s");
  else
    pf_buf_printf(out, "%s, %d players: hand %d of %d, dealer seat %d, stock %d%s\n", title, s->players,
                  s->hand_no + 1, s->hands, s->dealer, s->ncards - s->next_slot,
                  s->last_turn ? " (out: this is the hand's last turn, THF-7)" : "");
  if (s->hand_no > 0) {
    pf_buf_printf(out, "Hand %d scored:", s->hand_no);
    for (int p = 0; p < s->players; p++) pf_buf_printf(out, " seat %d %d;", p, s->last_hand[p]);
    out->data[out->len - 1] = '\n';
    pf_buf_puts(out, "Totals:");
    for (int p = 0; p < s->players; p++) pf_buf_printf(out, " seat %d %d;", p, s->total[p]);
    out->data[out->len - 1] = '\n';
  }
  if (s->fct) {
    pf_buf_puts(out, "Table cards: ");
    if (s->nheap)
      pf_slots_render(s->card, s->heap, s->nheap, " ", st, out);
    else
      pf_buf_puts(out, "none");
  } else {
    char b[32];
    if (s->nheap) {
      pf_buf_printf(out, "Discard pile: top %s", pf_card_render(card_of(s, s->heap[s->nheap - 1]), st, b));
      if (s->nheap > 1) {
        pf_buf_puts(out, "  (beneath, top first: ");
        for (int k = s->nheap - 2; k >= 0; k--)
          pf_buf_printf(out, "%s%s", k == s->nheap - 2 ? "" : " ", pf_card_render(card_of(s, s->heap[k]), st, b));
        pf_buf_puts(out, ")");
      }
    } else {
      pf_buf_puts(out, "Discard pile: empty");
    }
  }
  pf_buf_puts(out, s->phase == PH_OVER ? "\nCapture piles at the end of the last hand:\n"
                                       : "\nCapture piles (a steal takes the top capture, in brackets):\n");
  for (int p = 0; p < s->players; p++) {
    char name[32];
    pf_snprintf(name, sizeof name, "seat %d%s", p, p == seat ? " (you)" : "");
    pf_buf_printf(out, "  %-12s", name);
    if (!s->pile_caps[p]) {
      pf_buf_puts(out, " empty\n");
      continue;
    }
    uint8_t slots[MAX_CARDS];
    int id = s->pile_top[p];
    pf_buf_printf(out, "%3d card%s in %d capture%s, %3d points  top [", s->pile_cards[p], s->pile_cards[p] == 1 ? " " : "s",
                  s->pile_caps[p], s->pile_caps[p] == 1 ? "" : "s", pile_points(s, p));
    pf_slots_render(s->card, slots, cap_slots(s, id, slots), " ", st, out);
    pf_buf_printf(out, "]%s\n", cap_locked(s, id) ? " locked (FCT-4)" : "");
  }
  if (s->phase == PH_OVER) return;
  pf_hands h = hands_of(s);
  pf_hands_text(s->card, &h, seat, st, out);
  char r[8], who[3][16], line[256] = "";
  const int named[3] = {s->turn, s->turn == s->answerer ? s->other : s->answerer, s->answerer};
  for (int i = 0; i < 3; i++) {
    if (named[i] == seat)
      strcpy(who[i], "you");
    else
      pf_snprintf(who[i], sizeof who[i], "seat %d", named[i]);
  }
  if (s->phase == PH_ANSWER) {
    int c = s->contested;
    pf_snprintf(line, sizeof line, "exchange (THF-5): %s stole from %s; %s may re-capture from p%d with a%s %s or %s, or pass",
             who[0], who[1], who[2], s->other, c == 0 || c == 7 ? "n" : "", rank_name(c, r), wild_text(s));
  } else if (s->phase == PH_DISCARDED) {
    pf_snprintf(line, sizeof line, "%s discarded and drew: now pairs and discard captures, no steals, or pass to end the turn (THF-6)", who[0]);
  } else if (s->phase == PH_CAPTURED) {
    pf_snprintf(line, sizeof line, "%s captured: %s may capture again or pass to end the turn (THF-6)", who[0], who[0]);
  }
  if (line[0]) {
    line[0] = (char)(line[0] - 'a' + 'A');
    pf_buf_printf(out, "%s.\n", line);
  }
}

/* A card from the mover's hand to what it captures (a pair: the mover's own captures; a table
 * card: the first of equal ones, G-5) or steals, or to the discard pile; a Four Card Thief discard
 * goes to no zone: it is laid as a new table card. A pass moves nothing. */
void thf_move_zones(const void *vs, pf_move m, pf_move_zones *z) {
  const thf_state *s = vs;
  int p = thf_to_move(s), kind = MV_KIND(m);
  if (kind == K_PASS) return;
  pf_snprintf(z->from, sizeof z->from, "hand:%d", p);
  z->card = MV_A(m);
  if (kind == K_PAIR || kind == K_STEAL)
    pf_snprintf(z->to, sizeof z->to, "captures:%d", kind == K_PAIR ? p : MV_B(m));
  else if (kind == K_TABLE_CAPTURE)
    pf_pool_id("table", s->card, s->heap, table_find(s, (pf_card)MV_B(m)), z->to);
  else if (!s->fct)
    strcpy(z->to, "discard");
}

/* What a move does, as anyone sees it: every capture is made face up; a discard too. */
void thf_describe(const void *vs, pf_move m, int viewer, const pf_style *st, pf_buf *out) {
  const thf_state *s = vs;
  char a[32], b[32];
  int q = MV_B(m);
  pf_card_render(MV_A(m), st, a);
  switch (MV_KIND(m)) {
  case K_DISCARD:
    pf_buf_printf(out, "discards %s%s", a, s->fct ? " to the table, ending the turn" : " and draws one");
    break;
  case K_PAIR: pf_buf_printf(out, "lays the pair %s %s", a, pf_card_render((pf_card)q, st, b)); break;
  case K_DISCARD_CAPTURE:
    pf_buf_printf(out, "%s takes the discard %s", a, pf_card_render(card_of(s, s->heap[s->nheap - 1]), st, b));
    break;
  case K_TABLE_CAPTURE: pf_buf_printf(out, "%s takes the table card %s", a, pf_card_render((pf_card)q, st, b)); break;
  case K_STEAL: {
    char whose[32];
    int cards = s->cap_size[s->pile_top[q]];
    if (q == viewer)
      strcpy(whose, "your");
    else
      pf_snprintf(whose, sizeof whose, "seat %d's", q);
    pf_buf_printf(out, "%s %s %s top capture (%d card%s)", a, s->phase == PH_ANSWER ? "re-captures" : "steals", whose, cards,
                  cards == 1 ? "" : "s");
    break;
  }
  default: pf_buf_puts(out, s->phase == PH_ANSWER ? "passes: no re-capture" : "passes, ending the turn"); break;
  }
}
