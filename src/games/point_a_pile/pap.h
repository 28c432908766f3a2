/*
 * pap.h - Point-a-Pile's private header: the state, the move codes and what the files of the game
 * share (their functions are pap_-prefixed; what one file alone uses stays static in it).
 *
 * Point-a-Pile (RULINGS PAP-1 .. PAP-9; rules/point-a-pile-cards.md, the rules text
 * src/games/rules/point-a-pile.md): every round the Headpointer makes piles of drawn cards,
 * everyone points at one at once, and the piles go to whoever alone wanted them; four expansions
 * (PAP-9) add rules, missions, shy cards and actions. The game is split by job:
 *   cards.c, .h     the cards: codes, notation, names and texts (the notation the core is given)
 *   deck.c          the generated deck and mission deck (PAP-1, PAP-9), and their checks
 *   round.c         card values and scores, piles, the rules in force and shy cards (the police
 *                   and shy hooks), the course of a round: drawing, pointing, the reveal, resolving
 *   actions.c       the Action cards (PAP-9 actions) and the windows that offer them
 *   moves.c         legal moves, applying them, their notation
 *   views.c         what a viewer sees: the JSON view, its zones, the text view, describing moves
 *   thumb.c         the greedy bot's rule of thumb
 *   learn.c         dense actions and the length bound, for learning (docs/actions.md)
 *   point_a_pile.c  start, scores, deals, hidden information, the check, and the pf_game it exports
 *
 * The deck is generated from the seed (PAP-1) and kept in card[]: slot i is the i-th card from
 * the top. A round draws slots first .. first+ndrawn-1; inside the round a card is named by its
 * draw index k (0-based; the move notation counts from 1) and has a place: a level, a pile at
 * that level, and a placement number (higher lies on top). The missions (PAP-9) are a deck of
 * their own, the game's second deal: seat p's mission is mission[p].
 *
 * Levels. Level 0 holds the round's piles. When several players point at a pile of two or more
 * cards, its cards move up to a new level, where the Headpointer places them again on new piles
 * and only those players point; when that level is resolved, the one below goes on with its
 * next pile (PAP-5). So the levels form a stack, and only the top one is ever being placed or
 * pointed at.
 *
 * Simultaneous pointing (PAP-4) is asked seat by seat, in seat order. A choice is kept in the
 * state and shown to nobody else until the last pointer of the level has chosen; then all are
 * revealed at once and the level is resolved inside apply (no seat has a choice in it). Under
 * the rule Trailing Reward the trailing players are asked after the others, whose choices are
 * revealed to everyone when the last of them has chosen.
 *
 * The round, with every expansion on (each step is skipped when it has nothing to ask):
 *   1. actions before the piles are made (window W_DRAW: Draw More);
 *   2. the Headpointer draws and places the cards (shy: at least one pile without a Shy card on
 *      top);
 *   3. actions before pointing (W_POINT: Headpointer, Merge, Discard, Switch, Reorder, Color
 *      Stop, Action Stop); then the rule in force is fixed (police) and the standings of the
 *      level (who leads, who trails) are noted;
 *   4. pointing, then the reveal; players who broke the rule are out of the round (police);
 *   5. actions after the reveal (W_REVEAL: Swap, Steal, Random, Take All, Take None, Trade,
 *      Change Mind, Redo), then the level is resolved; a split goes back to 2 for its level
 *      (without the windows of 1 and 3), and its reveal has a window of its own.
 * A window asks, in seat order from the Headpointer, every seat that may use an action now (or,
 * with `pile`, may hold one unseen): each uses one or passes; after an action, those who passed
 * are asked again; the window closes when all have passed since the last action. A player uses
 * one action per round, so a round asks at most a bounded number of times. Random (rock-paper-
 * scissors) and the cards given by Trade and Switch are moves of their own inside a window.
 *
 * Hidden information: the undrawn deck (its cards too: the deck is generated, so nobody knows
 * which cards it holds), the drawn cards the Headpointer has not yet placed (only the
 * Headpointer sees them, PAP-3), the choices and throws not yet revealed, the other players'
 * missions, and with `pile` (PAP-8) the other players' score rows below their top card, and so
 * their scores.
 */
#ifndef PF_GAMES_PAP_H
#define PF_GAMES_PAP_H

#include <stdbool.h>
#include <stdint.h>

#include "core/game.h"
#include "games/point_a_pile/cards.h"

/* ------------------------------------------------------------------------------------------ */
/* State                                                                                      */
/* ------------------------------------------------------------------------------------------ */

#define MAXP 6
#define BASE_CARDS 54    /* the regular cards (PAP-1) */
#define RULE_CARDS 15    /* police (PAP-9) */
#define SHY_CARDS 15     /* shy */
#define ACTION_CARDS 20  /* actions */
#define MISSION_CARDS 12 /* missions: a deck of their own */
#define MAX_CARDS 128    /* room for every expansion's cards: 104 */
#define DRAW_MORE 6      /* cards Draw More adds to the draw */
#define MAX_DRAW (2 * MAXP + DRAW_MORE * MAXP) /* 2N, and 6 more per Draw More (one per player) */
#define MAX_LEVELS MAX_DRAW                    /* every split leaves at least one card behind */
#define MAX_LOG 160 /* events of a round: at most 3 per drawn card, the actions and their throws */
#define RPS_THROWS 3 /* Random: rock-paper-scissors is thrown at most 3 times */
#define NONE 0xFF
#define GONE 0xFE      /* lvl[] of a drawn card that was scored or discarded */
#define EMPTY 0xFE     /* a choice: empty space (PAP-4, PAP-6) */
#define UNCHOSEN 0xFF  /* a choice not made yet, or a seat that does not point at this level */

enum { OPT_PILE, OPT_POLICE, OPT_MISSIONS, OPT_SHY, OPT_ACTIONS };

/* The families of cards: the generator draws each family's cards by its own weights. */
enum { FAM_REGULAR, FAM_RULE, FAM_SHY, FAM_ACTION, FAM_MISSION, FAMILIES };

/* The moments of a round at which actions are offered (PAP-9). */
enum { W_NONE, W_DRAW, W_POINT, W_REVEAL };

/* A card being handed over inside an action: Trade gives one to each other player, Switch one to
 * the player whose card was taken. */
enum { PEND_NONE, PEND_TRADE, PEND_SWITCH };

/* Move codes: the kind in bits 16-23, arguments a (bits 8-15) and b (bits 0-7).
 *   MV_PLACE   a: draw index, b: pile             MV_POINT  b: pile or EMPTY
 *   MV_PASS    -                                  MV_THROW  b: 0 rock, 1 paper, 2 scissors
 *   MV_GIVE    b: position in the giver's row     MV_ACT+k  action k, arguments as PAP_ACTS[k].arg */
enum { MV_PLACE = 1, MV_POINT = 2, MV_PASS = 3, MV_THROW = 4, MV_GIVE = 5, MV_ACT = 16 };
#define MOVE(kind, a, b) ((pf_move)(kind) << 16 | (pf_move)(a) << 8 | (pf_move)(b))
#define MV_KIND(m) ((int)((m) >> 16))
#define MV_A(m) ((int)(((m) >> 8) & 0xFF))
#define MV_B(m) ((int)((m)&0xFF))

/* What the round's log remembers for people: reveals, what became of each pile, and the
 * expansions' events. */
enum {
  EV_REVEAL,
  EV_SCORED,
  EV_DISCARDED,
  EV_SPLIT,
  EV_EMPTY_SCORES,
  EV_EMPTY_LOST,
  EV_BROKE,   /* seat broke the rule `act` and is out of the round */
  EV_ACTION,  /* seat used action `act` (arguments a, b as in the move); card[0] the action card,
               * card[1] the card it moved, if any */
  EV_THROWS,  /* rock-paper-scissors for pile `pile`: choice[] the throws, mask who threw, a the
               * throw's number, b who lost it */
  EV_GIVE,    /* seat gave card[0] to seat a (and for Switch took card[1]) */
  EV_MISSION, /* seat's mission is met */
};
typedef struct pap_event {
  uint8_t kind, level, pile, seat, ncards, mask;
  uint8_t choice[MAXP]; /* EV_REVEAL: every seat's choice at the level (UNCHOSEN if none) */
  uint8_t act, a, b;
  pf_card card[2];
} pap_event;

/* What a seat's score reads of its row (round.c: pap_score_of), kept as cards join and leave it, so
 * that a score is a few sums, not a pass over the row (the game's end is checked after every pile
 * scored): the row's cards of each colour and its textless ones, and the fields of the cards whose
 * values add up, by what they multiply or by the least count their X asks for (point-a-pile-cards.md),
 * each of the latter kept for every count k as the X of the cards that k reaches. A LAST card counts
 * only while it is the row's last, which the row says. A function of the row's cards alone, so the
 * state stays canonical (game.h: determinize); pap_check recounts it. */
#define TALLY_Y 6 /* counts 0-5: Y is at most 5 */
#define TALLY_H 7 /* lengths 0-6: H is at most 6 */
typedef struct pap_tally {
  uint8_t count[PF_PAP_COLOURS], textless;
  int16_t score;                             /* S of the SCORE cards */
  int16_t match[PF_PAP_COLOURS];             /* W of the MATCH cards, by their colour C */
  int16_t empty, head, diff;                 /* W of EMPTY, S of HEAD, X of DIFF */
  int16_t group[TALLY_Y];                    /* X of the GROUP cards with Y <= k, by k */
  int16_t specific[PF_PAP_COLOURS][TALLY_Y]; /* X of the SPECIFIC cards of colour C with Y <= k */
  int16_t numcards[TALLY_H];                 /* X of the NUMCARDS cards with H <= k */
} pap_tally;

typedef struct pap_state {
  /* First, before the cards: what pap_count_events reads of the position before a move (round,
   * over, nlog; point_a_pile.c: events_before). */
  uint8_t players, ncards, next_slot, pile_variant;
  uint8_t police, missions, shy, actions; /* the expansions (PAP-9) */
  uint8_t head;  /* the Headpointer of the round in progress (or of the last round) */
  uint8_t over;
  uint8_t met;   /* missions: the seats whose mission was met at the end of the last round */
  uint16_t round; /* rounds begun */
  uint8_t nlog, nprev; /* events in log and prev */
  uint16_t changes; /* one more at every change to a score row or of the Headpointer (the scores
                     * change only with one): the standing key */
  uint8_t unchecked; /* the seats whose score may have changed since the game's end was last
                      * checked (pap_game_ends): the others' are as they were, below the goal */
  pf_card card[MAX_CARDS];         /* the deck order; slot 0 was the top card */
  pf_card mission[MISSION_CARDS];  /* the mission deck (deal 2); seat p drew mission[p] */
  uint8_t row[MAXP][MAX_CARDS];    /* each seat's score row, slots, first scored first */
  uint8_t row_len[MAXP];
  pap_tally tally[MAXP];           /* of each row */
  uint8_t out[MAX_CARDS];          /* slots of the cards that left the game (PAP-6, used actions) */
  uint8_t nout;
  /* The round in progress. */
  uint8_t first, ndrawn;
  uint64_t unplaced;      /* the draw indices (bit k) of the top level's cards not yet placed */
  uint8_t lvl[MAX_DRAW];  /* the level of each drawn card; GONE once scored or discarded */
  uint8_t pile[MAX_DRAW]; /* its pile at that level; NONE while not placed */
  uint16_t pos[MAX_DRAW]; /* when it was placed: a later card lies on top */
  uint16_t seq;
  uint8_t depth; /* levels in use */
  uint8_t npiles[MAX_LEVELS], cursor[MAX_LEVELS], pointers[MAX_LEVELS];
  uint8_t choice[MAX_LEVELS][MAXP];
  uint8_t late[MAX_LEVELS];    /* police, Trailing Reward: pointers asked after the others */
  uint8_t leaders[MAX_LEVELS]; /* seats (jointly) in the lead when the level's pointing began */
  uint8_t voided[MAX_LEVELS];  /* seats whose choice no longer counts: out by the rule, or beaten
                                * by Take All, Trade or rock-paper-scissors */
  uint8_t broke[MAX_LEVELS];   /* seats that broke the rule at the level */
  uint8_t dropped[MAX_LEVELS]; /* piles Take None discards */
  uint8_t tapped;             /* seats that tapped empty space this round (PAP-6) */
  uint8_t disc[MAX_DRAW];     /* draw indices discarded this round, in order */
  uint8_t ndisc;
  uint8_t rule;      /* police: the rule in force this round (its kind), 0 for none */
  uint8_t ruled;     /* the round's pointing began: the rule is fixed */
  uint8_t outs;      /* police: seats out of the round */
  uint8_t window;    /* actions: the moment asking for actions (W_*), W_NONE otherwise */
  uint8_t asked;     /* the seat the window asks */
  uint8_t passed;    /* seats that passed since the window opened or the last action */
  uint8_t acted;     /* seats that used an action this round */
  uint8_t stopped;   /* Action Stop was used this round */
  uint8_t redone;    /* Redo: the round's cards are placed again, face up */
  uint8_t ndrawmore; /* Draw More used this round */
  uint8_t rps_pile;  /* Random: the pile played for, NONE when no game is on */
  uint8_t rps_left, rps_throws;
  uint8_t rps[MAXP]; /* the throws of the current throw, UNCHOSEN until made */
  uint8_t pend, pend_seat, pend_to, pend_pos; /* Trade or Switch: who gives, to whom, what */
  pap_event log[MAX_LOG];  /* this round */
  pap_event prev[MAX_LOG]; /* the round before */
} pap_state;

static inline int slot_of(const pap_state *s, int k) { return s->first + k; }
static inline pf_card drawn(const pap_state *s, int k) { return s->card[s->first + k]; }
static inline int top_level(const pap_state *s) { return s->depth - 1; }
static inline bool is_textless(pf_card c) { return pf_pap_type(c) == PF_PAP_COLOR; }
static inline bool is_shy(pf_card c) { return pf_pap_type(c) == PF_PAP_SHY; }
static inline bool is_action(pf_card c, int kind) {
  return pf_pap_type(c) == PF_PAP_ACTION && pf_pap_kind(c) == kind;
}
static inline pf_card row_card(const pap_state *s, int seat, int i) { return s->card[s->row[seat][i]]; }
/* Bits set in x, without libgcc's call (the build does not assume the popcnt instruction). */
static inline int popcount64(uint64_t x) {
  x -= (x >> 1) & 0x5555555555555555ull;
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return (int)((x * 0x0101010101010101ull) >> 56);
}
static inline int popcount(unsigned x) { return popcount64(x); }
/* A score row or the Headpointer changed: the seats of `seats` (a mask) may score otherwise. */
static inline void pap_changed(pap_state *s, int seats) {
  s->changes++;
  s->unchecked |= (uint8_t)seats;
}
/* A card's notation, as the game writes its cards (cards.h): "R:G34"; "#<code>" for a code that is
 * not one. */
static inline char *pap_card_str(pf_card c, char *buf) { return pf_card_str_in(&pf_pap_notation, c, buf); }

/* ------------------------------------------------------------------------------------------ */
/* What the files share                                                                       */
/* ------------------------------------------------------------------------------------------ */

/* deck.c: generating the decks (PAP-1, PAP-9) and checking given ones */
static inline pf_card pap_with_colour(pf_card c, int colour) { return (pf_card)((c & ~(3 << 12)) | colour << 12); }
/* The family of a card, by its type. */
static inline int pap_family_of(pf_card c) {
  static const uint8_t FAMILY[16] = {[PF_PAP_RULE] = FAM_RULE, [PF_PAP_SHY] = FAM_SHY, [PF_PAP_ACTION] = FAM_ACTION,
                                     [PF_PAP_MISSION] = FAM_MISSION, [PF_PAP_MISSION_HL] = FAM_MISSION};
  return FAMILY[pf_pap_type(c)];
}
int pap_family_total(const pap_state *s, int f);
pf_card pap_draw_card(pf_rng *r, int family);
pf_card pap_draw_mission(pf_rng *r);
void pap_colour_pool(int n, int pool[PF_PAP_COLOURS]);
void pap_deal_colours(pf_card *cards, const uint8_t *idx, int n, const int left[PF_PAP_COLOURS], pf_rng *r);
void pap_draw_cards_of(pf_card *cards, const uint8_t *idx, const uint8_t *fam, int n, const int left[PF_PAP_COLOURS],
                       pf_rng *r);
int pap_generate_deck(const pap_state *s, pf_card *deck, uint64_t seed);
void pap_generate_missions(pf_card *mission, uint64_t seed);
int pap_deck_check(const pap_state *s, const pf_card *deck, int n, pf_error *err);
int pap_missions_check(const pf_card *m, int n, pf_error *err);

/* round.c: values and scores (PAP-7, PAP-9) */
typedef struct row_stats {
  int len, textless, colours, most, shy;
  int count[PF_PAP_COLOURS];
} row_stats;
row_stats pap_stats_of(const pap_state *s, int seat);
void pap_tally_card(pap_tally *t, pf_card c, int sign);
void pap_tally_row(const pap_state *s, int seat, pap_tally *t);
void pap_row_append(pap_state *s, int seat, int slot);
int pap_row_value(const pap_state *s, int seat, const row_stats *st, int i);
int pap_score_of(const pap_state *s, int seat);
/* The score seat's row would have with the drawn cards ks[0..n) added at its end (as many as fit). */
int pap_score_with(const pap_state *s, int seat, const uint8_t *ks, int n);
int pap_standing(const pap_state *s, bool worst);
/* round.c: piles */
int pap_top_of(const pap_state *s, int l, int p);
int pap_pile_size(const pap_state *s, int l, int p);
/* Cards to place are face up, for everyone, once they have lain in a pile: those of a split
 * (PAP-5) and those placed again after a Redo (PAP-9). */
static inline bool pap_unplaced_public(const pap_state *s) { return top_level(s) > 0 || s->redone; }
bool pap_unplaced_visible(const pap_state *s, int seat);
void pap_merge_piles(pap_state *s, int l, int from, int onto);
void pap_log_event(pap_state *s, pap_event e);
/* The piles are scanned on every move: inline, and without a branch per drawn card (a drawn
 * card's level and pile are in no order a branch could learn). */
/* The draw indices of pile p at level l, bottom first; returns how many. */
static inline int pap_pile_cards(const pap_state *s, int l, int p, uint8_t *out) {
  int n = 0;
  for (int k = 0; k < s->ndrawn; k++) {
    out[n] = (uint8_t)k;
    n += (s->lvl[k] == l) & (s->pile[k] == p);
  }
  for (int i = 1; i < n; i++) /* by when each was placed: a later card lies on top */
    for (int j = i; j > 0 && s->pos[out[j - 1]] > s->pos[out[j]]; j--) {
      uint8_t x = out[j];
      out[j] = out[j - 1], out[j - 1] = x;
    }
  return n;
}
/* The bits set in u, lowest first; returns how many. */
static inline int pap_bits(uint64_t u, uint8_t *out) {
  int n = 0;
  for (; u; u &= u - 1) out[n++] = (uint8_t)__builtin_ctzll(u);
  return n;
}
/* The draw indices of the top level's cards not yet placed, in draw order; returns how many. */
static inline int pap_unplaced(const pap_state *s, uint8_t *out) { return pap_bits(s->unplaced, out); }
/* Is the Headpointer placing cards at the top level? */
static inline bool pap_placing(const pap_state *s) { return s->unplaced != 0; }
/* The drawn cards of level l still to place, as `unplaced` holds them for the top level. */
static inline uint64_t pap_unplaced_of(const pap_state *s, int l) {
  uint64_t u = 0;
  for (int k = 0; k < s->ndrawn; k++) u |= (uint64_t)((s->lvl[k] == l) & (s->pile[k] == NONE)) << k;
  return u;
}
/* round.c: the police and shy hooks (PAP-9) */
bool pap_may_point(const pap_state *s, int seat, int l, int p);
bool pap_breaks(const pap_state *s, int l, int seat, int c);
int pap_rule_in_force(const pap_state *s);
bool pap_shy_ok(const pap_state *s, int k, int p);
/* pap_shy_ok for every placement of a level at once: what it reads of the level, found once. */
typedef struct pap_shy_level {
  bool all_shy;         /* every card of the top level is a Shy card */
  int plain_unplaced;   /* its cards still to place that are not Shy cards */
  unsigned plain_tops;  /* its piles whose top is not a Shy card (bit q) */
} pap_shy_level;
pap_shy_level pap_shy_of_level(const pap_state *s);
bool pap_shy_ok_at(const pap_state *s, const pap_shy_level *v, int k, int p);
/* round.c: the course of a round */
void pap_open_level(pap_state *s, int pointers);
void pap_begin_round(pap_state *s);
void pap_draw_cards(pap_state *s);
void pap_begin_pointing(pap_state *s);
void pap_piles_made(pap_state *s);
void pap_add_to_row(pap_state *s, int seat, int k);
int pap_take_from_row(pap_state *s, int seat, int i);
bool pap_game_ends(pap_state *s);
int pap_contenders(const pap_state *s, int l, int p);
void pap_settle(pap_state *s);
void pap_reveal(pap_state *s);
int pap_next_pointer(const pap_state *s);
int pap_next_thrower(const pap_state *s);
int pap_to_move(const void *vs);
int pap_choosing(const void *vs, int *seats);

/* actions.c: the Action cards (PAP-9 actions) */
/* The actions, by kind (cards.h):
 *   word    the move's word; the canonical move is the word, then ':' and its argument if any
 *   window  the moment of the round it is offered at
 *   arg     its argument, as the move code keeps it:
 *             0    none                                       drawmore
 *             'p'  a pile of the level (b)                    takeall:2
 *             'm'  a pile or empty space (b)                  mind:2, mind:empty
 *             'w'  two piles, the lower first (a, b)          swap:1+2
 *             'o'  a pile onto another (a onto b)             merge:3>1
 *             'c'  a drawn card of the level (a)              steal:c5
 *             'r'  a card of the player's own row (b)         reorder:3
 *             's'  a card of a seat's row (seat a, card b)    discard:p2.3
 *             'k'  a colour (b)                               colorstop:R
 *   does    what it does and needs, for refusals and the card's text (one line) */
typedef struct pap_act {
  const char *word;
  uint8_t window;
  char arg;
  const char *does;
} pap_act;
extern const pap_act PAP_ACTS[PF_PAP_ACTIONS + 1];
extern const char *const PAP_WINDOW_NAMES[]; /* by W_* */
extern const char *const PAP_THROWS[];       /* rock, paper, scissors */
int pap_action_pos(const pap_state *s, int seat, int kind);
int pap_action_targets(const pap_state *s, int seat, int kind, int ap, pf_move *moves, int n);
int pap_action_moves(const pap_state *s, int seat, pf_move *moves);
void pap_window_next(pap_state *s);
void pap_open_window(pap_state *s, int w);
void pap_rps_reveal(pap_state *s);
void pap_give(pap_state *s, int i);
void pap_use_action(pap_state *s, int seat, pf_move m);

/* moves.c */
int pap_legal(const void *vs, pf_move *moves);
pf_move pap_random_move(const void *vs, pf_rng *rng, int *count);
void pap_apply(void *vs, pf_move m);
void pap_move_str(const void *vs, pf_move m, char buf[PF_MOVE_STR]);
int pap_move_parse(const void *vs, const char *text, pf_move *m, pf_error *err);

/* point_a_pile.c: who may see what */
bool pap_row_visible(const pap_state *s, int seat, int p);
bool pap_mission_visible(const pap_state *s, int seat, int p);
bool pap_choice_visible(const pap_state *s, int seat, int l, int p);
bool pap_throw_visible(const pap_state *s, int seat, int p);

/* views.c */
void pap_view_write(const void *vs, int seat, pf_jw *w);
bool pap_score_hidden(const void *vs, int seat, int p);
void pap_view_text(const void *vs, int seat, const pf_style *st, pf_buf *out);
void pap_describe(const void *vs, pf_move m, int viewer, const pf_style *st, pf_buf *out);
void pap_move_zones(const void *vs, pf_move m, pf_move_zones *z);

/* thumb.c */
void pap_rate_moves(const void *vs, const pf_move *moves, int n, int64_t *rating);

/* learn.c: dense actions and the length bound */
int pap_action_count(int players, const pf_options *o);
int pap_action_index(const void *vs, pf_move m);
pf_move pap_action_move(const void *vs, int a);
long pap_max_length(int players, const pf_options *o);

#endif
