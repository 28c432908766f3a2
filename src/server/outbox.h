/*
 * outbox.h - the only code that sends: a message goes to its connection at once, or, while the
 * pass's transaction is open, waits in the pass's outbox for its commit (hallstate.h's head
 * comment); pf_hall_flush then delivers the outbox in order.
 */
#ifndef PF_SERVER_OUTBOX_H
#define PF_SERVER_OUTBOX_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/jsontext.h"
#include "server/hallstate.h"

/* A message written as it is made (pf_jw): pf_outbox_open writes {"type":TYPE, and its fields follow
 * through m->w; the object is closed when it is sent (after its "id"). */
typedef struct pf_msg {
  pf_buf b;
  pf_jw w;
} pf_msg;
void pf_outbox_open(pf_msg *m, const char *type);

/* Sends a message (taking its text) to a connection, with "id" when id is given: `acked`, it
 * answers a change and waits for the pass's commit (a `storage` error instead if that fails);
 * plain, it goes out in order whatever the commit. One that cannot be written (a string that is
 * not UTF-8) sends a fixed `internal` error instead. */
void pf_outbox_send_msg(pf_hall *h, pf_conn *c, pf_msg *m, json_t *id, bool plain, bool acked);
/* Sends the `internal` error of a reply that could not be built. */
void pf_outbox_internal(pf_hall *h, pf_conn *c, json_t *id);
/* Sends a text already written (copied when it must wait for the commit). */
void pf_outbox_send_text(pf_hall *h, pf_conn *c, const char *text, size_t len, bool plain);
/* Sends an error reply of a code (counted for /metrics), its message cleaned to UTF-8. */
void pf_outbox_error(pf_hall *h, pf_conn *c, json_t *id, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Forgets what waits for a connection that is gone. */
void pf_outbox_drop(pf_hall *h, const pf_conn *c);
/* Sends a pass's messages (taken from h->out) after its commit, `ok` or failed, and frees them. */
void pf_outbox_deliver(pf_hall *h, outmsg *out, int nout, bool ok);

#endif
