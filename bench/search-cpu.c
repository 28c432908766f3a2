/*
 * bench/search-cpu.c - ismcts iterations per second of thread CPU time on the fixed positions of
 * `pilfer bench`'s searches, for bench/search-cpu-ab, which builds it against two trees. On a
 * shared machine a process's wall time depends on how many others run; its own CPU time much
 * less, so this compares two builds' searches where `pilfer bench` cannot.
 *
 * The cases are the games' own (their measures' searches), which `search-cpu --cases` prints, one a
 * line, "game players iters positions ply ply ply", when built against a tree that has measures;
 * without the flag it reads such lines from its input and searches them, so that a tree from
 * before the games declared their measures (447f174) runs the same cases. The positions and the
 * searches are as cli_bench.c's run_search makes them. Prints a line a case: game, players,
 * iterations per CPU second, and a checksum of what the searches did (iterations, simulated
 * moves, nodes, the moves chosen), which two builds that play alike print alike.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bots/bot.h"
#include "core/measure.h"
#include "games/registry.h"

#define BENCH_SEED 20261121u

struct scase {
  char game[64];
  int players, iters, positions, plies[3];
};

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The searches of one case; adds their iterations and checksum; returns their CPU seconds. */
static double run(const pf_game *g, const struct scase *sc, long *iters, long *sum) {
  void *st = malloc(g->state_size);
  pf_setup setup = {.players = sc->players};
  pf_options_default(g->options, g->noptions, &setup.options);
  char spec[64];
  snprintf(spec, sizeof spec, "ismcts:iters=%d", sc->iters);
  double seconds = 0;
  for (int k = 0; k < sc->positions; k++)
    for (int j = 0; j < 3; j++) {
      pf_bot bot;
      pf_error err;
      setup.seed = BENCH_SEED + (uint64_t)k;
      if (g->start(st, &setup, &err) || pf_bot_init(&bot, spec, sc->players, BENCH_SEED, j, &err)) {
        fprintf(stderr, "search-cpu: %s: %s\n", g->id, err.msg);
        exit(1);
      }
      pf_rng rng;
      pf_rng_seed(&rng, BENCH_SEED + (uint64_t)k, 1);
      pf_move moves[PF_MAX_MOVES];
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
        double t0 = cpu_seconds();
        pf_move m = pf_bot_choose(&bot, g, st);
        seconds += cpu_seconds() - t0;
        int chosen = 0;
        while (moves[chosen] != m) chosen++;
        *iters += bot.stats.iterations;
        *sum += bot.stats.iterations + bot.stats.moves + bot.stats.nodes + chosen;
      }
      pf_bot_free(&bot);
    }
  free(st);
  return seconds;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "--cases")) {
#ifdef PF_CASES
    const pf_search_case *c;
    for (int k = 0; pf_games[k]; k++)
      PF_CASES(c, pf_games[k]->measures->searches)
        printf("%s %d %d %d %d %d %d\n", pf_games[k]->id, c->players, c->iters, c->positions, c->plies[0],
               c->plies[1], c->plies[2]);
    return 0;
#else
    fprintf(stderr, "search-cpu: this tree's games declare no measures\n");
    return 2;
#endif
  }
  struct scase sc;
  while (scanf("%63s %d %d %d %d %d %d", sc.game, &sc.players, &sc.iters, &sc.positions, &sc.plies[0], &sc.plies[1],
               &sc.plies[2]) == 7) {
    const pf_game *g = NULL;
    for (int k = 0; pf_games[k]; k++)
      if (!strcmp(pf_games[k]->id, sc.game)) g = pf_games[k];
    if (!g) continue;
    long iters = 0, sum = 0;
    double s = run(g, &sc, &iters, &sum);
    printf("%s %d %.0f %ld\n", g->id, sc.players, (double)iters / s, sum);
  }
  return 0;
}
