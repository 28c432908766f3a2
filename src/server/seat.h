/*
 * seat.h - the requests of a connection's place at a table: joining a seat, resuming it with its
 * token, watching, leaving, and a seat's display name (docs/protocol.md).
 */
#ifndef PF_SERVER_SEAT_H
#define PF_SERVER_SEAT_H

#include "server/request.h"

void pf_seat_join(request *r);
void pf_seat_resume(request *r);
void pf_seat_watch(request *r);
void pf_seat_leave(request *r);
void pf_seat_name(request *r);
/* `here`: the seat's person is at the table (presence without a move). */
void pf_seat_here(request *r);
/* Seat s's person sent a message: the takeover's countdown starts again, a seat taken over is
 * given back (not one out of time), the others see it. */
void pf_seat_heard(pf_hall *h, table *t, int s);
/* pf_seat_heard for every seat connection c sits at. */
void pf_seat_heard_conn(pf_hall *h, pf_conn *c);

#endif
