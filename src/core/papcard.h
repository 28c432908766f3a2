/*
 * papcard.h - Point-a-Pile's generated cards: their codes, fields and notation (RULINGS G-8,
 * PAP-1; rules/point-a-pile-cards.md).
 *
 * A Point-a-Pile card is a pf_card from PF_PAP_BASE up. Its 16 bits hold
 *     1 . cc tttt ccc bbb aaa       (bit 15 set, bit 14 zero)
 * colour (2 bits), type (4 bits) and three parameter fields: a and b (3 bits each) and c (2 bits).
 * What the fields mean depends on the type:
 *
 *   type       notation   fields                             value (against the owner's row)
 *   COLOR      R          -                                  0 (the only textless type)
 *   SCORE      R:S+       a: 0 for +1, 1 for -1 (S)           S
 *   MATCH      R:M+G      a: sign of W, c: colour C           W for every card of colour C
 *   DIFF       R:D4       a: X (3-5)                          X if the row has all 4 colours
 *   GROUP      R:G34      a: X, b: Y (2-5, X != Y)            X if some colour has Y cards
 *   SPECIFIC   R:C25B     a: X, b: Y (2-5, X != Y), c: C      X if the row has Y cards of colour C
 *   NUMCARDS   R:N46      a: X (2-5), b: H (5-6)              X if the row has H cards
 *   EMPTY      R:E+       a: sign of W                        W for every textless card
 *   LAST       R:L+       a: sign of W                        W while it is the row's last card
 *   HEAD       R:H+       a: sign of S                        S while its owner is Headpointer
 *
 * The colour letter comes first: R red, G green, B blue, P purple; then, for a card with text, a
 * colon, the type letter and the parameters (signs + and -, digits, colour letters). Input is
 * read in any case. Codes from PF_PAP_BASE that are not a valid card are written "#<code>".
 * The expansions' types (issue 7) take the numbers after HEAD.
 */
#ifndef PF_PAPCARD_H
#define PF_PAPCARD_H

#include <stdbool.h>

#include "core/card.h"

#define PF_PAP_BASE 0x8000

enum { PF_PAP_RED, PF_PAP_GREEN, PF_PAP_BLUE, PF_PAP_PURPLE, PF_PAP_COLOURS };

enum {
  PF_PAP_COLOR,
  PF_PAP_SCORE,
  PF_PAP_MATCH,
  PF_PAP_DIFF,
  PF_PAP_GROUP,
  PF_PAP_SPECIFIC,
  PF_PAP_NUMCARDS,
  PF_PAP_EMPTY,
  PF_PAP_LAST,
  PF_PAP_HEAD,
  PF_PAP_TYPES
};

static inline pf_card pf_pap_make(int colour, int type, int a, int b, int c) {
  return (pf_card)(PF_PAP_BASE | colour << 12 | type << 8 | c << 6 | b << 3 | a);
}
static inline int pf_pap_colour(pf_card c) { return (c >> 12) & 3; }
static inline int pf_pap_type(pf_card c) { return (c >> 8) & 15; }
static inline int pf_pap_a(pf_card c) { return c & 7; }
static inline int pf_pap_b(pf_card c) { return (c >> 3) & 7; }
static inline int pf_pap_c(pf_card c) { return (c >> 6) & 3; }
/* The sign field a as +1 or -1 (SCORE, MATCH, EMPTY, LAST, HEAD). */
static inline int pf_pap_sign(pf_card c) { return pf_pap_a(c) ? -1 : 1; }

/* A valid Point-a-Pile card: in range, with its type's fields in their ranges and the unused ones
 * zero. */
bool pf_pap_valid(pf_card c);
/* The notation of a valid card into buf (PF_CARD_STR bytes); returns buf. */
char *pf_pap_str(pf_card c, char *buf);
/* Reads a card in the notation at *p, advances past it and returns 0; -1 (and *p unchanged) when
 * there is none. */
int pf_pap_scan(const char **p, pf_card *out);
/* The colour's name ("red") and its letter ('R'). */
const char *pf_pap_colour_name(int colour);
char pf_pap_colour_letter(int colour);

#endif
