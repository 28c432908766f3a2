/*
 * testutil.h - helpers shared by the tests: fixed deals, moves that must be legal or refused.
 * Every helper fails the running cmocka test (with the engine's message) when its expectation
 * does not hold.
 */
#ifndef PF_TESTUTIL_H
#define PF_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka needs the four headers above first */
#include <cmocka.h>

#include "core/record.h"
#include "games/registry.h"

/* A full deal of `ndecks` standard decks plus `jokers` jokers: the cards written in `top` (space-
 * separated notation, top card first) come first, then the rest of the deck in its standard
 * order (pf_deck_standard), minus the cards already placed. */
void tu_deal(pf_deal *d, int ndecks, int jokers, const char *top);
/* Starts a game from one explicit deal (NULL: from seed 1) and options "key=value ..." (or
 * NULL). */
void tu_start(pf_run *r, const char *game, int players, const pf_deal *deal, const char *options);
/* Plays a move given as text, which must be legal. */
void tu_play(pf_run *r, const char *move);
/* Tries a move that must be refused; the reason must contain `why` (when not NULL). */
void tu_refuse(pf_run *r, const char *move, const char *why);
/* The legal moves of the seat to move, space-separated (caller frees). */
char *tu_legal(const pf_run *r);
/* A seat's JSON view (caller decrefs). */
json_t *tu_view(const pf_run *r, int seat);
/* The current scores. */
void tu_scores(const pf_run *r, int *scores);
/* Asserts the game's invariant check passes. */
void tu_check(const pf_run *r);

/* Starts a game from explicit deals and options "key=value ..." (or NULL); seed 1. */
void tu_start_deals(pf_run *r, const char *game, int players, const pf_deal *deals, int ndeals,
                    const char *options);
/* Starting must fail, with a reason containing `why`. */
void tu_refuse_start(const char *game, int players, const pf_deal *deals, int ndeals,
                     const char *options, const char *why);
/* Plays the first legal move (or draws the chance outcome), n times, checking the invariants. */
void tu_play_first(pf_run *r, int n);
/* Plays the first legal move until the game is over; returns how many moves were played. */
int tu_play_first_to_end(pf_run *r);
/* The legal moves of the seat to move must be exactly `want` (space-separated, in order). */
void tu_expect_legal(const pf_run *r, const char *want);

/* A JSON value as text: strings bare, arrays' elements joined by spaces, "null", or "absent". */
void tu_render(const json_t *x, char *buf, size_t n);
/* The value at a dotted path of a JSON object ("piles.1.cards": key, array index, key). */
json_t *tu_path(json_t *obj, const char *path);
/* The field at `path` of a seat's view (PF_VIEW_ALL: the full view), as text, must be `want`. */
void tu_expect_view(const pf_run *r, int seat, const char *path, const char *want);
/* The integer at `path` of the full view. */
int tu_view_int(const pf_run *r, const char *path);
/* A seat's text view (caller frees). */
char *tu_view_text(const pf_run *r, int seat);
/* The scores must be `want` ("1 0 1 0"), and the winners (when over) `winners` ("0 2"). */
void tu_expect_scores(const pf_run *r, const char *want);
void tu_expect_winners(const pf_run *r, const char *want);
/* What the game tells `viewer` of a move of the seat to move (describe), or of a chance outcome
 * ("*7H", describe_chance), must be `want`. */
void tu_expect_told(const pf_run *r, const char *move, int viewer, const char *want);
/* Determinizes copies of the position for `seat` `times` times; the seat's view must never
 * change. Returns how many times the full view's value at `path` differed from the position's. */
int tu_resampled(const pf_run *r, int seat, int times, const char *path, pf_rng *rng);

#endif
