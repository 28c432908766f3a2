#!/usr/bin/env python3
"""test_lobby.py PILFER REPO - scripts/lobby (docs/operations.md, "One lobby") over two shards on
loopback: shard 1 a real `pilfer serve --shard 1/2`, shard 2 a fake that answers its
`GET /api/tables` with what the test sets, hostile or not.

- the lobby lists the real shard's tables and the fake's well-formed summaries of its own
  tables, and leaves out the rest (another shard's id, no status, not an object, too long ...);
- a shard slow to answer holds up no other's listing, and is left out after 10 s;
- a shard answering nonsense (JSON nested deeper than a parser goes, NaN, not an array, an
  HTTP error) or nothing is left out and named (`missing`, X-Pilfer-Missing-Shards) until it
  answers again, and the lobby lists on meanwhile;
- a client's hostile messages (not JSON, nested too deep, too big, binary, a flood of lists, a
  bad subscribe) are refused as a shard refuses them, and a name it does not answer to (Host)
  is refused, an upgrade from another site's page too (its shard's refusal); WebSockets from one
  address are limited (--conns-per-address);
- after all of it the lobby still runs and answers.
"""
import http.server
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import checks  # noqa: E402
from checks import check  # noqa: E402
from pilfer_ws import WS, http_get, start_server  # noqa: E402

PILFER, REPO = os.path.abspath(sys.argv[1]), sys.argv[2]
THIEF = {"type": "create", "game": "thief", "players": 2, "options": {"hands": 1}, "seats": ["open", "random"]}


def summary(table, status="waiting"):
    return {"table": table, "game": "thief", "title": "Thief", "players": 2, "options": {"hands": 1}, "status": status,
            "ply": 0, "to_move": None, "seats": [{"seat": 0, "kind": "open"}, {"seat": 1, "kind": "bot", "bot": "random"}]}


class Fake(http.server.BaseHTTPRequestHandler):
    answer = (200, b"[]")

    def do_GET(self):
        status, body = Fake.answer
        if self.path.startswith("/ws"):  # no WebSocket here: the lobby's connections go to shard 1
            status, body = 503, b"no"
        elif status == "slow":  # answers in 30 s
            time.sleep(30)
            status = 200
        if status is None:  # no answer at all: the connection closed
            self.close_connection = True
            return
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except OSError:  # the lobby gave up on a slow answer
            pass

    def log_message(self, *args):
        pass


def listed(port):
    """(the lobby's `list`: ids, its missing) over a new connection."""
    ws = WS(port)
    m = ws.request({"type": "list"})
    ws.close()
    return sorted(t["table"] for t in m.get("tables", [])), m.get("missing")


def until(port, ids, missing, seconds=20):
    deadline, got = time.time() + seconds, None
    while time.time() < deadline:
        got = listed(port)
        if got == (ids, missing):
            return True, got
        time.sleep(0.2)
    return False, got


def main():
    with tempfile.TemporaryDirectory() as tmp:
        shard, p1 = start_server(PILFER, os.path.join(tmp, "shard-1.log"), "--db", os.path.join(tmp, "s1.db"),
                                 "--shard", "1/2", "--trust-proxy", "127.0.0.1", "--workers", "1", "--helpers", "0",
                                 "--limit", "waiting_per_client=300")
        fake = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Fake)
        threading.Thread(target=fake.serve_forever, daemon=True).start()
        p2 = fake.server_address[1]
        lobby = subprocess.Popen([sys.executable, os.path.join(REPO, "scripts", "lobby"), "--listen", "127.0.0.1:0",
                                  "--shard", "1=127.0.0.1:%d" % p1, "--shard", "2=127.0.0.1:%d" % p2,
                                  "--conns-per-address", "3"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            line = lobby.stdout.readline()
            check("scripts/lobby says where it listens", "listening on http://127.0.0.1:" in line, line)
            port = int(line.split("127.0.0.1:")[1].split("/")[0])
            ws = WS(p1)
            t1 = ws.request(dict(THIEF)).get("table")
            ws.close()
            Fake.answer = (200, json.dumps([summary(302), summary(202, "over"), summary(103), {"table": 402},
                                            dict(summary(502), status="lost"), "x", 7, dict(summary(602), table="602"),
                                            summary(302), dict(summary(702), title="x" * 20000),
                                            dict(summary(802), title="\ud800")]).encode())
            ok, got = until(port, [t1, 202, 302, 802], None)
            check("the lobby lists shard 1's table and shard 2's well-formed summaries of its own tables only "
                  "(none of 20,000 characters; a lone surrogate kept escaped)", ok and t1 == 101, got)
            ws = WS(port)
            m = ws.request({"type": "subscribe", "filter": "all", "id": "\ud800"})
            check("  ... sent to a subscriber whose id is a lone surrogate",
                  m.get("total") == 4 and any(t["title"] == "\ud800" for t in m["tables"]), m)
            ws.close()
            Fake.answer = ("slow", json.dumps([summary(302)]).encode())
            time.sleep(1.5)
            ws = WS(p1)
            t2 = ws.request(dict(THIEF)).get("table")
            ws.close()
            ok, got = until(port, [t1, t2, 202, 302, 802], None, 5)
            check("a shard slow to answer holds up no other's listing", ok, got)
            ok, got = until(port, [t1, t2], [2], 30)
            check("  ... and is left out once it took 10 s", ok, got)
            for name, answer in (("JSON nested deeper than a parser goes", (200, b"[" * 200000 + b"]" * 200000)),
                                 ("NaN", (200, b'[{"table": 402, "status": "waiting", "seats": [], "ply": NaN}]')),
                                 ("not an array", (200, b'{"tables": []}')),
                                 ("not JSON", (200, b"\xff\xfe[")),
                                 ("an HTTP error", (500, b'{"error": "x"}')),
                                 ("no answer", (None, b""))):
                Fake.answer = answer
                ok, got = until(port, [t1, t2], [2])
                check("shard 2 answering %s: left out and named missing, shard 1 listed on" % name, ok, got)
                Fake.answer = (200, json.dumps([summary(302)]).encode())
                ok, got = until(port, [t1, t2, 302], None)
                check("  ... and listed again once it answers", ok, got)
            Fake.answer = (200, b"[" * 200000)
            until(port, [t1, t2], [2])
            status, h, body = http_get(port, "/api/tables")
            check("GET /api/tables names a shard not answering (X-Pilfer-Missing-Shards) and lists the others",
                  status == 200 and h.get("x-pilfer-missing-shards") == "2" and [t["table"] for t in json.loads(body)]
                  == [t2, t1], (status, h, body))
            status, h, body = http_get(port, "/api/tables", host="evil.example:80")
            check("a name the lobby does not answer to is refused (421)", status == 421, (status, body))
            w = WS(port, host="evil.example")
            check("  ... and so is an upgrade with it (403, as a shard refuses it)", w.status == 403, w.status)
            w.close()
            w = WS(port, origin="https://evil.example")
            check("an upgrade from another site's page: refused (403) as its shard refuses it", w.status == 403, w.status)
            w.close()

            ws = WS(port)
            ws.send_text = lambda data, op=0x81: ws.s.sendall(bytes([op, 0x80 | 127]) + len(data).to_bytes(8, "big") +
                                                             b"\0\0\0\0" + data)
            ws.send_text(b"{not json")
            m = ws.recv()
            check("a message that is not JSON: bad_json", m.get("code") == "bad_json", m)
            ws.send_text(b"[" * 30000 + b"]" * 30000)
            m = ws.recv()
            check("JSON nested too deep: bad_json", m.get("code") == "bad_json", m)
            m = ws.request({"type": "subscribe", "filter": "mine", "mine": list(range(101))})
            check("a subscribe with 101 tables in mine: bad_message", m.get("code") == "bad_message", m)
            m = ws.request({"type": "subscribe", "page": -1})
            check("a subscribe of page -1: bad_message", m.get("code") == "bad_message", m)
            for i in range(250):
                ws.send({"type": "list", "id": 1000 + i})
            codes = []
            while len(codes) < 250:  # each answered, or refused (the connection's rate: without its id)
                m = ws.recv()
                if m.get("type") == "error" or m.get("id", 0) >= 1000:
                    codes.append(m.get("code", m.get("type")))
            check("250 lists at once: some 200 answered, the rest refused flood, none lost",
                  150 <= codes.count("tables") <= 205 and codes.count("flood") == 250 - codes.count("tables"),
                  (codes.count("tables"), codes.count("flood")))
            ws.send_text(b'"' + b"x" * 70000 + b'"')
            m = ws.recv()
            try:
                ws.recv()
                closed = False
            except (EOFError, OSError):
                closed = True
            check("a message of 70,000 bytes: too_big, and the connection closed", m.get("code") == "too_big" and closed, m)
            ws.close()
            ws = WS(port)
            ws.send_text = lambda data, op=0x81: ws.s.sendall(bytes([op, 0x80 | len(data)]) + b"\0\0\0\0" + data)
            ws.send_text(b"\x01\x02", 0x82)
            m = ws.recv()
            try:
                ws.recv()
                closed = False
            except (EOFError, OSError):
                closed = True
            check("a binary message: bad_message, and the connection closed", m.get("code") == "bad_message" and closed, m)
            ws.close()
            time.sleep(0.5)

            held = [WS(port) for _ in range(3)]
            extra = WS(port)
            check("--conns-per-address 3: a fourth WebSocket from the address is refused (403)",
                  all(w.status == 101 for w in held) and extra.status == 403, ([w.status for w in held], extra.status))
            for w in held + [extra]:
                w.close()
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"GET /api/tables HTTP/1.1\r\nX-Long: " + b"a" * 20000)
            try:
                got = s.recv(100)
            except ConnectionResetError:
                got = b""
            s.close()
            check("a request head past 16 KiB: closed without an answer", got == b"", got)

            Fake.answer = (200, json.dumps([summary(302)]).encode())
            ws = WS(p1)
            more = [ws.request(dict(THIEF, seats=["open", "open"])).get("table") for _ in range(205)]
            ws.close()
            every = sorted([t1, t2, 302] + more)
            deadline, m = time.time() + 20, None
            ws = WS(port)
            while time.time() < deadline:
                m = ws.request({"type": "subscribe", "filter": "open", "page": 10})
                if m.get("total") == len(every):
                    break
                time.sleep(0.3)
            ws.close()
            check("a shard's tables past the 200 of its GET /api/tables are listed too (its /api/tables/all): "
                  "%d open, page 10 holding the oldest" % len(every), m.get("total") == len(every) and
                  sorted(t["table"] for t in m.get("tables", [])) == every[:len(every) - 200], m and m.get("total"))
            status, _, body = http_get(port, "/api/tables")
            status_all, _, body_all = http_get(port, "/api/tables/all")
            check("GET /api/tables: the newest 200 of them; /api/tables/all: all",
                  status == 200 and len(json.loads(body)) == 200 and status_all == 200 and
                  sorted(t["table"] for t in json.loads(body_all)) == every, (status, status_all))
            ok, got = until(port, sorted([t1, t2, 302] + more)[-200:], None)
            check("after all of it the lobby still runs and lists both shards' tables", ok and lobby.poll() is None, got)
        finally:
            lobby.terminate()
            err = lobby.communicate(timeout=30)[1]
            shard.terminate()
            shard.wait(30)
            fake.shutdown()
        check("SIGTERM stops the lobby (status 0), its log naming the shard that did not answer",
              lobby.returncode == 0 and "shard 2 (127.0.0.1:%d) does not answer" % p2 in err
              and "Traceback" not in err, (lobby.returncode, err[-800:]))
        if "Traceback" in err:
            print(err)
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
