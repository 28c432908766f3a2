"""A server's client for the Python tests (test_hosting.py, test_shard.py, test_cluster_nginx.py,
test_lobby.py): starting `pilfer serve`, HTTP GET, and a minimal WebSocket client (RFC 6455: text
messages, pings answered), all on loopback."""
import base64
import json
import os
import re
import socket
import ssl
import subprocess


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(pilfer, log_path, *args):
    """`pilfer serve --listen 127.0.0.1:0 ARGS`: (process, port), once it prints that it listens."""
    log = open(log_path, "a")
    p = subprocess.Popen([pilfer, "serve", "--listen", "127.0.0.1:0", *args], stdout=subprocess.PIPE, stderr=log,
                         text=True)
    p.first_line = p.stdout.readline()
    m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", p.first_line)
    if not m:
        p.kill()
        p.wait()
        raise RuntimeError("pilfer serve %s did not start: %r (%s)" % (" ".join(args), p.first_line, log_path))
    return p, int(m.group(1))


def connect(port, tls=False, timeout=10):
    """A TCP connection to 127.0.0.1:port; with tls, TLS over it (any certificate: the tests' own
    self-signed ones)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    if tls:
        ctx = ssl.create_default_context()
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
        ctx.set_alpn_protocols(["http/1.1"])
        s = ctx.wrap_socket(s, server_hostname="localhost")
    return s


def read_head(s):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(4096)
        if not chunk:
            break
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1]) if len(lines[0].split()) > 1 else 0
    headers = {}
    for l in lines[1:]:
        k, _, v = l.partition(":")
        headers[k.strip().lower()] = v.strip()
    return status, headers, rest


def http_get(port, path, tls=False, extra="", host=None):
    """GET path from 127.0.0.1:port (over TLS with tls), with the header lines extra and the Host
    host (default 127.0.0.1:port): (status, headers, body bytes)."""
    s = connect(port, tls)
    s.sendall(("GET %s HTTP/1.1\r\nHost: %s\r\n%sConnection: close\r\n\r\n"
               % (path, host or "127.0.0.1:%d" % port, extra)).encode())
    status, headers, body = read_head(s)
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        body += chunk
    s.close()
    return status, headers, body


def http_json(port, path):
    status, _, body = http_get(port, path)
    return status, json.loads(body) if body else None


class WS:
    """A WebSocket to 127.0.0.1:port at path; status is the upgrade's HTTP status (101)."""

    def __init__(self, port, path="/ws", timeout=30, tls=False, origin=None, host=None, xff=None):
        """With origin, host or xff: the upgrade's Origin, Host and X-Forwarded-For headers."""
        self.s = connect(port, tls, timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        req = ("GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: pilfer\r\n"
               % (path, host or "127.0.0.1:%d" % port, key))
        if origin:
            req += "Origin: %s\r\n" % origin
        if xff:
            req += "X-Forwarded-For: %s\r\n" % xff
        self.s.sendall((req + "\r\n").encode())
        self.status, self.headers, self.buf = read_head(self.s)
        self.next_id = 1

    def send(self, obj):
        data = json.dumps(obj).encode()
        mask = os.urandom(4)
        n = len(data)
        head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + n.to_bytes(2, "big"))
        self.s.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _need(self, n):
        while len(self.buf) < n:
            chunk = self.s.recv(65536)
            if not chunk:
                raise EOFError("closed")
            self.buf += chunk

    def recv(self):
        message = b""
        while True:
            self._need(2)
            op, n = self.buf[0] & 0x0F, self.buf[1] & 0x7F
            at = 2
            if n == 126:
                self._need(4)
                n, at = int.from_bytes(self.buf[2:4], "big"), 4
            elif n == 127:
                self._need(10)
                n, at = int.from_bytes(self.buf[2:10], "big"), 10
            self._need(at + n)
            payload, fin = self.buf[at:at + n], self.buf[0] & 0x80
            self.buf = self.buf[at + n:]
            if op == 9:  # ping
                mask = os.urandom(4)
                self.s.sendall(bytes([0x8A, 0x80 | len(payload)]) + mask +
                               bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
                continue
            if op == 8:
                raise EOFError("closed by the server")
            message += payload
            if fin:
                return json.loads(message)

    def request(self, obj, want=None):
        """Sends obj with the next id; the reply to it (or its error); with want, a reply of
        another type is an AssertionError."""
        obj["id"] = self.next_id
        self.next_id += 1
        self.send(obj)
        while True:
            m = self.recv()
            if m.get("id") == obj["id"]:
                if want and m.get("type") != want:
                    raise AssertionError("%s: wanted %s, got %s" % (obj, want, m))
                return m

    def state(self, table, ply_above=-1):
        """The next state of table whose ply is above ply_above."""
        while True:
            m = self.recv()
            if m.get("type") == "state" and m.get("table") == table and m.get("ply", 0) > ply_above:
                return m

    def close(self):
        self.s.close()
