/*
 * point_a_pile.c - Point-a-Pile (RULINGS PAP-1 .. PAP-8; rules/point-a-pile-cards.md): every
 * round the Headpointer makes piles of drawn cards, everyone points at one at once, and the
 * piles go to whoever alone wanted them.
 *
 * The deck is generated from the seed (PAP-1) and kept in card[]: slot i is the i-th card from
 * the top. A round draws slots first .. first+ndrawn-1; inside the round a card is named by its
 * draw index k (0-based; the move notation counts from 1) and has a place: a level, a pile at
 * that level, and a placement number (higher lies on top).
 *
 * Levels. Level 0 holds the round's piles. When several players point at a pile of two or more
 * cards, its cards move up to a new level, where the Headpointer places them again on new piles
 * and only those players point; when that level is resolved, the one below goes on with its
 * next pile (PAP-5). So the levels form a stack, and only the top one is ever being placed or
 * pointed at.
 *
 * Simultaneous pointing (PAP-4) is asked seat by seat, in seat order. A choice is kept in the
 * state and shown to nobody else until the last pointer of the level has chosen; then all are
 * revealed at once and the level is resolved inside apply (no seat has a choice in it).
 *
 * Hidden information: the undrawn deck (its cards too: the deck is generated, so nobody knows
 * which cards it holds), the drawn cards the Headpointer has not yet placed (only the
 * Headpointer sees them, PAP-3), the choices not yet revealed, and with `pile` (PAP-8) the
 * other players' score rows below their top card, and so their scores.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/game.h"
#include "core/papcard.h"
#include "games/registry.h"

/* ------------------------------------------------------------------------------------------ */
/* State                                                                                      */
/* ------------------------------------------------------------------------------------------ */

#define MAXP 6
#define BASE_CARDS 54       /* the regular cards (PAP-1) */
#define MAX_CARDS 128       /* room for the expansions' cards too (PAP-9) */
#define MAX_DRAW 24         /* cards drawn in one round: 2N, and more with the expansions */
#define MAX_LEVELS MAX_DRAW /* every split leaves at least one card behind */
#define MAX_LOG 64 /* events of a round: at most 3 per drawn card, and 1 */
#define NONE 0xFF
#define GONE 0xFE      /* lvl[] of a drawn card that was scored or discarded */
#define EMPTY 0xFE     /* a choice: empty space (PAP-4, PAP-6) */
#define UNCHOSEN 0xFF  /* a choice not made yet, or a seat that does not point at this level */

enum { OPT_PILE };

/* Move codes: the kind in bits 16-19; a placement has the draw index in bits 8-15 and the pile in
 * bits 0-7; a choice has the pile (or EMPTY) in bits 0-7. */
enum { MV_PLACE = 1, MV_POINT = 2 };
#define MOVE(kind, a, b) ((pf_move)(kind) << 16 | (pf_move)(a) << 8 | (pf_move)(b))
#define MV_KIND(m) ((int)((m) >> 16))
#define MV_A(m) ((int)(((m) >> 8) & 0xFF))
#define MV_B(m) ((int)((m)&0xFF))

/* What the round's log remembers for people: reveals and what became of each pile. */
enum { EV_REVEAL, EV_SCORED, EV_DISCARDED, EV_SPLIT, EV_EMPTY_SCORES, EV_EMPTY_LOST };
typedef struct pap_event {
  uint8_t kind, level, pile, seat, ncards, mask;
  uint8_t choice[MAXP]; /* EV_REVEAL: every seat's choice at the level (UNCHOSEN if none) */
} pap_event;

typedef struct pap_state {
  pf_card card[MAX_CARDS];       /* the deck order; slot 0 was the top card */
  uint8_t row[MAXP][MAX_CARDS];  /* each seat's score row, slots, first scored first */
  uint8_t row_len[MAXP];
  uint8_t out[MAX_CARDS];        /* slots of the cards that left the game (PAP-6) */
  uint8_t nout;
  uint8_t players, ncards, next_slot, pile_variant;
  uint8_t head;  /* the Headpointer of the round in progress (or of the last round) */
  uint8_t over;
  uint16_t round; /* rounds begun */
  /* The round in progress. */
  uint8_t first, ndrawn;
  uint8_t lvl[MAX_DRAW];  /* the level of each drawn card; GONE once scored or discarded */
  uint8_t pile[MAX_DRAW]; /* its pile at that level; NONE while not placed */
  uint16_t pos[MAX_DRAW]; /* when it was placed: a later card lies on top */
  uint16_t seq;
  uint8_t depth; /* levels in use */
  uint8_t npiles[MAX_LEVELS], cursor[MAX_LEVELS], pointers[MAX_LEVELS];
  uint8_t choice[MAX_LEVELS][MAXP];
  uint8_t tapped;             /* seats that tapped empty space this round (PAP-6) */
  uint8_t disc[MAX_DRAW];     /* draw indices discarded this round, in order */
  uint8_t ndisc;
  uint8_t nlog, nprev;
  pap_event log[MAX_LOG];  /* this round */
  pap_event prev[MAX_LOG]; /* the round before */
} pap_state;

static inline int slot_of(const pap_state *s, int k) { return s->first + k; }
static inline pf_card drawn(const pap_state *s, int k) { return s->card[s->first + k]; }
static inline int top_level(const pap_state *s) { return s->depth - 1; }
static inline bool is_textless(pf_card c) { return pf_pap_type(c) == PF_PAP_COLOR; }

/* ------------------------------------------------------------------------------------------ */
/* Generating the deck (PAP-1)                                                                */
/* ------------------------------------------------------------------------------------------ */

/* The weights of the regular types, in halves: 7, 1, 1, 1, 1, 1, 1, 1, 0.5 and 0.5 of 15. */
static const uint8_t TYPE_WEIGHT2[PF_PAP_TYPES] = {14, 2, 2, 2, 2, 2, 2, 2, 1, 1};
#define TYPE_WEIGHT2_SUM 30

/* A placeholder W: +1 with probability 3/4, -1 with 1/4; a as papcard.h stores signs. */
static int draw_w(pf_rng *r) { return pf_rng_below(r, 4) == 0; }

/* Two different values of 2-5 (X and Y drawn without replacement). */
static void draw_xy(pf_rng *r, int *x, int *y) {
  *x = 2 + (int)pf_rng_below(r, 4);
  *y = 2 + (int)pf_rng_below(r, 3);
  if (*y >= *x) (*y)++;
}

/* One regular card without its colour (red): a weighted type, then its placeholders, each drawn
 * in the order the table of papcard.h lists the fields. */
static pf_card draw_regular(pf_rng *r) {
  int w = (int)pf_rng_below(r, TYPE_WEIGHT2_SUM), t = 0;
  while (w >= TYPE_WEIGHT2[t]) w -= TYPE_WEIGHT2[t++];
  int a = 0, b = 0, c = 0;
  switch (t) {
  case PF_PAP_SCORE:
  case PF_PAP_HEAD: a = (int)pf_rng_below(r, 2); break;
  case PF_PAP_MATCH:
    a = draw_w(r);
    c = (int)pf_rng_below(r, 4);
    break;
  case PF_PAP_DIFF: a = 3 + (int)pf_rng_below(r, 3); break;
  case PF_PAP_GROUP: draw_xy(r, &a, &b); break;
  case PF_PAP_SPECIFIC:
    draw_xy(r, &a, &b);
    c = (int)pf_rng_below(r, 4);
    break;
  case PF_PAP_NUMCARDS:
    a = 2 + (int)pf_rng_below(r, 4);
    b = 5 + (int)pf_rng_below(r, 2);
    break;
  case PF_PAP_EMPTY:
  case PF_PAP_LAST: a = draw_w(r); break;
  default: break;
  }
  return pf_pap_make(PF_PAP_RED, t, a, b, c);
}

static inline pf_card with_colour(pf_card c, int colour) {
  return (pf_card)((c & ~(3 << 12)) | colour << 12);
}

/* The colour pool for n cards: ceil(0.3n) red and green, ceil(0.2n) blue and purple. */
static void colour_pool(int n, int pool[PF_PAP_COLOURS]) {
  pool[PF_PAP_RED] = pool[PF_PAP_GREEN] = (3 * n + 9) / 10;
  pool[PF_PAP_BLUE] = pool[PF_PAP_PURPLE] = (2 * n + 9) / 10;
}

/* Gives cards[i] for each i of idx[0..n) a colour drawn without replacement from what is left
 * of the pool (left[]): the pool's colours are listed, shuffled, and taken from the front. */
static void deal_colours(pf_card *cards, const uint8_t *idx, int n, const int left[PF_PAP_COLOURS], pf_rng *r) {
  uint8_t list[2 * MAX_CARDS];
  int m = 0;
  for (int col = 0; col < PF_PAP_COLOURS; col++)
    for (int i = 0; i < left[col] && m < (int)sizeof list; i++) list[m++] = (uint8_t)col;
  pf_shuffle(r, list, (size_t)m);
  for (int i = 0; i < n; i++) cards[idx[i]] = with_colour(cards[idx[i]], i < m ? list[i] : PF_PAP_RED);
}

/* PAP-1: the 54 regular cards are drawn one by one, the colours dealt from the pool over all of
 * them, and the deck shuffled. Everything comes from the deal's stream pf_rng_seed(seed, 0). */
static int generate_deck(pf_card *deck, uint64_t seed) {
  pf_rng r;
  pf_rng_seed(&r, seed, 0);
  int n = BASE_CARDS, pool[PF_PAP_COLOURS];
  uint8_t idx[MAX_CARDS];
  for (int i = 0; i < n; i++) {
    deck[i] = draw_regular(&r);
    idx[i] = (uint8_t)i;
  }
  colour_pool(n, pool);
  deal_colours(deck, idx, n, pool, &r);
  pf_shuffle16(&r, deck, (size_t)n);
  return n;
}

/* A deck the generator could have made: n regular cards, no colour more often than its pool. */
static int deck_check(const pf_card *deck, int n, pf_error *err) {
  if (n != BASE_CARDS) return pf_fail(err, "the deck has %d cards, the game needs %d (PAP-1)", n, BASE_CARDS);
  int count[PF_PAP_COLOURS] = {0}, pool[PF_PAP_COLOURS];
  colour_pool(n, pool);
  for (int i = 0; i < n; i++) {
    char b[PF_CARD_STR];
    if (!pf_pap_valid(deck[i])) return pf_fail(err, "card %d, %s, is not a Point-a-Pile card", i + 1, pf_card_str(deck[i], b));
    count[pf_pap_colour(deck[i])]++;
  }
  for (int col = 0; col < PF_PAP_COLOURS; col++)
    if (count[col] > pool[col])
      return pf_fail(err, "the deck has %d %s cards; the colour pool of %d cards has only %d (PAP-1)", count[col],
                     pf_pap_colour_name(col), n, pool[col]);
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Card values and scores (PAP-7; point-a-pile-cards.md)                                      */
/* ------------------------------------------------------------------------------------------ */

typedef struct row_stats {
  int len, textless, colours, most;
  int count[PF_PAP_COLOURS];
} row_stats;

static row_stats stats_of(const pap_state *s, int seat) {
  row_stats st = {0};
  st.len = s->row_len[seat];
  for (int i = 0; i < st.len; i++) {
    pf_card c = s->card[s->row[seat][i]];
    st.count[pf_pap_colour(c)]++;
    st.textless += is_textless(c);
  }
  for (int col = 0; col < PF_PAP_COLOURS; col++) {
    st.colours += st.count[col] > 0;
    if (st.count[col] > st.most) st.most = st.count[col];
  }
  return st;
}

/* The value of card c in a row with stats st; last: it is the row's last card; head: its owner
 * is the Headpointer. Thresholds are "at least". */
static int card_value(pf_card c, const row_stats *st, bool last, bool head) {
  int x = pf_pap_a(c), y = pf_pap_b(c);
  switch (pf_pap_type(c)) {
  case PF_PAP_SCORE: return pf_pap_sign(c);
  case PF_PAP_MATCH: return pf_pap_sign(c) * st->count[pf_pap_c(c)];
  case PF_PAP_DIFF: return st->colours == PF_PAP_COLOURS ? x : 0;
  case PF_PAP_GROUP: return st->most >= y ? x : 0;
  case PF_PAP_SPECIFIC: return st->count[pf_pap_c(c)] >= y ? x : 0;
  case PF_PAP_NUMCARDS: return st->len >= y ? x : 0;
  case PF_PAP_EMPTY: return pf_pap_sign(c) * st->textless;
  case PF_PAP_LAST: return last ? pf_pap_sign(c) : 0;
  case PF_PAP_HEAD: return head ? pf_pap_sign(c) : 0;
  default: return 0; /* textless */
  }
}

/* The value of the i-th card of a seat's row. */
static int row_value(const pap_state *s, int seat, const row_stats *st, int i) {
  return card_value(s->card[s->row[seat][i]], st, i == st->len - 1, seat == s->head);
}

static int score_of(const pap_state *s, int seat) {
  row_stats st = stats_of(s, seat);
  int total = 0;
  for (int i = 0; i < st.len; i++) total += row_value(s, seat, &st, i);
  return total;
}

/* ------------------------------------------------------------------------------------------ */
/* Piles                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* The draw indices of pile p at level l, bottom first; returns how many. */
static int pile_cards(const pap_state *s, int l, int p, uint8_t *out) {
  int n = 0;
  for (int k = 0; k < s->ndrawn; k++) {
    if (s->lvl[k] != l || s->pile[k] != p) continue;
    int i = n++;
    while (i > 0 && s->pos[out[i - 1]] > s->pos[k]) {
      out[i] = out[i - 1];
      i--;
    }
    out[i] = (uint8_t)k;
  }
  return n;
}

/* The draw indices of the cards at level l not yet placed, in draw order. */
static int unplaced(const pap_state *s, int l, uint8_t *out) {
  int n = 0;
  for (int k = 0; k < s->ndrawn; k++)
    if (s->lvl[k] == l && s->pile[k] == NONE) out[n++] = (uint8_t)k;
  return n;
}

/* Unplaced cards are hidden only at level 0, and only from all but the Headpointer (PAP-3): the
 * cards being placed again after a split lay face up in their pile. */
static bool unplaced_visible(const pap_state *s, int seat) {
  return seat == PF_VIEW_ALL || seat == s->head || top_level(s) > 0;
}

static void log_event(pap_state *s, pap_event e) {
  if (s->nlog < MAX_LOG) s->log[s->nlog++] = e;
}

/* ------------------------------------------------------------------------------------------ */
/* The round                                                                                  */
/* ------------------------------------------------------------------------------------------ */

static int popcount(unsigned x) { return __builtin_popcount(x); }

/* Opens a level at which the seats of `pointers` will point, its cards still to be placed. */
static void open_level(pap_state *s, int pointers) {
  int l = s->depth++;
  s->npiles[l] = 0;
  s->cursor[l] = 0;
  s->pointers[l] = (uint8_t)pointers;
  memset(s->choice[l], UNCHOSEN, sizeof s->choice[l]);
}

/* PAP-7: the deck is empty at the start of a round: the game ends. Otherwise PAP-3: the role
 * passes to the next seat (from the second round on) and the Headpointer draws 2N cards, or all
 * that are left. */
static void start_round(pap_state *s) {
  memcpy(s->prev, s->log, sizeof s->log);
  s->nprev = s->nlog;
  s->nlog = 0;
  if (s->next_slot == s->ncards) {
    s->over = 1;
    s->depth = 0;
    return;
  }
  if (s->round++) s->head = (uint8_t)((s->head + 1) % s->players);
  int n = 2 * s->players, left = s->ncards - s->next_slot;
  s->first = s->next_slot;
  s->ndrawn = (uint8_t)(n < left ? n : left);
  s->next_slot = (uint8_t)(s->next_slot + s->ndrawn);
  memset(s->lvl, 0, sizeof s->lvl);
  memset(s->pile, NONE, sizeof s->pile);
  memset(s->pos, 0, sizeof s->pos);
  s->seq = 0;
  s->depth = 0;
  s->tapped = 0;
  s->ndisc = 0;
  open_level(s, (1 << s->players) - 1);
}

static void add_to_row(pap_state *s, int seat, int k) {
  s->row[seat][s->row_len[seat]++] = (uint8_t)slot_of(s, k);
  s->lvl[k] = GONE;
}

/* PAP-6 and PAP-7: the end of a round. */
static void end_round(pap_state *s) {
  s->depth = 0;
  if (popcount(s->tapped) == 1) {
    int seat = __builtin_ctz(s->tapped);
    for (int i = 0; i < s->ndisc; i++) s->row[seat][s->row_len[seat]++] = (uint8_t)slot_of(s, s->disc[i]);
    log_event(s, (pap_event){.kind = EV_EMPTY_SCORES, .seat = (uint8_t)seat, .ncards = s->ndisc});
  } else {
    for (int i = 0; i < s->ndisc; i++) s->out[s->nout++] = (uint8_t)slot_of(s, s->disc[i]);
    if (s->tapped) log_event(s, (pap_event){.kind = EV_EMPTY_LOST, .mask = s->tapped, .ncards = s->ndisc});
  }
  s->ndisc = 0;
  for (int p = 0; p < s->players; p++)
    if (score_of(s, p) >= 10) {
      s->over = 1;
      return;
    }
  start_round(s);
}

/* PAP-5: resolves the piles of the top level in order until a choice is needed or the round is
 * over. A level whose piles are all resolved gives way to the one below. */
static void resolve(pap_state *s) {
  for (;;) {
    int l = top_level(s);
    if (s->cursor[l] == s->npiles[l]) {
      if (l == 0) {
        end_round(s);
        return;
      }
      s->depth--;
      s->cursor[l - 1]++;
      continue;
    }
    int p = s->cursor[l], who = 0;
    for (int seat = 0; seat < s->players; seat++)
      if (s->choice[l][seat] == p) who |= 1 << seat;
    uint8_t ks[MAX_DRAW];
    int n = pile_cards(s, l, p, ks);
    pap_event e = {.level = (uint8_t)l, .pile = (uint8_t)p, .ncards = (uint8_t)n, .mask = (uint8_t)who};
    if (popcount((unsigned)who) == 1) { /* one player: scored, the top card last */
      e.kind = EV_SCORED;
      e.seat = (uint8_t)__builtin_ctz((unsigned)who);
      for (int i = 0; i < n; i++) add_to_row(s, e.seat, ks[i]);
    } else if (who == 0 || n == 1) { /* nobody, or a contested single card: discarded */
      e.kind = EV_DISCARDED;
      for (int i = 0; i < n; i++) {
        s->lvl[ks[i]] = GONE;
        s->disc[s->ndisc++] = ks[i];
      }
    } else { /* split: its cards go up a level to be placed again */
      e.kind = EV_SPLIT;
      log_event(s, e);
      open_level(s, who);
      for (int i = 0; i < n; i++) {
        s->lvl[ks[i]] = (uint8_t)(l + 1);
        s->pile[ks[i]] = NONE;
      }
      return;
    }
    log_event(s, e);
    s->cursor[l]++;
  }
}

/* The first pointer of the top level who has not chosen yet, or -1. */
static int next_pointer(const pap_state *s) {
  int l = top_level(s);
  for (int seat = 0; seat < s->players; seat++)
    if ((s->pointers[l] >> seat & 1) && s->choice[l][seat] == UNCHOSEN) return seat;
  return -1;
}

static bool placing(const pap_state *s) {
  uint8_t ks[MAX_DRAW];
  return unplaced(s, top_level(s), ks) > 0;
}

static int pap_to_move(const void *vs) {
  const pap_state *s = vs;
  if (s->over) return PF_NOBODY;
  return placing(s) ? s->head : next_pointer(s);
}

/* ------------------------------------------------------------------------------------------ */
/* Moves                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* PAP-3, PAP-5: may an unplaced card of the top level go on pile p there, nleft cards being
 * unplaced? A new pile takes the next number, at most N piles; a split must end with at least
 * two piles. */
enum { PLACE_OK, PLACE_NO_PILE, PLACE_SPLIT };
static int place_refusal(const pap_state *s, int p, int nleft) {
  int l = top_level(s), np = s->npiles[l];
  if (p > np || p >= s->players) return PLACE_NO_PILE;
  if (l > 0 && (p == np ? np + 1 : np) + (nleft - 1) < 2) return PLACE_SPLIT;
  return PLACE_OK;
}

/* G-5: equal cards are one move; of several equal unplaced cards, only the first is offered. Only
 * for the cards of a split, which everyone has seen: among the Headpointer's freshly drawn cards,
 * offering only the first of equal cards would tell the others which hidden cards are equal. */
static bool first_of_equals(const pap_state *s, const uint8_t *ks, int i) {
  if (top_level(s) == 0) return true;
  for (int j = 0; j < i; j++)
    if (drawn(s, ks[j]) == drawn(s, ks[i])) return false;
  return true;
}

static int pap_legal(const void *vs, pf_move *moves) {
  const pap_state *s = vs;
  int l = top_level(s), n = 0;
  uint8_t ks[MAX_DRAW];
  int nk = unplaced(s, l, ks);
  if (nk > 0) {
    for (int i = 0; i < nk; i++) {
      if (!first_of_equals(s, ks, i)) continue;
      for (int p = 0; p <= s->npiles[l]; p++)
        if (place_refusal(s, p, nk) == PLACE_OK) moves[n++] = MOVE(MV_PLACE, ks[i], p);
    }
    return n;
  }
  for (int p = 0; p < s->npiles[l]; p++) moves[n++] = MOVE(MV_POINT, 0, p);
  moves[n++] = MOVE(MV_POINT, 0, EMPTY);
  return n;
}

/* The reveal (PAP-4): every choice of the level is known now; empty space is remembered for
 * PAP-6, and the level is resolved. */
static void reveal(pap_state *s) {
  int l = top_level(s);
  pap_event e = {.kind = EV_REVEAL, .level = (uint8_t)l, .mask = s->pointers[l]};
  memcpy(e.choice, s->choice[l], sizeof e.choice);
  log_event(s, e);
  for (int seat = 0; seat < s->players; seat++)
    if (s->choice[l][seat] == EMPTY) s->tapped |= (uint8_t)(1 << seat);
  resolve(s);
}

static void pap_apply(void *vs, pf_move m) {
  pap_state *s = vs;
  int l = top_level(s);
  if (MV_KIND(m) == MV_PLACE) {
    int k = MV_A(m), p = MV_B(m);
    if (p == s->npiles[l]) s->npiles[l]++;
    s->pile[k] = (uint8_t)p;
    s->pos[k] = s->seq++;
    return;
  }
  s->choice[l][next_pointer(s)] = (uint8_t)MV_B(m);
  if (next_pointer(s) < 0) reveal(s);
}

static void pap_move_str(const void *vs, pf_move m, char buf[PF_MOVE_STR]) {
  (void)vs;
  if (MV_KIND(m) == MV_PLACE)
    snprintf(buf, PF_MOVE_STR, "c%d>%d", MV_A(m) + 1, MV_B(m) + 1);
  else if (MV_B(m) == EMPTY)
    snprintf(buf, PF_MOVE_STR, "@empty");
  else
    snprintf(buf, PF_MOVE_STR, "@%d", MV_B(m) + 1);
}

/* Reads a positive number at *p (at most 3 digits); 0 when there is none. */
static int scan_number(const char **p) {
  int n = 0, digits = 0;
  while (**p >= '0' && **p <= '9' && digits < 3) {
    n = n * 10 + (*(*p)++ - '0');
    digits++;
  }
  return n;
}

static int parse_place(const pap_state *s, const char *text, pf_move *m, pf_error *err) {
  const char *p = text + 1;
  int card = scan_number(&p);
  if (card == 0 || *p != '>') return pf_fail(err, "'%s' is not a placement: write c4>2 (drawn card 4 onto pile 2)", text);
  p++;
  int pile = scan_number(&p);
  if (pile == 0 || *p) return pf_fail(err, "'%s' is not a placement: write c4>2 (drawn card 4 onto pile 2)", text);
  int l = top_level(s), np = s->npiles[l];
  if (card > s->ndrawn)
    return pf_fail(err, "there is no drawn card %d: cards 1-%d were drawn this round (PAP-3)", card, s->ndrawn);
  int k = card - 1;
  if (s->lvl[k] != l || s->pile[k] != NONE)
    return pf_fail(err, l > 0 ? "card %d is not one of the split pile's cards still to place (PAP-5)"
                              : "card %d is already placed (PAP-3)",
                   card);
  uint8_t ks[MAX_DRAW];
  int nk = unplaced(s, l, ks);
  int why = place_refusal(s, pile - 1, nk);
  if (why == PLACE_SPLIT)
    return pf_fail(err, "a split makes at least two piles (PAP-5): this card must start pile 2");
  if (why && np == s->players)
    return pf_fail(err, "there are already %d piles, the most there may be (PAP-3): use piles 1-%d", np, np);
  if (why && np == 0) return pf_fail(err, "there is no pile yet: put the card on 1 to start one (PAP-3)");
  if (why) return pf_fail(err, "there %s %d pile%s: put the card on %s%d, or on %d to start a new one (PAP-3)",
                          np == 1 ? "is" : "are", np, np == 1 ? "" : "s", np > 1 ? "1-" : "", np, np + 1);
  /* G-5: in a split, an equal card earlier in draw order stands for this one. */
  for (int i = 0; i < nk && l > 0; i++)
    if (drawn(s, ks[i]) == drawn(s, k)) {
      k = ks[i];
      break;
    }
  *m = MOVE(MV_PLACE, k, pile - 1);
  return 0;
}

static int pap_move_parse(const void *vs, const char *text, pf_move *m, pf_error *err) {
  const pap_state *s = vs;
  int l = top_level(s), np = s->npiles[l];
  bool place = placing(s);
  if (text[0] == 'c' || text[0] == 'C') {
    if (!place) return pf_fail(err, "the piles are made: it is time to point (@1-@%d or @empty, PAP-4)", np);
    return parse_place(s, text, m, err);
  }
  if (text[0] != '@')
    return pf_fail(err, "'%s' is not a move: place a card with c4>2, point with @2 or @empty", text);
  if (place) return pf_fail(err, "the Headpointer is still making the piles (PAP-3): nobody points yet");
  if (strcasecmp(text + 1, "empty") == 0 || strcasecmp(text + 1, "e") == 0) {
    *m = MOVE(MV_POINT, 0, EMPTY);
    return 0;
  }
  const char *p = text + 1;
  int pile = scan_number(&p);
  if (pile == 0 || *p) return pf_fail(err, "'%s' is not a choice: point with @2 (pile 2) or @empty", text);
  if (pile > np)
    return pf_fail(err, np == 1 ? "there is no pile %d: choose @1 or @empty (PAP-4)"
                                : "there is no pile %d: choose @1-@%d or @empty (PAP-4)", pile, np);
  *m = MOVE(MV_POINT, 0, pile - 1);
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Start, scores, deals                                                                       */
/* ------------------------------------------------------------------------------------------ */

static int pap_start(void *vs, const pf_setup *setup, pf_error *err) {
  pap_state *s = vs;
  memset(s, 0, sizeof *s);
  if (setup->ndeals > 1)
    return pf_fail(err, "a game of Point-a-Pile uses one deck, but %d deals are given", setup->ndeals);
  if (setup->ndeals == 1) {
    if (deck_check(setup->deals[0].cards, setup->deals[0].ncards, err) != 0) {
      pf_error_prefix(err, "deal 1");
      return -1;
    }
    s->ncards = (uint8_t)setup->deals[0].ncards;
    memcpy(s->card, setup->deals[0].cards, s->ncards * sizeof s->card[0]);
  } else {
    s->ncards = (uint8_t)generate_deck(s->card, setup->seed);
  }
  s->players = (uint8_t)setup->players;
  s->pile_variant = (uint8_t)setup->options.v[OPT_PILE];
  s->head = 0; /* PAP-2 */
  start_round(s);
  return 0;
}

/* PAP-7: the running scores; with the Headpointer of the round in progress (or of the last). */
static void pap_scores(const void *vs, int *scores) {
  const pap_state *s = vs;
  for (int p = 0; p < s->players; p++) scores[p] = score_of(s, p);
}

/* PAP-7, G-6: the highest score wins; equal best scores share the win. */
static int pap_winners(const void *vs, int *seats) {
  const pap_state *s = vs;
  int scores[MAXP], best = -1000000, n = 0;
  pap_scores(s, scores);
  for (int p = 0; p < s->players; p++)
    if (scores[p] > best) best = scores[p];
  for (int p = 0; p < s->players; p++)
    if (scores[p] == best) seats[n++] = p;
  return n;
}

static int pap_current_deal(const void *vs, pf_deal *out) {
  const pap_state *s = vs;
  out->ncards = s->ncards;
  memcpy(out->cards, s->card, s->ncards * sizeof s->card[0]);
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Hidden information                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* PAP-8: may `seat` see the whole of p's score row? Its top card and size everyone sees. */
static bool row_visible(const pap_state *s, int seat, int p) {
  return !s->pile_variant || s->over || seat == PF_VIEW_ALL || seat == p;
}

/* May `seat` see p's choice at level l? After the reveal everyone may. */
static bool choice_visible(const pap_state *s, int seat, int l, int p) {
  return seat == PF_VIEW_ALL || seat == p || l < top_level(s) || placing(s) || next_pointer(s) < 0;
}

/* The slots of the cards `seat` cannot see: the undrawn deck, the unplaced drawn cards when they
 * are hidden, and with `pile` the other rows below their top card. In a fixed order that depends
 * only on what the seat sees. */
static int unseen_slots(const pap_state *s, int seat, uint8_t *out) {
  int n = 0, end = s->ncards < MAX_CARDS ? s->ncards : MAX_CARDS; /* every slot at most once */
  for (int i = s->next_slot; i < end; i++) out[n++] = (uint8_t)i;
  if (s->over) return n;
  if (!unplaced_visible(s, seat)) {
    uint8_t ks[MAX_DRAW];
    int nk = unplaced(s, 0, ks);
    for (int i = 0; i < nk; i++) out[n++] = (uint8_t)slot_of(s, ks[i]);
  }
  for (int p = 0; p < s->players; p++)
    if (!row_visible(s, seat, p))
      for (int i = 0; i + 1 < s->row_len[p]; i++) out[n++] = s->row[p][i];
  return n;
}

/* Resamples everything `seat` cannot see from what it can: the unseen cards are drawn anew as
 * the generator draws them (each card's type and placeholders are independent of all others;
 * the colours come from what is left of the pool once the seen cards' colours are taken out),
 * and the choices not yet revealed are drawn uniformly from the choices there were. */
static void pap_determinize(void *vs, int seat, pf_rng *rng) {
  pap_state *s = vs;
  if (seat == PF_VIEW_ALL) return;
  uint8_t slots[MAX_CARDS];
  bool unseen[MAX_CARDS] = {false};
  int n = unseen_slots(s, seat, slots), left[PF_PAP_COLOURS];
  colour_pool(s->ncards, left);
  for (int i = 0; i < n; i++) unseen[slots[i]] = true;
  for (int i = 0; i < s->ncards; i++)
    if (!unseen[i] && left[pf_pap_colour(s->card[i])] > 0) left[pf_pap_colour(s->card[i])]--;
  for (int i = 0; i < n; i++) s->card[slots[i]] = draw_regular(rng);
  deal_colours(s->card, slots, n, left, rng);
  if (s->over || placing(s)) return;
  int l = top_level(s);
  for (int p = 0; p < s->players; p++)
    if (p != seat && s->choice[l][p] != UNCHOSEN && !choice_visible(s, seat, l, p)) {
      int k = (int)pf_rng_below(rng, (uint32_t)s->npiles[l] + 1);
      s->choice[l][p] = (uint8_t)(k == s->npiles[l] ? EMPTY : k);
    }
}

/* Recounts where every card is: each slot is in the deck, on the table, discarded this round, in
 * one score row, or out of the game, exactly once; the levels and choices are consistent. */
static int pap_check(const void *vs, pf_error *err) {
  const pap_state *s = vs;
  uint8_t seen[MAX_CARDS] = {0};
  if (deck_check(s->card, s->ncards, err) != 0) return -1;
  for (int i = s->next_slot; i < s->ncards; i++) seen[i]++;
  for (int p = 0; p < s->players; p++)
    for (int i = 0; i < s->row_len[p]; i++) seen[s->row[p][i]]++;
  for (int i = 0; i < s->nout; i++) seen[s->out[i]]++;
  for (int i = 0; i < s->ndisc; i++) seen[slot_of(s, s->disc[i])]++;
  for (int k = 0; k < s->ndrawn && !s->over; k++)
    if (s->lvl[k] != GONE) {
      if (s->lvl[k] >= s->depth) return pf_fail(err, "drawn card %d is at level %d of %d", k + 1, s->lvl[k], s->depth);
      if (s->pile[k] != NONE && s->pile[k] >= s->npiles[s->lvl[k]])
        return pf_fail(err, "drawn card %d is on pile %d of %d", k + 1, s->pile[k] + 1, s->npiles[s->lvl[k]]);
      if (s->pile[k] == NONE && s->lvl[k] != top_level(s)) return pf_fail(err, "drawn card %d is unplaced below the top level", k + 1);
      if (s->pile[k] != NONE && s->pile[k] < s->cursor[s->lvl[k]])
        return pf_fail(err, "drawn card %d lies on pile %d, which was resolved", k + 1, s->pile[k] + 1);
      seen[slot_of(s, k)]++;
    }
  for (int i = 0; i < s->ncards; i++)
    if (seen[i] != 1) return pf_fail(err, "slot %d is in %d places", i, seen[i]);
  for (int l = 0; l < s->depth; l++) {
    if (s->npiles[l] > s->players) return pf_fail(err, "level %d has %d piles", l, s->npiles[l]);
    for (int p = 0; p < s->players; p++) {
      int c = s->choice[l][p];
      bool points = s->pointers[l] >> p & 1;
      if (c != UNCHOSEN && (!points || (c != EMPTY && c >= s->npiles[l])))
        return pf_fail(err, "seat %d's choice %d at level %d is impossible", p, c, l);
    }
  }
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Views                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* What a card does, for people: "+1 per green card", "3 if some colour has 4+ cards". */
static void card_text(pf_card c, pf_buf *out) {
  int x = pf_pap_a(c), y = pf_pap_b(c), sign = pf_pap_sign(c);
  const char *colour = pf_pap_colour_name(pf_pap_c(c));
  switch (pf_pap_type(c)) {
  case PF_PAP_SCORE: pf_buf_printf(out, "%+d", sign); break;
  case PF_PAP_MATCH: pf_buf_printf(out, "%+d per %s card", sign, colour); break;
  case PF_PAP_DIFF: pf_buf_printf(out, "%d if all 4 colours", x); break;
  case PF_PAP_GROUP: pf_buf_printf(out, "%d if some colour has %d+ cards", x, y); break;
  case PF_PAP_SPECIFIC: pf_buf_printf(out, "%d if %d+ %s cards", x, y, colour); break;
  case PF_PAP_NUMCARDS: pf_buf_printf(out, "%d if %d+ cards", x, y); break;
  case PF_PAP_EMPTY: pf_buf_printf(out, "%+d per textless card", sign); break;
  case PF_PAP_LAST: pf_buf_printf(out, "%+d while your last card", sign); break;
  case PF_PAP_HEAD: pf_buf_printf(out, "%+d while you are Headpointer", sign); break;
  default: pf_buf_printf(out, "textless %s", pf_pap_colour_name(pf_pap_colour(c))); break;
  }
}

static json_t *cards_json(const pap_state *s, const uint8_t *ks, int n) {
  json_t *a = json_array();
  for (int i = 0; i < n; i++) {
    char b[PF_CARD_STR];
    json_array_append_new(a, json_string(pf_card_str(drawn(s, ks[i]), b)));
  }
  return a;
}

static json_t *choice_json(int c) {
  return c == UNCHOSEN ? json_null() : c == EMPTY ? json_string("empty") : json_integer(c + 1);
}

/* The levels, round's piles first: each with its piles (cards bottom first, draw numbers),
 * the piles resolved so far, who points there and what each chose, as far as `seat` may know. */
static json_t *levels_json(const pap_state *s, int seat) {
  json_t *levels = json_array();
  for (int l = 0; l < s->depth; l++) {
    json_t *o = json_object(), *piles = json_array(), *numbers = json_array(), *choices = json_array();
    for (int p = 0; p < s->npiles[l]; p++) {
      uint8_t ks[MAX_DRAW];
      int n = pile_cards(s, l, p, ks);
      json_array_append_new(piles, cards_json(s, ks, n));
      json_t *nums = json_array();
      for (int i = 0; i < n; i++) json_array_append_new(nums, json_integer(ks[i] + 1));
      json_array_append_new(numbers, nums);
    }
    json_object_set_new(o, "piles", piles);
    json_object_set_new(o, "numbers", numbers);
    json_object_set_new(o, "resolved", json_integer(s->cursor[l]));
    json_t *ptrs = json_array();
    for (int p = 0; p < s->players; p++) {
      if (!(s->pointers[l] >> p & 1)) {
        json_array_append_new(choices, json_null());
        continue;
      }
      json_array_append_new(ptrs, json_integer(p));
      int c = s->choice[l][p];
      json_array_append_new(choices, c == UNCHOSEN ? json_null()
                                     : choice_visible(s, seat, l, p) ? choice_json(c) : json_string("chosen"));
    }
    json_object_set_new(o, "pointers", ptrs);
    json_object_set_new(o, "choices", choices);
    json_array_append_new(levels, o);
  }
  return levels;
}

static json_t *rows_json(const pap_state *s, int seat) {
  json_t *rows = json_array();
  for (int p = 0; p < s->players; p++) {
    json_t *o = json_object();
    int n = s->row_len[p];
    char b[PF_CARD_STR];
    json_object_set_new(o, "size", json_integer(n));
    json_object_set_new(o, "top", n ? json_string(pf_card_str(s->card[s->row[p][n - 1]], b)) : json_null());
    if (row_visible(s, seat, p)) {
      json_t *cards = json_array(), *values = json_array();
      row_stats st = stats_of(s, p);
      for (int i = 0; i < n; i++) {
        json_array_append_new(cards, json_string(pf_card_str(s->card[s->row[p][i]], b)));
        json_array_append_new(values, json_integer(row_value(s, p, &st, i)));
      }
      json_object_set_new(o, "cards", cards);
      json_object_set_new(o, "values", values);
    }
    json_array_append_new(rows, o);
  }
  return rows;
}

static void pap_view_json(const void *vs, int seat, json_t *obj) {
  const pap_state *s = vs;
  /* PAP-8: a score the seat cannot work out is not shown (null). */
  json_t *scores = json_object_get(obj, "scores");
  for (int p = 0; p < s->players; p++)
    if (!row_visible(s, seat, p)) json_array_set_new(scores, (size_t)p, json_null());
  json_object_set_new(obj, "head", json_integer(s->head));
  json_object_set_new(obj, "round", json_integer(s->round));
  json_object_set_new(obj, "deck", json_integer(s->ncards - s->next_slot));
  json_object_set_new(obj, "pile_variant", json_boolean(s->pile_variant));
  json_object_set_new(obj, "phase", json_string(s->over ? "over" : placing(s) ? "place" : "point"));
  uint8_t ks[MAX_DRAW];
  int nk = s->over ? 0 : unplaced(s, top_level(s), ks);
  json_object_set_new(obj, "unplaced_count", json_integer(nk));
  if (nk && unplaced_visible(s, seat)) {
    json_t *u = json_array();
    for (int i = 0; i < nk; i++) {
      char b[PF_CARD_STR];
      json_t *o = json_object();
      json_object_set_new(o, "number", json_integer(ks[i] + 1));
      json_object_set_new(o, "card", json_string(pf_card_str(drawn(s, ks[i]), b)));
      json_array_append_new(u, o);
    }
    json_object_set_new(obj, "unplaced", u);
  }
  json_object_set_new(obj, "levels", levels_json(s, seat));
  json_object_set_new(obj, "rows", rows_json(s, seat));
  json_t *tapped = json_array();
  for (int p = 0; p < s->players; p++)
    if (s->tapped >> p & 1) json_array_append_new(tapped, json_integer(p));
  json_object_set_new(obj, "tapped", tapped);
  json_object_set_new(obj, "discards", cards_json(s, s->disc, s->ndisc));
  json_object_set_new(obj, "out", json_integer(s->nout));
}

/* ---- text ---- */

static void put_card(pf_buf *out, pf_card c, const pf_style *st) {
  char b[64];
  pf_buf_puts(out, pf_card_render(c, st, b));
}

/* Adds c to the legend of card texts shown under the table, once. */
static void legend_add(pf_card *legend, int *n, pf_card c) {
  if (is_textless(c)) return;
  pf_card plain = with_colour(c, PF_PAP_RED);
  for (int i = 0; i < *n; i++)
    if (legend[i] == plain) return;
  if (*n < MAX_CARDS) legend[(*n)++] = plain;
}

static const char *seat_name(int p, int viewer, char buf[16]) {
  if (p == viewer) return "you";
  snprintf(buf, 16, "seat %d", p);
  return buf;
}

static void put_choice(pf_buf *out, int c) {
  if (c == EMPTY)
    pf_buf_puts(out, "empty space");
  else
    pf_buf_printf(out, "pile %d", c + 1);
}

static void log_text(const pap_event *e, int n, int viewer, pf_buf *out) {
  char b[16];
  for (int i = 0; i < n; i++, e++) {
    const char *where = e->level ? " of the split" : "";
    switch (e->kind) {
    case EV_REVEAL:
      pf_buf_printf(out, "  %s:", e->level ? "Pointing again after the split" : "Pointing");
      for (int p = 0; p < MAXP; p++)
        if (e->mask >> p & 1) {
          pf_buf_printf(out, " %s at ", seat_name(p, viewer, b));
          put_choice(out, e->choice[p]);
          pf_buf_puts(out, ";");
        }
      out->data[out->len - 1] = '\n';
      break;
    case EV_SCORED:
      pf_buf_printf(out, "    pile %d%s (%d card%s): %s scored it\n", e->pile + 1, where, e->ncards,
                    e->ncards == 1 ? "" : "s", seat_name(e->seat, viewer, b));
      break;
    case EV_DISCARDED:
      pf_buf_printf(out, "    pile %d%s (%d card%s): %s, discarded\n", e->pile + 1, where, e->ncards,
                    e->ncards == 1 ? "" : "s", e->mask ? "contested single card" : "nobody wanted it");
      break;
    case EV_SPLIT:
      pf_buf_printf(out, "    pile %d%s (%d cards): wanted by %d players, split\n", e->pile + 1, where, e->ncards,
                    popcount(e->mask));
      break;
    case EV_EMPTY_SCORES:
      pf_buf_printf(out, "  Empty space: %s alone tapped it and scored %d discarded card%s\n",
                    seat_name(e->seat, viewer, b), e->ncards, e->ncards == 1 ? "" : "s");
      break;
    default:
      pf_buf_printf(out, "  Empty space: tapped by %d players, so the %d discarded card%s left the game\n",
                    popcount(e->mask), e->ncards, e->ncards == 1 ? "" : "s");
      break;
    }
  }
}

static void rows_text(const pap_state *s, int seat, const pf_style *st, pf_card *legend, int *nlegend, pf_buf *out) {
  char b[16];
  pf_buf_puts(out, "Score rows (first scored first; values in brackets):\n");
  for (int p = 0; p < s->players; p++) {
    int n = s->row_len[p];
    pf_buf_printf(out, "  %-7s%s ", seat_name(p, seat, b), p == s->head ? "*" : " ");
    if (!row_visible(s, seat, p)) {
      pf_buf_printf(out, "%d card%s, top ", n, n == 1 ? "" : "s");
      if (n) {
        put_card(out, s->card[s->row[p][n - 1]], st);
        legend_add(legend, nlegend, s->card[s->row[p][n - 1]]);
      } else {
        pf_buf_puts(out, "-");
      }
      pf_buf_puts(out, "; score hidden (pile variant)\n");
      continue;
    }
    row_stats rs = stats_of(s, p);
    for (int i = 0; i < n; i++) {
      pf_card c = s->card[s->row[p][i]];
      put_card(out, c, st);
      if (!is_textless(c)) pf_buf_printf(out, "(%+d)", row_value(s, p, &rs, i));
      pf_buf_puts(out, " ");
      legend_add(legend, nlegend, c);
    }
    pf_buf_printf(out, "%s= %d\n", n ? "" : "(none) ", score_of(s, p));
  }
}

static void pap_view_text(const void *vs, int seat, const pf_style *st, pf_buf *out) {
  const pap_state *s = vs;
  pf_card legend[MAX_CARDS];
  int nlegend = 0;
  char b[16];
  pf_buf_printf(out, "Point-a-Pile%s, round %d. Headpointer (*): %s. Deck: %d card%s left.\n",
                s->pile_variant ? " (pile variant)" : "", s->round, seat_name(s->head, seat, b),
                s->ncards - s->next_slot, s->ncards - s->next_slot == 1 ? "" : "s");
  rows_text(s, seat, st, legend, &nlegend, out);
  if (s->nprev) {
    pf_buf_puts(out, s->over ? "The round before the last:\n" : "Last round:\n");
    log_text(s->prev, s->nprev, seat, out);
  }
  if (s->nlog) {
    pf_buf_puts(out, s->over ? "The last round:\n" : "This round so far:\n");
    log_text(s->log, s->nlog, seat, out);
  }
  if (s->over) goto legend;
  for (int l = 0; l < s->depth; l++) {
    pf_buf_printf(out, l ? "Split of pile %d (level %d), piles bottom card first:\n" : "Piles, bottom card first:\n",
                  l ? s->cursor[l - 1] + 1 : 0, l);
    for (int p = 0; p < s->npiles[l]; p++) {
      uint8_t ks[MAX_DRAW];
      int n = pile_cards(s, l, p, ks);
      pf_buf_printf(out, "  %d:", p + 1);
      if (p < s->cursor[l]) pf_buf_puts(out, " (resolved)");
      if (l < top_level(s) && p == s->cursor[l]) pf_buf_puts(out, " (being split)");
      for (int i = 0; i < n; i++) {
        pf_buf_printf(out, " c%d ", ks[i] + 1);
        put_card(out, drawn(s, ks[i]), st);
        legend_add(legend, &nlegend, drawn(s, ks[i]));
      }
      pf_buf_putc(out, '\n');
    }
    if (s->npiles[l] == 0) pf_buf_puts(out, "  (none yet)\n");
  }
  uint8_t ks[MAX_DRAW];
  int l = top_level(s), nk = unplaced(s, l, ks);
  if (nk && unplaced_visible(s, seat)) {
    pf_buf_printf(out, "To place (%d):", nk);
    for (int i = 0; i < nk; i++) {
      pf_buf_printf(out, " c%d ", ks[i] + 1);
      put_card(out, drawn(s, ks[i]), st);
      legend_add(legend, &nlegend, drawn(s, ks[i]));
    }
    pf_buf_putc(out, '\n');
  } else if (nk) {
    pf_buf_printf(out, "The Headpointer has %d drawn card%s still to place.\n", nk, nk == 1 ? "" : "s");
  } else {
    pf_buf_puts(out, "Pointing:");
    for (int p = 0; p < s->players; p++) {
      if (!(s->pointers[l] >> p & 1)) continue;
      int c = s->choice[l][p];
      pf_buf_printf(out, " %s ", seat_name(p, seat, b));
      if (c == UNCHOSEN)
        pf_buf_puts(out, "to choose");
      else if (choice_visible(s, seat, l, p))
        put_choice(out, c);
      else
        pf_buf_puts(out, "has chosen");
      pf_buf_puts(out, ";");
    }
    out->data[out->len - 1] = '\n';
  }
legend:
  if (!nlegend) return;
  pf_buf_puts(out, "Card texts (any colour):");
  for (int i = 0; i < nlegend; i++) {
    char name[PF_CARD_STR];
    pf_buf_printf(out, "%s %s ", i % 3 ? ";" : "\n ", pf_card_str(legend[i], name) + 2); /* no colour */
    card_text(legend[i], out);
  }
  pf_buf_putc(out, '\n');
}

/* "put c4 (G:S+, +1) on pile 2", "point at pile 2 (3 cards)"; another seat's choice is told
 * only as "points at a pile or empty space" until the reveal. */
static void pap_describe(const void *vs, pf_move m, int viewer, const pf_style *st, pf_buf *out) {
  const pap_state *s = vs;
  int l = top_level(s);
  if (MV_KIND(m) == MV_PLACE) {
    int k = MV_A(m), p = MV_B(m);
    pf_card c = drawn(s, k); /* face up once placed: everyone may know it */
    (void)viewer;
    pf_buf_printf(out, "put c%d ", k + 1);
    put_card(out, c, st);
    pf_buf_puts(out, " (");
    card_text(c, out);
    pf_buf_puts(out, ") ");
    pf_buf_printf(out, p == s->npiles[l] ? "on a new pile %d" : "on pile %d", p + 1);
    return;
  }
  int actor = next_pointer(s);
  if (viewer != PF_VIEW_ALL && viewer != actor) {
    pf_buf_puts(out, "points (hidden until everyone has chosen)");
    return;
  }
  if (MV_B(m) == EMPTY) {
    pf_buf_puts(out, "tap empty space");
    return;
  }
  uint8_t ks[MAX_DRAW];
  int n = pile_cards(s, l, MV_B(m), ks);
  pf_buf_printf(out, "point at pile %d:", MV_B(m) + 1);
  for (int i = 0; i < n; i++) {
    pf_buf_putc(out, ' ');
    put_card(out, drawn(s, ks[i]), st);
  }
}

/* ------------------------------------------------------------------------------------------ */
/* The description                                                                            */
/* ------------------------------------------------------------------------------------------ */

static const pf_option_desc OPTIONS[] = {
    [OPT_PILE] = {"pile", PF_OPT_BOOL, 0, 0, 1, "the harder variant: score rows are face-up piles (PAP-8)"},
};

static const char RULES[] =
    "Point-a-Pile (point-a-pile), 2-6 players. Rulings PAP-1..PAP-8 of RULINGS.md; the cards are\n"
    "those of point-a-pile-cards.md.\n"
    "\n"
    "PAP-1 Deck. Generated for each game from its seed: 54 regular cards, each of a type picked by\n"
    "      weight (of 15: textless 7; Score, Color Match, Color Diff, Color Group, Color Specific,\n"
    "      Num Cards, Empty Reward 1 each; Last Reward and Head Reward 0.5 each), its placeholders\n"
    "      filled at random; then colours dealt from a shuffled pool of ceil(0.3n) red, ceil(0.3n)\n"
    "      green, ceil(0.2n) blue, ceil(0.2n) purple (56 for 54 cards; 2 stay unused); then the\n"
    "      deck is shuffled. Records store the generated cards, so a record replays without the\n"
    "      generator.\n"
    "PAP-2 Players. 2-6. Seat 0 is the first Headpointer; the role passes to the next seat when\n"
    "      the next round begins.\n"
    "PAP-3 Making piles. The Headpointer draws 2N cards (all that is left, if fewer), sees them\n"
    "      all (the others see each card as it is placed), and places them one at a time, in any\n"
    "      order, each on one of at most N piles; a card placed later lies on top. A new pile\n"
    "      takes the next number.\n"
    "PAP-4 Pointing. Every player, the Headpointer too, chooses a pile or empty space at once with\n"
    "      the others: the engine asks the seats in seat order, and nobody sees another's choice\n"
    "      until all have chosen.\n"
    "PAP-5 Resolution, pile by pile in pile order. Nobody: the pile is discarded. One player:\n"
    "      they score it, its cards go to the end of their score row from the bottom card up (the\n"
    "      top card becomes their last card scored). Several: a 1-card pile is discarded;\n"
    "      otherwise the Headpointer splits it into at least two piles (at most N; numbered from 1\n"
    "      again, placed as in PAP-3), only those players point again (empty space allowed), and\n"
    "      the split piles are resolved the same way before the next pile.\n"
    "PAP-6 Empty space. A player tapped empty space this round if any of their choices in the\n"
    "      round was empty space. At the end of the round, if exactly one player did, they score\n"
    "      every card discarded in the round, in the order discarded (each pile bottom card\n"
    "      first); otherwise those cards leave the game.\n"
    "PAP-7 Score and end. A player's score is the sum of the values of the cards in their row,\n"
    "      each worked out against the whole row (thresholds are 'at least'; Head Reward counts\n"
    "      for the Headpointer of the round in progress, or of the last round once the game is\n"
    "      over). At the end of a round, if any player has 10 points or more, the highest score\n"
    "      wins; when the deck is empty at the start of a round, the game ends and the highest\n"
    "      score wins. Equal best scores share the win (G-6).\n"
    "PAP-8 Option pile=true. Each score row is one face-up pile: the others see only its top card\n"
    "      (the last scored) and its size, so not its score; its owner sees all of it.\n"
    "\n"
    "Cards (colour R red, G green, B blue, P purple; X, Y from 2-5, W +1 or -1):\n"
    "  R       textless, 0          R:S+    Score: +1 (R:S- -1)\n"
    "  R:M+G   +1 per green card    R:D4    4 if the row has all 4 colours\n"
    "  R:G34   3 if some colour has at least 4 cards\n"
    "  R:C25B  2 if the row has at least 5 blue cards\n"
    "  R:N46   4 if the row has at least 6 cards\n"
    "  R:E+    +1 per textless card R:L+    +1 while it is the row's last card\n"
    "  R:H+    +1 while its owner is the Headpointer\n"
    "\n"
    "Moves: c4>2 (the Headpointer puts drawn card 4, counting in draw order from 1, on pile 2; the\n"
    "next number starts a new pile), @2 (point at pile 2), @empty (tap empty space). When a\n"
    "split pile is placed again, of equal cards only the first is offered (G-5).\n";

const pf_game pf_game_point_a_pile = {
    .version = PF_GAME_VERSION,
    .id = "point-a-pile",
    .title = "Point-a-Pile",
    .min_players = 2,
    .max_players = MAXP,
    .options = OPTIONS,
    .noptions = sizeof OPTIONS / sizeof OPTIONS[0],
    .state_size = sizeof(pap_state),
    .rules = RULES,
    .start = pap_start,
    .to_move = pap_to_move,
    .legal = pap_legal,
    .apply = pap_apply,
    .move_str = pap_move_str,
    .move_parse = pap_move_parse,
    .scores = pap_scores,
    .winners = pap_winners,
    .view_json = pap_view_json,
    .view_text = pap_view_text,
    .determinize = pap_determinize,
    .check = pap_check,
    .current_deal = pap_current_deal,
    .describe = pap_describe,
};
