/*
 * text.h - text people write: names and chat (docs/protocol.md, "Names" and "chat"). Checks
 * only: what a message may hold, and why not.
 */
#ifndef PF_SERVER_TEXT_H
#define PF_SERVER_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Checks text a person wrote (a name, a chat message) and copies it into out, trimmed of white
 * space at both ends: 1 to max characters, valid UTF-8, no control character, at least one that
 * shows (not only blanks, fillers and format characters). -1 with why. */
int pf_text_check(const char *in, size_t n, int max, char *out, size_t outsz, char *why, size_t whysz);

#endif
