/*
 * clock.h - a monotonic clock, for timing what pilfer does: the benchmark, simulations, searches
 * with a time budget. Never for the rules, which read no clock (STYLE: the state is all).
 */
#ifndef PF_CLOCK_H
#define PF_CLOCK_H

#include <time.h>

/* Seconds since some fixed moment, monotonic. */
static inline double pf_clock_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Seconds of processor time the calling thread has used: a budget counted in it measures the
 * thread's own work, not how busy the machine is (ismcts's clock=cpu). */
static inline double pf_clock_thread_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif
