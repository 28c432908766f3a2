/*
 * analyze.c - the design metrics of a run: a trace per game, reduced into exact sums (analyze.h).
 */
#include "sim/analyze.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

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

static json_t *pair(double a, double b) { return json_pack("[f, f]", a, b); }

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
static json_t *hist_json(const pf_hist *h, int scale) {
  pf_sim_estimate e = pf_sim_mean(h->sum, h->sum_sq, h->n, scale);
  double k = scale;
  json_t *bins = json_array();
  for (int b = 0; b < PF_AN_BINS; b++) {
    if (!h->bin[b]) continue;
    long long lo, hi;
    pf_hist_bounds(b, &lo, &hi);
    if (hi > h->max) hi = h->max;
    json_array_append_new(bins, json_pack("[f, f, I]", lo / k, hi / k, (json_int_t)h->bin[b]));
  }
  return json_pack("{s:I, s:f, s:f, s:o, s:f, s:f, s:f, s:f, s:f, s:o}", "n", (json_int_t)h->n, "mean", e.mean, "sd",
                   e.sd, "ci95", pair(e.lo, e.hi), "min", h->min / k, "max", h->max / k, "p10", quantile(h, 0.1) / k,
                   "median", quantile(h, 0.5) / k, "p90", quantile(h, 0.9) / k, "bins", bins);
}

/* A share of n with its Wilson interval. */
static json_t *rate_json(long long count, long long n) {
  pf_sim_estimate e = pf_sim_wilson(count * PF_WIN_UNIT, count * PF_WIN_UNIT * PF_WIN_UNIT, n);
  return json_pack("{s:I, s:I, s:f, s:o}", "count", (json_int_t)count, "of", (json_int_t)n, "rate", e.mean, "ci95",
                   pair(e.lo, e.hi));
}

static json_t *mean_json(long long sum, long long sum_sq, long long n) {
  pf_sim_estimate e = pf_sim_mean(sum, sum_sq, n, 1);
  return json_pack("{s:f, s:f, s:o}", "mean", e.mean, "sd", e.sd, "ci95", pair(e.lo, e.hi));
}

json_t *pf_an_json(const pf_an_sums *s, long long games, const pf_game *g, const char *const *bot_names, int nbots) {
  json_t *o = json_object();
  for (int i = 0; i < NHISTS; i++) {
    json_t *grp = json_object_get(o, HISTS[i].group);
    if (!grp) json_object_set_new(o, HISTS[i].group, grp = json_object());
    json_object_set_new(grp, HISTS[i].name, hist_json(CHIST(s, i), HISTS[i].scale));
  }
  json_t *dec = json_object_get(o, "decisiveness"), *ten = json_object_get(o, "tension");
  json_t *cho = json_object_get(o, "choice");
  json_object_set_new(dec, "shared_wins", rate_json(s->shared, games));
  json_object_set_new(dec, "no_winner", rate_json(s->no_winner, games));
  json_object_set_new(ten, "games", json_integer(s->tension_games));
  json_object_set_new(ten, "comebacks", rate_json(s->comebacks, s->tension_games));
  json_t *lead = json_array(), *phases = json_array();
  long long forced = 0;
  for (int ph = 0; ph < PF_AN_PHASES; ph++) {
    json_array_append_new(lead, mean_json(s->phase_lead[ph], s->phase_lead_sq[ph], s->tension_games));
    long long d = s->phase_decisions[ph];
    json_array_append_new(phases, json_pack("{s:I, s:f, s:f}", "decisions", (json_int_t)d, "legal_mean",
                                            d ? (double)s->phase_legal[ph] / (double)d : 0.0, "forced_share",
                                            d ? (double)s->phase_forced[ph] / (double)d : 0.0));
    forced += s->phase_forced[ph];
  }
  json_object_set_new(ten, "winner_lead_by_phase", lead);
  json_object_set_new(cho, "forced_share", json_real(s->legal.n ? (double)forced / (double)s->legal.n : 0.0));
  json_object_set_new(cho, "by_phase", phases);
  json_t *luck = json_array();
  for (int b = 0; b < nbots; b++)
    for (int c = 0; c < nbots; c++) {
      if (b == c) continue;
      json_t *r = rate_json(s->beat[b][c], games);
      json_object_set_new(r, "bot", json_string(bot_names[b]));
      json_object_set_new(r, "against", json_string(bot_names[c]));
      json_array_append_new(luck, r);
    }
  json_object_set_new(o, "beats", luck);
  json_t *ev = json_object();
  for (int e = 0; e < pf_nevents(g); e++) {
    json_t *m = mean_json(s->event[e], s->event_sq[e], games);
    json_object_set_new(m, "total", json_integer(s->event[e]));
    json_object_set_new(ev, g->events[e], m);
  }
  json_object_set_new(o, "events", ev);
  return o;
}

static json_t *llongs(const long long *v, int n) {
  json_t *a = json_array();
  for (int i = 0; i < n; i++) json_array_append_new(a, json_integer(v[i]));
  return a;
}

json_t *pf_an_sums_json(const pf_an_sums *s, const pf_game *g, int nbots) {
  json_t *o = json_object();
  for (int i = 0; i < NHISTS; i++) {
    const pf_hist *h = CHIST(s, i);
    json_t *bins = json_array();
    for (int b = 0; b < PF_AN_BINS; b++)
      if (h->bin[b]) {
        long long lo, hi;
        pf_hist_bounds(b, &lo, &hi);
        json_array_append_new(bins, json_pack("[I, I]", (json_int_t)lo, (json_int_t)h->bin[b]));
      }
    json_object_set_new(o, HISTS[i].name,
                        json_pack("{s:I, s:I, s:I, s:I, s:I, s:o}", "n", (json_int_t)h->n, "sum", (json_int_t)h->sum,
                                  "sum_sq", (json_int_t)h->sum_sq, "min", (json_int_t)h->min, "max",
                                  (json_int_t)h->max, "bins", bins));
  }
  json_object_set_new(o, "shared", json_integer(s->shared));
  json_object_set_new(o, "no_winner", json_integer(s->no_winner));
  json_object_set_new(o, "tension_games", json_integer(s->tension_games));
  json_object_set_new(o, "comebacks", json_integer(s->comebacks));
  json_object_set_new(o, "phase_decisions", llongs(s->phase_decisions, PF_AN_PHASES));
  json_object_set_new(o, "phase_legal", llongs(s->phase_legal, PF_AN_PHASES));
  json_object_set_new(o, "phase_forced", llongs(s->phase_forced, PF_AN_PHASES));
  json_object_set_new(o, "phase_lead", llongs(s->phase_lead, PF_AN_PHASES));
  json_object_set_new(o, "phase_lead_sq", llongs(s->phase_lead_sq, PF_AN_PHASES));
  json_t *beat = json_array();
  for (int b = 0; b < nbots; b++) json_array_append_new(beat, llongs(s->beat[b], nbots));
  json_object_set_new(o, "beat", beat);
  json_object_set_new(o, "event", llongs(s->event, pf_nevents(g)));
  json_object_set_new(o, "event_sq", llongs(s->event_sq, pf_nevents(g)));
  return o;
}

/* ---- reading the sums back: every field checked, a bad one named ---- */

static int read_ll(json_t *o, const char *key, long long min, long long *out, pf_error *err) {
  json_t *x = json_object_get(o, key);
  if (!json_is_integer(x) || json_integer_value(x) < min)
    return pf_fail(err, "%s: expected an integer from %lld", key, min);
  *out = json_integer_value(x);
  return 0;
}

static int read_lls(json_t *o, const char *key, long long *out, int n, pf_error *err) {
  json_t *a = json_object_get(o, key);
  if (!json_is_array(a) || (int)json_array_size(a) != n) return pf_fail(err, "%s: expected an array of %d integers", key, n);
  for (int i = 0; i < n; i++) {
    json_t *x = json_array_get(a, (size_t)i);
    if (!json_is_integer(x)) return pf_fail(err, "%s[%d]: expected an integer", key, i);
    out[i] = json_integer_value(x);
  }
  return 0;
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
  for (int b = 0; b < nbots; b++) {
    json_t *row = json_pack("{s:O}", "beat", json_array_get(beat, (size_t)b));
    int rc = row ? read_lls(row, "beat", s->beat[b], nbots, err) : pf_fail(err, "beat[%d]: expected a row", b);
    json_decref(row);
    if (rc) return -1;
  }
  return 0;
}
