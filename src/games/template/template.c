/*
 * template.c - Snatch, the template game: the smallest real pile game, written to be read first
 * by whoever adds a game (docs/architecture.md, "How to add a game", walks through it).
 *
 * The rules (SN-1 .. SN-4, this file's own; a registered game cites ../shared/rules/RULINGS.md):
 *   SN-1  2 to 4 players; a deck of the twenty cards ace to five of the four suits. Only ranks
 *         match.
 *   SN-2  Each player is dealt 3 cards, one at a time from seat 0; the rest is the stock, face
 *         down. Every player has a pile, face up, empty at first. Seat 0 begins.
 *   SN-3  On your turn play a card from your hand. If its rank is that of the top card of
 *         another player's pile, you must snatch that pile: it goes onto yours, and your card on
 *         top of it (when two piles match, you choose). Otherwise the card goes onto your own
 *         pile. Then draw the stock's top card, if there is one, and the turn passes on.
 *   SN-4  When every hand is empty the game ends: the most cards in their pile win (ties share).
 *
 * It is not in the registry (games/registry.c), so `pilfer` does not offer it; the conformance
 * suite runs it (tests/test_conformance.c, ctest's test_conformance_template), which is how every
 * game is held to the interface of core/game.h. Its methods come in the order of that struct:
 * the required ones first, then the optional ones it gives (describe, move_zones, and the dense
 * actions and length for learning); it gives none of the speed hooks.
 */
#include <stdio.h>
#include <string.h>

#include "core/game.h"
#include "core/measure.h"
#include "core/slots.h"
#include "core/view.h"

/* ---- the state: one flat struct, no pointers, so that a clone is a memcpy (core/game.h) ---- */

#define DECK 20  /* SN-1: ace to five, four suits: the card codes 0..19 (core/card.h: rank = c >> 2) */
#define HAND 3   /* SN-2 */
#define MAXP 4

/* Every card is named by its slot: its place in the deal, top card first (core/slots.h). The
 * hands and piles hold slots; card[slot] is the card. Determinizing then rewrites card[] at the
 * slots a seat cannot see, and nothing else: the hands, piles and stock keep their shape. */
typedef struct sn_state {
  int players, turn, next; /* next: the stock is slots next .. DECK-1, its top first */
  int over;
  pf_card card[DECK];
  uint8_t hand[MAXP][HAND], hand_len[MAXP];
  uint8_t pile[MAXP][DECK], pile_len[MAXP]; /* bottom first */
} sn_state;

/* A move is the card played and where it goes: 0 onto the player's own pile, 1 + q to snatch seat
 * q's pile. Codes are the game's own business; move_bound says how big they get. */
#define MOVE(card, to) ((pf_move)(card) | (pf_move)(to) << 6)
#define MOVE_CARD(m) ((pf_card)((m)&63))
#define MOVE_TO(m) ((int)((m) >> 6))
#define MOVE_BOUND (MOVE(0, MAXP + 1))

static int rank_of(pf_card c) { return c >> 2; }

/* The top card of seat q's pile, or PF_CARD_NONE for an empty pile. */
static pf_card pile_top(const sn_state *s, int q) {
  return s->pile_len[q] ? s->card[s->pile[q][s->pile_len[q] - 1]] : PF_CARD_NONE;
}

/* ---- required: the rules ---- */

/* SN-2. A deal given (a record's, or a test's) is checked to be the deck; otherwise the deck is
 * shuffled from the seed (G-3). This game uses one deal, so its index is always 0. */
static int sn_start(void *st, const pf_setup *setup, pf_error *err) {
  sn_state *s = st;
  pf_card deck[DECK];
  for (int i = 0; i < DECK; i++) deck[i] = (pf_card)i;
  if (setup->ndeals > 1) return pf_fail(err, "one game uses one deal, but %d deals are given", setup->ndeals);
  if (pf_deals_check(setup->deals, setup->ndeals, deck, DECK, err) != 0) return -1;
  memset(s, 0, sizeof *s);
  s->players = setup->players;
  pf_slots_load_deal(s->card, deck, DECK, setup->deals, setup->ndeals, 0, setup->seed);
  for (int i = 0; i < HAND; i++) /* one card at a time, seat 0 first */
    for (int p = 0; p < s->players; p++) s->hand[p][s->hand_len[p]++] = (uint8_t)s->next++;
  return 0;
}

static int sn_to_move(const void *st) {
  const sn_state *s = st;
  return s->over ? PF_NOBODY : s->turn;
}

/* SN-3: for each card in hand, one move per other pile its rank tops, or, when it tops none, the
 * move onto the player's own pile. One deck: no two cards are equal, so no two moves are (G-5). */
static int sn_legal(const void *st, pf_move *out) {
  const sn_state *s = st;
  int n = 0, p = s->turn;
  for (int i = 0; i < s->hand_len[p]; i++) {
    pf_card c = s->card[s->hand[p][i]];
    int before = n;
    for (int q = 0; q < s->players; q++)
      if (q != p && s->pile_len[q] && rank_of(pile_top(s, q)) == rank_of(c)) out[n++] = MOVE(c, 1 + q);
    if (n == before) out[n++] = MOVE(c, 0);
  }
  return n;
}

/* SN-3, SN-4. */
static void sn_apply(void *st, pf_move m) {
  sn_state *s = st;
  int p = s->turn, to = MOVE_TO(m), i = 0;
  while (s->card[s->hand[p][i]] != MOVE_CARD(m)) i++;
  uint8_t slot = s->hand[p][i];
  memmove(&s->hand[p][i], &s->hand[p][i + 1], (size_t)(--s->hand_len[p] - i));
  if (to) { /* the snatched pile goes onto p's, bottom first */
    int q = to - 1;
    memcpy(&s->pile[p][s->pile_len[p]], s->pile[q], s->pile_len[q]);
    s->pile_len[p] = (uint8_t)(s->pile_len[p] + s->pile_len[q]);
    s->pile_len[q] = 0;
  }
  s->pile[p][s->pile_len[p]++] = slot;
  if (s->next < DECK) s->hand[p][s->hand_len[p]++] = (uint8_t)s->next++;
  s->turn = (p + 1) % s->players;
  if (s->hand_len[s->turn] == 0) s->over = 1; /* hands empty in turn: all of them are now */
}

static void sn_scores(const void *st, int *scores) {
  const sn_state *s = st;
  for (int p = 0; p < s->players; p++) scores[p] = s->pile_len[p];
}

static int sn_winners(const void *st, int *seats) {
  const sn_state *s = st;
  int best = 0, n = 0;
  for (int p = 0; p < s->players; p++) best = s->pile_len[p] > best ? s->pile_len[p] : best;
  for (int p = 0; p < s->players; p++)
    if (s->pile_len[p] == best) seats[n++] = p;
  return n;
}

/* Every slot is in exactly one place, and the cards are the deck. */
static int sn_check(const void *st, pf_error *err) {
  const sn_state *s = st;
  int seen[DECK] = {0}, held = 0;
  for (int k = s->next; k < DECK; k++) seen[k]++;
  for (int p = 0; p < s->players; p++) {
    for (int i = 0; i < s->hand_len[p]; i++) seen[s->hand[p][i]]++;
    for (int i = 0; i < s->pile_len[p]; i++) seen[s->pile[p][i]]++;
    held += s->hand_len[p];
  }
  for (int k = 0; k < DECK; k++)
    if (seen[k] != 1) return pf_fail(err, "slot %d is in %d places", k, seen[k]);
  if (!s->over && s->hand_len[s->turn] == 0) return pf_fail(err, "seat %d to move with no card", s->turn);
  if (s->over && held) return pf_fail(err, "over with cards in hand");
  for (int c = 0; c < DECK; c++)
    if (pf_card_count(s->card, DECK, (pf_card)c) != 1) return pf_fail(err, "card %d is not there once", c);
  return 0;
}

/* The deal: card[] is the deck order, as it was dealt (the record keeps it). */
static int sn_current_deal(const void *st, pf_deal *out) {
  const sn_state *s = st;
  if (out) {
    out->ncards = DECK;
    memcpy(out->cards, s->card, sizeof s->card);
  }
  return 0;
}

/* ---- required: notation (G-8, G-9): "3H" onto your own pile, "3H>p1" to snatch seat 1's ---- */

static void sn_move_str(const void *st, pf_move m, char buf[PF_MOVE_STR]) {
  (void)st;
  char c[PF_CARD_STR];
  pf_card_str(MOVE_CARD(m), c);
  if (MOVE_TO(m))
    snprintf(buf, PF_MOVE_STR, "%s>p%d", c, MOVE_TO(m) - 1);
  else
    snprintf(buf, PF_MOVE_STR, "%s", c);
}

/* Reads the card and the target, then finds the legal move they name; a refusal says why. */
static int sn_move_parse(const void *st, const char *text, pf_move *m, pf_error *err) {
  const sn_state *s = st;
  const char *p = text;
  pf_card c;
  int to = 0;
  if (pf_card_scan(&p, &c) != 0) return pf_fail(err, "moves look like 3H or 3H>p1");
  if (*p == '>') {
    p++;
    if (pf_pile_scan(&p, &to) != 0 || to >= s->players) return pf_fail(err, "after '>' comes a seat's pile: p0 .. p%d", s->players - 1);
    to++;
  }
  if (*p) return pf_fail(err, "unexpected '%s' after the move", p);
  pf_move moves[PF_MAX_MOVES];
  int n = sn_legal(s, moves);
  bool in_hand = false;
  for (int i = 0; i < n; i++) {
    if (moves[i] == MOVE(c, to)) {
      *m = moves[i];
      return 0;
    }
    in_hand |= MOVE_CARD(moves[i]) == c;
  }
  char cs[PF_CARD_STR];
  pf_card_str(c, cs);
  if (!in_hand) return pf_fail(err, "%s is not in your hand", cs);
  return pf_fail(err, to ? "%s does not match that pile's top (SN-3)" : "%s matches a pile, which must be snatched (SN-3)", cs);
}

/* ---- required: views ---- */

/* The game's fields after the core's (game, players, viewer, to_move, legal, scores ...): the
 * stock's size, then the zones (docs/views.md), every place a card lies, bottom first. A card the
 * viewer may not see is written null: the hands but the viewer's own (pf_view_sees_own), and the
 * stock but for the full view. The conformance suite holds this to what the viewer may know. */
static void sn_view_write(const void *st, int seat, pf_jw *w) {
  const sn_state *s = st;
  char id[PF_ZONE_ID], label[32];
  pf_jw_key_int(w, "stock", DECK - s->next);
  pf_zone_open(w, "stock", "stock", -1, "Stock", PF_STACK);
  for (int k = DECK - 1; k >= s->next; k--) pf_card_write_seen(w, s->card[k], seat == PF_VIEW_ALL);
  pf_zone_close(w);
  for (int p = 0; p < s->players; p++) {
    snprintf(id, sizeof id, "pile:%d", p);
    snprintf(label, sizeof label, "Seat %d's pile", p);
    pf_zone_open(w, id, "pile", p, label, PF_STACK);
    for (int i = 0; i < s->pile_len[p]; i++) pf_card_write(w, s->card[s->pile[p][i]]); /* face up */
    pf_zone_close(w);
  }
  for (int p = 0; p < s->players; p++) {
    snprintf(id, sizeof id, "hand:%d", p);
    snprintf(label, sizeof label, "Seat %d's hand", p);
    pf_zone_open(w, id, "hand", p, label, PF_FAN);
    for (int i = 0; i < s->hand_len[p]; i++) pf_card_write_seen(w, s->card[s->hand[p][i]], pf_view_sees_own(seat, p));
    pf_zone_close(w);
  }
}

/* The same for a person at a terminal. */
static void sn_view_text(const void *st, int seat, const pf_style *style, pf_buf *out) {
  const sn_state *s = st;
  char b[32];
  pf_buf_printf(out, "Snatch, %d players: stock %d\n", s->players, DECK - s->next);
  for (int p = 0; p < s->players; p++) {
    pf_buf_printf(out, "  seat %d%s: pile %d", p, p == seat ? " (you)" : "", s->pile_len[p]);
    if (s->pile_len[p]) pf_buf_printf(out, ", top %s", pf_card_render(pile_top(s, p), style, b));
    pf_buf_printf(out, "; hand");
    for (int i = 0; i < s->hand_len[p]; i++)
      pf_buf_printf(out, " %s", pf_view_sees_own(seat, p) ? pf_card_render(s->card[s->hand[p][i]], style, b) : "??");
    pf_buf_putc(out, '\n');
  }
}

/* ---- required: hidden information ---- */

/* What `seat` cannot see: the other hands and the stock (every hand for the public). Their cards
 * are resampled among those slots; pf_cards_resample sorts them first, which makes the result
 * canonical. This game keeps no generator or future deals in its state, so nothing else changes. */
static void sn_determinize(void *st, int seat, pf_rng *rng) {
  sn_state *s = st;
  uint8_t hidden[DECK];
  int n = 0;
  for (int p = 0; p < s->players; p++)
    if (!pf_view_sees_own(seat, p))
      for (int i = 0; i < s->hand_len[p]; i++) hidden[n++] = s->hand[p][i];
  for (int k = s->next; k < DECK && seat != PF_VIEW_ALL; k++) hidden[n++] = (uint8_t)k;
  pf_slots_shuffle(s->card, hidden, n, rng);
}

/* ---- optional: what the views add ---- */

/* "3♥ snatches seat 1's pile (4 cards)": every card is played face up, so all viewers are told
 * alike. Without it, people would read the move's string. */
static void sn_describe(const void *st, pf_move m, int viewer, const pf_style *style, pf_buf *out) {
  const sn_state *s = st;
  char b[32];
  int q = MOVE_TO(m) - 1;
  pf_buf_puts(out, pf_card_render(MOVE_CARD(m), style, b));
  if (q < 0)
    pf_buf_printf(out, " goes onto %s own pile", s->turn == viewer ? "your" : "their");
  else
    pf_buf_printf(out, " snatches %s pile (%d card%s)", q == viewer ? "your" : "a rival's", s->pile_len[q],
                  s->pile_len[q] == 1 ? "" : "s");
}

/* From the mover's hand to the pile it lands on, as the zones of sn_view_write name them: the
 * page then lets a player drag the card there. */
static void sn_move_zones(const void *st, pf_move m, pf_move_zones *z) {
  const sn_state *s = st;
  snprintf(z->from, sizeof z->from, "hand:%d", s->turn);
  z->card = MOVE_CARD(m);
  snprintf(z->to, sizeof z->to, "pile:%d", MOVE_TO(m) ? MOVE_TO(m) - 1 : s->turn);
}

/* ---- optional: for learning (docs/actions.md) ---- */

/* The dense actions, a policy head's outputs: card c (0..19) onto the player's own pile is
 * c * (N + 1), snatching seat q's pile c * (N + 1) + 1 + q. They depend on the code and the player
 * count only, never on the position (core/game.h); the conformance suite checks that they are one
 * to one on the legal moves and that action_move undoes action_index. */
static int sn_action_count(int players, const pf_options *options) {
  (void)options;
  return DECK * (players + 1);
}

static int sn_action_index(const void *st, pf_move m) {
  const sn_state *s = st;
  return MOVE_CARD(m) < DECK && MOVE_TO(m) <= s->players ? MOVE_CARD(m) * (s->players + 1) + MOVE_TO(m) : -1;
}

static pf_move sn_action_move(const void *st, int a) {
  const sn_state *s = st;
  return a >= 0 && a < DECK * (s->players + 1) ? MOVE(a / (s->players + 1), a % (s->players + 1)) : PF_NO_MOVE;
}

/* SN-2 .. SN-4: every move plays a card from a hand and every card reaches a hand, so a game is
 * exactly DECK moves (there are no chance events). */
static long sn_max_length(int players, const pf_options *options) {
  (void)players, (void)options;
  return DECK;
}

/* ---- the descriptor ---- */

/* What the bench and the strength runs would play of it, and the lobby's copy (core/measure.h):
 * a registered game's bench line reads these; the conformance suite checks each case is one the
 * game plays. Every card is played once, so a game is 20 moves at any player count. */
static const pf_measures MEASURES = {
    .playouts = {{2, 10000}},
    .searches = {{2, 1000, 2, {0, 4, 8}}},
    .sims = {{2, 10, "ismcts:iters=300 greedy"}},
    .strength = {{2, 200, "ismcts greedy"}},
    .quick_players = 2,
    .description = "The template game: play a card, and snatch the pile whose top card has its rank.",
    .length_players = 2,
    .length_moves = 20,
};

static const char RULES[] = "# Snatch\n\nThe template game of pilfer: read src/games/template/template.c (SN-1 .. SN-4).\n";

/* Designated initialisers, always: the fields' order in core/game.h is free to change. */
const pf_game pf_game_template = {
    .id = "template",
    .title = "Snatch (the template game)",
    .min_players = 2,
    .max_players = MAXP,
    .state_size = sizeof(sn_state),
    .move_bound = MOVE_BOUND,
    .rules = RULES,
    .measures = &MEASURES,
    .start = sn_start,
    .to_move = sn_to_move,
    .legal = sn_legal,
    .apply = sn_apply,
    .scores = sn_scores,
    .winners = sn_winners,
    .check = sn_check,
    .current_deal = sn_current_deal,
    .move_str = sn_move_str,
    .move_parse = sn_move_parse,
    .view_write = sn_view_write,
    .view_text = sn_view_text,
    .determinize = sn_determinize,
    .describe = sn_describe,
    .move_zones = sn_move_zones,
    .action_count = sn_action_count,
    .action_index = sn_action_index,
    .action_move = sn_action_move,
    .max_length = sn_max_length,
};
