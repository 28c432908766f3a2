/*
 * log.c - pilfer serve's log lines (log.h).
 */
#include "server/log.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "core/clock.h"
#include "core/jsontext.h"

static bool as_json;

void pf_log_json(bool on) { as_json = on; }

/* A key and its string, or nothing when the string is not UTF-8. */
static void key_str_or_none(pf_jw *w, const char *key, const char *s) {
  size_t at = w->b->len;
  bool comma = w->comma;
  pf_jw_key_str(w, key, s);
  if (w->rc) {
    w->b->len = at, w->b->data[at] = '\0';
    w->comma = comma, w->rc = 0;
  }
}

static void emit(FILE *f, const char *event, const char *limit, char *msg) {
  pf_utf8_clean(msg); /* a message cut inside a character, or holding a client's bytes */
  if (!as_json) {
    for (char *p = msg; *p; p++) /* one line, and no terminal's control sequence from a client */
      if ((unsigned char)*p < 0x20 || *p == 0x7f) *p = '?';
    fprintf(f, "%s: %s\n", strcmp(event, "fail") == 0 ? "pilfer" : "pilfer serve", msg);
  } else {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    struct tm tm;
    gmtime_r(&tv.tv_sec, &tm);
    char when[40];
    size_t n = strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(when + n, sizeof when - n, ".%03dZ", (int)(tv.tv_usec / 1000));
    pf_buf line = {0};
    pf_jw w = {.b = &line};
    pf_jw_open(&w, '{');
    pf_jw_key_str(&w, "time", when);
    pf_jw_key_str(&w, "event", event);
    int bad = w.rc;
    if (limit) key_str_or_none(&w, "limit", limit);
    key_str_or_none(&w, "message", msg);
    pf_jw_close(&w, '}');
    pf_jw_format(&line, 0, 0, true);
    fprintf(f, "%s\n", bad ? "{\"event\":\"log\",\"message\":\"a line could not be written\"}" : pf_buf_str(&line));
    pf_buf_free(&line);
  }
  fflush(f);
}

static void vemit(FILE *f, const char *event, const char *fmt, va_list ap) {
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  emit(f, event, NULL, msg);
}

void pf_log(const char *event, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vemit(stderr, event, fmt, ap);
  va_end(ap);
}

void pf_log_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vemit(stderr, "fail", fmt, ap);
  va_end(ap);
}

void pf_log_out(const char *event, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vemit(stdout, event, fmt, ap);
  va_end(ap);
}

/* Each limit's lines in the current second, and those left out. */
static struct {
  char name[32];
  double second;
  int lines;
  long dropped;
} limits[32];

void pf_log_limit(const char *name, const char *fmt, ...) {
  double now = pf_clock_seconds();
  int i = 0;
  while (i < 32 && limits[i].name[0] && strcmp(limits[i].name, name) != 0) i++;
  if (i == 32) i = 31; /* more names than expected: they share the last slot */
  if (!limits[i].name[0]) snprintf(limits[i].name, sizeof limits[i].name, "%s", name);
  if (now - limits[i].second >= 1.0) limits[i].second = now, limits[i].lines = 0;
  if (limits[i].lines >= PF_LOG_LIMIT_BURST) {
    limits[i].dropped++;
    return;
  }
  limits[i].lines++;
  char msg[900];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (limits[i].dropped) {
    size_t n = strlen(msg);
    snprintf(msg + n, sizeof msg - n, " (and %ld more of %s before, not logged)", limits[i].dropped, name);
    limits[i].dropped = 0;
  }
  emit(stderr, "limit", name, msg);
}
