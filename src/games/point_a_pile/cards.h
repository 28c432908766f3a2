/*
 * cards.h - Point-a-Pile's generated cards: their codes, fields and notation (RULINGS G-8,
 * PAP-1; rules/point-a-pile-cards.md). The core knows no game's cards: the game gives this
 * notation to it as its pf_game's `cards` (pf_pap_notation, core/card.h), and records, deals and
 * views read and write the cards through it.
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
 * The expansions' cards (PAP-9) are worth 0 but have a colour and text; their kind is the number
 * a | b << 3, written in decimal after the type letter:
 *
 *   RULE       R:P1..R:P8    Point-a-Police's rules, in the order of point-a-pile-cards.md:
 *                            1 Not Last, 2 Force Last, 3 Not Friends, 4 Force Friends,
 *                            5 Leading Curse, 6 Trailing Reward, 7 Not Text, 8 Not Textless
 *   SHY        R:T1..R:T8    Dont-a-Touchme's Shy cards: 1 Head Only, 2 Head Veto, 3 Leader Veto,
 *                            4 Hand Min, 5 Hand Plus, 6 Color New, 7 Color Same, 8 Not Shy
 *   ACTION     R:A1..R:A16   Wait-a-Minute's actions: 1 Swap, 2 Steal, 3 Headpointer, 4 Discard,
 *                            5 Random, 6 Merge, 7 Switch, 8 Reorder, 9 Take All, 10 Take None,
 *                            11 Redo, 12 Change Mind, 13 Draw More, 14 Color Stop,
 *                            15 Action Stop, 16 Trade
 *
 * Mission cards (Complete-a-Mission) are a deck of their own and have no colour, so they are
 * written without one: M1 .. M9 (MISSION, kind a | b << 3, colour bits zero) are missions 1-9 of
 * point-a-pile-cards.md; mission 10, "H cards of colour C1 and L cards of colour C2", is
 * M10:5R3G (MISSION_HL: a H (5-6), b L (3-5), c C1, and the colour bits hold C2, C1 != C2).
 *
 * The colour letter comes first: R red, G green, B blue, P purple; then, for a card with text, a
 * colon, the type letter and the parameters (signs + and -, digits, colour letters). Input is
 * read in any case. Codes from PF_PAP_BASE that are not a valid card are written "#<code>".
 */
#ifndef PF_GAMES_PAP_CARDS_H
#define PF_GAMES_PAP_CARDS_H

#include <stdbool.h>

#include "core/buf.h"
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
  PF_PAP_RULE,       /* the expansions' types (PAP-9) */
  PF_PAP_SHY,
  PF_PAP_ACTION,
  PF_PAP_MISSION,
  PF_PAP_MISSION_HL, /* mission 10 */
  PF_PAP_TYPES
};

/* The kinds of the expansions' cards, numbered as their notation numbers them. */
enum {
  PF_PAP_NOT_LAST = 1,
  PF_PAP_FORCE_LAST,
  PF_PAP_NOT_FRIENDS,
  PF_PAP_FORCE_FRIENDS,
  PF_PAP_LEADING_CURSE,
  PF_PAP_TRAILING_REWARD,
  PF_PAP_NOT_TEXT,
  PF_PAP_NOT_TEXTLESS,
  PF_PAP_RULES = PF_PAP_NOT_TEXTLESS
};
enum {
  PF_PAP_HEAD_ONLY = 1,
  PF_PAP_HEAD_VETO,
  PF_PAP_LEADER_VETO,
  PF_PAP_HAND_MIN,
  PF_PAP_HAND_PLUS,
  PF_PAP_COLOR_NEW,
  PF_PAP_COLOR_SAME,
  PF_PAP_NOT_SHY,
  PF_PAP_SHIES = PF_PAP_NOT_SHY
};
enum {
  PF_PAP_SWAP = 1,
  PF_PAP_STEAL,
  PF_PAP_HEADPOINTER,
  PF_PAP_DISCARD,
  PF_PAP_RANDOM,
  PF_PAP_MERGE,
  PF_PAP_SWITCH,
  PF_PAP_REORDER,
  PF_PAP_TAKE_ALL,
  PF_PAP_TAKE_NONE,
  PF_PAP_REDO,
  PF_PAP_CHANGE_MIND,
  PF_PAP_DRAW_MORE,
  PF_PAP_COLOR_STOP,
  PF_PAP_ACTION_STOP,
  PF_PAP_TRADE,
  PF_PAP_ACTIONS = PF_PAP_TRADE
};
#define PF_PAP_MISSIONS 10 /* mission 10 is MISSION_HL */

static inline pf_card pf_pap_make(int colour, int type, int a, int b, int c) {
  return (pf_card)(PF_PAP_BASE | colour << 12 | type << 8 | c << 6 | b << 3 | a);
}
static inline int pf_pap_colour(pf_card c) { return (c >> 12) & 3; }
static inline int pf_pap_type(pf_card c) { return (c >> 8) & 15; }
static inline int pf_pap_a(pf_card c) { return c & 7; }
static inline int pf_pap_b(pf_card c) { return (c >> 3) & 7; }
static inline int pf_pap_c(pf_card c) { return (c >> 6) & 3; }
/* The kind of a RULE, SHY, ACTION or MISSION card (1..); of mission 10, 10. */
static inline int pf_pap_kind(pf_card c) {
  return pf_pap_type(c) == PF_PAP_MISSION_HL ? PF_PAP_MISSIONS : pf_pap_a(c) | pf_pap_b(c) << 3;
}
static inline pf_card pf_pap_make_kind(int colour, int type, int kind) {
  return pf_pap_make(colour, type, kind & 7, kind >> 3, 0);
}
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
/* The name of a RULE, SHY or ACTION card's kind ("Not Last", "Head Only", "Swap"); "" for other
 * cards. */
const char *pf_pap_kind_name(pf_card c);
/* What a valid card does, for people, as the text view writes it: "+1 per green card", "3 if some
 * colour has 4+ cards", "rule Not Last: you may not pick ...", "textless green". */
void pf_pap_card_text(pf_card c, pf_buf *out);
/* What a rule (its kind, 1..PF_PAP_RULES) forbids or asks, one line; "" for another number. */
const char *pf_pap_rule_text(int kind);
/* The colour's name ("red") and its letter ('R'). */
const char *pf_pap_colour_name(int colour);
char pf_pap_colour_letter(int colour);

/* The notation the core reads and writes the cards with (core/card.h): valid cards, pf_pap_str,
 * pf_pap_scan, each card in its colour (missions, which have none, in none), and each card's
 * name (pf_pap_kind_name) and text (pf_pap_card_text) for the JSON view. */
extern const pf_card_notation pf_pap_notation;

#endif
