#!/usr/bin/env python3
"""test_hosting.py PILFER REPO - pilfer serve as a host runs it (docs/operations.md):

- it listens on the address it was given only (Debian's libwebsockets 4.1 would take every
  interface for an IPv4 address): /proc/net/tcp and tcp6 show no other socket on its port;
- every answer carries the browser-security headers (CSP without inline scripts or outside
  resources, nosniff, Referrer-Policy, frame-ancestors); a report gets its own sandboxed policy;
- a WebSocket upgrade from another site's page (its Origin) is refused, from the server's own
  origin, from an --origin, and from a client that sends none (not a browser) it is taken;
- the per-address limit counts X-Forwarded-For's address only from a --trust-proxy peer;
- the log (--log json): one JSON object a line for the start, the limits hit and the stop, and
  no seat's token anywhere in it;
- GET /metrics: 404 without --metrics-token-file, 401 without its token, and with it Prometheus's
  text format, whose figures follow a game played, an error sent and an upgrade refused;
- nginx (Debian's), with contrib/nginx-pilfer.conf and a self-signed certificate on loopback, in
  front of the server: the page and the API over HTTPS, and a whole game played over wss://.

Each check prints "ok" or "FAIL" with what went wrong; the exit status is 1 when one failed.
"""
import base64
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import checks
from checks import check
from pilfer_ws import WS, http_get  # a server's client, shared with test_shard.py

PILFER, REPO = sys.argv[1], sys.argv[2]
def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listeners(port):
    """The local addresses of the sockets listening on TCP port, from /proc/net/tcp and tcp6."""
    found = []
    for path, v6 in [("/proc/net/tcp", False), ("/proc/net/tcp6", True)]:
        if not os.path.exists(path):
            continue
        for line in open(path).read().splitlines()[1:]:
            f = line.split()
            addr, p = f[1].split(":")
            if int(p, 16) != port or f[3] != "0A":  # 0A: LISTEN
                continue
            raw = bytes.fromhex(addr)
            # the kernel writes each 32-bit word in host order (little-endian here)
            words = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
            ip = socket.inet_ntop(socket.AF_INET6 if v6 else socket.AF_INET, words)
            found.append(ip[7:] if ip.startswith("::ffff:") else ip)
    return sorted(found)


def start_server(tmp, name, *args):
    log = open(os.path.join(tmp, name + ".log"), "w")
    p = subprocess.Popen([PILFER, "serve", "--listen", "127.0.0.1:0", "--db", os.path.join(tmp, name + ".db"), *args],
                         stdout=subprocess.PIPE, stderr=log, text=True)
    line = p.stdout.readline()
    p.first_line = line
    m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", line)
    if not m:
        p.kill()
        raise SystemExit("FAIL %s did not start: %r" % (name, line))
    return p, int(m.group(1))


TOKENS = []  # every seat's token this test was given: none may be in the log


def play_game(port, tls, origin):
    """A whole game of Thief against a random bot: returns the final state."""
    ws = WS(port, tls=tls, origin=origin)
    if ws.status != 101:
        raise AssertionError("upgrade: %d %s" % (ws.status, ws.headers))
    created = ws.request({"type": "create", "game": "thief", "players": 2, "options": {"hands": 1},
                          "seats": ["open", "random"]}, "created")
    table = created["table"]
    joined = ws.request({"type": "join", "table": table, "seat": 0}, "joined")
    token, rng, sent, deadline = joined["token"], random.Random(7), -1, time.time() + 60
    TOKENS.append(token)
    while time.time() < deadline:
        m = ws.recv()
        if m.get("type") == "error":
            raise AssertionError("error: %s" % m)
        if m.get("type") != "state" or m.get("table") != table:
            continue
        if m["status"] == "over":
            ws.close()
            return m
        if m["legal"] and m["ply"] != sent:
            sent = m["ply"]
            ws.send({"type": "move", "id": 1000 + sent, "table": table, "token": token,
                     "move": rng.choice(m["legal"]), "ply": m["ply"]})
    raise AssertionError("the game did not end in 60 s")


def scrape(port, token):
    status, headers, body = http_get(port, "/metrics", extra="Authorization: Bearer %s\r\n" % token if token is not None else "")
    return status, headers, body.decode()


def parse_metrics(text):
    """Prometheus's text format, checked line by line: {(name, labels): value}, {name: type}."""
    types, samples, bad = {}, {}, []
    for line in text.splitlines():
        m = re.match(r"# TYPE ([a-z_]+) (counter|gauge|histogram)$", line)
        if m:
            types[m.group(1)] = m.group(2)
            continue
        if re.match(r"# HELP [a-z_]+ \S", line):
            continue
        m = re.match(r'([a-z_]+)(\{[a-z_]+="[^"\\\n]*"\})? (-?[0-9.e+]+)$', line)
        base = m and re.sub(r"_(bucket|sum|count)$", "", m.group(1))
        if not m or (m.group(1) not in types and base not in types):
            bad.append(line)
            continue
        samples[(m.group(1), m.group(2) or "")] = float(m.group(3))
    return samples, types, bad


def check_metrics(port, token, tmp):
    plain, plain_port = start_server(tmp, "no-metrics")
    try:
        check("/metrics is 404 without --metrics-token-file", scrape(plain_port, None)[0] == 404)
    finally:
        plain.terminate()
    check("/metrics without the token is 401", scrape(port, None)[0] == 401)
    check("/metrics with another token is 401", scrape(port, token[:-1] + ("A" if token[-1] != "A" else "B"))[0] == 401)
    status, _, before = scrape(port, token)
    s0, _, _ = parse_metrics(before)
    final = play_game(port, False, None)  # a whole game ...
    ws = WS(port)
    ws.send({"type": "nonsense"})  # ... an error ...
    err = ws.recv()
    WS(port, origin="http://evil.example").close()  # ... an upgrade refused ...
    ws.request({"type": "create", "game": "thief", "players": 2}, "created")  # ... a table waiting
    time.sleep(0.3)
    status, h, text = scrape(port, token)
    ws.close()
    samples, types, bad = parse_metrics(text)
    check("/metrics with the token: 200, Prometheus's text format",
          status == 200 and h.get("content-type", "").startswith("text/plain; version=0.0.4") and not bad and len(samples) > 30,
          (status, h, bad[:5]))
    want = ["pilfer_tables", "pilfer_connections", "pilfer_bot_jobs", "pilfer_hint_jobs", "pilfer_errors_total",
            "pilfer_message_seconds", "pilfer_moves_total", "pilfer_commits_total", "pilfer_commit_seconds",
            "pilfer_database_bytes", "pilfer_limits_total", "pilfer_queued_bytes", "pilfer_start_time_seconds"]
    check("every documented series is there", all(w in types for w in want), [w for w in want if w not in types])
    doc = open(os.path.join(REPO, "docs", "operations.md")).read()
    check("docs/operations.md lists every series", all("`%s`" % w in doc for w in types),
          [w for w in types if "`%s`" % w not in doc])
    g = lambda name, label="": samples.get((name, label), 0) - s0.get((name, label), 0)
    plies = final["ply"]
    check("pilfer_moves_total counted the game's %d moves" % plies, g("pilfer_moves_total") >= plies,
          (g("pilfer_moves_total"), plies))
    check("pilfer_commit_seconds counts every commit",
          samples[("pilfer_commit_seconds_count", "")] == samples[("pilfer_commits_total", "")] > 0)
    check("pilfer_message_seconds counted the messages", g("pilfer_message_seconds_count") >= 3)
    check("pilfer_errors_total counted the bad message by its code (%s)" % err.get("code"),
          err.get("type") == "error" and g("pilfer_errors_total", '{code="%s"}' % err.get("code")) == 1, err)
    check("pilfer_limits_total counted the refused upgrade", g("pilfer_limits_total", '{limit="origin"}') >= 1)
    check("pilfer_database_bytes is the database's size", samples[("pilfer_database_bytes", "")] > 4096)
    check("pilfer_tables counts the waiting table", samples.get(("pilfer_tables", '{status="waiting"}'), 0) >= 1)
    check("pilfer_connections counts the open WebSocket", samples.get(("pilfer_connections", ""), 0) >= 1)


def main():
    tmp = tempfile.mkdtemp(prefix="pilfer-hosting-")
    procs = []
    try:
        reports = os.path.join(tmp, "reports")
        os.mkdir(reports)
        with open(os.path.join(reports, "thief.html"), "w") as f:
            f.write("<!doctype html><title>r</title><script>document.title='ran'</script>")
        token = base64.b64encode(os.urandom(24)).decode()
        with open(os.path.join(tmp, "metrics.token"), "w") as f:
            f.write(token + "\n")
        srv, port = start_server(tmp, "main", "--trust-proxy", "127.0.0.1", "--origin", "https://friends.example",
                                 "--limit", "conns_per_address=3", "--reports", reports,
                                 "--metrics-token-file", os.path.join(tmp, "metrics.token"), "--log", "json")
        procs.append(srv)

        # ---- the address it listens on ----
        check("the server listens on 127.0.0.1 only, as --listen says", listeners(port) == ["127.0.0.1"], listeners(port))

        # ---- browser security headers ----
        for path in ["/", "/js/app.js", "/api/games", "/api/tables/999", "/nothing-here"]:
            status, h, _ = http_get(port, path)
            csp = h.get("content-security-policy", "")
            check("%s (%d): CSP forbids inline scripts and outside resources" % (path, status),
                  "script-src 'self'" in csp and "default-src 'self'" in csp and "unsafe-inline" not in csp
                  and "frame-ancestors 'none'" in csp and "connect-src 'self'" in csp, h)
            check("%s: nosniff, Referrer-Policy, X-Frame-Options" % path,
                  h.get("x-content-type-options") == "nosniff" and h.get("referrer-policy") == "no-referrer"
                  and h.get("x-frame-options") == "DENY", h)
        status, h, body = http_get(port, "/reports/thief.html")
        csp = h.get("content-security-policy", "")
        check("a report: its scripts run sandboxed, nothing from outside",
              status == 200 and csp.startswith("sandbox allow-scripts") and "default-src 'none'" in csp
              and "'self'" not in csp.split("frame-ancestors")[0], (status, h))

        # ---- the Origin of WebSocket upgrades ----
        for origin, want in [(None, 101), ("http://127.0.0.1:%d" % port, 101), ("https://friends.example", 101),
                             ("HTTP://127.0.0.1:%d" % port, 101), ("http://evil.example", 403),
                             ("http://127.0.0.1:%d.evil.example" % port, 403), ("null", 403),
                             ("https://friends.example.evil.example", 403), ("http://127.0.0.1:1", 403)]:
            ws = WS(port, origin=origin)
            ok = ws.status == want
            check("upgrade with Origin %s: %s" % (origin, "taken" if want == 101 else "refused"), ok,
                  "status %d" % ws.status)
            if ws.status == 101:  # and it works
                r = ws.request({"type": "games"}, "games")
                check("  ... and it is served", len(r["games"]) >= 7, r)
            ws.close()

        # ---- the Host of every request: DNS rebinding ----
        # A page of evil.example whose name the attacker's DNS points at 127.0.0.1 is "same origin"
        # to itself: its requests carry Host: evil.example, and its Origin matches that Host.
        evil_host = "evil.example:%d" % port
        ws = WS(port, origin="http://" + evil_host, host=evil_host)
        check("a rebinding page's upgrade (Host and Origin evil.example) is refused: 403", ws.status == 403,
              ws.status)
        ws.close()
        ws = WS(port, host=evil_host)
        check("an upgrade with Host evil.example and no Origin is refused too: 403", ws.status == 403, ws.status)
        ws.close()
        status, _, body = http_get(port, "/api/tables", extra="X-Test: 1\r\n", host=evil_host)
        check("GET /api/tables with Host evil.example: 421, nothing served", status == 421 and b"[" not in body,
              (status, body[:80]))
        for host, want in [("localhost:%d" % port, 101), ("LOCALHOST.:%d" % port, 101), ("play.localhost:%d" % port, 101),
                           ("127.0.0.1", 101), ("[::1]:%d" % port, 101), ("friends.example", 101),
                           ("friends.example.evil.example", 403), ("localhost.evil.example", 403),
                           ("a:b:c", 403)]:
            origin = None if host.startswith("friends") or host.startswith("[") else "http://" + host
            ws = WS(port, origin="https://friends.example" if host == "friends.example" else origin, host=host)
            check("upgrade with Host %s: %s" % (host, "taken" if want == 101 else "refused"), ws.status == want,
                  ws.status)
            ws.close()

        # ---- X-Forwarded-For from a trusted proxy only ----
        held = [WS(port, xff="10.0.0.1") for _ in range(3)]
        check("3 WebSockets for 10.0.0.1 through a trusted proxy", all(w.status == 101 for w in held),
              [w.status for w in held])
        fourth = WS(port, xff="203.0.113.9, 10.0.0.1")  # the last address is the one the proxy saw
        check("a 4th for 10.0.0.1 is refused (conns_per_address=3): 403", fourth.status == 403, fourth.status)
        other = WS(port, xff="10.0.0.2")
        check("another client's address behind the same proxy is taken", other.status == 101, other.status)
        for w in held + [fourth, other]:
            w.close()
        # An IPv6 /64 is one client: three addresses of 2001:db8:1:2::/64 hold its 3, a fourth of the
        # same /64 is refused, one of the next /64 is another client.
        held = [WS(port, xff="2001:db8:1:2::%d" % (i + 1)) for i in range(3)]
        fourth = WS(port, xff="2001:db8:1:2:ffff::9")
        other = WS(port, xff="2001:db8:1:3::1")
        check("an IPv6 /64 is one client: 3 taken, a 4th of the /64 refused, another /64 taken",
              all(w.status == 101 for w in held) and fourth.status == 403 and other.status == 101,
              [w.status for w in held] + [fourth.status, other.status])
        for w in held + [fourth, other]:
            w.close()
        srv2, port2 = start_server(tmp, "untrusting", "--limit", "conns_per_address=3")
        procs.append(srv2)
        held = [WS(port2, xff="10.0.0.%d" % i) for i in range(1, 4)]
        fourth = WS(port2, xff="10.0.0.4")
        check("without --trust-proxy, X-Forwarded-For is ignored (the 4th from 127.0.0.1 is refused)",
              all(w.status == 101 for w in held) and fourth.status == 403,
              [w.status for w in held] + [fourth.status])
        for w in held + [fourth]:
            w.close()

        # ---- /metrics ----
        check_metrics(port, token, tmp)

        # ---- nginx with TLS in front ----
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        if not os.path.exists(nginx):
            check("nginx is installed (scripts/deps)", False)
            return
        key, cert = os.path.join(tmp, "key.pem"), os.path.join(tmp, "cert.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                        "/CN=localhost", "-keyout", key, "-out", cert], check=True, capture_output=True)
        tls_port, http_port = free_port(), free_port()
        site = open(os.path.join(REPO, "contrib", "nginx-pilfer.conf")).read()
        site = site.replace("server 127.0.0.1:8080;", "server 127.0.0.1:%d;" % port)
        site = site.replace("    listen 443 ssl http2;\n", "    listen 127.0.0.1:%d ssl http2;\n" % tls_port)
        site = site.replace("    listen 80;\n", "    listen 127.0.0.1:%d;\n" % http_port)
        site = re.sub(r"    listen \[::\]:\d+.*\n", "", site)
        site = site.replace("/etc/letsencrypt/live/pilfer.example.org/fullchain.pem", cert)
        site = site.replace("/etc/letsencrypt/live/pilfer.example.org/privkey.pem", key)
        check("the test changed only addresses and paths in contrib/nginx-pilfer.conf",
              str(tls_port) in site and cert in site and "[::]" not in site)
        for d in ["body", "proxy", "fastcgi", "uwsgi", "scgi"]:
            os.mkdir(os.path.join(tmp, d))
        with open(os.path.join(tmp, "site.conf"), "w") as f:
            f.write(site)
        conf = os.path.join(tmp, "nginx.conf")
        with open(conf, "w") as f:
            f.write("daemon off; worker_processes 1; pid %(t)s/nginx.pid; error_log %(t)s/nginx.log;\n%(user)s"
                    "events { worker_connections 256; }\n"
                    "http { access_log off; client_body_temp_path %(t)s/body; proxy_temp_path %(t)s/proxy;"
                    " fastcgi_temp_path %(t)s/fastcgi; uwsgi_temp_path %(t)s/uwsgi; scgi_temp_path %(t)s/scgi;"
                    " include %(t)s/site.conf; }\n" % {"t": tmp, "user": "user root;\n" if os.getuid() == 0 else ""})
        t = subprocess.run([nginx, "-t", "-c", conf, "-p", tmp], capture_output=True, text=True)
        check("nginx -t accepts the configuration", t.returncode == 0, t.stderr)
        ngx = subprocess.Popen([nginx, "-c", conf, "-p", tmp], stderr=subprocess.PIPE, text=True)
        procs.append(ngx)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", tls_port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        status, h, body = http_get(tls_port, "/", tls=True)
        check("GET / over HTTPS through nginx", status == 200 and b"<script type=\"module\"" in body, (status, h))
        check("  ... with the server's CSP and nginx's HSTS",
              "script-src 'self'" in h.get("content-security-policy", "") and "max-age" in h.get("strict-transport-security", ""), h)
        status, h, body = http_get(http_port, "/")
        check("plain HTTP is sent to HTTPS", status == 301 and h.get("location", "").startswith("https://"), (status, h))
        status, _, body = http_get(tls_port, "/api/games", tls=True)
        check("GET /api/games over HTTPS", status == 200 and len(json.loads(body)) >= 7, status)
        evil = WS(tls_port, tls=True, origin="https://evil.example", host="127.0.0.1:%d" % tls_port)
        check("wss:// upgrade from another site is refused through the proxy: 403", evil.status == 403, evil.status)
        evil.close()
        try:
            final = play_game(tls_port, True, "https://127.0.0.1:%d" % tls_port)
            check("a whole game of Thief over wss:// through nginx",
                  final["status"] == "over" and "winners" in final.get("result", {}), final.get("result"))
        except (AssertionError, EOFError, OSError) as e:
            check("a whole game of Thief over wss:// through nginx", False, e)
        status, _, body = http_get(port, "/api/tables")
        check("the server saw the game end", status == 200 and any(t.get("status") == "over" for t in json.loads(body)), body[:300])

        # ---- the log ----
        srv.terminate()
        rest = srv.stdout.read()
        srv.wait(5)
        out_lines = [srv.first_line] + rest.splitlines()
        err_lines = open(os.path.join(tmp, "main.log")).read().splitlines()
        try:
            events = [json.loads(l) for l in out_lines + err_lines if l.strip()]
            parsed = all(set(e) >= {"time", "event", "message"} for e in events)
        except ValueError as e:
            events, parsed = [], False
            print("     " + str(e))
        check("--log json: every line is one JSON object with time, event and message", parsed and events,
              (out_lines + err_lines)[:5])
        kinds = {(e["event"], e.get("limit")) for e in events}
        check("the log tells the start, the stop and the limits hit (origin, conns_per_address)",
              {("start", None), ("stop", None), ("limit", "origin"), ("limit", "conns_per_address")} <= kinds, kinds)
        text = "\n".join(out_lines + err_lines)
        check("no seat's token is in the log (%d tokens)" % len(TOKENS), TOKENS and not any(t in text for t in TOKENS))
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()
        if checks.failed:
            print("files kept in " + tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


main()
print("%s" % ("all passed" if not checks.failed else "%d failed" % checks.failed))
sys.exit(1 if checks.failed else 0)
