/*
 * http.c - the hall's answers to HTTP GETs under /api/ (hall.h: pf_hall_http; docs/protocol.md),
 * and the web page's files, compressed and cached (webfile.h: pf_web_file).
 */
#include "server/hall.h"
#include "server/state.h"
#include "server/tables.h"
#include "server/webfile.h"

#include <limits.h>
#include <strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

/* Answers JSON text (compact, pf_jw's; taken) as json_dumps's JSON_INDENT(1) and a newline. */
static int http_json(pf_buf *body, const char **type, int status, pf_buf *text) {
  pf_jw_format(text, 0, 1, false);
  pf_buf_append(body, pf_buf_str(text), text->len);
  pf_buf_putc(body, '\n');
  pf_buf_free(text);
  *type = "application/json";
  return status;
}

static int http_error(pf_buf *body, const char **type, int status, const char *msg) {
  pf_buf text = {0};
  pf_jw w = {.b = &text};
  pf_jw_open(&w, '{');
  pf_jw_key_str(&w, "error", msg);
  pf_jw_close(&w, '}');
  return http_json(body, type, status, &text);
}

int pf_hall_http(pf_hall *h, const char *path, pf_buf *body, const char **type) {
  pf_buf text = {0};
  pf_jw w = {.b = &text};
  if (strcmp(path, "/api/games") == 0) {
    pf_games_write(&w);
    return http_json(body, type, 200, &text);
  }
  if (strcmp(path, "/api/tables") == 0 || strcmp(path, "/api/tables/all") == 0) {
    pf_state_tables_write(h, &text, path[11] ? INT_MAX : LIST_MAX); /* all: what scripts/lobby reads */
    return http_json(body, type, 200, &text);
  }
  if (strcmp(path, "/api/limits") == 0) {
    pf_jw_open(&w, '{');
    pf_jw_key_int(&w, "name_chars", NAME_CHARS);
    pf_jw_key_int(&w, "chat_chars", CHAT_CHARS);
    pf_jw_close(&w, '}');
    return http_json(body, type, 200, &text);
  }
  if (strncmp(path, "/api/rules/", 11) == 0) {
    const pf_game *g = pf_game_find(path + 11);
    if (!g) return http_error(body, type, 404, "no such game");
    pf_buf_puts(body, g->rules);
    *type = "text/plain; charset=utf-8";
    return 200;
  }
  long long id;
  char rest[16] = "";
  if (sscanf(path, "/api/tables/%lld%15s", &id, rest) >= 1 && id > 0) {
    if (!pf_shard_owns(&h->shard, id)) {
      char why[160];
      pf_shard_elsewhere(&h->shard, id, why, sizeof why);
      return http_error(body, type, 421, why);
    }
    table *t = pf_tables_get(h, id);
    if (!t) return http_error(body, type, 404, "no such table");
    if (!rest[0]) {
      pf_state_summary_write(&w, t);
      return http_json(body, type, 200, &text);
    }
    if (strcmp(rest, "/record") == 0) {
      if (t->status != ST_OVER) return http_error(body, type, 409, "the game is still being played");
      pf_record_write(&w, &t->run);
      /* A game lost on time stopped before its end: its moves and no result (SPEC §2), and why. */
      if (t->lost_on_time >= 0) {
        text.data[--text.len] = '\0'; /* the record's closing brace: "stopped" comes last */
        pf_jw_key(&w, "stopped");
        pf_jw_open(&w, '{');
        pf_jw_key_str(&w, "reason", "time");
        pf_jw_key_int(&w, "seat", t->lost_on_time);
        pf_jw_close(&w, '}');
        pf_jw_close(&w, '}');
      }
      return http_json(body, type, 200, &text);
    }
  }
  return http_error(body, type, 404, "no such thing");
}

/* ---- the web page's files ---- */

/* Whether an Accept-Encoding header takes gzip: a "gzip" item whose q is not 0 ("gzip;q=0"
 * refuses it). */
static bool takes_gzip(const char *accept) {
  for (const char *p = accept; *p;) {
    while (*p == ' ' || *p == ',') p++;
    const char *end = p + strcspn(p, ",");
    size_t n = strcspn(p, ";, ");
    if (n == 4 && strncasecmp(p, "gzip", 4) == 0) {
      const char *q = strstr(p, "q=");
      if (!q || q > end) return true;
      return strtod(q + 2, NULL) > 0;
    }
    p = end;
  }
  return false;
}

/* The file compressed with gzip into out; false when zlib fails. */
static bool gzip_into(const unsigned char *data, size_t n, pf_buf *out) {
  z_stream z = {0};
  if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return false;
  uLong bound = deflateBound(&z, (uLong)n) + 32;
  pf_buf_reserve(out, bound);
  z.next_in = (unsigned char *)data;
  z.avail_in = (uInt)n;
  z.next_out = (unsigned char *)out->data + out->len;
  z.avail_out = (uInt)bound;
  int r = deflate(&z, Z_FINISH);
  if (r == Z_STREAM_END) out->len += z.total_out;
  deflateEnd(&z);
  return r == Z_STREAM_END;
}

int pf_web_file(const char *path, const char *accept_encoding, const char *if_none_match, pf_buf *body,
                pf_web_answer *a) {
  FILE *f = fopen(path, "rb");
  struct stat sb;
  if (!f) return 0;
  if (fstat(fileno(f), &sb) != 0 || sb.st_size > PF_WEB_FILE_MAX) {
    fclose(f);
    return 0;
  }
  size_t n = (size_t)sb.st_size;
  unsigned char *data = malloc(n ? n : 1);
  bool ok = data && fread(data, 1, n, f) == n;
  fclose(f);
  if (!ok) {
    free(data);
    return 0;
  }
  /* The ETag is the file's bytes (FNV-1a), whatever its date: the same file, the same tag. */
  unsigned long long hash = 1469598103934665603ULL;
  for (size_t i = 0; i < n; i++) hash = (hash ^ data[i]) * 1099511628211ULL;
  a->gzip = takes_gzip(accept_encoding);
  snprintf(a->etag, sizeof a->etag, "\"%016llx%d\"", hash, a->gzip);
  pf_buf_clear(body);
  if (strstr(if_none_match, a->etag)) {
    a->status = 304;
  } else {
    a->status = 200;
    if (!a->gzip || !gzip_into(data, n, body)) {
      pf_buf_clear(body);
      a->gzip = false;
      snprintf(a->etag, sizeof a->etag, "\"%016llx0\"", hash);
      pf_buf_append(body, data, n);
    }
  }
  free(data);
  return 1;
}
