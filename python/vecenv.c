/*
 * vecenv.c - pilfer.VectorEnv (docs/python.md: "Learning"): n games of one game stepped in one
 * call, for reinforcement learning at engine speed. Actions are the dense actions of core/game.h
 * (pf_action_count, pf_action_index, pf_action_move), read from a numpy array; legal-action masks,
 * rewards, dones, the seat to move and (optionally) observation tensors are written into numpy
 * arrays the environment keeps, so that a step allocates nothing. A finished game restarts at
 * once with the next deal; chance events are drawn in C from each game's own generator (G-4).
 *
 * The masks are an n x num_actions uint8 array kept from step to step: a step clears the entries
 * of the legal actions it leaves and sets those of the position it reaches, never the whole row.
 * They are kept by default only when num_actions is at most PF_MAX_ACTIONS, as every game's is
 * (docs/actions.md); a game numbering its moves by their codes would have none unless asked.
 *
 * random_actions() draws each game's action as pf_random_move does (one uniform draw among the
 * legal moves, without listing them where the game can) and remembers the move, so that stepping
 * with exactly those actions checks them for free; any other action is checked against the
 * legal moves the env keeps (a hostile array is refused whole, before any game moves); the arrays
 * it gives Python are read-only, and what Python writes into them is never trusted.
 */
#include "pilfer.h"

#define NO_IMPORT_ARRAY
#include <numpy/arrayobject.h>

#include <structmember.h>
#include <string.h>

#define MAX_ENVS (1 << 20)
#define MAX_MASK_BYTES (1LL << 30) /* n x num_actions */
#define CHANCE_KEPT 8 /* chance_texts: the outcomes kept of a game's last step */

typedef struct {
  PyObject_HEAD GameObject *game;
  const pf_game *g;
  int players, n, nactions, obs_size;
  const pfpy_layout *L;
  uint64_t seed, dealt;
  pf_rng rng;          /* the random actions' */
  size_t ss;           /* a state's bytes, rounded up to 16 */
  unsigned char *states;
  uint64_t *deal_seed; /* each game's deal */
  int32_t *nlegal;     /* with masks: how many legal actions each game has */
  int32_t *legal;      /* with masks: n x PF_MAX_MOVES, the dense legal actions, in legal order */
  pf_move *pending;    /* random_actions' moves */
  int64_t *pending_action;
  pf_move *chosen;     /* a step's moves, checked before any is played */
  char (*ctext)[CHANCE_KEPT][PF_MOVE_STR]; /* chance_texts: each game's outcomes in its last step */
  uint8_t *nctext;     /* how many (CHANCE_KEPT + 1: more than were kept) */
  PyArrayObject *masks, *obs, *rewards, *dones, *to_move;
  long long moves, games;
} VecObject;

static void *state_of(VecObject *v, int i) { return v->states + (size_t)i * v->ss; }

/* Draws game i's chance events until a seat or nobody is to move (G-4), keeping their texts when
 * asked (chance_texts); returns who is to move. */
static int draw_chance(VecObject *v, int i) {
  void *st = state_of(v, i);
  int who;
  while ((who = v->g->to_move(st)) == PF_CHANCE) {
    if (!v->ctext) {
      pf_chance_sample(v->g, st, NULL);
    } else if (v->nctext[i] < CHANCE_KEPT) {
      pf_chance_sample(v->g, st, v->ctext[i][v->nctext[i]++]);
    } else {
      char skip[PF_MOVE_STR];
      pf_chance_sample(v->g, st, skip);
      v->nctext[i] = CHANCE_KEPT + 1;
    }
  }
  return who;
}

static int spiel_player(int who) { return who >= 0 ? who : who == PF_CHANCE ? SPIEL_CHANCE : SPIEL_TERMINAL; }

/* After game i moved and its chance events were drawn, `who` being to move: its seat to move,
 * its mask and observation. */
static void settle(VecObject *v, int i, int who) {
  void *st = state_of(v, i);
  ((int32_t *)PyArray_DATA(v->to_move))[i] = spiel_player(who);
  v->pending_action[i] = -1;
  if (v->masks) {
    uint8_t *mask = (uint8_t *)PyArray_DATA(v->masks) + (size_t)i * (size_t)v->nactions;
    int32_t *legal = v->legal + (size_t)i * PF_MAX_MOVES;
    for (int k = 0; k < v->nlegal[i]; k++) mask[legal[k]] = 0;
    pf_move moves[PF_MAX_MOVES];
    int n = who >= 0 ? v->g->legal(st, moves) : 0;
    for (int k = 0; k < n; k++) mask[legal[k] = pf_action_index(v->g, st, moves[k])] = 1;
    v->nlegal[i] = n;
  }
  if (v->obs) {
    float *row = (float *)PyArray_DATA(v->obs) + (size_t)i * (size_t)v->obs_size;
    memset(row, 0, (size_t)v->obs_size * sizeof *row);
    if (who >= 0) pfpy_observation_fill(v->L, st, who, row);
  }
}

/* Game i starts with the next deal: the k-th deal is Game.new_initial_state()'s k-th of the seed. */
static int begin(VecObject *v, int i) {
  pf_setup setup = {.players = v->players, .options = v->game->options, .seed = pfpy_deal_seed(v->seed, v->dealt++)};
  pf_error err;
  if (v->g->start(state_of(v, i), &setup, &err) != 0) return pfpy_fail(&err), -1;
  v->deal_seed[i] = setup.seed;
  settle(v, i, draw_chance(v, i));
  return 0;
}

static int begin_all(VecObject *v) {
  if (v->masks) memset(PyArray_DATA(v->masks), 0, (size_t)v->n * (size_t)v->nactions);
  for (int i = 0; i < v->n; i++) {
    if (v->masks) v->nlegal[i] = 0;
    if (v->ctext) v->nctext[i] = 0;
    if (begin(v, i) != 0) return -1;
  }
  return 0;
}

static PyArrayObject *array(int nd, npy_intp d0, npy_intp d1, int type) {
  npy_intp dims[2] = {d0, d1};
  return (PyArrayObject *)PyArray_ZEROS(nd, dims, type, 0);
}

static void vec_dealloc(VecObject *v) {
  PyMem_Free(v->states);
  PyMem_Free(v->deal_seed);
  PyMem_Free(v->nlegal);
  PyMem_Free(v->legal);
  PyMem_Free(v->pending);
  PyMem_Free(v->pending_action);
  PyMem_Free(v->chosen);
  PyMem_Free(v->ctext);
  PyMem_Free(v->nctext);
  Py_XDECREF(v->masks);
  Py_XDECREF(v->obs);
  Py_XDECREF(v->rewards);
  Py_XDECREF(v->dones);
  Py_XDECREF(v->to_move);
  Py_XDECREF(v->game);
  Py_TYPE(v)->tp_free((PyObject *)v);
}

/* VectorEnv(game, n, seed=0, observations=False, masks=None). */
static PyObject *vec_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *names[] = {"game", "n", "seed", "observations", "masks", "chance_texts", NULL};
  GameObject *game;
  long long n;
  PyObject *seedobj = NULL, *masksobj = Py_None;
  int observations = 0, chance_texts = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!L|OpOp", names, &pfpy_GameType, &game, &n, &seedobj, &observations,
                                   &masksobj, &chance_texts))
    return NULL;
  if (n < 1 || n > MAX_ENVS) return PyErr_Format(pfpy_Error, "VectorEnv: n must be from 1 to %d", MAX_ENVS), NULL;
  uint64_t seed = 0;
  if (seedobj && pfpy_read_uint63(seedobj, "seed", &seed) != 0) return NULL;
  int nactions = pf_action_count(game->g, game->players, &game->options);
  bool masks = masksobj == Py_None ? nactions <= PF_MAX_ACTIONS : PyObject_IsTrue(masksobj) == 1;
  if (masks && n * nactions > MAX_MASK_BYTES)
    return PyErr_Format(pfpy_Error, "VectorEnv: masks of %lld x %d bytes are too many (at most 2^30)", n, nactions),
           NULL;
  VecObject *v = (VecObject *)type->tp_alloc(type, 0);
  if (!v) return NULL;
  v->game = (GameObject *)Py_NewRef((PyObject *)game);
  v->g = game->g;
  v->players = game->players;
  v->n = (int)n;
  v->nactions = nactions;
  v->seed = seed;
  pf_rng_seed(&v->rng, seed, 0x41435453u);
  v->ss = (game->g->state_size + 15) & ~(size_t)15;
  v->L = pfpy_layout_of(game->g, game->players, &game->options);
  if (!v->L) return Py_DECREF(v), NULL;
  v->obs_size = pfpy_layout_rows(v->L) * NCOLS;
  v->states = PyMem_Calloc((size_t)n, v->ss);
  v->deal_seed = PyMem_Calloc((size_t)n, sizeof *v->deal_seed);
  v->pending = PyMem_Calloc((size_t)n, sizeof *v->pending);
  v->pending_action = PyMem_Calloc((size_t)n, sizeof *v->pending_action);
  v->chosen = PyMem_Calloc((size_t)n, sizeof *v->chosen);
  v->rewards = array(2, n, game->players, NPY_FLOAT32);
  v->dones = array(1, n, 0, NPY_BOOL);
  v->to_move = array(1, n, 0, NPY_INT32);
  bool ok = v->states && v->deal_seed && v->pending && v->pending_action && v->chosen;
  if (masks) {
    v->nlegal = PyMem_Calloc((size_t)n, sizeof *v->nlegal);
    v->legal = PyMem_Calloc((size_t)n * PF_MAX_MOVES, sizeof *v->legal);
    v->masks = array(2, n, nactions, NPY_UINT8);
    ok = ok && v->nlegal && v->legal && v->masks;
  }
  if (observations) ok = ok && (v->obs = array(2, n, v->obs_size, NPY_FLOAT32));
  if (chance_texts && game->g->chance_sample) {
    if (n > MAX_MASK_BYTES / (long long)sizeof *v->ctext) {
      Py_DECREF(v);
      return PyErr_Format(pfpy_Error, "VectorEnv: chance texts of %lld games are too many (at most 2^30 bytes)", n), NULL;
    }
    v->ctext = PyMem_Calloc((size_t)n, sizeof *v->ctext);
    v->nctext = PyMem_Calloc((size_t)n, 1);
    ok = ok && v->ctext && v->nctext;
  }
  if (!ok || !v->rewards || !v->dones || !v->to_move) {
    Py_DECREF(v);
    return PyErr_Occurred() ? NULL : PyErr_NoMemory();
  }
  /* Read-only for Python: the env writes them, a learner reads them. */
  PyArrayObject *mine[] = {v->masks, v->obs, v->rewards, v->dones, v->to_move};
  for (size_t k = 0; k < sizeof mine / sizeof mine[0]; k++)
    if (mine[k]) PyArray_CLEARFLAGS(mine[k], NPY_ARRAY_WRITEABLE);
  if (begin_all(v) != 0) return Py_DECREF(v), NULL;
  return (PyObject *)v;
}

static PyObject *obs_or_none(VecObject *v) { return v->obs ? Py_NewRef((PyObject *)v->obs) : Py_NewRef(Py_None); }

/* reset(seed=None): every game restarts with a new deal; with a seed, as a new VectorEnv would. */
static PyObject *vec_reset(VecObject *v, PyObject *args, PyObject *kw) {
  static char *names[] = {"seed", NULL};
  PyObject *seedobj = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|O", names, &seedobj)) return NULL;
  if (seedobj != Py_None) {
    if (pfpy_read_uint63(seedobj, "seed", &v->seed) != 0) return NULL;
    v->dealt = 0;
    pf_rng_seed(&v->rng, v->seed, 0x41435453u);
  }
  memset(PyArray_DATA(v->rewards), 0, (size_t)v->n * (size_t)v->players * sizeof(float));
  memset(PyArray_DATA(v->dones), 0, (size_t)v->n);
  if (begin_all(v) != 0) return NULL;
  return obs_or_none(v);
}

/* The move of dense action a in game i, or PF_NO_MOVE when it is not legal there. */
static pf_move checked_move(VecObject *v, int i, long long a) {
  if (a >= 0 && a == v->pending_action[i]) return v->pending[i]; /* -1: none pending */
  if (a < 0 || a >= v->nactions) return PF_NO_MOVE;
  void *st = state_of(v, i);
  if (v->masks) { /* the list kept, not the mask, which Python could write to */
    const int32_t *legal = v->legal + (size_t)i * PF_MAX_MOVES;
    for (int k = 0; k < v->nlegal[i]; k++)
      if (legal[k] == a) return pf_action_move(v->g, st, (int)a);
    return PF_NO_MOVE;
  }
  pf_move m = pf_action_move(v->g, st, (int)a), moves[PF_MAX_MOVES];
  if (m == PF_NO_MOVE || v->g->to_move(st) < 0) return PF_NO_MOVE;
  int n = v->g->legal(st, moves);
  for (int k = 0; k < n; k++)
    if (moves[k] == m) return m;
  return PF_NO_MOVE;
}

/* step(actions): plays each game's action; a game that ends gives its rewards, is done, and
 * restarts. Returns (observations or None, rewards, dones), the environment's own arrays. */
static PyObject *vec_step(VecObject *v, PyObject *actions) {
  PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(actions, NPY_INT64, 1, 1, NPY_ARRAY_CARRAY_RO);
  if (!a) {
    PyErr_Clear();
    return PyErr_Format(pfpy_Error, "step: actions must be a 1-D array of %d ints", v->n), NULL;
  }
  if (PyArray_DIM(a, 0) != v->n) {
    Py_DECREF(a);
    return PyErr_Format(pfpy_Error, "step: actions must be a 1-D array of %d ints", v->n), NULL;
  }
  const int64_t *act = PyArray_DATA(a);
  for (int i = 0; i < v->n; i++)
    if ((v->chosen[i] = checked_move(v, i, act[i])) == PF_NO_MOVE) {
      PyErr_Format(pfpy_Error, "step: %lld is not a legal action of game %d", (long long)act[i], i);
      Py_DECREF(a);
      return NULL;
    }
  Py_DECREF(a);
  float *rewards = PyArray_DATA(v->rewards);
  npy_bool *dones = PyArray_DATA(v->dones);
  memset(rewards, 0, (size_t)v->n * (size_t)v->players * sizeof *rewards);
  memset(dones, 0, (size_t)v->n);
  for (int i = 0; i < v->n; i++) {
    void *st = state_of(v, i);
    v->g->apply(st, v->chosen[i]);
    v->moves++;
    if (v->ctext) v->nctext[i] = 0;
    int who = draw_chance(v, i);
    if (who != PF_NOBODY) {
      settle(v, i, who);
      continue;
    }
    int w[PF_MAX_PLAYERS], k = v->g->winners(st, w);
    for (int j = 0; j < k; j++) rewards[(size_t)i * (size_t)v->players + (size_t)w[j]] = 1.0f / (float)k;
    dones[i] = 1;
    v->games++;
    if (begin(v, i) != 0) return NULL;
  }
  return Py_BuildValue("(NOO)", obs_or_none(v), v->rewards, v->dones);
}

/* random_actions(): a uniformly random legal action of each game, drawn in C. */
static PyObject *vec_random_actions(VecObject *v, PyObject *unused) {
  (void)unused;
  npy_intp n = v->n;
  PyArrayObject *out = (PyArrayObject *)PyArray_EMPTY(1, &n, NPY_INT64, 0);
  if (!out) return NULL;
  int64_t *a = PyArray_DATA(out);
  for (int i = 0; i < v->n; i++) {
    void *st = state_of(v, i);
    if (v->masks) { /* the same draw as pf_random_move's, from the list kept */
      int32_t k = (int32_t)pf_rng_below(&v->rng, (uint32_t)v->nlegal[i]);
      a[i] = v->legal[(size_t)i * PF_MAX_MOVES + (size_t)k];
      v->pending[i] = pf_action_move(v->g, st, (int)a[i]);
    } else {
      int k;
      v->pending[i] = pf_random_move(v->g, st, &v->rng, &k);
      a[i] = pf_action_index(v->g, st, v->pending[i]);
    }
    v->pending_action[i] = a[i];
  }
  return (PyObject *)out;
}

static int env_index(VecObject *v, PyObject *arg, int *i) {
  PyObject *ix = PyIndex_Check(arg) ? PyNumber_Index(arg) : NULL;
  long x = ix ? PyLong_AsLong(ix) : -1;
  Py_XDECREF(ix);
  if (PyErr_Occurred()) PyErr_Clear(), x = -1;
  if (x < 0 || x >= v->n) return PyErr_Format(pfpy_Error, "a game of the VectorEnv is from 0 to %d", v->n - 1), -1;
  *i = (int)x;
  return 0;
}

/* legal_actions(i): game i's dense legal actions, ascending as State.legal_actions() gives them. */
static PyObject *vec_legal_actions(VecObject *v, PyObject *arg) {
  int i;
  if (env_index(v, arg, &i) != 0) return NULL;
  void *st = state_of(v, i);
  pf_move moves[PF_MAX_MOVES];
  int n = v->g->to_move(st) >= 0 ? v->g->legal(st, moves) : 0;
  PyObject *list = PyList_New(n);
  for (int k = 0; list && k < n; k++) PyList_SET_ITEM(list, k, PyLong_FromLong(pf_action_index(v->g, st, moves[k])));
  if (list && PyList_Sort(list) != 0) Py_CLEAR(list);
  return list;
}

/* chance_played(i): the texts of the chance outcomes game i drew in the last step (or as it
 * began), for State.apply_move: what makes a State follow the env's game. A step that ended the
 * game gives those before its end, then those of the next game's start. */
static PyObject *vec_chance_played(VecObject *v, PyObject *arg) {
  int i;
  if (env_index(v, arg, &i) != 0) return NULL;
  if (!v->ctext && v->g->chance_sample)
    return PyErr_SetString(pfpy_Error, "chance_played: made without chance_texts=True, the env keeps no texts"), NULL;
  if (!v->ctext) return PyList_New(0); /* a game without chance nodes */
  if (v->nctext[i] > CHANCE_KEPT)
    return PyErr_Format(pfpy_Error, "chance_played: game %d drew more than %d chance outcomes in its last step", i,
                        CHANCE_KEPT),
           NULL;
  PyObject *list = PyList_New(v->nctext[i]);
  for (int k = 0; list && k < v->nctext[i]; k++) {
    PyObject *t = PyUnicode_FromString(v->ctext[i][k]);
    if (!t) return Py_DECREF(list), NULL;
    PyList_SET_ITEM(list, k, t);
  }
  return list;
}

/* deal_seed(i): the seed of game i's deal, for game.new_initial_state(seed). */
static PyObject *vec_deal_seed(VecObject *v, PyObject *arg) {
  int i;
  if (env_index(v, arg, &i) != 0) return NULL;
  return PyLong_FromUnsignedLongLong(v->deal_seed[i]);
}

static PyObject *vec_observations(VecObject *v, void *unused) {
  (void)unused;
  return obs_or_none(v);
}

static PyObject *vec_masks(VecObject *v, void *unused) {
  (void)unused;
  return v->masks ? Py_NewRef((PyObject *)v->masks) : Py_NewRef(Py_None);
}

static PyMethodDef vec_methods[] = {
    {"step", (PyCFunction)vec_step, METH_O,
     "step(actions): each game's dense action; returns (observations or None, rewards, dones), arrays kept by the env"},
    {"random_actions", (PyCFunction)vec_random_actions, METH_NOARGS,
     "a uniformly random legal action of each game, drawn in C (int64 array)"},
    {"sample", (PyCFunction)vec_random_actions, METH_NOARGS, "as random_actions()"},
    {"reset", (PyCFunction)(void (*)(void))vec_reset, METH_VARARGS | METH_KEYWORDS,
     "reset(seed=None): every game restarts with a new deal; returns the observations or None"},
    {"legal_actions", (PyCFunction)vec_legal_actions, METH_O, "legal_actions(i): game i's dense legal actions"},
    {"chance_played", (PyCFunction)vec_chance_played, METH_O,
     "chance_played(i): the chance outcomes game i drew in its last step, as texts (with chance_texts=True)"},
    {"deal_seed", (PyCFunction)vec_deal_seed, METH_O,
     "deal_seed(i): the seed of game i's deal: game.new_initial_state(seed) is the same game"},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef vec_members[] = {
    {"num_envs", T_INT, offsetof(VecObject, n), READONLY, "the number of games"},
    {"num_actions", T_INT, offsetof(VecObject, nactions), READONLY, "the dense actions (pf_action_count)"},
    {"num_players", T_INT, offsetof(VecObject, players), READONLY, "the players of each game"},
    {"observation_size", T_INT, offsetof(VecObject, obs_size), READONLY, "game.observation_tensor_size()"},
    {"rewards", T_OBJECT, offsetof(VecObject, rewards), READONLY,
     "n x players float32: each seat's win share in the games the last step ended, else 0"},
    {"dones", T_OBJECT, offsetof(VecObject, dones), READONLY, "n bool: whether the last step ended the game"},
    {"current_player", T_OBJECT, offsetof(VecObject, to_move), READONLY, "n int32: the seat to move in each game"},
    {"moves", T_LONGLONG, offsetof(VecObject, moves), READONLY, "moves played by step"},
    {"games", T_LONGLONG, offsetof(VecObject, games), READONLY, "games finished"},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef vec_getset[] = {
    {"observations", (getter)vec_observations, NULL,
     "n x observation_size float32: the seat to move's observation tensor in each game, or None", NULL},
    {"masks", (getter)vec_masks, NULL, "n x num_actions uint8: the legal actions of each game, or None", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject pfpy_VectorEnvType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pilfer.VectorEnv",
    .tp_basicsize = sizeof(VecObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "VectorEnv(game, n, seed=0, observations=False, masks=None, chance_texts=False): n games stepped in one call "
              "(docs/python.md: Learning).",
    .tp_methods = vec_methods,
    .tp_members = vec_members,
    .tp_getset = vec_getset,
    .tp_new = vec_new,
    .tp_dealloc = (destructor)vec_dealloc,
};
