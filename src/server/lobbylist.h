/*
 * lobbylist.h - the lobby's list kept: every table's summary as ready JSON text, for the pages of
 * `list` and `subscribe` (lobby.c) to be cut from without building anything.
 *
 * Two parts, each newest (highest id) first: the unfinished tables in memory, and the newest
 * LIST_MAX finished ones. state.c fills it (pf_state_list: built once from memory and the store,
 * then kept up to date as tables change); an entry's text may be NULL (stale: its table changed
 * since), written again by whoever cuts a page that shows it. Memory: one entry per unfinished
 * table in memory, plus LIST_MAX.
 */
#ifndef PF_SERVER_LOBBYLIST_H
#define PF_SERVER_LOBBYLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "server/hallstate.h"

typedef struct pf_lobbylist_entry {
  int64_t id;
  char *text;  /* the summary (docs/protocol.md, "list"), owned; NULL: to be written again */
  size_t len;
  int status;  /* ST_*, for the filters */
  bool open;   /* waiting with a seat open */
} pf_lobbylist_entry;

typedef struct pf_lobbylist {
  pf_lobbylist_entry *live; /* the unfinished tables in memory, newest first */
  int nlive, caplive;
  pf_lobbylist_entry over[LIST_MAX]; /* the newest finished tables, newest first */
  int nover;
  int noted; /* how many of the pass's changed tables (pf_hall's dirty) are noted already */
} pf_lobbylist;

pf_lobbylist *pf_lobbylist_new(void);
void pf_lobbylist_free(pf_lobbylist *l);
/* An unfinished table's entry, added or changed (its text dropped: stale). */
void pf_lobbylist_set_live(pf_lobbylist *l, int64_t id, int status, bool open);
/* Removes the live entry at index i (its table left memory). */
void pf_lobbylist_drop_live(pf_lobbylist *l, int i);
/* Whether table id is among the finished part already. */
bool pf_lobbylist_has_over(const pf_lobbylist *l, int64_t id);
/* A finished table's entry with its summary `text` (taken): out of the live part, into the
 * finished one if it is among the newest LIST_MAX (the oldest dropped past it), else freed. */
void pf_lobbylist_set_over(pf_lobbylist *l, int64_t id, char *text);
/* Gives an entry its text (taken), replacing what it had. */
void pf_lobbylist_set_text(pf_lobbylist_entry *e, char *text);

#endif
