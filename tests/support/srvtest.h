/*
 * srvtest.h - the harness of the server's tests (test_server_*.c): `pilfer serve` as clients see
 * it, over real WebSockets and HTTP (docs/protocol.md).
 *
 * Each test_server_*.c program is one group of tests; srvtest_main starts `PILFER serve --listen
 * 127.0.0.1:0 --db FILE` in a temporary folder of its own (the port is read from the line the
 * server prints), runs the group's tests against it (or those named on the command line) and
 * stops it with SIGTERM, which it must survive cleanly. So ctest runs the groups side by side,
 * and a failure names its file.
 *
 * The tables (table_new, play) are games played here: seats played here with random legal moves,
 * bots on the others, perhaps a spectator; every message is kept. check_game (srvcheck.c) then
 * holds them against the engine itself (linked here), replaying the server's record. A mismatch
 * that does not stop a game is noted by kind (note_problem) and the test fails at its end
 * (expect_no_problems), listing each kind once with its first instance.
 *
 * PILFER_TEST_SEED sets the seats' choices (a fixed seed by default; the server draws its own
 * seeds); PILFER_TEST_TRACE prints every message. A program exits 77 (ctest: skipped) when
 * PILFER has no `serve` command.
 */
#ifndef PF_SRVTEST_H
#define PF_SRVTEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka needs the four headers above first */
#include <cmocka.h>

#include <jansson.h>
#include <stdbool.h>

#include "core/game.h"
#include "srvproc.h"
#include "wsclient.h"

#define HOST "127.0.0.1"
#define WAIT_MS 20000 /* a hang guard: the longest any single answer may take (ASan builds are slow) */
#define MAX_TABLES_WATCHED 32 /* docs/protocol.md: tables one connection sits at or watches */

extern const char *pilfer;  /* the binary under test */
extern char tmpdir[256];    /* this program's folder: the servers' databases and logs */
extern srv server;          /* the server the group's tests share */
extern ws_conn *lobby;      /* its connection for create, list and the like */
extern int next_id;         /* the id of the next request */
extern bool has_limits;     /* PILFER has `serve --limit` */

/* A number in [0, n) from the seats' random stream (PILFER_TEST_SEED). */
uint32_t rnd(uint32_t n);

/* ---- JSON ---- */

/* A value as text for a message (cut at 1500 bytes), in one of 8 buffers used in turn: valid
 * until 8 more calls. */
const char *dump(const json_t *j);
/* o's string or integer member key (NULL or 0 when absent). */
const char *jstr(const json_t *o, const char *key);
long long jint(const json_t *o, const char *key);
/* Fails the test where got and want differ. */
void expect_same_json(const json_t *got, const json_t *want, const char *what);
/* Whether a "seed" key is anywhere in the value. */
bool has_seed_key(const json_t *j);
/* Whether the spectator's view spec shows a value where the seat's view hides it (the path in
 * path). */
bool leaks(const json_t *spec, const json_t *seat, char *path, size_t n);
/* Whether the array a holds the integer seat. */
bool in_array(const json_t *a, int seat);

/* ---- contract mismatches ---- */

/* Notes a mismatch of `kind` (its first instance and a count) that does not stop the game. */
void note_problem(const char *kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Fails the test if any mismatch was noted, listing each kind. */
void expect_no_problems(void);
/* The same as expect_same_json, noted as a mismatch of `kind` rather than failing at once. */
void same_json_or_note(const char *kind, const json_t *got, const json_t *want, const char *what);

/* ---- the tables ---- */

typedef struct table table;

/* A connection of the test to a table: a seat it plays (seat >= 0) or a spectator (-1). */
typedef struct player {
  table *t;
  int seat;
  ws_conn *ws;         /* NULL while dropped */
  char token[80];
  json_t *state;       /* the last state received */
  long seq;            /* states received */
  long acted_seq;      /* the state the last move answered */
  int inflight_id;     /* the move sent and not yet answered (0: none) */
  json_t *inflight;
  bool inflight_in_group; /* sent while several seats were choosing */
  int64_t retry_ms;    /* after a flood error: when to send it again */
  bool silent;         /* never moves (for the takeover) */
  int asked_ply;       /* a silent seat: the ply it was first asked at, -1 */
  int64_t asked_ms;
  int64_t taken_ms;    /* when a bot first played for the silent seat (0: not yet) */
  bool saw_over;
} player;

struct table {
  int id;
  char game[40];
  int players;
  json_t *options;
  player *seat[PF_MAX_PLAYERS]; /* the seats played here; NULL for bots */
  player *watch;                /* the spectator, or NULL */
  int stop_ply;                 /* the seats here do not move at or past this ply */
  bool order_sealed;            /* sealed choices in both orders (decide) */
  bool exact_acks;              /* every move of the seats here was acknowledged here */
  json_t *states;               /* [{"seat": s or -1, "state": ...}], all of them */
  json_t *acks;                 /* [{"seat", "ply", "move", "sealed", "sent_ply"}] */
  json_t *messages;             /* everything received before the game was over */
  json_t *over;                 /* the first state with status over */
  int64_t postponed_ms;
};

/* Connections to drain while games are played (the lobby): their pushes are not checked. */
extern ws_conn *others[8];
extern int nothers;

/* A WebSocket to server s with the pilfer subprotocol; fails the test if none. */
ws_conn *connect_or_fail(const srv *s);
/* Sends a request with a new id on c and returns the reply with that id (caller decrefs); other
 * messages meanwhile go to p's handler (when p is not NULL). The reply must be of type `want`. */
json_t *request(ws_conn *c, player *p, json_t *msg, const char *want);
/* Binds a player's new connection to its seat with `resume` (or to the table with `watch`). */
void player_reconnect(player *p, const srv *s);
/* Creates a table on the shared server: seats[i] is a bot spec, or NULL for a seat played here.
 * With a spectator when `watch`. takeover may be NULL. */
table *table_new(const char *game, int players, json_t *options, const char *const *seats,
                 json_t *takeover, bool watch);
void table_free(table *t);
/* Reads what the player's socket has and takes the messages; fails if the connection ended. */
void read_player(player *p);
/* Sends the moves of the seats here that are asked (sealed choices in both orders when
 * t->order_sealed, srvtest.c tells how). */
void decide(table *t);
/* Whether the table is over and every connection here saw it. */
bool table_done(const table *t);
/* Plays the tables until each is over (and every connection here saw it) or paused at its
 * stop_ply, or until `until` says so; fails after timeout_ms (a hang guard). */
void play(table **ts, int n, int timeout_ms, bool (*until)(table **, int));

/* ---- after a game (srvcheck.c) ---- */

/* After the game: the last state, the record over HTTP, `pilfer replay`, every state against the
 * engine, the acks, the seed, and `review`. */
void check_game(const table *t);
/* The highest ply an acknowledged move (not a sealed choice) of table t reached. */
int acked_ply(const table *t);

/* ---- requests ---- */

/* Runs the binary with these arguments; its exit status (stdout in *out when not NULL). */
int run_pilfer(char **out, char **err, const char *a1, const char *a2, const char *a3,
               const char *a4, const char *a5);
/* GET path from s: its body as JSON; fails unless the status is want_status. */
json_t *http_json(const srv *s, const char *path, int want_status);
/* Sends msg (text) on c and waits for the error it must cause: code `code`, and the request's id
 * when it had one. State pushes meanwhile go to p. */
void expect_error(ws_conn *c, player *p, const char *text, const char *code, int id);
/* The same with a JSON request built from a format; the id is added. */
void expect_error_msg(ws_conn *c, player *p, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Sends "{"id": N, BODY}" (BODY from fmt) on c and returns the reply with that id; every other
 * message meanwhile is dropped. */
json_t *ask(ws_conn *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* r is an error with this code (taken). */
void want_code(json_t *r, const char *code, const char *what);
/* r is of this type (not taken). */
void want_type(json_t *r, const char *type, const char *what);
/* Fails unless server s still runs and answers GET /api/games. */
void alive_or_fail(srv *s, const char *after);
/* Reads c for ms, answering pings: false when it was closed meanwhile. */
bool keep_reading(ws_conn *c, int ms);

/* ---- servers of a test's own ---- */

/* Arguments of `pilfer serve` for a server of a test's own: as they are, or without their
 * "--limit NAME=N" pairs when PILFER has no --limit. */
const char *const *serve_args(const char *const *args);
/* Starts a server of the test's own on NAME.db and NAME.log in the temporary folder. */
void own_server(srv *s, const char *name, const char *const *args);
/* Stops it with SIGTERM; fails unless it ends cleanly. */
void stop_own(srv *s);

/* ---- the program ---- */

/* Before each test: the problems noted are forgotten, and the lobby reads what came for it. */
int forget_problems(void **st);
#define SRV_TEST(f) cmocka_unit_test_setup(f, forget_problems)

/* The main of a test_server_NAME program: `test_server_NAME PILFER [TEST...]` runs the tests
 * named (all when none) against a server of its own; 0 when they pass, 77 when PILFER has no
 * serve command. */
int srvtest_main(int argc, char **argv, const char *name, const struct CMUnitTest *tests, size_t n);

#endif
