/*
 * game.c - pilfer.Game (docs/python.md): a game with its players, options and seed, made by
 * pilfer.load_game; it makes the states (new_initial_state, deserialize_state).
 */
#include "pilfer.h"

#include <string.h>

#include "games/registry.h"

/* An option's value from Python (int, bool or str) as the text the engine parses. */
static int option_text(PyObject *v, char *buf, size_t n) {
  if (PyBool_Check(v)) return snprintf(buf, n, "%s", v == Py_True ? "true" : "false"), 0;
  if (PyLong_Check(v)) {
    long long x = PyLong_AsLongLong(v);
    if (x == -1 && PyErr_Occurred()) return -1;
    return snprintf(buf, n, "%lld", x), 0;
  }
  if (PyUnicode_Check(v)) {
    const char *s = PyUnicode_AsUTF8(v);
    if (!s) return -1;
    return snprintf(buf, n, "%s", s), 0;
  }
  PyErr_SetString(pfpy_Error, "a game parameter is an int, a bool or a str");
  return -1;
}

GameObject *pfpy_game_new(const pf_game *g, int players, const pf_options *options, uint64_t seed) {
  GameObject *self = PyObject_New(GameObject, &pfpy_GameType);
  if (!self) return NULL;
  self->g = g;
  self->players = players;
  self->options = *options;
  self->seed = seed;
  self->dealt = 0;
  return self;
}

PyObject *pfpy_load_game(PyObject *mod, PyObject *args, PyObject *kw) {
  (void)mod;
  static char *names[] = {"name", "params", NULL};
  const char *name;
  PyObject *params = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "s|O", names, &name, &params)) return NULL;
  const pf_game *g = pf_game_find(name);
  if (!g) {
    pf_buf b = {0};
    for (int i = 0; pf_games[i]; i++) pf_buf_join_item(&b, i, "%s", pf_games[i]->id);
    PyErr_Format(pfpy_Error, "unknown game '%s'; games are: %s", name, pf_buf_str(&b));
    pf_buf_free(&b);
    return NULL;
  }
  if (params && params != Py_None && !PyDict_Check(params)) {
    PyErr_SetString(pfpy_Error, "load_game: params must be a dict");
    return NULL;
  }
  pf_options options;
  pf_options_default(g->options, g->noptions, &options);
  long long players = g->min_players;
  uint64_t seed = 0;
  pf_error err;
  PyObject *key, *value;
  Py_ssize_t pos = 0;
  while (params && params != Py_None && PyDict_Next(params, &pos, &key, &value)) {
    const char *k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
    if (!k) {
      PyErr_SetString(pfpy_Error, "load_game: parameter names are strings");
      return NULL;
    }
    if (strcmp(k, "players") == 0) {
      players = PyLong_Check(value) && !PyBool_Check(value) ? PyLong_AsLongLong(value) : -1;
      if (PyErr_Occurred()) PyErr_Clear(), players = -1;
      continue;
    }
    if (strcmp(k, "seed") == 0) {
      if (pfpy_read_uint63(value, "seed", &seed) != 0) return NULL;
      continue;
    }
    int i = pf_option_find(g->options, g->noptions, k);
    if (i < 0) {
      pf_buf b = {0};
      for (int j = 0; j < g->noptions; j++) pf_buf_printf(&b, ", %s", g->options[j].name);
      PyErr_Format(pfpy_Error, "%s has no parameter '%s'; its parameters are: players, seed%s", g->id, k,
                   pf_buf_str(&b));
      pf_buf_free(&b);
      return NULL;
    }
    char text[64];
    if (option_text(value, text, sizeof text) != 0) return NULL;
    if (pf_option_parse_value(&g->options[i], text, &options.v[i], &err) != 0) return pfpy_fail(&err);
  }
  if (pf_check_players(g, players, &err) != 0) return pfpy_fail(&err);
  return (PyObject *)pfpy_game_new(g, (int)players, &options, seed);
}

static PyObject *game_num_players(GameObject *self, PyObject *unused) {
  (void)unused;
  return PyLong_FromLong(self->players);
}

/* A bound on each game's move codes: the game's own (core/game.h). */
static PyObject *game_num_distinct_actions(GameObject *self, PyObject *unused) {
  (void)unused;
  return PyLong_FromLong((long)self->g->move_bound);
}

static PyObject *game_one(GameObject *self, PyObject *unused) {
  (void)self, (void)unused;
  return PyLong_FromLong(1);
}

static PyObject *game_zero(GameObject *self, PyObject *unused) {
  (void)self, (void)unused;
  return PyLong_FromLong(0);
}

static PyObject *game_short_name(GameObject *self, PyObject *unused) {
  (void)unused;
  return PyUnicode_FromString(self->g->id);
}

/* get_parameters(): the record's options (SPEC §2), then players and seed. */
static PyObject *game_parameters(GameObject *self, PyObject *unused) {
  (void)unused;
  pf_buf b = {0};
  pf_jw w = {.b = &b};
  pf_record_options_write(&w, self->g, &self->options);
  b.data[--b.len] = '\0'; /* the options' closing brace: players and seed follow them */
  w.comma = b.data[b.len - 1] != '{';
  pf_jw_key_int(&w, "players", self->players);
  pf_jw_key_int(&w, "seed", (long long)self->seed);
  pf_jw_close(&w, '}');
  PyObject *out = pfpy_json_to_py(&b, w.rc);
  pf_buf_free(&b);
  return out;
}

static PyObject *game_repr(GameObject *self) {
  return PyUnicode_FromFormat("pilfer.load_game(\"%s\", {\"players\": %d, \"seed\": %llu})", self->g->id, self->players,
                              (unsigned long long)self->seed);
}

/* new_initial_state(seed=None): the deal from the seed; without one, deal k of the game's seed
 * for the k-th state made so. */
static PyObject *game_new_initial_state(GameObject *self, PyObject *args, PyObject *kw) {
  static char *names[] = {"seed", NULL};
  PyObject *seedobj = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|O", names, &seedobj)) return NULL;
  pf_setup setup = {.players = self->players, .options = self->options};
  if (seedobj != Py_None) {
    if (pfpy_read_uint63(seedobj, "seed", &setup.seed) != 0) return NULL;
  } else {
    pf_rng r;
    pf_rng_seed(&r, self->seed, 0x5059000000000000ull + self->dealt++);
    setup.seed = pf_rng_next(&r) >> 1;
  }
  return pfpy_state_start(self, &setup);
}

/* deserialize_state(text): the state serialize() (or to_record()) wrote, replayed. */
static PyObject *game_deserialize_state(GameObject *self, PyObject *args) {
  const char *text;
  Py_ssize_t len;
  if (!PyArg_ParseTuple(args, "s#", &text, &len)) return NULL;
  return pfpy_state_from_text(self, text, (size_t)len);
}

static PyMethodDef game_methods[] = {
    {"num_players", (PyCFunction)game_num_players, METH_NOARGS, "the number of players"},
    {"num_distinct_actions", (PyCFunction)game_num_distinct_actions, METH_NOARGS,
     "a bound on the actions: every action is in [0, num_distinct_actions())"},
    {"max_chance_outcomes", (PyCFunction)game_one, METH_NOARGS, "1: chance draws from the state's generator"},
    {"max_utility", (PyCFunction)game_one, METH_NOARGS, "a whole win: 1"},
    {"min_utility", (PyCFunction)game_zero, METH_NOARGS, "no win: 0"},
    {"new_initial_state", (PyCFunction)(void (*)(void))game_new_initial_state, METH_VARARGS | METH_KEYWORDS,
     "new_initial_state(seed=None): a new game; without a seed, the next deal of the game's seed"},
    {"observation_tensor_shape", (PyCFunction)pfpy_game_observation_shape, METH_NOARGS, "[rows, columns]"},
    {"observation_tensor_size", (PyCFunction)pfpy_game_observation_size, METH_NOARGS, "rows * columns"},
    {"information_state_tensor_shape", (PyCFunction)pfpy_game_infostate_shape, METH_NOARGS, "[rows, columns]"},
    {"information_state_tensor_size", (PyCFunction)pfpy_game_infostate_size, METH_NOARGS, "rows * columns"},
    {"tensor_zone_kinds", (PyCFunction)pfpy_game_tensor_kinds, METH_NOARGS,
     "the zone kinds of the tensors' rows, in order: those the game's views use, 'other' last"},
    {"short_name", (PyCFunction)game_short_name, METH_NOARGS, "the game's id"},
    {"get_parameters", (PyCFunction)game_parameters, METH_NOARGS, "players, seed and every option, as a dict"},
    {"deserialize_state", (PyCFunction)game_deserialize_state, METH_VARARGS,
     "deserialize_state(text): the state serialize() wrote (its history), replayed through the game's checks"},
    {NULL, NULL, 0, NULL},
};

PyTypeObject pfpy_GameType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pilfer.Game",
    .tp_basicsize = sizeof(GameObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A game with its players and options: made by pilfer.load_game.",
    .tp_methods = game_methods,
    .tp_repr = (reprfunc)game_repr,
    .tp_dealloc = (destructor)PyObject_Del,
};
