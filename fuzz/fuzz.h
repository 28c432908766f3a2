/*
 * fuzz.h - what the libFuzzer targets share: reading the fuzzer's bytes, and failing loudly.
 *
 * A target returns quietly from any input the engine refuses with a message; it calls
 * fuzz_bug() (which aborts, so that libFuzzer keeps the input) only when the engine breaks one of
 * its own contracts. Everything here is static inline: each target is one .c file.
 */
#ifndef PF_FUZZ_H
#define PF_FUZZ_H

#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken contract: says which, and aborts so that libFuzzer saves the input as a crash. */
static inline void fuzz_bug(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static inline void fuzz_bug(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("pilfer fuzz: BUG: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  abort();
}

/* A failure must say why: the message is a non-empty string within its buffer. */
static inline void fuzz_require_message(const pf_error *err, const char *what) {
  if (memchr(err->msg, '\0', sizeof err->msg) == NULL || err->msg[0] == '\0')
    fuzz_bug("%s failed without a message", what);
}

/* The fuzzer's bytes, read from the front; past the end every byte reads as 0. */
typedef struct fuzz_input {
  const uint8_t *data;
  size_t size, pos;
} fuzz_input;

static inline uint8_t fuzz_byte(fuzz_input *in) {
  return in->pos < in->size ? in->data[in->pos++] : 0;
}

static inline uint64_t fuzz_u64(fuzz_input *in) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v = v << 8 | fuzz_byte(in);
  return v;
}

/* The bytes not read yet as a NUL-terminated string (cut at the first NUL); caller frees. */
static inline char *fuzz_rest_str(fuzz_input *in) {
  size_t n = in->pos < in->size ? in->size - in->pos : 0;
  char *s = pf_xmalloc(n + 1);
  if (n) memcpy(s, in->data + in->pos, n);
  s[n] = '\0';
  in->pos = in->size;
  return s;
}

/* Copies s into out (n bytes) with ASCII letters lower-cased (upper = false) or upper-cased. */
static inline void fuzz_ascii_case(const char *s, char *out, size_t n, int upper) {
  size_t i = 0;
  for (; s[i] && i + 1 < n; i++) {
    unsigned char c = (unsigned char)s[i];
    out[i] = (char)(c < 0x80 ? (upper ? toupper(c) : tolower(c)) : c);
  }
  out[i] = '\0';
}

#endif
