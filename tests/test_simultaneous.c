/*
 * test_simultaneous.c - the bots on a game with simultaneous choices and chance, before any
 * registered game has them (Point-a-Pile will, PAP-4): "pointing", a small game made here.
 *
 * Each of 6 rounds, chance turns up the values of three piles (1-9, one chance move each); then
 * every seat points at a pile, seat by seat as game.h asks for simultaneous choices: a choice is
 * stored and hidden from the seats asked later until all have chosen. A pile pointed at by
 * exactly one seat scores its value for that seat. determinize(seat) resamples the choices of the
 * seats before it this round (from the generator alone, so it is canonical).
 *
 * Checked: every bot plays it to the end with legal moves; a bot's choice does not depend on the
 * hidden choices of the seats before it (and a peeking bot's does); ismcts, which must see
 * through the others' choices to nothing, still beats a random player at it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/bot.h"
#include "sim/sim.h"
#include "testutil.h"

#define ROUNDS 6
#define PILES 3

typedef struct pt_state {
  int players, round, turned; /* piles turned up this round */
  int value[PILES];
  int choice[PF_MAX_PLAYERS]; /* this round's choices; -1 for none yet */
  int chosen;                 /* seats that chose this round */
  int score[PF_MAX_PLAYERS];
  pf_rng rng;
} pt_state;

static int pt_start(void *vs, const pf_setup *setup, pf_error *err) {
  (void)err;
  pt_state *s = vs;
  memset(s, 0, sizeof *s);
  s->players = setup->players;
  for (int p = 0; p < PF_MAX_PLAYERS; p++) s->choice[p] = -1;
  pf_rng_seed(&s->rng, setup->seed, PF_STREAM_CHANCE);
  return 0;
}

static int pt_to_move(const void *vs) {
  const pt_state *s = vs;
  if (s->round == ROUNDS) return PF_NOBODY;
  return s->turned < PILES ? PF_CHANCE : s->chosen;
}

static int pt_legal(const void *vs, pf_move *out) {
  (void)vs;
  for (int k = 0; k < PILES; k++) out[k] = (pf_move)k;
  return PILES;
}

/* Once every seat has chosen: a pile pointed at by one seat alone is that seat's. */
static void resolve(pt_state *s) {
  for (int k = 0; k < PILES; k++) {
    int n = 0, who = -1;
    for (int p = 0; p < s->players; p++)
      if (s->choice[p] == k) n++, who = p;
    if (n == 1) s->score[who] += s->value[k];
  }
  for (int p = 0; p < s->players; p++) s->choice[p] = -1;
  s->chosen = s->turned = 0;
  s->round++;
}

static void pt_apply(void *vs, pf_move m) {
  pt_state *s = vs;
  s->choice[s->chosen++] = (int)m;
  if (s->chosen == s->players) resolve(s);
}

static void pt_chance_sample(void *vs, char *buf) {
  pt_state *s = vs;
  int v = 1 + (int)pf_rng_below(&s->rng, 9);
  s->value[s->turned++] = v;
  if (buf) snprintf(buf, PF_MOVE_STR, "*%d", v);
}

static void pt_move_str(const void *vs, pf_move m, char buf[PF_MOVE_STR]) {
  (void)vs;
  snprintf(buf, PF_MOVE_STR, "@%u", m + 1);
}

static int pt_move_parse(const void *vs, const char *text, pf_move *m, pf_error *err) {
  (void)vs;
  if (text[0] != '@' || text[1] < '1' || text[1] > '0' + PILES || text[2]) return pf_fail(err, "moves are @1 to @3");
  *m = (pf_move)(text[1] - '1');
  return 0;
}

static void pt_scores(const void *vs, int *scores) {
  const pt_state *s = vs;
  memcpy(scores, s->score, sizeof s->score[0] * (size_t)s->players);
}

static int pt_winners(const void *vs, int *seats) {
  const pt_state *s = vs;
  int best = -1, n = 0;
  for (int p = 0; p < s->players; p++)
    if (s->score[p] > best) best = s->score[p];
  for (int p = 0; p < s->players; p++)
    if (s->score[p] == best) seats[n++] = p;
  return n;
}

/* A seat sees the piles, the scores, who has chosen, and its own choice only. */
static void pt_view_write(const void *vs, int seat, pf_jw *w) {
  const pt_state *s = vs;
  pf_jw_key(w, "values");
  pf_jw_ints(w, s->value, s->turned);
  pf_jw_key(w, "chosen");
  pf_jw_int(w, s->chosen);
  if (seat >= 0 && seat < s->chosen) {
    pf_jw_key(w, "mine");
    pf_jw_int(w, s->choice[seat]);
  }
  if (seat == PF_VIEW_ALL) {
    pf_jw_key(w, "choices");
    pf_jw_ints(w, s->choice, s->chosen);
  }
}

static void pt_view_text(const void *vs, int seat, const pf_style *st, pf_buf *out) {
  (void)st;
  const pt_state *s = vs;
  pf_buf_printf(out, "round %d, %d chosen", s->round + 1, s->chosen);
  if (seat >= 0 && seat < s->chosen) pf_buf_printf(out, ", yours @%d", s->choice[seat] + 1);
}

/* The choices of the seats before `seat` this round are resampled from rng alone; the chance
 * stream is reseeded. */
static void pt_determinize(void *vs, int seat, pf_rng *rng) {
  pt_state *s = vs;
  for (int p = 0; p < s->chosen && seat >= 0; p++)
    if (p != seat) s->choice[p] = (int)pf_rng_below(rng, PILES);
  pf_rng_seed(&s->rng, pf_rng_next(rng), PF_STREAM_CHANCE);
}

static int pt_check(const void *vs, pf_error *err) {
  const pt_state *s = vs;
  return s->chosen <= s->players ? 0 : pf_fail(err, "too many choices");
}

static int pt_current_deal(const void *vs, pf_deal *out) {
  (void)vs;
  if (out) out->ncards = 0;
  return 0;
}

static const pf_game POINTING = {
    .id = "pointing",
    .title = "Pointing (a test game)",
    .min_players = 2,
    .max_players = 4,
    .state_size = sizeof(pt_state),
    .rules = "test game PT-1",
    .start = pt_start,
    .to_move = pt_to_move,
    .legal = pt_legal,
    .apply = pt_apply,
    .move_str = pt_move_str,
    .move_parse = pt_move_parse,
    .scores = pt_scores,
    .winners = pt_winners,
    .view_write = pt_view_write,
    .view_text = pt_view_text,
    .determinize = pt_determinize,
    .check = pt_check,
    .current_deal = pt_current_deal,
    .chance_sample = pt_chance_sample,
};

static const char *const SPECS[] = {"random", "greedy", "ismcts:iters=200", "ismcts:iters=100,playout=greedy"};

/* A bot that peeks: the most valuable pile that no seat before it chose. */
static pf_move peek_choose(const pt_state *s) {
  int best = 0, best_v = -1;
  for (int k = 0; k < PILES; k++) {
    bool taken = false;
    for (int p = 0; p < s->chosen; p++) taken |= s->choice[p] == k;
    if (!taken && s->value[k] > best_v) best = k, best_v = s->value[k];
  }
  return (pf_move)best;
}

static bool is_legal(const void *st, pf_move m) {
  pf_move moves[PF_MAX_MOVES];
  int n = POINTING.legal(st, moves);
  for (int i = 0; i < n; i++)
    if (moves[i] == m) return true;
  return false;
}

/* Every bot plays to the end; at each choice after the first of a round, the same bot with the
 * same seed chooses the same in a position where the earlier seats chose otherwise. */
static void test_pointing_bots(void **unused) {
  (void)unused;
  pt_state st, other;
  int differ_peek = 0, compared = 0;
  for (int players = 2; players <= 4; players++)
    for (int k = 0; k < 4; k++) {
      pf_setup setup = {.players = players, .seed = 10 + (uint64_t)k};
      pf_error err;
      assert_int_equal(POINTING.start(&st, &setup, &err), 0);
      pf_rng hide;
      pf_rng_seed(&hide, 5, (uint64_t)k);
      for (int who, ply = 0; (who = POINTING.to_move(&st)) != PF_NOBODY; ply++) {
        if (who == PF_CHANCE) {
          POINTING.chance_sample(&st, NULL);
          continue;
        }
        pf_bot a, b;
        assert_int_equal(pf_bot_init(&a, SPECS[k], players, (uint64_t)ply, who, &err), 0);
        assert_int_equal(pf_bot_init(&b, SPECS[k], players, (uint64_t)ply, who, &err), 0);
        other = st;
        for (int p = 0; p < st.chosen; p++) other.choice[p] = (int)pf_rng_below(&hide, PILES);
        pf_move m = pf_bot_choose(&a, &POINTING, &st), mo = pf_bot_choose(&b, &POINTING, &other);
        assert_true(is_legal(&st, m));
        if (m != mo)
          fail_msg("bot '%s' at seat %d chose @%u, but @%u when the earlier seats chose otherwise", SPECS[k], who, m + 1,
                   mo + 1);
        if (st.chosen > 0) { /* the same check catches a bot that peeks */
          compared++;
          differ_peek += peek_choose(&st) != peek_choose(&other);
        }
        pf_bot_free(&a);
        pf_bot_free(&b);
        POINTING.apply(&st, m);
      }
    }
  assert_true(compared > 0);
  assert_true(differ_peek > 0);
}

/* ismcts and greedy (its generic rule: no rate_moves here) beat random at pointing, which they
 * can only do by choosing well without seeing the others' choices. */
static void test_pointing_strength(void **unused) {
  (void)unused;
  const char *pairs[][2] = {{"ismcts:iters=300", "random"}, {"greedy", "random"}};
  for (int i = 0; i < 2; i++) {
    pf_sim_config c = {.game = &POINTING, .players = 2, .games = 200, .seed = 1, .rotate = true, .shard = 1, .nshards = 1};
    strcpy(c.seats[0], pairs[i][0]);
    strcpy(c.seats[1], pairs[i][1]);
    pf_sim_run_opts o = {.threads = 2};
    pf_sim_result r;
    pf_error err;
    assert_int_equal(pf_sim_run(&c, &o, &r, &err), 0);
    double rate = pf_sim_bot_wins(&r, 0).mean;
    print_message("%s against random at pointing: %.3f\n", pairs[i][0], rate);
    assert_true(rate > 0.55);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pointing_bots),
      cmocka_unit_test(test_pointing_strength),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
