/*
 * testutil.c - helpers shared by the tests.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tu_deal(pf_deal *d, int ndecks, int jokers, const char *top) {
  pf_card deck[PF_MAX_DEAL];
  int n = pf_deck_standard(deck, ndecks, jokers);
  bool used[PF_MAX_DEAL] = {false};
  d->ncards = 0;
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", top ? top : "");
  for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
    pf_card c;
    if (pf_card_parse(w, &c) != 0) fail_msg("tu_deal: '%s' is not a card", w);
    int i = 0;
    while (i < n && (used[i] || deck[i] != c)) i++;
    if (i == n) fail_msg("tu_deal: no %s left in the deck", w);
    used[i] = true;
    d->cards[d->ncards++] = c;
  }
  for (int i = 0; i < n; i++)
    if (!used[i]) d->cards[d->ncards++] = deck[i];
}

void tu_start(pf_run *r, const char *game, int players, const pf_deal *deal, const char *options) {
  const pf_game *g = pf_game_find(game);
  if (!g) fail_msg("no game %s", game);
  pf_setup s = {.players = players, .seed = 1, .ndeals = deal ? 1 : 0, .deals = deal};
  pf_options_default(g->options, g->noptions, &s.options);
  pf_error err;
  if (options) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", options);
    for (char *save = NULL, *kv = strtok_r(buf, " ", &save); kv; kv = strtok_r(NULL, " ", &save))
      if (pf_option_parse_kv(g->options, g->noptions, kv, &s.options, &err) != 0)
        fail_msg("option %s: %s", kv, err.msg);
  }
  if (pf_run_start(r, g, &s, &err) != 0) fail_msg("start %s: %s", game, err.msg);
}

void tu_play(pf_run *r, const char *move) {
  pf_error err;
  if (pf_run_play_text(r, move, &err) != 0) {
    char *legal = tu_legal(r);
    fail_msg("move '%s' refused: %s (legal: %s)", move, err.msg, legal);
  }
  tu_check(r);
}

void tu_refuse(pf_run *r, const char *move, const char *why) {
  pf_error err;
  int before = r->nmoves;
  if (pf_run_play_text(r, move, &err) == 0) fail_msg("move '%s' was accepted but must be refused", move);
  assert_int_equal(r->nmoves, before);
  if (why && !strstr(err.msg, why)) fail_msg("move '%s' refused with \"%s\", expected it to say \"%s\"", move, err.msg, why);
}

char *tu_legal(const pf_run *r) {
  pf_buf b = {0};
  pf_legal_text(r->game, r->state, &b);
  return b.data ? b.data : pf_xstrdup("");
}

json_t *tu_view(const pf_run *r, int seat) {
  return pf_view_json(r->game, r->state, r->setup.players, seat);
}

void tu_scores(const pf_run *r, int *scores) { r->game->scores(r->state, scores); }

void tu_check(const pf_run *r) {
  pf_error err;
  if (r->game->check(r->state, &err) != 0) fail_msg("invariant check failed: %s", err.msg);
}
