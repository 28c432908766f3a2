/*
 * test_server_play.c - whole games on `pilfer serve` (docs/protocol.md), each checked against the
 * engine (tests/support/srvcheck.c):
 *   - the games as `pilfer games --json`, GET /api/games and the `games` message tell them;
 *   - every registered game to the end, two seats played here (random legal moves) and the rest
 *     by bots, with a spectator; Point-a-Pile's sealed choices are sent in both orders, the
 *     higher seat alone first in every other group; each game's strong bot;
 *   - a dropped connection resumed with its token; leave before the start (the seat opens again,
 *     the token dies) and during the game (a bot plays the seat); a silent seat taken over;
 *   - recovery: the server killed with SIGKILL mid-game and restarted on its database keeps every
 *     acknowledged move, and the games finish; `pilfer backup` while games are played.
 * Usage: test_server_play PILFER [TEST...] (tests/support/srvtest.h).
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


/* `pilfer backup` in the middle of several games (docs/operations.md, "Backups"): the server
 * plays on while the copy is taken and after it, and a second server started on the copy holds
 * every table at or past every move acknowledged before the backup began. */
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

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      SRV_TEST(games_and_http),
      SRV_TEST(every_game),
      SRV_TEST(strong_bots),
      SRV_TEST(reconnect),
      SRV_TEST(leave),
      SRV_TEST(takeover),
      SRV_TEST(recovery),
      SRV_TEST(online_backup),
  };
  return srvtest_main(argc, argv, "server_play", tests, sizeof tests / sizeof *tests);
}
