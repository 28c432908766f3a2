/*
 * cli_sim.c - `pilfer sim` (many bot games, SPEC §4), `pilfer analyze` (the same games, measured for
 * designers: cli_analyze.c prints them) and `pilfer merge` (shards into one result).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/clock.h"
#include "sim/sim.h"

/* The flags sim and analyze share. */
#define RUN_FLAGS                                                                                 \
  "  -p, --players N   players (default: the number of --seat; with one, 2 or the game's least)\n" \
  "  --seat BOT        a bot spec per seat, seat 0 first; or one for every seat\n"                  \
  "  --games K         games to play (with --rotate: a multiple of N)\n"                            \
  "  --threads T       threads (default: every core)\n"                                             \
  "  --seed S          the run's seed (default 1)\n"                                                \
  "  --rotate          play every deal once per rotation of the seats (duplicate deals)\n"          \
  "  --shard I/N       play only the I-th of N slices of the games (I from 1; with --rotate,\n"     \
  "                    of whole deals); merge the slices' --json results with pilfer merge\n"      \
  "  -o KEY=VALUE      a game option (see pilfer games)\n"
#define RUN_TAIL                                                                                  \
  "  --records DIR     write every game's record to DIR/game-NNNNNN.json\n"                         \
  "A progress bar with rate and ETA goes to stderr when it is a terminal.\n"                        \
  "A bot program (exec:) that fails is counted: a line in the table, \"failures\" in --json.\n"     \
  "\n"                                                                                              \
  "Bots (a spec is NAME or NAME:KEY=VALUE,...; e.g. ismcts:iters=5000,playout=greedy):\n"

static const char SIM_USAGE[] =
    "usage: pilfer sim GAME -p N --seat BOT... --games K [--threads T] [--seed S] [--rotate]\n"
    "                  [--shard I/N] [-o KEY=VALUE]... [--json] [--records DIR]\n"
    "\n"
    "Plays K games of bots and prints win rates with 95% confidence intervals, the first seat's\n"
    "advantage, scores and game lengths. Game i is determined by (seed, i) alone, whatever the\n"
    "threads or shards.\n" RUN_FLAGS
    "  --json            the result as JSON (SPEC 4), with the exact sums merge adds\n" RUN_TAIL;

static const char ANALYZE_USAGE[] =
    "usage: pilfer analyze GAME -p N --seat BOT... --games K [--threads T] [--seed S] [--rotate]\n"
    "                      [--shard I/N] [-o KEY=VALUE]... [--json] [--html FILE] [--csv FILE]\n"
    "                      [--records DIR]\n"
    "       pilfer analyze GAME -p N --seat BOT... --games K --skill BOT --skill BOT... [...]\n"
    "       pilfer analyze GAME --seat BOT... --games K --vary KEY=V1,V2,... [...]\n"
    "       pilfer analyze --compare FILE FILE... [--json] [--html FILE]\n"
    "\n"
    "Plays the games pilfer sim plays with the same flags and measures what a game designer asks,\n"
    "each with a 95% interval: balance (win rate by seat and by bot, a chi-squared test of all\n"
    "seats, the seat that wins least), length (moves, turns, deals, rounds: their distribution),\n"
    "each seat's scores and margins, decisiveness (shared wins, the winner's margin), tension\n"
    "(lead changes, when the winner took the lead for good, how far behind the winner was,\n"
    "comebacks from a tenth of the game's points behind), choice (legal moves offered, forced\n"
    "moves, by tenth of the game), how often each bot beats each other and, with --rotate, how\n"
    "much of a result the deal explains (skill and luck), and the game's own counters, per seat\n"
    "and the winner's against the others', with a warning for each that stayed at 0 (\"warnings\"\n"
    "in --json). docs/cli.md (\"Analysis\") defines each.\n"
    RUN_FLAGS
    "  --json            the result as JSON: sim's fields, \"analysis\", and the exact sums\n"
    "                    pilfer merge adds\n"
    "  --html FILE       also write a report with a chart per metric, one HTML file that opens\n"
    "                    offline (Vega-Lite in it)\n"
    "  --csv FILE        also write one row per game and seat (seed, seat, bot, score, win, length,\n"
    "                    lead changes, the seat's counters) as CSV, for a spreadsheet or R\n"
    "  --compare FILE... two or more analyze --json results side by side (see --compare --help)\n"
    "  --skill BOT       the skill gradient (2 to 8 times, weakest first: --skill random --skill\n"
    "                    greedy --skill ismcts): one run for each BOT as the first seat's bot\n"
    "                    against the other seats as given, on the same deals, the seats rotated\n"
    "                    (so --games is a multiple of N), shown as --compare shows runs (the\n"
    "                    measured bot's win rate less the first BOT's is how much better it does);\n"
    "                    not with --shard or --records\n"
    "  --vary KEY=V,...  a sweep: the run at each value of a game option or of players (2 to 32\n"
    "                    values or A..B ranges: stock=5,10,15, players=2..6), shown as --compare\n"
    "                    shows runs; with --shard, each value's run sharded (pilfer merge adds\n"
    "                    the sweeps' shards); not with --skill or --records (docs/cli.md)\n"
    RUN_TAIL;

static const char MERGE_USAGE[] =
    "usage: pilfer merge FILE... [--table]\n"
    "\n"
    "Adds up the 'pilfer sim --json' (or 'pilfer analyze --json') results of every shard of one\n"
    "run ('-' reads standard input) and prints the result of the whole run as JSON: the same, bit\n"
    "for bit, as running it unsharded, except wall_seconds (here the sum of the shards').\n"
    "The shards of an 'analyze --vary --shard I/N --json' sweep merge into the whole sweep so,\n"
    "each value's run from its shards ('analyze --compare SWEEP.json --html F' charts it).\n"
    "  --table   print the readable table instead\n";

/* ---- the readable table ---- */

static void print_rate(pf_sim_estimate e) {
  printf("%6.1f%%  [%5.1f%%, %5.1f%%]", 100 * e.mean, 100 * e.lo, 100 * e.hi);
}

/* One line for each seat whose bot failed (none when no bot did): how often, of what kind, and
 * what played in its place, read from the result's "failures" as a program reads them. */
static void print_failures(const pf_sim_result *r) {
  json_t *j = pf_sim_json(r), *f;
  size_t k;
  json_array_foreach(json_object_get(j, "failures"), k, f) {
    long long games = json_integer_value(json_object_get(f, "games"));
    if (!games) continue;
    const char *fail = json_string_value(json_object_get(f, "fail"));
    const char *bot = json_string_value(json_object_get(f, "bot"));
    printf("Failures: seat %zu (%s) failed in %lld of %lld games (", k, bot, games, r->sums.games);
    for (int i = 0, said = 0; i < PF_BOT_FAIL_KINDS; i++) {
      long long n = json_integer_value(json_object_get(f, pf_bot_fail_names[i]));
      if (n) printf("%s%s %lld", said++ ? ", " : "", pf_bot_fail_names[i], n);
    }
    long long moves = json_integer_value(json_object_get(f, "fallback_moves"));
    if (fail && strcmp(fail, "lose") == 0)
      printf("); the %lld game%s count as lost, and random played %lld moves to finish them\n", games,
             games == 1 ? "" : "s", moves);
    else
      printf("); %s played %lld moves for it in %lld game%s\n", fail ? fail : "its fallback", moves, games,
             games == 1 ? "" : "s");
  }
  json_decref(j);
}

static void print_table(const pf_sim_result *r) {
  if (r->config.analyze) {
    json_t *j = pf_sim_json(r);
    cli_analyze_print(j, stdout);
    json_decref(j);
    print_failures(r);
    return;
  }
  const pf_sim_config *c = &r->config;
  int n = c->players, seat_bot[PF_MAX_PLAYERS], nbots = pf_sim_bots(c, seat_bot);
  long long first, count;
  pf_sim_slice(c, &first, &count);
  printf("%s (%s), %d player%s, %lld games", c->game->title, c->game->id, n, n == 1 ? "" : "s", r->sums.games);
  if (c->nshards > 1) printf(" (games %lld-%lld of %lld: shard %d/%d)", first, first + count - 1, c->games, c->shard, c->nshards);
  printf(", seed %llu", (unsigned long long)c->seed);
  if (c->rotate) printf(", seats rotated (each deal played %d times)", n);
  printf("\n");
  if (c->game->noptions) {
    printf("Options:");
    for (int i = 0; i < c->game->noptions; i++)
      printf(" %s=%lld", c->game->options[i].name, (long long)c->options.v[i]);
    printf("\n");
  }
  printf("\n%-4s  %-28s %-26s %s\n", "seat", c->rotate ? "bot (rotated)" : "bot", "win rate  95% CI", "score mean ± sd");
  for (int p = 0; p < n; p++) {
    pf_sim_estimate sc = pf_sim_seat_score(r, p);
    printf("%4d  %-28.28s ", p, c->rotate ? "(all bots in turn)" : c->seats[p]);
    print_rate(pf_sim_seat_wins(r, p));
    printf("  %8.2f ± %.2f\n", sc.mean, sc.sd);
  }
  printf("\n%-28s %5s %7s  %s\n", "bot", "seats", "fair", "win rate  95% CI");
  for (int b = 0; b < nbots; b++) {
    int held = 0, at = -1;
    for (int p = 0; p < n; p++)
      if (seat_bot[p] == b) held++, at = at < 0 ? p : at;
    printf("%-28.28s %5d %6.1f%%  ", c->seats[at], held, 100.0 * held / n);
    print_rate(pf_sim_bot_wins(r, b));
    const char *inst = pf_bot_instrument(c->seats[at]);
    if (inst) printf("  NOT FAIR: %s reads hidden cards", inst);
    printf("\n");
  }
  pf_sim_estimate s0 = pf_sim_seat_wins(r, 0);
  printf("\nFirst seat's advantage: %+.1f points (seat 0 wins %.1f%% [%.1f%%, %.1f%%]; a fair share is %.1f%%)\n",
         100 * (s0.mean - 1.0 / n), 100 * s0.mean, 100 * s0.lo, 100 * s0.hi, 100.0 / n);
  printf("Mean game length: %.1f moves\n", r->sums.games ? (double)r->sums.moves / (double)r->sums.games : 0.0);
  printf("Wall time: %.1f s (%.1f games/s)\n", r->seconds, r->seconds > 0 ? r->sums.games / r->seconds : 0.0);
  print_failures(r);
  for (int b = 0; b < nbots; b++) {
    int at = 0;
    while (seat_bot[at] != b) at++;
    if (pf_bot_instrument(c->seats[at])) {
      printf("Not fair: a bot above reads what its seat cannot see (a measuring instrument): the result "
             "is a ceiling for fair bots, not a fair bot's.\n");
      break;
    }
  }
}

static void print_json(const pf_sim_result *r) {
  pf_buf b = {0};
  pf_jw w = {.b = &b};
  pf_sim_write(&w, r);
  cli_print_json(&b, 2);
  pf_buf_free(&b);
}

/* ---- progress on a terminal ---- */

typedef struct progress {
  double t0;
  bool drawn;
} progress;

static void draw_progress(void *ctx, long long done, long long total) {
  progress *pr = ctx;
  double el = pf_clock_seconds() - pr->t0, rate = el > 0 ? done / el : 0;
  int width = 30, fill = total ? (int)(width * done / total) : width;
  char bar[64];
  for (int i = 0; i < width; i++) bar[i] = i < fill ? '#' : '.';
  bar[width] = '\0';
  long eta = rate > 0 ? (long)((total - done) / rate) : 0;
  char eta_text[32] = "?";
  if (rate > 0) snprintf(eta_text, sizeof eta_text, "%ld:%02ld:%02ld", eta / 3600, eta / 60 % 60, eta % 60);
  fprintf(stderr, "\r[%s] %3d%% %lld/%lld games  %.1f games/s  ETA %s ", bar, total ? (int)(100 * done / total) : 100,
          done, total, rate, eta_text);
  pr->drawn = true;
  if (done == total) fputs("\r\x1b[K", stderr);
  fflush(stderr);
}

/* ---- sim ---- */

/* "I/N" with 1 <= I <= N. */
static int parse_shard(const char *s, int *i, int *n) {
  const char *slash = strchr(s, '/');
  if (!slash) return -1;
  char a[16], b[16];
  size_t la = (size_t)(slash - s);
  if (la == 0 || la >= sizeof a || strlen(slash + 1) >= sizeof b) return -1;
  memcpy(a, s, la);
  a[la] = '\0';
  strcpy(b, slash + 1);
  if (cli_parse_count(a, i) != 0 || cli_parse_count(b, n) != 0) return -1;
  return *i >= 1 && *n >= 1 && *i <= *n && *n <= 4096 ? 0 : -1;
}

/* What `pilfer sim` was asked: the run, and what the command line says beside it. */
typedef struct sim_args {
  pf_sim_config c;
  const char *cmd; /* "sim" or "analyze" */
  const char *game, *opts[65], *records, *html, *vary, *csv;
  char skill[8][PF_BOT_SPEC]; /* --skill: the bots seat 0 is played by, one run each */
  int nopts, nseats, players, threads, games, nskill;
  bool json;
} sim_args;

/* Reads the flags of `pilfer sim` or `pilfer analyze` (cmd) into a; returns -1 to go on, or the
 * exit status (help: 0; a bad flag: 2). */
static int sim_parse(const char *cmd, int argc, char **argv, sim_args *a) {
  static const struct option LONG[] = {
      {"players", required_argument, 0, 'p'}, {"seat", required_argument, 0, 's'},
      {"games", required_argument, 0, 'g'},   {"threads", required_argument, 0, 't'},
      {"seed", required_argument, 0, 'S'},    {"rotate", no_argument, 0, 'r'},
      {"shard", required_argument, 0, 'x'},   {"option", required_argument, 0, 'o'},
      {"json", no_argument, 0, 'j'},          {"records", required_argument, 0, 'R'},
      {"help", no_argument, 0, 'h'},          {"html", required_argument, 0, 'H'},
      {"skill", required_argument, 0, 'K'},   {"vary", required_argument, 0, 'V'},
      {"csv", required_argument, 0, 'C'},
      {0}};
  pf_sim_config *c = &a->c;
  int ch;
  memset(a, 0, sizeof *a);
  a->cmd = cmd;
  c->analyze = strcmp(cmd, "analyze") == 0;
  a->games = -1;
  c->seed = 1;
  c->shard = c->nshards = 1;
  optind = 1;
  opterr = 0;
  while ((ch = getopt_long(argc, argv, "p:o:h", LONG, NULL)) != -1) {
    switch (ch) {
    case 'p':
      if (cli_parse_count(optarg, &a->players) != 0 || a->players < 1)
        return cli_bad("%s: -p needs a number of players, not '%s'", a->cmd, optarg);
      break;
    case 's':
      if (a->nseats == PF_MAX_PLAYERS) return cli_bad("%s: at most %d seats", a->cmd, PF_MAX_PLAYERS);
      if (strlen(optarg) >= PF_BOT_SPEC) return cli_bad("%s: the bot spec '%.40s...' is too long", a->cmd, optarg);
      strcpy(c->seats[a->nseats++], optarg);
      break;
    case 'g':
      if (cli_parse_count(optarg, &a->games) != 0 || a->games < 1)
        return cli_bad("%s: --games needs a number of games from 1, not '%s'", a->cmd, optarg);
      break;
    case 't':
      if (cli_parse_count(optarg, &a->threads) != 0 || a->threads < 1 || a->threads > 1024)
        return cli_bad("%s: --threads needs a number of threads from 1 to 1024, not '%s'", a->cmd, optarg);
      break;
    case 'S':
      if (cli_parse_seed(optarg, &c->seed) != 0)
        return cli_bad("%s: --seed needs an integer from 0 to 9223372036854775807, not '%s'", a->cmd, optarg);
      break;
    case 'r': c->rotate = true; break;
    case 'x':
      if (parse_shard(optarg, &c->shard, &c->nshards) != 0)
        return cli_bad("%s: --shard takes I/N, the I-th of N slices with 1 <= I <= N <= 4096 (e.g. 2/8), not '%s'", a->cmd,
                       optarg);
      break;
    case 'o':
      if (a->nopts == 64) return cli_bad("%s: too many -o options", a->cmd);
      a->opts[a->nopts++] = optarg;
      break;
    case 'j': a->json = true; break;
    case 'R': a->records = optarg; break;
    case 'H':
      if (!c->analyze) return cli_bad("sim: unknown or incomplete option '--html'; pilfer analyze --html draws charts");
      a->html = optarg;
      break;
    case 'C':
      if (!c->analyze) return cli_bad("sim: unknown or incomplete option '--csv'; pilfer analyze --csv writes a row per game");
      a->csv = optarg;
      break;
    case 'K':
      if (!c->analyze) return cli_bad("sim: unknown or incomplete option '--skill'; pilfer analyze --skill compares bots");
      if (a->nskill == 8) return cli_bad("analyze: at most 8 --skill bots");
      if (strlen(optarg) >= PF_BOT_SPEC) return cli_bad("analyze: the bot spec '%.40s...' is too long", optarg);
      strcpy(a->skill[a->nskill++], optarg);
      break;
    case 'V':
      if (!c->analyze) return cli_bad("sim: unknown or incomplete option '--vary'; pilfer analyze --vary sweeps an option");
      if (a->vary) return cli_bad("analyze: one --vary at a time (a sweep varies one key)");
      a->vary = optarg;
      break;
    case 'h': return cli_usage_with_bots(c->analyze ? ANALYZE_USAGE : SIM_USAGE);
    default: return cli_bad("%s: unknown or incomplete option '%s'; see pilfer %s --help", a->cmd, argv[optind - 1], a->cmd);
    }
  }
  if (argc - optind != 1) return cli_bad("%s: give exactly one game; see pilfer %s --help", a->cmd, a->cmd);
  a->game = argv[optind];
  return -1;
}

/* Checks what was asked and completes the run's config: the game, its players and seats, the
 * games against --rotate and --shard, the options, and that the game starts with them. Returns 0
 * or the exit status after saying what is wrong. */
static int sim_check(sim_args *a) {
  pf_sim_config *c = &a->c;
  pf_error err;
  c->game = cli_game(a->game);
  if (!c->game) return EXIT_BAD_INPUT;
  if (!a->nseats)
    return cli_bad("%s: give a --seat BOT for every seat (or one for all of them); see pilfer %s --help", a->cmd,
                   a->cmd);
  if (a->games < 0) return cli_bad("%s: give the number of games with --games K", a->cmd);
  int players = a->players ? a->players : a->nseats > 1 ? a->nseats : c->game->min_players > 2 ? c->game->min_players : 2;
  if (pf_check_players(c->game, players, &err) != 0) return cli_bad("%s: %s", a->cmd, err.msg);
  if (a->nseats != players && a->nseats != 1)
    return cli_bad("%s: %d players but %d --seat given; give one --seat per player, or one for all", a->cmd, players,
                   a->nseats);
  c->players = players;
  for (int p = a->nseats; p < players; p++) strcpy(c->seats[p], c->seats[0]);
  for (int p = 0; p < players; p++)
    if (pf_bot_check_spec(c->seats[p], &err) != 0) return cli_bad("%s: seat %d: %s", a->cmd, p, err.msg);
  for (int k = 0; k < a->nskill; k++)
    if (pf_bot_check_spec(a->skill[k], &err) != 0) return cli_bad("%s: --skill %s: %s", a->cmd, a->skill[k], err.msg);
  if (a->nskill == 1) return cli_bad("analyze: --skill needs 2 to 8 bots to compare, weakest first, not 1");
  if (a->nskill && a->csv) return cli_bad("analyze: --csv writes the rows of one run, not of --skill's runs");
  if (a->nskill && (c->nshards > 1 || a->records))
    return cli_bad("analyze: --skill plays every run here: not with --shard or --records");
  /* --skill rotates the seats, so that the measured bot plays each deal from every seat: the
   * seats' advantages and the deal's luck are the same for every bot measured. */
  if (a->nskill) c->rotate = true;
  int games = a->games;
  if (c->rotate && games % players)
    return cli_bad("%s: --rotate plays each deal once per rotation of the %d seats, so --games must be a multiple of "
                   "%d (%d or %d)", a->cmd, players, players, games / players * players, (games / players + 1) * players);
  if (c->nshards > games) return cli_bad("%s: --shard %d/%d: more shards than the %d games", a->cmd, c->shard, c->nshards, games);
  if (c->rotate && c->nshards > games / players)
    return cli_bad("%s: --shard %d/%d: with --rotate a shard plays whole deals, and there are only %d", a->cmd, c->shard,
                   c->nshards, games / players);
  c->games = games;
  if (cli_options(a->cmd, c->game, a->opts, a->nopts, &c->options) != 0) return EXIT_BAD_INPUT;
  /* The game must start with these options: try it once, before any thread does. */
  void *probe = pf_xcalloc(1, c->game->state_size);
  pf_setup setup = {.players = players, .options = c->options, .seed = c->seed};
  int started = c->game->start(probe, &setup, &err);
  free(probe);
  return started != 0 ? cli_bad("%s: %s", a->cmd, err.msg) : 0;
}

/* Plays the run of config c (with a progress bar on a terminal) into r, its rows into csv when
 * it is not NULL; 0, or the exit status. */
static int play_run(const sim_args *a, const pf_sim_config *c, pf_sim_result *r, pf_buf *csv) {
  pf_error err;
  progress pr = {.t0 = pf_clock_seconds()};
  pf_sim_run_opts ro = {.threads = a->threads, .records_dir = a->records, .csv = csv};
  if (isatty(STDERR_FILENO)) ro.progress = draw_progress, ro.ctx = &pr;
  if (pf_sim_run(c, &ro, r, &err) != 0) {
    cli_error("%s: %s", a->cmd, err.msg);
    return EXIT_OTHER;
  }
  return 0;
}

/* --skill: one run for each bot in seat 0, the other seats as given, the same seed (so the same
 * deals and the same bots' seeds), compared as --compare compares results. */
static int skill_run(const sim_args *a) {
  static pf_sim_result res;
  json_t *r[8] = {NULL};
  const char *names[8];
  int rc = 0;
  for (int k = 0; k < a->nskill && rc == 0; k++) {
    pf_sim_config c = a->c;
    strcpy(c.seats[0], a->skill[k]);
    names[k] = a->skill[k];
    if ((rc = play_run(a, &c, &res, NULL)) == 0) r[k] = pf_sim_json(&res);
  }
  if (rc == 0) rc = cli_analyze_compare_results(r, names, a->nskill, "bot", NULL, a->json, a->html);
  for (int k = 0; k < a->nskill; k++) json_decref(r[k]);
  return rc;
}

static long long gcd(long long a, long long b) {
  while (b) {
    long long t = a % b;
    a = b, b = t;
  }
  return a;
}

/* --vary KEY=V1,V2,...: the run of the flags given at each value of the key (-o KEY=V, or -p V),
 * everything else the same (seed, bots, games, rotation), compared as --compare compares results,
 * with every run's result in --json. Every value's run is checked before any is played. */
static int vary_run(const sim_args *a) {
  static cli_vary v;
  static sim_args runs[CLI_VARY_MAX];
  static pf_sim_result res;
  const pf_game *g = cli_game(a->game);
  if (!g) return EXIT_BAD_INPUT;
  int rc = cli_vary_parse(a->vary, g, &v);
  if (rc) return rc;
  if (a->nskill) return cli_bad("analyze: --vary and --skill are two sweeps; give one");
  if (a->records) return cli_bad("analyze: --vary plays several runs: not with --records (record one run alone)");
  if (a->csv) return cli_bad("analyze: --vary plays several runs: not with --csv (write the rows of one run alone)");
  if (v.option < 0 && a->players) return cli_bad("analyze: --vary players sets the players: not with -p");
  if (v.option < 0 && a->c.rotate && a->games > 0) {
    long long l = 1; /* the least common multiple of the players */
    for (int k = 0; k < v.n; k++) l = l / gcd(l, v.v[k]) * v.v[k];
    long long below = a->games / l * l;
    char near[64];
    snprintf(near, sizeof near, below ? "%lld or %lld" : "%lld", below ? below : l, below + l);
    if (a->games % l)
      return cli_bad("analyze: --vary %s with --rotate plays each deal once per rotation of every player count, so "
                     "--games must be a multiple of %lld (%s)", a->vary, l, near);
  }
  size_t kl = strlen(v.key);
  for (int i = 0; i < a->nopts; i++)
    if (strncmp(a->opts[i], v.key, kl) == 0 && a->opts[i][kl] == '=')
      return cli_bad("analyze: --vary %s and -o %s both give %s; give it once", v.key, a->opts[i], v.key);
  for (int k = 0; k < v.n; k++) {
    sim_args *r = &runs[k];
    char cmd[96];
    *r = *a;
    if (v.option < 0) {
      r->players = (int)v.v[k];
      /* More players than --seat flags: the last --seat plays the seats after it. */
      for (; r->nseats > 1 && r->nseats < r->players; r->nseats++) strcpy(r->c.seats[r->nseats], r->c.seats[r->nseats - 1]);
    } else {
      r->opts[r->nopts++] = v.text[k];
    }
    snprintf(cmd, sizeof cmd, "analyze --vary %s", v.text[k]);
    r->cmd = cmd;
    rc = sim_check(r);
    r->cmd = a->cmd;
    if (rc) return rc;
  }
  json_t *res_json[CLI_VARY_MAX] = {NULL};
  const char *names[CLI_VARY_MAX];
  for (int k = 0; k < v.n && rc == 0; k++) {
    names[k] = v.text[k] + kl + 1;
    if ((rc = play_run(&runs[k], &runs[k].c, &res, NULL)) == 0) res_json[k] = pf_sim_json(&res);
  }
  if (rc == 0) rc = cli_analyze_compare_results(res_json, names, v.n, "value", &v, a->json, a->html);
  for (int k = 0; k < v.n; k++) json_decref(res_json[k]);
  return rc;
}

/* Plays the run and prints its result. */
static int sim_run(const sim_args *a) {
  if (a->nskill) return skill_run(a);
  if (a->records && mkdir(a->records, 0777) != 0 && errno != EEXIST) {
    cli_error("%s: --records %s: cannot make the directory: %s", a->cmd, a->records, strerror(errno));
    return EXIT_OTHER;
  }
  /* --csv: the file is made before the games are played, so that a bad path fails at once. */
  FILE *csv = NULL;
  if (a->csv && !(csv = fopen(a->csv, "w"))) {
    cli_error("%s: --csv %s: cannot write it: %s", a->cmd, a->csv, strerror(errno));
    return EXIT_OTHER;
  }
  static pf_sim_result r;
  pf_buf rows = {0};
  int rc = play_run(a, &a->c, &r, csv ? &rows : NULL);
  if (csv) {
    bool ok = rc == 0 && fwrite(rows.data, 1, rows.len, csv) == rows.len;
    if (fclose(csv) != 0) ok = false;
    pf_buf_free(&rows);
    if (rc) return rc;
    if (!ok) {
      cli_error("%s: --csv %s: cannot write it: %s", a->cmd, a->csv, strerror(errno));
      return EXIT_OTHER;
    }
  }
  if (rc) return rc;
  if (a->json)
    print_json(&r);
  else
    print_table(&r);
  if (a->html) {
    pf_buf b = {0};
    pf_jw w = {.b = &b};
    pf_sim_write(&w, &r);
    rc = cli_analyze_html(&b, a->html);
    pf_buf_free(&b);
  }
  return rc;
}

int cmd_sim(int argc, char **argv) {
  static sim_args a; /* large (the config's seats); one per process */
  int rc = sim_parse("sim", argc, argv, &a);
  if (rc >= 0) return rc;
  rc = sim_check(&a);
  return rc ? rc : sim_run(&a);
}

int cmd_analyze(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--compare") == 0) return cli_analyze_compare(argc, argv);
  static sim_args a;
  int rc = sim_parse("analyze", argc, argv, &a);
  if (rc >= 0) return rc;
  if (a.vary) return vary_run(&a);
  rc = sim_check(&a);
  return rc ? rc : sim_run(&a);
}

/* ---- merge ---- */

int cmd_merge(int argc, char **argv) {
  static const struct option LONG[] = {{"table", no_argument, 0, 't'}, {"help", no_argument, 0, 'h'}, {0}};
  bool table = false;
  int ch;
  optind = 1;
  opterr = 0;
  while ((ch = getopt_long(argc, argv, "h", LONG, NULL)) != -1) {
    if (ch == 't') {
      table = true;
    } else if (ch == 'h') {
      fputs(MERGE_USAGE, stdout);
      return 0;
    } else {
      return cli_bad("merge: unknown option '%s'; see pilfer merge --help", argv[optind - 1]);
    }
  }
  int n = argc - optind;
  if (n < 1) return cli_bad("merge: give the sim --json result of every shard; see pilfer merge --help");
  pf_sim_result *parts = pf_xcalloc((size_t)n, sizeof *parts);
  pf_error err;
  int rc = 0;
  for (int i = 0; i < n && rc == 0; i++) {
    const char *path = argv[optind + i];
    json_t *j = cli_load_json("merge", path);
    if (j && i == 0 && json_object_get(j, "vary")) { /* the shards of a sweep */
      free(parts);
      rc = cli_vary_merge(j, (const char *const *)argv + optind, n, table);
      json_decref(j);
      return rc;
    }
    if (!j)
      rc = EXIT_BAD_INPUT;
    else if (pf_sim_from_json(j, path, &parts[i], &err) != 0)
      rc = cli_bad("merge: %s", err.msg);
    json_decref(j);
  }
  static pf_sim_result whole;
  if (rc == 0 && pf_sim_merge(parts, n, &whole, &err) != 0) {
    rc = cli_bad("merge: %s", err.msg);
  }
  if (rc == 0) {
    if (table)
      print_table(&whole);
    else
      print_json(&whole);
  }
  free(parts);
  return rc;
}
