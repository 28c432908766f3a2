/*
 * test_workers.c - the crew of server/workers.h: every item of every batch runs exactly once,
 * whatever the number of helpers, the size of the batch, or helpers that come late; the caller
 * gets it back only when all are done.
 */
#include <stdatomic.h>
#include <string.h>

#include "testutil.h"

#include "server/workers.h"

#define ITEMS 300

typedef struct batch {
  atomic_int runs[ITEMS];
  atomic_int done;
  int spin; /* work an item does, so that helpers overlap */
} batch;

static void item(void *ctx, int i) {
  batch *b = ctx;
  volatile unsigned x = 0;
  for (int k = 0; k < b->spin * (i % 7); k++) x += (unsigned)k;
  atomic_fetch_add(&b->runs[i], 1);
  atomic_fetch_add(&b->done, 1);
}

/* Batches of every size from 0 to ITEMS on a crew of `helpers`, each checked as it returns. */
static void batches(int helpers, int spin) {
  pf_crew *c = pf_crew_start(helpers);
  static batch b;
  for (int round = 0; round < 3; round++)
    for (int n = 0; n <= ITEMS; n += n < 10 ? 1 : 37) {
      memset(&b, 0, sizeof b);
      b.spin = spin;
      pf_crew_run(c, n, item, &b);
      assert_int_equal(atomic_load(&b.done), n); /* nothing is still running when it returns */
      for (int i = 0; i < ITEMS; i++) assert_int_equal(atomic_load(&b.runs[i]), i < n ? 1 : 0);
    }
  pf_crew_stop(c);
}

static void crew_alone(void **state) {
  (void)state;
  batches(0, 10);
  pf_crew_run(NULL, 5, item, &(batch){0}); /* no crew: the caller alone */
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
