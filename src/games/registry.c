/*
 * registry.c - the list of games: the one place a game is listed.
 *
 * To add a game: write its files in src/games/ (CMakeLists.txt builds every .c there but the
 * template's), exporting one `const pf_game pf_game_<name>` (core/game.h describes every field
 * and method; games/template/template.c is the smallest complete example, which
 * docs/architecture.md walks through), and add its line to GAMES below. Everything else reads
 * this table: `pilfer games`, `rules`, `play`, `replay`, `sim`, `bench` (the cases each game
 * declares in its measures) and `serve`; the conformance suite, the digests and the bots' tests,
 * which ctest runs over every game it lists; scripts/strength (`pilfer games --strength`).
 * scripts/check-games-list fails when anything else lists the games on its own.
 */
#include "games/registry.h"

#include <string.h>

#include "core/measure.h"

/* One line a game, in the order `pilfer games` lists them, with its strong bot: the strongest bot
 * measured in the game (docs/strength.md, "The lobby's strong bot": the ladder and "what was
 * tried") whose slowest move stays under a second on two threads of this project's 2-core
 * machine (bench/move-time.c). The lobby offers it as its "Strong bot" (`pilfer games --json`:
 * "strong_bot") and the server's hint asks it unless told another. */
#define GAMES(X)                                             \
  X(steal_the_pile, "ismcts:iters=10000,threads=2")          \
  X(thief, "ismcts:iters=10000,threads=2")                   \
  X(four_card_thief, "ismcts:iters=10000,threads=2")         \
  X(skip_bo_junior, "ismcts:iters=10000,threads=2,cutoff=4") \
  X(piles, "ismcts:iters=10000,threads=2")                   \
  X(gharat, "ismcts:iters=10000,threads=2")                  \
  X(point_a_pile, "ismcts:iters=10000,threads=2")

#define DECLARE(name, strong) extern const pf_game pf_game_##name;
GAMES(DECLARE)
#define ENTRY(name, strong) &pf_game_##name,
const pf_game *const pf_games[] = {GAMES(ENTRY) NULL};
#define STRONG(name, strong) strong,
static const char *const strong_bots[] = {GAMES(STRONG)};

const char *pf_game_strong_bot(const pf_game *g) {
  for (int i = 0; pf_games[i]; i++)
    if (pf_games[i] == g) return strong_bots[i];
  return "ismcts"; /* not a registered game: the default search */
}

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

/* The short whole game a game declares (its measures): players and every option. NULL if its
 * options are not the game's, which the conformance suite rules out. */
static json_t *quick_json(const pf_game *g) {
  pf_options o;
  pf_error err;
  pf_options_default(g->options, g->noptions, &o);
  if (pf_options_parse_list(g->options, g->noptions, g->measures->quick_options, &o, &err) != 0) return NULL;
  json_t *q = json_object();
  json_object_set_new(q, "players", json_integer(g->measures->quick_players));
  json_object_set_new(q, "options", pf_record_options_json(g, &o));
  return q;
}

json_t *pf_games_json(void) {
  json_t *arr = json_array();
  for (int i = 0; pf_games[i]; i++) {
    const pf_game *g = pf_games[i];
    json_t *o = json_object(), *opts = json_array();
    json_object_set_new(o, "id", json_string(g->id));
    json_object_set_new(o, "title", json_string(g->title));
    json_object_set_new(o, "description", json_string(g->measures->description));
    json_object_set_new(o, "min_players", json_integer(g->min_players));
    json_object_set_new(o, "max_players", json_integer(g->max_players));
    for (int k = 0; k < g->noptions; k++) json_array_append_new(opts, option_json(&g->options[k]));
    json_object_set_new(o, "options", opts);
    json_object_set_new(o, "score", json_pack("{s:s, s:b}", "unit", g->score_unit ? g->score_unit : "points", "lower_wins",
                                              g->score_low_wins));
    const pf_measures *m = g->measures;
    json_object_set_new(o, "length", json_pack("{s:i, s:i, s:s}", "players", m->length_players, "moves", m->length_moves,
                                               "measured", "pilfer sim with greedy bots, default options"));
    json_object_set_new(o, "strong_bot", json_string(pf_game_strong_bot(g)));
    json_t *quick = quick_json(g);
    if (quick) json_object_set_new(o, "quick", quick);
    json_array_append_new(arr, o);
  }
  return arr;
}
