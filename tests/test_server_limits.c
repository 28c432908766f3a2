/*
 * test_server_limits.c - the limits of `pilfer serve` (docs/protocol.md, "Limits and errors";
 * docs/operations.md), each on a server of the test's own: HTTP files and reports, the database
 * deleted under the server, idle connections and connections per address, waiting tables,
 * queues of clients that never read, and SIGTERM with many tables in play.
 * Usage: test_server_limits PILFER [TEST...] (tests/support/srvtest.h).
 */
#define _GNU_SOURCE /* strcasestr */
#include "srvtest.h"

#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/record.h"
#include "games/registry.h"

/* Sends a raw request; returns the answer's status, its first bytes in buf (when not NULL). */
static int http_raw_reply(int port, const char *req, char *buf, size_t n) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) fail_msg("connect: %s", strerror(errno));
  send(fd, req, strlen(req), MSG_NOSIGNAL);
  memset(buf, 0, n);
  struct pollfd pfd = {fd, POLLIN, 0};
  int status = -1;
  if (poll(&pfd, 1, WAIT_MS) == 1 && recv(fd, buf, n - 1, 0) > 0) sscanf(buf, "HTTP/1.%*d %d", &status);
  close(fd);
  return status;
}

static int http_raw(int port, const char *req) {
  char buf[512];
  return http_raw_reply(port, req, buf, sizeof buf);
}


/* HTTP: files inside the web folder only (no folder, no link out of it), GET and
 * HEAD only. */
static void http_files(void **st) {
  (void)st;
  char web[400], file[500];
  snprintf(web, sizeof web, "%s/http-web", tmpdir);
  mkdir(web, 0755);
  snprintf(file, sizeof file, "%s/index.html", web);
  FILE *f = fopen(file, "w");
  fputs("<p>pilfer</p>\n", f);
  fclose(f);
  snprintf(file, sizeof file, "%s/sub", web);
  mkdir(file, 0755);
  snprintf(file, sizeof file, "%s/out.txt", web);
  if (symlink("/etc/passwd", file) != 0 && errno != EEXIST) fail_msg("symlink: %s", strerror(errno));
  const char *args[] = {"--web", web, NULL};
  srv s;
  own_server(&s, "http", args);
  assert_int_equal(http_raw(s.port, "GET /index.html HTTP/1.1\r\nHost: localhost\r\n\r\n"), 200);
  assert_int_equal(http_raw(s.port, "GET /sub HTTP/1.1\r\nHost: localhost\r\n\r\n"), 404);
  assert_int_equal(http_raw(s.port, "GET /out.txt HTTP/1.1\r\nHost: localhost\r\n\r\n"), 404);
  assert_int_equal(http_raw(s.port, "POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n"), 405);
  stop_own(&s);
}

static void write_file(const char *dir, const char *name, const char *text) {
  char file[600];
  snprintf(file, sizeof file, "%s/%s", dir, name);
  FILE *f = fopen(file, "w");
  if (!f) fail_msg("%s: %s", file, strerror(errno));
  fputs(text, f);
  fclose(f);
}

/* --reports DIR: /api/reports lists the HTML files in the folder with a plain name, each with the
 * game its name begins with; /reports/NAME serves them as text/html, and nothing else: no other
 * kind of file, no hidden one, none in a folder of it, no link out of it, no way up. Without the
 * option the list is empty; a folder that is not there is refused at the start. */
static void reports(void **st) {
  (void)st;
  char dir[400], sub[500], link[500], *body = NULL;
  snprintf(dir, sizeof dir, "%s/reports", tmpdir);
  mkdir(dir, 0755);
  write_file(dir, "thief.html", "<p>thief report</p>\n");
  write_file(dir, "four-card-thief-4p.html", "<p>4</p>\n");
  write_file(dir, "mine.html", "<p>no game</p>\n");
  write_file(dir, "notes.txt", "not a report\n");
  write_file(dir, ".hidden.html", "hidden\n");
  write_file(dir, "dots..html", "two dots\n");
  snprintf(sub, sizeof sub, "%s/sub.html", dir);
  mkdir(sub, 0755);
  write_file(sub, "in.html", "in a folder\n");
  snprintf(link, sizeof link, "%s/out.html", dir);
  if (symlink("/etc/passwd", link) != 0 && errno != EEXIST) fail_msg("symlink: %s", strerror(errno));
  assert_int_equal(http_get(HOST, server.port, "/api/reports", WAIT_MS, &body, NULL), 200);
  json_t *j = json_loads(body, 0, NULL);
  assert_non_null(j);
  assert_int_equal(json_array_size(json_object_get(j, "reports")), 0);
  json_decref(j);
  free(body);
  const char *args[] = {"--reports", dir, NULL};
  srv s;
  own_server(&s, "reports", args);
  assert_int_equal(http_get(HOST, s.port, "/api/reports", WAIT_MS, &body, NULL), 200);
  j = json_loads(body, 0, NULL);
  free(body);
  json_t *list = json_object_get(j, "reports");
  const char *want[][3] = {{"four-card-thief-4p.html", "/reports/four-card-thief-4p.html", "four-card-thief"},
                           {"mine.html", "/reports/mine.html", NULL},
                           {"thief.html", "/reports/thief.html", "thief"}};
  assert_int_equal(json_array_size(list), 3);
  for (size_t i = 0; i < 3; i++) {
    json_t *r = json_array_get(list, i);
    assert_string_equal(json_string_value(json_object_get(r, "file")), want[i][0]);
    assert_string_equal(json_string_value(json_object_get(r, "url")), want[i][1]);
    json_t *game = json_object_get(r, "game");
    if (want[i][2]) assert_string_equal(json_string_value(game), want[i][2]);
    else assert_true(json_is_null(game));
  }
  json_decref(j);
  char reply[512];
  assert_int_equal(http_raw_reply(s.port, "GET /reports/thief.html HTTP/1.1\r\nHost: localhost\r\n\r\n", reply, sizeof reply), 200);
  if (!strcasestr(reply, "content-type: text/html")) fail_msg("a report is not served as HTML: %s", reply);
  assert_int_equal(http_get(HOST, s.port, "/reports/thief.html", WAIT_MS, &body, NULL), 200);
  assert_string_equal(body, "<p>thief report</p>\n");
  free(body);
  const char *refused[] = {"/reports/notes.txt", "/reports/.hidden.html", "/reports/sub.html", "/reports/sub.html/in.html",
                           "/reports/out.html", "/reports/../../../etc/passwd", "/reports/%2e%2e/reports.db",
                           "/reports/", "/reports/nothere.html", "/reports.db", "/reports/dots..html"};
  for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
    char req[300];
    snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: localhost\r\n\r\n", refused[i]);
    if (http_raw(s.port, req) != 404) fail_msg("%s was not refused", refused[i]);
  }
  stop_own(&s);
  char missing[500];
  snprintf(missing, sizeof missing, "%s/no-such-folder", tmpdir);
  const char *bad[] = {"--reports", missing, NULL};
  char db[500], log[500];
  snprintf(db, sizeof db, "%s/reports-bad.db", tmpdir);
  snprintf(log, sizeof log, "%s/reports-bad.log", tmpdir);
  s = (srv){.args = bad};
  if (srv_start(&s, pilfer, db, log, 3000) == 0) {
    srv_stop(&s, SIGTERM, 5000);
    fail_msg("the server started with a reports folder that is not there");
  }
}

/* The database deleted (and its -wal) under the server: nothing is acknowledged that a
 * restart would lose. */
static void deleted_db(void **st) {
  (void)st;
  srv s;
  own_server(&s, "deleted", NULL);
  ws_conn *c = connect_or_fail(&s);
  const char *create = "\"type\": \"create\", \"game\": \"thief\", \"players\": 2";
  json_t *r = ask(c, "%s", create);
  want_type(r, "created", "create");
  json_decref(r);
  char wal[600];
  snprintf(wal, sizeof wal, "%s-wal", s.db);
  unlink(s.db);
  unlink(wal);
  want_code(ask(c, "%s", create), "storage", "a create after the database was deleted");
  alive_or_fail(&s, "its database was deleted");
  ws_close(c, WS_CLOSE_NORMAL);
  stop_own(&s);
}

/* Idle WebSockets closed (one that answers pings stays), connections per address. */
static void connections(void **st) {
  (void)st;
  const char *args[] = {"--limit", "conns_per_address=5", "--limit", "idle=4", NULL};
  srv s;
  own_server(&s, "connections", args);
  ws_conn *c1 = connect_or_fail(&s), *mute = connect_or_fail(&s);
  if (!keep_reading(c1, 7000)) fail_msg("a connection that answers pings was closed");
  for (int64_t end = ws_now_ms() + 3000; ws_get_state(mute) != WS_CLOSED && ws_now_ms() < end;) ws_read(mute), usleep(100000);
  if (ws_get_state(mute) != WS_CLOSED) fail_msg("a connection that answered no ping for 7 s is still open");
  ws_drop(mute);
  ws_conn *more[5];
  for (int i = 0; i < 4; i++) more[i] = connect_or_fail(&s);
  more[4] = ws_connect(HOST, s.port, "/ws", "pilfer", WAIT_MS);
  if (more[4] && ws_get_state(more[4]) == WS_OPEN) fail_msg("a sixth WebSocket from one address was let in");
  if (more[4]) ws_drop(more[4]);
  for (int i = 0; i < 4; i++) ws_close(more[i], WS_CLOSE_NORMAL);
  ws_close(c1, WS_CLOSE_NORMAL);
  stop_own(&s);
}

/* Tables: waiting tables per address (another client is another address) and in
 * all, their expiry (from the store too), the search budget of a bot seat. */
static void waiting_tables(void **st) {
  (void)st;
  const char *args[] = {"--limit", "waiting_per_client=2", "--limit", "waiting_max=3", "--limit", "waiting_expiry=2",
                        "--limit", "search_iters=5000", NULL};
  srv s;
  own_server(&s, "waiting", args);
  ws_conn *c1 = connect_or_fail(&s);
  ws_source("127.0.0.2");
  ws_conn *c2 = connect_or_fail(&s);
  ws_source(NULL);
  const char *create = "\"type\": \"create\", \"game\": \"thief\", \"players\": 2";
  long long ids[3];
  for (int i = 0; i < 2; i++) {
    json_t *r = ask(c1, "%s", create);
    want_type(r, "created", "create");
    ids[i] = jint(r, "table");
    json_decref(r);
  }
  want_code(ask(c1, "%s", create), "too_many_tables", "a third waiting table of one address");
  ws_conn *c3 = connect_or_fail(&s); /* the same address again: reconnecting changes nothing */
  want_code(ask(c3, "%s", create), "too_many_tables", "a third waiting table of one address, reconnected");
  ws_close(c3, WS_CLOSE_NORMAL);
  json_t *r = ask(c2, "%s", create);
  ids[2] = jint(r, "table");
  json_decref(r);
  want_code(ask(c2, "%s", create), "full", "a fourth waiting table in all");
  want_code(ask(c2, "\"type\": \"create\", \"game\": \"thief\", \"players\": 2, \"seats\": [\"open\", \"ismcts:iters=6000\"]"),
            "budget", "a bot over search_iters");
  keep_reading(c1, 3000);
  for (int i = 0; i < 3; i++) { /* expired (2 s with nobody seated), gone from the store too */
    char path[64];
    snprintf(path, sizeof path, "/api/tables/%lld", ids[i]);
    json_decref(http_json(&s, path, 404));
  }
  r = ask(c1, "%s", create); /* room again */
  want_type(r, "created", "a create once the waiting tables expired");
  json_decref(r);
  ws_close(c1, WS_CLOSE_NORMAL);
  ws_close(c2, WS_CLOSE_NORMAL);
  stop_own(&s);
}

/* How often `what` is in the server's log. */
static int log_count(const srv *s, const char *what) {
  char *log = srv_log_tail(s, 1 << 20);
  int n = 0;
  for (const char *p = log; (p = strstr(p, what)); p++) n++;
  free(log);
  return n;
}

/* A WebSocket that never reads, made by hand so that its receive buffer is small from the start
 * (the kernel then holds little of what the server sends, and the server's queue fills soon). */
static int non_reader(const srv *s) {
  int fd = socket(AF_INET, SOCK_STREAM, 0), small = 2048;
  setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)s->port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) fail_msg("connect: %s", strerror(errno));
  static const char up[] = "GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                           "Sec-WebSocket-Protocol: pilfer\r\n\r\n";
  send(fd, up, sizeof up - 1, MSG_NOSIGNAL);
  char head[1024] = "";
  size_t n = 0;
  struct pollfd pfd = {fd, POLLIN, 0};
  while (n < sizeof head - 1 && !strstr(head, "\r\n\r\n") && poll(&pfd, 1, WAIT_MS) == 1 && recv(fd, head + n, 1, 0) == 1) n++;
  if (strncmp(head, "HTTP/1.1 101", 12) != 0) fail_msg("a WebSocket upgrade answered: %.100s", head);
  return fd;
}

/* Whether the server closed fd within ms (what it had sent is read and dropped). */
static bool closed_by_server(int fd, int ms) {
  char buf[4096];
  struct pollfd pfd = {fd, POLLIN, 0};
  for (int64_t end = ws_now_ms() + ms; ws_now_ms() < end;)
    if (poll(&pfd, 1, 100) == 1 && recv(fd, buf, sizeof buf, 0) <= 0) return true;
  return false;
}

/* Non-readers (n of them, in turn) each ask `watch` of table t (every answer a state) until the
 * log says `why` closed one; the watches sent, or -1 after `most` (or a minute). */
static int fill_until(srv *s, const int *fd, int n, long long t, const char *why, int most) {
  char msg[100];
  int len = snprintf(msg, sizeof msg, "{\"type\": \"watch\", \"table\": %lld}", t);
  uint8_t key[4] = {1, 2, 3, 4};
  size_t flen;
  uint8_t *frame = ws_frame_encode(WS_OP_TEXT, true, key, msg, (size_t)len, &flen);
  int before = log_count(s, why), sent = 0;
  for (int64_t end = ws_now_ms() + 4 * WAIT_MS; sent < most && log_count(s, why) == before && ws_now_ms() < end;) {
    for (int i = 0; i < n; i++)
      for (int k = 0; k < 20; k++) sent += send(fd[i], frame, flen, MSG_NOSIGNAL | MSG_DONTWAIT) == (ssize_t)flen;
    usleep(5000);
  }
  free(frame);
  return sent < most ? sent : -1;
}

/* Queues: a watcher that never reads is closed when queue_kib wait for it; several
 * that never read are stopped by queue_total_mib, and once they are gone their bytes are freed
 * (the server's log says how much waited for all when it closes one). */
static void queues(void **st) {
  (void)st;
  /* Non-readers enough to pass 1 MiB together before any reaches its 128 KiB: a non-reader's
   * queue stops growing short of queue_kib once libwebsockets holds a partial write for it (the
   * server reads nothing more from it meanwhile), so 12 x 128 KiB was not always enough (it
   * failed under AddressSanitizer); 40 is. */
  enum { N = 40 };
  const char *args[] = {"--limit", "queue_kib=128", "--limit", "queue_total_mib=1", NULL};
  srv s;
  own_server(&s, "queues", args);
  ws_conn *c = connect_or_fail(&s);
  json_t *r = ask(c, "\"type\": \"create\", \"game\": \"thief\", \"players\": 2");
  long long t = jint(r, "table");
  json_decref(r);
  long rss0 = proc_rss_kib(s.pid);
  int one = non_reader(&s);
  int sent = fill_until(&s, &one, 1, t, "(queue_kib;", 40000);
  if (sent < 0) fail_msg("40,000 states asked by a connection that does not read, and it was not closed");
  if (!closed_by_server(one, WAIT_MS)) fail_msg("the connection closed for queue_kib is still open");
  close(one);
  int many[N];
  for (int i = 0; i < N; i++) many[i] = non_reader(&s);
  int total = fill_until(&s, many, N, t, "(queue_total_mib;", 200000);
  if (total < 0) fail_msg("200,000 states asked by %d non-readers and the total was not reached", N);
  if (log_count(&s, "(queue_kib;") != 1) fail_msg("a non-reader was closed for its own queue before the total");
  for (int i = 0; i < N; i++) close(many[i]);
  /* their queues were freed: one more that does not read is closed for its own queue, with no
   * more queued for all than its own and a little */
  usleep(500000);
  one = non_reader(&s);
  if (fill_until(&s, &one, 1, t, "(queue_kib;", 40000) < 0) fail_msg("a second connection that does not read was not closed");
  close(one);
  char *log = srv_log_tail(&s, 1 << 20), *last = strrchr(log, '(');
  int all = -1;
  if (!last || sscanf(last, "(queue_kib; %d KiB for all)", &all) != 1 || all > 128 + 64)
    fail_msg("the non-readers gone, one more was closed with %d KiB queued for all: %.200s", all, last ? last : log);
  free(log);
  print_message("closed for queue_kib after %d states asked; for queue_total_mib after %d; then %d KiB queued for all; memory %ld -> %ld KiB\n",
                sent, total, all, rss0, proc_rss_kib(s.pid));
  alive_or_fail(&s, "connections that do not read");
  ws_close(c, WS_CLOSE_NORMAL);
  stop_own(&s);
}


/* SIGTERM with 100 tables in play and hints running: the server stops within 2 s (or ten times
 * its quiet stop, idle, in this run, when that is more: a busy machine or the sanitizers), and
 * after a restart every acknowledged move is there. */
static void sigterm(void **st) {
  (void)st;
  enum { TABLES = 100 };
  char db[400], log[400];
  snprintf(db, sizeof db, "%s/sigterm.db", tmpdir);
  snprintf(log, sizeof log, "%s/sigterm.log", tmpdir);
  const char *args[] = {"--limit", "conns_per_address=1000", "--limit", "waiting_per_client=1000",
                        "--limit", "bot_tables_per_client=1000", "--limit", "costly_burst=1000000", NULL};
  srv s = {.args = serve_args(args)};
  if (srv_start(&s, pilfer, db, log, WAIT_MS) != 0) fail_msg("the server did not start: %s", s.error);
  int64_t t_idle = ws_now_ms();
  srv_stop(&s, SIGTERM, 20000);
  int64_t quiet = ws_now_ms() - t_idle, limit = 10 * quiet > 2000 ? 10 * quiet : 2000;
  if (srv_start(&s, pilfer, db, log, WAIT_MS) != 0) fail_msg("the server did not start again: %s", s.error);
  ws_conn *c[TABLES];
  long long id[TABLES], acked[TABLES];
  char token[TABLES][40];
  for (int i = 0; i < TABLES; i++) {
    c[i] = connect_or_fail(&s);
    json_t *r = ask(c[i], "\"type\": \"create\", \"game\": \"thief\", \"players\": 2, \"seats\": [\"open\", \"random\"]");
    id[i] = jint(r, "table");
    json_decref(r);
    r = ask(c[i], "\"type\": \"join\", \"table\": %lld, \"seat\": 0", id[i]);
    snprintf(token[i], sizeof token[i], "%s", jstr(r, "token"));
    json_decref(r);
    acked[i] = 0;
  }
  /* play for 2 s: each connection answers the states that ask it; some ask hints */
  int hints_sent = 0;
  for (int64_t end = ws_now_ms() + 2000; ws_now_ms() < end;)
    for (int i = 0; i < TABLES; i++) {
      ws_flush(c[i]);
      ws_read(c[i]);
      ws_msg m;
      while (ws_next_message(c[i], &m) == 1) {
        json_t *j = json_loadb((const char *)m.data, m.len, 0, NULL);
        const char *type = jstr(j, "type");
        if (type && !strcmp(type, "ack") && jint(j, "ply") > acked[i]) acked[i] = jint(j, "ply");
        if (type && !strcmp(type, "state") && json_array_size(json_object_get(j, "legal"))) {
          char text[400];
          /* as much as the server accepts, or (refused, or run for ever by a server without a cap) far more */
          int n = i % 10 == 0 && hints_sent < 30
                      ? snprintf(text, sizeof text, "{\"type\": \"hint\", \"table\": %lld, \"token\": \"%s\", \"bot\": \"ismcts:iters=%s\"}",
                                 id[i], token[i], hints_sent % 2 ? "100000000" : "100000")
                      : 0;
          if (n) ws_send_text(c[i], text, (size_t)n), hints_sent++;
          n = snprintf(text, sizeof text, "{\"type\": \"move\", \"table\": %lld, \"token\": \"%s\", \"move\": \"%s\", \"ply\": %lld}",
                       id[i], token[i], json_string_value(json_array_get(json_object_get(j, "legal"), rnd((uint32_t)json_array_size(json_object_get(j, "legal"))))),
                       jint(j, "ply"));
          ws_send_text(c[i], text, (size_t)n);
        }
        json_decref(j);
      }
    }
  int64_t t0 = ws_now_ms();
  int status = srv_stop(&s, SIGTERM, 20000);
  int64_t took = ws_now_ms() - t0;
  print_message("SIGTERM with %d tables in play and %d hints asked: stopped in %lld ms (idle: %lld ms)\n", TABLES,
                hints_sent, (long long)took, (long long)quiet);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) fail_msg("SIGTERM: not a clean stop (0x%x)", status);
  if (took > limit)
    fail_msg("SIGTERM took %lld ms to stop the server, more than %lld ms (idle: %lld ms)", (long long)took,
             (long long)limit, (long long)quiet);
  for (int i = 0; i < TABLES; i++) ws_drop(c[i]);
  if (srv_start(&s, pilfer, db, log, WAIT_MS) != 0) fail_msg("the server did not start again: %s", s.error);
  for (int i = 0; i < TABLES; i++) {
    char path[64];
    snprintf(path, sizeof path, "/api/tables/%lld", id[i]);
    json_t *sum = http_json(&s, path, 200);
    if (jint(sum, "ply") < acked[i])
      fail_msg("table %lld: move %lld was acknowledged, the restarted server is at ply %lld", id[i], acked[i], jint(sum, "ply"));
    json_decref(sum);
  }
  srv_stop(&s, SIGTERM, 20000);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      SRV_TEST(http_files),
      SRV_TEST(reports),
      SRV_TEST(deleted_db),
      SRV_TEST(connections),
      SRV_TEST(waiting_tables),
      SRV_TEST(queues),
      SRV_TEST(sigterm),
  };
  return srvtest_main(argc, argv, "server_limits", tests, sizeof tests / sizeof *tests);
}
