/*
 * steal_the_pile_views.c - what Steal the Pile shows (RULINGS STP-1 .. STP-8): the JSON view and
 * its zones (docs/views.md), the text view, what a move is told as and where it takes a card.
 * Everything a seat sees of the game lies face up but the hands and the stock.
 */
#include <stdio.h>
#include <string.h>

#include "core/slots.h"
#include "core/view.h"
#include "games/steal_the_pile.h"

/* ------------------------------------------------------------------------------------------ */
/* Views                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* A pile's cards, bottom first. */
static int pile_slots(const stp_state *s, int q, uint8_t *out) {
  int n = s->size[q];
  int slot = s->top[q];
  for (int i = n - 1; i >= 0; i--, slot = s->below[slot]) out[i] = (uint8_t)slot;
  return n;
}

static void pile_write(const stp_state *s, int q, pf_jw *w) {
  uint8_t slots[MAX_CARDS];
  int n = pile_slots(s, q, slots);
  pf_jw_open(w, '{');
  pf_jw_key_int(w, "size", n);
  pf_jw_key(w, "top");
  if (n)
    pf_card_write(w, s->card[s->top[q]]);
  else
    pf_jw_null(w);
  pf_jw_key(w, "cards");
  pf_slots_write(w, s->card, slots, n); /* everyone saw them played */
  pf_jw_close(w, '}');
}

/* Pile q's zone id: "pile:2", or the deck's own pile in solitaire, "pile:deck". */
static void pile_id(int q, char id[PF_ZONE_ID]) {
  if (q == DECK_PILE)
    strcpy(id, "pile:deck");
  else
    pf_snprintf(id, PF_ZONE_ID, "pile:%d", q);
}

static void pile_zone(const stp_state *s, int q, pf_jw *w) {
  uint8_t slots[MAX_CARDS];
  char id[PF_ZONE_ID], label[32];
  pile_id(q, id);
  if (q == DECK_PILE)
    strcpy(label, "The deck's pile");
  else
    pf_snprintf(label, sizeof label, "Seat %d's pile", q);
  pf_zone_open(w, id, "pile", q == DECK_PILE ? -1 : q, label, PF_STACK);
  pf_slots_cards_write(w, s->card, slots, pile_slots(s, q, slots), 0);
  pf_zone_close(w);
}

/* The zones (docs/views.md): the stock, the open piles (one card each, STP-4), every player's
 * pile (and the deck's, STP-8), the cards set aside (STP-6), the hands. */
static void stp_zones(const stp_state *s, int seat, pf_jw *w) {
  pf_stock_zone_write(w, s->card, s->next_slot, s->ncards, seat);
  pf_pool_zones_write(w, "open", "Open pile", s->card, s->open, s->nopen);
  for (int p = 0; p < s->players; p++) pile_zone(s, p, w);
  if (s->solitaire) pile_zone(s, DECK_PILE, w);
  if (s->naside) {
    pf_zone_open(w, "aside", "other", -1, "Set aside", PF_FAN);
    pf_slots_cards_write(w, s->card, s->aside, s->naside, 0);
    pf_zone_close(w);
  }
  pf_hands h = hands_of(s);
  pf_hands_zones_write(w, s->card, &h, seat);
}

/* ---- the end, in data and in words (view.h: pf_end_open) ---- */

/* Cards as words: "7S, KD and 3H". */
static void cards_words(const pf_card *c, int n, pf_buf *out) {
  char b[PF_CARD_STR];
  for (int i = 0; i < n; i++)
    pf_buf_printf(out, "%s%s", i == 0 ? "" : i == n - 1 ? " and " : ", ", pf_card_str(c[i], b));
}

/* Seats as words: "{0}", "{0} and {2}", "{0}, {1} and {2}". */
static void seats_words(const int *seat, int n, pf_buf *out) {
  for (int i = 0; i < n; i++) pf_buf_printf(out, "%s{%d}", i == 0 ? "" : i == n - 1 ? " and " : ", ", seat[i]);
}

static void cards_field(pf_jw *w, const char *key, const pf_card *c, int n) {
  pf_jw_key(w, key);
  pf_jw_open(w, '[');
  for (int i = 0; i < n; i++) pf_card_write(w, c[i]);
  pf_jw_close(w, ']');
}

/* STP-6: the open piles left after the last round, which end_game handed out: each of the tied
 * seats got the top end_share cards of its pile (in the order laid), the rest lie aside. The event
 * "open_piles_shared": "piles" every open pile's card, "to" [{"seat", "cards"}], "aside". */
static void shared_write(const stp_state *s, pf_jw *w) {
  pf_card given[PF_MAX_PLAYERS][MAX_OPEN], all[MAX_OPEN], aside[MAX_OPEN];
  int tied[PF_MAX_PLAYERS], ntied = 0, n = 0, share = s->end_share;
  for (int p = 0; p < s->players; p++)
    if (s->end_seats >> p & 1) tied[ntied++] = p;
  for (int t = 0; t < ntied; t++) {
    int slot = s->top[tied[t]];
    for (int j = share - 1; j >= 0; j--, slot = s->below[slot]) given[t][j] = s->card[slot];
    for (int j = 0; j < share; j++) all[n++] = given[t][j];
  }
  for (int k = 0; k < s->naside; k++) all[n++] = aside[k] = s->card[s->aside[k]];
  if (n == 0) return; /* no open pile was left */
  pf_end_event(w, "open_piles_shared", "STP-6");
  cards_field(w, "piles", all, n);
  pf_jw_key(w, "to");
  pf_jw_open(w, '[');
  for (int t = 0; t < ntied && share; t++) {
    pf_jw_open(w, '{');
    pf_jw_key_int(w, "seat", tied[t]);
    cards_field(w, "cards", given[t], share);
    pf_jw_close(w, '}');
  }
  pf_jw_close(w, ']');
  cards_field(w, "aside", aside, s->naside);
  pf_buf say = {0};
  if (n == 1)
    pf_buf_puts(&say, "The last open pile, ");
  else
    pf_buf_printf(&say, "The %d open piles left, ", n);
  cards_words(all, n, &say);
  if (ntied == 1) {
    pf_buf_printf(&say, ", went to {%d}, who had the fewest cards (%d, now %d).", tied[0], s->size[tied[0]] - share,
                  s->size[tied[0]]);
  } else if (share) {
    pf_buf_puts(&say, ", were shared out between ");
    seats_words(tied, ntied, &say);
    pf_buf_printf(&say, ", tied for the fewest cards (%d): %d each", s->size[tied[0]] - share, share);
    if (s->naside) {
      pf_buf_printf(&say, "; %s ", s->naside == 1 ? "the one left over," : "the ones left over,");
      cards_words(aside, s->naside, &say);
      pf_buf_printf(&say, ", %s set aside", s->naside == 1 ? "was" : "were");
    }
    pf_buf_putc(&say, '.');
  } else {
    pf_buf_printf(&say, ", %s set aside: ", n == 1 ? "was" : "were");
    seats_words(tied, ntied, &say);
    pf_buf_printf(&say, ", tied for the fewest cards (%d), could not share %s evenly.", s->size[tied[0]],
                  n == 1 ? "it" : "them");
  }
  pf_end_say(w, pf_buf_str(&say));
  pf_buf_free(&say);
}

/* STP-7: the match's last game, and who has the highest total. */
static void match_write(const stp_state *s, pf_jw *w) {
  int best = 0;
  for (int p = 1; p < s->players; p++)
    if (s->total[p] > s->total[best]) best = p;
  pf_end_event(w, "match_over", "STP-7");
  pf_jw_key_int(w, "game_number", s->deal_no + 1);
  pf_jw_key_int(w, "target", s->target);
  pf_jw_key(w, "totals");
  pf_jw_ints(w, s->total, s->players);
  pf_buf say = {0};
  pf_buf_printf(&say, "The match to %d card%s is over after game %d: {%d} has the highest total, %d card%s.",
                s->target, s->target == 1 ? "" : "s", s->deal_no + 1, best, s->total[best], s->total[best] == 1 ? "" : "s");
  pf_end_say(w, pf_buf_str(&say));
  pf_buf_free(&say);
}

/* STP-8: in solitaire the open piles left count for nobody. */
static void unclaimed_write(const stp_state *s, pf_jw *w) {
  pf_card c[MAX_OPEN];
  for (int k = 0; k < s->nopen; k++) c[k] = s->card[s->open[k]];
  pf_end_event(w, "open_piles_unclaimed", "STP-8");
  cards_field(w, "piles", c, s->nopen);
  pf_buf say = {0};
  pf_buf_printf(&say, s->nopen == 1 ? "The last open pile, " : "The %d open piles left, ", s->nopen);
  cards_words(c, s->nopen, &say);
  pf_buf_printf(&say, ", count%s for nobody: {0} against the deck's pile, %d card%s to %d.", s->nopen == 1 ? "s" : "",
                s->size[0], s->size[0] == 1 ? "" : "s", s->size[DECK_PILE]);
  pf_end_say(w, pf_buf_str(&say));
  pf_buf_free(&say);
}

static void end_write(const stp_state *s, pf_jw *w) {
  bool shared = false;
  for (int p = 0; p < s->players && !s->solitaire; p++)
    if (s->end_seats >> p & 1 && s->end_share) shared = true;
  if (!shared && !s->naside && !s->target && !(s->solitaire && s->nopen)) return;
  pf_end_open(w);
  if (s->solitaire && s->nopen) unclaimed_write(s, w);
  if (!s->solitaire) shared_write(s, w);
  if (s->target) match_write(s, w);
  pf_end_close(w);
}

void stp_view_write(const void *vs, int seat, pf_jw *w) {
  const stp_state *s = vs;
  pf_jw_key_int(w, "round", s->round + 1);
  pf_jw_key_int(w, "rounds", s->rounds);
  if (!s->solitaire) {
    pf_jw_key_int(w, "dealer", s->dealer);
  }
  pf_jw_key_int(w, "stock", s->ncards - s->next_slot);
  if (seat == PF_VIEW_ALL) { /* the full state: the stock's order too, next card first */
    pf_jw_key(w, "stock_cards");
    pf_stock_write(w, s->card, s->next_slot, s->ncards);
  }
  pf_jw_key(w, "open_piles");
  pf_slots_write(w, s->card, s->open, s->nopen);
  pf_jw_key(w, "piles");
  pf_jw_open(w, '[');
  for (int p = 0; p < s->players; p++) pile_write(s, p, w);
  pf_jw_close(w, ']');
  pf_hands h = hands_of(s);
  pf_jw_key(w, "hands");
  pf_hands_write(w, s->card, &h, seat);
  if (s->solitaire) {
    pf_jw_key(w, "deck_pile");
    pile_write(s, DECK_PILE, w);
    pf_jw_key(w, "deck_last");
    pf_jw_open(w, '[');
    for (int i = 0; i < s->deck_last_n; i++) {
      char b[PF_MOVE_STR];
      stp_move_str(s, s->deck_last[i], b);
      pf_jw_str(w, b);
    }
    pf_jw_close(w, ']');
  }
  if (s->target) {
    pf_jw_key_int(w, "target", s->target);
    pf_jw_key_int(w, "game_number", s->deal_no + 1);
    pf_jw_key(w, "totals");
    pf_jw_ints(w, s->total, s->players);
  }
  if (s->end_seats) { /* STP-6, once the game is over */
    pf_jw_key(w, "open_piles_went_to");
    pf_jw_open(w, '[');
    for (int p = 0; p < s->players; p++)
      if (s->end_seats >> p & 1) pf_jw_int(w, p);
    pf_jw_close(w, ']');
    pf_jw_key_int(w, "open_piles_share", s->end_share);
  }
  if (s->naside) {
    pf_jw_key(w, "set_aside");
    pf_slots_write(w, s->card, s->aside, s->naside);
  }
  if (s->over) end_write(s, w);
  stp_zones(s, seat, w);
}

static void pile_line(const stp_state *s, int q, const char *name, const pf_style *st, pf_buf *out) {
  char b[32];
  pf_buf_printf(out, "  %-16s", name);
  if (!s->size[q])
    pf_buf_puts(out, " empty\n");
  else
    pf_buf_printf(out, "%3d card%s  top %s\n", s->size[q], s->size[q] == 1 ? " " : "s",
                  pf_card_render(s->card[s->top[q]], st, b));
}

void stp_view_text(const void *vs, int seat, const pf_style *st, pf_buf *out) {
  const stp_state *s = vs;
  char name[32];
  if (s->solitaire)
    pf_buf_printf(out, "Steal the Pile, solitaire: round %d of %d, stock %d\n", s->round + 1,
                  s->rounds, s->ncards - s->next_slot);
  else
    pf_buf_printf(out, "Steal the Pile, %d players: round %d of %d, dealer seat %d, stock %d\n",
                  s->players, s->round + 1, s->rounds, s->dealer, s->ncards - s->next_slot);
  if (s->target) {
    if (s->over) /* end_game added the last game's cards (STP-7) */
      pf_buf_printf(out, "Match to %d, over after game %d. Final totals:", s->target, s->deal_no + 1);
    else
      pf_buf_printf(out, "Match to %d, game %d. Totals before this game:", s->target, s->deal_no + 1);
    for (int p = 0; p < s->players; p++) pf_buf_printf(out, " seat %d: %d", p, s->total[p]);
    pf_buf_putc(out, '\n');
  }
  pf_buf_puts(out, "Open piles: ");
  if (s->nopen)
    pf_slots_render(s->card, s->open, s->nopen, "  ", st, out);
  else
    pf_buf_puts(out, "none");
  pf_buf_puts(out, "\nPiles:\n");
  for (int p = 0; p < s->players; p++) {
    pf_snprintf(name, sizeof name, "seat %d%s", p, p == seat ? " (you)" : "");
    pile_line(s, p, name, st, out);
  }
  if (s->solitaire) {
    pile_line(s, DECK_PILE, "the deck", st, out);
    if (s->deck_last_n) {
      pf_buf_puts(out, "The deck just played: ");
      for (int i = 0; i < s->deck_last_n; i++) {
        pf_buf_printf(out, "%s", i ? "; " : "");
        pf_move m = s->deck_last[i];
        char b[32], t[PF_CARD_STR];
        pf_buf_puts(out, pf_card_render(MOVE_CARD(m), st, b));
        int tg = MOVE_TARGET(m);
        if (tg == T_NONE)
          pf_buf_puts(out, " (new open pile)");
        else if (tg == T_PILE(DECK_PILE))
          pf_buf_puts(out, " (onto its own pile)");
        else if (tg & 0x80)
          pf_buf_puts(out, " (took your pile)");
        else
          pf_buf_printf(out, " (took the open pile %s)", pf_card_render((pf_card)(tg - 1), st, t));
      }
      pf_buf_putc(out, '\n');
    }
  }
  if (s->over) {
    if (s->end_seats) {
      pf_buf_puts(out, "End (STP-6): fewest cards:");
      for (int p = 0; p < s->players; p++)
        if (s->end_seats >> p & 1) pf_buf_printf(out, " seat %d", p);
      pf_buf_printf(out, "; each got %d card%s of the open piles\n", s->end_share, s->end_share == 1 ? "" : "s");
    }
    if (s->naside) {
      pf_buf_puts(out, "Set aside (STP-6): ");
      pf_slots_render(s->card, s->aside, s->naside, "  ", st, out);
      pf_buf_putc(out, '\n');
    }
    return;
  }
  pf_hands h = hands_of(s);
  pf_hands_text(s->card, &h, seat, st, out);
}

/* A card from the mover's hand to the pile it takes (an open pile: the first of equal ones,
 * G-5), or to no zone: laid as a new open pile. */
void stp_move_zones(const void *vs, pf_move m, pf_move_zones *z) {
  const stp_state *s = vs;
  int tg = MOVE_TARGET(m);
  pf_snprintf(z->from, sizeof z->from, "hand:%d", s->turn);
  z->card = MOVE_CARD(m);
  if (tg & 0x80)
    pile_id(tg & 0x7F, z->to);
  else if (tg != T_NONE)
    pf_pool_id("open", s->card, s->open, open_find(s, (pf_card)(tg - 1)), z->to);
}

/* "7♥ takes seat 2's pile (9 cards)": what a move does, as any seat sees it (all is public). */
void stp_describe(const void *vs, pf_move m, int viewer, const pf_style *st, pf_buf *out) {
  const stp_state *s = vs;
  char b[32], t[32];
  int tg = MOVE_TARGET(m), q = tg & 0x7F;
  pf_buf_puts(out, pf_card_render(MOVE_CARD(m), st, b));
  if (tg == T_NONE)
    pf_buf_puts(out, " becomes a new open pile");
  else if (!(tg & 0x80))
    pf_buf_printf(out, " takes the open pile %s", pf_card_render((pf_card)(tg - 1), st, t));
  else if (q == s->turn)
    pf_buf_printf(out, " goes onto %s own pile", q == viewer ? "your" : "their");
  else if (q == DECK_PILE)
    pf_buf_printf(out, " takes the deck's pile (%d card%s)", s->size[q], s->size[q] == 1 ? "" : "s");
  else if (q == viewer)
    pf_buf_printf(out, " takes your pile (%d card%s)", s->size[q], s->size[q] == 1 ? "" : "s");
  else
    pf_buf_printf(out, " takes seat %d's pile (%d card%s)", q, s->size[q], s->size[q] == 1 ? "" : "s");
}
