/*
 * cli_games.c - `pilfer games` and `pilfer rules`.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "games/registry.h"

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

static int games_json(void) {
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
  json_dumpf(arr, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  fputc('\n', stdout);
  json_decref(arr);
  return 0;
}

int cmd_games(int argc, char **argv) {
  bool json;
  int rc = cli_json_flag(argc, argv,
                         "usage: pilfer games [--json]\n\nLists every game: id, title, players, options with "
                         "defaults.\n  --json   as JSON, with each option's type, default and range\n",
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
    puts("usage: pilfer rules GAME\n\nPrints the rules of GAME as the engine plays them, citing "
         "the ruling ids\n(see 'pilfer games' for the ids).");
    return 0;
  }
  if (argc != 2) {
    cli_error("rules: give exactly one game; usage: pilfer rules GAME");
    return EXIT_BAD_INPUT;
  }
  const pf_game *g = cli_game(argv[1]);
  if (!g) return EXIT_BAD_INPUT;
  fputs(g->rules, stdout);
  return 0;
}
