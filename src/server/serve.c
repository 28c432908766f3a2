/*
 * serve.c - the hall on HTTP and WebSocket with libwebsockets, on one thread (serve.h): the one
 * protocol's callback, the loop, and the server's start and stop. Every TCP connection is tcp.c's
 * from its accept (counted against its address and conns_max), its WebSockets are ws.c's (a
 * message's size and rate, the queues, pings), its HTTP answers httpd.c's, who a peer is peer.c's
 * (its address and client, its Host and Origin). A refused message is answered with an error;
 * the hall never sees it.
 *
 * One protocol handles both: HTTP GETs under /api/ go to pf_hall_http, other paths are files of
 * the web folder, and a WebSocket (at /ws, with or without the subprotocol "pilfer") carries the
 * JSON messages of docs/protocol.md, each connection with its client (pf_hall_connect): the
 * table of clients is the hall's (pf_hall_clients), and the transport counts in it too.
 *
 * The loop is libev's (epoll; lws's own poll() when lws has no libev: see pf_serve). Each pass
 * of it (lws's handling of the events of one wait) ends with pf_hall_flush: the moves of a pass
 * are committed together, then acknowledged; then what the pass gave each WebSocket is written
 * (pf_ws_write_pending), its messages framed and written together.
 */
#define _DEFAULT_SOURCE /* realpath */
#include "server/serve.h"
#include "server/httpd.h"
#include "server/log.h"
#include "server/peer.h"
#include "server/tcp.h"
#include "server/transport.h"
#include "server/ws.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ev.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>

#include "core/clock.h"
#include "core/jsontext.h"

static volatile sig_atomic_t stopping;

static void on_signal(int sig) {
  (void)sig;
  stopping = 1;
}

/* libwebsockets' own errors, in the server's log, as many a second as a limit's (a failing accept
 * could otherwise write one a pass). */
static void lws_line(int level, const char *line) {
  (void)level;
  size_t n = strlen(line);
  while (n && (line[n - 1] == '\n' || line[n - 1] == '\r')) n--;
  pf_log_limit("lws", "libwebsockets: %.*s", (int)n, line);
}

/* An upgrade refused before it happens: an HTTP 403 with the reason, then the connection closes
 * (a browser, or a proxy in front, is told rather than left with a connection cut short). */
static int refuse_upgrade(struct lws *wsi, const char *why) {
  lws_return_http_status(wsi, HTTP_STATUS_FORBIDDEN, why);
  return 1;
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
  struct lws_context *ctx = lws_get_context(wsi);
  server *srv = ctx ? lws_context_user(ctx) : NULL;
  session *s = user;
  switch (reason) {
  case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION: { /* before the upgrade: another site's page, or past the address's limit */
    char host[128];
    if (!pf_peer_host_allowed(srv, wsi, host, sizeof host)) { /* first: a rebinding page's Origin is its Host */
      pf_counts_add(&srv->limits, "host");
      pf_log_limit("host", "refused a WebSocket for a name this server does not serve (Host %s)", host);
      return refuse_upgrade(wsi, "this server does not serve that name (pilfer serve --origin adds one)");
    }
    if (!pf_peer_origin_allowed(srv, wsi)) {
      char origin[128] = "?";
      lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN);
      pf_counts_add(&srv->limits, "origin");
      pf_log_limit("origin", "refused a WebSocket from another site's page (Origin %s)", origin);
      return refuse_upgrade(wsi, "another site's page may not open a WebSocket here");
    }
    char key[PF_CLIENT_KEY_MAX];
    pf_client *c = pf_peer_client(srv, wsi, key, sizeof key);
    if (!c || !pf_client_may_hold(c, PF_HOLD_WS)) {
      const char *limit = c ? "conns_per_address" : "clients_max";
      pf_counts_add(&srv->limits, limit);
      pf_log_limit(limit, "refused a WebSocket from %s: it has %d open (%s)", key, c ? pf_client_held(c, PF_HOLD_WS) : 0,
                   limit);
      return refuse_upgrade(wsi, c ? "too many WebSockets from your address (conns_per_address)"
                                   : "too many clients on this server now (clients_max)");
    }
    return 0;
  }
  case LWS_CALLBACK_FILTER_NETWORK_CONNECTION: /* accepted: its address's TCP limits, and conns_max */
    return pf_tcp_accept(srv, user);
  case LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED:
    pf_tcp_adopted(srv, wsi);
    return 0;
  case LWS_CALLBACK_WSI_DESTROY:
    if (srv) pf_tcp_closed(srv, wsi);
    return 0;
  case LWS_CALLBACK_ESTABLISHED:
    pf_tcp_upgraded(srv, wsi);
    pf_ws_open(srv, s, wsi);
    return 0;
  case LWS_CALLBACK_RECEIVE:
  case LWS_CALLBACK_RECEIVE_PONG:
    s->heard = pf_clock_seconds();
    s->pinged = false;
    if (reason == LWS_CALLBACK_RECEIVE) pf_ws_receive(srv, s, in, len);
    return 0;
  case LWS_CALLBACK_SERVER_WRITEABLE:
    return pf_ws_writeable(s);
  case LWS_CALLBACK_CLOSED:
    pf_ws_closed(s);
    return 0;
  case LWS_CALLBACK_HTTP:
    pf_tcp_request(srv, wsi);
    memset(s, 0, sizeof *s);
    s->wsi = wsi;
    return pf_httpd_request(srv, s, in);
  /* A connection that closes before its first request (a browser's speculative connection) has
   * no session yet: lws allocates it with the first callback that needs it. */
  case LWS_CALLBACK_HTTP_WRITEABLE:
    return s && (s->http.len || s->http_sent) ? pf_httpd_writeable(s) : 0;
  case LWS_CALLBACK_CLOSED_HTTP:
  case LWS_CALLBACK_HTTP_DROP_PROTOCOL: /* an answer whose client went before it was written */
    if (s) pf_buf_free(&s->http);
    return 0;
  case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
    if (srv && srv->hall) pf_hall_poll(srv->hall);
    return 0;
  default:
    return lws_callback_http_dummy(wsi, reason, user, in, len);
  }
}

static const struct lws_protocols PROTOCOLS[] = {
    /* tx_packet_size: lws sends at most this much of a write at once and keeps the rest itself,
     * outside the queue's limits (by default the receive buffer's size, 8192) */
    {"pilfer", callback, sizeof(session), 8192, 0, NULL, PF_WRITE_MAX},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

static void on_tick(lws_sorted_usec_list_t *sul) {
  server *srv = lws_container_of(sul, server, tick);
  pf_hall_tick(srv->hall);
  pf_ws_idle_check(srv);
  lws_sul_schedule(srv->ctx, 0, &srv->tick, on_tick, LWS_US_PER_SEC);
}

/* As many connections as the process may have: the soft limit of open files up to the hard one. */
static void raise_file_limit(void) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
  }
}

/* Whether this process listens on TCP `port`, and only on `iface` when that is an address (a name
 * or every interface is libwebsockets' to resolve); `got` says what it found otherwise. Debian's
 * libwebsockets 4.1, given an IPv4 address on a vhost that may serve IPv6, listens on every
 * interface (its bug 2290 on GitHub, fixed in later releases): pf_serve turns IPv6 off for an IPv4
 * address, and checks here that it worked before serving anyone. */
static bool bound_as_asked(const char *iface, int port, char *got, size_t n) {
  char want[64];
  bool check = iface && pf_peer_canonical(iface, want, sizeof want), found = false;
  for (int fd = 0; fd < 1024; fd++) {
    int listening = 0;
    socklen_t len = sizeof listening;
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &len) != 0 || !listening ||
        getsockname(fd, (struct sockaddr *)&ss, &sl) != 0)
      continue;
    char text[64] = "";
    int p = -1;
    if (ss.ss_family == AF_INET) {
      const struct sockaddr_in *a = (const struct sockaddr_in *)&ss;
      inet_ntop(AF_INET, &a->sin_addr, text, sizeof text);
      p = ntohs(a->sin_port);
    } else if (ss.ss_family == AF_INET6) {
      const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)&ss;
      inet_ntop(AF_INET6, &a->sin6_addr, text, sizeof text);
      p = ntohs(a->sin6_port);
    }
    if (p != port) continue;
    found = true;
    if (check && (!pf_peer_canonical(text, got, n) || strcmp(got, want) != 0)) {
      snprintf(got, n, "%s", text);
      return false;
    }
  }
  if (!found) snprintf(got, n, "no socket");
  return found;
}

/* The end of a pass of the loop: every event of the pass handled, the changes are committed and
 * told (pf_hall_flush), and what they gave each connection written. */
static void end_pass(server *srv) {
  pf_hall_flush(srv->hall);
  pf_ws_write_pending(srv);
}

/* libev's prepare watcher: its loop has handled the pass's events and is about to wait. The pass
 * is ended first, stopping or not, as the poll() loop ends every pass it services. */
static void end_of_pass(struct ev_loop *loop, ev_prepare *w, int revents) {
  (void)revents;
  end_pass(w->data);
  if (stopping) ev_break(loop, EVBREAK_ALL);
}

int pf_serve(const pf_serve_config *cfg) {
  server srv = {.cfg = cfg, .started = (double)time(NULL)};
  if (cfg->web && !realpath(cfg->web, srv.web)) {
    pf_log_fail("the web folder %s: %s", cfg->web, strerror(errno));
    return 1;
  }
  struct stat sb;
  errno = 0;
  if (cfg->reports && (!realpath(cfg->reports, srv.reports) || stat(srv.reports, &sb) != 0 || !S_ISDIR(sb.st_mode))) {
    pf_log_fail("the reports folder %s: %s", cfg->reports, errno ? strerror(errno) : "not a folder");
    return 1;
  }
  pf_hall_io io = {.ctx = &srv, .send = pf_ws_hall_send, .wake = pf_ws_hall_wake, .write = pf_ws_hall_write};
  pf_hall_config hc = {.db = cfg->db, .full_sync = cfg->full_sync, .workers = cfg->workers,
                        .helpers = cfg->helpers, .limits = cfg->hall, .shard = cfg->shard};
  pf_error err;
  srv.hall = pf_hall_open(&hc, &io, &err);
  if (!srv.hall) {
    pf_log_fail("%s", err.msg);
    return 1;
  }
  srv.clients = pf_hall_clients(srv.hall);
  raise_file_limit();
  lws_set_log_level(LLL_ERR, lws_line);
  struct lws_context_creation_info info;
  memset(&info, 0, sizeof info);
  info.port = cfg->port;
  info.iface = cfg->iface;
  info.protocols = PROTOCOLS;
  info.user = &srv;
  info.options = LWS_SERVER_OPTION_VALIDATE_UTF8;
  unsigned char v4[4];
  if (cfg->iface && inet_pton(AF_INET, cfg->iface, v4) == 1) info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
  /* No validity check by lws (idle_check does it): a hangup time of 0 turns it off. */
  lws_retry_bo_t no_check = {.secs_since_valid_ping = 0, .secs_since_valid_hangup = 0};
  info.retry_and_idle_policy = &no_check;
  /* The loop waits with epoll (libev's, lws's event library for it) rather than lws's own
   * poll() of every connection on every pass, most of a pass's fixed cost with thousands open;
   * without that library (Debian's libwebsockets-evlib-ev) lws polls. */
  struct ev_loop *loop = ev_loop_new(EVBACKEND_EPOLL);
  void *loops[1] = {loop};
  info.options |= loop ? LWS_SERVER_OPTION_LIBEV : 0;
  info.foreign_loops = loop ? loops : NULL;
  pf_ws_set_context(&srv, lws_create_context(&info));
  if (!srv.ctx && loop) {
    ev_loop_destroy(loop);
    loop = NULL;
    info.options &= ~(uint64_t)LWS_SERVER_OPTION_LIBEV;
    info.foreign_loops = NULL;
    pf_ws_set_context(&srv, lws_create_context(&info));
    if (srv.ctx) pf_log("config", "no libev for libwebsockets (libwebsockets-evlib-ev): polling every connection");
  }
  if (!srv.ctx) {
    pf_log_fail("cannot listen on %s:%d", cfg->iface ? cfg->iface : "*", cfg->port);
    pf_hall_close(srv.hall);
    return 1;
  }
  signal(SIGINT, on_signal);
  signal(SIGTERM, on_signal);
  signal(SIGPIPE, SIG_IGN);
  int port = lws_get_vhost_listen_port(lws_get_vhost_by_name(srv.ctx, "default"));
  char bound[64];
  if (!bound_as_asked(cfg->iface, port, bound, sizeof bound)) {
    pf_log_fail("asked to listen on %s port %d, but found %s: not serving other than was asked",
                cfg->iface ? cfg->iface : "every interface", port, bound);
    struct lws_context *ctx = srv.ctx;
    pf_ws_set_context(&srv, NULL);
    lws_context_destroy(ctx);
    if (loop) ev_loop_destroy(loop);
    pf_hall_close(srv.hall);
    return 1;
  }
  bool v6 = cfg->iface && strchr(cfg->iface, ':');
  int ntables = pf_hall_tables(srv.hall);
  char shard[48] = "";
  if (cfg->shard.count) snprintf(shard, sizeof shard, ", shard %d of %d", cfg->shard.index, cfg->shard.count);
  pf_log_out("start", "listening on http://%s%s%s:%d/ (database %s, %d %s in play%s)", v6 ? "[" : "",
             cfg->iface ? cfg->iface : "localhost", v6 ? "]" : "", port, cfg->db, ntables, ntables == 1 ? "table" : "tables",
             shard);
  lws_sul_schedule(srv.ctx, 0, &srv.tick, on_tick, LWS_US_PER_SEC);
  pf_hall_poll(srv.hall); /* bots of the tables that came back may have chosen already */
  if (loop) {
    ev_prepare pass_end;
    ev_prepare_init(&pass_end, end_of_pass);
    pass_end.data = &srv;
    ev_prepare_start(loop, &pass_end);
    ev_run(loop, 0);
    ev_prepare_stop(loop, &pass_end);
  } else {
    while (!stopping && lws_service(srv.ctx, 0) >= 0) end_pass(&srv);
  }
  pf_hall_stopping(srv.hall);
  struct lws_context *ctx = srv.ctx;
  pf_ws_set_context(&srv, NULL); /* no worker wakes a context being destroyed */
  lws_context_destroy(ctx); /* closes every connection: the hall hears of each */
  if (loop) ev_loop_destroy(loop);
  pf_hall_close(srv.hall);
  pf_log_out("stop", "stopped");
  return 0;
}
