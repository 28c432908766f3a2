/*
 * turn.c - who is asked at a table (turn.h).
 */
#include "server/turn.h"

#include <string.h>

#include "core/clock.h"

/* The seats asked now (game.h: choosing); 0 when the table is not being played. */
int pf_turn_asked(const table *t, int *seats) {
  if (t->status != ST_PLAYING) return 0;
  return pf_choosing(t->g, t->run.state, seats);
}

/* Whether seat s is among the asked and may still answer; its index in the group in *at. */
bool pf_turn_may_answer(const table *t, int s, int *at) {
  int seats[PF_MAX_PLAYERS], n = pf_turn_asked(t, seats);
  for (int i = 0; i < n; i++)
    if (seats[i] == s) {
      *at = i;
      return !t->seats[s].has_sealed;
    }
  return false;
}

/* Notes, after a change, since when each seat has been asked with the same legal moves: since it
 * joined the choosing group it is in, and not before its own last move (pf_table_play_text forgets it
 * then), nor a chance event. A move it sends for any ply since then is not stale, since its
 * legal moves have not changed (game.h: choosing), even though the seats before it moved on. */
void pf_turn_note_group(table *t) {
  int seats[PF_MAX_PLAYERS], n = pf_turn_asked(t, seats);
  bool in[PF_MAX_PLAYERS] = {0};
  for (int i = 0; i < n; i++) in[seats[i]] = true;
  double now = pf_clock_seconds();
  for (int s = 0; s < t->players; s++)
    if (!in[s] || t->seats[s].has_sealed)
      t->group_since[s] = -1, t->asked_at[s] = 0;
    else if (t->group_since[s] < 0)
      t->group_since[s] = t->run.nmoves, t->asked_at[s] = now; /* its clock runs from here */
}

int64_t pf_turn_clock_left(const table *t, int s, double now) {
  if (!t->clock_s || t->seats[s].kind != SEAT_HUMAN) return -1;
  int64_t left = t->clock_ms[s];
  if (t->status == ST_PLAYING && t->asked_at[s] > 0) left -= (int64_t)((now - t->asked_at[s]) * 1000);
  return left > 0 ? left : 0;
}

/* Whether a move of seat s sent at `ply` was sent for the position it would be played in. */
bool pf_turn_current_for(const table *t, int s, json_int_t ply) {
  return ply == t->run.nmoves || (t->group_since[s] >= 0 && ply >= t->group_since[s] && ply < t->run.nmoves);
}

/* A state in which seat seats[at] of the choosing group is to move: the seats before it play
 * their first legal move. The seat's view and legal moves there do not depend on what they play
 * (game.h: choosing), and nothing of the real choices is in it: bots may search from it. */
void *pf_turn_state_for(const table *t, int at, void *scratch) {
  memcpy(scratch, t->run.state, t->g->state_size);
  for (int j = 0; j < at; j++) {
    pf_move moves[PF_MAX_MOVES];
    t->g->legal(scratch, moves);
    t->g->apply(scratch, moves[0]);
  }
  return scratch;
}

bool pf_turn_is_bot_seat(const table *t, int s) { return t->seats[s].kind == SEAT_BOT || t->seats[s].taken_over; }

int64_t pf_turn_takeover_ms(const table *t, int s, double now) {
  const chair *st = &t->seats[s];
  int at;
  if (!t->takeover_after || st->kind != SEAT_HUMAN || st->taken_over || !pf_turn_may_answer(t, s, &at)) return -1;
  double quiet = t->heard_at[s] > t->since ? t->heard_at[s] : t->since;
  int64_t left = (int64_t)((quiet + t->takeover_after - now) * 1000);
  return left > 0 ? left : 0;
}
