/*
 * round.c - the course of a Point-a-Pile round (PAP-3 .. PAP-7): card values and scores, the
 * piles, the rule in force and the shy cards (police and shy, PAP-9), drawing, pointing, the
 * reveal and resolving the piles.
 */
#include "games/point_a_pile/pap.h"

#include <string.h>

/* ------------------------------------------------------------------------------------------ */
/* Card values, scores and missions (PAP-7, PAP-9; point-a-pile-cards.md)                     */
/* ------------------------------------------------------------------------------------------ */

row_stats pap_stats_of(const pap_state *s, int seat) {
  row_stats st = {0};
  st.len = s->row_len[seat];
  for (int i = 0; i < st.len; i++) {
    pf_card c = row_card(s, seat, i);
    st.count[pf_pap_colour(c)]++;
    st.textless += is_textless(c);
    st.shy += is_shy(c);
  }
  for (int col = 0; col < PF_PAP_COLOURS; col++) {
    st.colours += st.count[col] > 0;
    if (st.count[col] > st.most) st.most = st.count[col];
  }
  return st;
}

/* What a card's value reads of its row (card_value): these features of the row, by index. */
enum { F_ZERO, F_ONE, F_COUNT, F_TEXTLESS = F_COUNT + PF_PAP_COLOURS, F_HEAD, F_LAST, F_COLOURS, F_MOST, F_LEN, FEATURES };

/* The value of a card by its type: sign * f[mul + (C & mulc)], plus X (its field a, & x) when
 * f[at + (C & atc)] >= least | (Y & leastb), Y being its field b and C its field c. Thresholds
 * are "at least". Textless, Rule, Shy and Action cards are worth 0 (all zero: f[F_ZERO] * sign,
 * and X & 0). */
static const struct value_rule {
  uint8_t mul, mulc, at, atc, least, leastb, x;
} VALUE_RULES[16] = {
    [PF_PAP_SCORE] = {.mul = F_ONE},                                    /* S */
    [PF_PAP_MATCH] = {.mul = F_COUNT, .mulc = 3},                       /* W for every card of colour C */
    [PF_PAP_DIFF] = {.at = F_COLOURS, .least = PF_PAP_COLOURS, .x = 7}, /* X if the row has all 4 colours */
    [PF_PAP_GROUP] = {.at = F_MOST, .leastb = 7, .x = 7},               /* X if some colour has Y cards */
    [PF_PAP_SPECIFIC] = {.at = F_COUNT, .atc = 3, .leastb = 7, .x = 7}, /* X if Y cards of colour C */
    [PF_PAP_NUMCARDS] = {.at = F_LEN, .leastb = 7, .x = 7},             /* X if the row has Y cards */
    [PF_PAP_EMPTY] = {.mul = F_TEXTLESS},                               /* W for every textless card */
    [PF_PAP_LAST] = {.mul = F_LAST},                                    /* W while it is the last card */
    [PF_PAP_HEAD] = {.mul = F_HEAD},                                    /* S while its owner is Headpointer */
};

/* The value of card c in a row of features f (f[F_LAST]: c is the row's last card; f[F_HEAD]: its
 * owner is the Headpointer), without a branch: a row's cards are of every type in no order. */
static inline int card_value(pf_card c, const int *f) {
  const struct value_rule *r = &VALUE_RULES[pf_pap_type(c)];
  int a = pf_pap_a(c), col = pf_pap_c(c), sign = 1 - 2 * (a != 0);
  int reached = f[r->at + (col & r->atc)] >= (r->least | (pf_pap_b(c) & r->leastb));
  return sign * f[r->mul + (col & r->mulc)] + (reached ? a & r->x : 0);
}

/* The features of a row with stats st. */
static void features_of(const row_stats *st, bool head, int *f) {
  f[F_ZERO] = 0, f[F_ONE] = 1, f[F_TEXTLESS] = st->textless, f[F_HEAD] = head, f[F_LAST] = 0;
  f[F_COLOURS] = st->colours, f[F_MOST] = st->most, f[F_LEN] = st->len;
  for (int col = 0; col < PF_PAP_COLOURS; col++) f[F_COUNT + col] = st->count[col];
}

/* The value of the i-th card of a seat's row. */
int pap_row_value(const pap_state *s, int seat, const row_stats *st, int i) {
  int f[FEATURES];
  features_of(st, seat == s->head, f);
  f[F_LAST] = i == st->len - 1;
  return card_value(row_card(s, seat, i), f);
}

/* Adds x to v[from..n). */
static inline void add_from(int16_t *v, int from, int n, int x) {
  for (int k = from; k < n; k++) v[k] = (int16_t)(v[k] + x);
}

/* Adds card c to a row's tally (sign 1), or takes it out (sign -1). */
void pap_tally_card(pap_tally *t, pf_card c, int sign) {
  int a = pf_pap_a(c), b = pf_pap_b(c), col = pf_pap_c(c), w = sign * pf_pap_sign(c), x = sign * a;
  t->count[pf_pap_colour(c)] = (uint8_t)(t->count[pf_pap_colour(c)] + sign);
  switch (pf_pap_type(c)) {
  case PF_PAP_COLOR: t->textless = (uint8_t)(t->textless + sign); break;
  case PF_PAP_SCORE: t->score = (int16_t)(t->score + w); break;
  case PF_PAP_MATCH: t->match[col] = (int16_t)(t->match[col] + w); break;
  case PF_PAP_DIFF: t->diff = (int16_t)(t->diff + x); break;
  case PF_PAP_GROUP: add_from(t->group, b, TALLY_Y, x); break;
  case PF_PAP_SPECIFIC: add_from(t->specific[col], b, TALLY_Y, x); break;
  case PF_PAP_NUMCARDS: add_from(t->numcards, b, TALLY_H, x); break;
  case PF_PAP_EMPTY: t->empty = (int16_t)(t->empty + w); break;
  case PF_PAP_HEAD: t->head = (int16_t)(t->head + w); break;
  default: break; /* LAST (read from the row's end), and the expansions' cards, worth 0 */
  }
}

/* Seat's tally counted afresh from its row. */
void pap_tally_row(const pap_state *s, int seat, pap_tally *t) {
  *t = (pap_tally){0};
  for (int i = 0; i < s->row_len[seat]; i++) pap_tally_card(t, row_card(s, seat, i), 1);
}

/* Puts the card of `slot` at the end of seat's row. */
void pap_row_append(pap_state *s, int seat, int slot) {
  s->row[seat][s->row_len[seat]++] = (uint8_t)slot;
  pap_tally_card(&s->tally[seat], s->card[slot], 1);
}

/* The score of a row of len cards with tally t, last card `last`, whose owner is Headpointer or
 * not: every card's value (card_value) added up, by the features of the row. */
static int tally_score(const pap_tally *t, int len, bool head, pf_card last) {
  int most = 0, colours = 0, v = t->score + t->empty * t->textless + (head ? t->head : 0);
  for (int col = 0; col < PF_PAP_COLOURS; col++) {
    int n = t->count[col];
    most = n > most ? n : most;
    colours += n > 0;
    v += t->match[col] * n + t->specific[col][n < TALLY_Y ? n : TALLY_Y - 1];
  }
  v += t->group[most < TALLY_Y ? most : TALLY_Y - 1] + t->numcards[len < TALLY_H ? len : TALLY_H - 1];
  v += colours == PF_PAP_COLOURS ? t->diff : 0;
  return v + (len && pf_pap_type(last) == PF_PAP_LAST ? pf_pap_sign(last) : 0);
}

/* Read after every pile scored, for the seats whose row changed (PAP-7). */
int pap_score_of(const pap_state *s, int seat) {
  int len = s->row_len[seat];
  return tally_score(&s->tally[seat], len, seat == s->head, len ? row_card(s, seat, len - 1) : 0);
}

int pap_score_with(const pap_state *s, int seat, const uint8_t *ks, int n) {
  pap_tally t = s->tally[seat];
  int len = s->row_len[seat];
  pf_card last = len ? row_card(s, seat, len - 1) : 0;
  for (int i = 0; i < n && len < MAX_CARDS; i++, len++) {
    last = drawn(s, ks[i]);
    pap_tally_card(&t, last, 1);
  }
  return tally_score(&t, len, seat == s->head, last);
}

/* PAP-9 missions: is seat's mission met by its row (thresholds "at least")? */
static bool mission_met(const pap_state *s, int seat) {
  pf_card m = s->mission[seat];
  row_stats st = pap_stats_of(s, seat);
  switch (pf_pap_kind(m)) {
  case 1: return st.most >= 5;
  case 2:
    for (int col = 0; col < PF_PAP_COLOURS; col++)
      if (st.count[col] < 2) return false;
    return true;
  case 3: return pap_score_of(s, seat) >= 10;
  case 4: return st.len - st.textless >= 6;
  case 5: return st.textless >= 5;
  case 6: return st.colours == PF_PAP_COLOURS && pap_score_of(s, seat) >= 6;
  case 7: return st.colours == PF_PAP_COLOURS && st.len >= 6;
  case 8: return st.len >= 12;
  case 9: return st.len >= 8 && pap_score_of(s, seat) >= 4;
  default: return st.count[pf_pap_c(m)] >= pf_pap_a(m) && st.count[pf_pap_colour(m)] >= pf_pap_b(m);
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Piles                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* The draw index of pile p's top card at level l, or -1 when the pile is empty. */
int pap_top_of(const pap_state *s, int l, int p) {
  int top = -1;
  for (int k = 0; k < s->ndrawn; k++)
    if (s->lvl[k] == l && s->pile[k] == p && (top < 0 || s->pos[k] > s->pos[top])) top = k;
  return top;
}

int pap_pile_size(const pap_state *s, int l, int p) {
  int n = 0;
  for (int k = 0; k < s->ndrawn; k++) n += s->lvl[k] == l && s->pile[k] == p;
  return n;
}

/* PAP-9 police: a pile "shows" a colour, text or a textless card if any card in it does. */
enum { SHOWS_TEXT = -1, SHOWS_TEXTLESS = -2 };
static bool pile_shows(const pap_state *s, int l, int p, int what) {
  for (int k = 0; k < s->ndrawn; k++) {
    if (s->lvl[k] != l || s->pile[k] != p) continue;
    pf_card c = drawn(s, k);
    if (what == SHOWS_TEXT ? !is_textless(c) : what == SHOWS_TEXTLESS ? is_textless(c) : pf_pap_colour(c) == what)
      return true;
  }
  return false;
}

/* Unplaced cards are hidden from all but the Headpointer until they have lain face up (PAP-3). */
bool pap_unplaced_visible(const pap_state *s, int seat) {
  return pf_view_sees_own(seat, s->head) || pap_unplaced_public(s);
}

/* Moves the cards of pile `from` at level l onto pile `onto`, keeping their order (they lie on
 * top), and numbers the piles after `from` one lower. */
void pap_merge_piles(pap_state *s, int l, int from, int onto) {
  uint8_t ks[MAX_DRAW];
  int n = pap_pile_cards(s, l, from, ks);
  for (int i = 0; i < n; i++) {
    s->pile[ks[i]] = (uint8_t)onto;
    s->pos[ks[i]] = s->seq++;
  }
  for (int k = 0; k < s->ndrawn; k++)
    if (s->lvl[k] == l && s->pile[k] != NONE && s->pile[k] > from) s->pile[k]--;
  s->npiles[l]--;
}

void pap_log_event(pap_state *s, pap_event e) {
  if (s->nlog < MAX_LOG) s->log[s->nlog++] = e;
}

/* ------------------------------------------------------------------------------------------ */
/* Rules, shy cards and standings (PAP-9)                                                     */
/* ------------------------------------------------------------------------------------------ */

/* The seats whose score is the best (or, worst, the worst) of all. */
int pap_standing(const pap_state *s, bool worst) {
  int sc[MAXP], best = 0, mask = 0;
  for (int p = 0; p < s->players; p++) {
    sc[p] = pap_score_of(s, p);
    if (p == 0 || (worst ? sc[p] < best : sc[p] > best)) best = sc[p];
  }
  for (int p = 0; p < s->players; p++)
    if (sc[p] == best) mask |= 1 << p;
  return mask;
}

/* shy: may `seat` point at pile p of level l? Only the players a Shy card on top names may. */
bool pap_may_point(const pap_state *s, int seat, int l, int p) {
  if (!s->shy) return true;
  int k = pap_top_of(s, l, p);
  if (k < 0) return false;
  pf_card c = drawn(s, k);
  if (!is_shy(c)) return true;
  row_stats st = pap_stats_of(s, seat);
  switch (pf_pap_kind(c)) {
  case PF_PAP_HEAD_ONLY: return seat == s->head;
  case PF_PAP_HEAD_VETO: return seat != s->head;
  case PF_PAP_LEADER_VETO: return !(s->leaders[l] >> seat & 1);
  case PF_PAP_HAND_MIN: return st.len < 5;
  case PF_PAP_HAND_PLUS: return st.len > 5;
  case PF_PAP_COLOR_NEW: return st.count[pf_pap_colour(c)] == 0;
  case PF_PAP_COLOR_SAME: return st.count[pf_pap_colour(c)] > 0;
  default: return st.shy == 0; /* Not Shy */
  }
}

/* Does c at level l break the rule in force for `seat`, the other choices being as they are?
 * Empty space shows nothing and is never a pile a neighbour picked, so only Force Last and Force
 * Friends can forbid it. A rule a player cannot follow asks nothing of them: Force Last when no
 * pile they may point at shows their colour, the Friends rules when no neighbour points there. */
bool pap_breaks(const pap_state *s, int l, int seat, int c) {
  int n = s->row_len[seat], left = (seat + s->players - 1) % s->players, right = (seat + 1) % s->players;
  pf_card last = n ? row_card(s, seat, n - 1) : 0;
  bool pile = c != EMPTY && c != UNCHOSEN;
  bool left_points = s->pointers[l] >> left & 1, right_points = s->pointers[l] >> right & 1;
  switch (s->rule) {
  case PF_PAP_NOT_LAST: return n && pile && pile_shows(s, l, c, pf_pap_colour(last));
  case PF_PAP_FORCE_LAST:
    if (!n || (pile && pile_shows(s, l, c, pf_pap_colour(last)))) return false;
    for (int p = 0; p < s->npiles[l]; p++)
      if (pap_may_point(s, seat, l, p) && pile_shows(s, l, p, pf_pap_colour(last))) return true;
    return false;
  case PF_PAP_NOT_FRIENDS: return pile && left_points && s->choice[l][left] == c;
  case PF_PAP_FORCE_FRIENDS:
    if (!left_points && !right_points) return false;
    return !pile || !((left_points && s->choice[l][left] == c) || (right_points && s->choice[l][right] == c));
  case PF_PAP_LEADING_CURSE: {
    if (!pile || !(s->leaders[l] >> seat & 1)) return false;
    int largest = 0;
    for (int p = 0; p < s->npiles[l]; p++)
      if (pap_pile_size(s, l, p) > largest) largest = pap_pile_size(s, l, p);
    return pap_pile_size(s, l, c) == largest;
  }
  case PF_PAP_NOT_TEXT: return n && !is_textless(last) && pile && pile_shows(s, l, c, SHOWS_TEXT);
  case PF_PAP_NOT_TEXTLESS: return n && is_textless(last) && pile && pile_shows(s, l, c, SHOWS_TEXTLESS);
  default: return false; /* Trailing Reward orders the choices; it forbids none */
  }
}

/* police: the rule in force this round, from the Headpointer's last card scored (0: none). */
int pap_rule_in_force(const pap_state *s) {
  int n = s->row_len[s->head];
  if (!s->police || !n) return 0;
  pf_card c = row_card(s, s->head, n - 1);
  return pf_pap_type(c) == PF_PAP_RULE ? pf_pap_kind(c) : 0;
}

/* shy: placing card k on pile p of the top level must leave it possible to finish with a pile
 * whose top card is not a Shy card: some card still to place is not a Shy card (it can go on top
 * last), or some pile's top is not one after this move (the Shy cards left can go elsewhere: a
 * level has at most N piles and N >= 2). When every card to place at the level is a Shy card,
 * no arrangement can help it, and any is allowed. */
pap_shy_level pap_shy_of_level(const pap_state *s) {
  pap_shy_level v = {.all_shy = true};
  int l = top_level(s);
  if (!s->shy) return v;
  for (int j = 0; j < s->ndrawn; j++)
    if (s->lvl[j] == l) {
      v.all_shy &= is_shy(drawn(s, j));
      v.plain_unplaced += s->pile[j] == NONE && !is_shy(drawn(s, j));
    }
  for (int q = 0; q < s->npiles[l]; q++)
    if (!is_shy(drawn(s, pap_top_of(s, l, q)))) v.plain_tops |= 1u << q;
  return v;
}

bool pap_shy_ok_at(const pap_state *s, const pap_shy_level *v, int k, int p) {
  if (!s->shy) return true;
  bool shy = is_shy(drawn(s, k));
  bool plain_left = v->plain_unplaced - !shy > 0; /* k itself is one of the cards to place */
  bool plain_top = !shy || (v->plain_tops & ~(1u << p));
  return plain_left || plain_top || v->all_shy;
}

bool pap_shy_ok(const pap_state *s, int k, int p) {
  pap_shy_level v = pap_shy_of_level(s);
  return pap_shy_ok_at(s, &v, k, p);
}

/* ------------------------------------------------------------------------------------------ */
/* The round                                                                                  */
/* ------------------------------------------------------------------------------------------ */

/* Opens a level at which the seats of `pointers` will point, its cards still to be placed. */
void pap_open_level(pap_state *s, int pointers) {
  int l = s->depth++;
  s->npiles[l] = 0;
  s->cursor[l] = 0;
  s->pointers[l] = (uint8_t)pointers;
  memset(s->choice[l], UNCHOSEN, sizeof s->choice[l]);
  s->late[l] = s->leaders[l] = s->voided[l] = s->broke[l] = s->dropped[l] = 0;
}

/* PAP-7: the deck is empty at the start of a round: the game ends. Otherwise PAP-3: the role
 * passes to the next seat (from the second round on); actions before the piles are made are
 * offered (PAP-9), then the Headpointer draws. */
void pap_begin_round(pap_state *s) {
  /* The round's log becomes the previous one; the entries past each log's count stay zero (as
   * start left them), so only those in use are copied and cleared. */
  size_t used = s->nlog * sizeof s->log[0];
  if (s->nprev > s->nlog) memset(&s->prev[s->nlog], 0, (s->nprev - s->nlog) * sizeof s->prev[0]);
  memcpy(s->prev, s->log, used);
  memset(s->log, 0, used);
  s->nprev = s->nlog;
  s->nlog = 0;
  s->depth = 0;
  if (s->next_slot == s->ncards) {
    s->over = 1;
    return;
  }
  if (s->round++) {
    int next = (s->head + 1) % s->players;
    pap_changed(s, 1 << s->head | 1 << next);
    s->head = (uint8_t)next;
  }
  s->ndrawn = 0;
  s->tapped = 0;
  s->ndisc = 0;
  s->rule = s->ruled = s->outs = s->acted = s->stopped = s->redone = s->ndrawmore = 0;
  s->rps_pile = NONE;
  s->pend = PEND_NONE;
  pap_open_window(s, W_DRAW);
}

/* PAP-3: the Headpointer draws 2N cards, 6 more for each Draw More (PAP-9), or all that are
 * left. */
void pap_draw_cards(pap_state *s) {
  int n = 2 * s->players + DRAW_MORE * s->ndrawmore, left = s->ncards - s->next_slot;
  s->first = s->next_slot;
  s->ndrawn = (uint8_t)(n < left ? n : left);
  s->next_slot = (uint8_t)(s->next_slot + s->ndrawn);
  memset(s->lvl, 0, sizeof s->lvl);
  memset(s->pile, NONE, sizeof s->pile);
  memset(s->pos, 0, sizeof s->pos);
  s->seq = 0;
  s->unplaced = (1ull << s->ndrawn) - 1; /* ndrawn < 64 */
  pap_open_level(s, (1 << s->players) - 1);
}

/* Pointing begins at the top level: at level 0 the rule in force is fixed for the round
 * (police); the standings are noted for the level: who leads (Leading Curse, Leader Veto) and,
 * under Trailing Reward, who trails and so points after the others (unless all pointers trail). */
void pap_begin_pointing(pap_state *s) {
  int l = top_level(s);
  if (l == 0) s->rule = (uint8_t)pap_rule_in_force(s), s->ruled = 1;
  if (!s->police && !s->shy) return;
  s->leaders[l] = (uint8_t)pap_standing(s, false);
  if (s->rule == PF_PAP_TRAILING_REWARD) {
    int trail = pap_standing(s, true) & s->pointers[l];
    s->late[l] = (uint8_t)(trail == s->pointers[l] ? 0 : trail);
  }
}

/* The last card of a level is placed: at level 0, actions before pointing (PAP-9); then pointing. */
void pap_piles_made(pap_state *s) {
  if (top_level(s) == 0)
    pap_open_window(s, W_POINT);
  else
    pap_begin_pointing(s);
}

void pap_add_to_row(pap_state *s, int seat, int k) {
  pap_row_append(s, seat, slot_of(s, k));
  s->lvl[k] = GONE;
  pap_changed(s, 1 << seat);
}

/* Takes the i-th card out of a seat's row; returns its slot. */
int pap_take_from_row(pap_state *s, int seat, int i) {
  int slot = s->row[seat][i];
  pap_tally_card(&s->tally[seat], s->card[slot], -1);
  memmove(&s->row[seat][i], &s->row[seat][i + 1], (size_t)(s->row_len[seat] - i - 1));
  s->row_len[seat]--;
  pap_changed(s, 1 << seat);
  return slot;
}

/* PAP-7 (revised), called after every change to a score row and at the end of a round: if any
 * player has 10 points or more (PAP-9 missions: if any mission is met, which replaces the 10-point
 * goal), the game ends there, the rest of the round unplayed. Returns whether it did. */
bool pap_game_ends(pap_state *s) {
  /* Only the seats whose row or Headpointer role changed since the last check: every other seat
   * was short of the goal then (or the game would be over) and still is. */
  int seats = s->unchecked;
  s->unchecked = 0;
  if (s->missions) {
    for (int p = 0; p < s->players; p++)
      if ((seats >> p & 1) && mission_met(s, p)) {
        s->met |= (uint8_t)(1 << p);
        pap_log_event(s, (pap_event){.kind = EV_MISSION, .seat = (uint8_t)p});
      }
  } else {
    for (int p = 0; p < s->players; p++)
      if ((seats >> p & 1) && pap_score_of(s, p) >= 10) s->over = 1;
  }
  if (s->met) s->over = 1;
  return s->over;
}

/* PAP-6, and PAP-7 at the end of a round (the Headpointer's role passing is not a change to a
 * score row: a Head card's value is checked here). */
static void end_round(pap_state *s) {
  s->depth = 0;
  if (popcount(s->tapped) == 1) {
    int seat = __builtin_ctz(s->tapped);
    for (int i = 0; i < s->ndisc; i++) pap_row_append(s, seat, slot_of(s, s->disc[i]));
    pap_changed(s, 1 << seat);
    pap_log_event(s, (pap_event){.kind = EV_EMPTY_SCORES, .seat = (uint8_t)seat, .ncards = s->ndisc});
  } else {
    for (int i = 0; i < s->ndisc; i++) s->out[s->nout++] = (uint8_t)slot_of(s, s->disc[i]);
    if (s->tapped) pap_log_event(s, (pap_event){.kind = EV_EMPTY_LOST, .mask = s->tapped, .ncards = s->ndisc});
  }
  s->ndisc = 0;
  if (!pap_game_ends(s)) pap_begin_round(s);
}

/* The seats whose choice at level l is pile p (or EMPTY) and still counts: by masks, not a branch
 * a seat, as the choices of a random playout are what no predictor learns. */
int pap_contenders(const pap_state *s, int l, int p) {
  int who = 0;
  for (int seat = 0; seat < s->players; seat++) who |= (s->choice[l][seat] == p) << seat;
  return who & ~s->voided[l];
}

/* PAP-5: resolves the piles of the top level in order until a choice is needed or the round is
 * over. A level whose piles are all resolved gives way to the one below. A pile emptied by Steal
 * is passed over; one Take None named is discarded (PAP-9). */
static void resolve(pap_state *s) {
  for (;;) {
    int l = top_level(s);
    if (s->cursor[l] == s->npiles[l]) {
      if (l == 0) {
        end_round(s);
        return;
      }
      s->depth--;
      s->cursor[l - 1]++;
      continue;
    }
    int p = s->cursor[l], who = pap_contenders(s, l, p);
    uint8_t ks[MAX_DRAW];
    int n = pap_pile_cards(s, l, p, ks);
    pap_event e = {.level = (uint8_t)l, .pile = (uint8_t)p, .ncards = (uint8_t)n, .mask = (uint8_t)who};
    if (n == 0) {
      s->cursor[l]++;
      continue;
    }
    if (s->dropped[l] >> p & 1) who = 0, e.act = PF_PAP_TAKE_NONE;
    if (popcount((unsigned)who) == 1) { /* one player: scored, the top card last */
      e.kind = EV_SCORED;
      e.seat = (uint8_t)__builtin_ctz((unsigned)who);
      for (int i = 0; i < n; i++) pap_add_to_row(s, e.seat, ks[i]);
      pap_log_event(s, e);
      s->cursor[l]++;
      if (pap_game_ends(s)) return; /* PAP-7 (revised): a pile scored */
      continue;
    } else if (who == 0 || n == 1) { /* nobody, or a contested single card: discarded */
      e.kind = EV_DISCARDED;
      for (int i = 0; i < n; i++) {
        s->lvl[ks[i]] = GONE;
        s->disc[s->ndisc++] = ks[i];
      }
    } else { /* split: its cards go up a level to be placed again */
      e.kind = EV_SPLIT;
      pap_log_event(s, e);
      pap_open_level(s, who);
      for (int i = 0; i < n; i++) {
        s->lvl[ks[i]] = (uint8_t)(l + 1);
        s->pile[ks[i]] = NONE;
        s->unplaced |= 1ull << ks[i];
      }
      return;
    }
    pap_log_event(s, e);
    s->cursor[l]++;
  }
}

/* The actions after the reveal are over: PAP-6 notes who tapped empty space (a choice that no
 * longer counts taps nothing), and the level is resolved. */
void pap_settle(pap_state *s) {
  int l = top_level(s);
  s->tapped |= (uint8_t)pap_contenders(s, l, EMPTY);
  resolve(s);
}

/* The reveal (PAP-4): every choice of the level is known now; with a rule in force, whoever broke
 * it is out of the round: their choice counts for nothing (PAP-9 police). Then actions after the
 * reveal (PAP-9), then the level is settled. */
void pap_reveal(pap_state *s) {
  int l = top_level(s);
  pap_event e = {.kind = EV_REVEAL, .level = (uint8_t)l, .mask = s->pointers[l]};
  memcpy(e.choice, s->choice[l], sizeof e.choice);
  pap_log_event(s, e);
  for (int seat = 0; seat < s->players && s->rule; seat++)
    if ((s->pointers[l] >> seat & 1) && pap_breaks(s, l, seat, s->choice[l][seat])) {
      s->broke[l] |= (uint8_t)(1 << seat);
      s->voided[l] |= (uint8_t)(1 << seat);
      s->outs |= (uint8_t)(1 << seat);
      pap_log_event(s, (pap_event){.kind = EV_BROKE, .level = (uint8_t)l, .seat = (uint8_t)seat, .act = s->rule});
    }
  pap_open_window(s, W_REVEAL);
}

/* The next seat to point at the top level, or -1: the seats in seat order, those the rule
 * Trailing Reward makes wait after the others. By masks: a random playout asks it several times
 * a move. */
int pap_next_pointer(const pap_state *s) {
  int l = top_level(s);
  unsigned open = 0;
  for (int seat = 0; seat < MAXP; seat++) open |= (unsigned)(s->choice[l][seat] == UNCHOSEN) << seat;
  open &= s->pointers[l]; /* only seats of the game point */
  unsigned first = open & ~(unsigned)s->late[l];
  if (first) return __builtin_ctz(first);
  return open ? __builtin_ctz(open) : -1;
}

/* Random: the next seat to throw, or -1. */
int pap_next_thrower(const pap_state *s) {
  for (int seat = 0; seat < s->players; seat++)
    if ((s->rps_left >> seat & 1) && s->rps[seat] == UNCHOSEN) return seat;
  return -1;
}

int pap_to_move(const void *vs) {
  const pap_state *s = vs;
  if (s->over) return PF_NOBODY;
  if (s->pend) return s->pend_seat;
  if (s->rps_pile != NONE) return pap_next_thrower(s);
  if (s->window) return s->asked;
  return pap_placing(s) ? s->head : pap_next_pointer(s);
}

/* The seats choosing at once (game.h): the throwers of rock-paper-scissors yet to throw, or the
 * pointers of the top level yet to point in the group now asked (those Trailing Reward makes
 * wait are a second group, asked once the first group's choices are shown). */
int pap_choosing(const void *vs, int *seats) {
  const pap_state *s = vs;
  int first = pap_to_move(vs), n = 0;
  if (first < 0) return 0;
  seats[n++] = first;
  if (s->pend || s->window || (s->rps_pile == NONE && pap_placing(s))) return n;
  int l = top_level(s), wait = s->rps_pile == NONE ? s->late[l] >> first & 1 : 0;
  for (int seat = first + 1; seat < s->players; seat++) {
    bool waits = s->rps_pile != NONE ? (s->rps_left >> seat & 1) && s->rps[seat] == UNCHOSEN
                                     : (s->pointers[l] >> seat & 1) && (s->late[l] >> seat & 1) == wait &&
                                           s->choice[l][seat] == UNCHOSEN;
    if (waits) seats[n++] = seat;
  }
  return n;
}
