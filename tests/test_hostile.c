/*
 * test_hostile.c - `pilfer serve` against one hostile client, and fair to everyone else
 * (docs/protocol.md, "Limits"). The hostile client connects from 127.0.0.1 and the others from
 * 127.0.0.2 and up: every 127/8 address is loopback, and the server counts a client by its
 * address, not by its connection, so reconnecting changes nothing.
 *
 * Usage: test_hostile PILFER [TEST...]. Each test starts its own server. A wall-clock bound here
 * is relative to what is measured in the same run, so that a busy machine (or the sanitizers)
 * slows the bound as it slows the server: another client's answers within prompt_ms (a second,
 * stretched as the machine stretches CPU work, or ten times the slowest of three quiet handshakes
 * when that is more), its games within twice their quiet time plus prompt_ms; else it is a hang
 * guard far above the quiet time (WAIT_MS).
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "srvproc.h"
#include "wsclient.h"

#define HOST "127.0.0.1"
#define WAIT_MS 20000    /* a hang guard: the longest any answer may take (ASan builds are slow) */
#define PROMPT_MS 1000   /* what another client's handshake, create or join must be answered within */
#define PROMPT_FACTOR 10 /* ... or this many times the quiet handshake, when that is longer; and
                          * PROMPT_MS is stretched as the machine stretches CPU work (stretch) */

static const char *pilfer;
static char tmpdir[256];
static int next_id = 1;
static int nservers;
static int64_t prompt_ms = PROMPT_MS; /* the bound of a prompt answer on this test's server (start) */

static int64_t handshake_ms(const srv *s, const char *from, ws_conn **out);

/* ======================================== helpers ======================================== */

/* s, or dflt when s is NULL (ISO C has no `s ?: dflt`). */
static const char *or_else(const char *s, const char *dflt) { return s ? s : dflt; }

/* How much the machine stretches CPU work now: the wall time that 100 ms of this thread's CPU
 * takes, over those 100 ms. About 1 on a quiet machine; about the load over the cores on a busy
 * one, where every process, the server too, gets that much less of a core. */
static double stretch(void) {
  struct timespec c0, c;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
  int64_t t0 = ws_now_us();
  volatile uint64_t x = 0;
  double cpu_ns;
  do {
    for (int i = 0; i < 100000; i++) x += (uint64_t)i;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c);
    cpu_ns = (double)(c.tv_sec - c0.tv_sec) * 1e9 + (double)(c.tv_nsec - c0.tv_nsec);
  } while (cpu_ns < 100e6);
  double r = (double)(ws_now_us() - t0) * 1e3 / cpu_ns;
  return r > 1 ? r : 1;
}

static void start(srv *s, const char *name, const char *const *args, int nofile) {
  char db[400], log[400];
  snprintf(db, sizeof db, "%s/%s-%d.db", tmpdir, name, nservers);
  snprintf(log, sizeof log, "%s/%s-%d.log", tmpdir, name, nservers++);
  memset(s, 0, sizeof *s);
  s->args = args;
  s->nofile = nofile;
  if (srv_start(s, pilfer, db, log, WAIT_MS) != 0) fail_msg("the server did not start: %s", s->error);
  /* the quiet time of an answer, from an address no test uses, before any load */
  int64_t quiet = 0;
  for (int i = 0; i < 3; i++) {
    int64_t ms = handshake_ms(s, "127.0.9.9", NULL);
    quiet = ms > quiet ? ms : quiet;
  }
  double r = stretch();
  int64_t stretched = (int64_t)(PROMPT_MS * r);
  prompt_ms = PROMPT_FACTOR * quiet > stretched ? PROMPT_FACTOR * quiet : stretched;
  if (prompt_ms > PROMPT_MS)
    print_message("a quiet handshake took %lld ms, CPU work is stretched %.1f times: prompt answers within %lld ms\n",
                  (long long)quiet, r, (long long)prompt_ms);
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
  if (!r || strcmp(or_else(json_string_value(json_object_get(r, "type")), ""), "games") != 0)
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
  if (ms > prompt_ms) fail_msg("another client's handshake took %lld ms", (long long)ms);
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
  ws_conn *c = NULL;
  int64_t ms = handshake_ms(&s, "127.0.0.2", &c);
  if (ms > prompt_ms) fail_msg("another client's handshake took %lld ms with %d silent connections", (long long)ms, N);
  /* the accepts and sheds done, a second while the silent ones stay: a loop that spins on accept
   * takes all of it */
  usleep(500000);
  double cpu0 = proc_cpu_seconds(s.pid);
  int64_t t0 = ws_now_ms();
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

/* ================================== the hall's limits ================================== */

/* A connection from `from` (hang guard: fails when it cannot connect). */
static ws_conn *conn_from(const srv *s, const char *from) {
  ws_source(from);
  ws_conn *c = ws_connect(HOST, s->port, "/ws", "pilfer", WAIT_MS);
  ws_source(NULL);
  if (!c) fail_msg("connect from %s: %s", from, ws_last_error());
  return c;
}

/* Sends msg (taking it) with a new id and returns the reply with that id (the caller decrefs),
 * skipping pushes meanwhile; *ms (when not NULL) gets the milliseconds it took. */
static json_t *ask(ws_conn *c, json_t *msg, int64_t *ms) {
  int id = next_id++;
  json_object_set_new(msg, "id", json_integer(id));
  int64_t t0 = ws_now_ms();
  if (ws_send_json(c, msg) != 0) fail_msg("send: %s", ws_error(c));
  char *text = json_dumps(msg, JSON_COMPACT);
  json_decref(msg);
  for (;;) {
    json_t *r = ws_recv_json(c, WAIT_MS);
    if (!r) fail_msg("no answer to %s: %s", text, ws_error(c));
    if (json_integer_value(json_object_get(r, "id")) == id) {
      if (ms) *ms = ws_now_ms() - t0;
      free(text);
      return r;
    }
    json_decref(r);
  }
}

static const char *rtype(const json_t *r) { return or_else(json_string_value(json_object_get(r, "type")), ""); }
static const char *rcode(const json_t *r) { return or_else(json_string_value(json_object_get(r, "code")), ""); }

/* A create of `game` for 2 with these seats ("open" or a bot spec); the reply. */
static json_t *create2(ws_conn *c, const char *game, const char *seat0, const char *seat1, int64_t *ms) {
  return ask(c,
             json_pack("{s:s, s:s, s:i, s:o, s:[s,s]}", "type", "create", "game", game, "players", 2, "options",
                       srv_short_options(game), "seats", seat0, seat1),
             ms);
}

/* Watches table id on c until it is over; the milliseconds from now. */
static int64_t watch_to_end(ws_conn *c, json_int_t id) {
  int64_t t0 = ws_now_ms();
  json_t *r = ask(c, json_pack("{s:s, s:I}", "type", "watch", "table", id), NULL);
  if (strcmp(rtype(r), "watching")) fail_msg("watch %lld: %s", (long long)id, json_dumps(r, 0));
  json_decref(r);
  for (;;) {
    json_t *m = ws_recv_json(c, WAIT_MS * 3);
    if (!m) fail_msg("table %lld: no state for %d s: %s", (long long)id, WAIT_MS * 3 / 1000, ws_error(c));
    bool over = !strcmp(rtype(m), "state") && json_integer_value(json_object_get(m, "table")) == id &&
                !strcmp(or_else(json_string_value(json_object_get(m, "status")), ""), "over");
    json_decref(m);
    if (over) return ws_now_ms() - t0;
  }
}

/* A whole game of two `seat` bots of another client (127.0.0.2), from create to its end. */
static int64_t bot_game_ms(const srv *s, const char *game, const char *seat0, const char *seat1) {
  ws_conn *c = conn_from(s, "127.0.0.2");
  int64_t t0 = ws_now_ms(), create_ms;
  json_t *r = create2(c, game, seat0, seat1, &create_ms);
  if (strcmp(rtype(r), "created")) fail_msg("create: %s", json_dumps(r, 0));
  if (create_ms > prompt_ms) fail_msg("another client's create took %lld ms", (long long)create_ms);
  json_int_t id = json_integer_value(json_object_get(r, "table"));
  json_decref(r);
  watch_to_end(c, id);
  ws_close(c, WS_CLOSE_NORMAL);
  return ws_now_ms() - t0;
}

static int64_t median3(int64_t a, int64_t b, int64_t c) {
  return a > b ? (b > c ? b : (a > c ? c : a)) : (a > c ? a : (b > c ? c : b));
}

#define STRONG "ismcts:iters=100000"
#define VICTIM_SEARCH "ismcts:iters=3000"

/* One address's all-bot tables of strong searches, created from connections it closes
 * and opens again, neither hold more than bot_tables_per_client tables, nor starve another
 * address's bots: its table of cheap bots (the cheap lane) and of a small search (the search
 * thread the share keeps free) play at about their quiet pace. The bound asserted is
 * twice the quiet time, plus prompt_ms of slack for a busy machine (without fairness the cheap
 * game did not end in 15 s). */
static void bots_fair(void **st) {
  (void)st;
  const char *args[] = {"--workers", "2", NULL};
  srv s;
  start(&s, "bots", args, 0);
  int64_t quiet_cheap = median3(bot_game_ms(&s, "thief", "random", "random"), bot_game_ms(&s, "thief", "random", "random"),
                                bot_game_ms(&s, "thief", "random", "random"));
  int64_t quiet_search = median3(bot_game_ms(&s, "thief", VICTIM_SEARCH, "random"),
                                 bot_game_ms(&s, "thief", VICTIM_SEARCH, "random"),
                                 bot_game_ms(&s, "thief", VICTIM_SEARCH, "random"));
  int made = 0, refused = 0;
  ws_conn *h = NULL;
  for (int i = 0; i < 60; i++) {
    if (i % 5 == 0) { /* reconnecting at will */
      if (h) ws_close(h, WS_CLOSE_NORMAL);
      h = conn_from(&s, "127.0.0.1");
    }
    json_t *r = create2(h, "steal-the-pile", STRONG, STRONG, NULL);
    if (!strcmp(rtype(r), "created"))
      made++;
    else if (!strcmp(rcode(r), "too_many_tables"))
      refused++;
    else
      fail_msg("create: %s", json_dumps(r, 0));
    json_decref(r);
  }
  ws_close(h, WS_CLOSE_NORMAL);
  print_message("hostile: %d strong tables made, %d refused (bot_tables_per_client)\n", made, refused);
  if (made > 16) fail_msg("one address made %d tables of bots at once (bot_tables_per_client is 16)", made);
  usleep(500000); /* their searches under way */
  int64_t ms = handshake_ms(&s, "127.0.0.2", NULL);
  if (ms > prompt_ms) fail_msg("another client's handshake took %lld ms", (long long)ms);
  int64_t cheap = bot_game_ms(&s, "thief", "random", "random");
  int64_t search = bot_game_ms(&s, "thief", VICTIM_SEARCH, "random");
  print_message("another client's games: cheap bots %lld ms (quiet %lld), a small search %lld ms (quiet %lld)\n",
                (long long)cheap, (long long)quiet_cheap, (long long)search, (long long)quiet_search);
  if (cheap > 2 * quiet_cheap + prompt_ms) fail_msg("cheap bots: %lld ms against %lld quiet", (long long)cheap, (long long)quiet_cheap);
  if (search > 2 * quiet_search + prompt_ms)
    fail_msg("a small search: %lld ms against %lld quiet", (long long)search, (long long)quiet_search);
  stop(&s);
}

/* Waiting tables count against the address that made them, not the connection:
 * reconnecting after each create makes no more than waiting_per_client, and another address
 * still creates (waiting_max is not filled by one). */
static void waiting_by_reconnecting(void **st) {
  (void)st;
  const char *args[] = {"--limit", "waiting_max=12", NULL};
  srv s;
  start(&s, "waiting", args, 0);
  int made = 0;
  for (int i = 0; i < 30; i++) {
    ws_conn *c = conn_from(&s, "127.0.0.1");
    json_t *r = create2(c, "thief", "open", "open", NULL);
    if (!strcmp(rtype(r), "created"))
      made++;
    else if (strcmp(rcode(r), "too_many_tables"))
      fail_msg("create: %s", json_dumps(r, 0));
    json_decref(r);
    ws_close(c, WS_CLOSE_NORMAL);
  }
  assert_int_equal(made, 4);
  ws_conn *c = conn_from(&s, "127.0.0.2");
  int64_t ms;
  json_t *r = create2(c, "thief", "open", "open", &ms);
  if (strcmp(rtype(r), "created")) fail_msg("another client's create: %s", json_dumps(r, 0));
  if (ms > prompt_ms) fail_msg("another client's create took %lld ms", (long long)ms);
  json_decref(r);
  ws_close(c, WS_CLOSE_NORMAL);
  stop(&s);
}

/* The chat's rate is the address's: a player who reconnects (resume with the token)
 * before each burst gets no more than 5 at once and one every 2 s. */
static void chat_by_reconnecting(void **st) {
  (void)st;
  srv s;
  const char *args[] = {"--limit", "messages_burst=10000000", NULL}; /* the chat's own rate, not the messages' */
  start(&s, "chat", args, 0);
  ws_conn *c = conn_from(&s, "127.0.0.1");
  json_t *r = create2(c, "thief", "open", "open", NULL);
  json_int_t id = json_integer_value(json_object_get(r, "table"));
  json_decref(r);
  r = ask(c, json_pack("{s:s, s:I, s:i}", "type", "join", "table", id, "seat", 0), NULL);
  char token[80];
  snprintf(token, sizeof token, "%s", or_else(json_string_value(json_object_get(r, "token")), ""));
  json_decref(r);
  ws_close(c, WS_CLOSE_NORMAL);
  int said = 0;
  int64_t t0 = ws_now_ms();
  int refused = 0;
  while (ws_now_ms() - t0 < 3000) {
    ws_source("127.0.0.1");
    c = ws_connect(HOST, s.port, "/ws", "pilfer", WAIT_MS);
    ws_source(NULL);
    if (!c) { /* reconnecting that fast meets the rate of new connections (connect_burst) */
      refused++;
      usleep(10000);
      continue;
    }
    json_decref(ask(c, json_pack("{s:s, s:I, s:s}", "type", "resume", "table", id, "token", token), NULL));
    for (int k = 0; k < 10; k++) {
      r = ask(c, json_pack("{s:s, s:I, s:s, s:s}", "type", "chat", "table", id, "token", token, "text", "spam"), NULL);
      if (!strcmp(rtype(r), "said"))
        said++;
      else if (strcmp(rcode(r), "chat_flood"))
        fail_msg("chat: %s", json_dumps(r, 0));
      json_decref(r);
    }
    ws_close(c, WS_CLOSE_NORMAL);
  }
  int64_t secs = (ws_now_ms() - t0 + 999) / 1000;
  if (said < 5 || said > 5 + (int)(secs / 2) + 1)
    fail_msg("%d chat messages said in %lld s from one address (5 at once, then one every 2 s)", said, (long long)secs);
  stop(&s);
}

/* The messages of all an address's WebSockets together have a rate (messages_burst, then one
 * every messages_every_ms): a flood that reconnects, or spreads over many sockets, gets no more
 * through, and another address is answered at once. */
static void messages_by_reconnecting(void **st) {
  (void)st;
  const char *args[] = {"--limit", "messages_burst=100", "--limit", "messages_every_ms=100", NULL};
  srv s;
  start(&s, "messages", args, 0);
  int answered = 0, refused = 0;
  int64_t t0 = ws_now_ms();
  for (int round = 0; round < 6; round++) {
    ws_conn *c = conn_from(&s, "127.0.0.1");
    for (int k = 0; k < 50; k++) { /* one reply each, in order: the games, or a flood error (the
                                    * transport's, before any parsing: without the id) */
      json_t *m = json_pack("{s:s, s:i}", "type", "games", "id", next_id++);
      if (ws_send_json(c, m) != 0) fail_msg("send: %s", ws_error(c));
      json_decref(m);
      json_t *r = ws_recv_json(c, WAIT_MS);
      if (!r) fail_msg("no reply: %s", ws_error(c));
      if (!strcmp(rtype(r), "games"))
        answered++;
      else if (!strcmp(rcode(r), "flood"))
        refused++;
      else
        fail_msg("%s", json_dumps(r, 0));
      json_decref(r);
    }
    ws_close(c, WS_CLOSE_NORMAL);
  }
  int64_t secs = (ws_now_ms() - t0) / 1000 + 1;
  if (answered < 100 || answered > 100 + 10 * (int)secs + 5)
    fail_msg("%d of 300 answered in %lld s from one address (100 at once, then 10 a second)", answered, (long long)secs);
  assert_int_equal(answered + refused, 300);
  int64_t ms = handshake_ms(&s, "127.0.0.2", NULL);
  if (ms > prompt_ms) fail_msg("another client's handshake took %lld ms", (long long)ms);
  stop(&s);
}

/* A name must show something: made only of fillers, blanks or format characters it
 * is refused. */
static void invisible_names(void **st) {
  (void)st;
  srv s;
  start(&s, "names", NULL, 0);
  ws_conn *c = conn_from(&s, "127.0.0.1");
  json_t *r = create2(c, "thief", "open", "open", NULL);
  json_int_t id = json_integer_value(json_object_get(r, "table"));
  json_decref(r);
  static const char *const invisible[] = {"\u3164", "\u115F", "\u1160", "\uFFA0", "\u2800", "\u00AD", "\u061C",
                                          "\u3164\u3164\u3164", "\u00AD\u2800", "\u180E", "\u034F", "\u2061"};
  for (size_t i = 0; i < sizeof invisible / sizeof *invisible; i++) {
    r = ask(c, json_pack("{s:s, s:I, s:i, s:s}", "type", "join", "table", id, "seat", 0, "name", invisible[i]), NULL);
    if (strcmp(rcode(r), "bad_name")) fail_msg("the name %zu of the invisible ones: %s", i, json_dumps(r, 0));
    json_decref(r);
  }
  r = ask(c, json_pack("{s:s, s:I, s:i, s:s}", "type", "join", "table", id, "seat", 0, "name", "Ann\u3164"), NULL);
  if (strcmp(rtype(r), "joined")) fail_msg("a name with a visible letter: %s", json_dumps(r, 0));
  json_decref(r);
  ws_close(c, WS_CLOSE_NORMAL);
  stop(&s);
}

/* The costly requests (subscribe, list, review, hint) have a rate per address: a flood of them
 * from many connections is refused `flood` past it, and another address is answered at once. */
static void costly_rate(void **st) {
  (void)st;
  const char *args[] = {"--limit", "costly_burst=50", "--limit", "costly_every_ms=100", NULL};
  srv s;
  start(&s, "costly", args, 0);
  ws_conn *c[8];
  for (int i = 0; i < 8; i++) c[i] = conn_from(&s, "127.0.0.1");
  int answered = 0, refused = 0;
  for (int k = 0; k < 20; k++)
    for (int i = 0; i < 8; i++) {
      json_t *r = ask(c[i], json_pack("{s:s}", "type", k % 2 ? "list" : "subscribe"), NULL);
      if (!strcmp(rcode(r), "flood"))
        refused++;
      else if (!strcmp(rtype(r), "tables"))
        answered++;
      else
        fail_msg("%s", json_dumps(r, 0));
      json_decref(r);
    }
  if (answered < 50 || answered > 70 || refused < 90) fail_msg("%d answered, %d refused of 160", answered, refused);
  ws_conn *o = conn_from(&s, "127.0.0.2");
  int64_t ms;
  json_t *r = ask(o, json_pack("{s:s}", "type", "list"), &ms);
  if (strcmp(rtype(r), "tables") || ms > prompt_ms) fail_msg("another client's list (%lld ms): %s", (long long)ms, json_dumps(r, 0));
  json_decref(r);
  ws_close(o, WS_CLOSE_NORMAL);
  for (int i = 0; i < 8; i++) ws_close(c[i], WS_CLOSE_NORMAL);
  stop(&s);
}

/* ====================================== every flood ====================================== */

/* One hostile client from 127.0.0.1 for `seconds`, in a child process: silent TCP connections
 * kept open, WebSockets opened and dropped at will, each sending a burst of subscribe, list and
 * review without reading, creating waiting tables and tables of strong bots, chatting at a
 * table it sits at, and asking hints. It ends by itself. */
static pid_t hostile_child(const srv *s, int seconds) {
  pid_t pid = fork();
  if (pid != 0) return pid;
  enum { SILENT = 100 };
  int silent[SILENT], nsilent = 0;
  int64_t end = ws_now_ms() + seconds * 1000;
  char msg[512], token[80] = "";
  json_int_t seat_table = 0;
  for (int round = 0; ws_now_ms() < end; round++) {
    if (nsilent < SILENT) {
      int fd = silent_tcp(s, "127.0.0.1");
      if (fd >= 0) silent[nsilent++] = fd;
    }
    ws_source("127.0.0.1");
    ws_conn *c = ws_connect(HOST, s->port, "/ws", "pilfer", 2000);
    ws_source(NULL);
    if (!c) {
      usleep(5000);
      continue;
    }
    if (!token[0]) { /* a seat to chat and ask hints from */
      json_t *r = create2(c, "thief", "open", "greedy", NULL);
      seat_table = json_integer_value(json_object_get(r, "table"));
      json_decref(r);
      r = ask(c, json_pack("{s:s, s:I, s:i}", "type", "join", "table", seat_table, "seat", 0), NULL);
      snprintf(token, sizeof token, "%s", or_else(json_string_value(json_object_get(r, "token")), "x"));
      json_decref(r);
    }
    for (int k = 0; k < 60; k++) {
      static const char *const KINDS[] = {"subscribe", "list", "review"};
      int n = snprintf(msg, sizeof msg, "{\"type\": \"%s\", \"table\": 1, \"ply\": 0, \"log\": true}", KINDS[k % 3]);
      ws_send_text(c, msg, (size_t)n);
    }
    int n = snprintf(msg, sizeof msg,
                     "{\"type\": \"create\", \"game\": \"steal-the-pile\", \"players\": 2, \"seats\": [\"%s\", \"%s\"]}",
                     STRONG, STRONG);
    ws_send_text(c, msg, (size_t)n);
    n = snprintf(msg, sizeof msg, "{\"type\": \"create\", \"game\": \"thief\", \"players\": 2}");
    ws_send_text(c, msg, (size_t)n);
    for (int k = 0; k < 5; k++) {
      n = snprintf(msg, sizeof msg, "{\"type\": \"chat\", \"table\": %lld, \"token\": \"%s\", \"text\": \"spam\"}",
                   (long long)seat_table, token);
      ws_send_text(c, msg, (size_t)n);
    }
    n = snprintf(msg, sizeof msg, "{\"type\": \"hint\", \"table\": %lld, \"token\": \"%s\", \"bot\": \"%s\"}",
                 (long long)seat_table, token, STRONG);
    ws_send_text(c, msg, (size_t)n);
    ws_flush(c);
    if (round % 2) ws_drop(c); /* reconnecting at will: the next round is a new connection */
    else ws_close(c, WS_CLOSE_NORMAL);
  }
  for (int i = 0; i < nsilent; i++) close(silent[i]);
  _exit(0);
}

/* Every flood at once from one address, reconnecting at will: another address's handshake,
 * create and join are each answered within a second, again and again, and its table of cheap
 * bots plays within twice its quiet time (and a second of slack for a busy machine). */
static void every_flood(void **st) {
  (void)st;
  const char *args[] = {"--workers", "2", NULL};
  srv s;
  start(&s, "every", args, 0);
  int64_t quiet = median3(bot_game_ms(&s, "thief", "random", "random"), bot_game_ms(&s, "thief", "random", "random"),
                          bot_game_ms(&s, "thief", "random", "random"));
  int64_t quiet_search = median3(bot_game_ms(&s, "thief", VICTIM_SEARCH, "random"),
                                 bot_game_ms(&s, "thief", VICTIM_SEARCH, "random"),
                                 bot_game_ms(&s, "thief", VICTIM_SEARCH, "random"));
  pid_t child = hostile_child(&s, 12);
  usleep(1500000); /* the floods under way */
  int64_t worst_hs = 0, worst_create = 0, worst_join = 0, worst_game = 0;
  for (int round = 0; round < 4; round++) {
    ws_conn *c = NULL;
    int64_t hs = handshake_ms(&s, "127.0.0.2", &c), create_ms, join_ms;
    json_t *r = create2(c, "thief", "open", "random", &create_ms);
    if (strcmp(rtype(r), "created")) fail_msg("another client's create: %s", json_dumps(r, 0));
    json_int_t id = json_integer_value(json_object_get(r, "table"));
    json_decref(r);
    r = ask(c, json_pack("{s:s, s:I, s:i}", "type", "join", "table", id, "seat", 0), &join_ms);
    if (strcmp(rtype(r), "joined")) fail_msg("another client's join: %s", json_dumps(r, 0));
    json_decref(r);
    ws_close(c, WS_CLOSE_NORMAL);
    int64_t game = bot_game_ms(&s, "thief", "random", "random");
    worst_hs = hs > worst_hs ? hs : worst_hs;
    worst_create = create_ms > worst_create ? create_ms : worst_create;
    worst_join = join_ms > worst_join ? join_ms : worst_join;
    worst_game = game > worst_game ? game : worst_game;
  }
  int64_t search = bot_game_ms(&s, "thief", VICTIM_SEARCH, "random");
  print_message("under every flood, another client's worst: handshake %lld ms, create %lld ms, join %lld ms, a game of "
                "cheap bots %lld ms (quiet %lld); a game of a search %lld ms (quiet %lld)\n",
                (long long)worst_hs, (long long)worst_create, (long long)worst_join, (long long)worst_game,
                (long long)quiet, (long long)search, (long long)quiet_search);
  int status;
  waitpid(child, &status, 0);
  if (worst_hs > prompt_ms || worst_create > prompt_ms || worst_join > prompt_ms)
    fail_msg("another client waited over %lld ms (above)", (long long)prompt_ms);
  if (worst_game > 2 * quiet + prompt_ms) fail_msg("a game of cheap bots: %lld ms against %lld quiet", (long long)worst_game, (long long)quiet);
  if (search > 2 * quiet_search + prompt_ms)
    fail_msg("a game of a search: %lld ms against %lld quiet", (long long)search, (long long)quiet_search);
  stop(&s);
}

/* At most 1000 connections follow the list (`subscribe`): the next is refused `full`; one
 * address holds at most conns_per_address of them. */
static void subscribers_full(void **st) {
  (void)st;
  srv s;
  start(&s, "subs", NULL, 0);
  enum { N = 1000 };
  ws_conn **c = calloc(N + 1, sizeof *c);
  for (int i = 0; i < N; i++) {
    char from[32];
    snprintf(from, sizeof from, "127.0.3.%d", 1 + i / 60); /* 60 from each address, under its 64 */
    c[i] = conn_from(&s, from);
    json_t *r = ask(c[i], json_pack("{s:s}", "type", "subscribe"), NULL);
    if (strcmp(rtype(r), "tables")) fail_msg("subscriber %d: %s", i, json_dumps(r, 0));
    json_decref(r);
  }
  c[N] = conn_from(&s, "127.0.4.1");
  json_t *r = ask(c[N], json_pack("{s:s}", "type", "subscribe"), NULL);
  if (strcmp(rcode(r), "full")) fail_msg("the 1001st subscriber: %s", json_dumps(r, 0));
  json_decref(r);
  ws_close(c[0], WS_CLOSE_NORMAL);
  usleep(200000);
  r = ask(c[N], json_pack("{s:s}", "type", "subscribe"), NULL);
  if (strcmp(rtype(r), "tables")) fail_msg("a subscriber once one left: %s", json_dumps(r, 0));
  json_decref(r);
  for (int i = 1; i <= N; i++) ws_drop(c[i]);
  free(c);
  stop(&s);
}

/* ================================== cheap reads ================================== */

/* The per-address rates of costly requests (subscribe, list, review, hint) and of messages would
 * hold a flood back before it reaches the loop: these tests show the loop stays quick on its own,
 * so those limits are lifted here. */
#define COSTLY_OFF "--limit", "costly_burst=1000000", "--limit", "costly_every_ms=1", "--limit", "messages_burst=10000000",

/* Creates a table of two `random` bots (with options, NULL: none): its id. When the address has
 * bot_tables_per_client tables in play (a slow machine plays them slowly), tries again a little
 * later (a hang guard: for WAIT_MS). */
static int64_t finished_table(ws_conn *c, const char *game, json_t *options) {
  json_t *r;
  for (int64_t t0 = ws_now_ms();; usleep(50000)) {
    json_t *m = json_pack("{s:s, s:s, s:i, s:[s,s]}", "type", "create", "game", game, "players", 2, "seats", "random", "random");
    if (options) json_object_set_new(m, "options", json_incref(options));
    r = ask(c, m, NULL);
    if (strcmp(rcode(r), "too_many_tables") != 0 || ws_now_ms() - t0 > WAIT_MS) break;
    json_decref(r);
  }
  json_decref(options);
  if (strcmp(rtype(r), "created") != 0) fail_msg("create: %s", json_dumps(r, 0));
  int64_t id = json_integer_value(json_object_get(r, "table"));
  json_decref(r);
  return id;
}

/* Waits until table id is over (its summary, polled). */
static void wait_over(ws_conn *c, int64_t id) {
  for (int64_t t0 = ws_now_ms(); ws_now_ms() - t0 < 4 * WAIT_MS; usleep(50000)) {
    json_t *r = ask(c, json_pack("{s:s, s:I, s:i}", "type", "review", "table", (json_int_t)id, "ply", 0), NULL);
    bool over = strcmp(rtype(r), "review") == 0;
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

/* Another address's handshake, create and join answered within prompt_ms each meanwhile. */
static void others_prompt(const srv *s, const char *what) {
  ws_conn *c;
  int64_t ms = handshake_ms(s, "127.0.0.2", &c);
  if (ms > prompt_ms) fail_msg("another client's handshake took %lld ms during %s", (long long)ms, what);
  json_t *r = create2(c, "thief", "open", "random", &ms);
  if (strcmp(rtype(r), "created") != 0 || ms > prompt_ms) fail_msg("create: %lld ms during %s", (long long)ms, what);
  int64_t id = json_integer_value(json_object_get(r, "table"));
  json_decref(r);
  r = ask(c, json_pack("{s:s, s:I}", "type", "join", "table", (json_int_t)id), &ms);
  if (strcmp(rtype(r), "joined") != 0 || ms > prompt_ms) fail_msg("join: %lld ms during %s", (long long)ms, what);
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
  snprintf(asan, sizeof asan, "%s:quarantine_size_mb=8", or_else(getenv("ASAN_OPTIONS"), ""));
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
  json_t *r = ask(c, json_pack("{s:s, s:I, s:i}", "type", "review", "table", (json_int_t)id, "ply", 0), NULL);
  int plies = (int)json_integer_value(json_object_get(r, "plies"));
  json_decref(r);
  ws_close(c, WS_CLOSE_NORMAL);
  if (plies < 5000) fail_msg("the long game has %d plies only", plies);
  flood f = {.make = make_review, .table = id, .plies = plies};
  flood_start(&f, &s, 8);
  usleep(300000);
  ws_conn *o;
  int64_t ms = handshake_ms(&s, "127.0.0.2", &o);
  if (ms > prompt_ms) fail_msg("another client's handshake took %lld ms during a review flood", (long long)ms);
  int64_t t0 = ws_now_ms();
  int64_t bots = finished_table(o, "steal-the-pile", NULL);
  ms = ws_now_ms() - t0;
  if (ms > prompt_ms) fail_msg("another client's create took %lld ms during a review flood", (long long)ms);
  wait_over(o, bots);
  ms = ws_now_ms() - t0;
  if (ms > 5 * prompt_ms) fail_msg("another client's bot table took %lld ms to finish during a review flood", (long long)ms);
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
      cmocka_unit_test(bots_fair),
      cmocka_unit_test(waiting_by_reconnecting),
      cmocka_unit_test(chat_by_reconnecting),
      cmocka_unit_test(messages_by_reconnecting),
      cmocka_unit_test(invisible_names),
      cmocka_unit_test(costly_rate),
      cmocka_unit_test(every_flood),
      cmocka_unit_test(subscribers_full),
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
