/*
 * test_gharat.c - Ghârat, ruling by ruling (RULINGS GHA-1 .. GHA-6, with G-2 and G-6).
 *
 * Every test starts from a fixed deal: a deck order, top card first (G-3). The first 4 cards are
 * the play pile, the 4th on top (GHA-2); then 4 cards to each player one at a time from seat 0
 * (seat N-1 deals first), so with 2 players seat 0 gets the 5th, 7th, 9th and 11th card and with
 * 3 players the 5th, 8th, 11th and 14th. tu_deal puts the rest of the deck after the cards named,
 * in standard order. The match test uses seeded deals (deal k is shuffled from (seed, k)) and
 * plays the first legal move throughout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                    */
/* ------------------------------------------------------------------------------------------ */

static void start_deal(pf_run *r, int players, const char *cards, const char *options) {
  pf_deal d;
  tu_deal(&d, 1, 0, cards);
  tu_start(r, "gharat", players, &d, options);
}

/* ------------------------------------------------------------------------------------------ */
/* GHA-1 Players                                                                              */
/* ------------------------------------------------------------------------------------------ */

/* GHA-1: 2 to 4 players, one 52-card deck; option teams only with 4 players. */
static void test_GHA_1_players_deck_and_teams_option(void **unused) {
  (void)unused;
  tu_refuse_start("gharat", 1, NULL, 0, NULL, "gharat is for 2 to 4 players, not 1");
  tu_refuse_start("gharat", 5, NULL, 0, NULL, "gharat is for 2 to 4 players, not 5");
  tu_refuse_start("gharat", 3, NULL, 0, "teams=true", "option teams (GHA-1) is for 4 players only, not 3");
  tu_refuse_start("gharat", 2, NULL, 0, "teams=true", "for 4 players only, not 2");
  pf_deal two, joker;
  tu_deal(&two, 2, 0, NULL);
  tu_deal(&joker, 1, 1, NULL);
  tu_refuse_start("gharat", 2, &two, 1, NULL, "deal 1: the deal has 104 cards, the game needs 52");
  tu_refuse_start("gharat", 2, &joker, 1, NULL, "the game needs 52");
  joker.ncards = 52;
  joker.cards[0] = PF_CARD_JOKER;
  tu_refuse_start("gharat", 2, &joker, 1, NULL, "the deal holds JK, which is not in this game's deck");
  for (int n = 2; n <= 4; n++) {
    pf_run r;
    tu_start(&r, "gharat", n, NULL, NULL);
    assert_int_equal(r.deals[0].ncards, 52);
    pf_run_free(&r);
  }
}

/* GHA-1: with teams, each seat's score is its team's total (seats 0 and 2, seats 1 and 3). */
static void test_GHA_1_teams_score_together(void **unused) {
  (void)unused;
  /* Play pile 2C 3C 4C KC. Seat 0: KH 5S 6S 7S, seat 1: 5H 6H 7H 8H, seat 2: 5D .., seat 3: 5C .. */
  const char *deal = "2C 3C 4C KC  KH 5H 5D 5C  5S 6H 6D 6C  6S 7H 7D 7C  7S 8H 8D 8C";
  pf_run r, solo;
  start_deal(&r, 4, deal, "teams=true target=0");
  start_deal(&solo, 4, deal, "target=0");
  tu_play(&r, "KH>pp");
  tu_play(&solo, "KH>pp");
  tu_expect_scores(&r, "20 0 20 0"); /* seat 2 has its team's 20 */
  tu_expect_scores(&solo, "20 0 0 0");
  tu_play(&r, "5H");
  tu_play(&r, "5D>pp"); /* seat 2 takes the 5H seat 1 played: seats 0 and 2 now have 30 */
  tu_expect_scores(&r, "30 0 30 0");
  tu_expect_view_of(&r, 0, "teams", "true");
  /* To the end of the hand: both seats of the leading team win (G-6). */
  tu_play_first_to_end(&r);
  int sc[4];
  tu_scores(&r, sc);
  assert_int_equal(sc[0], sc[2]);
  assert_int_equal(sc[1], sc[3]);
  tu_expect_winners(&r, sc[0] > sc[1] ? "0 2" : sc[0] < sc[1] ? "1 3" : "0 1 2 3");
  pf_run_free(&r);
  pf_run_free(&solo);
}

/* ------------------------------------------------------------------------------------------ */
/* GHA-2 Deal                                                                                 */
/* ------------------------------------------------------------------------------------------ */

/* GHA-2: the play pile is the first 4 cards, the 4th on top and the only one seen; then 4 cards
 * each, one at a time from seat 0 (seat N-1 deals, G-2). */
static void test_GHA_2_play_pile_then_four_cards_each(void **unused) {
  (void)unused;
  pf_run r;
  start_deal(&r, 3, "2S 3S 4S KC  7H 8H 9H  7C 8C 9C  7D 8D 9D  7S 8S 9S", NULL);
  tu_expect_view(&r, "play_pile.cards", "2S 3S 4S KC");
  tu_expect_view(&r, "play_pile.top", "KC");
  for (int seat = 0; seat < 3; seat++) {
    tu_expect_view_of(&r, seat, "play_pile.cards", "null null null KC");
    tu_expect_view_of(&r, seat, "play_pile.top", "KC");
  }
  tu_expect_view_of(&r, 0, "hands.0.cards", "7H 7C 7D 7S");
  tu_expect_view_of(&r, 1, "hands.1.cards", "8H 8C 8D 8S");
  tu_expect_view_of(&r, 2, "hands.2.cards", "9H 9C 9D 9S");
  tu_expect_view_of(&r, 0, "hands.1.cards", "absent");
  tu_expect_view_of(&r, 0, "hands.1.size", "4");
  tu_expect_view_of(&r, 0, "stock", "36");
  tu_expect_view_of(&r, 0, "stock_cards", "absent");
  tu_expect_view_of(&r, 0, "dealer", "2");
  tu_expect_view_of(&r, 0, "to_move", "0");
  /* Nobody's text view names a card beneath the top. */
  for (int seat = 0; seat < 3; seat++) {
    char *t = tu_view_text(&r, seat);
    if (!strstr(t, "Play pile: KC on top of 3 cards, 3 of them not seen yet (?? below); bottom first: ?? ?? ??\n"))
      fail_msg("seat %d's text view:\n%s", seat, t);
    assert_null(strstr(t, "2S"));
    assert_null(strstr(t, "4S"));
    free(t);
  }
  /* The full view (a replay, the game-over screen) lists them: it does not call them unseen. */
  char *t = tu_view_text(&r, PF_VIEW_ALL);
  if (!strstr(t, "Play pile: KC on top of 3 cards, bottom first: ") || strstr(t, "not seen yet"))
    fail_msg("the full text view:\n%s", t);
  free(t);
  pf_run_free(&r);
}

/* GHA-2: a card beneath the top is seen once uncovered; one still beneath stays unseen. Both
 * captures below uncover one (GHA-3). */
static void test_GHA_2_uncovered_card_becomes_visible(void **unused) {
  (void)unused;
  pf_run r;
  /* 3 players. Play pile 2C 9S JS 9C (9C on top). Seat 0: 9H AS 2S 3S, seat 1: JH AH 2H 3H,
   * seat 2: 9D AD 2D 3D. */
  start_deal(&r, 3, "2C 9S JS 9C  9H JH 9D  AS AH AD  2S 2H 2D  3S 3H 3D", NULL);
  tu_play(&r, "9H>pp"); /* takes 9C; JS beneath is no 9 and is uncovered */
  tu_expect_view_of(&r, 0, "piles.0.cards", "9C 9H");
  for (int seat = 0; seat < 3; seat++) tu_expect_view_of(&r, seat, "play_pile.cards", "null null JS");
  tu_expect_view_of(&r, 1, "play_pile.top", "JS");
  tu_play(&r, "JH>pp"); /* takes JS, uncovers 9S */
  for (int seat = 0; seat < 3; seat++) tu_expect_view_of(&r, seat, "play_pile.cards", "null 9S");
  tu_expect_view(&r, "play_pile.cards", "2C 9S");
  /* Determinizing for seat 2 resamples the unseen 2C, never the uncovered 9S. */
  pf_rng rng;
  pf_rng_seed(&rng, 3, 3);
  assert_int_equal(tu_resampled(&r, 2, 30, "play_pile.cards.1", &rng), 0);
  assert_true(tu_resampled(&r, 2, 30, "play_pile.cards.0", &rng) > 0);
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* GHA-3 A turn                                                                               */
/* ------------------------------------------------------------------------------------------ */

/* GHA-3: a capture takes the matching top card and every card of that rank directly beneath it,
 * in their order, with the played card on top; the unseen 7s beneath are not named beforehand. */
static void test_GHA_3_capture_takes_the_run_of_equal_ranks(void **unused) {
  (void)unused;
  pf_run r;
  /* Play pile 2S 7S 7D 7C: a run of three 7s on 2S. Seat 0: 7H .., seat 1: 2H ... */
  start_deal(&r, 2, "2S 7S 7D 7C  7H 2H  8S 8H  9S 9H  TS TH", NULL);
  tu_expect_legal(&r, "7H>pp 8S 9S TS");
  tu_expect_told(&r, "7H>pp", 1, "7H takes 7C from the play pile, with any card of that rank beneath (unseen yet)");
  tu_play(&r, "7H>pp");
  tu_expect_view_of(&r, 1, "piles.0.cards", "7S 7D 7C 7H");
  tu_expect_view_of(&r, 1, "piles.0.size", "4");
  tu_expect_view_of(&r, 1, "play_pile.cards", "2S"); /* uncovered */
  /* Seat 1's 2H takes the uncovered 2S, and the play pile is empty. */
  tu_play(&r, "2H>pp");
  tu_expect_view_of(&r, 0, "piles.1.cards", "2S 2H");
  tu_expect_view_of(&r, 0, "play_pile.size", "0");
  pf_run_free(&r);
}

/* GHA-3: the run ends at the first card of another rank: a 7 below it stays. */
static void test_GHA_3_run_stops_at_another_rank(void **unused) {
  (void)unused;
  pf_run r;
  start_deal(&r, 2, "7S 2S 7D 7C  7H 2H  8S 8H  9S 9H  TS TH", NULL);
  tu_play(&r, "7H>pp");
  tu_expect_view_of(&r, 1, "piles.0.cards", "7D 7C 7H");
  tu_expect_view(&r, "play_pile.cards", "7S 2S");
  tu_expect_view_of(&r, 1, "play_pile.cards", "null 2S");
  pf_run_free(&r);
}

/* GHA-3: a matching card must take one target of the player's choice, the play pile or a capture
 * pile; from a capture pile the run of equal ranks on top goes, the rest stays. */
static void test_GHA_3_choice_of_targets_and_taking_a_capture_pile(void **unused) {
  (void)unused;
  pf_run r;
  start_deal(&r, 3, "2C 9S JS 9C  9H JH 9D  AS AH AD  2S 2H 2D  3S 3H 3D", NULL);
  tu_play(&r, "9H>pp");
  tu_play(&r, "JH>pp"); /* uncovers 9S: the play pile and seat 0's pile are both topped by a 9 */
  tu_expect_legal(&r, "9D>pp 9D>p0 AD 2D 3D");
  tu_refuse(&r, "9D", "9D matches pp, p0: a matching target must be taken (GHA-3), e.g. 9D>pp");
  tu_refuse(&r, "9D>p1", "seat 1's capture pile does not match 9D (only equal ranks match); it matches pp, p0");
  tu_refuse(&r, "AD>pp", "the play pile does not match AD (only equal ranks match); AD matches nothing, so it goes onto the play pile: AD");
  tu_refuse(&r, "9D>p3", "there is no seat 3");
  tu_refuse(&r, "9D>q", "after '>' comes pp (the play pile) or p<seat> (a capture pile)");
  tu_refuse(&r, "9S", "9S is not in seat 2's hand");
  tu_refuse(&r, "X", "cannot read a card at the start; moves look like 7H, 7H>pp, 7H>p1");
  tu_refuse(&r, "9D>p0 x", "unexpected 'x' after the move");
  tu_expect_told(&r, "9D>p0", 2, "9D takes 9H 9C from seat 0's capture pile");
  tu_expect_told(&r, "9D>p0", 0, "9D takes 9H 9C from your capture pile");
  tu_play(&r, "9d > P0"); /* case and spaces do not matter */
  tu_expect_view_of(&r, 0, "piles.2.cards", "9C 9H 9D");
  tu_expect_view_of(&r, 0, "piles.0.size", "0");
  tu_expect_view_of(&r, 0, "play_pile.cards", "null 9S"); /* untouched */
  /* Seat 0's AS matches nothing: it goes onto the play pile. */
  tu_expect_legal(&r, "AS 2S 3S");
  tu_play(&r, "AS");
  tu_expect_view_of(&r, 1, "play_pile.cards", "null 9S AS");
  /* Seat 1's AH must take it; its own pile (JS JH) does not match. */
  tu_expect_legal(&r, "AH>pp 2H 3H");
  pf_run_free(&r);
}

/* GHA-3: a card matching one's own capture pile is simply added to it: nothing moves. */
static void test_GHA_3_own_pile_card_is_added(void **unused) {
  (void)unused;
  pf_run r;
  /* Play pile 2C 3C 4C KC. Seat 0: KH KS 8D 9D, seat 1: QH 8H 9H JS. */
  start_deal(&r, 2, "2C 3C 4C KC  KH QH  KS 8H  8D 9H  9D JS", NULL);
  tu_expect_legal(&r, "KH>pp KS>pp 8D 9D");
  tu_play(&r, "KH>pp");
  tu_expect_view_of(&r, 1, "play_pile.cards", "null null 4C");
  tu_play(&r, "8H");
  tu_expect_legal(&r, "KS>p0 8D>pp 9D");
  tu_refuse(&r, "KS", "KS matches p0: a matching target must be taken (GHA-3), e.g. KS>p0");
  tu_expect_told(&r, "KS>p0", 0, "KS goes onto your own capture pile");
  tu_play(&r, "KS>p0");
  tu_expect_view_of(&r, 1, "piles.0.cards", "KC KH KS");
  tu_expect_view_of(&r, 1, "play_pile.cards", "null null 4C 8H");
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* GHA-4 Deals and the end of a hand                                                          */
/* ------------------------------------------------------------------------------------------ */

/* GHA-4: when every hand is empty, the dealer deals 4 more to each, one at a time from the seat
 * after the dealer, and play goes on in turn. */
static void test_GHA_4_four_more_cards_when_hands_are_empty(void **unused) {
  (void)unused;
  pf_run r;
  /* 2 players; the second deal: seat 0 gets 2H 4H 6H 8H, seat 1 3H 5H 7H 9H. Nothing of the
   * first deal matches, so every card goes onto the play pile. */
  start_deal(&r, 2, "KC QC JC TC  2S 3S  4S 5S  6S 7S  8S 9S  2H 3H 4H 5H 6H 7H 8H 9H", NULL);
  tu_play_first(&r, 7);
  tu_expect_view_of(&r, 1, "hands.1.size", "1");
  tu_expect_view_of(&r, 1, "stock", "40");
  tu_play_first(&r, 1);
  tu_expect_view_of(&r, 0, "hands.0.cards", "2H 4H 6H 8H");
  tu_expect_view_of(&r, 1, "hands.1.cards", "3H 5H 7H 9H");
  tu_expect_view_of(&r, 0, "stock", "32");
  tu_expect_view_of(&r, 0, "dealer", "1");
  tu_expect_view_of(&r, 0, "to_move", "0");
  tu_expect_view_of(&r, 0, "play_pile.size", "12");
  pf_run_free(&r);
}

/* GHA-4: the hand ends when the stock is empty and every hand is played out: 48 moves for 2, 3
 * and 4 players (6, 4 and 3 deals). The play pile counts for nobody. */
static void test_GHA_4_hand_ends_with_the_stock_play_pile_for_nobody(void **unused) {
  (void)unused;
  for (int n = 2; n <= 4; n++) {
    pf_run r;
    tu_start(&r, "gharat", n, NULL, "target=0");
    int deals = 0, stock = tu_view_int(&r, "stock");
    for (int moves = 0; pf_run_to_move(&r) >= 0; moves++) {
      int now = tu_view_int(&r, "stock");
      if (now != stock) deals++, stock = now;
      assert_true(moves < 48);
      tu_play_first(&r, 1);
    }
    assert_int_equal(r.nmoves, 48);
    assert_int_equal(deals + 1, 48 / (4 * n));
    assert_int_equal(tu_view_int(&r, "stock"), 0);
    int sc[4], cards = tu_view_int(&r, "play_pile.size");
    tu_scores(&r, sc);
    for (int p = 0; p < n; p++) {
      char path[32];
      snprintf(path, sizeof path, "piles.%d.points", p);
      assert_int_equal(sc[p], tu_view_int(&r, path));
      snprintf(path, sizeof path, "piles.%d.size", p);
      cards += tu_view_int(&r, path);
    }
    assert_int_equal(cards, 52);
    assert_true(tu_view_int(&r, "play_pile.size") > 0);
    pf_run_free(&r);
  }
}

/* ------------------------------------------------------------------------------------------ */
/* GHA-5 Scores                                                                               */
/* ------------------------------------------------------------------------------------------ */

/* GHA-5: 2-10 score 5, J Q K 10, A 20. */
static void test_GHA_5_card_points(void **unused) {
  (void)unused;
  pf_run r;
  /* Play pile 5C 2C JC AC. Seat 0: AH JH 5H 9S, seat 1: 2H TS 8S 7S. */
  start_deal(&r, 2, "5C 2C JC AC  AH 2H  JH TS  5H 8S  9S 7S", "target=0");
  tu_play(&r, "AH>pp"); /* AC AH: 40 */
  tu_expect_scores(&r, "40 0");
  tu_play(&r, "TS"); /* onto the play pile */
  tu_play(&r, "9S");
  tu_play(&r, "8S");
  tu_play(&r, "JH"); /* the play pile's top is 8S: no match */
  tu_play(&r, "7S");
  tu_expect_view_of(&r, 1, "play_pile.top", "7S");
  tu_play(&r, "5H");
  tu_play(&r, "2H"); /* no 2 on top anywhere: onto the play pile */
  tu_expect_view_of(&r, 0, "piles.0.points", "40");
  pf_run_free(&r);
  /* The points of every rank, each taken in a pair from the play pile. */
  static const struct {
    const char *deal;
    int points;
  } PAIRS[] = {
      {"2S 3S 4S 2C  2H", 10}, {"2S 3S 4S TC  TH", 10}, {"2S 3S 4S JC  JH", 20},
      {"2S 3S 4S QC  QH", 20}, {"2S 3S 4S KC  KH", 20}, {"2S 3S 4S AC  AH", 40},
  };
  for (size_t i = 0; i < sizeof PAIRS / sizeof *PAIRS; i++) {
    start_deal(&r, 2, PAIRS[i].deal, "target=0");
    char move[8];
    snprintf(move, sizeof move, "%.2s>pp", PAIRS[i].deal + 13);
    tu_play(&r, move);
    char want[16];
    snprintf(want, sizeof want, "%d 0", PAIRS[i].points);
    tu_expect_scores(&r, want);
    pf_run_free(&r);
  }
}

/* ------------------------------------------------------------------------------------------ */
/* GHA-6 Match                                                                                */
/* ------------------------------------------------------------------------------------------ */

/* GHA-6: target 0 is one hand, which uses one deal. */
static void test_GHA_6_target_zero_is_one_hand(void **unused) {
  (void)unused;
  pf_deal two[2];
  tu_deal(&two[0], 1, 0, NULL);
  tu_deal(&two[1], 1, 0, "KS");
  tu_refuse_start("gharat", 2, two, 2, "target=0", "one hand (target 0) uses one deal, but 2 deals are given");
  pf_run r;
  tu_start(&r, "gharat", 3, NULL, "target=0");
  assert_int_equal(tu_play_first_to_end(&r), 48);
  assert_int_equal(r.ndeals, 1);
  tu_expect_view(&r, "totals", "absent");
  /* One hand: its end (GHA-4), no match to tell. */
  tu_expect_view(&r, "end.0.kind", "hand_over");
  tu_expect_view(&r, "end.1", "absent");
  pf_run_free(&r);
}

/* GHA-6, G-2: the next hand is a new deal (the given one, else shuffled from (seed, k)), dealt by
 * the next seat; totals add up; the seat after the new dealer leads. */
static void test_GHA_6_hands_move_on_with_new_deals(void **unused) {
  (void)unused;
  pf_deal deals[2];
  tu_deal(&deals[0], 1, 0, NULL);
  tu_deal(&deals[1], 1, 0, "QS JS TS 9D");
  pf_run r;
  tu_start_deals(&r, "gharat", 2, deals, 2, NULL);
  tu_play_first(&r, 48);
  tu_expect_view(&r, "hand_number", "2");
  tu_expect_view(&r, "dealer", "0");
  tu_expect_view(&r, "to_move", "1");
  tu_expect_view(&r, "play_pile.cards", "QS JS TS 9D");
  int scores[2];
  tu_scores(&r, scores);
  for (int p = 0; p < 2; p++) {
    int total = tu_view_int(&r, p ? "totals.1" : "totals.0");
    assert_int_equal(total, tu_view_int(&r, p ? "last_hand_points.1" : "last_hand_points.0"));
    assert_int_equal(scores[p], total); /* nothing captured yet in hand 2 */
  }
  /* Hand 3 is shuffled from (seed 1, stream 2), dealt by seat 1. */
  tu_play_first(&r, 48);
  tu_expect_view(&r, "hand_number", "3");
  tu_expect_view(&r, "dealer", "1");
  pf_card deck[52];
  pf_rng rng;
  pf_deck_standard(deck, 1, 0);
  pf_rng_seed(&rng, 1, 2);
  pf_shuffle16(&rng, deck, 52);
  assert_int_equal(r.ndeals, 3);
  assert_memory_equal(r.deals[2].cards, deck, 52);
  pf_run_free(&r);
}

/* Plays a match to 1000 (seed, players, teams) with the first legal move throughout. At the end
 * of every hand the match must go on exactly while no total (a team's, with teams) reaches 1000
 * or the lead is tied. Returns the number of hands; *tied_at is the last hand after which the lead
 * was tied at 1000 or more (0: never). */
static int play_match(pf_run *r, uint64_t seed, int players, bool teams, int *tied_at) {
  const pf_game *g = pf_game_find("gharat");
  pf_setup s = {.players = players, .seed = seed};
  pf_options_default(g->options, g->noptions, &s.options);
  assert_int_equal(s.options.v[0], 1000); /* the default target */
  s.options.v[1] = teams;
  pf_error err;
  assert_int_equal(pf_run_start(r, g, &s, &err), 0);
  int hand = 1, sides = teams ? 2 : players;
  int before[4] = {0};
  *tied_at = 0;
  while (pf_run_to_move(r) >= 0) {
    tu_play_first(r, 1);
    bool over = pf_run_to_move(r) == PF_NOBODY;
    if (!over && tu_view_int(r, "hand_number") == hand) continue;
    /* A hand ended. */
    int side[4] = {0}, best = -1, nbest = 0;
    for (int p = 0; p < players; p++) {
      char path[32];
      snprintf(path, sizeof path, "totals.%d", p);
      side[teams ? p % 2 : p] += tu_view_int(r, path);
    }
    for (int i = 0; i < sides; i++) {
      assert_true(side[i] >= before[i]);
      before[i] = side[i];
      if (side[i] > best) best = side[i], nbest = 0;
      if (side[i] == best) nbest++;
    }
    assert_int_equal(over, best >= 1000 && nbest == 1);
    if (!over && best >= 1000) *tied_at = hand;
    hand++;
  }
  return hand - 1;
}

/* GHA-6: a match to 1000 in which, after hand 28, both totals are tied at 1000 or more: one
 * more hand decides it, and the whole match's record replays. Seed 1283, 2 players. */
static void test_GHA_6_match_to_1000_decided_by_a_tie_break_hand(void **unused) {
  (void)unused;
  pf_run r;
  int tied_at;
  assert_int_equal(play_match(&r, 1283, 2, false, &tied_at), 29);
  assert_int_equal(tied_at, 28);
  assert_int_equal(r.ndeals, 29);
  int sc[2];
  tu_scores(&r, sc);
  assert_int_equal(sc[0], tu_view_int(&r, "totals.0"));
  assert_int_equal(sc[1], tu_view_int(&r, "totals.1"));
  assert_true(sc[0] != sc[1]);
  tu_expect_winners(&r, sc[0] > sc[1] ? "0" : "1");
  json_t *j = pf_record_json(&r);
  char *text = json_dumps(j, JSON_COMPACT);
  json_decref(j);
  pf_record rec;
  pf_run again;
  pf_error err;
  assert_int_equal(pf_record_parse(text, strlen(text), &rec, &err), 0);
  assert_int_equal(rec.setup.ndeals, 29);
  assert_int_equal(pf_record_replay(&rec, -1, &again, NULL, &err), 0);
  assert_int_equal(pf_record_check_result(&rec, &again, &err), 0);
  pf_run_free(&again);
  pf_record_free(&rec);
  free(text);
  pf_run_free(&r);
}

/* GHA-6 with teams (GHA-1): the team totals decide; seed 499 ties the teams at 1000 or more
 * after hand 30, and hand 31 decides. */
static void test_GHA_6_teams_match_tie_break(void **unused) {
  (void)unused;
  pf_run r;
  int tied_at;
  assert_int_equal(play_match(&r, 499, 4, true, &tied_at), 31);
  assert_int_equal(tied_at, 30);
  int sc[4];
  tu_scores(&r, sc);
  assert_true(sc[0] == sc[2] && sc[1] == sc[3] && sc[0] != sc[1]);
  tu_expect_winners(&r, sc[0] > sc[1] ? "0 2" : "1 3");
  /* The end tells the last hand (GHA-4: the play pile for nobody) and the match won by a team. */
  char want[256];
  int won = sc[0] > sc[1] ? 0 : 1, pile = tu_view_int(&r, "play_pile.size");
  tu_expect_view_of(&r, PF_VIEW_PUBLIC, "end.0.kind", "hand_over");
  tu_expect_view_of(&r, PF_VIEW_PUBLIC, "end.0.rule", "GHA-4");
  tu_expect_view_of(&r, PF_VIEW_PUBLIC, "end.0.hand", "31");
  assert_int_equal(tu_view_int(&r, "end.0.play_pile"), pile);
  tu_expect_view_of(&r, 2, "end.1.kind", "match_over");
  tu_expect_view_of(&r, 2, "end.1.rule", "GHA-6");
  snprintf(want, sizeof want, "The match to 1000 points is over after hand 31: seat %d and seat %d have the highest total, %d points.",
           won, won + 2, sc[won]);
  tu_expect_view_of(&r, 2, "end.1.text", want);
  snprintf(want, sizeof want, "%d", won);
  tu_expect_view_of(&r, 2, "end.1.words.1.seat", want);
  snprintf(want, sizeof want, "%d", won + 2);
  tu_expect_view_of(&r, 2, "end.1.words.3.seat", want);
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* The zones of the JSON view (docs/views.md)                                                 */
/* ------------------------------------------------------------------------------------------ */

/* The stock, the play pile (its unseen cards null, GHA-2), the capture piles with their points,
 * the hands; a card goes onto the play pile or takes from it, or takes from a capture pile. */
static void test_views_zones_and_moves(void **unused) {
  (void)unused;
  pf_run r;
  start_deal(&r, 2, "2S 7S 7D 7C  7H 2H  8S 8H  9S 9H  TS TH", NULL);
  tu_expect_zone_ids(&r, 1, "stock play captures:0 captures:1 hand:0 hand:1");
  tu_expect_zone(&r, 1, "play", "cards", "null null null 7C");
  tu_expect_zone(&r, PF_VIEW_ALL, "play", "cards", "2S 7S 7D 7C");
  tu_expect_move_zones(&r, 0, "7H>pp", "hand:0 7H play");
  tu_expect_move_zones(&r, 0, "8S", "hand:0 8S play");
  tu_play(&r, "7H>pp");
  tu_expect_zone(&r, 1, "captures:0", "cards", "7S 7D 7C 7H");
  tu_expect_zone(&r, 1, "captures:0", "note", "20 points");
  tu_expect_zone(&r, 1, "play", "cards", "2S");
  tu_play(&r, "2H>pp");
  tu_expect_move_zones(&r, 0, "8S", "hand:0 8S play");
  pf_run_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_GHA_1_players_deck_and_teams_option),
      cmocka_unit_test(test_GHA_1_teams_score_together),
      cmocka_unit_test(test_GHA_2_play_pile_then_four_cards_each),
      cmocka_unit_test(test_GHA_2_uncovered_card_becomes_visible),
      cmocka_unit_test(test_GHA_3_capture_takes_the_run_of_equal_ranks),
      cmocka_unit_test(test_GHA_3_run_stops_at_another_rank),
      cmocka_unit_test(test_GHA_3_choice_of_targets_and_taking_a_capture_pile),
      cmocka_unit_test(test_GHA_3_own_pile_card_is_added),
      cmocka_unit_test(test_GHA_4_four_more_cards_when_hands_are_empty),
      cmocka_unit_test(test_GHA_4_hand_ends_with_the_stock_play_pile_for_nobody),
      cmocka_unit_test(test_GHA_5_card_points),
      cmocka_unit_test(test_GHA_6_target_zero_is_one_hand),
      cmocka_unit_test(test_GHA_6_hands_move_on_with_new_deals),
      cmocka_unit_test(test_GHA_6_match_to_1000_decided_by_a_tie_break_hand),
      cmocka_unit_test(test_GHA_6_teams_match_tie_break),
      cmocka_unit_test(test_views_zones_and_moves),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
