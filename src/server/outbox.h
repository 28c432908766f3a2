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

#include "server/hallstate.h"

/* Sends a message (taking it) to a connection, with "id" when id is given: `acked`, it answers
 * a change and waits for the pass's commit (a `storage` error instead if that fails); plain, it
 * goes out in order whatever the commit. NULL (a reply that could not be built) sends a fixed
 * `internal` error. */
void pf_outbox_send(pf_hall *h, pf_conn *c, json_t *o, json_t *id, bool plain, bool acked);
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
