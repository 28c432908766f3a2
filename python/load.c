/*
 * load.c - the states read back from text (docs/python.md): deserialize_state and load_record
 * (a serialized state or a record, replayed through the game's checks) and State.from_sample (a
 * determinization the bot protocol sent, read under its MAC). Nothing in a text is trusted.
 */
#include "pilfer.h"

#include <string.h>

#include "bots/sample.h"
#include "games/registry.h"

#define MAX_RESAMPLES 1024 /* resamples a serialized state may hold */

/* Reads "resamples" of a serialized state (NULL: none) into rs (MAX_RESAMPLES entries). */
static int read_resamples(json_t *a, const pf_record *rec, resample *rs, int *n, pf_error *err) {
  *n = 0;
  if (!a || json_is_null(a)) return 0;
  if (!json_is_array(a)) return pf_fail(err, "resamples: expected an array");
  if (json_array_size(a) > MAX_RESAMPLES) return pf_fail(err, "resamples: %zu of them; at most %d", json_array_size(a), MAX_RESAMPLES);
  size_t i;
  json_t *r;
  json_array_foreach(a, i, r) {
    json_t *at = json_object_get(r, "at"), *seat = json_object_get(r, "seat"), *seed = json_object_get(r, "seed");
    int prev = i ? rs[i - 1].at : 0;
    if (!json_is_integer(at) || json_integer_value(at) < prev || json_integer_value(at) > rec->nmoves)
      return pf_fail(err, "resamples[%zu].at: expected a move number from %d to %d", i, prev, rec->nmoves);
    if (!json_is_integer(seat) || json_integer_value(seat) < 0 || json_integer_value(seat) >= rec->setup.players)
      return pf_fail(err, "resamples[%zu].seat: expected a seat from 0 to %d", i, rec->setup.players - 1);
    if (!json_is_integer(seed) || json_integer_value(seed) < 0)
      return pf_fail(err, "resamples[%zu].seed: expected an integer from 0 to 2^63 - 1", i);
    rs[i] = (resample){(int32_t)json_integer_value(at), (int32_t)json_integer_value(seat), (uint64_t)json_integer_value(seed)};
  }
  *n = (int)json_array_size(a);
  return 0;
}

/* The state a serialized state or record (its JSON text) describes: its game started from its
 * setup, and every move played through the game's legality checks (move_parse, chance_apply),
 * with the resamples at their places; its result, when it has one, checked. Nothing in the text
 * is trusted: the state is the engine's own. `want`, when given, is the game it must be of. */
PyObject *pfpy_state_from_text(GameObject *want, const char *text, size_t len) {
  pf_record rec;
  pf_error err;
  resample rs[MAX_RESAMPLES];
  int nrs = 0;
  if (pf_record_parse(text, len, &rec, &err) != 0) return pfpy_fail(&err);
  json_t *root = json_loadb(text, len, 0, NULL);
  int bad = read_resamples(json_object_get(root, "resamples"), &rec, rs, &nrs, &err);
  json_decref(root);
  if (!bad && want &&
      (rec.game != want->g || rec.setup.players != want->players ||
       memcmp(rec.setup.options.v, want->options.v, (size_t)want->g->noptions * sizeof want->options.v[0]) != 0))
    bad = pf_fail(&err, "a state of %s for %d players with its options, not of this game (%s for %d)",
                  rec.game->id, rec.setup.players, want->g->id, want->players);
  GameObject *game = bad ? NULL : want ? (GameObject *)Py_NewRef(want)
                                       : pfpy_game_new(rec.game, rec.setup.players, &rec.setup.options, rec.setup.seed);
  StateObject *s = game ? (StateObject *)pfpy_state_start(game, &rec.setup) : NULL;
  Py_XDECREF(game);
  if (s && nrs && !(s->rs = PyMem_Malloc((size_t)nrs * sizeof *s->rs))) {
    Py_CLEAR(s);
    PyErr_NoMemory();
  }
  for (int i = 0, r = 0; s && !bad; i++) {
    for (; r < nrs && rs[r].at == i; r++) {
      pfpy_determinize(s->g, s->st, rs[r].seat, rs[r].seed);
      s->rs[s->nrs++] = rs[r];
      pfpy_state_forget(s);
    }
    if (i == rec.nmoves) break;
    if (pfpy_state_play_text(s, rec.moves[i], &err) != 0) {
      pf_error_prefix(&err, "move %d (\"%s\")", i + 1, rec.moves[i]);
      bad = -1;
    }
  }
  if (s && !bad && rec.has_result) {
    pf_run end = {.game = s->g, .setup = s->setup, .state = s->st}; /* read only */
    bad = pf_record_check_result(&rec, &end, &err);
  }
  pf_record_free(&rec);
  if (bad) {
    Py_XDECREF(s);
    return pfpy_fail(&err);
  }
  return (PyObject *)s;
}

/* State.from_sample(game, text, key): a determinization the bot protocol sent (bots/sample.h),
 * read only once its MAC under key has matched, then checked by the game. */
PyObject *pfpy_state_from_sample(PyObject *unused, PyObject *args) {
  (void)unused;
  GameObject *game;
  const char *text, *keytext;
  Py_ssize_t len, keylen;
  if (!PyArg_ParseTuple(args, "O!s#s#:from_sample", &pfpy_GameType, &game, &text, &len, &keytext, &keylen)) return NULL;
  pf_error err;
  uint8_t key[PF_SIPHASH_KEY];
  if (pf_sample_key_parse(keytext, (size_t)keylen, key, &err) != 0) return pfpy_fail(&err);
  StateObject *s = pfpy_state_alloc(game);
  if (!s) return NULL;
  s->setup = (pf_setup){.players = game->players, .options = game->options};
  s->sampled = true;
  if (pf_sample_read(game->g, game->players, text, (size_t)len, key, s->st, &err) != 0) {
    Py_DECREF(s);
    return pfpy_fail(&err);
  }
  return (PyObject *)s;
}

/* load_record(source): a record's JSON text (or a serialized state), or the path of a record
 * file; the state after its last move, replayed and checked as `pilfer replay` does. */
PyObject *pfpy_load_record(PyObject *mod, PyObject *arg) {
  (void)mod;
  Py_ssize_t len;
  const char *src = PyUnicode_Check(arg) ? PyUnicode_AsUTF8AndSize(arg, &len) : NULL;
  if (!src) {
    PyErr_Clear();
    PyErr_SetString(pfpy_Error, "load_record: give a record's JSON text or a file's path, as a str");
    return NULL;
  }
  if (src[strspn(src, " \t\r\n")] == '{') return pfpy_state_from_text(NULL, src, (size_t)len);
  pf_buf b = {0};
  pf_error err;
  PyObject *out = NULL;
  if (pf_buf_read_file(&b, src, &err) != 0) {
    pfpy_fail(&err);
  } else if (!(out = pfpy_state_from_text(NULL, pf_buf_str(&b), b.len))) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_Format(pfpy_Error, "%s: %S", src, value);
    Py_XDECREF(type), Py_XDECREF(value), Py_XDECREF(tb);
  }
  pf_buf_free(&b);
  return out;
}
