"""A local stand-in for GitHub's release endpoints, as dist/install.sh uses
them (docs.github.com REST "Releases" and "Release assets"):
  GET {api}/repos/{owner}/{repo}/releases/tags/{tag}   the release, 404 if none
  GET {api}/repos/{owner}/{repo}/releases/assets/{id}  with Accept:
      application/octet-stream: a 302 to the download (GitHub redirects to
      its storage); with any other Accept, the asset's JSON
Every request is recorded with its Authorization header; anything else,
writes included, is answered 404 (a token without access)."""

import http.server
import json
import threading


class ReleaseServer:
    def __init__(self):
        self.releases = {}   # (repo, tag) -> {asset name: bytes}
        self.requests = []   # (path, authorization)
        self._ids = {}
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                server.requests.append((self.path, self.headers.get("Authorization", "")))
                server._answer(self)

            def _refuse(self):  # any write: as GitHub answers a token without access
                server.requests.append((self.path, self.headers.get("Authorization", "")))
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                server._send(self, 404, b'{"message":"Not Found"}')

            do_POST = do_PATCH = do_PUT = _refuse

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.api = self.url + "/api/v3"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()

    def publish(self, repo, tag, assets):
        self.releases[(repo, tag)] = dict(assets)
        for name in assets:
            self._ids.setdefault((repo, tag, name), 1000 + len(self._ids))

    def downloads(self, repo, tag, name, since=0):
        """How many requests since the `since`-th asked for asset `name`."""
        path = f"/api/v3/repos/{repo}/releases/assets/{self._ids[(repo, tag, name)]}"
        return sum(1 for p, _ in self.requests[since:] if p.split("?")[0] == path)

    def _send(self, handler, status, body=b"", content_type="application/json", headers=None):
        handler.send_response(status)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            handler.send_header(k, v)
        handler.end_headers()
        handler.wfile.write(body)

    def _answer(self, h):
        parts = h.path.split("?")[0].split("/")
        # /api/v3/repos/OWNER/REPO/releases/tags/TAG
        if parts[1:4] == ["api", "v3", "repos"] and parts[6:8] == ["releases", "tags"] and len(parts) == 9:
            repo, tag = f"{parts[4]}/{parts[5]}", parts[8]
            if (repo, tag) not in self.releases:
                return self._send(h, 404, b'{"message":"Not Found"}')
            assets = [{"id": self._ids[(repo, tag, n)], "name": n, "size": len(b),
                       "url": f"{self.api}/repos/{repo}/releases/assets/{self._ids[(repo, tag, n)]}",
                       "browser_download_url": f"{self.url}/{repo}/releases/download/{tag}/{n}"}
                      for n, b in self.releases[(repo, tag)].items()]
            return self._send(h, 200, json.dumps({"tag_name": tag, "assets": assets}, indent=2).encode())
        if parts[1:4] == ["api", "v3", "repos"] and parts[6:8] == ["releases", "assets"] and len(parts) == 9:
            for (repo, tag, name), ident in self._ids.items():
                if str(ident) == parts[8] and (repo, tag) in self.releases:
                    if h.headers.get("Accept") != "application/octet-stream":
                        return self._send(h, 200, json.dumps({"id": ident, "name": name}).encode())
                    return self._send(h, 302, headers={"Location": f"{self.url}/storage/{ident}"})
            return self._send(h, 404, b'{"message":"Not Found"}')
        if parts[1] == "storage":
            for (repo, tag, name), ident in self._ids.items():
                if str(ident) == parts[2] and (repo, tag) in self.releases:
                    return self._send(h, 200, self.releases[(repo, tag)][name], "application/octet-stream")
        return self._send(h, 404, b'{"message":"Not Found"}')
