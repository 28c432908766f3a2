/*
 * test_sim.c - simulations (SPEC §4): game i depends on (seed, i) alone, so the result is the
 * same on 1 and 2 threads; the shards of a run merge into the unsharded result bit for bit
 * (wall time aside), also through their JSON; rotations replay each deal with the seats turned;
 * and merge refuses parts that are not the whole of one run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "games/registry.h"
#include "sim/sim.h"
#include "testutil.h"

static const char *const MIXED[] = {"ismcts:iters=20", "greedy", "random"};

static void test_sim_threads(void **unused) {
  (void)unused;
  pf_sim_config c = tu_sim_config("steal-the-pile", 3, 30, true, MIXED);
  pf_sim_result one, two;
  tu_sim_run(&c, 1, NULL, &one);
  tu_sim_run(&c, 2, NULL, &two);
  assert_int_equal(one.sums.games, 30);
  assert_memory_equal(&one.sums, &two.sums, sizeof one.sums);
  char *a = tu_sim_text(&one), *b = tu_sim_text(&two);
  assert_string_equal(a, b);
  free(a);
  free(b);
  /* A different seed is a different run. */
  c.seed = 43;
  tu_sim_run(&c, 2, NULL, &two);
  assert_true(memcmp(&one.sums, &two.sums, sizeof one.sums) != 0);
}

/* Three shards, merged directly and through their JSON text, give the unsharded result. */
static void test_sim_shards_merge(void **unused) {
  (void)unused;
  const char *const seats[] = {"greedy", "random"};
  pf_sim_config c = tu_sim_config("skip-bo-junior", 2, 31, false, seats);
  pf_sim_result whole, parts[3], reread[3], merged;
  pf_error err;
  tu_sim_run(&c, 2, NULL, &whole);
  for (int i = 0; i < 3; i++) {
    pf_sim_config sc = c;
    sc.shard = i + 1;
    sc.nshards = 3;
    tu_sim_run(&sc, 1 + i % 2, NULL, &parts[i]);
    json_t *j = pf_sim_json(&parts[i]);
    char *s = json_dumps(j, 0);
    json_decref(j);
    json_t *back = json_loads(s, 0, NULL);
    free(s);
    if (pf_sim_from_json(back, "part", &reread[2 - i], &err) != 0) fail_msg("%s", err.msg);
    json_decref(back);
  }
  long long total = 0;
  for (int i = 0; i < 3; i++) total += parts[i].sums.games;
  assert_int_equal(total, 31);
  char *want = tu_sim_text(&whole);
  assert_int_equal(pf_sim_merge(parts, 3, &merged, &err), 0);
  char *got = tu_sim_text(&merged);
  assert_string_equal(want, got);
  free(got);
  assert_int_equal(pf_sim_merge(reread, 3, &merged, &err), 0); /* shards in another order */
  got = tu_sim_text(&merged);
  assert_string_equal(want, got);
  free(got);
  free(want);
  /* What merge refuses: a missing shard, a shard twice, a part of another run. */
  assert_int_equal(pf_sim_merge(parts, 2, &merged, &err), -1);
  assert_non_null(strstr(err.msg, "shard 3/3 is missing"));
  pf_sim_result twice[3] = {parts[0], parts[1], parts[1]};
  assert_int_equal(pf_sim_merge(twice, 3, &merged, &err), -1);
  assert_non_null(strstr(err.msg, "shard 2/3 is given twice"));
  twice[2] = parts[2];
  twice[2].config.seed = 1;
  assert_int_equal(pf_sim_merge(twice, 3, &merged, &err), -1);
  assert_non_null(strstr(err.msg, "part 3 is not a shard of the same run"));
}

/* Malformed results are refused, saying where. */
static void test_sim_json_refused(void **unused) {
  (void)unused;
  const char *const seats[] = {"greedy", "random"};
  pf_sim_config c = tu_sim_config("steal-the-pile", 2, 4, false, seats);
  pf_sim_result r, back;
  pf_error err;
  tu_sim_run(&c, 1, NULL, &r);
  json_t *j = pf_sim_json(&r);
  assert_int_equal(pf_sim_from_json(j, "f.json", &back, &err), 0);
  assert_memory_equal(&back.sums, &r.sums, sizeof r.sums);
  json_object_set_new(json_object_get(j, "sums"), "win", json_string("lots"));
  assert_int_equal(pf_sim_from_json(j, "f.json", &back, &err), -1);
  assert_string_equal(err.msg, "f.json: sums.win: expected an array of 2 integers");
  json_object_set_new(j, "seats", json_pack("[s, s]", "greedy", "genius"));
  assert_int_equal(pf_sim_from_json(j, "f.json", &back, &err), -1);
  assert_non_null(strstr(err.msg, "f.json: seats[1]: unknown bot 'genius'"));
  json_object_set_new(j, "game", json_string("chess"));
  assert_int_equal(pf_sim_from_json(j, "f.json", &back, &err), -1);
  assert_string_equal(err.msg, "f.json: game: unknown game 'chess'");
  json_decref(j);
}

/* With rotation, games 2k and 2k+1 play the same deal with the seats swapped; every game's
 * record replays to its result. */
static void test_sim_rotate_records(void **unused) {
  (void)unused;
  char dir[] = "/tmp/pilfer-sim-XXXXXX";
  assert_non_null(mkdtemp(dir));
  const char *const seats[] = {"greedy", "random"};
  pf_sim_config c = tu_sim_config("thief", 2, 4, true, seats);
  pf_sim_result r;
  tu_sim_run(&c, 2, dir, &r);
  pf_record rec[4];
  pf_error err;
  for (int i = 0; i < 4; i++) {
    char path[256];
    snprintf(path, sizeof path, "%s/game-%06d.json", dir, i);
    if (pf_record_load(path, &rec[i], &err) != 0) fail_msg("%s", err.msg);
    pf_run replayed;
    if (pf_record_replay(&rec[i], -1, &replayed, NULL, &err) != 0) fail_msg("%s", err.msg);
    assert_int_equal(pf_record_check_result(&rec[i], &replayed, &err), 0);
    pf_run_free(&replayed);
    remove(path);
  }
  rmdir(dir);
  for (int k = 0; k < 4; k += 2) {
    assert_int_equal(rec[k].setup.seed, rec[k + 1].setup.seed);
    assert_memory_equal(rec[k].deals[0].cards, rec[k + 1].deals[0].cards, (size_t)rec[k].deals[0].ncards);
  }
  assert_true(rec[0].setup.seed != rec[2].setup.seed);
  for (int i = 0; i < 4; i++) pf_record_free(&rec[i]);
  /* The bot sums: each game's win goes to the bots that hold the winning seats. */
  assert_int_equal(r.sums.bot_win[0] + r.sums.bot_win[1], r.sums.win[0] + r.sums.win[1]);
}

/* The length each game states (`pilfer games --json`: "length") is what sim measures: the mean
 * moves of a game of greedy bots at its default options, within 15% of a fresh run. */
static void test_sim_lengths(void **unused) {
  (void)unused;
  static const char *const GREEDY[] = {"greedy", "greedy", "greedy", "greedy", "greedy", "greedy"};
  for (int i = 0; pf_games[i]; i++) {
    const pf_game *g = pf_games[i];
    assert_true(g->measures->description && strlen(g->measures->description) > 80);
    assert_true(g->measures->length_players >= g->min_players && g->measures->length_players <= g->max_players);
    pf_sim_config c = tu_sim_config(g->id, g->measures->length_players, 60 * g->measures->length_players, true, GREEDY);
    pf_sim_result r;
    tu_sim_run(&c, 2, NULL, &r);
    double mean = (double)r.sums.moves / (double)r.sums.games;
    if (mean < 0.85 * g->measures->length_moves || mean > 1.15 * g->measures->length_moves)
      fail_msg("%s: length_moves is %d, but %d greedy bots play %.1f moves a game", g->id, g->measures->length_moves,
               g->measures->length_players, mean);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sim_threads),
      cmocka_unit_test(test_sim_shards_merge),
      cmocka_unit_test(test_sim_json_refused),
      cmocka_unit_test(test_sim_rotate_records),
      cmocka_unit_test(test_sim_lengths),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
