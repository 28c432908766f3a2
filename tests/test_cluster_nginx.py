#!/usr/bin/env python3
"""test_cluster_nginx.py PILFER REPO - scripts/cluster --shards 2 with nginx on loopback
(docs/operations.md, "Shards behind nginx"):

- nginx serves the web page itself, with the headers a shard gives it (CSP, nosniff ...);
- tables created through the proxy on one lobby connection (`/ws`, naming no shard: the lobby,
  scripts/lobby) land on both shards, with ids that end in their shard's two digits; `/ws?shard=S`
  reaches shard S, and `/ws?table=ID` (the web page's table pages) and `/api/tables/ID` the shard
  of ID;
- the lobby through the proxy lists every shard's tables (`GET /api/tables`, `list`), and a
  `subscribe` through it is pushed the moves of a table of each shard;
- the lobby is killed (kill -9) mid-game: the list says the lobby is not answering while both
  shards' tables play on, and it lists them all again once the cluster has started it again;
- a move played through the proxy on a table of each shard; then one shard is killed (kill -9):
  the other's table plays on meanwhile, the cluster starts the killed one again, and its table
  holds every acknowledged move and plays on, listed by the lobby again;
- each shard's database holds only its own tables; SIGTERM stops nginx and every shard;
- with --tls (a self-signed certificate), the page, the API and a table over HTTPS and wss://,
  with HSTS.

Skipped (exit 77) when nginx is not installed. Each check prints "ok" or "FAIL" with what went
wrong; the exit status is 1 when one failed.
"""
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import checks  # noqa: E402
from checks import check  # noqa: E402
from pilfer_ws import WS, http_get, http_json  # noqa: E402

PILFER, REPO = os.path.abspath(sys.argv[1]), sys.argv[2]
THIEF = {"type": "create", "game": "thief", "players": 2, "options": {"hands": 1}, "seats": ["open", "random"]}
HEADERS = ["content-security-policy", "x-content-type-options", "referrer-policy", "x-frame-options"]


def free_ports(n):
    """A port whose n - 1 next ones are free too, on 127.0.0.1."""
    for _ in range(100):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            base = s.getsockname()[1]
        if base + n > 65535:
            continue
        try:
            held = []
            for p in range(base, base + n):
                s = socket.socket()
                s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                held.append(s)
                s.bind(("127.0.0.1", p))
            return base
        except OSError:
            continue
        finally:
            for s in held:
                s.close()
    raise SystemExit("FAIL no %d free ports in a row" % n)


def play_one_move(ws, table, token, rng):
    deadline = time.time() + 30
    while time.time() < deadline:
        st = ws.state(table)
        if st["legal"]:
            return ws.request({"type": "move", "table": table, "token": token, "move": rng.choice(st["legal"]),
                               "ply": st["ply"]})
    raise AssertionError("seat 0 of table %d was not asked in 30 s" % table)


def wait_list(port, want, seconds=20):
    """GET /api/tables through the proxy until its summaries pass want(by id): (ok, last answer)."""
    deadline, last = time.time() + seconds, None
    while time.time() < deadline:
        try:
            status, body = http_json(port, "/api/tables")
        except (OSError, ValueError) as e:
            status, body = 0, repr(e)
        last = (status, body)
        if status == 200 and isinstance(body, list) and want({b["table"]: b for b in body}):
            return True, last
        time.sleep(0.2)
    return False, last


def wait_push(ws, want, seconds=20):
    """The next `tables` push (no id) to a subscriber whose summaries pass want(by id), or None."""
    deadline = time.time() + seconds
    try:
        while time.time() < deadline:
            m = ws.recv()
            if m.get("type") == "tables" and "id" not in m and want({b["table"]: b for b in m["tables"]}):
                return m
    except (OSError, EOFError):
        pass
    return None


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is gone but for its parent's wait
    try:
        return open("/proc/%d/stat" % pid).read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def read_line(proc, want, seconds):
    """The cluster's next stdout line holding want (lines before it are skipped)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            return None
        if want in line:
            return line
    return None


def tls_cluster(tmp):
    """scripts/cluster --tls with a self-signed certificate: the page and a game's table over
    HTTPS and wss:// through nginx, with HSTS."""
    if not shutil.which("openssl"):
        check("openssl is installed (scripts/deps) for the TLS check", False)
        return
    key, cert = os.path.join(tmp, "key.pem"), os.path.join(tmp, "cert.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                    "-keyout", key, "-out", cert], check=True, capture_output=True)
    port = free_ports(2)
    cluster = subprocess.Popen([os.path.join(REPO, "scripts", "cluster"), "--shards", "1", "--listen",
                                "127.0.0.1:%d" % port, "--state", os.path.join(tmp, "tls"), "--pilfer", PILFER,
                                "--tls", cert, key, "--workers", "1", "--helpers", "0"], stdout=subprocess.PIPE, text=True)
    try:
        line = read_line(cluster, "listening on", 60)
        check("scripts/cluster --tls says it listens on https://", line and "https://127.0.0.1:%d/" % port in line, line)
        if not line:
            return
        status, h, body = http_get(port, "/", tls=True)
        check("the page over HTTPS, with the shards' CSP and HSTS", status == 200 and "script-src 'self'" in
              h.get("content-security-policy", "") and "max-age" in h.get("strict-transport-security", ""), (status, h))
        status, h, body = http_get(port, "/api/games", tls=True)
        check("the API over HTTPS, with HSTS", status == 200 and "max-age" in h.get("strict-transport-security", ""),
              (status, h))
        ws = WS(port, tls=True)
        t = ws.request(dict(THIEF)).get("table")
        m = ws.request({"type": "join", "table": t, "seat": 0})
        check("a table created and joined over wss:// through nginx", t == 101 and m.get("type") == "joined", (t, m))
        ws.close()
    finally:
        cluster.send_signal(signal.SIGTERM)
        cluster.communicate(timeout=60)
    check("  ... and SIGTERM stops it", cluster.returncode == 0, cluster.returncode)


def main():
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.access(nginx, os.X_OK):
        print("skipped: nginx is not installed (scripts/deps installs Debian's)")
        sys.exit(77)
    rng = random.Random(5)
    with tempfile.TemporaryDirectory() as tmp:
        state = os.path.join(tmp, "state")
        port = free_ports(4)  # nginx, the two shards, the lobby
        cluster = subprocess.Popen([os.path.join(REPO, "scripts", "cluster"), "--shards", "2", "--listen",
                                    "127.0.0.1:%d" % port, "--state", state, "--pilfer", PILFER, "--web",
                                    os.path.join(REPO, "web"), "--workers", "1", "--helpers", "0"],
                                   stdout=subprocess.PIPE, text=True)
        try:
            line = read_line(cluster, "listening on", 60)
            check("scripts/cluster --shards 2 starts and says where it listens",
                  line and "http://127.0.0.1:%d/" % port in line, line)
            if not line:
                return
            pids = [int(open(os.path.join(state, "shard-%d.pid" % i)).read()) for i in (1, 2)]
            lobby_pid = int(open(os.path.join(state, "lobby.pid")).read())
            ngx_pid = int(open(os.path.join(state, "nginx", "nginx.pid")).read())

            status, h, body = http_get(port, "/")
            _, hs, own = http_get(port + 1, "/")
            check("nginx serves the page itself", status == 200 and body == own and "nginx" in h.get("server", ""),
                  (status, h))
            check("  ... with the headers a shard gives it", all(h.get(k) == hs.get(k) for k in HEADERS),
                  [(k, h.get(k), hs.get(k)) for k in HEADERS])

            tables, lobby = {1: [], 2: []}, WS(port)
            check("the lobby's /ws through the proxy opens", lobby.status == 101, lobby.status)
            games = lobby.request({"type": "games"})
            check("  ... and passes what it does not answer itself to a shard (games)",
                  games.get("type") == "games" and any(g["id"] == "thief" for g in games.get("games", [])), games)
            for _ in range(4):
                t = lobby.request(dict(THIEF))
                tables.setdefault(t.get("table", 0) % 100, []).append(t.get("table"))
            check("4 tables created on one lobby connection through the proxy land on both shards, ids ending in 01 "
                  "and 02", tables[1] and tables[2] and set(tables) == {1, 2}, tables)
            if not (tables[1] and tables[2]):
                return
            every = sorted(tables[1] + tables[2])
            ok, last = wait_list(port, lambda by: sorted(by) == every)
            check("GET /api/tables through the proxy (the lobby) lists the tables of both shards", ok, (every, last))
            m = lobby.request({"type": "list"})
            check("  ... and so does `list` on the lobby's /ws",
                  sorted(b["table"] for b in m.get("tables", [])) == every and "missing" not in m, m)
            m = lobby.request({"type": "subscribe", "filter": "all"})
            check("`subscribe` on the lobby's /ws: a page of both shards' tables",
                  m.get("total") == 4 and sorted(b["table"] for b in m.get("tables", [])) == every, m)
            m = lobby.request({"type": "subscribe", "filter": "open", "mine": [every[0], "x"]})
            check("  ... a bad subscribe is refused by the lobby", m.get("code") == "bad_message", m)
            m = lobby.request({"type": "subscribe", "filter": "open", "page": 0})
            check("  ... filter open: all 4 (each has its open seat)", m.get("total") == 4, m)
            t1, t2 = tables[1][0], tables[2][0]
            for t in (t1, t2):
                status, body = http_json(port, "/api/tables/%d" % t)
                check("GET /api/tables/%d through the proxy: its shard's summary" % t,
                      status == 200 and body.get("table") == t, (status, body))
            status, body = http_json(port, "/api/tables?shard=2")
            check("/api/tables?shard=2 lists shard 2's tables", status == 200 and sorted(b["table"] for b in body) ==
                  sorted(tables[2]), body)
            ws1, ws2 = WS(port, "/ws?shard=1"), WS(port, "/ws?shard=02")
            m = ws1.request({"type": "watch", "table": t2})
            check("/ws?shard=1 reaches shard 1 (which refuses shard 2's table)", m.get("code") == "other_shard", m)
            m = ws2.request({"type": "watch", "table": t2})
            check("/ws?shard=02 reaches shard 2 (which shows its table)", m.get("type") != "error" and m.get("table") == t2, m)
            for t, other in ((t1, t2), (t2, t1)):
                w = WS(port, "/ws?table=%d" % t)
                mine, theirs = w.request({"type": "watch", "table": t}), w.request({"type": "watch", "table": other})
                check("/ws?table=%d (the web page's) reaches table %d's shard" % (t, t),
                      mine.get("table") == t and mine.get("type") != "error" and theirs.get("code") == "other_shard",
                      (mine, theirs))
                w.close()
            tok1 = ws1.request({"type": "join", "table": t1, "seat": 0}).get("token")
            tok2 = ws2.request({"type": "join", "table": t2, "seat": 0}).get("token")
            m = wait_push(lobby, lambda by: t1 not in by and t2 not in by and len(by) == 2)
            check("the lobby's subscriber (filter open) is pushed a table of each shard leaving it once joined",
                  m is not None and m.get("total") == 2, m)
            m = lobby.request({"type": "subscribe", "filter": "playing"})
            a1, a2 = play_one_move(ws1, t1, tok1, rng), play_one_move(ws2, t2, tok2, rng)
            check("a move played through the proxy on a table of each shard",
                  a1.get("type") == "ack" and a2.get("type") == "ack", (a1, a2))
            m = wait_push(lobby, lambda by: all(t in by and by[t]["ply"] >= a["ply"] for t, a in ((t1, a1), (t2, a2))))
            check("  ... and the lobby's subscriber (filter playing) is pushed the moves of both", m is not None, m)

            # The lobby killed mid-game: only the list stops. The cluster, held (SIGSTOP) meanwhile, would
            # start it again at once: the lobby stays down until the cluster goes on (SIGCONT).
            lobby.close()
            cluster.send_signal(signal.SIGSTOP)
            os.kill(lobby_pid, signal.SIGKILL)
            deadline = time.time() + 20
            while alive(lobby_pid) and time.time() < deadline:
                time.sleep(0.05)
            status, body = http_json(port, "/api/tables")
            check("with the lobby down, GET /api/tables through the proxy says so (503)",
                  status == 503 and "lobby is not answering" in body.get("error", ""), (status, body))
            down = WS(port)
            check("  ... and the lobby's /ws does not open (the page says the connection is lost)",
                  down.status in (502, 503), down.status)
            down.close()
            c1, c2 = play_one_move(ws1, t1, tok1, rng), play_one_move(ws2, t2, tok2, rng)
            check("both shards' tables play on while the lobby is down",
                  c1.get("ply", 0) > a1["ply"] and c2.get("ply", 0) > a2["ply"], (a1, c1, a2, c2))
            a1, a2 = c1, c2
            cluster.send_signal(signal.SIGCONT)
            back = read_line(cluster, "the lobby is back", 60)
            check("the cluster starts the lobby again", back is not None, back)
            new_pid = int(open(os.path.join(state, "lobby.pid")).read())
            check("  ... as a new process", new_pid != lobby_pid and alive(new_pid), (lobby_pid, new_pid))
            lobby_pid = new_pid
            ok, last = wait_list(port, lambda by: sorted(by) == every and by[t1]["ply"] >= a1["ply"] and
                                 by[t2]["ply"] >= a2["ply"])
            check("  ... and it lists both shards' tables again, as they are now", ok, last)
            lobby = WS(port)
            m = lobby.request({"type": "subscribe", "filter": "all"})
            check("  ... and follows them again (subscribe)", m.get("total") == 4, m)

            os.kill(pids[1], signal.SIGKILL)
            gone, deadline = False, time.time() + 20
            try:
                while time.time() < deadline:
                    ws2.recv()  # what was sent before the kill, then the end
            except (EOFError, OSError):
                gone = True
            check("kill -9 of shard 2 closes its page's connection", gone)
            b1 = play_one_move(ws1, t1, tok1, rng)
            check("shard 1's table plays on while shard 2 is down",
                  b1.get("type") == "ack" and b1["ply"] > a1["ply"], (a1, b1))
            back = read_line(cluster, "shard 2 is back", 60)
            check("the cluster starts shard 2 again", back is not None, back)
            new_pid = int(open(os.path.join(state, "shard-2.pid")).read())
            check("  ... as a new process", new_pid != pids[1] and alive(new_pid), (pids[1], new_pid))
            pids[1] = new_pid
            status, body = http_json(port, "/api/tables/%d" % t2)
            check("table %d after kill -9 holds the acknowledged move (ply >= %d)" % (t2, a2["ply"]),
                  status == 200 and body.get("ply", -1) >= a2["ply"], (status, body))
            ws2.close()
            ws2 = WS(port, "/ws?shard=2")
            m = ws2.request({"type": "resume", "table": t2, "token": tok2})
            check("its seat resumes through the proxy with its token", m.get("type") != "error", m)
            b2 = play_one_move(ws2, t2, tok2, rng)
            check("and plays on", b2.get("type") == "ack" and b2["ply"] > a2["ply"], (a2, b2))
            b1 = play_one_move(ws1, t1, tok1, rng)
            check("shard 1's table still plays", b1.get("type") == "ack", b1)
            m = wait_push(lobby, lambda by: len(by) == 4 and by[t2]["ply"] >= b2["ply"] and by[t1]["ply"] >= b1["ply"])
            check("the lobby's subscriber is pushed the tables of the restarted shard again, as they are now",
                  m is not None and "missing" not in m, m)
            ws1.close()
            ws2.close()
            lobby.close()
        finally:
            cluster.send_signal(signal.SIGCONT)  # if a check failed while it was held
            cluster.send_signal(signal.SIGTERM)
            try:
                rest = cluster.communicate(timeout=60)[0]
            except subprocess.TimeoutExpired:
                cluster.kill()
                rest = cluster.communicate()[0]
        check("SIGTERM stops the cluster (status 0)", cluster.returncode == 0 and "cluster: stopped" in rest,
              (cluster.returncode, rest))
        time.sleep(0.2)
        left = [p for p in pids + [ngx_pid, lobby_pid] if alive(p)]
        check("  ... nginx, the lobby and both shards with it", not left, left)
        for i in (1, 2):
            rows = [r[0] for r in sqlite3.connect(os.path.join(state, "shard-%d.db" % i)).execute("SELECT id FROM tables")]
            check("shard %d's database holds its own tables only" % i,
                  rows and all(r % 100 == i for r in rows) and sorted(rows) == sorted(tables[i]), (rows, tables[i]))
        tls_cluster(tmp)
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
