/*
 * change.h - changing a table: each change is a savepoint in the pass's transaction, kept (told
 * at pf_hall_flush once committed) or undone (the table put back as stored); and the changes
 * that play: a move written and played, what needs nobody played on (chance, sealed choices),
 * a seat's move, a table started, a seat lost on time.
 */
#ifndef PF_SERVER_CHANGE_H
#define PF_SERVER_CHANGE_H

#include <stdbool.h>

#include "server/hallstate.h"

/* Opens a change: a savepoint in the pass's transaction (begun here if need be). */
int pf_change_begin(pf_hall *h, pf_error *err);
/* Keeps a change of table t: it is told at pf_hall_flush, once committed. */
void pf_change_keep(pf_hall *h, table *t);
/* Undoes a change that failed before its end: the store as it was, the table (if any) as stored. */
void pf_change_undo(pf_hall *h, table *t);

/* Writes and plays a move of the seat to move or a chance outcome (inside a change). */
int pf_change_play(pf_hall *h, table *t, const char *text, pf_error *err);
/* Plays what needs nobody (chance, sealed choices whose turn has come) until a seat must answer
 * or the game is over (inside a change). */
int pf_change_advance(pf_hall *h, table *t, pf_error *err);
/* Seat s is out of time on a table whose clock loses (inside a change): the game stops there. */
int pf_change_lose_on_time(pf_hall *h, table *t, int s, pf_error *err);
/* Starts a table whose seats are all filled (inside the caller's change). */
int pf_change_start_if_full(pf_hall *h, table *t, pf_error *err);
/* A move of seat s, played or sealed, as one change (kept). Returns 0, or -1 with err set, *code
 * the protocol's error code, and the table as stored (t may be freed). */
int pf_change_seat_move(pf_hall *h, table *t, int s, const char *text, char canon[PF_MOVE_STR], bool *sealed,
                        const char **code, pf_error *err);

#endif
