/*
 * test_analyze.c - the design metrics of `pilfer analyze` (sim/analyze.h): hand-made games whose
 * figures are known (no lead change, a comeback, forced moves only, ties for the lead, turns), the
 * histograms' bins, analyze shards merged into the unsharded run bit for bit (also through their
 * JSON, in another order), the sums read back refusing what is malformed, and each game's counters.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsontext.h"
#include "sim/sim.h"
#include "testutil.h"

/* A hand-made game of `players` seats: `plies` moves by movers[k] (PF_CHANCE for chance) that
 * offered legal[k] moves, standings[k] after each (standings[0] at the start). */
static void trace_of(pf_an_trace *t, int players, int plies, const int *standings, const int *movers,
                     const int *legal) {
  memset(t, 0, sizeof *t);
  pf_an_trace_begin(t, players, standings);
  for (int k = 0; k < plies; k++)
    pf_an_trace_ply(t, movers ? movers[k] : k % players, legal ? legal[k] : 2, standings + (k + 1) * players);
}

/* One game into fresh sums, with the given winners; bot k holds seat k. */
static pf_an_sums one_game(const pf_an_trace *t, const int *winners, int nw) {
  pf_an_sums s;
  memset(&s, 0, sizeof s);
  long long share[PF_MAX_PLAYERS] = {0};
  for (int k = 0; k < nw; k++) share[winners[k]] = PF_WIN_UNIT / nw;
  pf_an_add_game(&s, t, winners, nw, share, t->players, NULL);
  return s;
}

/* Seat 0 leads from its first move to the end: no lead change, the lead for good from the start
 * (a tie at the start does not count against it), never behind, no comeback. */
static void test_no_lead_change(void **unused) {
  (void)unused;
  const int st[] = {0, 0, 1, 0, 2, 0, 3, 1, 5, 1};
  pf_an_trace t;
  trace_of(&t, 2, 4, st, NULL, NULL);
  int w[] = {0};
  pf_an_sums s = one_game(&t, w, 1);
  assert_int_equal(s.tension_games, 1);
  assert_int_equal(s.lead_changes.sum, 0);
  assert_int_equal(s.lead_for_good.sum, 0);
  assert_int_equal(s.drama.sum, 0);
  assert_int_equal(s.comebacks, 0);
  assert_int_equal(s.margin.sum, 4);
  assert_int_equal(s.moves.sum, 4);
  assert_int_equal(s.turns.sum, 4);
  assert_int_equal(s.beat[0][1], 1);
  assert_int_equal(s.beat[1][0], 0);
  /* At the end of each tenth the winner is ahead: 1 (ply 1), 2, 2, 3 ... 4 at the end. */
  assert_int_equal(s.phase_lead[0], 1);
  assert_int_equal(s.phase_lead[9], 4);
  /* Each seat's margin: its final standing less the best other's. */
  assert_int_equal(s.seat_margin[0].sum, 4);
  assert_int_equal(s.seat_margin[1].sum, -4);
  assert_int_equal(s.seat_margin[1].bin[pf_hist_slot(-4)], 1);
  assert_int_equal(s.score[0].n, 1);
  pf_an_trace_free(&t);
}

/* Seat 1 leads, seat 0 catches up late and wins: one lead change, the lead for good only at the
 * last position, behind by 2 at worst, and behind in the second half: a comeback. */
static void test_comeback(void **unused) {
  (void)unused;
  const int st[] = {0, 0, 0, 2, 1, 3, 2, 3, 5, 3};
  pf_an_trace t;
  trace_of(&t, 2, 4, st, NULL, NULL);
  int w[] = {0};
  pf_an_sums s = one_game(&t, w, 1);
  assert_int_equal(s.lead_changes.sum, 1);
  assert_int_equal(s.lead_for_good.sum, 1000); /* 4 of 4 plies: at the very end */
  assert_int_equal(s.drama.sum, 2);
  assert_int_equal(s.comebacks, 1);
  assert_int_equal(s.margin.sum, 2);
  assert_int_equal(s.phase_lead[0], -2); /* after ply 1 */
  assert_int_equal(s.phase_lead[9], 2);
  assert_int_equal(s.comeback_margin.sum, 1); /* a tenth of 5, rounded up */
  pf_an_trace_free(&t);
  /* Behind by 1 late in a game of 20 points is no comeback (the margin is 2); by 2 is one. */
  const int close[] = {0, 0, 0, 1, 10, 1, 10, 11, 20, 11};
  trace_of(&t, 2, 4, close, NULL, NULL);
  s = one_game(&t, w, 1);
  assert_int_equal(s.comeback_margin.sum, 2);
  assert_int_equal(s.drama.sum, 1);
  assert_int_equal(s.comebacks, 0);
  const int behind[] = {0, 0, 0, 1, 10, 1, 10, 12, 20, 12};
  pf_an_trace_free(&t);
  trace_of(&t, 2, 4, behind, NULL, NULL);
  s = one_game(&t, w, 1);
  assert_int_equal(s.comebacks, 1);
  /* Behind by 5 only in the first half: not a comeback. */
  const int early[] = {0, 0, 0, 5, 6, 5, 10, 5, 20, 5};
  pf_an_trace_free(&t);
  trace_of(&t, 2, 4, early, NULL, NULL);
  s = one_game(&t, w, 1);
  assert_int_equal(s.drama.sum, 5);
  assert_int_equal(s.comebacks, 0);
  pf_an_trace_free(&t);
}

/* Ties for the lead: a seat only tied with the leader has not taken the lead; one alone in a lead
 * the last leader no longer shares has. {0} -> {0,1} -> {1} -> {0,1} -> {0}: two changes. */
static void test_ties_for_the_lead(void **unused) {
  (void)unused;
  const int st[] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 1, 2, 0, 2, 2, 0, 3, 2, 0};
  pf_an_trace t;
  trace_of(&t, 3, 5, st, NULL, NULL);
  int w[] = {0};
  pf_an_sums s = one_game(&t, w, 1);
  assert_int_equal(s.lead_changes.sum, 2);
  assert_int_equal(s.drama.sum, 1);
  pf_an_trace_free(&t);
  /* Partners tied together (Piles, Ghârat's teams) lead together: {0,2} -> {1,3} is a change. */
  const int teams[] = {0, 0, 0, 0, 2, 0, 2, 0, 2, 3, 2, 3, 4, 3, 4, 3};
  trace_of(&t, 4, 3, teams, NULL, NULL);
  int tw[] = {0, 2};
  s = one_game(&t, tw, 2);
  assert_int_equal(s.lead_changes.sum, 2); /* {0,2}, {1,3}, {0,2} */
  assert_int_equal(s.shared, 1);
  assert_int_equal(s.margin.sum, 1);
  pf_an_trace_free(&t);
}

/* Forced moves only: every decision had one legal move; chance outcomes are not decisions, and a
 * seat's moves in a row are one turn. */
static void test_forced_only(void **unused) {
  (void)unused;
  const int st[14] = {0};
  const int movers[] = {0, 0, PF_CHANCE, 0, 1, 1};
  const int legal[] = {1, 1, 0, 1, 1, 1};
  pf_an_trace t;
  trace_of(&t, 2, 6, st, movers, legal);
  pf_an_sums s = one_game(&t, NULL, 0);
  assert_int_equal(s.decisions.sum, 5);
  assert_int_equal(s.forced.sum, 5);
  assert_int_equal(s.legal.n, 5);
  assert_int_equal(s.legal.sum, 5);
  assert_int_equal(s.turns.sum, 2);
  assert_int_equal(s.moves.sum, 6);
  assert_int_equal(s.no_winner, 1);
  assert_int_equal(s.tension_games, 0); /* no winner: no tension figures */
  long long d = 0, f = 0;
  for (int ph = 0; ph < PF_AN_PHASES; ph++) d += s.phase_decisions[ph], f += s.phase_forced[ph];
  assert_int_equal(d, 5);
  assert_int_equal(f, 5);
  assert_int_equal(s.phase_decisions[3], 0); /* ply 2 of 6, the chance outcome, is in tenth 3 */
  pf_an_trace_free(&t);
}

/* A new deal or round ends a turn: seat 1 plays the last move of a deal and the first of the
 * next (as in 2-player Steal the Pile, STP-5), two turns, not one. */
static void test_turns_end_with_the_deal(void **unused) {
  (void)unused;
  const int st[10] = {0};
  pf_an_trace t;
  memset(&t, 0, sizeof t);
  pf_an_trace_begin(&t, 2, st);
  pf_an_trace_ply(&t, 0, 2, NULL);
  pf_an_trace_ply(&t, 1, 2, NULL);
  pf_an_trace_cut(&t);
  pf_an_trace_ply(&t, 1, 2, NULL);
  pf_an_trace_ply(&t, 0, 2, NULL);
  pf_an_sums s = one_game(&t, NULL, 0);
  assert_int_equal(s.turns.sum, 4);
  /* Without the cut, seat 1's two moves are one turn. */
  pf_an_trace_begin(&t, 2, st);
  for (int k = 0; k < 4; k++) pf_an_trace_ply(&t, k == 0 || k == 3 ? 0 : 1, 2, NULL);
  s = one_game(&t, NULL, 0);
  assert_int_equal(s.turns.sum, 3);
  pf_an_trace_free(&t);
}

/* Every value falls in a bin whose bounds hold it; bins follow one another with no gap. */
static void test_hist_bins(void **unused) {
  (void)unused;
  long long prev_hi = -1;
  for (int b = 0; b < PF_AN_BINS; b++) {
    long long lo, hi;
    pf_hist_bounds(b, &lo, &hi);
    assert_int_equal(lo, prev_hi + 1);
    assert_true(hi >= lo);
    assert_int_equal(pf_hist_bin(lo), b);
    assert_int_equal(pf_hist_bin(hi), b);
    prev_hi = hi;
    if (b == PF_AN_BINS - 1) assert_int_equal(hi, INT64_MAX);
  }
  /* Negative values mirror the bins, in the slots below PF_AN_BINS; slots go up in value. */
  prev_hi = INT64_MIN;
  for (int i = 1; i < PF_AN_SLOTS; i++) {
    long long lo, hi;
    pf_hist_slot_bounds(i, &lo, &hi);
    if (i > 1) assert_true(lo == prev_hi + 1);
    assert_int_equal(pf_hist_slot(lo), i);
    assert_int_equal(pf_hist_slot(hi), i);
    prev_hi = hi;
  }
  assert_int_equal(pf_hist_slot(-1), PF_AN_BINS - 1);
  assert_int_equal(pf_hist_slot(0), PF_AN_BINS);
  pf_hist h = {0}, a = {0}, c = {0};
  for (long long v = 0; v < 300000; v += 7) pf_hist_add(&h, v), pf_hist_add(v % 2 ? &a : &c, v);
  pf_hist_merge(&a, &c);
  assert_memory_equal(&a, &h, sizeof h);
  assert_int_equal(h.min, 0);
  assert_int_equal(h.max, 299999);
}

/* The counters per seat and the winner's against the others': seat 0 wins with 5 steals, seats 1
 * and 2 made 1 and 2: the winner made 3.5 more than the others' mean (kept times 2, the others). */
static void test_events_per_seat(void **unused) {
  (void)unused;
  const int st[] = {0, 0, 0, 3, 1, 2};
  pf_an_trace t;
  trace_of(&t, 3, 1, st, NULL, NULL);
  t.seat_events[0][0] = 5, t.seat_events[1][0] = 1, t.seat_events[2][0] = 2;
  int w[] = {0};
  pf_an_sums s = one_game(&t, w, 1);
  assert_int_equal(s.lead_games[1], 1); /* two others */
  assert_int_equal(s.lead_event[1][0], 7);
  assert_int_equal(s.lead_event_sq[1][0], 49);
  assert_int_equal(s.seat_event[2][0], 2);
  /* A shared win (a team's): the first winner against the one other, 5 - 2, kept with one other. */
  int both[] = {0, 1};
  s = one_game(&t, both, 2);
  assert_int_equal(s.lead_games[1], 0);
  assert_int_equal(s.lead_games[0], 1);
  assert_int_equal(s.lead_event[0][0], 3);
  pf_an_trace_free(&t);
}

/* The share of a seat's result the deal explains, on constructed deals of 2 seats and 2 rotations:
 * when a seat of each deal wins in both rotations, all of it; when the win goes with the bot, so
 * that each seat wins once in each deal, none of it. */
static void test_deal_share(void **unused) {
  (void)unused;
  pf_an_sums s;
  memset(&s, 0, sizeof s);
  const long long U = PF_WIN_UNIT;
  for (int d = 0; d < 10; d++) {
    long long sh[2][PF_MAX_PLAYERS] = {{d % 2 ? U : 0, d % 2 ? 0 : U}, {d % 2 ? U : 0, d % 2 ? 0 : U}};
    pf_an_add_deal(&s, 2, (const long long(*)[PF_MAX_PLAYERS])sh);
  }
  double share, lo, hi;
  assert_true(pf_an_deal_share(&s, 2, &share, &lo, &hi));
  assert_float_equal(share, 1.0, 1e-12);
  assert_int_equal(s.deal_groups, 20);
  memset(&s, 0, sizeof s);
  for (int d = 0; d < 10; d++) {
    long long sh[2][PF_MAX_PLAYERS] = {{U, 0}, {0, U}};
    pf_an_add_deal(&s, 2, (const long long(*)[PF_MAX_PLAYERS])sh);
  }
  assert_true(pf_an_deal_share(&s, 2, &share, &lo, &hi));
  assert_float_equal(share, 0.0, 1e-12);
  assert_true(hi > 0 && hi < 1);
  /* One deal is too few. */
  memset(&s, 0, sizeof s);
  long long one[2][PF_MAX_PLAYERS] = {{U, 0}, {U, 0}};
  pf_an_add_deal(&s, 2, (const long long(*)[PF_MAX_PLAYERS])one);
  assert_false(pf_an_deal_share(&s, 2, &share, &lo, &hi));
}

/* The balance test: chi-squared against equal shares, with its p-value, on cases worked by hand. */
static void test_chi2(void **unused) {
  (void)unused;
  double p;
  const double two[] = {60, 40}, three[] = {50, 30, 20}, even[] = {25, 25, 25, 25}, none[] = {0, 0};
  assert_float_equal(pf_an_chi2(two, 2, &p), 4.0, 1e-12);
  assert_float_equal(p, 0.0455003, 1e-6); /* 1 df: P(chi2 > 4) */
  assert_float_equal(pf_an_chi2(three, 3, &p), 14.0, 1e-12);
  assert_float_equal(p, exp(-7.0), 1e-12); /* 2 df: e^(-x/2) */
  assert_float_equal(pf_an_chi2(even, 4, &p), 0.0, 1e-12);
  assert_float_equal(p, 1.0, 1e-12);
  assert_float_equal(pf_an_chi2(none, 2, &p), 0.0, 0);
  assert_float_equal(p, 1.0, 0);
  assert_float_equal(pf_an_gamma_q(5, 10), 0.0292526881, 1e-9); /* the continued fraction */
  assert_float_equal(pf_an_gamma_q(5, 2), 0.9473469827, 1e-9);  /* the series */
}

/* ---- whole runs ---- */

/* An analyze run of rotated games. */
static pf_sim_config config(const char *game, int players, long long games, const char *const *seats) {
  pf_sim_config c = tu_sim_config(game, players, games, true, seats);
  c.analyze = true;
  return c;
}

/* Three shards, through their JSON text and in another order, merge into the unsharded run. */
static void test_analyze_shards_merge(void **unused) {
  (void)unused;
  const char *const seats[] = {"greedy", "random", "ismcts:iters=10"};
  pf_sim_config c = config("thief", 3, 30, seats);
  pf_sim_result whole, one, parts[3], merged;
  pf_error err;
  tu_sim_run(&c, 2, NULL, &whole);
  tu_sim_run(&c, 1, NULL, &one);
  assert_memory_equal(&whole.sums, &one.sums, sizeof whole.sums);
  for (int i = 0; i < 3; i++) {
    pf_sim_config sc = c;
    sc.shard = i + 1;
    sc.nshards = 3;
    pf_sim_result part;
    tu_sim_run(&sc, 1, NULL, &part);
    json_t *j = pf_sim_json(&part);
    if (pf_sim_from_json(j, "part", &parts[2 - i], &err) != 0) fail_msg("%s", err.msg);
    json_decref(j);
    assert_memory_equal(&parts[2 - i].sums, &part.sums, sizeof part.sums);
  }
  assert_int_equal(pf_sim_merge(parts, 3, &merged, &err), 0);
  char *want = tu_sim_text(&whole), *got = tu_sim_text(&merged);
  assert_string_equal(want, got);
  assert_non_null(strstr(got, "\"analysis\":"));
  free(want);
  free(got);
  assert_int_equal(whole.sums.an.moves.n, 30);
  assert_int_equal(whole.sums.an.moves.sum, whole.sums.moves);
  /* A sim shard is not a part of an analyze run. */
  parts[0].config.analyze = false;
  assert_int_equal(pf_sim_merge(parts, 3, &merged, &err), -1);
  assert_non_null(strstr(err.msg, "sim or analyze must all agree"));
}

/* Turns, deals and rounds of whole games. 2-player Steal the Pile: 6 rounds of 4 cards each
 * (STP-2, STP-5), 48 moves of one card each, 48 turns (the seat that plays last in a round opens
 * the next one: its two moves are two turns), one deal. Point-a-Pile with missions: the missions
 * are a second deck dealt at the start (PAP-1, PAP-9), so one deal; its rounds (PAP-2) counted. */
static void test_turns_deals_rounds(void **unused) {
  (void)unused;
  const char *const seats[] = {"greedy", "greedy", "greedy"};
  pf_sim_config c = config("steal-the-pile", 2, 40, seats);
  pf_sim_result r;
  tu_sim_run(&c, 2, NULL, &r);
  assert_int_equal(r.sums.an.turns.min, 48);
  assert_int_equal(r.sums.an.turns.max, 48);
  assert_int_equal(r.sums.an.rounds.sum, 6 * 40);
  assert_int_equal(r.sums.an.deals.sum, 40);
  /* No chance outcomes: every event is in some seat's move. Rotated: 20 deals of 2 seats. */
  for (int e = 0; e < pf_nevents(c.game); e++)
    assert_int_equal(r.sums.an.seat_event[0][e] + r.sums.an.seat_event[1][e], r.sums.an.event[e]);
  assert_int_equal(r.sums.an.deal_groups, 40);
  assert_int_equal(r.sums.an.deal_y, r.sums.win[0] + r.sums.win[1]);
  c = config("point-a-pile", 3, 30, seats);
  pf_error err;
  if (pf_options_parse_list(c.game->options, c.game->noptions, "missions=true", &c.options, &err) != 0)
    fail_msg("%s", err.msg);
  tu_sim_run(&c, 2, NULL, &r);
  assert_int_equal(r.sums.an.deals.max, 1);
  assert_true(r.sums.an.rounds.min >= 1);
  assert_true(r.sums.an.rounds.sum > r.sums.an.rounds.n); /* games of more than one round */
  char *text = tu_sim_text(&r);
  assert_non_null(strstr(text, "\"rounds\":{\"n\":30,"));
  free(text);
  /* A game without rounds shows none. */
  c = config("thief", 2, 4, seats);
  tu_sim_run(&c, 1, NULL, &r);
  json_t *j = pf_sim_json(&r);
  assert_null(json_object_get(json_object_get(json_object_get(j, "analysis"), "length"), "rounds"));
  assert_non_null(json_object_get(json_object_get(json_object_get(j, "analysis"), "length"), "deals"));
  json_decref(j);
}

/* Malformed analysis sums are refused, saying where. */
static void test_analyze_json_refused(void **unused) {
  (void)unused;
  const char *const seats[] = {"greedy", "random"};
  pf_sim_config c = config("steal-the-pile", 2, 4, seats);
  pf_sim_result r, back;
  pf_error err;
  tu_sim_run(&c, 1, NULL, &r);
  json_t *j = pf_sim_json(&r), *an = json_object_get(json_object_get(j, "sums"), "analysis");
  json_t *moves = json_object_get(an, "moves");
  json_object_set_new(moves, "n", json_integer(5));
  assert_int_equal(pf_sim_from_json(j, "f.json", &back, &err), -1);
  assert_string_equal(err.msg, "f.json: sums.analysis: moves: bins: they hold 4 values, not n = 5");
  json_object_set_new(moves, "n", json_integer(4));
  json_object_set_new(moves, "bins", json_loads("[[47, 4]]", 0, NULL));
  assert_int_equal(pf_sim_from_json(j, "f.json", &back, &err), -1);
  assert_non_null(strstr(err.msg, "moves: bins[0]: 47 is not where a bin begins"));
  json_object_set_new(moves, "bins", json_loads("[[48, 4]]", 0, NULL));
  json_object_set_new(an, "beat", json_loads("[[0, 1]]", 0, NULL));
  assert_int_equal(pf_sim_from_json(j, "f.json", &back, &err), -1);
  assert_string_equal(err.msg, "f.json: sums.analysis: beat: expected 2 rows, one per bot");
  json_object_set_new(an, "event", json_string("many"));
  assert_int_equal(pf_sim_from_json(j, "f.json", &back, &err), -1);
  assert_non_null(strstr(err.msg, "event: expected an array of 4 integers"));
  json_decref(j);
}

/* The counters: every game declares some, within PF_MAX_EVENTS, and random games count some of
 * them. A re-capture answers a steal in Thief (THF-5) and never in Four Card Thief. */
static void test_events(void **unused) {
  (void)unused;
  const char *const seats[] = {"random", "random", "random", "random", "random", "random"};
  long long thief_recaptures[2] = {-1, -1};
  for (int k = 0; pf_games[k]; k++) {
    const pf_game *g = pf_games[k];
    int n = pf_nevents(g), players = g->measures->quick_players;
    assert_true(n > 0 && n <= PF_MAX_EVENTS);
    pf_sim_config c = config(g->id, players, 20 * players, seats);
    pf_sim_result r;
    tu_sim_run(&c, 2, NULL, &r);
    long long any = 0;
    for (int e = 0; e < n; e++) {
      any += r.sums.an.event[e];
      if (strcmp(g->events[e], "recaptures") == 0) thief_recaptures[strcmp(g->id, "thief") != 0] = r.sums.an.event[e];
    }
    if (!any) fail_msg("%s: no counter counted in %lld random games", g->id, r.sums.games);
  }
  assert_true(thief_recaptures[0] > 0);   /* Thief */
  assert_int_equal(thief_recaptures[1], 0); /* Four Card Thief */
}

/* The warnings of sums whose counters are `events` (-1 ends the list), as a JSON array. */
static json_t *warnings_of(const char *game, const char *options, long long games, const long long *events) {
  const pf_game *g = pf_game_find(game);
  pf_an_sums s;
  memset(&s, 0, sizeof s);
  for (int e = 0; events[e] >= 0; e++) s.event[e] = events[e];
  pf_options o;
  pf_error err;
  pf_options_default(g->options, g->noptions, &o);
  assert_int_equal(pf_options_parse_list(g->options, g->noptions, options, &o, &err), 0);
  pf_buf b = {0};
  pf_jw w = {.b = &b};
  pf_jw_open(&w, '{');
  pf_an_warnings_write(&w, &s, games, g, 3, &o);
  pf_jw_close(&w, '}');
  json_t *j = json_loads(pf_buf_str(&b), 0, NULL);
  pf_buf_free(&b);
  assert_non_null(j);
  json_t *list = json_incref(json_object_get(j, "warnings"));
  json_decref(j);
  assert_true(json_is_array(list));
  return list;
}

/* analyze warns of each counter that stayed at 0 over a run where it can happen: Point-a-Pile's
 * actions with actions on, not its rule breaks or missions met with police and missions off
 * (PAP-9); never of Four Card Thief's re-captures and passes (FCT-5, FCT-3); nothing over no games.
 * And in a real run, greedy with actions on leaves nothing to warn of (it uses Action cards). */
static void test_warnings(void **unused) {
  (void)unused;
  json_t *w = warnings_of("point-a-pile", "actions=true", 400, (const long long[]){5, 7, 1, 0, 0, 0, -1});
  assert_int_equal(json_array_size(w), 1);
  assert_string_equal(json_string_value(json_object_get(json_array_get(w, 0), "event")), "actions");
  assert_string_equal(json_string_value(json_object_get(json_array_get(w, 0), "warning")),
                      "actions stayed at 0 over 400 games: nothing in this run measures it (do the bots use this rule?)");
  json_decref(w);
  w = warnings_of("point-a-pile", "police=true missions=true", 1, (const long long[]){0, 7, 1, 0, 0, 2, -1});
  assert_int_equal(json_array_size(w), 2); /* empty_taps, rule_breaks */
  assert_string_equal(json_string_value(json_object_get(json_array_get(w, 0), "event")), "empty_taps");
  assert_string_equal(json_string_value(json_object_get(json_array_get(w, 1), "event")), "rule_breaks");
  assert_non_null(strstr(json_string_value(json_object_get(json_array_get(w, 1), "warning")), " over 1 game: "));
  json_decref(w);
  w = warnings_of("four-card-thief", NULL, 50, (const long long[]){0, 0, 0, 3, 0, -1});
  assert_int_equal(json_array_size(w), 2); /* steals, cards_stolen */
  assert_string_equal(json_string_value(json_object_get(json_array_get(w, 0), "event")), "steals");
  assert_string_equal(json_string_value(json_object_get(json_array_get(w, 1), "event")), "cards_stolen");
  json_decref(w);
  w = warnings_of("thief", NULL, 50, (const long long[]){1, 0, 1, 1, 1, -1});
  assert_int_equal(json_array_size(w), 1); /* Thief has re-captures (THF-5) */
  json_decref(w);
  w = warnings_of("point-a-pile", "actions=true", 0, (const long long[]){-1});
  assert_int_equal(json_array_size(w), 0);
  json_decref(w);

  const char *const seats[] = {"greedy", "greedy", "greedy"};
  pf_sim_config c = config("point-a-pile", 3, 60, seats);
  pf_error err;
  assert_int_equal(pf_options_parse_list(c.game->options, c.game->noptions, "actions=true police=true", &c.options, &err), 0);
  pf_sim_result r;
  tu_sim_run(&c, 2, NULL, &r);
  json_t *j = pf_sim_json(&r);
  json_t *list = json_object_get(j, "warnings");
  if (!json_is_array(list) || json_array_size(list))
    fail_msg("greedy with actions and police: warnings %s", json_dumps(list, 0));
  json_decref(j);
}

/* Random games of g with n players, every boolean option off or on (those the game refuses
 * skipped), checking after every move: when the standing key did not change, the standing did not
 * either (analyze reads it only when the key changes); and the counters counted from the prefix of
 * the position before the move (events_before), the rest of it garbage, are those counted from all
 * of it. Returns the moves that left the key unchanged. */
static long long check_keys(const pf_game *g, int n, bool bools, int games) {
  void *st = calloc(1, g->state_size), *full = calloc(1, g->state_size), *part = calloc(1, g->state_size);
  long long kept = 0;
  pf_rng rng;
  pf_rng_seed(&rng, 11, (uint64_t)n);
  for (int i = 0; i < games; i++) {
    pf_setup setup = {.players = n, .seed = (uint64_t)i + 1};
    pf_options_default(g->options, g->noptions, &setup.options);
    for (int o = 0; o < g->noptions && bools; o++)
      if (g->options[o].type == PF_OPT_BOOL) setup.options.v[o] = 1;
    pf_error err;
    if (g->start(st, &setup, &err) != 0) break;
    int was[PF_MAX_PLAYERS], now[PF_MAX_PLAYERS];
    pf_standing(g, st, was);
    uint64_t key = pf_standing_key(g, st);
    int round = pf_round(g, st), deal = g->current_deal(st, NULL);
    for (int who; (who = g->to_move(st)) != PF_NOBODY;) {
      pf_move m = PF_MOVE_CHANCE, legal[PF_MAX_MOVES];
      memcpy(full, st, g->state_size);
      memset(part, 0xA5, g->state_size);
      memcpy(part, st, g->events_before ? g->events_before : g->state_size);
      if (who == PF_CHANCE) {
        pf_chance_sample(g, st, NULL);
      } else {
        m = legal[pf_rng_below(&rng, (uint32_t)g->legal(st, legal))];
        g->apply(st, m);
      }
      long long by_full[PF_MAX_EVENTS] = {0}, by_part[PF_MAX_EVENTS] = {0};
      pf_count_events(g, full, st, m, by_full);
      pf_count_events(g, part, st, m, by_part);
      assert_memory_equal(by_full, by_part, sizeof by_full);
      pf_standing(g, st, now);
      uint64_t k = pf_standing_key(g, st);
      if (g->standing_key && k == key) {
        kept++;
        if (memcmp(was, now, (size_t)n * sizeof *now) != 0)
          fail_msg("%s -p %d: a move changed the standing but not the standing key", g->id, n);
      }
      key = k;
      memcpy(was, now, sizeof was);
      /* Rounds are counted over the whole game: they never go back (a match's next deal too). */
      if (pf_round(g, st) < round) fail_msg("%s -p %d: the round went from %d back to %d", g->id, n, round, pf_round(g, st));
      /* analyze reads only the round of a game with rounds: a new deal is a new round too. */
      if (g->round && g->current_deal(st, NULL) != deal && pf_round(g, st) == round)
        fail_msg("%s -p %d: a new deal but not a new round", g->id, n);
      round = pf_round(g, st), deal = g->current_deal(st, NULL);
    }
  }
  free(st);
  free(full);
  free(part);
  return kept;
}

static void test_standing_keys(void **unused) {
  (void)unused;
  for (int k = 0; pf_games[k]; k++) {
    const pf_game *g = pf_games[k];
    long long kept = 0;
    for (int n = g->min_players; n <= g->max_players && n <= 6; n++)
      kept += check_keys(g, n, false, 12) + check_keys(g, n, true, 12);
    /* A key that never stays the same saves nothing. */
    if (g->standing_key && kept == 0) fail_msg("%s: the standing key changed with every move", g->id);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_no_lead_change),  cmocka_unit_test(test_comeback),
      cmocka_unit_test(test_ties_for_the_lead), cmocka_unit_test(test_forced_only),
      cmocka_unit_test(test_hist_bins),       cmocka_unit_test(test_analyze_shards_merge),
      cmocka_unit_test(test_analyze_json_refused), cmocka_unit_test(test_events),
      cmocka_unit_test(test_standing_keys), cmocka_unit_test(test_turns_end_with_the_deal),
      cmocka_unit_test(test_turns_deals_rounds), cmocka_unit_test(test_chi2),
      cmocka_unit_test(test_events_per_seat), cmocka_unit_test(test_deal_share),
      cmocka_unit_test(test_warnings),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
