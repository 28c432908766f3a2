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
#include <time.h>

#include "cli/cli.h"
#include "games/registry.h"

/* The fixed workload: a game, a player count, and how many random games to play. Every game of
 * the registry appears at least once; add a line here when a game is added. */
static const struct bench_case {
  const char *game;
  int players;
  int games;
  const char *options; /* "key=value ..." (space-separated) or NULL for the defaults */
} CASES[] = {
    {"steal-the-pile", 1, 50000, NULL},
    {"steal-the-pile", 2, 400000, NULL},
    {"steal-the-pile", 4, 100000, NULL},
    {"steal-the-pile", 7, 50000, NULL},
    {"steal-the-pile", 12, 30000, NULL},
    {"thief", 2, 20000, NULL},
    {"thief", 4, 50000, "hands=1"},
    {"thief", 6, 5000, NULL},
    {"four-card-thief", 2, 50000, NULL},
    {"four-card-thief", 4, 100000, "hands=1"},
    {"four-card-thief", 6, 10000, NULL},
    {"skip-bo-junior", 2, 40000, NULL},
    {"skip-bo-junior", 4, 20000, NULL},
    {"skip-bo-junior", 6, 20000, NULL},
    {"piles", 4, 50000, NULL},
    {"gharat", 2, 20000, NULL},
    {"gharat", 3, 12000, NULL},
    {"gharat", 4, 6000, NULL},
    {"point-a-pile", 2, 200000, NULL},
    {"point-a-pile", 4, 100000, NULL},
    {"point-a-pile", 6, 50000, "pile=true"},
    {"point-a-pile", 4, 20000, "police=true missions=true shy=true actions=true"},
};
#define NCASES (sizeof CASES / sizeof CASES[0])

/* Seeds of the benchmark's games and of its random player. */
#define BENCH_SEED 20261121u

typedef struct bench_row {
  long games, moves, branching;
  double seconds;
} bench_row;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int run_case(const struct bench_case *bc, bench_row *row) {
  const pf_game *g = pf_game_find(bc->game);
  if (!g) {
    cli_error("bench: game %s is not registered", bc->game);
    return -1;
  }
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
  double t0 = now();
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
  row->seconds = now() - t0;
  row->games = bc->games;
  free(st);
  return 0;
}

int cmd_bench(int argc, char **argv) {
  bool json;
  int rc = cli_json_flag(argc, argv,
                         "usage: pilfer bench [--json]\n\nPlays a fixed set of random games of every game on one "
                         "thread and prints\ngames/s and moves/s for each, then 'Bench: N': the total moves "
                         "played plus the\nlegal moves offered at every turn, the same on every machine.\n",
                         &json);
  if (rc >= 0) return rc;
  long total = 0;
  int width = 8; /* of the options column: its longest entry */
  for (size_t i = 0; i < NCASES; i++)
    if (CASES[i].options && (int)strlen(CASES[i].options) > width) width = (int)strlen(CASES[i].options);
  json_t *rows = json_array();
  if (!json)
    printf("%-16s %7s %-*s %8s %10s %12s %12s %14s\n", "game", "players", width, "options", "games", "moves", "games/s",
           "moves/s", "legal offered");
  for (size_t i = 0; i < NCASES; i++) {
    bench_row r;
    if (run_case(&CASES[i], &r) != 0) {
      json_decref(rows);
      return EXIT_OTHER;
    }
    double secs = r.seconds > 0 ? r.seconds : 1e-9;
    total += r.moves + r.branching;
    if (json) {
      json_t *o = json_object();
      json_object_set_new(o, "game", json_string(CASES[i].game));
      json_object_set_new(o, "players", json_integer(CASES[i].players));
      json_object_set_new(o, "options", CASES[i].options ? json_string(CASES[i].options) : json_null());
      json_object_set_new(o, "games", json_integer(r.games));
      json_object_set_new(o, "moves", json_integer(r.moves));
      json_object_set_new(o, "legal_offered", json_integer(r.branching));
      json_object_set_new(o, "seconds", json_real(r.seconds));
      json_object_set_new(o, "games_per_second", json_real(r.games / secs));
      json_object_set_new(o, "moves_per_second", json_real(r.moves / secs));
      json_array_append_new(rows, o);
    } else {
      printf("%-16s %7d %-*s %8ld %10ld %12.0f %12.0f %14ld\n", CASES[i].game, CASES[i].players, width,
             CASES[i].options ? CASES[i].options : "-", r.games, r.moves, r.games / secs, r.moves / secs, r.branching);
      fflush(stdout);
    }
  }
  if (json) {
    json_t *o = json_object();
    json_object_set_new(o, "playouts", rows);
    json_object_set_new(o, "bench", json_integer(total));
    json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    putchar('\n');
    json_decref(o);
  } else {
    json_decref(rows);
  }
  printf("Bench: %ld\n", total);
  return 0;
}
