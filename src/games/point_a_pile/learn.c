/*
 * learn.c - what Point-a-Pile gives learning (core/game.h, "optional: for learning";
 * docs/actions.md): dense actions and the length bound. It has no chance events after its deals.
 *
 * A move is a kind and arguments a, b (pap.h: MOVE(kind, a, b)); its dense action is the start of
 * its kind's block plus its place in the block. With N players, C cards in the deck (54, +15 with
 * police, +15 with shy, +20 with actions: PAP-1, PAP-9) and D the most cards a round draws (2N,
 * or 8N with actions, whose Draw More adds 6 for each of at most N uses; at most C), the blocks
 * are, in this order:
 *   place       D x N    drawn card k onto pile p: k * N + p                 PAP-3, PAP-5
 *   point       N + 1    pile p, then empty space                            PAP-4, PAP-6
 * and with actions (PAP-9) only:
 *   pass        1        no action now
 *   throw       3        rock, paper, scissors (Random)
 *   give        C        the card at row position b (Trade, Switch)
 *   action k    for each Action card kind 1..16 in turn, by its argument (actions.c, PAP_ACTS):
 *               none 1; a pile N; a pile or empty space N + 1; two piles (swap, merge) N x N
 *               as a * N + b; a drawn card D; a card of one's row C; a card of a seat's row
 *               N x C as seat * C + position; a colour 4.
 * A row holds at most C cards, a round's piles at most N (PAP-3), and the draw indices are below
 * D, so every legal move has its place, and the layout depends on the players and options alone.
 */
#include "games/point_a_pile/pap.h"

/* What the layout reads of a game's options. */
typedef struct learn_shape {
  int n, cards, draw;
  bool actions;
} learn_shape;

static learn_shape shape_of(int players, bool police, bool shy, bool actions) {
  learn_shape g = {.n = players, .actions = actions};
  g.cards = BASE_CARDS + (police ? RULE_CARDS : 0) + (shy ? SHY_CARDS : 0) + (actions ? ACTION_CARDS : 0);
  g.draw = (actions ? 2 + DRAW_MORE : 2) * players;
  if (g.draw > g.cards) g.draw = g.cards;
  return g;
}

static learn_shape shape_of_state(const pap_state *s) { return shape_of(s->players, s->police, s->shy, s->actions); }

/* How many actions of kind k's block, by its argument. */
static int act_size(const learn_shape *g, int kind) {
  switch (PAP_ACTS[kind].arg) {
  case 'p': return g->n;
  case 'm': return g->n + 1;
  case 'w':
  case 'o': return g->n * g->n;
  case 'c': return g->draw;
  case 'r': return g->cards;
  case 's': return g->n * g->cards;
  case 'k': return PF_PAP_COLOURS;
  default: return 1;
  }
}

/* The starts of the blocks: place, point, pass, throw, give, then act[k] for each kind (act[0]
 * unused); returns the count. */
typedef struct learn_layout {
  int place, point, pass, thrw, give, act[PF_PAP_ACTIONS + 2];
} learn_layout;

static int layout_of(const learn_shape *g, learn_layout *l) {
  l->place = 0;
  l->point = g->draw * g->n;
  l->pass = l->point + g->n + 1;
  if (!g->actions) return l->pass;
  l->thrw = l->pass + 1;
  l->give = l->thrw + 3;
  l->act[1] = l->give + g->cards;
  for (int k = 1; k <= PF_PAP_ACTIONS; k++) l->act[k + 1] = l->act[k] + act_size(g, k);
  return l->act[PF_PAP_ACTIONS + 1];
}

int pap_action_count(int players, const pf_options *o) {
  learn_shape g = shape_of(players, o->v[OPT_POLICE], o->v[OPT_SHY], o->v[OPT_ACTIONS]);
  learn_layout l;
  return layout_of(&g, &l);
}

/* Action kind k's argument (a, b) as its place in the block, or -1. */
static int act_place(const learn_shape *g, int kind, int a, int b) {
  int n = g->n;
  switch (PAP_ACTS[kind].arg) {
  case 'p': return !a && b < n ? b : -1;
  case 'm': return a ? -1 : b == EMPTY ? n : b < n ? b : -1;
  case 'w':
  case 'o': return a < n && b < n ? a * n + b : -1;
  case 'c': return !b && a < g->draw ? a : -1;
  case 'r': return !a && b < g->cards ? b : -1;
  case 's': return a < n && b < g->cards ? a * g->cards + b : -1;
  case 'k': return !a && b < PF_PAP_COLOURS ? b : -1;
  default: return !a && !b ? 0 : -1;
  }
}

int pap_action_index(const void *vs, pf_move m) {
  learn_shape g = shape_of_state(vs);
  learn_layout l;
  int count = layout_of(&g, &l), kind = MV_KIND(m), a = MV_A(m), b = MV_B(m), n = g.n, at = -1;
  if (kind == MV_PLACE) return a < g.draw && b < n ? l.place + a * n + b : -1;
  if (kind == MV_POINT) return a ? -1 : b == EMPTY ? l.point + n : b < n ? l.point + b : -1;
  if (!g.actions) return -1;
  if (kind == MV_PASS) at = a || b ? -1 : l.pass;
  else if (kind == MV_THROW) at = !a && b < 3 ? l.thrw + b : -1;
  else if (kind == MV_GIVE) at = !a && b < g.cards ? l.give + b : -1;
  else if (kind > MV_ACT && kind <= MV_ACT + PF_PAP_ACTIONS) {
    int i = act_place(&g, kind - MV_ACT, a, b);
    at = i < 0 ? -1 : l.act[kind - MV_ACT] + i;
  }
  return at < count ? at : -1;
}

pf_move pap_action_move(const void *vs, int x) {
  learn_shape g = shape_of_state(vs);
  learn_layout l;
  int count = layout_of(&g, &l), n = g.n;
  if (x < 0 || x >= count) return PF_NO_MOVE;
  if (x < l.point) return MOVE(MV_PLACE, (x - l.place) / n, (x - l.place) % n);
  if (x < l.pass) return MOVE(MV_POINT, 0, x - l.point == n ? EMPTY : x - l.point);
  if (x == l.pass) return MOVE(MV_PASS, 0, 0);
  if (x < l.give) return MOVE(MV_THROW, 0, x - l.thrw);
  if (x < l.act[1]) return MOVE(MV_GIVE, 0, x - l.give);
  int kind = 1;
  while (x >= l.act[kind + 1]) kind++;
  int i = x - l.act[kind];
  switch (PAP_ACTS[kind].arg) {
  case 'm': return MOVE(MV_ACT + kind, 0, i == n ? EMPTY : i);
  case 'w':
  case 'o': return MOVE(MV_ACT + kind, i / n, i % n);
  case 'c': return MOVE(MV_ACT + kind, i, 0);
  case 's': return MOVE(MV_ACT + kind, i / g.cards, i % g.cards);
  default: return MOVE(MV_ACT + kind, 0, i); /* none (i is 0), a pile, a row card, a colour */
  }
}

/* The length bound, round by round (N players, C cards, D drawn at most, as above).
 *   Rounds: each draws 2N cards or more (PAP-3, Draw More adds), or all that are left, and a round
 *     that begins with the deck empty ends the game (PAP-7): at most ceil(C / 2N) rounds.
 *   Placing: a round's piles hold its D cards or fewer; a pile of n cards split (PAP-5) is placed
 *     again on at least two piles at the next level, each smaller, so its cards are placed at
 *     most P(n) = n + P(n - 1) = n(n + 1)/2 - 1 more times: at most D + P(D) = D(D + 3)/2 - 1
 *     placements (P is superadditive: one pile of all is the worst).
 *   Pointing: each level is pointed at once by at most N seats; a level is level 0 or a split,
 *     and splits are at most D - 1 (each leaves two piles or more): at most N x D moves.
 *   With actions (PAP-9) a seat uses one action a round: at most N of them, so at most N Redos,
 *     each placing and pointing the round again (E = N + 1 times the two above), and at most N
 *     Random (3 throws of N seats each) and Trades (N - 1 gives) or Switches (1). A window asks
 *     each seat at most once between two actions, so passes are at most N x (windows + N), the
 *     windows being one before the draw and, each time, one before pointing and one a level.
 * So a round is at most E (D(D + 3)/2 - 1 + N D) + N (1 + E (1 + D) + N) + N + 3 N^2 + N (N - 1)
 * steps with actions, D(D + 3)/2 - 1 + N D without; missions and police only end a game sooner or
 * leave seats out. */
long pap_max_length(int players, const pf_options *o) {
  learn_shape g = shape_of(players, o->v[OPT_POLICE], o->v[OPT_SHY], o->v[OPT_ACTIONS]);
  long n = players, d = g.draw, rounds = (g.cards + 2 * n - 1) / (2 * n), epoch = d * (d + 3) / 2 - 1 + n * d;
  if (!g.actions) return rounds * epoch;
  long e = n + 1;
  return rounds * (e * epoch + n * (1 + e * (1 + d) + n) + n + RPS_THROWS * n * n + n * (n - 1));
}
