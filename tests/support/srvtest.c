/*
 * srvtest.c - the harness of the server's tests (srvtest.h): the tables played here, their
 * messages, requests and errors, servers of a test's own, and the main of each test_server_*.c.
 */
#define _GNU_SOURCE /* strcasestr */
#include "srvtest.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

const char *pilfer;  /* the binary under test */
char tmpdir[256];
srv server;          /* the server most tests share */
ws_conn *lobby;      /* its connection for create, list and the like */
int next_id = 1;
static uint64_t rng_state;  /* the seats' choices: PILFER_TEST_SEED or a fixed seed */
static bool trace;          /* PILFER_TEST_TRACE: every message to stderr */
static int64_t t0_ms;

/* With PILFER_TEST_TRACE set: one line per message, "ms table seat -> or <- text". */
static void trace_msg(int tid, int seat, const char *dir, const json_t *m) {
  if (!trace) return;
  char *s = json_dumps(m, JSON_COMPACT);
  fprintf(stderr, "%7lld t%d s%d %s %.300s\n", (long long)(ws_now_ms() - t0_ms), tid, seat, dir, s);
  free(s);
}

uint32_t rnd(uint32_t n) { return (uint32_t)((ws_splitmix(&rng_state) >> 32) % n); }

/* ======================================= JSON helpers ======================================= */

/* A value as text for a message (cut at 1500 bytes), in one of 8 buffers used in turn: valid
 * until 8 more calls. */
const char *dump(const json_t *j) {
  static char ring[8][1501];
  static int next;
  char *out = ring[next++ % 8];
  char *s = j ? json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
  snprintf(out, sizeof ring[0], "%s", s ? s : "(null)");
  if (s && strlen(s) > 1500) strcpy(out + 1480, " ...");
  free(s);
  return out;
}

const char *jstr(const json_t *o, const char *key) {
  return json_string_value(json_object_get(o, key));
}

long long jint(const json_t *o, const char *key) {
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

void expect_same_json(const json_t *got, const json_t *want, const char *what) {
  char where[1024] = "";
  if (json_differs(got, want, where, sizeof where)) fail_msg("%s differs at %s", what, where);
}

/* Whether a "seed" key is anywhere in the value. */
bool has_seed_key(const json_t *j) {
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

bool leaks(const json_t *spec, const json_t *seat, char *path, size_t n) {
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

void note_problem(const char *kind, const char *fmt, ...) {
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
void expect_no_problems(void) {
  int n = nproblems;
  for (int i = 0; i < n; i++)
    print_error("MISMATCH %s (%d times); the first: %s\n", problems[i].kind, problems[i].count,
                problems[i].first);
  nproblems = 0;
  if (n) fail_msg("%d kinds of mismatch with docs/protocol.md (above)", n);
}

/* The same as expect_same_json, noted as a mismatch of `kind` rather than failing at once. */
void same_json_or_note(const char *kind, const json_t *got, const json_t *want,
                              const char *what) {
  char where[1024] = "";
  if (json_differs(got, want, where, sizeof where)) note_problem(kind, "%s differs at %s", what, where);
}

/* ======================================== the tables ======================================== */

/* Connections to drain while games are played (the lobby): their pushes are not checked. */
ws_conn *others[8];
int nothers;

ws_conn *connect_or_fail(const srv *s) {
  ws_conn *c = ws_connect(HOST, s->port, "/ws", "pilfer", WAIT_MS);
  if (!c) fail_msg("connect: %s", ws_last_error());
  return c;
}

static void on_message(player *p, json_t *m);

/* Sends a request with a new id on c and returns the reply with that id (caller decrefs); other
 * messages meanwhile go to p's handler (when p is not NULL). The reply must be of type `want`. */
json_t *request(ws_conn *c, player *p, json_t *msg, const char *want) {
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
void player_reconnect(player *p, const srv *s) {
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
table *table_new(const char *game, int players, json_t *options, const char *const *seats,
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

void table_free(table *t) {
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

bool in_array(const json_t *a, int seat) {
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
void decide(table *t) {
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

bool table_done(const table *t) {
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
void read_player(player *p) {
  ws_flush(p->ws);
  int r = ws_read(p->ws);
  if (!drain_player(p) || r < 0)
    fail_msg("table %d seat %d: the connection ended: %s (close code %d)", p->t->id, p->seat,
             ws_error(p->ws), ws_close_code(p->ws));
}

/* Plays the tables until each is over (and every connection here saw it) or paused at its
 * stop_ply, or until `until` says so; fails after timeout_ms. */
void play(table **ts, int n, int timeout_ms, bool (*until)(table **, int)) {
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


/* Runs the binary with these arguments; its exit status (stdout in *out when not NULL). */
int run_pilfer(char **out, char **err, const char *a1, const char *a2, const char *a3,
                      const char *a4, const char *a5) {
  char *argv[] = {(char *)pilfer, (char *)a1, (char *)a2, (char *)a3, (char *)a4, (char *)a5, NULL};
  return proc_run(argv, out, err);
}

json_t *http_json(const srv *s, const char *path, int want_status) {
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


/* Sends msg (text) on c and waits for the error it must cause: code `code`, and the request's id
 * when it had one. State pushes meanwhile go to p. */
void expect_error(ws_conn *c, player *p, const char *text, const char *code, int id) {
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
void expect_error_msg(ws_conn *c, player *p, const char *code, const char *fmt, ...) {
  static char text[70100];
  va_list ap;
  va_start(ap, fmt);
  int id = with_id(text, sizeof text, fmt, ap);
  va_end(ap);
  expect_error(c, p, text, code, id);
}


/* Sends "{"id": N, BODY}" (BODY from fmt) on c and returns the reply with that id; every other
 * message meanwhile is dropped. */
json_t *ask(ws_conn *c, const char *fmt, ...) {
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
void want_code(json_t *r, const char *code, const char *what) {
  if (!jstr(r, "type") || strcmp(jstr(r, "type"), "error") || !jstr(r, "code") || strcmp(jstr(r, "code"), code))
    fail_msg("%s: wanted error %s, got %s", what, code, dump(r));
  json_decref(r);
}

void want_type(json_t *r, const char *type, const char *what) {
  if (!jstr(r, "type") || strcmp(jstr(r, "type"), type)) fail_msg("%s: wanted %s, got %s", what, type, dump(r));
}

void alive_or_fail(srv *s, const char *after) {
  char *body = NULL;
  if (!srv_alive(s) || http_get(HOST, s->port, "/api/games", WAIT_MS, &body, NULL) != 200)
    fail_msg("the server died after %s (status 0x%x)", after, s->status);
  free(body);
}


/* Reads c for ms, answering pings: false when it was closed meanwhile. */
bool keep_reading(ws_conn *c, int ms) {
  for (int64_t end = ws_now_ms() + ms; ws_now_ms() < end;) {
    json_t *m = ws_recv_json(c, 100);
    json_decref(m);
    if (ws_get_state(c) == WS_CLOSED) return false;
  }
  return true;
}

/* Arguments of `pilfer serve` for a server of a test's own: as they are, or without their
 * "--limit NAME=N" pairs when PILFER has no --limit (an older pilfer: run against it, the tests of
 * the limits fail on what the server does, not on its refusing to start). */
bool has_limits = true;

const char *const *serve_args(const char *const *args) {
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
void own_server(srv *s, const char *name, const char *const *args) {
  char db[400], log[400];
  snprintf(db, sizeof db, "%s/%s.db", tmpdir, name);
  snprintf(log, sizeof log, "%s/%s.log", tmpdir, name);
  *s = (srv){.args = serve_args(args)};
  if (srv_start(s, pilfer, db, log, WAIT_MS) != 0) fail_msg("the server did not start: %s", s->error);
}

void stop_own(srv *s) {
  int status = srv_stop(s, SIGTERM, 20000);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) fail_msg("the server did not stop cleanly: 0x%x", status);
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
int forget_problems(void **st) {
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

int srvtest_main(int argc, char **argv, const char *name, const struct CMUnitTest *tests, size_t n) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_%s PILFER [TEST...]\n", name);
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
  rng_state = seed ? strtoull(seed, NULL, 10) : 1;
  printf("PILFER_TEST_SEED=%llu\n", (unsigned long long)rng_state);
  snprintf(tmpdir, sizeof tmpdir, "%s/pilfer-test-%s-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
           name);
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  printf("server files in %s\n", tmpdir);
  struct CMUnitTest *chosen = calloc(n ? n : 1, sizeof *chosen);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    bool want = argc < 3;
    for (int a = 2; a < argc; a++) want |= !strcmp(argv[a], tests[i].name);
    if (want) chosen[k++] = tests[i];
  }
  int failed = _cmocka_run_group_tests(name, chosen, k, start_server, stop_server);
  free(chosen);
  if (!failed) {
    char *rm[] = {"/bin/rm", "-rf", tmpdir, NULL};
    proc_run(rm, NULL, NULL);
  }
  return failed ? 1 : 0;
}
