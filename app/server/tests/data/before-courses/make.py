#!/usr/bin/env python3
"""Makes `lockstep.sqlite3` here: a database written by the release before courses (commit
7ba57d9, one course in `lessons/`), with a learner's progress in it, and `panel.json`, what that
release's `/xp` showed them. `app/server/tests/courses.rs` opens the database with today's code.

    git worktree add /tmp/before 7ba57d9
    (cd /tmp/before && cargo build -p lockstep-server --bin lockstep)
    python3 make.py /tmp/before/target/debug/lockstep /tmp/before/lessons
"""

import html
import http.cookiejar
import json
import os
import re
import sqlite3
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

EMAIL, PASSWORD = "ada@example.org", "gradient buckets overlap"


def main(binary, lessons):
    here = os.path.dirname(os.path.abspath(__file__))
    work = tempfile.mkdtemp()
    db = os.path.join(work, "lockstep.sqlite3")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, DATABASE_URL=f"sqlite://{db}?mode=rwc", LOCKSTEP_ADDR=f"127.0.0.1:{port}",
               LOCKSTEP_LESSONS=lessons, LOCKSTEP_SITE_ROOT=work, RUST_LOG="warn")
    server = subprocess.Popen([binary], env=env)
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port)).close()
                break
            except OSError:
                time.sleep(0.1)
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

        def get(path):
            return opener.open(base + path).read().decode()

        def post(path, fields):
            req = urllib.request.Request(base + path, data=urllib.parse.urlencode(fields).encode(),
                                         headers={"Sec-Fetch-Site": "same-origin", "Origin": base})
            return opener.open(req).read().decode()

        post("/account/sign-up", {"email": EMAIL, "password": PASSWORD})
        for slug in ["why-distributed", "dataparallel"]:
            page = get(f"/lessons/{slug}")
            action = next(a for a in re.findall(r'action="([^"]+)"', page) if a.startswith("/api/"))
            post(html.unescape(action), {"slug": slug})
        post("/api/explore_simulation", {"slug": "dataparallel", "index": "0"})
        page = get("/xp")
        field = lambda role: re.sub(r"<[^>]+>", "", re.search(
            rf'data-role="{role}">(.*?)</li>', page, re.S).group(1)).strip()
        panel = {"xp": field("xp"), "lessons": field("lessons"), "achievements": field("achievements")}
    finally:
        server.terminate()
        server.wait()
    # The database with its write-ahead log folded in: one file that stands alone.
    out = os.path.join(here, "lockstep.sqlite3")
    if os.path.exists(out):
        os.remove(out)
    with sqlite3.connect(db) as source, sqlite3.connect(out) as copy:
        source.backup(copy)
    with open(os.path.join(here, "panel.json"), "w") as f:
        json.dump(panel, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print(panel)


if __name__ == "__main__":
    main(*sys.argv[1:3])
