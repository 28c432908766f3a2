/*
 * thief_learn.c - what Thief and Four Card Thief give learning (core/game.h, "optional: for
 * learning"; docs/actions.md): dense actions and the length bound. Neither game has chance events
 * after its deals.
 *
 * A move is a kind and up to two arguments (thief.h: MV(kind, a, b)); its dense action is the
 * start of its kind's block plus its place in the block. The blocks, in this order, are those the
 * game has:
 *   discard       53    card a (0..51, the joker 52)                      THF-6, FCT-3
 *   pair          131   Thief: two cards of a rank, suits sa >= sb (one rank's 10 pairs, two
 *                       decks hold equal cards), then the joker pair;     THF-4(a)
 *                 79    Four Card Thief: sa > sb (one deck: 6 a rank), then the joker pair
 *   discard capt. 53    Thief: card a takes the discard pile's top        THF-4(b)
 *   table capture 209   Four Card Thief: card a x the table card's suit (its rank is a's), then
 *                       joker takes joker                                 FCT-3
 *   steal         53 N  seat q x card a (a steal, or a re-capture of q's) THF-4(c), THF-5
 *   pass          1     Thief only                                        THF-5, THF-6
 * So a function of the code and the player count alone; the kinds absent from a game have no
 * block in it.
 */
#include "games/thief.h"

#define CARDS 53      /* card codes 0..52: two standard decks' and the joker */
#define THF_PAIRS 131 /* 13 ranks x 10 + the joker pair */
#define FCT_PAIRS 79  /* 13 x 6 + 1 */
#define TABLE_CAPS 209

/* The start of each kind's block in a game (fct) of `players`, and past the last: the count. */
typedef struct layout {
  int discard, pair, capture, steal, pass, count;
} layout;

static layout layout_of(bool fct, int players) {
  layout l;
  l.discard = 0;
  l.pair = CARDS;
  l.capture = l.pair + (fct ? FCT_PAIRS : THF_PAIRS);
  l.steal = l.capture + (fct ? TABLE_CAPS : CARDS);
  l.pass = l.steal + CARDS * players;
  l.count = l.pass + !fct;
  return l;
}

/* A pair's place among a rank's pairs, suits hi >= lo (Thief) or hi > lo (Four Card Thief). */
static int pair_place(bool fct, int hi, int lo) { return fct ? hi * (hi - 1) / 2 + lo : hi * (hi + 1) / 2 + lo; }

int thf_action_count(int players, const pf_options *options) {
  (void)options;
  return layout_of(false, players).count;
}
int fct_action_count(int players, const pf_options *options) {
  (void)options;
  return layout_of(true, players).count;
}

int thf_action_index(const void *vs, pf_move m) {
  const thf_state *s = vs;
  layout l = layout_of(s->fct, s->players);
  int a = MV_A(m), b = MV_B(m), per = s->fct ? 6 : 10;
  if (a >= CARDS) return -1;
  switch (MV_KIND(m)) {
  case K_DISCARD: return l.discard + a;
  case K_PAIR: /* pair_move: a >= b, and both of a rank */
    if (b > a || rk((pf_card)b) != rk(a) || (s->fct && a == b && a != PF_CARD_JOKER)) return -1;
    if (a == PF_CARD_JOKER) return l.capture - 1;
    return l.pair + rk(a) * per + pair_place(s->fct, a & 3, b & 3);
  case K_DISCARD_CAPTURE: return s->fct ? -1 : l.capture + a;
  case K_TABLE_CAPTURE:
    if (!s->fct || b >= CARDS || rk((pf_card)b) != rk(a)) return -1;
    return l.capture + (a == PF_CARD_JOKER ? TABLE_CAPS - 1 : a * 4 + (b & 3));
  case K_STEAL: return b < s->players ? l.steal + b * CARDS + a : -1;
  case K_PASS: return s->fct ? -1 : l.pass;
  default: return -1;
  }
}

pf_move thf_action_move(const void *vs, int x) {
  const thf_state *s = vs;
  layout l = layout_of(s->fct, s->players);
  if (x < 0 || x >= l.count) return PF_NO_MOVE;
  if (x < l.pair) return MV(K_DISCARD, x, 0);
  if (x < l.capture) {
    int i = x - l.pair, per = s->fct ? 6 : 10, r = i / per, t = i % per, hi = s->fct ? 1 : 0;
    if (x == l.capture - 1) return MV(K_PAIR, PF_CARD_JOKER, PF_CARD_JOKER);
    while (pair_place(s->fct, hi + 1, 0) <= t) hi++;
    int lo = t - pair_place(s->fct, hi, 0);
    return MV(K_PAIR, r * 4 + hi, r * 4 + lo);
  }
  if (x < l.steal) {
    int i = x - l.capture;
    if (!s->fct) return MV(K_DISCARD_CAPTURE, i, 0);
    if (i == TABLE_CAPS - 1) return MV(K_TABLE_CAPTURE, PF_CARD_JOKER, PF_CARD_JOKER);
    return MV(K_TABLE_CAPTURE, i / 4, (i / 4 & ~3) | (i & 3));
  }
  if (x < l.pass) return MV(K_STEAL, (x - l.steal) % CARDS, (x - l.steal) / CARDS);
  return MV(K_PASS, 0, 0);
}

/* The length of a hand. Every move but pass takes at least one card from the mover's hand (THF-4,
 * THF-6, FCT-3), and a card comes into a hand at most once a hand (dealt or drawn from the stock,
 * THF-2, THF-6; no card goes back to a hand), and never the discard pile's first card or the four
 * table cards (THF-2, FCT-2): at most 107 such moves in Thief, 51 in Four Card Thief. A pass ends
 * a re-capture exchange, which a steal began (THF-5), or a turn after its first action (THF-6): at
 * most two a card move, so a Thief hand is at most 3 x 107 steps. Four Card Thief has no pass
 * (FCT-3, FCT-5). A game is its `hands` (THF-8: 0 = one per player). */
static long hands_of_game(int players, const pf_options *options) {
  return options->v[0] ? options->v[0] : players;
}
long thf_max_length(int players, const pf_options *options) {
  return hands_of_game(players, options) * 3 * (MAX_CARDS - 1);
}
long fct_max_length(int players, const pf_options *options) {
  return hands_of_game(players, options) * (55 - 4);
}
