/*
 * game.c - pilfer.Game (docs/python.md): a game with its players, options and seed, made by
 * pilfer.load_game; it makes the states (new_initial_state, deserialize_state).
 */
#include "pilfer.h"

#include <string.h>

#include "games/registry.h"

/* An option's value from Python (an int-like object, a bool or a str) as the text the engine
 * parses. */
static int option_text(PyObject *v, char *buf, size_t n) {
  if (PyBool_Check(v)) return snprintf(buf, n, "%s", v == Py_True ? "true" : "false"), 0;
  if (PyIndex_Check(v)) {
    long long x;
    if (pfpy_read_int(v, "a game parameter", &x) != 0) return -1;
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
  self->zero_sum = false;
  return self;
}

double pfpy_game_return(const GameObject *game, int nwinners, bool won) {
  int n = game->players;
  if (!game->zero_sum) return won ? 1.0 / nwinners : 0.0;
  /* share * n/(n-1) - 1/(n-1): a sole winner of two gets +1 and the loser -1, k sharing among n
   * get (n/k - 1)/(n-1); the returns sum to 0. A game nobody won is a draw of all: 0 each. */
  double share = nwinners == 0 ? 1.0 / n : won ? 1.0 / nwinners : 0.0;
  return (share * n - 1.0) / (n - 1);
}

int pfpy_action_count(const GameObject *game) { return pf_action_count(game->g, game->players, &game->options); }

int pfpy_max_chance(const GameObject *game) { return game->g->chance_sample ? PF_MAX_CHANCE : 0; }

/* What load_game reads: the game's parameters. */
typedef struct params {
  const pf_game *g;
  pf_options options;
  long long players;
  uint64_t seed;
  bool zero_sum;
} params;

/* Sets parameter k to value (from the dict, or from the game string as an int or a str). */
static int set_param(params *p, const char *k, PyObject *value) {
  pf_error err;
  if (strcmp(k, "players") == 0) {
    if (pfpy_read_int(value, "players", &p->players) != 0) return -1;
    return 0;
  }
  if (strcmp(k, "seed") == 0) return pfpy_read_uint63(value, "seed", &p->seed);
  if (strcmp(k, "returns") == 0) {
    const char *v = PyUnicode_Check(value) ? PyUnicode_AsUTF8(value) : NULL;
    if (v && (strcmp(v, "win_share") == 0 || strcmp(v, "zero_sum") == 0)) return p->zero_sum = v[0] == 'z', 0;
    PyErr_Clear();
    PyErr_SetString(pfpy_Error, "returns is \"win_share\" (the default) or \"zero_sum\"");
    return -1;
  }
  int i = pf_option_find(p->g->options, p->g->noptions, k);
  if (i < 0) {
    pf_buf b = {0};
    for (int j = 0; j < p->g->noptions; j++) pf_buf_printf(&b, ", %s", p->g->options[j].name);
    PyErr_Format(pfpy_Error, "%s has no parameter '%s'; its parameters are: players, seed, returns%s", p->g->id, k,
                 pf_buf_str(&b));
    pf_buf_free(&b);
    return -1;
  }
  char text[64];
  if (option_text(value, text, sizeof text) != 0) return -1;
  if (pf_option_parse_value(&p->g->options[i], text, &p->options.v[i], &err) != 0) return pfpy_fail(&err), -1;
  return 0;
}

/* The parameters of a game string, "name(k=v,k=v)" (inside the parentheses), as OpenSpiel writes
 * them: a value of digits is an int, any other a str. */
static int set_string_params(params *p, const char *list) {
  char buf[1024];
  size_t len = strlen(list);
  if (len >= sizeof buf) return PyErr_SetString(pfpy_Error, "load_game: the game string is too long"), -1;
  memcpy(buf, list, len + 1);
  for (char *item = buf, *next; item && *item; item = next) {
    next = strchr(item, ',');
    if (next) *next++ = '\0';
    char *eq = strchr(item, '=');
    if (!eq || eq == item) return PyErr_Format(pfpy_Error, "load_game: '%s' is not name=value", item), -1;
    *eq = '\0';
    const char *v = eq + 1;
    size_t digits = strspn(v + (v[0] == '-'), "0123456789");
    PyObject *value = digits && v[(v[0] == '-') + digits] == '\0' ? PyLong_FromString(v, NULL, 10)
                                                                   : PyUnicode_FromString(v);
    int rc = value ? set_param(p, item, value) : -1;
    Py_XDECREF(value);
    if (rc != 0) return -1;
  }
  return 0;
}

PyObject *pfpy_load_game(PyObject *mod, PyObject *args, PyObject *kw) {
  (void)mod;
  static char *names[] = {"name", "params", NULL};
  const char *text;
  PyObject *dict = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "s|O", names, &text, &dict)) return NULL;
  char name[128];
  const char *paren = strchr(text, '(');
  size_t nlen = paren ? (size_t)(paren - text) : strlen(text);
  if (paren && text[strlen(text) - 1] != ')')
    return PyErr_Format(pfpy_Error, "load_game: '%s' is not a game string, name(k=v,...)", text), NULL;
  snprintf(name, sizeof name, "%.*s", (int)(nlen < sizeof name ? nlen : sizeof name - 1), text);
  const pf_game *g = pf_game_find(name);
  if (!g) {
    pf_buf b = {0};
    for (int i = 0; pf_games[i]; i++) pf_buf_join_item(&b, i, "%s", pf_games[i]->id);
    PyErr_Format(pfpy_Error, "unknown game '%s'; games are: %s", name, pf_buf_str(&b));
    pf_buf_free(&b);
    return NULL;
  }
  if (dict && dict != Py_None && !PyDict_Check(dict)) {
    PyErr_SetString(pfpy_Error, "load_game: params must be a dict");
    return NULL;
  }
  params p = {.g = g, .players = g->min_players};
  pf_options_default(g->options, g->noptions, &p.options);
  if (paren && strlen(paren) > 1000) return PyErr_SetString(pfpy_Error, "load_game: the game string is too long"), NULL;
  if (paren) {
    char list[1024];
    snprintf(list, sizeof list, "%.*s", (int)(strlen(paren) - 2), paren + 1);
    if (set_string_params(&p, list) != 0) return NULL;
  }
  PyObject *key, *value;
  Py_ssize_t pos = 0;
  while (dict && dict != Py_None && PyDict_Next(dict, &pos, &key, &value)) {
    const char *k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
    if (!k) {
      PyErr_SetString(pfpy_Error, "load_game: parameter names are strings");
      return NULL;
    }
    if (set_param(&p, k, value) != 0) return NULL;
  }
  pf_error err;
  if (p.players < INT32_MIN || p.players > INT32_MAX) p.players = -1;
  if (pf_check_players(g, p.players, &err) != 0) return pfpy_fail(&err);
  if (p.zero_sum && p.players < 2)
    return PyErr_SetString(pfpy_Error, "returns=zero_sum needs 2 players or more"), NULL;
  GameObject *game = pfpy_game_new(g, (int)p.players, &p.options, p.seed);
  if (game) game->zero_sum = p.zero_sum;
  return (PyObject *)game;
}

/* The game string load_game reads back: the players, and the seed, options and returns that are
 * not the defaults, as OpenSpiel writes a game. */
static PyObject *game_str(GameObject *self) {
  pf_buf b = {0};
  pf_buf_printf(&b, "%s(players=%d", self->g->id, self->players);
  if (self->seed) pf_buf_printf(&b, ",seed=%llu", (unsigned long long)self->seed);
  for (int i = 0; i < self->g->noptions; i++) {
    const pf_option_desc *d = &self->g->options[i];
    if (self->options.v[i] == d->def) continue;
    if (d->type == PF_OPT_BOOL)
      pf_buf_printf(&b, ",%s=%s", d->name, self->options.v[i] ? "true" : "false");
    else
      pf_buf_printf(&b, ",%s=%lld", d->name, (long long)self->options.v[i]);
  }
  if (self->zero_sum) pf_buf_puts(&b, ",returns=zero_sum");
  pf_buf_putc(&b, ')');
  PyObject *out = PyUnicode_FromString(pf_buf_str(&b));
  pf_buf_free(&b);
  return out;
}

static PyObject *game_to_string(GameObject *self, PyObject *unused) {
  (void)unused;
  return game_str(self);
}

/* Equal games: the same game string (the game, players, seed, options, returns). */
static PyObject *game_richcompare(PyObject *a, PyObject *b, int op) {
  if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(b, &pfpy_GameType)) Py_RETURN_NOTIMPLEMENTED;
  PyObject *sa = game_str((GameObject *)a), *sb = sa ? game_str((GameObject *)b) : NULL;
  int eq = sb ? PyUnicode_Compare(sa, sb) == 0 : -1;
  Py_XDECREF(sa), Py_XDECREF(sb);
  return eq < 0 ? NULL : PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static Py_hash_t game_hash(GameObject *self) {
  PyObject *s = game_str(self);
  Py_hash_t h = s ? PyObject_Hash(s) : -1;
  Py_XDECREF(s);
  return h;
}

/* Pickled as its game string: load_game(str(game)). */
static PyObject *game_reduce(GameObject *self, PyObject *unused) {
  (void)unused;
  PyObject *mod = PyImport_ImportModule("pilfer");
  PyObject *load = mod ? PyObject_GetAttrString(mod, "load_game") : NULL;
  Py_XDECREF(mod);
  return load ? Py_BuildValue("(N(N))", load, game_str(self)) : NULL;
}

static PyObject *game_num_players(GameObject *self, PyObject *unused) {
  (void)unused;
  return PyLong_FromLong(self->players);
}

/* The dense actions' count (pf_action_count: the move codes' bound for a game without the hook). */
static PyObject *game_num_distinct_actions(GameObject *self, PyObject *unused) {
  (void)unused;
  return PyLong_FromLong(pfpy_action_count(self));
}

static PyObject *game_policy_tensor_shape(GameObject *self, PyObject *unused) {
  (void)unused;
  return Py_BuildValue("[i]", pfpy_action_count(self));
}

/* OpenSpiel's meaning: the most outcomes a chance node has, 0 for a game without chance nodes. */
static PyObject *game_max_chance_outcomes(GameObject *self, PyObject *unused) {
  (void)unused;
  return PyLong_FromLong(pfpy_max_chance(self));
}

/* pf_max_length: a bound on the steps, moves and chance outcomes (OpenSpiel counts the moves
 * alone: this bounds them too); 0 for a game that does not give one. */
static PyObject *game_max_game_length(GameObject *self, PyObject *unused) {
  (void)unused;
  return PyLong_FromLong(pf_max_length(self->g, self->players, &self->options));
}

/* A whole win: 1 either way. */
static PyObject *game_max_utility(GameObject *self, PyObject *unused) {
  (void)self, (void)unused;
  return PyFloat_FromDouble(1.0);
}

/* No win: 0, or zero-sum -1/(n-1). */
static PyObject *game_min_utility(GameObject *self, PyObject *unused) {
  (void)unused;
  return PyFloat_FromDouble(pfpy_game_return(self, 1, false));
}

/* The returns' sum: 1 (win shares of 2 or more players), 0 (zero-sum), None (one player, who wins
 * or not). */
static PyObject *game_utility_sum(GameObject *self, PyObject *unused) {
  (void)unused;
  if (self->zero_sum) return PyFloat_FromDouble(0.0);
  if (self->players < 2) Py_RETURN_NONE;
  return PyFloat_FromDouble(1.0);
}

/* get_type(): as pyspiel's GameType. Every game is sequential (simultaneous choices are asked seat
 * by seat, PAP-4) with hidden cards, rewarded at the end; its chance nodes (G-4), when it has any,
 * list their outcomes (pf_chance_outcomes). The deal is not a chance node: it is the seed's. */
static PyObject *game_get_type(GameObject *self, PyObject *unused) {
  (void)unused;
  const pf_game *g = self->g;
  int utility = self->zero_sum ? 0 : self->players < 2 ? 2 : 1; /* ZERO_SUM, GENERAL_SUM, CONSTANT_SUM */
  PyObject *spec = PyDict_New();
  for (int i = 0; spec && i < g->noptions; i++) {
    const pf_option_desc *d = &g->options[i];
    PyObject *v = d->type == PF_OPT_BOOL ? PyBool_FromLong(d->def != 0) : PyLong_FromLongLong(d->def);
    if (!v || PyDict_SetItemString(spec, d->name, v) != 0) Py_CLEAR(spec);
    Py_XDECREF(v);
  }
  PyObject *players = PyLong_FromLong(g->min_players), *seed = PyLong_FromLong(0),
           *returns = PyUnicode_FromString("win_share");
  if (spec && (!players || !seed || !returns || PyDict_SetItemString(spec, "players", players) != 0 ||
               PyDict_SetItemString(spec, "seed", seed) != 0 || PyDict_SetItemString(spec, "returns", returns) != 0))
    Py_CLEAR(spec);
  Py_XDECREF(players), Py_XDECREF(seed), Py_XDECREF(returns);
  /* An information state tensor only once the State has one. */
  int infotensor = PyObject_HasAttrString((PyObject *)&pfpy_StateType, "information_state_tensor");
  PyObject *fields = spec ? Py_BuildValue(
                                "{sssssNsNsNsNsNsisisOsOsOsOsN}", "short_name", g->id, "long_name", g->title,
                                "dynamics", pfpy_spiel_enum("Dynamics", 1), "chance_mode",
                                pfpy_spiel_enum("ChanceMode", g->chance_sample ? 1 : 0), "information",
                                pfpy_spiel_enum("Information", 2), "utility", pfpy_spiel_enum("Utility", utility),
                                "reward_model", pfpy_spiel_enum("RewardModel", 1), "max_num_players", g->max_players,
                                "min_num_players", g->min_players, "provides_information_state_string", Py_True,
                                "provides_information_state_tensor", infotensor ? Py_True : Py_False,
                                "provides_observation_string", Py_True, "provides_observation_tensor", Py_True,
                                "parameter_specification", spec)
                          : NULL;
  PyObject *out = fields ? pfpy_game_type_new(fields) : NULL;
  Py_XDECREF(fields);
  return out;
}

static PyObject *game_short_name(GameObject *self, PyObject *unused) {
  (void)unused;
  return PyUnicode_FromString(self->g->id);
}

/* get_parameters(): the record's options (SPEC §2), then players, seed and returns. */
static PyObject *game_parameters(GameObject *self, PyObject *unused) {
  (void)unused;
  pf_buf b = {0};
  pf_jw w = {.b = &b};
  pf_record_options_write(&w, self->g, &self->options);
  b.data[--b.len] = '\0'; /* the options' closing brace: players and seed follow them */
  w.comma = b.data[b.len - 1] != '{';
  pf_jw_key_int(&w, "players", self->players);
  pf_jw_key_int(&w, "seed", (long long)self->seed);
  pf_jw_key_str(&w, "returns", self->zero_sum ? "zero_sum" : "win_share");
  pf_jw_close(&w, '}');
  PyObject *out = pfpy_json_to_py(&b, w.rc);
  pf_buf_free(&b);
  return out;
}

static PyObject *game_repr(GameObject *self) {
  PyObject *s = game_str(self);
  PyObject *out = s ? PyUnicode_FromFormat("pilfer.load_game(\"%U\")", s) : NULL;
  Py_XDECREF(s);
  return out;
}

uint64_t pfpy_deal_seed(uint64_t seed, uint64_t k) {
  pf_rng r;
  pf_rng_seed(&r, seed, 0x5059000000000000ull + k);
  return pf_rng_next(&r) >> 1;
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
    setup.seed = pfpy_deal_seed(self->seed, self->dealt++);
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
     "the dense actions: every action is in [0, num_distinct_actions())"},
    {"max_chance_outcomes", (PyCFunction)game_max_chance_outcomes, METH_NOARGS,
     "the most outcomes of a chance node (PF_MAX_CHANCE), 0 for a game without chance nodes"},
    {"max_utility", (PyCFunction)game_max_utility, METH_NOARGS, "a whole win: 1"},
    {"min_utility", (PyCFunction)game_min_utility, METH_NOARGS, "no win: 0 (zero-sum: -1/(n-1))"},
    {"utility_sum", (PyCFunction)game_utility_sum, METH_NOARGS, "the returns' sum: 1, 0 (zero-sum) or None (one player)"},
    {"get_type", (PyCFunction)game_get_type, METH_NOARGS, "the game's GameType, as pyspiel's"},
    {"max_game_length", (PyCFunction)game_max_game_length, METH_NOARGS,
     "a bound on a game's steps (moves and chance outcomes), 0 when the game gives none"},
    {"policy_tensor_shape", (PyCFunction)game_policy_tensor_shape, METH_NOARGS, "[num_distinct_actions()]"},
    {"to_string", (PyCFunction)game_to_string, METH_NOARGS, "the game string: str(game), which load_game reads"},
    {"__reduce__", (PyCFunction)game_reduce, METH_NOARGS, "pickled as its game string"},
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
    .tp_str = (reprfunc)game_str,
    .tp_richcompare = game_richcompare,
    .tp_hash = (hashfunc)game_hash,
    .tp_dealloc = (destructor)PyObject_Del,
};
