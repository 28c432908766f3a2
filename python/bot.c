/*
 * bot.c - pilfer.Bot (docs/python.md): a built-in bot, or a program over the bot protocol, that
 * chooses the move of its seat in a pilfer.State, without the GIL; without a spec, pyspiel.Bot's
 * base class, which OpenSpiel's Python bots (MCTSBot, ISMCTSBot) subclass. A program's failures
 * are counted (failures, last_error) or, with strict=True, raised instead of played round. A
 * measuring instrument (a spec that reads hidden cards: ismcts see=hands|all) only with
 * instrument=True, so that a bot written on the module for a table never takes one by its spec.
 */
#include "pilfer.h"

#include <string.h>

#include "bots/bot.h"

typedef struct {
  PyObject_HEAD char spec[PF_BOT_SPEC];
  int seat;
  uint64_t seed;
  bool ready; /* bot made, for `players` */
  bool busy;  /* choosing, without the GIL: another thread may not use it meanwhile */
  int players;
  bool strict;                            /* a failure raises pilfer.Error: no fallback plays */
  long long failed[PF_BOT_FAIL_KINDS];    /* failures since the bot was made, by kind (bot.h) */
  long long fallback_moves;               /* moves its fallback chose */
  PyObject *last_error;                   /* the last failure's line (a str), or NULL */
  pf_bot bot;
} BotObject;

static int bot_init(BotObject *self, PyObject *args, PyObject *kw) {
  if (self->busy) return PyErr_SetString(pfpy_Error, "the bot is choosing in another thread"), -1;
  static char *names[] = {"spec", "seat", "seed", "strict", "instrument", NULL};
  const char *spec = NULL;
  int seat = 0, strict = 0, instrument = 0;
  PyObject *seedobj = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|siO$pp", names, &spec, &seat, &seedobj, &strict, &instrument)) return -1;
  if (!spec) { /* pyspiel.Bot.__init__(self): the base of a bot written in Python */
    if (self->ready) pf_bot_free(&self->bot);
    self->ready = false;
    self->spec[0] = '\0';
    return 0;
  }
  pf_error err;
  if (strlen(spec) >= PF_BOT_SPEC) return PyErr_SetString(pfpy_Error, "the bot spec is too long"), -1;
  if (pf_bot_check_spec(spec, &err) != 0) return pfpy_fail(&err), -1;
  const char *inst = pf_bot_instrument(spec);
  if (inst && !instrument)
    return PyErr_Format(pfpy_Error,
                        "bot '%s': %s reads what its seat cannot see: a measuring instrument, which a Bot "
                        "plays only with instrument=True (never at a table)",
                        spec, inst),
           -1;
  if (seat < 0 || seat >= PF_MAX_PLAYERS) return PyErr_Format(pfpy_Error, "seat must be from 0 to %d", PF_MAX_PLAYERS - 1), -1;
  uint64_t seed = 0;
  if (seedobj && pfpy_read_uint63(seedobj, "seed", &seed) != 0) return -1;
  if (self->ready) pf_bot_free(&self->bot);
  self->ready = false;
  snprintf(self->spec, sizeof self->spec, "%s", spec);
  self->seat = seat;
  self->seed = seed;
  self->strict = strict;
  memset(self->failed, 0, sizeof self->failed);
  self->fallback_moves = 0;
  Py_CLEAR(self->last_error);
  return 0;
}

static void bot_dealloc(BotObject *self) {
  if (self->ready) pf_bot_free(&self->bot);
  Py_CLEAR(self->last_error);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Counts the failure the last choice ended in, keeps its line, and (strict) raises it: the bot
 * is then as before the choice, so that its next step starts the program anew (bots/exec.c). */
static int bot_failed(BotObject *self) {
  pf_bot *b = &self->bot;
  self->failed[b->fail_kind]++;
  /* decoded with replacement: the line quotes the program, and a quote cut at the message's
   * length may end inside a character */
  PyObject *text = PyUnicode_DecodeUTF8(b->why.msg, (Py_ssize_t)strlen(b->why.msg), "replace");
  if (!text) return -1;
  Py_XSETREF(self->last_error, text);
  if (!self->strict) return 0;
  b->failure = PF_BOT_OK;
  PyErr_SetObject(pfpy_Error, text);
  return -1;
}

/* step(state): the bot's action for its seat, which must be the one to move. The search runs
 * without the GIL, on a copy of the state. */
static PyObject *bot_step(BotObject *self, PyObject *arg) {
  if (!PyObject_TypeCheck(arg, &pfpy_StateType)) return PyErr_SetString(pfpy_Error, "step: give a pilfer.State"), NULL;
  if (!self->spec[0])
    return PyErr_SetString(PyExc_NotImplementedError, "step: a Bot without a spec is a base class: override step"), NULL;
  StateObject *s = (StateObject *)arg;
  if (self->busy) return PyErr_SetString(pfpy_Error, "step: the bot is choosing in another thread"), NULL;
  int who = s->g->to_move(s->st);
  if (who != self->seat) {
    PyErr_Format(pfpy_Error, "step: the bot plays seat %d, and %s is to move", self->seat,
                 who >= 0 ? "another seat" : who == PF_CHANCE ? "chance" : "nobody (the game is over)");
    return NULL;
  }
  pf_error err;
  if (self->ready && self->players != s->players) pf_bot_free(&self->bot), self->ready = false;
  if (!self->ready) {
    if (pf_bot_init(&self->bot, self->spec, s->players, self->seed, self->seat, &err) != 0) return pfpy_fail(&err);
    self->ready = true;
    self->players = s->players;
  }
  void *copy = PyMem_Malloc(s->g->state_size);
  if (!copy) return PyErr_NoMemory();
  memcpy(copy, s->st, s->g->state_size);
  const pf_game *g = s->g;
  pf_move m;
  bool was_ok = self->bot.failure == PF_BOT_OK;
  long fallback = self->bot.fallback_moves;
  self->bot.strict = self->strict;
  self->busy = true;
  Py_BEGIN_ALLOW_THREADS m = pf_bot_choose(&self->bot, g, copy);
  Py_END_ALLOW_THREADS self->busy = false;
  PyMem_Free(copy);
  if (was_ok && self->bot.failure != PF_BOT_OK && bot_failed(self) != 0) {
    self->bot.fallback_moves = fallback; /* strict: the fallback's move is not played */
    return NULL;
  }
  self->fallback_moves += self->bot.fallback_moves - fallback;
  return PyLong_FromLong(pf_action_index(g, s->st, m)); /* the module's actions are dense */
}

/* failures: the counts of the program's failures since the bot was made, by kind, and the moves
 * its fallback chose. */
static PyObject *bot_get_failures(BotObject *self, void *unused) {
  (void)unused;
  PyObject *d = PyDict_New();
  for (int k = 0; d && k <= PF_BOT_FAIL_KINDS; k++) {
    PyObject *v = PyLong_FromLongLong(k < PF_BOT_FAIL_KINDS ? self->failed[k] : self->fallback_moves);
    if (!v || PyDict_SetItemString(d, k < PF_BOT_FAIL_KINDS ? pf_bot_fail_names[k] : "fallback_moves", v) != 0)
      Py_CLEAR(d);
    Py_XDECREF(v);
  }
  return d;
}

static PyObject *bot_get_last_error(BotObject *self, void *unused) {
  (void)unused;
  if (!self->last_error) Py_RETURN_NONE;
  return Py_NewRef(self->last_error);
}

static PyObject *bot_restart(BotObject *self, PyObject *unused) {
  (void)unused;
  if (self->busy) return PyErr_SetString(pfpy_Error, "restart: the bot is choosing in another thread"), NULL;
  if (self->ready) pf_bot_reseed(&self->bot, self->seed, self->seat);
  Py_RETURN_NONE;
}

/* inform_action(state, player, action): pyspiel's; the built-in bots need not be told. */
static PyObject *bot_inform_action(BotObject *self, PyObject *args) {
  (void)self, (void)args;
  Py_RETURN_NONE;
}

static PyObject *bot_false(BotObject *self, PyObject *unused) {
  (void)self, (void)unused;
  Py_RETURN_FALSE;
}

static PyObject *bot_repr(BotObject *self) {
  return PyUnicode_FromFormat("pilfer.Bot(\"%s\", seat=%d, seed=%llu%s)", self->spec, self->seat,
                              (unsigned long long)self->seed, self->strict ? ", strict=True" : "");
}

static PyGetSetDef bot_getset[] = {
    {"failures", (getter)bot_get_failures, NULL,
     "the program's failures since the bot was made, by kind (timeout, ended, illegal, protocol), and "
     "fallback_moves: the moves its fallback chose", NULL},
    {"last_error", (getter)bot_get_last_error, NULL, "the line of the last failure, or None", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef bot_methods[] = {
    {"step", (PyCFunction)bot_step, METH_O, "step(state): the bot's action for its seat"},
    {"restart", (PyCFunction)bot_restart, METH_NOARGS, "reseeds the bot for a new game"},
    {"inform_action", (PyCFunction)bot_inform_action, METH_VARARGS, "inform_action(state, player, action): nothing"},
    {"provides_policy", (PyCFunction)bot_false, METH_NOARGS, "False"},
    {"provides_force_action", (PyCFunction)bot_false, METH_NOARGS, "False"},
    {"is_clonable", (PyCFunction)bot_false, METH_NOARGS, "False"},
    {NULL, NULL, 0, NULL},
};

PyTypeObject pfpy_BotType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pilfer.Bot",
    .tp_basicsize = sizeof(BotObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Bot(spec, seat=0, seed=0, *, strict=False, instrument=False): a built-in bot (\"random\", \"greedy\", "
              "\"ismcts:iters=2000\") or a program (\"exec:...\"); strict: a program's failure raises pilfer.Error; "
              "instrument: take a measuring instrument (ismcts see=hands or see=all), which reads hidden cards. "
              "Bot() with no spec: pyspiel's base class, for bots written in Python.",
    .tp_methods = bot_methods,
    .tp_getset = bot_getset,
    .tp_init = (initproc)bot_init,
    .tp_new = PyType_GenericNew,
    .tp_repr = (reprfunc)bot_repr,
    .tp_dealloc = (destructor)bot_dealloc,
};
