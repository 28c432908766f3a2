/*
 * config.c - the limits of `pilfer serve --limit NAME=N` (config.h).
 */
#include "server/config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The limits `--limit NAME=N` sets, with their ranges (docs/protocol.md lists each). */
static const struct {
  const char *name;
  size_t offset;
  int def, min, max;
  const char *what;
} LIMITS[] = {
    {"conns_per_address", offsetof(pf_serve_config, conns_per_address), 64, 1, 1000000, "WebSockets from one address"},
    {"idle", offsetof(pf_serve_config, idle), 60, 2, 65535, "seconds a WebSocket may leave a ping unanswered"},
    {"queue_kib", offsetof(pf_serve_config, queue_kib), 1024, 64, 1048576, "KiB waiting for one connection"},
    {"queue_total_mib", offsetof(pf_serve_config, queue_total_mib), 256, 1, 65536, "MiB waiting for all"},
    {"waiting_per_conn", offsetof(pf_serve_config, hall.waiting_per_conn), 4, 1, 1000000,
     "waiting tables one connection created"},
    {"waiting_max", offsetof(pf_serve_config, hall.waiting_max), 10000, 1, 10000000, "waiting tables in all"},
    {"waiting_expiry", offsetof(pf_serve_config, hall.waiting_expiry), 3600, 1, 31536000,
     "seconds a waiting table with nobody seated lives"},
    {"search_iters", offsetof(pf_serve_config, hall.search_iters), 100000, 1, 100000000,
     "iterations a bot or hint may ask"},
    {"search_ms", offsetof(pf_serve_config, hall.search_ms), 1000, 1, 60000, "milliseconds one search may take"},
};

void pf_serve_defaults(pf_serve_config *cfg) {
  for (size_t i = 0; i < sizeof LIMITS / sizeof *LIMITS; i++) *(int *)((char *)cfg + LIMITS[i].offset) = LIMITS[i].def;
}

int pf_serve_set_limit(pf_serve_config *cfg, const char *text, pf_error *err) {
  const char *eq = strchr(text, '=');
  for (size_t i = 0; eq && i < sizeof LIMITS / sizeof *LIMITS; i++) {
    if (strlen(LIMITS[i].name) != (size_t)(eq - text) || strncmp(text, LIMITS[i].name, (size_t)(eq - text)) != 0)
      continue;
    char *end;
    long v = strtol(eq + 1, &end, 10);
    if (!eq[1] || *end || v < LIMITS[i].min || v > LIMITS[i].max)
      return pf_fail(err, "--limit %s: a number from %d to %d (%s), not '%s'", LIMITS[i].name, LIMITS[i].min,
                     LIMITS[i].max, LIMITS[i].what, eq + 1);
    *(int *)((char *)cfg + LIMITS[i].offset) = (int)v;
    return 0;
  }
  pf_buf names = {0};
  for (size_t i = 0; i < sizeof LIMITS / sizeof *LIMITS; i++)
    pf_buf_printf(&names, "%s%s (%d)", i ? ", " : "", LIMITS[i].name, LIMITS[i].def);
  pf_fail(err, "--limit NAME=N, not '%s'; the names (and defaults) are %s", text, pf_buf_str(&names));
  pf_buf_free(&names);
  return -1;
}

