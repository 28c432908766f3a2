/*
 * thumb.c - the greedy bot's rule of thumb for Point-a-Pile (bots/greedy.c).
 */
#include "games/point_a_pile/pap.h"

/* What the drawn cards ks (bottom first) would add to seat's score if they joined its row now. */
static int gain_of(pap_state *t, int seat, const uint8_t *ks, int n) {
  int before = pap_score_of(t, seat), len = t->row_len[seat];
  for (int i = 0; i < n && t->row_len[seat] < MAX_CARDS; i++) t->row[seat][t->row_len[seat]++] = (uint8_t)slot_of(t, ks[i]);
  int after = pap_score_of(t, seat);
  t->row_len[seat] = (uint8_t)len;
  return after - before;
}

/* Point at the pile that adds most to your score as your row stands (the bigger pile when equal),
 * or tap empty space when every pile would cost you. As Headpointer, keep the cards that help you
 * together on the pile that helps you most, and spread the others over new piles (or where they
 * help you least), so that everyone finds a pile and yours is less likely to be contested. Keep
 * your action cards (pass); give away the card of your row worth least to you; throw at random. */
void pap_rate_moves(const void *vs, const pf_move *moves, int n, int64_t *rating) {
  pap_state copy = *(const pap_state *)vs, *t = &copy; /* rows grow and shrink in the copy */
  int seat = pap_to_move(t), l = top_level(t);
  uint8_t ks[MAX_DRAW];
  for (int i = 0; i < n; i++) {
    pf_move m = moves[i];
    int kind = MV_KIND(m), a = MV_A(m), b = MV_B(m);
    if (kind == MV_POINT) {
      int nk = b == EMPTY ? 0 : pap_pile_cards(t, l, b, ks);
      rating[i] = b == EMPTY ? 0 : 100 * gain_of(t, seat, ks, nk) + nk;
      if (b != EMPTY && rating[i] <= 0) rating[i] -= 1000; /* a pile that costs: empty space first */
    } else if (kind == MV_PLACE) {
      uint8_t card = (uint8_t)a;
      int nk = b < t->npiles[l] ? pap_pile_cards(t, l, b, ks) : 0;
      int pile_gain = gain_of(t, seat, ks, nk), card_gain = gain_of(t, seat, &card, 1);
      if (card_gain > 0)
        rating[i] = 10000 + 100 * pile_gain + (b < t->npiles[l]);
      else
        rating[i] = (b == t->npiles[l] ? 5000 : 0) - 100 * pile_gain;
    } else if (kind == MV_GIVE) {
      row_stats st = pap_stats_of(t, seat);
      rating[i] = -pap_row_value(t, seat, &st, b);
    } else {
      rating[i] = kind == MV_PASS; /* keep action cards; a throw or an action: all alike */
    }
  }
}
