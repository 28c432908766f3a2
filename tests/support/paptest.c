/*
 * paptest.c - the helpers of Point-a-Pile's tests (paptest.h): fixed decks, moves, phases.
 */
#include "paptest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A card in the game's notation (cards.h), which the core reads through pf_card_parse_in. */
int pap_parse(const char *text, pf_card *c) { return pf_card_parse_in(&pf_pap_notation, text, c); }
char *pap_str(pf_card c, char *buf) { return pf_card_str_in(&pf_pap_notation, c, buf); }

/* Is option `name` true in "key=value ..." options? */
bool opt_on(const char *options, const char *name) {
  char want[32];
  snprintf(want, sizeof want, "%s=true", name);
  return options && strstr(options, want);
}

/* A full deck for the expansions switched on in `options` (PAP-1, PAP-9): the cards written come
 * first (top card first); then the regular cards not written, as textless fillers; then, at the
 * bottom, where short tests never draw them, the expansions' cards not written (fillers R:P1,
 * R:T1, R:A15). Fillers take colours the pool of the deck's size still has room for, cycling from
 * purple (54 cards: 17 red, 17 green, 11 blue, 11 purple). */
void exp_deal(pf_deal *d, const char *top, const char *options) {
  static const char *const FILLER[] = {"R:P1", "R:T1", "R:A15"};
  int want[4] = {NCARDS, opt_on(options, "police") ? 15 : 0, opt_on(options, "shy") ? 15 : 0,
                 opt_on(options, "actions") ? 20 : 0};
  int n = want[0] + want[1] + want[2] + want[3];
  int room[PF_PAP_COLOURS] = {(3 * n + 9) / 10, (3 * n + 9) / 10, (2 * n + 9) / 10, (2 * n + 9) / 10};
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", top);
  d->ncards = 0;
  for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
    pf_card c;
    if (pap_parse(w, &c) != 0 || !pf_pap_valid(c)) fail_msg("'%s' is not a Point-a-Pile card", w);
    if (room[pf_pap_colour(c)]-- == 0) fail_msg("exp_deal: too many %s cards", pf_pap_colour_name(pf_pap_colour(c)));
    int t = pf_pap_type(c), f = t == PF_PAP_RULE ? 1 : t == PF_PAP_SHY ? 2 : t == PF_PAP_ACTION ? 3 : 0;
    if (want[f]-- == 0) fail_msg("exp_deal: too many cards like %s for options %s", w, options ? options : "-");
    d->cards[d->ncards++] = c;
  }
  int col = PF_PAP_PURPLE;
  for (int f = 0; f < 4; f++)
    while (want[f] > 0) {
      while (room[col] == 0) col = (col + 1) % PF_PAP_COLOURS;
      pf_card c = pf_pap_make(col, PF_PAP_COLOR, 0, 0, 0);
      if (f > 0) pap_parse(FILLER[f - 1], &c), c = (pf_card)((c & ~(3 << 12)) | col << 12);
      room[col]--;
      want[f]--;
      d->cards[d->ncards++] = c;
      col = (col + 1) % PF_PAP_COLOURS;
    }
}

void start_pap(pf_run *r, int players, const char *top, const char *options) {
  pf_deal d;
  exp_deal(&d, top, options);
  tu_start(r, "point-a-pile", players, &d, options);
}

/* As start_pap, with missions: the mission deck deals `missions` (seat 0's first), then M8s. */
void start_missions(pf_run *r, int players, const char *top, const char *missions, const char *options) {
  pf_deal d[2];
  exp_deal(&d[0], top, options);
  char buf[256];
  snprintf(buf, sizeof buf, "%s", missions);
  d[1].ncards = 0;
  for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
    if (pap_parse(w, &d[1].cards[d[1].ncards++]) != 0) fail_msg("'%s' is not a card", w);
  while (d[1].ncards < 12) pap_parse("M8", &d[1].cards[d[1].ncards++]);
  tu_start_deals(r, "point-a-pile", players, d, 2, options);
}

/* Plays moves separated by spaces. */
void play(pf_run *r, const char *moves) {
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", moves);
  for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) tu_play(r, w);
}

/* The view's phase: place, point, actions, rock-paper-scissors, give, over. */
bool in_phase(const pf_run *r, const char *phase) {
  json_t *v, *x = tu_view_path(r, PF_VIEW_ALL, "phase", &v);
  bool same = json_is_string(x) && strcmp(json_string_value(x), phase) == 0;
  json_decref(v);
  return same;
}

/* Everyone asked whether to use an action passes, until the game asks for something else. */
void pass_actions(pf_run *r) {
  while (in_phase(r, "actions")) tu_play(r, "pass");
}

/* The Headpointer puts every card still to place on pile 1, in draw order. */
void place_all(pf_run *r) {
  while (in_phase(r, "place")) {
    char *legal = tu_legal(r);
    char first[16], move[32];
    sscanf(legal, "%15s", first);
    first[strcspn(first, ">")] = '\0';
    snprintf(move, sizeof move, "%s>1", first);
    free(legal);
    tu_play(r, move);
  }
}

/* The Headpointer puts every drawn card of the round on pile 1, in draw order; `taker` points at
 * it and everyone else taps empty space; everyone passes when asked for an action, to the end of
 * the round. */
void give_all(pf_run *r, int taker) {
  int round = tu_view_int(r, "round");
  pass_actions(r);
  place_all(r);
  pass_actions(r);
  while (in_phase(r, "point")) tu_play(r, pf_run_to_move(r) == taker ? "@1" : "@empty");
  while (in_phase(r, "actions") && tu_view_int(r, "round") == round) tu_play(r, "pass");
}

char *view_text_of(const pf_run *r, int seat) { return pf_view_json_text(r->game, r->state, r->setup.players, seat); }

void expect_card(const char *text, const char *canonical) { tu_expect_card(&pf_pap_notation, text, canonical); }
