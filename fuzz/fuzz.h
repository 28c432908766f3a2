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
#include "core/view.h"
#include "games/registry.h"

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

static inline char *fuzz_view_all(const pf_run *r) {
  return pf_view_json_text(r->game, r->state, r->setup.players, PF_VIEW_ALL);
}

/* Two runs of the same game are in the same position with the same history. */
static inline void fuzz_require_same_run(const pf_run *a, const pf_run *b, const char *what) {
  if (a->nmoves != b->nmoves) fuzz_bug("%s: %d moves against %d", what, a->nmoves, b->nmoves);
  for (int i = 0; i < a->nmoves; i++)
    if (strcmp(a->moves[i], b->moves[i]) != 0)
      fuzz_bug("%s: move %d is '%s' against '%s'", what, i + 1, a->moves[i], b->moves[i]);
  char *va = fuzz_view_all(a), *vb = fuzz_view_all(b);
  if (strcmp(va, vb) != 0) fuzz_bug("%s: the positions differ:\n%s\n%s", what, va, vb);
  free(va);
  free(vb);
}

/* The record the engine writes of `run` reads back, replays without a refusal to the same
 * position, and its result (present when the game is over) checks out. */
static inline void fuzz_check_written_record(const pf_run *run) {
  json_t *j = pf_record_json(run);
  char *text = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
  json_decref(j);
  if (!text) fuzz_bug("pf_record_json gave JSON that cannot be written");
  pf_record rec;
  pf_error err;
  if (pf_record_parse(text, strlen(text), &rec, &err) != 0)
    fuzz_bug("the record written of a run does not read back: %s\n%s", err.msg, text);
  pf_run again;
  int failed;
  if (pf_record_replay(&rec, -1, &again, &failed, &err) != 0)
    fuzz_bug("the record written of a run does not replay: %s\n%s", err.msg, text);
  fuzz_require_same_run(run, &again, "the written record's replay");
  if (pf_record_check_result(&rec, &again, &err) != 0)
    fuzz_bug("the written record's result does not check: %s\n%s", err.msg, text);
  if (rec.has_result != (run->game->to_move(run->state) == PF_NOBODY))
    fuzz_bug("the written record %s a result but the game is %s", rec.has_result ? "has" : "lacks",
             rec.has_result ? "not over" : "over");
  pf_run_free(&again);
  pf_record_free(&rec);
  free(text);
}

#endif
