/*
 * hall.c - the hall's connections, the checks of each request, and the protocol's handlers
 * (hall.h, docs/protocol.md). A table is table.c's, who is asked turn.c's, the hall's tables
 * tables.c's, changing them change.c's, what their viewers are told state.c's, sending
 * outbox.c's, the bots' jobs botjob.c's, the HTTP answers http.c's.
 *
 * Every request is answered exactly once.
 */
#include "server/botjob.h"
#include "server/change.h"
#include "server/hallstate.h"
#include "server/log.h"
#include "server/outbox.h"
#include "server/state.h"
#include "server/tables.h"
#include "server/text.h"
#include "server/turn.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/jsontext.h"
#include "core/siphash.h"

#define DEFAULT_TAKEOVER_BOT "greedy"
#define REVIEW_LOG 1000 /* the moves a review's "log" tells at most (docs/protocol.md) */

void pf_hall_default_limits(pf_hall_limits *lim) {
  *lim = (pf_hall_limits){.waiting_per_conn = 4, .waiting_max = 10000, .waiting_expiry = 3600,
                          .search_iters = 100000, .search_ms = 1000};
}

/* ------------------------------------------------------------------------------------------ */
/* Connections and bindings                                                                   */
/* ------------------------------------------------------------------------------------------ */

pf_conn *pf_hall_connect(pf_hall *h, void *peer) {
  pf_conn *c = pf_xcalloc(1, sizeof *c);
  c->id = ++h->next_conn;
  c->peer = peer;
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
  free(c->made);
  free(c);
  pf_tables_sweep_idle(h);
}

/* ------------------------------------------------------------------------------------------ */
/* Messages                                                                                   */
/* ------------------------------------------------------------------------------------------ */

typedef struct request {
  pf_hall *h;
  pf_conn *c;
  json_t *msg, *id;
  const char *type;
} request;

static void bad(request *r, const char *code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void bad(request *r, const char *code, const char *fmt, ...) {
  char msg[560];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  pf_outbox_error(r->h, r->c, r->id, code, "%s", msg);
}

/* The reply to a request that changed a table: sent once the change is committed. */
static void reply_acked(request *r, json_t *o) { pf_outbox_send(r->h, r->c, o, r->id, false, true); }
static void reply(request *r, json_t *o) { pf_outbox_send(r->h, r->c, o, r->id, true, false); }

/* An integer field; absent is *v = def when optional. Returns 0, or -1 after the error reply. */
static int field_int(request *r, const char *key, bool optional, json_int_t def, json_int_t lo, json_int_t hi,
                     json_int_t *v) {
  json_t *f = json_object_get(r->msg, key);
  if (!f && optional) {
    *v = def;
    return 0;
  }
  if (!json_is_integer(f)) {
    bad(r, "bad_message", "%s: \"%s\" must be an integer", r->type, key);
    return -1;
  }
  *v = json_integer_value(f);
  if (*v < lo || *v > hi) {
    bad(r, "bad_message", "%s: \"%s\" must be from %lld to %lld, not %lld", r->type, key, (long long)lo,
        (long long)hi, (long long)*v);
    return -1;
  }
  return 0;
}

static const char *field_str(request *r, const char *key, bool optional) {
  json_t *f = json_object_get(r->msg, key);
  if (!f && optional) return NULL;
  if (!json_is_string(f)) {
    bad(r, "bad_message", "%s: \"%s\" must be a string", r->type, key);
    return NULL;
  }
  return json_string_value(f);
}

static table *field_table(request *r) {
  json_int_t id;
  if (field_int(r, "table", false, 0, 1, INT64_MAX, &id) != 0) return NULL;
  table *t = pf_tables_get(r->h, id);
  if (!t) bad(r, "unknown_table", "there is no table %lld", (long long)id);
  return t;
}

/* The seat whose token the request gives. */
static int field_token(request *r, const table *t) {
  const char *tok = field_str(r, "token", false);
  if (!tok) return -1;
  if (strlen(tok) == 32)
    for (int s = 0; s < t->players; s++)
      if (t->seats[s].kind == SEAT_HUMAN && pf_table_token_equal(t->seats[s].token, tok)) return s;
  bad(r, "bad_token", "that token is not a seat's of table %" PRId64, t->id);
  return -1;
}

/* The table and seat a request names with "table" and "token"; -1 after the error reply. */
static int field_seat(request *r, table **t) {
  *t = field_table(r);
  return *t ? field_token(r, *t) : -1;
}

/* ---- text people write: names and chat (docs/protocol.md, "Names" and "chat") ---- */

/* A text field checked by pf_text_check into out: 0 when absent (out ""), 1 when given, -1 after the
 * error reply (`code`). */
static int field_text(request *r, const char *key, int max, char *out, size_t outsz, const char *code) {
  json_t *f = json_object_get(r->msg, key);
  out[0] = 0;
  if (!f) return 0;
  if (!json_is_string(f)) {
    bad(r, "bad_message", "%s: \"%s\" must be a string", r->type, key);
    return -1;
  }
  char why[120];
  if (pf_text_check(json_string_value(f), json_string_length(f), max, out, outsz, why, sizeof why) != 0) {
    bad(r, code, "%s: \"%s\" is refused: %s", r->type, key, why);
    return -1;
  }
  return 1;
}

static int field_name(request *r, char out[NAME_BYTES]) { return field_text(r, "name", NAME_CHARS, out, NAME_BYTES, "bad_name"); }

/* ---- chat ---- */

static const char *const CHANNEL[] = {"players", "spectators"};

/* Whether a viewer (seat >= 0, or a spectator) is told a channel's messages: each channel its
 * own people; once the game is over, everyone both. */
static bool hears(const table *t, int seat, bool spectators) {
  return t->status == ST_OVER || (seat < 0) == spectators;
}

static json_t *chat_json(const table *t, const pf_store_chat *m) {
  json_t *o = json_pack("{s:s, s:I, s:s, s:o, s:s, s:I}", "type", "chat", "table", (json_int_t)t->id, "channel",
                        m->channel, "seat", m->seat >= 0 ? json_integer(m->seat) : json_null(), "text", m->text,
                        "at", (json_int_t)m->at);
  if (o && m->name) json_object_set_new(o, "name", json_string(m->name));
  return o;
}

typedef struct chat_log_ctx {
  const table *t;
  int seat;
  json_t *a;
} chat_log_ctx;

static void chat_log_add(void *ctx, const pf_store_chat *m) {
  chat_log_ctx *x = ctx;
  if (!hears(x->t, x->seat, strcmp(m->channel, "spectators") == 0)) return;
  json_t *o = chat_json(x->t, m);
  json_object_del(o, "type");
  json_object_del(o, "table");
  json_array_append_new(x->a, o);
}

static json_t *rematch_json(const table *t, int s);

/* Tells a connection that has just sat at seat s of t (or watches it: -1) the last CHAT_LOG
 * messages it may read: `{"type": "chat_log", ...}`, sent only when there is one. */
static void send_chat_log(pf_hall *h, pf_conn *c, const table *t, int seat) {
  json_t *news = rematch_json(t, seat); /* and a finished table's rematch, offered or made */
  if (news) pf_outbox_send(h, c, news, NULL, false, false);
  chat_log_ctx x = {t, seat, json_array()};
  pf_error err;
  const char *only = t->status == ST_OVER ? NULL : seat < 0 ? "spectators" : "players";
  if (pf_store_chat_log(h->store, t->id, only, CHAT_LOG, chat_log_add, &x, &err) < 0)
    pf_log("error", "table %" PRId64 ": %s", t->id, err.msg);
  if (!json_array_size(x.a)) return json_decref(x.a);
  pf_outbox_send(h, c, json_pack("{s:s, s:I, s:o}", "type", "chat_log", "table", (json_int_t)t->id, "messages", x.a), NULL,
            false, false);
}

/* Binds the requester, or refuses: false after the error reply. */
static bool bind_or_refuse(request *r, table *t, int s) {
  if (pf_tables_bind(t, r->c, s)) return true;
  bad(r, "too_many_tables", "a connection may sit at or watch %d tables at once; leave one first", MAX_BINDINGS);
  return false;
}

static void h_games(request *r) { reply(r, json_pack("{s:s, s:o}", "type", "games", "games", pf_games_json())); }

static void h_list(request *r) { reply(r, json_pack("{s:s, s:o}", "type", "tables", "tables", pf_state_tables(r->h))); }

/* What a create request asks for, read and checked. */
typedef struct create_req {
  const pf_game *g;
  pf_setup setup;
  int seat_kind[PF_MAX_PLAYERS];
  const char *bot[PF_MAX_PLAYERS];
  int takeover_after;
  const char *takeover_bot;
  bool spectator_chat;
  int clock_s;
  bool clock_loss;
  const char *token[PF_MAX_PLAYERS]; /* a rematch's seats already taken: their tokens and names */
  const char *name[PF_MAX_PLAYERS];
} create_req;

/* Reads a create request; -1 after the error reply. */
static int read_create(request *r, create_req *q) {
  const char *gid = field_str(r, "game", false);
  if (!gid) return -1;
  q->g = pf_game_find(gid);
  if (!q->g) {
    pf_buf known = {0};
    for (int i = 0; pf_games[i]; i++) pf_buf_printf(&known, "%s%s", i ? ", " : "", pf_games[i]->id);
    bad(r, "bad_game", "no game is called \"%.60s\"; the games are %s", gid, pf_buf_str(&known));
    pf_buf_free(&known);
    return -1;
  }
  json_int_t players;
  if (field_int(r, "players", true, q->g->min_players, 1, PF_MAX_PLAYERS, &players) != 0) return -1;
  pf_error err;
  q->setup = (pf_setup){.players = (int)players, .seed = pf_table_random64() >> 1}; /* records hold seeds < 2^63 */
  if (pf_check_players(q->g, players, &err) != 0 ||
      pf_record_options_read(json_object_get(r->msg, "options"), q->g, &q->setup.options, &err) != 0) {
    bad(r, "bad_options", "%s", err.msg);
    return -1;
  }
  const char *code;
  json_t *seats = json_object_get(r->msg, "seats");
  if (seats && (!json_is_array(seats) || json_array_size(seats) != (size_t)players)) {
    bad(r, "bad_message", "create: \"seats\" must be an array of %lld: \"open\" or a bot spec each", (long long)players);
    return -1;
  }
  for (int s = 0; s < players; s++) {
    json_t *v = seats ? json_array_get(seats, (size_t)s) : NULL;
    const char *spec = v ? json_string_value(v) : "open";
    if (!spec) {
      bad(r, "bad_message", "create: seats[%d] must be a string", s);
      return -1;
    }
    if (strcmp(spec, "open") == 0) continue;
    if (pf_botjob_check(r->h, spec, &code, &err) != 0) {
      bad(r, code, "seats[%d]: %s", s, err.msg);
      return -1;
    }
    q->seat_kind[s] = SEAT_BOT;
    q->bot[s] = spec;
  }
  q->takeover_bot = DEFAULT_TAKEOVER_BOT;
  json_t *tk = json_object_get(r->msg, "takeover");
  if (tk) {
    json_t *after = json_object_get(tk, "after"), *bot = json_object_get(tk, "bot");
    if (!json_is_object(tk) || !json_is_integer(after) || json_integer_value(after) < 10 ||
        json_integer_value(after) > 86400 || (bot && !json_is_string(bot))) {
      bad(r, "bad_message", "create: \"takeover\" must be {\"after\": 10 to 86400 seconds, \"bot\": a spec}");
      return -1;
    }
    if (bot && pf_botjob_check(r->h, json_string_value(bot), &code, &err) != 0) {
      bad(r, code, "takeover: %s", err.msg);
      return -1;
    }
    q->takeover_after = (int)json_integer_value(after);
    if (bot) q->takeover_bot = json_string_value(bot);
  }
  json_t *sc = json_object_get(r->msg, "spectator_chat");
  if (sc && !json_is_boolean(sc)) {
    bad(r, "bad_message", "create: \"spectator_chat\" must be true or false");
    return -1;
  }
  q->spectator_chat = json_is_true(sc);
  json_t *ck = json_object_get(r->msg, "clock");
  if (ck) {
    json_t *min = json_object_get(ck, "minutes"), *sec = json_object_get(ck, "seconds"), *on = json_object_get(ck, "on_time");
    const char *how = on ? json_string_value(on) : "bot";
    json_int_t secs = json_is_integer(min) ? 60 * json_integer_value(min) : json_is_integer(sec) ? json_integer_value(sec) : 0;
    if (!json_is_object(ck) || !min == !sec || secs < 10 || secs > 36000 || !how || (strcmp(how, "bot") && strcmp(how, "loss"))) {
      bad(r, "bad_message", "create: \"clock\" must be {\"minutes\": 1 to 600 (or \"seconds\": 10 to 36000), "
                            "\"on_time\": \"bot\" or \"loss\"}");
      return -1;
    }
    q->clock_s = (int)secs;
    q->clock_loss = !strcmp(how, "loss");
  }
  return 0;
}

/* Whether the connection and the hall may have one more waiting table (prunes c->made). */
static bool may_create(request *r) {
  pf_hall *h = r->h;
  pf_conn *c = r->c;
  int n = 0;
  for (int i = 0; i < c->nmade; i++) {
    table *t = pf_tables_in_memory(h, c->made[i]);
    if (t && t->status == ST_WAITING) c->made[n++] = c->made[i];
  }
  c->nmade = n;
  if (n >= h->lim.waiting_per_conn) {
    bad(r, "too_many_tables", "this connection has %d tables waiting for players already (the most it may have)", n);
    return false;
  }
  int waiting = 0;
  for (int64_t id = 1; id < h->cap; id++) waiting += h->tables[id] && h->tables[id]->status == ST_WAITING;
  if (waiting >= h->lim.waiting_max) {
    bad(r, "full", "the server has %d tables waiting for players, its most; join one of them", waiting);
    return false;
  }
  return true;
}

/* Creates the table a create request asked for, as one change: the table, or NULL with err. */
static table *create_table(pf_hall *h, const create_req *q, pf_error *err) {
  table *t = pf_table_new(q->g, q->setup.players);
  t->takeover_after = q->takeover_after;
  t->spectator_chat = q->spectator_chat;
  t->clock_s = q->clock_s;
  t->clock_loss = q->clock_loss;
  for (int s = 0; s < t->players; s++) t->clock_ms[s] = (int64_t)q->clock_s * 1000;
  snprintf(t->takeover_bot, sizeof t->takeover_bot, "%s", q->takeover_bot);
  pf_store_seat rows[PF_MAX_PLAYERS];
  for (int s = 0; s < t->players; s++) {
    t->seats[s].kind = q->seat_kind[s];
    snprintf(t->seats[s].bot, sizeof t->seats[s].bot, "%s", q->bot[s] ? q->bot[s] : "");
    snprintf(t->seats[s].token, sizeof t->seats[s].token, "%s", q->token[s] ? q->token[s] : "");
    snprintf(t->seats[s].name, sizeof t->seats[s].name, "%s", q->name[s] ? q->name[s] : "");
    rows[s] = (pf_store_seat){s, pf_table_seat_kind[t->seats[s].kind], q->bot[s], q->token[s], false, q->name[s]};
  }
  t->created = (int64_t)time(NULL);
  t->since = pf_clock_seconds();
  char *opts_text = NULL;
  int rc = pf_run_start(&t->run, q->g, &q->setup, err);
  if (rc == 0) {
    json_t *opts = pf_record_options_json(q->g, &q->setup.options);
    opts_text = json_dumps(opts, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(opts);
    rc = pf_change_begin(h, err);
  }
  bool in_change = rc == 0;
  pf_store_table row = {0, q->g->id, t->players, opts_text, q->setup.seed, "waiting", t->takeover_after,
                        t->takeover_after ? t->takeover_bot : NULL, t->created, t->spectator_chat, 0,
                        t->clock_s, t->clock_loss, -1};
  if (rc == 0) rc = pf_store_add_table(h->store, &row, rows, err);
  if (rc == 0) {
    t->id = row.id;
    pf_tables_put(h, t);
    rc = pf_change_start_if_full(h, t, err);
  }
  free(opts_text);
  if (rc != 0) { /* the one way out of a failure */
    if (in_change) pf_store_change_end(h->store, false, err);
    if (t->id) h->tables[t->id] = NULL, h->ntables--;
    pf_table_free(t);
    return NULL;
  }
  pf_change_keep(h, t);
  return t;
}

static void h_create(request *r) {
  create_req q = {0};
  if (read_create(r, &q) != 0 || !may_create(r)) return;
  pf_error err;
  table *t = create_table(r->h, &q, &err);
  if (!t) return bad(r, "storage", "%s", err.msg);
  if (t->status == ST_WAITING) {
    pf_conn *c = r->c;
    c->made = pf_xrealloc(c->made, (size_t)(c->nmade + 1) * sizeof *c->made);
    c->made[c->nmade++] = t->id;
  }
  reply_acked(r, json_pack("{s:s, s:I, s:o}", "type", "created", "table", (json_int_t)t->id, "summary", pf_state_summary(t)));
}

static void h_join(request *r) {
  pf_hall *h = r->h;
  table *t = field_table(r);
  if (!t) return;
  json_int_t s;
  if (field_int(r, "seat", true, -1, 0, t->players - 1, &s) != 0) return;
  if (s < 0)
    for (int i = 0; i < t->players && s < 0; i++)
      if (t->seats[i].kind == SEAT_OPEN) s = i;
  if (s < 0) return bad(r, "seat_taken", "table %" PRId64 " has no open seat", t->id);
  if (t->seats[s].kind != SEAT_OPEN) return bad(r, "seat_taken", "seat %lld of table %" PRId64 " is taken", (long long)s, t->id);
  if (r->c->nbind == MAX_BINDINGS) return (void)bind_or_refuse(r, t, (int)s);
  char name[NAME_BYTES];
  if (field_name(r, name) < 0) return;
  pf_error err;
  chair *st = &t->seats[s];
  pf_store_seat row = {(int)s, "human", NULL, NULL, false, name[0] ? name : NULL};
  if (pf_change_begin(h, &err) != 0) return bad(r, "storage", "%s", err.msg);
  pf_table_new_token(st->token);
  st->kind = SEAT_HUMAN;
  memcpy(st->name, name, sizeof st->name);
  row.token = st->token;
  if (pf_store_set_seat(h->store, t->id, &row, &err) != 0 || pf_change_start_if_full(h, t, &err) != 0) {
    pf_change_undo(h, t);
    return bad(r, "storage", "%s", err.msg);
  }
  pf_change_keep(h, t);
  pf_tables_bind(t, r->c, (int)s);
  reply_acked(r, json_pack("{s:s, s:I, s:i, s:s}", "type", "joined", "table", (json_int_t)t->id, "seat", (int)s,
                           "token", st->token));
  send_chat_log(h, r->c, t, (int)s);
}

static void h_resume(request *r) {
  pf_hall *h = r->h;
  table *t;
  int s = field_seat(r, &t);
  char name[NAME_BYTES];
  if (s < 0 || field_name(r, name) < 0 || !bind_or_refuse(r, t, s)) return;
  pf_error err;
  chair *st = &t->seats[s];
  bool renamed = name[0] && strcmp(name, st->name) != 0;
  bool back = st->taken_over && pf_turn_clock_left(t, s, pf_clock_seconds()) != 0; /* not a seat out of time */
  if (back || renamed) {
    pf_store_seat row = {s, "human", NULL, st->token, st->taken_over && !back, name[0] ? name : st->name[0] ? st->name : NULL};
    if (pf_change_begin(h, &err) != 0 || pf_store_set_seat(h->store, t->id, &row, &err) != 0) {
      pf_change_undo(h, t);
      pf_tables_unbind(h, t->id, r->c, s);
      return bad(r, "storage", "%s", err.msg);
    }
    st->taken_over = row.taken_over;
    if (renamed) memcpy(st->name, name, sizeof st->name);
    pf_change_keep(h, t);
  }
  reply_acked(r, json_pack("{s:s, s:I, s:i}", "type", "joined", "table", (json_int_t)t->id, "seat", s));
  send_chat_log(h, r->c, t, s);
  if (!t->dirty) pf_state_broadcast(h, t); /* its state, and the others see the seat connected (else at the flush) */
}

static void h_watch(request *r) {
  table *t = field_table(r);
  if (!t || !bind_or_refuse(r, t, -1)) return;
  reply(r, json_pack("{s:s, s:I}", "type", "watching", "table", (json_int_t)t->id));
  pf_buf state = {0};
  if (pf_state_text(t, -1, &state) == 0)
    pf_outbox_send_text(r->h, r->c, state.data, state.len, false);
  else
    pf_outbox_send(r->h, r->c, NULL, NULL, true, false); /* the fixed internal error */
  pf_buf_free(&state);
  send_chat_log(r->h, r->c, t, -1);
}

static void h_move(request *r) {
  pf_hall *h = r->h;
  table *t;
  int s = field_seat(r, &t);
  if (s < 0) return;
  const char *text = field_str(r, "move", false);
  if (!text) return;
  json_int_t ply;
  if (field_int(r, "ply", false, 0, 0, INT32_MAX, &ply) != 0) return;
  if (t->status != ST_PLAYING)
    return bad(r, "not_your_turn", "table %" PRId64 " is %s", t->id, t->status == ST_OVER ? "over" : "waiting for players");
  if (!pf_turn_clock_left(t, s, pf_clock_seconds()))
    return bad(r, "time_out", "seat %d has no time left on its clock: the bot plays it", s);
  if (!pf_turn_current_for(t, s, ply))
    return bad(r, "stale", "the table is at ply %d, not %lld (seat %d's choice is asked since ply %d)", t->run.nmoves,
               (long long)ply, s, t->group_since[s] >= 0 ? t->group_since[s] : t->run.nmoves);
  char canon[PF_MOVE_STR];
  bool sealed = false;
  const char *code;
  pf_error err;
  int64_t id = t->id;
  if (pf_change_seat_move(h, t, s, text, canon, &sealed, &code, &err) != 0) /* t may be reloaded: not used after */
    return bad(r, code, "move \"%.60s\": %s", text, err.msg);
  t = pf_tables_in_memory(h, id);
  if (!t) return bad(r, "storage", "table %" PRId64 " could not be read back", id);
  json_t *ack = json_pack("{s:s, s:I, s:i, s:s}", "type", "ack", "table", (json_int_t)id, "ply", t->run.nmoves, "move",
                          canon);
  if (sealed) json_object_set_new(ack, "sealed", json_true());
  reply_acked(r, ack);
}

static void h_leave(request *r) {
  pf_hall *h = r->h;
  table *t;
  int s = field_seat(r, &t);
  if (s < 0) return;
  pf_error err;
  chair *st = &t->seats[s];
  pf_store_seat row = {s, "open", NULL, NULL, false, NULL};
  if (t->status == ST_PLAYING) row = (pf_store_seat){s, "bot", t->takeover_bot, NULL, false, NULL};
  if (t->status != ST_OVER) {
    if (pf_change_begin(h, &err) != 0 || pf_store_set_seat(h->store, t->id, &row, &err) != 0) {
      pf_change_undo(h, t);
      return bad(r, "storage", "%s", err.msg);
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
  reply_acked(r, json_pack("{s:s, s:I}", "type", "left", "table", (json_int_t)t->id));
}

static void h_hint(request *r) {
  pf_hall *h = r->h;
  table *t;
  int s = field_seat(r, &t);
  if (s < 0) return;
  const char *spec = field_str(r, "bot", true);
  if (!spec && json_object_get(r->msg, "bot")) return;
  if (!spec) spec = pf_game_strong_bot(t->g); /* the game's strong bot (games/registry.c) */
  pf_error err;
  const char *code;
  if (pf_botjob_check(h, spec, &code, &err) != 0) return bad(r, code, "hint: %s", err.msg);
  int at;
  if (!pf_turn_may_answer(t, s, &at)) return bad(r, "not_your_turn", "seat %d is not asked now", s);
  if (r->c->hint_busy) return bad(r, "busy", "this connection's last hint is not answered yet: one at a time");
  if (t->hint_busy) return bad(r, "busy", "a hint for table %" PRId64 " is being searched: one at a time", t->id);
  bot_job *j = pf_botjob_new(h, t, s, at, spec);
  j->hint = true;
  j->conn = r->c->id;
  j->req_id = r->id ? json_incref(r->id) : NULL;
  r->c->hint_busy = t->hint_busy = true;
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

static void h_review(request *r) {
  table *t = field_table(r);
  if (!t) return;
  if (t->status != ST_OVER) return bad(r, "not_over", "table %" PRId64 " is still being played", t->id);
  json_int_t ply;
  if (field_int(r, "ply", false, 0, 0, t->run.nmoves, &ply) != 0) return;
  json_t *want = json_object_get(r->msg, "log");
  if (want && !json_is_boolean(want)) return bad(r, "bad_message", "review: \"log\" must be true or false");
  /* With "log": REVIEW_LOG moves around ply (the whole game when it is no longer), each told at
   * the position before it, on the way to ply or past it. */
  int first = (int)ply - REVIEW_LOG / 2;
  if (first > t->run.nmoves - REVIEW_LOG) first = t->run.nmoves - REVIEW_LOG;
  if (first < 0) first = 0;
  int end = first + REVIEW_LOG < t->run.nmoves ? first + REVIEW_LOG : t->run.nmoves;
  json_t *log = json_is_true(want) ? json_array() : NULL;
  pf_run run;
  pf_error err;
  if (pf_run_start(&run, t->g, &t->run.setup, &err) != 0) return bad(r, "storage", "%s", err.msg);
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
      return bad(r, "storage", "move %d: %s", k + 1, err.msg);
    }
  }
  json_t *o = json_pack("{s:s, s:I, s:i, s:i, s:o, s:s}", "type", "review", "table", (json_int_t)t->id, "ply",
                        (int)ply, "plies", t->run.nmoves, "view", view, "text", pf_buf_str(&text));
  if (o && ply < t->run.nmoves) json_object_set_new(o, "next", json_string(t->run.moves[ply]));
  if (o && log) json_object_set_new(o, "log", log);
  else json_decref(log);
  pf_buf_free(&text);
  pf_run_free(&run);
  reply(r, o);
}

/* A seat's new display name. */
static void h_name(request *r) {
  pf_hall *h = r->h;
  table *t;
  int s = field_seat(r, &t);
  char name[NAME_BYTES];
  if (s < 0 || field_name(r, name) < 0) return;
  if (!name[0]) return bad(r, "bad_message", "name: \"name\" is missing");
  chair *st = &t->seats[s];
  pf_error err;
  pf_store_seat row = {s, "human", NULL, st->token, st->taken_over, name};
  if (pf_change_begin(h, &err) != 0 || pf_store_set_seat(h->store, t->id, &row, &err) != 0) {
    pf_change_undo(h, t);
    return bad(r, "storage", "%s", err.msg);
  }
  memcpy(st->name, name, sizeof st->name);
  pf_change_keep(h, t); /* everyone at the table is sent the new name in its state */
  reply_acked(r, json_pack("{s:s, s:I, s:i, s:s}", "type", "named", "table", (json_int_t)t->id, "seat", s, "name", name));
}

/* Whether the connection may send one more chat message now (CHAT_BURST, then one every
 * CHAT_EVERY seconds); takes it if so. */
static bool chat_allowed(pf_conn *c) {
  double now = pf_clock_seconds();
  if (c->chat_at == 0) c->chat_tokens = CHAT_BURST;
  else c->chat_tokens += (now - c->chat_at) / CHAT_EVERY;
  if (c->chat_tokens > CHAT_BURST) c->chat_tokens = CHAT_BURST;
  c->chat_at = now;
  if (c->chat_tokens < 1) return false;
  c->chat_tokens -= 1;
  return true;
}

static bool watches(const pf_conn *c, const table *t) {
  for (int i = 0; i < c->nbind; i++)
    if (c->bind[i].table == t->id && c->bind[i].seat == -1) return true;
  return false;
}

/* A message to a table's chat: from a seat (its token) to the players, or from a spectator of
 * the table (no token) to the spectators, when the table has their channel. */
static void h_chat(request *r) {
  pf_hall *h = r->h;
  table *t = field_table(r);
  if (!t) return;
  int s = -1;
  if (json_object_get(r->msg, "token") && (s = field_token(r, t)) < 0) return;
  char text[4 * CHAT_CHARS + 1], name[NAME_BYTES];
  int has_text = field_text(r, "text", CHAT_CHARS, text, sizeof text, "bad_chat");
  if (has_text < 0) return;
  if (!has_text) return bad(r, "bad_message", "chat: \"text\" is missing");
  if (s < 0) {
    if (!watches(r->c, t)) return bad(r, "not_watching", "chat: without a token, only a spectator of table %" PRId64 " may write", t->id);
    if (!t->spectator_chat) return bad(r, "chat_closed", "table %" PRId64 " has no spectators' chat", t->id);
    if (field_name(r, name) < 0) return;
  }
  if (!chat_allowed(r->c))
    return bad(r, "chat_flood", "chat: at most %d messages at once, then one every %g seconds", CHAT_BURST, CHAT_EVERY);
  pf_store_chat m = {CHANNEL[s < 0], s, s >= 0 ? (t->seats[s].name[0] ? t->seats[s].name : NULL) : name[0] ? name : NULL,
                     text, (int64_t)time(NULL)};
  pf_error err;
  if (pf_change_begin(h, &err) != 0 || pf_store_add_chat(h->store, t->id, &m, &err) != 0) {
    pf_change_undo(h, NULL);
    return bad(r, "storage", "%s", err.msg);
  }
  pf_store_change_end(h->store, true, &err);
  for (int i = 0; i < t->nwatch; i++) /* once committed (pf_outbox_send waits for it) */
    if (hears(t, t->watch[i].seat, s < 0)) pf_outbox_send(h, t->watch[i].conn, chat_json(t, &m), NULL, false, false);
  reply_acked(r, json_pack("{s:s, s:I, s:s}", "type", "said", "table", (json_int_t)t->id, "channel", m.channel));
}

/* ---- rematch ---- */

/* The seat of the rematch that seat s of a table of n takes: one on, so that the first to play
 * is another. */
static int rematch_seat(int s, int n) { return (s + n - 1) % n; }

static json_t *seat_list(unsigned bits, int n, bool in) {
  json_t *a = json_array();
  for (int s = 0; s < n; s++)
    if (((bits >> s) & 1u) == in) json_array_append_new(a, json_integer(s));
  return a;
}

/* The rematch's news for one viewer of t (seat s, or -1): the open offer, or the table it made
 * with the viewer's seat there; NULL when there is neither. */
static json_t *rematch_json(const table *t, int s) {
  if (t->rematch) {
    json_t *o = json_pack("{s:s, s:I, s:s, s:I}", "type", "rematch", "table", (json_int_t)t->id, "status", "made",
                          "new_table", (json_int_t)t->rematch);
    if (o && s >= 0) json_object_set_new(o, "seat", json_integer(rematch_seat(s, t->players)));
    return o;
  }
  if (!t->offer_open) return NULL;
  return json_pack("{s:s, s:I, s:s, s:i, s:o, s:o}", "type", "rematch", "table", (json_int_t)t->id, "status", "offered",
                   "from", t->offer_from, "accepted", seat_list(t->offer_yes, t->players, true), "waiting",
                   seat_list(t->offer_yes, t->players, false));
}

/* Tells everyone at t but the asker the rematch's news (each its own seat in the new table). */
static void rematch_tell(pf_hall *h, const table *t, json_t *news, const pf_conn *asker) {
  for (int i = 0; i < t->nwatch; i++) {
    if (t->watch[i].conn == asker) continue; /* answered */
    json_t *o = news ? json_deep_copy(news) : rematch_json(t, t->watch[i].seat);
    if (o && news && t->rematch && t->watch[i].seat >= 0)
      json_object_set_new(o, "seat", json_integer(rematch_seat(t->watch[i].seat, t->players)));
    if (o) pf_outbox_send(h, t->watch[i].conn, o, NULL, false, false);
  }
}

/* The rematch of a finished table, every seat having accepted: the same game, options, bots,
 * takeover and chat, the same people (their tokens and names) one seat on, a new deal. */
static table *rematch_make(pf_hall *h, table *old, pf_error *err) {
  create_req q = {.g = old->g, .takeover_after = old->takeover_after, .spectator_chat = old->spectator_chat,
                  .clock_s = old->clock_s, .clock_loss = old->clock_loss,
                  .takeover_bot = old->takeover_bot[0] ? old->takeover_bot : DEFAULT_TAKEOVER_BOT};
  q.setup = (pf_setup){.players = old->players, .options = old->run.setup.options, .seed = pf_table_random64() >> 1};
  for (int s = 0; s < old->players; s++) {
    int k = rematch_seat(s, old->players);
    const chair *c = &old->seats[s];
    q.seat_kind[k] = c->kind;
    if (c->kind == SEAT_BOT) q.bot[k] = c->bot;
    if (c->kind == SEAT_HUMAN) q.token[k] = c->token, q.name[k] = c->name[0] ? c->name : NULL;
  }
  return create_table(h, &q, err);
}

/* Offers a rematch, accepts or declines one (docs/protocol.md, "rematch"). */
static void h_rematch(request *r) {
  pf_hall *h = r->h;
  table *t;
  int s = field_seat(r, &t);
  if (s < 0) return;
  json_t *acc = json_object_get(r->msg, "accept");
  if (acc && !json_is_boolean(acc)) return bad(r, "bad_message", "rematch: \"accept\" must be true or false");
  if (t->status != ST_OVER) return bad(r, "not_over", "table %" PRId64 " is still being played", t->id);
  if (t->rematch) return reply(r, rematch_json(t, s));
  unsigned all = (1u << t->players) - 1, bots = 0;
  for (int k = 0; k < t->players; k++) bots |= (unsigned)(t->seats[k].kind != SEAT_HUMAN) << k;
  if (json_is_false(acc)) {
    if (!t->offer_open) return bad(r, "no_offer", "table %" PRId64 " has no rematch offered", t->id);
    t->offer_open = false;
    json_t *news = json_pack("{s:s, s:I, s:s, s:i}", "type", "rematch", "table", (json_int_t)t->id, "status",
                             "declined", "by", s);
    reply(r, json_deep_copy(news));
    rematch_tell(h, t, news, r->c);
    return json_decref(news);
  }
  if (!t->offer_open) t->offer_open = true, t->offer_from = s, t->offer_yes = bots;
  t->offer_yes |= 1u << s;
  if ((t->offer_yes & all) != all) {
    reply(r, rematch_json(t, s));
    return rematch_tell(h, t, NULL, r->c);
  }
  pf_error err;
  int64_t id = t->id;
  table *n = rematch_make(h, t, &err);
  t = pf_tables_in_memory(h, id);
  if (!n || !t) return bad(r, "storage", "%s", n ? "the table could not be read back" : err.msg);
  if (pf_change_begin(h, &err) != 0 || pf_store_set_rematch(h->store, t->id, n->id, &err) != 0) {
    pf_change_undo(h, t);
    return bad(r, "storage", "%s", err.msg);
  }
  t->offer_open = false;
  t->rematch = n->id;
  pf_change_keep(h, t); /* told again if the pass's commit fails: then put back as stored */
  reply_acked(r, rematch_json(t, s));
  rematch_tell(h, t, NULL, r->c);
}

/* ---- the lobby's list, pushed (subscribe) ---- */

enum { F_ALL, F_OPEN, F_MINE, F_PLAYING, F_OVER };
static const char *const FILTERS[] = {"all", "open", "mine", "playing", "over"};

static bool has_open_seat(const table *t) {
  for (int s = 0; s < t->players; s++)
    if (t->seats[s].kind == SEAT_OPEN) return true;
  return false;
}

static bool is_mine(const pf_conn *c, int64_t id) {
  for (int i = 0; i < c->nsub_mine; i++)
    if (c->sub_mine[i] == id) return true;
  return false;
}

/* What every page is cut from: the unfinished tables in memory, newest first, and the newest
 * finished ones (LIST_MAX), as their summaries. */
typedef struct lobby_all {
  table **live;
  int nlive;
  json_t *over; /* summaries */
} lobby_all;

static void lobby_all_build(pf_hall *h, lobby_all *a) {
  a->live = pf_xmalloc(((size_t)h->ntables + 1) * sizeof *a->live);
  a->nlive = 0;
  for (int64_t id = h->cap - 1; id > 0; id--)
    if (h->tables[id] && h->tables[id]->status != ST_OVER) a->live[a->nlive++] = h->tables[id];
  a->over = json_array();
  pf_error err;
  if (pf_store_finished(h->store, LIST_MAX, pf_state_add_summary, a->over, &err) < 0) pf_log("error", "%s", err.msg);
}

static void lobby_all_free(lobby_all *a) {
  free(a->live);
  json_decref(a->over);
}

/* The page a subscriber asked for, as a `tables` message. */
static json_t *lobby_page(const pf_conn *c, const lobby_all *a) {
  json_t *list = json_array();
  int total = 0, first = c->sub_page * LOBBY_PAGE, f = c->sub_filter;
  for (int i = 0; i < a->nlive; i++) {
    const table *t = a->live[i];
    bool in = f == F_ALL || (f == F_OPEN && t->status == ST_WAITING && has_open_seat(t)) ||
              (f == F_MINE && is_mine(c, t->id)) || (f == F_PLAYING && t->status == ST_PLAYING);
    if (in && total++ >= first && (int)json_array_size(list) < LOBBY_PAGE) json_array_append_new(list, pf_state_summary(t));
  }
  size_t i;
  json_t *o;
  json_array_foreach(a->over, i, o) {
    bool in = f == F_ALL || f == F_OVER || (f == F_MINE && is_mine(c, json_integer_value(json_object_get(o, "table"))));
    if (in && total++ >= first && (int)json_array_size(list) < LOBBY_PAGE) json_array_append(list, o);
  }
  int pages = total ? (total + LOBBY_PAGE - 1) / LOBBY_PAGE : 1;
  return json_pack("{s:s, s:s, s:i, s:i, s:i, s:i, s:o}", "type", "tables", "filter", FILTERS[f], "page", c->sub_page,
                   "pages", pages, "page_size", LOBBY_PAGE, "total", total, "tables", list);
}

/* Sends a subscriber its page if it is not the one it was sent last (or always, with an id). */
static void lobby_send(pf_hall *h, pf_conn *c, const lobby_all *a, json_t *id) {
  json_t *o = lobby_page(c, a);
  if (!o) return;
  char *text = pf_json_text(o);
  static const uint8_t key[PF_SIPHASH_KEY] = {0};
  uint64_t hash = text ? pf_siphash24(key, text, strlen(text)) : 0;
  free(text);
  if (!id && hash == c->sub_hash) return json_decref(o);
  c->sub_hash = hash;
  pf_outbox_send(h, c, o, id, true, false);
}

/* Subscribes the connection to the lobby's list: a page of the tables a filter keeps, sent now
 * and again whenever it changes (pf_hall_tick), until another subscribe or the end. */
static void h_subscribe(request *r) {
  pf_hall *h = r->h;
  pf_conn *c = r->c;
  const char *f = field_str(r, "filter", true);
  if (!f && json_object_get(r->msg, "filter")) return;
  int filter = F_ALL;
  if (f) {
    while (filter < (int)(sizeof FILTERS / sizeof *FILTERS) && strcmp(FILTERS[filter], f) != 0) filter++;
    if (filter == (int)(sizeof FILTERS / sizeof *FILTERS))
      return bad(r, "bad_message", "subscribe: \"filter\" must be all, open, mine, playing or over, not \"%.40s\"", f);
  }
  json_int_t page;
  if (field_int(r, "page", true, 0, 0, 10000, &page) != 0) return;
  json_t *mine = json_object_get(r->msg, "mine");
  if (mine && (!json_is_array(mine) || json_array_size(mine) > LOBBY_MINE))
    return bad(r, "bad_message", "subscribe: \"mine\" must be an array of at most %d table numbers", LOBBY_MINE);
  for (size_t i = 0; mine && i < json_array_size(mine); i++)
    if (!json_is_integer(json_array_get(mine, i)))
      return bad(r, "bad_message", "subscribe: mine[%zu] must be a table number", i);
  if (!c->subscribed && h->nsubs >= LOBBY_SUBSCRIBERS)
    return bad(r, "full", "%d connections follow the list of tables already, the most", LOBBY_SUBSCRIBERS);
  if (!c->subscribed) h->nsubs++;
  c->subscribed = true;
  c->sub_filter = filter;
  c->sub_page = (int)page;
  c->nsub_mine = 0;
  for (size_t i = 0; mine && i < json_array_size(mine); i++) c->sub_mine[c->nsub_mine++] = json_integer_value(json_array_get(mine, i));
  lobby_all a;
  lobby_all_build(h, &a);
  lobby_send(h, c, &a, r->id);
  lobby_all_free(&a);
}

/* Every subscriber whose page changed is sent it again (called each second, when a table changed). */
static void lobby_push(pf_hall *h) {
  if (!h->lobby_dirty || !h->nsubs) return;
  h->lobby_dirty = false;
  lobby_all a;
  lobby_all_build(h, &a);
  for (pf_conn *c = h->conns; c; c = c->next)
    if (c->subscribed) lobby_send(h, c, &a, NULL);
  lobby_all_free(&a);
}

/* Every message type and its handler: the message is a JSON object with a string "type" before
 * any handler runs; each handler checks its own fields and replies exactly once. */
static const struct {
  const char *type;
  void (*fn)(request *r);
} HANDLERS[] = {
    {"games", h_games}, {"list", h_list},   {"create", h_create}, {"join", h_join},   {"resume", h_resume},
    {"watch", h_watch}, {"move", h_move},   {"leave", h_leave},   {"hint", h_hint},   {"review", h_review},
    {"name", h_name},   {"chat", h_chat},   {"subscribe", h_subscribe}, {"rematch", h_rematch},
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
    bad(&r, "bad_message", "a message needs a string \"type\"");
  } else {
    r.type = json_string_value(type);
    size_t i = 0, n = sizeof HANDLERS / sizeof HANDLERS[0];
    while (i < n && strcmp(HANDLERS[i].type, r.type) != 0) i++;
    if (i < n) {
      HANDLERS[i].fn(&r);
    } else {
      pf_buf known = {0};
      for (size_t k = 0; k < n; k++) pf_buf_printf(&known, "%s%s", k ? ", " : "", HANDLERS[k].type);
      bad(&r, "bad_message", "no message type is called \"%.40s\"; the types are %s", r.type, pf_buf_str(&known));
      pf_buf_free(&known);
      r.type = "message";
    }
  }
  json_decref(msg);
}

/* ------------------------------------------------------------------------------------------ */
/* The bots' results, the clock, and the pass's commit                                        */
/* ------------------------------------------------------------------------------------------ */

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
    return pf_change_undo(h, t);
  }
  pf_store_change_end(h->store, true, &err);
  pf_workers_cancel(h->workers, job_of_table, &t->id);
  while (t->nwatch) {
    pf_conn *c = t->watch[0].conn;
    pf_outbox_send(h, c, json_pack("{s:s, s:I}", "type", "expired", "table", (json_int_t)t->id), NULL, false, false);
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
      return pf_change_undo(h, t);
    }
    pf_change_keep(h, t);
  }
}

void pf_hall_tick(pf_hall *h) {
  double now = pf_clock_seconds();
  pf_error err;
  for (int64_t id = 1; id < h->cap; id++) {
    if (h->tables[id] && h->tables[id]->status == ST_PLAYING && h->tables[id]->clock_s) clock_check(h, h->tables[id], now);
    table *t = h->tables[id];
    if (t && t->status == ST_WAITING && nobody_seated(t) && now - t->since >= h->lim.waiting_expiry) {
      expire(h, t);
      continue;
    }
    if (!t || t->status != ST_PLAYING || !t->takeover_after || now - t->since < t->takeover_after) continue;
    int seats[PF_MAX_PLAYERS], n = pf_turn_asked(t, seats), changed = 0, rc = pf_change_begin(h, &err);
    for (int i = 0; i < n && rc == 0; i++) {
      chair *st = &t->seats[seats[i]];
      if (st->kind != SEAT_HUMAN || st->taken_over || st->has_sealed) continue;
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
      t->since = now;
      continue;
    }
    pf_change_keep(h, t);
  }
  lobby_push(h);
}

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

/* Tells the tables changed in a pass (broadcast for each, their states built by the crew while
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
    free(dirty);
  } while (pf_workers_pending(h->workers) && h->io.wake == NULL);
  if (h->pass_messages) pf_histogram_observe(&h->pass_seconds, pf_clock_seconds() - h->pass_start, h->pass_messages);
  h->pass_messages = 0;
  pf_tables_sweep_idle(h);
}

int pf_hall_tables(const pf_hall *h) { return h->ntables; }

/* The hall's series for /metrics (metrics.h writes them). */
void pf_hall_metrics(pf_hall *h, pf_buf *out) {
  static const char *const STATUS_NAME[] = {"waiting", "playing", "over"};
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
  for (int s = 0; s < 3; s++) pf_metric_sample(out, "pilfer_tables", "status", STATUS_NAME[s], (double)by_status[s]);
  pf_metric(out, "pilfer_connections", "gauge", "WebSocket connections open", (double)conns);
  pf_metric(out, "pilfer_bot_jobs", "gauge", "bot moves being searched or waiting for a worker (one a table at most)", (double)bots);
  pf_metric(out, "pilfer_hint_jobs", "gauge", "hints being searched or waiting for a worker (one a table at most)", (double)hints);
  pf_metric(out, "pilfer_worker_jobs", "gauge", "jobs handed to the bots' workers and not yet collected",
            (double)pf_workers_pending(h->workers));
  pf_counts_write(out, "pilfer_errors_total", "code", "error replies sent to clients, by code (docs/protocol.md)", &h->errors);
  pf_histogram_write(out, "pilfer_message_seconds",
                     "from a message's arrival to its replies and its tables' new states being handed to the network "
                     "(the commit included; measured from its pass's first message)",
                     &h->pass_seconds);
  pf_store_metrics(h->store, out);
}

/* ------------------------------------------------------------------------------------------ */
/* Opening and closing                                                                        */
/* ------------------------------------------------------------------------------------------ */

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
  if (pf_store_open(&h->store, cfg->db, cfg->full_sync, err) != 0 ||
      pf_store_load_unfinished(h->store, pf_tables_load, h, err) != 0) {
    for (int64_t id = 1; id < h->cap; id++) pf_table_free(h->tables[id]);
    free(h->tables);
    pf_store_close(h->store);
    free(h->scratch);
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
      pf_log("error", "table %" PRId64 ": %s", id, err->msg);
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
  free(h->dirty);
  free(h->out);
  free(h);
}
