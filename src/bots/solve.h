/*
 * solve.h - an exact search of the rest of a deal, for ismcts's `solve` setting.
 *
 * Late in a deal little or nothing may be hidden: in 2-player Steal the Pile the last round's
 * hands are every card not yet seen. There a search that plays every line to the end of the deal
 * (alpha-beta over a determinization) knows what a sampled tree only estimates. pf_solve does
 * that over k determinizations for the seat (perfect-information Monte Carlo: each sample solved
 * exactly, the root's moves scored by their mean value over the samples), and gives up, leaving
 * the choice to the search, when a line meets a chance event (a deal still to come) before the
 * end, or the samples together need more than a budget of positions. Two players only (the value
 * of a position is then one number, the root seat's, which the other seat minimizes).
 *
 * A position's value at the end is what ismcts credits a playout with (pf_search_rewards): the
 * root seat's share of the win when the game is over, or its lead in standing gained since the
 * root at the end of a deal that does not end the game; ties between equal shares go to the
 * larger lead in standing. It reads only determinizations, so it can tell positions apart only
 * by what the seat may see, as the search does.
 */
#ifndef PF_SOLVE_H
#define PF_SOLVE_H

#include "bots/bot.h"

#define PF_SOLVE_DEPTH 12       /* plies searched at most: a longer line is given up, and soon, since
                                 * the search goes down its first line first */
#define PF_SOLVE_NODES 200000   /* positions visited at most, over all the samples of one choice */

/* The scratch memory pf_solve needs for a game (given it at an address aligned to 64 bytes). */
size_t pf_solve_scratch(const pf_game *g);
/* At st, the seat to move (of a 2-player game) choosing among its n legal moves: solves k
 * determinizations for `observer` (the seat; PF_VIEW_HANDS or, for none, PF_VIEW_ALL only for
 * ismcts's measuring instruments) drawn from rng to the end of the deal (horizon) or of the game, and writes the
 * best move on average to *best; false when it gave up (the choice is then the caller's). Counts
 * the positions visited in stats->nodes. */
bool pf_solve(const pf_game *g, const void *st, int observer, const pf_move *moves, int n, int k, bool horizon, pf_rng *rng,
              char *scratch, pf_move *best, pf_bot_stats *stats);

/* Each seat's reward at the end of a playout, in 1/PF_WIN_UNIT (ismcts.c): its share of the win
 * when the game is over, or at a cut its lead in standing gained since `before`. */
void pf_search_rewards(const pf_game *g, const void *d, int players, bool cut, const int *before, uint64_t *share);

#endif
