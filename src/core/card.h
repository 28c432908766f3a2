/*
 * card.h - cards and their notation (RULINGS G-8).
 *
 * A card is one byte. Standard cards are (rank - 1) * 4 + suit, rank 1 (ace) .. 13 (king), suit
 * 0 spades, 1 hearts, 2 diamonds, 3 clubs, so equal ranks are neighbours and rank is code / 4 + 1.
 * 52 is the joker. Skip-Bo Junior's cards are PF_CARD_SBJ(1..10) and PF_CARD_SBJ_WILD. Codes from
 * PF_CARD_GAME up belong to a game that names its own cards (Point-a-Pile's generated cards): the
 * core knows none of them. Such a game gives a pf_card_notation (its pf_game's `cards`), and the
 * functions ending in _in read and write cards through the one they are given; without one (NULL,
 * and the functions without _in) a code from PF_CARD_GAME up is written "#<code>".
 */
#ifndef PF_CARD_H
#define PF_CARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"

typedef uint16_t pf_card;

#define PF_CARD_JOKER 52
#define PF_CARD_SBJ(n) ((pf_card)(64 + (n)))
#define PF_CARD_SBJ_WILD ((pf_card)75)
#define PF_CARD_GAME 128
#define PF_CARD_NONE 0xFFFF
#define PF_CARD_STR 16 /* room for any card's notation and its NUL */

enum { PF_SPADES, PF_HEARTS, PF_DIAMONDS, PF_CLUBS };

static inline bool pf_card_is_standard(pf_card c) { return c < 52; }
static inline int pf_card_rank(pf_card c) { return c / 4 + 1; } /* standard cards only */
static inline int pf_card_suit(pf_card c) { return c & 3; }     /* standard cards only */
static inline pf_card pf_card_make(int rank, int suit) { return (pf_card)((rank - 1) * 4 + suit); }
static inline bool pf_card_is_red(pf_card c) {
  return pf_card_suit(c) == PF_HEARTS || pf_card_suit(c) == PF_DIAMONDS;
}

/* How cards are shown to a person: suit symbols and ANSI colours, or plain notation. */
typedef struct pf_style {
  bool unicode; /* suit symbols ♠♥♦♣ */
  bool color;   /* red suits in red */
} pf_style;

/* A game's notation of its own cards, codes from PF_CARD_GAME up (G-8). */
typedef struct pf_card_notation {
  /* Whether c (from PF_CARD_GAME up) is one of the game's cards. */
  bool (*owns)(pf_card c);
  /* The notation of a card it owns into buf (PF_CARD_STR bytes); returns buf. */
  char *(*str)(pf_card c, char *buf);
  /* Reads one of its cards at *p, advances past it and returns 0; -1 (and *p unchanged) when
   * there is none. Tried before the core's forms, so it must not accept one of them. */
  int (*scan)(const char **p, pf_card *out);
  /* Optional: the ANSI colour (SGR parameters, "1;31") a card it owns is shown in, or NULL. */
  const char *(*color)(pf_card c);
  /* Optional: for cards with texts (Point-a-Pile's), a card's name ("" when it is known by its
   * text alone) and what it does, as the game's text view writes them; the JSON view carries
   * them (pf_view_json, docs/views.md). */
  void (*text)(pf_card c, pf_buf *name, pf_buf *text);
} pf_card_notation;

/* Writes the canonical notation ("7H", "TD", "JK", "10", "W", a card `own` names: Point-a-Pile's
 * "R:G34") into buf (PF_CARD_STR bytes) and returns buf. Other codes are written as "#<code>". */
char *pf_card_str_in(const pf_card_notation *own, pf_card c, char *buf);
/* Writes the card for a person: with suit symbols and colour as the style says. buf needs 32
 * bytes. */
char *pf_card_render_in(const pf_card_notation *own, pf_card c, const pf_style *style, char *buf);

/* Reads one card at *p (forms of G-8: a card `own` names; rank A 2-9 T 10 J Q K then suit S H D C
 * or ♠♥♦♣, any case; JK; Skip-Bo Junior's 1-10 and W when no suit follows; #128..#65534 for any
 * code), advances *p past it, and returns 0; on failure returns -1 and leaves *p. */
int pf_card_scan_in(const pf_card_notation *own, const char **p, pf_card *out);
/* Reads a whole string as one card: 0, or -1 if it is not exactly one card. */
int pf_card_parse_in(const pf_card_notation *own, const char *s, pf_card *out);

/* The same for the cards the core names (no game's own). */
static inline char *pf_card_str(pf_card c, char *buf) { return pf_card_str_in(NULL, c, buf); }
static inline char *pf_card_render(pf_card c, const pf_style *style, char *buf) {
  return pf_card_render_in(NULL, c, style, buf);
}
static inline int pf_card_scan(const char **p, pf_card *out) { return pf_card_scan_in(NULL, p, out); }
static inline int pf_card_parse(const char *s, pf_card *out) { return pf_card_parse_in(NULL, s, out); }

/* Reads a seat's pile "pK" (G-8; any case) at *p, advances past it and returns 0 with the seat in
 * *seat (at most 99: larger numbers read as 99); -1 and *p unchanged when there is none. */
int pf_pile_scan(const char **p, int *seat);

#endif
