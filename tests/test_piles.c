/*
 * test_piles.c - Piles, ruling by ruling (RULINGS PIL-1 .. PIL-9, with G-2, G-4 and G-6).
 *
 * Every test starts from a fixed deal, built by start_piles from the castle (12 cards, a1 b1 c1
 * d1, a2 .. d2, a3 .. d3) and the first cards of each hand; the rest of each hand is filled from
 * the deck in standard order (AS 2S .. KS AH ..), skipping the cards already named. The deck
 * order is then the hands dealt one card at a time from seat 0 (seat 3 deals, G-2) and the
 * castle (PIL-2).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* ------------------------------------------------------------------------------------------ */
/* Deals                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* A black castle of the values 1 to 12 in row order. */
static const char BLACK_CASTLE[] = "AS 2S 3S 4S  5S 6S 7S 8S  9S TS JS QS";

/* The castle of the sources' examples (PIL-4): a red 6 with two red neighbours (a1), a black 10
 * with one red and three black neighbours (c2). */
static const char EXAMPLE_CASTLE[] = "6H 2D 3H KS  4D 5C TS 7C  8S 9S JC QH";

/* A castle where neighbours decide (PIL-6): 9H at b2 has four red neighbours (value 13), 9D at
 * d3 two black ones (value 7). */
static const char NEIGHBOUR_CASTLE[] = "2S 3H 4S AS  4H 9H 5H 8C  6S 7D JC 9D";

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                    */
/* ------------------------------------------------------------------------------------------ */

static int parse_cards(const char *text, pf_card *out) {
  char buf[256];
  int n = 0;
  snprintf(buf, sizeof buf, "%s", text ? text : "");
  for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
    if (pf_card_parse(w, &out[n++]) != 0) fail_msg("'%s' is not a card", w);
  return n;
}

/* The deal of a castle and the first cards of each hand (NULL: none), the rest as above. */
static void piles_deal(pf_deal *d, const char *castle, const char *const hands[4]) {
  pf_card c[12], h[4][10], deck[52];
  int nh[4], used[256] = {0};
  if (parse_cards(castle, c) != 12) fail_msg("a castle has 12 cards");
  for (int i = 0; i < 12; i++) used[c[i]]++;
  for (int p = 0; p < 4; p++) {
    nh[p] = parse_cards(hands[p], h[p]);
    for (int i = 0; i < nh[p]; i++) used[h[p][i]]++;
  }
  for (int k = 0; k < 256; k++)
    if (used[k] > 1) fail_msg("piles_deal: card #%d named twice", k);
  pf_deck_standard(deck, 1, 0);
  int next = 0;
  for (int p = 0; p < 4; p++)
    while (nh[p] < 10) {
      while (used[deck[next]]) next++;
      used[deck[next]]++;
      h[p][nh[p]++] = deck[next];
    }
  d->ncards = 0;
  for (int j = 0; j < 10; j++)
    for (int p = 0; p < 4; p++) d->cards[d->ncards++] = h[p][j];
  for (int i = 0; i < 12; i++) d->cards[d->ncards++] = c[i];
}

static void start_piles(pf_run *r, const char *castle, const char *h0, const char *h1, const char *h2,
                        const char *h3) {
  const char *const hands[4] = {h0, h1, h2, h3};
  pf_deal d;
  piles_deal(&d, castle, hands);
  tu_start(r, "piles", 4, &d, NULL);
}

/* The values of the 12 castle piles in row order, space-separated. */
static void expect_values(const pf_run *r, const char *want) {
  char buf[128] = "";
  for (int pos = 0; pos < 12; pos++) {
    char path[32];
    snprintf(path, sizeof path, "castle.%d.value", pos);
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%d", pos ? " " : "", tu_view_int(r, path));
  }
  if (strcmp(buf, want) != 0) fail_msg("castle values are \"%s\", expected \"%s\"", buf, want);
}

/* Whether a move is among the legal ones. */
static bool is_legal(const pf_run *r, const char *move) {
  char *legal = tu_legal(r), want[16];
  snprintf(want, sizeof want, " %s ", move);
  size_t n = strlen(legal);
  char *padded = pf_xmalloc(n + 3);
  snprintf(padded, n + 3, " %s ", legal);
  bool in = strstr(padded, want) != NULL;
  free(padded);
  free(legal);
  return in;
}

/* ------------------------------------------------------------------------------------------ */
/* PIL-1 Players, PIL-2 Deal, PIL-3 Values                                                    */
/* ------------------------------------------------------------------------------------------ */

/* PIL-1: exactly 4 players, one 52-card deck; one deal. */
static void test_PIL_1_exactly_four_players_one_deck(void **unused) {
  (void)unused;
  tu_refuse_start("piles", 3, NULL, 0, NULL, "piles is for exactly 4 players, not 3");
  tu_refuse_start("piles", 5, NULL, 0, NULL, "piles is for exactly 4 players, not 5");
  pf_deal two, d[2];
  tu_deal(&two, 2, 0, NULL);
  tu_refuse_start("piles", 4, &two, 1, NULL, "deal 1: the deal has 104 cards, the game needs 52");
  tu_deal(&d[0], 1, 0, NULL);
  d[1] = d[0];
  tu_refuse_start("piles", 4, d, 2, NULL, "a game of Piles uses one deal, but 2 deals are given");
  pf_run r;
  tu_start(&r, "piles", 4, NULL, NULL);
  assert_int_equal(r.deals[0].ncards, 52);
  tu_expect_view(&r, "hands.3.size", "10");
  tu_expect_view(&r, "castle.11.size", "1");
  pf_run_free(&r);
}

/* PIL-2: 10 cards each, one at a time from seat 0; the last 12 are the castle, row by row. */
static void test_PIL_2_deal_and_castle_positions(void **unused) {
  (void)unused;
  pf_deal d;
  tu_deal(&d, 1, 0, NULL); /* standard order: AS 2S .. KS AH .. KH AD .. KD AC .. KC */
  pf_run r;
  tu_start(&r, "piles", 4, &d, NULL);
  tu_expect_view_of(&r, 0, "hands.0.cards", "AS 5S 9S KS 4H 8H QH 3D 7D JD");
  tu_expect_view_of(&r, 1, "hands.1.cards", "2S 6S TS AH 5H 9H KH 4D 8D QD");
  tu_expect_view_of(&r, 3, "hands.3.cards", "4S 8S QS 3H 7H JH 2D 6D TD AC");
  tu_expect_view_of(&r, 0, "hands.1.cards", "absent");
  tu_expect_view_of(&r, 0, "castle.0.pos", "a1");
  tu_expect_view_of(&r, 0, "castle.0.top", "2C");
  tu_expect_view_of(&r, 0, "castle.3.pos", "d1");
  tu_expect_view_of(&r, 0, "castle.4.pos", "a2");
  tu_expect_view_of(&r, 0, "castle.4.top", "6C");
  tu_expect_view_of(&r, 0, "castle.11.pos", "d3");
  tu_expect_view_of(&r, 0, "castle.11.top", "KC");
  tu_expect_view_of(&r, 0, "to_move", "0");
  pf_run_free(&r);
}

/* PIL-2, PIL-3, PIL-4: in an all-black castle every neighbour counts +1: corners have 2, the
 * other edge piles 3, b2 and c2 have 4; A is 1, T 10, J 11, Q 12. */
static void test_PIL_2_neighbours_and_PIL_3_values(void **unused) {
  (void)unused;
  pf_run r;
  start_piles(&r, BLACK_CASTLE, NULL, NULL, NULL, NULL);
  /* a1 1+2, b1 2+3, c1 3+3, d1 4+2 / a2 5+3, b2 6+4, c2 7+4, d2 8+3 / a3 9+2, b3 10+3, ... */
  expect_values(&r, "3 5 6 6 8 10 11 11 11 13 14 14");
  tu_expect_view_of(&r, 0, "castle.5.colour", "black");
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* PIL-4 Pile value                                                                           */
/* ------------------------------------------------------------------------------------------ */

/* PIL-4, with the sources' examples: a red 6 with two red neighbours is worth 8 (a1); a black 10
 * with one red and three black neighbours is worth 12 (c2); K is 13. */
static void test_PIL_4_values_with_neighbours(void **unused) {
  (void)unused;
  pf_run r;
  start_piles(&r, EXAMPLE_CASTLE, NULL, NULL, NULL, NULL);
  /* 6H:+2. 2D: 6H +1, 3H +1, 5C -1. 3H: 2D +1, KS -1, TS -1. KS: 3H -1, 7C +1.
   * 4D: 6H +1, 5C -1, 8S -1. 5C: 2D -1, 4D -1, TS +1, 9S +1. TS: 3H -1, 5C, 7C, JC +1.
   * 7C: KS, TS +1, QH -1. 8S: 4D -1, 9S +1. 9S: 5C, 8S, JC +1. JC: TS, 9S +1, QH -1.
   * QH: 7C -1, JC -1. */
  expect_values(&r, "8 3 2 13 3 5 12 8 8 12 12 10");
  tu_expect_view_of(&r, 2, "castle.0.value", "8");
  tu_expect_view_of(&r, 2, "castle.0.colour", "red");
  tu_expect_view_of(&r, 2, "castle.6.value", "12");
  tu_expect_view_of(&r, 2, "castle.6.colour", "black");
  /* A card placed changes its neighbours' values too: a black card on b1 (2D, red) ... */
  pf_run_free(&r);
  start_piles(&r, EXAMPLE_CASTLE, "KC", NULL, NULL, NULL);
  tu_play(&r, "KC>b1"); /* b1 black now: a1 loses its +1 and gets -1 */
  tu_expect_view_of(&r, 1, "castle.0.value", "6");
  tu_expect_view_of(&r, 1, "castle.1.cards", "2D KC");
  tu_expect_view_of(&r, 1, "castle.1.value", "12"); /* 13, 6H -1, 3H -1, 5C +1 */
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* PIL-5 Team colours                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* PIL-5: the first card placed gives its player's team that colour. */
static void test_PIL_5_first_card_placed_sets_the_colours(void **unused) {
  (void)unused;
  pf_run r;
  start_piles(&r, BLACK_CASTLE, "KH", NULL, NULL, NULL);
  tu_expect_view_of(&r, 0, "colours", "null");
  tu_play(&r, "KH>a1");
  tu_expect_view_of(&r, 2, "colours", "red black red black");
  pf_run_free(&r);
  /* Seat 0 passes; seat 1 places a red card first: seats 1 and 3 are red. */
  start_piles(&r, BLACK_CASTLE, "2C", "KH", NULL, NULL);
  tu_play(&r, "pass");
  tu_play(&r, "*2C");
  tu_expect_view_of(&r, 0, "colours", "null");
  tu_play(&r, "KH>a1");
  tu_expect_view_of(&r, 0, "colours", "black red black red");
  /* Later cards never change them. */
  tu_play_first(&r, 5);
  tu_expect_view_of(&r, 0, "colours", "black red black red");
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* PIL-6 A turn                                                                               */
/* ------------------------------------------------------------------------------------------ */

/* PIL-6: on the same colour always, even lowering the value; on the other colour only if the
 * value rises, and the neighbours decide: a king may not cover the red 9 with four red
 * neighbours (13 -> 9), a black 6 may cover the red 9 with two black neighbours (7 -> 8), a
 * black 5 may not (7 -> 7: the value must be greater). */
static void test_PIL_6_other_colour_only_raising_the_value(void **unused) {
  (void)unused;
  pf_run r;
  start_piles(&r, NEIGHBOUR_CASTLE, "KS 6C 5S 2H", NULL, NULL, NULL);
  expect_values(&r, "0 2 3 3 3 13 3 7 4 6 8 7");
  tu_refuse(&r, "KS>b2", "KS may not go on b2: its top 9H is red, and KS there would make the value 9, not more than 13 (PIL-6)");
  assert_false(is_legal(&r, "KS>b2"));
  tu_refuse(&r, "5S>d3", "5S there would make the value 7, not more than 7 (PIL-6)");
  assert_false(is_legal(&r, "5S>d3"));
  assert_true(is_legal(&r, "6C>d3"));
  assert_true(is_legal(&r, "2H>b2")); /* same colour: 13 -> 6, allowed */
  assert_true(is_legal(&r, "KS>d3"));
  assert_true(is_legal(&r, "pass"));
  tu_refuse(&r, "7D>a1", "7D is not in seat 0's hand");
  tu_refuse(&r, "KS", "say where KS goes: KS>b2 (columns a-d, rows 1-3)");
  tu_refuse(&r, "KS>e1", "after '>' comes a castle pile: a1 to d3 (columns a-d, rows 1-3)");
  tu_refuse(&r, "KS>a4", "a1 to d3");
  tu_refuse(&r, "KS>a1 x", "unexpected 'x' after the move");
  tu_refuse(&r, "pas", "cannot read a card at the start; moves look like 7H>b2 or pass");
  tu_play(&r, "6c > D3");
  tu_expect_view_of(&r, 1, "castle.11.cards", "9D 6C");
  tu_expect_view_of(&r, 1, "castle.11.value", "8");
  pf_run_free(&r);
}

/* PIL-6: every legal move of a hand, in hand order then position order, then pass. */
static void test_PIL_6_legal_moves_of_a_hand(void **unused) {
  (void)unused;
  pf_run r;
  start_piles(&r, NEIGHBOUR_CASTLE, "KS AC", NULL, NULL, NULL);
  char *legal = tu_legal(&r);
  /* KS may cover b1's red 3H (value 2 -> 14); AC may not (2 -> 2: not greater). */
  assert_non_null(strstr(legal, "KS>a1 KS>b1 KS>c1 "));
  assert_null(strstr(legal, "AC>b1"));
  assert_non_null(strstr(legal, " pass"));
  assert_int_equal(strcmp(legal + strlen(legal) - 4, "pass"), 0);
  free(legal);
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* PIL-7 Passing                                                                              */
/* ------------------------------------------------------------------------------------------ */

/* PIL-7: a pass is a chance move: the next seat takes a card of the passer's hand. The card is in
 * the views of the passer and the taker only; the others see that a card was taken. */
static void test_PIL_7_pass_taken_card_known_to_passer_and_taker_only(void **unused) {
  (void)unused;
  pf_run r;
  start_piles(&r, NEIGHBOUR_CASTLE, "KS 6C 5S 2H", NULL, NULL, NULL);
  tu_play(&r, "pass");
  assert_int_equal(pf_run_to_move(&r), PF_CHANCE);
  tu_expect_view_of(&r, 2, "to_move", "chance");
  tu_expect_view_of(&r, 2, "passer", "0");
  tu_expect_legal(&r, "");
  tu_refuse(&r, "KS>a1", "a chance outcome (starting with '*') is due here");
  tu_refuse(&r, "*7D", "7D is not in the hand of seat 0, the passer (PIL-7)");
  tu_refuse(&r, "*xx", "a take is written * and the card taken, e.g. *7H");
  tu_expect_told(&r, "*6C", 0, "seat 1 takes 6C from your hand");
  tu_expect_told(&r, "*6C", 1, "you take 6C from seat 0's hand");
  tu_expect_told(&r, "*6C", 2, "seat 1 takes a card from seat 0's hand");
  tu_expect_told(&r, "*6C", 3, "seat 1 takes a card from seat 0's hand");
  tu_expect_told(&r, "*6C", PF_VIEW_PUBLIC, "seat 1 takes a card from seat 0's hand");
  tu_play(&r, "*6c");
  assert_string_equal(r.moves[r.nmoves - 1], "*6C"); /* the record's canonical form */
  tu_expect_view_of(&r, 0, "to_move", "1");             /* the taker plays next */
  tu_expect_view_of(&r, 0, "hands.0.size", "9");
  tu_expect_view_of(&r, 0, "takes.0.from", "0");
  tu_expect_view_of(&r, 0, "takes.0.by", "1");
  tu_expect_view_of(&r, 0, "takes.0.card", "6C");
  tu_expect_view_of(&r, 1, "takes.0.card", "6C");
  tu_expect_view_of(&r, 2, "takes.0.card", "absent");
  tu_expect_view_of(&r, 3, "takes.0.card", "absent");
  tu_expect_view_of(&r, PF_VIEW_PUBLIC, "takes.0.card", "absent"); /* a spectator is no player */
  tu_expect_view_of(&r, PF_VIEW_PUBLIC, "hands.0.cards", "absent");
  tu_expect_view_of(&r, 2, "takes.0.by", "1");
  for (int seat = 0; seat < 4; seat++) {
    char *t = tu_view_text(&r, seat);
    bool knows = seat < 2;
    if (knows != (strstr(t, "6C") != NULL)) fail_msg("seat %d's text view:\n%s", seat, t);
    if (seat == 2 && !strstr(t, "seat 1 took a card from seat 0")) fail_msg("seat 2's text view:\n%s", t);
    if (seat == 0 && !strstr(t, "seat 1 took 6C from you")) fail_msg("seat 0's text view:\n%s", t);
    if (seat == 1 && !strstr(t, "you took 6C from seat 0")) fail_msg("seat 1's text view:\n%s", t);
    free(t);
  }
  /* Determinizing for seat 2 resamples the card taken (with the hidden hands); for seat 0 never. */
  pf_rng rng;
  pf_rng_seed(&rng, 7, 7);
  assert_int_equal(tu_resampled(&r, 0, 30, "takes.0.card", &rng), 0);
  assert_int_equal(tu_resampled(&r, 1, 30, "takes.0.card", &rng), 0);
  assert_true(tu_resampled(&r, 2, 30, "takes.0.card", &rng) > 0);
  assert_true(tu_resampled(&r, 3, 30, "takes.0.card", &rng) > 0);
  /* The scores do not show the card taken before the end. */
  tu_expect_scores(&r, "0 0 0 0");
  pf_run_free(&r);
}

/* PIL-7: passing is always allowed, and a take is recorded even from the passer's last card. The
 * chance outcome is drawn from the game's generator: the same seed takes the same card. */
static void test_PIL_7_take_of_the_last_card_is_recorded(void **unused) {
  (void)unused;
  pf_run r;
  tu_start(&r, "piles", 4, NULL, NULL);
  tu_play_first(&r, 36); /* 9 turns each, placing */
  tu_expect_view_of(&r, 0, "hands.0.size", "1");
  assert_true(is_legal(&r, "pass"));
  tu_play(&r, "pass");
  assert_int_equal(pf_run_to_move(&r), PF_CHANCE);
  pf_run_chance(&r);
  assert_true(r.moves[r.nmoves - 1][0] == '*');
  tu_expect_view_of(&r, 0, "hands.0.size", "0");
  /* The one card there was is the one taken. */
  tu_expect_view_of(&r, 1, "takes.0.card", r.moves[r.nmoves - 1] + 1);
  pf_run_free(&r);
  /* Sampled takes: the state after the recorded outcome is the same as after the drawn one. */
  pf_run a, b;
  tu_start(&a, "piles", 4, NULL, NULL);
  tu_start(&b, "piles", 4, NULL, NULL);
  for (int i = 0; i < 6; i++) {
    tu_play(&a, "pass");
    tu_play(&b, "pass");
    pf_run_chance(&a);
    tu_play(&b, a.moves[a.nmoves - 1]);
    assert_memory_equal(a.state, b.state, a.game->state_size);
  }
  pf_run_free(&a);
  pf_run_free(&b);
}

/* ------------------------------------------------------------------------------------------ */
/* PIL-8 End, PIL-9 Scoring                                                                   */
/* ------------------------------------------------------------------------------------------ */

/* PIL-8: the game ends after 10 turns each; every turn takes one card from a hand. */
static void test_PIL_8_ends_after_ten_turns_each(void **unused) {
  (void)unused;
  pf_run r;
  tu_start(&r, "piles", 4, NULL, NULL);
  int turns = 0;
  while (pf_run_to_move(&r) != PF_NOBODY) {
    if (pf_run_to_move(&r) >= 0) {
      char want[4];
      snprintf(want, sizeof want, "%d", turns % 4);
      tu_expect_view(&r, "to_move", want);
      turns++;
      /* Seat 2 always passes; the others place. */
      if (pf_run_to_move(&r) == 2) {
        tu_play(&r, "pass");
        continue;
      }
    }
    tu_play_first(&r, 1);
  }
  assert_int_equal(turns, 40);
  assert_int_equal(r.nmoves, 50); /* 40 turns, 10 of them passes with their takes */
  for (int p = 0; p < 4; p++) {
    char path[32];
    snprintf(path, sizeof path, "hands.%d.size", p);
    assert_int_equal(tu_view_int(&r, path), 0);
  }
  int last = r.nmoves - 1;
  while (r.moves[last][0] != '*') last--;
  tu_expect_view_of(&r, 1, "takes.9.card", r.moves[last] + 1); /* revealed to all at the end */
  pf_run_free(&r);
}

/* PIL-9: each team collects the piles topped with its colour and scores only the other colour's
 * cards: A 9, K 4, Q 3, J 2, others 1 (running scores: the castle only). */
static void test_PIL_9_castle_scoring(void **unused) {
  (void)unused;
  pf_run r;
  start_piles(&r, NEIGHBOUR_CASTLE, "KS 6C 5S 2H", "KH JH", "JS QS", "QD");
  tu_play(&r, "6C>d3"); /* seats 0 and 2 black; d3 = 9D 6C: the 9D scores 1 */
  tu_expect_scores(&r, "1 0 1 0");
  tu_play(&r, "KH>d1"); /* d1 = AS KH, red: the AS scores 9 for seats 1 and 3 */
  tu_expect_scores(&r, "1 9 1 9");
  tu_play(&r, "JS>d1"); /* d1 black: KH 4 */
  tu_expect_scores(&r, "5 0 5 0");
  tu_play(&r, "QD>d3"); /* d3 red: 6C 1 for seats 1 and 3, the 9D no more for 0 and 2 */
  tu_expect_scores(&r, "4 1 4 1");
  tu_play(&r, "KS>d3"); /* d3 black: 9D 1 + QD 3 */
  tu_expect_scores(&r, "8 0 8 0");
  tu_play(&r, "JH>c2"); /* c2 = 5H JH, red: nothing of the other colour */
  tu_expect_scores(&r, "8 0 8 0");
  tu_play(&r, "QS>c2"); /* c2 black: 5H 1 + JH 2 */
  tu_expect_scores(&r, "11 0 11 0");
  pf_run_free(&r);
}

/* PIL-9 with the cards taken, and PIL-5 when no card is placed: every turn a pass, so each
 * seat's hand goes to the next seat, and seats 0 and 2 are black. They took the hearts and the
 * diamonds, A..T of each: 9 + 9 twice, 36; seats 1 and 3 took the spades and clubs: 36 too, a
 * draw that all four share (G-6). With JS in seat 0's hand for the AS (which is in the castle,
 * black on top: seats 0 and 2 collect it, but it is their own colour), seats 1 and 3 score
 * JS 2 + 2S..TS 9 + the clubs 18 = 29, and seats 0 and 2 win. */
static void test_PIL_9_cards_taken_count_ties_share_PIL_5_default_black(void **unused) {
  (void)unused;
  const char *castle_tie = "JS QS KS JC QC KC JH QH KH JD QD KD";
  const char *castle_ace = "AS QS KS JC QC KC JH QH KH JD QD KD"; /* AS in the castle, JS in hand 0 */
  for (int ace_in_castle = 0; ace_in_castle < 2; ace_in_castle++) {
    pf_run r;
    start_piles(&r, ace_in_castle ? castle_ace : castle_tie, ace_in_castle ? "JS 2S 3S 4S 5S 6S 7S 8S 9S TS" : "AS 2S 3S 4S 5S 6S 7S 8S 9S TS",
                "AH 2H 3H 4H 5H 6H 7H 8H 9H TH", "AC 2C 3C 4C 5C 6C 7C 8C 9C TC", "AD 2D 3D 4D 5D 6D 7D 8D 9D TD");
    while (pf_run_to_move(&r) != PF_NOBODY) {
      if (pf_run_to_move(&r) == PF_CHANCE)
        pf_run_chance(&r);
      else
        tu_play(&r, "pass");
      if (pf_run_to_move(&r) != PF_NOBODY) tu_expect_scores(&r, "0 0 0 0"); /* takes are secret */
    }
    tu_expect_view_of(&r, 0, "colours", "null");
    if (ace_in_castle) {
      tu_expect_scores(&r, "36 29 36 29");
      tu_expect_winners(&r, "0 2");
      /* The end says what each team collected and what it scored (PIL-9). */
      tu_expect_view_of(&r, PF_VIEW_PUBLIC, "end.0.kind", "collected");
      tu_expect_view_of(&r, PF_VIEW_PUBLIC, "end.0.rule", "PIL-9");
      tu_expect_view_of(&r, PF_VIEW_PUBLIC, "end.0.team", "0 2");
      tu_expect_view_of(&r, PF_VIEW_PUBLIC, "end.0.colour", "black");
      tu_expect_view_of(&r, PF_VIEW_PUBLIC, "end.0.piles", "a1 b1 c1 d1 a2 b2");
      tu_expect_view_of(&r, PF_VIEW_PUBLIC, "end.0.points", "36");
      tu_expect_view_of(&r, PF_VIEW_PUBLIC, "end.0.text", "The black team, seat 0 and seat 2, collected 6 piles of the castle and "
                                                          "20 cards taken from passers: 36 points for the red cards among them.");
      tu_expect_view_of(&r, 1, "end.1.team", "1 3");
      tu_expect_view_of(&r, 1, "end.1.piles", "c2 d2 a3 b3 c3 d3");
      tu_expect_view_of(&r, 1, "end.1.points", "29");
    } else {
      tu_expect_scores(&r, "36 36 36 36");
      tu_expect_winners(&r, "0 1 2 3");
    }
    pf_run_free(&r);
  }
}

/* ------------------------------------------------------------------------------------------ */
/* The zones of the JSON view (docs/views.md)                                                 */
/* ------------------------------------------------------------------------------------------ */

/* The castle's piles in a grid (row, column, as a1..d3 name them, PIL-2) with their values and
 * colours, the hands, and each seat's takes; a placing takes a card of the mover's hand to a
 * castle pile; a pass moves nothing the mover picks. */
static void test_views_zones_and_moves(void **unused) {
  (void)unused;
  pf_run r;
  start_piles(&r, NEIGHBOUR_CASTLE, "KS 6C 5S 2H", NULL, NULL, NULL);
  tu_expect_zone_ids(&r, 1, "castle:a1 castle:b1 castle:c1 castle:d1 castle:a2 castle:b2 castle:c2 castle:d2 castle:a3 "
                            "castle:b3 castle:c3 castle:d3 hand:0 hand:1 hand:2 hand:3 captures:0 captures:1 "
                            "captures:2 captures:3");
  tu_expect_zone(&r, 1, "castle:c2", "grid", "1 2");
  tu_expect_zone(&r, 1, "castle:c2", "label", "c2");
  tu_expect_zone(&r, 1, "castle:c2", "value", "3"); /* 5H, +1 for b2, -1 for c1, d2 and c3 (PIL-4) */
  tu_expect_zone(&r, 1, "castle:c2", "note", "red");
  tu_expect_zone(&r, 1, "castle:c2", "value_text", "value 3");
  tu_expect_move_zones(&r, 0, "KS>c2", "hand:0 KS castle:c2");
  tu_expect_move_zones(&r, 0, "pass", "null null null");
  tu_play(&r, "pass");
  tu_play(&r, "*6c");
  tu_expect_zone(&r, 1, "captures:1", "cards", "6C");
  tu_expect_zone(&r, 2, "captures:1", "cards", "null");
  tu_expect_zone(&r, PF_VIEW_PUBLIC, "captures:1", "cards", "null");
  pf_run_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_PIL_1_exactly_four_players_one_deck),
      cmocka_unit_test(test_PIL_2_deal_and_castle_positions),
      cmocka_unit_test(test_PIL_2_neighbours_and_PIL_3_values),
      cmocka_unit_test(test_PIL_4_values_with_neighbours),
      cmocka_unit_test(test_PIL_5_first_card_placed_sets_the_colours),
      cmocka_unit_test(test_PIL_6_other_colour_only_raising_the_value),
      cmocka_unit_test(test_PIL_6_legal_moves_of_a_hand),
      cmocka_unit_test(test_PIL_7_pass_taken_card_known_to_passer_and_taker_only),
      cmocka_unit_test(test_PIL_7_take_of_the_last_card_is_recorded),
      cmocka_unit_test(test_PIL_8_ends_after_ten_turns_each),
      cmocka_unit_test(test_PIL_9_castle_scoring),
      cmocka_unit_test(test_PIL_9_cards_taken_count_ties_share_PIL_5_default_black),
      cmocka_unit_test(test_views_zones_and_moves),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
