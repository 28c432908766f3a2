/*
 * lobby.c - the lobby's requests: games, list, create, and the list pushed to subscribers
 * (lobby.h).
 */
#include "server/lobby.h"
#include "server/botjob.h"
#include "server/change.h"
#include "server/log.h"
#include "server/outbox.h"
#include "server/state.h"
#include "server/tables.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/jsontext.h"
#include "core/siphash.h"

void pf_lobby_games(request *r) {
  pf_msg m;
  pf_outbox_open(&m, "games");
  pf_jw_key(&m.w, "games");
  pf_games_write(&m.w);
  pf_request_answer(r, &m);
}

/* ---- create ---- */

/* Reads a create request; -1 after the error reply. */
static int read_create(request *r, create_req *q) {
  const char *gid = pf_request_str(r, "game", false);
  if (!gid) return -1;
  q->g = pf_game_find(gid);
  if (!q->g) {
    pf_buf known = {0};
    for (int i = 0; pf_games[i]; i++) pf_buf_join_item(&known, i, "%s", pf_games[i]->id);
    pf_request_bad(r, "bad_game", "no game is called \"%.60s\"; the games are %s", gid, pf_buf_str(&known));
    pf_buf_free(&known);
    return -1;
  }
  json_int_t players;
  if (pf_request_int(r, "players", true, q->g->min_players, 1, PF_MAX_PLAYERS, &players) != 0) return -1;
  pf_error err;
  q->setup = (pf_setup){.players = (int)players, .seed = pf_table_random64() >> 1}; /* records hold seeds < 2^63 */
  if (pf_check_players(q->g, players, &err) != 0 ||
      pf_record_options_read(json_object_get(r->msg, "options"), q->g, &q->setup.options, &err) != 0) {
    pf_request_bad(r, "bad_options", "%s", err.msg);
    return -1;
  }
  const char *code;
  json_t *seats = json_object_get(r->msg, "seats");
  if (seats && (!json_is_array(seats) || json_array_size(seats) != (size_t)players)) {
    pf_request_bad(r, "bad_message", "create: \"seats\" must be an array of %lld: \"open\" or a bot spec each", (long long)players);
    return -1;
  }
  for (int s = 0; s < players; s++) {
    json_t *v = seats ? json_array_get(seats, (size_t)s) : NULL;
    const char *spec = v ? json_string_value(v) : "open";
    if (!spec) {
      pf_request_bad(r, "bad_message", "create: seats[%d] must be a string", s);
      return -1;
    }
    if (strcmp(spec, "open") == 0) continue;
    if (pf_botjob_check(r->h, spec, &code, &err) != 0) {
      pf_request_bad(r, code, "seats[%d]: %s", s, err.msg);
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
      pf_request_bad(r, "bad_message", "create: \"takeover\" must be {\"after\": 10 to 86400 seconds, \"bot\": a spec}");
      return -1;
    }
    if (bot && pf_botjob_check(r->h, json_string_value(bot), &code, &err) != 0) {
      pf_request_bad(r, code, "takeover: %s", err.msg);
      return -1;
    }
    q->takeover_after = (int)json_integer_value(after);
    if (bot) q->takeover_bot = json_string_value(bot);
  }
  json_t *sc = json_object_get(r->msg, "spectator_chat");
  if (sc && !json_is_boolean(sc)) {
    pf_request_bad(r, "bad_message", "create: \"spectator_chat\" must be true or false");
    return -1;
  }
  q->spectator_chat = json_is_true(sc);
  json_t *ck = json_object_get(r->msg, "clock");
  if (ck) {
    json_t *min = json_object_get(ck, "minutes"), *sec = json_object_get(ck, "seconds"), *on = json_object_get(ck, "on_time");
    const char *how = on ? json_string_value(on) : "bot";
    json_int_t secs = json_is_integer(min) ? 60 * json_integer_value(min) : json_is_integer(sec) ? json_integer_value(sec) : 0;
    if (!json_is_object(ck) || !min == !sec || secs < 10 || secs > 36000 || !how || (strcmp(how, "bot") && strcmp(how, "loss"))) {
      pf_request_bad(r, "bad_message", "create: \"clock\" must be {\"minutes\": 1 to 600 (or \"seconds\": 10 to 36000), "
                            "\"on_time\": \"bot\" or \"loss\"}");
      return -1;
    }
    q->clock_s = (int)secs;
    q->clock_loss = !strcmp(how, "loss");
  }
  return 0;
}

/* Whether the client and the hall may have one more table of this kind: waiting ones in all
 * (waiting_max), the client's waiting ones (waiting_per_client), and with a bot in a seat, the
 * client's tables being played with bots (bot_tables_per_client). */
static bool may_create(request *r, const create_req *q) {
  pf_hall *h = r->h;
  pf_client *c = r->c->client;
  bool bots = false;
  for (int s = 0; s < q->setup.players; s++) bots |= q->seat_kind[s] == SEAT_BOT;
  if (!pf_client_may_hold(c, PF_HOLD_WAITING)) {
    pf_request_bad(r, "too_many_tables", "your address has %d tables waiting for players already, the most it may have "
                   "(waiting_per_client)", pf_client_held(c, PF_HOLD_WAITING));
    return false;
  }
  if (bots && !pf_client_may_hold(c, PF_HOLD_BOT_TABLES)) {
    pf_request_bad(r, "too_many_tables", "your address has %d tables being played with bots already, the most it may "
                   "have (bot_tables_per_client)", pf_client_held(c, PF_HOLD_BOT_TABLES));
    return false;
  }
  int waiting = 0;
  for (int64_t id = 1; id < h->cap; id++) waiting += h->tables[id] && h->tables[id]->status == ST_WAITING;
  if (waiting >= h->lim.waiting_max) {
    pf_request_bad(r, "full", "the server has %d tables waiting for players, its most; join one of them", waiting);
    return false;
  }
  return true;
}

/* Creates the table a create request asked for, as one change: the table, or NULL with err. */
table *pf_lobby_create_table(pf_hall *h, const create_req *q, pf_error *err) {
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
  t->creator = q->creator;
  char *opts_text = NULL;
  int rc = pf_run_start(&t->run, q->g, &q->setup, err);
  if (rc == 0) {
    pf_buf b = {0};
    pf_jw w = {.b = &b};
    pf_record_options_write(&w, q->g, &q->setup.options);
    opts_text = b.data;
    rc = pf_change_begin(h, err);
  }
  bool in_change = rc == 0;
  pf_store_table row = {0, q->g->id, t->players, opts_text, q->setup.seed, pf_table_status[ST_WAITING], t->takeover_after,
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
    if (t->id) pf_tables_forget(h, t), h->ntables--;
    t->creator = NULL; /* charged nothing yet */
    pf_table_free(t);
    return NULL;
  }
  pf_change_keep(h, t);
  return t;
}

void pf_lobby_create(request *r) {
  create_req q = {.creator = r->c->client};
  if (read_create(r, &q) != 0 || !may_create(r, &q)) return;
  pf_error err;
  table *t = pf_lobby_create_table(r->h, &q, &err);
  if (!t) { pf_request_bad(r, "storage", "%s", err.msg); return; }
  pf_msg m;
  pf_outbox_open(&m, "created");
  pf_jw_key_int(&m.w, "table", t->id);
  pf_jw_key(&m.w, "summary");
  pf_state_summary_write(&m.w, t);
  pf_request_answer_acked(r, &m);
}

/* ---- the lobby's list, pushed (subscribe) ---- */

enum { F_ALL, F_OPEN, F_MINE, F_PLAYING, F_OVER };
static const char *const FILTERS[] = {"all", "open", "mine", "playing", "over"};

static bool abandoned(const pf_hall *h, int64_t id) { return id > 0 && id < h->cap && h->tables[id] && h->tables[id]->abandoned; }

static bool is_mine(const pf_conn *c, int64_t id) {
  for (int i = 0; i < c->nsub_mine; i++)
    if (c->sub_mine[i] == id) return true;
  return false;
}

/* Appends a message's "id" and closes it (pf_outbox_send puts it last, so here too). */
static void close_with_id(pf_buf *b, const json_t *id) {
  if (id) {
    char *text = pf_jw_dumps(id, 0, false);
    pf_buf_puts(b, ",\"id\":");
    pf_buf_puts(b, text ? text : "null");
    free(text);
  }
  pf_buf_putc(b, '}');
}

void pf_lobby_list(request *r) {
  if (!pf_request_costly(r)) return;
  pf_buf b = {0};
  pf_buf_puts(&b, "{\"type\":\"tables\",\"tables\":");
  pf_state_tables_write(r->h, &b, LIST_MAX);
  close_with_id(&b, r->id);
  pf_outbox_send_text(r->h, r->c, b.data, b.len, true);
  pf_buf_free(&b);
}

/* The page a subscriber asked for, as a `tables` message without its id (docs/protocol.md,
 * "subscribe"): cut from the list kept, its entries' texts joined. */
static void lobby_page(pf_hall *h, const pf_conn *c, pf_lobbylist *l, pf_buf *out) {
  int total = 0, n = 0, first = c->sub_page * LOBBY_PAGE, f = c->sub_filter;
  pf_buf list = {0};
  for (int i = 0; i < l->nlive + l->nover; i++) {
    bool live = i < l->nlive;
    pf_lobbylist_entry *e = live ? &l->live[i] : &l->over[i - l->nlive];
    bool in = f == F_ALL || (f == F_MINE && is_mine(c, e->id)) ||
              (live ? (f == F_OPEN && e->open) || (f == F_PLAYING && e->status == ST_PLAYING && !abandoned(h, e->id)) : f == F_OVER);
    if (!in || total++ < first || n >= LOBBY_PAGE) continue;
    pf_state_list_text(h, e);
    if (!e->text) { /* cannot be written (never): left out, as a summary that cannot be built was */
      total--;
      continue;
    }
    if (n++) pf_buf_putc(&list, ',');
    pf_buf_append(&list, e->text, e->len);
  }
  int pages = total ? (total + LOBBY_PAGE - 1) / LOBBY_PAGE : 1;
  pf_buf_printf(out, "{\"type\":\"tables\",\"filter\":\"%s\",\"page\":%d,\"pages\":%d,\"page_size\":%d,\"total\":%d,\"tables\":[",
                FILTERS[f], c->sub_page, pages, LOBBY_PAGE, total);
  if (list.len) pf_buf_append(out, list.data, list.len);
  pf_buf_putc(out, ']');
  pf_buf_free(&list);
}

/* Sends a subscriber its page if it is not the one it was sent last (or always, with an id). */
static void lobby_send(pf_hall *h, pf_conn *c, pf_lobbylist *l, const json_t *id) {
  pf_buf b = {0};
  lobby_page(h, c, l, &b);
  pf_buf_putc(&b, '}');
  static const uint8_t key[PF_SIPHASH_KEY] = {0};
  uint64_t hash = pf_siphash24(key, b.data, b.len);
  if (id || hash != c->sub_hash) {
    c->sub_hash = hash;
    b.data[--b.len] = '\0';
    close_with_id(&b, id);
    pf_outbox_send_text(h, c, b.data, b.len, true);
  }
  pf_buf_free(&b);
}

/* Subscribes the connection to the lobby's list: a page of the tables a filter keeps, sent now
 * and again whenever it changes (pf_hall_tick), until another subscribe or the end. */
void pf_lobby_subscribe(request *r) {
  if (!pf_request_costly(r)) return;
  pf_hall *h = r->h;
  pf_conn *c = r->c;
  const char *f = pf_request_str(r, "filter", true);
  if (!f && json_object_get(r->msg, "filter")) return;
  int filter = F_ALL;
  if (f) {
    while (filter < (int)(sizeof FILTERS / sizeof *FILTERS) && strcmp(FILTERS[filter], f) != 0) filter++;
    if (filter == (int)(sizeof FILTERS / sizeof *FILTERS)) {
      pf_request_bad(r, "bad_message", "subscribe: \"filter\" must be all, open, mine, playing or over, not \"%.40s\"", f);
      return;
    }
  }
  json_int_t page;
  if (pf_request_int(r, "page", true, 0, 0, 10000, &page) != 0) return;
  json_t *mine = json_object_get(r->msg, "mine");
  if (mine && (!json_is_array(mine) || json_array_size(mine) > LOBBY_MINE)) {
    pf_request_bad(r, "bad_message", "subscribe: \"mine\" must be an array of at most %d table numbers", LOBBY_MINE);
    return;
  }
  for (size_t i = 0; mine && i < json_array_size(mine); i++)
    if (!json_is_integer(json_array_get(mine, i))) {
      pf_request_bad(r, "bad_message", "subscribe: mine[%zu] must be a table number", i);
      return;
    }
  if (!c->subscribed && h->nsubs >= LOBBY_SUBSCRIBERS) {
    pf_request_bad(r, "full", "%d connections follow the list of tables already, the most", LOBBY_SUBSCRIBERS);
    return;
  }
  if (!c->subscribed) h->nsubs++;
  c->subscribed = true;
  c->sub_filter = filter;
  c->sub_page = (int)page;
  c->nsub_mine = 0;
  for (size_t i = 0; mine && i < json_array_size(mine); i++) c->sub_mine[c->nsub_mine++] = json_integer_value(json_array_get(mine, i));
  lobby_send(h, c, pf_state_list(h), r->id);
}

/* Every subscriber whose page changed is sent it again (called each second, when a table changed). */
void pf_lobby_push(pf_hall *h) {
  if (!h->lobby_dirty || !h->nsubs) return;
  h->lobby_dirty = false;
  pf_lobbylist *l = pf_state_list(h);
  for (pf_conn *c = h->conns; c; c = c->next)
    if (c->subscribed) lobby_send(h, c, l, NULL);
}
