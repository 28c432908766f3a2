/*
 * cli_vary.c - `pilfer analyze --vary KEY=V1,V2,...`'s spec (a sweep: the same analysis at each
 * value of a game option or of the number of players), and the labels that name the runs of a
 * comparison by what differs between them ("players=3", "stock=10", a bot's spec).
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "bots/bot.h"
#include "core/mem.h"
#include "core/option.h"
#include "sim/sim.h"

/* ---- the spec ---- */

/* The keys --vary takes for game g, for a message: "players, stock, hands". */
static void list_keys(const pf_game *g, char *buf, size_t size) {
  int len = snprintf(buf, size, "players");
  for (int i = 0; i < g->noptions && len < (int)size; i++)
    len += snprintf(buf + len, size - (size_t)len, ", %s", g->options[i].name);
}

/* One value of the spec as text into v (its number), checked as -o KEY=text (or -p text) is. */
static int parse_value(const pf_game *g, cli_vary *v, const char *text, long long *out) {
  pf_error err;
  if (v->option < 0) {
    int p;
    if (cli_parse_count(text, &p) != 0)
      return cli_bad("analyze: --vary players: '%s' is not a number of players", text);
    if (pf_check_players(g, p, &err) != 0) return cli_bad("analyze: --vary players=%s: %s", text, err.msg);
    *out = p;
    return 0;
  }
  int64_t x;
  if (pf_option_parse_value(&g->options[v->option], text, &x, &err) != 0)
    return cli_bad("analyze: --vary %s: %s: %s", v->key, g->id, err.msg);
  *out = x;
  return 0;
}

static int add_value(cli_vary *v, long long x) {
  if (v->n == CLI_VARY_MAX) return cli_bad("analyze: --vary %s: at most %d values", v->key, CLI_VARY_MAX);
  for (int i = 0; i < v->n; i++)
    if (v->v[i] == x) return cli_bad("analyze: --vary %s: the value %lld is given twice", v->key, x);
  v->v[v->n++] = x;
  return 0;
}

int cli_vary_parse(const char *spec, const pf_game *g, cli_vary *v) {
  memset(v, 0, sizeof *v);
  const char *eq = strchr(spec, '=');
  if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof v->key)
    return cli_bad("analyze: --vary takes KEY=V1,V2,... (a game option or players; e.g. players=2..6 or "
                   "stock=5,10,15), not '%s'", spec);
  memcpy(v->key, spec, (size_t)(eq - spec));
  char keys[512];
  list_keys(g, keys, sizeof keys);
  v->option = strcmp(v->key, "players") == 0 ? -1 : pf_option_find(g->options, g->noptions, v->key);
  if (v->option < 0 && strcmp(v->key, "players") != 0)
    return cli_bad("analyze: --vary: %s has no option '%s'; it varies one of: %s", g->id, v->key, keys);
  v->boolean = v->option >= 0 && g->options[v->option].type == PF_OPT_BOOL;
  char list[1024];
  if (strlen(eq + 1) >= sizeof list) return cli_bad("analyze: --vary %s: the list of values is too long", v->key);
  strcpy(list, eq + 1);
  /* Each item: a value, or A..B (whole numbers, every one from A to B). */
  for (char *item = list, *next; item; item = next) {
    next = strchr(item, ',');
    if (next) *next++ = '\0';
    if (!*item) return cli_bad("analyze: --vary %s: an empty value in '%s' (give V1,V2,... after '=')", v->key, eq + 1);
    char *dots = strstr(item, "..");
    if (!dots) {
      long long x;
      if (parse_value(g, v, item, &x) != 0 || add_value(v, x) != 0) return EXIT_BAD_INPUT;
      continue;
    }
    if (v->boolean) return cli_bad("analyze: --vary %s: a range A..B is for whole numbers; give true,false", v->key);
    *dots = '\0';
    long long a, b;
    if (parse_value(g, v, item, &a) != 0 || parse_value(g, v, dots + 2, &b) != 0) return EXIT_BAD_INPUT;
    if (a >= b) return cli_bad("analyze: --vary %s: the range %lld..%lld is empty or one value; A..B needs A < B", v->key, a, b);
    if (b - a >= CLI_VARY_MAX) return cli_bad("analyze: --vary %s: at most %d values, not %lld..%lld", v->key, CLI_VARY_MAX, a, b);
    for (long long x = a; x <= b; x++)
      if (add_value(v, x) != 0) return EXIT_BAD_INPUT;
  }
  if (v->n < 2) return cli_bad("analyze: --vary %s: give 2 to %d values to compare, not 1", v->key, CLI_VARY_MAX);
  char key[sizeof v->key]; /* a copy: the texts are written into the same struct */
  memcpy(key, v->key, sizeof key);
  for (int i = 0; i < v->n; i++) {
    if (v->boolean)
      snprintf(v->text[i], sizeof v->text[i], "%s=%s", key, v->v[i] ? "true" : "false");
    else
      snprintf(v->text[i], sizeof v->text[i], "%s=%lld", key, v->v[i]);
  }
  return 0;
}

/* ---- labels ---- */

/* What a run is, attribute by attribute: "players" "3", "stock" "10", "seat 1" "greedy". */
typedef struct attr {
  char name[40], value[PF_BOT_SPEC];
} attr;

static const char *str_or(const char *s) { return s ? s : "?"; }

#define MAX_ATTRS (8 + PF_MAX_OPTIONS + PF_MAX_PLAYERS)

static int run_attrs(json_t *r, attr *a) {
  int n = 0;
  snprintf(a[n].name, sizeof a[n].name, "game");
  snprintf(a[n++].value, sizeof a[n].value, "%s", str_or(json_string_value(json_object_get(r, "game"))));
  snprintf(a[n].name, sizeof a[n].name, "players");
  snprintf(a[n++].value, sizeof a[n].value, "%lld", (long long)json_integer_value(json_object_get(r, "players")));
  const char *key;
  json_t *v;
  json_object_foreach(json_object_get(r, "options"), key, v) {
    if (n >= MAX_ATTRS - PF_MAX_PLAYERS - 3) break;
    snprintf(a[n].name, sizeof a[n].name, "%s", key);
    if (json_is_boolean(v))
      snprintf(a[n++].value, sizeof a[n].value, "%s", json_is_true(v) ? "true" : "false");
    else
      snprintf(a[n++].value, sizeof a[n].value, "%lld", (long long)json_integer_value(v));
  }
  size_t i;
  json_array_foreach(json_object_get(r, "seats"), i, v) {
    if (i >= PF_MAX_PLAYERS) break;
    snprintf(a[n].name, sizeof a[n].name, "seat %zu", i);
    snprintf(a[n++].value, sizeof a[n].value, "%s", str_or(json_string_value(v)));
  }
  snprintf(a[n].name, sizeof a[n].name, "rotate");
  snprintf(a[n++].value, sizeof a[n].value, "%s", json_is_true(json_object_get(r, "rotate")) ? "rotated" : "not rotated");
  snprintf(a[n].name, sizeof a[n].name, "seed");
  snprintf(a[n++].value, sizeof a[n].value, "%lld", (long long)json_integer_value(json_object_get(r, "seed")));
  snprintf(a[n].name, sizeof a[n].name, "games");
  snprintf(a[n++].value, sizeof a[n].value, "%lld", (long long)json_integer_value(json_object_get(r, "played")));
  return n;
}

static const attr *find_attr(const attr *a, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (strcmp(a[i].name, name) == 0) return &a[i];
  return NULL;
}

void cli_run_labels(json_t *const *r, int n, const char *const *names, char (*label)[CLI_LABEL]) {
  static attr a[CLI_COMPARE_MAX][MAX_ATTRS];
  int na[CLI_COMPARE_MAX];
  for (int i = 0; i < n; i++) na[i] = run_attrs(r[i], a[i]);
  /* The attributes that differ: a seat's bot differs when two runs that have the seat give it
   * different bots (a seat only the runs with more players have is no difference: their players
   * are); any other attribute when two runs differ in it or one lacks it. */
  const attr *differ[MAX_ATTRS * 2];
  int nd = 0;
  for (int i = 0; i < n; i++)
    for (int k = 0; k < na[i]; k++) {
      const char *name = a[i][k].name;
      bool seat = strncmp(name, "seat ", 5) == 0, d = false, seen = false;
      for (int q = 0; q < nd; q++) seen |= strcmp(differ[q]->name, name) == 0;
      for (int j = 0; j < n && !seen && !d; j++) {
        const attr *o = find_attr(a[j], na[j], name);
        d = o ? strcmp(o->value, a[i][k].value) != 0 : !seat;
      }
      if (d && !seen && nd < (int)(sizeof differ / sizeof *differ)) differ[nd++] = &a[i][k];
    }
  int seats = 0;
  for (int q = 0; q < nd; q++) seats += strncmp(differ[q]->name, "seat ", 5) == 0;
  /* Only seats differ, and in each run they hold one bot: that bot's spec is the label. */
  bool by_bot = seats == nd && nd > 0;
  for (int i = 0; i < n && by_bot; i++) {
    const attr *one = NULL;
    for (int q = 0; q < nd && by_bot; q++) {
      const attr *o = find_attr(a[i], na[i], differ[q]->name);
      if (o && one && strcmp(o->value, one->value) != 0) by_bot = false;
      one = o ? o : one;
    }
  }
  for (int i = 0; i < n; i++) {
    int len = 0;
    label[i][0] = '\0';
    for (int q = 0; q < nd && len < CLI_LABEL; q++) {
      const attr *o = find_attr(a[i], na[i], differ[q]->name);
      if (!o) continue;
      const char *sep = len ? ", " : "";
      if (by_bot) {
        snprintf(label[i], CLI_LABEL, "%s", o->value);
        break;
      } else if (strcmp(o->name, "rotate") == 0 || strcmp(o->name, "game") == 0)
        len += snprintf(label[i] + len, CLI_LABEL - (size_t)len, "%s%s", sep, o->value);
      else
        len += snprintf(label[i] + len, CLI_LABEL - (size_t)len, "%s%s=%s", sep, o->name, o->value);
    }
    if (!label[i][0]) snprintf(label[i], CLI_LABEL, "%s", names && names[i] ? names[i] : "run");
  }
  /* Two runs alike in every attribute: the name (file) tells them apart. */
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      if (strcmp(label[i], label[j]) == 0) {
        for (int k = 0; k < n; k++) {
          char was[CLI_LABEL];
          snprintf(was, sizeof was, "%s", label[k]);
          snprintf(label[k], CLI_LABEL, "#%d %.*s", k + 1, CLI_LABEL - 16, was);
        }
        return;
      }
}

/* ---- a sweep's document: read back, merged from shards ---- */

/* The sweep of an analyze --vary --json document ("vary": its key and values) into v, and its
 * "runs"; 0, or -1 with err. */
static int read_sweep(json_t *doc, cli_vary *v, json_t **runs, pf_error *err) {
  json_t *vary = json_object_get(doc, "vary"), *vals = json_object_get(vary, "values");
  const char *key = json_string_value(json_object_get(vary, "key"));
  size_t n = json_array_size(vals);
  *runs = json_object_get(doc, "runs");
  memset(v, 0, sizeof *v);
  if (!key || strlen(key) >= sizeof v->key || n < 2 || n > CLI_VARY_MAX || json_array_size(*runs) != n)
    return pf_fail(err, "not an analyze --vary --json document (its \"vary\" and %d to %d \"runs\")", 2, CLI_VARY_MAX);
  strcpy(v->key, key);
  v->option = strcmp(key, "players") == 0 ? -1 : 0;
  v->boolean = json_is_boolean(json_array_get(vals, 0));
  for (size_t i = 0; i < n; i++) {
    json_t *x = json_array_get(vals, i), *run = json_array_get(*runs, i);
    if (v->boolean ? !json_is_boolean(x) : !json_is_integer(x))
      return pf_fail(err, "vary.values[%zu]: expected %s like the first", i, v->boolean ? "true or false" : "an integer");
    if (!json_is_object(json_object_get(run, "analysis")) || !json_is_array(json_object_get(run, "bots")))
      return pf_fail(err, "runs[%zu]: not a 'pilfer analyze --json' result (it has no \"analysis\")", i);
    v->v[v->n] = v->boolean ? json_is_true(x) : json_integer_value(x);
    if (v->boolean)
      snprintf(v->text[v->n], sizeof v->text[v->n], "%s=%s", key, v->v[v->n] ? "true" : "false");
    else
      snprintf(v->text[v->n], sizeof v->text[v->n], "%s=%lld", key, v->v[v->n]);
    v->n++;
  }
  return 0;
}

/* Shows the runs of sweep v as analyze --vary does. */
static int show_sweep(json_t *const *runs, const cli_vary *v, bool json, const char *html) {
  const char *names[CLI_VARY_MAX];
  for (int i = 0; i < v->n; i++) names[i] = strchr(v->text[i], '=') + 1;
  return cli_analyze_compare_results(runs, names, v->n, "value", v, json, html);
}

int cli_vary_compare(json_t *doc, const char *path, bool json, const char *html) {
  cli_vary v;
  json_t *runs, *r[CLI_VARY_MAX];
  pf_error err;
  if (read_sweep(doc, &v, &runs, &err) != 0) return cli_bad("analyze: %s: %s", path, err.msg);
  for (int i = 0; i < v.n; i++) r[i] = json_array_get(runs, (size_t)i);
  return show_sweep(r, &v, json, html);
}

int cli_vary_merge(json_t *first, const char *const *paths, int n, bool table) {
  static cli_vary v, other;
  static pf_sim_result whole;
  json_t **docs = pf_xcalloc((size_t)n, sizeof *docs), *runs, *merged[CLI_VARY_MAX] = {NULL};
  pf_sim_result *parts = pf_xcalloc((size_t)n, sizeof *parts);
  pf_error err;
  int rc = 0;
  docs[0] = json_incref(first);
  if (read_sweep(first, &v, &runs, &err) != 0) rc = cli_bad("merge: %s: %s", paths[0], err.msg);
  for (int i = 1; i < n && rc == 0; i++) {
    if (!(docs[i] = cli_load_json("merge", paths[i])))
      rc = EXIT_BAD_INPUT;
    else if (read_sweep(docs[i], &other, &runs, &err) != 0)
      rc = cli_bad("merge: %s: %s (every part must be a shard of one analyze --vary)", paths[i], err.msg);
    else if (strcmp(other.key, v.key) != 0 || other.n != v.n || memcmp(other.v, v.v, sizeof v.v) != 0)
      rc = cli_bad("merge: %s: a sweep of %s over other values than %s's; the shards of one sweep vary the same", paths[i],
                   other.key, paths[0]);
  }
  for (int k = 0; k < v.n && rc == 0; k++) {
    for (int i = 0; i < n && rc == 0; i++) {
      char what[4200];
      snprintf(what, sizeof what, "%s (%s)", paths[i], v.text[k]);
      if (pf_sim_from_json(json_array_get(json_object_get(docs[i], "runs"), (size_t)k), what, &parts[i], &err) != 0)
        rc = cli_bad("merge: %s", err.msg);
    }
    if (rc == 0 && pf_sim_merge(parts, n, &whole, &err) != 0) rc = cli_bad("merge: %s: %s", v.text[k], err.msg);
    if (rc == 0) merged[k] = pf_sim_json(&whole);
  }
  if (rc == 0) rc = show_sweep(merged, &v, !table, NULL);
  for (int k = 0; k < v.n; k++) json_decref(merged[k]);
  for (int i = 0; i < n; i++) json_decref(docs[i]);
  free(docs);
  free(parts);
  return rc;
}
