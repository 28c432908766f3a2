/*
 * state.c - pilfer.State (docs/python.md): a position of a game and its history as move codes,
 * with OpenSpiel's methods over it; its views and observation tensors, its record, its
 * serialization and the states read back from text (deserialize_state, load_record, from_sample).
 */
#include "pilfer.h"

#define NO_IMPORT_ARRAY
#include <numpy/arrayobject.h>

#include <string.h>

#include "bots/sample.h"
#include "core/run.h"
#include "core/view.h"
#include "games/registry.h"

/* ------------------------------------------------------------------------------------------ */
/* State                                                                                      */
/* ------------------------------------------------------------------------------------------ */

static StateObject *state_alloc(GameObject *game) {
  StateObject *s = PyObject_New(StateObject, &pfpy_StateType);
  if (!s) return NULL;
  Py_INCREF(game);
  s->game = game;
  s->g = game->g;
  s->players = game->players;
  s->deals = NULL;
  s->hist = NULL;
  s->nhist = s->caphist = 0;
  s->chance = NULL;
  s->nchance = s->capchance = 0;
  s->rs = NULL;
  s->nrs = 0;
  s->sampled = false;
  s->nlegal = -1;
  s->track = NULL;
  s->st = PyMem_Calloc(1, game->g->state_size);
  if (!s->st) {
    Py_DECREF(s);
    return (StateObject *)PyErr_NoMemory();
  }
  return s;
}

PyObject *pfpy_state_start(GameObject *game, const pf_setup *setup) {
  StateObject *s = state_alloc(game);
  if (!s) return NULL;
  s->setup = *setup;
  if (setup->ndeals) {
    s->deals = PyBytes_FromStringAndSize((const char *)setup->deals, (Py_ssize_t)setup->ndeals * (Py_ssize_t)sizeof *setup->deals);
    if (!s->deals) {
      Py_DECREF(s);
      return NULL;
    }
    s->setup.deals = (const pf_deal *)PyBytes_AS_STRING(s->deals);
  }
  pf_error err;
  if (s->g->start(s->st, &s->setup, &err) != 0) {
    Py_DECREF(s);
    return pfpy_fail(&err);
  }
  return (PyObject *)s;
}

static void state_dealloc(StateObject *s) {
  PyMem_Free(s->st);
  Py_XDECREF(s->deals);
  PyMem_Free(s->hist);
  PyMem_Free(s->chance);
  PyMem_Free(s->rs);
  pfpy_track_free(s->track);
  Py_XDECREF(s->game);
  PyObject_Del(s);
}

static int push_step(StateObject *s, int who, uint32_t code) {
  if (s->nhist == s->caphist) {
    int cap = s->caphist ? 2 * s->caphist : 128;
    step *h = PyMem_Realloc(s->hist, (size_t)cap * sizeof *h);
    if (!h) return PyErr_NoMemory(), -1;
    s->hist = h;
    s->caphist = cap;
  }
  s->hist[s->nhist++] = (step){who, code};
  return 0;
}

/* Notes a chance outcome just played (its canonical string). */
static int push_chance(StateObject *s, const char *canon) {
  if (s->nchance == s->capchance) {
    int cap = s->capchance ? 2 * s->capchance : 16;
    char(*c)[PF_MOVE_STR] = PyMem_Realloc(s->chance, (size_t)cap * sizeof *c);
    if (!c) return PyErr_NoMemory(), -1;
    s->chance = c;
    s->capchance = cap;
  }
  snprintf(s->chance[s->nchance], PF_MOVE_STR, "%s", canon);
  return push_step(s, PF_CHANCE, (uint32_t)s->nchance++);
}

static int ensure_legal(StateObject *s) {
  if (s->nlegal < 0) s->nlegal = s->g->to_move(s->st) >= 0 ? s->g->legal(s->st, s->legal) : 0;
  return s->nlegal;
}

static int spiel_player(int who) { return who >= 0 ? who : who == PF_CHANCE ? SPIEL_CHANCE : SPIEL_TERMINAL; }

/* A seat number from Python: 0 .. players - 1. */
static int read_seat(StateObject *s, PyObject *v, int *seat) {
  long p = PyLong_Check(v) ? PyLong_AsLong(v) : -1;
  if (PyErr_Occurred()) PyErr_Clear(), p = -1;
  if (!PyLong_Check(v) || p < 0 || p >= s->players) {
    PyErr_Format(pfpy_Error, "a player is a seat from 0 to %d", s->players - 1);
    return -1;
  }
  *seat = (int)p;
  return 0;
}

/* An action from Python: a legal move of the seat to move (or 0 at a chance node). */
static int read_action(StateObject *s, PyObject *v, pf_move *m) {
  int who = s->g->to_move(s->st);
  if (who == PF_NOBODY) {
    PyErr_SetString(pfpy_Error, "the game is over");
    return -1;
  }
  long long a = PyLong_Check(v) ? PyLong_AsLongLong(v) : -1;
  if (PyErr_Occurred()) PyErr_Clear(), a = -1;
  if (!PyLong_Check(v)) {
    PyErr_SetString(pfpy_Error, "an action is an int");
    return -1;
  }
  if (who == PF_CHANCE) {
    if (a != 0) {
      PyErr_Format(pfpy_Error, "%lld is not a chance outcome here: the only one is 0 (the state's generator draws it)",
                   a);
      return -1;
    }
    *m = 0;
    return 0;
  }
  int n = ensure_legal(s);
  for (int i = 0; i < n; i++)
    if ((long long)s->legal[i] == a) return *m = s->legal[i], 0;
  PyErr_Format(pfpy_Error, "%lld is not a legal action of seat %d here", a, who);
  return -1;
}

/* Plays action m (read_action's) and notes it. */
static int play(StateObject *s, pf_move m) {
  int who = s->g->to_move(s->st);
  s->nlegal = -1;
  if (who == PF_CHANCE) {
    char canon[PF_MOVE_STR];
    s->g->chance_sample(s->st, canon);
    return push_chance(s, canon);
  }
  s->g->apply(s->st, m);
  return push_step(s, who, m);
}

/* Plays a move or chance outcome given as text, as records write them. */
static int play_text(StateObject *s, const char *text, pf_error *err) {
  int who = s->g->to_move(s->st);
  if (who == PF_NOBODY) return pf_fail(err, "the game is over");
  s->nlegal = -1;
  if (who == PF_CHANCE) {
    char canon[PF_MOVE_STR];
    if (!s->g->chance_apply || s->g->chance_apply(s->st, text, canon, err) != 0) return -1;
    if (push_chance(s, canon) != 0) return pf_fail(err, "out of memory");
    return 0;
  }
  pf_move m;
  if (s->g->move_parse(s->st, text, &m, err) != 0) return -1;
  s->g->apply(s->st, m);
  return push_step(s, who, m) == 0 ? 0 : pf_fail(err, "out of memory");
}

static PyObject *st_current_player(StateObject *s, PyObject *unused) {
  (void)unused;
  return PyLong_FromLong(spiel_player(s->g->to_move(s->st)));
}

static PyObject *st_is_terminal(StateObject *s, PyObject *unused) {
  (void)unused;
  return PyBool_FromLong(s->g->to_move(s->st) == PF_NOBODY);
}

static PyObject *st_is_chance_node(StateObject *s, PyObject *unused) {
  (void)unused;
  return PyBool_FromLong(s->g->to_move(s->st) == PF_CHANCE);
}

static PyObject *st_is_simultaneous_node(StateObject *s, PyObject *unused) {
  (void)s, (void)unused;
  Py_RETURN_FALSE; /* simultaneous choices are asked seat by seat (PAP-4) */
}

static PyObject *st_legal_actions(StateObject *s, PyObject *args) {
  PyObject *player = NULL;
  if (!PyArg_ParseTuple(args, "|O", &player)) return NULL;
  int who = s->g->to_move(s->st);
  if (player && player != Py_None) {
    int p;
    if (read_seat(s, player, &p) != 0) return NULL;
    if (p != who) return PyList_New(0);
  }
  if (who == PF_CHANCE) return Py_BuildValue("[i]", 0);
  int n = ensure_legal(s);
  PyObject *list = PyList_New(n);
  if (!list) return NULL;
  for (int i = 0; i < n; i++) {
    PyObject *a = PyLong_FromUnsignedLong(s->legal[i]);
    if (!a) {
      Py_DECREF(list);
      return NULL;
    }
    PyList_SET_ITEM(list, i, a);
  }
  return list;
}

static PyObject *st_apply_action(StateObject *s, PyObject *action) {
  pf_move m;
  if (read_action(s, action, &m) != 0 || play(s, m) != 0) return NULL;
  Py_RETURN_NONE;
}

static PyObject *st_apply_move(StateObject *s, PyObject *args) {
  const char *text;
  if (!PyArg_ParseTuple(args, "s", &text)) return NULL;
  pf_error err;
  if (play_text(s, text, &err) != 0) return pfpy_fail(&err);
  Py_RETURN_NONE;
}

static PyObject *st_chance_outcomes(StateObject *s, PyObject *unused) {
  (void)unused;
  if (s->g->to_move(s->st) != PF_CHANCE) {
    PyErr_SetString(pfpy_Error, "chance_outcomes: this is not a chance node");
    return NULL;
  }
  return Py_BuildValue("[(id)]", 0, 1.0);
}

/* The win shares of the seats when the game is over (zeros before). */
static PyObject *st_returns(StateObject *s, PyObject *unused) {
  (void)unused;
  double r[PF_MAX_PLAYERS] = {0};
  if (s->g->to_move(s->st) == PF_NOBODY) {
    int w[PF_MAX_PLAYERS], n = s->g->winners(s->st, w);
    for (int i = 0; i < n; i++) r[w[i]] = 1.0 / n;
  }
  PyObject *list = PyList_New(s->players);
  for (int p = 0; list && p < s->players; p++) PyList_SET_ITEM(list, p, PyFloat_FromDouble(r[p]));
  return list;
}

static PyObject *st_player_return(StateObject *s, PyObject *player) {
  int p;
  if (read_seat(s, player, &p) != 0) return NULL;
  PyObject *r = st_returns(s, NULL);
  PyObject *v = r ? PyList_GetItem(r, p) : NULL;
  Py_XINCREF(v);
  Py_XDECREF(r);
  return v;
}

static PyObject *st_scores(StateObject *s, PyObject *unused) {
  (void)unused;
  int sc[PF_MAX_PLAYERS];
  s->g->scores(s->st, sc);
  PyObject *list = PyList_New(s->players);
  for (int p = 0; list && p < s->players; p++) PyList_SET_ITEM(list, p, PyLong_FromLong(sc[p]));
  return list;
}

/* The move's string (or, at a chance node, the outcome the state's generator holds). */
static PyObject *action_string(StateObject *s, PyObject *action) {
  pf_move m;
  if (read_action(s, action, &m) != 0) return NULL;
  char buf[PF_MOVE_STR];
  if (s->g->to_move(s->st) == PF_CHANCE) {
    void *copy = PyMem_Malloc(s->g->state_size);
    if (!copy) return PyErr_NoMemory();
    memcpy(copy, s->st, s->g->state_size);
    s->g->chance_sample(copy, buf);
    PyMem_Free(copy);
  } else {
    s->g->move_str(s->st, m, buf);
  }
  return PyUnicode_FromString(buf);
}

/* action_to_string(player, action) or action_to_string(action). */
static PyObject *st_action_to_string(StateObject *s, PyObject *args) {
  PyObject *a, *b = NULL;
  if (!PyArg_ParseTuple(args, "O|O", &a, &b)) return NULL;
  if (b) {
    long p = PyLong_Check(a) ? PyLong_AsLong(a) : -99;
    if (PyErr_Occurred()) PyErr_Clear(), p = -99;
    if (p != spiel_player(s->g->to_move(s->st))) {
      PyErr_SetString(pfpy_Error, "action_to_string: the player must be the one to move (current_player())");
      return NULL;
    }
    a = b;
  }
  return action_string(s, a);
}

/* string_to_action(text) or string_to_action(player, text). */
static PyObject *st_string_to_action(StateObject *s, PyObject *args) {
  PyObject *p = NULL;
  const char *text;
  if (!PyArg_ParseTuple(args, "s", &text)) {
    PyErr_Clear();
    if (!PyArg_ParseTuple(args, "Os", &p, &text)) return NULL;
  }
  int who = s->g->to_move(s->st);
  if (p && (!PyLong_Check(p) || PyLong_AsLong(p) != spiel_player(who))) {
    PyErr_Clear();
    PyErr_SetString(pfpy_Error, "string_to_action: the player must be the one to move (current_player())");
    return NULL;
  }
  if (who == PF_NOBODY) return PyErr_SetString(pfpy_Error, "the game is over"), NULL;
  if (who == PF_CHANCE)
    return PyErr_SetString(pfpy_Error, "string_to_action: chance outcomes have one action, 0"), NULL;
  pf_move m;
  pf_error err;
  if (s->g->move_parse(s->st, text, &m, &err) != 0) return pfpy_fail(&err);
  return PyLong_FromUnsignedLong(m);
}

/* The game's determinize for seat, with a generator seeded by seed: resample_from_infostate's. */
static void determinize(const pf_game *g, void *st, int seat, uint64_t seed) {
  pf_rng rng;
  pf_rng_seed(&rng, seed, 0);
  g->determinize(st, seat, &rng);
}

static StateObject *state_copy(StateObject *s) {
  StateObject *c = state_alloc(s->game);
  if (!c) return NULL;
  c->setup = s->setup;
  c->deals = Py_XNewRef(s->deals);
  memcpy(c->st, s->st, s->g->state_size);
  c->hist = s->nhist ? PyMem_Malloc((size_t)s->nhist * sizeof *c->hist) : NULL;
  c->chance = s->nchance ? PyMem_Malloc((size_t)s->nchance * sizeof *c->chance) : NULL;
  c->rs = s->nrs ? PyMem_Malloc((size_t)s->nrs * sizeof *c->rs) : NULL;
  c->track = s->track ? pfpy_track_copy(s->track) : NULL;
  if ((s->nhist && !c->hist) || (s->nchance && !c->chance) || (s->nrs && !c->rs) || (s->track && !c->track)) {
    Py_DECREF(c);
    return (StateObject *)PyErr_NoMemory();
  }
  if (s->nhist) memcpy(c->hist, s->hist, (size_t)s->nhist * sizeof *c->hist);
  if (s->nchance) memcpy(c->chance, s->chance, (size_t)s->nchance * sizeof *c->chance);
  if (s->nrs) memcpy(c->rs, s->rs, (size_t)s->nrs * sizeof *c->rs);
  c->nhist = c->caphist = s->nhist;
  c->nchance = c->capchance = s->nchance;
  c->nrs = s->nrs;
  c->sampled = s->sampled;
  return c;
}

static PyObject *st_clone(StateObject *s, PyObject *unused) {
  (void)unused;
  return (PyObject *)state_copy(s);
}

static PyObject *st_deepcopy(StateObject *s, PyObject *memo) {
  (void)memo;
  return (PyObject *)state_copy(s);
}

/* The seat argument of the view methods: the seat to move when not given. */
static int view_seat(StateObject *s, PyObject *args, int *seat) {
  PyObject *p = NULL;
  if (!PyArg_ParseTuple(args, "|O", &p)) return -1;
  if (p && p != Py_None) return read_seat(s, p, seat);
  *seat = s->g->to_move(s->st);
  if (*seat < 0) {
    PyErr_SetString(pfpy_Error, "no seat is to move: name the player");
    return -1;
  }
  return 0;
}

/* The table as viewer (a seat, or PF_VIEW_ALL) sees it, in plain text. */
static PyObject *view_text(StateObject *s, int viewer) {
  pf_buf b = {0};
  pf_style plain = {0};
  s->g->view_text(s->st, viewer, &plain, &b);
  PyObject *out = PyUnicode_FromString(pf_buf_str(&b));
  pf_buf_free(&b);
  return out;
}

static PyObject *st_observation_string(StateObject *s, PyObject *args) {
  int seat;
  if (view_seat(s, args, &seat) != 0) return NULL;
  return view_text(s, seat);
}

static PyObject *st_view(StateObject *s, PyObject *args) {
  int seat;
  if (view_seat(s, args, &seat) != 0) return NULL;
  pf_buf b = {0};
  int rc = pf_view_write(&b, s->g, s->st, s->players, seat, NULL);
  PyObject *out = pfpy_json_to_py(&b, rc);
  pf_buf_free(&b);
  return out;
}

/* resample_from_infostate(player, seed): the game's determinize for the seat (game.h). */
static PyObject *st_resample(StateObject *s, PyObject *args) {
  PyObject *p, *seedobj;
  if (!PyArg_ParseTuple(args, "OO", &p, &seedobj)) return NULL;
  int seat;
  uint64_t seed;
  if (read_seat(s, p, &seat) != 0 || pfpy_read_uint63(seedobj, "seed", &seed) != 0) return NULL;
  if (s->track && pfpy_track_ensure(s) != 0) return NULL; /* up to date before the resample (tensor.c) */
  StateObject *c = state_copy(s);
  if (!c) return NULL;
  resample *rs = PyMem_Realloc(c->rs, (size_t)(c->nrs + 1) * sizeof *rs);
  if (!rs) {
    Py_DECREF(c);
    return PyErr_NoMemory();
  }
  c->rs = rs;
  determinize(c->g, c->st, seat, seed);
  /* determinize is canonical (game.h): after one for this seat at this point, the next one gives
   * what it alone would, so it takes the earlier one's place. */
  if (c->nrs && c->rs[c->nrs - 1].at == c->nhist && c->rs[c->nrs - 1].seat == seat) c->nrs--;
  c->rs[c->nrs++] = (resample){c->nhist, seat, seed};
  c->nlegal = -1;
  if (c->track) pfpy_track_resample(c, seat);
  return (PyObject *)c;
}

/* Refuses (-1, with a Python error) a state that has no history: one from a sample. */
static int has_history(StateObject *s, const char *what) {
  if (!s->sampled) return 0;
  PyErr_Format(pfpy_Error, "%s: a state from a sample is a position without a history", what);
  return -1;
}

static PyObject *st_history(StateObject *s, PyObject *unused) {
  (void)unused;
  if (has_history(s, "history") != 0) return NULL;
  PyObject *list = PyList_New(s->nhist);
  for (int i = 0; list && i < s->nhist; i++)
    PyList_SET_ITEM(list, i, PyLong_FromUnsignedLong(s->hist[i].who == PF_CHANCE ? 0 : s->hist[i].code));
  return list;
}

static PyObject *st_move_number(StateObject *s, PyObject *unused) {
  (void)unused;
  return PyLong_FromLong(s->nhist);
}

/* Replays the state's game from its setup in a pf_run, with its resamples at their places; before
 * each step i of the history, and once more at its end (i == nhist), calls visit(ctx, run, i)
 * when it is given. -1 (with a Python error) when it cannot be. */
int pfpy_replay(StateObject *s, pf_run *run, void (*visit)(void *ctx, pf_run *run, int i), void *ctx) {
  pf_error err;
  if (has_history(s, "its history, record or information state") != 0) return -1;
  if (pf_run_start(run, s->g, &s->setup, &err) != 0) return pfpy_fail(&err), -1;
  for (int i = 0, r = 0;; i++) {
    for (; r < s->nrs && s->rs[r].at == i; r++) determinize(s->g, run->state, s->rs[r].seat, s->rs[r].seed);
    if (visit) visit(ctx, run, i);
    if (i == s->nhist) return 0;
    if (s->hist[i].who != PF_CHANCE) {
      pf_run_play(run, s->hist[i].code);
    } else if (pf_run_play_text(run, s->chance[s->hist[i].code], &err) != 0) {
      pf_run_free(run);
      return pfpy_fail(&err), -1; /* cannot be: the same outcome was played in the same position */
    }
  }
}

/* The game as a pf_run, for its record: a state with resamples has none (`pilfer replay` cannot
 * redo them). */
static int to_run(StateObject *s, pf_run *run) {
  if (s->nrs) {
    PyErr_SetString(pfpy_Error, "a state made by resample_from_infostate has no record (`pilfer replay` cannot redo a "
                           "resample): serialize() writes its history with the resamples");
    return -1;
  }
  return pfpy_replay(s, run, NULL, NULL);
}

/* ---- information_state_string: the seat's view and the history as the seat saw it ---- */

/* Appends j's text (a value read back from the view) as compact JSON. */
static void put_json(pf_buf *b, const json_t *j) {
  pf_jw w = {.b = b};
  pf_jw_value(&w, j);
}

static json_t *zone_by_id(json_t *zones, const char *id) {
  size_t i;
  json_t *z;
  json_array_foreach(zones, i, z) {
    const char *zid = json_string_value(json_object_get(z, "id"));
    if (id && zid && strcmp(id, zid) == 0) return z;
  }
  return NULL;
}

/* Appends the fields of zone `now` that differ from zone `old`'s (a field it lost as null), with
 * its id first, as a JSON object. The zones' keys are the view's own, plain ASCII (docs/views.md). */
static void put_fields_changed(pf_buf *b, json_t *old, json_t *now) {
  pf_jw w = {.b = b};
  json_t *v, *id = json_object_get(now, "id");
  const char *key;
  pf_jw_open(&w, '{');
  if (id) pf_jw_key(&w, "id"), pf_jw_value(&w, id); /* equal in both: old was found by it */
  json_object_foreach(now, key, v) {
    if (!json_equal(v, json_object_get(old, key))) pf_jw_key(&w, key), pf_jw_value(&w, v);
  }
  json_object_foreach(old, key, v) if (!json_object_get(now, key)) pf_jw_key(&w, key), pf_jw_null(&w);
  pf_jw_close(&w, '}');
}

/* Appends what of view `now` differs from view `prev` (NULL: all of it): each field but the legal
 * moves (which the rest of the view determines) and each zone that changed (the fields that did,
 * by its id) or went. */
static void view_changes(json_t *prev, json_t *now, pf_buf *b) {
  const char *key;
  json_t *v, *z;
  json_object_foreach(now, key, v) {
    if (strcmp(key, "zones") == 0 || strcmp(key, "legal") == 0 || strcmp(key, "moves") == 0) continue;
    if (prev && json_equal(v, json_object_get(prev, key))) continue;
    pf_buf_printf(b, " | %s ", key);
    put_json(b, v);
  }
  json_t *zones = json_object_get(now, "zones"), *before = prev ? json_object_get(prev, "zones") : NULL;
  size_t i;
  json_array_foreach(zones, i, z) {
    json_t *old = zone_by_id(before, json_string_value(json_object_get(z, "id")));
    if (old && json_equal(old, z)) continue;
    pf_buf_puts(b, " | ");
    if (old)
      put_fields_changed(b, old, z);
    else
      put_json(b, z);
  }
  json_array_foreach(before, i, z) {
    const char *id = json_string_value(json_object_get(z, "id"));
    if (!zone_by_id(zones, id)) pf_buf_printf(b, " | %s gone", id ? id : "?");
  }
}

typedef struct infostate {
  StateObject *s;
  int seat;
  json_t *prev; /* the seat's view before the step */
  pf_buf out;
} infostate;

/* One line per step: its number, who acted and what the seat was told of it (describe,
 * describe_chance, as the seat may know it), then what of the seat's view it changed; before the
 * first, the seat's view of the deal. */
static void infostate_step(void *ctx, pf_run *run, int i) {
  infostate *x = ctx;
  const pf_game *g = x->s->g;
  json_t *now = pf_view_json(g, run->state, x->s->players, x->seat);
  view_changes(x->prev, now, &x->out);
  json_decref(x->prev);
  x->prev = now;
  if (i == x->s->nhist) return;
  step st = x->s->hist[i];
  pf_style plain = {0};
  pf_buf_printf(&x->out, "\n%d ", i + 1);
  if (st.who == PF_CHANCE) {
    pf_buf_puts(&x->out, "chance:"); /* told to nobody unless the game says what */
    if (g->describe_chance) pf_buf_putc(&x->out, ' '), g->describe_chance(run->state, x->s->chance[st.code], x->seat, &plain, &x->out);
  } else if (g->describe) {
    pf_buf_printf(&x->out, "seat %d: ", st.who);
    g->describe(run->state, st.code, x->seat, &plain, &x->out);
  } else {
    char buf[PF_MOVE_STR];
    g->move_str(run->state, st.code, buf);
    pf_buf_printf(&x->out, "seat %d: %s", st.who, buf);
  }
}

/* information_state_history(p), for debugging: the seat's JSON view now, then the whole history
 * as the seat saw it, replayed (information_state_string, tensor.c, is its digest). */
static PyObject *st_information_state_history(StateObject *s, PyObject *args) {
  int seat;
  if (view_seat(s, args, &seat) != 0) return NULL;
  char *text = pf_view_json_text(s->g, s->st, s->players, seat);
  infostate x = {.s = s, .seat = seat};
  pf_buf_puts(&x.out, text);
  free(text);
  pf_buf_puts(&x.out, "\n0 deal:");
  pf_run run;
  int rc = pfpy_replay(s, &run, infostate_step, &x);
  if (rc == 0) pf_run_free(&run);
  json_decref(x.prev);
  PyObject *out = rc == 0 ? PyUnicode_FromString(pf_buf_str(&x.out)) : NULL;
  pf_buf_free(&x.out);
  return out;
}

/* to_record(path=None): the record as JSON text, or written to path (SPEC §2). */
static PyObject *st_to_record(StateObject *s, PyObject *args, PyObject *kw) {
  static char *names[] = {"path", NULL};
  const char *path = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|z", names, &path)) return NULL;
  pf_run run;
  if (to_run(s, &run) != 0) return NULL;
  PyObject *out;
  if (path) {
    pf_error err;
    out = pf_record_save(&run, path, &err) == 0 ? Py_NewRef(Py_None) : pfpy_fail(&err);
  } else {
    pf_buf b = {0};
    pf_jw w = {.b = &b};
    pf_record_write(&w, &run);
    pf_jw_format(&b, 0, 2, false);
    out = pfpy_json_text(&b, w.rc);
    pf_buf_free(&b);
  }
  pf_run_free(&run);
  return out;
}

/* random_playout(seed): uniformly random moves (chance from the state's generator) to the end,
 * in C; returns the number of moves played. */
static PyObject *st_random_playout(StateObject *s, PyObject *seedobj) {
  uint64_t seed;
  if (pfpy_read_uint63(seedobj, "seed", &seed) != 0) return NULL;
  pf_rng rng;
  pf_rng_seed(&rng, seed, 0);
  long played = 0;
  for (int who; (who = s->g->to_move(s->st)) != PF_NOBODY; played++) {
    pf_move m = 0;
    if (who != PF_CHANCE) {
      int n = ensure_legal(s);
      m = s->legal[pf_rng_below(&rng, (uint32_t)n)];
    }
    if (play(s, m) != 0) return NULL;
  }
  return PyLong_FromLong(played);
}

/* serialize(): the state's history, as OpenSpiel's default: its record (SPEC §2: game, options,
 * seed, deals, moves), with "resamples" when resample_from_infostate made it. */
static PyObject *st_serialize(StateObject *s, PyObject *unused) {
  (void)unused;
  pf_run run;
  if (pfpy_replay(s, &run, NULL, NULL) != 0) return NULL;
  pf_buf b = {0};
  pf_jw w = {.b = &b};
  pf_record_write(&w, &run);
  pf_run_free(&run);
  if (s->nrs) {
    b.data[--b.len] = '\0'; /* the record's closing brace: "resamples" comes last */
    pf_jw_key(&w, "resamples");
    pf_jw_open(&w, '[');
    for (int i = 0; i < s->nrs; i++) {
      pf_jw_open(&w, '{');
      pf_jw_key_int(&w, "at", s->rs[i].at);
      pf_jw_key_int(&w, "seat", s->rs[i].seat);
      pf_jw_key_int(&w, "seed", (long long)s->rs[i].seed);
      pf_jw_close(&w, '}');
    }
    pf_jw_close(&w, ']');
    pf_jw_close(&w, '}');
  }
  PyObject *out = pfpy_json_text(&b, w.rc);
  pf_buf_free(&b);
  return out;
}

static PyObject *st_num_players(StateObject *s, PyObject *unused) {
  (void)unused;
  return PyLong_FromLong(s->players);
}

static PyObject *st_get_game(StateObject *s, PyObject *unused) {
  (void)unused;
  return Py_NewRef((PyObject *)s->game);
}

static PyObject *st_str(StateObject *s) { return view_text(s, PF_VIEW_ALL); }

static PyObject *state_from_sample(PyObject *unused, PyObject *args);

static PyMethodDef state_methods[] = {
    {"current_player", (PyCFunction)st_current_player, METH_NOARGS,
     "the seat to move, pilfer.CHANCE or pilfer.TERMINAL"},
    {"is_terminal", (PyCFunction)st_is_terminal, METH_NOARGS, "whether the game is over"},
    {"is_chance_node", (PyCFunction)st_is_chance_node, METH_NOARGS, "whether chance moves next"},
    {"is_simultaneous_node", (PyCFunction)st_is_simultaneous_node, METH_NOARGS,
     "False: simultaneous choices are asked seat by seat"},
    {"legal_actions", (PyCFunction)st_legal_actions, METH_VARARGS,
     "legal_actions(player=None): the legal actions of the seat to move ([0] at a chance node)"},
    {"apply_action", (PyCFunction)st_apply_action, METH_O, "apply_action(a): plays a legal action"},
    {"apply_move", (PyCFunction)st_apply_move, METH_VARARGS,
     "apply_move(text): plays a move (or a chance outcome, '*...') written as records write it"},
    {"chance_outcomes", (PyCFunction)st_chance_outcomes, METH_NOARGS, "[(0, 1.0)] at a chance node"},
    {"returns", (PyCFunction)st_returns, METH_NOARGS, "each seat's share of the win when over, else zeros"},
    {"rewards", (PyCFunction)st_returns, METH_NOARGS, "as returns(): the only reward comes at the end"},
    {"player_return", (PyCFunction)st_player_return, METH_O, "player_return(p): returns()[p]"},
    {"scores", (PyCFunction)st_scores, METH_NOARGS, "each seat's score (running, or final when over)"},
    {"action_to_string", (PyCFunction)st_action_to_string, METH_VARARGS,
     "action_to_string(player, a) or action_to_string(a): the move's canonical string (G-9)"},
    {"string_to_action", (PyCFunction)st_string_to_action, METH_VARARGS,
     "string_to_action(text) or string_to_action(player, text): the action of a move written in any accepted form"},
    {"clone", (PyCFunction)st_clone, METH_NOARGS, "an independent copy"},
    {"__deepcopy__", (PyCFunction)st_deepcopy, METH_O, "an independent copy"},
    {"information_state_string", (PyCFunction)pfpy_information_state_string, METH_VARARGS,
     "information_state_string(p=None): the seat's view now and a digest of the history as it saw it (perfect recall)"},
    {"information_state_history", (PyCFunction)st_information_state_history, METH_VARARGS,
     "information_state_history(p=None): the seat's JSON view and the whole history as it saw it, replayed (debugging)"},
    {"information_state_tensor", (PyCFunction)pfpy_information_state_tensor, METH_VARARGS,
     "information_state_tensor(p=None): the observation tensor and what the seat has seen, flat float32 (docs/python.md)"},
    {"observation_string", (PyCFunction)st_observation_string, METH_VARARGS,
     "observation_string(p=None): the table as the seat sees it"},
    {"observation_tensor", (PyCFunction)pfpy_observation_tensor, METH_VARARGS,
     "observation_tensor(p=None): a flat float32 numpy array of game.observation_tensor_size() (docs/python.md)"},
    {"view", (PyCFunction)st_view, METH_VARARGS, "view(p=None): the seat's JSON view as a dict"},
    {"resample_from_infostate", (PyCFunction)st_resample, METH_VARARGS,
     "resample_from_infostate(p, seed): a state the seat cannot tell from this one (the game's determinize)"},
    {"history", (PyCFunction)st_history, METH_NOARGS, "every action played, chance outcomes as 0"},
    {"move_number", (PyCFunction)st_move_number, METH_NOARGS, "len(history())"},
    {"to_record", (PyCFunction)(void (*)(void))st_to_record, METH_VARARGS | METH_KEYWORDS,
     "to_record(path=None): the game record (JSON text, or written to path) that `pilfer replay` reads"},
    {"random_playout", (PyCFunction)st_random_playout, METH_O,
     "random_playout(seed): random moves to the end, at engine speed; returns how many"},
    {"from_sample", (PyCFunction)state_from_sample, METH_VARARGS | METH_STATIC,
     "State.from_sample(game, text, key): a sample of the bot protocol, refused unless the run's pilfer wrote it "
     "under key (PILFER_SAMPLE_KEY); a position without a history"},
    {"serialize", (PyCFunction)st_serialize, METH_NOARGS,
     "the state's history as text (its record, with any resamples) for game.deserialize_state"},
    {"num_players", (PyCFunction)st_num_players, METH_NOARGS, "the number of players"},
    {"get_game", (PyCFunction)st_get_game, METH_NOARGS, "the game"},
    {NULL, NULL, 0, NULL},
};

PyTypeObject pfpy_StateType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pilfer.State",
    .tp_basicsize = sizeof(StateObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A position of a game, with its history: game.new_initial_state() or pilfer.load_record().",
    .tp_methods = state_methods,
    .tp_str = (reprfunc)st_str,
    .tp_dealloc = (destructor)state_dealloc,
};

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
      determinize(s->g, s->st, rs[r].seat, rs[r].seed);
      s->rs[s->nrs++] = rs[r];
      s->nlegal = -1;
    }
    if (i == rec.nmoves) break;
    if (play_text(s, rec.moves[i], &err) != 0) {
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
static PyObject *state_from_sample(PyObject *unused, PyObject *args) {
  (void)unused;
  GameObject *game;
  const char *text, *keytext;
  Py_ssize_t len, keylen;
  if (!PyArg_ParseTuple(args, "O!s#s#:from_sample", &pfpy_GameType, &game, &text, &len, &keytext, &keylen)) return NULL;
  pf_error err;
  uint8_t key[PF_SIPHASH_KEY];
  if (pf_sample_key_parse(keytext, (size_t)keylen, key, &err) != 0) return pfpy_fail(&err);
  StateObject *s = state_alloc(game);
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
