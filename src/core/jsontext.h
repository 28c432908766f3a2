/*
 * jsontext.h - the one writer of the JSON pilfer sends and prints (jansson only reads): text
 * written as it is made, fast, byte for byte what json_dumps writes of the same values (keys in
 * insertion order, non-ASCII as UTF-8; indented or ASCII-only through pf_jw_format). The server
 * writes every state message with it; jansson's own writer took a third of the server's time.
 */
#ifndef PF_JSONTEXT_H
#define PF_JSONTEXT_H

#include <jansson.h>
#include <stdbool.h>

#include "core/buf.h"

/* The pieces pf_jw writes with, for text written by hand where a view is hot: a string of n
 * bytes (-1 when it is not UTF-8) and an integer. */
int pf_json_write_string(pf_buf *b, const char *s, size_t n);
void pf_json_write_int(pf_buf *b, long long v);

/* ---- JSON text written as it is made (pf_jw): the views, without building jansson values ----
 * A writer appends to its buffer and puts the commas itself: a key or a value that follows
 * another in the same object or array is preceded by one. Its text is what json_dumps would
 * write of the jansson values made in the same order (keys in insertion order). rc becomes -1 at a string that is not UTF-8. */
#define PF_JW_ZONE_CARDS 128 /* PF_MAX_DEAL: no zone holds more cards than a deal */

/* Where the zone writer (core/view.h) hands each zone, instead of writing it as text, when a
 * writer has one: its kind, owner (-1 for none), layout (pf_layout) and cards, bottom first
 * (PF_CARD_NONE where the viewer does not see one), at pf_zone_close. For code that reads the
 * zones of a view without its text (Python's tensors): the zones' text, ids, labels, values and
 * notes are then not written at all. */
typedef struct pf_zone_sink {
  void (*zone)(struct pf_zone_sink *sink, const char *kind, int owner, int layout, const unsigned short *cards,
               int n);
} pf_zone_sink;

typedef struct pf_jw {
  pf_buf *b;
  int rc;
  bool comma; /* a value was written last: the next key or element needs a ',' */
  /* What the view's writer (core/game.c) keeps: */
  const struct pf_card_notation *own; /* the game's cards' notation (NULL: the core's) */
  bool texts;      /* its cards have texts: each zone has its cards' "texts" */
  bool zones;      /* the view's "zones" array is open (pf_zone_open): nothing but zones may follow */
  bool zone_cards; /* a zone's "cards" array is open: its layout is still to be written */
  int layout;      /* that zone's pf_layout */
  int ncards;      /* with texts or a sink: the zone's cards so far (PF_CARD_NONE where unseen) */
  unsigned short cards[PF_JW_ZONE_CARDS];
  pf_zone_sink *sink; /* not NULL: the zones go there, and not into the text unless sink_text */
  bool sink_text;
  const char *zone_kind; /* with a sink: the open zone's kind and owner */
  int zone_owner;
} pf_jw;

/* A key of an object, a literal of plain ASCII (no escape needed). */
void pf_jw_key(pf_jw *w, const char *key);
void pf_jw_int(pf_jw *w, long long v);
void pf_jw_str(pf_jw *w, const char *s);
void pf_jw_strn(pf_jw *w, const char *s, size_t n);
void pf_jw_bool(pf_jw *w, bool v);
void pf_jw_null(pf_jw *w);
/* '{' or '[' and its closing '}' or ']'. */
void pf_jw_open(pf_jw *w, char c);
void pf_jw_close(pf_jw *w, char c);
/* n integers as an array. */
void pf_jw_ints(pf_jw *w, const int *v, int n);
void pf_jw_llongs(pf_jw *w, const long long *v, int n);
/* A key and its value, the commonest pair of a view. */
void pf_jw_key_int(pf_jw *w, const char *key, long long v);
void pf_jw_key_str(pf_jw *w, const char *key, const char *s);
/* A real as jansson writes it with JSON_REAL_PRECISION(17) (its default): "%.17g", ".0" added
 * when that looks like an integer, the exponent without '+' or leading zeros ("1e20", "1e-5").
 * rc becomes -1 at a real that is not finite (jansson has none), "null" standing in for it. */
void pf_jw_real(pf_jw *w, double v);
void pf_jw_key_real(pf_jw *w, const char *key, double v);
/* A value read with jansson (input passed on), as its pieces would write it. */
void pf_jw_value(pf_jw *w, const json_t *v);

/* v's text as json_dumps writes it with JSON_COMPACT (indent 0) or JSON_INDENT(indent), and
 * JSON_ENSURE_ASCII with ascii (caller frees), or NULL when it cannot be written. For a value
 * read with jansson, or one made where text is not yet written as it goes. */
char *pf_jw_dumps(const json_t *v, int indent, bool ascii);
/* What w has written, read back as a value for code that reads it (caller owns it), or NULL
 * when it could not be written; w's buffer is freed. */
json_t *pf_jw_load(pf_jw *w);

/* Rewrites b's text from byte `from` on, compact JSON as pf_jw writes it, as json_dumps writes
 * the same value with JSON_INDENT(indent) (indent > 0; 0 leaves it compact) and, with ascii,
 * JSON_ENSURE_ASCII (every character past U+007F as \u and four hex digits, past U+FFFF as a
 * surrogate pair). For what is printed or logged, not the views: the views stay compact and UTF-8. */
void pf_jw_format(pf_buf *b, size_t from, int indent, bool ascii);

/* The length of the well-formed UTF-8 character (RFC 3629: no overlong forms, no surrogates,
 * nothing past U+10FFFF) at s, of which n bytes are there: 1 to 4, or 0 when none begins at s.
 * The one check the JSON writer and the bot protocol's lines (bots/exec.c) share. */
size_t pf_utf8_len(const char *s, size_t n);

/* Makes s valid UTF-8 in place: every byte that does not begin a well-formed character (a cut
 * one, an overlong form, a surrogate) becomes '?'. For text copied from a client, cut to fit. */
void pf_utf8_clean(char *s);

#endif
