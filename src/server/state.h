/*
 * state.h - what the viewers of a table are told: its state message for each viewer kind
 * (docs/protocol.md, "state"), written as text; the states of a table built and sent; and the
 * tables' summaries and lists.
 */
#ifndef PF_SERVER_STATE_H
#define PF_SERVER_STATE_H

#include <jansson.h>
#include <stdbool.h>

#include "server/hallstate.h"
#include "server/lobbylist.h"

/* The states of one table, one for each viewer kind at it: text[s] for seat s, text[players]
 * for spectators (empty: nobody of that kind watches). */
typedef struct table_states {
  pf_buf text[PF_MAX_PLAYERS + 1];
  bool failed[PF_MAX_PLAYERS + 1];
} table_states;

/* A table's summary (docs/protocol.md, "list"): written to w, or as text (caller frees; NULL
 * when it cannot be written). */
void pf_state_summary_write(pf_jw *w, const table *t);
/* Whether a table being played is abandoned: no connection at any human seat, and nothing
 * changed for `after` seconds (limits.abandoned_after). */
bool pf_state_abandoned(const table *t, double now, int after);
/* Table t's entry in the lobby's lists is stale (its summary changed without a change of the table). */
void pf_state_list_note(pf_hall *h, table *t);
char *pf_state_summary_text(const table *t);
/* Appends the state message for seat s (-1: a spectator) to out; -1 when it cannot be written.
 * Reads t only (any thread, while nothing changes t). */
int pf_state_text(const table *t, int s, pf_buf *out);
/* Builds the state of each viewer kind at t into ts; reads t only. */
void pf_state_build(const table *t, table_states *ts);
/* Sends every connection at t its state from ts, and frees ts's texts. */
void pf_state_send(pf_hall *h, const table *t, table_states *ts);
/* Notes the asked group, then each connection at t is sent its state: every change to a table
 * ends here or in pf_hall_flush, which does the same for every table of a pass at once. */
void pf_state_broadcast(pf_hall *h, table *t);
/* The summaries of a list: every unfinished table in memory (newest first), then the newest
 * finished ones (the newest LIST_MAX of them), max in all, written to out as a JSON array (the
 * HTTP API; LIST_MAX for a list, INT_MAX for every table a subscriber's pages are cut from). */
void pf_state_tables_write(pf_hall *h, pf_buf *out, int max);
/* The lobby's list (lobbylist.h), up to date: built at the hall's opening (from the tables in memory
 * and the store's newest finished ones: the only time it reads the store), then told each
 * table that changes (the pass's changed tables, pf_state_list_told; a seat that connects or
 * leaves, pf_state_broadcast); a table gone from memory leaves it here. */
pf_lobbylist *pf_state_list(pf_hall *h);
/* The tables told at the end of a pass (pf_hall_flush): their entries written again. */
void pf_state_list_told(pf_hall *h, const int64_t *ids, int n);
/* Entry e of pf_state_list's, its text written if it was stale (its table is in memory). */
const pf_lobbylist_entry *pf_state_list_text(pf_hall *h, pf_lobbylist_entry *e);

#endif
