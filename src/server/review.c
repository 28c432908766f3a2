/*
 * review.c - the reviews of finished games, their states and logs kept (review.h).
 */
#include "server/review.h"

#include <stdlib.h>
#include <string.h>

#include "core/jsontext.h"
#include "core/view.h"

/* What is kept of one finished table. */
typedef struct kept {
  int64_t id;
  const pf_game *g;
  int players, plies;
  char **moves;          /* the game's moves, canonical, in one block (moves[0]) */
  unsigned char *states; /* the state after i * REVIEW_EVERY plies at i * g->state_size, for i < nstates */
  int nstates;
  char **chunk;          /* chunk[i]: the log entries of plies i * REVIEW_EVERY on, texts end to end; NULL: not built */
  int **off;             /* off[i][k]: where entry k of chunk i starts (REVIEW_EVERY + 1 offsets) */
  size_t bytes;          /* what this holds */
  uint64_t used;         /* when it was last reviewed (pf_review's clock) */
} kept;

struct pf_review {
  kept **k;
  int n, cap;
  size_t bytes;
  uint64_t clock;
};

static int nchunks(int plies) { return plies / REVIEW_EVERY + 1; }

pf_review *pf_review_new(void) { return pf_xcalloc(1, sizeof(pf_review)); }

static void kept_free(kept *k) {
  for (int i = 0; i < nchunks(k->plies); i++) free(k->chunk[i]), free(k->off[i]);
  free(k->chunk);
  free(k->off);
  free(k->states);
  free(k->moves[0]);
  free(k->moves);
  free(k);
}

void pf_review_free(pf_review *rv) {
  if (!rv) return;
  for (int i = 0; i < rv->n; i++) kept_free(rv->k[i]);
  free(rv->k);
  free(rv);
}

size_t pf_review_bytes(const pf_review *rv) { return rv ? rv->bytes : 0; }

static void grow(pf_review *rv, kept *k, size_t n) {
  k->bytes += n;
  rv->bytes += n;
}

/* Drops the least recently reviewed tables but `keep` while the cap is passed. */
static void trim(pf_review *rv, const kept *keep) {
  while (rv->bytes > (size_t)REVIEW_CACHE_MIB << 20 && rv->n > 1) {
    int old = -1;
    for (int i = 0; i < rv->n; i++)
      if (rv->k[i] != keep && (old < 0 || rv->k[i]->used < rv->k[old]->used)) old = i;
    rv->bytes -= rv->k[old]->bytes;
    kept_free(rv->k[old]);
    rv->k[old] = rv->k[--rv->n];
  }
}

static kept *find(const pf_review *rv, int64_t id) {
  for (int i = 0; i < rv->n; i++)
    if (rv->k[i]->id == id) return rv->k[i];
  return NULL;
}

int pf_review_plies(const pf_review *rv, int64_t id) {
  const kept *k = find(rv, id);
  return k ? k->plies : -1;
}

int pf_review_keep(pf_review *rv, const table *t, pf_error *err) {
  if (find(rv, t->id)) return 0;
  pf_run run;
  if (pf_run_start(&run, t->g, &t->run.setup, err) != 0) return -1;
  kept *k = pf_xcalloc(1, sizeof *k);
  k->id = t->id, k->g = t->g, k->players = t->players, k->plies = t->run.nmoves;
  size_t n = (size_t)nchunks(k->plies), chars = 0;
  for (int i = 0; i < k->plies; i++) chars += strlen(t->run.moves[i]) + 1;
  k->moves = pf_xmalloc(((size_t)k->plies + 1) * sizeof *k->moves);
  k->moves[0] = pf_xmalloc(chars + 1);
  for (int i = 0, at = 0; i < k->plies; i++) {
    k->moves[i] = k->moves[0] + at;
    at += (int)strlen(strcpy(k->moves[i], t->run.moves[i])) + 1;
  }
  k->states = pf_xmalloc(n * k->g->state_size);
  memcpy(k->states, run.state, t->g->state_size);
  k->nstates = 1;
  pf_run_free(&run);
  k->chunk = pf_xcalloc(n, sizeof *k->chunk);
  k->off = pf_xcalloc(n, sizeof *k->off);
  grow(rv, k, sizeof *k + chars + (size_t)k->plies * sizeof *k->moves +
                  n * (k->g->state_size + sizeof *k->chunk + sizeof *k->off));
  if (rv->n == rv->cap) {
    rv->cap = rv->cap ? 2 * rv->cap : 16;
    rv->k = pf_xrealloc(rv->k, (size_t)rv->cap * sizeof *rv->k);
  }
  rv->k[rv->n++] = k;
  k->used = ++rv->clock;
  trim(rv, k);
  return 0;
}

/* Plays the stored move `text` on state st (a finished game's: it was played once). */
static int step(const pf_game *g, void *st, const char *text, pf_error *err) {
  int who = g->to_move(st);
  if (who == PF_NOBODY) return pf_fail(err, "the game is over");
  if (who == PF_CHANCE) {
    char canon[PF_MOVE_STR];
    return pf_chance_apply(g, st, text, canon, err);
  }
  pf_move m;
  if (g->move_parse(st, text, &m, err) != 0) return -1;
  g->apply(st, m);
  return 0;
}

/* The state after `ply` moves into st: from the state kept at or before it, at most
 * REVIEW_EVERY - 1 moves played (the states up to it kept on the way). */
static int state_at(kept *k, int ply, void *st, pf_error *err) {
  size_t size = k->g->state_size;
  int want = ply / REVIEW_EVERY;
  while (k->nstates <= want) { /* the first review this far: played once, kept */
    int from = (k->nstates - 1) * REVIEW_EVERY;
    memcpy(st, k->states + (size_t)(k->nstates - 1) * size, size);
    for (int i = from; i < from + REVIEW_EVERY; i++)
      if (step(k->g, st, k->moves[i], err) != 0) return pf_fail(err, "move %d: %s", i + 1, err->msg);
    memcpy(k->states + (size_t)k->nstates++ * size, st, size);
  }
  memcpy(st, k->states + (size_t)want * size, size);
  for (int i = want * REVIEW_EVERY; i < ply; i++)
    if (step(k->g, st, k->moves[i], err) != 0) return pf_fail(err, "move %d: %s", i + 1, err->msg);
  return 0;
}

/* One move of a finished game in words, with everything shown: a review's "log" entry. */
static int review_entry(pf_buf *out, const kept *k, const void *st, int ply) {
  const char *text = k->moves[ply];
  int who = k->g->to_move(st);
  pf_buf b = {0};
  pf_move_zones z = {.card = PF_CARD_NONE};
  if (pf_table_describe_shown(k->g, st, text, &b, &z)) who = -1;
  pf_jw w = {.b = out};
  pf_jw_open(&w, '{');
  pf_jw_key_int(&w, "ply", ply);
  pf_jw_key(&w, "seat");
  if (who >= 0)
    pf_jw_int(&w, who);
  else
    pf_jw_null(&w);
  pf_jw_key(&w, "text");
  pf_jw_strn(&w, b.len ? b.data : text, b.len ? b.len : strlen(text));
  pf_jw_key_str(&w, "move", text);
  char c[PF_CARD_STR];
  if (z.from[0]) pf_jw_key_str(&w, "from", z.from);
  if (z.to[0]) pf_jw_key_str(&w, "to", z.to);
  if (z.card != PF_CARD_NONE) pf_jw_key_str(&w, "card", pf_card_str_in(k->g->cards, z.card, c));
  pf_jw_close(&w, '}');
  pf_buf_free(&b);
  return w.rc;
}

/* Builds chunk c of the log: the entries of its plies, each told at the position before it. */
static int chunk_build(pf_review *rv, kept *k, int c, void *st, pf_error *err) {
  int first = c * REVIEW_EVERY, end = first + REVIEW_EVERY < k->plies ? first + REVIEW_EVERY : k->plies;
  if (state_at(k, first, st, err) != 0) return -1;
  pf_buf b = {0};
  int *off = pf_xmalloc((REVIEW_EVERY + 1) * sizeof *off);
  for (int i = first; i < end; i++) {
    off[i - first] = (int)b.len;
    int bad = review_entry(&b, k, st, i);
    pf_buf_putc(&b, ','); /* each entry ends with one: a run of them is cut and joined as is */
    if (bad || step(k->g, st, k->moves[i], err) != 0) {
      free(off);
      pf_buf_free(&b);
      return pf_fail(err, "move %d: cannot be told", i + 1);
    }
  }
  for (int i = end - first; i <= REVIEW_EVERY; i++) off[i] = (int)b.len;
  k->chunk[c] = b.data ? b.data : pf_xstrdup("");
  k->off[c] = off;
  grow(rv, k, b.cap + (REVIEW_EVERY + 1) * sizeof *off);
  return 0;
}

int pf_review_write(pf_review *rv, int64_t id, int ply, bool log, pf_buf *out, pf_error *err) {
  kept *k = find(rv, id);
  if (!k) return pf_fail(err, "table %lld is not kept", (long long)id);
  k->used = ++rv->clock;
  void *st = pf_xmalloc(k->g->state_size);
  int rc = state_at(k, ply, st, err);
  /* With "log": REVIEW_LOG moves around ply (the whole game when it is no longer). */
  int first = ply - REVIEW_LOG / 2;
  if (first > k->plies - REVIEW_LOG) first = k->plies - REVIEW_LOG;
  if (first < 0) first = 0;
  int end = first + REVIEW_LOG < k->plies ? first + REVIEW_LOG : k->plies;
  if (rc == 0) {
    pf_buf_printf(out, "{\"type\":\"review\",\"table\":%lld,\"ply\":%d,\"plies\":%d,\"view\":", (long long)k->id, ply, k->plies);
    rc |= pf_view_write(out, k->g, st, k->players, PF_VIEW_ALL, NULL);
    pf_buf text = {0};
    pf_style plain = {0};
    k->g->view_text(st, PF_VIEW_ALL, &plain, &text);
    pf_jw w = {.b = out, .comma = true};
    pf_jw_key(&w, "text");
    pf_jw_strn(&w, pf_buf_str(&text), text.len);
    pf_buf_free(&text);
    if (ply < k->plies) pf_jw_key_str(&w, "next", k->moves[ply]);
    rc |= w.rc;
    if (rc) rc = pf_fail(err, "the position cannot be written");
  }
  if (rc == 0 && log) {
    pf_buf_puts(out, ",\"log\":[");
    for (int c = first / REVIEW_EVERY; rc == 0 && c * REVIEW_EVERY < end; c++) {
      if (!k->chunk[c] && (rc = chunk_build(rv, k, c, st, err)) != 0) break;
      int lo = first > c * REVIEW_EVERY ? first - c * REVIEW_EVERY : 0;
      int hi = end < (c + 1) * REVIEW_EVERY ? end - c * REVIEW_EVERY : REVIEW_EVERY;
      if (lo < hi) pf_buf_append(out, k->chunk[c] + k->off[c][lo], (size_t)(k->off[c][hi] - k->off[c][lo]));
    }
    if (out->data[out->len - 1] == ',') out->len--; /* the last entry's */
    pf_buf_putc(out, ']');
  }
  free(st);
  trim(rv, k);
  return rc;
}
