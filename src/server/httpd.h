/*
 * httpd.h - the transport's HTTP answers: GET and HEAD of the API (/api/, the hall's), /metrics,
 * the reports folder (/reports/) and the web folder's files, never a file outside them.
 */
#ifndef PF_SERVER_HTTPD_H
#define PF_SERVER_HTTPD_H

#include <stdbool.h>

#include "server/transport.h"

/* Answers the request for `path` (LWS_CALLBACK_HTTP); lws's return convention. */
int pf_httpd_request(server *srv, session *s, const char *path);
/* Writes the next part of the answer's body (LWS_CALLBACK_HTTP_WRITEABLE). */
int pf_httpd_writeable(session *s);
/* Whether `file` is a file (not a folder) inside the resolved folder `dir`, where it really is
 * (real, PATH_MAX bytes), after every link. */
bool pf_httpd_file_inside(const char *dir, const char *file, char *real);

#endif
