/*
 * table.h - a table in memory: its game's run, its chairs, its watchers, the log each viewer is
 * told, and playing a move on its run (the one path every move takes, live or replayed). It knows
 * no hall: the hall keeps its tables by id (tables.h), asks their seats (turn.h) and tells their
 * viewers (state.h).
 */
#ifndef PF_SERVER_TABLE_H
#define PF_SERVER_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "bots/bot.h"
#include "core/record.h"
#include "games/registry.h"
#include "server/client.h"
#include "server/text.h"

#define LOG_KEEP 20        /* moves told in each state message */

enum { SEAT_OPEN, SEAT_HUMAN, SEAT_BOT };
extern const char *const pf_table_seat_kind[]; /* by SEAT_*: "open", "human", "bot" */
enum { ST_WAITING, ST_PLAYING, ST_OVER };
extern const char *const pf_table_status[];    /* by ST_*: "waiting", "playing", "over" */

typedef struct chair {
  int kind;
  bool taken_over;             /* a human seat its table's takeover bot plays for now */
  bool has_sealed;             /* a sealed choice is in (choosing groups, PAP-4) */
  char token[33];              /* a human seat's secret, 32 hex digits */
  char bot[PF_BOT_SPEC];       /* a bot seat's spec */
  char sealed[PF_MOVE_STR];    /* the sealed choice, canonical */
  char name[NAME_BYTES];       /* a human seat's display name, checked (pf_text_check); "" when none */
} chair;

/* One move as each viewer may know it: texts[0..players-1] for the seats, texts[players] for
 * spectators (NULL: not told to that viewer), each kept as a JSON string, quoted and escaped,
 * of lens[v] bytes: written once, copied into every state that tells it (up to LOG_KEEP). */
typedef struct log_entry {
  int ply, seat; /* seat: who moved, -1 for chance */
  pf_move_zones zones; /* where the move took its card from and to (pf_move_zones_of) */
  unsigned whole;      /* the viewer slots told the move as its mover knows it: they get zones */
  char *texts[PF_MAX_PLAYERS + 1];
  size_t lens[PF_MAX_PLAYERS + 1];
} log_entry;

/* A connection at a table (the hall's: hallstate.h). */
typedef struct watcher {
  struct pf_conn *conn;
  int seat; /* -1: a spectator */
} watcher;

typedef struct table {
  int64_t id;
  const pf_game *g;
  pf_run run;
  int players, status;
  int64_t created;
  int takeover_after; /* seconds; 0: none */
  bool spectator_chat; /* the spectators have a chat channel of their own */
  /* The clock (docs/protocol.md, "create"): seconds for each player (0: none), what running out
   * does, each seat's time left (ms) as of when it was last asked (asked_at, clock seconds; 0:
   * not asked), and the seat that lost on time (-1). */
  int clock_s;
  bool clock_loss;
  int64_t clock_ms[PF_MAX_PLAYERS];
  double asked_at[PF_MAX_PLAYERS];
  int lost_on_time;
  /* The rematch (docs/protocol.md, "rematch"): an offer open, the seats that accepted it (bits),
   * and the table it made (0: none yet; then no other offer). The offer lives in memory only. */
  bool offer_open;
  unsigned offer_yes;
  int offer_from;
  int64_t rematch;
  char takeover_bot[PF_BOT_SPEC];
  chair seats[PF_MAX_PLAYERS];
  log_entry log[LOG_KEEP]; /* a ring: move k is at k % LOG_KEEP */
  watcher *watch;
  int nwatch, capwatch;
  int group_since[PF_MAX_PLAYERS]; /* the ply since which a seat has been asked with the same
                                    * legal moves (-1: not asked); see pf_turn_current_for */
  bool bot_busy;       /* a bot job for this table is out */
  bool hint_busy;      /* a hint job for this table is out */
  bool dirty;          /* changed in this pass: told at pf_hall_flush */
  double since;        /* when the table last changed (takeover and expiry count from here) */
  /* Presence (docs/protocol.md, "here"): when each seat's person last sent any message (clock
   * seconds; 0: not since the table was loaded), and the takeover deadline its last state told. */
  double heard_at[PF_MAX_PLAYERS];
  double told_takeover[PF_MAX_PLAYERS];
  bool abandoned; /* as the lists were last told (pf_state_abandoned) */
  /* The client that created it (NULL: a table that came back from the database, or the server's
   * own), and what it charges that client now (pf_table_charge): a waiting table its
   * PF_HOLD_WAITING, one being played with a bot in a seat its PF_HOLD_BOT_TABLES. */
  pf_client *creator;
  bool held_waiting, held_bots;
} table;

/* ---- tokens and seat kinds ---- */

/* 128 bits from the operating system, as 32 hex digits (a human seat's token). */
void pf_table_new_token(char out[33]);
/* 64 bits from the operating system (seeds). */
uint64_t pf_table_random64(void);
/* Compares a token in time that does not depend on where it differs. */
bool pf_table_token_equal(const char *a, const char *b);
/* A stored seat kind ("open", "human", "bot") as SEAT_*. */
int pf_table_parse_kind(const char *k);
/* A stored status ("waiting", "playing", "over") as ST_*. */
int pf_table_parse_status(const char *st);

/* ---- a table ---- */

/* A table of g for `players`, empty: no run started, no seat taken. */
table *pf_table_new(const pf_game *g, int players);
/* Releases what the table charges its creator, then frees it. */
void pf_table_free(table *t);
/* Charges the table's creator what the table holds now (waiting, or being played with a bot),
 * releasing what it no longer holds: called after every change (pf_change_keep). */
void pf_table_charge(table *t);
/* Whether a seat of the table is a bot's. */
bool pf_table_has_bot(const table *t);
/* The viewer index of a seat in a log entry's texts: seats are themselves, spectators (-1) last. */
int pf_table_viewer_slot(const table *t, int seat);

/* ---- playing and the log ---- */

/* Plays a move given as text (a chance outcome starts with '*') at the table's position, noting
 * what each viewer is told when `logged`. Refuses an illegal one, saying why, changing nothing. */
int pf_table_play_text(table *t, const char *text, bool logged, pf_error *err);
/* Tells the kept log again as the full state knew it (the game is over: nothing is hidden). */
void pf_table_log_reveal(table *t);
/* A recorded move (its text; a chance outcome's starts with '*') at st, in words with everything
 * shown, into b; a seat's move also gives its zones into z when z is given. Returns whether it
 * was a chance outcome. */
bool pf_table_describe_shown(const pf_game *g, const void *st, const char *text, pf_buf *b, pf_move_zones *z);

#endif
