/*
 * play.c - a seat's move, a hint, and the review of a finished game (play.h).
 */
#include "server/play.h"
#include "server/botjob.h"
#include "server/change.h"
#include "server/outbox.h"
#include "server/review.h"
#include "server/tables.h"
#include "server/turn.h"

#include <inttypes.h>
#include <string.h>

#include "core/clock.h"
#include "core/jsontext.h"

void pf_play_move(request *r) {
  pf_hall *h = r->h;
  table *t;
  int s = pf_request_seat(r, &t);
  if (s < 0) return;
  const char *text = pf_request_str(r, "move", false);
  if (!text) return;
  json_int_t ply;
  if (pf_request_int(r, "ply", false, 0, 0, INT32_MAX, &ply) != 0) return;
  if (t->status != ST_PLAYING) {
    pf_request_bad(r, "not_your_turn", "table %" PRId64 " is %s", t->id, t->status == ST_OVER ? "over" : "waiting for players");
    return;
  }
  if (!pf_turn_clock_left(t, s, pf_clock_seconds())) {
    pf_request_bad(r, "time_out", "seat %d has no time left on its clock: the bot plays it", s);
    return;
  }
  if (!pf_turn_current_for(t, s, ply)) {
    pf_request_bad(r, "stale", "the table is at ply %d, not %lld (seat %d's choice is asked since ply %d)", t->run.nmoves,
               (long long)ply, s, t->group_since[s] >= 0 ? t->group_since[s] : t->run.nmoves);
    return;
  }
  char canon[PF_MOVE_STR];
  bool sealed = false;
  const char *code;
  pf_error err;
  int64_t id = t->id;
  if (pf_change_seat_move(h, t, s, text, canon, &sealed, &code, &err) != 0) { /* t may be reloaded: not used after */
    pf_request_bad(r, code, "move \"%.60s\": %s", text, err.msg);
    return;
  }
  t = pf_tables_in_memory(h, id);
  if (!t) { pf_request_bad(r, "storage", "table %" PRId64 " could not be read back", id); return; }
  pf_msg m;
  pf_outbox_open(&m, "ack");
  pf_jw_key_int(&m.w, "table", id);
  pf_jw_key_int(&m.w, "ply", t->run.nmoves);
  pf_jw_key_str(&m.w, "move", canon);
  if (sealed) {
    pf_jw_key(&m.w, "sealed");
    pf_jw_bool(&m.w, true);
  }
  pf_request_answer_acked(r, &m);
}

void pf_play_hint(request *r) {
  pf_hall *h = r->h;
  table *t;
  int s = pf_request_seat(r, &t);
  if (s < 0) return;
  const char *spec = pf_request_str(r, "bot", true);
  if (!spec && json_object_get(r->msg, "bot")) return;
  if (!spec) spec = pf_game_strong_bot(t->g); /* the game's strong bot (games/registry.c) */
  pf_error err;
  const char *code;
  if (pf_botjob_check(h, spec, &code, &err) != 0) { pf_request_bad(r, code, "hint: %s", err.msg); return; }
  int at;
  if (!pf_turn_may_answer(t, s, &at)) { pf_request_bad(r, "not_your_turn", "seat %d is not asked now", s); return; }
  pf_client *c = r->c->client;
  if (!pf_client_may_hold(c, PF_HOLD_HINTS)) {
    pf_request_bad(r, "busy", "your address's last hint is not answered yet: one at a time (hints_per_client)");
    return;
  }
  if (t->hint_busy) { pf_request_bad(r, "busy", "a hint for table %" PRId64 " is being searched: one at a time", t->id); return; }
  if (!pf_request_costly(r)) return;
  bot_job *j = pf_botjob_new(h, t, s, at, spec);
  j->hint = true;
  j->conn = r->c->id;
  j->asker = c;
  pf_client_hold(c, PF_HOLD_HINTS, 1);
  j->work.client = (uint64_t)(uintptr_t)c; /* the asker's, not the table's creator's */
  j->req_id = r->id ? json_incref(r->id) : NULL;
  t->hint_busy = true;
  pf_workers_submit(h->workers, &j->work);
}

/* Reviews a finished game (docs/protocol.md, "review"): what is costly is kept (review.h). */
void pf_play_review(request *r) {
  if (!pf_request_costly(r)) return;
  pf_hall *h = r->h;
  if (!h->review) h->review = pf_review_new();
  json_t *tid = json_object_get(r->msg, "table");
  int64_t id = json_is_integer(tid) ? json_integer_value(tid) : 0;
  int plies = pf_review_plies(h->review, id);
  pf_error err;
  if (plies < 0) { /* not kept: the table (from the store, maybe), kept from now on */
    table *t = pf_request_table(r);
    if (!t) return;
    if (t->status != ST_OVER) { pf_request_bad(r, "not_over", "table %" PRId64 " is still being played", t->id); return; }
    if (pf_review_keep(h->review, t, &err) != 0) { pf_request_bad(r, "storage", "%s", err.msg); return; }
    plies = t->run.nmoves;
  }
  json_int_t ply;
  if (pf_request_int(r, "ply", false, 0, 0, plies, &ply) != 0) return;
  json_t *want = json_object_get(r->msg, "log");
  if (want && !json_is_boolean(want)) { pf_request_bad(r, "bad_message", "review: \"log\" must be true or false"); return; }
  pf_buf b = {0};
  if (pf_review_write(h->review, id, (int)ply, json_is_true(want), &b, &err) != 0) {
    pf_buf_free(&b);
    pf_request_bad(r, "storage", "%s", err.msg);
    return;
  }
  if (r->id) {
    pf_jw w = {.b = &b, .comma = true};
    pf_jw_key(&w, "id");
    pf_jw_value(&w, r->id);
  }
  pf_buf_putc(&b, '}');
  pf_outbox_send_text(h, r->c, b.data, b.len, true);
  pf_buf_free(&b);
}
