/*
 * test_digest.c - pinned behaviour: fixed random games of every registered game, at every player
 * count and option variant (tu_option_variants), each reduced to a digest of its deals, move
 * strings and result, compared with the committed table tests/digests.txt.
 *
 * Any change of behaviour (a rule, the move order, notation, the deal, the generator) changes a
 * digest and fails this test, naming the game, player count and options. Updating the table is a
 * deliberate act, in the commit that changes behaviour and says its new `Bench: N` line:
 *
 *     scripts/build && build/tests/test_digest --write tests/digests.txt
 *
 * test_digest TABLE checks against TABLE (ctest passes tests/digests.txt); --write TABLE rewrites
 * it from the games as they play now.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define GAMES_PER_ROW 8 /* random games, seeds 1..8, folded into each row's digest */
#define MAX_ROWS 512

typedef struct row {
  char key[256]; /* "thief 4 hands=1": game, players, the options that differ from the defaults */
  uint64_t digest;
} row;

/* FNV-1a, 64 bits, over a string and its terminating NUL (so "ab","c" differs from "a","bc"). */
static uint64_t fold(uint64_t h, const char *s) {
  do {
    h ^= (unsigned char)*s;
    h *= 0x100000001b3u;
  } while (*s++);
  return h;
}

static uint64_t fold_int(uint64_t h, long long v) {
  char s[24];
  snprintf(s, sizeof s, "%lld", v);
  return fold(h, s);
}

/* "-" for the defaults, else every option that differs: "pile=true shy=true". */
static void options_text(const pf_game *g, const pf_options *o, char *buf, size_t n) {
  pf_options def;
  pf_options_default(g->options, g->noptions, &def);
  size_t len = 0;
  buf[0] = '\0';
  for (int i = 0; i < g->noptions; i++) {
    const pf_option_desc *d = &g->options[i];
    if (o->v[i] == def.v[i]) continue;
    if (d->type == PF_OPT_BOOL)
      len += (size_t)snprintf(buf + len, n - len, "%s%s=%s", len ? "," : "", d->name, o->v[i] ? "true" : "false");
    else
      len += (size_t)snprintf(buf + len, n - len, "%s%s=%" PRId64, len ? "," : "", d->name, o->v[i]);
  }
  if (!len) snprintf(buf, n, "-");
}

/* One random game to its end, seat moves drawn by rng, chance from the game's own generator, folded
 * into *h: every deal's cards, every move's canonical string, the scores and the winners. Fails
 * when the game refuses to start with these options (a variant the player count does not take). */
static int fold_game(uint64_t *h, const pf_game *g, int players, const pf_options *o, uint64_t seed) {
  pf_setup setup = {.players = players, .options = *o, .seed = seed};
  pf_run run;
  pf_error err;
  if (pf_run_start(&run, g, &setup, &err) != 0) return -1;
  pf_rng rng;
  pf_rng_seed(&rng, seed, (uint64_t)players);
  pf_move moves[PF_MAX_MOVES];
  for (int who; (who = pf_run_to_move(&run)) != PF_NOBODY;) {
    if (who == PF_CHANCE) {
      pf_run_chance(&run);
      continue;
    }
    int n = g->legal(run.state, moves);
    pf_run_play(&run, moves[pf_rng_below(&rng, (uint32_t)n)]);
  }
  for (int k = 0; k < run.ndeals; k++)
    for (int i = 0; i < run.deals[k].ncards; i++) {
      char c[PF_CARD_STR];
      *h = fold(*h, pf_card_str_in(g->cards, run.deals[k].cards[i], c));
    }
  for (int i = 0; i < run.nmoves; i++) *h = fold(*h, run.moves[i]);
  int scores[PF_MAX_PLAYERS], winners[PF_MAX_PLAYERS];
  g->scores(run.state, scores);
  for (int p = 0; p < players; p++) *h = fold_int(*h, scores[p]);
  int nw = g->winners(run.state, winners);
  for (int i = 0; i < nw; i++) *h = fold_int(*h, winners[i]);
  pf_run_free(&run);
  return 0;
}

/* Every row, in registry order: each game, player count and option variant it starts with (the
 * defaults always). */
static int play_rows(row *rows) {
  int n = 0;
  for (int gi = 0; pf_games[gi]; gi++) {
    const pf_game *g = pf_games[gi];
    for (int p = g->min_players; p <= g->max_players; p++) {
      pf_options variants[TU_MAX_VARIANTS];
      int nv = tu_option_variants(g, p, variants);
      for (int v = 0; v < nv; v++) {
        char opts[128];
        options_text(g, &variants[v], opts, sizeof opts);
        assert_true(n < MAX_ROWS);
        snprintf(rows[n].key, sizeof rows[n].key, "%s %d %s", g->id, p, opts);
        uint64_t h = 0xcbf29ce484222325u;
        int started = 0;
        for (uint64_t seed = 1; seed <= GAMES_PER_ROW; seed++) started += fold_game(&h, g, p, &variants[v], seed) == 0;
        if (v == 0 && started != GAMES_PER_ROW) fail_msg("%s does not start with %d players and its defaults", g->id, p);
        if (started == GAMES_PER_ROW) rows[n++].digest = h;
      }
    }
  }
  return n;
}

/* The table's rows: "game players options digest" lines, '#' lines are comments. */
static int read_table(const char *path, row *rows) {
  FILE *f = fopen(path, "r");
  if (!f) fail_msg("cannot read %s", path);
  char line[256], game[64], opts[128];
  int n = 0, players, lineno = 0;
  uint64_t d;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    if (line[0] == '#' || line[0] == '\n') continue;
    if (sscanf(line, "%63s %d %127s %" SCNx64, game, &players, opts, &d) != 4 || n == MAX_ROWS)
      fail_msg("%s:%d: expected 'game players options digest'", path, lineno);
    snprintf(rows[n].key, sizeof rows[n].key, "%s %d %s", game, players, opts);
    rows[n++].digest = d;
  }
  fclose(f);
  return n;
}

static const char *table_path;
static row played[MAX_ROWS], pinned[MAX_ROWS];

/* Every game plays as the table says: each row's digest equal, no row missing or left over. */
static void test_digests_match_the_table(void **unused) {
  (void)unused;
  int np = play_rows(played), nt = read_table(table_path, pinned), bad = 0;
  for (int i = 0; i < np; i++) {
    int j = 0;
    while (j < nt && strcmp(pinned[j].key, played[i].key) != 0) j++;
    if (j == nt) {
      print_error("%s: not in the table\n", played[i].key);
      bad++;
    } else if (pinned[j].digest != played[i].digest) {
      print_error("%s: plays as %016" PRIx64 ", the table says %016" PRIx64 "\n", played[i].key, played[i].digest,
                  pinned[j].digest);
      bad++;
    }
  }
  for (int j = 0; j < nt; j++) {
    int i = 0;
    while (i < np && strcmp(pinned[j].key, played[i].key) != 0) i++;
    if (i == np) print_error("%s: in the table but no longer played\n", pinned[j].key), bad++;
  }
  if (bad)
    fail_msg("%d of %d rows differ from %s: behaviour changed. If on purpose, regenerate the table with "
             "'build/tests/test_digest --write tests/digests.txt' in the commit that changes it, with its "
             "'Bench: N' line",
             bad, np, table_path);
}

static int write_table(const char *path) {
  int n = play_rows(played);
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "test_digest: cannot write %s\n", path);
    return 1;
  }
  fprintf(f, "# tests/digests.txt: the digest of %d random games of every game, player count and option\n"
             "# variant (tests/test_digest.c). Regenerate it only in a commit that changes behaviour:\n"
             "#     scripts/build && build/tests/test_digest --write tests/digests.txt\n"
             "# game players options digest\n",
          GAMES_PER_ROW);
  for (int i = 0; i < n; i++) fprintf(f, "%s %016" PRIx64 "\n", played[i].key, played[i].digest);
  fclose(f);
  printf("test_digest: wrote %d rows to %s\n", n, path);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--write") == 0) return write_table(argv[2]);
  if (argc != 2) {
    fprintf(stderr, "usage: test_digest TABLE | test_digest --write TABLE\n");
    return 2;
  }
  table_path = argv[1];
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_digests_match_the_table)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
