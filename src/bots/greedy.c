/*
 * greedy.c - the greedy bot: a rule of thumb that a decent person would use.
 *
 * Each game may give its own rule as the method rate_moves (game.h): it rates every legal move
 * (take the biggest pile, play your stockpile first ...), and greedy plays the best, ties broken
 * by its generator. Adding a game's rule is that one function and its `.rate_moves` entry. A game
 * without one gets the generic rule below, so that a new game has a sensible greedy player from
 * the start.
 *
 * Greedy rates the moves on a determinization for its seat, never on the state it is given.
 */
#include <string.h>

#include "bots/bot.h"

/* Determinizations per move in the generic rule. */
#define LOOKAHEAD_SAMPLES 8
/* A game over at the end of the look-ahead weighs more than any score. */
#define WIN_WEIGHT 1000000
/* Plies of replies looked at, at most (a bound for games where the seat waits long). */
#define LOOKAHEAD_PLIES 400

/* The generic rule: for each of a few determinizations for `seat`, every legal move is played on
 * a copy, then the others reply at random (chance drawn from the copy's generator) until `seat`
 * is to choose again or the game is over; the move is rated by `seat`'s score then, a win (or
 * its share) counting more than any score. Every move of one determinization sees the same
 * random replies, so that the moves are compared on equal terms. It reads only the seat's own
 * score, which every game shows it. */
static void lookahead(const pf_game *g, const void *st, int seat, const pf_move *moves, int n, pf_rng *rng,
                      void *scratch, int64_t *rating) {
  char *det = scratch, *work = det + g->state_size;
  pf_move replies[PF_MAX_MOVES];
  memset(rating, 0, sizeof rating[0] * (size_t)n);
  for (int k = 0; k < LOOKAHEAD_SAMPLES; k++) {
    memcpy(det, st, g->state_size);
    g->determinize(det, seat, rng);
    pf_rng base = *rng;
    pf_rng_next(rng);
    for (int i = 0; i < n; i++) {
      pf_rng r = base;
      memcpy(work, det, g->state_size);
      g->apply(work, moves[i]);
      int who = g->to_move(work);
      for (int ply = 0; who != seat && who != PF_NOBODY && ply < LOOKAHEAD_PLIES; ply++) {
        if (who == PF_CHANCE) {
          pf_chance_sample(g, work, NULL);
        } else {
          int m = g->legal(work, replies);
          g->apply(work, replies[pf_rng_below(&r, (uint32_t)m)]);
        }
        who = g->to_move(work);
      }
      int scores[PF_MAX_PLAYERS], winners[PF_MAX_PLAYERS];
      g->scores(work, scores);
      rating[i] += scores[seat];
      if (who == PF_NOBODY) {
        int w = g->winners(work, winners);
        for (int j = 0; j < w; j++)
          if (winners[j] == seat) rating[i] += WIN_WEIGHT / w;
      }
    }
  }
}

static pf_move greedy_choose(pf_bot *bot, const pf_game *g, const void *st) {
  pf_move moves[PF_MAX_MOVES];
  int64_t rating[PF_MAX_MOVES];
  int n = g->legal(st, moves);
  bot->stats = (pf_bot_stats){.offered = n};
  if (n == 1) return moves[0];
  int seat = g->to_move(st);
  char *mem = pf_bot_memory(bot, 3 * g->state_size);
  memcpy(mem, st, g->state_size);
  g->determinize(mem, seat, &bot->rng);
  if (!pf_rate_moves(g, mem, moves, n, rating))
    lookahead(g, mem, seat, moves, n, &bot->rng, mem + g->state_size, rating);
  return moves[pf_bot_best(&bot->rng, rating, n)];
}

const pf_bot_kind pf_bot_greedy = {
    "greedy",
    "the game's rule of thumb (take the biggest pile, play your stockpile first ...); a game without "
    "one: each move looked at one turn ahead, rated by the seat's score",
    NULL,
    0,
    greedy_choose,    NULL,
    NULL,
    false,
    false,
    NULL,
};
