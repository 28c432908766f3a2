/*
 * moves.c - Point-a-Pile's moves: the legal ones, applying one, and their notation (G-9).
 */
#include "games/point_a_pile/pap.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* PAP-3, PAP-5: may an unplaced card of the top level go on pile p there, nleft cards being
 * unplaced? A new pile takes the next number, at most N piles; a split must end with at least
 * two piles. */
enum { PLACE_OK, PLACE_NO_PILE, PLACE_SPLIT };
static int place_refusal(const pap_state *s, int p, int nleft) {
  int l = top_level(s), np = s->npiles[l];
  if (p > np || p >= s->players) return PLACE_NO_PILE;
  if (l > 0 && (p == np ? np + 1 : np) + (nleft - 1) < 2) return PLACE_SPLIT;
  return PLACE_OK;
}

/* G-5: equal cards are one move; of several equal unplaced cards, only the first is offered. Only
 * for cards that lay face up before (a split's, or after a Redo): among the Headpointer's freshly
 * drawn cards, offering only the first of equal cards would tell the others which hidden cards
 * are equal. */
static bool first_of_equals(const pap_state *s, const uint8_t *ks, int i) {
  if (!pap_unplaced_public(s)) return true;
  for (int j = 0; j < i; j++)
    if (drawn(s, ks[j]) == drawn(s, ks[i])) return false;
  return true;
}

int pap_legal(const void *vs, pf_move *moves) {
  const pap_state *s = vs;
  int n = 0;
  if (s->pend) { /* Trade, Switch: any card of the giver's row */
    for (int i = 0; i < s->row_len[s->pend_seat]; i++) moves[n++] = MOVE(MV_GIVE, 0, i);
    return n;
  }
  if (s->rps_pile != NONE) {
    for (int t = 0; t < 3; t++) moves[n++] = MOVE(MV_THROW, 0, t);
    return n;
  }
  if (s->window) {
    n = pap_action_moves(s, s->asked, moves);
    moves[n++] = MOVE(MV_PASS, 0, 0);
    return n;
  }
  int l = top_level(s);
  uint8_t ks[MAX_DRAW];
  int nk = pap_unplaced(s, ks);
  if (nk > 0) {
    pap_shy_level shy = pap_shy_of_level(s);
    for (int i = 0; i < nk; i++) {
      if (!first_of_equals(s, ks, i)) continue;
      for (int p = 0; p <= s->npiles[l]; p++)
        if (place_refusal(s, p, nk) == PLACE_OK && pap_shy_ok_at(s, &shy, ks[i], p)) moves[n++] = MOVE(MV_PLACE, ks[i], p);
    }
    return n;
  }
  int seat = pap_next_pointer(s);
  for (int p = 0; p < s->npiles[l]; p++)
    if (pap_may_point(s, seat, l, p)) moves[n++] = MOVE(MV_POINT, 0, p);
  moves[n++] = MOVE(MV_POINT, 0, EMPTY);
  return n;
}

/* The move pap_legal would list at index pf_rng_below(rng, n) (game.h's random_move). Placing
 * without shy cards, every card offered may go on the same piles (place_refusal asks only the
 * pile and how many are left), so the moves are the cards times the piles, card by card; pointing
 * without them, every pile then empty space. The rest (the expansions' windows, throws and
 * gifts, and shy cards, which make a card's piles its own) is listed. */
pf_move pap_random_move(const void *vs, pf_rng *rng, int *count) {
  const pap_state *s = vs;
  if (s->pend || s->rps_pile != NONE || s->window || s->shy) {
    pf_move moves[PF_MAX_MOVES];
    *count = pap_legal(vs, moves);
    return moves[pf_rng_below(rng, (uint32_t)*count)];
  }
  int l = top_level(s), np = s->npiles[l];
  uint64_t u = s->unplaced;
  if (!u) {
    *count = np + 1;
    int i = (int)pf_rng_below(rng, (uint32_t)*count);
    return MOVE(MV_POINT, 0, i < np ? i : EMPTY);
  }
  uint8_t piles[MAXP + 1], ks[MAX_DRAW];
  int nk = popcount64(u), nc = nk, npl = 0;
  if (pap_unplaced_public(s)) { /* G-5: the first of equal cards only */
    pap_unplaced(s, ks);
    u = 0;
    for (int i = 0; i < nk; i++) u |= (uint64_t)first_of_equals(s, ks, i) << ks[i];
    nc = popcount64(u);
  }
  for (int p = 0; p <= np; p++)
    if (place_refusal(s, p, nk) == PLACE_OK) piles[npl++] = (uint8_t)p;
  /* The cards offered, listed before the draw: the card drawn is then read from the list, where
   * counting down u's bits to it was a loop of a drawn length, which no predictor learns. */
  pap_bits(u, ks);
  *count = nc * npl;
  int i = (int)pf_rng_below(rng, (uint32_t)*count);
  return MOVE(MV_PLACE, ks[i / npl], piles[i % npl]);
}

void pap_apply(void *vs, pf_move m) {
  pap_state *s = vs;
  int l = top_level(s), b = MV_B(m);
  switch (MV_KIND(m)) {
  case MV_PLACE: {
    /* No branch waits for the move (a random playout's: a new pile or not is a coin toss, known
     * only once the move is): the pile count grows by a compare, and whether this card is the
     * last to place is read from the cards left before it. */
    int k = MV_A(m);
    bool last = !(s->unplaced & (s->unplaced - 1));
    s->npiles[l] = (uint8_t)(s->npiles[l] + (b == s->npiles[l]));
    s->pile[k] = (uint8_t)b;
    s->pos[k] = s->seq++;
    s->unplaced &= ~(1ull << k);
    if (last) pap_piles_made(s);
    return;
  }
  case MV_POINT:
    s->choice[l][pap_next_pointer(s)] = (uint8_t)b;
    if (pap_next_pointer(s) < 0) pap_reveal(s);
    return;
  case MV_PASS:
    s->passed |= (uint8_t)(1 << s->asked);
    pap_window_next(s);
    return;
  case MV_THROW: {
    int t = pap_next_thrower(s);
    if (t >= 0) s->rps[t] = (uint8_t)b; /* a legal throw always has a thrower */
    if (pap_next_thrower(s) < 0) pap_rps_reveal(s);
    return;
  }
  case MV_GIVE: pap_give(s, b); return;
  default: pap_use_action(s, s->asked, m); return;
  }
}

/* An action's argument, as PAP_ACTS[kind].arg says, after the word and a ':'. */
static void action_arg_str(int kind, int a, int b, char *buf, size_t n) {
  switch (PAP_ACTS[kind].arg) {
  case 'p':
  case 'r': pf_snprintf(buf, n, ":%d", b + 1); break;
  case 'm': b == EMPTY ? pf_snprintf(buf, n, ":empty") : pf_snprintf(buf, n, ":%d", b + 1); break;
  case 'w': pf_snprintf(buf, n, ":%d+%d", a + 1, b + 1); break;
  case 'o': pf_snprintf(buf, n, ":%d>%d", a + 1, b + 1); break;
  case 'c': pf_snprintf(buf, n, ":c%d", a + 1); break;
  case 's': pf_snprintf(buf, n, ":p%d.%d", a, b + 1); break;
  case 'k': pf_snprintf(buf, n, ":%c", pf_pap_colour_letter(b)); break;
  default: buf[0] = '\0'; break;
  }
}

void pap_move_str(const void *vs, pf_move m, char buf[PF_MOVE_STR]) {
  (void)vs;
  int kind = MV_KIND(m);
  if (kind == MV_PLACE)
    pf_snprintf(buf, PF_MOVE_STR, "c%d>%d", MV_A(m) + 1, MV_B(m) + 1);
  else if (kind == MV_POINT && MV_B(m) == EMPTY)
    pf_snprintf(buf, PF_MOVE_STR, "@empty");
  else if (kind == MV_POINT)
    pf_snprintf(buf, PF_MOVE_STR, "@%d", MV_B(m) + 1);
  else if (kind == MV_PASS)
    pf_snprintf(buf, PF_MOVE_STR, "pass");
  else if (kind == MV_THROW)
    pf_snprintf(buf, PF_MOVE_STR, "%s", PAP_THROWS[MV_B(m)]);
  else if (kind == MV_GIVE)
    pf_snprintf(buf, PF_MOVE_STR, "give:%d", MV_B(m) + 1);
  else {
    char arg[32];
    action_arg_str(kind - MV_ACT, MV_A(m), MV_B(m), arg, sizeof arg);
    pf_snprintf(buf, PF_MOVE_STR, "%s%s", PAP_ACTS[kind - MV_ACT].word, arg);
  }
}

/* Reads a positive number at *p (at most 3 digits); 0 when there is none. */
static int scan_number(const char **p) {
  int n = 0, digits = 0;
  while (**p >= '0' && **p <= '9' && digits < 3) {
    n = n * 10 + (*(*p)++ - '0');
    digits++;
  }
  return n;
}

/* What the game waits for, for refusals: "the Headpointer is making the piles". */
static const char *moment_text(const pap_state *s, char *buf, size_t n) {
  if (s->pend)
    pf_snprintf(buf, n, "seat %d is to give a card for its %s (give:K)", s->pend_seat,
             s->pend == PEND_TRADE ? "Trade" : "Switch");
  else if (s->rps_pile != NONE)
    pf_snprintf(buf, n, "rock-paper-scissors is being played for pile %d (rock, paper or scissors)", s->rps_pile + 1);
  else if (s->window)
    pf_snprintf(buf, n, "seat %d is asked whether to use an action %s (an action or pass)", s->asked,
             PAP_WINDOW_NAMES[s->window]);
  else if (pap_placing(s))
    pf_snprintf(buf, n, "the Headpointer is making the piles (PAP-3)");
  else
    pf_snprintf(buf, n, "it is time to point (PAP-4)");
  return buf;
}

/* The form of an action's move, for refusals of one written wrongly. */
static const char *action_form(int kind) {
  switch (PAP_ACTS[kind].arg) {
  case 'p': return "WORD:2 (pile 2)";
  case 'm': return "WORD:2 (pile 2) or WORD:empty";
  case 'w': return "WORD:1+2 (piles 1 and 2)";
  case 'o': return "WORD:3>1 (pile 3 onto pile 1)";
  case 'c': return "WORD:c5 (drawn card 5)";
  case 'r': return "WORD:3 (the third card of your row)";
  case 's': return "WORD:p2.3 (the third card of seat 2's row)";
  case 'k': return "WORD:R (a colour: R, G, B or P)";
  default: return "WORD (no argument)";
  }
}

/* Reads an action's argument t (after the ':', or "" when there is none) into a, b. */
static int scan_action_arg(const pap_state *s, int kind, const char *t, int *a, int *b) {
  const char *p = t;
  *a = *b = 0;
  switch (PAP_ACTS[kind].arg) {
  case 'm':
    if (strcasecmp(t, "empty") == 0) {
      *b = EMPTY;
      return 0;
    }
    /* fall through */
  case 'p':
  case 'r': *b = scan_number(&p) - 1; return *b >= 0 && !*p ? 0 : -1;
  case 'w':
  case 'o': {
    *a = scan_number(&p) - 1;
    if (*a < 0 || *p++ != (PAP_ACTS[kind].arg == 'w' ? '+' : '>')) return -1;
    *b = scan_number(&p) - 1;
    if (*b < 0 || *p) return -1;
    if (PAP_ACTS[kind].arg == 'w' && *a > *b) { /* either order: one swap */
      int x = *a;
      *a = *b, *b = x;
    }
    return 0;
  }
  case 'c':
    if (*p != 'c' && *p != 'C') return -1;
    p++;
    *a = scan_number(&p) - 1;
    return *a >= 0 && !*p ? 0 : -1;
  case 's':
    if (pf_pile_scan(&p, a) != 0 || *a >= s->players || *p++ != '.') return -1;
    *b = scan_number(&p) - 1;
    return *b >= 0 && !*p ? 0 : -1;
  case 'k': {
    const char *hit = t[0] && !t[1] ? strchr("RGBP", t[0] & ~0x20) : NULL;
    if (!hit) return -1;
    *b = (int)(hit - "RGBP");
    return 0;
  }
  default: return *t ? -1 : 0;
  }
}

/* An action move: refused, saying why, when actions are off, it is not the moment for it, the
 * seat holds no such card, it is written wrongly, or its target is not one it may take. */
static int parse_action(const pap_state *s, int kind, const char *text, const char *arg, pf_move *m, pf_error *err) {
  const char *name = pf_pap_kind_name(pf_pap_make_kind(0, PF_PAP_ACTION, kind));
  char moment[160];
  if (!s->actions) return pf_fail(err, "there are no actions in this game: the expansion actions is off (PAP-9)");
  if (s->pend || s->rps_pile != NONE || s->window != PAP_ACTS[kind].window)
    return pf_fail(err, "%s is used %s (PAP-9), but now %s", name, PAP_WINDOW_NAMES[PAP_ACTS[kind].window],
                   moment_text(s, moment, sizeof moment));
  int a, b;
  if (scan_action_arg(s, kind, arg, &a, &b) != 0) {
    char form[80], *w;
    pf_snprintf(form, sizeof form, "%s", action_form(kind));
    while ((w = strstr(form, "WORD")) != NULL) { /* the form with the action's word */
      char rest[80];
      pf_snprintf(rest, sizeof rest, "%s%s", PAP_ACTS[kind].word, w + 4);
      pf_snprintf(w, sizeof form - (size_t)(w - form), "%s", rest);
    }
    return pf_fail(err, "'%s' is not a %s move: write %s", text, name, form);
  }
  if (pap_action_pos(s, s->asked, kind) < 0)
    return pf_fail(err, "seat %d has no %s card (A%d) in its score row (PAP-9)", s->asked, name, kind);
  pf_move moves[PF_MAX_MOVES];
  int n = pap_action_targets(s, s->asked, kind, pap_action_pos(s, s->asked, kind), moves, 0);
  for (int i = 0; i < n; i++)
    if (moves[i] == MOVE(MV_ACT + kind, a, b)) {
      *m = moves[i];
      return 0;
    }
  return pf_fail(err, "'%s' cannot be played now: %s %s (PAP-9)", text, name, PAP_ACTS[kind].does);
}

static int parse_place(const pap_state *s, const char *text, pf_move *m, pf_error *err) {
  const char *p = text + 1;
  int card = scan_number(&p);
  if (card == 0 || *p != '>') return pf_fail(err, "'%s' is not a placement: write c4>2 (drawn card 4 onto pile 2)", text);
  p++;
  int pile = scan_number(&p);
  if (pile == 0 || *p) return pf_fail(err, "'%s' is not a placement: write c4>2 (drawn card 4 onto pile 2)", text);
  int l = top_level(s), np = s->npiles[l];
  if (card > s->ndrawn)
    return pf_fail(err, "there is no drawn card %d: cards 1-%d were drawn this round (PAP-3)", card, s->ndrawn);
  int k = card - 1;
  if (s->lvl[k] != l || s->pile[k] != NONE)
    return pf_fail(err, l > 0 ? "card %d is not one of the split pile's cards still to place (PAP-5)"
                              : "card %d is already placed (PAP-3)",
                   card);
  uint8_t ks[MAX_DRAW];
  int nk = pap_unplaced(s, ks);
  int why = place_refusal(s, pile - 1, nk);
  if (why == PLACE_SPLIT)
    return pf_fail(err, "a split makes at least two piles (PAP-5): this card must start pile 2");
  if (why && np == s->players)
    return pf_fail(err, "there are already %d piles, the most there may be (PAP-3): use piles 1-%d", np, np);
  if (why && np == 0) return pf_fail(err, "there is no pile yet: put the card on 1 to start one (PAP-3)");
  if (why) return pf_fail(err, "there %s %d pile%s: put the card on %s%d, or on %d to start a new one (PAP-3)",
                          np == 1 ? "is" : "are", np, np == 1 ? "" : "s", np > 1 ? "1-" : "", np, np + 1);
  if (!pap_shy_ok(s, k, pile - 1))
    return pf_fail(err, "card %d on pile %d would leave every pile with a Shy card on top: at least one pile "
                        "must have another card on top (PAP-9)", card, pile);
  /* G-5: among cards that lay face up, an equal card earlier in draw order stands for this one. */
  for (int i = 0; i < nk && pap_unplaced_public(s); i++)
    if (drawn(s, ks[i]) == drawn(s, k)) {
      k = ks[i];
      break;
    }
  *m = MOVE(MV_PLACE, k, pile - 1);
  return 0;
}

static int parse_point(const pap_state *s, const char *text, pf_move *m, pf_error *err) {
  int l = top_level(s), np = s->npiles[l];
  if (strcasecmp(text + 1, "empty") == 0 || strcasecmp(text + 1, "e") == 0) {
    *m = MOVE(MV_POINT, 0, EMPTY);
    return 0;
  }
  const char *p = text + 1;
  int pile = scan_number(&p);
  if (pile == 0 || *p) return pf_fail(err, "'%s' is not a choice: point with @2 (pile 2) or @empty", text);
  if (pile > np)
    return pf_fail(err, np == 1 ? "there is no pile %d: choose @1 or @empty (PAP-4)"
                                : "there is no pile %d: choose @1-@%d or @empty (PAP-4)", pile, np);
  if (!pap_may_point(s, pap_next_pointer(s), l, pile - 1)) {
    char b[PF_CARD_STR];
    pf_card top = drawn(s, pap_top_of(s, l, pile - 1));
    return pf_fail(err, "pile %d has the Shy card %s (%s) on top, which does not let seat %d point at it (PAP-9)", pile,
                   pap_card_str(top, b), pf_pap_kind_name(top), pap_next_pointer(s));
  }
  *m = MOVE(MV_POINT, 0, pile - 1);
  return 0;
}

/* The words of the moves that are not placements or choices: an action's, pass, give, a throw. */
static int parse_word(const pap_state *s, const char *text, pf_move *m, pf_error *err, bool *matched) {
  char word[16], moment[160];
  size_t len = strcspn(text, ":");
  const char *arg = text[len] ? text + len + 1 : "";
  *matched = true;
  pf_snprintf(word, sizeof word, "%.*s", (int)(len < sizeof word ? len : sizeof word - 1), text);
  for (int kind = 1; kind <= PF_PAP_ACTIONS; kind++)
    if (len < sizeof word && strcasecmp(word, PAP_ACTS[kind].word) == 0) return parse_action(s, kind, text, arg, m, err);
  for (int t = 0; t < 3; t++)
    if (strcasecmp(text, PAP_THROWS[t]) == 0) {
      if (s->rps_pile == NONE || s->pend)
        return pf_fail(err, "nobody is playing rock-paper-scissors now (PAP-9 Random): %s", moment_text(s, moment, sizeof moment));
      *m = MOVE(MV_THROW, 0, t);
      return 0;
    }
  if (strcasecmp(text, "pass") == 0) {
    if (!s->window || s->pend || s->rps_pile != NONE)
      return pf_fail(err, "there is no action to pass on now: %s", moment_text(s, moment, sizeof moment));
    *m = MOVE(MV_PASS, 0, 0);
    return 0;
  }
  if (strcasecmp(word, "give") == 0 && len == 4) {
    const char *p = arg;
    int i = scan_number(&p);
    if (!s->pend) return pf_fail(err, "nobody is giving a card now (PAP-9 Trade, Switch): %s", moment_text(s, moment, sizeof moment));
    if (i == 0 || *p) return pf_fail(err, "'%s' is not a card to give: write give:3 (the third card of your row)", text);
    if (i > s->row_len[s->pend_seat])
      return pf_fail(err, "seat %d's row has %d cards: give:1-give:%d", s->pend_seat, s->row_len[s->pend_seat],
                     s->row_len[s->pend_seat]);
    *m = MOVE(MV_GIVE, 0, i - 1);
    return 0;
  }
  *matched = false;
  return -1;
}

int pap_move_parse(const void *vs, const char *text, pf_move *m, pf_error *err) {
  const pap_state *s = vs;
  char moment[160];
  bool matched;
  int rc = parse_word(s, text, m, err, &matched);
  if (matched) return rc;
  bool place = text[0] == 'c' || text[0] == 'C';
  if (!place && text[0] != '@')
    return pf_fail(err, "'%s' is not a move: place a card with c4>2, point with @2 or @empty%s", text,
                   s->actions ? ", use an action (swap:1+2, ...) or pass" : "");
  if (s->pend || s->rps_pile != NONE || s->window) return pf_fail(err, "%s", moment_text(s, moment, sizeof moment));
  if (place && !pap_placing(s))
    return pf_fail(err, "the piles are made: it is time to point (@1-@%d or @empty, PAP-4)", s->npiles[top_level(s)]);
  if (place) return parse_place(s, text, m, err);
  if (pap_placing(s)) return pf_fail(err, "the Headpointer is still making the piles (PAP-3): nobody points yet");
  return parse_point(s, text, m, err);
}
