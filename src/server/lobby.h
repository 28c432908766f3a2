/*
 * lobby.h - the lobby's requests: the games, the list of tables, creating a table, and the
 * list pushed to its subscribers (docs/protocol.md, "games", "list", "create", "subscribe").
 */
#ifndef PF_SERVER_LOBBY_H
#define PF_SERVER_LOBBY_H

#include <stdbool.h>

#include "server/request.h"

#define DEFAULT_TAKEOVER_BOT "greedy"

/* What a create request asks for, read and checked (or a rematch's, made from its table). */
typedef struct create_req {
  const pf_game *g;
  pf_setup setup;
  int seat_kind[PF_MAX_PLAYERS];
  const char *bot[PF_MAX_PLAYERS];
  int takeover_after;
  const char *takeover_bot;
  bool spectator_chat;
  int clock_s;
  bool clock_loss;
  const char *token[PF_MAX_PLAYERS]; /* a rematch's seats already taken: their tokens and names */
  const char *name[PF_MAX_PLAYERS];
  pf_client *creator; /* who is charged for it (table.h): the asker, or the old table's */
} create_req;

/* Creates the table q asks for, as one change: the table, or NULL with err. */
table *pf_lobby_create_table(pf_hall *h, const create_req *q, pf_error *err);
/* Every subscriber whose page changed is sent it again (pf_hall_tick, when a table changed). */
void pf_lobby_push(pf_hall *h);

/* The handlers (api.c's HANDLERS). */
void pf_lobby_games(request *r);
void pf_lobby_list(request *r);
void pf_lobby_create(request *r);
void pf_lobby_subscribe(request *r);

#endif
