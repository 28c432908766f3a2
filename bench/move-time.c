/*
 * bench/move-time.c - how long a bot takes over its slowest moves: the lobby's strong bot must keep
 * every move under a second (docs/strength.md, "The lobby's strong bot").
 *
 *   build/bench/move-time GAME PLAYERS SPEC GAMES     (built by scripts/build)
 *
 * Plays GAMES games (seed 1, 2, ...) of SPEC in the even seats against greedy in the odd ones,
 * timing each of SPEC's choices that has more than one legal move: its wall time and the process's
 * CPU time (every search thread's). Prints the choices timed, and the mean, 99th percentile and
 * maximum of both in milliseconds. On a loaded machine the wall times grow with the load; the CPU
 * time over the threads is what an idle machine's wall time would be with a core a thread.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bots/bot.h"
#include "games/registry.h"

static double now(clockid_t c) {
  struct timespec t;
  clock_gettime(c, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void line(const char *what, double *v, int n) {
  double sum = 0;
  for (int i = 0; i < n; i++) sum += v[i];
  qsort(v, (size_t)n, sizeof *v, by_value);
  printf("  %-5s mean %7.1f  p99 %7.1f  max %7.1f ms\n", what, 1000 * sum / n, 1000 * v[n * 99 / 100], 1000 * v[n - 1]);
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: move-time GAME PLAYERS SPEC GAMES\n");
    return 2;
  }
  const pf_game *g = pf_game_find(argv[1]);
  int players = atoi(argv[2]), games = atoi(argv[4]), cap = 100000, n = 0;
  if (!g || players < g->min_players || players > g->max_players || games < 1) {
    fprintf(stderr, "move-time: no game '%s' for %s players, or no games\n", argv[1], argv[2]);
    return 2;
  }
  double *wall = malloc(sizeof *wall * (size_t)cap), *cpu = malloc(sizeof *cpu * (size_t)cap);
  void *st = malloc(g->state_size);
  pf_move moves[PF_MAX_MOVES];
  for (int k = 1; k <= games; k++) {
    pf_setup setup = {.players = players, .seed = (uint64_t)k};
    pf_options_default(g->options, g->noptions, &setup.options);
    pf_bot bots[PF_MAX_PLAYERS];
    pf_error err;
    if (g->start(st, &setup, &err) != 0) return fprintf(stderr, "move-time: %s\n", err.msg), 1;
    for (int p = 0; p < players; p++)
      if (pf_bot_init(&bots[p], p % 2 ? "greedy" : argv[3], players, (uint64_t)k, p, &err) != 0)
        return fprintf(stderr, "move-time: %s\n", err.msg), 1;
    for (int who; (who = g->to_move(st)) != PF_NOBODY;) {
      if (who == PF_CHANCE) {
        pf_chance_sample(g, st, NULL);
        continue;
      }
      bool timed = who % 2 == 0 && g->legal(st, moves) > 1 && n < cap;
      double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
      pf_move m = pf_bot_choose(&bots[who], g, st);
      if (timed) wall[n] = now(CLOCK_MONOTONIC) - w0, cpu[n++] = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
      g->apply(st, m);
    }
    for (int p = 0; p < players; p++) pf_bot_free(&bots[p]);
  }
  printf("%s %d %s: %d choices over %d games\n", g->id, players, argv[3], n, games);
  if (n) line("wall", wall, n), line("cpu", cpu, n);
  free(st);
  free(wall);
  free(cpu);
  return 0;
}
