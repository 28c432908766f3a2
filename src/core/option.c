/*
 * option.c - parsing and checking game options.
 */
#include "core/option.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void pf_options_default(const pf_option_desc *desc, int n, pf_options *out) {
  memset(out, 0, sizeof *out);
  for (int i = 0; i < n; i++) out->v[i] = desc[i].def;
}

int pf_option_find(const pf_option_desc *desc, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (strcmp(desc[i].name, name) == 0) return i;
  return -1;
}

void pf_option_describe(const pf_option_desc *d, pf_buf *out) {
  if (d->type == PF_OPT_BOOL)
    pf_buf_printf(out, "%s: true or false (default %s)", d->name, d->def ? "true" : "false");
  else
    pf_buf_printf(out, "%s: an integer from %" PRId64 " to %" PRId64 " (default %" PRId64 ")",
                  d->name, d->min, d->max, d->def);
}

int pf_option_check(const pf_option_desc *d, int64_t value, pf_error *err) {
  if (value >= d->min && value <= d->max) return 0;
  pf_buf b = {0};
  pf_option_describe(d, &b);
  pf_fail(err, "bad value %" PRId64 " for option %s; allowed: %s", value, d->name, pf_buf_str(&b));
  pf_buf_free(&b);
  return -1;
}

int pf_option_parse_value(const pf_option_desc *d, const char *text, int64_t *out,
                          pf_error *err) {
  int64_t v = 0;
  bool ok = false;
  if (d->type == PF_OPT_BOOL) {
    ok = strcmp(text, "true") == 0 || strcmp(text, "false") == 0;
    v = strcmp(text, "true") == 0;
  } else if (*text) {
    char *end;
    errno = 0;
    long long x = strtoll(text, &end, 10);
    ok = errno == 0 && *end == '\0' && (end == text + strspn(text, "-0123456789"));
    v = x;
  }
  if (!ok || v < d->min || v > d->max) {
    pf_buf b = {0};
    pf_option_describe(d, &b);
    pf_fail(err, "bad value '%s' for option %s; allowed: %s", text, d->name, pf_buf_str(&b));
    pf_buf_free(&b);
    return -1;
  }
  *out = v;
  return 0;
}

int pf_option_parse_kv(const pf_option_desc *desc, int n, const char *kv, pf_options *out,
                       pf_error *err) {
  const char *eq = strchr(kv, '=');
  if (!eq || eq == kv) return pf_fail(err, "option '%s' is not of the form key=value", kv);
  char name[64];
  size_t len = (size_t)(eq - kv);
  if (len >= sizeof name) len = sizeof name - 1;
  memcpy(name, kv, len);
  name[len] = '\0';
  int i = pf_option_find(desc, n, name);
  if (i < 0) {
    pf_buf b = {0};
    for (int k = 0; k < n; k++) pf_buf_join_item(&b, k, "%s", desc[k].name);
    pf_fail(err, "unknown option '%s'; options are: %s", name, n ? pf_buf_str(&b) : "(none)");
    pf_buf_free(&b);
    return -1;
  }
  return pf_option_parse_value(&desc[i], eq + 1, &out->v[i], err);
}

int pf_options_parse_list(const pf_option_desc *desc, int n, const char *list, pf_options *out, pf_error *err) {
  char buf[512];
  if (list && strlen(list) >= sizeof buf) return pf_fail(err, "options: too long");
  snprintf(buf, sizeof buf, "%s", list ? list : "");
  for (char *save = NULL, *kv = strtok_r(buf, " ", &save); kv; kv = strtok_r(NULL, " ", &save))
    if (pf_option_parse_kv(desc, n, kv, out, err) != 0) return -1;
  return 0;
}
