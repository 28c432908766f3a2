/*
 * serve.h - `pilfer serve`: the hall (hall.h) on HTTP and WebSocket, with libwebsockets.
 */
#ifndef PF_SERVE_H
#define PF_SERVE_H

#include "server/config.h"

/* Serves until SIGINT or SIGTERM; prints "pilfer serve: listening on http://HOST:PORT/" on
 * standard output once it accepts connections. Returns the exit status. */
int pf_serve(const pf_serve_config *cfg);

#endif
