/*
 * workers.c - the thread pool of workers.h: one mutex, two queues; and the crew: one mutex, one
 * batch at a time, its items taken one by one under the mutex.
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

/* ---- the crew ---- */

struct pf_crew {
  pthread_mutex_t lock;
  pthread_cond_t go, done;
  unsigned batch;      /* batches begun: a helper joins each one it has not seen */
  int n, next, inside; /* the batch's items, the next not taken, the helpers working on it */
  int *finished, nfinished; /* items the helpers finished that the caller has not seen done */
  void (*fn)(void *ctx, int i);
  void *ctx;
  bool stopping;
  int nthreads;
  pthread_t *threads;
};

/* Takes and runs the batch's items until none is left (called and returning with the lock). */
static void crew_items(pf_crew *c) {
  while (c->next < c->n) {
    int i = c->next++;
    pthread_mutex_unlock(&c->lock);
    c->fn(c->ctx, i);
    pthread_mutex_lock(&c->lock);
    c->finished[c->nfinished++] = i;
    pthread_cond_signal(&c->done);
  }
}

static void *crew_main(void *arg) {
  pf_crew *c = arg;
  pthread_mutex_lock(&c->lock);
  unsigned seen = c->batch;
  for (;;) {
    while (c->batch == seen && !c->stopping) pthread_cond_wait(&c->go, &c->lock);
    if (c->stopping) break;
    seen = c->batch;
    c->inside++;
    crew_items(c); /* none when it comes late: the batch is over or taken */
    if (--c->inside == 0) pthread_cond_broadcast(&c->done);
  }
  pthread_mutex_unlock(&c->lock);
  return NULL;
}

pf_crew *pf_crew_start(int helpers) {
  pf_crew *c = pf_xcalloc(1, sizeof *c);
  pthread_mutex_init(&c->lock, NULL);
  pthread_cond_init(&c->go, NULL);
  pthread_cond_init(&c->done, NULL);
  c->threads = pf_xcalloc((size_t)(helpers > 0 ? helpers : 1), sizeof *c->threads);
  for (int i = 0; i < helpers; i++)
    if (pthread_create(&c->threads[c->nthreads], NULL, crew_main, c) == 0) c->nthreads++;
  return c;
}

void pf_crew_run(pf_crew *c, int n, void (*fn)(void *ctx, int i), void (*done)(void *ctx, int i), void *ctx) {
  if (!c || !c->nthreads || n < 2) { /* nothing to share */
    for (int i = 0; i < n; i++) {
      fn(ctx, i);
      if (done) done(ctx, i);
    }
    return;
  }
  int *finished = pf_xmalloc((size_t)n * sizeof *finished);
  pthread_mutex_lock(&c->lock);
  c->n = n, c->next = 0, c->fn = fn, c->ctx = ctx;
  c->finished = finished, c->nfinished = 0;
  c->batch++;
  pthread_cond_broadcast(&c->go);
  /* The caller's turn: what a helper finished is seen done first, then an item of its own. */
  for (int told = 0; told < n;) {
    int i;
    if (c->nfinished) {
      i = c->finished[--c->nfinished];
    } else if (c->next < n) {
      i = c->next++;
      pthread_mutex_unlock(&c->lock);
      fn(ctx, i);
      pthread_mutex_lock(&c->lock);
    } else {
      pthread_cond_wait(&c->done, &c->lock);
      continue;
    }
    pthread_mutex_unlock(&c->lock);
    if (done) done(ctx, i);
    told++;
    pthread_mutex_lock(&c->lock);
  }
  while (c->inside) pthread_cond_wait(&c->done, &c->lock);
  c->finished = NULL;
  pthread_mutex_unlock(&c->lock);
  free(finished);
}

void pf_crew_stop(pf_crew *c) {
  if (!c) return;
  pthread_mutex_lock(&c->lock);
  c->stopping = true;
  pthread_cond_broadcast(&c->go);
  pthread_mutex_unlock(&c->lock);
  for (int i = 0; i < c->nthreads; i++) pthread_join(c->threads[i], NULL);
  pthread_mutex_destroy(&c->lock);
  pthread_cond_destroy(&c->go);
  pthread_cond_destroy(&c->done);
  free(c->threads);
  free(c);
}
