/*
 * test_server_clients.c - `pilfer serve` against clients that send what they should not
 * (docs/protocol.md, "Limits and errors"), while other tables play on: another seat's move, wrong
 * tokens, garbage, unknown tables, illegal and stale moves, a 10 MB message, a flood; bindings
 * past the limit, text cut inside a character, an over-long bot, hints of huge budgets, 10,000
 * random and mutated messages; connections that close before their first request.
 * Usage: test_server_clients PILFER [TEST...] (tests/support/srvtest.h).
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
  /* a move carries the ply it was chosen at (docs/protocol.md, "move") */
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

/* bindings past the limit (a use after free). 33 tables watched, the 33rd
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

/* Client text with multibyte characters cut into an error reply (an abort). */
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

/* An over-long takeover bot is refused in words (its error text was unset). */
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

/* Skip-Bo Junior, where a seat moves several times in a row: a move sent with the ply
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

/* Creates a table of two random bots and waits until it is over: the milliseconds it took, or -1
 * past limit_ms. */
static int64_t bots_table_ms(int64_t limit_ms) {
  int64_t t0 = ws_now_ms();
  json_t *r = ask(lobby, "\"type\": \"create\", \"game\": \"steal-the-pile\", \"players\": 2, \"seats\": [\"random\", \"random\"]");
  char path[64];
  snprintf(path, sizeof path, "/api/tables/%lld", jint(r, "table"));
  json_decref(r);
  for (;;) {
    json_t *sum = http_json(&server, path, 200);
    bool over = !strcmp(jstr(sum, "status"), "over");
    json_decref(sum);
    if (over) return ws_now_ms() - t0;
    if (ws_now_ms() - t0 > limit_ms) return -1;
    usleep(50000);
  }
}

/* Whether a table of two random bots, created now, ends within limit_ms. */
static bool bots_table_ends(int64_t limit_ms) {
  int64_t ms = bots_table_ms(limit_ms);
  if (ms >= 0) print_message("a table of bots ended in %lld ms while hints were asked\n", (long long)ms);
  return ms >= 0;
}

/* Hints of huge budgets, from two connections at once, do not starve a table of bots
 * (they are refused); one hint at a time per connection; bots over budget are refused. */
static void hints(void **st) {
  (void)st;
  ws_conn *p = connect_or_fail(&server), *q = connect_or_fail(&server);
  char token[40], token2[40], msg[300];
  long long t = joined_table(p, token), t2 = joined_table(q, token2);
  /* the bound: 10 s, or ten times the quiet time of such a table in this run when that is more */
  int64_t quiet = bots_table_ms(WAIT_MS), limit = 10 * quiet > 10000 ? 10 * quiet : 10000;
  if (quiet < 0) fail_msg("a table of two random bots did not end in %d s on a quiet server", WAIT_MS / 1000);
  /* two hints of 10^8 iterations, on every worker there is of a 2-core machine */
  int n = snprintf(msg, sizeof msg, "{\"type\": \"hint\", \"id\": 1, \"table\": %lld, \"token\": \"%s\", \"bot\": \"ismcts:iters=100000000\"}", t, token);
  ws_send_text(p, msg, (size_t)n);
  n = snprintf(msg, sizeof msg, "{\"type\": \"hint\", \"id\": 1, \"table\": %lld, \"token\": \"%s\", \"bot\": \"ismcts:iters=100000000\"}", t2, token2);
  ws_send_text(q, msg, (size_t)n);
  if (!bots_table_ends(limit))
    fail_msg("a table of two random bots did not end in %lld ms after two hints of 10^8 iterations (quiet %lld ms)",
             (long long)limit, (long long)quiet);
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
  if (!bots_table_ends(limit))
    fail_msg("a table of two random bots did not end in %lld ms while a hint ran (quiet %lld ms)", (long long)limit,
             (long long)quiet);
  ws_close(p, WS_CLOSE_NORMAL); /* the asker goes before its hint ends */
  ws_close(q, WS_CLOSE_NORMAL);
  alive_or_fail(&server, "a hint's asker left");
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

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      SRV_TEST(bad_clients),
      SRV_TEST(bindings),
      SRV_TEST(bad_utf8),
      SRV_TEST(long_bot),
      SRV_TEST(stale_ply),
      SRV_TEST(hints),
      SRV_TEST(random_messages),
      SRV_TEST(idle_connections),
  };
  return srvtest_main(argc, argv, "server_clients", tests, sizeof tests / sizeof *tests);
}
