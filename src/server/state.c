/*
 * state.c - what each viewer of a table is told (state.h): the seats, summaries, the state
 * message written as text, and the states of a table built once per viewer kind and sent.
 */
#include "server/state.h"
#include "server/lobbylist.h"
#include "server/log.h"
#include "server/outbox.h"
#include "server/tables.h"
#include "server/turn.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/jsontext.h"
#include "core/view.h"

/* ---- seats and summaries ---- */

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
    pf_jw_str(&w, pf_table_seat_kind[st->kind]);
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
        pf_jw_int(&w, pf_turn_clock_left(t, s, pf_clock_seconds()));
        pf_jw_key(&w, "clock_running");
        pf_jw_bool(&w, t->status == ST_PLAYING && t->asked_at[s] > 0);
      }
      if (st->taken_over) {
        pf_jw_key(&w, "bot");
        pf_jw_str(&w, t->takeover_bot);
      }
      /* Away: gone (no connection), or silent until the takeover bot played for them; never
       * once the game is over (docs/protocol.md, "here"). */
      if (t->status != ST_OVER && (st->taken_over || !seat_connected(t, s))) {
        pf_jw_key(&w, "away");
        pf_jw_bool(&w, true);
      }
      int64_t tk = pf_turn_takeover_ms(t, s, pf_clock_seconds());
      if (tk >= 0) {
        pf_jw_key(&w, "takeover_ms");
        pf_jw_int(&w, tk);
      }
    }
    pf_jw_close(&w, '}');
  }
  pf_jw_close(&w, ']');
  return w.rc;
}

void pf_state_summary_write(pf_jw *w, const table *t) {
  pf_jw_open(w, '{');
  pf_jw_key_int(w, "table", t->id);
  pf_jw_key_str(w, "game", t->g->id);
  pf_jw_key_str(w, "title", t->g->title);
  pf_jw_key_int(w, "players", t->players);
  pf_jw_key(w, "options");
  pf_record_options_write(w, t->g, &t->run.setup.options);
  pf_jw_key_str(w, "status", pf_table_status[t->status]);
  pf_jw_key_int(w, "ply", t->run.nmoves);
  pf_jw_key(w, "to_move");
  if (t->status == ST_PLAYING)
    pf_to_move_write(w, t->g->to_move(t->run.state));
  else
    pf_jw_null(w);
  pf_jw_key(w, "seats");
  size_t at = w->b->len;
  if (seats_write(t, w->b) != 0) { /* a name that is not UTF-8 (it is cleaned when taken: never) */
    w->b->len = at, w->b->data[at] = '\0';
    pf_buf_puts(w->b, "[]");
  }
  w->comma = true;
  if (t->takeover_after) {
    pf_jw_key(w, "takeover");
    pf_jw_open(w, '{');
    pf_jw_key_int(w, "after", t->takeover_after);
    pf_jw_key_str(w, "bot", t->takeover_bot);
    pf_jw_close(w, '}');
  }
  if (t->spectator_chat) {
    pf_jw_key(w, "spectator_chat");
    pf_jw_bool(w, true);
  }
  if (t->clock_s) {
    pf_jw_key(w, "clock");
    pf_jw_open(w, '{');
    pf_jw_key_int(w, "seconds", t->clock_s);
    pf_jw_key_str(w, "on_time", t->clock_loss ? "loss" : "bot");
    pf_jw_close(w, '}');
  }
  if (t->lost_on_time >= 0) pf_jw_key_int(w, "lost_on_time", t->lost_on_time);
  if (t->status == ST_PLAYING && t->abandoned) {
    pf_jw_key(w, "abandoned");
    pf_jw_bool(w, true);
  }
  pf_jw_close(w, '}');
}

char *pf_state_summary_text(const table *t) {
  pf_buf b = {0};
  pf_jw w = {.b = &b};
  pf_state_summary_write(&w, t);
  if (w.rc == 0) return b.data;
  pf_buf_free(&b);
  return NULL;
}

static void result_write(pf_jw *w, const table *t) {
  int scores[PF_MAX_PLAYERS], winners[PF_MAX_PLAYERS], nw = 0;
  t->g->scores(t->run.state, scores);
  if (t->lost_on_time >= 0) { /* the game stopped there: everyone else wins (docs/protocol.md, "create") */
    for (int s = 0; s < t->players; s++)
      if (s != t->lost_on_time) winners[nw++] = s;
  } else {
    nw = t->g->winners(t->run.state, winners);
  }
  pf_jw_open(w, '{');
  pf_jw_key(w, "scores");
  pf_jw_ints(w, scores, t->players);
  pf_jw_key(w, "winners");
  pf_jw_ints(w, winners, nw);
  if (t->lost_on_time >= 0) pf_jw_key_int(w, "lost_on_time", t->lost_on_time);
  pf_jw_close(w, '}');
}

/* ---- the state message ---- */

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
int pf_state_text(const table *t, int s, pf_buf *out) {
  int viewer = s < 0 ? PF_VIEW_PUBLIC : s, rc = 0;
  PUT_LITERAL(out, "{\"type\":\"state\",\"table\":");
  pf_json_write_int(out, t->id);
  PUT_LITERAL(out, ",\"seat\":");
  if (s < 0)
    PUT_LITERAL(out, "null");
  else
    pf_json_write_int(out, s);
  PUT_LITERAL(out, ",\"status\":\"");
  pf_buf_puts(out, pf_table_status[t->status]);
  PUT_LITERAL(out, "\",\"ply\":");
  pf_json_write_int(out, t->run.nmoves);
  int group[PF_MAX_PLAYERS], n = pf_turn_asked(t, group);
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
  if (s >= 0 && pf_turn_may_answer(t, s, &at)) {
    if (at > 0) scratch = pf_xmalloc(t->g->state_size), stand_in = pf_turn_state_for(t, at, scratch);
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
    int slot = pf_table_viewer_slot(t, s);
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
    pf_jw rw = {.b = out};
    result_write(&rw, t);
    pf_buf_printf(out, ",\"record\":\"/api/tables/%" PRId64 "/record\"", t->id);
  }
  pf_buf_putc(out, '}');
  free(scratch);
  return rc ? -1 : 0;
}

/* ---- telling a table ---- */

static void list_note(pf_lobbylist *l, const table *t);

/* Builds the state of each viewer kind at t (table_states). It reads the table only, so that
 * pf_hall_flush builds the states of the tables of a pass on several threads at once. */
void pf_state_build(const table *t, table_states *ts) {
  for (int i = 0; i < t->nwatch; i++) {
    int slot = pf_table_viewer_slot(t, t->watch[i].seat);
    if (ts->text[slot].len || ts->failed[slot]) continue;
    pf_buf_reserve(&ts->text[slot], 8192); /* a state's size: no reallocation on the way */
    ts->failed[slot] = pf_state_text(t, t->watch[i].seat, &ts->text[slot]) != 0;
  }
}

/* Sends every connection at t its state from ts (one that cannot be built: nothing rather than a
 * crash), and frees ts's texts. */
void pf_state_send(pf_hall *h, const table *t, table_states *ts) {
  for (int i = 0; i < t->nwatch; i++) {
    int slot = pf_table_viewer_slot(t, t->watch[i].seat);
    if (ts->text[slot].len && !ts->failed[slot])
      pf_outbox_send_text(h, t->watch[i].conn, ts->text[slot].data, ts->text[slot].len, false);
  }
  for (int v = 0; v <= PF_MAX_PLAYERS; v++) pf_buf_free(&ts->text[v]);
}

/* Sends every connection at the table its own state (one text per viewer kind, built once). */
void pf_state_broadcast(pf_hall *h, table *t) {
  table_states ts = {0};
  h->lobby_dirty = true; /* a seat (dis)connected: the lists show it */
  if (h->lobbylist) list_note(h->lobbylist, t);
  pf_turn_note_group(t);
  pf_state_build(t, &ts);
  pf_state_send(h, t, &ts);
}

/* ---- lists ---- */

bool pf_state_abandoned(const table *t, double now, int after) {
  if (t->status != ST_PLAYING || now - t->since < after) return false;
  for (int s = 0; s < t->players; s++)
    if (t->seats[s].kind == SEAT_HUMAN && seat_connected(t, s)) return false;
  return true;
}

static bool has_open_seat(const table *t) {
  for (int s = 0; s < t->players; s++)
    if (t->seats[s].kind == SEAT_OPEN) return true;
  return false;
}

static char *summary_text(const table *t) { return pf_state_summary_text(t); }

/* Table t changed: its entry in the list. A finished table's summary is written now (it stays
 * what it is); an unfinished one's when a page shows it (pf_state_list_text). */
static void list_note(pf_lobbylist *l, const table *t) {
  if (t->status != ST_OVER)
    pf_lobbylist_set_live(l, t->id, t->status, t->status == ST_WAITING && has_open_seat(t));
  else if (!pf_lobbylist_has_over(l, t->id))
    pf_lobbylist_set_over(l, t->id, summary_text(t));
}

/* A stored finished summary, read back with its table's id (pf_store_finished's callback). */
static void list_add_stored(void *ctx, const char *text) {
  json_t *o = json_loads(text ? text : "", 0, NULL);
  json_t *id = json_object_get(o, "table");
  if (json_is_object(o) && json_is_integer(id)) pf_lobbylist_set_over(ctx, json_integer_value(id), pf_jw_dumps(o, 0, false));
  json_decref(o);
}

/* The list built: the one time the store is read, every later change coming through list_note. */
static pf_lobbylist *list_build(pf_hall *h) {
  pf_lobbylist *l = h->lobbylist = pf_lobbylist_new();
  pf_error err;
  if (pf_store_finished(h->store, LIST_MAX, list_add_stored, l, &err) < 0) pf_log("error", "%s", err.msg);
  for (int64_t id = 1; id < h->cap; id++)
    if (h->tables[id]) list_note(l, h->tables[id]);
  return l;
}

pf_lobbylist *pf_state_list(pf_hall *h) {
  pf_lobbylist *l = h->lobbylist ? h->lobbylist : list_build(h);
  for (; l->noted < h->ndirty; l->noted++) { /* changed in this pass, not yet told */
    int64_t id = h->dirty[l->noted];
    table *t = pf_tables_in_memory(h, id);
    if (t) list_note(l, t);
  }
  for (int i = l->nlive - 1; i >= 0; i--) { /* gone from memory: expired, or not read back */
    const table *t = pf_tables_in_memory(h, l->live[i].id);
    if (!t || t->status == ST_OVER) pf_lobbylist_drop_live(l, i);
  }
  return l;
}

void pf_state_list_note(pf_hall *h, table *t) {
  h->lobby_dirty = true;
  if (h->lobbylist) list_note(h->lobbylist, t);
}

void pf_state_list_told(pf_hall *h, const int64_t *ids, int n) {
  if (!h->lobbylist) list_build(h); /* at the hall's opening (its first flush) */
  for (int i = 0; i < n; i++) {
    const table *t = pf_tables_in_memory(h, ids[i]);
    if (t) list_note(h->lobbylist, t);
  }
  h->lobbylist->noted = 0; /* the pass's list of changed tables starts again */
}

const pf_lobbylist_entry *pf_state_list_text(pf_hall *h, pf_lobbylist_entry *e) {
  if (!e->text && e->status != ST_OVER) pf_lobbylist_set_text(e, summary_text(pf_tables_in_memory(h, e->id)));
  return e;
}

/* The summaries of a list: every unfinished table in memory (newest first), then the newest
 * finished ones, max in all. */
void pf_state_tables_write(pf_hall *h, pf_buf *out, int max) {
  pf_lobbylist *l = pf_state_list(h);
  int n = 0;
  pf_buf_putc(out, '[');
  for (int i = 0; i < l->nlive + l->nover && n < max; i++) {
    const pf_lobbylist_entry *e = pf_state_list_text(h, i < l->nlive ? &l->live[i] : &l->over[i - l->nlive]);
    if (!e->text) continue;
    if (n++) pf_buf_putc(out, ',');
    pf_buf_append(out, e->text, e->len);
  }
  pf_buf_putc(out, ']');
}
