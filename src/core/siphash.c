/*
 * siphash.c - SipHash-2-4 (siphash.h): two compression rounds per 8-byte word, four to finish.
 */
#include "core/siphash.h"

static uint64_t le64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

static void sipround(uint64_t v[4]) {
  v[0] += v[1], v[1] = ROTL(v[1], 13), v[1] ^= v[0], v[0] = ROTL(v[0], 32);
  v[2] += v[3], v[3] = ROTL(v[3], 16), v[3] ^= v[2];
  v[0] += v[3], v[3] = ROTL(v[3], 21), v[3] ^= v[0];
  v[2] += v[1], v[1] = ROTL(v[1], 17), v[1] ^= v[2], v[2] = ROTL(v[2], 32);
}

uint64_t pf_siphash24(const uint8_t key[PF_SIPHASH_KEY], const void *data, size_t len) {
  const uint8_t *in = data;
  uint64_t k0 = le64(key), k1 = le64(key + 8);
  uint64_t v[4] = {k0 ^ 0x736f6d6570736575ull, k1 ^ 0x646f72616e646f6dull, k0 ^ 0x6c7967656e657261ull,
                   k1 ^ 0x7465646279746573ull};
  size_t whole = len - len % 8;
  for (size_t i = 0; i < whole; i += 8) {
    uint64_t m = le64(in + i);
    v[3] ^= m;
    sipround(v), sipround(v);
    v[0] ^= m;
  }
  uint64_t last = (uint64_t)(len & 0xff) << 56; /* the length's low byte, then the bytes left */
  for (size_t i = 0; i < len % 8; i++) last |= (uint64_t)in[whole + i] << (8 * i);
  v[3] ^= last;
  sipround(v), sipround(v);
  v[0] ^= last;
  v[2] ^= 0xff;
  sipround(v), sipround(v), sipround(v), sipround(v);
  return v[0] ^ v[1] ^ v[2] ^ v[3];
}
