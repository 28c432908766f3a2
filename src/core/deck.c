/*
 * deck.c - decks and deal checking.
 */
#include "core/deck.h"

#include <stdlib.h>
#include <string.h>

int pf_deck_standard(pf_card *out, int ndecks, int jokers) {
  int n = 0;
  for (int d = 0; d < ndecks; d++)
    for (int suit = 0; suit < 4; suit++)
      for (int rank = 1; rank <= 13; rank++) out[n++] = pf_card_make(rank, suit);
  for (int j = 0; j < jokers; j++) out[n++] = PF_CARD_JOKER;
  return n;
}

int pf_deck_skipbo_junior(pf_card *out) {
  int n = 0;
  for (int copy = 0; copy < 8; copy++)
    for (int v = 1; v <= 10; v++) out[n++] = PF_CARD_SBJ(v);
  for (int w = 0; w < 16; w++) out[n++] = PF_CARD_SBJ_WILD;
  return n;
}

int pf_card_count(const pf_card *cards, int n, pf_card c) {
  int k = 0;
  for (int i = 0; i < n; i++) k += cards[i] == c;
  return k;
}

static int card_cmp(const void *a, const void *b) {
  return (int)*(const pf_card *)a - (int)*(const pf_card *)b;
}

int pf_deals_check(const pf_deal *deals, int ndeals, const pf_card *deck, int ndeck, pf_error *err) {
  for (int k = 0; k < ndeals; k++)
    if (pf_deal_check(&deals[k], deck, ndeck, err) != 0) {
      pf_error_prefix(err, "deal %d", k + 1);
      return -1;
    }
  return 0;
}

int pf_cards_are_decks(const pf_card *cards, int n, int ndecks, int jokers, pf_error *err) {
  pf_card deck[PF_MAX_DEAL];
  pf_deal d = {.ncards = n};
  if (n > PF_MAX_DEAL) return pf_fail(err, "%d cards, more than any deal", n);
  memcpy(d.cards, cards, (size_t)n * sizeof cards[0]);
  return pf_deal_check(&d, deck, pf_deck_standard(deck, ndecks, jokers), err);
}

int pf_deal_check(const pf_deal *deal, const pf_card *deck, int ndeck, pf_error *err) {
  if (deal->ncards != ndeck)
    return pf_fail(err, "the deal has %d cards, the game needs %d", deal->ncards, ndeck);
  pf_card want[PF_MAX_DEAL], have[PF_MAX_DEAL];
  memcpy(want, deck, (size_t)ndeck * sizeof deck[0]);
  memcpy(have, deal->cards, (size_t)ndeck * sizeof deck[0]);
  qsort(want, (size_t)ndeck, sizeof want[0], card_cmp);
  qsort(have, (size_t)ndeck, sizeof have[0], card_cmp);
  /* Equal sorted lists are equal multisets. */
  if (memcmp(want, have, (size_t)ndeck * sizeof want[0]) == 0) return 0;
  /* A card foreign to the deck is named first: it is the likelier mistake; then the first card
   * held a wrong number of times. */
  pf_card bad = PF_CARD_NONE;
  for (int i = 0; i < ndeck && bad == PF_CARD_NONE; i++)
    if (pf_card_count(want, ndeck, have[i]) == 0) bad = have[i];
  for (int i = 0; i < ndeck && bad == PF_CARD_NONE; i++)
    if (have[i] != want[i]) bad = have[i] < want[i] ? have[i] : want[i];
  if (bad == PF_CARD_NONE) return 0;
  char s[PF_CARD_STR];
  pf_card_str(bad, s);
  int h = pf_card_count(have, ndeck, bad), w = pf_card_count(want, ndeck, bad);
  if (w == 0) return pf_fail(err, "the deal holds %s, which is not in this game's deck", s);
  return pf_fail(err, "the deal holds %s %d time%s, the deck has it %d time%s", s, h, h == 1 ? "" : "s", w,
                 w == 1 ? "" : "s");
}
