/*
 * registry.h - every game pilfer knows (the list is in registry.c). A game exports one symbol, its
 * pf_game description, which only registry.c names.
 */
#ifndef PF_REGISTRY_H
#define PF_REGISTRY_H

#include "core/record.h"

/* Every registered game, NULL-terminated, in the order `pilfer games` lists them. */
extern const pf_game *const pf_games[];

/* The game with this id, or NULL. */
const pf_game *pf_game_find(const char *id);

/* The game's strong bot (a bot spec; registry.c says how it is chosen): the lobby's "Strong bot"
 * and the server's hint. */
const char *pf_game_strong_bot(const pf_game *g);

/* Every game as `pilfer games --json` lists it: id, title, players, each option with its type,
 * default and range, "strong_bot", and "quick": the short whole game it declares, players and
 * options (the server's `games` message too): written to w, or as a value to read (caller owns
 * it). */
void pf_games_write(pf_jw *w);
json_t *pf_games_json(void);

/* A record read from JSON text or a file (core/record.h: pf_record_read) with the registry's games. */
int pf_record_parse(const char *text, size_t len, pf_record *rec, pf_error *err);
int pf_record_load(const char *path, pf_record *rec, pf_error *err);

#endif
