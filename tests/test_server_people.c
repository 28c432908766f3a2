/*
 * test_server_people.c - playing with people on `pilfer serve` (docs/protocol.md): names, chat,
 * the lobby's list pushed to subscribers, rematches, clocks and presence.
 * Usage: test_server_people PILFER [TEST...] (tests/support/srvtest.h).
 */
#define _GNU_SOURCE /* strcasestr */
#include "srvtest.h"

#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/record.h"
#include "games/registry.h"

/* The first message of this type (and table, when tid > 0) within ms; NULL if none. */
static json_t *wait_type(ws_conn *c, const char *type, long long tid, int ms) {
  for (int64_t end = ws_now_ms() + ms; ws_now_ms() < end;) {
    json_t *m = ws_recv_json(c, 100);
    if (!m) continue;
    if (jstr(m, "type") && !strcmp(jstr(m, "type"), type) && !json_object_get(m, "id") &&
        (tid <= 0 || jint(m, "table") == tid))
      return m;
    json_decref(m);
  }
  return NULL;
}

/* The name a seat has in a message's "seats" (NULL: none). */
static const char *seat_name(const json_t *m, int seat) {
  return jstr(json_array_get(json_object_get(m, "seats"), (size_t)seat), "name");
}

/* Names (docs/protocol.md, "Names and chat text"): checked at join, resume and name, stored with
 * the seat, shown in states and lists, and never more than text: markup is kept as written. */
static void names(void **st) {
  (void)st;
  ws_conn *a = connect_or_fail(&server), *b = connect_or_fail(&server);
  json_t *r = ask(a, "\"type\": \"create\", \"game\": \"thief\", \"players\": 2");
  long long tid = jint(r, "table");
  json_decref(r);
  char long_name[200];
  memset(long_name, 'n', 25);
  long_name[25] = 0;
  want_code(ask(a, "\"type\": \"join\", \"table\": %lld, \"name\": \"%s\"", tid, long_name), "bad_name", "25 characters");
  want_code(ask(a, "\"type\": \"join\", \"table\": %lld, \"name\": \"   \"", tid), "bad_name", "white space only");
  want_code(ask(a, "\"type\": \"join\", \"table\": %lld, \"name\": \"a\\u0007b\"", tid), "bad_name", "a bell");
  want_code(ask(a, "\"type\": \"join\", \"table\": %lld, \"name\": \"evil\\u202egnp\"", tid), "bad_name", "a bidi override");
  want_code(ask(a, "\"type\": \"join\", \"table\": %lld, \"name\": 7", tid), "bad_message", "a number for a name");
  /* 24 characters of two bytes each are a name; invalid UTF-8 is no message at all */
  char e24[100] = "";
  for (int i = 0; i < 24; i++) strcat(e24, "\xc3\xa9");
  ws_conn *x = connect_or_fail(&server); /* a text frame that is not UTF-8: closed (1007), nothing else */
  char bad_text[120];
  snprintf(bad_text, sizeof bad_text, "{\"type\": \"join\", \"table\": %lld, \"name\": \"\xff\xfe\"}", tid);
  ws_send_text(x, bad_text, strlen(bad_text));
  keep_reading(x, 500);
  ws_drop(x);
  r = ask(a, "\"type\": \"join\", \"table\": %lld, \"seat\": 0, \"name\": \"  <img src=x onerror=alert(1)>\"", tid);
  want_code(r, "bad_name", "28 characters of markup");
  r = ask(a, "\"type\": \"join\", \"table\": %lld, \"seat\": 0, \"name\": \"  <b>Ann</b> \"", tid);
  want_type(r, "joined", "a join with a name");
  char tok_a[40];
  snprintf(tok_a, sizeof tok_a, "%s", jstr(r, "token"));
  json_decref(r);
  r = ask(b, "\"type\": \"join\", \"table\": %lld, \"seat\": 1, \"name\": \"%s\"", tid, e24);
  want_type(r, "joined", "a join with 24 é");
  char tok_b[40];
  snprintf(tok_b, sizeof tok_b, "%s", jstr(r, "token"));
  json_decref(r);
  json_t *m = wait_type(a, "state", tid, WAIT_MS);
  while (m && seat_name(m, 1) == NULL) json_decref(m), m = wait_type(a, "state", tid, WAIT_MS);
  if (!m || !seat_name(m, 0) || strcmp(seat_name(m, 0), "<b>Ann</b>") || strcmp(seat_name(m, 1), e24))
    fail_msg("the seats' names, trimmed and kept as written: %s", dump(m));
  json_decref(m);
  /* renamed: everyone's state shows it, and the list; a bad name changes nothing */
  want_code(ask(b, "\"type\": \"name\", \"table\": %lld, \"token\": \"%s\", \"name\": \"\"", tid, tok_b), "bad_name", "an empty name");
  want_code(ask(b, "\"type\": \"name\", \"table\": %lld, \"token\": \"%s\", \"name\": \"x\"", tid, tok_a + 1), "bad_token", "another's token");
  r = ask(b, "\"type\": \"name\", \"table\": %lld, \"token\": \"%s\", \"name\": \"Bea\"", tid, tok_b);
  want_type(r, "named", "name");
  json_decref(r);
  m = wait_type(a, "state", tid, WAIT_MS);
  while (m && (!seat_name(m, 1) || strcmp(seat_name(m, 1), "Bea"))) json_decref(m), m = wait_type(a, "state", tid, WAIT_MS);
  if (!m) fail_msg("seat 0 never saw seat 1 renamed Bea");
  json_decref(m);
  char path[64];
  snprintf(path, sizeof path, "/api/tables/%lld", tid);
  json_t *sum = http_json(&server, path, 200);
  if (strcmp(seat_name(sum, 0), "<b>Ann</b>") || strcmp(seat_name(sum, 1), "Bea")) fail_msg("the summary's names: %s", dump(sum));
  json_decref(sum);
  /* a resume keeps the name, or renames */
  ws_close(b, WS_CLOSE_NORMAL);
  b = connect_or_fail(&server);
  r = ask(b, "\"type\": \"resume\", \"table\": %lld, \"token\": \"%s\", \"name\": \"Bea again\"", tid, tok_b);
  want_type(r, "joined", "a resume with a name");
  json_decref(r);
  m = wait_type(b, "state", tid, WAIT_MS);
  if (!m || strcmp(seat_name(m, 1), "Bea again")) fail_msg("resume's name: %s", dump(m));
  json_decref(m);
  ws_close(a, WS_CLOSE_NORMAL);
  ws_close(b, WS_CLOSE_NORMAL);
  alive_or_fail(&server, "names");
}

/* Chat (docs/protocol.md, "chat"): each channel to its people, stored (told again on resume),
 * checked, rate limited, and markup kept as mere text. */
static void chat(void **st) {
  (void)st;
  ws_conn *a = connect_or_fail(&server), *w = connect_or_fail(&server), *w2 = connect_or_fail(&server);
  ws_source("127.0.0.3"); /* the chat's rate is an address's: b's own, for the flood below */
  ws_conn *b = connect_or_fail(&server);
  ws_source(NULL);
  json_t *r = ask(a, "\"type\": \"create\", \"game\": \"thief\", \"players\": 2, \"spectator_chat\": true");
  long long tid = jint(r, "table");
  json_decref(r);
  r = ask(a, "\"type\": \"create\", \"game\": \"thief\", \"players\": 2");
  long long closed = jint(r, "table");
  json_decref(r);
  want_code(ask(a, "\"type\": \"create\", \"game\": \"thief\", \"spectator_chat\": 1"), "bad_message", "spectator_chat 1");
  char tok_a[40], tok_b[40];
  r = ask(a, "\"type\": \"join\", \"table\": %lld, \"seat\": 0, \"name\": \"Ann\"", tid);
  snprintf(tok_a, sizeof tok_a, "%s", jstr(r, "token"));
  json_decref(r);
  r = ask(b, "\"type\": \"join\", \"table\": %lld, \"seat\": 1", tid);
  snprintf(tok_b, sizeof tok_b, "%s", jstr(r, "token"));
  json_decref(r);
  json_decref(ask(w, "\"type\": \"watch\", \"table\": %lld", tid));
  json_decref(ask(w2, "\"type\": \"watch\", \"table\": %lld", closed));
  const char *markup = "<img src=x onerror=alert(1)>";
  r = ask(a, "\"type\": \"chat\", \"table\": %lld, \"token\": \"%s\", \"text\": \" %s \"", tid, tok_a, markup);
  want_type(r, "said", "a player's chat");
  json_decref(r);
  json_t *m = wait_type(b, "chat", tid, WAIT_MS);
  if (!m || strcmp(jstr(m, "channel"), "players") || jint(m, "seat") != 0 || strcmp(jstr(m, "name"), "Ann") ||
      strcmp(jstr(m, "text"), markup))
    fail_msg("seat 1 is told seat 0's message as written: %s", dump(m));
  json_decref(m);
  r = ask(w, "\"type\": \"chat\", \"table\": %lld, \"text\": \"from the stands\", \"name\": \"Cy\"", tid);
  want_type(r, "said", "a spectator's chat");
  json_decref(r);
  /* the spectator never hears the players, the players never the spectators, while it plays */
  for (json_t *x; (x = ws_recv_json(w, 300));) {
    if (jstr(x, "type") && !strcmp(jstr(x, "type"), "chat") && !strcmp(jstr(x, "channel"), "players"))
      fail_msg("a spectator was sent the players' chat: %s", dump(x));
    json_decref(x);
  }
  for (json_t *x; (x = ws_recv_json(b, 300));) {
    if (jstr(x, "type") && !strcmp(jstr(x, "type"), "chat") && !strcmp(jstr(x, "channel"), "spectators"))
      fail_msg("a player was sent the spectators' chat: %s", dump(x));
    json_decref(x);
  }
  want_code(ask(w2, "\"type\": \"chat\", \"table\": %lld, \"text\": \"hi\"", closed), "chat_closed", "no spectators' chat");
  want_code(ask(b, "\"type\": \"chat\", \"table\": %lld, \"text\": \"hi\"", closed), "not_watching", "no token, not watching");
  char nul[160]; /* a NUL in a name: not a message jansson reads (no id to answer) */
  snprintf(nul, sizeof nul, "{\"type\": \"chat\", \"table\": %lld, \"text\": \"hi\", \"name\": \"x\\u0000y\"}", tid);
  ws_send_text(w, nul, strlen(nul));
  json_t *e = wait_type(w, "error", 0, WAIT_MS);
  if (!e || strcmp(jstr(e, "code"), "bad_json")) fail_msg("a NUL in a name: %s", dump(e));
  json_decref(e);
  /* over-long, empty, control characters, not a string */
  static char big[11000];
  memset(big, 'm', 10000);
  big[10000] = 0;
  want_code(ask(b, "\"type\": \"chat\", \"table\": %lld, \"token\": \"%s\", \"text\": \"%s\"", tid, tok_b, big), "bad_chat", "10000 characters");
  memset(big, 'm', 301);
  big[301] = 0;
  want_code(ask(b, "\"type\": \"chat\", \"table\": %lld, \"token\": \"%s\", \"text\": \"%s\"", tid, tok_b, big), "bad_chat", "301 characters");
  want_code(ask(b, "\"type\": \"chat\", \"table\": %lld, \"token\": \"%s\", \"text\": \" \\n \"", tid, tok_b), "bad_chat", "white space");
  want_code(ask(b, "\"type\": \"chat\", \"table\": %lld, \"token\": \"%s\", \"text\": \"a\\nb\"", tid, tok_b), "bad_chat", "a new line");
  want_code(ask(b, "\"type\": \"chat\", \"table\": %lld, \"token\": \"%s\"", tid, tok_b), "bad_message", "no text");
  /* a flood: 5 at once, then chat_flood, and the server serves on */
  int said = 0, flooded = 0;
  for (int i = 0; i < 12; i++) {
    r = ask(b, "\"type\": \"chat\", \"table\": %lld, \"token\": \"%s\", \"text\": \"spam %d\"", tid, tok_b, i);
    said += jstr(r, "type") && !strcmp(jstr(r, "type"), "said");
    flooded += jstr(r, "code") && !strcmp(jstr(r, "code"), "chat_flood");
    json_decref(r);
  }
  if (said < 5 || said > 6 || flooded != 12 - said) fail_msg("a chat flood: %d said, %d refused chat_flood", said, flooded);
  /* stored: a new connection of seat 0 is told the players' channel, markup and all */
  ws_close(a, WS_CLOSE_NORMAL);
  a = connect_or_fail(&server);
  r = ask(a, "\"type\": \"resume\", \"table\": %lld, \"token\": \"%s\"", tid, tok_a);
  json_decref(r);
  m = wait_type(a, "chat_log", tid, WAIT_MS);
  json_t *msgs = json_object_get(m, "messages");
  if (!m || json_array_size(msgs) != (size_t)(1 + said) || strcmp(jstr(json_array_get(msgs, 0), "text"), markup))
    fail_msg("the chat told again on resume (%d messages of the players): %s", 1 + said, dump(m));
  for (size_t i = 0; i < json_array_size(msgs); i++)
    if (strcmp(jstr(json_array_get(msgs, i), "channel"), "players")) fail_msg("a seat was told the spectators' chat: %s", dump(m));
  json_decref(m);
  ws_close(a, WS_CLOSE_NORMAL);
  ws_close(b, WS_CLOSE_NORMAL);
  ws_close(w, WS_CLOSE_NORMAL);
  ws_close(w2, WS_CLOSE_NORMAL);
  alive_or_fail(&server, "chat");
}

/* The lobby's list, pushed (docs/protocol.md, "subscribe"): filtered, paged, and sent again as
 * tables change, with no request. */
static void lobby_list(void **st) {
  (void)st;
  ws_conn *sub = connect_or_fail(&server), *c = connect_or_fail(&server);
  want_code(ask(sub, "\"type\": \"subscribe\", \"filter\": \"nope\""), "bad_message", "an unknown filter");
  want_code(ask(sub, "\"type\": \"subscribe\", \"page\": -1"), "bad_message", "a negative page");
  want_code(ask(sub, "\"type\": \"subscribe\", \"mine\": [\"7\"]"), "bad_message", "mine of strings");
  json_t *r = ask(sub, "\"type\": \"subscribe\", \"filter\": \"open\"");
  want_type(r, "tables", "subscribe");
  if (jint(r, "page_size") != 20 || (long long)json_array_size(json_object_get(r, "tables")) > 20) fail_msg("a page: %s", dump(r));
  json_decref(r);
  r = ask(c, "\"type\": \"create\", \"game\": \"steal-the-pile\", \"players\": 2, \"seats\": [\"open\", \"random\"]");
  long long tid = jint(r, "table");
  json_decref(r);
  /* pushed: the new table is first among the open ones */
  json_t *m = NULL;
  for (int64_t end = ws_now_ms() + 5000; ws_now_ms() < end && !m;) {
    m = wait_type(sub, "tables", 0, 1000);
    json_t *first = m ? json_array_get(json_object_get(m, "tables"), 0) : NULL;
    if (m && (!first || jint(first, "table") != tid)) json_decref(m), m = NULL;
  }
  if (!m) fail_msg("no pushed page with table %lld first among the open tables", tid);
  if (strcmp(jstr(m, "filter"), "open")) fail_msg("the push's filter: %s", dump(m));
  json_decref(m);
  /* seated, it leaves the open ones (pushed again), and shows in "playing" */
  r = ask(c, "\"type\": \"join\", \"table\": %lld, \"seat\": 0", tid);
  json_decref(r);
  bool gone = false;
  for (int64_t end = ws_now_ms() + 5000; ws_now_ms() < end && !gone;) {
    m = wait_type(sub, "tables", 0, 1000);
    if (!m) continue;
    gone = true;
    size_t i;
    json_t *x;
    json_array_foreach(json_object_get(m, "tables"), i, x) gone &= jint(x, "table") != tid && !strcmp(jstr(x, "status"), "waiting");
    json_decref(m);
  }
  if (!gone) fail_msg("table %lld, seated, is still pushed among the open ones", tid);
  r = ask(sub, "\"type\": \"subscribe\", \"filter\": \"mine\", \"mine\": [%lld, 999999]", tid);
  if (json_array_size(json_object_get(r, "tables")) != 1 || jint(json_array_get(json_object_get(r, "tables"), 0), "table") != tid)
    fail_msg("mine: %s", dump(r));
  json_decref(r);
  /* pages: the second page of all is the tables after the first 20 */
  r = ask(sub, "\"type\": \"subscribe\", \"filter\": \"all\", \"page\": 0");
  json_t *r1 = ask(sub, "\"type\": \"subscribe\", \"filter\": \"all\", \"page\": 1");
  if (jint(r, "total") > 20 && (!json_array_size(json_object_get(r1, "tables")) ||
                                jint(json_array_get(json_object_get(r1, "tables"), 0), "table") ==
                                    jint(json_array_get(json_object_get(r, "tables"), 0), "table")))
    fail_msg("page 1 of %lld tables: %s", jint(r, "total"), dump(r1));
  if (jint(r, "pages") != (jint(r, "total") + 19) / 20) fail_msg("pages: %s", dump(r));
  json_decref(r);
  json_decref(r1);
  ws_close(sub, WS_CLOSE_NORMAL);
  ws_close(c, WS_CLOSE_NORMAL);
  alive_or_fail(&server, "the lobby's list");
}

/* Expired waiting tables leave a subscriber's list, pushed. */
static void lobby_expiry(void **st) {
  (void)st;
  const char *args[] = {"--limit", "waiting_expiry=2", NULL};
  srv s;
  own_server(&s, "expiry", args);
  ws_conn *sub = connect_or_fail(&s), *c = connect_or_fail(&s);
  json_t *r = ask(c, "\"type\": \"create\", \"game\": \"thief\", \"players\": 2");
  json_decref(r);
  r = ask(sub, "\"type\": \"subscribe\", \"filter\": \"open\"");
  if (jint(r, "total") != 1) fail_msg("one open table: %s", dump(r));
  json_decref(r);
  json_t *m = wait_type(sub, "tables", 0, 6000);
  if (!m || jint(m, "total") != 0) fail_msg("the expired table is still listed: %s", dump(m));
  json_decref(m);
  ws_close(sub, WS_CLOSE_NORMAL);
  ws_close(c, WS_CLOSE_NORMAL);
  stop_own(&s);
}

/* A table being played that nobody is at and where nothing moved for `abandoned_after` seconds
 * says so in its summary and leaves the `playing` list; someone back brings it back. */
static void lobby_abandoned(void **st) {
  (void)st;
  const char *args[] = {"--limit", "abandoned_after=2", NULL};
  srv s;
  own_server(&s, "abandoned", args);
  ws_conn *sub = connect_or_fail(&s), *a = connect_or_fail(&s), *b = connect_or_fail(&s);
  json_t *r = ask(a, "\"type\": \"create\", \"game\": \"thief\", \"players\": 2");
  long long tid = jint(r, "table");
  json_decref(r);
  char tok[40];
  r = ask(a, "\"type\": \"join\", \"table\": %lld, \"seat\": 0", tid);
  snprintf(tok, sizeof tok, "%s", jstr(r, "token"));
  json_decref(r);
  json_decref(ask(b, "\"type\": \"join\", \"table\": %lld, \"seat\": 1", tid));
  r = ask(sub, "\"type\": \"subscribe\", \"filter\": \"playing\"");
  if (jint(r, "total") != 1 || json_object_get(json_array_get(json_object_get(r, "tables"), 0), "abandoned"))
    fail_msg("one table being played, not abandoned: %s", dump(r));
  json_decref(r);
  /* a connection at the table keeps it listed, however long nothing moves */
  json_t *m = wait_type(sub, "tables", 0, 3500);
  if (m && jint(m, "total") != 1) fail_msg("a table with its players there left the list: %s", dump(m));
  json_decref(m);
  ws_close(a, WS_CLOSE_NORMAL);
  ws_close(b, WS_CLOSE_NORMAL);
  m = wait_type(sub, "tables", 0, 6000);
  while (m && jint(m, "total") != 0) json_decref(m), m = wait_type(sub, "tables", 0, 6000);
  if (!m) fail_msg("the abandoned table is still in the playing list");
  json_decref(m);
  char path[64];
  snprintf(path, sizeof path, "/api/tables/%lld", tid);
  json_t *sum = http_json(&s, path, 200);
  if (!json_is_true(json_object_get(sum, "abandoned")) || strcmp(jstr(sum, "status"), "playing"))
    fail_msg("the summary of an abandoned table: %s", dump(sum));
  json_decref(sum);
  a = connect_or_fail(&s);
  json_decref(ask(a, "\"type\": \"resume\", \"table\": %lld, \"token\": \"%s\"", tid, tok));
  m = wait_type(sub, "tables", 0, 6000);
  while (m && jint(m, "total") != 1) json_decref(m), m = wait_type(sub, "tables", 0, 6000);
  if (!m || json_object_get(json_array_get(json_object_get(m, "tables"), 0), "abandoned"))
    fail_msg("a player back: the table is being played again: %s", dump(m));
  json_decref(m);
  ws_close(a, WS_CLOSE_NORMAL);
  ws_close(sub, WS_CLOSE_NORMAL);
  stop_own(&s);
}

/* Plays random legal moves for the n connections (seats) of table tid until it is over. */
static void play_out(ws_conn **c, char (*tok)[40], int n, long long tid) {
  for (int i = 0; i < n; i++) { /* a state to start from: the ones before may have been read by ask */
    json_t *res = json_pack("{s:s, s:I, s:s}", "type", "resume", "table", (json_int_t)tid, "token", tok[i]);
    ws_send_json(c[i], res);
    json_decref(res);
  }
  for (int64_t end = ws_now_ms() + 60000; ws_now_ms() < end;) {
    bool over = false;
    for (int i = 0; i < n; i++) {
      json_t *m = ws_recv_json(c[i], 20);
      if (!m) continue;
      if (jstr(m, "type") && !strcmp(jstr(m, "type"), "state") && jint(m, "table") == tid) {
        over |= !strcmp(jstr(m, "status"), "over");
        json_t *legal = json_object_get(m, "legal");
        if (json_array_size(legal)) {
          json_t *mv = json_pack("{s:s, s:I, s:s, s:O, s:O, s:i}", "type", "move", "table", (json_int_t)tid, "token", tok[i],
                                 "move", json_array_get(legal, rnd((uint32_t)json_array_size(legal))), "ply",
                                 json_object_get(m, "ply"), "id", next_id++);
          ws_send_json(c[i], mv);
          json_decref(mv);
        }
      }
      json_decref(m);
    }
    if (over) return;
  }
  fail_msg("table %lld: not over within 60 s", tid);
}

/* Rematch (docs/protocol.md, "rematch"): offered, declined, offered again and accepted by every
 * person (the bot at once): a new table with the same people one seat on, told to everyone. */
static void rematch(void **st) {
  (void)st;
  ws_conn *c[2] = {connect_or_fail(&server), connect_or_fail(&server)}, *w = connect_or_fail(&server);
  char tok[2][40];
  json_t *r = ask(c[0], "\"type\": \"create\", \"game\": \"steal-the-pile\", \"players\": 3, \"seats\": [\"open\", \"open\", \"random\"], "
                        "\"takeover\": {\"after\": 600, \"bot\": \"greedy\"}, \"spectator_chat\": true");
  long long tid = jint(r, "table");
  json_decref(r);
  const char *names[2] = {"Ann", "Bea"};
  for (int i = 0; i < 2; i++) {
    r = ask(c[i], "\"type\": \"join\", \"table\": %lld, \"seat\": %d, \"name\": \"%s\"", tid, i, names[i]);
    snprintf(tok[i], sizeof tok[i], "%s", jstr(r, "token"));
    json_decref(r);
  }
  want_code(ask(c[0], "\"type\": \"rematch\", \"table\": %lld, \"token\": \"%s\"", tid, tok[0]), "not_over", "a rematch mid-game");
  json_decref(ask(w, "\"type\": \"watch\", \"table\": %lld", tid));
  play_out(c, tok, 2, tid);
  want_code(ask(c[0], "\"type\": \"rematch\", \"table\": %lld, \"token\": \"%s\", \"accept\": \"yes\"", tid, tok[0]), "bad_message", "accept: a string");
  want_code(ask(c[0], "\"type\": \"rematch\", \"table\": %lld, \"token\": \"%s\", \"accept\": false", tid, tok[0]), "no_offer", "a decline of nothing");
  r = ask(c[0], "\"type\": \"rematch\", \"table\": %lld, \"token\": \"%s\"", tid, tok[0]);
  if (strcmp(jstr(r, "status"), "offered") || strcmp(dump(json_object_get(r, "accepted")), "[0,2]") ||
      strcmp(dump(json_object_get(r, "waiting")), "[1]"))
    fail_msg("an offer, the bot accepting at once: %s", dump(r));
  json_decref(r);
  json_t *m = wait_type(c[1], "rematch", tid, WAIT_MS);
  if (!m || strcmp(jstr(m, "status"), "offered") || jint(m, "from") != 0) fail_msg("seat 1 is told the offer: %s", dump(m));
  json_decref(m);
  r = ask(c[1], "\"type\": \"rematch\", \"table\": %lld, \"token\": \"%s\", \"accept\": false", tid, tok[1]);
  json_decref(r);
  m = wait_type(c[0], "rematch", tid, WAIT_MS);
  if (!m || strcmp(jstr(m, "status"), "declined") || jint(m, "by") != 1) fail_msg("seat 0 is told the decline: %s", dump(m));
  json_decref(m);
  json_decref(ask(c[0], "\"type\": \"rematch\", \"table\": %lld, \"token\": \"%s\"", tid, tok[0]));
  r = ask(c[1], "\"type\": \"rematch\", \"table\": %lld, \"token\": \"%s\", \"accept\": true", tid, tok[1]);
  if (strcmp(jstr(r, "status"), "made") || jint(r, "seat") != 0) fail_msg("all accepted: %s", dump(r));
  long long nt = jint(r, "new_table");
  json_decref(r);
  m = wait_type(c[0], "rematch", tid, WAIT_MS);
  if (!m || strcmp(jstr(m, "status"), "made") || jint(m, "new_table") != nt || jint(m, "seat") != 2) fail_msg("seat 0 is moved: %s", dump(m));
  json_decref(m);
  m = wait_type(w, "rematch", tid, WAIT_MS); /* offered, declined, offered, then made */
  while (m && strcmp(jstr(m, "status"), "made")) json_decref(m), m = wait_type(w, "rematch", tid, WAIT_MS);
  if (!m || jint(m, "new_table") != nt || json_object_get(m, "seat")) fail_msg("the spectator is told the new table: %s", dump(m));
  json_decref(m);
  /* the new table: same options, takeover and chat, the people one seat on, already playing */
  char path[64];
  snprintf(path, sizeof path, "/api/tables/%lld", nt);
  json_t *sum = http_json(&server, path, 200);
  if (strcmp(jstr(sum, "status"), "playing") || !seat_name(sum, 0) || strcmp(seat_name(sum, 0), "Bea") ||
      !seat_name(sum, 2) || strcmp(seat_name(sum, 2), "Ann") || strcmp(jstr(json_array_get(json_object_get(sum, "seats"), 1), "bot"), "random") ||
      jint(json_object_get(sum, "takeover"), "after") != 600 || !json_is_true(json_object_get(sum, "spectator_chat")))
    fail_msg("the rematch's table: %s", dump(sum));
  json_decref(sum);
  r = ask(c[0], "\"type\": \"rematch\", \"table\": %lld, \"token\": \"%s\", \"accept\": false", tid, tok[0]);
  if (strcmp(jstr(r, "status"), "made") || jint(r, "new_table") != nt) fail_msg("a rematch once made is that table: %s", dump(r));
  json_decref(r);
  /* each plays its new seat with its token */
  r = ask(c[0], "\"type\": \"resume\", \"table\": %lld, \"token\": \"%s\"", nt, tok[0]);
  if (jint(r, "seat") != 2) fail_msg("resume of the rematch: %s", dump(r));
  json_decref(r);
  r = ask(c[1], "\"type\": \"resume\", \"table\": %lld, \"token\": \"%s\"", nt, tok[1]);
  if (jint(r, "seat") != 0) fail_msg("resume of the rematch: %s", dump(r));
  json_decref(r);
  char ntok[2][40];
  memcpy(ntok[0], tok[1], 40), memcpy(ntok[1], tok[0], 40);
  ws_conn *nc[2] = {c[1], c[0]};
  play_out(nc, ntok, 2, nt);
  for (int i = 0; i < 2; i++) ws_close(c[i], WS_CLOSE_NORMAL);
  ws_close(w, WS_CLOSE_NORMAL);
  alive_or_fail(&server, "rematch");
}

/* Clocks (docs/protocol.md, "create"): a seat's time runs while it is asked; out of it, the table
 * chose a loss (the game stops, the others win, the record has no result but why it stopped) or
 * the takeover bot for the rest of the game (the player cannot take the seat back). */
static void clocks(void **st) {
  (void)st;
  ws_conn *a = connect_or_fail(&server), *b = connect_or_fail(&server);
  const char *bad_clocks[] = {"{\"minutes\": 0}", "{\"minutes\": 601}", "{\"seconds\": 9}", "{\"minutes\": 1, \"seconds\": 60}",
                              "{\"minutes\": 1, \"on_time\": \"draw\"}", "5", "{}"};
  for (size_t i = 0; i < sizeof bad_clocks / sizeof *bad_clocks; i++)
    want_code(ask(a, "\"type\": \"create\", \"game\": \"thief\", \"clock\": %s", bad_clocks[i]), "bad_message", bad_clocks[i]);
  long long tid[2];
  char tok[2][2][40];
  const char *how[2] = {"loss", "bot"};
  for (int k = 0; k < 2; k++) {
    json_t *r = ask(a, "\"type\": \"create\", \"game\": \"steal-the-pile\", \"players\": 2, \"clock\": {\"seconds\": 10, \"on_time\": \"%s\"}", how[k]);
    tid[k] = jint(r, "table");
    json_t *ck = json_object_get(json_object_get(r, "summary"), "clock");
    if (jint(ck, "seconds") != 10 || strcmp(jstr(ck, "on_time"), how[k])) fail_msg("the clock in the summary: %s", dump(r));
    json_decref(r);
    ws_conn *c[2] = {a, b};
    for (int i = 0; i < 2; i++) {
      r = ask(c[i], "\"type\": \"join\", \"table\": %lld, \"seat\": %d", tid[k], i);
      snprintf(tok[k][i], 40, "%s", jstr(r, "token"));
      json_decref(r);
    }
  }
  /* seat 0 is asked at both and stays silent: its clock runs, seat 1's does not */
  json_decref(ask(b, "\"type\": \"resume\", \"table\": %lld, \"token\": \"%s\"", tid[0], tok[0][1])); /* then a state */
  json_t *m = wait_type(b, "state", tid[0], WAIT_MS);
  while (m && strcmp(jstr(m, "status"), "playing")) json_decref(m), m = wait_type(b, "state", tid[0], WAIT_MS);
  json_t *s0 = json_array_get(json_object_get(m, "seats"), 0), *s1 = json_array_get(json_object_get(m, "seats"), 1);
  if (!json_is_true(json_object_get(s0, "clock_running")) || !json_is_false(json_object_get(s1, "clock_running")) ||
      jint(s0, "clock_ms") > 10000 || jint(s1, "clock_ms") != 10000)
    fail_msg("the clocks as seat 0 is asked: %s", dump(json_object_get(m, "seats")));
  json_decref(m);
  json_t *lost = NULL;
  for (int64_t end = ws_now_ms() + 20000; ws_now_ms() < end && !lost;) {
    m = wait_type(b, "state", tid[0], 1000);
    if (m && !strcmp(jstr(m, "status"), "over")) lost = m;
    else json_decref(m);
  }
  if (!lost) fail_msg("table %lld: seat 0 never lost on time", tid[0]);
  json_t *res = json_object_get(lost, "result");
  if (jint(res, "lost_on_time") != 0 || strcmp(dump(json_object_get(res, "winners")), "[1]"))
    fail_msg("a loss on time: %s", dump(res));
  json_decref(lost);
  char path[64];
  snprintf(path, sizeof path, "/api/tables/%lld/record", tid[0]);
  json_t *rec = http_json(&server, path, 200);
  if (json_object_get(rec, "result") || jint(json_object_get(rec, "stopped"), "seat") != 0 ||
      strcmp(jstr(json_object_get(rec, "stopped"), "reason"), "time"))
    fail_msg("the record of a game lost on time: %s", dump(rec));
  char file[300];
  snprintf(file, sizeof file, "%s/lost-on-time.json", tmpdir);
  FILE *f = fopen(file, "w");
  fputs(dump(rec), f);
  fclose(f);
  json_decref(rec);
  char *out = NULL, *err = NULL;
  if (run_pilfer(&out, &err, "replay", file, NULL, NULL, NULL) != 0) fail_msg("pilfer replay of a game lost on time: %s", err);
  free(out), free(err);
  /* the other table gave seat 0 to its bot, for good */
  for (int64_t end = ws_now_ms() + 10000;; ) {
    snprintf(path, sizeof path, "/api/tables/%lld", tid[1]);
    json_t *sum = http_json(&server, path, 200);
    json_t *seat0 = json_array_get(json_object_get(sum, "seats"), 0);
    bool taken = jstr(seat0, "bot") != NULL && jint(sum, "ply") > 0;
    json_decref(sum);
    if (taken) break;
    if (ws_now_ms() > end) fail_msg("table %lld: seat 0 out of time, no bot plays it", tid[1]);
    usleep(200000);
  }
  json_t *r = ask(a, "\"type\": \"resume\", \"table\": %lld, \"token\": \"%s\"", tid[1], tok[1][0]);
  json_decref(r);
  m = wait_type(a, "state", tid[1], WAIT_MS);
  if (!m || !jstr(json_array_get(json_object_get(m, "seats"), 0), "bot")) fail_msg("out of time, resume gave the seat back: %s", dump(m));
  json_decref(m);
  r = ask(a, "\"type\": \"move\", \"table\": %lld, \"token\": \"%s\", \"move\": \"x\", \"ply\": 0", tid[1], tok[1][0]);
  if (!jstr(r, "code") || (strcmp(jstr(r, "code"), "time_out") && strcmp(jstr(r, "code"), "stale")))
    fail_msg("a move of a seat out of time: %s", dump(r));
  json_decref(r);
  ws_close(a, WS_CLOSE_NORMAL);
  ws_close(b, WS_CLOSE_NORMAL);
  alive_or_fail(&server, "clocks");
}

/* The latest state of the table that c is sent within ms (NULL: none). */
static json_t *last_state(ws_conn *c, long long tid, int ms) {
  json_t *last = NULL;
  for (int64_t end = ws_now_ms() + ms; ws_now_ms() < end;) {
    json_t *m = ws_recv_json(c, 100);
    if (m && jstr(m, "type") && !strcmp(jstr(m, "type"), "state") && jint(m, "table") == tid) json_decref(last), last = m;
    else json_decref(m);
  }
  return last;
}

static json_t *seat_of(const json_t *state, int s) { return json_array_get(json_object_get(state, "seats"), (size_t)s); }

/* Presence (docs/protocol.md, "here"): any message of a seat's connection (chat, `here`) starts
 * the takeover's countdown again, told to the others as `takeover_ms`; a seat silent for `after`
 * is taken over and away; a message gives it back; a seat with no connection is away; nobody is
 * away once the game is over. */
static void presence(void **st) {
  (void)st;
  ws_conn *a = connect_or_fail(&server);
  ws_source("127.0.0.2"); /* another person, as the chat's rate is an address's */
  ws_conn *b = connect_or_fail(&server);
  ws_source(NULL);
  json_t *r = ask(a, "\"type\": \"create\", \"game\": \"thief\", \"players\": 2, \"options\": {\"hands\": 1}, "
                     "\"takeover\": {\"after\": 10, \"bot\": \"greedy\"}");
  long long tid = jint(r, "table");
  json_decref(r);
  char tok[2][40];
  ws_conn *c[2] = {a, b};
  for (int i = 0; i < 2; i++) {
    r = ask(c[i], "\"type\": \"join\", \"table\": %lld, \"seat\": %d", tid, i);
    snprintf(tok[i], 40, "%s", jstr(r, "token"));
    json_decref(r);
  }
  json_t *m = last_state(b, tid, 500);
  if (!m || strcmp(jstr(m, "status"), "playing")) fail_msg("the table did not start: %s", dump(m));
  int s = (int)jint(m, "to_move"), o = 1 - s;
  if (jint(seat_of(m, s), "takeover_ms") < 8000 || json_object_get(seat_of(m, o), "takeover_ms") ||
      json_object_get(seat_of(m, s), "away") || json_object_get(seat_of(m, o), "away"))
    fail_msg("the countdown of the seat to move only, nobody away: %s", dump(json_object_get(m, "seats")));
  json_decref(m);
  want_code(ask(c[o], "\"type\": \"here\", \"table\": %lld, \"token\": \"%s\"", tid, "0123456789abcdef0123456789abcdef"), "bad_token", "here with another token");
  /* the seat to move chats for 16 s (more than `after`): never taken over, and the other is told
   * the countdown started again */
  for (int k = 0; k < 4; k++) {
    usleep(4000000);
    json_decref(ask(c[s], "\"type\": \"chat\", \"table\": %lld, \"token\": \"%s\", \"text\": \"thinking %d\"", tid, tok[s], k));
    m = last_state(c[o], tid, 300);
    if (!m || jint(seat_of(m, s), "takeover_ms") < 9000 || jstr(seat_of(m, s), "bot") || json_object_get(seat_of(m, s), "away"))
      fail_msg("after a chat at %d s, the other's state of the chatting seat: %s", 4 * (k + 1), dump(m));
    json_decref(m);
  }
  /* `here` counts as well */
  usleep(4000000);
  r = ask(c[s], "\"type\": \"here\", \"table\": %lld, \"token\": \"%s\"", tid, tok[s]);
  want_type(r, "here", "here");
  json_decref(r);
  m = last_state(c[o], tid, 300);
  if (!m || jint(seat_of(m, s), "takeover_ms") < 9000) fail_msg("after `here`: %s", dump(m));
  json_decref(m);
  /* silent: taken over after 10 s, and away */
  json_t *taken = NULL;
  for (int64_t end = ws_now_ms() + 20000; ws_now_ms() < end && !taken;) {
    m = wait_type(c[o], "state", tid, 1000);
    if (m && jstr(seat_of(m, s), "bot")) taken = m;
    else json_decref(m);
  }
  if (!taken || !json_is_true(json_object_get(seat_of(taken, s), "away")) || json_object_get(seat_of(taken, s), "takeover_ms"))
    fail_msg("the silent seat: taken over and away, no countdown: %s", dump(taken));
  json_decref(taken);
  /* any message gives it back (unless the game ended meanwhile) */
  json_decref(ask(c[s], "\"type\": \"here\", \"table\": %lld, \"token\": \"%s\"", tid, tok[s]));
  m = last_state(c[o], tid, 500);
  if (m && !strcmp(jstr(m, "status"), "playing") && (jstr(seat_of(m, s), "bot") || json_object_get(seat_of(m, s), "away")))
    fail_msg("back after `here`: %s", dump(m));
  json_decref(m);
  /* gone: away for the other */
  ws_close(c[s], WS_CLOSE_NORMAL);
  m = last_state(c[o], tid, 500);
  if (m && !strcmp(jstr(m, "status"), "playing") && !json_is_true(json_object_get(seat_of(m, s), "away")))
    fail_msg("a seat with no connection is away: %s", dump(m));
  json_decref(m);
  ws_close(c[o], WS_CLOSE_NORMAL);
  alive_or_fail(&server, "presence");
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      SRV_TEST(names),
      SRV_TEST(chat),
      SRV_TEST(lobby_list),
      SRV_TEST(lobby_expiry),
      SRV_TEST(lobby_abandoned),
      SRV_TEST(rematch),
      SRV_TEST(clocks),
      SRV_TEST(presence),
  };
  return srvtest_main(argc, argv, "server_people", tests, sizeof tests / sizeof *tests);
}
