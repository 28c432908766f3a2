/*
 * buf.c - growable text buffers.
 */
#include "core/buf.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
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

/* ---- pf_vsnprintf: vsnprintf, with the formats the engine writes most done here ----
 * The views, descriptions and move texts are made of short formats of %s and %d: glibc's
 * vsnprintf sets up a FILE for each, which cost more than the text (a quarter of the server's
 * time building states went to it). The conversions below, with no flag, width or precision
 * (but %.*s), are written here as glibc writes them; a format with anything else is handed to
 * vsnprintf whole. */

/* What fits of src[0..n) at out[*len..cap), *len counting all of it, as snprintf counts. */
static inline void fmt_put(char *out, size_t cap, size_t *len, const char *src, size_t n) {
  if (*len < cap) memcpy(out + *len, src, n < cap - *len ? n : cap - *len);
  *len += n;
}

static inline void fmt_uint(char *out, size_t cap, size_t *len, unsigned long long u, bool neg) {
  char digits[24], *p = digits + sizeof digits;
  do *--p = (char)('0' + u % 10); while (u /= 10);
  if (neg) *--p = '-';
  fmt_put(out, cap, len, p, (size_t)(digits + sizeof digits - p));
}

static inline void fmt_int(char *out, size_t cap, size_t *len, long long v) {
  fmt_uint(out, cap, len, v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v, v < 0);
}

/* The text's length, or -1 (ap partly read) when fmt has a conversion not done here. */
static long long fmt_fast(char *out, size_t cap, const char *fmt, va_list ap) {
  size_t len = 0;
  for (const char *f = fmt;;) {
    const char *pc = strchr(f, '%');
    if (!pc) {
      fmt_put(out, cap, &len, f, strlen(f));
      break;
    }
    fmt_put(out, cap, &len, f, (size_t)(pc - f));
    f = pc + 1;
    int lng = 0, prec = -1;
    if (f[0] == '.' && f[1] == '*' && f[2] == 's') {
      prec = va_arg(ap, int);
      f += 2;
    }
    while (*f == 'l' && lng < 2) lng++, f++;
    if (*f == 'z') lng = 3, f++;
    switch (*f++) {
    case '%':
      if (lng || prec >= 0 || f - pc != 2) return -1;
      fmt_put(out, cap, &len, "%", 1);
      break;
    case 's': {
      const char *s = va_arg(ap, const char *);
      if (lng || !s) return -1; /* glibc's "(null)" is left to it */
      size_t n = prec < 0 ? strlen(s) : strnlen(s, (size_t)prec);
      fmt_put(out, cap, &len, s, n);
      break;
    }
    case 'c': {
      if (lng) return -1;
      char c = (char)va_arg(ap, int);
      fmt_put(out, cap, &len, &c, 1);
      break;
    }
    case 'd':
    case 'i':
      if (lng == 0) fmt_int(out, cap, &len, va_arg(ap, int));
      else if (lng == 1) fmt_int(out, cap, &len, va_arg(ap, long));
      else if (lng == 2) fmt_int(out, cap, &len, va_arg(ap, long long));
      else fmt_int(out, cap, &len, (long long)va_arg(ap, ptrdiff_t)); /* %zd: ssize_t */
      break;
    case 'u':
      if (lng == 0) fmt_uint(out, cap, &len, va_arg(ap, unsigned), false);
      else if (lng == 1) fmt_uint(out, cap, &len, va_arg(ap, unsigned long), false);
      else if (lng == 2) fmt_uint(out, cap, &len, va_arg(ap, unsigned long long), false);
      else fmt_uint(out, cap, &len, va_arg(ap, size_t), false);
      break;
    default: return -1;
    }
    if (prec >= 0 && f[-1] != 's') return -1;
  }
  if (cap) out[len < cap ? len : cap - 1] = '\0';
  return (long long)len;
}

int pf_vsnprintf(char *out, size_t cap, const char *fmt, va_list ap) {
  va_list aq;
  va_copy(aq, ap);
  long long n = fmt_fast(out, cap, fmt, aq);
  va_end(aq);
  if (n < 0 || n > INT_MAX) return vsnprintf(out, cap, fmt, ap);
  return (int)n;
}

int pf_snprintf(char *out, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = pf_vsnprintf(out, cap, fmt, ap);
  va_end(ap);
  return n;
}

/* Formats into the room there is, and only when the text does not fit there formats it again
 * once room is made: most texts fit, and formatting twice (once to measure) was a tenth of the
 * server's time building states. */
void pf_buf_vprintf(pf_buf *b, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  reserve(b, 32);
  size_t room = b->cap - b->len;
  int n = pf_vsnprintf(b->data + b->len, room, fmt, ap2);
  va_end(ap2);
  if (n > 0 && (size_t)n >= room) {
    reserve(b, (size_t)n);
    pf_vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
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

void pf_buf_join_item(pf_buf *b, size_t i, const char *fmt, ...) {
  if (i) pf_buf_puts(b, ", ");
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
