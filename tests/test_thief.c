/*
 * test_thief.c - Thief and Four Card Thief, ruling by ruling (RULINGS THF-1 .. THF-8, FCT-1 ..
 * FCT-6, with G-2, G-3, G-5, G-6, G-7, G-9).
 *
 * Every test starts from a fixed deal, written as what each seat is dealt, then the discard pile's
 * first card (Thief) or the four table cards (Four Card Thief), then the top of the stock; the
 * rest of the deck follows in its standard order (tu_deal). With N players seat N-1 deals first,
 * so seat 0 gets the first card (THF-2, G-2). The two long deals at the end were found by playing
 * "always the first legal move" from shuffled decks; each is named after what its game shows, and
 * its test replays it with the same policy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define MAX_SEATS_TEST 6

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                    */
/* ------------------------------------------------------------------------------------------ */

static bool is_fct(const char *game) { return strcmp(game, "four-card-thief") == 0; }

/* Builds the deck order of a first hand: hands[p] is what seat p is dealt (space-separated, in
 * the order received), then `heap` (the discard pile's card, or the 4 table cards), then `stock`
 * (its top first). */
static void build_deal(pf_deal *d, const char *game, int players, const char *const *hands, const char *heap,
                       const char *stock) {
  char cards[MAX_SEATS_TEST][8][8];
  int n[MAX_SEATS_TEST] = {0}, per = is_fct(game) ? 4 : 3;
  for (int p = 0; p < players; p++) {
    char buf[128];
    snprintf(buf, sizeof buf, "%s", hands[p]);
    for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
      snprintf(cards[p][n[p]++], 8, "%s", w);
    if (n[p] != per) fail_msg("seat %d is dealt %d cards, not %d", p, n[p], per);
  }
  char top[1024] = "";
  for (int j = 0; j < per; j++)
    for (int p = 0; p < players; p++) snprintf(top + strlen(top), sizeof top - strlen(top), "%s ", cards[p][j]);
  snprintf(top + strlen(top), sizeof top - strlen(top), "%s %s", heap, stock ? stock : "");
  tu_deal(d, is_fct(game) ? 1 : 2, is_fct(game) ? 3 : 4, top);
}

static void start(pf_run *r, const char *game, int players, const char *const *hands, const char *heap,
                  const char *stock, const char *options) {
  pf_deal d;
  build_deal(&d, game, players, hands, heap, stock);
  tu_start(r, game, players, &d, options);
  tu_check(r);
}

/* Seat `seat`'s capture pile: its captures bottom first, each in brackets, bottom card first. */
static void expect_captures(const pf_run *r, int seat, const char *want) {
  json_t *v = tu_view(r, PF_VIEW_ALL);
  json_t *pile = json_array_get(json_object_get(v, "piles"), (size_t)seat);
  char buf[2048];
  tu_render(json_object_get(pile, "captures"), buf, sizeof buf);
  json_decref(v);
  if (strcmp(buf, want) != 0) fail_msg("seat %d's captures are \"%s\", expected \"%s\"", seat, buf, want);
}

static int pile_int(const pf_run *r, int seat, const char *key) {
  json_t *v = tu_view(r, PF_VIEW_ALL);
  json_t *x = json_object_get(json_array_get(json_object_get(v, "piles"), (size_t)seat), key);
  int n = json_is_boolean(x) ? json_is_true(x) : (int)json_integer_value(x);
  json_decref(v);
  return n;
}

static void expect_to_move(const pf_run *r, int seat) {
  if (pf_run_to_move(r) != seat) fail_msg("seat %d is to move, expected seat %d", pf_run_to_move(r), seat);
}

/* The legal moves must include `move`. */
static void expect_legal_has(const pf_run *r, const char *move) {
  char *legal = tu_legal(r);
  char padded[4096];
  snprintf(padded, sizeof padded, " %s ", legal);
  char want[64];
  snprintf(want, sizeof want, " %s ", move);
  if (!strstr(padded, want)) fail_msg("%s is not among the legal moves \"%s\"", move, legal);
  free(legal);
}

/* THF-8: what a card scores in Thief; FCT-6: in Four Card Thief. Written out independently of
 * the engine. */
static int points(const char *game, const char *card) {
  if (strcmp(card, "JK") == 0) return is_fct(game) ? 25 : 50;
  char r = card[0];
  if (is_fct(game)) return strchr("JQKA", r) ? 10 : 1;
  if (r == 'A') return 15;
  if (r == '2') return 25;
  return strchr("TJQK", r) ? 10 : 5;
}

/* The points of every card in seat p's capture pile, from the view's card lists. */
static int pile_points_from_view(const pf_run *r, int seat) {
  json_t *v = tu_view(r, PF_VIEW_ALL);
  json_t *caps = json_object_get(json_array_get(json_object_get(v, "piles"), (size_t)seat), "captures");
  int pts = 0;
  size_t i, j;
  json_t *cap, *c;
  json_array_foreach(caps, i, cap) json_array_foreach(cap, j, c) pts += points(r->game->id, json_string_value(c));
  json_decref(v);
  return pts;
}

static const char *const TWO_QUIET[2] = {"3S 4H 6D", "5C 9S JH"};

/* ------------------------------------------------------------------------------------------ */
/* THF-1 Cards                                                                                */
/* ------------------------------------------------------------------------------------------ */

/* THF-1: 108 cards, two decks and 4 jokers; a deal of one deck, or without the jokers, is not
 * Thief's deck. */
static void test_THF_1_two_decks_and_four_jokers(void **unused) {
  (void)unused;
  const pf_game *g = pf_game_find("thief");
  pf_deal one, nojk;
  tu_deal(&one, 1, 4, NULL);
  tu_deal(&nojk, 2, 0, NULL);
  const pf_deal *bad[2] = {&one, &nojk};
  for (int i = 0; i < 2; i++) {
    pf_setup s = {.players = 2, .seed = 1, .ndeals = 1, .deals = bad[i]};
    pf_options_default(g->options, g->noptions, &s.options);
    pf_run r;
    pf_error err;
    if (pf_run_start(&r, g, &s, &err) == 0) fail_msg("a deal of %d cards was accepted", bad[i]->ncards);
    assert_non_null(strstr(err.msg, "deal 1"));
  }
  pf_run r;
  start(&r, "thief", 2, TWO_QUIET, "KD", NULL, NULL);
  assert_int_equal(tu_view_int(&r, "stock"), 108 - 2 * 3 - 1);
  pf_run_free(&r);
}

/* THF-1: every 2 and every joker is wild: either steals a capture of any rank; a natural card of
 * another rank does not. */
static void test_THF_1_twos_and_jokers_are_wild(void **unused) {
  (void)unused;
  const char *const hands[2] = {"8S 8H 5C", "2D JK QS"};
  pf_run r;
  start(&r, "thief", 2, hands, "KD", "3C 4D 6H 7S", NULL);
  tu_play(&r, "8H+8S");
  tu_play(&r, "pass"); /* THF-6: seat 0 ends its turn */
  expect_to_move(&r, 1);
  tu_expect_legal(&r, "2D>p0 JK>p0");
  tu_refuse(&r, "QS>p0", "does not match 8S");
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* THF-2 Deal                                                                                 */
/* ------------------------------------------------------------------------------------------ */

/* THF-2: 3 cards each, one at a time from the seat after the dealer; then the top card of the
 * stock starts the discard pile; seat 0 plays first (G-2). */
static void test_THF_2_three_cards_each_then_the_discard_pile(void **unused) {
  (void)unused;
  pf_run r;
  pf_deal d;
  tu_deal(&d, 2, 4, "3S 5C 4H 9S 6D JH KD TC");
  tu_start(&r, "thief", 2, &d, NULL);
  tu_expect_hand(&r, 0, "3S 4H 6D");
  tu_expect_hand(&r, 1, "5C 9S JH");
  tu_expect_view(&r, "discard", "KD");
  tu_expect_view(&r, "dealer", "1");
  tu_expect_view(&r, "to_move", "0");
  assert_int_equal(tu_view_int(&r, "stock"), 101);
  /* The stock is the rest of the deal, in order, TC first. */
  char stock[1024] = "";
  for (int i = 7; i < d.ncards; i++) {
    char c[PF_CARD_STR];
    snprintf(stock + strlen(stock), sizeof stock - strlen(stock), "%s%s", i > 7 ? " " : "", pf_card_str(d.cards[i], c));
  }
  assert_int_equal(strncmp(stock, "TC AS 2S 4S 5S 6S 7S 8S TS JS QS KS", 35), 0);
  tu_expect_view(&r, "stock_cards", stock);
  pf_run_free(&r);
  /* 3 players: seat 2 deals, seats 0, 1, 2 are dealt in turn. */
  const char *const three[3] = {"3S 4H 6D", "5C 9S JH", "TC QD KS"};
  start(&r, "thief", 3, three, "8C", NULL, NULL);
  tu_expect_hand(&r, 2, "TC QD KS");
  tu_expect_view(&r, "dealer", "2");
  assert_int_equal(tu_view_int(&r, "stock"), 108 - 9 - 1);
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* THF-3 Capture piles                                                                        */
/* ------------------------------------------------------------------------------------------ */

/* THF-3: a pile is a stack of captures, the capturing card on top of each; a steal takes only the
 * top capture, and the views show every capture's cards to every seat. */
static void test_THF_3_piles_are_stacks_of_captures(void **unused) {
  (void)unused;
  const char *const hands[2] = {"9S 9H 4C", "5D 5H 7C"};
  pf_run r;
  /* seat 0: 9H+9S, draws 7D 7S: then 7S+7D, draws JD QS: a pile of two captures. */
  start(&r, "thief", 2, hands, "KD", "7D 7S JD QS 6C 3H 8C", NULL);
  tu_play(&r, "9H+9S");
  tu_play(&r, "7S+7D"); /* read in either order: 7D+7S */
  expect_captures(&r, 0, "[9H 9S] [7D 7S]");
  assert_int_equal(pile_int(&r, 0, "size"), 4);
  tu_play(&r, "pass");
  /* seat 1: 5D+5H (draws 6C 3H); then 7C steals only the top capture, 7C on top of it. */
  expect_to_move(&r, 1);
  tu_play(&r, "5D+5H");
  tu_play(&r, "7C>p0");
  expect_captures(&r, 0, "[9H 9S]");
  expect_captures(&r, 1, "[5D 5H] [7D 7S 7C]");
  /* Seat 0's own view shows seat 1's captures too (everyone saw them played). */
  json_t *v = tu_view(&r, 0);
  char buf[256];
  tu_render(json_object_get(json_array_get(json_object_get(v, "piles"), 1), "captures"), buf, sizeof buf);
  assert_string_equal(buf, "[5D 5H] [7D 7S 7C]");
  json_decref(v);
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* THF-4 Captures                                                                             */
/* ------------------------------------------------------------------------------------------ */

/* THF-4(a): a pair of equal ranks, written in alphabetical order (either order is read); two 2s
 * and two jokers are pairs, a wild pairs only with its own rank. */
static void test_THF_4a_pairs(void **unused) {
  (void)unused;
  const char *const hands[2] = {"7S 9D 7H", "5C 9S JH"};
  pf_run r;
  start(&r, "thief", 2, hands, "KD", "3C 4D 6H 8S", NULL);
  tu_expect_legal(&r, "7H+7S");
  tu_refuse(&r, "7S+9D", "not a pair");
  tu_play(&r, "7s+7h"); /* read in either order and any case (G-9) ... */
  assert_string_equal(r.moves[0], "7H+7S"); /* ... and recorded canonically */
  expect_captures(&r, 0, "[7H 7S]");
  tu_expect_hand(&r, 0, "9D 3C 4D"); /* drew up to 3 (THF-6) */
  pf_run_free(&r);

  const char *const wild[2] = {"2S 2H JK", "5C 9S JH"};
  start(&r, "thief", 2, wild, "KD", "JK 4D 6H 8S 3C", NULL);
  tu_expect_legal(&r, "2H+2S");
  tu_refuse(&r, "2S+JK", "a wild pairs only with its own rank");
  tu_play(&r, "2H+2S");
  tu_expect_hand(&r, 0, "JK JK 4D");
  tu_expect_legal(&r, "JK+JK pass"); /* seat 1's pile is empty: nothing to steal */
  pf_run_free(&r);
}

/* random_move (game.h) draws every move as listing them and drawing an index would: the same
 * count, the same move, the generator in the same place, over many draws. */
static void expect_random_moves_listed(const pf_run *r) {
  pf_move moves[PF_MAX_MOVES];
  int n = r->game->legal(r->state, moves);
  for (uint64_t k = 0; k < 300; k++) {
    pf_rng listed, drawn;
    pf_rng_seed(&listed, k, 1);
    drawn = listed;
    int count = 0;
    pf_move want = moves[pf_rng_below(&listed, (uint32_t)n)], got = pf_random_move(r->game, r->state, &drawn, &count);
    if (count != n || got != want || memcmp(&listed, &drawn, sizeof listed) != 0)
      fail_msg("draw %d: random_move gave move %u of %d, listing gave %u of %d", (int)k, got, count, want, n);
  }
}

/* THF-4 with G-5: a card held twice offers its moves once (two decks and four jokers): the pairs
 * of 7H 7H 7S are 7H+7H and 7H+7S, its discard captures 7H>d and 7S>d; three jokers make one
 * pair, and two jokers and a 7 steal a 7 with JK and 7C, once each. random_move, which counts
 * these moves without listing them, draws as the list does. */
static void test_THF_4_equal_cards_offer_their_moves_once(void **unused) {
  (void)unused;
  const char *const sevens[2] = {"7H 7H 7S", "5C 9S JH"};
  pf_run r;
  start(&r, "thief", 2, sevens, "7D", "3C 4D 6H 8S", NULL);
  tu_expect_legal(&r, "7H+7H 7H+7S 7H>d 7S>d");
  expect_random_moves_listed(&r);
  pf_run_free(&r);

  const char *const jokers[2] = {"JK JK JK", "5C 9S JH"};
  start(&r, "thief", 2, jokers, "KD", "3C 4D 6H 8S", NULL);
  tu_expect_legal(&r, "JK+JK");
  expect_random_moves_listed(&r);
  tu_play(&r, "JK+JK"); /* the third joker stays, and pairs with nothing (the state's check, too) */
  tu_expect_hand(&r, 0, "JK 3C 4D");
  tu_expect_legal(&r, "pass");
  expect_random_moves_listed(&r);
  pf_run_free(&r);

  const char *const steals[2] = {"7H 7S 5D", "JK JK 7C"};
  start(&r, "thief", 2, steals, "KD", "3C 4D 6H 8S 9H", NULL);
  tu_play(&r, "7H+7S");
  expect_random_moves_listed(&r); /* 5D's, 3C's and 4D's moves: none but pass */
  tu_play(&r, "pass");
  tu_expect_legal(&r, "JK+JK JK>p0 7C>p0");
  expect_random_moves_listed(&r);
  tu_play(&r, "JK>p0");
  expect_random_moves_listed(&r); /* seat 0 answers (THF-5) */
  pf_run_free(&r);
}

/* THF-4(b): the discard pile's top card, with a card of the same rank; a wild only by its own
 * rank. */
static void test_THF_4b_the_discard_pile(void **unused) {
  (void)unused;
  const char *const hands[2] = {"9D 2H 4C", "5C 9S JH"};
  pf_run r;
  start(&r, "thief", 2, hands, "9C", "3C 6H 8S", NULL);
  tu_expect_legal(&r, "9D>d");
  tu_refuse(&r, "2H>d", "does not match the discard pile's top card 9C");
  tu_play(&r, "9D>d");
  expect_captures(&r, 0, "[9C 9D]");
  tu_expect_view(&r, "discard", "");
  pf_run_free(&r);

  const char *const two[2] = {"2D 5H 4C", "5C 9S JH"};
  start(&r, "thief", 2, two, "2C", "3C 6H 8S", NULL);
  tu_expect_legal(&r, "2D>d");
  pf_run_free(&r);
}

/* THF-4(c): a steal with the rank of the top card of another player's pile, or any wild, takes
 * that player's top capture, the card played on top; never from one's own pile. */
static void test_THF_4c_steals(void **unused) {
  (void)unused;
  const char *const hands[2] = {"8S 8H 5C", "8D 2H QS"};
  pf_run r;
  start(&r, "thief", 2, hands, "KD", "3C 4D 6H 7S TC", NULL);
  tu_play(&r, "8H+8S");
  tu_play(&r, "pass");
  expect_to_move(&r, 1);
  tu_expect_legal(&r, "8D>p0 2H>p0");
  tu_refuse(&r, "8D>p1", "not your own");
  tu_refuse(&r, "8D>p7", "no seat 7");
  tu_play(&r, "8D>p0");
  expect_captures(&r, 1, "[8H 8S 8D]");
  expect_captures(&r, 0, "");
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* THF-5 Re-capture                                                                           */
/* ------------------------------------------------------------------------------------------ */

/* THF-5: after a steal the thief draws at once, then the victim answers; re-captures alternate,
 * each with a card of the contested rank (8, the top card before the first steal) or a wild, and
 * whoever re-captures draws at once. Four re-captures, then a pass; the turn goes on. */
static void test_THF_5_a_chain_of_four_recaptures(void **unused) {
  (void)unused;
  const char *const hands[2] = {"8S 8H 8C", "8D 2H QS"};
  pf_run r;
  start(&r, "thief", 2, hands, "KD", "2C 5D 6H 7S 8S 9C TC 3D 4S", NULL);
  tu_play(&r, "8H+8S"); /* seat 0 draws 2C 5D: no capture left */
  tu_expect_hand(&r, 0, "8C 2C 5D");
  tu_expect_legal(&r, "pass"); /* THF-6: asked all the same */
  tu_play(&r, "pass");
  expect_to_move(&r, 1);
  tu_play(&r, "8D>p0");
  /* The thief drew before the victim answers. */
  tu_expect_hand(&r, 1, "2H QS 6H");
  assert_int_equal(tu_view_int(&r, "stock"), 108 - 7 - 3);
  expect_to_move(&r, 0);
  tu_expect_legal(&r, "8C>p1 2C>p1 pass");
  tu_expect_view(&r, "phase", "answer");
  tu_refuse(&r, "5D", "re-capture from p1 or pass");
  tu_play(&r, "8C>p1"); /* 1: seat 0 re-captures and draws 7S */
  expect_captures(&r, 0, "[8H 8S 8D 8C]");
  tu_expect_hand(&r, 0, "2C 5D 7S");
  expect_to_move(&r, 1);
  tu_expect_legal(&r, "2H>p0 pass");
  tu_play(&r, "2H>p0"); /* 2: the thief re-captures with a wild, draws 8S */
  tu_expect_hand(&r, 1, "QS 6H 8S");
  expect_to_move(&r, 0);
  tu_play(&r, "2C>p1"); /* 3 */
  expect_to_move(&r, 1);
  /* The top card is now 2C, but the contested rank stays 8: an 8 re-captures. */
  tu_expect_legal(&r, "8S>p0 pass");
  tu_play(&r, "8S>p0"); /* 4 */
  expect_captures(&r, 1, "[8H 8S 8D 8C 2H 2C 8S]");
  expect_captures(&r, 0, "");
  /* Seat 0 holds no 8 and no wild: it is still asked, and pass is its only move. */
  expect_to_move(&r, 0);
  tu_expect_hand(&r, 0, "5D 7S 9C");
  tu_expect_legal(&r, "pass");
  tu_play(&r, "pass");
  /* Seat 1's turn goes on (THF-6): it has no capture and passes; seat 0 has none either and
   * discards. */
  expect_to_move(&r, 1);
  tu_expect_view(&r, "phase", "captured");
  tu_expect_legal(&r, "pass");
  tu_play(&r, "pass");
  expect_to_move(&r, 0);
  tu_expect_view(&r, "phase", "start");
  tu_expect_legal(&r, "5D 7S 9C");
  pf_run_free(&r);
}

/* THF-5: the victim may decline; then the thief's turn goes on, its captures optional (THF-6). */
static void test_THF_5_a_declined_recapture(void **unused) {
  (void)unused;
  const char *const hands[2] = {"8S 8H 8C", "8D 2H QS"};
  pf_run r;
  start(&r, "thief", 2, hands, "KD", "2C 5D QH 7S 8S 9C TC 3D 4S", NULL);
  tu_play(&r, "8H+8S");
  tu_play(&r, "pass");
  tu_play(&r, "8D>p0"); /* seat 1 draws QH: a pair of queens */
  tu_expect_legal(&r, "8C>p1 2C>p1 pass");
  tu_play(&r, "pass");
  expect_captures(&r, 1, "[8H 8S 8D]");
  /* The turn goes on: seat 1 may capture its pair, or end the turn (THF-6). */
  expect_to_move(&r, 1);
  tu_expect_view(&r, "phase", "captured");
  tu_expect_legal(&r, "QH+QS pass");
  tu_play(&r, "QH+QS");
  /* Seat 1 drew 7S 8S; seat 0's pile is empty: nothing to capture, only pass. Seat 0 steals
   * seat 1's top capture in its own turn, the first action of it: forced. */
  tu_expect_legal(&r, "pass");
  tu_play(&r, "pass");
  expect_to_move(&r, 0);
  tu_expect_legal(&r, "2C>p1");
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* THF-6 A turn                                                                               */
/* ------------------------------------------------------------------------------------------ */

/* THF-6 (and G-7): a turn's first action is forced: with a capture available only captures are
 * legal, of the player's choice; after it the player may go on capturing or pass, and is asked
 * even when pass is the only move; the turn ends without a discard. */
static void test_THF_6_the_first_action_is_forced(void **unused) {
  (void)unused;
  const char *const hands[2] = {"9S 9H 9D", "5D 5H 7C"};
  pf_run r;
  start(&r, "thief", 2, hands, "9C", "TS JD QC 3H 4S", NULL);
  tu_expect_legal(&r, "9H+9S 9D+9S 9D+9H 9S>d 9H>d 9D>d");
  tu_refuse(&r, "9S", "a turn's first action is forced (THF-6)");
  tu_refuse(&r, "pass", "never before it (THF-6)");
  tu_play(&r, "9D>d"); /* draws TS */
  tu_expect_legal(&r, "9H+9S pass");
  tu_play(&r, "9H+9S");
  /* Drew TS, then JD QC: no capture; seat 0 is asked all the same, and its pass ends the turn
   * without a discard. */
  expect_to_move(&r, 0);
  tu_expect_legal(&r, "pass");
  tu_play(&r, "pass");
  expect_to_move(&r, 1);
  tu_expect_view(&r, "discard", "");
  tu_expect_hand(&r, 0, "TS JD QC");
  pf_run_free(&r);
}

/* THF-6: with no capture at the start, discard one card and draw one; captures may follow (the
 * discard pile's new top included), drawing up to 3 after each, until the player passes. */
static void test_THF_6_discard_then_capture(void **unused) {
  (void)unused;
  pf_run r;
  start(&r, "thief", 2, TWO_QUIET, "KD", "4S 6S 7C 8C TS JD", NULL);
  tu_expect_legal(&r, "3S 4H 6D");
  tu_play(&r, "6D"); /* draws 4S */
  tu_expect_view(&r, "discard", "KD 6D");
  tu_expect_view(&r, "phase", "discarded");
  tu_expect_hand(&r, 0, "3S 4H 4S");
  tu_expect_legal(&r, "4H+4S pass");
  tu_refuse(&r, "3S", "already discarded");
  tu_play(&r, "4H+4S"); /* draws 6S 7C: 6S takes back the discard */
  tu_expect_legal(&r, "6S>d pass");
  tu_play(&r, "6S>d"); /* draws 8C: nothing left to capture */
  tu_play(&r, "pass");
  expect_captures(&r, 0, "[4H 4S] [6D 6S]");
  tu_expect_view(&r, "discard", "KD");
  tu_expect_hand(&r, 0, "3S 7C 8C");
  expect_to_move(&r, 1);
  pf_run_free(&r);
}

/* THF-6 (revised): a thief who declined to re-capture is no longer forced to make the same steal
 * again: the turn goes on with every capture optional and pass among the moves, so the thief may
 * keep the wild for a later defence (THF-5). Before the revision 2H>p0 was the only move here. */
static void test_THF_6_revised_a_declined_recapture_keeps_the_wild(void **unused) {
  (void)unused;
  const char *const hands[2] = {"8S 8H 8C", "8D 2H QS"};
  pf_run r;
  start(&r, "thief", 2, hands, "KD", "5D 6H 7S 9C TC 3D 4S", NULL);
  tu_play(&r, "8H+8S"); /* draws 5D 6H */
  tu_play(&r, "pass");
  tu_play(&r, "8D>p0"); /* the first action; seat 1 draws 7S */
  tu_play(&r, "8C>p1"); /* seat 0 re-captures, draws 9C */
  expect_to_move(&r, 1);
  tu_expect_legal(&r, "2H>p0 pass");
  tu_play(&r, "pass"); /* the thief declines to re-capture */
  expect_to_move(&r, 1);
  tu_expect_view(&r, "phase", "captured");
  tu_expect_legal(&r, "2H>p0 pass"); /* the same steal, but no longer forced */
  tu_play(&r, "pass");
  expect_to_move(&r, 0);
  tu_expect_hand(&r, 1, "2H QS 7S");
  expect_captures(&r, 0, "[8H 8S 8D 8C]");
  pf_run_free(&r);
}

/* THF-6: after a discard, never a steal, even when one would match. */
static void test_THF_6_no_steal_after_a_discard(void **unused) {
  (void)unused;
  const char *const hands[2] = {"9S 9H 3C", "4D 5H 7C"};
  pf_run r;
  start(&r, "thief", 2, hands, "KD", "TS JD 5S 9D 5C 6C 8D QH", NULL);
  tu_play(&r, "9H+9S"); /* draws TS JD */
  tu_play(&r, "pass");
  expect_to_move(&r, 1);
  tu_expect_legal(&r, "4D 5H 7C");
  tu_play(&r, "4D"); /* draws 5S: a pair */
  tu_play(&r, "5H+5S"); /* draws 9D 5C: 9D would steal seat 0's 9s, 5C has no partner */
  tu_expect_hand(&r, 1, "7C 9D 5C");
  tu_expect_legal(&r, "pass"); /* no steal after a discard */
  pf_run_free(&r);
  /* The same position with a pair left: the pair is legal, the steal is refused. */
  start(&r, "thief", 2, hands, "KD", "TS JD 5S 9D 7S 6C 8D QH", NULL);
  tu_play(&r, "9H+9S");
  tu_play(&r, "pass");
  tu_play(&r, "4D");
  tu_play(&r, "5H+5S"); /* draws 9D 7S */
  tu_expect_legal(&r, "7C+7S pass");
  tu_refuse(&r, "9D>p0", "never a steal");
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* THF-7 and THF-8, with a whole game                                                         */
/* ------------------------------------------------------------------------------------------ */

static int hand_cards_held(const pf_run *r) {
  json_t *v = tu_view(r, PF_VIEW_ALL);
  int held = 0;
  size_t i;
  json_t *h;
  json_array_foreach(json_object_get(v, "hands"), i, h) held += (int)json_integer_value(json_object_get(h, "size"));
  json_decref(v);
  return held;
}

static int pile_cards_total(const pf_run *r) {
  int n = 0;
  for (int p = 0; p < r->setup.players; p++) n += pile_int(r, p, "size");
  return n;
}

/* THF-7 (and FCT-6, "as THF-7"), on one whole hand (hands=1) from a fixed deal, playing "always
 * the first legal move": once a draw has taken the last card, the same turn goes on (through a
 * THF-5 exchange too) with captures, and when it ends the hand ends; the
 * scores are the capture piles' points (THF-8 / FCT-6), while cards left in hands and in the
 * discard pile (on the table) count for nobody. */
static void check_the_last_turn(const char *game, int players, const char *top) {
  pf_run r;
  pf_deal d;
  tu_deal(&d, is_fct(game) ? 1 : 2, is_fct(game) ? 3 : 4, top);
  tu_start(&r, game, players, &d, "hands=1");
  int last_seat = -1, captures_after = 0;
  while (pf_run_to_move(&r) >= 0) {
    int stock = tu_view_int(&r, "stock"), turn = tu_view_int(&r, "turn");
    int held = hand_cards_held(&r), piled = pile_cards_total(&r);
    tu_play_first(&r, 1);
    if (stock == 0) { /* a move after the last card was drawn */
      assert_int_equal(turn, last_seat);
      captures_after += pile_cards_total(&r) > piled;
      assert_true(hand_cards_held(&r) <= held);
    }
    if (pf_run_to_move(&r) < 0) break;
    if (tu_view_int(&r, "stock") == 0) {
      if (last_seat < 0) last_seat = tu_view_int(&r, "turn");
      tu_expect_view(&r, "last_turn", "true");
      assert_int_equal(tu_view_int(&r, "turn"), last_seat); /* the last turn goes on */
    }
  }
  if (last_seat < 0) fail_msg("%s: the hand ended with the same move that drew the last card", game);
  if (captures_after == 0) fail_msg("%s: this deal should show captures after the last card", game);
  assert_int_equal(tu_view_int(&r, "stock"), 0);
  int scores[MAX_SEATS_TEST];
  tu_scores(&r, scores);
  for (int p = 0; p < players; p++) assert_int_equal(scores[p], pile_points_from_view(&r, p));
  json_t *v = tu_view(&r, PF_VIEW_ALL);
  int heap = (int)json_array_size(json_object_get(v, is_fct(game) ? "table" : "discard"));
  int left = heap + hand_cards_held(&r);
  json_decref(v);
  /* The end says so (THF-7): how many cards counted for nobody, where. */
  char want[256];
  snprintf(want, sizeof want, "%d", hand_cards_held(&r));
  tu_expect_view_of(&r, PF_VIEW_PUBLIC, "end.0.kind", "hand_over");
  tu_expect_view_of(&r, PF_VIEW_PUBLIC, "end.0.rule", "THF-7");
  tu_expect_view_of(&r, PF_VIEW_PUBLIC, "end.0.left_in_hands", want);
  snprintf(want, sizeof want, "%d", heap);
  tu_expect_view_of(&r, PF_VIEW_PUBLIC, is_fct(game) ? "end.0.left_on_table" : "end.0.left_in_discard", want);
  int held = hand_cards_held(&r);
  snprintf(want, sizeof want, "The stock ran out, ending the hand: the %d card%s left in hands and the %d card%s %s count for nobody.",
           held, held == 1 ? "" : "s", heap, heap == 1 ? "" : "s", is_fct(game) ? "on the table" : "of the discard pile");
  tu_expect_view_of(&r, 0, "end.0.text", want);
  assert_true(left > 0); /* there were cards left, and they counted for nobody */
  assert_int_equal(pile_cards_total(&r) + left, is_fct(game) ? 55 : 108);
  pf_run_free(&r);
}

/* Found by playing "always the first legal move": the last card is drawn mid-turn and captures
 * follow it. */
static const char DEAL_THIEF_LAST_CARD_3P[] =
    "8H 3H TD QC 8S 4C JS 9H QS 4H 8D 6H 9C 5C 2S 2H 8H TS 6S KH 8S 9C 7C 6C AH 7S 8C 3D AS TC 8C KS "
    "6D 9S 9D 4C 4S AH AS JH 6S 5D JC 5H 5H 4S QH 7D KH QS 3H 5D JK JK JK AD 9S 7D TH 5S 3S 3S 2C AC "
    "QC TH AC 9H 2C 7H 6C 2D 2D 3C TD 7S AD 3C JD QD TS 2H 7H JC KD 5S KD 4D JK 5C JH JS TC KC 6H 8D "
    "QH 7C QD JD 4D KC 3D 2S 9D 4H KS 6D";
static const char DEAL_FCT_LAST_CARD_2P[] =
    "AD 6C JS 6S 2H AC JK 2D TH QD JK 5H 8D 5C JD JC 4D 3H 7H 5S AH 9S TS 9H AS 7C 7D JH 6D 7S KS QS "
    "KC 9D 4H 3S 2S 9C TC QC QH JK 8C 4C 3C KH 2C 6H 4S 8S TD 8H 5D 3D KD";

static void test_THF_7_the_last_card_of_the_stock(void **unused) {
  (void)unused;
  check_the_last_turn("thief", 3, DEAL_THIEF_LAST_CARD_3P);
}

static void test_FCT_6_the_last_card_of_the_stock(void **unused) {
  (void)unused;
  check_the_last_turn("four-card-thief", 2, DEAL_FCT_LAST_CARD_2P);
}

/* The index of the end event of that kind in the full view, or -1. */
static int end_index(const pf_run *r, const char *kind) {
  json_t *v = tu_view(r, PF_VIEW_ALL), *end = json_object_get(v, "end");
  int at = -1;
  for (size_t i = 0; i < json_array_size(end) && at < 0; i++)
    if (strcmp(json_string_value(json_object_get(json_array_get(end, i), "kind")), kind) == 0) at = (int)i;
  json_decref(v);
  return at;
}

/* THF-5 at the end: the hand's last turn's steal and its exchange, as the view's end tells it:
 * each re-capture passes the contested capture to the other of the two seats, so its holder is the
 * thief after an even number and the victim after an odd one, and it lies in the holder's pile.
 * Over games of seeds 1..40 (3 players, one hand, the first legal move always), some end so. */
static void test_THF_5_the_last_exchange_told_at_the_end(void **unused) {
  (void)unused;
  const pf_game *g = pf_game_find("thief");
  int told = 0, answered = 0;
  for (uint64_t seed = 1; seed <= 40; seed++) {
    pf_setup s = {.players = 3, .seed = seed};
    pf_options_default(g->options, g->noptions, &s.options);
    s.options.v[0] = 1;
    pf_error err;
    pf_run r;
    assert_int_equal(pf_run_start(&r, g, &s, &err), 0);
    int last_turn_seat = -1;
    while (pf_run_to_move(&r) != PF_NOBODY) {
      if (tu_view_int(&r, "stock") == 0 && last_turn_seat < 0) last_turn_seat = tu_view_int(&r, "turn");
      tu_play_first(&r, 1);
    }
    int at = end_index(&r, "last_exchange");
    json_t *v = tu_view(&r, PF_VIEW_PUBLIC), *e = json_array_get(json_object_get(v, "end"), (size_t)at);
    if (at >= 0) {
      int thief = (int)json_integer_value(json_object_get(e, "thief")), victim = (int)json_integer_value(json_object_get(e, "victim"));
      int n = (int)json_integer_value(json_object_get(e, "recaptures")), holder = (int)json_integer_value(json_object_get(e, "holder"));
      assert_string_equal(json_string_value(json_object_get(e, "rule")), "THF-5");
      if (last_turn_seat >= 0) assert_int_equal(thief, last_turn_seat); /* the last turn's thief */
      assert_int_not_equal(thief, victim);
      assert_int_equal(holder, n % 2 ? victim : thief);
      /* The contested capture lies in the holder's pile (captures may have gone on top of it since). */
      json_t *caps = json_object_get(json_array_get(json_object_get(v, "piles"), (size_t)holder), "captures");
      bool found = false;
      for (size_t i = 0; i < json_array_size(caps); i++)
        found |= (long long)json_array_size(json_array_get(caps, i)) == json_integer_value(json_object_get(e, "cards"));
      assert_true(found);
      told++;
      answered += n > 0;
    }
    json_decref(v);
    pf_run_free(&r);
  }
  assert_true(told > 0);
  assert_true(answered > 0);
}

/* THF-8 (G-2, G-3, G-6): a game is N hands, N = players by default; each hand is a new deal (deal
 * k of the setup), dealt by the next seat, from the seat after it; totals add up; the highest
 * total wins. Three players, three explicit deals. */
static void play_a_game_of_hands(const char *game) {
  const pf_game *g = pf_game_find(game);
  int fct = is_fct(game), players = 3;
  pf_deal deals[3];
  tu_deal(&deals[0], fct ? 1 : 2, fct ? 3 : 4, "5C 9S JH QD 2C 8H 3D TS 4C 6H AS KD");
  tu_deal(&deals[1], fct ? 1 : 2, fct ? 3 : 4, "KS 3H 7C 9D 2S JC 4D QH 5S TD 6C AH");
  tu_deal(&deals[2], fct ? 1 : 2, fct ? 3 : 4, "AD 8C QS 3C 9H JD 2H KH 7S 4H TC 5D");
  pf_setup s = {.players = players, .seed = 1, .ndeals = 3, .deals = deals};
  pf_options_default(g->options, g->noptions, &s.options);
  pf_error err;
  pf_run r;
  if (pf_run_start(&r, g, &s, &err) != 0) fail_msg("start: %s", err.msg);
  tu_expect_view(&r, "hands_in_game", "3");
  int totals[3] = {0}, hand_no = 1;
  for (;;) {
    /* The start of hand k: dealer seat (2 + k - 1) % 3; the seat after it was dealt first and
     * plays first. */
    int dealer = (players - 1 + hand_no - 1) % players, first = (dealer + 1) % players;
    tu_expect_view(&r, "hand_number", hand_no == 1 ? "1" : hand_no == 2 ? "2" : "3");
    assert_int_equal(tu_view_int(&r, "dealer"), dealer);
    assert_int_equal(tu_view_int(&r, "turn"), first);
    json_t *v = tu_view(&r, first);
    const char *c0 = json_string_value(json_array_get(json_object_get(json_array_get(json_object_get(v, "hands"), (size_t)first), "cards"), 0));
    assert_string_equal(c0, hand_no == 1 ? "5C" : hand_no == 2 ? "KS" : "AD");
    json_decref(v);
    while (pf_run_to_move(&r) >= 0 && tu_view_int(&r, "hand_number") == hand_no) tu_play_first(&r, 1);
    v = tu_view(&r, PF_VIEW_ALL);
    for (int p = 0; p < players; p++) {
      totals[p] += (int)json_integer_value(json_array_get(json_object_get(v, "last_hand_scores"), (size_t)p));
      assert_int_equal(json_integer_value(json_array_get(json_object_get(v, "totals"), (size_t)p)), totals[p]);
    }
    json_decref(v);
    if (pf_run_to_move(&r) < 0) break;
    hand_no++;
  }
  assert_int_equal(hand_no, 3);
  assert_int_equal(r.ndeals, 3);
  /* The end tells the match's result (THF-8) after the last hand's end (THF-7). */
  char totals_text[64];
  snprintf(totals_text, sizeof totals_text, "%d %d %d", totals[0], totals[1], totals[2]);
  tu_expect_view(&r, "end.0.kind", "hand_over");
  tu_expect_view(&r, "end.0.hand", "3");
  char path[32];
  int at = end_index(&r, "match_over");
  assert_true(at >= 1);
  snprintf(path, sizeof path, "end.%d.rule", at);
  tu_expect_view(&r, path, "THF-8");
  snprintf(path, sizeof path, "end.%d.totals", at);
  tu_expect_view(&r, path, totals_text);
  int scores[3], w[3], best = -1;
  tu_scores(&r, scores);
  int nw = g->winners(r.state, w);
  for (int p = 0; p < players; p++) {
    assert_int_equal(scores[p], totals[p]);
    if (totals[p] > best) best = totals[p];
  }
  int want = 0;
  for (int p = 0; p < players; p++) want += totals[p] == best;
  assert_int_equal(nw, want);
  for (int i = 0; i < nw; i++) assert_int_equal(totals[w[i]], best);
  pf_run_free(&r);
}

static void test_THF_8_a_game_is_one_hand_per_player(void **unused) {
  (void)unused;
  play_a_game_of_hands("thief");
}

static void test_FCT_6_a_game_is_one_hand_per_player(void **unused) {
  (void)unused;
  play_a_game_of_hands("four-card-thief");
}

/* THF-8: the option hands; more deals than hands is refused. */
static void test_THF_8_option_hands(void **unused) {
  (void)unused;
  pf_run r;
  tu_start(&r, "thief", 3, NULL, "hands=2");
  tu_expect_view(&r, "hands_in_game", "2");
  int n = tu_play_first_to_end(&r);
  assert_true(n > 0);
  assert_int_equal(r.ndeals, 2);
  pf_run_free(&r);
  const pf_game *g = pf_game_find("thief");
  pf_deal deals[3];
  for (int k = 0; k < 3; k++) tu_deal(&deals[k], 2, 4, NULL);
  pf_setup s = {.players = 2, .seed = 1, .ndeals = 3, .deals = deals};
  pf_options_default(g->options, g->noptions, &s.options);
  pf_error err;
  assert_int_not_equal(pf_run_start(&r, g, &s, &err), 0);
  assert_non_null(strstr(err.msg, "a game of 2 hands uses 2 deals, but 3 are given"));
}

/* ------------------------------------------------------------------------------------------ */
/* Four Card Thief                                                                            */
/* ------------------------------------------------------------------------------------------ */

/* FCT-1: 55 cards, one deck and 3 jokers; only jokers are wild: a 2 steals nothing but a 2. */
static void test_FCT_1_only_jokers_are_wild(void **unused) {
  (void)unused;
  const char *const hands[2] = {"8S 8H 5C 3D", "2D JK QS 4H"};
  pf_run r;
  start(&r, "four-card-thief", 2, hands, "9C TC JC KC", "6H QD AS 7D 8C 8D", NULL);
  assert_int_equal(tu_view_int(&r, "stock"), 55 - 8 - 4 - 1); /* seat 0 drew to start its turn */
  tu_play(&r, "8H+8S"); /* draws QD AS */
  tu_play(&r, "5C");    /* no capture left: discard to the table, the turn ends */
  expect_to_move(&r, 1);
  tu_expect_legal(&r, "JK>p0");
  tu_refuse(&r, "2D>p0", "does not match 8S");
  pf_run_free(&r);
  const pf_game *g = pf_game_find("four-card-thief");
  pf_deal two;
  tu_deal(&two, 2, 4, NULL);
  pf_setup s = {.players = 2, .seed = 1, .ndeals = 1, .deals = &two};
  pf_options_default(g->options, g->noptions, &s.options);
  pf_error err;
  assert_int_not_equal(pf_run_start(&r, g, &s, &err), 0);
}

/* FCT-2: 4 cards each, one at a time; then 4 table cards, no discard pile. */
static void test_FCT_2_four_cards_each_and_four_table_cards(void **unused) {
  (void)unused;
  const char *const hands[3] = {"3S 4H 6D 8C", "5C 9S JH QD", "TC KS AD 7H"};
  pf_run r;
  start(&r, "four-card-thief", 3, hands, "9C TD JC KC", "5S", NULL);
  tu_expect_view(&r, "table", "9C TD JC KC");
  tu_expect_view(&r, "discard", "absent");
  tu_expect_hand(&r, 1, "5C 9S JH QD");
  tu_expect_hand(&r, 2, "TC KS AD 7H");
  tu_expect_hand(&r, 0, "3S 4H 6D 8C 5S"); /* FCT-3: the turn began with a draw */
  assert_int_equal(tu_view_int(&r, "stock"), 55 - 12 - 4 - 1);
  pf_run_free(&r);
}

/* FCT-3 (revised): a turn starts with a draw, so the player holds 5; table captures (7H>7S) and
 * pairs are forced, drawing up to 5 after each (no longer 4); the discard to the table ends the
 * turn with 4 cards in hand (no longer 3), and the next turn starts with a draw. */
static void test_FCT_3_a_turn(void **unused) {
  (void)unused;
  const char *const hands[2] = {"7H 4C 5D 6S", "3C 8D 9H QC"};
  pf_run r;
  start(&r, "four-card-thief", 2, hands, "7S TD JC KC", "4D 2S 3S 8S QH KH", NULL);
  tu_expect_hand(&r, 0, "7H 4C 5D 6S 4D");
  tu_expect_legal(&r, "4C+4D 7H>7S");
  tu_refuse(&r, "6S", "captures are forced");
  tu_refuse(&r, "7H>d", "no discard pile");
  tu_play(&r, "7H>7S");
  expect_captures(&r, 0, "[7S 7H]");
  tu_expect_view(&r, "table", "TD JC KC");
  tu_expect_hand(&r, 0, "4C 5D 6S 4D 2S"); /* drew 2S: back to 5 */
  tu_play(&r, "4D+4C"); /* read as 4C+4D; draws 3S 8S */
  tu_expect_hand(&r, 0, "5D 6S 2S 3S 8S");
  tu_expect_legal(&r, "5D 6S 2S 3S 8S");
  tu_play(&r, "6S");
  tu_expect_hand(&r, 0, "5D 2S 3S 8S"); /* "players should always have four cards" */
  tu_expect_view(&r, "table", "TD JC KC 6S");
  expect_to_move(&r, 1);
  tu_expect_hand(&r, 1, "3C 8D 9H QC QH"); /* drew QH to start the turn */
  tu_expect_legal(&r, "QC+QH");
  pf_run_free(&r);
}

/* FCT-4: a capture holding all four natural cards of a rank can never be stolen, and while it is
 * on top nothing can be stolen from that pile; once another capture covers it, that one can. */
static void test_FCT_4_a_locked_capture_cannot_be_stolen(void **unused) {
  (void)unused;
  const char *const hands[2] = {"7S 7H 7C 3D", "7D JK 4S 5C"};
  pf_run r;
  start(&r, "four-card-thief", 2, hands, "9C TD JC KC", "6H QS 8C QH 2H AS 5D 8S 9H 9S AH", NULL);
  tu_play(&r, "7H+7S"); /* seat 0 drew 6H to start; now draws QS 8C */
  tu_play(&r, "3D");    /* no capture left: to the table */
  tu_play(&r, "7D>p0"); /* seat 1 drew QH; steals with 7D, draws 2H */
  expect_captures(&r, 1, "[7H 7S 7D]");
  assert_int_equal(pile_int(&r, 1, "locked"), 0);
  expect_to_move(&r, 1); /* FCT-5: no re-capture; seat 1 has nothing more and discards */
  tu_play(&r, "4S");
  expect_to_move(&r, 0); /* drew AS */
  tu_expect_legal(&r, "7C>p1");
  tu_play(&r, "7C>p1"); /* draws 5D */
  expect_captures(&r, 0, "[7H 7S 7D 7C]");
  assert_int_equal(pile_int(&r, 0, "locked"), 1);
  tu_play(&r, "6H");
  expect_to_move(&r, 1); /* drew 8S; the joker would steal anything but the locked capture */
  tu_refuse(&r, "JK>p0", "locked");
  tu_expect_legal(&r, "JK 5C QH 2H 8S");
  tu_play(&r, "2H");
  tu_expect_legal(&r, "9H>9C"); /* seat 0 drew 9H */
  tu_play(&r, "9H>9C");         /* draws 9S */
  expect_captures(&r, 0, "[7H 7S 7D 7C] [9C 9H]");
  assert_int_equal(pile_int(&r, 0, "locked"), 0);
  tu_play(&r, "5D");
  expect_to_move(&r, 1); /* drew AH */
  expect_legal_has(&r, "JK>p0"); /* the top capture is not locked: it can be stolen */
  tu_play(&r, "JK>p0");
  expect_captures(&r, 0, "[7H 7S 7D 7C]");
  expect_captures(&r, 1, "[9C 9H JK]");
  pf_run_free(&r);
}

/* FCT-5: no re-capture: after a steal the thief goes on, and pass is never a move. */
static void test_FCT_5_no_recapture(void **unused) {
  (void)unused;
  const char *const hands[2] = {"8S 8H 5C 3D", "8D JK QS 4H"};
  pf_run r;
  start(&r, "four-card-thief", 2, hands, "9C TC JC KC", "6H 7S QD 7D AS AH", NULL);
  tu_play(&r, "8H+8S");
  tu_play(&r, "5C");
  expect_to_move(&r, 1);
  tu_play(&r, "8D>p0");
  expect_to_move(&r, 1);
  tu_refuse(&r, "pass", "no re-capture (FCT-5)");
  tu_expect_view(&r, "exchange", "absent");
  pf_run_free(&r);
}

/* FCT-6: joker 25; J, Q, K, A 10; 2-10 1 (and THF-8's values in Thief): the running scores are the
 * capture piles' points. */
static void test_FCT_6_and_THF_8_card_values(void **unused) {
  (void)unused;
  const char *const f[2] = {"KS KH 2C 2D", "JK 3C 4H 5D"};
  pf_run r;
  start(&r, "four-card-thief", 2, f, "9C TC JC AC", "AS JD 6D 7D", NULL);
  /* Seat 0 drew AS: KH+KS, 2C+2D and AS>AC. */
  tu_play(&r, "KH+KS");
  tu_play(&r, "2C+2D");
  tu_play(&r, "AS>AC");
  int scores[6];
  tu_scores(&r, scores);
  assert_int_equal(scores[0], 10 + 10 + 1 + 1 + 10 + 10);
  assert_int_equal(pile_int(&r, 0, "points"), scores[0]);
  pf_run_free(&r);

  const char *const t[2] = {"2S 2H AC", "5D 5H 7C"};
  start(&r, "thief", 2, t, "AD", "JK JK TS TH 3C 4D 6S 8C 9D", NULL);
  tu_play(&r, "2H+2S"); /* 25 + 25, draws JK JK */
  tu_play(&r, "AC>d");  /* 15 + 15, draws TS */
  tu_play(&r, "JK+JK"); /* 50 + 50, draws TH 3C */
  tu_play(&r, "TH+TS"); /* 10 + 10 */
  tu_scores(&r, scores);
  assert_int_equal(scores[0], 30 + 100 + 20 + 50);
  assert_int_equal(pile_points_from_view(&r, 0), scores[0]);
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* The zones of the JSON view (docs/views.md)                                                 */
/* ------------------------------------------------------------------------------------------ */

/* Thief: the stock, the discard pile, the capture piles (their cards bottom first, with their
 * points), the hands; a pair goes to the mover's captures, a steal to the victim's (THF-4). Four
 * Card Thief: one zone per table card (the second joker is "table:JK.2"); a table capture goes
 * to the table card it takes, a discard to no zone, as a new table card (FCT-3). */
static void test_views_zones_and_moves(void **unused) {
  (void)unused;
  const char *const hands[2] = {"8S 8H 5C", "8D 2H QS"};
  pf_run r;
  start(&r, "thief", 2, hands, "KD", "3C 4D 6H 7S TC", NULL);
  tu_expect_zone_ids(&r, 1, "stock discard captures:0 captures:1 hand:0 hand:1");
  tu_expect_zone(&r, 1, "discard", "cards", "KD");
  tu_expect_zone(&r, 1, "hand:0", "cards", "null null null");
  tu_expect_move_zones(&r, 0, "8H+8S", "hand:0 8H captures:0");
  tu_play(&r, "8H+8S");
  tu_expect_zone(&r, 1, "captures:0", "cards", "8H 8S");
  tu_expect_zone(&r, 1, "captures:0", "note", "10 points; top capture 2 cards");
  tu_play(&r, "pass");
  tu_expect_move_zones(&r, 1, "8D>p0", "hand:1 8D captures:0");
  tu_expect_move_zones(&r, 1, "2H>p0", "hand:1 2H captures:0");
  pf_run_free(&r);
  const char *const fct[2] = {"7H 2C 9D KS", "3H 4H 5H 6H"};
  start(&r, "four-card-thief", 2, fct, "7S JK 7D JK", "8C", NULL);
  tu_expect_zone_ids(&r, 0, "stock table:7S table:JK table:7D table:JK.2 captures:0 captures:1 hand:0 hand:1");
  tu_expect_zone(&r, 0, "table:JK.2", "cards", "JK");
  tu_expect_legal(&r, "7H>7S 7H>7D");
  tu_expect_move_zones(&r, 0, "7H>7S", "hand:0 7H table:7S");
  tu_expect_move_zones(&r, 0, "7H>7D", "hand:0 7H table:7D");
  tu_play(&r, "7H>7D");
  tu_expect_zone_ids(&r, 0, "stock table:7S table:JK table:JK.2 captures:0 captures:1 hand:0 hand:1");
  pf_run_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_THF_1_two_decks_and_four_jokers),
      cmocka_unit_test(test_THF_1_twos_and_jokers_are_wild),
      cmocka_unit_test(test_THF_2_three_cards_each_then_the_discard_pile),
      cmocka_unit_test(test_THF_3_piles_are_stacks_of_captures),
      cmocka_unit_test(test_THF_4a_pairs),
      cmocka_unit_test(test_THF_4_equal_cards_offer_their_moves_once),
      cmocka_unit_test(test_THF_4b_the_discard_pile),
      cmocka_unit_test(test_THF_4c_steals),
      cmocka_unit_test(test_THF_5_a_chain_of_four_recaptures),
      cmocka_unit_test(test_THF_5_a_declined_recapture),
      cmocka_unit_test(test_THF_6_the_first_action_is_forced),
      cmocka_unit_test(test_THF_6_discard_then_capture),
      cmocka_unit_test(test_THF_6_revised_a_declined_recapture_keeps_the_wild),
      cmocka_unit_test(test_THF_6_no_steal_after_a_discard),
      cmocka_unit_test(test_THF_5_the_last_exchange_told_at_the_end),
      cmocka_unit_test(test_THF_7_the_last_card_of_the_stock),
      cmocka_unit_test(test_THF_8_a_game_is_one_hand_per_player),
      cmocka_unit_test(test_THF_8_option_hands),
      cmocka_unit_test(test_FCT_1_only_jokers_are_wild),
      cmocka_unit_test(test_FCT_2_four_cards_each_and_four_table_cards),
      cmocka_unit_test(test_FCT_3_a_turn),
      cmocka_unit_test(test_FCT_4_a_locked_capture_cannot_be_stolen),
      cmocka_unit_test(test_FCT_5_no_recapture),
      cmocka_unit_test(test_FCT_6_and_THF_8_card_values),
      cmocka_unit_test(test_FCT_6_the_last_card_of_the_stock),
      cmocka_unit_test(test_FCT_6_a_game_is_one_hand_per_player),
      cmocka_unit_test(test_views_zones_and_moves),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
