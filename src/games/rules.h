/*
 * rules.h - the rules of every game, as a person learns them: the text of src/games/rules/<id>.md,
 * embedded at build time (cmake/embed.cmake) as a char array, since C17 promises only 4,095
 * characters in one string literal. A game's descriptor points its `rules` at its array.
 *
 * The texts are written in a small subset of Markdown, which `pilfer rules` prints as plain text
 * (src/cli/cli_rules.c) and the web page shows formatted (web/js/markup.js); GET /api/rules/GAME
 * serves it as it is. A line is:
 *   - `# Title`, `## Section`, `### Part`: a heading, on one line;
 *   - `- text`: a list item, continued by the lines after it that start with two spaces;
 *     consecutive items make one list;
 *   - `| a | b |`: a table row; a table is its header row, a row of dashes (`|---|---|`) and its
 *     body rows, one line each (at most 12 columns and 64 lines: the terminal drops the rest);
 *   - blank: the end of a paragraph, list or table;
 *   - anything else: paragraph text, joined with the paragraph's other lines by a space.
 * Within a line, `text in backquotes` is what a player types (a move, an option). Nothing else is
 * markup: no emphasis, no links, no nesting. The text is UTF-8.
 *
 * A game's text tells the object of the game first, then the set-up, a turn, scoring and the end,
 * each sentence that carries a ruling of ../shared/rules/RULINGS.md ending with its id; what
 * pilfer decided where the rulings are silent (docs/rules-notes.md) reads "pilfer plays it this
 * way: ...".
 */
#ifndef PF_RULES_H
#define PF_RULES_H

/* A game declares its own text next to its descriptor (registry.c is the one list of games):
 * PF_RULES_TEXT(pf_rules_thief); from src/games/rules/thief.md. */
#define PF_RULES_TEXT(name) extern const char name[]


#endif
