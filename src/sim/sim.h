/*
 * sim.h - many bot games on many threads, and their results (SPEC §4).
 *
 * Game i of a run is determined by (seed, i) alone: its deal, its chance and its bots' generators
 * come from them, whatever the threads or shards. With `rotate`, games come in groups of one
 * deal per rotation of the seats: game i plays deal i / N with the seat list turned by i mod N.
 *
 * Results are kept as integer sums (wins in 1/PF_WIN_UNIT of a game, so that a win shared by up to 12
 * seats is exact; scores and their squares; moves), so adding the results of threads or shards
 * is exact and does not depend on the order: merging the shards of a run gives, bit for bit, the
 * result of the whole run. Rates, means, deviations and confidence intervals are worked out from
 * the sums only when a result is shown.
 *
 * With `analyze` the same games are also measured for designers (analyze.h): the loop keeps a
 * trace of each game and adds its design metrics to the sums, exact in the same way.
 */
#ifndef PF_SIM_H
#define PF_SIM_H

#include <jansson.h>
#include <stdbool.h>

#include "bots/bot.h"
#include "core/game.h"
#include "sim/analyze.h"

/* A run: what to play. */
typedef struct pf_sim_config {
  const pf_game *game;
  int players;
  pf_options options;
  char seats[PF_MAX_PLAYERS][PF_BOT_SPEC]; /* bot specs, seat 0 first */
  long long games;                         /* games in the whole run */
  uint64_t seed;
  bool rotate;
  int shard, nshards;                      /* this run is slice shard (1..nshards) of the games */
  bool analyze;                            /* also measure the design metrics (analyze.h) */
} pf_sim_config;

/* The sums of a run, or of a part of it. A bot is a distinct spec of the seat list; in each game
 * it scores the win shares of the seats it holds. */
typedef struct pf_sim_sums {
  long long games, moves;
  long long win[PF_MAX_PLAYERS], win_sq[PF_MAX_PLAYERS];     /* per seat, in PF_WIN_UNIT */
  long long score[PF_MAX_PLAYERS], score_sq[PF_MAX_PLAYERS]; /* per seat */
  long long bot_win[PF_MAX_PLAYERS], bot_win_sq[PF_MAX_PLAYERS]; /* per bot, in PF_WIN_UNIT */
  /* Per entry of the seat list (--seat k, which --rotate moves round the table), in PF_WIN_UNIT:
   * its own wins even when another entry has the same spec (analyze --skill measures entry 0). */
  long long entry_win[PF_MAX_PLAYERS], entry_win_sq[PF_MAX_PLAYERS];
  /* Per entry of the seat list (the bot of --seat k, which --rotate moves round the table): the
   * games its bot failed in, by kind (bot.h; at most one failure a game), the moves its fallback
   * bot played, and the games it lost by failure (fail=lose). Zero for bots that cannot fail. */
  long long failed[PF_BOT_FAIL_KINDS][PF_MAX_PLAYERS];
  long long fallback_moves[PF_MAX_PLAYERS], lost[PF_MAX_PLAYERS];
  pf_an_sums an;                                                 /* with analyze; zero otherwise */
} pf_sim_sums;

typedef struct pf_sim_result {
  pf_sim_config config;
  pf_sim_sums sums;
  double seconds; /* wall time */
} pf_sim_result;

/* A mean with its 95% confidence interval (scores: normal approximation; win rates: Wilson's). */
typedef struct pf_sim_estimate {
  double mean, sd, lo, hi;
} pf_sim_estimate;

/* The mean of n values given their sum and sum of squares (each value scaled by `scale`), with
 * the sample's standard deviation and the normal 95% interval of the mean. */
pf_sim_estimate pf_sim_mean(long long sum, long long sum_sq, long long n, double scale);
/* The same for shares of a win in PF_WIN_UNIT (a count of 0/1 events scaled so), with Wilson's
 * interval. */
pf_sim_estimate pf_sim_wilson(long long sum, long long sum_sq, long long n);

/* The distinct bots of a seat list, in the order they first appear: writes the index of each
 * seat's bot to seat_bot and returns how many bots there are. */
int pf_sim_bots(const pf_sim_config *c, int *seat_bot);
/* The games of this run's slice: [first, first + count). */
void pf_sim_slice(const pf_sim_config *c, long long *first, long long *count);

/* How a run goes: threads (0: every core), records written to records_dir when it is not NULL
 * (one file per game, named by its number), and progress called now and then from the calling
 * thread with the games done so far (when not NULL). */
typedef struct pf_sim_run_opts {
  int threads;
  const char *records_dir;
  void (*progress)(void *ctx, long long done, long long total);
  void *ctx;
  /* With analyze: when not NULL, the games' rows as CSV (RFC 4180, CRLF) are appended here, a
   * header and then one row per game and seat in the order of the games (docs/cli.md, --csv). */
  pf_buf *csv;
} pf_sim_run_opts;

/* Plays the run's slice. Fails (with a message) when a bot spec is bad, the game does not start
 * with these options, or a record cannot be written. */
int pf_sim_run(const pf_sim_config *c, const pf_sim_run_opts *opts, pf_sim_result *out, pf_error *err);

/* The win share of seat p (or of bot b) per game, and the score of seat p. */
pf_sim_estimate pf_sim_seat_wins(const pf_sim_result *r, int p);
pf_sim_estimate pf_sim_bot_wins(const pf_sim_result *r, int b);
pf_sim_estimate pf_sim_entry_wins(const pf_sim_result *r, int k);
pf_sim_estimate pf_sim_seat_score(const pf_sim_result *r, int p);
/* The games the bot of entry k of the seat list failed in, of every kind. */
long long pf_sim_failed_games(const pf_sim_sums *s, int k);

/* The result as SPEC §4's JSON object, with the sums that merge reads; with analyze, also the
 * "analysis" and its sums (docs/cli.md): written compact to w, or as a value to read (caller
 * owns it). */
struct pf_jw;
void pf_sim_write(struct pf_jw *w, const pf_sim_result *r);
json_t *pf_sim_json(const pf_sim_result *r);
/* Reads a result written by pf_sim_json; `what` names it in messages (a file name). */
int pf_sim_from_json(json_t *j, const char *what, pf_sim_result *out, pf_error *err);
/* Adds up the shards of one run: every shard of it exactly once, all of the same run. The result
 * is the whole run (shard 1 of 1); its wall time is the sum of the shards'. */
int pf_sim_merge(const pf_sim_result *parts, int n, pf_sim_result *out, pf_error *err);

#endif
