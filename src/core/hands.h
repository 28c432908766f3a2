/*
 * hands.h - what games share about cards named by slots: the players' hands in views (JSON and
 * text), and resampling the cards a seat cannot see.
 *
 * A game that keeps its deal's deck order in card[] names every card by its slot (its place in
 * that order) wherever the card is, so a hand is a list of slots, and resampling hidden cards
 * rewrites card[] at the hidden slots only (see steal_the_pile.c).
 */
#ifndef PF_HANDS_H
#define PF_HANDS_H

#include <jansson.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/card.h"
#include "core/rng.h"

/* Where a game keeps its players' hands: seat p holds the len[p] slots from slots + p * stride,
 * each naming the card card[slot]. */
typedef struct pf_hands {
  const uint8_t *card;
  const uint8_t *slots;
  int stride;
  const uint8_t *len;
  int players;
} pf_hands;

/* ---- JSON ---- */
/* A card's notation as a JSON string. */
json_t *pf_card_json(pf_card c);
/* n cards as a JSON array of their notations. */
json_t *pf_cards_json(const pf_card *cards, int n);
/* The cards of n slots as a JSON array of their notations. */
json_t *pf_slots_json(const uint8_t *card, const uint8_t *slots, int n);
/* Every hand as a seat may see it: [{"size": n, "cards": [...]}, ...], the cards only of the
 * seat's own hand (of every hand in the full view, seat PF_VIEW_ALL). */
json_t *pf_hands_json(const pf_hands *h, int seat);

/* ---- text ---- */
/* The cards of n slots, rendered for a person, sep between them. */
void pf_slots_text(pf_buf *out, const uint8_t *card, const uint8_t *slots, int n, const char *sep,
                   const pf_style *style);
/* The hands as a seat may see them: its own ("Your hand: 7♥ 9♣") and, with other players, how
 * many cards each of them holds ("Others hold: seat 1 4 cards; seat 2 1 card"); in the full view
 * every hand ("Seat 2's hand: ..."). One line each. */
void pf_hands_text(pf_buf *out, const pf_hands *h, int seat, const char *sep, const pf_style *style);

/* ---- hidden cards ---- */
/* Writes the slots of every hand but the seat's (none for PF_VIEW_ALL); returns how many. */
int pf_hands_hidden(const pf_hands *h, int seat, uint8_t *slots);
/* Shuffles which card is in which of these n slots (a determinization of them). */
void pf_slots_resample(uint8_t *card, const uint8_t *slots, int n, pf_rng *rng);

#endif
