/*
 * wsclient.c - the WebSocket client and HTTP GET of wsclient.h.
 *
 * Sections: buffers and small helpers; the frame parser; sockets; connections (upgrade, sending,
 * receiving); the blocking calls; HTTP GET.
 */
#define _GNU_SOURCE /* memmem, strcasestr, SOCK_NONBLOCK */
#include "wsclient.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/evp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* ======================================== helpers ======================================== */

static char last_error[256];

const char *ws_last_error(void) { return last_error; }

static void set_last_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(last_error, sizeof last_error, fmt, ap);
  va_end(ap);
}

int64_t ws_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t ws_now_ms(void) { return ws_now_us() / 1000; }

static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) {
    fprintf(stderr, "wsclient: out of memory (%zu bytes)\n", n);
    abort();
  }
  return q;
}

/* Makes room for `more` bytes after *len in a growing buffer. */
static void reserve(uint8_t **buf, size_t *cap, size_t len, size_t more) {
  if (len + more <= *cap) return;
  size_t n = *cap ? *cap : 256;
  while (n < len + more) n *= 2;
  *buf = xrealloc(*buf, n);
  *cap = n;
}

uint64_t ws_splitmix(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Masking keys and upgrade keys, seeded once from the operating system. They need not be secret
 * here; they must differ between frames. */
static uint64_t next_random(void) {
  static uint64_t s;
  static bool seeded;
  if (!seeded) {
    FILE *f = fopen("/dev/urandom", "rb");
    if (!f || fread(&s, sizeof s, 1, f) != 1) s = (uint64_t)ws_now_us() ^ (uint64_t)getpid() << 32;
    if (f) fclose(f);
    seeded = true;
  }
  return ws_splitmix(&s);
}

/* ======================================== frames ======================================== */

size_t ws_frame_header(uint8_t hdr[14], int opcode, bool fin, const uint8_t *mask_key,
                       uint64_t len) {
  size_t n = 0;
  hdr[n++] = (uint8_t)((fin ? 0x80 : 0) | (opcode & 0x0F));
  uint8_t maskbit = mask_key ? 0x80 : 0;
  if (len < 126) {
    hdr[n++] = maskbit | (uint8_t)len;
  } else if (len <= 0xFFFF) {
    hdr[n++] = maskbit | 126;
    hdr[n++] = (uint8_t)(len >> 8);
    hdr[n++] = (uint8_t)len;
  } else {
    hdr[n++] = maskbit | 127;
    for (int i = 7; i >= 0; i--) hdr[n++] = (uint8_t)(len >> (8 * i));
  }
  if (mask_key) {
    memcpy(hdr + n, mask_key, 4);
    n += 4;
  }
  return n;
}

static void apply_mask(uint8_t *data, size_t len, const uint8_t key[4]) {
  for (size_t i = 0; i < len; i++) data[i] ^= key[i & 3];
}

/* Writes a frame at buf (room for 14 + len bytes); returns its length. */
static size_t encode_into(uint8_t *buf, int opcode, bool fin, const uint8_t *mask_key,
                          const void *payload, size_t len) {
  size_t h = ws_frame_header(buf, opcode, fin, mask_key, len);
  if (len) memcpy(buf + h, payload, len);
  if (mask_key) apply_mask(buf + h, len, mask_key);
  return h + len;
}

uint8_t *ws_frame_encode(int opcode, bool fin, const uint8_t *mask_key, const void *payload,
                         size_t len, size_t *outlen) {
  uint8_t *buf = xrealloc(NULL, 14 + len);
  *outlen = encode_into(buf, opcode, fin, mask_key, payload, len);
  return buf;
}

/* ===================================== the parser ===================================== */

void ws_parser_init(ws_parser *p, int masked, size_t max_message) {
  memset(p, 0, sizeof *p);
  p->masked = masked;
  p->max_message = max_message;
}

void ws_parser_free(ws_parser *p) {
  free(p->in);
  free(p->msg);
  memset(p, 0, sizeof *p);
}

void ws_parser_feed(ws_parser *p, const void *data, size_t len) {
  if (p->off > 0 && p->off == p->len) p->off = p->len = 0;
  /* Keep the buffer from creeping: move the unparsed tail down once it is past the middle. */
  if (p->off > 0 && p->off >= p->cap / 2) {
    memmove(p->in, p->in + p->off, p->len - p->off);
    p->len -= p->off;
    p->off = 0;
  }
  reserve(&p->in, &p->cap, p->len, len);
  memcpy(p->in + p->len, data, len);
  p->len += len;
}

static int parse_fail(ws_parser *p, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->error, sizeof p->error, fmt, ap);
  va_end(ap);
  p->failed = true;
  return -1;
}

/* Appends a fragment to the message being assembled, keeping it NUL-terminated. */
static void msg_append(ws_parser *p, const uint8_t *data, size_t len) {
  reserve(&p->msg, &p->msgcap, p->msglen, len + 1);
  if (len) memcpy(p->msg + p->msglen, data, len);
  p->msglen += len;
  p->msg[p->msglen] = 0;
}

int ws_parser_next(ws_parser *p, ws_msg *m) {
  if (p->failed) return -1;
  for (;;) {
    const uint8_t *b = p->in + p->off;
    size_t avail = p->len - p->off;
    if (avail < 2) return 0;
    bool fin = b[0] & 0x80;
    int op = b[0] & 0x0F;
    bool masked = b[1] & 0x80;
    uint64_t len = b[1] & 0x7F;
    size_t h = 2;
    if (b[0] & 0x70) return parse_fail(p, "reserved bits 0x%02x set", b[0] & 0x70);
    if (len == 126) {
      if (avail < 4) return 0;
      len = (uint64_t)b[2] << 8 | b[3];
      h = 4;
      if (len < 126) return parse_fail(p, "length %llu in 16 bits", (unsigned long long)len);
    } else if (len == 127) {
      if (avail < 10) return 0;
      len = 0;
      for (int i = 0; i < 8; i++) len = len << 8 | b[2 + i];
      h = 10;
      if (len >> 63) return parse_fail(p, "64-bit length with its top bit set");
      if (len <= 0xFFFF) return parse_fail(p, "length %llu in 64 bits", (unsigned long long)len);
    }
    if (p->masked >= 0 && masked != (p->masked == 1))
      return parse_fail(p, masked ? "a masked frame from the server" : "an unmasked frame");
    const uint8_t *key = masked ? b + h : NULL;
    if (masked) h += 4;
    bool control = op & 0x8;
    if (control && (!fin || len > 125))
      return parse_fail(p, "control frame 0x%x %s", op, !fin ? "fragmented" : "longer than 125");
    if (op != WS_OP_CONT && op != WS_OP_TEXT && op != WS_OP_BINARY && op != WS_OP_CLOSE &&
        op != WS_OP_PING && op != WS_OP_PONG)
      return parse_fail(p, "reserved opcode 0x%x", op);
    if (op == WS_OP_CONT && !p->msgop) return parse_fail(p, "a continuation with no message");
    if ((op == WS_OP_TEXT || op == WS_OP_BINARY) && p->msgop)
      return parse_fail(p, "a new message inside a fragmented one");
    uint64_t total = (op == WS_OP_CONT ? p->msglen : 0) + len;
    if (!control && p->max_message && total > p->max_message)
      return parse_fail(p, "message of %llu bytes or more, over %zu", (unsigned long long)total,
                        p->max_message);
    if (avail < h || avail - h < len) return 0;
    uint8_t *payload = p->in + p->off + h;
    if (key) {
      uint8_t k[4];
      memcpy(k, key, 4);
      apply_mask(payload, (size_t)len, k);
    }
    p->off += h + (size_t)len;
    if (control) {
      memcpy(p->ctrl, payload, (size_t)len);
      p->ctrl[len] = 0;
      if (op == WS_OP_CLOSE && len == 1) return parse_fail(p, "close frame of 1 byte");
      *m = (ws_msg){op, p->ctrl, (size_t)len};
      return 1;
    }
    if (op != WS_OP_CONT) {
      p->msgop = op;
      p->msglen = 0;
    }
    msg_append(p, payload, (size_t)len);
    if (fin) {
      *m = (ws_msg){p->msgop, p->msg, p->msglen};
      p->msgop = 0;
      return 1;
    }
  }
}

/* ====================================== sockets ====================================== */

static _Thread_local char source[64]; /* ws_source: the local address to connect from ("": any) */

void ws_source(const char *address) { snprintf(source, sizeof source, "%s", address ? address : ""); }

/* A non-blocking TCP socket connecting to host:port (the connect may be in progress), from the
 * address ws_source set; -1 on failure with last_error set. */
static int tcp_open(const char *host, int port) {
  struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res = NULL;
  char portstr[16];
  snprintf(portstr, sizeof portstr, "%d", port);
  int rc = getaddrinfo(host, portstr, &hints, &res);
  if (rc != 0) {
    set_last_error("%s: %s", host, gai_strerror(rc));
    return -1;
  }
  int fd = socket(res->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    set_last_error("socket: %s", strerror(errno));
    freeaddrinfo(res);
    return -1;
  }
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (source[0] && res->ai_family == AF_INET) {
    struct sockaddr_in from = {.sin_family = AF_INET};
    if (inet_pton(AF_INET, source, &from.sin_addr) != 1 || bind(fd, (struct sockaddr *)&from, sizeof from) != 0) {
      set_last_error("bind to %s: %s", source, strerror(errno));
      close(fd);
      freeaddrinfo(res);
      return -1;
    }
  }
  if (connect(fd, res->ai_addr, res->ai_addrlen) != 0 && errno != EINPROGRESS) {
    set_last_error("connect to %s:%d: %s", host, port, strerror(errno));
    close(fd);
    fd = -1;
  }
  freeaddrinfo(res);
  return fd;
}

/* Waits for fd to be ready for `events` until the deadline (ms of ws_now_ms); the revents, or 0
 * at the deadline. */
static int wait_fd(int fd, short events, int64_t deadline) {
  for (;;) {
    int64_t left = deadline - ws_now_ms();
    if (left < 0) left = 0;
    struct pollfd pfd = {.fd = fd, .events = events};
    int n = poll(&pfd, 1, (int)(left > 1000000 ? 1000000 : left));
    if (n > 0) return pfd.revents;
    if (n == 0 || (n < 0 && errno != EINTR)) return 0;
  }
}

/* =================================== connections =================================== */

struct ws_conn {
  int fd;
  ws_state state;
  bool tcp_up;        /* the TCP connect completed */
  bool upgraded;      /* the 101 response came and was right */
  bool close_sent;
  bool write_failed;  /* a send failed: nothing more goes out, but what came in is still read */
  bool read_done;     /* the socket's end (or an error) was read */
  int close_code;
  char accept[32];    /* the Sec-WebSocket-Accept the server must answer */
  char protocol[64];  /* the subprotocol the server chose */
  uint8_t *out;       /* queued bytes: out[outoff..outlen) */
  size_t outoff, outlen, outcap;
  ws_parser parser;
  void *user;
  char error[320];
};

/* Ends the connection with a reason: nothing more is read or sent. */
static void conn_fail(ws_conn *c, const char *fmt, ...) {
  c->read_done = true;
  if (c->state == WS_CLOSED) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->error, sizeof c->error, fmt, ap);
  va_end(ap);
  c->state = WS_CLOSED;
  if (!c->close_code) c->close_code = WS_CLOSE_ABNORMAL;
}

int ws_fd(const ws_conn *c) { return c->fd; }
ws_state ws_get_state(const ws_conn *c) { return c->state; }
const char *ws_error(const ws_conn *c) { return c->error; }
int ws_close_code(const ws_conn *c) { return c->close_code; }
const char *ws_subprotocol(const ws_conn *c) { return c->protocol; }
void ws_set_user(ws_conn *c, void *user) { c->user = user; }
void *ws_user(const ws_conn *c) { return c->user; }
size_t ws_pending(const ws_conn *c) { return c->outlen - c->outoff; }
bool ws_want_write(const ws_conn *c) {
  return !c->write_failed && !c->read_done && (!c->tcp_up || ws_pending(c) > 0);
}

/* Room for n more queued bytes; returns where they go. */
static uint8_t *queue_room(ws_conn *c, size_t n) {
  if (c->outoff == c->outlen) c->outoff = c->outlen = 0;
  if (c->outoff > 0 && c->outoff >= c->outcap / 2) {
    memmove(c->out, c->out + c->outoff, c->outlen - c->outoff);
    c->outlen -= c->outoff;
    c->outoff = 0;
  }
  reserve(&c->out, &c->outcap, c->outlen, n);
  return c->out + c->outlen;
}

void ws_accept_key(const char *key, char out[32]) {
  char in[128];
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int mdlen = 0;
  int n = snprintf(in, sizeof in, "%s258EAFA5-E914-47DA-95CA-C5AB0DC85B11", key);
  EVP_Digest(in, (size_t)n, md, &mdlen, EVP_sha1(), NULL);
  EVP_EncodeBlock((unsigned char *)out, md, (int)mdlen);
}

ws_conn *ws_open(const char *host, int port, const char *path, const char *protocol) {
  int fd = tcp_open(host, port);
  if (fd < 0) return NULL;
  ws_conn *c = xrealloc(NULL, sizeof *c);
  memset(c, 0, sizeof *c);
  c->fd = fd;
  c->state = WS_CONNECTING;
  ws_parser_init(&c->parser, 0, 0);
  unsigned char raw[16];
  for (int i = 0; i < 16; i += 8) {
    uint64_t r = next_random();
    memcpy(raw + i, &r, 8);
  }
  char key[32];
  EVP_EncodeBlock((unsigned char *)key, raw, 16);
  ws_accept_key(key, c->accept);
  char req[768];
  int n = snprintf(req, sizeof req,
                   "GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\n"
                   "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
                   "Sec-WebSocket-Version: 13\r\n%s%s%s\r\n",
                   path, host, port, key, protocol ? "Sec-WebSocket-Protocol: " : "",
                   protocol ? protocol : "", protocol ? "\r\n" : "");
  memcpy(queue_room(c, (size_t)n), req, (size_t)n);
  c->outlen += (size_t)n;
  return c;
}

int ws_flush(ws_conn *c) {
  if (c->write_failed || c->read_done) return -1;
  if (!c->tcp_up) {
    int err = 0;
    socklen_t len = sizeof err;
    if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) err = errno;
    if (err) {
      conn_fail(c, "connect: %s", strerror(err));
      return -1;
    }
    struct pollfd pfd = {.fd = c->fd, .events = POLLOUT};
    if (poll(&pfd, 1, 0) <= 0) return 1;
    c->tcp_up = true;
  }
  while (c->outoff < c->outlen) {
    ssize_t n = send(c->fd, c->out + c->outoff, c->outlen - c->outoff, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK) return 1;
      if (errno == EINTR) continue;
      /* The server may have closed after answering: what it sent is still to be read. */
      snprintf(c->error, sizeof c->error, "send: %s", strerror(errno));
      c->write_failed = true;
      return -1;
    }
    c->outoff += (size_t)n;
  }
  return 0;
}

int ws_send_raw(ws_conn *c, const void *bytes, size_t len) {
  if (c->state == WS_CLOSED || c->write_failed) return -1;
  memcpy(queue_room(c, len), bytes, len);
  c->outlen += len;
  return ws_flush(c) < 0 ? -1 : 0;
}

int ws_send_frame(ws_conn *c, int opcode, bool fin, const void *data, size_t len) {
  if (c->state == WS_CLOSED || c->write_failed) return -1;
  uint64_t r = next_random();
  uint8_t key[4];
  memcpy(key, &r, 4);
  c->outlen += encode_into(queue_room(c, 14 + len), opcode, fin, key, data, len);
  if (opcode == WS_OP_CLOSE) c->close_sent = true;
  return ws_flush(c) < 0 ? -1 : 0;
}

int ws_send_text(ws_conn *c, const char *data, size_t len) {
  return ws_send_frame(c, WS_OP_TEXT, true, data, len);
}

int ws_send_json(ws_conn *c, const json_t *msg) {
  char *s = json_dumps(msg, JSON_COMPACT);
  if (!s) abort();
  int rc = ws_send_text(c, s, strlen(s));
  free(s);
  return rc;
}

/* Checks the upgrade response once its header is complete: 1 when it was, 0 when more is needed,
 * -1 when it is wrong. */
static int take_upgrade(ws_conn *c) {
  ws_parser *p = &c->parser;
  const char *h = (const char *)p->in + p->off;
  size_t avail = p->len - p->off;
  const char *end = NULL;
  for (size_t i = 0; i + 3 < avail; i++)
    if (memcmp(h + i, "\r\n\r\n", 4) == 0) {
      end = h + i;
      break;
    }
  if (!end) {
    if (avail > 16384) conn_fail(c, "upgrade response: no end of header in 16 KB");
    return avail > 16384 ? -1 : 0;
  }
  size_t hlen = (size_t)(end - h);
  char *hdr = xrealloc(NULL, hlen + 1);
  memcpy(hdr, h, hlen);
  hdr[hlen] = 0;
  p->off += hlen + 4;
  int status = 0;
  bool upgrade = false, connection = false, accept = false;
  char *save = NULL;
  char *line = strtok_r(hdr, "\r\n", &save);
  if (line) sscanf(line, "HTTP/1.%*d %d", &status);
  char first[120];
  snprintf(first, sizeof first, "%s", line ? line : "");
  while ((line = strtok_r(NULL, "\r\n", &save))) {
    char *colon = strchr(line, ':');
    if (!colon) continue;
    *colon = 0;
    char *v = colon + 1;
    while (*v == ' ' || *v == '\t') v++;
    if (!strcasecmp(line, "Upgrade")) upgrade = !strcasecmp(v, "websocket");
    else if (!strcasecmp(line, "Connection")) connection = strcasestr(v, "upgrade") != NULL;
    else if (!strcasecmp(line, "Sec-WebSocket-Accept")) accept = !strcmp(v, c->accept);
    else if (!strcasecmp(line, "Sec-WebSocket-Protocol"))
      snprintf(c->protocol, sizeof c->protocol, "%s", v);
  }
  free(hdr);
  if (status != 101) conn_fail(c, "upgrade refused: %s", first);
  else if (!upgrade || !connection) conn_fail(c, "upgrade response without Upgrade/Connection");
  else if (!accept) conn_fail(c, "upgrade response: wrong or missing Sec-WebSocket-Accept");
  if (c->state == WS_CLOSED) return -1;
  c->upgraded = true;
  c->state = WS_OPEN;
  return 1;
}

void ws_feed(ws_conn *c, const void *data, size_t len) {
  ws_parser_feed(&c->parser, data, len);
  if (!c->upgraded && c->state == WS_CONNECTING) take_upgrade(c);
}

int ws_read(ws_conn *c) {
  if (c->read_done) return -1;
  uint8_t buf[65536];
  int total = 0;
  while (total < 4 * (int)sizeof buf) {
    ssize_t n = recv(c->fd, buf, sizeof buf, 0);
    if (n > 0) {
      ws_feed(c, buf, (size_t)n);
      total += (int)n;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    if (n == 0) conn_fail(c, "the server closed the connection");
    else conn_fail(c, "recv: %s", strerror(errno));
    return total > 0 ? total : -1;
  }
  return total;
}

int ws_next_message(ws_conn *c, ws_msg *m) {
  if (!c->upgraded) return c->state == WS_CLOSED ? -1 : 0;
  int r = ws_parser_next(&c->parser, m);
  if (r < 0) {
    char why[sizeof c->parser.error];
    memcpy(why, c->parser.error, sizeof why);
    conn_fail(c, "protocol: %s", why);
    return -1;
  }
  if (r == 0) return c->state == WS_CLOSED ? -1 : 0;
  if (m->opcode == WS_OP_PING && c->state == WS_OPEN) {
    ws_send_frame(c, WS_OP_PONG, true, m->data, m->len);
  } else if (m->opcode == WS_OP_CLOSE) {
    c->close_code = m->len >= 2 ? m->data[0] << 8 | m->data[1] : WS_CLOSE_NO_STATUS;
    if (c->state == WS_OPEN && !c->close_sent) ws_send_frame(c, WS_OP_CLOSE, true, m->data, m->len >= 2 ? 2 : 0);
    if (c->state == WS_OPEN) {
      snprintf(c->error, sizeof c->error, "closed by the server with %d", c->close_code);
      c->state = WS_CLOSED;
    }
  }
  return 1;
}

/* ================================== blocking calls ================================== */

/* Waits for the socket until the deadline and does what it is ready for: 1 when something
 * happened, 0 at the deadline, -1 when the connection ended. */
static int pump(ws_conn *c, int64_t deadline) {
  if (c->state == WS_CLOSED) return -1;
  int ev = wait_fd(c->fd, (short)(POLLIN | (ws_want_write(c) ? POLLOUT : 0)), deadline);
  if (!ev) return 0;
  if (ev & POLLOUT) ws_flush(c);
  if ((ev & (POLLIN | POLLHUP | POLLERR)) && ws_read(c) < 0) return -1;
  return 1;
}

ws_conn *ws_connect(const char *host, int port, const char *path, const char *protocol,
                    int timeout_ms) {
  ws_conn *c = ws_open(host, port, path, protocol);
  if (!c) return NULL;
  int64_t deadline = ws_now_ms() + timeout_ms;
  while (c->state == WS_CONNECTING) {
    int r = pump(c, deadline);
    if (r == 0) conn_fail(c, "no upgrade within %d ms", timeout_ms);
  }
  if (c->state != WS_OPEN) {
    set_last_error("ws://%s:%d%s: %s", host, port, path, c->error);
    ws_drop(c);
    return NULL;
  }
  return c;
}

int ws_recv(ws_conn *c, ws_msg *m, int timeout_ms) {
  int64_t deadline = ws_now_ms() + timeout_ms;
  for (;;) {
    /* A connection that ended may still hold whole messages: they come first. */
    int r = ws_next_message(c, m);
    if (r > 0 && (m->opcode == WS_OP_PING || m->opcode == WS_OP_PONG)) continue;
    if (r != 0) return r;
    if (pump(c, deadline) == 0) return 0;
  }
}

json_t *ws_recv_json(ws_conn *c, int timeout_ms) {
  ws_msg m;
  int r = ws_recv(c, &m, timeout_ms);
  if (r == 0) {
    snprintf(c->error, sizeof c->error, "no message within %d ms", timeout_ms);
    return NULL;
  }
  if (r < 0 || m.opcode != WS_OP_TEXT) {
    if (r > 0 && m.opcode != WS_OP_CLOSE)
      snprintf(c->error, sizeof c->error, "a frame of opcode %d, not text", m.opcode);
    return NULL;
  }
  json_error_t e;
  json_t *j = json_loadb((const char *)m.data, m.len, JSON_DECODE_ANY, &e);
  if (!j) snprintf(c->error, sizeof c->error, "not JSON (%.100s): %.80s", e.text, (const char *)m.data);
  return j;
}

int ws_wait_flush(ws_conn *c, int timeout_ms) {
  int64_t deadline = ws_now_ms() + timeout_ms;
  while (ws_want_write(c)) {
    int ev = wait_fd(c->fd, POLLOUT, deadline);
    if (!ev || ws_flush(c) < 0) return -1;
  }
  return c->state == WS_CLOSED ? -1 : 0;
}

void ws_close(ws_conn *c, int code) {
  if (!c) return;
  if (c->state == WS_OPEN && code && !c->close_sent) {
    uint8_t b[2] = {(uint8_t)(code >> 8), (uint8_t)code};
    ws_send_frame(c, WS_OP_CLOSE, true, b, 2);
    ws_wait_flush(c, 200);
  }
  ws_drop(c);
}

void ws_drop(ws_conn *c) {
  if (!c) return;
  close(c->fd);
  ws_parser_free(&c->parser);
  free(c->out);
  free(c);
}

/* ======================================== HTTP ======================================== */

/* Decodes a chunked body in place; its length, or -1 while it is incomplete. */
static long dechunk(char *b, size_t n) {
  size_t in = 0, out = 0;
  for (;;) {
    char *eol = memmem(b + in, n - in, "\r\n", 2);
    if (!eol) return -1;
    size_t sz = strtoul(b + in, NULL, 16);
    in = (size_t)(eol - b) + 2;
    if (sz == 0) return (long)out;
    if (n - in < sz + 2) return -1;
    memmove(b + out, b + in, sz);
    out += sz;
    in += sz + 2;
  }
}

/* The body of a complete response (moved to the start of buf) and its length, or -1 while more is
 * to come. *status is set from the status line. */
static long http_body(char *buf, size_t n, bool eof, int *status) {
  char *end = memmem(buf, n, "\r\n\r\n", 4);
  if (!end) return -1;
  *end = 0;
  sscanf(buf, "HTTP/1.%*d %d", status);
  bool chunked = strcasestr(buf, "\ntransfer-encoding: chunked") != NULL;
  const char *cl = strcasestr(buf, "\ncontent-length:");
  *end = '\r';
  size_t hlen = (size_t)(end - buf) + 4;
  long len;
  if (chunked) {
    char *copy = xrealloc(NULL, n - hlen + 1);
    memcpy(copy, buf + hlen, n - hlen);
    len = dechunk(copy, n - hlen);
    if (len >= 0) memcpy(buf, copy, (size_t)len);
    free(copy);
    return len;
  }
  if (cl) {
    len = strtol(cl + 16, NULL, 10);
    if (n - hlen < (size_t)len) return -1;
  } else {
    if (!eof) return -1;
    len = (long)(n - hlen);
  }
  memmove(buf, buf + hlen, (size_t)len);
  return len;
}

int http_get(const char *host, int port, const char *path, int timeout_ms, char **body,
             size_t *len) {
  int fd = tcp_open(host, port);
  if (fd < 0) return -1;
  int64_t deadline = ws_now_ms() + timeout_ms;
  char req[512];
  int rn = snprintf(req, sizeof req,
                    "GET %s HTTP/1.1\r\nHost: %s:%d\r\nConnection: close\r\n\r\n", path, host,
                    port);
  uint8_t *buf = NULL;
  size_t n = 0, cap = 0;
  int sent = 0, status = -1;
  long blen = -1;
  while (blen < 0) {
    int ev = wait_fd(fd, sent < rn ? POLLOUT : POLLIN, deadline);
    if (!ev) {
      set_last_error("GET %s: no answer within %d ms", path, timeout_ms);
      break;
    }
    if (sent < rn) {
      ssize_t k = send(fd, req + sent, (size_t)(rn - sent), MSG_NOSIGNAL);
      if (k < 0 && errno != EAGAIN && errno != EINTR) {
        set_last_error("GET %s: send: %s", path, strerror(errno));
        break;
      }
      if (k > 0) sent += (int)k;
      continue;
    }
    reserve(&buf, &cap, n, 65536);
    ssize_t k = recv(fd, buf + n, cap - n - 1, 0);
    if (k < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (k < 0) {
      set_last_error("GET %s: recv: %s", path, strerror(errno));
      break;
    }
    n += (size_t)k;
    blen = http_body((char *)buf, n, k == 0, &status);
    if (blen < 0 && k == 0) {
      set_last_error("GET %s: the connection ended before the response did", path);
      break;
    }
  }
  close(fd);
  if (blen < 0) {
    free(buf);
    return -1;
  }
  buf[blen] = 0;
  *body = (char *)buf;
  if (len) *len = (size_t)blen;
  return status;
}
