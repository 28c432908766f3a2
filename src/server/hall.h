/*
 * hall.h - the game server's rooms: tables, seats, spectators, bots, and the JSON protocol of
 * docs/protocol.md, apart from any transport.
 *
 * The hall knows connections only as opaque peers: the transport (serve.c: libwebsockets) calls
 * pf_hall_connect when one opens, pf_hall_message for each whole text message, pf_hall_disconnect
 * when it closes, and gives the hall a send function. Everything runs on the transport's one
 * thread except the bots' searches, which run on the hall's workers; when one finishes the hall
 * calls io.wake (from the worker's thread), and the transport calls pf_hall_poll from its loop.
 * The states of a pass's changed tables are built by that thread and the hall's helpers
 * together, inside pf_hall_flush (nothing else changes a table meanwhile), and sent by that
 * thread, each table's as soon as they are built (then io.write writes them).
 *
 * Every change to a table is written to the store and committed before anyone is told of it:
 * the changes of one pass of the transport's loop are committed together by pf_hall_flush, and
 * the acknowledgements and new views go out after that commit, so that whatever a player has
 * seen survives a crash. A table's state is its record replayed (store.h).
 *
 * Hidden information: each connection is sent its own seat's view (or the public view to a
 * spectator), the legal moves of its own seat, and a log told as its seat may know it; the seed
 * and the full state are sent only once the game is over. Bots choose on a copy of the state and
 * read it only as bot.h allows.
 */
#ifndef PF_HALL_H
#define PF_HALL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/buf.h"
#include "server/client.h"
#include "server/shard.h"

typedef struct pf_hall pf_hall;
typedef struct pf_conn pf_conn;

typedef struct pf_hall_io {
  void *ctx;
  /* Queues one text message to the peer of a connection (the hall never blocks on it). */
  void (*send)(void *ctx, void *peer, const char *text, size_t len);
  /* Called from a worker thread when a bot has chosen: the transport wakes its loop, which then
   * calls pf_hall_poll. NULL with 0 workers. */
  void (*wake)(void *ctx);
  /* Writes what was queued for the peer so far, now (NULL: the transport writes it when it
   * will): called as pf_hall_flush sends each changed table's states, while the others are
   * being built. */
  void (*write)(void *ctx, void *peer);
} pf_hall_io;

/* What one client may cost the hall (docs/protocol.md, "Limits"). pf_hall_default_limits sets
 * each; 0 is not "none". */
typedef struct pf_hall_limits {
  int waiting_max;      /* waiting tables in all */
  int waiting_expiry;   /* seconds a waiting table with nobody seated lives */
  int abandoned_after;  /* seconds a table being played with nobody at it and no move is "abandoned" */
  int search_iters;     /* the most search iterations a bot seat or a hint may ask */
  int search_ms;        /* the longest one search may take (a spec without a time gets this) */
  pf_client_limits clients; /* what one client (an address: client.h) may hold and how fast it may ask */
} pf_hall_limits;

void pf_hall_default_limits(pf_hall_limits *lim);

typedef struct pf_hall_config {
  const char *db;  /* the SQLite file (":memory:" for tests) */
  bool full_sync;  /* synchronous=FULL: survive a power cut too, slower */
  int workers;     /* bot threads; 0 runs bots inline (tests, fuzzing) */
  int helpers;     /* threads that build the states of a pass with the loop's (0: the loop alone) */
  pf_hall_limits limits;
  pf_shard shard;  /* --shard I/N: the tables it owns (shard.h); {0}: every table, ids 1, 2, 3 ... */
} pf_hall_config;

/* Opens the database and brings back every unfinished table by replaying its moves. */
pf_hall *pf_hall_open(const pf_hall_config *cfg, const pf_hall_io *io, pf_error *err);
/* Commits what is pending, stops the workers (a running search is let finish: limits.search_ms
 * at most) and frees everything. */
void pf_hall_close(pf_hall *h);
/* The server is stopping: the connections that go from now on tell nobody (each used to send
 * its table's others a state, thousands of them to connections about to close too). */
void pf_hall_stopping(pf_hall *h);

/* A new connection, known to the transport as peer, of a client of pf_hall_clients (the
 * transport keeps it valid while the connection is open: client.h, by holding its PF_HOLD_WS);
 * NULL: the hall's own in-process client, for tests and the fuzz target. */
pf_conn *pf_hall_connect(pf_hall *h, void *peer, pf_client *client);
/* The hall's clients, by address (client.h): every per-client limit, the transport's too. */
pf_clients *pf_hall_clients(pf_hall *h);
/* The connection is gone: it leaves every table it watched or sat at (its seats stay its own:
 * the token brings them back). */
void pf_hall_disconnect(pf_hall *h, pf_conn *c);
/* One whole text message from a connection. Every reply goes through io.send, some of them
 * only at the next pf_hall_flush. */
void pf_hall_message(pf_hall *h, pf_conn *c, const char *text, size_t len);
/* Takes the bots' finished choices and plays them (call when io.wake was called). */
void pf_hall_poll(pf_hall *h);
/* Once a second or so: hands the seats that have been silent too long to their table's
 * takeover bot, and removes the waiting tables that expired. */
void pf_hall_tick(pf_hall *h);
/* Commits the changes made since the last flush in one transaction, then sends what waited for
 * it (replies, then the changed tables' states). Call once per pass of the event loop, after
 * the calls above; with 0 workers it also plays the bots' turns that follow, to the end. */
void pf_hall_flush(pf_hall *h);

/* Answers GET path (path starts with "/api/"); sets *type to the content type; returns the HTTP
 * status. body gets the answer (JSON, or text for the rules). */
int pf_hall_http(pf_hall *h, const char *path, pf_buf *body, const char **type);

/* Its series for /metrics (metrics.c; docs/operations.md): tables by status, connections, bot
 * and hint jobs out, errors by code, the passes' latency, and the store's. */
void pf_hall_metrics(pf_hall *h, pf_buf *out);

/* Tables in memory (for the load benchmark's figures and tests). */
int pf_hall_tables(const pf_hall *h);

#endif
