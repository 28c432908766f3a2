/*
 * review.h - the review of a finished game (docs/protocol.md, "review"), its costly parts kept:
 * for each finished table reviewed lately, the game's state every REVIEW_EVERY plies and its
 * log's entries as JSON text, built once, so that a review replays at most REVIEW_EVERY - 1
 * moves and describes at most REVIEW_LOG moves once, whatever the game's length.
 *
 * The tables kept are the most recently reviewed, up to REVIEW_CACHE_MIB in all (the least
 * recently reviewed dropped first; the one being reviewed always stays). A finished game never
 * changes, so nothing kept goes stale.
 */
#ifndef PF_SERVER_REVIEW_H
#define PF_SERVER_REVIEW_H

#include <stdbool.h>

#include "server/table.h"

#define REVIEW_LOG 1000      /* the moves a review's "log" tells at most (docs/protocol.md) */
#define REVIEW_EVERY 100     /* plies between two states kept, and the log's entries built at once */
#define REVIEW_CACHE_MIB 64  /* what the reviews kept may take in all */

typedef struct pf_review pf_review;

pf_review *pf_review_new(void);
void pf_review_free(pf_review *rv);
/* The plies of finished table id when it is kept, else -1: a review of a table kept needs
 * nothing else (not the table in memory, read back from the store and replayed). */
int pf_review_plies(const pf_review *rv, int64_t id);
/* Keeps finished table t (a copy of its moves; nothing if it is kept already). -1 with err when
 * its game cannot start. */
int pf_review_keep(pf_review *rv, const table *t, pf_error *err);
/* Appends the reply to a review of kept table id at ply (0 to its plies), with the log when
 * asked, as JSON text left open (no closing brace: the request's id may follow). -1 with err
 * when the stored game does not replay. */
int pf_review_write(pf_review *rv, int64_t id, int ply, bool log, pf_buf *out, pf_error *err);
/* The bytes kept now (for the tests of the cap and /metrics). */
size_t pf_review_bytes(const pf_review *rv);

#endif
