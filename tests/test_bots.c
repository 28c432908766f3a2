/*
 * test_bots.c - the bots over every registered game:
 *   - every bot plays every game at every player count to the end, choosing only legal moves
 *     (the invariant check after every move);
 *   - non-interference: a bot with the same seed chooses the same move in two positions that
 *     differ only in what its seat cannot see (the position and a determinization of it), for
 *     every bot and game, and each game's strong bot (the lobby's and the hint's, on a small
 *     budget); a bot that peeks at the full state is caught by the same check;
 *   - and with a history: ismcts's inference (infer), kept from move to move, chooses alike in two
 *     games that differ, now and before, only in what its seat cannot see;
 *   - bots allocate no memory per move or per search iteration;
 *   - specs and settings are read, and refused with a message that says what is allowed;
 *   - greedy's rule of thumb, greedy's generic rule (for a game without one) and ismcts beat a
 *     random player;
 *   - the measuring instruments (ismcts see=hands and see=all) are refused unless allowed, play
 *     legal moves in every game, are caught by the non-interference check (they read hidden
 *     cards, as they should), and are stronger than the fair search with the same budget.
 * A game added to the registry is covered without changing this file.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/bot.h"
#include "bots/solve.h"
#include "core/clock.h"
#include "sim/sim.h"
#include "testutil.h"

/* ---- counting allocations (the test is linked with --wrap for malloc, calloc, realloc) ---- */

void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t k, size_t n);
void *__wrap_realloc(void *p, size_t n);
/* Counted while counting is on, by every thread: a search of `threads=2` allocates (or must not)
 * on its helper thread too, so both are atomic (relaxed: the choice's own join orders them). */
static _Atomic long allocations;
static _Atomic bool counting;

static void count_one(void) {
  if (atomic_load_explicit(&counting, memory_order_relaxed)) atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
}
void *__wrap_malloc(size_t n) {
  count_one();
  return __real_malloc(n);
}
void *__wrap_calloc(size_t k, size_t n) {
  count_one();
  return __real_calloc(k, n);
}
void *__wrap_realloc(void *p, size_t n) {
  count_one();
  return __real_realloc(p, n);
}

/* ---- helpers ---- */

/* Small budgets, so that every game at every player count runs quickly (under the sanitizers
 * too); the fourth spec plays out whole games, past the end of the deal in progress; the fifth
 * searches on three threads, its 25 iterations shared out 9, 8, 8 (with a time limit in each
 * thread's processor time, clock=cpu, which these iterations never reach); the sixth mixes the rule of
 * thumb into its playouts (eps) and cuts them short (cutoff); the last solves the ends of deals
 * exactly over three determinizations (solve; in 2-player games), its fair sight named (see=fair,
 * the default: the only setting of see that is not a measuring instrument). */
static const char *const SPECS[] = {"random", "greedy", "ismcts:iters=25", "ismcts:iters=12,playout=greedy,horizon=game",
                                    "ismcts:iters=25,threads=3,time=60000,clock=cpu", "ismcts:iters=25,eps=0.5,cutoff=6", "ismcts:iters=25,solve=3,see=fair"};
#define NSPECS 7

/* A game with the options written ("key=value ..."; NULL: the defaults). */
static void start_with(const pf_game *g, int players, uint64_t seed, const char *options, void *st) {
  pf_setup setup = {.players = players, .seed = seed};
  pf_options_default(g->options, g->noptions, &setup.options);
  pf_error err;
  if (pf_options_parse_list(g->options, g->noptions, options, &setup.options, &err) != 0 || g->start(st, &setup, &err) != 0)
    fail_msg("%s, %d players: %s", g->id, players, err.msg);
}

static void start(const pf_game *g, int players, uint64_t seed, void *st) { start_with(g, players, seed, NULL, st); }

static bool is_legal(const pf_game *g, const void *st, pf_move m) {
  pf_move moves[PF_MAX_MOVES];
  int n = g->legal(st, moves);
  for (int i = 0; i < n; i++)
    if (moves[i] == m) return true;
  return false;
}

static void make_bot(pf_bot *b, const char *spec, int players, uint64_t seed, int seat) {
  pf_error err;
  if (pf_bot_init(b, spec, players, seed, seat, &err) != 0) fail_msg("bot '%s': %s", spec, err.msg);
}

/* ---- every bot, every game, every player count ---- */

/* Plays one game with seat p held by SPECS[(p + shift) % NSPECS]; every move must be legal. */
static void play_game(const pf_game *g, int players, int shift, uint64_t seed) {
  void *st = pf_xcalloc(1, g->state_size);
  pf_bot bots[PF_MAX_PLAYERS];
  start(g, players, seed, st);
  for (int p = 0; p < players; p++) make_bot(&bots[p], SPECS[(p + shift) % NSPECS], players, seed, p);
  long moves = 0;
  for (int who; (who = g->to_move(st)) != PF_NOBODY; moves++) {
    if (moves > 200000) fail_msg("%s: the game does not end", g->id);
    if (who == PF_CHANCE) {
      pf_chance_sample(g, st, NULL);
    } else {
      pf_move m = pf_bot_choose(&bots[who], g, st);
      if (!is_legal(g, st, m))
        fail_msg("%s, %d players: bot '%s' chose a move that is not legal", g->id, players, SPECS[(who + shift) % NSPECS]);
      g->apply(st, m);
    }
    pf_error err;
    if (g->check(st, &err) != 0) fail_msg("%s after a bot's move: %s", g->id, err.msg);
  }
  for (int p = 0; p < players; p++) pf_bot_free(&bots[p]);
  free(st);
}

static void test_bots_play_every_game(void **unused) {
  (void)unused;
  for (int gi = 0; pf_games[gi]; gi++) {
    const pf_game *g = pf_games[gi];
    for (int p = g->min_players; p <= g->max_players; p++)
      for (int shift = 0; shift < (p < NSPECS ? NSPECS : 1); shift++) play_game(g, p, shift, 100 + (uint64_t)shift);
  }
}

/* ---- non-interference ---- */

/* A bot that cheats: its choice depends on the whole state, hidden cards included. */
static pf_move peek_choose(const pf_game *g, const void *st) {
  pf_move moves[PF_MAX_MOVES];
  int n = g->legal(st, moves);
  uint64_t h = 1469598103934665603u;
  for (size_t i = 0; i < g->state_size; i++) h = (h ^ ((const unsigned char *)st)[i]) * 1099511628211u;
  return moves[h % (uint64_t)n];
}

static void move_text(const pf_game *g, const void *st, pf_move m, char *buf) { g->move_str(st, m, buf); }

/* At positions of a random game with `options` (NULL: the defaults), every bot chooses the same
 * move (and leaves its generator in the same state) in the position and in a determinization of
 * it for the seat to move. Returns how many positions the peeking bot told apart; adds to *passes
 * (if not NULL) the positions checked where `pass` was a legal move. */
static int check_positions_with(const pf_game *g, int players, uint64_t seed, const char *options, int *passes) {
  void *st = pf_xcalloc(1, g->state_size), *other = pf_xcalloc(1, g->state_size);
  pf_rng walk, hide;
  pf_rng_seed(&walk, seed, 1);
  pf_rng_seed(&hide, seed, 2);
  start_with(g, players, seed, options, st);
  int checked = 0, told_apart = 0;
  pf_move moves[PF_MAX_MOVES];
  for (int ply = 0, who; (who = g->to_move(st)) != PF_NOBODY && checked < 40; ply++) {
    if (who == PF_CHANCE) {
      pf_chance_sample(g, st, NULL);
      continue;
    }
    if (ply % 5 == 0) {
      checked++;
      if (passes) {
        pf_move m;
        pf_error err;
        *passes += g->move_parse(st, "pass", &m, &err) == 0 && is_legal(g, st, m);
      }
      memcpy(other, st, g->state_size);
      g->determinize(other, who, &hide);
      /* every spec above, and the game's strong bot (the lobby's and the hint's) on a small budget */
      char strong[PF_BOT_SPEC + 16];
      snprintf(strong, sizeof strong, "%s%siters=24", pf_game_strong_bot(g), strchr(pf_game_strong_bot(g), ':') ? "," : ":");
      for (int k = 0; k <= NSPECS; k++) {
        const char *spec = k < NSPECS ? SPECS[k] : strong;
        pf_bot a, b;
        make_bot(&a, spec, players, seed + (uint64_t)ply, who);
        make_bot(&b, spec, players, seed + (uint64_t)ply, who);
        char sa[PF_MOVE_STR], sb[PF_MOVE_STR];
        move_text(g, st, pf_bot_choose(&a, g, st), sa);
        move_text(g, other, pf_bot_choose(&b, g, other), sb);
        if (strcmp(sa, sb) != 0 || memcmp(&a.rng, &b.rng, sizeof a.rng) != 0)
          fail_msg("%s, %d players, seed %llu, ply %d: bot '%s' at seat %d chose %s, but %s where only hidden "
                   "cards differ", g->id, players, (unsigned long long)seed, ply, spec, who, sa, sb);
        pf_bot_free(&a);
        pf_bot_free(&b);
      }
      char pa[PF_MOVE_STR], pb[PF_MOVE_STR];
      move_text(g, st, peek_choose(g, st), pa);
      move_text(g, other, peek_choose(g, other), pb);
      told_apart += strcmp(pa, pb) != 0;
    }
    int n = g->legal(st, moves);
    g->apply(st, moves[pf_rng_below(&walk, (uint32_t)n)]);
  }
  free(st);
  free(other);
  return told_apart;
}

static int check_positions(const pf_game *g, int players, uint64_t seed) {
  return check_positions_with(g, players, seed, NULL, NULL);
}

static void test_bots_see_only_their_seat(void **unused) {
  (void)unused;
  for (int gi = 0; pf_games[gi]; gi++) {
    const pf_game *g = pf_games[gi];
    int told_apart = 0;
    for (int p = g->min_players; p <= g->max_players; p++) told_apart += check_positions(g, p, 7000 + (uint64_t)p);
    /* The positions compared differ in what the bots may not see: a bot that peeks sees it. */
    if (told_apart == 0) fail_msg("%s: the peeking bot never told a position from its determinization", g->id);
  }
}

/* Point-a-Pile's Action cards are rated by a look ahead to the end of the round (the greedy bot's
 * rule of thumb, and ismcts's bias and greedy playouts): held to the same check in the windows
 * that offer them, with rows face up and (`pile`, PAP-8) hidden. Greedy rating the actions on the
 * full state instead of its determinization is caught here (first at 2 players, `pile`, seed 7122;
 * the 4-player games with `pile` catch it too). */
static void test_bots_see_only_their_seat_with_actions(void **unused) {
  (void)unused;
  const pf_game *g = pf_game_find("point-a-pile");
  static const char *const OPTIONS[] = {"actions=true", "actions=true police=true shy=true", "actions=true pile=true"};
  int windows = 0, told_apart = 0;
  for (int k = 0; k < 3; k++)
    for (int p = 2; p <= 4; p++) told_apart += check_positions_with(g, p, 7100 + (uint64_t)(10 * k + p), OPTIONS[k], &windows);
  for (uint64_t seed = 7200; seed < 7204; seed++) told_apart += check_positions_with(g, 4, seed, OPTIONS[2], &windows);
  if (windows < 10) fail_msg("only %d of the positions checked offered an action", windows);
  assert_true(told_apart > 0);
}

/* ---- non-interference with a history: ismcts's inference ---- */

/* A whole game in which seat `seat`'s bot, kept from move to move, is asked at every turn twice:
 * bot a at the position, bot b (the same spec and seed) at a determinization of it for the seat,
 * so that b's history differs from a's only in what the seat cannot see. They choose the same
 * moves and draw alike; the others play at random. Returns the choices made from particles. */
static int check_history(const pf_game *g, int players, int seat, uint64_t seed, const char *spec) {
  void *st = pf_xcalloc(1, g->state_size), *other = pf_xcalloc(1, g->state_size);
  pf_rng walk, hide;
  pf_rng_seed(&walk, seed, 1);
  pf_rng_seed(&hide, seed, 2);
  start(g, players, seed, st);
  pf_bot a, b;
  make_bot(&a, spec, players, seed, seat);
  make_bot(&b, spec, players, seed, seat);
  pf_move moves[PF_MAX_MOVES];
  int inferred = 0;
  for (int ply = 0, who, asked = 0; (who = g->to_move(st)) != PF_NOBODY && asked < 60; ply++) {
    if (who == PF_CHANCE) {
      pf_chance_sample(g, st, NULL);
      continue;
    }
    if (who == seat) {
      asked++;
      memcpy(other, st, g->state_size);
      g->determinize(other, seat, &hide);
      char sa[PF_MOVE_STR], sb[PF_MOVE_STR];
      pf_move m = pf_bot_choose(&a, g, st);
      move_text(g, st, m, sa);
      move_text(g, other, pf_bot_choose(&b, g, other), sb);
      if (strcmp(sa, sb) != 0 || memcmp(&a.rng, &b.rng, sizeof a.rng) != 0 || a.stats.particles != b.stats.particles)
        fail_msg("%s, %d players, seed %llu, ply %d: '%s' at seat %d chose %s (%d particles), but %s (%d) where only "
                 "hidden cards differ, now and before", g->id, players, (unsigned long long)seed, ply, spec, seat, sa,
                 a.stats.particles, sb, b.stats.particles);
      inferred += a.stats.particles > 0;
      if (!is_legal(g, st, m)) fail_msg("%s, %d players: '%s' chose a move that is not legal", g->id, players, spec);
      g->apply(st, m);
      pf_error err;
      if (g->check(st, &err) != 0) fail_msg("%s after '%s' moved: %s", g->id, spec, err.msg);
      continue;
    }
    int n = g->legal(st, moves);
    g->apply(st, moves[pf_rng_below(&walk, (uint32_t)n)]);
  }
  pf_bot_free(&a);
  pf_bot_free(&b);
  free(st);
  free(other);
  return inferred;
}

static void test_inference_sees_only_its_seat(void **unused) {
  (void)unused;
  const char *const specs[] = {"ismcts:iters=24,infer=4", "ismcts:iters=24,infer=16,solve=2,threads=2"};
  for (int gi = 0; pf_games[gi]; gi++) {
    const pf_game *g = pf_games[gi];
    int inferred = 0;
    for (int p = g->min_players; p <= g->max_players && p <= 4; p++)
      for (int k = 0; k < 2; k++) inferred += check_history(g, p, (p + k) % p, 8100 + (uint64_t)p, specs[k]);
    /* Steal the Pile's others play cards from hidden hands, one move a turn: inference follows. */
    if (strcmp(g->id, "steal-the-pile") == 0 && inferred < 10)
      fail_msg("steal-the-pile: only %d choices drew from particles", inferred);
    print_message("%s: %d choices from particles\n", g->id, inferred);
  }
}

/* ---- no allocation per move or per iteration ---- */

static void test_bots_allocate_once(void **unused) {
  (void)unused;
  const char *specs[] = {"random", "greedy", "ismcts:iters=300", "ismcts:iters=100,playout=greedy",
                         "ismcts:iters=100,threads=2", "ismcts:iters=100,eps=0.3,cutoff=10", "ismcts:iters=100,solve=4"};
  for (int gi = 0; pf_games[gi]; gi++) {
    const pf_game *g = pf_games[gi];
    int players = g->min_players > 2 ? g->min_players : 2;
    if (players > g->max_players) players = g->max_players;
    for (int k = 0; k < (int)(sizeof specs / sizeof specs[0]); k++) {
      void *st = pf_xcalloc(1, g->state_size);
      pf_bot bots[PF_MAX_PLAYERS];
      start(g, players, 5, st);
      for (int p = 0; p < players; p++) make_bot(&bots[p], specs[k], players, 5, p);
      long choices = 0;
      allocations = 0;
      for (int who; (who = g->to_move(st)) != PF_NOBODY && choices < 300;) {
        if (who == PF_CHANCE) {
          pf_chance_sample(g, st, NULL);
          continue;
        }
        counting = true;
        pf_move m = pf_bot_choose(&bots[who], g, st);
        counting = false;
        g->apply(st, m);
        choices++;
      }
      /* At most one allocation per bot (its working memory, at its first real choice), however
       * many choices and iterations. */
      if (allocations > players)
        fail_msg("%s: bot '%s' made %ld allocations in %ld choices", g->id, specs[k], allocations, choices);
      assert_true(choices > 10);
      for (int p = 0; p < players; p++) pf_bot_free(&bots[p]);
      free(st);
    }
  }
}

/* ---- specs ---- */

static void expect_refused(const char *spec, const char *why) {
  pf_error err;
  if (pf_bot_check_spec(spec, &err) == 0) fail_msg("spec '%s' was accepted", spec);
  if (!strstr(err.msg, why)) fail_msg("spec '%s' refused with \"%s\", expected \"%s\"", spec, err.msg, why);
}

static void test_bot_specs(void **unused) {
  (void)unused;
  pf_bot b;
  pf_error err;
  assert_int_equal(pf_bot_init(&b, "ismcts:iters=2000,c=1.25,playout=greedy,horizon=game", 2, 1, 0, &err), 0);
  assert_int_equal(pf_bot_setting_value(&b, "iters"), 2000);
  assert_int_equal(pf_bot_setting_value(&b, "c"), 1250);
  assert_int_equal(pf_bot_setting_value(&b, "playout"), 1);
  assert_int_equal(pf_bot_setting_value(&b, "horizon"), 1);
  assert_int_equal(pf_bot_setting_value(&b, "time"), 0);
  assert_int_equal(pf_bot_init(&b, "ismcts:c=.5", 2, 1, 0, &err), 0);
  assert_int_equal(pf_bot_setting_value(&b, "c"), 500);
  assert_int_equal(pf_bot_init(&b, "ismcts", 2, 1, 0, &err), 0);
  assert_int_equal(pf_bot_setting_value(&b, "c"), 700);
  expect_refused("genius", "unknown bot 'genius'; bots are: random, greedy, ismcts");
  expect_refused("random:iters=3", "bot 'random' has no setting 'iters'; it takes no settings");
  expect_refused("ismcts:depth=3", "bot 'ismcts' has no setting 'depth'; its settings are: iters, time, c, playout, horizon");
  expect_refused("ismcts:iters=0", "bad value '0' for iters; allowed: iters: an integer from 1 to");
  expect_refused("ismcts:iters=lots", "bad value 'lots' for iters");
  expect_refused("ismcts:c=0.1234", "bad value '0.1234' for c; allowed: c: a number from 0 to 10");
  expect_refused("ismcts:c=1.", "bad value '1.' for c");
  expect_refused("ismcts:playout=smart", "bad value 'smart' for playout; allowed: playout: random or greedy");
  expect_refused("ismcts:iters", "'iters' is not of the form key=value");
  expect_refused("ismcts:threads=0", "bad value '0' for threads; allowed: threads: an integer from 1 to 64");
  expect_refused("ismcts:threads=65", "bad value '65' for threads");
  assert_int_equal(pf_bot_init(&b, "ismcts:eps=0.25,cutoff=12", 2, 1, 0, &err), 0);
  assert_int_equal(pf_bot_setting_value(&b, "eps"), 250);
  assert_int_equal(pf_bot_setting_value(&b, "cutoff"), 12);
  expect_refused("ismcts:eps=1.5", "bad value '1.5' for eps; allowed: eps: a number from 0 to 1");
  assert_int_equal(pf_bot_init(&b, "ismcts:solve=8", 2, 1, 0, &err), 0);
  assert_int_equal(pf_bot_setting_value(&b, "solve"), 8);
  expect_refused("ismcts:solve=65", "bad value '65' for solve; allowed: solve: an integer from 0 to 64");
  assert_int_equal(pf_bot_init(&b, "ismcts:time=100,clock=cpu", 2, 1, 0, &err), 0);
  assert_int_equal(pf_bot_setting_value(&b, "clock"), 1);
  assert_int_equal(pf_bot_init(&b, "ismcts", 2, 1, 0, &err), 0);
  assert_int_equal(pf_bot_setting_value(&b, "clock"), 0);
  expect_refused("ismcts:clock=sundial", "bad value 'sundial' for clock; allowed: clock: wall or cpu");
}

/* ---- a time limit in processor time ---- */

/* With clock=cpu the time limit counts the search thread's own processor time: a search with more
 * iterations than it can make in the limit stops at it, having used at least that much processor
 * time (a wall-clock limit may stop before it has, when the machine is busy), and soon after. */
static void test_ismcts_cpu_clock(void **unused) {
  (void)unused;
  const pf_game *g = pf_game_find("steal-the-pile");
  void *st = pf_xcalloc(1, g->state_size);
  start(g, 2, 3, st);
  pf_bot b;
  make_bot(&b, "ismcts:iters=100000000,time=30,clock=cpu", 2, 3, g->to_move(st));
  double before = pf_clock_thread_seconds();
  pf_bot_choose(&b, g, st);
  double used = pf_clock_thread_seconds() - before;
  if (used < 0.030) fail_msg("the search stopped after %.1f ms of processor time, before its 30", used * 1000);
  assert_true(b.stats.iterations > 0 && b.stats.iterations < 100000000);
  pf_bot_free(&b);
  free(st);
}

/* ---- parallel search ---- */

/* ---- the exact solver at the ends of deals ---- */

/* seat's share of the win (in 1/PF_WIN_UNIT) with best play by both seats from st to the end of a
 * game that has no chance move left: plain minimax over every line. */
static int64_t minimax_share(const pf_game *g, const void *st, int seat) {
  int who = g->to_move(st);
  if (who == PF_NOBODY) {
    int seats[PF_MAX_PLAYERS], k = g->winners(st, seats);
    for (int i = 0; i < k; i++)
      if (seats[i] == seat) return PF_WIN_UNIT / k;
    return 0;
  }
  assert_int_not_equal(who, PF_CHANCE);
  pf_move moves[PF_MAX_MOVES];
  int n = g->legal(st, moves);
  int64_t best = who == seat ? -1 : INT64_MAX;
  void *c = pf_xcalloc(1, g->state_size);
  for (int i = 0; i < n; i++) {
    memcpy(c, st, g->state_size);
    g->apply(c, moves[i]);
    int64_t v = minimax_share(g, c, seat);
    if (who == seat ? v > best : v < best) best = v;
  }
  free(c);
  return best;
}

/* ismcts:solve decides the ends of 2-player Steal the Pile games by exact search, never the first
 * move; in the last round (STP-2: 4 cards each, the other hand every card not seen, so nothing is
 * hidden) its move is one that best play rates highest, at positions (of games greedy plays)
 * where some move is worse. */
static void test_ismcts_solve_ends_of_deals(void **unused) {
  (void)unused;
  const pf_game *g = pf_game_find("steal-the-pile");
  void *st = pf_xcalloc(1, g->state_size), *after = pf_xcalloc(1, g->state_size);
  int solved = 0, searched = 0, decisive = 0;
  for (uint64_t seed = 1; seed <= 12; seed++) {
    pf_bot walk;
    make_bot(&walk, "greedy", 2, seed, 0);
    start(g, 2, seed, st);
    pf_move moves[PF_MAX_MOVES];
    for (int ply = 0, who; (who = g->to_move(st)) != PF_NOBODY; ply++) {
      int n = g->legal(st, moves);
      pf_bot b;
      make_bot(&b, "ismcts:iters=50,solve=2", 2, seed, who);
      pf_move m = pf_bot_choose(&b, g, st);
      if (n > 1 && b.stats.iterations == 0) {
        assert_true(b.stats.nodes > 0);
        assert_true(ply >= 48 - PF_SOLVE_DEPTH); /* within reach of the end: 48 moves a game */
        if (ply >= 40) { /* the last round: 8 moves, nothing hidden */
          int64_t best = minimax_share(g, st, who), worst = best;
          for (int i = 0; i < n; i++) {
            memcpy(after, st, g->state_size);
            g->apply(after, moves[i]);
            int64_t v = minimax_share(g, after, who);
            if (v < worst) worst = v;
            if (moves[i] == m) assert_int_equal(v, best);
          }
          decisive += worst < best;
          solved++;
        }
      } else if (n > 1) {
        assert_int_equal(b.stats.iterations, 50);
        searched++;
      }
      pf_bot_free(&b);
      g->apply(st, pf_bot_choose(&walk, g, st));
    }
    pf_bot_free(&walk);
  }
  print_message("solved %d positions (%d where a move loses a share of the win), searched %d\n", solved, decisive, searched);
  assert_true(solved > 12 && searched > 12 && decisive > 0);
  free(st);
  free(after);
}

/* ismcts on several threads makes one choice for a seed and a thread count: two bots alike choose
 * the same move with the same iterations, simulated moves and nodes, and leave their generators
 * alike, at positions of every game; each makes all its iterations. */
static void test_ismcts_threads_deterministic(void **unused) {
  (void)unused;
  for (int gi = 0; pf_games[gi]; gi++) {
    const pf_game *g = pf_games[gi];
    int players = g->min_players > 2 ? g->min_players : 2;
    void *st = pf_xcalloc(1, g->state_size);
    pf_rng walk;
    pf_rng_seed(&walk, 11, 1);
    start(g, players, 11, st);
    pf_move moves[PF_MAX_MOVES];
    int searched = 0;
    for (int ply = 0, who; (who = g->to_move(st)) != PF_NOBODY && searched < 4; ply++) {
      if (who == PF_CHANCE) {
        pf_chance_sample(g, st, NULL);
        continue;
      }
      int n = g->legal(st, moves);
      if (ply % 7 == 0 && n > 1) {
        searched++;
        pf_bot a, b;
        make_bot(&a, "ismcts:iters=301,threads=2", players, 40 + (uint64_t)ply, who);
        make_bot(&b, "ismcts:iters=301,threads=2", players, 40 + (uint64_t)ply, who);
        pf_move ma = pf_bot_choose(&a, g, st), mb = pf_bot_choose(&b, g, st);
        if (ma != mb || a.stats.iterations != b.stats.iterations || a.stats.moves != b.stats.moves ||
            a.stats.nodes != b.stats.nodes || memcmp(&a.rng, &b.rng, sizeof a.rng) != 0)
          fail_msg("%s, ply %d: two searches on 2 threads from one seed differ", g->id, ply);
        assert_int_equal(a.stats.iterations, 301);
        pf_bot_free(&a);
        pf_bot_free(&b);
      }
      g->apply(st, moves[pf_rng_below(&walk, (uint32_t)n)]);
    }
    assert_true(searched > 0);
    free(st);
  }
}

/* ---- the rules of thumb, as documented ---- */

/* Walks random games of `game` (2 players) and, at every position where `applies` holds, asks a
 * greedy bot for its move and checks `rule` of it; returns how many positions were checked. */
static int check_rule(const char *game, bool (*applies)(const pf_game *, const void *, char legal[][PF_MOVE_STR], int),
                      bool (*rule)(const pf_game *, const void *, const char *chosen), const char *what) {
  const pf_game *g = pf_game_find(game);
  void *st = pf_xcalloc(1, g->state_size);
  char legal[PF_MAX_MOVES][PF_MOVE_STR];
  pf_move moves[PF_MAX_MOVES];
  int checked = 0;
  for (uint64_t seed = 1; seed <= 30; seed++) {
    pf_rng walk;
    pf_rng_seed(&walk, seed, 9);
    start(g, 2, seed, st);
    for (int who; (who = g->to_move(st)) != PF_NOBODY;) {
      if (who == PF_CHANCE) {
        pf_chance_sample(g, st, NULL);
        continue;
      }
      int n = g->legal(st, moves);
      for (int i = 0; i < n; i++) g->move_str(st, moves[i], legal[i]);
      if (applies(g, st, legal, n)) {
        pf_bot b;
        make_bot(&b, "greedy", 2, seed, who);
        char chosen[PF_MOVE_STR];
        g->move_str(st, pf_bot_choose(&b, g, st), chosen);
        pf_bot_free(&b);
        if (!rule(g, st, chosen)) fail_msg("%s: greedy chose %s, but %s", game, chosen, what);
        checked++;
      }
      g->apply(st, moves[pf_rng_below(&walk, (uint32_t)n)]);
    }
  }
  free(st);
  return checked;
}

/* Thief: a re-capture is possible (an answer to a steal, THF-5, offers more than pass; a turn
 * after its first action offers pass too, THF-6, and is told apart by its phase). */
static bool thf_can_recapture(const pf_game *g, const void *st, char legal[][PF_MOVE_STR], int n) {
  if (n < 2 || strcmp(legal[n - 1], "pass") != 0) return false;
  json_t *v = pf_view_json(g, st, 2, PF_VIEW_ALL);
  bool answer = strcmp(json_string_value(json_object_get(v, "phase")), "answer") == 0;
  json_decref(v);
  return answer;
}
static bool thf_recaptures(const pf_game *g, const void *st, const char *chosen) {
  (void)g;
  (void)st;
  return strcmp(chosen, "pass") != 0;
}

/* Skip-Bo Junior: the stockpile can be played. */
static bool sbj_stock_playable(const pf_game *g, const void *st, char legal[][PF_MOVE_STR], int n) {
  (void)g;
  (void)st;
  for (int i = 0; i < n; i++)
    if (legal[i][0] == 's') return n > 1;
  return false;
}
static bool sbj_plays_stock(const pf_game *g, const void *st, const char *chosen) {
  (void)g;
  (void)st;
  return chosen[0] == 's';
}

/* The move greedy chooses in a run's position. */
static void expect_greedy(const pf_run *r, const char *want) {
  pf_bot b;
  make_bot(&b, "greedy", r->setup.players, 1, r->game->to_move(r->state));
  char chosen[PF_MOVE_STR];
  r->game->move_str(r->state, pf_bot_choose(&b, r->game, r->state), chosen);
  pf_bot_free(&b);
  assert_string_equal(chosen, want);
}

static void test_greedy_rules(void **unused) {
  (void)unused;
  /* Steal the Pile: seat 1 builds a pile of four (2C 2S 3C 3S); seat 0 then holds 8H, which
   * would make a new open pile, and 3H, which takes that pile: take the biggest pile. */
  pf_deal d;
  pf_run r;
  tu_deal(&d, 1, 0, "9H 2S 6D 3S 8H KD 3H QD 2C 3C 4C 5C");
  tu_start(&r, "steal-the-pile", 2, &d, NULL);
  tu_play(&r, "9H");
  tu_play(&r, "2S>2C");
  tu_play(&r, "6D");
  tu_play(&r, "3S>3C");
  tu_expect_legal(&r, "8H 3H>p1");
  expect_greedy(&r, "3H>p1");
  pf_run_free(&r);
  /* ... and keep your pile's top rank scarce: seat 0 may take the open 7C or the open 5C, two
   * cards either way; it holds another 7, so one 7 is unseen, but two 5s are: take with a 7. */
  tu_deal(&d, 1, 0, "7H 9S 7D 9D 5H 8S KH 8D 7C 5C 2C 3C");
  tu_start(&r, "steal-the-pile", 2, &d, NULL);
  tu_expect_legal(&r, "7H>7C 7D>7C 5H>5C KH");
  pf_bot b;
  make_bot(&b, "greedy", 2, 1, 0);
  char chosen[PF_MOVE_STR];
  r.game->move_str(r.state, pf_bot_choose(&b, r.game, r.state), chosen);
  pf_bot_free(&b);
  if (strcmp(chosen, "7H>7C") != 0 && strcmp(chosen, "7D>7C") != 0) fail_msg("greedy chose %s, not a 7 onto 7C", chosen);
  pf_run_free(&r);
  assert_true(check_rule("thief", thf_can_recapture, thf_recaptures, "it could re-capture (Thief: always re-capture)") > 0);
  assert_true(check_rule("skip-bo-junior", sbj_stock_playable, sbj_plays_stock,
                         "its stockpile could be played (Skip-Bo Junior: stockpile first)") > 0);
}

/* Thief from a deal of two decks and 4 jokers (`deal`, top card first; the rest of the deck
 * follows), after `moves` (space-separated): the legal moves are `legal`, and greedy plays `want`. */
static void expect_thief_greedy(const char *deal, const char *moves, const char *legal, const char *want) {
  pf_deal d;
  pf_run r;
  tu_deal(&d, 2, 4, deal);
  tu_start(&r, "thief", 2, &d, NULL);
  char buf[256];
  snprintf(buf, sizeof buf, "%s", moves);
  for (char *save = NULL, *m = strtok_r(buf, " ", &save); m; m = strtok_r(NULL, " ", &save)) tu_play(&r, m);
  tu_expect_legal(&r, legal);
  expect_greedy(&r, want);
  pf_run_free(&r);
}

/* Thief's rule of thumb after a turn's first action (THF-6, revised: every later capture is
 * optional): a steal made with a wild counts less by the points of one's own top capture, which
 * the wild, kept, could re-capture (THF-5); pass when nothing is worth more. Seat 0 holds 2H and
 * may steal seat 1's pair of 3s with it (25 + 2 x 10 = 45 points for the steal). In each deal
 * seat 0 is dealt three cards, seat 1 3D 3H 5C; KD starts the discard pile; seat 0 captures, draws
 * two cards and passes, seat 1 pairs its 3s, draws 6C 7C and passes. */
static void test_THF_6_greedy_keeps_a_wild_to_recapture(void **unused) {
  (void)unused;
  /* Seat 0's top capture is this turn's first action, a pair of jokers (100): keeping the wild
   * is worth more than the steal, so pass. Seat 0 is dealt 9S 9H JK and draws JK 2H. */
  expect_thief_greedy("9S 3D 9H 3H JK 5C KD JK 2H 6C 7C 8D TD 5D 6D 7H 9D", "9H+9S pass 3D+3H pass JK+JK",
                      "2H>p1 pass", "pass");
  /* With a pair of 4s (10) on top instead, the steal is worth more: steal. Seat 0 is dealt
   * 9S 9H 4S and draws 4H 2H. */
  expect_thief_greedy("9S 3D 9H 3H 4S 5C KD 4H 2H 6C 7C 8D TD 5D 6D 7H 9D", "9H+9S pass 3D+3H pass 4H+4S",
                      "2H>p1 pass", "2H>p1");
  /* The first action is forced, so nothing is kept by choosing a lesser capture: with its pair of
   * jokers on top from the turn before, seat 0 steals with the wild (45) rather than pair its 4s
   * (10). Seat 0 is dealt JK JK 4S and draws 4H 2H. */
  expect_thief_greedy("JK 3D JK 3H 4S 5C KD 4H 2H 6C 7C 8D TD 5D 6D 7H 9D", "JK+JK pass 3D+3H pass",
                      "4H+4S 2H>p1", "2H>p1");
}

/* ---- strength, briefly (docs/strength.md has the real measurements) ---- */

/* The first bot's wins (rate and interval) over `games` games of two players, seats rotated. */
static pf_sim_estimate wins(const pf_game *g, const char *a, const char *b, int games) {
  pf_sim_config c = {.game = g, .players = 2, .games = games, .seed = 3, .rotate = true, .shard = 1, .nshards = 1};
  pf_options_default(g->options, g->noptions, &c.options);
  strcpy(c.seats[0], a);
  strcpy(c.seats[1], b);
  pf_sim_run_opts o = {.threads = 2};
  pf_sim_result r;
  pf_error err;
  if (pf_sim_run(&c, &o, &r, &err) != 0) fail_msg("sim: %s", err.msg);
  return pf_sim_bot_wins(&r, 0);
}

/* The first bot's win rate alone. */
static double win_rate(const pf_game *g, const char *a, const char *b, int games) { return wins(g, a, b, games).mean; }

/* ---- measuring instruments ---- */

static const char *const INSTRUMENTS[] = {"ismcts:iters=24,see=hands", "ismcts:iters=24,see=all,solve=2"};

/* At positions of random games of every game, each instrument chooses a legal move; and it tells
 * some position from a determinization of it for the seat to move, which a fair bot never does.
 * see=hands reads only what some seat sees: where the two positions differ in nothing else (their
 * determinizations for PF_VIEW_HANDS are the same bytes), it chooses alike; it tells them apart
 * somewhere in every game where the others' hands are hidden (not Skip-Bo Junior's, all public). */
static void test_instruments_read_hidden_cards(void **unused) {
  (void)unused;
  pf_error err;
  for (int k = 0; k < 2; k++) {
    assert_int_not_equal(pf_bot_check_spec(INSTRUMENTS[k], &err), 0);
    assert_non_null(strstr(err.msg, "measuring instrument"));
  }
  pf_bot_allow_instruments(true);
  for (int gi = 0; pf_games[gi]; gi++) {
    const pf_game *g = pf_games[gi];
    void *st = pf_xcalloc(1, g->state_size), *other = pf_xcalloc(1, g->state_size);
    void *ha = pf_xcalloc(1, g->state_size), *hb = pf_xcalloc(1, g->state_size);
    int told_apart[2] = {0, 0}, hands_differ = 0;
    for (int players = g->min_players; players <= g->max_players; players++) {
      uint64_t seed = 9100 + (uint64_t)players;
      pf_rng walk, hide;
      pf_rng_seed(&walk, seed, 1);
      pf_rng_seed(&hide, seed, 2);
      start(g, players, seed, st);
      pf_move moves[PF_MAX_MOVES];
      for (int ply = 0, who, checked = 0; (who = g->to_move(st)) != PF_NOBODY && checked < 12; ply++) {
        if (who == PF_CHANCE) {
          pf_chance_sample(g, st, NULL);
          continue;
        }
        if (ply % 7 == 0) {
          checked++;
          memcpy(other, st, g->state_size);
          g->determinize(other, who, &hide);
          pf_rng ra, rb;
          pf_rng_seed(&ra, seed, 3);
          rb = ra;
          memcpy(ha, st, g->state_size);
          memcpy(hb, other, g->state_size);
          g->determinize(ha, PF_VIEW_HANDS, &ra);
          g->determinize(hb, PF_VIEW_HANDS, &rb);
          bool same_hands = memcmp(ha, hb, g->state_size) == 0;
          hands_differ += !same_hands;
          for (int k = 0; k < 2; k++) {
            pf_bot a, b;
            make_bot(&a, INSTRUMENTS[k], players, seed + (uint64_t)ply, who);
            make_bot(&b, INSTRUMENTS[k], players, seed + (uint64_t)ply, who);
            pf_move ma = pf_bot_choose(&a, g, st), mb = pf_bot_choose(&b, g, other);
            if (!is_legal(g, st, ma) || !is_legal(g, other, mb))
              fail_msg("%s, %d players: '%s' chose a move that is not legal", g->id, players, INSTRUMENTS[k]);
            char sa[PF_MOVE_STR], sb[PF_MOVE_STR];
            move_text(g, st, ma, sa);
            move_text(g, other, mb, sb);
            bool apart = strcmp(sa, sb) != 0 || memcmp(&a.rng, &b.rng, sizeof a.rng) != 0;
            if (k == 0 && same_hands && apart)
              fail_msg("%s, %d players, ply %d: '%s' chose %s, but %s where only what no seat sees differs", g->id,
                       players, ply, INSTRUMENTS[k], sa, sb);
            told_apart[k] += apart;
            pf_bot_free(&a);
            pf_bot_free(&b);
          }
        }
        int n = g->legal(st, moves);
        g->apply(st, moves[pf_rng_below(&walk, (uint32_t)n)]);
      }
    }
    for (int k = 0; k < 2; k++)
      if (told_apart[k] == 0 && (k == 1 || hands_differ))
        fail_msg("%s: '%s' never told a position from its determinization", g->id, INSTRUMENTS[k]);
    if (strcmp(g->id, "steal-the-pile") == 0 && !hands_differ) fail_msg("steal-the-pile: the hands never differed");
    free(st);
    free(other);
    free(ha);
    free(hb);
  }
  pf_bot_allow_instruments(false);
}

/* With the same budget, seed and deals, seeing the others' hands, and seeing everything, wins
 * more Steal the Pile games against greedy than the fair search: each ceiling's whole interval
 * lies above the fair search's (at seed 3: 49.6% [40.8, 58.4], see=hands 70.4% [61.7, 77.8],
 * see=all 75.8% [67.4, 82.6]). */
static void test_instruments_are_ceilings(void **unused) {
  (void)unused;
  pf_bot_allow_instruments(true);
  const pf_game *stp = pf_game_find("steal-the-pile");
  pf_sim_estimate fair = wins(stp, "ismcts:iters=200", "greedy", 120);
  pf_sim_estimate hands = wins(stp, "ismcts:iters=200,see=hands", "greedy", 120);
  pf_sim_estimate all = wins(stp, "ismcts:iters=200,see=all", "greedy", 120);
  pf_bot_allow_instruments(false);
  print_message("against greedy: fair %.3f [%.3f, %.3f], see=hands %.3f [%.3f, %.3f], see=all %.3f [%.3f, %.3f]\n",
                fair.mean, fair.lo, fair.hi, hands.mean, hands.lo, hands.hi, all.mean, all.lo, all.hi);
  assert_true(hands.lo > fair.hi);
  assert_true(all.lo > fair.hi);
  assert_true(all.mean > hands.mean);
}

static void test_bots_beat_random(void **unused) {
  (void)unused;
  const pf_game *stp = pf_game_find("steal-the-pile");
  /* Steal the Pile as a game that has no rule of thumb: greedy falls back to its generic rule. */
  pf_game bare = *stp;
  bare.rate_moves = NULL;
  double greedy = win_rate(stp, "greedy", "random", 200), generic = win_rate(&bare, "greedy", "random", 200);
  double ismcts = win_rate(stp, "ismcts:iters=300", "random", 60);
  print_message("greedy %.3f, generic greedy %.3f, ismcts %.3f against random\n", greedy, generic, ismcts);
  assert_true(greedy > 0.6);
  assert_true(generic > 0.55);
  assert_true(ismcts > 0.7);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bot_specs),
      cmocka_unit_test(test_bots_play_every_game),
      cmocka_unit_test(test_bots_see_only_their_seat),
      cmocka_unit_test(test_bots_see_only_their_seat_with_actions),
      cmocka_unit_test(test_inference_sees_only_its_seat),
      cmocka_unit_test(test_bots_allocate_once),
      cmocka_unit_test(test_ismcts_threads_deterministic),
      cmocka_unit_test(test_ismcts_cpu_clock),
      cmocka_unit_test(test_ismcts_solve_ends_of_deals),
      cmocka_unit_test(test_greedy_rules),
      cmocka_unit_test(test_THF_6_greedy_keeps_a_wild_to_recapture),
      cmocka_unit_test(test_bots_beat_random),
      cmocka_unit_test(test_instruments_read_hidden_cards),
      cmocka_unit_test(test_instruments_are_ceilings),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
