/*
 * siphash.h - SipHash-2-4 (Aumasson and Bernstein, 2012): a keyed hash of 64 bits, used as a
 * message authentication code where pilfer hands another program text that must come back
 * unaltered (bots/sample.h). The key is 16 bytes; the result is the reference's, read as a
 * little-endian number (tests/test_core.c checks the reference vectors).
 */
#ifndef PF_SIPHASH_H
#define PF_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

#define PF_SIPHASH_KEY 16

uint64_t pf_siphash24(const uint8_t key[PF_SIPHASH_KEY], const void *data, size_t len);

#endif
