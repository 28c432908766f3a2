/*
 * buf.c - growable text buffers.
 */
#include "core/buf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Makes room for `extra` more bytes plus the terminating NUL. */
static void reserve(pf_buf *b, size_t extra) {
  if (b->len + extra + 1 <= b->cap) return;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->len + extra + 1) cap *= 2;
  b->data = pf_xrealloc(b->data, cap);
  b->cap = cap;
}

void pf_buf_reserve(pf_buf *b, size_t n) {
  reserve(b, n);
  b->data[b->len] = '\0';
}

void pf_buf_puts(pf_buf *b, const char *s) {
  size_t n = strlen(s);
  reserve(b, n);
  memcpy(b->data + b->len, s, n + 1);
  b->len += n;
}

void pf_buf_append(pf_buf *b, const void *data, size_t n) {
  reserve(b, n);
  memcpy(b->data + b->len, data, n);
  b->len += n;
  b->data[b->len] = '\0';
}

int pf_buf_read_file(pf_buf *b, const char *path, pf_error *err) {
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (!f) return pf_fail(err, "%s: cannot open: %s", path, strerror(errno));
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) pf_buf_append(b, chunk, n);
  int bad = ferror(f);
  if (f != stdin) fclose(f);
  return bad ? pf_fail(err, "%s: cannot read", path) : 0;
}

void pf_buf_putc(pf_buf *b, char c) {
  reserve(b, 1);
  b->data[b->len++] = c;
  b->data[b->len] = '\0';
}

/* Formats into the room there is, and only when the text does not fit there formats it again
 * once room is made: most texts fit, and formatting twice (once to measure) was a tenth of the
 * server's time building states. */
void pf_buf_vprintf(pf_buf *b, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  reserve(b, 32);
  size_t room = b->cap - b->len;
  int n = vsnprintf(b->data + b->len, room, fmt, ap2);
  va_end(ap2);
  if (n > 0 && (size_t)n >= room) {
    reserve(b, (size_t)n);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  }
  if (n > 0) b->len += (size_t)n;
  b->data[b->len] = '\0';
}

void pf_buf_printf(pf_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  pf_buf_vprintf(b, fmt, ap);
  va_end(ap);
}

const char *pf_buf_str(const pf_buf *b) { return b->data ? b->data : ""; }

void pf_buf_clear(pf_buf *b) {
  b->len = 0;
  if (b->data) b->data[0] = '\0';
}

void pf_buf_free(pf_buf *b) {
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}
