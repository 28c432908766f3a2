/*
 * srvcheck.c - a game played on the server against the engine (srvtest.h, check_game): the
 * record over HTTP replays with `pilfer replay`, every state received equals the engine's view
 * of its seat at its ply (the spectator's the public one, showing nothing any seat's view hides),
 * every acknowledged move is in the record where its ack said, the seed is in no message before
 * the end, and a review tells the moves as the engine does.
 */
#define _GNU_SOURCE /* strcasestr */
#include "srvtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/record.h"
#include "core/view.h"
#include "games/registry.h"

/* What the engine says at every ply of the record. */
typedef struct truth {
  pf_record rec;
  int n;             /* moves */
  int *to_move;      /* [n + 1] */
  json_t **legal;    /* [n + 1]: the legal moves of the seat to move */
  int (*choosing)[PF_MAX_PLAYERS];
  int *nchoosing;
  json_t **said;     /* [n]: each move told with everything shown, with its zones (a review's log) */
} truth;

/* Move `text` at the run's position as a review's "log" tells it: its words with everything shown,
 * and where it takes a card from and to. */
static json_t *said_json(const pf_run *run, const char *text) {
  pf_buf b = {0};
  pf_style plain = {0};
  pf_move m;
  pf_error err;
  pf_move_zones z = {.card = PF_CARD_NONE};
  int who = pf_run_to_move(run);
  if (text[0] == '*' || who < 0)
    pf_describe_chance(run->game, run->state, text, PF_VIEW_ALL, &plain, &b);
  else if (run->game->move_parse(run->state, text, &m, &err) == 0) {
    pf_describe(run->game, run->state, m, PF_VIEW_ALL, &plain, &b);
    pf_move_zones_of(run->game, run->state, m, &z);
  }
  char c[PF_CARD_STR];
  json_t *o = json_pack("{s:s%}", "text", b.len ? b.data : text, b.len ? b.len : strlen(text));
  if (z.from[0]) json_object_set_new(o, "from", json_string(z.from));
  if (z.to[0]) json_object_set_new(o, "to", json_string(z.to));
  if (z.card != PF_CARD_NONE) json_object_set_new(o, "card", json_string(pf_card_str_in(run->game->cards, z.card, c)));
  pf_buf_free(&b);
  return o;
}

static int cmp_state_ply(const void *a, const void *b) {
  long long pa = jint(json_object_get(*(json_t *const *)a, "state"), "ply");
  long long pb = jint(json_object_get(*(json_t *const *)b, "state"), "ply");
  return pa < pb ? -1 : pa > pb;
}

/* A state received from the server against the engine at its ply. */
static void check_state_at(const table *t, const truth *tr, const pf_run *run, json_t *entry) {
  const pf_game *g = run->game;
  int seat = (int)jint(entry, "seat");
  json_t *st = json_object_get(entry, "state");
  int ply = (int)jint(st, "ply");
  char what[160];
  snprintf(what, sizeof what, "table %d (%s) %s %d, ply %d: view", t->id, t->game,
           seat < 0 ? "spectator" : "seat", seat, ply);
  json_t *view = json_object_get(st, "view");
  bool waiting = !strcmp(jstr(st, "status"), "waiting");
  if (waiting != json_is_null(view))
    fail_msg("%s: a view must be null exactly while the table waits: %s", what, dump(st));
  if (waiting) {
    /* the deal is not shown before every seat is taken (not in docs/protocol.md); nobody moves */
    if (!json_is_null(json_object_get(st, "to_move")) || json_array_size(json_object_get(st, "choosing")) ||
        json_array_size(json_object_get(st, "legal")) || json_array_size(json_object_get(st, "log")))
      fail_msg("%s: a waiting table with moves: %s", what, dump(st));
    return;
  }
  if (seat >= 0) {
    json_t *want = pf_view_json(g, run->state, t->players, seat);
    same_json_or_note("a seat's view is not the engine's view of the seat", view, want, what);
    json_decref(want);
  } else {
    for (int s = 0; s < t->players; s++) {
      json_t *sv = pf_view_json(g, run->state, t->players, s);
      char path[600] = "view";
      if (leaks(view, sv, path, sizeof path))
        note_problem("a spectator sees what a seat does not (a hidden card)",
                     "%s shows what seat %d does not see: %s", what, s, path);
      json_decref(sv);
    }
    json_t *want = pf_view_json(g, run->state, t->players, PF_VIEW_PUBLIC);
    same_json_or_note("a spectator's view is not the engine's public view", view, want, what);
    json_decref(want);
  }
  /* the text: the engine's, plain, for this viewer */
  pf_buf text = {0};
  pf_style plain = {0};
  g->view_text(run->state, seat < 0 ? PF_VIEW_PUBLIC : seat, &plain, &text);
  json_t *want_text = json_string(pf_buf_str(&text));
  same_json_or_note("a state's text is not the engine's text of the view", json_object_get(st, "text"),
                    want_text, what);
  json_decref(want_text);
  pf_buf_free(&text);
  json_t *tm = pf_to_move_json(tr->to_move[ply]);
  snprintf(what, sizeof what, "table %d seat %d ply %d: to_move", t->id, seat, ply);
  same_json_or_note("to_move", json_object_get(st, "to_move"), tm, what);
  json_decref(tm);
  json_t *ch = pf_ints_json(tr->choosing[ply], tr->nchoosing[ply]);
  snprintf(what, sizeof what, "table %d seat %d ply %d: choosing", t->id, seat, ply);
  same_json_or_note("choosing", json_object_get(st, "choosing"), ch, what);
  json_decref(ch);
  /* legal: what the engine offers the seat when its turn in the group comes, unless it chose */
  json_t *want_legal = json_array();
  for (int i = 0; seat >= 0 && i < tr->nchoosing[ply]; i++)
    if (tr->choosing[ply][i] == seat && !in_array(json_object_get(st, "sealed"), seat)) {
      assert_int_equal(tr->to_move[ply + i], seat);
      json_decref(want_legal);
      want_legal = json_incref(tr->legal[ply + i]);
    }
  snprintf(what, sizeof what, "table %d seat %d ply %d: legal", t->id, seat, ply);
  same_json_or_note("legal", json_object_get(st, "legal"), want_legal, what);
  json_decref(want_legal);
  /* the log: earlier moves, in order, as the record has them where it names them */
  size_t i;
  json_t *e;
  long long last = -1;
  json_array_foreach(json_object_get(st, "log"), i, e) {
    long long lp = jint(e, "ply");
    if (lp <= last || lp >= ply) fail_msg("table %d: log out of order at ply %d: %s", t->id, ply, dump(st));
    last = lp;
    const char *mv = jstr(e, "move");
    if (mv && strcmp(mv, tr->rec.moves[lp]))
      fail_msg("table %d: the log at ply %d says move %lld was %s; the record: %s", t->id, ply, lp,
               mv, tr->rec.moves[lp]);
    if (tr->to_move[lp] >= 0 && json_integer_value(json_object_get(e, "seat")) != tr->to_move[lp])
      fail_msg("table %d: the log at ply %d gives move %lld to the wrong seat: %s", t->id, ply, lp, dump(e));
    /* where the move went, when the entry says it: as the engine has it, and never with a choice
     * the receiver was not told (PAP-4) */
    for (int f = 0; f < 3; f++) {
      const char *key = (const char *[]){"from", "to", "card"}[f];
      const char *got = jstr(e, key), *want = jstr(tr->said[lp], key);
      if (got && (!want || strcmp(got, want)))
        fail_msg("table %d: the log at ply %d says move %lld's %s is %s; the engine: %s", t->id, ply, lp, key, got,
                 want ? want : "none");
      if (got && strstr(jstr(e, "text"), "when everyone has"))
        fail_msg("table %d: the log at ply %d tells where a hidden choice went: %s", t->id, ply, dump(e));
    }
  }
  if (json_array_size(json_object_get(st, "log")) > 20)
    fail_msg("table %d: a log of more than 20 moves", t->id);
}

/* Replays the record once, checking every state received at its ply on the way. */
static void truth_build(const table *t, const char *text, truth *tr) {
  pf_error err;
  if (pf_record_parse(text, strlen(text), &tr->rec, &err) != 0)
    fail_msg("table %d: the record does not parse: %s", t->id, err.msg);
  assert_string_equal(tr->rec.game->id, t->game);
  assert_int_equal(tr->rec.setup.players, t->players);
  int n = tr->n = tr->rec.nmoves;
  tr->to_move = calloc((size_t)n + 1, sizeof *tr->to_move);
  tr->legal = calloc((size_t)n + 1, sizeof *tr->legal);
  tr->choosing = calloc((size_t)n + 1, sizeof *tr->choosing);
  tr->nchoosing = calloc((size_t)n + 1, sizeof *tr->nchoosing);
  tr->said = calloc((size_t)n + 1, sizeof *tr->said);
  /* first pass: who moves and what is legal at every ply */
  pf_run run;
  if (pf_record_replay(&tr->rec, 0, &run, NULL, &err) != 0) fail_msg("start: %s", err.msg);
  for (int k = 0; k <= n; k++) {
    tr->to_move[k] = pf_run_to_move(&run);
    tr->legal[k] = pf_legal_json(run.game, run.state);
    tr->nchoosing[k] = pf_choosing(run.game, run.state, tr->choosing[k]);
    if (k < n) tr->said[k] = said_json(&run, tr->rec.moves[k]);
    if (k < n && pf_run_play_text(&run, tr->rec.moves[k], &err) != 0)
      fail_msg("table %d: move %d (%s): %s", t->id, k + 1, tr->rec.moves[k], err.msg);
  }
  if (tr->to_move[n] != PF_NOBODY) fail_msg("table %d: the record's game is not over", t->id);
  pf_run_free(&run);
  /* second pass: the states, in ply order */
  size_t ns = json_array_size(t->states);
  json_t **sorted = calloc(ns + 1, sizeof *sorted);
  for (size_t i = 0; i < ns; i++) sorted[i] = json_array_get(t->states, i);
  qsort(sorted, ns, sizeof *sorted, cmp_state_ply);
  if (pf_record_replay(&tr->rec, 0, &run, NULL, &err) != 0) fail_msg("start: %s", err.msg);
  size_t j = 0;
  for (int k = 0; k <= n; k++) {
    for (; j < ns && jint(json_object_get(sorted[j], "state"), "ply") == k; j++)
      check_state_at(t, tr, &run, sorted[j]);
    if (k < n) pf_run_play_text(&run, tr->rec.moves[k], &err);
  }
  if (j < ns) fail_msg("table %d: a state past the end: %s", t->id, dump(sorted[j]));
  pf_run_free(&run);
  free(sorted);
}

static void truth_free(truth *tr) {
  for (int k = 0; k <= tr->n; k++) json_decref(tr->legal[k]), json_decref(tr->said[k]);
  free(tr->said);
  free(tr->to_move);
  free(tr->legal);
  free(tr->choosing);
  free(tr->nchoosing);
  pf_record_free(&tr->rec);
}

/* Every acknowledged move is in the record where the ack said, played by its seat; with
 * exact_acks, each seat's moves are exactly those acknowledged to it. */
static void check_acks(const table *t, const truth *tr) {
  size_t i;
  json_t *a;
  int acked[PF_MAX_PLAYERS] = {0}, played[PF_MAX_PLAYERS] = {0};
  json_array_foreach(t->acks, i, a) {
    int seat = (int)jint(a, "seat"), k = (int)jint(a, "sent_ply");
    const char *mv = jstr(a, "move");
    acked[seat]++;
    if (!json_is_true(json_object_get(a, "sealed"))) {
      /* played at once: the record's move of that seat between the ply it was sent at (its
       * group's first, for a seat of a choosing group) and the ply acknowledged */
      int at = -1, acked_ply = (int)jint(a, "ply");
      for (int p = k; p < acked_ply && p < tr->n && at < 0; p++)
        if (tr->to_move[p] == seat && !strcmp(tr->rec.moves[p], mv)) at = p;
      if (at < 0)
        fail_msg("table %d: acknowledged %s of seat %d sent at ply %d, ack at %d; the record has %s there",
                 t->id, mv, seat, k, acked_ply, k < tr->n ? tr->rec.moves[k] : "nothing");
      continue;
    }
    /* a sealed choice: played in its group, which begins at the ply it was sent at */
    int found = 0;
    for (int g = 0; k + g < tr->n && g < tr->nchoosing[k]; g++)
      found |= tr->to_move[k + g] == seat && !strcmp(tr->rec.moves[k + g], mv);
    if (!found)
      fail_msg("table %d: sealed choice %s of seat %d at ply %d is not in the record's group",
               t->id, mv, seat, k);
  }
  for (int k = 0; k < tr->n; k++)
    if (tr->to_move[k] >= 0) played[tr->to_move[k]]++;
  for (int s = 0; t->exact_acks && s < t->players; s++)
    if (t->seat[s] && acked[s] != played[s])
      fail_msg("table %d: seat %d had %d moves acknowledged and the record has %d", t->id, s,
               acked[s], played[s]);
}

/* The seed is in no message before the game was over. */
static void check_seed(const table *t, const truth *tr) {
  if (!tr->rec.has_seed) fail_msg("table %d: the record has no seed", t->id);
  char seed[32];
  snprintf(seed, sizeof seed, "%llu", (unsigned long long)tr->rec.setup.seed);
  size_t i;
  json_t *m;
  json_array_foreach(t->messages, i, m) {
    if (has_seed_key(m)) fail_msg("table %d: a seed before the end: %s", t->id, dump(m));
    char *s = json_dumps(m, JSON_COMPACT);
    if (strlen(seed) >= 6 && strstr(s, seed))
      fail_msg("table %d: the seed %s is in a message before the end: %s", t->id, seed, s);
    free(s);
  }
}

/* The spectator's last view during the game is what `pilfer replay FILE --until K --view public
 * --json` prints at its ply K. */
static void check_public_replay(const table *t, const char *file) {
  json_t *last = NULL, *e;
  size_t i;
  json_array_foreach(t->states, i, e) {
    json_t *st = json_object_get(e, "state");
    if (jint(e, "seat") < 0 && !strcmp(jstr(st, "status"), "playing")) last = st;
  }
  if (!last) return;
  char until[32], *out = NULL, *err = NULL;
  snprintf(until, sizeof until, "%lld", jint(last, "ply"));
  char *argv[] = {(char *)pilfer, "replay", (char *)file, "--until", until, "--view", "public", "--json", NULL};
  if (proc_run(argv, &out, &err) != 0) fail_msg("pilfer replay %s --until %s --view public: %s", file, until, err);
  json_t *want = json_loads(out, 0, NULL);
  char what[200];
  snprintf(what, sizeof what, "table %d: the spectator's view at ply %s against pilfer replay --view public", t->id, until);
  same_json_or_note("a spectator's view is not `pilfer replay --view public`", json_object_get(last, "view"), want, what);
  json_decref(want);
  free(out);
  free(err);
}

/* After the game: the last state, the record over HTTP, `pilfer replay`, every state against the
 * engine, the acks, the seed, and `review`. */
void check_game(const table *t) {
  json_t *over = t->over;
  if (!over) fail_msg("table %d: not over", t->id);
  char path[64], file[512];
  snprintf(path, sizeof path, "/api/tables/%d/record", t->id);
  if (!jstr(over, "record") || strcmp(jstr(over, "record"), path))
    fail_msg("table %d: the last state's record is not %s: %s", t->id, path, dump(over));
  json_t *result = json_object_get(over, "result");
  json_t *rec = http_json(&server, path, 200);
  expect_same_json(json_object_get(result, "scores"), json_object_get(json_object_get(rec, "result"), "scores"), "result.scores");
  expect_same_json(json_object_get(result, "winners"), json_object_get(json_object_get(rec, "result"), "winners"), "result.winners");
  char *text = json_dumps(rec, JSON_INDENT(1));
  snprintf(file, sizeof file, "%s/record-%d.json", tmpdir, t->id);
  FILE *f = fopen(file, "w");
  fputs(text, f);
  fclose(f);
  char *err = NULL;
  int st = run_pilfer(NULL, &err, "replay", file, NULL, NULL, NULL);
  if (st != 0) fail_msg("pilfer replay %s: status %d: %s", file, st, err);
  free(err);
  check_public_replay(t, file);
  truth tr;
  truth_build(t, text, &tr);
  check_acks(t, &tr);
  check_seed(t, &tr);
  /* review: the start and the end, with everything revealed */
  json_t *r = request(lobby, NULL, json_pack("{s:s, s:i, s:i}", "type", "review", "table", t->id, "ply", 0), "review");
  assert_int_equal(jint(r, "plies"), tr.n);
  if (tr.n > 0 && (!jstr(r, "next") || strcmp(jstr(r, "next"), tr.rec.moves[0])))
    fail_msg("table %d: review 0's next is not the first move %s: %s", t->id, tr.rec.moves[0], dump(r));
  pf_run run;
  pf_error e;
  pf_record_replay(&tr.rec, 0, &run, NULL, &e);
  json_t *want = pf_view_json(run.game, run.state, t->players, PF_VIEW_ALL);
  expect_same_json(json_object_get(r, "view"), want, "review 0's view");
  json_decref(want);
  json_decref(r);
  pf_run_free(&run);
  r = request(lobby, NULL, json_pack("{s:s, s:i, s:i}", "type", "review", "table", t->id, "ply", tr.n), "review");
  if (json_object_get(r, "next")) fail_msg("table %d: review at the end has a next: %s", t->id, dump(r));
  json_decref(r);
  /* review's "log": every move in words (up to 1000 around the ply asked), as the engine tells it */
  r = request(lobby, NULL, json_pack("{s:s, s:i, s:i, s:b}", "type", "review", "table", t->id, "ply", tr.n, "log", 1),
              "review");
  json_t *log = json_object_get(r, "log");
  int from = tr.n > 1000 ? tr.n - 1000 : 0;
  if ((int)json_array_size(log) != tr.n - from)
    fail_msg("table %d: review's log has %zu moves, not %d: %s", t->id, json_array_size(log), tr.n - from, dump(r));
  size_t i;
  json_t *le;
  json_array_foreach(log, i, le) {
    int k = from + (int)i;
    if (jint(le, "ply") != k || !jstr(le, "move") || strcmp(jstr(le, "move"), tr.rec.moves[k]))
      fail_msg("table %d: review's log entry %zu is not move %d (%s): %s", t->id, i, k, tr.rec.moves[k], dump(le));
    if (tr.to_move[k] >= 0 && json_integer_value(json_object_get(le, "seat")) != tr.to_move[k])
      fail_msg("table %d: review's log gives move %d to the wrong seat: %s", t->id, k, dump(le));
    for (int q = 0; q < 4; q++) {
      const char *key = (const char *[]){"text", "from", "to", "card"}[q];
      const char *got = jstr(le, key), *engine = jstr(tr.said[k], key);
      if ((got == NULL) != (engine == NULL) || (got && strcmp(got, engine)))
        fail_msg("table %d: review's log says move %d's %s is %s; the engine: %s", t->id, k, key, got ? got : "none",
                 engine ? engine : "none");
    }
  }
  json_decref(r);
  truth_free(&tr);
  free(text);
  json_decref(rec);
}


/* The highest ply an acknowledged move (not a sealed choice) of table t reached. */
int acked_ply(const table *t) {
  int max_ply = 0;
  size_t k;
  json_t *a;
  json_array_foreach(t->acks, k, a) if (!json_is_true(json_object_get(a, "sealed")) && jint(a, "ply") > max_ply) max_ply = (int)jint(a, "ply");
  return max_ply;
}
