/*
 * seat.c - joining, resuming, watching, leaving and naming a seat (seat.h).
 */
#include "server/seat.h"
#include "server/change.h"
#include "server/chat.h"
#include "server/hallstate.h"
#include "server/outbox.h"
#include "server/state.h"
#include "server/tables.h"
#include "server/turn.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"

void pf_seat_join(request *r) {
  pf_hall *h = r->h;
  table *t = pf_request_table(r);
  if (!t) return;
  json_int_t s;
  if (pf_request_int(r, "seat", true, -1, 0, t->players - 1, &s) != 0) return;
  if (s < 0)
    for (int i = 0; i < t->players && s < 0; i++)
      if (t->seats[i].kind == SEAT_OPEN) s = i;
  if (s < 0) { pf_request_bad(r, "seat_taken", "table %" PRId64 " has no open seat", t->id); return; }
  if (t->seats[s].kind != SEAT_OPEN) { pf_request_bad(r, "seat_taken", "seat %lld of table %" PRId64 " is taken", (long long)s, t->id); return; }
  if (r->c->nbind == MAX_BINDINGS) { (void)pf_request_bind(r, t, (int)s); return; }
  char name[NAME_BYTES];
  if (pf_request_name(r, name) < 0) return;
  pf_error err;
  chair *st = &t->seats[s];
  pf_store_seat row = {(int)s, "human", NULL, NULL, false, name[0] ? name : NULL};
  if (pf_change_begin(h, &err) != 0) { pf_request_bad(r, "storage", "%s", err.msg); return; }
  pf_table_new_token(st->token);
  st->kind = SEAT_HUMAN;
  memcpy(st->name, name, sizeof st->name);
  row.token = st->token;
  if (pf_store_set_seat(h->store, t->id, &row, &err) != 0 || pf_change_start_if_full(h, t, &err) != 0) {
    pf_change_undo(h, t);
    pf_request_bad(r, "storage", "%s", err.msg);
    return;
  }
  pf_change_keep(h, t);
  pf_tables_bind(t, r->c, (int)s);
  pf_msg m;
  pf_outbox_open(&m, "joined");
  pf_jw_key_int(&m.w, "table", t->id);
  pf_jw_key_int(&m.w, "seat", (int)s);
  pf_jw_key_str(&m.w, "token", st->token);
  pf_request_answer_acked(r, &m);
  pf_chat_send_log(h, r->c, t, (int)s);
}

void pf_seat_resume(request *r) {
  pf_hall *h = r->h;
  table *t;
  int s = pf_request_seat(r, &t);
  char name[NAME_BYTES];
  if (s < 0 || pf_request_name(r, name) < 0 || !pf_request_bind(r, t, s)) return;
  pf_error err;
  chair *st = &t->seats[s];
  bool renamed = name[0] && strcmp(name, st->name) != 0;
  bool back = st->taken_over && pf_turn_clock_left(t, s, pf_clock_seconds()) != 0; /* not a seat out of time */
  if (back || renamed) {
    pf_store_seat row = {s, "human", NULL, st->token, st->taken_over && !back, name[0] ? name : st->name[0] ? st->name : NULL};
    if (pf_change_begin(h, &err) != 0 || pf_store_set_seat(h->store, t->id, &row, &err) != 0) {
      pf_change_undo(h, t);
      pf_tables_unbind(h, t->id, r->c, s);
      pf_request_bad(r, "storage", "%s", err.msg);
      return;
    }
    st->taken_over = row.taken_over;
    if (renamed) memcpy(st->name, name, sizeof st->name);
    pf_change_keep(h, t);
  }
  pf_msg m;
  pf_outbox_open(&m, "joined");
  pf_jw_key_int(&m.w, "table", t->id);
  pf_jw_key_int(&m.w, "seat", s);
  pf_request_answer_acked(r, &m);
  pf_chat_send_log(h, r->c, t, s);
  if (!t->dirty) pf_state_broadcast(h, t); /* its state, and the others see the seat connected (else at the flush) */
}

void pf_seat_watch(request *r) {
  table *t = pf_request_table(r);
  if (!t || !pf_request_bind(r, t, -1)) return;
  pf_msg m;
  pf_outbox_open(&m, "watching");
  pf_jw_key_int(&m.w, "table", t->id);
  pf_request_answer(r, &m);
  pf_buf state = {0};
  if (pf_state_text(t, -1, &state) == 0)
    pf_outbox_send_text(r->h, r->c, state.data, state.len, false);
  else
    pf_outbox_internal(r->h, r->c, NULL); /* the fixed internal error */
  pf_buf_free(&state);
  pf_chat_send_log(r->h, r->c, t, -1);
}

void pf_seat_leave(request *r) {
  pf_hall *h = r->h;
  table *t;
  int s = pf_request_seat(r, &t);
  if (s < 0) return;
  pf_error err;
  chair *st = &t->seats[s];
  pf_store_seat row = {s, "open", NULL, NULL, false, NULL};
  if (t->status == ST_PLAYING) row = (pf_store_seat){s, "bot", t->takeover_bot, NULL, false, NULL};
  if (t->status != ST_OVER) {
    if (pf_change_begin(h, &err) != 0 || pf_store_set_seat(h->store, t->id, &row, &err) != 0) {
      pf_change_undo(h, t);
      pf_request_bad(r, "storage", "%s", err.msg);
      return;
    }
    st->kind = pf_table_parse_kind(row.kind);
    st->taken_over = false;
    memset(st->token, 0, sizeof st->token);
    memset(st->name, 0, sizeof st->name);
    snprintf(st->bot, sizeof st->bot, "%s", row.bot ? row.bot : "");
    if (t->status == ST_WAITING) t->since = pf_clock_seconds(); /* expiry counts from the last to leave */
    pf_change_keep(h, t);
    /* Every connection at that seat leaves it. */
    for (int i = 0; i < t->nwatch;)
      if (t->watch[i].seat == s)
        pf_tables_unbind(h, t->id, t->watch[i].conn, s);
      else
        i++;
  }
  pf_tables_unbind(h, t->id, r->c, s);
  pf_msg m;
  pf_outbox_open(&m, "left");
  pf_jw_key_int(&m.w, "table", t->id);
  pf_request_answer_acked(r, &m);
}

/* A seat's new display name. */
void pf_seat_name(request *r) {
  pf_hall *h = r->h;
  table *t;
  int s = pf_request_seat(r, &t);
  char name[NAME_BYTES];
  if (s < 0 || pf_request_name(r, name) < 0) return;
  if (!name[0]) { pf_request_bad(r, "bad_message", "name: \"name\" is missing"); return; }
  chair *st = &t->seats[s];
  pf_error err;
  pf_store_seat row = {s, "human", NULL, st->token, st->taken_over, name};
  if (pf_change_begin(h, &err) != 0 || pf_store_set_seat(h->store, t->id, &row, &err) != 0) {
    pf_change_undo(h, t);
    pf_request_bad(r, "storage", "%s", err.msg);
    return;
  }
  memcpy(st->name, name, sizeof st->name);
  pf_change_keep(h, t); /* everyone at the table is sent the new name in its state */
  pf_msg m;
  pf_outbox_open(&m, "named");
  pf_jw_key_int(&m.w, "table", t->id);
  pf_jw_key_int(&m.w, "seat", s);
  pf_jw_key_str(&m.w, "name", name);
  pf_request_answer_acked(r, &m);
}

/* Seat s's person sent a message: they are there (docs/protocol.md, "here"). The takeover's
 * countdown starts again from now; a seat the takeover bot played while they were silent is
 * theirs again (not one out of time: that is for good). The others are sent a state with the new
 * countdown when it moved on by 2 seconds or more since the one they were told, so that a chatty
 * seat costs at most one state every 2 seconds. */
void pf_seat_heard(pf_hall *h, table *t, int s) {
  chair *st = &t->seats[s];
  if (st->kind != SEAT_HUMAN) return;
  double now = pf_clock_seconds();
  t->heard_at[s] = now;
  if (t->status != ST_PLAYING) return;
  if (st->taken_over) {
    if (pf_turn_clock_left(t, s, now) == 0) return;
    pf_error err;
    pf_store_seat row = {s, "human", NULL, st->token, false, st->name[0] ? st->name : NULL};
    if (pf_change_begin(h, &err) != 0 || pf_store_set_seat(h->store, t->id, &row, &err) != 0) {
      pf_change_undo(h, t);
      return;
    }
    st->taken_over = false;
    t->told_takeover[s] = now + t->takeover_after;
    pf_change_keep(h, t); /* told to everyone at the flush */
    return;
  }
  int64_t left = pf_turn_takeover_ms(t, s, now);
  if (left < 0 || t->dirty) return; /* no countdown, or a state is told at the flush anyway */
  double deadline = now + (double)left / 1000;
  if (deadline - t->told_takeover[s] < 2) return;
  t->told_takeover[s] = deadline;
  pf_state_broadcast(h, t);
}

void pf_seat_heard_conn(pf_hall *h, pf_conn *c) {
  for (int i = 0; i < c->nbind; i++) {
    if (c->bind[i].seat < 0) continue;
    table *t = pf_tables_in_memory(h, c->bind[i].table);
    if (t && c->bind[i].seat < t->players) pf_seat_heard(h, t, c->bind[i].seat);
  }
}

void pf_seat_here(request *r) {
  table *t;
  int s = pf_request_seat(r, &t);
  if (s < 0) return;
  pf_seat_heard(r->h, t, s);
  pf_msg m;
  pf_outbox_open(&m, "here");
  pf_jw_key_int(&m.w, "table", t->id);
  pf_jw_key_int(&m.w, "seat", s);
  pf_request_answer(r, &m);
}
