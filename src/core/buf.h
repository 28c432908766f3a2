/*
 * buf.h - growable text buffers. It brings errors (core/error.h) and allocation (core/mem.h)
 * along, which nearly every user of a buffer needs too.
 */
#ifndef PF_BUF_H
#define PF_BUF_H

#include <stdarg.h>
#include <stddef.h>

#include "core/error.h"
#include "core/mem.h"

/* ---- a growable NUL-terminated text buffer; {0} is an empty buffer ---- */
typedef struct pf_buf {
  char *data; /* NULL until the first append; owned by the buffer */
  size_t len, cap;
} pf_buf;

void pf_buf_puts(pf_buf *b, const char *s);
void pf_buf_putc(pf_buf *b, char c);
void pf_buf_printf(pf_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pf_buf_vprintf(pf_buf *b, const char *fmt, va_list ap);
/* Appends item i (from 0) of a list written "a, b, c": ", " unless i is 0, then fmt's text. The
 * one way a list is joined for a message: `for (...) pf_buf_join_item(&b, i, "%s", name[i]);`. */
void pf_buf_join_item(pf_buf *b, size_t i, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void pf_buf_append(pf_buf *b, const void *data, size_t n); /* may hold NUL bytes */
/* Appends a whole file ("-" is standard input); the message names the path. */
int pf_buf_read_file(pf_buf *b, const char *path, pf_error *err);
const char *pf_buf_str(const pf_buf *b); /* "" when empty; valid until the next append */
void pf_buf_reserve(pf_buf *b, size_t n); /* room for n more bytes at once (data is then set) */
void pf_buf_clear(pf_buf *b);            /* keeps the memory */
void pf_buf_free(pf_buf *b);

/* snprintf and vsnprintf, the same text and result, faster for the formats of %s, %.*s, %c and
 * the integers' %d, %i and %u (with l, ll or z) without flags or widths; any other format goes to
 * vsnprintf as it is. */
int pf_snprintf(char *out, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int pf_vsnprintf(char *out, size_t cap, const char *fmt, va_list ap);

#endif
