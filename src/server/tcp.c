/*
 * tcp.c - every TCP connection, counted against its client and against conns_max (tcp.h).
 */
#include "server/tcp.h"
#include "server/log.h"
#include "server/peer.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "core/clock.h"
#include "core/mem.h"

#define RESERVE_FDS 64   /* descriptors kept for the database, the listening socket, lws's own */
#define SHED_LOOK 1000   /* connections looked at for one to shed, newest first */
#define BUSY_SECONDS 1.0 /* a connection with a request begun this recently is not idle */

struct pf_tcp {
  struct lws *wsi;     /* NULL until adopted */
  pf_client *client;   /* its peer's, holding PF_HOLD_TCP; NULL for a trusted proxy's */
  double request;      /* when its last request began (its accept, before one) */
  bool asked;          /* a request has begun on it (before its first, it is idle from its accept) */
  bool ws, shed;       /* a WebSocket; being closed to make room */
  pf_tcp *prev, *next; /* the server's connections that are not WebSockets, the last active first */
};

int pf_tcp_max(const server *srv) {
  int max = srv->cfg->conns_max;
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && (rlim_t)max + RESERVE_FDS > rl.rlim_cur)
    max = rl.rlim_cur > 2 * RESERVE_FDS ? (int)(rl.rlim_cur - RESERVE_FDS) : (int)rl.rlim_cur / 2;
  return max;
}

int pf_tcp_count(const server *srv) { return srv->ntcp; }

/* The list of connections that are not WebSockets, the most recently active first. */
static void list_out(server *srv, pf_tcp *t) {
  if (t->prev) t->prev->next = t->next;
  else if (srv->tcp == t) srv->tcp = t->next;
  if (t->next) t->next->prev = t->prev;
  else if (srv->tcp_last == t) srv->tcp_last = t->prev;
  t->prev = t->next = NULL;
}

static void list_in(server *srv, pf_tcp *t) {
  t->prev = NULL;
  t->next = srv->tcp;
  if (srv->tcp) srv->tcp->prev = t;
  else srv->tcp_last = t;
  srv->tcp = t;
}

static void unlink_conn(server *srv, pf_tcp *t) {
  if (!t->ws) list_out(srv, t);
  srv->ntcp--;
  if (t->shed) srv->nshed--;
  if (t->client) pf_client_hold(t->client, PF_HOLD_TCP, -1);
  free(t);
}

/* The connection idle for longest (not a WebSocket, no request begun in the last second), or
 * NULL. The longest idle rather than the newest: a new client's connection is the newest until its
 * first request comes, and a flood of connections would shed each before it could ask. */
static pf_tcp *longest_idle(server *srv, double now) {
  int looked = 0;
  for (pf_tcp *t = srv->tcp_last; t && looked < SHED_LOOK; t = t->prev, looked++)
    if (t->wsi && !t->shed && (!t->asked || now - t->request >= BUSY_SECONDS)) return t;
  return NULL;
}

int pf_tcp_accept(server *srv, const struct lws_filter_network_conn_args *a) {
  double now = pf_clock_seconds();
  if (srv->accepting) { /* the last one taken was never adopted (lws failed it) */
    pf_tcp *t = srv->accepting;
    srv->accepting = NULL;
    unlink_conn(srv, t);
  }
  char ip[64] = "", key[PF_CLIENT_KEY_MAX];
  if (a->cli_addr.ss_family == AF_INET)
    inet_ntop(AF_INET, &((const struct sockaddr_in *)&a->cli_addr)->sin_addr, ip, sizeof ip);
  else if (a->cli_addr.ss_family == AF_INET6)
    inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)&a->cli_addr)->sin6_addr, ip, sizeof ip);
  pf_client *c = NULL;
  if (!pf_client_key(ip, key, sizeof key)) {
    if (a->cli_addr.ss_family == AF_INET || a->cli_addr.ss_family == AF_INET6) return 1;
  } else if (!pf_peer_trusted(srv, key)) {
    c = pf_client_get(srv->clients, key, now);
    const char *limit = !c                                    ? "clients_max"
                        : !pf_client_may_hold(c, PF_HOLD_TCP) ? "tcp_per_address"
                        : !pf_client_take(c, PF_RATE_CONNECT, now) ? "connect_rate"
                                                                    : NULL;
    if (limit) {
      pf_counts_add(&srv->limits, limit);
      pf_log_limit(limit, "refused a connection from %s (%s)", key, limit);
      return 1;
    }
  }
  if (srv->ntcp - srv->nshed >= pf_tcp_max(srv)) {
    pf_tcp *victim = longest_idle(srv, now);
    pf_counts_add(&srv->limits, "conns_max");
    if (!victim) {
      pf_log_limit("conns_max", "refused a connection from %s: %d open, none idle (conns_max)", ip, srv->ntcp);
      return 1;
    }
    pf_log_limit("conns_max", "%d connections open (conns_max): closed the one idle longest to take one from %s",
                 srv->ntcp, ip);
    victim->shed = true;
    srv->nshed++;
    lws_set_timeout(victim->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
  }
  pf_tcp *t = pf_xcalloc(1, sizeof *t);
  t->client = c;
  if (c) pf_client_hold(c, PF_HOLD_TCP, 1);
  t->request = now;
  list_in(srv, t);
  srv->ntcp++;
  srv->accepting = t;
  return 0;
}

void pf_tcp_adopted(server *srv, struct lws *wsi) {
  pf_tcp *t = srv->accepting;
  if (!t) return;
  srv->accepting = NULL;
  t->wsi = wsi;
  lws_set_opaque_user_data(wsi, t);
}

void pf_tcp_request(server *srv, struct lws *wsi) {
  pf_tcp *t = lws_get_opaque_user_data(wsi);
  if (!t || t->ws) return;
  t->request = pf_clock_seconds();
  t->asked = true;
  list_out(srv, t);
  list_in(srv, t);
}

void pf_tcp_upgraded(server *srv, struct lws *wsi) {
  pf_tcp *t = lws_get_opaque_user_data(wsi);
  if (!t || t->ws) return;
  list_out(srv, t); /* never shed */
  t->ws = true;
}

void pf_tcp_closed(server *srv, struct lws *wsi) {
  pf_tcp *t = lws_get_opaque_user_data(wsi);
  if (!t) return;
  lws_set_opaque_user_data(wsi, NULL);
  unlink_conn(srv, t);
}
