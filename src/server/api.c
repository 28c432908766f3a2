/*
 * api.c - the hall's functions (hall.h, its public header): opening and closing the hall, its
 * connections, one pass of the event loop (a message parsed and handed to its handler in
 * HANDLERS, the bots' results taken, the clock's tick, and the pass's commit in pf_hall_flush),
 * and its series for /metrics. As Lua's lapi.c implements lua.h: the public header's own stem
 * stays a leaf that the hall's modules include, and this file, at the top, includes them.
 *
 * The handlers are by topic: lobby.c, seat.c, play.c, chat.c, rematch.c; what they share is
 * request.h (a request's fields and replies), change.h (changing a table), state.h (what its
 * viewers are told) and outbox.h (the only sending). hallstate.h says how a pass commits.
 */
#include "server/hall.h"
#include "server/botjob.h"
#include "server/change.h"
#include "server/chat.h"
#include "server/hallstate.h"
#include "server/lobby.h"
#include "server/log.h"
#include "server/outbox.h"
#include "server/play.h"
#include "server/rematch.h"
#include "server/request.h"
#include "server/review.h"
#include "server/seat.h"
#include "server/state.h"
#include "server/tables.h"
#include "server/turn.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"

void pf_hall_default_limits(pf_hall_limits *lim) {
  *lim = (pf_hall_limits){.waiting_max = 10000, .waiting_expiry = 3600, .abandoned_after = 3600, .search_iters = 100000, .search_ms = 1000};
  pf_client_default_limits(&lim->clients);
}

/* ---- connections ---- */

pf_conn *pf_hall_connect(pf_hall *h, void *peer, pf_client *client) {
  pf_conn *c = pf_xcalloc(1, sizeof *c);
  c->id = ++h->next_conn;
  c->peer = peer;
  c->client = client ? client : h->local;
  c->next = h->conns;
  if (h->conns) h->conns->prev = c;
  h->conns = c;
  return c;
}

static bool job_of_conn(pf_work *w, void *ctx) {
  bot_job *j = (bot_job *)w;
  return j->cancelled = j->hint && j->conn == *(uint64_t *)ctx;
}

void pf_hall_stopping(pf_hall *h) { h->stopping = true; }

void pf_hall_disconnect(pf_hall *h, pf_conn *c) {
  pf_workers_cancel(h->workers, job_of_conn, &c->id); /* its hints not begun are not searched */
  while (c->nbind) {
    int64_t id = c->bind[0].table;
    pf_tables_unbind(h, id, c, -2);
    table *t = pf_tables_in_memory(h, id);
    if (t && t->status != ST_OVER && !h->stopping) pf_state_broadcast(h, t); /* the others see the seat disconnected */
    if (t) pf_tables_note_idle(h, t);
  }
  pf_outbox_drop(h, c);
  if (c->subscribed) h->nsubs--;
  if (c->prev) c->prev->next = c->next;
  else h->conns = c->next;
  if (c->next) c->next->prev = c->prev;
  free(c);
  pf_tables_sweep_idle(h);
}

/* ---- messages ---- */

/* Every message type and its handler: the message is a JSON object with a string "type" before
 * any handler runs; each handler checks its own fields and replies exactly once. To add one: its
 * handler in the file of its topic (declared in that file's header), and its line here. */
static const struct {
  const char *type;
  void (*fn)(request *r);
} HANDLERS[] = { /* in this order in the `bad_message` that lists them */
    {"games", pf_lobby_games},
    {"list", pf_lobby_list},
    {"create", pf_lobby_create},
    {"join", pf_seat_join},
    {"resume", pf_seat_resume},
    {"watch", pf_seat_watch},
    {"move", pf_play_move},
    {"leave", pf_seat_leave},
    {"hint", pf_play_hint},
    {"review", pf_play_review},
    {"name", pf_seat_name},
    {"chat", pf_chat_say},
    {"subscribe", pf_lobby_subscribe},
    {"rematch", pf_rematch_handle},
    {"here", pf_seat_here},
};

void pf_hall_message(pf_hall *h, pf_conn *c, const char *text, size_t len) {
  if (!h->pass_messages++) h->pass_start = pf_clock_seconds();
  json_error_t jerr;
  json_t *msg = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
  request r = {h, c, msg, NULL, "message"};
  if (!msg) {
    pf_outbox_error(h, c, NULL, "bad_json", "line %d column %d: %s", jerr.line, jerr.column, jerr.text);
    return;
  }
  if (!json_is_object(msg)) {
    json_decref(msg);
    pf_outbox_error(h, c, NULL, "bad_json", "a message must be a JSON object");
    return;
  }
  json_t *id = json_object_get(msg, "id");
  if (id && (json_is_string(id) || json_is_integer(id))) r.id = id;
  json_t *type = json_object_get(msg, "type");
  if (!json_is_string(type)) {
    pf_request_bad(&r, "bad_message", "a message needs a string \"type\"");
  } else {
    r.type = json_string_value(type);
    pf_seat_heard_conn(h, c); /* any message of a seat's connection: its person is there */
    size_t i = 0, n = sizeof HANDLERS / sizeof HANDLERS[0];
    while (i < n && strcmp(HANDLERS[i].type, r.type) != 0) i++;
    if (i < n) {
      HANDLERS[i].fn(&r);
    } else {
      pf_buf known = {0};
      for (size_t k = 0; k < n; k++) pf_buf_join_item(&known, k, "%s", HANDLERS[k].type);
      pf_request_bad(&r, "bad_message", "no message type is called \"%.40s\"; the types are %s", r.type, pf_buf_str(&known));
      pf_buf_free(&known);
      r.type = "message";
    }
  }
  json_decref(msg);
}

/* ---- the bots' results and the clock ---- */

void pf_hall_poll(pf_hall *h) {
  pf_work *w;
  while ((w = pf_workers_done(h->workers))) {
    bot_job *j = (bot_job *)w;
    if (j->hint)
      pf_botjob_hint_done(h, j);
    else
      pf_botjob_played(h, j);
    pf_botjob_free(j);
  }
}

static bool job_of_table(pf_work *w, void *ctx) {
  bot_job *j = (bot_job *)w;
  return j->cancelled = j->table == *(int64_t *)ctx;
}

/* Removes a waiting table nobody sat at for limits.waiting_expiry seconds (as one change). */
static void expire(pf_hall *h, table *t) {
  pf_error err;
  if (pf_change_begin(h, &err) != 0 || pf_store_drop_table(h->store, t->id, &err) != 0) {
    pf_log("error", "table %" PRId64 " expires: %s", t->id, err.msg);
    pf_change_undo(h, t);
    return;
  }
  pf_store_change_end(h->store, true, &err);
  pf_workers_cancel(h->workers, job_of_table, &t->id);
  while (t->nwatch) {
    pf_conn *c = t->watch[0].conn;
    pf_msg m;
    pf_outbox_open(&m, "expired");
    pf_jw_key_int(&m.w, "table", t->id);
    pf_outbox_send_msg(h, c, &m, NULL, false, false);
    pf_tables_unbind(h, t->id, c, -2);
  }
  pf_tables_remove(h, t);
  h->lobby_dirty = true; /* it leaves the lists */
}

static bool nobody_seated(const table *t) {
  for (int s = 0; s < t->players; s++)
    if (t->seats[s].kind == SEAT_HUMAN) return false;
  return true;
}

/* The seats of a table with a clock that are out of time: the game lost, or the seat given to the
 * takeover bot for the rest of it (as one change each). */
static void clock_check(pf_hall *h, table *t, double now) {
  int seats[PF_MAX_PLAYERS], n = pf_turn_asked(t, seats);
  for (int i = 0; i < n && t->status == ST_PLAYING; i++) {
    int s = seats[i];
    chair *st = &t->seats[s];
    if (st->kind != SEAT_HUMAN || st->taken_over || st->has_sealed || pf_turn_clock_left(t, s, now) != 0) continue;
    pf_error err;
    int rc = pf_change_begin(h, &err);
    if (rc == 0 && t->clock_loss) {
      rc = pf_change_lose_on_time(h, t, s, &err);
    } else if (rc == 0) {
      pf_store_seat row = {s, "human", NULL, st->token, true, st->name[0] ? st->name : NULL};
      rc = pf_store_set_seat(h->store, t->id, &row, &err);
      if (rc == 0) rc = pf_store_set_clock(h->store, t->id, s, 0, &err);
      if (rc == 0) st->taken_over = true, t->clock_ms[s] = 0;
    }
    if (rc != 0) {
      pf_log("error", "table %" PRId64 ": seat %d out of time: %s", t->id, s, err.msg);
      pf_change_undo(h, t);
      return;
    }
    pf_change_keep(h, t);
  }
}

void pf_hall_tick(pf_hall *h) {
  double now = pf_clock_seconds();
  pf_error err;
  pf_clients_sweep(h->clients, now); /* the clients that hold nothing and owe nothing are forgotten */
  for (int64_t id = 1; id < h->cap; id++) {
    if (h->tables[id] && h->tables[id]->status == ST_PLAYING && h->tables[id]->clock_s) clock_check(h, h->tables[id], now);
    table *t = h->tables[id];
    if (t && t->status == ST_WAITING && nobody_seated(t) && now - t->since >= h->lim.waiting_expiry) {
      expire(h, t);
      continue;
    }
    if (t && t->status == ST_PLAYING && pf_state_abandoned(t, now, h->lim.abandoned_after) != t->abandoned) {
      t->abandoned = !t->abandoned; /* its summary says so (docs/protocol.md, "list"): the lists are told */
      pf_state_list_note(h, t);
    }
    if (!t || t->status != ST_PLAYING || !t->takeover_after || now - t->since < t->takeover_after) continue;
    int seats[PF_MAX_PLAYERS], n = pf_turn_asked(t, seats), changed = 0, heard = 0, rc = pf_change_begin(h, &err);
    for (int i = 0; i < n && rc == 0; i++) {
      chair *st = &t->seats[seats[i]];
      int64_t left = pf_turn_takeover_ms(t, seats[i], now);
      if (left < 0) continue;
      if (left > 0) { heard++; continue; } /* its person spoke since the table changed: not silent yet */
      st->taken_over = true;
      pf_store_seat ss = {seats[i], "human", NULL, st->token, true, st->name[0] ? st->name : NULL};
      rc = pf_store_set_seat(h->store, t->id, &ss, &err);
      changed++;
    }
    if (rc != 0) {
      pf_log("error", "table %" PRId64 ": takeover: %s", t->id, err.msg);
      pf_change_undo(h, t);
      continue;
    }
    if (!changed) {
      pf_store_change_end(h->store, false, &err);
      if (!heard) t->since = now; /* nobody to wait for: not checked again for `after` seconds */
      continue;
    }
    pf_change_keep(h, t);
  }
  pf_lobby_push(h);
}

/* ---- the pass's commit ---- */

/* The states of a pass's tables, built by the crew. */
typedef struct pass_states {
  pf_hall *h;
  table **t;
  table_states *ts;
} pass_states;

static void build_one(void *ctx, int i) {
  pass_states *p = ctx;
  if (p->t[i]) pf_state_build(p->t[i], &p->ts[i]);
}

/* A table's states are built: sent, and written (io.write: with what waited for the same
 * connections, their acknowledgements) while the crew builds the others, then its bots play. No
 * other item reads this table. */
static void send_one(void *ctx, int i) {
  pass_states *p = ctx;
  table *t = p->t[i];
  if (!t) return;
  pf_state_send(p->h, t, &p->ts[i]);
  for (int k = 0; k < t->nwatch && p->h->io.write; k++) p->h->io.write(p->h->io.ctx, t->watch[k].conn->peer);
  pf_botjob_schedule(p->h, t);
  pf_tables_note_idle(p->h, t);
}

/* Tells the tables changed in a pass (as pf_state_broadcast does for each, their states built by the crew while
 * nothing changes), each sent and its bots let play as soon as its states are built. */
static void tell_changed(pf_hall *h, const int64_t *dirty, int ndirty) {
  pass_states p = {h, pf_xcalloc((size_t)ndirty + 1, sizeof *p.t), pf_xcalloc((size_t)ndirty + 1, sizeof *p.ts)};
  double now = pf_clock_seconds();
  for (int i = 0; i < ndirty; i++) { /* marked again: one put back as stored after a failed commit is told too */
    table *t = pf_tables_in_memory(h, dirty[i]);
    if (t) t->dirty = true;
  }
  for (int i = 0; i < ndirty; i++) {
    table *t = pf_tables_in_memory(h, dirty[i]);
    if (!t || !t->dirty) continue; /* a table twice in the list is told once */
    t->dirty = false;
    t->since = now;
    pf_turn_note_group(t);
    p.t[i] = t;
  }
  pf_crew_run(h->crew, ndirty, build_one, send_one, &p);
  free(p.t);
  free(p.ts);
}

/* Commits the pass (hallstate.h), sends what waited, tells the changed tables; again while bots
 * running inline (0 workers) play on. */
void pf_hall_flush(pf_hall *h) {
  do {
    pf_hall_poll(h);
    if (!pf_store_in_transaction(h->store) && !h->nout && !h->ndirty) break;
    pf_error err = {0};
    bool ok = !pf_store_in_transaction(h->store) || pf_store_commit(h->store, &err) == 0;
    if (!ok) {
      pf_log("error", "%s", err.msg);
      pf_store_rollback(h->store);
    }
    /* Taken first: what follows may start the next pass's changes (inline bots). */
    outmsg *out = h->out;
    int nout = h->nout;
    int64_t *dirty = h->dirty;
    int ndirty = h->ndirty;
    h->out = NULL, h->nout = h->capout = 0;
    h->dirty = NULL, h->ndirty = h->capdirty = 0;
    for (int i = 0; i < ndirty && !ok; i++) { /* back as stored (and told so below) */
      table *t = pf_tables_in_memory(h, dirty[i]);
      if (t) pf_tables_reload(h, t);
    }
    pf_outbox_deliver(h, out, nout, ok);
    tell_changed(h, dirty, ndirty);
    pf_state_list_told(h, dirty, ndirty);
    free(dirty);
  } while (pf_workers_pending(h->workers) && h->io.wake == NULL);
  if (h->pass_messages) pf_histogram_observe(&h->pass_seconds, pf_clock_seconds() - h->pass_start, h->pass_messages);
  h->pass_messages = 0;
  pf_tables_sweep_idle(h);
}

int pf_hall_tables(const pf_hall *h) { return h->ntables; }

/* The hall's series for /metrics (metrics.h writes them). */
void pf_hall_metrics(pf_hall *h, pf_buf *out) {
  int64_t by_status[3] = {0}, bots = 0, hints = 0, conns = 0;
  for (int64_t i = 0; i < h->cap; i++) {
    const table *t = h->tables[i];
    if (!t) continue;
    if (t->status >= 0 && t->status < 3) by_status[t->status]++;
    bots += t->bot_busy;
    hints += t->hint_busy;
  }
  for (const pf_conn *c = h->conns; c; c = c->next) conns++;
  pf_metric_head(out, "pilfer_tables", "gauge", "tables in memory, by status (finished ones leave it when nobody is at them)");
  for (int s = 0; s < 3; s++) pf_metric_sample(out, "pilfer_tables", "status", pf_table_status[s], (double)by_status[s]);
  pf_metric(out, "pilfer_connections", "gauge", "WebSocket connections open", (double)conns);
  pf_metric(out, "pilfer_bot_jobs", "gauge", "bot moves being searched or waiting for a worker (one a table at most)", (double)bots);
  pf_metric(out, "pilfer_hint_jobs", "gauge", "hints being searched or waiting for a worker (one a table at most)", (double)hints);
  pf_metric(out, "pilfer_worker_jobs", "gauge", "jobs handed to the bots' workers and not yet collected",
            (double)pf_workers_pending(h->workers));
  pf_metric_head(out, "pilfer_worker_queued", "gauge", "jobs waiting for a thread of the workers, by lane (workers.h)");
  pf_metric_sample(out, "pilfer_worker_queued", "lane", "search", (double)pf_workers_queued(h->workers, false));
  pf_metric_sample(out, "pilfer_worker_queued", "lane", "cheap", (double)pf_workers_queued(h->workers, true));
  pf_metric(out, "pilfer_clients", "gauge", "clients (addresses) the server keeps: those that hold or owe anything (client.h)",
            (double)pf_clients_count(h->clients));
  pf_counts_write(out, "pilfer_errors_total", "code", "error replies sent to clients, by code (docs/protocol.md)", &h->errors);
  pf_histogram_write(out, "pilfer_message_seconds",
                     "from a message's arrival to its replies and its tables' new states being handed to the network "
                     "(the commit included; measured from its pass's first message)",
                     &h->pass_seconds);
  pf_store_metrics(h->store, out);
}

/* ---- opening and closing ---- */

static size_t largest_state(void) {
  size_t n = 0;
  for (int i = 0; pf_games[i]; i++)
    if (pf_games[i]->state_size > n) n = pf_games[i]->state_size;
  return n;
}

pf_hall *pf_hall_open(const pf_hall_config *cfg, const pf_hall_io *io, pf_error *err) {
  pf_hall *h = pf_xcalloc(1, sizeof *h);
  h->io = *io;
  h->lim = cfg->limits;
  if (!h->lim.search_ms) pf_hall_default_limits(&h->lim);
  h->scratch = pf_xmalloc(largest_state());
  h->clients = pf_clients_new(&h->lim.clients);
  /* The in-process client (pf_hall_connect with none): held for the hall's life. */
  h->local = pf_client_get(h->clients, "in-process", pf_clock_seconds());
  pf_client_hold(h->local, PF_HOLD_TCP, 1);
  h->shard = cfg->shard;
  if (pf_store_open(&h->store, cfg->db, cfg->full_sync, err) != 0 || pf_store_shard(h->store, &h->shard, err) != 0 ||
      pf_store_load_unfinished(h->store, pf_tables_load, h, err) != 0) {
    for (int64_t id = 1; id < h->cap; id++) pf_table_free(h->tables[id]);
    free(h->tables);
    pf_store_close(h->store);
    free(h->scratch);
    pf_clients_free(h->clients);
    free(h);
    return NULL;
  }
  h->workers = pf_workers_start(cfg->workers, pf_botjob_run, io->wake, io->ctx);
  h->crew = pf_crew_start(cfg->helpers);
  /* The tables that came back: what needs nobody is played, and the bots play their seats. */
  for (int64_t id = 1; id < h->cap; id++) {
    table *t = h->tables[id];
    if (!t || t->status != ST_PLAYING) continue;
    if (pf_change_begin(h, err) != 0 || pf_change_advance(h, t, err) != 0) {
      pf_log("error", "table %" PRId64 ": %s", t->id, err->msg);
      pf_change_undo(h, t);
      continue;
    }
    pf_change_keep(h, t);
  }
  pf_hall_flush(h);
  return h;
}

void pf_hall_close(pf_hall *h) {
  if (!h) return;
  pf_hall_flush(h);
  h->stopping = true;
  while (h->conns) pf_hall_disconnect(h, h->conns); /* before the workers go: it cancels its jobs there */
  pf_workers_stop(h->workers);
  pf_work *w;
  while ((w = pf_workers_done(h->workers))) pf_botjob_free((bot_job *)w);
  pf_workers_free(h->workers);
  pf_crew_stop(h->crew);
  for (int64_t id = 1; id < h->cap; id++) pf_table_free(h->tables[id]);
  free(h->tables);
  pf_store_close(h->store);
  free(h->scratch);
  free(h->idle);
  pf_lobbylist_free(h->lobbylist);
  pf_review_free(h->review);
  free(h->dirty);
  free(h->out);
  pf_clients_free(h->clients); /* last: the tables' charges were released as they were freed */
  free(h);
}

pf_clients *pf_hall_clients(pf_hall *h) { return h->clients; }
