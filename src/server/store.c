/*
 * store.c - the server's database in SQLite (store.h says what is kept and why).
 */
#include "server/store.h"
#include "server/metrics.h"
#include "server/shard.h"
#include "core/clock.h"
#include "core/mem.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The statements used on every move are prepared once. */
/* The statements prepared once, when the store opens: those of every move and pass, and those of
 * every new table and seat (a table and two joins a short game under load, where preparing them
 * each time was some 4% of the hall's time). */
enum {
  ST_BEGIN, ST_COMMIT, ST_ROLLBACK, ST_SAVE, ST_RELEASE, ST_UNDO, ST_MOVE, ST_SEALED, ST_UNSEAL, ST_STATUS, ST_SEAT,
  ST_TABLE, ST_CHAT_LOG, ST_N
};

static const char *const SQL[ST_N] = {
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_COMMIT] = "COMMIT",
    [ST_ROLLBACK] = "ROLLBACK",
    [ST_SAVE] = "SAVEPOINT change",
    [ST_RELEASE] = "RELEASE change",
    [ST_UNDO] = "ROLLBACK TO change",
    [ST_MOVE] = "INSERT INTO moves(table_id, ply, move) VALUES (?1, ?2, ?3)",
    [ST_SEALED] = "INSERT OR REPLACE INTO sealed(table_id, seat, ply, move) VALUES (?1, ?2, ?3, ?4)",
    [ST_UNSEAL] = "DELETE FROM sealed WHERE table_id = ?1 AND seat = ?2",
    [ST_STATUS] = "UPDATE tables SET status = ?2, summary = ?3 WHERE id = ?1",
    [ST_SEAT] = "INSERT OR REPLACE INTO seats(table_id, seat, kind, bot, token, taken_over, name) "
                "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    [ST_TABLE] = "INSERT INTO tables(game, players, options, seed, status, takeover_after, takeover_bot, created, "
                 "spectator_chat, clock_s, clock_loss, id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    [ST_CHAT_LOG] = "SELECT channel, seat, name, text, at FROM (SELECT * FROM chat WHERE table_id = ?1 AND "
                    "(?2 IS NULL OR channel = ?2) ORDER BY id DESC LIMIT ?3) ORDER BY id",
};

static const char SCHEMA[] =
    "CREATE TABLE IF NOT EXISTS tables("
    "  id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL, players INTEGER NOT NULL,"
    "  options TEXT NOT NULL, seed INTEGER NOT NULL, status TEXT NOT NULL,"
    "  takeover_after INTEGER NOT NULL DEFAULT 0, takeover_bot TEXT, created INTEGER NOT NULL, summary TEXT);"
    "CREATE TABLE IF NOT EXISTS seats("
    "  table_id INTEGER NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL, kind TEXT NOT NULL,"
    "  bot TEXT, token TEXT, taken_over INTEGER NOT NULL DEFAULT 0, PRIMARY KEY(table_id, seat))"
    "  WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS moves("
    "  table_id INTEGER NOT NULL REFERENCES tables(id), ply INTEGER NOT NULL, move TEXT NOT NULL,"
    "  PRIMARY KEY(table_id, ply)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS sealed("
    "  table_id INTEGER NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL, ply INTEGER NOT NULL,"
    "  move TEXT NOT NULL, PRIMARY KEY(table_id, seat)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS chat("
    "  id INTEGER PRIMARY KEY AUTOINCREMENT, table_id INTEGER NOT NULL REFERENCES tables(id),"
    "  channel TEXT NOT NULL, seat INTEGER, name TEXT, text TEXT NOT NULL, at INTEGER NOT NULL);"
    "CREATE INDEX IF NOT EXISTS chat_table ON chat(table_id, id);"
    "CREATE INDEX IF NOT EXISTS tables_status ON tables(status, id);";

/* Columns added since the first schema: added to an older database when it opens (an error
 * saying the column is there already is no error). */
static const char *const ADDED_COLUMNS[] = {
    "ALTER TABLE seats ADD COLUMN name TEXT",
    "ALTER TABLE tables ADD COLUMN spectator_chat INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE tables ADD COLUMN rematch INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE tables ADD COLUMN clock_s INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE tables ADD COLUMN clock_loss INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE tables ADD COLUMN lost_on_time INTEGER NOT NULL DEFAULT -1",
    "ALTER TABLE seats ADD COLUMN clock_ms INTEGER",
};

struct pf_store {
  sqlite3 *db;
  sqlite3_stmt *st[ST_N];
  int lock_fd; /* the database file, flock()ed: one server per database (-1: none) */
  char *path;
  pf_shard shard;  /* whose ids it makes (pf_store_shard; unsharded: SQLite's own) */
  int64_t last_id; /* sharded: the largest id made or stored so far */
  /* For /metrics: the moves written in the open transaction (and at its savepoint), those
   * committed, the commits and how long each took. */
  uint64_t pending_moves, saved_moves;
  _Atomic uint64_t moves, commits;
  pf_histogram commit_seconds;
};

#define IN_USE "another process (a pilfer serve?) is using this database"

/* One server owns a database (a second would hold other tables in memory): an exclusive flock()
 * on the file, which SQLite's own (fcntl) locks leave alone, so that `pilfer backup` can still
 * read it while the server runs. Closed only after SQLite is (closing it releases nothing of
 * SQLite's: flock and fcntl locks are apart on Linux). */
static int lock_database(pf_store *s, const char *path, pf_error *err) {
  s->lock_fd = -1;
  if (strcmp(path, ":memory:") == 0) return 0;
  s->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (s->lock_fd < 0) return pf_fail(err, "%s: %s", path, strerror(errno));
  if (flock(s->lock_fd, LOCK_EX | LOCK_NB) != 0)
    return pf_fail(err, "%s: %s", path, errno == EWOULDBLOCK ? IN_USE : strerror(errno));
  return 0;
}

static int db_fail(pf_store *s, pf_error *err, const char *what) {
  return pf_fail(err, "database: %s: %s", what, sqlite3_errmsg(s->db));
}

/* Runs a prepared statement to completion and resets it. */
static int step_done(pf_store *s, sqlite3_stmt *q, pf_error *err, const char *what) {
  int rc = sqlite3_step(q);
  sqlite3_reset(q);
  sqlite3_clear_bindings(q);
  return rc == SQLITE_DONE ? 0 : db_fail(s, err, what);
}

int pf_store_open(pf_store **out, const char *path, bool full_sync, pf_error *err) {
  pf_store *s = calloc(1, sizeof *s);
  if (!s) abort();
  *out = NULL;
  s->path = pf_xstrdup(path);
  if (lock_database(s, path, err) != 0) {
    pf_store_close(s);
    return -1;
  }
  if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) !=
      SQLITE_OK) {
    pf_fail(err, "%s: %s", path, s->db ? sqlite3_errmsg(s->db) : "cannot open");
    pf_store_close(s);
    return -1;
  }
  sqlite3_busy_timeout(s->db, 2000);
  char pragmas[160];
  snprintf(pragmas, sizeof pragmas, "PRAGMA journal_mode=WAL; PRAGMA synchronous=%s; PRAGMA foreign_keys=ON;",
           full_sync ? "FULL" : "NORMAL");
  char *msg = NULL;
  if (sqlite3_exec(s->db, pragmas, NULL, NULL, &msg) != SQLITE_OK ||
      sqlite3_exec(s->db, SCHEMA, NULL, NULL, &msg) != SQLITE_OK) {
    bool locked = sqlite3_errcode(s->db) == SQLITE_BUSY || sqlite3_errcode(s->db) == SQLITE_LOCKED;
    pf_fail(err, "%s: %s", path, locked ? IN_USE : msg ? msg : sqlite3_errmsg(s->db));
    sqlite3_free(msg);
    pf_store_close(s);
    return -1;
  }
  for (size_t i = 0; i < sizeof ADDED_COLUMNS / sizeof *ADDED_COLUMNS; i++)
    if (sqlite3_exec(s->db, ADDED_COLUMNS[i], NULL, NULL, NULL) != SQLITE_OK &&
        !strstr(sqlite3_errmsg(s->db), "duplicate column")) {
      db_fail(s, err, ADDED_COLUMNS[i]);
      pf_store_close(s);
      return -1;
    }
  for (int i = 0; i < ST_N; i++)
    if (sqlite3_prepare_v3(s->db, SQL[i], -1, SQLITE_PREPARE_PERSISTENT, &s->st[i], NULL) != SQLITE_OK) {
      db_fail(s, err, SQL[i]);
      pf_store_close(s);
      return -1;
    }
  *out = s;
  return 0;
}

void pf_store_close(pf_store *s) {
  if (!s) return;
  for (int i = 0; i < ST_N; i++) sqlite3_finalize(s->st[i]);
  sqlite3_close(s->db);
  if (s->lock_fd >= 0) close(s->lock_fd);
  free(s->path);
  free(s);
}

int pf_store_begin(pf_store *s, pf_error *err) { return step_done(s, s->st[ST_BEGIN], err, "begin"); }
/* A database deleted or renamed under the server would take every later write with it at the
 * next restart: a commit that could not come back is refused instead. */
int pf_store_commit(pf_store *s, pf_error *err) {
  int moved = 0;
  if (sqlite3_file_control(s->db, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK && moved)
    return pf_fail(err, "database: its file was deleted or moved while the server ran: nothing more is written");
  double t0 = pf_clock_seconds();
  if (step_done(s, s->st[ST_COMMIT], err, "commit") != 0) return -1;
  pf_histogram_observe(&s->commit_seconds, pf_clock_seconds() - t0, 1);
  atomic_fetch_add_explicit(&s->commits, 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&s->moves, s->pending_moves, memory_order_relaxed);
  s->pending_moves = s->saved_moves = 0;
  return 0;
}
int pf_store_change(pf_store *s, pf_error *err) {
  s->saved_moves = s->pending_moves;
  return step_done(s, s->st[ST_SAVE], err, "savepoint");
}
int pf_store_change_end(pf_store *s, bool keep, pf_error *err) {
  if (!keep && step_done(s, s->st[ST_UNDO], err, "rollback to savepoint") != 0) return -1;
  if (!keep) s->pending_moves = s->saved_moves;
  return step_done(s, s->st[ST_RELEASE], err, "release savepoint");
}

void pf_store_metrics(pf_store *s, pf_buf *out) {
  pf_metric(out, "pilfer_moves_total", "counter", "moves committed to the database (rate(): moves a second)",
            (double)atomic_load_explicit(&s->moves, memory_order_relaxed));
  pf_metric(out, "pilfer_commits_total", "counter", "database transactions committed (one a pass of the event loop)",
            (double)atomic_load_explicit(&s->commits, memory_order_relaxed));
  pf_histogram_write(out, "pilfer_commit_seconds", "how long each commit took", &s->commit_seconds);
  struct stat st;
  char wal[4200];
  double bytes = stat(s->path, &st) == 0 ? (double)st.st_size : 0;
  snprintf(wal, sizeof wal, "%s-wal", s->path);
  if (stat(wal, &st) == 0) bytes += (double)st.st_size;
  pf_metric(out, "pilfer_database_bytes", "gauge", "the database's file and its write-ahead log", bytes);
}
bool pf_store_in_transaction(pf_store *s) { return !sqlite3_get_autocommit(s->db); }

int pf_store_drop_table(pf_store *s, int64_t table, pf_error *err) {
  static const char *const SQL_DROP[] = {"DELETE FROM chat WHERE table_id = ?1", "DELETE FROM sealed WHERE table_id = ?1", "DELETE FROM moves WHERE table_id = ?1",
                                         "DELETE FROM seats WHERE table_id = ?1", "DELETE FROM tables WHERE id = ?1"};
  for (size_t i = 0; i < sizeof SQL_DROP / sizeof *SQL_DROP; i++) {
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, SQL_DROP[i], -1, &q, NULL) != SQLITE_OK) return db_fail(s, err, SQL_DROP[i]);
    sqlite3_bind_int64(q, 1, table);
    int rc = sqlite3_step(q);
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE) return db_fail(s, err, SQL_DROP[i]);
  }
  return 0;
}
void pf_store_rollback(pf_store *s) {
  s->pending_moves = s->saved_moves = 0;
  if (!sqlite3_get_autocommit(s->db)) step_done(s, s->st[ST_ROLLBACK], NULL, "rollback");
}

static void bind_text(sqlite3_stmt *q, int i, const char *text) {
  if (text)
    sqlite3_bind_text(q, i, text, -1, SQLITE_TRANSIENT);
  else
    sqlite3_bind_null(q, i);
}

int pf_store_set_seat(pf_store *s, int64_t table, const pf_store_seat *seat, pf_error *err) {
  sqlite3_stmt *q = s->st[ST_SEAT];
  sqlite3_bind_int64(q, 1, table);
  sqlite3_bind_int(q, 2, seat->seat);
  bind_text(q, 3, seat->kind);
  bind_text(q, 4, seat->bot);
  bind_text(q, 5, seat->token);
  sqlite3_bind_int(q, 6, seat->taken_over);
  bind_text(q, 7, seat->name);
  return step_done(s, q, err, "seat");
}

int pf_store_add_table(pf_store *s, pf_store_table *t, const pf_store_seat *seats, pf_error *err) {
  sqlite3_stmt *q = s->st[ST_TABLE];
  bind_text(q, 1, t->game);
  sqlite3_bind_int(q, 2, t->players);
  bind_text(q, 3, t->options);
  sqlite3_bind_int64(q, 4, (int64_t)t->seed);
  bind_text(q, 5, t->status);
  sqlite3_bind_int(q, 6, t->takeover_after);
  bind_text(q, 7, t->takeover_bot);
  sqlite3_bind_int64(q, 8, t->created);
  sqlite3_bind_int(q, 9, t->spectator_chat);
  sqlite3_bind_int(q, 10, t->clock_s);
  sqlite3_bind_int(q, 11, t->clock_loss);
  /* A shard names its tables itself (shard.h); the id is never made again, even if this
   * transaction is rolled back (a gap, never a reused number). */
  if (s->shard.count) sqlite3_bind_int64(q, 12, s->last_id = pf_shard_next(&s->shard, s->last_id));
  if (step_done(s, q, err, "add table") != 0) return -1;
  t->id = sqlite3_last_insert_rowid(s->db);
  for (int i = 0; i < t->players; i++)
    if (pf_store_set_seat(s, t->id, &seats[i], err) != 0) return -1;
  return 0;
}

int pf_store_shard(pf_store *s, const pf_shard *shard, pf_error *err) {
  s->shard = *shard;
  if (!shard->count) return 0;
  /* The largest id ever given (AUTOINCREMENT's sequence keeps it after its table is dropped). */
  sqlite3_stmt *q;
  if (sqlite3_prepare_v2(s->db,
                         "SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'tables'), 0), "
                         "COALESCE((SELECT MAX(id) FROM tables), 0)), (SELECT MIN(id) FROM tables WHERE id < ?2 OR id % ?2 != ?1)",
                         -1, &q, NULL) != SQLITE_OK)
    return db_fail(s, err, "shard");
  sqlite3_bind_int(q, 1, shard->index);
  sqlite3_bind_int(q, 2, PF_SHARD_BASE);
  int rc = sqlite3_step(q);
  s->last_id = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
  bool foreign = rc == SQLITE_ROW && sqlite3_column_type(q, 1) != SQLITE_NULL;
  int64_t other = foreign ? sqlite3_column_int64(q, 1) : 0;
  sqlite3_finalize(q);
  if (rc != SQLITE_ROW) return db_fail(s, err, "shard");
  if (foreign)
    return pf_fail(err, "%s holds table %" PRId64 ", which is not shard %d's (its ids end in %02d): a database is one "
                   "shard's, started with the same --shard I every time (or without --shard if it was made so)",
                   s->path, other, shard->index, shard->index);
  return 0;
}

int pf_store_set_status(pf_store *s, int64_t table, const char *status, const char *summary, pf_error *err) {
  sqlite3_stmt *q = s->st[ST_STATUS];
  sqlite3_bind_int64(q, 1, table);
  bind_text(q, 2, status);
  bind_text(q, 3, summary);
  return step_done(s, q, err, "status");
}

int pf_store_add_move(pf_store *s, int64_t table, int ply, const char *move, pf_error *err) {
  sqlite3_stmt *q = s->st[ST_MOVE];
  sqlite3_bind_int64(q, 1, table);
  sqlite3_bind_int(q, 2, ply);
  bind_text(q, 3, move);
  if (step_done(s, q, err, "move") != 0) return -1;
  s->pending_moves++;
  return 0;
}

int pf_store_add_sealed(pf_store *s, int64_t table, int seat, int ply, const char *move, pf_error *err) {
  sqlite3_stmt *q = s->st[ST_SEALED];
  sqlite3_bind_int64(q, 1, table);
  sqlite3_bind_int(q, 2, seat);
  sqlite3_bind_int(q, 3, ply);
  bind_text(q, 4, move);
  return step_done(s, q, err, "sealed choice");
}

int pf_store_drop_sealed(pf_store *s, int64_t table, int seat, pf_error *err) {
  sqlite3_stmt *q = s->st[ST_UNSEAL];
  sqlite3_bind_int64(q, 1, table);
  sqlite3_bind_int(q, 2, seat);
  return step_done(s, q, err, "sealed choice");
}

/* ---- loading ---- */

static const char *col_text(sqlite3_stmt *q, int i) { return (const char *)sqlite3_column_text(q, i); }

/* Reads the seats, moves and sealed choices of the table in l->table and calls fn. */
static int load_rest(pf_store *s, pf_store_loaded *l, int (*fn)(void *, const pf_store_loaded *), void *ctx,
                     pf_error *err) {
  sqlite3_stmt *qs = NULL, *qm = NULL, *qx = NULL;
  int rc = -1;
  char **moves = NULL;
  if (sqlite3_prepare_v2(s->db, "SELECT seat, kind, bot, token, taken_over, name, clock_ms FROM seats WHERE table_id = ?1 ORDER BY seat",
                         -1, &qs, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2(s->db, "SELECT ply, move FROM moves WHERE table_id = ?1 ORDER BY ply", -1, &qm, NULL) !=
          SQLITE_OK ||
      sqlite3_prepare_v2(s->db, "SELECT seat, ply, move FROM sealed WHERE table_id = ?1 ORDER BY seat", -1, &qx,
                         NULL) != SQLITE_OK) {
    db_fail(s, err, "load");
    goto out;
  }
  sqlite3_bind_int64(qs, 1, l->table.id);
  sqlite3_bind_int64(qm, 1, l->table.id);
  sqlite3_bind_int64(qx, 1, l->table.id);
  /* Seats and sealed choices stay in their statements' rows: each is read to its end into copies. */
  char *strs[12 * 4 + 12] = {0};
  int nstr = 0;
  l->nseats = 0;
  for (int i = 0; i < 12; i++) l->clock_ms[i] = -1;
  while (sqlite3_step(qs) == SQLITE_ROW && l->nseats < 12) {
    pf_store_seat *st = &l->seats[l->nseats++];
    st->seat = sqlite3_column_int(qs, 0);
    st->kind = strs[nstr++] = pf_xstrdup(col_text(qs, 1) ? col_text(qs, 1) : "open");
    st->bot = col_text(qs, 2) ? (strs[nstr++] = pf_xstrdup(col_text(qs, 2))) : NULL;
    st->token = col_text(qs, 3) ? (strs[nstr++] = pf_xstrdup(col_text(qs, 3))) : NULL;
    st->taken_over = sqlite3_column_int(qs, 4) != 0;
    st->name = col_text(qs, 5) ? (strs[nstr++] = pf_xstrdup(col_text(qs, 5))) : NULL;
    if (st->seat >= 0 && st->seat < 12)
      l->clock_ms[st->seat] = sqlite3_column_type(qs, 6) == SQLITE_NULL ? -1 : sqlite3_column_int64(qs, 6);
  }
  l->nsealed = 0;
  while (sqlite3_step(qx) == SQLITE_ROW && l->nsealed < 12) {
    l->sealed[l->nsealed].seat = sqlite3_column_int(qx, 0);
    l->sealed[l->nsealed].ply = sqlite3_column_int(qx, 1);
    l->sealed[l->nsealed++].move = strs[nstr++] = pf_xstrdup(col_text(qx, 2) ? col_text(qx, 2) : "");
  }
  int cap = 0;
  l->nmoves = 0;
  while (sqlite3_step(qm) == SQLITE_ROW) {
    if (sqlite3_column_int(qm, 0) != l->nmoves) {
      pf_fail(err, "table %lld: move %d is missing from the database", (long long)l->table.id, l->nmoves);
      for (int i = 0; i < l->nmoves; i++) free(moves[i]);
      for (int i = 0; i < nstr; i++) free(strs[i]);
      goto out;
    }
    if (l->nmoves == cap) moves = pf_xrealloc(moves, (size_t)(cap = cap ? 2 * cap : 64) * sizeof *moves);
    moves[l->nmoves++] = pf_xstrdup(col_text(qm, 1) ? col_text(qm, 1) : "");
  }
  l->moves = (const char **)moves;
  rc = fn(ctx, l);
  for (int i = 0; i < l->nmoves; i++) free(moves[i]);
  for (int i = 0; i < nstr; i++) free(strs[i]);
out:
  free(moves);
  sqlite3_finalize(qs);
  sqlite3_finalize(qm);
  sqlite3_finalize(qx);
  return rc;
}

static const char TABLE_COLS[] =
    "SELECT id, game, players, options, seed, status, takeover_after, takeover_bot, created, spectator_chat, rematch, "
    "clock_s, clock_loss, lost_on_time FROM tables ";

static void read_table(sqlite3_stmt *q, pf_store_table *t) {
  t->id = sqlite3_column_int64(q, 0);
  t->game = col_text(q, 1) ? col_text(q, 1) : "";
  t->players = sqlite3_column_int(q, 2);
  t->options = col_text(q, 3) ? col_text(q, 3) : "{}";
  t->seed = (uint64_t)sqlite3_column_int64(q, 4);
  t->status = col_text(q, 5) ? col_text(q, 5) : "";
  t->takeover_after = sqlite3_column_int(q, 6);
  t->takeover_bot = col_text(q, 7);
  t->created = sqlite3_column_int64(q, 8);
  t->spectator_chat = sqlite3_column_int(q, 9) != 0;
  t->rematch = sqlite3_column_int64(q, 10);
  t->clock_s = sqlite3_column_int(q, 11);
  t->clock_loss = sqlite3_column_int(q, 12) != 0;
  t->lost_on_time = sqlite3_column_int(q, 13);
}

/* One UPDATE of a table's row or of a seat's (seat < 0: the table's), setting an integer. */
static int set_int(pf_store *s, const char *sql, int64_t table, int seat, int64_t v, pf_error *err) {
  sqlite3_stmt *q;
  if (sqlite3_prepare_v2(s->db, sql, -1, &q, NULL) != SQLITE_OK) return db_fail(s, err, sql);
  sqlite3_bind_int64(q, 1, table);
  sqlite3_bind_int64(q, 2, v);
  if (seat >= 0) sqlite3_bind_int(q, 3, seat);
  int rc = sqlite3_step(q);
  sqlite3_finalize(q);
  return rc == SQLITE_DONE ? 0 : db_fail(s, err, sql);
}

int pf_store_set_clock(pf_store *s, int64_t table, int seat, int64_t ms, pf_error *err) {
  return set_int(s, "UPDATE seats SET clock_ms = ?2 WHERE table_id = ?1 AND seat = ?3", table, seat, ms, err);
}

int pf_store_set_lost(pf_store *s, int64_t table, int seat, pf_error *err) {
  return set_int(s, "UPDATE tables SET lost_on_time = ?2 WHERE id = ?1", table, -1, seat, err);
}

int pf_store_set_rematch(pf_store *s, int64_t table, int64_t rematch, pf_error *err) {
  return set_int(s, "UPDATE tables SET rematch = ?2 WHERE id = ?1", table, -1, rematch, err);
}

/* Loads every row of a table query (bound by bind) and hands each to fn; returns fn's first
 * non-zero, -1 on a database error, or the number of rows. */
static int load_query(pf_store *s, const char *where, int64_t arg, int (*fn)(void *, const pf_store_loaded *),
                      void *ctx, pf_error *err) {
  char sql[512];
  snprintf(sql, sizeof sql, "%s%s", TABLE_COLS, where);
  sqlite3_stmt *q;
  if (sqlite3_prepare_v2(s->db, sql, -1, &q, NULL) != SQLITE_OK) return db_fail(s, err, "load");
  if (sqlite3_bind_parameter_count(q) > 0) sqlite3_bind_int64(q, 1, arg);
  int rows = 0, rc;
  while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
    pf_store_loaded l;
    memset(&l, 0, sizeof l);
    read_table(q, &l.table);
    int r = load_rest(s, &l, fn, ctx, err);
    if (r != 0) {
      sqlite3_finalize(q);
      return r;
    }
    rows++;
  }
  sqlite3_finalize(q);
  return rc == SQLITE_DONE ? rows : db_fail(s, err, "load");
}

int pf_store_load_unfinished(pf_store *s, int (*fn)(void *ctx, const pf_store_loaded *t), void *ctx,
                             pf_error *err) {
  int r = load_query(s, "WHERE status <> 'over' ORDER BY id", 0, fn, ctx, err);
  return r < 0 ? r : 0;
}

int pf_store_load(pf_store *s, int64_t id, int (*fn)(void *ctx, const pf_store_loaded *t), void *ctx,
                  pf_error *err) {
  int r = load_query(s, "WHERE id = ?1", id, fn, ctx, err);
  return r < 0 ? -1 : r > 0;
}

int pf_store_finished(pf_store *s, int max, void (*fn)(void *ctx, const char *summary), void *ctx, pf_error *err) {
  sqlite3_stmt *q;
  if (sqlite3_prepare_v2(s->db,
                         "SELECT summary FROM tables WHERE status = 'over' AND summary IS NOT NULL "
                         "ORDER BY id DESC LIMIT ?1",
                         -1, &q, NULL) != SQLITE_OK)
    return db_fail(s, err, "finished tables");
  sqlite3_bind_int(q, 1, max);
  int n = 0;
  while (n < max && sqlite3_step(q) == SQLITE_ROW) {
    fn(ctx, col_text(q, 0));
    n++;
  }
  sqlite3_finalize(q);
  return n;
}

/* ------------------------------------------------------------------------------------------ */
/* Online backup                                                                              */
/* ------------------------------------------------------------------------------------------ */

/* Writes a file's data and then its folder's entry to the disk. */
static int sync_path(const char *path, bool folder) {
  int fd = open(path, (folder ? O_RDONLY | O_DIRECTORY : O_RDWR) | O_CLOEXEC);
  if (fd < 0) return -1;
  int rc = fsync(fd);
  close(fd);
  return rc;
}

/* The copy's contents, counted from the copy itself. */
static int backup_count(sqlite3 *db, pf_store_backup_info *info, pf_error *err, const char *to) {
  static const char SQL_COUNT[] = "SELECT (SELECT count(*) FROM tables WHERE status = 'waiting'),"
                                  " (SELECT count(*) FROM tables WHERE status = 'playing'),"
                                  " (SELECT count(*) FROM tables WHERE status = 'over'), (SELECT count(*) FROM moves)";
  sqlite3_stmt *q;
  if (sqlite3_prepare_v2(db, SQL_COUNT, -1, &q, NULL) != SQLITE_OK || sqlite3_step(q) != SQLITE_ROW) {
    pf_fail(err, "%s: the copy cannot be read: %s", to, sqlite3_errmsg(db));
    sqlite3_finalize(q);
    return -1;
  }
  for (int i = 0; i < 3; i++) info->tables[i] = sqlite3_column_int64(q, i);
  info->moves = sqlite3_column_int64(q, 3);
  sqlite3_finalize(q);
  return 0;
}

/* Runs one statement that returns one text row, and whether it is `want`. */
static bool pragma_says(sqlite3 *db, const char *sql, const char *want) {
  sqlite3_stmt *q;
  bool ok = sqlite3_prepare_v2(db, sql, -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW &&
            sqlite3_column_text(q, 0) && strcmp((const char *)sqlite3_column_text(q, 0), want) == 0;
  sqlite3_finalize(q);
  return ok;
}

int pf_store_backup(const char *from, const char *to, pf_store_backup_info *info, pf_error *err) {
  memset(info, 0, sizeof *info);
  struct stat sf, st;
  if (stat(from, &sf) != 0) return pf_fail(err, "%s: %s", from, strerror(errno)), PF_BACKUP_BAD_INPUT;
  if (stat(to, &st) == 0 && st.st_dev == sf.st_dev && st.st_ino == sf.st_ino)
    return pf_fail(err, "%s: is the database itself", to), PF_BACKUP_BAD_INPUT;
  sqlite3 *src = NULL, *dst = NULL;
  char part[4096];
  if (snprintf(part, sizeof part, "%s.part-%ld", to, (long)getpid()) >= (int)sizeof part)
    return pf_fail(err, "%s: the name is too long", to), PF_BACKUP_BAD_INPUT;
  int rc = -1;
  /* The source, as any reader of a WAL database: the server writes on meanwhile. */
  if (sqlite3_open_v2(from, &src, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
    pf_fail(err, "%s: %s", from, src ? sqlite3_errmsg(src) : "cannot open");
    rc = PF_BACKUP_BAD_INPUT;
    goto done;
  }
  sqlite3_busy_timeout(src, 5000);
  if (!pragma_says(src, "SELECT group_concat(name) FROM (SELECT name FROM sqlite_schema WHERE type = 'table' AND "
                        "name IN ('tables', 'seats', 'moves', 'sealed') ORDER BY name)",
                   "moves,sealed,seats,tables")) {
    pf_fail(err, "%s: not a pilfer serve database (%s)", from, sqlite3_errmsg(src));
    rc = PF_BACKUP_BAD_INPUT;
    goto done;
  }
  /* The copy holds every seat's token: readable by its owner only (SQLite keeps the mode of a
   * file it finds). */
  unlink(part);
  int fd = open(part, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    pf_fail(err, "%s: %s", part, strerror(errno));
    goto done;
  }
  close(fd);
  if (sqlite3_open_v2(part, &dst, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
    pf_fail(err, "%s: %s", part, dst ? sqlite3_errmsg(dst) : "cannot create");
    goto done;
  }
  /* Every page in one step: one read transaction, so one consistent snapshot, which the server's
   * writes (to the WAL) do not disturb. Busy only while a checkpoint or recovery runs: retried. */
  sqlite3_backup *b = sqlite3_backup_init(dst, "main", src, "main");
  if (!b) {
    pf_fail(err, "%s: %s", part, sqlite3_errmsg(dst));
    goto done;
  }
  int step;
  for (int tries = 0; (step = sqlite3_backup_step(b, -1)) == SQLITE_BUSY || step == SQLITE_LOCKED; tries++) {
    if (tries == 500) break;
    sqlite3_sleep(20);
  }
  info->pages = sqlite3_backup_pagecount(b);
  sqlite3_backup_finish(b);
  if (step != SQLITE_DONE) {
    pf_fail(err, "%s: the copy failed: %s", from, sqlite3_errstr(step));
    goto done;
  }
  /* One self-contained file (no -wal beside it), checked, then counted. */
  if (!pragma_says(dst, "PRAGMA journal_mode=DELETE", "delete") || !pragma_says(dst, "PRAGMA quick_check", "ok")) {
    pf_fail(err, "%s: the copy does not check out: %s", part, sqlite3_errmsg(dst));
    goto done;
  }
  if (backup_count(dst, info, err, part) != 0) goto done;
  rc = 0;
done:
  sqlite3_close(src);
  if (dst && sqlite3_close(dst) != SQLITE_OK && rc == 0) rc = pf_fail(err, "%s: cannot close", part);
  if (rc == 0) {
    struct stat sp;
    if (stat(part, &sp) == 0) info->bytes = (int64_t)sp.st_size;
    char folder[4096];
    snprintf(folder, sizeof folder, "%s", to);
    char *slash = strrchr(folder, '/');
    if (slash == folder) slash[1] = 0;
    else if (slash) *slash = 0;
    else snprintf(folder, sizeof folder, ".");
    if (sync_path(part, false) != 0 || rename(part, to) != 0 || sync_path(folder, true) != 0)
      rc = pf_fail(err, "%s: %s", to, strerror(errno));
  }
  if (rc != 0) unlink(part);
  return rc;
}

/* ---- chat ---- */

int pf_store_add_chat(pf_store *s, int64_t table, const pf_store_chat *m, pf_error *err) {
  static const char *const SQL_CHAT[] = {
      "INSERT INTO chat(table_id, channel, seat, name, text, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
      "DELETE FROM chat WHERE table_id = ?1 AND id <= (SELECT id FROM chat WHERE table_id = ?1 ORDER BY id DESC "
      "LIMIT 1 OFFSET ?2)"};
  for (int i = 0; i < 2; i++) {
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, SQL_CHAT[i], -1, &q, NULL) != SQLITE_OK) return db_fail(s, err, "chat");
    sqlite3_bind_int64(q, 1, table);
    if (i == 0) {
      bind_text(q, 2, m->channel);
      if (m->seat >= 0) sqlite3_bind_int(q, 3, m->seat);
      else sqlite3_bind_null(q, 3);
      bind_text(q, 4, m->name);
      bind_text(q, 5, m->text);
      sqlite3_bind_int64(q, 6, m->at);
    } else {
      sqlite3_bind_int(q, 2, PF_STORE_CHAT_KEEP);
    }
    int rc = sqlite3_step(q);
    sqlite3_finalize(q);
    if (rc != SQLITE_DONE) return db_fail(s, err, "chat");
  }
  return 0;
}

int pf_store_chat_log(pf_store *s, int64_t table, const char *channel, int max,
                      void (*fn)(void *ctx, const pf_store_chat *m), void *ctx, pf_error *err) {
  sqlite3_stmt *q = s->st[ST_CHAT_LOG];
  sqlite3_bind_int64(q, 1, table);
  bind_text(q, 2, channel);
  sqlite3_bind_int(q, 3, max);
  int n = 0, rc;
  while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
    pf_store_chat m = {col_text(q, 0) ? col_text(q, 0) : "players",
                       sqlite3_column_type(q, 1) == SQLITE_NULL ? -1 : sqlite3_column_int(q, 1), col_text(q, 2),
                       col_text(q, 3) ? col_text(q, 3) : "", sqlite3_column_int64(q, 4)};
    fn(ctx, &m);
    n++;
  }
  int done = rc == SQLITE_DONE ? n : db_fail(s, err, "chat"); /* the message before the reset clears it */
  sqlite3_reset(q);
  sqlite3_clear_bindings(q);
  return done;
}
