/*
 * config.h - what `pilfer serve` is told: where it listens, its files, its threads, and every
 * limit of `--limit NAME=N` with its default and range (docs/protocol.md, "Limits").
 */
#ifndef PF_SERVER_CONFIG_H
#define PF_SERVER_CONFIG_H

#include <stdbool.h>

#include "core/buf.h"
#include "server/hall.h"

#define PF_SERVE_MAX_LIST 16 /* --origin and --trust-proxy, each */

typedef struct pf_serve_config {
  const char *iface; /* the address to listen on ("127.0.0.1"); NULL: every interface */
  int port;          /* 0: any free port (printed when listening) */
  const char *db;    /* the SQLite file */
  const char *web;   /* the folder of the web page */
  const char *reports; /* the folder of analyze's reports (served at /reports/), or NULL */
  bool full_sync;    /* SQLite synchronous=FULL */
  int workers;       /* bot threads */
  int helpers;       /* threads that build states with the loop's (hall.h) */
  pf_hall_limits hall;   /* the hall's limits */
  int conns_max;         /* TCP connections open at once, at most (fewer when the descriptors are fewer) */
  int idle;              /* seconds: a WebSocket that answers no ping for this long is closed */
  int queue_kib;         /* KiB waiting to be written to one connection before it is closed */
  int queue_total_mib;   /* MiB waiting for all connections together */
  /* Browsers' WebSocket upgrades are taken from the server's own origin (the Origin's host and
   * port are the Host header's) and from these ("https://pilfer.example.org"), nothing else. */
  const char *origins[PF_SERVE_MAX_LIST];
  int norigins;
  /* Reverse proxies whose X-Forwarded-For (its last address) is the client's address, for the
   * per-address limits; from any other peer the header is ignored. */
  const char *proxies[PF_SERVE_MAX_LIST];
  int nproxies;
  pf_shard shard;             /* --shard I/N (shard.h); {0}: not sharded */
  const char *metrics_token; /* GET /metrics answers whoever shows it (NULL: /metrics is 404) */
} pf_serve_config;

/* Every limit at its default (docs/protocol.md, "Limits"), the rest zero. */
void pf_serve_defaults(pf_serve_config *cfg);
/* Sets one limit from "NAME=N"; -1 with a message that lists the names and ranges. */
int pf_serve_set_limit(pf_serve_config *cfg, const char *text, pf_error *err);

#endif
