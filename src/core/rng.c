/*
 * rng.c - xoshiro256** seeded by SplitMix64 (the generator itself is inline in rng.h); see rng.h for
 * the specified stream.
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

/* The generator's state is a local here: a store through a (bytes may alias anything) would
 * otherwise make every draw reload it from *r and store it back. */
void pf_shuffle(pf_rng *r, uint8_t *a, size_t n) {
  pf_rng x = *r;
  for (size_t i = n; i > 1; i--) {
    size_t j = pf_rng_below(&x, (uint32_t)i);
    uint8_t t = a[i - 1];
    a[i - 1] = a[j];
    a[j] = t;
  }
  *r = x;
}

void pf_shuffle16(pf_rng *r, uint16_t *a, size_t n) {
  for (size_t i = n; i > 1; i--) {
    size_t j = pf_rng_below(r, (uint32_t)i);
    uint16_t t = a[i - 1];
    a[i - 1] = a[j];
    a[j] = t;
  }
}
