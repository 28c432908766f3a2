/*
 * cli_bench.c - `pilfer bench` (SPEC §5): the fixed benchmark.
 *
 * Random playouts of every registered game at the player counts listed below, with fixed seeds,
 * on one thread. The last line is `Bench: N`, where N is the total number of moves played plus
 * the total number of legal moves offered at every seat's turn (a perft-like count). N depends
 * only on the engine's behaviour: the same on every machine and run, and different as soon as a
 * rule, the move order or the generator changes.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "bots/bot.h"
#include "core/clock.h"
#include "games/registry.h"
#include "sim/sim.h"

/* The fixed workload: a game, a player count, and how many random games to play. Every game of
 * the registry appears at least once; add a line here when a game is added. */
static const struct bench_case {
  const char *game;
  int players;
  int games;
  const char *options; /* "key=value ..." (space-separated) or NULL for the defaults */
  const char *label;   /* what the table's options column says, when not the options themselves */
} CASES[] = {
    {"steal-the-pile", 1, 50000, NULL, NULL},
    {"steal-the-pile", 2, 400000, NULL, NULL},
    {"steal-the-pile", 4, 100000, NULL, NULL},
    {"steal-the-pile", 7, 50000, NULL, NULL},
    {"steal-the-pile", 12, 30000, NULL, NULL},
    {"thief", 2, 20000, NULL, NULL},
    {"thief", 4, 50000, "hands=1", NULL},
    {"thief", 6, 5000, NULL, NULL},
    {"four-card-thief", 2, 50000, NULL, NULL},
    {"four-card-thief", 4, 100000, "hands=1", NULL},
    {"four-card-thief", 6, 10000, NULL, NULL},
    {"skip-bo-junior", 2, 40000, NULL, NULL},
    {"skip-bo-junior", 4, 20000, NULL, NULL},
    {"skip-bo-junior", 6, 20000, NULL, NULL},
    {"piles", 4, 50000, NULL, NULL},
    {"gharat", 2, 20000, NULL, NULL},
    {"gharat", 3, 12000, NULL, NULL},
    {"gharat", 4, 6000, NULL, NULL},
    {"point-a-pile", 2, 200000, NULL, NULL},
    {"point-a-pile", 4, 100000, NULL, NULL},
    {"point-a-pile", 6, 50000, "pile=true", NULL},
    {"point-a-pile", 4, 20000, "police=true missions=true shy=true actions=true", "expansions"},
};
#define NCASES (sizeof CASES / sizeof CASES[0])

static const char *case_label(const struct bench_case *bc) { return bc->label ? bc->label : bc->options; }

/* The searches: ismcts (default settings but its budget) on fixed positions of every game: the
 * positions a random game from each of `positions` seeds reaches after ply, ply + step, ... */
static const struct search_case {
  const char *game;
  int players;
  int iters;
  int positions; /* seeds */
  int plies[3];  /* how far each seed's random game goes before a search */
} SEARCHES[] = {
    {"steal-the-pile", 2, 20000, 4, {0, 16, 32}},
    {"steal-the-pile", 4, 5000, 2, {0, 12, 24}},
    {"thief", 2, 5000, 2, {0, 40, 80}},
    {"four-card-thief", 2, 5000, 2, {0, 20, 40}},
    {"skip-bo-junior", 2, 5000, 2, {0, 20, 40}},
    {"piles", 4, 5000, 2, {0, 12, 24}},
    {"gharat", 2, 5000, 2, {0, 20, 40}},
    {"point-a-pile", 3, 5000, 2, {0, 6, 12}},
};
#define NSEARCHES (sizeof SEARCHES / sizeof SEARCHES[0])

/* The short fixed sim: ismcts against greedy on one thread, seats rotated. */
static const struct sim_case {
  const char *game;
  int players;
  int games;
  const char *seats[4];
} SIMS[] = {
    {"steal-the-pile", 2, 20, {"ismcts:iters=300", "greedy"}},
    {"thief", 2, 6, {"ismcts:iters=300", "greedy"}},
    {"four-card-thief", 2, 10, {"ismcts:iters=300", "greedy"}},
    {"skip-bo-junior", 2, 10, {"ismcts:iters=300", "greedy"}},
    {"piles", 4, 8, {"ismcts:iters=300", "greedy", "ismcts:iters=300", "greedy"}},
    {"gharat", 2, 2, {"ismcts:iters=300", "greedy"}},
    {"point-a-pile", 3, 6, {"ismcts:iters=300", "greedy", "greedy"}},
};
#define NSIMS (sizeof SIMS / sizeof SIMS[0])

/* Seeds of the benchmark's games and of its random player. */
#define BENCH_SEED 20261121u

typedef struct bench_row {
  long games, moves, branching;
  double seconds;
} bench_row;

/* A game of the workload, or NULL after an error (every game of the tables must be registered). */
static const pf_game *bench_game(const char *id) {
  const pf_game *g = pf_game_find(id);
  if (!g) cli_error("bench: game %s is not registered", id);
  return g;
}

static int run_case(const struct bench_case *bc, bench_row *row) {
  const pf_game *g = bench_game(bc->game);
  if (!g) return -1;
  void *st = pf_xmalloc(g->state_size);
  pf_setup setup = {.players = bc->players};
  pf_options_default(g->options, g->noptions, &setup.options);
  pf_error oerr;
  char opts[256];
  snprintf(opts, sizeof opts, "%s", bc->options ? bc->options : "");
  for (char *save = NULL, *kv = strtok_r(opts, " ", &save); kv; kv = strtok_r(NULL, " ", &save))
    if (pf_option_parse_kv(g->options, g->noptions, kv, &setup.options, &oerr) != 0) {
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
static int run_search(const struct search_case *sc, bench_row *row, long *nodes) {
  const pf_game *g = bench_game(sc->game);
  if (!g) return -1;
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
          g->chance_sample(st, NULL);
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

static int run_sim(const struct sim_case *sc, pf_sim_result *r) {
  pf_sim_config c = {.game = bench_game(sc->game), .players = sc->players, .games = sc->games, .seed = BENCH_SEED,
                     .rotate = true, .shard = 1, .nshards = 1};
  pf_error err;
  if (!c.game) return -1;
  pf_options_default(c.game->options, c.game->noptions, &c.options);
  for (int p = 0; p < sc->players; p++) snprintf(c.seats[p], PF_BOT_SPEC, "%s", sc->seats[p]);
  pf_sim_run_opts o = {.threads = 1};
  if (pf_sim_run(&c, &o, r, &err) != 0) {
    cli_error("bench: sim %s: %s", sc->game, err.msg);
    return -1;
  }
  return 0;
}

static json_t *row_json(const char *game, int players, const char *options) {
  json_t *o = json_object();
  json_object_set_new(o, "game", json_string(game));
  json_object_set_new(o, "players", json_integer(players));
  if (options != (const char *)1) json_object_set_new(o, "options", options ? json_string(options) : json_null());
  return o;
}

/* Random playouts of every game; adds moves and legal moves offered to *total. */
static int bench_playouts(bool json, json_t *out, long *total) {
  int width = 8; /* of the options column: its longest entry */
  for (size_t i = 0; i < NCASES; i++)
    if (case_label(&CASES[i]) && (int)strlen(case_label(&CASES[i])) > width) width = (int)strlen(case_label(&CASES[i]));
  if (!json)
    printf("Random playouts\n%-16s %7s %-*s %8s %10s %12s %12s %14s\n", "game", "players", width, "options", "games",
           "moves", "games/s", "moves/s", "legal offered");
  for (size_t i = 0; i < NCASES; i++) {
    bench_row r;
    if (run_case(&CASES[i], &r) != 0) return -1;
    double secs = r.seconds > 0 ? r.seconds : 1e-9;
    *total += r.moves + r.branching;
    if (json) {
      json_t *o = row_json(CASES[i].game, CASES[i].players, CASES[i].options);
      json_object_set_new(o, "games", json_integer(r.games));
      json_object_set_new(o, "moves", json_integer(r.moves));
      json_object_set_new(o, "legal_offered", json_integer(r.branching));
      json_object_set_new(o, "seconds", json_real(r.seconds));
      json_object_set_new(o, "games_per_second", json_real(r.games / secs));
      json_object_set_new(o, "moves_per_second", json_real(r.moves / secs));
      json_array_append_new(out, o);
    } else {
      printf("%-16s %7d %-*s %8ld %10ld %12.0f %12.0f %14ld\n", CASES[i].game, CASES[i].players, width,
             case_label(&CASES[i]) ? case_label(&CASES[i]) : "-", r.games, r.moves, r.games / secs, r.moves / secs, r.branching);
      fflush(stdout);
    }
  }
  return 0;
}

/* ismcts on fixed positions; adds iterations, simulated moves and nodes to *total. */
static int bench_searches(bool json, json_t *out, long *total) {
  if (!json)
    printf("\nismcts searches (default settings) on fixed positions\n%-16s %7s %9s %10s %11s %12s %12s\n", "game",
           "players", "searches", "iters", "iterations/s", "sim moves/s", "nodes");
  for (size_t i = 0; i < NSEARCHES; i++) {
    bench_row r;
    long nodes;
    if (run_search(&SEARCHES[i], &r, &nodes) != 0) return -1;
    double secs = r.seconds > 0 ? r.seconds : 1e-9;
    *total += r.branching + r.moves + nodes;
    if (json) {
      json_t *o = row_json(SEARCHES[i].game, SEARCHES[i].players, (const char *)1);
      json_object_set_new(o, "searches", json_integer(r.games));
      json_object_set_new(o, "iterations", json_integer(r.branching));
      json_object_set_new(o, "simulated_moves", json_integer(r.moves));
      json_object_set_new(o, "nodes", json_integer(nodes));
      json_object_set_new(o, "seconds", json_real(r.seconds));
      json_object_set_new(o, "iterations_per_second", json_real(r.branching / secs));
      json_array_append_new(out, o);
    } else {
      printf("%-16s %7d %9ld %10ld %12.0f %12.0f %12ld\n", SEARCHES[i].game, SEARCHES[i].players, r.games, r.branching,
             r.branching / secs, r.moves / secs, nodes);
      fflush(stdout);
    }
  }
  return 0;
}

/* The short sim: ismcts against greedy; adds moves and the first bot's wins to *total. */
static int bench_sims(bool json, json_t *out, long *total) {
  if (!json)
    printf("\nA short sim: ismcts:iters=300 against greedy, seats rotated, one thread\n%-16s %7s %8s %10s %12s %9s\n",
           "game", "players", "games", "moves", "games/s", "ismcts");
  for (size_t i = 0; i < NSIMS; i++) {
    static pf_sim_result r;
    if (run_sim(&SIMS[i], &r) != 0) return -1;
    double secs = r.seconds > 0 ? r.seconds : 1e-9;
    *total += r.sums.moves + r.sums.bot_win[0];
    if (json) {
      json_t *o = row_json(SIMS[i].game, SIMS[i].players, (const char *)1);
      json_object_set_new(o, "games", json_integer(r.sums.games));
      json_object_set_new(o, "moves", json_integer(r.sums.moves));
      json_object_set_new(o, "ismcts_wins", json_real((double)r.sums.bot_win[0] / PF_SIM_UNIT));
      json_object_set_new(o, "seconds", json_real(r.seconds));
      json_array_append_new(out, o);
    } else {
      printf("%-16s %7d %8lld %10lld %12.1f %9.1f\n", SIMS[i].game, SIMS[i].players, r.sums.games, r.sums.moves,
             r.sums.games / secs, (double)r.sums.bot_win[0] / PF_SIM_UNIT);
      fflush(stdout);
    }
  }
  return 0;
}

int cmd_bench(int argc, char **argv) {
  bool json;
  int rc = cli_json_flag(argc, argv,
                         "usage: pilfer bench [--json]\n\nOn one thread, with fixed seeds: random playouts of every "
                         "game (games/s,\nmoves/s), ismcts searches on fixed positions of every game "
                         "(iterations/s),\nand a short sim of ismcts against greedy. Last, 'Bench: N': the "
                         "moves played,\nlegal moves offered, search iterations, simulated moves and tree nodes, "
                         "and\nwins, added up: the same on every machine, changed by any change of behaviour.\n",
                         &json);
  if (rc >= 0) return rc;
  long total = 0;
  json_t *playouts = json_array(), *searches = json_array(), *sims = json_array();
  if (bench_playouts(json, playouts, &total) != 0 || bench_searches(json, searches, &total) != 0 ||
      bench_sims(json, sims, &total) != 0) {
    json_decref(playouts);
    json_decref(searches);
    json_decref(sims);
    return EXIT_OTHER;
  }
  if (json) {
    json_t *o = json_object();
    json_object_set_new(o, "playouts", playouts);
    json_object_set_new(o, "searches", searches);
    json_object_set_new(o, "sims", sims);
    json_object_set_new(o, "bench", json_integer(total));
    json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    putchar('\n');
    json_decref(o);
  } else {
    json_decref(playouts);
    json_decref(searches);
    json_decref(sims);
  }
  printf("Bench: %ld\n", total);
  return 0;
}
