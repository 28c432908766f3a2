/*
 * fuzz_hall.c - the server's message handler (server/hall.c) from untrusted bytes.
 *
 * The input is lines; each is one message of one of three connections: its first byte, taken
 * modulo 3, picks the connection, and the rest is the message. The word TOKEN in a message
 * becomes the last seat token that connection was given, and TABLE the last table number it
 * heard of, so that the fuzzer reaches joined seats and moves. The hall runs on an SQLite
 * database in memory, with its bots inline; inputs that name ismcts are skipped (a search of a
 * million iterations is a slow input, not a bug).
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
  long long table;
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
    } else {
      pf_buf_append(out, in + i, 1);
      i++;
    }
  }
}

static bool names_ismcts(const uint8_t *data, size_t size) {
  for (size_t i = 0; i + 6 <= size; i++)
    if (memcmp(data + i, "ismcts", 6) == 0) return true;
  return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 65536 || names_ismcts(data, size)) return 0;
  pf_hall_io io = {.send = on_send};
  pf_hall_config cfg = {.db = ":memory:", .workers = 0};
  pf_error err;
  pf_hall *h = pf_hall_open(&cfg, &io, &err);
  if (!h) fuzz_bug("the hall does not open: %s", err.msg);
  pf_conn *conns[CONNS];
  memset(peers, 0, sizeof peers);
  for (int k = 0; k < CONNS; k++) {
    peers[k].index = k;
    conns[k] = pf_hall_connect(h, &peers[k]);
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
      if (peers[k].got == before) fuzz_bug("no reply to: %s", pf_buf_str(&msg));
    }
    p = line_end + 1;
  }
  pf_hall_tick(h);
  for (int k = 0; k < CONNS; k++) pf_hall_disconnect(h, conns[k]);
  pf_hall_close(h);
  pf_buf_free(&msg);
  return 0;
}
