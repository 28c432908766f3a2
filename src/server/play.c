/*
 * play.c - a seat's move, a hint, and the review of a finished game (play.h).
 */
#include "server/play.h"
#include "server/botjob.h"
#include "server/change.h"
#include "server/tables.h"
#include "server/turn.h"

#include <inttypes.h>
#include <string.h>

#include "core/clock.h"

#define REVIEW_LOG 1000 /* the moves a review's "log" tells at most (docs/protocol.md) */

void pf_play_move(request *r) {
  pf_hall *h = r->h;
  table *t;
  int s = pf_request_seat(r, &t);
  if (s < 0) return;
  const char *text = pf_request_str(r, "move", false);
  if (!text) return;
  json_int_t ply;
  if (pf_request_int(r, "ply", false, 0, 0, INT32_MAX, &ply) != 0) return;
  if (t->status != ST_PLAYING)
    return pf_request_bad(r, "not_your_turn", "table %" PRId64 " is %s", t->id, t->status == ST_OVER ? "over" : "waiting for players");
  if (!pf_turn_clock_left(t, s, pf_clock_seconds()))
    return pf_request_bad(r, "time_out", "seat %d has no time left on its clock: the bot plays it", s);
  if (!pf_turn_current_for(t, s, ply))
    return pf_request_bad(r, "stale", "the table is at ply %d, not %lld (seat %d's choice is asked since ply %d)", t->run.nmoves,
               (long long)ply, s, t->group_since[s] >= 0 ? t->group_since[s] : t->run.nmoves);
  char canon[PF_MOVE_STR];
  bool sealed = false;
  const char *code;
  pf_error err;
  int64_t id = t->id;
  if (pf_change_seat_move(h, t, s, text, canon, &sealed, &code, &err) != 0) /* t may be reloaded: not used after */
    return pf_request_bad(r, code, "move \"%.60s\": %s", text, err.msg);
  t = pf_tables_in_memory(h, id);
  if (!t) return pf_request_bad(r, "storage", "table %" PRId64 " could not be read back", id);
  json_t *ack = json_pack("{s:s, s:I, s:i, s:s}", "type", "ack", "table", (json_int_t)id, "ply", t->run.nmoves, "move",
                          canon);
  if (sealed) json_object_set_new(ack, "sealed", json_true());
  pf_request_reply_acked(r, ack);
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
  if (pf_botjob_check(h, spec, &code, &err) != 0) return pf_request_bad(r, code, "hint: %s", err.msg);
  int at;
  if (!pf_turn_may_answer(t, s, &at)) return pf_request_bad(r, "not_your_turn", "seat %d is not asked now", s);
  pf_client *c = r->c->client;
  if (!pf_client_may_hold(c, PF_HOLD_HINTS))
    return pf_request_bad(r, "busy", "your address's last hint is not answered yet: one at a time (hints_per_client)");
  if (t->hint_busy) return pf_request_bad(r, "busy", "a hint for table %" PRId64 " is being searched: one at a time", t->id);
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

/* One move of a finished game in words, with everything shown: a review's "log" entry. */
static json_t *review_entry(const table *t, const void *st, int k) {
  const char *text = t->run.moves[k];
  int who = t->g->to_move(st);
  pf_buf b = {0};
  pf_move_zones z = {.card = PF_CARD_NONE};
  if (pf_table_describe_shown(t->g, st, text, &b, &z)) who = -1;
  json_t *o = json_pack("{s:i, s:o, s:s%, s:s}", "ply", k, "seat", who >= 0 ? json_integer(who) : json_null(), "text",
                        b.len ? b.data : text, b.len ? b.len : strlen(text), "move", text);
  char c[PF_CARD_STR];
  if (o && z.from[0]) json_object_set_new(o, "from", json_string(z.from));
  if (o && z.to[0]) json_object_set_new(o, "to", json_string(z.to));
  if (o && z.card != PF_CARD_NONE) json_object_set_new(o, "card", json_string(pf_card_str_in(t->g->cards, z.card, c)));
  pf_buf_free(&b);
  return o;
}

void pf_play_review(request *r) {
  if (!pf_request_costly(r)) return;
  table *t = pf_request_table(r);
  if (!t) return;
  if (t->status != ST_OVER) return pf_request_bad(r, "not_over", "table %" PRId64 " is still being played", t->id);
  json_int_t ply;
  if (pf_request_int(r, "ply", false, 0, 0, t->run.nmoves, &ply) != 0) return;
  json_t *want = json_object_get(r->msg, "log");
  if (want && !json_is_boolean(want)) return pf_request_bad(r, "bad_message", "review: \"log\" must be true or false");
  /* With "log": REVIEW_LOG moves around ply (the whole game when it is no longer), each told at
   * the position before it, on the way to ply or past it. */
  int first = (int)ply - REVIEW_LOG / 2;
  if (first > t->run.nmoves - REVIEW_LOG) first = t->run.nmoves - REVIEW_LOG;
  if (first < 0) first = 0;
  int end = first + REVIEW_LOG < t->run.nmoves ? first + REVIEW_LOG : t->run.nmoves;
  json_t *log = json_is_true(want) ? json_array() : NULL;
  pf_run run;
  pf_error err;
  if (pf_run_start(&run, t->g, &t->run.setup, &err) != 0) return pf_request_bad(r, "storage", "%s", err.msg);
  pf_buf text = {0};
  pf_style plain = {0};
  json_t *view = NULL;
  for (int k = 0; k <= t->run.nmoves; k++) {
    if (k == ply) {
      t->g->view_text(run.state, PF_VIEW_ALL, &plain, &text);
      view = pf_view_json(t->g, run.state, t->players, PF_VIEW_ALL);
    }
    if (k >= (log ? end : (int)ply)) break;
    if (log && k >= first) json_array_append_new(log, review_entry(t, run.state, k));
    if (pf_run_play_text(&run, t->run.moves[k], &err) != 0) {
      pf_run_free(&run);
      pf_buf_free(&text);
      json_decref(view);
      json_decref(log);
      return pf_request_bad(r, "storage", "move %d: %s", k + 1, err.msg);
    }
  }
  json_t *o = json_pack("{s:s, s:I, s:i, s:i, s:o, s:s}", "type", "review", "table", (json_int_t)t->id, "ply",
                        (int)ply, "plies", t->run.nmoves, "view", view, "text", pf_buf_str(&text));
  if (o && ply < t->run.nmoves) json_object_set_new(o, "next", json_string(t->run.moves[ply]));
  if (o && log) json_object_set_new(o, "log", log);
  else json_decref(log);
  pf_buf_free(&text);
  pf_run_free(&run);
  pf_request_reply(r, o);
}
