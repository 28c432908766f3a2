/*
 * hall.c - tables, seats, spectators, bots and the protocol of docs/protocol.md (hall.h).
 *
 * Sections: tables in memory and their replay; playing a move (the one path every move takes,
 * live or replayed); what each connection is sent; the bots; the messages, one handler each in a
 * table; HTTP.
 */
#include "server/hall.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "bots/bot.h"
#include "core/clock.h"
#include "core/record.h"
#include "games/registry.h"
#include "server/store.h"
#include "server/workers.h"

#define LOG_KEEP 20        /* moves told in each state message */
#define MAX_BINDINGS 32    /* tables a connection may sit at or watch at once */
#define LIST_MAX 200       /* tables in a list */
#define DEFAULT_HINT_BOT "ismcts:iters=1000"
#define DEFAULT_TAKEOVER_BOT "greedy"

enum { SEAT_OPEN, SEAT_HUMAN, SEAT_BOT };
static const char *const SEAT_KIND[] = {"open", "human", "bot"};
enum { ST_WAITING, ST_PLAYING, ST_OVER };
static const char *const STATUS[] = {"waiting", "playing", "over"};

typedef struct chair {
  int kind;
  bool taken_over;             /* a human seat its table's takeover bot plays for now */
  bool has_sealed;             /* a sealed choice is in (choosing groups, PAP-4) */
  char token[33];              /* a human seat's secret, 32 hex digits */
  char bot[PF_BOT_SPEC];       /* a bot seat's spec */
  char sealed[PF_MOVE_STR];    /* the sealed choice, canonical */
} chair;

/* One move as each viewer may know it: texts[0..players-1] for the seats, texts[players] for
 * spectators (NULL: not told to that viewer). */
typedef struct log_entry {
  int ply, seat; /* seat: who moved, -1 for chance */
  char *texts[PF_MAX_PLAYERS + 1];
} log_entry;

typedef struct watcher {
  pf_conn *conn;
  int seat; /* -1: a spectator */
} watcher;

typedef struct table {
  int64_t id;
  const pf_game *g;
  pf_run run;
  int players, status;
  int64_t created;
  int takeover_after; /* seconds; 0: none */
  char takeover_bot[PF_BOT_SPEC];
  chair seats[PF_MAX_PLAYERS];
  log_entry log[LOG_KEEP]; /* a ring: move k is at k % LOG_KEEP */
  watcher *watch;
  int nwatch, capwatch;
  int group_since[PF_MAX_PLAYERS]; /* the ply since which a seat has been in the choosing group
                                    * it is in now (-1: none); its legal moves are the same since */
  bool bot_busy;       /* a bot job for this table is out */
  double since;        /* when the table last changed (takeover counts from here) */
} table;

typedef struct binding {
  int64_t table;
  int seat; /* -1: watching */
} binding;

struct pf_conn {
  uint64_t id;
  void *peer;
  binding bind[MAX_BINDINGS];
  int nbind;
  pf_conn *prev, *next;
};

/* A bot's job: a choice for a seat (play) or a hint for a player. */
typedef struct bot_job {
  pf_work work; /* first: workers.h */
  bool hint;
  int64_t table;
  int ply, seat;
  uint64_t conn;   /* the hint's asker */
  json_t *req_id;  /* the hint request's id, owned */
  const pf_game *g;
  int players;
  void *state;     /* a copy, owned */
  char spec[PF_BOT_SPEC];
  uint64_t seed;
  bool failed;
  char move[PF_MOVE_STR];
  pf_buf text;
  pf_error err;
} bot_job;

struct pf_hall {
  pf_hall_io io;
  pf_store *store;
  pf_workers *workers;
  table **tables; /* by id; NULL when not in memory */
  int64_t cap;
  int ntables;
  pf_conn *conns;
  uint64_t next_conn;
  void *scratch; /* a state-sized buffer (the largest game's) */
  int64_t *idle;  /* finished tables that may have nobody left at them: unloaded by sweep_idle */
  int nidle, capidle;
};

/* ------------------------------------------------------------------------------------------ */
/* Small helpers                                                                              */
/* ------------------------------------------------------------------------------------------ */

/* 128 bits from the operating system, as 32 hex digits. */
static void new_token(char out[33]) {
  unsigned char b[16];
  size_t got = 0;
  while (got < sizeof b) {
    ssize_t n = getrandom(b + got, sizeof b - got, 0);
    if (n < 0 && errno != EINTR) abort(); /* no randomness: no secrets, no server */
    if (n > 0) got += (size_t)n;
  }
  for (int i = 0; i < 16; i++) snprintf(out + 2 * i, 3, "%02x", b[i]);
}

static uint64_t os_random64(void) {
  uint64_t v = 0;
  size_t got = 0;
  while (got < sizeof v) {
    ssize_t n = getrandom((char *)&v + got, sizeof v - got, 0);
    if (n < 0 && errno != EINTR) abort();
    if (n > 0) got += (size_t)n;
  }
  return v;
}

/* Compares a token in time that does not depend on where it differs. */
static bool token_equal(const char *a, const char *b) {
  unsigned diff = 0;
  for (int i = 0; i < 32; i++) diff |= (unsigned)(a[i] ^ b[i]);
  return diff == 0 && a[32] == 0 && b[32] == 0;
}

static size_t largest_state(void) {
  size_t n = 0;
  for (int i = 0; pf_games[i]; i++)
    if (pf_games[i]->state_size > n) n = pf_games[i]->state_size;
  return n;
}

static table *table_in_memory(pf_hall *h, int64_t id) {
  return id > 0 && id < h->cap ? h->tables[id] : NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* Sending                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* Sends msg (consumed) to c, with the request's id when there is one. */
static void send_json(pf_hall *h, pf_conn *c, json_t *msg, json_t *id) {
  if (id) json_object_set(msg, "id", id);
  char *text = json_dumps(msg, JSON_COMPACT | JSON_PRESERVE_ORDER);
  json_decref(msg);
  if (!text) abort();
  h->io.send(h->io.ctx, c->peer, text, strlen(text));
  free(text);
}

static void send_error(pf_hall *h, pf_conn *c, json_t *id, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void send_error(pf_hall *h, pf_conn *c, json_t *id, const char *code, const char *fmt, ...) {
  char msg[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  send_json(h, c, json_pack("{s:s, s:s, s:s}", "type", "error", "code", code, "message", msg), id);
}

static pf_conn *conn_by_id(pf_hall *h, uint64_t id) {
  for (pf_conn *c = h->conns; c; c = c->next)
    if (c->id == id) return c;
  return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* Tables in memory                                                                           */
/* ------------------------------------------------------------------------------------------ */

static void log_free(log_entry *e) {
  for (int v = 0; v <= PF_MAX_PLAYERS; v++) free(e->texts[v]), e->texts[v] = NULL;
}

static void table_free(table *t) {
  if (!t) return;
  for (int i = 0; i < LOG_KEEP; i++) log_free(&t->log[i]);
  pf_run_free(&t->run);
  free(t->watch);
  free(t);
}

static void table_put(pf_hall *h, table *t) {
  if (t->id >= h->cap) {
    int64_t cap = h->cap ? h->cap : 64;
    while (cap <= t->id) cap *= 2;
    h->tables = pf_xrealloc(h->tables, (size_t)cap * sizeof *h->tables);
    memset(h->tables + h->cap, 0, (size_t)(cap - h->cap) * sizeof *h->tables);
    h->cap = cap;
  }
  h->tables[t->id] = t;
  h->ntables++;
}

/* The viewer index of a seat in a log entry's texts: seats are themselves, spectators last. */
static int viewer_slot(const table *t, int seat) { return seat < 0 ? t->players : seat; }
static int viewer_of_slot(const table *t, int slot) { return slot == t->players ? PF_VIEW_PUBLIC : slot; }

/* Notes what each viewer is told of the move about to be played at t->run's position: `m` for a
 * seat's move, or the chance outcome text. */
static void log_move(table *t, int who, const pf_move *m, const char *outcome) {
  int ply = t->run.nmoves;
  log_entry *e = &t->log[ply % LOG_KEEP];
  log_free(e);
  e->ply = ply;
  e->seat = who;
  pf_style plain = {0};
  for (int v = 0; v <= t->players; v++) {
    pf_buf b = {0};
    int viewer = viewer_of_slot(t, v);
    if (m)
      pf_describe(t->g, t->run.state, *m, viewer, &plain, &b);
    else
      pf_describe_chance(t->g, t->run.state, outcome, viewer, &plain, &b);
    e->texts[v] = b.len ? b.data : (pf_buf_free(&b), NULL);
  }
}

/* Plays a move given as text (a chance outcome starts with '*') at the table's position, noting
 * what each viewer is told when `logged`. Refuses an illegal one, saying why, changing nothing. */
static int play_text(table *t, const char *text, bool logged, pf_error *err) {
  int who = t->g->to_move(t->run.state);
  if (who == PF_NOBODY) return pf_fail(err, "the game is over");
  if (who == PF_CHANCE || text[0] == '*') {
    if (logged && who == PF_CHANCE) log_move(t, -1, NULL, text);
    return pf_run_play_text(&t->run, text, err);
  }
  pf_move m;
  if (t->g->move_parse(t->run.state, text, &m, err) != 0) return -1;
  if (logged) log_move(t, who, &m, NULL);
  pf_run_play(&t->run, m);
  return 0;
}

static int parse_kind(const char *k) {
  for (int i = 0; i < 3; i++)
    if (strcmp(k, SEAT_KIND[i]) == 0) return i;
  return SEAT_OPEN;
}

static void note_group(table *t);

/* Builds a table in memory from what the store holds: its record replayed. */
static int table_from_store(void *ctx, const pf_store_loaded *l) {
  pf_hall *h = ctx;
  pf_error err;
  const pf_game *g = pf_game_find(l->table.game);
  table *t = pf_xcalloc(1, sizeof *t);
  for (int s = 0; s < PF_MAX_PLAYERS; s++) t->group_since[s] = -1;
  t->id = l->table.id;
  t->g = g;
  t->players = l->table.players;
  t->created = l->table.created;
  t->takeover_after = l->table.takeover_after;
  snprintf(t->takeover_bot, sizeof t->takeover_bot, "%s", l->table.takeover_bot ? l->table.takeover_bot : "");
  t->status = strcmp(l->table.status, "over") == 0 ? ST_OVER : strcmp(l->table.status, "playing") == 0 ? ST_PLAYING
                                                                                                      : ST_WAITING;
  json_error_t jerr;
  json_t *opts = json_loads(l->table.options, 0, &jerr);
  pf_setup setup = {.players = t->players, .seed = l->table.seed};
  if (!g || !opts || pf_record_options_read(opts, g, &setup.options, &err) != 0 ||
      pf_run_start(&t->run, g, &setup, &err) != 0) {
    fprintf(stderr, "pilfer serve: table %" PRId64 " (%s) cannot be restored: %s\n", t->id, l->table.game,
            g ? err.msg : "unknown game");
    json_decref(opts);
    free(t);
    return 0; /* the others still come back */
  }
  json_decref(opts);
  for (int i = 0; i < l->nseats && i < t->players; i++) {
    const pf_store_seat *s = &l->seats[i];
    if (s->seat < 0 || s->seat >= t->players) continue;
    chair *st = &t->seats[s->seat];
    st->kind = parse_kind(s->kind);
    st->taken_over = s->taken_over;
    snprintf(st->bot, sizeof st->bot, "%s", s->bot ? s->bot : "");
    snprintf(st->token, sizeof st->token, "%s", s->token ? s->token : "");
  }
  for (int k = 0; k < l->nmoves; k++)
    if (play_text(t, l->moves[k], k >= l->nmoves - LOG_KEEP, &err) != 0) {
      fprintf(stderr, "pilfer serve: table %" PRId64 ": move %d (\"%s\") does not replay: %s\n", t->id, k + 1,
              l->moves[k], err.msg);
      table_free(t);
      return 0;
    }
  for (int i = 0; i < l->nsealed; i++) {
    int s = l->sealed[i].seat;
    if (s < 0 || s >= t->players || l->sealed[i].ply > t->run.nmoves) continue;
    t->seats[s].has_sealed = true;
    snprintf(t->seats[s].sealed, sizeof t->seats[s].sealed, "%s", l->sealed[i].move);
  }
  t->since = pf_clock_seconds();
  note_group(t);
  table_free(table_in_memory(h, t->id));
  if (table_in_memory(h, t->id)) h->ntables--;
  table_put(h, t);
  return 0;
}

static void note_idle(pf_hall *h, const table *t);

/* The table with this id, from memory or else from the store; NULL if there is none. */
static table *table_get(pf_hall *h, int64_t id) {
  table *t = table_in_memory(h, id);
  if (t || id <= 0) return t;
  pf_error err;
  if (pf_store_load(h->store, id, table_from_store, h, &err) < 0)
    fprintf(stderr, "pilfer serve: %s\n", err.msg);
  t = table_in_memory(h, id);
  if (t) note_idle(h, t);
  return t;
}

/* After a failed write: the table in memory may hold what the store does not; bring it back as
 * stored (its watchers stay). */
static void table_reload(pf_hall *h, table *t) {
  watcher *w = t->watch;
  int nw = t->nwatch, cw = t->capwatch;
  t->watch = NULL;
  int64_t id = t->id;
  table_free(t);
  h->tables[id] = NULL;
  h->ntables--;
  table *back = table_get(h, id);
  if (back) {
    back->watch = w, back->nwatch = nw, back->capwatch = cw;
  } else {
    free(w);
  }
}

/* Notes a table to unload once its game is over and nobody is at it: a finished game lives in
 * the store and comes back on demand (table_get). Unloading waits for sweep_idle, at the end of
 * each call into the hall, so that no function is left holding a freed table. */
static void note_idle(pf_hall *h, const table *t) {
  if (t->status != ST_OVER) return;
  if (h->nidle == h->capidle) {
    h->capidle = h->capidle ? 2 * h->capidle : 16;
    h->idle = pf_xrealloc(h->idle, (size_t)h->capidle * sizeof *h->idle);
  }
  h->idle[h->nidle++] = t->id;
}

static void sweep_idle(pf_hall *h) {
  for (int i = 0; i < h->nidle; i++) {
    table *t = table_in_memory(h, h->idle[i]);
    if (!t || t->status != ST_OVER || t->nwatch || t->bot_busy) continue;
    h->tables[t->id] = NULL;
    h->ntables--;
    table_free(t);
  }
  h->nidle = 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Who is asked                                                                               */
/* ------------------------------------------------------------------------------------------ */

/* The seats asked now (game.h: choosing); 0 when the table is not being played. */
static int asked(const table *t, int *seats) {
  if (t->status != ST_PLAYING) return 0;
  return pf_choosing(t->g, t->run.state, seats);
}

/* Whether seat s is among the asked and may still answer; its index in the group in *at. */
static bool may_answer(const table *t, int s, int *at) {
  int seats[PF_MAX_PLAYERS], n = asked(t, seats);
  for (int i = 0; i < n; i++)
    if (seats[i] == s) {
      *at = i;
      return !t->seats[s].has_sealed;
    }
  return false;
}

/* Notes, after a change, since when each seat has been in the choosing group it is in: a move it
 * sends for any ply since then is not stale, since its legal moves have not changed (game.h:
 * choosing), even though the seats before it moved on. */
static void note_group(table *t) {
  int seats[PF_MAX_PLAYERS], n = asked(t, seats);
  bool in[PF_MAX_PLAYERS] = {0};
  for (int i = 0; i < n; i++) in[seats[i]] = true;
  for (int s = 0; s < t->players; s++)
    if (!in[s] || t->seats[s].has_sealed)
      t->group_since[s] = -1;
    else if (t->group_since[s] < 0)
      t->group_since[s] = t->run.nmoves;
}

/* Whether a move of seat s sent at `ply` was sent for the position it would be played in. */
static bool current_for(const table *t, int s, json_int_t ply) {
  return ply == t->run.nmoves || (t->group_since[s] >= 0 && ply >= t->group_since[s] && ply < t->run.nmoves);
}

/* A state in which seat seats[at] of the choosing group is to move: the seats before it play
 * their first legal move. The seat's view and legal moves there do not depend on what they play
 * (game.h: choosing), and nothing of the real choices is in it: bots may search from it. */
static void *state_for(pf_hall *h, const table *t, int at) {
  memcpy(h->scratch, t->run.state, t->g->state_size);
  for (int j = 0; j < at; j++) {
    pf_move moves[PF_MAX_MOVES];
    t->g->legal(h->scratch, moves);
    t->g->apply(h->scratch, moves[0]);
  }
  return h->scratch;
}

static bool is_bot_seat(const table *t, int s) { return t->seats[s].kind == SEAT_BOT || t->seats[s].taken_over; }

/* ------------------------------------------------------------------------------------------ */
/* What each connection is sent                                                               */
/* ------------------------------------------------------------------------------------------ */

static bool seat_connected(const table *t, int s) {
  for (int i = 0; i < t->nwatch; i++)
    if (t->watch[i].seat == s) return true;
  return false;
}

static json_t *seats_json(const table *t) {
  json_t *a = json_array();
  for (int s = 0; s < t->players; s++) {
    const chair *st = &t->seats[s];
    json_t *o = json_pack("{s:i, s:s}", "seat", s, "kind", SEAT_KIND[st->kind]);
    if (st->kind == SEAT_BOT) json_object_set_new(o, "bot", json_string(st->bot));
    if (st->kind == SEAT_HUMAN) {
      json_object_set_new(o, "connected", json_boolean(seat_connected(t, s)));
      if (st->taken_over) json_object_set_new(o, "bot", json_string(t->takeover_bot));
    }
    json_array_append_new(a, o);
  }
  return a;
}

static json_t *summary_json(const table *t) {
  json_t *o = json_pack("{s:I, s:s, s:s, s:i, s:o, s:s, s:i, s:o, s:o}", "table", (json_int_t)t->id, "game",
                        t->g->id, "title", t->g->title, "players", t->players, "options",
                        pf_record_options_json(t->g, &t->run.setup.options), "status", STATUS[t->status], "ply",
                        t->run.nmoves, "to_move",
                        t->status == ST_PLAYING ? pf_to_move_json(t->g->to_move(t->run.state)) : json_null(),
                        "seats", seats_json(t));
  if (t->takeover_after)
    json_object_set_new(o, "takeover", json_pack("{s:i, s:s}", "after", t->takeover_after, "bot", t->takeover_bot));
  return o;
}

static json_t *result_json(const table *t) {
  int scores[PF_MAX_PLAYERS], winners[PF_MAX_PLAYERS];
  t->g->scores(t->run.state, scores);
  int nw = t->g->winners(t->run.state, winners);
  return json_pack("{s:o, s:o}", "scores", pf_ints_json(scores, t->players), "winners", pf_ints_json(winners, nw));
}

/* The state message for one viewer: seat s, or -1 for a spectator (docs/protocol.md). */
static json_t *state_json(pf_hall *h, const table *t, int s) {
  int viewer = s < 0 ? PF_VIEW_PUBLIC : s;
  json_t *o = json_pack("{s:s, s:I, s:o, s:s, s:i}", "type", "state", "table", (json_int_t)t->id, "seat",
                        s < 0 ? json_null() : json_integer(s), "status", STATUS[t->status], "ply", t->run.nmoves);
  int group[PF_MAX_PLAYERS], n = asked(t, group);
  json_object_set_new(o, "to_move", t->status == ST_PLAYING ? pf_to_move_json(t->g->to_move(t->run.state)) : json_null());
  json_object_set_new(o, "choosing", pf_ints_json(group, n));
  /* The legal moves of this seat, if it may answer now (from the group's stand-in state when it
   * is not first). */
  json_t *legal = json_array(), *moves = NULL;
  int at;
  if (s >= 0 && may_answer(t, s, &at)) {
    json_decref(legal);
    const void *st = at == 0 ? t->run.state : state_for(h, t, at);
    legal = pf_legal_json(t->g, st);
    /* Their zones (docs/views.md): the seat's view lists them only where the seat is to move, so
     * a seat choosing after another has them from the stand-in state. */
    if (at > 0) {
      json_t *v = pf_view_json(t->g, st, t->players, s);
      moves = json_incref(json_object_get(v, "moves"));
      json_decref(v);
    }
  }
  json_object_set_new(o, "legal", legal);
  json_t *sealed = json_array();
  for (int i = 0; i < n; i++)
    if (t->seats[group[i]].has_sealed) json_array_append_new(sealed, json_integer(group[i]));
  json_object_set_new(o, "sealed", sealed);
  json_object_set_new(o, "mine", s >= 0 && t->seats[s].has_sealed ? json_string(t->seats[s].sealed) : json_null());
  /* A waiting table shows its seats only: its deal is not to be seen before everyone sits. */
  if (t->status != ST_WAITING) {
    json_t *view = pf_view_json(t->g, t->run.state, t->players, viewer);
    if (!moves) moves = json_incref(json_object_get(view, "moves"));
    json_object_set_new(o, "view", view);
    pf_buf text = {0};
    pf_style plain = {0};
    t->g->view_text(t->run.state, viewer, &plain, &text);
    json_object_set_new(o, "text", json_string(pf_buf_str(&text)));
    pf_buf_free(&text);
  } else {
    json_object_set_new(o, "view", json_null());
  }
  json_object_set_new(o, "moves", moves ? moves : json_array());
  json_t *log = json_array();
  int first = t->run.nmoves > LOG_KEEP ? t->run.nmoves - LOG_KEEP : 0;
  for (int k = first; k < t->run.nmoves; k++) {
    const log_entry *e = &t->log[k % LOG_KEEP];
    const char *text = e->ply == k ? e->texts[viewer_slot(t, s)] : NULL;
    if (!text) continue;
    json_t *le = json_pack("{s:i, s:o, s:s}", "ply", k, "seat", e->seat < 0 ? json_null() : json_integer(e->seat),
                           "text", text);
    /* The move's own string only to the seat that played it, or to everyone once it is over. */
    if ((e->seat >= 0 && e->seat == s) || t->status == ST_OVER)
      json_object_set_new(le, "move", json_string(t->run.moves[k]));
    json_array_append_new(log, le);
  }
  json_object_set_new(o, "log", log);
  json_object_set_new(o, "seats", seats_json(t));
  if (t->status == ST_OVER) {
    json_object_set_new(o, "result", result_json(t));
    char url[64];
    snprintf(url, sizeof url, "/api/tables/%" PRId64 "/record", t->id);
    json_object_set_new(o, "record", json_string(url));
  }
  return o;
}

/* Sends every connection at the table its own state (one text per viewer, built once). Every
 * change to a table ends here. */
static void broadcast(pf_hall *h, table *t) {
  char *texts[PF_MAX_PLAYERS + 1] = {0};
  note_group(t);
  for (int i = 0; i < t->nwatch; i++) {
    int slot = viewer_slot(t, t->watch[i].seat);
    if (!texts[slot]) {
      json_t *st = state_json(h, t, t->watch[i].seat);
      texts[slot] = json_dumps(st, JSON_COMPACT | JSON_PRESERVE_ORDER);
      json_decref(st);
      if (!texts[slot]) abort();
    }
    h->io.send(h->io.ctx, t->watch[i].conn->peer, texts[slot], strlen(texts[slot]));
  }
  for (int v = 0; v <= PF_MAX_PLAYERS; v++) free(texts[v]);
}

static void send_state(pf_hall *h, pf_conn *c, const table *t, int s) { send_json(h, c, state_json(h, t, s), NULL); }

/* ------------------------------------------------------------------------------------------ */
/* Playing                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* Writes and plays a move of the seat to move or a chance outcome (inside a transaction). */
static int play_and_store(pf_hall *h, table *t, const char *text, pf_error *err) {
  if (play_text(t, text, true, err) != 0) return -1;
  return pf_store_add_move(h->store, t->id, t->run.nmoves - 1, t->run.moves[t->run.nmoves - 1], err);
}

/* Plays what needs nobody (chance, sealed choices whose turn has come) until a seat must answer
 * or the game is over (inside a transaction). */
static int advance(pf_hall *h, table *t, pf_error *err) {
  while (t->status == ST_PLAYING) {
    int who = t->g->to_move(t->run.state);
    if (who == PF_NOBODY) {
      t->status = ST_OVER;
      json_t *sum = summary_json(t);
      char *text = json_dumps(sum, JSON_COMPACT | JSON_PRESERVE_ORDER);
      json_decref(sum);
      int rc = pf_store_set_status(h->store, t->id, "over", text, err);
      free(text);
      return rc;
    }
    if (who == PF_CHANCE) {
      char outcome[PF_MOVE_STR];
      memcpy(h->scratch, t->run.state, t->g->state_size);
      pf_chance_sample(t->g, h->scratch, outcome);
      if (play_and_store(h, t, outcome, err) != 0) return -1;
      continue;
    }
    chair *st = &t->seats[who];
    if (!st->has_sealed) return 0;
    st->has_sealed = false;
    if (pf_store_drop_sealed(h->store, t->id, who, err) != 0) return -1;
    pf_error perr;
    if (play_text(t, st->sealed, true, &perr) != 0) {
      /* Cannot happen when the game keeps game.h's promise for choosing; the seat is asked anew. */
      fprintf(stderr, "pilfer serve: table %" PRId64 ": seat %d's sealed \"%s\" is refused: %s\n", t->id, who,
              st->sealed, perr.msg);
      continue;
    }
    if (pf_store_add_move(h->store, t->id, t->run.nmoves - 1, t->run.moves[t->run.nmoves - 1], err) != 0) return -1;
  }
  return 0;
}

static void schedule_bot(pf_hall *h, table *t);

/* After a committed change: everyone at the table is told, a bot plays if its turn came, and a
 * table that is over may leave memory. */
static void changed(pf_hall *h, table *t) {
  t->since = pf_clock_seconds();
  broadcast(h, t);
  schedule_bot(h, t);
  note_idle(h, t);
}

/* Commits a change; on failure the table is put back as stored. Returns 0 on success. */
static int commit_or_reload(pf_hall *h, table *t, pf_error *err) {
  if (pf_store_commit(h->store, err) == 0) return 0;
  pf_store_rollback(h->store);
  table_reload(h, t);
  return -1;
}

/* Ends a change to a table: commits, and on success tells everyone and lets a bot play; on
 * failure puts the table back as stored. Returns 0 on success. */
static int finish_change(pf_hall *h, table *t, pf_error *err) {
  if (commit_or_reload(h, t, err) != 0) return -1;
  changed(h, t);
  return 0;
}

/* Rolls back a change that failed before its commit. */
static void abandon_change(pf_hall *h, table *t) {
  pf_store_rollback(h->store);
  table_reload(h, t);
}

/* A move of seat s (already checked to be asked and entitled): played now if it is first of its
 * group, sealed otherwise. `canon` gets its canonical string. Returns 0, or -1 with err set and
 * *code the protocol's error code. */
static int seat_move(pf_hall *h, table *t, int s, const char *text, char canon[PF_MOVE_STR], bool *sealed,
                     const char **code, pf_error *err) {
  int at;
  *code = "not_your_turn";
  if (!may_answer(t, s, &at)) {
    return t->seats[s].has_sealed ? pf_fail(err, "seat %d has already chosen", s)
                                  : pf_fail(err, "seat %d is not asked now", s);
  }
  void *st = at == 0 ? t->run.state : state_for(h, t, at);
  pf_move m;
  *code = "illegal_move";
  if (t->g->move_parse(st, text, &m, err) != 0) return -1;
  t->g->move_str(st, m, canon);
  *code = "storage";
  *sealed = at > 0;
  if (pf_store_begin(h->store, err) != 0) return -1;
  int rc;
  if (at > 0) {
    rc = pf_store_add_sealed(h->store, t->id, s, t->run.nmoves, canon, err);
    if (rc == 0) {
      t->seats[s].has_sealed = true;
      snprintf(t->seats[s].sealed, sizeof t->seats[s].sealed, "%s", canon);
    }
  } else {
    rc = play_and_store(h, t, canon, err);
  }
  if (rc == 0 && t->seats[s].taken_over) { /* a player back at the table takes the seat again */
    t->seats[s].taken_over = false;
    pf_store_seat ss = {s, "human", NULL, t->seats[s].token, false};
    rc = pf_store_set_seat(h->store, t->id, &ss, err);
  }
  if (rc == 0) rc = advance(h, t, err);
  if (rc != 0) {
    abandon_change(h, t);
    return -1;
  }
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Bots                                                                                       */
/* ------------------------------------------------------------------------------------------ */

/* On a worker thread: the bot chooses on its own copy of the state. */
static void run_bot(pf_work *w) {
  bot_job *j = (bot_job *)w;
  pf_bot bot;
  if (pf_bot_init(&bot, j->spec, j->players, j->seed, j->seat, &j->err) != 0) {
    j->failed = true;
    return;
  }
  pf_move m = pf_bot_choose(&bot, j->g, j->state);
  j->g->move_str(j->state, m, j->move);
  if (j->hint) {
    pf_style plain = {0};
    pf_describe(j->g, j->state, m, j->seat, &plain, &j->text);
  }
  pf_bot_free(&bot);
}

static void job_free(bot_job *j) {
  free(j->state);
  json_decref(j->req_id);
  pf_buf_free(&j->text);
  free(j);
}

static bot_job *job_new(pf_hall *h, const table *t, int seat, int at, const char *spec) {
  bot_job *j = pf_xcalloc(1, sizeof *j);
  j->table = t->id;
  j->ply = t->run.nmoves;
  j->seat = seat;
  j->g = t->g;
  j->players = t->players;
  j->state = pf_xmalloc(t->g->state_size);
  memcpy(j->state, at == 0 ? t->run.state : state_for(h, t, at), t->g->state_size);
  snprintf(j->spec, sizeof j->spec, "%s", spec);
  j->seed = os_random64();
  return j;
}

/* Gives the seat to move to its bot when a bot plays it (one job per table at a time). */
static void schedule_bot(pf_hall *h, table *t) {
  if (t->status != ST_PLAYING || t->bot_busy) return;
  int who = t->g->to_move(t->run.state);
  if (who < 0 || !is_bot_seat(t, who)) return;
  const char *spec = t->seats[who].kind == SEAT_BOT ? t->seats[who].bot : t->takeover_bot;
  t->bot_busy = true;
  pf_workers_submit(h->workers, &job_new(h, t, who, 0, spec)->work);
}

/* A bot's finished choice for a table: played if the table is still where it was. */
static void bot_played(pf_hall *h, bot_job *j) {
  table *t = table_in_memory(h, j->table);
  if (!t) return;
  t->bot_busy = false;
  pf_error err;
  if (j->failed) {
    fprintf(stderr, "pilfer serve: table %" PRId64 ": bot \"%s\": %s\n", t->id, j->spec, j->err.msg);
    return;
  }
  if (t->status == ST_PLAYING && t->run.nmoves == j->ply && t->g->to_move(t->run.state) == j->seat &&
      is_bot_seat(t, j->seat)) {
    if (pf_store_begin(h->store, &err) != 0 || play_and_store(h, t, j->move, &err) != 0 || advance(h, t, &err) != 0) {
      fprintf(stderr, "pilfer serve: table %" PRId64 ": bot move \"%s\": %s\n", t->id, j->move, err.msg);
      abandon_change(h, t);
      return;
    }
    if (finish_change(h, t, &err) != 0) fprintf(stderr, "pilfer serve: table %" PRId64 ": %s\n", t->id, err.msg);
    return;
  }
  schedule_bot(h, t); /* the table moved on meanwhile (a takeover ended): ask again if need be */
}

static void hint_done(pf_hall *h, bot_job *j) {
  pf_conn *c = conn_by_id(h, j->conn);
  if (!c) return;
  if (j->failed) {
    send_error(h, c, j->req_id, "bad_seat_spec", "%s", j->err.msg);
    return;
  }
  send_json(h, c,
            json_pack("{s:s, s:I, s:i, s:s, s:s}", "type", "hint", "table", (json_int_t)j->table, "ply", j->ply,
                      "move", j->move, "text", pf_buf_str(&j->text)),
            j->req_id);
}

void pf_hall_poll(pf_hall *h) {
  pf_work *w;
  while ((w = pf_workers_done(h->workers))) {
    bot_job *j = (bot_job *)w;
    if (j->hint)
      hint_done(h, j);
    else
      bot_played(h, j);
    job_free(j);
  }
  sweep_idle(h);
}

void pf_hall_tick(pf_hall *h) {
  double now = pf_clock_seconds();
  pf_error err;
  for (int64_t id = 1; id < h->cap; id++) {
    table *t = h->tables[id];
    if (!t || t->status != ST_PLAYING || !t->takeover_after || now - t->since < t->takeover_after) continue;
    int seats[PF_MAX_PLAYERS], n = asked(t, seats), changed = 0;
    if (pf_store_begin(h->store, &err) != 0) continue;
    for (int i = 0; i < n; i++) {
      chair *st = &t->seats[seats[i]];
      if (st->kind != SEAT_HUMAN || st->taken_over || st->has_sealed) continue;
      st->taken_over = true;
      pf_store_seat ss = {seats[i], "human", NULL, st->token, true};
      if (pf_store_set_seat(h->store, t->id, &ss, &err) != 0) break;
      changed++;
    }
    if (!changed) {
      pf_store_rollback(h->store);
      t->since = now;
      continue;
    }
    if (finish_change(h, t, &err) != 0) fprintf(stderr, "pilfer serve: table %" PRId64 ": %s\n", t->id, err.msg);
  }
  sweep_idle(h);
}

/* ------------------------------------------------------------------------------------------ */
/* Connections and bindings                                                                   */
/* ------------------------------------------------------------------------------------------ */

static void bind_conn(table *t, pf_conn *c, int s) {
  for (int i = 0; i < c->nbind; i++)
    if (c->bind[i].table == t->id && c->bind[i].seat == s) return;
  if (c->nbind < MAX_BINDINGS) c->bind[c->nbind++] = (binding){t->id, s};
  if (t->nwatch == t->capwatch) {
    t->capwatch = t->capwatch ? 2 * t->capwatch : 4;
    t->watch = pf_xrealloc(t->watch, (size_t)t->capwatch * sizeof *t->watch);
  }
  t->watch[t->nwatch++] = (watcher){c, s};
}

/* Unbinds c from seat s of table t (s = -2: from every seat and watching). */
static void unbind_conn(pf_hall *h, int64_t id, pf_conn *c, int s) {
  table *t = table_in_memory(h, id);
  for (int i = 0; i < c->nbind;)
    if (c->bind[i].table == id && (s == -2 || c->bind[i].seat == s))
      c->bind[i] = c->bind[--c->nbind];
    else
      i++;
  if (!t) return;
  for (int i = 0; i < t->nwatch;)
    if (t->watch[i].conn == c && (s == -2 || t->watch[i].seat == s))
      t->watch[i] = t->watch[--t->nwatch];
    else
      i++;
}

pf_conn *pf_hall_connect(pf_hall *h, void *peer) {
  pf_conn *c = pf_xcalloc(1, sizeof *c);
  c->id = ++h->next_conn;
  c->peer = peer;
  c->next = h->conns;
  if (h->conns) h->conns->prev = c;
  h->conns = c;
  return c;
}

void pf_hall_disconnect(pf_hall *h, pf_conn *c) {
  while (c->nbind) {
    int64_t id = c->bind[0].table;
    unbind_conn(h, id, c, -2);
    table *t = table_in_memory(h, id);
    if (t && t->status != ST_OVER) broadcast(h, t); /* the others see the seat disconnected */
    if (t) note_idle(h, t);
  }
  if (c->prev) c->prev->next = c->next;
  else h->conns = c->next;
  if (c->next) c->next->prev = c->prev;
  free(c);
  sweep_idle(h);
}

/* ------------------------------------------------------------------------------------------ */
/* Messages                                                                                   */
/* ------------------------------------------------------------------------------------------ */

typedef struct request {
  pf_hall *h;
  pf_conn *c;
  json_t *msg, *id;
  const char *type;
} request;

static void bad(request *r, const char *code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void bad(request *r, const char *code, const char *fmt, ...) {
  char msg[560];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  send_error(r->h, r->c, r->id, code, "%s", msg);
}

/* An integer field; absent is *v = def when optional. Returns 0, or -1 after the error reply. */
static int field_int(request *r, const char *key, bool optional, json_int_t def, json_int_t lo, json_int_t hi,
                     json_int_t *v) {
  json_t *f = json_object_get(r->msg, key);
  if (!f && optional) {
    *v = def;
    return 0;
  }
  if (!json_is_integer(f)) {
    bad(r, "bad_message", "%s: \"%s\" must be an integer", r->type, key);
    return -1;
  }
  *v = json_integer_value(f);
  if (*v < lo || *v > hi) {
    bad(r, "bad_message", "%s: \"%s\" must be from %lld to %lld, not %lld", r->type, key, (long long)lo,
        (long long)hi, (long long)*v);
    return -1;
  }
  return 0;
}

static const char *field_str(request *r, const char *key, bool optional) {
  json_t *f = json_object_get(r->msg, key);
  if (!f && optional) return NULL;
  if (!json_is_string(f)) {
    bad(r, "bad_message", "%s: \"%s\" must be a string", r->type, key);
    return NULL;
  }
  return json_string_value(f);
}

static table *field_table(request *r) {
  json_int_t id;
  if (field_int(r, "table", false, 0, 1, INT64_MAX, &id) != 0) return NULL;
  table *t = table_get(r->h, id);
  if (!t) bad(r, "unknown_table", "there is no table %lld", (long long)id);
  return t;
}

/* The seat whose token the request gives. */
static int field_token(request *r, const table *t) {
  const char *tok = field_str(r, "token", false);
  if (!tok) return -1;
  if (strlen(tok) == 32)
    for (int s = 0; s < t->players; s++)
      if (t->seats[s].kind == SEAT_HUMAN && token_equal(t->seats[s].token, tok)) return s;
  bad(r, "bad_token", "that token is not a seat's of table %" PRId64, t->id);
  return -1;
}

/* The table and seat a request names with "table" and "token"; -1 after the error reply. */
static int field_seat(request *r, table **t) {
  *t = field_table(r);
  return *t ? field_token(r, *t) : -1;
}

static void h_games(request *r) {
  send_json(r->h, r->c, json_pack("{s:s, s:o}", "type", "games", "games", pf_games_json()), r->id);
}

static void add_summary(void *ctx, const char *text) {
  json_t *o = json_loads(text ? text : "", 0, NULL);
  if (json_is_object(o)) json_array_append(ctx, o);
  json_decref(o);
}

/* The summaries of a list: every unfinished table in memory (newest first), then the newest
 * finished ones, LIST_MAX in all. */
static json_t *tables_json(pf_hall *h) {
  json_t *a = json_array();
  for (int64_t id = h->cap - 1; id > 0 && json_array_size(a) < LIST_MAX; id--)
    if (h->tables[id] && h->tables[id]->status != ST_OVER) json_array_append_new(a, summary_json(h->tables[id]));
  pf_error err;
  if (pf_store_finished(h->store, LIST_MAX - (int)json_array_size(a), add_summary, a, &err) < 0)
    fprintf(stderr, "pilfer serve: %s\n", err.msg);
  return a;
}

static void h_list(request *r) {
  send_json(r->h, r->c, json_pack("{s:s, s:o}", "type", "tables", "tables", tables_json(r->h)), r->id);
}

/* Starts a table whose seats are all filled: plays what needs nobody and lets the bots play
 * (inside the caller's transaction). */
static int start_if_full(pf_hall *h, table *t, pf_error *err) {
  for (int s = 0; s < t->players; s++)
    if (t->seats[s].kind == SEAT_OPEN) return 0;
  t->status = ST_PLAYING;
  if (pf_store_set_status(h->store, t->id, "playing", NULL, err) != 0) return -1;
  return advance(h, t, err);
}

static void h_create(request *r) {
  pf_hall *h = r->h;
  const char *gid = field_str(r, "game", false);
  if (!gid) return;
  const pf_game *g = pf_game_find(gid);
  if (!g) {
    pf_buf known = {0};
    for (int i = 0; pf_games[i]; i++) pf_buf_printf(&known, "%s%s", i ? ", " : "", pf_games[i]->id);
    bad(r, "bad_game", "no game is called \"%s\"; the games are %s", gid, pf_buf_str(&known));
    pf_buf_free(&known);
    return;
  }
  json_int_t players;
  if (field_int(r, "players", true, g->min_players, 1, PF_MAX_PLAYERS, &players) != 0) return;
  pf_error err;
  pf_setup setup = {.players = (int)players, .seed = os_random64() >> 1}; /* records hold seeds < 2^63 */
  if (pf_check_players(g, players, &err) != 0) return bad(r, "bad_options", "%s", err.msg);
  if (pf_record_options_read(json_object_get(r->msg, "options"), g, &setup.options, &err) != 0)
    return bad(r, "bad_options", "%s", err.msg);
  table *t = pf_xcalloc(1, sizeof *t);
  for (int s = 0; s < PF_MAX_PLAYERS; s++) t->group_since[s] = -1;
  t->g = g;
  t->players = (int)players;
  json_t *seats = json_object_get(r->msg, "seats");
  if (seats && (!json_is_array(seats) || json_array_size(seats) != (size_t)players)) {
    free(t);
    return bad(r, "bad_message", "create: \"seats\" must be an array of %lld: \"open\" or a bot spec each",
               (long long)players);
  }
  for (int s = 0; s < players; s++) {
    json_t *v = seats ? json_array_get(seats, (size_t)s) : NULL;
    const char *spec = v ? json_string_value(v) : "open";
    if (!spec) {
      free(t);
      return bad(r, "bad_message", "create: seats[%d] must be a string", s);
    }
    if (strcmp(spec, "open") == 0) continue;
    if (strlen(spec) >= PF_BOT_SPEC || pf_bot_check_spec(spec, &err) != 0) {
      free(t);
      return bad(r, "bad_seat_spec", "seats[%d]: %s", s, strlen(spec) >= PF_BOT_SPEC ? "too long" : err.msg);
    }
    t->seats[s].kind = SEAT_BOT;
    snprintf(t->seats[s].bot, sizeof t->seats[s].bot, "%s", spec);
  }
  json_t *tk = json_object_get(r->msg, "takeover");
  snprintf(t->takeover_bot, sizeof t->takeover_bot, "%s", DEFAULT_TAKEOVER_BOT);
  if (tk) {
    json_t *after = json_object_get(tk, "after"), *bot = json_object_get(tk, "bot");
    if (!json_is_object(tk) || !json_is_integer(after) || json_integer_value(after) < 10 ||
        json_integer_value(after) > 86400 || (bot && !json_is_string(bot))) {
      free(t);
      return bad(r, "bad_message", "create: \"takeover\" must be {\"after\": 10 to 86400 seconds, \"bot\": a spec}");
    }
    if (bot && (strlen(json_string_value(bot)) >= PF_BOT_SPEC || pf_bot_check_spec(json_string_value(bot), &err) != 0)) {
      free(t);
      return bad(r, "bad_seat_spec", "takeover: %s", err.msg);
    }
    t->takeover_after = (int)json_integer_value(after);
    if (bot) snprintf(t->takeover_bot, sizeof t->takeover_bot, "%s", json_string_value(bot));
  }
  if (pf_run_start(&t->run, g, &setup, &err) != 0) {
    free(t);
    return bad(r, "bad_options", "%s", err.msg);
  }
  t->created = (int64_t)time(NULL);
  json_t *opts = pf_record_options_json(g, &setup.options);
  char *opts_text = json_dumps(opts, JSON_COMPACT | JSON_PRESERVE_ORDER);
  json_decref(opts);
  pf_store_table row = {0, g->id, t->players, opts_text, setup.seed, "waiting", t->takeover_after,
                        t->takeover_after ? t->takeover_bot : NULL, t->created};
  pf_store_seat rows[PF_MAX_PLAYERS];
  for (int s = 0; s < t->players; s++)
    rows[s] = (pf_store_seat){s, SEAT_KIND[t->seats[s].kind], t->seats[s].kind == SEAT_BOT ? t->seats[s].bot : NULL,
                              NULL, false};
  int rc = pf_store_begin(h->store, &err);
  if (rc == 0) rc = pf_store_add_table(h->store, &row, rows, &err);
  free(opts_text);
  if (rc == 0) {
    t->id = row.id;
    table_put(h, t);
    rc = start_if_full(h, t, &err);
  }
  if (rc != 0 || pf_store_commit(h->store, &err) != 0) {
    pf_store_rollback(h->store);
    if (t->id && table_in_memory(h, t->id) == t) h->tables[t->id] = NULL, h->ntables--;
    table_free(t);
    return bad(r, "storage", "%s", err.msg);
  }
  t->since = pf_clock_seconds();
  send_json(h, r->c, json_pack("{s:s, s:I, s:o}", "type", "created", "table", (json_int_t)t->id, "summary", summary_json(t)),
            r->id);
  schedule_bot(h, t);
  note_idle(h, t);
}

static void h_join(request *r) {
  pf_hall *h = r->h;
  table *t = field_table(r);
  if (!t) return;
  json_int_t s;
  if (field_int(r, "seat", true, -1, 0, t->players - 1, &s) != 0) return;
  if (s < 0)
    for (int i = 0; i < t->players && s < 0; i++)
      if (t->seats[i].kind == SEAT_OPEN) s = i;
  if (s < 0) return bad(r, "seat_taken", "table %" PRId64 " has no open seat", t->id);
  if (t->seats[s].kind != SEAT_OPEN) return bad(r, "seat_taken", "seat %lld of table %" PRId64 " is taken", (long long)s, t->id);
  pf_error err;
  chair *st = &t->seats[s];
  new_token(st->token);
  st->kind = SEAT_HUMAN;
  pf_store_seat row = {(int)s, "human", NULL, st->token, false};
  if (pf_store_begin(h->store, &err) != 0 || pf_store_set_seat(h->store, t->id, &row, &err) != 0 ||
      start_if_full(h, t, &err) != 0) {
    abandon_change(h, t);
    return bad(r, "storage", "%s", err.msg);
  }
  if (commit_or_reload(h, t, &err) != 0) return bad(r, "storage", "%s", err.msg);
  bind_conn(t, r->c, (int)s);
  send_json(h, r->c,
            json_pack("{s:s, s:I, s:i, s:s}", "type", "joined", "table", (json_int_t)t->id, "seat", (int)s, "token",
                      st->token),
            r->id);
  changed(h, t);
}

static void h_resume(request *r) {
  pf_hall *h = r->h;
  table *t;
  int s = field_seat(r, &t);
  if (s < 0) return;
  pf_error err;
  if (t->seats[s].taken_over) {
    t->seats[s].taken_over = false;
    pf_store_seat row = {s, "human", NULL, t->seats[s].token, false};
    if (pf_store_set_seat(h->store, t->id, &row, &err) != 0) {
      t->seats[s].taken_over = true;
      return bad(r, "storage", "%s", err.msg);
    }
  }
  bind_conn(t, r->c, s);
  send_json(h, r->c, json_pack("{s:s, s:I, s:i}", "type", "joined", "table", (json_int_t)t->id, "seat", s), r->id);
  broadcast(h, t);
}

static void h_watch(request *r) {
  table *t = field_table(r);
  if (!t) return;
  bind_conn(t, r->c, -1);
  send_json(r->h, r->c, json_pack("{s:s, s:I}", "type", "watching", "table", (json_int_t)t->id), r->id);
  send_state(r->h, r->c, t, -1);
}

static void h_move(request *r) {
  pf_hall *h = r->h;
  table *t;
  int s = field_seat(r, &t);
  if (s < 0) return;
  const char *text = field_str(r, "move", false);
  if (!text) return;
  json_int_t ply;
  if (field_int(r, "ply", true, -1, -1, INT32_MAX, &ply) != 0) return;
  if (t->status != ST_PLAYING)
    return bad(r, "not_your_turn", "table %" PRId64 " is %s", t->id, t->status == ST_OVER ? "over" : "waiting for players");
  if (ply >= 0 && !current_for(t, s, ply))
    return bad(r, "stale", "the table is at ply %d, not %lld", t->run.nmoves, (long long)ply);
  char canon[PF_MOVE_STR];
  bool sealed = false;
  const char *code;
  pf_error err;
  if (seat_move(h, t, s, text, canon, &sealed, &code, &err) != 0) /* t may be reloaded: not used after */
    return bad(r, code, "move \"%s\": %s", text, err.msg);
  if (commit_or_reload(h, t, &err) != 0) return bad(r, "storage", "%s", err.msg);
  json_t *ack = json_pack("{s:s, s:I, s:i, s:s}", "type", "ack", "table", (json_int_t)t->id, "ply", t->run.nmoves,
                          "move", canon);
  if (sealed) json_object_set_new(ack, "sealed", json_true());
  send_json(h, r->c, ack, r->id);
  changed(h, t);
}

static void h_leave(request *r) {
  pf_hall *h = r->h;
  table *t;
  int s = field_seat(r, &t);
  if (s < 0) return;
  pf_error err;
  chair *st = &t->seats[s];
  pf_store_seat row = {s, "open", NULL, NULL, false};
  if (t->status == ST_PLAYING) row = (pf_store_seat){s, "bot", t->takeover_bot, NULL, false};
  if (t->status != ST_OVER) {
    if (pf_store_begin(h->store, &err) != 0 || pf_store_set_seat(h->store, t->id, &row, &err) != 0 ||
        pf_store_commit(h->store, &err) != 0) {
      pf_store_rollback(h->store);
      return bad(r, "storage", "%s", err.msg);
    }
    st->kind = parse_kind(row.kind);
    st->taken_over = false;
    memset(st->token, 0, sizeof st->token);
    snprintf(st->bot, sizeof st->bot, "%s", row.bot ? row.bot : "");
    /* Every connection at that seat leaves it. */
    for (int i = 0; i < t->nwatch;)
      if (t->watch[i].seat == s)
        unbind_conn(h, t->id, t->watch[i].conn, s);
      else
        i++;
  }
  unbind_conn(h, t->id, r->c, s);
  send_json(h, r->c, json_pack("{s:s, s:I}", "type", "left", "table", (json_int_t)t->id), r->id);
  changed(h, t);
}

static void h_hint(request *r) {
  pf_hall *h = r->h;
  table *t;
  int s = field_seat(r, &t);
  if (s < 0) return;
  const char *spec = field_str(r, "bot", true);
  if (!spec && json_object_get(r->msg, "bot")) return;
  if (!spec) spec = DEFAULT_HINT_BOT;
  pf_error err;
  if (strlen(spec) >= PF_BOT_SPEC || pf_bot_check_spec(spec, &err) != 0)
    return bad(r, "bad_seat_spec", "hint: %s", strlen(spec) >= PF_BOT_SPEC ? "the bot spec is too long" : err.msg);
  int at;
  if (!may_answer(t, s, &at)) return bad(r, "not_your_turn", "seat %d is not asked now", s);
  bot_job *j = job_new(h, t, s, at, spec);
  j->hint = true;
  j->conn = r->c->id;
  j->req_id = r->id ? json_incref(r->id) : NULL;
  pf_workers_submit(h->workers, &j->work);
}

static void h_review(request *r) {
  table *t = field_table(r);
  if (!t) return;
  if (t->status != ST_OVER) return bad(r, "not_over", "table %" PRId64 " is still being played", t->id);
  json_int_t ply;
  if (field_int(r, "ply", false, 0, 0, t->run.nmoves, &ply) != 0) return;
  pf_run run;
  pf_error err;
  if (pf_run_start(&run, t->g, &t->run.setup, &err) != 0) return bad(r, "storage", "%s", err.msg);
  for (int k = 0; k < ply; k++)
    if (pf_run_play_text(&run, t->run.moves[k], &err) != 0) {
      pf_run_free(&run);
      return bad(r, "storage", "move %d: %s", k + 1, err.msg);
    }
  pf_buf text = {0};
  pf_style plain = {0};
  t->g->view_text(run.state, PF_VIEW_ALL, &plain, &text);
  json_t *o = json_pack("{s:s, s:I, s:i, s:i, s:o, s:s}", "type", "review", "table", (json_int_t)t->id, "ply",
                        (int)ply, "plies", t->run.nmoves, "view", pf_view_json(t->g, run.state, t->players, PF_VIEW_ALL),
                        "text", pf_buf_str(&text));
  if (ply < t->run.nmoves) json_object_set_new(o, "next", json_string(t->run.moves[ply]));
  pf_buf_free(&text);
  pf_run_free(&run);
  send_json(r->h, r->c, o, r->id);
}

/* Every message type and its handler: the message is a JSON object with a string "type" before
 * any handler runs; each handler checks its own fields and replies exactly once. */
static const struct {
  const char *type;
  void (*fn)(request *r);
} HANDLERS[] = {
    {"games", h_games}, {"list", h_list},   {"create", h_create}, {"join", h_join},   {"resume", h_resume},
    {"watch", h_watch}, {"move", h_move},   {"leave", h_leave},   {"hint", h_hint},   {"review", h_review},
};

void pf_hall_message(pf_hall *h, pf_conn *c, const char *text, size_t len) {
  json_error_t jerr;
  json_t *msg = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
  request r = {h, c, msg, NULL, "message"};
  if (!msg) {
    send_error(h, c, NULL, "bad_json", "line %d column %d: %s", jerr.line, jerr.column, jerr.text);
    return;
  }
  if (!json_is_object(msg)) {
    json_decref(msg);
    send_error(h, c, NULL, "bad_json", "a message must be a JSON object");
    return;
  }
  json_t *id = json_object_get(msg, "id");
  if (id && (json_is_string(id) || json_is_integer(id))) r.id = id;
  json_t *type = json_object_get(msg, "type");
  if (!json_is_string(type)) {
    bad(&r, "bad_message", "a message needs a string \"type\"");
  } else {
    r.type = json_string_value(type);
    size_t i = 0, n = sizeof HANDLERS / sizeof HANDLERS[0];
    while (i < n && strcmp(HANDLERS[i].type, r.type) != 0) i++;
    if (i < n) {
      HANDLERS[i].fn(&r);
    } else {
      pf_buf known = {0};
      for (size_t k = 0; k < n; k++) pf_buf_printf(&known, "%s%s", k ? ", " : "", HANDLERS[k].type);
      bad(&r, "bad_message", "no message type is called \"%.40s\"; the types are %s", r.type, pf_buf_str(&known));
      pf_buf_free(&known);
    }
  }
  json_decref(msg);
  pf_hall_poll(h); /* inline bots (0 workers) have finished already; sweeps idle tables */
}

/* ------------------------------------------------------------------------------------------ */
/* HTTP                                                                                       */
/* ------------------------------------------------------------------------------------------ */

static int http_json(pf_buf *body, const char **type, int status, json_t *o) {
  char *text = json_dumps(o, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
  json_decref(o);
  pf_buf_puts(body, text);
  pf_buf_putc(body, '\n');
  free(text);
  *type = "application/json";
  return status;
}

static int http_error(pf_buf *body, const char **type, int status, const char *msg) {
  return http_json(body, type, status, json_pack("{s:s}", "error", msg));
}

int pf_hall_http(pf_hall *h, const char *path, pf_buf *body, const char **type) {
  if (strcmp(path, "/api/games") == 0) return http_json(body, type, 200, pf_games_json());
  if (strcmp(path, "/api/tables") == 0) return http_json(body, type, 200, tables_json(h));
  if (strncmp(path, "/api/rules/", 11) == 0) {
    const pf_game *g = pf_game_find(path + 11);
    if (!g) return http_error(body, type, 404, "no such game");
    pf_buf_puts(body, g->rules);
    *type = "text/plain; charset=utf-8";
    return 200;
  }
  long long id;
  char rest[16] = "";
  if (sscanf(path, "/api/tables/%lld%15s", &id, rest) >= 1 && id > 0) {
    table *t = table_get(h, id);
    if (!t) return http_error(body, type, 404, "no such table");
    if (!rest[0]) return http_json(body, type, 200, summary_json(t));
    if (strcmp(rest, "/record") == 0) {
      if (t->status != ST_OVER) return http_error(body, type, 409, "the game is still being played");
      return http_json(body, type, 200, pf_record_json(&t->run));
    }
  }
  return http_error(body, type, 404, "no such thing");
}

int pf_hall_tables(const pf_hall *h) { return h->ntables; }

/* ------------------------------------------------------------------------------------------ */
/* Opening and closing                                                                        */
/* ------------------------------------------------------------------------------------------ */

pf_hall *pf_hall_open(const pf_hall_config *cfg, const pf_hall_io *io, pf_error *err) {
  pf_hall *h = pf_xcalloc(1, sizeof *h);
  h->io = *io;
  h->scratch = pf_xmalloc(largest_state());
  if (pf_store_open(&h->store, cfg->db, cfg->full_sync, err) != 0 ||
      pf_store_load_unfinished(h->store, table_from_store, h, err) != 0) {
    pf_store_close(h->store);
    free(h->scratch);
    free(h);
    return NULL;
  }
  h->workers = pf_workers_start(cfg->workers, run_bot, io->wake, io->ctx);
  /* The tables that came back: what needs nobody is played, and the bots play their seats. */
  for (int64_t id = 1; id < h->cap; id++) {
    table *t = h->tables[id];
    if (!t || t->status != ST_PLAYING) continue;
    if (pf_store_begin(h->store, err) != 0 || advance(h, t, err) != 0 || pf_store_commit(h->store, err) != 0) {
      fprintf(stderr, "pilfer serve: table %" PRId64 ": %s\n", id, err->msg);
      abandon_change(h, t);
      continue;
    }
    schedule_bot(h, t);
  }
  return h;
}

void pf_hall_close(pf_hall *h) {
  if (!h) return;
  pf_workers_stop(h->workers);
  pf_work *w;
  while ((w = pf_workers_done(h->workers))) job_free((bot_job *)w);
  pf_workers_free(h->workers);
  while (h->conns) pf_hall_disconnect(h, h->conns);
  for (int64_t id = 1; id < h->cap; id++) table_free(h->tables[id]);
  free(h->tables);
  pf_store_close(h->store);
  free(h->scratch);
  free(h->idle);
  free(h);
}
