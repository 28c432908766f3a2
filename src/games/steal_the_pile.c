/*
 * steal_the_pile.c - Steal the Pile (RULINGS STP-1 .. STP-8), 1 to 12 players.
 *
 * The state keeps the deal's deck order in card[]: slot i is the i-th card from the top. Every
 * card is then named by its slot wherever it is: in a hand, as an open pile, in a player's pile
 * (a linked stack through below[], so that taking a whole pile is O(1)), set aside, or still in
 * the stock (slots from next_slot on). Determinizing only rewrites card[] of the slots a seat
 * cannot see (and hand_card, which mirrors the hands' cards for the move generator).
 *
 * For the move generator the state also keeps each pile's top rank (top_rank, EMPTY for none)
 * and, by rank, the piles whose top card is of that rank (top_mask), the open piles of that rank
 * (open_n, and the first one's card, open_card) and the piles of both kinds (rank_n), updated
 * wherever a card is laid or taken. They depend only on cards lying face up, which determinizing
 * never rewrites; so do open_slot (the first open pile of a rank) and, with one deck, faceup (the
 * cards lying face up, as a mask: what determinizing lists as hidden is every other card). An
 * empty pile's top counts under the rank EMPTY, which no card has, so that laying a card on a pile
 * needs no branch for an empty one.
 *
 * The state is declared in steal_the_pile.h; the views, what a move is told as and its zones are
 * in steal_the_pile_views.c, away from the move generator, which this file keeps whole so that
 * the compiler inlines it into apply and random_playout.
 */
#include <stdio.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "core/game.h"
#include "core/measure.h"
#include "core/slots.h"
#include "games/registry.h"
#include "games/rules.h"
#include "games/steal_the_pile.h" /* the state */
PF_RULES_TEXT(pf_rules_steal_the_pile);

/* STP-2: open piles, dealt per round, dealt in the final round, rounds, decks; by players. */
static const uint8_t TABLE[13][5] = {
    {0, 0, 0, 0, 0}, {4, 4, 4, 4, 1}, /* 1: solitaire, STP-8 */
    {4, 4, 4, 6, 1}, {4, 4, 4, 4, 1}, {4, 4, 4, 3, 1}, {2, 3, 1, 4, 1}, {4, 3, 2, 3, 1},
    {6, 3, 2, 5, 2}, {8, 3, 3, 4, 2}, {5, 3, 2, 4, 2}, {4, 3, 1, 4, 2}, {5, 3, 3, 3, 2},
    {8, 3, 2, 3, 2},
};

static const pf_option_desc OPTIONS[] = {
    {"target", PF_OPT_INT, 0, 0, 100000,
     "scoring games (STP-7): play games until a total reaches this; 0 = one game", "Match to a total of"},
};

/* A hand's four bytes as one word, byte j at bits 8j..8j+7, read and written whole (never a byte
 * at a time, which would keep the processor from forwarding the word it stored). */
static inline uint32_t hand_word(const uint8_t *b) {
  uint32_t w;
  memcpy(&w, b, sizeof w);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  w = __builtin_bswap32(w);
#endif
  return w;
}
static inline void hand_word_set(uint8_t *b, uint32_t w) {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  w = __builtin_bswap32(w);
#endif
  memcpy(b, &w, sizeof w);
}

/* The seat after p (no division: a round's end is on the playouts' path). */
static inline uint8_t seat_after(const stp_state *s, int p) { return (uint8_t)(p + 1 == s->players ? 0 : p + 1); }

static inline int rank_of_slot(const stp_state *s, int slot) { return s->card[slot] >> 2; }
static inline int npiles_in_play(const stp_state *s) { return s->solitaire ? 1 : s->players; }

/* ------------------------------------------------------------------------------------------ */
/* Piles                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* Pile q's top is now `slot` of rank r, over what lay there (which may be no card: EMPTY). */
static inline void set_top(stp_state *s, int q, uint8_t slot, int r) {
  uint16_t bit = (uint16_t)(1u << q);
  int old = s->top_rank[q];
  s->top_mask[old] &= (uint16_t)~bit;
  s->rank_n[old]--;
  s->top_mask[r] |= bit;
  s->rank_n[r]++;
  s->top[q] = slot;
  s->top_rank[q] = (uint8_t)r;
}

/* Lays `slot`, of rank r, on the pile. */
static inline void pile_push(stp_state *s, int pile, uint8_t slot, int r) {
  s->below[slot] = s->top[pile]; /* NONE on an empty pile */
  s->bottom[pile] = s->size[pile] ? s->bottom[pile] : slot;
  s->size[pile]++;
  set_top(s, pile, slot, r);
}

/* Puts the whole pile `from` on top of pile `to` (STP-4: a whole pile, never part of it). */
static inline void pile_move(stp_state *s, int to, int from) {
  if (!s->size[from] || from == to) return;
  s->below[s->bottom[from]] = s->top[to]; /* NONE on an empty pile */
  s->bottom[to] = s->size[to] ? s->bottom[to] : s->bottom[from];
  s->size[to] = (uint8_t)(s->size[to] + s->size[from]);
  set_top(s, to, s->top[from], s->top_rank[from]);
  set_top(s, from, NONE, EMPTY);
  s->size[from] = 0;
  s->bottom[from] = NONE;
}

/* Lays `slot` (card c) as a new open pile. */
static inline void open_add(stp_state *s, uint8_t slot, pf_card c) {
  int r = c >> 2, first = !s->open_n[r];
  s->open[s->nopen++] = slot;
  s->open_card[r] = first ? c : s->open_card[r];
  s->open_slot[r] = first ? slot : s->open_slot[r];
  s->dup_ranks |= (uint16_t)(!first << r);
  s->open_n[r]++;
  s->rank_n[r]++;
}


/* Index of the first open pile of rank r (there is one). */
static int open_first(const stp_state *s, int r) {
  int k = 0;
  while (rank_of_slot(s, s->open[k]) != r) k++;
  return k;
}

/* The bytes of word i of four below byte n of the 32, as a mask. */
static inline uint64_t bytes_below(int n, int i) {
  int b = n - 8 * i;
  b = b < 0 ? 0 : b;
  return b >= 8 ? ~0ull : (1ull << 8 * b) - 1;
}

/* Word i of the four that hold open[] (byte j of it being open[8i + j]), read and written one by
 * one: GCC would move an array of the four through the stack as two 16-byte halves, which the
 * processor cannot forward from the 8-byte stores, and the load would wait for them. */
static inline uint64_t open_word(const stp_state *s, int i) {
  uint64_t w;
  memcpy(&w, s->open + 8 * i, sizeof w);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  w = __builtin_bswap64(w);
#endif
  return w;
}
static inline void open_word_set(stp_state *s, int i, uint64_t w) {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  w = __builtin_bswap64(w);
#endif
  memcpy(s->open + 8 * i, &w, sizeof w);
}

/* Word w (word i of open[]) with its bytes from k on moved down one, `next` (word i + 1) giving
 * its last. */
static inline uint64_t open_word_cut(uint64_t w, uint64_t next, int k, int i) {
  uint64_t keep = bytes_below(k, i);
  return (w & keep) | ((w >> 8 | next << 56) & ~keep);
}

/* The first byte of open word w (word i) equal to slot, below nopen (the bytes past it are stale):
 * its index in open[], or k when there is none. */
static inline int open_word_find(uint64_t w, uint8_t slot, int nopen, int i, int k) {
  uint64_t ones = 0x0101010101010101ull, x = w ^ slot * ones;
  uint64_t z = (x - ones) & ~x & 0x8080808080808080ull & bytes_below(nopen, i);
  return z ? 8 * i + (__builtin_ctzll(z) >> 3) : k;
}

/* Takes away the open pile at `slot`, of rank r, keeping the order laid: open[] as four words,
 * where it is the first byte equal to slot (the zero byte of a xor) and the later ones move down
 * one, without a loop of a few bytes (which becomes a memmove call); with at most eight open
 * piles, as a game of few seats has nearly always, the first word alone. */
static inline void open_remove(stp_state *s, uint8_t slot, int r) {
  _Static_assert(sizeof s->open == 32, "open[] is four words");
  int n = s->nopen;
  if (__builtin_expect(n <= 8, 1)) {
    uint64_t w = open_word(s, 0);
    open_word_set(s, 0, open_word_cut(w, 0, open_word_find(w, slot, n, 0, 8), 0));
  } else {
    uint64_t w0 = open_word(s, 0), w1 = open_word(s, 1), w2 = open_word(s, 2), w3 = open_word(s, 3);
    int k = open_word_find(w3, slot, n, 3, 32);
    k = open_word_find(w2, slot, n, 2, k);
    k = open_word_find(w1, slot, n, 1, k);
    k = open_word_find(w0, slot, n, 0, k);
    open_word_set(s, 0, open_word_cut(w0, w1, k, 0));
    open_word_set(s, 1, open_word_cut(w1, w2, k, 1));
    open_word_set(s, 2, open_word_cut(w2, w3, k, 2));
    open_word_set(s, 3, open_word_cut(w3, 0, k, 3));
  }
  s->nopen--;
  s->open_n[r]--;
  s->rank_n[r]--;
  if (s->open_n[r]) { /* rare: the first deal's duplicates */
    s->dup_ranks &= (uint16_t)~((s->open_n[r] == 1) << r);
    s->open_slot[r] = s->open[open_first(s, r)];
    s->open_card[r] = s->card[s->open_slot[r]];
  }
}

/* STP-4: `taker` (a seat or DECK_PILE) plays `slot`, of rank r, onto `target`. */
static inline void play_slot(stp_state *s, int taker, uint8_t slot, int r, int target) {
  s->faceup |= 1ull << (s->card[slot] & 63);
  if (target == T_NONE) {
    open_add(s, slot, s->card[slot]);
    return;
  }
  if (target & 0x80) {
    pile_move(s, taker, target & 0x7F);
  } else {
    uint8_t o = s->open[open_find(s, (pf_card)(target - 1))];
    open_remove(s, o, r);
    pile_push(s, taker, o, r);
  }
  pile_push(s, taker, slot, r);
}

/* STP-4: seat p plays `slot` (card c) onto `target`: most often a new open pile (lay: target is
 * T_NONE) or the taking of one, about as often each, found by its slot (open_slot: its rank's only
 * one but for the first deal's duplicates); a pile taken goes the general way. */
static inline void play_seat(stp_state *s, int p, uint8_t slot, pf_card c, int target, bool lay) {
  int r = c >> 2;
  s->faceup |= 1ull << (c & 63);
  if (lay) {
    open_add(s, slot, c);
    return;
  }
  if (__builtin_expect((target & 0x80) || s->open_n[r] > 1, 0)) {
    play_slot(s, p, slot, r, target);
    return;
  }
  uint8_t o = s->open_slot[r];
  open_remove(s, o, r);
  pile_push(s, p, o, r);
  s->below[slot] = o; /* then slot on it: of the same rank */
  s->size[p]++;
  s->top[p] = slot;
}

/* ------------------------------------------------------------------------------------------ */
/* Dealing and the flow of rounds and games                                                   */
/* ------------------------------------------------------------------------------------------ */

static void load_deal(stp_state *s) {
  pf_card deck[MAX_CARDS];
  int n = pf_deck_standard(deck, TABLE[s->players][4], 0);
  pf_slots_load_deal(s->card, deck, n, s->given, s->ndeals_given, s->deal_no, s->seed);
}

/* The stock's next card as a new open pile. */
static void lay_open(stp_state *s) {
  uint8_t slot = s->next_slot++;
  s->faceup |= 1ull << (s->card[slot] & 63);
  open_add(s, slot, s->card[slot]);
}

/* STP-3: one card at a time from the seat after the dealer; the first round then lays the open
 * piles. STP-8: in solitaire the open piles come first. */
static void deal_round(stp_state *s) {
  if (s->solitaire && s->round == 0)
    for (int k = 0; k < s->first_open; k++) lay_open(s);
  int n = s->round == s->rounds - 1 ? s->final_round : s->per_round, players = s->players;
  /* Every hand is empty (STP-5). Seat dealer + i gets slots next_slot + i - 1 + j * players,
   * j < n: byte j of a word, all four at once (none passes 255, so no byte carries). */
  uint32_t used = n == HAND_MAX ? ~0u : (1u << 8 * n) - 1;
  for (int i = 1, seat = s->dealer; i <= players; i++) {
    seat = seat_after(s, seat);
    int slot = s->next_slot + i - 1;
    uint32_t cards = 0;
    for (int j = 0; j < n; j++) cards |= (uint32_t)s->card[slot + j * players] << 8 * j;
    hand_word_set(s->hand[seat], ((uint32_t)slot * 0x01010101u + (uint32_t)players * 0x03020100u) & used);
    hand_word_set(s->hand_card[seat], cards);
    s->hand_len[seat] = (uint8_t)n;
  }
  s->next_slot = (uint8_t)(s->next_slot + n * players);
  if (!s->solitaire && s->round == 0)
    for (int k = 0; k < s->first_open; k++) lay_open(s);
  s->turn = seat_after(s, s->dealer); /* STP-5 */
}

static void start_game(stp_state *s) {
  memset(s->hand_len, 0, sizeof s->hand_len);
  memset(s->size, 0, sizeof s->size);
  memset(s->top, NONE, sizeof s->top);
  memset(s->top_rank, EMPTY, sizeof s->top_rank);
  memset(s->bottom, NONE, sizeof s->bottom);
  memset(s->below, NONE, sizeof s->below);
  memset(s->top_mask, 0, sizeof s->top_mask);
  memset(s->open_n, 0, sizeof s->open_n);
  s->dup_ranks = 0;
  memset(s->rank_n, 0, sizeof s->rank_n);
  s->nopen = s->naside = s->next_slot = s->round = 0;
  s->deck_last_n = 0;
  s->end_seats = 0;
  s->end_share = 0;
  s->faceup = 0;
  load_deal(s);
  deal_round(s);
}

/* STP-6: the open piles go to the seats with the fewest cards, split evenly in seat order, the
 * remainder set aside. */
static void distribute_open(stp_state *s) {
  int fewest = 255, tied[PF_MAX_PLAYERS], ntied = 0;
  for (int i = 0; i < s->players; i++)
    if (s->size[i] < fewest) fewest = s->size[i];
  for (int i = 0; i < s->players; i++)
    if (s->size[i] == fewest) tied[ntied++] = i;
  int share = s->nopen / ntied, k = 0;
  s->end_share = (uint8_t)share;
  s->end_seats = 0;
  for (int t = 0; t < ntied; t++) s->end_seats |= (uint16_t)(1u << tied[t]);
  for (int t = 0; t < ntied; t++)
    for (int j = 0; j < share; j++, k++) pile_push(s, tied[t], s->open[k], rank_of_slot(s, s->open[k]));
  while (k < s->nopen) s->aside[s->naside++] = s->open[k++];
  s->nopen = 0;
  for (int r = 0; r < 13; r++) s->rank_n[r] = (uint8_t)(s->rank_n[r] - s->open_n[r]);
  memset(s->open_n, 0, sizeof s->open_n);
  s->dup_ranks = 0;
}

/* STP-7: after each game the totals grow; the match ends after a game in which a total reaches
 * the target with one highest total. */
static bool match_over(const stp_state *s) {
  if (s->target == 0) return true;
  int best = -1, nbest = 0;
  for (int i = 0; i < s->players; i++) {
    if (s->total[i] > best) best = s->total[i], nbest = 0;
    if (s->total[i] == best) nbest++;
  }
  return best >= s->target && nbest == 1;
}

/* Once a game, never inline: inside a move's path (next_turn) it made apply too big for GCC to
 * inline it into random_playout and stp_apply, and a 2-player playout 5% slower. */
static __attribute__((noinline)) void end_game(stp_state *s) {
  if (!s->solitaire) distribute_open(s);
  for (int i = 0; i < s->players; i++) s->total[i] += s->size[i];
  if (s->solitaire || match_over(s)) {
    s->over = 1;
    s->turn = NONE;
    return;
  }
  s->deal_no++;
  s->dealer = seat_after(s, s->dealer); /* G-2 */
  start_game(s);
}

/* STP-5: when every hand is empty the round ends and the deal moves on. */
static void next_turn(stp_state *s) {
  s->turn = seat_after(s, s->turn);
  if (s->hand_len[s->turn] > 0) return;
  if (s->round + 1 < s->rounds) {
    s->round++;
    if (!s->solitaire) s->dealer = seat_after(s, s->dealer);
    deal_round(s);
  } else {
    end_game(s);
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Moves                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* The moves of playing card c from the hand of seat p: one per matching pile, or the new open
 * pile when nothing matches (STP-4). Equal cards are one move (G-5). */
static int moves_of_card(const stp_state *s, pf_card c, pf_move *out) {
  int n = 0, rank = c >> 2;
  if (s->open_n[rank] == 1) /* its open pile */
    out[n++] = MOVE(c, T_OPEN(s->open_card[rank]));
  else if (s->open_n[rank]) /* the open piles of its rank, in the order laid, one move per card */
    for (int k = 0; k < s->nopen; k++) {
      pf_card o = s->card[s->open[k]];
      if ((o >> 2) == rank && open_find(s, o) == k) out[n++] = MOVE(c, T_OPEN(o));
    }
  /* The piles whose top matches, in seat order, the deck's (DECK_PILE, the highest bit) last. */
  for (unsigned m = s->top_mask[rank]; m; m &= m - 1) out[n++] = MOVE(c, T_PILE(__builtin_ctz(m)));
  if (n == 0) out[n++] = MOVE(c, T_NONE);
  return n;
}

/* The cards of the hand of the seat to move that give moves: each card but a repeat of an earlier
 * one (G-5). Returns how many. */
static int distinct_hand(const stp_state *s, pf_card *cards) {
  const uint8_t *hand = s->hand_card[s->turn];
  int n = 0, len = s->hand_len[s->turn];
  if (s->ncards == 52) { /* one deck: no two cards are equal */
    for (int i = 0; i < len; i++) cards[i] = hand[i];
    return len;
  }
  for (int i = 0; i < len; i++) {
    pf_card c = hand[i];
    bool seen = false;
    for (int j = 0; j < n; j++) seen |= cards[j] == c;
    if (!seen) cards[n++] = c;
  }
  return n;
}

static int stp_legal(const void *vs, pf_move *out) {
  const stp_state *s = vs;
  pf_card cards[HAND_MAX];
  int n = 0, ncards = distinct_hand(s, cards);
  for (int i = 0; i < ncards; i++) n += moves_of_card(s, cards[i], out + n);
  return n;
}

/* The move stp_legal would list at an index drawn from its count, counting card by card: the
 * general way, for two decks (equal cards) and ranks with two open piles (the first deal's). */
static pf_move random_move_listed(const stp_state *s, pf_rng *rng, int *count) {
  pf_move ms[PF_MAX_MOVES];
  int n = stp_legal(s, ms);
  *count = n;
  return ms[pf_rng_below(rng, (uint32_t)n)];
}

/* The moves of card i of the hand's word `cards` (which may be past the hand's length: a stale
 * byte, a card of rank 0 or another): max(rank_n, 1); bit i of *lay is set when it matches nothing. */
static inline int card_moves(const stp_state *s, uint32_t cards, int i, unsigned *lay) {
  int r = (cards >> 8 * i & 0xFF) >> 2, k = s->rank_n[r];
  *lay |= (unsigned)!k << i;
  return k + !k;
}

/* Does the hand (its word `cards`, len cards long) hold a card whose moves draw_move cannot count:
 * two decks (equal cards), or a rank of two open piles? Asked card by card only while the table
 * has such a rank (dup_ranks), which most moves of a game never see. */
static inline bool hand_listed(const stp_state *s, uint32_t cards, int len) {
  if (s->ncards != 52) return true;
  bool dup = false;
  for (int i = 0; i < len; i++) dup |= s->dup_ranks >> ((cards >> 8 * i & 0xFF) >> 2) & 1;
  return dup;
}

/* random_move: the same with one deck and at most one open pile of each rank in hand, without a
 * list or a branch per card: each hand card gives max(rank_n, 1) moves (its open pile first, then
 * the piles its rank tops in seat order, or a new open pile), a card past the hand's length none.
 * *at gets the index of the move's card in the hand, which apply would look for; -1 when listed.
 * *lay gets whether the move lays a new open pile, known from the card alone: apply's branch on
 * it, which no predictor learns, is then resolved before the move's target is. */
static inline pf_move draw_move(const stp_state *s, pf_rng *rng, int *count, int *at, bool *lay) {
  uint32_t cards = hand_word(s->hand_card[s->turn]); /* cards past the hand's length are stale */
  int len = s->hand_len[s->turn];
  if (__builtin_expect(s->dup_ranks || s->ncards != 52, 0) && hand_listed(s, cards, len)) {
    pf_move m = random_move_listed(s, rng, count);
    *at = -1, *lay = MOVE_TARGET(m) == T_NONE;
    return m;
  }
  /* Four scalars, not an array, which GCC would keep on the stack. */
  unsigned none = 0;
  int n0 = card_moves(s, cards, 0, &none), n1 = card_moves(s, cards, 1, &none);
  int n2 = card_moves(s, cards, 2, &none), n3 = card_moves(s, cards, 3, &none);
  /* The moves of the hand's len cards (len >= 1): below them, the draw reaches no card past it. */
  int s1 = n0, s2 = s1 + n1, s3 = s2 + n2, n = len > 2 ? (len > 3 ? s3 + n3 : s3) : (len > 1 ? s2 : s1);
  *count = n;
  int k = (int)pf_rng_below(rng, (uint32_t)n);
  /* The card: the first i whose cards' moves so far pass k; k becomes the index among its own. */
  int i = (k >= s1) + (k >= s2) + (k >= s3);
  *at = i;
  *lay = none >> i & 1;
  k -= (k >= s1) * n0 + (k >= s2) * n1 + (k >= s3) * n2;
  pf_card c = (pf_card)(cards >> 8 * i & 0xFF);
  /* Its k-th move: its open pile (k < nopen), or the (k - nopen)-th pile its rank tops, or a new
   * open pile when nothing matches; chosen by masks, as a branch here would be a coin toss. */
  int r = c >> 2, nopen = s->open_n[r], j = k - nopen;
  unsigned m = s->top_mask[r], later = -(unsigned)(j > 0), pick = (m & (m - 1) & later) | (m & ~later);
  if (__builtin_expect(j > 1, 0))
    for (; j > 1; j--) pick &= pick - 1; /* three piles topped by the rank */
  unsigned open = -(unsigned)(j < 0), any = -(unsigned)(m != 0);
  unsigned target = ((unsigned)T_OPEN(s->open_card[r]) & open) |
                    ((unsigned)T_PILE(__builtin_ctz(pick | 1u << 15)) & any & ~open);
  return MOVE(c, target);
}

/* STP-8: the deck plays a card: it takes the matching pile with the most cards, ties going to the
 * player's pile, then the deck's, then open piles in the order laid. */
static pf_move deck_choice(const stp_state *s, pf_card c) {
  int rank = c >> 2, best = 0, target = T_NONE;
  const int piles[2] = {0, DECK_PILE};
  for (int i = 0; i < 2; i++) {
    int q = piles[i];
    if (s->size[q] > best && rank_of_slot(s, s->top[q]) == rank) best = s->size[q], target = T_PILE(q);
  }
  for (int k = 0; k < s->nopen && best < 1; k++)
    if (rank_of_slot(s, s->open[k]) == rank) best = 1, target = T_OPEN(s->card[s->open[k]]);
  return MOVE(c, target);
}

static void deck_plays(stp_state *s) {
  s->deck_last_n = 0;
  for (int i = 0; i < 2 && s->next_slot < s->ncards; i++) {
    uint8_t slot = s->next_slot++;
    pf_move m = deck_choice(s, s->card[slot]);
    s->deck_last[s->deck_last_n++] = m;
    play_slot(s, DECK_PILE, slot, rank_of_slot(s, slot), MOVE_TARGET(m));
  }
}

/* The first of the hand's cards equal to c: the first zero byte of cards ^ c c c c among the
 * hand's (the bytes past its length are stale), found without a branch per card. */
static inline int hand_index(const stp_state *s, int p, pf_card c) {
  uint32_t x = hand_word(s->hand_card[p]) ^ (uint32_t)c * 0x01010101u, zero = (x - 0x01010101u) & ~x & 0x80808080u;
  return __builtin_ctz(zero & (uint32_t)((1ull << 8 * s->hand_len[p]) - 1)) >> 3;
}

/* apply: the seat to move plays move m, whose card is the i-th of its hand (lay: m lays a new open
 * pile). */
static inline void play_at(stp_state *s, int i, pf_move m, bool lay) {
  int p = s->turn;
  uint32_t slots = hand_word(s->hand[p]), cards = hand_word(s->hand_card[p]);
  uint8_t slot = (uint8_t)(slots >> 8 * i);
  s->hand_len[p]--;
  /* The slots and cards after it move down one. */
  uint32_t low = (1u << 8 * i) - 1;
  hand_word_set(s->hand[p], (slots & low) | (slots >> 8 & ~low));
  hand_word_set(s->hand_card[p], (cards & low) | (cards >> 8 & ~low));
  play_seat(s, p, slot, MOVE_CARD(m), MOVE_TARGET(m), lay);
  if (s->solitaire) deck_plays(s);
  next_turn(s);
}

static pf_move stp_random_move(const void *vs, pf_rng *rng, int *count) {
  int at;
  bool lay;
  return draw_move(vs, rng, count, &at, &lay);
}
static void stp_apply(void *vs, pf_move m) {
  stp_state *s = vs;
  play_at(s, hand_index(s, s->turn, MOVE_CARD(m)), m, MOVE_TARGET(m) == T_NONE);
}

/* pf_random_playout's loop (game.h: random_playout) with random_move and apply inline, not three
 * calls through the methods a move, and the generator's state in a local. */
static long stp_random_playout(void *vs, pf_rng *rng, long *branching) {
  stp_state *s = vs;
  pf_rng x = *rng;
  long n = 0, b = 0;
  for (int k, i; !s->over; n++) {
    bool lay;
    pf_move m = draw_move(s, &x, &k, &i, &lay);
    b += k;
    play_at(s, i >= 0 ? i : hand_index(s, s->turn, MOVE_CARD(m)), m, lay);
  }
  *rng = x;
  *branching += b;
  return n;
}

static void target_str(int target, char *buf) {
  if (target & 0x80) {
    if ((target & 0x7F) == DECK_PILE)
      strcpy(buf, "deck");
    else
      sprintf(buf, "p%d", target & 0x7F);
  } else {
    pf_card_str((pf_card)(target - 1), buf);
  }
}

void stp_move_str(const void *vs, pf_move m, char buf[PF_MOVE_STR]) {
  (void)vs;
  char c[PF_CARD_STR], t[PF_CARD_STR];
  pf_card_str(MOVE_CARD(m), c);
  if (MOVE_TARGET(m) == T_NONE) {
    pf_snprintf(buf, PF_MOVE_STR, "%s", c);
  } else {
    target_str(MOVE_TARGET(m), t);
    pf_snprintf(buf, PF_MOVE_STR, "%s>%s", c, t);
  }
}

/* Lists the matching piles of a card as text ("7S, p1"). */
static void matches_text(const stp_state *s, pf_card c, char *buf, size_t n) {
  pf_move ms[64];
  int k = moves_of_card(s, c, ms);
  pf_buf list = {0};
  for (int i = 0; i < k; i++) {
    char t[PF_CARD_STR];
    target_str(MOVE_TARGET(ms[i]), t);
    pf_buf_join_item(&list, i, "%s", t);
  }
  pf_snprintf(buf, n, "%s", pf_buf_str(&list)); /* at most n - 1 bytes */
  pf_buf_free(&list);
}

static int stp_move_parse(const void *vs, const char *text, pf_move *m, pf_error *err) {
  const stp_state *s = vs;
  const char *p = text;
  while (*p == ' ' || *p == '\t') p++;
  pf_card c;
  char cs[PF_CARD_STR];
  if (pf_card_scan(&p, &c) != 0 || !pf_card_is_standard(c))
    return pf_fail(err, "cannot read a card at the start; moves look like 7H, 7H>7S, 7H>p2%s",
                   s->solitaire ? ", 7H>deck" : "");
  pf_card_str(c, cs);
  bool in_hand = false;
  for (int i = 0; i < s->hand_len[s->turn]; i++) in_hand |= s->card[s->hand[s->turn][i]] == c;
  if (!in_hand) return pf_fail(err, "%s is not in seat %d's hand", cs, s->turn);
  pf_move ms[64];
  int n = moves_of_card(s, c, ms);
  bool must_take = MOVE_TARGET(ms[0]) != T_NONE;
  int target = T_NONE;
  char what[32] = "";
  while (*p == ' ') p++;
  if (*p == '>') {
    p++;
    while (*p == ' ') p++;
    int seat;
    if (pf_pile_scan(&p, &seat) == 0) {
      if (seat >= npiles_in_play(s)) return pf_fail(err, "there is no seat %d", seat);
      target = T_PILE(seat);
      pf_snprintf(what, sizeof what, "seat %d's pile", seat);
    } else if (strncasecmp(p, "deck", 4) == 0) {
      if (!s->solitaire) return pf_fail(err, "there is no deck's pile: that is solitaire only");
      p += 4;
      target = T_PILE(DECK_PILE);
      strcpy(what, "the deck's pile");
    } else {
      pf_card o;
      if (pf_card_scan(&p, &o) != 0 || !pf_card_is_standard(o))
        return pf_fail(err, "after '>' comes a pile: an open pile's card (7S), p<seat>%s",
                       s->solitaire ? " or deck" : "");
      char os[PF_CARD_STR];
      if (open_find(s, o) < 0) return pf_fail(err, "there is no open pile %s", pf_card_str(o, os));
      target = T_OPEN(o);
      pf_snprintf(what, sizeof what, "the open pile %s", pf_card_str(o, os));
    }
  }
  while (*p == ' ') p++;
  if (*p) return pf_fail(err, "unexpected '%s' after the move", p);
  for (int i = 0; i < n; i++)
    if (MOVE_TARGET(ms[i]) == target) {
      *m = ms[i];
      return 0;
    }
  char list[256];
  matches_text(s, c, list, sizeof list);
  if (target == T_NONE) {
    /* Not strtok(list, ","): it would cut `list` itself to its first entry before it is used. */
    char first[PF_CARD_STR];
    target_str(MOVE_TARGET(ms[0]), first);
    return pf_fail(err, "%s matches %s: a matching pile must be taken (STP-4), e.g. %s>%s", cs,
                   list, cs, first);
  }
  if ((target & 0x80) && !s->size[target & 0x7F]) return pf_fail(err, "%s is empty", what);
  if (must_take)
    return pf_fail(err, "%s does not match %s (only equal ranks match, STP-1); it matches %s", what,
                   cs, list);
  return pf_fail(err, "%s does not match %s (only equal ranks match, STP-1); %s matches nothing, "
                      "so it is played as a new open pile: %s",
                 what, cs, cs, cs);
}

/* ------------------------------------------------------------------------------------------ */
/* Start, scores, deals                                                                       */
/* ------------------------------------------------------------------------------------------ */

static int stp_start(void *vs, const pf_setup *setup, pf_error *err) {
  stp_state *s = vs;
  int n = setup->players;
  memset(s, 0, sizeof *s);
  s->players = (uint8_t)n;
  s->solitaire = n == 1;
  s->first_open = TABLE[n][0];
  s->per_round = TABLE[n][1];
  s->final_round = TABLE[n][2];
  s->rounds = TABLE[n][3];
  s->ncards = (uint8_t)(52 * TABLE[n][4]);
  s->target = (int32_t)setup->options.v[0];
  s->seed = setup->seed;
  s->given = setup->deals;
  s->ndeals_given = setup->ndeals;
  s->dealer = (uint8_t)(n - 1); /* G-2 */
  if (s->solitaire && s->target)
    return pf_fail(err, "option target (scoring games, STP-7) needs 2 or more players");
  if (s->target == 0 && setup->ndeals > 1)
    return pf_fail(err, "one game uses one deal, but %d deals are given", setup->ndeals);
  pf_card deck[MAX_CARDS];
  if (pf_deals_check(setup->deals, setup->ndeals, deck, pf_deck_standard(deck, TABLE[n][4], 0), err) != 0) return -1;
  start_game(s);
  return 0;
}

static int stp_to_move(const void *vs) {
  const stp_state *s = vs;
  return s->over ? PF_NOBODY : s->turn;
}

static void stp_scores(const void *vs, int *scores) {
  const stp_state *s = vs;
  for (int i = 0; i < s->players; i++)
    scores[i] = s->target ? s->total[i] + (s->over ? 0 : s->size[i]) : s->size[i];
}

static int stp_winners(const void *vs, int *seats) {
  const stp_state *s = vs;
  if (s->solitaire) { /* STP-8: only with more cards than the deck */
    if (s->size[0] > s->size[DECK_PILE]) seats[0] = 0;
    return s->size[0] > s->size[DECK_PILE];
  }
  int scores[PF_MAX_PLAYERS], best = -1, n = 0;
  stp_scores(s, scores);
  for (int i = 0; i < s->players; i++)
    if (scores[i] > best) best = scores[i];
  for (int i = 0; i < s->players; i++)
    if (scores[i] == best) seats[n++] = i; /* G-6 */
  return n;
}

static int stp_current_deal(const void *vs, pf_deal *out) {
  const stp_state *s = vs;
  if (out) out->ncards = s->ncards, memcpy(out->cards, s->card, s->ncards * sizeof s->card[0]);
  return s->deal_no;
}

/* ------------------------------------------------------------------------------------------ */
/* Hidden information                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* Hidden from `seat`: the other hands and the stock. Everything else was seen face up. */
static void stp_determinize(void *vs, int seat, pf_rng *rng) {
  stp_state *s = vs;
  uint8_t slots[MAX_CARDS];
  pf_hands h = hands_of(s);
  int n = pf_slots_hidden(&h, seat, s->next_slot, s->ncards, slots);
  if (s->ncards == 52 && n) {
    /* One deck: the hidden cards are those neither face up nor in a hand the seat sees, which
     * listed by code are pf_slots_shuffle's sorted cards; then its shuffle. */
    uint64_t hidden = ((1ull << 52) - 1) & ~s->faceup;
    for (int p = 0; p < s->players; p++)
      if (pf_view_sees_own(seat, p))
        for (int i = 0; i < s->hand_len[p]; i++) hidden &= ~(1ull << s->hand_card[p][i]);
    pf_card cards[MAX_CARDS];
    int k = 0;
    for (; hidden; hidden &= hidden - 1) cards[k++] = (pf_card)__builtin_ctzll(hidden);
    pf_shuffle16(rng, cards, (size_t)k);
    for (int i = 0; i < n; i++) s->card[slots[i]] = cards[i];
  } else {
    pf_slots_shuffle(s->card, slots, n, rng);
  }
  for (int p = 0; p < s->players; p++)
    for (int i = 0; i < s->hand_len[p]; i++) s->hand_card[p][i] = (uint8_t)s->card[s->hand[p][i]];
  /* Later deals of a match are unknown too. */
  s->given = NULL;
  s->ndeals_given = 0;
  s->seed = pf_rng_next(rng);
}

static int stp_check(const void *vs, pf_error *err) {
  const stp_state *s = vs;
  int seen[MAX_CARDS] = {0};
  for (int p = 0; p < s->players; p++) {
    if (s->hand_len[p] > HAND_MAX) return pf_fail(err, "seat %d holds %d cards", p, s->hand_len[p]);
    for (int i = 0; i < s->hand_len[p]; i++) {
      seen[s->hand[p][i]]++;
      if (s->hand_card[p][i] != s->card[s->hand[p][i]]) return pf_fail(err, "seat %d: its hand's cards are kept wrong", p);
    }
  }
  for (int k = 0; k < s->nopen; k++) seen[s->open[k]]++;
  for (int k = 0; k < s->naside; k++) seen[s->aside[k]]++;
  for (int k = s->next_slot; k < s->ncards; k++) seen[k]++;
  for (int q = 0; q < NPILES; q++) {
    int n = 0, slot = s->size[q] ? s->top[q] : NONE, last = NONE;
    while (slot != NONE && n <= MAX_CARDS) {
      seen[slot]++;
      n++;
      last = slot;
      slot = s->below[slot];
    }
    if (n != s->size[q] || (n && last != s->bottom[q]))
      return pf_fail(err, "pile %d: size %d but %d cards linked", q, s->size[q], n);
  }
  for (int k = 0; k < s->ncards; k++)
    if (seen[k] != 1) return pf_fail(err, "card slot %d is in %d places", k, seen[k]);
  uint16_t top_mask[13] = {0};
  uint8_t open_n[13] = {0}, rank_n[13] = {0};
  for (int q = 0; q < NPILES; q++) {
    if (s->top_rank[q] != (s->size[q] ? rank_of_slot(s, s->top[q]) : EMPTY))
      return pf_fail(err, "pile %d: its top's rank is kept wrong", q);
    if (s->size[q]) top_mask[rank_of_slot(s, s->top[q])] |= (uint16_t)(1u << q), rank_n[rank_of_slot(s, s->top[q])]++;
  }
  for (int r = 0; r < 13; r++)
    if (s->open_n[r] && (s->open_slot[r] != s->open[open_first(s, r)] || s->open_card[r] != s->card[s->open_slot[r]]))
      return pf_fail(err, "rank %d: the first open pile's card is kept wrong", r + 1);
  for (int k = 0; k < s->nopen; k++) open_n[rank_of_slot(s, s->open[k])]++, rank_n[rank_of_slot(s, s->open[k])]++;
  for (int r = 0; r < 13; r++)
    if (top_mask[r] != s->top_mask[r] || open_n[r] != s->open_n[r] || rank_n[r] != s->rank_n[r] ||
        (s->dup_ranks >> r & 1) != (open_n[r] > 1))
      return pf_fail(err, "rank %d: the piles' tops or the open piles are counted wrong", r + 1);
  if (s->dup_ranks >> 13) return pf_fail(err, "ranks past the 13th have two open piles");
  if (pf_cards_are_decks(s->card, s->ncards, s->ncards / 52, 0, err) != 0) return -1;
  if (s->ncards == 52) {
    uint64_t hidden = 0;
    for (int p = 0; p < s->players; p++)
      for (int i = 0; i < s->hand_len[p]; i++) hidden |= 1ull << s->card[s->hand[p][i]];
    for (int k = s->next_slot; k < s->ncards; k++) hidden |= 1ull << s->card[k];
    if (s->faceup != (((1ull << 52) - 1) & ~hidden)) return pf_fail(err, "the cards face up are kept wrong");
  }
  if (s->over && s->next_slot != s->ncards) return pf_fail(err, "over with cards in the stock");
  if (!s->over && s->hand_len[s->turn] == 0) return pf_fail(err, "seat %d to move with no card", s->turn);
  if (!s->solitaire && s->over && s->nopen) return pf_fail(err, "over with open piles left");
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* The greedy bot's rule of thumb                                                             */
/* ------------------------------------------------------------------------------------------ */

/* Copies of each rank (0..12) the seat to move has seen: its hand, the open piles, the cards set
 * aside and every pile's cards (all played face up). */
static void ranks_seen(const stp_state *s, int *seen) {
  if (s->ncards == 52) { /* one deck: the four bits of each rank, of the cards face up or in hand */
    uint64_t known = s->faceup;
    for (int i = 0; i < s->hand_len[s->turn]; i++) known |= 1ull << s->hand_card[s->turn][i];
    for (int r = 0; r < 13; r++) /* the bits of a nibble x: hex digit x of 0x4332322132212110 */
      seen[r] = (int)(0x4332322132212110ull >> 4 * (known >> 4 * r & 0xF) & 0xF);
    return;
  }
  memset(seen, 0, 13 * sizeof *seen);
  for (int i = 0; i < s->hand_len[s->turn]; i++) seen[rank_of_slot(s, s->hand[s->turn][i])]++;
  for (int k = 0; k < s->nopen; k++) seen[rank_of_slot(s, s->open[k])]++;
  for (int k = 0; k < s->naside; k++) seen[rank_of_slot(s, s->aside[k])]++;
  for (int q = 0; q < NPILES; q++)
    for (int slot = s->size[q] ? s->top[q] : NONE; slot != NONE; slot = s->below[slot]) seen[rank_of_slot(s, slot)]++;
}

/* Take the biggest pile, and keep your own pile's top rank scarce: a move is worth the cards it
 * wins (those it takes from another seat count twice: they are lost to it), less what the pile
 * it leaves on top of yours (or the new open pile) would cost if another seat matched it, by how
 * likely the others hold a card of its rank among the cards this seat has not seen. Milli-cards. */
static void stp_rate_moves(const void *vs, const pf_move *moves, int n, int64_t *rating) {
  const stp_state *s = vs;
  int seen[13], me = s->turn, others = 0;
  ranks_seen(s, seen);
  for (int p = 0; p < s->players; p++)
    if (p != me) others += s->hand_len[p];
  if (s->solitaire) others = 2; /* the deck plays two cards after each of yours (STP-8) */
  int copies = 4 * (s->ncards / 52), unseen = s->ncards - s->hand_len[me] - s->nopen - s->naside;
  for (int q = 0; q < NPILES; q++) unseen -= s->size[q];
  for (int i = 0; i < n; i++) {
    int rank = MOVE_CARD(moves[i]) >> 2, tg = MOVE_TARGET(moves[i]), q = tg & 0x7F;
    int64_t gain = 0, stake = 2; /* a new open pile: two cards for whoever matches it */
    if (tg != T_NONE) {
      gain = (tg & 0x80) ? (q == me ? 1 : 2 * s->size[q] + 1) : 2;
      stake = 2 * (s->size[me] + ((tg & 0x80) && q != me ? s->size[q] : 0) + (tg & 0x80 ? 1 : 2));
    }
    /* The chance that the others hold the rank: each of their cards is one of the unseen. */
    int64_t risk = unseen > 0 ? 1000 * (int64_t)(copies - seen[rank]) * others / unseen : 0;
    rating[i] = 1000 * gain - stake * (risk < 1000 ? risk : 1000);
  }
}

/* ------------------------------------------------------------------------------------------ */
/* The description                                                                            */
/* ------------------------------------------------------------------------------------------ */


/* How pilfer bench and scripts/strength exercise the game, and the lobby's copy (core/measure.h). */
static const pf_measures MEASURES = {
    .playouts = {{1, 50000}, {2, 400000}, {4, 100000}, {7, 50000}, {12, 30000}},
    .searches = {{2, 20000, 4, {0, 16, 32}}, {4, 5000, 2, {0, 12, 24}}},
    .sims = {{2, 20, "ismcts:iters=300 greedy"}},
    .strength = {{2, 2000, "ismcts greedy"}, {2, 2000, "greedy random"}},
    .quick_players = 2,
    .description = "A matching game for 1 to 12 players. On your turn you play one card from your hand: if its "
    "rank matches the top card of an open pile or of any player's pile, you take that whole pile "
    "onto yours; if nothing matches, your card starts a new open pile. Whoever holds the rank on top "
    "of your pile can take all of it, so mind what you leave showing. The most cards when the deck "
    "runs out wins.",
    .length_players = 2,
    .length_moves = 48,
};

/* Design metrics (`pilfer analyze`): what a player's move did. */
static const char *const EVENTS[] = {"steals", "cards_stolen", "open_piles_taken", "new_open_piles", NULL};

/* The standing is the scores: the seats' pile sizes, and with a target the totals of the games
 * finished. Within a game a move that changes a seat's pile adds to the seats' piles all told (a
 * capture or a steal lays the played card on the taker's pile with what it takes; STP-6 hands out
 * what is left), except the deck's steal in solitaire (STP-8), which takes from seat 0's pile
 * alone; either way the sum of the seats' piles changes. A new game or the match's end changes
 * deal_no or over. */
/* The rounds begun (STP-5), over the games of a scoring match (STP-7). */
static int stp_round(const void *vs) {
  const stp_state *s = vs;
  return s->deal_no * s->rounds + s->round + 1;
}

static uint64_t stp_standing_key(const void *vs) {
  const stp_state *s = vs;
  uint64_t sum = 0;
  for (int p = 0; p < s->players; p++) sum += s->size[p];
  return sum | (uint64_t)(uint32_t)s->deal_no << 16 | (uint64_t)s->over << 63;
}

static void stp_count_events(const void *before, const void *after, pf_move m, long long *counts) {
  const stp_state *s = before;
  int t = MOVE_TARGET(m);
  (void)after;
  if (t & 0x80 && (t & 0x7F) != s->turn) counts[0]++, counts[1] += s->size[t & 0x7F]; /* STP-4 */
  if (t != T_NONE && !(t & 0x80)) counts[2]++;
  if (t == T_NONE) counts[3]++;
}

/* ------------------------------------------------------------------------------------------ */
/* For learning: dense actions and the length bound (core/game.h, docs/actions.md)             */
/* ------------------------------------------------------------------------------------------ */

/* A move is a card and a target (STP-4), and only ranks match (STP-1): the dense action of card c
 * (0..51; with two decks equal cards are one move, G-5) is c * width + what it takes:
 *   0           nothing matches: a new open pile
 *   1 + s       the open pile whose card is of c's rank and suit s (only ranks match)
 *   5 + q       seat q's pile (one's own included)
 *   5 + N       solitaire: the deck's pile (STP-8)
 * A function of the code and the player count alone, as core/game.h asks. */
static int stp_width(int players) { return 5 + players + (players == 1); }

static int stp_action_count(int players, const pf_options *options) {
  (void)options;
  return 52 * stp_width(players);
}

static int stp_action_index(const void *vs, pf_move m) {
  const stp_state *s = vs;
  int c = MOVE_CARD(m), t = MOVE_TARGET(m), slot;
  if (c >= 52) return -1;
  if (t == T_NONE)
    slot = 0;
  else if (!(t & 0x80))
    slot = 1 + ((t - 1) & 3);
  else if ((t & 0x7F) == DECK_PILE)
    slot = 5 + s->players;
  else
    slot = 5 + (t & 0x7F);
  return c * stp_width(s->players) + slot;
}

static pf_move stp_action_move(const void *vs, int a) {
  const stp_state *s = vs;
  int w = stp_width(s->players), c = a / w, slot = a % w;
  if (a < 0 || c >= 52) return PF_NO_MOVE;
  if (slot == 0) return MOVE(c, T_NONE);
  if (slot < 5) return MOVE(c, T_OPEN((c & ~3) | (slot - 1)));
  return MOVE(c, T_PILE(slot - 5 == s->players ? DECK_PILE : slot - 5));
}

/* Every move plays a card from a hand, and every card dealt to a hand is played once: a game is
 * players x (dealt per round x (rounds - 1) + dealt in the final round) moves (STP-2, STP-5),
 * the deck's plays in solitaire being no moves (STP-8); there are no chance events. With a target
 * (STP-7) games go on while the highest total is shared, and nothing in the rules bounds how often
 * that happens: 0, the length being unknown. */
static long stp_max_length(int players, const pf_options *options) {
  if (options->v[0] && players > 1) return 0;
  const uint8_t *t = TABLE[players];
  return (long)players * (t[1] * (t[3] - 1) + t[2]);
}

const pf_game pf_game_steal_the_pile = {
    .id = "steal-the-pile",
    .title = "Steal the Pile",
    .min_players = 1,
    .max_players = 12,
    .options = OPTIONS,
    .noptions = sizeof OPTIONS / sizeof OPTIONS[0],
    .state_size = sizeof(stp_state),
    .move_bound = 1u << 16 /* card | target << 8 */,
    .rules = pf_rules_steal_the_pile,
    .measures = &MEASURES,
    .start = stp_start,
    .to_move = stp_to_move,
    .legal = stp_legal,
    .random_move = stp_random_move,
    .random_playout = stp_random_playout,
    .apply = stp_apply,
    .move_str = stp_move_str,
    .move_parse = stp_move_parse,
    .scores = stp_scores,
    .winners = stp_winners,
    .view_write = stp_view_write,
    .view_text = stp_view_text,
    .determinize = stp_determinize,
    .check = stp_check,
    .current_deal = stp_current_deal,
    .describe = stp_describe,
    .rate_moves = stp_rate_moves,
    .move_zones = stp_move_zones,
    .standing_key = stp_standing_key,
    .events = EVENTS,
    .count_events = stp_count_events,
    .round = stp_round,
    .events_before = offsetof(stp_state, card), /* turn, size */
    .action_count = stp_action_count,
    .action_index = stp_action_index,
    .action_move = stp_action_move,
    .max_length = stp_max_length,
};
