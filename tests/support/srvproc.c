/*
 * srvproc.c - the child processes of srvproc.h.
 */
#define _GNU_SOURCE /* pipe2 */
#include "srvproc.h"
#include "wsclient.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

static long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Whether a server answers HTTP on 127.0.0.1:port. (A bare TCP connect would do, but a server
 * may not like a connection that closes without a request: that is a test of its own.) */
static bool answers(int port) {
  char *body = NULL;
  int st = http_get("127.0.0.1", port, "/api/games", 2000, &body, NULL);
  free(body);
  return st == 200;
}

bool srv_alive(srv *s) {
  if (!s->pid) return false;
  int st;
  pid_t r = waitpid(s->pid, &st, WNOHANG);
  if (r == 0) return true;
  s->status = r == s->pid ? st : -1;
  s->pid = 0;
  return false;
}

char *srv_log_tail(const srv *s, size_t bytes) {
  char *out = calloc(1, bytes + 1);
  FILE *f = fopen(s->log, "rb");
  if (!f) return out;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, size > (long)bytes ? size - (long)bytes : 0, SEEK_SET);
  size_t n = fread(out, 1, bytes, f);
  out[n] = 0;
  fclose(f);
  return out;
}

/* Forks `pilfer serve` on a port of its choosing; its pid. */
static pid_t spawn(const srv *s) {
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid != 0) return pid;
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127);
  int fd = open(s->log, O_WRONLY | O_CREAT | O_APPEND, 0644);
  int null = open("/dev/null", O_RDONLY);
  if (fd >= 0) {
    dup2(fd, 1);
    dup2(fd, 2);
  }
  if (null >= 0) dup2(null, 0);
  if (s->nofile > 0) { /* a server with few descriptors, for the test of what it does at the limit */
    struct rlimit rl = {(rlim_t)s->nofile, (rlim_t)s->nofile};
    if (setrlimit(RLIMIT_NOFILE, &rl) != 0) _exit(126);
  }
  const char *argv[64] = {s->pilfer, "serve", "--listen", "127.0.0.1:0", "--db", s->db};
  int n = 6;
  for (int i = 0; s->args && s->args[i] && n < 63; i++) argv[n++] = s->args[i];
  argv[n] = NULL;
  execv(s->pilfer, (char *const *)argv);
  fprintf(stderr, "exec %s: %s\n", s->pilfer, strerror(errno));
  _exit(127);
}

/* The port in the line "pilfer serve: listening on http://ADDRESS:PORT/ ..." that the server
 * wrote to the log past offset `from`; 0 while there is none. */
static int listening_port(const char *log, long from) {
  FILE *f = fopen(log, "r");
  if (!f) return 0;
  fseek(f, from, SEEK_SET);
  char line[1024];
  int port = 0;
  while (!port && fgets(line, sizeof line, f)) {
    const char *p = strstr(line, "listening on http://");
    const char *colon = p ? strchr(p + 20, ':') : NULL;
    if (colon) port = atoi(colon + 1);
  }
  fclose(f);
  return port;
}

int srv_start(srv *s, const char *pilfer, const char *db, const char *log, int timeout_ms) {
  srv given = *s; /* the arguments may point into s: a restart passes s->db */
  snprintf(given.pilfer, sizeof given.pilfer, "%s", pilfer);
  snprintf(given.db, sizeof given.db, "%s", db);
  snprintf(given.log, sizeof given.log, "%s", log);
  *s = given;
  s->error[0] = 0;
  s->status = 0;
  s->port = 0;
  struct stat st;
  long from = stat(s->log, &st) == 0 ? (long)st.st_size : 0;
  s->pid = spawn(s);
  if (s->pid < 0) {
    snprintf(s->error, sizeof s->error, "fork: %s", strerror(errno));
    s->pid = 0;
    return -1;
  }
  long long deadline = now_ms() + timeout_ms;
  while (srv_alive(s) && now_ms() < deadline) {
    if (!s->port) s->port = listening_port(s->log, from);
    if (s->port && answers(s->port)) return 0;
    sleep_ms(20);
  }
  char *tail = srv_log_tail(s, 400);
  if (s->pid) {
    snprintf(s->error, sizeof s->error, "no answer on port %d within %d ms; the log ends: %s",
             s->port, timeout_ms, tail);
    srv_stop(s, SIGKILL, 1000);
  } else {
    snprintf(s->error, sizeof s->error, "it ended (wait status 0x%x); the log ends: %s", s->status,
             tail);
  }
  free(tail);
  return -1;
}

int srv_stop(srv *s, int sig, int timeout_ms) {
  if (!s->pid) return s->status;
  kill(s->pid, sig);
  long long deadline = now_ms() + timeout_ms;
  while (srv_alive(s)) {
    if (now_ms() > deadline) {
      kill(s->pid, SIGKILL);
      waitpid(s->pid, &s->status, 0);
      s->pid = 0;
      break;
    }
    sleep_ms(10);
  }
  return s->status;
}

json_t *srv_short_options(const char *game) {
  if (!strcmp(game, "thief") || !strcmp(game, "four-card-thief")) return json_pack("{s:i}", "hands", 1);
  if (!strcmp(game, "gharat")) return json_pack("{s:i}", "target", 0);
  if (!strcmp(game, "skip-bo-junior")) return json_pack("{s:i}", "stock", 5);
  return json_object();
}

int srv_load_players(int min_players, int max_players) {
  return min_players > 3 ? min_players : max_players < 3 ? max_players : 3;
}

long proc_rss_kib(pid_t pid) {
  char path[64], line[256];
  snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  long kib = -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "VmRSS: %ld kB", &kib) == 1) break;
  fclose(f);
  return kib;
}

double proc_cpu_seconds(pid_t pid) {
  char path[64], line[1024];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char *end = fgets(line, sizeof line, f) ? strrchr(line, ')') : NULL; /* the name may hold spaces */
  fclose(f);
  unsigned long long ut, st;
  if (!end || sscanf(end + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2) return -1;
  return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* The inode of the socket listening on local TCP port `port`, from /proc/net/tcp{,6}; 0 if none. */
static unsigned long listening_inode(int port) {
  const char *files[] = {"/proc/net/tcp", "/proc/net/tcp6"};
  for (int i = 0; i < 2; i++) {
    FILE *f = fopen(files[i], "r");
    if (!f) continue;
    char line[512];
    unsigned long inode = 0;
    while (!inode && fgets(line, sizeof line, f)) {
      char local[80];
      unsigned st;
      unsigned long ino;
      /* sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode */
      if (sscanf(line, " %*s %79s %*s %x %*s %*s %*s %*s %*s %lu", local, &st, &ino) != 3) continue;
      char *colon = strrchr(local, ':');
      if (colon && st == 0x0A && strtol(colon + 1, NULL, 16) == port) inode = ino;
    }
    fclose(f);
    if (inode) return inode;
  }
  return 0;
}

pid_t proc_listening_on(int port) {
  unsigned long inode = listening_inode(port);
  if (!inode) return -1;
  char want[64];
  snprintf(want, sizeof want, "socket:[%lu]", inode);
  DIR *proc = opendir("/proc");
  pid_t found = -1;
  struct dirent *e;
  while (found < 0 && proc && (e = readdir(proc))) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    char dir[300];
    snprintf(dir, sizeof dir, "/proc/%s/fd", e->d_name);
    DIR *fds = opendir(dir);
    struct dirent *fe;
    while (found < 0 && fds && (fe = readdir(fds))) {
      char path[600], target[64];
      snprintf(path, sizeof path, "%s/%s", dir, fe->d_name);
      ssize_t n = readlink(path, target, sizeof target - 1);
      if (n > 0) {
        target[n] = 0;
        if (!strcmp(target, want)) found = (pid_t)atoi(e->d_name);
      }
    }
    if (fds) closedir(fds);
  }
  if (proc) closedir(proc);
  return found;
}

/* Appends what is readable on fd to a growing buffer; false at its end. */
static bool drain(int fd, char **buf, size_t *len, size_t *cap) {
  if (*cap - *len < 65536) {
    *cap = *cap * 2 + 65536;
    *buf = realloc(*buf, *cap);
    if (!*buf) abort();
  }
  ssize_t n = read(fd, *buf + *len, *cap - *len - 1);
  if (n < 0 && errno == EINTR) return true;
  if (n <= 0) return false;
  *len += (size_t)n;
  return true;
}

int proc_run(char *const argv[], char **out, char **err) {
  int po[2], pe[2];
  if (pipe2(po, O_CLOEXEC) != 0) return -1;
  if (pipe2(pe, O_CLOEXEC) != 0) {
    close(po[0]);
    close(po[1]);
    return -1;
  }
  pid_t pid = fork();
  if (pid == 0) {
    int null = open("/dev/null", O_RDONLY);
    dup2(null, 0);
    dup2(po[1], 1);
    dup2(pe[1], 2);
    execv(argv[0], argv);
    fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  close(po[1]);
  close(pe[1]);
  char *bufs[2] = {NULL, NULL};
  size_t lens[2] = {0, 0}, caps[2] = {0, 0};
  struct pollfd pfd[2] = {{.fd = po[0], .events = POLLIN}, {.fd = pe[0], .events = POLLIN}};
  int open_fds = 2;
  while (open_fds > 0) {
    if (poll(pfd, 2, -1) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; i++)
      if (pfd[i].fd >= 0 && (pfd[i].revents & (POLLIN | POLLHUP | POLLERR)) &&
          !drain(pfd[i].fd, &bufs[i], &lens[i], &caps[i])) {
        close(pfd[i].fd);
        pfd[i].fd = -1;
        open_fds--;
      }
  }
  for (int i = 0; i < 2; i++) {
    if (pfd[i].fd >= 0) close(pfd[i].fd);
    if (!bufs[i]) bufs[i] = calloc(1, 1);
    else bufs[i][lens[i]] = 0;
  }
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  if (out) *out = bufs[0];
  else free(bufs[0]);
  if (err) *err = bufs[1];
  else free(bufs[1]);
  return pid > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
