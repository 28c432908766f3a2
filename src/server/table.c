/*
 * table.c - a table in memory (table.h): its replay from the store, who is asked, what each
 * viewer is sent, playing a move (the one path every move takes, live or replayed), changes and
 * the bots' jobs.
 */
#include "server/table.h"
#include "server/log.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "core/clock.h"
#include "core/jsontext.h"

const char *const SEAT_KIND[] = {"open", "human", "bot"};
const char *const STATUS[] = {"waiting", "playing", "over"};

/* ------------------------------------------------------------------------------------------ */
/* Small helpers                                                                              */
/* ------------------------------------------------------------------------------------------ */

/* 128 bits from the operating system, as 32 hex digits. */
void new_token(char out[33]) {
  unsigned char b[16];
  size_t got = 0;
  while (got < sizeof b) {
    ssize_t n = getrandom(b + got, sizeof b - got, 0);
    if (n < 0 && errno != EINTR) abort(); /* no randomness: no secrets, no server */
    if (n > 0) got += (size_t)n;
  }
  for (int i = 0; i < 16; i++) pf_snprintf(out + 2 * i, 3, "%02x", b[i]);
}

uint64_t os_random64(void) {
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
bool token_equal(const char *a, const char *b) {
  unsigned diff = 0;
  for (int i = 0; i < 32; i++) diff |= (unsigned)(a[i] ^ b[i]);
  return diff == 0 && a[32] == 0 && b[32] == 0;
}

table *table_in_memory(pf_hall *h, int64_t id) {
  return id > 0 && id < h->cap ? h->tables[id] : NULL;
}


/* ------------------------------------------------------------------------------------------ */
/* Tables in memory                                                                           */
/* ------------------------------------------------------------------------------------------ */

static void log_free(log_entry *e) {
  for (int v = 0; v <= PF_MAX_PLAYERS; v++) free(e->texts[v]), e->texts[v] = NULL;
}

void table_free(table *t) {
  if (!t) return;
  for (int i = 0; i < LOG_KEEP; i++) log_free(&t->log[i]);
  pf_run_free(&t->run);
  free(t->watch);
  free(t);
}

table *table_new(const pf_game *g, int players) {
  table *t = pf_xcalloc(1, sizeof *t);
  for (int s = 0; s < PF_MAX_PLAYERS; s++) t->group_since[s] = -1;
  t->lost_on_time = -1;
  t->g = g;
  t->players = players;
  return t;
}

void table_remove(pf_hall *h, table *t) {
  h->tables[t->id] = NULL;
  h->ntables--;
  table_free(t);
}

void table_put(pf_hall *h, table *t) {
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

/* Sets a log entry's text for viewer slot v from a description (none when empty, or when it is
 * not UTF-8: never a state that cannot be written). */
static void log_set(log_entry *e, int v, const pf_buf *text) {
  free(e->texts[v]);
  e->texts[v] = NULL, e->lens[v] = 0;
  if (!text->len) return;
  pf_buf q = {0};
  if (pf_json_write_string(&q, text->data, text->len) != 0) {
    pf_buf_free(&q);
    return;
  }
  e->texts[v] = q.data, e->lens[v] = q.len;
}

/* Notes what each viewer is told of the move about to be played at t->run's position: `m` for a
 * seat's move, or the chance outcome text. */
static void log_move(table *t, int who, const pf_move *m, const char *outcome) {
  int ply = t->run.nmoves;
  log_entry *e = &t->log[ply % LOG_KEEP];
  log_free(e);
  e->ply = ply;
  e->seat = who;
  e->whole = 0;
  e->zones = (pf_move_zones){.card = PF_CARD_NONE};
  if (m) pf_move_zones_of(t->g, t->run.state, *m, &e->zones);
  pf_style plain = {0};
  for (int v = 0; v <= t->players; v++) {
    pf_buf b = {0};
    int viewer = viewer_of_slot(t, v);
    if (m)
      pf_describe(t->g, t->run.state, *m, viewer, &plain, &b);
    else
      pf_describe_chance(t->g, t->run.state, outcome, viewer, &plain, &b);
    log_set(e, v, &b);
    pf_buf_free(&b);
  }
  /* A viewer told the move in the mover's own words may know where it went: not one told less
   * (a sealed choice, a card drawn unseen), whose entry would give away through its zones. */
  const int mover = viewer_slot(t, who);
  for (int v = 0; m && v <= t->players; v++)
    if (e->texts[v] && e->lens[v] == e->lens[mover] && memcmp(e->texts[v], e->texts[mover], e->lens[v]) == 0)
      e->whole |= 1u << v;
}

/* A recorded move (its text; a chance outcome's starts with '*') at st, in words with everything
 * shown, into b; a seat's move also gives its zones into z when z is given. Returns whether it was
 * a chance outcome. The review's log (hall.c) and the log told again at the end use it. */
bool describe_shown(const pf_game *g, const void *st, const char *text, pf_buf *b, pf_move_zones *z) {
  pf_style plain = {0};
  pf_move m;
  pf_error err;
  if (text[0] == '*' || g->to_move(st) < 0) {
    pf_describe_chance(g, st, text, PF_VIEW_ALL, &plain, b);
    return true;
  }
  if (g->move_parse(st, text, &m, &err) == 0) {
    pf_describe(g, st, m, PF_VIEW_ALL, &plain, b);
    if (z) pf_move_zones_of(g, st, m, z);
  }
  return false;
}

/* Once the game is over nothing is hidden any more (the record, seed and deals are everyone's):
 * the kept log is told again as the full state knew it, so that a sealed choice (PAP-4) or a
 * card only some seats saw is named to all. A seat keeps its own words for its own moves. The
 * moves are replayed on a copy of the run's start, since each is told at the position before it. */
static void log_reveal(table *t) {
  pf_run r;
  pf_error err;
  if (pf_run_start(&r, t->g, &t->run.setup, &err) != 0) return; /* the log stays as it was told */
  int first = t->run.nmoves > LOG_KEEP ? t->run.nmoves - LOG_KEEP : 0;
  for (int k = 0; k < t->run.nmoves; k++) {
    const char *text = t->run.moves[k];
    log_entry *e = &t->log[k % LOG_KEEP];
    if (k >= first && e->ply == k) {
      pf_buf b = {0};
      describe_shown(t->g, r.state, text, &b, NULL);
      for (int v = 0; b.len && v <= t->players; v++)
        if (v != e->seat) log_set(e, v, &b);
      if (b.len) e->whole = (1u << (t->players + 1)) - 1;
      pf_buf_free(&b);
    }
    if (pf_run_play_text(&r, text, &err) != 0) break;
  }
  pf_run_free(&r);
}

/* Plays a move given as text (a chance outcome starts with '*') at the table's position, noting
 * what each viewer is told when `logged`. Refuses an illegal one, saying why, changing nothing. */
static int play_text(table *t, const char *text, bool logged, pf_error *err) {
  int who = t->g->to_move(t->run.state);
  if (who == PF_NOBODY) return pf_fail(err, "the game is over");
  if (who == PF_CHANCE || text[0] == '*') {
    if (logged && who == PF_CHANCE) log_move(t, -1, NULL, text);
    if (pf_run_play_text(&t->run, text, err) != 0) return -1;
    for (int s = 0; s < PF_MAX_PLAYERS; s++) t->group_since[s] = -1; /* chance may change anyone's moves */
    return 0;
  }
  pf_move m;
  if (t->g->move_parse(t->run.state, text, &m, err) != 0) return -1;
  if (logged) log_move(t, who, &m, NULL);
  pf_run_play(&t->run, m);
  t->group_since[who] = -1; /* a seat that moved is asked anew, even if it is to move again */
  return 0;
}

int parse_kind(const char *k) {
  for (int i = 0; i < 3; i++)
    if (strcmp(k, SEAT_KIND[i]) == 0) return i;
  return SEAT_OPEN;
}


/* Builds a table in memory from what the store holds: its record replayed. */
int table_from_store(void *ctx, const pf_store_loaded *l) {
  pf_hall *h = ctx;
  pf_error err;
  const pf_game *g = pf_game_find(l->table.game);
  table *t = table_new(g, l->table.players);
  t->id = l->table.id;
  t->created = l->table.created;
  t->takeover_after = l->table.takeover_after;
  t->spectator_chat = l->table.spectator_chat;
  t->rematch = l->table.rematch;
  t->clock_s = l->table.clock_s;
  t->clock_loss = l->table.clock_loss;
  t->lost_on_time = l->table.lost_on_time;
  for (int s = 0; s < t->players && s < 12; s++)
    t->clock_ms[s] = l->clock_ms[s] >= 0 ? l->clock_ms[s] : (int64_t)t->clock_s * 1000;
  pf_snprintf(t->takeover_bot, sizeof t->takeover_bot, "%s", l->table.takeover_bot ? l->table.takeover_bot : "");
  t->status = strcmp(l->table.status, "over") == 0 ? ST_OVER : strcmp(l->table.status, "playing") == 0 ? ST_PLAYING
                                                                                                      : ST_WAITING;
  json_error_t jerr;
  json_t *opts = json_loads(l->table.options, 0, &jerr);
  pf_setup setup = {.players = t->players, .seed = l->table.seed};
  if (!g || !opts || pf_record_options_read(opts, g, &setup.options, &err) != 0 ||
      pf_run_start(&t->run, g, &setup, &err) != 0) {
    pf_log("restore", "table %" PRId64 " (%s) cannot be restored: %s", t->id, l->table.game,
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
    pf_snprintf(st->bot, sizeof st->bot, "%s", s->bot ? s->bot : "");
    pf_snprintf(st->token, sizeof st->token, "%s", s->token ? s->token : "");
    pf_snprintf(st->name, sizeof st->name, "%s", s->name && st->kind == SEAT_HUMAN ? s->name : "");
  }
  for (int k = 0; k < l->nmoves; k++)
    if (play_text(t, l->moves[k], k >= l->nmoves - LOG_KEEP, &err) != 0) {
      pf_log("restore", "table %" PRId64 ": move %d (\"%s\") does not replay: %s", t->id, k + 1,
              l->moves[k], err.msg);
      table_free(t);
      return 0;
    }
  for (int i = 0; i < l->nsealed; i++) {
    int s = l->sealed[i].seat;
    if (s < 0 || s >= t->players || l->sealed[i].ply > t->run.nmoves) continue;
    t->seats[s].has_sealed = true;
    pf_snprintf(t->seats[s].sealed, sizeof t->seats[s].sealed, "%s", l->sealed[i].move);
  }
  if (t->status == ST_OVER) log_reveal(t);
  t->since = pf_clock_seconds();
  note_group(t);
  table_free(table_in_memory(h, t->id));
  if (table_in_memory(h, t->id)) h->ntables--;
  table_put(h, t);
  return 0;
}


/* The table with this id, from memory or else from the store; NULL if there is none. */
table *table_get(pf_hall *h, int64_t id) {
  table *t = table_in_memory(h, id);
  if (t || id <= 0) return t;
  pf_error err;
  if (pf_store_load(h->store, id, table_from_store, h, &err) < 0)
    pf_log("error", "%s", err.msg);
  t = table_in_memory(h, id);
  if (t) note_idle(h, t);
  return t;
}

/* After a failed write: the table in memory may hold what the store does not; bring it back as
 * stored. Its watchers stay, but for those bound to a seat that is no longer a player's (a join
 * undone), and so do its jobs' marks. */
void table_reload(pf_hall *h, table *t) {
  watcher *w = t->watch;
  int nw = t->nwatch;
  bool bot_busy = t->bot_busy, hint_busy = t->hint_busy;
  t->watch = NULL, t->nwatch = 0;
  int64_t id = t->id;
  table_remove(h, t);
  table *back = table_get(h, id);
  for (int i = 0; i < nw; i++)
    if (!back || (w[i].seat >= 0 && back->seats[w[i].seat].kind != SEAT_HUMAN)) {
      pf_conn *c = w[i].conn;
      w[i--] = w[--nw];
      unbind_conn(h, id, c, -2);
    }
  if (back) {
    free(back->watch);
    back->watch = w, back->nwatch = nw, back->capwatch = nw;
    back->bot_busy = bot_busy, back->hint_busy = hint_busy;
  } else {
    free(w);
  }
}

/* Notes a table to unload once its game is over and nobody is at it: a finished game lives in
 * the store and comes back on demand (table_get). Unloading waits for sweep_idle, at the end of
 * each call into the hall, so that no function is left holding a freed table. */
void note_idle(pf_hall *h, const table *t) {
  if (t->status != ST_OVER) return;
  if (h->nidle == h->capidle) {
    h->capidle = h->capidle ? 2 * h->capidle : 16;
    h->idle = pf_xrealloc(h->idle, (size_t)h->capidle * sizeof *h->idle);
  }
  h->idle[h->nidle++] = t->id;
}

void sweep_idle(pf_hall *h) {
  for (int i = 0; i < h->nidle; i++) {
    table *t = table_in_memory(h, h->idle[i]);
    if (!t || t->status != ST_OVER || t->nwatch || t->bot_busy || t->hint_busy) continue;
    table_remove(h, t);
  }
  h->nidle = 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Who is asked                                                                               */
/* ------------------------------------------------------------------------------------------ */

/* The seats asked now (game.h: choosing); 0 when the table is not being played. */
int asked(const table *t, int *seats) {
  if (t->status != ST_PLAYING) return 0;
  return pf_choosing(t->g, t->run.state, seats);
}

/* Whether seat s is among the asked and may still answer; its index in the group in *at. */
bool may_answer(const table *t, int s, int *at) {
  int seats[PF_MAX_PLAYERS], n = asked(t, seats);
  for (int i = 0; i < n; i++)
    if (seats[i] == s) {
      *at = i;
      return !t->seats[s].has_sealed;
    }
  return false;
}

/* Notes, after a change, since when each seat has been asked with the same legal moves: since it
 * joined the choosing group it is in, and not before its own last move (play_text forgets it
 * then), nor a chance event. A move it sends for any ply since then is not stale, since its
 * legal moves have not changed (game.h: choosing), even though the seats before it moved on. */
void note_group(table *t) {
  int seats[PF_MAX_PLAYERS], n = asked(t, seats);
  bool in[PF_MAX_PLAYERS] = {0};
  for (int i = 0; i < n; i++) in[seats[i]] = true;
  double now = pf_clock_seconds();
  for (int s = 0; s < t->players; s++)
    if (!in[s] || t->seats[s].has_sealed)
      t->group_since[s] = -1, t->asked_at[s] = 0;
    else if (t->group_since[s] < 0)
      t->group_since[s] = t->run.nmoves, t->asked_at[s] = now; /* its clock runs from here */
}

int64_t clock_left(const table *t, int s, double now) {
  if (!t->clock_s || t->seats[s].kind != SEAT_HUMAN) return -1;
  int64_t left = t->clock_ms[s];
  if (t->status == ST_PLAYING && t->asked_at[s] > 0) left -= (int64_t)((now - t->asked_at[s]) * 1000);
  return left > 0 ? left : 0;
}

/* Whether a move of seat s sent at `ply` was sent for the position it would be played in. */
bool current_for(const table *t, int s, json_int_t ply) {
  return ply == t->run.nmoves || (t->group_since[s] >= 0 && ply >= t->group_since[s] && ply < t->run.nmoves);
}

/* A state in which seat seats[at] of the choosing group is to move: the seats before it play
 * their first legal move. The seat's view and legal moves there do not depend on what they play
 * (game.h: choosing), and nothing of the real choices is in it: bots may search from it. */
static void *state_for(const table *t, int at, void *scratch) {
  memcpy(scratch, t->run.state, t->g->state_size);
  for (int j = 0; j < at; j++) {
    pf_move moves[PF_MAX_MOVES];
    t->g->legal(scratch, moves);
    t->g->apply(scratch, moves[0]);
  }
  return scratch;
}

bool is_bot_seat(const table *t, int s) { return t->seats[s].kind == SEAT_BOT || t->seats[s].taken_over; }

/* ------------------------------------------------------------------------------------------ */
/* What each connection is sent                                                               */
/* ------------------------------------------------------------------------------------------ */

static bool seat_connected(const table *t, int s) {
  for (int i = 0; i < t->nwatch; i++)
    if (t->watch[i].seat == s) return true;
  return false;
}

/* The seats as text: every state sends them, so they are written directly (seats_json reads
 * them back for the summaries, which are few). */
static int seats_write(const table *t, pf_buf *out) {
  pf_jw w = {.b = out};
  pf_jw_open(&w, '[');
  for (int s = 0; s < t->players; s++) {
    const chair *st = &t->seats[s];
    pf_jw_open(&w, '{');
    pf_jw_key(&w, "seat");
    pf_jw_int(&w, s);
    pf_jw_key(&w, "kind");
    pf_jw_str(&w, SEAT_KIND[st->kind]);
    if (st->kind == SEAT_BOT) {
      pf_jw_key(&w, "bot");
      pf_jw_str(&w, st->bot);
    }
    if (st->kind == SEAT_HUMAN) {
      pf_jw_key(&w, "connected");
      pf_jw_bool(&w, seat_connected(t, s));
      if (st->name[0]) {
        pf_jw_key(&w, "name");
        pf_jw_str(&w, st->name);
      }
      if (t->clock_s) {
        pf_jw_key(&w, "clock_ms");
        pf_jw_int(&w, clock_left(t, s, pf_clock_seconds()));
        pf_jw_key(&w, "clock_running");
        pf_jw_bool(&w, t->status == ST_PLAYING && t->asked_at[s] > 0);
      }
      if (st->taken_over) {
        pf_jw_key(&w, "bot");
        pf_jw_str(&w, t->takeover_bot);
      }
    }
    pf_jw_close(&w, '}');
  }
  pf_jw_close(&w, ']');
  return w.rc;
}

static json_t *seats_json(const table *t) {
  pf_buf text = {0};
  json_t *a = seats_write(t, &text) == 0 ? json_loadb(text.data, text.len, 0, NULL) : NULL;
  pf_buf_free(&text);
  return a ? a : json_array(); /* a name that is not UTF-8 (it is cleaned when taken: never) */
}

json_t *summary_json(const table *t) {
  json_t *o = json_pack("{s:I, s:s, s:s, s:i, s:o, s:s, s:i, s:o, s:o}", "table", (json_int_t)t->id, "game",
                        t->g->id, "title", t->g->title, "players", t->players, "options",
                        pf_record_options_json(t->g, &t->run.setup.options), "status", STATUS[t->status], "ply",
                        t->run.nmoves, "to_move",
                        t->status == ST_PLAYING ? pf_to_move_json(t->g->to_move(t->run.state)) : json_null(),
                        "seats", seats_json(t));
  if (t->takeover_after)
    json_object_set_new(o, "takeover", json_pack("{s:i, s:s}", "after", t->takeover_after, "bot", t->takeover_bot));
  if (t->spectator_chat) json_object_set_new(o, "spectator_chat", json_true());
  if (t->clock_s)
    json_object_set_new(o, "clock", json_pack("{s:i, s:s}", "seconds", t->clock_s, "on_time", t->clock_loss ? "loss" : "bot"));
  if (t->lost_on_time >= 0) json_object_set_new(o, "lost_on_time", json_integer(t->lost_on_time));
  return o;
}

static json_t *result_json(const table *t) {
  int scores[PF_MAX_PLAYERS], winners[PF_MAX_PLAYERS];
  t->g->scores(t->run.state, scores);
  if (t->lost_on_time >= 0) { /* the game stopped there: everyone else wins (docs/protocol.md, "create") */
    int nw = 0;
    for (int s = 0; s < t->players; s++)
      if (s != t->lost_on_time) winners[nw++] = s;
    return json_pack("{s:o, s:o, s:i}", "scores", pf_ints_json(scores, t->players), "winners", pf_ints_json(winners, nw),
                     "lost_on_time", t->lost_on_time);
  }
  int nw = t->g->winners(t->run.state, winners);
  return json_pack("{s:o, s:o}", "scores", pf_ints_json(scores, t->players), "winners", pf_ints_json(winners, nw));
}

/* Appends a string literal (its length known at compile time). */
#define PUT_LITERAL(b, lit) pf_buf_append((b), lit, sizeof lit - 1)

static void write_ints(pf_buf *b, const int *v, int n) {
  pf_buf_putc(b, '[');
  for (int i = 0; i < n; i++) {
    if (i) pf_buf_putc(b, ',');
    pf_json_write_int(b, v[i]);
  }
  pf_buf_putc(b, ']');
}

static int write_cstr(pf_buf *b, const char *s) { return pf_json_write_string(b, s, strlen(s)); }

/* The canonical strings of the legal moves of the seat to move at st, comma-separated. */
static int write_legal(pf_buf *b, const pf_game *g, const void *st) {
  pf_move moves[PF_MAX_MOVES];
  int n = g->to_move(st) >= 0 ? g->legal(st, moves) : 0, rc = 0;
  for (int i = 0; i < n; i++) {
    char m[PF_MOVE_STR];
    g->move_str(st, moves[i], m);
    if (i) pf_buf_putc(b, ',');
    rc |= write_cstr(b, m);
  }
  return rc;
}

/* A log entry's "from", "to" and "card" (docs/protocol.md), for a viewer slot told them. */
static int write_zones(pf_buf *out, const table *t, const log_entry *e, int slot) {
  int rc = 0;
  if (!(e->whole >> slot & 1u)) return 0;
  if (e->zones.from[0]) PUT_LITERAL(out, ",\"from\":"), rc |= write_cstr(out, e->zones.from);
  if (e->zones.to[0]) PUT_LITERAL(out, ",\"to\":"), rc |= write_cstr(out, e->zones.to);
  if (e->zones.card != PF_CARD_NONE) {
    char c[PF_CARD_STR];
    PUT_LITERAL(out, ",\"card\":");
    rc |= write_cstr(out, pf_card_str_in(t->g->cards, e->zones.card, c));
  }
  return rc;
}

/* The state message for one viewer, seat s or -1 for a spectator (docs/protocol.md), appended
 * to out as text; -1 when it cannot be written (out is then partial). Written as it goes, not
 * built as a json_t first: every change sends one to each viewer kind, and building and
 * dumping them was most of the server's work. */
int state_text(const table *t, int s, pf_buf *out) {
  int viewer = s < 0 ? PF_VIEW_PUBLIC : s, rc = 0;
  PUT_LITERAL(out, "{\"type\":\"state\",\"table\":");
  pf_json_write_int(out, t->id);
  PUT_LITERAL(out, ",\"seat\":");
  if (s < 0)
    PUT_LITERAL(out, "null");
  else
    pf_json_write_int(out, s);
  PUT_LITERAL(out, ",\"status\":\"");
  pf_buf_puts(out, STATUS[t->status]);
  PUT_LITERAL(out, "\",\"ply\":");
  pf_json_write_int(out, t->run.nmoves);
  int group[PF_MAX_PLAYERS], n = asked(t, group);
  PUT_LITERAL(out, ",\"to_move\":");
  pf_jw w = {.b = out};
  pf_to_move_write(&w, t->status == ST_PLAYING ? t->g->to_move(t->run.state) : PF_NOBODY);
  PUT_LITERAL(out, ",\"choosing\":");
  write_ints(out, group, n);
  /* The legal moves of this seat, if it may answer now (from the group's stand-in state when it
   * is not first). */
  void *scratch = NULL; /* the stand-in state: its own, as states are built on several threads */
  const void *stand_in = NULL;
  int at;
  PUT_LITERAL(out, ",\"legal\":[");
  if (s >= 0 && may_answer(t, s, &at)) {
    if (at > 0) scratch = pf_xmalloc(t->g->state_size), stand_in = state_for(t, at, scratch);
    rc |= write_legal(out, t->g, at > 0 ? stand_in : t->run.state);
  }
  PUT_LITERAL(out, "],\"sealed\":[");
  for (int i = 0, k = 0; i < n; i++)
    if (t->seats[group[i]].has_sealed) {
      if (k++) pf_buf_putc(out, ',');
      pf_json_write_int(out, group[i]);
    }
  PUT_LITERAL(out, "],\"mine\":");
  if (s >= 0 && t->seats[s].has_sealed)
    rc |= write_cstr(out, t->seats[s].sealed);
  else
    PUT_LITERAL(out, "null");
  /* A waiting table shows its seats only: its deal is not to be seen before everyone sits. */
  PUT_LITERAL(out, ",\"view\":");
  size_t moves_at = 0, moves_end = 0; /* the view's "moves", in out */
  if (t->status != ST_WAITING) {
    rc |= pf_view_write(out, t->g, t->run.state, t->players, viewer, &moves_at);
    moves_end = out->len - 1; /* the view's closing brace */
    pf_buf text = {0};
    pf_style plain = {0};
    t->g->view_text(t->run.state, viewer, &plain, &text);
    PUT_LITERAL(out, ",\"text\":");
    rc |= pf_json_write_string(out, pf_buf_str(&text), text.len);
    pf_buf_free(&text);
  } else {
    PUT_LITERAL(out, "null");
  }
  /* A seat choosing after another (sealed choices) is not to move in the table's state, so its
   * view lists no moves: they come from the stand-in state. Otherwise they are the view's. */
  PUT_LITERAL(out, ",\"moves\":");
  if (stand_in) {
    rc |= pf_moves_write(out, t->g, stand_in, s);
  } else if (moves_at && moves_end > moves_at) {
    size_t len = moves_end - moves_at;
    pf_buf_reserve(out, len);
    memcpy(out->data + out->len, out->data + moves_at, len);
    out->len += len;
    out->data[out->len] = '\0';
  } else {
    PUT_LITERAL(out, "[]");
  }
  PUT_LITERAL(out, ",\"log\":[");
  int first = t->run.nmoves > LOG_KEEP ? t->run.nmoves - LOG_KEEP : 0;
  bool any = false;
  for (int k = first; k < t->run.nmoves; k++) {
    const log_entry *e = &t->log[k % LOG_KEEP];
    int slot = viewer_slot(t, s);
    const char *text = e->ply == k ? e->texts[slot] : NULL;
    if (!text) continue;
    if (any) pf_buf_putc(out, ',');
    PUT_LITERAL(out, "{\"ply\":");
    any = true;
    pf_json_write_int(out, k);
    PUT_LITERAL(out, ",\"seat\":");
    if (e->seat < 0)
      PUT_LITERAL(out, "null");
    else
      pf_json_write_int(out, e->seat);
    PUT_LITERAL(out, ",\"text\":");
    pf_buf_append(out, text, e->lens[slot]);
    rc |= write_zones(out, t, e, slot);
    /* The move's own string only to the seat that played it, or to everyone once it is over. */
    if ((e->seat >= 0 && e->seat == s) || t->status == ST_OVER) {
      PUT_LITERAL(out, ",\"move\":");
      rc |= write_cstr(out, t->run.moves[k]);
    }
    pf_buf_putc(out, '}');
  }
  PUT_LITERAL(out, "],\"seats\":");
  rc |= seats_write(t, out);
  if (t->status == ST_OVER) {
    PUT_LITERAL(out, ",\"result\":");
    rc |= pf_json_write_new(out, result_json(t));
    pf_buf_printf(out, ",\"record\":\"/api/tables/%" PRId64 "/record\"", t->id);
  }
  pf_buf_putc(out, '}');
  free(scratch);
  return rc ? -1 : 0;
}

/* Builds the state of each viewer kind at t (table_states). It reads the table only, so that
 * pf_hall_flush builds the states of the tables of a pass on several threads at once. */
void states_build(const table *t, table_states *ts) {
  for (int i = 0; i < t->nwatch; i++) {
    int slot = viewer_slot(t, t->watch[i].seat);
    if (ts->text[slot].len || ts->failed[slot]) continue;
    pf_buf_reserve(&ts->text[slot], 8192); /* a state's size: no reallocation on the way */
    pf_json_arena_begin(); /* what jansson values it makes (a result): no malloc and free for each */
    ts->failed[slot] = state_text(t, t->watch[i].seat, &ts->text[slot]) != 0;
    pf_json_arena_end();
  }
}

/* Sends every connection at t its state from ts (one that cannot be built: nothing rather than a
 * crash), and frees ts's texts. */
void states_send(pf_hall *h, const table *t, table_states *ts) {
  for (int i = 0; i < t->nwatch; i++) {
    int slot = viewer_slot(t, t->watch[i].seat);
    if (ts->text[slot].len && !ts->failed[slot])
      hall_send_text(h, t->watch[i].conn, ts->text[slot].data, ts->text[slot].len, false);
  }
  for (int v = 0; v <= PF_MAX_PLAYERS; v++) pf_buf_free(&ts->text[v]);
}

/* Sends every connection at the table its own state (one text per viewer kind, built once). */
void broadcast(pf_hall *h, table *t) {
  table_states ts = {0};
  h->lobby_dirty = true; /* a seat (dis)connected: the lists show it */
  note_group(t);
  states_build(t, &ts);
  states_send(h, t, &ts);
}

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
int advance(pf_hall *h, table *t, pf_error *err) {
  while (t->status == ST_PLAYING) {
    int who = t->g->to_move(t->run.state);
    if (who == PF_NOBODY) {
      t->status = ST_OVER;
      log_reveal(t);
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
      pf_log("error", "table %" PRId64 ": seat %d's sealed \"%s\" is refused: %s", t->id, who,
              st->sealed, perr.msg);
      continue;
    }
    if (pf_store_add_move(h->store, t->id, t->run.nmoves - 1, t->run.moves[t->run.nmoves - 1], err) != 0) return -1;
  }
  return 0;
}


/* Seat s is out of time on a table whose clock loses (inside a change): the game stops there, over,
 * everyone else winning (result_json). Its record is the moves played: no engine result. */
int lose_on_time(pf_hall *h, table *t, int s, pf_error *err) {
  t->status = ST_OVER;
  t->lost_on_time = s;
  t->clock_ms[s] = 0;
  log_reveal(t);
  json_t *sum = summary_json(t);
  char *text = json_dumps(sum, JSON_COMPACT | JSON_PRESERVE_ORDER);
  json_decref(sum);
  int rc = pf_store_set_clock(h->store, t->id, s, 0, err);
  if (rc == 0) rc = pf_store_set_lost(h->store, t->id, s, err);
  if (rc == 0) rc = pf_store_set_status(h->store, t->id, "over", text, err);
  free(text);
  return rc;
}

/* Opens a change: a savepoint in the pass's transaction (begun here if need be). */
int change_begin(pf_hall *h, pf_error *err) {
  if (!pf_store_in_transaction(h->store) && pf_store_begin(h->store, err) != 0) return -1;
  return pf_store_change(h->store, err);
}

static void mark_dirty(pf_hall *h, table *t) {
  if (t->dirty) return;
  t->dirty = true;
  h->lobby_dirty = true;
  if (h->ndirty == h->capdirty) {
    h->capdirty = h->capdirty ? 2 * h->capdirty : 64;
    h->dirty = pf_xrealloc(h->dirty, (size_t)h->capdirty * sizeof *h->dirty);
  }
  h->dirty[h->ndirty++] = t->id;
}

/* Keeps a change of table t: it is told at pf_hall_flush, once committed. */
void change_keep(pf_hall *h, table *t) {
  pf_error err;
  if (pf_store_change_end(h->store, true, &err) != 0) {
    change_undo(h, t);
    return;
  }
  note_group(t);
  mark_dirty(h, t);
}

/* Undoes a change that failed before its end: the store as it was, the table as stored. */
void change_undo(pf_hall *h, table *t) {
  pf_error err;
  if (pf_store_change_end(h->store, false, &err) != 0) pf_store_rollback(h->store); /* the whole pass goes */
  if (t) table_reload(h, t);
}

/* A move of seat s (already checked to be asked and entitled): played now if it is first of its
 * group, sealed otherwise, as one change (kept). `canon` gets its canonical string. Returns 0, or
 * -1 with err set, *code the protocol's error code, and the table as stored (t may be freed). */
int seat_move(pf_hall *h, table *t, int s, const char *text, char canon[PF_MOVE_STR], bool *sealed,
                     const char **code, pf_error *err) {
  int at;
  *code = "not_your_turn";
  if (!may_answer(t, s, &at)) {
    return t->seats[s].has_sealed ? pf_fail(err, "seat %d has already chosen", s)
                                  : pf_fail(err, "seat %d is not asked now", s);
  }
  void *st = at == 0 ? t->run.state : state_for(t, at, h->scratch);
  pf_move m;
  *code = "illegal_move";
  if (t->g->move_parse(st, text, &m, err) != 0) return -1;
  t->g->move_str(st, m, canon);
  *code = "storage";
  *sealed = at > 0;
  int64_t left = clock_left(t, s, pf_clock_seconds()); /* its clock stops at its move */
  if (change_begin(h, err) != 0) return -1;
  int rc;
  if (at > 0) {
    rc = pf_store_add_sealed(h->store, t->id, s, t->run.nmoves, canon, err);
    if (rc == 0) {
      t->seats[s].has_sealed = true;
      pf_snprintf(t->seats[s].sealed, sizeof t->seats[s].sealed, "%s", canon);
    }
  } else {
    rc = play_and_store(h, t, canon, err);
  }
  if (rc == 0 && t->seats[s].taken_over) { /* a player back at the table takes the seat again */
    t->seats[s].taken_over = false;
    pf_store_seat ss = {s, "human", NULL, t->seats[s].token, false, t->seats[s].name};
    rc = pf_store_set_seat(h->store, t->id, &ss, err);
  }
  if (rc == 0 && left >= 0 && (rc = pf_store_set_clock(h->store, t->id, s, left, err)) == 0) t->clock_ms[s] = left;
  if (rc == 0) rc = advance(h, t, err);
  if (rc != 0) {
    change_undo(h, t);
    return -1;
  }
  change_keep(h, t);
  return 0;
}

/* Starts a table whose seats are all filled: plays what needs nobody and lets the bots play
 * (inside the caller's change). */
int start_if_full(pf_hall *h, table *t, pf_error *err) {
  for (int s = 0; s < t->players; s++)
    if (t->seats[s].kind == SEAT_OPEN) return 0;
  t->status = ST_PLAYING;
  if (pf_store_set_status(h->store, t->id, "playing", NULL, err) != 0) return -1;
  return advance(h, t, err);
}

/* ------------------------------------------------------------------------------------------ */
/* Bots                                                                                       */
/* ------------------------------------------------------------------------------------------ */

/* On a worker thread: the bot chooses on its own copy of the state. */
void run_bot(pf_work *w) {
  bot_job *j = (bot_job *)w;
  pf_bot bot;
  if (j->cancelled) return;
  if (pf_bot_init(&bot, j->spec, j->players, j->seed, j->seat, &j->err) != 0) {
    j->failed = true;
    return;
  }
  for (int i = 0; i < bot.kind->nsettings; i++) { /* no search runs longer, or on more threads, than allowed */
    if (strcmp(bot.kind->settings[i].name, "time") == 0 && (bot.set[i] == 0 || bot.set[i] > j->max_ms))
      bot.set[i] = j->max_ms;
    if (strcmp(bot.kind->settings[i].name, "threads") == 0 && bot.set[i] > j->max_threads)
      bot.set[i] = j->max_threads;
    if (strcmp(bot.kind->settings[i].name, "clock") == 0) bot.set[i] = 0; /* the cap is wall-clock time */
  }
  pf_move m = pf_bot_choose(&bot, j->g, j->state);
  j->g->move_str(j->state, m, j->move);
  if (j->hint) {
    pf_style plain = {0};
    pf_describe(j->g, j->state, m, j->seat, &plain, &j->text);
  }
  pf_bot_free(&bot);
}

int check_bot(const pf_hall *h, const char *spec, const char **code, pf_error *err) {
  *code = "bad_seat_spec";
  if (strlen(spec) >= PF_BOT_SPEC) return pf_fail(err, "a bot spec has at most %d characters", PF_BOT_SPEC - 1);
  pf_bot bot;
  if (pf_bot_init(&bot, spec, 2, 0, 0, err) != 0) return -1;
  int rc = 0;
  for (int i = 0; i < bot.kind->nsettings && rc == 0; i++) {
    const char *name = bot.kind->settings[i].name;
    *code = "budget";
    if (strcmp(name, "iters") == 0 && bot.set[i] > h->lim.search_iters)
      rc = pf_fail(err, "\"%s\" asks %lld iterations; this server allows at most %d", spec, (long long)bot.set[i],
                   h->lim.search_iters);
    else if (strcmp(name, "time") == 0 && bot.set[i] > h->lim.search_ms)
      rc = pf_fail(err, "\"%s\" asks %lld ms; this server allows at most %d", spec, (long long)bot.set[i],
                   h->lim.search_ms);
  }
  pf_bot_free(&bot);
  return rc;
}

void job_free(bot_job *j) {
  free(j->state);
  json_decref(j->req_id);
  pf_buf_free(&j->text);
  free(j);
}

bot_job *job_new(pf_hall *h, const table *t, int seat, int at, const char *spec) {
  bot_job *j = pf_xcalloc(1, sizeof *j);
  j->table = t->id;
  j->ply = t->run.nmoves;
  j->seat = seat;
  j->g = t->g;
  j->players = t->players;
  j->state = pf_xmalloc(t->g->state_size);
  memcpy(j->state, at == 0 ? t->run.state : state_for(t, at, h->scratch), t->g->state_size);
  pf_snprintf(j->spec, sizeof j->spec, "%s", spec);
  j->max_ms = h->lim.search_ms;
  j->max_threads = pf_workers_threads(h->workers) > 1 ? pf_workers_threads(h->workers) : 1;
  j->seed = os_random64();
  return j;
}

/* Gives the seat to move to its bot when a bot plays it (one job per table at a time). */
void schedule_bot(pf_hall *h, table *t) {
  if (t->status != ST_PLAYING || t->bot_busy) return;
  int who = t->g->to_move(t->run.state);
  if (who < 0 || !is_bot_seat(t, who)) return;
  const char *spec = t->seats[who].kind == SEAT_BOT ? t->seats[who].bot : t->takeover_bot;
  t->bot_busy = true;
  pf_workers_submit(h->workers, &job_new(h, t, who, 0, spec)->work);
}

/* A bot's finished choice for a table: played if the table is still where it was. */
void bot_played(pf_hall *h, bot_job *j) {
  table *t = table_in_memory(h, j->table);
  if (!t) return;
  t->bot_busy = false;
  pf_error err;
  if (j->cancelled) return;
  if (j->failed) {
    pf_log("bot", "table %" PRId64 ": bot \"%s\": %s", t->id, j->spec, j->err.msg);
    return;
  }
  if (t->status == ST_PLAYING && t->run.nmoves == j->ply && t->g->to_move(t->run.state) == j->seat &&
      is_bot_seat(t, j->seat)) {
    if (change_begin(h, &err) != 0 || play_and_store(h, t, j->move, &err) != 0 || advance(h, t, &err) != 0) {
      pf_log("bot", "table %" PRId64 ": bot move \"%s\": %s", t->id, j->move, err.msg);
      change_undo(h, t);
      return;
    }
    change_keep(h, t);
    return;
  }
  schedule_bot(h, t); /* the table moved on meanwhile (a takeover ended): ask again if need be */
}


/* ------------------------------------------------------------------------------------------ */
/* Lists                                                                                      */
/* ------------------------------------------------------------------------------------------ */

void add_summary(void *ctx, const char *text) {
  json_t *o = json_loads(text ? text : "", 0, NULL);
  if (json_is_object(o)) json_array_append(ctx, o);
  json_decref(o);
}

/* The summaries of a list: every unfinished table in memory (newest first), then the newest
 * finished ones, LIST_MAX in all. */
json_t *tables_json(pf_hall *h) {
  json_t *a = json_array();
  for (int64_t id = h->cap - 1; id > 0 && json_array_size(a) < LIST_MAX; id--)
    if (h->tables[id] && h->tables[id]->status != ST_OVER) json_array_append_new(a, summary_json(h->tables[id]));
  pf_error err;
  if (pf_store_finished(h->store, LIST_MAX - (int)json_array_size(a), add_summary, a, &err) < 0)
    pf_log("error", "%s", err.msg);
  return a;
}

