/*
 * buf.h - growable text buffers, errors for people, and the one place that handles out-of-memory.
 */
#ifndef PF_BUF_H
#define PF_BUF_H

#include <stdarg.h>
#include <stddef.h>

/* ---- memory: every allocation of pilfer goes through these; out-of-memory aborts here ---- */
void *pf_xmalloc(size_t n);
void *pf_xcalloc(size_t count, size_t n);
void *pf_xrealloc(void *p, size_t n);
char *pf_xstrdup(const char *s);

struct pf_error;

/* ---- a growable NUL-terminated text buffer; {0} is an empty buffer ---- */
typedef struct pf_buf {
  char *data; /* NULL until the first append; owned by the buffer */
  size_t len, cap;
} pf_buf;

void pf_buf_puts(pf_buf *b, const char *s);
void pf_buf_putc(pf_buf *b, char c);
void pf_buf_printf(pf_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pf_buf_vprintf(pf_buf *b, const char *fmt, va_list ap);
void pf_buf_append(pf_buf *b, const void *data, size_t n); /* may hold NUL bytes */
/* Appends a whole file ("-" is standard input); the message names the path. */
int pf_buf_read_file(pf_buf *b, const char *path, struct pf_error *err);
const char *pf_buf_str(const pf_buf *b); /* "" when empty; valid until the next append */
void pf_buf_reserve(pf_buf *b, size_t n); /* room for n more bytes at once (data is then set) */
void pf_buf_clear(pf_buf *b);            /* keeps the memory */
void pf_buf_free(pf_buf *b);

/* ---- errors: a message for the person, set where the problem is found ---- */
typedef struct pf_error {
  char msg[512];
} pf_error;

/* Sets the message (if err is not NULL) and returns -1, so that `return pf_fail(err, ...)` reads
 * naturally. */
int pf_fail(pf_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Puts "prefix: " before the message already in err. */
void pf_error_prefix(pf_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
