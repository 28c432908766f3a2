/*
 * workers.c - the thread pool of workers.h: one mutex; in each lane the clients with jobs
 * waiting or running, each with its groups' queues; one done queue. And the crew: one mutex, one
 * batch at a time, its items taken one by one under the mutex.
 */
#include "server/workers.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "core/buf.h"

enum { SEARCH, CHEAP, LANES };

/* A group's jobs waiting, first come first served; `next` is its client's next group in turn. */
typedef struct group {
  int64_t id;
  pf_work *head, *tail;
  struct group *next;
} group;

/* A client as its lane knows it: only while it has jobs waiting (queued) or running there. */
typedef struct client {
  uint64_t id;
  uint64_t served;    /* the lane's tick when a job of it was last taken; 0: never */
  int queued, running;
  group *turn, *last; /* its groups with jobs waiting, the one whose turn it is first */
  struct client *next;
} client;

#define RECENT 16     /* clients whose last job of the lane ended lately, remembered */
#define LINGER 10.0   /* seconds a client counts as there after its last job ended */

typedef struct lane {
  client *clients, *clients_tail; /* in the order they came: the first of equals goes first */
  int queued, running;
  int threads;   /* the threads that serve it (the cap on one client: share_cap) */
  uint64_t tick; /* jobs taken */
  struct {
    uint64_t id;
    double ended;
  } recent[RECENT]; /* a ring: clients whose last job ended, and when */
  int nrecent;
  pthread_cond_t ready;
} lane;

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Whether a client other than c has jobs in l, or had one end within LINGER seconds. */
static bool others_there(const lane *l, const client *c, double now) {
  for (const client *k = l->clients; k; k = k->next)
    if (k != c && (k->queued || k->running)) return true;
  for (int i = 0; i < l->nrecent && i < RECENT; i++)
    if (l->recent[i].id != c->id && now - l->recent[i].ended < LINGER) return true;
  return false;
}

/* The most jobs c may run at once in l: every thread, but for one kept free while other clients
 * are there, so that a client whose bots search one move after another never waits for the
 * searches of another that fills the lane (with one thread, nothing can be kept). */
static int share_cap(const lane *l, const client *c, double now) {
  return l->threads >= 2 && others_there(l, c, now) ? l->threads - 1 : l->threads;
}

typedef struct worker {
  pthread_t thread;
  struct pf_workers *w;
  int home; /* the lane it serves */
} worker;

struct pf_workers {
  pthread_mutex_t lock;
  lane lanes[LANES];
  pf_work *done;
  int pending;
  bool stopping;
  int nsearch;       /* search threads: 0 runs jobs inline */
  bool cheap_thread; /* the cheap lane has its thread (else the search threads serve it) */
  int nworkers;
  worker *workers;
  void (*fn)(pf_work *);
  void (*wake)(void *);
  void *ctx;
};

static lane *lane_of(pf_workers *w, const pf_work *job) { return &w->lanes[job->cheap ? CHEAP : SEARCH]; }

static void push_done(pf_workers *w, pf_work *job) {
  job->next = w->done;
  w->done = job;
}

/* Puts g at the end of its client's turn. */
static void group_append(client *c, group *g) {
  g->next = NULL;
  if (c->last)
    c->last->next = g;
  else
    c->turn = g;
  c->last = g;
}

/* The lane's record of a client, made (never served, last in order) if it has none. */
static client *client_of(lane *l, uint64_t id) {
  for (client *c = l->clients; c; c = c->next)
    if (c->id == id) return c;
  client *c = pf_xcalloc(1, sizeof *c);
  c->id = id;
  if (l->clients_tail)
    l->clients_tail->next = c;
  else
    l->clients = c;
  l->clients_tail = c;
  return c;
}

/* Queues a job at the end of its group, the group at the end of its client's turn if new. */
static void enqueue(lane *l, pf_work *job) {
  client *c = client_of(l, job->client);
  group *g = c->turn;
  while (g && g->id != job->group) g = g->next;
  if (!g) {
    g = pf_xcalloc(1, sizeof *g);
    g->id = job->group;
    group_append(c, g);
  }
  job->next = NULL;
  if (g->tail)
    g->tail->next = job;
  else
    g->head = job;
  g->tail = job;
  c->queued++, l->queued++;
}

/* Takes the next job of the lane (NULL: none waits): the first job of the group in turn of the
 * client served least recently; *who is its client, which counts it running until client_done. */
static pf_work *lane_take(lane *l, client **who) {
  client *c = NULL;
  double now = l->running + 1 >= l->threads ? now_seconds() : 0; /* the last free thread: a share's question */
  for (client *k = l->clients; k; k = k->next)
    if (k->queued && (!c || k->served < c->served) && (now == 0 || k->running < share_cap(l, k, now))) c = k;
  if (!c) return NULL;
  group *g = c->turn;
  pf_work *job = g->head;
  g->head = job->next;
  c->turn = g->next;
  if (!c->turn) c->last = NULL;
  if (g->head)
    group_append(c, g);
  else
    free(g);
  job->next = NULL;
  c->queued--, l->queued--;
  c->running++, l->running++;
  c->served = ++l->tick;
  *who = c;
  return job;
}

/* A job of c has finished: c is forgotten if it has no other. */
static void client_done(lane *l, client *c) {
  l->running--;
  l->recent[l->nrecent++ % RECENT].id = c->id;
  l->recent[(l->nrecent - 1) % RECENT].ended = now_seconds();
  if (l->nrecent >= 2 * RECENT) l->nrecent -= RECENT; /* stays in [RECENT, 2 RECENT) once full */
  if (--c->running || c->queued) return;
  client **p = &l->clients, *prev = NULL;
  while (*p != c) prev = *p, p = &(*p)->next;
  *p = c->next;
  if (l->clients_tail == c) l->clients_tail = prev;
  free(c);
}

/* Hands back through the done queue every job waiting in l for which match says true, and drops
 * the groups and clients left with nothing. */
static void lane_cancel(pf_workers *w, lane *l, bool (*match)(pf_work *job, void *ctx), void *ctx) {
  client **cp = &l->clients, *clast = NULL;
  while (*cp) {
    client *c = *cp;
    group **gp = &c->turn;
    c->last = NULL;
    while (*gp) {
      group *g = *gp;
      pf_work **jp = &g->head;
      g->tail = NULL;
      while (*jp) {
        pf_work *job = *jp;
        if (match(job, ctx)) {
          *jp = job->next;
          push_done(w, job);
          c->queued--, l->queued--;
        } else {
          g->tail = job;
          jp = &job->next;
        }
      }
      if (g->head) {
        c->last = g;
        gp = &g->next;
      } else {
        *gp = g->next;
        free(g);
      }
    }
    if (c->queued || c->running) {
      clast = c;
      cp = &c->next;
    } else {
      *cp = c->next;
      free(c);
    }
  }
  l->clients_tail = clast;
}

/* The next job for a thread serving `home` (NULL: none waits). */
static pf_work *take(pf_workers *w, int home, client **who) {
  if (home == SEARCH && !w->cheap_thread) { /* no cheap thread: the cheap lane first */
    pf_work *job = lane_take(&w->lanes[CHEAP], who);
    if (job) return job;
  }
  return lane_take(&w->lanes[home], who);
}

static void *worker_main(void *arg) {
  worker *me = arg;
  pf_workers *w = me->w;
  client *who = NULL;
  pf_work *job = NULL;
  pthread_mutex_lock(&w->lock);
  for (;;) {
    while (!job && !(job = take(w, me->home, &who)) && !w->stopping) {
      if (w->lanes[me->home].queued) { /* jobs wait that a share holds back: look again soon */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 100 * 1000 * 1000;
        if (ts.tv_nsec >= 1000000000) ts.tv_sec++, ts.tv_nsec -= 1000000000;
        pthread_cond_timedwait(&w->lanes[me->home].ready, &w->lock, &ts);
      } else {
        pthread_cond_wait(&w->lanes[me->home].ready, &w->lock);
      }
    }
    if (!job) break;
    pthread_mutex_unlock(&w->lock);
    w->fn(job);
    pthread_mutex_lock(&w->lock);
    client_done(lane_of(w, job), who);
    push_done(w, job);
    /* The next job is taken before the loop can collect this one and submit again, so that a
     * client whose job just ran is not taken for one that never was. */
    job = take(w, me->home, &who);
    pthread_mutex_unlock(&w->lock);
    if (w->wake) w->wake(w->ctx);
    pthread_mutex_lock(&w->lock);
  }
  pthread_mutex_unlock(&w->lock);
  return NULL;
}

static bool spawn(pf_workers *w, int home) {
  worker *k = &w->workers[w->nworkers];
  k->w = w, k->home = home;
  if (pthread_create(&k->thread, NULL, worker_main, k) != 0) return false;
  w->nworkers++;
  return true;
}

pf_workers *pf_workers_start(int n, void (*fn)(pf_work *job), void (*wake)(void *ctx), void *ctx) {
  pf_workers *w = pf_xcalloc(1, sizeof *w);
  pthread_mutex_init(&w->lock, NULL);
  for (int i = 0; i < LANES; i++) pthread_cond_init(&w->lanes[i].ready, NULL);
  w->fn = fn, w->wake = wake, w->ctx = ctx;
  w->workers = pf_xcalloc((size_t)(n > 0 ? n + 1 : 1), sizeof *w->workers);
  w->lanes[SEARCH].threads = n > 0 ? n : 0, w->lanes[CHEAP].threads = 1; /* before any thread reads them */
  for (int i = 0; i < n; i++) w->nsearch += spawn(w, SEARCH);
  pthread_mutex_lock(&w->lock);
  w->lanes[SEARCH].threads = w->nsearch;
  pthread_mutex_unlock(&w->lock);
  if (w->nsearch && spawn(w, CHEAP)) {
    pthread_mutex_lock(&w->lock); /* the search threads read it */
    w->cheap_thread = true;
    pthread_mutex_unlock(&w->lock);
  }
  return w;
}

void pf_workers_submit(pf_workers *w, pf_work *job) {
  job->next = NULL;
  pthread_mutex_lock(&w->lock);
  w->pending++;
  if (w->nsearch == 0) { /* inline: run now */
    pthread_mutex_unlock(&w->lock);
    w->fn(job);
    pthread_mutex_lock(&w->lock);
    push_done(w, job);
  } else {
    enqueue(lane_of(w, job), job);
    pthread_cond_signal(&w->lanes[job->cheap && w->cheap_thread ? CHEAP : SEARCH].ready);
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
  for (int i = 0; i < LANES; i++) lane_cancel(w, &w->lanes[i], match, ctx);
  pthread_mutex_unlock(&w->lock);
}

int pf_workers_threads(const pf_workers *w) { return w->nsearch; }

int pf_workers_pending(pf_workers *w) {
  pthread_mutex_lock(&w->lock);
  int n = w->pending;
  pthread_mutex_unlock(&w->lock);
  return n;
}

int pf_workers_queued(pf_workers *w, bool cheap) {
  pthread_mutex_lock(&w->lock);
  int n = w->lanes[cheap ? CHEAP : SEARCH].queued;
  pthread_mutex_unlock(&w->lock);
  return n;
}

static bool every_job(pf_work *job, void *ctx) {
  (void)job, (void)ctx;
  return true;
}

void pf_workers_stop(pf_workers *w) {
  pthread_mutex_lock(&w->lock);
  w->stopping = true;
  for (int i = 0; i < LANES; i++) { /* jobs not begun are handed back unrun */
    lane_cancel(w, &w->lanes[i], every_job, NULL);
    pthread_cond_broadcast(&w->lanes[i].ready);
  }
  pthread_mutex_unlock(&w->lock);
  for (int i = 0; i < w->nworkers; i++) pthread_join(w->workers[i].thread, NULL);
  w->nworkers = w->nsearch = 0;
  w->cheap_thread = false;
}

void pf_workers_free(pf_workers *w) {
  if (!w) return;
  pthread_mutex_destroy(&w->lock);
  for (int i = 0; i < LANES; i++) pthread_cond_destroy(&w->lanes[i].ready);
  free(w->workers);
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
