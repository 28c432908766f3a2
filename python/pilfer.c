/*
 * pilfer.c - `import pilfer`: the engine for Python, with the names of OpenSpiel's pyspiel
 * (docs/python.md).
 *
 * Its files: this one (the module's functions and its init), game.c (pilfer.Game), state.c
 * (pilfer.State), bot.c (pilfer.Bot), and pilfer.h, what they share. state.c is the one file of
 * the module that calls the games' methods; everything else it does goes through the core's
 * functions (runs, records, views, bots, sim). A State owns a copy of the game
 * state and its history as move codes, so that the hot path (legal_actions, apply_action) is a
 * call of the game's method and a list of ints: the legal moves are cached between the two, and
 * nothing is allocated per move but the returned list and, now and then, room in the history.
 * Records are made by replaying that history in a pf_run, only when asked for.
 *
 * Actions are the games' dense action indices (pf_action_index, game.h; docs/actions.md), which
 * name the same move in every position of a game, below num_distinct_actions() (pf_action_count):
 * the move codes themselves for a game that gives no such hook. A chance node's actions are the
 * ids of its outcomes (pf_chance_outcomes), each applied as its text: the history keeps the texts,
 * as records do. spiel.c holds the rest of OpenSpiel's names (GameType, PlayerId, the sampler).
 *
 * Every argument from Python is checked; errors are pilfer.Error (a ValueError and a
 * RuntimeError, so that it is pyspiel's SpielError too) with the engine's message, never a crash.
 */
#include "pilfer.h"

#include <numpy/arrayobject.h>

#include <string.h>

#include "bots/bot.h"
#include "games/registry.h"
#include "sim/sim.h"

PyObject *pfpy_Error; /* pilfer.Error */

PyObject *pfpy_fail(const pf_error *err) {
  PyErr_SetString(pfpy_Error, err->msg);
  return NULL;
}

PyObject *pfpy_json_text(const pf_buf *b, int rc) {
  if (rc != 0) return PyErr_SetString(pfpy_Error, "a string that is not UTF-8 cannot be written as JSON"), NULL;
  return PyUnicode_FromStringAndSize(b->data ? b->data : "", (Py_ssize_t)b->len);
}

PyObject *pfpy_json_to_py(const pf_buf *b, int rc) {
  PyObject *text = pfpy_json_text(b, rc);
  PyObject *mod = text ? PyImport_ImportModule("json") : NULL;
  PyObject *out = mod ? PyObject_CallMethod(mod, "loads", "O", text) : NULL;
  Py_XDECREF(mod);
  Py_XDECREF(text);
  return out;
}

int pfpy_read_int(PyObject *v, const char *what, long long *out) {
  PyObject *i = PyIndex_Check(v) ? PyNumber_Index(v) : NULL;
  long long x = i ? PyLong_AsLongLong(i) : -1;
  Py_XDECREF(i);
  if (!i || (x == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    PyErr_Format(pfpy_Error, i ? "%s is out of range" : "%s must be an integer", what);
    return -1;
  }
  *out = x;
  return 0;
}

int pfpy_read_uint63(PyObject *v, const char *what, uint64_t *out) {
  long long x;
  if (pfpy_read_int(v, what, &x) != 0 || x < 0) {
    PyErr_Clear();
    PyErr_Format(pfpy_Error, "%s must be an integer from 0 to 2^63 - 1", what);
    return -1;
  }
  *out = (uint64_t)x;
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* sim                                                                                        */
/* ------------------------------------------------------------------------------------------ */

/* sim(game, seats, games=100, seed=1, rotate=False, threads=1): `pilfer sim`'s JSON as a dict;
 * analyze(...) the same games measured as `pilfer analyze --json` gives them. cmd names the one
 * called, in errors. */
static PyObject *play_many(PyObject *args, PyObject *kw, const char *cmd) {
  static char *names[] = {"game", "seats", "games", "seed", "rotate", "threads", NULL};
  PyObject *gameobj, *seats, *seedobj = NULL;
  long long games = 100;
  int rotate = 0, threads = 1;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O|LOpi", names, &pfpy_GameType, &gameobj, &seats, &games, &seedobj,
                                   &rotate, &threads))
    return NULL;
  GameObject *game = (GameObject *)gameobj;
  pf_sim_config c = {.game = game->g, .players = game->players, .options = game->options, .games = games,
                     .seed = 1, .rotate = rotate, .shard = 1, .nshards = 1, .analyze = strcmp(cmd, "analyze") == 0};
  if (seedobj && pfpy_read_uint63(seedobj, "seed", &c.seed) != 0) return NULL;
  if (games < 1) return PyErr_Format(pfpy_Error, "%s: games must be 1 or more", cmd), NULL;
  if (threads < 1 || threads > 1024) return PyErr_Format(pfpy_Error, "%s: threads must be from 1 to 1024", cmd), NULL;
  if (!PyList_Check(seats) || PyList_GET_SIZE(seats) != game->players)
    return PyErr_Format(pfpy_Error, "%s: seats must be a list of %d bot specs", cmd, game->players), NULL;
  pf_error err;
  for (int p = 0; p < game->players; p++) {
    PyObject *v = PyList_GET_ITEM(seats, p);
    const char *spec = PyUnicode_Check(v) ? PyUnicode_AsUTF8(v) : NULL;
    if (!spec || strlen(spec) >= PF_BOT_SPEC) {
      PyErr_Clear();
      return PyErr_Format(pfpy_Error, "%s: seats[%d] must be a bot spec shorter than %d characters", cmd, p,
                          PF_BOT_SPEC),
             NULL;
    }
    if (pf_bot_check_spec(spec, &err) != 0) {
      pf_error_prefix(&err, "seats[%d]", p);
      return pfpy_fail(&err);
    }
    snprintf(c.seats[p], sizeof c.seats[p], "%s", spec);
  }
  pf_sim_run_opts opts = {.threads = threads};
  pf_sim_result res;
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = pf_sim_run(&c, &opts, &res, &err);
  Py_END_ALLOW_THREADS if (rc != 0) return pfpy_fail(&err);
  pf_buf b = {0};
  pf_jw w = {.b = &b};
  pf_sim_write(&w, &res);
  PyObject *out = pfpy_json_to_py(&b, w.rc);
  pf_buf_free(&b);
  return out;
}

static PyObject *sim(PyObject *mod, PyObject *args, PyObject *kw) {
  (void)mod;
  return play_many(args, kw, "sim");
}

static PyObject *analyze(PyObject *mod, PyObject *args, PyObject *kw) {
  (void)mod;
  return play_many(args, kw, "analyze");
}

static PyObject *registered_names(PyObject *mod, PyObject *unused) {
  (void)mod, (void)unused;
  PyObject *list = PyList_New(0);
  for (int i = 0; list && pf_games[i]; i++) {
    PyObject *n = PyUnicode_FromString(pf_games[i]->id);
    if (!n || PyList_Append(list, n) != 0) Py_CLEAR(list);
    Py_XDECREF(n);
  }
  return list;
}

static PyObject *games(PyObject *mod, PyObject *unused) {
  (void)mod, (void)unused;
  pf_buf b = {0};
  pf_jw w = {.b = &b};
  pf_games_write(&w);
  PyObject *out = pfpy_json_to_py(&b, w.rc);
  pf_buf_free(&b);
  return out;
}

static PyMethodDef module_methods[] = {
    {"load_game", (PyCFunction)(void (*)(void))pfpy_load_game, METH_VARARGS | METH_KEYWORDS,
     "load_game(name, params=None): a game; params: players, seed and the game's options"},
    {"load_record", (PyCFunction)pfpy_load_record, METH_O,
     "load_record(source): the state at the end of a record (its JSON text, or a file's path)"},
    {"sim", (PyCFunction)(void (*)(void))sim, METH_VARARGS | METH_KEYWORDS,
     "sim(game, seats, games=100, seed=1, rotate=False, threads=1): `pilfer sim --json` as a dict"},
    {"analyze", (PyCFunction)(void (*)(void))analyze, METH_VARARGS | METH_KEYWORDS,
     "analyze(game, seats, games=100, seed=1, rotate=False, threads=1): `pilfer analyze --json` as a dict"},
    {"registered_names", (PyCFunction)registered_names, METH_NOARGS, "the games' ids"},
    {"games", (PyCFunction)games, METH_NOARGS, "the games, their players and options (`pilfer games --json`)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "pilfer", "pilfer's pile card games, with the names of OpenSpiel's pyspiel (docs/python.md).",
    -1, module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit_pilfer(void);
PyMODINIT_FUNC PyInit_pilfer(void) {
  import_array();
  if (PyType_Ready(&pfpy_GameType) < 0 || PyType_Ready(&pfpy_StateType) < 0 || PyType_Ready(&pfpy_BotType) < 0 ||
      PyType_Ready(&pfpy_VectorEnvType) < 0)
    return NULL;
  PyObject *m = PyModule_Create(&module);
  if (!m) return NULL;
  /* Researchers run their own programs as bots (exec:); only `pilfer serve` refuses them. */
  pf_bot_allow_programs(true);
  /* sim and analyze measure with instruments as `pilfer sim` does; a Bot takes one only when asked
   * (instrument=True, bot.c), so that a bot written on the module for a table never reads hidden cards. */
  pf_bot_allow_instruments(true);
  /* A ValueError as it always was, and a RuntimeError as pyspiel's SpielError is. */
  PyObject *bases = PyTuple_Pack(2, PyExc_ValueError, PyExc_RuntimeError);
  pfpy_Error = bases ? PyErr_NewException("pilfer.Error", bases, NULL) : NULL;
  Py_XDECREF(bases);
  if (!pfpy_Error || PyModule_AddObjectRef(m, "Error", pfpy_Error) < 0 ||
      PyModule_AddObjectRef(m, "SpielError", pfpy_Error) < 0 ||
      PyModule_AddObjectRef(m, "Game", (PyObject *)&pfpy_GameType) < 0 ||
      PyModule_AddObjectRef(m, "State", (PyObject *)&pfpy_StateType) < 0 ||
      PyModule_AddObjectRef(m, "Bot", (PyObject *)&pfpy_BotType) < 0 ||
      PyModule_AddObjectRef(m, "VectorEnv", (PyObject *)&pfpy_VectorEnvType) < 0 ||
      PyModule_AddIntConstant(m, "CHANCE", SPIEL_CHANCE) < 0 ||
      PyModule_AddIntConstant(m, "SIMULTANEOUS", SPIEL_SIMULTANEOUS) < 0 ||
      PyModule_AddIntConstant(m, "INVALID", SPIEL_INVALID) < 0 ||
      PyModule_AddIntConstant(m, "TERMINAL", SPIEL_TERMINAL) < 0 ||
      PyModule_AddIntConstant(m, "INVALID_ACTION", SPIEL_INVALID_ACTION) < 0 || pfpy_spiel_add(m) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
