/*
 * cli_play.c - `pilfer play`: a game in the terminal, people and bots at the table.
 *
 * The loop: whoever is to move acts (a bot chooses, chance draws, a person is asked); a person
 * sees only their own seat's view, what happened since their last turn, and numbered legal
 * moves, and answers with a number or the move's notation (line editing by libedit). The record
 * is written at the end, and also when the game is abandoned, so nothing is lost.
 */
#include <editline/readline.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bots/bot.h"
#include "cli/cli.h"
#include "core/record.h"
#include "core/view.h"
#include "games/registry.h"

static const char USAGE[] =
    "usage: pilfer play GAME [-p N] [--seat KIND]... [-o KEY=VALUE]... [--seed S] [--deal FILE]\n"
    "                        [--record FILE]\n"
    "\n"
    "Plays GAME in the terminal. Each --seat is 'human' or a bot spec, seat 0 first; without\n"
    "--seat, seat 0 is human and the others greedy.\n"
    "  -p, --players N     number of players (default: the number of --seat, else 2)\n"
    "  -o KEY=VALUE        a game option (see pilfer games)\n"
    "  --seed S            the seed of the deal and of the bots (default: from the clock; printed)\n"
    "  --deal FILE         the deck order(s): a record (its deals are used), a JSON array of cards\n"
    "                      or of deals, or text with one deal per line, top card first\n"
    "  --record FILE       write the game record there (also if the game is abandoned)\n"
    "  --plain             no colours or suit symbols (also when not a terminal, or NO_COLOR)\n"
    "At your turn: a number or a move (7H>p2, s>b1), 'hint' (what the game's strong bot would\n"
    "play), 'help', 'rules', or 'quit'.\n"
    "\n"
    "Bots (a spec is NAME or NAME:KEY=VALUE,...; e.g. ismcts:iters=5000,playout=greedy):\n";

typedef struct table {
  pf_run run;
  const char *seat_spec[PF_MAX_PLAYERS];
  bool human[PF_MAX_PLAYERS];
  pf_bot bot[PF_MAX_PLAYERS];
  int nhumans;
  pf_style style;
  pf_buf log[PF_MAX_PLAYERS]; /* what each human seat has not seen happen yet */
  const char *record_path;
  uint64_t seed;
  pf_bot hint;      /* the ismcts bot that answers 'hint', made at the first one */
  bool hint_ready;
} table;

/* ---- reading deals from --deal, in the notation of the game's cards (own) ---- */

static int deals_from_json(const pf_card_notation *own, json_t *root, pf_deal *deals, int *ndeals, pf_error *err) {
  json_t *list = json_is_object(root) ? json_object_get(root, "deals") : root;
  if (!json_is_array(list)) return pf_fail(err, "expected a record with deals, or an array of cards");
  bool single = json_array_size(list) > 0 && json_is_string(json_array_get(list, 0));
  size_t n = single ? 1 : json_array_size(list);
  if (n > PF_MAX_DEALS) return pf_fail(err, "too many deals (%zu)", n);
  for (size_t k = 0; k < n; k++) {
    json_t *d = single ? list : json_array_get(list, k);
    if (!json_is_array(d) || json_array_size(d) > PF_MAX_DEAL)
      return pf_fail(err, "deal %zu: expected an array of at most %d cards", k + 1, PF_MAX_DEAL);
    deals[k].ncards = (int)json_array_size(d);
    for (size_t i = 0; i < json_array_size(d); i++) {
      const char *s = json_string_value(json_array_get(d, i));
      if (!s || pf_card_parse_in(own, s, &deals[k].cards[i]) != 0)
        return pf_fail(err, "deal %zu, card %zu: not a card", k + 1, i + 1);
    }
  }
  *ndeals = (int)n;
  return 0;
}

static int deals_from_text(const pf_card_notation *own, char *text, pf_deal *deals, int *ndeals, pf_error *err) {
  int n = 0, line = 0;
  for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
    line++;
    if (strspn(l, " \t\r,") == strlen(l)) continue;
    if (n == PF_MAX_DEALS) return pf_fail(err, "too many deals");
    pf_deal *d = &deals[n++];
    d->ncards = 0;
    for (char *s2 = NULL, *w = strtok_r(l, " \t\r,", &s2); w; w = strtok_r(NULL, " \t\r,", &s2)) {
      if (d->ncards == PF_MAX_DEAL) return pf_fail(err, "line %d: too many cards", line);
      if (pf_card_parse_in(own, w, &d->cards[d->ncards++]) != 0)
        return pf_fail(err, "line %d: '%s' is not a card", line, w);
    }
  }
  *ndeals = n;
  return n ? 0 : pf_fail(err, "no cards in it");
}

static int load_deals(const pf_card_notation *own, const char *path, pf_deal *deals, int *ndeals, pf_error *err) {
  pf_buf b = {0};
  if (pf_buf_read_file(&b, path, err) != 0) {
    pf_buf_free(&b);
    pf_error_prefix(err, "--deal");
    return -1;
  }
  const char *s = pf_buf_str(&b);
  s += strspn(s, " \t\r\n");
  int rc;
  if (*s == '{' || *s == '[') {
    json_error_t je;
    json_t *root = json_loads(s, 0, &je);
    rc = root ? deals_from_json(own, root, deals, ndeals, err)
              : pf_fail(err, "line %d column %d: %s", je.line, je.column, je.text);
    json_decref(root);
  } else {
    rc = deals_from_text(own, b.data ? b.data : (char *)"", deals, ndeals, err);
  }
  pf_buf_free(&b);
  if (rc != 0) pf_error_prefix(err, "--deal %s", path);
  return rc;
}

/* ---- the table ---- */

/* Tells every person at the table about a move about to be played, as each of them sees it. */
/* What the game says of a move beyond its notation s (describe, into d): "" when it says no more. */
static const char *beyond_notation(const pf_game *g, const table *t, pf_move m, int seat, const char *s, pf_buf *d) {
  pf_describe(g, t->run.state, m, seat, &t->style, d);
  return strcmp(pf_buf_str(d), s) != 0 ? pf_buf_str(d) : "";
}

static void log_move(table *t, int actor, pf_move m) {
  const pf_game *g = t->run.game;
  char s[PF_MOVE_STR];
  g->move_str(t->run.state, m, s);
  for (int p = 0; p < t->run.setup.players; p++) {
    if (!t->human[p]) continue;
    pf_buf d = {0};
    pf_describe(g, t->run.state, m, p, &t->style, &d);
    if (p == actor)
      pf_buf_printf(&t->log[p], "  you: %s\n", pf_buf_str(&d));
    else
      pf_buf_printf(&t->log[p], "  seat %d (%s): %s\n", actor, t->seat_spec[actor], pf_buf_str(&d));
    pf_buf_free(&d);
  }
}

/* Plays a chance outcome and tells every person at the table about it as each of them may know
 * it (describe_chance); a game without it tells nobody, so that nothing hidden leaks. */
static void chance_turn(table *t) {
  const pf_game *g = t->run.game;
  if (!g->describe_chance || !t->nhumans) { /* nothing to tell: no copy of the state needed */
    pf_run_chance(&t->run);
    return;
  }
  void *before = pf_xmalloc(g->state_size);
  memcpy(before, t->run.state, g->state_size);
  pf_run_chance(&t->run);
  for (int p = 0; p < t->run.setup.players; p++) {
    if (!t->human[p]) continue;
    pf_buf d = {0};
    pf_describe_chance(g, before, t->run.moves[t->run.nmoves - 1], p, &t->style, &d);
    if (d.len) pf_buf_printf(&t->log[p], "  %s\n", pf_buf_str(&d));
    pf_buf_free(&d);
  }
  free(before);
}

/* The scores as the seat's view shows them (a score the seat may not know, as in Point-a-Pile's
 * pile variant, is null there and printed "?"); viewer -1: everyone's, after the game. */
static void print_scores(table *t, int viewer) {
  json_t *v = pf_view_json(t->run.game, t->run.state, t->run.setup.players, viewer < 0 ? PF_VIEW_ALL : viewer);
  json_t *scores = json_object_get(v, "scores");
  printf("Scores:");
  for (int p = 0; p < t->run.setup.players; p++) {
    json_t *x = json_array_get(scores, (size_t)p);
    printf(" seat %d%s ", p, p == viewer ? " (you)" : "");
    if (json_is_integer(x))
      printf("%lld", (long long)json_integer_value(x));
    else
      printf("?");
    printf("%s", p + 1 < t->run.setup.players ? ";" : "\n");
  }
  json_decref(v);
}

static void save_record(table *t) {
  if (!t->record_path) return;
  pf_error err;
  if (pf_record_save(&t->run, t->record_path, &err) != 0)
    cli_error("%s", err.msg);
  else
    printf("Record written to %s (replay it with: pilfer replay %s)\n", t->record_path, t->record_path);
}

/* Reads one line; NULL at end of input. Uses libedit when standard input is a terminal. */
static char *read_line(const char *prompt) {
  if (isatty(STDIN_FILENO)) {
    char *l = readline(prompt);
    if (l && *l) add_history(l);
    return l;
  }
  fputs(prompt, stdout);
  fflush(stdout);
  char *line = NULL;
  size_t cap = 0;
  ssize_t n = getline(&line, &cap, stdin);
  if (n < 0) {
    free(line);
    return NULL;
  }
  line[strcspn(line, "\r\n")] = '\0';
  if (!isatty(STDOUT_FILENO)) puts(line); /* a transcript shows the answer too */
  return line;
}

/* More legal moves than this are listed compactly (a hand of cards times a castle of piles). */
#define MOVES_IN_FULL 24

/* The numbered legal moves, each with what it does; or, when there are many and `full` is not
 * asked for, compactly: moves that share their part up to '>' ("4C>") on one line, with the
 * number and the rest of each ("1 c1  2 d1 ..."). */
static void show_moves(table *t, int seat, const pf_move *moves, int n, bool full) {
  const pf_game *g = t->run.game;
  bool compact = !full && n > MOVES_IN_FULL;
  printf(compact ? "Your moves (type the number or the move; 'moves' says what each does):\n" : "Your moves:\n");
  char prev[PF_MOVE_STR] = "";
  int col = 0;
  for (int i = 0; i < n; i++) {
    char s[PF_MOVE_STR];
    g->move_str(t->run.state, moves[i], s);
    const char *gt = strchr(s, '>');
    if (compact && gt) {
      int len = (int)(gt - s) + 1;
      if (strncmp(prev, s, (size_t)len) != 0 || prev[len - 1] != '>')
        col = printf("%s  %-5.*s", i ? "\n" : "", len, s) - (i > 0);
      if (col + 8 > 80) col = printf("\n%7s", "") - 1; /* wrap, under the first entry */
      col += printf(" %3d %-3s", i + 1, gt + 1);
      snprintf(prev, sizeof prev, "%s", s);
      continue;
    }
    if (compact && prev[0]) printf("\n");
    prev[0] = '\0';
    pf_buf d = {0};
    printf("  %2d) %-10s %s\n", i + 1, s, beyond_notation(g, t, moves[i], seat, s, &d));
    pf_buf_free(&d);
  }
  if (prev[0]) printf("\n");
}

/* 'hint': the move the game's strong bot (pf_game_strong_bot, the lobby's "Strong bot" and the
 * server's hint) would play for the person at `seat`. It is a bot like the others: it sees only
 * what the seat sees. */
static void give_hint(table *t, int seat, const pf_move *moves, int n) {
  const pf_game *g = t->run.game;
  pf_error err;
  if (!t->hint_ready) {
    if (pf_bot_init(&t->hint, pf_game_strong_bot(g), t->run.setup.players, t->seed, PF_MAX_PLAYERS + seat, &err) != 0) {
      printf("No hint: %s\n", err.msg);
      return;
    }
    t->hint_ready = true;
  }
  pf_move m = pf_bot_choose(&t->hint, g, t->run.state);
  int k = 0;
  while (k < n && moves[k] != m) k++;
  char s[PF_MOVE_STR];
  g->move_str(t->run.state, m, s);
  pf_buf d = {0};
  const char *told = beyond_notation(g, t, m, seat, s, &d);
  printf("Hint: %d) %s%s%s (%s, %ld iterations)\n", k + 1, s, *told ? ": " : "", told, pf_game_strong_bot(g),
         t->hint.stats.iterations);
  pf_buf_free(&d);
}

enum { TURN_PLAYED, TURN_QUIT };

/* Asks the person at `seat` for a move until they give a legal one or quit. */
static int human_turn(table *t, int seat) {
  const pf_game *g = t->run.game;
  if (t->nhumans > 1) {
    printf("\n== Seat %d's turn: pass the terminal to seat %d and press Enter ==", seat, seat);
    fflush(stdout);
    char *l = read_line(" ");
    if (!l) return TURN_QUIT;
    free(l);
    if (isatty(STDOUT_FILENO)) fputs("\x1b[2J\x1b[H", stdout); /* hide the last player's hand */
  }
  printf("\n────────────────────────────────────────────────────────────\n");
  if (t->log[seat].len) {
    printf("Since your last turn:\n%s", pf_buf_str(&t->log[seat]));
    pf_buf_clear(&t->log[seat]);
  }
  pf_buf v = {0};
  g->view_text(t->run.state, seat, &t->style, &v);
  fputs(pf_buf_str(&v), stdout);
  pf_buf_free(&v);
  print_scores(t, seat);
  pf_move moves[PF_MAX_MOVES];
  int n = g->legal(t->run.state, moves);
  show_moves(t, seat, moves, n, false);
  pf_move m;
  for (;;) {
    char prompt[64];
    snprintf(prompt, sizeof prompt, "seat %d, your move [1-%d, a move, hint, help, quit]> ", seat, n);
    char *line = read_line(prompt);
    if (!line) return TURN_QUIT;
    char *s = line + strspn(line, " \t");
    while (*s && (s[strlen(s) - 1] == ' ' || s[strlen(s) - 1] == '\t')) s[strlen(s) - 1] = '\0';
    pf_error err;
    int k;
    if (*s == '\0') {
      free(line);
      continue;
    }
    if (strcmp(s, "quit") == 0 || strcmp(s, "q") == 0) {
      free(line);
      return TURN_QUIT;
    }
    if (strcmp(s, "help") == 0 || strcmp(s, "?") == 0) {
      printf("Type the number of a move, or the move itself as listed (any case; cards also as the\n"
             "rules allow: 10 for T, suit symbols). 'moves' lists them again with what each does,\n"
             "'hint' asks the game's strong bot what it would play in your place (it sees only what\n"
             "you see), 'rules' prints the rules, 'quit' abandons the game (the record is still\n"
             "written).\n");
    } else if (strcmp(s, "hint") == 0) {
      give_hint(t, seat, moves, n);
    } else if (strcmp(s, "rules") == 0) {
      cli_print_rules(g, stdout);
    } else if (strcmp(s, "moves") == 0) {
      show_moves(t, seat, moves, n, true);
    } else if (cli_parse_count(s, &k) == 0) {
      if (k >= 1 && k <= n) {
        m = moves[k - 1];
        free(line);
        goto play;
      }
      printf("There is no move %d: choose 1 to %d.\n", k, n);
    } else if (g->move_parse(t->run.state, s, &m, &err) == 0) {
      free(line);
      goto play;
    } else {
      printf("Not a legal move: %s\n", err.msg);
    }
    free(line);
  }
play:
  log_move(t, seat, m);
  pf_run_play(&t->run, m);
  return TURN_PLAYED;
}

static void bot_turn(table *t, int seat) {
  pf_move m = pf_bot_choose(&t->bot[seat], t->run.game, t->run.state);
  log_move(t, seat, m);
  pf_run_play(&t->run, m);
}

static void game_over(table *t) {
  const pf_game *g = t->run.game;
  printf("\n════════════════════════════════════════════════════════════\nGame over.\n");
  for (int p = 0; p < t->run.setup.players; p++)
    if (t->human[p] && t->log[p].len) {
      printf("The last moves:\n%s", pf_buf_str(&t->log[p]));
      break;
    }
  pf_buf v = {0};
  g->view_text(t->run.state, PF_VIEW_ALL, &t->style, &v);
  fputs(pf_buf_str(&v), stdout);
  pf_buf_free(&v);
  /* What the end did, as the view's end events tell it (docs/views.md, "End events"). */
  json_t *view = pf_view_json(g, t->run.state, t->run.setup.players, PF_VIEW_PUBLIC);
  json_t *end = json_object_get(view, "end");
  for (size_t i = 0; i < json_array_size(end); i++)
    printf("%s%s\n", i ? "" : "How it ended:\n", json_string_value(json_object_get(json_array_get(end, i), "text")));
  json_decref(view);
  print_scores(t, -1);
  int w[PF_MAX_PLAYERS], n = g->winners(t->run.state, w);
  if (n == 0) printf("Nobody wins.\n");
  for (int i = 0; i < n; i++)
    printf("%sseat %d (%s)%s", i ? ", " : (n > 1 ? "Shared win: " : "Winner: "), w[i], t->seat_spec[w[i]],
           i == n - 1 ? "\n" : "");
}

/* Releases the bots of the first n seats and the hint's. */
static void free_bots(table *t, int n) {
  for (int p = 0; p < n; p++)
    if (!t->human[p]) pf_bot_free(&t->bot[p]);
  if (t->hint_ready) pf_bot_free(&t->hint);
}

static int play_loop(table *t) {
  for (;;) {
    int who = pf_run_to_move(&t->run);
    if (who == PF_NOBODY) {
      game_over(t);
      save_record(t);
      return 0;
    }
    if (who == PF_CHANCE) {
      chance_turn(t);
    } else if (!t->human[who]) {
      bot_turn(t, who);
    } else if (human_turn(t, who) == TURN_QUIT) {
      printf("\nGame abandoned after %d moves.\n", t->run.nmoves);
      save_record(t);
      return 0;
    }
  }
}

/* What `pilfer play` was asked. */
typedef struct play_args {
  const char *game, *opts[64], *seats[PF_MAX_PLAYERS], *deal_path, *record_path;
  int nopts, nseats, players;
  uint64_t seed;
  bool plain;
} play_args;

/* Reads the flags into a; returns -1 to go on, or the exit status (help: 0; a bad flag: 2). */
static int play_parse(int argc, char **argv, play_args *a) {
  static const struct option LONG[] = {
      {"players", required_argument, 0, 'p'}, {"seat", required_argument, 0, 's'},
      {"option", required_argument, 0, 'o'},  {"seed", required_argument, 0, 'S'},
      {"deal", required_argument, 0, 'd'},    {"record", required_argument, 0, 'r'},
      {"plain", no_argument, 0, 'P'},         {"help", no_argument, 0, 'h'},
      {0}};
  int c;
  memset(a, 0, sizeof *a);
  a->seed = ((uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20)) & INT64_MAX;
  optind = 1;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "p:o:h", LONG, NULL)) != -1) {
    switch (c) {
    case 'p':
      if (cli_parse_count(optarg, &a->players) != 0 || a->players < 1)
        return cli_bad("play: -p needs a number of players, not '%s'", optarg);
      break;
    case 's':
      if (a->nseats == PF_MAX_PLAYERS) return cli_bad("play: at most %d seats", PF_MAX_PLAYERS);
      a->seats[a->nseats++] = optarg;
      break;
    case 'o':
      if (a->nopts == 64) return cli_bad("play: too many -o options");
      a->opts[a->nopts++] = optarg;
      break;
    case 'S':
      if (cli_parse_seed(optarg, &a->seed) != 0)
        return cli_bad("play: --seed needs an integer from 0 to 9223372036854775807, not '%s'", optarg);
      break;
    case 'd': a->deal_path = optarg; break;
    case 'r': a->record_path = optarg; break;
    case 'P': a->plain = true; break;
    case 'h': return cli_usage_with_bots(USAGE);
    default: return cli_bad("play: unknown or incomplete option '%s'; see pilfer play --help", argv[optind - 1]);
    }
  }
  if (argc - optind != 1) return cli_bad("play: give exactly one game; see pilfer play --help");
  a->game = argv[optind];
  return -1;
}

/* Checks what was asked and sets the table: the game, its players, options and deals, a person or
 * a bot at every seat, and the game started. Returns 0, or the exit status after saying what is
 * wrong (the table then holds nothing to free). */
static int play_check(const play_args *a, table *t) {
  pf_error err;
  const pf_game *g = cli_game(a->game);
  if (!g) return EXIT_BAD_INPUT;
  int players = a->players ? a->players : a->nseats ? a->nseats : g->min_players > 2 ? g->min_players : 2;
  if (pf_check_players(g, players, &err) != 0) return cli_bad("play: %s", err.msg);
  if (a->nseats && a->nseats != players)
    return cli_bad("play: %d players but %d --seat given; give one --seat per player, or none", players, a->nseats);
  pf_setup setup = {.players = players, .seed = a->seed};
  if (cli_options("play", g, a->opts, a->nopts, &setup.options) != 0) return EXIT_BAD_INPUT;
  static pf_deal deals[PF_MAX_DEALS];
  if (a->deal_path && load_deals(g->cards, a->deal_path, deals, &setup.ndeals, &err) != 0) return cli_bad("play: %s", err.msg);
  setup.deals = deals;
  memset(t, 0, sizeof *t);
  t->seed = a->seed;
  t->record_path = a->record_path;
  t->style = a->plain ? (pf_style){0} : cli_style(stdout);
  for (int p = 0; p < players; p++) {
    t->seat_spec[p] = a->nseats ? a->seats[p] : p == 0 ? "human" : "greedy";
    if (strcmp(t->seat_spec[p], "human") == 0) {
      t->human[p] = true;
      t->nhumans++;
    } else if (pf_bot_init(&t->bot[p], t->seat_spec[p], players, a->seed, p, &err) != 0) {
      bool unknown = strncmp(err.msg, "unknown bot", 11) == 0;
      free_bots(t, p);
      return cli_bad("play: seat %d: %s%s", p, err.msg, unknown ? " (or human)" : "");
    }
  }
  if (pf_run_start(&t->run, g, &setup, &err) != 0) {
    free_bots(t, players);
    return cli_bad("play: %s", err.msg);
  }
  return 0;
}

/* Plays the table's game to its end (or until a person quits), then frees the table. */
static int play_run(table *t) {
  const pf_game *g = t->run.game;
  int players = t->run.setup.players;
  printf("%s, %d player%s, seed %llu.", g->title, players, players == 1 ? "" : "s", (unsigned long long)t->seed);
  for (int p = 0; p < players; p++) printf(" Seat %d: %s.", p, t->seat_spec[p]);
  printf("\nType 'help' at your turn for help.\n");
  int rc = play_loop(t);
  for (int p = 0; p < players; p++) pf_buf_free(&t->log[p]);
  free_bots(t, players);
  pf_run_free(&t->run);
  return rc;
}

int cmd_play(int argc, char **argv) {
  static play_args a;
  static table t; /* large; one per process */
  int rc = play_parse(argc, argv, &a);
  if (rc >= 0) return rc;
  rc = play_check(&a, &t);
  return rc ? rc : play_run(&t);
}
