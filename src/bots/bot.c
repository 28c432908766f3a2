/*
 * bot.c - the bot registry and the random bot.
 */
#include "bots/bot.h"

#include <string.h>

/* random: a uniformly random legal move; it looks at nothing but the legal moves. */
static pf_move random_choose(pf_bot *bot, const pf_game *g, const void *st) {
  pf_move moves[PF_MAX_MOVES];
  int n = g->legal(st, moves);
  return moves[pf_rng_below(&bot->rng, (uint32_t)n)];
}

static const pf_bot_kind RANDOM = {"random", "a uniformly random legal move", random_choose};

const pf_bot_kind *const pf_bot_kinds[] = {&RANDOM, NULL};

/* Bot streams are far from the deal streams (which count deals from 0). */
#define BOT_STREAM 0x424F5400u

int pf_bot_init(pf_bot *bot, const char *spec, uint64_t seed, int seat, pf_error *err) {
  size_t len = strcspn(spec, ":");
  for (int i = 0; pf_bot_kinds[i]; i++) {
    const pf_bot_kind *k = pf_bot_kinds[i];
    if (strlen(k->name) != len || strncmp(k->name, spec, len) != 0) continue;
    if (spec[len] == ':')
      return pf_fail(err, "bot '%s' takes no settings (got '%s')", k->name, spec + len + 1);
    bot->kind = k;
    pf_rng_seed(&bot->rng, seed, BOT_STREAM + (uint64_t)seat);
    return 0;
  }
  pf_buf b = {0};
  for (int i = 0; pf_bot_kinds[i]; i++) pf_buf_printf(&b, ", %s", pf_bot_kinds[i]->name);
  pf_fail(err, "unknown seat kind '%s'; seats are: human%s", spec, pf_buf_str(&b));
  pf_buf_free(&b);
  return -1;
}
