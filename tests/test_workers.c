/*
 * test_workers.c - the pool and the crew of server/workers.h.
 *
 * The pool: a cheap job runs while every search thread is busy; within a lane the clients take
 * turns (the one served least recently first), a client's groups take turns, a group is first
 * come first served; cancel and stop hand back the jobs not begun of every client, unrun. The
 * order is made deterministic by "gate" jobs that hold their thread until the test opens the
 * gate; no test measures time: a deadline far above any quiet run only turns a hang into a
 * failure.
 *
 * The crew: every item of every batch runs exactly once, whatever the number of helpers, the
 * size of the batch, or helpers that come late; each is seen done exactly once, on the caller's
 * thread, after it ran; the caller gets it back only when all are done.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "testutil.h"

#include "server/workers.h"

/* ---- the pool ---- */

#define JOBS 3000
#define HANG_S 30 /* a quiet run takes milliseconds */

typedef struct job {
  pf_work work;
  bool gate;   /* holds its thread until the gate opens */
  bool cancel; /* cancel's match says true */
  int ran;     /* times the pool's function ran it */
  int back;    /* times pf_workers_done gave it back */
  bool shut;   /* it ran while the gate was shut */
} job;

/* What the jobs did, under `mu`; `changed` is broadcast whenever any of it changes. */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static job jobs[JOBS];
static int order[JOBS], norder; /* the jobs in the order they ran */
static int entered;             /* gate jobs that are holding their thread */
static bool open_gate, hung;
static int wakes;

static struct timespec deadline(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  t.tv_sec += HANG_S;
  return t;
}

/* Waits (holding mu) for a change; false once the hang guard's deadline has passed. */
static bool wait_change(const struct timespec *until) {
  return pthread_cond_timedwait(&changed, &mu, until) != ETIMEDOUT;
}

static void run_job(pf_work *w) {
  job *j = (job *)w;
  struct timespec until = deadline();
  pthread_mutex_lock(&mu);
  if (j->gate) {
    entered++;
    pthread_cond_broadcast(&changed);
    while (!open_gate)
      if (!wait_change(&until)) {
        hung = true;
        break;
      }
  }
  j->ran++;
  j->shut = !open_gate;
  order[norder++] = (int)(j - jobs);
  pthread_cond_broadcast(&changed);
  pthread_mutex_unlock(&mu);
}

static void wake(void *ctx) {
  (void)ctx;
  pthread_mutex_lock(&mu);
  wakes++;
  pthread_cond_broadcast(&changed);
  pthread_mutex_unlock(&mu);
}

static void reset(void) {
  memset(jobs, 0, sizeof jobs);
  norder = entered = wakes = 0;
  open_gate = hung = false;
}

/* Job i, with its keys, handed to the pool. */
static void submit(pf_workers *w, int i, uint64_t client, int64_t group, bool cheap, bool gate) {
  jobs[i].work.client = client, jobs[i].work.group = group, jobs[i].work.cheap = cheap;
  jobs[i].gate = gate;
  pf_workers_submit(w, &jobs[i].work);
}

static void wait_entered(int n) {
  struct timespec until = deadline();
  pthread_mutex_lock(&mu);
  bool ok = true;
  while (entered < n && ok) ok = wait_change(&until);
  pthread_mutex_unlock(&mu);
  if (!ok) fail_msg("hang: %d gate jobs of %d began", entered, n);
}

static void open_gates(void) {
  pthread_mutex_lock(&mu);
  open_gate = true;
  pthread_cond_broadcast(&changed);
  pthread_mutex_unlock(&mu);
}

/* Takes back what the done queue holds now; returns how many. */
static int drain(pf_workers *w) {
  int n = 0;
  for (pf_work *d; (d = pf_workers_done(w)); n++) ((job *)d)->back++;
  return n;
}

/* Collects n finished jobs through pf_workers_done, waiting for the pool's wake between. */
static void collect(pf_workers *w, int n) {
  struct timespec until = deadline();
  for (int got = 0;;) {
    pthread_mutex_lock(&mu);
    int seen = wakes;
    pthread_mutex_unlock(&mu);
    got += drain(w);
    if (got >= n) {
      assert_int_equal(got, n);
      return;
    }
    pthread_mutex_lock(&mu);
    bool ok = true;
    while (wakes == seen && ok) ok = wait_change(&until);
    pthread_mutex_unlock(&mu);
    if (!ok) fail_msg("hang: %d jobs of %d came back", got, n);
  }
}

/* Where job i ran in the order (-1: not at all). */
static int ran_at(int i) {
  for (int k = 0; k < norder; k++)
    if (order[k] == i) return k;
  return -1;
}

/* One search thread held by a gate job of `gate_client`, then 50 jobs of client 1 in five groups
 * of ten (submitted group after group), then one job each of clients 2 and 3. */
static void one_against_fifty(uint64_t gate_client) {
  reset();
  pf_workers *w = pf_workers_start(1, run_job, wake, NULL);
  assert_int_equal(pf_workers_threads(w), 1);
  submit(w, 0, gate_client, 99, false, true);
  wait_entered(1);
  for (int i = 1; i <= 50; i++) submit(w, i, 1, 1 + (i - 1) / 10, false, false);
  submit(w, 51, 2, 7, false, false);
  submit(w, 52, 3, 7, false, false);
  assert_int_equal(pf_workers_queued(w, false), 52);
  assert_int_equal(pf_workers_queued(w, true), 0);
  open_gates();
  collect(w, 53);
  assert_false(hung);
  assert_int_equal(norder, 53);
  assert_int_equal(order[0], 0);
  /* The late clients with one job each: at the next free thread, after at most one of client 1's
   * (none when the gate was client 1's: it was served, they never were), in the order they came. */
  int late = gate_client == 1 ? 0 : 1;
  assert_int_equal(ran_at(51), 1 + late);
  assert_int_equal(ran_at(52), 2 + late);
  /* Client 1's groups take turns, one job each; first come first served within a group. */
  for (int k = 0, a = 0; k < norder; k++) {
    int i = order[k];
    if (i < 1 || i > 50) continue;
    assert_int_equal(1 + (i - 1) / 10, 1 + a % 5); /* its group */
    assert_int_equal((i - 1) % 10, a / 5);         /* its place in the group */
    a++;
  }
  for (int i = 0; i <= 52; i++) assert_int_equal(jobs[i].ran * 10 + jobs[i].back, 11);
  assert_int_equal(pf_workers_pending(w), 0);
  assert_int_equal(pf_workers_queued(w, false), 0);
  pf_workers_stop(w);
  pf_workers_free(w);
}

static void fair_across_clients(void **state) {
  (void)state;
  one_against_fifty(1); /* the hostile client's own search holds the thread */
  one_against_fifty(0); /* the server's */
}

/* The last free search thread is kept for the others while they are there: client 2's job has
 * just run, so client 1, with two searches that hold their threads, gets one of the two threads;
 * client 2's next job runs at once on the other. Alone, client 1 gets both. */
static void share_keeps_a_thread(void **state) {
  (void)state;
  reset();
  pf_workers *w = pf_workers_start(2, run_job, wake, NULL);
  submit(w, 0, 2, 5, false, false);
  collect(w, 1);
  submit(w, 1, 1, 1, false, true);
  submit(w, 2, 1, 2, false, true);
  wait_entered(1);
  submit(w, 3, 2, 5, false, false); /* would wait for a gate if client 1 had both threads */
  collect(w, 1);
  assert_int_equal(jobs[3].back, 1);
  assert_true(jobs[3].shut);
  pthread_mutex_lock(&mu);
  int in = entered;
  pthread_mutex_unlock(&mu);
  assert_int_equal(in, 1);
  assert_int_equal(pf_workers_queued(w, false), 1); /* client 1's second search still waits */
  open_gates();
  collect(w, 2);
  assert_false(hung);
  pf_workers_stop(w);
  pf_workers_free(w);

  reset(); /* a new pool: nobody else was there */
  w = pf_workers_start(2, run_job, wake, NULL);
  submit(w, 1, 1, 1, false, true);
  submit(w, 2, 1, 2, false, true);
  wait_entered(2);
  open_gates();
  collect(w, 2);
  assert_false(hung);
  pf_workers_stop(w);
  pf_workers_free(w);
}

/* Jobs that set no keys: one client, one group, one lane: first come first served. */
static void no_keys_first_come(void **state) {
  (void)state;
  reset();
  pf_workers *w = pf_workers_start(1, run_job, wake, NULL);
  jobs[0].gate = true;
  for (int i = 0; i <= 20; i++) {
    pf_workers_submit(w, &jobs[i].work);
    if (i == 0) wait_entered(1);
  }
  open_gates();
  collect(w, 21);
  for (int k = 0; k < 21; k++) assert_int_equal(order[k], k);
  pf_workers_stop(w);
  pf_workers_free(w);
}

/* Every search thread held: a cheap job still runs and comes back; the lanes count apart. */
static void cheap_lane_not_behind_searches(void **state) {
  (void)state;
  reset();
  pf_workers *w = pf_workers_start(2, run_job, wake, NULL);
  assert_int_equal(pf_workers_threads(w), 2); /* the cheap lane's thread is not counted */
  submit(w, 0, 1, 1, false, true);
  submit(w, 1, 1, 2, false, true);
  wait_entered(2);
  submit(w, 2, 1, 3, false, false);
  submit(w, 3, 2, 1, true, false); /* a cheap job, submitted after a search that waits */
  collect(w, 1);
  assert_int_equal(jobs[3].back, 1);
  assert_int_equal(jobs[3].ran, 1);
  assert_true(jobs[3].shut);
  assert_int_equal(jobs[2].ran, 0);
  assert_int_equal(pf_workers_queued(w, false), 1);
  assert_int_equal(pf_workers_queued(w, true), 0);
  /* Now the cheap lane's thread is held too: its jobs wait, counted in its lane. */
  submit(w, 4, 2, 1, true, true);
  wait_entered(3);
  submit(w, 5, 2, 1, true, false);
  submit(w, 6, 3, 1, true, false);
  assert_int_equal(pf_workers_queued(w, true), 2);
  assert_int_equal(pf_workers_queued(w, false), 1);
  assert_int_equal(pf_workers_pending(w), 6);
  open_gates();
  collect(w, 6);
  assert_false(hung);
  for (int i = 0; i <= 6; i++) assert_int_equal(jobs[i].ran * 10 + jobs[i].back, 11);
  pf_workers_stop(w);
  pf_workers_free(w);
}

static bool marked(pf_work *w, void *ctx) {
  (void)ctx;
  return ((job *)w)->cancel;
}

/* Cancel reaches the jobs not begun of every client, group and lane, hands them back unrun, and
 * leaves the others in their turns; a client whose jobs all went comes back as a new one. */
static void cancel_across_clients(void **state) {
  (void)state;
  reset();
  pf_workers *w = pf_workers_start(1, run_job, wake, NULL);
  submit(w, 0, 1, 1, false, true);
  submit(w, 1, 4, 1, true, true);
  wait_entered(2);
  int n = 2;
  for (uint64_t c = 1; c <= 3; c++)
    for (int64_t g = 1; g <= 2; g++)
      for (int s = 0; s < 4; s++, n++) {
        jobs[n].cancel = n % 3 == 0 || c == 2; /* a third of each, and all of client 2 */
        submit(w, n, c, g, n % 5 == 0, false);
      }
  pf_workers_cancel(w, marked, NULL);
  int cancelled = drain(w), expect = 0;
  for (int i = 2; i < n; i++) {
    expect += jobs[i].cancel;
    assert_int_equal(jobs[i].back, jobs[i].cancel);
    assert_int_equal(jobs[i].ran, 0);
  }
  assert_int_equal(cancelled, expect);
  int left = n - 2 - cancelled;
  assert_int_equal(pf_workers_queued(w, false) + pf_workers_queued(w, true), left);
  submit(w, n, 2, 5, false, false); /* client 2 again, after all its jobs went */
  open_gates();
  collect(w, 2 + left + 1);
  assert_false(hung);
  for (int i = 0; i <= n; i++) {
    assert_int_equal(jobs[i].back, 1);
    assert_int_equal(jobs[i].ran, !jobs[i].cancel);
  }
  /* The search lane after the gate (client 1's): the clients never served first, in the order
   * they came (3, then 2 again), then 1, then turn by turn. */
  int search[JOBS], ns = 0;
  for (int k = 0; k < norder; k++)
    if (!jobs[order[k]].work.cheap) search[ns++] = order[k];
  assert_int_equal(search[0], 0);
  assert_int_equal(jobs[search[1]].work.client, 3);
  assert_int_equal(search[2], n);
  assert_int_equal(jobs[search[3]].work.client, 1);
  assert_int_equal(jobs[search[4]].work.client, 3);
  assert_int_equal(pf_workers_pending(w), 0);
  pf_workers_stop(w);
  pf_workers_free(w);
}

static void *stopper(void *arg) {
  pf_workers_stop(arg);
  return NULL;
}

/* Stop lets the jobs begun finish and hands back every job waiting, of every client and lane. */
static void stop_hands_back_all(void **state) {
  (void)state;
  reset();
  pf_workers *w = pf_workers_start(1, run_job, wake, NULL);
  submit(w, 0, 1, 1, false, true);
  submit(w, 1, 2, 1, true, true);
  wait_entered(2);
  int n = 2;
  for (uint64_t c = 1; c <= 4; c++)
    for (int s = 0; s < 5; s++, n++) submit(w, n, c, s % 2, s % 3 == 0, false);
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, stopper, w), 0);
  /* Stop says nothing when it has emptied the lanes: look every millisecond. */
  for (int ms = 0; pf_workers_queued(w, false) || pf_workers_queued(w, true); ms++) {
    if (ms > HANG_S * 1000) fail_msg("hang: stop handed nothing back");
    nanosleep(&(struct timespec){0, 1000000}, NULL);
  }
  open_gates();
  pthread_join(t, NULL);
  assert_int_equal(drain(w), n);
  assert_false(hung);
  assert_int_equal(jobs[0].ran, 1);
  assert_int_equal(jobs[1].ran, 1);
  for (int i = 2; i < n; i++) assert_int_equal(jobs[i].ran, 0);
  for (int i = 0; i < n; i++) assert_int_equal(jobs[i].back, 1);
  assert_int_equal(pf_workers_pending(w), 0);
  assert_int_equal(pf_workers_threads(w), 0);
  pf_workers_free(w);
}

/* No threads: each job runs inside submit, whatever its keys. */
static void inline_pool(void **state) {
  (void)state;
  reset();
  pf_workers *w = pf_workers_start(0, run_job, NULL, NULL);
  assert_int_equal(pf_workers_threads(w), 0);
  for (int i = 0; i < 4; i++) {
    submit(w, i, (uint64_t)i, i, i % 2, false);
    assert_int_equal(jobs[i].ran, 1);
    assert_int_equal(pf_workers_queued(w, i % 2), 0);
    assert_int_equal(pf_workers_pending(w), 1);
    assert_int_equal(drain(w), 1);
  }
  pf_workers_stop(w);
  pf_workers_free(w);
}

/* Many jobs of many clients, groups and both lanes on three threads, collected and cancelled as
 * they go: each runs at most once and comes back exactly once. */
static void many_jobs(void **state) {
  (void)state;
  reset();
  pf_workers *w = pf_workers_start(3, run_job, wake, NULL);
  unsigned x = 12345;
  int got = 0;
  for (int i = 0; i < JOBS; i++) {
    x = x * 1103515245u + 12345u;
    jobs[i].cancel = (x >> 9) % 7 == 0;
    submit(w, i, (x >> 12) % 9, (x >> 16) % 5, (x >> 20) % 3 == 0, false);
    if (i % 100 == 99) pf_workers_cancel(w, marked, NULL);
    got += drain(w);
  }
  collect(w, JOBS - got);
  for (int i = 0; i < JOBS; i++) {
    assert_int_equal(jobs[i].back, 1);
    assert_true(jobs[i].ran <= 1);
    if (!jobs[i].cancel) assert_int_equal(jobs[i].ran, 1);
  }
  assert_int_equal(pf_workers_pending(w), 0);
  pf_workers_stop(w);
  pf_workers_free(w);
}

/* ---- the crew ---- */

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
  (void)x;
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
      cmocka_unit_test(fair_across_clients),
      cmocka_unit_test(share_keeps_a_thread),
      cmocka_unit_test(no_keys_first_come),
      cmocka_unit_test(cheap_lane_not_behind_searches),
      cmocka_unit_test(cancel_across_clients),
      cmocka_unit_test(stop_hands_back_all),
      cmocka_unit_test(inline_pool),
      cmocka_unit_test(many_jobs),
      cmocka_unit_test(crew_alone),
      cmocka_unit_test(crew_of_one),
      cmocka_unit_test(crew_of_many),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
