/*
 * rematch.c - a finished table's rematch (rematch.h).
 */
#include "server/rematch.h"
#include "server/change.h"
#include "server/lobby.h"
#include "server/outbox.h"
#include "server/tables.h"
#include "server/table.h"

#include <inttypes.h>

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
json_t *pf_rematch_json(const table *t, int s) {
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
    json_t *o = news ? json_deep_copy(news) : pf_rematch_json(t, t->watch[i].seat);
    if (o && news && t->rematch && t->watch[i].seat >= 0)
      json_object_set_new(o, "seat", json_integer(rematch_seat(t->watch[i].seat, t->players)));
    if (o) pf_outbox_send(h, t->watch[i].conn, o, NULL, false, false);
  }
}

/* The rematch of a finished table, every seat having accepted: the same game, options, bots,
 * takeover and chat, the same people (their tokens and names) one seat on, a new deal; charged
 * to `creator`. */
static table *rematch_make(pf_hall *h, table *old, pf_client *creator, pf_error *err) {
  create_req q = {.g = old->g, .takeover_after = old->takeover_after, .spectator_chat = old->spectator_chat,
                  .clock_s = old->clock_s, .clock_loss = old->clock_loss,
                  .takeover_bot = old->takeover_bot[0] ? old->takeover_bot : DEFAULT_TAKEOVER_BOT,
                  .creator = creator};
  q.setup = (pf_setup){.players = old->players, .options = old->run.setup.options, .seed = pf_table_random64() >> 1};
  for (int s = 0; s < old->players; s++) {
    int k = rematch_seat(s, old->players);
    const chair *c = &old->seats[s];
    q.seat_kind[k] = c->kind;
    if (c->kind == SEAT_BOT) q.bot[k] = c->bot;
    if (c->kind == SEAT_HUMAN) q.token[k] = c->token, q.name[k] = c->name[0] ? c->name : NULL;
  }
  return pf_lobby_create_table(h, &q, err);
}

/* Offers a rematch, accepts or declines one (docs/protocol.md, "rematch"). */
void pf_rematch_handle(request *r) {
  pf_hall *h = r->h;
  table *t;
  int s = pf_request_seat(r, &t);
  if (s < 0) return;
  json_t *acc = json_object_get(r->msg, "accept");
  if (acc && !json_is_boolean(acc)) { pf_request_bad(r, "bad_message", "rematch: \"accept\" must be true or false"); return; }
  if (t->status != ST_OVER) { pf_request_bad(r, "not_over", "table %" PRId64 " is still being played", t->id); return; }
  if (t->rematch) { pf_request_reply(r, pf_rematch_json(t, s)); return; }
  unsigned all = (1u << t->players) - 1, bots = 0;
  for (int k = 0; k < t->players; k++) bots |= (unsigned)(t->seats[k].kind != SEAT_HUMAN) << k;
  if (json_is_false(acc)) {
    if (!t->offer_open) { pf_request_bad(r, "no_offer", "table %" PRId64 " has no rematch offered", t->id); return; }
    t->offer_open = false;
    json_t *news = json_pack("{s:s, s:I, s:s, s:i}", "type", "rematch", "table", (json_int_t)t->id, "status",
                             "declined", "by", s);
    pf_request_reply(r, json_deep_copy(news));
    rematch_tell(h, t, news, r->c);
    json_decref(news);
    return;
  }
  if (!t->offer_open) t->offer_open = true, t->offer_from = s, t->offer_yes = bots;
  t->offer_yes |= 1u << s;
  if ((t->offer_yes & all) != all) {
    pf_request_reply(r, pf_rematch_json(t, s));
    rematch_tell(h, t, NULL, r->c);
    return;
  }
  pf_error err;
  int64_t id = t->id;
  table *n = rematch_make(h, t, r->c->client, &err); /* charged to the last to accept */
  t = pf_tables_in_memory(h, id);
  if (!n || !t) { pf_request_bad(r, "storage", "%s", n ? "the table could not be read back" : err.msg); return; }
  if (pf_change_begin(h, &err) != 0 || pf_store_set_rematch(h->store, t->id, n->id, &err) != 0) {
    pf_change_undo(h, t);
    pf_request_bad(r, "storage", "%s", err.msg);
    return;
  }
  t->offer_open = false;
  t->rematch = n->id;
  pf_change_keep(h, t); /* told again if the pass's commit fails: then put back as stored */
  pf_request_reply_acked(r, pf_rematch_json(t, s));
  rematch_tell(h, t, NULL, r->c);
}
