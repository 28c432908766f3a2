/*
 * testutil.c - helpers shared by the tests.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tu_expect_card(const pf_card_notation *own, const char *text, const char *canonical) {
  pf_card c;
  if (pf_card_parse_in(own, text, &c) != 0) fail_msg("'%s' should be a card", text);
  char buf[PF_CARD_STR];
  assert_string_equal(pf_card_str_in(own, c, buf), canonical);
}

void tu_deal_places(pf_deal *d, const pf_card *deck, int n, const char *const *place) {
  bool used[PF_MAX_DEAL] = {false}, given[PF_MAX_DEAL] = {false};
  d->ncards = n;
  for (int k = 0; k < n; k++) {
    if (!place[k]) continue;
    pf_card c;
    if (pf_card_parse(place[k], &c) != 0) fail_msg("tu_deal: '%s' is not a card", place[k]);
    int i = 0;
    while (i < n && (used[i] || deck[i] != c)) i++;
    if (i == n) fail_msg("tu_deal: no %s left in the deck", place[k]);
    used[i] = given[k] = true;
    d->cards[k] = c;
  }
  for (int k = 0, i = 0; k < n; k++) {
    if (given[k]) continue;
    while (used[i]) i++;
    used[i] = true;
    d->cards[k] = deck[i];
  }
}

void tu_deal(pf_deal *d, int ndecks, int jokers, const char *top) {
  pf_card deck[PF_MAX_DEAL];
  const char *place[PF_MAX_DEAL] = {NULL};
  int n = pf_deck_standard(deck, ndecks, jokers), k = 0;
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", top ? top : "");
  for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
    if (k == n) fail_msg("tu_deal: more than %d cards", n);
    place[k++] = w;
  }
  tu_deal_places(d, deck, n, place);
}

void tu_start(pf_run *r, const char *game, int players, const pf_deal *deal, const char *options) {
  tu_start_deals(r, game, players, deal, deal ? 1 : 0, options);
}

void tu_play(pf_run *r, const char *move) {
  pf_error err;
  if (pf_run_play_text(r, move, &err) != 0) {
    char *legal = tu_legal(r);
    fail_msg("move '%s' refused: %s (legal: %s)", move, err.msg, legal);
  }
  tu_check(r);
}

void tu_refuse(pf_run *r, const char *move, const char *why) {
  pf_error err;
  int before = r->nmoves;
  if (pf_run_play_text(r, move, &err) == 0) fail_msg("move '%s' was accepted but must be refused", move);
  assert_int_equal(r->nmoves, before);
  if (why && !strstr(err.msg, why)) fail_msg("move '%s' refused with \"%s\", expected it to say \"%s\"", move, err.msg, why);
}

char *tu_legal(const pf_run *r) {
  pf_buf b = {0};
  pf_legal_text(r->game, r->state, &b);
  return b.data ? b.data : pf_xstrdup("");
}

json_t *tu_view(const pf_run *r, int seat) {
  return pf_view_json(r->game, r->state, r->setup.players, seat);
}

void tu_render(const json_t *x, char *buf, size_t n) {
  buf[0] = '\0';
  if (!x) {
    snprintf(buf, n, "absent");
  } else if (json_is_array(x)) {
    size_t i, len = 0;
    json_t *e;
    json_array_foreach(x, i, e) {
      char one[1024];
      tu_render(e, one, sizeof one);
      const char *open = json_is_array(e) ? "[" : "", *close = json_is_array(e) ? "]" : "";
      len += (size_t)snprintf(buf + len, n - len, "%s%s%s%s", i ? " " : "", open, one, close);
      if (len >= n) len = n - 1;
    }
  } else if (json_is_string(x)) {
    snprintf(buf, n, "%s", json_string_value(x));
  } else if (json_is_integer(x)) {
    snprintf(buf, n, "%lld", (long long)json_integer_value(x));
  } else if (json_is_boolean(x)) {
    snprintf(buf, n, "%s", json_is_true(x) ? "true" : "false");
  } else if (json_is_null(x)) {
    snprintf(buf, n, "null");
  } else {
    snprintf(buf, n, "?");
  }
}

json_t *tu_view_path(const pf_run *r, int seat, const char *path, json_t **view) {
  *view = tu_view(r, seat);
  json_t *x = *view;
  char buf[256];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *save = NULL, *k = strtok_r(buf, ".", &save); k && x; k = strtok_r(NULL, ".", &save))
    x = json_is_array(x) ? json_array_get(x, (size_t)atoi(k)) : json_object_get(x, k);
  return x;
}

void tu_expect_view_of(const pf_run *r, int seat, const char *path, const char *want) {
  json_t *v;
  char buf[2048];
  tu_render(tu_view_path(r, seat, path, &v), buf, sizeof buf);
  json_decref(v);
  if (strcmp(buf, want) != 0) fail_msg("view %s is \"%s\", expected \"%s\"", path, buf, want);
}

void tu_expect_view(const pf_run *r, const char *path, const char *want) {
  tu_expect_view_of(r, PF_VIEW_ALL, path, want);
}

int tu_view_int(const pf_run *r, const char *path) {
  json_t *v, *x = tu_view_path(r, PF_VIEW_ALL, path, &v);
  if (!json_is_integer(x)) fail_msg("view %s is not an integer", path);
  int n = (int)json_integer_value(x);
  json_decref(v);
  return n;
}

void tu_expect_legal(const pf_run *r, const char *want) {
  char *legal = tu_legal(r);
  if (strcmp(legal, want) != 0) fail_msg("legal moves are \"%s\", expected \"%s\"", legal, want);
  free(legal);
}

void tu_scores(const pf_run *r, int *scores) { r->game->scores(r->state, scores); }

void tu_check(const pf_run *r) {
  pf_error err;
  if (r->game->check(r->state, &err) != 0) fail_msg("invariant check failed: %s", err.msg);
}

/* Plays the first legal move, n times; a chance outcome is drawn. */
void tu_play_first(pf_run *r, int n) {
  for (int i = 0; i < n; i++) {
    pf_move m[PF_MAX_MOVES];
    assert_true(pf_run_to_move(r) != PF_NOBODY);
    if (pf_run_to_move(r) == PF_CHANCE) {
      pf_run_chance(r);
    } else {
      assert_true(r->game->legal(r->state, m) > 0);
      pf_run_play(r, m[0]);
    }
    tu_check(r);
  }
}

/* Plays the first legal move until the game is over; returns how many were played. */
int tu_play_first_to_end(pf_run *r) {
  int n = 0;
  for (; pf_run_to_move(r) != PF_NOBODY; n++) tu_play_first(r, 1);
  return n;
}

/* Seat `seat`'s hand, as its own view shows it. */
void tu_expect_hand(const pf_run *r, int seat, const char *cards) {
  json_t *v = tu_view(r, seat);
  json_t *h = json_array_get(json_object_get(v, "hands"), (size_t)seat);
  char buf[256];
  tu_render(json_object_get(h, "cards"), buf, sizeof buf);
  json_decref(v);
  if (strcmp(buf, cards) != 0)
    fail_msg("seat %d's hand is \"%s\", expected \"%s\"", seat, buf, cards);
}

/* The sizes of every hand, space-separated. */
void tu_expect_hand_sizes(const pf_run *r, const char *sizes) {
  json_t *v = tu_view(r, PF_VIEW_ALL);
  char buf[256] = "";
  size_t i, len = 0;
  json_t *h;
  json_array_foreach(json_object_get(v, "hands"), i, h) len += (size_t)snprintf(
      buf + len, sizeof buf - len, "%s%lld", i ? " " : "",
      (long long)json_integer_value(json_object_get(h, "size")));
  json_decref(v);
  if (strcmp(buf, sizes) != 0) fail_msg("hand sizes are \"%s\", expected \"%s\"", buf, sizes);
}

/* The setup of a test game: seed 1, the deals given, options "key=value ..." (or NULL). */
static const pf_game *test_setup(pf_setup *s, const char *game, int players, const pf_deal *deals,
                                 int ndeals, const char *options) {
  const pf_game *g = pf_game_find(game);
  if (!g) fail_msg("no game %s", game);
  *s = (pf_setup){.players = players, .seed = 1, .ndeals = ndeals, .deals = deals};
  pf_options_default(g->options, g->noptions, &s->options);
  pf_error err;
  if (pf_options_parse_list(g->options, g->noptions, options, &s->options, &err) != 0)
    fail_msg("options %s: %s", options, err.msg);
  return g;
}

void tu_start_deals(pf_run *r, const char *game, int players, const pf_deal *deals, int ndeals,
                    const char *options) {
  pf_setup s;
  const pf_game *g = test_setup(&s, game, players, deals, ndeals, options);
  pf_error err;
  if (pf_run_start(r, g, &s, &err) != 0) fail_msg("start %s: %s", game, err.msg);
}

void tu_refuse_start(const char *game, int players, const pf_deal *deals, int ndeals,
                     const char *options, const char *why) {
  pf_setup s;
  const pf_game *g = test_setup(&s, game, players, deals, ndeals, options);
  pf_error err;
  pf_run r;
  if (pf_run_start(&r, g, &s, &err) == 0) {
    pf_run_free(&r);
    fail_msg("the start of %s with %d players should be refused (%s)", game, players, why);
  }
  if (!strstr(err.msg, why)) fail_msg("refused with \"%s\", expected \"%s\"", err.msg, why);
}

char *tu_view_text(const pf_run *r, int seat) {
  pf_buf b = {0};
  pf_style plain = {0};
  r->game->view_text(r->state, seat, &plain, &b);
  return b.data ? b.data : pf_xstrdup("");
}

/* n integers as text, space-separated. */
static void ints_text(const int *v, int n, char *buf, size_t size) {
  buf[0] = '\0';
  for (int i = 0; i < n; i++) snprintf(buf + strlen(buf), size - strlen(buf), "%s%d", i ? " " : "", v[i]);
}

void tu_expect_scores(const pf_run *r, const char *want) {
  int sc[PF_MAX_PLAYERS];
  char buf[256];
  tu_scores(r, sc);
  ints_text(sc, r->setup.players, buf, sizeof buf);
  if (strcmp(buf, want) != 0) fail_msg("scores are \"%s\", expected \"%s\"", buf, want);
}

void tu_expect_winners(const pf_run *r, const char *want) {
  int w[PF_MAX_PLAYERS];
  char buf[256];
  ints_text(w, r->game->winners(r->state, w), buf, sizeof buf);
  if (strcmp(buf, want) != 0) fail_msg("winners are \"%s\", expected \"%s\"", buf, want);
}

void tu_expect_told(const pf_run *r, const char *move, int viewer, const char *want) {
  pf_buf b = {0};
  pf_style plain = {0};
  pf_move m;
  pf_error err;
  if (move[0] == '*') {
    pf_describe_chance(r->game, r->state, move, viewer, &plain, &b);
  } else {
    if (r->game->move_parse(r->state, move, &m, &err) != 0) fail_msg("%s: %s", move, err.msg);
    pf_describe(r->game, r->state, m, viewer, &plain, &b);
  }
  if (strcmp(pf_buf_str(&b), want) != 0)
    fail_msg("%s is told to seat %d as \"%s\", expected \"%s\"", move, viewer, pf_buf_str(&b), want);
  pf_buf_free(&b);
}

int tu_resampled(const pf_run *r, int seat, int times, const char *path, pf_rng *rng) {
  pf_run copy = *r; /* the same game and history, another state */
  copy.state = pf_xmalloc(r->game->state_size);
  char *mine = pf_view_json_text(r->game, r->state, r->setup.players, seat), was[256], now[256];
  json_t *v;
  tu_render(tu_view_path(r, PF_VIEW_ALL, path, &v), was, sizeof was);
  json_decref(v);
  int changed = 0;
  for (int i = 0; i < times; i++) {
    memcpy(copy.state, r->state, r->game->state_size);
    r->game->determinize(copy.state, seat, rng);
    char *theirs = pf_view_json_text(r->game, copy.state, r->setup.players, seat);
    if (strcmp(mine, theirs) != 0) fail_msg("determinize changed seat %d's view:\n  %s\n  %s", seat, mine, theirs);
    free(theirs);
    tu_render(tu_view_path(&copy, PF_VIEW_ALL, path, &v), now, sizeof now);
    json_decref(v);
    changed += strcmp(was, now) != 0;
  }
  free(mine);
  free(copy.state);
  return changed;
}

/* The entry of `array` whose field `key` is the string `value`, or NULL. */
static json_t *entry_with(json_t *array, const char *key, const char *value) {
  size_t i;
  json_t *x;
  json_array_foreach(array, i, x) {
    const char *s = json_string_value(json_object_get(x, key));
    if (s && strcmp(s, value) == 0) return x;
  }
  return NULL;
}

void tu_expect_zone_ids(const pf_run *r, int viewer, const char *want) {
  json_t *v = tu_view(r, viewer), *z;
  char buf[2048] = "";
  size_t i, len = 0;
  json_array_foreach(json_object_get(v, "zones"), i, z) len += (size_t)snprintf(
      buf + len, sizeof buf - len, "%s%s", i ? " " : "", json_string_value(json_object_get(z, "id")));
  json_decref(v);
  if (strcmp(buf, want) != 0) fail_msg("zones are \"%s\", expected \"%s\"", buf, want);
}

void tu_expect_zone(const pf_run *r, int viewer, const char *id, const char *field, const char *want) {
  json_t *v = tu_view(r, viewer), *z = entry_with(json_object_get(v, "zones"), "id", id);
  char buf[2048];
  if (!z) fail_msg("viewer %d has no zone %s", viewer, id);
  tu_render(json_object_get(z, field), buf, sizeof buf);
  json_decref(v);
  if (strcmp(buf, want) != 0) fail_msg("zone %s's %s is \"%s\", expected \"%s\"", id, field, buf, want);
}

void tu_expect_move_zones(const pf_run *r, int viewer, const char *move, const char *want) {
  json_t *v = tu_view(r, viewer), *m = entry_with(json_object_get(v, "moves"), "move", move);
  char buf[256] = "", part[64];
  if (!m) fail_msg("viewer %d's moves have no %s", viewer, move);
  const char *keys[3] = {"from", "card", "to"};
  for (int k = 0; k < 3; k++) {
    tu_render(json_object_get(m, keys[k]), part, sizeof part);
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", k ? " " : "", part);
  }
  json_decref(v);
  if (strcmp(buf, want) != 0) fail_msg("move %s goes \"%s\", expected \"%s\"", move, buf, want);
}

/* The largest value of integer option i, from its maximum down to just above its default, with
 * which the game starts with `players` seats and the other options at `base`; 0 if none does. */
static int64_t largest_accepted(const pf_game *g, int players, const pf_options *base, int i) {
  const pf_option_desc *d = &g->options[i];
  for (int64_t v = d->max; v > d->def; v--) {
    pf_setup setup = {.players = players, .options = *base, .seed = 1};
    setup.options.v[i] = v;
    pf_run r;
    pf_error err;
    if (pf_run_start(&r, g, &setup, &err) == 0) {
      pf_run_free(&r);
      return v;
    }
  }
  return 0;
}

/* testutil.h; the small-range maximum is why Skip-Bo Junior's stock runs at 72 / players. */
int tu_option_variants(const pf_game *g, int players, pf_options *out) {
  int n = 0;
  pf_options_default(g->options, g->noptions, &out[n++]);
  for (int i = 0; i < g->noptions; i++) {
    const pf_option_desc *d = &g->options[i];
    out[n] = out[0];
    if (d->type == PF_OPT_BOOL)
      out[n].v[i] = !d->def;
    else
      out[n].v[i] = d->def != d->min ? d->min : (d->min + 30 <= d->max ? d->min + 30 : d->max);
    n++;
    if (d->type == PF_OPT_INT && d->max - d->min < 100) {
      int64_t v = largest_accepted(g, players, &out[0], i);
      if (v && v != out[n - 1].v[i]) {
        out[n] = out[0];
        out[n++].v[i] = v;
      }
    }
  }
  return n;
}

pf_sim_config tu_sim_config(const char *game, int players, long long games, bool rotate, const char *const *seats) {
  pf_sim_config c = {.game = pf_game_find(game), .players = players, .games = games, .seed = 42, .rotate = rotate,
                     .shard = 1, .nshards = 1};
  pf_options_default(c.game->options, c.game->noptions, &c.options);
  for (int p = 0; p < players; p++) strcpy(c.seats[p], seats[p]);
  return c;
}

void tu_sim_run(const pf_sim_config *c, int threads, const char *records, pf_sim_result *r) {
  pf_sim_run_opts o = {.threads = threads, .records_dir = records};
  pf_error err;
  if (pf_sim_run(c, &o, r, &err) != 0) fail_msg("%s: %s", c->analyze ? "analyze" : "sim", err.msg);
}

char *tu_sim_text(const pf_sim_result *r) {
  json_t *j = pf_sim_json(r);
  json_object_del(j, "wall_seconds");
  char *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
  json_decref(j);
  return s;
}
