/*
 * paptest.h - the helpers of Point-a-Pile's tests (test_pap.c, test_pap_expansions.c): decks
 * built from the cards written, moves played from text, the phase a view tells.
 */
#ifndef PF_PAPTEST_H
#define PF_PAPTEST_H

#include <stdbool.h>

#include "../testutil.h"
#include "games/point_a_pile/cards.h"

#define NCARDS 54

/* Round 1 (2 players, seat 0 Headpointer): pile 1 = c1 under c2 goes to seat 1, pile 2 = c3
 * under c4 to seat 0. So with "R G:Px B P" seat 1's last card is the Rule card (green) and seat
 * 0's is P (purple, textless); in round 2 seat 1 is Headpointer and the rule is in force. */
#define POLICE_ROUND1 "c1>1 c2>1 c3>2 c4>2 @2 @1"

/* A card in the game's notation (cards.h), which the core reads through pf_card_parse_in. */
int pap_parse(const char *text, pf_card *c);
char *pap_str(pf_card c, char *buf);
/* Is option `name` true in "key=value ..." options? */
bool opt_on(const char *options, const char *name);
/* A full deck for the expansions switched on in `options` (PAP-1, PAP-9): the cards written come
 * first (top card first); then the regular cards not written, as textless fillers; then, at the
 * bottom, where short tests never draw them, the expansions' cards not written (fillers R:P1,
 * R:T1, R:A15). Fillers take colours the pool of the deck's size still has room for, cycling from
 * purple (54 cards: 17 red, 17 green, 11 blue, 11 purple). */
void exp_deal(pf_deal *d, const char *top, const char *options);
/* A game of `players` from the deck exp_deal makes of top and options. */
void start_pap(pf_run *r, int players, const char *top, const char *options);
/* As start_pap, with missions: the mission deck deals `missions` (seat 0's first), then M8s. */
void start_missions(pf_run *r, int players, const char *top, const char *missions, const char *options);
/* Plays moves separated by spaces. */
void play(pf_run *r, const char *moves);
/* The view's phase: place, point, actions, rock-paper-scissors, give, over. */
bool in_phase(const pf_run *r, const char *phase);
/* Everyone asked whether to use an action passes, until the game asks for something else. */
void pass_actions(pf_run *r);
/* The Headpointer puts every card still to place on pile 1, in draw order. */
void place_all(pf_run *r);
/* The Headpointer puts every drawn card of the round on pile 1, in draw order; `taker` points at
 * it and everyone else taps empty space; everyone passes when asked for an action, to the end of
 * the round. */
void give_all(pf_run *r, int taker);
/* Seat's view (or PF_VIEW_...) as JSON text; caller frees. */
char *view_text_of(const pf_run *r, int seat);
/* text reads as a card that prints as canonical. */
void expect_card(const char *text, const char *canonical);

#endif
