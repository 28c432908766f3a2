/*
 * actions.c - Point-a-Pile's Action cards (PAP-9 actions): what each may do now, the windows
 * that offer them, and what using one does.
 */
#include "games/point_a_pile/pap.h"

#include <string.h>

const pap_act PAP_ACTS[PF_PAP_ACTIONS + 1] = {
    [PF_PAP_SWAP] = {"swap", W_REVEAL, 'w', "swaps the contents of two piles of the level"},
    [PF_PAP_STEAL] = {"steal", W_REVEAL, 'c', "takes one card from a pile of the level you did not point at"},
    [PF_PAP_HEADPOINTER] = {"headpointer", W_POINT, 0, "makes you the Headpointer (if you are not)"},
    [PF_PAP_DISCARD] = {"discard", W_POINT, 's', "discards a scored card you can see (not the Discard card itself)"},
    [PF_PAP_RANDOM] = {"random", W_REVEAL, 'p', "settles a contested pile you point at by rock-paper-scissors"},
    [PF_PAP_MERGE] = {"merge", W_POINT, 'o', "puts one pile on another (leaving a pile without a Shy card on top)"},
    [PF_PAP_SWITCH] = {"switch", W_POINT, 's', "takes another player's card you can see, for one of yours"},
    [PF_PAP_REORDER] = {"reorder", W_POINT, 'r', "moves another of your cards to the end of your row"},
    [PF_PAP_TAKE_ALL] = {"takeall", W_REVEAL, 'p', "wins a contested pile you point at"},
    [PF_PAP_TAKE_NONE] = {"takenone", W_REVEAL, 'p', "discards a contested pile"},
    [PF_PAP_REDO] = {"redo", W_REVEAL, 0, "has the round's piles made anew (only after the round's first reveal)"},
    [PF_PAP_CHANGE_MIND] = {"mind", W_REVEAL, 'm', "points you at another pile or empty space, as the rules allow"},
    [PF_PAP_DRAW_MORE] = {"drawmore", W_DRAW, 0, "has the Headpointer draw 6 more cards (if the deck has more)"},
    [PF_PAP_COLOR_STOP] = {"colorstop", W_POINT, 'k', "removes the cards of a colour from the piles (not all)"},
    [PF_PAP_ACTION_STOP] = {"actionstop", W_POINT, 0, "stops all actions for the rest of the round"},
    [PF_PAP_TRADE] = {"trade", W_REVEAL, 'p',
                      "wins a contested pile you point at for one scored card to each other player"},
};

const char *const PAP_WINDOW_NAMES[] = {"", "before the piles are made", "before pointing", "after the reveal"};
const char *const PAP_THROWS[] = {"rock", "paper", "scissors"};

/* The position in seat's row of its first Action card of this kind, or -1. */
int pap_action_pos(const pap_state *s, int seat, int kind) {
  for (int i = 0; i < s->row_len[seat]; i++)
    if (is_action(row_card(s, seat, i), kind)) return i;
  return -1;
}

/* May `viewer` see the i-th card of p's row? PAP-8: with `pile`, the others see only its top. */
static bool card_visible(const pap_state *s, int viewer, int p, int i) {
  return !s->pile_variant || viewer == p || i == s->row_len[p] - 1;
}

/* Draw More: does the deck hold more cards than the Headpointer draws now? */
static bool draw_more_left(const pap_state *s) {
  return s->ncards - s->next_slot > 2 * s->players + DRAW_MORE * s->ndrawmore;
}

static int add(pf_move *moves, int n, int kind, int a, int b) {
  moves[n] = MOVE(MV_ACT + kind, a, b);
  return n + 1;
}

/* Does Color Stop of colour col leave a card on the level-0 piles, and (shy) a pile whose new top
 * is not a Shy card? */
static bool color_stop_ok(const pap_state *s, int col) {
  bool left = false, plain = !s->shy, shown = false;
  for (int p = 0; p < s->npiles[0]; p++) {
    uint8_t ks[MAX_DRAW];
    int n = pap_pile_cards(s, 0, p, ks), top = -1;
    for (int i = 0; i < n; i++) {
      if (pf_pap_colour(drawn(s, ks[i])) == col)
        shown = true;
      else
        top = ks[i];
    }
    left |= top >= 0;
    if (top >= 0 && !is_shy(drawn(s, top))) plain = true;
  }
  return shown && left && plain;
}

/* The uses of action `kind` open to `seat` now (it holds the card at row position ap), appended
 * to moves[n..]; returns the new count. */
int pap_action_targets(const pap_state *s, int seat, int kind, int ap, pf_move *moves, int n) {
  int l = top_level(s), np = l >= 0 ? s->npiles[l] : 0, mine = l >= 0 ? s->choice[l][seat] : UNCHOSEN;
  bool points = l >= 0 && (s->pointers[l] >> seat & 1) && !(s->voided[l] >> seat & 1) && mine != EMPTY;
  switch (kind) {
  case PF_PAP_DRAW_MORE: return draw_more_left(s) ? add(moves, n, kind, 0, 0) : n;
  case PF_PAP_HEADPOINTER: return seat != s->head ? add(moves, n, kind, 0, 0) : n;
  case PF_PAP_ACTION_STOP: return add(moves, n, kind, 0, 0);
  case PF_PAP_MERGE: /* the tops left are those of every pile but `onto` */
    for (int from = 0; from < np; from++)
      for (int onto = 0; onto < np; onto++) {
        bool plain = !s->shy;
        for (int q = 0; q < np && !plain; q++) plain = q != onto && !is_shy(drawn(s, pap_top_of(s, 0, q)));
        if (from != onto && plain) n = add(moves, n, kind, from, onto);
      }
    return n;
  case PF_PAP_DISCARD:
  case PF_PAP_SWITCH:
    if (kind == PF_PAP_SWITCH && s->row_len[seat] < 2) return n; /* a card of one's own to give */
    for (int q = 0; q < s->players; q++)
      for (int i = 0; i < s->row_len[q]; i++)
        if ((q != seat || (kind == PF_PAP_DISCARD && i != ap)) && card_visible(s, seat, q, i))
          n = add(moves, n, kind, q, i);
    return n;
  case PF_PAP_REORDER: /* not the Action card, nor the card that is last once it has gone */
    for (int i = 0; i < s->row_len[seat]; i++)
      if (i != ap && i != (ap == s->row_len[seat] - 1 ? ap - 1 : s->row_len[seat] - 1)) n = add(moves, n, kind, 0, i);
    return n;
  case PF_PAP_COLOR_STOP:
    for (int col = 0; col < PF_PAP_COLOURS; col++)
      if (color_stop_ok(s, col)) n = add(moves, n, kind, 0, col);
    return n;
  case PF_PAP_SWAP:
    for (int a = 0; a < np; a++)
      for (int b = a + 1; b < np; b++)
        if (pap_pile_size(s, l, a) && pap_pile_size(s, l, b)) n = add(moves, n, kind, a, b);
    return n;
  case PF_PAP_STEAL:
    for (int k = 0; k < s->ndrawn; k++)
      if (s->lvl[k] == l && s->pile[k] != NONE && s->pile[k] != s->choice[l][seat]) n = add(moves, n, kind, k, 0);
    return n;
  case PF_PAP_RANDOM:
  case PF_PAP_TAKE_ALL:
  case PF_PAP_TRADE:
    if (!points || popcount((unsigned)pap_contenders(s, l, mine)) < 2 || (s->dropped[l] >> mine & 1)) return n;
    if (kind == PF_PAP_TRADE && s->row_len[seat] - 1 < s->players - 1) return n;
    return add(moves, n, kind, 0, mine);
  case PF_PAP_TAKE_NONE:
    for (int p = 0; p < np; p++)
      if (popcount((unsigned)pap_contenders(s, l, p)) >= 2 && !(s->dropped[l] >> p & 1)) n = add(moves, n, kind, 0, p);
    return n;
  case PF_PAP_CHANGE_MIND: {
    if (!(s->pointers[l] >> seat & 1)) return n;
    for (int c = 0; c <= np; c++) { /* breaks() judges the new choice against the others' */
      int to = c == np ? EMPTY : c;
      if (to == mine || (to != EMPTY && (!pap_pile_size(s, l, to) || !pap_may_point(s, seat, l, to)))) continue;
      if (!s->rule || !pap_breaks(s, l, seat, to)) n = add(moves, n, kind, 0, to);
    }
    return n;
  }
  default: /* Redo: after the round's first reveal, while cards lie on its piles */
    for (int k = 0; k < s->ndrawn && l == 0; k++)
      if (s->lvl[k] == 0) return add(moves, n, kind, 0, 0);
    return n;
  }
}

/* Every use of an action `seat` can make in the open window; returns how many. */
int pap_action_moves(const pap_state *s, int seat, pf_move *moves) {
  int n = 0;
  for (int kind = 1; kind <= PF_PAP_ACTIONS; kind++) {
    if (PAP_ACTS[kind].window != s->window) continue;
    int ap = pap_action_pos(s, seat, kind);
    if (ap >= 0) n = pap_action_targets(s, seat, kind, ap, moves, n);
  }
  return n;
}

/* Is `seat` asked in the open window? It may use an action there if it has not used one this
 * round, Action Stop was not used, and it is not out of the round. Whether it holds one it could
 * use is public (rows are face up), except with `pile`: then every seat whose row hides cards
 * (two or more) is asked (before the piles, only when Draw More has cards to draw), since asking
 * only the holders would tell the others what it hides. */
static bool may_act(const pap_state *s, int seat) {
  if (!s->actions || s->stopped || (s->acted >> seat & 1) || (s->outs >> seat & 1)) return false;
  if (s->pile_variant && s->row_len[seat] >= 2) return s->window != W_DRAW || draw_more_left(s);
  pf_move moves[PF_MAX_MOVES];
  return pap_action_moves(s, seat, moves) > 0;
}

/* Asks the next seat, in seat order from the Headpointer, that may act and has not passed since
 * the last action; when there is none, the window closes and the round goes on. */
void pap_window_next(pap_state *s) {
  for (int i = 0; i < s->players && s->actions; i++) { /* without actions, nobody may act */
    int p = s->head + i < s->players ? s->head + i : s->head + i - s->players;
    if (!(s->passed >> p & 1) && may_act(s, p)) {
      s->asked = (uint8_t)p;
      return;
    }
  }
  int w = s->window;
  s->window = W_NONE;
  if (w == W_DRAW)
    pap_draw_cards(s);
  else if (w == W_POINT)
    pap_begin_pointing(s);
  else
    pap_settle(s);
}

void pap_open_window(pap_state *s, int w) {
  s->window = (uint8_t)w;
  s->passed = 0;
  pap_window_next(s);
}

/* After an action (and the throws or cards it asked for), everyone who may act is asked again. */
static void action_done(pap_state *s) {
  s->passed = 0;
  pap_window_next(s);
}

/* Redo: every card still on the round's piles is placed anew by the Headpointer, face up; the
 * choices, the rule, who is out and the standings start again; then actions before pointing. */
static void redo(pap_state *s) {
  for (int k = 0; k < s->ndrawn; k++)
    if (s->lvl[k] == 0) s->pile[k] = NONE;
  s->depth = 0;
  s->unplaced = pap_unplaced_of(s, 0);
  pap_open_level(s, (1 << s->players) - 1);
  s->redone = 1;
  s->outs = 0;
  s->rule = s->ruled = 0;
  s->window = W_NONE;
}

/* Color Stop: the level-0 cards of a colour are discarded (PAP-6 counts them), pile by pile,
 * bottom first; piles left empty are removed. */
static void color_stop(pap_state *s, int col) {
  for (int p = 0; p < s->npiles[0]; p++) {
    uint8_t ks[MAX_DRAW];
    int n = pap_pile_cards(s, 0, p, ks);
    for (int i = 0; i < n; i++)
      if (pf_pap_colour(drawn(s, ks[i])) == col) {
        s->lvl[ks[i]] = GONE;
        s->disc[s->ndisc++] = ks[i];
      }
  }
  for (int p = s->npiles[0] - 1; p >= 0; p--)
    if (!pap_pile_size(s, 0, p)) pap_merge_piles(s, 0, p, p); /* moves nothing: numbers the rest down */
}

/* Random: the throws are in; when exactly two shapes were thrown, the players of the beaten one
 * lose the pile. Up to 3 throws while two or more players are left in it. */
void pap_rps_reveal(pap_state *s) {
  int l = top_level(s), shapes = 0, lost = 0;
  for (int p = 0; p < s->players; p++)
    if (s->rps_left >> p & 1) shapes |= 1 << s->rps[p];
  if (popcount((unsigned)shapes) == 2) {
    int beaten = shapes == 3 ? 0 : shapes == 6 ? 1 : 2; /* paper beats rock, scissors paper, rock scissors */
    for (int p = 0; p < s->players; p++)
      if ((s->rps_left >> p & 1) && s->rps[p] == beaten) lost |= 1 << p;
  }
  pap_event e = {.kind = EV_THROWS, .level = (uint8_t)l, .pile = s->rps_pile, .mask = s->rps_left,
                 .a = (uint8_t)(s->rps_throws + 1), .b = (uint8_t)lost};
  memcpy(e.choice, s->rps, sizeof e.choice);
  pap_log_event(s, e);
  s->rps_left &= (uint8_t)~lost;
  s->voided[l] |= (uint8_t)lost;
  s->rps_throws++;
  memset(s->rps, UNCHOSEN, sizeof s->rps);
  if (popcount(s->rps_left) >= 2 && s->rps_throws < RPS_THROWS) return;
  s->rps_pile = NONE;
  action_done(s);
}

/* Trade and Switch: the giver hands over the card at position i of its row. */
void pap_give(pap_state *s, int i) {
  int g = s->pend_seat, to = s->pend_to;
  pap_event e = {.kind = EV_GIVE, .seat = (uint8_t)g, .a = (uint8_t)to, .card = {row_card(s, g, i), 0}};
  pap_changed(s, 1 << g | 1 << to);
  if (s->pend == PEND_SWITCH) { /* the two cards change places */
    uint8_t mine = s->row[g][i], theirs = s->row[to][s->pend_pos];
    pap_tally_card(&s->tally[g], s->card[mine], -1);
    pap_tally_card(&s->tally[to], s->card[theirs], -1);
    s->row[g][i] = theirs;
    s->row[to][s->pend_pos] = mine;
    pap_tally_card(&s->tally[g], s->card[theirs], 1);
    pap_tally_card(&s->tally[to], s->card[mine], 1);
    e.card[1] = row_card(s, g, i);
    s->pend = PEND_NONE;
  } else {
    pap_row_append(s, to, pap_take_from_row(s, g, i));
    s->pend_to = (uint8_t)((to + 1) % s->players); /* every other seat in turn, from the giver's next */
    if (s->pend_to == g) s->pend = PEND_NONE;
  }
  pap_log_event(s, e);
  if (pap_game_ends(s)) return; /* PAP-7 (revised): a card given */
  if (!s->pend) action_done(s);
}

/* Plays an action: its card leaves the row (and the game), the seat has used its action for the
 * round, and the action does what PAP_ACTS says. */
void pap_use_action(pap_state *s, int seat, pf_move m) {
  int kind = MV_KIND(m) - MV_ACT, a = MV_A(m), b = MV_B(m), l = top_level(s);
  int ap = pap_action_pos(s, seat, kind);
  pap_event e = {.kind = EV_ACTION, .level = (uint8_t)(l < 0 ? 0 : l), .seat = (uint8_t)seat, .act = (uint8_t)kind,
                 .a = (uint8_t)a, .b = (uint8_t)b, .card = {row_card(s, seat, ap), 0}};
  /* Targets in the player's own row were named as the row was, with the Action card in it. */
  int own = (kind == PF_PAP_DISCARD && a == seat) || kind == PF_PAP_REORDER ? (b > ap ? b - 1 : b) : b;
  s->out[s->nout++] = (uint8_t)pap_take_from_row(s, seat, ap);
  s->acted |= (uint8_t)(1 << seat);
  switch (kind) {
  case PF_PAP_DRAW_MORE: s->ndrawmore++; break;
  case PF_PAP_HEADPOINTER:
    pap_changed(s, 1 << s->head | 1 << seat);
    s->head = (uint8_t)seat;
    break;
  case PF_PAP_ACTION_STOP: s->stopped = 1; break;
  case PF_PAP_MERGE: pap_merge_piles(s, 0, a, b); break;
  case PF_PAP_DISCARD:
    e.card[1] = row_card(s, a, own);
    s->out[s->nout++] = (uint8_t)pap_take_from_row(s, a, own);
    break;
  case PF_PAP_REORDER: {
    e.card[1] = row_card(s, seat, own);
    pap_row_append(s, seat, pap_take_from_row(s, seat, own));
    pap_changed(s, 1 << seat);
    break;
  }
  case PF_PAP_SWITCH:
    e.card[1] = row_card(s, a, b);
    s->pend = PEND_SWITCH, s->pend_seat = (uint8_t)seat, s->pend_to = (uint8_t)a, s->pend_pos = (uint8_t)b;
    break;
  case PF_PAP_COLOR_STOP: color_stop(s, b); break;
  case PF_PAP_SWAP:
    for (int k = 0; k < s->ndrawn; k++)
      if (s->lvl[k] == l && (s->pile[k] == a || s->pile[k] == b)) s->pile[k] = (uint8_t)(s->pile[k] == a ? b : a);
    break;
  case PF_PAP_STEAL:
    e.card[1] = drawn(s, a);
    pap_add_to_row(s, seat, a);
    break;
  case PF_PAP_RANDOM:
    s->rps_pile = (uint8_t)b, s->rps_left = (uint8_t)pap_contenders(s, l, b), s->rps_throws = 0;
    memset(s->rps, UNCHOSEN, sizeof s->rps);
    break;
  case PF_PAP_TAKE_ALL:
  case PF_PAP_TRADE:
    s->voided[l] |= (uint8_t)(pap_contenders(s, l, b) & ~(1 << seat));
    if (kind == PF_PAP_TRADE)
      s->pend = PEND_TRADE, s->pend_seat = (uint8_t)seat, s->pend_to = (uint8_t)((seat + 1) % s->players);
    break;
  case PF_PAP_TAKE_NONE: s->dropped[l] |= (uint8_t)(1 << b); break;
  case PF_PAP_CHANGE_MIND:
    s->choice[l][seat] = (uint8_t)b;
    s->voided[l] &= (uint8_t)~(1 << seat);
    break;
  default: redo(s); break;
  }
  pap_log_event(s, e);
  if (pap_game_ends(s)) return; /* PAP-7 (revised): an action, whose card left the row */
  if (kind != PF_PAP_REDO && !s->pend && s->rps_pile == NONE) action_done(s);
}
