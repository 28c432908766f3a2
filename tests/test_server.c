/*
 * test_server.c - `pilfer serve` as clients see it, over real WebSockets and HTTP (docs/protocol.md).
 *
 * Usage: test_server PILFER [TEST...]. It starts `PILFER serve --listen 127.0.0.1:0 --db FILE` in a
 * temporary folder (the port is read from the line the server prints), plays whole games against
 * it and checks every message:
 *   - every registered game to the end, two seats played here (random legal moves) and the rest
 *     by bots, with a spectator: each seat's view equals the engine's view of that seat at that
 *     ply, and its legal moves, choosing and log agree with the record; the spectator's view is
 *     the public one (as `pilfer replay --view public` prints it) and shows nothing that any seat's
 *     view hides; the record (HTTP) replays with `pilfer replay`, holds every acknowledged move
 *     at its ply, and the seed is in no message before the end; Point-a-Pile's sealed choices
 *     are sent in both orders, the higher seat alone first in every other group;
 *   - a client that sends what it should not (another seat's move, wrong tokens, garbage, unknown
 *     tables, illegal and stale moves, a 10 MB message, a flood), while another table plays on;
 *   - a dropped connection resumed with its token; leave before the start (the seat opens again,
 *     the token dies) and during the game (a bot plays the seat); a silent seat taken over;
 *   - connections that close before their first request (the server lives on);
 *   - recovery: the server killed with SIGKILL mid-game and restarted on its database keeps every
 *     acknowledged move, and the games finish.
 * The truth for the checks is the engine itself (linked here), replaying the server's record.
 * A mismatch that does not stop a game is noted by kind and the test fails at its end, listing
 * each kind once with its first instance. PILFER_TEST_SEED repeats the seats' choices (the server
 * draws its own seeds); PILFER_TEST_TRACE prints every message. Exits 77 (ctest: skipped) when
 * PILFER has no `serve` command.
 */
#define _GNU_SOURCE /* strcasestr */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka needs the four headers above first */
#include <cmocka.h>

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
#include "core/view.h"
#include "games/registry.h"
#include "srvproc.h"
#include "wsclient.h"

#define HOST "127.0.0.1"
#define WAIT_MS 20000 /* the longest any single answer may take (ASan builds are slow) */
#define MAX_TABLES_WATCHED 32 /* docs/protocol.md: tables one connection sits at or watches */

static const char *pilfer;  /* the binary under test */
static char tmpdir[256];
static srv server;          /* the server most tests share */
static ws_conn *lobby;      /* its connection for create, list and the like */
static int next_id = 1;
static uint64_t rng_state;  /* the seats' choices: PILFER_TEST_SEED or the clock */
static bool trace;          /* PILFER_TEST_TRACE: every message to stderr */
static int64_t t0_ms;

/* With PILFER_TEST_TRACE set: one line per message, "ms table seat -> or <- text". */
static void trace_msg(int table, int seat, const char *dir, const json_t *m) {
  if (!trace) return;
  char *s = json_dumps(m, JSON_COMPACT);
  fprintf(stderr, "%7lld t%d s%d %s %.300s\n", (long long)(ws_now_ms() - t0_ms), table, seat, dir, s);
  free(s);
}

static uint32_t rnd(uint32_t n) { return (uint32_t)((ws_splitmix(&rng_state) >> 32) % n); }

/* ======================================= JSON helpers ======================================= */

/* A value as text for a message (cut at 1500 bytes), in one of 8 buffers used in turn: valid
 * until 8 more calls. */
static const char *dump(const json_t *j) {
  static char ring[8][1501];
  static int next;
  char *out = ring[next++ % 8];
  char *s = j ? json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
  snprintf(out, sizeof ring[0], "%s", s ? s : "(null)");
  if (s && strlen(s) > 1500) strcpy(out + 1480, " ...");
  free(s);
  return out;
}

static const char *jstr(const json_t *o, const char *key) {
  return json_string_value(json_object_get(o, key));
}

static long long jint(const json_t *o, const char *key) {
  json_t *v = json_object_get(o, key);
  if (!json_is_integer(v)) fail_msg("no integer \"%s\" in %s", key, dump(o));
  return json_integer_value(v);
}

/* The first place where a and b differ, as a path ("hands.1.cards"), in buf; false if equal. */
static bool json_differs(const json_t *a, const json_t *b, char *buf, size_t n) {
  if (json_equal(a, b)) return false;
  size_t l = strlen(buf);
  if (json_is_object(a) && json_is_object(b)) {
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)a, k, v) {
      snprintf(buf + l, n - l, ".%s", k);
      if (json_differs(v, json_object_get(b, k), buf, n)) return true;
    }
    json_object_foreach((json_t *)b, k, v) if (!json_object_get(a, k)) {
      snprintf(buf + l, n - l, ".%s (only in the second)", k);
      return true;
    }
  } else if (json_is_array(a) && json_is_array(b) && json_array_size(a) == json_array_size(b)) {
    for (size_t i = 0; i < json_array_size(a); i++) {
      snprintf(buf + l, n - l, ".%zu", i);
      if (json_differs(json_array_get(a, i), json_array_get(b, i), buf, n)) return true;
    }
  }
  buf[l] = 0;
  snprintf(buf + l, n - l, ": %.300s vs %.300s", dump(a), dump(b));
  return true;
}

static void expect_same_json(const json_t *got, const json_t *want, const char *what) {
  char where[1024] = "";
  if (json_differs(got, want, where, sizeof where)) fail_msg("%s differs at %s", what, where);
}

/* Whether a "seed" key is anywhere in the value. */
static bool has_seed_key(const json_t *j) {
  const char *k;
  json_t *v;
  size_t i;
  if (json_is_object(j)) {
    json_object_foreach((json_t *)j, k, v) if (!strcmp(k, "seed") || has_seed_key(v)) return true;
  } else if (json_is_array(j)) {
    json_array_foreach(j, i, v) if (has_seed_key(v)) return true;
  }
  return false;
}

/* A spectator's view leaks if it shows a value where some seat's view shows nothing, or
 * something else: walking the spectator's view, every value that is not concealed (null, or a
 * placeholder such as Point-a-Pile's "chosen") must stand at the same place in every seat's view.
 * This does not trust the engine's public view: a hand shown to the spectator is a path that the
 * other seats' views do not have. Returns the path and values of the first leak in `why`. */
static bool concealed(const json_t *v) {
  const char *s = json_string_value(v);
  return json_is_null(v) || (s && (!strcmp(s, "chosen") || !strcmp(s, "thrown")));
}

static bool leaks(const json_t *spec, const json_t *seat, char *path, size_t n) {
  size_t l = strlen(path);
  const char *k;
  json_t *v;
  size_t i;
  if (json_is_object(spec)) {
    json_object_foreach((json_t *)spec, k, v) {
      if (!strcmp(k, "viewer") || !strcmp(k, "legal")) continue;
      snprintf(path + l, n - l, ".%s", k);
      if (leaks(v, json_is_object(seat) ? json_object_get(seat, k) : NULL, path, n)) return true;
    }
  } else if (json_is_array(spec)) {
    json_array_foreach(spec, i, v) {
      snprintf(path + l, n - l, ".%zu", i);
      if (leaks(v, json_is_array(seat) ? json_array_get(seat, i) : NULL, path, n)) return true;
    }
  } else if (!concealed(spec) && !(seat && json_equal(spec, seat))) {
    snprintf(path + l, n - l, ": %.100s where the seat sees %.100s", dump(spec),
             seat ? dump(seat) : "nothing");
    return true;
  }
  path[l] = 0;
  return false;
}

/* ===================================== contract mismatches ===================================== */

/* A mismatch with the contract that does not stop the game: noted by kind (its first instance
 * and a count), so that one run shows every kind; the test fails at its end if there was any. */
typedef struct problem {
  char kind[200];
  char first[700];
  int count;
} problem;

static problem problems[64];
static int nproblems;

static void note_problem(const char *kind, const char *fmt, ...) {
  int i = 0;
  while (i < nproblems && strcmp(problems[i].kind, kind)) i++;
  if (i == nproblems) {
    if (nproblems == 64) return;
    nproblems++;
    snprintf(problems[i].kind, sizeof problems[i].kind, "%s", kind);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(problems[i].first, sizeof problems[i].first, fmt, ap);
    va_end(ap);
  }
  problems[i].count++;
}

/* Fails the test if any mismatch was noted, listing each kind. */
static void expect_no_problems(void) {
  int n = nproblems;
  for (int i = 0; i < n; i++)
    print_error("MISMATCH %s (%d times); the first: %s\n", problems[i].kind, problems[i].count,
                problems[i].first);
  nproblems = 0;
  if (n) fail_msg("%d kinds of mismatch with docs/protocol.md (above)", n);
}

/* The same as expect_same_json, noted as a mismatch of `kind` rather than failing at once. */
static void same_json_or_note(const char *kind, const json_t *got, const json_t *want,
                              const char *what) {
  char where[1024] = "";
  if (json_differs(got, want, where, sizeof where)) note_problem(kind, "%s differs at %s", what, where);
}

/* ======================================== the tables ======================================== */

typedef struct table table;

/* A connection of the test to a table: a seat it plays (seat >= 0) or a spectator (-1). */
typedef struct player {
  table *t;
  int seat;
  ws_conn *ws;         /* NULL while dropped */
  char token[80];
  json_t *state;       /* the last state received */
  long seq;            /* states received */
  long acted_seq;      /* the state the last move answered */
  int inflight_id;     /* the move sent and not yet answered (0: none) */
  json_t *inflight;
  bool inflight_in_group; /* sent while several seats were choosing */
  int64_t retry_ms;    /* after a flood error: when to send it again */
  bool silent;         /* never moves (for the takeover) */
  int asked_ply;       /* a silent seat: the ply it was first asked at, -1 */
  int64_t asked_ms;
  int64_t taken_ms;    /* when a bot first played for the silent seat (0: not yet) */
  bool saw_over;
} player;

struct table {
  int id;
  char game[40];
  int players;
  json_t *options;
  player *seat[PF_MAX_PLAYERS]; /* the seats played here; NULL for bots */
  player *watch;                /* the spectator, or NULL */
  int stop_ply;                 /* the seats here do not move at or past this ply */
  bool order_sealed;            /* sealed choices in both orders (decide) */
  bool exact_acks;              /* every move of the seats here was acknowledged here */
  json_t *states;               /* [{"seat": s or -1, "state": ...}], all of them */
  json_t *acks;                 /* [{"seat", "ply", "move", "sealed", "sent_ply"}] */
  json_t *messages;             /* everything received before the game was over */
  json_t *over;                 /* the first state with status over */
  int64_t postponed_ms;
};

/* Connections to drain while games are played (the lobby): their pushes are not checked. */
static ws_conn *others[8];
static int nothers;

static ws_conn *connect_or_fail(const srv *s) {
  ws_conn *c = ws_connect(HOST, s->port, "/ws", "pilfer", WAIT_MS);
  if (!c) fail_msg("connect: %s", ws_last_error());
  return c;
}

static void on_message(player *p, json_t *m);

/* Sends a request with a new id on c and returns the reply with that id (caller decrefs); other
 * messages meanwhile go to p's handler (when p is not NULL). The reply must be of type `want`. */
static json_t *request(ws_conn *c, player *p, json_t *msg, const char *want) {
  int id = next_id++;
  json_object_set_new(msg, "id", json_integer(id));
  trace_msg(p ? p->t->id : 0, p ? p->seat : -9, "->", msg);
  if (ws_send_json(c, msg) != 0) fail_msg("send %s: %s", dump(msg), ws_error(c));
  for (;;) {
    json_t *r = ws_recv_json(c, WAIT_MS);
    if (!r) fail_msg("no answer to %s: %s", dump(msg), ws_error(c));
    if (json_integer_value(json_object_get(r, "id")) == id) {
      if (!jstr(r, "type") || strcmp(jstr(r, "type"), want))
        fail_msg("%s: wanted %s, got %s", dump(msg), want, dump(r));
      json_decref(msg);
      return r;
    }
    if (p) on_message(p, r);
    json_decref(r);
  }
}

static player *player_new(table *t, int seat) {
  player *p = calloc(1, sizeof *p);
  p->t = t;
  p->seat = seat;
  p->asked_ply = -1;
  return p;
}

static void player_free(player *p) {
  if (!p) return;
  if (p->ws) ws_close(p->ws, WS_CLOSE_NORMAL);
  json_decref(p->state);
  json_decref(p->inflight);
  free(p);
}

/* Binds a player's new connection to its seat with `resume` (or to the table with `watch`). */
static void player_reconnect(player *p, const srv *s) {
  if (p->ws) ws_drop(p->ws);
  p->ws = connect_or_fail(s);
  ws_set_user(p->ws, p);
  json_t *r;
  if (p->seat < 0) {
    r = request(p->ws, p, json_pack("{s:s, s:i}", "type", "watch", "table", p->t->id), "watching");
  } else {
    r = request(p->ws, p,
                json_pack("{s:s, s:i, s:s}", "type", "resume", "table", p->t->id, "token", p->token),
                "joined");
    assert_int_equal(jint(r, "seat"), p->seat);
    if (json_object_get(r, "token")) fail_msg("resume: the reply repeats the token: %s", dump(r));
  }
  assert_int_equal(jint(r, "table"), p->t->id);
  json_decref(r);
  p->inflight_id = 0;
  long seq = p->seq;
  while (p->seq == seq) { /* then a state */
    json_t *m = ws_recv_json(p->ws, WAIT_MS);
    if (!m) fail_msg("table %d: no state after resume or watch: %s", p->t->id, ws_error(p->ws));
    on_message(p, m);
    json_decref(m);
  }
}

/* Creates a table: seats[i] is a bot spec, or NULL for a seat played here. With a spectator when
 * `watch`. takeover may be NULL. */
static table *table_new(const char *game, int players, json_t *options, const char *const *seats,
                        json_t *takeover, bool watch) {
  table *t = calloc(1, sizeof *t);
  snprintf(t->game, sizeof t->game, "%s", game);
  t->players = players;
  t->options = options ? options : json_object();
  t->stop_ply = INT_MAX;
  t->exact_acks = true;
  t->order_sealed = true;
  t->states = json_array();
  t->acks = json_array();
  t->messages = json_array();
  json_t *spec = json_array();
  for (int i = 0; i < players; i++) json_array_append_new(spec, json_string(seats[i] ? seats[i] : "open"));
  json_t *msg = json_pack("{s:s, s:s, s:i, s:O, s:o}", "type", "create", "game", game, "players",
                          players, "options", t->options, "seats", spec);
  if (takeover) json_object_set_new(msg, "takeover", takeover);
  json_t *r = request(lobby, NULL, msg, "created");
  t->id = (int)jint(r, "table");
  json_t *summary = json_object_get(r, "summary");
  assert_int_equal(jint(summary, "table"), t->id);
  assert_string_equal(jstr(summary, "game"), game);
  assert_int_equal(jint(summary, "players"), players);
  json_decref(r);
  if (watch) {
    t->watch = player_new(t, -1);
    player_reconnect(t->watch, &server);
  }
  for (int i = 0; i < players; i++) {
    if (seats[i]) continue;
    player *p = t->seat[i] = player_new(t, i);
    p->ws = connect_or_fail(&server);
    ws_set_user(p->ws, p);
    r = request(p->ws, p, json_pack("{s:s, s:i, s:i}", "type", "join", "table", t->id, "seat", i),
                "joined");
    assert_int_equal(jint(r, "seat"), i);
    const char *tok = jstr(r, "token");
    if (!tok || strlen(tok) != 32 || strspn(tok, "0123456789abcdef") != 32)
      fail_msg("join: the token is not 128 bits in hex: %s", dump(r));
    snprintf(p->token, sizeof p->token, "%s", tok);
    json_decref(r);
  }
  return t;
}

static void table_free(table *t) {
  if (!t) return;
  for (int i = 0; i < t->players; i++) player_free(t->seat[i]);
  player_free(t->watch);
  json_decref(t->options);
  json_decref(t->states);
  json_decref(t->acks);
  json_decref(t->messages);
  json_decref(t->over);
  free(t);
}

/* ------------------------------------ receiving ------------------------------------ */

static void on_state(player *p, json_t *m) {
  table *t = p->t;
  if (p->seat >= 0) assert_int_equal(jint(m, "seat"), p->seat);
  else if (!json_is_null(json_object_get(m, "seat")))
    fail_msg("table %d: a spectator's state has a seat: %s", t->id, dump(m));
  json_decref(p->state);
  p->state = json_incref(m);
  p->seq++;
  json_array_append_new(t->states, json_pack("{s:i, s:O}", "seat", p->seat, "state", m));
  int ply = (int)jint(m, "ply");
  bool asked = json_array_size(json_object_get(m, "legal")) > 0;
  if (p->seat < 0 && asked) fail_msg("table %d: a spectator is asked to move: %s", t->id, dump(m));
  if (p->silent && asked && p->asked_ply < 0) {
    p->asked_ply = ply;
    p->asked_ms = ws_now_ms();
  } else if (p->silent && p->asked_ply >= 0 && ply > p->asked_ply && !p->taken_ms) {
    p->taken_ms = ws_now_ms();
  }
  if (!strcmp(jstr(m, "status"), "over")) {
    p->saw_over = true;
    if (!t->over) t->over = json_incref(m);
    /* PAP-4: once the game is over every sealed choice is named in the log, to everyone */
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(m, "log"), i, e)
      if (strstr(jstr(e, "text"), "when everyone has"))
        fail_msg("table %d: after the game the log still hides a choice: %s", t->id, dump(e));
  }
}

static void on_message(player *p, json_t *m) {
  table *t = p->t;
  const char *type = jstr(m, "type");
  trace_msg(t->id, p->seat, "<-", m);
  if (!t->over) json_array_append(t->messages, m);
  if (!type) fail_msg("table %d: a message without a type: %s", t->id, dump(m));
  if (json_object_get(m, "table") && jint(m, "table") != t->id)
    fail_msg("table %d: a message of another table: %s", t->id, dump(m));
  if (!strcmp(type, "state")) {
    on_state(p, m);
  } else if (!strcmp(type, "ack")) {
    if (!p->inflight_id || jint(m, "id") != p->inflight_id)
      fail_msg("table %d seat %d: an ack of nothing sent: %s", t->id, p->seat, dump(m));
    const char *sent = jstr(p->inflight, "move");
    if (!jstr(m, "move") || strcmp(jstr(m, "move"), sent))
      fail_msg("table %d seat %d: move %s acknowledged as %s", t->id, p->seat, sent, dump(m));
    bool sealed = json_is_true(json_object_get(m, "sealed"));
    long long ply = jint(m, "ply"), sent_ply = jint(p->inflight, "ply");
    /* docs/protocol.md: the ack's ply is the table's after the move and what it let through;
     * a sealed choice changes no ply; a seat of a group may send the ply its group began at */
    if (sealed ? ply < sent_ply : ply <= sent_ply)
      fail_msg("table %d seat %d: a move at ply %lld acknowledged at ply %lld", t->id, p->seat,
               sent_ply, ply);
    json_array_append_new(t->acks, json_pack("{s:i, s:I, s:s, s:b, s:I}", "seat", p->seat, "ply",
                                             (json_int_t)ply, "move", sent, "sealed", sealed,
                                             "sent_ply", (json_int_t)sent_ply));
    p->inflight_id = 0;
    p->acted_seq = p->seq; /* states before the ack are from before the move: the next answers */
  } else if (!strcmp(type, "error")) {
    bool mine = p->inflight_id && json_integer_value(json_object_get(m, "id")) == p->inflight_id;
    const char *code = jstr(m, "code");
    if (mine && !strcmp(code, "stale") && p->inflight_in_group) {
      /* docs/protocol.md: each seat of a sealed group "may send its move at any time"; noted,
       * and the seat answers its next state */
      note_problem("a sealed choice sent with the ply its seat saw is refused as stale (each seat "
                   "of a group may send at any time)", "%s after %s", dump(m), dump(p->inflight));
      p->inflight_id = 0;
      return;
    }
    if (!mine || strcmp(code, "flood"))
      fail_msg("table %d seat %d: error %s (in flight: %s)", t->id, p->seat, dump(m),
               dump(p->inflight));
    p->retry_ms = ws_now_ms() + 1000; /* the protocol's rate: 40 a second */
  } else if (strcmp(type, "tables")) {
    fail_msg("table %d seat %d: unexpected %s", t->id, p->seat, dump(m));
  }
}

/* ------------------------------------ moving ------------------------------------ */

static void send_move(player *p) {
  table *t = p->t;
  json_t *legal = json_object_get(p->state, "legal");
  const char *mv = json_string_value(json_array_get(legal, rnd((uint32_t)json_array_size(legal))));
  json_decref(p->inflight);
  p->inflight_id = next_id++;
  p->inflight = json_pack("{s:s, s:i, s:i, s:s, s:s, s:I}", "type", "move", "id", p->inflight_id,
                          "table", t->id, "token", p->token, "move", mv, "ply",
                          (json_int_t)jint(p->state, "ply"));
  p->acted_seq = p->seq;
  p->inflight_in_group = json_array_size(json_object_get(p->state, "choosing")) > 1;
  trace_msg(t->id, p->seat, "->", p->inflight);
  if (ws_send_json(p->ws, p->inflight) != 0)
    fail_msg("table %d seat %d: send: %s", t->id, p->seat, ws_error(p->ws));
}

/* Whether a seat here should move now: asked in a state it has not answered yet. */
static bool ready(const player *p) {
  if (!p || !p->ws || p->silent || p->inflight_id || p->seq <= p->acted_seq || !p->state) return false;
  if (!json_is_null(json_object_get(p->state, "mine")) && json_object_get(p->state, "mine"))
    return false;
  return json_array_size(json_object_get(p->state, "legal")) > 0 &&
         jint(p->state, "ply") < p->t->stop_ply;
}

static bool in_array(const json_t *a, int seat) {
  size_t i;
  json_t *v;
  json_array_foreach(a, i, v) if (json_integer_value(v) == seat) return true;
  return false;
}

/* Whether a seat here above s, in the same group as s, has its choice in flight. */
static bool higher_in_flight(const table *t, int s) {
  json_t *choosing = json_object_get(t->seat[s]->state, "choosing");
  for (int o = s + 1; o < t->players; o++)
    if (t->seat[o] && t->seat[o]->inflight_id && in_array(choosing, o)) return true;
  return false;
}

/* Sends the moves of the seats here that are asked. With order_sealed, when several of them
 * choose in one group they first wait until each is asked (2 s at most); then, in a group met at
 * an even ply, the highest seat's choice goes alone and each lower one only after the ack of the
 * one above, so that the server must keep choices sealed; at an odd ply all go at once, lowest
 * seat first, as clients that each "may send at any time" would. */
static void decide(table *t) {
  int64_t now = ws_now_ms();
  for (int s = 0; s < t->players; s++) {
    player *p = t->seat[s];
    if (p && p->inflight_id && p->retry_ms && now >= p->retry_ms) {
      p->retry_ms = 0;
      json_object_set_new(p->inflight, "id", json_integer(p->inflight_id = next_id++));
      ws_send_json(p->ws, p->inflight);
    }
  }
  bool any = false, wait = false;
  long long group_ply = -1;
  for (int s = 0; s < t->players; s++) {
    if (!ready(t->seat[s])) continue;
    any = true;
    json_t *choosing = json_object_get(t->seat[s]->state, "choosing");
    json_t *sealed = json_object_get(t->seat[s]->state, "sealed");
    if (!t->order_sealed || json_array_size(choosing) < 2) continue;
    for (int o = 0; o < t->players; o++) {
      player *q = t->seat[o];
      if (o == s || !q || q->silent || !in_array(choosing, o) || in_array(sealed, o)) continue;
      group_ply = jint(t->seat[s]->state, "ply");
      if (!ready(q) && !q->inflight_id) wait = true;
    }
  }
  if (!any) return;
  if (wait && !t->postponed_ms) t->postponed_ms = now;
  if (wait && now - t->postponed_ms < 2000) return;
  t->postponed_ms = 0;
  bool reverse = group_ply >= 0 && group_ply % 2 == 0;
  for (int i = 0; i < t->players; i++) {
    int s = reverse ? t->players - 1 - i : i;
    if (ready(t->seat[s]) && !(reverse && higher_in_flight(t, s))) send_move(t->seat[s]);
  }
}

/* ------------------------------------ the loop ------------------------------------ */

static bool table_done(const table *t) {
  if (!t->over) return false;
  for (int s = 0; s < t->players; s++)
    if (t->seat[s] && t->seat[s]->ws && !t->seat[s]->saw_over) return false;
  return !t->watch || !t->watch->ws || t->watch->saw_over;
}

/* Stopped at stop_ply: a seat here is asked there and nothing is in flight. */
static bool table_paused(const table *t) {
  bool asked = false;
  for (int s = 0; s < t->players; s++) {
    player *p = t->seat[s];
    if (!p || !p->state) continue;
    if (p->inflight_id) return false;
    if (json_array_size(json_object_get(p->state, "legal")) > 0 && jint(p->state, "ply") >= t->stop_ply)
      asked = true;
  }
  return asked;
}

/* Takes every whole message the connection holds; false when it has ended. */
static bool drain_player(player *p) {
  ws_msg m;
  int k;
  while ((k = ws_next_message(p->ws, &m)) == 1) {
    if (m.opcode != WS_OP_TEXT) continue;
    json_error_t e;
    json_t *j = json_loadb((const char *)m.data, m.len, 0, &e);
    if (!j) fail_msg("table %d: not a JSON object (%s): %.200s", p->t->id, e.text, m.data);
    on_message(p, j);
    json_decref(j);
  }
  return k >= 0;
}

/* Reads what the player's socket has and takes the messages; fails if the connection ended. */
static void read_player(player *p) {
  ws_flush(p->ws);
  int r = ws_read(p->ws);
  if (!drain_player(p) || r < 0)
    fail_msg("table %d seat %d: the connection ended: %s (close code %d)", p->t->id, p->seat,
             ws_error(p->ws), ws_close_code(p->ws));
}

/* Plays the tables until each is over (and every connection here saw it) or paused at its
 * stop_ply, or until `until` says so; fails after timeout_ms. */
static void play(table **ts, int n, int timeout_ms, bool (*until)(table **, int)) {
  int64_t deadline = ws_now_ms() + timeout_ms;
  struct pollfd *pfd = calloc((size_t)n * (PF_MAX_PLAYERS + 1) + 8, sizeof *pfd);
  player **who = calloc((size_t)n * (PF_MAX_PLAYERS + 1) + 8, sizeof *who);
  for (;;) {
    /* first what came with the last reply of a request (or the last read) and waits unread */
    for (int i = 0; i < n; i++)
      for (int s = -1; s < ts[i]->players; s++) {
        player *p = s < 0 ? ts[i]->watch : ts[i]->seat[s];
        if (p && p->ws && !drain_player(p)) read_player(p); /* which fails, saying why */
      }
    for (int i = 0; i < n; i++) decide(ts[i]);
    if (until && until(ts, n)) break;
    bool all = true;
    for (int i = 0; i < n && all; i++) all = table_done(ts[i]) || (!until && table_paused(ts[i]));
    if (all) break;
    if (ws_now_ms() > deadline) {
      for (int i = 0; i < n; i++)
        for (int s = 0; s < ts[i]->players; s++)
          if (ts[i]->seat[s])
            print_message("table %d (%s) seat %d: %s\n", ts[i]->id, ts[i]->game, s,
                          dump(ts[i]->seat[s]->state));
      fail_msg("the games did not end within %d s", timeout_ms / 1000);
    }
    int np = 0;
    for (int i = 0; i < n; i++)
      for (int s = -1; s < ts[i]->players; s++) {
        player *p = s < 0 ? ts[i]->watch : ts[i]->seat[s];
        if (!p || !p->ws) continue;
        pfd[np] = (struct pollfd){ws_fd(p->ws), (short)(POLLIN | (ws_want_write(p->ws) ? POLLOUT : 0)), 0};
        who[np++] = p;
      }
    for (int i = 0; i < nothers; i++) {
      pfd[np] = (struct pollfd){ws_fd(others[i]), POLLIN, 0};
      who[np++] = NULL;
    }
    if (poll(pfd, (nfds_t)np, 50) < 0 && errno != EINTR) fail_msg("poll: %s", strerror(errno));
    for (int i = 0; i < np; i++) {
      if (!pfd[i].revents) continue;
      if (who[i]) {
        ws_flush(who[i]->ws);
        if (ws_read(who[i]->ws) < 0) read_player(who[i]); /* which fails, saying why */
        continue;
      }
      ws_conn *o = others[i - (np - nothers)];
      ws_msg m;
      ws_read(o);
      while (ws_next_message(o, &m) == 1) {
      }
    }
  }
  free(pfd);
  free(who);
}

/* ====================================== after a game ====================================== */

/* Runs the binary with these arguments; its exit status (stdout in *out when not NULL). */
static int run_pilfer(char **out, char **err, const char *a1, const char *a2, const char *a3,
                      const char *a4, const char *a5) {
  char *argv[] = {(char *)pilfer, (char *)a1, (char *)a2, (char *)a3, (char *)a4, (char *)a5, NULL};
  return proc_run(argv, out, err);
}

static json_t *http_json(const srv *s, const char *path, int want_status) {
  char *body = NULL;
  int st = http_get(HOST, s->port, path, WAIT_MS, &body, NULL);
  if (st < 0) fail_msg("GET %s: %s", path, ws_last_error());
  if (st != want_status) fail_msg("GET %s: status %d, want %d: %.300s", path, st, want_status, body);
  json_error_t e;
  json_t *j = json_loads(body, JSON_DECODE_ANY, &e);
  if (!j) fail_msg("GET %s: not JSON (%s): %.300s", path, e.text, body);
  free(body);
  return j;
}

/* What the engine says at every ply of the record. */
typedef struct truth {
  pf_record rec;
  int n;             /* moves */
  int *to_move;      /* [n + 1] */
  json_t **legal;    /* [n + 1]: the legal moves of the seat to move */
  int (*choosing)[PF_MAX_PLAYERS];
  int *nchoosing;
  json_t **said;     /* [n]: each move told with everything shown, with its zones (a review's log) */
} truth;

/* Move `text` at the run's position as a review's "log" tells it: its words with everything shown,
 * and where it takes a card from and to. */
static json_t *said_json(const pf_run *run, const char *text) {
  pf_buf b = {0};
  pf_style plain = {0};
  pf_move m;
  pf_error err;
  pf_move_zones z = {.card = PF_CARD_NONE};
  int who = pf_run_to_move(run);
  if (text[0] == '*' || who < 0)
    pf_describe_chance(run->game, run->state, text, PF_VIEW_ALL, &plain, &b);
  else if (run->game->move_parse(run->state, text, &m, &err) == 0) {
    pf_describe(run->game, run->state, m, PF_VIEW_ALL, &plain, &b);
    pf_move_zones_of(run->game, run->state, m, &z);
  }
  char c[PF_CARD_STR];
  json_t *o = json_pack("{s:s%}", "text", b.len ? b.data : text, b.len ? b.len : strlen(text));
  if (z.from[0]) json_object_set_new(o, "from", json_string(z.from));
  if (z.to[0]) json_object_set_new(o, "to", json_string(z.to));
  if (z.card != PF_CARD_NONE) json_object_set_new(o, "card", json_string(pf_card_str_in(run->game->cards, z.card, c)));
  pf_buf_free(&b);
  return o;
}

static int cmp_state_ply(const void *a, const void *b) {
  long long pa = jint(json_object_get(*(json_t *const *)a, "state"), "ply");
  long long pb = jint(json_object_get(*(json_t *const *)b, "state"), "ply");
  return pa < pb ? -1 : pa > pb;
}

/* A state received from the server against the engine at its ply. */
static void check_state_at(const table *t, const truth *tr, const pf_run *run, json_t *entry) {
  const pf_game *g = run->game;
  int seat = (int)jint(entry, "seat");
  json_t *st = json_object_get(entry, "state");
  int ply = (int)jint(st, "ply");
  char what[160];
  snprintf(what, sizeof what, "table %d (%s) %s %d, ply %d: view", t->id, t->game,
           seat < 0 ? "spectator" : "seat", seat, ply);
  json_t *view = json_object_get(st, "view");
  bool waiting = !strcmp(jstr(st, "status"), "waiting");
  if (waiting != json_is_null(view))
    fail_msg("%s: a view must be null exactly while the table waits: %s", what, dump(st));
  if (waiting) {
    /* the deal is not shown before every seat is taken (not in docs/protocol.md); nobody moves */
    if (!json_is_null(json_object_get(st, "to_move")) || json_array_size(json_object_get(st, "choosing")) ||
        json_array_size(json_object_get(st, "legal")) || json_array_size(json_object_get(st, "log")))
      fail_msg("%s: a waiting table with moves: %s", what, dump(st));
    return;
  }
  if (seat >= 0) {
    json_t *want = pf_view_json(g, run->state, t->players, seat);
    same_json_or_note("a seat's view is not the engine's view of the seat", view, want, what);
    json_decref(want);
  } else {
    for (int s = 0; s < t->players; s++) {
      json_t *sv = pf_view_json(g, run->state, t->players, s);
      char path[600] = "view";
      if (leaks(view, sv, path, sizeof path))
        note_problem("a spectator sees what a seat does not (a hidden card)",
                     "%s shows what seat %d does not see: %s", what, s, path);
      json_decref(sv);
    }
    json_t *want = pf_view_json(g, run->state, t->players, PF_VIEW_PUBLIC);
    same_json_or_note("a spectator's view is not the engine's public view", view, want, what);
    json_decref(want);
  }
  /* the text: the engine's, plain, for this viewer */
  pf_buf text = {0};
  pf_style plain = {0};
  g->view_text(run->state, seat < 0 ? PF_VIEW_PUBLIC : seat, &plain, &text);
  json_t *want_text = json_string(pf_buf_str(&text));
  same_json_or_note("a state's text is not the engine's text of the view", json_object_get(st, "text"),
                    want_text, what);
  json_decref(want_text);
  pf_buf_free(&text);
  json_t *tm = pf_to_move_json(tr->to_move[ply]);
  snprintf(what, sizeof what, "table %d seat %d ply %d: to_move", t->id, seat, ply);
  same_json_or_note("to_move", json_object_get(st, "to_move"), tm, what);
  json_decref(tm);
  json_t *ch = pf_ints_json(tr->choosing[ply], tr->nchoosing[ply]);
  snprintf(what, sizeof what, "table %d seat %d ply %d: choosing", t->id, seat, ply);
  same_json_or_note("choosing", json_object_get(st, "choosing"), ch, what);
  json_decref(ch);
  /* legal: what the engine offers the seat when its turn in the group comes, unless it chose */
  json_t *want_legal = json_array();
  for (int i = 0; seat >= 0 && i < tr->nchoosing[ply]; i++)
    if (tr->choosing[ply][i] == seat && !in_array(json_object_get(st, "sealed"), seat)) {
      assert_int_equal(tr->to_move[ply + i], seat);
      json_decref(want_legal);
      want_legal = json_incref(tr->legal[ply + i]);
    }
  snprintf(what, sizeof what, "table %d seat %d ply %d: legal", t->id, seat, ply);
  same_json_or_note("legal", json_object_get(st, "legal"), want_legal, what);
  json_decref(want_legal);
  /* the log: earlier moves, in order, as the record has them where it names them */
  size_t i;
  json_t *e;
  long long last = -1;
  json_array_foreach(json_object_get(st, "log"), i, e) {
    long long lp = jint(e, "ply");
    if (lp <= last || lp >= ply) fail_msg("table %d: log out of order at ply %d: %s", t->id, ply, dump(st));
    last = lp;
    const char *mv = jstr(e, "move");
    if (mv && strcmp(mv, tr->rec.moves[lp]))
      fail_msg("table %d: the log at ply %d says move %lld was %s; the record: %s", t->id, ply, lp,
               mv, tr->rec.moves[lp]);
    if (tr->to_move[lp] >= 0 && json_integer_value(json_object_get(e, "seat")) != tr->to_move[lp])
      fail_msg("table %d: the log at ply %d gives move %lld to the wrong seat: %s", t->id, ply, lp, dump(e));
    /* where the move went, when the entry says it: as the engine has it, and never with a choice
     * the receiver was not told (PAP-4) */
    for (int f = 0; f < 3; f++) {
      const char *key = (const char *[]){"from", "to", "card"}[f];
      const char *got = jstr(e, key), *want = jstr(tr->said[lp], key);
      if (got && (!want || strcmp(got, want)))
        fail_msg("table %d: the log at ply %d says move %lld's %s is %s; the engine: %s", t->id, ply, lp, key, got,
                 want ? want : "none");
      if (got && strstr(jstr(e, "text"), "when everyone has"))
        fail_msg("table %d: the log at ply %d tells where a hidden choice went: %s", t->id, ply, dump(e));
    }
  }
  if (json_array_size(json_object_get(st, "log")) > 20)
    fail_msg("table %d: a log of more than 20 moves", t->id);
}

/* Replays the record once, checking every state received at its ply on the way. */
static void truth_build(const table *t, const char *text, truth *tr) {
  pf_error err;
  if (pf_record_parse(text, strlen(text), &tr->rec, &err) != 0)
    fail_msg("table %d: the record does not parse: %s", t->id, err.msg);
  assert_string_equal(tr->rec.game->id, t->game);
  assert_int_equal(tr->rec.setup.players, t->players);
  int n = tr->n = tr->rec.nmoves;
  tr->to_move = calloc((size_t)n + 1, sizeof *tr->to_move);
  tr->legal = calloc((size_t)n + 1, sizeof *tr->legal);
  tr->choosing = calloc((size_t)n + 1, sizeof *tr->choosing);
  tr->nchoosing = calloc((size_t)n + 1, sizeof *tr->nchoosing);
  tr->said = calloc((size_t)n + 1, sizeof *tr->said);
  /* first pass: who moves and what is legal at every ply */
  pf_run run;
  if (pf_record_replay(&tr->rec, 0, &run, NULL, &err) != 0) fail_msg("start: %s", err.msg);
  for (int k = 0; k <= n; k++) {
    tr->to_move[k] = pf_run_to_move(&run);
    tr->legal[k] = pf_legal_json(run.game, run.state);
    tr->nchoosing[k] = pf_choosing(run.game, run.state, tr->choosing[k]);
    if (k < n) tr->said[k] = said_json(&run, tr->rec.moves[k]);
    if (k < n && pf_run_play_text(&run, tr->rec.moves[k], &err) != 0)
      fail_msg("table %d: move %d (%s): %s", t->id, k + 1, tr->rec.moves[k], err.msg);
  }
  if (tr->to_move[n] != PF_NOBODY) fail_msg("table %d: the record's game is not over", t->id);
  pf_run_free(&run);
  /* second pass: the states, in ply order */
  size_t ns = json_array_size(t->states);
  json_t **sorted = calloc(ns + 1, sizeof *sorted);
  for (size_t i = 0; i < ns; i++) sorted[i] = json_array_get(t->states, i);
  qsort(sorted, ns, sizeof *sorted, cmp_state_ply);
  if (pf_record_replay(&tr->rec, 0, &run, NULL, &err) != 0) fail_msg("start: %s", err.msg);
  size_t j = 0;
  for (int k = 0; k <= n; k++) {
    for (; j < ns && jint(json_object_get(sorted[j], "state"), "ply") == k; j++)
      check_state_at(t, tr, &run, sorted[j]);
    if (k < n) pf_run_play_text(&run, tr->rec.moves[k], &err);
  }
  if (j < ns) fail_msg("table %d: a state past the end: %s", t->id, dump(sorted[j]));
  pf_run_free(&run);
  free(sorted);
}

static void truth_free(truth *tr) {
  for (int k = 0; k <= tr->n; k++) json_decref(tr->legal[k]), json_decref(tr->said[k]);
  free(tr->said);
  free(tr->to_move);
  free(tr->legal);
  free(tr->choosing);
  free(tr->nchoosing);
  pf_record_free(&tr->rec);
}

/* Every acknowledged move is in the record where the ack said, played by its seat; with
 * exact_acks, each seat's moves are exactly those acknowledged to it. */
static void check_acks(const table *t, const truth *tr) {
  size_t i;
  json_t *a;
  int acked[PF_MAX_PLAYERS] = {0}, played[PF_MAX_PLAYERS] = {0};
  json_array_foreach(t->acks, i, a) {
    int seat = (int)jint(a, "seat"), k = (int)jint(a, "sent_ply");
    const char *mv = jstr(a, "move");
    acked[seat]++;
    if (!json_is_true(json_object_get(a, "sealed"))) {
      /* played at once: the record's move of that seat between the ply it was sent at (its
       * group's first, for a seat of a choosing group) and the ply acknowledged */
      int at = -1, acked_ply = (int)jint(a, "ply");
      for (int p = k; p < acked_ply && p < tr->n && at < 0; p++)
        if (tr->to_move[p] == seat && !strcmp(tr->rec.moves[p], mv)) at = p;
      if (at < 0)
        fail_msg("table %d: acknowledged %s of seat %d sent at ply %d, ack at %d; the record has %s there",
                 t->id, mv, seat, k, acked_ply, k < tr->n ? tr->rec.moves[k] : "nothing");
      continue;
    }
    /* a sealed choice: played in its group, which begins at the ply it was sent at */
    int found = 0;
    for (int g = 0; k + g < tr->n && g < tr->nchoosing[k]; g++)
      found |= tr->to_move[k + g] == seat && !strcmp(tr->rec.moves[k + g], mv);
    if (!found)
      fail_msg("table %d: sealed choice %s of seat %d at ply %d is not in the record's group",
               t->id, mv, seat, k);
  }
  for (int k = 0; k < tr->n; k++)
    if (tr->to_move[k] >= 0) played[tr->to_move[k]]++;
  for (int s = 0; t->exact_acks && s < t->players; s++)
    if (t->seat[s] && acked[s] != played[s])
      fail_msg("table %d: seat %d had %d moves acknowledged and the record has %d", t->id, s,
               acked[s], played[s]);
}

/* The seed is in no message before the game was over. */
static void check_seed(const table *t, const truth *tr) {
  if (!tr->rec.has_seed) fail_msg("table %d: the record has no seed", t->id);
  char seed[32];
  snprintf(seed, sizeof seed, "%llu", (unsigned long long)tr->rec.setup.seed);
  size_t i;
  json_t *m;
  json_array_foreach(t->messages, i, m) {
    if (has_seed_key(m)) fail_msg("table %d: a seed before the end: %s", t->id, dump(m));
    char *s = json_dumps(m, JSON_COMPACT);
    if (strlen(seed) >= 6 && strstr(s, seed))
      fail_msg("table %d: the seed %s is in a message before the end: %s", t->id, seed, s);
    free(s);
  }
}

/* The spectator's last view during the game is what `pilfer replay FILE --until K --view public
 * --json` prints at its ply K. */
static void check_public_replay(const table *t, const char *file) {
  json_t *last = NULL, *e;
  size_t i;
  json_array_foreach(t->states, i, e) {
    json_t *st = json_object_get(e, "state");
    if (jint(e, "seat") < 0 && !strcmp(jstr(st, "status"), "playing")) last = st;
  }
  if (!last) return;
  char until[32], *out = NULL, *err = NULL;
  snprintf(until, sizeof until, "%lld", jint(last, "ply"));
  char *argv[] = {(char *)pilfer, "replay", (char *)file, "--until", until, "--view", "public", "--json", NULL};
  if (proc_run(argv, &out, &err) != 0) fail_msg("pilfer replay %s --until %s --view public: %s", file, until, err);
  json_t *want = json_loads(out, 0, NULL);
  char what[200];
  snprintf(what, sizeof what, "table %d: the spectator's view at ply %s against pilfer replay --view public", t->id, until);
  same_json_or_note("a spectator's view is not `pilfer replay --view public`", json_object_get(last, "view"), want, what);
  json_decref(want);
  free(out);
  free(err);
}

/* After the game: the last state, the record over HTTP, `pilfer replay`, every state against the
 * engine, the acks, the seed, and `review`. */
static void check_game(const table *t) {
  json_t *over = t->over;
  if (!over) fail_msg("table %d: not over", t->id);
  char path[64], file[512];
  snprintf(path, sizeof path, "/api/tables/%d/record", t->id);
  if (!jstr(over, "record") || strcmp(jstr(over, "record"), path))
    fail_msg("table %d: the last state's record is not %s: %s", t->id, path, dump(over));
  json_t *result = json_object_get(over, "result");
  json_t *rec = http_json(&server, path, 200);
  expect_same_json(json_object_get(result, "scores"), json_object_get(json_object_get(rec, "result"), "scores"), "result.scores");
  expect_same_json(json_object_get(result, "winners"), json_object_get(json_object_get(rec, "result"), "winners"), "result.winners");
  char *text = json_dumps(rec, JSON_INDENT(1));
  snprintf(file, sizeof file, "%s/record-%d.json", tmpdir, t->id);
  FILE *f = fopen(file, "w");
  fputs(text, f);
  fclose(f);
  char *err = NULL;
  int st = run_pilfer(NULL, &err, "replay", file, NULL, NULL, NULL);
  if (st != 0) fail_msg("pilfer replay %s: status %d: %s", file, st, err);
  free(err);
  check_public_replay(t, file);
  truth tr;
  truth_build(t, text, &tr);
  check_acks(t, &tr);
  check_seed(t, &tr);
  /* review: the start and the end, with everything revealed */
  json_t *r = request(lobby, NULL, json_pack("{s:s, s:i, s:i}", "type", "review", "table", t->id, "ply", 0), "review");
  assert_int_equal(jint(r, "plies"), tr.n);
  if (tr.n > 0 && (!jstr(r, "next") || strcmp(jstr(r, "next"), tr.rec.moves[0])))
    fail_msg("table %d: review 0's next is not the first move %s: %s", t->id, tr.rec.moves[0], dump(r));
  pf_run run;
  pf_error e;
  pf_record_replay(&tr.rec, 0, &run, NULL, &e);
  json_t *want = pf_view_json(run.game, run.state, t->players, PF_VIEW_ALL);
  expect_same_json(json_object_get(r, "view"), want, "review 0's view");
  json_decref(want);
  json_decref(r);
  pf_run_free(&run);
  r = request(lobby, NULL, json_pack("{s:s, s:i, s:i}", "type", "review", "table", t->id, "ply", tr.n), "review");
  if (json_object_get(r, "next")) fail_msg("table %d: review at the end has a next: %s", t->id, dump(r));
  json_decref(r);
  /* review's "log": every move in words (up to 1000 around the ply asked), as the engine tells it */
  r = request(lobby, NULL, json_pack("{s:s, s:i, s:i, s:b}", "type", "review", "table", t->id, "ply", tr.n, "log", 1),
              "review");
  json_t *log = json_object_get(r, "log");
  int from = tr.n > 1000 ? tr.n - 1000 : 0;
  if ((int)json_array_size(log) != tr.n - from)
    fail_msg("table %d: review's log has %zu moves, not %d: %s", t->id, json_array_size(log), tr.n - from, dump(r));
  size_t i;
  json_t *le;
  json_array_foreach(log, i, le) {
    int k = from + (int)i;
    if (jint(le, "ply") != k || !jstr(le, "move") || strcmp(jstr(le, "move"), tr.rec.moves[k]))
      fail_msg("table %d: review's log entry %zu is not move %d (%s): %s", t->id, i, k, tr.rec.moves[k], dump(le));
    if (tr.to_move[k] >= 0 && json_integer_value(json_object_get(le, "seat")) != tr.to_move[k])
      fail_msg("table %d: review's log gives move %d to the wrong seat: %s", t->id, k, dump(le));
    for (int q = 0; q < 4; q++) {
      const char *key = (const char *[]){"text", "from", "to", "card"}[q];
      const char *got = jstr(le, key), *engine = jstr(tr.said[k], key);
      if ((got == NULL) != (engine == NULL) || (got && strcmp(got, engine)))
        fail_msg("table %d: review's log says move %d's %s is %s; the engine: %s", t->id, k, key, got ? got : "none",
                 engine ? engine : "none");
    }
  }
  json_decref(r);
  truth_free(&tr);
  free(text);
  json_decref(rec);
}

/* ======================================== the tests ======================================== */

static const char *bots[] = {"random", "greedy"};

/* The games: `pilfer games --json`, GET /api/games and the `games` message agree; the rules, a
 * table's summary and an unknown one over HTTP. */
static void games_and_http(void **st) {
  (void)st;
  char *out = NULL;
  assert_int_equal(run_pilfer(&out, NULL, "games", "--json", NULL, NULL, NULL), 0);
  json_t *cli = json_loads(out, 0, NULL);
  free(out);
  json_t *http = http_json(&server, "/api/games", 200);
  expect_same_json(http, cli, "GET /api/games against pilfer games --json");
  json_t *r = request(lobby, NULL, json_pack("{s:s}", "type", "games"), "games");
  expect_same_json(json_object_get(r, "games"), cli, "the games message against pilfer games --json");
  json_decref(r);
  json_decref(http);
  json_decref(cli);
  char *body = NULL;
  assert_int_equal(http_get(HOST, server.port, "/api/rules/thief", WAIT_MS, &body, NULL), 200);
  if (!strstr(body, "THF-1")) fail_msg("GET /api/rules/thief: no THF-1 in %.200s", body);
  free(body);
  json_t *e = http_json(&server, "/api/tables/999999", 404);
  if (!jstr(e, "error")) fail_msg("GET of an unknown table: %s", dump(e));
  json_decref(e);
  /* the web page: its folder may not be where the test runs the server, but it must answer */
  int page = http_get(HOST, server.port, "/", WAIT_MS, &body, NULL);
  if (page != 200 && page != 404) fail_msg("GET /: status %d", page);
  free(body);
  /* a client that names no subprotocol is served too */
  ws_conn *c = ws_connect(HOST, server.port, "/ws", NULL, WAIT_MS);
  if (!c) fail_msg("connect without a subprotocol: %s", ws_last_error());
  const char *list = "{\"type\": \"list\", \"id\": \"a text id\"}";
  ws_send_text(c, list, strlen(list));
  r = ws_recv_json(c, WAIT_MS);
  if (!jstr(r, "type") || strcmp(jstr(r, "type"), "tables") || !jstr(r, "id") ||
      strcmp(jstr(r, "id"), "a text id") || !json_is_array(json_object_get(r, "tables")))
    fail_msg("list with a text id: %s", dump(r));
  json_decref(r);
  ws_close(c, WS_CLOSE_NORMAL);
}

/* Every registered game, all at once: two seats here, bots on the others, a spectator. */
static void every_game(void **st) {
  (void)st;
  table *ts[16];
  int n = 0;
  for (const pf_game *const *gp = pf_games; *gp && n < 15; gp++) {
    const pf_game *g = *gp;
    int players = g->min_players > 3 ? g->min_players : g->max_players < 3 ? g->max_players : 3;
    bool pap = !strcmp(g->id, "point-a-pile");
    /* Point-a-Pile with its expansions too: rock-paper-scissors is sealed as well */
    for (int variant = 0; variant < (pap ? 2 : 1); variant++) {
      json_t *options = variant ? json_pack("{s:b, s:b, s:b, s:b}", "police", 1, "missions", 1,
                                            "shy", 1, "actions", 1)
                                : srv_short_options(g->id);
      const char *seats[PF_MAX_PLAYERS];
      int first = n % players; /* the seats here move around the table from game to game */
      for (int s = 0; s < players; s++)
        seats[s] = s == first || s == (first + 1) % players ? NULL : bots[(n + s) % 2];
      ts[n++] = table_new(g->id, players, options, seats, NULL, true);
    }
  }
  play(ts, n, 150000, NULL);
  for (int i = 0; i < n; i++) {
    check_game(ts[i]);
    table_free(ts[i]);
  }
  expect_no_problems();
}

/* Each game's strong bot comes from the engine (games/registry.c): the games message names it, and
 * a hint asked without a bot is searched by it (the reply names the bot it asked) within the
 * server's budget, and is one of the seat's legal moves. */
static void strong_bots(void **st) {
  (void)st;
  json_t *r = request(lobby, NULL, json_pack("{s:s}", "type", "games"), "games");
  size_t i;
  json_t *v;
  json_array_foreach(json_object_get(r, "games"), i, v) {
    const pf_game *g = pf_game_find(jstr(v, "id"));
    if (!g || !jstr(v, "strong_bot") || strcmp(jstr(v, "strong_bot"), pf_game_strong_bot(g)) != 0)
      fail_msg("the games message's strong bot is not the engine's: %s", dump(v));
  }
  json_decref(r);
  table *ts[16];
  int n = 0;
  for (const pf_game *const *gp = pf_games; *gp && n < 16; gp++) {
    const char *seats[PF_MAX_PLAYERS] = {NULL};
    for (int s = 1; s < (*gp)->min_players || s < 2; s++) seats[s] = "greedy";
    int players = (*gp)->min_players > 2 ? (*gp)->min_players : 2;
    ts[n] = table_new((*gp)->id, players, srv_short_options((*gp)->id), seats, NULL, false);
    ts[n++]->stop_ply = 0; /* stop at the seat's first turn */
  }
  play(ts, n, 60000, NULL);
  for (int k = 0; k < n; k++) {
    player *x = ts[k]->seat[0];
    const char *want = pf_game_strong_bot(pf_game_find(ts[k]->game));
    json_t *h = request(x->ws, x, json_pack("{s:s, s:i, s:s}", "type", "hint", "table", ts[k]->id, "token", x->token), "hint");
    bool found = false;
    json_array_foreach(json_object_get(x->state, "legal"), i, v) found |= jstr(h, "move") && !strcmp(json_string_value(v), jstr(h, "move"));
    if (!found || !jstr(h, "bot") || strcmp(jstr(h, "bot"), want) != 0)
      fail_msg("%s: a hint without a bot: %s; wanted a legal move of %s", ts[k]->game, dump(h), want);
    json_decref(h);
    ts[k]->stop_ply = INT_MAX;
  }
  play(ts, n, 150000, NULL);
  for (int k = 0; k < n; k++) {
    check_game(ts[k]);
    table_free(ts[k]);
  }
  expect_no_problems();
}

/* Sends msg (text) on c and waits for the error it must cause: code `code`, and the request's id
 * when it had one. State pushes meanwhile go to p. */
static void expect_error(ws_conn *c, player *p, const char *text, const char *code, int id) {
  if (ws_send_text(c, text, strlen(text)) != 0) fail_msg("send %s: %s", text, ws_error(c));
  for (;;) {
    json_t *r = ws_recv_json(c, WAIT_MS);
    if (!r) fail_msg("no answer to %.200s: %s", text, ws_error(c));
    if (p && jstr(r, "type") && !strcmp(jstr(r, "type"), "state")) {
      on_message(p, r);
      json_decref(r);
      continue;
    }
    if (!jstr(r, "type") || strcmp(jstr(r, "type"), "error") || !jstr(r, "code") ||
        strcmp(jstr(r, "code"), code))
      fail_msg("%.200s: wanted error %s, got %s", text, code, dump(r));
    if (!jstr(r, "message") || !*jstr(r, "message")) fail_msg("an error without a message: %s", dump(r));
    json_t *rid = json_object_get(r, "id");
    if (id ? json_integer_value(rid) != id : rid && !json_is_null(rid))
      fail_msg("%.200s: the error's id is not the request's: %s", text, dump(r));
    json_decref(r);
    return;
  }
}

/* "{"id": N, BODY}" in text, BODY from a format; returns the new id N. */
static int with_id(char *text, size_t n, const char *fmt, va_list ap) {
  static char body[70000];
  vsnprintf(body, sizeof body, fmt, ap);
  int id = next_id++;
  snprintf(text, n, "{\"id\": %d, %s}", id, body);
  return id;
}

/* The same with a JSON request built from a format; the id is added. */
static void expect_error_msg(ws_conn *c, player *p, const char *code, const char *fmt, ...) {
  static char text[70100];
  va_list ap;
  va_start(ap, fmt);
  int id = with_id(text, sizeof text, fmt, ap);
  va_end(ap);
  expect_error(c, p, text, code, id);
}

/* A 10 MB message: an error too_big, then the connection closes with 1009. */
static void too_big(void) {
  size_t n = 10u << 20;
  char *big = malloc(n);
  memset(big, ' ', n);
  memcpy(big, "{\"type\": \"games\", \"pad\": \"", 26);
  memcpy(big + n - 2, "\"}", 2);
  ws_conn *c = connect_or_fail(&server);
  ws_send_text(c, big, n);
  free(big);
  int64_t deadline = ws_now_ms() + WAIT_MS;
  bool got_error = false;
  while (ws_get_state(c) != WS_CLOSED && ws_now_ms() < deadline) {
    struct pollfd pfd = {ws_fd(c), (short)(POLLIN | (ws_want_write(c) ? POLLOUT : 0)), 0};
    poll(&pfd, 1, 100);
    if (pfd.revents & POLLOUT) ws_flush(c);
    if (pfd.revents & (POLLIN | POLLHUP | POLLERR)) ws_read(c);
    ws_msg m;
    while (ws_next_message(c, &m) == 1) {
      if (m.opcode != WS_OP_TEXT) continue;
      json_t *j = json_loadb((const char *)m.data, m.len, 0, NULL);
      if (!jstr(j, "code") || strcmp(jstr(j, "code"), "too_big"))
        fail_msg("10 MB: wanted error too_big, got %.200s", m.data);
      got_error = true;
      json_decref(j);
    }
  }
  if (!got_error) fail_msg("10 MB: no error too_big (%s)", ws_error(c));
  if (ws_close_code(c) != WS_CLOSE_TOO_BIG)
    fail_msg("10 MB: closed with %d, want 1009 (%s)", ws_close_code(c), ws_error(c));
  ws_drop(c);
}

/* 420 messages at once: the rate limit (100 a second, bursts of 200) answers flood, and 200
 * dropped close the connection with 1008. */
static void flood(void) {
  ws_conn *c = connect_or_fail(&server);
  for (int i = 0; i < 420; i++) {
    char text[100];
    int k = snprintf(text, sizeof text, "{\"type\": \"join\", \"id\": %d, \"table\": 999999999}", i);
    ws_send_text(c, text, (size_t)k);
  }
  int answered = 0, flooded = 0;
  json_t *j;
  while ((j = ws_recv_json(c, WAIT_MS))) {
    const char *code = jstr(j, "code");
    if (code && !strcmp(code, "flood")) flooded++;
    else if (code && !strcmp(code, "unknown_table")) answered++;
    else fail_msg("flood: unexpected %s", dump(j));
    json_decref(j);
  }
  print_message("flood: %d answered, %d flood errors, closed with %d\n", answered, flooded, ws_close_code(c));
  if (flooded < 1 || answered < 200)
    fail_msg("flood: %d answered and %d flood errors of 420 sent at once", answered, flooded);
  if (ws_close_code(c) != WS_CLOSE_POLICY)
    fail_msg("flood: 420 at once should close with 1008 after 200 dropped; closed with %d (%s)",
             ws_close_code(c), ws_error(c));
  ws_drop(c);
}

/* Everything a client should not send, refused one by one; meanwhile another table, paused on
 * its own connection, then plays on to the end, and so does the table abused. */
static void bad_clients(void **st) {
  (void)st;
  const char *other_seats[] = {NULL, "random", "greedy"};
  table *b = table_new("steal-the-pile", 3, NULL, other_seats, NULL, false);
  b->stop_ply = 4;
  play(&b, 1, 60000, NULL);
  const char *a_seats[] = {NULL, NULL};
  table *a = table_new("thief", 2, json_pack("{s:i}", "hands", 1), a_seats, NULL, false);
  /* the seat asked, x, and the other, y */
  player *x = NULL, *y = NULL;
  for (int64_t end = ws_now_ms() + WAIT_MS; !x && ws_now_ms() < end;) {
    for (int s = 0; s < 2; s++)
      if (a->seat[s]->state && json_array_size(json_object_get(a->seat[s]->state, "legal")) > 0)
        x = a->seat[s], y = a->seat[1 - s];
    if (!x) read_player(a->seat[0]), read_player(a->seat[1]);
  }
  assert_non_null(x);
  int ply = (int)jint(x->state, "ply");
  const char *legal = json_string_value(json_array_get(json_object_get(x->state, "legal"), 0));
  json_t *ylegal = json_object_get(y->state, "legal");
  assert_int_equal(json_array_size(ylegal), 0);
  ws_conn *rogue = connect_or_fail(&server);
  /* moves from the wrong seat or token, for the wrong table, illegal or stale */
  expect_error_msg(y->ws, y, "not_your_turn", "\"type\": \"move\", \"table\": %d, \"token\": \"%s\", \"move\": \"%s\", \"ply\": %d", a->id, y->token, legal, ply);
  expect_error_msg(rogue, NULL, "not_your_turn", "\"type\": \"move\", \"table\": %d, \"token\": \"%s\", \"move\": \"%s\", \"ply\": %d", a->id, y->token, legal, ply);
  expect_error_msg(rogue, NULL, "bad_token", "\"type\": \"move\", \"table\": %d, \"token\": \"%s\", \"move\": \"%s\", \"ply\": %d", a->id, "00000000000000000000000000000000", legal, ply);
  expect_error_msg(rogue, NULL, "bad_token", "\"type\": \"move\", \"table\": %d, \"token\": \"%s\", \"move\": \"%s\", \"ply\": %d", b->id, x->token, legal, ply);
  expect_error_msg(rogue, NULL, "unknown_table", "\"type\": \"move\", \"table\": 999999, \"token\": \"%s\", \"move\": \"%s\", \"ply\": %d", x->token, legal, ply);
  expect_error_msg(x->ws, x, "illegal_move", "\"type\": \"move\", \"table\": %d, \"token\": \"%s\", \"move\": \"ZZ>p9\", \"ply\": %d", a->id, x->token, ply);
  /* a move carries the ply it was chosen at (issue 16, 7) */
  expect_error_msg(x->ws, x, "bad_message", "\"type\": \"move\", \"table\": %d, \"token\": \"%s\", \"move\": \"%s\"", a->id, x->token, legal);
  expect_error_msg(x->ws, x, "stale", "\"type\": \"move\", \"table\": %d, \"token\": \"%s\", \"move\": \"%s\", \"ply\": %d", a->id, x->token, legal, ply + 1);
  expect_error_msg(rogue, NULL, "bad_token", "\"type\": \"resume\", \"table\": %d, \"token\": \"%s\"", a->id, "x");
  expect_error_msg(rogue, NULL, "bad_token", "\"type\": \"leave\", \"table\": %d, \"token\": \"%s\"", a->id, "ffffffffffffffffffffffffffffffff");
  expect_error_msg(rogue, NULL, "seat_taken", "\"type\": \"join\", \"table\": %d, \"seat\": 0", a->id);
  expect_error_msg(rogue, NULL, "seat_taken", "\"type\": \"join\", \"table\": %d", a->id);
  expect_error_msg(rogue, NULL, "unknown_table", "\"type\": \"watch\", \"table\": 999999");
  expect_error_msg(rogue, NULL, "not_over", "\"type\": \"review\", \"table\": %d, \"ply\": 0", a->id);
  /* garbage */
  expect_error(rogue, NULL, "hello", "bad_json", 0);
  expect_error(rogue, NULL, "{\"type\": \"games\"", "bad_json", 0);
  expect_error(rogue, NULL, "[1, 2, 3]", "bad_json", 0);
  expect_error(rogue, NULL, "\"games\"", "bad_json", 0);
  expect_error(rogue, NULL, "{\"type\": \"games\"} {\"type\": \"games\"}", "bad_json", 0);
  expect_error_msg(rogue, NULL, "bad_message", "\"type\": \"frobnicate\"");
  expect_error_msg(rogue, NULL, "bad_message", "\"kind\": \"games\"");
  expect_error_msg(rogue, NULL, "bad_message", "\"type\": 7");
  expect_error_msg(rogue, NULL, "bad_message", "\"type\": \"move\"");
  expect_error_msg(rogue, NULL, "bad_message", "\"type\": \"move\", \"table\": %d, \"token\": \"%s\"", a->id, x->token);
  expect_error_msg(rogue, NULL, "bad_message", "\"type\": \"join\", \"table\": \"seven\"");
  expect_error_msg(rogue, NULL, "bad_message", "\"type\": \"watch\"");
  expect_error_msg(rogue, NULL, "bad_game", "\"type\": \"create\", \"game\": \"chess\", \"players\": 2");
  expect_error_msg(rogue, NULL, "bad_options", "\"type\": \"create\", \"game\": \"thief\", \"players\": 2, \"options\": {\"depth\": 3}");
  expect_error_msg(rogue, NULL, "bad_options", "\"type\": \"create\", \"game\": \"thief\", \"players\": 2, \"options\": {\"hands\": -1}");
  expect_error_msg(rogue, NULL, "bad_seat_spec", "\"type\": \"create\", \"game\": \"thief\", \"players\": 2, \"seats\": [\"open\", \"deep-blue\"]");
  expect_error_msg(rogue, NULL, "bad_seat_spec", "\"type\": \"create\", \"game\": \"thief\", \"players\": 2, \"seats\": [\"open\", \"ismcts:depth=3\"]");
  /* a broken frame: a continuation with no message (close, 1002, whatever the server says) */
  ws_conn *broken = connect_or_fail(&server);
  ws_send_frame(broken, WS_OP_CONT, true, "{}", 2);
  json_t *j = ws_recv_json(broken, WAIT_MS);
  if (j || ws_get_state(broken) != WS_CLOSED)
    fail_msg("a continuation frame with no message: got %s, not a close", dump(j));
  print_message("a broken frame: closed with %d\n", ws_close_code(broken));
  ws_drop(broken);
  too_big();
  flood();
  /* nothing changed: the table is where it was, and x's move still goes */
  char path[64];
  snprintf(path, sizeof path, "/api/tables/%d", a->id);
  json_t *sum = http_json(&server, path, 200);
  assert_int_equal(jint(sum, "ply"), ply);
  assert_string_equal(jstr(sum, "status"), "playing");
  json_decref(sum);
  snprintf(path, sizeof path, "/api/tables/%d/record", a->id);
  json_decref(http_json(&server, path, 409));
  ws_close(rogue, WS_CLOSE_NORMAL);
  b->stop_ply = INT_MAX;
  table *both[2] = {a, b};
  play(both, 2, 120000, NULL);
  check_game(a);
  check_game(b);
  table_free(a);
  table_free(b);
  expect_no_problems();
}

/* A seat's connection drops while it is asked; a new connection resumes with the token and gets
 * the same view back, then the game goes on. */
static void reconnect(void **st) {
  (void)st;
  const char *seats[] = {NULL, "greedy", NULL};
  table *t = table_new("four-card-thief", 3, json_pack("{s:i}", "hands", 1), seats, NULL, true);
  t->stop_ply = 5;
  play(&t, 1, 60000, NULL);
  player *x = NULL;
  for (int s = 0; s < 3; s++)
    if (t->seat[s] && json_array_size(json_object_get(t->seat[s]->state, "legal")) > 0) x = t->seat[s];
  assert_non_null(x);
  json_t *before = json_incref(x->state);
  ws_drop(x->ws);
  x->ws = NULL;
  /* the summary says the seat is gone */
  char path[64];
  snprintf(path, sizeof path, "/api/tables/%d", t->id);
  bool gone = false;
  for (int64_t end = ws_now_ms() + 5000; !gone && ws_now_ms() < end; usleep(50000)) {
    json_t *sum = http_json(&server, path, 200);
    json_t *seat = json_array_get(json_object_get(sum, "seats"), (size_t)x->seat);
    gone = json_is_false(json_object_get(seat, "connected"));
    json_decref(sum);
  }
  if (!gone) fail_msg("table %d: seat %d still connected in the summary after its drop", t->id, x->seat);
  ws_conn *c = connect_or_fail(&server);
  expect_error_msg(c, NULL, "bad_token", "\"type\": \"resume\", \"table\": %d, \"token\": \"%s\"", t->id, "0123456789abcdef0123456789abcdef");
  ws_close(c, WS_CLOSE_NORMAL);
  player_reconnect(x, &server);
  expect_same_json(json_object_get(x->state, "view"), json_object_get(before, "view"), "the view after resume");
  expect_same_json(json_object_get(x->state, "legal"), json_object_get(before, "legal"), "legal after resume");
  assert_int_equal(jint(x->state, "ply"), jint(before, "ply"));
  json_decref(before);
  /* a hint for the seat: one of its legal moves */
  json_t *h = request(x->ws, x, json_pack("{s:s, s:i, s:s, s:s}", "type", "hint", "table", t->id, "token", x->token, "bot", "random"), "hint");
  bool found = false;
  size_t i;
  json_t *v;
  json_array_foreach(json_object_get(x->state, "legal"), i, v) found |= jstr(h, "move") && !strcmp(json_string_value(v), jstr(h, "move"));
  if (!found || jint(h, "ply") != jint(x->state, "ply")) fail_msg("hint: %s is not a legal move now", dump(h));
  json_decref(h);
  t->stop_ply = INT_MAX;
  play(&t, 1, 60000, NULL);
  check_game(t);
  table_free(t);
  expect_no_problems();
}

/* leave: before the start the seat opens again and its token dies; during the game a bot plays
 * the seat to the end. */
static void leave(void **st) {
  (void)st;
  /* before the start: a table with one of its two seats taken */
  const char *create = "{\"type\": \"create\", \"game\": \"thief\", \"players\": 2}";
  ws_send_text(lobby, create, strlen(create));
  json_t *r = ws_recv_json(lobby, WAIT_MS);
  int id = (int)jint(r, "table");
  json_decref(r);
  ws_conn *c = connect_or_fail(&server);
  r = request(c, NULL, json_pack("{s:s, s:i, s:i}", "type", "join", "table", id, "seat", 0), "joined");
  char old[80];
  snprintf(old, sizeof old, "%s", jstr(r, "token"));
  json_decref(r);
  json_decref(request(c, NULL, json_pack("{s:s, s:i, s:s}", "type", "leave", "table", id, "token", old), "left"));
  char path[64];
  snprintf(path, sizeof path, "/api/tables/%d", id);
  json_t *sum = http_json(&server, path, 200);
  json_t *entry = json_array_get(json_object_get(sum, "seats"), 0);
  if (strcmp(jstr(entry, "kind"), "open") || strcmp(jstr(sum, "status"), "waiting"))
    fail_msg("after a leave before the start: %s", dump(sum));
  json_decref(sum);
  expect_error_msg(c, NULL, "bad_token", "\"type\": \"resume\", \"table\": %d, \"token\": \"%s\"", id, old);
  r = request(c, NULL, json_pack("{s:s, s:i, s:i}", "type", "join", "table", id, "seat", 0), "joined");
  if (!strcmp(old, jstr(r, "token"))) fail_msg("a seat joined again got its old token");
  json_decref(r);
  ws_close(c, WS_CLOSE_NORMAL);
  /* during the game: the bot (greedy, as the table has no takeover) plays the seat to the end */
  const char *seats[] = {NULL, NULL};
  table *t = table_new("thief", 2, json_pack("{s:i}", "hands", 1), seats, NULL, true);
  player *p = t->seat[1];
  t->stop_ply = 3;
  play(&t, 1, 60000, NULL);
  json_decref(request(p->ws, p, json_pack("{s:s, s:i, s:s}", "type", "leave", "table", t->id, "token", p->token), "left"));
  p->silent = true;
  t->exact_acks = false;
  snprintf(path, sizeof path, "/api/tables/%d", t->id);
  sum = http_json(&server, path, 200);
  entry = json_array_get(json_object_get(sum, "seats"), 1);
  if (strcmp(jstr(entry, "kind"), "bot")) fail_msg("after a leave during the game: %s", dump(sum));
  json_decref(sum);
  expect_error_msg(p->ws, p, "bad_token", "\"type\": \"move\", \"table\": %d, \"token\": \"%s\", \"move\": \"pass\"", t->id, p->token);
  ws_close(p->ws, WS_CLOSE_NORMAL); /* no longer bound to the table */
  p->ws = NULL;
  t->stop_ply = INT_MAX;
  play(&t, 1, 60000, NULL);
  check_game(t);
  table_free(t);
  expect_no_problems();
}

static bool taken_over(table **ts, int n) {
  (void)n;
  return ts[0]->seat[1]->taken_ms != 0 || ts[0]->over;
}

/* A seat that stays silent when asked is played by the takeover bot after `after` seconds (10, the
 * least); it comes back with resume and plays on. */
static void takeover(void **st) {
  (void)st;
  const char *seats[] = {NULL, NULL};
  table *t = table_new("thief", 2, json_pack("{s:i}", "hands", 1), seats,
                       json_pack("{s:i, s:s}", "after", 10, "bot", "random"), false);
  t->exact_acks = false;
  t->seat[1]->silent = true;
  play(&t, 1, 60000, taken_over);
  player *p = t->seat[1];
  if (!p->taken_ms) fail_msg("table %d: the game ended and seat 1 was never asked", t->id);
  int64_t waited = p->taken_ms - p->asked_ms;
  print_message("takeover after %.1f s\n", (double)waited / 1000);
  if (waited < 9500 || waited > 20000) fail_msg("takeover after %lld ms, not 10 s", (long long)waited);
  p->silent = false;
  player_reconnect(p, &server);
  play(&t, 1, 60000, NULL);
  check_game(t);
  table_free(t);
  expect_no_problems();
}

/* ---- recovery ---- */

static int acks_seen;

static bool enough_acks(table **ts, int n) {
  int k = 0;
  for (int i = 0; i < n; i++) k += (int)json_array_size(ts[i]->acks);
  return k >= acks_seen;
}

/* Several games, the server killed with SIGKILL in the middle of them (moves in flight), and
 * restarted on the same database: every seat resumes where every acknowledged move has been
 * played (its sealed choice still in), and the games finish with records that hold them. */
static void recovery(void **st) {
  (void)st;
  const char *g[] = {"steal-the-pile", "thief", "point-a-pile", "piles", "skip-bo-junior"};
  table *ts[5];
  for (int i = 0; i < 5; i++) {
    int players = !strcmp(g[i], "piles") ? 4 : 3;
    const char *seats[] = {NULL, NULL, "greedy", "random"};
    ts[i] = table_new(g[i], players, srv_short_options(g[i]), seats, NULL, i % 2 == 0);
    ts[i]->exact_acks = false; /* a move written but not acknowledged before the kill */
  }
  acks_seen = 25;
  play(ts, 5, 60000, enough_acks);
  /* one server per database: a second one on it is refused */
  srv second = {0};
  char log2[600];
  snprintf(log2, sizeof log2, "%s/second.log", tmpdir);
  if (srv_start(&second, pilfer, server.db, log2, 5000) == 0) {
    srv_stop(&second, SIGKILL, 1000);
    fail_msg("a second server on the same database was not refused");
  }
  if (!WIFEXITED(second.status) || WEXITSTATUS(second.status) == 0)
    fail_msg("a second server on the same database: %s", second.error);
  int inflight = 0;
  for (int i = 0; i < 5; i++)
    for (int s = 0; s < ts[i]->players; s++) inflight += ts[i]->seat[s] && ts[i]->seat[s]->inflight_id;
  srv_stop(&server, SIGKILL, 5000);
  print_message("killed the server with %d moves in flight\n", inflight);
  if (srv_start(&server, pilfer, server.db, server.log, WAIT_MS) != 0)
    fail_msg("the restart failed: %s", server.error);
  for (int i = 0; i < nothers; i++) ws_drop(others[i]);
  nothers = 0;
  lobby = others[nothers++] = connect_or_fail(&server);
  for (int i = 0; i < 5; i++) {
    table *t = ts[i];
    int max_ply = 0;
    size_t k;
    json_t *a;
    json_array_foreach(t->acks, k, a) if (!json_is_true(json_object_get(a, "sealed")) && jint(a, "ply") > max_ply) max_ply = (int)jint(a, "ply");
    if (t->watch) player_reconnect(t->watch, &server);
    for (int s = 0; s < t->players; s++) {
      player *p = t->seat[s];
      if (!p) continue;
      player_reconnect(p, &server);
      int ply = (int)jint(p->state, "ply");
      if (ply < max_ply) fail_msg("table %d: ply %d after the restart; %d moves were acknowledged", t->id, ply, max_ply);
      json_array_foreach(t->acks, k, a) {
        if (!json_is_true(json_object_get(a, "sealed")) || jint(a, "seat") != s || jint(a, "sent_ply") != ply) continue;
        /* a sealed choice acknowledged in the group still open: it is still this seat's */
        if (!jstr(p->state, "mine") || strcmp(jstr(p->state, "mine"), jstr(a, "move")) || !in_array(json_object_get(p->state, "sealed"), s))
          fail_msg("table %d seat %d: the sealed choice %s is lost after the restart: %s", t->id, s, jstr(a, "move"), dump(p->state));
      }
    }
  }
  play(ts, 5, 120000, NULL);
  for (int i = 0; i < 5; i++) {
    check_game(ts[i]);
    table_free(ts[i]);
  }
  expect_no_problems();
}

/* ---- online backup ---- */

/* The highest ply an acknowledged move (not a sealed choice) of table t reached. */
static int acked_ply(const table *t) {
  int max_ply = 0;
  size_t k;
  json_t *a;
  json_array_foreach(t->acks, k, a) if (!json_is_true(json_object_get(a, "sealed")) && jint(a, "ply") > max_ply) max_ply = (int)jint(a, "ply");
  return max_ply;
}

/* `pilfer backup` in the middle of several games (issue 25): the server plays on while the copy
 * is taken and after it, and a second server started on the copy holds every table at or past
 * every move acknowledged before the backup began. */
static void online_backup(void **st) {
  (void)st;
  const char *g[] = {"steal-the-pile", "thief", "skip-bo-junior"};
  table *ts[3];
  for (int i = 0; i < 3; i++) {
    const char *seats[] = {NULL, NULL, "random"};
    ts[i] = table_new(g[i], 3, srv_short_options(g[i]), seats, NULL, false);
  }
  int acks = 0;
  for (int i = 0; i < 3; i++) acks += (int)json_array_size(ts[i]->acks);
  acks_seen = acks + 12;
  play(ts, 3, 60000, enough_acks);
  int before[3];
  for (int i = 0; i < 3; i++) before[i] = acked_ply(ts[i]);
  char copy[600], log2[600];
  snprintf(copy, sizeof copy, "%s/backup.db", tmpdir);
  snprintf(log2, sizeof log2, "%s/restored.log", tmpdir);
  char *argv[] = {(char *)pilfer, "backup", "--db", server.db, copy, NULL};
  char *out = NULL, *err = NULL;
  int status = proc_run(argv, &out, &err);
  if (status != 0 || !strstr(out, "pilfer backup: ")) fail_msg("pilfer backup: status %d: %s%s", status, out, err);
  print_message("%s", out);
  free(out);
  free(err);
  if (!srv_alive(&server)) fail_msg("the server died during the backup");
  struct stat sb;
  if (stat(copy, &sb) != 0 || (sb.st_mode & 0777) != 0600)
    fail_msg("the backup holds every seat's token, yet its mode is %o, not 600", (unsigned)(sb.st_mode & 0777));
  /* the server plays on */
  acks_seen += 6;
  play(ts, 3, 60000, enough_acks);
  /* the copy, served by a server of its own */
  srv restored = {0};
  if (srv_start(&restored, pilfer, copy, log2, WAIT_MS) != 0) fail_msg("a server on the backup: %s", restored.error);
  for (int i = 0; i < 3; i++) {
    char path[64];
    snprintf(path, sizeof path, "/api/tables/%d", ts[i]->id);
    json_t *summary = http_json(&restored, path, 200);
    int ply = (int)jint(summary, "ply");
    if (ply < before[i])
      fail_msg("table %d (%s): ply %d in the backup; %d was acknowledged before it: %s", ts[i]->id, g[i], ply,
               before[i], dump(summary));
    json_decref(summary);
  }
  srv_stop(&restored, SIGTERM, 5000);
  play(ts, 3, 120000, NULL);
  for (int i = 0; i < 3; i++) {
    check_game(ts[i]);
    table_free(ts[i]);
  }
  expect_no_problems();
}

/* Connections that close without a request, or in the middle of one, or of an upgrade: the
 * server must live on (port scanners and health checks do this). Last, as it may kill it. */
static void idle_connections(void **st) {
  (void)st;
  const char *sends[] = {"", "GET /api/ga", "GET /ws HTTP/1.1\r\nUpgrade: websocket\r\n", "\x81"};
  for (size_t i = 0; i < sizeof sends / sizeof *sends; i++) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)server.port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    if (*sends[i]) assert_true(send(fd, sends[i], strlen(sends[i]), MSG_NOSIGNAL) > 0);
    close(fd);
    usleep(100000);
    if (!srv_alive(&server))
      fail_msg("the server died (status 0x%x) after a connection that sent \"%s\" and closed",
               server.status, sends[i]);
  }
  json_decref(request(lobby, NULL, json_pack("{s:s}", "type", "list"), "tables"));
}

/* ============================ issue 16: what hostile clients send ============================ */

/* Sends "{"id": N, BODY}" (BODY from fmt) on c and returns the reply with that id; every other
 * message meanwhile is dropped. */
static json_t *ask(ws_conn *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static json_t *ask(ws_conn *c, const char *fmt, ...) {
  static char text[70100];
  va_list ap;
  va_start(ap, fmt);
  int id = with_id(text, sizeof text, fmt, ap);
  va_end(ap);
  if (ws_send_text(c, text, strlen(text)) != 0) fail_msg("send %.200s: %s", text, ws_error(c));
  for (;;) {
    json_t *r = ws_recv_json(c, WAIT_MS);
    if (!r) fail_msg("no answer to %.200s: %s", text, ws_error(c));
    if (json_integer_value(json_object_get(r, "id")) == id) return r;
    json_decref(r);
  }
}

/* r is an error with this code (taken). */
static void want_code(json_t *r, const char *code, const char *what) {
  if (!jstr(r, "type") || strcmp(jstr(r, "type"), "error") || !jstr(r, "code") || strcmp(jstr(r, "code"), code))
    fail_msg("%s: wanted error %s, got %s", what, code, dump(r));
  json_decref(r);
}

static void want_type(json_t *r, const char *type, const char *what) {
  if (!jstr(r, "type") || strcmp(jstr(r, "type"), type)) fail_msg("%s: wanted %s, got %s", what, type, dump(r));
}

static void alive_or_fail(srv *s, const char *after) {
  char *body = NULL;
  if (!srv_alive(s) || http_get(HOST, s->port, "/api/games", WAIT_MS, &body, NULL) != 200)
    fail_msg("the server died after %s (status 0x%x)", after, s->status);
  free(body);
}

/* Waits for a state of table `table` asking this connection (legal moves not empty); NULL at
 * the end of the game or after ms. */
static json_t *wait_asked(ws_conn *c, long long tid, int ms) {
  for (int64_t end = ws_now_ms() + ms; ws_now_ms() < end;) {
    json_t *m = ws_recv_json(c, 200);
    if (!m) continue;
    if (jstr(m, "type") && !strcmp(jstr(m, "type"), "state") && jint(m, "table") == tid) {
      if (!strcmp(jstr(m, "status"), "over")) {
        json_decref(m);
        return NULL;
      }
      if (json_array_size(json_object_get(m, "legal"))) return m;
    }
    json_decref(m);
  }
  return NULL;
}

/* Finding 1 of issue 16: bindings past the limit (a use after free). 33 tables watched, the 33rd
 * refused, and again and again; then the connection goes and the 33rd table plays on. */
static void bindings(void **st) {
  (void)st;
  ws_conn *c = connect_or_fail(&server);
  long long ids[MAX_TABLES_WATCHED + 1];
  for (int i = 0; i <= MAX_TABLES_WATCHED; i++) {
    json_t *r = ask(c, "\"type\": \"create\", \"game\": \"steal-the-pile\", \"players\": 2, \"seats\": [\"open\", \"random\"]");
    want_type(r, "created", "create");
    ids[i] = jint(r, "table");
    json_decref(r);
  }
  for (int i = 0; i < MAX_TABLES_WATCHED; i++) {
    json_t *r = ask(c, "\"type\": \"watch\", \"table\": %lld", ids[i]);
    want_type(r, "watching", "watch");
    json_decref(r);
  }
  /* what the server did wrong is noted and checked at the end, after what crashed it */
  char wrong[600] = "";
  for (int k = 0; k < 50; k++) {
    json_t *r = ask(c, "\"type\": \"watch\", \"table\": %lld", ids[MAX_TABLES_WATCHED]);
    if (!*wrong && (!jstr(r, "code") || strcmp(jstr(r, "code"), "too_many_tables")))
      snprintf(wrong, sizeof wrong, "a 33rd table watched: wanted error too_many_tables, got %s", dump(r));
    json_decref(r);
  }
  ws_conn *p = connect_or_fail(&server);
  json_t *r = ask(p, "\"type\": \"join\", \"table\": %lld, \"seat\": 0", ids[MAX_TABLES_WATCHED]);
  want_type(r, "joined", "join");
  char token[40];
  snprintf(token, sizeof token, "%s", jstr(r, "token"));
  json_decref(r);
  for (json_t *m; (m = ws_recv_json(c, 500));) { /* c was refused that table: none of its states */
    if (!*wrong && jstr(m, "type") && !strcmp(jstr(m, "type"), "state") && jint(m, "table") == ids[MAX_TABLES_WATCHED])
      snprintf(wrong, sizeof wrong, "a connection refused a table was sent its state: %s", dump(m));
    json_decref(m);
  }
  ws_close(c, WS_CLOSE_NORMAL);
  json_t *s = wait_asked(p, ids[MAX_TABLES_WATCHED], WAIT_MS);
  if (!s) fail_msg("table %lld never asked its player", ids[MAX_TABLES_WATCHED]);
  r = ask(p, "\"type\": \"move\", \"table\": %lld, \"token\": \"%s\", \"move\": \"%s\", \"ply\": %lld",
          ids[MAX_TABLES_WATCHED], token, json_string_value(json_array_get(json_object_get(s, "legal"), 0)), jint(s, "ply"));
  want_type(r, "ack", "a move after the watcher left");
  json_decref(r);
  json_decref(s);
  json_decref(ask(p, "\"type\": \"join\", \"table\": %lld", ids[0])); /* a table the gone connection watched */
  usleep(200000);
  alive_or_fail(&server, "a connection that watched 33 tables left");
  if (*wrong) fail_msg("%s", wrong);
  ws_close(p, WS_CLOSE_NORMAL);
}

/* Finding 2: client text with multibyte characters cut into an error reply (an abort). */
static void bad_utf8(void **st) {
  (void)st;
  ws_conn *p = connect_or_fail(&server);
  char text[2000] = "{\"type\":\"a";
  for (int i = 0; i < 30; i++) strcat(text, "\xc3\xa9");
  strcat(text, "\"}");
  ws_send_text(p, text, strlen(text));
  for (json_t *m; (m = ws_recv_json(p, WAIT_MS));) {
    bool err = jstr(m, "code") != NULL;
    if (err && strcmp(jstr(m, "code"), "bad_message")) fail_msg("a type of 30 é: %s", dump(m));
    json_decref(m);
    if (err) break;
  }
  char game[1000] = "a";
  for (int i = 0; i < 400; i++) strcat(game, "\xc3\xa9");
  want_code(ask(p, "\"type\": \"create\", \"game\": \"%s\"", game), "bad_game", "a game of 400 é");
  alive_or_fail(&server, "error replies cut inside a character");
  ws_close(p, WS_CLOSE_NORMAL);
}

/* Finding 3: an over-long takeover bot is refused in words (its error text was unset). */
static void long_bot(void **st) {
  (void)st;
  ws_conn *p = connect_or_fail(&server);
  char bot[200];
  memset(bot, 'g', 150);
  bot[150] = 0;
  json_t *r = ask(p, "\"type\": \"create\", \"game\": \"thief\", \"takeover\": {\"after\": 60, \"bot\": \"%s\"}", bot);
  if (!jstr(r, "message") || !strstr(jstr(r, "message"), "at most")) fail_msg("a 150-character takeover bot: %s", dump(r));
  want_code(r, "bad_seat_spec", "a 150-character takeover bot");
  ws_close(p, WS_CLOSE_NORMAL);
}

/* Finding 7: Skip-Bo Junior, where a seat moves several times in a row: a move sent with the ply
 * of the seat's last move is stale, not played. */
static void stale_ply(void **st) {
  (void)st;
  ws_conn *p = connect_or_fail(&server);
  char token[40];
  json_t *r = ask(p, "\"type\": \"create\", \"game\": \"skip-bo-junior\", \"players\": 2, \"seats\": [\"open\", \"random\"]");
  long long t = jint(r, "table");
  json_decref(r);
  r = ask(p, "\"type\": \"join\", \"table\": %lld, \"seat\": 0", t);
  snprintf(token, sizeof token, "%s", jstr(r, "token"));
  json_decref(r);
  bool seen = false;
  for (int moves = 0; moves < 400 && !seen; moves++) {
    json_t *a = wait_asked(p, t, WAIT_MS);
    if (!a) break;
    long long ply = jint(a, "ply");
    r = ask(p, "\"type\": \"move\", \"table\": %lld, \"token\": \"%s\", \"move\": \"%s\", \"ply\": %lld", t, token,
            json_string_value(json_array_get(json_object_get(a, "legal"), 0)), ply);
    want_type(r, "ack", "a Skip-Bo Junior move");
    json_decref(r);
    json_decref(a);
    json_t *b = wait_asked(p, t, WAIT_MS);
    if (!b) break;
    if (jint(b, "ply") == ply + 1) { /* asked again at once, still in its turn: the old ply is stale */
      seen = true;
      want_code(ask(p, "\"type\": \"move\", \"table\": %lld, \"token\": \"%s\", \"move\": \"%s\", \"ply\": %lld", t,
                    token, json_string_value(json_array_get(json_object_get(b, "legal"), 0)), ply),
                "stale", "a move with the ply of the seat's previous move");
    }
    /* answer b so the game goes on */
    r = ask(p, "\"type\": \"move\", \"table\": %lld, \"token\": \"%s\", \"move\": \"%s\", \"ply\": %lld", t, token,
            json_string_value(json_array_get(json_object_get(b, "legal"), 0)), jint(b, "ply"));
    json_decref(r);
    json_decref(b);
  }
  if (!seen) fail_msg("Skip-Bo Junior never asked seat 0 twice in a row");
  ws_close(p, WS_CLOSE_NORMAL);
}

/* A thief table of seat 0 open (joined by c, its token in token) and a random bot, once it asks
 * seat 0 in a position of two moves or more. (With one legal move a search answers at once, so a
 * hint there may be over before the next message comes: the busy check below needs a real search.
 * A table asking for a forced move is left to its bot and another is made, at most 20 times.) */
static long long joined_table(ws_conn *c, char token[40]) {
  for (int tries = 0; tries < 20; tries++) {
    json_t *r = ask(c, "\"type\": \"create\", \"game\": \"thief\", \"players\": 2, \"seats\": [\"open\", \"random\"]");
    long long t = jint(r, "table");
    json_decref(r);
    r = ask(c, "\"type\": \"join\", \"table\": %lld, \"seat\": 0", t);
    snprintf(token, 40, "%s", jstr(r, "token"));
    json_decref(r);
    json_t *a = wait_asked(c, t, WAIT_MS);
    if (!a) fail_msg("thief never asked seat 0");
    size_t nlegal = json_array_size(json_object_get(a, "legal"));
    json_decref(a);
    if (nlegal >= 2) return t;
    json_decref(ask(c, "\"type\": \"leave\", \"table\": %lld, \"token\": \"%s\"", t, token));
  }
  fail_msg("20 thief tables asked seat 0 for a forced move");
  return -1;
}

/* Waits until a table of two random bots, created now, is over: false after 10 s. */
static bool bots_table_ends(void) {
  int64_t t0 = ws_now_ms();
  json_t *r = ask(lobby, "\"type\": \"create\", \"game\": \"steal-the-pile\", \"players\": 2, \"seats\": [\"random\", \"random\"]");
  char path[64];
  snprintf(path, sizeof path, "/api/tables/%lld", jint(r, "table"));
  json_decref(r);
  for (;;) {
    json_t *sum = http_json(&server, path, 200);
    bool over = !strcmp(jstr(sum, "status"), "over");
    json_decref(sum);
    if (over) break;
    if (ws_now_ms() - t0 > 10000) return false;
    usleep(50000);
  }
  print_message("a table of bots ended in %lld ms while hints were asked\n", (long long)(ws_now_ms() - t0));
  return true;
}

/* Finding 4: hints of huge budgets, from two connections at once, do not starve a table of bots
 * (they are refused); one hint at a time per connection; bots over budget are refused. */
static void hints(void **st) {
  (void)st;
  ws_conn *p = connect_or_fail(&server), *q = connect_or_fail(&server);
  char token[40], token2[40], msg[300];
  long long t = joined_table(p, token), t2 = joined_table(q, token2);
  /* two hints of 10^8 iterations, on every worker there is of a 2-core machine */
  int n = snprintf(msg, sizeof msg, "{\"type\": \"hint\", \"id\": 1, \"table\": %lld, \"token\": \"%s\", \"bot\": \"ismcts:iters=100000000\"}", t, token);
  ws_send_text(p, msg, (size_t)n);
  n = snprintf(msg, sizeof msg, "{\"type\": \"hint\", \"id\": 1, \"table\": %lld, \"token\": \"%s\", \"bot\": \"ismcts:iters=100000000\"}", t2, token2);
  ws_send_text(q, msg, (size_t)n);
  if (!bots_table_ends()) fail_msg("a table of two random bots did not end in 10 s after two hints of 10^8 iterations");
  for (int i = 0; i < 2; i++) {
    json_t *r;
    while ((r = ws_recv_json(i ? q : p, WAIT_MS)) && json_integer_value(json_object_get(r, "id")) != 1) json_decref(r);
    if (!r) fail_msg("no answer to a hint of 10^8 iterations");
    want_code(r, "budget", "a hint of 10^8 iterations");
  }
  want_code(ask(p, "\"type\": \"create\", \"game\": \"thief\", \"players\": 2, \"seats\": [\"open\", \"ismcts:iters=100000000\"]"),
            "budget", "a bot of 10^8 iterations");
  want_code(ask(p, "\"type\": \"create\", \"game\": \"thief\", \"players\": 2, \"seats\": [\"open\", \"ismcts:time=3600000\"]"),
            "budget", "a bot of an hour");
  /* two at once: the second is busy; a table of bots plays meanwhile */
  n = snprintf(msg, sizeof msg, "{\"type\": \"hint\", \"id\": 1, \"table\": %lld, \"token\": \"%s\", \"bot\": \"ismcts:iters=100000\"}", t, token);
  ws_send_text(p, msg, (size_t)n);
  want_code(ask(p, "\"type\": \"hint\", \"table\": %lld, \"token\": \"%s\", \"bot\": \"ismcts:iters=100000\"", t, token),
            "busy", "a second hint at once");
  if (!bots_table_ends()) fail_msg("a table of two random bots did not end in 10 s while a hint ran");
  ws_close(p, WS_CLOSE_NORMAL); /* the asker goes before its hint ends */
  ws_close(q, WS_CLOSE_NORMAL);
  alive_or_fail(&server, "a hint's asker left");
}

/* Sends one raw HTTP request; the status of the answer. */
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

/* Reads c for ms, answering pings: false when it was closed meanwhile. */
static bool keep_reading(ws_conn *c, int ms) {
  for (int64_t end = ws_now_ms() + ms; ws_now_ms() < end;) {
    json_t *m = ws_recv_json(c, 100);
    json_decref(m);
    if (ws_get_state(c) == WS_CLOSED) return false;
  }
  return true;
}

/* Arguments of `pilfer serve` for a server of a test's own: as they are, or without their
 * "--limit NAME=N" pairs when PILFER has no --limit (main before issue 16: run against it, the
 * tests of the limits fail on what the server does, not on its refusing to start). */
static bool has_limits = true;

static const char *const *serve_args(const char *const *args) {
  if (has_limits || !args) return args;
  size_t n = 0;
  while (args[n]) n++;
  const char **out = calloc(n + 1, sizeof *out); /* lives as long as the server may restart */
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (!strcmp(args[i], "--limit") && i + 1 < n)
      i++;
    else
      out[k++] = args[i];
  }
  return out;
}

/* Starts a server of the test's own on NAME.db and NAME.log in the temporary folder. */
static void own_server(srv *s, const char *name, const char *const *args) {
  char db[400], log[400];
  snprintf(db, sizeof db, "%s/%s.db", tmpdir, name);
  snprintf(log, sizeof log, "%s/%s.log", tmpdir, name);
  *s = (srv){.args = serve_args(args)};
  if (srv_start(s, pilfer, db, log, WAIT_MS) != 0) fail_msg("the server did not start: %s", s->error);
}

static void stop_own(srv *s) {
  int status = srv_stop(s, SIGTERM, 20000);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) fail_msg("the server did not stop cleanly: 0x%x", status);
}

/* Finding 8, HTTP: files inside the web folder only (no folder, no link out of it), GET and
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

/* Finding 8, the database deleted (and its -wal) under the server: nothing is acknowledged that a
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

/* Finding 5: idle WebSockets closed (one that answers pings stays), connections per address. */
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

/* Finding 6, tables: waiting tables per address (another client is another address) and in
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

/* Finding 6, queues: a watcher that never reads is closed when queue_kib wait for it; several
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

/* A random message: one of the protocol's, with random fields, then perhaps mutated (bytes
 * flipped, cut, long or multibyte strings, invalid UTF-8). Never a real seat's token. */
static int random_message(char *out, size_t n, long long tid) {
  static const char *const TYPES[] = {"games", "list", "create", "join", "resume", "watch", "move", "leave", "hint", "review", "x"};
  static const char *const VALUES[] = {"0", "-1", "1e308", "99999999999999999999", "\"\"", "null", "[]", "{}", "\"open\"",
                                       "\"ismcts:iters=100000000\"", "\"random\"", "\"\xc3\xa9\xc3\xa9\"", "true", "\"steal-the-pile\""};
  static const char *const KEYS[] = {"table", "seat", "token", "move", "ply", "game", "players", "seats", "bot", "options", "takeover"};
  int k = snprintf(out, n, "{\"type\": \"%s\", \"table\": %lld", TYPES[rnd(11)], rnd(3) ? tid : (long long)rnd(100000));
  for (int i = (int)rnd(4); i > 0; i--)
    k += snprintf(out + k, n - (size_t)k, ", \"%s\": %s", KEYS[rnd(11)], VALUES[rnd(14)]);
  if (rnd(5) == 0) { /* a long string */
    k += snprintf(out + k, n - (size_t)k, ", \"pad\": \"");
    for (int i = (int)rnd(3000); i > 0 && (size_t)k < n - 10; i--) out[k++] = rnd(2) ? 'x' : ' ';
    out[k++] = '"';
  }
  k += snprintf(out + k, n - (size_t)k, "}");
  switch (rnd(6)) {
  case 0: out[rnd((uint32_t)k)] = (char)(' ' + rnd(90)); break;       /* a byte changed */
  case 1: k = (int)rnd((uint32_t)k) + 1; break;                       /* cut */
  case 2: out[rnd((uint32_t)k)] = (char)(0x80 + rnd(0x40)); break;     /* invalid UTF-8: lws closes (1007) */
  default: break;
  }
  return k;
}

/* One step of a table's play without waiting: what came is read, and the seats here answer. */
static void step_table(table *t) {
  for (int s = -1; s < t->players; s++) {
    player *p = s < 0 ? t->watch : t->seat[s];
    if (!p || !p->ws) continue;
    struct pollfd pfd = {ws_fd(p->ws), (short)(POLLIN | (ws_want_write(p->ws) ? POLLOUT : 0)), 0};
    if (poll(&pfd, 1, 0) > 0) read_player(p);
  }
  decide(t);
}

/* 10,000 random and mutated messages from 8 connections (each under the rate limit), while a
 * table plays on: the table finishes and the server lives. */
static void random_messages(void **st) {
  (void)st;
  enum { CONNS = 8, TOTAL = 10000 };
  const char *seats[] = {NULL, "random"};
  table *t = table_new("thief", 2, srv_short_options("thief"), seats, NULL, false);
  ws_conn *c[CONNS];
  ws_source("127.0.0.4"); /* a client of its own: its costly requests are rate limited, not the checks' */
  for (int i = 0; i < CONNS; i++) c[i] = connect_or_fail(&server);
  char *msg = malloc(8000);
  int sent = 0, reconnects = 0;
  int64_t start = ws_now_ms();
  while (sent < TOTAL || !table_done(t)) {
    if (ws_now_ms() - start > 300000) fail_msg("10,000 messages and a game took over 300 s");
    /* 8 connections at 80 messages a second each: one round of 8 every 12.5 ms */
    for (int i = 0; i < CONNS && sent < TOTAL; i++, sent++) {
      if (ws_get_state(c[i]) != WS_OPEN) { /* closed for invalid UTF-8 (1007): a new one */
        ws_drop(c[i]);
        c[i] = connect_or_fail(&server);
        reconnects++;
      }
      int k = random_message(msg, 8000, t->id);
      ws_send_text(c[i], msg, (size_t)k);
      ws_flush(c[i]);
      ws_read(c[i]);
      ws_msg m;
      while (ws_next_message(c[i], &m) == 1) {
      }
    }
    step_table(t);
    usleep(12500);
  }
  free(msg);
  ws_source(NULL);
  print_message("10,000 random messages in %.1f s (%d connections closed for invalid UTF-8)\n",
                (double)(ws_now_ms() - start) / 1000, reconnects);
  alive_or_fail(&server, "10,000 random messages");
  check_game(t);
  table_free(t);
  for (int i = 0; i < CONNS; i++) ws_close(c[i], WS_CLOSE_NORMAL);
  expect_no_problems();
}

/* SIGTERM with 100 tables in play and hints running: the server stops within 2 s, and after a
 * restart every acknowledged move is there. */
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
  print_message("SIGTERM with %d tables in play and %d hints asked: stopped in %lld ms\n", TABLES, hints_sent, (long long)took);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) fail_msg("SIGTERM: not a clean stop (0x%x)", status);
  if (took > 2000) fail_msg("SIGTERM took %lld ms to stop the server, more than 2 s", (long long)took);
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

/* ======================================== setup ======================================== */

/* ======================================= issue 20: people ======================================= */

/* The first message of this type (and table, when tid > 0) within ms; NULL if none. */
static json_t *wait_type(ws_conn *c, const char *type, long long tid, int ms) {
  for (int64_t end = ws_now_ms() + ms; ws_now_ms() < end;) {
    json_t *m = ws_recv_json(c, 100);
    if (!m) continue;
    if (jstr(m, "type") && !strcmp(jstr(m, "type"), type) && !json_object_get(m, "id") &&
        (tid <= 0 || jint(m, "table") == tid))
      return m;
    json_decref(m);
  }
  return NULL;
}

/* The name a seat has in a message's "seats" (NULL: none). */
static const char *seat_name(const json_t *m, int seat) {
  return jstr(json_array_get(json_object_get(m, "seats"), (size_t)seat), "name");
}

/* Names (docs/protocol.md, "Names and chat text"): checked at join, resume and name, stored with
 * the seat, shown in states and lists, and never more than text: markup is kept as written. */
static void names(void **st) {
  (void)st;
  ws_conn *a = connect_or_fail(&server), *b = connect_or_fail(&server);
  json_t *r = ask(a, "\"type\": \"create\", \"game\": \"thief\", \"players\": 2");
  long long tid = jint(r, "table");
  json_decref(r);
  char long_name[200];
  memset(long_name, 'n', 25);
  long_name[25] = 0;
  want_code(ask(a, "\"type\": \"join\", \"table\": %lld, \"name\": \"%s\"", tid, long_name), "bad_name", "25 characters");
  want_code(ask(a, "\"type\": \"join\", \"table\": %lld, \"name\": \"   \"", tid), "bad_name", "white space only");
  want_code(ask(a, "\"type\": \"join\", \"table\": %lld, \"name\": \"a\\u0007b\"", tid), "bad_name", "a bell");
  want_code(ask(a, "\"type\": \"join\", \"table\": %lld, \"name\": \"evil\\u202egnp\"", tid), "bad_name", "a bidi override");
  want_code(ask(a, "\"type\": \"join\", \"table\": %lld, \"name\": 7", tid), "bad_message", "a number for a name");
  /* 24 characters of two bytes each are a name; invalid UTF-8 is no message at all */
  char e24[100] = "";
  for (int i = 0; i < 24; i++) strcat(e24, "\xc3\xa9");
  ws_conn *x = connect_or_fail(&server); /* a text frame that is not UTF-8: closed (1007), nothing else */
  char bad_text[120];
  snprintf(bad_text, sizeof bad_text, "{\"type\": \"join\", \"table\": %lld, \"name\": \"\xff\xfe\"}", tid);
  ws_send_text(x, bad_text, strlen(bad_text));
  keep_reading(x, 500);
  ws_drop(x);
  r = ask(a, "\"type\": \"join\", \"table\": %lld, \"seat\": 0, \"name\": \"  <img src=x onerror=alert(1)>\"", tid);
  want_code(r, "bad_name", "28 characters of markup");
  r = ask(a, "\"type\": \"join\", \"table\": %lld, \"seat\": 0, \"name\": \"  <b>Ann</b> \"", tid);
  want_type(r, "joined", "a join with a name");
  char tok_a[40];
  snprintf(tok_a, sizeof tok_a, "%s", jstr(r, "token"));
  json_decref(r);
  r = ask(b, "\"type\": \"join\", \"table\": %lld, \"seat\": 1, \"name\": \"%s\"", tid, e24);
  want_type(r, "joined", "a join with 24 é");
  char tok_b[40];
  snprintf(tok_b, sizeof tok_b, "%s", jstr(r, "token"));
  json_decref(r);
  json_t *m = wait_type(a, "state", tid, WAIT_MS);
  while (m && seat_name(m, 1) == NULL) json_decref(m), m = wait_type(a, "state", tid, WAIT_MS);
  if (!m || !seat_name(m, 0) || strcmp(seat_name(m, 0), "<b>Ann</b>") || strcmp(seat_name(m, 1), e24))
    fail_msg("the seats' names, trimmed and kept as written: %s", dump(m));
  json_decref(m);
  /* renamed: everyone's state shows it, and the list; a bad name changes nothing */
  want_code(ask(b, "\"type\": \"name\", \"table\": %lld, \"token\": \"%s\", \"name\": \"\"", tid, tok_b), "bad_name", "an empty name");
  want_code(ask(b, "\"type\": \"name\", \"table\": %lld, \"token\": \"%s\", \"name\": \"x\"", tid, tok_a + 1), "bad_token", "another's token");
  r = ask(b, "\"type\": \"name\", \"table\": %lld, \"token\": \"%s\", \"name\": \"Bea\"", tid, tok_b);
  want_type(r, "named", "name");
  json_decref(r);
  m = wait_type(a, "state", tid, WAIT_MS);
  while (m && (!seat_name(m, 1) || strcmp(seat_name(m, 1), "Bea"))) json_decref(m), m = wait_type(a, "state", tid, WAIT_MS);
  if (!m) fail_msg("seat 0 never saw seat 1 renamed Bea");
  json_decref(m);
  char path[64];
  snprintf(path, sizeof path, "/api/tables/%lld", tid);
  json_t *sum = http_json(&server, path, 200);
  if (strcmp(seat_name(sum, 0), "<b>Ann</b>") || strcmp(seat_name(sum, 1), "Bea")) fail_msg("the summary's names: %s", dump(sum));
  json_decref(sum);
  /* a resume keeps the name, or renames */
  ws_close(b, WS_CLOSE_NORMAL);
  b = connect_or_fail(&server);
  r = ask(b, "\"type\": \"resume\", \"table\": %lld, \"token\": \"%s\", \"name\": \"Bea again\"", tid, tok_b);
  want_type(r, "joined", "a resume with a name");
  json_decref(r);
  m = wait_type(b, "state", tid, WAIT_MS);
  if (!m || strcmp(seat_name(m, 1), "Bea again")) fail_msg("resume's name: %s", dump(m));
  json_decref(m);
  ws_close(a, WS_CLOSE_NORMAL);
  ws_close(b, WS_CLOSE_NORMAL);
  alive_or_fail(&server, "names");
}

/* Chat (docs/protocol.md, "chat"): each channel to its people, stored (told again on resume),
 * checked, rate limited, and markup kept as mere text. */
static void chat(void **st) {
  (void)st;
  ws_conn *a = connect_or_fail(&server), *w = connect_or_fail(&server), *w2 = connect_or_fail(&server);
  ws_source("127.0.0.3"); /* the chat's rate is an address's: b's own, for the flood below */
  ws_conn *b = connect_or_fail(&server);
  ws_source(NULL);
  json_t *r = ask(a, "\"type\": \"create\", \"game\": \"thief\", \"players\": 2, \"spectator_chat\": true");
  long long tid = jint(r, "table");
  json_decref(r);
  r = ask(a, "\"type\": \"create\", \"game\": \"thief\", \"players\": 2");
  long long closed = jint(r, "table");
  json_decref(r);
  want_code(ask(a, "\"type\": \"create\", \"game\": \"thief\", \"spectator_chat\": 1"), "bad_message", "spectator_chat 1");
  char tok_a[40], tok_b[40];
  r = ask(a, "\"type\": \"join\", \"table\": %lld, \"seat\": 0, \"name\": \"Ann\"", tid);
  snprintf(tok_a, sizeof tok_a, "%s", jstr(r, "token"));
  json_decref(r);
  r = ask(b, "\"type\": \"join\", \"table\": %lld, \"seat\": 1", tid);
  snprintf(tok_b, sizeof tok_b, "%s", jstr(r, "token"));
  json_decref(r);
  json_decref(ask(w, "\"type\": \"watch\", \"table\": %lld", tid));
  json_decref(ask(w2, "\"type\": \"watch\", \"table\": %lld", closed));
  const char *markup = "<img src=x onerror=alert(1)>";
  r = ask(a, "\"type\": \"chat\", \"table\": %lld, \"token\": \"%s\", \"text\": \" %s \"", tid, tok_a, markup);
  want_type(r, "said", "a player's chat");
  json_decref(r);
  json_t *m = wait_type(b, "chat", tid, WAIT_MS);
  if (!m || strcmp(jstr(m, "channel"), "players") || jint(m, "seat") != 0 || strcmp(jstr(m, "name"), "Ann") ||
      strcmp(jstr(m, "text"), markup))
    fail_msg("seat 1 is told seat 0's message as written: %s", dump(m));
  json_decref(m);
  r = ask(w, "\"type\": \"chat\", \"table\": %lld, \"text\": \"from the stands\", \"name\": \"Cy\"", tid);
  want_type(r, "said", "a spectator's chat");
  json_decref(r);
  /* the spectator never hears the players, the players never the spectators, while it plays */
  for (json_t *x; (x = ws_recv_json(w, 300));) {
    if (jstr(x, "type") && !strcmp(jstr(x, "type"), "chat") && !strcmp(jstr(x, "channel"), "players"))
      fail_msg("a spectator was sent the players' chat: %s", dump(x));
    json_decref(x);
  }
  for (json_t *x; (x = ws_recv_json(b, 300));) {
    if (jstr(x, "type") && !strcmp(jstr(x, "type"), "chat") && !strcmp(jstr(x, "channel"), "spectators"))
      fail_msg("a player was sent the spectators' chat: %s", dump(x));
    json_decref(x);
  }
  want_code(ask(w2, "\"type\": \"chat\", \"table\": %lld, \"text\": \"hi\"", closed), "chat_closed", "no spectators' chat");
  want_code(ask(b, "\"type\": \"chat\", \"table\": %lld, \"text\": \"hi\"", closed), "not_watching", "no token, not watching");
  char nul[160]; /* a NUL in a name: not a message jansson reads (no id to answer) */
  snprintf(nul, sizeof nul, "{\"type\": \"chat\", \"table\": %lld, \"text\": \"hi\", \"name\": \"x\\u0000y\"}", tid);
  ws_send_text(w, nul, strlen(nul));
  json_t *e = wait_type(w, "error", 0, WAIT_MS);
  if (!e || strcmp(jstr(e, "code"), "bad_json")) fail_msg("a NUL in a name: %s", dump(e));
  json_decref(e);
  /* over-long, empty, control characters, not a string */
  static char big[11000];
  memset(big, 'm', 10000);
  big[10000] = 0;
  want_code(ask(b, "\"type\": \"chat\", \"table\": %lld, \"token\": \"%s\", \"text\": \"%s\"", tid, tok_b, big), "bad_chat", "10000 characters");
  memset(big, 'm', 301);
  big[301] = 0;
  want_code(ask(b, "\"type\": \"chat\", \"table\": %lld, \"token\": \"%s\", \"text\": \"%s\"", tid, tok_b, big), "bad_chat", "301 characters");
  want_code(ask(b, "\"type\": \"chat\", \"table\": %lld, \"token\": \"%s\", \"text\": \" \\n \"", tid, tok_b), "bad_chat", "white space");
  want_code(ask(b, "\"type\": \"chat\", \"table\": %lld, \"token\": \"%s\", \"text\": \"a\\nb\"", tid, tok_b), "bad_chat", "a new line");
  want_code(ask(b, "\"type\": \"chat\", \"table\": %lld, \"token\": \"%s\"", tid, tok_b), "bad_message", "no text");
  /* a flood: 5 at once, then chat_flood, and the server serves on */
  int said = 0, flooded = 0;
  for (int i = 0; i < 12; i++) {
    r = ask(b, "\"type\": \"chat\", \"table\": %lld, \"token\": \"%s\", \"text\": \"spam %d\"", tid, tok_b, i);
    said += jstr(r, "type") && !strcmp(jstr(r, "type"), "said");
    flooded += jstr(r, "code") && !strcmp(jstr(r, "code"), "chat_flood");
    json_decref(r);
  }
  if (said < 5 || said > 6 || flooded != 12 - said) fail_msg("a chat flood: %d said, %d refused chat_flood", said, flooded);
  /* stored: a new connection of seat 0 is told the players' channel, markup and all */
  ws_close(a, WS_CLOSE_NORMAL);
  a = connect_or_fail(&server);
  r = ask(a, "\"type\": \"resume\", \"table\": %lld, \"token\": \"%s\"", tid, tok_a);
  json_decref(r);
  m = wait_type(a, "chat_log", tid, WAIT_MS);
  json_t *msgs = json_object_get(m, "messages");
  if (!m || json_array_size(msgs) != (size_t)(1 + said) || strcmp(jstr(json_array_get(msgs, 0), "text"), markup))
    fail_msg("the chat told again on resume (%d messages of the players): %s", 1 + said, dump(m));
  for (size_t i = 0; i < json_array_size(msgs); i++)
    if (strcmp(jstr(json_array_get(msgs, i), "channel"), "players")) fail_msg("a seat was told the spectators' chat: %s", dump(m));
  json_decref(m);
  ws_close(a, WS_CLOSE_NORMAL);
  ws_close(b, WS_CLOSE_NORMAL);
  ws_close(w, WS_CLOSE_NORMAL);
  ws_close(w2, WS_CLOSE_NORMAL);
  alive_or_fail(&server, "chat");
}

/* The lobby's list, pushed (docs/protocol.md, "subscribe"): filtered, paged, and sent again as
 * tables change, with no request. */
static void lobby_list(void **st) {
  (void)st;
  ws_conn *sub = connect_or_fail(&server), *c = connect_or_fail(&server);
  want_code(ask(sub, "\"type\": \"subscribe\", \"filter\": \"nope\""), "bad_message", "an unknown filter");
  want_code(ask(sub, "\"type\": \"subscribe\", \"page\": -1"), "bad_message", "a negative page");
  want_code(ask(sub, "\"type\": \"subscribe\", \"mine\": [\"7\"]"), "bad_message", "mine of strings");
  json_t *r = ask(sub, "\"type\": \"subscribe\", \"filter\": \"open\"");
  want_type(r, "tables", "subscribe");
  if (jint(r, "page_size") != 20 || (long long)json_array_size(json_object_get(r, "tables")) > 20) fail_msg("a page: %s", dump(r));
  json_decref(r);
  r = ask(c, "\"type\": \"create\", \"game\": \"steal-the-pile\", \"players\": 2, \"seats\": [\"open\", \"random\"]");
  long long tid = jint(r, "table");
  json_decref(r);
  /* pushed: the new table is first among the open ones */
  json_t *m = NULL;
  for (int64_t end = ws_now_ms() + 5000; ws_now_ms() < end && !m;) {
    m = wait_type(sub, "tables", 0, 1000);
    json_t *first = m ? json_array_get(json_object_get(m, "tables"), 0) : NULL;
    if (m && (!first || jint(first, "table") != tid)) json_decref(m), m = NULL;
  }
  if (!m) fail_msg("no pushed page with table %lld first among the open tables", tid);
  if (strcmp(jstr(m, "filter"), "open")) fail_msg("the push's filter: %s", dump(m));
  json_decref(m);
  /* seated, it leaves the open ones (pushed again), and shows in "playing" */
  r = ask(c, "\"type\": \"join\", \"table\": %lld, \"seat\": 0", tid);
  json_decref(r);
  bool gone = false;
  for (int64_t end = ws_now_ms() + 5000; ws_now_ms() < end && !gone;) {
    m = wait_type(sub, "tables", 0, 1000);
    if (!m) continue;
    gone = true;
    size_t i;
    json_t *x;
    json_array_foreach(json_object_get(m, "tables"), i, x) gone &= jint(x, "table") != tid && !strcmp(jstr(x, "status"), "waiting");
    json_decref(m);
  }
  if (!gone) fail_msg("table %lld, seated, is still pushed among the open ones", tid);
  r = ask(sub, "\"type\": \"subscribe\", \"filter\": \"mine\", \"mine\": [%lld, 999999]", tid);
  if (json_array_size(json_object_get(r, "tables")) != 1 || jint(json_array_get(json_object_get(r, "tables"), 0), "table") != tid)
    fail_msg("mine: %s", dump(r));
  json_decref(r);
  /* pages: the second page of all is the tables after the first 20 */
  r = ask(sub, "\"type\": \"subscribe\", \"filter\": \"all\", \"page\": 0");
  json_t *r1 = ask(sub, "\"type\": \"subscribe\", \"filter\": \"all\", \"page\": 1");
  if (jint(r, "total") > 20 && (!json_array_size(json_object_get(r1, "tables")) ||
                                jint(json_array_get(json_object_get(r1, "tables"), 0), "table") ==
                                    jint(json_array_get(json_object_get(r, "tables"), 0), "table")))
    fail_msg("page 1 of %lld tables: %s", jint(r, "total"), dump(r1));
  if (jint(r, "pages") != (jint(r, "total") + 19) / 20) fail_msg("pages: %s", dump(r));
  json_decref(r);
  json_decref(r1);
  ws_close(sub, WS_CLOSE_NORMAL);
  ws_close(c, WS_CLOSE_NORMAL);
  alive_or_fail(&server, "the lobby's list");
}

/* Expired waiting tables leave a subscriber's list, pushed. */
static void lobby_expiry(void **st) {
  (void)st;
  const char *args[] = {"--limit", "waiting_expiry=2", NULL};
  srv s;
  own_server(&s, "expiry", args);
  ws_conn *sub = connect_or_fail(&s), *c = connect_or_fail(&s);
  json_t *r = ask(c, "\"type\": \"create\", \"game\": \"thief\", \"players\": 2");
  json_decref(r);
  r = ask(sub, "\"type\": \"subscribe\", \"filter\": \"open\"");
  if (jint(r, "total") != 1) fail_msg("one open table: %s", dump(r));
  json_decref(r);
  json_t *m = wait_type(sub, "tables", 0, 6000);
  if (!m || jint(m, "total") != 0) fail_msg("the expired table is still listed: %s", dump(m));
  json_decref(m);
  ws_close(sub, WS_CLOSE_NORMAL);
  ws_close(c, WS_CLOSE_NORMAL);
  stop_own(&s);
}

/* Plays random legal moves for the n connections (seats) of table tid until it is over. */
static void play_out(ws_conn **c, char (*tok)[40], int n, long long tid) {
  for (int i = 0; i < n; i++) { /* a state to start from: the ones before may have been read by ask */
    json_t *res = json_pack("{s:s, s:I, s:s}", "type", "resume", "table", (json_int_t)tid, "token", tok[i]);
    ws_send_json(c[i], res);
    json_decref(res);
  }
  for (int64_t end = ws_now_ms() + 60000; ws_now_ms() < end;) {
    bool over = false;
    for (int i = 0; i < n; i++) {
      json_t *m = ws_recv_json(c[i], 20);
      if (!m) continue;
      if (jstr(m, "type") && !strcmp(jstr(m, "type"), "state") && jint(m, "table") == tid) {
        over |= !strcmp(jstr(m, "status"), "over");
        json_t *legal = json_object_get(m, "legal");
        if (json_array_size(legal)) {
          json_t *mv = json_pack("{s:s, s:I, s:s, s:O, s:O, s:i}", "type", "move", "table", (json_int_t)tid, "token", tok[i],
                                 "move", json_array_get(legal, rnd((uint32_t)json_array_size(legal))), "ply",
                                 json_object_get(m, "ply"), "id", next_id++);
          ws_send_json(c[i], mv);
          json_decref(mv);
        }
      }
      json_decref(m);
    }
    if (over) return;
  }
  fail_msg("table %lld: not over within 60 s", tid);
}

/* Rematch (docs/protocol.md, "rematch"): offered, declined, offered again and accepted by every
 * person (the bot at once): a new table with the same people one seat on, told to everyone. */
static void rematch(void **st) {
  (void)st;
  ws_conn *c[2] = {connect_or_fail(&server), connect_or_fail(&server)}, *w = connect_or_fail(&server);
  char tok[2][40];
  json_t *r = ask(c[0], "\"type\": \"create\", \"game\": \"steal-the-pile\", \"players\": 3, \"seats\": [\"open\", \"open\", \"random\"], "
                        "\"takeover\": {\"after\": 600, \"bot\": \"greedy\"}, \"spectator_chat\": true");
  long long tid = jint(r, "table");
  json_decref(r);
  const char *names[2] = {"Ann", "Bea"};
  for (int i = 0; i < 2; i++) {
    r = ask(c[i], "\"type\": \"join\", \"table\": %lld, \"seat\": %d, \"name\": \"%s\"", tid, i, names[i]);
    snprintf(tok[i], sizeof tok[i], "%s", jstr(r, "token"));
    json_decref(r);
  }
  want_code(ask(c[0], "\"type\": \"rematch\", \"table\": %lld, \"token\": \"%s\"", tid, tok[0]), "not_over", "a rematch mid-game");
  json_decref(ask(w, "\"type\": \"watch\", \"table\": %lld", tid));
  play_out(c, tok, 2, tid);
  want_code(ask(c[0], "\"type\": \"rematch\", \"table\": %lld, \"token\": \"%s\", \"accept\": \"yes\"", tid, tok[0]), "bad_message", "accept: a string");
  want_code(ask(c[0], "\"type\": \"rematch\", \"table\": %lld, \"token\": \"%s\", \"accept\": false", tid, tok[0]), "no_offer", "a decline of nothing");
  r = ask(c[0], "\"type\": \"rematch\", \"table\": %lld, \"token\": \"%s\"", tid, tok[0]);
  if (strcmp(jstr(r, "status"), "offered") || strcmp(dump(json_object_get(r, "accepted")), "[0,2]") ||
      strcmp(dump(json_object_get(r, "waiting")), "[1]"))
    fail_msg("an offer, the bot accepting at once: %s", dump(r));
  json_decref(r);
  json_t *m = wait_type(c[1], "rematch", tid, WAIT_MS);
  if (!m || strcmp(jstr(m, "status"), "offered") || jint(m, "from") != 0) fail_msg("seat 1 is told the offer: %s", dump(m));
  json_decref(m);
  r = ask(c[1], "\"type\": \"rematch\", \"table\": %lld, \"token\": \"%s\", \"accept\": false", tid, tok[1]);
  json_decref(r);
  m = wait_type(c[0], "rematch", tid, WAIT_MS);
  if (!m || strcmp(jstr(m, "status"), "declined") || jint(m, "by") != 1) fail_msg("seat 0 is told the decline: %s", dump(m));
  json_decref(m);
  json_decref(ask(c[0], "\"type\": \"rematch\", \"table\": %lld, \"token\": \"%s\"", tid, tok[0]));
  r = ask(c[1], "\"type\": \"rematch\", \"table\": %lld, \"token\": \"%s\", \"accept\": true", tid, tok[1]);
  if (strcmp(jstr(r, "status"), "made") || jint(r, "seat") != 0) fail_msg("all accepted: %s", dump(r));
  long long nt = jint(r, "new_table");
  json_decref(r);
  m = wait_type(c[0], "rematch", tid, WAIT_MS);
  if (!m || strcmp(jstr(m, "status"), "made") || jint(m, "new_table") != nt || jint(m, "seat") != 2) fail_msg("seat 0 is moved: %s", dump(m));
  json_decref(m);
  m = wait_type(w, "rematch", tid, WAIT_MS); /* offered, declined, offered, then made */
  while (m && strcmp(jstr(m, "status"), "made")) json_decref(m), m = wait_type(w, "rematch", tid, WAIT_MS);
  if (!m || jint(m, "new_table") != nt || json_object_get(m, "seat")) fail_msg("the spectator is told the new table: %s", dump(m));
  json_decref(m);
  /* the new table: same options, takeover and chat, the people one seat on, already playing */
  char path[64];
  snprintf(path, sizeof path, "/api/tables/%lld", nt);
  json_t *sum = http_json(&server, path, 200);
  if (strcmp(jstr(sum, "status"), "playing") || !seat_name(sum, 0) || strcmp(seat_name(sum, 0), "Bea") ||
      !seat_name(sum, 2) || strcmp(seat_name(sum, 2), "Ann") || strcmp(jstr(json_array_get(json_object_get(sum, "seats"), 1), "bot"), "random") ||
      jint(json_object_get(sum, "takeover"), "after") != 600 || !json_is_true(json_object_get(sum, "spectator_chat")))
    fail_msg("the rematch's table: %s", dump(sum));
  json_decref(sum);
  r = ask(c[0], "\"type\": \"rematch\", \"table\": %lld, \"token\": \"%s\", \"accept\": false", tid, tok[0]);
  if (strcmp(jstr(r, "status"), "made") || jint(r, "new_table") != nt) fail_msg("a rematch once made is that table: %s", dump(r));
  json_decref(r);
  /* each plays its new seat with its token */
  r = ask(c[0], "\"type\": \"resume\", \"table\": %lld, \"token\": \"%s\"", nt, tok[0]);
  if (jint(r, "seat") != 2) fail_msg("resume of the rematch: %s", dump(r));
  json_decref(r);
  r = ask(c[1], "\"type\": \"resume\", \"table\": %lld, \"token\": \"%s\"", nt, tok[1]);
  if (jint(r, "seat") != 0) fail_msg("resume of the rematch: %s", dump(r));
  json_decref(r);
  char ntok[2][40];
  memcpy(ntok[0], tok[1], 40), memcpy(ntok[1], tok[0], 40);
  ws_conn *nc[2] = {c[1], c[0]};
  play_out(nc, ntok, 2, nt);
  for (int i = 0; i < 2; i++) ws_close(c[i], WS_CLOSE_NORMAL);
  ws_close(w, WS_CLOSE_NORMAL);
  alive_or_fail(&server, "rematch");
}

/* Clocks (docs/protocol.md, "create"): a seat's time runs while it is asked; out of it, the table
 * chose a loss (the game stops, the others win, the record has no result but why it stopped) or
 * the takeover bot for the rest of the game (the player cannot take the seat back). */
static void clocks(void **st) {
  (void)st;
  ws_conn *a = connect_or_fail(&server), *b = connect_or_fail(&server);
  const char *bad_clocks[] = {"{\"minutes\": 0}", "{\"minutes\": 601}", "{\"seconds\": 9}", "{\"minutes\": 1, \"seconds\": 60}",
                              "{\"minutes\": 1, \"on_time\": \"draw\"}", "5", "{}"};
  for (size_t i = 0; i < sizeof bad_clocks / sizeof *bad_clocks; i++)
    want_code(ask(a, "\"type\": \"create\", \"game\": \"thief\", \"clock\": %s", bad_clocks[i]), "bad_message", bad_clocks[i]);
  long long tid[2];
  char tok[2][2][40];
  const char *how[2] = {"loss", "bot"};
  for (int k = 0; k < 2; k++) {
    json_t *r = ask(a, "\"type\": \"create\", \"game\": \"steal-the-pile\", \"players\": 2, \"clock\": {\"seconds\": 10, \"on_time\": \"%s\"}", how[k]);
    tid[k] = jint(r, "table");
    json_t *ck = json_object_get(json_object_get(r, "summary"), "clock");
    if (jint(ck, "seconds") != 10 || strcmp(jstr(ck, "on_time"), how[k])) fail_msg("the clock in the summary: %s", dump(r));
    json_decref(r);
    ws_conn *c[2] = {a, b};
    for (int i = 0; i < 2; i++) {
      r = ask(c[i], "\"type\": \"join\", \"table\": %lld, \"seat\": %d", tid[k], i);
      snprintf(tok[k][i], 40, "%s", jstr(r, "token"));
      json_decref(r);
    }
  }
  /* seat 0 is asked at both and stays silent: its clock runs, seat 1's does not */
  json_decref(ask(b, "\"type\": \"resume\", \"table\": %lld, \"token\": \"%s\"", tid[0], tok[0][1])); /* then a state */
  json_t *m = wait_type(b, "state", tid[0], WAIT_MS);
  while (m && strcmp(jstr(m, "status"), "playing")) json_decref(m), m = wait_type(b, "state", tid[0], WAIT_MS);
  json_t *s0 = json_array_get(json_object_get(m, "seats"), 0), *s1 = json_array_get(json_object_get(m, "seats"), 1);
  if (!json_is_true(json_object_get(s0, "clock_running")) || !json_is_false(json_object_get(s1, "clock_running")) ||
      jint(s0, "clock_ms") > 10000 || jint(s1, "clock_ms") != 10000)
    fail_msg("the clocks as seat 0 is asked: %s", dump(json_object_get(m, "seats")));
  json_decref(m);
  json_t *lost = NULL;
  for (int64_t end = ws_now_ms() + 20000; ws_now_ms() < end && !lost;) {
    m = wait_type(b, "state", tid[0], 1000);
    if (m && !strcmp(jstr(m, "status"), "over")) lost = m;
    else json_decref(m);
  }
  if (!lost) fail_msg("table %lld: seat 0 never lost on time", tid[0]);
  json_t *res = json_object_get(lost, "result");
  if (jint(res, "lost_on_time") != 0 || strcmp(dump(json_object_get(res, "winners")), "[1]"))
    fail_msg("a loss on time: %s", dump(res));
  json_decref(lost);
  char path[64];
  snprintf(path, sizeof path, "/api/tables/%lld/record", tid[0]);
  json_t *rec = http_json(&server, path, 200);
  if (json_object_get(rec, "result") || jint(json_object_get(rec, "stopped"), "seat") != 0 ||
      strcmp(jstr(json_object_get(rec, "stopped"), "reason"), "time"))
    fail_msg("the record of a game lost on time: %s", dump(rec));
  char file[300];
  snprintf(file, sizeof file, "%s/lost-on-time.json", tmpdir);
  FILE *f = fopen(file, "w");
  fputs(dump(rec), f);
  fclose(f);
  json_decref(rec);
  char *out = NULL, *err = NULL;
  if (run_pilfer(&out, &err, "replay", file, NULL, NULL, NULL) != 0) fail_msg("pilfer replay of a game lost on time: %s", err);
  free(out), free(err);
  /* the other table gave seat 0 to its bot, for good */
  for (int64_t end = ws_now_ms() + 10000;; ) {
    snprintf(path, sizeof path, "/api/tables/%lld", tid[1]);
    json_t *sum = http_json(&server, path, 200);
    json_t *seat0 = json_array_get(json_object_get(sum, "seats"), 0);
    bool taken = jstr(seat0, "bot") != NULL && jint(sum, "ply") > 0;
    json_decref(sum);
    if (taken) break;
    if (ws_now_ms() > end) fail_msg("table %lld: seat 0 out of time, no bot plays it", tid[1]);
    usleep(200000);
  }
  json_t *r = ask(a, "\"type\": \"resume\", \"table\": %lld, \"token\": \"%s\"", tid[1], tok[1][0]);
  json_decref(r);
  m = wait_type(a, "state", tid[1], WAIT_MS);
  if (!m || !jstr(json_array_get(json_object_get(m, "seats"), 0), "bot")) fail_msg("out of time, resume gave the seat back: %s", dump(m));
  json_decref(m);
  r = ask(a, "\"type\": \"move\", \"table\": %lld, \"token\": \"%s\", \"move\": \"x\", \"ply\": 0", tid[1], tok[1][0]);
  if (!jstr(r, "code") || (strcmp(jstr(r, "code"), "time_out") && strcmp(jstr(r, "code"), "stale")))
    fail_msg("a move of a seat out of time: %s", dump(r));
  json_decref(r);
  ws_close(a, WS_CLOSE_NORMAL);
  ws_close(b, WS_CLOSE_NORMAL);
  alive_or_fail(&server, "clocks");
}

static int start_server(void **st) {
  (void)st;
  char db[400], log[400];
  snprintf(db, sizeof db, "%s/pilfer.db", tmpdir);
  snprintf(log, sizeof log, "%s/server.log", tmpdir);
  static const char *const args[] = {"--limit", "waiting_per_client=1000", "--limit", "bot_tables_per_client=1000",
                                     NULL}; /* the lobby creates every table */
  server.args = serve_args(args);
  if (srv_start(&server, pilfer, db, log, WAIT_MS) != 0) {
    print_error("the server did not start: %s\n", server.error);
    return -1;
  }
  lobby = connect_or_fail(&server);
  if (strcmp(ws_subprotocol(lobby), "pilfer")) {
    print_error("the server chose subprotocol '%s', not pilfer\n", ws_subprotocol(lobby));
    return -1;
  }
  others[nothers++] = lobby;
  return 0;
}

/* Before each test: the problems noted are forgotten, and the shared lobby connection reads what
 * came for it meanwhile (answering the server's pings) and comes back if the server closed it: a
 * test of a server of its own (queues) may run longer than the idle limit on a loaded machine
 * under AddressSanitizer, and the lobby answered no ping for 60 s then. */
static int forget_problems(void **st) {
  (void)st;
  nproblems = 0;
  json_t *m;
  while (lobby && (m = ws_recv_json(lobby, 0))) json_decref(m);
  for (int i = 0; lobby && ws_get_state(lobby) != WS_OPEN && i < nothers; i++)
    if (others[i] == lobby) {
      ws_drop(lobby);
      lobby = others[i] = connect_or_fail(&server);
    }
  return 0;
}

/* Stops the server with SIGTERM: it must still have been running, and end cleanly (status 0; under
 * the sanitizers, with no leak). */
static int stop_server(void **st) {
  (void)st;
  for (int i = 0; i < nothers; i++) ws_close(others[i], WS_CLOSE_NORMAL);
  nothers = 0;
  bool crashed = !srv_alive(&server);
  int status = srv_stop(&server, SIGTERM, 20000);
  if (crashed || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    char *tail = srv_log_tail(&server, 3000);
    print_error("the server %s (wait status 0x%x); its log ends:\n%s\n",
                crashed ? "had died" : "did not stop cleanly on SIGTERM", status, tail);
    free(tail);
    return -1;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_server PILFER [TEST...]\n");
    return 2;
  }
  pilfer = argv[1];
  char *out = NULL, *err = NULL;
  if (run_pilfer(&out, &err, "serve", "--help", NULL, NULL, NULL) != 0 &&
      strstr(err, "unknown command")) {
    printf("skipped: %s has no serve command (%s)\n", pilfer, err);
    free(err);
    return 77;
  }
  has_limits = (out && strstr(out, "--limit")) || (err && strstr(err, "--limit"));
  if (!has_limits) printf("%s has no --limit: the servers start without one\n", pilfer);
  free(out);
  free(err);
  signal(SIGPIPE, SIG_IGN);
  const char *seed = getenv("PILFER_TEST_SEED");
  trace = getenv("PILFER_TEST_TRACE") != NULL;
  t0_ms = ws_now_ms();
  rng_state = seed ? strtoull(seed, NULL, 10) : (uint64_t)ws_now_us();
  printf("PILFER_TEST_SEED=%llu\n", (unsigned long long)rng_state);
  snprintf(tmpdir, sizeof tmpdir, "%s/pilfer-test-server-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  printf("server files in %s\n", tmpdir);
#define TEST(f) cmocka_unit_test_setup(f, forget_problems)
  const struct CMUnitTest all[] = {
      TEST(games_and_http), TEST(every_game), TEST(strong_bots),      TEST(bad_clients),    TEST(reconnect),
      TEST(leave),          TEST(takeover),   TEST(recovery),         TEST(online_backup), TEST(idle_connections),
      TEST(bindings),       TEST(bad_utf8),   TEST(long_bot),         TEST(stale_ply),
      TEST(hints),          TEST(http_files), TEST(reports),          TEST(deleted_db),
      TEST(connections),    TEST(names),      TEST(chat),             TEST(lobby_list),
      TEST(lobby_expiry),   TEST(rematch),    TEST(clocks),
      TEST(waiting_tables), TEST(queues),     TEST(random_messages),  TEST(sigterm),
  };
  struct CMUnitTest chosen[sizeof all / sizeof *all];
  size_t n = 0;
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
    bool want = argc < 3;
    for (int a = 2; a < argc; a++) want |= !strcmp(argv[a], all[i].name);
    if (want) chosen[n++] = all[i];
  }
  int failed = _cmocka_run_group_tests("server", chosen, n, start_server, stop_server);
  if (!failed) {
    char *rm[] = {"/bin/rm", "-rf", tmpdir, NULL};
    proc_run(rm, NULL, NULL);
  }
  return failed ? 1 : 0;
}
