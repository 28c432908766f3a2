/*
 * tables.h - the hall's tables by id: in memory, loaded from the store on demand (a table's
 * state is its record replayed), put back as stored after a failed write, unloaded once finished
 * and left; and the bindings of connections to the tables they sit at or watch.
 */
#ifndef PF_SERVER_TABLES_H
#define PF_SERVER_TABLES_H

#include <stdbool.h>
#include <stdint.h>

#include "server/hallstate.h"

/* The table with this id if it is in memory, else NULL. */
table *pf_tables_in_memory(pf_hall *h, int64_t id);
/* The table with this id, from memory or else from the store; NULL if there is none. */
table *pf_tables_get(pf_hall *h, int64_t id);
/* Puts a new table (its id set) in memory. */
void pf_tables_put(pf_hall *h, table *t);
/* Takes a table out of memory, without freeing it. */
void pf_tables_forget(pf_hall *h, const table *t);
/* Takes a table out of memory and frees it (its connections' bindings are the caller's to drop). */
void pf_tables_remove(pf_hall *h, table *t);
/* Builds a table in memory (ctx: the hall) from what the store holds (pf_store_load's callback). */
int pf_tables_load(void *ctx, const pf_store_loaded *l);
/* Puts a table back as stored after a failed write (t is freed; its watchers stay). */
void pf_tables_reload(pf_hall *h, table *t);
/* Notes a finished table to unload once nobody is at it, at the next pf_tables_sweep_idle. */
void pf_tables_note_idle(pf_hall *h, const table *t);
void pf_tables_sweep_idle(pf_hall *h);

/* Binds c to seat s of t (-1: watching); false when c is at MAX_BINDINGS tables already. */
bool pf_tables_bind(table *t, pf_conn *c, int s);
/* Unbinds c from seat s of table id (s = -2: from every seat and watching). */
void pf_tables_unbind(pf_hall *h, int64_t id, pf_conn *c, int s);

#endif
