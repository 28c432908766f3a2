/*
 * test_pap.c - Point-a-Pile, ruling by ruling (RULINGS PAP-1 .. PAP-9, with G-5 and G-6), card
 * type by card type, and the police expansion card by card (point-a-pile-cards.md):
 * test_police_<rule>. test_pap_expansions.c has the other expansions.
 *
 * Every test but the generator's starts from a fixed deck built by start_pap (tests/support/
 * paptest.c): the cards written come first (top card first), then textless filler cards in
 * colours the pool still has room for (PAP-1: 17 red, 17 green, 11 blue, 11 purple for 54 cards).
 * A round draws 2N cards (PAP-3), so with 2 players the first round plays cards 1-4, the second
 * cards 5-8.
 */
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/bot.h"
#include "games/point_a_pile/cards.h"
#include "support/paptest.h"
#include "testutil.h"

/* ------------------------------------------------------------------------------------------ */
/* The cards' notation (G-8, PAP-1, PAP-9; cards.h)                                           */
/* ------------------------------------------------------------------------------------------ */

/* G-8: a Point-a-Pile card names its colour, type and parameters, read in any case; the game gives
 * the core this notation (pf_game.cards), and a standard card still reads in it. */
static void test_G_8_pap_card_notation(void **unused) {
  (void)unused;
  assert_ptr_equal(pf_game_find("point-a-pile")->cards, &pf_pap_notation);
  expect_card("r", "R");
  expect_card("p:s-", "P:S-");
  expect_card("G:m+b", "G:M+B");
  expect_card("B:D4", "B:D4");
  expect_card("r:g34", "R:G34");
  expect_card("P:C25G", "P:C25G");
  expect_card("G:N46", "G:N46");
  expect_card("b:e-", "B:E-");
  expect_card("R:L+", "R:L+");
  expect_card("G:H-", "G:H-");
  expect_card("7h", "7H");
  /* The expansions' cards (PAP-9): rules, shy cards, actions by kind number; missions. */
  expect_card("r:p1", "R:P1");
  expect_card("G:P8", "G:P8");
  expect_card("b:t3", "B:T3");
  expect_card("P:A16", "P:A16");
  expect_card("g:a9", "G:A9");
  expect_card("m3", "M3");
  expect_card("m10:6p3b", "M10:6P3B");
  const char *bad[] = {/* unknown type, field out of range, X = Y, colour missing */
                       "R:Q", "R:D2", "R:D6", "G:G33", "B:C25", "P:N47", "R:S", "R:S*", "RR", "R:", "Y",
                       /* the expansions: kind out of range or written with a leading zero; a mission
                        * with a colour, mission 10 with C1 = C2 or H, L out of range */
                       "R:P0", "R:P9", "R:P01", "G:T9", "B:A17", "B:A", "P:A100", "M0", "M11", "M01", "R:M1", "M10",
                       "M10:5R3R", "M10:7R3G", "M10:5R2G", "M10:5R", "M1:5R3G"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    pf_card c;
    if (pap_parse(bad[i], &c) == 0) fail_msg("'%s' should not be a card", bad[i]);
  }
  pf_card k;
  assert_int_equal(pap_parse("B:A16", &k), 0);
  assert_int_equal(pf_pap_type(k), PF_PAP_ACTION);
  assert_int_equal(pf_pap_kind(k), PF_PAP_TRADE);
  assert_string_equal(pf_pap_kind_name(k), "Trade");
  assert_int_equal(pap_parse("M10:5R3G", &k), 0);
  assert_int_equal(pf_pap_kind(k), PF_PAP_MISSIONS);
  pf_card c0;
  assert_int_equal(pap_parse("P:C25G", &c0), 0);
  assert_int_equal(pf_pap_colour(c0), PF_PAP_PURPLE);
  assert_int_equal(pf_pap_type(c0), PF_PAP_SPECIFIC);
  assert_int_equal(pf_pap_a(c0), 2);
  assert_int_equal(pf_pap_b(c0), 5);
  assert_int_equal(pf_pap_c(c0), PF_PAP_GREEN);
  /* Every code from PF_CARD_GAME up round-trips in the notation; the valid codes are exactly those
   * with a notation of their own, the rest are written #N. */
  int pap = 0;
  for (int i = PF_CARD_GAME; i < PF_CARD_NONE; i++) {
    char buf[PF_CARD_STR];
    pf_card back;
    assert_int_equal(pap_parse(pap_str((pf_card)i, buf), &back), 0);
    assert_int_equal(back, i);
    assert_int_equal(buf[0] != '#', pf_pap_valid((pf_card)i));
    pap += pf_pap_valid((pf_card)i);
  }
  /* 4 colours x (1 + 2 + 8 + 3 + 12 + 48 + 8 + 2 + 2 + 2) regular cards (point-a-pile-cards.md),
   * 4 x (8 rules + 8 shy cards + 16 actions), missions 1-9 and 2 x 3 x 4 x 3 of mission 10 (H, L,
   * C1, C2 != C1). */
  assert_int_equal(pap, 4 * 88 + 4 * (8 + 8 + 16) + 9 + 72);
  /* On a terminal each card is in its colour, a mission in none. */
  pf_style colour = {.color = true};
  char buf[32];
  assert_int_equal(pap_parse("G:S+", &k), 0);
  assert_string_equal(pf_card_render_in(&pf_pap_notation, k, &colour, buf), "\x1b[1;32mG:S+\x1b[0m");
  assert_int_equal(pap_parse("M3", &k), 0);
  assert_string_equal(pf_card_render_in(&pf_pap_notation, k, &colour, buf), "M3");
}

/* ------------------------------------------------------------------------------------------ */
/* PAP-1: the deck                                                                            */
/* ------------------------------------------------------------------------------------------ */

static void deck_of_seed(uint64_t seed, int players, pf_deal *out) {
  pf_run r;
  pf_setup s = {.players = players, .seed = seed};
  const pf_game *g = pf_game_find("point-a-pile");
  pf_options_default(g->options, g->noptions, &s.options);
  pf_error err;
  if (pf_run_start(&r, g, &s, &err) != 0) fail_msg("%s", err.msg);
  *out = r.deals[0];
  pf_run_free(&r);
}

/* The same seed gives the same deck whatever the player count; another seed another deck. */
static void test_PAP_1_deck_reproducible(void **unused) {
  (void)unused;
  pf_deal a, b, c;
  deck_of_seed(42, 2, &a);
  deck_of_seed(42, 6, &b);
  deck_of_seed(43, 2, &c);
  assert_int_equal(a.ncards, NCARDS);
  assert_memory_equal(a.cards, b.cards, sizeof a.cards[0] * NCARDS);
  assert_true(memcmp(a.cards, c.cards, sizeof a.cards[0] * NCARDS) != 0);
  for (int i = 0; i < NCARDS; i++) assert_true(pf_pap_valid(a.cards[i]));
}

/* Over 10,000 generated decks (540,000 cards) the share of each type is its weight of 15, the
 * share of each colour its share of the pool (17, 17, 11, 11 of 56), S is + half the time and W
 * three times in four. Tolerance: 5 standard errors of a binomial share; with the fixed seeds
 * 1..10000 the test is deterministic, and a weight off by a tenth fails it. */
static void expect_share(const char *what, long hits, long n, double want) {
  double got = (double)hits / (double)n, se = sqrt(want * (1 - want) / (double)n);
  if (fabs(got - want) > 5 * se) fail_msg("%s: share %.5f, expected %.5f +- %.5f", what, got, want, 5 * se);
}

static void test_PAP_1_deck_weights(void **unused) {
  (void)unused;
  static const double WEIGHT[PF_PAP_TYPES] = {7, 1, 1, 1, 1, 1, 1, 1, 0.5, 0.5};
  static const char *const NAMES[PF_PAP_TYPES] = {"textless", "Score", "Color Match", "Color Diff", "Color Group",
                                                  "Color Specific", "Num Cards", "Empty Reward", "Last Reward",
                                                  "Head Reward"};
  long type[PF_PAP_TYPES] = {0}, colour[PF_PAP_COLOURS] = {0}, s_plus = 0, s_n = 0, w_plus = 0, w_n = 0, n = 0;
  long xy_equal = 0, x_of[8] = {0}, x_n = 0;
  for (uint64_t seed = 1; seed <= 10000; seed++) {
    pf_deal d;
    deck_of_seed(seed, 2, &d);
    int per[PF_PAP_COLOURS] = {0};
    for (int i = 0; i < d.ncards; i++, n++) {
      pf_card c = d.cards[i];
      int t = pf_pap_type(c);
      type[t]++;
      colour[pf_pap_colour(c)]++;
      per[pf_pap_colour(c)]++;
      if (t == PF_PAP_SCORE || t == PF_PAP_HEAD) s_plus += pf_pap_sign(c) > 0, s_n++;
      if (t == PF_PAP_MATCH || t == PF_PAP_EMPTY || t == PF_PAP_LAST) w_plus += pf_pap_sign(c) > 0, w_n++;
      if (t == PF_PAP_GROUP || t == PF_PAP_SPECIFIC) xy_equal += pf_pap_a(c) == pf_pap_b(c), x_of[pf_pap_a(c)]++, x_n++;
    }
    /* Never more of a colour than the pool holds. */
    assert_true(per[0] <= 17 && per[1] <= 17 && per[2] <= 11 && per[3] <= 11);
  }
  for (int t = 0; t < PF_PAP_TYPES; t++) expect_share(NAMES[t], type[t], n, WEIGHT[t] / 15);
  expect_share("red", colour[PF_PAP_RED], n, 17.0 / 56);
  expect_share("green", colour[PF_PAP_GREEN], n, 17.0 / 56);
  expect_share("blue", colour[PF_PAP_BLUE], n, 11.0 / 56);
  expect_share("purple", colour[PF_PAP_PURPLE], n, 11.0 / 56);
  expect_share("S is +1", s_plus, s_n, 0.5);
  expect_share("W is +1", w_plus, w_n, 0.75);
  for (int x = 2; x <= 5; x++) expect_share("X of Color Group/Specific", x_of[x], x_n, 0.25);
  assert_int_equal(xy_equal, 0); /* drawn without replacement */
}

/* Records store the generated cards: a game started from its own deck replays identically, and a
 * deck that is not one the generator could make is refused, saying why. */
static void test_PAP_1_explicit_deck(void **unused) {
  (void)unused;
  pf_deal d;
  deck_of_seed(7, 3, &d);
  pf_run a, b;
  tu_start(&a, "point-a-pile", 3, NULL, NULL); /* seed 1 */
  tu_start(&b, "point-a-pile", 3, &a.deals[0], NULL);
  char *va = view_text_of(&a, PF_VIEW_ALL), *vb = view_text_of(&b, PF_VIEW_ALL);
  assert_string_equal(va, vb);
  free(va);
  free(vb);
  pf_deal bad = d;
  bad.cards[0] = pf_card_make(7, PF_HEARTS);
  tu_refuse_start("point-a-pile", 3, &bad, 1, NULL, "card 1, 7H, is not a Point-a-Pile card");
  bad = d;
  bad.ncards = 53;
  tu_refuse_start("point-a-pile", 3, &bad, 1, NULL, "the deck has 53 cards, the game needs 54");
  for (int i = 0; i < NCARDS; i++) bad.cards[i] = pf_pap_make(PF_PAP_BLUE, PF_PAP_COLOR, 0, 0, 0);
  bad.ncards = NCARDS;
  tu_refuse_start("point-a-pile", 3, &bad, 1, NULL, "the deck has 54 blue cards; the colour pool of 54 cards has only 11");
  pf_run_free(&a);
  pf_run_free(&b);
}

/* ------------------------------------------------------------------------------------------ */
/* PAP-2, PAP-3: players, making piles                                                        */
/* ------------------------------------------------------------------------------------------ */

static void test_PAP_2_players_and_headpointer(void **unused) {
  (void)unused;
  tu_refuse_start("point-a-pile", 1, NULL, 0, NULL, "point-a-pile is for 2 to 6 players, not 1");
  tu_refuse_start("point-a-pile", 7, NULL, 0, NULL, "point-a-pile is for 2 to 6 players, not 7");
  pf_run r;
  start_pap(&r, 3, "", NULL);
  tu_expect_view(&r, "head", "0");
  assert_int_equal(pf_run_to_move(&r), 0); /* seat 0 makes the first piles */
  give_all(&r, 1);
  tu_expect_view(&r, "head", "1"); /* the next round: the role passed to seat 1 */
  assert_int_equal(pf_run_to_move(&r), 1);
  give_all(&r, 2);
  give_all(&r, 0);
  tu_expect_view(&r, "head", "0"); /* 3 -> 0 */
  pf_run_free(&r);
}

/* 2N cards are drawn; at most N piles; a new pile takes the next number; a later card lies on
 * top. */
static void test_PAP_3_making_piles(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R:S+ G:S- B:D4 P:L+ R:E+", NULL);
  tu_expect_view(&r, "unplaced_count", "4");
  tu_expect_view(&r, "deck", "50");
  /* Every card on pile 1 (the first pile), nothing else yet. */
  tu_expect_legal(&r, "c1>1 c2>1 c3>1 c4>1");
  play(&r, "c3>1");
  tu_expect_legal(&r, "c1>1 c1>2 c2>1 c2>2 c4>1 c4>2");
  play(&r, "c1>2 c4>1");
  /* Two piles for two players: no third. */
  tu_expect_legal(&r, "c2>1 c2>2");
  tu_refuse(&r, "c2>3", "there are already 2 piles, the most there may be (PAP-3)");
  tu_refuse(&r, "c1>1", "card 1 is already placed (PAP-3)");
  tu_refuse(&r, "c9>1", "there is no drawn card 9: cards 1-4 were drawn this round");
  tu_refuse(&r, "@1", "the Headpointer is still making the piles");
  play(&r, "c2>1");
  tu_expect_view(&r, "levels.0.piles", "[B:D4 P:L+ G:S-] [R:S+]");
  tu_expect_view(&r, "levels.0.numbers", "[3 4 2] [1]");
  tu_refuse(&r, "c1>1", "the piles are made: it is time to point");
  pf_run_free(&r);
}

/* The drawn cards are the Headpointer's to see until placed: the others see how many. */
static void test_PAP_3_drawn_cards_hidden(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R:S+ G:S- B:D4 P:L+", NULL);
  tu_expect_view_of(&r, 0, "unplaced.3.card", "P:L+");
  tu_expect_view_of(&r, 1, "unplaced", "absent");
  tu_expect_view_of(&r, 1, "unplaced_count", "4");
  char *t = tu_view_text(&r, 1);
  if (strstr(t, "R:S+") || !strstr(t, "The Headpointer has 4 drawn cards still to place.")) fail_msg("seat 1 sees:\n%s", t);
  free(t);
  /* Placed, a card is face up for everyone, and the move that places it says which it is. */
  tu_expect_told(&r, "c1>1", 1, "put the red card \u201c+1\u201d on a new pile 1");
  play(&r, "c1>1");
  tu_expect_view_of(&r, 1, "levels.0.piles", "[R:S+]");
  tu_expect_view_of(&r, 1, "unplaced_count", "3");
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* PAP-4: pointing at once                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* Seat 1's view, text and legal moves are the same whatever seat 0 pointed at, before seat 1 has
 * chosen; after the reveal, everyone sees every choice. */
static void test_PAP_4_choices_hidden_until_all_chose(void **unused) {
  (void)unused;
  const char *choices[] = {"@1", "@2", "@empty"};
  char *json[3], *text[3], *legal[3];
  for (int i = 0; i < 3; i++) {
    pf_run r;
    start_pap(&r, 2, "R:S+ G:S- B:D4 P:L+", NULL);
    play(&r, "c1>1 c2>1 c3>2 c4>2");
    tu_play(&r, choices[i]);
    assert_int_equal(pf_run_to_move(&r), 1);
    json[i] = view_text_of(&r, 1);
    text[i] = tu_view_text(&r, 1);
    legal[i] = tu_legal(&r);
    tu_expect_view_of(&r, 1, "levels.0.choices", "chosen null");
    tu_expect_view_of(&r, 0, "levels.0.choices", i == 2 ? "empty null" : i == 0 ? "1 null" : "2 null");
    tu_expect_told(&r, "@1", 0, "points (shown when everyone has chosen)");
    tu_expect_view_of(&r, PF_VIEW_PUBLIC, "levels.0.choices", "chosen null"); /* a spectator */
    tu_expect_told(&r, "@1", PF_VIEW_PUBLIC, "points (shown when everyone has chosen)");
    pf_run_free(&r);
  }
  for (int i = 1; i < 3; i++) {
    assert_string_equal(json[0], json[i]);
    assert_string_equal(text[0], text[i]);
    assert_string_equal(legal[0], legal[i]);
  }
  assert_string_equal(legal[0], "@1 @2 @empty");
  for (int i = 0; i < 3; i++) free(json[i]), free(text[i]), free(legal[i]);
  /* The reveal: seat 0 pile 1, seat 1 pile 2, each scores their own. */
  pf_run r;
  start_pap(&r, 2, "R:S+ G:S- B:D4 P:L+", NULL);
  play(&r, "c1>1 c2>1 c3>2 c4>2 @1 @2");
  char *t = tu_view_text(&r, 1);
  if (!strstr(t, "Pointing: seat 0 at pile 1; you at pile 2")) fail_msg("no reveal in:\n%s", t);
  free(t);
  tu_expect_view(&r, "rows.0.cards", "R:S+ G:S-");
  tu_expect_view(&r, "rows.1.cards", "B:D4 P:L+");
  pf_run_free(&r);
}

/* PAP-4: the seats pointing at once are one choosing group (game.h: choosing), so a server may
 * take their choices in any order: all of them at first, fewer as they choose, one when placing. */
static void test_PAP_4_choosing_group(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 3, "R:S+ G:S- B:D4 P:L+ R:D4 G:D4", NULL);
  int seats[PF_MAX_PLAYERS];
  assert_int_equal(pf_choosing(r.game, r.state, seats), 1); /* the Headpointer places alone */
  play(&r, "c1>1 c2>1 c3>2 c4>2 c5>3 c6>3");
  assert_int_equal(pf_choosing(r.game, r.state, seats), 3);
  assert_int_equal(seats[0], 0);
  assert_int_equal(seats[1], 1);
  assert_int_equal(seats[2], 2);
  tu_play(&r, "@1");
  assert_int_equal(pf_choosing(r.game, r.state, seats), 2);
  assert_int_equal(seats[0], 1);
  assert_int_equal(seats[1], 2);
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* PAP-5: resolution                                                                          */
/* ------------------------------------------------------------------------------------------ */

/* One player: they score the pile from the bottom card up; nobody: discarded. */
static void test_PAP_5_scored_bottom_up_and_discarded(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R:S+ G:S- B:D4 P:L+", NULL);
  /* Pile 1: c1, then c3 and c4 on top; pile 2: c2. */
  play(&r, "c1>1 c2>2 c3>1 c4>1 @1 @1");
  /* Pile 1 contested by both, 3 cards: split. */
  tu_expect_view(&r, "levels.1.pointers", "0 1");
  play(&r, "c4>1 c1>2 c3>2");
  play(&r, "@2 @1");
  /* Split pile 1 (c4) to seat 1; split pile 2 (c1 below c3) to seat 0; pile 2 (c2) nobody. */
  tu_expect_view(&r, "rows.0.cards", "R:S+ B:D4");
  tu_expect_view(&r, "rows.1.cards", "P:L+");
  tu_expect_view(&r, "out", "1"); /* nobody tapped empty space: the discard left the game */
  pf_run_free(&r);
}

/* A split contested twice: seats 0 and 1 want the 3-card pile, then again one of its halves, and
 * only they point after each split; seat 2's pile is resolved after the splits. */
static void test_PAP_5_split_contested_twice(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 3, "R:S+ G:S- B:D4 P:L+ R:E+ G:H+", NULL);
  play(&r, "c1>1 c2>1 c3>1 c4>2 c5>2 c6>3");
  play(&r, "@1 @1 @2");
  /* Split of pile 1 among seats 0 and 1: seat 2 does not point. */
  tu_expect_view(&r, "levels.1.pointers", "0 1");
  assert_int_equal(pf_run_to_move(&r), 0);
  /* A split makes at least two piles: the last card cannot join the only pile. */
  play(&r, "c1>1 c2>1");
  tu_expect_legal(&r, "c3>2");
  tu_refuse(&r, "c3>1", "a split makes at least two piles (PAP-5)");
  play(&r, "c3>2");
  play(&r, "@1 @1"); /* contested again: [c1 c2] splits once more */
  tu_expect_view(&r, "levels.2.pointers", "0 1");
  play(&r, "c2>1 c1>2 @2 @1");
  /* Seat 0: c1; seat 1: c2; the lone B:D4 (pile 2 of the first split) nobody wanted. */
  tu_expect_view(&r, "rows.0.cards", "R:S+");
  tu_expect_view(&r, "rows.1.cards", "G:S-");
  /* Then the round's pile 2 went to seat 2 alone; pile 3 to nobody. */
  tu_expect_view(&r, "rows.2.cards", "P:L+ R:E+");
  tu_expect_view(&r, "round", "2");
  char *t = tu_view_text(&r, 0);
  if (!strstr(t, "pile 1 of the split (2 cards): wanted by 2 players, split")) fail_msg("log:\n%s", t);
  free(t);
  pf_run_free(&r);
}

/* Several players at a 1-card pile: discarded. */
static void test_PAP_5_contested_single_card_discarded(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R:S+ G:S- B:D4 P:L+", NULL);
  play(&r, "c1>1 c2>2 c3>2 c4>2 @1 @1");
  tu_expect_view(&r, "rows.0.size", "0");
  tu_expect_view(&r, "rows.1.size", "0");
  tu_expect_view(&r, "out", "4"); /* the single card and the pile nobody wanted */
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* PAP-6: empty space                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* Exactly one tapper scores every card discarded in the round, in the order discarded. */
static void test_PAP_6_one_tapper_scores_the_discards(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 3, "R:S+ G:S- B:D4 P:L+ R:E+ G:H+", NULL);
  /* Pile 1: c1 (single); pile 2: c2 under c3; pile 3: c4 c5 c6. */
  play(&r, "c1>1 c2>2 c3>2 c4>3 c5>3 c6>3");
  play(&r, "@1 @1 @empty");
  /* Pile 1 contested single: discarded; pile 2 nobody: discarded; pile 3 nobody: discarded. */
  tu_expect_view(&r, "rows.2.cards", "R:S+ G:S- B:D4 P:L+ R:E+ G:H+");
  tu_expect_view(&r, "out", "0");
  pf_run_free(&r);
}

/* A tap in a split counts too; two tappers score nothing and the discards leave the game. */
static void test_PAP_6_two_tappers_score_nothing(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 3, "R:S+ G:S- B:D4 P:L+ R:E+ G:H+", NULL);
  play(&r, "c1>1 c2>1 c3>2 c4>3 c5>3 c6>3");
  play(&r, "@1 @1 @empty"); /* seat 2 taps; pile 1 splits between seats 0 and 1 */
  play(&r, "c1>1 c2>2 @empty @2");    /* seat 0 taps in the split */
  tu_expect_view(&r, "rows.1.cards", "G:S-");
  tu_expect_view(&r, "rows.0.size", "0");
  tu_expect_view(&r, "rows.2.size", "0");
  tu_expect_view(&r, "out", "5"); /* c1, then piles 2 and 3 */
  char *t = tu_view_text(&r, 0);
  if (!strstr(t, "Empty space: tapped by 2 players, so the 5 discarded cards left the game")) fail_msg("log:\n%s", t);
  free(t);
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* PAP-7: scores and end                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* A round that leaves a player at 10 or more ends the game; the highest score wins. */
static void test_PAP_7_ten_points_end_the_game(void **unused) {
  (void)unused;
  pf_run r;
  /* Seat 1 takes R:D5 G:D5 B:D5 P:S+: all 4 colours, 5 + 5 + 5 + 1 = 16. */
  start_pap(&r, 2, "R:D5 G:D5 B:D5 P:S+", NULL);
  give_all(&r, 1);
  tu_expect_scores(&r, "0 16");
  assert_int_equal(pf_run_to_move(&r), PF_NOBODY);
  tu_expect_winners(&r, "1");
  pf_run_free(&r);
  /* 9 points: the game goes on. */
  start_pap(&r, 2, "R:D3 G:D3 B:D3 P:D4", NULL);
  give_all(&r, 0);
  tu_expect_scores(&r, "13 0");
  assert_int_equal(pf_run_to_move(&r), PF_NOBODY);
  pf_run_free(&r);
  start_pap(&r, 2, "R:D3 G:D3 B:D3 P:S+", NULL);
  give_all(&r, 0);
  tu_expect_scores(&r, "10 0");
  assert_int_equal(pf_run_to_move(&r), PF_NOBODY);
  pf_run_free(&r);
  start_pap(&r, 2, "R:D3 G:D3 B:D3 P", NULL);
  give_all(&r, 0);
  tu_expect_scores(&r, "9 0");
  assert_int_equal(pf_run_to_move(&r), 1); /* below 10: the next round */
  pf_run_free(&r);
}

/* PAP-7 (revised): "the game ends as soon as a player has 10 points": at the first change to a
 * score row that gives anyone 10, the rest of the round unplayed. Seat 0 reaches exactly 10 with
 * pile 1; pile 2 would have given seat 1 20 points, and before the revision seat 1 won at the end
 * of the round with 20. Now pile 2 is never scored and seat 0 wins. */
static void test_PAP_7_revised_the_game_ends_at_once(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 6, "R:D5 G:D5 B P R:D5 G:D5 B:D5 P:D5 R G B P", NULL);
  play(&r, "c1>1 c2>1 c3>1 c4>1 c5>2 c6>2 c7>2 c8>2 c9>3 c10>3 c11>3 c12>3");
  play(&r, "@1 @2 @empty @empty @empty @empty");
  assert_int_equal(pf_run_to_move(&r), PF_NOBODY);
  tu_expect_scores(&r, "10 0 0 0 0 0");
  tu_expect_winners(&r, "0");
  tu_expect_view(&r, "rows.1.cards", "");
  char *t = tu_view_text(&r, 1);
  if (!strstr(t, "pile 1 (4 cards): seat 0 scored it") || strstr(t, "pile 2 (4 cards)")) fail_msg("log:\n%s", t);
  free(t);
  /* The JSON view's log, after the game: what every seat chose (PAP-4), and what became of pile
   * 1; a spectator's too. */
  json_t *v = tu_view(&r, PF_VIEW_PUBLIC), *log = json_object_get(v, "log");
  assert_int_equal(json_array_size(log), 2);
  assert_string_equal(json_string_value(json_array_get(log, 0)),
                      "Pointing: seat 0 at pile 1; seat 1 at pile 2; seat 2 at empty space; seat 3 at empty space; "
                      "seat 4 at empty space; seat 5 at empty space");
  assert_string_equal(json_string_value(json_array_get(log, 1)), "pile 1 (4 cards): seat 0 scored it");
  json_decref(v);
  pf_run_free(&r);
}

/* When the deck is empty at the start of a round, the game ends; equal best scores share the win
 * (G-6). 54 cards with 6 players: 4 rounds of 12 and one of 6. */
static void test_PAP_7_empty_deck_ends_and_ties_share(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 6, "", NULL); /* all textless: every score stays 0 */
  int rounds = 0;
  while (pf_run_to_move(&r) != PF_NOBODY) {
    tu_expect_view(&r, "unplaced_count", rounds < 4 ? "12" : "6");
    give_all(&r, rounds % 6);
    rounds++;
  }
  assert_int_equal(rounds, 5);
  tu_expect_view(&r, "deck", "0");
  tu_expect_winners(&r, "0 1 2 3 4 5");
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* Card values, type by type (point-a-pile-cards.md)                                          */
/* ------------------------------------------------------------------------------------------ */

/* Seat 0 takes the first four cards (2 players), and the values of its row are `values`. */
static void expect_values(const char *cards, const char *values, const char *score) {
  pf_run r;
  start_pap(&r, 2, cards, NULL);
  give_all(&r, 0);
  tu_expect_view(&r, "rows.0.values", values);
  tu_expect_view(&r, "scores.0", score);
  pf_run_free(&r);
}

static void test_card_textless(void **unused) {
  (void)unused;
  expect_values("R G B P", "0 0 0 0", "0");
}

static void test_card_score(void **unused) {
  (void)unused;
  expect_values("R:S+ G:S- B:S- P", "1 -1 -1 0", "-1"); /* scores can be negative */
}

static void test_card_color_match(void **unused) {
  (void)unused;
  expect_values("R:M+G G G:M-G B", "2 0 -2 0", "0");   /* counts itself when of its colour */
  expect_values("R:M+R R:M-B B P", "2 -1 0 0", "1");
}

static void test_card_color_diff(void **unused) {
  (void)unused;
  expect_values("R:D4 G B P", "4 0 0 0", "4");
  expect_values("R:D5 G B G", "0 0 0 0", "0"); /* no purple */
}

static void test_card_color_group(void **unused) {
  (void)unused;
  expect_values("R:G34 R R R", "3 0 0 0", "3"); /* 4 red cards, itself included */
  expect_values("R:G34 R R B", "0 0 0 0", "0"); /* at most 3 of a colour */
  expect_values("B:G52 G G R", "5 0 0 0", "5"); /* any colour: 2 green */
}

static void test_card_color_specific(void **unused) {
  (void)unused;
  expect_values("B:C23B B B G", "2 0 0 0", "2"); /* 3 blue cards, itself included */
  expect_values("B:C23B B R G", "0 0 0 0", "0"); /* 2 blue */
  expect_values("R:C32G G G R", "3 0 0 0", "3"); /* the colour named, not the card's */
}

static void test_card_num_cards(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R:N45 G B P  P:N36 R G  G  R B", NULL);
  give_all(&r, 0);
  tu_expect_view(&r, "rows.0.values", "0 0 0 0"); /* 4 cards: fewer than 5 */
  give_all(&r, 0);
  tu_expect_view(&r, "rows.0.values", "4 0 0 0 3 0 0 0"); /* 8 cards: at least 5 and at least 6 */
  pf_run_free(&r);
  start_pap(&r, 3, "R:N26 G B P R:N46 R", NULL);
  give_all(&r, 0);
  tu_expect_view(&r, "rows.0.values", "2 0 0 0 4 0"); /* exactly 6: "at least" */
  pf_run_free(&r);
}

static void test_card_empty_reward(void **unused) {
  (void)unused;
  expect_values("R:E+ G B:E- P", "2 0 -2 0", "0");
}

static void test_card_last_reward(void **unused) {
  (void)unused;
  /* The top card of the pile becomes the last card: here c4, L-. */
  expect_values("R:L+ G B P:L-", "0 0 0 -1", "-1");
  expect_values("G B P R:L+", "0 0 0 1", "1");
}

static void test_card_head_reward(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R:H+ G:H- B P", NULL);
  give_all(&r, 0); /* seat 0 is Headpointer in round 1; scored at its end */
  /* The round is over: the role passed to seat 1, so seat 0's Head cards count nothing now. */
  tu_expect_view(&r, "head", "1");
  tu_expect_view(&r, "rows.0.values", "0 0 0 0");
  give_all(&r, 1);
  /* Round 3: seat 0 is Headpointer again: +1 - 1. */
  tu_expect_view(&r, "head", "0");
  tu_expect_view(&r, "rows.0.values", "1 -1 0 0");
  pf_run_free(&r);
  /* The end of round 1 is judged with the round's Headpointer: 3 + 3 + 3 + 1 = 10 ends it. */
  start_pap(&r, 2, "P:H+ R:D3 G:D3 B:D3", NULL);
  give_all(&r, 0);
  assert_int_equal(pf_run_to_move(&r), PF_NOBODY);
  tu_expect_scores(&r, "10 0");
  pf_run_free(&r);
  /* Held by a player who is not Headpointer, the same row is worth 9: the game goes on. */
  start_pap(&r, 2, "P:H+ R:D3 G:D3 B:D3", NULL);
  give_all(&r, 1);
  tu_expect_scores(&r, "0 10"); /* seat 1 is Headpointer of round 2 now */
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* PAP-8: the pile variant                                                                    */
/* ------------------------------------------------------------------------------------------ */

static void test_PAP_8_pile_variant(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R:S+ G:D3 B P:S-", "pile=true");
  give_all(&r, 0);
  /* Seat 0 sees its whole row and score; seat 1 only the top card and the size. */
  tu_expect_view_of(&r, 0, "rows.0.cards", "R:S+ G:D3 B P:S-");
  tu_expect_view_of(&r, 0, "scores", "3 null"); /* 1 + 3 (all 4 colours) - 1 */
  tu_expect_view_of(&r, 1, "rows.0.cards", "absent");
  tu_expect_view_of(&r, 1, "rows.0.top", "P:S-");
  tu_expect_view_of(&r, 1, "rows.0.size", "4");
  tu_expect_view_of(&r, 1, "scores", "null 0");
  char *t = tu_view_text(&r, 1);
  if (strstr(t, "G:D3") || !strstr(t, "4 cards, top P:S-; score hidden")) fail_msg("seat 1 sees:\n%s", t);
  free(t);
  /* Without the variant everyone sees every row. */
  pf_run_free(&r);
  start_pap(&r, 2, "R:S+ G:D3 B P:S-", NULL);
  give_all(&r, 0);
  tu_expect_view_of(&r, 1, "rows.0.cards", "R:S+ G:D3 B P:S-");
  pf_run_free(&r);
}

/* Determinizing for seat 1 in the pile variant redraws seat 0's hidden cards, never its top card
 * or its own row. */
static void test_PAP_8_determinize_redraws_hidden_rows(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R:S+ G:D3 B P:S-", "pile=true");
  give_all(&r, 0);
  pf_rng rng;
  pf_rng_seed(&rng, 3, 3);
  assert_true(tu_resampled(&r, 1, 20, "rows.0.cards", &rng) > 0);
  assert_int_equal(tu_resampled(&r, 0, 20, "rows.0.cards", &rng), 0);
  assert_int_equal(tu_resampled(&r, 1, 20, "rows.0.top", &rng), 0);
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* Move notation and G-5                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* In a split, of equal cards only the first is offered and a later one stands for it; among the
 * freshly drawn cards (hidden from the others) every card is its own move. */
static void test_G_5_equal_cards_in_a_split(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R R G R", NULL);
  tu_expect_legal(&r, "c1>1 c2>1 c3>1 c4>1");
  play(&r, "c1>1 c2>1 c3>2 c4>1 @1 @1");
  /* The split of R R R: one move places "an R". */
  tu_expect_legal(&r, "c1>1");
  play(&r, "c1>1");
  tu_expect_legal(&r, "c2>1 c2>2");
  play(&r, "c4>2"); /* c4 is an R too: c2 stands for it */
  tu_expect_view(&r, "levels.1.numbers", "[1] [2]");
  tu_expect_legal(&r, "c4>1 c4>2");
  pf_run_free(&r);
}

static void test_moves_parse(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "R:S+ G:S- B:D4 P:L+", NULL);
  tu_refuse(&r, "x", "'x' is not a move");
  tu_refuse(&r, "c1", "'c1' is not a placement");
  tu_refuse(&r, "c1>", "'c1>' is not a placement");
  play(&r, "C1>1 c2>1 c3>1 c4>1");
  tu_refuse(&r, "@3", "there is no pile 3: choose @1 or @empty");
  tu_refuse(&r, "@x", "'@x' is not a choice");
  play(&r, "@EMPTY @E");
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* PAP-9: the expansions' cards in the generated deck                                         */
/* ------------------------------------------------------------------------------------------ */

#define ALL_EXPANSIONS "police=true missions=true shy=true actions=true"

/* The deck (and mission deck) a seed generates with these options. */
static void decks_of_seed(uint64_t seed, const char *options, pf_deal out[2]) {
  pf_run r;
  pf_setup s = {.players = 4, .seed = seed};
  const pf_game *g = pf_game_find("point-a-pile");
  pf_options_default(g->options, g->noptions, &s.options);
  pf_error err;
  char buf[256];
  snprintf(buf, sizeof buf, "%s", options);
  for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
    if (pf_option_parse_kv(g->options, g->noptions, w, &s.options, &err) != 0) fail_msg("%s", err.msg);
  if (pf_run_start(&r, g, &s, &err) != 0) fail_msg("%s", err.msg);
  for (int k = 0; k < r.ndeals && k < 2; k++) out[k] = r.deals[k];
  pf_run_free(&r);
}

/* Over 4,000 generated decks with every expansion on: each deck has 54 regular, 15 Rule, 15 Shy
 * and 20 Action cards and a mission deck of 12; the kinds come with their weights (rules of 23,
 * actions of 16.75, shy cards and missions equal), the regular types with theirs (of 15), the
 * colours with their shares of the pool of 104 cards (32, 32, 21, 21 of 106), mission 10's H and
 * L uniformly with C1 != C2. Tolerance: 5 standard errors of a binomial share, as in
 * test_PAP_1_deck_weights; the seeds are fixed, so the test is deterministic. */
static void test_PAP_9_deck_weights(void **unused) {
  (void)unused;
  static const double TYPE_W[10] = {7, 1, 1, 1, 1, 1, 1, 1, 0.5, 0.5};
  static const double RULE_W[9] = {0, 10, 4, 2, 2, 1, 1, 2, 1};
  static const double ACTION_W[17] = {0, 1, 1, 1, 0.5, 1, 0.5, 1, 1, 1, 1, 2, 2, 1, 1, 1, 0.75};
  long type[10] = {0}, rule[9] = {0}, shy[9] = {0}, action[17] = {0}, mission[11] = {0}, colour[4] = {0};
  long nreg = 0, nrule = 0, nshy = 0, naction = 0, nmission = 0, n = 0, h5 = 0, l[6] = {0}, same = 0;
  for (uint64_t seed = 1; seed <= 4000; seed++) {
    pf_deal d[2];
    decks_of_seed(seed, ALL_EXPANSIONS, d);
    assert_int_equal(d[0].ncards, 104);
    assert_int_equal(d[1].ncards, 12);
    int fam[4] = {0}, per[4] = {0};
    for (int i = 0; i < d[0].ncards; i++, n++) {
      pf_card c = d[0].cards[i];
      int t = pf_pap_type(c);
      colour[pf_pap_colour(c)]++;
      per[pf_pap_colour(c)]++;
      if (t == PF_PAP_RULE) fam[1]++, rule[pf_pap_kind(c)]++, nrule++;
      else if (t == PF_PAP_SHY) fam[2]++, shy[pf_pap_kind(c)]++, nshy++;
      else if (t == PF_PAP_ACTION) fam[3]++, action[pf_pap_kind(c)]++, naction++;
      else if (t <= PF_PAP_HEAD) fam[0]++, type[t]++, nreg++;
      else fail_msg("seed %llu: a mission in the deck", (unsigned long long)seed);
    }
    assert_true(fam[0] == 54 && fam[1] == 15 && fam[2] == 15 && fam[3] == 20);
    assert_true(per[0] <= 32 && per[1] <= 32 && per[2] <= 21 && per[3] <= 21);
    for (int i = 0; i < 12; i++, nmission++) {
      pf_card m = d[1].cards[i];
      assert_true(pf_pap_type(m) == PF_PAP_MISSION || pf_pap_type(m) == PF_PAP_MISSION_HL);
      mission[pf_pap_kind(m)]++;
      if (pf_pap_kind(m) == 10) h5 += pf_pap_a(m) == 5, l[pf_pap_b(m)]++, same += pf_pap_c(m) == pf_pap_colour(m);
    }
  }
  char what[64];
  for (int t = 0; t < 10; t++) snprintf(what, sizeof what, "regular type %d", t), expect_share(what, type[t], nreg, TYPE_W[t] / 15);
  for (int k = 1; k <= 8; k++) snprintf(what, sizeof what, "rule P%d", k), expect_share(what, rule[k], nrule, RULE_W[k] / 23);
  for (int k = 1; k <= 8; k++) snprintf(what, sizeof what, "shy T%d", k), expect_share(what, shy[k], nshy, 1.0 / 8);
  for (int k = 1; k <= 16; k++)
    snprintf(what, sizeof what, "action A%d", k), expect_share(what, action[k], naction, ACTION_W[k] / 16.75);
  for (int k = 1; k <= 10; k++) snprintf(what, sizeof what, "mission M%d", k), expect_share(what, mission[k], nmission, 0.1);
  expect_share("red", colour[0], n, 32.0 / 106);
  expect_share("green", colour[1], n, 32.0 / 106);
  expect_share("blue", colour[2], n, 21.0 / 106);
  expect_share("purple", colour[3], n, 21.0 / 106);
  expect_share("mission 10: H = 5", h5, mission[10], 0.5);
  for (int k = 3; k <= 5; k++) expect_share("mission 10: L", l[k], mission[10], 1.0 / 3);
  assert_int_equal(same, 0);
  /* Without expansions the deck is the base game's, card for card. */
  pf_deal base, with[2];
  deck_of_seed(42, 4, &base);
  decks_of_seed(42, "missions=true", with);
  assert_memory_equal(base.cards, with[0].cards, sizeof base.cards[0] * NCARDS);
}

/* Explicit decks must hold each family's cards as the options say; the missions are deal 2. */
static void test_PAP_9_explicit_decks(void **unused) {
  (void)unused;
  pf_deal d[2];
  exp_deal(&d[0], "", NULL);
  tu_refuse_start("point-a-pile", 2, d, 1, "police=true",
                  "deal 1: the deck has 54 cards, the game needs 69 (PAP-1: 54 regular cards, 15 Rule cards, PAP-9)");
  exp_deal(&d[0], "R:P1", "police=true");
  tu_refuse_start("point-a-pile", 2, d, 1, NULL, "deal 1: the deck has 69 cards, the game needs 54");
  d[0].ncards = 54;
  tu_refuse_start("point-a-pile", 2, d, 1, NULL, "deal 1: card 1, R:P1, is a Rule card, but the expansion police is off (PAP-9)");
  exp_deal(&d[0], "R:P1", "police=true");
  pap_parse("R", &d[0].cards[0]);
  tu_refuse_start("point-a-pile", 2, d, 1, "police=true", "deal 1: the deck has 55 regular cards, the game needs 54");
  pap_parse("M3", &d[0].cards[0]);
  tu_refuse_start("point-a-pile", 2, d, 1, "police=true",
                  "deal 1: card 1, M3, is a Mission card: missions are a deck of their own, the second deal (PAP-9)");
  exp_deal(&d[0], "", NULL);
  d[1] = d[0];
  tu_refuse_start("point-a-pile", 2, d, 2, NULL, "a game of Point-a-Pile uses one deck, but 2 deals are given");
  tu_refuse_start("point-a-pile", 2, d, 2, "missions=true", "deal 2: the mission deck has 54 cards, the game needs 12");
  d[1].ncards = 12;
  tu_refuse_start("point-a-pile", 2, d, 2, "missions=true", "deal 2: card 1, P, is not a Mission card (PAP-9)");
  /* A generated game with every expansion replays from its two deals alone. */
  pf_run a, b;
  tu_start_deals(&a, "point-a-pile", 3, NULL, 0, ALL_EXPANSIONS);
  assert_int_equal(a.ndeals, 2);
  tu_start_deals(&b, "point-a-pile", 3, a.deals, 2, ALL_EXPANSIONS);
  char *va = view_text_of(&a, PF_VIEW_ALL), *vb = view_text_of(&b, PF_VIEW_ALL);
  assert_string_equal(va, vb);
  free(va);
  free(vb);
  pf_run_free(&a);
  pf_run_free(&b);
}

/* ------------------------------------------------------------------------------------------ */
/* PAP-9 police: Rule cards                                                                   */
/* ------------------------------------------------------------------------------------------ */

static void start_police(pf_run *r, const char *rule, const char *round2) {
  char top[256];
  snprintf(top, sizeof top, "R %s B P %s", rule, round2);
  start_pap(r, 2, top, "police=true");
  tu_expect_view(r, "rule", "null");
  play(r, POLICE_ROUND1);
  tu_expect_view(r, "head", "1");
}

/* Not Last: no pile showing the colour of one's own last card scored. Seat 1 (green) at the
 * pile with a green card is out, so seat 0 has pile 1 alone; and seat 0 (purple) at the pile with
 * a purple card is out. */
static void test_police_not_last(void **unused) {
  (void)unused;
  pf_run r;
  start_police(&r, "G:P1", "G P R R");
  tu_expect_view(&r, "rule", "Not Last");
  play(&r, "c1>1 c3>1 c2>2 c4>2"); /* pile 1: G R; pile 2: P R */
  play(&r, "@1 @1");
  tu_expect_view(&r, "rows.0.cards", "B P G R"); /* no split: seat 1 was out */
  tu_expect_view(&r, "rows.1.cards", "R G:P1");
  char *t = tu_view_text(&r, 0);
  if (!strstr(t, "seat 1 broke the rule Not Last: out of the round")) fail_msg("log:\n%s", t);
  free(t);
  pf_run_free(&r);
  start_police(&r, "G:P1", "G P R R");
  play(&r, "c1>1 c3>1 c2>2 c4>2 @2 @2");
  tu_expect_view(&r, "rows.1.cards", "R G:P1 P R"); /* seat 0 broke it: pile 2 shows purple */
  tu_expect_view(&r, "rows.0.cards", "B P");
  pf_run_free(&r);
}

/* Force Last: a pile showing that colour, when one does; empty space breaks it too. Seat 0
 * (purple) is free: no pile shows purple. */
static void test_police_force_last(void **unused) {
  (void)unused;
  pf_run r;
  start_police(&r, "G:P2", "G R B R");
  play(&r, "c1>1 c2>1 c3>2 c4>2"); /* pile 1: G R; pile 2: B R */
  tu_expect_view(&r, "rule", "Force Last");
  play(&r, "@empty @2"); /* seat 1 out: seat 0 taps empty space alone and scores both piles */
  tu_expect_view(&r, "rows.0.cards", "B P G R B R");
  tu_expect_view(&r, "rows.1.cards", "R G:P2");
  pf_run_free(&r);
  start_police(&r, "G:P2", "G R B R");
  play(&r, "c1>1 c2>1 c3>2 c4>2 @empty @empty"); /* seat 1's tap counts for nothing */
  tu_expect_view(&r, "rows.0.cards", "B P G R B R");
  pf_run_free(&r);
  start_police(&r, "G:P2", "G R B R");
  play(&r, "c1>1 c2>1 c3>2 c4>2 @2 @1"); /* both follow it */
  tu_expect_view(&r, "rows.0.cards", "B P B R");
  tu_expect_view(&r, "rows.1.cards", "R G:P2 G R");
  pf_run_free(&r);
}

/* Round 1 with 3 players: seat 1 takes all six cards, the Rule card last; round 2 (seat 1
 * Headpointer) makes three piles of two. */
static void start_police3(pf_run *r, const char *rule, const char *round2) {
  char top[256];
  snprintf(top, sizeof top, "R G B P R %s %s", rule, round2);
  start_pap(r, 3, top, "police=true");
  give_all(r, 1);
  play(r, "c1>1 c2>1 c3>2 c4>2 c5>3 c6>3");
}

/* Not Friends: not the pile the left neighbour (seat - 1) picks. Seat 1 picks seat 0's pile and
 * is out; seat 0 may pick the pile of seat 1, its right neighbour. */
static void test_police_not_friends(void **unused) {
  (void)unused;
  pf_run r;
  start_police3(&r, "P:P3", "G G B B R R");
  tu_expect_view(&r, "rule", "Not Friends");
  play(&r, "@1 @1 @2");
  tu_expect_view(&r, "rows.0.cards", "G G"); /* no split */
  tu_expect_view(&r, "rows.2.cards", "B B");
  char *t = tu_view_text(&r, 2);
  if (!strstr(t, "seat 1 broke the rule Not Friends: out of the round")) fail_msg("log:\n%s", t);
  free(t);
  tu_expect_view(&r, "out_of_round", ""); /* round 3: nobody is out yet */
  pf_run_free(&r);
}

/* Force Friends: a pile a neighbour also picks. Seats 0 and 1 share pile 1, seat 2 (neighbours
 * 1 and 0) picks pile 2 alone and is out. */
static void test_police_force_friends(void **unused) {
  (void)unused;
  pf_run r;
  start_police3(&r, "P:P4", "G G B B R R");
  tu_expect_view(&r, "rule", "Force Friends");
  play(&r, "@1 @1 @2");
  tu_expect_view(&r, "levels.0.broke", "2");
  tu_expect_view(&r, "out_of_round", "2");
  tu_expect_view(&r, "levels.1.pointers", "0 1"); /* pile 1 splits among seats 0 and 1 */
  /* The rule holds in the split: seats 0 and 1 are each other's neighbours and pick different
   * piles, so both are out, and the split piles are discarded. */
  play(&r, "c1>1 c2>2 @1 @2");
  tu_expect_view(&r, "rows.0.size", "0");
  tu_expect_view(&r, "rows.1.size", "6");
  tu_expect_view(&r, "rows.2.size", "0"); /* seat 2 did not score pile 2 */
  pf_run_free(&r);
}

/* Leading Curse: the best score may not pick the largest pile. Seat 1 (1 point) takes the
 * 3-card pile and is out; seat 0 (0 points) takes the single card. */
static void test_police_leading_curse(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "G:S+ B R P:P5 G B R P", "police=true");
  give_all(&r, 1);
  play(&r, "c1>1 c2>1 c3>1 c4>2");
  tu_expect_view(&r, "rule", "Leading Curse");
  tu_expect_view(&r, "levels.0.leaders", "1");
  play(&r, "@2 @1");
  tu_expect_view(&r, "rows.0.cards", "P");
  tu_expect_view(&r, "rows.1.cards", "G:S+ B R P:P5");
  pf_run_free(&r);
  /* The player who does not lead may take the largest pile. */
  start_pap(&r, 2, "G:S+ B R P:P5 G B R P", "police=true");
  give_all(&r, 1);
  play(&r, "c1>1 c2>1 c3>1 c4>2 @1 @2");
  tu_expect_view(&r, "rows.0.cards", "G B R");
  pf_run_free(&r);
}

/* Trailing Reward: the worst score chooses after the others' choices are shown. Seat 0 (0) waits
 * for seat 1 (1 point); with equal scores nobody waits. */
static void test_police_trailing_reward(void **unused) {
  (void)unused;
  pf_run r;
  start_pap(&r, 2, "G:S+ B R P:P6 G B R P", "police=true");
  give_all(&r, 1);
  play(&r, "c1>1 c2>1 c3>2 c4>2");
  tu_expect_view(&r, "rule", "Trailing Reward");
  tu_expect_view(&r, "levels.0.late", "0");
  assert_int_equal(pf_run_to_move(&r), 1); /* seat 1 first */
  char *t = tu_view_text(&r, 0);
  if (!strstr(t, "you to choose after the others (Trailing Reward)")) fail_msg("seat 0 sees:\n%s", t);
  free(t);
  play(&r, "@2");
  assert_int_equal(pf_run_to_move(&r), 0);
  tu_expect_view_of(&r, 0, "levels.0.choices", "null 2"); /* seat 0 sees seat 1's choice */
  play(&r, "@2");
  tu_expect_view(&r, "levels.1.pointers", "0 1");
  pf_run_free(&r);
  start_pap(&r, 2, "G B R P:P6 G B R P", "police=true"); /* 0 and 0: all trail */
  give_all(&r, 1);
  play(&r, "c1>1 c2>1 c3>2 c4>2");
  tu_expect_view(&r, "levels.0.late", "");
  assert_int_equal(pf_run_to_move(&r), 0);
  play(&r, "@1");
  tu_expect_view_of(&r, 1, "levels.0.choices", "chosen null");
  pf_run_free(&r);
}

/* Not Text: with a last card with text (seat 1's Rule card), no pile with text. Seat 0's last
 * card is textless: it may. */
static void test_police_not_text(void **unused) {
  (void)unused;
  pf_run r;
  start_police(&r, "G:P7", "R:S+ G B R");
  play(&r, "c1>1 c2>2 c3>2 c4>2"); /* pile 1: R:S+; pile 2: G B R */
  tu_expect_view(&r, "rule", "Not Text");
  play(&r, "@1 @1");
  tu_expect_view(&r, "rows.0.cards", "B P R:S+"); /* not a contested single card */
  pf_run_free(&r);
}

/* Not Textless: with a textless last card (seat 0's P), no pile with a textless card. */
static void test_police_not_textless(void **unused) {
  (void)unused;
  pf_run r;
  start_police(&r, "G:P8", "R:S+ G B R");
  play(&r, "c1>1 c2>2 c3>2 c4>2");
  tu_expect_view(&r, "rule", "Not Textless");
  play(&r, "@2 @2");
  tu_expect_view(&r, "rows.1.cards", "R G:P8 G B R"); /* seat 0 out: no split */
  pf_run_free(&r);
}

/* The rule is fixed when the round's pointing begins: the Headpointer (seat 1) scores a textless
 * card at the round's first pile, and the rule still holds for the split of the second. */
static void test_police_rule_fixed_for_the_round(void **unused) {
  (void)unused;
  pf_run r;
  start_police3(&r, "P:P1", "G G B B R R");
  play(&r, "@2 @1 @2");
  tu_expect_view(&r, "rows.1.top", "G");
  tu_expect_view(&r, "levels.1.pointers", "0 2");
  play(&r, "c3>1 c4>2"); /* the split's pointing begins */
  tu_expect_view(&r, "rule", "Not Last");
  pf_run_free(&r);
  start_pap(&r, 2, "", "police=true"); /* no Rule card: no rule */
  give_all(&r, 1);
  tu_expect_view(&r, "rule", "null");
  pf_run_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_G_8_pap_card_notation),
      cmocka_unit_test(test_PAP_1_deck_reproducible),
      cmocka_unit_test(test_PAP_1_deck_weights),
      cmocka_unit_test(test_PAP_1_explicit_deck),
      cmocka_unit_test(test_PAP_2_players_and_headpointer),
      cmocka_unit_test(test_PAP_3_making_piles),
      cmocka_unit_test(test_PAP_3_drawn_cards_hidden),
      cmocka_unit_test(test_PAP_4_choices_hidden_until_all_chose),
      cmocka_unit_test(test_PAP_4_choosing_group),
      cmocka_unit_test(test_PAP_5_scored_bottom_up_and_discarded),
      cmocka_unit_test(test_PAP_5_split_contested_twice),
      cmocka_unit_test(test_PAP_5_contested_single_card_discarded),
      cmocka_unit_test(test_PAP_6_one_tapper_scores_the_discards),
      cmocka_unit_test(test_PAP_6_two_tappers_score_nothing),
      cmocka_unit_test(test_PAP_7_ten_points_end_the_game),
      cmocka_unit_test(test_PAP_7_revised_the_game_ends_at_once),
      cmocka_unit_test(test_PAP_7_empty_deck_ends_and_ties_share),
      cmocka_unit_test(test_card_textless),
      cmocka_unit_test(test_card_score),
      cmocka_unit_test(test_card_color_match),
      cmocka_unit_test(test_card_color_diff),
      cmocka_unit_test(test_card_color_group),
      cmocka_unit_test(test_card_color_specific),
      cmocka_unit_test(test_card_num_cards),
      cmocka_unit_test(test_card_empty_reward),
      cmocka_unit_test(test_card_last_reward),
      cmocka_unit_test(test_card_head_reward),
      cmocka_unit_test(test_PAP_8_pile_variant),
      cmocka_unit_test(test_PAP_8_determinize_redraws_hidden_rows),
      cmocka_unit_test(test_G_5_equal_cards_in_a_split),
      cmocka_unit_test(test_moves_parse),
      cmocka_unit_test(test_PAP_9_deck_weights),
      cmocka_unit_test(test_PAP_9_explicit_decks),
      cmocka_unit_test(test_police_not_last),
      cmocka_unit_test(test_police_force_last),
      cmocka_unit_test(test_police_not_friends),
      cmocka_unit_test(test_police_force_friends),
      cmocka_unit_test(test_police_leading_curse),
      cmocka_unit_test(test_police_trailing_reward),
      cmocka_unit_test(test_police_not_text),
      cmocka_unit_test(test_police_not_textless),
      cmocka_unit_test(test_police_rule_fixed_for_the_round),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
