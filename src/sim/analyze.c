/*
 * analyze.c - the design metrics of a run: a trace per game, reduced into exact sums (analyze.h).
 */
#include "sim/analyze.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsontext.h"
#include "core/mem.h"
#include "sim/sim.h"

/* Every histogram of the sums: its name in the JSON, the group it is shown in, and the scale of
 * its values (lead_for_good is kept in thousandths of the game and shown as a share). */
static const struct {
  const char *name, *group;
  size_t off;
  int scale;
} HISTS[] = {
    {"moves", "length", offsetof(pf_an_sums, moves), 1},
    {"turns", "length", offsetof(pf_an_sums, turns), 1},
    {"deals", "length", offsetof(pf_an_sums, deals), 1},
    {"rounds", "length", offsetof(pf_an_sums, rounds), 1},
    {"decisions", "length", offsetof(pf_an_sums, decisions), 1},
    {"margin", "decisiveness", offsetof(pf_an_sums, margin), 1},
    {"lead_changes", "tension", offsetof(pf_an_sums, lead_changes), 1},
    {"lead_for_good", "tension", offsetof(pf_an_sums, lead_for_good), 1000},
    {"drama", "tension", offsetof(pf_an_sums, drama), 1},
    {"comeback_margin", "tension", offsetof(pf_an_sums, comeback_margin), 1},
    {"legal", "choice", offsetof(pf_an_sums, legal), 1},
    {"forced", "choice", offsetof(pf_an_sums, forced), 1},
};
#define NHISTS (int)(sizeof HISTS / sizeof *HISTS)
#define HIST(s, i) ((pf_hist *)((char *)(s) + HISTS[i].off))
#define CHIST(s, i) ((const pf_hist *)((const char *)(s) + HISTS[i].off))

/* ------------------------------------------------------------------------------------------ */
/* Histograms                                                                                 */
/* ------------------------------------------------------------------------------------------ */

static inline int hist_bin(long long v) {
  if (v < 16) return v < 0 ? 0 : (int)v;
  int k = 63 - __builtin_clzll((unsigned long long)v); /* 2^k <= v < 2^(k+1), k >= 4 */
  int b = 16 + (k - 4) * 8 + (int)((v >> (k - 3)) & 7);
  return b < PF_AN_BINS ? b : PF_AN_BINS - 1;
}

static inline int hist_slot(long long v) {
  if (v >= 0) return PF_AN_BINS + hist_bin(v);
  return PF_AN_BINS - hist_bin(v == INT64_MIN ? INT64_MAX : -v);
}

int pf_hist_bin(long long v) { return hist_bin(v); }

void pf_hist_bounds(int b, long long *lo, long long *hi) {
  if (b < 16) {
    *lo = *hi = b;
    return;
  }
  int k = 4 + (b - 16) / 8, q = (b - 16) % 8;
  *lo = (1LL << k) + (long long)q * (1LL << (k - 3));
  *hi = b == PF_AN_BINS - 1 ? INT64_MAX : *lo + (1LL << (k - 3)) - 1;
}

int pf_hist_slot(long long v) { return hist_slot(v); }

void pf_hist_slot_bounds(int i, long long *lo, long long *hi) {
  if (i >= PF_AN_BINS) {
    pf_hist_bounds(i - PF_AN_BINS, lo, hi);
    return;
  }
  long long a, b;
  pf_hist_bounds(PF_AN_BINS - i, &a, &b);
  *lo = -b;
  *hi = -a;
}

static inline void hist_add(pf_hist *h, long long v) {
  if (h->n == 0 || v < h->min) h->min = v;
  if (h->n == 0 || v > h->max) h->max = v;
  h->n++;
  h->sum += v;
  h->sum_sq += v * v;
  h->bin[hist_slot(v)]++;
}

void pf_hist_add(pf_hist *h, long long v) { hist_add(h, v); }

void pf_hist_merge(pf_hist *to, const pf_hist *from) {
  if (from->n == 0) return;
  if (to->n == 0 || from->min < to->min) to->min = from->min;
  if (to->n == 0 || from->max > to->max) to->max = from->max;
  to->n += from->n;
  to->sum += from->sum;
  to->sum_sq += from->sum_sq;
  for (int b = 0; b < PF_AN_SLOTS; b++) to->bin[b] += from->bin[b];
}

/* ------------------------------------------------------------------------------------------ */
/* A game's trace                                                                             */
/* ------------------------------------------------------------------------------------------ */

static void trace_room(pf_an_trace *t) {
  if (t->plies < t->cap) return;
  t->cap = t->cap ? 2 * t->cap : 1024;
  t->legal = pf_xrealloc(t->legal, (size_t)t->cap * sizeof *t->legal);
  t->mover = pf_xrealloc(t->mover, (size_t)t->cap * sizeof *t->mover);
  t->cut = pf_xrealloc(t->cut, (size_t)t->cap * sizeof *t->cut);
}

/* A row of standings from position `at` on, unless it is the last row's. */
static void trace_row(pf_an_trace *t, long long at, const int *standing) {
  int n = t->players, p = 0;
  if (t->rows)
    for (const int *last = t->standing + (t->rows - 1) * n; p < n && last[p] == standing[p];) p++;
  if (t->rows && p == n) return;
  if (t->rows == t->rows_cap) {
    t->rows_cap = t->rows_cap ? 2 * t->rows_cap : 256;
    t->standing = pf_xrealloc(t->standing, (size_t)t->rows_cap * PF_MAX_PLAYERS * sizeof *t->standing);
    t->since = pf_xrealloc(t->since, (size_t)t->rows_cap * sizeof *t->since);
  }
  for (p = 0; p < n; p++) t->standing[t->rows * n + p] = standing[p];
  t->since[t->rows++] = at;
}

void pf_an_trace_begin(pf_an_trace *t, int players, const int *standing) {
  t->players = players;
  t->plies = t->rows = 0;
  t->cut_next = false;
  t->deals = 1;
  t->rounds = 0;
  memset(t->chance_events, 0, sizeof t->chance_events);
  memset(t->seat_events, 0, (size_t)players * sizeof t->seat_events[0]);
  trace_row(t, 0, standing);
}

void pf_an_trace_ply(pf_an_trace *t, int mover, int legal, const int *standing) {
  trace_room(t);
  t->legal[t->plies] = legal;
  t->mover[t->plies] = (signed char)mover;
  t->cut[t->plies] = t->cut_next;
  t->cut_next = false;
  t->plies++;
  if (standing) trace_row(t, t->plies, standing);
}

void pf_an_trace_cut(pf_an_trace *t) { t->cut_next = true; }

void pf_an_trace_free(pf_an_trace *t) {
  free(t->standing);
  free(t->since);
  free(t->legal);
  free(t->mover);
  free(t->cut);
  memset(t, 0, sizeof *t);
}

/* ------------------------------------------------------------------------------------------ */
/* A finished game into the sums                                                              */
/* ------------------------------------------------------------------------------------------ */

/* The leaders of a position as a bit set: the seats with the highest standing, or 0 when every
 * seat has it. */
static unsigned leaders(const int *at, int n) {
  int best = at[0];
  for (int p = 1; p < n; p++)
    if (at[p] > best) best = at[p];
  unsigned m = 0;
  for (int p = 0; p < n; p++)
    if (at[p] == best) m |= 1u << p;
  return m == (1u << n) - 1 ? 0 : m;
}

static int best_of(const int *at, int n, unsigned among) {
  int best = 0;
  bool any = false;
  for (int p = 0; p < n; p++)
    if (among >> p & 1 && (!any || at[p] > best)) best = at[p], any = true;
  return best;
}

/* The lead changes of a game, row by row of its standings (the lead changes only where the
 * standings do): for a game without tension figures (add_tension counts them as it goes). */
static long long lead_changes(const pf_an_trace *t) {
  long long changes = 0;
  unsigned last = 0;
  for (long long r = 0; r < t->rows; r++) {
    unsigned m = leaders(t->standing + r * t->players, t->players);
    if (!m) continue;
    if (last && !(m & last)) changes++, last = m;
    else if (!last || !(m & ~last)) last = m; /* the first leaders, or fewer of them */
  }
  return changes;
}

/* The tension figures of a game, row by row of its standings: a row holds from position since[r]
 * to `end`, the position before the next row's (the lead changes only where the standings do;
 * the winner was last behind at the end of a row, and behind in the second half when that end is
 * in it). A comeback is from behind by the margin or more: a tenth of the game's scale of points,
 * the highest standing (in absolute value) any seat had at any position, rounded up; at least 1. */
static void add_tension(pf_an_sums *s, const pf_an_trace *t, int w, unsigned others, pf_an_game *out) {
  int n = t->players, ph = 0;
  long long plies = t->plies, changes = 0, last_off = -1, drama = 0, late = 0, most = 0;
  unsigned last = 0, all = (1u << n) - 1;
  for (long long r = 0; r < t->rows; r++) {
    const int *at = t->standing + r * n;
    long long end = r + 1 < t->rows ? t->since[r + 1] - 1 : plies;
    int top = at[0];
    for (int p = 0; p < n; p++) {
      if (at[p] > top) top = at[p];
      long long a = llabs(at[p]);
      if (a > most) most = a;
    }
    unsigned m = 0;
    for (int p = 0; p < n; p++) m |= (unsigned)(at[p] == top) << p;
    if (m != all) {
      if (last && !(m & last)) changes++, last = m;
      else if (!last || !(m & ~last)) last = m; /* the first leaders, or fewer of them */
    }
    if (at[w] < top) {
      last_off = end;
      if (2 * end >= plies && top - at[w] > late) late = top - at[w];
      if (top - at[w] > drama) drama = top - at[w];
    }
    /* The winner's lead at the end of each tenth that ends in this row. */
    for (; ph < PF_AN_PHASES && (plies * (ph + 1) + PF_AN_PHASES - 1) / PF_AN_PHASES <= end; ph++) {
      long long lead = at[w] - best_of(at, n, others);
      s->phase_lead[ph] += lead;
      s->phase_lead_sq[ph] += lead * lead;
    }
  }
  long long margin = (most + 9) / 10;
  if (margin < 1) margin = 1;
  bool comeback = late >= margin;
  s->tension_games++;
  s->comebacks += comeback;
  out->comeback = comeback;
  out->lead_changes = changes;
  hist_add(&s->comeback_margin, margin);
  hist_add(&s->lead_changes, changes);
  hist_add(&s->drama, drama);
  long long good = plies ? (last_off + 1) * 1000 / plies : 0;
  hist_add(&s->lead_for_good, good > 1000 ? 1000 : good);
  const int *fin = t->standing + (t->rows - 1) * n;
  hist_add(&s->margin, fin[w] - best_of(fin, n, others));
}

void pf_an_add_game(pf_an_sums *s, const pf_an_trace *t, const int *winners, int nw, const long long *bot_share,
                    int nbots, pf_an_game *out) {
  pf_an_game mine;
  if (!out) out = &mine;
  memset(out, 0, sizeof *out);
  long long plies = t->plies, turns = 0, decisions = 0, forced = 0;
  int prev = PF_NOBODY, ph = 0;
  for (long long k = 0; k < plies; k++) {
    int who = t->mover[k];
    if (t->cut[k]) prev = PF_NOBODY; /* a new deal or round: a new turn */
    if (who == PF_CHANCE) continue;
    if (who != prev) turns++;
    prev = who;
    while (k * PF_AN_PHASES >= (ph + 1) * plies) ph++; /* ph = k * PF_AN_PHASES / plies */
    int legal = t->legal[k];
    decisions++;
    forced += legal == 1;
    s->phase_decisions[ph]++;
    s->phase_legal[ph] += legal;
    s->phase_forced[ph] += legal == 1;
    hist_add(&s->legal, legal);
  }
  hist_add(&s->moves, plies);
  hist_add(&s->turns, turns);
  hist_add(&s->deals, t->deals);
  hist_add(&s->rounds, t->rounds);
  hist_add(&s->decisions, decisions);
  hist_add(&s->forced, forced);
  s->shared += nw > 1;
  s->no_winner += nw == 0;
  unsigned won = 0;
  for (int k = 0; k < nw; k++) won |= 1u << winners[k];
  unsigned others = ((1u << t->players) - 1) & ~won;
  if (nw > 0 && others)
    add_tension(s, t, winners[0], others, out);
  else
    out->lead_changes = lead_changes(t);
  out->turns = turns;
  for (int b = 0; b < nbots; b++)
    for (int c = 0; c < nbots; c++) s->beat[b][c] += bot_share[b] > bot_share[c];
  for (int e = 0; e < PF_MAX_EVENTS; e++) {
    long long all = t->chance_events[e];
    for (int p = 0; p < t->players; p++) all += t->seat_events[p][e];
    s->event[e] += all;
    s->event_sq[e] += all * all;
  }
  for (int p = 0; p < t->players; p++)
    for (int e = 0; e < PF_MAX_EVENTS; e++) {
      s->seat_event[p][e] += t->seat_events[p][e];
      s->seat_event_sq[p][e] += t->seat_events[p][e] * t->seat_events[p][e];
    }
  /* The winner (the first of the winners) against the others (the seats that did not win). */
  int k = __builtin_popcount(others);
  if (nw > 0 && k > 0) {
    s->lead_games[k - 1]++;
    for (int e = 0; e < PF_MAX_EVENTS; e++) {
      long long x = (long long)k * t->seat_events[winners[0]][e];
      for (int p = 0; p < t->players; p++)
        if (others >> p & 1) x -= t->seat_events[p][e];
      s->lead_event[k - 1][e] += x;
      s->lead_event_sq[k - 1][e] += x * x;
    }
  }
  const int *end = t->standing + (t->rows - 1) * t->players;
  for (int p = 0; p < t->players; p++) {
    hist_add(&s->score[p], t->scores[p]);
    if (t->players > 1) hist_add(&s->seat_margin[p], end[p] - best_of(end, t->players, ((1u << t->players) - 1) & ~(1u << p)));
  }
}

void pf_an_sums_add(pf_an_sums *to, const pf_an_sums *from) {
  for (int i = 0; i < NHISTS; i++) pf_hist_merge(HIST(to, i), CHIST(from, i));
  to->shared += from->shared;
  to->no_winner += from->no_winner;
  to->tension_games += from->tension_games;
  to->comebacks += from->comebacks;
  for (int ph = 0; ph < PF_AN_PHASES; ph++) {
    to->phase_decisions[ph] += from->phase_decisions[ph];
    to->phase_legal[ph] += from->phase_legal[ph];
    to->phase_forced[ph] += from->phase_forced[ph];
    to->phase_lead[ph] += from->phase_lead[ph];
    to->phase_lead_sq[ph] += from->phase_lead_sq[ph];
  }
  for (int b = 0; b < PF_MAX_PLAYERS; b++)
    for (int c = 0; c < PF_MAX_PLAYERS; c++) to->beat[b][c] += from->beat[b][c];
  for (int e = 0; e < PF_MAX_EVENTS; e++) {
    to->event[e] += from->event[e];
    to->event_sq[e] += from->event_sq[e];
  }
  for (int p = 0; p < PF_MAX_PLAYERS; p++) {
    pf_hist_merge(&to->score[p], &from->score[p]);
    pf_hist_merge(&to->seat_margin[p], &from->seat_margin[p]);
    for (int e = 0; e < PF_MAX_EVENTS; e++) {
      to->seat_event[p][e] += from->seat_event[p][e];
      to->seat_event_sq[p][e] += from->seat_event_sq[p][e];
    }
  }
  for (int k = 0; k < PF_MAX_PLAYERS - 1; k++) {
    to->lead_games[k] += from->lead_games[k];
    for (int e = 0; e < PF_MAX_EVENTS; e++) {
      to->lead_event[k][e] += from->lead_event[k][e];
      to->lead_event_sq[k][e] += from->lead_event_sq[k][e];
    }
  }
  to->deal_groups += from->deal_groups;
  to->deal_y += from->deal_y;
  to->deal_y2 += from->deal_y2;
  to->deal_sq += from->deal_sq;
}

void pf_an_add_deal(pf_an_sums *s, int players, const long long share[][PF_MAX_PLAYERS]) {
  for (int p = 0; p < players; p++) {
    long long total = 0;
    for (int r = 0; r < players; r++) {
      total += share[r][p];
      s->deal_y += share[r][p];
      s->deal_y2 += share[r][p] * share[r][p];
    }
    s->deal_groups++;
    s->deal_sq += total * total;
  }
}

/* The groups are the (deal, seat) pairs, m = players shares each (one per rotation, so one per
 * bot of the seat list), G of them, N = G m shares y. With S_g a group's total:
 *   between: MSB = (sum S_g^2 / m - (sum y)^2 / N) / (G - 1)
 *   within:  MSW = (sum y^2 - sum S_g^2 / m) / (G (m - 1))
 *   share = (MSB - MSW) / (MSB + (m - 1) MSW), kept within 0..1,
 * the intraclass correlation: 1 when a seat of a deal has the same result whichever bot holds it,
 * 0 when the deal tells nothing of it. Its interval is the normal one with Fisher's large-sample
 * variance 2 (1 - r)^2 (1 + (m - 1) r)^2 / (m (m - 1) (D - 1)), D the deals (not the groups: the
 * seats of one deal are not independent). */
bool pf_an_deal_share(const pf_an_sums *s, int players, double *share, double *lo, double *hi) {
  double m = players, G = (double)s->deal_groups, D = G / m, N = G * m;
  if (players < 2 || D < 2) return false;
  double y = (double)s->deal_y / PF_WIN_UNIT, y2 = (double)s->deal_y2 / ((double)PF_WIN_UNIT * PF_WIN_UNIT);
  double sq = (double)s->deal_sq / ((double)PF_WIN_UNIT * PF_WIN_UNIT);
  double msb = (sq / m - y * y / N) / (G - 1), msw = (y2 - sq / m) / (G * (m - 1));
  double r = msb + (m - 1) * msw > 0 ? (msb - msw) / (msb + (m - 1) * msw) : 0;
  r = r < 0 ? 0 : r > 1 ? 1 : r;
  double se = sqrt(2 * (1 - r) * (1 - r) * (1 + (m - 1) * r) * (1 + (m - 1) * r) / (m * (m - 1) * (D - 1)));
  *share = r;
  *lo = r - 1.96 * se < 0 ? 0 : r - 1.96 * se;
  *hi = r + 1.96 * se > 1 ? 1 : r + 1.96 * se;
  return true;
}

/* ------------------------------------------------------------------------------------------ */
/* JSON                                                                                       */
/* ------------------------------------------------------------------------------------------ */

static void pair(pf_jw *w, const char *key, double a, double b) {
  pf_jw_key(w, key);
  pf_jw_open(w, '[');
  pf_jw_real(w, a);
  pf_jw_real(w, b);
  pf_jw_close(w, ']');
}

/* The value below which a share q of a histogram's values lie, read from its bins: exact below 16,
 * within its bin's width above (interpolated). */
static double quantile(const pf_hist *h, double q) {
  double want = q * (double)h->n, cum = 0;
  for (int b = 0; b < PF_AN_SLOTS; b++) {
    if (!h->bin[b]) continue;
    if (cum + (double)h->bin[b] >= want) {
      long long lo, hi;
      pf_hist_slot_bounds(b, &lo, &hi);
      if (lo < h->min) lo = h->min;
      if (hi > h->max) hi = h->max;
      return lo == hi ? (double)lo : (double)lo + (double)(hi - lo) * (want - cum) / (double)h->bin[b];
    }
    cum += (double)h->bin[b];
  }
  return (double)h->max;
}

/* A histogram as shown: mean, sd, 95% interval of the mean, least, most, p10, median, p90 and the
 * bins [lo, hi, count] that hold any value, every figure divided by scale. */
static void hist_write(pf_jw *w, const pf_hist *h, int scale) {
  pf_sim_estimate e = pf_sim_mean(h->sum, h->sum_sq, h->n, scale);
  double k = scale;
  pf_jw_open(w, '{');
  pf_jw_key_int(w, "n", h->n);
  pf_jw_key_real(w, "mean", e.mean);
  pf_jw_key_real(w, "sd", e.sd);
  pair(w, "ci95", e.lo, e.hi);
  pf_jw_key_real(w, "min", h->min / k);
  pf_jw_key_real(w, "max", h->max / k);
  pf_jw_key_real(w, "p10", quantile(h, 0.1) / k);
  pf_jw_key_real(w, "median", quantile(h, 0.5) / k);
  pf_jw_key_real(w, "p90", quantile(h, 0.9) / k);
  pf_jw_key(w, "bins");
  pf_jw_open(w, '[');
  for (int b = 0; b < PF_AN_SLOTS; b++) {
    if (!h->bin[b]) continue;
    long long lo, hi;
    pf_hist_slot_bounds(b, &lo, &hi);
    if (hi > h->max) hi = h->max;
    if (b < PF_AN_BINS && lo < h->min) lo = h->min; /* the open end below */
    pf_jw_open(w, '[');
    pf_jw_real(w, lo / k);
    pf_jw_real(w, hi / k);
    pf_jw_int(w, h->bin[b]);
    pf_jw_close(w, ']');
  }
  pf_jw_close(w, ']');
  pf_jw_close(w, '}');
}

/* A share of n with its Wilson interval; the object is left open. */
static void rate_open(pf_jw *w, long long count, long long n) {
  pf_sim_estimate e = pf_sim_wilson(count * PF_WIN_UNIT, count * PF_WIN_UNIT * PF_WIN_UNIT, n);
  pf_jw_open(w, '{');
  pf_jw_key_int(w, "count", count);
  pf_jw_key_int(w, "of", n);
  pf_jw_key_real(w, "rate", e.mean);
  pair(w, "ci95", e.lo, e.hi);
}

static void rate_write(pf_jw *w, const char *key, long long count, long long n) {
  pf_jw_key(w, key);
  rate_open(w, count, n);
  pf_jw_close(w, '}');
}

/* A mean with its sd and interval; the object is left open. */
static void mean_open(pf_jw *w, long long sum, long long sum_sq, long long n) {
  pf_sim_estimate e = pf_sim_mean(sum, sum_sq, n, 1);
  pf_jw_open(w, '{');
  pf_jw_key_real(w, "mean", e.mean);
  pf_jw_key_real(w, "sd", e.sd);
  pair(w, "ci95", e.lo, e.hi);
}

/* The histograms of HISTS[i..] in one group, the group's own figures after them (HISTS holds each
 * group's histograms together). */
static int group_hists(pf_jw *w, const pf_an_sums *s, const pf_game *g, int i) {
  pf_jw_key(w, HISTS[i].group);
  pf_jw_open(w, '{');
  int j = i;
  for (; j < NHISTS && strcmp(HISTS[j].group, HISTS[i].group) == 0; j++) {
    if (HISTS[j].off == offsetof(pf_an_sums, rounds) && !g->round) continue; /* a game without rounds */
    pf_jw_key(w, HISTS[j].name);
    hist_write(w, CHIST(s, j), HISTS[j].scale);
  }
  return j;
}

/* ---- the balance of the seats ---- */

double pf_an_gamma_q(double a, double x) {
  if (x <= 0) return 1;
  double front = exp(-x + a * log(x) - lgamma(a));
  if (x < a + 1) { /* the series of P(a, x) */
    double term = 1 / a, sum = term;
    for (int k = 1; k < 1000 && term > sum * 1e-16; k++) sum += term *= x / (a + k);
    double q = 1 - sum * front;
    return q < 0 ? 0 : q;
  }
  /* Q's continued fraction, evaluated by the modified Lentz method. */
  double tiny = 1e-300, b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (int k = 1; k < 1000; k++) {
    double an = -k * (k - a);
    b += 2;
    d = an * d + b;
    if (fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (fabs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    if (fabs(d * c - 1) < 1e-16) break;
  }
  return front * h;
}

double pf_an_chi2(const double *wins, int n, double *p_value) {
  double total = 0, chi2 = 0;
  for (int p = 0; p < n; p++) total += wins[p];
  *p_value = 1;
  if (total <= 0 || n < 2) return 0;
  double want = total / n;
  for (int p = 0; p < n; p++) chi2 += (wins[p] - want) * (wins[p] - want) / want;
  *p_value = pf_an_gamma_q((n - 1) / 2.0, chi2 / 2);
  return chi2;
}

/* "balance": the chi-squared test of equal shares over the seats' wins (shared wins split), and
 * the seat that won least, its win rate and its deficit from the fair share, with intervals. */
static void balance_write(pf_jw *w, const pf_an_run *run) {
  int n = run->players, worst = 0;
  double wins[PF_MAX_PLAYERS], p_value;
  for (int p = 0; p < n; p++) {
    wins[p] = (double)run->win[p] / PF_WIN_UNIT;
    if (run->win[p] < run->win[worst]) worst = p;
  }
  double chi2 = pf_an_chi2(wins, n, &p_value), fair = 1.0 / n;
  pf_sim_estimate e = pf_sim_wilson(run->win[worst], run->win_sq[worst], run->games);
  pf_jw_key(w, "balance");
  pf_jw_open(w, '{');
  pf_jw_key_real(w, "chi2", chi2);
  pf_jw_key_int(w, "df", n - 1);
  pf_jw_key_real(w, "p_value", p_value);
  pf_jw_key_int(w, "worst_seat", worst);
  pf_jw_key_real(w, "worst_win_rate", e.mean);
  pair(w, "worst_win_rate_ci95", e.lo, e.hi);
  pf_jw_key_real(w, "fair_share", fair);
  pf_jw_key_real(w, "worst_deficit", fair - e.mean);
  pair(w, "worst_deficit_ci95", fair - e.hi, fair - e.lo);
  pf_jw_close(w, '}');
}

void pf_an_write(pf_jw *w, const pf_an_sums *s, const pf_an_run *run) {
  const pf_game *g = run->game;
  long long games = run->games;
  const char *const *bot_names = run->bot_names;
  int nbots = run->nbots;
  pf_jw_open(w, '{');
  for (int i = 0; i < NHISTS;) {
    const char *group = HISTS[i].group;
    i = group_hists(w, s, g, i);
    if (strcmp(group, "decisiveness") == 0) {
      rate_write(w, "shared_wins", s->shared, games);
      rate_write(w, "no_winner", s->no_winner, games);
    } else if (strcmp(group, "tension") == 0) {
      pf_jw_key_int(w, "games", s->tension_games);
      rate_write(w, "comebacks", s->comebacks, s->tension_games);
      pf_jw_key(w, "winner_lead_by_phase");
      pf_jw_open(w, '[');
      for (int ph = 0; ph < PF_AN_PHASES; ph++) {
        mean_open(w, s->phase_lead[ph], s->phase_lead_sq[ph], s->tension_games);
        pf_jw_close(w, '}');
      }
      pf_jw_close(w, ']');
    } else if (strcmp(group, "choice") == 0) {
      long long forced = 0;
      for (int ph = 0; ph < PF_AN_PHASES; ph++) forced += s->phase_forced[ph];
      pf_jw_key_real(w, "forced_share", s->legal.n ? (double)forced / (double)s->legal.n : 0.0);
      pf_jw_key(w, "by_phase");
      pf_jw_open(w, '[');
      for (int ph = 0; ph < PF_AN_PHASES; ph++) {
        long long d = s->phase_decisions[ph];
        pf_jw_open(w, '{');
        pf_jw_key_int(w, "decisions", d);
        pf_jw_key_real(w, "legal_mean", d ? (double)s->phase_legal[ph] / (double)d : 0.0);
        pf_jw_key_real(w, "forced_share", d ? (double)s->phase_forced[ph] / (double)d : 0.0);
        pf_jw_close(w, '}');
      }
      pf_jw_close(w, ']');
    }
    pf_jw_close(w, '}');
  }
  pf_jw_key(w, "beats");
  pf_jw_open(w, '[');
  for (int b = 0; b < nbots; b++)
    for (int c = 0; c < nbots; c++) {
      if (b == c) continue;
      rate_open(w, s->beat[b][c], games);
      pf_jw_key_str(w, "bot", bot_names[b]);
      pf_jw_key_str(w, "against", bot_names[c]);
      pf_jw_close(w, '}');
    }
  pf_jw_close(w, ']');
  pf_jw_key(w, "events");
  pf_jw_open(w, '{');
  for (int e = 0; e < pf_nevents(g); e++) {
    pf_jw_key(w, g->events[e]);
    mean_open(w, s->event[e], s->event_sq[e], games);
    pf_jw_key_int(w, "total", s->event[e]);
    pf_jw_key(w, "per_seat");
    pf_jw_open(w, '[');
    for (int p = 0; p < run->players; p++) {
      mean_open(w, s->seat_event[p][e], s->seat_event_sq[p][e], games);
      pf_jw_close(w, '}');
    }
    pf_jw_close(w, ']');
    if (run->players > 1) {
      /* The winner's count less the others' mean: x / k of the sums kept by k, the others. */
      long long n = 0;
      double sum = 0, sum_sq = 0;
      for (int k = 1; k < run->players; k++) {
        n += s->lead_games[k - 1];
        sum += (double)s->lead_event[k - 1][e] / k;
        sum_sq += (double)s->lead_event_sq[k - 1][e] / ((double)k * k);
      }
      pf_sim_estimate d = {0};
      if (n > 0) {
        d.mean = sum / (double)n;
        double var = n > 1 ? (sum_sq - (double)n * d.mean * d.mean) / (double)(n - 1) : 0;
        d.sd = var > 0 ? sqrt(var) : 0;
        d.lo = d.mean - 1.96 * d.sd / sqrt((double)n);
        d.hi = d.mean + 1.96 * d.sd / sqrt((double)n);
      }
      pf_jw_key(w, "winner_minus_others");
      pf_jw_open(w, '{');
      pf_jw_key_int(w, "games", n);
      pf_jw_key_real(w, "mean", d.mean);
      pf_jw_key_real(w, "sd", d.sd);
      pair(w, "ci95", d.lo, d.hi);
      pf_jw_close(w, '}');
    }
    pf_jw_close(w, '}');
  }
  pf_jw_close(w, '}');
  double share, lo, hi;
  if (pf_an_deal_share(s, run->players, &share, &lo, &hi)) {
    pf_jw_key(w, "deal_share");
    pf_jw_open(w, '{');
    pf_jw_key_int(w, "deals", s->deal_groups / run->players);
    pf_jw_key_real(w, "share", share);
    pair(w, "ci95", lo, hi);
    pf_jw_close(w, '}');
  }
  balance_write(w, run);
  pf_jw_key(w, "seats");
  pf_jw_open(w, '[');
  for (int p = 0; p < run->players; p++) {
    pf_jw_open(w, '{');
    pf_jw_key(w, "score");
    hist_write(w, &s->score[p], 1);
    if (run->players > 1) {
      pf_jw_key(w, "margin");
      hist_write(w, &s->seat_margin[p], 1);
    }
    pf_jw_close(w, '}');
  }
  pf_jw_close(w, ']');
  pf_jw_close(w, '}');
}

static void llongs(pf_jw *w, const char *key, const long long *v, int n) {
  if (key) pf_jw_key(w, key);
  pf_jw_llongs(w, v, n);
}

static void hist_sums_write(pf_jw *w, const pf_hist *h) {
  pf_jw_open(w, '{');
  pf_jw_key_int(w, "n", h->n);
  pf_jw_key_int(w, "sum", h->sum);
  pf_jw_key_int(w, "sum_sq", h->sum_sq);
  pf_jw_key_int(w, "min", h->min);
  pf_jw_key_int(w, "max", h->max);
  pf_jw_key(w, "bins");
  pf_jw_open(w, '[');
  for (int b = 0; b < PF_AN_SLOTS; b++)
    if (h->bin[b]) {
      long long lo, hi;
      pf_hist_slot_bounds(b, &lo, &hi);
      pf_jw_open(w, '[');
      pf_jw_int(w, lo);
      pf_jw_int(w, h->bin[b]);
      pf_jw_close(w, ']');
    }
  pf_jw_close(w, ']');
  pf_jw_close(w, '}');
}

static void hists_sums_write(pf_jw *w, const char *key, const pf_hist *h, int n) {
  pf_jw_key(w, key);
  pf_jw_open(w, '[');
  for (int p = 0; p < n; p++) hist_sums_write(w, &h[p]);
  pf_jw_close(w, ']');
}

void pf_an_sums_write(pf_jw *w, const pf_an_sums *s, const pf_game *g, int players, int nbots) {
  pf_jw_open(w, '{');
  for (int i = 0; i < NHISTS; i++) {
    pf_jw_key(w, HISTS[i].name);
    hist_sums_write(w, CHIST(s, i));
  }
  pf_jw_key_int(w, "shared", s->shared);
  pf_jw_key_int(w, "no_winner", s->no_winner);
  pf_jw_key_int(w, "tension_games", s->tension_games);
  pf_jw_key_int(w, "comebacks", s->comebacks);
  llongs(w, "phase_decisions", s->phase_decisions, PF_AN_PHASES);
  llongs(w, "phase_legal", s->phase_legal, PF_AN_PHASES);
  llongs(w, "phase_forced", s->phase_forced, PF_AN_PHASES);
  llongs(w, "phase_lead", s->phase_lead, PF_AN_PHASES);
  llongs(w, "phase_lead_sq", s->phase_lead_sq, PF_AN_PHASES);
  pf_jw_key(w, "beat");
  pf_jw_open(w, '[');
  for (int b = 0; b < nbots; b++) llongs(w, NULL, s->beat[b], nbots);
  pf_jw_close(w, ']');
  llongs(w, "event", s->event, pf_nevents(g));
  llongs(w, "event_sq", s->event_sq, pf_nevents(g));
  hists_sums_write(w, "score", s->score, players);
  hists_sums_write(w, "seat_margin", s->seat_margin, players);
  int ne = pf_nevents(g);
  pf_jw_key(w, "seat_event");
  pf_jw_open(w, '[');
  for (int p = 0; p < players; p++) llongs(w, NULL, s->seat_event[p], ne);
  pf_jw_close(w, ']');
  pf_jw_key(w, "seat_event_sq");
  pf_jw_open(w, '[');
  for (int p = 0; p < players; p++) llongs(w, NULL, s->seat_event_sq[p], ne);
  pf_jw_close(w, ']');
  llongs(w, "lead_games", s->lead_games, players - 1);
  pf_jw_key(w, "lead_event");
  pf_jw_open(w, '[');
  for (int k = 0; k + 1 < players; k++) llongs(w, NULL, s->lead_event[k], ne);
  pf_jw_close(w, ']');
  pf_jw_key(w, "lead_event_sq");
  pf_jw_open(w, '[');
  for (int k = 0; k + 1 < players; k++) llongs(w, NULL, s->lead_event_sq[k], ne);
  pf_jw_close(w, ']');
  pf_jw_key_int(w, "deal_groups", s->deal_groups);
  pf_jw_key_int(w, "deal_y", s->deal_y);
  pf_jw_key_int(w, "deal_y2", s->deal_y2);
  pf_jw_key_int(w, "deal_sq", s->deal_sq);
  pf_jw_close(w, '}');
}

/* ---- reading the sums back: every field checked, a bad one named ---- */

static int read_ll(json_t *o, const char *key, long long min, long long *out, pf_error *err) {
  json_t *x = json_object_get(o, key);
  if (!json_is_integer(x) || json_integer_value(x) < min)
    return pf_fail(err, "%s: expected an integer from %lld", key, min);
  *out = json_integer_value(x);
  return 0;
}

static int read_lls_of(json_t *a, const char *key, long long *out, int n, pf_error *err) {
  if (!json_is_array(a) || (int)json_array_size(a) != n) return pf_fail(err, "%s: expected an array of %d integers", key, n);
  for (int i = 0; i < n; i++) {
    json_t *x = json_array_get(a, (size_t)i);
    if (!json_is_integer(x)) return pf_fail(err, "%s[%d]: expected an integer", key, i);
    out[i] = json_integer_value(x);
  }
  return 0;
}

static int read_lls(json_t *o, const char *key, long long *out, int n, pf_error *err) {
  return read_lls_of(json_object_get(o, key), key, out, n, err);
}

static int read_hist(json_t *o, pf_hist *h, pf_error *err) {
  if (!json_is_object(o)) return pf_fail(err, "expected an object");
  if (read_ll(o, "n", 0, &h->n, err) || read_ll(o, "sum", INT64_MIN, &h->sum, err) ||
      read_ll(o, "sum_sq", 0, &h->sum_sq, err) || read_ll(o, "min", INT64_MIN, &h->min, err) ||
      read_ll(o, "max", h->min, &h->max, err))
    return -1;
  json_t *bins = json_object_get(o, "bins");
  if (!json_is_array(bins)) return pf_fail(err, "bins: expected an array of [lo, count]");
  long long total = 0;
  for (size_t i = 0; i < json_array_size(bins); i++) {
    json_t *x = json_array_get(bins, i), *lo = json_array_get(x, 0), *count = json_array_get(x, 1);
    if (!json_is_array(x) || json_array_size(x) != 2 || !json_is_integer(lo) || !json_is_integer(count) ||
        json_integer_value(count) < 1)
      return pf_fail(err, "bins[%zu]: expected [lo, count] with a count from 1", i);
    int b = pf_hist_slot(json_integer_value(lo));
    long long blo, bhi;
    pf_hist_slot_bounds(b, &blo, &bhi);
    if (blo != json_integer_value(lo) || h->bin[b])
      return pf_fail(err, "bins[%zu]: %lld is not where a bin begins, or its bin is given twice", i,
                     (long long)json_integer_value(lo));
    h->bin[b] = json_integer_value(count);
    total += h->bin[b];
  }
  if (total != h->n) return pf_fail(err, "bins: they hold %lld values, not n = %lld", total, h->n);
  return 0;
}

/* An array of n histograms' sums at key. */
static int read_hists(json_t *j, const char *key, pf_hist *h, int n, pf_error *err) {
  json_t *a = json_object_get(j, key);
  if (!json_is_array(a) || (int)json_array_size(a) != n) return pf_fail(err, "%s: expected %d histograms, one per seat", key, n);
  for (int p = 0; p < n; p++)
    if (read_hist(json_array_get(a, (size_t)p), &h[p], err) != 0) {
      pf_error_prefix(err, "%s[%d]", key, p);
      return -1;
    }
  return 0;
}

int pf_an_sums_read(json_t *j, const pf_game *g, int players, int nbots, pf_an_sums *s, pf_error *err) {
  memset(s, 0, sizeof *s);
  if (!json_is_object(j)) return pf_fail(err, "expected an object");
  for (int i = 0; i < NHISTS; i++)
    if (read_hist(json_object_get(j, HISTS[i].name), HIST(s, i), err) != 0) {
      pf_error_prefix(err, "%s", HISTS[i].name);
      return -1;
    }
  if (read_ll(j, "shared", 0, &s->shared, err) || read_ll(j, "no_winner", 0, &s->no_winner, err) ||
      read_ll(j, "tension_games", 0, &s->tension_games, err) || read_ll(j, "comebacks", 0, &s->comebacks, err) ||
      read_lls(j, "phase_decisions", s->phase_decisions, PF_AN_PHASES, err) ||
      read_lls(j, "phase_legal", s->phase_legal, PF_AN_PHASES, err) ||
      read_lls(j, "phase_forced", s->phase_forced, PF_AN_PHASES, err) ||
      read_lls(j, "phase_lead", s->phase_lead, PF_AN_PHASES, err) ||
      read_lls(j, "phase_lead_sq", s->phase_lead_sq, PF_AN_PHASES, err) ||
      read_lls(j, "event", s->event, pf_nevents(g), err) || read_lls(j, "event_sq", s->event_sq, pf_nevents(g), err))
    return -1;
  json_t *beat = json_object_get(j, "beat");
  if (!json_is_array(beat) || (int)json_array_size(beat) != nbots)
    return pf_fail(err, "beat: expected %d rows, one per bot", nbots);
  for (int b = 0; b < nbots; b++)
    if (read_lls_of(json_array_get(beat, (size_t)b), "beat", s->beat[b], nbots, err) != 0) return -1;
  if (read_hists(j, "score", s->score, players, err) || read_hists(j, "seat_margin", s->seat_margin, players, err))
    return -1;
  int ne = pf_nevents(g);
  const char *rows[2] = {"seat_event", "seat_event_sq"};
  for (int k = 0; k < 2; k++) {
    json_t *a = json_object_get(j, rows[k]);
    if (!json_is_array(a) || (int)json_array_size(a) != players)
      return pf_fail(err, "%s: expected %d rows, one per seat", rows[k], players);
    for (int p = 0; p < players; p++)
      if (read_lls_of(json_array_get(a, (size_t)p), rows[k], k ? s->seat_event_sq[p] : s->seat_event[p], ne, err) != 0)
        return -1;
  }
  const char *lead[2] = {"lead_event", "lead_event_sq"};
  for (int r = 0; r < 2; r++) {
    json_t *a = json_object_get(j, lead[r]);
    if (!json_is_array(a) || (int)json_array_size(a) != players - 1)
      return pf_fail(err, "%s: expected %d rows, one per number of others", lead[r], players - 1);
    for (int k = 0; k + 1 < players; k++)
      if (read_lls_of(json_array_get(a, (size_t)k), lead[r], r ? s->lead_event_sq[k] : s->lead_event[k], ne, err) != 0)
        return -1;
  }
  if (read_lls(j, "lead_games", s->lead_games, players - 1, err) || read_ll(j, "deal_groups", 0, &s->deal_groups, err) ||
      read_ll(j, "deal_y", 0, &s->deal_y, err) || read_ll(j, "deal_y2", 0, &s->deal_y2, err) ||
      read_ll(j, "deal_sq", 0, &s->deal_sq, err))
    return -1;
  return 0;
}

/* ---- warnings ---- */

void pf_an_warnings_write(pf_jw *w, const pf_an_sums *s, long long games, const pf_game *g, int players,
                          const pf_options *options) {
  pf_jw_key(w, "warnings");
  pf_jw_open(w, '[');
  for (int e = 0; e < pf_nevents(g) && games > 0; e++) {
    if (s->event[e] || !pf_event_possible(g, players, options, e)) continue;
    char text[256];
    snprintf(text, sizeof text, "%s stayed at 0 over %lld game%s: nothing in this run measures it (do the bots use this rule?)", g->events[e],
             games, games == 1 ? "" : "s");
    pf_jw_open(w, '{');
    pf_jw_key_str(w, "event", g->events[e]);
    pf_jw_key_str(w, "warning", text);
    pf_jw_close(w, '}');
  }
  pf_jw_close(w, ']');
}
