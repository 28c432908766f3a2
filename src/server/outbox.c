/*
 * outbox.c - sending, now or after the pass's commit (outbox.h).
 *
 * A reply that cannot be built (a string that is not UTF-8) becomes a fixed `internal` error; text
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

void pf_outbox_open(pf_msg *m, const char *type) {
  *m = (pf_msg){0};
  m->w.b = &m->b;
  pf_jw_open(&m->w, '{');
  pf_jw_key_str(&m->w, "type", type);
}

/* Adds the id, closes m and takes its text: NULL when it cannot be written. */
static char *msg_text(pf_msg *m, const json_t *id) {
  if (id) {
    pf_jw_key(&m->w, "id");
    pf_jw_value(&m->w, id);
  }
  pf_jw_close(&m->w, '}');
  if (m->w.rc == 0) return m->b.data;
  pf_buf_free(&m->b);
  return NULL;
}

static char *error_text(json_t *id, const char *code, const char *msg) {
  pf_msg m;
  pf_outbox_open(&m, "error");
  pf_jw_key_str(&m.w, "code", code);
  pf_jw_key_str(&m.w, "message", msg);
  return msg_text(&m, id);
}

void pf_outbox_send_text(pf_hall *h, pf_conn *c, const char *text, size_t len, bool plain) {
  if (pf_store_in_transaction(h->store))
    out_push(h, c, pf_xstrdup(text), NULL, plain);
  else
    h->io.send(h->io.ctx, c->peer, text, len);
}

/* Sends a message's text (taking it; NULL: the fixed internal error). */
static void send_taken(pf_hall *h, pf_conn *c, char *text, json_t *id, bool plain, bool acked) {
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

void pf_outbox_send_msg(pf_hall *h, pf_conn *c, pf_msg *m, json_t *id, bool plain, bool acked) {
  send_taken(h, c, msg_text(m, id), id, plain, acked);
}

void pf_outbox_internal(pf_hall *h, pf_conn *c, json_t *id) { send_taken(h, c, NULL, id, true, false); }

void pf_outbox_error(pf_hall *h, pf_conn *c, json_t *id, const char *code, const char *fmt, ...) {
  char msg[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  pf_utf8_clean(msg);
  pf_counts_add(&h->errors, code);
  send_taken(h, c, error_text(id, code, msg), id, true, false);
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
