/*
 * cards.c - Point-a-Pile's cards for people and programs: their notation (RULINGS G-8; the table
 * is in cards.h), their names and what they do (PAP-1, PAP-9; point-a-pile-cards.md). The one
 * home of the cards' texts: the text view, move descriptions and the JSON view's "texts" read
 * them here, and the web page from the JSON view.
 */
#include "games/point_a_pile/cards.h"

#include "games/point_a_pile/pap.h" /* the Action cards' table (PAP_ACTS) */

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const char COLOUR_LETTERS[] = "RGBP";
static const char *const COLOUR_NAMES[] = {"red", "green", "blue", "purple"};

/* One entry per type, in type order:
 *   letter  the letter after the colon (0: the textless card, written as its colour alone)
 *   fields  what follows the letter: 's' a sign (+ or -) into a, 'x' a digit into a, 'y' a digit
 *           into b, 'c' a colour letter into c, 'k' a kind number (1-2 digits) into a | b << 3
 *   a, b    the ranges of fields a and b ([0, 0] when unused); c is used only if fields has 'c'
 *   distinct  a and b must differ (drawn without replacement, point-a-pile-cards.md)
 *   kinds   for 'k': the kinds are 1..kinds
 * Missions have no colour and their own form (M3, M10:5R3G): see mission_str and mission_scan. */
static const struct {
  char letter;
  const char *fields;
  int amin, amax, bmin, bmax;
  bool distinct;
  int kinds;
} TYPES[PF_PAP_TYPES] = {
    [PF_PAP_COLOR] = {0, "", 0, 0, 0, 0, false, 0},
    [PF_PAP_SCORE] = {'S', "s", 0, 1, 0, 0, false, 0},
    [PF_PAP_MATCH] = {'M', "sc", 0, 1, 0, 0, false, 0},
    [PF_PAP_DIFF] = {'D', "x", 3, 5, 0, 0, false, 0},
    [PF_PAP_GROUP] = {'G', "xy", 2, 5, 2, 5, true, 0},
    [PF_PAP_SPECIFIC] = {'C', "xyc", 2, 5, 2, 5, true, 0},
    [PF_PAP_NUMCARDS] = {'N', "xy", 2, 5, 5, 6, false, 0},
    [PF_PAP_EMPTY] = {'E', "s", 0, 1, 0, 0, false, 0},
    [PF_PAP_LAST] = {'L', "s", 0, 1, 0, 0, false, 0},
    [PF_PAP_HEAD] = {'H', "s", 0, 1, 0, 0, false, 0},
    [PF_PAP_RULE] = {'P', "k", 0, 7, 0, 7, false, PF_PAP_RULES},
    [PF_PAP_SHY] = {'T', "k", 0, 7, 0, 7, false, PF_PAP_SHIES},
    [PF_PAP_ACTION] = {'A', "k", 0, 7, 0, 7, false, PF_PAP_ACTIONS},
    [PF_PAP_MISSION] = {0, "", 0, 7, 0, 7, false, PF_PAP_MISSIONS - 1},
    [PF_PAP_MISSION_HL] = {0, "", 5, 6, 3, 5, false, 0},
};

static const char *const RULE_NAMES[PF_PAP_RULES + 1] = {
    "", "Not Last", "Force Last", "Not Friends", "Force Friends", "Leading Curse", "Trailing Reward", "Not Text",
    "Not Textless"};
static const char *const SHY_NAMES[PF_PAP_SHIES + 1] = {
    "", "Head Only", "Head Veto", "Leader Veto", "Hand Min", "Hand Plus", "Color New", "Color Same", "Not Shy"};
static const char *const ACTION_NAMES[PF_PAP_ACTIONS + 1] = {
    "",          "Swap",      "Steal", "Headpointer", "Discard",    "Random",    "Merge",      "Switch", "Reorder",
    "Take All",  "Take None", "Redo",  "Change Mind", "Draw More",  "Color Stop", "Action Stop", "Trade"};

const char *pf_pap_kind_name(pf_card c) {
  switch (pf_pap_type(c)) {
  case PF_PAP_RULE: return RULE_NAMES[pf_pap_kind(c) <= PF_PAP_RULES ? pf_pap_kind(c) : 0];
  case PF_PAP_SHY: return SHY_NAMES[pf_pap_kind(c) <= PF_PAP_SHIES ? pf_pap_kind(c) : 0];
  case PF_PAP_ACTION: return ACTION_NAMES[pf_pap_kind(c) <= PF_PAP_ACTIONS ? pf_pap_kind(c) : 0];
  default: return "";
  }
}

const char *pf_pap_colour_name(int colour) { return COLOUR_NAMES[colour & 3]; }
char pf_pap_colour_letter(int colour) { return COLOUR_LETTERS[colour & 3]; }

/* Type t's fields in their ranges, the unused ones zero (colour: the card's colour bits). */
static bool fields_ok(int t, int colour, int a, int b, int c) {
  if (t == PF_PAP_MISSION_HL) return a >= 5 && a <= 6 && b >= 3 && b <= 5 && c != colour;
  if (TYPES[t].kinds) {
    int kind = a | b << 3;
    return kind >= 1 && kind <= TYPES[t].kinds && c == 0 && (t != PF_PAP_MISSION || colour == 0);
  }
  if (a < TYPES[t].amin || a > TYPES[t].amax || b < TYPES[t].bmin || b > TYPES[t].bmax) return false;
  if (TYPES[t].distinct && a == b) return false;
  return strchr(TYPES[t].fields, 'c') || c == 0;
}

bool pf_pap_valid(pf_card c) {
  if ((c & 0xC000) != PF_PAP_BASE || pf_pap_type(c) >= PF_PAP_TYPES) return false;
  return fields_ok(pf_pap_type(c), pf_pap_colour(c), pf_pap_a(c), pf_pap_b(c), pf_pap_c(c));
}

/* M3; M10:5R3G (5 of colour C1 = red, 3 of C2 = green). */
static char *mission_str(pf_card c, char *buf) {
  if (pf_pap_type(c) == PF_PAP_MISSION)
    pf_snprintf(buf, PF_CARD_STR, "M%d", pf_pap_kind(c));
  else
    pf_snprintf(buf, PF_CARD_STR, "M%d:%d%c%d%c", PF_PAP_MISSIONS, pf_pap_a(c), COLOUR_LETTERS[pf_pap_c(c)], pf_pap_b(c),
             COLOUR_LETTERS[pf_pap_colour(c)]);
  return buf;
}

char *pf_pap_str(pf_card c, char *buf) {
  int t = pf_pap_type(c), n = 0;
  if (t == PF_PAP_MISSION || t == PF_PAP_MISSION_HL) return mission_str(c, buf);
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
    case 'k': n += pf_snprintf(buf + n, (size_t)(PF_CARD_STR - n), "%d", pf_pap_kind(c)); break;
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

/* Reads a kind number at s (1-99, no leading zero) into *kind; returns the digits read, or -1. */
static int scan_kind(const char *s, int *kind) {
  if (s[0] < '1' || s[0] > '9') return -1;
  if (!isdigit((unsigned char)s[1])) {
    *kind = s[0] - '0';
    return 1;
  }
  *kind = (s[0] - '0') * 10 + (s[1] - '0');
  return 2;
}

/* Reads the fields of type t at s into a, b, c; returns the characters read, or -1. */
static int scan_fields(int t, const char *s, int *a, int *b, int *c) {
  int n = 0;
  for (const char *f = TYPES[t].fields; *f; f++) {
    char ch = s[n];
    int kind, k;
    if (*f == 's' && (ch == '+' || ch == '-'))
      *a = ch == '-';
    else if ((*f == 'x' || *f == 'y') && isdigit((unsigned char)ch))
      *(*f == 'x' ? a : b) = ch - '0';
    else if (*f == 'c' && colour_of(ch) >= 0)
      *c = colour_of(ch);
    else if (*f == 'k' && (k = scan_kind(s + n, &kind)) > 0 && kind <= TYPES[t].kinds) {
      *a = kind & 7;
      *b = kind >> 3;
      n += k - 1;
    } else {
      return -1;
    }
    n++;
  }
  return n;
}

/* A mission at s (M3, M10:5R3G): 0 with the card in *out and its length in *len, else -1. */
static int mission_scan(const char *s, pf_card *out, int *len) {
  int kind, n;
  if (toupper((unsigned char)s[0]) != 'M' || (n = scan_kind(s + 1, &kind)) < 0 || kind > PF_PAP_MISSIONS) return -1;
  n++;
  if (kind < PF_PAP_MISSIONS) {
    *out = pf_pap_make_kind(0, PF_PAP_MISSION, kind);
    *len = n;
    return 0;
  }
  const char *f = s + n;
  if (f[0] != ':' || !isdigit((unsigned char)f[1]) || colour_of(f[2]) < 0 || !isdigit((unsigned char)f[3]) ||
      colour_of(f[4]) < 0)
    return -1;
  int h = f[1] - '0', c1 = colour_of(f[2]), l = f[3] - '0', c2 = colour_of(f[4]);
  if (!fields_ok(PF_PAP_MISSION_HL, c2, h, l, c1)) return -1;
  *out = pf_pap_make(c2, PF_PAP_MISSION_HL, h, l, c1);
  *len = n + 5;
  return 0;
}

int pf_pap_scan(const char **p, pf_card *out) {
  const char *s = *p;
  int colour = colour_of(s[0]), t = PF_PAP_COLOR, a = 0, b = 0, c = 0, n = 1;
  if (colour < 0) {
    if (mission_scan(s, out, &n) != 0) return -1;
    *p = s + n;
    return 0;
  }
  if (s[1] == ':') {
    char letter = (char)toupper((unsigned char)s[2]);
    if (!letter) return -1;
    for (t = 1; t < PF_PAP_TYPES && TYPES[t].letter != letter; t++) continue;
    if (t == PF_PAP_TYPES) return -1;
    int k = scan_fields(t, s + 3, &a, &b, &c);
    if (k < 0) return -1;
    n = 3 + k;
  }
  if (!fields_ok(t, colour, a, b, c)) return -1;
  *out = pf_pap_make(colour, t, a, b, c);
  *p = s + n;
  return 0;
}

/* What the expansions' cards do, one line each (PAP-9), by kind. */
static const char *const RULE_TEXT[PF_PAP_RULES + 1] = {
    "",
    "you may not pick a pile showing the colour of your last card scored",
    "you must pick a pile showing the colour of your last card scored",
    "you may not pick the pile your left neighbour (seat - 1) picks",
    "you must pick a pile a neighbour (seat - 1 or + 1) picks",
    "the leading player(s) may not pick the largest pile(s)",
    "the trailing player(s) choose after seeing the others' choices",
    "if your last card scored has text, you may not pick a pile with text",
    "if your last card scored is textless, you may not pick a pile with a textless card",
};
static const char *const SHY_TEXT[PF_PAP_SHIES + 1] = {
    "",
    "the Headpointer only",
    "anyone but the Headpointer",
    "players not (jointly) in the lead",
    "players with fewer than 5 scored cards",
    "players with more than 5 scored cards",
    "players who have scored no card of its colour",
    "players who have scored a card of its colour",
    "players who have scored no Shy card",
};
static const char *const MISSION_TEXT[PF_PAP_MISSIONS] = {
    "",
    "5 cards of one colour",
    "at least 2 cards of every colour",
    "10 points",
    "at least 6 cards with text",
    "at least 5 textless cards",
    "every colour and at least 6 points",
    "every colour and at least 6 cards",
    "at least 12 cards",
    "at least 8 cards and at least 4 points",
};

void pf_pap_card_text(pf_card c, pf_buf *out) {
  int x = pf_pap_a(c), y = pf_pap_b(c), sign = pf_pap_sign(c), kind = pf_pap_kind(c);
  const char *colour = pf_pap_colour_name(pf_pap_c(c)), *name = pf_pap_kind_name(c);
  switch (pf_pap_type(c)) {
  case PF_PAP_SCORE: pf_buf_printf(out, "%+d", sign); break;
  case PF_PAP_MATCH: pf_buf_printf(out, "%+d per %s card", sign, colour); break;
  case PF_PAP_DIFF: pf_buf_printf(out, "%d if all 4 colours", x); break;
  case PF_PAP_GROUP: pf_buf_printf(out, "%d if some colour has %d+ cards", x, y); break;
  case PF_PAP_SPECIFIC: pf_buf_printf(out, "%d if %d+ %s cards", x, y, colour); break;
  case PF_PAP_NUMCARDS: pf_buf_printf(out, "%d if %d+ cards", x, y); break;
  case PF_PAP_EMPTY: pf_buf_printf(out, "%+d per textless card", sign); break;
  case PF_PAP_LAST: pf_buf_printf(out, "%+d while your last card", sign); break;
  case PF_PAP_HEAD: pf_buf_printf(out, "%+d while you are Headpointer", sign); break;
  case PF_PAP_RULE: pf_buf_printf(out, "rule %s: %s", name, RULE_TEXT[kind]); break;
  case PF_PAP_SHY: pf_buf_printf(out, "shy %s: while on top, its pile is for %s", name, SHY_TEXT[kind]); break;
  case PF_PAP_ACTION: pf_buf_printf(out, "action %s, %s: %s", name, PAP_WINDOW_NAMES[PAP_ACTS[kind].window], PAP_ACTS[kind].does); break;
  case PF_PAP_MISSION: pf_buf_printf(out, "mission: %s", MISSION_TEXT[kind]); break;
  case PF_PAP_MISSION_HL:
    pf_buf_printf(out, "mission: at least %d %s and %d %s cards", x, colour, y, pf_pap_colour_name(pf_pap_colour(c)));
    break;
  default: pf_buf_printf(out, "textless %s", pf_pap_colour_name(pf_pap_colour(c))); break;
  }
}

const char *pf_pap_rule_text(int kind) { return RULE_TEXT[kind >= 1 && kind <= PF_PAP_RULES ? kind : 0]; }

/* The notation's texts for views: the kind's name, and what the card does. */
static void card_texts(pf_card c, pf_buf *name, pf_buf *text) {
  pf_buf_puts(name, pf_pap_kind_name(c));
  pf_pap_card_text(c, text);
}

/* A card's colour on a terminal: bold red, green, blue, magenta; none for a mission. */
static const char *colour_sgr(pf_card c) {
  static const char *const SGR[PF_PAP_COLOURS] = {"1;31", "1;32", "1;34", "1;35"};
  bool mission = pf_pap_type(c) == PF_PAP_MISSION || pf_pap_type(c) == PF_PAP_MISSION_HL;
  return mission ? NULL : SGR[pf_pap_colour(c)];
}

const pf_card_notation pf_pap_notation = {pf_pap_valid, pf_pap_str, pf_pap_scan, colour_sgr, card_texts};
