/*
 * test_exec.c - what keeps the exec bot (bots/exec.c) out of the server: a spec that starts a
 * program is refused by every bot-spec check the server makes (a table's seats, its takeover bot,
 * a hint), as a client's messages reach them, while the same spec is taken where programs are
 * allowed. And what a run says of programs that fail: sim's counts of their failures by kind, of
 * the moves their fallback played and of the games lost by failure, with shell one-liners as the
 * programs (a handshake with a NUL byte, or not UTF-8, is refused). The protocol is tested further
 * from Python (tests/python), with real programs.
 *
 * The measuring instruments (ismcts see=hands and see=all, which read what their seat cannot see)
 * are kept out the same way: refused by every check the server makes, in the hall and by the real
 * `pilfer serve` (a table's seat, its takeover bot, a hint), taken by sim, whose result says so.
 */
#include <stdio.h>
#include <string.h>

#include "testutil.h"

#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "bots/bot.h"
#include "server/hall.h"
#include "srvproc.h"
#include "wsclient.h"

static const char *pilfer_bin; /* argv[1]: the pilfer that `serve`s */

static pf_buf replies;

static void on_send(void *ctx, void *peer, const char *text, size_t len) {
  (void)ctx, (void)peer;
  pf_buf_append(&replies, text, len);
  pf_buf_putc(&replies, '\n');
}

/* The hall's reply to one message of a fresh connection. */
static const char *ask_hall(const char *msg) {
  pf_hall_io io = {.send = on_send};
  pf_hall_config cfg = {.db = ":memory:", .workers = 0};
  pf_error err;
  pf_hall *h = pf_hall_open(&cfg, &io, &err);
  if (!h) fail_msg("the hall does not open: %s", err.msg);
  pf_conn *c = pf_hall_connect(h, NULL, NULL);
  pf_buf_clear(&replies);
  pf_hall_message(h, c, msg, strlen(msg));
  pf_hall_flush(h); /* replies wait for the pass's commit (hall.h) */
  pf_hall_disconnect(h, c);
  pf_hall_close(h);
  return pf_buf_str(&replies);
}

static void expect_refused(const char *msg) {
  const char *reply = ask_hall(msg);
  if (!strstr(reply, "\"bad_seat_spec\"") || !strstr(reply, "starts a program"))
    fail_msg("not refused as a program: %s\nreply: %s", msg, reply);
}

static void server_refuses_exec(void **unused) {
  (void)unused;
  pf_bot_allow_programs(false); /* as `pilfer serve` runs (cli/main.c) */
  expect_refused("{\"type\": \"create\", \"id\": 1, \"game\": \"steal-the-pile\", \"players\": 2, "
                 "\"seats\": [\"open\", \"exec:touch /tmp/pilfer-exec-test-must-not-exist\"]}");
  expect_refused("{\"type\": \"create\", \"id\": 1, \"game\": \"steal-the-pile\", \"players\": 2, "
                 "\"takeover\": {\"after\": 60, \"bot\": \"exec:ms=100:true\"}}");
  /* The same message with a bot the server runs itself is taken: the refusal is the program's. */
  const char *ok = ask_hall("{\"type\": \"create\", \"id\": 1, \"game\": \"steal-the-pile\", \"players\": 2, "
                            "\"seats\": [\"open\", \"greedy\"]}");
  if (!strstr(ok, "\"created\"")) fail_msg("a greedy seat was refused: %s", ok);
  FILE *f = fopen("/tmp/pilfer-exec-test-must-not-exist", "r");
  if (f) {
    fclose(f);
    fail_msg("a client's spec started a program");
  }
}

/* The real `pilfer serve`, over a WebSocket: the command line leaves programs off for serve. */
static void pilfer_serve_refuses_exec(void **unused) {
  (void)unused;
  char dir[] = "/tmp/pilfer-exec-XXXXXX", db[64], log[64];
  if (!mkdtemp(dir)) fail_msg("mkdtemp");
  snprintf(db, sizeof db, "%s/db", dir);
  snprintf(log, sizeof log, "%s/log", dir);
  srv s = {0}; /* srv_start reads s->args */
  if (srv_start(&s, pilfer_bin, db, log, 10000) != 0) fail_msg("pilfer serve: %s", s.error);
  ws_conn *c = ws_connect("127.0.0.1", s.port, "/ws", "pilfer", 10000);
  if (!c) fail_msg("connect: %s", ws_last_error());
  const char *msg = "{\"type\": \"create\", \"id\": 1, \"game\": \"steal-the-pile\", \"players\": 2, "
                    "\"seats\": [\"open\", \"exec:true\"]}";
  ws_send_text(c, msg, strlen(msg));
  json_t *r = ws_recv_json(c, 10000);
  char *text = r ? json_dumps(r, JSON_COMPACT) : NULL;
  ws_close(c, 1000);
  srv_stop(&s, SIGTERM, 5000);
  unlink(db);
  unlink(log);
  rmdir(dir);
  if (!text || !strstr(text, "\"bad_seat_spec\"") || !strstr(text, "starts a program"))
    fail_msg("pilfer serve took an exec seat: %s", text ? text : "(no reply)");
  free(text);
  json_decref(r);
}

static void specs_where_programs_are_allowed(void **unused) {
  (void)unused;
  pf_error err;
  pf_bot_allow_programs(true); /* play, sim, import pilfer */
  assert_int_equal(pf_bot_check_spec("exec:python3 bot.py", &err), 0);
  assert_int_equal(pf_bot_check_spec("exec:ms=500,fail=lose:python3 bot.py --depth 3", &err), 0);
  /* A command whose first word holds '=' but is not a setting list is a command. */
  assert_int_equal(pf_bot_check_spec("exec:env A=1 prog", &err), 0);
  assert_int_not_equal(pf_bot_check_spec("exec:", &err), 0);
  assert_non_null(strstr(err.msg, "needs a command"));
  assert_int_not_equal(pf_bot_check_spec("exec:ms=0:prog", &err), 0);
  assert_non_null(strstr(err.msg, "bad value '0' for ms"));
  assert_int_not_equal(pf_bot_check_spec("exec:speed=3:prog", &err), 0);
  assert_non_null(strstr(err.msg, "has no setting 'speed'"));
  pf_bot_allow_programs(false);
}

/* ---- measuring instruments ---- */

static void expect_instrument_refused(const char *msg, const char *setting) {
  const char *reply = ask_hall(msg);
  if (!strstr(reply, "\"bad_seat_spec\"") || !strstr(reply, "measuring instrument") || !strstr(reply, setting))
    fail_msg("not refused as a measuring instrument: %s\nreply: %s", msg, reply);
}

static void server_refuses_instruments(void **unused) {
  (void)unused;
  pf_bot_allow_instruments(false); /* as `pilfer serve` runs (cli/main.c) */
  expect_instrument_refused("{\"type\": \"create\", \"id\": 1, \"game\": \"steal-the-pile\", \"players\": 2, "
                            "\"seats\": [\"open\", \"ismcts:see=all\"]}", "see=all");
  expect_instrument_refused("{\"type\": \"create\", \"id\": 1, \"game\": \"thief\", \"players\": 2, "
                            "\"seats\": [\"ismcts:iters=50,see=hands\", \"open\"]}", "see=hands");
  expect_instrument_refused("{\"type\": \"create\", \"id\": 1, \"game\": \"steal-the-pile\", \"players\": 2, "
                            "\"takeover\": {\"after\": 60, \"bot\": \"ismcts:see=all\"}}", "see=all");
  /* The fair search, named with its setting, is taken: the refusal is the instrument's. */
  const char *ok = ask_hall("{\"type\": \"create\", \"id\": 1, \"game\": \"steal-the-pile\", \"players\": 2, "
                            "\"seats\": [\"open\", \"ismcts:iters=50,see=fair\"]}");
  if (!strstr(ok, "\"created\"")) fail_msg("a fair ismcts seat was refused: %s", ok);
}

/* The next message on c that answers request id (others, such as the table's updates, skipped). */
static json_t *reply_to(ws_conn *c, int id) {
  for (int k = 0; k < 50; k++) {
    json_t *r = ws_recv_json(c, 10000);
    if (!r) return NULL;
    if (json_integer_value(json_object_get(r, "id")) == id) return r;
    json_decref(r);
  }
  return NULL;
}

static json_t *ask_ws(ws_conn *c, int id, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  ws_send_text(c, msg, strlen(msg));
  return reply_to(c, id);
}

static char *json_text(json_t *r) { return r ? json_dumps(r, JSON_COMPACT) : strdup("(no reply)"); }

/* The real `pilfer serve`: a seat, and a hint, asked of a measuring instrument over a WebSocket. */
static void pilfer_serve_refuses_instruments(void **unused) {
  (void)unused;
  char dir[] = "/tmp/pilfer-inst-XXXXXX", db[64], log[64];
  if (!mkdtemp(dir)) fail_msg("mkdtemp");
  snprintf(db, sizeof db, "%s/db", dir);
  snprintf(log, sizeof log, "%s/log", dir);
  srv s = {0};
  if (srv_start(&s, pilfer_bin, db, log, 10000) != 0) fail_msg("pilfer serve: %s", s.error);
  ws_conn *c = ws_connect("127.0.0.1", s.port, "/ws", "pilfer", 10000);
  if (!c) fail_msg("connect: %s", ws_last_error());
  json_t *seat = ask_ws(c, 1, "{\"type\": \"create\", \"id\": 1, \"game\": \"steal-the-pile\", \"players\": 2, "
                              "\"seats\": [\"open\", \"ismcts:see=all\"]}");
  json_t *made = ask_ws(c, 2, "{\"type\": \"create\", \"id\": 2, \"game\": \"steal-the-pile\", \"players\": 2, "
                              "\"seats\": [\"open\", \"greedy\"]}");
  json_int_t table = json_integer_value(json_object_get(made, "table"));
  json_t *joined = ask_ws(c, 3, "{\"type\": \"join\", \"id\": 3, \"table\": %lld, \"seat\": 0, \"name\": \"Ann\"}",
                          (long long)table);
  const char *token = json_string_value(json_object_get(joined, "token"));
  json_t *hint = ask_ws(c, 4, "{\"type\": \"hint\", \"id\": 4, \"table\": %lld, \"token\": \"%s\", "
                              "\"bot\": \"ismcts:iters=50,see=hands\"}", (long long)table, token ? token : "");
  json_t *fair = ask_ws(c, 5, "{\"type\": \"hint\", \"id\": 5, \"table\": %lld, \"token\": \"%s\", "
                              "\"bot\": \"ismcts:iters=50\"}", (long long)table, token ? token : "");
  char *t_seat = json_text(seat), *t_made = json_text(made), *t_joined = json_text(joined), *t_hint = json_text(hint),
       *t_fair = json_text(fair);
  ws_close(c, 1000);
  srv_stop(&s, SIGTERM, 5000);
  unlink(db);
  unlink(log);
  rmdir(dir);
  if (!strstr(t_seat, "\"bad_seat_spec\"") || !strstr(t_seat, "measuring instrument") || !strstr(t_seat, "see=all"))
    fail_msg("pilfer serve took a see=all seat: %s", t_seat);
  if (!strstr(t_made, "\"created\"") || !token) fail_msg("no table to ask a hint at: %s, %s", t_made, t_joined);
  if (!strstr(t_hint, "\"bad_seat_spec\"") || !strstr(t_hint, "hint: ") || !strstr(t_hint, "see=hands"))
    fail_msg("pilfer serve gave a see=hands hint: %s", t_hint);
  if (!strstr(t_fair, "\"type\":\"hint\"")) fail_msg("a fair hint was refused: %s", t_fair);
  free(t_seat), free(t_made), free(t_joined), free(t_hint), free(t_fair);
  json_decref(seat), json_decref(made), json_decref(joined), json_decref(hint), json_decref(fair);
}

/* Where they are allowed (sim, analyze), the result says which bots are not fair. */
static void sim_marks_instruments(void **unused) {
  (void)unused;
  pf_error err;
  assert_null(pf_bot_instrument("ismcts"));
  assert_null(pf_bot_instrument("ismcts:see=fair,iters=10"));
  assert_null(pf_bot_instrument("greedy"));
  assert_null(pf_bot_instrument("exec:true"));
  assert_string_equal(pf_bot_instrument("ismcts:see=hands"), "see=hands");
  assert_string_equal(pf_bot_instrument("ismcts:iters=10,see=all"), "see=all");
  assert_int_not_equal(pf_bot_check_spec("ismcts:see=all", &err), 0);
  assert_non_null(strstr(err.msg, "measuring instrument"));
  pf_bot_allow_instruments(true); /* sim and analyze (cli/main.c) */
  assert_int_equal(pf_bot_check_spec("ismcts:see=all", &err), 0);
  const char *const seats[] = {"ismcts:iters=20,see=all", "greedy"};
  pf_sim_config c = tu_sim_config("steal-the-pile", 2, 4, true, seats);
  pf_sim_result r;
  tu_sim_run(&c, 1, NULL, &r);
  json_t *j = pf_sim_json(&r), *bots = json_object_get(j, "bots");
  assert_string_equal(json_string_value(json_object_get(json_array_get(bots, 0), "bot")), "ismcts:iters=20,see=all");
  assert_true(json_is_false(json_object_get(json_array_get(bots, 0), "fair")));
  assert_true(json_is_true(json_object_get(json_array_get(bots, 1), "fair")));
  json_decref(j);
  pf_bot_allow_instruments(false);
}

/* ---- failures, counted ---- */

/* Runs games of Steal the Pile for two, seat 0's bot given, seat 1's random. */
static void run_two(const char *seat0, long long games, bool rotate, pf_sim_result *r) {
  const char *const seats[] = {seat0, "random"};
  pf_sim_config c = tu_sim_config("steal-the-pile", 2, games, rotate, seats);
  tu_sim_run(&c, 1, NULL, r);
}

/* What seat 0's program did in every game, and nothing counted for seat 1. */
static void expect_failed(const pf_sim_result *r, pf_bot_fail_kind kind, bool lost) {
  const pf_sim_sums *s = &r->sums;
  for (int k = 0; k < PF_BOT_FAIL_KINDS; k++) {
    if (s->failed[k][0] != (k == (int)kind ? s->games : 0))
      fail_msg("%s: %lld games failed as %s, of %lld", r->config.seats[0], s->failed[k][0], pf_bot_fail_names[k],
               s->games);
    assert_int_equal(s->failed[k][1], 0);
  }
  /* Every decision of the seat was the fallback's: in Steal the Pile a seat makes half the moves. */
  assert_int_equal(2 * s->fallback_moves[0], s->moves);
  assert_int_equal(s->lost[0], lost ? s->games : 0);
  assert_int_equal(s->fallback_moves[1] + s->lost[1], 0);
}

static void sim_counts_failures_by_kind(void **unused) {
  (void)unused;
  pf_bot_allow_programs(true);
  pf_sim_result r, plain;
  /* A program that ends at once: the random bot plays its seat, from the bot's own generator, so
   * the games are those of a random seat 0, and the result says they were. */
  run_two("exec:true", 3, false, &r);
  expect_failed(&r, PF_BOT_ENDED, false);
  run_two("random", 3, false, &plain);
  assert_memory_equal(r.sums.win, plain.sums.win, sizeof r.sums.win);
  assert_int_equal(r.sums.moves, plain.sums.moves);
  /* fail=lose: every game lost, and so counted. */
  run_two("exec:fail=lose:true", 3, false, &r);
  expect_failed(&r, PF_BOT_ENDED, true);
  assert_int_equal(r.sums.win[0], 0);
  run_two("exec:ms=50:sleep 5", 2, false, &r);
  expect_failed(&r, PF_BOT_TIMEOUT, false);
  run_two("exec:read l; echo '{\"name\": \"x\", \"version\": \"1\"}'; read l; echo zz; cat >/dev/null", 2, false, &r);
  expect_failed(&r, PF_BOT_ILLEGAL, false);
  /* A handshake with a NUL byte after it, which a reader of C strings would take, is refused, as
   * is one that is not UTF-8. */
  run_two("exec:read l; printf '{\"name\": \"x\", \"version\": \"1\"}\\000junk\\n'; cat >/dev/null", 2, false, &r);
  expect_failed(&r, PF_BOT_PROTOCOL, false);
  run_two("exec:read l; printf '{\"name\": \"x\\377\", \"version\": \"1\"}\\n'; cat >/dev/null", 2, false, &r);
  expect_failed(&r, PF_BOT_PROTOCOL, false);
  /* With the seats rotated the counts stay with the bot of --seat 0, wherever it sits. */
  run_two("exec:fail=lose:true", 4, true, &r);
  expect_failed(&r, PF_BOT_ENDED, true);
  assert_int_equal(r.sums.win[0] + r.sums.win[1], r.sums.bot_win[1]);
  /* The counts in the JSON a program reads. */
  json_t *j = pf_sim_json(&r), *f = json_array_get(json_object_get(j, "failures"), 0);
  assert_string_equal(json_string_value(json_object_get(f, "fail")), "lose");
  assert_int_equal(json_integer_value(json_object_get(f, "games")), 4);
  assert_int_equal(json_integer_value(json_object_get(f, "ended")), 4);
  assert_int_equal(json_integer_value(json_object_get(f, "lost")), 4);
  assert_int_equal(json_integer_value(json_object_get(f, "fallback_moves")), r.sums.moves / 2);
  f = json_array_get(json_object_get(j, "failures"), 1);
  assert_true(json_is_null(json_object_get(f, "fail")));
  assert_int_equal(json_integer_value(json_object_get(f, "games")), 0);
  json_decref(j);
  pf_bot_allow_programs(false);
}

/* The shards of a run with failures, merged directly and through their JSON, count them all. */
static void failures_merge(void **unused) {
  (void)unused;
  pf_bot_allow_programs(true);
  const char *const seats[] = {"exec:fail=lose:true", "random"};
  pf_sim_config c = tu_sim_config("steal-the-pile", 2, 5, false, seats);
  pf_sim_result whole, parts[3], reread[3], merged;
  pf_error err;
  tu_sim_run(&c, 1, NULL, &whole);
  for (int i = 0; i < 3; i++) {
    pf_sim_config sc = c;
    sc.shard = i + 1;
    sc.nshards = 3;
    tu_sim_run(&sc, 1, NULL, &parts[i]);
    json_t *j = pf_sim_json(&parts[i]);
    if (pf_sim_from_json(j, "part", &reread[i], &err) != 0) fail_msg("%s", err.msg);
    json_decref(j);
  }
  char *want = tu_sim_text(&whole);
  for (int k = 0; k < 2; k++) {
    assert_int_equal(pf_sim_merge(k ? reread : parts, 3, &merged, &err), 0);
    assert_int_equal(merged.sums.failed[PF_BOT_ENDED][0], 5);
    assert_int_equal(merged.sums.lost[0], 5);
    char *got = tu_sim_text(&merged);
    assert_string_equal(want, got);
    free(got);
  }
  free(want);
  /* A result from before the counts (no sums.failures) reads as none; a bad count is refused. */
  json_t *j = pf_sim_json(&parts[0]);
  json_object_del(json_object_get(j, "sums"), "failures");
  assert_int_equal(pf_sim_from_json(j, "old.json", &reread[0], &err), 0);
  assert_int_equal(reread[0].sums.lost[0], 0);
  json_decref(j);
  j = pf_sim_json(&parts[0]);
  json_object_set_new(json_object_get(json_object_get(j, "sums"), "failures"), "lost", json_pack("[i, i]", -1, 0));
  assert_int_equal(pf_sim_from_json(j, "f.json", &reread[0], &err), -1);
  assert_string_equal(err.msg, "f.json: sums.failures.lost[0]: expected a count (0 or more)");
  json_decref(j);
  pf_bot_allow_programs(false);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_exec PILFER\n");
    return 2;
  }
  pilfer_bin = argv[1];
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(server_refuses_exec),
      cmocka_unit_test(pilfer_serve_refuses_exec),
      cmocka_unit_test(specs_where_programs_are_allowed),
      cmocka_unit_test(server_refuses_instruments),
      cmocka_unit_test(pilfer_serve_refuses_instruments),
      cmocka_unit_test(sim_marks_instruments),
      cmocka_unit_test(sim_counts_failures_by_kind),
      cmocka_unit_test(failures_merge),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  pf_buf_free(&replies);
  return rc;
}
