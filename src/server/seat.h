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

#endif
