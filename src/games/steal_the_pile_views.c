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
