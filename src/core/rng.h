/*
 * rng.h - pilfer's random number generator. Its output stream is part of the specification: the
 * same seed gives the same numbers, shuffles and games on every platform and compiler.
 *
 * The generator is xoshiro256** 1.0 (Blackman and Vigna). pf_rng_seed(r, seed, stream) fills its
 * four 64-bit words with the first four outputs of SplitMix64 started at
 *     x = seed XOR (stream * 0xD1B54A32D192ED03)      (arithmetic modulo 2^64)
 * so that (seed, stream) pairs give independent streams (deal k of a game uses stream k, see
 * game.h). pf_rng_below(r, n) takes the high 32 bits of the next output as u and returns
 * floor(u * n / 2^32), rejecting u while (u * n mod 2^32) < (2^32 mod n) (Lemire's method), so it
 * is exactly uniform. pf_shuffle is Fisher-Yates from the last element down: for i = n-1 .. 1,
 * swap a[i] with a[pf_rng_below(r, i + 1)].
 */
#ifndef PF_RNG_H
#define PF_RNG_H

#include <stddef.h>
#include <stdint.h>

typedef struct pf_rng {
  uint64_t s[4];
} pf_rng;

void pf_rng_seed(pf_rng *r, uint64_t seed, uint64_t stream);

/* Inline: every random move and shuffle draws here, a call each time would cost more than it. */
static inline uint64_t pf_rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t pf_rng_next(pf_rng *r) {
  uint64_t *s = r->s;
  uint64_t result = pf_rng_rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = pf_rng_rotl(s[3], 45);
  return result;
}

/* A uniform integer in [0, n), 1 <= n <= 2^32. */
static inline uint32_t pf_rng_below(pf_rng *r, uint32_t n) {
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
/* Shuffles n bytes (slot numbers) in place. */
void pf_shuffle(pf_rng *r, uint8_t *a, size_t n);
/* Shuffles n 16-bit values (cards) in place: the same draws and swaps as pf_shuffle. */
void pf_shuffle16(pf_rng *r, uint16_t *a, size_t n);

/* SplitMix64 step, exposed for tests of the specification. */
uint64_t pf_splitmix64(uint64_t *x);

#endif
