/*
 * shard.h - which tables a process owns when several share them (`pilfer serve --shard I/N`).
 *
 * A sharded table id is k * 100 + I (k >= 1): its last two decimal digits are its shard, so any
 * process, the proxy (nginx's `map` on the id's last two digits) and a person reading a link can
 * tell where a table lives, and adding shards later moves no table (id 1302 is shard 2's whatever
 * N is). A server started without --shard keeps the ids 1, 2, 3 ... (docs/operations.md,
 * "Shards").
 */
#ifndef PF_SERVER_SHARD_H
#define PF_SERVER_SHARD_H

#include <stdbool.h>
#include <stdint.h>

#include "core/buf.h"

#define PF_SHARD_MAX 99   /* shards in a cluster, at most (the two digits of an id) */
#define PF_SHARD_BASE 100 /* a sharded id is k * PF_SHARD_BASE + its shard */

typedef struct pf_shard {
  int index; /* I, 1 to count */
  int count; /* N, 1 to PF_SHARD_MAX; 0: not sharded (every id is the process's own) */
} pf_shard;

/* "I/N" with 1 <= I <= N <= PF_SHARD_MAX, decimal digits only; -1 with a message saying why. */
int pf_shard_parse(const char *text, pf_shard *out, pf_error *err);
/* The shard an id names: its last two digits (0 for an id ending in 00, which no shard makes). */
int pf_shard_of(int64_t id);
/* Whether the process of shard s holds the table id (always, unsharded). */
bool pf_shard_owns(const pf_shard *s, int64_t id);
/* Where the table id is kept in memory: id / 100 sharded, id itself unsharded (ids > 0 only). */
int64_t pf_shard_slot(const pf_shard *s, int64_t id);
/* Why the process of shard s does not hold the table id: "table 1302 is on shard 2 (this is
 * shard 1 of 4)", or that no shard of the N holds it. */
void pf_shard_elsewhere(const pf_shard *s, int64_t id, char *out, size_t n);
/* The first id of shard s after `last` (sharded only). */
int64_t pf_shard_next(const pf_shard *s, int64_t last);

#endif
