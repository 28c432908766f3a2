/*
 * play.h - the requests of playing: a seat's move, a hint, and the review of a finished game
 * (docs/protocol.md, "move", "hint", "review").
 */
#ifndef PF_SERVER_PLAY_H
#define PF_SERVER_PLAY_H

#include "server/request.h"

void pf_play_move(request *r);
void pf_play_hint(request *r);
void pf_play_review(request *r);

#endif
