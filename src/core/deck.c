/*
 * deck.c - decks and deal checking.
 */
#include "core/deck.h"

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

void pf_card_counts(const pf_card *cards, int n, int counts[256]) {
  memset(counts, 0, 256 * sizeof counts[0]);
  for (int i = 0; i < n; i++) counts[cards[i]]++;
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
  memcpy(d.cards, cards, (size_t)n);
  return pf_deal_check(&d, deck, pf_deck_standard(deck, ndecks, jokers), err);
}

int pf_deal_check(const pf_deal *deal, const pf_card *deck, int ndeck, pf_error *err) {
  if (deal->ncards != ndeck)
    return pf_fail(err, "the deal has %d cards, the game needs %d", deal->ncards, ndeck);
  int want[256], have[256];
  pf_card_counts(deck, ndeck, want);
  pf_card_counts(deal->cards, deal->ncards, have);
  /* A card foreign to the deck is named first: it is the likelier mistake. */
  for (int pass = 0; pass < 2; pass++)
    for (int c = 0; c < 256; c++) {
      if (have[c] == want[c] || (pass == 0 && want[c] != 0)) continue;
      char s[PF_CARD_STR];
      pf_card_str((pf_card)c, s);
      if (want[c] == 0) return pf_fail(err, "the deal holds %s, which is not in this game's deck", s);
      return pf_fail(err, "the deal holds %s %d time%s, the deck has it %d time%s", s, have[c],
                     have[c] == 1 ? "" : "s", want[c], want[c] == 1 ? "" : "s");
    }
  return 0;
}
