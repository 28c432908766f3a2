/*
 * chat.h - a table's chat: the players' channel and the spectators' (docs/protocol.md, "chat"),
 * its rate limit, and the log told to a connection that sits down or watches.
 */
#ifndef PF_SERVER_CHAT_H
#define PF_SERVER_CHAT_H

#include "server/request.h"

/* Tells a connection that has just sat at seat s of t (or watches it: -1) the last CHAT_LOG
 * messages it may read, and a finished table's rematch news. */
void pf_chat_send_log(pf_hall *h, pf_conn *c, const table *t, int seat);

/* The handler of `chat`. */
void pf_chat_say(request *r);

#endif
