/*
 * deck.c - Point-a-Pile's generated decks (PAP-1, PAP-9): the deck and the mission deck drawn
 * from the seed, and the checks of given ones.
 */
#include "games/point_a_pile/pap.h"

#include <stdio.h>
#include <string.h>

/* How many cards of a family the deck holds with the expansions switched on (PAP-1, PAP-9). */
int pap_family_total(const pap_state *s, int f) {
  switch (f) {
  case FAM_REGULAR: return BASE_CARDS;
  case FAM_RULE: return s->police ? RULE_CARDS : 0;
  case FAM_SHY: return s->shy ? SHY_CARDS : 0;
  case FAM_ACTION: return s->actions ? ACTION_CARDS : 0;
  default: return 0; /* missions are a deck of their own */
  }
}

static const char *const FAMILY_NAMES[FAMILIES] = {"regular", "Rule", "Shy", "Action", "Mission"};
static const char *const FAMILY_OPTION[FAMILIES] = {"", "police", "shy", "actions", "missions"};

/* ------------------------------------------------------------------------------------------ */
/* Generating the deck (PAP-1, PAP-9)                                                         */
/* ------------------------------------------------------------------------------------------ */

/* The weights of the regular types, in halves: 7, 1, 1, 1, 1, 1, 1, 1, 0.5 and 0.5 of 15, as the type
 * each of the 30 draws gives (every deck and every determinization draws dozens). */
#define TYPE_WEIGHT2_SUM 30
static const uint8_t TYPE_OF_DRAW[TYPE_WEIGHT2_SUM] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
                                                       1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 9};
/* The rules' weights, of 23, by kind (point-a-pile-cards.md). */
static const uint8_t RULE_WEIGHT[PF_PAP_RULES + 1] = {0, 10, 4, 2, 2, 1, 1, 2, 1};
#define RULE_WEIGHT_SUM 23
/* The actions' weights in quarters, of 67 (16.75), by kind. */
static const uint8_t ACTION_WEIGHT4[PF_PAP_ACTIONS + 1] = {0, 4, 4, 4, 2, 4, 2, 4, 4, 4, 4, 8, 8, 4, 4, 4, 3};
#define ACTION_WEIGHT4_SUM 67

/* An index drawn by weight: w[i] out of sum, w having n entries: the entries whose running sum
 * the draw reaches, counted without a branch. */
static inline int draw_weighted(pf_rng *r, const uint8_t *w, int n, int sum) {
  int x = (int)pf_rng_below(r, (uint32_t)sum), i = 0, upto = 0;
  for (int j = 0; j < n - 1; j++) {
    upto += w[j];
    i += x >= upto;
  }
  return i;
}
#define DRAW_WEIGHTED(r, w, sum) draw_weighted(r, w, (int)sizeof(w), sum)

/* A placeholder W: +1 with probability 3/4, -1 with 1/4; a as cards.h stores signs. */
static inline int draw_w(pf_rng *r) { return pf_rng_below(r, 4) == 0; }

/* Two different values of 2-5 (X and Y drawn without replacement). */
static inline void draw_xy(pf_rng *r, int *x, int *y) {
  *x = 2 + (int)pf_rng_below(r, 4);
  *y = 2 + (int)pf_rng_below(r, 3);
  if (*y >= *x) (*y)++;
}

/* One regular card without its colour (red): a weighted type, then its placeholders, each drawn
 * in the order the table of cards.h lists the fields. */
static inline pf_card draw_regular(pf_rng *r) {
  int t = TYPE_OF_DRAW[pf_rng_below(r, TYPE_WEIGHT2_SUM)];
  int a = 0, b = 0, c = 0;
  switch (t) {
  case PF_PAP_SCORE:
  case PF_PAP_HEAD: a = (int)pf_rng_below(r, 2); break;
  case PF_PAP_MATCH:
    a = draw_w(r);
    c = (int)pf_rng_below(r, 4);
    break;
  case PF_PAP_DIFF: a = 3 + (int)pf_rng_below(r, 3); break;
  case PF_PAP_GROUP: draw_xy(r, &a, &b); break;
  case PF_PAP_SPECIFIC:
    draw_xy(r, &a, &b);
    c = (int)pf_rng_below(r, 4);
    break;
  case PF_PAP_NUMCARDS:
    a = 2 + (int)pf_rng_below(r, 4);
    b = 5 + (int)pf_rng_below(r, 2);
    break;
  case PF_PAP_EMPTY:
  case PF_PAP_LAST: a = draw_w(r); break;
  default: break;
  }
  return pf_pap_make(PF_PAP_RED, t, a, b, c);
}

/* A mission: one of the 10 with equal weights; mission 10's H (5-6), L (3-5), C1, then C2 != C1. */
pf_card pap_draw_mission(pf_rng *r) {
  int kind = 1 + (int)pf_rng_below(r, PF_PAP_MISSIONS);
  if (kind < PF_PAP_MISSIONS) return pf_pap_make_kind(0, PF_PAP_MISSION, kind);
  int h = 5 + (int)pf_rng_below(r, 2), l = 3 + (int)pf_rng_below(r, 3);
  int c1 = (int)pf_rng_below(r, 4), c2 = (int)pf_rng_below(r, 3);
  if (c2 >= c1) c2++;
  return pf_pap_make(c2, PF_PAP_MISSION_HL, h, l, c1);
}

/* One card of a family, without its colour (red): rules and actions by their weights, shy cards
 * with equal weights (point-a-pile-cards.md). */
static inline pf_card draw_card(pf_rng *r, int family) {
  switch (family) {
  case FAM_RULE: return pf_pap_make_kind(PF_PAP_RED, PF_PAP_RULE, DRAW_WEIGHTED(r, RULE_WEIGHT, RULE_WEIGHT_SUM));
  case FAM_SHY: return pf_pap_make_kind(PF_PAP_RED, PF_PAP_SHY, 1 + (int)pf_rng_below(r, PF_PAP_SHIES));
  case FAM_ACTION:
    return pf_pap_make_kind(PF_PAP_RED, PF_PAP_ACTION, DRAW_WEIGHTED(r, ACTION_WEIGHT4, ACTION_WEIGHT4_SUM));
  case FAM_MISSION: return pap_draw_mission(r);
  default: return draw_regular(r);
  }
}

pf_card pap_draw_card(pf_rng *r, int family) { return draw_card(r, family); }

/* The colour pool for n cards: ceil(0.3n) red and green, ceil(0.2n) blue and purple. */
void pap_colour_pool(int n, int pool[PF_PAP_COLOURS]) {
  pool[PF_PAP_RED] = pool[PF_PAP_GREEN] = (3 * n + 9) / 10;
  pool[PF_PAP_BLUE] = pool[PF_PAP_PURPLE] = (2 * n + 9) / 10;
}

/* Gives cards[i] for each i of idx[0..n) a colour drawn without replacement from what is left
 * of the pool (left[]): the pool's colours are listed, shuffled (as pf_shuffle does), and taken
 * from the front. */
void pap_deal_colours(pf_card *cards, const uint8_t *idx, int n, const int left[PF_PAP_COLOURS], pf_rng *r) {
  uint8_t list[2 * MAX_CARDS];
  int m = 0;
  for (int col = 0; col < PF_PAP_COLOURS; col++) {
    int k = left[col] < (int)sizeof list - m ? left[col] : (int)sizeof list - m;
    memset(list + m, col, (size_t)k);
    m += k;
  }
  pf_rng g = *r; /* in registers: pf_shuffle's bytes may alias its generator, so it stores it at every swap */
  for (int i = m; i > 1; i--) {
    int j = (int)pf_rng_below(&g, (uint32_t)i);
    uint8_t t = list[i - 1];
    list[i - 1] = list[j];
    list[j] = t;
  }
  *r = g;
  for (int i = 0; i < n; i++) cards[idx[i]] = pap_with_colour(cards[idx[i]], i < m ? list[i] : PF_PAP_RED);
}

/* Draws cards[idx[i]] for each i < n, a card of family fam[i] (all regular when fam is NULL), as
 * pap_draw_card does, then deals their colours from what is left of the pool (pap_deal_colours):
 * the deck at the start, the unseen cards of a determinization. */
void pap_draw_cards_of(pf_card *cards, const uint8_t *idx, const uint8_t *fam, int n, const int left[PF_PAP_COLOURS],
                       pf_rng *r) {
  pf_rng g = *r;
  if (fam)
    for (int i = 0; i < n; i++) cards[idx[i]] = draw_card(&g, fam[i]);
  else
    for (int i = 0; i < n; i++) cards[idx[i]] = draw_regular(&g);
  *r = g;
  pap_deal_colours(cards, idx, n, left, r);
}

/* PAP-1, PAP-9: the 54 regular cards are drawn one by one, then the 15 Rule cards (police), the
 * 15 Shy cards (shy) and the 20 Action cards (actions); the colours are dealt from the pool over
 * all of them, and the deck is shuffled. Everything comes from the deal's stream
 * pf_rng_seed(seed, 0), so without expansions the deck is the base game's. */
int pap_generate_deck(const pap_state *s, pf_card *deck, uint64_t seed) {
  pf_rng r;
  pf_rng_seed(&r, seed, 0);
  int n = 0, pool[PF_PAP_COLOURS];
  uint8_t idx[MAX_CARDS], fam[MAX_CARDS];
  for (int f = FAM_REGULAR; f < FAM_MISSION; f++)
    for (int i = 0; i < pap_family_total(s, f); i++, n++) {
      fam[n] = (uint8_t)f;
      idx[n] = (uint8_t)n;
    }
  pap_colour_pool(n, pool);
  pap_draw_cards_of(deck, idx, n == BASE_CARDS ? NULL : fam, n, pool, &r);
  pf_shuffle16(&r, deck, (size_t)n);
  return n;
}

/* PAP-9 missions: the mission deck, the game's second deal, from the stream pf_rng_seed(seed, 1):
 * 12 missions drawn one by one; seat p draws the p-th (G-3: seat 0 first). */
void pap_generate_missions(pf_card *mission, uint64_t seed) {
  pf_rng r;
  pf_rng_seed(&r, seed, 1);
  for (int i = 0; i < MISSION_CARDS; i++) mission[i] = pap_draw_card(&r, FAM_MISSION);
}

/* A deck the generator could have made with these expansions: the right number of cards of each
 * family, no colour more often than its pool. */
int pap_deck_check(const pap_state *s, const pf_card *deck, int n, pf_error *err) {
  int want = 0, count[FAMILIES] = {0}, colours[PF_PAP_COLOURS] = {0}, pool[PF_PAP_COLOURS];
  for (int f = 0; f < FAMILIES; f++) want += pap_family_total(s, f);
  if (n != want)
    return pf_fail(err, "the deck has %d cards, the game needs %d (PAP-1: 54 regular cards%s%s%s, PAP-9)", n, want,
                   s->police ? ", 15 Rule cards" : "", s->shy ? ", 15 Shy cards" : "",
                   s->actions ? ", 20 Action cards" : "");
  for (int i = 0; i < n; i++) {
    char b[PF_CARD_STR];
    if (!pf_pap_valid(deck[i])) return pf_fail(err, "card %d, %s, is not a Point-a-Pile card", i + 1, pap_card_str(deck[i], b));
    int f = pap_family_of(deck[i]);
    if (f == FAM_MISSION)
      return pf_fail(err, "card %d, %s, is a Mission card: missions are a deck of their own, the second deal (PAP-9)",
                     i + 1, pap_card_str(deck[i], b));
    if (pap_family_total(s, f) == 0)
      return pf_fail(err, "card %d, %s, is a %s card, but the expansion %s is off (PAP-9)", i + 1, pap_card_str(deck[i], b),
                     FAMILY_NAMES[f], FAMILY_OPTION[f]);
    count[f]++;
    colours[pf_pap_colour(deck[i])]++;
  }
  for (int f = 0; f < FAM_MISSION; f++)
    if (count[f] != pap_family_total(s, f))
      return pf_fail(err, "the deck has %d %s cards, the game needs %d (PAP-1, PAP-9)", count[f], FAMILY_NAMES[f],
                     pap_family_total(s, f));
  pap_colour_pool(n, pool);
  for (int col = 0; col < PF_PAP_COLOURS; col++)
    if (colours[col] > pool[col])
      return pf_fail(err, "the deck has %d %s cards; the colour pool of %d cards has only %d (PAP-1)", colours[col],
                     pf_pap_colour_name(col), n, pool[col]);
  return 0;
}

/* The mission deck: 12 Mission cards (PAP-9). */
int pap_missions_check(const pf_card *m, int n, pf_error *err) {
  if (n != MISSION_CARDS) return pf_fail(err, "the mission deck has %d cards, the game needs %d (PAP-9)", n, MISSION_CARDS);
  for (int i = 0; i < n; i++) {
    char b[PF_CARD_STR];
    if (!pf_pap_valid(m[i]) || pap_family_of(m[i]) != FAM_MISSION)
      return pf_fail(err, "card %d, %s, is not a Mission card (PAP-9)", i + 1, pap_card_str(m[i], b));
  }
  return 0;
}
