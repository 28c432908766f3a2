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
 * The methods are grouped by concern: rules, notation, views, hidden information, bots'
 * knowledge, design metrics. Optional ones are NULL when a game has no use for them, and
 * everything calls them through one helper each (pf_describe, pf_rate_moves ...) that says what
 * NULL means, as SQLite checks its optional io_methods. Every game is in this tree, so there is
 * no version field: a method added here is added to every game that needs it in the same change.
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

/* Whether `viewer` (a seat, PF_VIEW_ALL or PF_VIEW_PUBLIC) may see what seat p alone may see (its
 * hand, its secret mission): p itself and the full view, never the public. Viewers are negative
 * for both of the others, so `viewer < 0` never means "everything". */
static inline bool pf_view_sees_own(int viewer, int p) { return viewer == PF_VIEW_ALL || viewer == p; }

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

/* The chance stream of a game is pf_rng_seed(seed, PF_STREAM_CHANCE). */
#define PF_STREAM_CHANCE 0x43484E43u

/* ---- what a game measures itself with: `pilfer bench` and scripts/strength ---- */

/* Each game declares its cases next to its code; the bench (cli/cli_bench.c) and the strength runs
 * (`pilfer games --strength`, read by scripts/strength) run every registered game's. Each list
 * ends at its first entry with players 0, or after PF_MAX_CASES entries (PF_CASES walks it). */
#define PF_MAX_CASES 6
#define PF_CASES(c, list) for (c = (list); c < (list) + PF_MAX_CASES && c->players; c++)
/* Random playouts: `games` games with `players` seats and options ("key=value ...", NULL for the
 * defaults); `label` is what the bench's options column says instead of the options, if given. */
typedef struct pf_playout_case {
  int players, games;
  const char *options, *label;
} pf_playout_case;
/* ismcts searches of `iters` iterations on the positions a random game from each of `positions`
 * seeds reaches after plies[0], plies[1] and plies[2] moves, default options. */
typedef struct pf_search_case {
  int players, iters, positions, plies[3];
} pf_search_case;
/* A sim of `games` games with seats rotated: `seats` is the bot specs, space-separated, seat 0
 * first; options as above. */
typedef struct pf_sim_case {
  int players, games;
  const char *seats, *options;
} pf_sim_case;
typedef struct pf_measures {
  pf_playout_case playouts[PF_MAX_CASES]; /* the bench's random playouts */
  pf_search_case searches[PF_MAX_CASES];  /* the bench's ismcts searches */
  pf_sim_case sims[PF_MAX_CASES];         /* the bench's short sims: ismcts:iters=300 first */
  pf_sim_case strength[PF_MAX_CASES];     /* the rows of docs/strength.md: the first bot's share */
  int quick_players;                      /* a short whole game, which the browser tests play */
  const char *quick_options;              /* (`pilfer games --json`: "quick"); options as above */
} pf_measures;

/* ---- the game: its methods, grouped by concern ---- */

/* Every method is required unless marked optional; an optional method is NULL when the game has no
 * use for it, and is called only through the core's helper named beside it (below the struct),
 * which supplies what its absence means. The methods a game with chance moves must give are marked
 * so: a game whose to_move may return PF_CHANCE gives chance_sample and chance_apply. */
typedef struct pf_game {
  /* ---- what it is ---- */
  const char *id;    /* "steal-the-pile": what users type */
  const char *title; /* "Steal the Pile" */
  int min_players, max_players;
  const pf_option_desc *options;
  int noptions;
  size_t state_size;
  const char *rules;            /* the rules as a person learns them, in the markup of games/rules.h */
  const pf_measures *measures;  /* how bench and strength exercise it (above) */
  /* For newcomers (`pilfer games --json`, the lobby): one paragraph saying what the game is, and
   * how long a game is: the mean moves of a game (chance events counted) of `length_players`
   * greedy bots at the default options, as `pilfer sim` measured it (tests/test_sim.c checks the
   * figure against a fresh sim, so that it cannot drift from the engine). */
  const char *description;
  int length_players, length_moves;

  /* ---- rules: the course of a game ---- */
  /* Starts a game from the setup: deals explicitly given or shuffled from the seed. Refuses bad
   * combinations (options against the player count, deals that are not the game's deck). */
  int (*start)(void *st, const pf_setup *setup, pf_error *err);
  /* A seat, PF_CHANCE or PF_NOBODY. */
  int (*to_move)(const void *st);
  /* The legal moves of the seat to move, in a fixed order; returns their number (> 0 whenever a
   * seat is to move). */
  int (*legal)(const void *st, pf_move *moves);
  /* Optional (pf_random_move). The move legal() would list at index pf_rng_below(rng, n), n being
   * the number of legal moves, which it writes to *n: the same draw from rng and the same move,
   * found without listing them all (random playouts, the random bot). NULL: legal() and the draw. */
  pf_move (*random_move)(const void *st, pf_rng *rng, int *n);
  /* Optional (pf_random_playout). Plays to the end of the game as pf_random_playout's loop of
   * random_move and apply does, with the same draws from rng and the same moves (the conformance
   * suite compares the two); returns the moves played and adds the number of legal moves of every
   * turn to *branching. For a game whose moves cost less than the calls between them. NULL: the
   * loop. */
  long (*random_playout)(void *st, pf_rng *rng, long *branching);
  /* Optional (the search's horizon). Makes st stop at the end of the deal in progress instead of
   * dealing the next one, when the game goes on after it: play stops there (to_move gives
   * PF_NOBODY), current_deal gives the next deal's index, and scores and standing are what they
   * would be once it was dealt; nothing else may be asked of that state (winners least of all:
   * the game is not over). Every move before it, and a game that ends with the deal, go as
   * without (the conformance suite compares the two). ismcts calls it on its determinizations
   * (horizon=deal), so that a playout neither shuffles a deal it would not look at nor checks
   * the deal after every move, and plays out with random_playout. NULL: the search stops just
   * after the next deal is dealt. */
  void (*stop_at_deal_end)(void *st);
  /* Plays a legal move of the seat to move. */
  void (*apply)(void *st, pf_move m);
  /* Scores of every seat: running during the game, final when over. These are the full state's:
   * a seat's view may hide some of them (score_hidden). */
  void (*scores)(const void *st, int *scores);
  /* Optional. What scores() counts, for people: NULL is "points"; Skip-Bo Junior's "cards left".
   * score_low_wins: the lower score is the better (`pilfer games --json`: "score"). */
  const char *score_unit;
  bool score_low_wins;
  /* When over: the winning seats (G-6); returns how many (0: nobody won). */
  int (*winners)(const void *st, int *seats);
  /* Recomputes what can be recomputed and checks it (card conservation at least). */
  int (*check)(const void *st, pf_error *err);
  /* The deck order of the deal in progress into *out, unless out is NULL (the index alone, which
   * ismcts asks after every simulated move); returns its index (0 for the first deal). A game that
   * uses several deals at once (Point-a-Pile's deck and its missions) returns the last of them and
   * gives the others with deal_at. */
  int (*current_deal)(const void *st, pf_deal *out);
  /* Optional (pf_deal_at). Deal k, 0 <= k < the index current_deal returns, for a game that uses
   * several deals at once (Point-a-Pile: the deck is deal 0 and the missions deal 1, both from the
   * start, PAP-1). pf_run records every deal up to the current one through it. NULL: a game whose
   * deals come one after another, each noted when it begins. */
  void (*deal_at)(const void *st, int k, pf_deal *out);
  /* Chance moves (pf_chance_sample). At a chance node: draws an outcome from the state's
   * generator, applies it, and writes its canonical string ("*7H") to buf if buf is not NULL. */
  void (*chance_sample)(void *st, char *buf);
  /* Chance moves (pf_chance_apply). At a chance node: applies a recorded outcome (any accepted
   * form, "*7h" too), writes its canonical string to canon, or refuses it saying why and changes
   * nothing. The state after it is byte-identical to the one chance_sample leaves with the same
   * outcome (the conformance suite checks this), so it advances the game's generator as
   * chance_sample does. */
  int (*chance_apply)(void *st, const char *text, char canon[PF_MOVE_STR], pf_error *err);
  /* Optional (pf_choosing). At a position where several seats choose at once, asked seat by seat
   * (PAP-4): the seats still to choose in this group, to_move first, in the order they will be
   * asked; returns how many. Each of them has the same view and legal moves (codes too) whatever
   * the seats before it choose, so a server may take their choices in any order, keep them
   * sealed, and play them in this order (the conformance suite checks it). NULL, or a return of
   * 1: only to_move chooses now. */
  int (*choosing)(const void *st, int *seats);

  /* ---- notation (G-8, G-9) ---- */
  /* Optional (pf_card_str_in and the other _in functions of card.h, which take it). The notation
   * of the game's own cards, codes from PF_CARD_GAME up (Point-a-Pile's generated cards), with
   * which records, deals and views read and write them. NULL: the game plays only cards the core
   * names (standard cards, the joker, Skip-Bo Junior's). */
  const pf_card_notation *cards;
  pf_move move_bound; /* every move code is below it (Python's num_distinct_actions) */
  /* The canonical string of a legal move. */
  void (*move_str)(const void *st, pf_move m, char buf[PF_MOVE_STR]);
  /* Reads a move of the seat to move; refuses one that is not legal, saying why. */
  int (*move_parse)(const void *st, const char *text, pf_move *m, pf_error *err);

  /* ---- views: what a viewer (a seat, PF_VIEW_ALL or PF_VIEW_PUBLIC) may know ---- */
  /* Writes the game's own fields of a viewer's view as JSON text (pf_jw, core/jsontext.h) into
   * the view being written, after the core's fields (pf_view_write; the object is left open):
   * written directly, not built as jansson values, for the server writes one for every viewer of
   * every state it sends. Its zones (pf_zone_open ...) come last. */
  void (*view_write)(const void *st, int seat, pf_jw *w);
  /* Optional. Whether the view of `seat` hides seat p's score, written null in its "scores"
   * (Point-a-Pile's pile variant, PAP-8); everything that shows scores to a viewer reads them
   * from its view, never from scores(). NULL: every score is shown. */
  bool (*score_hidden)(const void *st, int seat, int p);
  /* The table as a person sees it from a viewer. */
  void (*view_text)(const void *st, int seat, const pf_style *style, pf_buf *out);
  /* Optional (pf_describe). A phrase for people about a legal move of the seat to move ("7♥ takes
   * seat 2's pile of 9"), as `viewer` may know it. NULL: the move's canonical string. */
  void (*describe)(const void *st, pf_move m, int viewer, const pf_style *style, pf_buf *out);
  /* Optional (pf_describe_chance). A phrase for people about a chance outcome (its canonical
   * string, as chance_sample wrote it) about to be applied at st, as `viewer` may know it: "seat 2
   * takes 7♥ from your hand" for the seat that may know the card, "seat 2 takes a card from seat
   * 1's hand" for the others and the public. NULL: chance outcomes are told to nobody (the safe
   * default for hidden ones). */
  void (*describe_chance)(const void *st, const char *outcome, int viewer, const pf_style *style, pf_buf *out);
  /* Optional (pf_move_zones_of). Where legal move m of the seat to move takes a card from and to, as
   * ids of the zones the JSON view lists (view_write writes them with pf_zone_open): out comes with ""
   * and PF_CARD_NONE, and the game fills what applies, so that picking a card (from, card) and
   * then a zone (to) names one legal move whenever it can (docs/views.md). NULL: from, card and to
   * are null for every move. */
  void (*move_zones)(const void *st, pf_move m, pf_move_zones *out);

  /* ---- hidden information ---- */
  /* Resamples everything the seat cannot see, consistently with its view, using rng; the seat's
   * view and legal moves (their codes too) stay the same. Also reseeds the state's own generator
   * and forgets any explicit future deals, which the seat cannot know either. It is canonical:
   * two positions that differ only in what the seat cannot see become the same state, byte for
   * byte, with the same rng (resample hidden cards with pf_cards_resample, which sorts them
   * first; never shuffle them in the order they lay). Bots see a game only through legal moves
   * and determinizations, so this is what makes their choices independent of hidden cards; the
   * conformance suite checks it. */
  void (*determinize)(void *st, int seat, pf_rng *rng);

  /* ---- bots' knowledge ---- */
  /* Optional (pf_rate_moves). The greedy bot's rule of thumb (bots/greedy.c): rates each of the n
   * legal moves of the seat to move, higher is better, as a decent person would (take the biggest
   * pile, play your stockpile first ...). It should read only what the seat may know: bots call
   * it on determinizations for the seat, so it cannot leak a hidden card, but anything hidden it
   * reads there is a guess. NULL: greedy looks one turn ahead by the seat's score instead. */
  void (*rate_moves)(const void *st, const pf_move *moves, int n, int64_t *rating);

  /* ---- design metrics: what `pilfer analyze` measures (sim/analyze.h) ---- */
  /* Optional (pf_standing). Where each seat stands during play, higher is better, in the units of
   * its score: the lead, lead changes and how far behind the winner was are read from it. NULL:
   * the scores (a game whose fewest points win gives their negation). */
  void (*standing)(const void *st, int *standing);
  /* Optional (pf_standing_key). A summary of what the standing is made of, cheap to read: when a
   * move leaves it unchanged, the move left the standing unchanged too (analyze reads the
   * standing only after the moves that change it; tests/test_analyze.c checks every game's on
   * random games). NULL: analyze reads the standing after every move. */
  uint64_t (*standing_key)(const void *st);
  /* Optional (pf_count_events). The names of the game's own counters ("steals", "passes"), at most
   * PF_MAX_EVENTS, NULL-terminated; NULL: none. */
  const char *const *events;
  /* Optional (pf_count_events), with events. Adds to counts[k] how often counter k happened as
   * move m (PF_MOVE_CHANCE: a chance outcome) took the game from `before` to `after`. */
  void (*count_events)(const void *before, const void *after, pf_move m, long long *counts);
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
/* The number of the game's own counters (events): 0 when it declares none. */
int pf_nevents(const pf_game *g);
/* count_events, when the game has counters; nothing otherwise. */
static inline void pf_count_events(const pf_game *g, const void *before, const void *after, pf_move m,
                                   long long *counts) {
  if (g->count_events) g->count_events(before, after, m, counts);
}

/* ---- what the core offers over any game ---- */

/* The JSON view of SPEC §3: game, players, viewer, to_move, legal, scores, winners (when over),
 * the game's own fields (its zones among them), and "moves": for each legal move, in the order of
 * "legal", its string, where it takes a card from and to (move_zones) and what describe tells the
 * viewer of it (docs/views.md). The legal moves are listed only for the seat to move, and only
 * when the viewer is that seat or PF_VIEW_ALL. Caller owns the result. */
json_t *pf_view_json(const pf_game *g, const void *st, int players, int seat);
/* The same view appended to out as compact text: the one place it is written (the core's fields
 * and "moves" here, the game's by view_write), what the server sends in every state;
 * pf_view_json reads it back. *moves_at (when not NULL) gets where the text of "moves"
 * begins in out (it runs to the view's closing brace). -1 when it cannot be written (a string
 * that is not UTF-8), out's new text then being partial. */
int pf_view_write(pf_buf *out, const pf_game *g, const void *st, int players, int seat, size_t *moves_at);
/* The view's "moves" of the seat to move at st (seat being that seat or PF_VIEW_ALL) as JSON
 * text appended to out: the one place that writes them (pf_view_json reads them back). -1 as
 * pf_view_write. */
int pf_moves_write(pf_buf *out, const pf_game *g, const void *st, int seat);
/* Refuses a player count outside the game's range: "gharat is for 2 to 4 players, not 5", or
 * "piles is for exactly 4 players, not 3". */
int pf_check_players(const pf_game *g, long long players, pf_error *err);
/* to_move as SPEC §1 writes it: the seat, "chance", or null when the game is over. */
json_t *pf_to_move_json(int to_move);
/* The same as JSON text (pf_jw), where a view or a state is written. */
void pf_to_move_write(pf_jw *w, int to_move);
/* The canonical strings of the legal moves of the seat to move, as a JSON array (empty when no
 * seat is to move). */
json_t *pf_legal_json(const pf_game *g, const void *st);
void pf_legal_write(pf_jw *w, const pf_game *g, const void *st);
/* n integers as a JSON array. */
json_t *pf_ints_json(const int *v, int n);
/* The view as compact JSON text with keys in a fixed order; caller frees. */
char *pf_view_json_text(const pf_game *g, const void *st, int players, int seat);
/* All legal moves' canonical strings, space-separated, in legal order. */
void pf_legal_text(const pf_game *g, const void *st, pf_buf *out);
/* Plays uniformly random legal moves (and chance outcomes from the state's generator) from st to
 * the end of the game. Returns the number of moves played; adds the number of legal moves of
 * every seat's turn to *branching when it is not NULL (a perft-like count for the benchmark). */
long pf_random_playout(const pf_game *g, void *st, pf_rng *rng, long *branching);
/* Text of who is to move: "seat 2", "chance", "nobody (game over)". */
const char *pf_to_move_text(int to_move, char buf[32]);

/* ---- the zones of the JSON view: every place cards lie (docs/views.md) ---- */

typedef enum { PF_FAN, PF_STACK } pf_layout; /* every card side by side, or a pile: top and count */

/* A zone of the view's "zones", written by a game's view_write: pf_zone_open writes its id
 * (unique in the view and stable across the game: "hand:2"), kind (docs/views.md lists them),
 * owner (a seat, or -1 for none) and label for people, up to its "cards" (opening "zones" at the
 * view's first zone); the game then writes the cards, bottom first (pf_card_write, or
 * pf_card_write_seen where the viewer may not see one), then the optional fields below, then
 * pf_zone_close, which writes the cards' "texts" in a game whose cards have them. The layout
 * follows the cards. */
void pf_zone_open(pf_jw *w, const char *id, const char *kind, int owner, const char *label, pf_layout layout);
/* A card in the game's notation ("7H", Point-a-Pile's "R:G34"); pf_card_write_seen writes null
 * where the viewer does not see it. A zone's cards are written only with these (its "texts"
 * follow them). */
void pf_card_write(pf_jw *w, pf_card c);
void pf_card_write_seen(pf_jw *w, pf_card c, bool seen);
/* The zone's place in a grid: row and column, from 0 (Piles' castle). */
void pf_zone_write_grid(pf_jw *w, int row, int col);
/* A number the game gives the zone (a Piles castle pile's value), and what it is in words for
 * people: `says` is a printf format of one %lld, the value ("value %lld", "takes %lld next"),
 * written as the zone's "value_text" (docs/views.md). */
void pf_zone_write_value(pf_jw *w, long long value, const char *says);
/* Short extra text ("locked", "12 points"). */
void pf_zone_write_note(pf_jw *w, const char *note);
void pf_zone_close(pf_jw *w);

#endif
