/*
 * cli_replay.c - `pilfer replay`: check and replay a game record (SPEC §1, §2).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/view.h"
#include "games/registry.h"

static const char USAGE[] =
    "usage: pilfer replay FILE [--view SEAT|all|public] [--until K] [--json] [--trace]\n"
    "\n"
    "Replays a game record ('-' reads standard input), checking every move and the recorded\n"
    "result, then prints the position.\n"
    "  --view SEAT|all|public\n"
    "                   print what that seat sees (default all: the full state; public: what a\n"
    "                   spectator sees, only what every seat may see)\n"
    "  --until K        stop after K moves\n"
    "  --json           print the view as one JSON object\n"
    "  --trace          print one JSON object per position instead: ply, to_move, legal, move\n"
    "Exit status 2 when the record is malformed or a move is not legal:\n"
    "  pilfer: move K (\"<move>\"): <reason>\n";

/* The scores as the view shows them (game.h, score_hidden): one the viewer may not know (Point-a-Pile's
 * pile variant) is printed "?". */
static void print_scores(const pf_run *run, int seat) {
  json_t *v = pf_view_json(run->game, run->state, run->setup.players, seat);
  json_t *scores = json_object_get(v, "scores");
  printf("Scores:");
  for (int i = 0; i < run->setup.players; i++) {
    json_t *x = json_array_get(scores, (size_t)i);
    if (json_is_integer(x))
      printf(" %lld", (long long)json_integer_value(x));
    else
      printf(" ?");
  }
  putchar('\n');
  json_decref(v);
}

static void print_text(const pf_run *run, int seat, const pf_record *rec) {
  const pf_game *g = run->game;
  pf_style style = cli_style(stdout);
  pf_buf b = {0};
  g->view_text(run->state, seat, &style, &b);
  printf("%s, %d player%s, %d of %d moves replayed\n", g->id, run->setup.players,
         run->setup.players == 1 ? "" : "s", run->nmoves, rec->nmoves);
  fputs(pf_buf_str(&b), stdout);
  pf_buf_free(&b);
  int who = g->to_move(run->state);
  print_scores(run, seat);
  if (who == PF_NOBODY) {
    int w[PF_MAX_PLAYERS], n = g->winners(run->state, w);
    printf("Game over. ");
    if (!n) printf("Nobody wins.\n");
    for (int i = 0; i < n; i++) printf("%sseat %d%s", i ? ", " : "Winner: ", w[i], i == n - 1 ? "\n" : "");
    return;
  }
  char buf[32];
  printf("To move: %s\n", pf_to_move_text(who, buf));
  if (who >= 0 && (seat == PF_VIEW_ALL || seat == who)) {
    pf_buf l = {0};
    pf_legal_text(g, run->state, &l);
    printf("Legal: %s\n", pf_buf_str(&l));
    pf_buf_free(&l);
  }
}

/* --trace: one line per position, the move played from it last (null at the end). */
static int trace(const pf_record *rec) {
  pf_run run;
  pf_error err;
  if (pf_run_start(&run, rec->game, &rec->setup, &err) != 0) return cli_bad("cannot start the game: %s", err.msg);
  int rc = 0;
  pf_buf line = {0};
  for (int ply = 0;; ply++) {
    int who = pf_run_to_move(&run);
    bool more = ply < rec->nmoves;
    pf_buf_clear(&line);
    pf_jw w = {.b = &line};
    pf_jw_open(&w, '{');
    pf_jw_key_int(&w, "ply", ply);
    pf_jw_key(&w, "to_move");
    pf_to_move_write(&w, who);
    pf_jw_key(&w, "legal");
    pf_legal_write(&w, rec->game, run.state);
    pf_jw_key(&w, "move");
    if (more)
      pf_jw_str(&w, rec->moves[ply]);
    else
      pf_jw_null(&w);
    pf_jw_close(&w, '}');
    puts(pf_buf_str(&line));
    if (!more) break;
    if (pf_run_play_text(&run, rec->moves[ply], &err) != 0) {
      rc = cli_bad("move %d (\"%s\"): %s", ply + 1, rec->moves[ply], err.msg);
      break;
    }
  }
  if (rc == 0 && pf_record_check_result(rec, &run, &err) != 0) {
    rc = cli_bad("%s", err.msg);
  }
  pf_buf_free(&line);
  pf_run_free(&run);
  return rc;
}

int cmd_replay(int argc, char **argv) {
  static const struct option LONG[] = {{"view", required_argument, 0, 'v'},
                                       {"until", required_argument, 0, 'u'},
                                       {"json", no_argument, 0, 'j'},
                                       {"trace", no_argument, 0, 't'},
                                       {"help", no_argument, 0, 'h'},
                                       {0}};
  const char *view = "all";
  int until = -1, c;
  bool json = false, tracing = false;
  optind = 1;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "h", LONG, NULL)) != -1) {
    switch (c) {
    case 'v': view = optarg; break;
    case 'u':
      if (cli_parse_count(optarg, &until) != 0)
        return cli_bad("replay: --until needs a number of moves, not '%s'", optarg);
      break;
    case 'j': json = true; break;
    case 't': tracing = true; break;
    case 'h': fputs(USAGE, stdout); return 0;
    default:
      return cli_bad("replay: unknown or incomplete option '%s'; see pilfer replay --help", argv[optind - 1]);
    }
  }
  if (argc - optind != 1) return cli_bad("replay: give exactly one record file; see pilfer replay --help");
  pf_record rec;
  pf_error err;
  if (pf_record_load(argv[optind], &rec, &err) != 0) return cli_bad("%s", err.msg);
  int seat = strcmp(view, "public") == 0 ? PF_VIEW_PUBLIC : PF_VIEW_ALL;
  if (strcmp(view, "all") != 0 && strcmp(view, "public") != 0 &&
      (cli_parse_count(view, &seat) != 0 || seat >= rec.setup.players)) {
    int players = rec.setup.players;
    pf_record_free(&rec);
    return cli_bad("replay: --view takes a seat from 0 to %d, 'all' or 'public', not '%s'", players - 1, view);
  }
  if (tracing) {
    int rc = trace(&rec);
    pf_record_free(&rec);
    return rc;
  }
  pf_run run;
  int rc = 0;
  if (pf_record_replay(&rec, until, &run, NULL, &err) != 0) {
    rc = cli_bad("%s", err.msg);
    if (!run.game) { /* could not even start */
      pf_record_free(&rec);
      return rc;
    }
  } else if (until < 0 && pf_record_check_result(&rec, &run, &err) != 0) {
    rc = cli_bad("%s", err.msg);
  }
  if (rc == 0) {
    if (json) {
      char *s = pf_view_json_text(run.game, run.state, run.setup.players, seat);
      puts(s);
      free(s);
    } else {
      print_text(&run, seat, &rec);
    }
  }
  pf_run_free(&run);
  pf_record_free(&rec);
  return rc;
}
