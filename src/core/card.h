/*
 * card.h - cards and their notation (RULINGS G-8).
 *
 * A card is one byte. Standard cards are (rank - 1) * 4 + suit, rank 1 (ace) .. 13 (king), suit
 * 0 spades, 1 hearts, 2 diamonds, 3 clubs, so equal ranks are neighbours and rank is code / 4 + 1.
 * 52 is the joker. Skip-Bo Junior's cards are PF_CARD_SBJ(1..10) and PF_CARD_SBJ_WILD. Point-a-Pile's
 * generated cards are codes from PF_PAP_BASE (0x8000) up, with colour, type and parameters in
 * their bits (papcard.h). Any other code from PF_CARD_GAME up is written "#<code>".
 */
#ifndef PF_CARD_H
#define PF_CARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* Writes the canonical notation ("7H", "TD", "JK", "10", "W", Point-a-Pile's "R:G34") into buf
 * (PF_CARD_STR bytes) and returns buf. Other codes are written as "#<code>". */
char *pf_card_str(pf_card c, char *buf);
/* Writes the card for a person: with suit symbols and colour as the style says. buf needs 32
 * bytes. */
char *pf_card_render(pf_card c, const pf_style *style, char *buf);

/* Reads one card at *p (forms of G-8: rank A 2-9 T 10 J Q K then suit S H D C or ♠♥♦♣, any case;
 * JK; Skip-Bo Junior's 1-10 and W when no suit follows; Point-a-Pile's cards (papcard.h);
 * #128..#65534 for any code),
 * advances *p past it, and returns 0; on
 * failure returns -1 and leaves *p. */
int pf_card_scan(const char **p, pf_card *out);
/* Reads a seat's pile "pK" (G-8; any case) at *p, advances past it and returns 0 with the seat in
 * *seat (at most 99: larger numbers read as 99); -1 and *p unchanged when there is none. */
int pf_pile_scan(const char **p, int *seat);
/* Reads a whole string as one card: 0, or -1 if it is not exactly one card. */
int pf_card_parse(const char *s, pf_card *out);

#endif
