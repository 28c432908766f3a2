/*
 * record.c - reading, writing and replaying game records. The core knows no game: a record's
 * "game" is found through the lookup the caller gives (games/registry.h gives the registry's).
 */
#include "core/record.h"

#include "core/jsontext.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/view.h"

/* ---- reading ---- */

/* Deal k of a record, in the notation of the game's cards (own). */
static int read_deal(const pf_card_notation *own, json_t *arr, int k, pf_deal *d, pf_error *err) {
  if (!json_is_array(arr)) return pf_fail(err, "deals[%d]: expected an array of cards", k);
  size_t n = json_array_size(arr);
  if (n > PF_MAX_DEAL)
    return pf_fail(err, "deals[%d]: %zu cards; no game deals more than %d", k, n, PF_MAX_DEAL);
  d->ncards = (int)n;
  for (size_t i = 0; i < n; i++) {
    json_t *c = json_array_get(arr, i);
    if (!json_is_string(c)) return pf_fail(err, "deals[%d][%zu]: expected a card string", k, i);
    if (pf_card_parse_in(own, json_string_value(c), &d->cards[i]) != 0)
      return pf_fail(err, "deals[%d][%zu]: '%s' is not a card", k, i, json_string_value(c));
  }
  return 0;
}

int pf_record_options_read(json_t *o, const pf_game *g, pf_options *out, pf_error *err) {
  pf_options_default(g->options, g->noptions, out);
  if (!o) return 0;
  if (!json_is_object(o)) return pf_fail(err, "options: expected an object");
  const char *key;
  json_t *val;
  json_object_foreach(o, key, val) {
    int i = pf_option_find(g->options, g->noptions, key);
    if (i < 0 || strchr(key, '=')) {
      char kv[160];
      snprintf(kv, sizeof kv, "%.100s=0", key);
      pf_option_parse_kv(g->options, g->noptions, kv, out, err);
      pf_error_prefix(err, "options");
      return -1;
    }
    const pf_option_desc *d = &g->options[i];
    int64_t v;
    if (d->type == PF_OPT_BOOL && json_is_boolean(val))
      v = json_is_true(val);
    else if (d->type == PF_OPT_INT && json_is_integer(val))
      v = json_integer_value(val);
    else
      return pf_fail(err, "options.%s: expected %s", key,
                     d->type == PF_OPT_BOOL ? "true or false" : "an integer");
    if (pf_option_check(d, v, err) != 0) {
      pf_error_prefix(err, "options.%s", key);
      return -1;
    }
    out->v[i] = v;
  }
  return 0;
}

static int read_int_list(json_t *a, const char *what, int *out, int max, int *n, pf_error *err) {
  if (!json_is_array(a)) return pf_fail(err, "%s: expected an array of integers", what);
  if ((int)json_array_size(a) > max)
    return pf_fail(err, "%s: %zu entries; at most %d", what, json_array_size(a), max);
  *n = (int)json_array_size(a);
  for (int i = 0; i < *n; i++) {
    json_t *x = json_array_get(a, (size_t)i);
    if (!json_is_integer(x) || json_integer_value(x) < INT32_MIN ||
        json_integer_value(x) > INT32_MAX)
      return pf_fail(err, "%s[%d]: expected an integer", what, i);
    out[i] = (int)json_integer_value(x);
  }
  return 0;
}

static int read_result(json_t *res, pf_record *rec, pf_error *err) {
  if (!json_is_object(res)) return pf_fail(err, "result: expected an object");
  int n;
  json_t *s = json_object_get(res, "scores"), *w = json_object_get(res, "winners");
  if (!s || !w) return pf_fail(err, "result: needs both 'scores' and 'winners'");
  if (read_int_list(s, "result.scores", rec->scores, PF_MAX_PLAYERS, &n, err) != 0) return -1;
  if (n != rec->setup.players)
    return pf_fail(err, "result.scores: %d scores for %d players", n, rec->setup.players);
  if (read_int_list(w, "result.winners", rec->winners, PF_MAX_PLAYERS, &rec->nwinners, err) != 0)
    return -1;
  for (int i = 0; i < rec->nwinners; i++)
    if (rec->winners[i] < 0 || rec->winners[i] >= rec->setup.players)
      return pf_fail(err, "result.winners[%d]: %d is not a seat", i, rec->winners[i]);
  rec->has_result = true;
  return 0;
}

static int read_record(json_t *root, pf_game_lookup find, pf_record *rec, pf_error *err) {
  if (!json_is_object(root)) return pf_fail(err, "a record is a JSON object");
  json_t *jg = json_object_get(root, "game");
  if (!json_is_string(jg)) return pf_fail(err, "game: expected the game's id, a string");
  rec->game = find(json_string_value(jg));
  if (!rec->game) return pf_fail(err, "game: unknown game '%s'", json_string_value(jg));
  const pf_game *g = rec->game;

  json_t *jp = json_object_get(root, "players");
  if (!json_is_integer(jp)) return pf_fail(err, "players: expected an integer");
  json_int_t players = json_integer_value(jp);
  if (pf_check_players(g, (long long)players, err) != 0) {
    pf_error_prefix(err, "players");
    return -1;
  }
  rec->setup.players = (int)players;

  if (pf_record_options_read(json_object_get(root, "options"), g, &rec->setup.options, err) != 0)
    return -1;

  json_t *js = json_object_get(root, "seed");
  if (js && !json_is_null(js)) {
    if (!json_is_integer(js) || json_integer_value(js) < 0)
      return pf_fail(err, "seed: expected a non-negative integer");
    rec->setup.seed = (uint64_t)json_integer_value(js);
    rec->has_seed = true;
  }

  json_t *jd = json_object_get(root, "deals");
  if (jd) {
    if (!json_is_array(jd)) return pf_fail(err, "deals: expected an array of deck orders");
    size_t n = json_array_size(jd);
    if (n > PF_MAX_DEALS) return pf_fail(err, "deals: %zu deals; at most %d", n, PF_MAX_DEALS);
    rec->deals = pf_xcalloc(n ? n : 1, sizeof *rec->deals);
    for (size_t k = 0; k < n; k++)
      if (read_deal(g->cards, json_array_get(jd, k), (int)k, &rec->deals[k], err) != 0) return -1;
    rec->setup.deals = rec->deals;
    rec->setup.ndeals = (int)n;
  }

  json_t *jm = json_object_get(root, "moves");
  if (!json_is_array(jm)) return pf_fail(err, "moves: expected an array of move strings");
  size_t n = json_array_size(jm);
  rec->moves = pf_xcalloc(n ? n : 1, sizeof *rec->moves);
  for (size_t i = 0; i < n; i++) {
    json_t *m = json_array_get(jm, i);
    if (!json_is_string(m)) return pf_fail(err, "moves[%zu]: expected a string", i);
    if (strlen(json_string_value(m)) >= PF_MOVE_STR)
      return pf_fail(err, "moves[%zu]: too long to be a move", i);
    rec->moves[rec->nmoves++] = pf_xstrdup(json_string_value(m));
  }

  json_t *jr = json_object_get(root, "result");
  if (jr && !json_is_null(jr) && read_result(jr, rec, err) != 0) return -1;
  return 0;
}

int pf_record_read(const char *text, size_t len, pf_game_lookup find, pf_record *rec, pf_error *err) {
  memset(rec, 0, sizeof *rec);
  json_error_t jerr;
  json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
  if (!root)
    return pf_fail(err, "not valid JSON: line %d column %d: %s", jerr.line, jerr.column,
                   jerr.text);
  int rc = read_record(root, find, rec, err);
  json_decref(root);
  if (rc != 0) pf_record_free(rec);
  return rc;
}

int pf_record_read_file(const char *path, pf_game_lookup find, pf_record *rec, pf_error *err) {
  pf_buf b = {0};
  memset(rec, 0, sizeof *rec);
  if (pf_buf_read_file(&b, path, err) != 0) {
    pf_buf_free(&b);
    return -1;
  }
  int rc = pf_record_read(pf_buf_str(&b), b.len, find, rec, err);
  pf_buf_free(&b);
  if (rc != 0) pf_error_prefix(err, "%s", path);
  return rc;
}

void pf_record_free(pf_record *rec) {
  for (int i = 0; i < rec->nmoves; i++) free(rec->moves[i]);
  free(rec->moves);
  free(rec->deals);
  memset(rec, 0, sizeof *rec);
}

/* ---- replaying ---- */

int pf_record_replay(const pf_record *rec, int until, pf_run *run, int *failed_move,
                     pf_error *err) {
  if (failed_move) *failed_move = 0;
  if (pf_run_start(run, rec->game, &rec->setup, err) != 0) {
    pf_error_prefix(err, "cannot start the game");
    return -1;
  }
  int n = until >= 0 && until < rec->nmoves ? until : rec->nmoves;
  for (int i = 0; i < n; i++) {
    pf_error e;
    if (pf_run_play_text(run, rec->moves[i], &e) != 0) {
      if (failed_move) *failed_move = i + 1;
      return pf_fail(err, "move %d (\"%s\"): %s", i + 1, rec->moves[i], e.msg);
    }
  }
  return 0;
}

static void list_text(const int *v, int n, pf_buf *b) {
  pf_buf_putc(b, '[');
  for (int i = 0; i < n; i++) pf_buf_join_item(b, i, "%d", v[i]);
  pf_buf_putc(b, ']');
}

int pf_record_check_result(const pf_record *rec, const pf_run *run, pf_error *err) {
  if (!rec->has_result) return 0;
  const pf_game *g = run->game;
  if (g->to_move(run->state) != PF_NOBODY)
    return pf_fail(err, "the record has a result but the game is not over after its %d moves",
                   rec->nmoves);
  int scores[PF_MAX_PLAYERS], winners[PF_MAX_PLAYERS];
  g->scores(run->state, scores);
  int nw = g->winners(run->state, winners);
  int players = run->setup.players;
  bool same = nw == rec->nwinners && memcmp(scores, rec->scores, (size_t)players * sizeof *scores) == 0 &&
              memcmp(winners, rec->winners, (size_t)nw * sizeof *winners) == 0;
  if (same) return 0;
  pf_buf b = {0};
  pf_buf_puts(&b, "the result differs: the record says scores ");
  list_text(rec->scores, players, &b);
  pf_buf_puts(&b, " winners ");
  list_text(rec->winners, rec->nwinners, &b);
  pf_buf_puts(&b, ", the replay gives scores ");
  list_text(scores, players, &b);
  pf_buf_puts(&b, " winners ");
  list_text(winners, nw, &b);
  pf_fail(err, "%s", pf_buf_str(&b));
  pf_buf_free(&b);
  return -1;
}

/* ---- writing ---- */

json_t *pf_record_options_json(const pf_game *g, const pf_options *options) {
  json_t *opts = json_object();
  for (int i = 0; i < g->noptions; i++) {
    const pf_option_desc *d = &g->options[i];
    int64_t v = options->v[i];
    json_object_set_new(opts, d->name, d->type == PF_OPT_BOOL ? json_boolean(v) : json_integer(v));
  }
  return opts;
}

void pf_record_options_write(pf_jw *w, const pf_game *g, const pf_options *options) {
  pf_jw_open(w, '{');
  for (int i = 0; i < g->noptions; i++) {
    const pf_option_desc *d = &g->options[i];
    pf_jw_key(w, d->name);
    if (d->type == PF_OPT_BOOL)
      pf_jw_bool(w, options->v[i] != 0);
    else
      pf_jw_int(w, options->v[i]);
  }
  pf_jw_close(w, '}');
}

void pf_record_write(pf_jw *w, const pf_run *run) {
  const pf_game *g = run->game;
  pf_jw_open(w, '{');
  pf_jw_key_str(w, "game", g->id);
  pf_jw_key_int(w, "players", run->setup.players);
  pf_jw_key(w, "options");
  pf_record_options_write(w, g, &run->setup.options);
  pf_jw_key_int(w, "seed", (json_int_t)run->setup.seed);
  pf_jw_key(w, "deals");
  pf_jw_open(w, '[');
  for (int k = 0; k < run->ndeals; k++) {
    pf_jw_open(w, '[');
    for (int i = 0; i < run->deals[k].ncards; i++) {
      char s[PF_CARD_STR];
      pf_jw_str(w, pf_card_str_in(g->cards, run->deals[k].cards[i], s));
    }
    pf_jw_close(w, ']');
  }
  pf_jw_close(w, ']');
  pf_jw_key(w, "moves");
  pf_jw_open(w, '[');
  for (int i = 0; i < run->nmoves; i++) pf_jw_str(w, run->moves[i]);
  pf_jw_close(w, ']');
  if (g->to_move(run->state) == PF_NOBODY) {
    int scores[PF_MAX_PLAYERS], winners[PF_MAX_PLAYERS];
    g->scores(run->state, scores);
    int nw = g->winners(run->state, winners);
    pf_jw_key(w, "result");
    pf_jw_open(w, '{');
    pf_jw_key(w, "scores");
    pf_jw_ints(w, scores, run->setup.players);
    pf_jw_key(w, "winners");
    pf_jw_ints(w, winners, nw);
    pf_jw_close(w, '}');
  }
  pf_jw_close(w, '}');
}

json_t *pf_record_json(const pf_run *run) {
  pf_buf b = {0};
  pf_jw w = {.b = &b};
  pf_record_write(&w, run);
  return pf_jw_load(&w);
}

int pf_record_text(const pf_run *run, pf_buf *out) {
  size_t from = out->len;
  pf_jw w = {.b = out};
  pf_record_write(&w, run);
  pf_jw_format(out, from, 1, false);
  return w.rc;
}

int pf_record_save(const pf_run *run, const char *path, pf_error *err) {
  pf_buf text = {0};
  int rc = pf_record_text(run, &text);
  /* Written to a temporary file first and renamed, so a failure never leaves half a record. */
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = rc == 0 ? fopen(tmp, "w") : NULL;
  if (!f || fwrite(pf_buf_str(&text), 1, text.len, f) != text.len) rc = -1;
  if (f && fclose(f) != 0) rc = -1;
  pf_buf_free(&text);
  if (rc != 0 || rename(tmp, path) != 0) {
    remove(tmp);
    return pf_fail(err, "%s: cannot write the record: %s", path, strerror(errno));
  }
  return 0;
}
