/*
 * exec.c - a bot that is another program, in any language, speaking the bot protocol
 * (docs/botproto.md): one JSON line per decision on its standard input, one move string per line
 * on its standard output.
 *
 * The spec is "exec:COMMAND" or "exec:SETTINGS:COMMAND" ("exec:ms=500,fail=lose:python3 bot.py");
 * COMMAND is run by /bin/sh -c in a process group of its own, at the bot's first choice and again
 * at the first choice of a game after one where it failed. A program that does not answer in
 * time, ends, writes more than a line may hold, writes a line with a NUL byte or one that is not
 * UTF-8, or answers a move that is not legal has failed: it is killed, the failure is written to
 * standard error (unless the caller reports it: pf_bot.strict), its kind is kept for the run's
 * counts (pf_bot.fail_kind), and the `fail` setting says what becomes of the seat for the rest of
 * the game: the random or greedy bot plays it, or (lose) the random bot plays it and the run
 * counts the game as lost for the seat (pf_bot.failure).
 *
 * Nothing here blocks without a deadline: writes and reads go through poll() with the move's time
 * limit, on a socket pair (MSG_NOSIGNAL: a program that has gone raises no SIGPIPE).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bots/bot.h"
#include "bots/sample.h"
#include "core/clock.h"
#include "core/jsontext.h"
#include "core/view.h"

#define EXEC_LINE 4096     /* the longest answer line taken, its newline included */
#define EXEC_PROTOCOL 1    /* docs/botproto.md */
#define EXEC_QUIT_MS 200   /* how long a program has to leave once its input is closed */
#define EXEC_SAMPLES 64    /* the most determinizations a program may ask for each decision */

enum { S_MS, S_FAIL };
enum { FAIL_RANDOM, FAIL_GREEDY, FAIL_LOSE };
static const char *const FAIL_CHOICES[] = {"random", "greedy", "lose", NULL};

static const pf_bot_setting EXEC_SETTINGS[] = {
    {"ms", 1, NULL, 10000, 1, 3600000, "the time the program has for each move (and for the handshake), in milliseconds"},
    {"fail", 1, FAIL_CHOICES, FAIL_RANDOM, 0, 2,
     "when the program fails: the random or greedy bot plays the seat for the rest of the game, or (lose) the "
     "random bot plays it and the game counts as lost"},
};

/* The bot's memory: the command, the program while it runs, what it has written that is not read
 * yet, and the bot that plays the seat once it has failed. */
typedef struct exec_bot {
  char command[PF_BOT_SPEC];
  char name[64];            /* the name the program gave in the handshake */
  int samples;              /* determinizations it asked for with each decision */
  void *scratch;            /* a state to determinize in, made at the first sample */
  pid_t pid;                /* 0: not running */
  int fd;                   /* our end of the socket pair */
  char in[EXEC_LINE];
  size_t nin;
  pf_bot fallback;
  bool has_fallback;
  pf_bot_fail_kind kind;    /* of the last failure */
} exec_bot;

/* Fails with a message and keeps the failure's kind. */
#define FAIL(what, ...) (x->kind = (what), pf_fail(err, __VA_ARGS__))

/* ------------------------------------------------------------------------------------------ */
/* The program                                                                                */
/* ------------------------------------------------------------------------------------------ */

static void stop_program(exec_bot *x, bool kill_now) {
  if (!x->pid) return;
  close(x->fd);
  int status;
  if (!kill_now) {
    double until = pf_clock_seconds() + EXEC_QUIT_MS / 1000.0;
    while (waitpid(x->pid, &status, WNOHANG) == 0 && pf_clock_seconds() < until) nanosleep(&(struct timespec){0, 2000000}, NULL);
  }
  kill(-x->pid, SIGKILL); /* the whole group: sh and what it started */
  while (waitpid(x->pid, &status, 0) < 0 && errno == EINTR) {
  }
  x->pid = 0;
  x->nin = 0;
}

/* The run's sample key (bots/sample.h): 16 bytes from getrandom, made once per process, the same
 * for every program it starts; its text is "PILFER_SAMPLE_KEY=" and 32 hexadecimal digits. */
static pthread_mutex_t key_lock = PTHREAD_MUTEX_INITIALIZER;
static uint8_t run_key[PF_SIPHASH_KEY];
static char run_key_env[sizeof PF_SAMPLE_KEY_ENV + 2 * PF_SIPHASH_KEY + 1];

static int make_run_key(pf_error *err) {
  pthread_mutex_lock(&key_lock);
  size_t got = run_key_env[0] ? sizeof run_key : 0;
  while (got < sizeof run_key) {
    ssize_t n = getrandom(run_key + got, sizeof run_key - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      pthread_mutex_unlock(&key_lock);
      return pf_fail(err, "getrandom: %s", strerror(errno));
    }
    got += (size_t)n;
    if (got == sizeof run_key) {
      char *p = run_key_env + sprintf(run_key_env, "%s=", PF_SAMPLE_KEY_ENV);
      for (size_t i = 0; i < sizeof run_key; i++) p += sprintf(p, "%02x", run_key[i]);
    }
  }
  pthread_mutex_unlock(&key_lock);
  return 0;
}

/* The environment a program gets: ours, with the run's key in place of any PILFER_SAMPLE_KEY.
 * Made before fork, since the child may call only async-signal-safe functions. */
extern char **environ;
static char **program_environment(void) {
  size_t n = 0, k = 0;
  while (environ[n]) n++;
  char **env = pf_xmalloc((n + 2) * sizeof *env);
  for (size_t i = 0; i < n; i++)
    if (strncmp(environ[i], PF_SAMPLE_KEY_ENV "=", sizeof PF_SAMPLE_KEY_ENV) != 0) env[k++] = environ[i];
  env[k++] = run_key_env;
  env[k] = NULL;
  return env;
}

static int start_program(exec_bot *x, pf_error *err) {
  x->kind = PF_BOT_ENDED; /* what a program that cannot start counts as */
  if (make_run_key(err) != 0) return -1;
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) return pf_fail(err, "socketpair: %s", strerror(errno));
  char **env = program_environment();
  pid_t pid = fork();
  if (pid < 0) {
    free(env);
    close(sv[0]);
    close(sv[1]);
    return pf_fail(err, "fork: %s", strerror(errno));
  }
  if (pid == 0) { /* only async-signal-safe calls from here: the parent may have threads */
    setpgid(0, 0);
    if (dup2(sv[1], 0) < 0 || dup2(sv[1], 1) < 0) _exit(127);
    execve("/bin/sh", (char *[]){"sh", "-c", x->command, NULL}, env);
    _exit(127);
  }
  free(env);
  setpgid(pid, pid); /* as the child does: whichever runs first */
  close(sv[1]);
  x->pid = pid;
  x->fd = sv[0];
  x->nin = 0;
  return 0;
}

static int ms_left(double deadline) {
  double left = (deadline - pf_clock_seconds()) * 1000;
  return left <= 0 ? 0 : left > 3600000 ? 3600000 : (int)left + 1;
}

/* Writes a line before the deadline. */
static int send_line(exec_bot *x, const char *text, double deadline, pf_error *err) {
  size_t len = strlen(text), done = 0;
  while (done < len) {
    struct pollfd p = {x->fd, POLLOUT, 0};
    int r = poll(&p, 1, ms_left(deadline));
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) return FAIL(PF_BOT_TIMEOUT, "did not read its input in time");
    ssize_t n = send(x->fd, text + done, len - done, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    /* A program that has ended closes its end: the write meets EPIPE or ECONNRESET, or the read
     * meets the end of its output, whichever comes first; both say the same. */
    if (n < 0 && (errno == EPIPE || errno == ECONNRESET)) return FAIL(PF_BOT_ENDED, "its program has ended");
    if (n < 0) return FAIL(PF_BOT_ENDED, "its program has ended (%s)", strerror(errno));
    done += (size_t)n;
  }
  return 0;
}

/* The offset of the first byte of s[0, len) that a line of text may not hold: a NUL, or one
 * that is not part of well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
 * above U+10FFFF); len when there is none. */
static size_t text_bad(const unsigned char *s, size_t len) {
  size_t i = 0;
  while (i < len) {
    size_t n = s[i] ? pf_utf8_len((const char *)s + i, len - i) : 0; /* core/jsontext.h */
    if (n == 0) return i;
    i += n;
  }
  return len;
}

/* At most max bytes of the UTF-8 text s, not cutting a character: for quoting a line. */
static int clip(const char *s, int max) {
  int n = (int)strnlen(s, (size_t)max + 1);
  if (n <= max) return n;
  while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80) max--;
  return max;
}

/* Reads one line (without its newline, nor a carriage return before it) before the deadline.
 * A line is text: one with a NUL byte (which would cut it short, so that "7H\0..." read as the
 * move 7H) or with bytes that are not UTF-8 is refused, saying which byte, and where. */
static int read_line(exec_bot *x, char *line, double deadline, pf_error *err) {
  for (;;) {
    char *nl = memchr(x->in, '\n', x->nin);
    if (nl) {
      size_t len = (size_t)(nl - x->in);
      memcpy(line, x->in, len);
      if (len > 0 && line[len - 1] == '\r') len--;
      line[len] = '\0';
      x->nin -= (size_t)(nl - x->in) + 1;
      memmove(x->in, nl + 1, x->nin);
      size_t bad = text_bad((const unsigned char *)line, len);
      if (bad < len) {
        unsigned byte = (unsigned char)line[bad];
        line[bad] = '\0';
        if (byte == 0)
          return FAIL(PF_BOT_PROTOCOL, "wrote a line with a NUL byte at byte offset %zu (after '%.*s')", bad,
                      clip(line, 60), line);
        return FAIL(PF_BOT_PROTOCOL, "wrote a line that is not UTF-8: byte 0x%02x at byte offset %zu (after '%.*s')",
                    byte, bad, clip(line, 60), line);
      }
      return 0;
    }
    if (x->nin == sizeof x->in) return FAIL(PF_BOT_PROTOCOL, "wrote a line longer than %d bytes", EXEC_LINE - 1);
    struct pollfd p = {x->fd, POLLIN, 0};
    int r = poll(&p, 1, ms_left(deadline));
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) return FAIL(PF_BOT_TIMEOUT, "did not answer in time");
    ssize_t n = recv(x->fd, x->in + x->nin, sizeof x->in - x->nin, MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (n <= 0) return FAIL(PF_BOT_ENDED, "its program has ended");
    x->nin += (size_t)n;
  }
}

/* Sends a JSON object (pf_jw's text, taken) as one line and takes the answer line. */
static int ask(exec_bot *x, pf_buf *b, char *answer, double deadline, pf_error *err) {
  pf_buf_putc(b, '\n');
  int rc = send_line(x, pf_buf_str(b), deadline, err) == 0 && read_line(x, answer, deadline, err) == 0 ? 0 : -1;
  pf_buf_free(b);
  return rc;
}

/* Starts the program and shakes hands: our hello, its name and version. */
static int hello(exec_bot *x, const pf_bot *bot, const pf_game *g, pf_error *err) {
  if (start_program(x, err) != 0) return -1;
  char line[EXEC_LINE];
  double deadline = pf_clock_seconds() + (double)pf_bot_setting_value(bot, "ms") / 1000;
  pf_buf msg = {0};
  pf_jw w = {.b = &msg};
  pf_jw_open(&w, '{');
  pf_jw_key_str(&w, "pilfer", "botproto");
  pf_jw_key_int(&w, "protocol", EXEC_PROTOCOL);
  pf_jw_key_str(&w, "game", g->id);
  pf_jw_key_int(&w, "players", bot->players);
  pf_jw_key_int(&w, "ms", pf_bot_setting_value(bot, "ms"));
  pf_jw_close(&w, '}');
  if (ask(x, &msg, line, deadline, err) != 0) return -1;
  json_t *j = json_loads(line, 0, NULL);
  json_t *name = json_object_get(j, "name");
  if (!json_is_object(j) || !json_is_string(name) || !json_is_string(json_object_get(j, "version"))) {
    json_decref(j);
    return FAIL(PF_BOT_PROTOCOL, "answered the handshake with '%.*s', not {\"name\": ..., \"version\": ...}",
                clip(line, 60), line);
  }
  const char *given = json_string_value(name);
  snprintf(x->name, sizeof x->name, "%.*s", clip(given, (int)sizeof x->name - 1), given);
  json_t *samples = json_object_get(j, "samples");
  json_int_t k = json_is_integer(samples) ? json_integer_value(samples) : samples ? -1 : 0;
  json_decref(j);
  if (k < 0 || k > EXEC_SAMPLES)
    return FAIL(PF_BOT_PROTOCOL, "asked for samples that are not a number from 0 to %d", EXEC_SAMPLES);
  x->samples = (int)k;
  return 0;
}

/* The determinizations for the seat to move that the program asked for, sealed under the run's
 * key (bots/sample.h) and drawn with the bot's generator: since determinize is canonical, they
 * tell nothing the seat cannot see. */
static void samples_write(pf_jw *w, exec_bot *x, pf_bot *bot, const pf_game *g, const void *st) {
  pf_jw_open(w, '[');
  if (!x->scratch) x->scratch = pf_xmalloc(g->state_size);
  pf_buf b = {0};
  for (int k = 0; k < x->samples; k++) {
    memcpy(x->scratch, st, g->state_size);
    g->determinize(x->scratch, g->to_move(st), &bot->rng);
    pf_buf_clear(&b);
    pf_sample_write(g, bot->players, x->scratch, run_key, &b);
    pf_jw_str(w, pf_buf_str(&b));
  }
  pf_buf_free(&b);
  pf_jw_close(w, ']');
}

/* The program's move, or -1 when it failed (saying why). */
static int program_move(exec_bot *x, pf_bot *bot, const pf_game *g, const void *st, pf_move *m, pf_error *err) {
  if (!x->pid && hello(x, bot, g, err) != 0) return -1;
  int seat = g->to_move(st);
  int64_t ms = pf_bot_setting_value(bot, "ms");
  pf_buf msg = {0};
  pf_jw w = {.b = &msg};
  pf_jw_open(&w, '{');
  pf_jw_key_int(&w, "seat", seat);
  pf_jw_key(&w, "legal");
  pf_legal_write(&w, g, st);
  pf_jw_key_int(&w, "ms", ms);
  pf_jw_key(&w, "view");
  if (pf_view_write(&msg, g, st, bot->players, seat, NULL) != 0) abort(); /* as pf_view_json */
  w.comma = true;
  if (x->samples) {
    pf_jw_key(&w, "samples");
    samples_write(&w, x, bot, g, st);
  }
  pf_jw_close(&w, '}');
  char line[EXEC_LINE];
  if (ask(x, &msg, line, pf_clock_seconds() + (double)ms / 1000, err) != 0) return -1;
  pf_error why;
  if (g->move_parse(st, line, m, &why) != 0)
    return FAIL(PF_BOT_ILLEGAL, "answered '%.*s', which is not legal: %s", clip(line, 60), line, why.msg);
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* The kind                                                                                   */
/* ------------------------------------------------------------------------------------------ */

/* Whether text is "key=value,..." and nothing else: the settings before a command. */
static bool looks_like_settings(const char *text, size_t len) {
  size_t i = 0;
  while (i < len) {
    size_t key = i;
    while (i < len && text[i] >= 'a' && text[i] <= 'z') i++;
    if (i == key || i == len || text[i] != '=') return false;
    while (i < len && text[i] != ',' && text[i] != ' ') i++;
    if (i < len && text[i] == ' ') return false;
    if (i < len) i++;
  }
  return len > 0;
}

static int exec_open(pf_bot *bot, const char *text, int64_t *set, pf_error *err) {
  const char *colon = strchr(text, ':');
  if (colon && looks_like_settings(text, (size_t)(colon - text))) {
    char settings[PF_BOT_SPEC];
    snprintf(settings, sizeof settings, "%.*s", (int)(colon - text), text);
    if (pf_bot_parse_settings(&pf_bot_exec, settings, set, err) != 0) return -1;
    text = colon + 1;
  }
  text += strspn(text, " ");
  if (!*text) return pf_fail(err, "bot 'exec' needs a command to run: exec:COMMAND or exec:ms=1000,fail=lose:COMMAND");
  if (strlen(text) >= PF_BOT_SPEC) return pf_fail(err, "bot 'exec': the command is too long");
  if (!bot) return 0;
  exec_bot *x = pf_bot_memory(bot, sizeof *x);
  snprintf(x->command, sizeof x->command, "%s", text);
  return 0;
}

static void exec_close(pf_bot *bot) {
  exec_bot *x = bot->mem;
  if (!x) return;
  stop_program(x, false);
  if (x->has_fallback) pf_bot_free(&x->fallback);
  free(x->scratch);
}

static pf_move exec_choose(pf_bot *bot, const pf_game *g, const void *st) {
  exec_bot *x = bot->mem;
  bot->stats = (pf_bot_stats){0};
  pf_move m;
  pf_error err;
  if (bot->failure == PF_BOT_OK) {
    if (program_move(x, bot, g, st, &m, &err) == 0) return m;
    int64_t fail = pf_bot_setting_value(bot, "fail");
    pf_fail(&bot->why, "seat %d: bot 'exec:%s'%s%s%s: %s", g->to_move(st), x->command, x->name[0] ? " (" : "", x->name,
            x->name[0] ? ")" : "", err.msg);
    if (!bot->strict)
      fprintf(stderr, "pilfer: %s; %s\n", bot->why.msg,
              fail == FAIL_LOSE     ? "the game counts as lost for the seat, and random plays it out"
              : fail == FAIL_GREEDY ? "greedy plays the seat for the rest of the game"
                                    : "random plays the seat for the rest of the game");
    stop_program(x, true);
    bot->failure = fail == FAIL_LOSE ? PF_BOT_FORFEIT : PF_BOT_FELL_BACK;
    bot->fail_kind = x->kind;
  }
  if (!x->has_fallback) {
    pf_error e;
    pf_bot_init(&x->fallback, pf_bot_setting_value(bot, "fail") == FAIL_GREEDY ? "greedy" : "random", bot->players, 0, 0,
                &e);
    x->has_fallback = true;
  }
  x->fallback.rng = bot->rng; /* the fallback draws from the bot's own generator */
  m = pf_bot_choose(&x->fallback, g, st);
  bot->rng = x->fallback.rng;
  bot->fallback_moves++;
  return m;
}

const pf_bot_kind pf_bot_exec = {
    "exec",
    "another program speaking the bot protocol (docs/botproto.md): exec:COMMAND or exec:SETTINGS:COMMAND; "
    "not in `pilfer serve`",
    EXEC_SETTINGS,
    2,
    exec_choose,
    exec_open,
    exec_close,
    true,
    true, /* its time is the program's: never counted cheap */
    NULL, /* it sees only its seat's samples */
};
