/*
 * sim.c - running many bot games on threads, and adding up their results exactly.
 */
#include "sim/sim.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/jsontext.h"
#include "core/record.h"
#include "games/registry.h"

/* Streams of the run's generators: game i's seed, and its bots' seed. Far from the deal streams
 * (which count deals from 0) and the bots' own (bot.c). */
#define GAME_STREAM 0x53494D0000000000ull
#define BOT_SEED_STREAM 0x53424F0000000000ull

/* ------------------------------------------------------------------------------------------ */
/* The games of a run                                                                         */
/* ------------------------------------------------------------------------------------------ */

int pf_sim_bots(const pf_sim_config *c, int *seat_bot) {
  int n = 0;
  for (int p = 0; p < c->players; p++) {
    int b = 0;
    while (b < p && strcmp(c->seats[b], c->seats[p]) != 0) b++;
    seat_bot[p] = b < p ? seat_bot[b] : n++;
  }
  return n;
}

void pf_sim_slice(const pf_sim_config *c, long long *first, long long *count) {
  /* With rotate, slices of whole deals, so that each deal's rotations are added up together. */
  long long unit = c->rotate && c->players > 0 ? c->players : 1, units = c->games / unit;
  long long lo = units * (c->shard - 1) / c->nshards * unit, hi = units * c->shard / c->nshards * unit;
  *first = lo;
  *count = hi - lo;
}

static uint64_t derived_seed(uint64_t seed, uint64_t stream) {
  pf_rng r;
  pf_rng_seed(&r, seed, stream);
  return pf_rng_next(&r) >> 1; /* seeds are at most 2^63 - 1, as the command line takes them */
}

/* One thread's share of the run: its bots (one per entry of the seat list, kept from game to game
 * so that their memory is allocated once), its state, and its sums. */
typedef struct worker {
  const pf_sim_config *c;
  const pf_sim_run_opts *o;
  long long end;
  atomic_llong *next, *done;
  atomic_int *stop;
  int seat_bot[PF_MAX_PLAYERS], nbots;
  pf_bot bots[PF_MAX_PLAYERS];
  void *state, *before;   /* before: the position before a move, for the game's counters */
  pf_an_trace trace;      /* with analyze */
  long long deal_share[PF_MAX_PLAYERS][PF_MAX_PLAYERS]; /* with analyze and rotate: the deal's
                                                         * win shares, by rotation and seat */
  pf_sim_sums sums;
  char **rows;            /* with opts->csv: each game's rows, by its index less first */
  long long first;
  pf_error err;
  int failed;
} worker;

/* A CSV field: quoted when it holds a comma, a quote or a line break, quotes doubled (RFC 4180). */
static void csv_field(pf_buf *b, const char *text) {
  if (!text[strcspn(text, ",\"\r\n")]) {
    pf_buf_append(b, text, strlen(text));
    return;
  }
  pf_buf_append(b, "\"", 1);
  for (const char *p = text; *p; p++) pf_buf_append(b, *p == '"' ? "\"\"" : p, *p == '"' ? 2 : 1);
  pf_buf_append(b, "\"", 1);
}

static void csv_header(pf_buf *b, const pf_game *g) {
  pf_buf_printf(b, "game,seed,seat,bot,score,win,winner,moves,turns,deals%s,lead_changes,comeback", g->round ? ",rounds" : "");
  for (int e = 0; e < pf_nevents(g); e++) {
    pf_buf_append(b, ",", 1);
    csv_field(b, g->events[e]);
  }
  pf_buf_append(b, "\r\n", 2);
}

/* Game i's rows: one per seat. */
static char *csv_rows(const worker *w, long long i, uint64_t seed, int rot, const long long *share, const int *scores,
                      const int *winners, int nw, long long moves, const pf_an_game *ga) {
  const pf_sim_config *c = w->c;
  const pf_game *g = c->game;
  pf_buf b = {0};
  for (int p = 0; p < c->players; p++) {
    bool won = false;
    for (int k = 0; k < nw; k++) won |= winners[k] == p;
    pf_buf_printf(&b, "%lld,%llu,%d,", i, (unsigned long long)seed, p);
    csv_field(&b, c->seats[(p + rot) % c->players]);
    pf_buf_printf(&b, ",%d,%.6g,%d,%lld,%lld,%d", scores[p], (double)share[p] / PF_WIN_UNIT, won, moves, ga->turns,
                  w->trace.deals);
    if (g->round) pf_buf_printf(&b, ",%d", w->trace.rounds);
    pf_buf_printf(&b, ",%lld,%d", ga->lead_changes, ga->comeback);
    for (int e = 0; e < pf_nevents(g); e++) pf_buf_printf(&b, ",%lld", w->trace.seat_events[p][e]);
    pf_buf_append(&b, "\r\n", 2);
  }
  char *rows = pf_xstrdup(pf_buf_str(&b));
  pf_buf_free(&b);
  return rows;
}

/* Where analyze ends a turn: the round (which goes up with every new deal too, core/game.h), or
 * the deal for a game without rounds. */
static int turn_phase(const pf_game *g, const void *st) { return g->round ? g->round(st) : g->current_deal(st, NULL); }

/* Plays game i: the seat list turned by the rotation, chance from the game's generator; adds its
 * result to the worker's sums and writes its record when asked. */
static int play_game(worker *w, long long i) {
  const pf_sim_config *c = w->c;
  const pf_game *g = c->game;
  int n = c->players, rot = c->rotate ? (int)(i % n) : 0;
  long long deal = c->rotate ? i / n : i;
  pf_setup setup = {.players = n, .options = c->options, .seed = derived_seed(c->seed, GAME_STREAM + (uint64_t)deal)};
  uint64_t bot_seed = derived_seed(c->seed, BOT_SEED_STREAM + (uint64_t)i);
  pf_bot *at[PF_MAX_PLAYERS];
  for (int p = 0; p < n; p++) {
    at[p] = &w->bots[(p + rot) % n];
    pf_bot_reseed(at[p], bot_seed, p);
  }
  pf_run run;
  bool record = w->o->records_dir != NULL;
  void *st = w->state;
  if (record) {
    if (pf_run_start(&run, g, &setup, &w->err) != 0) return -1;
    st = run.state;
  } else if (g->start(st, &setup, &w->err) != 0) {
    return -1;
  }
  long long moves = 0;
  bool an = c->analyze, events = an && g->count_events;
  int standing[PF_MAX_PLAYERS];
  uint64_t key = 0;
  int deal0 = 0, phase = 0;
  if (an) {
    deal0 = g->current_deal(st, NULL);
    phase = turn_phase(g, st);
    pf_standing(g, st, standing);
    pf_an_trace_begin(&w->trace, n, standing);
    key = pf_standing_key(g, st);
  }
  for (int who; (who = g->to_move(st)) != PF_NOBODY; moves++) {
    pf_move m = PF_MOVE_CHANCE, legal[PF_MAX_MOVES];
    int nlegal = 0;
    if (events) memcpy(w->before, st, g->events_before ? g->events_before : g->state_size);
    if (who == PF_CHANCE) {
      if (record)
        pf_run_chance(&run);
      else
        pf_chance_sample(g, st, NULL);
    } else {
      m = pf_bot_choose(at[who], g, st);
      if (an) nlegal = at[who]->stats.offered ? at[who]->stats.offered : g->legal(st, legal);
      if (record)
        pf_run_play(&run, m);
      else
        g->apply(st, m);
    }
    if (events)
      pf_count_events(g, w->before, st, m, who >= 0 ? w->trace.seat_events[who] : w->trace.chance_events);
    if (an) {
      /* The standing is read only when the game's key says it may have changed. */
      uint64_t now = pf_standing_key(g, st);
      bool read = !g->standing_key || now != key;
      if (read) pf_standing(g, st, standing);
      pf_an_trace_ply(&w->trace, who, nlegal, read ? standing : NULL);
      key = now;
      /* A new deal or round ends the turn in progress, whoever moves next. */
      int now_phase = turn_phase(g, st);
      if (now_phase != phase) pf_an_trace_cut(&w->trace);
      phase = now_phase;
    }
  }
  int scores[PF_MAX_PLAYERS], winners[PF_MAX_PLAYERS], nw = g->winners(st, winners);
  long long share[PF_MAX_PLAYERS] = {0}, bot_share[PF_MAX_PLAYERS] = {0};
  g->scores(st, scores);
  /* A seat whose bot forfeited (bot.h) does not share the win. */
  int kept = 0;
  for (int k = 0; k < nw; k++)
    if (at[winners[k]]->failure != PF_BOT_FORFEIT) winners[kept++] = winners[k];
  nw = kept;
  for (int k = 0; k < nw; k++) share[winners[k]] = PF_WIN_UNIT / nw;
  pf_sim_sums *s = &w->sums;
  s->games++;
  s->moves += moves;
  for (int p = 0; p < n; p++) {
    s->win[p] += share[p];
    s->win_sq[p] += share[p] * share[p];
    s->score[p] += scores[p];
    s->score_sq[p] += (long long)scores[p] * scores[p];
    bot_share[w->seat_bot[(p + rot) % n]] += share[p];
    s->entry_win[(p + rot) % n] += share[p];
    s->entry_win_sq[(p + rot) % n] += share[p] * share[p];
  }
  for (int b = 0; b < n; b++) {
    s->bot_win[b] += bot_share[b];
    s->bot_win_sq[b] += bot_share[b] * bot_share[b];
  }
  /* A failed bot's game is scored as it was played (by its fallback after the failure, or as lost
   * with fail=lose); the counts say how many such games and moves a result holds. */
  for (int k = 0; k < n; k++) {
    const pf_bot *b = &w->bots[k];
    if (b->failure == PF_BOT_OK) continue;
    s->failed[b->fail_kind][k]++;
    s->fallback_moves[k] += b->fallback_moves;
    if (b->failure == PF_BOT_FORFEIT) s->lost[k]++;
  }
  if (an) {
    /* The deals played one after another (Point-a-Pile's missions are a second deck dealt at the
     * start, PAP-1: one deal). */
    w->trace.deals = g->current_deal(st, NULL) - deal0 + 1;
    w->trace.rounds = pf_round(g, st);
    memcpy(w->trace.scores, scores, sizeof scores);
    pf_an_game ga;
    pf_an_add_game(&s->an, &w->trace, winners, nw, bot_share, w->nbots, &ga);
    if (w->rows) w->rows[i - w->first] = csv_rows(w, i, setup.seed, rot, share, scores, winners, nw, moves, &ga);
    if (c->rotate) {
      memcpy(w->deal_share[rot], share, sizeof share);
      if (rot == n - 1) pf_an_add_deal(&s->an, n, (const long long(*)[PF_MAX_PLAYERS])w->deal_share);
    }
  }
  int rc = 0;
  if (record) {
    char path[4096];
    snprintf(path, sizeof path, "%s/game-%06lld.json", w->o->records_dir, i);
    rc = pf_record_save(&run, path, &w->err);
    pf_run_free(&run);
  }
  return rc;
}

/* Takes games one at a time, or with rotate one deal's rotations at a time (in order, so that
 * the deal's results are added up together). */
static void *worker_main(void *arg) {
  worker *w = arg;
  int step = w->c->rotate ? w->c->players : 1;
  for (;;) {
    long long i = atomic_fetch_add(w->next, step);
    for (long long k = i; k < i + step; k++) {
      if (k >= w->end || atomic_load(w->stop)) return NULL;
      if (play_game(w, k) != 0) {
        w->failed = 1;
        atomic_store(w->stop, 1);
        return NULL;
      }
      atomic_fetch_add(w->done, 1);
    }
  }
}

static void sums_add(pf_sim_sums *to, const pf_sim_sums *from) {
  to->games += from->games;
  to->moves += from->moves;
  for (int p = 0; p < PF_MAX_PLAYERS; p++) {
    to->win[p] += from->win[p];
    to->win_sq[p] += from->win_sq[p];
    to->score[p] += from->score[p];
    to->score_sq[p] += from->score_sq[p];
    to->bot_win[p] += from->bot_win[p];
    to->bot_win_sq[p] += from->bot_win_sq[p];
    to->entry_win[p] += from->entry_win[p];
    to->entry_win_sq[p] += from->entry_win_sq[p];
    for (int k = 0; k < PF_BOT_FAIL_KINDS; k++) to->failed[k][p] += from->failed[k][p];
    to->fallback_moves[p] += from->fallback_moves[p];
    to->lost[p] += from->lost[p];
  }
  pf_an_sums_add(&to->an, &from->an);
}

/* Makes a worker's bots and state; fails on a bad spec. */
static int worker_init(worker *w, const pf_sim_config *c, pf_error *err) {
  w->nbots = pf_sim_bots(c, w->seat_bot);
  for (int k = 0; k < c->players; k++)
    if (pf_bot_init(&w->bots[k], c->seats[k], c->players, c->seed, k, err) != 0) {
      pf_error_prefix(err, "seat %d", k);
      while (k-- > 0) pf_bot_free(&w->bots[k]);
      return -1;
    }
  w->state = pf_xcalloc(1, c->game->state_size);
  w->before = pf_xcalloc(1, c->game->state_size);
  return 0;
}

static void worker_free(worker *w) {
  for (int k = 0; k < w->c->players; k++) pf_bot_free(&w->bots[k]);
  free(w->state);
  free(w->before);
  pf_an_trace_free(&w->trace);
}

int pf_sim_run(const pf_sim_config *c, const pf_sim_run_opts *opts, pf_sim_result *out, pf_error *err) {
  memset(out, 0, sizeof *out);
  out->config = *c;
  long long first, count;
  pf_sim_slice(c, &first, &count);
  int threads = opts->threads > 0 ? opts->threads : (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (threads < 1) threads = 1;
  if (threads > count) threads = count > 0 ? (int)count : 1;
  worker *w = pf_xcalloc((size_t)threads, sizeof *w);
  char **rows = opts->csv && c->analyze && count > 0 ? pf_xcalloc((size_t)count, sizeof *rows) : NULL;
  pthread_t *tid = pf_xcalloc((size_t)threads, sizeof *tid);
  atomic_llong next = first, done = 0;
  atomic_int stop = 0;
  int made = 0, rc = 0;
  double t0 = pf_clock_seconds();
  for (; made < threads; made++) {
    w[made] = (worker){.c = c, .o = opts, .end = first + count, .next = &next, .done = &done, .stop = &stop,
                       .rows = rows, .first = first};
    if (worker_init(&w[made], c, err) != 0) {
      rc = -1;
      break;
    }
  }
  int started = 0;
  for (; rc == 0 && started < threads; started++)
    if (pthread_create(&tid[started], NULL, worker_main, &w[started]) != 0) {
      atomic_store(&stop, 1);
      rc = pf_fail(err, "cannot start a thread: %s", strerror(errno));
      break;
    }
  if (opts->progress && rc == 0)
    for (long long d; (d = atomic_load(&done)) < count && !atomic_load(&stop);) {
      opts->progress(opts->ctx, d, count);
      nanosleep(&(struct timespec){.tv_nsec = 200000000}, NULL);
    }
  for (int k = 0; k < started; k++) pthread_join(tid[k], NULL);
  if (opts->progress && rc == 0) opts->progress(opts->ctx, atomic_load(&done), count);
  for (int k = 0; k < made; k++) {
    if (w[k].failed && rc == 0) {
      *err = w[k].err;
      rc = -1;
    }
    sums_add(&out->sums, &w[k].sums);
    worker_free(&w[k]);
  }
  out->seconds = pf_clock_seconds() - t0;
  if (opts->csv && c->analyze && rc == 0) csv_header(opts->csv, c->game);
  if (rows) {
    for (long long k = 0; k < count; k++) {
      if (rc == 0 && rows[k]) pf_buf_append(opts->csv, rows[k], strlen(rows[k]));
      free(rows[k]);
    }
    free(rows);
  }
  free(w);
  free(tid);
  return rc;
}

/* ------------------------------------------------------------------------------------------ */
/* Estimates                                                                                  */
/* ------------------------------------------------------------------------------------------ */

pf_sim_estimate pf_sim_mean(long long sum, long long sum_sq, long long n, double scale) {
  pf_sim_estimate e = {0};
  if (n <= 0) return e;
  double mean = (double)sum / scale / (double)n;
  double var = n > 1 ? ((double)sum_sq / (scale * scale) - (double)n * mean * mean) / (double)(n - 1) : 0;
  e.mean = mean;
  e.sd = var > 0 ? sqrt(var) : 0;
  double half = 1.96 * e.sd / sqrt((double)n);
  e.lo = mean - half;
  e.hi = mean + half;
  return e;
}

/* A win rate's interval is Wilson's score interval, which stays within 0..1 and holds at rates
 * near them; a shared win makes the spread of a game's share smaller than a win or a loss, so it
 * errs on the wide side. */
pf_sim_estimate pf_sim_wilson(long long sum, long long sum_sq, long long n) {
  pf_sim_estimate e = pf_sim_mean(sum, sum_sq, n, PF_WIN_UNIT);
  if (n <= 0) return e;
  double z = 1.96, z2 = z * z, nn = (double)n, p = e.mean;
  double centre = (p + z2 / (2 * nn)) / (1 + z2 / nn);
  double half = z / (1 + z2 / nn) * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn));
  e.lo = centre - half;
  e.hi = centre + half;
  return e;
}

pf_sim_estimate pf_sim_seat_wins(const pf_sim_result *r, int p) {
  return pf_sim_wilson(r->sums.win[p], r->sums.win_sq[p], r->sums.games);
}

pf_sim_estimate pf_sim_bot_wins(const pf_sim_result *r, int b) {
  return pf_sim_wilson(r->sums.bot_win[b], r->sums.bot_win_sq[b], r->sums.games);
}

pf_sim_estimate pf_sim_entry_wins(const pf_sim_result *r, int k) {
  return pf_sim_wilson(r->sums.entry_win[k], r->sums.entry_win_sq[k], r->sums.games);
}

pf_sim_estimate pf_sim_seat_score(const pf_sim_result *r, int p) {
  return pf_sim_mean(r->sums.score[p], r->sums.score_sq[p], r->sums.games, 1);
}

long long pf_sim_failed_games(const pf_sim_sums *s, int k) {
  long long games = 0;
  for (int i = 0; i < PF_BOT_FAIL_KINDS; i++) games += s->failed[i][k];
  return games;
}

/* ------------------------------------------------------------------------------------------ */
/* JSON                                                                                       */
/* ------------------------------------------------------------------------------------------ */

static void llongs_write(pf_jw *w, const char *key, const long long *v, int n) {
  pf_jw_key(w, key);
  pf_jw_llongs(w, v, n);
}

static void interval_write(pf_jw *w, pf_sim_estimate e) {
  pf_jw_open(w, '[');
  pf_jw_real(w, e.lo);
  pf_jw_real(w, e.hi);
  pf_jw_close(w, ']');
}

/* "failures": for each entry of the seat list, what its bot's failures were and what played in its
 * place (docs/cli.md), so that a result never scores a fallback's games under a bot's name
 * unsaid. */
static void failures_write(pf_jw *w, const pf_sim_result *r) {
  const pf_sim_sums *s = &r->sums;
  pf_jw_key(w, "failures");
  pf_jw_open(w, '[');
  for (int k = 0; k < r->config.players; k++) {
    const char *fail = pf_bot_fail_setting(r->config.seats[k]);
    pf_jw_open(w, '{');
    pf_jw_key_str(w, "bot", r->config.seats[k]);
    pf_jw_key(w, "fail");
    if (fail)
      pf_jw_str(w, fail);
    else
      pf_jw_null(w);
    pf_jw_key_int(w, "games", pf_sim_failed_games(s, k));
    for (int i = 0; i < PF_BOT_FAIL_KINDS; i++) pf_jw_key_int(w, pf_bot_fail_names[i], s->failed[i][k]);
    pf_jw_key_int(w, "fallback_moves", s->fallback_moves[k]);
    pf_jw_key_int(w, "lost", s->lost[k]);
    pf_jw_close(w, '}');
  }
  pf_jw_close(w, ']');
}

void pf_sim_write(pf_jw *w, const pf_sim_result *r) {
  const pf_sim_config *c = &r->config;
  const pf_sim_sums *s = &r->sums;
  int n = c->players, seat_bot[PF_MAX_PLAYERS], nbots = pf_sim_bots(c, seat_bot);
  pf_jw_open(w, '{');
  pf_jw_key_str(w, "game", c->game->id);
  pf_jw_key_int(w, "players", n);
  pf_jw_key(w, "options");
  pf_record_options_write(w, c->game, &c->options);
  pf_jw_key(w, "seats");
  pf_jw_open(w, '[');
  for (int p = 0; p < n; p++) pf_jw_str(w, c->seats[p]);
  pf_jw_close(w, ']');
  pf_jw_key(w, "rotate");
  pf_jw_bool(w, c->rotate);
  pf_jw_key_int(w, "games", c->games);
  pf_jw_key_int(w, "seed", (json_int_t)c->seed);
  pf_jw_key(w, "shard");
  if (c->nshards > 1) {
    long long first, count;
    pf_sim_slice(c, &first, &count);
    pf_jw_open(w, '{');
    pf_jw_key_int(w, "index", c->shard);
    pf_jw_key_int(w, "of", c->nshards);
    pf_jw_key_int(w, "first", first);
    pf_jw_key_int(w, "games", count);
    pf_jw_close(w, '}');
  } else {
    pf_jw_null(w);
  }
  pf_jw_key_int(w, "played", s->games);
  static const char *const PER_SEAT[] = {"wins", "win_rate", "win_rate_ci95", "score_mean", "score_sd"};
  for (int k = 0; k < 5; k++) {
    pf_jw_key(w, PER_SEAT[k]);
    pf_jw_open(w, '[');
    for (int p = 0; p < n; p++) {
      pf_sim_estimate e = k == 1 || k == 2 ? pf_sim_seat_wins(r, p) : pf_sim_seat_score(r, p);
      if (k == 0)
        pf_jw_real(w, (double)s->win[p] / PF_WIN_UNIT);
      else if (k == 2)
        interval_write(w, e);
      else
        pf_jw_real(w, k == 4 ? e.sd : e.mean);
    }
    pf_jw_close(w, ']');
  }
  pf_jw_key_real(w, "first_seat_advantage", pf_sim_seat_wins(r, 0).mean - 1.0 / n);
  pf_jw_key(w, "bots");
  pf_jw_open(w, '[');
  for (int b = 0; b < nbots; b++) {
    int held = 0, first = -1;
    for (int p = 0; p < n; p++)
      if (seat_bot[p] == b) held++, first = first < 0 ? p : first;
    pf_sim_estimate e = pf_sim_bot_wins(r, b);
    pf_jw_open(w, '{');
    pf_jw_key_str(w, "bot", c->seats[first]);
    pf_jw_key(w, "fair"); /* false: a measuring instrument, which reads hidden cards (bots/bot.h) */
    pf_jw_bool(w, pf_bot_instrument(c->seats[first]) == NULL);
    pf_jw_key_int(w, "seats", held);
    pf_jw_key_real(w, "fair_share", (double)held / n);
    pf_jw_key_real(w, "win_rate", e.mean);
    pf_jw_key(w, "win_rate_ci95");
    interval_write(w, e);
    pf_jw_close(w, '}');
  }
  pf_jw_close(w, ']');
  pf_jw_key(w, "entries");
  pf_jw_open(w, '[');
  for (int k = 0; k < n; k++) {
    pf_sim_estimate e = pf_sim_entry_wins(r, k);
    pf_jw_open(w, '{');
    pf_jw_key_str(w, "bot", c->seats[k]);
    pf_jw_key_real(w, "win_rate", e.mean);
    pf_jw_key(w, "win_rate_ci95");
    interval_write(w, e);
    pf_jw_close(w, '}');
  }
  pf_jw_close(w, ']');
  pf_jw_key_real(w, "mean_moves", s->games ? (double)s->moves / (double)s->games : 0);
  failures_write(w, r);
  const char *names[PF_MAX_PLAYERS];
  if (c->analyze) {
    for (int b = 0; b < nbots; b++)
      for (int p = n - 1; p >= 0; p--)
        if (seat_bot[p] == b) names[b] = c->seats[p];
    pf_jw_key(w, "analysis");
    pf_an_run run = {.game = c->game, .players = n, .nbots = nbots, .games = s->games, .win = s->win,
                     .win_sq = s->win_sq, .bot_names = names};
    pf_an_write(w, &s->an, &run);
    pf_an_warnings_write(w, &s->an, s->games, c->game, n, &c->options);
  }
  pf_jw_key(w, "sums");
  pf_jw_open(w, '{');
  pf_jw_key_int(w, "games", s->games);
  pf_jw_key_int(w, "moves", s->moves);
  llongs_write(w, "win", s->win, n);
  llongs_write(w, "win_sq", s->win_sq, n);
  llongs_write(w, "score", s->score, n);
  llongs_write(w, "score_sq", s->score_sq, n);
  llongs_write(w, "bot_win", s->bot_win, nbots);
  llongs_write(w, "bot_win_sq", s->bot_win_sq, nbots);
  llongs_write(w, "entry_win", s->entry_win, n);
  llongs_write(w, "entry_win_sq", s->entry_win_sq, n);
  pf_jw_key(w, "failures");
  pf_jw_open(w, '{');
  for (int k = 0; k < PF_BOT_FAIL_KINDS; k++) llongs_write(w, pf_bot_fail_names[k], s->failed[k], n);
  llongs_write(w, "fallback_moves", s->fallback_moves, n);
  llongs_write(w, "lost", s->lost, n);
  pf_jw_close(w, '}');
  if (c->analyze) {
    pf_jw_key(w, "analysis");
    pf_an_sums_write(w, &s->an, c->game, n, nbots);
  }
  pf_jw_close(w, '}');
  pf_jw_key_real(w, "wall_seconds", r->seconds);
  pf_jw_close(w, '}');
}

json_t *pf_sim_json(const pf_sim_result *r) {
  pf_buf b = {0};
  pf_jw w = {.b = &b};
  pf_sim_write(&w, r);
  return pf_jw_load(&w);
}

static int read_llongs(json_t *a, const char *what, long long *out, int n, pf_error *err) {
  if (!json_is_array(a) || (int)json_array_size(a) != n)
    return pf_fail(err, "sums.%s: expected an array of %d integers", what, n);
  for (int i = 0; i < n; i++) {
    json_t *x = json_array_get(a, (size_t)i);
    if (!json_is_integer(x)) return pf_fail(err, "sums.%s[%d]: expected an integer", what, i);
    out[i] = json_integer_value(x);
  }
  return 0;
}

/* sums.failures, when there (a result written before it was counted has none: no failures). */
static int read_failures(json_t *f, int n, pf_sim_sums *s, pf_error *err) {
  if (!f) return 0;
  if (!json_is_object(f)) return pf_fail(err, "sums.failures: expected an object");
  long long *into[PF_BOT_FAIL_KINDS + 2];
  const char *names[PF_BOT_FAIL_KINDS + 2];
  for (int k = 0; k < PF_BOT_FAIL_KINDS; k++) into[k] = s->failed[k], names[k] = pf_bot_fail_names[k];
  into[PF_BOT_FAIL_KINDS] = s->fallback_moves, names[PF_BOT_FAIL_KINDS] = "fallback_moves";
  into[PF_BOT_FAIL_KINDS + 1] = s->lost, names[PF_BOT_FAIL_KINDS + 1] = "lost";
  for (int k = 0; k < PF_BOT_FAIL_KINDS + 2; k++) {
    char what[64];
    snprintf(what, sizeof what, "failures.%s", names[k]);
    if (read_llongs(json_object_get(f, names[k]), what, into[k], n, err) != 0) return -1;
    for (int p = 0; p < n; p++)
      if (into[k][p] < 0) return pf_fail(err, "sums.%s[%d]: expected a count (0 or more)", what, p);
  }
  return 0;
}

/* The integer at key, in [min, max]. */
static int read_int(json_t *o, const char *key, long long min, long long max, long long *out, pf_error *err) {
  json_t *x = json_object_get(o, key);
  if (!json_is_integer(x) || json_integer_value(x) < min || json_integer_value(x) > max)
    return pf_fail(err, "%s: expected an integer from %lld to %lld", key, min, max);
  *out = json_integer_value(x);
  return 0;
}

static int read_config(json_t *j, pf_sim_config *c, pf_error *err) {
  memset(c, 0, sizeof *c);
  const char *id = json_string_value(json_object_get(j, "game"));
  if (!id) return pf_fail(err, "game: expected a game id");
  c->game = pf_game_find(id);
  if (!c->game) return pf_fail(err, "game: unknown game '%s'", id);
  long long v = 0;
  if (read_int(j, "players", c->game->min_players, c->game->max_players, &v, err) != 0) return -1;
  c->players = (int)v;
  if (pf_record_options_read(json_object_get(j, "options"), c->game, &c->options, err) != 0) return -1;
  json_t *seats = json_object_get(j, "seats");
  if (!json_is_array(seats) || (int)json_array_size(seats) != c->players)
    return pf_fail(err, "seats: expected an array of %d bot specs", c->players);
  for (int p = 0; p < c->players; p++) {
    const char *spec = json_string_value(json_array_get(seats, (size_t)p));
    if (!spec || strlen(spec) >= PF_BOT_SPEC) return pf_fail(err, "seats[%d]: expected a bot spec", p);
    if (pf_bot_check_spec(spec, err) != 0) {
      pf_error_prefix(err, "seats[%d]", p);
      return -1;
    }
    strcpy(c->seats[p], spec);
  }
  json_t *rot = json_object_get(j, "rotate");
  if (!json_is_boolean(rot)) return pf_fail(err, "rotate: expected true or false");
  c->rotate = json_is_true(rot);
  if (read_int(j, "games", 1, INT64_MAX, &c->games, err) != 0) return -1;
  if (read_int(j, "seed", 0, INT64_MAX, &v, err) != 0) return -1;
  c->seed = (uint64_t)v;
  json_t *sh = json_object_get(j, "shard");
  c->shard = c->nshards = 1;
  if (sh && !json_is_null(sh)) {
    long long of = 0, idx = 0;
    if (!json_is_object(sh) || read_int(sh, "of", 1, c->games, &of, err) != 0 ||
        read_int(sh, "index", 1, of, &idx, err) != 0) {
      pf_error_prefix(err, "shard");
      return -1;
    }
    c->shard = (int)idx;
    c->nshards = (int)of;
  }
  return 0;
}

int pf_sim_from_json(json_t *j, const char *what, pf_sim_result *out, pf_error *err) {
  memset(out, 0, sizeof *out);
  if (!json_is_object(j)) return pf_fail(err, "%s: expected a sim --json result (an object)", what);
  if (read_config(j, &out->config, err) != 0) goto bad;
  int seat_bot[PF_MAX_PLAYERS], n = out->config.players, nbots = pf_sim_bots(&out->config, seat_bot);
  json_t *sums = json_object_get(j, "sums");
  pf_sim_sums *s = &out->sums;
  long long first, count;
  pf_sim_slice(&out->config, &first, &count);
  if (!json_is_object(sums)) {
    pf_fail(err, "sums: missing (is this the output of pilfer sim --json?)");
    goto bad;
  }
  if (read_int(sums, "games", count, count, &s->games, err) != 0 || read_int(sums, "moves", 0, INT64_MAX, &s->moves, err) != 0 ||
      read_llongs(json_object_get(sums, "win"), "win", s->win, n, err) != 0 ||
      read_llongs(json_object_get(sums, "win_sq"), "win_sq", s->win_sq, n, err) != 0 ||
      read_llongs(json_object_get(sums, "score"), "score", s->score, n, err) != 0 ||
      read_llongs(json_object_get(sums, "score_sq"), "score_sq", s->score_sq, n, err) != 0 ||
      read_llongs(json_object_get(sums, "bot_win"), "bot_win", s->bot_win, nbots, err) != 0 ||
      read_llongs(json_object_get(sums, "bot_win_sq"), "bot_win_sq", s->bot_win_sq, nbots, err) != 0) {
    if (strncmp(err->msg, "sums.", 5) != 0) pf_error_prefix(err, "sums");
    goto bad;
  }
  if (read_failures(json_object_get(sums, "failures"), n, s, err) != 0) goto bad;
  /* entry_win: an unrotated result written before it was kept has it as win. */
  json_t *ew = json_object_get(sums, "entry_win");
  if (!ew && !out->config.rotate) {
    memcpy(s->entry_win, s->win, sizeof s->win);
    memcpy(s->entry_win_sq, s->win_sq, sizeof s->win_sq);
  } else if (read_llongs(ew, "entry_win", s->entry_win, n, err) != 0 ||
             read_llongs(json_object_get(sums, "entry_win_sq"), "entry_win_sq", s->entry_win_sq, n, err) != 0) {
    goto bad;
  }
  json_t *an = json_object_get(sums, "analysis");
  out->config.analyze = an != NULL;
  if (an && pf_an_sums_read(an, out->config.game, n, nbots, &s->an, err) != 0) {
    pf_error_prefix(err, "sums.analysis");
    goto bad;
  }
  json_t *secs = json_object_get(j, "wall_seconds");
  out->seconds = json_is_number(secs) ? json_number_value(secs) : 0;
  return 0;
bad:
  pf_error_prefix(err, "%s", what);
  return -1;
}

/* Whether two results are parts of the same run (everything but the shard index). */
static bool same_run(const pf_sim_config *a, const pf_sim_config *b) {
  if (a->game != b->game || a->players != b->players || a->games != b->games || a->seed != b->seed ||
      a->rotate != b->rotate || a->nshards != b->nshards || a->analyze != b->analyze ||
      memcmp(&a->options, &b->options, sizeof a->options) != 0)
    return false;
  for (int p = 0; p < a->players; p++)
    if (strcmp(a->seats[p], b->seats[p]) != 0) return false;
  return true;
}

int pf_sim_merge(const pf_sim_result *parts, int n, pf_sim_result *out, pf_error *err) {
  memset(out, 0, sizeof *out);
  if (n < 1) return pf_fail(err, "nothing to merge");
  const pf_sim_config *c = &parts[0].config;
  bool seen[4096] = {false};
  if (c->nshards > 4096) return pf_fail(err, "at most 4096 shards");
  for (int i = 0; i < n; i++) {
    const pf_sim_config *pc = &parts[i].config;
    if (!same_run(c, pc))
      return pf_fail(err, "part %d is not a shard of the same run as part 1 (game, players, options, seats, games, "
                          "seed, rotate, the number of shards and sim or analyze must all agree)", i + 1);
    if (seen[pc->shard - 1]) return pf_fail(err, "shard %d/%d is given twice", pc->shard, pc->nshards);
    seen[pc->shard - 1] = true;
  }
  for (int k = 0; k < c->nshards; k++)
    if (!seen[k]) return pf_fail(err, "shard %d/%d is missing: merge needs every shard of the run", k + 1, c->nshards);
  out->config = *c;
  out->config.shard = out->config.nshards = 1;
  for (int i = 0; i < n; i++) {
    sums_add(&out->sums, &parts[i].sums);
    out->seconds += parts[i].seconds;
  }
  return 0;
}
