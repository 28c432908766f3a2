/*
 * analyze.h - design metrics of a run's games (`pilfer analyze`, docs/cli.md "Analysis").
 *
 * sim.c plays the games; while it does, it keeps a trace of each game (where every seat stood at
 * every position, the legal moves offered, who moved, the game's own counters), and when the game
 * is over pf_an_add_game reduces the trace into the run's sums. As for sim, everything kept is an
 * integer sum, a count or a histogram with fixed bins, so adding the sums of threads or shards is
 * exact and does not depend on order; means, shares and their 95% intervals are worked out from
 * the sums only when a result is shown (pf_an_write).
 *
 * The words, as docs/cli.md defines them. A position's leaders are the seats with the highest
 * standing (game.h: pf_standing), unless every seat has it. The lead changes when the leaders
 * share no seat with the last leaders (a seat that was only tied for the lead and is now alone
 * in it keeps the lead). "The winner" is the first of the winners, "the others" every seat that
 * did not win; the tension figures count only games with both.
 */
#ifndef PF_ANALYZE_H
#define PF_ANALYZE_H

#include <jansson.h>

#include "core/game.h"

#define PF_AN_BINS 128  /* 0..15 one bin each, then eight bins per power of two (each 1/8 of its
                         * lowest value wide) up to 2^18; the last is open */
#define PF_AN_PHASES 10 /* a game's course in tenths of its positions */

/* Values of one kind, one per game (or per decision): count, sum, sum of squares, least, most, and
 * how many fell in each bin. */
typedef struct pf_hist {
  long long n, sum, sum_sq, min, max;
  long long bin[PF_AN_BINS];
} pf_hist;

void pf_hist_add(pf_hist *h, long long v);
void pf_hist_merge(pf_hist *to, const pf_hist *from);
/* The bin of a value (0 and up), and the values a bin holds: [lo, hi]. */
int pf_hist_bin(long long v);
void pf_hist_bounds(int b, long long *lo, long long *hi);

/* The sums of the design metrics. Per game: length in moves (seat moves and chance outcomes),
 * turns (runs of moves by one seat), deals and decisions (seat moves); the legal moves offered per
 * decision; forced moves (one legal move) per game; the margin between the winners and the best
 * other; lead changes; where the winner took the lead for good, in thousandths of the game; how
 * far behind the winner ever was (drama). */
typedef struct pf_an_sums {
  pf_hist moves, turns, deals, decisions, legal, forced, margin, lead_changes, lead_for_good, drama;
  long long shared;        /* games won by more than one seat */
  long long no_winner;     /* games nobody won */
  long long tension_games; /* games with a winner and another seat */
  long long comebacks;     /* of those: the winner was behind at a position of the second half */
  long long phase_decisions[PF_AN_PHASES], phase_legal[PF_AN_PHASES], phase_forced[PF_AN_PHASES];
  /* The winner's standing less the best other's at the end of each tenth (tension games). */
  long long phase_lead[PF_AN_PHASES], phase_lead_sq[PF_AN_PHASES];
  long long beat[PF_MAX_PLAYERS][PF_MAX_PLAYERS]; /* games bot b had more of the win than bot c */
  long long event[PF_MAX_EVENTS], event_sq[PF_MAX_EVENTS]; /* the game's counters, per game */
} pf_an_sums;

/* One game as it is played: the legal moves at each ply (0 for a chance outcome) and who played
 * it, and the standing of every seat at the start and after every ply, kept only when it changed:
 * row r of `standing` holds from position since[r] (0 the start, k after ply k) to the next row's;
 * and the game's counters. Its arrays grow as needed and are kept from game to game. */
typedef struct pf_an_trace {
  int players;
  long long plies, cap, rows, rows_cap;
  int *legal;         /* plies */
  signed char *mover; /* plies: a seat, or PF_CHANCE */
  int *standing;      /* rows x players */
  long long *since;   /* rows */
  long long events[PF_MAX_EVENTS];
} pf_an_trace;

/* Starts a trace at a game's first position, where the seats stand as `standing` says. */
void pf_an_trace_begin(pf_an_trace *t, int players, const int *standing);
/* Notes a ply played by `mover` (a seat or PF_CHANCE) that offered `legal` moves, after which the
 * seats stand as `standing` says; NULL: as before it. */
void pf_an_trace_ply(pf_an_trace *t, int mover, int legal, const int *standing);
void pf_an_trace_free(pf_an_trace *t);

/* Adds a finished game: its trace, its deals, its winners, and how much of the win each of the
 * run's nbots bots had (in PF_WIN_UNIT). */
void pf_an_add_game(pf_an_sums *s, const pf_an_trace *t, int deals, const int *winners, int nw,
                    const long long *bot_share, int nbots);
void pf_an_sums_add(pf_an_sums *to, const pf_an_sums *from);

/* The metrics with their intervals, as the "analysis" of analyze --json; bot_names are the run's
 * bots, events the game's counters. */
struct pf_jw;
void pf_an_write(struct pf_jw *w, const pf_an_sums *s, long long games, const pf_game *g, const char *const *bot_names,
                 int nbots);
/* "warnings", the figures a run measured nothing of: each of the game's counters that can happen
 * with these players and options (pf_event_possible) but stayed at 0 in every game, as
 * {event, warning}; an empty list when there is none. */
void pf_an_warnings_write(struct pf_jw *w, const pf_an_sums *s, long long games, const pf_game *g, int players,
                          const pf_options *options);
/* The sums as integers, for merge ("sums"."analysis"), and back. */
void pf_an_sums_write(struct pf_jw *w, const pf_an_sums *s, const pf_game *g, int nbots);
int pf_an_sums_read(json_t *j, const pf_game *g, int nbots, pf_an_sums *s, pf_error *err);

#endif
