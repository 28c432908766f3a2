/*
 * shard.c - the ids of a shard's tables (shard.h).
 */
#include "server/shard.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A decimal number of 1 to 3 digits, no sign, no spaces: -1 otherwise. */
static int small_number(const char *p, size_t n) {
  if (n == 0 || n > 3) return -1;
  int v = 0;
  for (size_t i = 0; i < n; i++) {
    if (p[i] < '0' || p[i] > '9') return -1;
    v = v * 10 + (p[i] - '0');
  }
  return v;
}

int pf_shard_parse(const char *text, pf_shard *out, pf_error *err) {
  const char *slash = strchr(text, '/');
  int i = slash ? small_number(text, (size_t)(slash - text)) : -1;
  int n = slash ? small_number(slash + 1, strlen(slash + 1)) : -1;
  if (i < 1 || n < 1 || i > n || n > PF_SHARD_MAX)
    return pf_fail(err, "--shard needs I/N, this process's shard I of N, with 1 <= I <= N <= %d (\"2/4\"), not '%.40s'",
                   PF_SHARD_MAX, text);
  out->index = i;
  out->count = n;
  return 0;
}

int pf_shard_of(int64_t id) { return id > 0 ? (int)(id % PF_SHARD_BASE) : 0; }

bool pf_shard_owns(const pf_shard *s, int64_t id) {
  return id > 0 && (!s->count || (id >= PF_SHARD_BASE && pf_shard_of(id) == s->index));
}

int64_t pf_shard_slot(const pf_shard *s, int64_t id) { return s->count ? id / PF_SHARD_BASE : id; }

void pf_shard_elsewhere(const pf_shard *s, int64_t id, char *out, size_t n) {
  int other = pf_shard_of(id);
  if (id >= PF_SHARD_BASE && other >= 1 && other <= s->count)
    snprintf(out, n, "table %" PRId64 " is on shard %d (this is shard %d of %d)", id, other, s->index, s->count);
  else
    snprintf(out, n, "no shard holds table %" PRId64 " (a table of shard I of these %d has an id ending in I's two "
             "digits, as 1%02d)", id, s->count, s->index);
}

int64_t pf_shard_next(const pf_shard *s, int64_t last) {
  return (last / PF_SHARD_BASE + 1) * PF_SHARD_BASE + s->index; /* last >= 0 */
}
