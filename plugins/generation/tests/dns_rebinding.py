#!/usr/bin/env python3
"""DNS rebinding against `docsd generate`, with the system's resolver (glibc) and a real
DNS server. Run inside fresh network and mount namespaces (as root):

    unshare --net --mount --fork python3 dns_rebinding.py --docsd build/bin/docsd --work DIR

There the loopback carries 93.184.215.14 (a public address) as well as 127.0.0.1,
/etc/resolv.conf names a DNS server on 127.0.0.1:53 that answers rebind.test with
93.184.215.14 to the first A query and 127.0.0.1 to every later one, and the test CA is
the system's CA bundle. An https git server on 93.184.215.14:443 serves acme/widgets
with a README saying "public"; another on 127.0.0.1:443 (the trap: the server's own
network) serves the same path saying "TRAP", with a certificate for rebind.test too, so a
clone that asked DNS again would succeed there. Prints key=value lines: docsd's exit
status, whether the pages came from the public or the trap repository, how many A
queries the DNS server answered and how many requests the trap saw. Nothing here
changes the machine outside the namespaces (the mounts and addresses die with them)."""
import argparse
import os
import socket
import struct
import subprocess
import sys
import threading
import time

PUBLIC = "93.184.215.14"
NAME = "rebind.test"


def run(argv, **kwargs):
    done = subprocess.run(argv, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        raise SystemExit("failed: %s\n%s%s" % (" ".join(argv), done.stdout, done.stderr))
    return done.stdout


class Resolver(threading.Thread):
    """Answers A queries for NAME: PUBLIC first, 127.0.0.1 after; no AAAA; NXDOMAIN else."""

    def __init__(self):
        super().__init__(daemon=True)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 53))
        self.a_queries = 0
        self.lock = threading.Lock()

    def run(self):
        while True:
            data, peer = self.sock.recvfrom(4096)
            reply = self.answer(data)
            if reply:
                self.sock.sendto(reply, peer)

    def answer(self, data):
        if len(data) < 12:
            return None
        ident, _flags, qdcount = struct.unpack("!HHH", data[:6])
        if qdcount != 1:
            return None
        labels, at = [], 12
        while at < len(data) and data[at] != 0:
            length = data[at]
            labels.append(data[at + 1:at + 1 + length].decode("ascii", "replace").lower())
            at += 1 + length
        at += 1
        if at + 4 > len(data):
            return None
        qtype, _qclass = struct.unpack("!HH", data[at:at + 4])
        question = data[12:at + 4]
        name = ".".join(labels)
        answers = []
        rcode = 0
        if name != NAME:
            rcode = 3  # NXDOMAIN
        elif qtype == 1:
            with self.lock:
                self.a_queries += 1
                address = PUBLIC if self.a_queries == 1 else "127.0.0.1"
            # A pointer to the question's name, type A, class IN, TTL 0, four bytes.
            answers.append(struct.pack("!HHHIH", 0xC00C, 1, 1, 0, 4) + socket.inet_aton(address))
        header = struct.pack("!HHHHHH", ident, 0x8180 | rcode, 1, len(answers), 0, 0)
        return header + question + b"".join(answers)


def make_repository(root, work, readme):
    env = dict(os.environ, GIT_AUTHOR_NAME="T", GIT_AUTHOR_EMAIL="t@e", GIT_COMMITTER_NAME="T",
               GIT_COMMITTER_EMAIL="t@e", GIT_CONFIG_NOSYSTEM="1", HOME="/nonexistent")
    bare = os.path.join(root, "acme", "widgets")
    run(["git", "init", "-q", "--bare", "--initial-branch=main", bare], env=env)
    os.makedirs(work)
    run(["git", "-C", work, "init", "-q", "--initial-branch=main"], env=env)
    with open(os.path.join(work, "README.md"), "w") as out:
        out.write("# Widgets\n\n%s\n" % readme)
    with open(os.path.join(work, "widgets.py"), "w") as out:
        out.write('def widget():\n    """%s"""\n    return 1\n' % readme)
    run(["git", "-C", work, "add", "-A"], env=env)
    run(["git", "-C", work, "commit", "-q", "-m", "first"], env=env)
    run(["git", "-C", work, "push", "-q", bare, "main"], env=env)


def start_server(script, root, bind, cert, key, log_path, port_file):
    log = open(log_path, "w")
    process = subprocess.Popen(["python3", script, "--root", root, "--port-file", port_file, "--bind", bind,
                                "--port", "443", "--tls-cert", cert, "--tls-key", key], stderr=log)
    while not os.path.exists(port_file):  # written once the socket listens
        if process.poll() is not None:
            raise SystemExit("the git server on %s did not start: %s" % (bind, open(log_path).read()))
        time.sleep(0.02)
    return process


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--docsd", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    server_script = os.path.join(here, "..", "..", "..", "tests", "support", "git_http_server.py")
    work = args.work

    run(["ip", "link", "set", "lo", "up"])
    run(["ip", "addr", "add", PUBLIC + "/32", "dev", "lo"])

    # A CA and a certificate for rebind.test signed by it (EC keys: fast).
    run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-keyout", work + "/ca.key", "-out", work + "/ca.pem", "-days", "2", "-subj", "/CN=docs rebinding test CA"])
    run(["openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-keyout", work + "/server.key", "-out", work + "/server.csr", "-subj", "/CN=" + NAME])
    with open(work + "/san.cnf", "w") as out:
        out.write("subjectAltName=DNS:%s\n" % NAME)
    run(["openssl", "x509", "-req", "-in", work + "/server.csr", "-CA", work + "/ca.pem", "-CAkey", work + "/ca.key",
         "-CAcreateserial", "-out", work + "/server.pem", "-days", "2", "-extfile", work + "/san.cnf"])

    # The namespace's own resolver configuration and CA bundle.
    with open(work + "/resolv.conf", "w") as out:
        out.write("nameserver 127.0.0.1\noptions attempts:1 timeout:2\n")
    run(["mount", "--bind", work + "/resolv.conf", "/etc/resolv.conf"])
    run(["mount", "--bind", work + "/ca.pem", "/etc/ssl/certs/ca-certificates.crt"])
    with open("/etc/hosts") as hosts:
        if NAME in hosts.read():
            raise SystemExit("/etc/hosts names " + NAME)

    resolver = Resolver()
    resolver.start()

    make_repository(work + "/public-root", work + "/public-work", "public")
    make_repository(work + "/trap-root", work + "/trap-work", "TRAP")
    servers = [
        start_server(server_script, work + "/public-root", PUBLIC, work + "/server.pem", work + "/server.key",
                     work + "/public.log", work + "/public.port"),
        start_server(server_script, work + "/trap-root", "127.0.0.1", work + "/server.pem", work + "/server.key",
                     work + "/trap.log", work + "/trap.port"),
    ]
    try:
        env = dict(os.environ, DOCS_GENERATION_ALLOWED_HOSTS=NAME, DOCS_MERMAID_CHECK=work + "/no-such-script.mjs",
                   TMPDIR=work)
        done = subprocess.run([args.docsd, "generate", "https://%s/acme/widgets" % NAME, "--out", work + "/out"],
                              capture_output=True, text=True, env=env, timeout=240)
    finally:
        for server in servers:
            server.terminate()
            server.wait()
    pages = ""
    for folder, _dirs, files in os.walk(work + "/out"):
        for name in files:
            if name.endswith(".md"):
                with open(os.path.join(folder, name), errors="replace") as page:
                    pages += page.read()
    trap_requests = sum(1 for line in open(work + "/trap.log") if line.startswith("git-http:"))
    public_requests = sum(1 for line in open(work + "/public.log") if line.startswith("git-http:"))
    print("status=%d" % done.returncode)
    print("pages_from_public=%d" % ("public" in pages))
    print("pages_from_trap=%d" % ("TRAP" in pages))
    print("a_queries=%d" % resolver.a_queries)
    print("public_requests=%d" % public_requests)
    print("trap_requests=%d" % trap_requests)
    sys.stdout.write("stderr:\n" + done.stderr[-2000:] + "\n")


if __name__ == "__main__":
    main()
