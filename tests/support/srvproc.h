/*
 * srvproc.h - child processes for the server's tests and load benchmark: `pilfer serve` started on
 * a local port and waited for, killed (-9 too) and restarted on the same database; its memory;
 * a command run to completion with its output captured (`pilfer replay`); and the short games
 * both play.
 */
#ifndef PF_SRVPROC_H
#define PF_SRVPROC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct srv {
  pid_t pid;          /* 0 when not running */
  int port;
  char pilfer[512];   /* the binary */
  char db[512];
  char log[512];      /* the server's stdout and stderr, appended to */
  int status;         /* wait status once it ended */
  char error[700];    /* why srv_start failed */
  const char *const *args; /* more arguments of `pilfer serve` (NULL-terminated), or NULL */
  int nofile;         /* > 0: the server's descriptor limit (soft and hard) */
} srv;

/* Starts `PILFER serve --listen 127.0.0.1:0 --db DB [s->args...]`, its output appended to LOG, reads the port
 * it got from the line it prints when listening (docs/protocol.md), and waits until it answers
 * GET /api/games (at most timeout_ms). 0 on success; -1 with the reason and the log's tail in
 * s->error. The child is killed if this process dies. */
int srv_start(srv *s, const char *pilfer, const char *db, const char *log, int timeout_ms);
/* Whether the server still runs (reaps it and keeps its status when it ended). */
bool srv_alive(srv *s);
/* Sends sig and waits at most timeout_ms for the end, then SIGKILL; returns the wait status. */
int srv_stop(srv *s, int sig, int timeout_ms);
/* The last `bytes` bytes of the server's log, for a failure message (caller frees). */
char *srv_log_tail(const srv *s, size_t bytes);

/* Options that keep a game short (one hand of Thief, one of Ghârat ...), as a create message's
 * "options": what the server's tests and load benchmark play. Other games get {} (defaults). */
json_t *srv_short_options(const char *game);
/* The players of the load benchmark's tables of a game of min_players to max_players: 3 where it
 * may, else the nearest it plays. */
int srv_load_players(int min_players, int max_players);

/* A process's resident memory (VmRSS) in KiB, or -1. */
long proc_rss_kib(pid_t pid);
/* A process's CPU time so far (user and system, every thread), in seconds, or -1. */
double proc_cpu_seconds(pid_t pid);
/* The pid of the process of this user listening on local TCP port `port`, or -1. */
pid_t proc_listening_on(int port);
/* Runs argv to its end with stdin from /dev/null, capturing stdout into *out (NUL-terminated,
 * caller frees; NULL to drop it) and stderr into *err likewise; returns the exit status, or -1
 * when it did not exit normally. */
int proc_run(char *const argv[], char **out, char **err);

#endif
