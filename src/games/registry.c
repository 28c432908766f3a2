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
