/*
 * sample.c - a position as text, sealed with a key (sample.h).
 */
#include "bots/sample.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define SAMPLE_MAGIC "pilfer-sample 1 "
#define MAC_DIGITS 16

static const char HEX[] = "0123456789abcdef";

static int hexval(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static void mac_text(const uint8_t key[PF_SIPHASH_KEY], const char *text, size_t len, char out[MAC_DIGITS + 1]) {
  snprintf(out, MAC_DIGITS + 1, "%016" PRIx64, pf_siphash24(key, text, len));
}

static void head(const pf_game *g, int players, char *buf, size_t n) {
  snprintf(buf, n, SAMPLE_MAGIC "%s %d %zu ", g->id, players, g->state_size);
}

void pf_sample_write(const pf_game *g, int players, const void *st, const uint8_t key[PF_SIPHASH_KEY], pf_buf *out) {
  size_t start = out->len;
  char h[96];
  head(g, players, h, sizeof h);
  pf_buf_printf(out, "%s", h);
  const uint8_t *b = st;
  char chunk[512];
  for (size_t i = 0; i < g->state_size; i += sizeof chunk / 2) {
    size_t k = 0;
    for (size_t j = i; j < g->state_size && k < sizeof chunk; j++) chunk[k++] = HEX[b[j] >> 4], chunk[k++] = HEX[b[j] & 15];
    pf_buf_append(out, chunk, k);
  }
  char mac[MAC_DIGITS + 1];
  mac_text(key, out->data + start, out->len - start, mac);
  pf_buf_printf(out, " %s", mac);
}

int pf_sample_read(const pf_game *g, int players, const char *text, size_t len, const uint8_t key[PF_SIPHASH_KEY], void *st,
                   pf_error *err) {
  char h[96];
  head(g, players, h, sizeof h);
  size_t hl = strlen(h), n = g->state_size, body = hl + 2 * n;
  if (len < hl || memcmp(text, h, hl) != 0)
    return pf_fail(err, "not a sample of %s for %d players (it should start '%s')", g->id, players, h);
  if (len != body + 1 + MAC_DIGITS || text[body] != ' ') return pf_fail(err, "a sample of %s of the wrong length", g->id);
  char mac[MAC_DIGITS + 1];
  mac_text(key, text, body, mac);
  unsigned diff = 0; /* the whole MAC compared, whatever its first difference */
  for (int i = 0; i < MAC_DIGITS; i++) diff |= (unsigned char)(mac[i] ^ text[body + 1 + i]);
  if (diff) return pf_fail(err, "a sample not written by this run's pilfer under this key (its MAC does not match)");
  uint8_t *b = st;
  for (size_t i = 0; i < n; i++) {
    int hi = hexval(text[hl + 2 * i]), lo = hexval(text[hl + 2 * i + 1]);
    if (hi < 0 || lo < 0) return pf_fail(err, "a damaged sample (not hexadecimal)"); /* cannot be: the MAC matched */
    b[i] = (uint8_t)(hi << 4 | lo);
  }
  return g->check(st, err);
}

int pf_sample_key_parse(const char *text, size_t len, uint8_t key[PF_SIPHASH_KEY], pf_error *err) {
  if (len != 2 * PF_SIPHASH_KEY) return pf_fail(err, "a sample key is %d hexadecimal digits, not %zu characters", 2 * PF_SIPHASH_KEY, len);
  for (int i = 0; i < PF_SIPHASH_KEY; i++) {
    int hi = hexval(text[2 * i]), lo = hexval(text[2 * i + 1]);
    if (hi < 0 || lo < 0) return pf_fail(err, "a sample key is %d lower-case hexadecimal digits", 2 * PF_SIPHASH_KEY);
    key[i] = (uint8_t)(hi << 4 | lo);
  }
  return 0;
}
