/*
 * main.c - `pilfer`: the table of subcommands, and nothing else (what they share is cli.c).
 */
#include <stdlib.h>
#include <string.h>

#include "bots/bot.h"
#include "cli/cli.h"

/* The subcommands, one entry each: its name, its handler (given argv from the subcommand's
 * name on), and the one-line summary `pilfer --help` prints. */
static const struct command {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} COMMANDS[] = {
    {"games", cmd_games, "list the games, their players and options"},
    {"rules", cmd_rules, "print a game's rules, to learn it from, citing the rulings"},
    {"play", cmd_play, "play a game in the terminal against bots or people"},
    {"replay", cmd_replay, "check and replay a game record"},
    {"sim", cmd_sim, "play many bot games and report win rates with confidence intervals"},
    {"analyze", cmd_analyze, "design metrics of many bot games: balance, length, tension, choice, luck"},
    {"merge", cmd_merge, "add up the sim or analyze --json results of a run's shards"},
    {"bench", cmd_bench, "the fixed benchmark: playouts, searches and a short sim of every game"},
    {"serve", cmd_serve, "the game server and web page: tables, seats, bots, over HTTP and WebSocket"},
    {"backup", cmd_backup, "copy the server's database while it serves (an online backup)"},
};
#define NCOMMANDS (sizeof COMMANDS / sizeof COMMANDS[0])

static void usage(FILE *f) {
  fputs("usage: pilfer COMMAND [ARGS]...\n\n"
        "pilfer plays, simulates and analyses pile card games.\n\ncommands:\n",
        f);
  for (size_t i = 0; i < NCOMMANDS; i++)
    fprintf(f, "  %-8s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
  fputs("\n'pilfer COMMAND --help' tells more about each.\n", f);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return EXIT_BAD_INPUT;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
    usage(stdout);
    return 0;
  }
  pf_bot_allow_programs(strcmp(argv[1], "serve") != 0); /* exec bots: never at a client's request */
  /* Bots that read hidden cards (ismcts see=hands|all): only to measure, never at a table. */
  pf_bot_allow_instruments(strcmp(argv[1], "sim") == 0 || strcmp(argv[1], "analyze") == 0);
  for (size_t i = 0; i < NCOMMANDS; i++)
    if (strcmp(argv[1], COMMANDS[i].name) == 0) return COMMANDS[i].run(argc - 1, argv + 1);
  pf_buf b = {0};
  for (size_t i = 0; i < NCOMMANDS; i++) pf_buf_join_item(&b, i, "%s", COMMANDS[i].name);
  cli_error("unknown command '%s'; commands are: %s", argv[1], pf_buf_str(&b));
  pf_buf_free(&b);
  return EXIT_BAD_INPUT;
}
