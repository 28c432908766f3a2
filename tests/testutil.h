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

#include "core/measure.h"
#include "core/record.h"
#include "core/view.h"
#include "games/registry.h"
#include "sim/sim.h"

/* A full deal of `ndecks` standard decks plus `jokers` jokers: the cards written in `top` (space-
 * separated notation, top card first) come first, then the rest of the deck in its standard
 * order (pf_deck_standard), minus the cards already placed. */
void tu_deal(pf_deal *d, int ndecks, int jokers, const char *top);
/* A full deal of the n cards of `deck`: place[i] (a card's notation, or NULL) is the card at deck
 * position i (0 is the top); the places left NULL get the rest of the deck in its order, the first
 * place first. */
void tu_deal_places(pf_deal *d, const pf_card *deck, int n, const char *const *place);
/* Reads `text` as one card in the notation `own` (NULL: the core's, card.h), which must write it
 * back as `canonical` (G-8). */
void tu_expect_card(const pf_card_notation *own, const char *text, const char *canonical);
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
/* A JSON value as text: the elements of an array joined by spaces (an array inside an array
 * in brackets: [7H 7S] [8D 8C]); a string or integer as itself; "true"/"false", "null", or
 * "absent" for NULL. */
void tu_render(const json_t *x, char *buf, size_t n);
/* The value at `path` in a seat's JSON view (or PF_VIEW_ALL's): keys and array indices separated
 * by dots, "stockpiles.0.top"; NULL if there is none. The view is kept in *view (caller decrefs). */
json_t *tu_view_path(const pf_run *r, int seat, const char *path, json_t **view);
/* The value at `path` of a seat's view, as tu_render writes it, must be `want`. */
void tu_expect_view_of(const pf_run *r, int seat, const char *path, const char *want);
/* The same in the full view. */
void tu_expect_view(const pf_run *r, const char *path, const char *want);
/* An integer of the full view. */
int tu_view_int(const pf_run *r, const char *path);
/* The legal moves, space-separated, must be `want`. */
void tu_expect_legal(const pf_run *r, const char *want);
/* The current scores. */
void tu_scores(const pf_run *r, int *scores);
/* Asserts the game's invariant check passes. */
void tu_check(const pf_run *r);

/* Plays the first legal move (at a chance node: draws the outcome), n times (checking the
 * invariant after each). */
void tu_play_first(pf_run *r, int n);
/* Plays the first legal move until the game is over; returns how many were played. */
int tu_play_first_to_end(pf_run *r);
/* Seat `seat`'s hand, as its own view shows it (view field hands[seat].cards). */
void tu_expect_hand(const pf_run *r, int seat, const char *cards);
/* The sizes of every hand (view field hands[].size), space-separated. */
void tu_expect_hand_sizes(const pf_run *r, const char *sizes);

/* Starts a game from explicit deals and options "key=value ..." (or NULL); seed 1. */
void tu_start_deals(pf_run *r, const char *game, int players, const pf_deal *deals, int ndeals,
                    const char *options);
/* Starting must fail, with a reason containing `why`. */
void tu_refuse_start(const char *game, int players, const pf_deal *deals, int ndeals,
                     const char *options, const char *why);
/* A seat's text view, plain (caller frees). */
char *tu_view_text(const pf_run *r, int seat);
/* The scores must be `want` ("1 0 1 0"); the winners `want` ("0 2"). */
void tu_expect_scores(const pf_run *r, const char *want);
void tu_expect_winners(const pf_run *r, const char *want);
/* What the game tells `viewer` of a move of the seat to move (describe), or of a chance outcome
 * ("*7H", describe_chance), must be `want`. */
void tu_expect_told(const pf_run *r, const char *move, int viewer, const char *want);
/* The zones of a viewer's view (docs/views.md): their ids, space-separated, must be `want`. */
void tu_expect_zone_ids(const pf_run *r, int viewer, const char *want);
/* A field of the zone with this id in a viewer's view ("cards", "value", "grid", "note", ...), as
 * tu_render writes it ("7H null 8S"; "absent" when it has none), must be `want`. */
void tu_expect_zone(const pf_run *r, int viewer, const char *id, const char *field, const char *want);
/* The entry of the view's "moves" for this move (its canonical string): "from card to", null for
 * none ("hand:0 7H pile:2"), must be `want`. */
void tu_expect_move_zones(const pf_run *r, int viewer, const char *move, const char *want);
/* Determinizes copies of the position for `seat` `times` times; the seat's view must never
 * change. Returns how many times the full view's value at `path` differed from the position's. */
int tu_resampled(const pf_run *r, int seat, int times, const char *path, pf_rng *rng);

/* The option variants a suite runs over every game with `players` seats: the defaults first, then
 * each option changed on its own (a boolean flipped; an integer at its minimum, or 30 above it
 * when that is the default), and an integer option with a small range also at the largest value
 * the player count accepts. Returns how many; out has room for TU_MAX_VARIANTS. */
#define TU_MAX_VARIANTS (2 * PF_MAX_OPTIONS + 1)
int tu_option_variants(const pf_game *g, int players, pf_options *out);

/* A run of sim (or analyze) of `games` games of `players` seats given by `seats`, seed 42, default
 * options, unsharded; played on `threads` threads, records into `records` if not NULL; and its
 * JSON text without the wall time (caller frees), which is what merging must reproduce. */
pf_sim_config tu_sim_config(const char *game, int players, long long games, bool rotate, const char *const *seats);
void tu_sim_run(const pf_sim_config *c, int threads, const char *records, pf_sim_result *r);
char *tu_sim_text(const pf_sim_result *r);

#endif
