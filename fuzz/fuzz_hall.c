/*
 * fuzz_hall.c - the server's message handler (server/api.c) from untrusted bytes.
 *
 * The input is lines; each is one message of one of three connections: its first byte, taken
 * modulo 3, picks the connection, and the rest is the message. The word TOKEN in a message
 * becomes the last seat token that connection was given, TABLE the last table number it
 * heard of and PLY the last ply, so that the fuzzer reaches joined seats and moves. The hall runs on an SQLite
 * database in memory, with its bots inline and a small search budget (bigger ones are refused
 * `budget`, which the fuzzer reaches too).
 * Checked after every message:
 *   - the connection got at least one reply, and every message sent to anyone is a JSON object
 *     with a string "type";
 *   - no connection is ever sent a token that was given to another connection.
 */
#include "fuzz.h"

#include <jansson.h>

#include "server/hall.h"

#define CONNS 3

typedef struct peer {
  int index, got;
  char token[33];
  long long table, ply;
} peer;

static peer peers[CONNS];

static void check_no_foreign_token(int to, const char *text) {
  for (int k = 0; k < CONNS; k++)
    if (k != to && peers[k].token[0] && strstr(text, peers[k].token))
      fuzz_bug("connection %d was sent connection %d's token: %s", to, k, text);
}

static void on_send(void *ctx, void *vp, const char *text, size_t len) {
  (void)ctx;
  peer *p = vp;
  json_error_t jerr;
  json_t *m = json_loadb(text, len, 0, &jerr);
  if (!json_is_object(m) || !json_is_string(json_object_get(m, "type")))
    fuzz_bug("the hall sent something that is not a message: %.*s", (int)len, text);
  check_no_foreign_token(p->index, text);
  const char *tok = json_string_value(json_object_get(m, "token"));
  if (tok && strlen(tok) == 32) memcpy(p->token, tok, 33);
  json_t *t = json_object_get(m, "table");
  if (json_is_integer(t)) p->table = json_integer_value(t);
  json_t *ply = json_object_get(m, "ply");
  if (json_is_integer(ply)) p->ply = json_integer_value(ply);
  p->got++;
  json_decref(m);
}

/* The message with TOKEN and TABLE put in. */
static void expand(const char *in, size_t n, const peer *p, pf_buf *out) {
  pf_buf_clear(out);
  for (size_t i = 0; i < n;) {
    if (n - i >= 5 && memcmp(in + i, "TOKEN", 5) == 0) {
      pf_buf_puts(out, p->token);
      i += 5;
    } else if (n - i >= 5 && memcmp(in + i, "TABLE", 5) == 0) {
      pf_buf_printf(out, "%lld", p->table);
      i += 5;
    } else if (n - i >= 3 && memcmp(in + i, "PLY", 3) == 0) {
      pf_buf_printf(out, "%lld", p->ply);
      i += 3;
    } else {
      pf_buf_append(out, in + i, 1);
      i++;
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 65536) return 0;
  pf_hall_io io = {.send = on_send};
  /* searches kept small: a search of the server's full budget is a slow input, not a bug */
  pf_hall_config cfg = {.db = ":memory:", .workers = 0};
  pf_hall_default_limits(&cfg.limits);
  cfg.limits.search_iters = 200;
  cfg.limits.search_ms = 20;
  pf_error err;
  pf_hall *h = pf_hall_open(&cfg, &io, &err);
  if (!h) fuzz_bug("the hall does not open: %s", err.msg);
  pf_conn *conns[CONNS];
  memset(peers, 0, sizeof peers);
  for (int k = 0; k < CONNS; k++) {
    peers[k].index = k;
    conns[k] = pf_hall_connect(h, &peers[k], NULL);
  }
  pf_buf msg = {0};
  const char *p = (const char *)data, *end = p + size;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *line_end = nl ? nl : end;
    if (line_end > p) {
      int k = (unsigned char)p[0] % CONNS;
      expand(p + 1, (size_t)(line_end - p - 1), &peers[k], &msg);
      int before = peers[k].got;
      pf_hall_message(h, conns[k], msg.data ? msg.data : "", msg.len);
      pf_hall_flush(h);
      if (peers[k].got == before) fuzz_bug("no reply to: %s", pf_buf_str(&msg));
    }
    p = line_end + 1;
  }
  pf_hall_tick(h);
  pf_hall_flush(h);
  for (int k = 0; k < CONNS; k++) pf_hall_disconnect(h, conns[k]);
  pf_hall_close(h);
  pf_buf_free(&msg);
  return 0;
}
