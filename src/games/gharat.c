/*
 * gharat.c - Ghârat (RULINGS GHA-1 .. GHA-6), 2 to 4 players, one 52-card deck.
 *
 * The state keeps the hand's deck order in card[]: slot i is the i-th card from the top. A card
 * on the table is named by its slot: on the play pile, in a capture pile, or still in the stock
 * (slots from next_slot on). Piles are arrays of slots, bottom first, so that taking the run of
 * equal ranks on top of a pile (GHA-3) is one copy. A hand holds its cards themselves, four bytes
 * read as one word, and slot_of gives a card's slot when it is played.
 *
 * What the moves are made of is kept as apply goes, for random_move above all (random playouts
 * and the ismcts's): the rank of each pile's top card as the bytes of one word, how many tops
 * have each rank, and each pile's points.
 *
 * Hidden information (GHA-2): the cards beneath the play pile's top that nobody has seen yet. A
 * slot's bit in `seen` is set once the card has been face up on the table (played onto the play
 * pile, uncovered as its top, or captured); a seat's view shows a play-pile card only when it is
 * seen, and determinize resamples the unseen ones with the other hands and the stock.
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
PF_RULES_TEXT(pf_rules_gharat);

/* ------------------------------------------------------------------------------------------ */
/* State                                                                                      */
/* ------------------------------------------------------------------------------------------ */

#define NCARDS 52
#define MAXP 4
#define PLAY MAXP /* the play pile's index among the piles, after the capture piles */
#define NPILES (MAXP + 1)
#define HAND 4    /* cards dealt to each player at a time (GHA-2, GHA-4) */
#define START 4   /* cards of the play pile at the start of a hand (GHA-2) */

/* Move codes: the card played in bits 0-7, the target in bits 8-15. */
#define T_PLAY 0               /* no match: onto the play pile */
#define T_PP 0x40              /* take from the play pile */
#define T_PILE(p) (0x80 | (p)) /* take from seat p's capture pile (one's own: add to it) */
#define MOVE(card, target) ((pf_move)(card) | ((pf_move)(target) << 8))
#define MOVE_CARD(m) ((pf_card)((m)&0xFF))
#define MOVE_TARGET(m) ((int)(((m) >> 8) & 0xFF))

typedef struct gha_state {
  /* First, before the cards: what gha_count_events reads of the position before a move (turn;
   * events_before). */
  uint8_t players, teams, next_slot, dealer, turn, over;
  uint8_t stop; /* stop_at_deal_end: a hand's end that is not the match's sets over, deals nothing */
  pf_card card[NCARDS];          /* the card of each slot */
  uint8_t pile[NPILES][NCARDS];  /* slots of each pile, bottom first */
  uint8_t size[NPILES];
  uint8_t slot_of[NCARDS];       /* the slot of each card (by code) */
  uint8_t hand[MAXP][HAND];      /* the cards of each hand in the order dealt: a word a hand */
  uint8_t hand_len[MAXP];
  uint64_t seen; /* slots everyone has seen face up on the table (GHA-2) */
  uint64_t tops; /* the rank of each pile's top card, one byte each in the order moves_of_card
                  * tries them: the play pile (byte 0), then seat q's (byte q + 1); 0xFF for an
                  * empty pile and the bytes of no pile. Kept by set_top for random_move. */
  uint64_t top_count; /* nibble r (r = rank_of, 0..12): how many bytes of tops are r, so the 4r bits
                       * up are a card's count of matches (4r being the card's code & ~3); the
                       * nibbles above 12 are scratch. Kept by note_top with tops. */
  int16_t points[NPILES]; /* each pile's points (GHA-5; the play pile's count for nobody), kept by
                           * apply (and by determinize, which changes the play pile's unseen cards) */
  int32_t target, hand_no, ndeals_given;
  int32_t total[MAXP];       /* GHA-6: each seat's points of the hands finished */
  int32_t last_points[MAXP]; /* each seat's points in the last hand finished (for the view) */
  uint64_t seed;
  const pf_deal *given; /* explicit deals (owned by the caller, see pf_setup) */
} gha_state;

enum { OPT_TARGET, OPT_TEAMS };

static const pf_option_desc OPTIONS[] = {
    [OPT_TARGET] = {"target", PF_OPT_INT, 1000, 0, 3000,
                    "match (GHA-6): play hands until a total reaches this; 0 = one hand", "Match to a total of"},
    [OPT_TEAMS] = {"teams", PF_OPT_BOOL, 0, 0, 1,
                   "4 players only (GHA-1): seats 0 and 2 against 1 and 3, scores added up", "Teams"},
};

/* The hands as slots (views, determinize), written to slots. */
static inline pf_hands hands_of(const gha_state *s, uint8_t slots[MAXP * HAND]) {
  for (int p = 0; p < s->players; p++)
    for (int i = 0; i < s->hand_len[p]; i++) slots[p * HAND + i] = s->slot_of[s->hand[p][i]];
  return (pf_hands){slots, HAND, s->hand_len, s->players};
}

static inline uint64_t bit(int slot) { return (uint64_t)1 << slot; }
static inline int rank_of(const gha_state *s, int slot) { return s->card[slot] >> 2; }
static inline int top_slot(const gha_state *s, int q) { return s->pile[q][s->size[q] - 1]; }
/* The sides that score: teams (GHA-1) or every seat. */
static inline int side_of(const gha_state *s, int p) { return s->teams ? p % 2 : p; }
static inline int nsides(const gha_state *s) { return s->teams ? 2 : s->players; }

/* GHA-5: 2-10 score 5, J Q K 10, A 20; by rank_of (the ace 0). */
static const uint8_t RANK_POINTS[13] = {20, 5, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10};
static inline int card_points(pf_card c) { return RANK_POINTS[c >> 2]; }

/* Pile q's points counted card by card (check() compares them with the points kept). */
static int pile_points(const gha_state *s, int q) {
  int n = 0;
  for (int i = 0; i < s->size[q]; i++) n += card_points(s->card[s->pile[q][i]]);
  return n;
}

/* Notes pile q's top rank in tops: `rank`, or 0xFF for none. */
static inline void note_top(gha_state *s, int q, int rank) {
  int shift = 8 * (q == PLAY ? 0 : q + 1), old = (int)(s->tops >> shift & 0xFF);
  s->tops = (s->tops & ~((uint64_t)0xFF << shift)) | (uint64_t)rank << shift;
  /* No pile (0xFF) counts in nibble 15, the top one, where a count below 0 borrows from nothing. */
  s->top_count += ((uint64_t)1 << 4 * (rank & 15)) - ((uint64_t)1 << 4 * (old & 15));
}
static inline void set_top(gha_state *s, int q) { note_top(s, q, s->size[q] ? rank_of(s, top_slot(s, q)) : 0xFF); }

/* The length of the run of equal ranks on top of pile q (GHA-3). */
static int top_run(const gha_state *s, int q) {
  int n = 1, r = rank_of(s, top_slot(s, q));
  while (n < s->size[q] && rank_of(s, s->pile[q][s->size[q] - 1 - n]) == r) n++;
  return n;
}

/* ------------------------------------------------------------------------------------------ */
/* Dealing and the flow of hands                                                              */
/* ------------------------------------------------------------------------------------------ */

static void load_deal(gha_state *s) {
  pf_card deck[NCARDS];
  pf_deck_standard(deck, 1, 0);
  pf_slots_load_deal(s->card, deck, NCARDS, s->given, s->ndeals_given, s->hand_no, s->seed);
}

/* GHA-2, GHA-4: four cards each, one at a time from the seat after the dealer (into empty hands):
 * the j-th seat after the dealer gets the j-th card and every players-th one after it. */
static void deal_hands(gha_state *s) {
  const pf_card *next = &s->card[s->next_slot];
  int n = s->players;
  for (int j = 0, seat = s->dealer; j < n; j++) {
    seat = seat + 1 == n ? 0 : seat + 1;
    uint32_t h = next[j] | next[j + n] << 8 | (uint32_t)next[j + 2 * n] << 16 | (uint32_t)next[j + 3 * n] << 24;
    memcpy(s->hand[seat], &h, HAND);
    s->hand_len[seat] = HAND;
  }
  s->next_slot = (uint8_t)(s->next_slot + HAND * n);
}

/* GHA-2: the first 4 cards are the play pile, the 4th on top and the only one seen. */
static void start_hand(gha_state *s) {
  memset(s->size, 0, sizeof s->size);
  memset(s->points, 0, sizeof s->points);
  memset(s->hand_len, 0, sizeof s->hand_len);
  load_deal(s);
  for (int k = 0; k < NCARDS; k++) s->slot_of[s->card[k]] = (uint8_t)k;
  for (int i = 0; i < START; i++) s->pile[PLAY][i] = (uint8_t)i;
  s->size[PLAY] = START;
  s->points[PLAY] = (int16_t)pile_points(s, PLAY);
  s->tops = ~(uint64_t)0;
  s->top_count = 0;
  set_top(s, PLAY);
  s->seen = bit(START - 1);
  s->next_slot = START;
  deal_hands(s);
  s->turn = (uint8_t)((s->dealer + 1) % s->players);
}

/* GHA-6: the match ends after a hand in which some total reaches the target, with one highest
 * total (of a team, with teams). */
static bool match_over(const gha_state *s) {
  if (s->target == 0) return true;
  int32_t side[MAXP] = {0}, best = -1;
  int nbest = 0;
  for (int p = 0; p < s->players; p++) side[side_of(s, p)] += s->total[p];
  for (int i = 0; i < nsides(s); i++) {
    if (side[i] > best) best = side[i], nbest = 0;
    if (side[i] == best) nbest++;
  }
  return best >= s->target && nbest == 1;
}

/* GHA-4: the hand ends when the stock is empty and so is every hand; the play pile counts for
 * nobody. The next hand is a new deal, dealt by the next seat (GHA-6, G-2). */
static void end_hand(gha_state *s) {
  for (int p = 0; p < s->players; p++) {
    s->last_points[p] = s->points[p];
    s->total[p] += s->last_points[p];
  }
  if (match_over(s)) {
    s->over = 1;
    return;
  }
  s->hand_no++;
  s->dealer = (uint8_t)((s->dealer + 1) % s->players);
  if (s->stop) { /* play stops here (stop_at_deal_end): the totals hold the hand's points */
    s->over = 1;
    return;
  }
  start_hand(s);
}

static void next_turn(gha_state *s) {
  s->turn = (uint8_t)(s->turn + 1 == s->players ? 0 : s->turn + 1);
  if (s->hand_len[s->turn] > 0) return; /* every seat plays in turn, so all hands empty at once */
  if (s->next_slot < NCARDS)
    deal_hands(s); /* the hand's dealer deals again; play goes on in turn */
  else
    end_hand(s);
}

/* ------------------------------------------------------------------------------------------ */
/* Moves                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* The piles whose top has this rank: 1 in each such byte of tops (byte j: the play pile, 0, or
 * seat j - 1's pile), found without a loop or a branch. */
static inline uint64_t rank_bytes(uint64_t tops, int rank) {
  const uint64_t ones = 0x0101010101010101u, low7 = 0x7F7F7F7F7F7F7F7Fu;
  uint64_t x = tops ^ (ones * (uint64_t)rank);
  return ~(((x & low7) + low7) | x | low7) >> 7;
}

/* The target of a match in byte j of rank_bytes (the lowest set bit j * 8 of it); byte 7, which
 * no pile has, stands for none: onto the play pile. */
static const uint8_t TARGET[8] = {T_PP, T_PILE(0), T_PILE(1), T_PILE(2), T_PILE(3), T_PLAY, T_PLAY, T_PLAY};
static inline int target_of(uint64_t match) { return TARGET[__builtin_ctzll(match | (uint64_t)1 << 63) / 8]; }

/* The moves of playing card c: one per matching target (play pile first, then the capture piles
 * in seat order), or onto the play pile when nothing matches (GHA-3). */
static int moves_of_card(const gha_state *s, pf_card c, pf_move *out) {
  uint64_t m = rank_bytes(s->tops, c >> 2);
  int n = 0;
  do
    out[n++] = MOVE(c, target_of(m));
  while (m &= m - 1);
  return n;
}

static int gha_legal(const void *vs, pf_move *out) {
  const gha_state *s = vs;
  int n = 0;
  for (int i = 0; i < s->hand_len[s->turn]; i++)
    n += moves_of_card(s, s->hand[s->turn][i], out + n);
  return n;
}

/* The move gha_legal would list at index pf_rng_below(rng, n) (game.h's random_move): its card,
 * returned, the card's index in the hand into *at and its match's byte of tops into *j (7 for
 * none; TARGET[*j] is the move's target), for play_card; a card's moves counted from top_count,
 * the draw's card and its match found without a branch. */
static inline pf_card random_pick(const gha_state *s, pf_rng *rng, int *count, int *at, int *j) {
  const uint8_t *hand = s->hand[s->turn];
  uint64_t tc = s->top_count;
  int len = s->hand_len[s->turn];
  /* Each card's moves: its matches, or 1 (onto the play pile); ui: the moves of cards 0..i. */
  int k0 = (int)(tc >> (hand[0] & ~3) & 15), k1 = (int)(tc >> (hand[1] & ~3) & 15);
  int k2 = (int)(tc >> (hand[2] & ~3) & 15), k3 = (int)(tc >> (hand[3] & ~3) & 15);
  int u0 = k0 + !k0, u1 = u0 + (len > 1 ? k1 + !k1 : 0);
  int u2 = u1 + (len > 2 ? k2 + !k2 : 0), u3 = u2 + (len > 3 ? k3 + !k3 : 0);
  *count = u3;
  int r = (int)pf_rng_below(rng, (uint32_t)u3);
  /* The card drawn, and the moves of the cards before it, without a branch (no draw is likelier). */
  int before = r >= u0 ? u0 : 0;
  before = r >= u1 ? u1 : before;
  before = r >= u2 ? u2 : before;
  *at = (r >= u0) + (r >= u1) + (r >= u2);
  pf_card c = hand[*at];
  r -= before;
  /* Its r-th match: a card's rank matches at most 3 tops, the 4th card of the rank being itself. */
  uint64_t m = rank_bytes(s->tops, c >> 2);
  m = r >= 1 ? m & (m - 1) : m;
  m = r >= 2 ? m & (m - 1) : m;
  *j = __builtin_ctzll(m | (uint64_t)1 << 63) / 8; /* its byte of tops, 7 for none */
  return c;
}

static inline pf_move random_move(const gha_state *s, pf_rng *rng, int *count) {
  int at, j;
  pf_card c = random_pick(s, rng, count, &at, &j);
  return MOVE(c, TARGET[j]);
}

static inline int target_pile(int target) { return target == T_PP ? PLAY : target & 0x7F; }

/* GHA-3: the matching top card and every card of its rank directly beneath it go onto the
 * taker's capture pile, in their order; the card then under them is uncovered. */
static void take_run(gha_state *s, int taker, int from) {
  int k = top_run(s, from);
  uint8_t *src = &s->pile[from][s->size[from] - k], *dst = &s->pile[taker][s->size[taker]];
  for (int i = 0; i < k; i++) { /* a few bytes (a run of one rank): no memcpy call */
    s->seen |= bit(src[i]);
    dst[i] = src[i];
  }
  s->size[taker] = (uint8_t)(s->size[taker] + k);
  s->size[from] = (uint8_t)(s->size[from] - k);
  int points = k * RANK_POINTS[s->tops >> 8 * (from == PLAY ? 0 : from + 1) & 0xFF]; /* one rank */
  s->points[taker] = (int16_t)(s->points[taker] + points);
  s->points[from] = (int16_t)(s->points[from] - points);
  if (from == PLAY && s->size[PLAY]) s->seen |= bit(top_slot(s, PLAY)); /* uncovered (GHA-2) */
  set_top(s, from);
}

/* Card c, at index i of the hand, played onto the pile of byte j of tops (random_pick's: the play
 * pile 0, seat q's q + 1, none 7), without decoding a move's target on the playout's path. */
static inline void play_card(gha_state *s, pf_card c, int i, int j) {
  int p = s->turn;
  /* The hand as one word: card i's byte is taken out, the later ones one down. */
  uint32_t h;
  memcpy(&h, s->hand[p], HAND);
  uint32_t low = ((uint32_t)1 << 8 * i) - 1;
  h = (h & low) | ((h >> 8) & ~low);
  memcpy(s->hand[p], &h, HAND);
  s->hand_len[p]--;
  uint8_t slot = s->slot_of[c];
  int to = PLAY;
  if (j != 7) { /* a match (GHA-3): the run taken onto one's own pile, or the card added to it */
    int from = j ? j - 1 : PLAY;
    to = p;
    if (from != p) take_run(s, p, from);
  }
  s->pile[to][s->size[to]++] = slot;
  s->seen |= bit(slot);
  s->points[to] = (int16_t)(s->points[to] + card_points(c));
  note_top(s, to, c >> 2);
  next_turn(s);
}

/* Move m, whose card is at index i of the hand. */
static inline void play_at(gha_state *s, pf_move m, int i) {
  int target = MOVE_TARGET(m);
  play_card(s, MOVE_CARD(m), i, target == T_PLAY ? 7 : target == T_PP ? 0 : (target & 0x7F) + 1);
}

static inline void play(gha_state *s, pf_move m) {
  /* The card is the hand word's first byte equal to it (the bytes past the hand come after it),
   * found without a loop. */
  uint32_t h, x;
  memcpy(&h, s->hand[s->turn], HAND);
  x = h ^ 0x01010101u * MOVE_CARD(m);
  play_at(s, m, __builtin_ctz(((x - 0x01010101u) & ~x & 0x80808080u) | 0x80000000u) / 8);
}

static pf_move gha_random_move(const void *vs, pf_rng *rng, int *count) { return random_move(vs, rng, count); }
static void gha_apply(void *vs, pf_move m) { play(vs, m); }

/* pf_random_playout's loop (game.h: random_playout) with random_move and apply inline, not three
 * calls through the methods a move, and the generator's state in a local. */
static long gha_random_playout(void *vs, pf_rng *rng, long *branching) {
  gha_state *s = vs;
  pf_rng x = *rng;
  long n = 0, b = 0;
  for (int k, at, j; !s->over; n++) {
    pf_card c = random_pick(s, &x, &k, &at, &j);
    b += k;
    play_card(s, c, at, j);
  }
  *rng = x;
  *branching += b;
  return n;
}

static void target_str(int target, char *buf) {
  if (target == T_PP)
    strcpy(buf, "pp");
  else
    sprintf(buf, "p%d", target & 0x7F);
}

static void gha_move_str(const void *vs, pf_move m, char buf[PF_MOVE_STR]) {
  (void)vs;
  char c[PF_CARD_STR], t[PF_CARD_STR];
  pf_card_str(MOVE_CARD(m), c);
  if (MOVE_TARGET(m) == T_PLAY) {
    pf_snprintf(buf, PF_MOVE_STR, "%s", c);
  } else {
    target_str(MOVE_TARGET(m), t);
    pf_snprintf(buf, PF_MOVE_STR, "%s>%s", c, t);
  }
}

/* The matching targets of a card as text ("pp, p1"). */
static void matches_text(const gha_state *s, pf_card c, char *buf, size_t n) {
  pf_move ms[NPILES];
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

/* Reads the target after '>': "pp" or "p<seat>"; writes it and a name for messages. */
static int parse_target(const gha_state *s, const char **pp, int *target, char *what, size_t n,
                        pf_error *err) {
  const char *p = *pp;
  if (strncasecmp(p, "pp", 2) == 0) {
    p += 2;
    *target = T_PP;
    pf_snprintf(what, n, "the play pile");
  } else if ((p[0] == 'p' || p[0] == 'P') && p[1] >= '0' && p[1] <= '9') {
    int seat = 0;
    p++;
    while (*p >= '0' && *p <= '9' && seat < 100) seat = seat * 10 + (*p++ - '0');
    if (seat >= s->players) return pf_fail(err, "there is no seat %d", seat);
    *target = T_PILE(seat);
    pf_snprintf(what, n, "seat %d's capture pile", seat);
  } else {
    return pf_fail(err, "after '>' comes pp (the play pile) or p<seat> (a capture pile)");
  }
  *pp = p;
  return 0;
}

static int gha_move_parse(const void *vs, const char *text, pf_move *m, pf_error *err) {
  const gha_state *s = vs;
  const char *p = text;
  while (*p == ' ' || *p == '\t') p++;
  pf_card c;
  char cs[PF_CARD_STR], what[40] = "";
  if (pf_card_scan(&p, &c) != 0 || !pf_card_is_standard(c))
    return pf_fail(err, "cannot read a card at the start; moves look like 7H, 7H>pp, 7H>p1");
  pf_card_str(c, cs);
  bool in_hand = false;
  for (int i = 0; i < s->hand_len[s->turn]; i++) in_hand |= s->hand[s->turn][i] == c;
  if (!in_hand) return pf_fail(err, "%s is not in seat %d's hand", cs, s->turn);
  int target = T_PLAY;
  while (*p == ' ') p++;
  if (*p == '>') {
    p++;
    while (*p == ' ') p++;
    if (parse_target(s, &p, &target, what, sizeof what, err) != 0) return -1;
  }
  while (*p == ' ') p++;
  if (*p) return pf_fail(err, "unexpected '%s' after the move", p);
  pf_move ms[NPILES];
  int n = moves_of_card(s, c, ms);
  for (int i = 0; i < n; i++)
    if (MOVE_TARGET(ms[i]) == target) {
      *m = ms[i];
      return 0;
    }
  char list[64], first[PF_CARD_STR];
  matches_text(s, c, list, sizeof list);
  if (target == T_PLAY) {
    target_str(MOVE_TARGET(ms[0]), first);
    return pf_fail(err, "%s matches %s: a matching target must be taken (GHA-3), e.g. %s>%s", cs,
                   list, cs, first);
  }
  if (!s->size[target_pile(target)]) return pf_fail(err, "%s is empty", what);
  if (MOVE_TARGET(ms[0]) != T_PLAY)
    return pf_fail(err, "%s does not match %s (only equal ranks match); it matches %s", what, cs,
                   list);
  return pf_fail(err, "%s does not match %s (only equal ranks match); %s matches nothing, so it "
                      "goes onto the play pile: %s",
                 what, cs, cs, cs);
}

/* ------------------------------------------------------------------------------------------ */
/* The greedy bot's rule of thumb                                                             */
/* ------------------------------------------------------------------------------------------ */

/* Take the most points, above all from an opponent, and leave little to take back: a move is
 * worth the points it wins (twice those taken from an opponent's pile, which it loses; nothing
 * for a partner's), less the run it leaves on top of your pile (or the card on the play pile)
 * times how likely the others hold its rank, among the cards this seat has not seen. */
static void gha_rate_moves(const void *vs, const pf_move *moves, int n, int64_t *rating) {
  const gha_state *s = vs;
  int me = s->turn, others = 0;
  /* The codes of the cards this seat has seen: its hand, and every slot seen face up (those are
   * all on the piles, where a card stays once there); a rank's are 4 bits of it. */
  static const uint8_t BITS[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
  uint64_t known = 0;
  int unseen = NCARDS - s->hand_len[me];
  for (int i = 0; i < s->hand_len[me]; i++) known |= bit(s->hand[me][i]);
  for (uint64_t m = s->seen; m; m &= m - 1, unseen--) known |= bit(s->card[__builtin_ctzll(m)]);
  for (int p = 0; p < s->players; p++)
    if (p != me) others += s->hand_len[p];
  for (int i = 0; i < n; i++) {
    pf_card c = MOVE_CARD(moves[i]);
    int target = MOVE_TARGET(moves[i]), rank = c >> 2, pts = card_points(c);
    int64_t gain = 0, stake = pts; /* onto the play pile: the card, for whoever matches it */
    if (target != T_PLAY) {
      int q = target_pile(target), run = 0;
      for (int k = 0; q != me && k < top_run(s, q); k++) run += card_points(s->card[s->pile[q][s->size[q] - 1 - k]]);
      bool partner = q != PLAY && side_of(s, q) == side_of(s, me);
      gain = pts + (partner ? 0 : q == PLAY ? run : 2 * run);
      /* Your pile's top run afterwards: what was there of this rank, what you took, and c. */
      int own = 0;
      for (int k = 0; s->size[me] && k < top_run(s, me) && rank_of(s, top_slot(s, me)) == rank; k++)
        own += card_points(s->card[s->pile[me][s->size[me] - 1 - k]]);
      stake = 2 * (own + (q == me ? 0 : run) + pts);
    }
    int64_t risk = unseen > 0 ? 1000 * (int64_t)(4 - BITS[known >> 4 * rank & 15]) * others / unseen : 0;
    rating[i] = 1000 * gain - stake * (risk < 1000 ? risk : 1000);
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Start, scores, deals                                                                       */
/* ------------------------------------------------------------------------------------------ */

static int gha_start(void *vs, const pf_setup *setup, pf_error *err) {
  gha_state *s = vs;
  int n = setup->players;
  memset(s, 0, sizeof *s);
  s->players = (uint8_t)n;
  s->target = (int32_t)setup->options.v[OPT_TARGET];
  s->teams = (uint8_t)setup->options.v[OPT_TEAMS];
  s->seed = setup->seed;
  s->given = setup->deals;
  s->ndeals_given = setup->ndeals;
  s->dealer = (uint8_t)(n - 1); /* G-2 */
  if (s->teams && n != 4)
    return pf_fail(err, "option teams (GHA-1) is for 4 players only, not %d", n);
  if (s->target == 0 && setup->ndeals > 1)
    return pf_fail(err, "one hand (target 0) uses one deal, but %d deals are given", setup->ndeals);
  pf_card deck[NCARDS];
  pf_deck_standard(deck, 1, 0);
  if (pf_deals_check(setup->deals, setup->ndeals, deck, NCARDS, err) != 0) return -1;
  start_hand(s);
  return 0;
}

static int gha_to_move(const void *vs) {
  const gha_state *s = vs;
  return s->over ? PF_NOBODY : s->turn;
}

/* GHA-5, GHA-6: the totals of the hands finished plus the points captured in this hand (its
 * points alone with target 0); with teams (GHA-1), each seat has its team's score. */
static void gha_scores(const void *vs, int *scores) {
  const gha_state *s = vs;
  int own[MAXP] = {0};
  for (int p = 0; p < s->players; p++)
    own[p] = s->target ? s->total[p] + (s->over ? 0 : s->points[p]) : s->points[p];
  for (int p = 0; p < s->players; p++) scores[p] = s->teams ? own[p] + own[(p + 2) % 4] : own[p];
}

static int gha_winners(const void *vs, int *seats) {
  int scores[MAXP], best = -1, n = 0;
  const gha_state *s = vs;
  gha_scores(s, scores);
  for (int p = 0; p < s->players; p++)
    if (scores[p] > best) best = scores[p];
  for (int p = 0; p < s->players; p++)
    if (scores[p] == best) seats[n++] = p; /* G-6 */
  return n;
}

static void gha_stop_at_deal_end(void *vs) { ((gha_state *)vs)->stop = 1; }

static int gha_current_deal(const void *vs, pf_deal *out) {
  const gha_state *s = vs;
  if (out) out->ncards = NCARDS, memcpy(out->cards, s->card, sizeof s->card);
  return s->hand_no;
}

/* ------------------------------------------------------------------------------------------ */
/* Hidden information                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* Hidden from `seat`: the other hands, the stock, and the play pile's unseen cards (GHA-2). They
 * are resampled as pf_slots_shuffle does (sorted by code, then shuffled); the deck has each card
 * once, so the sorted order is the bits of a mask of their codes. The hidden slots are listed as
 * pf_slots_hidden lists them (the other hands seat by seat, then the stock), then the play pile's
 * unseen ones bottom first: those are the first of the hand's face-down slots 0 .. START - 2 that
 * are still unseen, at the pile's bottom in slot order (GHA-2: a card is seen once uncovered, and
 * every card above it was then taken; check() holds to it), so no walk of the pile finds them. */
static void gha_determinize(void *vs, int seat, pf_rng *rng) {
  gha_state *s = vs;
  uint8_t slots[NCARDS];
  pf_card cards[NCARDS];
  int n = 0, pile0 = 0, points = s->points[PLAY];
  uint64_t codes = 0;
  if (seat != PF_VIEW_ALL) {
    for (int p = 0; p < s->players; p++)
      if (!pf_view_sees_own(seat, p))
        for (int i = 0; i < s->hand_len[p]; i++) slots[n++] = s->slot_of[s->hand[p][i]], codes |= bit(s->hand[p][i]);
    for (int k = s->next_slot; k < NCARDS; k++) slots[n++] = (uint8_t)k, codes |= bit(s->card[k]);
    pile0 = n;
    for (int k = 0; k < START - 1 && !(s->seen & bit(k)); k++) {
      slots[n++] = (uint8_t)k;
      codes |= bit(s->card[k]);
      points -= card_points(s->card[k]);
    }
  }
  for (int i = 0; codes; codes &= codes - 1) cards[i++] = (pf_card)__builtin_ctzll(codes);
  pf_shuffle16(rng, cards, (size_t)n);
  for (int i = 0; i < n; i++) s->card[slots[i]] = cards[i], s->slot_of[cards[i]] = slots[i];
  for (int i = pile0; i < n; i++) points += card_points(cards[i]); /* the play pile's new unseen cards */
  for (int p = 0, j = 0; p < s->players && seat != PF_VIEW_ALL; p++) /* the hands' new cards, as listed */
    if (!pf_view_sees_own(seat, p))
      for (int i = 0; i < s->hand_len[p]; i++) s->hand[p][i] = (uint8_t)cards[j++];
  s->points[PLAY] = (int16_t)points;
  /* The deals of later hands are unknown too. */
  s->given = NULL;
  s->ndeals_given = 0;
  s->seed = pf_rng_next(rng);
}

static int gha_check(const void *vs, pf_error *err) {
  const gha_state *s = vs;
  int where[NCARDS] = {0};
  for (int p = 0; p < s->players; p++) {
    if (s->hand_len[p] > HAND) return pf_fail(err, "seat %d holds %d cards", p, s->hand_len[p]);
    /* Seats after the dealer play in turn: those before the seat to move have one card less. */
    int rel = (p - s->dealer - 1 + 2 * s->players) % s->players;
    int now = (s->turn - s->dealer - 1 + 2 * s->players) % s->players;
    int want = s->over ? 0 : s->hand_len[s->turn] - (rel < now);
    if (s->hand_len[p] != want) return pf_fail(err, "seat %d holds %d cards, not %d", p, s->hand_len[p], want);
    for (int i = 0; i < s->hand_len[p]; i++) where[s->slot_of[s->hand[p][i] % NCARDS]]++;
  }
  for (int q = 0; q < NPILES; q++) {
    if (q >= s->players && q != PLAY && s->size[q]) return pf_fail(err, "pile %d of no seat", q);
    for (int i = 0; i < s->size[q]; i++) {
      int slot = s->pile[q][i];
      where[slot]++;
      if (q != PLAY && !(s->seen & bit(slot)))
        return pf_fail(err, "seat %d's capture pile holds the unseen slot %d", q, slot);
    }
  }
  for (int q = 0; q < NPILES; q++)
    if (s->points[q] != pile_points(s, q))
      return pf_fail(err, "pile %d has %d points, noted %d", q, pile_points(s, q), s->points[q]);
  if (s->size[PLAY] && !(s->seen & bit(top_slot(s, PLAY))))
    return pf_fail(err, "the play pile's top card is unseen");
  for (int i = 0; i < s->size[PLAY]; i++) /* what determinize assumes of the unseen (GHA-2) */
    if (!(s->seen & bit(s->pile[PLAY][i])) && (s->pile[PLAY][i] != i || i >= START - 1 || (i && s->seen & bit(i - 1))))
      return pf_fail(err, "the play pile's unseen slot %d lies at %d, above a seen one or not in order",
                     s->pile[PLAY][i], i);
  for (int j = 0; j < 8; j++) {
    int q = j == 0 ? PLAY : j - 1, want = j <= s->players && s->size[q] ? rank_of(s, top_slot(s, q)) : 0xFF;
    if ((int)(s->tops >> 8 * j & 0xFF) != want)
      return pf_fail(err, "the noted top rank of pile %d is %d, not %d", q, (int)(s->tops >> 8 * j & 0xFF), want);
  }
  uint64_t counted = 0;
  for (int j = 0; j < 8; j++) counted += (uint64_t)1 << 4 * (s->tops >> 8 * j & 15);
  if ((counted ^ s->top_count) & (((uint64_t)1 << 52) - 1)) return pf_fail(err, "the top ranks are miscounted");
  for (int k = s->next_slot; k < NCARDS; k++) where[k]++;
  for (int k = 0; k < NCARDS; k++)
    if (where[k] != 1) return pf_fail(err, "card slot %d is in %d places", k, where[k]);
  for (int k = START; k < NCARDS; k++)
    if (s->seen & bit(k) && k >= s->next_slot) return pf_fail(err, "stock slot %d is seen", k);
  if (pf_cards_are_decks(s->card, NCARDS, 1, 0, err) != 0) return -1;
  for (int k = 0; k < NCARDS; k++)
    if (s->slot_of[s->card[k]] != k)
      return pf_fail(err, "card %d is noted at slot %d, not %d", s->card[k], s->slot_of[s->card[k]], k);
  if (s->over && s->next_slot != NCARDS) return pf_fail(err, "over with cards in the stock");
  if (!s->over && s->hand_len[s->turn] == 0) return pf_fail(err, "seat %d to move with no card", s->turn);
  if ((s->next_slot - START) % (HAND * s->players) != 0)
    return pf_fail(err, "%d cards dealt, not whole deals of %d", s->next_slot - START, HAND);
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Views                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* Whether `seat` may see this play-pile slot: the full view, or a card seen face up. */
static inline bool visible(const gha_state *s, int seat, int slot) {
  return seat == PF_VIEW_ALL || (s->seen & bit(slot));
}

/* Pile q's cards, bottom first, as the elements of an open array; null: not seen yet (GHA-2). */
static void pile_cards(const gha_state *s, int q, int seat, pf_jw *w) {
  for (int i = 0; i < s->size[q]; i++) {
    int slot = s->pile[q][i];
    pf_card_write_seen(w, s->card[slot], visible(s, seat, slot));
  }
}

static void pile_write(const gha_state *s, int q, int seat, pf_jw *w) {
  int n = s->size[q];
  pf_jw_open(w, '{');
  pf_jw_key_int(w, "size", n);
  pf_jw_key(w, "top");
  pf_card_write_seen(w, n ? s->card[top_slot(s, q)] : 0, n > 0);
  pf_jw_key(w, "cards"); /* bottom first; null: not seen yet (GHA-2) */
  pf_jw_open(w, '[');
  pile_cards(s, q, seat, w);
  pf_jw_close(w, ']');
  if (q != PLAY) {
    pf_jw_key_int(w, "points", s->points[q]);
  }
  pf_jw_close(w, '}');
}

/* The zones (docs/views.md): the stock, the play pile (its unseen cards null, GHA-2), the
 * capture piles with their points, the hands. */
static void gha_zones(const gha_state *s, int seat, pf_jw *w) {
  pf_stock_zone_write(w, s->card, s->next_slot, NCARDS, seat);
  pf_zone_open(w, "play", "play", -1, "Play pile", PF_STACK);
  pile_cards(s, PLAY, seat, w);
  pf_zone_close(w);
  for (int p = 0; p < s->players; p++) {
    char id[PF_ZONE_ID], label[32], note[32];
    pf_snprintf(id, sizeof id, "captures:%d", p);
    pf_snprintf(label, sizeof label, "Seat %d's captures", p);
    pf_snprintf(note, sizeof note, "%d point%s", s->points[p], s->points[p] == 1 ? "" : "s");
    pf_zone_open(w, id, "captures", p, label, PF_STACK);
    pile_cards(s, p, seat, w);
    pf_zone_write_note(w, note);
    pf_zone_close(w);
  }
  uint8_t hand_slots[MAXP * HAND];
  pf_hands h = hands_of(s, hand_slots);
  pf_hands_zones_write(w, s->card, &h, seat);
}

/* ---- the end, in data and in words (view.h: pf_end_open) ---- */

/* The best side of v (summed by side, GHA-1) into *points; -1 when several share it. */
static int best_side(const gha_state *s, const int32_t *v, int *points) {
  int side[MAXP] = {0}, best = 0, shared = 0;
  for (int p = 0; p < s->players; p++) side[side_of(s, p)] += v[p];
  for (int i = 1; i < nsides(s); i++)
    if (side[i] > side[best]) best = i;
  for (int i = 0; i < nsides(s); i++) shared += side[i] == side[best];
  *points = side[best];
  return shared > 1 ? -1 : best;
}

/* A side in words: "{1}", or a team "{0} and {2}". */
static void side_words(const gha_state *s, int side, pf_buf *out) {
  if (s->teams)
    pf_buf_printf(out, "{%d} and {%d}", side, side + 2);
  else
    pf_buf_printf(out, "{%d}", side);
}

/* GHA-4: the last hand's end, the play pile counting for nobody ("hand_over": "hand",
 * "play_pile", "hand_points"); GHA-6: the match's end, a total at the target ("match_over":
 * "target", "totals"). */
static void end_write(const gha_state *s, pf_jw *w) {
  pf_buf say = {0};
  int points, n = s->size[PLAY];
  pf_end_open(w);
  pf_end_event(w, "hand_over", "GHA-4");
  pf_jw_key_int(w, "hand", s->hand_no + 1);
  pf_jw_key_int(w, "play_pile", n);
  pf_jw_key(w, "hand_points");
  pf_jw_ints(w, s->last_points, s->players);
  pf_buf_printf(&say, "The stock ran out, ending %s", s->target ? "the last hand" : "the hand");
  if (n) pf_buf_printf(&say, ": the %d card%s of the play pile count%s for nobody", n, n == 1 ? "" : "s", n == 1 ? "s" : "");
  pf_buf_putc(&say, '.');
  int best = best_side(s, s->last_points, &points);
  if (s->target && best >= 0) {
    pf_buf_putc(&say, ' ');
    side_words(s, best, &say);
    pf_buf_printf(&say, " took the most in it, %d point%s.", points, points == 1 ? "" : "s");
  }
  pf_end_say(w, pf_buf_str(&say));
  if (s->target && match_over(s)) {
    best = best_side(s, s->total, &points);
    pf_end_event(w, "match_over", "GHA-6");
    pf_jw_key_int(w, "target", s->target);
    pf_jw_key(w, "totals");
    pf_jw_ints(w, s->total, s->players);
    pf_buf_clear(&say);
    pf_buf_printf(&say, "The match to %d points is over after hand %d: ", s->target, s->hand_no + 1);
    side_words(s, best, &say);
    pf_buf_printf(&say, " %s the highest total, %d points.", s->teams ? "have" : "has", points);
    pf_end_say(w, pf_buf_str(&say));
  }
  pf_end_close(w);
  pf_buf_free(&say);
}

static void gha_view_write(const void *vs, int seat, pf_jw *w) {
  const gha_state *s = vs;
  pf_jw_key_int(w, "hand_number", s->hand_no + 1);
  pf_jw_key_int(w, "dealer", s->dealer);
  pf_jw_key_int(w, "stock", NCARDS - s->next_slot);
  if (seat == PF_VIEW_ALL) { /* the full state: the stock's order too, next card first */
    pf_jw_key(w, "stock_cards");
    pf_stock_write(w, s->card, s->next_slot, NCARDS);
  }
  pf_jw_key(w, "play_pile");
  pile_write(s, PLAY, seat, w);
  pf_jw_key(w, "piles");
  pf_jw_open(w, '[');
  for (int p = 0; p < s->players; p++) pile_write(s, p, seat, w);
  pf_jw_close(w, ']');
  uint8_t hand_slots[MAXP * HAND];
  pf_hands h = hands_of(s, hand_slots);
  pf_jw_key(w, "hands");
  pf_hands_write(w, s->card, &h, seat);
  pf_jw_key(w, "teams");
  pf_jw_bool(w, s->teams);
  pf_jw_key_int(w, "target", s->target);
  if (s->target) {
    pf_jw_key(w, "totals");
    pf_jw_ints(w, s->total, s->players);
  }
  if (s->hand_no > 0 || s->over) {
    pf_jw_key(w, "last_hand_points");
    pf_jw_ints(w, s->last_points, s->players);
  }
  if (s->over) end_write(s, w);
  gha_zones(s, seat, w);
}

static void put_card(pf_buf *out, pf_card c, const pf_style *st) {
  char b[32];
  pf_buf_puts(out, pf_card_render(c, st, b));
}

/* " seat 0: 120; seat 1: 95" per seat, or " seats 0 & 2: 215; seats 1 & 3: 180" with teams. */
static void sides_text(const gha_state *s, const int32_t *v, pf_buf *out) {
  for (int i = 0; i < nsides(s); i++) {
    if (s->teams)
      pf_buf_printf(out, "%s seats %d & %d: %d", i ? ";" : "", i, i + 2, v[i] + v[i + 2]);
    else
      pf_buf_printf(out, "%s seat %d: %d", i ? ";" : "", i, v[i]);
  }
  pf_buf_putc(out, '\n');
}

static void who_text(const gha_state *s, int p, int seat, char *buf, size_t n) {
  if (s->teams)
    pf_snprintf(buf, n, "seat %d%s, partner seat %d", p, p == seat ? " (you)" : "", (p + 2) % 4);
  else
    pf_snprintf(buf, n, "seat %d%s", p, p == seat ? " (you)" : "");
}

static void gha_view_text(const void *vs, int seat, const pf_style *st, pf_buf *out) {
  const gha_state *s = vs;
  char name[48];
  pf_buf_printf(out, "Ghârat, %d players%s: hand %d, dealer seat %d, stock %d\n", s->players,
                s->teams ? " in teams (0 & 2 against 1 & 3)" : "", s->hand_no + 1, s->dealer,
                NCARDS - s->next_slot);
  if (s->target) {
    pf_buf_printf(out, "Match to %d (GHA-6). %s:", s->target, s->over ? "Final totals" : "Totals before this hand");
    sides_text(s, s->total, out);
  }
  if (s->hand_no > 0 || s->over) {
    pf_buf_printf(out, "Points of the %s hand:", s->over ? "last" : "previous");
    sides_text(s, s->last_points, out);
  }
  int n = s->size[PLAY], unseen = 0;
  for (int i = 0; i < n - 1; i++) unseen += !visible(s, seat, s->pile[PLAY][i]); /* as listed below */
  pf_buf_puts(out, "Play pile: ");
  if (n == 0) pf_buf_puts(out, "empty\n");
  if (n > 0) {
    put_card(out, s->card[top_slot(s, PLAY)], st);
    pf_buf_printf(out, " on top");
    if (n > 1 && unseen)
      pf_buf_printf(out, " of %d card%s, %d of them not seen yet (?? below); bottom first:", n - 1, n == 2 ? "" : "s",
                    unseen);
    else if (n > 1)
      pf_buf_printf(out, " of %d card%s, bottom first:", n - 1, n == 2 ? "" : "s");
    for (int i = 0; i < n - 1; i++) {
      int slot = s->pile[PLAY][i];
      pf_buf_putc(out, ' ');
      if (visible(s, seat, slot))
        put_card(out, s->card[slot], st);
      else
        pf_buf_puts(out, "??");
    }
    pf_buf_putc(out, '\n');
  }
  pf_buf_puts(out, "Capture piles (bottom first):\n");
  for (int p = 0; p < s->players; p++) {
    who_text(s, p, seat, name, sizeof name);
    pf_buf_printf(out, "  %-28s %3d pts ", name, s->points[p]);
    pf_buf_putc(out, ' ');
    if (!s->size[p]) pf_buf_puts(out, "empty");
    pf_slots_render(s->card, s->pile[p], s->size[p], " ", st, out);
    pf_buf_putc(out, '\n');
  }
  uint8_t hand_slots[MAXP * HAND];
  pf_hands h = hands_of(s, hand_slots);
  if (!s->over) pf_hands_text(s->card, &h, seat, st, out);
}

/* A card from the mover's hand onto the play pile (or taking from it), or taking from a capture
 * pile (one's own: onto it). */
static void gha_move_zones(const void *vs, pf_move m, pf_move_zones *z) {
  const gha_state *s = vs;
  int q = target_pile(MOVE_TARGET(m));
  pf_snprintf(z->from, sizeof z->from, "hand:%d", s->turn);
  z->card = MOVE_CARD(m);
  if (MOVE_TARGET(m) == T_PLAY || q == PLAY)
    strcpy(z->to, "play");
  else
    pf_snprintf(z->to, sizeof z->to, "captures:%d", q);
}

/* "7♥ takes 7♦ 7♠ from the play pile": what a move does, as `viewer` may know it. The play
 * pile's unseen cards are not named: a run that reaches one says so (GHA-2, GHA-3). */
static void gha_describe(const void *vs, pf_move m, int viewer, const pf_style *st, pf_buf *out) {
  const gha_state *s = vs;
  int tg = MOVE_TARGET(m), q = target_pile(tg);
  put_card(out, MOVE_CARD(m), st);
  if (tg == T_PLAY) {
    pf_buf_puts(out, " goes onto the play pile");
    return;
  }
  if (q == s->turn) {
    pf_buf_printf(out, " goes onto %s own capture pile", q == viewer ? "your" : "their");
    return;
  }
  pf_buf_puts(out, " takes");
  int r = rank_of(s, top_slot(s, q)), i = s->size[q] - 1;
  for (; i >= 0 && visible(s, viewer, s->pile[q][i]) && rank_of(s, s->pile[q][i]) == r; i--) {
    pf_buf_putc(out, ' ');
    put_card(out, s->card[s->pile[q][i]], st);
  }
  if (q == PLAY)
    pf_buf_puts(out, " from the play pile");
  else if (q == viewer)
    pf_buf_puts(out, " from your capture pile");
  else
    pf_buf_printf(out, " from seat %d's capture pile", q);
  if (i >= 0 && !visible(s, viewer, s->pile[q][i]))
    pf_buf_puts(out, ", with any card of that rank beneath (unseen yet)");
}

/* ------------------------------------------------------------------------------------------ */
/* The description                                                                            */
/* ------------------------------------------------------------------------------------------ */


/* How pilfer bench and scripts/strength exercise the game, and the lobby's copy (core/measure.h). */
static const pf_measures MEASURES = {
    .playouts = {{2, 20000}, {3, 12000}, {4, 6000}},
    .searches = {{2, 5000, 2, {0, 20, 40}}},
    .sims = {{2, 2, "ismcts:iters=300 greedy"}},
    .strength = {{2, 3000, "ismcts greedy"}, {2, 1000, "greedy random"}},
    .quick_players = 2,
    .quick_options = "target=0",
    .description = "A capturing game for 2 to 4 players, or two teams of two. Play a card: if its rank matches "
    "the top card of the play pile or of a player's capture pile, you take it, with every card of "
    "the same rank right beneath it. Captured cards score 5, 10 or 20 points, and a match is "
    "played over several hands to 1000 points.",
    .length_players = 2,
    .length_moves = 622,
};

/* Design metrics (`pilfer analyze`): takes from an opponent's capture pile, from the play pile,
 * and cards put on the play pile (GHA-3). */
static const char *const EVENTS[] = {"steals", "play_pile_takes", "cards_to_play_pile", NULL};

/* The standing is the scores, made of the capture piles and the totals: a move that changes
 * neither a capture pile's size (cards only go on or come off a pile's top), nor the hand, nor
 * whether the match is over leaves it as it was. */
static uint64_t gha_standing_key(const void *vs) {
  const gha_state *s = vs;
  uint64_t key = (uint64_t)(uint32_t)s->hand_no << 32 | (uint64_t)s->over << 63;
  for (int p = 0; p < s->players; p++) key |= (uint64_t)s->size[p] << 8 * p;
  return key;
}

/* The rounds of four cards each dealt so far (GHA-2, GHA-4), over the hands of a match. */
static int gha_round(const void *vs) {
  const gha_state *s = vs;
  int per = HAND * s->players;
  return s->hand_no * ((NCARDS - START) / per) + (s->next_slot - START) / per;
}

static void gha_count_events(const void *before, const void *after, pf_move m, long long *counts) {
  const gha_state *s = before;
  int t = MOVE_TARGET(m);
  (void)after;
  if (t == T_PLAY)
    counts[2]++;
  else if (t == T_PP)
    counts[1]++;
  else if ((t & 0x7F) != s->turn)
    counts[0]++;
}

/* ------------------------------------------------------------------------------------------ */
/* For learning: dense actions and the length bound (core/game.h, docs/actions.md)             */
/* ------------------------------------------------------------------------------------------ */

/* A move is a card and a target (GHA-3): the dense action of card c (0..51) is c * (N + 2) + 0
 * onto the play pile, + 1 taking from the play pile, + 2 + q taking from seat q's capture pile
 * (one's own included). */
static int gha_action_count(int players, const pf_options *options) {
  (void)options;
  return NCARDS * (players + 2);
}

static int gha_action_index(const void *vs, pf_move m) {
  const gha_state *s = vs;
  int c = MOVE_CARD(m), t = MOVE_TARGET(m);
  if (c >= NCARDS) return -1;
  return c * (s->players + 2) + (t == T_PLAY ? 0 : t == T_PP ? 1 : 2 + (t & 0x7F));
}

static pf_move gha_action_move(const void *vs, int a) {
  const gha_state *s = vs;
  int w = s->players + 2, c = a / w, k = a % w;
  if (a < 0 || c >= NCARDS) return PF_NO_MOVE;
  return MOVE(c, k == 0 ? T_PLAY : k == 1 ? T_PP : T_PILE(k - 2));
}

/* A hand deals every card but the play pile's START to the hands (GHA-2, GHA-4), and every move
 * plays one of them (GHA-3): 48 moves, with no chance events. A match (GHA-6, target > 0) has no
 * bound: a hand may capture nothing at all (every card played onto a play pile it does not
 * match), and a tie for the highest total means one more hand, so 0, unknown. */
static long gha_max_length(int players, const pf_options *options) {
  (void)players;
  return options->v[OPT_TARGET] ? 0 : NCARDS - START;
}

const pf_game pf_game_gharat = {
    .id = "gharat",
    .title = "Ghârat",
    .min_players = 2,
    .max_players = 4,
    .options = OPTIONS,
    .noptions = sizeof OPTIONS / sizeof OPTIONS[0],
    .state_size = sizeof(gha_state),
    .move_bound = 1u << 16 /* card | target << 8 */,
    .rules = pf_rules_gharat,
    .measures = &MEASURES,
    .start = gha_start,
    .to_move = gha_to_move,
    .legal = gha_legal,
    .random_move = gha_random_move,
    .random_playout = gha_random_playout,
    .apply = gha_apply,
    .move_str = gha_move_str,
    .move_parse = gha_move_parse,
    .scores = gha_scores,
    .winners = gha_winners,
    .view_write = gha_view_write,
    .view_text = gha_view_text,
    .determinize = gha_determinize,
    .check = gha_check,
    .current_deal = gha_current_deal,
    .stop_at_deal_end = gha_stop_at_deal_end,
    .describe = gha_describe,
    .rate_moves = gha_rate_moves,
    .move_zones = gha_move_zones,
    .events = EVENTS,
    .count_events = gha_count_events,
    .round = gha_round,
    .events_before = offsetof(gha_state, card), /* turn */
    .standing_key = gha_standing_key,
    .action_count = gha_action_count,
    .action_index = gha_action_index,
    .action_move = gha_action_move,
    .max_length = gha_max_length,
};
