/*
 * test_exec.c - what keeps the exec bot (bots/exec.c) out of the server: a spec that starts a
 * program is refused by every bot-spec check the server makes (a table's seats, its takeover bot,
 * a hint), as a client's messages reach them, while the same spec is taken where programs are
 * allowed. The protocol itself is tested from Python (tests/python), with real programs.
 */
#include <stdio.h>
#include <string.h>

#include "testutil.h"

#include <signal.h>
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
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  pf_buf_free(&replies);
  return rc;
}
