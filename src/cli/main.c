/*
 * main.c - `pilfer`: the table of subcommands.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bots/bot.h"
#include "cli/cli.h"
#include "games/registry.h"

/* The subcommands, one entry each: its name, its handler (given argv from the subcommand's
 * name on), and the one-line summary `pilfer --help` prints. */
static const struct command {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} COMMANDS[] = {
    {"games", cmd_games, "list the games, their players and options"},
    {"rules", cmd_rules, "print a game's rules as the engine plays them"},
    {"play", cmd_play, "play a game in the terminal against bots or people"},
    {"replay", cmd_replay, "check and replay a game record"},
    {"sim", cmd_sim, "play many bot games and report win rates with confidence intervals"},
    {"merge", cmd_merge, "add up the sim --json results of a run's shards"},
    {"bench", cmd_bench, "the fixed benchmark: playouts, searches and a short sim of every game"},
    {"serve", cmd_serve, "the game server and web page: tables, seats, bots, over HTTP and WebSocket"},
};
#define NCOMMANDS (sizeof COMMANDS / sizeof COMMANDS[0])

void cli_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("pilfer: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

pf_style cli_style(FILE *f) {
  const char *nc = getenv("NO_COLOR");
  bool fancy = isatty(fileno(f)) && !(nc && *nc);
  return (pf_style){.unicode = fancy, .color = fancy};
}

int cli_parse_seed(const char *s, uint64_t *out) {
  if (!*s || strspn(s, "0123456789") != strlen(s)) return -1;
  errno = 0;
  unsigned long long v = strtoull(s, NULL, 10);
  if (errno || v > (unsigned long long)INT64_MAX) return -1;
  *out = v;
  return 0;
}

int cli_parse_count(const char *s, int *out) {
  if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 9) return -1;
  *out = atoi(s);
  return 0;
}

int cli_usage_with_bots(const char *usage) {
  pf_buf b = {0};
  pf_bot_describe_all(&b);
  fputs(usage, stdout);
  fputs(pf_buf_str(&b), stdout);
  pf_buf_free(&b);
  return 0;
}

const pf_game *cli_game(const char *id) {
  const pf_game *g = pf_game_find(id);
  if (g) return g;
  pf_buf b = {0};
  for (int i = 0; pf_games[i]; i++) pf_buf_printf(&b, "%s%s", i ? ", " : "", pf_games[i]->id);
  cli_error("unknown game '%s'; games are: %s", id, pf_buf_str(&b));
  pf_buf_free(&b);
  return NULL;
}

int cli_json_flag(int argc, char **argv, const char *usage, bool *json) {
  static const struct option LONG[] = {{"json", no_argument, 0, 'j'}, {"help", no_argument, 0, 'h'}, {0}};
  int c;
  *json = false;
  optind = 1;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "h", LONG, NULL)) != -1) {
    if (c == 'j') {
      *json = true;
    } else if (c == 'h') {
      fputs(usage, stdout);
      return 0;
    } else {
      cli_error("%s: unknown option '%s'; see pilfer %s --help", argv[0], argv[optind - 1], argv[0]);
      return EXIT_BAD_INPUT;
    }
  }
  if (optind < argc) {
    cli_error("%s: unexpected argument '%s'", argv[0], argv[optind]);
    return EXIT_BAD_INPUT;
  }
  return -1;
}

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
  for (size_t i = 0; i < NCOMMANDS; i++)
    if (strcmp(argv[1], COMMANDS[i].name) == 0) return COMMANDS[i].run(argc - 1, argv + 1);
  pf_buf b = {0};
  for (size_t i = 0; i < NCOMMANDS; i++) pf_buf_printf(&b, "%s%s", i ? ", " : "", COMMANDS[i].name);
  cli_error("unknown command '%s'; commands are: %s", argv[1], pf_buf_str(&b));
  pf_buf_free(&b);
  return EXIT_BAD_INPUT;
}
