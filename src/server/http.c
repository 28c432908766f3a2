/*
 * http.c - the hall's answers to HTTP GETs under /api/ (hall.h: pf_hall_http; docs/protocol.md).
 */
#include "server/table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int http_json(pf_buf *body, const char **type, int status, json_t *o) {
  char *text = json_dumps(o, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
  json_decref(o);
  pf_buf_puts(body, text);
  pf_buf_putc(body, '\n');
  free(text);
  *type = "application/json";
  return status;
}

static int http_error(pf_buf *body, const char **type, int status, const char *msg) {
  return http_json(body, type, status, json_pack("{s:s}", "error", msg));
}

int pf_hall_http(pf_hall *h, const char *path, pf_buf *body, const char **type) {
  if (strcmp(path, "/api/games") == 0) return http_json(body, type, 200, pf_games_json());
  if (strcmp(path, "/api/tables") == 0) return http_json(body, type, 200, tables_json(h));
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
    table *t = table_get(h, id);
    if (!t) return http_error(body, type, 404, "no such table");
    if (!rest[0]) return http_json(body, type, 200, summary_json(t));
    if (strcmp(rest, "/record") == 0) {
      if (t->status != ST_OVER) return http_error(body, type, 409, "the game is still being played");
      return http_json(body, type, 200, pf_record_json(&t->run));
    }
  }
  return http_error(body, type, 404, "no such thing");
}
