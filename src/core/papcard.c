/*
 * papcard.c - Point-a-Pile card notation (RULINGS G-8; the table is in papcard.h).
 */
#include "core/papcard.h"

#include <ctype.h>
#include <string.h>

static const char COLOUR_LETTERS[] = "RGBP";
static const char *const COLOUR_NAMES[] = {"red", "green", "blue", "purple"};

/* One entry per type, in type order:
 *   letter  the letter after the colon (0: the textless card, written as its colour alone)
 *   fields  what follows the letter: 's' a sign (+ or -) into a, 'x' a digit into a, 'y' a digit
 *           into b, 'c' a colour letter into c
 *   a, b    the ranges of fields a and b ([0, 0] when unused); c is used only if fields has 'c'
 *   distinct  a and b must differ (drawn without replacement, point-a-pile-cards.md) */
static const struct {
  char letter;
  const char *fields;
  int amin, amax, bmin, bmax;
  bool distinct;
} TYPES[PF_PAP_TYPES] = {
    [PF_PAP_COLOR] = {0, "", 0, 0, 0, 0, false},
    [PF_PAP_SCORE] = {'S', "s", 0, 1, 0, 0, false},
    [PF_PAP_MATCH] = {'M', "sc", 0, 1, 0, 0, false},
    [PF_PAP_DIFF] = {'D', "x", 3, 5, 0, 0, false},
    [PF_PAP_GROUP] = {'G', "xy", 2, 5, 2, 5, true},
    [PF_PAP_SPECIFIC] = {'C', "xyc", 2, 5, 2, 5, true},
    [PF_PAP_NUMCARDS] = {'N', "xy", 2, 5, 5, 6, false},
    [PF_PAP_EMPTY] = {'E', "s", 0, 1, 0, 0, false},
    [PF_PAP_LAST] = {'L', "s", 0, 1, 0, 0, false},
    [PF_PAP_HEAD] = {'H', "s", 0, 1, 0, 0, false},
};

const char *pf_pap_colour_name(int colour) { return COLOUR_NAMES[colour & 3]; }
char pf_pap_colour_letter(int colour) { return COLOUR_LETTERS[colour & 3]; }

/* Type t's fields in their ranges, the unused ones zero. */
static bool fields_ok(int t, int a, int b, int c) {
  if (a < TYPES[t].amin || a > TYPES[t].amax || b < TYPES[t].bmin || b > TYPES[t].bmax) return false;
  if (TYPES[t].distinct && a == b) return false;
  return strchr(TYPES[t].fields, 'c') || c == 0;
}

bool pf_pap_valid(pf_card c) {
  if ((c & 0xC000) != PF_PAP_BASE || pf_pap_type(c) >= PF_PAP_TYPES) return false;
  return fields_ok(pf_pap_type(c), pf_pap_a(c), pf_pap_b(c), pf_pap_c(c));
}

char *pf_pap_str(pf_card c, char *buf) {
  int t = pf_pap_type(c), n = 0;
  buf[n++] = COLOUR_LETTERS[pf_pap_colour(c)];
  if (TYPES[t].letter) {
    buf[n++] = ':';
    buf[n++] = TYPES[t].letter;
  }
  for (const char *f = TYPES[t].fields; *f; f++) {
    switch (*f) {
    case 's': buf[n++] = pf_pap_a(c) ? '-' : '+'; break;
    case 'x': buf[n++] = (char)('0' + pf_pap_a(c)); break;
    case 'y': buf[n++] = (char)('0' + pf_pap_b(c)); break;
    default: buf[n++] = COLOUR_LETTERS[pf_pap_c(c)]; break;
    }
  }
  buf[n] = '\0';
  return buf;
}

static int colour_of(char ch) {
  const char *hit = ch ? strchr(COLOUR_LETTERS, toupper((unsigned char)ch)) : NULL;
  return hit ? (int)(hit - COLOUR_LETTERS) : -1;
}

/* Reads the fields of type t at s into a, b, c; returns the characters read, or -1. */
static int scan_fields(int t, const char *s, int *a, int *b, int *c) {
  int n = 0;
  for (const char *f = TYPES[t].fields; *f; f++, n++) {
    char ch = s[n];
    if (*f == 's' && (ch == '+' || ch == '-'))
      *a = ch == '-';
    else if ((*f == 'x' || *f == 'y') && isdigit((unsigned char)ch))
      *(*f == 'x' ? a : b) = ch - '0';
    else if (*f == 'c' && colour_of(ch) >= 0)
      *c = colour_of(ch);
    else
      return -1;
  }
  return n;
}

int pf_pap_scan(const char **p, pf_card *out) {
  const char *s = *p;
  int colour = colour_of(s[0]), t = PF_PAP_COLOR, a = 0, b = 0, c = 0, n = 1;
  if (colour < 0) return -1;
  if (s[1] == ':') {
    char letter = (char)toupper((unsigned char)s[2]);
    for (t = 1; t < PF_PAP_TYPES && TYPES[t].letter != letter; t++) continue;
    if (t == PF_PAP_TYPES) return -1;
    int k = scan_fields(t, s + 3, &a, &b, &c);
    if (k < 0) return -1;
    n = 3 + k;
  }
  if (!fields_ok(t, a, b, c)) return -1;
  *out = pf_pap_make(colour, t, a, b, c);
  *p = s + n;
  return 0;
}
