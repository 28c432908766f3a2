/*
 * test_pap.c - Point-a-Pile, ruling by ruling (RULINGS PAP-1 .. PAP-8, with G-5 and G-6) and card
 * type by card type (point-a-pile-cards.md).
 *
 * Every test but the generator's starts from a fixed deck built by pap_deal: the cards written
 * come first (top card first), then textless filler cards in colours the pool still has room for
 * (PAP-1: 17 red, 17 green, 11 blue, 11 purple for 54 cards). A round draws 2N cards (PAP-3), so
 * with 2 players the first round plays cards 1-4, the second cards 5-8.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/papcard.h"
#include "testutil.h"

#define NCARDS 54

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                    */
/* ------------------------------------------------------------------------------------------ */

static void pap_deal(pf_deal *d, const char *top) {
  char buf[1024];
  int room[PF_PAP_COLOURS] = {17, 17, 11, 11};
  snprintf(buf, sizeof buf, "%s", top);
  d->ncards = 0;
  for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
    pf_card c;
    if (pf_card_parse(w, &c) != 0 || !pf_pap_valid(c)) fail_msg("'%s' is not a Point-a-Pile card", w);
    if (room[pf_pap_colour(c)]-- == 0) fail_msg("pap_deal: too many %s cards", pf_pap_colour_name(pf_pap_colour(c)));
    d->cards[d->ncards++] = c;
  }
  for (int col = PF_PAP_PURPLE; d->ncards < NCARDS; col = (col + 1) % PF_PAP_COLOURS)
    if (room[col] > 0) {
      room[col]--;
      d->cards[d->ncards++] = pf_pap_make(col, PF_PAP_COLOR, 0, 0, 0);
    }
}

static void start_pap(pf_run *r, int players, const char *top, const char *options) {
  pf_deal d;
  pap_deal(&d, top);
  tu_start(r, "point-a-pile", players, &d, options);
}

/* Plays moves separated by spaces. */
static void play(pf_run *r, const char *moves) {
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", moves);
  for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) tu_play(r, w);
}

/* The Headpointer puts every drawn card of the round on pile 1, in draw order; `taker` points at
 * it and everyone else taps empty space. */
static void give_all(pf_run *r, int taker) {
  for (;;) {
    char *legal = tu_legal(r);
    if (legal[0] != 'c') {
      free(legal);
      break;
    }
    char first[16];
    sscanf(legal, "%15s", first);
    first[strcspn(first, ">")] = '\0';
    char move[32];
    snprintf(move, sizeof move, "%s>1", first);
    free(legal);
    tu_play(r, move);
  }
  for (int seat = 0; seat < r->setup.players; seat++) tu_play(r, seat == taker ? "@1" : "@empty");
}

static char *view_text_of(const pf_run *r, int seat) { return pf_view_json_text(r->game, r->state, r->setup.players, seat); }

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
  tu_expect_told(&r, "c1>1", 1, "put c1 R:S+ (+1) on a new pile 1");
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
    tu_expect_told(&r, "@1", 0, "points (hidden until everyone has chosen)");
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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_PAP_1_deck_reproducible),
      cmocka_unit_test(test_PAP_1_deck_weights),
      cmocka_unit_test(test_PAP_1_explicit_deck),
      cmocka_unit_test(test_PAP_2_players_and_headpointer),
      cmocka_unit_test(test_PAP_3_making_piles),
      cmocka_unit_test(test_PAP_3_drawn_cards_hidden),
      cmocka_unit_test(test_PAP_4_choices_hidden_until_all_chose),
      cmocka_unit_test(test_PAP_5_scored_bottom_up_and_discarded),
      cmocka_unit_test(test_PAP_5_split_contested_twice),
      cmocka_unit_test(test_PAP_5_contested_single_card_discarded),
      cmocka_unit_test(test_PAP_6_one_tapper_scores_the_discards),
      cmocka_unit_test(test_PAP_6_two_tappers_score_nothing),
      cmocka_unit_test(test_PAP_7_ten_points_end_the_game),
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
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
