/*
 * client.c - the clients of pilfer serve, keyed by address (client.h).
 *
 * Two structures share the clients, each allocated on its own so that a pointer to one never
 * moves:
 *   - a hash table of pointers, open addressing with linear probing, at most half full, SipHash
 *     with a random key; deleting shifts the entries after the hole back (no tombstones), so a
 *     lookup never walks over the dead;
 *   - a binary min-heap of the clients that hold nothing, ordered by `full_at`, the time from
 *     which all their buckets are full. Its top is the next client to free, so the sweep and a
 *     full table's reclaim look at nothing else.
 * A bucket's full time only moves later (a take pushes it on, the clock never pulls it back), so
 * full_at is the latest of them and exact: no client is kept a moment longer than it must be,
 * nor freed while a bucket is still short.
 */
#include "server/client.h"

#include <arpa/inet.h>
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "core/mem.h"
#include "core/siphash.h"

/* The smallest hash table; it doubles when half full and halves when an eighth full. */
#define SLOTS_MIN 64

struct pf_client {
  pf_clients *cs;
  uint64_t hash;
  int held[PF_HOLD_COUNT];
  int holds; /* the sum of held[] */
  struct {
    double tokens, at; /* tokens at time `at`; more come with time, up to the burst */
  } bucket[PF_RATE_COUNT];
  double full_at; /* from when every bucket is full */
  int idle;       /* its place in cs->idle, or -1 while it holds something */
  char key[PF_CLIENT_KEY_MAX];
};

struct pf_clients {
  pf_client_limits lim;
  int hold_max[PF_HOLD_COUNT];
  pf_client_rate rate[PF_RATE_COUNT];
  uint8_t sipkey[PF_SIPHASH_KEY];
  pf_client **slot; /* the hash table: NULL or a client */
  size_t mask;      /* slots - 1, slots a power of 2 */
  int count;
  pf_client **idle; /* the heap of idle clients, by full_at */
  int nidle;
};

/* ------------------------------------------------------------------------------------------ */
/* The key                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* The longest text of an address is INET6_ADDRSTRLEN - 1 characters; the longest key is an
 * IPv6 /64 with its suffix. */
_Static_assert(sizeof "ffff:ffff:ffff:ffff::/64" <= PF_CLIENT_KEY_MAX, "room for a /64");
_Static_assert(INET_ADDRSTRLEN <= PF_CLIENT_KEY_MAX, "room for an IPv4 address");

/* Writes s and suffix into out[n] when they fit; leaves out alone when not. */
static bool put(char *out, size_t n, const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  if (a + b >= n) return false;
  memcpy(out, s, a);
  memcpy(out + a, suffix, b + 1);
  return true;
}

bool pf_client_key(const char *address, char *out, size_t n) {
  if (n > 0) out[0] = '\0';
  if (!address || n == 0 || strnlen(address, INET6_ADDRSTRLEN) == INET6_ADDRSTRLEN) return false;
  char text[INET6_ADDRSTRLEN];
  struct in_addr v4;
  struct in6_addr v6;
  if (inet_pton(AF_INET, address, &v4) == 1) {
    if (!inet_ntop(AF_INET, &v4, text, sizeof text)) return false;
    return put(out, n, text, "");
  }
  if (inet_pton(AF_INET6, address, &v6) != 1) return false;
  if (IN6_IS_ADDR_V4MAPPED(&v6)) {
    memcpy(&v4, &v6.s6_addr[12], 4);
    if (!inet_ntop(AF_INET, &v4, text, sizeof text)) return false;
    return put(out, n, text, "");
  }
  memset(&v6.s6_addr[8], 0, 8); /* the /64: one host's many addresses are one client */
  if (!inet_ntop(AF_INET6, &v6, text, sizeof text)) return false;
  return put(out, n, text, "/64");
}

/* ------------------------------------------------------------------------------------------ */
/* The limits                                                                                 */
/* ------------------------------------------------------------------------------------------ */

/* The defaults, each sized so that a person in a browser never meets it and a flood soon does:
 *   tcp_per_client 128 and ws_per_client 64: a household or an office behind one address (NAT)
 *     with a few people, each with a few tabs; a browser opens about 6 HTTP connections to a host
 *     and one WebSocket per tab, and keeps some a few seconds after.
 *   waiting_per_client 4: a person waits for players at one or two tables at once.
 *   bot_tables_per_client 16: a person plays one game or a few at once; many bot games at once
 *     are research, which `pilfer sim` does without the server. Each costs searches on the
 *     workers, so this bounds what one client takes of them.
 *   hints_per_client 1: a person reads one hint before asking the next; a hint is a search.
 *   clients_max 65536: about 12 MiB at most (some 180 bytes a client, with its share of the
 *     hash and the heap); the cap bounds memory, not fairness: a host with a /48 (65536 /64s)
 *     that keeps a connection open from each fills the table, and new clients are refused.
 *   connect 256, then 100 a second: a page load opens a handful of connections (the page, its
 *     files, the WebSocket), so 256 covers a household reloading at once, and a test suite or a
 *     script that plays bots and reconnects; 100 a second sustained is far above any person and
 *     far below a connection flood (and what the connections hold, tcp_per_client, is capped).
 *   chat 5, then one every 2 s: today's chat_flood rule.
 *   costly 200, then 20 a second: the page subscribes to the hall's list when a person clicks
 *     a filter or a page, and asks for a hint (one at a time: hints_per_client), a few a second
 *     at most; but its review slider asks for every step not seen yet as it is dragged, one a
 *     frame, and an arrow key held steps some 30 a second, so a person scrubbing through a long
 *     game sends a few hundred in a few seconds. A flood is thousands a second without end: 20
 *     a second cuts it a hundredfold, and each of these costs the server at most a replay.
 *   messages 1000, then 500 a second, and one back for each state sent: what all of an address's
 *     WebSockets may send together, so that a client that reconnects or opens its 64 sockets gets
 *     no more than one socket's worth of the loop (each socket has its own 200, then 100 a second,
 *     in ws.c); a person sends a few a minute, a script that plays bots answers states (given
 *     back), and a household's few players stay far below it. */
void pf_client_default_limits(pf_client_limits *lim) {
  *lim = (pf_client_limits){
      .tcp_per_client = 128,
      .ws_per_client = 64,
      .waiting_per_client = 4,
      .bot_tables_per_client = 16,
      .hints_per_client = 1,
      .clients_max = 65536,
      .connect = {256, 10},
      .chat = {5, 2000},
      .costly = {200, 50},
      .messages = {1000, 2},
  };
}

/* ------------------------------------------------------------------------------------------ */
/* The heap of idle clients                                                                   */
/* ------------------------------------------------------------------------------------------ */

static void heap_set(pf_clients *cs, int i, pf_client *c) {
  cs->idle[i] = c;
  c->idle = i;
}

/* Moves the client at i towards the top while it is due before its parent. */
static void heap_up(pf_clients *cs, int i) {
  pf_client *c = cs->idle[i];
  while (i > 0 && cs->idle[(i - 1) / 2]->full_at > c->full_at) {
    heap_set(cs, i, cs->idle[(i - 1) / 2]);
    i = (i - 1) / 2;
  }
  heap_set(cs, i, c);
}

/* Moves the client at i towards the bottom while a child is due before it. */
static void heap_down(pf_clients *cs, int i) {
  pf_client *c = cs->idle[i];
  for (;;) {
    int k = 2 * i + 1;
    if (k >= cs->nidle) break;
    if (k + 1 < cs->nidle && cs->idle[k + 1]->full_at < cs->idle[k]->full_at) k++;
    if (cs->idle[k]->full_at >= c->full_at) break;
    heap_set(cs, i, cs->idle[k]);
    i = k;
  }
  heap_set(cs, i, c);
}

/* The array has room for every client (clients_max), so adding never allocates. */
static void heap_add(pf_clients *cs, pf_client *c) {
  assert(c->idle < 0 && cs->nidle < cs->lim.clients_max);
  heap_set(cs, cs->nidle++, c);
  heap_up(cs, c->idle);
}

static void heap_remove(pf_clients *cs, pf_client *c) {
  int i = c->idle;
  assert(i >= 0 && cs->idle[i] == c);
  c->idle = -1;
  pf_client *last = cs->idle[--cs->nidle];
  if (last == c) return;
  heap_set(cs, i, last);
  heap_up(cs, i);
  heap_down(cs, last->idle);
}

/* ------------------------------------------------------------------------------------------ */
/* The hash table                                                                             */
/* ------------------------------------------------------------------------------------------ */

static uint64_t key_hash(const pf_clients *cs, const char *key) {
  return pf_siphash24(cs->sipkey, key, strlen(key));
}

/* The slot that holds the key, or the empty slot where it would go. */
static size_t slot_of(const pf_clients *cs, const char *key, uint64_t h) {
  size_t i = (size_t)h & cs->mask;
  while (cs->slot[i] && (cs->slot[i]->hash != h || strcmp(cs->slot[i]->key, key) != 0)) i = (i + 1) & cs->mask;
  return i;
}

/* Moves every client into a table of `slots` slots (a power of 2, more than count). */
static void rehash(pf_clients *cs, size_t slots) {
  pf_client **old = cs->slot;
  size_t n = cs->mask + 1;
  cs->slot = pf_xcalloc(slots, sizeof *cs->slot);
  cs->mask = slots - 1;
  for (size_t i = 0; i < n; i++)
    if (old[i]) cs->slot[slot_of(cs, old[i]->key, old[i]->hash)] = old[i];
  free(old);
}

/* Empties slot i, then moves back each client after it that the hole would hide from its own
 * home slot (a probe stops at the first empty slot). */
static void slot_clear(pf_clients *cs, size_t i) {
  for (size_t j = i;;) {
    cs->slot[i] = NULL;
    for (;;) {
      j = (j + 1) & cs->mask;
      if (!cs->slot[j]) return;
      size_t home = (size_t)cs->slot[j]->hash & cs->mask;
      /* it stays when its home lies cyclically in (i, j] */
      bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
      if (!stays) break;
    }
    cs->slot[i] = cs->slot[j];
    i = j;
  }
}

/* Takes an idle client out of both structures and frees it. */
static void client_free(pf_clients *cs, pf_client *c) {
  assert(c->holds == 0);
  heap_remove(cs, c);
  slot_clear(cs, slot_of(cs, c->key, c->hash));
  cs->count--;
  free(c);
}

/* ------------------------------------------------------------------------------------------ */
/* The table of clients                                                                       */
/* ------------------------------------------------------------------------------------------ */

/* 16 bytes from the operating system: a request this small is never cut short (getrandom(2)),
 * only interrupted while the kernel's pool is not yet ready. No randomness: no server. */
static void random_key(uint8_t key[PF_SIPHASH_KEY]) {
  ssize_t n;
  while ((n = getrandom(key, PF_SIPHASH_KEY, 0)) < 0 && errno == EINTR) {
  }
  if (n != PF_SIPHASH_KEY) abort();
}

pf_clients *pf_clients_new(const pf_client_limits *lim) {
  assert(lim->tcp_per_client >= 1 && lim->ws_per_client >= 1 && lim->waiting_per_client >= 1);
  assert(lim->bot_tables_per_client >= 1 && lim->hints_per_client >= 1 && lim->clients_max >= 1);
  pf_clients *cs = pf_xcalloc(1, sizeof *cs);
  cs->lim = *lim;
  cs->hold_max[PF_HOLD_TCP] = lim->tcp_per_client;
  cs->hold_max[PF_HOLD_WS] = lim->ws_per_client;
  cs->hold_max[PF_HOLD_WAITING] = lim->waiting_per_client;
  cs->hold_max[PF_HOLD_BOT_TABLES] = lim->bot_tables_per_client;
  cs->hold_max[PF_HOLD_HINTS] = lim->hints_per_client;
  cs->rate[PF_RATE_CONNECT] = lim->connect;
  cs->rate[PF_RATE_CHAT] = lim->chat;
  cs->rate[PF_RATE_COSTLY] = lim->costly;
  cs->rate[PF_RATE_MESSAGES] = lim->messages;
  for (int r = 0; r < PF_RATE_COUNT; r++) assert(cs->rate[r].burst >= 1 && cs->rate[r].every_ms >= 1);
  random_key(cs->sipkey);
  cs->slot = pf_xcalloc(SLOTS_MIN, sizeof *cs->slot);
  cs->mask = SLOTS_MIN - 1;
  cs->idle = pf_xcalloc((size_t)lim->clients_max, sizeof *cs->idle);
  return cs;
}

void pf_clients_free(pf_clients *cs) {
  if (!cs) return;
  for (size_t i = 0; i <= cs->mask; i++) free(cs->slot[i]);
  free(cs->slot);
  free(cs->idle);
  free(cs);
}

pf_client *pf_clients_find(const pf_clients *cs, const char *key) {
  return cs->slot[slot_of(cs, key, key_hash(cs, key))];
}

pf_client *pf_client_get(pf_clients *cs, const char *key, double now) {
  size_t len = strlen(key);
  assert(len < PF_CLIENT_KEY_MAX); /* a key from pf_client_key */
  if (len >= PF_CLIENT_KEY_MAX) return NULL;
  uint64_t h = key_hash(cs, key);
  size_t i = slot_of(cs, key, h);
  if (cs->slot[i]) return cs->slot[i];
  if (cs->count == cs->lim.clients_max) {
    if (cs->nidle == 0 || cs->idle[0]->full_at > now) return NULL;
    client_free(cs, cs->idle[0]);
    i = slot_of(cs, key, h); /* the clear may have moved the slots */
  }
  if ((size_t)(cs->count + 1) * 2 > cs->mask + 1) {
    rehash(cs, (cs->mask + 1) * 2);
    i = slot_of(cs, key, h);
  }
  pf_client *c = pf_xcalloc(1, sizeof *c);
  c->cs = cs;
  c->hash = h;
  memcpy(c->key, key, len + 1);
  for (int r = 0; r < PF_RATE_COUNT; r++) {
    c->bucket[r].tokens = cs->rate[r].burst;
    c->bucket[r].at = now;
  }
  c->full_at = now;
  c->idle = -1;
  cs->slot[i] = c;
  cs->count++;
  heap_add(cs, c);
  return c;
}

void pf_clients_sweep(pf_clients *cs, double now) {
  while (cs->nidle > 0 && cs->idle[0]->full_at <= now) client_free(cs, cs->idle[0]);
  size_t slots = cs->mask + 1;
  while (slots > SLOTS_MIN && (size_t)cs->count * 8 < slots) slots /= 2;
  if (slots != cs->mask + 1) rehash(cs, slots);
}

int pf_clients_count(const pf_clients *cs) {
  return cs->count;
}

/* ------------------------------------------------------------------------------------------ */
/* One client                                                                                 */
/* ------------------------------------------------------------------------------------------ */

bool pf_client_may_hold(const pf_client *c, int what) {
  assert(what >= 0 && what < PF_HOLD_COUNT);
  return c->held[what] < c->cs->hold_max[what];
}

void pf_client_hold(pf_client *c, int what, int delta) {
  assert(what >= 0 && what < PF_HOLD_COUNT);
  assert(delta <= INT_MAX - c->holds);
  assert(c->held[what] + delta >= 0); /* released more than it held */
  int was = c->holds;
  if (c->held[what] + delta < 0) delta = -c->held[what];
  c->held[what] += delta;
  c->holds += delta;
  if (was == 0 && c->holds > 0) heap_remove(c->cs, c);
  else if (was > 0 && c->holds == 0) heap_add(c->cs, c);
}

/* The tokens in bucket r at `now` (a fraction while one is coming). */
static double level(const pf_client *c, int r, double now) {
  const pf_client_rate *p = &c->cs->rate[r];
  double t = c->bucket[r].tokens;
  if (now > c->bucket[r].at) t += (now - c->bucket[r].at) * 1000.0 / p->every_ms;
  return t < p->burst ? t : p->burst;
}

bool pf_client_take(pf_client *c, int rate, double now) {
  assert(rate >= 0 && rate < PF_RATE_COUNT);
  double t = level(c, rate, now);
  if (t < 1) return false;
  const pf_client_rate *p = &c->cs->rate[rate];
  c->bucket[rate].tokens = t - 1;
  if (now > c->bucket[rate].at) c->bucket[rate].at = now;
  double full = c->bucket[rate].at + (p->burst - (t - 1)) * p->every_ms / 1000.0;
  if (full > c->full_at) {
    c->full_at = full;
    if (c->idle >= 0) heap_down(c->cs, c->idle);
  }
  return true;
}

void pf_client_give(pf_client *c, int rate, double now) {
  assert(rate >= 0 && rate < PF_RATE_COUNT);
  double t = level(c, rate, now) + 1;
  int burst = c->cs->rate[rate].burst;
  c->bucket[rate].tokens = t < burst ? t : burst;
  if (now > c->bucket[rate].at) c->bucket[rate].at = now;
}

double pf_client_retry_in(const pf_client *c, int rate, double now) {
  assert(rate >= 0 && rate < PF_RATE_COUNT);
  double t = level(c, rate, now);
  return t >= 1 ? 0 : (1 - t) * c->cs->rate[rate].every_ms / 1000.0;
}

int pf_client_held(const pf_client *c, int what) {
  assert(what >= 0 && what < PF_HOLD_COUNT);
  return c->held[what];
}

const char *pf_client_name(const pf_client *c) {
  return c->key;
}
