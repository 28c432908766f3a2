/*
 * cli_games.c - `pilfer games` and `pilfer rules`.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/measure.h"
#include "games/registry.h"

static int games_json(void) {
  pf_buf b = {0};
  pf_jw w = {.b = &b};
  pf_games_write(&w);
  cli_print_json(&b, 2);
  pf_buf_free(&b);
  return 0;
}

/* The strength runs every game declares (pf_measures), one a line for scripts/strength: game,
 * players, games, options ("-" or "key=value,..."), then the seats' bot specs. */
static int games_strength(void) {
  const pf_sim_case *c;
  for (int i = 0; pf_games[i]; i++)
    PF_CASES(c, pf_games[i]->measures->strength) {
      char opts[256];
      snprintf(opts, sizeof opts, "%s", c->options ? c->options : "-");
      for (char *sp = strchr(opts, ' '); sp; sp = strchr(sp, ' ')) *sp = ',';
      printf("%s %d %d %s %s\n", pf_games[i]->id, c->players, c->games, opts, c->seats);
    }
  return 0;
}

int cmd_games(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--strength") == 0) return games_strength();
  bool json;
  int rc = cli_json_flag(argc, argv,
                         "usage: pilfer games [--json | --strength]\n\nLists every game: id, title, players, "
                         "options with defaults.\n  --json       as JSON, with each option's type, default and range\n"
                         "  --strength   the strength runs each game declares, one a line (scripts/strength):\n"
                         "               game players games options(- or key=value,...) bot specs...\n",
                         &json);
  if (rc >= 0) return rc;
  if (json) return games_json();
  printf("%-16s %-16s %-8s %s\n", "GAME", "TITLE", "PLAYERS", "OPTIONS");
  for (int i = 0; pf_games[i]; i++) {
    const pf_game *g = pf_games[i];
    char players[16];
    if (g->min_players == g->max_players)
      snprintf(players, sizeof players, "%d", g->min_players);
    else
      snprintf(players, sizeof players, "%d-%d", g->min_players, g->max_players);
    /* printf pads by bytes: a title with non-ASCII letters (Ghârat) needs as many more. */
    int extra = 0;
    for (const char *c = g->title; *c; c++) extra += ((unsigned char)*c & 0xC0) == 0x80;
    printf("%-16s %-*s %-8s", g->id, 16 + extra, g->title, players);
    if (!g->noptions) printf(" (no options)");
    for (int k = 0; k < g->noptions; k++) {
      const pf_option_desc *d = &g->options[k];
      if (d->type == PF_OPT_BOOL)
        printf(" %s=%s", d->name, d->def ? "true" : "false");
      else
        printf(" %s=%" PRId64 " (%" PRId64 "-%" PRId64 ")", d->name, d->def, d->min, d->max);
    }
    putchar('\n');
    for (int k = 0; k < g->noptions; k++)
      printf("%-42s %s: %s\n", "", g->options[k].name, g->options[k].help);
  }
  return 0;
}

int cmd_rules(int argc, char **argv) {
  if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    puts("usage: pilfer rules GAME\n\nPrints the rules of GAME to learn it from: the object of the game, "
         "set-up,\na turn, scoring and the end, each rule with the id of its ruling (see 'pilfer games'\n"
         "for the games' ids).");
    return 0;
  }
  if (argc != 2) return cli_bad("rules: give exactly one game; usage: pilfer rules GAME");
  const pf_game *g = cli_game(argv[1]);
  if (!g) return EXIT_BAD_INPUT;
  cli_print_rules(g, stdout);
  return 0;
}
