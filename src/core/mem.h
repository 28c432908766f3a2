/*
 * mem.h - allocation: every allocation of pilfer goes through these; out-of-memory aborts here.
 */
#ifndef PF_MEM_H
#define PF_MEM_H

#include <stddef.h>

void *pf_xmalloc(size_t n);
void *pf_xcalloc(size_t count, size_t n);
void *pf_xrealloc(void *p, size_t n);
char *pf_xstrdup(const char *s);

#endif
