/*
 * hallbench.c - pilfer-hallbench: the server's hall alone, without the network: the CPU time a
 * ply of handling the moves and building and sending the states.
 *
 *   pilfer-hallbench [--tables T] [--turns N] [--watch] [--dump FILE]
 *
 * Opens T tables (default 200) of every game in turn, with the load benchmark's options and
 * players (bench/loadbench.c: two seats played here, the others `random` bots), in a hall of 0 workers and helpers on an
 * in-memory database, then plays N turns (default 20000): each turn a table in turn has one of
 * its asked seats here (a random one) send a random legal move through pf_hall_message, then
 * pf_hall_flush commits it, plays the bots that follow and builds and "sends" the states (the
 * transport's send only counts them). A finished table is replaced by a new one. It prints the
 * plies played and the thread's CPU time a ply in pf_hall_message and pf_hall_flush: a figure that
 * the other work on a shared machine disturbs far less than the wall clock.
 *
 * The operating system's random bytes (the seats' tokens, the tables' seeds) come from a fixed
 * generator here (the link wraps getrandom), so that two builds given the same arguments send
 * the same messages: --dump FILE writes every message sent, one a line, to compare them byte for
 * byte. --watch adds a spectator to every third table.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>

#include "core/jsontext.h"
#include "server/tables.h"
#include "server/turn.h"

#include "srvproc.h"

static uint64_t fixed = 12345; /* the generator that stands in for the operating system's */
static uint64_t next_random(uint64_t *x) { return *x = *x * 6364136223846793005ULL + 1442695040888963407ULL; }

ssize_t __wrap_getrandom(void *buf, size_t n, unsigned flags);
ssize_t __wrap_getrandom(void *buf, size_t n, unsigned flags) {
  (void)flags;
  for (size_t i = 0; i < n; i++) ((unsigned char *)buf)[i] = (unsigned char)(next_random(&fixed) >> 56);
  return (ssize_t)n;
}

static long sent, sent_bytes;
static FILE *dump;

static void count_send(void *ctx, void *peer, const char *text, size_t len) {
  (void)ctx, (void)peer;
  sent++, sent_bytes += (long)len;
  if (dump) fwrite(text, 1, len, dump), fputc('\n', dump);
}

static double cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void say(pf_hall *h, pf_conn *c, const char *text) {
  pf_hall_message(h, c, text, strlen(text));
  pf_hall_flush(h);
}

/* A new table in slot i (its connections: conns[3i..3i+2], the third a spectator or NULL): the
 * registry's games in turn, with the load benchmark's options and players. */
static int64_t open_table(pf_hall *h, pf_conn **conns, int i, int made, bool watch) {
  int ngames = 0;
  while (pf_games[ngames]) ngames++;
  const pf_game *game = pf_games[made % ngames];
  int players = srv_load_players(game->min_players, game->max_players);
  json_t *opts = srv_short_options(game->id);
  char *options = json_dumps(opts, JSON_COMPACT);
  json_decref(opts);
  char msg[512] = "", seats[128] = "[\"open\",\"open\"";
  for (int s = 2; s < players; s++) strcat(seats, ",\"random\"");
  strcat(seats, "]");
  for (int k = 0; k < 3; k++) {
    if (conns[3 * i + k]) pf_hall_disconnect(h, conns[3 * i + k]);
    conns[3 * i + k] = k < 2 || (watch && made % 3 == 0) ? pf_hall_connect(h, NULL, NULL) : NULL;
  }
  int64_t id;
  snprintf(msg, sizeof msg, "{\"type\":\"create\",\"game\":\"%s\",\"players\":%d,\"options\":%s,\"seats\":%s}",
           game->id, players, options, seats);
  free(options);
  say(h, conns[3 * i], msg);
  for (id = h->cap - 1; id > 0 && !h->tables[id]; id--) {} /* the newest table is the one made */
  for (int k = 0; k < 3; k++) {
    if (!conns[3 * i + k]) continue;
    if (k < 2)
      snprintf(msg, sizeof msg, "{\"type\":\"join\",\"table\":%lld,\"seat\":%d}", (long long)id, k);
    else
      snprintf(msg, sizeof msg, "{\"type\":\"watch\",\"table\":%lld}", (long long)id);
    say(h, conns[3 * i + k], msg);
  }
  return id;
}

int main(int argc, char **argv) {
  static const struct option LONG[] = {{"tables", required_argument, 0, 't'}, {"turns", required_argument, 0, 'n'},
                                       {"watch", no_argument, 0, 'w'},       {"dump", required_argument, 0, 'd'},
                                       {0, 0, 0, 0}};
  int ntables = 200, turns = 20000, c;
  bool watch = false;
  while ((c = getopt_long(argc, argv, "", LONG, NULL)) != -1) {
    switch (c) {
    case 't': ntables = atoi(optarg); break;
    case 'n': turns = atoi(optarg); break;
    case 'w': watch = true; break;
    case 'd':
      if (!(dump = fopen(optarg, "w"))) return perror(optarg), 1;
      break;
    default: fputs("usage: pilfer-hallbench [--tables T] [--turns N] [--watch] [--dump FILE]\n", stderr); return 2;
    }
  }
  if (ntables < 1 || turns < 1) return fputs("pilfer-hallbench: --tables and --turns are at least 1\n", stderr), 2;
  pf_hall_io io = {.send = count_send};
  pf_hall_config cfg = {.db = ":memory:"};
  pf_hall_default_limits(&cfg.limits);
  cfg.limits.clients.waiting_per_client = 1000000; /* every table is the in-process client's */
  cfg.limits.clients.bot_tables_per_client = 1000000;
  cfg.limits.clients.costly.burst = 1000000;
  pf_error err;
  pf_hall *h = pf_hall_open(&cfg, &io, &err);
  if (!h) return fprintf(stderr, "pilfer-hallbench: %s\n", err.msg), 1;
  int64_t *ids = pf_xcalloc((size_t)ntables, sizeof *ids);
  pf_conn **conns = pf_xcalloc(3 * (size_t)ntables, sizeof *conns);
  uint64_t rng = 1;
  long plies = 0;
  double busy = 0;
  for (int turn = 0, made = 0; turn < turns; turn++) {
    int i = turn % ntables;
    table *t = pf_tables_in_memory(h, ids[i]);
    if (!t || t->status == ST_OVER) {
      ids[i] = open_table(h, conns, i, made++, watch);
      continue;
    }
    int group[PF_MAX_PLAYERS], n = pf_turn_asked(t, group), first = n ? (int)(next_random(&rng) >> 35) % n : 0, at;
    for (int k = 0; k < n; k++) {
      int s = group[(first + k) % n];
      if (s > 1 || !pf_turn_may_answer(t, s, &at)) continue; /* a bot's, or sealed */
      /* a seat choosing after another answers from the stand-in state (turn.c: pf_turn_state_for) */
      memcpy(h->scratch, t->run.state, t->g->state_size);
      pf_move moves[PF_MAX_MOVES];
      for (int j = 0; j < at; j++) t->g->legal(h->scratch, moves), t->g->apply(h->scratch, moves[0]);
      int nm = t->g->legal(h->scratch, moves);
      char mv[PF_MOVE_STR], msg[512];
      t->g->move_str(h->scratch, moves[(next_random(&rng) >> 33) % (uint64_t)nm], mv);
      snprintf(msg, sizeof msg, "{\"type\":\"move\",\"table\":%lld,\"token\":\"%s\",\"move\":\"%s\",\"ply\":%d}",
               (long long)t->id, t->seats[s].token, mv, t->run.nmoves);
      int before = t->run.nmoves;
      double t0 = cpu_seconds();
      say(h, conns[3 * i + s], msg);
      busy += cpu_seconds() - t0;
      t = pf_tables_in_memory(h, ids[i]);
      plies += t ? t->run.nmoves - before : 1;
      break;
    }
  }
  printf("pilfer-hallbench: %d tables, %d turns: %ld plies, %.1f us of CPU a ply (messages and flush); %ld messages "
         "sent, %.0f bytes each\n",
         ntables, turns, plies, plies ? 1e6 * busy / (double)plies : 0, sent, sent ? (double)sent_bytes / (double)sent : 0);
  for (int k = 0; k < 3 * ntables; k++)
    if (conns[k]) pf_hall_disconnect(h, conns[k]);
  pf_hall_close(h);
  if (dump) fclose(dump);
  free(ids);
  free(conns);
  return 0;
}
