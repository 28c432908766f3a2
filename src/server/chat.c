/*
 * chat.c - a table's chat (chat.h).
 */
#include "server/chat.h"
#include "server/change.h"
#include "server/log.h"
#include "server/outbox.h"
#include "server/rematch.h"

#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"

static const char *const CHANNEL[] = {"players", "spectators"};

/* Whether a viewer (seat >= 0, or a spectator) is told a channel's messages: each channel its
 * own people; once the game is over, everyone both. */
static bool hears(const table *t, int seat, bool spectators) {
  return t->status == ST_OVER || (seat < 0) == spectators;
}

/* A message's fields after "type" and "table": channel, seat, text, at and name. */
static void chat_fields(pf_jw *w, const pf_store_chat *m) {
  pf_jw_key_str(w, "channel", m->channel);
  pf_jw_key(w, "seat");
  if (m->seat >= 0)
    pf_jw_int(w, m->seat);
  else
    pf_jw_null(w);
  pf_jw_key_str(w, "text", m->text);
  pf_jw_key_int(w, "at", m->at);
  if (m->name) pf_jw_key_str(w, "name", m->name);
}

typedef struct chat_log_ctx {
  const table *t;
  int seat, n;
  pf_msg m;
} chat_log_ctx;

static void chat_log_add(void *ctx, const pf_store_chat *m) {
  chat_log_ctx *x = ctx;
  if (!hears(x->t, x->seat, strcmp(m->channel, "spectators") == 0)) return;
  /* a message that is not UTF-8 is left out, as jansson left it out (it could not be packed) */
  size_t at = x->m.b.len;
  pf_jw w = x->m.w;
  pf_jw_open(&x->m.w, '{');
  chat_fields(&x->m.w, m);
  pf_jw_close(&x->m.w, '}');
  if (x->m.w.rc) {
    x->m.b.len = at, x->m.b.data[at] = '\0';
    x->m.w = w;
    return;
  }
  x->n++;
}

/* Tells a connection that has just sat at seat s of t (or watches it: -1) the last CHAT_LOG
 * messages it may read: `{"type": "chat_log", ...}`, sent only when there is one. */
void pf_chat_send_log(pf_hall *h, pf_conn *c, const table *t, int seat) {
  pf_msg news; /* and a finished table's rematch, offered or made */
  if (pf_rematch_open(&news, t, seat)) pf_outbox_send_msg(h, c, &news, NULL, false, false);
  chat_log_ctx x = {.t = t, .seat = seat};
  pf_outbox_open(&x.m, "chat_log");
  pf_jw_key_int(&x.m.w, "table", t->id);
  pf_jw_key(&x.m.w, "messages");
  pf_jw_open(&x.m.w, '[');
  pf_error err;
  const char *only = t->status == ST_OVER ? NULL : seat < 0 ? "spectators" : "players";
  if (pf_store_chat_log(h->store, t->id, only, CHAT_LOG, chat_log_add, &x, &err) < 0)
    pf_log("error", "table %" PRId64 ": %s", t->id, err.msg);
  if (!x.n) {
    pf_buf_free(&x.m.b);
    return;
  }
  pf_jw_close(&x.m.w, ']');
  pf_outbox_send_msg(h, c, &x.m, NULL, false, false);
}

static bool watches(const pf_conn *c, const table *t) {
  for (int i = 0; i < c->nbind; i++)
    if (c->bind[i].table == t->id && c->bind[i].seat == -1) return true;
  return false;
}

/* A message to a table's chat: from a seat (its token) to the players, or from a spectator of
 * the table (no token) to the spectators, when the table has their channel. */
void pf_chat_say(request *r) {
  pf_hall *h = r->h;
  table *t = pf_request_table(r);
  if (!t) return;
  int s = -1;
  if (json_object_get(r->msg, "token") && (s = pf_request_token(r, t)) < 0) return;
  char text[4 * CHAT_CHARS + 1], name[NAME_BYTES];
  int has_text = pf_request_text(r, "text", CHAT_CHARS, text, sizeof text, "bad_chat");
  if (has_text < 0) return;
  if (!has_text) { pf_request_bad(r, "bad_message", "chat: \"text\" is missing"); return; }
  if (s < 0) {
    if (!watches(r->c, t)) { pf_request_bad(r, "not_watching", "chat: without a token, only a spectator of table %" PRId64 " may write", t->id); return; }
    if (!t->spectator_chat) { pf_request_bad(r, "chat_closed", "table %" PRId64 " has no spectators' chat", t->id); return; }
    if (pf_request_name(r, name) < 0) return;
  }
  double now = pf_clock_seconds();
  if (!pf_client_take(r->c->client, PF_RATE_CHAT, now)) {
    const pf_client_rate *rate = &h->lim.clients.chat;
    pf_request_bad(r, "chat_flood", "chat: your address may send %d messages at once, then one every %g seconds "
                   "(try again in %.1f s)", rate->burst, rate->every_ms / 1000.0,
                   pf_client_retry_in(r->c->client, PF_RATE_CHAT, now));
    return;
  }
  pf_store_chat m = {CHANNEL[s < 0], s, s >= 0 ? (t->seats[s].name[0] ? t->seats[s].name : NULL) : name[0] ? name : NULL,
                     text, (int64_t)time(NULL)};
  pf_error err;
  if (pf_change_begin(h, &err) != 0 || pf_store_add_chat(h->store, t->id, &m, &err) != 0) {
    pf_change_undo(h, NULL);
    pf_request_bad(r, "storage", "%s", err.msg);
    return;
  }
  pf_store_change_end(h->store, true, &err);
  for (int i = 0; i < t->nwatch; i++) /* once committed (pf_outbox_send waits for it) */
    if (hears(t, t->watch[i].seat, s < 0)) {
      pf_msg cm;
      pf_outbox_open(&cm, "chat");
      pf_jw_key_int(&cm.w, "table", t->id);
      chat_fields(&cm.w, &m);
      pf_outbox_send_msg(h, t->watch[i].conn, &cm, NULL, false, false);
    }
  pf_msg said;
  pf_outbox_open(&said, "said");
  pf_jw_key_int(&said.w, "table", t->id);
  pf_jw_key_str(&said.w, "channel", m.channel);
  pf_request_answer_acked(r, &said);
}
