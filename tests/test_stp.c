/*
 * test_stp.c - Steal the Pile, ruling by ruling (RULINGS STP-1 .. STP-8, with G-2, G-5, G-6).
 *
 * Every test starts from a fixed deal. Deals are deck orders, top card first (G-3). With N
 * players seat N-1 deals first, so seat 0 gets the first card, seat 1 the second, ... (STP-3);
 * in solitaire the first 4 cards are the open piles (STP-8). The long deals below were found by
 * playing "always the first legal move" from shuffled decks; each is named after what its game
 * shows, and the tests replay it with the same policy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* ------------------------------------------------------------------------------------------ */
/* Deals                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* 2 players: 25-27. 3 players: seat 2 is alone with the fewest cards after the last move and
 * takes every open pile, 9-31-12. Solitaire: the deck wins, 8 to 43. */
static const char DEAL_A[] =
    "TS KH 9D TC 8H 6D 5D KC AH 4H QH 9C 8C 5C KS 7C 5S 2D 8S 9S 4C AS 2C 4D 9H JC 6S QS JS 6H "
    "3H 2H TD 2S 6C 3S 7D TH QC QD 3C AC JH KD 5H 4S 7S 8D 7H 3D AD JD";
/* 3 players: seat 1 alone has the fewest and takes the 2 open piles; seats 0 and 2 tie for most
 * at 23. */
static const char DEAL_TIE_FOR_MOST_3P[] =
    "3D 9S 8H 5D 8C TC TD JS 8D 4C 7S 5C 3S TH 9H 3C 6H 2S 7C AC 8S JH 4H 6C 9D 5S 2C 5H 7H KC "
    "3H AS KS AH KH QH 4S KD QC 2D 2H 6D 9C AD JC 4D QS 7D JD TS QD 6S";
/* 3 players: seats 0 and 1 tie for fewest (8 each) with 3 open piles left: one each, one set
 * aside. */
static const char DEAL_SPLIT_3P[] =
    "JS 3S TH QD 5D 7S 4H KH 2H KD JD 9D 4C 5H KC 9H 4D TD 2S 8S 3C 6H QS 7C 3H 6C JH 6D KS 8D "
    "AS 8C 9S 2D 5S QC AH JC 9C 7D 8H 4S AD 7H TC 6S TS 2C 5C AC QH 3D";
/* 2 players: 26-26. */
static const char DEAL_26_26[] =
    "3C JS 8C JC AS QH 9H 4D 7D QC 3S 5H KS QS 6C JD 2D 6H 4H AC 5D 9C 8S 6D 5S 7S JH 8D KH 2S "
    "9D 4C 9S TC 4S 2H KD KC AH 7C 7H AD QD TH 2C 5C TS 3D 6S 3H 8H TD";
/* 2 players: 39-13. */
static const char DEAL_39_13[] =
    "4S KH KS 6C AD 7C 6H 2D 2C TC AC 5D 8S 9D 6D 4H 9H QS 7S 3S QD JD 3C 4D JH 5S TS 8D KC TD "
    "AS 9S 5H 8H 6S 3H 4C QC QH 7H KD 5C 2H 2S 7D JC 3D JS 9C TH 8C AH";
/* 2 players: 34-18. */
static const char DEAL_34_18[] =
    "QD 3S 8D QS AS 6S 9S KS 4D 9D 7H AD TH TD TS 7S 2D 6D 8H 5C 8S AC 6H QC 4S 5S 6C 5H KH 2S "
    "AH TC 7C 4C KD 9C JC 9H 3D KC JS 3C 4H 3H 8C JH JD QH 2C 7D 5D 2H";
/* Solitaire: the player wins, 36 to 12, 4 open piles left. */
static const char DEAL_SOLO_WIN[] =
    "2C 2H 2D 3C TS 5C AS AH 5S QD TC 9C 6C 2S 3S 7C 3H JH 4H 7H KS TH QH 4D KC KH AC 5H JD 9S "
    "TD 6D 8C 4C 8D AD 6H 7D QC JS 6S 5D 3D 9D 8S KD QS 8H 4S 7S 9H JC";
/* Solitaire: player and deck tie, 24 to 24, 4 open piles left. */
static const char DEAL_SOLO_TIE[] =
    "8D KC QC TH 4S 7S 9H AH 3H JS 9C 9S QD 7C KS 6D 3C KH 5S 8S 7D QS 6S 4D AD 6C 4C AC KD 6H "
    "5D 2D JC 2H 9D JH 3S 3D TD 8H 2C 2S 5C 4H 8C TC TS JD AS 7H QH 5H";

/* STP-2's table: players, open piles, dealt per round, dealt in the final round, rounds, cards. */
static const struct {
  int players, open, per, final, rounds, cards;
} TABLE[] = {
    {2, 4, 4, 4, 6, 52},   {3, 4, 4, 4, 4, 52},   {4, 4, 4, 4, 3, 52},   {5, 2, 3, 1, 4, 52},
    {6, 4, 3, 2, 3, 52},   {7, 6, 3, 2, 5, 104},  {8, 8, 3, 3, 4, 104},  {9, 5, 3, 2, 4, 104},
    {10, 4, 3, 1, 4, 104}, {11, 5, 3, 3, 3, 104}, {12, 8, 3, 2, 3, 104},
};

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                    */
/* ------------------------------------------------------------------------------------------ */

static void start_deal(pf_run *r, int players, const char *cards, const char *options) {
  pf_deal d;
  tu_deal(&d, players >= 7 ? 2 : 1, 0, cards);
  tu_start(r, "steal-the-pile", players, &d, options);
}

/* Starts a match (option target) from explicit deals, one per game. */
static void start_match(pf_run *r, int players, const char *target, int ndeals,
                        const char *const *decks) {
  const pf_game *g = pf_game_find("steal-the-pile");
  pf_deal deals[4];
  assert_true(ndeals <= 4);
  for (int k = 0; k < ndeals; k++) tu_deal(&deals[k], players >= 7 ? 2 : 1, 0, decks[k]);
  pf_setup s = {.players = players, .seed = 1, .ndeals = ndeals, .deals = deals};
  pf_options_default(g->options, g->noptions, &s.options);
  pf_error err;
  if (pf_option_parse_kv(g->options, g->noptions, target, &s.options, &err) != 0)
    fail_msg("option %s: %s", target, err.msg);
  if (pf_run_start(r, g, &s, &err) != 0) fail_msg("start: %s", err.msg);
}

/* Starting must fail, with a reason containing `why`. */
static void expect_start_refused(int players, const pf_deal *deals, int ndeals,
                                 const char *option, const char *why) {
  const pf_game *g = pf_game_find("steal-the-pile");
  pf_setup s = {.players = players, .seed = 1, .ndeals = ndeals, .deals = deals};
  pf_options_default(g->options, g->noptions, &s.options);
  pf_error err;
  if (option && pf_option_parse_kv(g->options, g->noptions, option, &s.options, &err) != 0)
    fail_msg("option %s: %s", option, err.msg);
  pf_run r;
  if (pf_run_start(&r, g, &s, &err) == 0) {
    pf_run_free(&r);
    fail_msg("the start with %d players should be refused (%s)", players, why);
  }
  if (!strstr(err.msg, why)) fail_msg("refused with \"%s\", expected \"%s\"", err.msg, why);
}

/* A pile object of a view: its cards bottom first, its size and its top. */
static void expect_pile_json(const json_t *pile, const char *what, const char *cards) {
  char buf[1024], top[8] = "null";
  int n = 0;
  tu_render(json_object_get(pile, "cards"), buf, sizeof buf);
  if (strcmp(buf, cards) != 0) fail_msg("%s holds \"%s\", expected \"%s\"", what, buf, cards);
  for (const char *p = cards; *p; p++)
    if (*p != ' ' && (p == cards || p[-1] == ' ')) n++, snprintf(top, sizeof top, "%.2s", p);
  assert_int_equal(json_integer_value(json_object_get(pile, "size")), n);
  tu_render(json_object_get(pile, "top"), buf, sizeof buf);
  assert_string_equal(buf, top);
}

/* Seat `seat`'s pile holds exactly these cards, bottom first ("" for empty). */
static void expect_pile(const pf_run *r, int seat, const char *cards) {
  json_t *v = tu_view(r, PF_VIEW_ALL);
  char what[32];
  snprintf(what, sizeof what, "seat %d's pile", seat);
  expect_pile_json(json_array_get(json_object_get(v, "piles"), (size_t)seat), what, cards);
  json_decref(v);
}

/* Solitaire: the deck's pile holds exactly these cards, bottom first. */
static void expect_deck_pile(const pf_run *r, const char *cards) {
  json_t *v = tu_view(r, PF_VIEW_ALL);
  expect_pile_json(json_object_get(v, "deck_pile"), "the deck's pile", cards);
  json_decref(v);
}

/* Seat `seat`'s pile has `size` cards and `top` on top. */
static void expect_pile_size(const pf_run *r, int seat, int size, const char *top) {
  json_t *v = tu_view(r, PF_VIEW_ALL);
  json_t *p = json_array_get(json_object_get(v, "piles"), (size_t)seat);
  char buf[16];
  assert_int_equal(json_integer_value(json_object_get(p, "size")), size);
  tu_render(json_object_get(p, "top"), buf, sizeof buf);
  assert_string_equal(buf, top);
  json_decref(v);
}

/* ------------------------------------------------------------------------------------------ */
/* STP-1 Cards                                                                                */
/* ------------------------------------------------------------------------------------------ */

/* STP-1: 1-6 players use one 52-card deck, 7-12 players two decks (104 cards). */
static void test_STP_1_one_deck_up_to_6_players_two_decks_from_7(void **unused) {
  (void)unused;
  for (int n = 1; n <= 12; n++) {
    pf_run r;
    tu_start(&r, "steal-the-pile", n, NULL, NULL);
    int want = n <= 6 ? 52 : 104;
    assert_int_equal(r.ndeals, 1);
    assert_int_equal(r.deals[0].ncards, want);
    /* Every card is somewhere: stock, hands or open piles. */
    json_t *v = tu_view(&r, PF_VIEW_ALL);
    int cards = (int)json_integer_value(json_object_get(v, "stock")) +
                (int)json_array_size(json_object_get(v, "open_piles"));
    size_t i;
    json_t *h;
    json_array_foreach(json_object_get(v, "hands"), i, h) cards +=
        (int)json_integer_value(json_object_get(h, "size"));
    json_decref(v);
    assert_int_equal(cards, want);
    pf_run_free(&r);
  }
}

/* STP-1: an explicit deal must be exactly the game's deck: duplicates only with two decks. */
static void test_STP_1_deal_must_be_the_games_deck(void **unused) {
  (void)unused;
  pf_deal one, two;
  tu_deal(&one, 1, 0, NULL);
  tu_deal(&two, 2, 0, "7H 7S 7D 7C 8S 8H 8D 7H");
  /* Two decks for 4 players, one deck for 7: refused. */
  expect_start_refused(4, &two, 1, NULL, "the deal has 104 cards, the game needs 52");
  expect_start_refused(7, &one, 1, NULL, "the deal has 52 cards, the game needs 104");
  /* A single deck holding a card twice (AS instead of AH): refused. */
  pf_deal dup = one;
  dup.cards[1] = dup.cards[0];
  expect_start_refused(2, &dup, 1, NULL, "AS 2 times");
  /* Two decks for 7 players: every card twice, accepted; seat 0 holds both 7H. */
  pf_run r;
  tu_start(&r, "steal-the-pile", 7, &two, NULL);
  tu_expect_hand(&r, 0, "7H 7H 9S");
  tu_expect_hand(&r, 1, "7S AS TS");
  pf_run_free(&r);
}

/* STP-1: only ranks match: 7H matches 7S and 8S matches 8H, but 7H does not match 8H. */
static void test_STP_1_only_ranks_match_never_suits(void **unused) {
  (void)unused;
  pf_run r;
  /* Seat 0: 7H 8S 9D TC. Seat 1: 2C 3C 4C 5C. Open piles: 7S 8H 6D AD. */
  start_deal(&r, 2, "7H 2C 8S 3C 9D 4C TC 5C 7S 8H 6D AD", NULL);
  tu_expect_hand(&r, 0, "7H 8S 9D TC");
  tu_expect_view(&r, "open_piles", "7S 8H 6D AD");
  tu_expect_legal(&r, "7H>7S 8S>8H 9D TC");
  tu_refuse(&r, "7H>8H", "the open pile 8H does not match 7H");
  tu_refuse(&r, "9D>6D", "9D matches nothing");
  tu_play(&r, "7H>7S");
  expect_pile(&r, 0, "7S 7H");
  /* 2C 3C 4C 5C: all clubs, but no rank among them is on top of any pile. */
  tu_expect_legal(&r, "2C 3C 4C 5C");
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* STP-2 Table                                                                                */
/* ------------------------------------------------------------------------------------------ */

/* STP-2: for 2-12 players, the open piles, the hands of every round and of the final round, the
 * number of rounds, and cards - open piles moves in all; each round the deal moves on and the seat
 * after the dealer leads (STP-5, G-2). */
static void test_STP_2_table_for_every_player_count(void **unused) {
  (void)unused;
  for (size_t t = 0; t < sizeof TABLE / sizeof *TABLE; t++) {
    const int n = TABLE[t].players;
    pf_run r;
    tu_start(&r, "steal-the-pile", n, NULL, NULL);
    assert_int_equal(tu_view_int(&r, "rounds"), TABLE[t].rounds);
    int round = 0, out = TABLE[t].open, moves = 0, round_moves = 0, round_dealt = 0;
    for (;;) {
      bool over = pf_run_to_move(&r) < 0;
      int now = over ? -1 : tu_view_int(&r, "round");
      if (now != round) {
        /* The round before is over: every seat played each card it was dealt. */
        assert_int_equal(round_moves, n * round_dealt);
        if (over) break;
        assert_int_equal(now, round + 1);
        round = now;
        round_moves = 0;
        round_dealt = round == TABLE[t].rounds ? TABLE[t].final : TABLE[t].per;
        out += n * round_dealt;
        char sizes[64] = "";
        for (int i = 0; i < n; i++)
          snprintf(sizes + strlen(sizes), sizeof sizes - strlen(sizes), "%s%d", i ? " " : "",
                   round_dealt);
        tu_expect_hand_sizes(&r, sizes);
        assert_int_equal(tu_view_int(&r, "stock"), TABLE[t].cards - out);
        int dealer = (n - 1 + round - 1) % n;
        assert_int_equal(tu_view_int(&r, "dealer"), dealer);
        assert_int_equal(pf_run_to_move(&r), (dealer + 1) % n);
        if (round == 1) {
          json_t *v = tu_view(&r, PF_VIEW_ALL);
          assert_int_equal(json_array_size(json_object_get(v, "open_piles")), TABLE[t].open);
          json_decref(v);
        }
      }
      tu_play_first(&r, 1);
      moves++;
      round_moves++;
    }
    assert_int_equal(round, TABLE[t].rounds);
    assert_int_equal(out, TABLE[t].cards);
    assert_int_equal(moves, TABLE[t].cards - TABLE[t].open);
    assert_int_equal(r.nmoves, moves);
    assert_int_equal(tu_view_int(&r, "stock"), 0);
    pf_run_free(&r);
  }
}

/* ------------------------------------------------------------------------------------------ */
/* STP-3 Deal                                                                                 */
/* ------------------------------------------------------------------------------------------ */

/* STP-3: 3 players: one card at a time from seat 0, then the 4 open piles in order; round 2 is
 * dealt by seat 0, so from seat 1. */
static void test_STP_3_deal_one_card_at_a_time_then_open_piles(void **unused) {
  (void)unused;
  pf_run r;
  start_deal(&r, 3,
             "AS AH AD 2S 2H 2D 3S 3H 3D 4S 4H 4D " /* round 1: seats 0 1 2 0 1 2 ... */
             "5C 6C 7C 8C "                         /* the open piles */
             "KH KD KS QH QD QS JH JD JS TH TD TS", /* round 2: seats 1 2 0 1 2 0 ... */
             NULL);
  tu_expect_hand(&r, 0, "AS 2S 3S 4S");
  tu_expect_hand(&r, 1, "AH 2H 3H 4H");
  tu_expect_hand(&r, 2, "AD 2D 3D 4D");
  tu_expect_view(&r, "open_piles", "5C 6C 7C 8C");
  tu_expect_view(&r, "stock", "36");
  tu_expect_view(&r, "dealer", "2");
  tu_expect_view(&r, "to_move", "0");
  /* Other seats' hands are not shown. */
  json_t *v = tu_view(&r, 0);
  json_t *hand1 = json_array_get(json_object_get(v, "hands"), 1);
  assert_null(json_object_get(hand1, "cards"));
  assert_int_equal(json_integer_value(json_object_get(hand1, "size")), 4);
  json_decref(v);
  tu_play_first(&r, 12);
  tu_expect_view(&r, "round", "2");
  tu_expect_view(&r, "dealer", "0");
  tu_expect_view(&r, "to_move", "1");
  tu_expect_hand(&r, 0, "KS QS JS TS");
  tu_expect_hand(&r, 1, "KH QH JH TH");
  tu_expect_hand(&r, 2, "KD QD JD TD");
  tu_expect_view(&r, "stock", "24");
  pf_run_free(&r);
}

/* STP-3 with 5 players (2 open piles, 3 cards each) from the deck in standard order. */
static void test_STP_3_deal_five_players(void **unused) {
  (void)unused;
  pf_run r;
  start_deal(&r, 5, "", NULL); /* AS 2S 3S ... KS AH 2H ... */
  tu_expect_hand(&r, 0, "AS 6S JS");
  tu_expect_hand(&r, 1, "2S 7S QS");
  tu_expect_hand(&r, 2, "3S 8S KS");
  tu_expect_hand(&r, 3, "4S 9S AH");
  tu_expect_hand(&r, 4, "5S TS 2H");
  tu_expect_view(&r, "open_piles", "3H 4H");
  tu_expect_view(&r, "stock", "35");
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* STP-4 A turn                                                                               */
/* ------------------------------------------------------------------------------------------ */

/* Seat 0: 7H 7C 5H 2D. Seat 1: 5C 9C TC 3D. Open piles: 7S 7D 5S KS. */
static void start_stp4(pf_run *r) { start_deal(r, 2, "7H 5C 7C 9C 5H TC 2D 3D 7S 7D 5S KS", NULL); }

/* STP-4: a card that matches must take a pile; the refusal lists every matching pile. */
static void test_STP_4_must_take_a_matching_pile(void **unused) {
  (void)unused;
  pf_run r;
  start_stp4(&r);
  tu_expect_legal(&r, "7H>7S 7H>7D 7C>7S 7C>7D 5H>5S 2D");
  tu_refuse(&r, "7H", "must be taken");
  tu_refuse(&r, "7H", "7H matches 7S, 7D");
  tu_refuse(&r, "5H", "5H matches 5S");
  tu_refuse(&r, "7H>5S", "does not match 7H");
  tu_refuse(&r, "7H>KS", "does not match 7H");
  tu_refuse(&r, "7H>p1", "seat 1's pile is empty");
  tu_refuse(&r, "7H>p2", "there is no seat 2");
  tu_refuse(&r, "7H>deck", "solitaire only");
  tu_refuse(&r, "9C", "not in seat 0's hand");
  tu_refuse(&r, "2D>KS", "2D matches nothing");
  /* Same moves, other spellings (G-9). */
  tu_play(&r, "7h > 7s");
  assert_string_equal(r.moves[0], "7H>7S");
  pf_run_free(&r);
}

/* STP-4: the choice among matching piles: two open piles, then an open pile or one's own pile;
 * taking an open pile or one's own pile. */
static void test_STP_4_choice_of_pile_open_or_own(void **unused) {
  (void)unused;
  pf_run r;
  start_stp4(&r);
  tu_play(&r, "7H>7D"); /* the second of two matching open piles */
  expect_pile(&r, 0, "7D 7H");
  tu_expect_view(&r, "open_piles", "7S 5S KS");
  tu_expect_legal(&r, "5C>5S 9C TC 3D");
  tu_play(&r, "9C");
  /* 7C matches the open pile 7S and seat 0's own pile (top 7H). */
  tu_expect_legal(&r, "7C>7S 7C>p0 5H>5S 2D");
  tu_play(&r, "7C>p0");
  /* Taking one's own pile just puts the card on top; the open pile 7S stays. */
  expect_pile(&r, 0, "7D 7H 7C");
  tu_expect_view(&r, "open_piles", "7S 5S KS 9C");
  tu_expect_view(&r, "scores", "3 0");
  pf_run_free(&r);
}

/* STP-4: taking another player's pile puts the whole pile on top of the taker's, the played card
 * on top of it, and leaves the other pile empty. */
static void test_STP_4_take_a_players_whole_pile(void **unused) {
  (void)unused;
  pf_run r;
  start_stp4(&r);
  tu_play(&r, "7H>7S");
  tu_play(&r, "9C");
  tu_play(&r, "7C>p0");
  tu_expect_legal(&r, "5C>5S TC 3D");
  tu_play(&r, "5C>5S");
  expect_pile(&r, 1, "5S 5C");
  /* 5H matches only seat 1's pile. */
  tu_expect_legal(&r, "5H>p1 2D");
  tu_refuse(&r, "5H", "5H matches p1");
  tu_refuse(&r, "5H>p0", "seat 0's pile does not match 5H");
  tu_play(&r, "5H>p1");
  expect_pile(&r, 0, "7S 7H 7C 5S 5C 5H");
  expect_pile(&r, 1, "");
  tu_expect_view(&r, "scores", "6 0");
  tu_expect_view(&r, "open_piles", "7D KS 9C");
  pf_run_free(&r);
}

/* STP-4: a card that matches nothing becomes a new open pile, at the end of the open piles. */
static void test_STP_4_no_match_makes_a_new_open_pile(void **unused) {
  (void)unused;
  pf_run r;
  start_stp4(&r);
  tu_play(&r, "7H>7S");
  tu_refuse(&r, "9C>p0", "9C matches nothing, so it is played as a new open pile");
  tu_play(&r, "9C");
  tu_expect_view(&r, "open_piles", "7D 5S KS 9C");
  expect_pile(&r, 1, "");
  tu_expect_hand(&r, 1, "5C TC 3D");
  tu_expect_view(&r, "to_move", "0");
  pf_run_free(&r);
}

/* STP-4 with G-5, 7 players and two decks: two 7H in hand and two open 7S are one move each;
 * then a choice of an open pile, one's own pile and another player's pile. */
static void test_STP_4_two_copies_are_one_move_seven_players(void **unused) {
  (void)unused;
  pf_run r;
  start_deal(&r, 7,
             "7H 7C AS 2S 3S 4S 5S " /* first card of seats 0..6 */
             "7H 6S 6H 6D 6C 8S 8H " /* second */
             "9S 9H 9D 9C TS TH TD " /* third */
             "7S 7S 7D KC QC JC",    /* 6 open piles */
             NULL);
  tu_expect_hand(&r, 0, "7H 7H 9S");
  tu_expect_view(&r, "open_piles", "7S 7S 7D KC QC JC");
  tu_expect_legal(&r, "7H>7S 7H>7D 9S");
  tu_play(&r, "7H>7S"); /* takes the first open 7S; the other stays */
  expect_pile(&r, 0, "7S 7H");
  tu_expect_view(&r, "open_piles", "7S 7D KC QC JC");
  tu_expect_hand(&r, 0, "7H 9S");
  tu_expect_legal(&r, "7C>7S 7C>7D 7C>p0 6S 9H");
  tu_play(&r, "7C>7D");
  tu_play(&r, "AS");
  tu_play(&r, "2S");
  tu_play(&r, "3S");
  tu_play(&r, "4S");
  tu_play(&r, "5S");
  tu_expect_view(&r, "open_piles", "7S KC QC JC AS 2S 3S 4S 5S");
  tu_expect_view(&r, "to_move", "0");
  tu_expect_legal(&r, "7H>7S 7H>p0 7H>p1 9S");
  tu_play(&r, "7H>p1");
  expect_pile(&r, 0, "7S 7H 7D 7C 7H");
  expect_pile(&r, 1, "");
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* STP-5 Rounds                                                                               */
/* ------------------------------------------------------------------------------------------ */

/* STP-5: 3 players, 4 rounds of 12 moves: play passes 0 1 2; a round ends only when every hand is
 * empty; dealers 2 0 1 2, each round led by the seat after the dealer. */
static void test_STP_5_round_end_deal_moves_on_next_seat_leads(void **unused) {
  (void)unused;
  pf_run r;
  start_deal(&r, 3, DEAL_A, NULL);
  const int dealer[4] = {2, 0, 1, 2};
  for (int round = 1; round <= 4; round++)
    for (int j = 0; j < 12; j++) {
      char want[64];
      assert_int_equal(tu_view_int(&r, "round"), round);
      assert_int_equal(tu_view_int(&r, "dealer"), dealer[round - 1]);
      assert_int_equal(pf_run_to_move(&r), (dealer[round - 1] + 1 + j) % 3);
      /* 4 cards each at the start; the seats that played this round hold one card less. */
      int lead = (dealer[round - 1] + 1) % 3;
      int left[3];
      for (int s = 0; s < 3; s++) left[s] = 4 - j / 3 - ((s - lead + 3) % 3 < j % 3);
      snprintf(want, sizeof want, "%d %d %d", left[0], left[1], left[2]);
      tu_expect_hand_sizes(&r, want);
      tu_play_first(&r, 1);
    }
  assert_int_equal(pf_run_to_move(&r), PF_NOBODY);
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* STP-6 End                                                                                  */
/* ------------------------------------------------------------------------------------------ */

/* STP-6: after the last move, seat 2 (8 cards, the only fewest) takes all 4 open piles, in the
 * order laid; the most cards wins. */
static void test_STP_6_open_piles_go_to_the_fewest(void **unused) {
  (void)unused;
  pf_run r;
  start_deal(&r, 3, DEAL_A, NULL);
  tu_play_first(&r, 47);
  tu_expect_view(&r, "scores", "9 31 6");
  tu_expect_view(&r, "open_piles", "9H JH 5H 4S 3D");
  tu_expect_legal(&r, "JD>JH");
  tu_play(&r, "JD>JH");
  /* Seat 2 now has 8 cards, fewer than seat 0's 9: it takes 9H 5H 4S 3D. */
  tu_expect_view(&r, "open_piles", "");
  tu_expect_view(&r, "set_aside", "absent");
  tu_expect_view(&r, "open_piles_went_to", "2");
  tu_expect_view(&r, "open_piles_share", "4");
  /* The end event says so, in data and in words, to every viewer alike. */
  for (int viewer = PF_VIEW_PUBLIC; viewer < 3; viewer++) {
    if (viewer == -2) continue;
    tu_expect_view_of(&r, viewer, "end.0.kind", "open_piles_shared");
    tu_expect_view_of(&r, viewer, "end.0.rule", "STP-6");
    tu_expect_view_of(&r, viewer, "end.0.piles", "9H 5H 4S 3D");
    tu_expect_view_of(&r, viewer, "end.0.to.0.seat", "2");
    tu_expect_view_of(&r, viewer, "end.0.to.0.cards", "9H 5H 4S 3D");
    tu_expect_view_of(&r, viewer, "end.0.aside", "");
    tu_expect_view_of(&r, viewer, "end.0.text",
                      "The 4 open piles left, 9H, 5H, 4S and 3D, went to seat 2, who had the fewest cards (8, now 12).");
    tu_expect_view_of(&r, viewer, "end.0.words.1.seat", "2");
    tu_expect_view_of(&r, viewer, "end.1", "absent");
  }
  tu_expect_view(&r, "scores", "9 31 12");
  expect_pile_size(&r, 2, 12, "3D");
  tu_expect_view(&r, "winners", "1");
  tu_expect_view(&r, "to_move", "null");
  pf_run_free(&r);
}

/* STP-6: seats 0 and 1 tie for fewest (8) with 3 open piles left: KS to seat 0, 8H to seat 1, 6S
 * set aside. */
static void test_STP_6_tie_for_fewest_splits_remainder_set_aside(void **unused) {
  (void)unused;
  pf_run r;
  start_deal(&r, 3, DEAL_SPLIT_3P, NULL);
  tu_play_first(&r, 47);
  tu_expect_view(&r, "scores", "8 8 31");
  tu_expect_view(&r, "open_piles", "3H KS 8H 6S");
  expect_pile_size(&r, 0, 8, "AC");
  expect_pile_size(&r, 1, 8, "QH");
  tu_play(&r, "3D>3H");
  tu_expect_view(&r, "open_piles", "");
  tu_expect_view(&r, "set_aside", "6S");
  tu_expect_view(&r, "open_piles_went_to", "0 1");
  tu_expect_view(&r, "open_piles_share", "1");
  tu_expect_view(&r, "end.0.piles", "KS 8H 6S");
  tu_expect_view(&r, "end.0.to.0.seat", "0");
  tu_expect_view(&r, "end.0.to.0.cards", "KS");
  tu_expect_view(&r, "end.0.to.1.seat", "1");
  tu_expect_view(&r, "end.0.to.1.cards", "8H");
  tu_expect_view(&r, "end.0.aside", "6S");
  tu_expect_view(&r, "end.0.text", "The 3 open piles left, KS, 8H and 6S, were shared out between seat 0 and seat 1, "
                                   "tied for the fewest cards (8): 1 each; the one left over, 6S, was set aside.");
  expect_pile_size(&r, 0, 9, "KS");
  expect_pile_size(&r, 1, 9, "8H");
  expect_pile_size(&r, 2, 33, "3D");
  tu_expect_view(&r, "scores", "9 9 33");
  tu_expect_view(&r, "winners", "2");
  pf_run_free(&r);
}

/* STP-6 and G-6: seat 1 (4 cards) takes the open piles 8S and TS; seats 0 and 2 share the win
 * with 23 each. */
static void test_STP_6_tie_for_most_shares_the_win(void **unused) {
  (void)unused;
  pf_run r;
  start_deal(&r, 3, DEAL_TIE_FOR_MOST_3P, NULL);
  tu_play_first(&r, 47);
  tu_expect_view(&r, "scores", "23 4 21");
  tu_expect_view(&r, "open_piles", "8S 6D TS");
  tu_play(&r, "6S>6D");
  expect_pile(&r, 1, "7H 7D QS QD 8S TS");
  tu_expect_view(&r, "scores", "23 6 23");
  tu_expect_view(&r, "winners", "0 2");
  pf_run_free(&r);
  /* Two players, 26 each: both win. */
  start_deal(&r, 2, DEAL_26_26, NULL);
  assert_int_equal(tu_play_first_to_end(&r), 48);
  tu_expect_view(&r, "scores", "26 26");
  tu_expect_view(&r, "winners", "0 1");
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* STP-7 Scoring games                                                                        */
/* ------------------------------------------------------------------------------------------ */

/* STP-7: target 40: game 1 ends 39-13, below the target, so game 2 follows; it ends 34-18, the
 * totals 73-31 reach the target and the match is over. */
static void test_STP_7_totals_add_up_until_a_total_reaches_the_target(void **unused) {
  (void)unused;
  pf_run r;
  const char *const deals[] = {DEAL_39_13, DEAL_34_18};
  start_match(&r, 2, "target=40", 2, deals);
  tu_expect_view(&r, "target", "40");
  tu_expect_view(&r, "game_number", "1");
  tu_expect_view(&r, "totals", "0 0");
  tu_play_first(&r, 47);
  tu_expect_view(&r, "game_number", "1");
  tu_play_first(&r, 1);
  /* Game 2: a new deal, dealt by the next seat (seat 1 again after 6 rounds: 1 0 1 0 1 0). */
  tu_expect_view(&r, "game_number", "2");
  tu_expect_view(&r, "totals", "39 13");
  tu_expect_view(&r, "scores", "39 13");
  tu_expect_view(&r, "round", "1");
  tu_expect_view(&r, "dealer", "1");
  tu_expect_view(&r, "to_move", "0");
  assert_int_equal(r.ndeals, 2);
  assert_int_equal(r.deals[1].ncards, 52);
  assert_memory_equal(r.deals[1].cards, r.given[1].cards, 52);
  char *t = tu_view_text(&r, PF_VIEW_PUBLIC);
  if (!strstr(t, "Match to 40, game 2. Totals before this game: seat 0: 39 seat 1: 13\n")) fail_msg("text view:\n%s", t);
  free(t);
  assert_int_equal(tu_play_first_to_end(&r), 48);
  tu_expect_view(&r, "totals", "73 31");
  tu_expect_view(&r, "scores", "73 31");
  /* The end says the match is over, after the last game's STP-6 event. */
  tu_expect_view(&r, "end.0.kind", "open_piles_shared");
  tu_expect_view(&r, "end.1.kind", "match_over");
  tu_expect_view(&r, "end.1.rule", "STP-7");
  tu_expect_view(&r, "end.1.totals", "73 31");
  tu_expect_view(&r, "end.1.text", "The match to 40 cards is over after game 2: seat 0 has the highest total, 73 cards.");
  tu_expect_view(&r, "winners", "0");
  /* The header at the end says what the totals are: after the last game, not before it. */
  t = tu_view_text(&r, PF_VIEW_PUBLIC);
  if (!strstr(t, "Match to 40, over after game 2. Final totals: seat 0: 73 seat 1: 31\n") || strstr(t, "before this game"))
    fail_msg("text view at the end:\n%s", t);
  free(t);
  pf_run_free(&r);
}

/* STP-7: reaching the target exactly ends the match after that game. */
static void test_STP_7_reaching_the_target_exactly_ends_the_match(void **unused) {
  (void)unused;
  pf_run r;
  const char *const deals[] = {DEAL_39_13, DEAL_34_18};
  start_match(&r, 2, "target=39", 2, deals);
  assert_int_equal(tu_play_first_to_end(&r), 48);
  tu_expect_view(&r, "game_number", "1");
  tu_expect_view(&r, "scores", "39 13");
  tu_expect_view(&r, "winners", "0");
  pf_run_free(&r);
}

/* STP-7: target 26: game 1 ends 26-26, both reach the target but tie, so one more game is
 * played; it ends 25-27 and seat 1 wins the match 51-53. */
static void test_STP_7_tie_for_highest_total_means_one_more_game(void **unused) {
  (void)unused;
  pf_run r;
  const char *const deals[] = {DEAL_26_26, DEAL_A};
  start_match(&r, 2, "target=26", 2, deals);
  tu_play_first(&r, 48);
  assert_true(pf_run_to_move(&r) >= 0);
  tu_expect_view(&r, "game_number", "2");
  tu_expect_view(&r, "totals", "26 26");
  assert_int_equal(tu_play_first_to_end(&r), 48);
  tu_expect_view(&r, "totals", "51 53");
  tu_expect_view(&r, "scores", "51 53");
  tu_expect_view(&r, "winners", "1");
  pf_run_free(&r);
}

/* STP-7 with G-2: in a 3-player match (dealers 2 0 1 2 in game 1) game 2 is dealt by seat 0 and
 * seat 1 leads; game 2's deal, not given, is shuffled. */
static void test_STP_7_next_game_dealt_by_the_next_seat(void **unused) {
  (void)unused;
  pf_run r;
  const char *const deals[] = {DEAL_A};
  start_match(&r, 3, "target=100", 1, deals);
  tu_play_first(&r, 48);
  tu_expect_view(&r, "game_number", "2");
  tu_expect_view(&r, "totals", "9 31 12");
  tu_expect_view(&r, "dealer", "0");
  tu_expect_view(&r, "to_move", "1");
  tu_expect_hand_sizes(&r, "4 4 4");
  tu_expect_view(&r, "stock", "36");
  pf_run_free(&r);
}

/* STP-7: the target needs two or more players; one game uses one deal. */
static void test_STP_7_target_refused_in_solitaire(void **unused) {
  (void)unused;
  expect_start_refused(1, NULL, 0, "target=50", "needs 2 or more players");
  pf_deal two[2];
  tu_deal(&two[0], 1, 0, NULL);
  tu_deal(&two[1], 1, 0, NULL);
  expect_start_refused(2, two, 2, NULL, "one game uses one deal");
}

/* ------------------------------------------------------------------------------------------ */
/* STP-8 Solitaire                                                                            */
/* ------------------------------------------------------------------------------------------ */

/* Open piles 3S 2S 3C 2C; the player's 2H 9H 9D KH; then the deck's cards 2 by 2. */
static const char DEAL_SOLO[] = "3S 2S 3C 2C 2H 9H 9D KH 2D 3H 3D 9S 4S 5S 6S 7S";

/* STP-8: setup: the first 4 cards are the open piles, then the player's 4 cards. */
static void test_STP_8_solitaire_setup(void **unused) {
  (void)unused;
  pf_run r;
  start_deal(&r, 1, DEAL_SOLO, NULL);
  tu_expect_view(&r, "open_piles", "3S 2S 3C 2C");
  tu_expect_hand(&r, 0, "2H 9H 9D KH");
  tu_expect_view(&r, "stock", "44");
  tu_expect_view(&r, "round", "1");
  tu_expect_view(&r, "rounds", "4");
  tu_expect_view(&r, "dealer", "absent");
  tu_expect_view(&r, "deck_last", "");
  expect_deck_pile(&r, "");
  tu_expect_view(&r, "to_move", "0");
  tu_expect_legal(&r, "2H>2S 2H>2C 9H 9D KH");
  tu_refuse(&r, "2H>p1", "there is no seat 1");
  tu_refuse(&r, "2H>deck", "the deck's pile is empty");
  pf_run_free(&r);
}

/* STP-8: after each player card the deck plays 2: a pile beats an open pile of the same rank
 * (the player's pile, then its own), among open piles the first laid wins, a card that matches
 * nothing becomes an open pile; the player may take the deck's pile. The deck's plays are not
 * moves of the record. */
static void test_STP_8_deck_plays_two_cards_and_takes_the_biggest_pile(void **unused) {
  (void)unused;
  pf_run r;
  start_deal(&r, 1, DEAL_SOLO, NULL);
  tu_play(&r, "2H>2S");
  /* 2D matches the player's pile (2 cards) and the open 2C: it takes the player's pile. 3H
   * matches the open 3S and 3C: it takes 3S, laid first. */
  assert_int_equal(r.nmoves, 1);
  tu_expect_view(&r, "deck_last", "2D>p0 3H>3S");
  expect_pile(&r, 0, "");
  expect_deck_pile(&r, "2S 2H 2D 3S 3H");
  tu_expect_view(&r, "open_piles", "3C 2C");
  tu_expect_view(&r, "stock", "42");
  tu_expect_view(&r, "to_move", "0");
  tu_expect_legal(&r, "9H 9D KH");
  tu_play(&r, "9H");
  /* 3D matches its own pile (5 cards) and the open 3C: it takes its own pile; 9S takes 9H. */
  tu_expect_view(&r, "deck_last", "3D>deck 9S>9H");
  expect_deck_pile(&r, "2S 2H 2D 3S 3H 3D 9H 9S");
  tu_expect_view(&r, "open_piles", "3C 2C");
  /* The player takes the deck's pile. */
  tu_expect_legal(&r, "9D>deck KH");
  tu_play(&r, "9D>deck");
  expect_pile(&r, 0, "2S 2H 2D 3S 3H 3D 9H 9S 9D");
  expect_deck_pile(&r, "");
  /* 4S and 5S match nothing. */
  tu_expect_view(&r, "deck_last", "4S 5S");
  tu_expect_view(&r, "open_piles", "3C 2C 4S 5S");
  tu_play(&r, "KH");
  tu_expect_view(&r, "deck_last", "6S 7S");
  tu_expect_view(&r, "open_piles", "3C 2C 4S 5S KH 6S 7S");
  /* Round 2: 4 new cards (the rest of the deck in standard order: AS 8S TS JS ...). */
  tu_expect_view(&r, "round", "2");
  tu_expect_hand(&r, 0, "AS 8S TS JS");
  tu_expect_view(&r, "stock", "32");
  assert_int_equal(r.nmoves, 4);
  /* 16 player moves in all. */
  assert_int_equal(tu_play_first_to_end(&r), 12);
  assert_int_equal(r.nmoves, 16);
  tu_expect_view(&r, "stock", "0");
  pf_run_free(&r);
}

/* One solitaire game, always the first legal move: the final piles, open piles and winners. */
static void expect_solitaire(const char *deal, int player, int deck, int open,
                             const char *winners) {
  pf_run r;
  start_deal(&r, 1, deal, NULL);
  assert_int_equal(tu_play_first_to_end(&r), 16);
  json_t *v = tu_view(&r, PF_VIEW_ALL);
  json_t *pile = json_array_get(json_object_get(v, "piles"), 0);
  assert_int_equal(json_integer_value(json_object_get(pile, "size")), player);
  pile = json_object_get(v, "deck_pile");
  assert_int_equal(json_integer_value(json_object_get(pile, "size")), deck);
  /* Open piles count for nobody: they stay on the table. */
  assert_int_equal(json_array_size(json_object_get(v, "open_piles")), open);
  assert_int_equal(player + deck + open, 52);
  json_decref(v);
  char score[8];
  snprintf(score, sizeof score, "%d", player);
  tu_expect_view(&r, "scores", score);
  tu_expect_view(&r, "winners", winners);
  pf_run_free(&r);
}

/* STP-8: the player wins only with more cards than the deck: 36-12 wins, 8-43 and 24-24 do not. */
static void test_STP_8_player_wins_only_with_more_cards_than_the_deck(void **unused) {
  (void)unused;
  expect_solitaire(DEAL_SOLO_WIN, 36, 12, 4, "0");
  expect_solitaire(DEAL_A, 8, 43, 1, "");
  expect_solitaire(DEAL_SOLO_TIE, 24, 24, 4, "");
}

/* ------------------------------------------------------------------------------------------ */
/* main                                                                                       */
/* ------------------------------------------------------------------------------------------ */

/* ------------------------------------------------------------------------------------------ */
/* The zones of the JSON view (docs/views.md)                                                 */
/* ------------------------------------------------------------------------------------------ */

/* The stock, one zone per open pile (the second of two equal cards of two decks is "open:7S.2"),
 * the players' piles and the hands, hidden from the others and the public; a move takes a card
 * of the mover's hand to the pile it takes, or to no zone as a new open pile (STP-4). */
static void test_views_zones_and_moves(void **unused) {
  (void)unused;
  pf_run r;
  start_deal(&r, 7, "7H 7C AS 2S 3S 4S 5S  7H 6S 6H 6D 6C 8S 8H  9S 9H 9D 9C TS TH TD  7S 7S 7D KC QC JC", NULL);
  tu_expect_zone_ids(&r, 0, "stock open:7S open:7S.2 open:7D open:KC open:QC open:JC pile:0 pile:1 pile:2 pile:3 pile:4 "
                            "pile:5 pile:6 hand:0 hand:1 hand:2 hand:3 hand:4 hand:5 hand:6");
  tu_expect_zone(&r, 0, "hand:0", "cards", "7H 7H 9S");
  tu_expect_zone(&r, 0, "hand:1", "cards", "null null null");
  tu_expect_zone(&r, PF_VIEW_PUBLIC, "hand:0", "cards", "null null null");
  tu_expect_zone(&r, 0, "open:7S.2", "cards", "7S");
  tu_expect_zone(&r, 0, "open:7S.2", "kind", "pool");
  tu_expect_zone(&r, 0, "hand:0", "owner", "0");
  tu_expect_move_zones(&r, 0, "7H>7S", "hand:0 7H open:7S");
  tu_expect_move_zones(&r, 0, "7H>7D", "hand:0 7H open:7D");
  tu_expect_move_zones(&r, 0, "9S", "hand:0 9S null");
  tu_expect_move_zones(&r, PF_VIEW_ALL, "9S", "hand:0 9S null");
  tu_expect_view_of(&r, 1, "moves", ""); /* listed only for the seat to move */
  tu_play(&r, "7H>7S");
  tu_expect_zone(&r, 1, "pile:0", "cards", "7S 7H");
  tu_expect_move_zones(&r, 1, "7C>p0", "hand:1 7C pile:0");
  pf_run_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_STP_1_one_deck_up_to_6_players_two_decks_from_7),
      cmocka_unit_test(test_STP_1_deal_must_be_the_games_deck),
      cmocka_unit_test(test_STP_1_only_ranks_match_never_suits),
      cmocka_unit_test(test_STP_2_table_for_every_player_count),
      cmocka_unit_test(test_STP_3_deal_one_card_at_a_time_then_open_piles),
      cmocka_unit_test(test_STP_3_deal_five_players),
      cmocka_unit_test(test_STP_4_must_take_a_matching_pile),
      cmocka_unit_test(test_STP_4_choice_of_pile_open_or_own),
      cmocka_unit_test(test_STP_4_take_a_players_whole_pile),
      cmocka_unit_test(test_STP_4_no_match_makes_a_new_open_pile),
      cmocka_unit_test(test_STP_4_two_copies_are_one_move_seven_players),
      cmocka_unit_test(test_STP_5_round_end_deal_moves_on_next_seat_leads),
      cmocka_unit_test(test_STP_6_open_piles_go_to_the_fewest),
      cmocka_unit_test(test_STP_6_tie_for_fewest_splits_remainder_set_aside),
      cmocka_unit_test(test_STP_6_tie_for_most_shares_the_win),
      cmocka_unit_test(test_STP_7_totals_add_up_until_a_total_reaches_the_target),
      cmocka_unit_test(test_STP_7_reaching_the_target_exactly_ends_the_match),
      cmocka_unit_test(test_STP_7_tie_for_highest_total_means_one_more_game),
      cmocka_unit_test(test_STP_7_next_game_dealt_by_the_next_seat),
      cmocka_unit_test(test_STP_7_target_refused_in_solitaire),
      cmocka_unit_test(test_STP_8_solitaire_setup),
      cmocka_unit_test(test_STP_8_deck_plays_two_cards_and_takes_the_biggest_pile),
      cmocka_unit_test(test_STP_8_player_wins_only_with_more_cards_than_the_deck),
      cmocka_unit_test(test_views_zones_and_moves),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
