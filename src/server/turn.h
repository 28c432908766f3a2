/*
 * turn.h - who is asked at a table: the seats of its choosing group (game.h: choosing), whether
 * one may still answer or has sealed its choice, since when it has been asked (what a move sent
 * for an older ply may still answer), its clock, and the stand-in state a seat choosing after
 * others answers from. Reads and notes on a table (table.h) only: no hall.
 */
#ifndef PF_SERVER_TURN_H
#define PF_SERVER_TURN_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "server/table.h"

/* The seats asked now (game.h: choosing) into seats; 0 when the table is not being played. */
int pf_turn_asked(const table *t, int *seats);
/* Whether seat s is among the asked and may still answer; its index in the group in *at. */
bool pf_turn_may_answer(const table *t, int s, int *at);
/* Notes, after a change, since when each seat has been asked with the same legal moves (and so
 * when its clock started running). */
void pf_turn_note_group(table *t);
/* Whether a move of seat s sent at `ply` was sent for the position it would be played in. */
bool pf_turn_current_for(const table *t, int s, json_int_t ply);
/* A state in which seat seats[at] of the choosing group is to move, written into scratch (a
 * state's size) and returned: the seats before it play their first legal move. */
void *pf_turn_state_for(const table *t, int at, void *scratch);
/* Whether a bot plays seat s: a bot seat, or a human one taken over. */
bool pf_turn_is_bot_seat(const table *t, int s);
/* A human seat's time left now, in ms (its clock running while it is asked); -1 without a clock. */
int64_t pf_turn_clock_left(const table *t, int s, double now);

/* The ms before the takeover bot plays seat s, silent since the table's last change or the seat's
 * last message, whichever is later; -1 when no takeover counts down for it (no takeover, not
 * asked, a bot, taken over, its sealed choice in). */
int64_t pf_turn_takeover_ms(const table *t, int s, double now);

#endif
