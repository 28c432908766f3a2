/*
 * mem.c - allocation: the one place that handles out-of-memory.
 */
#include "core/mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(size_t n) {
  fprintf(stderr, "pilfer: out of memory (asked for %zu bytes)\n", n);
  abort();
}

void *pf_xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) out_of_memory(n);
  return p;
}

void *pf_xcalloc(size_t count, size_t n) {
  void *p = calloc(count ? count : 1, n ? n : 1);
  if (!p) out_of_memory(count * n);
  return p;
}

void *pf_xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) out_of_memory(n);
  return q;
}

char *pf_xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(pf_xmalloc(n), s, n);
}
