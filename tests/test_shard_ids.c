/*
 * test_shard_ids.c - the ids of `pilfer serve --shard I/N` (server/shard.h): --shard read
 * strictly, which shard an id names, whether a shard holds it, its slot in memory, the next id a
 * shard makes, why a shard does not hold an id; and the store's side: a shard's tables numbered
 * k * 100 + I, never an id made twice (after a table is dropped, after a restart, in a cluster
 * grown from 4 shards to 5), and a database that holds another shard's table (or an unsharded
 * server's) refused. tests/test_shard.py checks the same through `pilfer serve`.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#include "server/shard.h"
#include "server/store.h"

static void parse(void **state) {
  (void)state;
  const char *good[][3] = {{"1/1", "1", "1"}, {"2/4", "2", "4"}, {"99/99", "99", "99"}, {"1/99", "1", "99"},
                           {"07/9", "7", "9"}};
  for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
    pf_shard s;
    pf_error err;
    assert_int_equal(pf_shard_parse(good[i][0], &s, &err), 0);
    assert_int_equal(s.index, atoi(good[i][1]));
    assert_int_equal(s.count, atoi(good[i][2]));
  }
  const char *bad[] = {"0/2", "3/2", "1/100", "100/100", "1/0", "1/", "/2", "2", "", "a/2", "1/2/3", "+1/2",
                       " 1/2", "1/2 ", "-1/2", "1/0002", "1//2", "1.0/2"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    pf_shard s = {7, 7};
    pf_error err;
    assert_int_equal(pf_shard_parse(bad[i], &s, &err), -1);
    assert_non_null(strstr(err.msg, "1 <= I <= N <= 99"));
    assert_int_equal(s.index, 7); /* untouched */
  }
}

static void ids(void **state) {
  (void)state;
  pf_shard one = {0, 0}, two = {2, 4};
  assert_true(pf_shard_owns(&one, 1) && pf_shard_owns(&one, 102) && pf_shard_owns(&one, 7));
  assert_false(pf_shard_owns(&one, 0) || pf_shard_owns(&one, -5));
  assert_int_equal(pf_shard_slot(&one, 57), 57);
  assert_true(pf_shard_owns(&two, 102) && pf_shard_owns(&two, 202) && pf_shard_owns(&two, 1302));
  assert_false(pf_shard_owns(&two, 2) || pf_shard_owns(&two, 101) || pf_shard_owns(&two, 200) ||
               pf_shard_owns(&two, 0) || pf_shard_owns(&two, -98) || pf_shard_owns(&two, 103));
  assert_int_equal(pf_shard_of(1302), 2);
  assert_int_equal(pf_shard_of(1399), 99);
  assert_int_equal(pf_shard_of(1300), 0);
  assert_int_equal(pf_shard_slot(&two, 1302), 13);
  assert_int_equal(pf_shard_next(&two, 0), 102);
  assert_int_equal(pf_shard_next(&two, 102), 202);
  assert_int_equal(pf_shard_next(&two, 305), 402); /* the first after any last, its own or not */
  assert_int_equal(pf_shard_next(&two, 399), 402);
  char why[160];
  pf_shard first = {1, 4};
  pf_shard_elsewhere(&first, 303, why, sizeof why);
  assert_string_equal(why, "table 303 is on shard 3 (this is shard 1 of 4)");
  pf_shard_elsewhere(&first, 305, why, sizeof why);
  assert_non_null(strstr(why, "no shard holds table 305"));
  pf_shard_elsewhere(&first, 7, why, sizeof why); /* an unsharded id */
  assert_non_null(strstr(why, "no shard holds table 7"));
}

static char db[64];

static int setup_db(void **state) {
  (void)state;
  snprintf(db, sizeof db, "/tmp/test_shard_ids-%d.db", (int)getpid());
  return 0;
}

static int teardown_db(void **state) {
  (void)state;
  const char *ext[] = {"", "-wal", "-shm", "-journal"};
  for (size_t i = 0; i < sizeof ext / sizeof *ext; i++) {
    char p[80];
    snprintf(p, sizeof p, "%s%s", db, ext[i]);
    unlink(p);
  }
  return 0;
}

/* Opens db as shard (count 0: unsharded); -1 with err's message when refused. */
static pf_store *open_as(int index, int count, pf_error *err) {
  pf_store *s;
  pf_shard sh = {index, count};
  if (pf_store_open(&s, db, false, err) != 0) fail_msg("%s", err->msg);
  if (pf_store_shard(s, &sh, err) == 0) return s;
  pf_store_close(s);
  return NULL;
}

/* A new two-seat table of Thief, committed: its id. */
static int64_t add_table(pf_store *s) {
  pf_error err;
  pf_store_table t = {0, "thief", 2, "{}", 7, "waiting", 0, NULL, 1, false, 0, 0, false, -1};
  pf_store_seat seats[2] = {{0, "open", NULL, NULL, false, NULL}, {1, "bot", "random", NULL, false, NULL}};
  if (pf_store_begin(s, &err) != 0 || pf_store_add_table(s, &t, seats, &err) != 0 || pf_store_commit(s, &err) != 0)
    fail_msg("%s", err.msg);
  return t.id;
}

static void store_ids(void **state) {
  (void)state;
  pf_error err;
  pf_store *s = open_as(2, 4, &err);
  assert_non_null(s);
  assert_int_equal(add_table(s), 102);
  assert_int_equal(add_table(s), 202);
  assert_int_equal(add_table(s), 302);
  assert_int_equal(pf_store_begin(s, &err), 0);
  assert_int_equal(pf_store_drop_table(s, 302, &err), 0); /* an expired waiting table */
  assert_int_equal(pf_store_commit(s, &err), 0);
  assert_int_equal(add_table(s), 402); /* 302 is never made again */
  pf_store_close(s);
  s = open_as(2, 4, &err); /* a restart */
  assert_non_null(s);
  assert_int_equal(add_table(s), 502);
  pf_store_close(s);
  s = open_as(2, 5, &err); /* the cluster grew: shard 2 keeps its tables and numbers */
  assert_non_null(s);
  assert_int_equal(add_table(s), 602);
  pf_store_close(s);
  assert_null(open_as(1, 4, &err));
  assert_non_null(strstr(err.msg, "holds table 102, which is not shard 1's"));
  s = open_as(0, 0, &err); /* unsharded, a shard's database is served as it is */
  assert_non_null(s);
  pf_store_close(s);
}

static void store_unsharded_refused(void **state) {
  (void)state;
  pf_error err;
  pf_store *s = open_as(0, 0, &err);
  assert_non_null(s);
  assert_int_equal(add_table(s), 1);
  assert_int_equal(add_table(s), 2);
  pf_store_close(s);
  assert_null(open_as(1, 2, &err));
  assert_non_null(strstr(err.msg, "holds table 1,"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(parse),
      cmocka_unit_test(ids),
      cmocka_unit_test_setup_teardown(store_ids, setup_db, teardown_db),
      cmocka_unit_test_setup_teardown(store_unsharded_refused, setup_db, teardown_db),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
