/*
 * fuzz_options.c - game options (`-o key=value`) from untrusted bytes.
 *
 * The input is the text "key=value" (cut at its first NUL), unless its first byte has the high
 * bit set: then the rest is a value put after "NAME=", NAME being the option that byte's low bits
 * pick among all the options of all the games (so that the fuzzer reaches the values at once).
 * The text is then parsed for every registered game. When pf_option_parse_kv accepts it:
 *   - the key is exactly the name of one of the game's options;
 *   - the value is within that option's [min, max] (0 or 1 for a boolean), pf_option_check
 *     agrees, and no other option changed;
 *   - pf_option_parse_value reads the value text to the same value, and the value written back
 *     as text reads to the same value again.
 * When it refuses, it says why; and a value it refuses for a known key, pf_option_parse_value
 * refuses too.
 */
#include <inttypes.h>

#include "fuzz.h"

#include "games/registry.h"

/* The option numbered k counting through every option of every game, or NULL when there are
 * none. */
static const pf_option_desc *nth_option(int k) {
  int total = 0;
  for (int g = 0; pf_games[g]; g++) total += pf_games[g]->noptions;
  if (total == 0) return NULL;
  k %= total;
  for (int g = 0; pf_games[g]; g++) {
    if (k < pf_games[g]->noptions) return &pf_games[g]->options[k];
    k -= pf_games[g]->noptions;
  }
  return NULL;
}

static void value_text(const pf_option_desc *d, int64_t v, char *buf, size_t n) {
  if (d->type == PF_OPT_BOOL)
    snprintf(buf, n, "%s", v ? "true" : "false");
  else
    snprintf(buf, n, "%" PRId64, v);
}

static void check_value(const pf_game *g, const pf_option_desc *d, int64_t v, const char *kv) {
  if (v < d->min || v > d->max)
    fuzz_bug("%s: '%s' gave %s = %" PRId64 ", outside [%" PRId64 ", %" PRId64 "]", g->id, kv,
             d->name, v, d->min, d->max);
  if (d->type == PF_OPT_BOOL && v != 0 && v != 1)
    fuzz_bug("%s: '%s' gave the boolean %s = %" PRId64, g->id, kv, d->name, v);
  pf_error err;
  if (pf_option_check(d, v, &err) != 0)
    fuzz_bug("%s: '%s' was accepted but pf_option_check refuses it: %s", g->id, kv, err.msg);
  char text[32];
  int64_t back;
  value_text(d, v, text, sizeof text);
  if (pf_option_parse_value(d, text, &back, &err) != 0 || back != v)
    fuzz_bug("%s: %s = %" PRId64 " written as '%s' does not read back", g->id, d->name, v, text);
}

static void parse_for_game(const pf_game *g, const char *kv) {
  pf_options before, out;
  pf_error err;
  pf_options_default(g->options, g->noptions, &before);
  out = before;
  const char *eq = strchr(kv, '=');
  if (pf_option_parse_kv(g->options, g->noptions, kv, &out, &err) != 0) {
    fuzz_require_message(&err, "pf_option_parse_kv");
    if (!eq) return;
    /* A known key with a value refused here is refused by pf_option_parse_value too. */
    char name[256];
    size_t len = (size_t)(eq - kv);
    if (len >= sizeof name) return;
    memcpy(name, kv, len);
    name[len] = '\0';
    int i = pf_option_find(g->options, g->noptions, name);
    int64_t v;
    if (i >= 0 && pf_option_parse_value(&g->options[i], eq + 1, &v, &err) == 0)
      fuzz_bug("%s: '%s' refused (%s) but its value reads alone as %" PRId64, g->id, kv, err.msg,
               v);
    return;
  }
  if (!eq) fuzz_bug("%s: '%s' accepted without '='", g->id, kv);
  int found = -1;
  for (int i = 0; i < g->noptions; i++) {
    size_t n = strlen(g->options[i].name);
    if (n == (size_t)(eq - kv) && memcmp(kv, g->options[i].name, n) == 0) found = i;
  }
  if (found < 0) fuzz_bug("%s: '%s' accepted but its key is no option's name", g->id, kv);
  for (int i = 0; i < g->noptions; i++)
    if (i != found && out.v[i] != before.v[i])
      fuzz_bug("%s: '%s' changed the option %s too", g->id, kv, g->options[i].name);
  const pf_option_desc *d = &g->options[found];
  check_value(g, d, out.v[found], kv);
  int64_t v;
  if (pf_option_parse_value(d, eq + 1, &v, &err) != 0 || v != out.v[found])
    fuzz_bug("%s: '%s' accepted as %" PRId64 " but its value alone does not read so", g->id, kv,
             out.v[found]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size, 0};
  pf_buf kv = {0};
  if (size > 0 && (data[0] & 0x80)) {
    const pf_option_desc *d = nth_option(fuzz_byte(&in) & 0x7F);
    if (d) pf_buf_printf(&kv, "%s=", d->name);
  }
  char *rest = fuzz_rest_str(&in);
  pf_buf_puts(&kv, rest);
  const char *text = pf_buf_str(&kv);

  for (int g = 0; pf_games[g]; g++) {
    parse_for_game(pf_games[g], text);
    /* Every option's value reader, on the text after the first '=' (or all of it). */
    const char *eq = strchr(text, '=');
    const char *value = eq ? eq + 1 : text;
    for (int i = 0; i < pf_games[g]->noptions; i++) {
      const pf_option_desc *o = &pf_games[g]->options[i];
      int64_t v;
      pf_error err;
      if (pf_option_parse_value(o, value, &v, &err) == 0)
        check_value(pf_games[g], o, v, value);
      else
        fuzz_require_message(&err, "pf_option_parse_value");
    }
  }
  pf_buf_free(&kv);
  free(rest);
  return 0;
}
