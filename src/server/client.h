/*
 * client.h - what each client of pilfer serve holds and how fast it may ask, keyed by its
 * address rather than by its connection: a client that closes its sockets and comes back is the
 * same client, with the same counters and the same half-empty buckets, so no per-client limit
 * resets on reconnecting.
 *
 * A client is its key (pf_client_key): an IPv4 address, or an IPv6 address's /64, since one
 * host is usually given a whole /64 and may take any address in it. The table of clients
 * (pf_clients) finds or adds one by key; each client has
 *   - counters of what it holds (PF_HOLD_*: connections open, tables waiting, hints out...),
 *     each with a limit that pf_client_may_hold compares with; pf_client_hold moves them;
 *   - token buckets (PF_RATE_*: chat, costly requests, new connections), each refilled with
 *     time up to its burst; pf_client_take takes one token.
 * Time is always the caller's `now`, in seconds of a monotonic clock (core/clock.h's
 * pf_clock_seconds in the server, made-up numbers in the tests): the module reads no clock.
 *
 * Lifetime. A client lives while it holds something (any counter above 0) and, after that,
 * until every bucket it has drawn from is full again. From then on it is "idle": forgetting it
 * loses nothing, since a new client with that key starts with the same full buckets. Idle
 * clients are freed by pf_clients_sweep, and pf_client_get frees one when the table is full.
 *
 * The contract for a pf_client * (the caller's connections and tables keep one):
 *   - while the client holds something, the pointer stays valid, whatever else is called;
 *   - a pointer to a client that holds nothing is valid only until the next call of
 *     pf_clients_sweep or pf_client_get (either may free it), or pf_clients_free. So: get,
 *     take, hold, then keep the pointer; drop it in the same breath as the last release
 *     (pf_client_hold to 0) of what it was kept for.
 * The counters are the caller's bookkeeping: the module never moves them on its own.
 *
 * Loop thread only: nothing here takes a lock.
 */
#ifndef PF_CLIENT_H
#define PF_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

/* ---- the key ---- */

/* Room for any key with its NUL ("ffff:ffff:ffff:ffff::/64" is the longest, 24 characters). */
#define PF_CLIENT_KEY_MAX 48

/* Writes the canonical key of a client at `address` (text as inet_ntop writes it, as the
 * transport reports a peer) into out[n]: an IPv4 address as a dotted quad, also when given
 * IPv4-mapped ("::ffff:192.0.2.7" -> "192.0.2.7"); an IPv6 address as its /64 ("2001:db8:1:2::9"
 * -> "2001:db8:1:2::/64"). False (out is "") when address is NULL, longer than any address's
 * text, not an address (a name, brackets, a zone "%eth0"), or the key does not fit in n. */
bool pf_client_key(const char *address, char *out, size_t n);

/* ---- what a client holds, and how fast it may ask ---- */

/* Counters, each with its limit (pf_client_limits). */
enum {
  PF_HOLD_TCP,        /* TCP connections open: before the upgrade, HTTP keep-alive and WebSockets */
  PF_HOLD_WS,         /* WebSockets open (each is also one of PF_HOLD_TCP) */
  PF_HOLD_WAITING,    /* tables it created that are still waiting for players */
  PF_HOLD_BOT_TABLES, /* tables it created being played, with a bot in a seat */
  PF_HOLD_HINTS,      /* hint searches it asked for and has not been answered */
  PF_HOLD_COUNT
};

/* Token buckets. */
enum {
  PF_RATE_CONNECT, /* new TCP connections */
  PF_RATE_CHAT,    /* chat messages */
  PF_RATE_COSTLY,  /* requests that cost the server work or bytes: subscribe, list, review, hint */
  PF_RATE_MESSAGES, /* messages of its WebSockets, all together (each state they are sent gives one back) */
  PF_RATE_COUNT
};

/* A bucket: `burst` tokens when full, and one more every `every_ms` milliseconds. */
typedef struct pf_client_rate {
  int burst;
  int every_ms;
} pf_client_rate;

/* Every limit, named as `pilfer serve --limit NAME=N` would name it (the name in each comment;
 * a rate's two are NAME_burst and NAME_every_ms). pf_client_default_limits sets each, with its
 * reason in client.c; each must be at least 1. */
typedef struct pf_client_limits {
  int tcp_per_client;        /* tcp_per_address 128: PF_HOLD_TCP */
  int ws_per_client;         /* conns_per_address 64: PF_HOLD_WS */
  int waiting_per_client;    /* waiting_per_client 4 (or its old name waiting_per_conn): PF_HOLD_WAITING */
  int bot_tables_per_client; /* bot_tables_per_client 16: PF_HOLD_BOT_TABLES */
  int hints_per_client;      /* hints_per_client 1: PF_HOLD_HINTS */
  int clients_max;           /* clients_max 65536: clients the table keeps at once */
  pf_client_rate connect;    /* connect 256, then one every 10 ms (100 a second) */
  pf_client_rate chat;       /* chat 5, then one every 2000 ms (today's chat_flood rule) */
  pf_client_rate costly;     /* costly 200, then one every 50 ms (20 a second) */
  pf_client_rate messages;   /* messages 1000, then one every 2 ms (500 a second), and one back a state sent */
} pf_client_limits;

void pf_client_default_limits(pf_client_limits *lim);

/* ---- the table of clients ---- */

typedef struct pf_clients pf_clients;
typedef struct pf_client pf_client;

/* An empty table with these limits (copied). Its hash is SipHash with a key from getrandom, so
 * that nobody can choose addresses that collide. */
pf_clients *pf_clients_new(const pf_client_limits *lim);
/* Frees the table and every client in it (NULL: nothing): every pf_client * is then invalid. */
void pf_clients_free(pf_clients *cs);

/* The client with this key (pf_client_key's), added (holding nothing, its buckets full) if it
 * was not there. NULL when the table has clients_max clients and none is idle at `now`: the
 * caller refuses what the client asked. Adding to a full table frees the idle client whose buckets
 * have been full the longest. Amortised O(1), O(log clients) to free. */
pf_client *pf_client_get(pf_clients *cs, const char *key, double now);
/* The client with this key, or NULL: adds nothing, frees nothing. */
pf_client *pf_clients_find(const pf_clients *cs, const char *key);
/* Frees every client idle at `now`. Meant to be called about once a second; it visits only the
 * clients it frees (O(log clients) each), never the whole table, and gives back the hash's
 * memory as the table empties. */
void pf_clients_sweep(pf_clients *cs, double now);

/* ---- one client ---- */

/* Whether the client holds fewer than its limit of `what` (PF_HOLD_*): one more is allowed. */
bool pf_client_may_hold(const pf_client *c, int what);
/* Adds delta (negative: releases) to the client's count of `what`. It does not check the limit:
 * pf_client_may_hold does, and the caller decides (it may let a count go over). A count never
 * goes below 0: releasing more than is held is a bug, asserted in debug builds and clamped at 0
 * in release. */
void pf_client_hold(pf_client *c, int what, int delta);
/* Takes one token from the bucket `rate` (PF_RATE_*) at `now`: false (nothing taken) when it is
 * empty, and the caller refuses the request. */
bool pf_client_take(pf_client *c, int rate, double now);
/* Gives one token back to the bucket `rate` (up to its burst): a state sent to one of the
 * client's WebSockets gives back a message, so that a client answering every state at once is
 * never held back. The client's full_at is left as it was (it may be kept a little longer than
 * it must, never freed too soon). */
void pf_client_give(pf_client *c, int rate, double now);
/* Seconds from `now` until the bucket `rate` has a token again (0: it has one), for the message
 * that refuses. */
double pf_client_retry_in(const pf_client *c, int rate, double now);

/* ---- introspection (/metrics, tests) ---- */

/* Clients in the table, idle or not. */
int pf_clients_count(const pf_clients *cs);
/* The client's count of `what` (PF_HOLD_*). */
int pf_client_held(const pf_client *c, int what);
/* The client's key. */
const char *pf_client_name(const pf_client *c);

#endif
