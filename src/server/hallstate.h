/*
 * hallstate.h - the hall's private state: struct pf_hall and struct pf_conn (hall.h keeps them
 * opaque), and the limits of what a connection may hold. Only the hall's own modules include it
 * (tables, outbox, state, change, botjob, request, the handlers, api.c and http.c); the
 * transport, the store, the workers, the metrics and the log never see it.
 *
 * Changes and commits: every change to a table is one savepoint (pf_change_begin, then
 * pf_change_keep or pf_change_undo: change.h) inside the transaction of the event loop's pass;
 * pf_hall_flush commits them all at once, then sends the replies that waited for the commit
 * (outbox.h), then each changed table's new states (built once per viewer kind: state.h).
 * Nothing anyone sees waits on a commit that can fail without being told: a failed commit puts
 * every changed table back as stored and answers the requests of the pass `storage`.
 */
#ifndef PF_SERVER_HALLSTATE_H
#define PF_SERVER_HALLSTATE_H

#include <stdbool.h>
#include <stdint.h>

#include "server/hall.h"
#include "server/metrics.h"
#include "server/store.h"
#include "server/table.h"
#include "server/workers.h"

#define MAX_BINDINGS 32    /* tables a connection may sit at or watch at once */
#define LIST_MAX 200       /* tables in a list */
#define CHAT_LOG 50        /* the messages told to a connection as it sits down or watches */
#define LOBBY_PAGE 20      /* tables in one page of a `subscribe` */
#define LOBBY_MINE 100     /* table ids a `subscribe` may name as its own */
#define LOBBY_SUBSCRIBERS 1000 /* connections subscribed at once (`full`) */

typedef struct binding {
  int64_t table;
  int seat; /* -1: watching */
} binding;

struct pf_conn {
  uint64_t id;
  void *peer;
  binding bind[MAX_BINDINGS];
  int nbind;
  pf_client *client; /* who it is (its address: client.h): what it may hold and how fast it may ask */
  /* The lobby's list it subscribed to (`subscribe`): a filter, a page, the tables it calls its
   * own, and a hash of the last page it was sent (a page is sent again only when it changed). */
  bool subscribed;
  int sub_filter, sub_page;
  int64_t sub_mine[LOBBY_MINE];
  int nsub_mine;
  uint64_t sub_hash;
  pf_conn *prev, *next;
};

/* A message waiting for the pass's commit (the head comment). */
typedef struct outmsg {
  pf_conn *conn;
  char *text;
  char *fail;     /* sent instead when the commit fails (a `storage` error); NULL: dropped then */
  bool plain;     /* sent whatever the commit does (errors, lists) */
} outmsg;

struct pf_hall {
  pf_hall_io io;
  bool stopping;  /* pf_hall_stopping: disconnections tell nobody */
  pf_hall_limits lim;
  pf_store *store;
  pf_workers *workers;
  pf_crew *crew;  /* builds the states of a pass's tables with the loop (pf_hall_flush) */
  pf_shard shard;  /* the tables it owns (shard.h; count 0: every one) */
  table **tables; /* by slot (tables.c: the id, or id / 100 on a shard); NULL when not in memory */
  int64_t cap;
  int ntables;
  pf_conn *conns;
  uint64_t next_conn;
  pf_clients *clients; /* every client, by address (client.h); the transport's too */
  pf_client *local;    /* the in-process client (pf_hall_connect without one) */
  void *scratch;  /* a state-sized buffer (the largest game's) */
  int64_t *idle;  /* finished tables that may have nobody left at them: unloaded by pf_tables_sweep_idle */
  int nidle, capidle;
  int64_t *dirty; /* tables changed in this pass, told at pf_hall_flush */
  int ndirty, capdirty;
  outmsg *out;    /* messages of this pass, in order, sent at pf_hall_flush */
  int nout, capout;
  /* For /metrics (metrics.h): errors sent by code, and each message's wait from its arrival (the
   * pass's first: an upper bound) to the replies and states of its pass being handed over. */
  pf_counts errors;
  pf_histogram pass_seconds;
  double pass_start;
  uint64_t pass_messages;
  int nsubs;        /* connections subscribed to the lobby's list */
  bool lobby_dirty; /* a table changed since the subscribers were last sent their pages */
  struct pf_lobbylist *lobbylist; /* the lobby's list kept (state.h: pf_state_list) */
  struct pf_review *review;       /* the finished games reviewed lately, kept (review.h) */
};

#endif
