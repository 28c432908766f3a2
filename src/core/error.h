/*
 * error.h - errors for people: a message set where the problem is found, returned as -1.
 */
#ifndef PF_ERROR_H
#define PF_ERROR_H

typedef struct pf_error {
  char msg[512];
} pf_error;

/* Sets the message (if err is not NULL) and returns -1, so that `return pf_fail(err, ...)` reads
 * naturally. */
int pf_fail(pf_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Puts "prefix: " before the message already in err. */
void pf_error_prefix(pf_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
