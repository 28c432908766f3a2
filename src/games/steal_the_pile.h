/*
 * steal_the_pile.h - Steal the Pile's state, shared by its two files: steal_the_pile.c (the rules,
 * notation, bots' knowledge and the descriptor) and steal_the_pile_views.c (the views, what a move
 * is told as, and its zones). steal_the_pile.c tells how the state is kept.
 */
#ifndef PF_STEAL_THE_PILE_H
#define PF_STEAL_THE_PILE_H

#include <stdint.h>

#include "core/game.h"
#include "core/slots.h"

/* ------------------------------------------------------------------------------------------ */
/* State                                                                                      */
/* ------------------------------------------------------------------------------------------ */

#define MAX_CARDS 104
#define MAX_OPEN 32 /* open piles have distinct ranks but for duplicates of the first deal */
#define NONE 0xFF
#define DECK_PILE 12 /* solitaire: the deck's own pile (STP-8), after the 12 seats */
#define NPILES 13
#define HAND_MAX 4
#define EMPTY 13 /* top_rank of an empty pile: a 14th rank, no card's */

/* Move codes: the card played in bits 0-7, the target in bits 8-15. */
#define T_NONE 0               /* no match: a new open pile */
#define T_OPEN(card) ((card) + 1) /* the open pile whose card this is (1..53) */
#define T_PILE(p) (0x80 | (p)) /* a player's pile, or DECK_PILE */
#define MOVE(card, target) ((pf_move)(card) | ((pf_move)(target) << 8))
#define MOVE_CARD(m) ((pf_card)((m)&0xFF))
#define MOVE_TARGET(m) ((int)(((m) >> 8) & 0xFF))

typedef struct stp_state {
  /* First, before the cards: what stp_count_events reads of the position before a move (turn,
   * size; events_before). */
  uint8_t top[NPILES], bottom[NPILES], size[NPILES];
  uint8_t players, ncards, next_slot, nopen, naside;
  uint8_t dealer, turn, round, rounds, per_round, final_round, first_open;
  pf_card card[MAX_CARDS];  /* the card of each slot */
  uint8_t below[MAX_CARDS]; /* the slot beneath, in a pile; NONE at the bottom */
  uint8_t hand[PF_MAX_PLAYERS][HAND_MAX];
  uint8_t hand_card[PF_MAX_PLAYERS][HAND_MAX]; /* the cards of those slots: card[hand[p][i]] */
  uint8_t hand_len[PF_MAX_PLAYERS];
  uint8_t open[MAX_OPEN];  /* slots of the open piles, in the order laid */
  uint8_t aside[MAX_OPEN]; /* the remainder of STP-6, set aside */
  uint16_t top_mask[EMPTY + 1]; /* by rank: the piles q (bit q) whose top card is of that rank */
  uint8_t rank_n[EMPTY + 1];    /* by rank: open_n and the piles in top_mask */
  uint8_t open_n[13];           /* by rank: the open piles of that rank */
  pf_card open_card[13];        /* by rank: the card of the first open pile of it, if open_n */
  uint8_t open_slot[13];        /* ... and its slot */
  uint16_t dup_ranks;           /* the ranks (bit r) with two open piles or more: the first deal's */
  uint8_t top_rank[NPILES];     /* the rank of each pile's top card; EMPTY for an empty pile */
  uint64_t faceup;              /* one deck: the cards lying face up (bit c: card c), the others
                                   being in hands and the stock; with two decks, unused */
  uint8_t over, solitaire;
  uint8_t end_share;           /* STP-6: cards each seat of end_seats got from the open piles */
  uint16_t end_seats;          /* STP-6: the seats with the fewest cards, as a bit mask */
  uint8_t deck_last_n;         /* solitaire: the deck's plays after the last player card */
  pf_move deck_last[2];        /* ... as moves of the deck */
  int32_t target, deal_no, ndeals_given;
  int32_t total[PF_MAX_PLAYERS]; /* scoring games (STP-7): totals of the games finished */
  uint64_t seed;
  const pf_deal *given; /* explicit deals (owned by the caller, see pf_setup) */
} stp_state;

/* Index of the first open pile holding this card, or -1. */
static inline int open_find(const stp_state *s, pf_card c) {
  for (int k = 0; k < s->nopen; k++)
    if (s->card[s->open[k]] == c) return k;
  return -1;
}

/* The hands, as core/slots.h reads them. */
static inline pf_hands hands_of(const stp_state *s) {
  return (pf_hands){.slots = &s->hand[0][0], .stride = HAND_MAX, .lens = s->hand_len, .players = s->players};
}

/* steal_the_pile.c */
void stp_move_str(const void *vs, pf_move m, char buf[PF_MOVE_STR]);
/* steal_the_pile_views.c */
void stp_view_write(const void *vs, int seat, pf_jw *w);
void stp_view_text(const void *vs, int seat, const pf_style *st, pf_buf *out);
void stp_move_zones(const void *vs, pf_move m, pf_move_zones *z);
void stp_describe(const void *vs, pf_move m, int viewer, const pf_style *st, pf_buf *out);

#endif
