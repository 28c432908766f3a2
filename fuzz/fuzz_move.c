/*
 * fuzz_move.c - move strings (RULINGS G-8, G-9) from untrusted bytes, in reachable positions.
 *
 * The input is read as
 *   byte 0       the game (index in pf_games)
 *   byte 1       the player count, within the game's range
 *   bytes 2-9    the seed (0 to INT64_MAX, as the command line allows)
 *   1 byte per option of the game: its value, from its minimum up (defaults if the game refuses)
 *   1 byte       K, how many moves to play
 *   K bytes      each picks one of the legal moves (chance outcomes are drawn, taking no byte)
 *   the rest     a move string, cut at its first NUL
 * In every position a seat is to move along the way, the legal moves are checked: between 1 and
 * PF_MAX_MOVES, distinct, with distinct canonical ASCII strings that parse back to the same move,
 * lower-cased and upper-cased too. The game's invariant check holds after the start and after
 * every move. In the last position, the move string parses exactly when its lower- and
 * upper-cased forms do, to the same move, which is then legal and whose canonical string parses
 * back to it. The record of the run reads back and replays to the same position. Card notation
 * (G-8) round-trips, and a card read from the move string writes back as a card that reads the
 * same.
 */
#include "fuzz.h"

#include "core/record.h"
#include "games/registry.h"

static void check_state(const pf_run *r, const char *when) {
  pf_error err;
  if (r->game->check(r->state, &err) != 0)
    fuzz_bug("%s, %d players: the invariant check fails %s: %s", r->game->id, r->setup.players,
             when, err.msg);
}

/* `text` reads as the move m, as any move string of the position should. */
static void require_parses_to(const pf_run *r, const char *text, pf_move m, const char *what) {
  pf_move got;
  pf_error err;
  if (r->game->move_parse(r->state, text, &got, &err) != 0)
    fuzz_bug("%s: %s '%s' is refused: %s", r->game->id, what, text, err.msg);
  if (got != m)
    fuzz_bug("%s: %s '%s' reads as move %#x, not %#x", r->game->id, what, text, (unsigned)got,
             (unsigned)m);
}

/* The legal moves of the position: checked as above. Returns their number. */
static int check_legal(const pf_run *r, pf_move *moves) {
  const pf_game *g = r->game;
  int n = g->legal(r->state, moves);
  if (n < 1 || n > PF_MAX_MOVES) fuzz_bug("%s: %d legal moves", g->id, n);
  static char strs[PF_MAX_MOVES][PF_MOVE_STR];
  for (int i = 0; i < n; i++) {
    memset(strs[i], 0x7F, PF_MOVE_STR); /* so that a missing NUL shows */
    g->move_str(r->state, moves[i], strs[i]);
    size_t len = strnlen(strs[i], PF_MOVE_STR);
    if (len == 0 || len == PF_MOVE_STR) fuzz_bug("%s: move %#x has no canonical string", g->id, moves[i]);
    for (size_t k = 0; k < len; k++)
      if ((unsigned char)strs[i][k] >= 0x80 || !isgraph((unsigned char)strs[i][k]))
        fuzz_bug("%s: canonical move '%s' is not printable ASCII", g->id, strs[i]);
    for (int j = 0; j < i; j++) {
      if (moves[j] == moves[i]) fuzz_bug("%s: move %#x is listed twice", g->id, moves[i]);
      if (strcmp(strs[j], strs[i]) == 0)
        fuzz_bug("%s: two legal moves are written '%s'", g->id, strs[i]);
    }
    char cased[PF_MOVE_STR];
    require_parses_to(r, strs[i], moves[i], "the canonical move");
    fuzz_ascii_case(strs[i], cased, sizeof cased, 0);
    require_parses_to(r, cased, moves[i], "the lower-cased canonical move");
    fuzz_ascii_case(strs[i], cased, sizeof cased, 1);
    require_parses_to(r, cased, moves[i], "the upper-cased canonical move");
  }
  return n;
}

/* The fuzzer's move string in the last position (a seat is to move). */
static void check_text(const pf_run *r, const char *text) {
  const pf_game *g = r->game;
  size_t n = strlen(text) + 1;
  char *lower = pf_xmalloc(n), *upper = pf_xmalloc(n);
  fuzz_ascii_case(text, lower, n, 0);
  fuzz_ascii_case(text, upper, n, 1);
  pf_move m, ml, mu;
  pf_error err, el, eu;
  int rc = g->move_parse(r->state, text, &m, &err);
  int rl = g->move_parse(r->state, lower, &ml, &el);
  int ru = g->move_parse(r->state, upper, &mu, &eu);
  if ((rc != 0) != (rl != 0) || (rc != 0) != (ru != 0))
    fuzz_bug("%s: '%s' %s, but lower-cased %s and upper-cased %s", g->id, text,
             rc ? "is refused" : "reads", rl ? "is refused" : "reads", ru ? "is refused" : "reads");
  if (rc != 0) {
    fuzz_require_message(&err, "move_parse");
    fuzz_require_message(&el, "move_parse");
    fuzz_require_message(&eu, "move_parse");
  } else {
    if (ml != m || mu != m)
      fuzz_bug("%s: '%s' reads differently lower-cased or upper-cased", g->id, text);
    pf_move moves[PF_MAX_MOVES];
    int k = g->legal(r->state, moves), i = 0;
    while (i < k && moves[i] != m) i++;
    if (i == k) fuzz_bug("%s: '%s' reads as move %#x, which is not legal", g->id, text, m);
    char canon[PF_MOVE_STR];
    g->move_str(r->state, m, canon);
    require_parses_to(r, canon, m, "the canonical string of a parsed move");
  }
  free(lower);
  free(upper);
}

/* G-8: every card's canonical notation reads back as that card, in the core's notation and in each
 * game's (game-defined codes a notation does not name, written "#<code>", included), and a card
 * read from any text writes as notation that reads the same. */
static void check_card_notation_in(const pf_card_notation *own, const char *text) {
  char s[PF_CARD_STR];
  pf_card c, back;
  const char *p = text;
  if (pf_card_scan_in(own, &p, &c) == 0) {
    if (p <= text || p > text + strlen(text)) fuzz_bug("pf_card_scan moved outside '%s'", text);
    if (pf_card_parse_in(own, pf_card_str_in(own, c, s), &back) != 0 || back != c)
      fuzz_bug("'%s' reads as card %d, written '%s', which does not read back", text, c, s);
  } else if (p != text) {
    fuzz_bug("pf_card_scan failed on '%s' but moved", text);
  }
}

static void check_card_notation(const char *text) {
  static int done;
  char s[PF_CARD_STR];
  pf_card c, back;
  if (!done) {
    for (int code = 0; code <= 255; code++) {
      c = (pf_card)code;
      bool named = pf_card_is_standard(c) || c == PF_CARD_JOKER || c == PF_CARD_SBJ_WILD ||
                   (c >= PF_CARD_SBJ(1) && c <= PF_CARD_SBJ(10)) || c >= PF_CARD_GAME;
      if (!named) continue;
      if (pf_card_parse(pf_card_str(c, s), &back) != 0 || back != c)
        fuzz_bug("card %d is written '%s', which does not read back", code, s);
    }
    done = 1;
  }
  check_card_notation_in(NULL, text);
  for (int i = 0; pf_games[i]; i++)
    if (pf_games[i]->cards) check_card_notation_in(pf_games[i]->cards, text);
}

/* Starts the game the input chooses; falls back to the default options if the game refuses the
 * chosen ones (they may not suit the player count), and requires that those start. */
static void start(pf_run *r, fuzz_input *in) {
  int ngames = 0;
  while (pf_games[ngames]) ngames++;
  const pf_game *g = pf_games[fuzz_byte(in) % ngames];
  pf_setup setup = {0};
  setup.players = g->min_players + fuzz_byte(in) % (g->max_players - g->min_players + 1);
  setup.seed = fuzz_u64(in) & INT64_MAX;
  pf_options_default(g->options, g->noptions, &setup.options);
  pf_setup plain = setup;
  for (int i = 0; i < g->noptions; i++) {
    const pf_option_desc *d = &g->options[i];
    uint64_t span = (uint64_t)(d->max - d->min) + 1;
    uint8_t b = fuzz_byte(in);
    setup.options.v[i] = d->min + (int64_t)(span < 256 ? b % span : b);
  }
  pf_error err;
  if (pf_run_start(r, g, &setup, &err) == 0) return;
  fuzz_require_message(&err, "pf_run_start");
  if (pf_run_start(r, g, &plain, &err) != 0)
    fuzz_bug("%s does not start with %d players and the default options: %s", g->id,
             plain.players, err.msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size, 0};
  pf_run r;
  start(&r, &in);
  const pf_game *g = r.game;
  check_state(&r, "after the start");
  int k = fuzz_byte(&in);
  pf_move moves[PF_MAX_MOVES];
  for (int i = 0; i < k; i++) {
    int who = g->to_move(r.state);
    if (who == PF_NOBODY) break;
    if (who == PF_CHANCE) {
      if (!g->chance_sample) fuzz_bug("%s: a chance node without chance_sample", g->id);
      pf_run_chance(&r);
    } else {
      int n = check_legal(&r, moves);
      pf_run_play(&r, moves[fuzz_byte(&in) % n]);
    }
    char when[64];
    snprintf(when, sizeof when, "after move %d", r.nmoves);
    check_state(&r, when);
  }
  char *text = fuzz_rest_str(&in);
  if (g->to_move(r.state) >= 0) {
    check_legal(&r, moves);
    check_text(&r, text);
  }
  check_card_notation(text);
  fuzz_check_written_record(&r);
  free(text);
  pf_run_free(&r);
  return 0;
}
