/*
 * record.h - game records (SPEC §2), read and written with jansson.
 */
#ifndef PF_RECORD_H
#define PF_RECORD_H

#include "core/run.h"

typedef struct pf_record {
  const pf_game *game;
  pf_setup setup;       /* setup.deals points into deals below */
  bool has_seed;
  pf_deal *deals;       /* owned */
  char **moves;         /* owned */
  int nmoves;
  bool has_result;
  int scores[PF_MAX_PLAYERS];
  int winners[PF_MAX_PLAYERS];
  int nwinners;
} pf_record;

/* How a record's "game" is found by its id: NULL for an unknown one. The core knows no game; the
 * registry's lookup is pf_game_find, and games/registry.h reads records with it
 * (pf_record_parse, pf_record_load). */
typedef const pf_game *(*pf_game_lookup)(const char *id);

/* Reads a record from JSON text, finding its game with `find`. Every problem is reported with
 * where it is ("deals[0][7]: 'XX' is not a card", "line 3 column 5: ..."); on failure rec holds
 * nothing to free. */
int pf_record_read(const char *text, size_t len, pf_game_lookup find, pf_record *rec, pf_error *err);
/* As pf_record_read, from a file ("-" is standard input); messages start with the path. */
int pf_record_read_file(const char *path, pf_game_lookup find, pf_record *rec, pf_error *err);
void pf_record_free(pf_record *rec);

/* Starts the recorded game and plays its moves, stopping after `until` moves (-1: all of them).
 * A move that is not legal fails with "move K ("<move>"): <reason>", K counting from 1, and the
 * run is left at the position before it. On failure to start, run holds nothing to free. */
int pf_record_replay(const pf_record *rec, int until, pf_run *run, int *failed_move,
                     pf_error *err);
/* Compares the recorded result with the run's: fails, saying how they differ, if the record has a
 * result and the game did not end so. */
int pf_record_check_result(const pf_record *rec, const pf_run *run, pf_error *err);

/* The record of a run: every option, seed, every deal used, every move, and the result when the
 * game is over: written compact to w, as a value to read (caller owns it), or appended to out as
 * a record file's text (indented by one space; 0, or -1 when a string is not UTF-8). */
struct pf_jw;
void pf_record_write(struct pf_jw *w, const pf_run *run);
json_t *pf_record_json(const pf_run *run);
int pf_record_text(const pf_run *run, pf_buf *out);
/* Every option of a game as a JSON object, as records write them. */
json_t *pf_record_options_json(const pf_game *g, const pf_options *options);
struct pf_jw;
void pf_record_options_write(struct pf_jw *w, const pf_game *g, const pf_options *options);
/* Reads options written so (NULL: all defaults; options not named keep their defaults); the
 * message names a bad key or value. */
int pf_record_options_read(json_t *o, const pf_game *g, pf_options *out, pf_error *err);
/* Writes the record of a run to a file (pretty-printed, one move list line). */
int pf_record_save(const pf_run *run, const char *path, pf_error *err);

#endif
