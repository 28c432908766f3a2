/*
 * ws.h - the transport's WebSockets: each connection's messages in (a message is at most 64 KiB,
 * a connection sends at most 100 a second, bursts of 200, plus one for each state it is sent),
 * and the hall's messages out: framed as they come, and written at the end of each pass, or
 * dropped with the connection when it does not read (queue_kib, queue_total_mib).
 */
#ifndef PF_SERVER_WS_H
#define PF_SERVER_WS_H

#include "server/transport.h"

/* A WebSocket has opened (LWS_CALLBACK_ESTABLISHED): s is its session, zeroed here. */
void pf_ws_open(server *srv, session *s, struct lws *wsi);
/* It has closed: the hall hears of it, and its queue goes. */
void pf_ws_closed(session *s);
/* A part of a message has come (LWS_CALLBACK_RECEIVE). */
void pf_ws_receive(server *srv, session *s, const void *in, size_t len);
/* The writeable callback: a ping that is due, what waits, then the close; -1 to close now. */
int pf_ws_writeable(session *s);
/* Appends one text message to what waits for s (the hall's send; closes s past its limits). */
void pf_ws_queue(session *s, const char *text, size_t len);
/* Frees what waits for s, at once. */
void pf_ws_drop_queue(session *s);
/* At the end of each pass: what the pass gave each WebSocket is written. */
void pf_ws_write_pending(server *srv);
/* Once a second: pings the WebSockets silent for half the idle time, closes those silent for all. */
void pf_ws_idle_check(server *srv);

/* The hall's io (hall.h): send (queues), wake (from a worker: lws_cancel_service), write (now);
 * and the context the wake reaches, set once it exists and cleared before it is destroyed. */
void pf_ws_hall_send(void *ctx, void *peer, const char *text, size_t len);
void pf_ws_hall_wake(void *ctx);
void pf_ws_hall_write(void *ctx, void *peer);
void pf_ws_set_context(server *srv, struct lws_context *ctx);

#endif
