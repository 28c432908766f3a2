/*
 * log.h - pilfer serve's log: one line per event (the start, the stop, errors, limits hit), as
 * text ("pilfer serve: MESSAGE") or as one JSON object a line (`--log json`: {"time", "event",
 * "message"} and the event's fields), on standard error; the start and the stop go to standard
 * output, where the listening line has always been. No line ever holds a seat's token: the
 * messages are the server's own words about tables, seats, moves and addresses.
 *
 * A limit that a client hits may be hit thousands of times a second: each limit logs at most
 * PF_LOG_LIMIT_BURST lines a second, and the next line says how many were left out.
 */
#ifndef PF_LOG_H
#define PF_LOG_H

#include <stdbool.h>

#define PF_LOG_LIMIT_BURST 5

void pf_log_json(bool on);
/* An event on standard error. */
void pf_log(const char *event, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The server cannot start (event "fail"): as text, "pilfer: MESSAGE" (SPEC §1's errors). */
void pf_log_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The start or the stop, on standard output. */
void pf_log_out(const char *event, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A limit hit (event "limit", with "limit": name), rate limited per name. Loop thread only. */
void pf_log_limit(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
