/*
 * bot.h - computer players.
 *
 * A bot chooses a move for the seat to move. It may use only what that seat may know: the legal
 * moves, the seat's view, and determinizations of copies of the state for that seat (game.h).
 * The bots here read the state only through g->to_move, g->legal, and g->determinize on a copy;
 * everything else they look at is a determinized copy. Since determinize is canonical, a bot
 * with the same generator then chooses the same move in two positions that differ only in what
 * its seat cannot see (tests/test_bots.c checks this for every bot and game).
 *
 * Bots are named by specs: "name" or "name:key=value,...": "random", "greedy",
 * "ismcts:iters=2000,c=0.7,playout=greedy". Each kind lists its settings in a table.
 *
 * A bot allocates its working memory (a search tree, scratch states) once, at its first choice
 * for a game, and never per move or per search iteration; pf_bot_free releases it.
 */
#ifndef PF_BOT_H
#define PF_BOT_H

#include "core/game.h"

#define PF_BOT_MAX_SETTINGS 16
#define PF_BOT_SPEC 128 /* room for a spec as pf_bot_spec writes it */
#define PF_BOT_MAX_THREADS 64 /* threads one bot may search with (ismcts's threads) */

/* One setting of a bot kind. A value is an integer, a decimal kept in thousandths (scale 1000:
 * "0.7" is 700), or one of named choices (stored as the choice's index). */
typedef struct pf_bot_setting {
  const char *name;
  int scale;                   /* 1: an integer; 1000: a decimal with up to three decimals */
  const char *const *choices;  /* NULL-terminated names for 0, 1, ..., or NULL for a number */
  int64_t def, min, max;       /* in stored units (thousandths when scale is 1000) */
  const char *help;
} pf_bot_setting;

/* What the last choice cost: for the benchmark and the hint. */
typedef struct pf_bot_stats {
  long iterations; /* search iterations (0 for bots that do not search) */
  long moves;      /* moves and chance outcomes simulated */
  long nodes;      /* tree nodes made */
  int offered;     /* legal moves the position offered, for kinds that count them (random, greedy;
                    * 0: not counted), so that `pilfer analyze` need not generate them again */
  int particles;   /* ismcts's infer: the weighted positions the choice drew from (0: uniform) */
} pf_bot_stats;

/* Whether a bot has failed in this game (exec: its program did not answer, ended, or answered a
 * move that is not legal): since then a fallback bot plays the seat, and with PF_BOT_FORFEIT the
 * run counts the game as lost for the seat (sim gives it no share of a win). */
typedef enum { PF_BOT_OK, PF_BOT_FELL_BACK, PF_BOT_FORFEIT } pf_bot_failure;

/* What went wrong when a bot failed, so that a run can count its failures by kind (sim's
 * "failures", pilfer.Bot.failures): it did not answer (or read) in time; its program ended or
 * could not start; it answered a move that is not legal; or it broke the protocol (a bad
 * handshake, a line too long, with a NUL byte or not UTF-8). */
typedef enum { PF_BOT_TIMEOUT, PF_BOT_ENDED, PF_BOT_ILLEGAL, PF_BOT_PROTOCOL, PF_BOT_FAIL_KINDS } pf_bot_fail_kind;
/* Their names in JSON and text: "timeout", "ended", "illegal", "protocol". */
extern const char *const pf_bot_fail_names[PF_BOT_FAIL_KINDS];

typedef struct pf_bot {
  const struct pf_bot_kind *kind;
  int players;                        /* of the game it plays */
  pf_rng rng;                         /* the bot's own generator, from the game seed and its seat */
  int64_t set[PF_BOT_MAX_SETTINGS];   /* the kind's settings, in the order of its table */
  void *mem;                          /* working memory, owned; grown by pf_bot_memory */
  size_t memsize;
  pf_bot_stats stats;
  pf_bot_failure failure;             /* this game's: reseeding for the next game clears it */
  pf_bot_fail_kind fail_kind;         /* when failure is not PF_BOT_OK: what went wrong */
  long fallback_moves;                /* this game's moves the fallback bot chose (reseeding clears it) */
  pf_error why;                       /* when failure is not PF_BOT_OK: "seat S: bot '...': what" */
  bool strict;                        /* set by the caller, who reports a failure itself
                                       * (pilfer.Bot(strict=True)): nothing goes to stderr */
} pf_bot;

typedef struct pf_bot_kind {
  const char *name;
  const char *help;
  const pf_bot_setting *settings;
  int nsettings;
  /* Chooses a legal move of the seat to move. */
  pf_move (*choose)(pf_bot *bot, const pf_game *g, const void *st);
  /* Optional, for a kind whose spec holds more than settings (exec: a command): reads the text
   * after "name:" into set[] (defaults already there) and, when bot is not NULL, into the bot's
   * memory; bot is NULL when the spec is only checked. NULL: the text is "key=value,...". */
  int (*open)(pf_bot *bot, const char *text, int64_t *set, pf_error *err);
  /* Optional: releases what the kind holds besides its memory (exec: its program). */
  void (*close)(pf_bot *bot);
  /* Whether the kind starts programs on this machine: refused unless pf_bot_allow_programs. */
  bool runs_programs;
  /* Whether a choice is a search (its time grows with its settings: iters, time), not a rule of
   * thumb: the server runs searches apart from the cheap bots (server/workers.h). */
  bool searches;
  /* Optional: whether these settings make a measuring instrument, a bot that reads what its seat
   * cannot see (ismcts's see=hands or see=all): the setting as "key=value", or NULL for a fair bot.
   * Refused unless pf_bot_allow_instruments; every result that uses one says it is not fair. */
  const char *(*instrument)(const int64_t *set);
} pf_bot_kind;

/* Every bot kind, NULL-terminated. */
extern const pf_bot_kind *const pf_bot_kinds[];
extern const pf_bot_kind pf_bot_random, pf_bot_greedy, pf_bot_ismcts, pf_bot_exec;

/* Whether specs of kinds that start programs (exec) are accepted in this process. Off unless
 * turned on: the command line turns it on for every command but `serve`, so that no client of the
 * server can start a program (docs/botproto.md). */
void pf_bot_allow_programs(bool allow);

/* Whether specs of measuring instruments (pf_bot_kind.instrument: bots that read the other seats'
 * hands or the whole state, to bound what a fair bot could gain) are accepted in this process. Off
 * unless turned on: the command line turns it on for `sim` and `analyze` alone, so that no table of
 * the server, no hint and no game against people has one; the Python module's sim and analyze
 * accept them, its Bot only when asked (docs/python.md). */
void pf_bot_allow_instruments(bool allow);
/* The setting that makes a valid spec a measuring instrument ("see=all"), or NULL when the spec is
 * fair (or not valid), whatever pf_bot_allow_instruments says. */
const char *pf_bot_instrument(const char *spec);

/* Makes a bot for a game of `players` from a spec, seeded from (seed, seat); a bad spec is refused
 * with a message that lists the known bots, or the kind's settings and what each allows. */
int pf_bot_init(pf_bot *bot, const char *spec, int players, uint64_t seed, int seat, pf_error *err);
/* Seeds the bot's generator anew from (seed, seat), keeping its kind, settings and memory (for
 * the next game of a simulation). */
void pf_bot_reseed(pf_bot *bot, uint64_t seed, int seat);
/* Checks a spec without making a bot. */
int pf_bot_check_spec(const char *spec, pf_error *err);
/* Releases the bot's memory. */
void pf_bot_free(pf_bot *bot);
static inline pf_move pf_bot_choose(pf_bot *bot, const pf_game *g, const void *st) {
  return bot->kind->choose(bot, g, st);
}
/* A setting's value by name (the kind must have it). */
int64_t pf_bot_setting_value(const pf_bot *bot, const char *name);
/* What a spec's `fail` setting says becomes of its seat when it fails ("random", "greedy",
 * "lose"), or NULL for a kind that cannot fail (the built-in bots) or a spec refused here. */
const char *pf_bot_fail_setting(const char *spec);
/* Writes the kinds and their settings, for --help. */
void pf_bot_describe_all(pf_buf *out);

/* ---- for bot kinds ---- */

/* Reads "key=value,key=value" for a kind into set[]; the message names a bad key or value and
 * says what is allowed. */
int pf_bot_parse_settings(const pf_bot_kind *k, const char *text, int64_t *set, pf_error *err);

/* At least n bytes of the bot's working memory, kept between choices (allocated, zeroed, only
 * when it must grow: once per bot and game). */
void *pf_bot_memory(pf_bot *bot, size_t n);
/* The best of n ratings; ties go to a uniformly random one of them (drawn from rng: the bot's
 * generator, or a search thread's). */
int pf_bot_best(pf_rng *rng, const int64_t *rating, int n);


#endif
