/*
 * point_a_pile.c - Point-a-Pile's description, the one symbol the game exports: start,
 * scores, deals, hidden information and the check, its options and its measures (pap.h says
 * which file holds what).
 */
#include "games/point_a_pile/pap.h"

#include <stddef.h>
#include <string.h>

#include "core/measure.h"
#include "games/rules.h"
PF_RULES_TEXT(pf_rules_point_a_pile);

/* ------------------------------------------------------------------------------------------ */
/* Start, scores, deals                                                                       */
/* ------------------------------------------------------------------------------------------ */

static int pap_start(void *vs, const pf_setup *setup, pf_error *err) {
  pap_state *s = vs;
  memset(s, 0, sizeof *s);
  s->pile_variant = (uint8_t)setup->options.v[OPT_PILE];
  s->police = (uint8_t)setup->options.v[OPT_POLICE];
  s->missions = (uint8_t)setup->options.v[OPT_MISSIONS];
  s->shy = (uint8_t)setup->options.v[OPT_SHY];
  s->actions = (uint8_t)setup->options.v[OPT_ACTIONS];
  if (setup->ndeals > 1 + s->missions)
    return pf_fail(err, s->missions ? "a game of Point-a-Pile with missions uses a deck and a mission deck, but %d deals are given"
                                    : "a game of Point-a-Pile uses one deck, but %d deals are given",
                   setup->ndeals);
  if (setup->ndeals >= 1) {
    if (pap_deck_check(s, setup->deals[0].cards, setup->deals[0].ncards, err) != 0) {
      pf_error_prefix(err, "deal 1");
      return -1;
    }
    s->ncards = (uint8_t)setup->deals[0].ncards;
    memcpy(s->card, setup->deals[0].cards, s->ncards * sizeof s->card[0]);
  } else {
    s->ncards = (uint8_t)pap_generate_deck(s, s->card, setup->seed);
  }
  if (s->missions && setup->ndeals == 2) {
    if (pap_missions_check(setup->deals[1].cards, setup->deals[1].ncards, err) != 0) {
      pf_error_prefix(err, "deal 2");
      return -1;
    }
    memcpy(s->mission, setup->deals[1].cards, sizeof s->mission);
  } else if (s->missions) {
    pap_generate_missions(s->mission, setup->seed);
  }
  s->players = (uint8_t)setup->players;
  s->head = 0; /* PAP-2 */
  pap_begin_round(s);
  return 0;
}

/* PAP-7: the running scores; with the Headpointer of the round in progress (or of the last). */
static void pap_scores(const void *vs, int *scores) {
  const pap_state *s = vs;
  for (int p = 0; p < s->players; p++) scores[p] = pap_score_of(s, p);
}

/* PAP-9 missions: the players whose mission was met share the win. Otherwise PAP-7, G-6: the
 * highest score wins; equal best scores share the win. */
static int pap_winners(const void *vs, int *seats) {
  const pap_state *s = vs;
  int n = 0, mask = s->met ? s->met : pap_standing(s, false);
  for (int p = 0; p < s->players; p++)
    if (mask >> p & 1) seats[n++] = p;
  return n;
}

/* Deal 0 is the deck; with missions, deal 1 is the mission deck, in use from the start too. */
static void pap_deal_at(const void *vs, int k, pf_deal *out) {
  const pap_state *s = vs;
  out->ncards = k ? MISSION_CARDS : s->ncards;
  memcpy(out->cards, k ? s->mission : s->card, (size_t)out->ncards * sizeof s->card[0]);
}

static int pap_current_deal(const void *vs, pf_deal *out) {
  const pap_state *s = vs;
  if (out) pap_deal_at(s, s->missions, out);
  return s->missions;
}

/* ------------------------------------------------------------------------------------------ */
/* Hidden information                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* PAP-8: may `seat` see the whole of p's score row? Its top card and size everyone sees. */
bool pap_row_visible(const pap_state *s, int seat, int p) {
  return !s->pile_variant || s->over || pf_view_sees_own(seat, p);
}

/* PAP-9 missions: may `seat` see p's mission? Its own, and every one once the game is over. */
bool pap_mission_visible(const pap_state *s, int seat, int p) {
  return s->over || pf_view_sees_own(seat, p);
}

/* Have the pointers of level l who do not wait (Trailing Reward) all chosen? */
static bool early_done(const pap_state *s, int l) {
  for (int p = 0; p < s->players; p++)
    if ((s->pointers[l] >> p & 1) && !(s->late[l] >> p & 1) && s->choice[l][p] == UNCHOSEN) return false;
  return true;
}

/* May `seat` see p's choice at level l? After the reveal everyone may; under Trailing Reward the
 * choices of those who do not wait are shown to all once they are all made. */
bool pap_choice_visible(const pap_state *s, int seat, int l, int p) {
  return pf_view_sees_own(seat, p) || l < top_level(s) || pap_placing(s) || s->window || pap_next_pointer(s) < 0 ||
         (!(s->late[l] >> p & 1) && s->late[l] && early_done(s, l));
}

/* May `seat` see p's throw at rock-paper-scissors? Only once all have thrown (never pending). */
bool pap_throw_visible(const pap_state *s, int seat, int p) {
  (void)s;
  return pf_view_sees_own(seat, p);
}

/* The slots of the cards `seat` cannot see: the undrawn deck, the unplaced drawn cards when they
 * are hidden, and with `pile` the other rows below their top card. In a fixed order that depends
 * only on what the seat sees. */
static int unseen_slots(const pap_state *s, int seat, uint8_t *out) {
  int n = 0, end = s->ncards < MAX_CARDS ? s->ncards : MAX_CARDS; /* every slot at most once */
  for (int i = s->next_slot; i < end; i++) out[n++] = (uint8_t)i;
  if (s->over) return n;
  if (s->depth && !pap_unplaced_visible(s, seat)) {
    uint8_t ks[MAX_DRAW];
    int nk = pap_unplaced(s, ks);
    for (int i = 0; i < nk; i++) out[n++] = (uint8_t)slot_of(s, ks[i]);
  }
  for (int p = 0; p < s->players; p++)
    if (!pap_row_visible(s, seat, p))
      for (int i = 0; i + 1 < s->row_len[p]; i++) out[n++] = s->row[p][i];
  return n;
}

/* Resamples everything `seat` cannot see from what it can. The unseen cards are drawn anew as the
 * generator draws them: the families they belong to (regular, Rule, Shy, Action) are the ones the
 * deck still has unseen, dealt at random over the unseen slots; each card's type and
 * placeholders by its family's weights, independently of all others; the colours from what is
 * left of the pool once the seen cards' colours are taken out. The others' missions and the
 * missions nobody drew are drawn anew; choices and throws not yet revealed are drawn uniformly
 * from those the seat could make. */
static void pap_determinize(void *vs, int seat, pf_rng *rng) {
  pap_state *s = vs;
  if (seat == PF_VIEW_ALL) return;
  uint8_t slots[MAX_CARDS], fam[MAX_CARDS];
  bool unseen[MAX_CARDS] = {false};
  int n = unseen_slots(s, seat, slots), left[PF_PAP_COLOURS], seen_col[PF_PAP_COLOURS] = {0}, seen_fam[FAMILIES] = {0};
  for (int i = 0; i < n; i++) unseen[slots[i]] = true;
  for (int i = 0; i < s->ncards; i++) {
    int seen = !unseen[i];
    seen_col[pf_pap_colour(s->card[i])] += seen;
    seen_fam[pap_family_of(s->card[i])] += seen;
  }
  pap_colour_pool(s->ncards, left);
  for (int col = 0; col < PF_PAP_COLOURS; col++) left[col] = left[col] > seen_col[col] ? left[col] - seen_col[col] : 0;
  bool mixed = s->police || s->shy || s->actions; /* else every card is a regular one */
  if (mixed) {
    int m = 0;
    for (int f = 0; f < FAMILIES; f++)
      for (int i = 0; i < pap_family_total(s, f) - seen_fam[f] && m < n; i++) fam[m++] = (uint8_t)f;
    pf_shuffle(rng, fam, (size_t)m);
    while (m < n) fam[m++] = FAM_REGULAR;
  }
  pap_draw_cards_of(s->card, slots, mixed ? fam : NULL, n, left, rng);
  if (s->pile_variant) /* the rows' hidden cards were drawn anew */
    for (int p = 0; p < s->players; p++) pap_tally_row(s, p, &s->tally[p]);
  for (int i = 0; i < MISSION_CARDS && s->missions && !s->over; i++)
    if (!pf_view_sees_own(seat, i)) s->mission[i] = pap_draw_mission(rng);
  if (s->over) return;
  s->unchecked = (uint8_t)((1 << s->players) - 1); /* hidden row cards may have changed values */
  if (s->rps_pile != NONE)
    for (int p = 0; p < s->players; p++)
      if (s->rps[p] != UNCHOSEN && !pap_throw_visible(s, seat, p)) s->rps[p] = (uint8_t)pf_rng_below(rng, 3);
  if (s->window || s->pend || s->rps_pile != NONE || pap_placing(s) || !s->depth) return;
  int l = top_level(s);
  for (int p = 0; p < s->players; p++)
    if (s->choice[l][p] != UNCHOSEN && !pap_choice_visible(s, seat, l, p)) {
      uint8_t may[MAXP + 1];
      int k = 0;
      for (int q = 0; q < s->npiles[l]; q++)
        if (pap_may_point(s, p, l, q)) may[k++] = (uint8_t)q;
      may[k++] = EMPTY;
      s->choice[l][p] = may[pf_rng_below(rng, (uint32_t)k)];
    }
}

/* Recounts where every card is: each slot is in the deck, on the table, discarded this round, in
 * one score row, or out of the game, exactly once; the levels, choices and the expansions' state
 * are consistent. */
static int pap_check(const void *vs, pf_error *err) {
  const pap_state *s = vs;
  uint8_t seen[MAX_CARDS] = {0};
  if (pap_deck_check(s, s->card, s->ncards, err) != 0) return -1;
  if (s->missions && pap_missions_check(s->mission, MISSION_CARDS, err) != 0) return -1;
  for (int i = s->next_slot; i < s->ncards; i++) seen[i]++;
  for (int p = 0; p < s->players; p++)
    for (int i = 0; i < s->row_len[p]; i++) seen[s->row[p][i]]++;
  for (int i = 0; i < s->nout; i++) seen[s->out[i]]++;
  for (int i = 0; i < s->ndisc; i++) seen[slot_of(s, s->disc[i])]++;
  /* A game that ended mid-round (PAP-7) leaves the rest of the round's cards where they lay. */
  for (int k = 0; k < s->ndrawn && s->depth; k++)
    if (s->lvl[k] != GONE && s->over) {
      seen[slot_of(s, k)]++;
    } else if (s->lvl[k] != GONE) {
      if (s->lvl[k] >= s->depth) return pf_fail(err, "drawn card %d is at level %d of %d", k + 1, s->lvl[k], s->depth);
      if (s->pile[k] != NONE && s->pile[k] >= s->npiles[s->lvl[k]])
        return pf_fail(err, "drawn card %d is on pile %d of %d", k + 1, s->pile[k] + 1, s->npiles[s->lvl[k]]);
      if (s->pile[k] == NONE && s->lvl[k] != top_level(s)) return pf_fail(err, "drawn card %d is unplaced below the top level", k + 1);
      if (s->pile[k] != NONE && s->pile[k] < s->cursor[s->lvl[k]])
        return pf_fail(err, "drawn card %d lies on pile %d, which was resolved", k + 1, s->pile[k] + 1);
      seen[slot_of(s, k)]++;
    }
  for (int i = 0; i < s->ncards; i++)
    if (seen[i] != 1) return pf_fail(err, "slot %d is in %d places", i, seen[i]);
  if (s->unplaced != (s->depth ? pap_unplaced_of(s, top_level(s)) : 0))
    return pf_fail(err, "the cards to place are %#llx, not %#llx", (unsigned long long)s->unplaced,
                   (unsigned long long)(s->depth ? pap_unplaced_of(s, top_level(s)) : 0));
  for (int p = 0; p < s->players; p++) {
    pap_tally t;
    pap_tally_row(s, p, &t);
    if (memcmp(&t, &s->tally[p], sizeof t) != 0) return pf_fail(err, "seat %d's tally is not its row's", p);
  }
  for (int l = 0; l < s->depth; l++) {
    if (s->npiles[l] > s->players) return pf_fail(err, "level %d has %d piles", l, s->npiles[l]);
    for (int p = 0; p < s->players; p++) {
      int c = s->choice[l][p];
      bool points = s->pointers[l] >> p & 1;
      if (c != UNCHOSEN && (!points || (c != EMPTY && c >= s->npiles[l])))
        return pf_fail(err, "seat %d's choice %d at level %d is impossible", p, c, l);
    }
  }
  if (!s->over && s->window && (s->asked >= s->players || !s->actions))
    return pf_fail(err, "the actions' window asks seat %d", s->asked);
  if (!s->over && !s->window && !s->pend && s->rps_pile == NONE && !s->depth)
    return pf_fail(err, "a round without cards or a window");
  if (s->rps_pile != NONE && (!s->depth || s->rps_pile >= s->npiles[top_level(s)]))
    return pf_fail(err, "rock-paper-scissors is played for pile %d, which does not exist", s->rps_pile + 1);
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* The description                                                                            */
/* ------------------------------------------------------------------------------------------ */

static const pf_option_desc OPTIONS[] = {
    [OPT_PILE] = {"pile", PF_OPT_BOOL, 0, 0, 1, "the harder variant: score rows are face-up piles (PAP-8)",
                  "Score piles (harder)"},
    [OPT_POLICE] = {"police", PF_OPT_BOOL, 0, 0, 1, "Point-a-Police: Rule cards (PAP-9)", "Point-a-Police"},
    [OPT_MISSIONS] = {"missions", PF_OPT_BOOL, 0, 0, 1, "Complete-a-Mission: a secret mission each (PAP-9)",
                      "Complete-a-Mission"},
    [OPT_SHY] = {"shy", PF_OPT_BOOL, 0, 0, 1, "Dont-a-Touchme: Shy cards (PAP-9)", "Dont-a-Touchme"},
    [OPT_ACTIONS] = {"actions", PF_OPT_BOOL, 0, 0, 1, "Wait-a-Minute: Action cards (PAP-9)", "Wait-a-Minute"},
};

/* How pilfer bench and scripts/strength exercise the game, and the lobby's copy (core/measure.h). */
static const pf_measures MEASURES = {
    .playouts = {{2, 200000},
                 {4, 100000},
                 {6, 50000, "pile=true"},
                 {4, 20000, "police=true missions=true shy=true actions=true", "expansions"}},
    .searches = {{3, 5000, 2, {0, 6, 12}}},
    .sims = {{3, 6, "ismcts:iters=300 greedy greedy"}, {3, 6, "ismcts:iters=300 greedy greedy", "actions=true"}},
    .strength = {{3, 1200, "ismcts greedy greedy"}, {3, 1200, "greedy random random"}},
    .quick_players = 3,
    .description = "A game of bluff for 2 to 6 players with coloured cards. Each round one player, the "
    "Headpointer, lays out piles of cards; then everyone points at the pile they want, all at "
    "once and in secret. A pile that only one player wants is theirs; one that several want is "
    "split, and they point again. The cards in your row score by colour and text: the first to "
    "10 points wins.",
    .length_players = 3,
    .length_moves = 121,
};

/* Design metrics (`pilfer analyze`): taps of empty space (PAP-6) from the moves, and the round's
 * log (pap.h) for the rest: the events a move added to it, with those of a round that ended in it
 * (kept as the previous round's log). */
static const char *const EVENTS[] = {"empty_taps", "splits", "empty_scores", "rule_breaks", "actions",
                                     "missions_met", NULL};

static void count_log(const pap_event *log, int from, int to, long long *counts) {
  for (int i = from; i < to; i++) switch (log[i].kind) {
    case EV_SPLIT: counts[1]++; break;
    case EV_EMPTY_SCORES: counts[2]++; break;
    case EV_BROKE: counts[3]++; break;
    case EV_ACTION: counts[4]++; break;
    case EV_MISSION: counts[5]++; break;
    default: break;
    }
}

static int pap_round(const void *vs) { return ((const pap_state *)vs)->round; }

/* A rule break needs police, an action actions, a mission met missions (PAP-9). */
static bool pap_event_possible(int players, const pf_options *o, int k) {
  (void)players;
  return k == 3 ? o->v[OPT_POLICE] != 0 : k == 4 ? o->v[OPT_ACTIONS] != 0 : k == 5 ? o->v[OPT_MISSIONS] != 0 : true;
}

static uint64_t pap_standing_key(const void *vs) { return ((const pap_state *)vs)->changes; }

static void pap_count_events(const void *before, const void *after, pf_move m, long long *counts) {
  const pap_state *b = before, *a = after; /* of before, only what lies before its logs */
  counts[0] += MV_KIND(m) == MV_POINT && MV_B(m) == EMPTY;
  if (a->round != b->round || a->over != b->over) { /* a round began (or the game ended) */
    count_log(a->prev, b->nlog, a->nprev, counts);
    count_log(a->log, 0, a->nlog, counts);
  } else {
    count_log(a->log, b->nlog, a->nlog, counts);
  }
}

const pf_game pf_game_point_a_pile = {
    .id = "point-a-pile",
    .title = "Point-a-Pile",
    .min_players = 2,
    .max_players = MAXP,
    .options = OPTIONS,
    .noptions = sizeof OPTIONS / sizeof OPTIONS[0],
    .state_size = sizeof(pap_state),
    .move_bound = (16u + 16 + 1) << 16 /* kind << 16 | a << 8 | b */,
    .rules = pf_rules_point_a_pile,
    .measures = &MEASURES,
    .start = pap_start,
    .to_move = pap_to_move,
    .legal = pap_legal,
    .random_move = pap_random_move,
    .apply = pap_apply,
    .cards = &pf_pap_notation,
    .move_str = pap_move_str,
    .move_parse = pap_move_parse,
    .scores = pap_scores,
    .winners = pap_winners,
    .view_write = pap_view_write,
    .score_hidden = pap_score_hidden,
    .view_text = pap_view_text,
    .determinize = pap_determinize,
    .check = pap_check,
    .current_deal = pap_current_deal,
    .describe = pap_describe,
    .deal_at = pap_deal_at,
    .rate_moves = pap_rate_moves,
    .choosing = pap_choosing,
    .move_zones = pap_move_zones,
    .events = EVENTS,
    .count_events = pap_count_events,
    .event_possible = pap_event_possible,
    .events_before = offsetof(pap_state, card), /* round, over and nlog */
    .standing_key = pap_standing_key,
    .round = pap_round,
    .action_count = pap_action_count,
    .action_index = pap_action_index,
    .action_move = pap_action_move,
    .max_length = pap_max_length,
};
