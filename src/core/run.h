/*
 * run.h - one game being played, with its history: what play, replay, tests and records share.
 *
 * A pf_run owns the game's state, the explicit deals it was started from, every move played as
 * its canonical string, and the deck order of every deal the game has used, so that it can be
 * written as a record (SPEC §2) at any moment.
 */
#ifndef PF_RUN_H
#define PF_RUN_H

#include "core/game.h"

typedef struct pf_run {
  const pf_game *game;
  pf_setup setup;
  void *state;       /* game->state_size bytes, owned */
  pf_deal *given;    /* the explicit deals of the setup, owned (setup.deals points here) */
  pf_deal *deals;    /* every deal used so far, in order, owned */
  int ndeals;
  char **moves;      /* every move played, canonical strings, owned */
  int nmoves, capmoves;
} pf_run;

/* Starts a game; copies the setup's deals. On failure the run holds nothing to free. */
int pf_run_start(pf_run *r, const pf_game *g, const pf_setup *setup, pf_error *err);
void pf_run_free(pf_run *r);

/* Plays a move of the seat to move, or a chance outcome (text starting with '*'), given as text;
 * refuses it without changing anything if it is not legal, saying why. */
int pf_run_play_text(pf_run *r, const char *text, pf_error *err);
/* Plays a legal move code of the seat to move. */
void pf_run_play(pf_run *r, pf_move m);
/* At a chance node: draws the outcome from the game's generator and plays it. */
void pf_run_chance(pf_run *r);

static inline int pf_run_to_move(const pf_run *r) { return r->game->to_move(r->state); }

#endif
