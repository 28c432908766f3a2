/*
 * game.h - the game interface: what every game gives the core, and what the core offers on top.
 *
 * A game is one pf_game description in the registry (games/registry.c). Its state is one flat
 * struct of state_size bytes with no pointers into itself, so a clone is a memcpy. The core
 * allocates the state; the game only fills it in. The rules code does no I/O, reads no clock, and
 * draws randomness only from a generator kept in its own state (G-4).
 *
 * Turn structure. to_move() says who acts next: a seat (0..N-1), PF_CHANCE, or PF_NOBODY when the
 * game is over. Every decision is a move of one seat, so
 *   - an out-of-turn answer (Thief's re-capture, THF-5) is simply a position where another seat
 *     is to move;
 *   - simultaneous choices (Point-a-Pile, PAP-4) are asked seat by seat: each choice is stored in
 *     the state, and the views of the seats asked later do not show it until all have chosen.
 * Chance events after a deal (G-4) are positions where PF_CHANCE is to move: chance_sample draws
 * the outcome from the state's generator and applies it; chance_apply applies a recorded outcome.
 *
 * Moves are pf_move codes, meaningful only to their game and position. Each legal move has exactly
 * one canonical string (G-9); move_parse accepts the forms of the rulings, case-insensitively,
 * and refuses a move that is not legal in the position with the reason why.
 *
 * The struct below is the contract, in three parts: what every game must give (each with its
 * one-line contract), what a game may give (NULL when it has no use for it, and called only
 * through one core helper each, pf_describe, pf_rate_moves ..., that says what NULL means, as
 * SQLite checks its optional io_methods), and the speed hooks, which a game may give to be faster
 * and which the conformance suite holds to the slow path. Every game is in this tree, so there is
 * no version field: a method added here is added to every game that needs it in the same change.
 * src/games/template/template.c is the smallest complete game, written to be read first.
 *
 * Two headers go with it: core/view.h, the view writer (the JSON view and the zones a game's
 * view_write writes), and core/measure.h, what a game measures itself with (the bench's and the
 * strength runs' cases) and the lobby's copy.
 */
#ifndef PF_GAME_H
#define PF_GAME_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/card.h"
#include "core/deck.h"
#include "core/jsontext.h"
#include "core/option.h"
#include "core/rng.h"

#define PF_MAX_PLAYERS 12
#define PF_WIN_UNIT 27720 /* lcm(1..PF_MAX_PLAYERS): a win shared by k seats is PF_WIN_UNIT / k of it
                           * each, exactly (sim's sums, ismcts's rewards, bench's wins) */
#define PF_MAX_MOVES 512   /* more than any position of any game has */
#define PF_MOVE_STR 256    /* room for any canonical move string, chance outcomes included (a
                              * Skip-Bo Junior reshuffle lists up to 90 cards: 188 characters) */
#define PF_MAX_DEALS 1024  /* deals a setup or record may give: a whole long match (GHA-6) */
#define PF_MAX_EVENTS 8    /* a game's own counters (events) */
#define PF_MOVE_CHANCE UINT32_MAX /* count_events: the move was a chance outcome */

#define PF_CHANCE (-1) /* to_move: a chance event */
#define PF_NOBODY (-2) /* to_move: the game is over */
#define PF_VIEW_ALL (-1) /* a view of everything (replays after the game, tests) */
#define PF_VIEW_PUBLIC (-3) /* a view of what is public only: what a spectator sees (the server).
                             * Everything a seat's view hides from another seat, it hides too. */
#define PF_VIEW_HANDS (-4)  /* for determinize only, never a view: an observer who sees what every
                             * seat alone sees (hands, missions, choices), not what no seat sees
                             * (the stock, face-down cards, the future): the hand-reading ceiling
                             * of the bots' measuring instruments (bots/bot.h) */

/* Whether `viewer` (a seat, PF_VIEW_ALL, PF_VIEW_PUBLIC or PF_VIEW_HANDS) may see what seat p
 * alone may see (its hand, its secret mission): p itself, the full view and PF_VIEW_HANDS, never
 * the public. Viewers are negative for all but seats, so `viewer < 0` never means "everything". */
static inline bool pf_view_sees_own(int viewer, int p) {
  return viewer == PF_VIEW_ALL || viewer == PF_VIEW_HANDS || viewer == p;
}

typedef uint32_t pf_move;

/* Where a legal move takes a card from and to, in the zones of the JSON view (docs/views.md). */
#define PF_ZONE_ID 32 /* room for any zone id and its NUL */
typedef struct pf_move_zones {
  char from[PF_ZONE_ID]; /* the zone the card is picked from; "" for none */
  pf_card card;          /* the card moved; PF_CARD_NONE for none */
  char to[PF_ZONE_ID];   /* the zone it goes to, or the zone the move points at; "" for none */
} pf_move_zones;

/* How to start a game. The deals are copied into the state's reach by pf_run; a game keeps a
 * pointer to them, so they must outlive the state (pf_run owns them). */
typedef struct pf_setup {
  int players;
  pf_options options;
  uint64_t seed;         /* deal k that is not given is shuffled with pf_rng_seed(seed, k) */
  int ndeals;            /* deals given explicitly, deal 0 first (G-3) */
  const pf_deal *deals;
} pf_setup;

#define PF_MAX_ACTIONS 10000 /* the most dense actions a game may have (action_count) */
#define PF_NO_MOVE UINT32_MAX   /* action_move: the action names no move */
#define PF_MAX_CHANCE 64        /* the most outcomes chance_outcomes lists */
/* One outcome of a chance event (chance_outcomes). */
typedef struct pf_chance_outcome {
  char text[PF_MOVE_STR]; /* its canonical string, as chance_apply takes it: "*7H" */
  uint32_t id;            /* distinct among the outcomes of the event, below PF_MAX_CHANCE */
  double p;               /* its probability */
} pf_chance_outcome;

/* The chance stream of a game is pf_rng_seed(seed, PF_STREAM_CHANCE). */
#define PF_STREAM_CHANCE 0x43484E43u

typedef struct pf_measures pf_measures; /* core/measure.h */

/* ---- the game: the rules contract ---- */

/* The REQUIRED fields and methods come first, each with its contract; then the optional ones,
 * NULL (or 0) when the game has no use for them, each called only through the core's helper
 * named beside it (below the struct), which supplies what its absence means; last the optional
 * speed hooks, which change nothing but the time taken. Every game initialises its pf_game with
 * designated initialisers (.start = ...), so the order of the fields is free. */
typedef struct pf_game {
  /* ---- required: what it is ---- */
  const char *id;                /* what users type: "steal-the-pile" */
  const char *title;             /* what people read: "Steal the Pile" */
  int min_players, max_players;  /* the player counts it plays, 1 .. PF_MAX_PLAYERS */
  const pf_option_desc *options; /* its options (core/option.h), noptions of them; may be none */
  int noptions;
  size_t state_size;             /* the bytes of its flat state: a clone is a memcpy */
  pf_move move_bound;            /* every move code is below it (Python's num_distinct_actions) */
  const char *rules;             /* the rules as a person learns them (games/rules.h), citing rulings */
  const pf_measures *measures;   /* its bench and strength cases and the lobby's copy (core/measure.h) */

  /* ---- required: the rules ---- */
  /* Starts a game from the setup: deals given, or shuffled from the seed; refuses a bad one. */
  int (*start)(void *st, const pf_setup *setup, pf_error *err);
  /* Who acts next: a seat, PF_CHANCE or PF_NOBODY. */
  int (*to_move)(const void *st);
  /* The legal moves of the seat to move, in a fixed order; returns how many (> 0 when a seat is to move). */
  int (*legal)(const void *st, pf_move *moves);
  /* Plays a legal move of the seat to move. */
  void (*apply)(void *st, pf_move m);
  /* Every seat's score: running during the game, final when over (the full state's: see score_hidden). */
  void (*scores)(const void *st, int *scores);
  /* When over: the winning seats (G-6), distinct; returns how many (0: nobody won). */
  int (*winners)(const void *st, int *seats);
  /* Recomputes what can be recomputed and checks it (card conservation at least); 0 or the fault. */
  int (*check)(const void *st, pf_error *err);
  /* The deal in progress into *out (unless out is NULL: ismcts asks the index alone after every
   * move); returns its index, 0 for the first. A game using several deals at once returns the last
   * and gives the others with deal_at. */
  int (*current_deal)(const void *st, pf_deal *out);

  /* ---- required: notation (G-8, G-9) ---- */
  /* The one canonical string of a legal move. */
  void (*move_str)(const void *st, pf_move m, char buf[PF_MOVE_STR]);
  /* Reads a move of the seat to move in any form the rulings accept, in any case; refuses one that
   * is not legal here, saying why. */
  int (*move_parse)(const void *st, const char *text, pf_move *m, pf_error *err);

  /* ---- required: views (a viewer is a seat, PF_VIEW_ALL or PF_VIEW_PUBLIC) ---- */
  /* The game's own fields of the viewer's JSON view, as JSON text (pf_jw) into the open object,
   * after the core's; its zones (core/view.h: pf_zone_open ...) last. Shows nothing the viewer may
   * not know (the conformance suite checks it). */
  void (*view_write)(const void *st, int seat, pf_jw *w);
  /* The table as a person sees it from the viewer, as text. */
  void (*view_text)(const void *st, int seat, const pf_style *style, pf_buf *out);

  /* ---- required: hidden information ---- */
  /* Resamples everything the seat cannot see with rng, keeping the seat's view and legal moves
   * (their codes too), reseeding the state's own generator and forgetting explicit future deals;
   * canonically: two positions that differ only in what the seat cannot see become the same bytes
   * with the same rng (pf_cards_resample sorts the hidden cards first; never shuffle them in the
   * order they lie). Bots see a game only through this, legal moves and views, so it is what keeps
   * their choices independent of hidden cards; the conformance suite checks all of it. `seat` may
   * also be PF_VIEW_HANDS: then only what no seat sees is resampled (every seat's view stays as it
   * was), which games get by asking pf_view_sees_own, never `p != seat`. */
  void (*determinize)(void *st, int seat, pf_rng *rng);

  /* ---- required of a game whose to_move may return PF_CHANCE (G-4) ---- */
  /* (pf_chance_sample) Draws an outcome from the state's generator, applies it, writes its
   * canonical string ("*7H") to buf unless buf is NULL. */
  void (*chance_sample)(void *st, char *buf);
  /* (pf_chance_apply) Applies a recorded outcome (any accepted form), writes its canonical string to
   * canon, or refuses it saying why and changes nothing; leaves the state byte for byte as
   * chance_sample does with that outcome, its generator advanced alike (the suite checks it). */
  int (*chance_apply)(void *st, const char *text, char canon[PF_MOVE_STR], pf_error *err);

  /* ---- optional: more of the rules ---- */
  /* (pf_deal_at) Deal k, 0 <= k < current_deal's index, for a game that uses several deals at once
   * (Point-a-Pile: the deck is deal 0 and the missions deal 1, PAP-1); pf_run records every deal
   * through it. NULL: deals come one after another, each noted when it begins. */
  void (*deal_at)(const void *st, int k, pf_deal *out);
  /* (pf_choosing) Where several seats choose at once, asked seat by seat (PAP-4): the seats still to
   * choose in this group, to_move first, in the order asked; returns how many. Each has the same
   * view and legal moves (codes too) whatever the seats before it choose, so that a server may take
   * the choices in any order, keep them sealed, and play them in this order (the suite checks it).
   * NULL, or a return of 1: only to_move chooses now. */
  int (*choosing)(const void *st, int *seats);
  /* (pf_card_str_in and the other _in functions of card.h) The notation of the game's own cards,
   * codes from PF_CARD_GAME up (Point-a-Pile's generated cards). NULL: only cards the core names. */
  const pf_card_notation *cards;
  /* What scores() counts, for people: NULL is "points"; Skip-Bo Junior's "cards left"; and
   * score_unit_one the same for a score of 1 or -1 (NULL is "point"; "card left").
   * score_low_wins: the lower score is the better (`pilfer games --json`: "score"). */
  const char *score_unit, *score_unit_one;
  bool score_low_wins;

  /* ---- optional: more of the views ---- */
  /* Whether the view of `seat` hides seat p's score, written null in its "scores" (PAP-8);
   * everything that shows scores to a viewer reads them from its view. NULL: every score shown. */
  bool (*score_hidden)(const void *st, int seat, int p);
  /* (pf_describe) A phrase about a legal move of the seat to move ("7♥ takes seat 2's pile of 9"),
   * as `viewer` may know it. NULL: the move's canonical string. */
  void (*describe)(const void *st, pf_move m, int viewer, const pf_style *style, pf_buf *out);
  /* (pf_describe_chance) A phrase about a chance outcome (its canonical string) about to be applied
   * at st, as `viewer` may know it: "seat 2 takes 7♥ from your hand" for the seat that may know the
   * card, "seat 2 takes a card from seat 1's hand" for the others. NULL: told to nobody (the safe
   * default for hidden outcomes). */
  void (*describe_chance)(const void *st, const char *outcome, int viewer, const pf_style *style, pf_buf *out);
  /* (pf_move_zones_of) Where legal move m takes a card from and to, as ids of zones the view lists:
   * out comes with "" and PF_CARD_NONE and the game fills what applies, so that picking a card
   * (from, card) and then a zone (to) names one legal move whenever it can (docs/views.md). NULL:
   * from, card and to are null for every move. */
  void (*move_zones)(const void *st, pf_move m, pf_move_zones *out);

  /* ---- optional: bots' knowledge ---- */
  /* (pf_rate_moves) The greedy bot's rule of thumb (bots/greedy.c): rates each of the n legal moves,
   * higher is better, as a decent person would, reading only what the seat may know (it is called on
   * determinizations). NULL: greedy looks one turn ahead by the seat's score. */
  void (*rate_moves)(const void *st, const pf_move *moves, int n, int64_t *rating);

  /* ---- optional: design metrics, what `pilfer analyze` measures (sim/analyze.h) ---- */
  /* (pf_standing) Where each seat stands during play, higher is better, in the units of its score:
   * the lead, lead changes and how far behind the winner was are read from it. NULL: the scores
   * (a game whose fewest points win gives their negation). */
  void (*standing)(const void *st, int *standing);
  /* (pf_count_events) The names of the game's own counters ("steals", "passes"), at most
   * PF_MAX_EVENTS, NULL-terminated; NULL: none. */
  const char *const *events;
  /* (pf_count_events, with events) Adds to counts[k] how often counter k happened as move m
   * (PF_MOVE_CHANCE: a chance outcome) took the game from `before` to `after`. */
  void (*count_events)(const void *before, const void *after, pf_move m, long long *counts);
  /* (pf_round) The rounds begun so far, for a game played in rounds within its deal (Point-a-Pile:
   * a Headpointer's piles and the pointing at them, PAP-2), over the whole game: it never goes
   * down, and it goes up with every new deal too. analyze counts them, and a new round ends a
   * turn. NULL: the game has no rounds but its deals. */
  int (*round)(const void *st);
  /* (pf_event_possible, with events) Can counter k happen at all in a game of these players and
   * options (false: an expansion that brings it is off, or the game's rules have no such thing)?
   * `pilfer analyze` warns of a counter that stays at 0 over a whole run only where it can
   * happen. NULL: every counter can. */
  bool (*event_possible)(int players, const pf_options *options, int k);

  /* ---- optional: for learning (Python's actions, chance nodes and length, docs/python.md) ---- */
  /* (pf_action_count) How many dense actions a game of these players and options has, at most
   * PF_MAX_ACTIONS: the size of a policy head. NULL: move_bound, the move codes being the actions. */
  int (*action_count)(int players, const pf_options *options);
  /* (pf_action_index) The dense action of move code m, in [0, action_count): a function of the
   * code and of st's players and options alone, never of the position, and one to one on the
   * codes legal() gives (the conformance suite checks both). NULL: the code itself. */
  int (*action_index)(const void *st, pf_move m);
  /* (pf_action_move) The move code of dense action a, the inverse of action_index; PF_NO_MOVE when a
   * names no move of such a game. NULL: a itself. */
  pf_move (*action_move)(const void *st, int a);
  /* (pf_chance_outcomes) At a chance position, its outcomes into out: each its canonical string
   * (as chance_apply takes it), an id distinct among them and below PF_MAX_CHANCE, and its
   * probability (they sum to 1); returns how many, at most PF_MAX_CHANCE. Every outcome where they
   * are few (Piles' take, PIL-7); else an equally likely sample drawn from a copy of the state's
   * generator, the same for the same state (the game's rules header says which). NULL: the one
   * outcome chance_sample would draw, of probability 1. */
  int (*chance_outcomes)(const void *st, pf_chance_outcome *out);
  /* (pf_max_length) The most steps (moves and chance outcomes) a game of these players and options
   * can take, a bound the rules prove (the suite checks random games against it): OpenSpiel's
   * max_game_length. NULL: 0, unknown. */
  long (*max_length)(int players, const pf_options *options);

  /* ==== optional speed hooks ====
   * May be given for speed; the conformance suite holds each to the slow path: with the same
   * inputs each gives what the core's way without it gives (tests/test_conformance.c:
   * check_random_move, check_random_playout, check_stop_at_deal_end, check_standing_key,
   * check_events_before). A game may leave every one of them out. */
  /* (pf_random_move) The move legal() would list at index pf_rng_below(rng, n), n (written to *n)
   * being the number of legal moves: the same draw and the same move, without listing them all
   * (random playouts, the random bot). NULL: legal() and the draw. */
  pf_move (*random_move)(const void *st, pf_rng *rng, int *n);
  /* (pf_random_playout) Plays to the end as pf_random_playout's loop of random_move and apply does,
   * with the same draws and moves; returns the moves played and adds every turn's number of legal
   * moves to *branching. For a game whose moves cost less than the calls between them. NULL: the
   * loop. */
  long (*random_playout)(void *st, pf_rng *rng, long *branching);
  /* (the search's horizon) Makes st stop at the end of the deal in progress instead of dealing the
   * next one, when the game goes on after it: to_move gives PF_NOBODY, current_deal the next
   * deal's index, scores and standing what they would be once it was dealt; nothing else may be
   * asked of that state (winners least of all). Every move before it, and a game that ends with
   * the deal, go as without. ismcts calls it on its determinizations (horizon=deal), so that a
   * playout neither shuffles a deal it would not look at nor checks the deal after every move.
   * NULL: the search stops just after the next deal is dealt. */
  void (*stop_at_deal_end)(void *st);
  /* (pf_standing_key) A summary of what the standing is made of, cheap to read: when a move leaves
   * it unchanged, the move left the standing unchanged too, so that analyze reads the standing only
   * after the moves that change it. NULL: analyze reads the standing after every move. */
  uint64_t (*standing_key)(const void *st);
  /* With count_events: how many bytes of `before` it reads, a prefix of the state (analyze copies
   * only these before each move); 0: all of it. */
  size_t events_before;
} pf_game;

/* ---- the optional methods, each called through one helper ---- */

/* deal_at: deal k of a game using several at once into *out; false (and nothing written) for a
 * game whose deals come one after another. */
static inline bool pf_deal_at(const pf_game *g, const void *st, int k, pf_deal *out) {
  if (!g->deal_at) return false;
  g->deal_at(st, k, out);
  return true;
}
/* random_move: a uniformly random legal move of the seat to move, moves[pf_rng_below(rng, n)] of
 * the n moves legal() lists; *n gets n. */
pf_move pf_random_move_listed(const pf_game *g, const void *st, pf_rng *rng, int *n); /* without it */
static inline pf_move pf_random_move(const pf_game *g, const void *st, pf_rng *rng, int *n) {
  return g->random_move ? g->random_move(st, rng, n) : pf_random_move_listed(g, st, rng, n);
}
/* chance_sample, at a chance node (a game that has them gives it). */
static inline void pf_chance_sample(const pf_game *g, void *st, char *buf) { g->chance_sample(st, buf); }
/* chance_apply, or "GAME has no chance moves". */
int pf_chance_apply(const pf_game *g, void *st, const char *text, char canon[PF_MOVE_STR], pf_error *err);
/* The seats choosing at once now (choosing), to_move first; just to_move (or none when no seat is
 * to move) for a game without the method. */
int pf_choosing(const pf_game *g, const void *st, int *seats);
/* describe, or the move's canonical string. */
void pf_describe(const pf_game *g, const void *st, pf_move m, int viewer, const pf_style *style, pf_buf *out);
/* describe_chance; false (and nothing written) when the game tells its chance outcomes to nobody. */
bool pf_describe_chance(const pf_game *g, const void *st, const char *outcome, int viewer, const pf_style *style,
                        pf_buf *out);
/* move_zones into *out, which it first empties ("" and PF_CARD_NONE). */
void pf_move_zones_of(const pf_game *g, const void *st, pf_move m, pf_move_zones *out);
/* rate_moves into rating; false (and nothing written) for a game without a rule of thumb. */
static inline bool pf_rate_moves(const pf_game *g, const void *st, const pf_move *moves, int n, int64_t *rating) {
  if (!g->rate_moves) return false;
  g->rate_moves(st, moves, n, rating);
  return true;
}

/* standing into out: the game's, or its scores. */
static inline void pf_standing(const pf_game *g, const void *st, int *out) {
  if (g->standing)
    g->standing(st, out);
  else
    g->scores(st, out);
}
/* standing_key at st; 0 for a game without one. */
static inline uint64_t pf_standing_key(const pf_game *g, const void *st) {
  return g->standing_key ? g->standing_key(st) : 0;
}
/* round at st; 0 for a game without rounds. */
static inline int pf_round(const pf_game *g, const void *st) { return g->round ? g->round(st) : 0; }
/* action_count, or move_bound. */
static inline int pf_action_count(const pf_game *g, int players, const pf_options *options) {
  return g->action_count ? g->action_count(players, options) : (int)g->move_bound;
}
/* action_index, or the code itself. */
static inline int pf_action_index(const pf_game *g, const void *st, pf_move m) {
  return g->action_index ? g->action_index(st, m) : (int)m;
}
/* action_move, or the action itself (PF_NO_MOVE for one not below move_bound). */
static inline pf_move pf_action_move(const pf_game *g, const void *st, int a) {
  if (g->action_move) return g->action_move(st, a);
  return a >= 0 && (pf_move)a < g->move_bound ? (pf_move)a : PF_NO_MOVE;
}
/* chance_outcomes at a chance position, or the one outcome chance_sample would draw (from a copy
 * of st); returns how many (0 when out of memory). */
int pf_chance_outcomes(const pf_game *g, const void *st, pf_chance_outcome *out);
/* max_length, or 0 (unknown). */
static inline long pf_max_length(const pf_game *g, int players, const pf_options *options) {
  return g->max_length ? g->max_length(players, options) : 0;
}
/* The number of the game's own counters (events): 0 when it declares none. */
int pf_nevents(const pf_game *g);
/* event_possible, or true. */
static inline bool pf_event_possible(const pf_game *g, int players, const pf_options *options, int k) {
  return !g->event_possible || g->event_possible(players, options, k);
}
/* count_events, when the game has counters; nothing otherwise. */
static inline void pf_count_events(const pf_game *g, const void *before, const void *after, pf_move m,
                                   long long *counts) {
  if (g->count_events) g->count_events(before, after, m, counts);
}

/* ---- what the core offers over any game ---- */

/* Refuses a player count outside the game's range: "gharat is for 2 to 4 players, not 5", or
 * "piles is for exactly 4 players, not 3". */
int pf_check_players(const pf_game *g, long long players, pf_error *err);
/* All legal moves' canonical strings, space-separated, in legal order. */
void pf_legal_text(const pf_game *g, const void *st, pf_buf *out);
/* Plays uniformly random legal moves (and chance outcomes from the state's generator) from st to
 * the end of the game. Returns the number of moves played; adds the number of legal moves of
 * every seat's turn to *branching when it is not NULL (a perft-like count for the benchmark). */
long pf_random_playout(const pf_game *g, void *st, pf_rng *rng, long *branching);
/* Text of who is to move: "seat 2", "chance", "nobody (game over)". */
const char *pf_to_move_text(int to_move, char buf[32]);

#endif
