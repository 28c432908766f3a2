/*
 * table.c - a table in memory (table.h): tokens, its log as each viewer is told it, and playing
 * a move on its run (the one path every move takes, live or replayed).
 */
#include "server/table.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "core/jsontext.h"

const char *const pf_table_seat_kind[] = {"open", "human", "bot"};
const char *const pf_table_status[] = {"waiting", "playing", "over"};

/* ---- tokens and seat kinds ---- */

/* 128 bits from the operating system, as 32 hex digits. */
void pf_table_new_token(char out[33]) {
  unsigned char b[16];
  size_t got = 0;
  while (got < sizeof b) {
    ssize_t n = getrandom(b + got, sizeof b - got, 0);
    if (n < 0 && errno != EINTR) abort(); /* no randomness: no secrets, no server */
    if (n > 0) got += (size_t)n;
  }
  for (int i = 0; i < 16; i++) pf_snprintf(out + 2 * i, 3, "%02x", b[i]);
}

uint64_t pf_table_random64(void) {
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
bool pf_table_token_equal(const char *a, const char *b) {
  unsigned diff = 0;
  for (int i = 0; i < 32; i++) diff |= (unsigned)(a[i] ^ b[i]);
  return diff == 0 && a[32] == 0 && b[32] == 0;
}

int pf_table_parse_status(const char *st) {
  for (int i = 0; i < 3; i++)
    if (strcmp(st, pf_table_status[i]) == 0) return i;
  return ST_WAITING;
}

int pf_table_parse_kind(const char *k) {
  for (int i = 0; i < 3; i++)
    if (strcmp(k, pf_table_seat_kind[i]) == 0) return i;
  return SEAT_OPEN;
}

/* ---- a table and its log ---- */

static void log_free(log_entry *e) {
  for (int v = 0; v <= PF_MAX_PLAYERS; v++) free(e->texts[v]), e->texts[v] = NULL;
}

bool pf_table_has_bot(const table *t) {
  for (int s = 0; s < t->players; s++)
    if (t->seats[s].kind == SEAT_BOT) return true;
  return false;
}

void pf_table_charge(table *t) {
  if (!t->creator) return;
  bool waiting = t->status == ST_WAITING, bots = t->status == ST_PLAYING && pf_table_has_bot(t);
  if (waiting != t->held_waiting) pf_client_hold(t->creator, PF_HOLD_WAITING, waiting ? 1 : -1);
  if (bots != t->held_bots) pf_client_hold(t->creator, PF_HOLD_BOT_TABLES, bots ? 1 : -1);
  t->held_waiting = waiting, t->held_bots = bots;
  if (!waiting && !bots) t->creator = NULL; /* it holds nothing: the pointer may go (client.h) */
}

void pf_table_free(table *t) {
  if (!t) return;
  if (t->creator) {
    t->status = ST_OVER; /* what a table gone holds: nothing */
    pf_table_charge(t);
  }
  for (int i = 0; i < LOG_KEEP; i++) log_free(&t->log[i]);
  pf_run_free(&t->run);
  free(t->watch);
  free(t);
}

table *pf_table_new(const pf_game *g, int players) {
  table *t = pf_xcalloc(1, sizeof *t);
  for (int s = 0; s < PF_MAX_PLAYERS; s++) t->group_since[s] = -1;
  t->lost_on_time = -1;
  t->g = g;
  t->players = players;
  return t;
}

/* The viewer index of a seat in a log entry's texts: seats are themselves, spectators last. */
int pf_table_viewer_slot(const table *t, int seat) { return seat < 0 ? t->players : seat; }
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
  const int mover = pf_table_viewer_slot(t, who);
  for (int v = 0; m && v <= t->players; v++)
    if (e->texts[v] && e->lens[v] == e->lens[mover] && memcmp(e->texts[v], e->texts[mover], e->lens[v]) == 0)
      e->whole |= 1u << v;
}

/* A recorded move (its text; a chance outcome's starts with '*') at st, in words with everything
 * shown, into b; a seat's move also gives its zones into z when z is given. Returns whether it was
 * a chance outcome. The review's log (play.c) and the log told again at the end use it. */
bool pf_table_describe_shown(const pf_game *g, const void *st, const char *text, pf_buf *b, pf_move_zones *z) {
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
void pf_table_log_reveal(table *t) {
  pf_run r;
  pf_error err;
  if (pf_run_start(&r, t->g, &t->run.setup, &err) != 0) return; /* the log stays as it was told */
  int first = t->run.nmoves > LOG_KEEP ? t->run.nmoves - LOG_KEEP : 0;
  for (int k = 0; k < t->run.nmoves; k++) {
    const char *text = t->run.moves[k];
    log_entry *e = &t->log[k % LOG_KEEP];
    if (k >= first && e->ply == k) {
      pf_buf b = {0};
      pf_table_describe_shown(t->g, r.state, text, &b, NULL);
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
int pf_table_play_text(table *t, const char *text, bool logged, pf_error *err) {
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
