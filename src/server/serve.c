/*
 * serve.c - the hall on HTTP and WebSocket with libwebsockets, on one thread (serve.h).
 *
 * One protocol handles both: HTTP GETs under /api/ go to pf_hall_http, other paths are files of
 * the web folder, and a WebSocket (at /ws, with or without the subprotocol "pilfer") carries the
 * JSON messages of docs/protocol.md. The limits of a connection are kept here, before the hall
 * sees anything: a message is at most MAX_MESSAGE bytes, a connection sends at most RATE messages
 * a second (bursts of BURST) plus one for each state it is sent (a client that answers every
 * state at once, as a script playing bots does, is never held back), one address opens at most
 * conns_per_address WebSockets, one that answers no ping for `idle` seconds is closed, and so is
 * one that does not read when queue_kib wait for it (or queue_total_mib for everyone): its queue
 * is freed at once, not when it reads a close frame it will never read. A refused
 * message is answered with an error; the hall never sees it.
 *
 * The loop is libev's (epoll; lws's own poll() when lws has no libev: see pf_serve). Each pass
 * of it (lws's handling of the events of one wait) ends with pf_hall_flush: the moves of a pass
 * are committed together, then acknowledged; then what the pass gave each WebSocket is written
 * (write_pending), its messages framed here and written together.
 *
 * The web folder's files are served to GET and HEAD only, and only files inside it: a path with
 * "..", a directory, or a symbolic link that leads out of the folder is not found. They come
 * compressed and with an ETag (pf_web_file, http.c); one bigger than PF_WEB_FILE_MAX is streamed
 * as it is. The reports folder (--reports) is served the same way under /reports/, and only its
 * HTML files that lie in it (not in a folder of it) with a plain name (report_name); /api/reports
 * lists them, at most MAX_REPORTS, each with the game its name begins with.
 */
#define _DEFAULT_SOURCE /* realpath */
#include "server/serve.h"
#include "server/log.h"
#include "server/metrics.h"

#include <ctype.h>
#include <dirent.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <ev.h>
#include <libwebsockets.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "core/clock.h"
#include "core/jsontext.h"
#include "core/mem.h"
#include "games/registry.h"
#include "server/hall.h"
#include "server/webfile.h"

#define MAX_MESSAGE (64 * 1024)
#define RATE 100.0
#define BURST 200.0
#define DROPS_MAX 200
#define HTTP_CHUNK 16384
#define WRITE_MAX (64 * 1024) /* bytes of a WebSocket's messages written at once */
#define MAX_REPORTS 1000   /* reports /api/reports lists (the first in name order) */
#define REPORT_NAME_MAX 128 /* characters of a report's file name */

/* The limits `--limit NAME=N` sets, with their ranges (docs/protocol.md lists each). */
static const struct {
  const char *name;
  size_t offset;
  int def, min, max;
  const char *what;
} LIMITS[] = {
    {"conns_per_address", offsetof(pf_serve_config, conns_per_address), 64, 1, 1000000, "WebSockets from one address"},
    {"idle", offsetof(pf_serve_config, idle), 60, 2, 65535, "seconds a WebSocket may leave a ping unanswered"},
    {"queue_kib", offsetof(pf_serve_config, queue_kib), 1024, 64, 1048576, "KiB waiting for one connection"},
    {"queue_total_mib", offsetof(pf_serve_config, queue_total_mib), 256, 1, 65536, "MiB waiting for all"},
    {"waiting_per_conn", offsetof(pf_serve_config, hall.waiting_per_conn), 4, 1, 1000000,
     "waiting tables one connection created"},
    {"waiting_max", offsetof(pf_serve_config, hall.waiting_max), 10000, 1, 10000000, "waiting tables in all"},
    {"waiting_expiry", offsetof(pf_serve_config, hall.waiting_expiry), 3600, 1, 31536000,
     "seconds a waiting table with nobody seated lives"},
    {"search_iters", offsetof(pf_serve_config, hall.search_iters), 100000, 1, 100000000,
     "iterations a bot or hint may ask"},
    {"search_ms", offsetof(pf_serve_config, hall.search_ms), 1000, 1, 60000, "milliseconds one search may take"},
};

void pf_serve_defaults(pf_serve_config *cfg) {
  for (size_t i = 0; i < sizeof LIMITS / sizeof *LIMITS; i++) *(int *)((char *)cfg + LIMITS[i].offset) = LIMITS[i].def;
}

int pf_serve_set_limit(pf_serve_config *cfg, const char *text, pf_error *err) {
  const char *eq = strchr(text, '=');
  for (size_t i = 0; eq && i < sizeof LIMITS / sizeof *LIMITS; i++) {
    if (strlen(LIMITS[i].name) != (size_t)(eq - text) || strncmp(text, LIMITS[i].name, (size_t)(eq - text)) != 0)
      continue;
    char *end;
    long v = strtol(eq + 1, &end, 10);
    if (!eq[1] || *end || v < LIMITS[i].min || v > LIMITS[i].max)
      return pf_fail(err, "--limit %s: a number from %d to %d (%s), not '%s'", LIMITS[i].name, LIMITS[i].min,
                     LIMITS[i].max, LIMITS[i].what, eq + 1);
    *(int *)((char *)cfg + LIMITS[i].offset) = (int)v;
    return 0;
  }
  pf_buf names = {0};
  for (size_t i = 0; i < sizeof LIMITS / sizeof *LIMITS; i++)
    pf_buf_printf(&names, "%s%s (%d)", i ? ", " : "", LIMITS[i].name, LIMITS[i].def);
  pf_fail(err, "--limit NAME=N, not '%s'; the names (and defaults) are %s", text, pf_buf_str(&names));
  pf_buf_free(&names);
  return -1;
}

/* One connection: a WebSocket, or an HTTP request being answered. */
typedef struct session {
  struct lws *wsi;
  pf_conn *conn;
  pf_buf rx;          /* the message being received */
  bool rx_dropped;    /* the rest of this message is ignored (too big) */
  pf_buf out;         /* lws's headroom (LWS_PRE bytes), then the messages waiting, framed */
  size_t queued;      /* their bytes (frames and all) */
  int close_code;     /* close once the queue is written (0: no) */
  double tokens, last;
  int drops;
  int addr;           /* its index in the server's addresses (-1: none) */
  double heard;       /* when the peer last sent anything (a message, a pong) */
  bool pinged, ping_due; /* a ping was sent since (or is to be sent) */
  struct session *prev, *next; /* the server's WebSockets, for the idle check */
  bool pending;       /* in the server's pending list: written at the end of the pass */
  struct session *pending_prev, *pending_next;
  pf_buf http;        /* an HTTP answer's body, sent from http_sent on */
  size_t http_sent;
  bool report;        /* the answer is a report's (its own Content-Security-Policy) */
} session;

/* The WebSockets open from one address. */
typedef struct address {
  char ip[64];
  int conns;
} address;

typedef struct server {
  pf_hall *hall;
  const pf_serve_config *cfg;
  char web[PATH_MAX];     /* the web folder, resolved ("" when there is none) */
  char reports[PATH_MAX]; /* the reports folder, resolved ("" when there is none) */
  size_t queued;          /* bytes waiting for every connection */
  address *addrs;
  int naddrs;
  session *sockets;       /* every open WebSocket */
  session *pending;       /* the WebSockets given messages in this pass (write_pending) */
  lws_sorted_usec_list_t tick;
  struct lws_context *ctx;
  pf_counts limits;       /* /metrics: connections refused or closed by a limit, by its name */
  double started;         /* unix seconds */
} server;

static volatile sig_atomic_t stopping;

static void on_signal(int sig) {
  (void)sig;
  stopping = 1;
}

/* ---- the hall's side ---- */

static server *the_server; /* for the queue's total (one server a process) */

static void drop_queue(session *s);

static void queue_message(session *s, const char *text, size_t len) {
  if (s->close_code) return;
  server *srv = the_server;
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
    drop_queue(s);
    s->close_code = LWS_CLOSE_STATUS_POLICY_VIOLATION;
    lws_set_timeout(s->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
    return;
  }
  static const char STATE[] = "{\"type\":\"state\"";
  if (len >= sizeof STATE - 1 && memcmp(text, STATE, sizeof STATE - 1) == 0 && s->tokens < BURST) s->tokens += 1.0;
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

static void hall_send(void *ctx, void *peer, const char *text, size_t len) {
  (void)ctx;
  queue_message(peer, text, len);
}

/* The context as the bots' workers see it: set once it exists, cleared before it is destroyed,
 * under a lock, since a worker may finish at any time (ThreadSanitizer saw one read it while
 * the loop's thread set it). */
static pthread_mutex_t wake_lock = PTHREAD_MUTEX_INITIALIZER;

static void set_context(server *srv, struct lws_context *ctx) {
  pthread_mutex_lock(&wake_lock);
  srv->ctx = ctx;
  pthread_mutex_unlock(&wake_lock);
}

static void hall_wake(void *ctx) {
  server *srv = ctx;
  pthread_mutex_lock(&wake_lock);
  if (srv->ctx) lws_cancel_service(srv->ctx);
  pthread_mutex_unlock(&wake_lock);
}

/* An error the transport answers itself (too big, flood), as the hall would word it. */
static void transport_error(session *s, const char *code, const char *message) {
  pf_counts_add(&the_server->limits, code);
  char ip[64] = "?";
  lws_get_peer_simple(s->wsi, ip, sizeof ip);
  pf_log_limit(code, "%s: %s", ip, message);
  char text[256];
  int n = snprintf(text, sizeof text, "{\"type\":\"error\",\"code\":\"%s\",\"message\":\"%s\"}", code, message);
  queue_message(s, text, (size_t)n);
}

static void drop_queue(session *s) {
  the_server->queued -= s->queued;
  pf_buf_free(&s->out);
  s->queued = 0;
}

/* ---- WebSocket ---- */

/* An address in one form: IPv4 as itself (also when lws gives it IPv4-mapped, "::ffff:1.2.3.4"),
 * IPv6 as inet_ntop writes it; false when `text` is no address. */
static bool canonical_address(const char *text, char *out, size_t n) {
  unsigned char bin[16];
  if (strncasecmp(text, "::ffff:", 7) == 0 && inet_pton(AF_INET, text + 7, bin) == 1) text += 7;
  if (inet_pton(AF_INET, text, bin) == 1) return inet_ntop(AF_INET, bin, out, (socklen_t)n) != NULL;
  return inet_pton(AF_INET6, text, bin) == 1 && inet_ntop(AF_INET6, bin, out, (socklen_t)n) != NULL;
}

/* The client's address: the peer's, or, when the peer is a trusted proxy, the last address of
 * its X-Forwarded-For (the one that proxy saw) when that is an address. */
static bool client_address(server *srv, struct lws *wsi, char *ip, size_t n) {
  char peer[64], xff[512], cand[64], proxy[64];
  if (!lws_get_peer_simple(wsi, peer, sizeof peer)) return false;
  if (!canonical_address(peer, ip, n)) snprintf(ip, n, "%s", peer);
  bool trusted = false;
  for (int i = 0; i < srv->cfg->nproxies && !trusted; i++)
    trusted = canonical_address(srv->cfg->proxies[i], proxy, sizeof proxy) && strcmp(ip, proxy) == 0;
  if (!trusted || lws_hdr_copy(wsi, xff, sizeof xff, WSI_TOKEN_X_FORWARDED_FOR) <= 0) return true;
  const char *last = strrchr(xff, ',');
  last = last ? last + 1 : xff;
  last += strspn(last, " \t");
  size_t len = strcspn(last, " \t");
  if (len == 0 || len >= sizeof cand) return true;
  snprintf(cand, sizeof cand, "%.*s", (int)len, last);
  canonical_address(cand, ip, n); /* not an address: the proxy's own stays */
  return true;
}

/* Whether a WebSocket upgrade may come from its Origin: none (not a browser: no page of another
 * site can be behind it), the server's own (the Origin's host[:port] is the Host header), or one
 * of --origin. Anything else, "null" too, is another site's page: cross-site WebSocket hijacking. */
static bool origin_allowed(server *srv, struct lws *wsi) {
  if (lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN) <= 0) return true;
  char origin[256], host[256];
  if (lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) <= 0) return false;
  for (int i = 0; i < srv->cfg->norigins; i++)
    if (strcasecmp(origin, srv->cfg->origins[i]) == 0) return true;
  const char *authority = strncasecmp(origin, "http://", 7) == 0    ? origin + 7
                          : strncasecmp(origin, "https://", 8) == 0 ? origin + 8
                                                                     : NULL;
  return authority && lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) > 0 && strcasecmp(authority, host) == 0;
}

/* The index of a client's address, added when new; -1 when it cannot be told. */
static int address_of(server *srv, struct lws *wsi) {
  char ip[64];
  if (!client_address(srv, wsi, ip, sizeof ip)) return -1;
  int free_slot = -1;
  for (int i = 0; i < srv->naddrs; i++) {
    if (strcmp(srv->addrs[i].ip, ip) == 0) return i;
    if (!srv->addrs[i].conns && free_slot < 0) free_slot = i;
  }
  if (free_slot < 0) {
    srv->addrs = pf_xrealloc(srv->addrs, (size_t)(srv->naddrs + 1) * sizeof *srv->addrs);
    free_slot = srv->naddrs++;
  }
  snprintf(srv->addrs[free_slot].ip, sizeof srv->addrs[free_slot].ip, "%s", ip);
  srv->addrs[free_slot].conns = 0;
  return free_slot;
}

/* A whole message has come: checked against the rate, then given to the hall. */
static void ws_message(server *srv, session *s) {
  double now = pf_clock_seconds();
  s->tokens += (now - s->last) * RATE;
  if (s->tokens > BURST) s->tokens = BURST;
  s->last = now;
  if (s->tokens < 1.0) {
    if (++s->drops >= DROPS_MAX) {
      transport_error(s, "flood", "too many messages: closing");
      s->close_code = LWS_CLOSE_STATUS_POLICY_VIOLATION;
    } else {
      transport_error(s, "flood", "too many messages (at most 100 a second): this one is dropped");
    }
    return;
  }
  s->tokens -= 1.0;
  pf_hall_message(srv->hall, s->conn, pf_buf_str(&s->rx), s->rx.len);
}

static void ws_receive(server *srv, session *s, const void *in, size_t len) {
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

/* Writes what waits, WRITE_MAX bytes at most, as it was framed (lws keeps what the socket did
 * not take and writes it before anything else); lws_write's result. */
static int ws_write_some(session *s) {
  size_t n = s->queued < WRITE_MAX ? s->queued : WRITE_MAX;
  unsigned char *from = (unsigned char *)s->out.data + s->out.len - s->queued;
  int w = lws_write(s->wsi, from, n, LWS_WRITE_RAW);
  s->queued -= n;
  the_server->queued -= n;
  if (!s->queued) {
    pf_buf_free(&s->out); /* no memory kept for a connection that waits for nothing */
  } else {                /* the rest moves up to the headroom, so the buffer never grows unsent */
    memmove(s->out.data + LWS_PRE, from + n, s->queued);
    s->out.len = LWS_PRE + s->queued;
  }
  return w;
}

/* The writeable callback: a ping that is due, what waits, then the close; -1 to close now. */
static int ws_writeable(session *s) {
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
    drop_queue(s);
    lws_set_timeout(s->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
  }
}

static void write_pending(server *srv) {
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
static void hall_write(void *ctx, void *peer) {
  (void)ctx;
  write_now(peer);
}

/* ---- HTTP ---- */

static const char *mime_type(const char *path) {
  static const struct {
    const char *ext, *type;
  } TYPES[] = {{".html", "text/html; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"},
               {".css", "text/css; charset=utf-8"},   {".svg", "image/svg+xml"},
               {".json", "application/json"},          {".png", "image/png"},
               {".ico", "image/x-icon"},               {".txt", "text/plain; charset=utf-8"}};
  const char *dot = strrchr(path, '.');
  for (size_t i = 0; dot && i < sizeof TYPES / sizeof TYPES[0]; i++)
    if (strcmp(dot, TYPES[i].ext) == 0) return TYPES[i].type;
  return "application/octet-stream";
}

static int add_header(struct lws *wsi, const char *name, const char *value, unsigned char **p, unsigned char *end) {
  return lws_add_http_header_by_name(wsi, (const unsigned char *)name, (const unsigned char *)value, (int)strlen(value),
                                     p, end);
}

/* What every answer tells the browser (docs/operations.md, "Browser security"): the page and
 * the API run only the site's own scripts and styles, talk only to the site, and are framed by
 * nobody. A report of analyze --html is one file with its scripts inside (Vega, which compiles
 * its expressions): it may run them, sandboxed in an origin of its own, with nothing from outside. */
static const char CSP_PAGE[] = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
                               "frame-ancestors 'none'";
static const char CSP_REPORT[] = "sandbox allow-scripts allow-downloads; default-src 'none'; script-src 'unsafe-inline' "
                                 "'unsafe-eval'; style-src 'unsafe-inline'; img-src data: blob:; frame-ancestors 'self'";

static int security_headers(struct lws *wsi, bool report, unsigned char **p, unsigned char *end) {
  return add_header(wsi, "content-security-policy:", report ? CSP_REPORT : CSP_PAGE, p, end) ||
         add_header(wsi, "x-content-type-options:", "nosniff", p, end) ||
         add_header(wsi, "referrer-policy:", "no-referrer", p, end) ||
         add_header(wsi, "x-frame-options:", report ? "SAMEORIGIN" : "DENY", p, end);
}

/* Sends the headers of an answer whose body is in s->http; the body follows when writeable. The
 * API's answers are never kept (no-store); a web file (w) is kept and asked again with its ETag
 * (no-cache), and says whether it is compressed. */
static int http_answer(session *s, int status, const char *type, const pf_web_answer *w) {
  unsigned char buf[LWS_PRE + 2048], *start = buf + LWS_PRE, *p = start, *end = buf + sizeof buf - 1;
  if (lws_add_http_common_headers(s->wsi, (unsigned)status, type, s->http.len, &p, end) ||
      add_header(s->wsi, "cache-control:", w ? "no-cache" : "no-store", &p, end) ||
      security_headers(s->wsi, s->report, &p, end) ||
      (w && (add_header(s->wsi, "etag:", w->etag, &p, end) || add_header(s->wsi, "vary:", "accept-encoding", &p, end) ||
             (w->gzip && add_header(s->wsi, "content-encoding:", "gzip", &p, end)))) ||
      lws_finalize_write_http_header(s->wsi, start, &p, end))
    return 1;
  if (!s->http.len) return lws_http_transaction_completed(s->wsi) ? -1 : 0; /* a 304: headers only */
  s->http_sent = 0;
  lws_callback_on_writable(s->wsi);
  return 0;
}

static int http_text(session *s, int status, const char *text) {
  pf_buf_puts(&s->http, text);
  return http_answer(s, status, "text/plain; charset=utf-8", NULL);
}

/* Whether `file` is a file (not a folder) inside the resolved folder `dir`, where it really is
 * (real, PATH_MAX bytes), after every link. */
static bool file_inside(const char *dir, const char *file, char *real) {
  struct stat sb;
  size_t dl = strlen(dir);
  return realpath(file, real) && strncmp(real, dir, dl) == 0 && real[dl] == '/' && stat(real, &sb) == 0 &&
         S_ISREG(sb.st_mode);
}

/* A file of `dir` ("" when there is none) at `path` ("/..."): no way out of it, by "..", a link,
 * or anything else. */
static int http_file(session *s, const char *dir, const char *path) {
  char file[PATH_MAX + 256], real[PATH_MAX];
  if (!dir[0] || strstr(path, "..") || strlen(path) > 200) return http_text(s, 404, "not found\n");
  snprintf(file, sizeof file, "%s%s%s", dir, path, path[strlen(path) - 1] == '/' ? "index.html" : "");
  if (!file_inside(dir, file, real)) return http_text(s, 404, "not found\n");
  char accept[256] = "", match[256] = "";
  pf_web_answer w;
  if (lws_hdr_copy(s->wsi, accept, sizeof accept, WSI_TOKEN_HTTP_ACCEPT_ENCODING) < 0) accept[0] = '\0';
  if (lws_hdr_copy(s->wsi, match, sizeof match, WSI_TOKEN_HTTP_IF_NONE_MATCH) < 0) match[0] = '\0';
  if (pf_web_file(real, accept, match, &s->http, &w)) return http_answer(s, w.status, mime_type(real), &w);
  unsigned char extra[1024], *p = extra;
  if (security_headers(s->wsi, s->report, &p, extra + sizeof extra)) return -1;
  int n = lws_serve_http_file(s->wsi, real, mime_type(real), (const char *)extra, (int)(p - extra));
  if (n < 0) return -1;
  return n > 0 && lws_http_transaction_completed(s->wsi) ? -1 : 0;
}

/* A report's file name: letters, digits, '.', '-' and '_', not first a '.', no "..", ending in
 * .html. */
static bool report_name(const char *name) {
  size_t n = strlen(name);
  if (n < 6 || n > REPORT_NAME_MAX || name[0] == '.' || strstr(name, "..") || strcmp(name + n - 5, ".html") != 0)
    return false;
  for (size_t i = 0; i < n; i++)
    if (!(isalnum((unsigned char)name[i]) || strchr(".-_", name[i]))) return false;
  return true;
}

/* The game a report's name begins with (its id followed by '.', '-' or '_'; the longest such id),
 * or NULL. */
static const pf_game *report_game(const char *name) {
  const pf_game *best = NULL;
  for (int k = 0; pf_games[k]; k++) {
    size_t n = strlen(pf_games[k]->id);
    if (strncmp(name, pf_games[k]->id, n) == 0 && strchr(".-_", name[n]) && (!best || n > strlen(best->id)))
      best = pf_games[k];
  }
  return best;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* /api/reports: {"reports": [{"file", "url", "game"}...]}, in name order; empty without a reports
 * folder. */
static int http_reports(server *srv, session *s) {
  char *names[MAX_REPORTS];
  int n = 0;
  DIR *d = srv->reports[0] ? opendir(srv->reports) : NULL;
  for (struct dirent *e; d && (e = readdir(d));) {
    char file[PATH_MAX + sizeof e->d_name + 2], real[PATH_MAX];
    if (!report_name(e->d_name)) continue;
    snprintf(file, sizeof file, "%s/%s", srv->reports, e->d_name);
    if (!file_inside(srv->reports, file, real)) continue; /* what /reports/ would not serve */
    if (n < MAX_REPORTS) {
      names[n++] = pf_xstrdup(e->d_name);
      continue;
    }
    int last = 0; /* more than MAX_REPORTS: the first in name order are kept */
    for (int i = 1; i < n; i++)
      if (strcmp(names[i], names[last]) > 0) last = i;
    if (strcmp(e->d_name, names[last]) < 0) free(names[last]), names[last] = pf_xstrdup(e->d_name);
  }
  if (d) closedir(d);
  qsort(names, (size_t)n, sizeof *names, by_name);
  json_t *list = json_array();
  for (int i = 0; i < n; i++) {
    const pf_game *g = report_game(names[i]);
    char url[REPORT_NAME_MAX + 16];
    snprintf(url, sizeof url, "/reports/%s", names[i]);
    json_array_append_new(list, json_pack("{s:s, s:s, s:o}", "file", names[i], "url", url, "game",
                                          g ? json_string(g->id) : json_null()));
    free(names[i]);
  }
  json_t *o = json_pack("{s:o}", "reports", list);
  char *text = json_dumps(o, JSON_INDENT(1));
  json_decref(o);
  pf_buf_puts(&s->http, text);
  pf_buf_putc(&s->http, '\n');
  free(text);
  return http_answer(s, 200, "application/json", NULL);
}

/* Whether two strings are equal, in a time that does not tell where they differ. */
static bool same_secret(const char *a, const char *b) {
  size_t na = strlen(a), nb = strlen(b);
  unsigned char diff = na != nb;
  for (size_t i = 0; i < na; i++) diff |= (unsigned char)(a[i] ^ b[i % (nb ? nb : 1)]);
  return diff == 0;
}

/* GET /metrics (docs/operations.md, "Metrics"): Prometheus's text format, to whoever shows the
 * --metrics-token-file's token as "Authorization: Bearer TOKEN"; 404 without that option. */
static int http_metrics(server *srv, session *s) {
  if (!srv->cfg->metrics_token) return http_text(s, 404, "not found\n");
  char auth[256];
  if (lws_hdr_copy(s->wsi, auth, sizeof auth, WSI_TOKEN_HTTP_AUTHORIZATION) <= 0 || strncmp(auth, "Bearer ", 7) != 0 ||
      !same_secret(auth + 7, srv->cfg->metrics_token)) {
    pf_counts_add(&srv->limits, "metrics_token");
    return http_text(s, 401, "/metrics needs \"Authorization: Bearer TOKEN\" (pilfer serve --metrics-token-file)\n");
  }
  pf_hall_metrics(srv->hall, &s->http);
  pf_counts_write(&s->http, "pilfer_limits_total", "limit",
                  "connections refused, closed or messages refused by a limit of the transport, by its name "
                  "(docs/protocol.md, Limits; origin: another site's page)",
                  &srv->limits);
  pf_metric(&s->http, "pilfer_queued_bytes", "gauge", "bytes waiting to be written to the connections", (double)srv->queued);
  pf_metric(&s->http, "pilfer_start_time_seconds", "gauge", "when the server started (unix time)", srv->started);
  return http_answer(s, 200, "text/plain; version=0.0.4; charset=utf-8", NULL);
}

static int http_request(server *srv, session *s, const char *path) {
  pf_buf_clear(&s->http);
  if (!lws_hdr_total_length(s->wsi, WSI_TOKEN_GET_URI) && !lws_hdr_total_length(s->wsi, WSI_TOKEN_HEAD_URI))
    return http_text(s, 405, "only GET and HEAD are answered here\n");
  if (strcmp(path, "/metrics") == 0) return http_metrics(srv, s);
  if (strcmp(path, "/api/reports") == 0) return http_reports(srv, s);
  if (strncmp(path, "/api/", 5) == 0) {
    const char *type = "application/json";
    int status = pf_hall_http(srv->hall, path, &s->http, &type);
    return http_answer(s, status, type, NULL);
  }
  if (strncmp(path, "/reports/", 9) == 0) {
    s->report = true;
    if (!report_name(path + 9)) return http_text(s, 404, "not found\n");
    return http_file(s, srv->reports, path + 8);
  }
  return http_file(s, srv->web, path);
}

static int http_writeable(session *s) {
  size_t left = s->http.len - s->http_sent, n = left < HTTP_CHUNK ? left : HTTP_CHUNK;
  unsigned char buf[LWS_PRE + HTTP_CHUNK];
  memcpy(buf + LWS_PRE, s->http.data ? s->http.data + s->http_sent : "", n);
  bool last = n == left;
  if (lws_write(s->wsi, buf + LWS_PRE, n, last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) != (int)n) return -1;
  s->http_sent += n;
  if (!last) {
    lws_callback_on_writable(s->wsi);
    return 0;
  }
  pf_buf_free(&s->http);
  return lws_http_transaction_completed(s->wsi) ? -1 : 0;
}

/* ---- the one protocol ---- */

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
    if (!origin_allowed(srv, wsi)) {
      char origin[128] = "?";
      lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN);
      pf_counts_add(&srv->limits, "origin");
      pf_log_limit("origin", "refused a WebSocket from another site's page (Origin %s)", origin);
      return refuse_upgrade(wsi, "another site's page may not open a WebSocket here");
    }
    int a = address_of(srv, wsi);
    if (a >= 0 && srv->addrs[a].conns >= srv->cfg->conns_per_address) {
      pf_counts_add(&srv->limits, "conns_per_address");
      pf_log_limit("conns_per_address", "refused a WebSocket from %s: it has %d open (conns_per_address)", srv->addrs[a].ip,
                   srv->addrs[a].conns);
      return refuse_upgrade(wsi, "too many WebSockets from your address (conns_per_address)");
    }
    return 0;
  }
  case LWS_CALLBACK_ESTABLISHED:
    memset(s, 0, sizeof *s);
    s->wsi = wsi;
    s->addr = address_of(srv, wsi);
    if (s->addr >= 0) srv->addrs[s->addr].conns++;
    s->conn = pf_hall_connect(srv->hall, s);
    s->tokens = BURST;
    s->last = s->heard = pf_clock_seconds();
    s->next = srv->sockets;
    if (srv->sockets) srv->sockets->prev = s;
    srv->sockets = s;
    return 0;
  case LWS_CALLBACK_RECEIVE:
  case LWS_CALLBACK_RECEIVE_PONG:
    s->heard = pf_clock_seconds();
    s->pinged = false;
    if (reason == LWS_CALLBACK_RECEIVE) ws_receive(srv, s, in, len);
    return 0;
  case LWS_CALLBACK_SERVER_WRITEABLE:
    return ws_writeable(s);
  case LWS_CALLBACK_CLOSED:
    if (s->conn) pf_hall_disconnect(srv->hall, s->conn);
    if (s->conn && s->addr >= 0) srv->addrs[s->addr].conns--;
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
    drop_queue(s);
    pf_buf_free(&s->rx);
    return 0;
  case LWS_CALLBACK_HTTP:
    memset(s, 0, sizeof *s);
    s->wsi = wsi;
    return http_request(srv, s, in);
  /* A connection that closes before its first request (a browser's speculative connection) has
   * no session yet: lws allocates it with the first callback that needs it. */
  case LWS_CALLBACK_HTTP_WRITEABLE:
    return s && (s->http.len || s->http_sent) ? http_writeable(s) : 0;
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
    {"pilfer", callback, sizeof(session), 8192, 0, NULL, WRITE_MAX},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* Once a second: a WebSocket silent for half the idle time is pinged, one silent for all of it
 * closed. lws's own check (its retry policy's validity timer) is not used: it moves a timer in a
 * sorted list of every connection's on each message, a walk of all of them. */
static void idle_check(server *srv) {
  double now = pf_clock_seconds();
  for (session *s = srv->sockets; s; s = s->next) {
    if (s->close_code) continue;
    if (now - s->heard >= srv->cfg->idle) {
      char ip[64] = "?";
      lws_get_peer_simple(s->wsi, ip, sizeof ip);
      pf_counts_add(&srv->limits, "idle");
      pf_log_limit("idle", "closed a WebSocket from %s that answered no ping for %d s", ip, srv->cfg->idle);
      s->close_code = LWS_CLOSE_STATUS_POLICY_VIOLATION;
      drop_queue(s);
      lws_set_timeout(s->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
    } else if (now - s->heard >= srv->cfg->idle / 2.0 && !s->pinged) {
      s->pinged = s->ping_due = true;
      lws_callback_on_writable(s->wsi);
    }
  }
}

static void on_tick(lws_sorted_usec_list_t *sul) {
  server *srv = lws_container_of(sul, server, tick);
  pf_hall_tick(srv->hall);
  idle_check(srv);
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
 * or every interface is libwebsockets' to resolve); `got` says what it found otherwise. Debian's libwebsockets 4.1, given an IPv4 address on a vhost that may serve IPv6,
 * listens on every interface (its issue 2290, fixed in later releases): pf_serve turns IPv6 off
 * for an IPv4 address, and checks here that it worked before serving anyone. */
static bool bound_as_asked(const char *iface, int port, char *got, size_t n) {
  char want[64];
  bool check = iface && canonical_address(iface, want, sizeof want), found = false;
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
    if (check && (!canonical_address(text, got, n) || strcmp(got, want) != 0)) {
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
  write_pending(srv);
}

/* libev's prepare watcher: its loop has handled the pass's events and is about to wait. The pass
 * is ended first, stopping or not, as the poll() loop ends every pass it services. */
static void end_of_pass(struct ev_loop *loop, ev_prepare *w, int revents) {
  (void)revents;
  end_pass(w->data);
  if (stopping) ev_break(loop, EVBREAK_ALL);
}

int pf_serve(const pf_serve_config *cfg) {
  pf_json_cache_blocks(); /* before the workers start */
  server srv = {.cfg = cfg, .started = (double)time(NULL)};
  the_server = &srv;
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
  pf_hall_io io = {.ctx = &srv, .send = hall_send, .wake = hall_wake, .write = hall_write};
  pf_hall_config hc = {.db = cfg->db, .full_sync = cfg->full_sync, .workers = cfg->workers,
                        .helpers = cfg->helpers, .limits = cfg->hall};
  pf_error err;
  srv.hall = pf_hall_open(&hc, &io, &err);
  if (!srv.hall) {
    pf_log_fail("%s", err.msg);
    return 1;
  }
  raise_file_limit();
  lws_set_log_level(LLL_ERR, NULL);
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
  set_context(&srv, lws_create_context(&info));
  if (!srv.ctx && loop) {
    ev_loop_destroy(loop);
    loop = NULL;
    info.options &= ~(uint64_t)LWS_SERVER_OPTION_LIBEV;
    info.foreign_loops = NULL;
    set_context(&srv, lws_create_context(&info));
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
    set_context(&srv, NULL);
    lws_context_destroy(ctx);
    if (loop) ev_loop_destroy(loop);
    pf_hall_close(srv.hall);
    return 1;
  }
  bool v6 = cfg->iface && strchr(cfg->iface, ':');
  int ntables = pf_hall_tables(srv.hall);
  pf_log_out("start", "listening on http://%s%s%s:%d/ (database %s, %d %s in play)", v6 ? "[" : "",
             cfg->iface ? cfg->iface : "localhost", v6 ? "]" : "", port, cfg->db, ntables, ntables == 1 ? "table" : "tables");
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
  set_context(&srv, NULL); /* no worker wakes a context being destroyed */
  lws_context_destroy(ctx); /* closes every connection: the hall hears of each */
  if (loop) ev_loop_destroy(loop);
  pf_hall_close(srv.hall);
  free(srv.addrs);
  pf_log_out("stop", "stopped");
  return 0;
}
