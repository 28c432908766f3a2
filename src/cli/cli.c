/*
 * cli.c - what the subcommands share: errors, flags, seeds, counts, games and their options.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bots/bot.h"
#include "cli/cli.h"
#include "games/registry.h"

static void verror(const char *fmt, va_list ap) {
  fputs("pilfer: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

const char *cli_find_beside(const char *name, const char *file, char *out, size_t n) {
  char exe[PATH_MAX];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len <= 0) return NULL;
  exe[len] = 0;
  const char *dir = dirname(exe);
  static const char *const PLACES[] = {"%s/../share/pilfer/%s", "%s/../%s", "%s/%s"};
  for (size_t i = 0; i < sizeof PLACES / sizeof *PLACES; i++) {
    char path[PATH_MAX + 256];
    snprintf(out, n, PLACES[i], dir, name);
    snprintf(path, sizeof path, "%s/%s", out, file);
    if (access(path, R_OK) == 0) return out;
  }
  return NULL;
}

void cli_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verror(fmt, ap);
  va_end(ap);
}

int cli_bad(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verror(fmt, ap);
  va_end(ap);
  return EXIT_BAD_INPUT;
}

int cli_options(const char *cmd, const pf_game *g, const char *const *kv, int n, pf_options *out) {
  pf_error err;
  pf_options_default(g->options, g->noptions, out);
  for (int i = 0; i < n; i++)
    if (pf_option_parse_kv(g->options, g->noptions, kv[i], out, &err) != 0)
      return cli_bad("%s: %s: %s", cmd, g->id, err.msg);
  return 0;
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
  for (int i = 0; pf_games[i]; i++) pf_buf_join_item(&b, i, "%s", pf_games[i]->id);
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
      return cli_bad("%s: unknown option '%s'; see pilfer %s --help", argv[0], argv[optind - 1], argv[0]);
    }
  }
  if (optind < argc) return cli_bad("%s: unexpected argument '%s'", argv[0], argv[optind]);
  return -1;
}

void cli_print_json(pf_buf *b, int indent) {
  pf_jw_format(b, 0, indent, false);
  fwrite(pf_buf_str(b), 1, b->len, stdout);
  putchar('\n');
}

json_t *cli_load_json(const char *cmd, const char *path) {
  pf_buf b = {0};
  pf_error err;
  json_t *j = NULL;
  if (pf_buf_read_file(&b, path, &err) != 0) {
    cli_error("%s: %s", cmd, err.msg);
  } else {
    json_error_t je;
    j = json_loadb(b.data ? b.data : "", b.len, 0, &je);
    if (!j) cli_error("%s: %s: line %d column %d: %s", cmd, path, je.line, je.column, je.text);
  }
  pf_buf_free(&b);
  return j;
}
