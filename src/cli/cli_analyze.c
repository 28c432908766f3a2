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

/* The string at j, or "?" when it is not one (a result read from a file may lack it). */
static const char *str(json_t *j) { return json_is_string(j) ? json_string_value(j) : "?"; }

static json_t *at(json_t *j, const char *a, const char *b) { return json_object_get(json_object_get(j, a), b); }

/* ---- the tables ---- */

static void print_hist_row(FILE *f, const char *label, json_t *h, double k, const char *unit) {
  if (!h || num(h, "n") == 0) return;
  if (num(h, "min") == num(h, "max")) { /* a figure that did not vary: no interval to read */
    fprintf(f, "  %-26s %9.2f%s  always\n", label, k * num(h, "mean"), unit);
    return;
  }
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
  json_t *bots = json_object_get(r, "bots");
  bool unfair = false;
  json_array_foreach(bots, b, v) unfair |= json_is_false(json_object_get(v, "fair"));
  if (json_array_size(bots) > 1 || unfair) /* one fair bot in every seat has every win */
    json_array_foreach(bots, b, v) {
      snprintf(label, sizeof label, "bot %s", json_string_value(json_object_get(v, "bot")));
      fprintf(f, "  %-26.26s %8.1f%%   [%6.1f%%, %6.1f%%]  on %.0f%% of the seats%s\n", label, 100 * num(v, "win_rate"),
              100 * num(v, "win_rate_ci95.0"), 100 * num(v, "win_rate_ci95.1"), 100 * num(v, "fair_share"),
              json_is_false(json_object_get(v, "fair")) ? "  NOT FAIR: reads hidden cards" : "");
    }
  fprintf(f, "  first seat's advantage     %+8.1f points\n", 100 * num(r, "first_seat_advantage"));
  json_t *bal = json_object_get(an, "balance");
  if (bal && n > 1) {
    fprintf(f, "  %-26s chi-squared %.2f, %d df: p = %.3g%s\n", "all seats alike?", num(bal, "chi2"),
            (int)num(bal, "df"), num(bal, "p_value"), num(bal, "p_value") < 0.05 ? " (the seats differ)" : "");
    fprintf(f, "  %-26s seat %d, %.1f points below its fair share [%+.1f, %+.1f]\n", "seat winning least",
            (int)num(bal, "worst_seat"), 100 * num(bal, "worst_deficit"), 100 * num(bal, "worst_deficit_ci95.0"),
            100 * num(bal, "worst_deficit_ci95.1"));
  }

  fprintf(f, "\nLENGTH, per game                 mean      95%% CI                 p10   median      p90   range\n");
  static const char *const LEN[][2] = {{"moves", "moves"}, {"turns", "turns"}, {"deals", "deals"},
                                       {"rounds", "rounds"}, {"decisions", "decisions (seat moves)"}};
  for (size_t i = 0; i < sizeof LEN / sizeof *LEN; i++) print_hist_row(f, LEN[i][1], at(an, "length", LEN[i][0]), 1, " ");
  if (num(at(an, "length", "moves"), "min") < num(at(an, "length", "moves"), "max")) {
    fprintf(f, "  how long the games are, in moves:\n");
    print_bars(f, at(an, "length", "moves"));
  }

  json_t *seats = json_object_get(an, "seats");
  if (json_array_size(seats)) {
    fprintf(f, "\nSCORES, per seat                 mean      95%% CI                 p10   median      p90   range\n");
    json_array_foreach(seats, b, v) {
      snprintf(label, sizeof label, "seat %zu score", b);
      print_hist_row(f, label, json_object_get(v, "score"), 1, " ");
      snprintf(label, sizeof label, "seat %zu margin", b);
      print_hist_row(f, label, json_object_get(v, "margin"), 1, " ");
    }
    if (json_object_get(json_array_get(seats, 0), "margin"))
      fprintf(f, "  (a seat's margin: its final standing less the best other seat's; above 0 when it won)\n");
  }

  fprintf(f, "\nDECISIVENESS\n");
  print_rate_row(f, "shared wins", at(an, "decisiveness", "shared_wins"));
  print_rate_row(f, "nobody won", at(an, "decisiveness", "no_winner"));
  print_hist_row(f, "winner's margin (points)", at(an, "decisiveness", "margin"), 1, " ");

  json_t *t = json_object_get(an, "tension");
  if (num(t, "games") == 0) {
    fprintf(f, "\nTENSION: no game had a winner and a loser\n");
  } else {
    fprintf(f, "\nTENSION, over the %lld games with a winner and a loser\n", (long long)num(t, "games"));
    print_hist_row(f, "lead changes", json_object_get(t, "lead_changes"), 1, " ");
    print_hist_row(f, "winner leads for good from", json_object_get(t, "lead_for_good"), 100, "%");
    print_hist_row(f, "winner's worst deficit", json_object_get(t, "drama"), 1, " ");
    print_rate_row(f, "comebacks", json_object_get(t, "comebacks"));
    fprintf(f, "    (the winner behind the best by a tenth of the game's top score or more, here %.1f points on\n"
               "    average, at a position of the second half)\n", num(json_object_get(t, "comeback_margin"), "mean"));
    fprintf(f, "  the winner's lead over the best other, at the end of each tenth of the game:\n    ");
    for (int ph = 0; ph < 10; ph++) fprintf(f, "%7d%%", 10 * (ph + 1));
    fprintf(f, "\n    ");
    for (int ph = 0; ph < 10; ph++)
      fprintf(f, "%+8.1f", num(json_array_get(json_object_get(t, "winner_lead_by_phase"), (size_t)ph), "mean"));
    fprintf(f, "\n");
  }

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
  json_t *ds = json_object_get(an, "deal_share");
  if (ds) {
    if (!json_array_size(beats)) fprintf(f, "\nSKILL AND LUCK\n");
    fprintf(f, "  the deal explains          %8.1f%%   [%6.1f%%, %6.1f%%]  of a seat's result (%lld deals, each\n"
               "    played once per rotation: 100%% when a seat of a deal fares the same whichever bot holds it)\n",
            100 * num(ds, "share"), 100 * num(ds, "ci95.0"), 100 * num(ds, "ci95.1"), (long long)num(ds, "deals"));
  }
  json_t *ev = json_object_get(an, "events");
  if (json_object_size(ev)) {
    fprintf(f, "\nGAME EVENTS, per game               mean      95%% CI              total\n");
    json_object_foreach(ev, key, v)
      fprintf(f, "  %-26s %9.2f   [%8.2f, %8.2f]  %12lld\n", key, num(v, "mean"), num(v, "ci95.0"), num(v, "ci95.1"),
              (long long)num(v, "total"));
    json_t *first = json_object_iter_value(json_object_iter(ev));
    if (json_object_get(first, "winner_minus_others")) {
      fprintf(f, "  by seat, in its own moves, per game:\n    %-24s", "");
      for (int p = 0; p < n; p++) fprintf(f, "  seat %-3d", p);
      fprintf(f, "   the winner less the others' mean, 95%% CI\n");
      json_object_foreach(ev, key, v) {
        fprintf(f, "    %-24.24s", key);
        for (int p = 0; p < n; p++) fprintf(f, " %9.2f", num(json_array_get(json_object_get(v, "per_seat"), (size_t)p), "mean"));
        json_t *d = json_object_get(v, "winner_minus_others");
        fprintf(f, "   %+8.2f [%+.2f, %+.2f]\n", num(d, "mean"), num(d, "ci95.0"), num(d, "ci95.1"));
      }
      fprintf(f, "    (the last column over the %lld games with a winner and a loser: the first winner against\n"
                 "    the seats that did not win)\n",
              (long long)num(json_object_get(first, "winner_minus_others"), "games"));
    }
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
    ".chart { margin: 0; min-width: 0; }\n#constants h2 { font-size: 1rem; margin-bottom: 0.3rem; }\n"
    "#constants ul { margin-top: 0; color: #444; }\n</style>\n</head>\n<body>\n<h1 id=\"title\">pilfer analyze</h1>\n"
    "<p id=\"run\"></p>\n<section id=\"constants\" hidden></section>\n<main id=\"charts\"></main>\n";

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
    "       pilfer analyze --compare SWEEP [--json] [--html FILE]\n"
    "\n"
    "Reads two to 32 'pilfer analyze --json' results (or 'pilfer merge' of their shards; '-' is\n"
    "standard input) and shows every metric side by side, with the difference of each result from\n"
    "the first and its 95% interval (the runs are independent: the normal interval of a difference\n"
    "of two means). E.g. -o police=false against -o police=true, or 2 players against 4. Each run\n"
    "is labelled by what differs between the runs (players=4, police=true, a bot's spec). Win\n"
    "rates are compared as each seat's (and bot's) rate less its fair share, so that runs with\n"
    "different numbers of players compare; the raw rates are shown too when the players agree.\n"
    "A metric with the same value and no spread in every run is listed once, not compared.\n"
    "SWEEP, an 'analyze --vary --json' document (or 'pilfer merge' of its shards), is shown\n"
    "again as --vary showed it.\n"
    "  --json       the comparison as JSON (docs/cli.md, \"Comparing\")\n"
    "  --html FILE  also write a report with a chart per metric (as analyze --html)\n";

/* The metrics compared: a label, the path of the mean and of its interval, and the scale to show
 * them in (100: a percentage); raw: a win rate whose fair share depends on the players. */
typedef struct metric {
  char id[96], label[96], mean[128], ci[128];
  double scale;
  bool raw;
} metric;

static const metric METRICS[] = {
    {"seat0_win_rate", "seat 0's win rate (%)", "win_rate.0", "win_rate_ci95.0", 100, true},
    {"worst_deficit", "the seat winning least: points below its fair share", "analysis.balance.worst_deficit",
     "analysis.balance.worst_deficit_ci95", 100, false},
    {"entry0_win_rate", "the first --seat bot's win rate (%)", "entries.0.win_rate", "entries.0.win_rate_ci95", 100, true},
    {"moves", "moves per game", "analysis.length.moves.mean", "analysis.length.moves.ci95", 1, false},
    {"turns", "turns per game", "analysis.length.turns.mean", "analysis.length.turns.ci95", 1, false},
    {"deals", "deals per game", "analysis.length.deals.mean", "analysis.length.deals.ci95", 1, false},
    {"rounds", "rounds per game", "analysis.length.rounds.mean", "analysis.length.rounds.ci95", 1, false},
    {"decisions", "decisions per game", "analysis.length.decisions.mean", "analysis.length.decisions.ci95", 1, false},
    {"shared_wins", "shared wins (%)", "analysis.decisiveness.shared_wins.rate", "analysis.decisiveness.shared_wins.ci95", 100, false},
    {"margin", "winner's margin", "analysis.decisiveness.margin.mean", "analysis.decisiveness.margin.ci95", 1, false},
    {"lead_changes", "lead changes per game", "analysis.tension.lead_changes.mean", "analysis.tension.lead_changes.ci95", 1, false},
    {"lead_for_good", "winner leads for good from (% of the game)", "analysis.tension.lead_for_good.mean",
     "analysis.tension.lead_for_good.ci95", 100, false},
    {"drama", "winner's worst deficit", "analysis.tension.drama.mean", "analysis.tension.drama.ci95", 1, false},
    {"comebacks", "comebacks (%)", "analysis.tension.comebacks.rate", "analysis.tension.comebacks.ci95", 100, false},
    {"legal", "legal moves per decision", "analysis.choice.legal.mean", "analysis.choice.legal.ci95", 1, false},
    {"forced", "forced moves per game", "analysis.choice.forced.mean", "analysis.choice.forced.ci95", 1, false},
};

/* The metrics of every seat (its win rate less its fair share, up to the most players of the
 * results), of the first result's bots (raw, and less their fair share) and of its counters. */
static int extra_metrics(json_t *const *r, int nr, metric *out, int room) {
  int n = 0, most = 0;
  for (int i = 0; i < nr; i++) {
    int p = (int)num(r[i], "players");
    most = p > most ? p : most;
  }
  for (int p = 0; p < most && p < PF_MAX_PLAYERS && n < room; p++, n++) {
    out[n] = (metric){.scale = 100};
    snprintf(out[n].id, sizeof out[n].id, "seat:%d", p);
    snprintf(out[n].label, sizeof out[n].label, "seat %d's win rate less its fair share (points)", p);
    snprintf(out[n].mean, sizeof out[n].mean, "seat:%d", p);
  }
  size_t i;
  json_t *v;
  json_array_foreach(json_object_get(r[0], "bots"), i, v) {
    const char *bot = json_string_value(json_object_get(v, "bot"));
    for (int raw = 1; raw >= 0 && n < room; raw--, n++) {
      out[n] = (metric){.scale = 100, .raw = raw};
      snprintf(out[n].id, sizeof out[n].id, "%s:%s", raw ? "bot" : "bot_vs_fair", bot ? bot : "");
      snprintf(out[n].label, sizeof out[n].label, raw ? "bot %s's win rate (%%)" : "bot %s's win rate less its fair share (points)",
               bot ? bot : "?");
      snprintf(out[n].mean, sizeof out[n].mean, "%s", out[n].id);
    }
  }
  const char *key;
  json_object_foreach(at(r[0], "analysis", "events"), key, v) {
    if (n == room) break;
    out[n] = (metric){.scale = 1};
    snprintf(out[n].id, sizeof out[n].id, "event:%s", key);
    snprintf(out[n].label, sizeof out[n].label, "%s per game", key);
    snprintf(out[n].mean, sizeof out[n].mean, "analysis.events.%s.mean", key);
    snprintf(out[n].ci, sizeof out[n].ci, "analysis.events.%s.ci95", key);
    n++;
  }
  return n;
}

/* A metric of a result: its mean and interval (NAN when the result does not have it). */
static void metric_of(json_t *r, const metric *m, double *mean, double *lo, double *hi) {
  char path[160];
  *mean = *lo = *hi = NAN;
  if (strncmp(m->mean, "seat:", 5) == 0) {
    int p = atoi(m->mean + 5), n = (int)num(r, "players");
    if (p < n) {
      double fair = 1.0 / n;
      json_t *ci = json_array_get(json_object_get(r, "win_rate_ci95"), (size_t)p);
      *mean = num(r, idx(path, "win_rate", p)) - fair;
      *lo = json_number_value(json_array_get(ci, 0)) - fair, *hi = json_number_value(json_array_get(ci, 1)) - fair;
    }
  } else if (strncmp(m->mean, "bot:", 4) == 0 || strncmp(m->mean, "bot_vs_fair:", 12) == 0) {
    const char *bot = strchr(m->mean, ':') + 1;
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(r, "bots"), i, v)
      if (strcmp(str(json_object_get(v, "bot")), bot) == 0) {
        double fair = m->raw ? 0 : num(v, "fair_share");
        *mean = num(v, "win_rate") - fair, *lo = num(v, "win_rate_ci95.0") - fair, *hi = num(v, "win_rate_ci95.1") - fair;
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
  int len = snprintf(buf, size, "%s, %lld players", str(json_object_get(r, "game")),
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
    len += snprintf(buf + len, size - (size_t)len, " %s", str(v));
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

/* The fair share of a bot metric's bot in result r (NAN: not a bot metric, or no such bot). */
static double bot_fair_share(json_t *r, const metric *m) {
  if (strncmp(m->mean, "bot", 3) != 0) return NAN;
  size_t i;
  json_t *v;
  json_array_foreach(json_object_get(r, "bots"), i, v)
    if (strcmp(str(json_object_get(v, "bot")), strchr(m->mean, ':') + 1) == 0) return num(v, "fair_share");
  return NAN;
}

/* x for a table of two decimals: a rounding error below 0 (an interval's end at a rate of 0)
 * is 0, not "-0.00". */
static double tidy(double x) { return fabs(x) < 0.005 ? 0.0 : x; }

/* A metric that cannot vary here: every result has it, with the same value and no spread (or it
 * is the win rate of a bot that holds every seat). */
static bool constant(json_t *const *r, int n, const metric *m) {
  double first = NAN;
  for (int i = 0; i < n; i++) {
    double v, lo, hi;
    metric_of(r[i], m, &v, &lo, &hi);
    bool fixed = (lo == v && hi == v) || bot_fair_share(r[i], m) == 1;
    if (isnan(v) || !fixed || (i > 0 && v != first)) return false;
    first = v;
  }
  return true;
}

int cli_analyze_compare_results(json_t *const *r, const char *const *names, int n, const char *key,
                                const cli_vary *vary, bool json, const char *html) {
  int rc = 0;
  static metric m[sizeof METRICS / sizeof *METRICS + 2 * PF_MAX_EVENTS + 3 * PF_MAX_PLAYERS];
  static char label[CLI_COMPARE_MAX][CLI_LABEL];
  /* seat 0's raw rate, every seat's against its fair share, then the rest */
  int nm = 1, room = (int)(sizeof m / sizeof *m), rest = (int)(sizeof METRICS / sizeof *METRICS) - 1;
  m[0] = METRICS[0];
  nm += extra_metrics(r, n, m + nm, room - nm - rest);
  {
    /* the seats' metrics came first among the extras; the fixed ones go after them */
    int seats = 0;
    while (1 + seats < nm && strncmp(m[1 + seats].id, "seat:", 5) == 0) seats++;
    memmove(m + 1 + seats + rest, m + 1 + seats, (size_t)(nm - 1 - seats) * sizeof *m);
    memcpy(m + 1 + seats, METRICS + 1, (size_t)rest * sizeof *m);
    nm += rest;
  }
  cli_run_labels(r, n, names, label);
  /* Raw win rates mean what they say only when every run has the same players. */
  bool same_players = true;
  for (int i = 1; i < n; i++) same_players &= num(r[i], "players") == num(r[0], "players");
  int width = 4;
  for (int i = 0; i < n; i++) width = (int)strlen(label[i]) > width ? (int)strlen(label[i]) : width;
  width = width > 40 ? 40 : width;
  pf_buf out = {0}, diffs = {0};
  pf_jw w = {.b = &out};
  pf_jw_open(&w, '{');
  if (vary) {
    pf_jw_key(&w, "vary");
    pf_jw_open(&w, '{');
    pf_jw_key_str(&w, "key", vary->key);
    pf_jw_key(&w, "values");
    pf_jw_open(&w, '[');
    for (int i = 0; i < vary->n; i++) {
      if (vary->boolean)
        pf_jw_bool(&w, vary->v[i]);
      else
        pf_jw_int(&w, vary->v[i]);
    }
    pf_jw_close(&w, ']');
    pf_jw_close(&w, '}');
  }
  pf_jw_key(&w, "same_players");
  pf_jw_bool(&w, same_players);
  pf_jw_key(&w, "configs");
  pf_jw_open(&w, '[');
  char what[512];
  if (!json) printf("Runs:\n");
  for (int i = 0; i < n; i++) {
    describe_run(r[i], what, sizeof what);
    pf_jw_open(&w, '{');
    pf_jw_key_str(&w, key, names[i]);
    pf_jw_key_str(&w, "label", label[i]);
    pf_jw_key_str(&w, "run", what);
    pf_jw_close(&w, '}');
    bool file = strcmp(key, "file") == 0 && strcmp(names[i], label[i]) != 0;
    if (!json) printf("  %-*s  %s%s%s%s\n", width, label[i], what, file ? " (" : "", file ? names[i] : "", file ? ")" : "");
  }
  pf_jw_close(&w, ']');
  pf_jw_key(&w, "metrics");
  pf_jw_open(&w, '[');
  pf_buf constants = {0};
  for (int k = 0; k < nm; k++) {
    /* Differences are from the first result that has the metric (a seat of more players). */
    double m0, lo0, hi0;
    int ref = 0;
    for (; ref < n; ref++) {
      metric_of(r[ref], &m[k], &m0, &lo0, &hi0);
      if (!isnan(m0)) break;
    }
    if (ref == n) continue; /* no result has it (rounds of a game without rounds) */
    bool fixed = constant(r, n, &m[k]), shown = !fixed && (same_players || !m[k].raw);
    if (fixed && !json) {
      char v[64];
      snprintf(v, sizeof v, "%g", m0);
      pf_buf_printf(&constants, "  %-44s %s\n", m[k].label, v);
    }
    pf_buf_clear(&diffs);
    pf_jw dw = {.b = &diffs};
    pf_jw_open(&w, '{');
    pf_jw_key_str(&w, "metric", m[k].id);
    pf_jw_key_str(&w, "label", m[k].label);
    pf_jw_key(&w, "constant");
    pf_jw_bool(&w, fixed);
    pf_jw_key(&w, "raw_rate");
    pf_jw_bool(&w, m[k].raw);
    pf_jw_key(&w, "values");
    pf_jw_open(&w, '[');
    pf_jw_open(&dw, '[');
    if (!json && shown) printf("\n%s\n", m[k].label);
    for (int i = 0; i < n; i++) {
      double mi, lo, hi;
      metric_of(r[i], &m[k], &mi, &lo, &hi);
      /* The difference from the first, and the normal interval of a difference of independent
       * estimates, each one's standard error read back from its interval's half-width. */
      double se0 = (hi0 - lo0) / (2 * 1.96), se = (hi - lo) / (2 * 1.96), d = mi - m0;
      double half = 1.96 * sqrt(se0 * se0 + se * se);
      estimate_write(&w, "mean", mi, lo, hi, isnan(mi));
      if (i > 0) estimate_write(&dw, "difference", d, d - half, d + half, i <= ref || isnan(d) || isnan(half));
      if (json || !shown) continue;
      if (isnan(mi)) {
        printf("  %-*s %10s\n", width, label[i], "-");
        continue;
      }
      printf("  %-*s %10.2f  [%9.2f, %9.2f]", width, label[i], tidy(mi), tidy(lo), tidy(hi));
      if (i > ref && !isnan(half))
        printf("    %+9.2f  [%+9.2f, %+9.2f] from %s%s", d, d - half, d + half, label[ref],
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
  if (vary) {
    pf_jw_key(&w, "runs");
    pf_jw_open(&w, '[');
    for (int i = 0; i < n; i++) pf_jw_value(&w, r[i]);
    pf_jw_close(&w, ']');
  }
  pf_jw_close(&w, '}');
  if (json) {
    pf_buf text = {0};
    pf_buf_append(&text, out.data, out.len);
    cli_print_json(&text, 2);
    pf_buf_free(&text);
  } else {
    if (constants.len) printf("\nThe same in every run, with no spread:\n%s", pf_buf_str(&constants));
    if (!same_players) printf("\nThe runs have different players: win rates are shown less each seat's fair share.\n");
    printf("\n* the interval of the difference excludes 0.\n");
  }
  if (html) rc = cli_analyze_html(&out, html);
  pf_buf_free(&out);
  pf_buf_free(&diffs);
  pf_buf_free(&constants);
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
  if (n == 1) { /* a sweep: analyze --vary --json's document, shown again */
    json_t *doc = cli_load_json("analyze", argv[optind]);
    if (!doc) return EXIT_BAD_INPUT;
    int rc = json_object_get(doc, "vary") ? cli_vary_compare(doc, argv[optind], json, html)
                                          : cli_bad("analyze: --compare needs 2 to %d analyze --json results (or one analyze "
                                                    "--vary --json sweep), not 1", CLI_COMPARE_MAX);
    json_decref(doc);
    return rc;
  }
  if (n < 2 || n > CLI_COMPARE_MAX)
    return cli_bad("analyze: --compare needs 2 to %d analyze --json results, not %d", CLI_COMPARE_MAX, n);
  json_t *r[CLI_COMPARE_MAX] = {NULL};
  int rc = 0;
  for (int i = 0; i < n && rc == 0; i++) {
    const char *path = argv[optind + i];
    r[i] = cli_load_json("analyze", path);
    if (!r[i])
      rc = EXIT_BAD_INPUT;
    else if (!json_is_object(json_object_get(r[i], "analysis")) || !json_is_array(json_object_get(r[i], "bots")))
      rc = cli_bad("analyze: %s: not a 'pilfer analyze --json' result (it has no \"analysis\")", path);
  }
  if (rc == 0) rc = cli_analyze_compare_results(r, (const char *const *)argv + optind, n, "file", NULL, json, html);
  for (int i = 0; i < n; i++) json_decref(r[i]);
  return rc;
}
