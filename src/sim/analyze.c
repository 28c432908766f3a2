/*
 * analyze.c - the design metrics of a run: a trace per game, reduced into exact sums (analyze.h).
 */
#include "sim/analyze.h"

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
    {"decisions", "length", offsetof(pf_an_sums, decisions), 1},
    {"margin", "decisiveness", offsetof(pf_an_sums, margin), 1},
    {"lead_changes", "tension", offsetof(pf_an_sums, lead_changes), 1},
    {"lead_for_good", "tension", offsetof(pf_an_sums, lead_for_good), 1000},
    {"drama", "tension", offsetof(pf_an_sums, drama), 1},
    {"legal", "choice", offsetof(pf_an_sums, legal), 1},
    {"forced", "choice", offsetof(pf_an_sums, forced), 1},
};
#define NHISTS (int)(sizeof HISTS / sizeof *HISTS)
#define HIST(s, i) ((pf_hist *)((char *)(s) + HISTS[i].off))
#define CHIST(s, i) ((const pf_hist *)((const char *)(s) + HISTS[i].off))

/* ------------------------------------------------------------------------------------------ */
/* Histograms                                                                                 */
/* ------------------------------------------------------------------------------------------ */

int pf_hist_bin(long long v) {
  if (v < 16) return v < 0 ? 0 : (int)v;
  int k = 63 - __builtin_clzll((unsigned long long)v); /* 2^k <= v < 2^(k+1), k >= 4 */
  int b = 16 + (k - 4) * 8 + (int)((v >> (k - 3)) & 7);
  return b < PF_AN_BINS ? b : PF_AN_BINS - 1;
}

void pf_hist_bounds(int b, long long *lo, long long *hi) {
  if (b < 16) {
    *lo = *hi = b;
    return;
  }
  int k = 4 + (b - 16) / 8, q = (b - 16) % 8;
  *lo = (1LL << k) + (long long)q * (1LL << (k - 3));
  *hi = b == PF_AN_BINS - 1 ? INT64_MAX : *lo + (1LL << (k - 3)) - 1;
}

void pf_hist_add(pf_hist *h, long long v) {
  if (h->n == 0 || v < h->min) h->min = v;
  if (h->n == 0 || v > h->max) h->max = v;
  h->n++;
  h->sum += v;
  h->sum_sq += v * v;
  h->bin[pf_hist_bin(v)]++;
}

void pf_hist_merge(pf_hist *to, const pf_hist *from) {
  if (from->n == 0) return;
  if (to->n == 0 || from->min < to->min) to->min = from->min;
  if (to->n == 0 || from->max > to->max) to->max = from->max;
  to->n += from->n;
  to->sum += from->sum;
  to->sum_sq += from->sum_sq;
  for (int b = 0; b < PF_AN_BINS; b++) to->bin[b] += from->bin[b];
}

/* ------------------------------------------------------------------------------------------ */
/* A game's trace                                                                             */
/* ------------------------------------------------------------------------------------------ */

static void trace_room(pf_an_trace *t) {
  if (t->plies < t->cap) return;
  t->cap = t->cap ? 2 * t->cap : 1024;
  t->legal = pf_xrealloc(t->legal, (size_t)t->cap * sizeof *t->legal);
  t->mover = pf_xrealloc(t->mover, (size_t)t->cap * sizeof *t->mover);
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
  memset(t->events, 0, sizeof t->events);
  trace_row(t, 0, standing);
}

void pf_an_trace_ply(pf_an_trace *t, int mover, int legal, const int *standing) {
  trace_room(t);
  t->legal[t->plies] = legal;
  t->mover[t->plies] = (signed char)mover;
  t->plies++;
  if (standing) trace_row(t, t->plies, standing);
}

void pf_an_trace_free(pf_an_trace *t) {
  free(t->standing);
  free(t->since);
  free(t->legal);
  free(t->mover);
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

/* The tension figures of a game, row by row of its standings: a row holds from position since[r]
 * to `last`, the position before the next row's (the lead changes only where the standings do;
 * the winner was last behind at the end of a row, and behind in the second half when that end is
 * in it). */
static void add_tension(pf_an_sums *s, const pf_an_trace *t, int w, unsigned others) {
  int n = t->players, ph = 0;
  long long plies = t->plies, changes = 0, last_off = -1, drama = 0;
  bool comeback = false;
  unsigned last = 0;
  for (long long r = 0; r < t->rows; r++) {
    const int *at = t->standing + r * n;
    long long end = r + 1 < t->rows ? t->since[r + 1] - 1 : plies;
    unsigned m = leaders(at, n);
    if (m) {
      if (last && !(m & last)) changes++, last = m;
      else if (!last || !(m & ~last)) last = m; /* the first leaders, or fewer of them */
    }
    int top = best_of(at, n, (1u << n) - 1);
    if (at[w] < top) {
      last_off = end;
      if (2 * end >= plies) comeback = true;
      if (top - at[w] > drama) drama = top - at[w];
    }
    /* The winner's lead at the end of each tenth that ends in this row. */
    for (; ph < PF_AN_PHASES && (plies * (ph + 1) + PF_AN_PHASES - 1) / PF_AN_PHASES <= end; ph++) {
      long long lead = at[w] - best_of(at, n, others);
      s->phase_lead[ph] += lead;
      s->phase_lead_sq[ph] += lead * lead;
    }
  }
  s->tension_games++;
  s->comebacks += comeback;
  pf_hist_add(&s->lead_changes, changes);
  pf_hist_add(&s->drama, drama);
  long long good = plies ? (last_off + 1) * 1000 / plies : 0;
  pf_hist_add(&s->lead_for_good, good > 1000 ? 1000 : good);
  const int *end = t->standing + (t->rows - 1) * n;
  pf_hist_add(&s->margin, end[w] - best_of(end, n, others));
}

void pf_an_add_game(pf_an_sums *s, const pf_an_trace *t, int deals, const int *winners, int nw,
                    const long long *bot_share, int nbots) {
  long long plies = t->plies, turns = 0, decisions = 0, forced = 0;
  int prev = PF_NOBODY, ph = 0;
  for (long long k = 0; k < plies; k++) {
    int who = t->mover[k];
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
    pf_hist_add(&s->legal, legal);
  }
  pf_hist_add(&s->moves, plies);
  pf_hist_add(&s->turns, turns);
  pf_hist_add(&s->deals, deals);
  pf_hist_add(&s->decisions, decisions);
  pf_hist_add(&s->forced, forced);
  s->shared += nw > 1;
  s->no_winner += nw == 0;
  unsigned won = 0;
  for (int k = 0; k < nw; k++) won |= 1u << winners[k];
  unsigned others = ((1u << t->players) - 1) & ~won;
  if (nw > 0 && others) add_tension(s, t, winners[0], others);
  for (int b = 0; b < nbots; b++)
    for (int c = 0; c < nbots; c++) s->beat[b][c] += bot_share[b] > bot_share[c];
  for (int e = 0; e < PF_MAX_EVENTS; e++) {
    s->event[e] += t->events[e];
    s->event_sq[e] += t->events[e] * t->events[e];
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
  for (int b = 0; b < PF_AN_BINS; b++) {
    if (!h->bin[b]) continue;
    if (cum + (double)h->bin[b] >= want) {
      long long lo, hi;
      pf_hist_bounds(b, &lo, &hi);
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
  for (int b = 0; b < PF_AN_BINS; b++) {
    if (!h->bin[b]) continue;
    long long lo, hi;
    pf_hist_bounds(b, &lo, &hi);
    if (hi > h->max) hi = h->max;
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
static int group_hists(pf_jw *w, const pf_an_sums *s, int i) {
  pf_jw_key(w, HISTS[i].group);
  pf_jw_open(w, '{');
  int j = i;
  for (; j < NHISTS && strcmp(HISTS[j].group, HISTS[i].group) == 0; j++) {
    pf_jw_key(w, HISTS[j].name);
    hist_write(w, CHIST(s, j), HISTS[j].scale);
  }
  return j;
}

void pf_an_write(pf_jw *w, const pf_an_sums *s, long long games, const pf_game *g, const char *const *bot_names,
                 int nbots) {
  pf_jw_open(w, '{');
  for (int i = 0; i < NHISTS;) {
    const char *group = HISTS[i].group;
    i = group_hists(w, s, i);
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
    pf_jw_close(w, '}');
  }
  pf_jw_close(w, '}');
  pf_jw_close(w, '}');
}

static void llongs(pf_jw *w, const char *key, const long long *v, int n) {
  if (key) pf_jw_key(w, key);
  pf_jw_llongs(w, v, n);
}

void pf_an_sums_write(pf_jw *w, const pf_an_sums *s, const pf_game *g, int nbots) {
  pf_jw_open(w, '{');
  for (int i = 0; i < NHISTS; i++) {
    const pf_hist *h = CHIST(s, i);
    pf_jw_key(w, HISTS[i].name);
    pf_jw_open(w, '{');
    pf_jw_key_int(w, "n", h->n);
    pf_jw_key_int(w, "sum", h->sum);
    pf_jw_key_int(w, "sum_sq", h->sum_sq);
    pf_jw_key_int(w, "min", h->min);
    pf_jw_key_int(w, "max", h->max);
    pf_jw_key(w, "bins");
    pf_jw_open(w, '[');
    for (int b = 0; b < PF_AN_BINS; b++)
      if (h->bin[b]) {
        long long lo, hi;
        pf_hist_bounds(b, &lo, &hi);
        pf_jw_open(w, '[');
        pf_jw_int(w, lo);
        pf_jw_int(w, h->bin[b]);
        pf_jw_close(w, ']');
      }
    pf_jw_close(w, ']');
    pf_jw_close(w, '}');
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
    int b = pf_hist_bin(json_integer_value(lo));
    long long blo, bhi;
    pf_hist_bounds(b, &blo, &bhi);
    if (blo != json_integer_value(lo) || h->bin[b])
      return pf_fail(err, "bins[%zu]: %lld is not where a bin begins, or its bin is given twice", i,
                     (long long)json_integer_value(lo));
    h->bin[b] = json_integer_value(count);
    total += h->bin[b];
  }
  if (total != h->n) return pf_fail(err, "bins: they hold %lld values, not n = %lld", total, h->n);
  return 0;
}

int pf_an_sums_read(json_t *j, const pf_game *g, int nbots, pf_an_sums *s, pf_error *err) {
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
