/*
 * views.c - what a viewer sees of Point-a-Pile: the JSON view and its zones, the text view,
 * and moves described for people.
 */
#include "games/point_a_pile/pap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/slots.h"
#include "core/view.h"

/* The drawn cards ks[0..n) (draw numbers, from 0), as the elements of an open array. */
static void cards_write(const pap_state *s, const uint8_t *ks, int n, pf_jw *w) {
  for (int i = 0; i < n; i++) pf_card_write(w, drawn(s, ks[i]));
}

static void cards_array(const pap_state *s, const uint8_t *ks, int n, pf_jw *w) {
  pf_jw_open(w, '[');
  cards_write(s, ks, n, w);
  pf_jw_close(w, ']');
}

static void seats_write(int mask, pf_jw *w) {
  pf_jw_open(w, '[');
  for (int p = 0; p < MAXP; p++)
    if (mask >> p & 1) pf_jw_int(w, p);
  pf_jw_close(w, ']');
}

static void choice_write(int c, pf_jw *w) {
  if (c == UNCHOSEN)
    pf_jw_null(w);
  else if (c == EMPTY)
    pf_jw_str(w, "empty");
  else
    pf_jw_int(w, c + 1);
}

/* Does who leads matter at level l (Leading Curse in force, a Leader Veto card on top), once its
 * pointing has begun (the standings are noted then; someone always leads)? Only then do the views
 * say who leads: with `pile` the scores are hidden, and the engine tells only what the players
 * need to follow the cards (PAP-9). */
static bool leaders_matter(const pap_state *s, int l) {
  if (!s->leaders[l]) return false;
  if (s->rule == PF_PAP_LEADING_CURSE) return true;
  for (int p = 0; p < s->npiles[l] && s->shy; p++) {
    int k = pap_top_of(s, l, p);
    if (k >= 0 && is_shy(drawn(s, k)) && pf_pap_kind(drawn(s, k)) == PF_PAP_LEADER_VETO) return true;
  }
  return false;
}

/* Level l: its piles (cards bottom first, draw numbers), the piles resolved so far, who points
 * there and what each chose, as far as `seat` may know; with the expansions, who leads and who
 * waits (when it matters), who broke the rule, whose choice no longer counts and which piles Take
 * None discards. */
static void level_write(const pap_state *s, int l, int seat, pf_jw *w) {
  uint8_t ks[MAX_DRAW];
  pf_jw_open(w, '{');
  pf_jw_key(w, "piles");
  pf_jw_open(w, '[');
  for (int p = 0; p < s->npiles[l]; p++) cards_array(s, ks, pap_pile_cards(s, l, p, ks), w);
  pf_jw_close(w, ']');
  pf_jw_key(w, "numbers");
  pf_jw_open(w, '[');
  for (int p = 0; p < s->npiles[l]; p++) {
    int n = pap_pile_cards(s, l, p, ks);
    pf_jw_open(w, '[');
    for (int i = 0; i < n; i++) pf_jw_int(w, ks[i] + 1);
    pf_jw_close(w, ']');
  }
  pf_jw_close(w, ']');
  pf_jw_key_int(w, "resolved", s->cursor[l]);
  pf_jw_key(w, "pointers");
  seats_write(s->pointers[l] & ((1 << s->players) - 1), w);
  pf_jw_key(w, "choices");
  pf_jw_open(w, '[');
  for (int p = 0; p < s->players; p++) {
    int c = s->choice[l][p];
    if (!(s->pointers[l] >> p & 1) || c == UNCHOSEN)
      pf_jw_null(w);
    else if (pap_choice_visible(s, seat, l, p))
      choice_write(c, w);
    else
      pf_jw_str(w, "chosen");
  }
  pf_jw_close(w, ']');
  if (s->police || s->shy) {
    pf_jw_key(w, "leaders");
    if (leaders_matter(s, l))
      seats_write(s->leaders[l], w);
    else
      pf_jw_null(w);
  }
  if (s->police) {
    pf_jw_key(w, "late");
    seats_write(s->late[l], w);
    pf_jw_key(w, "broke");
    seats_write(s->broke[l], w);
  }
  if (s->actions) {
    pf_jw_key(w, "voided");
    seats_write(s->voided[l], w);
    pf_jw_key(w, "dropped");
    pf_jw_open(w, '[');
    for (int p = 0; p < s->npiles[l]; p++)
      if (s->dropped[l] >> p & 1) pf_jw_int(w, p + 1);
    pf_jw_close(w, ']');
  }
  pf_jw_close(w, '}');
}

static void row_write(const pap_state *s, int p, int seat, pf_jw *w) {
  int n = s->row_len[p];
  pf_jw_open(w, '{');
  pf_jw_key_int(w, "size", n);
  pf_jw_key(w, "top");
  pf_card_write_seen(w, n ? row_card(s, p, n - 1) : 0, n > 0);
  if (pap_row_visible(s, seat, p)) {
    row_stats st = pap_stats_of(s, p);
    pf_jw_key(w, "cards");
    pf_jw_open(w, '[');
    for (int i = 0; i < n; i++) pf_card_write(w, row_card(s, p, i));
    pf_jw_close(w, ']');
    pf_jw_key(w, "values");
    pf_jw_open(w, '[');
    for (int i = 0; i < n; i++) pf_jw_int(w, pap_row_value(s, p, &st, i));
    pf_jw_close(w, ']');
  }
  pf_jw_close(w, '}');
}

static const char *phase_name(const pap_state *s) {
  if (s->over) return "over";
  if (s->pend) return "give";
  if (s->rps_pile != NONE) return "rock-paper-scissors";
  if (s->window) return "actions";
  return pap_placing(s) ? "place" : "point";
}

/* The expansions' fields of the view (PAP-9). */
/* police: the rule in force, or before the round's pointing the one that will be, as the
 * Headpointer's last card scored (always face up) says. */
static int rule_shown(const pap_state *s) { return s->ruled ? s->rule : s->over ? 0 : pap_rule_in_force(s); }

/* Rock-paper-scissors over a pile (Action cards), while it is played: null otherwise. */
static void rps_write(const pap_state *s, int seat, pf_jw *w) {
  if (s->rps_pile == NONE || s->over) {
    pf_jw_null(w);
    return;
  }
  pf_jw_open(w, '{');
  pf_jw_key_int(w, "pile", s->rps_pile + 1);
  pf_jw_key(w, "players");
  seats_write(s->rps_left, w);
  pf_jw_key_int(w, "throw", s->rps_throws + 1);
  pf_jw_key(w, "throws");
  pf_jw_open(w, '[');
  for (int p = 0; p < s->players; p++) {
    int t = s->rps[p];
    if (!(s->rps_left >> p & 1) || t == UNCHOSEN)
      pf_jw_null(w);
    else
      pf_jw_str(w, pap_throw_visible(s, seat, p) ? PAP_THROWS[t] : "thrown");
  }
  pf_jw_close(w, ']');
  pf_jw_close(w, '}');
}

static void expansions_write(const pap_state *s, int seat, pf_jw *w) {
  if (s->police) {
    int rule = rule_shown(s);
    pf_jw_key(w, "rule");
    if (rule)
      pf_jw_str(w, pf_pap_kind_name(pf_pap_make_kind(0, PF_PAP_RULE, rule)));
    else
      pf_jw_null(w);
    pf_jw_key(w, "out_of_round");
    seats_write(s->outs, w);
  }
  if (s->missions) {
    pf_jw_key(w, "missions");
    pf_jw_open(w, '[');
    for (int p = 0; p < s->players; p++) pf_card_write_seen(w, s->mission[p], pap_mission_visible(s, seat, p));
    pf_jw_close(w, ']');
    pf_jw_key(w, "missions_met");
    seats_write(s->met, w);
  }
  if (!s->actions) return;
  pf_jw_key(w, "window");
  if (s->window)
    pf_jw_str(w, PAP_WINDOW_NAMES[s->window]);
  else
    pf_jw_null(w);
  pf_jw_key(w, "asked");
  if (s->window && !s->over)
    pf_jw_int(w, s->asked);
  else
    pf_jw_null(w);
  pf_jw_key(w, "acted");
  seats_write(s->acted, w);
  pf_jw_key(w, "action_stop");
  pf_jw_bool(w, s->stopped);
  pf_jw_key_int(w, "draw_more", s->ndrawmore);
  pf_jw_key(w, "rps");
  rps_write(s, seat, w);
  pf_jw_key(w, "giving");
  if (s->pend && !s->over) {
    pf_jw_open(w, '{');
    pf_jw_key_int(w, "seat", s->pend_seat);
    pf_jw_key_int(w, "to", s->pend_to);
    pf_jw_key_str(w, "for", s->pend == PEND_TRADE ? "Trade" : "Switch");
    pf_jw_close(w, '}');
  } else {
    pf_jw_null(w);
  }
}

/* ---- zones (docs/views.md) ---- */

/* The zone of pile p (from 0) at level l: "pap:0.2" is the round's pile 2, as moves number it. */
static void pile_id(int l, int p, char id[PF_ZONE_ID]) { pf_snprintf(id, PF_ZONE_ID, "pap:%d.%d", l, p + 1); }

static void row_id(int seat, char id[PF_ZONE_ID]) { pf_snprintf(id, PF_ZONE_ID, "row:%d", seat); }

/* What a choice points at: pile c's zone, or for empty space the cards discarded this round,
 * which tapping it alone wins (PAP-6). */
static void point_zone(int l, int c, char id[PF_ZONE_ID]) {
  if (c == EMPTY)
    strcpy(id, "discard");
  else
    pile_id(l, c, id);
}

/* A zone of n cards at deck slots (slots_cards) with nothing more. */
static void slots_zone(const pap_state *s, const char *id, const char *kind, int owner, const char *label,
                       const uint8_t *slots, int n, int shown, pf_layout layout, pf_jw *w) {
  pf_zone_open(w, id, kind, owner, label, layout);
  pf_slots_cards_write(w, s->card, slots, n, shown);
  pf_zone_close(w);
}

/* The piles of every level, face up (PAP-3, PAP-5), and while the Headpointer may start a new
 * pile at the top level, that pile, empty, for the placing moves to point at. */
static void piles_zones(const pap_state *s, pf_jw *w) {
  for (int l = 0; l < s->depth; l++) {
    bool room = !s->over && l == top_level(s) && pap_placing(s) && s->npiles[l] < s->players;
    for (int p = 0; p < s->npiles[l] + room; p++) {
      uint8_t ks[MAX_DRAW];
      char id[PF_ZONE_ID], label[32];
      int n = pap_pile_cards(s, l, p, ks);
      pile_id(l, p, id);
      static const char *const NTH[] = {"", "", " second", " third", " fourth", " fifth"};
      if (!l)
        pf_snprintf(label, sizeof label, "Pile %d", p + 1);
      else if (l < 6)
        pf_snprintf(label, sizeof label, "Pile %d of the%s split", p + 1, NTH[l]);
      else
        pf_snprintf(label, sizeof label, "Pile %d of a later split", p + 1);
      pf_zone_open(w, id, "pile", -1, label, PF_FAN);
      cards_write(s, ks, n, w);
      const char *note = p == s->npiles[l]                    ? "new pile"
                         : s->dropped[l] >> p & 1              ? "Take None: discarded"
                         : p < s->cursor[l]                    ? "resolved"
                         : l < top_level(s) && p == s->cursor[l] ? "being split"
                                                                 : NULL;
      if (note) pf_zone_write_note(w, note);
      pf_zone_close(w);
    }
  }
}

/* Every seat's score row: all of it where the viewer may see it (PAP-8: else its top card), with
 * the score as the zone's value when the viewer may know it; and with `missions` the missions,
 * each seen by its owner (PAP-9), and the mission deck's rest. */
static void rows_zones(const pap_state *s, int seat, pf_jw *w) {
  for (int p = 0; p < s->players; p++) {
    char id[PF_ZONE_ID], label[32];
    int n = s->row_len[p];
    bool whole = pap_row_visible(s, seat, p);
    row_id(p, id);
    pf_snprintf(label, sizeof label, "Seat %d's row", p);
    pf_zone_open(w, id, "row", p, label, PF_FAN);
    pf_slots_cards_write(w, s->card, s->row[p], n, whole ? 0 : n - 1);
    if (whole) pf_zone_write_value(w, pap_score_of(s, p), abs(pap_score_of(s, p)) == 1 ? "%lld point" : "%lld points");
    pf_zone_close(w);
  }
  for (int p = 0; p < s->players && s->missions; p++) {
    char id[PF_ZONE_ID], label[32];
    pf_snprintf(id, sizeof id, "mission:%d", p);
    pf_snprintf(label, sizeof label, "Seat %d's mission", p);
    pf_zone_open(w, id, "mission", p, label, PF_STACK);
    pf_card_write_seen(w, s->mission[p], pap_mission_visible(s, seat, p));
    pf_zone_close(w);
  }
  if (!s->missions) return;
  pf_zone_open(w, "missions", "deck", -1, "Missions nobody drew", PF_STACK);
  for (int i = s->players; i < MISSION_CARDS; i++) pf_card_write_seen(w, s->mission[i], seat == PF_VIEW_ALL);
  pf_zone_close(w);
}

/* The zones (docs/views.md): the deck (unseen, PAP-1), the drawn cards still to place (seen by
 * the Headpointer only until they have lain face up, PAP-3), the piles, the cards discarded this
 * round (which tapping empty space may win, PAP-6), the cards out of the game, the score rows and
 * the missions. */
static void pap_zones(const pap_state *s, int seat, pf_jw *w) {
  uint8_t slots[MAX_CARDS], ks[MAX_DRAW];
  int n = 0;
  for (int i = s->ncards - 1; i >= s->next_slot; i--) slots[n++] = (uint8_t)i; /* the next card on top */
  slots_zone(s, "deck", "deck", -1, "Deck", slots, n, seat == PF_VIEW_ALL ? 0 : n, PF_STACK, w);
  int nk = !s->depth ? 0 : pap_unplaced(s, ks);
  if (nk) {
    for (int i = 0; i < nk; i++) slots[i] = (uint8_t)slot_of(s, ks[i]);
    slots_zone(s, "drawn", "hand", s->head, "To place", slots, nk, pap_unplaced_visible(s, seat) ? 0 : nk, PF_FAN, w);
  }
  piles_zones(s, w);
  pf_zone_open(w, "discard", "discard", -1, "Discarded this round", PF_FAN);
  cards_write(s, s->disc, s->ndisc, w);
  pf_zone_close(w);
  slots_zone(s, "out", "other", -1, "Out of the game", s->out, s->nout, 0, PF_STACK, w);
  rows_zones(s, seat, w);
}

static void log_text(const pap_event *e, int n, int viewer, const pf_style *st, pf_buf *out);

/* The round's log as the text view tells it, one string a line: what each seat chose once the
 * choices are revealed (PAP-4), what became of each pile, the expansions' events. Everyone is
 * told the same (the text view differs only in calling the viewer "you"), so seats are named. */
static void log_write(const pap_event *e, int n, pf_jw *w) {
  pf_buf b = {0};
  pf_style plain = {0};
  log_text(e, n, PF_VIEW_PUBLIC, &plain, &b);
  pf_jw_open(w, '[');
  for (char *line = b.data, *end; line && *line; line = end + 1) {
    end = strchr(line, '\n');
    char *text = line;
    while (*text == ' ') text++;
    pf_jw_strn(w, text, (size_t)(end - text));
  }
  pf_jw_close(w, ']');
  pf_buf_free(&b);
}

/* PAP-8: a score the seat cannot work out is not shown (null). */
bool pap_score_hidden(const void *vs, int seat, int p) { return !pap_row_visible(vs, seat, p); }

/* ---- the end, in data and in words (view.h: pf_end_open) ---- */

/* PAP-9 missions: each seat whose mission was met, with the mission and the points it had: the
 * event "mission_met" ("seat", "mission", "mission_text", "score"). */
static void mission_met_write(const pap_state *s, int p, pf_jw *w) {
  pf_buf text = {0}, say = {0};
  pf_pap_card_text(s->mission[p], &text);
  const char *what = pf_buf_str(&text);
  if (!strncmp(what, "mission: ", 9)) what += 9;
  int score = pap_score_of(s, p);
  pf_end_event(w, "mission_met", "PAP-9");
  pf_jw_key_int(w, "seat", p);
  pf_jw_key(w, "mission");
  pf_card_write(w, s->mission[p]);
  pf_jw_key_str(w, "mission_text", what);
  pf_jw_key_int(w, "score", score);
  pf_buf_printf(&say, "{%d} met their mission, \u201c%s\u201d, with %d point%s: a mission met wins, whatever the scores.", p,
                what, score, score == 1 || score == -1 ? "" : "s");
  pf_end_say(w, pf_buf_str(&say));
  pf_buf_free(&text);
  pf_buf_free(&say);
}

/* PAP-7: the seats with 10 points or more ("goal_reached", "seat", "score"), or the deck empty at
 * the start of a round ("deck_empty"), the highest score winning. */
static void end_write(const pap_state *s, pf_jw *w) {
  pf_buf say = {0};
  int reached = 0;
  pf_end_open(w);
  for (int p = 0; p < s->players; p++)
    if (s->met >> p & 1) mission_met_write(s, p, w);
  for (int p = 0; p < s->players && !s->missions; p++) {
    int score = pap_score_of(s, p);
    if (score < 10) continue;
    reached++;
    pf_end_event(w, "goal_reached", "PAP-7");
    pf_jw_key_int(w, "seat", p);
    pf_jw_key_int(w, "score", score);
    pf_buf_clear(&say);
    pf_buf_printf(&say, "{%d} reached %d points: 10 points end the game at once.", p, score);
    pf_end_say(w, pf_buf_str(&say));
  }
  if (!s->met && !reached) {
    pf_end_event(w, "deck_empty", "PAP-7");
    pf_jw_key_int(w, "round", s->round);
    pf_buf_clear(&say);
    pf_buf_printf(&say, "The deck ran out after round %d%s: the highest score wins.", s->round,
                  s->missions ? " with no mission met" : "");
    pf_end_say(w, pf_buf_str(&say));
  }
  pf_end_close(w);
  pf_buf_free(&say);
}

void pap_view_write(const void *vs, int seat, pf_jw *w) {
  const pap_state *s = vs;
  pf_jw_key_int(w, "head", s->head);
  pf_jw_key_int(w, "round", s->round);
  pf_jw_key_int(w, "deck", s->ncards - s->next_slot);
  pf_jw_key(w, "pile_variant");
  pf_jw_bool(w, s->pile_variant);
  pf_jw_key_str(w, "phase", phase_name(s));
  uint8_t ks[MAX_DRAW];
  int nk = !s->depth ? 0 : pap_unplaced(s, ks);
  pf_jw_key_int(w, "unplaced_count", nk);
  if (nk && pap_unplaced_visible(s, seat)) {
    pf_jw_key(w, "unplaced");
    pf_jw_open(w, '[');
    for (int i = 0; i < nk; i++) {
      pf_jw_open(w, '{');
      pf_jw_key_int(w, "number", ks[i] + 1);
      pf_jw_key(w, "card");
      pf_card_write(w, drawn(s, ks[i]));
      pf_jw_close(w, '}');
    }
    pf_jw_close(w, ']');
  }
  pf_jw_key(w, "levels");
  pf_jw_open(w, '[');
  for (int l = 0; l < s->depth; l++) level_write(s, l, seat, w);
  pf_jw_close(w, ']');
  pf_jw_key(w, "rows");
  pf_jw_open(w, '[');
  for (int p = 0; p < s->players; p++) row_write(s, p, seat, w);
  pf_jw_close(w, ']');
  pf_jw_key(w, "tapped");
  seats_write(s->tapped, w);
  pf_jw_key(w, "discards");
  cards_array(s, s->disc, s->ndisc, w);
  pf_jw_key_int(w, "out", s->nout);
  /* this round's log (the last round's once the game is over), and the round's before it */
  pf_jw_key(w, "log");
  log_write(s->log, s->nlog, w);
  pf_jw_key(w, "previous_log");
  log_write(s->prev, s->nprev, w);
  expansions_write(s, seat, w);
  if (s->over) end_write(s, w);
  pap_zones(s, seat, w);
}

/* ---- text ---- */

static void put_card(pf_buf *out, pf_card c, const pf_style *st) {
  char b[64];
  pf_buf_puts(out, pf_card_render_in(&pf_pap_notation, c, st, b));
}

/* A card in words, for what moves and the log tell: "the blue card \u201c3 if 6+ cards\u201d", "the
 * purple card \u201cSwap\u201d" (a Rule, Shy or Action card by its name), "the textless green card". */
static void put_words(pf_buf *out, pf_card c) {
  const char *colour = pf_pap_colour_name(pf_pap_colour(c)), *name = pf_pap_kind_name(c);
  if (is_textless(c)) {
    pf_buf_printf(out, "the textless %s card", colour);
    return;
  }
  pf_buf_printf(out, "the %s card \u201c", colour);
  if (*name)
    pf_buf_puts(out, name);
  else
    pf_pap_card_text(c, out);
  pf_buf_puts(out, "\u201d");
}

/* Adds c to the legend of card texts shown under the table, once. */
static void legend_add(pf_card *legend, int *n, pf_card c) {
  if (is_textless(c)) return;
  pf_card plain = pap_with_colour(c, PF_PAP_RED);
  for (int i = 0; i < *n; i++)
    if (legend[i] == plain) return;
  if (*n < MAX_CARDS) legend[(*n)++] = plain;
}

static const char *seat_name(int p, int viewer, char buf[16]) {
  if (p == viewer) return "you";
  pf_snprintf(buf, 16, "seat %d", p);
  return buf;
}

static void put_choice(pf_buf *out, int c) {
  if (c == EMPTY)
    pf_buf_puts(out, "empty space");
  else
    pf_buf_printf(out, "pile %d", c + 1);
}

static const char *action_name(int kind) { return pf_pap_kind_name(pf_pap_make_kind(0, PF_PAP_ACTION, kind)); }

/* What an action does, for people: "swap piles 1 and 2". `target` is the card it moves, when it
 * moves one (the card of a row or a pile, which the viewer may see). */
static void action_words(int kind, int a, int b, pf_card target, int viewer, const pf_style *st, pf_buf *out) {
  char name[16];
  switch (kind) {
  case PF_PAP_SWAP: pf_buf_printf(out, "swap piles %d and %d", a + 1, b + 1); return;
  case PF_PAP_STEAL: pf_buf_puts(out, "take "); break;
  case PF_PAP_HEADPOINTER: pf_buf_puts(out, "become the Headpointer"); return;
  case PF_PAP_DISCARD: pf_buf_printf(out, "discard card %d of %s: ", b + 1, a == viewer ? "your row" : seat_name(a, viewer, name)); break;
  case PF_PAP_RANDOM: pf_buf_printf(out, "settle pile %d by rock-paper-scissors", b + 1); return;
  case PF_PAP_MERGE: pf_buf_printf(out, "put pile %d on pile %d", a + 1, b + 1); return;
  case PF_PAP_SWITCH: pf_buf_printf(out, "take card %d of %s, giving one back: ", b + 1, seat_name(a, viewer, name)); break;
  case PF_PAP_REORDER: pf_buf_printf(out, "move card %d to the end of the row: ", b + 1); break;
  case PF_PAP_TAKE_ALL: pf_buf_printf(out, "win pile %d alone", b + 1); return;
  case PF_PAP_TAKE_NONE: pf_buf_printf(out, "discard pile %d", b + 1); return;
  case PF_PAP_REDO: pf_buf_puts(out, "make the round's piles anew and point again"); return;
  case PF_PAP_CHANGE_MIND:
    pf_buf_puts(out, "point at ");
    put_choice(out, b);
    pf_buf_puts(out, " instead");
    return;
  case PF_PAP_DRAW_MORE: pf_buf_printf(out, "the Headpointer draws %d more cards", DRAW_MORE); return;
  case PF_PAP_COLOR_STOP: pf_buf_printf(out, "remove the %s cards from the piles", pf_pap_colour_name(b)); return;
  case PF_PAP_ACTION_STOP: pf_buf_puts(out, "no more actions this round"); return;
  default: pf_buf_printf(out, "win pile %d alone, giving every other player a card", b + 1); return;
  }
  (void)st;
  put_words(out, target);
}

static void log_text(const pap_event *e, int n, int viewer, const pf_style *st, pf_buf *out) {
  char b[16];
  for (int i = 0; i < n; i++, e++) {
    const char *where = e->level ? " of the split" : "";
    switch (e->kind) {
    case EV_REVEAL:
      pf_buf_printf(out, "  %s:", e->level ? "Pointing again after the split" : "Pointing");
      for (int p = 0; p < MAXP; p++)
        if (e->mask >> p & 1) {
          pf_buf_printf(out, " %s at ", seat_name(p, viewer, b));
          put_choice(out, e->choice[p]);
          pf_buf_puts(out, ";");
        }
      out->data[out->len - 1] = '\n';
      break;
    case EV_SCORED:
      pf_buf_printf(out, "    pile %d%s (%d card%s): %s scored it\n", e->pile + 1, where, e->ncards,
                    e->ncards == 1 ? "" : "s", seat_name(e->seat, viewer, b));
      break;
    case EV_DISCARDED:
      pf_buf_printf(out, "    pile %d%s (%d card%s): %s, discarded\n", e->pile + 1, where, e->ncards,
                    e->ncards == 1 ? "" : "s",
                    e->act ? "Take None" : e->mask ? "contested single card" : "nobody wanted it");
      break;
    case EV_SPLIT:
      pf_buf_printf(out, "    pile %d%s (%d cards): wanted by %d players, split\n", e->pile + 1, where, e->ncards,
                    popcount(e->mask));
      break;
    case EV_EMPTY_SCORES:
      pf_buf_printf(out, "  Empty space: %s alone tapped it and scored %d discarded card%s\n",
                    seat_name(e->seat, viewer, b), e->ncards, e->ncards == 1 ? "" : "s");
      break;
    case EV_EMPTY_LOST:
      pf_buf_printf(out, "  Empty space: tapped by %d players, so the %d discarded card%s left the game\n",
                    popcount(e->mask), e->ncards, e->ncards == 1 ? "" : "s");
      break;
    case EV_BROKE:
      pf_buf_printf(out, "    %s broke the rule %s: out of the round\n", seat_name(e->seat, viewer, b),
                    pf_pap_kind_name(pf_pap_make_kind(0, PF_PAP_RULE, e->act)));
      break;
    case EV_ACTION:
      pf_buf_printf(out, "  %s used %s: ", seat_name(e->seat, viewer, b), action_name(e->act));
      action_words(e->act, e->a, e->b, e->card[1], viewer, st, out);
      pf_buf_putc(out, '\n');
      break;
    case EV_THROWS:
      pf_buf_printf(out, "    rock-paper-scissors for pile %d, throw %d:", e->pile + 1, e->a);
      for (int p = 0; p < MAXP; p++)
        if (e->mask >> p & 1) pf_buf_printf(out, " %s %s;", seat_name(p, viewer, b), PAP_THROWS[e->choice[p]]);
      out->data[out->len - 1] = '\n';
      if (e->b) pf_buf_printf(out, "      lost the pile:");
      for (int p = 0; p < MAXP; p++)
        if (e->b >> p & 1) pf_buf_printf(out, " %s", seat_name(p, viewer, b));
      if (e->b) pf_buf_putc(out, '\n');
      break;
    case EV_GIVE:
      pf_buf_printf(out, "    %s gave ", seat_name(e->seat, viewer, b));
      put_words(out, e->card[0]);
      pf_buf_printf(out, " to %s", seat_name(e->a, viewer, b));
      if (e->card[1]) {
        pf_buf_puts(out, " for ");
        put_words(out, e->card[1]);
      }
      pf_buf_putc(out, '\n');
      break;
    default: pf_buf_printf(out, "  %s met %s mission\n", seat_name(e->seat, viewer, b), e->seat == viewer ? "your" : "their"); break;
    }
  }
}

static void rows_text(const pap_state *s, int seat, const pf_style *st, pf_card *legend, int *nlegend, pf_buf *out) {
  char b[16];
  pf_buf_puts(out, "Score rows (first scored first; values in brackets):\n");
  for (int p = 0; p < s->players; p++) {
    int n = s->row_len[p];
    pf_buf_printf(out, "  %-7s%s ", seat_name(p, seat, b), p == s->head ? "*" : " ");
    if (!pap_row_visible(s, seat, p)) {
      pf_buf_printf(out, "%d card%s, top ", n, n == 1 ? "" : "s");
      if (n) {
        put_card(out, row_card(s, p, n - 1), st);
        legend_add(legend, nlegend, row_card(s, p, n - 1));
      } else {
        pf_buf_puts(out, "-");
      }
      pf_buf_puts(out, "; score hidden (pile variant)\n");
      continue;
    }
    row_stats rs = pap_stats_of(s, p);
    for (int i = 0; i < n; i++) {
      pf_card c = row_card(s, p, i);
      put_card(out, c, st);
      if (!is_textless(c)) pf_buf_printf(out, "(%+d)", pap_row_value(s, p, &rs, i));
      pf_buf_puts(out, " ");
      legend_add(legend, nlegend, c);
    }
    pf_buf_printf(out, "%s= %d\n", n ? "" : "(none) ", pap_score_of(s, p));
  }
}

/* The expansions' lines above the table: the rule in force, the missions the seat may see, the
 * actions used. */
static void expansions_text(const pap_state *s, int seat, const pf_style *st, pf_buf *out) {
  char b[16];
  if (s->police && !s->over) {
    int rule = rule_shown(s);
    pf_card r = pf_pap_make_kind(0, PF_PAP_RULE, rule);
    if (rule)
      pf_buf_printf(out, "Rule in force (police): %s: %s.\n", pf_pap_kind_name(r), pf_pap_rule_text(rule));
    else
      pf_buf_puts(out, "No rule in force (police): the Headpointer's last card scored is not a Rule card.\n");
  }
  for (int p = 0; p < s->players && s->missions; p++) {
    if (!pap_mission_visible(s, seat, p)) continue;
    if (p == seat)
      pf_buf_puts(out, "Your mission (secret): ");
    else
      pf_buf_printf(out, "Mission of %s: ", seat_name(p, seat, b));
    put_card(out, s->mission[p], st);
    pf_buf_puts(out, ", ");
    pf_pap_card_text(s->mission[p], out);
    pf_buf_puts(out, (s->met >> p & 1) ? " (met)\n" : "\n");
  }
  if (s->actions && !s->over && (s->acted || s->stopped)) {
    pf_buf_puts(out, "Actions used this round:");
    for (int p = 0; p < s->players; p++)
      if (s->acted >> p & 1) pf_buf_printf(out, " %s;", seat_name(p, seat, b));
    out->data[out->len - 1] = s->stopped ? ';' : '.';
    pf_buf_puts(out, s->stopped ? " Action Stop: no more actions this round.\n" : "\n");
  }
}

/* The last line: who is to do what, as `seat` may know it. */
static void status_text(const pap_state *s, int seat, const pf_style *st, pf_card *legend, int *nlegend, pf_buf *out) {
  char b[16];
  uint8_t ks[MAX_DRAW];
  int l = top_level(s), nk = s->depth ? pap_unplaced(s, ks) : 0;
  if (s->pend) {
    char b2[16];
    pf_buf_printf(out, "%s gives %s a card of their row (%s).\n", seat_name(s->pend_seat, seat, b),
                  seat_name(s->pend_to, seat, b2), s->pend == PEND_TRADE ? "Trade" : "Switch");
  } else if (s->rps_pile != NONE) {
    pf_buf_printf(out, "Rock-paper-scissors for pile %d (throw %d of at most %d):", s->rps_pile + 1, s->rps_throws + 1,
                  RPS_THROWS);
    for (int p = 0; p < s->players; p++)
      if (s->rps_left >> p & 1)
        pf_buf_printf(out, " %s %s;", seat_name(p, seat, b),
                      s->rps[p] == UNCHOSEN ? "to throw" : pap_throw_visible(s, seat, p) ? PAP_THROWS[s->rps[p]] : "has thrown");
    out->data[out->len - 1] = '\n';
  } else if (s->window) {
    pf_buf_printf(out, "Actions %s (PAP-9): %s may use an action or pass.\n", PAP_WINDOW_NAMES[s->window],
                  seat_name(s->asked, seat, b));
  } else if (nk && pap_unplaced_visible(s, seat)) {
    pf_buf_printf(out, "To place (%d):", nk);
    for (int i = 0; i < nk; i++) {
      pf_buf_printf(out, " c%d ", ks[i] + 1);
      put_card(out, drawn(s, ks[i]), st);
      legend_add(legend, nlegend, drawn(s, ks[i]));
    }
    pf_buf_putc(out, '\n');
  } else if (nk) {
    pf_buf_printf(out, "The Headpointer has %d drawn card%s still to place.\n", nk, nk == 1 ? "" : "s");
  } else {
    pf_buf_puts(out, "Pointing:");
    for (int p = 0; p < s->players; p++) {
      if (!(s->pointers[l] >> p & 1)) continue;
      int c = s->choice[l][p];
      pf_buf_printf(out, " %s ", seat_name(p, seat, b));
      if (c == UNCHOSEN)
        pf_buf_puts(out, s->late[l] >> p & 1 ? "to choose after the others (Trailing Reward)" : "to choose");
      else if (pap_choice_visible(s, seat, l, p))
        put_choice(out, c);
      else
        pf_buf_puts(out, "has chosen");
      pf_buf_puts(out, ";");
    }
    out->data[out->len - 1] = '\n';
  }
}

void pap_view_text(const void *vs, int seat, const pf_style *st, pf_buf *out) {
  const pap_state *s = vs;
  pf_card legend[MAX_CARDS];
  int nlegend = 0;
  char b[16];
  pf_buf_printf(out, "Point-a-Pile%s%s%s%s%s%s, round %d. Headpointer (*): %s. Deck: %d card%s left.\n",
                s->pile_variant ? " (pile variant)" : "", s->police || s->missions || s->shy || s->actions ? " with" : "",
                s->police ? " police" : "", s->missions ? " missions" : "", s->shy ? " shy" : "",
                s->actions ? " actions" : "", s->round, seat_name(s->head, seat, b), s->ncards - s->next_slot,
                s->ncards - s->next_slot == 1 ? "" : "s");
  expansions_text(s, seat, st, out);
  rows_text(s, seat, st, legend, &nlegend, out);
  if (s->nprev) {
    pf_buf_puts(out, s->over ? "The round before the last:\n" : "Last round:\n");
    log_text(s->prev, s->nprev, seat, st, out);
  }
  if (s->nlog) {
    pf_buf_puts(out, s->over ? "The last round:\n" : "This round so far:\n");
    log_text(s->log, s->nlog, seat, st, out);
  }
  if (s->over) goto legend;
  for (int l = 0; l < s->depth; l++) {
    pf_buf_printf(out, l ? "Split of pile %d (level %d), piles bottom card first:\n" : "Piles, bottom card first:\n",
                  l ? s->cursor[l - 1] + 1 : 0, l);
    for (int p = 0; p < s->npiles[l]; p++) {
      uint8_t ks[MAX_DRAW];
      int n = pap_pile_cards(s, l, p, ks);
      pf_buf_printf(out, "  %d:", p + 1);
      if (p < s->cursor[l]) pf_buf_puts(out, " (resolved)");
      if (l < top_level(s) && p == s->cursor[l]) pf_buf_puts(out, " (being split)");
      if (s->dropped[l] >> p & 1) pf_buf_puts(out, " (Take None: discarded)");
      for (int i = 0; i < n; i++) {
        pf_buf_printf(out, " c%d ", ks[i] + 1);
        put_card(out, drawn(s, ks[i]), st);
        legend_add(legend, &nlegend, drawn(s, ks[i]));
      }
      if (!n && p >= s->cursor[l]) pf_buf_puts(out, " (empty)");
      pf_buf_putc(out, '\n');
    }
    if (s->npiles[l] == 0) pf_buf_puts(out, "  (none yet)\n");
    if ((s->police || s->shy) && leaders_matter(s, l)) {
      pf_buf_puts(out, "  Leading (as pointing began):");
      for (int p = 0; p < s->players; p++)
        if (s->leaders[l] >> p & 1) pf_buf_printf(out, " %s", seat_name(p, seat, b));
      pf_buf_putc(out, '\n');
    }
  }
  if (!s->depth) pf_buf_puts(out, "The Headpointer has not drawn yet.\n");
  status_text(s, seat, st, legend, &nlegend, out);
legend:
  if (!nlegend) return;
  /* Entries side by side while a line stays within 100 columns; a long text gets a line. */
  pf_buf_puts(out, "Card texts (any colour):\n ");
  size_t line = out->len;
  for (int i = 0; i < nlegend; i++) {
    char name[PF_CARD_STR];
    pf_buf entry = {0};
    pf_buf_printf(&entry, " %s ", pap_card_str(legend[i], name) + 2); /* no colour */
    pf_pap_card_text(legend[i], &entry);
    if (i > 0 && out->len - line + entry.len + 1 > 100) {
      pf_buf_puts(out, "\n ");
      line = out->len;
    } else if (i > 0) {
      pf_buf_putc(out, ';');
    }
    pf_buf_puts(out, pf_buf_str(&entry));
    pf_buf_free(&entry);
  }
  pf_buf_putc(out, '\n');
}

/* Where an action takes a card from and to: the card it moves (Steal's from its pile, Discard's
 * and Switch's from a row, Reorder's from the player's own), the piles Merge and Swap move
 * between; for the others the Action card from the player's row, to the pile (or empty space)
 * it is used on, if any. */
static void action_zones(const pap_state *s, int actor, int kind, int a, int b, pf_move_zones *z) {
  int l = top_level(s);
  switch (kind) {
  case PF_PAP_STEAL:
    pile_id(l, s->pile[a], z->from);
    z->card = drawn(s, a);
    row_id(actor, z->to);
    return;
  case PF_PAP_DISCARD:
  case PF_PAP_SWITCH:
  case PF_PAP_REORDER:
    if (kind == PF_PAP_REORDER) a = actor;
    row_id(a, z->from);
    z->card = row_card(s, a, b);
    if (kind == PF_PAP_DISCARD)
      strcpy(z->to, "out");
    else
      row_id(actor, z->to);
    return;
  case PF_PAP_MERGE:
  case PF_PAP_SWAP:
    pile_id(kind == PF_PAP_MERGE ? 0 : l, a, z->from);
    pile_id(kind == PF_PAP_MERGE ? 0 : l, b, z->to);
    return;
  default:
    row_id(actor, z->from);
    z->card = row_card(s, actor, pap_action_pos(s, actor, kind));
    if (PAP_ACTS[kind].arg == 'p' || PAP_ACTS[kind].arg == 'm') point_zone(l, b, z->to);
    return;
  }
}

/* Placing: a drawn card onto a pile. Pointing: at a pile, or at empty space, the discard zone
 * (what tapping it alone wins, PAP-6). Giving (Trade, Switch): a card of the giver's row to the
 * other's. Actions: action_zones. Throws and passes move nothing. */
void pap_move_zones(const void *vs, pf_move m, pf_move_zones *z) {
  const pap_state *s = vs;
  int actor = pap_to_move(s), a = MV_A(m), b = MV_B(m);
  switch (MV_KIND(m)) {
  case MV_PLACE:
    strcpy(z->from, "drawn");
    z->card = drawn(s, a);
    pile_id(top_level(s), b, z->to);
    return;
  case MV_POINT: point_zone(top_level(s), b, z->to); return;
  case MV_GIVE:
    row_id(actor, z->from);
    z->card = row_card(s, actor, b);
    row_id(s->pend_to, z->to);
    return;
  case MV_PASS:
  case MV_THROW: return;
  default: action_zones(s, actor, MV_KIND(m) - MV_ACT, a, b, z);
  }
}

/* "put c4 (G:S+, +1) on pile 2", "point at pile 2 (3 cards)", "use Swap (G:A1): swap piles 1
 * and 2"; another seat's choice or throw is told only as "points" or "throws" until the reveal. */
void pap_describe(const void *vs, pf_move m, int viewer, const pf_style *st, pf_buf *out) {
  const pap_state *s = vs;
  int l = top_level(s), kind = MV_KIND(m), actor = pap_to_move(s);
  switch (kind) {
  case MV_PLACE: {
    int k = MV_A(m), p = MV_B(m);
    pf_card c = drawn(s, k); /* face up once placed: everyone may know it */
    pf_buf_puts(out, "put ");
    put_words(out, c);
    pf_buf_printf(out, p == s->npiles[l] ? " on a new pile %d" : " on pile %d", p + 1);
    return;
  }
  case MV_PASS: pf_buf_puts(out, "use no action now"); return;
  case MV_THROW:
    if (!pf_view_sees_own(viewer, actor))
      pf_buf_puts(out, "throws (shown when everyone has thrown)");
    else
      pf_buf_printf(out, "throw %s", PAP_THROWS[MV_B(m)]);
    return;
  case MV_GIVE: {
    char b[16];
    /* The card is face up once given; where it lay only those who see the row know (PAP-8). */
    bool where = pap_row_visible(s, viewer, actor);
    pf_buf_puts(out, "give ");
    if (where) pf_buf_printf(out, "card %d of %s row, ", MV_B(m) + 1, viewer == actor ? "your" : "their");
    put_words(out, row_card(s, actor, MV_B(m)));
    pf_buf_printf(out, "%s to %s", where ? "," : "", seat_name(s->pend_to, viewer, b));
    return;
  }
  case MV_POINT: break;
  default: {
    int act = kind - MV_ACT, a = MV_A(m), b = MV_B(m);
    pf_card target = 0;
    if (act == PF_PAP_STEAL) target = drawn(s, a);
    if (act == PF_PAP_DISCARD || act == PF_PAP_SWITCH) target = row_card(s, a, b);
    if (act == PF_PAP_REORDER) target = row_card(s, actor, b);
    pf_buf_printf(out, "use %s: ", action_name(act));
    action_words(act, a, b, target, viewer, st, out);
    return;
  }
  }
  if (!pf_view_sees_own(viewer, actor)) {
    pf_buf_puts(out, "points (shown when everyone has chosen)");
    return;
  }
  if (MV_B(m) == EMPTY) {
    pf_buf_puts(out, "point at empty space");
    return;
  }
  uint8_t ks[MAX_DRAW];
  int n = pap_pile_cards(s, l, MV_B(m), ks);
  pf_buf_printf(out, "point at pile %d (%d card%s)", MV_B(m) + 1, n, n == 1 ? "" : "s");
}
