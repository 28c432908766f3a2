/*
 * webfile.h - the web page's files as HTTP answers (http.c): compressed with gzip for a client
 * that takes it, and cached by an ETag (docs/protocol.md, "HTTP").
 */
#ifndef PF_SERVER_WEBFILE_H
#define PF_SERVER_WEBFILE_H

#include <stdbool.h>

#include "core/buf.h"

/* A file bigger than this is not answered by pf_web_file: serve.c streams it as it is. */
#define PF_WEB_FILE_MAX (1024 * 1024)

typedef struct pf_web_answer {
  int status;    /* 200, or 304 when the client's copy is this one (the body is then empty) */
  bool gzip;     /* the body is the file compressed with gzip */
  char etag[40]; /* "\"<16 hex digits of a hash of the file><0 or 1: plain or gzip>\"" */
} pf_web_answer;

/* Answers a GET of the regular file `path` (already checked to be inside the web folder):
 * `accept_encoding` and `if_none_match` are the request's headers ("" when absent). Fills body
 * and a; returns 1, or 0 when the file is bigger than PF_WEB_FILE_MAX or cannot be read (the
 * caller answers otherwise). */
int pf_web_file(const char *path, const char *accept_encoding, const char *if_none_match, pf_buf *body,
                pf_web_answer *a);

#endif
