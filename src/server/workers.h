/*
 * workers.h - a pool of threads for slow work (the bots' choices), so that the server's event
 * loop never waits for a search.
 *
 * A job is any struct that begins with a pf_work. The loop submits it; a worker runs the pool's
 * function on it; the finished job waits in the done queue, and the pool calls `wake` (from the
 * worker's thread) so that the loop collects it with pf_workers_done. Jobs finish in any order.
 * A pool of 0 threads runs each job inside pf_workers_submit, for tests and the fuzz target.
 *
 * Lanes. A pool of n > 0 threads has two lanes: the search lane, served by the n threads, and the
 * cheap lane (jobs marked `cheap`: bots that do not search), served by one more thread of its
 * own, so that a cheap bot never waits behind a search. A search thread takes only search jobs
 * (a cheap job is quick, so the cheap lane's one thread keeps up; sharing it would put a search
 * back in front of cheap jobs that come later). Only if the cheap lane's thread could not be
 * started do the search threads serve the cheap lane too, taking its jobs first.
 *
 * Fairness, within each lane separately. The pool keeps, for each client (pf_work.client) with
 * jobs waiting or running in the lane, when it was last served; a client with neither is
 * forgotten and counts, when it comes back, as never served. A free thread takes the next job of
 * the client served least recently among those with jobs waiting (of those never served, the
 * first to come): so a client that comes with a job while others wait runs at the next free
 * thread of its lane, unless clients never served came before it, whatever the number of jobs
 * the others have waiting. Within a client the thread takes the group (pf_work.group: the table) whose turn
 * it is: the client's groups with jobs waiting take turns, one job each, a group that comes
 * anew joining at the end of the turn; within a group, first come first served. A thread that
 * finishes a job takes its next one before the finished job can be collected, so a client cannot
 * win a second turn by submitting again at once (a job is begun once a thread has taken it:
 * cancel and stop no longer reach it). Taking a job costs O(clients in the lane);
 * submitting, O(clients + the client's groups); what the pool keeps grows only with the jobs
 * it holds. Jobs whose keys are all zero (the server itself, group 0, a search) are one client's
 * one group in the search lane: first come first served, as a pool without keys.
 *
 * A crew (below) is the other kind of help: a batch of short items shared at once between the
 * loop's thread and its helpers, which the loop waits for.
 */
#ifndef PF_WORKERS_H
#define PF_WORKERS_H

#include <stdbool.h>
#include <stdint.h>

/* The head of a job. The submitter sets the keys (all zero: the server's own search job);
 * the pool owns `next`. */
typedef struct pf_work {
  struct pf_work *next;
  uint64_t client; /* who is charged: who made the table, or the hint's asker; 0: the server */
  int64_t group;   /* the table: the client's jobs take turns by group */
  bool cheap;      /* a bot that does not search (random, greedy): the cheap lane */
} pf_work;

typedef struct pf_workers pf_workers;

/* Starts n search threads and one cheap-lane thread (n = 0: none, jobs run inline) running fn
 * on each job. */
pf_workers *pf_workers_start(int n, void (*fn)(pf_work *job), void (*wake)(void *ctx), void *ctx);
/* Hands a job to the pool; the pool owns it until pf_workers_done gives it back. */
void pf_workers_submit(pf_workers *w, pf_work *job);
/* A finished job, or NULL when none is waiting. */
pf_work *pf_workers_done(pf_workers *w);
/* Hands back through the done queue, unrun, every job not begun for which match says true
 * (match may mark it so). */
void pf_workers_cancel(pf_workers *w, bool (*match)(pf_work *job, void *ctx), void *ctx);
/* The pool's search threads (0: jobs run inline): what one job may search with at most
 * (ismcts's threads). */
int pf_workers_threads(const pf_workers *w);
/* Jobs submitted and not yet collected. */
int pf_workers_pending(pf_workers *w);
/* Jobs waiting in a lane (the cheap one, or the search one), not begun. */
int pf_workers_queued(pf_workers *w, bool cheap);
/* Lets the running jobs finish, stops the threads, and gives every job not collected to drop
 * (unrun or finished) back through pf_workers_done's queue; then frees nothing else: the caller
 * collects and frees them, then calls pf_workers_free. */
void pf_workers_stop(pf_workers *w);
void pf_workers_free(pf_workers *w);

/* A crew: threads that help the loop with one batch of short work at a time (building the states
 * of the tables a pass changed), so that a second core takes part. pf_crew_run runs fn(ctx, i)
 * for every i from 0 to n-1, on the calling thread and on every helper that is free, in any
 * order, and done(ctx, i) (NULL: none) on the calling thread once fn(ctx, i) has returned, so
 * that the caller uses each item's result while the helpers work on the others (sends a table's
 * states while the next are built); it returns once all are done. Meanwhile the caller changes
 * nothing that fn reads for the items not done yet. A crew of 0 helpers (or NULL) runs them all
 * on the calling thread. */
typedef struct pf_crew pf_crew;

pf_crew *pf_crew_start(int helpers);
void pf_crew_run(pf_crew *c, int n, void (*fn)(void *ctx, int i), void (*done)(void *ctx, int i), void *ctx);
/* Stops the helpers and frees the crew (NULL: nothing). */
void pf_crew_stop(pf_crew *c);

#endif
