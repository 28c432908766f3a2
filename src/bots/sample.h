/*
 * sample.h - a position as text, for another process of the same build: how the exec bot hands
 * its program determinizations for its seat (docs/botproto.md), and how `import pilfer` reads
 * them back (state.serialize, game.deserialize_state).
 *
 * The text is "pilfer-state 1 GAME SIZE HEX CHECK": the game's id, its state_size, the state's
 * bytes in hexadecimal, and an FNV-1a hash of all that before it. Only a position whose game
 * reads no explicit deal can be written (no deals given, or a determinization, which forgets
 * them: game.h), since the deals are outside the state. Reading checks the game, size and hash
 * and then the game's own check, so a damaged or mistaken text is refused; it is meant for text
 * this code wrote, not for forgeries.
 */
#ifndef PF_SAMPLE_H
#define PF_SAMPLE_H

#include "core/game.h"

/* Appends the text of position st to out. */
void pf_sample_write(const pf_game *g, const void *st, pf_buf *out);
/* Reads a text of pf_sample_write into st (state_size bytes), or refuses it saying why. */
int pf_sample_read(const pf_game *g, const char *text, void *st, pf_error *err);

#endif
