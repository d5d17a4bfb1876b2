"""The crew editor on the production-like server, as issue 20 measured it: throughput through gunicorn
(`make serve`: DEBUG=0, 3 workers), as ratios to the anonymous login page of the same run.

bench_pages.py measures the same pages in process (the Django test client, CPU time), which leaves out
what every request costs on the way in and out (the socket, HTTP parsing, gunicorn): its ratios are the
stricter ones. This prints both kinds of figure's context: requests per second, and the ratio of time
per request (the login page's requests per second over the page's).

Each of CONCURRENCY connections edits its own crew of 7 characters (the issue's size), so no edit waits
for another's version: the htmx attribute step of the open character (+1 then -1, the form and the
editor's current version as htmx sends them), and the editor page at the crew's current version (a
repeat look). Then one connection alone (one player clicking, against the login page on one connection):
gunicorn's sync workers take each click as they come free, so a click often lands on a worker that did not
answer the one before (editor_shared.py serves it). SQLite by default, or the database DATABASE_URL names
(scripts/with-postgres.sh).
"""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load_polls  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DB = ROOT / "var" / "bench-editor-http.sqlite3"
CACHE = ROOT / "var" / "bench-editor-http-cache"
SIZE = 7
CONCURRENCY = load_polls.CONCURRENCY
REQUESTS = 300
REPEATS = 5
CSRF = re.compile(rb'"X-CSRFToken": "([A-Za-z0-9]+)"')
COOKIE = re.compile(rb"csrftoken=([A-Za-z0-9]+)")


def build(postgres: bool) -> list[dict]:
    """One player and crew per connection: [{"session", "crew", "character", "version"}]."""
    import shutil
    from importlib import import_module

    from django.conf import settings
    from django.core.management import call_command

    from benchmarks.django_bench import make_crew
    from crewbuilder.models import User

    if not postgres:  # with-postgres.sh gives a fresh cluster
        for path in (DB, Path(f"{DB}-wal"), Path(f"{DB}-shm")):
            path.unlink(missing_ok=True)
    shutil.rmtree(CACHE, ignore_errors=True)
    call_command("migrate", verbosity=0)
    call_command("loadcatalogue", verbosity=0)
    editors = []
    for n in range(CONCURRENCY):
        user = User.objects.create_user(f"editor{n}", password="bench-password")
        crew = make_crew(user, f"Crew {n}", SIZE)
        session = import_module(settings.SESSION_ENGINE).SessionStore()  # as a login makes it
        session.update(
            {
                "_auth_user_id": str(user.pk),
                "_auth_user_backend": "crewbuilder.auth_backend.CachedModelBackend",
                "_auth_user_hash": user.get_session_auth_hash(),
            }
        )
        session.create()
        character = crew.characters.order_by("position").first()
        editors.append({"session": session.session_key, "crew": crew.pk, "character": character.pk, "version": 1})
    return editors


async def open_editor(port: int, editor: dict) -> None:
    """The editor page as the player's browser first loads it: its CSRF cookie and the page's token."""
    url = f"/crews/{editor['crew']}/edit/?open={editor['character']}"
    status, head, body = await load_polls.send(port, "GET", url, [f"Cookie: sessionid={editor['session']}"])
    assert status == 200, status
    editor["cookie"] = f"sessionid={editor['session']}; csrftoken={COOKIE.search(head).group(1).decode()}"
    editor["token"] = CSRF.search(body).group(1).decode()
    editor["up"] = True


async def step(port: int, editor: dict) -> tuple[int, bytes]:
    fields = {
        "version": editor["version"],
        "character": editor["character"],
        "step": f"agility:{1 if editor['up'] else -1}",
        "current_version": editor["version"],
        "open": editor["character"],
    }
    headers = [f"Cookie: {editor['cookie']}", f"X-CSRFToken: {editor['token']}"]
    path = f"/crews/{editor['crew']}/edit/attribute/"
    status, _, body = await load_polls.send(port, "POST", path, headers, htmx=True, body=urlencode(fields).encode())
    if status == 200:
        editor["up"], editor["version"] = not editor["up"], editor["version"] + 1
    return status, body


async def look(port: int, editor: dict) -> tuple[int, bytes]:
    url = f"/crews/{editor['crew']}/edit/"
    status, _, body = await load_polls.send(port, "GET", url, [f"Cookie: {editor['cookie']}"])
    return status, body


async def throughput(request, expected: int, editors: list[dict] | None = None) -> float:
    """Requests per second: each connection in a closed loop on its own editor."""
    left = REQUESTS
    editors = EDITORS if editors is None else editors

    async def loop(editor):
        nonlocal left
        while left > 0:
            left -= 1
            status, _ = await request(editor)
            if status != expected:
                raise SystemExit(f"expected {expected}, got {status}")

    start = time.perf_counter()
    await asyncio.gather(*(loop(e) for e in editors))
    return REQUESTS / (time.perf_counter() - start)


EDITORS: list[dict] = []


async def measure(port: int) -> dict:
    for editor in EDITORS:
        await open_editor(port, editor)
    kinds = {
        "login page (anonymous)": (lambda e: load_polls.get(port, "/accounts/login/"), 200),
        f"editor page, {SIZE} characters": (lambda e: look(port, e), 200),
        "htmx attribute step": (lambda e: step(port, e), 200),
    }
    for request, expected in kinds.values():  # warm every worker
        await throughput(request, expected)
    # One player alone, clicking as fast as the answers come: each click goes to whichever worker is free, as
    # gunicorn's sync workers take them, so most land on a worker that did not answer the one before.
    alone = {f"{name} (one player alone)": kinds[name] for name in ("login page (anonymous)", "htmx attribute step")}
    runs: dict[str, list[float]] = {name: [] for name in [*kinds, *alone]}
    for _ in range(REPEATS):
        for name, (request, expected) in kinds.items():
            runs[name].append(await throughput(request, expected))
        for name, (request, expected) in alone.items():
            runs[name].append(await throughput(request, expected, EDITORS[:1]))
    return {name: statistics.median(values) for name, values in runs.items()}


def main() -> int:
    # SQLite here, or the PostgreSQL scripts/with-postgres.sh gives (the server and this process alike)
    url = os.environ.get("DATABASE_URL", "")
    postgres = url.startswith("postgres")
    env = load_polls.configure(
        "bench-editor-" + secrets.token_urlsafe(48), url if postgres else f"sqlite:///{DB}", CACHE
    )
    EDITORS[:] = build(postgres)
    database = "PostgreSQL" if postgres else "SQLite"
    port = load_polls.free_port()
    server = load_polls.start_server(env, port)
    try:
        figures = asyncio.run(measure(port))
    finally:
        load_polls.stop_server(server)
    login = figures["login page (anonymous)"]
    print(
        f"  throughput through gunicorn ({database}), medians of {REPEATS} runs of {REQUESTS} requests "
        f"on {CONCURRENCY} connections, each its own crew (targets: editor page <= 3x, attribute step <= 2x "
        "the login page's time per request):"
    )
    alone = figures["login page (anonymous) (one player alone)"]
    for name, rps in figures.items():
        baseline = alone if name.endswith("(one player alone)") else login
        print(f"    {name:<48} {rps:7.0f} req/s   time per request {baseline / rps:5.2f}x the login page's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
