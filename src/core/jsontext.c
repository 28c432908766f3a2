/*
 * jsontext.c - JSON text (jsontext.h).
 *
 * jansson's writer goes through a callback for every token, prints every integer with snprintf
 * and looks at strings one code point at a time. This one copies each run of bytes that needs no
 * escape at once and prints integers by hand; what it writes is json_dumps's text exactly
 * (tests/test_core.c compares the two): compact as it is written, indented and ASCII-only after
 * pf_jw_format, reals as jansson's jsonp_dtostr prints them. Strings are checked to be UTF-8 as
 * jansson checks them, so that a value jansson would refuse is refused here too.
 */
#include "core/jsontext.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 2048 /* jansson's JSON_PARSER_DEFAULT_MAX_DEPTH: deeper is refused */

/* pf_buf_putc without a call while there is room (most of the time). */
static inline void put(pf_buf *b, char c) {
  if (b->len + 2 <= b->cap) {
    b->data[b->len++] = c;
    b->data[b->len] = '\0';
  } else {
    pf_buf_putc(b, c);
  }
}

#define PUT_LITERAL(b, lit) append((b), lit, sizeof lit - 1)

/* The length of the UTF-8 sequence at s (n bytes left), or 0 when it is not valid UTF-8 (as
 * jansson's utf8_check_first and utf8_check_full judge: no overlong forms, no surrogates,
 * nothing past U+10FFFF). */
static size_t utf8_len(const unsigned char *s, size_t n) {
  unsigned c = s[0];
  size_t len;
  uint32_t cp;
  if (c >= 0xC2 && c <= 0xDF)
    len = 2, cp = c & 0x1F;
  else if (c >= 0xE0 && c <= 0xEF)
    len = 3, cp = c & 0x0F;
  else if (c >= 0xF0 && c <= 0xF4)
    len = 4, cp = c & 0x07;
  else
    return 0;
  if (len > n) return 0;
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (s[i] & 0x3F);
  }
  if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

/* Appends n bytes, without a call while there is room. */
static inline void append(pf_buf *b, const void *p, size_t n) {
  if (b->len + n + 1 <= b->cap) {
    memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
  } else {
    pf_buf_append(b, p, n);
  }
}

/* Whether byte c goes into a JSON string as it is: printable ASCII but the quote and backslash. */
static inline bool plain_byte(unsigned c) { return c - 0x20u < 0x60u && c != '"' && c != '\\'; }

/* The escapes and UTF-8 checks of a string from s[i] on, its plain bytes before i being written. */
static int write_string_rest(pf_buf *b, const unsigned char *s, size_t i, size_t n) {
  static const char HEX[] = "0123456789ABCDEF";
  size_t run = i; /* s[run..i) needs no escape */
  while (i < n) {
    unsigned c = s[i];
    if (c < 0x80 && plain_byte(c)) {
      i++;
      continue;
    }
    if (c >= 0x80) {
      size_t len = utf8_len(s + i, n - i);
      if (!len) return -1;
      i += len;
      continue;
    }
    append(b, s + run, i - run);
    char esc[7] = {'\\', 0};
    switch (c) {
    case '"': esc[1] = '"'; break;
    case '\\': esc[1] = '\\'; break;
    case '\b': esc[1] = 'b'; break;
    case '\f': esc[1] = 'f'; break;
    case '\n': esc[1] = 'n'; break;
    case '\r': esc[1] = 'r'; break;
    case '\t': esc[1] = 't'; break;
    default: memcpy(esc + 1, "u00", 3), esc[4] = HEX[c >> 4], esc[5] = HEX[c & 15]; break;
    }
    append(b, esc, esc[1] == 'u' ? 6 : 2);
    run = ++i;
  }
  append(b, s + run, n - run);
  put(b, '"');
  return 0;
}

/* Most strings of a state are short and plain ASCII (ids, labels, moves): they are copied as
 * they are scanned, into room made once; the others go on in write_string_rest. */
int pf_json_write_string(pf_buf *b, const char *str, size_t n) {
  const unsigned char *s = (const unsigned char *)str;
  if (b->len + n + 3 > b->cap) pf_buf_reserve(b, n + 2);
  char *o = b->data + b->len;
  *o++ = '"';
  size_t i = 0;
  while (i < n && plain_byte(s[i])) o[i] = (char)s[i], i++;
  b->len += 1 + i;
  if (i < n) return write_string_rest(b, s, i, n);
  o[i] = '"';
  o[i + 1] = '\0';
  b->len++;
  return 0;
}

void pf_json_write_int(pf_buf *b, long long v) {
  char digits[24], *p = digits + sizeof digits;
  unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
  do *--p = (char)('0' + u % 10); while (u /= 10);
  if (v < 0) *--p = '-';
  append(b, p, (size_t)(digits + sizeof digits - p));
}

/* ---- pf_jw ---- */

static inline void jw_sep(pf_jw *w) {
  if (w->comma) put(w->b, ',');
}

void pf_jw_key(pf_jw *w, const char *key) {
  size_t n = strlen(key);
  jw_sep(w);
  if (w->b->len + n + 4 > w->b->cap) pf_buf_reserve(w->b, n + 3);
  char *o = w->b->data + w->b->len;
  o[0] = '"';
  memcpy(o + 1, key, n);
  o[n + 1] = '"', o[n + 2] = ':', o[n + 3] = '\0';
  w->b->len += n + 3;
  w->comma = false;
}

void pf_jw_int(pf_jw *w, long long v) {
  jw_sep(w);
  pf_json_write_int(w->b, v);
  w->comma = true;
}

void pf_jw_strn(pf_jw *w, const char *s, size_t n) {
  jw_sep(w);
  w->rc |= pf_json_write_string(w->b, s, n);
  w->comma = true;
}

void pf_jw_str(pf_jw *w, const char *s) { pf_jw_strn(w, s, strlen(s)); }

void pf_jw_bool(pf_jw *w, bool v) {
  jw_sep(w);
  if (v)
    PUT_LITERAL(w->b, "true");
  else
    PUT_LITERAL(w->b, "false");
  w->comma = true;
}

void pf_jw_null(pf_jw *w) {
  jw_sep(w);
  PUT_LITERAL(w->b, "null");
  w->comma = true;
}

void pf_jw_open(pf_jw *w, char c) {
  jw_sep(w);
  put(w->b, c);
  w->comma = false;
}

void pf_jw_close(pf_jw *w, char c) {
  put(w->b, c);
  w->comma = true;
}

void pf_jw_ints(pf_jw *w, const int *v, int n) {
  pf_jw_open(w, '[');
  for (int i = 0; i < n; i++) pf_jw_int(w, v[i]);
  pf_jw_close(w, ']');
}

void pf_jw_llongs(pf_jw *w, const long long *v, int n) {
  pf_jw_open(w, '[');
  for (int i = 0; i < n; i++) pf_jw_int(w, v[i]);
  pf_jw_close(w, ']');
}

void pf_jw_key_int(pf_jw *w, const char *key, long long v) {
  pf_jw_key(w, key);
  pf_jw_int(w, v);
}

void pf_jw_key_str(pf_jw *w, const char *key, const char *s) {
  pf_jw_key(w, key);
  pf_jw_str(w, s);
}

/* jansson's jsonp_dtostr at its default precision, 17. */
static int write_real(pf_buf *b, double v) {
  if (!isfinite(v)) return -1;
  char t[40];
  int n = snprintf(t, sizeof t, "%.17g", v);
  if (n <= 0 || n >= (int)sizeof t - 2) return -1;
  char *e = strchr(t, 'e');
  if (!e && !strchr(t, '.')) {
    t[n++] = '.', t[n++] = '0', t[n] = '\0';
  } else if (e) { /* "1e+20" -> "1e20", "1e-05" -> "1e-5" */
    char *start = e + 1, *end = e + 2;
    if (*start == '-') start++;
    while (*end == '0') end++;
    if (end != start) {
      memmove(start, end, (size_t)(t + n + 1 - end));
      n -= (int)(end - start);
    }
  }
  append(b, t, (size_t)n);
  return 0;
}

void pf_jw_real(pf_jw *w, double v) {
  jw_sep(w);
  if (write_real(w->b, v) != 0) {
    w->rc = -1;
    PUT_LITERAL(w->b, "null");
  }
  w->comma = true;
}

void pf_jw_key_real(pf_jw *w, const char *key, double v) {
  pf_jw_key(w, key);
  pf_jw_real(w, v);
}

static int write_value(pf_buf *b, const json_t *v, int depth) {
  if (depth > MAX_DEPTH) return -1;
  switch (json_typeof(v)) {
  case JSON_OBJECT: {
    put(b, '{');
    bool first = true;
    for (void *it = json_object_iter((json_t *)v); it; it = json_object_iter_next((json_t *)v, it)) {
      if (!first) put(b, ',');
      first = false;
      if (pf_json_write_string(b, json_object_iter_key(it), json_object_iter_key_len(it)) != 0) return -1;
      put(b, ':');
      if (write_value(b, json_object_iter_value(it), depth + 1) != 0) return -1;
    }
    put(b, '}');
    return 0;
  }
  case JSON_ARRAY: {
    put(b, '[');
    for (size_t i = 0, n = json_array_size(v); i < n; i++) {
      if (i) put(b, ',');
      if (write_value(b, json_array_get(v, i), depth + 1) != 0) return -1;
    }
    put(b, ']');
    return 0;
  }
  case JSON_STRING: return pf_json_write_string(b, json_string_value(v), json_string_length(v));
  case JSON_INTEGER: pf_json_write_int(b, json_integer_value(v)); return 0;
  case JSON_REAL: return write_real(b, json_real_value(v));
  case JSON_TRUE: PUT_LITERAL(b, "true"); return 0;
  case JSON_FALSE: PUT_LITERAL(b, "false"); return 0;
  case JSON_NULL: PUT_LITERAL(b, "null"); return 0;
  }
  return -1;
}

void pf_jw_value(pf_jw *w, const json_t *v) {
  jw_sep(w);
  w->rc |= v ? write_value(w->b, v, 0) : -1;
  w->comma = true;
}

char *pf_jw_dumps(const json_t *v, int indent, bool ascii) {
  pf_buf b = {0};
  pf_buf_reserve(&b, 4096); /* a state message's size: few reallocations */
  pf_jw w = {.b = &b};
  if (v)
    pf_jw_value(&w, v);
  else
    w.rc = -1;
  if (w.rc != 0) {
    pf_buf_free(&b);
    return NULL;
  }
  pf_jw_format(&b, 0, indent, ascii);
  return b.data;
}

/* ---- indented and ASCII text (pf_jw_format) ---- */

static void put_spaces(pf_buf *b, size_t n) {
  static const char SP[] = "                                ";
  for (; n > 32; n -= 32) append(b, SP, 32);
  append(b, SP, n);
}

/* A newline and the indent of `depth` levels, as jansson's dump_indent. */
static void newline(pf_buf *b, int indent, int depth) {
  put(b, '\n');
  put_spaces(b, (size_t)indent * (size_t)depth);
}

static void put_u(pf_buf *b, unsigned cp) {
  char t[8];
  snprintf(t, sizeof t, "\\u%04X", cp);
  append(b, t, 6);
}

void pf_jw_format(pf_buf *b, size_t from, int indent, bool ascii) {
  if (indent <= 0 && !ascii) return;
  if (from >= b->len) return;
  pf_buf out = {0};
  pf_buf_reserve(&out, (b->len - from) * 2 + 16);
  const unsigned char *s = (const unsigned char *)b->data + from, *end = (const unsigned char *)b->data + b->len;
  int depth = 0;
  while (s < end) {
    unsigned c = *s;
    if (c == '"') { /* a string: as it is, but for its characters past U+007F with ascii */
      const unsigned char *run = s++;
      while (s < end && *s != '"') {
        if (*s == '\\') {
          s += 2;
        } else if (*s >= 0x80 && ascii) {
          append(&out, run, (size_t)(s - run));
          size_t len = utf8_len(s, (size_t)(end - s));
          if (!len) len = 1; /* pf_jw writes none: kept as it is */
          unsigned cp = len == 1 ? *s : len == 2 ? *s & 0x1Fu : len == 3 ? *s & 0x0Fu : *s & 0x07u;
          for (size_t i = 1; i < len; i++) cp = (cp << 6) | (s[i] & 0x3Fu);
          if (cp >= 0x10000) {
            cp -= 0x10000;
            put_u(&out, 0xD800 | ((cp & 0xFFC00) >> 10));
            put_u(&out, 0xDC00 | (cp & 0x3FF));
          } else {
            put_u(&out, cp);
          }
          s += len;
          run = s;
        } else {
          s++;
        }
      }
      if (s < end) s++;
      append(&out, run, (size_t)(s - run));
      continue;
    }
    s++;
    if (indent <= 0) {
      put(&out, (char)c);
    } else if (c == '{' || c == '[') {
      put(&out, (char)c);
      if (s < end && (*s == '}' || *s == ']')) {
        put(&out, (char)*s++);
      } else {
        newline(&out, indent, ++depth);
      }
    } else if (c == '}' || c == ']') {
      newline(&out, indent, --depth);
      put(&out, (char)c);
    } else if (c == ',') {
      put(&out, ',');
      newline(&out, indent, depth);
    } else if (c == ':') {
      append(&out, ": ", 2);
    } else {
      put(&out, (char)c);
    }
  }
  b->len = from;
  append(b, out.data, out.len);
  pf_buf_free(&out);
}

size_t pf_utf8_len(const char *s, size_t n) {
  const unsigned char *u = (const unsigned char *)s;
  return n == 0 ? 0 : u[0] < 0x80 ? 1 : utf8_len(u, n);
}

void pf_utf8_clean(char *s) {
  unsigned char *p = (unsigned char *)s;
  while (*p) {
    int n = *p < 0x80 ? 1 : (*p & 0xE0) == 0xC0 && *p >= 0xC2 ? 2 : (*p & 0xF0) == 0xE0 ? 3
            : (*p & 0xF8) == 0xF0 && *p <= 0xF4 ? 4 : 0;
    bool ok = n > 0;
    for (int k = 1; ok && k < n; k++) ok = (p[k] & 0xC0) == 0x80;
    if (ok && n == 3) ok = !(p[0] == 0xE0 && p[1] < 0xA0) && !(p[0] == 0xED && p[1] >= 0xA0);
    if (ok && n == 4) ok = !(p[0] == 0xF0 && p[1] < 0x90) && !(p[0] == 0xF4 && p[1] >= 0x90);
    if (!ok) *p++ = '?';
    else p += n;
  }
}

json_t *pf_jw_load(pf_jw *w) {
  json_t *j = w->rc ? NULL : json_loadb(w->b->data, w->b->len, 0, NULL);
  pf_buf_free(w->b);
  return j;
}
