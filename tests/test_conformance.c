/*
 * test_conformance.c - the suite every registered game must pass, at every player count, with its
 * default options and with each option changed (tu_option_variants), over many seeds:
 *   - random playouts to the end, with the invariant check after every move;
 *   - every legal move's string parses back to that move (also in lower case), and no two legal
 *     moves share a string;
 *   - a clone (a copy of the flat state) equals its original and plays on identically;
 *   - the same seed and moves give the same game;
 *   - a written record replays to the same result and the same final position;
 *   - non-interference: determinizing for a seat leaves that seat's view (JSON and text), its
 *     legal moves (codes and strings) and what the terminal says of them (describe)
 *     byte-identical, and a game dealt differently in the cards a seat cannot see shows that seat
 *     the same view;
 *   - the public view (PF_VIEW_PUBLIC, a spectator's) hides whatever any seat's view hides: it is
 *     byte-identical (JSON and text) after determinizing for every seat and in a game dealt
 *     differently, and so is what describe and describe_chance tell the public, which tells two
 *     moves alike when the public's views after them are alike; it differs from the full view at
 *     the start and wherever every seat's view does;
 *   - determinizing is canonical: two positions that differ only in what a seat cannot see (the
 *     position and one of its determinizations) determinize for that seat, with the same
 *     generator, into byte-identical states, so that a bot, which sees the game only through
 *     determinizations, legal moves and views, chooses alike in both;
 *   - every viewer's zones (docs/views.md) are well formed with unique ids, the full view's hold
 *     every card in play, and "moves" follows "legal" one for one, naming zones of the view and
 *     cards the viewer sees in them;
 *   - the speed hooks (core/game.h) do as the slow path: random_move, random_playout,
 *     stop_at_deal_end, standing_key and events_before;
 *   - the hooks for learning (core/game.h; docs/actions.md): at most PF_MAX_ACTIONS dense
 *     actions, action_move undoing action_index over all of them, every legal move's action in
 *     range, distinct, and the same at the start as where it is legal; at every chance node
 *     outcomes that apply, with distinct ids and texts, probabilities summing to 1 and the same
 *     list twice, and for a game that lists them all (Piles) the outcomes chance_sample draws,
 *     as often as listed; and every game within max_length steps;
 *   - scores and winners are well formed at the end.
 * A game added to the registry is covered without changing this file; so is the template game
 * (src/games/template/), which the registry does not list.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Under the sanitizers (tests/CMakeLists.txt defines PILFER_CONFORMANCE_FEW there) a third of the
 * seeds: every player count, option and check still runs there, looking for memory errors and
 * undefined behaviour, while the plain build plays every seed. All of them under ASan took 22
 * minutes for Thief alone and made CI's two runs of the suite close to its time limit. */
#ifdef PILFER_CONFORMANCE_FEW
#define SEEDS 5         /* games per player count with the default options */
#define VARIANT_SEEDS 2 /* ... and with each option changed */
#define PAP_COMBO_SEEDS 1
#else
#define SEEDS 16
#define VARIANT_SEEDS 4
#define PAP_COMBO_SEEDS 2 /* games per combination of Point-a-Pile's expansions */
#endif

static const char *only_game; /* argv[1]: run the suite over this game only */

/* The template game (src/games/template/template.c): not in the registry, so that `pilfer` does not
 * offer it, but held to the suite like every game (ctest's test_conformance_template). */
extern const pf_game pf_game_template;

/* Game i of the suite's: the registry's, then the template; NULL past them. */
static const pf_game *suite_game(int i) {
  int n = 0;
  while (pf_games[n]) n++;
  return i < n ? pf_games[i] : i == n ? &pf_game_template : NULL;
}

/* A game by id: the registry's, or the template. */
static const pf_game *find_game(const char *id) {
  return strcmp(id, pf_game_template.id) == 0 ? &pf_game_template : pf_game_find(id);
}

/* ---- helpers ---- */

static char *legal_strings(const pf_game *g, const void *st) {
  pf_buf b = {0};
  pf_legal_text(g, st, &b);
  return b.data ? b.data : pf_xstrdup("");
}

static void assert_same_text(const char *a, const char *b, const char *what, const pf_game *g, int players,
                             uint64_t seed, int ply) {
  if (strcmp(a, b) != 0)
    fail_msg("%s: %s, %d players, seed %llu, ply %d:\n  %s\n  %s", what, g->id, players,
             (unsigned long long)seed, ply, a, b);
}

/* G-9: every legal move has one string, which parses back to it, in any case. */
static void check_move_strings(const pf_game *g, const void *st) {
  pf_move moves[PF_MAX_MOVES];
  char strs[PF_MAX_MOVES][PF_MOVE_STR];
  int n = g->legal(st, moves);
  assert_true(n > 0);
  assert_true(n <= PF_MAX_MOVES);
  for (int i = 0; i < n; i++) {
    if (moves[i] >= g->move_bound) /* the bound Python's num_distinct_actions gives */
      fail_msg("%s: move code %u is not below the game's move_bound %u", g->id, moves[i], g->move_bound);
    g->move_str(st, moves[i], strs[i]);
    pf_move back;
    pf_error err;
    if (g->move_parse(st, strs[i], &back, &err) != 0) fail_msg("%s: '%s' does not parse: %s", g->id, strs[i], err.msg);
    assert_int_equal(back, moves[i]);
    for (int upper = 0; upper < 2; upper++) { /* G-9: parsing ignores case */
      char other[PF_MOVE_STR];
      for (int k = 0; k < PF_MOVE_STR; k++) {
        char ch = strs[i][k];
        other[k] = (char)(upper ? (ch >= 'a' && ch <= 'z' ? ch - 32 : ch) : (ch >= 'A' && ch <= 'Z' ? ch + 32 : ch));
        if (!ch) break;
      }
      if (g->move_parse(st, other, &back, &err) != 0) fail_msg("%s: '%s' does not parse: %s", g->id, other, err.msg);
      assert_int_equal(back, moves[i]);
    }
    for (int j = 0; j < i; j++)
      if (strcmp(strs[i], strs[j]) == 0) fail_msg("%s: two legal moves are both '%s'", g->id, strs[i]);
  }
}

/* What a viewer (a seat, the public, or the full view) is shown of a position: its JSON view, its
 * text view and, when asked (the viewer is the seat to move, or the public watches the seat to
 * move), what describe says of each legal move. JSON views are compared as the text the server
 * sends (pf_view_write), which the games write directly; they are read as JSON (shown_json) only
 * where their structure is looked at, the zones and the fields that tell viewers apart: reading
 * every view back would cost more than writing it. */
typedef struct shown {
  char *view;
  size_t moves_at; /* where the view's "moves" begin in it */
  json_t *parsed;  /* the view read back, once asked (shown_json) */
  char *text, *told;
} shown;

static shown shown_to(const pf_game *g, const void *st, int players, int viewer, bool told) {
  shown sh = {0};
  pf_buf view = {0}, text = {0}, says = {0};
  pf_style plain = {0};
  assert_int_equal(pf_view_write(&view, g, st, players, viewer, &sh.moves_at), 0);
  sh.view = view.data;
  g->view_text(st, viewer, &plain, &text);
  sh.text = text.data ? text.data : pf_xstrdup("");
  if (g->describe && told) {
    pf_move moves[PF_MAX_MOVES];
    int n = g->legal(st, moves);
    for (int i = 0; i < n; i++) {
      pf_describe(g, st, moves[i], viewer, &plain, &says);
      pf_buf_putc(&says, '\n');
    }
  }
  sh.told = says.data ? says.data : pf_xstrdup("");
  return sh;
}

static void shown_free(shown *sh) {
  free(sh->view);
  json_decref(sh->parsed);
  free(sh->text);
  free(sh->told);
}

/* The view as JSON values, read from its text once. */
static json_t *shown_json(shown *sh) {
  if (!sh->parsed && !(sh->parsed = json_loads(sh->view, 0, NULL))) fail_msg("a view is not JSON: %s", sh->view);
  return sh->parsed;
}

/* `a` and `b` show the same: JSON, text and, when `told`, what describe says; `why` is the
 * message's start. */
static void assert_same_shown(const shown *a, const shown *b, bool told, const char *why, const pf_game *g, int players,
                              uint64_t seed, int ply) {
  char what[128];
  snprintf(what, sizeof what, "%s (JSON view)", why);
  assert_same_text(a->view, b->view, what, g, players, seed, ply);
  snprintf(what, sizeof what, "%s (text view)", why);
  assert_same_text(a->text, b->text, what, g, players, seed, ply);
  snprintf(what, sizeof what, "%s (what describe tells)", why);
  if (told) assert_same_text(a->told, b->told, what, g, players, seed, ply);
}

/* Whether two viewers' views show the same of the table: every field but those that name the
 * viewer or list its moves. */
static bool same_table(const json_t *a, const json_t *b) {
  static const char *const SKIP[] = {"viewer", "legal", "moves"};
  const char *key;
  json_t *x;
  if (json_object_size(a) != json_object_size(b)) return false;
  json_object_foreach((json_t *)a, key, x) {
    bool skip = false;
    for (int i = 0; i < 3; i++) skip |= strcmp(key, SKIP[i]) == 0;
    if (!skip && !json_equal(x, json_object_get(b, key))) return false;
  }
  return true;
}

/* `st` and `other` differ only in what `seat` cannot see: determinized for it with the same
 * generator they must become the same state, byte for byte. */
static void check_canonical(const pf_game *g, const void *st, const void *other, int seat, pf_rng *rng,
                            uint64_t seed, int ply) {
  void *a = pf_xmalloc(g->state_size), *b = pf_xmalloc(g->state_size);
  pf_rng ra = *rng, rb = *rng;
  memcpy(a, st, g->state_size);
  memcpy(b, other, g->state_size);
  g->determinize(a, seat, &ra);
  g->determinize(b, seat, &rb);
  if (memcmp(a, b, g->state_size) != 0 || memcmp(&ra, &rb, sizeof ra) != 0)
    fail_msg("%s, seed %llu, ply %d: determinize for seat %d is not canonical: two positions that differ "
             "only in what the seat cannot see determinize differently",
             g->id, (unsigned long long)seed, ply, seat);
  pf_rng_next(rng);
  free(a);
  free(b);
}

/* At a chance node, draws an outcome for a copy of st; returns what describe_chance tells
 * `viewer` of it and writes the viewer's JSON view after it to *after (both freed by the caller). */
static char *chance_told(const pf_game *g, const void *st, int players, int viewer, char **after) {
  void *next = pf_xmalloc(g->state_size);
  char outcome[PF_MOVE_STR];
  pf_buf b = {0};
  pf_style plain = {0};
  memcpy(next, st, g->state_size);
  pf_chance_sample(g, next, outcome);
  pf_describe_chance(g, st, outcome, viewer, &plain, &b);
  *after = pf_view_json_text(g, next, players, viewer);
  free(next);
  return b.data ? b.data : pf_xstrdup("");
}

/* What describe_chance tells a viewer (the seat determinized for, and the public) may depend only
 * on what the viewer sees: st and its determinization `other` each draw an outcome (with their
 * own generators, so the outcomes may differ); when the viewer's views after them are the same,
 * so must be what it is told of them. */
static void check_chance_told(const pf_game *g, const void *st, const void *other, int players, int seat,
                              uint64_t seed, int ply) {
  if (g->to_move(st) != PF_CHANCE || !g->describe_chance) return;
  const int viewers[2] = {seat, PF_VIEW_PUBLIC};
  for (int i = 0; i < 2; i++) {
    char *va, *vb, *ta = chance_told(g, st, players, viewers[i], &va), *tb = chance_told(g, other, players, viewers[i], &vb);
    if (strcmp(va, vb) == 0) assert_same_text(ta, tb, "describe_chance tells a hidden outcome", g, players, seed, ply);
    free(va);
    free(vb);
    free(ta);
    free(tb);
  }
}

static uint64_t text_hash(const char *s) {
  uint64_t h = 14695981039346656037u; /* FNV-1a */
  for (; *s; s++) h = (h ^ (uint8_t)*s) * 1099511628211u;
  return h;
}

/* Everything a viewer sees of a position, JSON and text, as one text (caller frees). */
static char *seen_by(const pf_game *g, const void *st, int players, int viewer) {
  shown sh = shown_to(g, st, players, viewer, false);
  pf_buf b = {0};
  pf_buf_printf(&b, "%s\n%s", sh.view, sh.text);
  shown_free(&sh);
  return b.data;
}

/* What describe tells the public of move m (caller frees). */
static char *told_public(const pf_game *g, const void *st, pf_move m) {
  pf_buf b = {0};
  pf_style plain = {0};
  pf_describe(g, st, m, PF_VIEW_PUBLIC, &plain, &b);
  return b.data ? b.data : pf_xstrdup("");
}

/* Whether two legal moves lead to positions the public sees alike but the full view does not. */
static bool hidden_from_public(const pf_game *g, const void *st, int players, pf_move a, pf_move b) {
  void *x = pf_xmalloc(g->state_size), *y = pf_xmalloc(g->state_size);
  memcpy(x, st, g->state_size);
  memcpy(y, st, g->state_size);
  g->apply(x, a);
  g->apply(y, b);
  char *px = seen_by(g, x, players, PF_VIEW_PUBLIC), *py = seen_by(g, y, players, PF_VIEW_PUBLIC);
  bool hidden = strcmp(px, py) == 0;
  if (hidden) {
    char *ax = seen_by(g, x, players, PF_VIEW_ALL), *ay = seen_by(g, y, players, PF_VIEW_ALL);
    hidden = strcmp(ax, ay) != 0;
    free(ax);
    free(ay);
  }
  free(px);
  free(py);
  free(x);
  free(y);
  return hidden;
}

/* What describe tells the public of a move may depend only on what the public sees of it: two
 * legal moves whose difference the public cannot see (the full views after them differ, the
 * public's do not, JSON or text: a choice not yet revealed, PAP-4) must be told alike. Moves the
 * full view does not tell apart either (equal cards, or a discard that ends the hand, THF-7) may
 * be told apart: the public sees them played. The public JSON views after the moves are compared
 * first (by hash), the rest only for moves whose JSON views are alike. */
static void check_public_told(const pf_game *g, const void *st, int players, uint64_t seed, int ply) {
  pf_move moves[PF_MAX_MOVES];
  int n = g->describe ? g->legal(st, moves) : 0;
  uint64_t hash[PF_MAX_MOVES];
  void *next = pf_xmalloc(g->state_size);
  for (int i = 0; i < n; i++) {
    memcpy(next, st, g->state_size);
    g->apply(next, moves[i]);
    char *json = pf_view_json_text(g, next, players, PF_VIEW_PUBLIC);
    hash[i] = text_hash(json);
    free(json);
    for (int j = 0; j < i; j++) {
      if (hash[j] != hash[i] || !hidden_from_public(g, st, players, moves[j], moves[i])) continue;
      char *ti = told_public(g, st, moves[i]), *tj = told_public(g, st, moves[j]);
      assert_same_text(tj, ti, "describe tells the public what its view does not show", g, players, seed, ply);
      free(ti);
      free(tj);
    }
  }
  free(next);
}

/* A legal move of a view's "moves" as jansson values, as pf_view_json built it before the server
 * wrote it as text (pf_moves_write): the reference its bytes are held to. */
static json_t *move_reference(const pf_game *g, const void *st, pf_move m, int seat) {
  char s[PF_MOVE_STR], c[PF_CARD_STR];
  pf_move_zones z;
  pf_buf text = {0};
  pf_style plain = {0};
  g->move_str(st, m, s);
  pf_move_zones_of(g, st, m, &z);
  pf_describe(g, st, m, seat, &plain, &text);
  json_t *o = json_object();
  json_object_set_new(o, "move", json_string(s));
  json_object_set_new(o, "from", z.from[0] ? json_string(z.from) : json_null());
  json_object_set_new(o, "card", z.card != PF_CARD_NONE ? json_string(pf_card_str_in(g->cards, z.card, c)) : json_null());
  json_object_set_new(o, "to", z.to[0] ? json_string(z.to) : json_null());
  json_object_set_new(o, "text", json_string(pf_buf_str(&text)));
  pf_buf_free(&text);
  return o;
}

/* The view as text (pf_view_write, what the server sends) is well formed: read back and written
 * again, it is the same bytes (compact, one key once, in the writer's order); its "moves" begin
 * where it says; and each move in them is what pf_view_json's jansson values were before the
 * text writer (move_reference; its card_text, in a game whose cards have texts, is
 * card_text_json's either way). */
static void check_view_text(const pf_game *g, const void *st, shown *sh, int players, uint64_t seed, int ply) {
  json_t *view = shown_json(sh);
  char *again = pf_jw_dumps(view, 0, false);
  assert_non_null(again);
  assert_same_text(sh->view, again, "a view's text is not its JSON written again", g, players, seed, ply);
  json_t *moves = json_object_get(view, "moves");
  char *text = pf_jw_dumps(moves, 0, false);
  size_t len = strlen(sh->view);
  assert_true(sh->moves_at > 0 && sh->moves_at + strlen(text) + 1 == len);
  assert_memory_equal(sh->view + sh->moves_at, text, strlen(text));
  int viewer = json_is_integer(json_object_get(view, "viewer")) ? (int)json_integer_value(json_object_get(view, "viewer"))
               : strcmp(json_string_value(json_object_get(view, "viewer")), "all") == 0 ? PF_VIEW_ALL
                                                                                        : PF_VIEW_PUBLIC;
  pf_move legal[PF_MAX_MOVES];
  int n = json_array_size(moves) ? g->legal(st, legal) : 0;
  for (int i = 0; i < n; i++) {
    json_t *ref = move_reference(g, st, legal[i], viewer), *m = json_deep_copy(json_array_get(moves, (size_t)i));
    json_object_del(m, "card_text");
    char *a = json_dumps(ref, JSON_COMPACT), *b = json_dumps(m, JSON_COMPACT);
    assert_same_text(a, b, "a move of the view is not as it was", g, players, seed, ply);
    free(a), free(b);
    json_decref(ref);
    json_decref(m);
  }
  free(text);
  free(again);
}

/* The public view shows no more than any seat's: where every seat's view hides something of the
 * full view, so does the public's. At the start every game hides something from everyone (the
 * stock, or the hands), so there the public view must differ from the full one (the check's
 * teeth: a public view that is the full view fails here). */
static void check_public_hides(const pf_game *g, shown *all, shown *pub, bool every_seat_hides, int players,
                               uint64_t seed, int ply) {
  if ((every_seat_hides || ply == 0) && same_table(shown_json(pub), shown_json(all)))
    fail_msg("%s, %d players, seed %llu, ply %d: the public view shows everything%s", g->id, players,
             (unsigned long long)seed, ply, ply == 0 ? " at the start" : ", though every seat's view hides something");
}

static void check_same_legal(const pf_game *g, const void *st, const void *copy, int players, uint64_t seed, int ply) {
  char *la = legal_strings(g, st), *lb = legal_strings(g, copy);
  assert_same_text(la, lb, "determinize changed the seat's legal moves", g, players, seed, ply);
  free(la);
  free(lb);
  pf_move ma[PF_MAX_MOVES], mb[PF_MAX_MOVES];
  int na = g->legal(st, ma);
  assert_int_equal(na, g->legal(copy, mb));
  assert_memory_equal(ma, mb, sizeof ma[0] * (size_t)na);
}

/* ---- the zones and moves of the JSON view (docs/views.md) ---- */

typedef struct where {
  const pf_game *g;
  int players;
  uint64_t seed;
  int ply;
  const char *viewer;
} where;

static void zone_fail(const where *w, const char *what, const char *id) {
  fail_msg("%s, %d players, seed %llu, ply %d, viewer %s: %s%s%s", w->g->id, w->players, (unsigned long long)w->seed,
           w->ply, w->viewer, what, id ? ": " : "", id ? id : "");
}

/* One zone is well formed: id, kind, owner, label, cards, layout, and the optional grid, value
 * and note; returns its number of cards. */
static int check_zone(const where *w, const json_t *z) {
  static const char *const KINDS[] = {"hand", "pile", "pool", "stock", "captures", "castle", "stockpile", "build",
                                      "discard", "row", "deck", "play", "mission", "other"};
  const char *id = json_string_value(json_object_get(z, "id")), *kind = json_string_value(json_object_get(z, "kind"));
  const char *layout = json_string_value(json_object_get(z, "layout"));
  json_t *owner = json_object_get(z, "owner"), *cards = json_object_get(z, "cards"), *grid = json_object_get(z, "grid");
  if (!id || !*id || strlen(id) >= PF_ZONE_ID) zone_fail(w, "a zone without a short id", id);
  bool known = false;
  for (size_t i = 0; kind && i < sizeof KINDS / sizeof KINDS[0]; i++) known |= strcmp(kind, KINDS[i]) == 0;
  if (!known) zone_fail(w, "a zone of no known kind", id);
  if (!json_is_null(owner) && !(json_is_integer(owner) && json_integer_value(owner) >= 0 &&
                                json_integer_value(owner) < w->players))
    zone_fail(w, "a zone's owner is neither null nor a seat", id);
  if (!json_is_string(json_object_get(z, "label"))) zone_fail(w, "a zone without a label", id);
  if (!layout || (strcmp(layout, "fan") != 0 && strcmp(layout, "stack") != 0)) zone_fail(w, "a zone's layout", id);
  if (!json_is_array(cards)) zone_fail(w, "a zone without cards", id);
  for (size_t i = 0; i < json_array_size(cards); i++) {
    json_t *c = json_array_get(cards, i);
    if (!json_is_null(c) && !json_is_string(c)) zone_fail(w, "a zone's card is neither a string nor null", id);
  }
  if (grid && !(json_array_size(grid) == 2 && json_is_integer(json_array_get(grid, 0)) &&
                json_is_integer(json_array_get(grid, 1))))
    zone_fail(w, "a zone's grid is not [row, col]", id);
  if (json_object_get(z, "value") && !json_is_integer(json_object_get(z, "value"))) zone_fail(w, "a zone's value", id);
  if (json_object_get(z, "note") && !json_is_string(json_object_get(z, "note"))) zone_fail(w, "a zone's note", id);
  if (!json_object_get(z, "value") != !json_is_string(json_object_get(z, "value_text")))
    zone_fail(w, "a zone's value without its value_text", id);
  return (int)json_array_size(cards);
}

/* The zone of the view with this id, or NULL. */
static json_t *zone_named(const json_t *zones, const char *id) {
  for (size_t i = 0; i < json_array_size(zones); i++) {
    json_t *z = json_array_get(zones, i);
    if (strcmp(json_string_value(json_object_get(z, "id")), id) == 0) return z;
  }
  return NULL;
}

/* The view's "moves" follow "legal" one for one; their from and to name zones of the view, and a
 * card picked from a zone is one the viewer sees there. */
static void check_moves(const where *w, const json_t *view, const json_t *zones) {
  json_t *legal = json_object_get(view, "legal"), *moves = json_object_get(view, "moves");
  if (!json_is_array(moves) || json_array_size(moves) != json_array_size(legal))
    zone_fail(w, "\"moves\" is not parallel to \"legal\"", NULL);
  for (size_t i = 0; i < json_array_size(moves); i++) {
    json_t *m = json_array_get(moves, i), *card = json_object_get(m, "card");
    const char *s = json_string_value(json_object_get(m, "move"));
    if (!s || strcmp(s, json_string_value(json_array_get(legal, i))) != 0) zone_fail(w, "a move is not its legal move", s);
    if (!json_is_string(json_object_get(m, "text"))) zone_fail(w, "a move without text", s);
    if (!json_is_null(card) && !json_is_string(card)) zone_fail(w, "a move's card", s);
    const char *ends[2] = {"from", "to"};
    for (int e = 0; e < 2; e++) {
      json_t *id = json_object_get(m, ends[e]);
      if (!json_is_null(id) && !(json_is_string(id) && zone_named(zones, json_string_value(id))))
        zone_fail(w, e ? "a move goes to no zone of the view" : "a move comes from no zone of the view", s);
    }
    json_t *from = json_object_get(m, "from");
    if (json_is_null(from) || json_is_null(card)) continue;
    json_t *cards = json_object_get(zone_named(zones, json_string_value(from)), "cards");
    bool seen = false;
    for (size_t k = 0; k < json_array_size(cards); k++)
      seen |= json_equal(json_array_get(cards, k), card) == 1;
    if (!seen) zone_fail(w, "a move's card is not among the cards its zone shows", s);
  }
}

/* The cards of every deal in use (Point-a-Pile's deck and missions): what the full view's zones
 * hold between them. */
static int cards_in_play(const pf_game *g, const void *st) {
  pf_deal d;
  int k = g->current_deal(st, &d), n = d.ncards;
  if (g->current_deal(st, NULL) != k) fail_msg("%s: current_deal's index without a deal differs from with one", g->id);
  for (int j = 0; j < k && pf_deal_at(g, st, j, &d); j++) n += d.ncards;
  return n;
}

/* A viewer's zones and moves (docs/views.md): well-formed zones with unique ids, moves parallel
 * to the legal ones; the full view's zones hold every card of the deals in use. */
static void check_zones(const pf_game *g, const void *st, shown *sh, int players, uint64_t seed, int ply) {
  check_view_text(g, st, sh, players, seed, ply);
  json_t *view = shown_json(sh), *viewer = json_object_get(view, "viewer"), *zones = json_object_get(view, "zones");
  char name[16];
  if (json_is_integer(viewer))
    snprintf(name, sizeof name, "%d", (int)json_integer_value(viewer));
  else
    snprintf(name, sizeof name, "%s", json_string_value(viewer));
  where w = {g, players, seed, ply, name};
  if (!json_is_array(zones) || json_array_size(zones) == 0) zone_fail(&w, "the view has no zones", NULL);
  int cards = 0;
  for (size_t i = 0; i < json_array_size(zones); i++) {
    json_t *z = json_array_get(zones, i);
    cards += check_zone(&w, z);
    const char *id = json_string_value(json_object_get(z, "id"));
    if (zone_named(zones, id) != z) zone_fail(&w, "two zones share an id", id);
  }
  check_moves(&w, view, zones);
  if (strcmp(name, "all") == 0 && cards != cards_in_play(g, st)) {
    char what[64];
    snprintf(what, sizeof what, "the zones hold %d cards, not %d", cards, cards_in_play(g, st));
    zone_fail(&w, what, NULL);
  }
}

/* The hand-reading observer (PF_VIEW_HANDS, the bots' measuring instrument) resamples only what
 * no seat sees: every seat is shown what it was, the seat to move keeps its legal moves, the
 * state passes its check. (A game that asked `p != seat` would resample the hands here.) */
static void check_hands_observer(const pf_game *g, const void *st, int players, pf_rng *rng, uint64_t seed, int ply) {
  void *copy = pf_xmalloc(g->state_size);
  int who = g->to_move(st);
  memcpy(copy, st, g->state_size);
  g->determinize(copy, PF_VIEW_HANDS, rng);
  pf_error err;
  if (g->check(copy, &err) != 0) fail_msg("%s: state determinized for PF_VIEW_HANDS fails its check: %s", g->id, err.msg);
  assert_int_equal(who, g->to_move(copy));
  if (who >= 0) check_same_legal(g, st, copy, players, seed, ply);
  for (int seat = 0; seat < players; seat++) {
    shown a = shown_to(g, st, players, seat, who == seat), b = shown_to(g, copy, players, seat, who == seat);
    assert_same_shown(&a, &b, true, "determinize for PF_VIEW_HANDS changed what a seat is shown", g, players, seed, ply);
    shown_free(&a);
    shown_free(&b);
  }
  free(copy);
}

/* Determinizing for every seat keeps that seat's view, legal moves and what it is shown of them,
 * and the public's view and what it is shown; the public view hides what every seat's does.
 * Returns how many seats' determinizations changed the full state's view (to show the check has
 * teeth). */
static int check_determinize(const pf_game *g, const void *st, int players, pf_rng *rng, uint64_t seed,
                             int ply) {
  void *copy = pf_xmalloc(g->state_size);
  int changed = 0, who = g->to_move(st);
  bool every_seat_hides = true;
  shown all = shown_to(g, st, players, PF_VIEW_ALL, false), pub = shown_to(g, st, players, PF_VIEW_PUBLIC, who >= 0);
  check_zones(g, st, &all, players, seed, ply);
  check_zones(g, st, &pub, players, seed, ply);
  for (int seat = 0; seat < players; seat++) {
    memcpy(copy, st, g->state_size);
    g->determinize(copy, seat, rng);
    pf_error err;
    if (g->check(copy, &err) != 0) fail_msg("%s: determinized state fails its check: %s", g->id, err.msg);
    assert_int_equal(who, g->to_move(copy));
    shown a = shown_to(g, st, players, seat, who == seat), b = shown_to(g, copy, players, seat, who == seat);
    check_zones(g, st, &a, players, seed, ply);
    assert_same_shown(&a, &b, true, "determinize changed what the seat is shown", g, players, seed, ply);
    if (who == seat) check_same_legal(g, st, copy, players, seed, ply);
    check_canonical(g, st, copy, seat, rng, seed, ply);
    /* The public: the seat to move has the same legal moves in both, so describe is compared. */
    shown pb = shown_to(g, copy, players, PF_VIEW_PUBLIC, who == seat);
    assert_same_shown(&pub, &pb, who == seat, "hidden cards changed what the public is shown", g, players, seed, ply);
    check_chance_told(g, st, copy, players, seat, seed, ply);
    every_seat_hides &= !same_table(shown_json(&a), shown_json(&all));
    char *all2 = pf_view_json_text(g, copy, players, PF_VIEW_ALL);
    changed += strcmp(all.view, all2) != 0;
    free(all2);
    shown_free(&a);
    shown_free(&b);
    shown_free(&pb);
  }
  check_public_hides(g, &all, &pub, every_seat_hides, players, seed, ply);
  if (ply % 3 == 0) check_hands_observer(g, st, players, rng, seed, ply);
  shown_free(&all);
  shown_free(&pub);
  free(copy);
  return changed;
}

/* A game dealt differently in what `seat` cannot see: determinize at the start, take its deals
 * (every deal in use: Point-a-Pile's deck and missions), start a new game from them; the seat's
 * view must be the same. */
static void check_other_deal(const pf_game *g, const pf_setup *setup, const void *st, int seat, pf_rng *rng) {
  void *copy = pf_xmalloc(g->state_size);
  memcpy(copy, st, g->state_size);
  g->determinize(copy, seat, rng);
  pf_deal deal, *deals = NULL;
  int k = g->current_deal(copy, &deal);
  deals = pf_xcalloc((size_t)k + 1, sizeof *deals);
  for (int j = 0; j < k; j++) pf_deal_at(g, copy, j, &deals[j]); /* the deals in use at once (deal_at) */
  deals[k] = deal;
  pf_setup other = *setup;
  other.ndeals = k + 1;
  other.deals = deals;
  pf_run r;
  pf_error err;
  if (pf_run_start(&r, g, &other, &err) != 0) fail_msg("%s: cannot start from a determinized deal: %s", g->id, err.msg);
  char *a = pf_view_json_text(g, st, setup->players, seat), *b = pf_view_json_text(g, r.state, setup->players, seat);
  assert_same_text(a, b, "a different deal of hidden cards changed the seat's view", g, setup->players, setup->seed, 0);
  bool told = g->to_move(st) == seat;
  shown pa = shown_to(g, st, setup->players, PF_VIEW_PUBLIC, told), pb = shown_to(g, r.state, setup->players, PF_VIEW_PUBLIC, told);
  assert_same_shown(&pa, &pb, told, "a different deal of hidden cards changed what the public is shown", g,
                    setup->players, setup->seed, 0);
  shown_free(&pa);
  shown_free(&pb);
  free(a);
  free(b);
  pf_run_free(&r);
  free(deals);
  free(copy);
}

/* The record of a finished run, written and read back, replays to the same final position. */
static void check_record_roundtrip(const pf_run *run) {
  json_t *j = pf_record_json(run);
  char *text = json_dumps(j, JSON_COMPACT);
  json_decref(j);
  pf_record rec;
  pf_error err;
  if (pf_record_read(text, strlen(text), find_game, &rec, &err) != 0) fail_msg("own record does not parse: %s", err.msg);
  pf_run again;
  if (pf_record_replay(&rec, -1, &again, NULL, &err) != 0) fail_msg("own record does not replay: %s", err.msg);
  if (pf_record_check_result(&rec, &again, &err) != 0) fail_msg("own record's result differs: %s", err.msg);
  assert_true(rec.has_result);
  char *a = pf_view_json_text(run->game, run->state, run->setup.players, PF_VIEW_ALL);
  char *b = pf_view_json_text(again.game, again.state, again.setup.players, PF_VIEW_ALL);
  assert_string_equal(a, b);
  free(a);
  free(b);
  pf_run_free(&again);
  pf_record_free(&rec);
  free(text);
}

/* Seats choosing at once (game.h: choosing, PAP-4): each later seat of the group is asked next
 * whatever the seats before it choose, with the same view and legal moves (codes too), so that a
 * server may take the choices in any order. Fills the seats before it with their first legal move
 * in one copy and a random one in another, and compares. */
static void check_choosing(const pf_game *g, const void *st, int players, pf_rng *rng, uint64_t seed, int ply) {
  int seats[PF_MAX_PLAYERS];
  int n = pf_choosing(g, st, seats);
  assert_true(n >= 0 && n <= players);
  void *a = pf_xmalloc(g->state_size), *b = pf_xmalloc(g->state_size);
  for (int i = 1; i < n; i++) {
    memcpy(a, st, g->state_size);
    memcpy(b, st, g->state_size);
    for (int j = 0; j < i; j++) {
      pf_move ma[PF_MAX_MOVES], mb[PF_MAX_MOVES];
      assert_int_equal(g->to_move(a), seats[j]);
      assert_int_equal(g->to_move(b), seats[j]);
      g->legal(a, ma);
      int nb = g->legal(b, mb);
      g->apply(a, ma[0]);
      g->apply(b, mb[pf_rng_below(rng, (uint32_t)nb)]);
    }
    if (g->to_move(a) != seats[i] || g->to_move(b) != seats[i])
      fail_msg("%s, seed %llu, ply %d: seat %d of the choosing group is not asked next", g->id,
               (unsigned long long)seed, ply, seats[i]);
    char *va = pf_view_json_text(g, a, players, seats[i]), *vb = pf_view_json_text(g, b, players, seats[i]);
    assert_same_text(va, vb, "a choosing seat's view depends on the choices before it", g, players, seed, ply);
    pf_move la[PF_MAX_MOVES], lb[PF_MAX_MOVES];
    int na = g->legal(a, la);
    assert_int_equal(na, g->legal(b, lb));
    assert_memory_equal(la, lb, sizeof la[0] * (size_t)na);
    free(va);
    free(vb);
  }
  free(a);
  free(b);
}

/* random_move draws as "list the legal moves, draw an index" does: the same count, the same move,
 * the generator left in the same place. A copy of rng draws, so the game goes on as without it. */
static void check_random_move(const pf_game *g, const void *st, const pf_rng *rng, uint64_t seed, int ply) {
  if (!g->random_move) return;
  pf_move moves[PF_MAX_MOVES];
  pf_rng listed = *rng, drawn = *rng;
  int n = g->legal(st, moves), k;
  pf_move want = moves[pf_rng_below(&listed, (uint32_t)n)], got = g->random_move(st, &drawn, &k);
  if (k != n || got != want || memcmp(&listed, &drawn, sizeof listed) != 0)
    fail_msg("%s, seed %llu, ply %d: random_move drew move %u of %d moves, not %u of %d as legal() and a draw would",
             g->id, (unsigned long long)seed, ply, got, k, want, n);
}

/* random_playout plays as the loop of random_move (checked above) and apply would: the same
 * moves, legal moves counted, generator and final state. From copies of st and rng. */
static void check_random_playout(const pf_game *g, const void *st, const pf_rng *rng, uint64_t seed, int ply) {
  if (!g->random_playout) return;
  void *a = pf_xmalloc(g->state_size), *b = pf_xmalloc(g->state_size);
  memcpy(a, st, g->state_size);
  memcpy(b, st, g->state_size);
  pf_rng looped = *rng, played = *rng;
  long n = 0, branching = 0, nb = 0, branching_b = 0;
  for (int who; (who = g->to_move(a)) != PF_NOBODY; n++) {
    int k;
    if (who == PF_CHANCE) {
      pf_chance_sample(g, a, NULL);
      continue;
    }
    g->apply(a, pf_random_move(g, a, &looped, &k));
    branching += k;
  }
  nb = g->random_playout(b, &played, &branching_b);
  if (nb != n || branching_b != branching || memcmp(&looped, &played, sizeof looped) != 0 ||
      memcmp(a, b, g->state_size) != 0)
    fail_msg("%s, seed %llu, ply %d: random_playout played %ld moves (%ld legal offered), the loop %ld (%ld)%s",
             g->id, (unsigned long long)seed, ply, nb, branching_b, n, branching,
             memcmp(a, b, g->state_size) ? ", to another state" : "");
  free(a);
  free(b);
}

/* Random moves from st until play stops or, with until_deal >= 0, the deal in progress is no longer
 * deal until_deal; returns the moves (chance outcomes too) played. */
static long play_random(const pf_game *g, void *st, pf_rng *rng, int until_deal) {
  long n = 0;
  for (int who, k; (who = g->to_move(st)) != PF_NOBODY && (until_deal < 0 || g->current_deal(st, NULL) == until_deal);
       n++) {
    if (who == PF_CHANCE)
      pf_chance_sample(g, st, NULL);
    else
      g->apply(st, pf_random_move(g, st, rng, &k));
    if (n > 100000) fail_msg("%s: play does not stop", g->id);
  }
  return n;
}

/* stop_at_deal_end: random play from st stops at the end of the deal in progress, after the same
 * moves and draws as without it, at the next deal's index and with the standing it has once dealt;
 * a game that ends with the deal ends as without it, with the same winners; random_playout stops
 * there too. From copies of st and rng. */
static void check_stop_at_deal_end(const pf_game *g, const void *st, int players, const pf_rng *rng, uint64_t seed,
                                   int ply) {
  if (!g->stop_at_deal_end) return;
  void *a = pf_xmalloc(g->state_size), *b = pf_xmalloc(g->state_size), *c = pf_xmalloc(g->state_size);
  memcpy(a, st, g->state_size);
  memcpy(b, st, g->state_size);
  g->stop_at_deal_end(b);
  memcpy(c, b, g->state_size);
  pf_rng ra = *rng, rb = *rng, rc = *rng;
  long na = play_random(g, a, &ra, g->current_deal(a, NULL)), nb = play_random(g, b, &rb, -1), nc = nb, branching = 0;
  if (g->random_playout) nc = g->random_playout(c, &rc, &branching);
  bool over = g->to_move(a) == PF_NOBODY;
  int sa[PF_MAX_PLAYERS], sb[PF_MAX_PLAYERS], wa[PF_MAX_PLAYERS], wb[PF_MAX_PLAYERS];
  pf_standing(g, a, sa);
  pf_standing(g, b, sb);
  int ka = over ? g->winners(a, wa) : 0, kb = over ? g->winners(b, wb) : 0;
  if (na != nb || memcmp(&ra, &rb, sizeof ra) != 0 || g->current_deal(a, NULL) != g->current_deal(b, NULL) ||
      g->to_move(b) != PF_NOBODY || memcmp(sa, sb, sizeof sa[0] * (size_t)players) != 0 || ka != kb ||
      memcmp(wa, wb, sizeof wa[0] * (size_t)ka) != 0)
    fail_msg("%s, seed %llu, ply %d: stopped at the deal's end after %ld moves at deal %d, not %ld at deal %d%s", g->id,
             (unsigned long long)seed, ply, nb, g->current_deal(b, NULL), na, g->current_deal(a, NULL),
             memcmp(sa, sb, sizeof sa[0] * (size_t)players) ? ", another standing" : ka != kb ? ", other winners" : "");
  if (g->random_playout && (nc != nb || memcmp(&rc, &rb, sizeof rc) != 0 || memcmp(b, c, g->state_size) != 0))
    fail_msg("%s, seed %llu, ply %d: random_playout stopped after %ld moves, the loop %ld", g->id,
             (unsigned long long)seed, ply, nc, nb);
  free(a);
  free(b);
  free(c);
}

/* standing_key: a move that leaves the key unchanged leaves the standing unchanged (analyze reads
 * the standing only after the moves that change the key). */
static void check_standing_key(const pf_game *g, const void *before, const void *after, int players, uint64_t seed,
                               int ply) {
  if (!g->standing_key || g->standing_key(before) != g->standing_key(after)) return;
  int a[PF_MAX_PLAYERS], b[PF_MAX_PLAYERS];
  pf_standing(g, before, a);
  pf_standing(g, after, b);
  if (memcmp(a, b, sizeof a[0] * (size_t)players) != 0)
    fail_msg("%s, seed %llu, ply %d: the standing changed but its standing_key did not", g->id,
             (unsigned long long)seed, ply);
}

/* events_before: count_events reads no more of `before` than its first events_before bytes (the
 * copy analyze keeps of a position holds only those): with the rest overwritten it counts alike. */
static void check_events_before(const pf_game *g, const void *before, const void *after, pf_move m, uint64_t seed,
                                int ply) {
  if (!g->count_events || !g->events_before) return;
  long long full[PF_MAX_EVENTS] = {0}, prefix[PF_MAX_EVENTS] = {0};
  unsigned char *part = pf_xmalloc(g->state_size);
  memset(part, 0xA5, g->state_size);
  memcpy(part, before, g->events_before);
  g->count_events(before, after, m, full);
  g->count_events(part, after, m, prefix);
  if (memcmp(full, prefix, sizeof full) != 0)
    fail_msg("%s, seed %llu, ply %d: count_events reads past events_before (%zu bytes)", g->id,
             (unsigned long long)seed, ply, g->events_before);
  free(part);
}

/* ---- for learning: dense actions and chance outcomes (core/game.h; docs/actions.md) ---- */

/* Each check below returns NULL when the hooks do as core/game.h says, or what they got wrong (in
 * why), so that test_conformance_catches_bad_hooks can hold the checks themselves to failing. */

/* What a check got wrong, into why (n bytes); returns why. */
static const char *wrong(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static const char *wrong(char *why, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, n, fmt, ap);
  va_end(ap);
  return why;
}

/* Every action of [0, count) names no move or a move whose action it is, at `start`. */
static const char *check_action_range(const pf_game *g, const void *start, int count, char *why, size_t n) {
  if (count <= 0 || count > PF_MAX_ACTIONS)
    return wrong(why, n, "action_count is %d, not in 1..%d", count, PF_MAX_ACTIONS);
  for (int a = 0; a < count; a++) {
    pf_move m = pf_action_move(g, start, a);
    if (m != PF_NO_MOVE && pf_action_index(g, start, m) != a)
      return wrong(why, n, "action %d is move %u, whose action is %d", a, m, pf_action_index(g, start, m));
  }
  return NULL;
}

/* The legal moves at st have distinct actions in [0, count), each giving its move back
 * (action_move), and the same at `start`, another position of the game: an action is a function
 * of the code and of the game's players and options, never of the position. */
static const char *check_actions(const pf_game *g, const void *st, const void *start, int count, char *why, size_t n) {
  static int owner[PF_MAX_ACTIONS], stamp[PF_MAX_ACTIONS], now;
  pf_move moves[PF_MAX_MOVES];
  int k = g->legal(st, moves);
  now++;
  for (int i = 0; i < k; i++) {
    char s[PF_MOVE_STR];
    int a = pf_action_index(g, st, moves[i]);
    g->move_str(st, moves[i], s);
    if (a < 0 || a >= count) return wrong(why, n, "'%s' has action %d, not in 0..%d", s, a, count - 1);
    if (pf_action_move(g, st, a) != moves[i])
      return wrong(why, n, "'%s' has action %d, whose move is %u, not %u", s, a, pf_action_move(g, st, a), moves[i]);
    if (pf_action_index(g, start, moves[i]) != a)
      return wrong(why, n, "'%s' has action %d here but %d at the start", s, a, pf_action_index(g, start, moves[i]));
    if (stamp[a] == now) return wrong(why, n, "'%s' and legal move %d share action %d", s, owner[a], a);
    stamp[a] = now, owner[a] = i;
  }
  return NULL;
}

/* Games whose chance_outcomes lists every outcome (the others list a sample): chance_sample's
 * outcome is among them, as often as they say. */
static bool exact_chance(const pf_game *g) { return strcmp(g->id, "piles") == 0; }

/* At a chance node: at most PF_MAX_CHANCE outcomes, distinct texts and ids below PF_MAX_CHANCE,
 * probabilities above 0 summing to 1, each text one chance_apply takes as it is, the same list
 * twice and st unchanged; for an exact game, chance_sample's outcomes after reseeding the state's
 * generator (determinize for the full view hides nothing else) are in the list, each as often
 * as its probability says within 4 standard deviations (`draws` of them; 0 for none). */
static const char *check_chance(const pf_game *g, const void *st, pf_rng *rng, int draws, char *why, size_t n) {
  static pf_chance_outcome out[PF_MAX_CHANCE + 1], again[PF_MAX_CHANCE + 1];
  void *copy = pf_xmalloc(g->state_size);
  memcpy(copy, st, g->state_size);
  int k = pf_chance_outcomes(g, st, out), hits[PF_MAX_CHANCE] = {0};
  double sum = 0;
  const char *bad = NULL;
  if (k < 1 || k > PF_MAX_CHANCE) bad = "not 1 to PF_MAX_CHANCE outcomes";
  if (!bad && memcmp(copy, st, g->state_size) != 0) bad = "chance_outcomes changed the state";
  for (int i = 0; !bad && i < k; i++) {
    char canon[PF_MOVE_STR];
    pf_error err;
    sum += out[i].p;
    if (out[i].id >= PF_MAX_CHANCE || !(out[i].p > 0)) bad = "an outcome's id or probability is out of range";
    for (int j = 0; !bad && j < i; j++)
      if (out[j].id == out[i].id || strcmp(out[j].text, out[i].text) == 0) bad = "two outcomes share an id or text";
    memcpy(copy, st, g->state_size);
    if (!bad && (pf_chance_apply(g, copy, out[i].text, canon, &err) != 0 || strcmp(canon, out[i].text) != 0))
      bad = "an outcome's text is not one chance_apply takes as it is";
  }
  if (!bad && (sum < 1 - 1e-9 || sum > 1 + 1e-9)) bad = "the probabilities do not sum to 1";
  if (!bad && (pf_chance_outcomes(g, st, again) != k || memcmp(out, again, (size_t)k * sizeof out[0]) != 0))
    bad = "the same state gives another list";
  for (int d = 0; !bad && d < draws; d++) {
    char text[PF_MOVE_STR];
    int i = 0;
    memcpy(copy, st, g->state_size);
    g->determinize(copy, PF_VIEW_ALL, rng);
    pf_chance_sample(g, copy, text);
    while (i < k && strcmp(out[i].text, text) != 0) i++;
    if (i == k) bad = "chance_sample drew an outcome the list does not have";
    else hits[i]++;
  }
  for (int i = 0; !bad && draws && i < k; i++) /* within 4 standard deviations (and 2 draws) */
    if (fabs(hits[i] - draws * out[i].p) > 4 * sqrt(draws * out[i].p * (1 - out[i].p)) + 2)
      bad = "chance_sample draws an outcome far more or less often than its probability";
  free(copy);
  return bad ? wrong(why, n, "%s (%d outcomes, the first '%s')", bad, k, k > 0 ? out[0].text : "") : NULL;
}

/* Scores and winners at the end: winners are distinct seats. */
static void check_result(const pf_run *run) {
  int w[PF_MAX_PLAYERS];
  int n = run->game->winners(run->state, w);
  assert_true(n >= 0 && n <= run->setup.players);
  for (int i = 0; i < n; i++) {
    assert_true(w[i] >= 0 && w[i] < run->setup.players);
    for (int j = 0; j < i; j++) assert_true(w[i] != w[j]);
  }
}

/* ---- one game, every check ---- */

static int conform_one(const pf_game *g, int players, const pf_options *opts, uint64_t seed) {
  pf_setup setup = {.players = players, .options = *opts, .seed = seed};
  pf_run run, twin;
  pf_error err;
  if (pf_run_start(&run, g, &setup, &err) != 0) return -1; /* a refused option combination */
  if (pf_run_start(&twin, g, &setup, &err) != 0) fail_msg("second start failed: %s", err.msg);
  pf_rng rng, drng;
  pf_rng_seed(&rng, seed, 7);
  pf_rng_seed(&drng, seed, 8);
  void *clone = pf_xmalloc(g->state_size), *before = pf_xmalloc(g->state_size), *start = pf_xmalloc(g->state_size);
  int changed = 0, count = pf_action_count(g, players, opts), chances = 0;
  long max_length = pf_max_length(g, players, opts);
  char why[PF_MOVE_STR + 128];
  memcpy(start, run.state, g->state_size);
  if (check_action_range(g, start, count, why, sizeof why) || max_length < 0)
    fail_msg("%s, %d players: %s", g->id, players, max_length < 0 ? "max_length below 0" : why);
  for (int seat = 0; seat < players; seat++) check_other_deal(g, &setup, run.state, seat, &drng);
  for (int ply = 0;; ply++) {
    if (g->check(run.state, &err) != 0)
      fail_msg("%s, %d players, seed %llu, ply %d: %s", g->id, players, (unsigned long long)seed, ply, err.msg);
    changed += check_determinize(g, run.state, players, &drng, seed, ply);
    int who = pf_run_to_move(&run);
    assert_int_equal(who, pf_run_to_move(&twin));
    if (who == PF_NOBODY) break;
    if (ply > 100000) fail_msg("%s: game does not end", g->id);
    memcpy(clone, run.state, g->state_size);
    assert_memory_equal(clone, run.state, g->state_size);
    memcpy(before, run.state, g->state_size);
    pf_move played = PF_MOVE_CHANCE;
    if (who == PF_CHANCE) {
      if (!g->chance_sample || !g->chance_apply)
        fail_msg("%s: a chance node, without chance_sample and chance_apply", g->id);
      if (check_chance(g, run.state, &drng, exact_chance(g) && !chances++ ? 1000 : 0, why, sizeof why))
        fail_msg("%s, %d players, seed %llu, ply %d: chance_outcomes: %s", g->id, players, (unsigned long long)seed,
                 ply, why);
      pf_run_chance(&run);
      assert_int_equal(pf_run_play_text(&twin, run.moves[run.nmoves - 1], &err), 0);
      char canon[PF_MOVE_STR];
      if (pf_chance_apply(g, clone, run.moves[run.nmoves - 1], canon, &err) != 0)
        fail_msg("%s: the sampled outcome %s is refused: %s", g->id, run.moves[run.nmoves - 1], err.msg);
      assert_same_text(run.moves[run.nmoves - 1], canon, "chance outcome not canonical", g, players, seed, ply);
    } else {
      check_move_strings(g, run.state);
      if (check_actions(g, run.state, start, count, why, sizeof why))
        fail_msg("%s, %d players, seed %llu, ply %d: dense actions: %s", g->id, players, (unsigned long long)seed, ply,
                 why);
      check_choosing(g, run.state, players, &drng, seed, ply);
      check_public_told(g, run.state, players, seed, ply);
      check_random_move(g, run.state, &rng, seed, ply);
      if (ply % 256 == 0) check_random_playout(g, run.state, &rng, seed, ply);
      if (ply % 64 == 0) check_stop_at_deal_end(g, run.state, players, &rng, seed, ply);
      pf_move moves[PF_MAX_MOVES];
      int n = g->legal(run.state, moves);
      pf_move m = moves[pf_rng_below(&rng, (uint32_t)n)];
      played = m;
      pf_run_play(&run, m);
      g->apply(clone, m);
      if (pf_run_play_text(&twin, run.moves[run.nmoves - 1], &err) != 0)
        fail_msg("the same move in the same game was refused: %s", err.msg);
    }
    /* The clone played the same move: same state, byte for byte. */
    assert_memory_equal(clone, run.state, g->state_size);
    check_standing_key(g, before, run.state, players, seed, ply);
    check_events_before(g, before, run.state, played, seed, ply);
  }
  if (max_length > 0 && run.nmoves > max_length) /* every step: moves and chance outcomes */
    fail_msg("%s, %d players, seed %llu: %d steps, past max_length %ld", g->id, players, (unsigned long long)seed,
             run.nmoves, max_length);
  /* Same seed, same moves: same game. */
  assert_memory_equal(run.state, twin.state, g->state_size);
  check_result(&run);
  check_record_roundtrip(&run);
  free(clone);
  free(before);
  free(start);
  pf_run_free(&twin);
  pf_run_free(&run);
  return changed;
}

/* A measures' case (core/measure.h) the game plays: players in its range, its options accepted. */
static void check_case(const pf_game *g, const char *what, int players, const char *options) {
  pf_options o;
  pf_error err;
  pf_options_default(g->options, g->noptions, &o);
  if (players < g->min_players || players > g->max_players) fail_msg("%s: %s for %d players", g->id, what, players);
  if (pf_options_parse_list(g->options, g->noptions, options, &o, &err) != 0) fail_msg("%s: %s: %s", g->id, what, err.msg);
}

/* What bench, scripts/strength and the browser tests run of the game is something it plays, and
 * every sim names a bot for each seat. */
static void check_measures(const pf_game *g) {
  const pf_measures *m = g->measures;
  const pf_playout_case *pc;
  const pf_search_case *sc;
  const pf_sim_case *c;
  assert_non_null(m);
  assert_true(m->playouts[0].players && m->searches[0].players && m->sims[0].players && m->strength[0].players);
  PF_CASES(pc, m->playouts) check_case(g, "a bench playout", pc->players, pc->options);
  PF_CASES(sc, m->searches) check_case(g, "a bench search", sc->players, NULL);
  check_case(g, "its quick game", m->quick_players, m->quick_options);
  for (int list = 0; list < 2; list++)
    PF_CASES(c, list ? m->strength : m->sims) {
      check_case(g, list ? "a strength row" : "a bench sim", c->players, c->options);
      int seats = 0;
      for (const char *s = c->seats; *s; s++) seats += *s != ' ' && (s == c->seats || s[-1] == ' ');
      if (seats != c->players) fail_msg("%s: \"%s\" for %d players", g->id, c->seats, c->players);
    }
}

static void test_conformance_every_game(void **unused) {
  (void)unused;
  const pf_game *g;
  for (int gi = 0; (g = suite_game(gi)); gi++) {
    if (only_game && strcmp(only_game, g->id) != 0) continue;
    assert_non_null(g->id);
    check_measures(g);
    assert_true(g->noptions <= PF_MAX_OPTIONS);
    assert_true(strstr(g->rules, "-1") != NULL); /* cites its rulings */
    pf_options variants[TU_MAX_VARIANTS];
    for (int p = g->min_players; p <= g->max_players; p++) {
      int nv = tu_option_variants(g, p, variants);
      long changed = 0;
      int played = 0;
      for (int v = 0; v < nv; v++)
        for (uint64_t seed = 1; seed <= (v == 0 ? SEEDS : VARIANT_SEEDS); seed++) {
          int c = conform_one(g, p, &variants[v], seed * 1000003u + (uint64_t)p);
          if (c < 0 && v == 0) fail_msg("%s does not start with %d players and default options", g->id, p);
          if (c >= 0) changed += c, played++;
        }
      assert_true(played >= SEEDS);
      /* Determinize must actually resample something somewhere (else the check above is empty). */
      if (changed == 0) fail_msg("%s, %d players: determinize never changed any hidden card", g->id, p);
    }
  }
}

/* Point-a-Pile's expansions combine freely (PAP-9): every combination of police, missions, shy and
 * actions, with and without pile, at 2, 4 and 6 players, through every check above (the loop over
 * every game changes one option at a time). */
static void test_conformance_pap_expansions(void **unused) {
  (void)unused;
  const pf_game *g = pf_game_find("point-a-pile");
  static const char *const NAMES[] = {"pile", "police", "missions", "shy", "actions"};
  if (only_game && strcmp(only_game, g->id) != 0) skip();
  for (int players = 2; players <= 6; players += 2) {
    long changed = 0;
    for (int mask = 0; mask < 32; mask++) {
      pf_options o;
      pf_options_default(g->options, g->noptions, &o);
      for (int i = 0; i < 5; i++) {
        int k = pf_option_find(g->options, g->noptions, NAMES[i]);
        assert_true(k >= 0);
        o.v[k] = mask >> i & 1;
      }
      for (uint64_t seed = 1; seed <= PAP_COMBO_SEEDS; seed++) {
        int c = conform_one(g, players, &o, seed * 7919u + (uint64_t)mask * 31u + (uint64_t)players);
        if (c < 0) fail_msg("point-a-pile does not start with %d players and options %#x", players, mask);
        changed += c;
      }
    }
    if (changed == 0) fail_msg("point-a-pile, %d players: determinize never changed anything", players);
  }
}

/* The checks themselves must be able to fail: a view that leaks another seat's hand is caught. */
static void test_conformance_catches_a_leak(void **unused) {
  (void)unused;
  const pf_game *g = pf_game_find("steal-the-pile");
  pf_run run;
  pf_setup setup = {.players = 3, .seed = 5};
  pf_options_default(g->options, g->noptions, &setup.options);
  pf_error err;
  assert_int_equal(pf_run_start(&run, g, &setup, &err), 0);
  void *copy = pf_xmalloc(g->state_size);
  pf_rng rng;
  pf_rng_seed(&rng, 1, 1);
  int differ = 0;
  for (int i = 0; i < 20; i++) {
    memcpy(copy, run.state, g->state_size);
    g->determinize(copy, 0, &rng);
    /* Seat 1's hand is hidden from seat 0, so the view "all" (which shows it) must change at
     * least once in 20 resamplings, while seat 0's view never does. */
    char *a = pf_view_json_text(g, run.state, 3, PF_VIEW_ALL), *b = pf_view_json_text(g, copy, 3, PF_VIEW_ALL);
    differ += strcmp(a, b) != 0;
    free(a);
    free(b);
  }
  assert_true(differ > 0);
  free(copy);
  pf_run_free(&run);
}

/* The checks of the learning hooks must be able to fail: Piles with hooks broken in five ways is
 * caught each time, at its start and at its first take (PIL-7), and the true hooks pass there. */
static const void *bad_start; /* the position the shifted actions are right at */
static int shift_of(const void *st) { return st != bad_start; }
static int shifted_index(const void *st, pf_move m) {
  return (pf_game_find("piles")->action_index(st, m) + shift_of(st)) % 625;
}
static pf_move shifted_move(const void *st, int a) {
  return pf_game_find("piles")->action_move(st, (a + 625 - shift_of(st)) % 625);
}
static int halved_index(const void *st, pf_move m) { return pf_game_find("piles")->action_index(st, m) / 2; }
static int halved_odds(const void *st, pf_chance_outcome *out) {
  int n = pf_game_find("piles")->chance_outcomes(st, out);
  for (int i = 0; i < n; i++) out[i].p /= 2;
  return n;
}
static int skewed_odds(const void *st, pf_chance_outcome *out) { /* the first twice as likely */
  int n = pf_game_find("piles")->chance_outcomes(st, out);
  for (int i = 0; i < n; i++) out[i].p = (i ? 1.0 : 2.0) / (n + 1);
  return n;
}
static int one_short(const void *st, pf_chance_outcome *out) {
  int n = pf_game_find("piles")->chance_outcomes(st, out) - 1;
  for (int i = 0; i < n; i++) out[i] = out[i + 1], out[i].p = 1.0 / n;
  return n;
}

static void test_conformance_catches_bad_hooks(void **unused) {
  (void)unused;
  const pf_game *g = pf_game_find("piles");
  pf_setup setup = {.players = 4, .seed = 3};
  pf_run run;
  pf_error err;
  pf_rng rng;
  pf_rng_seed(&rng, 3, 9);
  char why[PF_MOVE_STR + 128];
  assert_int_equal(pf_run_start(&run, g, &setup, &err), 0);
  void *start = pf_xmalloc(g->state_size);
  memcpy(start, run.state, g->state_size);
  pf_game halved = *g, shifted = *g, odds = *g, short_list = *g, skewed = *g;
  halved.action_index = halved_index;
  shifted.action_index = shifted_index, shifted.action_move = shifted_move;
  odds.chance_outcomes = halved_odds;
  short_list.chance_outcomes = one_short;
  skewed.chance_outcomes = skewed_odds;
  bad_start = start;
  assert_null(check_action_range(g, start, 625, why, sizeof why));
  assert_null(check_actions(g, start, start, 625, why, sizeof why));
  assert_non_null(check_actions(&halved, start, start, 625, why, sizeof why)); /* two moves, one action */
  assert_null(check_actions(&shifted, start, start, 625, why, sizeof why));    /* right at the start ... */
  assert_int_equal(pf_run_play_text(&run, "pass", &err), 0);
  assert_int_equal(g->to_move(run.state), PF_CHANCE);
  assert_null(check_chance(g, run.state, &rng, 1000, why, sizeof why));
  assert_non_null(check_chance(&odds, run.state, &rng, 0, why, sizeof why));
  assert_non_null(check_chance(&short_list, run.state, &rng, 1000, why, sizeof why));
  assert_non_null(check_chance(&skewed, run.state, &rng, 1000, why, sizeof why));
  pf_run_chance(&run);
  assert_int_equal(g->to_move(run.state), 1);
  assert_null(check_actions(g, run.state, start, 625, why, sizeof why));
  assert_non_null(check_actions(&shifted, run.state, start, 625, why, sizeof why)); /* ... not elsewhere */
  free(start);
  pf_run_free(&run);
}

/* test_conformance [GAME]: every game, or only the one named (ctest runs one entry a game,
 * tests/conformance.cmake). */
int main(int argc, char **argv) {
  if (argc > 1) {
    only_game = argv[1];
    if (!find_game(only_game)) {
      fprintf(stderr, "test_conformance: no game '%s'\n", only_game);
      return 2;
    }
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_conformance_every_game),
      cmocka_unit_test(test_conformance_pap_expansions),
      cmocka_unit_test(test_conformance_catches_a_leak),
      cmocka_unit_test(test_conformance_catches_bad_hooks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
