#!/usr/bin/env python3
"""test_shard.py PILFER - `pilfer serve --shard I/N` (docs/operations.md, "Shards"), two shards on
loopback ports, each with its own database:

- --shard is refused unless it is I/N with 1 <= I <= N <= 99;
- the ids a shard makes end in its two digits (101, 201 ... on shard 1; 102, 202 ... on shard 2);
- a request for a table of the other shard is refused with `other_shard` naming the shard that
  holds it (GET /api/tables/ID with 421), and an id no shard makes is refused as such;
- each shard's database holds only its own tables, and its list only those;
- a move acknowledged on a shard survives its kill -9, the other shard playing on meanwhile; the
  restarted shard makes its next ids after its last;
- a shard moves: stopped, its database copied with `pilfer backup`, started on the copy, its
  seats resume with their tokens and play on;
- a shard's database is refused by another shard, and an unsharded server's by any shard.

Each check prints "ok" or "FAIL" with what went wrong; the exit status is 1 when one failed.
"""
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import checks  # noqa: E402
from checks import check  # noqa: E402
from pilfer_ws import WS, http_json, start_server  # noqa: E402

PILFER = sys.argv[1]
THIEF = {"type": "create", "game": "thief", "players": 2, "options": {"hands": 1}, "seats": ["open", "random"]}


def play_one_move(ws, table, token, rng, st=None):
    """Waits for seat 0 to be asked (st: the state received last, if not yet looked at), plays a
    legal move: its ack."""
    deadline = time.time() + 30
    while time.time() < deadline:
        st = st or ws.state(table)
        if st["status"] != "playing":
            raise AssertionError("table %d is %s" % (table, st["status"]))
        if st["legal"]:
            return ws.request({"type": "move", "table": table, "token": token, "move": rng.choice(st["legal"]),
                               "ply": st["ply"]})
        st = None
    raise AssertionError("seat 0 of table %d was not asked in 30 s" % table)


def refused(*args):
    r = subprocess.run([PILFER, "serve", "--listen", "127.0.0.1:0", *args], capture_output=True, text=True, timeout=30)
    return r.returncode, r.stderr


def main():
    rng = random.Random(11)
    with tempfile.TemporaryDirectory() as tmp:
        for bad in ["0/2", "3/2", "1/100", "1/", "/2", "a/2", "2", "1/2/3", "+1/2", " 1/2", "1/02x"]:
            rc, err = refused("--db", os.path.join(tmp, "bad.db"), "--shard", bad)
            check("--shard %r is refused" % bad, rc != 0 and "1 <= I <= N <= 99" in err, (rc, err))
        dbs = [os.path.join(tmp, "shard%d.db" % i) for i in (1, 2)]
        procs, ports = [], []
        try:
            for i in (1, 2):
                p, port = start_server(PILFER, os.path.join(tmp, "shard%d.log" % i), "--db", dbs[i - 1],
                                       "--shard", "%d/2" % i, "--workers", "1", "--helpers", "0")
                check("shard %d says which it is when it starts" % i, "shard %d of 2" % i in p.first_line, p.first_line)
                procs.append(p)
                ports.append(port)
            conns = [WS(port) for port in ports]
            ids = [[conns[i].request(dict(THIEF))["table"] for _ in range(3)] for i in (0, 1)]
            check("shard 1 makes the ids 101, 201, 301", ids[0] == [101, 201, 301], ids[0])
            check("shard 2 makes the ids 102, 202, 302", ids[1] == [102, 202, 302], ids[1])

            m = conns[0].request({"type": "join", "table": 202, "seat": 0})
            check("shard 1 refuses a join of shard 2's table 202, naming shard 2",
                  m.get("code") == "other_shard" and "on shard 2" in m.get("message", ""), m)
            m = conns[1].request({"type": "watch", "table": 101})
            check("shard 2 refuses to show shard 1's table 101, naming shard 1",
                  m.get("code") == "other_shard" and "on shard 1" in m.get("message", ""), m)
            for bad in [7, 199, 1203]:
                m = conns[0].request({"type": "watch", "table": bad})
                check("table %d: no shard of 2 makes it" % bad,
                      m.get("code") == "other_shard" and "no shard holds" in m.get("message", ""), m)
            m = conns[0].request({"type": "watch", "table": 401})
            check("table 401, shard 1's but never made: unknown_table", m.get("code") == "unknown_table", m)
            status, body = http_json(ports[0], "/api/tables/202")
            check("GET /api/tables/202 from shard 1: 421, naming shard 2",
                  status == 421 and "on shard 2" in body.get("error", ""), (status, body))
            status, body = http_json(ports[1], "/api/tables/202")
            check("GET /api/tables/202 from shard 2: its summary", status == 200 and body.get("table") == 202, (status, body))
            for i in (0, 1):
                status, body = http_json(ports[i], "/api/tables")
                listed = sorted(t["table"] for t in body)
                check("shard %d lists its own tables only" % (i + 1), listed == ids[i], listed)

            # A move on each shard; then shard 2 is killed, shard 1 plays on, shard 2 comes back.
            tokens = [conns[i].request({"type": "join", "table": ids[i][0], "seat": 0})["token"] for i in (0, 1)]
            acks = [play_one_move(conns[i], ids[i][0], tokens[i], rng) for i in (0, 1)]
            check("a move acknowledged on each shard", all(a.get("type") == "ack" for a in acks), acks)
            procs[1].kill()
            procs[1].wait()
            conns[1].close()
            ack = play_one_move(conns[0], ids[0][0], tokens[0], rng)
            check("shard 1 plays on while shard 2 is down", ack.get("type") == "ack" and ack["ply"] > acks[0]["ply"],
                  (acks[0], ack))
            p, port = start_server(PILFER, os.path.join(tmp, "shard2.log"), "--db", dbs[1], "--shard", "2/2",
                                   "--workers", "1", "--helpers", "0")
            procs[1], ports[1] = p, port
            status, body = http_json(port, "/api/tables/%d" % ids[1][0])
            check("shard 2 after kill -9: table %d holds the acknowledged move (ply >= %d)" % (ids[1][0], acks[1]["ply"]),
                  status == 200 and body.get("ply", -1) >= acks[1]["ply"], (status, body))
            conns[1] = WS(port)
            m = conns[1].request({"type": "resume", "table": ids[1][0], "token": tokens[1]})
            check("its seat's token still holds the seat", m.get("type") != "error", m)
            ack = play_one_move(conns[1], ids[1][0], tokens[1], rng)
            check("the restarted shard plays on", ack.get("type") == "ack" and ack["ply"] > acks[1]["ply"], ack)
            new = conns[1].request(dict(THIEF))["table"]
            check("the restarted shard's next id follows its last: 402", new == 402, new)

            # Moving shard 2: stopped, its database copied with pilfer backup, started on the copy.
            conns[1].close()
            procs[1].terminate()
            procs[1].wait(30)
            moved = os.path.join(tmp, "moved", "shard2.db")
            os.mkdir(os.path.dirname(moved))
            r = subprocess.run([PILFER, "backup", "--db", dbs[1], moved], capture_output=True, text=True, timeout=60)
            check("pilfer backup copies the stopped shard's database", r.returncode == 0, r.stderr)
            p, port = start_server(PILFER, os.path.join(tmp, "moved.log"), "--db", moved, "--shard", "2/2",
                                   "--workers", "1", "--helpers", "0")
            procs[1], ports[1] = p, port
            conns[1] = WS(port)
            m = conns[1].request({"type": "resume", "table": ids[1][0], "token": tokens[1]})
            st = conns[1].state(ids[1][0])
            check("shard 2 moved to the copy: its seat resumes with its token at ply >= %d" % ack["ply"],
                  m.get("type") != "error" and st["ply"] >= ack["ply"], (m, st.get("ply")))
            again = play_one_move(conns[1], ids[1][0], tokens[1], rng, st)
            check("  ... and plays on", again.get("type") == "ack" and again["ply"] > ack["ply"], again)
            newer = conns[1].request(dict(THIEF))["table"]
            check("  ... and its next id follows the copy's last: 502", newer == 502, newer)
            for c in conns:
                c.close()
        finally:
            for p in procs:
                p.terminate()
                p.wait(30)

        dbs[1] = moved
        for i in (1, 2):
            rows = [r[0] for r in sqlite3.connect(dbs[i - 1]).execute("SELECT id FROM tables ORDER BY id")]
            check("shard %d's database holds its tables only" % i,
                  rows and all(r % 100 == i and r > 100 for r in rows), rows)
        rc, err = refused("--db", dbs[1], "--shard", "1/2")
        check("shard 2's database is refused by shard 1, naming a table of it",
              rc != 0 and "holds table 102" in err and "not shard 1's" in err, (rc, err))
        p, _ = start_server(PILFER, os.path.join(tmp, "grown.log"), "--db", dbs[1], "--shard", "2/3")
        check("shard 2's database is still shard 2's in a cluster of 3 (no table moves)", "shard 2 of 3" in p.first_line,
              p.first_line)
        p.terminate()
        p.wait(30)
        plain = os.path.join(tmp, "plain.db")
        p, port = start_server(PILFER, os.path.join(tmp, "plain.log"), "--db", plain)
        ws = WS(port)
        first = ws.request(dict(THIEF))["table"]
        ws.close()
        p.terminate()
        p.wait(30)
        check("without --shard the ids are 1, 2, 3 ...", first == 1, first)
        rc, err = refused("--db", plain, "--shard", "1/2")
        check("an unsharded server's database is refused by a shard", rc != 0 and "holds table 1," in err, (rc, err))
    sys.exit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
