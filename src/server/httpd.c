/*
 * httpd.c - the transport's HTTP answers (httpd.h): the API (pf_hall_http), /metrics, the
 * reports folder and the web folder's files.
 *
 * The web folder's files are served to GET and HEAD only, and only files inside it: a path with
 * "..", a directory, or a symbolic link that leads out of the folder is not found. They come
 * compressed and with an ETag (pf_web_file, http.c); one bigger than PF_WEB_FILE_MAX is streamed
 * as it is. The reports folder (--reports) is served the same way under /reports/, and only its
 * HTML files that lie in it (not in a folder of it) with a plain name (report_name); /api/reports
 * lists them, at most MAX_REPORTS, each with the game its name begins with.
 */
#define _DEFAULT_SOURCE /* realpath */
#include "server/httpd.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/mem.h"
#include "games/registry.h"
#include "server/log.h"
#include "server/peer.h"
#include "server/webfile.h"

#define HTTP_CHUNK 16384
#define MAX_REPORTS 1000   /* reports /api/reports lists (the first in name order) */
#define REPORT_NAME_MAX 128 /* characters of a report's file name */


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
bool pf_httpd_file_inside(const char *dir, const char *file, char *real) {
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
  if (!pf_httpd_file_inside(dir, file, real)) return http_text(s, 404, "not found\n");
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
    if (!pf_httpd_file_inside(srv->reports, file, real)) continue; /* what /reports/ would not serve */
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
  pf_buf text = {0};
  pf_jw w = {.b = &text};
  pf_jw_open(&w, '{');
  pf_jw_key(&w, "reports");
  pf_jw_open(&w, '[');
  for (int i = 0; i < n; i++) {
    const pf_game *g = report_game(names[i]);
    char url[REPORT_NAME_MAX + 16];
    snprintf(url, sizeof url, "/reports/%s", names[i]);
    pf_jw_open(&w, '{');
    pf_jw_key_str(&w, "file", names[i]);
    pf_jw_key_str(&w, "url", url);
    pf_jw_key(&w, "game");
    if (g)
      pf_jw_str(&w, g->id);
    else
      pf_jw_null(&w);
    pf_jw_close(&w, '}');
    free(names[i]);
  }
  pf_jw_close(&w, ']');
  pf_jw_close(&w, '}');
  pf_jw_format(&text, 0, 1, false);
  pf_buf_append(&s->http, pf_buf_str(&text), text.len);
  pf_buf_putc(&s->http, '\n');
  pf_buf_free(&text);
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

int pf_httpd_request(server *srv, session *s, const char *path) {
  pf_buf_clear(&s->http);
  char host[128];
  if (!pf_peer_host_allowed(srv, s->wsi, host, sizeof host)) {
    pf_counts_add(&srv->limits, "host");
    pf_log_limit("host", "refused a request for a name this server does not serve (Host %s)", host);
    return http_text(s, 421, "this server does not serve that name (pilfer serve --origin adds one)\n");
  }
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

int pf_httpd_writeable(session *s) {
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
