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

static void seat_list(pf_jw *w, const char *key, unsigned bits, int n, bool in) {
  pf_jw_key(w, key);
  pf_jw_open(w, '[');
  for (int s = 0; s < n; s++)
    if (((bits >> s) & 1u) == in) pf_jw_int(w, s);
  pf_jw_close(w, ']');
}

bool pf_rematch_open(pf_msg *m, const table *t, int s) {
  if (!t->rematch && !t->offer_open) return false;
  pf_outbox_open(m, "rematch");
  pf_jw_key_int(&m->w, "table", t->id);
  if (t->rematch) {
    pf_jw_key_str(&m->w, "status", "made");
    pf_jw_key_int(&m->w, "new_table", t->rematch);
    if (s >= 0) pf_jw_key_int(&m->w, "seat", rematch_seat(s, t->players));
    return true;
  }
  pf_jw_key_str(&m->w, "status", "offered");
  pf_jw_key_int(&m->w, "from", t->offer_from);
  seat_list(&m->w, "accepted", t->offer_yes, t->players, true);
  seat_list(&m->w, "waiting", t->offer_yes, t->players, false);
  return true;
}

/* The news that seat `by` declined t's offer. */
static void declined_open(pf_msg *m, const table *t, int by) {
  pf_outbox_open(m, "rematch");
  pf_jw_key_int(&m->w, "table", t->id);
  pf_jw_key_str(&m->w, "status", "declined");
  pf_jw_key_int(&m->w, "by", by);
}

/* The rematch's news for seat s of t as a reply (there is some: a rematch made or offered). */
static void reply_news(request *r, const table *t, int s, bool acked) {
  pf_msg m;
  if (!pf_rematch_open(&m, t, s)) { pf_outbox_internal(r->h, r->c, r->id); return; } /* never */
  if (acked)
    pf_request_answer_acked(r, &m);
  else
    pf_request_answer(r, &m);
}

/* Tells everyone at t but the asker the rematch's news (each its own seat in the new table), or
 * that seat declined_by (when not -1) declined the offer. */
static void rematch_tell(pf_hall *h, const table *t, int declined_by, const pf_conn *asker) {
  for (int i = 0; i < t->nwatch; i++) {
    if (t->watch[i].conn == asker) continue; /* answered */
    pf_msg m;
    if (declined_by >= 0)
      declined_open(&m, t, declined_by);
    else if (!pf_rematch_open(&m, t, t->watch[i].seat))
      continue;
    pf_outbox_send_msg(h, t->watch[i].conn, &m, NULL, false, false);
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
  if (t->rematch) { reply_news(r, t, s, false); return; }
  unsigned all = (1u << t->players) - 1, bots = 0;
  for (int k = 0; k < t->players; k++) bots |= (unsigned)(t->seats[k].kind != SEAT_HUMAN) << k;
  if (json_is_false(acc)) {
    if (!t->offer_open) { pf_request_bad(r, "no_offer", "table %" PRId64 " has no rematch offered", t->id); return; }
    t->offer_open = false;
    pf_msg m;
    declined_open(&m, t, s);
    pf_request_answer(r, &m);
    rematch_tell(h, t, s, r->c);
    return;
  }
  if (!t->offer_open) t->offer_open = true, t->offer_from = s, t->offer_yes = bots;
  t->offer_yes |= 1u << s;
  if ((t->offer_yes & all) != all) {
    reply_news(r, t, s, false);
    rematch_tell(h, t, -1, r->c);
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
  reply_news(r, t, s, true);
  rematch_tell(h, t, -1, r->c);
}
