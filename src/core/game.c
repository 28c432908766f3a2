/*
 * game.c - what the core offers over any game: the common part of views.
 */
#include "core/game.h"
#include "core/jsontext.h"
#include "core/view.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every k from 1 to PF_MAX_PLAYERS (12) divides PF_WIN_UNIT: 8, 9, 5, 7 and 11 do. */
_Static_assert(PF_MAX_PLAYERS == 12 && PF_WIN_UNIT % (8 * 9 * 5 * 7 * 11) == 0, "a shared win must split exactly");

const char *pf_to_move_text(int to_move, char buf[32]) {
  if (to_move == PF_CHANCE) return "chance";
  if (to_move == PF_NOBODY) return "nobody (game over)";
  pf_snprintf(buf, 32, "seat %d", to_move);
  return buf;
}

int pf_check_players(const pf_game *g, long long players, pf_error *err) {
  if (players >= g->min_players && players <= g->max_players) return 0;
  if (g->min_players == g->max_players)
    return pf_fail(err, "%s is for exactly %d players, not %lld", g->id, g->min_players, players);
  return pf_fail(err, "%s is for %d to %d players, not %lld", g->id, g->min_players, g->max_players, players);
}

void pf_legal_text(const pf_game *g, const void *st, pf_buf *out) {
  pf_move moves[PF_MAX_MOVES];
  if (g->to_move(st) < 0) return;
  int n = g->legal(st, moves);
  for (int i = 0; i < n; i++) {
    char s[PF_MOVE_STR];
    g->move_str(st, moves[i], s);
    pf_buf_printf(out, "%s%s", i ? " " : "", s);
  }
}

json_t *pf_to_move_json(int to_move) {
  return to_move >= 0 ? json_integer(to_move) : to_move == PF_CHANCE ? json_string("chance") : json_null();
}

void pf_to_move_write(pf_jw *w, int to_move) {
  if (to_move >= 0)
    pf_jw_int(w, to_move);
  else if (to_move == PF_CHANCE)
    pf_jw_str(w, "chance");
  else
    pf_jw_null(w);
}

json_t *pf_legal_json(const pf_game *g, const void *st) {
  json_t *legal = json_array();
  pf_move moves[PF_MAX_MOVES];
  int n = g->to_move(st) >= 0 ? g->legal(st, moves) : 0;
  for (int i = 0; i < n; i++) {
    char s[PF_MOVE_STR];
    g->move_str(st, moves[i], s);
    json_array_append_new(legal, json_string(s));
  }
  return legal;
}

void pf_legal_write(pf_jw *w, const pf_game *g, const void *st) {
  pf_move moves[PF_MAX_MOVES];
  int n = g->to_move(st) >= 0 ? g->legal(st, moves) : 0;
  pf_jw_open(w, '[');
  for (int i = 0; i < n; i++) {
    char s[PF_MOVE_STR];
    g->move_str(st, moves[i], s);
    pf_jw_str(w, s);
  }
  pf_jw_close(w, ']');
}

json_t *pf_ints_json(const int *v, int n) {
  json_t *a = json_array();
  for (int i = 0; i < n; i++) json_array_append_new(a, json_integer(v[i]));
  return a;
}

/* ---- the cards' texts, for a game whose cards have them (card.h: pf_card_notation's text) ---- */

static bool has_texts(const pf_game *g) { return g->cards && g->cards->text; }

/* {"name", "text"} of card c as text: null for an unseen card (PF_CARD_NONE) and for a card that
 * is not the game's own. */
static void card_text_write(pf_jw *w, const pf_card_notation *own, pf_card c) {
  if (c == PF_CARD_NONE || c < PF_CARD_GAME || !own->owns(c)) {
    pf_jw_null(w);
    return;
  }
  pf_buf name = {0}, text = {0};
  own->text(c, &name, &text);
  pf_jw_open(w, '{');
  pf_jw_key(w, "name");
  pf_jw_strn(w, pf_buf_str(&name), name.len);
  pf_jw_key(w, "text");
  pf_jw_strn(w, pf_buf_str(&text), text.len);
  pf_jw_close(w, '}');
  pf_buf_free(&name);
  pf_buf_free(&text);
}

/* One legal move of the view's "moves", appended as text: its string, where it takes a card from
 * and to, and what describe tells the viewer of it; with the card's text in a game whose cards
 * have them. Written as it is made, not built as jansson values first: the server writes one
 * for every legal move of every state it sends (the bytes are those json_dumps would write of
 * the object {"move", "from", "card", "to", "text"[, "card_text"]}). */
static int write_or_null(pf_buf *out, const char *s) {
  if (s) return pf_json_write_string(out, s, strlen(s));
  pf_buf_puts(out, "null");
  return 0;
}

static int move_write(pf_buf *out, const pf_game *g, const void *st, pf_move m, int seat, pf_buf *text) {
  char s[PF_MOVE_STR], c[PF_CARD_STR];
  pf_move_zones z;
  pf_style plain = {0};
  g->move_str(st, m, s);
  pf_move_zones_of(g, st, m, &z);
  if (z.card != PF_CARD_NONE) pf_card_str_in(g->cards, z.card, c);
  pf_buf_clear(text);
  pf_describe(g, st, m, seat, &plain, text);
  pf_buf_puts(out, "{\"move\":");
  int rc = write_or_null(out, s);
  pf_buf_puts(out, ",\"from\":");
  rc |= write_or_null(out, z.from[0] ? z.from : NULL);
  pf_buf_puts(out, ",\"card\":");
  rc |= write_or_null(out, z.card != PF_CARD_NONE ? c : NULL);
  pf_buf_puts(out, ",\"to\":");
  rc |= write_or_null(out, z.to[0] ? z.to : NULL);
  pf_buf_puts(out, ",\"text\":");
  rc |= pf_json_write_string(out, pf_buf_str(text), text->len);
  if (has_texts(g) && z.card != PF_CARD_NONE) {
    pf_jw w = {.b = out, .comma = true}; /* after "text" */
    pf_jw_key(&w, "card_text");
    card_text_write(&w, g->cards, z.card);
    rc |= w.rc;
  }
  pf_buf_putc(out, '}');
  return rc;
}

int pf_moves_write(pf_buf *out, const pf_game *g, const void *st, int seat) {
  pf_move moves[PF_MAX_MOVES];
  int n = g->legal(st, moves), rc = 0;
  pf_buf text = {0};
  pf_buf_putc(out, '[');
  for (int i = 0; i < n; i++) {
    if (i) pf_buf_putc(out, ',');
    rc |= move_write(out, g, st, moves[i], seat, &text);
  }
  pf_buf_putc(out, ']');
  pf_buf_free(&text);
  return rc;
}

/* Whether the viewer is told the legal moves: only the seat to move, in its own view, or the full one. */
static bool entitled(int who, int seat) { return who >= 0 && (seat == PF_VIEW_ALL || seat == who); }

/* The view but its "moves", which come last: the core's fields, then the game's (view_write); the
 * object is left open. The zones also go to sink when it is not NULL. */
static int write_but_moves(pf_buf *out, const pf_game *g, const void *st, int players, int seat, pf_zone_sink *sink) {
  pf_jw w = {.b = out, .own = g->cards, .texts = has_texts(g), .sink = sink, .sink_text = true};
  int who = g->to_move(st);
  pf_jw_open(&w, '{');
  pf_jw_key(&w, "game");
  pf_jw_str(&w, g->id);
  pf_jw_key(&w, "players");
  pf_jw_int(&w, players);
  pf_jw_key(&w, "viewer");
  if (seat == PF_VIEW_ALL || seat == PF_VIEW_PUBLIC)
    pf_jw_str(&w, seat == PF_VIEW_ALL ? "all" : "public");
  else
    pf_jw_int(&w, seat);
  pf_jw_key(&w, "to_move");
  pf_to_move_write(&w, who);
  pf_jw_key(&w, "legal");
  pf_jw_open(&w, '[');
  if (entitled(who, seat)) {
    pf_move moves[PF_MAX_MOVES];
    int n = g->legal(st, moves);
    for (int i = 0; i < n; i++) {
      char m[PF_MOVE_STR];
      g->move_str(st, moves[i], m);
      pf_jw_str(&w, m);
    }
  }
  pf_jw_close(&w, ']');
  int scores[PF_MAX_PLAYERS];
  g->scores(st, scores);
  pf_jw_key(&w, "scores");
  pf_jw_open(&w, '[');
  for (int p = 0; p < players; p++)
    if (g->score_hidden && g->score_hidden(st, seat, p))
      pf_jw_null(&w);
    else
      pf_jw_int(&w, scores[p]);
  pf_jw_close(&w, ']');
  if (who == PF_NOBODY) {
    int seats[PF_MAX_PLAYERS];
    pf_jw_key(&w, "winners");
    pf_jw_ints(&w, seats, g->winners(st, seats));
  }
  g->view_write(st, seat, &w);
  if (w.zones) pf_jw_close(&w, ']');
  return w.rc;
}

/* The text is the view's one home: read back, for the few that want values (the CLI, Python, a
 * finished table's record). */
json_t *pf_view_json(const pf_game *g, const void *st, int players, int seat) {
  pf_buf text = {0};
  json_t *v = pf_view_write(&text, g, st, players, seat, NULL) == 0 ? json_loadb(text.data, text.len, 0, NULL) : NULL;
  pf_buf_free(&text);
  if (!v) abort();
  return v;
}

int pf_view_write_seen(pf_buf *out, const pf_game *g, const void *st, int players, int seat, pf_zone_sink *sink) {
  int rc = write_but_moves(out, g, st, players, seat, sink);
  pf_buf_putc(out, '}');
  return rc;
}

void pf_view_zones(const pf_game *g, const void *st, int seat, pf_zone_sink *sink, pf_buf *scratch) {
  pf_buf_clear(scratch);
  pf_jw w = {.b = scratch, .own = g->cards, .sink = sink};
  pf_jw_open(&w, '{');
  g->view_write(st, seat, &w);
}

int pf_view_write(pf_buf *out, const pf_game *g, const void *st, int players, int seat, size_t *moves_at) {
  int rc = write_but_moves(out, g, st, players, seat, NULL);
  if (rc != 0) return rc;
  pf_buf_puts(out, ",\"moves\":");
  if (moves_at) *moves_at = out->len;
  if (entitled(g->to_move(st), seat))
    rc = pf_moves_write(out, g, st, seat);
  else
    pf_buf_puts(out, "[]");
  pf_buf_putc(out, '}');
  return rc;
}

/* ---- the optional methods ---- */

int pf_chance_apply(const pf_game *g, void *st, const char *text, char canon[PF_MOVE_STR], pf_error *err) {
  if (!g->chance_apply) return pf_fail(err, "%s has no chance moves", g->id);
  return g->chance_apply(st, text, canon, err);
}

int pf_chance_outcomes(const pf_game *g, const void *st, pf_chance_outcome *out) {
  if (g->chance_outcomes) return g->chance_outcomes(st, out);
  void *copy = malloc(g->state_size);
  if (!copy) return 0;
  memcpy(copy, st, g->state_size);
  g->chance_sample(copy, out[0].text);
  free(copy);
  out[0].id = 0;
  out[0].p = 1.0;
  return 1;
}

void pf_describe(const pf_game *g, const void *st, pf_move m, int viewer, const pf_style *style, pf_buf *out) {
  if (g->describe) {
    g->describe(st, m, viewer, style, out);
  } else {
    char s[PF_MOVE_STR];
    g->move_str(st, m, s);
    pf_buf_puts(out, s);
  }
}

bool pf_describe_chance(const pf_game *g, const void *st, const char *outcome, int viewer, const pf_style *style,
                        pf_buf *out) {
  if (!g->describe_chance) return false;
  g->describe_chance(st, outcome, viewer, style, out);
  return true;
}

void pf_move_zones_of(const pf_game *g, const void *st, pf_move m, pf_move_zones *out) {
  *out = (pf_move_zones){.card = PF_CARD_NONE};
  if (g->move_zones) g->move_zones(st, m, out);
}

int pf_choosing(const pf_game *g, const void *st, int *seats) {
  int who = g->to_move(st);
  if (who < 0) return 0;
  if (g->choosing) {
    int n = g->choosing(st, seats);
    assert(n >= 1 && seats[0] == who);
    return n;
  }
  seats[0] = who;
  return 1;
}

int pf_nevents(const pf_game *g) {
  int n = 0;
  while (g->events && n < PF_MAX_EVENTS && g->events[n]) n++;
  return n;
}

char *pf_view_json_text(const pf_game *g, const void *st, int players, int seat) {
  pf_buf text = {0};
  if (pf_view_write(&text, g, st, players, seat, NULL) != 0) abort();
  return text.data;
}

pf_move pf_random_move_listed(const pf_game *g, const void *st, pf_rng *rng, int *n) {
  pf_move moves[PF_MAX_MOVES];
  *n = g->legal(st, moves);
  return moves[pf_rng_below(rng, (uint32_t)*n)];
}

long pf_random_playout(const pf_game *g, void *st, pf_rng *rng, long *branching) {
  long n = 0, b = 0;
  if (g->random_playout) {
    n = g->random_playout(st, rng, &b);
    if (branching) *branching += b;
    return n;
  }
  for (int who; (who = g->to_move(st)) != PF_NOBODY; n++) {
    if (who == PF_CHANCE) {
      pf_chance_sample(g, st, NULL);
      continue;
    }
    int k;
    pf_move m = pf_random_move(g, st, rng, &k);
    b += k;
    g->apply(st, m);
  }
  if (branching) *branching += b;
  return n;
}

/* ---- the view's "end" (view.h) ---- */

void pf_end_open(pf_jw *w) {
  pf_jw_key(w, "end");
  pf_jw_open(w, '[');
}

void pf_end_event(pf_jw *w, const char *kind, const char *rule) {
  pf_jw_open(w, '{');
  pf_jw_key_str(w, "kind", kind);
  pf_jw_key_str(w, "rule", rule);
}

/* The seat of a {N} at s (s at the brace): its number, and *len the marker's length; -1 if none. */
static int say_seat(const char *s, int *len) {
  int n = 0, i = 1;
  if (s[0] != '{' || s[1] < '0' || s[1] > '9') return -1;
  for (; s[i] >= '0' && s[i] <= '9' && i < 4; i++) n = n * 10 + (s[i] - '0');
  if (s[i] != '}') return -1;
  *len = i + 1;
  return n;
}

void pf_end_say(pf_jw *w, const char *say) {
  char text[1024];
  size_t t = 0;
  int len = 0;
  for (const char *s = say; *s && t + 16 < sizeof text;) {
    int seat = say_seat(s, &len);
    if (seat < 0) {
      text[t++] = *s++;
      continue;
    }
    bool first = t == 0 || (t >= 2 && strchr(".!?", text[t - 2]) && text[t - 1] == ' ');
    t += (size_t)pf_snprintf(text + t, sizeof text - t, "%s %d", first ? "Seat" : "seat", seat);
    s += len;
  }
  text[t] = '\0';
  pf_jw_key_str(w, "text", text);
  pf_jw_key(w, "words");
  pf_jw_open(w, '[');
  for (const char *s = say, *from = say;; s++) {
    int seat = *s ? say_seat(s, &len) : -1;
    if (*s && seat < 0) continue;
    if (s > from) pf_jw_strn(w, from, (size_t)(s - from));
    if (!*s) break;
    pf_jw_open(w, '{');
    pf_jw_key_int(w, "seat", seat);
    pf_jw_close(w, '}');
    s += len - 1;
    from = s + 1;
  }
  pf_jw_close(w, ']');
  pf_jw_close(w, '}');
}

void pf_end_close(pf_jw *w) { pf_jw_close(w, ']'); }

/* ---- the zones written as text (view_write) ---- */

/* Whether the zones go to a sink alone, not written as text. */
static inline bool sink_only(const pf_jw *w) { return w->sink && !w->sink_text; }

void pf_zone_open(pf_jw *w, const char *id, const char *kind, int owner, const char *label, pf_layout layout) {
  if (w->sink) { /* handed over at its close */
    w->zone_kind = kind;
    w->zone_owner = owner;
    w->ncards = 0;
    if (!w->sink_text) {
      w->zones = w->zone_cards = true;
      w->layout = layout;
      return;
    }
  }
  if (!w->zones) {
    pf_jw_key(w, "zones");
    pf_jw_open(w, '[');
    w->zones = true;
  }
  pf_jw_open(w, '{');
  pf_jw_key_str(w, "id", id);
  pf_jw_key_str(w, "kind", kind);
  pf_jw_key(w, "owner");
  if (owner >= 0)
    pf_jw_int(w, owner);
  else
    pf_jw_null(w);
  pf_jw_key_str(w, "label", label);
  pf_jw_key(w, "cards");
  pf_jw_open(w, '[');
  w->zone_cards = true;
  w->layout = layout;
}

/* The zone's cards written: its layout follows them. */
static void zone_cards_end(pf_jw *w) {
  if (!w->zone_cards) return;
  pf_jw_close(w, ']');
  pf_jw_key_str(w, "layout", w->layout == PF_FAN ? "fan" : "stack");
  w->zone_cards = false;
}

void pf_zone_write_grid(pf_jw *w, int row, int col) {
  if (sink_only(w)) {
    w->zone_cards = false;
    return;
  }
  zone_cards_end(w);
  pf_jw_key(w, "grid");
  pf_jw_open(w, '[');
  pf_jw_int(w, row);
  pf_jw_int(w, col);
  pf_jw_close(w, ']');
}

void pf_zone_write_value(pf_jw *w, long long value, const char *says) {
  char text[64];
  if (sink_only(w)) {
    w->zone_cards = false;
    return;
  }
  zone_cards_end(w);
  pf_jw_key_int(w, "value", value);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  pf_snprintf(text, sizeof text, says, value);
#pragma GCC diagnostic pop
  pf_jw_key_str(w, "value_text", text);
}

void pf_zone_write_note(pf_jw *w, const char *note) {
  if (sink_only(w)) {
    w->zone_cards = false;
    return;
  }
  zone_cards_end(w);
  pf_jw_key_str(w, "note", note);
}

void pf_zone_close(pf_jw *w) {
  if (w->sink) {
    w->sink->zone(w->sink, w->zone_kind, w->zone_owner, w->layout, w->cards, w->ncards);
    if (!w->sink_text) {
      w->zone_cards = false;
      w->ncards = 0;
      return;
    }
  }
  zone_cards_end(w);
  if (w->texts) {
    pf_jw_key(w, "texts");
    pf_jw_open(w, '[');
    for (int i = 0; i < w->ncards; i++) card_text_write(w, w->own, w->cards[i]);
    pf_jw_close(w, ']');
  }
  w->ncards = 0;
  pf_jw_close(w, '}');
}

_Static_assert(PF_JW_ZONE_CARDS >= PF_MAX_DEAL, "a zone holds at most a deal's cards");

/* A card of a zone, noted for its "texts". */
static void zone_card_note(pf_jw *w, pf_card c) {
  if (!(w->texts || w->sink) || !w->zone_cards) return;
  assert(w->ncards < PF_JW_ZONE_CARDS);
  w->cards[w->ncards++] = c;
}

void pf_card_write(pf_jw *w, pf_card c) {
  char b[PF_CARD_STR];
  if (sink_only(w)) {
    zone_card_note(w, c);
    return;
  }
  pf_jw_str(w, pf_card_str_in(w->own, c, b));
  zone_card_note(w, c);
}

void pf_card_write_seen(pf_jw *w, pf_card c, bool seen) {
  if (seen) {
    pf_card_write(w, c);
  } else {
    if (!sink_only(w)) pf_jw_null(w);
    zone_card_note(w, PF_CARD_NONE);
  }
}
