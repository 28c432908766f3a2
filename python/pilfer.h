/*
 * pilfer.h - what the files of `import pilfer` share (docs/python.md): the Game and State
 * objects, the module's error, and the functions one file gives another. pilfer.c is the
 * module (its functions and its init), game.c the Game type, state.c the State type (views,
 * records, serialization), load.c the states read back from text, bot.c the Bot type, spiel.c the rest of pyspiel's names (GameType and
 * its enums, PlayerId, PlayerAction, UniformProbabilitySampler).
 */
#ifndef PF_PYTHON_PILFER_H
#define PF_PYTHON_PILFER_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdbool.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/game.h"
#include "core/jsontext.h"
#include "core/record.h"
#include "core/run.h"

/* numpy's API table, set by import_array in pilfer.c, read by state.c's observation tensor. */
#define PY_ARRAY_UNIQUE_SYMBOL pfpy_ARRAY_API
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION

/* OpenSpiel's player ids, and its invalid action. */
#define SPIEL_CHANCE (-1)
#define SPIEL_SIMULTANEOUS (-2)
#define SPIEL_INVALID (-3)
#define SPIEL_TERMINAL (-4)
#define SPIEL_MEAN_FIELD (-5)
#define SPIEL_INVALID_ACTION (-1)

extern PyObject *pfpy_Error; /* pilfer.Error, also pilfer.SpielError */
extern PyTypeObject pfpy_GameType, pfpy_StateType, pfpy_BotType;

/* Raises pilfer.Error with err's message; returns NULL. */
PyObject *pfpy_fail(const pf_error *err);
/* b's JSON text, written with pf_jw, as a str, or (pfpy_json_to_py) as Python's json.loads reads
 * it. rc is the writer's: not 0 (a string that was not UTF-8) raises pilfer.Error. */
PyObject *pfpy_json_text(const pf_buf *b, int rc);
PyObject *pfpy_json_to_py(const pf_buf *b, int rc);
/* An integer from 0 to 2^63 - 1 from Python (any int-like object: numpy's too); `what` names it
 * in the error. */
int pfpy_read_uint63(PyObject *v, const char *what, uint64_t *out);
/* Any int-like object (int, numpy's integers: anything with __index__, but not a bool or a float)
 * as a long long; -1 with pilfer.Error naming `what` when it is none or out of range. */
int pfpy_read_int(PyObject *v, const char *what, long long *out);

/* ---- OpenSpiel's names (spiel.c): GameType and its enums, PlayerId, PlayerAction, the sampler ---- */

/* Adds them to the module; 0 or -1. */
int pfpy_spiel_add(PyObject *mod);
/* game.get_type() of the game (its values from game.c's), a new reference. */
PyObject *pfpy_game_type_new(PyObject *fields);
/* The member of GameType's enum `name` ("Dynamics" ...) of value v, a new reference. */
PyObject *pfpy_spiel_enum(const char *name, int v);
/* A PlayerAction(player, action), a new reference. */
PyObject *pfpy_player_action(long player, long long action);
/* A seed from 0 to 2^63 - 1 drawn from a sampler (a callable giving floats in [0, 1), as
 * OpenSpiel's UniformProbabilitySampler): two calls, 31 and 32 bits. -1 with an error. */
int pfpy_seed_from_sampler(PyObject *sampler, uint64_t *out);

/* ---- Game (game.c) ---- */

typedef struct {
  PyObject_HEAD const pf_game *g;
  int players;
  pf_options options;
  uint64_t seed;
  uint64_t dealt; /* states made by new_initial_state without a seed */
  bool zero_sum;  /* returns=zero_sum: OpenSpiel's zero-sum returns, not win shares */
} GameObject;

GameObject *pfpy_game_new(const pf_game *g, int players, const pf_options *options, uint64_t seed);
/* A seat's return when the game is over, from the number of winners (0: nobody) and whether the
 * seat is one: its share of the win, or (zero_sum) OpenSpiel's zero-sum meaning of it. */
double pfpy_game_return(const GameObject *game, int nwinners, bool won);
/* num_distinct_actions: pf_action_count. */
int pfpy_action_count(const GameObject *game);
/* max_chance_outcomes: PF_MAX_CHANCE for a game with chance nodes, else 0. */
int pfpy_max_chance(const GameObject *game);
/* load_game(name, params=None): params are "players", "seed" and the game's options. */
PyObject *pfpy_load_game(PyObject *mod, PyObject *args, PyObject *kw);

/* ---- State (state.c) ---- */

/* One step of the history: a seat's move code, or (who == PF_CHANCE) the index of a chance
 * outcome's canonical string (and of its id in chance_id). */
typedef struct step {
  int32_t who;
  uint32_t code;
} step;

/* A resample_from_infostate in the history: the game's determinize for `seat`, with a generator
 * seeded by `seed`, before step `at`. */
typedef struct resample {
  int32_t at, seat;
  uint64_t seed;
} resample;

typedef struct StateObject {
  PyObject_HEAD GameObject *game;
  const pf_game *g;
  int players;
  pf_setup setup;
  PyObject *deals; /* bytes: the setup's explicit deals, shared by clones (the state points into
                    * them for later deals, so they live as long as any copy), or NULL */
  void *st;        /* g->state_size bytes, owned */
  step *hist;
  int nhist, caphist;
  char (*chance)[PF_MOVE_STR]; /* chance outcomes played, in order */
  int32_t *chance_id;          /* their ids (chance_outcomes'), or -1 for one it did not list */
  int nchance, capchance;
  resample *rs;    /* resamples, in the order of the history: its record has none */
  int nrs;
  bool sampled;    /* made by State.from_sample: a position without a history */
  struct pfpy_track *track; /* every seat's information state, kept once asked (tensor.c), or NULL */
  int nlegal;      /* -1: not known yet */
  pf_move legal[PF_MAX_MOVES];           /* in the game's order */
  struct { int32_t a; pf_move m; } act[PF_MAX_MOVES]; /* the same: dense actions, ascending */
  pf_chance_outcome *co; /* at a chance node: its outcomes, by id (NULL: not allocated yet) */
  int nco;               /* -1: not known yet */
} StateObject;

/* A new state of the game, not started (its setup and state are load.c's to fill), or NULL. */
StateObject *pfpy_state_alloc(GameObject *game);
/* The position changed: its cached legal actions and chance outcomes are not known. */
void pfpy_state_forget(StateObject *s);
/* Plays a move or chance outcome given as text, as records write them; 0 or -1 with err. */
int pfpy_state_play_text(StateObject *s, const char *text, pf_error *err);
/* The game's determinize for seat, with a generator seeded by seed (resample_from_infostate's). */
void pfpy_determinize(const pf_game *g, void *st, int seat, uint64_t seed);
/* State.from_sample(game, text, key) (load.c). */
PyObject *pfpy_state_from_sample(PyObject *unused, PyObject *args);
/* A game's state started from setup (a new reference), or NULL with a Python error. */
PyObject *pfpy_state_start(GameObject *game, const pf_setup *setup);
/* The seed of deal k of a game loaded with `seed`: Game.new_initial_state()'s k-th without a seed,
 * and a VectorEnv's k-th game (game.c). */
uint64_t pfpy_deal_seed(uint64_t seed, uint64_t k);
/* Plays step i of s's history on st, a copy of the game at that step (state.c): its move, or its
 * chance outcome's text. */
int pfpy_play_step(const StateObject *s, void *st, int i, pf_error *err);
/* The state a serialized state or record (its JSON text) describes, replayed and checked;
 * `want`, when given, is the game it must be of. */
PyObject *pfpy_state_from_text(GameObject *want, const char *text, size_t len);
/* load_record(source): a record's JSON text (or a serialized state), or a record file's path. */
PyObject *pfpy_load_record(PyObject *mod, PyObject *arg);

/* Replays the state's game from its setup in a pf_run, with its resamples at their places; before
 * each step i of the history, and once more at its end (i == nhist), calls visit(ctx, run, i)
 * when it is given. -1 (with a Python error) when it cannot be (a state from a sample). */
int pfpy_replay(StateObject *s, pf_run *run, void (*visit)(void *ctx, pf_run *run, int i), void *ctx);

/* ---- What a seat knows, for learning (tensor.c; docs/python.md) ---- */

/* Columns: codes 0-75 (standard cards, the joker, Skip-Bo Junior's), a game's own cards (codes
 * from PF_CARD_GAME up, card.h) by bits 8-13 of their code, which Point-a-Pile's codec gives its
 * colour and type (64), any other card, and a card the viewer cannot see. No game is named here. */
#define COL_PAP 76
#define COL_OTHER (COL_PAP + 64)
#define COL_UNSEEN (COL_OTHER + 1)
#define NCOLS (COL_UNSEEN + 1)

/* The zone kinds a game's views use, for its players and options: its tensors' rows. */
typedef struct pfpy_layout pfpy_layout;
const pfpy_layout *pfpy_layout_of(const pf_game *g, int players, const pf_options *options);
int pfpy_layout_rows(const pfpy_layout *L);        /* the observation tensor's */
int pfpy_layout_memory_rows(const pfpy_layout *L); /* the information state tensor's more */
/* Seat's observation tensor at st into t, pfpy_layout_rows x NCOLS floats that are zeros. */
int pfpy_observation_fill(const pfpy_layout *L, const void *st, int seat, float *t);

/* A state's track: every seat's information state, made when first asked and brought up to date
 * when asked again. */
typedef struct pfpy_track pfpy_track;
int pfpy_track_ensure(StateObject *s); /* makes it, or brings it up to date; -1 with an error */
pfpy_track *pfpy_track_copy(const pfpy_track *t);
void pfpy_track_free(pfpy_track *t);
void pfpy_track_resample(StateObject *s, int seat); /* s, up to date, was just determinized for seat */

PyObject *pfpy_game_observation_shape(GameObject *game, PyObject *unused);
PyObject *pfpy_game_observation_size(GameObject *game, PyObject *unused);
PyObject *pfpy_game_infostate_shape(GameObject *game, PyObject *unused);
PyObject *pfpy_game_infostate_size(GameObject *game, PyObject *unused);
PyObject *pfpy_game_tensor_kinds(GameObject *game, PyObject *unused);
PyObject *pfpy_observation_tensor(StateObject *s, PyObject *args);
PyObject *pfpy_information_state_tensor(StateObject *s, PyObject *args);
PyObject *pfpy_information_state_string(StateObject *s, PyObject *args);

/* pilfer.VectorEnv (vecenv.c). */
extern PyTypeObject pfpy_VectorEnvType;

#endif
