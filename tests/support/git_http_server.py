#!/usr/bin/env python3
"""A local git smart-HTTP server for tests: `git http-backend` behind a small threaded
HTTP server. Repositories are bare repositories under --root, served at /<owner>/<repo>.
With --token, every request must carry Basic credentials x-access-token:<token> (as
GitHub App installation tokens are sent). GET /<owner>/<repo>/blob/<commit>/<path> answers
the file's text at that commit (GitHub's page of a file, as plain text; 404 when there is
none). /redirect/<path> answers 302 to
http://localhost:<port>/<path> (another host), to show that redirects are not followed. Writes the chosen port to --port-file.
--bind, --port and --tls-cert/--tls-key (PEM) serve on another address, a fixed port and over
https (the DNS rebinding test serves one repository on a "public" address and another on
127.0.0.1)."""
import argparse
import base64
import os
import re
import ssl
import subprocess
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# GitHub's web page of a file: /<owner>/<repo>/blob/<commit>/<path> (no dot-names: no way out of --root).
BLOB_PAGE = re.compile(r"^/([\w-][\w.-]*)/([\w-][\w.-]*)/blob/([0-9a-f]{7,40})/((?:[\w-][\w.-]*/)*[\w-][\w.-]*)$")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--token", default="")
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--tls-cert", default="")
    parser.add_argument("--tls-key", default="")
    args = parser.parse_args()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt, *values):
            sys.stderr.write("git-http: " + (fmt % values) + "\n")

        def read_body(self):
            if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                data = b""
                while True:
                    size = int(self.rfile.readline().strip().split(b";")[0], 16)
                    if size == 0:
                        self.rfile.readline()
                        return data
                    data += self.rfile.read(size)
                    self.rfile.readline()
            return self.rfile.read(int(self.headers.get("Content-Length") or 0))

        def reply(self, status, headers, body):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def handle_any(self):
            body = self.read_body() if self.command == "POST" else b""
            path, _, query = self.path.partition("?")
            if path.startswith("/redirect/"):
                # Off-site (another host name for this machine): what a hostile server would do.
                target = "http://localhost:%d%s" % (self.server.server_address[1], path[len("/redirect"):])
                self.reply(302, [("Location", target + ("?" + query if query else ""))], b"")
                return
            if args.token:
                expected = "Basic " + base64.b64encode(("x-access-token:" + args.token).encode()).decode()
                if self.headers.get("Authorization", "") != expected:
                    # Closing after the challenge keeps clients from reusing a half-read connection.
                    self.close_connection = True
                    self.reply(401, [("WWW-Authenticate", 'Basic realm="git"'), ("Connection", "close")], b"")
                    return
            blob = BLOB_PAGE.match(path) if self.command == "GET" else None
            if blob:
                self.blob_page(*blob.groups())
                return
            env = dict(os.environ)
            env.update({
                "GIT_PROJECT_ROOT": args.root,
                "GIT_HTTP_EXPORT_ALL": "1",
                "PATH_INFO": path,
                "QUERY_STRING": query,
                "REQUEST_METHOD": self.command,
                "CONTENT_TYPE": self.headers.get("Content-Type", ""),
                "CONTENT_LENGTH": str(len(body)),
                "REMOTE_ADDR": self.client_address[0],
                "GIT_PROTOCOL": self.headers.get("Git-Protocol", ""),
            })
            done = subprocess.run(["git", "http-backend"], input=body, env=env, capture_output=True)
            head, _, payload = done.stdout.partition(b"\r\n\r\n")
            status = 200
            headers = []
            for line in head.decode("latin-1").split("\r\n"):
                if not line:
                    continue
                name, _, value = line.partition(":")
                if name.lower() == "status":
                    status = int(value.strip().split()[0])
                else:
                    headers.append((name, value.strip()))
            self.reply(status, headers, payload)

        def blob_page(self, owner, repo, commit, file_path):
            # What GitHub's web page of a file shows, reduced to the file's text at that commit.
            git_dir = os.path.join(args.root, owner, repo)
            if not os.path.isdir(git_dir) and os.path.isdir(git_dir + ".git"):
                git_dir += ".git"
            shown = subprocess.run(["git", "--git-dir", git_dir, "show", commit + ":" + file_path], capture_output=True)
            if shown.returncode != 0:
                self.reply(404, [("Content-Type", "text/plain; charset=utf-8")], b"Not Found\n")
                return
            self.reply(200, [("Content-Type", "text/plain; charset=utf-8")], shown.stdout)

        do_GET = handle_any
        do_POST = handle_any

    server = ThreadingHTTPServer((args.bind, args.port), Handler)
    if args.tls_cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls_cert, args.tls_key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    with open(args.port_file + ".tmp", "w") as out:
        out.write(str(server.server_address[1]))
    os.rename(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
