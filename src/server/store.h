/*
 * store.h - the server's database: tables, seats, moves and sealed choices, in SQLite.
 *
 * A table's state is never stored: it is its record replayed (the game, options, seed and moves
 * written here), so the database can only hold what the game's rules accepted, and a restart
 * brings every table back by replaying. The journal is WAL with synchronous=NORMAL: a committed
 * move survives the process being killed (kill -9); only a power cut may lose the last commits
 * (pf_store_open's `full_sync` trades speed for that too).
 *
 * Writes happen between pf_store_begin and pf_store_commit, and the caller shows a change to
 * nobody before the commit succeeds (nothing is acknowledged that is not written).
 */
#ifndef PF_STORE_H
#define PF_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/buf.h"
#include "server/shard.h"

typedef struct pf_store pf_store;

/* A table as stored (strings owned by the caller or by the loader, see each function). */
typedef struct pf_store_table {
  int64_t id;
  const char *game;
  int players;
  const char *options; /* JSON object text, as records write options */
  uint64_t seed;
  const char *status;  /* "waiting", "playing" or "over" */
  int takeover_after;  /* seconds; 0: no takeover */
  const char *takeover_bot;
  int64_t created;     /* unix seconds */
  bool spectator_chat; /* the spectators have a chat of their own */
  int64_t rematch;     /* the table its rematch made (0: none yet) */
  int clock_s;         /* seconds on each player's clock; 0: no clock */
  bool clock_loss;     /* a player out of time loses (else the takeover bot plays the seat) */
  int lost_on_time;    /* the seat that lost on time, -1 */
} pf_store_table;

/* One seat as stored. kind: "open", "human" or "bot". */
typedef struct pf_store_seat {
  int seat;
  const char *kind;
  const char *bot;   /* the bot spec of a bot seat, NULL otherwise */
  const char *token; /* a human seat's token (32 hex digits), NULL otherwise */
  bool taken_over;   /* a human seat a bot plays for now (takeover) */
  const char *name;  /* a human seat's display name (checked by the hall), NULL when none */
} pf_store_seat;

/* Opens or creates the database at path (":memory:" for tests and the fuzz target). */
int pf_store_open(pf_store **out, const char *path, bool full_sync, pf_error *err);
void pf_store_close(pf_store *s);

/* From now on the new tables' ids are shard's (shard.h; count 0: SQLite's 1, 2, 3 ...). Refused
 * when the database holds a table of another shard (or of an unsharded server). */
int pf_store_shard(pf_store *s, const pf_shard *shard, pf_error *err);

int pf_store_begin(pf_store *s, pf_error *err);
/* Refused (and nothing written) when the database's file was deleted or moved meanwhile. */
int pf_store_commit(pf_store *s, pf_error *err);
void pf_store_rollback(pf_store *s);
bool pf_store_in_transaction(pf_store *s);
/* One change inside a transaction (a savepoint): kept, or undone alone (keep false) so that the
 * other changes of the same transaction stand. */
int pf_store_change(pf_store *s, pf_error *err);
int pf_store_change_end(pf_store *s, bool keep, pf_error *err);
/* Removes a table with its seats, moves and sealed choices (an expired waiting table). */
int pf_store_drop_table(pf_store *s, int64_t table, pf_error *err);

/* A seat's time left on its clock, in ms. */
int pf_store_set_clock(pf_store *s, int64_t table, int seat, int64_t ms, pf_error *err);
/* Notes the seat that lost on time (the table's status is set apart). */
int pf_store_set_lost(pf_store *s, int64_t table, int seat, pf_error *err);
/* Notes the table a finished table's rematch made. */
int pf_store_set_rematch(pf_store *s, int64_t table, int64_t rematch, pf_error *err);
/* Adds a table with its seats; sets t->id. */
int pf_store_add_table(pf_store *s, pf_store_table *t, const pf_store_seat *seats, pf_error *err);
int pf_store_set_seat(pf_store *s, int64_t table, const pf_store_seat *seat, pf_error *err);
/* A table's status; a finished one ("over") keeps its summary (the protocol's SUMMARY, JSON
 * text) so that lists need not replay it. */
int pf_store_set_status(pf_store *s, int64_t table, const char *status, const char *summary, pf_error *err);
/* Move `ply` (counting from 0) of a table, its canonical string. */
int pf_store_add_move(pf_store *s, int64_t table, int ply, const char *move, pf_error *err);
/* A sealed choice of a seat, made while the table was at `ply`; and forgetting it once played. */
int pf_store_add_sealed(pf_store *s, int64_t table, int seat, int ply, const char *move, pf_error *err);
int pf_store_drop_sealed(pf_store *s, int64_t table, int seat, pf_error *err);

/* Its series for /metrics (metrics.h): moves and commits, commit latency, the database's size. */
void pf_store_metrics(pf_store *s, pf_buf *out);

/* `pilfer backup`: copies the database at `from` to the file `to` while a server may be writing
 * to it (SQLite's online backup, every page in one read transaction: one consistent snapshot; the
 * server's writes go on). The copy is written beside `to` (`to`.part-PID), switched to a rollback
 * journal so that it is one file, checked (quick_check), synced and renamed over `to`: `to` is
 * either the old file or the whole new copy. 0, with what the copy holds in info; -1 when the copy
 * could not be made; PF_BACKUP_BAD_INPUT when `from` is missing or no pilfer database, or `to` is
 * `from` itself. */
#define PF_BACKUP_BAD_INPUT (-2)
typedef struct pf_store_backup_info {
  int pages;
  int64_t bytes;
  int64_t tables[3]; /* waiting, playing, over */
  int64_t moves;
} pf_store_backup_info;
int pf_store_backup(const char *from, const char *to, pf_store_backup_info *info, pf_error *err);

/* One chat message of a table (docs/protocol.md, "chat"). channel: "players" or "spectators";
 * seat: the writer's seat, -1 for a spectator; name may be NULL. */
typedef struct pf_store_chat {
  const char *channel;
  int seat;
  const char *name;
  const char *text;
  int64_t at; /* unix seconds */
} pf_store_chat;

#define PF_STORE_CHAT_KEEP 200 /* the messages a table keeps: older ones are dropped */

/* Adds a message to a table's chat, dropping the oldest past PF_STORE_CHAT_KEEP. */
int pf_store_add_chat(pf_store *s, int64_t table, const pf_store_chat *m, pf_error *err);
/* The last `max` messages of a table's chat (of the channel, or of both when channel is NULL),
 * oldest first: fn gets each (valid during the call). Returns how many, or -1. */
int pf_store_chat_log(pf_store *s, int64_t table, const char *channel, int max,
                      void (*fn)(void *ctx, const pf_store_chat *m), void *ctx, pf_error *err);

/* What the loader hands over for one table; every string is valid during the call only. */
typedef struct pf_store_loaded {
  pf_store_table table;
  pf_store_seat seats[12];
  int nseats;
  int64_t clock_ms[12]; /* each seat's time left, by seat (-1: its full time) */
  const char **moves; /* in ply order */
  int nmoves;
  struct {
    int seat, ply;
    const char *move;
  } sealed[12];
  int nsealed;
} pf_store_loaded;

/* Calls fn for every table whose status is not "over", in id order; stops at fn's non-zero. */
int pf_store_load_unfinished(pf_store *s, int (*fn)(void *ctx, const pf_store_loaded *t), void *ctx,
                             pf_error *err);
/* Loads one table by id; returns 1 if found (fn called), 0 if not, -1 on error. */
int pf_store_load(pf_store *s, int64_t id, int (*fn)(void *ctx, const pf_store_loaded *t), void *ctx,
                  pf_error *err);
/* The summaries of the newest finished tables, newest first, at most max: fn gets each (valid
 * during the call). Returns how many, or -1. */
int pf_store_finished(pf_store *s, int max, void (*fn)(void *ctx, const char *summary), void *ctx, pf_error *err);

#endif
