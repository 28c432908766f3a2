/*
 * registry.c - the list of games.
 *
 * To add a game: write games/<id>.c exporting one `const pf_game pf_game_<id>` (see game.h for
 * every field and method, and steal_the_pile.c for a complete example), declare it in
 * registry.h, add it to the table below and to CMakeLists.txt. The conformance suite
 * (tests/test_conformance.c) then runs over it at every player count, and `pilfer games`,
 * `rules`, `play`, `replay` and `bench` offer it.
 */
#include "games/registry.h"

#include <string.h>

const pf_game *const pf_games[] = {
    &pf_game_steal_the_pile,
    &pf_game_thief,
    &pf_game_four_card_thief,
    &pf_game_skip_bo_junior,
    &pf_game_piles,
    &pf_game_gharat,
    &pf_game_point_a_pile,
    NULL,
};

const pf_game *pf_game_find(const char *id) {
  for (int i = 0; pf_games[i]; i++)
    if (strcmp(pf_games[i]->id, id) == 0) return pf_games[i];
  return NULL;
}

int pf_record_parse(const char *text, size_t len, pf_record *rec, pf_error *err) {
  return pf_record_read(text, len, pf_game_find, rec, err);
}

int pf_record_load(const char *path, pf_record *rec, pf_error *err) {
  return pf_record_read_file(path, pf_game_find, rec, err);
}

static json_t *option_json(const pf_option_desc *d) {
  json_t *o = json_object();
  bool b = d->type == PF_OPT_BOOL;
  json_object_set_new(o, "name", json_string(d->name));
  json_object_set_new(o, "type", json_string(b ? "bool" : "int"));
  json_object_set_new(o, "default", b ? json_boolean(d->def) : json_integer(d->def));
  if (!b) {
    json_object_set_new(o, "min", json_integer(d->min));
    json_object_set_new(o, "max", json_integer(d->max));
  }
  json_object_set_new(o, "help", json_string(d->help));
  return o;
}

json_t *pf_games_json(void) {
  json_t *arr = json_array();
  for (int i = 0; pf_games[i]; i++) {
    const pf_game *g = pf_games[i];
    json_t *o = json_object(), *opts = json_array();
    json_object_set_new(o, "id", json_string(g->id));
    json_object_set_new(o, "title", json_string(g->title));
    json_object_set_new(o, "min_players", json_integer(g->min_players));
    json_object_set_new(o, "max_players", json_integer(g->max_players));
    for (int k = 0; k < g->noptions; k++) json_array_append_new(opts, option_json(&g->options[k]));
    json_object_set_new(o, "options", opts);
    json_array_append_new(arr, o);
  }
  return arr;
}
