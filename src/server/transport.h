/*
 * transport.h - inside the transport (serve.c, ws.c, httpd.c, peer.c): the server's state and a
 * connection's, as libwebsockets hands them to the one protocol's callback. Not for the hall,
 * which knows a connection only as an opaque peer (hall.h).
 */
#ifndef PF_SERVER_TRANSPORT_H
#define PF_SERVER_TRANSPORT_H

#include <libwebsockets.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/buf.h"
#include "server/client.h"
#include "server/config.h"
#include "server/hall.h"
#include "server/metrics.h"

#define PF_WRITE_MAX (64 * 1024) /* bytes of a WebSocket's messages written at once */

typedef struct server server;
typedef struct pf_tcp pf_tcp; /* a TCP connection (tcp.c) */

typedef struct session {
  server *srv;        /* the server it belongs to */
  struct lws *wsi;
  pf_conn *conn;
  pf_buf rx;          /* the message being received */
  bool rx_dropped;    /* the rest of this message is ignored (too big) */
  pf_buf out;         /* lws's headroom (LWS_PRE bytes), then the messages waiting, framed */
  size_t queued;      /* their bytes (frames and all) */
  int close_code;     /* close once the queue is written (0: no) */
  double tokens, last;
  int drops;
  pf_client *client;  /* its client (the forwarded address behind a trusted proxy), holding PF_HOLD_WS */
  double heard;       /* when the peer last sent anything (a message, a pong) */
  bool pinged, ping_due; /* a ping was sent since (or is to be sent) */
  struct session *prev, *next; /* the server's WebSockets, for the idle check */
  bool pending;       /* in the server's pending list: written at the end of the pass */
  struct session *pending_prev, *pending_next;
  pf_buf http;        /* an HTTP answer's body, sent from http_sent on */
  size_t http_sent;
  bool report;        /* the answer is a report's (its own Content-Security-Policy) */
} session;

struct server {
  pf_hall *hall;
  const pf_serve_config *cfg;
  char web[PATH_MAX];     /* the web folder, resolved ("" when there is none) */
  char reports[PATH_MAX]; /* the reports folder, resolved ("" when there is none) */
  size_t queued;          /* bytes waiting for every connection */
  pf_clients *clients;    /* every client, by address (the hall's: pf_hall_clients) */
  pf_tcp *tcp, *tcp_last; /* the TCP connections that are not WebSockets, the last active first (tcp.c) */
  pf_tcp *accepting;      /* the one taken, until lws gives it its wsi */
  int ntcp, nshed;        /* how many, and how many of them are being closed to make room */
  session *sockets;       /* every open WebSocket */
  session *pending;       /* the WebSockets given messages in this pass (write_pending) */
  lws_sorted_usec_list_t tick;
  struct lws_context *ctx;
  pf_counts limits;       /* /metrics: connections refused or closed by a limit, by its name */
  double started;         /* unix seconds */
};

#endif
