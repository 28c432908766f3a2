/*
 * point_a_pile.c - Point-a-Pile (RULINGS PAP-1 .. PAP-9; rules/point-a-pile-cards.md): every
 * round the Headpointer makes piles of drawn cards, everyone points at one at once, and the
 * piles go to whoever alone wanted them; four expansions (PAP-9) add rules, missions, shy cards
 * and actions.
 *
 * The deck is generated from the seed (PAP-1) and kept in card[]: slot i is the i-th card from
 * the top. A round draws slots first .. first+ndrawn-1; inside the round a card is named by its
 * draw index k (0-based; the move notation counts from 1) and has a place: a level, a pile at
 * that level, and a placement number (higher lies on top). The missions (PAP-9) are a deck of
 * their own, the game's second deal: seat p's mission is mission[p].
 *
 * Levels. Level 0 holds the round's piles. When several players point at a pile of two or more
 * cards, its cards move up to a new level, where the Headpointer places them again on new piles
 * and only those players point; when that level is resolved, the one below goes on with its
 * next pile (PAP-5). So the levels form a stack, and only the top one is ever being placed or
 * pointed at.
 *
 * Simultaneous pointing (PAP-4) is asked seat by seat, in seat order. A choice is kept in the
 * state and shown to nobody else until the last pointer of the level has chosen; then all are
 * revealed at once and the level is resolved inside apply (no seat has a choice in it). Under
 * the rule Trailing Reward the trailing players are asked after the others, whose choices are
 * revealed to everyone when the last of them has chosen.
 *
 * The round, with every expansion on (each step is skipped when it has nothing to ask):
 *   1. actions before the piles are made (window W_DRAW: Draw More);
 *   2. the Headpointer draws and places the cards (shy: at least one pile without a Shy card on
 *      top);
 *   3. actions before pointing (W_POINT: Headpointer, Merge, Discard, Switch, Reorder, Color
 *      Stop, Action Stop); then the rule in force is fixed (police) and the standings of the
 *      level (who leads, who trails) are noted;
 *   4. pointing, then the reveal; players who broke the rule are out of the round (police);
 *   5. actions after the reveal (W_REVEAL: Swap, Steal, Random, Take All, Take None, Trade,
 *      Change Mind, Redo), then the level is resolved; a split goes back to 2 for its level
 *      (without the windows of 1 and 3), and its reveal has a window of its own.
 * A window asks, in seat order from the Headpointer, every seat that may use an action now (or,
 * with `pile`, may hold one unseen): each uses one or passes; after an action, those who passed
 * are asked again; the window closes when all have passed since the last action. A player uses
 * one action per round, so a round asks at most a bounded number of times. Random (rock-paper-
 * scissors) and the cards given by Trade and Switch are moves of their own inside a window.
 *
 * Hidden information: the undrawn deck (its cards too: the deck is generated, so nobody knows
 * which cards it holds), the drawn cards the Headpointer has not yet placed (only the
 * Headpointer sees them, PAP-3), the choices and throws not yet revealed, the other players'
 * missions, and with `pile` (PAP-8) the other players' score rows below their top card, and so
 * their scores.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/game.h"
#include "core/papcard.h"
#include "games/registry.h"
#include "games/rules.h"
PF_RULES_TEXT(pf_rules_point_a_pile);

/* ------------------------------------------------------------------------------------------ */
/* State                                                                                      */
/* ------------------------------------------------------------------------------------------ */

#define MAXP 6
#define BASE_CARDS 54    /* the regular cards (PAP-1) */
#define RULE_CARDS 15    /* police (PAP-9) */
#define SHY_CARDS 15     /* shy */
#define ACTION_CARDS 20  /* actions */
#define MISSION_CARDS 12 /* missions: a deck of their own */
#define MAX_CARDS 128    /* room for every expansion's cards: 104 */
#define DRAW_MORE 6      /* cards Draw More adds to the draw */
#define MAX_DRAW (2 * MAXP + DRAW_MORE * MAXP) /* 2N, and 6 more per Draw More (one per player) */
#define MAX_LEVELS MAX_DRAW                    /* every split leaves at least one card behind */
#define MAX_LOG 160 /* events of a round: at most 3 per drawn card, the actions and their throws */
#define RPS_THROWS 3 /* Random: rock-paper-scissors is thrown at most 3 times */
#define NONE 0xFF
#define GONE 0xFE      /* lvl[] of a drawn card that was scored or discarded */
#define EMPTY 0xFE     /* a choice: empty space (PAP-4, PAP-6) */
#define UNCHOSEN 0xFF  /* a choice not made yet, or a seat that does not point at this level */

enum { OPT_PILE, OPT_POLICE, OPT_MISSIONS, OPT_SHY, OPT_ACTIONS };

/* The families of cards: the generator draws each family's cards by its own weights. */
enum { FAM_REGULAR, FAM_RULE, FAM_SHY, FAM_ACTION, FAM_MISSION, FAMILIES };

/* The moments of a round at which actions are offered (PAP-9). */
enum { W_NONE, W_DRAW, W_POINT, W_REVEAL };

/* A card being handed over inside an action: Trade gives one to each other player, Switch one to
 * the player whose card was taken. */
enum { PEND_NONE, PEND_TRADE, PEND_SWITCH };

/* Move codes: the kind in bits 16-23, arguments a (bits 8-15) and b (bits 0-7).
 *   MV_PLACE   a: draw index, b: pile             MV_POINT  b: pile or EMPTY
 *   MV_PASS    -                                  MV_THROW  b: 0 rock, 1 paper, 2 scissors
 *   MV_GIVE    b: position in the giver's row     MV_ACT+k  action k, arguments as ACTS[k].arg */
enum { MV_PLACE = 1, MV_POINT = 2, MV_PASS = 3, MV_THROW = 4, MV_GIVE = 5, MV_ACT = 16 };
#define MOVE(kind, a, b) ((pf_move)(kind) << 16 | (pf_move)(a) << 8 | (pf_move)(b))
#define MV_KIND(m) ((int)((m) >> 16))
#define MV_A(m) ((int)(((m) >> 8) & 0xFF))
#define MV_B(m) ((int)((m)&0xFF))

/* What the round's log remembers for people: reveals, what became of each pile, and the
 * expansions' events. */
enum {
  EV_REVEAL,
  EV_SCORED,
  EV_DISCARDED,
  EV_SPLIT,
  EV_EMPTY_SCORES,
  EV_EMPTY_LOST,
  EV_BROKE,   /* seat broke the rule `act` and is out of the round */
  EV_ACTION,  /* seat used action `act` (arguments a, b as in the move); card[0] the action card,
               * card[1] the card it moved, if any */
  EV_THROWS,  /* rock-paper-scissors for pile `pile`: choice[] the throws, mask who threw, a the
               * throw's number, b who lost it */
  EV_GIVE,    /* seat gave card[0] to seat a (and for Switch took card[1]) */
  EV_MISSION, /* seat's mission is met */
};
typedef struct pap_event {
  uint8_t kind, level, pile, seat, ncards, mask;
  uint8_t choice[MAXP]; /* EV_REVEAL: every seat's choice at the level (UNCHOSEN if none) */
  uint8_t act, a, b;
  pf_card card[2];
} pap_event;

typedef struct pap_state {
  pf_card card[MAX_CARDS];         /* the deck order; slot 0 was the top card */
  pf_card mission[MISSION_CARDS];  /* the mission deck (deal 2); seat p drew mission[p] */
  uint8_t row[MAXP][MAX_CARDS];    /* each seat's score row, slots, first scored first */
  uint8_t row_len[MAXP];
  uint8_t out[MAX_CARDS];          /* slots of the cards that left the game (PAP-6, used actions) */
  uint8_t nout;
  uint8_t players, ncards, next_slot, pile_variant;
  uint8_t police, missions, shy, actions; /* the expansions (PAP-9) */
  uint8_t head;  /* the Headpointer of the round in progress (or of the last round) */
  uint8_t over;
  uint8_t met;   /* missions: the seats whose mission was met at the end of the last round */
  uint16_t round; /* rounds begun */
  /* The round in progress. */
  uint8_t first, ndrawn;
  uint8_t lvl[MAX_DRAW];  /* the level of each drawn card; GONE once scored or discarded */
  uint8_t pile[MAX_DRAW]; /* its pile at that level; NONE while not placed */
  uint16_t pos[MAX_DRAW]; /* when it was placed: a later card lies on top */
  uint16_t seq;
  uint8_t depth; /* levels in use */
  uint8_t npiles[MAX_LEVELS], cursor[MAX_LEVELS], pointers[MAX_LEVELS];
  uint8_t choice[MAX_LEVELS][MAXP];
  uint8_t late[MAX_LEVELS];    /* police, Trailing Reward: pointers asked after the others */
  uint8_t leaders[MAX_LEVELS]; /* seats (jointly) in the lead when the level's pointing began */
  uint8_t voided[MAX_LEVELS];  /* seats whose choice no longer counts: out by the rule, or beaten
                                * by Take All, Trade or rock-paper-scissors */
  uint8_t broke[MAX_LEVELS];   /* seats that broke the rule at the level */
  uint8_t dropped[MAX_LEVELS]; /* piles Take None discards */
  uint8_t tapped;             /* seats that tapped empty space this round (PAP-6) */
  uint8_t disc[MAX_DRAW];     /* draw indices discarded this round, in order */
  uint8_t ndisc;
  uint8_t rule;      /* police: the rule in force this round (its kind), 0 for none */
  uint8_t ruled;     /* the round's pointing began: the rule is fixed */
  uint8_t outs;      /* police: seats out of the round */
  uint8_t window;    /* actions: the moment asking for actions (W_*), W_NONE otherwise */
  uint8_t asked;     /* the seat the window asks */
  uint8_t passed;    /* seats that passed since the window opened or the last action */
  uint8_t acted;     /* seats that used an action this round */
  uint8_t stopped;   /* Action Stop was used this round */
  uint8_t redone;    /* Redo: the round's cards are placed again, face up */
  uint8_t ndrawmore; /* Draw More used this round */
  uint8_t rps_pile;  /* Random: the pile played for, NONE when no game is on */
  uint8_t rps_left, rps_throws;
  uint8_t rps[MAXP]; /* the throws of the current throw, UNCHOSEN until made */
  uint8_t pend, pend_seat, pend_to, pend_pos; /* Trade or Switch: who gives, to whom, what */
  uint8_t nlog, nprev;
  pap_event log[MAX_LOG];  /* this round */
  pap_event prev[MAX_LOG]; /* the round before */
} pap_state;

static inline int slot_of(const pap_state *s, int k) { return s->first + k; }
static inline pf_card drawn(const pap_state *s, int k) { return s->card[s->first + k]; }
static inline int top_level(const pap_state *s) { return s->depth - 1; }
static inline bool is_textless(pf_card c) { return pf_pap_type(c) == PF_PAP_COLOR; }
static inline bool is_shy(pf_card c) { return pf_pap_type(c) == PF_PAP_SHY; }
static inline bool is_action(pf_card c, int kind) {
  return pf_pap_type(c) == PF_PAP_ACTION && pf_pap_kind(c) == kind;
}
static inline pf_card row_card(const pap_state *s, int seat, int i) { return s->card[s->row[seat][i]]; }
static int popcount(unsigned x) { return __builtin_popcount(x); }

static int family_of(pf_card c) {
  switch (pf_pap_type(c)) {
  case PF_PAP_RULE: return FAM_RULE;
  case PF_PAP_SHY: return FAM_SHY;
  case PF_PAP_ACTION: return FAM_ACTION;
  case PF_PAP_MISSION:
  case PF_PAP_MISSION_HL: return FAM_MISSION;
  default: return FAM_REGULAR;
  }
}

/* How many cards of a family the deck holds with the expansions switched on (PAP-1, PAP-9). */
static int family_total(const pap_state *s, int f) {
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

/* The weights of the regular types, in halves: 7, 1, 1, 1, 1, 1, 1, 1, 0.5 and 0.5 of 15. */
static const uint8_t TYPE_WEIGHT2[PF_PAP_HEAD + 1] = {14, 2, 2, 2, 2, 2, 2, 2, 1, 1};
#define TYPE_WEIGHT2_SUM 30
/* The rules' weights, of 23, by kind (point-a-pile-cards.md). */
static const uint8_t RULE_WEIGHT[PF_PAP_RULES + 1] = {0, 10, 4, 2, 2, 1, 1, 2, 1};
#define RULE_WEIGHT_SUM 23
/* The actions' weights in quarters, of 67 (16.75), by kind. */
static const uint8_t ACTION_WEIGHT4[PF_PAP_ACTIONS + 1] = {0, 4, 4, 4, 2, 4, 2, 4, 4, 4, 4, 8, 8, 4, 4, 4, 3};
#define ACTION_WEIGHT4_SUM 67

/* An index drawn by weight: w[i] out of sum. */
static int draw_weighted(pf_rng *r, const uint8_t *w, int sum) {
  int x = (int)pf_rng_below(r, (uint32_t)sum), i = 0;
  while (x >= w[i]) x -= w[i++];
  return i;
}

/* A placeholder W: +1 with probability 3/4, -1 with 1/4; a as papcard.h stores signs. */
static int draw_w(pf_rng *r) { return pf_rng_below(r, 4) == 0; }

/* Two different values of 2-5 (X and Y drawn without replacement). */
static void draw_xy(pf_rng *r, int *x, int *y) {
  *x = 2 + (int)pf_rng_below(r, 4);
  *y = 2 + (int)pf_rng_below(r, 3);
  if (*y >= *x) (*y)++;
}

/* One regular card without its colour (red): a weighted type, then its placeholders, each drawn
 * in the order the table of papcard.h lists the fields. */
static pf_card draw_regular(pf_rng *r) {
  int t = draw_weighted(r, TYPE_WEIGHT2, TYPE_WEIGHT2_SUM);
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
static pf_card draw_mission(pf_rng *r) {
  int kind = 1 + (int)pf_rng_below(r, PF_PAP_MISSIONS);
  if (kind < PF_PAP_MISSIONS) return pf_pap_make_kind(0, PF_PAP_MISSION, kind);
  int h = 5 + (int)pf_rng_below(r, 2), l = 3 + (int)pf_rng_below(r, 3);
  int c1 = (int)pf_rng_below(r, 4), c2 = (int)pf_rng_below(r, 3);
  if (c2 >= c1) c2++;
  return pf_pap_make(c2, PF_PAP_MISSION_HL, h, l, c1);
}

/* One card of a family, without its colour (red): rules and actions by their weights, shy cards
 * with equal weights (point-a-pile-cards.md). */
static pf_card draw_card(pf_rng *r, int family) {
  switch (family) {
  case FAM_RULE: return pf_pap_make_kind(PF_PAP_RED, PF_PAP_RULE, draw_weighted(r, RULE_WEIGHT, RULE_WEIGHT_SUM));
  case FAM_SHY: return pf_pap_make_kind(PF_PAP_RED, PF_PAP_SHY, 1 + (int)pf_rng_below(r, PF_PAP_SHIES));
  case FAM_ACTION:
    return pf_pap_make_kind(PF_PAP_RED, PF_PAP_ACTION, draw_weighted(r, ACTION_WEIGHT4, ACTION_WEIGHT4_SUM));
  case FAM_MISSION: return draw_mission(r);
  default: return draw_regular(r);
  }
}

static inline pf_card with_colour(pf_card c, int colour) {
  return (pf_card)((c & ~(3 << 12)) | colour << 12);
}

/* The colour pool for n cards: ceil(0.3n) red and green, ceil(0.2n) blue and purple. */
static void colour_pool(int n, int pool[PF_PAP_COLOURS]) {
  pool[PF_PAP_RED] = pool[PF_PAP_GREEN] = (3 * n + 9) / 10;
  pool[PF_PAP_BLUE] = pool[PF_PAP_PURPLE] = (2 * n + 9) / 10;
}

/* Gives cards[i] for each i of idx[0..n) a colour drawn without replacement from what is left
 * of the pool (left[]): the pool's colours are listed, shuffled, and taken from the front. */
static void deal_colours(pf_card *cards, const uint8_t *idx, int n, const int left[PF_PAP_COLOURS], pf_rng *r) {
  uint8_t list[2 * MAX_CARDS];
  int m = 0;
  for (int col = 0; col < PF_PAP_COLOURS; col++)
    for (int i = 0; i < left[col] && m < (int)sizeof list; i++) list[m++] = (uint8_t)col;
  pf_shuffle(r, list, (size_t)m);
  for (int i = 0; i < n; i++) cards[idx[i]] = with_colour(cards[idx[i]], i < m ? list[i] : PF_PAP_RED);
}

/* PAP-1, PAP-9: the 54 regular cards are drawn one by one, then the 15 Rule cards (police), the
 * 15 Shy cards (shy) and the 20 Action cards (actions); the colours are dealt from the pool over
 * all of them, and the deck is shuffled. Everything comes from the deal's stream
 * pf_rng_seed(seed, 0), so without expansions the deck is the base game's. */
static int generate_deck(const pap_state *s, pf_card *deck, uint64_t seed) {
  pf_rng r;
  pf_rng_seed(&r, seed, 0);
  int n = 0, pool[PF_PAP_COLOURS];
  uint8_t idx[MAX_CARDS];
  for (int f = FAM_REGULAR; f < FAM_MISSION; f++)
    for (int i = 0; i < family_total(s, f); i++, n++) {
      deck[n] = draw_card(&r, f);
      idx[n] = (uint8_t)n;
    }
  colour_pool(n, pool);
  deal_colours(deck, idx, n, pool, &r);
  pf_shuffle16(&r, deck, (size_t)n);
  return n;
}

/* PAP-9 missions: the mission deck, the game's second deal, from the stream pf_rng_seed(seed, 1):
 * 12 missions drawn one by one; seat p draws the p-th (G-3: seat 0 first). */
static void generate_missions(pf_card *mission, uint64_t seed) {
  pf_rng r;
  pf_rng_seed(&r, seed, 1);
  for (int i = 0; i < MISSION_CARDS; i++) mission[i] = draw_card(&r, FAM_MISSION);
}

/* A deck the generator could have made with these expansions: the right number of cards of each
 * family, no colour more often than its pool. */
static int deck_check(const pap_state *s, const pf_card *deck, int n, pf_error *err) {
  int want = 0, count[FAMILIES] = {0}, colours[PF_PAP_COLOURS] = {0}, pool[PF_PAP_COLOURS];
  for (int f = 0; f < FAMILIES; f++) want += family_total(s, f);
  if (n != want)
    return pf_fail(err, "the deck has %d cards, the game needs %d (PAP-1: 54 regular cards%s%s%s, PAP-9)", n, want,
                   s->police ? ", 15 Rule cards" : "", s->shy ? ", 15 Shy cards" : "",
                   s->actions ? ", 20 Action cards" : "");
  for (int i = 0; i < n; i++) {
    char b[PF_CARD_STR];
    if (!pf_pap_valid(deck[i])) return pf_fail(err, "card %d, %s, is not a Point-a-Pile card", i + 1, pf_card_str(deck[i], b));
    int f = family_of(deck[i]);
    if (f == FAM_MISSION)
      return pf_fail(err, "card %d, %s, is a Mission card: missions are a deck of their own, the second deal (PAP-9)",
                     i + 1, pf_card_str(deck[i], b));
    if (family_total(s, f) == 0)
      return pf_fail(err, "card %d, %s, is a %s card, but the expansion %s is off (PAP-9)", i + 1, pf_card_str(deck[i], b),
                     FAMILY_NAMES[f], FAMILY_OPTION[f]);
    count[f]++;
    colours[pf_pap_colour(deck[i])]++;
  }
  for (int f = 0; f < FAM_MISSION; f++)
    if (count[f] != family_total(s, f))
      return pf_fail(err, "the deck has %d %s cards, the game needs %d (PAP-1, PAP-9)", count[f], FAMILY_NAMES[f],
                     family_total(s, f));
  colour_pool(n, pool);
  for (int col = 0; col < PF_PAP_COLOURS; col++)
    if (colours[col] > pool[col])
      return pf_fail(err, "the deck has %d %s cards; the colour pool of %d cards has only %d (PAP-1)", colours[col],
                     pf_pap_colour_name(col), n, pool[col]);
  return 0;
}

/* The mission deck: 12 Mission cards (PAP-9). */
static int missions_check(const pf_card *m, int n, pf_error *err) {
  if (n != MISSION_CARDS) return pf_fail(err, "the mission deck has %d cards, the game needs %d (PAP-9)", n, MISSION_CARDS);
  for (int i = 0; i < n; i++) {
    char b[PF_CARD_STR];
    if (!pf_pap_valid(m[i]) || family_of(m[i]) != FAM_MISSION)
      return pf_fail(err, "card %d, %s, is not a Mission card (PAP-9)", i + 1, pf_card_str(m[i], b));
  }
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Card values, scores and missions (PAP-7, PAP-9; point-a-pile-cards.md)                     */
/* ------------------------------------------------------------------------------------------ */

typedef struct row_stats {
  int len, textless, colours, most, shy;
  int count[PF_PAP_COLOURS];
} row_stats;

static row_stats stats_of(const pap_state *s, int seat) {
  row_stats st = {0};
  st.len = s->row_len[seat];
  for (int i = 0; i < st.len; i++) {
    pf_card c = row_card(s, seat, i);
    st.count[pf_pap_colour(c)]++;
    st.textless += is_textless(c);
    st.shy += is_shy(c);
  }
  for (int col = 0; col < PF_PAP_COLOURS; col++) {
    st.colours += st.count[col] > 0;
    if (st.count[col] > st.most) st.most = st.count[col];
  }
  return st;
}

/* The value of card c in a row with stats st; last: it is the row's last card; head: its owner
 * is the Headpointer. Thresholds are "at least". Rule, Shy and Action cards are worth 0. */
static int card_value(pf_card c, const row_stats *st, bool last, bool head) {
  int x = pf_pap_a(c), y = pf_pap_b(c);
  switch (pf_pap_type(c)) {
  case PF_PAP_SCORE: return pf_pap_sign(c);
  case PF_PAP_MATCH: return pf_pap_sign(c) * st->count[pf_pap_c(c)];
  case PF_PAP_DIFF: return st->colours == PF_PAP_COLOURS ? x : 0;
  case PF_PAP_GROUP: return st->most >= y ? x : 0;
  case PF_PAP_SPECIFIC: return st->count[pf_pap_c(c)] >= y ? x : 0;
  case PF_PAP_NUMCARDS: return st->len >= y ? x : 0;
  case PF_PAP_EMPTY: return pf_pap_sign(c) * st->textless;
  case PF_PAP_LAST: return last ? pf_pap_sign(c) : 0;
  case PF_PAP_HEAD: return head ? pf_pap_sign(c) : 0;
  default: return 0; /* textless, and the expansions' cards */
  }
}

/* The value of the i-th card of a seat's row. */
static int row_value(const pap_state *s, int seat, const row_stats *st, int i) {
  return card_value(row_card(s, seat, i), st, i == st->len - 1, seat == s->head);
}

static int score_of(const pap_state *s, int seat) {
  row_stats st = stats_of(s, seat);
  int total = 0;
  for (int i = 0; i < st.len; i++) total += row_value(s, seat, &st, i);
  return total;
}

/* PAP-9 missions: is seat's mission met by its row (thresholds "at least")? */
static bool mission_met(const pap_state *s, int seat) {
  pf_card m = s->mission[seat];
  row_stats st = stats_of(s, seat);
  switch (pf_pap_kind(m)) {
  case 1: return st.most >= 5;
  case 2:
    for (int col = 0; col < PF_PAP_COLOURS; col++)
      if (st.count[col] < 2) return false;
    return true;
  case 3: return score_of(s, seat) >= 10;
  case 4: return st.len - st.textless >= 6;
  case 5: return st.textless >= 5;
  case 6: return st.colours == PF_PAP_COLOURS && score_of(s, seat) >= 6;
  case 7: return st.colours == PF_PAP_COLOURS && st.len >= 6;
  case 8: return st.len >= 12;
  case 9: return st.len >= 8 && score_of(s, seat) >= 4;
  default: return st.count[pf_pap_c(m)] >= pf_pap_a(m) && st.count[pf_pap_colour(m)] >= pf_pap_b(m);
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Piles                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* The draw indices of pile p at level l, bottom first; returns how many. */
static int pile_cards(const pap_state *s, int l, int p, uint8_t *out) {
  int n = 0;
  for (int k = 0; k < s->ndrawn; k++) {
    if (s->lvl[k] != l || s->pile[k] != p) continue;
    int i = n++;
    while (i > 0 && s->pos[out[i - 1]] > s->pos[k]) {
      out[i] = out[i - 1];
      i--;
    }
    out[i] = (uint8_t)k;
  }
  return n;
}

/* The draw index of pile p's top card at level l, or -1 when the pile is empty. */
static int top_of(const pap_state *s, int l, int p) {
  int top = -1;
  for (int k = 0; k < s->ndrawn; k++)
    if (s->lvl[k] == l && s->pile[k] == p && (top < 0 || s->pos[k] > s->pos[top])) top = k;
  return top;
}

static int pile_size(const pap_state *s, int l, int p) {
  int n = 0;
  for (int k = 0; k < s->ndrawn; k++) n += s->lvl[k] == l && s->pile[k] == p;
  return n;
}

/* PAP-9 police: a pile "shows" a colour, text or a textless card if any card in it does. */
enum { SHOWS_TEXT = -1, SHOWS_TEXTLESS = -2 };
static bool pile_shows(const pap_state *s, int l, int p, int what) {
  for (int k = 0; k < s->ndrawn; k++) {
    if (s->lvl[k] != l || s->pile[k] != p) continue;
    pf_card c = drawn(s, k);
    if (what == SHOWS_TEXT ? !is_textless(c) : what == SHOWS_TEXTLESS ? is_textless(c) : pf_pap_colour(c) == what)
      return true;
  }
  return false;
}

/* The draw indices of the cards at level l not yet placed, in draw order. */
static int unplaced(const pap_state *s, int l, uint8_t *out) {
  int n = 0;
  for (int k = 0; k < s->ndrawn; k++)
    if (s->lvl[k] == l && s->pile[k] == NONE) out[n++] = (uint8_t)k;
  return n;
}

/* Cards to place are face up, for everyone, once they have lain in a pile: those of a split
 * (PAP-5) and those placed again after a Redo (PAP-9). */
static bool unplaced_public(const pap_state *s) { return top_level(s) > 0 || s->redone; }

/* Unplaced cards are hidden from all but the Headpointer until they have lain face up (PAP-3). */
static bool unplaced_visible(const pap_state *s, int seat) {
  return pf_view_sees_own(seat, s->head) || unplaced_public(s);
}

static bool placing(const pap_state *s) {
  uint8_t ks[MAX_DRAW];
  return s->depth > 0 && unplaced(s, top_level(s), ks) > 0;
}

/* Moves the cards of pile `from` at level l onto pile `onto`, keeping their order (they lie on
 * top), and numbers the piles after `from` one lower. */
static void merge_piles(pap_state *s, int l, int from, int onto) {
  uint8_t ks[MAX_DRAW];
  int n = pile_cards(s, l, from, ks);
  for (int i = 0; i < n; i++) {
    s->pile[ks[i]] = (uint8_t)onto;
    s->pos[ks[i]] = s->seq++;
  }
  for (int k = 0; k < s->ndrawn; k++)
    if (s->lvl[k] == l && s->pile[k] != NONE && s->pile[k] > from) s->pile[k]--;
  s->npiles[l]--;
}

static void log_event(pap_state *s, pap_event e) {
  if (s->nlog < MAX_LOG) s->log[s->nlog++] = e;
}

/* ------------------------------------------------------------------------------------------ */
/* Rules, shy cards and standings (PAP-9)                                                     */
/* ------------------------------------------------------------------------------------------ */

/* The seats whose score is the best (or, worst, the worst) of all. */
static int standing(const pap_state *s, bool worst) {
  int sc[MAXP], best = 0, mask = 0;
  for (int p = 0; p < s->players; p++) {
    sc[p] = score_of(s, p);
    if (p == 0 || (worst ? sc[p] < best : sc[p] > best)) best = sc[p];
  }
  for (int p = 0; p < s->players; p++)
    if (sc[p] == best) mask |= 1 << p;
  return mask;
}

/* shy: may `seat` point at pile p of level l? Only the players a Shy card on top names may. */
static bool may_point(const pap_state *s, int seat, int l, int p) {
  if (!s->shy) return true;
  int k = top_of(s, l, p);
  if (k < 0) return false;
  pf_card c = drawn(s, k);
  if (!is_shy(c)) return true;
  row_stats st = stats_of(s, seat);
  switch (pf_pap_kind(c)) {
  case PF_PAP_HEAD_ONLY: return seat == s->head;
  case PF_PAP_HEAD_VETO: return seat != s->head;
  case PF_PAP_LEADER_VETO: return !(s->leaders[l] >> seat & 1);
  case PF_PAP_HAND_MIN: return st.len < 5;
  case PF_PAP_HAND_PLUS: return st.len > 5;
  case PF_PAP_COLOR_NEW: return st.count[pf_pap_colour(c)] == 0;
  case PF_PAP_COLOR_SAME: return st.count[pf_pap_colour(c)] > 0;
  default: return st.shy == 0; /* Not Shy */
  }
}

/* Does c at level l break the rule in force for `seat`, the other choices being as they are?
 * Empty space shows nothing and is never a pile a neighbour picked, so only Force Last and Force
 * Friends can forbid it. A rule a player cannot follow asks nothing of them: Force Last when no
 * pile they may point at shows their colour, the Friends rules when no neighbour points there. */
static bool breaks(const pap_state *s, int l, int seat, int c) {
  int n = s->row_len[seat], left = (seat + s->players - 1) % s->players, right = (seat + 1) % s->players;
  pf_card last = n ? row_card(s, seat, n - 1) : 0;
  bool pile = c != EMPTY && c != UNCHOSEN;
  bool left_points = s->pointers[l] >> left & 1, right_points = s->pointers[l] >> right & 1;
  switch (s->rule) {
  case PF_PAP_NOT_LAST: return n && pile && pile_shows(s, l, c, pf_pap_colour(last));
  case PF_PAP_FORCE_LAST:
    if (!n || (pile && pile_shows(s, l, c, pf_pap_colour(last)))) return false;
    for (int p = 0; p < s->npiles[l]; p++)
      if (may_point(s, seat, l, p) && pile_shows(s, l, p, pf_pap_colour(last))) return true;
    return false;
  case PF_PAP_NOT_FRIENDS: return pile && left_points && s->choice[l][left] == c;
  case PF_PAP_FORCE_FRIENDS:
    if (!left_points && !right_points) return false;
    return !pile || !((left_points && s->choice[l][left] == c) || (right_points && s->choice[l][right] == c));
  case PF_PAP_LEADING_CURSE: {
    if (!pile || !(s->leaders[l] >> seat & 1)) return false;
    int largest = 0;
    for (int p = 0; p < s->npiles[l]; p++)
      if (pile_size(s, l, p) > largest) largest = pile_size(s, l, p);
    return pile_size(s, l, c) == largest;
  }
  case PF_PAP_NOT_TEXT: return n && !is_textless(last) && pile && pile_shows(s, l, c, SHOWS_TEXT);
  case PF_PAP_NOT_TEXTLESS: return n && is_textless(last) && pile && pile_shows(s, l, c, SHOWS_TEXTLESS);
  default: return false; /* Trailing Reward orders the choices; it forbids none */
  }
}

/* police: the rule in force this round, from the Headpointer's last card scored (0: none). */
static int rule_in_force(const pap_state *s) {
  int n = s->row_len[s->head];
  if (!s->police || !n) return 0;
  pf_card c = row_card(s, s->head, n - 1);
  return pf_pap_type(c) == PF_PAP_RULE ? pf_pap_kind(c) : 0;
}

/* shy: placing card k on pile p of the top level must leave it possible to finish with a pile
 * whose top card is not a Shy card: some card still to place is not a Shy card (it can go on top
 * last), or some pile's top is not one after this move (the Shy cards left can go elsewhere: a
 * level has at most N piles and N >= 2). When every card to place at the level is a Shy card,
 * no arrangement can help it, and any is allowed. */
static bool shy_ok(const pap_state *s, int k, int p) {
  if (!s->shy) return true;
  int l = top_level(s);
  bool plain_left = false, plain_top = !is_shy(drawn(s, k)), all_shy = true;
  for (int j = 0; j < s->ndrawn; j++)
    if (s->lvl[j] == l) {
      all_shy &= is_shy(drawn(s, j));
      if (j != k && s->pile[j] == NONE) plain_left |= !is_shy(drawn(s, j));
    }
  for (int q = 0; q < s->npiles[l] && !plain_top; q++)
    if (q != p) plain_top = !is_shy(drawn(s, top_of(s, l, q)));
  return plain_left || plain_top || all_shy;
}

/* ------------------------------------------------------------------------------------------ */
/* The round                                                                                  */
/* ------------------------------------------------------------------------------------------ */

static void window_next(pap_state *s);
static void open_window(pap_state *s, int w);

/* Opens a level at which the seats of `pointers` will point, its cards still to be placed. */
static void open_level(pap_state *s, int pointers) {
  int l = s->depth++;
  s->npiles[l] = 0;
  s->cursor[l] = 0;
  s->pointers[l] = (uint8_t)pointers;
  memset(s->choice[l], UNCHOSEN, sizeof s->choice[l]);
  s->late[l] = s->leaders[l] = s->voided[l] = s->broke[l] = s->dropped[l] = 0;
}

/* PAP-7: the deck is empty at the start of a round: the game ends. Otherwise PAP-3: the role
 * passes to the next seat (from the second round on); actions before the piles are made are
 * offered (PAP-9), then the Headpointer draws. */
static void begin_round(pap_state *s) {
  memcpy(s->prev, s->log, sizeof s->log);
  s->nprev = s->nlog;
  s->nlog = 0;
  s->depth = 0;
  if (s->next_slot == s->ncards) {
    s->over = 1;
    return;
  }
  if (s->round++) s->head = (uint8_t)((s->head + 1) % s->players);
  s->ndrawn = 0;
  s->tapped = 0;
  s->ndisc = 0;
  s->rule = s->ruled = s->outs = s->acted = s->stopped = s->redone = s->ndrawmore = 0;
  s->rps_pile = NONE;
  s->pend = PEND_NONE;
  open_window(s, W_DRAW);
}

/* PAP-3: the Headpointer draws 2N cards, 6 more for each Draw More (PAP-9), or all that are
 * left. */
static void draw_cards(pap_state *s) {
  int n = 2 * s->players + DRAW_MORE * s->ndrawmore, left = s->ncards - s->next_slot;
  s->first = s->next_slot;
  s->ndrawn = (uint8_t)(n < left ? n : left);
  s->next_slot = (uint8_t)(s->next_slot + s->ndrawn);
  memset(s->lvl, 0, sizeof s->lvl);
  memset(s->pile, NONE, sizeof s->pile);
  memset(s->pos, 0, sizeof s->pos);
  s->seq = 0;
  open_level(s, (1 << s->players) - 1);
}

/* Pointing begins at the top level: at level 0 the rule in force is fixed for the round
 * (police); the standings are noted for the level: who leads (Leading Curse, Leader Veto) and,
 * under Trailing Reward, who trails and so points after the others (unless all pointers trail). */
static void begin_pointing(pap_state *s) {
  int l = top_level(s);
  if (l == 0) s->rule = (uint8_t)rule_in_force(s), s->ruled = 1;
  if (!s->police && !s->shy) return;
  s->leaders[l] = (uint8_t)standing(s, false);
  if (s->rule == PF_PAP_TRAILING_REWARD) {
    int trail = standing(s, true) & s->pointers[l];
    s->late[l] = (uint8_t)(trail == s->pointers[l] ? 0 : trail);
  }
}

/* The last card of a level is placed: at level 0, actions before pointing (PAP-9); then pointing. */
static void piles_made(pap_state *s) {
  if (top_level(s) == 0)
    open_window(s, W_POINT);
  else
    begin_pointing(s);
}

static void add_to_row(pap_state *s, int seat, int k) {
  s->row[seat][s->row_len[seat]++] = (uint8_t)slot_of(s, k);
  s->lvl[k] = GONE;
}

/* Takes the i-th card out of a seat's row; returns its slot. */
static int take_from_row(pap_state *s, int seat, int i) {
  int slot = s->row[seat][i];
  memmove(&s->row[seat][i], &s->row[seat][i + 1], (size_t)(s->row_len[seat] - i - 1));
  s->row_len[seat]--;
  return slot;
}

static void begin_round(pap_state *s);

/* PAP-7 (revised), called after every change to a score row and at the end of a round: if any
 * player has 10 points or more (PAP-9 missions: if any mission is met, which replaces the 10-point
 * goal), the game ends there, the rest of the round unplayed. Returns whether it did. */
static bool game_ends(pap_state *s) {
  if (s->missions) {
    for (int p = 0; p < s->players; p++)
      if (mission_met(s, p)) {
        s->met |= (uint8_t)(1 << p);
        log_event(s, (pap_event){.kind = EV_MISSION, .seat = (uint8_t)p});
      }
  } else {
    for (int p = 0; p < s->players; p++)
      if (score_of(s, p) >= 10) s->over = 1;
  }
  if (s->met) s->over = 1;
  return s->over;
}

/* PAP-6, and PAP-7 at the end of a round (the Headpointer's role passing is not a change to a
 * score row: a Head card's value is checked here). */
static void end_round(pap_state *s) {
  s->depth = 0;
  if (popcount(s->tapped) == 1) {
    int seat = __builtin_ctz(s->tapped);
    for (int i = 0; i < s->ndisc; i++) s->row[seat][s->row_len[seat]++] = (uint8_t)slot_of(s, s->disc[i]);
    log_event(s, (pap_event){.kind = EV_EMPTY_SCORES, .seat = (uint8_t)seat, .ncards = s->ndisc});
  } else {
    for (int i = 0; i < s->ndisc; i++) s->out[s->nout++] = (uint8_t)slot_of(s, s->disc[i]);
    if (s->tapped) log_event(s, (pap_event){.kind = EV_EMPTY_LOST, .mask = s->tapped, .ncards = s->ndisc});
  }
  s->ndisc = 0;
  if (!game_ends(s)) begin_round(s);
}

/* The seats whose choice at level l is pile p and still counts. */
static int contenders(const pap_state *s, int l, int p) {
  int who = 0;
  for (int seat = 0; seat < s->players; seat++)
    if (s->choice[l][seat] == p && !(s->voided[l] >> seat & 1)) who |= 1 << seat;
  return who;
}

/* PAP-5: resolves the piles of the top level in order until a choice is needed or the round is
 * over. A level whose piles are all resolved gives way to the one below. A pile emptied by Steal
 * is passed over; one Take None named is discarded (PAP-9). */
static void resolve(pap_state *s) {
  for (;;) {
    int l = top_level(s);
    if (s->cursor[l] == s->npiles[l]) {
      if (l == 0) {
        end_round(s);
        return;
      }
      s->depth--;
      s->cursor[l - 1]++;
      continue;
    }
    int p = s->cursor[l], who = contenders(s, l, p);
    uint8_t ks[MAX_DRAW];
    int n = pile_cards(s, l, p, ks);
    pap_event e = {.level = (uint8_t)l, .pile = (uint8_t)p, .ncards = (uint8_t)n, .mask = (uint8_t)who};
    if (n == 0) {
      s->cursor[l]++;
      continue;
    }
    if (s->dropped[l] >> p & 1) who = 0, e.act = PF_PAP_TAKE_NONE;
    if (popcount((unsigned)who) == 1) { /* one player: scored, the top card last */
      e.kind = EV_SCORED;
      e.seat = (uint8_t)__builtin_ctz((unsigned)who);
      for (int i = 0; i < n; i++) add_to_row(s, e.seat, ks[i]);
      log_event(s, e);
      s->cursor[l]++;
      if (game_ends(s)) return; /* PAP-7 (revised): a pile scored */
      continue;
    } else if (who == 0 || n == 1) { /* nobody, or a contested single card: discarded */
      e.kind = EV_DISCARDED;
      for (int i = 0; i < n; i++) {
        s->lvl[ks[i]] = GONE;
        s->disc[s->ndisc++] = ks[i];
      }
    } else { /* split: its cards go up a level to be placed again */
      e.kind = EV_SPLIT;
      log_event(s, e);
      open_level(s, who);
      for (int i = 0; i < n; i++) {
        s->lvl[ks[i]] = (uint8_t)(l + 1);
        s->pile[ks[i]] = NONE;
      }
      return;
    }
    log_event(s, e);
    s->cursor[l]++;
  }
}

/* The actions after the reveal are over: PAP-6 notes who tapped empty space (a choice that no
 * longer counts taps nothing), and the level is resolved. */
static void settle(pap_state *s) {
  int l = top_level(s);
  for (int seat = 0; seat < s->players; seat++)
    if (s->choice[l][seat] == EMPTY && !(s->voided[l] >> seat & 1)) s->tapped |= (uint8_t)(1 << seat);
  resolve(s);
}

/* The reveal (PAP-4): every choice of the level is known now; with a rule in force, whoever broke
 * it is out of the round: their choice counts for nothing (PAP-9 police). Then actions after the
 * reveal (PAP-9), then the level is settled. */
static void reveal(pap_state *s) {
  int l = top_level(s);
  pap_event e = {.kind = EV_REVEAL, .level = (uint8_t)l, .mask = s->pointers[l]};
  memcpy(e.choice, s->choice[l], sizeof e.choice);
  log_event(s, e);
  for (int seat = 0; seat < s->players && s->rule; seat++)
    if ((s->pointers[l] >> seat & 1) && breaks(s, l, seat, s->choice[l][seat])) {
      s->broke[l] |= (uint8_t)(1 << seat);
      s->voided[l] |= (uint8_t)(1 << seat);
      s->outs |= (uint8_t)(1 << seat);
      log_event(s, (pap_event){.kind = EV_BROKE, .level = (uint8_t)l, .seat = (uint8_t)seat, .act = s->rule});
    }
  open_window(s, W_REVEAL);
}

/* The next seat to point at the top level, or -1: the seats in seat order, those the rule
 * Trailing Reward makes wait after the others. */
static int next_pointer(const pap_state *s) {
  int l = top_level(s);
  for (int wait = 0; wait < 2; wait++) {
    for (int seat = 0; seat < s->players; seat++)
      if ((s->pointers[l] >> seat & 1) && (s->late[l] >> seat & 1) == wait && s->choice[l][seat] == UNCHOSEN)
        return seat;
    if (!s->late[l]) break;
  }
  return -1;
}

/* Random: the next seat to throw, or -1. */
static int next_thrower(const pap_state *s) {
  for (int seat = 0; seat < s->players; seat++)
    if ((s->rps_left >> seat & 1) && s->rps[seat] == UNCHOSEN) return seat;
  return -1;
}

static int pap_to_move(const void *vs) {
  const pap_state *s = vs;
  if (s->over) return PF_NOBODY;
  if (s->pend) return s->pend_seat;
  if (s->rps_pile != NONE) return next_thrower(s);
  if (s->window) return s->asked;
  return placing(s) ? s->head : next_pointer(s);
}

/* The seats choosing at once (game.h): the throwers of rock-paper-scissors yet to throw, or the
 * pointers of the top level yet to point in the group now asked (those Trailing Reward makes
 * wait are a second group, asked once the first group's choices are shown). */
static int pap_choosing(const void *vs, int *seats) {
  const pap_state *s = vs;
  int first = pap_to_move(vs), n = 0;
  if (first < 0) return 0;
  seats[n++] = first;
  if (s->pend || s->window || (s->rps_pile == NONE && placing(s))) return n;
  int l = top_level(s), wait = s->rps_pile == NONE ? s->late[l] >> first & 1 : 0;
  for (int seat = first + 1; seat < s->players; seat++) {
    bool waits = s->rps_pile != NONE ? (s->rps_left >> seat & 1) && s->rps[seat] == UNCHOSEN
                                     : (s->pointers[l] >> seat & 1) && (s->late[l] >> seat & 1) == wait &&
                                           s->choice[l][seat] == UNCHOSEN;
    if (waits) seats[n++] = seat;
  }
  return n;
}

/* ------------------------------------------------------------------------------------------ */
/* Actions (PAP-9 actions)                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* The actions, by kind (papcard.h):
 *   word    the move's word; the canonical move is the word, then ':' and its argument if any
 *   window  the moment of the round it is offered at
 *   arg     its argument, as the move code keeps it:
 *             0    none                                       drawmore
 *             'p'  a pile of the level (b)                    takeall:2
 *             'm'  a pile or empty space (b)                  mind:2, mind:empty
 *             'w'  two piles, the lower first (a, b)          swap:1+2
 *             'o'  a pile onto another (a onto b)             merge:3>1
 *             'c'  a drawn card of the level (a)              steal:c5
 *             'r'  a card of the player's own row (b)         reorder:3
 *             's'  a card of a seat's row (seat a, card b)    discard:p2.3
 *             'k'  a colour (b)                               colorstop:R
 *   does    what it does and needs, for refusals (one line) */
static const struct {
  const char *word;
  uint8_t window;
  char arg;
  const char *does;
} ACTS[PF_PAP_ACTIONS + 1] = {
    [PF_PAP_SWAP] = {"swap", W_REVEAL, 'w', "swaps the contents of two piles of the level"},
    [PF_PAP_STEAL] = {"steal", W_REVEAL, 'c', "takes one card from a pile of the level you did not point at"},
    [PF_PAP_HEADPOINTER] = {"headpointer", W_POINT, 0, "makes you the Headpointer (if you are not)"},
    [PF_PAP_DISCARD] = {"discard", W_POINT, 's', "discards a scored card you can see (not the Discard card itself)"},
    [PF_PAP_RANDOM] = {"random", W_REVEAL, 'p', "settles a contested pile you point at by rock-paper-scissors"},
    [PF_PAP_MERGE] = {"merge", W_POINT, 'o', "puts one pile on another (leaving a pile without a Shy card on top)"},
    [PF_PAP_SWITCH] = {"switch", W_POINT, 's', "takes another player's card you can see, for one of yours"},
    [PF_PAP_REORDER] = {"reorder", W_POINT, 'r', "moves another of your cards to the end of your row"},
    [PF_PAP_TAKE_ALL] = {"takeall", W_REVEAL, 'p', "wins a contested pile you point at"},
    [PF_PAP_TAKE_NONE] = {"takenone", W_REVEAL, 'p', "discards a contested pile"},
    [PF_PAP_REDO] = {"redo", W_REVEAL, 0, "has the round's piles made anew (only after the round's first reveal)"},
    [PF_PAP_CHANGE_MIND] = {"mind", W_REVEAL, 'm', "points you at another pile or empty space, as the rules allow"},
    [PF_PAP_DRAW_MORE] = {"drawmore", W_DRAW, 0, "has the Headpointer draw 6 more cards (if the deck has more)"},
    [PF_PAP_COLOR_STOP] = {"colorstop", W_POINT, 'k', "removes the cards of a colour from the piles (not all)"},
    [PF_PAP_ACTION_STOP] = {"actionstop", W_POINT, 0, "stops all actions for the rest of the round"},
    [PF_PAP_TRADE] = {"trade", W_REVEAL, 'p',
                      "wins a contested pile you point at for one scored card to each other player"},
};

static const char *const WINDOW_NAMES[] = {"", "before the piles are made", "before pointing", "after the reveal"};
static const char *const THROWS[] = {"rock", "paper", "scissors"};

/* The position in seat's row of its first Action card of this kind, or -1. */
static int action_pos(const pap_state *s, int seat, int kind) {
  for (int i = 0; i < s->row_len[seat]; i++)
    if (is_action(row_card(s, seat, i), kind)) return i;
  return -1;
}

/* May `viewer` see the i-th card of p's row? PAP-8: with `pile`, the others see only its top. */
static bool card_visible(const pap_state *s, int viewer, int p, int i) {
  return !s->pile_variant || viewer == p || i == s->row_len[p] - 1;
}

/* Draw More: does the deck hold more cards than the Headpointer draws now? */
static bool draw_more_left(const pap_state *s) {
  return s->ncards - s->next_slot > 2 * s->players + DRAW_MORE * s->ndrawmore;
}

static int add(pf_move *moves, int n, int kind, int a, int b) {
  moves[n] = MOVE(MV_ACT + kind, a, b);
  return n + 1;
}

/* Does Color Stop of colour col leave a card on the level-0 piles, and (shy) a pile whose new top
 * is not a Shy card? */
static bool color_stop_ok(const pap_state *s, int col) {
  bool left = false, plain = !s->shy, shown = false;
  for (int p = 0; p < s->npiles[0]; p++) {
    uint8_t ks[MAX_DRAW];
    int n = pile_cards(s, 0, p, ks), top = -1;
    for (int i = 0; i < n; i++) {
      if (pf_pap_colour(drawn(s, ks[i])) == col)
        shown = true;
      else
        top = ks[i];
    }
    left |= top >= 0;
    if (top >= 0 && !is_shy(drawn(s, top))) plain = true;
  }
  return shown && left && plain;
}

/* The uses of action `kind` open to `seat` now (it holds the card at row position ap), appended
 * to moves[n..]; returns the new count. */
static int action_targets(const pap_state *s, int seat, int kind, int ap, pf_move *moves, int n) {
  int l = top_level(s), np = l >= 0 ? s->npiles[l] : 0, mine = l >= 0 ? s->choice[l][seat] : UNCHOSEN;
  bool points = l >= 0 && (s->pointers[l] >> seat & 1) && !(s->voided[l] >> seat & 1) && mine != EMPTY;
  switch (kind) {
  case PF_PAP_DRAW_MORE: return draw_more_left(s) ? add(moves, n, kind, 0, 0) : n;
  case PF_PAP_HEADPOINTER: return seat != s->head ? add(moves, n, kind, 0, 0) : n;
  case PF_PAP_ACTION_STOP: return add(moves, n, kind, 0, 0);
  case PF_PAP_MERGE: /* the tops left are those of every pile but `onto` */
    for (int from = 0; from < np; from++)
      for (int onto = 0; onto < np; onto++) {
        bool plain = !s->shy;
        for (int q = 0; q < np && !plain; q++) plain = q != onto && !is_shy(drawn(s, top_of(s, 0, q)));
        if (from != onto && plain) n = add(moves, n, kind, from, onto);
      }
    return n;
  case PF_PAP_DISCARD:
  case PF_PAP_SWITCH:
    if (kind == PF_PAP_SWITCH && s->row_len[seat] < 2) return n; /* a card of one's own to give */
    for (int q = 0; q < s->players; q++)
      for (int i = 0; i < s->row_len[q]; i++)
        if ((q != seat || (kind == PF_PAP_DISCARD && i != ap)) && card_visible(s, seat, q, i))
          n = add(moves, n, kind, q, i);
    return n;
  case PF_PAP_REORDER: /* not the Action card, nor the card that is last once it has gone */
    for (int i = 0; i < s->row_len[seat]; i++)
      if (i != ap && i != (ap == s->row_len[seat] - 1 ? ap - 1 : s->row_len[seat] - 1)) n = add(moves, n, kind, 0, i);
    return n;
  case PF_PAP_COLOR_STOP:
    for (int col = 0; col < PF_PAP_COLOURS; col++)
      if (color_stop_ok(s, col)) n = add(moves, n, kind, 0, col);
    return n;
  case PF_PAP_SWAP:
    for (int a = 0; a < np; a++)
      for (int b = a + 1; b < np; b++)
        if (pile_size(s, l, a) && pile_size(s, l, b)) n = add(moves, n, kind, a, b);
    return n;
  case PF_PAP_STEAL:
    for (int k = 0; k < s->ndrawn; k++)
      if (s->lvl[k] == l && s->pile[k] != NONE && s->pile[k] != s->choice[l][seat]) n = add(moves, n, kind, k, 0);
    return n;
  case PF_PAP_RANDOM:
  case PF_PAP_TAKE_ALL:
  case PF_PAP_TRADE:
    if (!points || popcount((unsigned)contenders(s, l, mine)) < 2 || (s->dropped[l] >> mine & 1)) return n;
    if (kind == PF_PAP_TRADE && s->row_len[seat] - 1 < s->players - 1) return n;
    return add(moves, n, kind, 0, mine);
  case PF_PAP_TAKE_NONE:
    for (int p = 0; p < np; p++)
      if (popcount((unsigned)contenders(s, l, p)) >= 2 && !(s->dropped[l] >> p & 1)) n = add(moves, n, kind, 0, p);
    return n;
  case PF_PAP_CHANGE_MIND: {
    if (!(s->pointers[l] >> seat & 1)) return n;
    for (int c = 0; c <= np; c++) { /* breaks() judges the new choice against the others' */
      int to = c == np ? EMPTY : c;
      if (to == mine || (to != EMPTY && (!pile_size(s, l, to) || !may_point(s, seat, l, to)))) continue;
      if (!s->rule || !breaks(s, l, seat, to)) n = add(moves, n, kind, 0, to);
    }
    return n;
  }
  default: /* Redo: after the round's first reveal, while cards lie on its piles */
    for (int k = 0; k < s->ndrawn && l == 0; k++)
      if (s->lvl[k] == 0) return add(moves, n, kind, 0, 0);
    return n;
  }
}

/* Every use of an action `seat` can make in the open window; returns how many. */
static int action_moves(const pap_state *s, int seat, pf_move *moves) {
  int n = 0;
  for (int kind = 1; kind <= PF_PAP_ACTIONS; kind++) {
    if (ACTS[kind].window != s->window) continue;
    int ap = action_pos(s, seat, kind);
    if (ap >= 0) n = action_targets(s, seat, kind, ap, moves, n);
  }
  return n;
}

/* Is `seat` asked in the open window? It may use an action there if it has not used one this
 * round, Action Stop was not used, and it is not out of the round. Whether it holds one it could
 * use is public (rows are face up), except with `pile`: then every seat whose row hides cards
 * (two or more) is asked (before the piles, only when Draw More has cards to draw), since asking
 * only the holders would tell the others what it hides. */
static bool may_act(const pap_state *s, int seat) {
  if (!s->actions || s->stopped || (s->acted >> seat & 1) || (s->outs >> seat & 1)) return false;
  if (s->pile_variant && s->row_len[seat] >= 2) return s->window != W_DRAW || draw_more_left(s);
  pf_move moves[PF_MAX_MOVES];
  return action_moves(s, seat, moves) > 0;
}

/* Asks the next seat, in seat order from the Headpointer, that may act and has not passed since
 * the last action; when there is none, the window closes and the round goes on. */
static void window_next(pap_state *s) {
  for (int i = 0; i < s->players; i++) {
    int p = (s->head + i) % s->players;
    if (!(s->passed >> p & 1) && may_act(s, p)) {
      s->asked = (uint8_t)p;
      return;
    }
  }
  int w = s->window;
  s->window = W_NONE;
  if (w == W_DRAW)
    draw_cards(s);
  else if (w == W_POINT)
    begin_pointing(s);
  else
    settle(s);
}

static void open_window(pap_state *s, int w) {
  s->window = (uint8_t)w;
  s->passed = 0;
  window_next(s);
}

/* After an action (and the throws or cards it asked for), everyone who may act is asked again. */
static void action_done(pap_state *s) {
  s->passed = 0;
  window_next(s);
}

/* Redo: every card still on the round's piles is placed anew by the Headpointer, face up; the
 * choices, the rule, who is out and the standings start again; then actions before pointing. */
static void redo(pap_state *s) {
  for (int k = 0; k < s->ndrawn; k++)
    if (s->lvl[k] == 0) s->pile[k] = NONE;
  s->depth = 0;
  open_level(s, (1 << s->players) - 1);
  s->redone = 1;
  s->outs = 0;
  s->rule = s->ruled = 0;
  s->window = W_NONE;
}

/* Color Stop: the level-0 cards of a colour are discarded (PAP-6 counts them), pile by pile,
 * bottom first; piles left empty are removed. */
static void color_stop(pap_state *s, int col) {
  for (int p = 0; p < s->npiles[0]; p++) {
    uint8_t ks[MAX_DRAW];
    int n = pile_cards(s, 0, p, ks);
    for (int i = 0; i < n; i++)
      if (pf_pap_colour(drawn(s, ks[i])) == col) {
        s->lvl[ks[i]] = GONE;
        s->disc[s->ndisc++] = ks[i];
      }
  }
  for (int p = s->npiles[0] - 1; p >= 0; p--)
    if (!pile_size(s, 0, p)) merge_piles(s, 0, p, p); /* moves nothing: numbers the rest down */
}

/* Random: the throws are in; when exactly two shapes were thrown, the players of the beaten one
 * lose the pile. Up to 3 throws while two or more players are left in it. */
static void rps_reveal(pap_state *s) {
  int l = top_level(s), shapes = 0, lost = 0;
  for (int p = 0; p < s->players; p++)
    if (s->rps_left >> p & 1) shapes |= 1 << s->rps[p];
  if (popcount((unsigned)shapes) == 2) {
    int beaten = shapes == 3 ? 0 : shapes == 6 ? 1 : 2; /* paper beats rock, scissors paper, rock scissors */
    for (int p = 0; p < s->players; p++)
      if ((s->rps_left >> p & 1) && s->rps[p] == beaten) lost |= 1 << p;
  }
  pap_event e = {.kind = EV_THROWS, .level = (uint8_t)l, .pile = s->rps_pile, .mask = s->rps_left,
                 .a = (uint8_t)(s->rps_throws + 1), .b = (uint8_t)lost};
  memcpy(e.choice, s->rps, sizeof e.choice);
  log_event(s, e);
  s->rps_left &= (uint8_t)~lost;
  s->voided[l] |= (uint8_t)lost;
  s->rps_throws++;
  memset(s->rps, UNCHOSEN, sizeof s->rps);
  if (popcount(s->rps_left) >= 2 && s->rps_throws < RPS_THROWS) return;
  s->rps_pile = NONE;
  action_done(s);
}

/* Trade and Switch: the giver hands over the card at position i of its row. */
static void give(pap_state *s, int i) {
  int g = s->pend_seat, to = s->pend_to;
  pap_event e = {.kind = EV_GIVE, .seat = (uint8_t)g, .a = (uint8_t)to, .card = {row_card(s, g, i), 0}};
  if (s->pend == PEND_SWITCH) { /* the two cards change places */
    uint8_t mine = s->row[g][i];
    s->row[g][i] = s->row[to][s->pend_pos];
    s->row[to][s->pend_pos] = mine;
    e.card[1] = row_card(s, g, i);
    s->pend = PEND_NONE;
  } else {
    s->row[to][s->row_len[to]++] = (uint8_t)take_from_row(s, g, i);
    s->pend_to = (uint8_t)((to + 1) % s->players); /* every other seat in turn, from the giver's next */
    if (s->pend_to == g) s->pend = PEND_NONE;
  }
  log_event(s, e);
  if (game_ends(s)) return; /* PAP-7 (revised): a card given */
  if (!s->pend) action_done(s);
}

/* Plays an action: its card leaves the row (and the game), the seat has used its action for the
 * round, and the action does what ACTS says. */
static void use_action(pap_state *s, int seat, pf_move m) {
  int kind = MV_KIND(m) - MV_ACT, a = MV_A(m), b = MV_B(m), l = top_level(s);
  int ap = action_pos(s, seat, kind);
  pap_event e = {.kind = EV_ACTION, .level = (uint8_t)(l < 0 ? 0 : l), .seat = (uint8_t)seat, .act = (uint8_t)kind,
                 .a = (uint8_t)a, .b = (uint8_t)b, .card = {row_card(s, seat, ap), 0}};
  /* Targets in the player's own row were named as the row was, with the Action card in it. */
  int own = (kind == PF_PAP_DISCARD && a == seat) || kind == PF_PAP_REORDER ? (b > ap ? b - 1 : b) : b;
  s->out[s->nout++] = (uint8_t)take_from_row(s, seat, ap);
  s->acted |= (uint8_t)(1 << seat);
  switch (kind) {
  case PF_PAP_DRAW_MORE: s->ndrawmore++; break;
  case PF_PAP_HEADPOINTER: s->head = (uint8_t)seat; break;
  case PF_PAP_ACTION_STOP: s->stopped = 1; break;
  case PF_PAP_MERGE: merge_piles(s, 0, a, b); break;
  case PF_PAP_DISCARD:
    e.card[1] = row_card(s, a, own);
    s->out[s->nout++] = (uint8_t)take_from_row(s, a, own);
    break;
  case PF_PAP_REORDER: {
    e.card[1] = row_card(s, seat, own);
    int slot = take_from_row(s, seat, own);
    s->row[seat][s->row_len[seat]++] = (uint8_t)slot;
    break;
  }
  case PF_PAP_SWITCH:
    e.card[1] = row_card(s, a, b);
    s->pend = PEND_SWITCH, s->pend_seat = (uint8_t)seat, s->pend_to = (uint8_t)a, s->pend_pos = (uint8_t)b;
    break;
  case PF_PAP_COLOR_STOP: color_stop(s, b); break;
  case PF_PAP_SWAP:
    for (int k = 0; k < s->ndrawn; k++)
      if (s->lvl[k] == l && (s->pile[k] == a || s->pile[k] == b)) s->pile[k] = (uint8_t)(s->pile[k] == a ? b : a);
    break;
  case PF_PAP_STEAL:
    e.card[1] = drawn(s, a);
    add_to_row(s, seat, a);
    break;
  case PF_PAP_RANDOM:
    s->rps_pile = (uint8_t)b, s->rps_left = (uint8_t)contenders(s, l, b), s->rps_throws = 0;
    memset(s->rps, UNCHOSEN, sizeof s->rps);
    break;
  case PF_PAP_TAKE_ALL:
  case PF_PAP_TRADE:
    s->voided[l] |= (uint8_t)(contenders(s, l, b) & ~(1 << seat));
    if (kind == PF_PAP_TRADE)
      s->pend = PEND_TRADE, s->pend_seat = (uint8_t)seat, s->pend_to = (uint8_t)((seat + 1) % s->players);
    break;
  case PF_PAP_TAKE_NONE: s->dropped[l] |= (uint8_t)(1 << b); break;
  case PF_PAP_CHANGE_MIND:
    s->choice[l][seat] = (uint8_t)b;
    s->voided[l] &= (uint8_t)~(1 << seat);
    break;
  default: redo(s); break;
  }
  log_event(s, e);
  if (game_ends(s)) return; /* PAP-7 (revised): an action, whose card left the row */
  if (kind != PF_PAP_REDO && !s->pend && s->rps_pile == NONE) action_done(s);
}

/* ------------------------------------------------------------------------------------------ */
/* Moves                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* PAP-3, PAP-5: may an unplaced card of the top level go on pile p there, nleft cards being
 * unplaced? A new pile takes the next number, at most N piles; a split must end with at least
 * two piles. */
enum { PLACE_OK, PLACE_NO_PILE, PLACE_SPLIT };
static int place_refusal(const pap_state *s, int p, int nleft) {
  int l = top_level(s), np = s->npiles[l];
  if (p > np || p >= s->players) return PLACE_NO_PILE;
  if (l > 0 && (p == np ? np + 1 : np) + (nleft - 1) < 2) return PLACE_SPLIT;
  return PLACE_OK;
}

/* G-5: equal cards are one move; of several equal unplaced cards, only the first is offered. Only
 * for cards that lay face up before (a split's, or after a Redo): among the Headpointer's freshly
 * drawn cards, offering only the first of equal cards would tell the others which hidden cards
 * are equal. */
static bool first_of_equals(const pap_state *s, const uint8_t *ks, int i) {
  if (!unplaced_public(s)) return true;
  for (int j = 0; j < i; j++)
    if (drawn(s, ks[j]) == drawn(s, ks[i])) return false;
  return true;
}

static int pap_legal(const void *vs, pf_move *moves) {
  const pap_state *s = vs;
  int n = 0;
  if (s->pend) { /* Trade, Switch: any card of the giver's row */
    for (int i = 0; i < s->row_len[s->pend_seat]; i++) moves[n++] = MOVE(MV_GIVE, 0, i);
    return n;
  }
  if (s->rps_pile != NONE) {
    for (int t = 0; t < 3; t++) moves[n++] = MOVE(MV_THROW, 0, t);
    return n;
  }
  if (s->window) {
    n = action_moves(s, s->asked, moves);
    moves[n++] = MOVE(MV_PASS, 0, 0);
    return n;
  }
  int l = top_level(s);
  uint8_t ks[MAX_DRAW];
  int nk = unplaced(s, l, ks);
  if (nk > 0) {
    for (int i = 0; i < nk; i++) {
      if (!first_of_equals(s, ks, i)) continue;
      for (int p = 0; p <= s->npiles[l]; p++)
        if (place_refusal(s, p, nk) == PLACE_OK && shy_ok(s, ks[i], p)) moves[n++] = MOVE(MV_PLACE, ks[i], p);
    }
    return n;
  }
  int seat = next_pointer(s);
  for (int p = 0; p < s->npiles[l]; p++)
    if (may_point(s, seat, l, p)) moves[n++] = MOVE(MV_POINT, 0, p);
  moves[n++] = MOVE(MV_POINT, 0, EMPTY);
  return n;
}

static void pap_apply(void *vs, pf_move m) {
  pap_state *s = vs;
  int l = top_level(s), b = MV_B(m);
  switch (MV_KIND(m)) {
  case MV_PLACE: {
    int k = MV_A(m);
    if (b == s->npiles[l]) s->npiles[l]++;
    s->pile[k] = (uint8_t)b;
    s->pos[k] = s->seq++;
    if (!placing(s)) piles_made(s);
    return;
  }
  case MV_POINT:
    s->choice[l][next_pointer(s)] = (uint8_t)b;
    if (next_pointer(s) < 0) reveal(s);
    return;
  case MV_PASS:
    s->passed |= (uint8_t)(1 << s->asked);
    window_next(s);
    return;
  case MV_THROW: {
    int t = next_thrower(s);
    if (t >= 0) s->rps[t] = (uint8_t)b; /* a legal throw always has a thrower */
    if (next_thrower(s) < 0) rps_reveal(s);
    return;
  }
  case MV_GIVE: give(s, b); return;
  default: use_action(s, s->asked, m); return;
  }
}

/* An action's argument, as ACTS[kind].arg says, after the word and a ':'. */
static void action_arg_str(int kind, int a, int b, char *buf, size_t n) {
  switch (ACTS[kind].arg) {
  case 'p':
  case 'r': snprintf(buf, n, ":%d", b + 1); break;
  case 'm': b == EMPTY ? snprintf(buf, n, ":empty") : snprintf(buf, n, ":%d", b + 1); break;
  case 'w': snprintf(buf, n, ":%d+%d", a + 1, b + 1); break;
  case 'o': snprintf(buf, n, ":%d>%d", a + 1, b + 1); break;
  case 'c': snprintf(buf, n, ":c%d", a + 1); break;
  case 's': snprintf(buf, n, ":p%d.%d", a, b + 1); break;
  case 'k': snprintf(buf, n, ":%c", pf_pap_colour_letter(b)); break;
  default: buf[0] = '\0'; break;
  }
}

static void pap_move_str(const void *vs, pf_move m, char buf[PF_MOVE_STR]) {
  (void)vs;
  int kind = MV_KIND(m);
  if (kind == MV_PLACE)
    snprintf(buf, PF_MOVE_STR, "c%d>%d", MV_A(m) + 1, MV_B(m) + 1);
  else if (kind == MV_POINT && MV_B(m) == EMPTY)
    snprintf(buf, PF_MOVE_STR, "@empty");
  else if (kind == MV_POINT)
    snprintf(buf, PF_MOVE_STR, "@%d", MV_B(m) + 1);
  else if (kind == MV_PASS)
    snprintf(buf, PF_MOVE_STR, "pass");
  else if (kind == MV_THROW)
    snprintf(buf, PF_MOVE_STR, "%s", THROWS[MV_B(m)]);
  else if (kind == MV_GIVE)
    snprintf(buf, PF_MOVE_STR, "give:%d", MV_B(m) + 1);
  else {
    char arg[32];
    action_arg_str(kind - MV_ACT, MV_A(m), MV_B(m), arg, sizeof arg);
    snprintf(buf, PF_MOVE_STR, "%s%s", ACTS[kind - MV_ACT].word, arg);
  }
}

/* Reads a positive number at *p (at most 3 digits); 0 when there is none. */
static int scan_number(const char **p) {
  int n = 0, digits = 0;
  while (**p >= '0' && **p <= '9' && digits < 3) {
    n = n * 10 + (*(*p)++ - '0');
    digits++;
  }
  return n;
}

/* What the game waits for, for refusals: "the Headpointer is making the piles". */
static const char *moment_text(const pap_state *s, char *buf, size_t n) {
  if (s->pend)
    snprintf(buf, n, "seat %d is to give a card for its %s (give:K)", s->pend_seat,
             s->pend == PEND_TRADE ? "Trade" : "Switch");
  else if (s->rps_pile != NONE)
    snprintf(buf, n, "rock-paper-scissors is being played for pile %d (rock, paper or scissors)", s->rps_pile + 1);
  else if (s->window)
    snprintf(buf, n, "seat %d is asked whether to use an action %s (an action or pass)", s->asked,
             WINDOW_NAMES[s->window]);
  else if (placing(s))
    snprintf(buf, n, "the Headpointer is making the piles (PAP-3)");
  else
    snprintf(buf, n, "it is time to point (PAP-4)");
  return buf;
}

/* The form of an action's move, for refusals of one written wrongly. */
static const char *action_form(int kind) {
  switch (ACTS[kind].arg) {
  case 'p': return "WORD:2 (pile 2)";
  case 'm': return "WORD:2 (pile 2) or WORD:empty";
  case 'w': return "WORD:1+2 (piles 1 and 2)";
  case 'o': return "WORD:3>1 (pile 3 onto pile 1)";
  case 'c': return "WORD:c5 (drawn card 5)";
  case 'r': return "WORD:3 (the third card of your row)";
  case 's': return "WORD:p2.3 (the third card of seat 2's row)";
  case 'k': return "WORD:R (a colour: R, G, B or P)";
  default: return "WORD (no argument)";
  }
}

/* Reads an action's argument t (after the ':', or "" when there is none) into a, b. */
static int scan_action_arg(const pap_state *s, int kind, const char *t, int *a, int *b) {
  const char *p = t;
  *a = *b = 0;
  switch (ACTS[kind].arg) {
  case 'm':
    if (strcasecmp(t, "empty") == 0) {
      *b = EMPTY;
      return 0;
    }
    /* fall through */
  case 'p':
  case 'r': *b = scan_number(&p) - 1; return *b >= 0 && !*p ? 0 : -1;
  case 'w':
  case 'o': {
    *a = scan_number(&p) - 1;
    if (*a < 0 || *p++ != (ACTS[kind].arg == 'w' ? '+' : '>')) return -1;
    *b = scan_number(&p) - 1;
    if (*b < 0 || *p) return -1;
    if (ACTS[kind].arg == 'w' && *a > *b) { /* either order: one swap */
      int x = *a;
      *a = *b, *b = x;
    }
    return 0;
  }
  case 'c':
    if (*p != 'c' && *p != 'C') return -1;
    p++;
    *a = scan_number(&p) - 1;
    return *a >= 0 && !*p ? 0 : -1;
  case 's':
    if (pf_pile_scan(&p, a) != 0 || *a >= s->players || *p++ != '.') return -1;
    *b = scan_number(&p) - 1;
    return *b >= 0 && !*p ? 0 : -1;
  case 'k': {
    const char *hit = t[0] && !t[1] ? strchr("RGBP", t[0] & ~0x20) : NULL;
    if (!hit) return -1;
    *b = (int)(hit - "RGBP");
    return 0;
  }
  default: return *t ? -1 : 0;
  }
}

/* An action move: refused, saying why, when actions are off, it is not the moment for it, the
 * seat holds no such card, it is written wrongly, or its target is not one it may take. */
static int parse_action(const pap_state *s, int kind, const char *text, const char *arg, pf_move *m, pf_error *err) {
  const char *name = pf_pap_kind_name(pf_pap_make_kind(0, PF_PAP_ACTION, kind));
  char moment[160];
  if (!s->actions) return pf_fail(err, "there are no actions in this game: the expansion actions is off (PAP-9)");
  if (s->pend || s->rps_pile != NONE || s->window != ACTS[kind].window)
    return pf_fail(err, "%s is used %s (PAP-9), but now %s", name, WINDOW_NAMES[ACTS[kind].window],
                   moment_text(s, moment, sizeof moment));
  int a, b;
  if (scan_action_arg(s, kind, arg, &a, &b) != 0) {
    char form[80], *w;
    snprintf(form, sizeof form, "%s", action_form(kind));
    while ((w = strstr(form, "WORD")) != NULL) { /* the form with the action's word */
      char rest[80];
      snprintf(rest, sizeof rest, "%s%s", ACTS[kind].word, w + 4);
      snprintf(w, sizeof form - (size_t)(w - form), "%s", rest);
    }
    return pf_fail(err, "'%s' is not a %s move: write %s", text, name, form);
  }
  if (action_pos(s, s->asked, kind) < 0)
    return pf_fail(err, "seat %d has no %s card (A%d) in its score row (PAP-9)", s->asked, name, kind);
  pf_move moves[PF_MAX_MOVES];
  int n = action_targets(s, s->asked, kind, action_pos(s, s->asked, kind), moves, 0);
  for (int i = 0; i < n; i++)
    if (moves[i] == MOVE(MV_ACT + kind, a, b)) {
      *m = moves[i];
      return 0;
    }
  return pf_fail(err, "'%s' cannot be played now: %s %s (PAP-9)", text, name, ACTS[kind].does);
}

static int parse_place(const pap_state *s, const char *text, pf_move *m, pf_error *err) {
  const char *p = text + 1;
  int card = scan_number(&p);
  if (card == 0 || *p != '>') return pf_fail(err, "'%s' is not a placement: write c4>2 (drawn card 4 onto pile 2)", text);
  p++;
  int pile = scan_number(&p);
  if (pile == 0 || *p) return pf_fail(err, "'%s' is not a placement: write c4>2 (drawn card 4 onto pile 2)", text);
  int l = top_level(s), np = s->npiles[l];
  if (card > s->ndrawn)
    return pf_fail(err, "there is no drawn card %d: cards 1-%d were drawn this round (PAP-3)", card, s->ndrawn);
  int k = card - 1;
  if (s->lvl[k] != l || s->pile[k] != NONE)
    return pf_fail(err, l > 0 ? "card %d is not one of the split pile's cards still to place (PAP-5)"
                              : "card %d is already placed (PAP-3)",
                   card);
  uint8_t ks[MAX_DRAW];
  int nk = unplaced(s, l, ks);
  int why = place_refusal(s, pile - 1, nk);
  if (why == PLACE_SPLIT)
    return pf_fail(err, "a split makes at least two piles (PAP-5): this card must start pile 2");
  if (why && np == s->players)
    return pf_fail(err, "there are already %d piles, the most there may be (PAP-3): use piles 1-%d", np, np);
  if (why && np == 0) return pf_fail(err, "there is no pile yet: put the card on 1 to start one (PAP-3)");
  if (why) return pf_fail(err, "there %s %d pile%s: put the card on %s%d, or on %d to start a new one (PAP-3)",
                          np == 1 ? "is" : "are", np, np == 1 ? "" : "s", np > 1 ? "1-" : "", np, np + 1);
  if (!shy_ok(s, k, pile - 1))
    return pf_fail(err, "card %d on pile %d would leave every pile with a Shy card on top: at least one pile "
                        "must have another card on top (PAP-9)", card, pile);
  /* G-5: among cards that lay face up, an equal card earlier in draw order stands for this one. */
  for (int i = 0; i < nk && unplaced_public(s); i++)
    if (drawn(s, ks[i]) == drawn(s, k)) {
      k = ks[i];
      break;
    }
  *m = MOVE(MV_PLACE, k, pile - 1);
  return 0;
}

static int parse_point(const pap_state *s, const char *text, pf_move *m, pf_error *err) {
  int l = top_level(s), np = s->npiles[l];
  if (strcasecmp(text + 1, "empty") == 0 || strcasecmp(text + 1, "e") == 0) {
    *m = MOVE(MV_POINT, 0, EMPTY);
    return 0;
  }
  const char *p = text + 1;
  int pile = scan_number(&p);
  if (pile == 0 || *p) return pf_fail(err, "'%s' is not a choice: point with @2 (pile 2) or @empty", text);
  if (pile > np)
    return pf_fail(err, np == 1 ? "there is no pile %d: choose @1 or @empty (PAP-4)"
                                : "there is no pile %d: choose @1-@%d or @empty (PAP-4)", pile, np);
  if (!may_point(s, next_pointer(s), l, pile - 1)) {
    char b[PF_CARD_STR];
    pf_card top = drawn(s, top_of(s, l, pile - 1));
    return pf_fail(err, "pile %d has the Shy card %s (%s) on top, which does not let seat %d point at it (PAP-9)", pile,
                   pf_card_str(top, b), pf_pap_kind_name(top), next_pointer(s));
  }
  *m = MOVE(MV_POINT, 0, pile - 1);
  return 0;
}

/* The words of the moves that are not placements or choices: an action's, pass, give, a throw. */
static int parse_word(const pap_state *s, const char *text, pf_move *m, pf_error *err, bool *matched) {
  char word[16], moment[160];
  size_t len = strcspn(text, ":");
  const char *arg = text[len] ? text + len + 1 : "";
  *matched = true;
  snprintf(word, sizeof word, "%.*s", (int)(len < sizeof word ? len : sizeof word - 1), text);
  for (int kind = 1; kind <= PF_PAP_ACTIONS; kind++)
    if (len < sizeof word && strcasecmp(word, ACTS[kind].word) == 0) return parse_action(s, kind, text, arg, m, err);
  for (int t = 0; t < 3; t++)
    if (strcasecmp(text, THROWS[t]) == 0) {
      if (s->rps_pile == NONE || s->pend)
        return pf_fail(err, "nobody is playing rock-paper-scissors now (PAP-9 Random): %s", moment_text(s, moment, sizeof moment));
      *m = MOVE(MV_THROW, 0, t);
      return 0;
    }
  if (strcasecmp(text, "pass") == 0) {
    if (!s->window || s->pend || s->rps_pile != NONE)
      return pf_fail(err, "there is no action to pass on now: %s", moment_text(s, moment, sizeof moment));
    *m = MOVE(MV_PASS, 0, 0);
    return 0;
  }
  if (strcasecmp(word, "give") == 0 && len == 4) {
    const char *p = arg;
    int i = scan_number(&p);
    if (!s->pend) return pf_fail(err, "nobody is giving a card now (PAP-9 Trade, Switch): %s", moment_text(s, moment, sizeof moment));
    if (i == 0 || *p) return pf_fail(err, "'%s' is not a card to give: write give:3 (the third card of your row)", text);
    if (i > s->row_len[s->pend_seat])
      return pf_fail(err, "seat %d's row has %d cards: give:1-give:%d", s->pend_seat, s->row_len[s->pend_seat],
                     s->row_len[s->pend_seat]);
    *m = MOVE(MV_GIVE, 0, i - 1);
    return 0;
  }
  *matched = false;
  return -1;
}

static int pap_move_parse(const void *vs, const char *text, pf_move *m, pf_error *err) {
  const pap_state *s = vs;
  char moment[160];
  bool matched;
  int rc = parse_word(s, text, m, err, &matched);
  if (matched) return rc;
  bool place = text[0] == 'c' || text[0] == 'C';
  if (!place && text[0] != '@')
    return pf_fail(err, "'%s' is not a move: place a card with c4>2, point with @2 or @empty%s", text,
                   s->actions ? ", use an action (swap:1+2, ...) or pass" : "");
  if (s->pend || s->rps_pile != NONE || s->window) return pf_fail(err, "%s", moment_text(s, moment, sizeof moment));
  if (place && !placing(s))
    return pf_fail(err, "the piles are made: it is time to point (@1-@%d or @empty, PAP-4)", s->npiles[top_level(s)]);
  if (place) return parse_place(s, text, m, err);
  if (placing(s)) return pf_fail(err, "the Headpointer is still making the piles (PAP-3): nobody points yet");
  return parse_point(s, text, m, err);
}

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
    if (deck_check(s, setup->deals[0].cards, setup->deals[0].ncards, err) != 0) {
      pf_error_prefix(err, "deal 1");
      return -1;
    }
    s->ncards = (uint8_t)setup->deals[0].ncards;
    memcpy(s->card, setup->deals[0].cards, s->ncards * sizeof s->card[0]);
  } else {
    s->ncards = (uint8_t)generate_deck(s, s->card, setup->seed);
  }
  if (s->missions && setup->ndeals == 2) {
    if (missions_check(setup->deals[1].cards, setup->deals[1].ncards, err) != 0) {
      pf_error_prefix(err, "deal 2");
      return -1;
    }
    memcpy(s->mission, setup->deals[1].cards, sizeof s->mission);
  } else if (s->missions) {
    generate_missions(s->mission, setup->seed);
  }
  s->players = (uint8_t)setup->players;
  s->head = 0; /* PAP-2 */
  begin_round(s);
  return 0;
}

/* PAP-7: the running scores; with the Headpointer of the round in progress (or of the last). */
static void pap_scores(const void *vs, int *scores) {
  const pap_state *s = vs;
  for (int p = 0; p < s->players; p++) scores[p] = score_of(s, p);
}

/* PAP-9 missions: the players whose mission was met share the win. Otherwise PAP-7, G-6: the
 * highest score wins; equal best scores share the win. */
static int pap_winners(const void *vs, int *seats) {
  const pap_state *s = vs;
  int n = 0, mask = s->met ? s->met : standing(s, false);
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
  pap_deal_at(s, s->missions, out);
  return s->missions;
}

/* ------------------------------------------------------------------------------------------ */
/* Hidden information                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* PAP-8: may `seat` see the whole of p's score row? Its top card and size everyone sees. */
static bool row_visible(const pap_state *s, int seat, int p) {
  return !s->pile_variant || s->over || pf_view_sees_own(seat, p);
}

/* PAP-9 missions: may `seat` see p's mission? Its own, and every one once the game is over. */
static bool mission_visible(const pap_state *s, int seat, int p) {
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
static bool choice_visible(const pap_state *s, int seat, int l, int p) {
  return pf_view_sees_own(seat, p) || l < top_level(s) || placing(s) || s->window || next_pointer(s) < 0 ||
         (!(s->late[l] >> p & 1) && s->late[l] && early_done(s, l));
}

/* May `seat` see p's throw at rock-paper-scissors? Only once all have thrown (never pending). */
static bool throw_visible(const pap_state *s, int seat, int p) {
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
  if (s->depth && !unplaced_visible(s, seat)) {
    uint8_t ks[MAX_DRAW];
    int nk = unplaced(s, 0, ks);
    for (int i = 0; i < nk; i++) out[n++] = (uint8_t)slot_of(s, ks[i]);
  }
  for (int p = 0; p < s->players; p++)
    if (!row_visible(s, seat, p))
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
  int n = unseen_slots(s, seat, slots), left[PF_PAP_COLOURS], need[FAMILIES], m = 0;
  colour_pool(s->ncards, left);
  for (int f = 0; f < FAMILIES; f++) need[f] = family_total(s, f);
  for (int i = 0; i < n; i++) unseen[slots[i]] = true;
  for (int i = 0; i < s->ncards; i++)
    if (!unseen[i]) {
      if (left[pf_pap_colour(s->card[i])] > 0) left[pf_pap_colour(s->card[i])]--;
      need[family_of(s->card[i])]--;
    }
  for (int f = 0; f < FAMILIES; f++)
    for (int i = 0; i < need[f] && m < n; i++) fam[m++] = (uint8_t)f;
  if (s->police || s->shy || s->actions) pf_shuffle(rng, fam, (size_t)m);
  for (int i = 0; i < n; i++) s->card[slots[i]] = draw_card(rng, i < m ? fam[i] : FAM_REGULAR);
  deal_colours(s->card, slots, n, left, rng);
  for (int i = 0; i < MISSION_CARDS && s->missions && !s->over; i++)
    if (i != seat) s->mission[i] = draw_mission(rng);
  if (s->over) return;
  if (s->rps_pile != NONE)
    for (int p = 0; p < s->players; p++)
      if (s->rps[p] != UNCHOSEN && !throw_visible(s, seat, p)) s->rps[p] = (uint8_t)pf_rng_below(rng, 3);
  if (s->window || s->pend || s->rps_pile != NONE || placing(s) || !s->depth) return;
  int l = top_level(s);
  for (int p = 0; p < s->players; p++)
    if (p != seat && s->choice[l][p] != UNCHOSEN && !choice_visible(s, seat, l, p)) {
      uint8_t may[MAXP + 1];
      int k = 0;
      for (int q = 0; q < s->npiles[l]; q++)
        if (may_point(s, p, l, q)) may[k++] = (uint8_t)q;
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
  if (deck_check(s, s->card, s->ncards, err) != 0) return -1;
  if (s->missions && missions_check(s->mission, MISSION_CARDS, err) != 0) return -1;
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
/* Views                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* What the expansions' cards do, one line each (PAP-9), by kind. */
static const char *const RULE_TEXT[PF_PAP_RULES + 1] = {
    "",
    "you may not pick a pile showing the colour of your last card scored",
    "you must pick a pile showing the colour of your last card scored",
    "you may not pick the pile your left neighbour (seat - 1) picks",
    "you must pick a pile a neighbour (seat - 1 or + 1) picks",
    "the leading player(s) may not pick the largest pile(s)",
    "the trailing player(s) choose after seeing the others' choices",
    "if your last card scored has text, you may not pick a pile with text",
    "if your last card scored is textless, you may not pick a pile with a textless card",
};
static const char *const SHY_TEXT[PF_PAP_SHIES + 1] = {
    "",
    "the Headpointer only",
    "anyone but the Headpointer",
    "players not (jointly) in the lead",
    "players with fewer than 5 scored cards",
    "players with more than 5 scored cards",
    "players who have scored no card of its colour",
    "players who have scored a card of its colour",
    "players who have scored no Shy card",
};
static const char *const MISSION_TEXT[PF_PAP_MISSIONS] = {
    "",
    "5 cards of one colour",
    "at least 2 cards of every colour",
    "10 points",
    "at least 6 cards with text",
    "at least 5 textless cards",
    "every colour and at least 6 points",
    "every colour and at least 6 cards",
    "at least 12 cards",
    "at least 8 cards and at least 4 points",
};

/* What a card does, for people: "+1 per green card", "3 if some colour has 4+ cards". */
static void card_text(pf_card c, pf_buf *out) {
  int x = pf_pap_a(c), y = pf_pap_b(c), sign = pf_pap_sign(c), kind = pf_pap_kind(c);
  const char *colour = pf_pap_colour_name(pf_pap_c(c)), *name = pf_pap_kind_name(c);
  switch (pf_pap_type(c)) {
  case PF_PAP_SCORE: pf_buf_printf(out, "%+d", sign); break;
  case PF_PAP_MATCH: pf_buf_printf(out, "%+d per %s card", sign, colour); break;
  case PF_PAP_DIFF: pf_buf_printf(out, "%d if all 4 colours", x); break;
  case PF_PAP_GROUP: pf_buf_printf(out, "%d if some colour has %d+ cards", x, y); break;
  case PF_PAP_SPECIFIC: pf_buf_printf(out, "%d if %d+ %s cards", x, y, colour); break;
  case PF_PAP_NUMCARDS: pf_buf_printf(out, "%d if %d+ cards", x, y); break;
  case PF_PAP_EMPTY: pf_buf_printf(out, "%+d per textless card", sign); break;
  case PF_PAP_LAST: pf_buf_printf(out, "%+d while your last card", sign); break;
  case PF_PAP_HEAD: pf_buf_printf(out, "%+d while you are Headpointer", sign); break;
  case PF_PAP_RULE: pf_buf_printf(out, "rule %s: %s", name, RULE_TEXT[kind]); break;
  case PF_PAP_SHY: pf_buf_printf(out, "shy %s: while on top, its pile is for %s", name, SHY_TEXT[kind]); break;
  case PF_PAP_ACTION: pf_buf_printf(out, "action %s, %s: %s", name, WINDOW_NAMES[ACTS[kind].window], ACTS[kind].does); break;
  case PF_PAP_MISSION: pf_buf_printf(out, "mission: %s", MISSION_TEXT[kind]); break;
  case PF_PAP_MISSION_HL:
    pf_buf_printf(out, "mission: at least %d %s and %d %s cards", x, colour, y, pf_pap_colour_name(pf_pap_colour(c)));
    break;
  default: pf_buf_printf(out, "textless %s", pf_pap_colour_name(pf_pap_colour(c))); break;
  }
}

static json_t *cards_json(const pap_state *s, const uint8_t *ks, int n) {
  json_t *a = json_array();
  for (int i = 0; i < n; i++) {
    char b[PF_CARD_STR];
    json_array_append_new(a, json_string(pf_card_str(drawn(s, ks[i]), b)));
  }
  return a;
}

static json_t *seats_json(int mask) {
  json_t *a = json_array();
  for (int p = 0; p < MAXP; p++)
    if (mask >> p & 1) json_array_append_new(a, json_integer(p));
  return a;
}

static json_t *choice_json(int c) {
  return c == UNCHOSEN ? json_null() : c == EMPTY ? json_string("empty") : json_integer(c + 1);
}

/* Does who leads matter at level l (Leading Curse in force, a Leader Veto card on top), once its
 * pointing has begun (the standings are noted then; someone always leads)? Only then do the views
 * say who leads: with `pile` the scores are hidden, and the engine tells only what the players
 * need to follow the cards (PAP-9). */
static bool leaders_matter(const pap_state *s, int l) {
  if (!s->leaders[l]) return false;
  if (s->rule == PF_PAP_LEADING_CURSE) return true;
  for (int p = 0; p < s->npiles[l] && s->shy; p++) {
    int k = top_of(s, l, p);
    if (k >= 0 && is_shy(drawn(s, k)) && pf_pap_kind(drawn(s, k)) == PF_PAP_LEADER_VETO) return true;
  }
  return false;
}

/* The levels, round's piles first: each with its piles (cards bottom first, draw numbers),
 * the piles resolved so far, who points there and what each chose, as far as `seat` may know;
 * with the expansions, who leads and who waits (when it matters), who broke the rule, whose
 * choice no longer counts and which piles Take None discards. */
static json_t *levels_json(const pap_state *s, int seat) {
  json_t *levels = json_array();
  for (int l = 0; l < s->depth; l++) {
    json_t *o = json_object(), *piles = json_array(), *numbers = json_array(), *choices = json_array();
    for (int p = 0; p < s->npiles[l]; p++) {
      uint8_t ks[MAX_DRAW];
      int n = pile_cards(s, l, p, ks);
      json_array_append_new(piles, cards_json(s, ks, n));
      json_t *nums = json_array();
      for (int i = 0; i < n; i++) json_array_append_new(nums, json_integer(ks[i] + 1));
      json_array_append_new(numbers, nums);
    }
    json_object_set_new(o, "piles", piles);
    json_object_set_new(o, "numbers", numbers);
    json_object_set_new(o, "resolved", json_integer(s->cursor[l]));
    json_t *ptrs = json_array();
    for (int p = 0; p < s->players; p++) {
      if (!(s->pointers[l] >> p & 1)) {
        json_array_append_new(choices, json_null());
        continue;
      }
      json_array_append_new(ptrs, json_integer(p));
      int c = s->choice[l][p];
      json_array_append_new(choices, c == UNCHOSEN ? json_null()
                                     : choice_visible(s, seat, l, p) ? choice_json(c) : json_string("chosen"));
    }
    json_object_set_new(o, "pointers", ptrs);
    json_object_set_new(o, "choices", choices);
    if (s->police || s->shy) json_object_set_new(o, "leaders", leaders_matter(s, l) ? seats_json(s->leaders[l]) : json_null());
    if (s->police) {
      json_object_set_new(o, "late", seats_json(s->late[l]));
      json_object_set_new(o, "broke", seats_json(s->broke[l]));
    }
    if (s->actions) {
      json_object_set_new(o, "voided", seats_json(s->voided[l]));
      json_t *dropped = json_array();
      for (int p = 0; p < s->npiles[l]; p++)
        if (s->dropped[l] >> p & 1) json_array_append_new(dropped, json_integer(p + 1));
      json_object_set_new(o, "dropped", dropped);
    }
    json_array_append_new(levels, o);
  }
  return levels;
}

static json_t *rows_json(const pap_state *s, int seat) {
  json_t *rows = json_array();
  for (int p = 0; p < s->players; p++) {
    json_t *o = json_object();
    int n = s->row_len[p];
    char b[PF_CARD_STR];
    json_object_set_new(o, "size", json_integer(n));
    json_object_set_new(o, "top", n ? json_string(pf_card_str(row_card(s, p, n - 1), b)) : json_null());
    if (row_visible(s, seat, p)) {
      json_t *cards = json_array(), *values = json_array();
      row_stats st = stats_of(s, p);
      for (int i = 0; i < n; i++) {
        json_array_append_new(cards, json_string(pf_card_str(row_card(s, p, i), b)));
        json_array_append_new(values, json_integer(row_value(s, p, &st, i)));
      }
      json_object_set_new(o, "cards", cards);
      json_object_set_new(o, "values", values);
    }
    json_array_append_new(rows, o);
  }
  return rows;
}

static const char *phase_name(const pap_state *s) {
  if (s->over) return "over";
  if (s->pend) return "give";
  if (s->rps_pile != NONE) return "rock-paper-scissors";
  if (s->window) return "actions";
  return placing(s) ? "place" : "point";
}

/* The expansions' fields of the view (PAP-9). */
/* police: the rule in force, or before the round's pointing the one that will be, as the
 * Headpointer's last card scored (always face up) says. */
static int rule_shown(const pap_state *s) { return s->ruled ? s->rule : s->over ? 0 : rule_in_force(s); }

static void expansions_json(const pap_state *s, int seat, json_t *obj) {
  char b[PF_CARD_STR];
  if (s->police) {
    int rule = rule_shown(s);
    json_object_set_new(obj, "rule", rule ? json_string(pf_pap_kind_name(pf_pap_make_kind(0, PF_PAP_RULE, rule)))
                                          : json_null());
    json_object_set_new(obj, "out_of_round", seats_json(s->outs));
  }
  if (s->missions) {
    json_t *m = json_array();
    for (int p = 0; p < s->players; p++)
      json_array_append_new(m, mission_visible(s, seat, p) ? json_string(pf_card_str(s->mission[p], b)) : json_null());
    json_object_set_new(obj, "missions", m);
    json_object_set_new(obj, "missions_met", seats_json(s->met));
  }
  if (!s->actions) return;
  json_object_set_new(obj, "window", s->window ? json_string(WINDOW_NAMES[s->window]) : json_null());
  json_object_set_new(obj, "asked", s->window && !s->over ? json_integer(s->asked) : json_null());
  json_object_set_new(obj, "acted", seats_json(s->acted));
  json_object_set_new(obj, "action_stop", json_boolean(s->stopped));
  json_object_set_new(obj, "draw_more", json_integer(s->ndrawmore));
  json_t *rps = json_null();
  if (s->rps_pile != NONE && !s->over) {
    json_t *throws = json_array();
    rps = json_object();
    json_object_set_new(rps, "pile", json_integer(s->rps_pile + 1));
    json_object_set_new(rps, "players", seats_json(s->rps_left));
    json_object_set_new(rps, "throw", json_integer(s->rps_throws + 1));
    for (int p = 0; p < s->players; p++) {
      int t = s->rps[p];
      json_array_append_new(throws, !(s->rps_left >> p & 1) || t == UNCHOSEN ? json_null()
                                    : throw_visible(s, seat, p)              ? json_string(THROWS[t])
                                                                             : json_string("thrown"));
    }
    json_object_set_new(rps, "throws", throws);
  }
  json_object_set_new(obj, "rps", rps);
  json_t *giving = json_null();
  if (s->pend && !s->over) {
    giving = json_object();
    json_object_set_new(giving, "seat", json_integer(s->pend_seat));
    json_object_set_new(giving, "to", json_integer(s->pend_to));
    json_object_set_new(giving, "for", json_string(s->pend == PEND_TRADE ? "Trade" : "Switch"));
  }
  json_object_set_new(obj, "giving", giving);
}

/* ---- zones (docs/views.md) ---- */

/* The zone of pile p (from 0) at level l: "pap:0.2" is the round's pile 2, as moves number it. */
static void pile_id(int l, int p, char id[PF_ZONE_ID]) { snprintf(id, PF_ZONE_ID, "pap:%d.%d", l, p + 1); }

static void row_id(int seat, char id[PF_ZONE_ID]) { snprintf(id, PF_ZONE_ID, "row:%d", seat); }

/* What a choice points at: pile c's zone, or for empty space the cards discarded this round,
 * which tapping it alone wins (PAP-6). */
static void point_zone(int l, int c, char id[PF_ZONE_ID]) {
  if (c == EMPTY)
    strcpy(id, "discard");
  else
    pile_id(l, c, id);
}

/* The cards at n slots of the deck as zone cards: those from index `shown` on, nulls before it
 * (0: all seen; n: none). */
static json_t *slots_cards(const pap_state *s, const uint8_t *slots, int n, int shown) {
  json_t *a = json_array();
  for (int i = 0; i < n; i++) {
    char b[PF_CARD_STR];
    json_array_append_new(a, i >= shown ? json_string(pf_card_str(s->card[slots[i]], b)) : json_null());
  }
  return a;
}

/* The piles of every level, face up (PAP-3, PAP-5), and while the Headpointer may start a new
 * pile at the top level, that pile, empty, for the placing moves to point at. */
static void piles_zones(const pap_state *s, json_t *obj) {
  for (int l = 0; l < s->depth; l++) {
    bool room = !s->over && l == top_level(s) && placing(s) && s->npiles[l] < s->players;
    for (int p = 0; p < s->npiles[l] + room; p++) {
      uint8_t ks[MAX_DRAW];
      char id[PF_ZONE_ID], label[32];
      int n = pile_cards(s, l, p, ks);
      pile_id(l, p, id);
      snprintf(label, sizeof label, l ? "Pile %d of split %d" : "Pile %d", p + 1, l);
      json_t *z = pf_zone_add(obj, id, "pile", -1, label, cards_json(s, ks, n), PF_FAN);
      const char *note = p == s->npiles[l]                    ? "new pile"
                         : s->dropped[l] >> p & 1              ? "Take None: discarded"
                         : p < s->cursor[l]                    ? "resolved"
                         : l < top_level(s) && p == s->cursor[l] ? "being split"
                                                                 : NULL;
      if (note) pf_zone_note(z, note);
    }
  }
}

/* Every seat's score row: all of it where the viewer may see it (PAP-8: else its top card), with
 * the score as the zone's value when the viewer may know it; and with `missions` the missions,
 * each seen by its owner (PAP-9), and the mission deck's rest. */
static void rows_zones(const pap_state *s, int seat, json_t *obj) {
  for (int p = 0; p < s->players; p++) {
    char id[PF_ZONE_ID], label[32];
    int n = s->row_len[p];
    bool whole = row_visible(s, seat, p);
    row_id(p, id);
    snprintf(label, sizeof label, "Seat %d's row", p);
    json_t *z = pf_zone_add(obj, id, "row", p, label, slots_cards(s, s->row[p], n, whole ? 0 : n - 1), PF_FAN);
    if (whole) pf_zone_value(z, score_of(s, p));
  }
  for (int p = 0; p < s->players && s->missions; p++) {
    char id[PF_ZONE_ID], label[32], b[PF_CARD_STR];
    json_t *cards = json_array();
    json_array_append_new(cards, mission_visible(s, seat, p) ? json_string(pf_card_str(s->mission[p], b)) : json_null());
    snprintf(id, sizeof id, "mission:%d", p);
    snprintf(label, sizeof label, "Seat %d's mission", p);
    pf_zone_add(obj, id, "mission", p, label, cards, PF_STACK);
  }
  if (!s->missions) return;
  json_t *rest = json_array();
  for (int i = s->players; i < MISSION_CARDS; i++) {
    char b[PF_CARD_STR];
    json_array_append_new(rest, seat == PF_VIEW_ALL ? json_string(pf_card_str(s->mission[i], b)) : json_null());
  }
  pf_zone_add(obj, "missions", "deck", -1, "Missions nobody drew", rest, PF_STACK);
}

/* The zones (docs/views.md): the deck (unseen, PAP-1), the drawn cards still to place (seen by
 * the Headpointer only until they have lain face up, PAP-3), the piles, the cards discarded this
 * round (which tapping empty space may win, PAP-6), the cards out of the game, the score rows and
 * the missions. */
static void pap_zones(const pap_state *s, int seat, json_t *obj) {
  uint8_t slots[MAX_CARDS], ks[MAX_DRAW];
  int n = 0;
  for (int i = s->ncards - 1; i >= s->next_slot; i--) slots[n++] = (uint8_t)i; /* the next card on top */
  pf_zone_add(obj, "deck", "deck", -1, "Deck", slots_cards(s, slots, n, seat == PF_VIEW_ALL ? 0 : n), PF_STACK);
  int nk = !s->depth ? 0 : unplaced(s, top_level(s), ks);
  if (nk) {
    for (int i = 0; i < nk; i++) slots[i] = (uint8_t)slot_of(s, ks[i]);
    pf_zone_add(obj, "drawn", "hand", s->head, "To place", slots_cards(s, slots, nk, unplaced_visible(s, seat) ? 0 : nk),
                PF_FAN);
  }
  piles_zones(s, obj);
  pf_zone_add(obj, "discard", "discard", -1, "Discarded this round", cards_json(s, s->disc, s->ndisc), PF_FAN);
  pf_zone_add(obj, "out", "other", -1, "Out of the game", slots_cards(s, s->out, s->nout, 0), PF_STACK);
  rows_zones(s, seat, obj);
}

static void log_text(const pap_event *e, int n, int viewer, const pf_style *st, pf_buf *out);

/* The round's log as the text view tells it, one string a line: what each seat chose once the
 * choices are revealed (PAP-4), what became of each pile, the expansions' events. Everyone is
 * told the same (the text view differs only in calling the viewer "you"), so seats are named. */
static json_t *log_json(const pap_event *e, int n) {
  pf_buf b = {0};
  pf_style plain = {0};
  log_text(e, n, PF_VIEW_PUBLIC, &plain, &b);
  json_t *lines = json_array();
  for (char *line = b.data, *end; line && *line; line = end + 1) {
    end = strchr(line, '\n');
    char *text = line;
    while (*text == ' ') text++;
    json_array_append_new(lines, json_stringn(text, (size_t)(end - text)));
  }
  pf_buf_free(&b);
  return lines;
}

static void pap_view_json(const void *vs, int seat, json_t *obj) {
  const pap_state *s = vs;
  /* PAP-8: a score the seat cannot work out is not shown (null). */
  json_t *scores = json_object_get(obj, "scores");
  for (int p = 0; p < s->players; p++)
    if (!row_visible(s, seat, p)) json_array_set_new(scores, (size_t)p, json_null());
  json_object_set_new(obj, "head", json_integer(s->head));
  json_object_set_new(obj, "round", json_integer(s->round));
  json_object_set_new(obj, "deck", json_integer(s->ncards - s->next_slot));
  json_object_set_new(obj, "pile_variant", json_boolean(s->pile_variant));
  json_object_set_new(obj, "phase", json_string(phase_name(s)));
  uint8_t ks[MAX_DRAW];
  int nk = !s->depth ? 0 : unplaced(s, top_level(s), ks);
  json_object_set_new(obj, "unplaced_count", json_integer(nk));
  if (nk && unplaced_visible(s, seat)) {
    json_t *u = json_array();
    for (int i = 0; i < nk; i++) {
      char b[PF_CARD_STR];
      json_t *o = json_object();
      json_object_set_new(o, "number", json_integer(ks[i] + 1));
      json_object_set_new(o, "card", json_string(pf_card_str(drawn(s, ks[i]), b)));
      json_array_append_new(u, o);
    }
    json_object_set_new(obj, "unplaced", u);
  }
  json_object_set_new(obj, "levels", levels_json(s, seat));
  json_object_set_new(obj, "rows", rows_json(s, seat));
  json_object_set_new(obj, "tapped", seats_json(s->tapped));
  json_object_set_new(obj, "discards", cards_json(s, s->disc, s->ndisc));
  json_object_set_new(obj, "out", json_integer(s->nout));
  /* this round's log (the last round's once the game is over), and the round's before it */
  json_object_set_new(obj, "log", log_json(s->log, s->nlog));
  json_object_set_new(obj, "previous_log", log_json(s->prev, s->nprev));
  expansions_json(s, seat, obj);
  pap_zones(s, seat, obj);
}

/* ---- text ---- */

static void put_card(pf_buf *out, pf_card c, const pf_style *st) {
  char b[64];
  pf_buf_puts(out, pf_card_render(c, st, b));
}

/* Adds c to the legend of card texts shown under the table, once. */
static void legend_add(pf_card *legend, int *n, pf_card c) {
  if (is_textless(c)) return;
  pf_card plain = with_colour(c, PF_PAP_RED);
  for (int i = 0; i < *n; i++)
    if (legend[i] == plain) return;
  if (*n < MAX_CARDS) legend[(*n)++] = plain;
}

static const char *seat_name(int p, int viewer, char buf[16]) {
  if (p == viewer) return "you";
  snprintf(buf, 16, "seat %d", p);
  return buf;
}

static void put_choice(pf_buf *out, int c) {
  if (c == EMPTY)
    pf_buf_puts(out, "empty space");
  else
    pf_buf_printf(out, "pile %d", c + 1);
}

static const char *action_name(int kind) { return pf_pap_kind_name(pf_pap_make_kind(0, PF_PAP_ACTION, kind)); }

/* What an action does, for people: "swap piles 1 and 2". `target` is the card it moves, when it
 * moves one (the card of a row or a pile, which the viewer may see). */
static void action_words(int kind, int a, int b, pf_card target, int viewer, const pf_style *st, pf_buf *out) {
  char name[16];
  switch (kind) {
  case PF_PAP_SWAP: pf_buf_printf(out, "swap piles %d and %d", a + 1, b + 1); return;
  case PF_PAP_STEAL: pf_buf_printf(out, "take c%d ", a + 1); break;
  case PF_PAP_HEADPOINTER: pf_buf_puts(out, "become the Headpointer"); return;
  case PF_PAP_DISCARD: pf_buf_printf(out, "discard card %d of %s: ", b + 1, a == viewer ? "your row" : seat_name(a, viewer, name)); break;
  case PF_PAP_RANDOM: pf_buf_printf(out, "settle pile %d by rock-paper-scissors", b + 1); return;
  case PF_PAP_MERGE: pf_buf_printf(out, "put pile %d on pile %d", a + 1, b + 1); return;
  case PF_PAP_SWITCH: pf_buf_printf(out, "take card %d of %s, giving one back: ", b + 1, seat_name(a, viewer, name)); break;
  case PF_PAP_REORDER: pf_buf_printf(out, "move card %d to the end of the row: ", b + 1); break;
  case PF_PAP_TAKE_ALL: pf_buf_printf(out, "win pile %d alone", b + 1); return;
  case PF_PAP_TAKE_NONE: pf_buf_printf(out, "discard pile %d", b + 1); return;
  case PF_PAP_REDO: pf_buf_puts(out, "make the round's piles anew and point again"); return;
  case PF_PAP_CHANGE_MIND:
    pf_buf_puts(out, "point at ");
    put_choice(out, b);
    pf_buf_puts(out, " instead");
    return;
  case PF_PAP_DRAW_MORE: pf_buf_printf(out, "the Headpointer draws %d more cards", DRAW_MORE); return;
  case PF_PAP_COLOR_STOP: pf_buf_printf(out, "remove the %s cards from the piles", pf_pap_colour_name(b)); return;
  case PF_PAP_ACTION_STOP: pf_buf_puts(out, "no more actions this round"); return;
  default: pf_buf_printf(out, "win pile %d alone, giving every other player a card", b + 1); return;
  }
  put_card(out, target, st);
}

static void log_text(const pap_event *e, int n, int viewer, const pf_style *st, pf_buf *out) {
  char b[16];
  for (int i = 0; i < n; i++, e++) {
    const char *where = e->level ? " of the split" : "";
    switch (e->kind) {
    case EV_REVEAL:
      pf_buf_printf(out, "  %s:", e->level ? "Pointing again after the split" : "Pointing");
      for (int p = 0; p < MAXP; p++)
        if (e->mask >> p & 1) {
          pf_buf_printf(out, " %s at ", seat_name(p, viewer, b));
          put_choice(out, e->choice[p]);
          pf_buf_puts(out, ";");
        }
      out->data[out->len - 1] = '\n';
      break;
    case EV_SCORED:
      pf_buf_printf(out, "    pile %d%s (%d card%s): %s scored it\n", e->pile + 1, where, e->ncards,
                    e->ncards == 1 ? "" : "s", seat_name(e->seat, viewer, b));
      break;
    case EV_DISCARDED:
      pf_buf_printf(out, "    pile %d%s (%d card%s): %s, discarded\n", e->pile + 1, where, e->ncards,
                    e->ncards == 1 ? "" : "s",
                    e->act ? "Take None" : e->mask ? "contested single card" : "nobody wanted it");
      break;
    case EV_SPLIT:
      pf_buf_printf(out, "    pile %d%s (%d cards): wanted by %d players, split\n", e->pile + 1, where, e->ncards,
                    popcount(e->mask));
      break;
    case EV_EMPTY_SCORES:
      pf_buf_printf(out, "  Empty space: %s alone tapped it and scored %d discarded card%s\n",
                    seat_name(e->seat, viewer, b), e->ncards, e->ncards == 1 ? "" : "s");
      break;
    case EV_EMPTY_LOST:
      pf_buf_printf(out, "  Empty space: tapped by %d players, so the %d discarded card%s left the game\n",
                    popcount(e->mask), e->ncards, e->ncards == 1 ? "" : "s");
      break;
    case EV_BROKE:
      pf_buf_printf(out, "    %s broke the rule %s: out of the round\n", seat_name(e->seat, viewer, b),
                    pf_pap_kind_name(pf_pap_make_kind(0, PF_PAP_RULE, e->act)));
      break;
    case EV_ACTION:
      pf_buf_printf(out, "  %s used %s (", seat_name(e->seat, viewer, b), action_name(e->act));
      put_card(out, e->card[0], st);
      pf_buf_puts(out, "): ");
      action_words(e->act, e->a, e->b, e->card[1], viewer, st, out);
      pf_buf_putc(out, '\n');
      break;
    case EV_THROWS:
      pf_buf_printf(out, "    rock-paper-scissors for pile %d, throw %d:", e->pile + 1, e->a);
      for (int p = 0; p < MAXP; p++)
        if (e->mask >> p & 1) pf_buf_printf(out, " %s %s;", seat_name(p, viewer, b), THROWS[e->choice[p]]);
      out->data[out->len - 1] = '\n';
      if (e->b) pf_buf_printf(out, "      lost the pile:");
      for (int p = 0; p < MAXP; p++)
        if (e->b >> p & 1) pf_buf_printf(out, " %s", seat_name(p, viewer, b));
      if (e->b) pf_buf_putc(out, '\n');
      break;
    case EV_GIVE:
      pf_buf_printf(out, "    %s gave ", seat_name(e->seat, viewer, b));
      put_card(out, e->card[0], st);
      pf_buf_printf(out, " to %s", seat_name(e->a, viewer, b));
      if (e->card[1]) {
        pf_buf_puts(out, " for ");
        put_card(out, e->card[1], st);
      }
      pf_buf_putc(out, '\n');
      break;
    default: pf_buf_printf(out, "  %s met %s mission\n", seat_name(e->seat, viewer, b), e->seat == viewer ? "your" : "their"); break;
    }
  }
}

static void rows_text(const pap_state *s, int seat, const pf_style *st, pf_card *legend, int *nlegend, pf_buf *out) {
  char b[16];
  pf_buf_puts(out, "Score rows (first scored first; values in brackets):\n");
  for (int p = 0; p < s->players; p++) {
    int n = s->row_len[p];
    pf_buf_printf(out, "  %-7s%s ", seat_name(p, seat, b), p == s->head ? "*" : " ");
    if (!row_visible(s, seat, p)) {
      pf_buf_printf(out, "%d card%s, top ", n, n == 1 ? "" : "s");
      if (n) {
        put_card(out, row_card(s, p, n - 1), st);
        legend_add(legend, nlegend, row_card(s, p, n - 1));
      } else {
        pf_buf_puts(out, "-");
      }
      pf_buf_puts(out, "; score hidden (pile variant)\n");
      continue;
    }
    row_stats rs = stats_of(s, p);
    for (int i = 0; i < n; i++) {
      pf_card c = row_card(s, p, i);
      put_card(out, c, st);
      if (!is_textless(c)) pf_buf_printf(out, "(%+d)", row_value(s, p, &rs, i));
      pf_buf_puts(out, " ");
      legend_add(legend, nlegend, c);
    }
    pf_buf_printf(out, "%s= %d\n", n ? "" : "(none) ", score_of(s, p));
  }
}

/* The expansions' lines above the table: the rule in force, the missions the seat may see, the
 * actions used. */
static void expansions_text(const pap_state *s, int seat, const pf_style *st, pf_buf *out) {
  char b[16];
  if (s->police && !s->over) {
    int rule = rule_shown(s);
    pf_card r = pf_pap_make_kind(0, PF_PAP_RULE, rule);
    if (rule)
      pf_buf_printf(out, "Rule in force (police): %s: %s.\n", pf_pap_kind_name(r), RULE_TEXT[rule]);
    else
      pf_buf_puts(out, "No rule in force (police): the Headpointer's last card scored is not a Rule card.\n");
  }
  for (int p = 0; p < s->players && s->missions; p++) {
    if (!mission_visible(s, seat, p)) continue;
    if (p == seat)
      pf_buf_puts(out, "Your mission (secret): ");
    else
      pf_buf_printf(out, "Mission of %s: ", seat_name(p, seat, b));
    put_card(out, s->mission[p], st);
    pf_buf_puts(out, ", ");
    card_text(s->mission[p], out);
    pf_buf_puts(out, (s->met >> p & 1) ? " (met)\n" : "\n");
  }
  if (s->actions && !s->over && (s->acted || s->stopped)) {
    pf_buf_puts(out, "Actions used this round:");
    for (int p = 0; p < s->players; p++)
      if (s->acted >> p & 1) pf_buf_printf(out, " %s;", seat_name(p, seat, b));
    out->data[out->len - 1] = s->stopped ? ';' : '.';
    pf_buf_puts(out, s->stopped ? " Action Stop: no more actions this round.\n" : "\n");
  }
}

/* The last line: who is to do what, as `seat` may know it. */
static void status_text(const pap_state *s, int seat, const pf_style *st, pf_card *legend, int *nlegend, pf_buf *out) {
  char b[16];
  uint8_t ks[MAX_DRAW];
  int l = top_level(s), nk = s->depth ? unplaced(s, l, ks) : 0;
  if (s->pend) {
    char b2[16];
    pf_buf_printf(out, "%s gives %s a card of their row (%s).\n", seat_name(s->pend_seat, seat, b),
                  seat_name(s->pend_to, seat, b2), s->pend == PEND_TRADE ? "Trade" : "Switch");
  } else if (s->rps_pile != NONE) {
    pf_buf_printf(out, "Rock-paper-scissors for pile %d (throw %d of at most %d):", s->rps_pile + 1, s->rps_throws + 1,
                  RPS_THROWS);
    for (int p = 0; p < s->players; p++)
      if (s->rps_left >> p & 1)
        pf_buf_printf(out, " %s %s;", seat_name(p, seat, b),
                      s->rps[p] == UNCHOSEN ? "to throw" : throw_visible(s, seat, p) ? THROWS[s->rps[p]] : "has thrown");
    out->data[out->len - 1] = '\n';
  } else if (s->window) {
    pf_buf_printf(out, "Actions %s (PAP-9): %s may use an action or pass.\n", WINDOW_NAMES[s->window],
                  seat_name(s->asked, seat, b));
  } else if (nk && unplaced_visible(s, seat)) {
    pf_buf_printf(out, "To place (%d):", nk);
    for (int i = 0; i < nk; i++) {
      pf_buf_printf(out, " c%d ", ks[i] + 1);
      put_card(out, drawn(s, ks[i]), st);
      legend_add(legend, nlegend, drawn(s, ks[i]));
    }
    pf_buf_putc(out, '\n');
  } else if (nk) {
    pf_buf_printf(out, "The Headpointer has %d drawn card%s still to place.\n", nk, nk == 1 ? "" : "s");
  } else {
    pf_buf_puts(out, "Pointing:");
    for (int p = 0; p < s->players; p++) {
      if (!(s->pointers[l] >> p & 1)) continue;
      int c = s->choice[l][p];
      pf_buf_printf(out, " %s ", seat_name(p, seat, b));
      if (c == UNCHOSEN)
        pf_buf_puts(out, s->late[l] >> p & 1 ? "to choose after the others (Trailing Reward)" : "to choose");
      else if (choice_visible(s, seat, l, p))
        put_choice(out, c);
      else
        pf_buf_puts(out, "has chosen");
      pf_buf_puts(out, ";");
    }
    out->data[out->len - 1] = '\n';
  }
}

static void pap_view_text(const void *vs, int seat, const pf_style *st, pf_buf *out) {
  const pap_state *s = vs;
  pf_card legend[MAX_CARDS];
  int nlegend = 0;
  char b[16];
  pf_buf_printf(out, "Point-a-Pile%s%s%s%s%s%s, round %d. Headpointer (*): %s. Deck: %d card%s left.\n",
                s->pile_variant ? " (pile variant)" : "", s->police || s->missions || s->shy || s->actions ? " with" : "",
                s->police ? " police" : "", s->missions ? " missions" : "", s->shy ? " shy" : "",
                s->actions ? " actions" : "", s->round, seat_name(s->head, seat, b), s->ncards - s->next_slot,
                s->ncards - s->next_slot == 1 ? "" : "s");
  expansions_text(s, seat, st, out);
  rows_text(s, seat, st, legend, &nlegend, out);
  if (s->nprev) {
    pf_buf_puts(out, s->over ? "The round before the last:\n" : "Last round:\n");
    log_text(s->prev, s->nprev, seat, st, out);
  }
  if (s->nlog) {
    pf_buf_puts(out, s->over ? "The last round:\n" : "This round so far:\n");
    log_text(s->log, s->nlog, seat, st, out);
  }
  if (s->over) goto legend;
  for (int l = 0; l < s->depth; l++) {
    pf_buf_printf(out, l ? "Split of pile %d (level %d), piles bottom card first:\n" : "Piles, bottom card first:\n",
                  l ? s->cursor[l - 1] + 1 : 0, l);
    for (int p = 0; p < s->npiles[l]; p++) {
      uint8_t ks[MAX_DRAW];
      int n = pile_cards(s, l, p, ks);
      pf_buf_printf(out, "  %d:", p + 1);
      if (p < s->cursor[l]) pf_buf_puts(out, " (resolved)");
      if (l < top_level(s) && p == s->cursor[l]) pf_buf_puts(out, " (being split)");
      if (s->dropped[l] >> p & 1) pf_buf_puts(out, " (Take None: discarded)");
      for (int i = 0; i < n; i++) {
        pf_buf_printf(out, " c%d ", ks[i] + 1);
        put_card(out, drawn(s, ks[i]), st);
        legend_add(legend, &nlegend, drawn(s, ks[i]));
      }
      if (!n && p >= s->cursor[l]) pf_buf_puts(out, " (empty)");
      pf_buf_putc(out, '\n');
    }
    if (s->npiles[l] == 0) pf_buf_puts(out, "  (none yet)\n");
    if ((s->police || s->shy) && leaders_matter(s, l)) {
      pf_buf_puts(out, "  Leading (as pointing began):");
      for (int p = 0; p < s->players; p++)
        if (s->leaders[l] >> p & 1) pf_buf_printf(out, " %s", seat_name(p, seat, b));
      pf_buf_putc(out, '\n');
    }
  }
  if (!s->depth) pf_buf_puts(out, "The Headpointer has not drawn yet.\n");
  status_text(s, seat, st, legend, &nlegend, out);
legend:
  if (!nlegend) return;
  /* Entries side by side while a line stays within 100 columns; a long text gets a line. */
  pf_buf_puts(out, "Card texts (any colour):\n ");
  size_t line = out->len;
  for (int i = 0; i < nlegend; i++) {
    char name[PF_CARD_STR];
    pf_buf entry = {0};
    pf_buf_printf(&entry, " %s ", pf_card_str(legend[i], name) + 2); /* no colour */
    card_text(legend[i], &entry);
    if (i > 0 && out->len - line + entry.len + 1 > 100) {
      pf_buf_puts(out, "\n ");
      line = out->len;
    } else if (i > 0) {
      pf_buf_putc(out, ';');
    }
    pf_buf_puts(out, pf_buf_str(&entry));
    pf_buf_free(&entry);
  }
  pf_buf_putc(out, '\n');
}

/* Where an action takes a card from and to: the card it moves (Steal's from its pile, Discard's
 * and Switch's from a row, Reorder's from the player's own), the piles Merge and Swap move
 * between; for the others the Action card from the player's row, to the pile (or empty space)
 * it is used on, if any. */
static void action_zones(const pap_state *s, int actor, int kind, int a, int b, pf_move_zones *z) {
  int l = top_level(s);
  switch (kind) {
  case PF_PAP_STEAL:
    pile_id(l, s->pile[a], z->from);
    z->card = drawn(s, a);
    row_id(actor, z->to);
    return;
  case PF_PAP_DISCARD:
  case PF_PAP_SWITCH:
  case PF_PAP_REORDER:
    if (kind == PF_PAP_REORDER) a = actor;
    row_id(a, z->from);
    z->card = row_card(s, a, b);
    if (kind == PF_PAP_DISCARD)
      strcpy(z->to, "out");
    else
      row_id(actor, z->to);
    return;
  case PF_PAP_MERGE:
  case PF_PAP_SWAP:
    pile_id(kind == PF_PAP_MERGE ? 0 : l, a, z->from);
    pile_id(kind == PF_PAP_MERGE ? 0 : l, b, z->to);
    return;
  default:
    row_id(actor, z->from);
    z->card = row_card(s, actor, action_pos(s, actor, kind));
    if (ACTS[kind].arg == 'p' || ACTS[kind].arg == 'm') point_zone(l, b, z->to);
    return;
  }
}

/* Placing: a drawn card onto a pile. Pointing: at a pile, or at empty space, the discard zone
 * (what tapping it alone wins, PAP-6). Giving (Trade, Switch): a card of the giver's row to the
 * other's. Actions: action_zones. Throws and passes move nothing. */
static void pap_move_zones(const void *vs, pf_move m, pf_move_zones *z) {
  const pap_state *s = vs;
  int actor = pap_to_move(s), a = MV_A(m), b = MV_B(m);
  switch (MV_KIND(m)) {
  case MV_PLACE:
    strcpy(z->from, "drawn");
    z->card = drawn(s, a);
    pile_id(top_level(s), b, z->to);
    return;
  case MV_POINT: point_zone(top_level(s), b, z->to); return;
  case MV_GIVE:
    row_id(actor, z->from);
    z->card = row_card(s, actor, b);
    row_id(s->pend_to, z->to);
    return;
  case MV_PASS:
  case MV_THROW: return;
  default: action_zones(s, actor, MV_KIND(m) - MV_ACT, a, b, z);
  }
}

/* "put c4 (G:S+, +1) on pile 2", "point at pile 2 (3 cards)", "use Swap (G:A1): swap piles 1
 * and 2"; another seat's choice or throw is told only as "points" or "throws" until the reveal. */
static void pap_describe(const void *vs, pf_move m, int viewer, const pf_style *st, pf_buf *out) {
  const pap_state *s = vs;
  int l = top_level(s), kind = MV_KIND(m), actor = pap_to_move(s);
  switch (kind) {
  case MV_PLACE: {
    int k = MV_A(m), p = MV_B(m);
    pf_card c = drawn(s, k); /* face up once placed: everyone may know it */
    pf_buf_printf(out, "put c%d ", k + 1);
    put_card(out, c, st);
    pf_buf_puts(out, " (");
    card_text(c, out);
    pf_buf_puts(out, ") ");
    pf_buf_printf(out, p == s->npiles[l] ? "on a new pile %d" : "on pile %d", p + 1);
    return;
  }
  case MV_PASS: pf_buf_puts(out, "use no action now"); return;
  case MV_THROW:
    if (!pf_view_sees_own(viewer, actor))
      pf_buf_puts(out, "throws (shown when everyone has thrown)");
    else
      pf_buf_printf(out, "throw %s", THROWS[MV_B(m)]);
    return;
  case MV_GIVE: {
    char b[16];
    /* The card is face up once given; where it lay only those who see the row know (PAP-8). */
    bool where = row_visible(s, viewer, actor);
    pf_buf_puts(out, "give ");
    if (where) pf_buf_printf(out, "card %d, ", MV_B(m) + 1);
    put_card(out, row_card(s, actor, MV_B(m)), st);
    pf_buf_printf(out, "%s to %s", where ? "," : "", seat_name(s->pend_to, viewer, b));
    return;
  }
  case MV_POINT: break;
  default: {
    int act = kind - MV_ACT, a = MV_A(m), b = MV_B(m);
    pf_card target = 0;
    if (act == PF_PAP_STEAL) target = drawn(s, a);
    if (act == PF_PAP_DISCARD || act == PF_PAP_SWITCH) target = row_card(s, a, b);
    if (act == PF_PAP_REORDER) target = row_card(s, actor, b);
    pf_buf_printf(out, "use %s (", action_name(act));
    put_card(out, row_card(s, actor, action_pos(s, actor, act)), st);
    pf_buf_puts(out, "): ");
    action_words(act, a, b, target, viewer, st, out);
    return;
  }
  }
  if (!pf_view_sees_own(viewer, actor)) {
    pf_buf_puts(out, "points (shown when everyone has chosen)");
    return;
  }
  if (MV_B(m) == EMPTY) {
    pf_buf_puts(out, "tap empty space");
    return;
  }
  uint8_t ks[MAX_DRAW];
  int n = pile_cards(s, l, MV_B(m), ks);
  pf_buf_printf(out, "point at pile %d:", MV_B(m) + 1);
  for (int i = 0; i < n; i++) {
    pf_buf_putc(out, ' ');
    put_card(out, drawn(s, ks[i]), st);
  }
}

/* ------------------------------------------------------------------------------------------ */
/* The description                                                                            */
/* ------------------------------------------------------------------------------------------ */

static const pf_option_desc OPTIONS[] = {
    [OPT_PILE] = {"pile", PF_OPT_BOOL, 0, 0, 1, "the harder variant: score rows are face-up piles (PAP-8)"},
    [OPT_POLICE] = {"police", PF_OPT_BOOL, 0, 0, 1, "Point-a-Police: Rule cards (PAP-9)"},
    [OPT_MISSIONS] = {"missions", PF_OPT_BOOL, 0, 0, 1, "Complete-a-Mission: a secret mission each (PAP-9)"},
    [OPT_SHY] = {"shy", PF_OPT_BOOL, 0, 0, 1, "Dont-a-Touchme: Shy cards (PAP-9)"},
    [OPT_ACTIONS] = {"actions", PF_OPT_BOOL, 0, 0, 1, "Wait-a-Minute: Action cards (PAP-9)"},
};


/* ------------------------------------------------------------------------------------------ */
/* The greedy bot's rule of thumb (bots/greedy.c)                                             */
/* ------------------------------------------------------------------------------------------ */

/* What the drawn cards ks (bottom first) would add to seat's score if they joined its row now. */
static int gain_of(pap_state *t, int seat, const uint8_t *ks, int n) {
  int before = score_of(t, seat), len = t->row_len[seat];
  for (int i = 0; i < n && t->row_len[seat] < MAX_CARDS; i++) t->row[seat][t->row_len[seat]++] = (uint8_t)slot_of(t, ks[i]);
  int after = score_of(t, seat);
  t->row_len[seat] = (uint8_t)len;
  return after - before;
}

/* Point at the pile that adds most to your score as your row stands (the bigger pile when equal),
 * or tap empty space when every pile would cost you. As Headpointer, keep the cards that help you
 * together on the pile that helps you most, and spread the others over new piles (or where they
 * help you least), so that everyone finds a pile and yours is less likely to be contested. Keep
 * your action cards (pass); give away the card of your row worth least to you; throw at random. */
static void pap_rate_moves(const void *vs, const pf_move *moves, int n, int64_t *rating) {
  pap_state copy = *(const pap_state *)vs, *t = &copy; /* rows grow and shrink in the copy */
  int seat = pap_to_move(t), l = top_level(t);
  uint8_t ks[MAX_DRAW];
  for (int i = 0; i < n; i++) {
    pf_move m = moves[i];
    int kind = MV_KIND(m), a = MV_A(m), b = MV_B(m);
    if (kind == MV_POINT) {
      int nk = b == EMPTY ? 0 : pile_cards(t, l, b, ks);
      rating[i] = b == EMPTY ? 0 : 100 * gain_of(t, seat, ks, nk) + nk;
      if (b != EMPTY && rating[i] <= 0) rating[i] -= 1000; /* a pile that costs: empty space first */
    } else if (kind == MV_PLACE) {
      uint8_t card = (uint8_t)a;
      int nk = b < t->npiles[l] ? pile_cards(t, l, b, ks) : 0;
      int pile_gain = gain_of(t, seat, ks, nk), card_gain = gain_of(t, seat, &card, 1);
      if (card_gain > 0)
        rating[i] = 10000 + 100 * pile_gain + (b < t->npiles[l]);
      else
        rating[i] = (b == t->npiles[l] ? 5000 : 0) - 100 * pile_gain;
    } else if (kind == MV_GIVE) {
      row_stats st = stats_of(t, seat);
      rating[i] = -row_value(t, seat, &st, b);
    } else {
      rating[i] = kind == MV_PASS; /* keep action cards; a throw or an action: all alike */
    }
  }
}

/* How pilfer bench and scripts/strength exercise the game (core/game.h: pf_measures). */
static const pf_measures MEASURES = {
    .playouts = {{2, 200000},
                 {4, 100000},
                 {6, 50000, "pile=true"},
                 {4, 20000, "police=true missions=true shy=true actions=true", "expansions"}},
    .searches = {{3, 5000, 2, {0, 6, 12}}},
    .sims = {{3, 6, "ismcts:iters=300 greedy greedy"}},
    .strength = {{3, 1200, "ismcts greedy greedy"}, {3, 1200, "greedy random random"}},
    .quick_players = 3,
};

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
    .apply = pap_apply,
    .move_str = pap_move_str,
    .move_parse = pap_move_parse,
    .scores = pap_scores,
    .winners = pap_winners,
    .view_json = pap_view_json,
    .view_text = pap_view_text,
    .determinize = pap_determinize,
    .check = pap_check,
    .current_deal = pap_current_deal,
    .describe = pap_describe,
    .deal_at = pap_deal_at,
    .rate_moves = pap_rate_moves,
    .choosing = pap_choosing,
    .move_zones = pap_move_zones,
};
