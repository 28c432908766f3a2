/*
 * cli_analyze.c - `pilfer analyze`'s tables for people, and --compare.
 *
 * Both read the result's JSON (pf_sim_json), so that what a person reads and what a program reads
 * are the same figures, and --compare works on results made anywhere (a cluster's merge).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"

/* ---- reading the result ---- */

/* The number at a path of object keys and array indexes ("analysis.length.moves.mean",
 * "win_rate.0"); NAN when it is not there. */
static double num(json_t *j, const char *path) {
  char key[128];
  for (const char *p = path; j && *p;) {
    size_t n = strcspn(p, ".");
    if (n >= sizeof key) return NAN;
    memcpy(key, p, n);
    key[n] = '\0';
    p += n + (p[n] == '.');
    j = json_is_array(j) ? json_array_get(j, strtoul(key, NULL, 10)) : json_object_get(j, key);
  }
  return json_is_number(j) ? json_number_value(j) : NAN;
}

static json_t *at(json_t *j, const char *a, const char *b) { return json_object_get(json_object_get(j, a), b); }

/* ---- the tables ---- */

static void print_hist_row(FILE *f, const char *label, json_t *h, double k, const char *unit) {
  if (!h) return;
  fprintf(f, "  %-26s %9.2f%s  [%8.2f, %8.2f]  %8.1f %8.1f %8.1f   %g..%g\n", label, k * num(h, "mean"), unit,
          k * num(h, "ci95.0"), k * num(h, "ci95.1"), k * num(h, "p10"), k * num(h, "median"), k * num(h, "p90"),
          k * num(h, "min"), k * num(h, "max"));
}

static void print_rate_row(FILE *f, const char *label, json_t *r) {
  fprintf(f, "  %-26s %8.1f%%   [%6.1f%%, %6.1f%%]  (%lld of %lld)\n", label, 100 * num(r, "rate"),
          100 * num(r, "ci95.0"), 100 * num(r, "ci95.1"), (long long)num(r, "count"), (long long)num(r, "of"));
}

/* The distribution of a histogram as bars, its bins grouped into at most 12 rows. */
static void print_bars(FILE *f, json_t *h) {
  json_t *bins = json_object_get(h, "bins");
  size_t n = json_array_size(bins), per = (n + 11) / 12;
  long long most = 0, rows[12] = {0};
  double lo[12], hi[12];
  size_t nrows = per ? (n + per - 1) / per : 0;
  for (size_t i = 0; i < n; i++) {
    json_t *b = json_array_get(bins, i);
    size_t r = i / per;
    if (i % per == 0) lo[r] = json_number_value(json_array_get(b, 0));
    hi[r] = json_number_value(json_array_get(b, 1));
    rows[r] += json_integer_value(json_array_get(b, 2));
  }
  for (size_t r = 0; r < nrows; r++) most = rows[r] > most ? rows[r] : most;
  for (size_t r = 0; r < nrows; r++) {
    int w = most ? (int)(40 * rows[r] / most) : 0;
    fprintf(f, "    %7g-%-7g %6.1f%% ", lo[r], hi[r], 100.0 * (double)rows[r] / num(h, "n"));
    for (int i = 0; i < w; i++) fputc('#', f);
    fputc('\n', f);
  }
}

/* "KEY.I" into buf: the path of element i of an array. */
static const char *idx(char *buf, const char *key, int i) {
  snprintf(buf, 64, "%s.%d", key, i);
  return buf;
}

/* The result's warnings (sim/analyze.h: a counter that stayed at 0 over the run), if any. */
static void print_warnings(FILE *f, json_t *warnings) {
  size_t i;
  json_t *v;
  if (!json_array_size(warnings)) return;
  fprintf(f, "\nWARNINGS\n");
  json_array_foreach(warnings, i, v) fprintf(f, "  %s\n", json_string_value(json_object_get(v, "warning")));
}

void cli_analyze_print(json_t *r, FILE *f) {
  json_t *an = json_object_get(r, "analysis");
  int n = (int)num(r, "players");
  char path[64], label[64];
  fprintf(f, "%s, %d player%s, %lld games, seed %lld%s\n", json_string_value(json_object_get(r, "game")), n,
          n == 1 ? "" : "s", (long long)num(r, "played"), (long long)num(r, "seed"),
          json_is_true(json_object_get(r, "rotate")) ? ", seats rotated (each deal played once per rotation)" : "");
  const char *key;
  json_t *v;
  if (json_object_size(json_object_get(r, "options"))) fprintf(f, "Options:");
  json_object_foreach(json_object_get(r, "options"), key, v) {
    if (json_is_boolean(v))
      fprintf(f, " %s=%s", key, json_is_true(v) ? "true" : "false");
    else
      fprintf(f, " %s=%lld", key, (long long)json_integer_value(v));
  }
  fprintf(f, "\n\nBALANCE: who wins                win rate     95%% CI        (a fair share is %.1f%%)\n",
          100.0 / n);
  for (int p = 0; p < n; p++) {
    json_t *ci = json_array_get(json_object_get(r, "win_rate_ci95"), (size_t)p);
    snprintf(label, sizeof label, "seat %d%s%s", p, json_is_true(json_object_get(r, "rotate")) ? "" : ": ",
             json_is_true(json_object_get(r, "rotate")) ? "" : json_string_value(json_array_get(json_object_get(r, "seats"), (size_t)p)));
    fprintf(f, "  %-26.26s %8.1f%%   [%6.1f%%, %6.1f%%]\n", label, 100 * num(r, idx(path, "win_rate", p)),
            100 * json_number_value(json_array_get(ci, 0)), 100 * json_number_value(json_array_get(ci, 1)));
  }
  size_t b;
  json_array_foreach(json_object_get(r, "bots"), b, v) {
    snprintf(label, sizeof label, "bot %s", json_string_value(json_object_get(v, "bot")));
    fprintf(f, "  %-26.26s %8.1f%%   [%6.1f%%, %6.1f%%]  on %.0f%% of the seats\n", label, 100 * num(v, "win_rate"),
            100 * num(v, "win_rate_ci95.0"), 100 * num(v, "win_rate_ci95.1"), 100 * num(v, "fair_share"));
  }
  fprintf(f, "  first seat's advantage     %+8.1f points\n", 100 * num(r, "first_seat_advantage"));

  fprintf(f, "\nLENGTH, per game                 mean      95%% CI                 p10   median      p90   range\n");
  static const char *const LEN[][2] = {{"moves", "moves"}, {"turns", "turns"}, {"deals", "deals"},
                                       {"decisions", "decisions (seat moves)"}};
  for (size_t i = 0; i < sizeof LEN / sizeof *LEN; i++) print_hist_row(f, LEN[i][1], at(an, "length", LEN[i][0]), 1, " ");
  fprintf(f, "  how long the games are, in moves:\n");
  print_bars(f, at(an, "length", "moves"));

  fprintf(f, "\nDECISIVENESS\n");
  print_rate_row(f, "shared wins", at(an, "decisiveness", "shared_wins"));
  print_rate_row(f, "nobody won", at(an, "decisiveness", "no_winner"));
  print_hist_row(f, "winner's margin (points)", at(an, "decisiveness", "margin"), 1, " ");

  json_t *t = json_object_get(an, "tension");
  fprintf(f, "\nTENSION, over the %lld games with a winner and a loser\n", (long long)num(t, "games"));
  print_hist_row(f, "lead changes", json_object_get(t, "lead_changes"), 1, " ");
  print_hist_row(f, "winner leads for good from", json_object_get(t, "lead_for_good"), 100, "%");
  print_hist_row(f, "winner's worst deficit", json_object_get(t, "drama"), 1, " ");
  print_rate_row(f, "comebacks (behind late)", json_object_get(t, "comebacks"));
  fprintf(f, "  the winner's lead over the best other, at the end of each tenth of the game:\n    ");
  for (int ph = 0; ph < 10; ph++) fprintf(f, "%7d%%", 10 * (ph + 1));
  fprintf(f, "\n    ");
  for (int ph = 0; ph < 10; ph++)
    fprintf(f, "%+8.1f", num(json_array_get(json_object_get(t, "winner_lead_by_phase"), (size_t)ph), "mean"));
  fprintf(f, "\n");

  json_t *c = json_object_get(an, "choice");
  fprintf(f, "\nCHOICE\n");
  print_hist_row(f, "legal moves per decision", json_object_get(c, "legal"), 1, " ");
  print_hist_row(f, "forced moves per game", json_object_get(c, "forced"), 1, " ");
  fprintf(f, "  forced share of decisions  %8.1f%%\n", 100 * num(c, "forced_share"));
  fprintf(f, "  by tenth of the game:\n    %-14s", "");
  for (int ph = 0; ph < 10; ph++) fprintf(f, "%7d%%", 10 * (ph + 1));
  fprintf(f, "\n    %-14s", "legal moves");
  json_t *bp = json_object_get(c, "by_phase");
  for (int ph = 0; ph < 10; ph++) fprintf(f, "%8.1f", num(json_array_get(bp, (size_t)ph), "legal_mean"));
  fprintf(f, "\n    %-14s", "forced");
  for (int ph = 0; ph < 10; ph++) fprintf(f, "%7.1f%%", 100 * num(json_array_get(bp, (size_t)ph), "forced_share"));
  fprintf(f, "\n");

  json_t *beats = json_object_get(an, "beats");
  if (json_array_size(beats)) {
    fprintf(f, "\nSKILL AND LUCK: how often one bot has more of the win than another\n");
    json_array_foreach(beats, b, v) {
      snprintf(label, sizeof label, "%s > %s", json_string_value(json_object_get(v, "bot")),
               json_string_value(json_object_get(v, "against")));
      print_rate_row(f, label, v);
    }
  }
  json_t *ev = json_object_get(an, "events");
  if (json_object_size(ev)) {
    fprintf(f, "\nGAME EVENTS, per game               mean      95%% CI              total\n");
    json_object_foreach(ev, key, v)
      fprintf(f, "  %-26s %9.2f   [%8.2f, %8.2f]  %12lld\n", key, num(v, "mean"), num(v, "ci95.0"), num(v, "ci95.1"),
              (long long)num(v, "total"));
  }
  print_warnings(f, json_object_get(r, "warnings"));
  fprintf(f, "\nWall time: %.1f s\n", num(r, "wall_seconds"));
}

/* ---- --html ---- */

/* The files a report copies in, under the report folder: $PILFER_REPORT_DIR, else report/ next to
 * the binary (cli_find_beside: installed in share/pilfer/report, or the source tree's, where
 * package.json pins the libraries and `npm ci` fetches them). */
static const char *const REPORT_FILES[] = {
    "node_modules/vega/build/vega.min.js",
    "node_modules/vega-lite/build/vega-lite.min.js",
    "node_modules/vega-embed/build/vega-embed.min.js",
    "report.js",
};

static const char REPORT_HEAD[] =
    "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>pilfer analyze</title>\n"
    "<style>\nbody { font-family: system-ui, sans-serif; margin: 1.5rem auto; max-width: 70rem; padding: 0 1rem; "
    "color: #222; }\nh1 { font-size: 1.5rem; margin-bottom: 0.2rem; }\n#run { color: #555; }\n"
    "#charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(30rem, 1fr)); gap: 1.5rem; }\n"
    ".chart { margin: 0; min-width: 0; }\n</style>\n</head>\n<body>\n<h1 id=\"title\">pilfer analyze</h1>\n"
    "<p id=\"run\"></p>\n<main id=\"charts\"></main>\n";

/* Writes prefix and text into an HTML script element so that nothing in it closes the element:
 * "</script" becomes "<\\/script" (in JavaScript source, where "</" alone may be a regular
 * expression's), or with json every "</" becomes "<\\/" (the same in a JSON string). */
static void write_script(FILE *f, const char *prefix, const char *text, size_t n, bool json) {
  fprintf(f, "<script>\n%s", prefix);
  for (size_t i = 0; i < n; i++) {
    if (text[i] == '<' && i + 1 < n && text[i + 1] == '/' && (json || (n - i >= 8 && strncasecmp(text + i + 2, "script", 6) == 0)))
      fputs("<\\", f);
    else
      fputc(text[i], f);
  }
  fputs("\n</script>\n", f);
}

int cli_analyze_html(const pf_buf *result, const char *path) {
  char found[4096];
  const char *dir = getenv("PILFER_REPORT_DIR");
  if (!dir && !(dir = cli_find_beside("report", "report.js", found, sizeof found))) {
    cli_error("analyze: --html: no report folder next to the binary (share/pilfer/report, or the source tree's "
              "report/; or set PILFER_REPORT_DIR)");
    return EXIT_OTHER;
  }
  pf_buf files[sizeof REPORT_FILES / sizeof *REPORT_FILES] = {{0}};
  int rc = 0;
  size_t n = sizeof REPORT_FILES / sizeof *REPORT_FILES, read = 0;
  for (; read < n && rc == 0; read++) {
    char name[4096];
    pf_error err;
    snprintf(name, sizeof name, "%s/%s", dir, REPORT_FILES[read]);
    if (pf_buf_read_file(&files[read], name, &err) != 0) {
      cli_error("analyze: --html: %s (the report's plotting libraries: run 'npm ci' in %s, or set "
                "PILFER_REPORT_DIR to a folder that has them)", err.msg, dir);
      rc = EXIT_OTHER;
    }
  }
  FILE *f = rc == 0 ? fopen(path, "w") : NULL;
  if (rc == 0 && !f) {
    cli_error("analyze: --html %s: cannot write it: %s", path, strerror(errno));
    rc = EXIT_OTHER;
  }
  if (f) {
    fputs(REPORT_HEAD, f);
    for (size_t i = 0; i + 1 < n; i++) write_script(f, "", files[i].data, files[i].len, false);
    write_script(f, "window.PILFER_RESULT = ", pf_buf_str(result), result->len, true);
    write_script(f, "", files[n - 1].data, files[n - 1].len, false);
    fputs("</body>\n</html>\n", f);
    if (fclose(f) != 0) {
      cli_error("analyze: --html %s: cannot write it: %s", path, strerror(errno));
      rc = EXIT_OTHER;
    }
  }
  for (size_t i = 0; i < read; i++) pf_buf_free(&files[i]);
  return rc;
}

/* ---- --compare ---- */

static const char COMPARE_USAGE[] =
    "usage: pilfer analyze --compare FILE FILE... [--json] [--html FILE]\n"
    "\n"
    "Reads two or more 'pilfer analyze --json' results (or 'pilfer merge' of their shards; '-' is\n"
    "standard input) and shows every metric side by side, with the difference of each result from\n"
    "the first and its 95% interval (the runs are independent: the normal interval of a difference\n"
    "of two means). E.g. -o police=false against -o police=true, or 2 players against 4.\n"
    "  --json       the comparison as JSON (README, \"Analysis\")\n"
    "  --html FILE  also write a report with a chart per metric (as analyze --html)\n";

/* The metrics compared: a label, the path of the mean and of its interval, and the scale to show
 * them in (100: a percentage). */
typedef struct metric {
  char id[96], label[96], mean[128], ci[128];
  double scale;
} metric;

static const metric METRICS[] = {
    {"seat0_win_rate", "seat 0's win rate", "win_rate.0", "win_rate_ci95.0", 100},
    {"moves", "moves per game", "analysis.length.moves.mean", "analysis.length.moves.ci95", 1},
    {"turns", "turns per game", "analysis.length.turns.mean", "analysis.length.turns.ci95", 1},
    {"deals", "deals per game", "analysis.length.deals.mean", "analysis.length.deals.ci95", 1},
    {"decisions", "decisions per game", "analysis.length.decisions.mean", "analysis.length.decisions.ci95", 1},
    {"shared_wins", "shared wins (%)", "analysis.decisiveness.shared_wins.rate", "analysis.decisiveness.shared_wins.ci95", 100},
    {"margin", "winner's margin", "analysis.decisiveness.margin.mean", "analysis.decisiveness.margin.ci95", 1},
    {"lead_changes", "lead changes per game", "analysis.tension.lead_changes.mean", "analysis.tension.lead_changes.ci95", 1},
    {"lead_for_good", "winner leads for good from (% of the game)", "analysis.tension.lead_for_good.mean",
     "analysis.tension.lead_for_good.ci95", 100},
    {"drama", "winner's worst deficit", "analysis.tension.drama.mean", "analysis.tension.drama.ci95", 1},
    {"comebacks", "comebacks (%)", "analysis.tension.comebacks.rate", "analysis.tension.comebacks.ci95", 100},
    {"legal", "legal moves per decision", "analysis.choice.legal.mean", "analysis.choice.legal.ci95", 1},
    {"forced", "forced moves per game", "analysis.choice.forced.mean", "analysis.choice.forced.ci95", 1},
};

/* The metrics of the first result's bots (win rate) and counters, found by name in each. */
static int extra_metrics(json_t *first, metric *out, int room) {
  int n = 0;
  size_t i;
  json_t *v;
  json_array_foreach(json_object_get(first, "bots"), i, v) {
    if (n == room) break;
    const char *bot = json_string_value(json_object_get(v, "bot"));
    snprintf(out[n].id, sizeof out[n].id, "bot:%s", bot ? bot : "");
    snprintf(out[n].label, sizeof out[n].label, "bot %s's win rate", bot ? bot : "?");
    snprintf(out[n].mean, sizeof out[n].mean, "bot:%s", bot ? bot : "");
    out[n++].scale = 100;
  }
  const char *key;
  json_object_foreach(at(first, "analysis", "events"), key, v) {
    if (n == room) break;
    snprintf(out[n].id, sizeof out[n].id, "event:%s", key);
    snprintf(out[n].label, sizeof out[n].label, "%s per game", key);
    snprintf(out[n].mean, sizeof out[n].mean, "analysis.events.%s.mean", key);
    snprintf(out[n].ci, sizeof out[n].ci, "analysis.events.%s.ci95", key);
    out[n++].scale = 1;
  }
  return n;
}

/* A metric of a result: its mean and interval (NAN when the result does not have it). */
static void metric_of(json_t *r, const metric *m, double *mean, double *lo, double *hi) {
  char path[160];
  if (strncmp(m->mean, "bot:", 4) == 0) {
    size_t i;
    json_t *v;
    *mean = *lo = *hi = NAN;
    json_array_foreach(json_object_get(r, "bots"), i, v)
      if (strcmp(json_string_value(json_object_get(v, "bot")), m->mean + 4) == 0) {
        *mean = num(v, "win_rate"), *lo = num(v, "win_rate_ci95.0"), *hi = num(v, "win_rate_ci95.1");
      }
  } else {
    *mean = num(r, m->mean);
    snprintf(path, sizeof path, "%s.0", m->ci);
    *lo = num(r, path);
    snprintf(path, sizeof path, "%s.1", m->ci);
    *hi = num(r, path);
  }
  *mean *= m->scale, *lo *= m->scale, *hi *= m->scale;
}

/* What a result ran: "thief, 3 players, hands=1, seats greedy random random, 3000 games". */
static void describe_run(json_t *r, char *buf, size_t size) {
  int len = snprintf(buf, size, "%s, %lld players", json_string_value(json_object_get(r, "game")),
                     (long long)num(r, "players"));
  const char *key;
  json_t *v;
  json_object_foreach(json_object_get(r, "options"), key, v) {
    if (len >= (int)size) break;
    len += json_is_boolean(v) ? snprintf(buf + len, size - (size_t)len, ", %s=%s", key, json_is_true(v) ? "true" : "false")
                              : snprintf(buf + len, size - (size_t)len, ", %s=%lld", key, (long long)json_integer_value(v));
  }
  size_t i;
  if (len < (int)size) len += snprintf(buf + len, size - (size_t)len, ", seats");
  json_array_foreach(json_object_get(r, "seats"), i, v) {
    if (len >= (int)size) break;
    len += snprintf(buf + len, size - (size_t)len, " %s", json_string_value(v));
  }
  if (len < (int)size) snprintf(buf + len, size - (size_t)len, ", %lld games", (long long)num(r, "played"));
}

/* {"<name>": v, "ci95": [lo, hi]}, or null when there is no such figure. */
static void estimate_write(pf_jw *w, const char *name, double v, double lo, double hi, bool none) {
  if (none) {
    pf_jw_null(w);
    return;
  }
  pf_jw_open(w, '{');
  pf_jw_key_real(w, name, v);
  pf_jw_key(w, "ci95");
  pf_jw_open(w, '[');
  pf_jw_real(w, lo);
  pf_jw_real(w, hi);
  pf_jw_close(w, ']');
  pf_jw_close(w, '}');
}

int cli_analyze_compare_results(json_t *const *r, const char *const *names, int n, const char *key, bool json,
                                const char *html) {
  int rc = 0;
  metric m[sizeof METRICS / sizeof *METRICS + 2 * PF_MAX_EVENTS + PF_MAX_PLAYERS];
  int nm = (int)(sizeof METRICS / sizeof *METRICS);
  memcpy(m, METRICS, sizeof METRICS);
  nm += extra_metrics(r[0], m + nm, (int)(sizeof m / sizeof *m) - nm);
  pf_buf out = {0}, diffs = {0};
  pf_jw w = {.b = &out};
  pf_jw_open(&w, '{');
  pf_jw_key(&w, "configs");
  pf_jw_open(&w, '[');
  char what[512];
  for (int i = 0; i < n; i++) {
    describe_run(r[i], what, sizeof what);
    pf_jw_open(&w, '{');
    pf_jw_key_str(&w, key, names[i]);
    pf_jw_key_str(&w, "run", what);
    pf_jw_close(&w, '}');
    if (!json) printf("#%d  %s: %s\n", i + 1, names[i], what);
  }
  pf_jw_close(&w, ']');
  pf_jw_key(&w, "metrics");
  pf_jw_open(&w, '[');
  for (int k = 0; k < nm; k++) {
    double m0, lo0, hi0;
    metric_of(r[0], &m[k], &m0, &lo0, &hi0);
    pf_buf_clear(&diffs);
    pf_jw dw = {.b = &diffs};
    pf_jw_open(&w, '{');
    pf_jw_key_str(&w, "metric", m[k].id);
    pf_jw_key_str(&w, "label", m[k].label);
    pf_jw_key(&w, "values");
    pf_jw_open(&w, '[');
    pf_jw_open(&dw, '[');
    if (!json) printf("\n%s\n", m[k].label);
    for (int i = 0; i < n; i++) {
      double mi, lo, hi;
      metric_of(r[i], &m[k], &mi, &lo, &hi);
      /* The difference from the first, and the normal interval of a difference of independent
       * estimates, each one's standard error read back from its interval's half-width. */
      double se0 = (hi0 - lo0) / (2 * 1.96), se = (hi - lo) / (2 * 1.96), d = mi - m0;
      double half = 1.96 * sqrt(se0 * se0 + se * se);
      estimate_write(&w, "mean", mi, lo, hi, isnan(mi));
      if (i > 0) estimate_write(&dw, "difference", d, d - half, d + half, isnan(d) || isnan(half));
      if (json) continue;
      if (isnan(mi)) {
        printf("  #%-2d %10s\n", i + 1, "-");
        continue;
      }
      printf("  #%-2d %10.2f  [%9.2f, %9.2f]", i + 1, mi, lo, hi);
      if (i > 0 && !isnan(half))
        printf("    #%d - #1: %+9.2f  [%+9.2f, %+9.2f]%s", i + 1, d, d - half, d + half,
               d - half > 0 || d + half < 0 ? "  *" : "");
      printf("\n");
    }
    pf_jw_close(&w, ']');
    pf_jw_close(&dw, ']');
    pf_jw_key(&w, "differences");
    pf_buf_append(&out, diffs.data, diffs.len);
    w.comma = true;
    pf_jw_close(&w, '}');
  }
  pf_jw_close(&w, ']');
  pf_jw_close(&w, '}');
  if (json) {
    pf_buf text = {0};
    pf_buf_append(&text, out.data, out.len);
    cli_print_json(&text, 2);
    pf_buf_free(&text);
  } else {
    printf("\n* the interval of the difference excludes 0.\n");
  }
  if (html) rc = cli_analyze_html(&out, html);
  pf_buf_free(&out);
  pf_buf_free(&diffs);
  return rc;
}

int cli_analyze_compare(int argc, char **argv) {
  static const struct option LONG[] = {
      {"compare", no_argument, 0, 'c'}, {"json", no_argument, 0, 'j'}, {"html", required_argument, 0, 'H'},
      {"help", no_argument, 0, 'h'},    {0}};
  bool json = false;
  const char *html = NULL;
  int ch;
  optind = 1;
  opterr = 0;
  while ((ch = getopt_long(argc, argv, "h", LONG, NULL)) != -1) {
    if (ch == 'j') {
      json = true;
    } else if (ch == 'H') {
      html = optarg;
    } else if (ch == 'h') {
      fputs(COMPARE_USAGE, stdout);
      return 0;
    } else if (ch != 'c') {
      return cli_bad("analyze: --compare takes only result files and --json, not '%s'; see pilfer analyze --help",
                     argv[optind - 1]);
    }
  }
  int n = argc - optind;
  if (n < 2 || n > 16) return cli_bad("analyze: --compare needs 2 to 16 analyze --json results, not %d", n);
  json_t *r[16] = {NULL};
  int rc = 0;
  for (int i = 0; i < n && rc == 0; i++) {
    const char *path = argv[optind + i];
    r[i] = cli_load_json("analyze", path);
    if (!r[i])
      rc = EXIT_BAD_INPUT;
    else if (!json_is_object(json_object_get(r[i], "analysis")) || !json_is_array(json_object_get(r[i], "bots")))
      rc = cli_bad("analyze: %s: not a 'pilfer analyze --json' result (it has no \"analysis\")", path);
  }
  if (rc == 0) rc = cli_analyze_compare_results(r, (const char *const *)argv + optind, n, "file", json, html);
  for (int i = 0; i < n; i++) json_decref(r[i]);
  return rc;
}
