/*
 * text.h - text people write: names and chat (docs/protocol.md, "Names" and "chat"). Checks
 * only: what a message may hold, and why not.
 */
#ifndef PF_SERVER_TEXT_H
#define PF_SERVER_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* What a person may write, in characters (Unicode code points) after trimming: the one home of
 * these numbers, which the page reads from GET /api/limits (docs/protocol.md, "Names and chat
 * text"). A name is kept in NAME_BYTES (4 bytes a character at most, and the NUL). */
#define NAME_CHARS 24  /* a display name */
#define CHAT_CHARS 300 /* a chat message */
#define NAME_BYTES (4 * NAME_CHARS + 1)

/* Checks text a person wrote (a name, a chat message) and copies it into out, trimmed of white
 * space at both ends: 1 to max characters, valid UTF-8, no control character, at least one that
 * shows (not only blanks, fillers and format characters). -1 with why. */
int pf_text_check(const char *in, size_t n, int max, char *out, size_t outsz, char *why, size_t whysz);

#endif
