/*
 * deck.h - building decks and checking explicit deals (RULINGS G-3).
 */
#ifndef PF_DECK_H
#define PF_DECK_H

#include "core/buf.h"
#include "core/card.h"

#define PF_MAX_DEAL 128 /* cards in the largest deal of any game */

/* One deck order, top card first. */
typedef struct pf_deal {
  int ncards;
  pf_card cards[PF_MAX_DEAL];
} pf_deal;

/* ndecks standard 52-card decks followed by `jokers` jokers, in a fixed order (deck by deck, ace
 * of spades first). Returns the number of cards written. */
int pf_deck_standard(pf_card *out, int ndecks, int jokers);
/* Skip-Bo Junior: eight each of 1-10 and 16 wilds (96 cards). */
int pf_deck_skipbo_junior(pf_card *out);

/* Checks that a deal holds exactly the cards of `deck` (as a multiset); the message names the
 * first card that is missing or extra. */
int pf_deal_check(const pf_deal *deal, const pf_card *deck, int ndeck, pf_error *err);

/* Checks every deal given against the deck; the message starts "deal K: " (K counting from 1). */
int pf_deals_check(const pf_deal *deals, int ndeals, const pf_card *deck, int ndeck, pf_error *err);
/* Checks that n cards are exactly ndecks standard decks and `jokers` jokers (for invariant
 * checks of a game's cards). */
int pf_cards_are_decks(const pf_card *cards, int n, int ndecks, int jokers, pf_error *err);

/* How many times card c is in a list of cards. */
int pf_card_count(const pf_card *cards, int n, pf_card c);

#endif
