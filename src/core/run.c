/*
 * run.c - a game with its history.
 */
#include "core/run.h"

#include <stdlib.h>
#include <string.h>

/* Notes the deal in progress if the game has started a new one since the last call, and the
 * deals before it that a game using several at once gives with deal_at. */
static void note_deal(pf_run *r) {
  int k = r->game->current_deal(r->state, NULL);
  if (k < r->ndeals) return;
  r->deals = pf_xrealloc(r->deals, (size_t)(k + 1) * sizeof *r->deals);
  for (int j = r->ndeals; j < k && pf_deal_at(r->game, r->state, j, &r->deals[j]); j++) continue;
  r->game->current_deal(r->state, &r->deals[k]);
  r->ndeals = k + 1;
}

static void push_move(pf_run *r, const char *s) {
  if (r->nmoves == r->capmoves) {
    r->capmoves = r->capmoves ? 2 * r->capmoves : 256;
    r->moves = pf_xrealloc(r->moves, (size_t)r->capmoves * sizeof *r->moves);
  }
  r->moves[r->nmoves++] = pf_xstrdup(s);
}

int pf_run_start(pf_run *r, const pf_game *g, const pf_setup *setup, pf_error *err) {
  memset(r, 0, sizeof *r);
  if (pf_check_players(g, setup->players, err) != 0) return -1;
  for (int i = 0; i < g->noptions; i++)
    if (pf_option_check(&g->options[i], setup->options.v[i], err) != 0) return -1;
  if (setup->ndeals > PF_MAX_DEALS)
    return pf_fail(err, "too many deals (%d); at most %d", setup->ndeals, PF_MAX_DEALS);
  r->game = g;
  r->setup = *setup;
  if (setup->ndeals > 0) {
    r->given = pf_xmalloc((size_t)setup->ndeals * sizeof *r->given);
    memcpy(r->given, setup->deals, (size_t)setup->ndeals * sizeof *r->given);
  }
  r->setup.deals = r->given;
  r->state = pf_xcalloc(1, g->state_size);
  if (g->start(r->state, &r->setup, err) != 0) {
    pf_run_free(r);
    return -1;
  }
  note_deal(r);
  return 0;
}

void pf_run_free(pf_run *r) {
  for (int i = 0; i < r->nmoves; i++) free(r->moves[i]);
  free(r->moves);
  free(r->deals);
  free(r->given);
  free(r->state);
  memset(r, 0, sizeof *r);
}

void pf_run_play(pf_run *r, pf_move m) {
  char s[PF_MOVE_STR];
  r->game->move_str(r->state, m, s);
  r->game->apply(r->state, m);
  push_move(r, s);
  note_deal(r);
}

void pf_run_chance(pf_run *r) {
  char s[PF_MOVE_STR];
  pf_chance_sample(r->game, r->state, s);
  push_move(r, s);
  note_deal(r);
}

int pf_run_play_text(pf_run *r, const char *text, pf_error *err) {
  const pf_game *g = r->game;
  int who = g->to_move(r->state);
  if (who == PF_NOBODY) return pf_fail(err, "the game is over");
  if (who == PF_CHANCE) {
    if (text[0] != '*') return pf_fail(err, "a chance outcome (starting with '*') is due here");
    char canon[PF_MOVE_STR];
    if (pf_chance_apply(g, r->state, text, canon, err) != 0) return -1;
    push_move(r, canon); /* the record carries the canonical form (G-9), whatever was typed */
    note_deal(r);
    return 0;
  }
  if (text[0] == '*') return pf_fail(err, "seat %d is to move, not chance", who);
  pf_move m;
  if (g->move_parse(r->state, text, &m, err) != 0) return -1;
  pf_run_play(r, m);
  return 0;
}
