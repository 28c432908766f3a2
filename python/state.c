/*
 * state.c - pilfer.State (docs/python.md): a position of a game and its history as move codes,
 * with OpenSpiel's methods over it; its views and observation tensors, its record, its
 * serialization; load.c reads states back from text.
 */
#include "pilfer.h"

#define NO_IMPORT_ARRAY
#include <numpy/arrayobject.h>

#include <string.h>

#include "core/run.h"
#include "core/view.h"

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
  s->chance_id = NULL;
  s->nchance = s->capchance = 0;
  s->rs = NULL;
  s->nrs = 0;
  s->sampled = false;
  s->nlegal = -1;
  s->co = NULL;
  s->nco = -1;
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
  PyMem_Free(s->chance_id);
  PyMem_Free(s->rs);
  PyMem_Free(s->co);
  pfpy_track_free(s->track);
  Py_XDECREF(s->game);
  PyObject_Del(s);
}

/* The position changed: what was known of it is not. */
static void forget(StateObject *s) { s->nlegal = s->nco = -1; }

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

/* Notes a chance outcome just played (its canonical string, and its id or -1). */
static int push_chance(StateObject *s, const char *canon, int32_t id) {
  if (s->nchance == s->capchance) {
    int cap = s->capchance ? 2 * s->capchance : 16;
    char(*c)[PF_MOVE_STR] = PyMem_Realloc(s->chance, (size_t)cap * sizeof *c);
    if (c) s->chance = c;
    int32_t *ids = c ? PyMem_Realloc(s->chance_id, (size_t)cap * sizeof *ids) : NULL;
    if (!ids) return PyErr_NoMemory(), -1;
    s->chance_id = ids;
    s->capchance = cap;
  }
  snprintf(s->chance[s->nchance], PF_MOVE_STR, "%s", canon);
  s->chance_id[s->nchance] = id;
  return push_step(s, PF_CHANCE, (uint32_t)s->nchance++);
}

/* The legal moves (in the game's order) and their dense actions (ascending, with their moves). */
static int ensure_legal(StateObject *s) {
  if (s->nlegal >= 0) return s->nlegal;
  int n = s->g->to_move(s->st) >= 0 ? s->g->legal(s->st, s->legal) : 0;
  for (int i = 0; i < n; i++) { /* insertion: few moves, often in order already */
    int32_t a = pf_action_index(s->g, s->st, s->legal[i]);
    int j = i;
    for (; j > 0 && s->act[j - 1].a > a; j--) s->act[j] = s->act[j - 1];
    s->act[j].a = a;
    s->act[j].m = s->legal[i];
  }
  return s->nlegal = n;
}

/* At a chance node, its outcomes (pf_chance_outcomes) in s->co, by id ascending; how many, or -1
 * with a Python error. */
static int ensure_chance(StateObject *s) {
  if (s->nco >= 0) return s->nco;
  if (!s->co && !(s->co = PyMem_Malloc(PF_MAX_CHANCE * sizeof *s->co))) return PyErr_NoMemory(), -1;
  int n = pf_chance_outcomes(s->g, s->st, s->co);
  if (n < 1) return PyErr_SetString(pfpy_Error, "the game listed no chance outcome here"), -1;
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && s->co[j - 1].id > s->co[j].id; j--) {
      pf_chance_outcome t = s->co[j];
      s->co[j] = s->co[j - 1];
      s->co[j - 1] = t;
    }
  return s->nco = n;
}

/* The id of the chance outcome whose canonical string is canon, among those listed; -1. */
static int32_t outcome_id(StateObject *s, const char *canon) {
  for (int i = 0; i < s->nco; i++)
    if (strcmp(s->co[i].text, canon) == 0) return (int32_t)s->co[i].id;
  return -1;
}

static int spiel_player(int who) { return who >= 0 ? who : who == PF_CHANCE ? SPIEL_CHANCE : SPIEL_TERMINAL; }

/* A seat number from Python: 0 .. players - 1. */
static int read_seat(StateObject *s, PyObject *v, int *seat) {
  long long p;
  if (pfpy_read_int(v, "a player", &p) != 0 || p < 0 || p >= s->players) {
    PyErr_Clear();
    PyErr_Format(pfpy_Error, "a player is a seat from 0 to %d", s->players - 1);
    return -1;
  }
  *seat = (int)p;
  return 0;
}

/* An action from Python: a legal action of the seat to move, into its move code *m; at a chance
 * node, the id of an outcome, into its place *k in s->co. */
static int read_action(StateObject *s, PyObject *v, pf_move *m, int *k) {
  int who = s->g->to_move(s->st);
  if (who == PF_NOBODY) {
    PyErr_SetString(pfpy_Error, "the game is over");
    return -1;
  }
  long long a;
  if (pfpy_read_int(v, "an action", &a) != 0) return -1;
  if (who == PF_CHANCE) {
    int n = ensure_chance(s);
    for (int i = 0; i < n; i++)
      if ((long long)s->co[i].id == a) return *k = i, *m = 0, 0;
    if (n >= 0) PyErr_Format(pfpy_Error, "%lld is not a chance outcome here (chance_outcomes() lists them)", a);
    return -1;
  }
  int lo = 0, hi = ensure_legal(s);
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (s->act[mid].a < a) lo = mid + 1;
    else hi = mid;
  }
  if (lo < s->nlegal && s->act[lo].a == a) return *m = s->act[lo].m, *k = -1, 0;
  PyErr_Format(pfpy_Error, "%lld is not a legal action of seat %d here", a, who);
  return -1;
}

/* Plays read_action's: move m of the seat to move, or chance outcome k of s->co. */
static int play(StateObject *s, pf_move m, int k) {
  int who = s->g->to_move(s->st);
  if (who == PF_CHANCE) {
    char canon[PF_MOVE_STR];
    pf_error err;
    int32_t id = (int32_t)s->co[k].id;
    if (pf_chance_apply(s->g, s->st, s->co[k].text, canon, &err) != 0) return pfpy_fail(&err), -1;
    forget(s);
    return push_chance(s, canon, id);
  }
  s->g->apply(s->st, m);
  forget(s);
  return push_step(s, who, m);
}

/* Plays a move or chance outcome given as text, as records write them. */
static int play_text(StateObject *s, const char *text, pf_error *err) {
  int who = s->g->to_move(s->st);
  if (who == PF_NOBODY) return pf_fail(err, "the game is over");
  if (who == PF_CHANCE) {
    char canon[PF_MOVE_STR];
    if (ensure_chance(s) < 0) return PyErr_Clear(), pf_fail(err, "out of memory");
    if (pf_chance_apply(s->g, s->st, text, canon, err) != 0) return -1;
    int32_t id = outcome_id(s, canon);
    forget(s);
    if (push_chance(s, canon, id) != 0) return PyErr_Clear(), pf_fail(err, "out of memory");
    return 0;
  }
  pf_move m;
  if (s->g->move_parse(s->st, text, &m, err) != 0) return -1;
  s->g->apply(s->st, m);
  forget(s);
  return push_step(s, who, m) == 0 ? 0 : (PyErr_Clear(), pf_fail(err, "out of memory"));
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

static PyObject *st_is_player_node(StateObject *s, PyObject *unused) {
  (void)unused;
  return PyBool_FromLong(s->g->to_move(s->st) >= 0);
}

static PyObject *st_false(StateObject *s, PyObject *unused) {
  (void)s, (void)unused;
  Py_RETURN_FALSE; /* simultaneous choices are asked seat by seat (PAP-4); no mean field */
}

static PyObject *st_is_initial_state(StateObject *s, PyObject *unused) {
  (void)unused;
  return PyBool_FromLong(s->nhist == 0 && s->nrs == 0 && !s->sampled);
}

/* Whose actions legal_actions(player) asks: the one to move, a seat, or pilfer.CHANCE. Sets *mine
 * to whether that one is to move. */
static int read_whose(StateObject *s, PyObject *player, bool *mine) {
  int who = s->g->to_move(s->st);
  *mine = who != PF_NOBODY;
  if (!player || player == Py_None) return 0;
  long long p;
  if (pfpy_read_int(player, "a player", &p) != 0) return -1;
  if (p == SPIEL_CHANCE) return *mine = who == PF_CHANCE, 0;
  int seat;
  if (read_seat(s, player, &seat) != 0) return -1;
  *mine = seat == who;
  return 0;
}

/* The dense actions of the seat to move, ascending; the outcomes' ids at a chance node. */
static PyObject *legal_list(StateObject *s) {
  bool chance = s->g->to_move(s->st) == PF_CHANCE;
  int n = chance ? ensure_chance(s) : ensure_legal(s);
  PyObject *list = n >= 0 ? PyList_New(n) : NULL;
  for (int i = 0; list && i < n; i++) {
    PyObject *a = PyLong_FromLong(chance ? (long)s->co[i].id : (long)s->act[i].a);
    if (!a) Py_CLEAR(list);
    else PyList_SET_ITEM(list, i, a);
  }
  return list;
}

static PyObject *st_legal_actions(StateObject *s, PyObject *args) {
  PyObject *player = NULL;
  bool mine;
  if (!PyArg_ParseTuple(args, "|O", &player) || read_whose(s, player, &mine) != 0) return NULL;
  return mine ? legal_list(s) : PyList_New(0);
}

/* legal_actions_mask(player=None): 1 for each legal action, of num_distinct_actions() (at a chance
 * node, of max_chance_outcomes()), as OpenSpiel's. */
static PyObject *st_legal_actions_mask(StateObject *s, PyObject *args) {
  PyObject *player = NULL;
  bool mine;
  if (!PyArg_ParseTuple(args, "|O", &player) || read_whose(s, player, &mine) != 0) return NULL;
  long long p = SPIEL_INVALID;
  if (player && player != Py_None) pfpy_read_int(player, "a player", &p);
  bool chance = player && player != Py_None ? p == SPIEL_CHANCE : s->g->to_move(s->st) == PF_CHANCE;
  int len = chance ? pfpy_max_chance(s->game) : pfpy_action_count(s->game);
  PyObject *mask = PyList_New(len);
  if (!mask) return NULL;
  PyObject *zero = PyLong_FromLong(0), *one = PyLong_FromLong(1);
  for (int i = 0; i < len; i++) PyList_SET_ITEM(mask, i, Py_NewRef(zero));
  int n = mine ? (chance ? ensure_chance(s) : ensure_legal(s)) : 0;
  for (int i = 0; i < n; i++) {
    long a = chance ? (long)s->co[i].id : (long)s->act[i].a;
    if (a >= 0 && a < len) Py_SETREF(PyList_GET_ITEM(mask, a), Py_NewRef(one)); /* within, by the contract */
  }
  Py_DECREF(zero), Py_DECREF(one);
  if (n < 0) Py_CLEAR(mask);
  return mask;
}

static PyObject *st_apply_action(StateObject *s, PyObject *action) {
  pf_move m;
  int k;
  if (read_action(s, action, &m, &k) != 0 || play(s, m, k) != 0) return NULL;
  Py_RETURN_NONE;
}

static PyObject *st_apply_move(StateObject *s, PyObject *args) {
  const char *text;
  if (!PyArg_ParseTuple(args, "s", &text)) return NULL;
  pf_error err;
  if (play_text(s, text, &err) != 0) return pfpy_fail(&err);
  Py_RETURN_NONE;
}

/* [(id, probability), ...] by id: every outcome where the game lists them all, else an equally
 * likely sample (the game's rules header says which); [(0, 1.0)] for one that lists none. */
static PyObject *st_chance_outcomes(StateObject *s, PyObject *unused) {
  (void)unused;
  if (s->g->to_move(s->st) != PF_CHANCE) {
    PyErr_SetString(pfpy_Error, "chance_outcomes: this is not a chance node");
    return NULL;
  }
  int n = ensure_chance(s);
  PyObject *list = n >= 0 ? PyList_New(n) : NULL;
  for (int i = 0; list && i < n; i++) {
    PyObject *t = Py_BuildValue("(kd)", (unsigned long)s->co[i].id, s->co[i].p);
    if (!t) Py_CLEAR(list);
    else PyList_SET_ITEM(list, i, t);
  }
  return list;
}

/* Each seat's return when the game is over (zeros before): its share of the win, or zero-sum. */
static void returns_of(StateObject *s, double *r) {
  for (int p = 0; p < s->players; p++) r[p] = 0.0;
  if (s->g->to_move(s->st) != PF_NOBODY) return;
  int w[PF_MAX_PLAYERS], n = s->g->winners(s->st, w);
  bool won[PF_MAX_PLAYERS] = {false};
  for (int i = 0; i < n; i++) won[w[i]] = true;
  for (int p = 0; p < s->players; p++) r[p] = pfpy_game_return(s->game, n, won[p]);
}

static PyObject *st_returns(StateObject *s, PyObject *unused) {
  (void)unused;
  double r[PF_MAX_PLAYERS];
  returns_of(s, r);
  PyObject *list = PyList_New(s->players);
  for (int p = 0; list && p < s->players; p++) PyList_SET_ITEM(list, p, PyFloat_FromDouble(r[p]));
  return list;
}

static PyObject *st_player_return(StateObject *s, PyObject *player) {
  int p;
  if (read_seat(s, player, &p) != 0) return NULL;
  double r[PF_MAX_PLAYERS];
  returns_of(s, r);
  return PyFloat_FromDouble(r[p]);
}

static PyObject *st_scores(StateObject *s, PyObject *unused) {
  (void)unused;
  int sc[PF_MAX_PLAYERS];
  s->g->scores(s->st, sc);
  PyObject *list = PyList_New(s->players);
  for (int p = 0; list && p < s->players; p++) PyList_SET_ITEM(list, p, PyLong_FromLong(sc[p]));
  return list;
}

/* The legal action's move string, or the chance outcome's. */
static PyObject *action_string(StateObject *s, PyObject *action) {
  pf_move m;
  int k;
  if (read_action(s, action, &m, &k) != 0) return NULL;
  if (k >= 0) return PyUnicode_FromString(s->co[k].text);
  char buf[PF_MOVE_STR];
  s->g->move_str(s->st, m, buf);
  return PyUnicode_FromString(buf);
}

/* action_to_string(player, a) or action_to_string(a). */
static PyObject *st_action_to_string(StateObject *s, PyObject *args) {
  PyObject *a, *b = NULL;
  if (!PyArg_ParseTuple(args, "O|O", &a, &b)) return NULL;
  if (b) {
    long long p;
    if (pfpy_read_int(a, "a player", &p) != 0 || p != spiel_player(s->g->to_move(s->st))) {
      PyErr_Clear();
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
  long long pl;
  if (p && (pfpy_read_int(p, "a player", &pl) != 0 || pl != spiel_player(who))) {
    PyErr_Clear();
    PyErr_SetString(pfpy_Error, "string_to_action: the player must be the one to move (current_player())");
    return NULL;
  }
  if (who == PF_NOBODY) return PyErr_SetString(pfpy_Error, "the game is over"), NULL;
  pf_error err;
  if (who == PF_CHANCE) { /* the outcome read on a copy, as any accepted form, then found by its string */
    if (ensure_chance(s) < 0) return NULL;
    void *copy = PyMem_Malloc(s->g->state_size);
    if (!copy) return PyErr_NoMemory();
    memcpy(copy, s->st, s->g->state_size);
    char canon[PF_MOVE_STR];
    int rc = pf_chance_apply(s->g, copy, text, canon, &err);
    PyMem_Free(copy);
    if (rc != 0) return pfpy_fail(&err);
    int32_t id = outcome_id(s, canon);
    if (id < 0) return PyErr_Format(pfpy_Error, "string_to_action: %s is not among chance_outcomes() here", canon), NULL;
    return PyLong_FromLong(id);
  }
  pf_move m;
  if (s->g->move_parse(s->st, text, &m, &err) != 0) return pfpy_fail(&err);
  return PyLong_FromLong(pf_action_index(s->g, s->st, m));
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
  c->chance_id = s->nchance ? PyMem_Malloc((size_t)s->nchance * sizeof *c->chance_id) : NULL;
  c->rs = s->nrs ? PyMem_Malloc((size_t)s->nrs * sizeof *c->rs) : NULL;
  c->track = s->track ? pfpy_track_copy(s->track) : NULL;
  if ((s->nhist && !c->hist) || (s->nchance && (!c->chance || !c->chance_id)) || (s->nrs && !c->rs) ||
      (s->track && !c->track)) {
    Py_DECREF(c);
    return (StateObject *)PyErr_NoMemory();
  }
  if (s->nhist) memcpy(c->hist, s->hist, (size_t)s->nhist * sizeof *c->hist);
  if (s->nchance) memcpy(c->chance, s->chance, (size_t)s->nchance * sizeof *c->chance);
  if (s->nchance) memcpy(c->chance_id, s->chance_id, (size_t)s->nchance * sizeof *c->chance_id);
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

/* resample_from_infostate(player, seed or sampler): the game's determinize for the seat (game.h),
 * with a generator seeded by the int, or by a seed drawn from OpenSpiel's sampler (a callable
 * giving floats in [0, 1), as pyspiel.UniformProbabilitySampler). */
static PyObject *st_resample(StateObject *s, PyObject *args) {
  PyObject *p, *seedobj;
  if (!PyArg_ParseTuple(args, "OO", &p, &seedobj)) return NULL;
  int seat;
  uint64_t seed;
  if (read_seat(s, p, &seat) != 0) return NULL;
  if (!PyIndex_Check(seedobj) && PyCallable_Check(seedobj)) {
    if (pfpy_seed_from_sampler(seedobj, &seed) != 0) return NULL;
  } else if (pfpy_read_uint63(seedobj, "seed", &seed) != 0) {
    return NULL;
  }
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
  forget(c);
  if (c->track) pfpy_track_resample(c, seat);
  return (PyObject *)c;
}

/* Refuses (-1, with a Python error) a state that has no history: one from a sample. */
static int has_history(StateObject *s, const char *what) {
  if (!s->sampled) return 0;
  PyErr_Format(pfpy_Error, "%s: a state from a sample is a position without a history", what);
  return -1;
}

/* Step i's action: the dense action of its move (a function of the code and the game alone, so
 * the state now gives it), or its chance outcome's id. */
static long step_action(StateObject *s, int i) {
  step st = s->hist[i];
  return st.who == PF_CHANCE ? (long)s->chance_id[st.code] : (long)pf_action_index(s->g, s->st, st.code);
}

static PyObject *st_history(StateObject *s, PyObject *unused) {
  (void)unused;
  if (has_history(s, "history") != 0) return NULL;
  PyObject *list = PyList_New(s->nhist);
  for (int i = 0; list && i < s->nhist; i++) {
    PyObject *a = PyLong_FromLong(step_action(s, i));
    if (!a) Py_CLEAR(list);
    else PyList_SET_ITEM(list, i, a);
  }
  return list;
}

/* history_str(): OpenSpiel's, the actions joined by ", ". */
static PyObject *st_history_str(StateObject *s, PyObject *unused) {
  (void)unused;
  if (has_history(s, "history_str") != 0) return NULL;
  pf_buf b = {0};
  for (int i = 0; i < s->nhist; i++) pf_buf_printf(&b, i ? ", %ld" : "%ld", step_action(s, i));
  PyObject *out = PyUnicode_FromString(pf_buf_str(&b));
  pf_buf_free(&b);
  return out;
}

/* full_history(): a PlayerAction(player, action) for each step. */
static PyObject *st_full_history(StateObject *s, PyObject *unused) {
  (void)unused;
  if (has_history(s, "full_history") != 0) return NULL;
  PyObject *list = PyList_New(s->nhist);
  for (int i = 0; list && i < s->nhist; i++) {
    PyObject *pa = pfpy_player_action(spiel_player(s->hist[i].who), step_action(s, i));
    if (!pa) Py_CLEAR(list);
    else PyList_SET_ITEM(list, i, pa);
  }
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

/* undo_action(player, action): takes back the last step, which must be that player's action, by
 * playing the history before it again from the setup (with the resamples made before it). */
static PyObject *st_undo_action(StateObject *s, PyObject *args) {
  PyObject *po, *ao;
  long long p, a;
  if (!PyArg_ParseTuple(args, "OO", &po, &ao) || pfpy_read_int(po, "a player", &p) != 0 ||
      pfpy_read_int(ao, "an action", &a) != 0 || has_history(s, "undo_action") != 0)
    return NULL;
  int last = s->nhist - 1;
  if (last < 0 || spiel_player(s->hist[last].who) != p || step_action(s, last) != a)
    return PyErr_Format(pfpy_Error, "undo_action: (%lld, %lld) is not the last step of the history", p, a), NULL;
  void *st = PyMem_Malloc(s->g->state_size);
  if (!st) return PyErr_NoMemory();
  pf_error err;
  int rc = s->g->start(st, &s->setup, &err), r = 0;
  for (int i = 0; rc == 0 && i <= last; i++) {
    for (; r < s->nrs && s->rs[r].at == i; r++) determinize(s->g, st, s->rs[r].seat, s->rs[r].seed);
    if (i == last) break;
    rc = pfpy_play_step(s, st, i, &err);
  }
  if (rc != 0) { /* cannot be: the same steps were played from the same setup */
    PyMem_Free(st);
    return pfpy_fail(&err);
  }
  memcpy(s->st, st, s->g->state_size);
  PyMem_Free(st);
  if (s->hist[last].who == PF_CHANCE) s->nchance--;
  s->nhist = last;
  s->nrs = r;
  forget(s);
  Py_RETURN_NONE;
}

int pfpy_play_step(const StateObject *s, void *st, int i, pf_error *err) {
  char canon[PF_MOVE_STR];
  if (s->hist[i].who == PF_CHANCE) return pf_chance_apply(s->g, st, s->chance[s->hist[i].code], canon, err);
  s->g->apply(st, s->hist[i].code);
  return 0;
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

/* random_playout(seed): uniformly random moves and chance outcomes drawn by their probabilities
 * (chance_outcomes'), from a generator of that seed, to the end, in C; returns how many steps. */
static PyObject *st_random_playout(StateObject *s, PyObject *seedobj) {
  uint64_t seed;
  if (pfpy_read_uint63(seedobj, "seed", &seed) != 0) return NULL;
  pf_rng rng;
  pf_rng_seed(&rng, seed, 0);
  long played = 0;
  for (int who; (who = s->g->to_move(s->st)) != PF_NOBODY; played++) {
    pf_move m = 0;
    int k = -1;
    if (who == PF_CHANCE) {
      int n = ensure_chance(s);
      if (n < 0) return NULL;
      double u = (double)(pf_rng_next(&rng) >> 11) * (1.0 / 9007199254740992.0);
      for (k = 0; k < n - 1 && (u -= s->co[k].p) >= 0; k++) continue;
    } else {
      int n = ensure_legal(s);
      m = s->legal[pf_rng_below(&rng, (uint32_t)n)];
    }
    if (play(s, m, k) != 0) return NULL;
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

static PyObject *st_to_string(StateObject *s, PyObject *unused) {
  (void)unused;
  return st_str(s);
}

static PyObject *st_num_distinct_actions(StateObject *s, PyObject *unused) {
  (void)unused;
  return PyLong_FromLong(pfpy_action_count(s->game));
}

static PyObject *st_get_type(StateObject *s, PyObject *unused) {
  (void)unused;
  return PyObject_CallMethod((PyObject *)s->game, "get_type", NULL);
}

/* child(a): a copy with action a applied. */
static PyObject *st_child(StateObject *s, PyObject *action) {
  StateObject *c = state_copy(s);
  if (!c) return NULL;
  PyObject *r = st_apply_action(c, action);
  if (!r) return Py_DECREF(c), NULL;
  Py_DECREF(r);
  return (PyObject *)c;
}

/* Pickled as its history: game.deserialize_state(state.serialize()). */
static PyObject *st_reduce(StateObject *s, PyObject *unused) {
  (void)unused;
  PyObject *text = st_serialize(s, NULL);
  PyObject *load = text ? PyObject_GetAttrString((PyObject *)s->game, "deserialize_state") : NULL;
  if (!load) return Py_XDECREF(text), NULL;
  return Py_BuildValue("(N(N))", load, text);
}

static PyMethodDef state_methods[] = {
    {"current_player", (PyCFunction)st_current_player, METH_NOARGS,
     "the seat to move, pilfer.CHANCE or pilfer.TERMINAL"},
    {"is_terminal", (PyCFunction)st_is_terminal, METH_NOARGS, "whether the game is over"},
    {"is_chance_node", (PyCFunction)st_is_chance_node, METH_NOARGS, "whether chance moves next"},
    {"is_simultaneous_node", (PyCFunction)st_false, METH_NOARGS,
     "False: simultaneous choices are asked seat by seat"},
    {"is_mean_field_node", (PyCFunction)st_false, METH_NOARGS, "False"},
    {"is_player_node", (PyCFunction)st_is_player_node, METH_NOARGS, "whether a seat is to move"},
    {"is_initial_state", (PyCFunction)st_is_initial_state, METH_NOARGS, "whether nothing was played (nor resampled)"},
    {"legal_actions", (PyCFunction)st_legal_actions, METH_VARARGS,
     "legal_actions(player=None): the dense actions of the one to move, ascending (at a chance node, the outcomes' "
     "ids); [] for another player"},
    {"legal_actions_mask", (PyCFunction)st_legal_actions_mask, METH_VARARGS,
     "legal_actions_mask(player=None): 1 for each legal action, of num_distinct_actions() (max_chance_outcomes() at "
     "a chance node)"},
    {"apply_action", (PyCFunction)st_apply_action, METH_O, "apply_action(a): plays a legal action (or chance outcome)"},
    {"child", (PyCFunction)st_child, METH_O, "child(a): a copy with action a applied"},
    {"undo_action", (PyCFunction)st_undo_action, METH_VARARGS,
     "undo_action(player, action): takes back the last step (by replaying the history before it)"},
    {"apply_move", (PyCFunction)st_apply_move, METH_VARARGS,
     "apply_move(text): plays a move (or a chance outcome, '*...') written as records write it"},
    {"chance_outcomes", (PyCFunction)st_chance_outcomes, METH_NOARGS,
     "[(id, probability), ...] at a chance node, by id"},
    {"returns", (PyCFunction)st_returns, METH_NOARGS, "each seat's share of the win when over, else zeros"},
    {"rewards", (PyCFunction)st_returns, METH_NOARGS, "as returns(): the only reward comes at the end"},
    {"player_reward", (PyCFunction)st_player_return, METH_O, "player_reward(p): rewards()[p]"},
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
     "resample_from_infostate(p, seed or sampler): a state the seat cannot tell from this one (the game's "
     "determinize)"},
    {"history", (PyCFunction)st_history, METH_NOARGS,
     "every action played: dense actions, and chance outcomes' ids (-1 for one chance_outcomes() did not list)"},
    {"history_str", (PyCFunction)st_history_str, METH_NOARGS, "history() joined by \", \""},
    {"full_history", (PyCFunction)st_full_history, METH_NOARGS, "a PlayerAction (player, action) for each step"},
    {"move_number", (PyCFunction)st_move_number, METH_NOARGS, "len(history())"},
    {"to_record", (PyCFunction)(void (*)(void))st_to_record, METH_VARARGS | METH_KEYWORDS,
     "to_record(path=None): the game record (JSON text, or written to path) that `pilfer replay` reads"},
    {"random_playout", (PyCFunction)st_random_playout, METH_O,
     "random_playout(seed): random moves to the end, at engine speed; returns how many"},
    {"from_sample", (PyCFunction)pfpy_state_from_sample, METH_VARARGS | METH_STATIC,
     "State.from_sample(game, text, key): a sample of the bot protocol, refused unless the run's pilfer wrote it "
     "under key (PILFER_SAMPLE_KEY); a position without a history"},
    {"serialize", (PyCFunction)st_serialize, METH_NOARGS,
     "the state's history as text (its record, with any resamples) for game.deserialize_state"},
    {"num_players", (PyCFunction)st_num_players, METH_NOARGS, "the number of players"},
    {"num_distinct_actions", (PyCFunction)st_num_distinct_actions, METH_NOARGS, "the game's num_distinct_actions()"},
    {"get_game", (PyCFunction)st_get_game, METH_NOARGS, "the game"},
    {"get_type", (PyCFunction)st_get_type, METH_NOARGS, "the game's get_type()"},
    {"to_string", (PyCFunction)st_to_string, METH_NOARGS, "str(state): the whole table, as text"},
    {"__reduce__", (PyCFunction)st_reduce, METH_NOARGS, "pickled as serialize()'s text"},
    {NULL, NULL, 0, NULL},
};

PyTypeObject pfpy_StateType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pilfer.State",
    .tp_basicsize = sizeof(StateObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A position of a game, with its history: game.new_initial_state() or pilfer.load_record().",
    .tp_methods = state_methods,
    .tp_str = (reprfunc)st_str,
    .tp_repr = (reprfunc)st_str,
    .tp_dealloc = (destructor)state_dealloc,
};

/* ---- for load.c: the states read back from text ---- */

StateObject *pfpy_state_alloc(GameObject *game) { return state_alloc(game); }
void pfpy_state_forget(StateObject *s) { forget(s); }
int pfpy_state_play_text(StateObject *s, const char *text, pf_error *err) { return play_text(s, text, err); }
void pfpy_determinize(const pf_game *g, void *st, int seat, uint64_t seed) { determinize(g, st, seat, seed); }
