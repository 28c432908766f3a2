/*
 * bot.c - the bot registry, bot specs and their settings, and the random bot.
 */
#include "bots/bot.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------ */
/* random                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* random: a uniformly random legal move; it looks at nothing but the legal moves. */
static pf_move random_choose(pf_bot *bot, const pf_game *g, const void *st) {
  int n;
  pf_move m = pf_random_move(g, st, &bot->rng, &n);
  bot->stats = (pf_bot_stats){.offered = n};
  return m;
}

const pf_bot_kind pf_bot_random = {"random", "a uniformly random legal move", NULL, 0, random_choose, NULL, NULL, false, false, NULL};

/* The kinds `--seat` and `sim` accept, in the order help lists them. */
const pf_bot_kind *const pf_bot_kinds[] = {&pf_bot_random, &pf_bot_greedy, &pf_bot_ismcts, &pf_bot_exec, NULL};

static bool programs_allowed, instruments_allowed;

const char *const pf_bot_fail_names[PF_BOT_FAIL_KINDS] = {"timeout", "ended", "illegal", "protocol"};

void pf_bot_allow_programs(bool allow) { programs_allowed = allow; }

void pf_bot_allow_instruments(bool allow) { instruments_allowed = allow; }

/* ------------------------------------------------------------------------------------------ */
/* Specs and settings                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* Bot streams are far from the deal streams (which count deals from 0). */
#define BOT_STREAM 0x424F5400u

static void describe_setting(const pf_bot_setting *s, pf_buf *out) {
  if (s->choices) {
    pf_buf_printf(out, "%s: ", s->name);
    for (int i = 0; s->choices[i]; i++) pf_buf_printf(out, "%s%s", i ? " or " : "", s->choices[i]);
    pf_buf_printf(out, " (default %s)", s->choices[s->def]);
  } else if (s->scale == 1) {
    pf_buf_printf(out, "%s: an integer from %" PRId64 " to %" PRId64 " (default %" PRId64 ")", s->name, s->min,
                  s->max, s->def);
  } else {
    pf_buf_printf(out, "%s: a number from %g to %g (default %g)", s->name, (double)s->min / s->scale,
                  (double)s->max / s->scale, (double)s->def / s->scale);
  }
}

/* Reads a decimal with at most three decimals ("0.7", "2", "1.25") into thousandths. */
static int parse_decimal(const char *text, int64_t *out) {
  const char *p = text;
  int64_t v = 0;
  int decimals = -1;
  if (!*p) return -1;
  for (; *p; p++) {
    if (*p == '.' && decimals < 0) {
      decimals = 0;
      continue;
    }
    if (*p < '0' || *p > '9' || v > INT64_MAX / 100 || decimals == 3) return -1;
    v = v * 10 + (*p - '0');
    if (decimals >= 0) decimals++;
  }
  if (decimals == 0 || (p - text == 1 && decimals >= 0)) return -1;
  for (int d = decimals < 0 ? 0 : decimals; d < 3; d++) v *= 10;
  *out = v;
  return 0;
}

static int parse_setting_value(const pf_bot_setting *s, const char *text, int64_t *out) {
  if (s->choices) {
    for (int i = 0; s->choices[i]; i++)
      if (strcmp(s->choices[i], text) == 0) return *out = i, 0;
    return -1;
  }
  if (s->scale == 1000) {
    if (parse_decimal(text, out) != 0) return -1;
  } else {
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (!*text || *end || errno || strspn(text, "0123456789") != strlen(text)) return -1;
    *out = v;
  }
  return *out >= s->min && *out <= s->max ? 0 : -1;
}

int pf_bot_parse_settings(const pf_bot_kind *k, const char *text, int64_t *set, pf_error *err) {
  char buf[256];
  if (strlen(text) >= sizeof buf) return pf_fail(err, "bot '%s': the settings are too long", k->name);
  strcpy(buf, text);
  for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(kv, '=');
    if (!eq || eq == kv) return pf_fail(err, "bot '%s': '%s' is not of the form key=value", k->name, kv);
    *eq = '\0';
    int i = 0;
    while (i < k->nsettings && strcmp(k->settings[i].name, kv) != 0) i++;
    if (i == k->nsettings) {
      pf_buf b = {0};
      for (int j = 0; j < k->nsettings; j++) pf_buf_join_item(&b, j, "%s", k->settings[j].name);
      pf_fail(err, "bot '%s' has no setting '%s'; %s", k->name, kv,
              k->nsettings ? "its settings are: " : "it takes no settings");
      if (k->nsettings) strncat(err->msg, pf_buf_str(&b), sizeof err->msg - strlen(err->msg) - 1);
      pf_buf_free(&b);
      return -1;
    }
    if (parse_setting_value(&k->settings[i], eq + 1, &set[i]) != 0) {
      pf_buf b = {0};
      describe_setting(&k->settings[i], &b);
      pf_fail(err, "bot '%s': bad value '%s' for %s; allowed: %s", k->name, eq + 1, kv, pf_buf_str(&b));
      pf_buf_free(&b);
      return -1;
    }
  }
  return 0;
}

/* What follows "name:" in a spec ("" when nothing does). */
static const char *spec_text(const char *spec) {
  size_t len = strcspn(spec, ":");
  return spec[len] ? spec + len + 1 : "";
}

/* The kind a spec names and its settings; a kind that starts programs only when `programs`, a
 * measuring instrument only when `instruments`. */
static const pf_bot_kind *parse_spec_as(const char *spec, int64_t *set, bool programs, bool instruments, pf_error *err) {
  size_t len = strcspn(spec, ":");
  for (int i = 0; pf_bot_kinds[i]; i++) {
    const pf_bot_kind *k = pf_bot_kinds[i];
    if (strlen(k->name) != len || strncmp(k->name, spec, len) != 0) continue;
    if (k->runs_programs && !programs) {
      pf_fail(err, "bot '%s' starts a program on this machine, which this server does not allow", k->name);
      return NULL;
    }
    for (int j = 0; j < k->nsettings; j++) set[j] = k->settings[j].def;
    const char *text = spec_text(spec);
    if (k->open ? k->open(NULL, text, set, err) != 0 : *text && pf_bot_parse_settings(k, text, set, err) != 0) return NULL;
    const char *inst = k->instrument ? k->instrument(set) : NULL;
    if (inst && !instruments) {
      pf_fail(err,
              "bot '%s': %s reads what its seat cannot see: a measuring instrument, for pilfer sim and "
              "analyze only, which this program does not allow",
              k->name, inst);
      return NULL;
    }
    return k;
  }
  pf_buf b = {0};
  for (int i = 0; pf_bot_kinds[i]; i++) pf_buf_join_item(&b, i, "%s", pf_bot_kinds[i]->name);
  pf_fail(err, "unknown bot '%.*s'; bots are: %s", (int)len, spec, pf_buf_str(&b));
  pf_buf_free(&b);
  return NULL;
}

static const pf_bot_kind *parse_spec(const char *spec, int64_t *set, pf_error *err) {
  return parse_spec_as(spec, set, programs_allowed, instruments_allowed, err);
}

const char *pf_bot_instrument(const char *spec) {
  int64_t set[PF_BOT_MAX_SETTINGS];
  pf_error err;
  const pf_bot_kind *k = parse_spec_as(spec, set, true, true, &err);
  return k && k->instrument ? k->instrument(set) : NULL;
}

int pf_bot_check_spec(const char *spec, pf_error *err) {
  int64_t set[PF_BOT_MAX_SETTINGS];
  return parse_spec(spec, set, err) ? 0 : -1;
}

int pf_bot_init(pf_bot *bot, const char *spec, int players, uint64_t seed, int seat, pf_error *err) {
  memset(bot, 0, sizeof *bot);
  bot->kind = parse_spec(spec, bot->set, err);
  if (!bot->kind) return -1;
  if (bot->kind->open && bot->kind->open(bot, spec_text(spec), bot->set, err) != 0) {
    pf_bot_free(bot);
    return -1;
  }
  bot->players = players;
  pf_bot_reseed(bot, seed, seat);
  return 0;
}

void pf_bot_reseed(pf_bot *bot, uint64_t seed, int seat) {
  pf_rng_seed(&bot->rng, seed, BOT_STREAM + (uint64_t)seat);
  bot->failure = PF_BOT_OK;
  bot->fallback_moves = 0;
}

void pf_bot_free(pf_bot *bot) {
  if (bot->kind && bot->kind->close) bot->kind->close(bot);
  free(bot->mem);
  bot->mem = NULL;
  bot->memsize = 0;
}

int64_t pf_bot_setting_value(const pf_bot *bot, const char *name) {
  for (int i = 0; i < bot->kind->nsettings; i++)
    if (strcmp(bot->kind->settings[i].name, name) == 0) return bot->set[i];
  abort(); /* a kind asks only for its own settings */
}

const char *pf_bot_fail_setting(const char *spec) {
  int64_t set[PF_BOT_MAX_SETTINGS];
  pf_error err;
  const pf_bot_kind *k = parse_spec(spec, set, &err);
  for (int i = 0; k && i < k->nsettings; i++)
    if (strcmp(k->settings[i].name, "fail") == 0 && k->settings[i].choices) return k->settings[i].choices[set[i]];
  return NULL;
}

void pf_bot_describe_all(pf_buf *out) {
  for (int i = 0; pf_bot_kinds[i]; i++) {
    const pf_bot_kind *k = pf_bot_kinds[i];
    pf_buf_printf(out, "  %-8s %s\n", k->name, k->help);
    for (int j = 0; j < k->nsettings; j++) {
      pf_buf_puts(out, "             ");
      describe_setting(&k->settings[j], out);
      pf_buf_printf(out, ": %s\n", k->settings[j].help);
    }
  }
}

/* ------------------------------------------------------------------------------------------ */
/* For bot kinds                                                                              */
/* ------------------------------------------------------------------------------------------ */

void *pf_bot_memory(pf_bot *bot, size_t n) {
  if (bot->memsize < n) {
    free(bot->mem);
    bot->mem = pf_xcalloc(1, n);
    bot->memsize = n;
  }
  return bot->mem;
}

int pf_bot_best(pf_rng *rng, const int64_t *rating, int n) {
  int best = 0, ties = 1;
  for (int i = 1; i < n; i++) {
    if (rating[i] > rating[best]) {
      best = i;
      ties = 1;
    } else if (rating[i] == rating[best]) {
      ties++;
    }
  }
  if (ties == 1) return best;
  int k = (int)pf_rng_below(rng, (uint32_t)ties);
  for (int i = 0; i < n; i++)
    if (rating[i] == rating[best] && k-- == 0) return i;
  return best;
}
