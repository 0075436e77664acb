#!/usr/bin/env python3
"""A smart-HTTP git server for the patch-branch tests: git http-backend behind
HTTP Basic authentication, on 127.0.0.1.

usage: git_http_server.py PROJECT_ROOT PASSWORD LOG

Every request's method, path and Authorization header is appended to LOG, one
line each. A request without "Basic base64(x-access-token:PASSWORD)" gets 401
with a Basic challenge; the rest go to git http-backend as CGI. The chosen
port is printed on stdout's first line.
"""
import base64
import http.server
import subprocess
import sys

ROOT, PASSWORD, LOG = sys.argv[1], sys.argv[2], sys.argv[3]
EXPECTED = "Basic " + base64.b64encode(("x-access-token:" + PASSWORD).encode()).decode()


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def handle_one(self):
        auth = self.headers.get("Authorization", "")
        with open(LOG, "a") as log:
            log.write(f"{self.command} {self.path} {auth}\n")
        if auth != EXPECTED:
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="git"')
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = self.read_body()
        path, _, query = self.path.partition("?")
        env = {
            "GIT_PROJECT_ROOT": ROOT, "GIT_HTTP_EXPORT_ALL": "1", "REMOTE_USER": "x-access-token",
            "REQUEST_METHOD": self.command, "PATH_INFO": path, "QUERY_STRING": query,
            "CONTENT_TYPE": self.headers.get("Content-Type", ""), "CONTENT_LENGTH": str(len(body)),
            "PATH": "/usr/bin:/bin",
        }
        if self.headers.get("Content-Encoding"):
            env["HTTP_CONTENT_ENCODING"] = self.headers["Content-Encoding"]
        out = subprocess.run(["git", "http-backend"], input=body, env=env, capture_output=True).stdout
        head, _, payload = out.partition(b"\r\n\r\n")
        status = 200
        headers = []
        for line in head.split(b"\r\n"):
            name, _, value = line.decode().partition(":")
            if name.lower() == "status":
                status = int(value.strip().split()[0])
            elif name:
                headers.append((name, value.strip()))
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            body = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    self.rfile.readline()
                    return body
                body += self.rfile.read(size)
                self.rfile.readline()
        length = int(self.headers.get("Content-Length", "0") or 0)
        return self.rfile.read(length) if length else b""

    do_GET = handle_one
    do_POST = handle_one


server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
try:
    print(server.server_address[1], flush=True)
    sys.stdout.close()
except BrokenPipeError:
    pass  # the test stopped reading: it serves all the same
server.serve_forever()
