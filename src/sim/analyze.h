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
#include <stdbool.h>

#include "core/game.h"

#define PF_AN_BINS 128  /* 0..15 one bin each, then eight bins per power of two (each 1/8 of its
                         * lowest value wide) up to 2^18; the last is open */
#define PF_AN_PHASES 10 /* a game's course in tenths of its positions */

/* Values of one kind, one per game (or per decision): count, sum, sum of squares, least, most, and
 * how many fell in each bin: bin[PF_AN_BINS + b] holds the values v >= 0 of pf_hist_bin(v) = b,
 * bin[PF_AN_BINS - b] the values v < 0 of pf_hist_bin(-v) = b (b >= 1 there), so that the bins
 * go up in value from index 1. */
#define PF_AN_SLOTS (2 * PF_AN_BINS)
typedef struct pf_hist {
  long long n, sum, sum_sq, min, max;
  long long bin[PF_AN_SLOTS];
} pf_hist;

void pf_hist_add(pf_hist *h, long long v);
void pf_hist_merge(pf_hist *to, const pf_hist *from);
/* The bin of a value (0 and up), and the values a bin holds: [lo, hi]. */
int pf_hist_bin(long long v);
void pf_hist_bounds(int b, long long *lo, long long *hi);
/* The slot of any value in pf_hist.bin, and the values a slot holds. */
int pf_hist_slot(long long v);
void pf_hist_slot_bounds(int i, long long *lo, long long *hi);

/* The sums of the design metrics. Per game: length in moves (seat moves and chance outcomes),
 * turns (runs of moves by one seat within one deal and round), deals (the deals played one after
 * another: a game that deals several decks at once plays one), rounds (for a game with rounds,
 * pf_round) and decisions (seat moves); the legal moves offered per
 * decision; forced moves (one legal move) per game; the margin between the winners and the best
 * other; lead changes; where the winner took the lead for good, in thousandths of the game; how
 * far behind the winner ever was (drama); the margin a comeback is from, a tenth of the most
 * points (in absolute value) any seat stood at in the game, rounded up, at least 1. */
typedef struct pf_an_sums {
  pf_hist moves, turns, deals, rounds, decisions, legal, forced, margin, lead_changes, lead_for_good, drama,
      comeback_margin;
  long long shared;        /* games won by more than one seat */
  long long no_winner;     /* games nobody won */
  long long tension_games; /* games with a winner and another seat */
  long long comebacks;     /* of those: the winner was behind by comeback_margin or more at a
                            * position of the second half */
  long long phase_decisions[PF_AN_PHASES], phase_legal[PF_AN_PHASES], phase_forced[PF_AN_PHASES];
  /* The winner's standing less the best other's at the end of each tenth (tension games). */
  long long phase_lead[PF_AN_PHASES], phase_lead_sq[PF_AN_PHASES];
  long long beat[PF_MAX_PLAYERS][PF_MAX_PLAYERS]; /* games bot b had more of the win than bot c */
  long long event[PF_MAX_EVENTS], event_sq[PF_MAX_EVENTS]; /* the game's counters, per game */
  /* Per seat: its final score (the game's scores), and its margin, its final standing less the
   * best other seat's (above 0 when it won alone). */
  pf_hist score[PF_MAX_PLAYERS], seat_margin[PF_MAX_PLAYERS];
  /* The game's counters per seat, each event counted to the seat whose move it came in (none for a
   * chance outcome's), per game; and over the tension games by how many others there were (k - 1
   * for k others), the winner's count times k less the others' counts added up (lead_games of
   * them), so that each game's difference from the others' mean is x / k, exact. */
  long long seat_event[PF_MAX_PLAYERS][PF_MAX_EVENTS], seat_event_sq[PF_MAX_PLAYERS][PF_MAX_EVENTS];
  long long lead_games[PF_MAX_PLAYERS - 1], lead_event[PF_MAX_PLAYERS - 1][PF_MAX_EVENTS],
      lead_event_sq[PF_MAX_PLAYERS - 1][PF_MAX_EVENTS];
  /* With --rotate (pf_an_add_deal): each seat of each deal is a group of one win share per
   * rotation (in PF_WIN_UNIT): the groups, the shares and their squares, and the groups' totals
   * squared. */
  long long deal_groups, deal_y, deal_y2, deal_sq;
} pf_an_sums;

/* One game as it is played: the legal moves at each ply (0 for a chance outcome), who played it
 * and whether it opened a new deal or round (a turn ends there), and the standing of every seat at
 * the start and after every ply, kept only when it changed: row r of `standing` holds from
 * position since[r] (0 the start, k after ply k) to the next row's; the game's counters; and, set
 * by the caller before pf_an_add_game, its deals and rounds. Its arrays grow as needed and are kept
 * from game to game. */
typedef struct pf_an_trace {
  int players;
  long long plies, cap, rows, rows_cap;
  int *legal;         /* plies */
  signed char *mover; /* plies: a seat, or PF_CHANCE */
  unsigned char *cut; /* plies: 1 when the ply opened a new deal or round */
  bool cut_next;      /* pf_an_trace_cut: the next ply opens one */
  int *standing;      /* rows x players */
  long long *since;   /* rows */
  long long chance_events[PF_MAX_EVENTS];                /* counted in chance outcomes */
  long long seat_events[PF_MAX_PLAYERS][PF_MAX_EVENTS]; /* counted in each seat's moves */
  int deals, rounds;
  int scores[PF_MAX_PLAYERS]; /* at the end */
} pf_an_trace;

/* Starts a trace at a game's first position, where the seats stand as `standing` says. */
void pf_an_trace_begin(pf_an_trace *t, int players, const int *standing);
/* Notes a ply played by `mover` (a seat or PF_CHANCE) that offered `legal` moves, after which the
 * seats stand as `standing` says; NULL: as before it. */
void pf_an_trace_ply(pf_an_trace *t, int mover, int legal, const int *standing);
/* Notes that a new deal or round began at the position after the last ply: the next seat move
 * begins a turn, whoever makes it. */
void pf_an_trace_cut(pf_an_trace *t);
void pf_an_trace_free(pf_an_trace *t);

/* A game's own figures, for its rows (analyze --csv). */
typedef struct pf_an_game {
  long long turns, lead_changes;
  bool comeback;
} pf_an_game;

/* Adds a finished game: its trace, its winners, and how much of the win each of the run's nbots
 * bots had (in PF_WIN_UNIT); its own figures into *out when it is not NULL. */
void pf_an_add_game(pf_an_sums *s, const pf_an_trace *t, const int *winners, int nw, const long long *bot_share,
                    int nbots, pf_an_game *out);
void pf_an_sums_add(pf_an_sums *to, const pf_an_sums *from);
/* Adds a deal played once per rotation of the seats: share[r][p], seat p's win share (in
 * PF_WIN_UNIT) in rotation r, for the players rotations. */
void pf_an_add_deal(pf_an_sums *s, int players, const long long share[][PF_MAX_PLAYERS]);
/* The share of the variance of a seat's result that its deal explains: the intraclass correlation
 * of the one-way analysis of variance over the groups of pf_an_add_deal, with an approximate 95%
 * interval; false when there are fewer than two deals. */
bool pf_an_deal_share(const pf_an_sums *s, int players, double *share, double *lo, double *hi);

/* What the figures are of: the game, its players, the run's games, each seat's wins and their
 * squares (in PF_WIN_UNIT, sim's sums), and the run's bots. */
typedef struct pf_an_run {
  const pf_game *game;
  int players, nbots;
  long long games;
  const long long *win, *win_sq;
  const char *const *bot_names;
} pf_an_run;

/* The metrics with their intervals, as the "analysis" of analyze --json. */
struct pf_jw;
void pf_an_write(struct pf_jw *w, const pf_an_sums *s, const pf_an_run *run);
/* "warnings", the figures a run measured nothing of: each of the game's counters that can happen
 * with these players and options (pf_event_possible) but stayed at 0 in every game, as
 * {event, warning}; an empty list when there is none. */
void pf_an_warnings_write(struct pf_jw *w, const pf_an_sums *s, long long games, const pf_game *g, int players,
                          const pf_options *options);
/* The sums as integers, for merge ("sums"."analysis"), and back. */
void pf_an_sums_write(struct pf_jw *w, const pf_an_sums *s, const pf_game *g, int players, int nbots);
int pf_an_sums_read(json_t *j, const pf_game *g, int players, int nbots, pf_an_sums *s, pf_error *err);

/* The chi-squared test that n seats win equal shares, from each seat's wins: the statistic, with
 * n - 1 degrees of freedom, and its p-value (1 when nobody won). */
double pf_an_chi2(const double *wins, int n, double *p_value);
/* The regularized upper incomplete gamma function Q(a, x), a > 0, x >= 0. */
double pf_an_gamma_q(double a, double x);

#endif
