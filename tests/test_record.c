/*
 * test_record.c - game records (SPEC §2): written records replay exactly; malformed records and
 * illegal moves get a clear message saying what and where, never a crash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Plays a whole game with the first legal move every time and returns its record as text. */
static char *finished_record(const char *game, int players, uint64_t seed, const char *options) {
  const pf_game *g = pf_game_find(game);
  pf_setup s = {.players = players, .seed = seed};
  pf_options_default(g->options, g->noptions, &s.options);
  pf_error err;
  if (options && pf_option_parse_kv(g->options, g->noptions, options, &s.options, &err) != 0) fail_msg("%s", err.msg);
  pf_run r;
  assert_int_equal(pf_run_start(&r, g, &s, &err), 0);
  while (pf_run_to_move(&r) != PF_NOBODY) {
    pf_move m[PF_MAX_MOVES];
    g->legal(r.state, m);
    pf_run_play(&r, m[0]);
  }
  json_t *j = pf_record_json(&r);
  char *text = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
  json_decref(j);
  pf_run_free(&r);
  return text;
}

/* Reads a record that must parse and replays all of it, which must succeed. */
static void replay_ok(const char *text, pf_record *rec, pf_run *run) {
  pf_error err;
  if (pf_record_parse(text, strlen(text), rec, &err) != 0) fail_msg("record does not parse: %s", err.msg);
  if (pf_record_replay(rec, -1, run, NULL, &err) != 0) fail_msg("record does not replay: %s", err.msg);
}

/* Parses text that must be refused with a message containing `want`. */
static void expect_malformed(const char *text, const char *want) {
  pf_record rec;
  pf_error err;
  if (pf_record_parse(text, strlen(text), &rec, &err) == 0) fail_msg("accepted: %s", text);
  if (!strstr(err.msg, want)) fail_msg("for %s\n  message \"%s\"\n  should say \"%s\"", text, err.msg, want);
}

static void test_malformed_records(void **unused) {
  (void)unused;
  expect_malformed("", "not valid JSON: line 1");
  expect_malformed("{\"game\": ", "not valid JSON");
  expect_malformed("[1,2]", "a record is a JSON object");
  expect_malformed("{\"players\":2,\"moves\":[]}", "game:");
  expect_malformed("{\"game\":\"chess\",\"players\":2,\"moves\":[]}", "unknown game 'chess'");
  expect_malformed("{\"game\":\"steal-the-pile\",\"players\":13,\"moves\":[]}", "players: steal-the-pile is for 1 to 12 players, not 13");
  expect_malformed("{\"game\":\"steal-the-pile\",\"players\":\"2\",\"moves\":[]}", "players: expected an integer");
  expect_malformed("{\"game\":\"steal-the-pile\",\"players\":2,\"options\":{\"tagret\":5},\"moves\":[]}",
                   "options: unknown option 'tagret'; options are: target");
  expect_malformed("{\"game\":\"steal-the-pile\",\"players\":2,\"options\":{\"target\":true},\"moves\":[]}",
                   "options.target: expected an integer");
  expect_malformed("{\"game\":\"steal-the-pile\",\"players\":2,\"options\":{\"target\":-4},\"moves\":[]}",
                   "options.target: bad value -4");
  expect_malformed("{\"game\":\"steal-the-pile\",\"players\":2,\"seed\":-1,\"moves\":[]}", "seed:");
  expect_malformed("{\"game\":\"steal-the-pile\",\"players\":2,\"deals\":[[\"AS\",\"7X\"]],\"moves\":[]}",
                   "deals[0][1]: '7X' is not a card");
  expect_malformed("{\"game\":\"steal-the-pile\",\"players\":2,\"deals\":[\"AS\"],\"moves\":[]}", "deals[0]: expected an array");
  expect_malformed("{\"game\":\"steal-the-pile\",\"players\":2}", "moves: expected an array");
  expect_malformed("{\"game\":\"steal-the-pile\",\"players\":2,\"moves\":[\"7H\",3]}", "moves[1]: expected a string");
  expect_malformed("{\"game\":\"steal-the-pile\",\"players\":2,\"moves\":[],\"result\":{\"scores\":[1],\"winners\":[0]}}",
                   "result.scores: 1 scores for 2 players");
  expect_malformed("{\"game\":\"steal-the-pile\",\"players\":2,\"moves\":[],\"result\":{\"scores\":[1,2],\"winners\":[5]}}",
                   "result.winners[0]: 5 is not a seat");
  expect_malformed("{\"game\":\"steal-the-pile\",\"game\":\"x\",\"players\":2,\"moves\":[]}", "duplicate");
}

/* A deal that is not the game's deck is refused when the game starts, naming the deal. */
static void test_record_with_wrong_deal(void **unused) {
  (void)unused;
  const char *text = "{\"game\":\"steal-the-pile\",\"players\":2,\"deals\":[[\"AS\",\"AS\"]],\"moves\":[]}";
  pf_record rec;
  pf_error err;
  assert_int_equal(pf_record_parse(text, strlen(text), &rec, &err), 0);
  pf_run run;
  assert_int_equal(pf_record_replay(&rec, -1, &run, NULL, &err), -1);
  assert_non_null(strstr(err.msg, "deal 1: the deal has 2 cards, the game needs 52"));
  pf_record_free(&rec);
}

/* SPEC §1: the first illegal move is reported as move K ("<move>"): <reason>, K from 1. */
static void test_illegal_move_named(void **unused) {
  (void)unused;
  char *text = finished_record("steal-the-pile", 2, 11, NULL);
  json_t *j = json_loads(text, 0, NULL);
  json_t *moves = json_object_get(j, "moves");
  json_array_set_new(moves, 2, json_string("QQ>p9"));
  char *bad = json_dumps(j, JSON_COMPACT);
  pf_record rec;
  pf_error err;
  assert_int_equal(pf_record_parse(bad, strlen(bad), &rec, &err), 0);
  pf_run run;
  int failed = -1;
  assert_int_equal(pf_record_replay(&rec, -1, &run, &failed, &err), -1);
  assert_int_equal(failed, 3);
  assert_int_equal(run.nmoves, 2); /* left before the bad move */
  if (strncmp(err.msg, "move 3 (\"QQ>p9\"): ", 18) != 0) fail_msg("message: %s", err.msg);
  pf_run_free(&run);
  pf_record_free(&rec);
  free(bad);
  json_decref(j);
  free(text);
}

/* A record whose result is not what the moves give is refused, saying both. */
static void test_result_checked(void **unused) {
  (void)unused;
  char *text = finished_record("steal-the-pile", 3, 4, NULL);
  pf_record rec;
  pf_error err;
  pf_run run;
  replay_ok(text, &rec, &run);
  assert_int_equal(pf_record_check_result(&rec, &run, &err), 0);
  rec.scores[0] += 1;
  assert_int_equal(pf_record_check_result(&rec, &run, &err), -1);
  assert_non_null(strstr(err.msg, "the result differs"));
  pf_run_free(&run);
  /* Stopping early: the game is not over, so a recorded result cannot hold. */
  rec.scores[0] -= 1;
  assert_int_equal(pf_record_replay(&rec, 10, &run, NULL, &err), 0);
  assert_int_equal(run.nmoves, 10);
  assert_int_equal(pf_record_check_result(&rec, &run, &err), -1);
  assert_non_null(strstr(err.msg, "not over"));
  pf_run_free(&run);
  pf_record_free(&rec);
  free(text);
}

/* A record written and read back is the same record, and replays to the same result; a match
 * record carries one deal per game (STP-7), and a record that gives fewer deals lets the engine
 * shuffle the rest from the seed (SPEC §2), reproducing the same match. */
static void test_roundtrip_and_missing_deals(void **unused) {
  (void)unused;
  char *text = finished_record("steal-the-pile", 4, 99, "target=60");
  json_t *j = json_loads(text, 0, NULL);
  size_t ndeals = json_array_size(json_object_get(j, "deals"));
  assert_true(ndeals >= 2); /* 52 cards a game: 60 needs at least two games */
  pf_record rec;
  pf_error err;
  pf_run run;
  replay_ok(text, &rec, &run);
  assert_int_equal(pf_record_check_result(&rec, &run, &err), 0);
  json_t *again = pf_record_json(&run);
  char *text2 = json_dumps(again, JSON_COMPACT | JSON_PRESERVE_ORDER);
  assert_string_equal(text, text2);
  pf_run_free(&run);
  pf_record_free(&rec);
  /* Drop every deal but the first. */
  while (json_array_size(json_object_get(j, "deals")) > 1) json_array_remove(json_object_get(j, "deals"), 1);
  char *fewer = json_dumps(j, JSON_COMPACT);
  replay_ok(fewer, &rec, &run);
  assert_int_equal(pf_record_check_result(&rec, &run, &err), 0);
  assert_int_equal(run.ndeals, (int)ndeals);
  pf_run_free(&run);
  pf_record_free(&rec);
  free(fewer);
  free(text2);
  json_decref(again);
  json_decref(j);
  free(text);
}

/* Saving writes the file whole; reading it back replays it. */
static void test_save_and_load(void **unused) {
  (void)unused;
  char *text = finished_record("steal-the-pile", 2, 5, NULL);
  pf_record rec;
  pf_error err;
  pf_run run;
  replay_ok(text, &rec, &run);
  char path[] = "/tmp/pilfer-test-record-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(pf_record_save(&run, path, &err), 0);
  pf_record back;
  assert_int_equal(pf_record_load(path, &back, &err), 0);
  assert_int_equal(back.nmoves, 48); /* STP-2: 52 - 4 open piles */
  assert_true(back.has_result);
  pf_record_free(&back);
  assert_int_equal(pf_record_load("/nonexistent/x.json", &back, &err), -1);
  assert_non_null(strstr(err.msg, "/nonexistent/x.json: cannot open"));
  remove(path);
  pf_run_free(&run);
  pf_record_free(&rec);
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_malformed_records),  cmocka_unit_test(test_record_with_wrong_deal),
      cmocka_unit_test(test_illegal_move_named), cmocka_unit_test(test_result_checked),
      cmocka_unit_test(test_roundtrip_and_missing_deals), cmocka_unit_test(test_save_and_load),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
