#!/usr/bin/env python3
"""A recording HTTPS proxy in front of kube-apiserver, for run.sh.

Listens on 127.0.0.1:PORT with CERT/KEY, forwards each request to UPSTREAM (trusting CA), and
writes every exchange to OUT as the JSON list tests/live_server replays: method, path with its
query as the client sent it, status, body. Two changes to what is forwarded, so that a small
fleet shows what a large one would: `limit=500` is forwarded as `limit=2` (lists page), and
before the first continue token of a list whose resource is in EXPIRE is forwarded, etcd is
compacted to its current revision (ETCDCTL names etcdctl), so the API server answers that
token with its own 410 Gone. Anything but GET is refused with 405 and recorded (the tests then
fail: topoplan must never send one).

  record.py PORT CERT KEY UPSTREAM CA OUT ETCDCTL ETCD_ENDPOINT EXPIRE[,EXPIRE...]
"""
import http.client
import http.server
import json
import ssl
import subprocess
import sys
import threading
import urllib.parse

PORT, CERT, KEY, UPSTREAM, CA, OUT, ETCDCTL, ETCD, EXPIRE = sys.argv[1:10]
EXPIRE = set(e for e in EXPIRE.split(",") if e)
LOCK = threading.Lock()
EXCHANGES = []
EXPIRED = set()
UP = urllib.parse.urlsplit(UPSTREAM)
UP_CTX = ssl.create_default_context(cafile=CA)


def compact():
    # A write moves etcd past the revision the continue token holds; compacting to it makes
    # that revision unreadable, as a busy cluster's compaction would.
    subprocess.run([ETCDCTL, "--endpoints", ETCD, "put", "/topoplan-recorder/bump", "x"],
                   check=True, capture_output=True)
    status = subprocess.run([ETCDCTL, "--endpoints", ETCD, "endpoint", "status", "-w", "json"],
                            check=True, capture_output=True, text=True).stdout
    rev = json.loads(status)[0]["Status"]["header"]["revision"]
    subprocess.run([ETCDCTL, "--endpoints", ETCD, "compaction", str(rev)], check=True,
                   capture_output=True)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        path = self.path
        parts = urllib.parse.urlsplit(path)
        query = urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
        forwarded = [(k, "2" if k == "limit" else v) for k, v in query]
        resource = parts.path.rstrip("/").split("/")[-1]
        if any(k == "continue" for k, _ in query) and resource in EXPIRE and resource not in EXPIRED:
            EXPIRED.add(resource)
            compact()
        target = parts.path + ("?" + urllib.parse.urlencode(forwarded) if forwarded else "")
        conn = http.client.HTTPSConnection(UP.hostname, UP.port, context=UP_CTX, timeout=30)
        headers = {k: v for k, v in self.headers.items() if k.lower() in ("authorization", "accept", "user-agent")}
        conn.request("GET", target, headers=headers)
        resp = conn.getresponse()
        raw = resp.read()
        try:
            body = json.loads(raw)
        except ValueError:
            body = raw.decode("utf-8", "replace")
        with LOCK:
            EXCHANGES.append({"method": "GET", "path": path, "status": resp.status, "body": body})
            flush()
        self.answer(resp.status, body)

    def refuse(self):
        with LOCK:
            EXCHANGES.append({"method": self.command, "path": self.path, "status": 405, "body": {}})
            flush()
        self.answer(405, {"kind": "Status", "message": "the recorder forwards GET only"})

    do_POST = do_PUT = do_PATCH = do_DELETE = refuse


def flush():
    with open(OUT, "w") as f:
        json.dump(EXCHANGES, f, indent=2)
        f.write("\n")


server = http.server.ThreadingHTTPServer(("127.0.0.1", int(PORT)), Handler)
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(CERT, KEY)
server.socket = ctx.wrap_socket(server.socket, server_side=True)
server.serve_forever()
