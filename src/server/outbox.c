/*
 * outbox.c - sending, now or after the pass's commit (outbox.h).
 *
 * A reply that cannot be built (a text jansson refuses) becomes a fixed `internal` error; text
 * copied from a client into an error is cut at a character boundary and its invalid UTF-8
 * replaced, so that no client text can stop a reply.
 */
#include "server/outbox.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsontext.h"

static const char INTERNAL[] = "{\"type\":\"error\",\"code\":\"internal\",\"message\":\"the reply could not be built\"}";

static void out_push(pf_hall *h, pf_conn *c, char *text, char *fail, bool plain) {
  if (h->nout == h->capout) {
    h->capout = h->capout ? 2 * h->capout : 64;
    h->out = pf_xrealloc(h->out, (size_t)h->capout * sizeof *h->out);
  }
  h->out[h->nout++] = (outmsg){c, text, fail, plain};
}

static char *error_text(json_t *id, const char *code, const char *msg) {
  json_t *o = json_pack("{s:s, s:s, s:s}", "type", "error", "code", code, "message", msg);
  if (o && id) json_object_set(o, "id", id);
  char *text = o ? pf_json_text(o) : NULL;
  json_decref(o);
  return text;
}

void pf_outbox_send_text(pf_hall *h, pf_conn *c, const char *text, size_t len, bool plain) {
  if (pf_store_in_transaction(h->store))
    out_push(h, c, pf_xstrdup(text), NULL, plain);
  else
    h->io.send(h->io.ctx, c->peer, text, len);
}

/* Sends a message (taking it): `acked`, it answers a change and waits for the pass's commit
 * (a `storage` error instead if that fails); plain, it goes out in order whatever the commit. */
void pf_outbox_send(pf_hall *h, pf_conn *c, json_t *o, json_t *id, bool plain, bool acked) {
  if (o && id) json_object_set(o, "id", id);
  char *text = o ? pf_json_text(o) : NULL;
  json_decref(o);
  if (!text) {
    char *fixed = error_text(id, "internal", "the reply could not be built");
    pf_outbox_send_text(h, c, fixed ? fixed : INTERNAL, strlen(fixed ? fixed : INTERNAL), true);
    free(fixed);
    return;
  }
  if (pf_store_in_transaction(h->store)) {
    out_push(h, c, text, acked ? error_text(id, "storage", "the database refused the pass's commit: nothing changed")
                               : NULL, plain);
    return;
  }
  h->io.send(h->io.ctx, c->peer, text, strlen(text));
  free(text);
}

void pf_outbox_error(pf_hall *h, pf_conn *c, json_t *id, const char *code, const char *fmt, ...) {
  char msg[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  pf_utf8_clean(msg);
  pf_counts_add(&h->errors, code);
  pf_outbox_send(h, c, json_pack("{s:s, s:s, s:s}", "type", "error", "code", code, "message", msg), id, true, false);
}

void pf_outbox_drop(pf_hall *h, const pf_conn *c) {
  for (int i = 0; i < h->nout; i++) /* what waited for the commit has nobody to go to */
    if (h->out[i].conn == c) {
      free(h->out[i].text), free(h->out[i].fail);
      h->out[i] = (outmsg){0};
    }
}

void pf_outbox_deliver(pf_hall *h, outmsg *out, int nout, bool ok) {
  for (int i = 0; i < nout; i++) {
    outmsg *m = &out[i];
    const char *text = ok || m->plain ? m->text : m->fail;
    if (m->conn && text) h->io.send(h->io.ctx, m->conn->peer, text, strlen(text));
    free(m->text), free(m->fail);
  }
  free(out);
}
