/*
 * serve.h - `pilfer serve`: the hall (hall.h) on HTTP and WebSocket, with libwebsockets.
 */
#ifndef PF_SERVE_H
#define PF_SERVE_H

#include <stdbool.h>

typedef struct pf_serve_config {
  const char *iface; /* the address to listen on ("127.0.0.1"); NULL: every interface */
  int port;          /* 0: any free port (printed when listening) */
  const char *db;    /* the SQLite file */
  const char *web;   /* the folder of the web page */
  bool full_sync;    /* SQLite synchronous=FULL */
  int workers;       /* bot threads */
} pf_serve_config;

/* Serves until SIGINT or SIGTERM; prints "pilfer serve: listening on http://HOST:PORT/" on
 * standard output once it accepts connections. Returns the exit status. */
int pf_serve(const pf_serve_config *cfg);

#endif
