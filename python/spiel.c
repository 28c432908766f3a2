/*
 * spiel.c - the names of OpenSpiel's pyspiel that are not a game or a state (docs/python.md):
 * GameType, with its enums as pyspiel nests them (pilfer.GameType.Dynamics.SEQUENTIAL ...),
 * PlayerId, PlayerAction (full_history's items) and UniformProbabilitySampler, so that
 * OpenSpiel's Python algorithms run with `import pilfer as pyspiel`. The enums are Python's
 * IntEnum, with OpenSpiel's values; GameType is a record of read-only fields, made by
 * game.get_type() (game.c says what each holds for a pilfer game).
 */
#include "pilfer.h"

#include <structmember.h>

/* ------------------------------------------------------------------------------------------ */
/* The enums                                                                                  */
/* ------------------------------------------------------------------------------------------ */

/* An IntEnum called name (qualname: its place in the module) with the members names[i] = i, or
 * the values given. */
static PyObject *int_enum(const char *name, const char *qualname, const char *const *names, const int *values) {
  PyObject *mod = PyImport_ImportModule("enum");
  PyObject *cls = mod ? PyObject_GetAttrString(mod, "IntEnum") : NULL;
  PyObject *members = PyList_New(0), *out = NULL;
  for (int i = 0; members && names[i]; i++) {
    PyObject *pair = Py_BuildValue("(si)", names[i], values ? values[i] : i);
    if (!pair || PyList_Append(members, pair) != 0) Py_CLEAR(members);
    Py_XDECREF(pair);
  }
  PyObject *args = cls && members ? Py_BuildValue("(sO)", name, members) : NULL;
  PyObject *kw = args ? Py_BuildValue("{ssss}", "module", "pilfer", "qualname", qualname) : NULL;
  if (kw) out = PyObject_Call(cls, args, kw);
  Py_XDECREF(kw);
  Py_XDECREF(args);
  Py_XDECREF(members);
  Py_XDECREF(cls);
  Py_XDECREF(mod);
  return out;
}

static const char *const DYNAMICS[] = {"SIMULTANEOUS", "SEQUENTIAL", "MEAN_FIELD", NULL};
static const char *const CHANCE_MODE[] = {"DETERMINISTIC", "EXPLICIT_STOCHASTIC", "SAMPLED_STOCHASTIC", NULL};
static const char *const INFORMATION[] = {"ONE_SHOT", "PERFECT_INFORMATION", "IMPERFECT_INFORMATION", NULL};
static const char *const UTILITY[] = {"ZERO_SUM", "CONSTANT_SUM", "GENERAL_SUM", "IDENTICAL", NULL};
static const char *const REWARD_MODEL[] = {"REWARDS", "TERMINAL", NULL};
static const char *const PLAYER_ID[] = {"DEFAULT_PLAYER_ID", "CHANCE", "SIMULTANEOUS", "INVALID",
                                        "TERMINAL",          "MEAN_FIELD", NULL};
static const int PLAYER_ID_VALUES[] = {0, SPIEL_CHANCE, SPIEL_SIMULTANEOUS, SPIEL_INVALID, SPIEL_TERMINAL,
                                       SPIEL_MEAN_FIELD};

/* ------------------------------------------------------------------------------------------ */
/* GameType                                                                                   */
/* ------------------------------------------------------------------------------------------ */

/* Its fields, in the order of pyspiel's constructor (the required ones first). */
static const char *const FIELDS[] = {
    "short_name", "long_name", "dynamics", "chance_mode", "information", "utility", "reward_model",
    "max_num_players", "min_num_players", "provides_information_state_string",
    "provides_information_state_tensor", "provides_observation_string", "provides_observation_tensor",
    "parameter_specification", "default_loadable", "provides_factored_observation_string", "is_concrete",
    "action_structs_only", NULL};
#define NFIELDS 18
#define NREQUIRED 13

typedef struct {
  PyObject_HEAD PyObject *f[NFIELDS];
} GameTypeObject;

static PyObject *game_type_cls; /* pilfer.GameType */

static void gt_dealloc(GameTypeObject *self) {
  for (int i = 0; i < NFIELDS; i++) Py_XDECREF(self->f[i]);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

/* GameType(short_name, long_name, dynamics, ..., provides_observation_tensor,
 * parameter_specification={}, default_loadable=True, ...), as pyspiel's, by position or name. */
static PyObject *gt_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  GameTypeObject *self = (GameTypeObject *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  Py_ssize_t n = PyTuple_GET_SIZE(args);
  if (n > NFIELDS) {
    Py_DECREF(self);
    return PyErr_Format(PyExc_TypeError, "GameType takes at most %d arguments", NFIELDS), NULL;
  }
  for (int i = 0; i < NFIELDS; i++) {
    PyObject *v = i < n ? PyTuple_GET_ITEM(args, i) : kw ? PyDict_GetItemString(kw, FIELDS[i]) : NULL;
    if (!v && i >= NREQUIRED) v = i == NREQUIRED ? NULL : (i == 14 || i == 16) ? Py_True : Py_False;
    if (!v && i == NREQUIRED) {
      self->f[i] = PyDict_New();
      if (!self->f[i]) return Py_DECREF(self), NULL;
      continue;
    }
    if (!v) {
      Py_DECREF(self);
      return PyErr_Format(PyExc_TypeError, "GameType: %s is required", FIELDS[i]), NULL;
    }
    self->f[i] = Py_NewRef(v);
  }
  return (PyObject *)self;
}

PyObject *pfpy_game_type_new(PyObject *fields) {
  PyObject *args = PyTuple_New(0);
  PyObject *out = args ? gt_new((PyTypeObject *)game_type_cls, args, fields) : NULL;
  Py_XDECREF(args);
  return out;
}

static PyObject *gt_repr(GameTypeObject *self) { return PyUnicode_FromFormat("<GameType '%S'>", self->f[0]); }

static PyObject *gt_richcompare(PyObject *a, PyObject *b, int op) {
  if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(b, Py_TYPE(a))) Py_RETURN_NOTIMPLEMENTED;
  int eq = 1;
  for (int i = 0; eq == 1 && i < NFIELDS; i++)
    eq = PyObject_RichCompareBool(((GameTypeObject *)a)->f[i], ((GameTypeObject *)b)->f[i], Py_EQ);
  if (eq < 0) return NULL;
  return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

/* Pickled as its constructor's arguments. */
static PyObject *gt_reduce(GameTypeObject *self, PyObject *unused) {
  (void)unused;
  PyObject *args = PyTuple_New(NFIELDS);
  for (int i = 0; args && i < NFIELDS; i++) PyTuple_SET_ITEM(args, i, Py_NewRef(self->f[i]));
  return args ? Py_BuildValue("(ON)", (PyObject *)Py_TYPE(self), args) : NULL;
}

static PyObject *gt_pretty_print(GameTypeObject *self, PyObject *unused) {
  (void)unused;
  PyObject *lines = PyList_New(0);
  for (int i = 0; lines && i < NFIELDS; i++) {
    PyObject *line = PyUnicode_FromFormat("%s: %R", FIELDS[i], self->f[i]);
    if (!line || PyList_Append(lines, line) != 0) Py_CLEAR(lines);
    Py_XDECREF(line);
  }
  PyObject *sep = lines ? PyUnicode_FromString("\n") : NULL;
  PyObject *out = sep ? PyUnicode_Join(sep, lines) : NULL;
  Py_XDECREF(sep);
  Py_XDECREF(lines);
  return out;
}

static PyMemberDef gt_members[NFIELDS + 1];

static PyMethodDef gt_methods[] = {
    {"__reduce__", (PyCFunction)gt_reduce, METH_NOARGS, NULL},
    {"pretty_print", (PyCFunction)gt_pretty_print, METH_NOARGS, "every field, a line each"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject GameTypeType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pilfer.GameType",
    .tp_basicsize = sizeof(GameTypeObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A game's static description, as pyspiel's GameType: game.get_type().",
    .tp_new = gt_new,
    .tp_dealloc = (destructor)gt_dealloc,
    .tp_repr = (reprfunc)gt_repr,
    .tp_richcompare = gt_richcompare,
    .tp_methods = gt_methods,
    .tp_members = gt_members,
};

/* ------------------------------------------------------------------------------------------ */
/* PlayerAction                                                                               */
/* ------------------------------------------------------------------------------------------ */

static PyTypeObject *player_action_type;

static PyStructSequence_Field pa_fields[] = {
    {"player", "the seat that acted, or pilfer.CHANCE"},
    {"action", "its action (a chance outcome's id)"},
    {NULL, NULL},
};

static PyStructSequence_Desc pa_desc = {"pilfer.PlayerAction", "A step of full_history(): player and action.",
                                        pa_fields, 2};

PyObject *pfpy_player_action(long player, long long action) {
  PyObject *pa = PyStructSequence_New(player_action_type);
  if (!pa) return NULL;
  PyObject *p = PyLong_FromLong(player), *a = PyLong_FromLongLong(action);
  if (!p || !a) {
    Py_XDECREF(p), Py_XDECREF(a), Py_DECREF(pa);
    return NULL;
  }
  PyStructSequence_SetItem(pa, 0, p);
  PyStructSequence_SetItem(pa, 1, a);
  return pa;
}

/* ------------------------------------------------------------------------------------------ */
/* UniformProbabilitySampler                                                                  */
/* ------------------------------------------------------------------------------------------ */

typedef struct {
  PyObject_HEAD pf_rng rng;
  uint64_t seed;
  double min, max;
} SamplerObject;

/* The seeds of samplers made without one: a fixed sequence, so that a program's runs repeat
 * (OpenSpiel seeds them from the clock) while no two such samplers draw alike. */
static uint64_t unseeded;

/* UniformProbabilitySampler(min=0., max=1.) or (seed, min, max), as pyspiel's; seed= by name too. */
static PyObject *sampler_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *names[] = {"min", "max", "seed", NULL};
  static char *names3[] = {"seed", "min", "max", NULL};
  PyObject *seedobj = NULL;
  double min = 0.0, max = 1.0;
  bool three = PyTuple_GET_SIZE(args) == 3;
  if (three ? !PyArg_ParseTupleAndKeywords(args, kw, "Odd", names3, &seedobj, &min, &max)
            : !PyArg_ParseTupleAndKeywords(args, kw, "|ddO", names, &min, &max, &seedobj))
    return NULL;
  if (!(min < max)) return PyErr_SetString(pfpy_Error, "UniformProbabilitySampler: min must be below max"), NULL;
  uint64_t seed;
  if (seedobj && seedobj != Py_None) {
    if (pfpy_read_uint63(seedobj, "seed", &seed) != 0) return NULL;
  } else {
    pf_rng r;
    pf_rng_seed(&r, 0x53504C52ull, unseeded++);
    seed = pf_rng_next(&r) >> 1;
  }
  SamplerObject *self = (SamplerObject *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  pf_rng_seed(&self->rng, seed, 0);
  self->seed = seed;
  self->min = min;
  self->max = max;
  return (PyObject *)self;
}

static void sampler_dealloc(SamplerObject *self) { Py_TYPE(self)->tp_free((PyObject *)self); }

static PyObject *sampler_call(SamplerObject *self, PyObject *args, PyObject *kw) {
  if (PyTuple_GET_SIZE(args) || (kw && PyDict_GET_SIZE(kw)))
    return PyErr_SetString(PyExc_TypeError, "a sampler takes no arguments"), NULL;
  double u = (double)(pf_rng_next(&self->rng) >> 11) * (1.0 / 9007199254740992.0); /* [0, 1), 53 bits */
  return PyFloat_FromDouble(self->min + (self->max - self->min) * u);
}

static PyObject *sampler_repr(SamplerObject *self) {
  PyObject *lo = PyFloat_FromDouble(self->min), *hi = PyFloat_FromDouble(self->max);
  PyObject *out = lo && hi ? PyUnicode_FromFormat("pilfer.UniformProbabilitySampler(%llu, %R, %R)",
                                                  (unsigned long long)self->seed, lo, hi)
                           : NULL;
  Py_XDECREF(lo), Py_XDECREF(hi);
  return out;
}

static PyTypeObject SamplerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pilfer.UniformProbabilitySampler",
    .tp_basicsize = sizeof(SamplerObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "UniformProbabilitySampler(min=0., max=1.) or (seed, min, max): called, a float in [min, max).",
    .tp_new = sampler_new,
    .tp_dealloc = (destructor)sampler_dealloc,
    .tp_call = (ternaryfunc)sampler_call,
    .tp_repr = (reprfunc)sampler_repr,
};

int pfpy_seed_from_sampler(PyObject *sampler, uint64_t *out) {
  uint64_t part[2];
  for (int i = 0; i < 2; i++) {
    PyObject *v = PyObject_CallNoArgs(sampler);
    double u = v ? PyFloat_AsDouble(v) : -1.0;
    Py_XDECREF(v);
    if (u == -1.0 && PyErr_Occurred()) return -1;
    if (!(u >= 0.0 && u < 1.0)) {
      PyObject *f = PyFloat_FromDouble(u);
      if (f) PyErr_Format(pfpy_Error, "the sampler gave %R, not a number in [0, 1)", f);
      Py_XDECREF(f);
      return -1;
    }
    part[i] = (uint64_t)(u * (i ? 4294967296.0 : 2147483648.0));
  }
  *out = part[0] << 32 | part[1];
  return 0;
}

/* ------------------------------------------------------------------------------------------ */

int pfpy_spiel_add(PyObject *mod) {
  for (int i = 0; i < NFIELDS; i++)
    gt_members[i] = (PyMemberDef){(char *)FIELDS[i], T_OBJECT_EX, offsetof(GameTypeObject, f) + i * sizeof(PyObject *),
                                  READONLY, NULL};
  if (PyType_Ready(&GameTypeType) < 0 || PyType_Ready(&SamplerType) < 0) return -1;
  game_type_cls = (PyObject *)&GameTypeType;
  struct {
    const char *name, *qualname;
    const char *const *names;
  } enums[] = {{"Dynamics", "GameType.Dynamics", DYNAMICS},
               {"ChanceMode", "GameType.ChanceMode", CHANCE_MODE},
               {"Information", "GameType.Information", INFORMATION},
               {"Utility", "GameType.Utility", UTILITY},
               {"RewardModel", "GameType.RewardModel", REWARD_MODEL}};
  for (size_t i = 0; i < sizeof enums / sizeof enums[0]; i++) {
    PyObject *e = int_enum(enums[i].name, enums[i].qualname, enums[i].names, NULL);
    /* GameType.Dynamics ...: a static type's attributes are set in its dict, then noted */
    int rc = e ? PyDict_SetItemString(GameTypeType.tp_dict, enums[i].name, e) : -1;
    Py_XDECREF(e);
    if (rc != 0) return -1;
  }
  PyType_Modified(&GameTypeType);
  player_action_type = PyStructSequence_NewType(&pa_desc);
  PyObject *sampler = Py_NewRef((PyObject *)&SamplerType);
  PyObject *player_id = int_enum("PlayerId", "PlayerId", PLAYER_ID, PLAYER_ID_VALUES);
  int rc = player_action_type && sampler && player_id && PyModule_AddObjectRef(mod, "GameType", game_type_cls) == 0 &&
                   PyModule_AddObjectRef(mod, "PlayerAction", (PyObject *)player_action_type) == 0 &&
                   PyModule_AddObjectRef(mod, "UniformProbabilitySampler", sampler) == 0 &&
                   PyModule_AddObjectRef(mod, "PlayerId", player_id) == 0
               ? 0
               : -1;
  Py_XDECREF(sampler);
  Py_XDECREF(player_id);
  return rc;
}

PyObject *pfpy_spiel_enum(const char *name, int v) {
  PyObject *e = PyObject_GetAttrString(game_type_cls, name);
  PyObject *out = e ? PyObject_CallFunction(e, "i", v) : NULL;
  Py_XDECREF(e);
  return out;
}
