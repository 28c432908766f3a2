/*
 * test_client.c - the clients of server/client.h: the key of an address (IPv4, mapped IPv4, an
 * IPv6 /64; anything else refused), the counters and their limits, the buckets (emptied, refilled
 * with time, kept across a reconnection until full again), the cap on clients and its reclaim,
 * and a table that stays bounded through many clients. Time is made up: no clock, no sleeps.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"

#include "server/client.h"

static void expect_key(const char *address, const char *key) {
  char out[PF_CLIENT_KEY_MAX];
  assert_true(pf_client_key(address, out, sizeof out));
  assert_string_equal(out, key);
}

static void expect_no_key(const char *address) {
  char out[PF_CLIENT_KEY_MAX] = "x";
  assert_false(pf_client_key(address, out, sizeof out));
  assert_string_equal(out, "");
}

static void key_ipv4(void **state) {
  (void)state;
  expect_key("192.0.2.7", "192.0.2.7");
  expect_key("255.255.255.255", "255.255.255.255");
  expect_key("::ffff:192.0.2.7", "192.0.2.7"); /* a dual-stack socket's IPv4 peer */
  expect_key("::FFFF:c000:0207", "192.0.2.7"); /* the same, written in hex */
  expect_key("0:0:0:0:0:ffff:192.0.2.7", "192.0.2.7");
  char a[PF_CLIENT_KEY_MAX], b[PF_CLIENT_KEY_MAX];
  assert_true(pf_client_key("192.0.2.7", a, sizeof a));
  assert_true(pf_client_key("192.0.2.8", b, sizeof b));
  assert_string_not_equal(a, b); /* IPv4 addresses are not grouped */
}

static void key_ipv6(void **state) {
  (void)state;
  /* one /64, however its addresses are written: one client */
  expect_key("2001:db8:1:2::9", "2001:db8:1:2::/64");
  expect_key("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64");
  expect_key("2001:0DB8:0001:0002:0:0:0:1", "2001:db8:1:2::/64");
  /* the next /64: another client */
  expect_key("2001:db8:1:3::9", "2001:db8:1:3::/64");
  expect_key("::1", "::/64");
  expect_key("fe80::1:2:3:4", "fe80::/64");
  expect_key("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "ffff:ffff:ffff:ffff::/64"); /* the longest */
  /* ::ffff:0:0/96 only is IPv4: the IPv4-compatible ::a.b.c.d is an IPv6 /64 like any */
  expect_key("::192.0.2.7", "::/64");
}

static void key_refused(void **state) {
  (void)state;
  const char *bad[] = {"", "example.com", "localhost", "1.2.3", "1.2.3.4.5", "256.1.1.1", " 1.2.3.4", "1.2.3.4 ",
                       "[2001:db8::1]", "fe80::1%eth0", "2001:db8::1/64", "2001:db8::/64", "1:2:3:4:5:6:7:8:9",
                       "12345::", "::ffff:1.2.3.256", "1.2.3.4:80"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) expect_no_key(bad[i]);
  char out[PF_CLIENT_KEY_MAX] = "x";
  assert_false(pf_client_key(NULL, out, sizeof out));
  /* over-long: an address followed by more text, and a long run of an address's characters */
  char longer[4096];
  memset(longer, '0', sizeof longer - 1);
  longer[sizeof longer - 1] = '\0';
  expect_no_key(longer);
  snprintf(longer, sizeof longer, "0000:0000:0000:0000:0000:ffff:255.255.255.255");
  expect_key(longer, "255.255.255.255"); /* the longest text of an address */
  snprintf(longer, sizeof longer, "0000:0000:0000:0000:0000:ffff:255.255.255.2550");
  expect_no_key(longer);
  /* a key that does not fit is refused, not cut */
  assert_false(pf_client_key("192.0.2.7", out, sizeof "192.0.2.7" - 1));
  assert_string_equal(out, "");
  assert_true(pf_client_key("192.0.2.7", out, sizeof "192.0.2.7"));
  assert_false(pf_client_key("2001:db8:1:2::9", out, sizeof "2001:db8:1:2::/64" - 1));
  assert_string_equal(out, "");
  assert_true(pf_client_key("2001:db8:1:2::9", out, sizeof "2001:db8:1:2::/64"));
}

static void defaults(void **state) {
  (void)state;
  pf_client_limits l;
  pf_client_default_limits(&l);
  assert_int_equal(l.tcp_per_client, 128);
  assert_int_equal(l.ws_per_client, 64);
  assert_int_equal(l.waiting_per_client, 4);
  assert_int_equal(l.bot_tables_per_client, 16);
  assert_int_equal(l.hints_per_client, 1);
  assert_int_equal(l.clients_max, 65536);
  assert_int_equal(l.connect.burst, 256);
  assert_int_equal(l.connect.every_ms, 10);
  assert_int_equal(l.chat.burst, 5);
  assert_int_equal(l.chat.every_ms, 2000);
  assert_int_equal(l.costly.burst, 200);
  assert_int_equal(l.costly.every_ms, 50);
  assert_int_equal(l.messages.burst, 1000);
  assert_int_equal(l.messages.every_ms, 2);
}

/* Each counter reaches its own limit, independently of the others, and a release makes room. */
static void holds(void **state) {
  (void)state;
  pf_client_limits l;
  pf_client_default_limits(&l);
  l.tcp_per_client = 7;
  l.ws_per_client = 3;
  l.waiting_per_client = 4;
  l.bot_tables_per_client = 5;
  l.hints_per_client = 1;
  const int limit[PF_HOLD_COUNT] = {7, 3, 4, 5, 1};
  pf_clients *cs = pf_clients_new(&l);
  pf_client *c = pf_client_get(cs, "192.0.2.7", 0);
  assert_non_null(c);
  assert_string_equal(pf_client_name(c), "192.0.2.7");
  for (int w = 0; w < PF_HOLD_COUNT; w++) {
    int n = 0;
    while (pf_client_may_hold(c, w) && n < 100) pf_client_hold(c, w, 1), n++;
    assert_int_equal(n, limit[w]);
    assert_int_equal(pf_client_held(c, w), limit[w]);
  }
  for (int w = 0; w < PF_HOLD_COUNT; w++) assert_false(pf_client_may_hold(c, w));
  pf_client_hold(c, PF_HOLD_WAITING, -1);
  assert_true(pf_client_may_hold(c, PF_HOLD_WAITING));
  assert_false(pf_client_may_hold(c, PF_HOLD_BOT_TABLES));
  pf_client_hold(c, PF_HOLD_BOT_TABLES, 2); /* hold does not refuse: the caller asked may_hold */
  assert_int_equal(pf_client_held(c, PF_HOLD_BOT_TABLES), 7);
  pf_client_hold(c, PF_HOLD_BOT_TABLES, -7);
  assert_int_equal(pf_client_held(c, PF_HOLD_BOT_TABLES), 0);
#ifdef NDEBUG
  pf_client_hold(c, PF_HOLD_HINTS, -5); /* a caller's bug: clamped at 0 in release builds */
  assert_int_equal(pf_client_held(c, PF_HOLD_HINTS), 0);
  assert_true(pf_client_may_hold(c, PF_HOLD_HINTS));
#endif
  /* another address is another client, with counters of its own */
  pf_client *d = pf_client_get(cs, "192.0.2.8", 0);
  assert_ptr_not_equal(c, d);
  assert_int_equal(pf_client_held(d, PF_HOLD_TCP), 0);
  assert_ptr_equal(pf_client_get(cs, "192.0.2.7", 0), c);
  assert_int_equal(pf_clients_count(cs), 2);
  pf_clients_free(cs);
}

/* A bucket gives its burst, then one token every so often; the rates are apart. */
static void buckets(void **state) {
  (void)state;
  pf_client_limits l;
  pf_client_default_limits(&l);
  pf_clients *cs = pf_clients_new(&l);
  pf_client *c = pf_client_get(cs, "192.0.2.7", 100);
  for (int i = 0; i < 5; i++) assert_true(pf_client_take(c, PF_RATE_CHAT, 100));
  assert_false(pf_client_take(c, PF_RATE_CHAT, 100));
  assert_true(pf_client_retry_in(c, PF_RATE_CHAT, 100) == 2.0);
  assert_false(pf_client_take(c, PF_RATE_CHAT, 101));
  assert_true(pf_client_retry_in(c, PF_RATE_CHAT, 101) == 1.0);
  assert_true(pf_client_retry_in(c, PF_RATE_COSTLY, 101) == 0); /* another bucket, full */
  assert_true(pf_client_take(c, PF_RATE_CHAT, 102));
  assert_false(pf_client_take(c, PF_RATE_CHAT, 102));
  assert_false(pf_client_take(c, PF_RATE_CHAT, 103.5));
  assert_true(pf_client_take(c, PF_RATE_CHAT, 104));
  /* a long wait refills it to its burst, no more */
  for (int i = 0; i < 5; i++) assert_true(pf_client_take(c, PF_RATE_CHAT, 1000));
  assert_false(pf_client_take(c, PF_RATE_CHAT, 1000));
  /* messages: 1000, then 500 a second; one given back for each state sent, up to the burst */
  for (int i = 0; i < 1000; i++) assert_true(pf_client_take(c, PF_RATE_MESSAGES, 1000));
  assert_false(pf_client_take(c, PF_RATE_MESSAGES, 1000));
  pf_client_give(c, PF_RATE_MESSAGES, 1000);
  assert_true(pf_client_take(c, PF_RATE_MESSAGES, 1000));
  assert_false(pf_client_take(c, PF_RATE_MESSAGES, 1000));
  for (int i = 0; i < 5000; i++) pf_client_give(c, PF_RATE_MESSAGES, 1000);
  for (int i = 0; i < 1000; i++) assert_true(pf_client_take(c, PF_RATE_MESSAGES, 1000));
  assert_false(pf_client_take(c, PF_RATE_MESSAGES, 1000)); /* never more than the burst */
  /* costly: 200, then 20 a second */
  for (int i = 0; i < 200; i++) assert_true(pf_client_take(c, PF_RATE_COSTLY, 1000));
  assert_false(pf_client_take(c, PF_RATE_COSTLY, 1000));
  int got = 0;
  for (int ms = 1; ms <= 1000; ms++) got += pf_client_take(c, PF_RATE_COSTLY, 1000 + ms / 1000.0);
  assert_true(got >= 19 && got <= 20);
  /* connect: 256, then 100 a second */
  for (int i = 0; i < 256; i++) assert_true(pf_client_take(c, PF_RATE_CONNECT, 1000));
  assert_false(pf_client_take(c, PF_RATE_CONNECT, 1000));
  assert_false(pf_client_take(c, PF_RATE_CONNECT, 1000.0078125));
  assert_true(pf_client_take(c, PF_RATE_CONNECT, 1000.015625));
  pf_clients_free(cs);
}

/* Reconnecting refills nothing: a client that releases all it held stays, with its empty bucket,
 * until the bucket is full again; then the sweep forgets it, and it comes back new. */
static void reconnect(void **state) {
  (void)state;
  pf_client_limits l;
  pf_client_default_limits(&l);
  pf_clients *cs = pf_clients_new(&l);
  const char *k = "2001:db8:1:2::/64";
  pf_client *c = pf_client_get(cs, k, 100);
  pf_client_hold(c, PF_HOLD_TCP, 1);
  pf_client_hold(c, PF_HOLD_WS, 1);
  for (int i = 0; i < 5; i++) assert_true(pf_client_take(c, PF_RATE_CHAT, 100)); /* full again at 110 */
  pf_client_hold(c, PF_HOLD_WS, -1);
  pf_client_hold(c, PF_HOLD_TCP, -1); /* the socket closes */
  pf_clients_sweep(cs, 105);
  assert_int_equal(pf_clients_count(cs), 1);
  assert_ptr_equal(pf_clients_find(cs, k), c);
  /* it comes back at 105: the same client, 2.5 tokens, not 5 */
  assert_ptr_equal(pf_client_get(cs, k, 105), c);
  pf_client_hold(c, PF_HOLD_TCP, 1);
  assert_true(pf_client_take(c, PF_RATE_CHAT, 105));
  assert_true(pf_client_take(c, PF_RATE_CHAT, 105));
  assert_false(pf_client_take(c, PF_RATE_CHAT, 105)); /* 0.5 left: full again at 114 */
  pf_client_hold(c, PF_HOLD_TCP, -1);
  pf_clients_sweep(cs, 113.9);
  assert_ptr_equal(pf_clients_find(cs, k), c);
  pf_clients_sweep(cs, 114);
  assert_null(pf_clients_find(cs, k));
  assert_int_equal(pf_clients_count(cs), 0);
  /* new, and full */
  c = pf_client_get(cs, k, 114);
  for (int i = 0; i < 5; i++) assert_true(pf_client_take(c, PF_RATE_CHAT, 114));
  assert_false(pf_client_take(c, PF_RATE_CHAT, 114));
  /* a client that holds something outlives its buckets' refill */
  pf_client_hold(c, PF_HOLD_WAITING, 1);
  pf_clients_sweep(cs, 10000);
  assert_ptr_equal(pf_clients_find(cs, k), c);
  assert_int_equal(pf_client_held(c, PF_HOLD_WAITING), 1);
  pf_client_hold(c, PF_HOLD_WAITING, -1);
  /* released when its buckets are long full: gone at the next sweep */
  pf_clients_sweep(cs, 10000);
  assert_int_equal(pf_clients_count(cs), 0);
  assert_non_null(pf_client_get(cs, "192.0.2.7", 20000));
  pf_clients_sweep(cs, 20000); /* nor one that never held or drew anything */
  assert_int_equal(pf_clients_count(cs), 0);
  pf_clients_free(cs);
}

/* A table of clients_max clients refuses a new one while every client holds something or
 * waits for a bucket; it frees an idle one to make room, the one full the longest first. */
static void cap(void **state) {
  (void)state;
  pf_client_limits l;
  pf_client_default_limits(&l);
  l.clients_max = 3;
  pf_clients *cs = pf_clients_new(&l);
  pf_client *a = pf_client_get(cs, "10.0.0.1", 0);
  pf_client *b = pf_client_get(cs, "10.0.0.2", 0);
  pf_client *c = pf_client_get(cs, "10.0.0.3", 0);
  pf_client_hold(a, PF_HOLD_TCP, 1);
  pf_client_hold(b, PF_HOLD_TCP, 1);
  pf_client_hold(c, PF_HOLD_TCP, 1);
  assert_null(pf_client_get(cs, "10.0.0.4", 1));
  assert_ptr_equal(pf_client_get(cs, "10.0.0.2", 1), b); /* those there are still found */
  assert_int_equal(pf_clients_count(cs), 3);
  /* b closes: it holds nothing and its buckets are full, so it makes room */
  pf_client_hold(b, PF_HOLD_TCP, -1);
  pf_client *d = pf_client_get(cs, "10.0.0.4", 2);
  assert_non_null(d);
  assert_null(pf_clients_find(cs, "10.0.0.2"));
  assert_ptr_equal(pf_clients_find(cs, "10.0.0.1"), a);
  assert_ptr_equal(pf_clients_find(cs, "10.0.0.3"), c);
  assert_int_equal(pf_client_held(a, PF_HOLD_TCP), 1);
  pf_client_hold(d, PF_HOLD_TCP, 1);
  /* c closes with a chat token out (full again at 12), a with one out of costly (at 10.05) */
  assert_true(pf_client_take(c, PF_RATE_CHAT, 10));
  pf_client_hold(c, PF_HOLD_TCP, -1);
  assert_true(pf_client_take(a, PF_RATE_COSTLY, 10));
  pf_client_hold(a, PF_HOLD_TCP, -1);
  assert_null(pf_client_get(cs, "10.0.0.5", 10.03125)); /* neither is full yet */
  assert_non_null(pf_client_get(cs, "10.0.0.5", 10.5)); /* a is */
  assert_null(pf_clients_find(cs, "10.0.0.1"));
  assert_ptr_equal(pf_clients_find(cs, "10.0.0.3"), c);
  /* 10.0.0.5 holds nothing either (full since 10.5): it goes before c (full at 12) */
  assert_non_null(pf_client_get(cs, "10.0.0.6", 11));
  assert_null(pf_clients_find(cs, "10.0.0.5"));
  assert_ptr_equal(pf_clients_find(cs, "10.0.0.3"), c);
  assert_int_equal(pf_clients_count(cs), 3);
  pf_clients_free(cs);
}

/* 100,000 clients come and go: swept once a simulated second, or crowding a small table, the
 * table keeps only the clients whose buckets are still refilling. */
static void many(void **state) {
  (void)state;
  pf_client_limits l;
  pf_client_default_limits(&l);
  pf_clients *cs = pf_clients_new(&l);
  char key[PF_CLIENT_KEY_MAX];
  for (int i = 0; i < 100000; i++) {
    double now = i * 0.001; /* 1,000 new clients a second */
    snprintf(key, sizeof key, "10.%d.%d.%d", i >> 16, (i >> 8) & 255, i & 255);
    pf_client *c = pf_client_get(cs, key, now);
    assert_non_null(c);
    assert_true(pf_client_take(c, PF_RATE_CONNECT, now)); /* full again 50 ms later */
    pf_client_hold(c, PF_HOLD_TCP, 1);
    pf_client_hold(c, PF_HOLD_TCP, -1);
    if (i % 1000 == 999) {
      pf_clients_sweep(cs, now);
      assert_true(pf_clients_count(cs) <= 51); /* the last 50 ms' */
    }
    assert_true(pf_clients_count(cs) <= 1051);
  }
  pf_clients_sweep(cs, 1e9);
  assert_int_equal(pf_clients_count(cs), 0);
  pf_clients_free(cs);

  /* never swept, in a table of 1,000: each new client takes an idle one's place */
  l.clients_max = 1000;
  cs = pf_clients_new(&l);
  for (int i = 0; i < 100000; i++) {
    double now = i * 0.001;
    snprintf(key, sizeof key, "2001:db8:%x:%x::1", i >> 16, i & 0xffff);
    pf_client *c = pf_client_get(cs, key, now);
    assert_non_null(c);
    assert_true(pf_client_take(c, PF_RATE_CONNECT, now));
    assert_true(pf_clients_count(cs) <= 1000);
  }
  assert_int_equal(pf_clients_count(cs), 1000);
  pf_clients_free(cs);
}

/* Random holds, releases, takes and sweeps on a few hundred clients against a model of the
 * rules: after each sweep, a client is there exactly when it holds something or its bucket (one
 * token, one a second) is not full again; a pointer held stays the same; a take succeeds exactly
 * when a second has passed since the last. */
static void model(void **state) {
  (void)state;
  enum { N = 300, STEPS = 60000 };
  pf_client_limits l;
  pf_client_default_limits(&l);
  l.chat = (pf_client_rate){1, 1000};
  l.tcp_per_client = 1000;
  pf_clients *cs = pf_clients_new(&l);
  static int held[N];
  static double last[N];
  static pf_client *kept[N];
  for (int k = 0; k < N; k++) last[k] = -1e9;
  uint64_t x = 88172645463325252u;
  double now = 0;
  char key[PF_CLIENT_KEY_MAX];
  for (int step = 0; step < STEPS; step++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    int k = (int)(x >> 40) % N, op = (int)(x & 7);
    now += 0.25 * (double)((x >> 8) % 3); /* exact in binary: no rounding at the edges */
    snprintf(key, sizeof key, "192.0.%d.%d", k >> 8, k & 255);
    if (op <= 1) { /* hold */
      pf_client *c = pf_client_get(cs, key, now);
      assert_true(!kept[k] || c == kept[k]);
      kept[k] = c;
      pf_client_hold(c, PF_HOLD_TCP, 1);
      held[k]++;
    } else if (op <= 3 && held[k] > 0) { /* release */
      pf_client_hold(kept[k], PF_HOLD_TCP, -1);
      if (--held[k] == 0) kept[k] = NULL;
    } else if (op <= 5) { /* take */
      pf_client *c = pf_client_get(cs, key, now);
      bool ok = now >= last[k] + 1;
      assert_int_equal(pf_client_take(c, PF_RATE_CHAT, now), ok);
      if (ok) last[k] = now;
    } else if (op == 6) { /* sweep */
      pf_clients_sweep(cs, now);
      int there = 0;
      for (int j = 0; j < N; j++) {
        snprintf(key, sizeof key, "192.0.%d.%d", j >> 8, j & 255);
        pf_client *c = pf_clients_find(cs, key);
        bool live = held[j] > 0 || last[j] + 1 > now;
        assert_int_equal(c != NULL, live);
        if (held[j] > 0) assert_ptr_equal(c, kept[j]);
        if (c) assert_int_equal(pf_client_held(c, PF_HOLD_TCP), held[j]);
        there += live;
      }
      assert_int_equal(pf_clients_count(cs), there);
    }
  }
  pf_clients_free(cs);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(key_ipv4),  cmocka_unit_test(key_ipv6), cmocka_unit_test(key_refused),
      cmocka_unit_test(defaults),  cmocka_unit_test(holds),    cmocka_unit_test(buckets),
      cmocka_unit_test(reconnect), cmocka_unit_test(cap),      cmocka_unit_test(many),
      cmocka_unit_test(model),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
