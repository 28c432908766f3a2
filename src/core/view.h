/*
 * view.h - the view writer: the JSON view of SPEC §3 that every viewer is sent (docs/views.md),
 * and the zone writer a game's view_write uses for the view's "zones".
 *
 * The core writes the view's own fields ("game", "players", "viewer", "to_move", "legal",
 * "scores", "winners", "moves"); the game writes its fields with its view_write method (core/
 * game.h), its zones last, with pf_zone_open and the functions below. Viewers are a seat,
 * PF_VIEW_ALL or PF_VIEW_PUBLIC (core/game.h).
 */
#ifndef PF_VIEW_H
#define PF_VIEW_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/buf.h"
#include "core/card.h"
#include "core/game.h"
#include "core/jsontext.h"

/* ---- the view ---- */

/* The JSON view of SPEC §3: game, players, viewer, to_move, legal, scores, winners (when over),
 * the game's own fields (its zones among them), and "moves": for each legal move, in the order of
 * "legal", its string, where it takes a card from and to (move_zones) and what describe tells the
 * viewer of it (docs/views.md). The legal moves are listed only for the seat to move, and only
 * when the viewer is that seat or PF_VIEW_ALL. Caller owns the result. */
json_t *pf_view_json(const pf_game *g, const void *st, int players, int seat);
/* The same view appended to out as compact text: the one place it is written (the core's fields
 * and "moves" here, the game's by view_write), what the server sends in every state;
 * pf_view_json reads it back. *moves_at (when not NULL) gets where the text of "moves"
 * begins in out (it runs to the view's closing brace). -1 when it cannot be written (a string
 * that is not UTF-8), out's new text then being partial. */
int pf_view_write(pf_buf *out, const pf_game *g, const void *st, int players, int seat, size_t *moves_at);
/* The view without its "moves" (which the rest of it and describe give), closed: what a seat
 * knows now, compact, for what hashes or compares views (Python's information states); its zones
 * also handed to sink when it is not NULL (jsontext.h). */
int pf_view_write_seen(pf_buf *out, const pf_game *g, const void *st, int players, int seat, pf_zone_sink *sink);
/* The zones of the viewer's view, handed to sink one by one as view_write writes them, none of
 * them written as text (jsontext.h: pf_zone_sink); the game's other fields go to scratch, which
 * is cleared first and then holds text of no use. For code that reads the zones alone, fast
 * (Python's tensors): no text is written and read back. */
void pf_view_zones(const pf_game *g, const void *st, int seat, pf_zone_sink *sink, pf_buf *scratch);
/* The view's "moves" of the seat to move at st (seat being that seat or PF_VIEW_ALL) as JSON
 * text appended to out: the one place that writes them (pf_view_json reads them back). -1 as
 * pf_view_write. */
int pf_moves_write(pf_buf *out, const pf_game *g, const void *st, int seat);
/* The view as compact JSON text with keys in a fixed order; caller frees. */
char *pf_view_json_text(const pf_game *g, const void *st, int players, int seat);
/* to_move as SPEC §1 writes it: the seat, "chance", or null when the game is over. */
json_t *pf_to_move_json(int to_move);
/* The same as JSON text (pf_jw), where a view or a state is written. */
void pf_to_move_write(pf_jw *w, int to_move);
/* The canonical strings of the legal moves of the seat to move, as a JSON array (empty when no
 * seat is to move). */
json_t *pf_legal_json(const pf_game *g, const void *st);
void pf_legal_write(pf_jw *w, const pf_game *g, const void *st);
/* n integers as a JSON array. */
json_t *pf_ints_json(const int *v, int n);

/* ---- the zones of the view: every place cards lie (docs/views.md) ---- */

typedef enum { PF_FAN, PF_STACK } pf_layout; /* every card side by side, or a pile: top and count */

/* A zone of the view's "zones", written by a game's view_write: pf_zone_open writes its id
 * (unique in the view and stable across the game: "hand:2"), kind (docs/views.md lists them),
 * owner (a seat, or -1 for none) and label for people, up to its "cards" (opening "zones" at the
 * view's first zone); the game then writes the cards, bottom first (pf_card_write, or
 * pf_card_write_seen where the viewer may not see one), then the optional fields below, then
 * pf_zone_close, which writes the cards' "texts" in a game whose cards have them. The layout
 * follows the cards. */
void pf_zone_open(pf_jw *w, const char *id, const char *kind, int owner, const char *label, pf_layout layout);
/* A card in the game's notation ("7H", Point-a-Pile's "R:G34"); pf_card_write_seen writes null
 * where the viewer does not see it. A zone's cards are written only with these (its "texts"
 * follow them). */
void pf_card_write(pf_jw *w, pf_card c);
void pf_card_write_seen(pf_jw *w, pf_card c, bool seen);
/* The zone's place in a grid: row and column, from 0 (Piles' castle). */
void pf_zone_write_grid(pf_jw *w, int row, int col);
/* A number the game gives the zone (a Piles castle pile's value), and what it is in words for
 * people: `says` is a printf format of one %lld, the value ("value %lld", "takes %lld next"),
 * written as the zone's "value_text" (docs/views.md). */
void pf_zone_write_value(pf_jw *w, long long value, const char *says);
/* Short extra text ("locked", "12 points"). */
void pf_zone_write_note(pf_jw *w, const char *note);
void pf_zone_close(pf_jw *w);

/* ---- the view's "end": what the game's end did (docs/views.md, "End events") ---- */

/* Once the game is over, a game whose end changes the table or decides the result in a way the
 * last move does not show (the open piles shared out, STP-6; a mission met, PAP-9) writes its
 * events, before its zones: pf_end_open, then for each event pf_end_event, the event's own data
 * fields (pf_jw_key ...), and pf_end_say; then pf_end_close. Every event is public. */
void pf_end_open(pf_jw *w);
/* Opens an event: its "kind" ("open_piles_shared") and "rule", the ruling it carries out. */
void pf_end_event(pf_jw *w, const char *kind, const char *rule);
/* Closes the event with its words for people: `say`, where {N} stands for seat N, is written as
 * "text" (seat N told as "seat N", "Seat N" where a sentence begins) and as "words", its pieces in order: strings,
 * and {"seat": N} for each seat, which a page names as it names seats. */
void pf_end_say(pf_jw *w, const char *say);
void pf_end_close(pf_jw *w);

#endif
