/*
 * loadbench.c - pilfer-load: the server's load benchmark.
 *
 *   pilfer-load (--url ws://HOST:PORT/ws | --spawn PILFER) [--tables T] [--game ID]...
 *               [--bot SPEC] [--full-games] [--batch N] [--max-seconds S] [--pid PID]
 *               [--seed S] [--think MS] [--sustain] [--json] [--serve-arg ARG]...
 *
 * Opens T tables at once (default 1000) over a mix of games, each with two seats played here on
 * their own WebSocket connections and the others by a bot, then plays every table to its end from
 * one thread with epoll, each seat answering every state that asks it with a random legal move
 * after a think time (--think MS: a uniformly random wait from 0 to twice MS, as people take; 0
 * answers at once, which measures the server saturated rather than 1000 tables of people). It reports the moves a second (every ply: the seats here, the bots and chance), the latency
 * from sending a move to receiving the next state of its table (p50, p99), and the server's memory
 * a table: its VmRSS (/proc/PID/status) before the tables are opened and once all are, over T.
 *
 * Opening: a seat's connection sends `create` and `join`, the other's `join` (on a connection
 * to PATH?table=ID, which a proxy in front of shards routes to the table's); at most --batch
 * connections are being opened at a time. On a loopback server the tables come from many
 * addresses, TABLES_AN_ADDRESS tables each (127.A.B.C, never 127.0.x.x), as people at many
 * machines would: the server counts a client by its address (docs/protocol.md, "Limits"), and
 * the benchmark measures people playing, not one client holding thousands of tables. Moves wait until every table is open, so that the
 * memory is measured with all of them in play and the timing covers the playing only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <unistd.h>

#include "srvproc.h"
#include "wsclient.h"

static const char USAGE[] =
    "usage: pilfer-load (--url ws://HOST:PORT/ws | --spawn PILFER) [options]\n"
    "\n"
    "Opens T tables of a pilfer server at once, two seats of each played here over WebSocket by\n"
    "random legal moves and the others by a bot, plays them to the end from one thread, and prints\n"
    "moves a second, the latency from a move to the next state of its table, and the server's\n"
    "memory a table.\n"
    "  --url URL         a running server (its memory is read when it runs here: --pid, or the\n"
    "                    process listening on the port)\n"
    "  --spawn PILFER    start `PILFER serve` on a free port with a new database, stopped at the end\n"
    "  --serve-arg ARG   one more argument of that `pilfer serve` (repeatable: --serve-arg=--limit\n"
    "                    --serve-arg=conns_per_address=20000)\n"
    "  --tables T        tables at once (default 1000)\n"
    "  --game ID         play this game (repeatable; default every game the server lists)\n"
    "  --bot SPEC        the bot on the other seats (default random)\n"
    "  --full-games      the games' default options (default: short ones, one hand of Thief ...)\n"
    "  --batch N         connections being opened at a time (default 100)\n"
    "  --max-seconds S   stop playing after S seconds (default 600)\n"
    "  --pid PID         the server's process, for its memory and CPU time; repeated, the\n"
    "                    processes that serve together (a cluster's shards and nginx); 0: none\n"
    "  --seed S          the seats' choices (default 1)\n"
    "  --think MS        each seat waits 0 to 2*MS ms before it answers (default 1000, as people\n"
    "                    do; 0 answers at once: the server saturated)\n"
    "  --sustain         keep T tables in play for all of --max-seconds: a finished table is\n"
    "                    replaced by a new one at once\n"
    "  --json            print the result as one JSON object too\n";

/* ------------------------------------ the tables ------------------------------------ */

typedef struct table table;

/* A seat played here: one connection. */
typedef struct seat {
  table *t;
  int seat;
  ws_conn *ws;
  bool out_watched;  /* registered for EPOLLOUT */
  bool joined;
  char token[80];
  bool asked;        /* the last state asks it, unanswered */
  json_t *legal;     /* of the last state */
  long long ply;     /* of the last state */
  bool chose;        /* the last state shows its sealed choice in */
  bool inflight;     /* a move sent, not answered */
  bool waiting;      /* acknowledged: the next state ends the latency */
  int64_t sent_us;
  json_t *move;      /* the move in flight */
  int64_t retry_us;  /* after a flood error */
  int64_t due_us;    /* when it answers, once asked (its think time) */
  bool over;
} seat;

struct table {
  int index;
  long long id;      /* the server's number, once created */
  const char *game;
  int players;
  seat seats[2];
  long long plies;   /* the last ply seen */
  bool over;
};

typedef struct bench {
  const char *host, *path;
  int port;
  int epfd;
  table *tables;
  int ntables;
  int opened_tables, started_tables, connecting;
  int batch;
  bool playing;
  int64_t *lat;      /* latencies, microseconds */
  size_t nlat, caplat;
  int64_t *turns;    /* the playing loop's turns, microseconds busy (not waiting in epoll_wait) */
  size_t nturns, capturns;
  long long client_moves;
  int over;
  int64_t last_us;   /* when the last message came */
  json_t *errors;    /* code -> count */
  uint64_t rng;
  const char *bot;
  int think_ms;
  bool sustain;
  bool spread;          /* the tables' seats connect from many loopback addresses (table_source) */
  long long done_plies; /* plies of the tables replaced (--sustain) */
  bool full_games;
  json_t *games;     /* the ids played */
  json_t *all_games; /* GET /api/games */
} bench;

static uint32_t rnd(bench *b, uint32_t n) { return (uint32_t)((ws_splitmix(&b->rng) >> 32) % n); }

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("pilfer-load: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(1);
}

static void count_error(bench *b, const char *code) {
  json_t *n = json_object_get(b->errors, code);
  json_object_set_new(b->errors, code, json_integer(json_integer_value(n) + 1));
}

/* Keeps the epoll registration of a seat's socket in line with whether it has bytes to send. */
static void watch(bench *b, seat *s, int op) {
  bool out = ws_want_write(s->ws);
  if (op == EPOLL_CTL_MOD && out == s->out_watched) return;
  struct epoll_event ev = {.events = EPOLLIN | (out ? EPOLLOUT : 0), .data.ptr = s};
  if (epoll_ctl(b->epfd, op, ws_fd(s->ws), &ev) != 0) die("epoll_ctl: %s", strerror(errno));
  s->out_watched = out;
}

static void send_json(bench *b, seat *s, json_t *msg) {
  ws_send_json(s->ws, msg);
  json_decref(msg);
  watch(b, s, EPOLL_CTL_MOD);
}

#define TABLES_AN_ADDRESS 4 /* within waiting_per_client, whatever the batch */

/* The loopback address a table's seats connect from: 127.A.B.C, A from 1, B and C 1 to 250. */
static void table_source(int index, char *out, size_t n) {
  int k = index / TABLES_AN_ADDRESS;
  snprintf(out, n, "127.%d.%d.%d", 1 + k / 62500, 1 + (k / 250) % 250, 1 + k % 250);
}

static void open_seat(bench *b, seat *s) {
  char from[32];
  if (b->spread) {
    table_source(s->t->index, from, sizeof from);
    ws_source(from);
  }
  /* The second seat names its table (/ws?table=ID, as the web page's table pages do): behind a
   * proxy that routes by it, its connection reaches the shard that holds the table. */
  char path[300];
  if (s->seat == 1 && !strchr(b->path, '?'))
    snprintf(path, sizeof path, "%s?table=%lld", b->path, s->t->id);
  else
    snprintf(path, sizeof path, "%s", b->path);
  s->ws = ws_open(b->host, b->port, path, "pilfer");
  ws_source(NULL);
  if (!s->ws) die("%s", ws_last_error());
  ws_set_user(s->ws, s);
  b->connecting++;
  watch(b, s, EPOLL_CTL_ADD);
}

/* Starts the next table: its first seat's connection. */
static void start_table(bench *b) {
  table *t = &b->tables[b->started_tables++];
  open_seat(b, &t->seats[0]);
}

static void send_move(bench *b, seat *s) {
  json_t *legal = s->legal;
  const char *mv = json_string_value(json_array_get(legal, rnd(b, (uint32_t)json_array_size(legal))));
  json_decref(s->move);
  s->move = json_pack("{s:s, s:I, s:s, s:s, s:I}", "type", "move", "table", s->t->id, "token",
                      s->token, "move", mv, "ply", s->ply);
  s->asked = false;
  s->inflight = true;
  s->sent_us = ws_now_us();
  send_json(b, s, json_incref(s->move));
}

/* ------------------------------------ messages ------------------------------------ */

static void on_joined(seat *s, json_t *m) {
  const char *tok = json_string_value(json_object_get(m, "token"));
  s->joined = true;
  snprintf(s->token, sizeof s->token, "%s", tok ? tok : "");
}

static void add_sample(int64_t **v, size_t *n, size_t *cap, int64_t x) {
  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : 4096;
    *v = realloc(*v, *cap * sizeof **v);
    if (!*v) die("out of memory");
  }
  (*v)[(*n)++] = x;
}

static void on_state(bench *b, seat *s, json_t *m) {
  table *t = s->t;
  int64_t now = ws_now_us();
  if (s->waiting) {
    add_sample(&b->lat, &b->nlat, &b->caplat, now - s->sent_us);
    s->waiting = false;
  }
  s->ply = json_integer_value(json_object_get(m, "ply"));
  if (s->ply > t->plies) t->plies = s->ply;
  json_decref(s->legal);
  s->legal = json_incref(json_object_get(m, "legal"));
  const char *status = json_string_value(json_object_get(m, "status"));
  if (status && !strcmp(status, "over") && !s->over) {
    s->over = true;
    if (!t->over && t->seats[0].over && t->seats[1].over) {
      t->over = true;
      b->over++;
    }
  }
  s->chose = !json_is_null(json_object_get(m, "mine"));
  bool was_asked = s->asked;
  s->asked = !s->inflight && json_array_size(s->legal) > 0 && !s->chose;
  if (s->asked && !was_asked) s->due_us = now + (b->think_ms ? (int64_t)rnd(b, 2000u * (uint32_t)b->think_ms) : 0);
}

static void on_message(bench *b, seat *s, json_t *m) {
  table *t = s->t;
  b->last_us = ws_now_us();
  const char *type = json_string_value(json_object_get(m, "type"));
  if (!type) return;
  if (!strcmp(type, "created")) {
    t->id = json_integer_value(json_object_get(m, "table"));
    send_json(b, s, json_pack("{s:s, s:I, s:i}", "type", "join", "table", t->id, "seat", 0));
    open_seat(b, &t->seats[1]);
  } else if (!strcmp(type, "joined")) {
    on_joined(s, m);
    if (t->seats[0].joined && t->seats[1].joined) b->opened_tables++;
  } else if (!strcmp(type, "state")) {
    on_state(b, s, m);
  } else if (!strcmp(type, "ack")) {
    s->inflight = false;
    s->waiting = true;
    b->client_moves++;
  } else if (!strcmp(type, "error")) {
    const char *code = json_string_value(json_object_get(m, "code"));
    count_error(b, code ? code : "?");
    if (code && !strcmp(code, "flood") && s->inflight) {
      s->retry_us = ws_now_us() + 100000;
    } else if (s->inflight) {
      /* stale: a sealed group moved on; its state came while the move was in flight */
      s->inflight = false;
      s->asked = json_array_size(s->legal) > 0 && !s->chose;
    } else {
      char *text = json_dumps(m, JSON_COMPACT);
      die("table %lld seat %d: %s", t->id, s->seat, text);
    }
  }
}

/* A seat's connection has come up: its first message. */
static void on_open(bench *b, seat *s) {
  table *t = s->t;
  b->connecting--;
  if (s == &t->seats[0]) {
    json_t *seats = json_array();
    for (int i = 0; i < t->players; i++)
      json_array_append_new(seats, json_string(i < 2 ? "open" : b->bot));
    json_t *opts = b->full_games ? json_object() : srv_short_options(t->game);
    send_json(b, s, json_pack("{s:s, s:s, s:i, s:o, s:o}", "type", "create", "game", t->game,
                              "players", t->players, "options", opts, "seats", seats));
  } else {
    send_json(b, s, json_pack("{s:s, s:I, s:i}", "type", "join", "table", t->id, "seat", 1));
  }
}

/* A message as JSON. Of a state only its head is read, everything before "view" (type, table,
 * seat, status, ply, to_move, choosing, legal, sealed, mine: all a seat here needs, in the order
 * the server writes them); the view, text and log, most of its bytes, are skipped, so that the
 * benchmark spends its core on the server's messages, not on parsing them. */
static json_t *parse_message(const char *text, size_t len) {
  static const char VIEW[] = ",\"view\":";
  const char *cut = len > 256 ? memmem(text, len, VIEW, sizeof VIEW - 1) : NULL;
  if (cut) {
    size_t n = (size_t)(cut - text);
    char head[8192];
    if (n < sizeof head - 1) {
      memcpy(head, text, n);
      head[n] = '}';
      json_t *j = json_loadb(head, n + 1, 0, NULL);
      if (j) return j;
    }
  }
  return json_loadb(text, len, 0, NULL);
}

static void service(bench *b, seat *s, uint32_t events) {
  ws_conn *c = s->ws;
  bool was_open = ws_get_state(c) == WS_OPEN;
  if (events & EPOLLOUT) ws_flush(c);
  if (events & (EPOLLIN | EPOLLHUP | EPOLLERR)) ws_read(c);
  if (!was_open && ws_get_state(c) == WS_OPEN) on_open(b, s);
  ws_msg m;
  int r;
  while ((r = ws_next_message(c, &m)) == 1) {
    if (m.opcode != WS_OP_TEXT) continue;
    json_t *j = parse_message((const char *)m.data, m.len);
    if (j) on_message(b, s, j);
    json_decref(j);
  }
  if (r < 0 && !(s->t->over && s->over))
    die("table %lld seat %d: the connection ended: %s", s->t->id, s->seat, ws_error(c));
  watch(b, s, EPOLL_CTL_MOD);
}

/* Answers every seat that is asked (and sends again what was refused as a flood). */
static void answer_all(bench *b) {
  int64_t now = ws_now_us();
  for (int i = 0; i < b->ntables; i++)
    for (int k = 0; k < 2; k++) {
      seat *s = &b->tables[i].seats[k];
      if (s->inflight && s->retry_us && now >= s->retry_us) {
        s->retry_us = 0;
        send_json(b, s, json_incref(s->move));
      } else if (s->asked && now >= s->due_us) {
        send_move(b, s);
      }
    }
}

/* --sustain: a finished table's slot starts a new table, so that T stay in play. */
static void replace_finished(bench *b) {
  for (int i = 0; i < b->ntables; i++) {
    table *t = &b->tables[i];
    if (!t->over) continue;
    b->done_plies += t->plies;
    for (int k = 0; k < 2; k++) {
      seat *s = &t->seats[k];
      if (s->ws) ws_close(s->ws, 0);
      json_decref(s->legal);
      json_decref(s->move);
      *s = (seat){.t = t, .seat = k};
    }
    t->id = 0;
    t->plies = 0;
    t->over = false;
    open_seat(b, &t->seats[0]);
  }
}

/* ------------------------------------ the run ------------------------------------ */

/* One turn of the loop; returns the microseconds it waited in epoll_wait. */
static int64_t loop_once(bench *b, int timeout_ms) {
  struct epoll_event evs[256];
  int64_t t0 = ws_now_us();
  int n = epoll_wait(b->epfd, evs, 256, timeout_ms);
  int64_t waited = ws_now_us() - t0;
  if (n < 0 && errno != EINTR) die("epoll_wait: %s", strerror(errno));
  for (int i = 0; i < n; i++) service(b, evs[i].data.ptr, evs[i].events);
  return waited;
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

static void raise_file_limit(int need) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return;
  rl.rlim_cur = rl.rlim_max;
  setrlimit(RLIMIT_NOFILE, &rl);
  if ((rlim_t)need > rl.rlim_cur)
    die("%d tables need %d open files and the limit is %llu (ulimit -Hn)", need / 2, need,
        (unsigned long long)rl.rlim_cur);
}

/* The server's processes (--pid, one or several: the shards and nginx of a cluster), their
 * memory and CPU time added up, or -1 when none is known or one has gone. */
#define MAX_PIDS 64
static long pids_rss_kib(const pid_t *pids, int n) {
  long sum = 0;
  for (int i = 0; i < n; i++) {
    long k = proc_rss_kib(pids[i]);
    if (k < 0) return -1;
    sum += k;
  }
  return n ? sum : -1;
}
static double pids_cpu_seconds(const pid_t *pids, int n) {
  double sum = 0;
  for (int i = 0; i < n; i++) {
    double c = proc_cpu_seconds(pids[i]);
    if (c < 0) return -1;
    sum += c;
  }
  return n ? sum : -1;
}

/* ws://HOST:PORT/PATH */
static void parse_url(bench *b, const char *url) {
  static char host[256], path[256];
  int port = 0;
  if (sscanf(url, "ws://%255[^:/]:%d%255s", host, &port, path) < 2 || port <= 0)
    die("--url wants ws://HOST:PORT/PATH, not '%s'", url);
  if (!path[0]) strcpy(path, "/ws");
  b->host = host;
  b->port = port;
  b->path = path;
}

int main(int argc, char **argv) {
  static const struct option LONG[] = {
      {"url", required_argument, 0, 'u'},      {"spawn", required_argument, 0, 's'},
      {"serve-arg", required_argument, 0, 'A'},
      {"tables", required_argument, 0, 't'},   {"game", required_argument, 0, 'g'},
      {"bot", required_argument, 0, 'b'},      {"full-games", no_argument, 0, 'f'},
      {"batch", required_argument, 0, 'B'},    {"max-seconds", required_argument, 0, 'm'},
      {"pid", required_argument, 0, 'p'},      {"seed", required_argument, 0, 'S'},
      {"json", no_argument, 0, 'j'},           {"help", no_argument, 0, 'h'},
      {"think", required_argument, 0, 'T'},    {"sustain", no_argument, 0, 'U'},
      {0, 0, 0, 0}};
  bench b = {.ntables = 1000, .batch = 100, .bot = "random", .rng = 1, .think_ms = 1000, .errors = json_object(),
             .games = json_array()};
  const char *url = NULL, *spawn = NULL;
  const char *serve_args[32] = {0};
  int nserve_args = 0;
  int max_seconds = 600, c;
  pid_t pids[MAX_PIDS];
  int npids = 0;
  bool nopid = false; /* --pid given (0: none) */
  bool as_json = false;
  while ((c = getopt_long(argc, argv, "h", LONG, NULL)) != -1) {
    switch (c) {
    case 'u': url = optarg; break;
    case 's': spawn = optarg; break;
    case 'A':
      if (nserve_args < 30) serve_args[nserve_args++] = optarg;
      break;
    case 't': b.ntables = atoi(optarg); break;
    case 'g': json_array_append_new(b.games, json_string(optarg)); break;
    case 'b': b.bot = optarg; break;
    case 'f': b.full_games = true; break;
    case 'B': b.batch = atoi(optarg); break;
    case 'm': max_seconds = atoi(optarg); break;
    case 'p':
      if (npids == MAX_PIDS) die("at most %d --pid", MAX_PIDS);
      if ((pids[npids] = atoi(optarg)) > 0) npids++;
      nopid = true;
      break;
    case 'S': b.rng = strtoull(optarg, NULL, 10); break;
    case 'j': as_json = true; break;
    case 'T': b.think_ms = atoi(optarg); break;
    case 'U': b.sustain = true; break;
    case 'h': fputs(USAGE, stdout); return 0;
    default: fputs(USAGE, stderr); return 2;
    }
  }
  if (!url == !spawn || b.ntables < 1 || b.batch < 1) {
    fputs(USAGE, stderr);
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  raise_file_limit(2 * b.ntables + 64);
  srv server = {0};
  char dir[256] = "";
  if (spawn) {
    snprintf(dir, sizeof dir, "%s/pilfer-load-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) die("mkdtemp: %s", strerror(errno));
    char db[300], log[300];
    snprintf(db, sizeof db, "%s/load.db", dir);
    snprintf(log, sizeof log, "%s/server.log", dir);
    server.args = serve_args;
    if (srv_start(&server, spawn, db, log, 20000) != 0) die("the server did not start: %s", server.error);
    b.host = "127.0.0.1";
    b.port = server.port;
    b.path = "/ws";
    pids[npids++] = server.pid;
  } else {
    parse_url(&b, url);
    pid_t found = nopid ? -1 : proc_listening_on(b.port);
    if (found > 0) pids[npids++] = found;
  }
  b.spread = strncmp(b.host, "127.", 4) == 0 || strcmp(b.host, "localhost") == 0;
  /* the games */
  char *body = NULL;
  if (http_get(b.host, b.port, "/api/games", 10000, &body, NULL) != 200) die("GET /api/games failed");
  b.all_games = json_loads(body, 0, NULL);
  free(body);
  if (json_array_size(b.games) == 0) {
    size_t i;
    json_t *g;
    json_array_foreach(b.all_games, i, g) json_array_append(b.games, json_object_get(g, "id"));
  }
  b.tables = calloc((size_t)b.ntables, sizeof *b.tables);
  for (int i = 0; i < b.ntables; i++) {
    table *t = &b.tables[i];
    t->index = i;
    t->game = json_string_value(json_array_get(b.games, (size_t)i % json_array_size(b.games)));
    int minp = 0, maxp = 0;
    size_t k;
    json_t *g;
    json_array_foreach(b.all_games, k, g) if (!strcmp(json_string_value(json_object_get(g, "id")), t->game)) {
      minp = (int)json_integer_value(json_object_get(g, "min_players"));
      maxp = (int)json_integer_value(json_object_get(g, "max_players"));
    }
    if (!maxp) die("the server has no game '%s'", t->game);
    t->players = srv_load_players(minp, maxp);
    if (t->players < 2) die("'%s' cannot seat two players here", t->game);
    for (int s = 0; s < 2; s++) t->seats[s] = (seat){.t = t, .seat = s};
  }
  b.epfd = epoll_create1(EPOLL_CLOEXEC);
  long rss0 = pids_rss_kib(pids, npids);
  /* open every table */
  int64_t t0 = ws_now_us();
  while (b.opened_tables < b.ntables) {
    while (b.started_tables < b.ntables && b.connecting < b.batch) start_table(&b);
    loop_once(&b, 100);
    if (ws_now_us() - t0 > (int64_t)max_seconds * 1000000)
      die("only %d of %d tables opened in %d s", b.opened_tables, b.ntables, max_seconds);
  }
  int64_t t1 = ws_now_us();
  long rss1 = pids_rss_kib(pids, npids);
  double cpu_srv0 = pids_cpu_seconds(pids, npids), cpu_self0 = proc_cpu_seconds(getpid());
  long long plies0 = 0;
  for (int i = 0; i < b.ntables; i++) plies0 += b.tables[i].plies;
  /* play them */
  b.playing = true;
  b.last_us = t1;
  while ((b.sustain || b.over < b.ntables) && ws_now_us() - t1 < (int64_t)max_seconds * 1000000) {
    /* A turn's busy time is the most that a message which came during it waited here before
     * it was read (and timed): this benchmark's own share of the latency. */
    int64_t turn0 = ws_now_us();
    if (b.sustain) replace_finished(&b);
    answer_all(&b);
    int64_t waited = loop_once(&b, 10);
    add_sample(&b.turns, &b.nturns, &b.capturns, ws_now_us() - turn0 - waited);
    if (ws_now_us() - b.last_us > 30000000) {
      fprintf(stderr, "pilfer-load: nothing came for 30 s: stopping\n");
      break;
    }
  }
  int64_t t2 = ws_now_us();
  double cpu_srv1 = pids_cpu_seconds(pids, npids), cpu_srv = cpu_srv0 >= 0 && cpu_srv1 >= 0 ? cpu_srv1 - cpu_srv0 : -1;
  double cpu_self = proc_cpu_seconds(getpid()) - cpu_self0;
  long long plies = b.done_plies - plies0;
  for (int i = 0; i < b.ntables; i++) plies += b.tables[i].plies;
  double open_s = (double)(t1 - t0) / 1e6, play_s = (double)(t2 - t1) / 1e6;
  qsort(b.lat, b.nlat, sizeof *b.lat, cmp_i64);
  double p50 = b.nlat ? (double)b.lat[b.nlat / 2] / 1000 : 0;
  double p99 = b.nlat ? (double)b.lat[b.nlat * 99 / 100] / 1000 : 0;
  double maxl = b.nlat ? (double)b.lat[b.nlat - 1] / 1000 : 0;
  qsort(b.turns, b.nturns, sizeof *b.turns, cmp_i64);
  double turn50 = b.nturns ? (double)b.turns[b.nturns / 2] / 1000 : 0;
  double turn99 = b.nturns ? (double)b.turns[b.nturns * 99 / 100] / 1000 : 0;
  double turnmax = b.nturns ? (double)b.turns[b.nturns - 1] / 1000 : 0;
  double per_table = rss0 > 0 && rss1 > 0 ? (double)(rss1 - rss0) / b.ntables : -1;
  char mem[128] = "server memory unknown (no --pid)";
  if (per_table >= 0)
    snprintf(mem, sizeof mem, "server memory %.1f KiB a table (VmRSS %.1f -> %.1f MiB)", per_table,
             rss0 / 1024.0, rss1 / 1024.0);
  printf("pilfer-load: %d tables (%zu games, 2 seats here thinking 0-%d ms + %s), %d finished; %lld moves in %.2f s: "
         "%.0f moves/s (%lld by the seats here); move to next state p50 %.2f ms, p99 %.2f ms; %s; "
         "opened in %.2f s\n",
         b.ntables, json_array_size(b.games), 2 * b.think_ms, b.bot, b.over, plies, play_s,
         play_s > 0 ? (double)plies / play_s : 0, b.client_moves, p50, p99, mem, open_s);
  /* What each used of the machine's cores while playing: the server's cost of a move, and
   * whether this benchmark took a share the server needed. */
  double srv_us = cpu_srv >= 0 && plies > 0 ? cpu_srv * 1e6 / (double)plies : -1;
  char srvcpu[96] = "server unknown (no --pid)";
  if (cpu_srv >= 0 && play_s > 0)
    snprintf(srvcpu, sizeof srvcpu, "server %.0f%% of a core (%.0f us a move)", 100 * cpu_srv / play_s, srv_us);
  printf("pilfer-load: CPU while playing: %s, pilfer-load %.0f%% (its loop's turns busy p50 %.2f ms, p99 %.2f ms, "
         "max %.2f ms); %ld cores\n",
         srvcpu, play_s > 0 ? 100 * cpu_self / play_s : 0, turn50, turn99, turnmax, sysconf(_SC_NPROCESSORS_ONLN));
  if (json_object_size(b.errors)) {
    char *e = json_dumps(b.errors, JSON_COMPACT);
    printf("pilfer-load: errors answered: %s\n", e);
    free(e);
  }
  if (as_json) {
    json_t *o = json_pack("{s:i, s:O, s:s, s:i, s:b, s:i, s:i, s:f, s:f, s:I, s:I, s:f, s:{s:f, s:f, s:f, s:I},"
                          " s:{s:I, s:I}, s:f, s:O}",
                          "tables", b.ntables, "games", b.games, "bot", b.bot, "think_ms", b.think_ms, "short_games", !b.full_games,
                          "connections", 2 * b.ntables, "finished", b.over, "open_seconds", open_s,
                          "play_seconds", play_s, "moves", (json_int_t)plies, "client_moves",
                          (json_int_t)b.client_moves, "moves_per_second", play_s > 0 ? (double)plies / play_s : 0,
                          "latency_ms", "p50", p50, "p99", p99, "max", maxl, "samples", (json_int_t)b.nlat,
                          "rss_kib", "before", (json_int_t)rss0, "after", (json_int_t)rss1,
                          "memory_per_table_kib", per_table, "errors", b.errors);
    json_object_set_new(o, "cpu", json_pack("{s:f, s:f, s:f}", "server_seconds", cpu_srv, "server_us_per_move", srv_us,
                                            "load_seconds", cpu_self));
    json_object_set_new(o, "load_turn_ms", json_pack("{s:f, s:f, s:f, s:I}", "p50", turn50, "p99", turn99, "max",
                                                     turnmax, "samples", (json_int_t)b.nturns));
    char *s = json_dumps(o, JSON_INDENT(2));
    puts(s);
    free(s);
    json_decref(o);
  }
  /* close everything */
  for (int i = 0; i < b.ntables; i++)
    for (int k = 0; k < 2; k++) {
      seat *s = &b.tables[i].seats[k];
      if (s->ws) ws_close(s->ws, 0);
      json_decref(s->legal);
      json_decref(s->move);
    }
  int status = 0;
  if (spawn) {
    status = srv_stop(&server, SIGTERM, 20000);
    char *rm[] = {"/bin/rm", "-rf", dir, NULL};
    proc_run(rm, NULL, NULL);
  }
  close(b.epfd);
  free(b.tables);
  free(b.lat);
  free(b.turns);
  json_decref(b.errors);
  json_decref(b.games);
  json_decref(b.all_games);
  return (b.sustain || b.over == b.ntables) && status == 0 ? 0 : 1;
}
