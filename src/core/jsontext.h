/*
 * jsontext.h - a JSON value as compact text, fast: byte for byte what json_dumps(v, JSON_COMPACT)
 * writes (keys in insertion order, non-ASCII as UTF-8), in a fraction of its time. The server
 * writes every state message with it; jansson's own writer took a third of the server's time.
 */
#ifndef PF_JSONTEXT_H
#define PF_JSONTEXT_H

#include <jansson.h>

#include "core/buf.h"

/* Appends v as compact JSON text to b; -1 when it cannot be written (a string that is not
 * UTF-8, a real that is not finite, a value nested too deep), b's new text then being partial. */
int pf_json_write(pf_buf *b, const json_t *v);
/* v as compact JSON text (caller frees), or NULL when it cannot be written. */
char *pf_json_text(const json_t *v);
/* The pieces, for text written without building the value: a string of n bytes (-1 when it is
 * not UTF-8), an integer, and a value that is taken (decref'd) once written. */
int pf_json_write_string(pf_buf *b, const char *s, size_t n);
void pf_json_write_int(pf_buf *b, long long v);
int pf_json_write_new(pf_buf *b, json_t *v);

/* Makes s valid UTF-8 in place: every byte that does not begin a well-formed character (a cut
 * one, an overlong form, a surrogate) becomes '?'. For text copied from a client, cut to fit. */
void pf_utf8_clean(char *s);

/* Gives jansson a per-thread cache of the small blocks it frees, in front of malloc: building a
 * view allocates and frees hundreds of them, and malloc's own per-thread cache holds only 7 of
 * a size. The blocks are malloc's (free() may take any of them). Call before any thread but the
 * caller uses jansson; without effect under AddressSanitizer, which must see every free. */
void pf_json_cache_blocks(void);
/* Between begin and end, the jansson values the calling thread makes are cut from an arena of
 * its own, and taken back at once (with pf_json_cache_blocks; without effect otherwise): for a
 * piece of work that makes and frees many values, as a state message does. Every value made in
 * between must be freed (decref'd) by the end; values made before may be used and freed. */
void pf_json_arena_begin(void);
void pf_json_arena_end(void);
/* Writes v as pf_json_write does and lets it go: a value that it and everything in it were made
 * in the calling thread's arena (and nothing else refers to) is left for the arena's end to take
 * back, without the walk of every value that freeing it is; any other is decref'd. */
int pf_json_write_arena(pf_buf *b, json_t *v);

#endif
