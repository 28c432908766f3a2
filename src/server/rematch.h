/*
 * rematch.h - a finished table's rematch: offered, accepted or declined by its seats, and made
 * once all accepted (docs/protocol.md, "rematch").
 */
#ifndef PF_SERVER_REMATCH_H
#define PF_SERVER_REMATCH_H

#include "server/request.h"

/* The rematch's news for one viewer of t (seat s, or -1), opened in m: the open offer, or the
 * table it made with the viewer's seat there; false (m untouched) when there is neither. */
bool pf_rematch_open(pf_msg *m, const table *t, int s);

/* The handler of `rematch`: offers a rematch, accepts or declines one. */
void pf_rematch_handle(request *r);

#endif
