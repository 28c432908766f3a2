/*
 * measure.h - what a game measures itself with, and what newcomers read of it: the cases of
 * `pilfer bench` (cli/cli_bench.c) and of the strength runs (`pilfer games --strength`, read by
 * scripts/strength), the short whole game the browser tests play, and the lobby's copy (`pilfer
 * games --json`: its description and how long a game is).
 *
 * Each game declares one pf_measures next to its code and points its pf_game's `measures` at it;
 * the bench and the strength runs run every registered game's. The conformance suite checks that
 * every case is one the game plays (players in its range, options it accepts) and tests/test_sim.c
 * checks the length against a fresh sim.
 */
#ifndef PF_MEASURE_H
#define PF_MEASURE_H

/* Each list ends at its first entry with players 0, or after PF_MAX_CASES entries (PF_CASES walks
 * it). */
#define PF_MAX_CASES 6
#define PF_CASES(c, list) for (c = (list); c < (list) + PF_MAX_CASES && c->players; c++)

/* Random playouts: `games` games with `players` seats and options ("key=value ...", NULL for the
 * defaults); `label` is what the bench's options column says instead of the options, if given. */
typedef struct pf_playout_case {
  int players, games;
  const char *options, *label;
} pf_playout_case;

/* ismcts searches of `iters` iterations on the positions a random game from each of `positions`
 * seeds reaches after plies[0], plies[1] and plies[2] moves, default options. */
typedef struct pf_search_case {
  int players, iters, positions, plies[3];
} pf_search_case;

/* A sim of `games` games with seats rotated: `seats` is the bot specs, space-separated, seat 0
 * first; options as above. */
typedef struct pf_sim_case {
  int players, games;
  const char *seats, *options;
} pf_sim_case;

typedef struct pf_measures {
  pf_playout_case playouts[PF_MAX_CASES]; /* the bench's random playouts */
  pf_search_case searches[PF_MAX_CASES];  /* the bench's ismcts searches */
  pf_sim_case sims[PF_MAX_CASES];         /* the bench's short sims: ismcts:iters=300 first */
  pf_sim_case strength[PF_MAX_CASES];     /* the rows of docs/strength.md: the first bot's share */
  int quick_players;                      /* a short whole game, which the browser tests play */
  const char *quick_options;              /* (`pilfer games --json`: "quick"); options as above */
  /* The lobby's copy (`pilfer games --json`): one paragraph for newcomers saying what the game is,
   * and how long a game is: the mean moves of a game (chance events counted) of `length_players`
   * greedy bots at the default options, as `pilfer sim` measured it (tests/test_sim.c checks the
   * figure against a fresh sim, so that it cannot drift from the engine). */
  const char *description;
  int length_players, length_moves;
} pf_measures;

#endif
