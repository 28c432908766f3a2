/*
 * slots.h - what games share whose state names every card by its slot: its place in the deal's
 * deck order (card[slot], top card first), wherever the card is now (a hand, a pile, the stock
 * from some slot on). Steal the Pile and Thief keep their state so; determinizing then rewrites
 * card[] at the slots a seat cannot see, and the views read card[] through the slots.
 */
#ifndef PF_SLOTS_H
#define PF_SLOTS_H

#include <stdint.h>

#include "core/buf.h"
#include "core/card.h"
#include "core/deck.h"
#include "core/game.h"
#include "core/rng.h"
#include "core/view.h"

/* Hands as a game keeps them: seat p's cards are the slots hands[p * stride + i], i < lens[p]. */
typedef struct pf_hands {
  const uint8_t *slots;
  int stride;
  const uint8_t *lens;
  int players;
} pf_hands;

/* Deal k of a game: the k-th given deal (k < ngiven), else `deck` (ndeck cards in its standard
 * order) shuffled with pf_rng_seed(seed, k) (G-3). Writes ndeck cards to card. */
void pf_slots_load_deal(pf_card *card, const pf_card *deck, int ndeck, const pf_deal *given, int ngiven, int k,
                        uint64_t seed);
/* Resamples n hidden cards in place: sorts them by code, then shuffles them (Fisher-Yates as
 * pf_shuffle). Sorting first makes the result depend only on which cards are hidden, never on the
 * order they lay in, so two positions that differ only in what a seat cannot see determinize
 * alike: the bots' non-interference rests on it (game.h, determinize). */
void pf_cards_resample(pf_card *cards, int n, pf_rng *rng);
/* Resamples the cards at the n slots among themselves (pf_cards_resample): what they hide. */
void pf_slots_shuffle(pf_card *card, const uint8_t *slots, int n, pf_rng *rng);
/* The slots every seat but `seat` holds, then the stock (slots next..ncards-1): what `seat`
 * cannot see in most games (every hand for PF_VIEW_PUBLIC). Returns how many were written
 * (nothing for PF_VIEW_ALL). */
int pf_slots_hidden(const pf_hands *h, int seat, int next, int ncards, uint8_t *out);

/* ---- the view's pieces, written by a game's view_write (game.h) ---- */

/* The cards at n slots, as an array of strings. */
void pf_slots_write(pf_jw *w, const pf_card *card, const uint8_t *slots, int n);
/* The same cards as a zone's (pf_zone_open: its "cards" array is open): those from index `shown`
 * on, nulls before it (0: all seen; n: none). */
void pf_slots_cards_write(pf_jw *w, const pf_card *card, const uint8_t *slots, int n, int shown);
/* The stock, slots next..ncards-1, next card first. */
void pf_stock_write(pf_jw *w, const pf_card *card, int next, int ncards);
/* The view's "hands": [{size, cards}] with the cards only for `seat` (every seat for PF_VIEW_ALL,
 * none for PF_VIEW_PUBLIC). */
void pf_hands_write(pf_jw *w, const pf_card *card, const pf_hands *h, int seat);

/* The zones "hand:p" of the JSON view (docs/views.md), one per seat: its cards where `seat` may
 * see them (pf_view_sees_own), nulls elsewhere. */
void pf_hands_zones_write(pf_jw *w, const pf_card *card, const pf_hands *h, int seat);
/* The zone "stock": slots next..ncards-1, bottom first (the next card is its top), the cards only
 * for PF_VIEW_ALL. */
void pf_stock_zone_write(pf_jw *w, const pf_card *card, int next, int ncards, int seat);
/* One zone of kind "pool" per card at n slots, in order: a table of single cards (Steal the
 * Pile's open piles, Four Card Thief's table cards), labelled "<label> 7S". The id of the card at
 * slots[k] is "<prefix>:7S" (pf_pool_id), "<prefix>:7S.2" for a second equal card (two decks). */
void pf_pool_zones_write(pf_jw *w, const char *prefix, const char *label, const pf_card *card, const uint8_t *slots,
                         int n);
void pf_pool_id(const char *prefix, const pf_card *card, const uint8_t *slots, int k, char id[PF_ZONE_ID]);

/* The cards at n slots for a person, separated by sep. */
void pf_slots_render(const pf_card *card, const uint8_t *slots, int n, const char *sep, const pf_style *st,
                     pf_buf *out);
/* The text view's hand lines: "Your hand: ..." for `seat` (every hand for PF_VIEW_ALL, "Seat p's
 * hand:"), then "Others hold: seat 1 3 cards; ..." for a seat, or "Hands: seat 0 3 cards; ..."
 * for PF_VIEW_PUBLIC. */
void pf_hands_text(const pf_card *card, const pf_hands *h, int seat, const pf_style *st, pf_buf *out);

#endif
