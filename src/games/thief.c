/*
 * thief.c - Thief (RULINGS THF-1 .. THF-8), 2 to 6 players, and Four Card Thief (FCT-1 .. FCT-7,
 * "as Thief, except"), 2 to 6 players. One state and one set of methods serve both; `fct` says
 * which game is played.
 *
 * As in steal_the_pile.c the state keeps the deal's deck order in card[] (slot i is the i-th card
 * from the top) and names every card by its slot: in a hand, in the discard pile (Thief) or on the
 * table (Four Card Thief), in a capture, or still in the stock (slots from next_slot on).
 *
 * Capture piles (THF-3) are stacks of captures, and a capture is a stack of cards. A capture is
 * named by the slot of its bottom card, which never changes: captures only grow at the top (the
 * card that steals or re-captures is put on top) and move whole from pile to pile. So
 *   below[slot]       the card beneath a card in its capture (NONE at the bottom),
 *   cap_top[id]       the top card of capture id, cap_size[id] its cards, cap_nat[id] its natural
 *                     (not wild) cards: all of one rank, which makes FCT-4's lock a count,
 *   cap_under[id]     the capture beneath it in its pile (NONE at the bottom),
 *   pile_top[p]       the top capture of seat p's pile,
 * and every move is O(1) on the piles.
 *
 * The flow of a turn (THF-6, FCT-3, THF-5) is a phase; positions where nobody has a choice (a turn
 * that ends because no capture is left, the end of a hand) are passed through inside apply, so
 * that to_move always names a seat with a real choice, or nobody.
 *
 * The state is declared in thief.h; the views, what a move is told as and its zones are in
 * thief_views.c, away from the move generator, which this file keeps whole so that the compiler
 * inlines it into apply and random_playout.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/game.h"
#include "core/measure.h"
#include "core/slots.h"
#include "games/registry.h"
#include "games/rules.h"
#include "games/thief.h" /* the state */
PF_RULES_TEXT(pf_rules_thief);
PF_RULES_TEXT(pf_rules_four_card_thief);

static const pf_option_desc OPTIONS[] = {
    {"hands", PF_OPT_INT, 0, 0, 100,
     "hands in a game (THF-8); 0 = one per player, so that each deals once", "Hands in a game"},
};

/* ------------------------------------------------------------------------------------------ */
/* Cards moving                                                                               */
/* ------------------------------------------------------------------------------------------ */

/* Four Card Thief: the table cards as a set (laid); 0 in Thief. */
static uint64_t table_set(const thf_state *s) {
  uint64_t set = 0;
  for (int t = 0; t < s->nheap && s->fct; t++) set |= (uint64_t)1 << card_of(s, s->heap[t]);
  return set;
}

/* Card c into the hand h, and out of it. */
static inline void hand_add(hand_cards *h, uint64_t wild, pf_card c) {
  uint64_t bit = (uint64_t)1 << c;
  int shift = 4 * rk(c);
  if (h->held & bit) { /* its twin makes a pair, once; a third copy nothing */
    h->extra = (uint8_t)(h->extra + !!(h->twice & bit));
    h->pairs = (uint8_t)(h->pairs + !(h->twice & bit));
    h->twice |= bit;
    return;
  }
  h->pairs = (uint8_t)(h->pairs + (h->per_rank >> shift & 0xF)); /* with each card of its rank */
  h->per_rank += (uint64_t)1 << shift;
  h->held |= bit;
  h->n++;
  h->wilds = (uint8_t)(h->wilds + (wild >> c & 1));
}

static inline void hand_remove(hand_cards *h, uint64_t wild, pf_card c) {
  uint64_t bit = (uint64_t)1 << c;
  int shift = 4 * rk(c);
  if (h->twice & bit) { /* a copy stays */
    if (h->extra && c == PF_CARD_JOKER) {
      h->extra--;
    } else {
      h->twice &= ~bit;
      h->pairs--;
    }
    return;
  }
  h->per_rank -= (uint64_t)1 << shift;
  h->pairs = (uint8_t)(h->pairs - (h->per_rank >> shift & 0xF));
  h->held &= ~bit;
  h->n--;
  h->wilds = (uint8_t)(h->wilds - (wild >> c & 1));
}

/* Seat p's hand as the move generator reads it, from its cards. */
static void hand_read(const thf_state *s, int p, hand_cards *h) {
  memset(h, 0, sizeof *h);
  for (int i = 0; i < s->hand_len[p]; i++) hand_add(h, s->wild, s->hcard[p][i]);
}

/* The discard pile's top card (Thief); NONE when it is empty, and in Four Card Thief. */
static uint8_t discard_top(const thf_state *s) {
  return s->nheap && !s->fct ? (uint8_t)card_of(s, s->heap[s->nheap - 1]) : NONE;
}

/* hcard, hc and dtop from card[] and the hands' slots: after card[] is written (a deal; a
 * determinization for `seat`, which leaves that seat's hand as it was, and NONE for a deal). The
 * seats beyond the players hold nothing, and never will. */
static void hands_read(thf_state *s, int seat) {
  for (int p = 0; p < s->players; p++) {
    if (p == seat) continue;
    for (int i = 0; i < HAND_ROOM; i++) s->hcard[p][i] = i < s->hand_len[p] ? (uint8_t)card_of(s, s->hand[p][i]) : 0;
    hand_read(s, p, &s->hc[p]);
  }
  s->dtop = discard_top(s);
}

static inline uint64_t word_of(const uint8_t *b) {
  uint64_t w;
  memcpy(&w, b, sizeof w);
  return w;
}
static inline void word_set(uint8_t *b, uint64_t w) { memcpy(b, &w, sizeof w); }
#define BYTES_1 0x0101010101010101ull

/* Takes the card c out of seat p's hand and returns its slot (the first copy: G-5). The hand's
 * cards and slots are read and written as words: the card is the lowest zero byte of their xor
 * with c (a false zero can only lie above a true one), and the cards above it move down a byte,
 * by shifts (neither a loop nor a call of memmove for a few bytes; a word read after byte stores
 * would wait for them). */
static inline uint8_t hand_take(thf_state *s, int p, pf_card c) {
  uint64_t cards = word_of(s->hcard[p]), slots = word_of(s->hand[p]), x = cards ^ BYTES_1 * c;
  int at = __builtin_ctzll((x - BYTES_1) & ~x & 0x80 * BYTES_1) & ~7; /* the card's byte, in bits */
  uint64_t below = ((uint64_t)1 << at) - 1;
  word_set(s->hcard[p], (cards & below) | (cards >> 8 & ~below));
  word_set(s->hand[p], (slots & below) | (slots >> 8 & ~below));
  s->hand_len[p]--;
  hand_remove(&s->hc[p], s->wild, c);
  return (uint8_t)(slots >> at);
}

static bool hand_has(const thf_state *s, int p, pf_card c, int copies) {
  for (int i = 0; i < s->hand_len[p]; i++) copies -= s->hcard[p][i] == c;
  return copies <= 0;
}

/* Draws for seat p until it holds `upto` cards or the stock is out; a draw of the last card makes
 * this turn the last of the hand (THF-7). */
static inline void draw(thf_state *s, int p, int upto) {
  int len = s->hand_len[p], next = s->next_slot;
  uint64_t cards = word_of(s->hcard[p]), slots = word_of(s->hand[p]); /* as words: see hand_take */
  for (; len < upto && next < s->ncards; len++, next++) { /* the bytes beyond the hand are 0s */
    pf_card c = card_of(s, next);
    slots |= (uint64_t)next << 8 * len;
    cards |= (uint64_t)c << 8 * len;
    hand_add(&s->hc[p], s->wild, c);
  }
  if (next == s->ncards) s->last_turn = 1; /* this draw took the last card, or an earlier one did */
  word_set(s->hcard[p], cards);
  word_set(s->hand[p], slots);
  s->hand_len[p] = (uint8_t)len;
  s->next_slot = (uint8_t)next;
}

static inline void cap_add(thf_state *s, int id, uint8_t slot) {
  pf_card c = card_of(s, slot);
  s->below[slot] = s->cap_top[id];
  s->cap_top[id] = slot;
  s->cap_size[id]++;
  s->cap_nat[id] = (uint8_t)(s->cap_nat[id] + !is_wild(s, c));
  s->cap_pts[id] = (uint16_t)(s->cap_pts[id] + card_points(s, c));
}

/* A new capture: `lower` beneath, `upper` (the capturing card, THF-3) on top. */
static inline int cap_new(thf_state *s, uint8_t lower, uint8_t upper) {
  pf_card c = card_of(s, lower);
  s->below[lower] = NONE;
  s->cap_top[lower] = lower;
  s->cap_size[lower] = 1;
  s->cap_nat[lower] = !is_wild(s, c);
  s->cap_pts[lower] = (uint16_t)card_points(s, c);
  cap_add(s, lower, upper);
  return lower;
}

/* top, open and pile_pts of seat p, after its top capture changed. */
static inline void pile_note(thf_state *s, int p) {
  int id = s->pile_top[p];
  bool any = id != NONE;
  s->top[p] = any ? (uint8_t)card_of(s, s->cap_top[id]) : NONE;
  s->open = (uint8_t)((s->open & ~(1u << p)) | (unsigned)(any && !cap_locked(s, id)) << p);
}

static inline void pile_push(thf_state *s, int p, int id) {
  s->cap_under[id] = s->pile_top[p];
  s->pile_top[p] = (uint8_t)id;
  s->pile_caps[p]++;
  s->pile_cards[p] = (uint8_t)(s->pile_cards[p] + s->cap_size[id]);
  s->pile_pts[p] += s->cap_pts[id];
  pile_note(s, p);
}

static inline int pile_pop(thf_state *s, int p) {
  int id = s->pile_top[p];
  s->pile_top[p] = s->cap_under[id];
  s->pile_caps[p]--;
  s->pile_cards[p] = (uint8_t)(s->pile_cards[p] - s->cap_size[id]);
  s->pile_pts[p] -= s->cap_pts[id];
  pile_note(s, p);
  return id;
}

/* Steals (or re-captures, THF-5) the top capture of `from` for `to`, with the card c on top. */
static inline void steal(thf_state *s, int to, int from, pf_card c) {
  uint8_t slot = hand_take(s, to, c);
  int id = pile_pop(s, from);
  cap_add(s, id, slot);
  pile_push(s, to, id);
}

/* ------------------------------------------------------------------------------------------ */
/* Legal moves                                                                                */
/* ------------------------------------------------------------------------------------------ */

/* The distinct hand cards of rank key r; those a steal of a top card of rank r may be made with
 * (its rank or a wild: the wild ranks are whole nibbles of the card codes, so a wild of rank r is
 * counted once). */
static inline int hand_of_rank(const hand_cards *h, int r) { return (int)(h->per_rank >> 4 * r & 0xF); }
static inline int hand_stealing(const thf_state *s, const hand_cards *h, int r) {
  return h->wilds + (s->wild >> 4 * r & 1 ? 0 : hand_of_rank(h, r));
}

/* The r-th distinct card of seat p's hand in `set`, in hand order (a card held twice at its first
 * copy, G-5). When the hand holds one distinct card of the set (r is then 0), that card, read from
 * the set of cards held without a walk of the hand, whose end depends on where it lies: most
 * captures and re-captures drawn have one card to make them with. */
static inline pf_card hand_nth(const thf_state *s, int p, uint64_t set, int r) {
  const uint8_t *hc = s->hcard[p];
  uint64_t in = s->hc[p].held & set;
  if (!(in & (in - 1))) return (pf_card)__builtin_ctzll(in);
  for (int i = 0;; i++) {
    uint64_t bit = (uint64_t)1 << hc[i];
    if ((set & bit) && r-- == 0) return hc[i];
    set &= ~bit;
  }
}

/* THF-4(a): the pair's cards in alphabetical order of their notation. Equal ranks differ only in
 * the suit letter, and C < D < H < S is the reverse of the suit codes. */
static pf_move pair_move(pf_card a, pf_card b) {
  return a >= b ? MV(K_PAIR, a, b) : MV(K_PAIR, b, a);
}

/* The seats whose top capture seat p may steal now (THF-4(c), FCT-4), as a bit mask. */
static inline unsigned stealable(const thf_state *s, int p) { return s->open & ~(1u << p); }

/* What a steal from seat q may be made with: a card of the rank of q's top card, or a wild. */
static inline uint64_t steal_set(const thf_state *s, int q) { return RANK_SET(rk(s->top[q])) | s->wild; }

/* A hand that makes one pair (its count) and holds no card twice makes it of the two distinct cards
 * of the one rank it holds two of: found from the counts by rank, without a walk of the hand. Most
 * hands that make a pair make one. */
static inline bool one_pair(const hand_cards *h) { return h->pairs == 1 && !h->twice; }
static inline pf_move the_pair(const hand_cards *h) {
  uint64_t two = (h->per_rank | h->per_rank >> 1) & 0x2222222222222222ull; /* nibbles of 2 or more */
  uint64_t set = h->held & RANK_SET(__builtin_ctzll(two) >> 2);
  return pair_move((pf_card)(63 - __builtin_clzll(set)), (pf_card)__builtin_ctzll(set));
}

/* THF-4(a): the pairs seat p can make from hand (read into h), each once; a wild pairs only with
 * its own rank. Lists them until it has `upto` + 1 (random_move wants one) or all; returns how
 * many it listed. Only a hand holding a card twice can make a pair twice. */
static int pairs(const thf_state *s, int p, const hand_cards *hc, int upto, pf_move *out) {
  if (one_pair(hc)) {
    out[0] = the_pair(hc);
    return 1;
  }
  int n = 0, len = s->hand_len[p];
  const uint8_t *h = s->hcard[p];
  for (int i = 0; i < len; i++)
    for (int j = i + 1; j < len; j++) {
      pf_card a = h[i], b = h[j];
      if (rk(a) != rk(b)) continue;
      pf_move m = pair_move(a, b);
      bool dup = false;
      for (int k = 0; hc->twice && k < n; k++) dup |= out[k] == m;
      if (!dup) out[n++] = m;
      if (n > upto) return n;
    }
  return n;
}

/* The moves the distinct cards of seat p's hand in `set` make, kind and b alike, in hand order;
 * returns how many. */
static inline int hand_moves(const thf_state *s, int p, uint64_t set, int kind, int b, pf_move *out) {
  const uint8_t *hc = s->hcard[p];
  int n = 0;
  for (int i = 0; i < s->hand_len[p]; i++) {
    out[n] = MV(kind, hc[i], b);
    n += (int)(set >> hc[i] & 1);
    set &= ~((uint64_t)1 << hc[i]);
  }
  return n;
}

/* Every capture seat p can make, steals only if `steals`; returns how many. */
static int captures(const thf_state *s, int p, bool steals, pf_move *out) {
  const hand_cards *h = &s->hc[p];
  int n = h->pairs ? pairs(s, p, h, PF_MAX_MOVES, out) : 0;
  if (!s->fct) {
    /* (b) the discard pile's top card, with a card of its rank */
    if (s->nheap) n += hand_moves(s, p, RANK_SET(rk(card_of(s, s->heap[s->nheap - 1]))), K_DISCARD_CAPTURE, 0, out + n);
  } else {
    /* FCT-3: a table card with a hand card of its rank; the table's equal cards (jokers) once */
    uint64_t seen = 0;
    for (int t = 0; t < s->nheap; t++) {
      pf_card tc = card_of(s, s->heap[t]);
      if ((seen >> tc & 1) || !(h->held & RANK_SET(rk(tc)))) continue;
      seen |= (uint64_t)1 << tc;
      n += hand_moves(s, p, RANK_SET(rk(tc)), K_TABLE_CAPTURE, tc, out + n);
    }
  }
  if (steals) /* (c) with a card of the rank of another pile's top card, or with any wild */
    for (unsigned mask = stealable(s, p); mask; mask &= mask - 1) {
      int q = __builtin_ctz(mask);
      n += hand_moves(s, p, steal_set(s, q), K_STEAL, q, out + n);
    }
  return n;
}

static int discards(const thf_state *s, int p, pf_move *out) { return hand_moves(s, p, ~(uint64_t)0, K_DISCARD, 0, out); }

/* THF-5: re-captures of the contested capture, then pass (always offered). */
static uint64_t answer_set(const thf_state *s) { return RANK_SET(s->contested) | s->wild; }
static int answers(const thf_state *s, pf_move *out) {
  int n = hand_moves(s, s->answerer, answer_set(s), K_STEAL, s->other, out);
  out[n++] = MV(K_PASS, 0, 0);
  return n;
}

static int thf_legal(const void *vs, pf_move *out) {
  const thf_state *s = vs;
  int p = s->turn, n;
  switch (s->phase) {
  case PH_ANSWER: return answers(s, out);
  case PH_DISCARDED:
  case PH_CAPTURED: /* THF-6: after the first action every capture is optional; pass ends the
                       turn and is offered even when it is the only move */
    if (!s->hand_len[p]) return 0;
    n = captures(s, p, s->phase == PH_CAPTURED, out);
    out[n++] = MV(K_PASS, 0, 0);
    return n;
  case PH_START:
    n = captures(s, p, true, out); /* the first action: forced (THF-6); FCT-3: while any */
    return n ? n : discards(s, p, out);
  default: return 0;
  }
}

/* The move thf_legal would list at index pf_rng_below(rng, n) (game.h's random_move), counted
 * from the hand's cards as sets and made alone, in captures()'s order: pairs (only they are
 * listed, when the draw falls on one), the discard captures or the table captures (table card by
 * table card, each distinct table card offering every distinct hand card of its rank), steals
 * seat by seat; then pass, or with no capture at a turn's start the discards; a re-capture's
 * answers (THF-5) are the hand's cards of the contested rank or wild, then pass. */
static inline __attribute__((always_inline)) pf_move random_move(const thf_state *s, pf_rng *rng, int *count) {
  if (s->phase == PH_ANSWER) {
    int k = hand_stealing(s, &s->hc[s->answerer], s->contested), r = (int)pf_rng_below(rng, (uint32_t)(*count = k + 1));
    return r < k ? MV(K_STEAL, hand_nth(s, s->answerer, answer_set(s), r), s->other) : MV(K_PASS, 0, 0);
  }
  int p = s->turn;
  const hand_cards *h = &s->hc[p];
  int ncap = 0, nsteal = 0;
  if (!s->fct) {
    ncap = s->dtop == NONE ? 0 : hand_of_rank(h, rk(s->dtop));
  } else {
    uint64_t laid = s->laid, ranks = (laid | laid >> 1 | laid >> 2 | laid >> 3) & 0x1111111111111111ull;
    for (uint64_t held = h->held & ranks * 0xF; held; held &= held - 1) /* each hand card's table cards of its rank */
      ncap += NIBBLE_BITS(laid >> 4 * rk((pf_card)__builtin_ctzll(held)) & 0xF);
  }
  unsigned mask = s->phase == PH_DISCARDED ? 0 : stealable(s, p); /* THF-6: no steal after a discard */
  for (unsigned m = mask; m; m &= m - 1) nsteal += hand_stealing(s, h, rk(s->top[__builtin_ctz(m)]));
  int n = h->pairs + ncap + nsteal;
  if (s->phase == PH_START && n == 0) { /* no capture: a discard (THF-6, FCT-3) */
    *count = h->n;
    int r = (int)pf_rng_below(rng, h->n);
    return MV(K_DISCARD, h->twice ? hand_nth(s, p, ~(uint64_t)0, r) : s->hcard[p][r], 0); /* all distinct: the r-th */
  }
  n += s->phase != PH_START; /* pass, after the turn's first action (THF-6) */
  *count = n;
  int r = (int)pf_rng_below(rng, (uint32_t)n);
  if (r < h->pairs) {
    if (one_pair(h)) return the_pair(h); /* not through the call: most pairs are drawn here */
    pf_move moves[HAND_MAX * HAND_MAX];
    pairs(s, p, h, r, moves);
    return moves[r];
  }
  r -= h->pairs;
  if (r < ncap) {
    if (!s->fct) return MV(K_DISCARD_CAPTURE, hand_nth(s, p, RANK_SET(rk(s->dtop)), r), 0);
    uint64_t seen = 0;
    for (int t = 0;; t++) {
      pf_card tc = card_of(s, s->heap[t]);
      if (seen >> tc & 1) continue;
      seen |= (uint64_t)1 << tc;
      int k = hand_of_rank(h, rk(tc));
      if (r < k) return MV(K_TABLE_CAPTURE, hand_nth(s, p, RANK_SET(rk(tc)), r), tc);
      r -= k;
    }
  }
  r -= ncap;
  for (; mask; mask &= mask - 1) {
    int q = __builtin_ctz(mask), k = hand_stealing(s, h, rk(s->top[q]));
    if (r < k) return MV(K_STEAL, hand_nth(s, p, steal_set(s, q), r), q);
    r -= k;
  }
  return MV(K_PASS, 0, 0);
}

/* ------------------------------------------------------------------------------------------ */
/* Hands and the flow of turns                                                                */
/* ------------------------------------------------------------------------------------------ */

static int deck_of(const thf_state *s, pf_card *deck) { return pf_deck_standard(deck, s->fct ? 1 : 2, s->fct ? 3 : 4); }

static void load_deal(thf_state *s) {
  pf_card deck[MAX_CARDS];
  pf_slots_load_deal(s->card, deck, deck_of(s, deck), s->given, s->ndeals_given, s->hand_no, s->seed);
}


static void start_turn(thf_state *s) {
  s->phase = PH_START;
  s->x_thief = NONE;
  if (s->fct) draw(s, s->turn, s->hand_len[s->turn] + 1); /* FCT-3 */
}

/* THF-2 / FCT-2: one card at a time from the seat after the dealer, then the discard pile's first
 * card (Thief) or the four table cards (Four Card Thief). */
static void start_hand(thf_state *s) {
  memset(s->hand_len, 0, sizeof s->hand_len);
  memset(s->hand, 0, sizeof s->hand); /* no slot of the last hand lingers beyond a hand (draw) */
  memset(s->pile_caps, 0, sizeof s->pile_caps);
  memset(s->pile_cards, 0, sizeof s->pile_cards);
  memset(s->pile_top, NONE, sizeof s->pile_top);
  memset(s->top, NONE, sizeof s->top);
  memset(s->pile_pts, 0, sizeof s->pile_pts);
  s->open = 0;
  s->nheap = 0;
  s->next_slot = 0;
  s->last_turn = 0;
  load_deal(s);
  for (int j = 0; j < s->hand_size; j++)
    for (int i = 1, seat = s->dealer; i <= s->players; i++) {
      seat = seat + 1 == s->players ? 0 : seat + 1;
      s->hand[seat][j] = s->next_slot++;
    }
  for (int p = 0; p < s->players; p++) s->hand_len[p] = s->hand_size;
  for (int k = 0; k < (s->fct ? 4 : 1); k++) s->heap[s->nheap++] = s->next_slot++;
  hands_read(s, NONE);
  s->laid = table_set(s);
  s->turn = (uint8_t)((s->dealer + 1) % s->players);
  start_turn(s);
}


/* THF-7: the hand is over; cards in hands and the discard pile (the table) count for nobody.
 * THF-8: N hands, the deal moving on (G-2). */
static void end_hand(thf_state *s) {
  for (int p = 0; p < s->players; p++) {
    s->last_hand[p] = pile_points(s, p);
    s->total[p] += s->last_hand[p];
  }
  s->hand_no++;
  if (s->hand_no >= s->hands) {
    s->phase = PH_OVER;
    return;
  }
  s->dealer = (uint8_t)((s->dealer + 1) % s->players);
  if (s->stop) { /* play stops before the next deal (stop_at_deal_end): the totals hold the hand */
    s->phase = PH_STOPPED;
    return;
  }
  start_hand(s);
}

static void end_turn(thf_state *s) {
  if (s->last_turn) {
    end_hand(s);
    return;
  }
  s->turn = (uint8_t)(s->turn + 1 == s->players ? 0 : s->turn + 1);
  start_turn(s);
}

/* Passes through positions without a choice: a turn ends when its player holds no card (THF-6,
 * FCT-3). Whatever the phase, a player holding a card has a move: at a turn's start a capture or
 * a discard, later at least pass (THF-6). Whether a capture is left never ends a Thief turn by
 * itself, so that nobody learns from a turn's end what the hand holds. */
static inline void settle(thf_state *s) {
  while (s->phase < PH_ANSWER && s->hand_len[s->turn] == 0) end_turn(s); /* not over, stopped or answering */
}

/* Takes the table card at index t out of the heap: the cards above it move down, eight at a time
 * (a table has a few cards; a call of memmove for them would cost more than the move). Bytes
 * past the table change too, as copies of bytes past it: the heap has room (MAX_CARDS) beyond
 * the table's most (FCT-1's 55 cards). */
static inline void heap_remove(thf_state *s, int t) {
  for (int k = t; k < s->nheap; k += 8) {
    uint64_t w;
    memcpy(&w, s->heap + k + 1, 8);
    memcpy(s->heap + k, &w, 8);
  }
  s->nheap--;
}


static inline __attribute__((always_inline)) void apply(thf_state *s, pf_move m) {
  int p = s->turn, kind = MV_KIND(m);
  bool fct = s->fct; /* read before the stores: tested with phase after them, the two bytes
                      * made one wide load that waited for the draws' byte stores */
  pf_card a = MV_A(m);
  switch (kind) {
  case K_PAIR: {
    uint8_t lower = hand_take(s, p, a), upper = hand_take(s, p, (pf_card)MV_B(m));
    pile_push(s, p, cap_new(s, lower, upper));
    break;
  }
  case K_DISCARD_CAPTURE: {
    uint8_t d = s->heap[--s->nheap];
    s->dtop = discard_top(s);
    pile_push(s, p, cap_new(s, d, hand_take(s, p, a)));
    break;
  }
  case K_TABLE_CAPTURE: {
    int t = table_find(s, (pf_card)MV_B(m));
    uint8_t tc = s->heap[t];
    heap_remove(s, t);
    s->laid = MV_B(m) == PF_CARD_JOKER ? table_set(s) : s->laid & ~((uint64_t)1 << MV_B(m)); /* jokers repeat */
    pile_push(s, p, cap_new(s, tc, hand_take(s, p, a)));
    break;
  }
  case K_STEAL:
    if (s->phase == PH_ANSWER) { /* THF-5: a re-capture; its maker draws at once */
      int who = s->answerer;
      steal(s, who, s->other, a);
      s->x_recaptures++;
      s->x_holder = (uint8_t)who;
      s->x_cards = s->cap_size[s->pile_top[who]];
      draw(s, who, s->hand_size);
      s->answerer = s->other;
      s->other = (uint8_t)who;
      settle(s);
      return;
    }
    s->contested = (uint8_t)rk(pile_top_card(s, MV_B(m)));
    steal(s, p, MV_B(m), a);
    s->x_thief = s->x_holder = (uint8_t)p;
    s->x_victim = (uint8_t)MV_B(m);
    s->x_recaptures = 0;
    s->x_cards = s->cap_size[s->pile_top[p]];
    break;
  case K_PASS:
    if (s->phase == PH_ANSWER) /* THF-5: the exchange is over and the turn goes on (THF-6) */
      s->phase = PH_CAPTURED;
    else /* THF-6: the player ends the turn */
      end_turn(s);
    settle(s);
    return;
  case K_DISCARD: {
    uint8_t slot = hand_take(s, p, a);
    s->heap[s->nheap++] = slot;
    if (s->fct) { /* FCT-3: a new table card, which ends the turn */
      s->laid |= (uint64_t)1 << a;
      end_turn(s);
    } else { /* THF-6: discard, draw one; then no steals */
      s->dtop = (uint8_t)a;
      draw(s, p, s->hand_len[p] + 1);
      s->phase = PH_DISCARDED;
    }
    settle(s);
    return;
  }
  }
  /* A capture: draw up to 3 (THF-6), or up to 5 during a Four Card Thief turn (FCT-3). */
  draw(s, p, fct ? HAND_MAX : s->hand_size);
  if (kind == K_STEAL && !fct) { /* THF-5: the victim may answer, after the thief drew */
    s->phase = PH_ANSWER;
    s->answerer = (uint8_t)MV_B(m);
    s->other = (uint8_t)p;
    return;
  }
  if (s->phase == PH_START && !fct) s->phase = PH_CAPTURED;
  settle(s);
}

/* The methods; thf_random_playout has both inline. */
static pf_move thf_random_move(const void *vs, pf_rng *rng, int *count) { return random_move(vs, rng, count); }
static void thf_apply(void *vs, pf_move m) { apply(vs, m); }

/* ------------------------------------------------------------------------------------------ */
/* The greedy bot's rule of thumb                                                             */
/* ------------------------------------------------------------------------------------------ */

static int cap_points(const thf_state *s, int id) { return s->cap_pts[id]; }

/* Capture the most points, and steal (or re-capture) before anything else of equal worth: a
 * capture is worth the points it puts on your pile, and a steal as much again, which its victim
 * loses. Always re-capture when you can. With no capture, discard the card worth least. Once the
 * turn's first action is made (THF-6), a steal or discard capture made with a wild is worth less
 * by the points of your own top capture: kept, that wild re-captures it if it is stolen (THF-5);
 * pass (worth 0) when nothing is worth more. */
static void thf_rate_moves(const void *vs, const pf_move *moves, int n, int64_t *rating) {
  const thf_state *s = vs;
  bool optional = s->phase == PH_CAPTURED || s->phase == PH_DISCARDED;
  int keep = optional && s->pile_caps[s->turn] ? cap_points(s, s->pile_top[s->turn]) : 0;
  for (int i = 0; i < n; i++) {
    pf_move m = moves[i];
    pf_card a = MV_A(m);
    int64_t r = 0;
    switch (MV_KIND(m)) {
    case K_PAIR: r = card_points(s, a) + card_points(s, (pf_card)MV_B(m)); break;
    case K_DISCARD_CAPTURE: r = card_points(s, a) + card_points(s, card_of(s, s->heap[s->nheap - 1])); break;
    case K_TABLE_CAPTURE: r = card_points(s, a) + card_points(s, (pf_card)MV_B(m)); break;
    case K_STEAL: r = card_points(s, a) + 2 * cap_points(s, s->pile_top[MV_B(m)]); break;
    case K_DISCARD: r = -card_points(s, a); break;
    default: r = 0; break; /* pass */
    }
    if ((MV_KIND(m) == K_STEAL || MV_KIND(m) == K_DISCARD_CAPTURE) && is_wild(s, a)) r -= keep;
    rating[i] = r;
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Move notation                                                                              */
/* ------------------------------------------------------------------------------------------ */

static void thf_move_str(const void *vs, pf_move m, char buf[PF_MOVE_STR]) {
  (void)vs;
  char a[PF_CARD_STR], b[PF_CARD_STR];
  pf_card_str(MV_A(m), a);
  switch (MV_KIND(m)) {
  case K_DISCARD: pf_snprintf(buf, PF_MOVE_STR, "%s", a); break;
  case K_PAIR: pf_snprintf(buf, PF_MOVE_STR, "%s+%s", a, pf_card_str((pf_card)MV_B(m), b)); break;
  case K_DISCARD_CAPTURE: pf_snprintf(buf, PF_MOVE_STR, "%s>d", a); break;
  case K_TABLE_CAPTURE: pf_snprintf(buf, PF_MOVE_STR, "%s>%s", a, pf_card_str((pf_card)MV_B(m), b)); break;
  case K_STEAL: pf_snprintf(buf, PF_MOVE_STR, "%s>p%d", a, MV_B(m)); break;
  default: pf_snprintf(buf, PF_MOVE_STR, "pass"); break;
  }
}

static void legal_list(const thf_state *s, char *buf, size_t size) {
  pf_move ms[PF_MAX_MOVES];
  int n = thf_legal(s, ms);
  buf[0] = '\0';
  for (int i = 0; i < n; i++) {
    char t[PF_MOVE_STR];
    thf_move_str(s, ms[i], t);
    size_t used = strlen(buf);
    if (used + strlen(t) + 8 >= size) {
      pf_snprintf(buf + used, size - used, " ...");
      return;
    }
    pf_snprintf(buf + used, size - used, "%s%s", i ? " " : "", t);
  }
}



/* Why a well-formed move that is not legal is refused. */
static int refuse(const thf_state *s, pf_move m, pf_error *err) {
  int p = s->phase == PH_ANSWER ? s->answerer : s->turn, kind = MV_KIND(m), q = MV_B(m);
  pf_card a = MV_A(m);
  char as[PF_CARD_STR], bs[PF_CARD_STR], r[8], list[400];
  pf_card_str(a, as);
  legal_list(s, list, sizeof list);
  if (kind == K_PASS) {
    if (s->fct) return pf_fail(err, "Four Card Thief has no pass: no re-capture (FCT-5), and a discard ends the turn (FCT-3); legal: %s", list);
    return pf_fail(err, "pass answers a steal (THF-5) or ends a turn after its first action, never before it (THF-6); legal: %s", list);
  }
  if (!hand_has(s, p, a, kind == K_PAIR && MV_B(m) == a ? 2 : 1))
    return pf_fail(err, "%s%s is not in seat %d's hand", kind == K_PAIR && MV_B(m) == a ? "a second " : "", as, p);
  if (kind == K_PAIR && !hand_has(s, p, (pf_card)q, 1))
    return pf_fail(err, "%s is not in seat %d's hand", pf_card_str((pf_card)q, bs), p);
  if (s->phase == PH_ANSWER) {
    if (kind != K_STEAL || q != s->other)
      return pf_fail(err, "seat %d may only re-capture from p%d or pass (THF-5); legal: %s", p, s->other, list);
    return pf_fail(err, "a re-capture needs a card of the contested rank (%s) or %s (THF-5); legal: %s",
                   rank_name(s->contested, r), wild_text(s), list);
  }
  switch (kind) {
  case K_PAIR:
    if (rk(a) != rk((pf_card)q))
      return pf_fail(err, "%s and %s are not a pair: equal ranks only, and a wild pairs only with its own rank (THF-4a)",
                     as, pf_card_str((pf_card)q, bs));
    break;
  case K_DISCARD_CAPTURE:
    if (s->fct) return pf_fail(err, "Four Card Thief has no discard pile (FCT-2); take a table card: %s>7S", as);
    if (!s->nheap) return pf_fail(err, "the discard pile is empty");
    if (rk(a) != rk(card_of(s, s->heap[s->nheap - 1])))
      return pf_fail(err, "%s does not match the discard pile's top card %s: equal ranks only, a wild only by its own rank (THF-4b)",
                     as, pf_card_str(card_of(s, s->heap[s->nheap - 1]), bs));
    break;
  case K_TABLE_CAPTURE: {
    pf_card_str((pf_card)q, bs);
    if (!s->fct) return pf_fail(err, "Thief has no table cards; the discard pile is 'd' (%s>d)", as);
    bool on_table = false;
    for (int t = 0; t < s->nheap; t++) on_table |= card_of(s, s->heap[t]) == q;
    if (!on_table) return pf_fail(err, "there is no table card %s", bs);
    if (rk(a) != rk((pf_card)q))
      return pf_fail(err, "%s does not match the table card %s: equal ranks only (FCT-3)", as, bs);
    break;
  }
  case K_STEAL:
    if (q >= s->players) return pf_fail(err, "there is no seat %d", q);
    if (q == p) return pf_fail(err, "a steal takes another player's top capture, not your own (THF-4c)");
    if (!s->pile_caps[q]) return pf_fail(err, "seat %d's capture pile is empty", q);
    if (s->phase == PH_DISCARDED)
      return pf_fail(err, "after a discard only pairs and discard captures may be made, never a steal (THF-6)");
    if (cap_locked(s, s->pile_top[q]))
      return pf_fail(err, "seat %d's top capture holds all four %ss: it is locked and nothing can be stolen from that pile (FCT-4)",
                     q, rank_name(rk(pile_top_card(s, q)), r));
    if (rk(a) != rk(pile_top_card(s, q)) && !is_wild(s, a))
      return pf_fail(err, "%s does not match %s, the top card of seat %d's pile: a steal needs its rank or %s (THF-4c%s)", as,
                     pf_card_str(pile_top_card(s, q), bs), q, wild_text(s), s->fct ? ", FCT-1" : "");
    break;
  case K_DISCARD:
    if (s->phase == PH_DISCARDED) return pf_fail(err, "seat %d has already discarded this turn (THF-6); legal: %s", p, list);
    if (s->phase == PH_CAPTURED)
      return pf_fail(err, "a discard is made only when no capture is available at the start of the turn (THF-6); legal: %s", list);
    return pf_fail(err, "a capture is available, and %s (%s): %s",
                   s->fct ? "captures are forced" : "a turn's first action is forced", s->fct ? "FCT-3" : "THF-6", list);
  }
  return pf_fail(err, "not a capture that can be made here; legal: %s", list);
}

static int thf_move_parse(const void *vs, const char *text, pf_move *m, pf_error *err) {
  const thf_state *s = vs;
  const char *p = text;
  pf_move mv;
  while (*p == ' ' || *p == '\t') p++;
  if (strncasecmp(p, "pass", 4) == 0) {
    p += 4;
    mv = MV(K_PASS, 0, 0);
  } else {
    pf_card a, b;
    if (pf_card_scan(&p, &a) != 0 || !(pf_card_is_standard(a) || a == PF_CARD_JOKER))
      return pf_fail(err, "cannot read a card at the start; moves look like %s", s->fct ? "7H, 7H+7S, 7H>7S, 7H>p2" : "7H, 7H+7S, 7H>d, 7H>p2, pass");
    while (*p == ' ') p++;
    if (*p == '+') {
      p++;
      while (*p == ' ') p++;
      if (pf_card_scan(&p, &b) != 0 || !(pf_card_is_standard(b) || b == PF_CARD_JOKER))
        return pf_fail(err, "after '+' comes the pair's second card (7H+7S)");
      mv = pair_move(a, b);
    } else if (*p == '>') {
      p++;
      while (*p == ' ') p++;
      int seat;
      if (pf_pile_scan(&p, &seat) == 0) {
        mv = MV(K_STEAL, a, seat);
      } else if ((p[0] == 'd' || p[0] == 'D') && (p[1] == '\0' || p[1] == ' ')) {
        p++;
        mv = MV(K_DISCARD_CAPTURE, a, 0);
      } else if (pf_card_scan(&p, &b) == 0 && (pf_card_is_standard(b) || b == PF_CARD_JOKER)) {
        mv = MV(K_TABLE_CAPTURE, a, b);
      } else {
        return pf_fail(err, "after '>' comes %s", s->fct ? "a table card (7S) or p<seat>" : "d (the discard pile) or p<seat>");
      }
    } else {
      mv = MV(K_DISCARD, a, 0);
    }
  }
  while (*p == ' ') p++;
  if (*p) return pf_fail(err, "unexpected '%s' after the move", p);
  pf_move ms[PF_MAX_MOVES];
  int n = thf_legal(s, ms);
  for (int i = 0; i < n; i++)
    if (ms[i] == mv) {
      *m = mv;
      return 0;
    }
  return refuse(s, mv, err);
}

/* ------------------------------------------------------------------------------------------ */
/* Start, scores, deals                                                                       */
/* ------------------------------------------------------------------------------------------ */

static int start(void *vs, const pf_setup *setup, bool fct, pf_error *err) {
  thf_state *s = vs;
  memset(s, 0, sizeof *s);
  s->fct = fct;
  s->players = (uint8_t)setup->players;
  s->ncards = fct ? 55 : 108; /* FCT-1, THF-1 */
  s->hand_size = fct ? 4 : 3; /* FCT-2, THF-2 */
  s->wild = (uint64_t)1 << PF_CARD_JOKER | (fct ? 0 : RANK_SET(1)); /* FCT-1, THF-1 */
  s->hands = setup->options.v[0] ? (int32_t)setup->options.v[0] : setup->players; /* THF-8 */
  s->seed = setup->seed;
  s->given = setup->deals;
  s->ndeals_given = setup->ndeals;
  s->dealer = (uint8_t)(setup->players - 1); /* G-2 */
  if (setup->ndeals > s->hands)
    return pf_fail(err, "a game of %d hand%s uses %d deal%s, but %d are given", s->hands, s->hands == 1 ? "" : "s",
                   s->hands, s->hands == 1 ? "" : "s", setup->ndeals);
  pf_card deck[MAX_CARDS];
  if (pf_deals_check(setup->deals, setup->ndeals, deck, deck_of(s, deck), err) != 0) return -1;
  start_hand(s);
  settle(s);
  return 0;
}

static int thf_start(void *vs, const pf_setup *setup, pf_error *err) { return start(vs, setup, false, err); }
static int fct_start(void *vs, const pf_setup *setup, pf_error *err) { return start(vs, setup, true, err); }

int thf_to_move(const void *vs) {
  const thf_state *s = vs;
  if (s->phase >= PH_OVER) return PF_NOBODY; /* over, or stopped at a hand's end */
  return s->phase == PH_ANSWER ? s->answerer : s->turn;
}

/* Running: the totals of the hands finished plus the capture piles of this one (none when over or
 * stopped: the hand's piles are in the totals). */
static void thf_scores(const void *vs, int *scores) {
  const thf_state *s = vs;
  for (int p = 0; p < s->players; p++) scores[p] = s->total[p] + (s->phase >= PH_OVER ? 0 : pile_points(s, p));
}

static int thf_winners(const void *vs, int *seats) {
  const thf_state *s = vs;
  int best = -1, n = 0;
  for (int p = 0; p < s->players; p++)
    if (s->total[p] > best) best = s->total[p];
  for (int p = 0; p < s->players; p++)
    if (s->total[p] == best) seats[n++] = p; /* G-6 */
  return n;
}

static int thf_current_deal(const void *vs, pf_deal *out) {
  const thf_state *s = vs;
  if (out) out->ncards = s->ncards, memcpy(out->cards, s->card, s->ncards * sizeof s->card[0]);
  return s->phase == PH_OVER ? s->hand_no - 1 : s->hand_no; /* stopped: the next hand's, not dealt */
}

/* game.h: stop_at_deal_end. */
static void thf_stop_at_deal_end(void *vs) { ((thf_state *)vs)->stop = 1; }

/* pf_random_playout's loop (game.h: random_playout) with random_move and apply inline, not three
 * calls through the methods a move, and the generator's state in a local; it stops where to_move
 * gives nobody (the game's end, or a hand's end after stop_at_deal_end). */
static long thf_random_playout(void *vs, pf_rng *rng, long *branching) {
  thf_state *s = vs;
  pf_rng x = *rng;
  long n = 0, b = 0;
  for (int k; s->phase < PH_OVER; n++) {
    pf_move m = random_move(s, &x, &k);
    b += k;
    apply(s, m);
  }
  *rng = x;
  *branching += b;
  return n;
}

/* ------------------------------------------------------------------------------------------ */
/* Hidden information                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* Hidden from `seat`: the other hands and the stock. The discard pile, the table cards and every
 * capture were seen face up. A turn that goes on after its first action shows only that its
 * player holds a card (THF-6): no constraint on what the hidden cards may be.
 *
 * They are resampled exactly as pf_slots_shuffle resamples pf_slots_hidden's slots: sorted by
 * code, then pf_shuffle. Here the sort is a count of each code (every code is below 64) read back
 * in order, every code written eight times at once (no deck holds more copies: THF-1's four
 * jokers) and the next one written where its copies end (over it, when it has none), so that no
 * branch depends on how many copies a code has. The slots are pf_slots_hidden's, in its order
 * (the other hands seat by seat, then the stock), read where they lie, and the stock written back
 * as one run. The count is of the hidden cards themselves, or, when the stock is the most of the
 * deck, of the whole deck (DECK_TIMES) less the cards dealt from it (slots below next_slot) plus
 * the other hands. */
static const uint8_t DECK_TIMES[2][64] = {
    {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
     2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 4}, /* THF-1 */
    {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
     1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3}, /* FCT-1 */
};
static void thf_determinize(void *vs, int seat, pf_rng *rng) {
  thf_state *s = vs;
  uint8_t times[64], cards[MAX_CARDS + 8];
  int n = 0, next = s->next_slot, stock = s->ncards - next;
  if (seat != PF_VIEW_ALL && stock > next) {
    memcpy(times, DECK_TIMES[s->fct], sizeof times);
    for (int k = 0; k < next; k++) times[s->card[k]]--;
  } else {
    memset(times, 0, sizeof times);
    for (int k = next; k < s->ncards && seat != PF_VIEW_ALL; k++) times[s->card[k]]++;
  }
  if (seat != PF_VIEW_ALL) {
    for (int p = 0; p < s->players; p++)
      if (!pf_view_sees_own(seat, p))
        for (int i = 0; i < s->hand_len[p]; i++, n++) times[s->hcard[p][i]]++;
    n += stock;
  }
  /* Every code in order, written 8 times where the last one's copies end: a code not hidden
   * (0 copies) is overwritten by the next one. */
  uint64_t w = 0;
  for (int c = 0, k = 0; c <= PF_CARD_JOKER; c++, w += BYTES_1) {
    word_set(cards + k, w);
    k += times[c];
  }
  pf_shuffle(rng, cards, (size_t)n);
  if (n) {
    int j = 0;
    for (int p = 0; p < s->players; p++)
      if (!pf_view_sees_own(seat, p))
        for (int i = 0; i < s->hand_len[p]; i++) s->card[s->hand[p][i]] = cards[j++];
    for (int i = 0; i < stock; i++) s->card[next + i] = cards[j + i];
  }
  hands_read(s, seat);
  s->given = NULL; /* later deals are unknown too */
  s->ndeals_given = 0;
  s->seed = pf_rng_next(rng);
}

static int thf_check(const void *vs, pf_error *err) {
  const thf_state *s = vs;
  int seen[MAX_CARDS] = {0};
  if (s->players < 2 || s->players > MAX_SEATS) return pf_fail(err, "%d players", s->players);
  if (s->laid != table_set(s)) return pf_fail(err, "the noted set of table cards is not the table's");
  if (s->dtop != discard_top(s)) return pf_fail(err, "the noted top card of the discard pile is not the pile's");
  if (s->wild != ((uint64_t)1 << PF_CARD_JOKER | (s->fct ? 0 : RANK_SET(1)))) return pf_fail(err, "the noted wild cards are not the game's");
  for (int p = 0; p < s->players; p++) {
    if (s->hand_len[p] > (s->fct ? HAND_MAX : 3)) return pf_fail(err, "seat %d holds %d cards", p, s->hand_len[p]);
    for (int i = 0; i < HAND_ROOM; i++)
      if (s->hcard[p][i] != (i < s->hand_len[p] ? card_of(s, s->hand[p][i]) : 0) || (i >= s->hand_len[p] && s->hand[p][i]))
        return pf_fail(err, "seat %d: the noted card %d of the hand is not its slot's (0s beyond the hand)", p, i);
    hand_cards h;
    hand_read(s, p, &h);
    const hand_cards *k = &s->hc[p];
    if (h.held != k->held || h.twice != k->twice || h.per_rank != k->per_rank || h.n != k->n || h.wilds != k->wilds ||
        h.pairs != k->pairs || h.extra != k->extra)
      return pf_fail(err, "seat %d: the noted reading of the hand is not its cards'", p);
    int top = s->pile_top[p];
    if (s->top[p] != (top == NONE ? NONE : card_of(s, s->cap_top[top])) || (s->open >> p & 1) != (top != NONE && !cap_locked(s, top)))
      return pf_fail(err, "seat %d: the noted top card of the pile is not its top capture's", p);
    for (int i = 0; i < s->hand_len[p]; i++) seen[s->hand[p][i]]++;
    int caps = 0, cards = 0, pile_pts = 0;
    for (int id = s->pile_top[p]; id != NONE && caps <= MAX_CARDS; id = s->cap_under[id], caps++) {
      int size = 0, nat = 0, nat_rank = -1, pts = 0;
      for (int slot = s->cap_top[id]; slot != NONE && size <= MAX_CARDS; slot = s->below[slot], size++) {
        seen[slot]++;
        pf_card c = card_of(s, slot);
        pts += card_points(s, c);
        if (!is_wild(s, c)) {
          if (nat_rank >= 0 && rk(c) != nat_rank) return pf_fail(err, "seat %d: a capture mixes natural ranks", p);
          nat_rank = rk(c);
          nat++;
        }
        if (s->below[slot] == NONE && slot != id) return pf_fail(err, "seat %d: capture %d ends at slot %d", p, id, slot);
      }
      if (size != s->cap_size[id] || size < 2) return pf_fail(err, "seat %d: capture %d has %d cards, %d noted", p, id, size, s->cap_size[id]);
      if (nat != s->cap_nat[id]) return pf_fail(err, "seat %d: capture %d has %d natural cards, %d noted", p, id, nat, s->cap_nat[id]);
      if (pts != s->cap_pts[id]) return pf_fail(err, "seat %d: capture %d has %d points, %d noted", p, id, pts, s->cap_pts[id]);
      cards += size;
      pile_pts += pts;
    }
    if (pile_pts != s->pile_pts[p]) return pf_fail(err, "seat %d: the pile has %d points, %d noted", p, pile_pts, s->pile_pts[p]);
    if (caps != s->pile_caps[p] || cards != s->pile_cards[p])
      return pf_fail(err, "seat %d: %d captures of %d cards, noted %d of %d", p, caps, cards, s->pile_caps[p], s->pile_cards[p]);
  }
  for (int k = 0; k < s->nheap; k++) seen[s->heap[k]]++;
  for (int k = s->next_slot; k < s->ncards; k++) seen[k]++;
  for (int k = 0; k < s->ncards; k++)
    if (seen[k] != 1) return pf_fail(err, "card slot %d is in %d places", k, seen[k]);
  if (pf_cards_are_decks(s->card, s->ncards, s->fct ? 1 : 2, s->fct ? 3 : 4, err) != 0) return -1;
  if (s->phase == PH_OVER) return s->hand_no == s->hands ? 0 : pf_fail(err, "over after %d of %d hands", s->hand_no, s->hands);
  if (s->next_slot == s->ncards && !s->last_turn) return pf_fail(err, "the stock is out but the hand goes on");
  if (s->phase == PH_ANSWER && (s->fct || s->answerer == s->other || (s->answerer != s->turn && s->other != s->turn)))
    return pf_fail(err, "an exchange between seats %d and %d in seat %d's turn", s->answerer, s->other, s->turn);
  if (!s->last_turn && s->phase != PH_ANSWER && s->hand_len[s->turn] < s->hand_size)
    return pf_fail(err, "seat %d to move with %d cards while the stock lasts", s->turn, s->hand_len[s->turn]);
  pf_move ms[PF_MAX_MOVES];
  if (thf_legal(s, ms) == 0) return pf_fail(err, "seat %d to move without a legal move", thf_to_move(s));
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* The descriptions                                                                           */
/* ------------------------------------------------------------------------------------------ */

/* Design metrics (`pilfer analyze`): what a move did. A re-capture is a steal answering a steal
 * (THF-5); captured cards are those of the capture a steal takes. */
static const char *const EVENTS[] = {"steals", "recaptures", "cards_stolen", "captures", "passes", NULL};

static void thf_count_events(const void *before, const void *after, pf_move m, long long *counts) {
  const thf_state *s = before;
  (void)after;
  switch (MV_KIND(m)) {
  case K_STEAL:
    counts[s->phase == PH_ANSWER ? 1 : 0]++;
    if (s->pile_top[MV_B(m)] != NONE) counts[2] += s->cap_size[s->pile_top[MV_B(m)]];
    break;
  case K_PAIR:
  case K_DISCARD_CAPTURE:
  case K_TABLE_CAPTURE: counts[3]++; break;
  case K_PASS: counts[4]++; break;
  default: break;
  }
}

/* Four Card Thief has no re-capture (FCT-5) and no pass (FCT-3). */
static bool fct_event_possible(int players, const pf_options *o, int k) {
  (void)players, (void)o;
  return k != 1 && k != 4;
}

#define THIEF_METHODS                                                                              \
  .min_players = 2, .max_players = 6, .options = OPTIONS,            \
  .noptions = sizeof OPTIONS / sizeof OPTIONS[0], .state_size = sizeof(thf_state),                \
  .move_bound = 6u << 16, /* kind << 16 | b << 8 | card */                                      \
  .to_move = thf_to_move, .legal = thf_legal, .random_move = thf_random_move, .apply = thf_apply,   \
  .random_playout = thf_random_playout, .stop_at_deal_end = thf_stop_at_deal_end,                \
  .move_str = thf_move_str,                                                                      \
  .move_parse = thf_move_parse, .scores = thf_scores, .winners = thf_winners,                    \
  .view_write = thf_view_write, .view_text = thf_view_text, .determinize = thf_determinize,        \
  .check = thf_check, .current_deal = thf_current_deal, .describe = thf_describe,             \
  .rate_moves = thf_rate_moves, .move_zones = thf_move_zones, .events = EVENTS,                  \
  .count_events = thf_count_events, .action_index = thf_action_index, .action_move = thf_action_move

/* How pilfer bench and scripts/strength exercise Thief, and the lobby's copy (core/measure.h) ... */
static const pf_measures MEASURES_THIEF = {
    .playouts = {{2, 20000}, {4, 50000, "hands=1"}, {6, 5000}},
    .searches = {{2, 5000, 2, {0, 40, 80}}},
    .sims = {{2, 6, "ismcts:iters=300 greedy"}},
    .strength = {{2, 2000, "ismcts greedy"}, {2, 2000, "greedy random"}},
    .quick_players = 2,
    .quick_options = "hands=1",
    .description = "A capturing game for 2 to 6 players with two decks and jokers. Capture pairs from your "
    "hand, take the discard pile's top card with one of its rank, or steal another player's top "
    "capture with a card of its rank or a wild (2s and jokers), and they may steal it straight "
    "back. You must capture when you can; otherwise you discard and draw. The most points in your "
    "captures after a few hands wins.",
    .length_players = 2,
    .length_moves = 322,
};

/* ... and Four Card Thief. */
static const pf_measures MEASURES_FCT = {
    .playouts = {{2, 50000}, {4, 100000, "hands=1"}, {6, 10000}},
    .searches = {{2, 5000, 2, {0, 20, 40}}},
    .sims = {{2, 10, "ismcts:iters=300 greedy"}},
    .strength = {{2, 2000, "ismcts greedy"}, {2, 2000, "greedy random"}},
    .quick_players = 2,
    .quick_options = "hands=1",
    .description = "Thief with one deck, three jokers and four cards in hand, for 2 to 6 players. Capture "
    "pairs and the cards laid face up on the table, and steal the other players' top captures, "
    "but nobody can steal them back. Jokers count 25, court cards and aces 10, the rest 1: the "
    "most points in your captures wins.",
    .length_players = 2,
    .length_moves = 70,
};

const pf_game pf_game_thief = {
    .id = "thief", .title = "Thief",
    .rules = pf_rules_thief, .measures = &MEASURES_THIEF,
    .start = thf_start, THIEF_METHODS,
    .action_count = thf_action_count, .max_length = thf_max_length,
};

const pf_game pf_game_four_card_thief = {
    .id = "four-card-thief", .title = "Four Card Thief",
    .rules = pf_rules_four_card_thief,
    .measures = &MEASURES_FCT, .start = fct_start, THIEF_METHODS,
    .action_count = fct_action_count, .max_length = fct_max_length, .event_possible = fct_event_possible,
};
