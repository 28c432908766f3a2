/*
 * cli.h - the `pilfer` command line (SPEC §1): one function per subcommand, and what they share.
 */
#ifndef PF_CLI_H
#define PF_CLI_H

#include <stdio.h>

#include <jansson.h>

#include "core/game.h"
#include "core/jsontext.h"

/* Exit statuses of SPEC §1. */
#define EXIT_BAD_INPUT 2
#define EXIT_OTHER 1

int cmd_games(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_backup(int argc, char **argv);

/* A folder of pilfer's files next to the binary (EXEDIR, its folder): the first of
 * EXEDIR/../share/pilfer/NAME (installed), EXEDIR/../NAME (the source tree that holds the build
 * folder) and EXEDIR/NAME that holds `file`, written into out; NULL when none does. The web page
 * ("web", index.html) and analyze's report files ("report", report.js) are found so. */
const char *cli_find_beside(const char *name, const char *file, char *out, size_t n);
/* Prints "pilfer: <message>" to stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same for bad input, and returns its status: `return cli_bad("sim: ...", ...)`. */
int cli_bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The game's options: its defaults, then each "key=value" of kv in turn; 0, or the status after
 * "CMD: GAME: <what is wrong>". */
int cli_options(const char *cmd, const pf_game *g, const char *const *kv, int n, pf_options *out);
/* Colour and suit symbols when f is a terminal and NO_COLOR is not set; plain otherwise. */
pf_style cli_style(FILE *f);
/* A seed: a decimal integer from 0 to 2^63-1. */
int cli_parse_seed(const char *s, uint64_t *out);
/* A non-negative decimal int. */
int cli_parse_count(const char *s, int *out);
/* Parses the flags of a subcommand that takes only --json and --help (games, bench): returns -1
 * to go on, or the exit status when it is done (help printed: 0; a bad flag or argument: 2). */
int cli_json_flag(int argc, char **argv, const char *usage, bool *json);
/* Prints a usage text and then every bot with its settings (play and sim --help); returns 0. */
int cli_usage_with_bots(const char *usage);
/* The rules markup of games/rules.h as plain text: headings underlined, paragraphs and list items
 * wrapped to `width` columns, tables aligned (cli_rules.c). */
void cli_rules_text(const char *markup, int width, pf_buf *out);
/* Prints a game's rules so (`pilfer rules`, and `rules` while playing). */
void cli_print_rules(const pf_game *g, FILE *f);
/* Prints b's JSON text (pf_jw's) on standard output as json_dumpf writes it with
 * JSON_INDENT(indent), and a newline; b is left indented. */
void cli_print_json(pf_buf *b, int indent);
/* The JSON text of a file ('-': standard input), or NULL after saying what is wrong, where:
 * "CMD: FILE: line L column C: ...". */
json_t *cli_load_json(const char *cmd, const char *path);
/* An analyze --json result as tables for people (cli_analyze.c). */
void cli_analyze_print(json_t *result, FILE *f);
/* An analyze --json result as one HTML file with a chart per metric (Vega-Lite, copied in so that
 * it opens offline); 0, or the exit status after saying what is wrong. */
int cli_analyze_html(const pf_buf *result, const char *path);
/* `pilfer analyze --compare FILE...`: results side by side, with the differences' intervals. */
int cli_analyze_compare(int argc, char **argv);
struct cli_vary;
/* Shows n (2 to CLI_COMPARE_MAX) analyze results side by side (as a table, --json, and --html
 * when html is not NULL), each named names[i] under `key` ("file"; "bot" for --skill; "value" for
 * --vary) in the comparison's configs and labelled by what differs (cli_run_labels); with vary
 * (a sweep), also the sweep's key and values and every run's whole result. 0, or the exit status. */
int cli_analyze_compare_results(json_t *const *r, const char *const *names, int n, const char *key,
                                const struct cli_vary *vary, bool json, const char *html);

/* ---- analyze --vary (cli_vary.c) ---- */

#define CLI_VARY_MAX 32    /* values a sweep takes, at most (and 2 at least) */
#define CLI_COMPARE_MAX 32 /* results a comparison shows, at most */
#define CLI_LABEL 160      /* a run's label, with its NUL */

/* A sweep: the key ("players" or a game option's name) and its values, each as -o text. */
typedef struct cli_vary {
  char key[32];
  int option;   /* the option's index in the game's options; -1 for players */
  bool boolean; /* a true/false option */
  int n;
  long long v[CLI_VARY_MAX];
  char text[CLI_VARY_MAX][48]; /* "KEY=VALUE" */
} cli_vary;

/* Parses --vary's "KEY=V1,V2,..." for game g: values or A..B ranges of whole numbers, 2 to
 * CLI_VARY_MAX of them, none twice, each checked as -o (or -p) checks it; 0, or the status after
 * saying what is wrong. */
int cli_vary_parse(const char *spec, const pf_game *g, cli_vary *v);
/* Names each of n results by what differs between them ("players=3", "stock=10, seed=2"; a bot's
 * spec when only seats' bots differ and each run's differing seats hold one bot, else "seat
 * 1=greedy"); names[i] (a file) when nothing does. */
void cli_run_labels(json_t *const *r, int n, const char *const *names, char (*label)[CLI_LABEL]);
/* `pilfer analyze --compare SWEEP.json`: an analyze --vary --json document (read from path)
 * shown again as analyze --vary showed it (--json, --html); 0, or the exit status. */
int cli_vary_compare(json_t *doc, const char *path, bool json, const char *html);
/* `pilfer merge`: the analyze --vary --shard I/N --json documents of one sweep (the first read
 * already, the others from paths[1..n-1]), each value's shards merged into its whole run as merge
 * merges results, shown as analyze --vary shows a sweep (JSON, or the table); 0, or the status. */
int cli_vary_merge(json_t *first, const char *const *paths, int n, bool table);
/* The game named id, or NULL after an error listing the games. */
const pf_game *cli_game(const char *id);

#endif
