/*
 * test_sbj.c - Skip-Bo Junior, ruling by ruling (RULINGS SBJ-1 .. SBJ-6, with G-2, G-6).
 *
 * Every test starts from a fixed deal, laid out by sbj_deal(): each stockpile from its top down
 * and the draw pile from its top; the places not given get the rest of the deck in its standard
 * order (1-10 eight times, then the wilds). Stockpiles are dealt one card at a time from seat 0,
 * so with N players and stockpiles of S the card at deck position k*N + p is the (k+1)-th card of
 * seat p from the bottom (SBJ-2), and the draw pile starts at position N*S. Seat 0 is dealt its
 * three cards at once (SBJ-3): the game starts with seat 0 to move, or further on if seat 0 has
 * no play.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define NCARDS 96

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* Splits a space-separated list into words (pointers into buf). */
static int words(char *buf, const char **out, int max) {
  int n = 0;
  for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
    if (n == max) fail_msg("too many cards listed");
    out[n++] = w;
  }
  return n;
}

/* The deal described above: stocks[p] is seat p's stockpile from the top down, as deep as the test
 * needs ("" or NULL: nothing given), draw the draw pile from the top. */
static void sbj_deal(pf_deal *d, int players, int stock, const char *const *stocks, const char *draw) {
  const char *place[NCARDS] = {NULL}, *w[NCARDS];
  char bufs[7][512];
  for (int p = 0; p < players; p++) {
    snprintf(bufs[p], sizeof bufs[p], "%s", stocks && stocks[p] ? stocks[p] : "");
    int n = words(bufs[p], w, stock);
    for (int j = 0; j < n; j++) place[(stock - 1 - j) * players + p] = w[j];
  }
  snprintf(bufs[6], sizeof bufs[6], "%s", draw ? draw : "");
  int n = words(bufs[6], w, NCARDS - players * stock);
  for (int j = 0; j < n; j++) place[players * stock + j] = w[j];
  pf_card deck[NCARDS];
  pf_deck_skipbo_junior(deck);
  tu_deal_places(d, deck, NCARDS, place);
}

static void start_sbj(pf_run *r, int players, int stock, const char *const *stocks, const char *draw) {
  pf_deal d;
  char opt[32];
  sbj_deal(&d, players, stock, stocks, draw);
  snprintf(opt, sizeof opt, "stock=%d", stock);
  tu_start(r, "skip-bo-junior", players, &d, opt);
}

/* Starting must fail, with a reason containing `why`. */
static void expect_start_refused(int players, const pf_deal *deals, int ndeals, int stock, const char *why) {
  const pf_game *g = pf_game_find("skip-bo-junior");
  pf_setup s = {.players = players, .seed = 1, .ndeals = ndeals, .deals = deals};
  pf_options_default(g->options, g->noptions, &s.options);
  s.options.v[0] = stock;
  pf_run r;
  pf_error err;
  if (pf_run_start(&r, g, &s, &err) == 0) {
    pf_run_free(&r);
    fail_msg("the start with %d players, stock %d should be refused (%s)", players, stock, why);
  }
  if (!strstr(err.msg, why)) fail_msg("refused with \"%s\", expected \"%s\"", err.msg, why);
}

/* Seat p's hand stacks as "h1 | h2 | h3", each bottom first ("-" when empty). */
static void expect_stacks(const pf_run *r, int p, const char *want) {
  char buf[512] = "", one[256], path[48];
  for (int k = 0; k < 3; k++) {
    json_t *v;
    snprintf(path, sizeof path, "hand_stacks.%d.%d", p, k);
    tu_render(tu_view_path(r, PF_VIEW_ALL, path, &v), one, sizeof one);
    json_decref(v);
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", k ? " | " : "", one[0] ? one : "-");
  }
  if (strcmp(buf, want) != 0) fail_msg("seat %d's hand stacks are \"%s\", expected \"%s\"", p, buf, want);
}

/* Building pile b (1-4) holds these cards, bottom first ("" when free), and counts as many. */
static void expect_building(const pf_run *r, int b, const char *cards) {
  char path[48];
  snprintf(path, sizeof path, "building_piles.%d.cards", b - 1);
  tu_expect_view(r, path, cards);
  int n = 0;
  for (const char *p = cards; *p; p++) n += *p != ' ' && (p == cards || p[-1] == ' ');
  snprintf(path, sizeof path, "building_piles.%d.count", b - 1);
  assert_int_equal(tu_view_int(r, path), n);
}

static void expect_to_move(const pf_run *r, int who) { assert_int_equal(pf_run_to_move(r), who); }

/* The text of a seat's view (caller frees). */
static char *view_text(const pf_run *r, int seat) {
  pf_buf b = {0};
  pf_style plain = {0};
  r->game->view_text(r->state, seat, &plain, &b);
  return b.data;
}

/* ------------------------------------------------------------------------------------------ */
/* SBJ-1 Cards                                                                                */
/* ------------------------------------------------------------------------------------------ */

/* SBJ-1: 96 cards, eight each of 1-10 and 16 wilds, for 2-6 players; the stock option sets the
 * stockpiles' size. */
static void test_SBJ_1_deck_and_stock_option(void **unused) {
  (void)unused;
  const pf_game *g = pf_game_find("skip-bo-junior");
  assert_non_null(g);
  assert_int_equal(g->min_players, 2);
  assert_int_equal(g->max_players, 6);
  for (int n = 2; n <= 6; n++) {
    pf_run r;
    tu_start(&r, "skip-bo-junior", n, NULL, NULL);
    assert_int_equal(r.deals[0].ncards, NCARDS);
    for (int v = 1; v <= 10; v++) assert_int_equal(pf_card_count(r.deals[0].cards, NCARDS, PF_CARD_SBJ(v)), 8);
    assert_int_equal(pf_card_count(r.deals[0].cards, NCARDS, PF_CARD_SBJ_WILD), 16);
    /* Default stock 10: every stockpile holds 10 cards (seat 0 may have played some already). */
    for (int p = 1; p < n; p++) {
      char path[48];
      snprintf(path, sizeof path, "stockpiles.%d.size", p);
      assert_true(tu_view_int(&r, path) <= 10);
    }
    assert_int_equal(tu_view_int(&r, "stock_size"), 10);
    pf_run_free(&r);
  }
  pf_run r;
  start_sbj(&r, 2, 36, NULL, NULL);
  tu_expect_view(&r, "stockpiles.1.size", "36");
  tu_expect_view(&r, "draw_pile", "21"); /* 96 - 72, and 3 dealt to seat 0 */
  pf_run_free(&r);
}

/* SBJ-1: players x stock may not exceed 72; the refusal says the largest stock allowed. */
static void test_SBJ_1_players_times_stock_at_most_72(void **unused) {
  (void)unused;
  expect_start_refused(3, NULL, 0, 25, "option stock=25: 3 players x 25 cards is 75, more than the 72 of SBJ-1; "
                                       "with 3 players stock is at most 24");
  expect_start_refused(6, NULL, 0, 13, "with 6 players stock is at most 12");
  expect_start_refused(2, NULL, 0, 37, "bad value 37 for option stock");
  expect_start_refused(2, NULL, 0, 0, "bad value 0 for option stock");
  pf_run r;
  tu_start(&r, "skip-bo-junior", 6, NULL, "stock=12");
  tu_expect_view(&r, "stockpiles.5.size", "12");
  pf_run_free(&r);
  const pf_game *g = pf_game_find("skip-bo-junior");
  pf_options o;
  pf_error err;
  pf_options_default(g->options, g->noptions, &o);
  assert_int_not_equal(pf_option_parse_kv(g->options, g->noptions, "stock=lots", &o, &err), 0);
  assert_non_null(strstr(err.msg, "stock: an integer from 1 to 36"));
}

/* SBJ-1: an explicit deal must be exactly the 96 cards; one deal only. */
static void test_SBJ_1_deal_must_be_the_games_deck(void **unused) {
  (void)unused;
  pf_deal std, d;
  tu_deal(&std, 1, 0, NULL);
  expect_start_refused(2, &std, 1, 10, "deal 1: the deal has 52 cards, the game needs 96");
  sbj_deal(&d, 2, 10, NULL, NULL);
  d.cards[0] = PF_CARD_SBJ_WILD; /* a 17th wild instead of a 1 */
  expect_start_refused(2, &d, 1, 10, "the deal holds 1 7 times, the deck has it 8 times");
  d.cards[0] = pf_card_make(2, PF_SPADES);
  expect_start_refused(2, &d, 1, 10, "the deal holds 2S, which is not in this game's deck");
  sbj_deal(&d, 2, 10, NULL, NULL);
  pf_deal two[2] = {d, d};
  expect_start_refused(2, two, 2, 10, "a game uses one deal, but 2 deals are given");
}

/* ------------------------------------------------------------------------------------------ */
/* SBJ-2 Deal                                                                                 */
/* ------------------------------------------------------------------------------------------ */

/* SBJ-2: one card at a time from seat 0; a player's first card is the bottom of their stockpile;
 * the rest of the deck is the draw pile. */
static void test_SBJ_2_stockpiles_dealt_one_at_a_time(void **unused) {
  (void)unused;
  pf_deal d;
  pf_card deck[NCARDS];
  pf_deck_skipbo_junior(deck);
  const char *place[NCARDS] = {"5", "6", "7", "8", "9", "10", "2", "3", "4", /* stockpiles */
                               "6", "7", "8", "5", "9", "10"};             /* the draw pile */
  tu_deal_places(&d, deck, NCARDS, place);
  pf_run r;
  tu_start(&r, "skip-bo-junior", 3, &d, "stock=3");
  tu_expect_view(&r, "stockpiles.0.cards", "5 8 2");
  tu_expect_view(&r, "stockpiles.1.cards", "6 9 3");
  tu_expect_view(&r, "stockpiles.2.cards", "7 10 4");
  tu_expect_view(&r, "stockpiles.0.top", "2");
  tu_expect_view(&r, "stockpiles.2.top", "4");
  /* Seat 0 has no play (no 1 or W anywhere): its turn ends by itself; seat 1 gets the next three
   * cards, and so on. */
  expect_stacks(&r, 0, "6 | 7 | 8");
  expect_stacks(&r, 1, "5 | 9 | 10");
  /* Seat 2 is dealt the rest's first cards, 1 1 2: two equal cards on two sources are two moves. */
  expect_to_move(&r, 2);
  expect_stacks(&r, 2, "1 | 1 | 2");
  tu_expect_legal(&r, "h1>b1 h2>b1");
  tu_expect_view(&r, "draw_pile", "78"); /* 96 - 9 stocked - 9 dealt */
  pf_run_free(&r);
}

/* SBJ-2: only the top card of a stockpile is seen, by everyone alike; its owner does not see the
 * cards below either, and they are turned up one at a time as the top is played (SBJ-4). */
static void test_SBJ_2_only_the_top_of_a_stockpile_is_seen(void **unused) {
  (void)unused;
  const char *stocks[] = {"1 2 7 W", "9 8"};
  pf_run r;
  start_sbj(&r, 2, 4, stocks, "5 5 5");
  for (int seat = 0; seat < 2; seat++) {
    tu_expect_view_of(&r, seat, "stockpiles.0.top", "1");
    tu_expect_view_of(&r, seat, "stockpiles.0.size", "4");
    tu_expect_view_of(&r, seat, "stockpiles.0.cards", "absent"); /* not even its owner */
    tu_expect_view_of(&r, seat, "draw_cards", "absent");
  }
  tu_expect_view(&r, "stockpiles.0.cards", "W 7 2 1"); /* the full view: bottom first */
  char *text = view_text(&r, 0);
  assert_non_null(strstr(text, "Seat 0 (you): stockpile 4 cards, top 1, the rest face down"));
  assert_null(strstr(text, "W 7 2"));
  free(text);
  /* Two deals that differ only below the tops look the same to both seats. */
  const char *other[] = {"1 7 2 W", "9 10"};
  pf_run r2;
  start_sbj(&r2, 2, 4, other, "5 5 5");
  for (int seat = 0; seat < 2; seat++) {
    char *a = pf_view_json_text(r.game, r.state, 2, seat), *b = pf_view_json_text(r2.game, r2.state, 2, seat);
    assert_string_equal(a, b);
    free(a);
    free(b);
  }
  pf_run_free(&r2);
  /* Playing the top turns up the next card. */
  tu_play(&r, "s>b1");
  tu_expect_view_of(&r, 1, "stockpiles.0.top", "2");
  tu_play(&r, "s>b1");
  tu_expect_view_of(&r, 1, "stockpiles.0.top", "7");
  tu_expect_view_of(&r, 1, "stockpiles.0.size", "2");
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* SBJ-3 Turn start                                                                           */
/* ------------------------------------------------------------------------------------------ */

/* SBJ-3: each turn, three cards go one each onto hand stacks 1, 2, 3, on top of what is there; all
 * of them are public. */
static void test_SBJ_3_three_cards_onto_the_hand_stacks(void **unused) {
  (void)unused;
  const char *stocks[] = {"1 9", "8 9"};
  pf_run r;
  start_sbj(&r, 2, 3, stocks, "2 5 6  7 4 10  3 4 W  W 9 9");
  expect_stacks(&r, 0, "2 | 5 | 6");
  tu_expect_view(&r, "dealt_this_turn", "3");
  tu_play(&r, "s>b1");
  tu_play(&r, "h1>b1");
  /* Seat 0 has no play left (9, 5, 6 on b1 counting 2): seat 1's turn; it has none either (8, 7,
   * 4, 10): seat 0 again, dealt 3 4 W on top of its stacks. */
  expect_to_move(&r, 0);
  tu_expect_view(&r, "turn", "3");
  expect_stacks(&r, 0, "3 | 5 4 | 6 W");
  expect_stacks(&r, 1, "7 | 4 | 10");
  tu_expect_view(&r, "last_turns.1.dealt", "3");
  tu_expect_view(&r, "last_turns.1.played", "0");
  /* Every card of every hand stack is in every seat's view. */
  tu_expect_view_of(&r, 1, "hand_stacks.0.1", "5 4");
  tu_expect_view_of(&r, 0, "hand_stacks.1.2", "10");
  pf_run_free(&r);
}

/* SBJ-3: when the draw pile is empty and no pile has been completed, fewer cards are dealt, then
 * none. 2 players, stockpiles of 35: the draw pile holds 26 cards, nobody can play. */
static void test_SBJ_3_fewer_or_no_cards_when_nothing_to_reshuffle(void **unused) {
  (void)unused;
  const char *stocks[] = {"1 5", "9"};
  pf_run r;
  start_sbj(&r, 2, 35, stocks,
            "3 3 3 3 3 3 3 3 4 4 4 4 4 4 4 4 6 6 6 6 6 6 6 6 7 7");
  tu_play(&r, "s>b1");
  /* Turns 1-8 dealt 3 cards each, turn 9 (seat 0) the last 2, turns 10 and 11 none: a stall. */
  tu_expect_view(&r, "last_turns.0.dealt", "0");
  tu_expect_view(&r, "last_turns.1.dealt", "0");
  expect_stacks(&r, 0, "3 3 4 6 7 | 3 3 4 6 7 | 3 4 4 6");
  expect_stacks(&r, 1, "3 4 4 6 | 3 4 6 6 | 3 4 6 6");
  tu_expect_view(&r, "turn", "11");
  tu_expect_view(&r, "ended_by", "stall");
  pf_run_free(&r);
}

/* The reshuffle deal: 2 players, stockpiles of 36, so a draw pile of 24. Seat 0 plays 1-9 and a W
 * from its stockpile, completing b1 with the W; the draw pile holds no 1 and, but for its last
 * card, no W, so nobody plays again until seat 1 is dealt that W at turn 8. */
static const char *const RESHUFFLE_STOCKS[] = {"1 2 3 4 5 6 7 8 9 W 7", "8"};
static const char RESHUFFLE_DRAW[] = "5 5 5 6 6 6 7 7 7 8 8 8 9 9 9 10 10 10 2 2 2 3 3 W";

/* SBJ-4: a pile that reaches 10, here by a wild, is completed and set aside; its slot is free. */
static void test_SBJ_4_completion_at_10_by_a_wild(void **unused) {
  (void)unused;
  pf_run r;
  start_sbj(&r, 2, 36, RESHUFFLE_STOCKS, RESHUFFLE_DRAW);
  for (int i = 0; i < 9; i++) tu_play(&r, "s>b1");
  expect_building(&r, 1, "1 2 3 4 5 6 7 8 9");
  tu_expect_legal(&r, "s>b1 s>b2");
  pf_buf d = {0};
  pf_move m;
  pf_error err;
  assert_int_equal(r.game->move_parse(r.state, "s>b1", &m, &err), 0);
  pf_describe(r.game, r.state, m, 0, &(pf_style){0}, &d);
  assert_string_equal(pf_buf_str(&d), "W from your stockpile onto b1 (as 10): b1 is complete and set aside");
  pf_buf_free(&d);
  tu_play(&r, "s>b1");
  expect_building(&r, 1, "");
  tu_expect_view(&r, "set_aside", "1 2 3 4 5 6 7 8 9 W");
  tu_expect_view(&r, "completed", "1");
  tu_expect_view(&r, "stockpiles.0.size", "26");
  pf_run_free(&r);
}

/* SBJ-3: the reshuffle comes only when a card must be dealt and the draw pile is empty: not when
 * the draw pile runs out. Its outcome is the new draw pile, top card first, and hidden from the
 * players. */
static void test_SBJ_3_reshuffle_of_completed_piles(void **unused) {
  (void)unused;
  pf_run r;
  start_sbj(&r, 2, 36, RESHUFFLE_STOCKS, RESHUFFLE_DRAW);
  for (int i = 0; i < 10; i++) tu_play(&r, "s>b1");
  /* Turn 8: seat 1 was dealt the last card, a W; the draw pile is empty but no card is due. */
  expect_to_move(&r, 1);
  tu_expect_view(&r, "turn", "8");
  tu_expect_view(&r, "draw_pile", "0");
  tu_expect_legal(&r, "h3>b1");
  tu_play(&r, "h3>b1");
  /* Turn 9: seat 0 must be dealt a card: the completed pile is reshuffled, a chance move. */
  expect_to_move(&r, PF_CHANCE);
  tu_expect_view(&r, "turn", "9");
  char *text = view_text(&r, 0);
  assert_non_null(strstr(text, "The draw pile is empty: the completed piles are shuffled into a new one (SBJ-3)"));
  free(text);
  tu_refuse(&r, "h1>b1", "a chance outcome (starting with '*') is due here");
  tu_refuse(&r, "*W,9,8,7,6,5,4,3,2", "the reshuffle lists 9 cards, but the completed piles hold 10 (SBJ-3)");
  tu_refuse(&r, "*W,9,8,7,6,5,4,3,2,1,1", "lists 11 cards");
  tu_refuse(&r, "*W,9,8,7,6,5,4,3,2,2", "the reshuffle lists 2 2 times, but the completed piles hold it 1 time");
  tu_refuse(&r, "*W,9,8,7,6,5,4,3,2,X", "card 10 of the reshuffle: 'X' is not a Skip-Bo Junior card (1-10 or W)");
  tu_refuse(&r, "*W,9,8,7,6,5,4,3,2,7H", "'7H' is not a Skip-Bo Junior card");
  tu_refuse(&r, "*W 9 8 7 6 5 4 3 2 1", "after card 1 of the reshuffle comes '9': cards are separated by commas");
  tu_refuse(&r, "*W,9,8,7,6,5,4,3,2,", "card 10 of the reshuffle is missing");
  /* Any case and spaces after commas are read; the record keeps the canonical form. */
  tu_play(&r, "*w, 9,8,7,6,5,4,3,2,1");
  assert_string_equal(r.moves[r.nmoves - 1], "*W,9,8,7,6,5,4,3,2,1");
  tu_expect_view(&r, "reshuffles", "1");
  tu_expect_view(&r, "set_aside", "");
  /* The deal went on: W, 9, 8 onto seat 0's stacks; the rest is the draw pile, in that order. */
  expect_stacks(&r, 0, "5 7 9 2 W | 5 7 9 2 9 | 5 7 9 2 8");
  tu_expect_view(&r, "draw_cards", "7 6 5 4 3 2 1");
  expect_to_move(&r, 0);
  tu_expect_legal(&r, "h1>b1 h1>b2");
  /* The players see how many cards it holds, never their order. */
  for (int seat = 0; seat < 2; seat++) {
    tu_expect_view_of(&r, seat, "draw_pile", "7");
    tu_expect_view_of(&r, seat, "draw_cards", "absent");
    text = view_text(&r, seat);
    assert_non_null(strstr(text, "Draw pile: 7 cards (reshuffled 1 time)."));
    assert_null(strstr(text, "7 6 5"));
    free(text);
  }
  pf_run_free(&r);
}

/* The full view's draw pile, sorted, after determinizing a copy of the state for `seat`; also
 * whether its order differs from the original's. */
static void determinized_draw(const pf_run *r, int seat, pf_rng *rng, char *sorted, size_t n, bool *reordered) {
  const pf_game *g = r->game;
  void *copy = pf_xmalloc(g->state_size);
  memcpy(copy, r->state, g->state_size);
  g->determinize(copy, seat, rng);
  pf_run view = *r;
  view.state = copy;
  json_t *v, *a = tu_view_path(&view, PF_VIEW_ALL, "draw_cards", &v), *b;
  json_t *w, *orig = tu_view_path(r, PF_VIEW_ALL, "draw_cards", &w);
  *reordered = !json_equal(a, orig);
  int counts[12] = {0};
  size_t i;
  json_array_foreach(a, i, b) {
    pf_card c;
    assert_int_equal(pf_card_parse(json_string_value(b), &c), 0);
    counts[c - PF_CARD_SBJ(0)]++;
  }
  sorted[0] = '\0';
  for (int k = 1; k <= 11; k++)
    for (int j = 0; j < counts[k]; j++) {
      char cs[PF_CARD_STR];
      snprintf(sorted + strlen(sorted), n - strlen(sorted), "%s%s", sorted[0] ? " " : "",
               pf_card_str((pf_card)PF_CARD_SBJ(k), cs));
    }
  json_decref(v);
  json_decref(w);
  free(copy);
}

/* SBJ-2, SBJ-3: resampling what a seat cannot see. Before the first reshuffle the draw pile and
 * the stockpiles below their tops are one unseen pool; a reshuffled draw pile holds exactly the
 * completed piles' cards, which everyone saw, so only its order is resampled. */
static void test_SBJ_3_determinize_keeps_a_reshuffled_draw_piles_cards(void **unused) {
  (void)unused;
  pf_run r;
  start_sbj(&r, 2, 36, RESHUFFLE_STOCKS, RESHUFFLE_DRAW);
  pf_rng rng;
  pf_rng_seed(&rng, 5, 5);
  char sorted[256];
  bool reordered, changed = false;
  determinized_draw(&r, PF_VIEW_ALL, &rng, sorted, sizeof sorted, &reordered); /* resamples nothing */
  assert_string_equal(sorted, "2 2 2 3 3 6 6 6 7 7 7 8 8 8 9 9 9 10 10 10 W");
  assert_false(reordered);
  for (int i = 0; i < 20; i++) {
    determinized_draw(&r, 0, &rng, sorted, sizeof sorted, &reordered);
    changed |= strcmp(sorted, "2 2 2 3 3 6 6 6 7 7 7 8 8 8 9 9 9 10 10 10 W") != 0;
  }
  assert_true(changed); /* the unseen pool mixes draw pile and stockpiles */
  for (int i = 0; i < 10; i++) tu_play(&r, "s>b1");
  tu_play(&r, "h3>b1");
  tu_play(&r, "*W,9,8,7,6,5,4,3,2,1");
  bool any = false;
  for (int i = 0; i < 20; i++) {
    determinized_draw(&r, i % 2, &rng, sorted, sizeof sorted, &reordered);
    assert_string_equal(sorted, "1 2 3 4 5 6 7");
    any |= reordered;
  }
  assert_true(any);
  pf_run_free(&r);
}

/* SBJ-3: a reshuffle in the middle of a deal: the draw pile had 2 cards for seat 0's turn 9, the
 * third comes from the reshuffled pile, and the generator's outcome is recorded. */
static void test_SBJ_3_reshuffle_in_the_middle_of_a_deal(void **unused) {
  (void)unused;
  pf_run r;
  start_sbj(&r, 2, 35, RESHUFFLE_STOCKS, "5 5 5 6 6 6 7 7 7 8 8 8 9 9 9 10 10 10 2 2 2 3 3 3 4 4");
  for (int i = 0; i < 10; i++) tu_play(&r, "s>b1");
  expect_to_move(&r, PF_CHANCE);
  tu_expect_view(&r, "turn", "9");
  tu_expect_view(&r, "dealt_this_turn", "2");
  pf_run_chance(&r); /* drawn from the game's own generator */
  tu_check(&r);
  const char *outcome = r.moves[r.nmoves - 1];
  assert_int_equal(outcome[0], '*');
  assert_int_equal((int)strlen(outcome), 1 + 10 + 9); /* 1-9 and W, comma-separated */
  /* The third card of the turn is the reshuffled pile's top. */
  char want[8], path[] = "hand_stacks.0.2";
  json_t *v, *h3 = tu_view_path(&r, PF_VIEW_ALL, path, &v);
  snprintf(want, sizeof want, "%.*s", (int)strcspn(outcome + 1, ","), outcome + 1);
  assert_string_equal(json_string_value(json_array_get(h3, json_array_size(h3) - 1)), want);
  json_decref(v);
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* SBJ-4 Plays                                                                                */
/* ------------------------------------------------------------------------------------------ */

/* SBJ-4: a new pile starts with a 1 or a W (counting 1) in the lowest free slot. */
static void test_SBJ_4_wild_started_pile_in_the_lowest_free_slot(void **unused) {
  (void)unused;
  const char *stocks[] = {"5 9", "9 9"};
  pf_run r;
  start_sbj(&r, 2, 3, stocks, "W 1 4  2 2 2");
  tu_expect_legal(&r, "h1>b1 h2>b1");
  tu_refuse(&r, "h1>b2", "b2 is free, but a new building pile takes the lowest free slot, b1 (SBJ-4)");
  tu_refuse(&r, "h3>b1", "b1 is free: a new building pile starts with a 1 or W, not the 4 on top of hand stack 3");
  tu_refuse(&r, "s>b1", "not the 5 on top of the stockpile");
  tu_play(&r, "h1>b1");
  expect_building(&r, 1, "W");
  /* The W counts 1: the 1 cannot go on it, it starts b2; a 2 would go on b1. */
  tu_expect_legal(&r, "h2>b2");
  tu_refuse(&r, "h2>b1", "b1 counts 1: it takes a 2 or W, not the 1 on top of hand stack 2 (SBJ-4)");
  tu_refuse(&r, "h2>b3", "lowest free slot, b2");
  tu_play(&r, "h2>b2");
  expect_building(&r, 2, "1");
  /* Seat 0 is stuck (4, 5); seat 1 is dealt 2 2 2: each 2 goes on either pile. */
  expect_to_move(&r, 1);
  tu_expect_legal(&r, "h1>b1 h1>b2 h2>b1 h2>b2 h3>b1 h3>b2");
  tu_play(&r, "h2>b1");
  expect_building(&r, 1, "W 2");
  pf_run_free(&r);
}

/* SBJ-4: a pile counting n takes n+1 or a W (counting n+1), from the stockpile or a hand stack;
 * equal cards on different sources are different moves. */
static void test_SBJ_4_next_number_or_wild(void **unused) {
  (void)unused;
  const char *stocks[] = {"1 2 4", "9 9 9"};
  pf_run r;
  start_sbj(&r, 2, 3, stocks, "1 3 W");
  tu_expect_legal(&r, "s>b1 h1>b1 h3>b1");
  tu_play(&r, "s>b1");
  /* b1 counts 1; the stockpile's 2 or the W; the 1 of h1 starts b2. */
  tu_expect_legal(&r, "s>b1 h1>b2 h3>b1 h3>b2");
  tu_play(&r, "s>b1");
  tu_expect_legal(&r, "h1>b2 h2>b1 h3>b1 h3>b2");
  tu_play(&r, "h3>b1"); /* W as 3 */
  expect_building(&r, 1, "1 2 W");
  tu_expect_view(&r, "building_piles.0.top", "W");
  tu_refuse(&r, "h2>b1", "b1 counts 3: it takes a 4 or W, not the 3 on top of hand stack 2 (SBJ-4)");
  tu_expect_legal(&r, "s>b1 h1>b2");
  tu_play(&r, "s>b1"); /* 4 on the W counting 3; the stockpile is empty: seat 0 wins (SBJ-6) */
  expect_building(&r, 1, "1 2 W 4");
  expect_to_move(&r, PF_NOBODY);
  pf_run_free(&r);
}

/* Moves: s, h1-h3 onto b1-b4; any case, spaces around '>'; clear refusals. */
static void test_SBJ_moves_notation(void **unused) {
  (void)unused;
  const char *stocks[] = {"1 9", "9 9"};
  pf_run r;
  start_sbj(&r, 2, 3, stocks, "1 5 5");
  tu_refuse(&r, "pass", "cannot read a source at the start: moves look like s>b1");
  tu_refuse(&r, "stock>b1", "cannot read a source");
  tu_refuse(&r, "h4>b1", "there is no hand stack h4: the hand stacks are h1, h2 and h3");
  tu_refuse(&r, "h0>b1", "there is no hand stack h0");
  tu_refuse(&r, "h1 b1", "after the source comes '>' and a building pile, as in h1>b1");
  tu_refuse(&r, "h1>1", "after '>' comes a building pile: b1, b2, b3 or b4");
  tu_refuse(&r, "h1>b5", "there is no building pile b5: they are b1 to b4");
  tu_refuse(&r, "h1>b1x", "unexpected 'x' after the move");
  tu_play(&r, " S > B1 ");
  assert_string_equal(r.moves[r.nmoves - 1], "s>b1");
  tu_play(&r, "H1>b2");
  assert_string_equal(r.moves[r.nmoves - 1], "h1>b2");
  /* Seat 0 is stuck: seat 1 is dealt the standard order's next cards (the deck's 2s...). */
  pf_run_free(&r);
  const char *empty_h[] = {"1 9", "9 9"};
  start_sbj(&r, 2, 3, empty_h, "W 5 5");
  tu_play(&r, "h1>b1");
  tu_refuse(&r, "h1>b2", "hand stack 1 is empty");
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* SBJ-5 Forced play                                                                          */
/* ------------------------------------------------------------------------------------------ */

/* SBJ-5: while any play is possible the player must play (there is no pass); the turn ends by
 * itself when none is, also right at the start of a turn; cards under a played one become
 * playable. */
static void test_SBJ_5_play_while_possible_turn_ends_by_itself(void **unused) {
  (void)unused;
  const char *stocks[] = {"1 9", "9 9"};
  pf_run r;
  start_sbj(&r, 2, 3, stocks, "2 5 6  7 8 10  3 4 W");
  expect_to_move(&r, 0);
  tu_expect_legal(&r, "s>b1"); /* a 1: the only play */
  tu_play(&r, "s>b1");
  tu_expect_legal(&r, "h1>b1");
  tu_play(&r, "h1>b1");
  /* b1 counts 2; 9, 5, 6 cannot go: seat 0's turn has ended. Seat 1 (9; 7 8 10) cannot play
   * either, so its turn ended too: seat 0 is on turn 3. */
  expect_to_move(&r, 0);
  tu_expect_view(&r, "turn", "3");
  tu_expect_view(&r, "last_turns.0.played", "2");
  tu_expect_view(&r, "last_turns.1.played", "0");
  expect_stacks(&r, 0, "3 | 5 4 | 6 W");
  tu_expect_legal(&r, "h1>b1 h3>b1 h3>b2");
  tu_play(&r, "h1>b1");
  tu_play(&r, "h2>b1");                   /* 4: uncovers the 5 below it */
  tu_expect_legal(&r, "h2>b1 h3>b1 h3>b2"); /* the 5, or the W */
  tu_play(&r, "h2>b1");
  tu_refuse(&r, "h3>b1x", "unexpected");
  tu_play(&r, "h3>b1"); /* W as 6: uncovers a 6, which neither goes on b1 nor starts a pile */
  expect_building(&r, 1, "1 2 3 4 5 W");
  tu_expect_view(&r, "last_turns.0.played", "4");
  /* Seat 1 (9; 3 4 5 on 7 8 10) could not play on turn 4; on turn 5 seat 0 is dealt 6 7 8, and
   * the 7 goes on b1. */
  tu_expect_view(&r, "turn", "5");
  tu_expect_view(&r, "last_turns.1.played", "0");
  expect_stacks(&r, 0, "6 | 7 | 6 8");
  tu_expect_legal(&r, "h2>b1");
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* SBJ-6 End                                                                                  */
/* ------------------------------------------------------------------------------------------ */

/* SBJ-6: the first player to empty their stockpile wins at once, with plays still possible. */
static void test_SBJ_6_empty_stockpile_wins_at_once(void **unused) {
  (void)unused;
  const char *stocks[] = {"1 2", "9 9"};
  pf_run r;
  start_sbj(&r, 2, 2, stocks, "W W 3");
  tu_play(&r, "s>b1");
  tu_expect_legal(&r, "s>b1 h1>b1 h1>b2 h2>b1 h2>b2");
  tu_play(&r, "s>b1");
  expect_to_move(&r, PF_NOBODY);
  tu_expect_view(&r, "ended_by", "stockpile");
  tu_expect_view(&r, "winners", "0");
  tu_expect_view(&r, "scores", "0 2");
  tu_expect_view(&r, "turn", "1");
  char *text = view_text(&r, PF_VIEW_ALL);
  assert_non_null(strstr(text, "Game over (SBJ-6): seat 0 emptied their stockpile."));
  free(text);
  tu_expect_view_of(&r, PF_VIEW_PUBLIC, "end.0.kind", "stockpile_emptied");
  tu_expect_view_of(&r, PF_VIEW_PUBLIC, "end.0.rule", "SBJ-6");
  tu_expect_view_of(&r, PF_VIEW_PUBLIC, "end.0.seat", "0");
  tu_expect_view_of(&r, 1, "end.0.text", "Seat 0 played the last card of their stockpile and wins at once.");
  pf_run_free(&r);
}

/* SBJ-6: a whole round of turns (one per player: 3 here) with nothing played or dealt ends the
 * game; turns in which cards are dealt do not count. The fewest stockpile cards win, ties sharing
 * the win (G-6). 3 players, stockpiles of 24: a draw pile of 24 cards, dealt in turns 1-8. */
static void test_SBJ_6_stall_ends_the_game_fewest_stockpile_cards_win(void **unused) {
  (void)unused;
  const char *stocks[] = {"1 9", "2 9", "9"};
  static const char DRAW[] = "4 4 4 4 4 4 4 4 5 5 5 5 5 5 5 5 6 6 6 6 6 6 6 6";
  pf_run r;
  start_sbj(&r, 3, 24, stocks, DRAW);
  tu_play(&r, "s>b1");
  /* Seat 0 is stuck, seat 1 plays its 2 on b1 ... */
  expect_to_move(&r, 1);
  tu_play(&r, "s>b1");
  /* ... and from there nobody can play: turns 3-8 deal the rest, turns 9, 10 and 11 deal nothing
   * and play nothing. */
  expect_to_move(&r, PF_NOBODY);
  tu_expect_view(&r, "ended_by", "stall");
  tu_expect_view(&r, "turn", "11");
  tu_expect_view(&r, "idle_turns", "3");
  tu_expect_view(&r, "scores", "23 23 24");
  tu_expect_view(&r, "winners", "0 1");
  char *text = view_text(&r, PF_VIEW_ALL);
  assert_non_null(strstr(text, "Game over (SBJ-6): a whole round of turns passed with nothing played or dealt"));
  free(text);
  tu_expect_view_of(&r, 2, "end.0.kind", "stalled");
  tu_expect_view_of(&r, 2, "end.0.left", "23 23 24");
  tu_expect_view_of(&r, 2, "end.0.text", "A whole round of turns passed with no card played or dealt, so the game ends: "
                                         "the fewest cards left in a stockpile win.");
  pf_run_free(&r);
  /* The same with 2 players: two idle turns (9 and 10) are a whole round. */
  const char *two[] = {"1 9", "9"};
  start_sbj(&r, 2, 36, two, DRAW);
  tu_play(&r, "s>b1");
  tu_expect_view(&r, "ended_by", "stall");
  tu_expect_view(&r, "turn", "10");
  tu_expect_view(&r, "winners", "0");
  pf_run_free(&r);
}

/* SBJ-6: the game ends when turn 2000 ends. 2 players, stockpiles of 36 topped by 9s (all the 1-9s
 * are in them); the draw pile is the 8 tens and the 16 wilds. The tens lie on the hand stacks
 * from turns 1-3 on and the wilds go round: dealt, played, completed, reshuffled. Each turn plays
 * its three wilds onto the building piles listed in PLAN (the first two turns, then the cycle
 * over and over), chosen so that no pile ends a turn at 8 or 9, where a stockpile 9 or a 10 would
 * have to be played (SBJ-5). */
static void test_SBJ_6_turn_limit(void **unused) {
  (void)unused;
  static const char *const PREFIX[] = {"231", "241"};
  static const char *const CYCLE[] = {"211", "114", "111", "414", "444", "444", "124", "222", "222", "212"};
  const char *stocks[] = {"9", "9"};
  pf_run r;
  start_sbj(&r, 2, 36, stocks, "10 10 10 10 10 10 10 10 W W W W W W W W W W W W W W W W");
  expect_to_move(&r, 0);
  tu_expect_view(&r, "turn", "3");
  tu_play(&r, "h3>b1");
  for (int turn = 4; turn <= 2000; turn++) {
    const char *plan = turn < 6 ? PREFIX[turn - 4] : CYCLE[(turn - 6) % 10];
    while (pf_run_to_move(&r) == PF_CHANCE) pf_run_chance(&r);
    expect_to_move(&r, (turn - 1) % 2);
    if (turn % 500 == 0 || turn >= 1999) assert_int_equal(tu_view_int(&r, "turn"), turn);
    for (int i = 0; plan[i]; i++) {
      char m[16];
      snprintf(m, sizeof m, "h%d>b%c", i + 1, plan[i]);
      tu_play(&r, m);
    }
  }
  expect_to_move(&r, PF_NOBODY);
  tu_expect_view(&r, "ended_by", "turn limit");
  tu_expect_view(&r, "end.0.kind", "turn_limit");
  tu_expect_view(&r, "turn", "2000");
  tu_expect_view(&r, "winners", "0 1");
  assert_true(tu_view_int(&r, "reshuffles") > 500);
  pf_run_free(&r);
}

/* ------------------------------------------------------------------------------------------ */
/* The zones of the JSON view (docs/views.md)                                                 */
/* ------------------------------------------------------------------------------------------ */

/* The draw pile (unseen by all), the building piles with the number each needs next (SBJ-4), the
 * completed piles, then each seat's stockpile (only its top seen, SBJ-2) and hand stacks; a play
 * takes the top card of the stockpile or a hand stack to a building pile. */
static void test_views_zones_and_moves(void **unused) {
  (void)unused;
  const char *stocks[] = {"1 9", "8 9"};
  pf_run r;
  start_sbj(&r, 2, 3, stocks, "2 5 6  7 4 10  3 4 W  W 9 9");
  tu_expect_zone_ids(&r, 1, "draw build:1 build:2 build:3 build:4 done stockpile:0 hand:0.1 hand:0.2 hand:0.3 "
                            "stockpile:1 hand:1.1 hand:1.2 hand:1.3");
  tu_expect_zone(&r, 1, "stockpile:0", "cards", "null null 1");
  tu_expect_zone(&r, PF_VIEW_PUBLIC, "stockpile:0", "cards", "null null 1");
  tu_expect_zone(&r, 1, "hand:0.2", "cards", "5");
  tu_expect_zone(&r, 1, "build:1", "value", "1");
  tu_expect_zone(&r, 1, "build:1", "note", "free: starts with 1 or W");
  tu_expect_zone(&r, 1, "build:2", "note", "free");
  tu_expect_move_zones(&r, 0, "s>b1", "stockpile:0 1 build:1");
  tu_play(&r, "s>b1");
  tu_expect_zone(&r, 1, "build:1", "cards", "1");
  tu_expect_zone(&r, 1, "build:1", "value", "2");
  tu_expect_zone(&r, 1, "build:1", "value_text", "takes 2 next"); /* SBJ-4, in words for people */
  tu_expect_zone(&r, 1, "build:1", "note", "absent");
  tu_expect_move_zones(&r, 0, "h1>b1", "hand:0.1 2 build:1");
  pf_run_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_SBJ_1_deck_and_stock_option),
      cmocka_unit_test(test_SBJ_1_players_times_stock_at_most_72),
      cmocka_unit_test(test_SBJ_1_deal_must_be_the_games_deck),
      cmocka_unit_test(test_SBJ_2_stockpiles_dealt_one_at_a_time),
      cmocka_unit_test(test_SBJ_2_only_the_top_of_a_stockpile_is_seen),
      cmocka_unit_test(test_SBJ_3_three_cards_onto_the_hand_stacks),
      cmocka_unit_test(test_SBJ_3_fewer_or_no_cards_when_nothing_to_reshuffle),
      cmocka_unit_test(test_SBJ_3_reshuffle_of_completed_piles),
      cmocka_unit_test(test_SBJ_3_reshuffle_in_the_middle_of_a_deal),
      cmocka_unit_test(test_SBJ_3_determinize_keeps_a_reshuffled_draw_piles_cards),
      cmocka_unit_test(test_SBJ_4_completion_at_10_by_a_wild),
      cmocka_unit_test(test_SBJ_4_wild_started_pile_in_the_lowest_free_slot),
      cmocka_unit_test(test_SBJ_4_next_number_or_wild),
      cmocka_unit_test(test_SBJ_moves_notation),
      cmocka_unit_test(test_SBJ_5_play_while_possible_turn_ends_by_itself),
      cmocka_unit_test(test_SBJ_6_empty_stockpile_wins_at_once),
      cmocka_unit_test(test_SBJ_6_stall_ends_the_game_fewest_stockpile_cards_win),
      cmocka_unit_test(test_SBJ_6_turn_limit),
      cmocka_unit_test(test_views_zones_and_moves),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
