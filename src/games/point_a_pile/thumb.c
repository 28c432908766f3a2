/*
 * thumb.c - the greedy bot's rule of thumb for Point-a-Pile (bots/greedy.c).
 */
#include <string.h>

#include "games/point_a_pile/pap.h"

/* Point at the pile that adds most to your score as your row stands (the bigger pile when equal),
 * or tap empty space when every pile would cost you. As Headpointer, keep the cards that help you
 * together on the pile that helps you most, and spread the others over new piles (or where they
 * help you least), so that everyone finds a pile and yours is less likely to be contested. Give
 * away the card of your row worth least to you; throw at random. What a pile or a card would add
 * to your score (pap_score_with less your score) is found once for each pile and card, not once
 * for each move. Actions are rated apart (rate_actions below): this rule rates them all alike,
 * below passing. */
static void thumb(const pap_state *t, const pf_move *moves, int n, int64_t *rating) {
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
      rating[i] = kind == MV_PASS; /* an action: below passing; a throw: all alike */
    }
  }
}

/* ---- actions: one look ahead to the end of the round ---- */

/* Plies looked at, at most (a round asks a bounded number of times, pap.h; this bounds the look). */
#define AHEAD_PLIES 2000
/* A won game weighs more than any score. */
#define AHEAD_WIN 100000

/* The move the look-ahead plays for everyone: no action (pass), the rule of thumb's choice
 * otherwise, the first of equal ones; in rock-paper-scissors `seat` throws paper, the others rock,
 * so that `seat` wins it (rate_actions weighs that by its odds). */
static pf_move ahead_move(const pap_state *t, int seat, const pf_move *moves, int n) {
  int64_t rating[PF_MAX_MOVES];
  int kind = MV_KIND(moves[0]);
  if (kind == MV_THROW) return MOVE(MV_THROW, 0, pap_next_thrower(t) == seat ? 1 : 0);
  if (kind != MV_GIVE && t->window) return MOVE(MV_PASS, 0, 0);
  thumb(t, moves, n, rating);
  int best = 0;
  for (int i = 1; i < n; i++)
    if (rating[i] > rating[best]) best = i;
  return moves[best];
}

/* Where `seat` stands in t: its score less the best of the others', in hundredths, a won game (or
 * its share) above any score. */
static int64_t ahead_value(const pap_state *t, int seat) {
  int best = -1000000;
  for (int p = 0; p < t->players; p++)
    if (p != seat && pap_score_of(t, p) > best) best = pap_score_of(t, p);
  int64_t v = 100 * (int64_t)(pap_score_of(t, seat) - best);
  if (t->over) {
    int won = t->met ? t->met : pap_standing(t, false);
    if (won >> seat & 1) v += AHEAD_WIN / popcount((unsigned)won);
  }
  return v;
}

/* Plays m on a copy of t, then everyone as ahead_move says, until the round is over (or the game),
 * or until the round's piles are to be made: after Redo, or after the window before the piles
 * (Draw More's); returns where `seat` stands then. */
static int64_t look_ahead(const pap_state *t, int seat, pf_move m, pap_state *work) {
  pf_move moves[PF_MAX_MOVES];
  memcpy(work, t, sizeof *work);
  pap_apply(work, m);
  for (int ply = 0; ply < AHEAD_PLIES && !work->over && work->round == t->round; ply++) {
    int n = pap_legal(work, moves);
    if (MV_KIND(moves[0]) == MV_PLACE && top_level(work) == 0) break; /* the round's piles to make */
    pap_apply(work, ahead_move(work, seat, moves, n));
  }
  return ahead_value(work, seat);
}

/* In a window of actions (and passing): each action is rated by what it gains the seat over
 * passing, both looked at to the end of the round with everyone passing from then on and playing
 * the rule of thumb (ahead_move); where the seat then stands is its score less the best other's,
 * a win above all. An action that gains nothing is rated below passing: the card is kept for a
 * round where it helps. Rock-paper-scissors (Random) counts what winning it gains, times the odds
 * of winning it (one in as many as contend the pile). Draw More cannot be judged so (the look
 * stops when the piles are to be made): the Headpointer, who sees and places the extra cards,
 * counts it as half a point. The look reads only t, which the bot gives as a determinization for
 * its seat (bots/greedy.c). */
static void rate_actions(const pap_state *t, const pf_move *moves, int n, int64_t *rating) {
  pap_state work;
  int seat = pap_to_move(t);
  int64_t pass = look_ahead(t, seat, MOVE(MV_PASS, 0, 0), &work);
  for (int i = 0; i < n; i++) {
    int kind = MV_KIND(moves[i]) - MV_ACT;
    if (kind < 0) {
      rating[i] = 0; /* pass */
      continue;
    }
    int64_t gain = look_ahead(t, seat, moves[i], &work) - pass;
    if (kind == PF_PAP_RANDOM) gain /= popcount((unsigned)pap_contenders(t, top_level(t), MV_B(moves[i])));
    if (kind == PF_PAP_DRAW_MORE && seat == t->head) gain += 50;
    rating[i] = gain > 0 ? gain : gain - 1;
  }
}

void pap_rate_moves(const void *vs, const pf_move *moves, int n, int64_t *rating) {
  const pap_state *t = vs;
  if (t->window && !t->pend && t->rps_pile == NONE)
    rate_actions(t, moves, n, rating);
  else
    thumb(t, moves, n, rating);
}
