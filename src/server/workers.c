/*
 * workers.c - the thread pool of workers.h: one mutex, two queues.
 */
#include "server/workers.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "core/buf.h"

struct pf_workers {
  pthread_mutex_t lock;
  pthread_cond_t ready;
  pf_work *todo, *todo_tail, *done;
  int pending;
  bool stopping;
  int nthreads;
  pthread_t *threads;
  void (*fn)(pf_work *);
  void (*wake)(void *);
  void *ctx;
};

static void push_done(pf_workers *w, pf_work *job) {
  job->next = w->done;
  w->done = job;
}

static void *worker_main(void *arg) {
  pf_workers *w = arg;
  pthread_mutex_lock(&w->lock);
  for (;;) {
    while (!w->todo && !w->stopping) pthread_cond_wait(&w->ready, &w->lock);
    if (!w->todo) break;
    pf_work *job = w->todo;
    w->todo = job->next;
    if (!w->todo) w->todo_tail = NULL;
    pthread_mutex_unlock(&w->lock);
    w->fn(job);
    pthread_mutex_lock(&w->lock);
    push_done(w, job);
    pthread_mutex_unlock(&w->lock);
    if (w->wake) w->wake(w->ctx);
    pthread_mutex_lock(&w->lock);
  }
  pthread_mutex_unlock(&w->lock);
  return NULL;
}

pf_workers *pf_workers_start(int n, void (*fn)(pf_work *job), void (*wake)(void *ctx), void *ctx) {
  pf_workers *w = pf_xcalloc(1, sizeof *w);
  pthread_mutex_init(&w->lock, NULL);
  pthread_cond_init(&w->ready, NULL);
  w->fn = fn, w->wake = wake, w->ctx = ctx;
  w->threads = pf_xcalloc((size_t)(n > 0 ? n : 1), sizeof *w->threads);
  for (int i = 0; i < n; i++)
    if (pthread_create(&w->threads[w->nthreads], NULL, worker_main, w) == 0) w->nthreads++;
  return w;
}

void pf_workers_submit(pf_workers *w, pf_work *job) {
  job->next = NULL;
  pthread_mutex_lock(&w->lock);
  w->pending++;
  if (w->nthreads == 0) { /* inline: run now, under the lock (nobody else takes it) */
    pthread_mutex_unlock(&w->lock);
    w->fn(job);
    pthread_mutex_lock(&w->lock);
    push_done(w, job);
  } else {
    if (w->todo_tail)
      w->todo_tail->next = job;
    else
      w->todo = job;
    w->todo_tail = job;
    pthread_cond_signal(&w->ready);
  }
  pthread_mutex_unlock(&w->lock);
}

pf_work *pf_workers_done(pf_workers *w) {
  pthread_mutex_lock(&w->lock);
  pf_work *job = w->done;
  if (job) {
    w->done = job->next;
    w->pending--;
  }
  pthread_mutex_unlock(&w->lock);
  return job;
}

void pf_workers_cancel(pf_workers *w, bool (*match)(pf_work *job, void *ctx), void *ctx) {
  pthread_mutex_lock(&w->lock);
  pf_work **p = &w->todo, *last = NULL;
  while (*p) {
    pf_work *job = *p;
    if (match(job, ctx)) {
      *p = job->next;
      push_done(w, job);
    } else {
      last = job;
      p = &job->next;
    }
  }
  w->todo_tail = last;
  pthread_mutex_unlock(&w->lock);
}

int pf_workers_threads(const pf_workers *w) { return w->nthreads; }

int pf_workers_pending(pf_workers *w) {
  pthread_mutex_lock(&w->lock);
  int n = w->pending;
  pthread_mutex_unlock(&w->lock);
  return n;
}

void pf_workers_stop(pf_workers *w) {
  pthread_mutex_lock(&w->lock);
  w->stopping = true;
  /* Jobs not started are handed back unrun. */
  while (w->todo) {
    pf_work *job = w->todo;
    w->todo = job->next;
    push_done(w, job);
  }
  w->todo_tail = NULL;
  pthread_cond_broadcast(&w->ready);
  pthread_mutex_unlock(&w->lock);
  for (int i = 0; i < w->nthreads; i++) pthread_join(w->threads[i], NULL);
  w->nthreads = 0;
}

void pf_workers_free(pf_workers *w) {
  if (!w) return;
  pthread_mutex_destroy(&w->lock);
  pthread_cond_destroy(&w->ready);
  free(w->threads);
  free(w);
}
