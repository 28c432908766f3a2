/*
 * ws.c - the transport's WebSockets (ws.h): a connection's messages in, checked against its
 * limits, and the hall's messages out, framed here and written at the end of each pass.
 */
#include "server/ws.h"
#include "server/log.h"
#include "server/peer.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"

#define MAX_MESSAGE (64 * 1024)
#define RATE 100.0
#define BURST 200.0
#define DROPS_MAX 200

void pf_ws_queue(session *s, const char *text, size_t len) {
  if (s->close_code) return;
  server *srv = s->srv;
  bool own = s->queued + len > (size_t)srv->cfg->queue_kib * 1024;
  if (own || srv->queued + len > (size_t)srv->cfg->queue_total_mib * 1024 * 1024) {
    /* A client that does not read: waiting for it to read a close frame would keep its queue,
     * so the queue goes now and the connection at the next pass. */
    char ip[64] = "?";
    lws_get_peer_simple(s->wsi, ip, sizeof ip);
    pf_log_limit(own ? "queue_kib" : "queue_total_mib",
                 "closed a connection from %s that does not read: %zu KiB unsent (%s; %zu KiB for all)", ip,
                 s->queued / 1024, own ? "queue_kib" : "queue_total_mib", srv->queued / 1024);
    pf_counts_add(&srv->limits, own ? "queue_kib" : "queue_total_mib");
    pf_ws_drop_queue(s);
    s->close_code = LWS_CLOSE_STATUS_POLICY_VIOLATION;
    lws_set_timeout(s->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
    return;
  }
  static const char STATE[] = "{\"type\":\"state\"";
  if (len >= sizeof STATE - 1 && memcmp(text, STATE, sizeof STATE - 1) == 0) { /* a state answered is never held back */
    if (s->tokens < BURST) s->tokens += 1.0;
    if (s->client) pf_client_give(s->client, PF_RATE_MESSAGES, pf_clock_seconds());
  }
  /* Framed here, as one final text frame (a server's is not masked), so that whatever waits for
   * a connection goes in one write: its acknowledgement and its state, say. */
  unsigned char head[10];
  size_t nhead = 2;
  head[0] = 0x81;
  if (len < 126) {
    head[1] = (unsigned char)len;
  } else if (len <= 0xFFFF) {
    head[1] = 126, head[2] = (unsigned char)(len >> 8), head[3] = (unsigned char)len;
    nhead = 4;
  } else {
    head[1] = 127;
    for (int i = 0; i < 8; i++) head[2 + i] = (unsigned char)((uint64_t)len >> (56 - 8 * i));
    nhead = 10;
  }
  if (!s->out.len) pf_buf_append(&s->out, (const char[LWS_PRE]){0}, LWS_PRE);
  pf_buf_append(&s->out, head, nhead);
  pf_buf_append(&s->out, text, len);
  s->queued += nhead + len;
  srv->queued += nhead + len;
  if (!s->pending) {
    s->pending = true;
    s->pending_prev = NULL;
    s->pending_next = srv->pending;
    if (srv->pending) srv->pending->pending_prev = s;
    srv->pending = s;
  }
}

void pf_ws_hall_send(void *ctx, void *peer, const char *text, size_t len) {
  (void)ctx;
  pf_ws_queue(peer, text, len);
}

/* The context as the bots' workers see it: set once it exists, cleared before it is destroyed,
 * under a lock, since a worker may finish at any time (ThreadSanitizer saw one read it while
 * the loop's thread set it). */
static pthread_mutex_t wake_lock = PTHREAD_MUTEX_INITIALIZER;

void pf_ws_set_context(server *srv, struct lws_context *ctx) {
  pthread_mutex_lock(&wake_lock);
  srv->ctx = ctx;
  pthread_mutex_unlock(&wake_lock);
}

void pf_ws_hall_wake(void *ctx) {
  server *srv = ctx;
  pthread_mutex_lock(&wake_lock);
  if (srv->ctx) lws_cancel_service(srv->ctx);
  pthread_mutex_unlock(&wake_lock);
}

/* An error the transport answers itself (too big, flood), as the hall would word it. */
static void transport_error(session *s, const char *code, const char *message) {
  pf_counts_add(&s->srv->limits, code);
  char ip[64] = "?";
  lws_get_peer_simple(s->wsi, ip, sizeof ip);
  pf_log_limit(code, "%s: %s", ip, message);
  char text[256];
  int n = snprintf(text, sizeof text, "{\"type\":\"error\",\"code\":\"%s\",\"message\":\"%s\"}", code, message);
  pf_ws_queue(s, text, (size_t)n);
}

void pf_ws_drop_queue(session *s) {
  s->srv->queued -= s->queued;
  pf_buf_free(&s->out);
  s->queued = 0;
}


/* A whole message has come: checked against the rate, then given to the hall. */
static void ws_message(server *srv, session *s) {
  double now = pf_clock_seconds();
  s->tokens += (now - s->last) * RATE;
  if (s->tokens > BURST) s->tokens = BURST;
  s->last = now;
  /* The connection's rate, then its address's (all its WebSockets together: reconnecting or
   * opening more of them gives a flood no more). */
  bool own = s->tokens < 1.0;
  if (own || (s->client && !pf_client_take(s->client, PF_RATE_MESSAGES, now))) {
    if (++s->drops >= DROPS_MAX) {
      transport_error(s, "flood", "too many messages: closing");
      s->close_code = LWS_CLOSE_STATUS_POLICY_VIOLATION;
    } else {
      transport_error(s, "flood", own ? "too many messages (at most 100 a second): this one is dropped"
                                      : "too many messages from your address (messages_burst, messages_every_ms): this one "
                                        "is dropped");
    }
    return;
  }
  s->tokens -= 1.0;
  pf_hall_message(srv->hall, s->conn, pf_buf_str(&s->rx), s->rx.len);
}

void pf_ws_receive(server *srv, session *s, const void *in, size_t len) {
  if (s->close_code) return;
  if (!s->rx_dropped) {
    if (s->rx.len + len > MAX_MESSAGE) {
      s->rx_dropped = true;
      pf_buf_clear(&s->rx);
      transport_error(s, "too_big", "a message may hold at most 65536 bytes: closing");
      s->close_code = LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE;
      return;
    }
    pf_buf_append(&s->rx, in, len);
  }
  if (!lws_is_final_fragment(s->wsi) || lws_remaining_packet_payload(s->wsi)) return;
  if (!s->rx_dropped) {
    if (lws_frame_is_binary(s->wsi))
      transport_error(s, "bad_json", "messages are JSON text, not binary frames");
    else
      ws_message(srv, s);
  }
  s->rx_dropped = false;
  pf_buf_clear(&s->rx);
}

/* Writes what waits, PF_WRITE_MAX bytes at most, as it was framed (lws keeps what the socket did
 * not take and writes it before anything else); lws_write's result. */
static int ws_write_some(session *s) {
  size_t n = s->queued < PF_WRITE_MAX ? s->queued : PF_WRITE_MAX;
  unsigned char *from = (unsigned char *)s->out.data + s->out.len - s->queued;
  int w = lws_write(s->wsi, from, n, LWS_WRITE_RAW);
  s->queued -= n;
  s->srv->queued -= n;
  if (!s->queued) {
    pf_buf_free(&s->out); /* no memory kept for a connection that waits for nothing */
  } else {                /* the rest moves up to the headroom, so the buffer never grows unsent */
    memmove(s->out.data + LWS_PRE, from + n, s->queued);
    s->out.len = LWS_PRE + s->queued;
  }
  return w;
}

/* The writeable callback: a ping that is due, what waits, then the close; -1 to close now. */
int pf_ws_writeable(session *s) {
  if (s->ping_due && !s->queued && !s->close_code) {
    unsigned char ping[LWS_PRE + 4] = {[LWS_PRE] = 'p', 'i', 'n', 'g'};
    s->ping_due = false;
    return lws_write(s->wsi, ping + LWS_PRE, 4, LWS_WRITE_PING) < 0 ? -1 : 0;
  }
  if (s->queued) {
    if (ws_write_some(s) < 0) return -1;
    if (s->queued || s->close_code || s->ping_due) { /* the close frame once lws has written what it kept */
      lws_callback_on_writable(s->wsi);
      return 0;
    }
  }
  if (s->close_code) {
    static const char reason[] = "closing";
    lws_close_reason(s->wsi, (enum lws_close_status)s->close_code, (unsigned char *)reason, sizeof reason - 1);
    return -1;
  }
  return 0;
}

/* At the end of each pass (after pf_hall_flush): what the pass gave each WebSocket is written at
 * once, not at the next pass's writeable callback, after its reading and handling of every other
 * connection's messages. What cannot be written now (lws still holds some of the last write, a
 * close or a ping to send) waits for the writeable callback. */
static void write_now(session *s) {
  if (s->queued && !s->close_code && !lws_partial_buffered(s->wsi) && ws_write_some(s) < 0) {
    s->close_code = LWS_CLOSE_STATUS_ABNORMAL_CLOSE;
    pf_ws_drop_queue(s);
    lws_set_timeout(s->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
  }
}

void pf_ws_write_pending(server *srv) {
  while (srv->pending) {
    session *s = srv->pending;
    srv->pending = s->pending_next;
    if (srv->pending) srv->pending->pending_prev = NULL;
    s->pending = false;
    write_now(s);
    if (s->queued || s->close_code || s->ping_due) lws_callback_on_writable(s->wsi);
  }
}

/* One connection's messages written before the end of the pass (it stays in the pending list for
 * what cannot go now). */
void pf_ws_hall_write(void *ctx, void *peer) {
  (void)ctx;
  write_now(peer);
}

/* Once a second: a WebSocket silent for half the idle time is pinged, one silent for all of it
 * closed. lws's own check (its retry policy's validity timer) is not used: it moves a timer in a
 * sorted list of every connection's on each message, a walk of all of them. */
void pf_ws_idle_check(server *srv) {
  double now = pf_clock_seconds();
  for (session *s = srv->sockets; s; s = s->next) {
    if (s->close_code) continue;
    if (now - s->heard >= srv->cfg->idle) {
      char ip[64] = "?";
      lws_get_peer_simple(s->wsi, ip, sizeof ip);
      pf_counts_add(&srv->limits, "idle");
      pf_log_limit("idle", "closed a WebSocket from %s that answered no ping for %d s", ip, srv->cfg->idle);
      s->close_code = LWS_CLOSE_STATUS_POLICY_VIOLATION;
      pf_ws_drop_queue(s);
      lws_set_timeout(s->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
    } else if (now - s->heard >= srv->cfg->idle / 2.0 && !s->pinged) {
      s->pinged = s->ping_due = true;
      lws_callback_on_writable(s->wsi);
    }
  }
}


void pf_ws_open(server *srv, session *s, struct lws *wsi) {
  memset(s, 0, sizeof *s);
  s->srv = srv;
  s->wsi = wsi;
  char key[PF_CLIENT_KEY_MAX];
  s->client = pf_peer_client(srv, wsi, key, sizeof key); /* as it was when the upgrade was let through */
  if (s->client) pf_client_hold(s->client, PF_HOLD_WS, 1);
  s->conn = pf_hall_connect(srv->hall, s, s->client);
  s->tokens = BURST;
  s->last = s->heard = pf_clock_seconds();
  s->next = srv->sockets;
  if (srv->sockets) srv->sockets->prev = s;
  srv->sockets = s;
}

void pf_ws_closed(session *s) {
  server *srv = s->srv;
  if (!srv) return; /* never opened */
  if (s->conn) pf_hall_disconnect(srv->hall, s->conn);
  if (s->conn && s->client) pf_client_hold(s->client, PF_HOLD_WS, -1);
  s->client = NULL;
  if (s->pending) { /* out of the pending list */
    if (s->pending_prev) s->pending_prev->pending_next = s->pending_next;
    else srv->pending = s->pending_next;
    if (s->pending_next) s->pending_next->pending_prev = s->pending_prev;
    s->pending = false;
  }
  if (s->conn) { /* out of the list */
    if (s->prev) s->prev->next = s->next;
    else srv->sockets = s->next;
    if (s->next) s->next->prev = s->prev;
  }
  s->conn = NULL;
  pf_ws_drop_queue(s);
  pf_buf_free(&s->rx);
}
