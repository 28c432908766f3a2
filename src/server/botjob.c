/*
 * botjob.c - the bots' jobs, searched on the workers and taken back by the loop (botjob.h).
 */
#include "server/botjob.h"
#include "server/change.h"
#include "server/log.h"
#include "server/outbox.h"
#include "server/tables.h"
#include "server/turn.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* On a worker thread: the bot chooses on its own copy of the state. */
void pf_botjob_run(pf_work *w) {
  bot_job *j = (bot_job *)w;
  pf_bot bot;
  if (j->cancelled) return;
  if (pf_bot_init(&bot, j->spec, j->players, j->seed, j->seat, &j->err) != 0) {
    j->failed = true;
    return;
  }
  for (int i = 0; i < bot.kind->nsettings; i++) { /* no search runs longer, or on more threads, than allowed */
    if (strcmp(bot.kind->settings[i].name, "time") == 0 && (bot.set[i] == 0 || bot.set[i] > j->max_ms))
      bot.set[i] = j->max_ms;
    if (strcmp(bot.kind->settings[i].name, "threads") == 0 && bot.set[i] > j->max_threads)
      bot.set[i] = j->max_threads;
    if (strcmp(bot.kind->settings[i].name, "clock") == 0) bot.set[i] = 0; /* the cap is wall-clock time */
  }
  pf_move m = pf_bot_choose(&bot, j->g, j->state);
  j->g->move_str(j->state, m, j->move);
  if (j->hint) {
    pf_style plain = {0};
    pf_describe(j->g, j->state, m, j->seat, &plain, &j->text);
  }
  pf_bot_free(&bot);
}

int pf_botjob_check(const pf_hall *h, const char *spec, const char **code, pf_error *err) {
  *code = "bad_seat_spec";
  if (strlen(spec) >= PF_BOT_SPEC) return pf_fail(err, "a bot spec has at most %d characters", PF_BOT_SPEC - 1);
  pf_bot bot;
  if (pf_bot_init(&bot, spec, 2, 0, 0, err) != 0) return -1;
  int rc = 0;
  for (int i = 0; i < bot.kind->nsettings && rc == 0; i++) {
    const char *name = bot.kind->settings[i].name;
    *code = "budget";
    if (strcmp(name, "iters") == 0 && bot.set[i] > h->lim.search_iters)
      rc = pf_fail(err, "\"%s\" asks %lld iterations; this server allows at most %d", spec, (long long)bot.set[i],
                   h->lim.search_iters);
    else if (strcmp(name, "time") == 0 && bot.set[i] > h->lim.search_ms)
      rc = pf_fail(err, "\"%s\" asks %lld ms; this server allows at most %d", spec, (long long)bot.set[i],
                   h->lim.search_ms);
  }
  pf_bot_free(&bot);
  return rc;
}

void pf_botjob_free(bot_job *j) {
  free(j->state);
  json_decref(j->req_id);
  pf_buf_free(&j->text);
  free(j);
}

/* Whether a spec's bot searches (its kind says so: bot.h), so that its job goes to the search lane
 * rather than the cheap one. */
static bool spec_searches(const char *spec) {
  size_t n = strcspn(spec, ":");
  for (int i = 0; pf_bot_kinds[i]; i++)
    if (strlen(pf_bot_kinds[i]->name) == n && strncmp(pf_bot_kinds[i]->name, spec, n) == 0) return pf_bot_kinds[i]->searches;
  return true;
}

bot_job *pf_botjob_new(pf_hall *h, const table *t, int seat, int at, const char *spec) {
  bot_job *j = pf_xcalloc(1, sizeof *j);
  /* The workers' keys (workers.h): charged to the table's creator (0, the server, for a table
   * that came back from the database), its turn among the creator's tables, its lane. */
  j->work.client = (uint64_t)(uintptr_t)t->creator;
  j->work.group = t->id;
  j->work.cheap = !spec_searches(spec);
  j->table = t->id;
  j->ply = t->run.nmoves;
  j->seat = seat;
  j->g = t->g;
  j->players = t->players;
  j->state = pf_xmalloc(t->g->state_size);
  memcpy(j->state, at == 0 ? t->run.state : pf_turn_state_for(t, at, h->scratch), t->g->state_size);
  pf_snprintf(j->spec, sizeof j->spec, "%s", spec);
  j->max_ms = h->lim.search_ms;
  j->max_threads = pf_workers_threads(h->workers) > 1 ? pf_workers_threads(h->workers) : 1;
  j->seed = pf_table_random64();
  return j;
}

/* Gives the seat to move to its bot when a bot plays it (one job per table at a time). */
void pf_botjob_schedule(pf_hall *h, table *t) {
  if (t->status != ST_PLAYING || t->bot_busy) return;
  int who = t->g->to_move(t->run.state);
  if (who < 0 || !pf_turn_is_bot_seat(t, who)) return;
  const char *spec = t->seats[who].kind == SEAT_BOT ? t->seats[who].bot : t->takeover_bot;
  t->bot_busy = true;
  pf_workers_submit(h->workers, &pf_botjob_new(h, t, who, 0, spec)->work);
}

/* A bot's finished choice for a table: played if the table is still where it was. */
void pf_botjob_played(pf_hall *h, bot_job *j) {
  table *t = pf_tables_in_memory(h, j->table);
  if (!t) return;
  t->bot_busy = false;
  pf_error err;
  if (j->cancelled) return;
  if (j->failed) {
    pf_log("bot", "table %" PRId64 ": bot \"%s\": %s", t->id, j->spec, j->err.msg);
    return;
  }
  if (t->status == ST_PLAYING && t->run.nmoves == j->ply && t->g->to_move(t->run.state) == j->seat &&
      pf_turn_is_bot_seat(t, j->seat)) {
    if (pf_change_begin(h, &err) != 0 || pf_change_play(h, t, j->move, &err) != 0 || pf_change_advance(h, t, &err) != 0) {
      pf_log("bot", "table %" PRId64 ": bot move \"%s\": %s", t->id, j->move, err.msg);
      pf_change_undo(h, t);
      return;
    }
    pf_change_keep(h, t);
    return;
  }
  pf_botjob_schedule(h, t); /* the table moved on meanwhile (a takeover ended): ask again if need be */
}

static pf_conn *conn_by_id(pf_hall *h, uint64_t id) {
  for (pf_conn *c = h->conns; c; c = c->next)
    if (c->id == id) return c;
  return NULL;
}

void pf_botjob_hint_done(pf_hall *h, bot_job *j) {
  table *t = pf_tables_in_memory(h, j->table);
  if (t) t->hint_busy = false;
  if (j->asker) pf_client_hold(j->asker, PF_HOLD_HINTS, -1);
  j->asker = NULL;
  pf_conn *c = conn_by_id(h, j->conn);
  if (!c) return;
  if (j->cancelled) return;
  if (j->failed) { pf_outbox_error(h, c, j->req_id, "bad_seat_spec", "%s", j->err.msg); return; }
  pf_msg m;
  pf_outbox_open(&m, "hint");
  pf_jw_key_int(&m.w, "table", j->table);
  pf_jw_key_int(&m.w, "ply", j->ply);
  pf_jw_key_str(&m.w, "move", j->move);
  pf_jw_key_str(&m.w, "text", pf_buf_str(&j->text));
  pf_jw_key_str(&m.w, "bot", j->spec);
  pf_outbox_send_msg(h, c, &m, j->req_id, true, false);
}
