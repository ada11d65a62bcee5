#!/usr/bin/env python3
"""Every page of the site, as four kinds of reader see it, written to files to compare two builds.

A refactor that must not change what learners see is checked by capturing the pages with the
server built before it and with the server built after it, from copies of one database, and
comparing the two folders (`diff -r`). Only the per-response nonce differs between two runs, and
it is replaced by `NONCE`.

    # once, with the old build: a database where learners did things (two graded submissions)
    python3 xtask/pages/capture.py seed --bin=target/debug --db=/tmp/pages/seed.sqlite3
    python3 xtask/pages/capture.py capture --bin=target/debug --db=/tmp/pages/seed.sqlite3 --out=/tmp/pages/before
    # after the change, rebuilt
    python3 xtask/pages/capture.py capture --bin=target/debug --db=/tmp/pages/seed.sqlite3 --out=/tmp/pages/after
    diff -r /tmp/pages/before /tmp/pages/after

`seed` needs the grading worker's Python environment (`LOCKSTEP_VENV`, as `cargo xtask setup`
makes it). Standard library only.
"""

import argparse
import html.parser
import http.cookiejar
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PASSWORD = "correct horse battery"



def exercise_script(folder, name):
    """An exercise's script: its solution.py, or a wrong answer (wrong/NAME.diff applied to it)."""
    with open(os.path.join(folder, "solution.py")) as f:
        solution = f.read()
    if name == "solution.py":
        return solution
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "script.py")
        subprocess.run(
            ["patch", "--quiet", "-o", out, os.path.join(folder, "solution.py"), os.path.join(folder, "wrong", name)],
            check=True,
        )
        with open(out) as f:
            return f.read()

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Reader:
    """One browser: its cookies, and requests that do not follow redirects."""

    def __init__(self, base, cookies=None):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        # A reader with fixed cookies keeps no jar: urllib would send the jar's cookies instead.
        handlers = [NoRedirect] if cookies else [urllib.request.HTTPCookieProcessor(self.jar), NoRedirect]
        self.opener = urllib.request.build_opener(*handlers)
        self.fixed = cookies

    def request(self, method, path, body=None, headers=None):
        headers = dict(headers or {})
        if body is not None:
            headers["Origin"] = self.base
        if self.fixed:
            headers["Cookie"] = self.fixed
        req = urllib.request.Request(self.base + path, data=body, method=method, headers=headers)
        try:
            res = self.opener.open(req, timeout=60)
        except urllib.error.HTTPError as e:
            res = e
        return res.status, dict(res.headers.items()), res.read()

    def get(self, path):
        return self.request("GET", path)

    def post_form(self, path, fields):
        body = urllib.parse.urlencode(fields).encode()
        return self.request(
            "POST", path, body, {"Content-Type": "application/x-www-form-urlencoded"}
        )

    def cookie_header(self):
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)


class Server:
    def __init__(self, bin_dir, db, log):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ)
        env.update(
            DATABASE_URL=f"sqlite://{db}?mode=rwc",
            LOCKSTEP_ADDR=f"127.0.0.1:{self.port}",
            LOCKSTEP_LESSONS=os.path.join(ROOT, "lessons"),
            LOCKSTEP_SITE_ROOT=os.path.join(ROOT, "target", "site"),
            LOCKSTEP_WATCH_LESSONS="false",
        )
        self.env = env
        self.proc = subprocess.Popen(
            [os.path.join(bin_dir, "lockstep")], env=env, stdout=log, stderr=log, cwd=ROOT
        )
        deadline = time.time() + 60
        while True:
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            if self.proc.poll() is not None or time.time() > deadline:
                sys.exit(f"the server at {self.base} did not start")
            time.sleep(0.2)

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=30)


class Forms(html.parser.HTMLParser):
    """Every form's action, and the links of a page."""

    def __init__(self):
        super().__init__()
        self.actions = []
        self.links = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and "action" in a:
            self.actions.append(a["action"])
        if tag == "a" and "href" in a:
            self.links.append(a["href"])


def parse(body):
    p = Forms()
    p.feed(body.decode())
    return p


def lesson_slugs(reader):
    _, _, body = reader.get("/")
    slugs = []
    for href in parse(body).links:
        m = re.fullmatch(r"/lessons/([^/#?]+)", href)
        if m and m.group(1) not in slugs:
            slugs.append(m.group(1))
    return slugs


def action_named(reader, path, name):
    _, _, body = reader.get(path)
    for action in parse(body).actions:
        if name in action:
            return action
    sys.exit(f"no form posting to {name} on {path}")


def do_things(reader, slugs, account):
    """What a learner does on the site: lessons completed, quizzes answered, a lesson reset."""
    complete = action_named(reader, f"/lessons/{slugs[0]}", "complete_lesson")
    for slug in slugs[:3]:
        status, _, _ = reader.post_form(complete, {"slug": slug})
        assert status in (200, 302, 303), (slug, status)
    reset = action_named(reader, f"/lessons/{slugs[0]}", "reset_lesson")
    reader.post_form(reset, {"slug": slugs[2]})
    # Every quiz of lessons 2-4, answered with the first option shown (a mix of right and
    # wrong), and the first quiz of lesson 2 a second time.
    for slug in slugs[1:4]:
        _, _, body = reader.get(f"/lessons/{slug}")
        text = body.decode()
        for action in parse(body).actions:
            m = re.fullmatch(rf"/lessons/{slug}/quizzes/(\d+)", action)
            if not m:
                continue
            form = text[text.index(f'action="{action}"') :]
            form = form[: form.index("</form>")]
            fields = {}
            for name, value in re.findall(r'name="([^"]+)" value="([^"]*)"', form):
                if name in ("attempt", "order") or name not in fields:
                    fields[name] = value
            status, _, _ = reader.post_form(action, fields)
            assert status == 303, (action, status)
    if account:
        _, _, body = reader.get(f"/lessons/{slugs[1]}")
        action = next(a for a in parse(body).actions if "/quizzes/" in a)
        text = body.decode()
        form = text[text.index(f'action="{action}"') :]
        form = form[: form.index("</form>")]
        fields = {}
        for name, value in re.findall(r'name="([^"]+)" value="([^"]*)"', form):
            fields[name] = value
        reader.post_form(action, fields)


def sign_up(reader, email):
    status, headers, _ = reader.post_form(
        "/account/sign-up", {"email": email, "password": PASSWORD}
    )
    assert status == 303, (status, headers)


def seed(args):
    db = os.path.abspath(args.db)
    os.makedirs(os.path.dirname(db), exist_ok=True)
    if os.path.exists(db):
        os.remove(db)
    log = open(db + ".log", "w")
    server = Server(args.bin, db, log)
    try:
        anon = Reader(server.base)
        slugs = lesson_slugs(anon)
        visitor = Reader(server.base)
        do_things(visitor, slugs, account=False)
        learner = Reader(server.base)
        do_things(learner, slugs[3:], account=False)
        sign_up(learner, "learner@example.org")
        do_things(learner, slugs, account=True)
        instructor = Reader(server.base)
        sign_up(instructor, "instructor@example.org")
        subprocess.run(
            [os.path.join(args.bin, "lockstep"), "admin", "grant-instructor", "instructor@example.org"],
            env=server.env, check=True, cwd=ROOT,
        )
        worker_token = subprocess.run(
            [os.path.join(args.bin, "lockstep"), "admin", "worker-token", "create", "pages"],
            env=server.env, check=True, cwd=ROOT, capture_output=True, text=True,
        ).stdout.strip()
        worker = subprocess.Popen(
            [os.path.join(args.bin, "gpu-runner"), "worker", "--name=pages", f"--server={server.base}", "--max-jobs=3"],
            env=dict(server.env, LOCKSTEP_WORKER_TOKEN=worker_token), stdout=log, stderr=log, cwd=ROOT,
        )
        exercises = os.path.join(ROOT, "lessons/ddp/exercises")
        first_wrong = lambda e: sorted(os.listdir(os.path.join(exercises, e, "wrong")))[0]
        submissions = [
            ("ddp-conversion", "solution.py"),
            ("survive-a-crash", first_wrong("survive-a-crash")),
            ("ddp-conversion", first_wrong("ddp-conversion")),
        ]
        ids = []
        for exercise, name in submissions:
            script = exercise_script(os.path.join(exercises, exercise), name)
            file_name = name.replace(".diff", ".py")
            status, headers, _ = learner.post_form(
                "/api/submissions",
                {"exercise": exercise, "file_name": file_name, "script": script},
            )
            assert status == 303, (status, headers)
            ids.append(int(headers["location"].rsplit("/", 1)[1]))
            # One at a time: the speedup check times the runs.
            deadline = time.time() + 900
            while True:
                _, _, body = learner.get(f"/api/submissions/{ids[-1]}")
                if json.loads(body).get("verdict"):
                    break
                if time.time() > deadline:
                    sys.exit(f"submission {ids[-1]} has no verdict after 15 minutes")
                time.sleep(2)
        worker.wait(timeout=60)
        learner.post_form("/api/drafts", {})
        state = {
            "slugs": slugs,
            "submissions": ids,
            "exercises": ["ddp-conversion", "survive-a-crash"],
            "cookies": {
                "visitor": visitor.cookie_header(),
                "learner": learner.cookie_header(),
                "instructor": instructor.cookie_header(),
            },
        }
        with open(db + ".json", "w") as f:
            json.dump(state, f, indent=1)
        print(f"seeded {db}: {len(slugs)} lessons, submissions {ids}")
    finally:
        server.stop()


def paths(state):
    p = ["/", "/xp", "/account", "/instructor", "/instructor/learners.csv",
         "/instructor/questions.csv", "/no-such-page", "/lessons/no-such-lesson", "/healthz"]
    p += [f"/lessons/{s}" for s in state["slugs"]]
    for e in state["exercises"] + ["no-such-exercise"]:
        p += [f"/exercises/{e}", f"/exercises/{e}?from=start"]
    for i in state["submissions"] + [999999]:
        p += [f"/submissions/{i}", f"/api/submissions/{i}", f"/exercises/ddp-conversion?from={i}"]
    return p


# The CSP nonce, which the page also carries as its scripts' `crossorigin` value.
NONCE = re.compile(rb"(nonce=\"|nonce-|crossorigin=\")[A-Za-z0-9+/=_-]+")
# A server function's address ends in a hash of where it was built (the crate's folder): two
# checkouts of one commit differ in it.
SERVER_FN = re.compile(rb"(/api/[a-z_]+?)[0-9]{8,}")
KEPT_HEADERS = ("content-type", "location", "cache-control", "x-lockstep-page", "content-security-policy")


def capture(args):
    with open(args.db + ".json") as f:
        state = json.load(f)
    out = os.path.abspath(args.out)
    if os.path.exists(out):
        shutil.rmtree(out)
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "copy.sqlite3")
        shutil.copy(args.db, db)
        log = open(os.path.join(tmp, "log"), "w")
        server = Server(args.bin, db, log)
        try:
            readers = {"anonymous": Reader(server.base)}
            for who, cookies in state["cookies"].items():
                readers[who] = Reader(server.base, cookies)
            for who, reader in readers.items():
                os.makedirs(os.path.join(out, who))
                for path in paths(state):
                    # Twice: the second answer comes from whatever the server keeps.
                    for n in (1, 2):
                        status, headers, body = reader.get(path)
                        name = urllib.parse.quote(path, safe="") + f".{n}"
                        head = [f"{status}"] + [
                            f"{k.lower()}: {v}" for k, v in sorted(headers.items())
                            if k.lower() in KEPT_HEADERS
                        ]
                        text = "\n".join(head).encode() + b"\n\n" + body
                        with open(os.path.join(out, who, name), "wb") as f:
                            f.write(SERVER_FN.sub(b"\\1HASH", NONCE.sub(b"\\1NONCE", text)))
        finally:
            server.stop()
    print(f"captured {out}")


def main():
    cli = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = cli.add_subparsers(dest="command", required=True)
    for name in ("seed", "capture"):
        p = sub.add_parser(name)
        p.add_argument("--bin", required=True, help="folder with lockstep and gpu-runner")
        p.add_argument("--db", required=True, help="the seeded SQLite database")
        if name == "capture":
            p.add_argument("--out", required=True)
    args = cli.parse_args()
    args.db = os.path.abspath(args.db)
    {"seed": seed, "capture": capture}[args.command](args)


if __name__ == "__main__":
    main()
