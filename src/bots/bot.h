/*
 * bot.h - computer players.
 *
 * A bot chooses a move for the seat to move. It may use only what that seat may know: the legal
 * moves, the seat's view, and determinizations for that seat (game.h). It never reads the rest of
 * the state it is given.
 *
 * Bots are named by specs: "name" or "name:key=value,...".
 */
#ifndef PF_BOT_H
#define PF_BOT_H

#include "core/game.h"

typedef struct pf_bot {
  const struct pf_bot_kind *kind;
  pf_rng rng; /* the bot's own generator, seeded from the game seed and its seat */
} pf_bot;

typedef struct pf_bot_kind {
  const char *name;
  const char *help;
  /* Chooses a legal move of the seat to move. */
  pf_move (*choose)(pf_bot *bot, const pf_game *g, const void *st);
} pf_bot_kind;

/* Every bot kind, NULL-terminated. */
extern const pf_bot_kind *const pf_bot_kinds[];

/* Makes a bot from a spec; the message lists the known bots when the name is unknown. */
int pf_bot_init(pf_bot *bot, const char *spec, uint64_t seed, int seat, pf_error *err);
static inline pf_move pf_bot_choose(pf_bot *bot, const pf_game *g, const void *st) {
  return bot->kind->choose(bot, g, st);
}

#endif
