/*
 * tables.c - the hall's tables by id, and the connections bound to them (tables.h).
 */
#include "server/tables.h"
#include "server/log.h"
#include "server/turn.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"

/* A table is kept at its slot (shard.h): its id, or its id / 100 on a shard, so that a shard's
 * array is as dense as one process's. */
table *pf_tables_in_memory(pf_hall *h, int64_t id) {
  if (!pf_shard_owns(&h->shard, id)) return NULL;
  int64_t slot = pf_shard_slot(&h->shard, id);
  return slot < h->cap ? h->tables[slot] : NULL;
}

void pf_tables_put(pf_hall *h, table *t) {
  int64_t slot = pf_shard_slot(&h->shard, t->id);
  if (slot >= h->cap) {
    int64_t cap = h->cap ? h->cap : 64;
    while (cap <= slot) cap *= 2;
    h->tables = pf_xrealloc(h->tables, (size_t)cap * sizeof *h->tables);
    memset(h->tables + h->cap, 0, (size_t)(cap - h->cap) * sizeof *h->tables);
    h->cap = cap;
  }
  h->tables[slot] = t;
  h->ntables++;
}

void pf_tables_forget(pf_hall *h, const table *t) {
  h->tables[pf_shard_slot(&h->shard, t->id)] = NULL;
}

void pf_tables_remove(pf_hall *h, table *t) {
  pf_tables_forget(h, t);
  h->ntables--;
  pf_table_free(t);
}

/* Builds a table in memory from what the store holds: its record replayed. */
int pf_tables_load(void *ctx, const pf_store_loaded *l) {
  pf_hall *h = ctx;
  pf_error err;
  const pf_game *g = pf_game_find(l->table.game);
  table *t = pf_table_new(g, l->table.players);
  t->id = l->table.id;
  t->created = l->table.created;
  t->takeover_after = l->table.takeover_after;
  t->spectator_chat = l->table.spectator_chat;
  t->rematch = l->table.rematch;
  t->clock_s = l->table.clock_s;
  t->clock_loss = l->table.clock_loss;
  t->lost_on_time = l->table.lost_on_time;
  for (int s = 0; s < t->players && s < 12; s++)
    t->clock_ms[s] = l->clock_ms[s] >= 0 ? l->clock_ms[s] : (int64_t)t->clock_s * 1000;
  pf_snprintf(t->takeover_bot, sizeof t->takeover_bot, "%s", l->table.takeover_bot ? l->table.takeover_bot : "");
  t->status = pf_table_parse_status(l->table.status);
  json_error_t jerr;
  json_t *opts = json_loads(l->table.options, 0, &jerr);
  pf_setup setup = {.players = t->players, .seed = l->table.seed};
  if (!g || !opts || pf_record_options_read(opts, g, &setup.options, &err) != 0 ||
      pf_run_start(&t->run, g, &setup, &err) != 0) {
    pf_log("restore", "table %" PRId64 " (%s) cannot be restored: %s", t->id, l->table.game,
            g ? err.msg : "unknown game");
    json_decref(opts);
    free(t);
    return 0; /* the others still come back */
  }
  json_decref(opts);
  for (int i = 0; i < l->nseats && i < t->players; i++) {
    const pf_store_seat *s = &l->seats[i];
    if (s->seat < 0 || s->seat >= t->players) continue;
    chair *st = &t->seats[s->seat];
    st->kind = pf_table_parse_kind(s->kind);
    st->taken_over = s->taken_over;
    pf_snprintf(st->bot, sizeof st->bot, "%s", s->bot ? s->bot : "");
    pf_snprintf(st->token, sizeof st->token, "%s", s->token ? s->token : "");
    pf_snprintf(st->name, sizeof st->name, "%s", s->name && st->kind == SEAT_HUMAN ? s->name : "");
  }
  for (int k = 0; k < l->nmoves; k++)
    if (pf_table_play_text(t, l->moves[k], k >= l->nmoves - LOG_KEEP, &err) != 0) {
      pf_log("restore", "table %" PRId64 ": move %d (\"%s\") does not replay: %s", t->id, k + 1,
              l->moves[k], err.msg);
      pf_table_free(t);
      return 0;
    }
  for (int i = 0; i < l->nsealed; i++) {
    int s = l->sealed[i].seat;
    if (s < 0 || s >= t->players || l->sealed[i].ply > t->run.nmoves) continue;
    t->seats[s].has_sealed = true;
    pf_snprintf(t->seats[s].sealed, sizeof t->seats[s].sealed, "%s", l->sealed[i].move);
  }
  if (t->status == ST_OVER) pf_table_log_reveal(t);
  t->since = pf_clock_seconds();
  pf_turn_note_group(t);
  pf_table_free(pf_tables_in_memory(h, t->id));
  if (pf_tables_in_memory(h, t->id)) h->ntables--;
  pf_tables_put(h, t);
  return 0;
}

/* The table with this id, from memory or else from the store; NULL if there is none. */
table *pf_tables_get(pf_hall *h, int64_t id) {
  table *t = pf_tables_in_memory(h, id);
  if (t || !pf_shard_owns(&h->shard, id)) return t;
  pf_error err;
  if (pf_store_load(h->store, id, pf_tables_load, h, &err) < 0)
    pf_log("error", "%s", err.msg);
  t = pf_tables_in_memory(h, id);
  if (t) pf_tables_note_idle(h, t);
  return t;
}

/* After a failed write: the table in memory may hold what the store does not; bring it back as
 * stored. Its watchers stay, but for those bound to a seat that is no longer a player's (a join
 * undone), and so do its jobs' marks. */
void pf_tables_reload(pf_hall *h, table *t) {
  watcher *w = t->watch;
  int nw = t->nwatch;
  bool bot_busy = t->bot_busy, hint_busy = t->hint_busy;
  pf_client *creator = t->creator; /* its charges go with it to the table as stored */
  bool held_waiting = t->held_waiting, held_bots = t->held_bots;
  t->creator = NULL;
  t->watch = NULL, t->nwatch = 0;
  int64_t id = t->id;
  pf_tables_remove(h, t);
  table *back = pf_tables_get(h, id);
  for (int i = 0; i < nw; i++)
    if (!back || (w[i].seat >= 0 && back->seats[w[i].seat].kind != SEAT_HUMAN)) {
      pf_conn *c = w[i].conn;
      w[i--] = w[--nw];
      pf_tables_unbind(h, id, c, -2);
    }
  if (back) {
    free(back->watch);
    back->watch = w, back->nwatch = nw, back->capwatch = nw;
    back->bot_busy = bot_busy, back->hint_busy = hint_busy;
    back->creator = creator, back->held_waiting = held_waiting, back->held_bots = held_bots;
    pf_table_charge(back);
  } else {
    free(w);
    if (creator && held_waiting) pf_client_hold(creator, PF_HOLD_WAITING, -1);
    if (creator && held_bots) pf_client_hold(creator, PF_HOLD_BOT_TABLES, -1);
  }
}

/* Notes a table to unload once its game is over and nobody is at it: a finished game lives in
 * the store and comes back on demand (pf_tables_get). Unloading waits for pf_tables_sweep_idle, at the end of
 * each call into the hall, so that no function is left holding a freed table. */
void pf_tables_note_idle(pf_hall *h, const table *t) {
  if (t->status != ST_OVER) return;
  if (h->nidle == h->capidle) {
    h->capidle = h->capidle ? 2 * h->capidle : 16;
    h->idle = pf_xrealloc(h->idle, (size_t)h->capidle * sizeof *h->idle);
  }
  h->idle[h->nidle++] = t->id;
}

void pf_tables_sweep_idle(pf_hall *h) {
  for (int i = 0; i < h->nidle; i++) {
    table *t = pf_tables_in_memory(h, h->idle[i]);
    if (!t || t->status != ST_OVER || t->nwatch || t->bot_busy || t->hint_busy) continue;
    pf_tables_remove(h, t);
  }
  h->nidle = 0;
}

/* ---- connections and bindings ---- */

/* Binds c to seat s of t (-1: watching); false when c is at MAX_BINDINGS tables already. */
bool pf_tables_bind(table *t, pf_conn *c, int s) {
  for (int i = 0; i < c->nbind; i++)
    if (c->bind[i].table == t->id && c->bind[i].seat == s) return true;
  if (c->nbind == MAX_BINDINGS) return false;
  c->bind[c->nbind++] = (binding){t->id, s};
  if (t->nwatch == t->capwatch) {
    t->capwatch = t->capwatch ? 2 * t->capwatch : 4;
    t->watch = pf_xrealloc(t->watch, (size_t)t->capwatch * sizeof *t->watch);
  }
  t->watch[t->nwatch++] = (watcher){c, s};
  return true;
}

/* Unbinds c from seat s of table t (s = -2: from every seat and watching). */
void pf_tables_unbind(pf_hall *h, int64_t id, pf_conn *c, int s) {
  table *t = pf_tables_in_memory(h, id);
  for (int i = 0; i < c->nbind;)
    if (c->bind[i].table == id && (s == -2 || c->bind[i].seat == s))
      c->bind[i] = c->bind[--c->nbind];
    else
      i++;
  if (!t) return;
  for (int i = 0; i < t->nwatch;)
    if (t->watch[i].conn == c && (s == -2 || t->watch[i].seat == s))
      t->watch[i] = t->watch[--t->nwatch];
    else
      i++;
}
