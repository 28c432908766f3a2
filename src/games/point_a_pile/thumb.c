/*
 * thumb.c - the greedy bot's rule of thumb for Point-a-Pile (bots/greedy.c).
 */
#include "games/point_a_pile/pap.h"

/* Point at the pile that adds most to your score as your row stands (the bigger pile when equal),
 * or tap empty space when every pile would cost you. As Headpointer, keep the cards that help you
 * together on the pile that helps you most, and spread the others over new piles (or where they
 * help you least), so that everyone finds a pile and yours is less likely to be contested. Keep
 * your action cards (pass); give away the card of your row worth least to you; throw at random.
 * What a pile or a card would add to your score (pap_score_with less your score) is found once
 * for each pile and card, not once for each move. */
void pap_rate_moves(const void *vs, const pf_move *moves, int n, int64_t *rating) {
  const pap_state *t = vs;
  int seat = pap_to_move(t), l = top_level(t), before = 0;
  enum { UNKNOWN = -1000000 };
  int pile_gain[MAXP + 1], card_gain[MAX_DRAW];
  uint8_t ks[MAX_DRAW];
  for (int i = 0; i < MAXP + 1; i++) pile_gain[i] = UNKNOWN;
  for (int i = 0; i < MAX_DRAW; i++) card_gain[i] = UNKNOWN;
  if (n && (MV_KIND(moves[0]) == MV_POINT || MV_KIND(moves[0]) == MV_PLACE)) before = pap_score_of(t, seat);
  for (int i = 0; i < n; i++) {
    pf_move m = moves[i];
    int kind = MV_KIND(m), a = MV_A(m), b = MV_B(m);
    if (kind == MV_POINT) {
      int nk = b == EMPTY ? 0 : pap_pile_cards(t, l, b, ks);
      rating[i] = b == EMPTY ? 0 : 100 * (pap_score_with(t, seat, ks, nk) - before) + nk;
      if (b != EMPTY && rating[i] <= 0) rating[i] -= 1000; /* a pile that costs: empty space first */
    } else if (kind == MV_PLACE) {
      if (pile_gain[b] == UNKNOWN) {
        int nk = b < t->npiles[l] ? pap_pile_cards(t, l, b, ks) : 0;
        pile_gain[b] = pap_score_with(t, seat, ks, nk) - before;
      }
      if (card_gain[a] == UNKNOWN) card_gain[a] = pap_score_with(t, seat, &(uint8_t){(uint8_t)a}, 1) - before;
      if (card_gain[a] > 0)
        rating[i] = 10000 + 100 * pile_gain[b] + (b < t->npiles[l]);
      else
        rating[i] = (b == t->npiles[l] ? 5000 : 0) - 100 * pile_gain[b];
    } else if (kind == MV_GIVE) {
      row_stats st = pap_stats_of(t, seat);
      rating[i] = -pap_row_value(t, seat, &st, b);
    } else {
      rating[i] = kind == MV_PASS; /* keep action cards; a throw or an action: all alike */
    }
  }
}
