/*
 * tcp.h - every TCP connection of the transport, from its accept to its close: before the
 * upgrade, in HTTP keep-alive, and as a WebSocket. Each is counted against its client (its
 * peer's address, client.h: tcp_per_address, and a rate of new connections), and all together
 * against conns_max, which stays below the process's descriptor limit so that accept() never
 * fails: at conns_max the connection idle for longest (not a WebSocket, and no request begun in
 * the last second) is shed to take the new one, and when none is idle the new one is refused. A
 * trusted proxy's connections count only towards conns_max (its clients are counted by their
 * forwarded address when they open a WebSocket).
 */
#ifndef PF_SERVER_TCP_H
#define PF_SERVER_TCP_H

#include "server/transport.h"

/* LWS_CALLBACK_FILTER_NETWORK_CONNECTION: whether to take the connection just accepted (0) or
 * close it at once (1). */
int pf_tcp_accept(server *srv, const struct lws_filter_network_conn_args *a);
/* LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED: the connection taken has its wsi. */
void pf_tcp_adopted(server *srv, struct lws *wsi);
/* A request began on the connection (LWS_CALLBACK_HTTP), or it became a WebSocket. */
void pf_tcp_request(server *srv, struct lws *wsi);
void pf_tcp_upgraded(server *srv, struct lws *wsi);
/* LWS_CALLBACK_WSI_DESTROY: the connection is gone. */
void pf_tcp_closed(server *srv, struct lws *wsi);
/* The connections open now (for /metrics and tests). */
int pf_tcp_count(const server *srv);
/* The most connections at once: conns_max, or fewer when the descriptor limit is lower. */
int pf_tcp_max(const server *srv);

#endif
