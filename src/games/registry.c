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

static void option_write(pf_jw *w, const pf_option_desc *d) {
  bool b = d->type == PF_OPT_BOOL;
  pf_jw_open(w, '{');
  pf_jw_key_str(w, "name", d->name);
  pf_jw_key_str(w, "type", b ? "bool" : "int");
  pf_jw_key(w, "default");
  if (b)
    pf_jw_bool(w, d->def != 0);
  else
    pf_jw_int(w, d->def);
  if (!b) {
    pf_jw_key_int(w, "min", d->min);
    pf_jw_key_int(w, "max", d->max);
  }
  pf_jw_key_str(w, "help", d->help);
  pf_jw_key_str(w, "label", d->label ? d->label : d->name);
  pf_jw_close(w, '}');
}

/* The short whole game a game declares (its measures): players and every option. Nothing if its
 * options are not the game's, which the conformance suite rules out. */
static void quick_write(pf_jw *w, const pf_game *g) {
  pf_options o;
  pf_error err;
  pf_options_default(g->options, g->noptions, &o);
  if (pf_options_parse_list(g->options, g->noptions, g->measures->quick_options, &o, &err) != 0) return;
  pf_jw_key(w, "quick");
  pf_jw_open(w, '{');
  pf_jw_key_int(w, "players", g->measures->quick_players);
  pf_jw_key(w, "options");
  pf_record_options_write(w, g, &o);
  pf_jw_close(w, '}');
}

void pf_games_write(pf_jw *w) {
  pf_jw_open(w, '[');
  for (int i = 0; pf_games[i]; i++) {
    const pf_game *g = pf_games[i];
    pf_jw_open(w, '{');
    pf_jw_key_str(w, "id", g->id);
    pf_jw_key_str(w, "title", g->title);
    pf_jw_key_str(w, "description", g->measures->description);
    pf_jw_key_int(w, "min_players", g->min_players);
    pf_jw_key_int(w, "max_players", g->max_players);
    pf_jw_key(w, "options");
    pf_jw_open(w, '[');
    for (int k = 0; k < g->noptions; k++) option_write(w, &g->options[k]);
    pf_jw_close(w, ']');
    pf_jw_key(w, "score");
    pf_jw_open(w, '{');
    pf_jw_key_str(w, "unit", g->score_unit ? g->score_unit : "points");
    pf_jw_key_str(w, "unit_one", g->score_unit_one ? g->score_unit_one : "point");
    pf_jw_key(w, "lower_wins");
    pf_jw_bool(w, g->score_low_wins);
    pf_jw_close(w, '}');
    pf_jw_key(w, "length");
    pf_jw_open(w, '{');
    pf_jw_key_int(w, "players", g->measures->length_players);
    pf_jw_key_int(w, "moves", g->measures->length_moves);
    pf_jw_key_str(w, "measured", "pilfer sim with greedy bots, default options");
    pf_jw_close(w, '}');
    pf_jw_key_str(w, "strong_bot", pf_game_strong_bot(g));
    quick_write(w, g);
    pf_jw_close(w, '}');
  }
  pf_jw_close(w, ']');
}

json_t *pf_games_json(void) {
  pf_buf b = {0};
  pf_jw w = {.b = &b};
  pf_games_write(&w);
  return pf_jw_load(&w);
}
