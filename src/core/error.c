/*
 * error.c - errors for people: a message set where the problem is found.
 */
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int pf_fail(pf_error *err, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
  }
  return -1;
}

void pf_error_prefix(pf_error *err, const char *fmt, ...) {
  if (!err) return;
  char prefix[256], old[sizeof err->msg];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(prefix, sizeof prefix, fmt, ap);
  va_end(ap);
  memcpy(old, err->msg, sizeof old);
  if (snprintf(err->msg, sizeof err->msg, "%s: %s", prefix, old) >= (int)sizeof err->msg)
    memcpy(err->msg + sizeof err->msg - 4, "...", 4); /* cut, and says so */
}
