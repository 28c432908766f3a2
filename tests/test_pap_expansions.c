/*
 * test_pap_expansions.c - Point-a-Pile's expansions card by card (RULINGS PAP-9,
 * point-a-pile-cards.md): test_mission_<mission>, test_shy_<card>, test_action_<action>; and the
 * greedy bot's rule of thumb and the JSON view's zones. test_pap.c has the rulings and the police.
 *
 * Every test starts from a fixed deck built by start_pap or start_missions (tests/support/
 * paptest.c), as in test_pap.c.
 */
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/bot.h"
#include "games/point_a_pile/cards.h"
#include "sim/sim.h"
#include "support/paptest.h"
#include "testutil.h"

/* ------------------------------------------------------------------------------------------ */
/* PAP-9 missions                                                                             */
/* ------------------------------------------------------------------------------------------ */

/* Seat 0 of 6 has `mission` (the others M8, 12 cards) and takes the round's 12 cards: the game
 * ends with seat 0 the winner exactly when the mission is met. */
static void expect_mission(const char *mission, const char *cards, bool met) {
  pf_run r;
  char missions[64];
  snprintf(missions, sizeof missions, "%s M8 M8 M8 M8 M8", mission);
  start_missions(&r, 6, cards, missions, "missions=true");
  give_all(&r, 0);
  if (met != (pf_run_to_move(&r) == PF_NOBODY))
    fail_msg("mission %s with %s: %s", mission, cards, met ? "not met" : "met, but should not be");
  if (met) tu_expect_winners(&r, "0");
  pf_run_free(&r);
}

static void test_mission_m1_five_of_one_colour(void **unused) {
  (void)unused;
  expect_mission("M1", "R R R R R G G B B P P G", true);
  expect_mission("M1", "R R R R G G G G B B P P", false);
}

static void test_mission_m2_two_of_every_colour(void **unused) {
  (void)unused;
  expect_mission("M2", "R R G G B B P P R G R G", true);
  expect_mission("M2", "R R R R G G G G B B B P", false);
}

static void test_mission_m3_ten_points(void **unused) {
  (void)unused;
  expect_mission("M3", "R:D5 G:D5 B P R G R G R G B P", true);
  expect_mission("M3", "R:D5 G:D4 B P R G R G R G B P", false);
}

static void test_mission_m4_six_with_text(void **unused) {
  (void)unused;
  expect_mission("M4", "R:S+ G:S+ B:S+ P:S+ R:S- G:S- R G B P R G", true);
  expect_mission("M4", "R:S+ G:S+ B:S+ P:S+ R:S- G R G B P R G", false);
}

static void test_mission_m5_five_textless(void **unused) {
  (void)unused;
  expect_mission("M5", "R G B P R R:S+ G:S+ B:S+ P:S+ R:S- G:S- R:S+", true);
  expect_mission("M5", "R G B P R:S+ R:S+ G:S+ B:S+ P:S+ R:S- G:S- R:S+", false);
}

static void test_mission_m6_every_colour_six_points(void **unused) {
  (void)unused;
  expect_mission("M6", "R:D3 G:S+ G:S+ G:S+ B P R R R R R R", true);
  expect_mission("M6", "R:D3 G:S+ G:S+ G B P R R R R R R", false);          /* 5 points */
  expect_mission("M6", "R:S+ R:S+ R:S+ G:S+ G:S+ G:S+ B R G B R G", false); /* no purple */
}

static void test_mission_m7_every_colour_six_cards(void **unused) {
  (void)unused;
  expect_mission("M7", "R G B P R G B P R G B P", true);
  expect_mission("M7", "R G B R G B R G B R G B", false);
}

static void test_mission_m8_twelve_cards(void **unused) {
  (void)unused;
  expect_mission("M8", "R G B P R G B P R G B P", true);
  /* 11 cards: the twelfth is discarded, and five players tapped empty space. */
  pf_run r;
  start_missions(&r, 6, "", "M8 M6 M6 M6 M6 M6", "missions=true");
  play(&r, "c1>1 c2>1 c3>1 c4>1 c5>1 c6>1 c7>1 c8>1 c9>1 c10>1 c11>1 c12>2");
  play(&r, "@1 @empty @empty @empty @empty @empty");
  tu_expect_view(&r, "rows.0.size", "11");
  assert_true(pf_run_to_move(&r) != PF_NOBODY);
  pf_run_free(&r);
}

static void test_mission_m9_eight_cards_four_points(void **unused) {
  (void)unused;
  expect_mission("M9", "R:S+ R:S+ R:S+ R:S+ G G G G B B P P", true);
  expect_mission("M9", "R:S+ R:S+ R:S+ R G G G G B B P P", false);
}

static void test_mission_m10_colours_h_and_l(void **unused) {
  (void)unused;
  expect_mission("M10:5R3G", "R R R R R G G G B B P P", true);
  expect_mission("M10:5R3G", "R R R R R G G B B B P P", false);
  expect_mission("M10:6R3G", "R R R R R G G G B B P P", false);
  expect_mission("M10:5B4P", "B B B B B P P P P R G R", true);
}

/* Missions replace the 10-point goal: 10 points do not end the game; PAP-9 missions with PAP-7
 * (revised): the game ends as soon as a mission is met, so seat 1, whose mission pile 2 would meet,
 * no longer shares the win as it did at the end of the round before the revision; when the deck
 * runs out first, the highest score wins (PAP-7). */
static void test_missions_replace_the_goal(void **unused) {
  (void)unused;
  pf_run r;
  start_missions(&r, 6, "R:D5 G:D5 B P R G B P R G B P", "M1 M6 M6 M6 M6 M6", "missions=true");
  give_all(&r, 0);
  tu_expect_scores(&r, "10 0 0 0 0 0");
  assert_true(pf_run_to_move(&r) != PF_NOBODY);
  pf_run_free(&r);
  start_missions(&r, 6, "R G B P R G R G B P R G", "M7 M7 M6 M6 M6 M6", "missions=true");
  play(&r, "c1>1 c2>1 c3>1 c4>1 c5>1 c6>1 c7>2 c8>2 c9>2 c10>2 c11>2 c12>2");
  play(&r, "@1 @2 @empty @empty @empty @empty");
  assert_int_equal(pf_run_to_move(&r), PF_NOBODY);
  tu_expect_winners(&r, "0");
  tu_expect_view(&r, "missions_met", "0");
  tu_expect_view(&r, "rows.1.cards", "");
  pf_run_free(&r);
  start_missions(&r, 6, "", "M6 M6 M6 M6 M6 M6", "missions=true"); /* all textless: nobody's met */
  for (int round = 0; pf_run_to_move(&r) != PF_NOBODY; round++) give_all(&r, round % 6);
  tu_expect_view(&r, "deck", "0");
  tu_expect_winners(&r, "0 1 2 3 4 5");
  pf_run_free(&r);
}

/* PAP-9: the end says which seat met which mission, with the points it had, so that a winner
 * below another's score is explained: seat 1 scores pile 1 (10 points, short of its mission M8,
 * 12 cards), then seat 0 meets M7 with pile 2's textless cards (0 points) and wins alone. */
static void test_missions_end_event(void **unused) {
  (void)unused;
  pf_run r;
  start_missions(&r, 6, "R:D5 G:D5 B P B B R G B P R G", "M7 M8 M6 M6 M6 M6", "missions=true");
  play(&r, "c1>1 c2>1 c3>1 c4>1 c5>1 c6>1 c7>2 c8>2 c9>2 c10>2 c11>2 c12>2");
  play(&r, "@2 @1 @empty @empty @empty @empty");
  assert_int_equal(pf_run_to_move(&r), PF_NOBODY);
  tu_expect_scores(&r, "0 10 0 0 0 0");
  tu_expect_winners(&r, "0");
  for (int viewer = PF_VIEW_PUBLIC; viewer < 6; viewer++) {
    if (viewer == -2) continue;
    tu_expect_view_of(&r, viewer, "end.0.kind", "mission_met");
    tu_expect_view_of(&r, viewer, "end.0.rule", "PAP-9");
    tu_expect_view_of(&r, viewer, "end.0.seat", "0");
    tu_expect_view_of(&r, viewer, "end.0.mission", "M7");
    tu_expect_view_of(&r, viewer, "end.0.mission_text", "every colour and at least 6 cards");
    tu_expect_view_of(&r, viewer, "end.0.score", "0");
    tu_expect_view_of(&r, viewer, "end.0.text", "Seat 0 met their mission, \u201cevery colour and at least 6 cards\u201d, "
                                                "with 0 points: a mission met wins, whatever the scores.");
    tu_expect_view_of(&r, viewer, "end.1", "absent");
  }
  pf_run_free(&r);
  /* Without missions, PAP-7: the seat that reached 10 points. */
  start_pap(&r, 6, "R:D5 G:D5 B P B B R G B P R G", "");
  play(&r, "c1>1 c2>1 c3>1 c4>1 c5>1 c6>1 c7>2 c8>2 c9>2 c10>2 c11>2 c12>2");
  play(&r, "@2 @1 @empty @empty @empty @empty");
  tu_expect_winners(&r, "1");
  tu_expect_view(&r, "end.0.kind", "goal_reached");
  tu_expect_view(&r, "end.0.seat", "1");
  tu_expect_view(&r, "end.0.text", "Seat 1 reached 10 points: 10 points end the game at once.");
  tu_expect_view(&r, "end.1", "absent");
  pf_run_free(&r);
}

/* A mission is secret: the others' views show null, their text views do not name it, determinize
 * draws them anew; the record carries the mission deck as deal 2; at the end all are shown. */
static void test_missions_secret(void **unused) {
  (void)unused;
  pf_run r;
  start_missions(&r, 2, "", "M5 M3", "missions=true");
  tu_expect_view_of(&r, 1, "missions", "null M3");
  tu_expect_view_of(&r, 0, "missions", "M5 null");
  tu_expect_view(&r, "missions", "M5 M3");
  char *t = tu_view_text(&r, 1);
  if (!strstr(t, "Your mission (secret): M3, mission: 10 points") || strstr(t, "M5")) fail_msg("seat 1 sees:\n%s", t);
  free(t);
  pf_rng rng;
  pf_rng_seed(&rng, 9, 9);
  assert_true(tu_resampled(&r, 1, 20, "missions.0", &rng) > 0);
  assert_int_equal(tu_resampled(&r, 0, 20, "missions.0", &rng), 0);
  assert_int_equal(r.ndeals, 2);
  assert_int_equal(r.deals[1].ncards, 12);
  char b[PF_CARD_STR];
  assert_string_equal(pap_str(r.deals[1].cards[1], b), "M3");
  while (pf_run_to_move(&r) != PF_NOBODY) give_all(&r, 0); /* seat 0 meets M5 in round 2 */
  tu_expect_winners(&r, "0");
  tu_expect_view_of(&r, 1, "missions", "M5 M3");
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* PAP-9 shy: Shy cards                                                                       */
/* ------------------------------------------------------------------------------------------ */

/* Three players; round 1 gives seat 1 the six cards `first` (its last card last); in round 2
 * (seat 1 Headpointer) pile 1 is the Shy card `shy` (on top of a green card), piles 2 and 3 two
 * textless cards each. `who` lists, for seats 0, 1, 2 in turn, whether each may point at pile 1;
 * each then taps empty space. */
static void expect_shy(const char *first, const char *shy, const char *who) {
  pf_run r;
  char top[256];
  snprintf(top, sizeof top, "%s G %s B B R R", first, shy);
  start_pap(&r, 3, top, "shy=true");
  give_all(&r, 1);
  play(&r, "c1>1 c2>1 c3>2 c4>2 c5>3 c6>3");
  for (int seat = 0; seat < 3; seat++) {
    assert_int_equal(pf_run_to_move(&r), seat);
    tu_expect_legal(&r, who[seat] == 'y' ? "@1 @2 @3 @empty" : "@2 @3 @empty");
    if (who[seat] == 'n') {
      char why[128];
      snprintf(why, sizeof why, "pile 1 has the Shy card %s (", shy);
      tu_refuse(&r, "@1", why);
    }
    tu_play(&r, "@empty");
  }
  pf_run_free(&r);
}

/* Seat 1 is the Headpointer of round 2. */
static void test_shy_head_only(void **unused) {
  (void)unused;
  expect_shy("R G B P R R", "P:T1", "nyn");
}

static void test_shy_head_veto(void **unused) {
  (void)unused;
  expect_shy("R G B P R R", "P:T2", "yny");
}

/* Seat 1 leads with 1 point; in round 1 all three were level at 0, jointly in the lead, and none
 * could pick a Leader Veto pile. */
static void test_shy_leader_veto(void **unused) {
  (void)unused;
  expect_shy("R G B P R R:S+", "P:T3", "yny");
  pf_run r;
  start_pap(&r, 3, "P:T3 R G B R G", "shy=true");
  play(&r, "c2>1 c1>1 c3>2 c4>2 c5>3 c6>3");
  tu_expect_legal(&r, "@2 @3 @empty");
  tu_expect_view(&r, "levels.0.leaders", "0 1 2");
  pf_run_free(&r);
}

/* Seat 1 has 6 scored cards, the others none. */
static void test_shy_hand_min(void **unused) {
  (void)unused;
  expect_shy("R G B P R R", "P:T4", "yny");
}

static void test_shy_hand_plus(void **unused) {
  (void)unused;
  expect_shy("R G B P R R", "P:T5", "nyn");
}

/* Seat 1 has scored a green card but no purple one (the Shy card's colour below). */
static void test_shy_color_new(void **unused) {
  (void)unused;
  expect_shy("R G B R R R", "G:T6", "yny");
  expect_shy("R G B R R R", "P:T6", "yyy");
}

static void test_shy_color_same(void **unused) {
  (void)unused;
  expect_shy("R G B R R R", "G:T7", "nyn");
}

/* Seat 1 has scored a Shy card. */
static void test_shy_not_shy(void **unused) {
  (void)unused;
  expect_shy("R:T2 G B P R R", "P:T8", "yny");
}

/* The Headpointer cannot finish with every pile topped by a Shy card: placements that make it
 * impossible are not offered, in a split too; when every card to place is a Shy card, any
 * arrangement is allowed. */
static void test_shy_arrangement(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R:T1 G:T4 B R", "shy=true");
  play(&r, "c3>1 c4>1");
  tu_expect_legal(&r, "c1>2 c2>2"); /* on pile 1 a Shy card would be the last top left */
  tu_refuse(&r, "c1>1", "card 1 on pile 1 would leave every pile with a Shy card on top");
  play(&r, "c1>2");
  tu_expect_legal(&r, "c2>2");
  play(&r, "c2>2 @2 @2"); /* pile 2 (two Shy cards) splits; its cards are all Shy */
  tu_expect_legal(&r, "c1>1 c2>1");
  play(&r, "c1>1");
  tu_expect_legal(&r, "c2>2");
  pf_run_free(&r);
  start_pap(&r, 3, "R:T1 G:T4 B R G B", "shy=true");
  play(&r, "c1>1 c2>1 c3>1 c4>2 c5>3 c6>3 @1 @1 @empty"); /* pile 1 (two Shy cards, then B) splits */
  tu_expect_legal(&r, "c1>1 c2>1 c3>1");
  play(&r, "c3>1");
  tu_expect_legal(&r, "c1>2 c2>2"); /* on pile 1, the B would be covered for good */
  pf_run_free(&r);
  start_pap(&r, 2, "R:T1 G:T2 B:T2 R:T1", "shy=true");
  play(&r, "c1>1 c2>1 c3>1 c4>1"); /* all Shy: any arrangement */
  tu_expect_view(&r, "phase", "point");
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* PAP-9 actions: Action cards                                                                */
/* ------------------------------------------------------------------------------------------ */

static bool log_has(const pf_run *r, int seat, const char *line) {
  char *t = tu_view_text(r, seat);
  bool has = strstr(t, line) != NULL;
  if (!has) fprintf(stderr, "no \"%s\" in:\n%s\n", line, t);
  free(t);
  return has;
}

/* Before the piles are made: the Headpointer draws 2N + 6 cards. */
static void test_action_draw_more(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R G B R:A13", "actions=true");
  give_all(&r, 0); /* seat 0 holds Draw More */
  tu_expect_view(&r, "window", "before the piles are made");
  assert_int_equal(pf_run_to_move(&r), 0);
  tu_expect_legal(&r, "drawmore pass");
  tu_refuse(&r, "c1>1", "seat 0 is asked whether to use an action before the piles are made");
  play(&r, "drawmore");
  assert_int_equal(pf_run_to_move(&r), 1);
  tu_expect_view(&r, "unplaced_count", "10");
  tu_expect_view(&r, "deck", "60");
  tu_expect_view(&r, "rows.0.cards", "R G B"); /* the card left the row, and the game */
  tu_expect_view(&r, "out", "1");
  tu_expect_view(&r, "acted", "0");
  assert_true(log_has(&r, 1, "seat 0 used Draw More: the Headpointer draws 6 more cards"));
  pf_run_free(&r);
}

/* Before pointing: the player becomes the Headpointer (Head Reward counts for them), places the
 * splits, and the role passes on from them. */
static void test_action_headpointer(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 3, "R G B P G:H+ R:A3", "actions=true");
  give_all(&r, 2);
  play(&r, "c1>1 c2>1 c3>2 c4>2 c5>3 c6>3");
  tu_expect_view(&r, "window", "before pointing");
  assert_int_equal(pf_run_to_move(&r), 2);
  tu_expect_legal(&r, "headpointer pass");
  tu_expect_view(&r, "rows.2.values", "0 0 0 0 0 0");
  play(&r, "headpointer");
  tu_expect_view(&r, "head", "2");
  tu_expect_view(&r, "rows.2.values", "0 0 0 0 1");
  play(&r, "@1 @1 @2");
  assert_int_equal(pf_run_to_move(&r), 2); /* the new Headpointer splits pile 1 */
  play(&r, "c1>1 c2>2 @1 @2");
  tu_expect_view(&r, "head", "0"); /* round 3: the role passed on from seat 2 */
  pf_run_free(&r);
}

/* Before pointing: pile 2's cards go on top of pile 1 in their order. With shy, a merge that
 * would leave only a Shy card on top is not offered. */
static void test_action_merge(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R G B R:A6 G:T4 B P R", "actions=true shy=true");
  give_all(&r, 0);
  play(&r, "c1>1 c2>2 c3>2 c4>2"); /* pile 1: G:T4; pile 2: B P R */
  assert_int_equal(pf_run_to_move(&r), 0);
  tu_expect_legal(&r, "merge:2>1 pass"); /* merge:1>2 would leave G:T4 the only top */
  play(&r, "merge:2>1");
  tu_expect_view(&r, "levels.0.piles", "[G:T4 B P R]");
  tu_expect_legal(&r, "@1 @empty");
  pf_run_free(&r);
}

/* Round 1 of two players: seat 0 takes c1 under c2, seat 1 c3 under c4. */
#define SPLIT_ROUND1 "c1>1 c2>1 c3>2 c4>2 @1 @2"

/* Before pointing: a scored card of any player leaves the game. With pile, of the others' rows
 * only the top card can be seen, and so discarded; everyone whose row hides cards is asked. */
static void test_action_discard(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R R:A4 G:S+ B", "actions=true");
  play(&r, SPLIT_ROUND1);
  play(&r, "c1>1 c2>1 c3>2 c4>2");
  assert_int_equal(pf_run_to_move(&r), 0);
  tu_expect_legal(&r, "discard:p0.1 discard:p1.1 discard:p1.2 pass");
  tu_expect_told(&r, "discard:p1.1", 0, "use Discard: discard card 1 of seat 1: the green card \u201c+1\u201d");
  play(&r, "discard:p1.1");
  tu_expect_view(&r, "rows.1.cards", "B");
  tu_expect_view(&r, "out", "2");
  tu_expect_scores(&r, "0 0");
  pf_run_free(&r);
  start_pap(&r, 2, "R R:A4 G:S+ B", "actions=true pile=true");
  play(&r, SPLIT_ROUND1);
  tu_expect_view(&r, "asked", "1"); /* before the piles too: both rows hide a card */
  pass_actions(&r);
  play(&r, "c1>1 c2>1 c3>2 c4>2");
  assert_int_equal(pf_run_to_move(&r), 1); /* seat 1 hides a card: asked too, from the Headpointer */
  tu_expect_legal(&r, "pass");
  play(&r, "pass");
  tu_expect_legal(&r, "discard:p0.1 discard:p1.2 pass");
  pf_run_free(&r);
}

/* Before pointing: take another player's card, give one of one's own in its place. */
static void test_action_switch(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R R:A7 G:S+ B", "actions=true");
  play(&r, SPLIT_ROUND1);
  play(&r, "c1>1 c2>1 c3>2 c4>2");
  tu_expect_legal(&r, "switch:p1.1 switch:p1.2 pass");
  play(&r, "switch:p1.1");
  tu_expect_view(&r, "phase", "give");
  tu_expect_view(&r, "giving.to", "1");
  tu_expect_legal(&r, "give:1");
  play(&r, "give:1");
  tu_expect_view(&r, "rows.0.cards", "G:S+");
  tu_expect_view(&r, "rows.1.cards", "R B");
  assert_true(log_has(&r, 1, "seat 0 gave the textless red card to you for the green card \u201c+1\u201d"));
  pf_run_free(&r);
}

/* Before pointing: another card of one's row moves to its end (a Last Reward then counts). */
static void test_action_reorder(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R:L+ G B R:A8", "actions=true");
  give_all(&r, 0);
  play(&r, "c1>1 c2>1 c3>2 c4>2");
  tu_expect_legal(&r, "reorder:1 reorder:2 pass"); /* not B: last once the card has gone */
  play(&r, "reorder:1");
  tu_expect_view(&r, "rows.0.cards", "G B R:L+");
  tu_expect_view(&r, "rows.0.values", "0 0 1");
  pf_run_free(&r);
}

/* Before pointing: a colour's cards leave the piles (an emptied pile goes); they are discards,
 * which a lone tapper scores (PAP-6). */
static void test_action_color_stop(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R G B R:A14 R R:S+ G B", "actions=true");
  give_all(&r, 0);
  play(&r, "c1>1 c2>1 c3>2 c4>2"); /* pile 1: R R:S+; pile 2: G B */
  tu_expect_legal(&r, "colorstop:R colorstop:G colorstop:B pass");
  play(&r, "colorstop:R");
  tu_expect_view(&r, "levels.0.piles", "[G B]");
  tu_expect_view(&r, "discards", "R R:S+");
  play(&r, "@empty @1");
  tu_expect_view(&r, "rows.0.cards", "R G B R R:S+");
  tu_expect_view(&r, "rows.1.cards", "G B");
  pf_run_free(&r);
}

/* Before pointing: no other action this round; the next round they are back. */
static void test_action_action_stop(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R R:A15 G R:A9", "actions=true"); /* seat 1 holds Take All */
  play(&r, SPLIT_ROUND1);
  play(&r, "c1>1 c2>1 c3>1 c4>2");
  tu_expect_legal(&r, "actionstop pass");
  play(&r, "actionstop");
  tu_expect_view(&r, "action_stop", "true");
  play(&r, "@1 @1"); /* contested, but seat 1 is not asked for its Take All */
  tu_expect_view(&r, "levels.1.pointers", "0 1");
  play(&r, "c1>1 c2>2 c3>2 @1 @2");
  tu_expect_view(&r, "round", "3");
  tu_expect_view(&r, "action_stop", "false");
  pf_run_free(&r);
}

/* After the reveal: two piles swap contents; the choices stay. It is offered then only. */
static void test_action_swap(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R G B R:A1 G:D5 P R G", "actions=true");
  give_all(&r, 0);
  play(&r, "c1>1 c2>2 c3>2 c4>2"); /* pile 1: G:D5; pile 2: P R G */
  tu_refuse(&r, "swap:1+2", "Swap is used after the reveal (PAP-9), but now it is time to point (PAP-4)");
  play(&r, "@2 @1");
  tu_expect_view(&r, "window", "after the reveal");
  tu_expect_legal(&r, "swap:1+2 pass");
  play(&r, "swap:2+1"); /* either order */
  tu_expect_view(&r, "rows.0.cards", "R G B G:D5");
  tu_expect_view(&r, "rows.1.cards", "P R G");
  pf_run_free(&r);
}

/* After the reveal: one card from a pile one did not point at, scored at once. */
static void test_action_steal(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R G B R:A2 G:S+ P R:S+ G", "actions=true");
  give_all(&r, 0);
  play(&r, "c1>1 c2>1 c3>2 c4>2 @1 @2");
  tu_expect_legal(&r, "steal:c3 steal:c4 pass");
  tu_refuse(&r, "steal:c1", "'steal:c1' cannot be played now: Steal takes one card from a pile of the level you did not point at (PAP-9)");
  play(&r, "steal:c3");
  tu_expect_view(&r, "rows.0.cards", "R G B R:S+ G:S+ P");
  tu_expect_view(&r, "rows.1.cards", "G");
  pf_run_free(&r);
}

/* After the reveal: the contenders of one's contested pile play rock-paper-scissors, throws
 * hidden until all have thrown, then told in the log; the beaten lose the pile. Three draws: the pile is resolved as
 * usual. */
static void test_action_random(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R G B R:A5", "actions=true");
  give_all(&r, 0);
  play(&r, "c1>1 c2>1 c3>1 c4>2 @1 @1");
  tu_expect_legal(&r, "random:1 pass");
  play(&r, "random:1");
  tu_expect_view(&r, "phase", "rock-paper-scissors");
  tu_expect_legal(&r, "rock paper scissors");
  play(&r, "rock");
  assert_int_equal(pf_run_to_move(&r), 1);
  tu_expect_view_of(&r, 1, "rps.throws", "thrown null");
  tu_expect_told(&r, "paper", 0, "throws (shown when everyone has thrown)");
  pf_rng rng;
  pf_rng_seed(&rng, 4, 4);
  assert_true(tu_resampled(&r, 1, 20, "rps.throws.0", &rng) > 0);
  play(&r, "scissors");
  tu_expect_view(&r, "rows.0.size", "6"); /* R G B and the 3-card pile, alone */
  assert_true(log_has(&r, 0, "rock-paper-scissors for pile 1, throw 1: you rock; seat 1 scissors"));
  /* The JSON view's log tells every throw once all have thrown, as it tells the choices (PAP-4):
   * the pile was the round's last, so it is the round before's now. */
  json_t *v = tu_view(&r, PF_VIEW_PUBLIC), *log = json_object_get(v, "previous_log");
  bool told = false;
  for (size_t i = 0; i < json_array_size(log); i++)
    told |= strcmp(json_string_value(json_array_get(log, i)),
                   "rock-paper-scissors for pile 1, throw 1: seat 0 rock; seat 1 scissors") == 0;
  if (!told) fail_msg("no throws in the view's previous_log: %s", json_dumps(log, 0));
  json_decref(v);
  pf_run_free(&r);
  start_pap(&r, 2, "R G B R:A5", "actions=true");
  give_all(&r, 0);
  play(&r, "c1>1 c2>1 c3>1 c4>2 @1 @1 random:1 rock rock paper paper scissors scissors");
  tu_expect_view(&r, "levels.1.pointers", "0 1"); /* undecided: split as usual */
  pf_run_free(&r);
}

/* After the reveal: one wins a contested pile one points at, alone. */
static void test_action_take_all(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R G B R:A9", "actions=true");
  give_all(&r, 0);
  play(&r, "c1>1 c2>1 c3>1 c4>2 @1 @1");
  tu_expect_legal(&r, "takeall:1 pass");
  play(&r, "takeall:1");
  tu_expect_view(&r, "rows.0.size", "6");
  tu_expect_view(&r, "rows.1.size", "0");
  pf_run_free(&r);
  start_pap(&r, 2, "R G B R:A9", "actions=true"); /* uncontested: nothing to take */
  give_all(&r, 0);
  play(&r, "c1>1 c2>1 c3>1 c4>2 @1 @2");
  tu_expect_view(&r, "round", "3");
  pf_run_free(&r);
}

/* After the reveal: a contested pile is discarded, not split. */
static void test_action_take_none(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R G B R:A10", "actions=true");
  give_all(&r, 1);
  play(&r, "c1>1 c2>1 c3>1 c4>2 @1 @1");
  assert_int_equal(pf_run_to_move(&r), 1);
  tu_expect_legal(&r, "takenone:1 pass");
  play(&r, "takenone:1");
  tu_expect_view(&r, "round", "3");
  tu_expect_view(&r, "rows.0.size", "0");
  assert_true(log_has(&r, 0, "pile 1 (3 cards): Take None, discarded"));
  pf_run_free(&r);
}

/* After the reveal: win a contested pile alone by giving every other player a card of one's
 * row, in seat order from the next. */
static void test_action_trade(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 3, "R G B P G R:A16", "actions=true");
  give_all(&r, 0);
  play(&r, "c1>1 c2>1 c3>1 c4>2 c5>2 c6>3 @1 @1 @2");
  assert_int_equal(pf_run_to_move(&r), 0);
  tu_expect_legal(&r, "trade:1 pass");
  play(&r, "trade:1");
  tu_expect_view(&r, "giving.to", "1");
  tu_expect_legal(&r, "give:1 give:2 give:3 give:4 give:5");
  play(&r, "give:2");
  tu_expect_view(&r, "giving.to", "2");
  play(&r, "give:1");
  tu_expect_view(&r, "rows.0.size", "6"); /* B P G and the pile */
  tu_expect_view(&r, "rows.1.cards", "G");
  tu_expect_view(&r, "rows.2.size", "3"); /* R and pile 2 */
  tu_expect_view(&r, "rows.2.cards.0", "R");
  pf_run_free(&r);
}

/* PAP-8: with `pile`, the others (and the public) see a given card but not where in the giver's
 * row it lay. */
static void test_action_trade_pile_variant(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 3, "R G B P G R:A16", "actions=true pile=true");
  give_all(&r, 0);
  pass_actions(&r);
  play(&r, "c1>1 c2>1 c3>1 c4>2 c5>2 c6>3");
  pass_actions(&r);
  play(&r, "@1 @1 @2");
  while (pf_run_to_move(&r) != 0) tu_play(&r, "pass");
  play(&r, "trade:1");
  tu_expect_told(&r, "give:2", 0, "give card 2 of your row, the textless green card, to seat 1");
  tu_expect_told(&r, "give:2", PF_VIEW_ALL, "give card 2 of their row, the textless green card, to seat 1");
  tu_expect_told(&r, "give:2", 1, "give the textless green card to you");
  tu_expect_told(&r, "give:2", 2, "give the textless green card to seat 1");
  tu_expect_told(&r, "give:2", PF_VIEW_PUBLIC, "give the textless green card to seat 1");
  pf_run_free(&r);
}

/* After the reveal: point somewhere else; not at a pile whose Shy card bars the player. */
static void test_action_change_mind(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R G B R:A12", "actions=true");
  give_all(&r, 0);
  play(&r, "c1>1 c2>1 c3>2 c4>2 @1 @1");
  tu_expect_legal(&r, "mind:2 mind:empty pass");
  play(&r, "mind:2");
  tu_expect_view(&r, "rows.0.size", "5");
  tu_expect_view(&r, "rows.1.size", "2");
  pf_run_free(&r);
  start_pap(&r, 2, "R G B R:A12 G P:T1 B R", "actions=true shy=true");
  give_all(&r, 0);
  play(&r, "c1>1 c2>1 c3>2 c4>2 @2 @2"); /* pile 1: G under P:T1, for seat 1 (Headpointer) only */
  tu_expect_legal(&r, "mind:empty pass");
  pf_run_free(&r);
}

/* After the round's first reveal: the cards are placed anew, face up (G-5: equal cards are one
 * move), and everyone points again. Not after a split's reveal. */
static void test_action_redo(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R G B R:A11 G G B P", "actions=true");
  give_all(&r, 0);
  play(&r, "c1>1 c2>2 c3>2 c4>2 @1 @1");
  tu_expect_legal(&r, "redo pass");
  play(&r, "redo");
  tu_expect_view(&r, "phase", "place");
  assert_int_equal(pf_run_to_move(&r), 1);
  tu_expect_view_of(&r, 0, "unplaced_count", "4");
  tu_expect_view_of(&r, 0, "unplaced.0.card", "G");
  tu_expect_legal(&r, "c1>1 c3>1 c4>1");
  play(&r, "c1>1 c2>1 c3>2 c4>2 @2 @1");
  tu_expect_view(&r, "rows.0.cards", "R G B B P");
  tu_expect_view(&r, "rows.1.cards", "G G");
  pf_run_free(&r);
  start_pap(&r, 2, "R G B R:A11", "actions=true");
  give_all(&r, 0);
  play(&r, "c1>1 c2>1 c3>2 c4>2 @1 @1 pass c1>1 c2>2 @1 @1"); /* the split's reveal: not asked */
  tu_expect_view(&r, "round", "3");
  pf_run_free(&r);
}

/* The seats are asked from the Headpointer on, in seat order; after an action, those who passed
 * are asked again. */
static void test_actions_window_order(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 3, "R R:A4 G R:A3 B P", "actions=true");
  play(&r, "c1>1 c2>1 c3>2 c4>2 c5>3 c6>3 @1 @empty @2"); /* seat 1 scores the discards */
  play(&r, "c1>1 c2>1 c3>2 c4>2 c5>3 c6>3");
  assert_int_equal(pf_run_to_move(&r), 2); /* seat 1 (Headpointer) has no action: seat 2 first */
  play(&r, "pass");
  assert_int_equal(pf_run_to_move(&r), 0);
  play(&r, "discard:p1.1");
  assert_int_equal(pf_run_to_move(&r), 2); /* asked again after seat 0's action */
  play(&r, "headpointer");
  tu_expect_view(&r, "phase", "point");
  tu_expect_view(&r, "acted", "0 2");
  pf_run_free(&r);
}

/* One action per player per round: after Draw More, seat 0 is not asked before pointing although
 * it holds Headpointer; in the next round it is. */
static void test_actions_one_per_round(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 3, "R:A13 R:A3 G B P R", "actions=true");
  give_all(&r, 0);
  play(&r, "drawmore");
  place_all(&r);
  tu_expect_view(&r, "phase", "point");
  play(&r, "@1 @empty @empty");
  tu_expect_view(&r, "round", "3");
  place_all(&r);
  tu_expect_legal(&r, "headpointer pass");
  pf_run_free(&r);
}

/* A player out of the round by the rule may use no action (police and actions together). */
static void test_actions_not_when_out(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R:A2 G:P1 P B G P R R", "actions=true police=true");
  play(&r, POLICE_ROUND1); /* seat 1: R:A2 (Steal), G:P1 (Not Last); seat 0: P B */
  play(&r, "c1>1 c3>1 c2>2 c4>2 @2 @1"); /* seat 1 at the pile showing green: out */
  tu_expect_view(&r, "round", "3");
  tu_expect_view(&r, "rows.1.cards", "R:A2 G:P1");
  pf_run_free(&r);
  start_pap(&r, 2, "R:A2 G:P1 P B G P R R", "actions=true police=true");
  play(&r, POLICE_ROUND1);
  play(&r, "c1>1 c3>1 c2>2 c4>2 @2 @empty");
  assert_int_equal(pf_run_to_move(&r), 1);
  tu_expect_legal(&r, "steal:c1 steal:c2 steal:c3 steal:c4 pass");
  pf_run_free(&r);
}

/* Bad action moves are refused, saying what and why. */
static void test_actions_refusals(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R G B P", NULL);
  tu_refuse(&r, "swap:1+2", "there are no actions in this game: the expansion actions is off (PAP-9)");
  tu_refuse(&r, "pass", "there is no action to pass on now: the Headpointer is making the piles (PAP-3)");
  pf_run_free(&r);
  start_pap(&r, 2, "R G B R:A1", "actions=true");
  give_all(&r, 0);
  tu_refuse(&r, "swap:1+2", "Swap is used after the reveal (PAP-9), but now the Headpointer is making the piles (PAP-3)");
  play(&r, "c1>1 c2>1 c3>2 c4>2 @1 @2");
  tu_refuse(&r, "swap:1", "'swap:1' is not a Swap move: write swap:1+2 (piles 1 and 2)");
  tu_refuse(&r, "swap", "'swap' is not a Swap move: write swap:1+2 (piles 1 and 2)");
  tu_refuse(&r, "swap:1+9", "'swap:1+9' cannot be played now: Swap swaps the contents of two piles of the level (PAP-9)");
  tu_refuse(&r, "takeall:1", "seat 0 has no Take All card (A9) in its score row (PAP-9)");
  tu_refuse(&r, "colorstop:X", "Color Stop is used before pointing (PAP-9), but now seat 0 is asked whether to use an action after the reveal");
  tu_refuse(&r, "@1", "seat 0 is asked whether to use an action after the reveal (an action or pass)");
  tu_refuse(&r, "give:1", "nobody is giving a card now");
  tu_refuse(&r, "rock", "nobody is playing rock-paper-scissors now");
  tu_refuse(&r, "frobnicate", "'frobnicate' is not a move: place a card with c4>2, point with @2 or @empty, use an action");
  play(&r, "SWAP:1+2");
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* The greedy bot's rule of thumb (docs/strength.md)                                          */
/* ------------------------------------------------------------------------------------------ */

/* What the greedy bot at the seat to move plays, as its canonical string, must match the
 * extended regular expression `want`. */
static void expect_greedy(const pf_run *r, const char *want) {
  pf_bot bot;
  pf_error err;
  if (pf_bot_init(&bot, "greedy", r->setup.players, 1, r->game->to_move(r->state), &err) != 0) fail_msg("%s", err.msg);
  char got[PF_MOVE_STR];
  r->game->move_str(r->state, pf_bot_choose(&bot, r->game, r->state), got);
  pf_bot_free(&bot);
  regex_t re;
  assert_int_equal(regcomp(&re, want, REG_EXTENDED | REG_NOSUB), 0);
  int miss = regexec(&re, got, 0, NULL, 0);
  regfree(&re);
  if (miss) fail_msg("greedy plays %s, expected %s", got, want);
}

/* Greedy points at the pile that adds most to its score, or taps empty space when every pile
 * would cost it; as Headpointer it puts the card that helps it on a pile, and starts new piles
 * with the cards that do not. */
static void test_greedy_rule_of_thumb(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R:S+ G:S- B:D4 P", NULL);
  expect_greedy(&r, "^c1>1$"); /* only R:S+ adds to the Headpointer's score */
  play(&r, "c1>1");
  expect_greedy(&r, "^c[234]>2$"); /* the others go to a new pile, away from its good card */
  play(&r, "c2>2 c3>2 c4>2");
  /* Pile 1 (R:S+) adds 1; pile 2 (G:S- B:D4 P) adds -1 + 0 + 0. */
  expect_greedy(&r, "^@1$");
  pf_run_free(&r);
  start_pap(&r, 2, "R:S- G:S- B P", NULL);
  play(&r, "c1>1 c2>2 c3>2 c4>2");
  expect_greedy(&r, "^@empty$"); /* both piles cost 1 */
  pf_run_free(&r);
}

/* Greedy uses an Action card when, looked at to the end of the round, it gains the seat more than
 * passing (PAP-9 actions): Take All wins it a contested pile that adds 3 to its score, and it keeps
 * the card when the pile would cost it 3. */
static void test_greedy_uses_actions_that_help(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R G B R:A9 R:S+ G:S+ B:S+ P", "actions=true"); /* seat 0 holds Take All */
  give_all(&r, 0);
  play(&r, "c1>1 c2>1 c3>1 c4>2 @1 @1");
  tu_expect_legal(&r, "takeall:1 pass");
  expect_greedy(&r, "^takeall:1$");
  pf_run_free(&r);
  start_pap(&r, 2, "R G B R:A9 R:S- G:S- B:S- P", "actions=true");
  give_all(&r, 0);
  play(&r, "c1>1 c2>1 c3>1 c4>2 @1 @1");
  tu_expect_legal(&r, "takeall:1 pass");
  expect_greedy(&r, "^pass$");
  pf_run_free(&r);
}

/* Over 400 games of greedy against itself with actions, Action cards are used (counted by the
 * game's counter "actions", as `pilfer analyze` counts it), and not at every chance. */
static void test_greedy_uses_actions_in_play(void **unused) {
  (void)unused;
  const char *const seats[] = {"greedy", "greedy", "greedy"};
  pf_sim_config c = tu_sim_config("point-a-pile", 3, 400, false, seats);
  pf_error err;
  assert_int_equal(pf_options_parse_list(c.game->options, c.game->noptions, "actions=true", &c.options, &err), 0);
  c.analyze = true;
  pf_sim_result res;
  tu_sim_run(&c, 2, NULL, &res);
  int e = 0;
  while (strcmp(c.game->events[e], "actions") != 0) e++;
  long long used = res.sums.an.event[e];
  if (used < 400) fail_msg("greedy used %lld Action cards in 400 games", used);
  if (used > 400 * 20) fail_msg("greedy used %lld Action cards in 400 games: at every chance?", used);
}

/* ------------------------------------------------------------------------------------------ */
/* The zones of the JSON view (docs/views.md)                                                 */
/* ------------------------------------------------------------------------------------------ */

/* Each card of the JSON view carries its name and text as the text view writes them (docs/views.md:
 * "texts", parallel to a zone's cards, null where the card is unseen; a move's "card_text"), so
 * that the web page repeats no card text; cards.c is their one home. */
static void test_views_card_texts(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "P:T7 P R:G23 G:A13", "shy=true actions=true");
  json_t *v = tu_view(&r, 0), *z;
  size_t i;
  bool seen = false;
  json_array_foreach(json_object_get(v, "zones"), i, z) {
    json_t *cards = json_object_get(z, "cards"), *texts = json_object_get(z, "texts");
    assert_int_equal(json_array_size(texts), json_array_size(cards));
    for (size_t k = 0; k < json_array_size(cards); k++) {
      const char *card = json_string_value(json_array_get(cards, k));
      json_t *t = json_array_get(texts, k);
      if (!card) { /* unseen: nothing told of it */
        assert_true(json_is_null(t));
        continue;
      }
      pf_card c;
      assert_int_equal(pap_parse(card, &c), 0);
      pf_buf want = {0};
      pf_pap_card_text(c, &want);
      assert_string_equal(json_string_value(json_object_get(t, "text")), pf_buf_str(&want));
      assert_string_equal(json_string_value(json_object_get(t, "name")), pf_pap_kind_name(c));
      pf_buf_free(&want);
      seen = true;
    }
  }
  assert_true(seen); /* the Headpointer sees its drawn cards */
  json_t *m = json_array_get(json_object_get(v, "moves"), 0);
  assert_string_equal(json_string_value(json_object_get(m, "card")), "P:T7");
  assert_string_equal(json_string_value(json_object_get(json_object_get(m, "card_text"), "name")), "Color Same");
  assert_string_equal(json_string_value(json_object_get(json_object_get(m, "card_text"), "text")),
                      "shy Color Same: while on top, its pile is for players who have scored a card of its colour");
  json_decref(v);
  /* The other seat does not see the drawn cards (PAP-3): their texts are null too. */
  v = tu_view(&r, 1);
  json_array_foreach(json_object_get(v, "zones"), i, z) {
    if (strcmp(json_string_value(json_object_get(z, "id")), "drawn") != 0) continue;
    for (size_t k = 0; k < json_array_size(json_object_get(z, "texts")); k++)
      assert_true(json_is_null(json_array_get(json_object_get(z, "texts"), k)));
  }
  json_decref(v);
  pf_run_free(&r);
  /* A game whose cards have no texts has no "texts". */
  tu_start(&r, "steal-the-pile", 2, NULL, NULL);
  v = tu_view(&r, 0);
  assert_null(json_object_get(json_array_get(json_object_get(v, "zones"), 0), "texts"));
  json_decref(v);
  pf_run_free(&r);
}

/* The deck, the drawn cards still to place (seen by the Headpointer only, PAP-3), the piles
 * ("pap:0.2": pile 2 of the round's level) with, while placing, the new pile a card may start,
 * the cards discarded this round, the cards out of the game and the score rows. A placing takes
 * a drawn card to a pile; pointing goes to a pile, or for empty space to the round's discards
 * (PAP-6); Switch takes the other's card to the player's row (PAP-9). */
static void test_views_zones_and_moves(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R:S+ G:S- B:D4 P:L+", NULL);
  tu_expect_zone_ids(&r, 1, "deck drawn pap:0.1 discard out row:0 row:1");
  tu_expect_zone(&r, 0, "drawn", "cards", "R:S+ G:S- B:D4 P:L+");
  tu_expect_zone(&r, 1, "drawn", "cards", "null null null null");
  tu_expect_zone(&r, PF_VIEW_PUBLIC, "drawn", "cards", "null null null null");
  tu_expect_zone(&r, 1, "pap:0.1", "note", "new pile");
  tu_expect_move_zones(&r, 0, "c2>1", "drawn G:S- pap:0.1");
  play(&r, "c1>1 c2>1");
  tu_expect_zone_ids(&r, 1, "deck drawn pap:0.1 pap:0.2 discard out row:0 row:1");
  tu_expect_zone(&r, 1, "pap:0.1", "cards", "R:S+ G:S-");
  tu_expect_move_zones(&r, 0, "c3>2", "drawn B:D4 pap:0.2");
  play(&r, "c3>2 c4>2");
  tu_expect_zone_ids(&r, 1, "deck pap:0.1 pap:0.2 discard out row:0 row:1");
  tu_expect_move_zones(&r, 0, "@2", "null null pap:0.2");
  tu_expect_move_zones(&r, 0, "@empty", "null null discard");
  pf_run_free(&r);
  start_pap(&r, 2, "R R:A7 G:S+ B", "actions=true");
  play(&r, SPLIT_ROUND1);
  play(&r, "c1>1 c2>1 c3>2 c4>2");
  tu_expect_move_zones(&r, 0, "switch:p1.1", "row:1 G:S+ row:0");
  tu_expect_move_zones(&r, 0, "pass", "null null null");
  pf_run_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_greedy_rule_of_thumb),
      cmocka_unit_test(test_greedy_uses_actions_that_help),
      cmocka_unit_test(test_greedy_uses_actions_in_play),
      cmocka_unit_test(test_mission_m1_five_of_one_colour),
      cmocka_unit_test(test_mission_m2_two_of_every_colour),
      cmocka_unit_test(test_mission_m3_ten_points),
      cmocka_unit_test(test_mission_m4_six_with_text),
      cmocka_unit_test(test_mission_m5_five_textless),
      cmocka_unit_test(test_mission_m6_every_colour_six_points),
      cmocka_unit_test(test_mission_m7_every_colour_six_cards),
      cmocka_unit_test(test_mission_m8_twelve_cards),
      cmocka_unit_test(test_mission_m9_eight_cards_four_points),
      cmocka_unit_test(test_mission_m10_colours_h_and_l),
      cmocka_unit_test(test_missions_replace_the_goal),
      cmocka_unit_test(test_missions_end_event),
      cmocka_unit_test(test_missions_secret),
      cmocka_unit_test(test_shy_head_only),
      cmocka_unit_test(test_shy_head_veto),
      cmocka_unit_test(test_shy_leader_veto),
      cmocka_unit_test(test_shy_hand_min),
      cmocka_unit_test(test_shy_hand_plus),
      cmocka_unit_test(test_shy_color_new),
      cmocka_unit_test(test_shy_color_same),
      cmocka_unit_test(test_shy_not_shy),
      cmocka_unit_test(test_shy_arrangement),
      cmocka_unit_test(test_action_draw_more),
      cmocka_unit_test(test_action_headpointer),
      cmocka_unit_test(test_action_merge),
      cmocka_unit_test(test_action_discard),
      cmocka_unit_test(test_action_switch),
      cmocka_unit_test(test_action_reorder),
      cmocka_unit_test(test_action_color_stop),
      cmocka_unit_test(test_action_action_stop),
      cmocka_unit_test(test_action_swap),
      cmocka_unit_test(test_action_steal),
      cmocka_unit_test(test_action_random),
      cmocka_unit_test(test_action_take_all),
      cmocka_unit_test(test_action_take_none),
      cmocka_unit_test(test_action_trade),
      cmocka_unit_test(test_action_trade_pile_variant),
      cmocka_unit_test(test_action_change_mind),
      cmocka_unit_test(test_action_redo),
      cmocka_unit_test(test_actions_window_order),
      cmocka_unit_test(test_actions_one_per_round),
      cmocka_unit_test(test_actions_not_when_out),
      cmocka_unit_test(test_actions_refusals),
      cmocka_unit_test(test_views_zones_and_moves),
      cmocka_unit_test(test_views_card_texts),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
