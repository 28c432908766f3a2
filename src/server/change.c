/*
 * change.c - changes to tables as savepoints of the pass's transaction, and the changes that
 * play (change.h).
 */
#include "server/change.h"
#include "server/log.h"
#include "server/state.h"
#include "server/tables.h"
#include "server/turn.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"

/* ---- changes ---- */

/* Opens a change: a savepoint in the pass's transaction (begun here if need be). */
int pf_change_begin(pf_hall *h, pf_error *err) {
  if (!pf_store_in_transaction(h->store) && pf_store_begin(h->store, err) != 0) return -1;
  return pf_store_change(h->store, err);
}

static void mark_dirty(pf_hall *h, table *t) {
  if (t->dirty) return;
  t->dirty = true;
  h->lobby_dirty = true;
  if (h->ndirty == h->capdirty) {
    h->capdirty = h->capdirty ? 2 * h->capdirty : 64;
    h->dirty = pf_xrealloc(h->dirty, (size_t)h->capdirty * sizeof *h->dirty);
  }
  h->dirty[h->ndirty++] = t->id;
}

/* Keeps a change of table t: it is told at pf_hall_flush, once committed. */
void pf_change_keep(pf_hall *h, table *t) {
  pf_error err;
  if (pf_store_change_end(h->store, true, &err) != 0) {
    pf_change_undo(h, t);
    return;
  }
  pf_turn_note_group(t);
  pf_table_charge(t);
  mark_dirty(h, t);
}

/* Undoes a change that failed before its end: the store as it was, the table as stored. */
void pf_change_undo(pf_hall *h, table *t) {
  pf_error err;
  if (pf_store_change_end(h->store, false, &err) != 0) pf_store_rollback(h->store); /* the whole pass goes */
  if (t) pf_tables_reload(h, t);
}

/* ---- playing ---- */

/* Writes and plays a move of the seat to move or a chance outcome (inside a transaction). */
int pf_change_play(pf_hall *h, table *t, const char *text, pf_error *err) {
  if (pf_table_play_text(t, text, true, err) != 0) return -1;
  return pf_store_add_move(h->store, t->id, t->run.nmoves - 1, t->run.moves[t->run.nmoves - 1], err);
}

/* Plays what needs nobody (chance, sealed choices whose turn has come) until a seat must answer
 * or the game is over (inside a transaction). */
int pf_change_advance(pf_hall *h, table *t, pf_error *err) {
  while (t->status == ST_PLAYING) {
    int who = t->g->to_move(t->run.state);
    if (who == PF_NOBODY) {
      t->status = ST_OVER;
      pf_table_log_reveal(t);
      char *text = pf_state_summary_text(t);
      int rc = pf_store_set_status(h->store, t->id, pf_table_status[ST_OVER], text, err);
      free(text);
      return rc;
    }
    if (who == PF_CHANCE) {
      char outcome[PF_MOVE_STR];
      memcpy(h->scratch, t->run.state, t->g->state_size);
      pf_chance_sample(t->g, h->scratch, outcome);
      if (pf_change_play(h, t, outcome, err) != 0) return -1;
      continue;
    }
    chair *st = &t->seats[who];
    if (!st->has_sealed) return 0;
    st->has_sealed = false;
    if (pf_store_drop_sealed(h->store, t->id, who, err) != 0) return -1;
    pf_error perr;
    if (pf_table_play_text(t, st->sealed, true, &perr) != 0) {
      /* Cannot happen when the game keeps game.h's promise for choosing; the seat is asked anew. */
      pf_log("error", "table %" PRId64 ": seat %d's sealed \"%s\" is refused: %s", t->id, who,
              st->sealed, perr.msg);
      continue;
    }
    if (pf_store_add_move(h->store, t->id, t->run.nmoves - 1, t->run.moves[t->run.nmoves - 1], err) != 0) return -1;
  }
  return 0;
}

/* Seat s is out of time on a table whose clock loses (inside a change): the game stops there, over,
 * everyone else winning (result_json). Its record is the moves played: no engine result. */
int pf_change_lose_on_time(pf_hall *h, table *t, int s, pf_error *err) {
  t->status = ST_OVER;
  t->lost_on_time = s;
  t->clock_ms[s] = 0;
  pf_table_log_reveal(t);
  char *text = pf_state_summary_text(t);
  int rc = pf_store_set_clock(h->store, t->id, s, 0, err);
  if (rc == 0) rc = pf_store_set_lost(h->store, t->id, s, err);
  if (rc == 0) rc = pf_store_set_status(h->store, t->id, pf_table_status[ST_OVER], text, err);
  free(text);
  return rc;
}

/* A move of seat s (already checked to be asked and entitled): played now if it is first of its
 * group, sealed otherwise, as one change (kept). `canon` gets its canonical string. Returns 0, or
 * -1 with err set, *code the protocol's error code, and the table as stored (t may be freed). */
int pf_change_seat_move(pf_hall *h, table *t, int s, const char *text, char canon[PF_MOVE_STR], bool *sealed,
                        const char **code, pf_error *err) {
  int at;
  *code = "not_your_turn";
  if (!pf_turn_may_answer(t, s, &at)) {
    return t->seats[s].has_sealed ? pf_fail(err, "seat %d has already chosen", s)
                                  : pf_fail(err, "seat %d is not asked now", s);
  }
  void *st = at == 0 ? t->run.state : pf_turn_state_for(t, at, h->scratch);
  pf_move m;
  *code = "illegal_move";
  if (t->g->move_parse(st, text, &m, err) != 0) return -1;
  t->g->move_str(st, m, canon);
  *code = "storage";
  *sealed = at > 0;
  int64_t left = pf_turn_clock_left(t, s, pf_clock_seconds()); /* its clock stops at its move */
  if (pf_change_begin(h, err) != 0) return -1;
  int rc;
  if (at > 0) {
    rc = pf_store_add_sealed(h->store, t->id, s, t->run.nmoves, canon, err);
    if (rc == 0) {
      t->seats[s].has_sealed = true;
      pf_snprintf(t->seats[s].sealed, sizeof t->seats[s].sealed, "%s", canon);
    }
  } else {
    rc = pf_change_play(h, t, canon, err);
  }
  if (rc == 0 && t->seats[s].taken_over) { /* a player back at the table takes the seat again */
    t->seats[s].taken_over = false;
    pf_store_seat ss = {s, "human", NULL, t->seats[s].token, false, t->seats[s].name};
    rc = pf_store_set_seat(h->store, t->id, &ss, err);
  }
  if (rc == 0 && left >= 0 && (rc = pf_store_set_clock(h->store, t->id, s, left, err)) == 0) t->clock_ms[s] = left;
  if (rc == 0) rc = pf_change_advance(h, t, err);
  if (rc != 0) {
    pf_change_undo(h, t);
    return -1;
  }
  pf_change_keep(h, t);
  return 0;
}

/* Starts a table whose seats are all filled: plays what needs nobody and lets the bots play
 * (inside the caller's change). */
int pf_change_start_if_full(pf_hall *h, table *t, pf_error *err) {
  for (int s = 0; s < t->players; s++)
    if (t->seats[s].kind == SEAT_OPEN) return 0;
  t->status = ST_PLAYING;
  if (pf_store_set_status(h->store, t->id, pf_table_status[ST_PLAYING], NULL, err) != 0) return -1;
  return pf_change_advance(h, t, err);
}
