/*
 * rng.c - xoshiro256** seeded by SplitMix64; see rng.h for the specified stream.
 */
#include "core/rng.h"

uint64_t pf_splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

void pf_rng_seed(pf_rng *r, uint64_t seed, uint64_t stream) {
  uint64_t x = seed ^ (stream * 0xD1B54A32D192ED03u);
  for (int i = 0; i < 4; i++) r->s[i] = pf_splitmix64(&x);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t pf_rng_next(pf_rng *r) {
  uint64_t *s = r->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

uint32_t pf_rng_below(pf_rng *r, uint32_t n) {
  uint64_t m = (pf_rng_next(r) >> 32) * (uint64_t)n;
  uint32_t low = (uint32_t)m;
  if (low < n) {
    uint32_t threshold = (uint32_t)(-n) % n; /* 2^32 mod n */
    while (low < threshold) {
      m = (pf_rng_next(r) >> 32) * (uint64_t)n;
      low = (uint32_t)m;
    }
  }
  return (uint32_t)(m >> 32);
}

void pf_shuffle(pf_rng *r, uint8_t *a, size_t n) {
  for (size_t i = n; i > 1; i--) {
    size_t j = pf_rng_below(r, (uint32_t)i);
    uint8_t t = a[i - 1];
    a[i - 1] = a[j];
    a[j] = t;
  }
}

void pf_shuffle16(pf_rng *r, uint16_t *a, size_t n) {
  for (size_t i = n; i > 1; i--) {
    size_t j = pf_rng_below(r, (uint32_t)i);
    uint16_t t = a[i - 1];
    a[i - 1] = a[j];
    a[j] = t;
  }
}
