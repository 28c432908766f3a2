/*
 * table.h - inside the hall (hall.h): a table in memory, its seats, who is asked, playing, the
 * bots' jobs, and the hall's own state that table.c, hall.c and http.c share. Not for the
 * transport.
 *
 * Changes and commits: every change to a table is one savepoint (change_begin, then change_keep
 * or change_undo) inside the transaction of the event loop's pass; pf_hall_flush commits them
 * all at once, then sends the replies that waited for the commit, then each changed table's new
 * states (built once per viewer kind). Nothing anyone sees waits on a commit that can fail
 * without being told: a failed commit puts every changed table back as stored and answers the
 * requests of the pass `storage`.
 */
#ifndef PF_SERVER_TABLE_H
#define PF_SERVER_TABLE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "bots/bot.h"
#include "core/record.h"
#include "games/registry.h"
#include "server/hall.h"
#include "server/metrics.h"
#include "server/store.h"
#include "server/workers.h"

#define LOG_KEEP 20        /* moves told in each state message */
#define MAX_BINDINGS 32    /* tables a connection may sit at or watch at once */
#define LIST_MAX 200       /* tables in a list */
#define NAME_CHARS 24      /* a display name's characters at most (docs/protocol.md, "Names") */
#define NAME_BYTES (4 * NAME_CHARS + 1)
#define CHAT_CHARS 300     /* a chat message's characters at most */
#define CHAT_BURST 5       /* chat messages a connection may send at once ... */
#define CHAT_EVERY 2.0     /* ... and then one every this many seconds (`chat_flood`) */
#define CHAT_LOG 50        /* the messages told to a connection as it sits down or watches */
#define LOBBY_PAGE 20      /* tables in one page of a `subscribe` */
#define LOBBY_MINE 100     /* table ids a `subscribe` may name as its own */
#define LOBBY_SUBSCRIBERS 1000 /* connections subscribed at once (`full`) */

enum { SEAT_OPEN, SEAT_HUMAN, SEAT_BOT };
extern const char *const SEAT_KIND[];
enum { ST_WAITING, ST_PLAYING, ST_OVER };
extern const char *const STATUS[];

typedef struct chair {
  int kind;
  bool taken_over;             /* a human seat its table's takeover bot plays for now */
  bool has_sealed;             /* a sealed choice is in (choosing groups, PAP-4) */
  char token[33];              /* a human seat's secret, 32 hex digits */
  char bot[PF_BOT_SPEC];       /* a bot seat's spec */
  char sealed[PF_MOVE_STR];    /* the sealed choice, canonical */
  char name[NAME_BYTES];       /* a human seat's display name, checked (check_text); "" when none */
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

typedef struct watcher {
  pf_conn *conn;
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
                                    * legal moves (-1: not asked); see current_for */
  bool bot_busy;       /* a bot job for this table is out */
  bool hint_busy;      /* a hint job for this table is out */
  bool dirty;          /* changed in this pass: told at pf_hall_flush */
  double since;        /* when the table last changed (takeover and expiry count from here) */
} table;

typedef struct binding {
  int64_t table;
  int seat; /* -1: watching */
} binding;

struct pf_conn {
  uint64_t id;
  void *peer;
  binding bind[MAX_BINDINGS];
  int nbind;
  int64_t *made; /* the tables it created that may still be waiting (pruned at each create) */
  int nmade;
  bool hint_busy; /* its hint job is out */
  double chat_tokens, chat_at; /* its chat's rate: messages it may send now, as of when */
  /* The lobby's list it subscribed to (`subscribe`): a filter, a page, the tables it calls its
   * own, and a hash of the last page it was sent (a page is sent again only when it changed). */
  bool subscribed;
  int sub_filter, sub_page;
  int64_t sub_mine[LOBBY_MINE];
  int nsub_mine;
  uint64_t sub_hash;
  pf_conn *prev, *next;
};

/* A bot's job: a choice for a seat (play) or a hint for a player. */
typedef struct bot_job {
  pf_work work; /* first: workers.h */
  bool hint, cancelled;
  int64_t table;
  int ply, seat;
  uint64_t conn;   /* the hint's asker */
  json_t *req_id;  /* the hint request's id, owned */
  const pf_game *g;
  int players;
  void *state;     /* a copy, owned */
  char spec[PF_BOT_SPEC];
  int max_ms;      /* the search's time cap (limits.search_ms) */
  int max_threads; /* the search's threads cap: the workers' (at least 1) */
  uint64_t seed;
  bool failed;
  char move[PF_MOVE_STR];
  pf_buf text;
  pf_error err;
} bot_job;

/* A message waiting for the pass's commit (table.h's head comment). */
typedef struct outmsg {
  pf_conn *conn;
  char *text;
  char *fail;     /* sent instead when the commit fails (a `storage` error); NULL: dropped then */
  bool plain;     /* sent whatever the commit does (errors, lists) */
} outmsg;

struct pf_hall {
  pf_hall_io io;
  bool stopping;  /* pf_hall_stopping: disconnections tell nobody */
  pf_hall_limits lim;
  pf_store *store;
  pf_workers *workers;
  pf_crew *crew;  /* builds the states of a pass's tables with the loop (pf_hall_flush) */
  table **tables; /* by id; NULL when not in memory */
  int64_t cap;
  int ntables;
  pf_conn *conns;
  uint64_t next_conn;
  void *scratch;  /* a state-sized buffer (the largest game's) */
  int64_t *idle;  /* finished tables that may have nobody left at them: unloaded by sweep_idle */
  int nidle, capidle;
  int64_t *dirty; /* tables changed in this pass, told at pf_hall_flush */
  int ndirty, capdirty;
  outmsg *out;    /* messages of this pass, in order, sent at pf_hall_flush */
  int nout, capout;
  /* For /metrics (metrics.c): errors sent by code, and each message's wait from its arrival (the
   * pass's first: an upper bound) to the replies and states of its pass being handed over. */
  pf_counts errors;
  pf_histogram pass_seconds;
  double pass_start;
  uint64_t pass_messages;
  int nsubs;        /* connections subscribed to the lobby's list */
  bool lobby_dirty; /* a table changed since the subscribers were last sent their pages */
};

/* ---- table.c ---- */

void new_token(char out[33]);
uint64_t os_random64(void);
bool token_equal(const char *a, const char *b);
int parse_kind(const char *k);

table *table_in_memory(pf_hall *h, int64_t id);
table *table_new(const pf_game *g, int players);
void table_free(table *t);
void table_put(pf_hall *h, table *t);
/* Takes a table out of memory (its connections' bindings are the caller's to drop). */
void table_remove(pf_hall *h, table *t);
int table_from_store(void *ctx, const pf_store_loaded *l);
table *table_get(pf_hall *h, int64_t id);
/* Puts a table back as stored after a failed write (t is freed; its watchers stay). */
void table_reload(pf_hall *h, table *t);
void note_idle(pf_hall *h, const table *t);
void sweep_idle(pf_hall *h);

int asked(const table *t, int *seats);
bool may_answer(const table *t, int s, int *at);
void note_group(table *t);
bool current_for(const table *t, int s, json_int_t ply);
bool is_bot_seat(const table *t, int s);
/* A human seat's time left now, in ms (its clock running while it is asked); -1 without a clock. */
int64_t clock_left(const table *t, int s, double now);

json_t *summary_json(const table *t);
/* A recorded move in words with everything shown (table.c says how). */
bool describe_shown(const pf_game *g, const void *st, const char *text, pf_buf *b, pf_move_zones *z);
/* Appends the state message for seat s (-1: a spectator) to out; -1 when it cannot be written.
 * Reads t only (any thread, while nothing changes t). */
int state_text(const table *t, int s, pf_buf *out);
json_t *tables_json(pf_hall *h);
/* Appends a stored summary (JSON text) to the array ctx (pf_store_finished's callback). */
void add_summary(void *ctx, const char *text);

/* The states of one table, one for each viewer kind at it: text[s] for seat s, text[players]
 * for spectators (empty: nobody of that kind watches). */
typedef struct table_states {
  pf_buf text[PF_MAX_PLAYERS + 1];
  bool failed[PF_MAX_PLAYERS + 1];
} table_states;

void states_build(const table *t, table_states *ts);
void states_send(pf_hall *h, const table *t, table_states *ts);
/* note_group, then each connection at t is sent its state: every change to a table ends here
 * or in pf_hall_flush, which does the same for every table of a pass at once. */
void broadcast(pf_hall *h, table *t);

int change_begin(pf_hall *h, pf_error *err);
void change_keep(pf_hall *h, table *t);
void change_undo(pf_hall *h, table *t);
int advance(pf_hall *h, table *t, pf_error *err);
int lose_on_time(pf_hall *h, table *t, int s, pf_error *err);
int start_if_full(pf_hall *h, table *t, pf_error *err);
int seat_move(pf_hall *h, table *t, int s, const char *text, char canon[PF_MOVE_STR], bool *sealed,
              const char **code, pf_error *err);

/* Checks a bot spec against the server's budget (limits.search_iters and search_ms); *code is
 * "bad_seat_spec" or "budget" on failure. */
int check_bot(const pf_hall *h, const char *spec, const char **code, pf_error *err);
bot_job *job_new(pf_hall *h, const table *t, int seat, int at, const char *spec);
void job_free(bot_job *j);
void run_bot(pf_work *w);
void schedule_bot(pf_hall *h, table *t);
void bot_played(pf_hall *h, bot_job *j);

/* ---- hall.c ---- */

/* Sends a message (taking it) to a connection: at once, or after the pass's commit when one is
 * open (`fail`: the storage error sent instead if it fails; plain: sent either way). */
void hall_send(pf_hall *h, pf_conn *c, json_t *o, json_t *id, bool plain, bool acked);
void hall_send_text(pf_hall *h, pf_conn *c, const char *text, size_t len, bool plain);
void unbind_conn(pf_hall *h, int64_t id, pf_conn *c, int s);

#endif
