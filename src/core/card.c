/*
 * card.c - card notation (RULINGS G-8).
 */
#include "core/card.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const char RANKS[] = "A23456789TJQK";
static const char SUITS[] = "SHDC";
static const char *const SUIT_SYMBOLS[4] = {"\u2660", "\u2665", "\u2666", "\u2663"};

/* Is c a card `own` names? */
static bool owned(const pf_card_notation *own, pf_card c) { return own && c >= PF_CARD_GAME && own->owns(c); }

char *pf_card_str_in(const pf_card_notation *own, pf_card c, char *buf) {
  if (owned(own, c)) {
    own->str(c, buf);
  } else if (pf_card_is_standard(c)) {
    buf[0] = RANKS[pf_card_rank(c) - 1];
    buf[1] = SUITS[pf_card_suit(c)];
    buf[2] = '\0';
  } else if (c == PF_CARD_JOKER) {
    strcpy(buf, "JK");
  } else if (c >= PF_CARD_SBJ(1) && c <= PF_CARD_SBJ(10)) {
    pf_snprintf(buf, PF_CARD_STR, "%d", c - PF_CARD_SBJ(0));
  } else if (c == PF_CARD_SBJ_WILD) {
    strcpy(buf, "W");
  } else {
    pf_snprintf(buf, PF_CARD_STR, "#%d", c);
  }
  return buf;
}

char *pf_card_render_in(const pf_card_notation *own, pf_card c, const pf_style *style, char *buf) {
  char plain[PF_CARD_STR];
  pf_card_str_in(own, c, plain);
  if (!pf_card_is_standard(c) || !style || (!style->unicode && !style->color)) {
    const char *sgr = NULL; /* no colour */
    if (style && style->color && owned(own, c) && own->color)
      sgr = own->color(c);
    else if (style && style->color && c == PF_CARD_JOKER)
      sgr = "1;35";
    if (sgr)
      sprintf(buf, "\x1b[%sm%s\x1b[0m", sgr, plain);
    else
      strcpy(buf, plain);
    return buf;
  }
  char rank[3] = {plain[0], '\0', '\0'};
  if (style->unicode && plain[0] == 'T') strcpy(rank, "10");
  const char *suit = style->unicode ? SUIT_SYMBOLS[pf_card_suit(c)] : plain + 1;
  if (style->color && pf_card_is_red(c))
    sprintf(buf, "\x1b[1;31m%s%s\x1b[0m", rank, suit);
  else if (style->color)
    sprintf(buf, "\x1b[1m%s%s\x1b[0m", rank, suit);
  else
    sprintf(buf, "%s%s", rank, suit);
  return buf;
}

/* Reads a suit letter or symbol at s; returns its length or 0. */
static int scan_suit(const char *s, int *suit) {
  const char *hit = *s ? strchr(SUITS, toupper((unsigned char)*s)) : NULL;
  if (hit) {
    *suit = (int)(hit - SUITS);
    return 1;
  }
  for (int i = 0; i < 4; i++) {
    size_t n = strlen(SUIT_SYMBOLS[i]);
    if (strncmp(s, SUIT_SYMBOLS[i], n) == 0) {
      *suit = i;
      return (int)n;
    }
  }
  return 0;
}

int pf_card_scan_in(const pf_card_notation *own, const char **p, pf_card *out) {
  const char *s = *p;
  int rank = 0, len = 0, suit;
  char c0 = (char)toupper((unsigned char)s[0]);
  if (c0 == '#') { /* a card by its code (128..65534) */
    int code = 0, n = 1;
    while (isdigit((unsigned char)s[n]) && n < 6) code = code * 10 + (s[n++] - '0');
    if (n == 1 || isdigit((unsigned char)s[n]) || code < PF_CARD_GAME || code >= PF_CARD_NONE) return -1;
    *out = (pf_card)code;
    *p = s + n;
    return 0;
  }
  if (own && own->scan(p, out) == 0) return 0; /* the game's own cards first (Point-a-Pile's R, G, B, P, M) */
  if (c0 == 'J' && toupper((unsigned char)s[1]) == 'K') {
    *out = PF_CARD_JOKER;
    *p = s + 2;
    return 0;
  }
  if (c0 == '1' && s[1] == '0') {
    rank = 10;
    len = 2;
  } else if (c0 && strchr(RANKS, c0)) {
    rank = (int)(strchr(RANKS, c0) - RANKS) + 1;
    len = 1;
  } else if (c0 == '1') {
    rank = 1;
    len = 1; /* only Skip-Bo Junior's 1 */
  } else if (c0 == 'W') {
    *out = PF_CARD_SBJ_WILD;
    *p = s + 1;
    return 0;
  } else {
    return -1;
  }
  int n = scan_suit(s + len, &suit);
  if (n > 0 && !(c0 == '1' && len == 1)) {
    *out = pf_card_make(rank, suit);
    *p = s + len + n;
    return 0;
  }
  /* No suit: a Skip-Bo Junior number, written as digits. */
  if (isdigit((unsigned char)c0) && n == 0) {
    *out = PF_CARD_SBJ(rank);
    *p = s + len;
    return 0;
  }
  return -1;
}

int pf_card_parse_in(const pf_card_notation *own, const char *s, pf_card *out) {
  const char *p = s;
  if (pf_card_scan_in(own, &p, out) != 0 || *p != '\0') return -1;
  return 0;
}

int pf_pile_scan(const char **p, int *seat) {
  const char *q = *p;
  if ((q[0] != 'p' && q[0] != 'P') || q[1] < '0' || q[1] > '9') return -1;
  int n = 0;
  for (q++; *q >= '0' && *q <= '9'; q++) n = n < 99 ? n * 10 + (*q - '0') : 99;
  *seat = n > 99 ? 99 : n;
  *p = q;
  return 0;
}
