/*
 * ismcts.c - Information Set Monte Carlo Tree Search, single observer (SO-ISMCTS: Cowling, Powley
 * and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012).
 *
 * One tree per choice, rooted at the bot's information set. Each iteration determinizes a copy of
 * the position for the bot's seat (game.h: a sample of everything the seat cannot see, the
 * game's future chance included), then walks down the tree along moves that are legal in that
 * sample: a node's children are every move ever tried there, in any sample, and only those legal
 * now compete, by UCB over availability:
 *     mean reward + c * sqrt(ln(times available) / visits).
 * At the first node with a legal move never tried it adds one child, plays the game out (random
 * moves, or the game's rule of thumb) and adds each seat's share of the win (1/k to each of k
 * winners) to the nodes the seat moved into. The move played is the root's most visited child.
 *
 * Two enhancements, both settings: the game's rule of thumb (rate_moves, when it has one) guides
 * the tree as a progressive bias (Chaslot et al., 2008): the untried move it likes best is added
 * first, and a child's UCB gets bias * prior / (1 + visits), its prior being its rating scaled
 * 0..1 among the legal moves. And playouts stop at the end of the deal in progress (horizon=deal)
 * when the game goes on after it, scored by the points each seat gained since the iteration
 * began, so that the hands of a long match are not played out for every move.
 *
 * What a game needs for this: determinize (canonical, game.h), chance_sample where chance moves,
 * and the required current_deal and scores (for the horizon). Nothing else is asked of a game:
 *   - chance moves are not tree nodes: the determinization fixed the generator, so the walk
 *     draws them (each sample sees its own outcomes) and goes on;
 *   - several moves per turn and out-of-turn answers are nodes of whichever seat is to move;
 *   - a simultaneous choice (PAP-4) is asked seat by seat, and a seat's determinization
 *     resamples the choices of the seats before it, so the bot never sees them. Inside the tree
 *     a later seat's node still follows an earlier seat's choice: as in every single-observer
 *     search, the opponents are modelled as if they saw it (pessimistic, never a leak).
 *
 * Everything is integer arithmetic (rewards in 1/PF_WIN_UNIT, the logarithm in fixed point), so the
 * search is the same on every machine and compiler, as `pilfer bench` requires. The tree is
 * preallocated once per bot (iters + 1 nodes): no allocation per move or iteration.
 */
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "bots/bot.h"
#include "core/clock.h"

/* A win shared by k seats gives each 1/k: in units of 1/PF_WIN_UNIT, exact. */
#define UNIT ((uint32_t)PF_WIN_UNIT)
#define MAX_NODES (1u << 20) /* a time-limited search stops growing its tree here */
#define HASH 1024            /* >= 2 * PF_MAX_MOVES */

typedef struct node {
  pf_move move;                  /* the move into this node */
  int32_t parent, child, next;   /* first child, next sibling; -1 for none */
  int16_t seat;                  /* the seat that made the move (-1 at the root) */
  uint16_t prior;                /* the rule of thumb's opinion of the move, 0..65535 */
  uint32_t visits, avail;        /* visits, and times it was legal when its parent was walked */
  uint64_t reward;               /* sum of the seat's rewards, in 1/UNIT */
} node;

typedef struct search {
  node *nodes;
  uint32_t nnodes, cap;
  char *det;                     /* the determinized copy walked in one iteration */
  uint32_t hkey[HASH], hstamp[HASH];
  uint16_t hidx[HASH];
  uint32_t stamp;
  uint32_t tried[PF_MAX_MOVES];  /* == stamp: the legal move of that index has a child */
} search;

enum { S_ITERS, S_TIME, S_C, S_PLAYOUT, S_HORIZON, S_BIAS };
static const char *const PLAYOUTS[] = {"random", "greedy", NULL};
static const char *const HORIZONS[] = {"deal", "game", NULL};
static const pf_bot_setting SETTINGS[] = {
    {"iters", 1, NULL, 1000, 1, 100000000, "search iterations per move"},
    {"time", 1, NULL, 0, 0, 3600000, "also stop after this many milliseconds (0: no time limit)"},
    {"c", 1000, NULL, 700, 0, 10000, "the exploration constant of UCB"},
    {"playout", 1, PLAYOUTS, 0, 0, 1, "how playouts choose moves: uniformly, or by greedy's rule of thumb"},
    {"horizon", 1, HORIZONS, 0, 0, 1,
     "where playouts stop: at the end of the deal in progress (scored by the points each seat "
     "gained since the search began), or of the game"},
    {"bias", 1000, NULL, 10000, 0, 100000,
     "weight of the game's rule of thumb (greedy's) in the tree: tried first, and worth this much "
     "over 1 + visits (progressive bias); 0: none"},
};

/* ------------------------------------------------------------------------------------------ */
/* Fixed-point arithmetic                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* log2(x) * 2^32 for x >= 1, bit by bit from the square of the mantissa (exact to 2^-32). */
static uint64_t log2_q32(uint32_t x) {
  int e = 31;
  while (!(x >> e)) e--;
  uint64_t m = ((uint64_t)x << 30) >> e; /* x / 2^e in [1, 2), 30 fraction bits */
  uint64_t r = (uint64_t)e << 32;
  for (int b = 31; b >= 0; b--) {
    m = (m * m) >> 30;
    if (m >= (2ull << 30)) {
      m >>= 1;
      r |= 1ull << b;
    }
  }
  return r;
}

#define LN_TABLE 65536
static uint64_t ln_table[LN_TABLE]; /* ln(a) * 2^32 */
static pthread_once_t ln_once = PTHREAD_ONCE_INIT;

/* ln 2 * 2^32, rounded. */
#define LN2_Q32 2977044472ull

static uint64_t ln_q32_slow(uint32_t a) { return ((log2_q32(a) >> 8) * LN2_Q32) >> 24; }

static void ln_init(void) {
  for (uint32_t a = 1; a < LN_TABLE; a++) ln_table[a] = ln_q32_slow(a);
}

static inline uint64_t ln_q32(uint32_t a) { return a < LN_TABLE ? ln_table[a] : ln_q32_slow(a); }

/* floor(sqrt(x)), exact: the double's square root (correctly rounded by IEEE 754) corrected. */
static inline uint64_t isqrt(uint64_t x) {
  uint64_t r = (uint64_t)sqrt((double)x);
  while (r * r > x) r--;
  while ((r + 1) * (r + 1) <= x) r++;
  return r;
}

/* UCB of a child, in 1/(UNIT * 65536) of a win, with the progressive bias of its prior. */
static inline uint64_t ucb(const node *n, uint64_t c_milli, uint64_t bias_milli) {
  uint64_t mean = (n->reward << 16) / n->visits;
  uint64_t explore = c_milli * UNIT * isqrt(ln_q32(n->avail) / n->visits) / 1000;
  uint64_t bias = bias_milli * UNIT * n->prior / 1000 / (n->visits + 1);
  return mean + explore + bias;
}

/* ------------------------------------------------------------------------------------------ */
/* The search                                                                                 */
/* ------------------------------------------------------------------------------------------ */

/* The working memory: the tree and a scratch state, allocated once (pf_bot_memory, zeroed: no
 * stamp is set yet). */
static search *search_memory(pf_bot *bot, const pf_game *g, uint32_t cap) {
  size_t head = (sizeof(search) + 63) & ~(size_t)63;
  size_t states = (g->state_size + 63) & ~(size_t)63;
  char *mem = pf_bot_memory(bot, head + 2 * states + (size_t)cap * sizeof(node));
  search *s = (search *)mem;
  s->det = mem + head;
  s->nodes = (node *)(mem + head + 2 * states);
  s->nodes = (node *)(mem + head + 2 * states);
  s->cap = cap;
  s->nnodes = 0;
  return s;
}

static int32_t add_node(search *s, int32_t parent, pf_move m, int seat, uint16_t prior) {
  if (s->nnodes == s->cap) return -1;
  int32_t i = (int32_t)s->nnodes++;
  node *n = &s->nodes[i];
  *n = (node){.move = m, .parent = parent, .child = -1, .next = -1, .seat = (int16_t)seat, .prior = prior, .avail = 1};
  if (parent >= 0) {
    n->next = s->nodes[parent].child;
    s->nodes[parent].child = i;
  }
  return i;
}

/* Indexes the n legal moves for lookup by code. */
static void hash_moves(search *s, const pf_move *moves, int n) {
  if (++s->stamp == 0) { /* wrapped around: forget every old stamp */
    memset(s->hstamp, 0, sizeof s->hstamp);
    memset(s->tried, 0, sizeof s->tried);
    s->stamp = 1;
  }
  for (int i = 0; i < n; i++) {
    uint32_t h = (moves[i] * 2654435761u) >> 22;
    while (s->hstamp[h] == s->stamp) h = (h + 1) & (HASH - 1);
    s->hstamp[h] = s->stamp;
    s->hkey[h] = moves[i];
    s->hidx[h] = (uint16_t)i;
  }
}

/* The index of move m among the hashed legal moves, or -1. */
static inline int hash_find(const search *s, pf_move m) {
  uint32_t h = (m * 2654435761u) >> 22;
  for (; s->hstamp[h] == s->stamp; h = (h + 1) & (HASH - 1))
    if (s->hkey[h] == m) return s->hidx[h];
  return -1;
}

/* A move for a playout: uniformly random, or the game's rule of thumb when asked for and given. */
static pf_move playout_move(pf_bot *bot, const pf_game *g, const void *st, pf_move *moves, int n, bool greedy) {
  int64_t rating[PF_MAX_MOVES];
  if (greedy && n > 1 && pf_rate_moves(g, st, moves, n, rating)) return moves[pf_bot_best(bot, rating, n)];
  return moves[pf_rng_below(&bot->rng, (uint32_t)n)];
}

/* Each seat's reward, in 1/UNIT: its share of the win when the game is over. At a horizon cut
 * (the deal in progress ended, the game goes on), what counts is the points each seat gained
 * since the search began, which add up to the match: a seat's reward is 1/2 plus its gain's lead
 * over the others' mean gain, over twice the gains' total size, so 1 for taking every point and
 * 1/2 when it gains as the others do (higher scores are taken as better, as in every game with
 * more than one deal). */
static void rewards(const pf_game *g, const void *d, int players, bool cut, const int *before, uint64_t *share) {
  memset(share, 0, sizeof share[0] * PF_MAX_PLAYERS);
  if (cut) {
    int64_t gain[PF_MAX_PLAYERS], sum = 0, size = 0;
    int now[PF_MAX_PLAYERS];
    g->scores(d, now);
    for (int p = 0; p < players; p++) {
      gain[p] = now[p] - before[p];
      sum += gain[p];
      size += gain[p] < 0 ? -gain[p] : gain[p];
    }
    for (int p = 0; p < players; p++) {
      int64_t lead = (players - 1) * gain[p] - (sum - gain[p]); /* (players - 1) times the lead */
      share[p] = size && players > 1 ? (uint64_t)((int64_t)UNIT / 2 + (int64_t)UNIT * lead / (2 * (players - 1) * size))
                                     : UNIT / 2;
    }
    return;
  }
  int seats[PF_MAX_PLAYERS], k = g->winners(d, seats);
  for (int i = 0; i < k; i++) share[seats[i]] = UNIT / (uint32_t)k;
}

/* The untried move to add (its index among the n legal moves, not marked tried): with a bias, the
 * one the game's rule of thumb likes best, with its prior (its rating scaled between the worst and
 * the best legal move's); else a uniformly random one. */
static int pick_untried(pf_bot *bot, search *s, const pf_game *g, const void *d, const pf_move *moves, int n,
                        int ntried, uint16_t *prior) {
  *prior = 0;
  int64_t rating[PF_MAX_MOVES];
  if (bot->set[S_BIAS] && pf_rate_moves(g, d, moves, n, rating)) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int i = 0; i < n; i++) {
      if (rating[i] < lo) lo = rating[i];
      if (rating[i] > hi) hi = rating[i];
    }
    for (int i = 0; i < n; i++)
      if (s->tried[i] == s->stamp) rating[i] = INT64_MIN; /* never the best of the untried */
    int best = pf_bot_best(bot, rating, n);
    if (hi > lo) *prior = (uint16_t)((uint64_t)(rating[best] - lo) * 65535 / (uint64_t)(hi - lo));
    return best;
  }
  int k = (int)pf_rng_below(&bot->rng, (uint32_t)(n - ntried)), i = 0;
  while (s->tried[i] == s->stamp || k-- > 0) i++;
  return i;
}

/* The children of `at` legal in this sample compete by UCB (each counted available); returns the
 * chosen child, or -1 when a legal move has no child yet, with that move in *untried. */
static int32_t select_child(pf_bot *bot, search *s, const pf_game *g, const void *d, int32_t at, const pf_move *moves,
                            int n, pf_move *untried, uint16_t *prior) {
  hash_moves(s, moves, n);
  int ntried = 0;
  for (int32_t ch = s->nodes[at].child; ch >= 0; ch = s->nodes[ch].next) {
    int k = hash_find(s, s->nodes[ch].move);
    if (k >= 0) s->tried[k] = s->stamp, ntried++;
  }
  if (ntried < n) {
    *untried = moves[pick_untried(bot, s, g, d, moves, n, ntried, prior)];
    return -1;
  }
  uint64_t c = (uint64_t)bot->set[S_C], bias = (uint64_t)bot->set[S_BIAS], best_ucb = 0;
  int32_t best = -1;
  for (int32_t ch = s->nodes[at].child; ch >= 0; ch = s->nodes[ch].next) {
    node *cn = &s->nodes[ch];
    if (hash_find(s, cn->move) < 0) continue;
    cn->avail++;
    uint64_t u = ucb(cn, c, bias);
    if (best < 0 || u > best_ucb) best = ch, best_ucb = u;
  }
  return best;
}

/* One iteration from the root: determinize, select and expand, play out, back up. */
static void iterate(pf_bot *bot, search *s, const pf_game *g, const void *root_state, int seat) {
  void *d = s->det;
  pf_move moves[PF_MAX_MOVES];
  bool greedy = bot->set[S_PLAYOUT] == 1, horizon = bot->set[S_HORIZON] == 0, expanded = false, cut = false;
  pf_deal deal;
  int before[PF_MAX_PLAYERS];
  memcpy(d, root_state, g->state_size);
  g->determinize(d, seat, &bot->rng);
  int deal0 = horizon ? g->current_deal(d, &deal) : 0;
  if (horizon) g->scores(d, before);
  int32_t at = 0;
  for (int who; (who = g->to_move(d)) != PF_NOBODY;) {
    bot->stats.moves++;
    if (who == PF_CHANCE) {
      pf_chance_sample(g, d, NULL);
    } else {
      int n = g->legal(d, moves);
      pf_move m = 0;
      if (expanded) { /* the playout */
        m = playout_move(bot, g, d, moves, n, greedy);
      } else {
        uint16_t prior = 0;
        int32_t child = select_child(bot, s, g, d, at, moves, n, &m, &prior);
        if (child >= 0) {
          at = child;
          m = s->nodes[child].move;
        } else { /* expand: the first untried move of this walk, then the playout */
          child = add_node(s, at, m, who, prior);
          if (child >= 0) at = child, bot->stats.nodes++;
          expanded = true;
        }
      }
      g->apply(d, m);
    }
    if (horizon && g->current_deal(d, &deal) != deal0) {
      cut = true;
      break;
    }
  }
  uint64_t share[PF_MAX_PLAYERS];
  rewards(g, d, bot->players, cut, before, share);
  for (; at > 0; at = s->nodes[at].parent) {
    node *n = &s->nodes[at];
    n->visits++;
    n->reward += share[n->seat];
  }
  s->nodes[0].visits++;
  bot->stats.iterations++;
}

static pf_move ismcts_choose(pf_bot *bot, const pf_game *g, const void *st) {
  pf_move moves[PF_MAX_MOVES];
  int n = g->legal(st, moves);
  bot->stats = (pf_bot_stats){0};
  if (n == 1) return moves[0];
  pthread_once(&ln_once, ln_init);
  int seat = g->to_move(st);
  int64_t iters = bot->set[S_ITERS], time_ms = bot->set[S_TIME];
  uint32_t cap = iters + 1 < MAX_NODES ? (uint32_t)iters + 1 : MAX_NODES;
  search *s = search_memory(bot, g, cap);
  add_node(s, -1, 0, -1, 0);
  double deadline = time_ms ? pf_clock_seconds() + (double)time_ms / 1000 : 0;
  for (int64_t it = 0; it < iters; it++) {
    iterate(bot, s, g, st, seat);
    if (time_ms && (it & 15) == 15 && pf_clock_seconds() >= deadline) break;
  }
  /* The most visited root child; ties go to the more rewarded, then to the first legal move. */
  int best = 0;
  const node *bn = NULL;
  for (int i = 0; i < n; i++)
    for (int32_t ch = s->nodes[0].child; ch >= 0; ch = s->nodes[ch].next) {
      const node *cn = &s->nodes[ch];
      if (cn->move != moves[i]) continue;
      if (!bn || cn->visits > bn->visits || (cn->visits == bn->visits && cn->reward > bn->reward)) best = i, bn = cn;
    }
  return moves[best];
}

const pf_bot_kind pf_bot_ismcts = {
    "ismcts",
    "Information Set Monte Carlo Tree Search over determinizations for its seat",
    SETTINGS,
    sizeof SETTINGS / sizeof SETTINGS[0],
    ismcts_choose,    NULL,
    NULL,
    false,
};
