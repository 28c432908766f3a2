/*
 * sample.c - a position as text (sample.h).
 */
#include "bots/sample.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define SAMPLE_MAGIC "pilfer-state 1 "

static uint64_t fnv1a(const char *s, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 0x100000001b3ull;
  return h;
}

void pf_sample_write(const pf_game *g, const void *st, pf_buf *out) {
  size_t start = out->len;
  const uint8_t *b = st;
  pf_buf_printf(out, SAMPLE_MAGIC "%s %zu ", g->id, g->state_size);
  static const char HEX[] = "0123456789abcdef";
  char chunk[512];
  for (size_t i = 0; i < g->state_size; i += sizeof chunk / 2) {
    size_t k = 0;
    for (size_t j = i; j < g->state_size && k < sizeof chunk; j++) chunk[k++] = HEX[b[j] >> 4], chunk[k++] = HEX[b[j] & 15];
    pf_buf_append(out, chunk, k);
  }
  pf_buf_printf(out, " %016" PRIx64, fnv1a(out->data + start, out->len - start));
}

static int hexval(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int pf_sample_read(const pf_game *g, const char *text, void *st, pf_error *err) {
  char head[96];
  snprintf(head, sizeof head, SAMPLE_MAGIC "%s %zu ", g->id, g->state_size);
  size_t hl = strlen(head), n = g->state_size, len = strlen(text);
  if (strncmp(text, head, hl) != 0) return pf_fail(err, "not a position of %s written by this build of pilfer", g->id);
  if (len != hl + 2 * n + 17 || text[hl + 2 * n] != ' ') return pf_fail(err, "a position of %s of the wrong length", g->id);
  char check[17];
  snprintf(check, sizeof check, "%016" PRIx64, fnv1a(text, hl + 2 * n));
  if (strcmp(check, text + hl + 2 * n + 1) != 0) return pf_fail(err, "a damaged position (its check does not match)");
  uint8_t *b = st;
  for (size_t i = 0; i < n; i++) {
    int hi = hexval(text[hl + 2 * i]), lo = hexval(text[hl + 2 * i + 1]);
    if (hi < 0 || lo < 0) return pf_fail(err, "a damaged position (not hexadecimal)");
    b[i] = (uint8_t)(hi << 4 | lo);
  }
  return g->check(st, err);
}
