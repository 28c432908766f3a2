/*
 * cli_bench.c - `pilfer bench` (SPEC §5): the fixed benchmark.
 *
 * On one thread with fixed seeds, the cases every registered game declares in its measures
 * (core/measure.h): random playouts (and each game's speed over all its cases), ismcts searches on
 * fixed positions, and a short sim of ismcts against greedy. The last line is `Bench: N`, where N adds up the moves played and the legal
 * moves offered at every seat's turn (a perft-like count), the searches' iterations, simulated
 * moves and nodes, and the sims' moves and wins. N depends only on the engine's behaviour: the
 * same on every machine and run, and different as soon as a rule, the move order, the generator
 * or a bot changes. One part is timed and so left out of N: parallel ismcts (bench_parallel).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "bots/bot.h"
#include "core/clock.h"
#include "core/measure.h"
#include "games/registry.h"
#include "sim/sim.h"

/* Seeds of the benchmark's games and of its random player. */
#define BENCH_SEED 20261121u

typedef struct bench_row {
  long games, moves, branching;
  double seconds;
} bench_row;

/* The options column of a playout case: its label, or its options, or "-". */
static const char *case_label(const pf_playout_case *c) { return c->label ? c->label : c->options ? c->options : "-"; }

static int run_case(const pf_game *g, const pf_playout_case *bc, bench_row *row) {
  void *st = pf_xmalloc(g->state_size);
  pf_setup setup = {.players = bc->players};
  pf_options_default(g->options, g->noptions, &setup.options);
  pf_error oerr;
  if (pf_options_parse_list(g->options, g->noptions, bc->options, &setup.options, &oerr) != 0) {
    cli_error("bench: %s: %s", g->id, oerr.msg);
    free(st);
    return -1;
  }
  pf_rng rng;
  pf_rng_seed(&rng, BENCH_SEED, (uint64_t)bc->players);
  memset(row, 0, sizeof *row);
  double t0 = pf_clock_seconds();
  for (int i = 0; i < bc->games; i++) {
    pf_error err;
    setup.seed = BENCH_SEED + (uint64_t)i;
    if (g->start(st, &setup, &err) != 0) {
      cli_error("bench: %s: %s", g->id, err.msg);
      free(st);
      return -1;
    }
    row->moves += pf_random_playout(g, st, &rng, &row->branching);
  }
  row->seconds = pf_clock_seconds() - t0;
  row->games = bc->games;
  free(st);
  return 0;
}

/* Searches on the positions of one case; adds up iterations, simulated moves and nodes. */
static int run_search(const pf_game *g, const pf_search_case *sc, bench_row *row, long *nodes) {
  void *st = pf_xmalloc(g->state_size);
  pf_setup setup = {.players = sc->players};
  pf_options_default(g->options, g->noptions, &setup.options);
  char spec[64];
  snprintf(spec, sizeof spec, "ismcts:iters=%d", sc->iters);
  pf_bot bot;
  pf_error err;
  memset(row, 0, sizeof *row);
  *nodes = 0;
  double seconds = 0;
  for (int k = 0; k < sc->positions; k++)
    for (int j = 0; j < 3; j++) {
      setup.seed = BENCH_SEED + (uint64_t)k;
      if (g->start(st, &setup, &err) != 0 || pf_bot_init(&bot, spec, sc->players, BENCH_SEED, j, &err) != 0) {
        cli_error("bench: %s: %s", g->id, err.msg);
        free(st);
        return -1;
      }
      pf_rng rng;
      pf_rng_seed(&rng, BENCH_SEED + (uint64_t)k, 1);
      pf_move moves[PF_MAX_MOVES];
      /* A random game to the position (chance from the game's generator), then one search. */
      for (int ply = 0, who; (who = g->to_move(st)) != PF_NOBODY; ply++) {
        if (who == PF_CHANCE) {
          pf_chance_sample(g, st, NULL);
          continue;
        }
        int n = g->legal(st, moves);
        if (ply >= sc->plies[j] && n > 1) break;
        g->apply(st, moves[pf_rng_below(&rng, (uint32_t)n)]);
      }
      if (g->to_move(st) >= 0) {
        double t0 = pf_clock_seconds();
        pf_move m = pf_bot_choose(&bot, g, st);
        seconds += pf_clock_seconds() - t0;
        int chosen = 0;
        while (moves[chosen] != m) chosen++;
        row->games++;
        row->moves += bot.stats.moves;
        row->branching += bot.stats.iterations; /* iterations */
        *nodes += bot.stats.nodes + chosen;      /* and which move it chose */
      }
      pf_bot_free(&bot);
    }
  row->seconds = seconds;
  free(st);
  return 0;
}

static int run_sim(const pf_game *g, const pf_sim_case *sc, pf_sim_result *r) {
  pf_sim_config c = {.game = g, .players = sc->players, .games = sc->games, .seed = BENCH_SEED,
                     .rotate = true, .shard = 1, .nshards = 1};
  pf_error err;
  pf_options_default(g->options, g->noptions, &c.options);
  if (pf_options_parse_list(g->options, g->noptions, sc->options, &c.options, &err) != 0) {
    cli_error("bench: sim %s: %s", g->id, err.msg);
    return -1;
  }
  char seats[PF_MAX_PLAYERS * PF_BOT_SPEC];
  snprintf(seats, sizeof seats, "%s", sc->seats);
  int p = 0;
  for (char *save = NULL, *s = strtok_r(seats, " ", &save); s && p < sc->players; s = strtok_r(NULL, " ", &save))
    snprintf(c.seats[p++], PF_BOT_SPEC, "%s", s);
  pf_sim_run_opts o = {.threads = 1};
  if (p != sc->players || pf_sim_run(&c, &o, r, &err) != 0) {
    cli_error("bench: sim %s: %s", g->id, p != sc->players ? "a seat for every player is needed" : err.msg);
    return -1;
  }
  return 0;
}

/* Opens a row's object: its game, players (none when negative) and options (none when
 * (const char *)1, null when NULL). */
static void row_open(pf_jw *w, const char *game, int players, const char *options) {
  pf_jw_open(w, '{');
  pf_jw_key_str(w, "game", game);
  if (players >= 0) pf_jw_key_int(w, "players", players);
  if (options == (const char *)1) return;
  pf_jw_key(w, "options");
  if (options)
    pf_jw_str(w, options);
  else
    pf_jw_null(w);
}

/* Each game's speed over all its random playout cases: moves over seconds, a line per game (in
 * JSON, "speeds"). The figure scripts/bench-compare sets against another build's. */
static void bench_speeds(bool json, pf_jw *out, const bench_row *by_game) {
  if (!json) printf("\nSpeed of random playouts by game, over all its cases\n%-16s %12s\n", "game", "moves/s");
  for (int gi = 0; pf_games[gi]; gi++) {
    const bench_row *r = &by_game[gi];
    double v = r->moves / (r->seconds > 0 ? r->seconds : 1e-9);
    if (json) {
      row_open(out, pf_games[gi]->id, -1, (const char *)1);
      pf_jw_key_int(out, "moves", r->moves);
      pf_jw_key_real(out, "seconds", r->seconds);
      pf_jw_key_real(out, "moves_per_second", v);
      pf_jw_close(out, '}');
    } else {
      printf("%-16s %12.0f\n", pf_games[gi]->id, v);
    }
  }
}

/* Random playouts of every game; adds moves and legal moves offered to *total, and each game's
 * moves and seconds to by_game (indexed as pf_games). */
static int bench_playouts(bool json, pf_jw *out, long *total, bench_row *by_game) {
  const pf_playout_case *c;
  int width = 8; /* of the options column: its longest entry */
  for (int gi = 0; pf_games[gi]; gi++)
    PF_CASES(c, pf_games[gi]->measures->playouts)
      if ((int)strlen(case_label(c)) > width) width = (int)strlen(case_label(c));
  if (!json)
    printf("Random playouts\n%-16s %7s %-*s %8s %10s %12s %12s %14s\n", "game", "players", width, "options", "games",
           "moves", "games/s", "moves/s", "legal offered");
  for (int gi = 0; pf_games[gi]; gi++)
    PF_CASES(c, pf_games[gi]->measures->playouts) {
      const pf_game *g = pf_games[gi];
      bench_row r;
      if (run_case(g, c, &r) != 0) return -1;
      double secs = r.seconds > 0 ? r.seconds : 1e-9;
      *total += r.moves + r.branching;
      by_game[gi].moves += r.moves;
      by_game[gi].seconds += r.seconds;
      if (json) {
        row_open(out, g->id, c->players, c->options);
        pf_jw_key_int(out, "games", r.games);
        pf_jw_key_int(out, "moves", r.moves);
        pf_jw_key_int(out, "legal_offered", r.branching);
        pf_jw_key_real(out, "seconds", r.seconds);
        pf_jw_key_real(out, "games_per_second", r.games / secs);
        pf_jw_key_real(out, "moves_per_second", r.moves / secs);
        pf_jw_close(out, '}');
      } else {
        printf("%-16s %7d %-*s %8ld %10ld %12.0f %12.0f %14ld\n", g->id, c->players, width, case_label(c), r.games,
               r.moves, r.games / secs, r.moves / secs, r.branching);
        fflush(stdout);
      }
    }
  return 0;
}

/* ismcts on fixed positions; adds iterations, simulated moves and nodes to *total. */
static int bench_searches(bool json, pf_jw *out, long *total) {
  const pf_search_case *c;
  if (!json)
    printf("\nismcts searches (default settings) on fixed positions\n%-16s %7s %9s %10s %11s %12s %12s\n", "game",
           "players", "searches", "iters", "iterations/s", "sim moves/s", "nodes");
  for (int gi = 0; pf_games[gi]; gi++)
    PF_CASES(c, pf_games[gi]->measures->searches) {
      const pf_game *g = pf_games[gi];
      bench_row r;
      long nodes;
      if (run_search(g, c, &r, &nodes) != 0) return -1;
      double secs = r.seconds > 0 ? r.seconds : 1e-9;
      *total += r.branching + r.moves + nodes;
      if (json) {
        row_open(out, g->id, c->players, (const char *)1);
        pf_jw_key_int(out, "searches", r.games);
        pf_jw_key_int(out, "iterations", r.branching);
        pf_jw_key_int(out, "simulated_moves", r.moves);
        pf_jw_key_int(out, "nodes", nodes);
        pf_jw_key_real(out, "seconds", r.seconds);
        pf_jw_key_real(out, "iterations_per_second", r.branching / secs);
        pf_jw_close(out, '}');
      } else {
        printf("%-16s %7d %9ld %10ld %12.0f %12.0f %12ld\n", g->id, c->players, r.games, r.branching, r.branching / secs,
               r.moves / secs, nodes);
        fflush(stdout);
      }
    }
  return 0;
}

/* Parallel ismcts (ismcts's threads): time-limited searches on the first search position of the
 * first game, one thread and every core (at least 2) in turn, ROUNDS each; prints the iterations
 * each made in the same time and their ratio. Timed, so not in Bench's N. */
#define PAR_MS 200
#define PAR_ROUNDS 3
static int bench_parallel(bool json, pf_jw *out) {
  const pf_game *g = pf_games[0];
  const pf_search_case *sc = &g->measures->searches[0];
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  int threads[2] = {1, cores > 2 ? (int)(cores < PF_BOT_MAX_THREADS ? cores : PF_BOT_MAX_THREADS) : 2};
  long iters[2] = {0, 0};
  void *st = pf_xmalloc(g->state_size);
  pf_setup setup = {.players = sc->players, .seed = BENCH_SEED};
  pf_options_default(g->options, g->noptions, &setup.options);
  pf_error err;
  for (int r = 0; r < PAR_ROUNDS; r++)
    for (int k = 0; k < 2; k++) {
      char spec[64];
      pf_bot bot;
      snprintf(spec, sizeof spec, "ismcts:iters=100000000,time=%d,threads=%d", PAR_MS, threads[k]);
      if (g->start(st, &setup, &err) != 0 || pf_bot_init(&bot, spec, sc->players, BENCH_SEED, 0, &err) != 0) {
        cli_error("bench: parallel %s: %s", g->id, err.msg);
        free(st);
        return -1;
      }
      while (g->to_move(st) == PF_CHANCE) pf_chance_sample(g, st, NULL);
      pf_bot_choose(&bot, g, st);
      iters[k] += bot.stats.iterations;
      pf_bot_free(&bot);
    }
  free(st);
  double ratio = iters[0] ? (double)iters[1] / (double)iters[0] : 0;
  if (json) {
    row_open(out, g->id, sc->players, (const char *)1);
    pf_jw_key_int(out, "threads", threads[1]);
    pf_jw_key_int(out, "milliseconds", PAR_MS * PAR_ROUNDS);
    pf_jw_key_int(out, "iterations_one_thread", iters[0]);
    pf_jw_key_int(out, "iterations", iters[1]);
    pf_jw_key_real(out, "ratio", ratio);
    pf_jw_close(out, '}');
  } else {
    printf("\nParallel ismcts (threads; timed, so not in Bench): %s, %d players, %d x %d ms a side, interleaved\n"
           "%-16s %7s %12s %12s %6s\n",
           g->id, sc->players, PAR_ROUNDS, PAR_MS, "game", "threads", "iterations", "iterations/s", "ratio");
    for (int k = 0; k < 2; k++)
      printf("%-16s %7d %12ld %12.0f %6.2f\n", g->id, threads[k], iters[k], iters[k] / (PAR_ROUNDS * PAR_MS / 1000.0),
             k ? ratio : 1.0);
    fflush(stdout);
  }
  return 0;
}

/* The short sim: ismcts against greedy; adds moves and the first bot's wins to *total. */
static int bench_sims(bool json, pf_jw *out, long *total) {
  const pf_sim_case *c;
  if (!json)
    printf("\nA short sim: ismcts:iters=300 against greedy, seats rotated, one thread\n%-16s %7s %8s %10s %12s %9s\n",
           "game", "players", "games", "moves", "games/s", "ismcts");
  for (int gi = 0; pf_games[gi]; gi++)
    PF_CASES(c, pf_games[gi]->measures->sims) {
      const pf_game *g = pf_games[gi];
      static pf_sim_result r;
      if (run_sim(g, c, &r) != 0) return -1;
      double secs = r.seconds > 0 ? r.seconds : 1e-9;
      *total += r.sums.moves + r.sums.bot_win[0];
      if (json) {
        row_open(out, g->id, c->players, (const char *)1);
        pf_jw_key_int(out, "games", r.sums.games);
        pf_jw_key_int(out, "moves", r.sums.moves);
        pf_jw_key_real(out, "ismcts_wins", (double)r.sums.bot_win[0] / PF_WIN_UNIT);
        pf_jw_key_real(out, "seconds", r.seconds);
        pf_jw_close(out, '}');
      } else {
        printf("%-16s %7d %8lld %10lld %12.1f %9.1f\n", g->id, c->players, r.sums.games, r.sums.moves,
               r.sums.games / secs, (double)r.sums.bot_win[0] / PF_WIN_UNIT);
        fflush(stdout);
      }
    }
  return 0;
}

int cmd_bench(int argc, char **argv) {
  bool json;
  int rc = cli_json_flag(argc, argv,
                         "usage: pilfer bench [--json]\n\n"
                         "On one thread, with fixed seeds: random playouts of every game (games/s,\n"
                         "moves/s, and each game's moves/s over all its cases), ismcts searches on fixed\n"
                         "positions of every game (iterations/s), and a short sim of ismcts against greedy.\n"
                         "Between the last two, timed and outside N: the iterations of ismcts on one\n"
                         "thread and on every core (at least 2) in the same time. Last, 'Bench: N': the\n"
                         "moves played, legal moves offered, search iterations, simulated moves and tree\n"
                         "nodes, and wins, added up: the same on every machine, changed by any change of\n"
                         "behaviour.\n",
                         &json);
  if (rc >= 0) return rc;
  long total = 0;
  int ngames = 0;
  while (pf_games[ngames]) ngames++;
  bench_row *by_game = pf_xcalloc((size_t)ngames, sizeof *by_game);
  pf_buf b = {0};
  pf_jw w = {.b = &b};
  pf_jw_open(&w, '{');
  pf_jw_key(&w, "playouts");
  pf_jw_open(&w, '[');
  rc = bench_playouts(json, &w, &total, by_game);
  pf_jw_close(&w, ']');
  pf_jw_key(&w, "speeds");
  pf_jw_open(&w, '[');
  if (rc == 0) bench_speeds(json, &w, by_game);
  pf_jw_close(&w, ']');
  free(by_game);
  if (rc == 0) {
    pf_jw_key(&w, "searches");
    pf_jw_open(&w, '[');
    rc = bench_searches(json, &w, &total);
    pf_jw_close(&w, ']');
  }
  if (rc == 0) {
    pf_jw_key(&w, "parallel");
    pf_jw_open(&w, '[');
    rc = bench_parallel(json, &w);
    pf_jw_close(&w, ']');
  }
  if (rc == 0) {
    pf_jw_key(&w, "sims");
    pf_jw_open(&w, '[');
    rc = bench_sims(json, &w, &total);
    pf_jw_close(&w, ']');
  }
  if (rc != 0) {
    pf_buf_free(&b);
    return EXIT_OTHER;
  }
  if (json) {
    pf_jw_key_int(&w, "bench", total);
    pf_jw_close(&w, '}');
    cli_print_json(&b, 2);
  }
  pf_buf_free(&b);
  printf("Bench: %ld\n", total);
  return 0;
}
