/*
 * test_hostile.c - `pilfer serve` against one hostile client, and fair to everyone else
 * (docs/protocol.md, "Limits"). The hostile client connects from 127.0.0.1 and the others from
 * 127.0.0.2 and up: every 127/8 address is loopback, and the server counts a client by its
 * address, not by its connection, so reconnecting changes nothing.
 *
 * Usage: test_hostile PILFER [TEST...]. Each test starts its own server. A wall-clock bound here
 * is the issue's own ("answered within a second") or a hang guard far above the quiet time.
 */
#define _DEFAULT_SOURCE /* usleep */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka needs the four headers above first */
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "srvproc.h"
#include "wsclient.h"

#define HOST "127.0.0.1"
#define WAIT_MS 20000    /* a hang guard: the longest any answer may take (ASan builds are slow) */
#define PROMPT_MS 1000   /* what another client's handshake, create or join must be answered within */

static const char *pilfer;
static char tmpdir[256];
static int next_id = 1;
static int nservers;

/* ======================================== helpers ======================================== */

static void start(srv *s, const char *name, const char *const *args, int nofile) {
  char db[400], log[400];
  snprintf(db, sizeof db, "%s/%s-%d.db", tmpdir, name, nservers);
  snprintf(log, sizeof log, "%s/%s-%d.log", tmpdir, name, nservers++);
  memset(s, 0, sizeof *s);
  s->args = args;
  s->nofile = nofile;
  if (srv_start(s, pilfer, db, log, WAIT_MS) != 0) fail_msg("the server did not start: %s", s->error);
}

static void stop(srv *s) {
  if (!srv_alive(s)) {
    char *tail = srv_log_tail(s, 2000);
    fail_msg("the server died (status %d): %s", s->status, tail);
  }
  srv_stop(s, SIGTERM, WAIT_MS);
}

/* A TCP connection from `from` to the server that sends nothing; -1 when refused at once. */
static int silent_tcp(const srv *s, const char *from) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in a = {.sin_family = AF_INET}, to = {.sin_family = AF_INET, .sin_port = htons((uint16_t)s->port)};
  inet_pton(AF_INET, from, &a.sin_addr);
  inet_pton(AF_INET, HOST, &to.sin_addr);
  if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || connect(fd, (struct sockaddr *)&to, sizeof to) != 0) {
    if (fd >= 0) close(fd);
    return -1;
  }
  return fd;
}

/* Whether the server closed fd (an end of file or a reset within wait_ms). */
static bool closed_by_server(int fd, int wait_ms) {
  struct pollfd p = {.fd = fd, .events = POLLIN};
  if (poll(&p, 1, wait_ms) <= 0) return false;
  char c;
  ssize_t n = recv(fd, &c, 1, MSG_DONTWAIT);
  return n == 0 || (n < 0 && errno == ECONNRESET);
}

/* Connects from `from` and asks `games`: the milliseconds from the connect to the answer, and the
 * connection in *out (NULL: closed). Fails when nothing comes within WAIT_MS. */
static int64_t handshake_ms(const srv *s, const char *from, ws_conn **out) {
  ws_source(from);
  int64_t t0 = ws_now_ms();
  ws_conn *c = ws_connect(HOST, s->port, "/ws", "pilfer", WAIT_MS);
  ws_source(NULL);
  if (!c) fail_msg("connect from %s: %s", from, ws_last_error());
  json_t *m = json_pack("{s:s, s:i}", "type", "games", "id", next_id++);
  if (ws_send_json(c, m) != 0) fail_msg("send: %s", ws_error(c));
  json_decref(m);
  json_t *r = ws_recv_json(c, WAIT_MS);
  if (!r || strcmp(json_string_value(json_object_get(r, "type")) ?: "", "games") != 0)
    fail_msg("no games from %s: %s", from, ws_error(c));
  json_decref(r);
  int64_t ms = ws_now_ms() - t0;
  if (out)
    *out = c;
  else
    ws_close(c, WS_CLOSE_NORMAL);
  return ms;
}

/* Lines of the server's log that hold `text`. */
static int log_lines(const srv *s, const char *text) {
  FILE *f = fopen(s->log, "r");
  if (!f) return -1;
  char line[4096];
  int n = 0;
  while (fgets(line, sizeof line, f))
    if (strstr(line, text)) n++;
  fclose(f);
  return n;
}

/* ================================ the transport's limits ================================ */

/* Silent TCP connections, before any upgrade, count against their address (tcp_per_address):
 * past it they are closed at once, and another address connects and is answered meanwhile. */
static void silent_tcp_per_address(void **st) {
  (void)st;
  const char *args[] = {"--limit", "tcp_per_address=16", NULL};
  srv s;
  start(&s, "tcp", args, 0);
  int fds[40], refused = 0;
  for (int i = 0; i < 40; i++) fds[i] = silent_tcp(&s, "127.0.0.1");
  for (int i = 0; i < 40; i++) refused += fds[i] < 0 || closed_by_server(fds[i], i < 16 ? 0 : 2000);
  assert_int_equal(refused, 40 - 16);
  int64_t ms = handshake_ms(&s, "127.0.0.2", NULL);
  if (ms > PROMPT_MS) fail_msg("another client's handshake took %lld ms", (long long)ms);
  for (int i = 0; i < 40; i++)
    if (fds[i] >= 0) close(fds[i]);
  /* the silent ones gone, the address may connect again */
  for (int tries = 0; tries < 100; tries++) {
    ws_source("127.0.0.1");
    ws_conn *c = ws_connect(HOST, s.port, "/ws", "pilfer", WAIT_MS);
    ws_source(NULL);
    if (c) {
      ws_close(c, WS_CLOSE_NORMAL);
      break;
    }
    if (tries == 99) fail_msg("127.0.0.1 cannot connect after closing its connections: %s", ws_last_error());
    usleep(50000);
  }
  stop(&s);
}

/* At conns_max (here below the descriptor limit the server was given) the server sheds the
 * newest idle connection to take a new one: silent connections from many addresses never keep
 * another client out, the server does not spin on accept, and its log says so a few times a
 * second at most. */
static void descriptors_run_out(void **st) {
  (void)st;
  const char *args[] = {"--limit", "tcp_per_address=1000", NULL};
  srv s;
  start(&s, "fds", args, 160); /* conns_max: 160 - 64 reserved = 96 */
  enum { N = 150 };
  int fds[N];
  for (int i = 0; i < N; i++) {
    char from[32];
    snprintf(from, sizeof from, "127.0.1.%d", 1 + i % 200);
    fds[i] = silent_tcp(&s, from);
  }
  double cpu0 = proc_cpu_seconds(s.pid);
  int64_t t0 = ws_now_ms();
  ws_conn *c = NULL;
  int64_t ms = handshake_ms(&s, "127.0.0.2", &c);
  if (ms > PROMPT_MS) fail_msg("another client's handshake took %lld ms with %d silent connections", (long long)ms, N);
  /* a second while the silent ones stay: a loop that spins on accept takes all of it */
  usleep(1000000);
  double cpu = proc_cpu_seconds(s.pid) - cpu0, wall = (double)(ws_now_ms() - t0) / 1000.0;
  if (cpu > 0.5 * wall) fail_msg("the server spent %.2f s of CPU in %.2f s with its descriptors full", cpu, wall);
  /* the WebSocket that got in is not shed by later silent connections */
  for (int i = 0; i < 50; i++) {
    int fd = silent_tcp(&s, "127.0.2.1");
    if (fd >= 0) close(fd);
  }
  json_t *m = json_pack("{s:s, s:i}", "type", "games", "id", next_id++);
  assert_int_equal(ws_send_json(c, m), 0);
  json_decref(m);
  json_t *r = ws_recv_json(c, WAIT_MS);
  if (!r) fail_msg("the WebSocket was shed: %s", ws_error(c));
  json_decref(r);
  ws_close(c, WS_CLOSE_NORMAL);
  int lines = log_lines(&s, "conns_max");
  if (lines < 1 || lines > 60) fail_msg("%d log lines of conns_max (wanted some, and at most a few a second)", lines);
  if (log_lines(&s, "libwebsockets") > 10) fail_msg("libwebsockets' errors flood the log");
  for (int i = 0; i < N; i++)
    if (fds[i] >= 0) close(fds[i]);
  stop(&s);
}

/* ================================== cheap reads ================================== */

/* The per-address rate of costly requests (subscribe, list, review, hint) would hold a flood back
 * before it reaches the loop: these tests show the loop stays quick on its own, so where that
 * limit exists it is lifted here (enable the line below where the server has those options). */
/* #define COSTLY_OFF "--limit", "costly_burst=1000000", "--limit", "costly_every_ms=1", */
#define COSTLY_OFF

/* Sends m (taken) on c with a fresh id and returns the reply with that id (others skipped). */
static json_t *ask_json(ws_conn *c, json_t *m) {
  int id = next_id++;
  json_object_set_new(m, "id", json_integer(id));
  if (ws_send_json(c, m) != 0) fail_msg("send: %s", ws_error(c));
  json_decref(m);
  for (;;) {
    json_t *r = ws_recv_json(c, WAIT_MS);
    if (!r) fail_msg("no reply to %d: %s", id, ws_error(c));
    if (json_integer_value(json_object_get(r, "id")) == id) return r;
    json_decref(r);
  }
}

static const char *type_of(const json_t *r) { return json_string_value(json_object_get(r, "type")) ?: ""; }

/* Creates a table of two `random` bots (with options, NULL: none) and waits until it is over:
 * its id. */
static int64_t finished_table(ws_conn *c, const char *game, json_t *options) {
  json_t *m = json_pack("{s:s, s:s, s:i, s:[s,s]}", "type", "create", "game", game, "players", 2, "seats", "random", "random");
  if (options) json_object_set_new(m, "options", options);
  json_t *r = ask_json(c, m);
  if (strcmp(type_of(r), "created") != 0) fail_msg("create: %s", json_dumps(r, 0));
  int64_t id = json_integer_value(json_object_get(r, "table"));
  json_decref(r);
  return id;
}

/* Waits until table id is over (its summary, polled). */
static void wait_over(ws_conn *c, int64_t id) {
  for (int64_t t0 = ws_now_ms(); ws_now_ms() - t0 < 4 * WAIT_MS; usleep(50000)) {
    json_t *r = ask_json(c, json_pack("{s:s, s:I, s:i}", "type", "review", "table", (json_int_t)id, "ply", 0));
    bool over = strcmp(type_of(r), "review") == 0;
    json_decref(r);
    if (over) return;
  }
  fail_msg("table %lld did not finish", (long long)id);
}

/* A flood on its own thread: conns connections each sending make(i) messages as fast as the
 * per-connection rate lets them pass (a burst of 60, then 90 a second), and reading what comes back. */
typedef struct flood {
  ws_conn *conns[60];
  int n;
  json_t *(*make)(struct flood *f, int i);
  int64_t table;
  int plies;
  volatile bool stop;
  long sent;
  pthread_t thread;
} flood;

static void *flood_run(void *arg) {
  flood *f = arg;
  for (int round = 0; !f->stop; round++) {
    for (int k = 0; k < f->n; k++) {
      for (int i = 0; i < (round ? 9 : 60); i++) {
        json_t *m = f->make(f, (int)f->sent);
        ws_send_json(f->conns[k], m);
        json_decref(m);
        f->sent++;
      }
      ws_msg msg;
      while (ws_recv(f->conns[k], &msg, 0) > 0) {}
    }
    usleep(100000);
  }
  return NULL;
}

static void flood_start(flood *f, const srv *s, int n) {
  f->n = n;
  ws_source("127.0.0.1");
  for (int k = 0; k < n; k++)
    if (!(f->conns[k] = ws_connect(HOST, s->port, "/ws", "pilfer", WAIT_MS))) fail_msg("flood connect: %s", ws_last_error());
  ws_source(NULL);
  pthread_create(&f->thread, NULL, flood_run, f);
}

static void flood_stop(flood *f) {
  f->stop = true;
  pthread_join(f->thread, NULL);
  for (int k = 0; k < f->n; k++) ws_close(f->conns[k], WS_CLOSE_NORMAL);
}

/* Another address's handshake, create and join answered within PROMPT_MS each meanwhile. */
static void others_prompt(const srv *s, const char *what) {
  ws_conn *c;
  int64_t ms = handshake_ms(s, "127.0.0.2", &c);
  if (ms > PROMPT_MS) fail_msg("another client's handshake took %lld ms during %s", (long long)ms, what);
  int64_t t0 = ws_now_ms();
  json_t *r = ask_json(c, json_pack("{s:s, s:s, s:i, s:[s,s]}", "type", "create", "game", "thief", "players", 2, "seats",
                                    "open", "random"));
  ms = ws_now_ms() - t0;
  if (strcmp(type_of(r), "created") != 0 || ms > PROMPT_MS) fail_msg("create: %lld ms during %s", (long long)ms, what);
  int64_t id = json_integer_value(json_object_get(r, "table"));
  json_decref(r);
  t0 = ws_now_ms();
  r = ask_json(c, json_pack("{s:s, s:I}", "type", "join", "table", (json_int_t)id));
  ms = ws_now_ms() - t0;
  if (strcmp(type_of(r), "joined") != 0 || ms > PROMPT_MS) fail_msg("join: %lld ms during %s", (long long)ms, what);
  json_decref(r);
  ws_close(c, WS_CLOSE_NORMAL);
}

static json_t *make_subscribe(flood *f, int i) {
  (void)f;
  static const char *const filters[] = {"all", "over", "open", "mine"};
  if (i % 50 == 49) return json_pack("{s:s}", "type", "list");
  /* no id: the same page is not sent again, but the server cuts it for every one */
  return json_pack("{s:s, s:s, s:i, s:[i,i]}", "type", "subscribe", "filter", filters[i % 4], "page", i % 11, "mine", 3, 150);
}

/* A flood of `subscribe` and `list` over many finished tables, from 60 connections of one
 * address: the pages are cut from the list kept, so the loop stays quick for everyone else, and
 * the server's memory grows little. */
static void subscribe_flood(void **st) {
  (void)st;
  const char *args[] = {COSTLY_OFF NULL};
  char asan[600]; /* a sanitized server's quarantine of freed memory would show as growth */
  snprintf(asan, sizeof asan, "%s:quarantine_size_mb=8", getenv("ASAN_OPTIONS") ?: "");
  setenv("ASAN_OPTIONS", asan, 1);
  srv s;
  start(&s, "subflood", args, 0);
  ws_conn *c;
  handshake_ms(&s, "127.0.0.3", &c);
  int64_t last = 0;
  for (int i = 0; i < 230; i++, usleep(12000)) last = finished_table(c, "steal-the-pile", NULL); /* within the rate */
  wait_over(c, last);
  ws_close(c, WS_CLOSE_NORMAL);
  long rss0 = proc_rss_kib(s.pid);
  flood f = {.make = make_subscribe};
  flood_start(&f, &s, 60);
  usleep(300000);
  others_prompt(&s, "a subscribe flood");
  usleep(1500000);
  others_prompt(&s, "a subscribe flood");
  flood_stop(&f);
  long rss = proc_rss_kib(s.pid);
  if (rss - rss0 > 30 * 1024) fail_msg("the server grew from %ld to %ld KiB during the flood", rss0, rss);
  stop(&s);
}

static json_t *make_review(flood *f, int i) {
  unsigned x = (unsigned)i * 2654435761u;
  return json_pack("{s:s, s:I, s:i, s:b, s:i}", "type", "review", "table", (json_int_t)f->table, "ply",
                   (int)(x % (unsigned)(f->plies + 1)), "log", i % 2, "id", i);
}

/* A long finished game reviewed in a flood from one address, at any ply with its log: another
 * address's bot table still finishes and its create is answered promptly. */
static void review_flood(void **st) {
  (void)st;
  const char *args[] = {COSTLY_OFF NULL};
  srv s;
  start(&s, "revflood", args, 0);
  ws_conn *c;
  handshake_ms(&s, "127.0.0.3", &c);
  int64_t id = finished_table(c, "steal-the-pile", json_pack("{s:i}", "target", 6000));
  wait_over(c, id);
  json_t *r = ask_json(c, json_pack("{s:s, s:I, s:i}", "type", "review", "table", (json_int_t)id, "ply", 0));
  int plies = (int)json_integer_value(json_object_get(r, "plies"));
  json_decref(r);
  ws_close(c, WS_CLOSE_NORMAL);
  if (plies < 5000) fail_msg("the long game has %d plies only", plies);
  flood f = {.make = make_review, .table = id, .plies = plies};
  flood_start(&f, &s, 8);
  usleep(300000);
  ws_conn *o;
  int64_t ms = handshake_ms(&s, "127.0.0.2", &o);
  if (ms > PROMPT_MS) fail_msg("another client's handshake took %lld ms during a review flood", (long long)ms);
  int64_t t0 = ws_now_ms();
  int64_t bots = finished_table(o, "steal-the-pile", NULL);
  ms = ws_now_ms() - t0;
  if (ms > PROMPT_MS) fail_msg("another client's create took %lld ms during a review flood", (long long)ms);
  wait_over(o, bots);
  ms = ws_now_ms() - t0;
  if (ms > 5 * PROMPT_MS) fail_msg("another client's bot table took %lld ms to finish during a review flood", (long long)ms);
  ws_close(o, WS_CLOSE_NORMAL);
  flood_stop(&f);
  stop(&s);
}

/* ========================================= main ========================================= */

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_hostile PILFER [TEST...]\n");
    return 2;
  }
  pilfer = argv[1];
  snprintf(tmpdir, sizeof tmpdir, "/tmp/pilfer-hostile-XXXXXX");
  if (!mkdtemp(tmpdir)) return 1;
  const struct CMUnitTest all[] = {
      cmocka_unit_test(silent_tcp_per_address),
      cmocka_unit_test(descriptors_run_out),
      cmocka_unit_test(subscribe_flood),
      cmocka_unit_test(review_flood),
  };
  struct CMUnitTest run[sizeof all / sizeof *all];
  size_t n = 0;
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
    bool chosen = argc == 2;
    for (int k = 2; k < argc; k++) chosen |= strcmp(argv[k], all[i].name) == 0;
    if (chosen) run[n++] = all[i];
  }
  int failed = _cmocka_run_group_tests("hostile", run, n, NULL, NULL);
  if (!failed) {
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
  }
  return failed ? 1 : 0;
}
