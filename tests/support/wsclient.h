/*
 * wsclient.h - a small WebSocket client (RFC 6455) and HTTP GET, for the server's tests and its
 * load benchmark.
 *
 * It is hand-written on purpose: the tests must send what a library client refuses to send (a
 * 10 MB message, a broken frame, garbage), and the load generator drives thousands of sockets
 * from one thread. So every socket is non-blocking, the frame parser is fed from a buffer, and
 * the blocking calls (ws_connect, ws_recv_json ...) are poll() loops over the non-blocking ones.
 *
 * With poll or epoll: ws_open starts a connection; watch ws_fd for reading, and for writing while
 * ws_want_write; on POLLOUT call ws_flush, on POLLIN ws_read, then take every message with
 * ws_next_message. Pings are answered and a close is echoed by ws_next_message itself.
 *
 * Not thread-safe: one thread owns a connection (ws_last_error is one static buffer).
 */
#ifndef PF_WSCLIENT_H
#define PF_WSCLIENT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
  WS_OP_CONT = 0x0,
  WS_OP_TEXT = 0x1,
  WS_OP_BINARY = 0x2,
  WS_OP_CLOSE = 0x8,
  WS_OP_PING = 0x9,
  WS_OP_PONG = 0xA,
};

/* Close codes a test looks for (RFC 6455 §7.4). */
enum {
  WS_CLOSE_NORMAL = 1000,
  WS_CLOSE_PROTOCOL = 1002,
  WS_CLOSE_NO_STATUS = 1005, /* a close frame without a code */
  WS_CLOSE_ABNORMAL = 1006,  /* the connection dropped without a close frame */
  WS_CLOSE_POLICY = 1008,
  WS_CLOSE_TOO_BIG = 1009,
};

/* ---- frames ---- */

/* Writes a frame header to hdr (at most 14 bytes) and returns its length: FIN when fin, the
 * opcode, the payload length in 7, 16 or 64 bits (the shortest that holds it), and the masking
 * key when mask_key is not NULL. */
size_t ws_frame_header(uint8_t hdr[14], int opcode, bool fin, const uint8_t *mask_key,
                       uint64_t len);
/* A whole frame (header and payload, masked with mask_key when it is not NULL) in a new buffer of
 * *outlen bytes; caller frees. */
uint8_t *ws_frame_encode(int opcode, bool fin, const uint8_t *mask_key, const void *payload,
                         size_t len, size_t *outlen);

/* One message: a data message (fragments joined) or a control frame. data is NUL-terminated
 * and stays valid until the next call on its parser or connection. */
typedef struct ws_msg {
  int opcode; /* WS_OP_TEXT, WS_OP_BINARY, WS_OP_CLOSE, WS_OP_PING or WS_OP_PONG */
  const uint8_t *data;
  size_t len;
} ws_msg;

/* An incremental frame parser: feed it bytes as they come, take whole messages out. */
typedef struct ws_parser {
  uint8_t *in;           /* bytes fed and not yet parsed: in[off..len) */
  size_t off, len, cap;
  uint8_t *msg;          /* the message being assembled from fragments (and the last delivered) */
  size_t msglen, msgcap;
  int msgop;             /* the opcode of the first fragment, 0 when none is open */
  uint8_t ctrl[126];     /* the last control frame's payload, NUL-terminated */
  int masked;            /* what frames must be: 0 unmasked (from a server), 1 masked, -1 either */
  size_t max_message;    /* a longer message is an error; 0: no limit */
  bool failed;
  char error[160];       /* why parsing failed */
} ws_parser;

void ws_parser_init(ws_parser *p, int masked, size_t max_message);
void ws_parser_free(ws_parser *p);
/* Appends bytes to the unparsed input. */
void ws_parser_feed(ws_parser *p, const void *data, size_t len);
/* Takes the next whole message or control frame: 1 when m is filled in, 0 when more bytes are
 * needed, -1 when the input breaks the protocol (p->error says how; the parser stays failed).
 * A control frame may come between the fragments of a message and is returned on its own. */
int ws_parser_next(ws_parser *p, ws_msg *m);

/* ---- connections ---- */

/* The Sec-WebSocket-Accept a server answers to a Sec-WebSocket-Key: base64(SHA-1(key + the
 * RFC's GUID)). */
void ws_accept_key(const char *key, char out[32]);

typedef struct ws_conn ws_conn;

/* The local address this thread's next connections (ws_open, ws_connect, http_get) come from, as
 * "another client" of a test ("127.0.0.2": every 127/8 address is loopback); NULL: any. */
void ws_source(const char *address);

typedef enum ws_state {
  WS_CONNECTING, /* TCP connect or the HTTP upgrade in progress */
  WS_OPEN,
  WS_CLOSED,     /* closed, or failed: ws_error says why */
} ws_state;

/* Starts connecting to ws://host:port/path (host an address or a name), without waiting; the
 * upgrade request is queued, naming the subprotocol when it is not NULL. NULL (ws_last_error says
 * why) only when no socket could be made. */
ws_conn *ws_open(const char *host, int port, const char *path, const char *protocol);
/* Connects and waits for the upgrade to complete, at most timeout_ms. NULL on failure, with the
 * reason in ws_last_error. */
ws_conn *ws_connect(const char *host, int port, const char *path, const char *protocol,
                    int timeout_ms);
const char *ws_last_error(void);

int ws_fd(const ws_conn *c);
ws_state ws_get_state(const ws_conn *c);
/* Why the connection failed or closed ("" while it is fine). */
const char *ws_error(const ws_conn *c);
/* The code of the close frame received; WS_CLOSE_NO_STATUS when it had none, WS_CLOSE_ABNORMAL
 * when the connection ended without one, 0 while none has come. */
int ws_close_code(const ws_conn *c);
/* The subprotocol the server chose ("" when none). */
const char *ws_subprotocol(const ws_conn *c);
void ws_set_user(ws_conn *c, void *user);
void *ws_user(const ws_conn *c);

/* Sends one frame, masked with a fresh key (any opcode, FIN or not: the tests send broken
 * sequences on purpose). The bytes are queued and as many written as the socket takes now.
 * 0 on success, -1 when the connection is closed. */
int ws_send_frame(ws_conn *c, int opcode, bool fin, const void *data, size_t len);
int ws_send_text(ws_conn *c, const char *data, size_t len);
/* A JSON value as one compact text message. */
int ws_send_json(ws_conn *c, const json_t *msg);
/* Queues bytes as they are, not framed. */
int ws_send_raw(ws_conn *c, const void *bytes, size_t len);
/* Bytes queued and not yet written. */
size_t ws_pending(const ws_conn *c);
/* Whether to watch for POLLOUT: connecting, or bytes queued. */
bool ws_want_write(const ws_conn *c);
/* Writes what the socket takes now (and completes a TCP connect). 0 when nothing is left queued,
 * 1 when some is, -1 when the connection failed. */
int ws_flush(ws_conn *c);
/* Reads what the socket has now (up to a few hundred KB, so that one socket cannot starve the
 * others) and feeds it to the connection: the number of bytes read, 0 when there were none, -1
 * when the connection ended or failed. */
int ws_read(ws_conn *c);
/* Feeds received bytes as if they came from the socket: the upgrade response first, then frames. */
void ws_feed(ws_conn *c, const void *data, size_t len);
/* The next message received and parsed: 1 when m is filled in (data, close and ping/pong frames
 * alike; a ping is answered and a close echoed before it is returned), 0 when none is complete,
 * -1 when the connection is closed or broke the protocol. */
int ws_next_message(ws_conn *c, ws_msg *m);

/* Blocking: the next data message or close frame (pings and pongs are skipped), waiting at most
 * timeout_ms. 1 with m filled in, 0 on timeout, -1 when the connection is closed or failed. */
int ws_recv(ws_conn *c, ws_msg *m, int timeout_ms);
/* Blocking: the next text message as JSON; NULL on timeout, close, failure or a message that is
 * not JSON (ws_error says which). Caller decrefs. */
json_t *ws_recv_json(ws_conn *c, int timeout_ms);
/* Blocking: writes everything queued, waiting at most timeout_ms; 0 when done. */
int ws_wait_flush(ws_conn *c, int timeout_ms);
/* Sends a close frame with code (when the connection is open and code is not 0), closes the
 * socket and frees the connection. */
void ws_close(ws_conn *c, int code);
/* Closes the socket without a close frame, as a dropped network would, and frees the connection. */
void ws_drop(ws_conn *c);

/* ---- HTTP ---- */

/* GET http://host:port/path with Connection: close. Returns the status code and the body in
 * *body (NUL-terminated, caller frees, *len its length when len is not NULL), or -1 on failure
 * (ws_last_error says why). Reads Content-Length, chunked and close-delimited bodies. */
int http_get(const char *host, int port, const char *path, int timeout_ms, char **body,
             size_t *len);

/* The next output of SplitMix64 whose state is *state: masking keys here, and the random legal
 * moves of the tests and the load benchmark (seeded by them, so that a run can be repeated). */
uint64_t ws_splitmix(uint64_t *state);

/* Milliseconds of CLOCK_MONOTONIC. */
int64_t ws_now_ms(void);
/* Microseconds of CLOCK_MONOTONIC. */
int64_t ws_now_us(void);

#endif
