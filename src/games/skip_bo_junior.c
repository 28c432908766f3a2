/*
 * skip_bo_junior.c - Skip-Bo Junior (RULINGS SBJ-1 .. SBJ-6), 2 to 6 players.
 *
 * As in steal_the_pile.c, card[] keeps the deal's deck order: slot i is the i-th card from the
 * top, and every card is named by its slot wherever it goes. Every place a card can be is a pile,
 * a stack linked through below[]: each stockpile, each hand stack, the four building piles, the
 * completed piles set aside, and the draw pile. A building pile's count is its size (it starts
 * at 1 and every card adds 1, SBJ-4), so a wild needs no memory of what it counts as.
 *
 * A turn is several moves of one seat. Everything that is no one's decision happens inside
 * start, apply and the chance methods (advance() below): the deal at the start of a turn, the end
 * of a turn with no play left (SBJ-5), the turns that pass without a play, and the end of the
 * game (SBJ-6). So a seat is to move only when it has a play, and chance only when a reshuffle is
 * due (SBJ-3).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/game.h"
#include "core/measure.h"
#include "core/slots.h"
#include "games/registry.h"
#include "games/rules.h"
PF_RULES_TEXT(pf_rules_skip_bo_junior);

/* ------------------------------------------------------------------------------------------ */
/* State                                                                                      */
/* ------------------------------------------------------------------------------------------ */

#define NCARDS 96
#define MAX_SEATS 6
#define MAX_STOCKED 72 /* SBJ-1: players x stock */
#define STACKS 3
#define BUILDS 4
#define COMPLETE 10
#define TURN_LIMIT 2000
#define NONE 0xFF

/* Piles: stockpiles, hand stacks, building piles, the completed piles set aside, the draw pile. */
#define P_STOCK(p) (p)
#define P_HAND(p, k) (MAX_SEATS + (p)*STACKS + (k))
#define P_BUILD(b) (MAX_SEATS * (1 + STACKS) + (b))
#define P_DONE P_BUILD(BUILDS)
#define P_DRAW (P_DONE + 1)
#define NPILES (P_DRAW + 1)

/* Move codes: the source (0 the stockpile, 1-3 the hand stacks) times 4, plus the building pile
 * (0-3). */
#define MOVE(src, b) ((pf_move)((src)*BUILDS + (b)))
#define MOVE_SRC(m) ((int)(m) / BUILDS)
#define MOVE_BUILD(m) ((int)(m) % BUILDS)

#define WILD PF_CARD_SBJ_WILD

enum { END_NONE, END_STOCKPILE, END_STALL, END_TURN_LIMIT };

typedef struct sbj_state {
  pf_card card[NCARDS];  /* the card of each slot */
  uint8_t below[NCARDS]; /* the slot beneath, in its pile; NONE at the bottom */
  uint8_t top[NPILES], bottom[NPILES], size[NPILES];
  uint8_t top_value[NPILES]; /* value_of the top card; 0 for an empty pile */
  uint8_t players, stock_size;
  uint8_t turn;          /* the seat whose turn it is */
  uint8_t chance;        /* a reshuffle is due before the deal can go on (SBJ-3) */
  uint8_t next_stack;    /* the hand stack the next card is dealt onto; STACKS once dealt */
  uint8_t dealt, played; /* cards dealt and played in this turn so far */
  uint8_t idle;          /* turns in a row in which no card was played or dealt (SBJ-6) */
  uint8_t end;           /* END_*: how the game ended */
  uint8_t last_dealt[MAX_SEATS], last_played[MAX_SEATS]; /* each seat's last finished turn */
  uint16_t turns;        /* turns begun, this one included */
  uint16_t reshuffles;   /* reshuffles so far */
  uint16_t completed;    /* building piles completed so far */
  uint64_t takes;        /* nibble v: the building piles a card of value v goes on (takes_of) */
  pf_rng rng;            /* the chance stream (G-4): reshuffles */
} sbj_state;

static const pf_option_desc OPTIONS[] = {
    {"stock", PF_OPT_INT, 10, 1, MAX_STOCKED / 2,
     "cards in each stockpile (SBJ-1); players x stock may not exceed 72", "Stockpile size"},
};

static const char *const SOURCE[1 + STACKS] = {"s", "h1", "h2", "h3"};

/* 1..10 for numbers, 11 for a wild. */
static inline int value_of(pf_card c) { return c - PF_CARD_SBJ(0); }
static inline bool is_sbj(pf_card c) { return c >= PF_CARD_SBJ(1) && c <= WILD; }
static inline pf_card top_card(const sbj_state *s, int pile) { return s->card[s->top[pile]]; }
static inline int source_pile(const sbj_state *s, int src) {
  return src == 0 ? P_STOCK(s->turn) : P_HAND(s->turn, src - 1);
}

/* ------------------------------------------------------------------------------------------ */
/* Piles                                                                                      */
/* ------------------------------------------------------------------------------------------ */

static void pile_clear(sbj_state *s, int pile) {
  s->size[pile] = s->top_value[pile] = 0;
  s->top[pile] = s->bottom[pile] = NONE;
}

static void pile_push(sbj_state *s, int pile, uint8_t slot) {
  s->below[slot] = s->size[pile] ? s->top[pile] : NONE;
  if (!s->size[pile]) s->bottom[pile] = slot;
  s->top[pile] = slot;
  s->top_value[pile] = (uint8_t)value_of(s->card[slot]);
  s->size[pile]++;
}

static uint8_t pile_pop(sbj_state *s, int pile) {
  uint8_t slot = s->top[pile];
  if (--s->size[pile])
    s->top[pile] = s->below[slot], s->top_value[pile] = (uint8_t)value_of(s->card[s->below[slot]]);
  else
    pile_clear(s, pile);
  s->below[slot] = NONE;
  return slot;
}

/* Puts the whole pile `from` on top of pile `to`. */
static void pile_move(sbj_state *s, int to, int from) {
  s->below[s->bottom[from]] = s->size[to] ? s->top[to] : NONE;
  if (!s->size[to]) s->bottom[to] = s->bottom[from];
  s->top[to] = s->top[from];
  s->top_value[to] = s->top_value[from];
  s->size[to] = (uint8_t)(s->size[to] + s->size[from]);
  pile_clear(s, from);
}

/* A pile's slots, bottom first; returns how many. */
static int pile_slots(const sbj_state *s, int pile, uint8_t *out) {
  int n = s->size[pile], slot = s->top[pile];
  for (int i = n - 1; i >= 0; i--, slot = s->below[slot]) out[i] = (uint8_t)slot;
  return n;
}

/* Rebuilds a pile from slots listed top first. */
static void pile_set(sbj_state *s, int pile, const uint8_t *slots, int n) {
  pile_clear(s, pile);
  for (int i = n - 1; i >= 0; i--) pile_push(s, pile, slots[i]);
}

/* ------------------------------------------------------------------------------------------ */
/* Plays (SBJ-4)                                                                              */
/* ------------------------------------------------------------------------------------------ */

/* The lowest free building pile, or BUILDS when all four are in use. */
static int lowest_free(const sbj_state *s) {
  int b = 0;
  while (b < BUILDS && s->size[P_BUILD(b)]) b++;
  return b;
}

/* SBJ-4: a pile counting n takes n+1 or W; a new pile starts in the lowest free slot with a 1 or
 * W. */
static bool accepts(const sbj_state *s, int b, int free_b, pf_card c) {
  int n = s->size[P_BUILD(b)];
  if (n == 0 && b != free_b) return false;
  return c == WILD || value_of(c) == n + 1;
}

/* accepts() for every card at once, as nibbles of a word: nibble v (1..10) the building piles
 * (bit b) a card of value v goes on, nibble 11 those a wild goes on. Building piles change only
 * by a play, so apply sets it after each (and start at first). */
static uint64_t takes_of(const sbj_state *s) {
  uint64_t takes = 0;
  int free_b = lowest_free(s);
  for (int b = 0; b < BUILDS; b++) { /* without a branch: a random play leaves none predictable */
    int count = s->size[P_BUILD(b)];
    uint64_t in_use = (count != 0) | (b == free_b);
    takes |= in_use << (b + 4 * (count + 1)) | in_use << (b + 44);
  }
  return takes;
}

/* The plays of the seat on turn as one 16-bit word whose bit 4 * src + b is set when the top card
 * of source src (the stockpile, the hand stacks) goes on building pile b: each set bit is a move,
 * its index the move's code (MOVE: src * BUILDS + b), in sbj_legal's order. */
static unsigned plays(const sbj_state *s) {
  unsigned where = 0;
  for (int src = 0; src <= STACKS; src++) {
    where |= (unsigned)(s->takes >> 4 * s->top_value[source_pile(s, src)] & 15) << 4 * src;
  }
  return where;
}

/* The number of bits set in a 16-bit word, a nibble at a time. */
static inline int bits16(unsigned w) {
  const uint64_t nibble_bits = 0x4332322132212110u; /* nibble x: the bits of x */
  return (int)((nibble_bits >> 4 * (w & 15) & 15) + (nibble_bits >> 4 * (w >> 4 & 15) & 15) +
               (nibble_bits >> 4 * (w >> 8 & 15) & 15) + (nibble_bits >> 4 * (w >> 12) & 15));
}

static int sbj_legal(const void *vs, pf_move *out) {
  int n = 0;
  for (unsigned m = plays(vs); m; m &= m - 1) out[n++] = (pf_move)__builtin_ctz(m);
  return n;
}

/* The move sbj_legal would list at an index drawn from its count: the k-th bit of the plays. */
static pf_move sbj_random_move(const void *vs, pf_rng *rng, int *count) {
  unsigned m = plays(vs);
  *count = bits16(m);
  for (int k = (int)pf_rng_below(rng, (uint32_t)*count); k; k--) m &= m - 1;
  return (pf_move)__builtin_ctz(m);
}

static bool has_play(const sbj_state *s) { return plays(s) != 0; }

/* ------------------------------------------------------------------------------------------ */
/* The flow of turns                                                                          */
/* ------------------------------------------------------------------------------------------ */

static void begin_turn(sbj_state *s, int seat) {
  s->turn = (uint8_t)seat;
  s->turns++;
  s->next_stack = 0;
  s->dealt = s->played = 0;
}

static void finish(sbj_state *s, int why) {
  s->end = (uint8_t)why;
  s->last_dealt[s->turn] = s->dealt;
  s->last_played[s->turn] = s->played;
}

/* SBJ-3: the rest of the turn's three cards, one each onto hand stacks 1, 2, 3. An empty draw
 * pile makes a reshuffle due if there are completed piles; otherwise fewer cards are dealt. */
static void deal_on(sbj_state *s) {
  while (s->next_stack < STACKS) {
    if (!s->size[P_DRAW]) {
      if (s->size[P_DONE])
        s->chance = 1;
      else
        s->next_stack = STACKS;
      return;
    }
    pile_push(s, P_HAND(s->turn, s->next_stack), pile_pop(s, P_DRAW));
    s->next_stack++;
    s->dealt++;
  }
}

/* SBJ-6: a whole round of turns with nothing played or dealt, or the last allowed turn, ends the
 * game; otherwise the next seat's turn begins. */
static void end_turn(sbj_state *s) {
  s->last_dealt[s->turn] = s->dealt;
  s->last_played[s->turn] = s->played;
  s->idle = s->dealt || s->played ? 0 : (uint8_t)(s->idle + 1);
  if (s->idle >= s->players)
    finish(s, END_STALL);
  else if (s->turns >= TURN_LIMIT)
    finish(s, END_TURN_LIMIT);
  else
    begin_turn(s, (s->turn + 1) % s->players);
}

/* Runs the game on while no seat has a decision: deals the rest of the turn's cards, and while
 * the seat on turn has no play ends its turn (SBJ-5) and begins the next, until a seat can play,
 * a reshuffle is due or the game is over. */
static void advance(sbj_state *s) {
  for (;;) {
    deal_on(s);
    if (s->chance || has_play(s)) return;
    end_turn(s);
    if (s->end) return;
  }
}

static void sbj_apply(void *vs, pf_move m) {
  sbj_state *s = vs;
  int from = source_pile(s, MOVE_SRC(m)), to = P_BUILD(MOVE_BUILD(m));
  pile_push(s, to, pile_pop(s, from));
  s->played++;
  if (s->size[to] == COMPLETE) { /* SBJ-4: set aside for the next reshuffle */
    pile_move(s, P_DONE, to);
    s->completed++;
  }
  s->takes = takes_of(s);
  if (from == P_STOCK(s->turn) && !s->size[from]) /* SBJ-6: the win comes at once */
    finish(s, END_STOCKPILE);
  else
    advance(s);
}

/* ------------------------------------------------------------------------------------------ */
/* The greedy bot's rule of thumb                                                             */
/* ------------------------------------------------------------------------------------------ */

/* Whether card c goes onto some building pile, the piles counting as in `count`. */
static bool fits_any(const int *count, pf_card c) {
  int free_b = 0;
  while (free_b < BUILDS && count[free_b]) free_b++;
  for (int b = 0; b < BUILDS; b++)
    if ((count[b] || b == free_b) && (c == WILD || value_of(c) == count[b] + 1)) return true;
  return false;
}

/* Play your stockpile first; else a hand card after which your stockpile's top can go; keep your
 * wilds; and do not leave a building pile one below the next player's stockpile top. */
static void sbj_rate_moves(const void *vs, const pf_move *moves, int n, int64_t *rating) {
  const sbj_state *s = vs;
  int stock = P_STOCK(s->turn), next = P_STOCK((s->turn + 1) % s->players);
  int next_top = s->size[next] ? value_of(top_card(s, next)) : -1;
  for (int i = 0; i < n; i++) {
    int src = MOVE_SRC(moves[i]), b = MOVE_BUILD(moves[i]), count[BUILDS];
    pf_card c = top_card(s, source_pile(s, src));
    for (int k = 0; k < BUILDS; k++) count[k] = s->size[P_BUILD(k)];
    count[b] = count[b] + 1 == COMPLETE ? 0 : count[b] + 1;
    int64_t r = 0;
    if (src == 0)
      r += 10000;
    else if (s->size[stock] && fits_any(count, top_card(s, stock)))
      r += 5000;
    if (c == WILD && src != 0) r -= 100;
    if (count[b] && count[b] + 1 == next_top) r -= 50;
    rating[i] = r;
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Reshuffles (SBJ-3): chance                                                                 */
/* ------------------------------------------------------------------------------------------ */

/* The cards of the completed piles, in the order they were set aside. */
static int done_cards(const sbj_state *s, pf_card *out) {
  uint8_t slots[NCARDS];
  int n = pile_slots(s, P_DONE, slots);
  for (int i = 0; i < n; i++) out[i] = s->card[slots[i]];
  return n;
}

/* The completed piles become the draw pile in the order `cards` (top first). Equal cards are
 * interchangeable (G-5): each card listed takes the first unused slot of its value in the
 * completed piles, so an outcome gives one state however it was reached. Then the deal goes on. */
static void reshuffle(sbj_state *s, const pf_card *cards, int n) {
  /* Each card takes the first slot of the completed piles holding that card not yet taken: the
   * slots grouped by card (values 1-10, W as 11), each group in pile order, taken in turn. */
  uint8_t slots[NCARDS], order[NCARDS], grouped[NCARDS];
  int ns = pile_slots(s, P_DONE, slots), next[13] = {0};
  for (int j = 0; j < ns; j++) next[value_of(s->card[slots[j]]) + 1]++;
  for (int v = 1; v < 13; v++) next[v] += next[v - 1];
  for (int j = 0; j < ns; j++) grouped[next[value_of(s->card[slots[j]])]++] = slots[j];
  for (int v = 12; v > 0; v--) next[v] = next[v - 1]; /* back to each group's start */
  next[0] = 0;
  for (int i = 0; i < n; i++) order[i] = grouped[next[value_of(cards[i])]++];
  pile_clear(s, P_DONE);
  pile_set(s, P_DRAW, order, n);
  s->reshuffles++;
  s->chance = 0;
  advance(s);
}

/* "*3,W,10,1": the new draw pile, top card first (RULINGS, Skip-Bo Junior, Moves). */
static void outcome_str(const pf_card *cards, int n, char *buf) {
  int len = pf_snprintf(buf, PF_MOVE_STR, "*");
  for (int i = 0; i < n && len < PF_MOVE_STR; i++) {
    char c[PF_CARD_STR];
    len += pf_snprintf(buf + len, (size_t)(PF_MOVE_STR - len), "%s%s", i ? "," : "", pf_card_str(cards[i], c));
  }
}

static void sbj_chance_sample(void *vs, char *buf) {
  sbj_state *s = vs;
  pf_card cards[NCARDS];
  int n = done_cards(s, cards);
  pf_shuffle16(&s->rng, cards, (size_t)n);
  if (buf) outcome_str(cards, n, buf);
  reshuffle(s, cards, n);
}

/* Reads "*3,W,10,1" (spaces allowed around the commas, any case) into cards; checks nothing
 * against the position. */
static int outcome_parse(const char *text, pf_card *cards, int *n, pf_error *err) {
  const char *p = text;
  *n = 0;
  if (*p++ != '*') return pf_fail(err, "a chance outcome starts with '*', as in *3,W,10,1");
  for (;;) {
    while (*p == ' ') p++;
    const char *at = p;
    pf_card c;
    if (*n == NCARDS) return pf_fail(err, "the reshuffle lists more than %d cards", NCARDS);
    if (pf_card_scan(&p, &c) != 0 || !is_sbj(c)) {
      int len = (int)strcspn(at, ", ");
      if (len == 0) return pf_fail(err, "card %d of the reshuffle is missing: it lists cards 1-10 or W, "
                                        "separated by commas, top card first (*3,W,10,1)", *n + 1);
      return pf_fail(err, "card %d of the reshuffle: '%.*s' is not a Skip-Bo Junior card (1-10 or W)",
                     *n + 1, len > 16 ? 16 : len, at);
    }
    cards[(*n)++] = c;
    while (*p == ' ') p++;
    if (*p == '\0') return 0;
    if (*p++ != ',')
      return pf_fail(err, "after card %d of the reshuffle comes '%c': cards are separated by commas (*3,W,10,1)",
                     *n, p[-1]);
  }
}

static int sbj_chance_apply(void *vs, const char *text, char canon[PF_MOVE_STR], pf_error *err) {
  sbj_state *s = vs;
  if (!s->chance) return pf_fail(err, "no reshuffle is due");
  pf_card cards[NCARDS], done[NCARDS];
  int n, nd = done_cards(s, done);
  if (outcome_parse(text, cards, &n, err) != 0) return -1;
  if (n != nd)
    return pf_fail(err, "the reshuffle lists %d card%s, but the completed piles hold %d (SBJ-3): it lists them "
                        "all, the new draw pile's top card first",
                   n, n == 1 ? "" : "s", nd);
  /* A card listed too often is named first: it is the likelier slip. */
  for (int pass = 0; pass < 2; pass++)
    for (int c = PF_CARD_SBJ(1); c <= WILD; c++) {
      int have = pf_card_count(cards, n, (pf_card)c), want = pf_card_count(done, nd, (pf_card)c);
      if (pass == 0 ? have <= want : have >= want) continue;
      char cs[PF_CARD_STR];
      pf_card_str((pf_card)c, cs);
      return pf_fail(err, "the reshuffle lists %s %d time%s, but the completed piles hold it %d time%s (SBJ-3)", cs,
                     have, have == 1 ? "" : "s", want, want == 1 ? "" : "s");
    }
  /* The generator moves on exactly as in chance_sample, whatever the outcome. */
  pf_shuffle16(&s->rng, done, (size_t)nd);
  outcome_str(cards, n, canon);
  reshuffle(s, cards, n);
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Move notation                                                                              */
/* ------------------------------------------------------------------------------------------ */

static void sbj_move_str(const void *vs, pf_move m, char buf[PF_MOVE_STR]) {
  (void)vs;
  pf_snprintf(buf, PF_MOVE_STR, "%s>b%d", SOURCE[MOVE_SRC(m)], MOVE_BUILD(m) + 1);
}

/* Reads a number of at most two digits at *p; -1 if there is none. */
static int read_small(const char **p) {
  if (!isdigit((unsigned char)**p)) return -1;
  int v = 0;
  while (isdigit((unsigned char)**p) && v < 100) v = v * 10 + (*(*p)++ - '0');
  return v;
}

/* Why the card c on top of source src may not go onto building pile b. */
static int refuse_play(const sbj_state *s, int src, int b, pf_card c, pf_error *err) {
  char cs[PF_CARD_STR], where[32];
  pf_card_str(c, cs);
  if (src == 0)
    pf_snprintf(where, sizeof where, "the stockpile");
  else
    pf_snprintf(where, sizeof where, "hand stack %d", src);
  int n = s->size[P_BUILD(b)], free_b = lowest_free(s);
  if (n)
    return pf_fail(err, "b%d counts %d: it takes a %d or W, not the %s on top of %s (SBJ-4)", b + 1, n, n + 1,
                   cs, where);
  if (b != free_b)
    return pf_fail(err, "b%d is free, but a new building pile takes the lowest free slot, b%d (SBJ-4)", b + 1,
                   free_b + 1);
  return pf_fail(err, "b%d is free: a new building pile starts with a 1 or W, not the %s on top of %s (SBJ-4)",
                 b + 1, cs, where);
}

static int sbj_move_parse(const void *vs, const char *text, pf_move *m, pf_error *err) {
  const sbj_state *s = vs;
  const char *p = text;
  int src, b;
  while (*p == ' ' || *p == '\t') p++;
  if (tolower((unsigned char)*p) == 's' && !isalpha((unsigned char)p[1])) {
    src = 0;
    p++;
  } else if (tolower((unsigned char)*p) == 'h' && isdigit((unsigned char)p[1])) {
    p++;
    src = read_small(&p);
    if (src < 1 || src > STACKS)
      return pf_fail(err, "there is no hand stack h%d: the hand stacks are h1, h2 and h3", src);
  } else {
    return pf_fail(err, "cannot read a source at the start: moves look like s>b1 (the stockpile onto "
                        "building pile 1) or h2>b3 (hand stack 2 onto building pile 3)");
  }
  while (*p == ' ') p++;
  if (*p != '>') return pf_fail(err, "after the source comes '>' and a building pile, as in %s>b1", SOURCE[src]);
  p++;
  while (*p == ' ') p++;
  if (tolower((unsigned char)*p) != 'b' || !isdigit((unsigned char)p[1]))
    return pf_fail(err, "after '>' comes a building pile: b1, b2, b3 or b4");
  p++;
  b = read_small(&p);
  if (b < 1 || b > BUILDS) return pf_fail(err, "there is no building pile b%d: they are b1 to b4 (SBJ-4)", b);
  b--;
  while (*p == ' ' || *p == '\t') p++;
  if (*p) return pf_fail(err, "unexpected '%s' after the move", p);
  int pile = source_pile(s, src);
  if (!s->size[pile]) return pf_fail(err, "hand stack %d is empty", src);
  pf_card c = top_card(s, pile);
  if (!accepts(s, b, lowest_free(s), c)) return refuse_play(s, src, b, c, err);
  *m = MOVE(src, b);
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Start, scores, deals                                                                       */
/* ------------------------------------------------------------------------------------------ */

static int sbj_start(void *vs, const pf_setup *setup, pf_error *err) {
  sbj_state *s = vs;
  int n = setup->players, stock = (int)setup->options.v[0];
  memset(s, 0, sizeof *s);
  if (n * stock > MAX_STOCKED)
    return pf_fail(err, "option stock=%d: %d players x %d cards is %d, more than the %d of SBJ-1; with %d players "
                        "stock is at most %d",
                   stock, n, stock, n * stock, MAX_STOCKED, n, MAX_STOCKED / n);
  if (setup->ndeals > 1) return pf_fail(err, "a game uses one deal, but %d deals are given", setup->ndeals);
  pf_card deck[NCARDS];
  pf_deck_skipbo_junior(deck);
  if (setup->ndeals == 1) {
    if (pf_deal_check(&setup->deals[0], deck, NCARDS, err) != 0) {
      pf_error_prefix(err, "deal 1");
      return -1;
    }
    memcpy(s->card, setup->deals[0].cards, sizeof s->card);
  } else {
    pf_rng rng;
    pf_rng_seed(&rng, setup->seed, 0);
    memcpy(s->card, deck, sizeof s->card);
    pf_shuffle16(&rng, s->card, NCARDS);
  }
  s->players = (uint8_t)n;
  s->stock_size = (uint8_t)stock;
  memset(s->below, NONE, sizeof s->below);
  for (int q = 0; q < NPILES; q++) pile_clear(s, q);
  /* SBJ-2: one card at a time from seat 0; each player's first card is the bottom. */
  int slot = 0;
  for (int k = 0; k < stock; k++)
    for (int p = 0; p < n; p++) pile_push(s, P_STOCK(p), (uint8_t)slot++);
  for (int k = NCARDS - 1; k >= slot; k--) pile_push(s, P_DRAW, (uint8_t)k);
  pf_rng_seed(&s->rng, setup->seed, PF_STREAM_CHANCE);
  s->takes = takes_of(s);
  begin_turn(s, 0); /* G-2: seat N-1 deals, seat 0 plays first */
  advance(s);
  return 0;
}

static int sbj_to_move(const void *vs) {
  const sbj_state *s = vs;
  return s->end ? PF_NOBODY : s->chance ? PF_CHANCE : s->turn;
}

/* The cards left in each stockpile (fewest wins). */
static void sbj_scores(const void *vs, int *scores) {
  const sbj_state *s = vs;
  for (int p = 0; p < s->players; p++) scores[p] = s->size[P_STOCK(p)];
}

/* SBJ-6: the fewest stockpile cards win (G-6); after an emptied stockpile that is its owner
 * alone. */
static int sbj_winners(const void *vs, int *seats) {
  const sbj_state *s = vs;
  int fewest = NCARDS, n = 0;
  for (int p = 0; p < s->players; p++)
    if (s->size[P_STOCK(p)] < fewest) fewest = s->size[P_STOCK(p)];
  for (int p = 0; p < s->players; p++)
    if (s->size[P_STOCK(p)] == fewest) seats[n++] = p;
  return n;
}

static int sbj_current_deal(const void *vs, pf_deal *out) {
  const sbj_state *s = vs;
  if (out) out->ncards = NCARDS, memcpy(out->cards, s->card, sizeof s->card);
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Hidden information                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* Every seat sees the same: the stockpile cards below the tops are unseen by everyone, their
 * owners included (SBJ-2), and so is the draw pile. Until the first reshuffle the draw pile is
 * the rest of the deal, as unseen as the stockpiles, so their cards are resampled together;
 * after it, the draw pile holds exactly the completed piles' cards, which everyone saw, and only
 * its order is resampled. */
static void sbj_determinize(void *vs, int seat, pf_rng *rng) {
  sbj_state *s = vs;
  uint8_t slots[NCARDS];
  pf_card cards[NCARDS];
  int n = 0;
  if (seat != PF_VIEW_ALL) {
    for (int p = 0; p < s->players; p++) {
      int pile = P_STOCK(p);
      for (int slot = s->size[pile] ? s->below[s->top[pile]] : NONE; slot != NONE; slot = s->below[slot])
        slots[n++] = (uint8_t)slot;
    }
    if (!s->reshuffles) n += pile_slots(s, P_DRAW, slots + n);
  }
  for (int i = 0; i < n; i++) cards[i] = s->card[slots[i]];
  pf_cards_resample(cards, n, rng);
  for (int i = 0; i < n; i++) s->card[slots[i]] = cards[i];
  if (seat != PF_VIEW_ALL && s->reshuffles) {
    /* The order is resampled from the slots sorted, so that it does not depend on the order they
     * lay in (canonical, as pf_cards_resample). */
    int nd = pile_slots(s, P_DRAW, slots);
    for (int i = 1; i < nd; i++)
      for (int j = i; j > 0 && slots[j - 1] > slots[j]; j--) {
        uint8_t t = slots[j];
        slots[j] = slots[j - 1];
        slots[j - 1] = t;
      }
    pf_shuffle(rng, slots, (size_t)nd);
    pile_set(s, P_DRAW, slots, nd);
  }
  s->top_value[P_DRAW] = s->size[P_DRAW] ? (uint8_t)value_of(top_card(s, P_DRAW)) : 0;
  pf_rng_seed(&s->rng, pf_rng_next(rng), PF_STREAM_CHANCE);
}

/* A building pile (or a run of 10 set aside) bottom first: level i holds i or W (SBJ-4). */
static int check_run(const sbj_state *s, const uint8_t *slots, int n, const char *what, pf_error *err) {
  for (int i = 0; i < n; i++) {
    pf_card c = s->card[slots[i]];
    if (c != WILD && value_of(c) != i % COMPLETE + 1) {
      char cs[PF_CARD_STR];
      return pf_fail(err, "%s holds %s at level %d", what, pf_card_str(c, cs), i % COMPLETE + 1);
    }
  }
  return 0;
}

static int sbj_check(const void *vs, pf_error *err) {
  const sbj_state *s = vs;
  int seen[NCARDS] = {0};
  for (int q = 0; q < NPILES; q++) {
    int n = 0, last = NONE;
    for (int slot = s->size[q] ? s->top[q] : NONE; slot != NONE && n <= NCARDS; slot = s->below[slot]) {
      seen[slot]++;
      n++;
      last = slot;
    }
    if (n != s->size[q] || (n && last != s->bottom[q]) || (!n && s->top[q] != NONE))
      return pf_fail(err, "pile %d: size %d but %d cards linked", q, s->size[q], n);
    if (s->top_value[q] != (n ? value_of(top_card(s, q)) : 0))
      return pf_fail(err, "pile %d: its top card's value is noted as %d", q, s->top_value[q]);
    bool seat_pile = q < P_BUILD(0);
    int owner = q < MAX_SEATS ? q : (q - MAX_SEATS) / STACKS;
    if (seat_pile && owner >= s->players && n) return pf_fail(err, "pile %d of a missing seat holds cards", q);
  }
  for (int k = 0; k < NCARDS; k++)
    if (seen[k] != 1) return pf_fail(err, "card slot %d is in %d places", k, seen[k]);
  pf_card deck[NCARDS];
  pf_deal d = {.ncards = NCARDS};
  memcpy(d.cards, s->card, sizeof s->card);
  if (pf_deal_check(&d, deck, pf_deck_skipbo_junior(deck), err) != 0) return -1;
  uint8_t slots[NCARDS];
  char what[32];
  for (int b = 0; b < BUILDS; b++) {
    int n = pile_slots(s, P_BUILD(b), slots);
    pf_snprintf(what, sizeof what, "b%d", b + 1);
    if (n >= COMPLETE) return pf_fail(err, "b%d counts %d and was not set aside", b + 1, n);
    if (check_run(s, slots, n, what, err) != 0) return -1;
  }
  if (s->takes != takes_of(s)) return pf_fail(err, "the plays noted for the building piles are not theirs");
  int nd = pile_slots(s, P_DONE, slots);
  if (nd % COMPLETE || check_run(s, slots, nd, "the completed piles", err) != 0)
    return nd % COMPLETE ? pf_fail(err, "%d cards set aside, not whole piles", nd) : -1;
  int empty = 0;
  for (int p = 0; p < s->players; p++) {
    if (s->size[P_STOCK(p)] > s->stock_size) return pf_fail(err, "seat %d's stockpile grew", p);
    empty += !s->size[P_STOCK(p)];
  }
  if (empty != (s->end == END_STOCKPILE)) return pf_fail(err, "%d empty stockpiles, end %d", empty, s->end);
  if (s->turns < 1 || s->turns > TURN_LIMIT) return pf_fail(err, "turn %d", s->turns);
  if (s->end) return 0;
  if (s->idle >= s->players) return pf_fail(err, "a stall (%d idle turns) did not end the game", s->idle);
  if (s->chance) {
    if (s->size[P_DRAW] || !s->size[P_DONE] || s->next_stack >= STACKS)
      return pf_fail(err, "a reshuffle is due with %d cards to draw and %d set aside", s->size[P_DRAW],
                     s->size[P_DONE]);
  } else if (s->next_stack != STACKS || !has_play(s)) {
    return pf_fail(err, "seat %d is to move without a play or before the deal", s->turn);
  }
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Views                                                                                      */
/* ------------------------------------------------------------------------------------------ */

static const char *const END_NAME[] = {"", "stockpile", "stall", "turn limit"};

/* A pile's cards as an array, bottom first (top_first: the other way). */
static void pile_write(const sbj_state *s, int pile, bool top_first, pf_jw *w) {
  uint8_t slots[NCARDS];
  int n = pile_slots(s, pile, slots);
  pf_jw_open(w, '[');
  for (int i = 0; i < n; i++) pf_card_write(w, s->card[slots[top_first ? n - 1 - i : i]]);
  pf_jw_close(w, ']');
}

/* A pile's cards for the zones, bottom first: the cards at or above `shown` (its size - 1: the
 * top only; 0: all), nulls below. */
static void pile_seen(const sbj_state *s, int pile, int shown, pf_jw *w) {
  uint8_t slots[NCARDS];
  pf_slots_cards_write(w, s->card, slots, pile_slots(s, pile, slots), shown);
}

/* A zone of a pile's cards (pile_seen) with nothing more. */
static void pile_zone(const sbj_state *s, const char *id, const char *kind, int owner, const char *label, int pile,
                      int shown, pf_layout layout, pf_jw *w) {
  pf_zone_open(w, id, kind, owner, label, layout);
  pile_seen(s, pile, shown, w);
  pf_zone_close(w);
}

/* The zone ids of a seat's stockpile and hand stacks (src 0: the stockpile, 1-3: h1-h3). */
static void source_id(int seat, int src, char id[PF_ZONE_ID]) {
  if (src == 0)
    pf_snprintf(id, PF_ZONE_ID, "stockpile:%d", seat);
  else
    pf_snprintf(id, PF_ZONE_ID, "hand:%d.%d", seat, src);
}

/* Seat p's zones: its stockpile, of which only the top is seen (SBJ-2), and its hand stacks. */
static void seat_zones(const sbj_state *s, int p, bool all, pf_jw *w) {
  char id[PF_ZONE_ID], label[32];
  int pile = P_STOCK(p);
  source_id(p, 0, id);
  pf_snprintf(label, sizeof label, "Seat %d's stockpile", p);
  pile_zone(s, id, "stockpile", p, label, pile, all ? 0 : s->size[pile] - 1, PF_STACK, w);
  for (int k = 0; k < STACKS; k++) {
    source_id(p, k + 1, id);
    pf_snprintf(label, sizeof label, "Seat %d's %s", p, SOURCE[k + 1]);
    pile_zone(s, id, "hand", p, label, P_HAND(p, k), 0, PF_FAN, w);
  }
}

/* The zones (docs/views.md): the draw pile (its order unseen by all, even after a reshuffle), the
 * building piles with the number each needs next (SBJ-4), the completed piles set aside, and
 * each seat's stockpile and hand stacks. */
static void sbj_zones(const sbj_state *s, int seat, pf_jw *w) {
  bool all = seat == PF_VIEW_ALL;
  pile_zone(s, "draw", "stock", -1, "Draw pile", P_DRAW, all ? 0 : s->size[P_DRAW], PF_STACK, w);
  for (int b = 0; b < BUILDS; b++) {
    char id[PF_ZONE_ID], label[16];
    int n = s->size[P_BUILD(b)];
    pf_snprintf(id, sizeof id, "build:%d", b + 1);
    pf_snprintf(label, sizeof label, "b%d", b + 1);
    pf_zone_open(w, id, "build", -1, label, PF_STACK);
    pile_seen(s, P_BUILD(b), 0, w);
    pf_zone_write_value(w, n + 1, "takes %lld next");
    if (!n) pf_zone_write_note(w, b == lowest_free(s) ? "free: starts with 1 or W" : "free");
    pf_zone_close(w);
  }
  pile_zone(s, "done", "discard", -1, "Completed piles", P_DONE, 0, PF_STACK, w);
  for (int p = 0; p < s->players; p++) seat_zones(s, p, all, w);
}

/* A pile's top card, null when it is empty. */
static void top_write(const sbj_state *s, int pile, pf_jw *w) {
  pf_card_write_seen(w, s->size[pile] ? top_card(s, pile) : 0, s->size[pile] > 0);
}

/* SBJ-6, once the game is over: how it ended ("stockpile_emptied", "stalled" or "turn_limit"),
 * and with it "seat" (the one who emptied their stockpile) or "left" (each seat's cards left). */
static void end_write(const sbj_state *s, pf_jw *w) {
  static const char *const KIND[] = {"", "stockpile_emptied", "stalled", "turn_limit"};
  pf_buf say = {0};
  pf_end_open(w);
  pf_end_event(w, KIND[s->end], "SBJ-6");
  if (s->end == END_STOCKPILE) {
    pf_jw_key_int(w, "seat", s->turn);
    pf_buf_printf(&say, "{%d} played the last card of their stockpile and wins at once.", s->turn);
  } else {
    int left[PF_MAX_PLAYERS];
    for (int p = 0; p < s->players; p++) left[p] = s->size[P_STOCK(p)];
    pf_jw_key(w, "left");
    pf_jw_ints(w, left, s->players);
    if (s->end == END_STALL)
      pf_buf_puts(&say, "A whole round of turns passed with no card played or dealt");
    else
      pf_buf_printf(&say, "%d turns were played", TURN_LIMIT);
    pf_buf_puts(&say, ", so the game ends: the fewest cards left in a stockpile win.");
  }
  pf_end_say(w, pf_buf_str(&say));
  pf_end_close(w);
  pf_buf_free(&say);
}

static void sbj_view_write(const void *vs, int seat, pf_jw *w) {
  const sbj_state *s = vs;
  bool all = seat == PF_VIEW_ALL;
  pf_jw_key_int(w, "stock_size", s->stock_size);
  pf_jw_key_int(w, "turn", s->turns);
  pf_jw_key_int(w, "turn_limit", TURN_LIMIT);
  pf_jw_key_int(w, "on_turn", s->turn);
  pf_jw_key_int(w, "dealt_this_turn", s->dealt);
  pf_jw_key_int(w, "played_this_turn", s->played);
  pf_jw_key_int(w, "idle_turns", s->idle);
  pf_jw_key(w, "stockpiles");
  pf_jw_open(w, '[');
  for (int p = 0; p < s->players; p++) {
    int pile = P_STOCK(p);
    pf_jw_open(w, '{');
    pf_jw_key_int(w, "size", s->size[pile]);
    pf_jw_key(w, "top");
    top_write(s, pile, w);
    if (all) { /* unseen by all (SBJ-2) */
      pf_jw_key(w, "cards");
      pile_write(s, pile, false, w);
    }
    pf_jw_close(w, '}');
  }
  pf_jw_close(w, ']');
  pf_jw_key(w, "hand_stacks");
  pf_jw_open(w, '[');
  for (int p = 0; p < s->players; p++) {
    pf_jw_open(w, '[');
    for (int k = 0; k < STACKS; k++) pile_write(s, P_HAND(p, k), false, w);
    pf_jw_close(w, ']');
  }
  pf_jw_close(w, ']');
  pf_jw_key(w, "last_turns");
  pf_jw_open(w, '[');
  for (int p = 0; p < s->players; p++) {
    pf_jw_open(w, '{');
    pf_jw_key_int(w, "dealt", s->last_dealt[p]);
    pf_jw_key_int(w, "played", s->last_played[p]);
    pf_jw_close(w, '}');
  }
  pf_jw_close(w, ']');
  pf_jw_key(w, "building_piles");
  pf_jw_open(w, '[');
  for (int b = 0; b < BUILDS; b++) {
    int pile = P_BUILD(b);
    pf_jw_open(w, '{');
    pf_jw_key_int(w, "count", s->size[pile]);
    pf_jw_key(w, "top");
    top_write(s, pile, w);
    pf_jw_key(w, "cards");
    pile_write(s, pile, false, w);
    pf_jw_close(w, '}');
  }
  pf_jw_close(w, ']');
  pf_jw_key_int(w, "draw_pile", s->size[P_DRAW]);
  if (all) {
    pf_jw_key(w, "draw_cards");
    pile_write(s, P_DRAW, true, w); /* top first */
  }
  pf_jw_key(w, "set_aside");
  pile_write(s, P_DONE, false, w);
  pf_jw_key_int(w, "completed", s->completed);
  pf_jw_key_int(w, "reshuffles", s->reshuffles);
  if (s->end) {
    pf_jw_key_str(w, "ended_by", END_NAME[s->end]);
    end_write(s, w);
  }
  sbj_zones(s, seat, w);
}

static void put_pile(const sbj_state *s, int pile, bool top_first, const pf_style *st, pf_buf *out) {
  uint8_t slots[NCARDS];
  int n = pile_slots(s, pile, slots);
  if (!n) pf_buf_puts(out, "-");
  for (int i = 0; i < n; i++) {
    char b[32];
    pf_buf_printf(out, "%s%s", i ? " " : "", pf_card_render(s->card[slots[top_first ? n - 1 - i : i]], st, b));
  }
}

static void building_lines(const sbj_state *s, const pf_style *st, pf_buf *out) {
  int free_b = lowest_free(s);
  pf_buf_puts(out, "Building piles (bottom first):\n");
  for (int b = 0; b < BUILDS; b++) {
    int n = s->size[P_BUILD(b)];
    pf_buf_printf(out, "  b%d  ", b + 1);
    if (n) {
      size_t at = out->len;
      put_pile(s, P_BUILD(b), false, st, out);
      int width = (int)(out->len - at); /* colour codes make it wider; fine for alignment */
      pf_buf_printf(out, "%*s  counts %d, takes %d or W\n", width < 20 ? 20 - width : 0, "", n, n + 1);
    } else if (b == free_b) {
      pf_buf_puts(out, "free: a new pile starts here with 1 or W\n");
    } else {
      pf_buf_puts(out, "free\n");
    }
  }
}

/* The plays of the seat to move, grouped by source: "h2 5 -> b1; h3 W -> b1 b2 b3". */
static void playable_line(const sbj_state *s, const pf_style *st, pf_buf *out) {
  pf_move moves[(1 + STACKS) * BUILDS];
  int n = sbj_legal(s, moves);
  pf_buf_puts(out, "Playable now:");
  for (int i = 0; i < n; i++) {
    int src = MOVE_SRC(moves[i]);
    if (i == 0 || MOVE_SRC(moves[i - 1]) != src) {
      char b[32];
      pf_buf_printf(out, "%s %s %s ->", i ? ";" : "", SOURCE[src], pf_card_render(top_card(s, source_pile(s, src)), st, b));
    }
    pf_buf_printf(out, " b%d", MOVE_BUILD(moves[i]) + 1);
  }
  pf_buf_puts(out, "\n");
}

static void seat_lines(const sbj_state *s, int p, int seat, const pf_style *st, pf_buf *out) {
  int pile = P_STOCK(p);
  char b[32];
  pf_buf_printf(out, "Seat %d%s: stockpile %d card%s", p, p == seat ? " (you)" : "", s->size[pile],
                s->size[pile] == 1 ? "" : "s");
  if (s->size[pile]) pf_buf_printf(out, ", top %s", pf_card_render(top_card(s, pile), st, b));
  if (seat == PF_VIEW_ALL && s->size[pile] > 1) {
    pf_buf_puts(out, " (bottom first: ");
    put_pile(s, pile, false, st, out);
    pf_buf_puts(out, ")");
  } else if (s->size[pile] > 1) {
    pf_buf_puts(out, ", the rest face down");
  }
  pf_buf_puts(out, "\n    hand stacks (top card last):");
  for (int k = 0; k < STACKS; k++) {
    pf_buf_printf(out, "  h%d: ", k + 1);
    put_pile(s, P_HAND(p, k), false, st, out);
  }
  bool now = p == s->turn && !s->end, before = s->turns > p + 1 + (now ? s->players : 0) || s->end;
  if (now) pf_buf_printf(out, "\n    this turn: dealt %d, played %d", s->dealt, s->played);
  if (before) /* seat p's first turn is turn p + 1 */
    pf_buf_printf(out, "%s last turn: dealt %d, played %d", now ? ";" : "\n   ", s->last_dealt[p], s->last_played[p]);
  pf_buf_puts(out, "\n");
}

static void sbj_view_text(const void *vs, int seat, const pf_style *st, pf_buf *out) {
  const sbj_state *s = vs;
  pf_buf_printf(out, "Skip-Bo Junior, %d players, stockpiles of %d: turn %d (at most %d)", s->players,
                s->stock_size, s->turns, TURN_LIMIT);
  if (!s->end) pf_buf_printf(out, ", seat %d's turn", s->turn);
  pf_buf_putc(out, '\n');
  pf_buf_printf(out, "Draw pile: %d card%s", s->size[P_DRAW], s->size[P_DRAW] == 1 ? "" : "s");
  if (s->reshuffles) pf_buf_printf(out, " (reshuffled %d time%s)", s->reshuffles, s->reshuffles == 1 ? "" : "s");
  if (seat == PF_VIEW_ALL && s->size[P_DRAW]) {
    pf_buf_puts(out, ", top first: ");
    put_pile(s, P_DRAW, true, st, out);
  }
  int nd = s->size[P_DONE] / COMPLETE;
  pf_buf_printf(out, ". Set aside for the next reshuffle: %d completed pile%s.\n", nd, nd == 1 ? "" : "s");
  building_lines(s, st, out);
  for (int p = 0; p < s->players; p++) seat_lines(s, p, seat, st, out);
  if (s->idle && !s->end)
    pf_buf_printf(out, "Turns in a row with nothing played or dealt: %d (the game ends at %d, SBJ-6)\n", s->idle,
                  s->players);
  if (s->end == END_STOCKPILE)
    pf_buf_printf(out, "Game over (SBJ-6): seat %d emptied their stockpile.\n", s->turn);
  else if (s->end == END_STALL)
    pf_buf_puts(out, "Game over (SBJ-6): a whole round of turns passed with nothing played or dealt; the fewest "
                     "stockpile cards win.\n");
  else if (s->end == END_TURN_LIMIT)
    pf_buf_printf(out, "Game over (SBJ-6): %d turns were played; the fewest stockpile cards win.\n", TURN_LIMIT);
  else if (s->chance)
    pf_buf_puts(out, "The draw pile is empty: the completed piles are shuffled into a new one (SBJ-3).\n");
  else if (pf_view_sees_own(seat, s->turn))
    playable_line(s, st, out);
}

/* The top card of the stockpile or a hand stack onto a building pile. */
static void sbj_move_zones(const void *vs, pf_move m, pf_move_zones *z) {
  const sbj_state *s = vs;
  source_id(s->turn, MOVE_SRC(m), z->from);
  z->card = top_card(s, source_pile(s, MOVE_SRC(m)));
  pf_snprintf(z->to, sizeof z->to, "build:%d", MOVE_BUILD(m) + 1);
}

/* "W from your hand stack 2 onto b3 (as 7)": what a play does, as anyone sees it (all of it is
 * public; the stockpile card it uncovers is not known before, so it is not told). */
static void sbj_describe(const void *vs, pf_move m, int viewer, const pf_style *st, pf_buf *out) {
  const sbj_state *s = vs;
  int src = MOVE_SRC(m), b = MOVE_BUILD(m), pile = source_pile(s, src), n = s->size[P_BUILD(b)] + 1;
  pf_card c = top_card(s, pile);
  char cs[32];
  const char *whose = viewer == s->turn ? "your" : "their";
  pf_buf_puts(out, pf_card_render(c, st, cs));
  if (src == 0)
    pf_buf_printf(out, " from %s stockpile", whose);
  else
    pf_buf_printf(out, " from %s hand stack %d", whose, src);
  pf_buf_printf(out, n == 1 ? " starts b%d" : " onto b%d", b + 1);
  if (c == WILD) pf_buf_printf(out, " (as %d)", n);
  if (src == 0 && s->size[pile] == 1)
    pf_buf_printf(out, ": %s stockpile is empty, a win", whose);
  else if (n == COMPLETE)
    pf_buf_printf(out, ": b%d is complete and set aside", b + 1);
}

/* ------------------------------------------------------------------------------------------ */
/* For learning: dense actions, chance outcomes and the length bound (docs/actions.md)         */
/* ------------------------------------------------------------------------------------------ */

/* The move codes are dense already: source (the stockpile, hand stacks 1-3) x 4 + building pile
 * (SBJ-4), 16 actions at every player count. */
static int sbj_action_count(int players, const pf_options *options) {
  (void)players, (void)options;
  return (1 + STACKS) * BUILDS;
}
static int sbj_action_index(const void *vs, pf_move m) {
  (void)vs;
  return m < (1 + STACKS) * BUILDS ? (int)m : -1;
}
static pf_move sbj_action_move(const void *vs, int a) {
  (void)vs;
  return a >= 0 && a < (1 + STACKS) * BUILDS ? (pf_move)a : PF_NO_MOVE;
}

/* A reshuffle (SBJ-3) has too many orders to list (it shuffles up to 90 cards), so its outcomes
 * are a sample: RESHUFFLE_SAMPLES orders of the completed piles, the k-th shuffled by a generator
 * seeded with (one draw from a copy of the state's generator, k), so that the same state gives the
 * same list and the state's own generator is left as it was. Each is equally likely, 1 /
 * RESHUFFLE_SAMPLES; an order drawn twice (equal cards, G-5, make that possible: a pile of wilds)
 * is listed once with the probabilities added. Every text is an outcome chance_apply takes, and
 * applying it leaves the state as chance_sample would had it drawn that order. */
#define RESHUFFLE_SAMPLES 16

static int sbj_chance_outcomes(const void *vs, pf_chance_outcome *out) {
  const sbj_state *s = vs;
  if (!s->chance) return 0;
  pf_card done[NCARDS], cards[NCARDS];
  int nd = done_cards(s, done), n = 0;
  pf_rng copy = s->rng, r;
  uint64_t base = pf_rng_next(&copy);
  for (int k = 0; k < RESHUFFLE_SAMPLES; k++) {
    memcpy(cards, done, (size_t)nd * sizeof cards[0]);
    pf_rng_seed(&r, base, (uint64_t)k);
    pf_shuffle16(&r, cards, (size_t)nd);
    outcome_str(cards, nd, out[n].text);
    int j = 0;
    while (j < n && strcmp(out[j].text, out[n].text) != 0) j++;
    if (j < n) {
      out[j].p += 1.0 / RESHUFFLE_SAMPLES;
      continue;
    }
    out[n].id = (uint32_t)n;
    out[n++].p = 1.0 / RESHUFFLE_SAMPLES;
  }
  return n;
}

/* SBJ-6 ends the game after TURN_LIMIT turns at the latest; reshuffles could otherwise recur
 * without end. A turn is at most one reshuffle (it makes the completed piles, 10 cards each
 * (SBJ-4), the draw pile, and the turn deals 3, SBJ-3) and one play per card the seat holds in
 * its stockpile and hand stacks, which get no card during the turn after its deal (SBJ-4, SBJ-5):
 * fewer than NCARDS. So at most TURN_LIMIT x (1 + NCARDS) steps. */
static long sbj_max_length(int players, const pf_options *options) {
  (void)players, (void)options;
  return (long)TURN_LIMIT * (1 + NCARDS);
}

/* ------------------------------------------------------------------------------------------ */
/* The description                                                                            */
/* ------------------------------------------------------------------------------------------ */


/* How pilfer bench and scripts/strength exercise the game, and the lobby's copy (core/measure.h). */
static const pf_measures MEASURES = {
    .playouts = {{2, 40000}, {4, 20000}, {6, 20000}},
    .searches = {{2, 5000, 2, {0, 20, 40}}},
    .sims = {{2, 10, "ismcts:iters=300 greedy"}},
    .strength = {{2, 2000, "ismcts greedy"}, {2, 2000, "greedy random"}},
    .quick_players = 2,
    .quick_options = "stock=5",
    .description = "A race for 2 to 6 players. Everyone builds on the same piles in the middle, in order from "
    "1 to 10, with wild cards filling any gap. Each turn you get three cards on your hand stacks "
    "and must keep playing while you can, from your stacks or your stockpile. The first to empty "
    "their stockpile wins, so the score is the cards left in it: fewer is better.",
    .length_players = 2,
    .length_moves = 47,
};

/* Design metrics (`pilfer analyze`). The fewest stockpile cards win (SBJ-6), so a seat stands by
 * the cards it has played from its stockpile; the counters are the state's own. */
static void sbj_standing(const void *vs, int *standing) {
  const sbj_state *s = vs;
  for (int p = 0; p < s->players; p++) standing[p] = -s->size[P_STOCK(p)];
}

static const char *const EVENTS[] = {"stock_plays", "completed_piles", "reshuffles", NULL};

static void sbj_count_events(const void *before, const void *after, pf_move m, long long *counts) {
  const sbj_state *b = before, *a = after;
  counts[0] += m != PF_MOVE_CHANCE && MOVE_SRC(m) == 0;
  counts[1] += a->completed - b->completed;
  counts[2] += a->reshuffles - b->reshuffles;
}

const pf_game pf_game_skip_bo_junior = {
    .id = "skip-bo-junior",
    .title = "Skip-Bo Junior",
    .min_players = 2,
    .max_players = MAX_SEATS,
    .options = OPTIONS,
    .noptions = sizeof OPTIONS / sizeof OPTIONS[0],
    .state_size = sizeof(sbj_state),
    .move_bound = 16 /* source * 4 + building pile */,
    .rules = pf_rules_skip_bo_junior,
    .measures = &MEASURES,
    .start = sbj_start,
    .to_move = sbj_to_move,
    .legal = sbj_legal,
    .random_move = sbj_random_move,
    .apply = sbj_apply,
    .move_str = sbj_move_str,
    .move_parse = sbj_move_parse,
    .scores = sbj_scores,
    .score_unit = "cards left", /* in the stockpile: the first to empty it wins (SBJ-6) */
    .score_unit_one = "card left",
    .score_low_wins = true,
    .winners = sbj_winners,
    .view_write = sbj_view_write,
    .view_text = sbj_view_text,
    .determinize = sbj_determinize,
    .check = sbj_check,
    .current_deal = sbj_current_deal,
    .chance_sample = sbj_chance_sample,
    .chance_apply = sbj_chance_apply,
    .describe = sbj_describe,
    .rate_moves = sbj_rate_moves,
    .move_zones = sbj_move_zones,
    .standing = sbj_standing,
    .events = EVENTS,
    .count_events = sbj_count_events,
    .action_count = sbj_action_count,
    .action_index = sbj_action_index,
    .action_move = sbj_action_move,
    .chance_outcomes = sbj_chance_outcomes,
    .max_length = sbj_max_length,
};
