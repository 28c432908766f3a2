/*
 * config.c - the limits of `pilfer serve --limit NAME=N` (config.h).
 */
#include "server/config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define MODULE -1 /* the default is the hall's or the client table's (pf_hall_default_limits) */

/* The limits `--limit NAME=N` sets, with their ranges (docs/protocol.md lists each). */
static const struct {
  const char *name;
  size_t offset;
  int def, min, max;
  const char *what;
} LIMITS[] = {
    {"conns_per_address", offsetof(pf_serve_config, hall.clients.ws_per_client), MODULE, 1, 1000000,
     "WebSockets from one address"},
    {"tcp_per_address", offsetof(pf_serve_config, hall.clients.tcp_per_client), MODULE, 1, 1000000,
     "TCP connections from one address (WebSockets, HTTP and idle ones)"},
    {"connect_burst", offsetof(pf_serve_config, hall.clients.connect.burst), MODULE, 1, 1000000,
     "new TCP connections one address may open at once"},
    {"connect_every_ms", offsetof(pf_serve_config, hall.clients.connect.every_ms), MODULE, 1, 60000,
     "then one more every this many ms"},
    {"conns_max", offsetof(pf_serve_config, conns_max), 100000, 16, 10000000,
     "TCP connections in all (fewer when the descriptor limit is lower)"},
    {"clients_max", offsetof(pf_serve_config, hall.clients.clients_max), MODULE, 16, 10000000,
     "clients (addresses) the server keeps at once"},
    {"idle", offsetof(pf_serve_config, idle), 60, 2, 65535, "seconds a WebSocket may leave a ping unanswered"},
    {"queue_kib", offsetof(pf_serve_config, queue_kib), 1024, 64, 1048576, "KiB waiting for one connection"},
    {"queue_total_mib", offsetof(pf_serve_config, queue_total_mib), 256, 1, 65536, "MiB waiting for all"},
    {"waiting_per_client", offsetof(pf_serve_config, hall.clients.waiting_per_client), MODULE, 1, 1000000,
     "waiting tables one address created"},
    {"waiting_per_conn", offsetof(pf_serve_config, hall.clients.waiting_per_client), MODULE, 1, 1000000,
     "the old name of waiting_per_client"},
    {"waiting_max", offsetof(pf_serve_config, hall.waiting_max), MODULE, 1, 10000000, "waiting tables in all"},
    {"waiting_expiry", offsetof(pf_serve_config, hall.waiting_expiry), MODULE, 1, 31536000,
     "seconds a waiting table with nobody seated lives"},
    {"abandoned_after", offsetof(pf_serve_config, hall.abandoned_after), MODULE, 1, 31536000,
     "seconds a table being played with nobody at it and no move is listed as abandoned"},
    {"bot_tables_per_client", offsetof(pf_serve_config, hall.clients.bot_tables_per_client), MODULE, 1, 1000000,
     "tables one address created that are being played with a bot"},
    {"costly_burst", offsetof(pf_serve_config, hall.clients.costly.burst), MODULE, 1, 1000000,
     "subscribe, list, review and hint requests one address may send at once"},
    {"costly_every_ms", offsetof(pf_serve_config, hall.clients.costly.every_ms), MODULE, 1, 60000,
     "then one more every this many ms"},
    {"messages_burst", offsetof(pf_serve_config, hall.clients.messages.burst), MODULE, 1, 10000000,
     "messages one address's WebSockets may send at once, all together"},
    {"messages_every_ms", offsetof(pf_serve_config, hall.clients.messages.every_ms), MODULE, 1, 60000,
     "then one more every this many ms (and one for each state they are sent)"},
    {"search_iters", offsetof(pf_serve_config, hall.search_iters), MODULE, 1, 100000000,
     "iterations a bot or hint may ask"},
    {"search_ms", offsetof(pf_serve_config, hall.search_ms), MODULE, 1, 60000, "milliseconds one search may take"},
};

void pf_serve_defaults(pf_serve_config *cfg) {
  pf_hall_default_limits(&cfg->hall);
  for (size_t i = 0; i < sizeof LIMITS / sizeof *LIMITS; i++)
    if (LIMITS[i].def != MODULE) *(int *)((char *)cfg + LIMITS[i].offset) = LIMITS[i].def;
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
  pf_serve_config def = {0};
  pf_serve_defaults(&def);
  for (size_t i = 0; i < sizeof LIMITS / sizeof *LIMITS; i++)
    pf_buf_join_item(&names, i, "%s (%d)", LIMITS[i].name, *(const int *)((const char *)&def + LIMITS[i].offset));
  pf_fail(err, "--limit NAME=N, not '%s'; the names (and defaults) are %s", text, pf_buf_str(&names));
  pf_buf_free(&names);
  return -1;
}

