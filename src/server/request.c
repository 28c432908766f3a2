/*
 * request.c - a request's fields, checked, and its replies (request.h).
 */
#include "server/request.h"
#include "server/outbox.h"
#include "server/tables.h"
#include "server/text.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"

void pf_request_bad(request *r, const char *code, const char *fmt, ...) {
  char msg[560];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  pf_outbox_error(r->h, r->c, r->id, code, "%s", msg);
}

/* The reply to a request that changed a table: sent once the change is committed. */
void pf_request_answer_acked(request *r, pf_msg *m) { pf_outbox_send_msg(r->h, r->c, m, r->id, false, true); }
void pf_request_answer(request *r, pf_msg *m) { pf_outbox_send_msg(r->h, r->c, m, r->id, true, false); }

/* An integer field; absent is *v = def when optional. Returns 0, or -1 after the error reply. */
int pf_request_int(request *r, const char *key, bool optional, json_int_t def, json_int_t lo, json_int_t hi,
                   json_int_t *v) {
  json_t *f = json_object_get(r->msg, key);
  if (!f && optional) {
    *v = def;
    return 0;
  }
  if (!json_is_integer(f)) {
    pf_request_bad(r, "bad_message", "%s: \"%s\" must be an integer", r->type, key);
    return -1;
  }
  *v = json_integer_value(f);
  if (*v < lo || *v > hi) {
    pf_request_bad(r, "bad_message", "%s: \"%s\" must be from %lld to %lld, not %lld", r->type, key, (long long)lo,
        (long long)hi, (long long)*v);
    return -1;
  }
  return 0;
}

const char *pf_request_str(request *r, const char *key, bool optional) {
  json_t *f = json_object_get(r->msg, key);
  if (!f && optional) return NULL;
  if (!json_is_string(f)) {
    pf_request_bad(r, "bad_message", "%s: \"%s\" must be a string", r->type, key);
    return NULL;
  }
  return json_string_value(f);
}

table *pf_request_table(request *r) {
  json_int_t id;
  if (pf_request_int(r, "table", false, 0, 1, INT64_MAX, &id) != 0) return NULL;
  const pf_shard *sh = &r->h->shard;
  if (!pf_shard_owns(sh, id)) {
    char why[160];
    pf_shard_elsewhere(sh, id, why, sizeof why);
    pf_request_bad(r, "other_shard", "%s", why);
    return NULL;
  }
  table *t = pf_tables_get(r->h, id);
  if (!t) pf_request_bad(r, "unknown_table", "there is no table %lld", (long long)id);
  return t;
}

/* The seat whose token the request gives. */
int pf_request_token(request *r, const table *t) {
  const char *tok = pf_request_str(r, "token", false);
  if (!tok) return -1;
  if (strlen(tok) == 32)
    for (int s = 0; s < t->players; s++)
      if (t->seats[s].kind == SEAT_HUMAN && pf_table_token_equal(t->seats[s].token, tok)) return s;
  pf_request_bad(r, "bad_token", "that token is not a seat's of table %" PRId64, t->id);
  return -1;
}

/* The table and seat a request names with "table" and "token"; -1 after the error reply. */
int pf_request_seat(request *r, table **t) {
  *t = pf_request_table(r);
  return *t ? pf_request_token(r, *t) : -1;
}

/* A text field checked by pf_text_check into out: 0 when absent (out ""), 1 when given, -1 after the
 * error reply (`code`). */
int pf_request_text(request *r, const char *key, int max, char *out, size_t outsz, const char *code) {
  json_t *f = json_object_get(r->msg, key);
  out[0] = 0;
  if (!f) return 0;
  if (!json_is_string(f)) {
    pf_request_bad(r, "bad_message", "%s: \"%s\" must be a string", r->type, key);
    return -1;
  }
  char why[120];
  if (pf_text_check(json_string_value(f), json_string_length(f), max, out, outsz, why, sizeof why) != 0) {
    pf_request_bad(r, code, "%s: \"%s\" is refused: %s", r->type, key, why);
    return -1;
  }
  return 1;
}

int pf_request_name(request *r, char out[NAME_BYTES]) { return pf_request_text(r, "name", NAME_CHARS, out, NAME_BYTES, "bad_name"); }

/* Binds the requester, or refuses: false after the error reply. */
bool pf_request_bind(request *r, table *t, int s) {
  if (pf_tables_bind(t, r->c, s)) return true;
  pf_request_bad(r, "too_many_tables", "a connection may sit at or watch %d tables at once; leave one first", MAX_BINDINGS);
  return false;
}

bool pf_request_costly(request *r) {
  double now = pf_clock_seconds();
  if (pf_client_take(r->c->client, PF_RATE_COSTLY, now)) return true;
  const pf_client_rate *rate = &r->h->lim.clients.costly;
  pf_request_bad(r, "flood", "%s: your address may send %d of subscribe, list, review and hint at once, then one every %d ms "
                 "(try again in %.2f s)", r->type, rate->burst, rate->every_ms, pf_client_retry_in(r->c->client, PF_RATE_COSTLY, now));
  return false;
}
