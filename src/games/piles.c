/*
 * piles.c - Piles (RULINGS PIL-1 .. PIL-9): 4 players in two teams, a 4x3 castle of piles.
 *
 * The state keeps the deck order in card[]: slot i is the i-th card from the top. Every card is
 * named by its slot wherever it is: in a hand, in a castle pile (a linked stack through below[]),
 * or among the cards taken from passers. Positions are numbered 0..11 row by row: a1 b1 c1 d1,
 * a2 .. d2, a3 .. d3 (PIL-2).
 *
 * Hidden information: the other hands, and the cards taken from passers (PIL-7), which only the
 * passer and the taker know until the end. A pass makes a chance node: the next seat takes a
 * card at random from the passer's hand, drawn from the generator kept in the state.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/game.h"
#include "core/measure.h"
#include "core/slots.h"
#include "games/registry.h"
#include "games/rules.h"
PF_RULES_TEXT(pf_rules_piles);

/* ------------------------------------------------------------------------------------------ */
/* State                                                                                      */
/* ------------------------------------------------------------------------------------------ */

#define NCARDS 52
#define NSEATS 4
#define NPOS 12  /* castle piles */
#define HAND 10  /* cards dealt to each player, and turns each player has (PIL-2, PIL-8) */
#define TURNS (NSEATS * HAND)
#define NONE 0xFF

/* Move codes: the card in bits 0-7, the castle position in bits 8-15; passing is its own code. */
#define MOVE(card, pos) ((pf_move)(card) | ((pf_move)(pos) << 8))
#define MOVE_CARD(m) ((pf_card)((m)&0xFF))
#define MOVE_POS(m) ((int)(((m) >> 8) & 0xFF))
#define MOVE_PASS ((pf_move)0xFFFF)

typedef struct pil_state {
  pf_card card[NCARDS];  /* the card of each slot */
  uint8_t below[NCARDS]; /* the slot beneath, in a castle pile; NONE at the bottom */
  uint8_t top[NPOS], size[NPOS];
  uint8_t points[NPOS][2];  /* PIL-9: what each castle pile's black (0) and red (1) cards score */
  /* PIL-6, kept by apply for the move generator (castle_masks): the positions whose top is red,
   * and in lanes of 5 bits, one a position (LANES), the same (bit 4 of each lane: red_lanes) and
   * each position's beat plus one, clamped to 0..14 (beats). */
  uint16_t reds;
  uint64_t red_lanes, beats;
  uint8_t hand[NSEATS][HAND];
  uint8_t hand_len[NSEATS];
  uint8_t take_slot[TURNS]; /* PIL-7: the cards taken from passers, in order */
  uint8_t take_from[TURNS]; /* ... and each one's passer; the taker is the next seat */
  uint8_t ntakes;
  uint8_t turns;    /* turns begun (a pass counts from the pass on) */
  uint8_t turn;     /* the seat to move, or the passer while its card is being taken */
  uint8_t passing;  /* a pass waits for its chance move */
  uint8_t red_team; /* PIL-5: the team (0: seats 0 and 2, 1: seats 1 and 3) that is red, or NONE */
  uint8_t over;
  pf_rng rng; /* the chance stream (G-4) */
} pil_state;

static inline pf_hands hands_of(const pil_state *s) {
  return (pf_hands){&s->hand[0][0], HAND, s->hand_len, NSEATS};
}

static inline int team_of(int seat) { return seat % 2; }
static inline int taker_of(int passer) { return (passer + 1) % NSEATS; }
static inline bool is_red(pf_card c) { return pf_card_is_red(c); }
static inline pf_card top_card(const pil_state *s, int pos) { return s->card[s->top[pos]]; }

/* PIL-5: the red team; seats 0 and 2 are black if no card was ever placed. */
static inline int red_team(const pil_state *s) { return s->red_team == NONE ? 1 : s->red_team; }

static void pos_str(int pos, char buf[3]) {
  buf[0] = (char)('a' + pos % 4);
  buf[1] = (char)('1' + pos / 4);
  buf[2] = '\0';
}

/* ------------------------------------------------------------------------------------------ */
/* Values (PIL-3, PIL-4)                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* +1 for a neighbour whose top card has this colour, -1 otherwise. */
static inline int neighbour(const pil_state *s, int pos, bool red) {
  return is_red(top_card(s, pos)) == red ? 1 : -1;
}

/* PIL-4: the value of pile `pos` with card c on top: c's value (A 1 .. K 13, PIL-3), +1 for each
 * orthogonal neighbour (PIL-2) whose top card has c's colour, -1 for each of the other colour. */
static int value_with(const pil_state *s, int pos, pf_card c) {
  int v = pf_card_rank(c), col = pos % 4, row = pos / 4;
  bool red = is_red(c);
  if (col > 0) v += neighbour(s, pos - 1, red);
  if (col < 3) v += neighbour(s, pos + 1, red);
  if (row > 0) v += neighbour(s, pos - 4, red);
  if (row < 2) v += neighbour(s, pos + 4, red);
  return v;
}

static inline int pile_value(const pil_state *s, int pos) { return value_with(s, pos, top_card(s, pos)); }

/* PIL-6: on a top card of the same colour always; on the other colour only if the pile's value
 * with the new card on top is greater than before, neighbours as they are. */
static inline bool may_place(const pil_state *s, pf_card c, int pos) {
  pf_card t = top_card(s, pos);
  return is_red(c) == is_red(t) || value_with(s, pos, c) > value_with(s, pos, t);
}

/* PIL-9: A 9, K 4, Q 3, J 2, any other card 1. */
static int card_points(pf_card c) {
  static const int8_t POINTS[14] = {0, 9, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 4};
  return POINTS[pf_card_rank(c)];
}

/* Whether `seat` may know the card of take i: the passer and the taker, and everyone once the
 * game is over (PIL-7, PIL-9). */
static inline bool take_known(const pil_state *s, int i, int seat) {
  return s->over || pf_view_sees_own(seat, s->take_from[i]) || pf_view_sees_own(seat, taker_of(s->take_from[i]));
}

/* PIL-9: a team collects the piles topped with its colour, plus the cards its seats took, and
 * scores the collected cards of the other colour. With takes false, only the castle counts. */
static int team_points(const pil_state *s, int team, bool takes) {
  bool red = red_team(s) == team;
  int n = 0;
  for (int pos = 0; pos < NPOS; pos++)
    if (is_red(top_card(s, pos)) == red) n += s->points[pos][!red];
  for (int i = 0; takes && i < s->ntakes; i++) {
    pf_card c = s->card[s->take_slot[i]];
    if (team_of(taker_of(s->take_from[i])) == team && is_red(c) != red) n += card_points(c);
  }
  return n;
}

/* ------------------------------------------------------------------------------------------ */
/* Moves                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* PIL-6 for a whole castle at once: a card of the other colour than a pile's top raises the
 * value iff its own value beats the top's value plus twice the top's neighbour bonus (each
 * neighbour that counted +1 for the top counts -1 for the card, and the other way round): iff its
 * rank is above the top's rank plus twice that bonus, the pile's beat. The positions are kept as
 * lanes of 5 bits of a word (position pos in bits 5 pos .. 5 pos + 4), a set of positions as bit
 * 4 of their lanes, so that one subtraction compares a rank with every beat. */
#define LANES 0x0084210842108421ull  /* bit 0 of each of the 12 lanes */
#define LANE_TOP (LANES << 4)        /* bit 4 of each */
#define LANE(pos) (5 * (pos))
static const int8_t NEIGHBOURS[NPOS] = {2, 3, 3, 2, 3, 4, 4, 3, 2, 3, 3, 2}; /* orthogonal (PIL-2) */

/* Sets the beat of the positions of `changed`: those whose top or a neighbour's colour changed
 * (s->reds is the tops' already). */
static void castle_masks(pil_state *s, unsigned changed) {
  /* The top's neighbour bonus (value_with's) from masks: bit pos of each is set when pos has a
   * neighbour that way (left, right, above, below) whose top has the colour of pos's top. */
  unsigned red = s->reds;
  unsigned left = ~(red ^ red << 1) & 0xEEE, right = ~(red ^ red >> 1) & 0x777;
  unsigned up = ~(red ^ red << 4) & 0xFF0, down = ~(red ^ red >> 4) & 0x0FF;
  for (; changed; changed &= changed - 1) {
    int pos = __builtin_ctz(changed);
    int same = (left >> pos & 1) + (right >> pos & 1) + (up >> pos & 1) + (down >> pos & 1);
    int beat = pf_card_rank(top_card(s, pos)) + 2 * (2 * same - NEIGHBOURS[pos]);
    beat = beat < -1 ? -1 : beat > 13 ? 13 : beat;
    s->beats = (s->beats & ~(31ull << LANE(pos))) | (uint64_t)(beat + 1) << LANE(pos);
  }
}

/* The castle's masks made anew from its tops (a start, the check). */
static void castle_masks_all(pil_state *s) {
  s->reds = 0;
  s->red_lanes = 0;
  for (int pos = 0; pos < NPOS; pos++) {
    s->reds |= (uint16_t)(is_red(top_card(s, pos)) << pos);
    s->red_lanes |= (uint64_t)is_red(top_card(s, pos)) << (LANE(pos) + 4);
  }
  castle_masks(s, 0xFFF);
}

/* The orthogonal neighbours of each position (PIL-2), as masks. */
static const uint16_t AROUND[NPOS] = {0x012, 0x025, 0x04A, 0x084, 0x121, 0x252,
                                      0x4A4, 0x848, 0x210, 0x520, 0xA40, 0x480};

/* Writes, for each card of the hand of the seat to move, the castle positions it may go to
 * (PIL-6) as a set of lanes and their number; returns how many placements there are in all. A
 * lane of 16 + rank - (beat + 1) (3 to 29: no borrow from the next) has bit 4 set iff the rank
 * is above the beat; the lanes' bits 4 are counted by adding them all up into the last lane. */
static int placements(const pil_state *s, uint64_t *where, int *count) {
  uint64_t colour[2] = {LANE_TOP & ~s->red_lanes, s->red_lanes};
  int n = 0;
  for (int i = 0; i < s->hand_len[s->turn]; i++) {
    pf_card c = s->card[s->hand[s->turn][i]];
    uint64_t m = colour[is_red(c)] | ((LANES * (uint64_t)(16 + pf_card_rank(c)) - s->beats) & LANE_TOP);
    where[i] = m;
    n += count[i] = (int)(((m >> 4) * LANES) >> LANE(NPOS - 1) & 31);
  }
  return n;
}

/* The position of the lowest lane set. */
static inline int lane_pos(uint64_t m) { return __builtin_ctzll(m) / 5; }

static int pil_legal(const void *vs, pf_move *out) {
  const pil_state *s = vs;
  uint64_t where[HAND];
  int n = 0, count[HAND];
  placements(s, where, count);
  for (int i = 0; i < s->hand_len[s->turn]; i++) {
    pf_card c = s->card[s->hand[s->turn][i]];
    for (uint64_t m = where[i]; m; m &= m - 1) out[n++] = MOVE(c, lane_pos(m));
  }
  out[n++] = MOVE_PASS; /* PIL-7: always allowed */
  return n;
}

/* The move pil_legal would list at an index drawn from its count, found from the masks. */
static pf_move pil_random_move(const void *vs, pf_rng *rng, int *count) {
  const pil_state *s = vs;
  uint64_t where[HAND];
  int ncard[HAND], n = placements(s, where, ncard) + 1;
  *count = n;
  int k = (int)pf_rng_below(rng, (uint32_t)n);
  for (int i = 0; i < s->hand_len[s->turn]; k -= ncard[i++]) /* the card, then its k-th pile */
    if (k < ncard[i]) {
      uint64_t m = where[i];
      while (k--) m &= m - 1;
      return MOVE(s->card[s->hand[s->turn][i]], lane_pos(m));
    }
  return MOVE_PASS;
}

/* PIL-8: after 10 turns each the game is over; otherwise the next seat plays (G-1). */
static void end_turn(pil_state *s) {
  if (s->turns == TURNS)
    s->over = 1;
  else
    s->turn = (uint8_t)taker_of(s->turn);
}

static int hand_index(const pil_state *s, int seat, pf_card c) {
  for (int i = 0; i < s->hand_len[seat]; i++)
    if (s->card[s->hand[seat][i]] == c) return i;
  return -1;
}

static uint8_t hand_remove(pil_state *s, int seat, int i) {
  uint8_t *hand = s->hand[seat], slot = hand[i];
  s->hand_len[seat]--;
  for (; i < s->hand_len[seat]; i++) hand[i] = hand[i + 1]; /* a few bytes: no memmove call */
  return slot;
}

static void pil_apply(void *vs, pf_move m) {
  pil_state *s = vs;
  s->turns++;
  if (m == MOVE_PASS) { /* PIL-7: the take is the chance move that follows */
    s->passing = 1;
    return;
  }
  pf_card c = MOVE_CARD(m);
  int pos = MOVE_POS(m);
  uint8_t slot = hand_remove(s, s->turn, hand_index(s, s->turn, c));
  s->below[slot] = s->top[pos];
  s->top[pos] = slot;
  s->size[pos]++;
  s->points[pos][is_red(c)] += (uint8_t)card_points(c);
  unsigned changed = (s->reds >> pos & 1) == is_red(c) ? 1u << pos : 1u << pos | AROUND[pos];
  s->reds = (uint16_t)((s->reds & ~(1u << pos)) | (unsigned)is_red(c) << pos);
  s->red_lanes = (s->red_lanes & ~(16ull << LANE(pos))) | (uint64_t)is_red(c) << (LANE(pos) + 4);
  castle_masks(s, changed);
  if (s->red_team == NONE) /* PIL-5: the first card placed gives its team its colour */
    s->red_team = (uint8_t)(is_red(c) ? team_of(s->turn) : 1 - team_of(s->turn));
  end_turn(s);
}

/* PIL-7: the next seat takes the card at hand index i of the passer. The generator is advanced
 * by one draw below the hand's size, whether the card was drawn or recorded. */
static void take(pil_state *s, int i) {
  s->take_slot[s->ntakes] = hand_remove(s, s->turn, i);
  s->take_from[s->ntakes++] = s->turn;
  s->passing = 0;
  end_turn(s);
}

static void pil_chance_sample(void *vs, char *buf) {
  pil_state *s = vs;
  int i = (int)pf_rng_below(&s->rng, s->hand_len[s->turn]);
  pf_card c = s->card[s->hand[s->turn][i]];
  take(s, i);
  if (buf) {
    buf[0] = '*';
    pf_card_str(c, buf + 1);
  }
}

static int pil_chance_apply(void *vs, const char *text, char canon[PF_MOVE_STR], pf_error *err) {
  pil_state *s = vs;
  pf_card c;
  char cs[PF_CARD_STR];
  if (!s->passing) return pf_fail(err, "nobody passed: there is no card to take");
  if (text[0] != '*' || pf_card_parse(text + 1, &c) != 0 || !pf_card_is_standard(c))
    return pf_fail(err, "a take is written * and the card taken, e.g. *7H");
  int i = hand_index(s, s->turn, c);
  if (i < 0)
    return pf_fail(err, "%s is not in the hand of seat %d, the passer (PIL-7)", pf_card_str(c, cs), s->turn);
  pf_rng_below(&s->rng, s->hand_len[s->turn]);
  take(s, i);
  canon[0] = '*';
  pf_card_str(c, canon + 1);
  return 0;
}

static void pil_move_str(const void *vs, pf_move m, char buf[PF_MOVE_STR]) {
  (void)vs;
  char c[PF_CARD_STR], p[3];
  if (m == MOVE_PASS) {
    pf_snprintf(buf, PF_MOVE_STR, "pass");
    return;
  }
  pos_str(MOVE_POS(m), p);
  pf_snprintf(buf, PF_MOVE_STR, "%s>%s", pf_card_str(MOVE_CARD(m), c), p);
}

/* Why card c may not go on pos (PIL-6). */
static int refuse_place(const pil_state *s, pf_card c, int pos, pf_error *err) {
  char cs[PF_CARD_STR], ts[PF_CARD_STR], ps[3];
  pf_card t = top_card(s, pos);
  pf_card_str(c, cs);
  pf_card_str(t, ts);
  pos_str(pos, ps);
  return pf_fail(err, "%s may not go on %s: its top %s is %s, and %s there would make the value "
                      "%d, not more than %d (PIL-6)",
                 cs, ps, ts, is_red(t) ? "red" : "black", cs, value_with(s, pos, c), value_with(s, pos, t));
}

static int pil_move_parse(const void *vs, const char *text, pf_move *m, pf_error *err) {
  const pil_state *s = vs;
  const char *p = text;
  while (*p == ' ' || *p == '\t') p++;
  if (strncasecmp(p, "pass", 4) == 0 && p[4 + strspn(p + 4, " \t")] == '\0') {
    *m = MOVE_PASS;
    return 0;
  }
  pf_card c;
  char cs[PF_CARD_STR];
  if (pf_card_scan(&p, &c) != 0 || !pf_card_is_standard(c))
    return pf_fail(err, "cannot read a card at the start; moves look like 7H>b2 or pass");
  pf_card_str(c, cs);
  if (hand_index(s, s->turn, c) < 0) return pf_fail(err, "%s is not in seat %d's hand", cs, s->turn);
  while (*p == ' ') p++;
  if (*p != '>') return pf_fail(err, "say where %s goes: %s>b2 (columns a-d, rows 1-3)", cs, cs);
  p++;
  while (*p == ' ') p++;
  char col = (char)(*p | 0x20), row = *p ? p[1] : '\0';
  if (col < 'a' || col > 'd' || row < '1' || row > '3')
    return pf_fail(err, "after '>' comes a castle pile: a1 to d3 (columns a-d, rows 1-3)");
  p += 2;
  while (*p == ' ') p++;
  if (*p) return pf_fail(err, "unexpected '%s' after the move", p);
  int pos = (row - '1') * 4 + (col - 'a');
  if (!may_place(s, c, pos)) return refuse_place(s, c, pos, err);
  *m = MOVE(c, pos);
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* The greedy bot's rule of thumb                                                             */
/* ------------------------------------------------------------------------------------------ */

/* What pile pos scores (PIL-9) for the team of colour `red` with card c on top (-1: as it is):
 * its cards of the other colour, if the top is of that team's colour. */
static inline int pile_points_for(const pil_state *s, int pos, bool red, int c) {
  pf_card top = c < 0 ? top_card(s, pos) : (pf_card)c;
  return is_red(top) == red ? s->points[pos][!red] : 0;
}

/* Win piles for your team: a placing is worth what it changes in both teams' castle points (a
 * pile your colour tops scores its cards of the other colour), then the pile's value, which the
 * other team must beat to cover it. Pass only when nothing is worth more than giving away a card:
 * the taker scores it if it is your colour. Before any card is placed, the card's colour is
 * taken as your team's (PIL-5). */
static void pil_rate_moves(const void *vs, const pf_move *moves, int n, int64_t *rating) {
  const pil_state *s = vs;
  int me = s->turn;
  /* value_with's neighbour bonus of a card of each colour on each pile, from the red tops:
   * bit pos of each shifted mask is set when pos's neighbour that way has a red top. */
  unsigned reds = s->reds;
  int bonus[2][NPOS];
  unsigned left = reds << 1 & 0xEEE, right = reds >> 1 & 0x777, up = reds << 4 & 0xFF0, down = reds >> 4 & 0x0FF;
  for (int pos = 0; pos < NPOS; pos++) {
    int around = (left >> pos & 1) + (right >> pos & 1) + (up >> pos & 1) + (down >> pos & 1);
    bonus[1][pos] = 2 * around - NEIGHBOURS[pos];
    bonus[0][pos] = -bonus[1][pos];
  }
  for (int i = 0; i < n; i++) {
    pf_move m = moves[i];
    bool red = s->red_team == NONE ? (m != MOVE_PASS && is_red(MOVE_CARD(m))) : red_team(s) == team_of(me);
    if (m == MOVE_PASS) {
      int lost = 0;
      for (int k = 0; k < s->hand_len[me]; k++) {
        pf_card c = s->card[s->hand[me][k]];
        if (is_red(c) == red) lost += card_points(c);
      }
      rating[i] = -16 * lost / (s->hand_len[me] ? s->hand_len[me] : 1) - 16;
      continue;
    }
    pf_card c = MOVE_CARD(m);
    int pos = MOVE_POS(m), mine = pile_points_for(s, pos, red, -1), theirs = pile_points_for(s, pos, !red, -1);
    /* c on top decides who collects the pile; c itself, of the collectors' colour, scores nothing. */
    int mine_after = pile_points_for(s, pos, red, c), theirs_after = pile_points_for(s, pos, !red, c);
    rating[i] = 16 * ((mine_after - mine) - (theirs_after - theirs)) + pf_card_rank(c) + bonus[is_red(c)][pos];
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Start, scores, deals                                                                       */
/* ------------------------------------------------------------------------------------------ */

/* PIL-2: 10 cards each, one at a time from the seat after the dealer (seat 3, G-2); the last 12
 * cards make the castle, row by row. */
static int pil_start(void *vs, const pf_setup *setup, pf_error *err) {
  pil_state *s = vs;
  memset(s, 0, sizeof *s);
  if (setup->ndeals > 1) return pf_fail(err, "a game of Piles uses one deal, but %d deals are given", setup->ndeals);
  pf_card deck[NCARDS];
  pf_deck_standard(deck, 1, 0);
  if (pf_deals_check(setup->deals, setup->ndeals, deck, NCARDS, err) != 0) return -1;
  pf_slots_load_deal(s->card, deck, NCARDS, setup->deals, setup->ndeals, 0, setup->seed);
  pf_rng_seed(&s->rng, setup->seed, PF_STREAM_CHANCE);
  int slot = 0;
  for (int j = 0; j < HAND; j++)
    for (int seat = 0; seat < NSEATS; seat++) s->hand[seat][s->hand_len[seat]++] = (uint8_t)slot++;
  for (int pos = 0; pos < NPOS; pos++) {
    s->below[slot] = NONE;
    s->points[pos][is_red(s->card[slot])] = (uint8_t)card_points(s->card[slot]);
    s->top[pos] = (uint8_t)slot++;
    s->size[pos] = 1;
  }
  castle_masks_all(s);
  s->red_team = NONE;
  return 0;
}

static int pil_to_move(const void *vs) {
  const pil_state *s = vs;
  return s->over ? PF_NOBODY : s->passing ? PF_CHANCE : s->turn;
}

/* Each seat has its team's score (PIL-9). During the game it counts the castle only: the cards
 * taken from passers are secret until the end (PIL-7). */
static void pil_scores(const void *vs, int *scores) {
  const pil_state *s = vs;
  int team[2] = {team_points(s, 0, s->over), team_points(s, 1, s->over)};
  for (int p = 0; p < NSEATS; p++) scores[p] = team[team_of(p)];
}

/* PIL-9: the higher team score wins; equal scores share the win (G-6). */
static int pil_winners(const void *vs, int *seats) {
  const pil_state *s = vs;
  int a = team_points(s, 0, true), b = team_points(s, 1, true), n = 0;
  for (int p = 0; p < NSEATS; p++)
    if (a == b || (a > b) == (team_of(p) == 0)) seats[n++] = p;
  return n;
}

static int pil_current_deal(const void *vs, pf_deal *out) {
  const pil_state *s = vs;
  if (out) out->ncards = NCARDS, memcpy(out->cards, s->card, sizeof s->card);
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Hidden information                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* Hidden from `seat`: the other hands and the cards taken that it may not know (PIL-7). */
static void pil_determinize(void *vs, int seat, pf_rng *rng) {
  pil_state *s = vs;
  uint8_t slots[NCARDS];
  pf_hands h = hands_of(s);
  int n = pf_slots_hidden(&h, seat, NCARDS, NCARDS, slots); /* no stock */
  for (int i = 0; i < s->ntakes; i++)
    if (!take_known(s, i, seat)) slots[n++] = s->take_slot[i];
  pf_slots_shuffle(s->card, slots, n, rng);
  pf_rng_seed(&s->rng, pf_rng_next(rng), PF_STREAM_CHANCE); /* future takes are unknown too */
}

static int pil_check(const void *vs, pf_error *err) {
  const pil_state *s = vs;
  int where[NCARDS] = {0}, placed = 0;
  for (int p = 0; p < NSEATS; p++) {
    /* Seat p has begun turns/4 turns, one more if it comes before the turn count's seat. */
    int begun = s->turns / NSEATS + (p < s->turns % NSEATS);
    int want = HAND - begun + (s->passing && p == s->turn);
    if (s->hand_len[p] != want) return pf_fail(err, "seat %d holds %d cards, not %d", p, s->hand_len[p], want);
    for (int i = 0; i < s->hand_len[p]; i++) where[s->hand[p][i]]++;
  }
  for (int pos = 0; pos < NPOS; pos++) {
    int n = 0;
    for (int slot = s->top[pos]; slot != NONE && n <= NCARDS; slot = s->below[slot], n++) where[slot]++;
    if (n != s->size[pos] || n == 0) return pf_fail(err, "castle pile %d: size %d but %d cards linked", pos, s->size[pos], n);
    placed += n - 1;
  }
  for (int i = 0; i < s->ntakes; i++) where[s->take_slot[i]]++;
  for (int k = 0; k < NCARDS; k++)
    if (where[k] != 1) return pf_fail(err, "card slot %d is in %d places", k, where[k]);
  if (pf_cards_are_decks(s->card, NCARDS, 1, 0, err) != 0) return -1;
  /* What apply keeps for the move generator and the scores, made anew from the cards. */
  for (int pos = 0; pos < NPOS; pos++) {
    int points[2] = {0, 0};
    for (int slot = s->top[pos]; slot != NONE; slot = s->below[slot])
      points[is_red(s->card[slot])] += card_points(s->card[slot]);
    if (points[0] != s->points[pos][0] || points[1] != s->points[pos][1])
      return pf_fail(err, "castle pile %d: its cards score %d black and %d red, not %d and %d", pos, points[0],
                     points[1], s->points[pos][0], s->points[pos][1]);
  }
  pil_state masks = *s;
  castle_masks_all(&masks);
  if (masks.beats != s->beats || masks.red_lanes != s->red_lanes || masks.reds != s->reds)
    return pf_fail(err, "the castle's masks of the tops (PIL-6) are not the tops'");
  if (placed + s->ntakes + s->passing != s->turns)
    return pf_fail(err, "%d turns but %d cards placed and %d taken", s->turns, placed, s->ntakes);
  if ((placed > 0) != (s->red_team != NONE)) return pf_fail(err, "team colours set wrongly (PIL-5)");
  int seat = (s->turns - s->passing) % NSEATS;
  if (!s->over && s->turn != seat) return pf_fail(err, "seat %d to move, not seat %d", s->turn, seat);
  if (s->over != (s->turns == TURNS && !s->passing)) return pf_fail(err, "over after %d turns", s->turns);
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Views                                                                                      */
/* ------------------------------------------------------------------------------------------ */

static const char *colour_name(bool red) { return red ? "red" : "black"; }

/* A castle pile's cards, bottom first, written as the elements of an open array. */
static void pile_cards_write(const pil_state *s, int pos, pf_jw *w) {
  uint8_t slots[NCARDS];
  int n = 0;
  for (int slot = s->top[pos]; slot != NONE; slot = s->below[slot]) slots[n++] = (uint8_t)slot;
  while (n > 0) pf_card_write(w, s->card[slots[--n]]);
}

static void castle_write(const pil_state *s, pf_jw *w) {
  pf_jw_open(w, '[');
  for (int pos = 0; pos < NPOS; pos++) {
    char ps[3];
    pos_str(pos, ps);
    pf_jw_open(w, '{');
    pf_jw_key_str(w, "pos", ps);
    pf_jw_key_int(w, "size", s->size[pos]);
    pf_jw_key(w, "top");
    pf_card_write(w, top_card(s, pos));
    pf_jw_key_str(w, "colour", colour_name(is_red(top_card(s, pos))));
    pf_jw_key_int(w, "value", pile_value(s, pos)); /* PIL-4 */
    pf_jw_key(w, "cards");
    pf_jw_open(w, '[');
    pile_cards_write(s, pos, w);
    pf_jw_close(w, ']');
    pf_jw_close(w, '}');
  }
  pf_jw_close(w, ']');
}

static void castle_id(int pos, char id[PF_ZONE_ID]) {
  char ps[3];
  pos_str(pos, ps);
  pf_snprintf(id, PF_ZONE_ID, "castle:%s", ps);
}

/* The zones (docs/views.md): the castle's piles in a grid (rows 1-3, columns a-d, PIL-2) with
 * their values (PIL-4), the hands, and the cards each seat took from passers (PIL-7), seen only
 * by the passer and the taker until the end. */
static void pil_zones(const pil_state *s, int seat, pf_jw *w) {
  for (int pos = 0; pos < NPOS; pos++) {
    char id[PF_ZONE_ID], ps[3];
    castle_id(pos, id);
    pos_str(pos, ps);
    pf_zone_open(w, id, "castle", -1, ps, PF_STACK);
    pile_cards_write(s, pos, w);
    pf_zone_write_grid(w, pos / 4, pos % 4);
    pf_zone_write_value(w, pile_value(s, pos), "value %lld");
    pf_zone_write_note(w, colour_name(is_red(top_card(s, pos))));
    pf_zone_close(w);
  }
  pf_hands h = hands_of(s);
  pf_hands_zones_write(w, s->card, &h, seat);
  for (int p = 0; p < NSEATS; p++) {
    char id[PF_ZONE_ID], label[32];
    pf_snprintf(id, sizeof id, "captures:%d", p);
    pf_snprintf(label, sizeof label, "Seat %d's takes", p);
    pf_zone_open(w, id, "captures", p, label, PF_FAN);
    for (int i = 0; i < s->ntakes; i++)
      if (taker_of(s->take_from[i]) == p) pf_card_write_seen(w, s->card[s->take_slot[i]], take_known(s, i, seat));
    pf_zone_close(w);
  }
}

/* ---- the end, in data and in words (view.h: pf_end_open) ---- */

/* PIL-9: what each team collected ("collected": "team" its seats, "colour", "piles" the castle
 * piles topped with its colour, "taken" the cards its seats took from passers, "points"). */
static void end_write(const pil_state *s, pf_jw *w) {
  pf_buf say = {0};
  pf_end_open(w);
  for (int team = 0; team < 2; team++) {
    bool red = red_team(s) == team;
    int npiles = 0, ntaken = 0, points = team_points(s, team, true);
    char ps[3];
    pf_end_event(w, "collected", "PIL-9");
    pf_jw_key(w, "team");
    pf_jw_open(w, '[');
    pf_jw_int(w, team);
    pf_jw_int(w, team + 2);
    pf_jw_close(w, ']');
    pf_jw_key_str(w, "colour", colour_name(red));
    pf_jw_key(w, "piles");
    pf_jw_open(w, '[');
    for (int pos = 0; pos < NPOS; pos++)
      if (is_red(top_card(s, pos)) == red) {
        pos_str(pos, ps);
        pf_jw_str(w, ps);
        npiles++;
      }
    pf_jw_close(w, ']');
    pf_jw_key(w, "taken");
    pf_jw_open(w, '[');
    for (int i = 0; i < s->ntakes; i++)
      if (team_of(taker_of(s->take_from[i])) == team) {
        pf_card_write(w, s->card[s->take_slot[i]]);
        ntaken++;
      }
    pf_jw_close(w, ']');
    pf_jw_key_int(w, "points", points);
    pf_buf_clear(&say);
    pf_buf_printf(&say, "The %s team, {%d} and {%d}, collected %d pile%s of the castle", colour_name(red), team, team + 2,
                  npiles, npiles == 1 ? "" : "s");
    if (ntaken) pf_buf_printf(&say, " and %d card%s taken from passers", ntaken, ntaken == 1 ? "" : "s");
    pf_buf_printf(&say, ": %d point%s for the %s cards among them.", points, points == 1 ? "" : "s", colour_name(!red));
    pf_end_say(w, pf_buf_str(&say));
  }
  pf_end_close(w);
  pf_buf_free(&say);
}

static void pil_view_write(const void *vs, int seat, pf_jw *w) {
  const pil_state *s = vs;
  pf_jw_key_int(w, "turns_played", s->turns - s->passing);
  pf_jw_key_int(w, "round", s->over ? HAND : (s->turns - s->passing) / NSEATS + 1);
  pf_jw_key(w, "castle");
  castle_write(s, w);
  pf_jw_key(w, "colours"); /* PIL-5: null until the first card is placed */
  if (s->red_team != NONE) {
    pf_jw_open(w, '[');
    for (int p = 0; p < NSEATS; p++) pf_jw_str(w, colour_name(team_of(p) == s->red_team));
    pf_jw_close(w, ']');
  } else {
    pf_jw_null(w);
  }
  pf_hands h = hands_of(s);
  pf_jw_key(w, "hands");
  pf_hands_write(w, s->card, &h, seat);
  if (s->passing) {
    pf_jw_key_int(w, "passer", s->turn);
  }
  pf_jw_key(w, "takes"); /* PIL-7: the card only for its passer and taker */
  pf_jw_open(w, '[');
  for (int i = 0; i < s->ntakes; i++) {
    pf_jw_open(w, '{');
    pf_jw_key_int(w, "from", s->take_from[i]);
    pf_jw_key_int(w, "by", taker_of(s->take_from[i]));
    if (take_known(s, i, seat)) {
      pf_jw_key(w, "card");
      pf_card_write(w, s->card[s->take_slot[i]]);
    }
    pf_jw_close(w, '}');
  }
  pf_jw_close(w, ']');
  if (s->over) end_write(s, w);
  pil_zones(s, seat, w);
}

static void put_card(pf_buf *out, pf_card c, const pf_style *st) {
  char b[32];
  pf_buf_puts(out, pf_card_render(c, st, b));
}

/* The width a rendered card takes on the screen ("10♥" is 3, every other card 2). */
static int card_width(pf_card c, const pf_style *st) {
  return st && st->unicode && pf_card_rank(c) == 10 ? 3 : 2;
}

static void put_colour(pf_buf *out, bool red, const pf_style *st) {
  if (st && st->color)
    pf_buf_printf(out, red ? "\x1b[31m%s\x1b[0m" : "%s", colour_name(red));
  else
    pf_buf_puts(out, colour_name(red));
}

#define CELL 13 /* the inner width of a castle cell */

static void grid_rule(pf_buf *out) {
  pf_buf_puts(out, "     +");
  for (int col = 0; col < 4; col++) pf_buf_printf(out, "%.*s+", CELL, "-------------");
  pf_buf_putc(out, '\n');
}

/* The castle as a 4x3 grid: each pile's top card and number of cards, its colour and value. */
static void castle_text(const pil_state *s, const pf_style *st, pf_buf *out) {
  pf_buf_puts(out, "Castle (each pile: top card, cards in it, colour and value, PIL-4):\n      ");
  for (int col = 0; col < 4; col++) pf_buf_printf(out, "%*c%*s", CELL / 2 + 1, 'a' + col, col < 3 ? CELL / 2 + 1 : 0, "");
  pf_buf_putc(out, '\n');
  grid_rule(out);
  for (int row = 0; row < 3; row++) {
    pf_buf_printf(out, "  %d  |", row + 1);
    for (int col = 0; col < 4; col++) {
      int pos = row * 4 + col;
      char n[16];
      pf_snprintf(n, sizeof n, "x%d", s->size[pos]);
      pf_buf_putc(out, ' ');
      put_card(out, top_card(s, pos), st);
      pf_buf_printf(out, "%*s |", CELL - 2 - card_width(top_card(s, pos), st), n);
    }
    pf_buf_puts(out, "\n     |");
    for (int col = 0; col < 4; col++) {
      int pos = row * 4 + col;
      bool red = is_red(top_card(s, pos));
      pf_buf_putc(out, ' ');
      put_colour(out, red, st);
      pf_buf_printf(out, "%*d |", CELL - 2 - (int)strlen(colour_name(red)), pile_value(s, pos));
    }
    pf_buf_putc(out, '\n');
    grid_rule(out);
  }
}

static void seat_name(int p, int seat, char *buf, size_t n) {
  if (p == seat)
    pf_snprintf(buf, n, "you");
  else
    pf_snprintf(buf, n, "seat %d", p);
}

static void takes_text(const pil_state *s, int seat, const pf_style *st, pf_buf *out) {
  if (!s->ntakes) return;
  pf_buf_puts(out, "Cards taken from passers (PIL-7):\n");
  for (int i = 0; i < s->ntakes; i++) {
    char by[16], from[16];
    seat_name(taker_of(s->take_from[i]), seat, by, sizeof by);
    seat_name(s->take_from[i], seat, from, sizeof from);
    pf_buf_printf(out, "  %s took ", by);
    if (take_known(s, i, seat))
      put_card(out, s->card[s->take_slot[i]], st);
    else
      pf_buf_puts(out, "a card");
    pf_buf_printf(out, " from %s\n", from);
  }
}

static void pil_view_text(const void *vs, int seat, const pf_style *st, pf_buf *out) {
  const pil_state *s = vs;
  int played = s->turns - s->passing;
  if (s->over)
    pf_buf_puts(out, "Piles: the game is over (PIL-8).\n");
  else
    pf_buf_printf(out, "Piles: turn %d of %d for each player (seat %d %s).\n", played / NSEATS + 1, HAND,
                  s->turn, s->passing ? "passed" : "to play");
  pf_buf_puts(out, "Teams: seats 0 & 2 against seats 1 & 3. Colours (PIL-5): ");
  if (s->red_team == NONE) {
    pf_buf_puts(out, "not set yet: the first card placed gives its team that colour.\n");
  } else {
    pf_buf_puts(out, "seats 0 & 2 ");
    put_colour(out, s->red_team == 0, st);
    pf_buf_puts(out, ", seats 1 & 3 ");
    put_colour(out, s->red_team == 1, st);
    pf_buf_puts(out, ".\n");
  }
  castle_text(s, st, out);
  pf_hands h = hands_of(s);
  if (!s->over) pf_hands_text(s->card, &h, seat, st, out);
  takes_text(s, seat, st, out);
  if (!s->over)
    pf_buf_puts(out, "Scores so far count the castle only; taken cards are added at the end (PIL-9).\n");
}

/* A card from the mover's hand onto a castle pile; a pass moves nothing the mover picks. */
static void pil_move_zones(const void *vs, pf_move m, pf_move_zones *z) {
  const pil_state *s = vs;
  if (m == MOVE_PASS) return;
  pf_snprintf(z->from, sizeof z->from, "hand:%d", s->turn);
  z->card = MOVE_CARD(m);
  castle_id(MOVE_POS(m), z->to);
}

/* "7♥ on b2 (over 9♠: value from 11 to 12)", or a pass: what a move does (all of it is public). */
static void pil_describe(const void *vs, pf_move m, int viewer, const pf_style *st, pf_buf *out) {
  const pil_state *s = vs;
  char ps[3];
  if (m == MOVE_PASS) {
    pf_buf_printf(out, "pass: seat %d takes a card at random from %s hand", taker_of(s->turn),
                  viewer == s->turn ? "your" : "their");
    return;
  }
  int pos = MOVE_POS(m);
  pos_str(pos, ps);
  put_card(out, MOVE_CARD(m), st);
  pf_buf_printf(out, " on %s (over ", ps);
  put_card(out, top_card(s, pos), st);
  pf_buf_printf(out, ": value from %d to %d)", pile_value(s, pos), value_with(s, pos, MOVE_CARD(m)));
}

/* PIL-7: the card taken is told to the passer and the taker only. */
static void pil_describe_chance(const void *vs, const char *outcome, int viewer, const pf_style *st,
                                pf_buf *out) {
  const pil_state *s = vs;
  int from = s->turn, by = taker_of(from);
  pf_card c;
  bool known = pf_view_sees_own(viewer, from) || pf_view_sees_own(viewer, by);
  if (viewer == by)
    pf_buf_puts(out, "you take ");
  else
    pf_buf_printf(out, "seat %d takes ", by);
  if (known && pf_card_parse(outcome + 1, &c) == 0)
    put_card(out, c, st);
  else
    pf_buf_puts(out, "a card");
  if (viewer == from)
    pf_buf_puts(out, " from your hand");
  else
    pf_buf_printf(out, " from seat %d's hand", from);
}

/* ------------------------------------------------------------------------------------------ */
/* The description                                                                            */
/* ------------------------------------------------------------------------------------------ */


/* How pilfer bench and scripts/strength exercise the game, and the lobby's copy (core/measure.h). */
static const pf_measures MEASURES = {
    .playouts = {{4, 50000}},
    .searches = {{4, 5000, 2, {0, 12, 24}}},
    .sims = {{4, 8, "ismcts:iters=300 greedy ismcts:iters=300 greedy"}},
    .strength = {{4, 2000, "ismcts greedy ismcts greedy"}, {4, 2000, "greedy random greedy random"}},
    .quick_players = 4,
    .description = "A game for 4 players in two teams; the first card placed gives its team its colour, red or "
    "black. In turn you lay a card on one of the 12 piles of the castle in the middle: on a pile "
    "of your colour always, on the other "
    "colour only if the pile's value goes up. Or pass, and the next player takes a card from your "
    "hand for their team. At the end each team collects the piles topped by its colour and scores "
    "the other colour's cards among them.",
    .length_players = 4,
    .length_moves = 41,
};

/* ------------------------------------------------------------------------------------------ */
/* For learning: dense actions, chance outcomes and the length bound (docs/actions.md)         */
/* ------------------------------------------------------------------------------------------ */

/* A move places card c (0..51) on castle position pos (0..11, PIL-6): dense action c * 12 + pos;
 * passing (PIL-7) is the last, 624. */
#define ACTIONS (NCARDS * NPOS + 1)

static int pil_action_count(int players, const pf_options *options) {
  (void)players, (void)options;
  return ACTIONS;
}

static int pil_action_index(const void *vs, pf_move m) {
  (void)vs;
  if (m == MOVE_PASS) return ACTIONS - 1;
  return MOVE_CARD(m) < NCARDS && MOVE_POS(m) < NPOS ? MOVE_CARD(m) * NPOS + MOVE_POS(m) : -1;
}

static pf_move pil_action_move(const void *vs, int a) {
  (void)vs;
  if (a == ACTIONS - 1) return MOVE_PASS;
  return a >= 0 && a < ACTIONS - 1 ? MOVE(a / NPOS, a % NPOS) : PF_NO_MOVE;
}

/* PIL-7: the taker draws one of the passer's cards, each as likely as the others (chance_sample's
 * pf_rng_below is exactly uniform): every card of the hand, its id its code (below 52). */
static int pil_chance_outcomes(const void *vs, pf_chance_outcome *out) {
  const pil_state *s = vs;
  int n = s->passing ? s->hand_len[s->turn] : 0;
  for (int i = 0; i < n; i++) {
    pf_card c = s->card[s->hand[s->turn][i]];
    out[i].text[0] = '*';
    pf_card_str(c, out[i].text + 1);
    out[i].id = c;
    out[i].p = 1.0 / n;
  }
  return n;
}

/* PIL-8: 10 turns a player, each removing one card from the hand (PIL-6, PIL-7); a turn is one
 * move, and a pass one more step, the take (PIL-7): at most 2 x 40 steps. */
static long pil_max_length(int players, const pf_options *options) {
  (void)players, (void)options;
  return 2 * TURNS;
}

/* Design metrics (`pilfer analyze`): passes (PIL-7) and cards placed on the castle. */
static const char *const EVENTS[] = {"passes", "placements", NULL};

static void pil_count_events(const void *before, const void *after, pf_move m, long long *counts) {
  (void)before, (void)after;
  if (m == MOVE_PASS)
    counts[0]++;
  else if (m != PF_MOVE_CHANCE)
    counts[1]++;
}

const pf_game pf_game_piles = {
    .id = "piles",
    .title = "Piles",
    .min_players = 4,
    .max_players = 4,
    .options = NULL,
    .noptions = 0,
    .state_size = sizeof(pil_state),
    .move_bound = 1u << 16 /* card | position << 8; pass 0xFFFF */,
    .rules = pf_rules_piles,
    .measures = &MEASURES,
    .start = pil_start,
    .to_move = pil_to_move,
    .legal = pil_legal,
    .random_move = pil_random_move,
    .apply = pil_apply,
    .move_str = pil_move_str,
    .move_parse = pil_move_parse,
    .scores = pil_scores,
    .winners = pil_winners,
    .view_write = pil_view_write,
    .view_text = pil_view_text,
    .determinize = pil_determinize,
    .check = pil_check,
    .current_deal = pil_current_deal,
    .chance_sample = pil_chance_sample,
    .chance_apply = pil_chance_apply,
    .describe = pil_describe,
    .describe_chance = pil_describe_chance,
    .rate_moves = pil_rate_moves,
    .move_zones = pil_move_zones,
    .events = EVENTS,
    .count_events = pil_count_events,
    .action_count = pil_action_count,
    .action_index = pil_action_index,
    .action_move = pil_action_move,
    .chance_outcomes = pil_chance_outcomes,
    .max_length = pil_max_length,
};
