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

/* The states of one table, one for each viewer kind at it: text[s] for seat s, text[players]
 * for spectators (empty: nobody of that kind watches). */
typedef struct table_states {
  pf_buf text[PF_MAX_PLAYERS + 1];
  bool failed[PF_MAX_PLAYERS + 1];
} table_states;

/* A table's summary (docs/protocol.md, "list"). */
json_t *pf_state_summary(const table *t);
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
 * finished ones, LIST_MAX in all. */
json_t *pf_state_tables(pf_hall *h);
/* Appends a stored summary (JSON text) to the array ctx (pf_store_finished's callback). */
void pf_state_add_summary(void *ctx, const char *text);

#endif
