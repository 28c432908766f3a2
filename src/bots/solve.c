/*
 * solve.c - an exact search of the rest of a deal over determinizations (solve.h).
 *
 * Alpha-beta (Knuth and Moore, 1975) on the root seat's value, the moves of each position tried
 * in the order the game's rule of thumb likes them (when it has one), which is what makes the
 * cuts come early. Several moves in a row by one seat are simply several levels where the same
 * side chooses. The positions of the line searched are kept in the scratch memory, one per ply,
 * with their legal moves, so that a search allocates nothing and keeps little on the C stack.
 */
#include "bots/solve.h"

#include <string.h>

#define LEAD_MAX 2047 /* a lead in standing counts within +-LEAD_MAX, below one unit of win share */

typedef struct solver {
  const pf_game *g;
  int seat;                    /* the root seat, whose value the search computes */
  bool horizon;                /* stop at the end of the deal in progress */
  int deal0;                   /* the deal in progress at the root */
  int before[PF_MAX_PLAYERS];  /* each seat's standing at the root */
  char *states;                /* PF_SOLVE_DEPTH + 1 positions, the root first */
  pf_move *moves;              /* PF_SOLVE_DEPTH lists of legal moves */
  long nodes;
  bool gave_up;
} solver;

/* The bytes of the positions, rounded up to whole cache lines so that the move lists after them
 * are aligned whatever a state's size. */
static size_t states_size(const pf_game *g) { return ((PF_SOLVE_DEPTH + 1) * g->state_size + 63) & ~(size_t)63; }

size_t pf_solve_scratch(const pf_game *g) {
  return states_size(g) + (size_t)PF_SOLVE_DEPTH * PF_MAX_MOVES * sizeof(pf_move);
}

/* The root seat's value of a position where the playout would stop: its share of the win (or, at
 * a cut, ismcts's reward for its gain in standing), then its lead in standing gained. */
static int64_t leaf(const solver *s, const void *d, bool cut) {
  uint64_t share[PF_MAX_PLAYERS];
  int now[PF_MAX_PLAYERS];
  pf_search_rewards(s->g, d, 2, cut, s->before, share);
  pf_standing(s->g, d, now);
  int64_t lead = (int64_t)(now[s->seat] - s->before[s->seat]) - (now[1 - s->seat] - s->before[1 - s->seat]);
  if (lead > LEAD_MAX) lead = LEAD_MAX;
  if (lead < -LEAD_MAX) lead = -LEAD_MAX;
  return (int64_t)share[s->seat] * (2 * LEAD_MAX + 1) + lead;
}

/* Sorts the n moves by the rule of thumb's rating, best first (stable: equal ones keep the legal
 * order). Apart from the search so that its ratings are not on the stack during the recursion. */
static void order_moves(const pf_game *g, const void *d, pf_move *moves, int n) {
  int64_t rating[PF_MAX_MOVES];
  if (n < 2 || !pf_rate_moves(g, d, moves, n, rating)) return;
  for (int i = 1; i < n; i++) {
    int64_t r = rating[i];
    pf_move m = moves[i];
    int j = i;
    for (; j > 0 && rating[j - 1] < r; j--) rating[j] = rating[j - 1], moves[j] = moves[j - 1];
    rating[j] = r, moves[j] = m;
  }
}

static int64_t search(solver *s, int depth, int64_t alpha, int64_t beta);

/* The value of the position after move m at `depth` (the child goes to depth + 1). */
static int64_t child_value(solver *s, int depth, pf_move m, int64_t alpha, int64_t beta) {
  const pf_game *g = s->g;
  char *c = s->states + (size_t)(depth + 1) * g->state_size;
  memcpy(c, s->states + (size_t)depth * g->state_size, g->state_size);
  g->apply(c, m);
  if (s->horizon && g->current_deal(c, NULL) != s->deal0) return leaf(s, c, true);
  return search(s, depth + 1, alpha, beta);
}

static int64_t search(solver *s, int depth, int64_t alpha, int64_t beta) {
  const pf_game *g = s->g;
  const void *d = s->states + (size_t)depth * g->state_size;
  int who = g->to_move(d);
  if (who == PF_NOBODY) return leaf(s, d, false);
  if (who == PF_CHANCE || depth == PF_SOLVE_DEPTH || ++s->nodes > PF_SOLVE_NODES) {
    s->gave_up = true; /* a deal still to come, or too much to search */
    return 0;
  }
  pf_move *moves = s->moves + (size_t)depth * PF_MAX_MOVES;
  int n = g->legal(d, moves);
  order_moves(g, d, moves, n);
  bool max = who == s->seat;
  int64_t best = max ? INT64_MIN : INT64_MAX;
  for (int i = 0; i < n && alpha < beta; i++) {
    int64_t v = child_value(s, depth, moves[i], alpha, beta);
    if (s->gave_up) return 0;
    if (max) {
      if (v > best) best = v;
      if (v > alpha) alpha = v;
    } else {
      if (v < best) best = v;
      if (v < beta) beta = v;
    }
  }
  return best;
}

bool pf_solve(const pf_game *g, const void *st, int observer, const pf_move *moves, int n, int k, bool horizon, pf_rng *rng,
              char *scratch, pf_move *best, pf_bot_stats *stats) {
  solver s = {.g = g, .seat = g->to_move(st), .horizon = horizon, .states = scratch,
              .moves = (pf_move *)(scratch + states_size(g))};
  int64_t sum[PF_MAX_MOVES] = {0};
  for (int j = 0; j < k && !s.gave_up; j++) {
    memcpy(s.states, st, g->state_size);
    if (observer != PF_VIEW_ALL) g->determinize(s.states, observer, rng);
    s.deal0 = g->current_deal(s.states, NULL);
    pf_standing(g, s.states, s.before);
    for (int i = 0; i < n && !s.gave_up; i++) sum[i] += child_value(&s, 0, moves[i], INT64_MIN, INT64_MAX);
  }
  stats->nodes += s.nodes;
  if (s.gave_up) return false;
  *best = moves[pf_bot_best(rng, sum, n)];
  return true;
}
