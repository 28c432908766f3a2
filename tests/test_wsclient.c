/*
 * test_wsclient.c - the WebSocket client of the server's tests, with no server: the frame parser
 * (lengths in 7, 16 and 64 bits, masked or not, fragments, control frames between them, fed a
 * byte at a time, and every broken frame it must refuse), and a connection's upgrade, pings and
 * close against a fake server on a local socket, and HTTP GET's bodies.
 */
#define _GNU_SOURCE /* memmem */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka needs the four headers above first */
#include <cmocka.h>

#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wsclient.h"

#define WAIT_MS 20000 /* a hang guard: what must come does within milliseconds on a quiet machine */

static const uint8_t KEY[4] = {0x37, 0xfa, 0x21, 0x3d};

/* A payload of n bytes that is not the same byte over and over. */
static uint8_t *payload(size_t n) {
  uint8_t *p = malloc(n + 1);
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)('a' + (i * 7 + i / 251) % 26);
  return p;
}

/* Feeds a frame to a parser, in pieces of `step` bytes (0: all at once), and takes one message. */
static int feed_and_take(ws_parser *p, const uint8_t *frame, size_t n, size_t step, ws_msg *m) {
  if (!step) step = n;
  for (size_t i = 0; i < n; i += step) {
    size_t k = n - i < step ? n - i : step;
    ws_parser_feed(p, frame + i, k);
    int r = ws_parser_next(p, m);
    if (r != 0) {
      assert_int_equal(i + k, n); /* nothing may come out before the last byte */
      return r;
    }
  }
  return 0;
}

/* ---- the frame header ---- */

static void header_lengths(void **st) {
  (void)st;
  uint8_t h[14];
  assert_int_equal(ws_frame_header(h, WS_OP_TEXT, true, NULL, 125), 2);
  assert_int_equal(h[0], 0x81);
  assert_int_equal(h[1], 125);
  assert_int_equal(ws_frame_header(h, WS_OP_TEXT, true, NULL, 126), 4);
  assert_int_equal(h[1], 126);
  assert_int_equal(h[2] << 8 | h[3], 126);
  assert_int_equal(ws_frame_header(h, WS_OP_BINARY, false, KEY, 65535), 8);
  assert_int_equal(h[0], 0x02);
  assert_int_equal(h[1], 0x80 | 126);
  assert_memory_equal(h + 4, KEY, 4);
  assert_int_equal(ws_frame_header(h, WS_OP_TEXT, true, NULL, 65536), 10);
  assert_int_equal(h[1], 127);
  uint8_t want[8] = {0, 0, 0, 0, 0, 1, 0, 0};
  assert_memory_equal(h + 2, want, 8);
  assert_int_equal(ws_frame_header(h, WS_OP_CLOSE, true, KEY, 10 * 1024 * 1024), 14);
  assert_int_equal(h[1], 0x80 | 127);
  assert_int_equal(h[7], 0xA0);
}

/* RFC 6455 §1.3's example handshake. */
static void accept_key_of_the_rfc(void **st) {
  (void)st;
  char out[32];
  ws_accept_key("dGhlIHNhbXBsZSBub25jZQ==", out);
  assert_string_equal(out, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
}

/* RFC 6455 §5.7's examples, byte for byte. */
static void rfc_examples(void **st) {
  (void)st;
  const uint8_t unmasked[] = {0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f};
  const uint8_t masked[] = {0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58};
  const uint8_t frag[] = {0x01, 0x03, 0x48, 0x65, 0x6c, 0x80, 0x02, 0x6c, 0x6f};
  size_t n;
  uint8_t *enc = ws_frame_encode(WS_OP_TEXT, true, KEY, "Hello", 5, &n);
  assert_int_equal(n, sizeof masked);
  assert_memory_equal(enc, masked, n);
  free(enc);
  ws_parser p;
  ws_msg m;
  ws_parser_init(&p, -1, 0);
  ws_parser_feed(&p, unmasked, sizeof unmasked);
  ws_parser_feed(&p, masked, sizeof masked);
  ws_parser_feed(&p, frag, sizeof frag);
  for (int i = 0; i < 3; i++) {
    assert_int_equal(ws_parser_next(&p, &m), 1);
    assert_int_equal(m.opcode, WS_OP_TEXT);
    assert_int_equal(m.len, 5);
    assert_string_equal((const char *)m.data, "Hello");
  }
  assert_int_equal(ws_parser_next(&p, &m), 0);
  ws_parser_free(&p);
}

/* ---- round trips ---- */

/* Every length class, masked and not, fed at once and a byte (or a few) at a time. */
static void round_trips(void **st) {
  (void)st;
  const size_t lens[] = {0, 1, 125, 126, 127, 1000, 65535, 65536, 70000, 300000};
  for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
    size_t len = lens[li];
    uint8_t *data = payload(len);
    for (int masked = 0; masked < 2; masked++) {
      size_t n;
      uint8_t *frame = ws_frame_encode(WS_OP_BINARY, true, masked ? KEY : NULL, data, len, &n);
      const size_t steps[] = {0, 1, 7, 4096};
      for (size_t si = 0; si < 4; si++) {
        if (steps[si] == 1 && len > 70000) continue; /* a byte at a time: enough below */
        ws_parser p;
        ws_msg m;
        ws_parser_init(&p, masked, 0);
        assert_int_equal(feed_and_take(&p, frame, n, steps[si], &m), 1);
        assert_int_equal(m.opcode, WS_OP_BINARY);
        assert_int_equal(m.len, len);
        if (len) assert_memory_equal(m.data, data, len);
        assert_int_equal(m.data[len], 0);
        assert_int_equal(ws_parser_next(&p, &m), 0);
        ws_parser_free(&p);
      }
      free(frame);
    }
    free(data);
  }
}

/* A message in fragments of every size, with a ping between two of them: the ping comes out on
 * its own, then the whole message. */
static void fragments_with_a_ping_between(void **st) {
  (void)st;
  size_t len = 200000;
  uint8_t *data = payload(len);
  const size_t cuts[] = {0, 10, 135, 70135, 70200, 200000}; /* 10, 125, 70000, 65, 129800 */
  ws_parser p;
  ws_msg m;
  ws_parser_init(&p, 0, 0);
  for (int i = 0; i + 1 < 6; i++) {
    size_t n;
    uint8_t *f = ws_frame_encode(i ? WS_OP_CONT : WS_OP_TEXT, i == 4, NULL, data + cuts[i],
                                 cuts[i + 1] - cuts[i], &n);
    if (i < 4) {
      assert_int_equal(feed_and_take(&p, f, n, i == 1 ? 1 : 0, &m), 0);
    } else {
      assert_int_equal(feed_and_take(&p, f, n, 3, &m), 1);
      assert_int_equal(m.opcode, WS_OP_TEXT);
      assert_int_equal(m.len, len);
      assert_memory_equal(m.data, data, len);
    }
    free(f);
    if (i == 2) {
      f = ws_frame_encode(WS_OP_PING, true, NULL, "are you there", 13, &n);
      assert_int_equal(feed_and_take(&p, f, n, 1, &m), 1);
      assert_int_equal(m.opcode, WS_OP_PING);
      assert_string_equal((const char *)m.data, "are you there");
      free(f);
    }
  }
  /* The next message starts afresh. */
  size_t n;
  uint8_t *f = ws_frame_encode(WS_OP_TEXT, true, NULL, "{}", 2, &n);
  assert_int_equal(feed_and_take(&p, f, n, 0, &m), 1);
  assert_int_equal(m.len, 2);
  assert_string_equal((const char *)m.data, "{}");
  free(f);
  ws_parser_free(&p);
  free(data);
}

/* Several frames in one read come out one by one; a close frame carries its code. */
static void many_frames_in_one_feed(void **st) {
  (void)st;
  ws_parser p;
  ws_msg m;
  ws_parser_init(&p, 0, 0);
  for (int i = 0; i < 50; i++) {
    char text[32];
    int k = snprintf(text, sizeof text, "{\"n\": %d}", i);
    size_t n;
    uint8_t *f = ws_frame_encode(WS_OP_TEXT, true, NULL, text, (size_t)k, &n);
    ws_parser_feed(&p, f, n);
    free(f);
  }
  const uint8_t close[] = {0x88, 0x02, 0x03, 0xF1};
  ws_parser_feed(&p, close, sizeof close);
  for (int i = 0; i < 50; i++) {
    char text[32];
    snprintf(text, sizeof text, "{\"n\": %d}", i);
    assert_int_equal(ws_parser_next(&p, &m), 1);
    assert_string_equal((const char *)m.data, text);
  }
  assert_int_equal(ws_parser_next(&p, &m), 1);
  assert_int_equal(m.opcode, WS_OP_CLOSE);
  assert_int_equal(m.len, 2);
  assert_int_equal(m.data[0] << 8 | m.data[1], 1009);
  assert_int_equal(ws_parser_next(&p, &m), 0);
  ws_parser_free(&p);
}

/* ---- what the parser refuses ---- */

/* The bytes, given as hex pairs, must fail with an error containing `why`. */
static void refuse(int masked, size_t max, const char *hex, const char *why) {
  uint8_t b[64];
  size_t n = 0;
  for (const char *s = hex; *s;) {
    if (*s == ' ') {
      s++;
      continue;
    }
    unsigned v;
    sscanf(s, "%2x", &v);
    b[n++] = (uint8_t)v;
    s += 2;
  }
  ws_parser p;
  ws_msg m;
  ws_parser_init(&p, masked, max);
  ws_parser_feed(&p, b, n);
  int r;
  while ((r = ws_parser_next(&p, &m)) == 1) {
  }
  if (r != -1 || !strstr(p.error, why))
    fail_msg("%s: got %d '%s', want an error with '%s'", hex, r, p.error, why);
  assert_int_equal(ws_parser_next(&p, &m), -1); /* and it stays failed */
  ws_parser_free(&p);
}

static void broken_frames(void **st) {
  (void)st;
  refuse(0, 0, "80 01 41", "continuation with no message");
  refuse(0, 0, "01 01 41 01 01 42", "new message inside a fragmented one");
  refuse(0, 0, "09 00", "fragmented");
  refuse(0, 0, "89 7E 00 7E", "longer than 125");
  refuse(0, 0, "C1 00", "reserved bits");
  refuse(0, 0, "83 00", "reserved opcode");
  refuse(0, 0, "8B 00", "reserved opcode");
  refuse(0, 0, "81 7E 00 05 41 41 41 41 41", "length 5 in 16 bits");
  refuse(0, 0, "81 7F 00 00 00 00 00 00 01 00", "length 256 in 64 bits");
  refuse(0, 0, "81 7F 80 00 00 00 00 00 00 00", "top bit");
  refuse(0, 0, "81 81 01 02 03 04 40", "masked frame from the server");
  refuse(1, 0, "81 01 41", "unmasked frame");
  refuse(0, 0, "88 01 03", "close frame of 1 byte");
  refuse(0, 10, "81 0B 41 41 41 41 41 41 41 41 41 41 41", "over 10");
  /* the limit holds across fragments, and is known from the header alone */
  refuse(0, 10, "01 06 41 41 41 41 41 41 80 06", "over 10");
  refuse(0, 1000, "81 7F 00 00 00 00 00 A0 00 00", "over 1000");
}

/* ---- a connection against a fake server ---- */

typedef struct fake {
  int listen_fd, fd, port;
} fake;

static void fake_listen(fake *f) {
  f->listen_fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  assert_int_equal(bind(f->listen_fd, (struct sockaddr *)&a, sizeof a), 0);
  assert_int_equal(listen(f->listen_fd, 4), 0);
  socklen_t len = sizeof a;
  getsockname(f->listen_fd, (struct sockaddr *)&a, &len);
  f->port = ntohs(a.sin_port);
}

/* Reads what the client sent until `until` appears (or n bytes came); returns the bytes, NUL-
 * terminated, in a new buffer. */
static char *fake_read(fake *f, const char *until, size_t n, size_t *got) {
  char *buf = calloc(1, 1 << 20);
  size_t len = 0;
  while (len < n && !(until && strstr(buf, until))) {
    ssize_t k = recv(f->fd, buf + len, (1 << 20) - 1 - len, 0);
    assert_true(k > 0);
    len += (size_t)k;
  }
  if (got) *got = len;
  return buf;
}

/* Accepts the client's connection, reads its upgrade request, answers it (with a wrong accept
 * key when `wrong`), then sends `extra` bytes in the same write. */
static ws_conn *fake_upgrade(fake *f, bool wrong, const uint8_t *extra, size_t extralen,
                             const char *protocol) {
  ws_conn *c = ws_open("127.0.0.1", f->port, "/ws", protocol);
  assert_non_null(c);
  f->fd = accept(f->listen_fd, NULL, NULL);
  assert_true(f->fd >= 0);
  while (ws_want_write(c)) assert_true(ws_flush(c) >= 0);
  char *req = fake_read(f, "\r\n\r\n", 1 << 20, NULL);
  assert_non_null(strstr(req, "GET /ws HTTP/1.1\r\n"));
  assert_non_null(strstr(req, "Upgrade: websocket\r\n"));
  assert_non_null(strstr(req, "Sec-WebSocket-Version: 13\r\n"));
  assert_true((strstr(req, "Sec-WebSocket-Protocol: pilfer\r\n") != NULL) == (protocol != NULL));
  char key[64] = "", acc[32];
  sscanf(strstr(req, "Sec-WebSocket-Key: ") + 19, "%63[^\r]", key);
  assert_int_equal(strlen(key), 24);
  free(req);
  ws_accept_key(key, acc);
  if (wrong) acc[0] = acc[0] == 'A' ? 'B' : 'A';
  char resp[2048];
  int n = snprintf(resp, sizeof resp,
                   "HTTP/1.1 101 Switching Protocols\r\nUpgrade: WebSocket\r\n"
                   "Connection: upgrade\r\nSec-WebSocket-Accept: %s\r\n%s\r\n",
                   acc, protocol ? "Sec-WebSocket-Protocol: pilfer\r\n" : "");
  if (extralen) memcpy(resp + n, extra, extralen);
  assert_int_equal(send(f->fd, resp, (size_t)n + extralen, 0), (ssize_t)n + (ssize_t)extralen);
  return c;
}

static void fake_close(fake *f) {
  close(f->fd);
  close(f->listen_fd);
}

/* A frame the fake server takes from the client: it must be masked. */
static void fake_expect_frame(fake *f, int opcode, const char *text) {
  ws_parser p;
  ws_msg m;
  ws_parser_init(&p, 1, 0);
  int r;
  while ((r = ws_parser_next(&p, &m)) == 0) {
    uint8_t buf[4096];
    ssize_t k = recv(f->fd, buf, sizeof buf, 0);
    assert_true(k > 0);
    ws_parser_feed(&p, buf, (size_t)k);
  }
  assert_int_equal(r, 1);
  assert_int_equal(m.opcode, opcode);
  assert_int_equal(m.len, strlen(text));
  assert_memory_equal(m.data, text, m.len);
  ws_parser_free(&p);
}

/* The upgrade, a message sent in the same packet as the 101, a masked message from the client, a
 * ping answered with its pong, and a close with its code, echoed. */
static void conn_upgrade_ping_close(void **st) {
  (void)st;
  fake f;
  fake_listen(&f);
  const uint8_t hello[] = {0x81, 0x02, '{', '}'};
  ws_conn *c = fake_upgrade(&f, false, hello, sizeof hello, "pilfer");
  json_t *j = ws_recv_json(c, WAIT_MS);
  assert_non_null(j);
  assert_true(json_is_object(j) && json_object_size(j) == 0);
  json_decref(j);
  assert_int_equal(ws_get_state(c), WS_OPEN);
  assert_string_equal(ws_subprotocol(c), "pilfer");
  assert_int_equal(ws_send_text(c, "{\"type\":\"games\"}", 16), 0);
  fake_expect_frame(&f, WS_OP_TEXT, "{\"type\":\"games\"}");
  const uint8_t ping_then_text[] = {0x89, 0x02, 'h', 'i', 0x81, 0x01, '7'};
  send(f.fd, ping_then_text, sizeof ping_then_text, 0);
  j = ws_recv_json(c, WAIT_MS);
  assert_true(json_is_integer(j) && json_integer_value(j) == 7);
  json_decref(j);
  fake_expect_frame(&f, WS_OP_PONG, "hi");
  const uint8_t bye[] = {0x88, 0x05, 0x03, 0xF1, 'b', 'i', 'g'};
  send(f.fd, bye, sizeof bye, 0);
  close(f.fd);
  ws_msg m;
  assert_int_equal(ws_recv(c, &m, WAIT_MS), 1);
  assert_int_equal(m.opcode, WS_OP_CLOSE);
  assert_int_equal(ws_close_code(c), WS_CLOSE_TOO_BIG);
  assert_int_equal(ws_get_state(c), WS_CLOSED);
  assert_int_equal(ws_recv(c, &m, 100), -1);
  ws_close(c, WS_CLOSE_NORMAL);
  close(f.listen_fd);
}

/* A server that echoes a wrong accept key is refused, as is one that refuses the upgrade. */
static void conn_refuses_a_wrong_upgrade(void **st) {
  (void)st;
  fake f;
  fake_listen(&f);
  ws_conn *c = fake_upgrade(&f, true, NULL, 0, NULL);
  assert_int_equal(ws_recv(c, &(ws_msg){0}, WAIT_MS), -1);
  assert_non_null(strstr(ws_error(c), "Sec-WebSocket-Accept"));
  ws_drop(c);
  fake_close(&f);
  /* nobody listening: ws_connect says so */
  fake_listen(&f);
  close(f.listen_fd);
  assert_null(ws_connect("127.0.0.1", f.port, "/ws", NULL, WAIT_MS));
  assert_non_null(strstr(ws_last_error(), "refused"));
}

/* A connection that ends without a close frame reads as 1006. */
static void conn_dropped(void **st) {
  (void)st;
  fake f;
  fake_listen(&f);
  ws_conn *c = fake_upgrade(&f, false, NULL, 0, NULL);
  fake_close(&f);
  assert_null(ws_recv_json(c, WAIT_MS));
  assert_int_equal(ws_close_code(c), WS_CLOSE_ABNORMAL);
  ws_drop(c);
}

/* ---- HTTP ---- */

/* One GET against a fake server (a child process) answering `resp` and keeping the connection
 * open: the body must be known complete from the response alone. */
static int fake_get(const char *resp, char **body) {
  fake f;
  fake_listen(&f);
  pid_t pid = fork();
  if (pid == 0) {
    int fd = accept(f.listen_fd, NULL, NULL);
    char buf[4096];
    size_t len = 0;
    while (!memmem(buf, len, "\r\n\r\n", 4)) len += (size_t)recv(fd, buf + len, sizeof buf - len, 0);
    send(fd, resp, strlen(resp), 0);
    sleep(1);
    _exit(0);
  }
  close(f.listen_fd);
  int status = http_get("127.0.0.1", f.port, "/api/tables/7", WAIT_MS, body, NULL);
  kill(pid, SIGKILL);
  waitpid(pid, NULL, 0);
  return status;
}

static void http_bodies(void **st) {
  (void)st;
  char *body = NULL;
  assert_int_equal(fake_get("HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\n{\"a\":1}", &body), 200);
  assert_string_equal(body, "{\"a\":1}");
  free(body);
  assert_int_equal(fake_get("HTTP/1.1 409 Conflict\r\nTransfer-Encoding: chunked\r\n\r\n"
                            "4\r\n{\"er\r\n9\r\nror\": \"x\"\r\n1\r\n}\r\n0\r\n\r\n",
                            &body),
                   409);
  assert_string_equal(body, "{\"error\": \"x\"}");
  free(body);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(header_lengths),
      cmocka_unit_test(accept_key_of_the_rfc),
      cmocka_unit_test(rfc_examples),
      cmocka_unit_test(round_trips),
      cmocka_unit_test(fragments_with_a_ping_between),
      cmocka_unit_test(many_frames_in_one_feed),
      cmocka_unit_test(broken_frames),
      cmocka_unit_test(conn_upgrade_ping_close),
      cmocka_unit_test(conn_refuses_a_wrong_upgrade),
      cmocka_unit_test(conn_dropped),
      cmocka_unit_test(http_bodies),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
