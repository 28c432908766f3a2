/*
 * tensor.c - what a seat knows, for learning (docs/python.md: "Observation tensors",
 * "Information states"): the observation and information state tensors and the information
 * state string, written in C from the zones of the seat's view.
 *
 * The zones are read as the game's view_write writes them, through the zone writer's sink
 * (core/view.h: pf_view_zones), never as JSON text parsed back: a tensor is a few microseconds.
 * Everything here is derived from the seat's own views, the same way for every game, so nothing
 * depends on what the seat cannot see (the conformance suite holds view_write to that).
 *
 * The rows a game's tensors have are the zone kinds its views use: found once for each game,
 * player count and options by playing a few random games in C and looking at every seat's view
 * at every position (tests/python/test_learning.py checks other games find no more), with
 * "other" always last, where a kind not found would go.
 *
 * The information state of a state (a track) is made when it is first asked, by replaying the
 * history once: for every seat, a 128-bit digest of the steps as the seat saw them and the most
 * of each card the seat has seen in each count row. It is then kept up to date lazily: the track
 * holds a copy of the state at the step it was made for, and the next ask plays that copy over
 * the steps since, so that apply_action costs nothing more (random playouts on a tracked state
 * stay at engine speed) and an ask costs the steps since the last one. Clones copy the track.
 */
#include "pilfer.h"

#define NO_IMPORT_ARRAY
#include <numpy/arrayobject.h>

#include <string.h>

#include "core/view.h"

static const char *const ZONE_KINDS[] = {"hand",    "pile", "pool", "stock", "captures", "castle",  "stockpile",
                                         "build",   "discard", "row", "deck", "play",     "mission", "other"};
#define NKINDS ((int)(sizeof ZONE_KINDS / sizeof ZONE_KINDS[0]))
#define KIND_OTHER (NKINDS - 1)

/* The kind's place in ZONE_KINDS; "other" for a kind not listed. */
static int kind_index(const char *kind) {
  for (int j = 0; j < NKINDS; j++)
    if (kind[0] == ZONE_KINDS[j][0] && strcmp(kind, ZONE_KINDS[j]) == 0) return j;
  return KIND_OTHER;
}

static int card_column(pf_card c) {
  if (c == PF_CARD_NONE) return COL_UNSEEN;
  if (c < COL_PAP) return c;
  if (c >= PF_CARD_GAME) return COL_PAP + ((c >> 8) & 63);
  return COL_OTHER;
}

/* ---- the layout: which zone kinds a game's views use ---- */

struct pfpy_layout {
  const pf_game *g;
  int players;
  pf_options options;
  int nkinds;               /* rows of kinds: those found, in ZONE_KINDS' order, "other" last */
  int kinds[NKINDS];        /* their indices in ZONE_KINDS */
  int row_of[NKINDS];       /* ZONE_KINDS index -> its kind row ("other"'s for a kind not found) */
  struct pfpy_layout *next; /* the layouts found so far */
};

static pfpy_layout *layouts;
static pf_buf scratch; /* the text of no use pf_view_zones writes; the GIL guards it */

typedef struct kinds_sink {
  pf_zone_sink base;
  bool seen[NKINDS];
} kinds_sink;

static void kinds_zone(pf_zone_sink *sink, const char *kind, int owner, int layout, const unsigned short *cards, int n) {
  (void)owner, (void)layout, (void)cards, (void)n;
  ((kinds_sink *)sink)->seen[kind_index(kind)] = true;
}

#define FIND_GAMES 6        /* random games played to find the kinds */
#define FIND_POSITIONS 4000 /* at most this many positions of each */

/* Plays FIND_GAMES random games (fixed seeds) and notes every zone kind of every seat's view. */
static void find_kinds(pfpy_layout *L) {
  const pf_game *g = L->g;
  kinds_sink k = {.base = {kinds_zone}};
  void *st = PyMem_Malloc(g->state_size);
  if (st) {
    for (int game = 0; game < FIND_GAMES; game++) {
      pf_setup setup = {.players = L->players, .options = L->options, .seed = 0x4B494E44u + (uint64_t)game};
      pf_error err;
      pf_rng rng;
      pf_rng_seed(&rng, setup.seed, 1);
      memset(st, 0, g->state_size);
      if (g->start(st, &setup, &err) != 0) break;
      for (int pos = 0; pos < FIND_POSITIONS; pos++) {
        for (int seat = 0; seat < L->players; seat++) pf_view_zones(g, st, seat, &k.base, &scratch);
        int who = g->to_move(st), n;
        if (who == PF_NOBODY) break;
        if (who == PF_CHANCE)
          pf_chance_sample(g, st, NULL);
        else
          g->apply(st, pf_random_move(g, st, &rng, &n));
      }
    }
    PyMem_Free(st);
  }
  k.seen[KIND_OTHER] = true;
  L->nkinds = 0;
  for (int j = 0; j < NKINDS; j++)
    if (k.seen[j]) L->kinds[L->nkinds++] = j;
  for (int j = 0; j < NKINDS; j++) L->row_of[j] = L->nkinds - 1;
  for (int r = 0; r < L->nkinds; r++) L->row_of[L->kinds[r]] = r;
}

const pfpy_layout *pfpy_layout_of(const pf_game *g, int players, const pf_options *options) {
  for (pfpy_layout *L = layouts; L; L = L->next)
    if (L->g == g && L->players == players && memcmp(L->options.v, options->v, sizeof options->v) == 0) return L;
  pfpy_layout *L = PyMem_Calloc(1, sizeof *L);
  if (!L) return (void)PyErr_NoMemory(), NULL;
  L->g = g;
  L->players = players;
  L->options = *options;
  find_kinds(L);
  L->next = layouts;
  layouts = L;
  return L;
}

int pfpy_layout_rows(const pfpy_layout *L) { return 2 * L->nkinds * (L->players + 1) + 1; }
int pfpy_layout_memory_rows(const pfpy_layout *L) { return L->nkinds * (L->players + 1); }

/* ---- filling a tensor from the zones ---- */

typedef struct fill_sink {
  pf_zone_sink base;
  const pfpy_layout *L;
  int seat;
  float *t;   /* the tensor's rows (fill_zone), or */
  uint8_t *u; /* the count rows alone, as bytes (count_zone) */
} fill_sink;

/* The first row of a zone's kind and owner (none, then the seats counted from the viewer). */
static int zone_row(const fill_sink *f, const char *kind, int owner) {
  int players = f->L->players;
  int o = owner >= 0 && owner < players ? 1 + (owner - f->seat + players) % players : 0;
  return f->L->row_of[kind_index(kind)] * (players + 1) + o;
}

static void fill_zone(pf_zone_sink *sink, const char *kind, int owner, int layout, const unsigned short *cards, int n) {
  fill_sink *f = (fill_sink *)sink;
  float *count = f->t + (size_t)(2 * zone_row(f, kind, owner)) * NCOLS, *top = count + NCOLS;
  for (int i = 0; i < n; i++) count[card_column(cards[i])] += 1;
  if (layout == PF_STACK && n) top[card_column(cards[n - 1])] = 1;
}

static void count_zone(pf_zone_sink *sink, const char *kind, int owner, int layout, const unsigned short *cards, int n) {
  (void)layout;
  fill_sink *f = (fill_sink *)sink;
  uint8_t *count = f->u + (size_t)zone_row(f, kind, owner) * NCOLS;
  for (int i = 0; i < n; i++) count[card_column(cards[i])]++; /* a zone holds at most a deal: 128 */
}

/* The observation tensor of seat into t (zeros, pfpy_layout_rows x NCOLS): for each kind row and
 * owner, a row counting the cards of each column in such zones and a row marking the top card of
 * each stack; the last row holds who is to move (seats from the viewer, then chance, then nobody)
 * and, from column 16, the scores the view shows. */
static void fill_observation(const pfpy_layout *L, const void *st, int seat, float *t) {
  const pf_game *g = L->g;
  int players = L->players;
  fill_sink f = {.base = {fill_zone}, .L = L, .seat = seat, .t = t};
  pf_view_zones(g, st, seat, &f.base, &scratch);
  float *last = t + (size_t)(pfpy_layout_rows(L) - 1) * NCOLS;
  int who = g->to_move(st), scores[PF_MAX_PLAYERS];
  last[who >= 0 ? (who - seat + players) % players : who == PF_CHANCE ? players : players + 1] = 1;
  g->scores(st, scores);
  for (int p = 0; p < players; p++)
    if (!(g->score_hidden && g->score_hidden(st, seat, p))) last[16 + p] = (float)scores[p];
}

int pfpy_observation_fill(const pfpy_layout *L, const void *st, int seat, float *t) {
  fill_observation(L, st, seat, t);
  return 0;
}

/* ---- the track: every seat's digest and memory, made once, brought up to date when asked ---- */

struct pfpy_track {
  const pfpy_layout *L;
  size_t cells;                       /* count cells of a seat: memory rows x NCOLS */
  int at;                             /* the history's steps the digests have seen */
  uint64_t digest[PF_MAX_PLAYERS][2]; /* of the steps as each seat saw them */
  unsigned char *snap;                /* the state after step at (in data, after mem) */
  uint8_t *mem;                       /* players x cells: the most of each card each seat has seen there */
  _Alignas(16) unsigned char data[];
};

static pf_buf hashed; /* what a digest hashes next; the GIL guards it */
static uint8_t counts[(size_t)NKINDS * (PF_MAX_PLAYERS + 1) * NCOLS];

/* MurmurHash3_x64_128 (Austin Appleby, public domain), its two seeds the digest so far: fast (the
 * digest hashes every seat's view after every step) and 128 bits wide; a name for what a seat
 * saw, not a secret, so a keyed hash is not needed. */
static inline uint64_t fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ull;
  return k ^ (k >> 33);
}

static void murmur3_128(const void *data, size_t len, uint64_t d[2]) {
  const uint64_t c1 = 0x87c37b91114253d5ull, c2 = 0x4cf5ad432745937full;
  const uint8_t *p = data;
  uint64_t h1 = d[0], h2 = d[1];
  size_t nblocks = len / 16;
  for (size_t i = 0; i < nblocks; i++) {
    uint64_t k1, k2;
    memcpy(&k1, p + 16 * i, 8);
    memcpy(&k2, p + 16 * i + 8, 8);
    k1 *= c1, k1 = pf_rng_rotl(k1, 31), k1 *= c2, h1 ^= k1;
    h1 = pf_rng_rotl(h1, 27), h1 += h2, h1 = h1 * 5 + 0x52dce729;
    k2 *= c2, k2 = pf_rng_rotl(k2, 33), k2 *= c1, h2 ^= k2;
    h2 = pf_rng_rotl(h2, 31), h2 += h1, h2 = h2 * 5 + 0x38495ab5;
  }
  uint8_t tail[16] = {0};
  memcpy(tail, p + 16 * nblocks, len & 15);
  uint64_t k1, k2;
  memcpy(&k1, tail, 8);
  memcpy(&k2, tail + 8, 8);
  if (len & 15) {
    k2 *= c2, k2 = pf_rng_rotl(k2, 33), k2 *= c1, h2 ^= k2;
    k1 *= c1, k1 = pf_rng_rotl(k1, 31), k1 *= c2, h1 ^= k1;
  }
  h1 ^= (uint64_t)len, h2 ^= (uint64_t)len;
  h1 += h2, h2 += h1;
  h1 = fmix64(h1), h2 = fmix64(h2);
  h1 += h2, h2 += h1;
  d[0] = h1, d[1] = h2;
}

/* One step as seat saw it: digest = H(digest; what, the seat's view without its moves), and
 * mem = max(mem, the count rows of that view) (or, restarting, the digest of that alone and
 * mem = those rows): one writing of the view gives both. */
static void seat_step(pfpy_track *t, const void *st, int seat, const char *what, bool restart) {
  uint8_t *mem = t->mem + (size_t)seat * t->cells;
  fill_sink f = {.base = {count_zone}, .L = t->L, .seat = seat, .u = counts};
  memset(counts, 0, t->cells);
  pf_buf_clear(&hashed);
  pf_buf_puts(&hashed, what);
  pf_buf_putc(&hashed, '\n');
  pf_view_write_seen(&hashed, t->L->g, st, t->L->players, seat, &f.base);
  if (restart) t->digest[seat][0] = t->digest[seat][1] = 0;
  murmur3_128(hashed.data, hashed.len, t->digest[seat]);
  if (restart) {
    memcpy(mem, counts, t->cells);
    return;
  }
  for (size_t i = 0; i < t->cells; i++)
    if (counts[i] > mem[i]) mem[i] = counts[i];
}

/* A seat's information state begins (the deal, or a resample for another seat) from its view. */
static void track_start(pfpy_track *t, const void *st, int seat) { seat_step(t, st, seat, "start", true); }

static size_t round16(size_t n) { return (n + 15) & ~(size_t)15; }
static size_t track_size(const pfpy_layout *L, size_t cells) {
  return sizeof(pfpy_track) + round16((size_t)L->players * cells) + L->g->state_size;
}

/* Points the track's pointers into its own data (after a copy too). */
static void track_wire(pfpy_track *t) {
  t->mem = t->data;
  t->snap = t->data + round16((size_t)t->L->players * t->cells);
}

static pfpy_track *track_new(const pfpy_layout *L) {
  size_t cells = (size_t)pfpy_layout_memory_rows(L) * NCOLS;
  pfpy_track *t = PyMem_Calloc(1, track_size(L, cells));
  if (!t) return (pfpy_track *)PyErr_NoMemory();
  t->L = L;
  t->cells = cells;
  track_wire(t);
  return t;
}

pfpy_track *pfpy_track_copy(const pfpy_track *t) {
  size_t n = track_size(t->L, t->cells);
  pfpy_track *c = PyMem_Malloc(n);
  if (!c) return (pfpy_track *)PyErr_NoMemory();
  memcpy(c, t, n);
  track_wire(c);
  return c;
}

void pfpy_track_free(pfpy_track *t) { PyMem_Free(t); }

/* Step `who` (a seat or PF_CHANCE) played `code` (a seat's move) and st is the position after it:
 * each seat's digest takes who acted, its own move, and its view now. */
static void track_step(pfpy_track *t, const void *st, int who, uint32_t code) {
  for (int q = 0; q < t->L->players; q++) {
    char what[48];
    if (who == PF_CHANCE)
      snprintf(what, sizeof what, "chance");
    else if (who == q)
      snprintf(what, sizeof what, "seat %d played %u", who, code);
    else
      snprintf(what, sizeof what, "seat %d", who);
    seat_step(t, st, q, what, false);
  }
}

/* Plays the track's copy of the state over the steps since it was made (no resample lies among
 * them: one brings the track up to date first, pfpy_track_resample). */
static int catch_up(StateObject *s) {
  pfpy_track *t = s->track;
  for (; t->at < s->nhist; t->at++) {
    step h = s->hist[t->at];
    pf_error err;
    if (pfpy_play_step(s, t->snap, t->at, &err) != 0) return pfpy_fail(&err), -1; /* cannot be */
    track_step(t, t->snap, h.who, h.code);
  }
  return 0;
}

void pfpy_track_resample(StateObject *s, int seat) {
  pfpy_track *t = s->track;
  memcpy(t->snap, s->st, s->g->state_size);
  for (int q = 0; q < s->players; q++)
    if (q != seat) track_start(t, s->st, q);
}

typedef struct build {
  StateObject *s;
  pfpy_track *t;
} build;

/* The replay's visit before step i: the step before it is seen, then the resamples at i restart
 * every seat but theirs (determinize keeps that seat's view, so the step's digest is the same). */
static void build_visit(void *ctx, pf_run *run, int i) {
  build *b = ctx;
  if (i == 0)
    for (int q = 0; q < b->s->players; q++) track_start(b->t, run->state, q);
  else
    track_step(b->t, run->state, b->s->hist[i - 1].who, b->s->hist[i - 1].code);
  for (int r = 0; r < b->s->nrs; r++)
    if (b->s->rs[r].at == i)
      for (int q = 0; q < b->s->players; q++)
        if (q != b->s->rs[r].seat) track_start(b->t, run->state, q);
}

int pfpy_track_ensure(StateObject *s) {
  if (s->track) return catch_up(s);
  const pfpy_layout *L = pfpy_layout_of(s->g, s->players, &s->setup.options);
  build b = {.s = s, .t = L ? track_new(L) : NULL};
  if (!b.t) return -1;
  pf_run run;
  if (pfpy_replay(s, &run, build_visit, &b) != 0) {
    pfpy_track_free(b.t);
    return -1;
  }
  memcpy(b.t->snap, s->st, s->g->state_size); /* the replay's end, its deals s's own (run's go with it) */
  b.t->at = s->nhist;
  pf_run_free(&run);
  s->track = b.t;
  return 0;
}

/* ---- Python: Game's shapes, State's tensors and information state string ---- */

static const pfpy_layout *game_layout(GameObject *game) {
  return pfpy_layout_of(game->g, game->players, &game->options);
}

PyObject *pfpy_game_observation_shape(GameObject *game, PyObject *unused) {
  (void)unused;
  const pfpy_layout *L = game_layout(game);
  return L ? Py_BuildValue("[ii]", pfpy_layout_rows(L), NCOLS) : NULL;
}

PyObject *pfpy_game_observation_size(GameObject *game, PyObject *unused) {
  (void)unused;
  const pfpy_layout *L = game_layout(game);
  return L ? PyLong_FromLong((long)pfpy_layout_rows(L) * NCOLS) : NULL;
}

PyObject *pfpy_game_infostate_shape(GameObject *game, PyObject *unused) {
  (void)unused;
  const pfpy_layout *L = game_layout(game);
  return L ? Py_BuildValue("[ii]", pfpy_layout_rows(L) + pfpy_layout_memory_rows(L), NCOLS) : NULL;
}

PyObject *pfpy_game_infostate_size(GameObject *game, PyObject *unused) {
  (void)unused;
  const pfpy_layout *L = game_layout(game);
  return L ? PyLong_FromLong((long)(pfpy_layout_rows(L) + pfpy_layout_memory_rows(L)) * NCOLS) : NULL;
}

PyObject *pfpy_game_tensor_kinds(GameObject *game, PyObject *unused) {
  (void)unused;
  const pfpy_layout *L = game_layout(game);
  PyObject *list = L ? PyList_New(L->nkinds) : NULL;
  for (int r = 0; list && r < L->nkinds; r++) PyList_SET_ITEM(list, r, PyUnicode_FromString(ZONE_KINDS[L->kinds[r]]));
  return list;
}

/* The seat argument: a seat, or the seat to move when not given. */
static int tensor_seat(StateObject *s, PyObject *args, int *seat) {
  PyObject *p = NULL;
  if (!PyArg_ParseTuple(args, "|O", &p)) return -1;
  if (!p || p == Py_None) {
    *seat = s->g->to_move(s->st);
    if (*seat >= 0) return 0;
    PyErr_SetString(pfpy_Error, "no seat is to move: name the player");
    return -1;
  }
  long v = PyLong_Check(p) ? PyLong_AsLong(p) : -1;
  if (PyErr_Occurred()) PyErr_Clear(), v = -1;
  if (v < 0 || v >= s->players) {
    PyErr_Format(pfpy_Error, "a player is a seat from 0 to %d", s->players - 1);
    return -1;
  }
  *seat = (int)v;
  return 0;
}

static PyObject *zeros(npy_intp n) { return PyArray_ZEROS(1, &n, NPY_FLOAT32, 0); }

PyObject *pfpy_observation_tensor(StateObject *s, PyObject *args) {
  int seat;
  if (tensor_seat(s, args, &seat) != 0) return NULL;
  const pfpy_layout *L = pfpy_layout_of(s->g, s->players, &s->setup.options);
  PyObject *arr = L ? zeros((npy_intp)pfpy_layout_rows(L) * NCOLS) : NULL;
  if (arr) fill_observation(L, s->st, seat, (float *)PyArray_DATA((PyArrayObject *)arr));
  return arr;
}

PyObject *pfpy_information_state_tensor(StateObject *s, PyObject *args) {
  int seat;
  if (tensor_seat(s, args, &seat) != 0 || pfpy_track_ensure(s) != 0) return NULL;
  const pfpy_track *t = s->track;
  size_t obs = (size_t)pfpy_layout_rows(t->L) * NCOLS;
  PyObject *arr = zeros((npy_intp)(obs + t->cells));
  if (!arr) return NULL;
  float *out = (float *)PyArray_DATA((PyArrayObject *)arr);
  fill_observation(t->L, s->st, seat, out);
  const uint8_t *mem = t->mem + (size_t)seat * t->cells;
  for (size_t i = 0; i < t->cells; i++) out[obs + i] = mem[i];
  return arr;
}

/* The seat's view now without its moves, a newline, and its digest as 32 hex digits. */
PyObject *pfpy_information_state_string(StateObject *s, PyObject *args) {
  int seat;
  if (tensor_seat(s, args, &seat) != 0 || pfpy_track_ensure(s) != 0) return NULL;
  pf_buf b = {0};
  int rc = pf_view_write_seen(&b, s->g, s->st, s->players, seat, NULL);
  pf_buf_printf(&b, "\n%016llx%016llx", (unsigned long long)s->track->digest[seat][0],
                (unsigned long long)s->track->digest[seat][1]);
  PyObject *out = pfpy_json_text(&b, rc);
  pf_buf_free(&b);
  return out;
}
