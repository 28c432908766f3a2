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
 * Two more settings are measuring instruments, not players (bot.h, pf_bot_allow_instruments):
 * see=hands determinizes for PF_VIEW_HANDS (every seat's hand kept, only what no seat sees
 * resampled), and see=all searches the true position itself, the deck's order and the future
 * included (no determinization: its generator is the game's own). They bound what reading the
 * others' hands, and knowing everything, would gain over the fair search; only sim and analyze
 * accept them, and their results say "not fair".
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
 * Everything is integer arithmetic (rewards in 1/PF_WIN_UNIT, the logarithm in fixed point, the
 * floor of a square root exact from correctly rounded IEEE 754 operations), so the search is the
 * same on every machine and compiler, as `pilfer bench` requires. The tree is
 * preallocated once per bot (iters + 2 nodes, 4 slots of 32 bytes each for the children's blocks
 * and 8 keys of 4 bytes for their indexes, touched only as they are used): no allocation per move
 * or iteration.
 *
 * On several threads (threads=T) the search is root-parallel (Chaslot, Winands and van den Herik,
 * "Parallel Monte-Carlo Tree Search", 2008): T trees, each grown by one thread over its own
 * determinizations with its own generator and 1/T of the iterations, the root's visits added up
 * move by move. Nothing is shared but the position and the settings, read only, so there is no
 * lock, and a seed and T make one choice. A shared tree with virtual loss was measured against it
 * (docs/cli.md, "Parallel search") and did no better.
 */
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "bots/bot.h"
#include "bots/solve.h"
#include "core/clock.h"
#include "core/view.h"

/* A win shared by k seats gives each 1/k: in units of 1/PF_WIN_UNIT, exact. */
#define UNIT ((uint32_t)PF_WIN_UNIT)
#define MAX_NODES (1u << 20) /* a time-limited search stops growing its tree here */
#define HASH 1024            /* >= 2 * PF_MAX_MOVES */

/* A node as a tree step reads it: 32 bytes, two to a cache line. A node's children lie side by
 * side in the slots (oldest first): a node's block of slots holds a power of two of them, and when
 * it is full the children move to a block twice its size at the end of the slots used (add_node).
 * A node with more children than legal moves (an opponent's, whose hands vary from sample to
 * sample) has its legal moves' children looked up in its block's index (key), so that a step
 * never reads the children whose moves are not legal in this sample. What only the update reads
 * is kept apart (stat, at the node's id, which never moves), and the walk's path replaces a parent
 * link. */
typedef struct node {
  pf_move move;                  /* the move into this node */
  int32_t child;                 /* the slot of its first child (-1: none yet) */
  uint32_t id;                   /* its number in order of creation: its stat's index */
  uint32_t visits, avail;        /* visits, and times it was legal when its parent was walked */
  uint16_t at;                   /* its move's index among its parent's legal moves when last seen */
  uint16_t nchild;               /* its children, at slots child .. child + nchild - 1 */
  uint64_t value;                /* its UCB but the exploration term: mean reward and progressive
                                    bias (ucb_value), updated with visits */
} node;

/* A block's index of its children by move: a block of c slots, at slot b, has 2c keys, at 2b in
 * the keys (so that blocks never share one), probed linearly from the move's hash, with the
 * child's place in the block and a part of the move's hash as a fingerprint, so that a lookup
 * reads the child itself only when it is likely the one. */
typedef struct key {
  uint16_t index, print; /* index NO_CHILD: an empty key */
} key;
#define NO_CHILD 0xFFFFu

/* What the update alone reads of a node: at the node's id. */
typedef struct stat {
  uint64_t reward;               /* sum of the seat's rewards, in 1/UNIT */
  uint16_t prior;                /* the rule of thumb's opinion of the move, 0..65535 */
  int16_t seat;                  /* the seat that made the move (-1 at the root) */
} stat;

/* A node's children never outgrow a block of this many: a move tried there later has no node
 * (as when the tree is full). Only a node of a seat whose moves vary across samples could come
 * near, after tens of thousands of different moves. */
#define MAX_CHILDREN 32768

/* Slots for cap nodes: a node with k children holds a block of fewer than 2k slots, and left
 * behind blocks of 1, 2, ..., fewer than 2k slots in all as they grew, so fewer than 4k; the root
 * has one. */
#define SLOTS(cap) (4 * (size_t)(cap))

/* What every thread of one choice shares, read only. */
typedef struct task {
  const pf_game *g;
  const void *root;              /* the position, never written */
  int seat, players;
  int observer;                  /* whom the determinizations are for: the seat, PF_VIEW_HANDS, or
                                  * PF_VIEW_ALL for none (see=all: the root itself) */
  const int64_t *set;            /* the bot's settings */
  const char *particles;         /* infer: the weighted positions to draw determinizations from */
  const uint64_t *cumulative;    /* their weights added up (cumulative[np - 1] the total) */
  int np;                        /* how many; 0: determinize uniformly */
  double deadline;               /* of the time limit; 0: none */
  double budget;                 /* with clock=cpu: the time limit, in each thread's own CPU seconds */
} task;

/* One thread's search: its tree, its scratch state and generator, what it cost. */
typedef struct search {
  const task *t;
  node *nodes;                   /* the slots (SLOTS(cap)), the root at 0 */
  stat *stats_of;                /* of each node, by its id */
  int32_t *path;                 /* the slots of this iteration's walk, root first */
  key *keys;                     /* the blocks' indexes: two a slot */
  uint32_t nnodes, cap;          /* nodes made, and at most */
  uint32_t nslots;               /* slots used */
  uint32_t ln_lim;               /* ln_table is filled below it */
  int64_t iters;                 /* its share of the iterations */
  pf_rng rng;
  pf_bot_stats stats;
  char *det;                     /* the determinized copy walked in one iteration */
  uint32_t stamp;                /* of this tree step: marks the hash table's entries and tried[] */
  struct { uint32_t stamp, key; uint16_t idx; } hash[HASH]; /* legal moves by code: one probe, one line */
  uint32_t tried[PF_MAX_MOVES];  /* == stamp: the legal move of that index has a child */
} search;

enum { S_ITERS, S_TIME, S_C, S_PLAYOUT, S_HORIZON, S_BIAS, S_THREADS, S_EPS, S_CUTOFF, S_SOLVE, S_CLOCK, S_SEE, S_INFER };
static const char *const PLAYOUTS[] = {"random", "greedy", NULL};
static const char *const HORIZONS[] = {"deal", "game", NULL};
static const char *const CLOCKS[] = {"wall", "cpu", NULL};
enum { SEE_FAIR, SEE_HANDS, SEE_ALL };
static const char *const SEES[] = {"fair", "hands", "all", NULL};
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
    {"threads", 1, NULL, 1, 1, PF_BOT_MAX_THREADS,
     "threads searching one move, each its own tree over its own determinizations, the iterations "
     "shared out and the root's visits added up (root parallelism)"},
    {"eps", 1000, NULL, 0, 0, 1000,
     "in random playouts, the share of moves chosen by greedy's rule of thumb instead (epsilon-greedy); "
     "0: none"},
    {"cutoff", 1, NULL, 0, 0, 100000,
     "playouts stop after this many moves, scored as at the end of a deal by the points each seat "
     "gained since the search began; 0: no cutoff"},
    {"solve", 1, NULL, 0, 0, 64,
     "in 2-player games, search this many determinizations exactly to the end of the deal when no "
     "deal is still to come in it and the positions are few (bots/solve.h), and play the best move "
     "on average; 0: never"},
    {"clock", 1, CLOCKS, 0, 0, 1,
     "what time counts: the wall clock, or each search thread's processor time (so that a budget "
     "measures the bot's work, not the machine's load)"},
    {"see", 1, SEES, SEE_FAIR, 0, 2,
     "what the search may see: its seat's information set (fair); every seat's hand but not the "
     "stock or the future (hands: the hand-reading ceiling); or the true state (all: the "
     "clairvoyant ceiling). hands and all are measuring instruments, for sim and analyze only"},
    {"infer", 1, NULL, 0, 0, 16,
     "read the others' last moves: determinizations weighted by how likely each made the move it "
     "was seen to make, under a softmax of greedy's ratings in which the best move is 2^infer times "
     "as likely as the worst (particles carried from choice to choice); 0: uniform determinizations"},
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
/* For 0 < a < ln_filled: ln(a) * 2^32, and its square root rounded (IEEE 754), side by side. */
static struct { uint64_t q32; double root; } ln_table[LN_TABLE];
static double inv_root[LN_TABLE];   /* 1 / sqrt(v), rounded twice, for 0 < v < ln_filled */
static uint32_t ln_filled = 1;      /* under ln_lock; entries below it are never written again */
static pthread_mutex_t ln_lock = PTHREAD_MUTEX_INITIALIZER;

/* ln 2 * 2^32, rounded. */
#define LN2_Q32 2977044472ull

static uint64_t ln_q32_slow(uint32_t a) { return ((log2_q32(a) >> 8) * LN2_Q32) >> 24; }

/* Fills the table below n (at most LN_TABLE) and returns how far it may be read: as far as a search
 * needs (a child is available once per iteration at most), not the whole table for a short one. */
static uint32_t ln_fill(uint64_t n) {
  if (n > LN_TABLE) n = LN_TABLE;
  pthread_mutex_lock(&ln_lock);
  for (; ln_filled < n; ln_filled++) {
    ln_table[ln_filled].q32 = ln_q32_slow(ln_filled);
    ln_table[ln_filled].root = sqrt((double)ln_table[ln_filled].q32);
    inv_root[ln_filled] = 1 / sqrt((double)ln_filled);
  }
  pthread_mutex_unlock(&ln_lock);
  return (uint32_t)n;
}

/* floor(sqrt(floor(x / v))), which is floor(sqrt(x / v)), exact for x < 2^38 (every x of
 * ucb_explore is: ln(2^32) * 2^32) and 1 <= v < 2^32, from two IEEE 754 operations, each correctly
 * rounded, so off by less than 2^-52 of the root in all. When x / v >= k^2 (k the floor), the
 * rounded quotient and root are at least k, rounding being monotonic and k^2 exact; when x / v <
 * (k + 1)^2, it is at most (k + 1)^2 - 1/v, whose root lies below k + 1 by more than 1/(2 (k + 1)^2
 * v) of it, and (k + 1)^2 v <= x + 2 sqrt(x v) + v < 2^39: more than 2^-40, so the rounded root
 * stays below k + 1. Truncation is then the floor. */
static inline uint64_t isqrt_quotient(uint64_t x, uint32_t v) { return (uint64_t)(int64_t)sqrt((double)x / (double)v); }

/* The same of x = ln(a) * 2^32, from the tables below lim (what ln_fill returned): the root of x
 * times the inverse root of v is off by less than 2^-51 of it, far less than the 2^-40 by which a
 * root that is not an integer is from one (isqrt_quotient), so that truncation is the floor but
 * where the root is an integer k and the product came out a little below it: then (k' + 1)^2 v
 * <= x for k' the truncation, and k' + 1 the floor. That product is at most (k + 1)^2 v < 2^39. */
static inline uint64_t isqrt_ln_quotient(uint32_t a, uint32_t v, uint32_t lim) {
  if (a >= lim || v >= lim) return isqrt_quotient(ln_q32_slow(a), v);
  uint64_t k = (uint64_t)(int64_t)(ln_table[a].root * inv_root[v]); /* < 2^20: no test for 2^63 */
  return (k + 1) * (k + 1) * v <= ln_table[a].q32 ? k + 1 : k;
}

/* UCB of a child, in 1/(UNIT * 65536) of a win, with the progressive bias of its prior:
 *     mean + explore + bias,
 * the sum of ucb_value, which changes only with the node's visits and is kept in the node, and
 * ucb_explore, which changes with its availability too (modulo 2^64, as one sum would be). */
static inline uint64_t ucb_value(uint64_t reward, uint32_t visits, uint16_t prior, uint64_t bias_milli) {
  uint64_t mean = (reward << 16) / visits;
  uint64_t bias = bias_milli * UNIT * prior / 1000 / (visits + 1);
  return mean + bias;
}

static inline uint64_t ucb_explore(uint32_t avail, uint32_t visits, uint64_t c_milli, uint32_t lim) {
  uint64_t k = isqrt_ln_quotient(avail, visits, lim);
  /* c_milli * UNIT * k / 1000, without the division where c_milli * UNIT is a multiple of 1000
   * (the default c = 0.7 is: 700 * 27720 = 19404 * 1000), a test the same at every child. */
  return c_milli * UNIT % 1000 == 0 ? c_milli * UNIT / 1000 * k : c_milli * UNIT * k / 1000;
}

/* ------------------------------------------------------------------------------------------ */
/* The search                                                                                 */
/* ------------------------------------------------------------------------------------------ */

#define LINES(bytes) (((size_t)(bytes) + 63) & ~(size_t)63) /* rounded up to whole cache lines */

static void ismcts_close(pf_bot *bot);

/* The bytes of one search of cap nodes: its head, scratch state, tree (the nodes, their stats, a
 * path, the blocks' keys), each on its own cache lines, so that threads never share one. */
static size_t search_size(const pf_game *g, uint32_t cap) {
  return LINES(sizeof(search)) + LINES(g->state_size) + LINES(SLOTS(cap) * sizeof(node)) +
         LINES((size_t)cap * sizeof(stat)) + LINES((size_t)cap * sizeof(int32_t)) +
         LINES(2 * SLOTS(cap) * sizeof(key));
}

/* The working memory of `threads` searches of cap nodes each, allocated once (pf_bot_memory,
 * zeroed: no stamp is set yet): search k is at k * search_size. A bot's settings fix threads and
 * cap, so every choice lays it out alike and each search's stamps carry over to the next. */
static char *search_memory(pf_bot *bot, const pf_game *g, int threads, uint32_t cap, const task *t, size_t extra,
                           size_t lead) {
  size_t each = search_size(g, cap), need = lead + (size_t)threads * each + extra + 63;
  if (lead && bot->memsize < need) ismcts_close(bot); /* the belief's views, before the memory moves */
  char *mem = pf_bot_memory(bot, need);
  mem += (64 - (uintptr_t)mem % 64) % 64 + lead;
  for (int k = 0; k < threads; k++) {
    search *s = (search *)(mem + (size_t)k * each);
    char *p = (char *)s + LINES(sizeof(search));
    s->t = t;
    s->det = p, p += LINES(g->state_size);
    s->nodes = (node *)p, p += LINES(SLOTS(cap) * sizeof(node));
    s->stats_of = (stat *)p, p += LINES((size_t)cap * sizeof(stat));
    s->path = (int32_t *)p, p += LINES((size_t)cap * sizeof(int32_t));
    s->keys = (key *)p;
    s->cap = cap;
    s->nnodes = s->nslots = 0;
    s->stats = (pf_bot_stats){0};
  }
  return mem;
}

/* The slots of the block of a node with k > 0 children: the power of two at or above k. */
static inline uint32_t block_slots(uint32_t k) { return k == 1 ? 1 : 2u << (31 - __builtin_clz(k - 1)); }

/* The hash of move m, its key's fingerprint in its high 16 bits. */
static inline uint64_t move_hash(pf_move m) { return (uint64_t)m * 0x9E3779B97F4A7C15u; }

/* The child of move m of the node at slot `at`: its place in the node's block, or -1 for none. */
static inline int32_t child_of(const search *s, int32_t at, pf_move m) {
  const node *p = &s->nodes[at];
  const key *ix = &s->keys[2 * (uint32_t)p->child];
  uint32_t mask = 2 * block_slots(p->nchild) - 1;
  uint64_t h = move_hash(m);
  uint16_t print = (uint16_t)(h >> 48);
  for (uint32_t i = (uint32_t)h & mask; ix[i].index != NO_CHILD; i = (i + 1) & mask)
    if (ix[i].print == print && s->nodes[p->child + ix[i].index].move == m) return ix[i].index;
  return -1;
}

/* Adds child k (its node in place) to the index of the block at slot b of c slots. */
static void key_add(search *s, int32_t b, uint32_t c, uint32_t k) {
  key *ix = &s->keys[2 * (uint32_t)b];
  uint32_t mask = 2 * c - 1;
  uint64_t h = move_hash(s->nodes[b + (int32_t)k].move);
  uint32_t i = (uint32_t)h & mask;
  while (ix[i].index != NO_CHILD) i = (i + 1) & mask;
  ix[i] = (key){.index = (uint16_t)k, .print = (uint16_t)(h >> 48)};
}

/* A new child of the node at slot `parent` (-1: the root); returns its slot, or -1 when the tree is
 * full. A full block of children moves to one twice its size: only the parent points at it, and
 * the parent is in its own parent's block, so every slot on the walk's path stays put. */
static int32_t add_node(search *s, int32_t parent, pf_move m, int seat, uint16_t prior, uint16_t at) {
  if (s->nnodes == s->cap) return -1;
  int32_t i = 0;
  if (parent >= 0) {
    node *p = &s->nodes[parent];
    uint32_t k = p->nchild;
    if (k == MAX_CHILDREN) return -1;
    uint32_t c = block_slots(k + 1);
    if ((k & (k - 1)) == 0) { /* 0, or a full block of k: a block of max(1, 2k) at the end */
      int32_t b = (int32_t)s->nslots;
      s->nslots += c;
      if (k) memcpy(&s->nodes[b], &s->nodes[p->child], k * sizeof(node));
      p->child = b;
      memset(&s->keys[2 * (uint32_t)b], 0xFF, 2 * c * sizeof(key));
      for (uint32_t j = 0; j < k; j++) key_add(s, b, c, j);
    }
    i = p->child + (int32_t)k;
    p->nchild = (uint16_t)(k + 1);
  } else {
    s->nslots = 1;
  }
  uint32_t id = s->nnodes++;
  s->nodes[i] = (node){.move = m, .child = -1, .id = id, .avail = 1, .at = at};
  if (parent >= 0) key_add(s, s->nodes[parent].child, block_slots(s->nodes[parent].nchild), s->nodes[parent].nchild - 1);
  s->stats_of[id] = (stat){.prior = prior, .seat = (int16_t)seat};
  return i;
}

/* Indexes the n legal moves for lookup by code (marked with this step's stamp). */
static void hash_moves(search *s, const pf_move *moves, int n) {
  for (int i = 0; i < n; i++) {
    uint32_t h = (moves[i] * 2654435761u) >> 22;
    while (s->hash[h].stamp == s->stamp) h = (h + 1) & (HASH - 1);
    s->hash[h].stamp = s->stamp;
    s->hash[h].key = moves[i];
    s->hash[h].idx = (uint16_t)i;
  }
}

/* The index of move m among the hashed legal moves, or -1. */
static inline int hash_find(const search *s, pf_move m) {
  uint32_t h = (m * 2654435761u) >> 22;
  for (; s->hash[h].stamp == s->stamp; h = (h + 1) & (HASH - 1))
    if (s->hash[h].key == m) return s->hash[h].idx;
  return -1;
}

/* A move for a playout: uniformly random (drawn by the game's random_move when it has one, which
 * draws as listing the moves would), or the game's rule of thumb when asked for and given. */
static pf_move playout_move(search *s, const void *st, pf_move *moves, bool greedy) {
  const pf_game *g = s->t->g;
  int n;
  if (!greedy || !g->rate_moves) return pf_random_move(g, st, &s->rng, &n);
  int64_t rating[PF_MAX_MOVES];
  n = g->legal(st, moves);
  if (n > 1 && pf_rate_moves(g, st, moves, n, rating)) return moves[pf_bot_best(&s->rng, rating, n)];
  return moves[pf_rng_below(&s->rng, (uint32_t)n)];
}
/* ------------------------------------------------------------------------------------------ */
/* The search                                                                                 */
/* ------------------------------------------------------------------------------------------ */

/* Each seat's reward, in 1/UNIT: its share of the win when the game is over. At a cut (the deal
 * in progress ended and the game goes on, or the playout reached its cutoff), what counts is what
 * each seat gained in standing (game.h: its score, or the game's own measure where fewer points
 * win) since the search began, which adds up to the match: a seat's reward is 1/2 plus its gain's
 * lead over the others' mean gain, over twice the gains' total size, so 1 for taking every point
 * and 1/2 when it gains as the others do. */
void pf_search_rewards(const pf_game *g, const void *d, int players, bool cut, const int *before, uint64_t *share) {
  memset(share, 0, sizeof share[0] * PF_MAX_PLAYERS);
  if (cut) {
    int64_t gain[PF_MAX_PLAYERS], sum = 0, size = 0;
    int now[PF_MAX_PLAYERS];
    pf_standing(g, d, now);
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
static int pick_untried(search *s, const void *d, const pf_move *moves, int n, int ntried, uint16_t *prior) {
  *prior = 0;
  int64_t rating[PF_MAX_MOVES];
  if (s->t->set[S_BIAS] && pf_rate_moves(s->t->g, d, moves, n, rating)) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int i = 0; i < n; i++) {
      if (rating[i] < lo) lo = rating[i];
      if (rating[i] > hi) hi = rating[i];
    }
    for (int i = 0; i < n; i++)
      if (s->tried[i] == s->stamp) rating[i] = INT64_MIN; /* never the best of the untried */
    int best = pf_bot_best(&s->rng, rating, n);
    if (hi > lo) *prior = (uint16_t)((uint64_t)(rating[best] - lo) * 65535 / (uint64_t)(hi - lo));
    return best;
  }
  int k = (int)pf_rng_below(&s->rng, (uint32_t)(n - ntried)), i = 0;
  while (s->tried[i] == s->stamp || k-- > 0) i++;
  return i;
}

/* Whether child cn's move is among the n legal moves: at the index it had last time (a seat's own
 * nodes see the same moves in every sample), else looked up in the legal moves hashed once for
 * this step (*hashed). Its index is then cn->at. */
static inline bool child_legal(search *s, node *cn, const pf_move *moves, int n, bool *hashed) {
  if (cn->at < n && moves[cn->at] == cn->move) return true;
  if (!*hashed) hash_moves(s, moves, n), *hashed = true;
  int k = hash_find(s, cn->move);
  if (k < 0) return false;
  cn->at = (uint16_t)k;
  return true;
}

/* The children of `at` legal in this sample compete by UCB (each counted available); returns the
 * chosen child, or -1 when a legal move has no child yet, with its index in *untried. The first
 * pass finds the legal children (and marks their moves tried): when the node has more children
 * than there are legal moves (an opponent's, whose moves vary from sample to sample), it looks up
 * each legal move's child in the block's index; else it reads every child, checking its move as
 * child_legal does. Only when every legal move has a child are their UCBs taken, since an
 * expansion would not read them. A tie goes to the newest child (the last in its block). */
static int32_t select_child(search *s, const void *d, int32_t at, const pf_move *moves, int n, int *untried,
                            uint16_t *prior) {
  if (++s->stamp == 0) { /* wrapped around: forget every old stamp */
    memset(s->hash, 0, sizeof s->hash);
    memset(s->tried, 0, sizeof s->tried);
    s->stamp = 1;
  }
  int ntried = 0;
  int32_t legal[PF_MAX_MOVES]; /* the legal children's places in the block */
  int32_t first = s->nodes[at].child, nchild = s->nodes[at].nchild;
  if (nchild > n) {
    for (int i = 0; i < n; i++) {
      int32_t k = child_of(s, at, moves[i]);
      if (k < 0) continue;
      s->nodes[first + k].at = (uint16_t)i;
      s->tried[i] = s->stamp;
      legal[ntried++] = k;
    }
  } else {
    bool hashed = false;
    for (int32_t k = 0; k < nchild; k++) {
      node *cn = &s->nodes[first + k];
      if (!child_legal(s, cn, moves, n, &hashed)) continue;
      s->tried[cn->at] = s->stamp;
      legal[ntried++] = k;
    }
  }
  if (ntried < n) {
    *untried = pick_untried(s, d, moves, n, ntried, prior);
    return -1;
  }
  uint64_t c = (uint64_t)s->t->set[S_C], best_ucb = 0;
  int32_t best = -1;
  for (int i = 0; i < ntried; i++) {
    node *cn = &s->nodes[first + legal[i]];
    uint64_t u = cn->value + ucb_explore(++cn->avail, cn->visits, c, s->ln_lim);
    if (best < 0 || u > best_ucb || (u == best_ucb && legal[i] > best)) best = legal[i], best_ucb = u;
  }
  return first + best;
}

/* The rest of an iteration's game after the expansion: moves drawn by playout_move (the rule of
 * thumb's with greedy, or with probability eps/1000) and chance outcomes, to the end of the game
 * or, with a horizon, of deal deal0, or after cutoff moves of the seats (returns true: cut there).
 * Apart from the walk, so that its loop holds only what a simulated move needs. */
static bool playout(search *s, void *d, bool greedy, int64_t eps, int64_t cutoff, bool horizon, int deal0) {
  const pf_game *g = s->t->g;
  /* Uniform to the end: the game's random_playout, which draws as the loop below would, when the
   * game stops at the deal's end by itself (stop_at_deal_end, set by iterate) or no horizon asks. */
  if (g->random_playout && !greedy && !eps && !cutoff && (!horizon || g->stop_at_deal_end)) {
    long branching = 0;
    s->stats.moves += g->random_playout(d, &s->rng, &branching);
    return horizon && g->current_deal(d, NULL) != deal0;
  }
  int (*to_move)(const void *) = g->to_move;
  void (*apply)(void *, pf_move) = g->apply;
  int (*current_deal)(const void *, pf_deal *) = g->current_deal;
  /* A uniform move straight from the game's random_move when it has one (as pf_random_move). */
  pf_move (*random_move)(const void *, pf_rng *, int *) = g->random_move;
  bool rated = g->rate_moves != NULL;
  pf_move moves[PF_MAX_MOVES];
  long played = 0, chosen = 0;
  bool cut = false;
  for (int who, n; (who = to_move(d)) != PF_NOBODY;) {
    played++;
    if (who == PF_CHANCE) {
      pf_chance_sample(g, d, NULL);
    } else {
      bool rule = greedy || (eps && (int64_t)pf_rng_below(&s->rng, 1000) < eps);
      apply(d, !(rule && rated) && random_move ? random_move(d, &s->rng, &n) : playout_move(s, d, moves, rule));
      chosen++;
    }
    if ((horizon && current_deal(d, NULL) != deal0) || (cutoff && chosen >= cutoff)) {
      cut = true;
      break;
    }
  }
  s->stats.moves += played;
  return cut;
}

/* One iteration from the root: determinize, select and expand, play out, back up. */
static void iterate(search *s) {
  const task *t = s->t;
  const pf_game *g = t->g;
  void *d = s->det;
  pf_move moves[PF_MAX_MOVES];
  bool greedy = t->set[S_PLAYOUT] == 1, horizon = t->set[S_HORIZON] == 0, cut = false;
  int64_t eps = t->set[S_EPS], cutoff = t->set[S_CUTOFF];
  int before[PF_MAX_PLAYERS];
  if (t->np) { /* infer: a particle drawn by its weight, what no seat sees resampled */
    uint64_t x = pf_rng_next(&s->rng) % t->cumulative[t->np - 1];
    int k = 0;
    while (t->cumulative[k] <= x) k++;
    memcpy(d, t->particles + (size_t)k * LINES(g->state_size), g->state_size);
    g->determinize(d, PF_VIEW_HANDS, &s->rng);
  } else {
    memcpy(d, t->root, g->state_size);
    if (t->observer != PF_VIEW_ALL) g->determinize(d, t->observer, &s->rng);
  }
  if (horizon && g->stop_at_deal_end) g->stop_at_deal_end(d); /* never deal what is not played */
  int deal0 = horizon ? g->current_deal(d, NULL) : 0;
  if (horizon || cutoff) pf_standing(g, d, before);
  int32_t at = 0, depth = 0;
  for (int who; (who = g->to_move(d)) != PF_NOBODY;) {
    s->stats.moves++;
    bool expanded = false;
    if (who == PF_CHANCE) {
      pf_chance_sample(g, d, NULL);
    } else {
      int n = g->legal(d, moves);
      uint16_t prior = 0;
      int k = 0;
      int32_t child = select_child(s, d, at, moves, n, &k, &prior);
      pf_move m = child >= 0 ? s->nodes[child].move : moves[k];
      if (child < 0) { /* expand: the first untried move of this walk, then the playout */
        child = add_node(s, at, m, who, prior, (uint16_t)k);
        if (child >= 0) s->stats.nodes++;
        expanded = true;
      }
      if (child >= 0) {
        s->path[++depth] = at = child;
        /* What the next step and the update will read of it, fetched while the game moves. */
        const node *cn = &s->nodes[child];
        if (cn->nchild) __builtin_prefetch(&s->nodes[cn->child]), __builtin_prefetch(&s->keys[2 * (uint32_t)cn->child]);
        __builtin_prefetch(&s->stats_of[cn->id], 1);
      }
      g->apply(d, m);
    }
    if (horizon && g->current_deal(d, NULL) != deal0) {
      cut = true;
      break;
    }
    if (expanded) {
      cut = playout(s, d, greedy, eps, cutoff, horizon, deal0);
      break;
    }
  }
  uint64_t share[PF_MAX_PLAYERS];
  pf_search_rewards(g, d, t->players, cut, before, share);
  uint64_t bias = (uint64_t)t->set[S_BIAS];
  for (; depth > 0; depth--) {
    node *n = &s->nodes[s->path[depth]];
    stat *ns = &s->stats_of[n->id];
    n->visits++;
    ns->reward += share[ns->seat];
    n->value = ucb_value(ns->reward, n->visits, ns->prior, bias);
  }
  s->nodes[0].visits++;
  s->stats.iterations++;
}

/* One thread's search: its share of the iterations, or fewer when the time is up. */
static void *search_run(void *arg) {
  search *s = arg;
  add_node(s, -1, 0, -1, 0, 0);
  double cpu_end = s->t->budget ? pf_clock_thread_seconds() + s->t->budget : 0;
  for (int64_t it = 0; it < s->iters; it++) {
    iterate(s);
    if (s->t->deadline && (it & 15) == 15 &&
        (cpu_end ? pf_clock_thread_seconds() >= cpu_end : pf_clock_seconds() >= s->t->deadline))
      break;
  }
  return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* Inference (infer=B): what the others' moves say of their hands                             */
/* ------------------------------------------------------------------------------------------ */

/* The bot keeps, from one choice to its next, the position it chose at (prev) and its move, and
 * PARTICLES positions that its seat cannot tell from prev, each with a weight: how likely the
 * others were to have made the moves it saw them make, had the hidden cards been as there. At the
 * next choice each particle (or, when too few are left, a fresh determinization of prev for the
 * seat) takes the bot's move, then each legal move of the seat to move in it is tried: one after
 * which the seat's view (pf_view_write_seen) is the view it has now is what that seat did, and the
 * particle goes on as that position, its weight times the move's likelihood under the seat's model,
 * a softmax of greedy's ratings (the best move 2^B times as likely as the worst). A particle in
 * which no move gives the view now (the cards were not so, or more happened than one move: a
 * deal, several seats, chance) is dropped; when none is left the search determinizes uniformly.
 * Everything it reads is its seat's: determinizations of its own past position, the moves legal
 * in them, and its seat's views, so that two positions its seat cannot tell apart, reached by
 * histories it cannot tell apart, give the same choice (tests/test_bots.c checks it). Besides the
 * bot's memory it holds two view buffers, allocated at its first choice (freed by ismcts_close). */
#define PARTICLES 32
#define FRESH_TRIES (8 * PARTICLES)
#define WEIGHT_ONE ((uint64_t)1 << 32)

typedef struct belief {
  bool have_prev;                /* prev and prev_move are those of the last choice */
  int seat, players, np;         /* the seat, and the particles held */
  pf_move prev_move;
  pf_buf now, seen;              /* views, kept (their memory freed by ismcts_close) */
  uint64_t weight[PARTICLES], cumulative[PARTICLES];
  char *prev, *parts, *next, *work, *opp; /* prev; PARTICLES each of particles and the next ones; scratch x2 */
} belief;

static size_t belief_size(const pf_game *g) {
  return LINES(sizeof(belief)) + (3 + 2 * (size_t)PARTICLES) * LINES(g->state_size);
}

static belief *belief_at(const pf_game *g, char *p) {
  belief *b = (belief *)p;
  p += LINES(sizeof(belief));
  b->prev = p, p += LINES(g->state_size);
  b->work = p, p += LINES(g->state_size);
  b->opp = p, p += LINES(g->state_size);
  b->parts = p, p += (size_t)PARTICLES * LINES(g->state_size);
  b->next = p;
  return b;
}
#define PART(b, g, k) ((b)->parts + (size_t)(k) * LINES((g)->state_size))
#define NEXT(b, g, k) ((b)->next + (size_t)(k) * LINES((g)->state_size))

/* round(2^(j/16) * 2^16), j = 0..15: 2^x for x in sixteenths, in integers (the same everywhere). */
static const uint32_t EXP2_16[16] = {65536, 68438, 71468, 74632, 77936, 81386, 84990, 88752,
                                     92682, 96785, 101070, 105545, 110218, 115098, 120194, 125515};

#define LIKE_ONE ((uint64_t)1 << 24)

/* The likelihood of each of the n moves of the seat to move at d under its model, in 1/2^24: a
 * softmax of its ratings scaled 0..16 (sixteenths of the span between the worst and the best), the
 * best 2^bits times as likely as the worst; uniform without ratings. */
static void move_likelihoods(const pf_game *g, const void *d, const pf_move *moves, int n, int bits, uint64_t *p) {
  int64_t rating[PF_MAX_MOVES];
  uint64_t w[PF_MAX_MOVES], sum = 0;
  bool rated = n > 1 && pf_rate_moves(g, d, moves, n, rating);
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (int i = 0; rated && i < n; i++) lo = rating[i] < lo ? rating[i] : lo, hi = rating[i] > hi ? rating[i] : hi;
  for (int i = 0; i < n; i++) {
    /* in sixteenths; IEEE 754 division and product, correctly rounded: the same everywhere */
    uint64_t x = rated && hi > lo ? (uint64_t)((double)(rating[i] - lo) / (double)(hi - lo) * (16.0 * bits)) : 0;
    w[i] = (uint64_t)EXP2_16[x & 15] << (x >> 4); /* below 2^17 * 2^16 */
    sum += w[i];
  }
  for (int i = 0; i < n; i++) p[i] = (w[i] << 24) / sum; /* w < 2^33 */
}

/* Whether the seat's view of d is the one in b->now. */
static bool seen_now(belief *b, const pf_game *g, const void *d) {
  pf_buf_clear(&b->seen);
  return pf_view_write_seen(&b->seen, g, d, b->players, b->seat, NULL) == 0 && b->seen.len == b->now.len &&
         memcmp(b->seen.data, b->now.data, b->now.len) == 0;
}

/* From the last choice's particles (or determinizations of its position) to those of st. */
static void belief_update(belief *b, const pf_game *g, const void *st, int seat, int players, int bits, pf_rng *rng) {
  if (!b->now.data) pf_buf_reserve(&b->now, 1 << 14), pf_buf_reserve(&b->seen, 1 << 14); /* once: views are smaller */
  pf_buf_clear(&b->now);
  bool ok = pf_view_write_seen(&b->now, g, st, players, seat, NULL) == 0;
  bool go = ok && b->have_prev && b->seat == seat && b->players == players;
  b->seat = seat, b->players = players;
  int fresh = b->np < PARTICLES / 4; /* too few left: start again from prev's determinizations */
  int np = 0;
  uint64_t next_w[PARTICLES];
  pf_move moves[PF_MAX_MOVES];
  uint64_t like[PF_MAX_MOVES];
  /* Fresh determinizations are tried until PARTICLES fit what was seen, FRESH_TRIES at most. */
  for (int k = 0; go && np < PARTICLES && k < (fresh ? FRESH_TRIES : b->np); k++) {
    char *d = b->work;
    memcpy(d, fresh ? b->prev : PART(b, g, k), g->state_size);
    if (fresh) g->determinize(d, seat, rng);
    uint64_t w = fresh ? WEIGHT_ONE : b->weight[k];
    g->apply(d, b->prev_move);
    int who = g->to_move(d);
    if (who == seat) { /* the seat moves again: nothing of the others was seen */
      if (!seen_now(b, g, d)) continue;
    } else {
      if (who < 0) continue; /* chance or the end came between: this particle cannot follow */
      int n = g->legal(d, moves);
      move_likelihoods(g, d, moves, n, bits, like);
      uint64_t got = 0;
      for (int i = 0; i < n; i++) {
        memcpy(b->opp, d, g->state_size);
        g->apply(b->opp, moves[i]);
        if (g->to_move(b->opp) != seat || !seen_now(b, g, b->opp)) continue;
        if (!got) memcpy(NEXT(b, g, np), b->opp, g->state_size);
        got += like[i];
      }
      if (!got) continue;
      w = (w * got) >> 24; /* w < 2^33, got <= 2^24 */
      if (!w) w = 1;
      memcpy(d, NEXT(b, g, np), g->state_size);
    }
    memcpy(NEXT(b, g, np), d, g->state_size);
    next_w[np++] = w;
  }
  /* Scaled by a power of two, the heaviest to [2^32, 2^33), so that weights never underflow. */
  uint64_t top = 0;
  for (int k = 0; k < np; k++) top = next_w[k] > top ? next_w[k] : top;
  int shift = top ? 32 - (63 - __builtin_clzll(top)) : 0;
  uint64_t sum = 0;
  for (int k = 0; k < np; k++) {
    b->weight[k] = shift >= 0 ? next_w[k] << shift : next_w[k] >> -shift;
    if (!b->weight[k]) b->weight[k] = 1;
    sum += b->weight[k];
    b->cumulative[k] = sum;
    memcpy(PART(b, g, k), NEXT(b, g, k), g->state_size);
  }
  b->np = np;
}

/* With infer, the belief lies first in the bot's memory, at its first 64-byte boundary. */
static belief *belief_of(pf_bot *bot) {
  char *mem = bot->mem;
  return (belief *)(mem + (64 - (uintptr_t)mem % 64) % 64);
}

/* Frees the views' memory, before the bot's memory goes (pf_bot_free) or moves (pf_bot_memory). */
static void ismcts_close(pf_bot *bot) {
  if (!bot->mem || !bot->set[S_INFER]) return;
  belief *b = belief_of(bot);
  pf_buf_free(&b->now);
  pf_buf_free(&b->seen);
}

static pf_move ismcts_choose(pf_bot *bot, const pf_game *g, const void *st) {
  pf_move moves[PF_MAX_MOVES];
  int n = g->legal(st, moves);
  bot->stats = (pf_bot_stats){0};
  if (n == 1) {
    if (bot->set[S_INFER] && bot->mem) belief_of(bot)->have_prev = false; /* followed no further */
    return moves[0];
  }
  int threads = (int)bot->set[S_THREADS];
  int64_t iters = bot->set[S_ITERS], time_ms = bot->set[S_TIME];
  if (threads > iters) threads = (int)iters;
  int64_t share = iters / threads;
  uint32_t cap = share + 2 < MAX_NODES / threads ? (uint32_t)share + 2 : MAX_NODES / threads; /* root, iterations */
  int seat = g->to_move(st);
  int observer = bot->set[S_SEE] == SEE_ALL ? PF_VIEW_ALL : bot->set[S_SEE] == SEE_HANDS ? PF_VIEW_HANDS : seat;
  task t = {.g = g, .root = st, .seat = seat, .observer = observer, .players = bot->players, .set = bot->set,
            .deadline = time_ms ? pf_clock_seconds() + (double)time_ms / 1000 : 0,
            .budget = time_ms && bot->set[S_CLOCK] ? (double)time_ms / 1000 : 0};
  bool solve = bot->set[S_SOLVE] && bot->players == 2;
  int bits = (int)bot->set[S_INFER];
  size_t lead = bits && observer == seat ? belief_size(g) : 0;
  char *mem = search_memory(bot, g, threads, cap, &t, solve ? pf_solve_scratch(g) : 0, lead);
  belief *b = NULL;
  if (lead) { /* what the others' moves since the last choice say; then this choice is the last */
    b = belief_at(g, (char *)belief_of(bot));
    belief_update(b, g, st, seat, bot->players, bits, &bot->rng);
    memcpy(b->prev, st, g->state_size);
    b->have_prev = false; /* until the move is chosen */
    t.particles = b->parts, t.cumulative = b->cumulative, t.np = b->np;
    bot->stats.particles = b->np;
  }
  size_t each = search_size(g, cap);
  pf_move solved;
  if (solve && pf_solve(g, st, observer, moves, n, (int)bot->set[S_SOLVE], bot->set[S_HORIZON] == 0, &bot->rng,
                        mem + (size_t)threads * each, &solved, &bot->stats)) {
    if (b) b->prev_move = solved, b->have_prev = true;
    return solved;
  }
  /* One thread searches with the bot's own generator; several draw theirs from it, one stream each,
   * so that a seed and a thread count make one choice (without a time limit). */
  uint64_t seed = threads > 1 ? pf_rng_next(&bot->rng) : 0;
  pthread_t tid[PF_BOT_MAX_THREADS];
  int started = 0;
  uint32_t ln_lim = ln_fill((uint64_t)share + 2); /* a child's availability is at most the iterations */
  for (int k = 0; k < threads; k++) {
    search *s = (search *)(mem + (size_t)k * each);
    s->iters = share + (k < iters % threads);
    s->ln_lim = ln_lim;
    if (threads == 1)
      s->rng = bot->rng;
    else
      pf_rng_seed(&s->rng, seed, (uint64_t)k);
  }
  for (int k = 1; k < threads; k++)
    if (pthread_create(&tid[k], NULL, search_run, mem + (size_t)k * each) == 0) started = k;
    else break;
  for (int k = started + 1; k < threads; k++) search_run(mem + (size_t)k * each); /* no thread: here */
  search_run(mem);
  for (int k = 1; k <= started; k++) pthread_join(tid[k], NULL);
  if (threads == 1) bot->rng = ((search *)mem)->rng;
  /* The most visited move over every tree; ties go to the more rewarded, then to the first legal. */
  uint64_t visits[PF_MAX_MOVES] = {0}, reward[PF_MAX_MOVES] = {0};
  for (int k = 0; k < threads; k++) {
    search *s = (search *)(mem + (size_t)k * each);
    for (int32_t ch = s->nodes[0].child; ch >= 0 && ch < s->nodes[0].child + s->nodes[0].nchild; ch++) {
      const node *cn = &s->nodes[ch];
      int i = 0;
      while (moves[i] != cn->move) i++; /* every sample has the root's legal moves (determinize) */
      visits[i] += cn->visits;
      reward[i] += s->stats_of[cn->id].reward;
    }
    bot->stats.iterations += s->stats.iterations;
    bot->stats.moves += s->stats.moves;
    bot->stats.nodes += s->stats.nodes;
  }
  int best = -1;
  for (int i = 0; i < n; i++)
    if (best < 0 || visits[i] > visits[best] || (visits[i] == visits[best] && reward[i] > reward[best])) best = i;
  if (b) b->prev_move = moves[best], b->have_prev = true;
  return moves[best];
}

/* see=hands and see=all read what the seat cannot see (bot.h). */
static const char *ismcts_instrument(const int64_t *set) {
  return set[S_SEE] == SEE_HANDS ? "see=hands" : set[S_SEE] == SEE_ALL ? "see=all" : NULL;
}

const pf_bot_kind pf_bot_ismcts = {
    "ismcts",
    "Information Set Monte Carlo Tree Search over determinizations for its seat",
    SETTINGS,
    sizeof SETTINGS / sizeof SETTINGS[0],
    ismcts_choose,    NULL,
    ismcts_close,
    false,
    true,
    ismcts_instrument,
};
