/*
 * request.h - one request being handled: the message, its connection and id, the checks of its
 * fields (each failed check sends the error reply itself), and its replies. Every request is
 * answered exactly once.
 */
#ifndef PF_SERVER_REQUEST_H
#define PF_SERVER_REQUEST_H

#include <jansson.h>
#include <stdbool.h>

#include "server/hallstate.h"
#include "server/outbox.h"

typedef struct request {
  pf_hall *h;
  pf_conn *c;
  json_t *msg, *id;
  const char *type;
} request;

/* The error reply of a code. */
void pf_request_bad(request *r, const char *code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The reply to a request that changed a table, sent once the change is committed; and a reply
 * sent whatever the commit: a message written as it is made (server/outbox.h), its text taken. */
void pf_request_answer_acked(request *r, pf_msg *m);
void pf_request_answer(request *r, pf_msg *m);
/* A costly request (subscribe, list, review, hint): whether the client's rate allows one more now
 * (client.h, PF_RATE_COSTLY), taking it; else the `flood` error is sent and false returned. */
bool pf_request_costly(request *r);

/* The fields: each returns what it read, or -1 / NULL after the error reply. */
/* An integer field from lo to hi; absent is *v = def when optional. */
int pf_request_int(request *r, const char *key, bool optional, json_int_t def, json_int_t lo, json_int_t hi,
                   json_int_t *v);
/* A string field; NULL when absent and optional too. */
const char *pf_request_str(request *r, const char *key, bool optional);
/* The table "table" names. */
table *pf_request_table(request *r);
/* The seat of t whose token "token" gives. */
int pf_request_token(request *r, const table *t);
/* The table and seat a request names with "table" and "token". */
int pf_request_seat(request *r, table **t);
/* A text field checked by pf_text_check into out: 0 when absent (out ""), 1 when given. */
int pf_request_text(request *r, const char *key, int max, char *out, size_t outsz, const char *code);
/* The "name" field, a display name (0 when absent). */
int pf_request_name(request *r, char out[NAME_BYTES]);
/* Binds the requester to seat s of t (-1: watching), or refuses: false after the error reply. */
bool pf_request_bind(request *r, table *t, int s);

#endif
