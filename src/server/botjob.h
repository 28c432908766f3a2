/*
 * botjob.h - the bots' jobs: a bot seat's choice or a player's hint, searched on the hall's
 * workers (workers.h) on a copy of the state, and its result taken back on the loop's thread
 * (pf_hall_poll): a bot's move played as a change, a hint sent to its asker.
 */
#ifndef PF_SERVER_BOTJOB_H
#define PF_SERVER_BOTJOB_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "server/hallstate.h"
#include "server/workers.h"

/* A bot's job: a choice for a seat (play) or a hint for a player. */
typedef struct bot_job {
  pf_work work; /* first: workers.h */
  bool hint, cancelled;
  int64_t table;
  int ply, seat;
  uint64_t conn;   /* the hint's asker */
  pf_client *asker; /* its client, holding PF_HOLD_HINTS until the hint comes back (pf_botjob_hint_done) */
  json_t *req_id;  /* the hint request's id, owned */
  const pf_game *g;
  int players;
  void *state;     /* a copy, owned */
  char spec[PF_BOT_SPEC];
  int max_ms;      /* the search's time cap (limits.search_ms) */
  int max_threads; /* the search's threads cap: the workers' (at least 1) */
  uint64_t seed;
  bool failed;
  char move[PF_MOVE_STR];
  pf_buf text;
  pf_error err;
} bot_job;

/* Checks a bot spec against the server's budget (limits.search_iters and search_ms); *code is
 * "bad_seat_spec" or "budget" on failure. */
int pf_botjob_check(const pf_hall *h, const char *spec, const char **code, pf_error *err);
/* A job for seat `seat` of t (at: its index in the choosing group), on a copy of its state. */
bot_job *pf_botjob_new(pf_hall *h, const table *t, int seat, int at, const char *spec);
void pf_botjob_free(bot_job *j);
/* On a worker thread: the search (pf_workers_start's function). */
void pf_botjob_run(pf_work *w);
/* Gives the seat to move to its bot when a bot plays it (one job per table at a time). */
void pf_botjob_schedule(pf_hall *h, table *t);
/* A bot's finished choice for a table: played if the table is still where it was. */
void pf_botjob_played(pf_hall *h, bot_job *j);
/* A finished hint: sent to its asker, if still connected. */
void pf_botjob_hint_done(pf_hall *h, bot_job *j);

#endif
