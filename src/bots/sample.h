/*
 * sample.h - a position as text for another program, sealed with a key: how the exec bot hands
 * its program determinizations for its seat (docs/botproto.md), and how `import pilfer` reads
 * them back (pilfer.State.from_sample, docs/python.md).
 *
 * The text is "pilfer-sample 1 GAME PLAYERS SIZE HEX MAC": the game's id, its players, its
 * state_size, the state's bytes in hexadecimal, and the SipHash-2-4 (core/siphash.h) under the
 * key of all that before it, in 16 hexadecimal digits. The key is 16 random bytes that one pilfer
 * process makes for its run and gives its programs (PILFER_SAMPLE_KEY, 32 hexadecimal digits).
 *
 * What reading promises: a text that was not written here under the key is refused before any
 * of its bytes reaches the game's code, since its MAC does not match; one that was is the
 * engine's own state, and the game's check runs on it once more. A program that holds the key
 * and forges with it is outside the promise (as ctypes is outside Python's). Only a position
 * whose game reads no explicit deal can be written (no deals given, or a determinization, which
 * forgets them: game.h), since the deals are outside the state.
 */
#ifndef PF_SAMPLE_H
#define PF_SAMPLE_H

#include "core/game.h"
#include "core/siphash.h"

#define PF_SAMPLE_KEY_ENV "PILFER_SAMPLE_KEY"

/* Appends the text of position st, a state of g for `players`, sealed under key, to out. */
void pf_sample_write(const pf_game *g, int players, const void *st, const uint8_t key[PF_SIPHASH_KEY], pf_buf *out);
/* Reads a text of pf_sample_write for g and `players` under key into st (state_size bytes), or
 * refuses it saying why; st is written only once the MAC has matched. */
int pf_sample_read(const pf_game *g, int players, const char *text, size_t len, const uint8_t key[PF_SIPHASH_KEY], void *st,
                   pf_error *err);
/* Reads a key as PILFER_SAMPLE_KEY gives it: 32 hexadecimal digits. */
int pf_sample_key_parse(const char *text, size_t len, uint8_t key[PF_SIPHASH_KEY], pf_error *err);

#endif
