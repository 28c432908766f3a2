/*
 * test_workers.c - the crew of server/workers.h: every item of every batch runs exactly once,
 * whatever the number of helpers, the size of the batch, or helpers that come late; each is seen
 * done exactly once, on the caller's thread, after it ran; the caller gets it back only when all
 * are done.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "testutil.h"

#include "server/workers.h"

#define ITEMS 300

typedef struct batch {
  atomic_int runs[ITEMS];
  atomic_int done;
  int told[ITEMS];  /* done callbacks for each item (only the caller's thread writes them) */
  pthread_t caller;
  int spin; /* work an item does, so that helpers overlap */
} batch;

static void item(void *ctx, int i) {
  batch *b = ctx;
  volatile unsigned x = 0;
  for (int k = 0; k < b->spin * (i % 7); k++) x += (unsigned)k;
  atomic_fetch_add(&b->runs[i], 1);
  atomic_fetch_add(&b->done, 1);
}

static void told(void *ctx, int i) {
  batch *b = ctx;
  assert_true(pthread_equal(pthread_self(), b->caller));
  assert_int_equal(atomic_load(&b->runs[i]), 1); /* after it ran */
  b->told[i]++;
}

/* Batches of every size from 0 to ITEMS on a crew of `helpers`, each checked as it returns. */
static void batches(int helpers, int spin) {
  pf_crew *c = pf_crew_start(helpers);
  static batch b;
  for (int round = 0; round < 3; round++)
    for (int n = 0; n <= ITEMS; n += n < 10 ? 1 : 37) {
      memset(&b, 0, sizeof b);
      b.spin = spin;
      b.caller = pthread_self();
      pf_crew_run(c, n, item, round == 1 ? NULL : told, &b);
      assert_int_equal(atomic_load(&b.done), n); /* nothing is still running when it returns */
      for (int i = 0; i < ITEMS; i++) assert_int_equal(atomic_load(&b.runs[i]), i < n ? 1 : 0);
      for (int i = 0; i < ITEMS; i++) assert_int_equal(b.told[i], i < n && round != 1 ? 1 : 0);
    }
  pf_crew_stop(c);
}

static void crew_alone(void **state) {
  (void)state;
  batches(0, 10);
  pf_crew_run(NULL, 5, item, NULL, &(batch){0}); /* no crew: the caller alone */
}

static void crew_of_one(void **state) {
  (void)state;
  batches(1, 0);
  batches(1, 5000);
}

static void crew_of_many(void **state) {
  (void)state;
  batches(4, 0);
  batches(4, 5000);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(crew_alone),
      cmocka_unit_test(crew_of_one),
      cmocka_unit_test(crew_of_many),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
