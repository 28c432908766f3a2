/*
 * thief.h - the state of Thief and Four Card Thief, shared by their three files: thief.c (the
 * rules, notation, bots' knowledge and the descriptors; it tells how the state is kept),
 * thief_views.c (the views, what a move is told as, and its zones) and thief_learn.c (the dense
 * actions and the length bound, for learning).
 */
#ifndef PF_THIEF_H
#define PF_THIEF_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/game.h"
#include "core/slots.h"

/* ------------------------------------------------------------------------------------------ */
/* State                                                                                      */
/* ------------------------------------------------------------------------------------------ */

#define MAX_CARDS 108 /* THF-1 */
#define MAX_SEATS 6
#define NONE 0xFF
#define HAND_MAX 5 /* Four Card Thief: 4, and 5 during a turn (FCT-3) */
#define HAND_ROOM 8 /* a hand's slots, and its cards, are each one 8-byte word */
#define JOKER_RANK 13 /* rank key of a joker: card code / 4 */

/* Moves: the kind in bits 16-19, the card played in bits 0-7, and in bits 8-15 the pair's second
 * card, the table card taken, or the seat stolen from. */
enum { K_DISCARD, K_PAIR, K_DISCARD_CAPTURE, K_TABLE_CAPTURE, K_STEAL, K_PASS };
#define MV(kind, a, b) ((pf_move)(a) | (pf_move)(b) << 8 | (pf_move)(kind) << 16)
#define MV_KIND(m) ((int)((m) >> 16 & 0xF))
#define MV_A(m) ((pf_card)((m)&0xFF))
#define MV_B(m) ((int)((m) >> 8 & 0xFF))

/* The phase of a turn. */
enum {
  PH_START,     /* Thief: the turn's first action: a capture, or a discard if none (THF-6).
                   Four Card Thief: captures while any, else the discard that ends the turn. */
  PH_CAPTURED,  /* Thief: the first action was a capture; more captures or pass (THF-6) */
  PH_DISCARDED, /* Thief: discarded and drew; pairs, discard captures or pass (THF-6) */
  PH_ANSWER,    /* Thief: a re-capture may answer the last steal (THF-5) */
  PH_OVER,
  PH_STOPPED, /* stop_at_deal_end: the hand is over and the game goes on, but play stops here */
};

/* A hand as the move generator reads it, kept by seat and updated card by card as the hand
 * changes (hand_add, hand_remove): its distinct cards as a set (held) and those held twice or
 * more (twice), and counted: the distinct cards of each rank (4 bits a rank), the distinct wild
 * ones, the pairs they make (THF-4(a): two distinct cards of a rank, or a card held twice, once;
 * a wild pairs only with its own rank) and the copies held beyond two (only a joker: THF-1 has
 * four, FCT-1 three). A card held twice offers its moves once, at its first copy (G-5). */
typedef struct hand_cards {
  uint64_t held, twice, per_rank;
  uint8_t n, wilds, pairs, extra;
} hand_cards;

/* Besides the slots, the state keeps what the move generator reads on every move, updated where
 * it changes: the hands' cards (hcard) and what they make (hc), each pile's top card, the piles
 * open to a steal, the discard pile's top card, and the points of every capture and pile. Card
 * codes are below 64 (the joker is 52), so a set of cards is a 64-bit mask, a rank's four codes
 * one nibble of it. */
typedef struct thf_state {
  pf_card card[MAX_CARDS];
  uint8_t below[MAX_CARDS];
  uint8_t cap_top[MAX_CARDS], cap_size[MAX_CARDS], cap_nat[MAX_CARDS], cap_under[MAX_CARDS];
  uint16_t cap_pts[MAX_CARDS];  /* the points of capture id (THF-8, FCT-6) */
  uint8_t pile_top[MAX_SEATS], pile_caps[MAX_SEATS], pile_cards[MAX_SEATS];
  uint8_t top[MAX_SEATS]; /* the card on top of seat p's pile; NONE when it is empty */
  uint8_t open;           /* the seats whose top capture a steal may take: not empty, not locked (FCT-4) */
  int pile_pts[MAX_SEATS]; /* the points in seat p's pile */
  uint8_t hand[MAX_SEATS][HAND_ROOM], hand_len[MAX_SEATS]; /* the hands' slots, then 0s (draw ORs a slot in) */
  uint8_t hcard[MAX_SEATS][HAND_ROOM]; /* card[hand[p][i]] for every i < hand_len[p], then 0s (no
                                        * card beyond the hand lingers: determinize is canonical; and
                                        * draw ORs a card in) */
  hand_cards hc[MAX_SEATS];            /* seat p's hand, as the move generator reads it */
  uint8_t dtop;                        /* Thief: the discard pile's top card; NONE when it is empty */
  uint8_t heap[MAX_CARDS]; /* Thief: the discard pile, bottom first; Four Card Thief: the table
                              cards, in the order laid */
  uint8_t nheap;
  uint64_t laid; /* Four Card Thief: the table cards as a set, bit c for card c (0 in Thief) */
  uint64_t wild; /* the wild cards as a set: every 2 and the joker (THF-1), the joker (FCT-1) */
  uint8_t fct, players, ncards, next_slot, hand_size;
  uint8_t dealer, turn, phase;
  uint8_t last_turn;  /* THF-7: a draw took the last card of the stock; this turn is the last */
  uint8_t answerer, other; /* THF-5: who may re-capture now, and from whom */
  uint8_t contested;       /* THF-5: the contested rank key */
  /* THF-5, for the view's end: the last steal of the turn in progress (the hand's last turn once
   * over) and its exchange: the thief (NONE: no steal this turn), the victim, the re-captures
   * that answered it, and the seat holding the contested capture, of x_cards cards, at its end. */
  uint8_t x_thief, x_victim, x_recaptures, x_holder, x_cards;
  uint8_t stop;            /* stop_at_deal_end: a hand's end that is not the game's stops play (PH_STOPPED) */
  int32_t hands, hand_no, ndeals_given;
  int total[MAX_SEATS];     /* THF-8: the totals of the hands finished */
  int last_hand[MAX_SEATS]; /* the scores of the last hand finished */
  uint64_t seed;
  const pf_deal *given;
} thf_state;

static inline int rk(pf_card c) { return c >> 2; } /* 0 ace .. 12 king, 13 joker */
static inline pf_card card_of(const thf_state *s, int slot) { return s->card[slot]; }
#define RANK_SET(r) ((uint64_t)0xF << 4 * (r)) /* the codes of rank key r, as a set */
#define NIBBLE_BITS(x) ((int)(0x4332322132212110ull >> 4 * (x) & 0xF)) /* the bits set in a nibble */

/* THF-1: every 2 and every joker is wild; FCT-1: only jokers. */
static inline bool is_wild(const thf_state *s, pf_card c) { return s->wild >> c & 1; }

/* FCT-4: a capture holding all four natural cards of a rank. Its natural cards are all of one
 * rank: a pair or a table capture is one rank, and a steal with a natural card matches the top,
 * which is a natural of that rank or a wild. */
static inline bool cap_locked(const thf_state *s, int id) { return s->fct && s->cap_nat[id] >= 4; }

static inline pf_card pile_top_card(const thf_state *s, int p) { return s->top[p]; }

/* THF-8 / FCT-6: what a card scores, by rank key (ace .. king, joker): in Thief an ace 15, a 2
 * 25, a ten to a king 10, the other ranks 5, a joker 50; in Four Card Thief an ace, jack, queen
 * or king 10, a joker 25, the others 1. */
static inline int card_points(const thf_state *s, pf_card c) {
  static const uint8_t POINTS[2][14] = {{15, 25, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10, 50},
                                        {10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 10, 10, 10, 25}};
  return POINTS[s->fct][rk(c)];
}

/* ---- what both files read of the state ---- */

static inline pf_hands hands_of(const thf_state *s) {
  return (pf_hands){.slots = &s->hand[0][0], .stride = HAND_ROOM, .lens = s->hand_len, .players = s->players};
}

/* The points in seat p's capture pile. */
static inline int pile_points(const thf_state *s, int p) { return s->pile_pts[p]; }

/* Four Card Thief: the index of the first table card c (G-5). */
static inline int table_find(const thf_state *s, pf_card c) {
  int t = 0;
  while (card_of(s, s->heap[t]) != c) t++;
  return t;
}

static inline const char *rank_name(int key, char *buf) {
  static const char R[] = "A23456789TJQK";
  if (key == JOKER_RANK) return strcpy(buf, "joker");
  buf[0] = R[key];
  buf[1] = '\0';
  return buf;
}

static inline const char *wild_text(const thf_state *s) { return s->fct ? "a joker" : "a wild (a 2 or a joker)"; }

/* thief.c */
int thf_to_move(const void *vs);
/* thief_views.c */
void thf_view_write(const void *vs, int seat, pf_jw *w);
void thf_view_text(const void *vs, int seat, const pf_style *st, pf_buf *out);
void thf_move_zones(const void *vs, pf_move m, pf_move_zones *z);
void thf_describe(const void *vs, pf_move m, int viewer, const pf_style *st, pf_buf *out);
/* thief_learn.c: dense actions and the length bound (Thief's and Four Card Thief's counts and
 * bounds differ; index and move read the game from the state) */
int thf_action_count(int players, const pf_options *options);
int fct_action_count(int players, const pf_options *options);
int thf_action_index(const void *vs, pf_move m);
pf_move thf_action_move(const void *vs, int a);
long thf_max_length(int players, const pf_options *options);
long fct_max_length(int players, const pf_options *options);

#endif
