"""Game polls against a production-like server: throughput ratios and a load of many tables.

Run by bench_polls.py (``make bench``), or alone against a server it starts itself:

    .venv/bin/python benchmarks/load_polls.py --tables 240 --duration 40

What it does, loopback only (127.0.0.1), bounded in requests and in time:

- builds a fresh SQLite database (var/bench-polls.sqlite3) and cache (var/bench-polls-cache) with
  ``--tables`` Soylent Ghoul games of 4 players (a drone each, 30 log entries each), every player with
  a session (no password hashing per player: one hash shared by all);
- starts gunicorn as ``make serve`` does (scripts/serve.py: DEBUG=0, collectstatic, 3 workers);
- throughput: closed loops of CONCURRENCY connections on the anonymous login page, an unchanged poll
  (204) and changed polls (the board, its log cut to the latest entries), interleaved, REPEATS times;
  printed as medians and as ratios to the login page of the same run. The changed poll is measured
  three ways, since the kit shares what every seat sees alike through the cache once per version:
  one seat asking for the same version over and over (every answer after the first from the cache:
  a flattering figure, printed for comparison only); every seat of every table polling once after a
  change, the first poller of a table building the shared part (the honest figure, and the worst
  case); the same after a change whose mover's redraw built it, as the act view does;
- load: every player of every table polls as app.js does (every 5 s with the version it shows, a
  10 s timeout, never two polls of one page at once) while each table changes about every
  MOVE_EVERY seconds (another player's move as the poll sees it: the version bumped and published
  through the kit); prints the latency percentiles of all polls.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DB = ROOT / "var" / "bench-polls.sqlite3"
CACHE = ROOT / "var" / "bench-polls-cache"
PLAYERS = 4
LOG_ENTRIES = 30
POLL_EVERY = 5.0  # hx-trigger="every 5s" on the Soylent Ghoul board
POLL_TIMEOUT = 10.0  # hx-request timeout of the board's poll
MOVE_EVERY = 60.0  # seconds between two changes of one table, on average (--move-every)
CONCURRENCY = 6
CLIENT_PROCESSES = 4  # the load's players, spread over this many client processes
REQUESTS = 300
REPEATS = 5
VERSION = re.compile(rb'data-version="(\d+)"')


def configure(secret_key: str, database_url: str = f"sqlite:///{DB}", cache: Path = CACHE) -> dict:
    """The environment of the server and of this process's Django (the same database and cache)."""
    env = dict(
        os.environ,
        DEBUG="0",
        SECRET_KEY=secret_key,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="0",
        SECURE_HSTS_SECONDS="0",
        SECURE_COOKIES="0",
        DATABASE_URL=database_url,
        CACHE_DIR=str(cache),
    )
    env.pop("REDIS_URL", None)
    os.environ.update(
        {
            k: env[k]
            for k in (
                "DEBUG",
                "SECRET_KEY",
                "ALLOWED_HOSTS",
                "SECURE_SSL_REDIRECT",
                "SECURE_HSTS_SECONDS",
                "SECURE_COOKIES",
                "DATABASE_URL",
                "CACHE_DIR",
            )
        }
    )
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    return env


def build(tables: int) -> list[dict]:
    """The tables: [{"game": pk, "version": v, "players": [(session key, poll path)]}]."""
    import shutil
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth.hashers import make_password
    from django.core.management import call_command
    from django.db import transaction

    from core.games import kit
    from crewbuilder.models import User
    from games.soylent_ghoul.play import services
    from games.soylent_ghoul.play.models import Event, Game, Piece, Player
    from games.soylent_ghoul.sets import services as sets

    for path in (DB, Path(f"{DB}-wal"), Path(f"{DB}-shm")):
        path.unlink(missing_ok=True)
    shutil.rmtree(CACHE, ignore_errors=True)
    call_command("migrate", verbosity=0)
    call_command("loadcatalogue", verbosity=0)
    password = make_password("bench-password")
    with transaction.atomic():
        User.objects.bulk_create(
            [User(username=f"p{t}-{s}", password=password) for t in range(tables) for s in range(PLAYERS)]
        )
        users = {u.username: u for u in User.objects.filter(username__startswith="p")}
        # one game played through the services, then copied row by row for the other tables
        seats = [users[f"p0-{s}"] for s in range(PLAYERS)]
        drone_sets = [sets.create_drone_set(u, f"Set {u.username}", "gardeners", count=1) for u in seats]
        model = services.create_game(seats[0], drone_sets[0], [u.username for u in seats[1:]])
        for u, ds in zip(seats[1:], drone_sets[1:]):
            services.join(model.pk, u, ds)
        services.start(model.pk, seats[0], 0)
        Event.objects.bulk_create(
            [
                Event(
                    game=model,
                    number=n,
                    turn=1 + n // PLAYERS,
                    actor=seats[n % PLAYERS],
                    kind="pass",
                    payload={"lines": [f"{seats[n % PLAYERS].username} passes (log entry {n})."], "rolls": []},
                )
                for n in range(2, LOG_ENTRIES + 1)
            ]
        )
        model = Game.objects.get(pk=model.pk)
        model_players = list(model.players.order_by("seat"))
        model_pieces = list(model.pieces.order_by("id"))
        model_events = list(model.events.select_related("actor").order_by("number"))
        games = [model] + Game.objects.bulk_create([_copy(model, creator=users[f"p{t}-0"]) for t in range(1, tables)])
        for t, game in enumerate(games[1:], start=1):
            players = Player.objects.bulk_create(
                [_copy(p, game=game, user=users[f"p{t}-{p.seat}"], drone_set=None) for p in model_players]
            )
            player_of = {old.pk: new for old, new in zip(model_players, players)}
            drones = [p for p in model_pieces if p.kind == Piece.DRONE]
            new_drones = Piece.objects.bulk_create([_copy(d, game=game, player=player_of[d.player_id]) for d in drones])
            drone_of = {old.pk: new for old, new in zip(drones, new_drones)}
            Piece.objects.bulk_create(
                [
                    _copy(p, game=game, player=player_of[p.player_id], drone=drone_of[p.drone_id])
                    for p in model_pieces
                    if p.kind == Piece.TOKEN
                ]
            )
            Event.objects.bulk_create(
                [_copy(e, game=game, actor=users[f"p{t}-{e.actor.username.split('-')[1]}"]) for e in model_events]
            )
        out = []
        for t, game in enumerate(games):
            players = []
            for s in range(PLAYERS):
                u = users[f"p{t}-{s}"]
                session = import_module(settings.SESSION_ENGINE).SessionStore()  # as a login makes it
                session.update(
                    {
                        "_auth_user_id": str(u.pk),
                        "_auth_user_backend": "crewbuilder.auth_backend.CachedModelBackend",
                        "_auth_user_hash": u.get_session_auth_hash(),
                    }
                )
                session.create()
                token = f"{u.pk}.{kit._poll_signature(services.LABEL, game.pk, str(u.pk), session.session_key)}"
                players.append((session.session_key, f"/games/soylent/games/{game.pk}/?v={{v}}&t={token}"))
            out.append({"game": game.pk, "version": model.version, "players": players})
    return out


def _copy(row, **changes):
    """A new row with ``row``'s fields (no id), some of them changed."""
    fields = {f.attname: getattr(row, f.attname) for f in row._meta.concrete_fields if not f.primary_key}
    for name, value in changes.items():
        fields.pop(f"{name}_id", None)
        fields[name] = value
    return type(row)(**fields)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(env: dict, port: int) -> subprocess.Popen:
    """gunicorn as `make serve` runs it (scripts/serve.py), on loopback."""
    server = subprocess.Popen(
        [sys.executable, "scripts/serve.py", "--bind", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    deadline = time.time() + 300  # collectstatic first
    while time.time() < deadline:
        if server.poll() is not None:
            raise SystemExit("the server stopped: " + server.stderr.read().decode()[-2000:])
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return server
        except OSError:
            time.sleep(0.3)
    stop_server(server)
    raise SystemExit("the server did not start")


def stop_server(server: subprocess.Popen) -> None:
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)


def worker_peak_rss_mib(server: subprocess.Popen) -> list[float]:
    """Peak resident memory (VmHWM) of each gunicorn worker: the server's grandchildren."""

    def children(pid: int) -> list[int]:
        try:
            return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        except OSError:
            return []

    peaks = []
    for master in children(server.pid):
        for worker in children(master):
            for line in Path(f"/proc/{worker}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peaks.append(int(line.split()[1]) / 1024)
    return peaks


async def get(
    port: int, path: str, session: str | None = None, htmx: bool = False, timeout: float = POLL_TIMEOUT
) -> tuple[int, bytes]:
    status, _, body = await send(port, "GET", path, [f"Cookie: sessionid={session}"] if session else [], htmx, timeout)
    return status, body


async def send(
    port: int, method: str, path: str, headers: list[str], htmx: bool = False, timeout: float = POLL_TIMEOUT, body=b""
) -> tuple[int, bytes, bytes]:
    """One HTTP/1.1 request on its own connection: (status, head, body)."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close", *headers]
    if htmx:
        lines.append("HX-Request: true")
    if body:
        lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
    reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
    try:
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        raw = await asyncio.wait_for(reader.read(-1), timeout)
    finally:
        writer.close()
    status = int(raw.split(b" ", 2)[1])
    head, _, content = raw.partition(b"\r\n\r\n")
    return status, head, content


async def throughput(port: int, request, expected: int, count: int = REQUESTS) -> float:
    """Requests per second of ``count`` requests on CONCURRENCY connections in closed loops."""
    left = count

    async def loop():
        nonlocal left
        while left > 0:
            left -= 1
            status, _ = await request()
            if status != expected:
                raise SystemExit(f"expected {expected}, got {status}")

    start = time.perf_counter()
    await asyncio.gather(*(loop() for _ in range(CONCURRENCY)))
    return count / (time.perf_counter() - start)


def bump(pk: int, redraw: bool = False) -> int:
    """Another player's move as the polls see it: the version bumped and published through the kit;
    with ``redraw``, the shared part of the board also built for the new version, as the mover's
    redraw (the act view) does. Returns the version before the move."""
    from django.db import transaction
    from django.db.models import F

    from core.games import kit
    from games.soylent_ghoul.play import services, shared_board
    from games.soylent_ghoul.play.models import Game

    with transaction.atomic():
        Game.objects.filter(pk=pk).update(version=F("version") + 1)
        version = Game.objects.values_list("version", flat=True).get(pk=pk)
        kit.bump_version(services.LABEL, pk, version)
    if redraw:
        shared_board.for_game(Game.objects.get(pk=pk))
    return version - 1


async def fresh_polls(port: int, tables: list[dict], count: int, redraw: bool) -> float:
    """Changed polls per second, every one honest: each table moves (outside the timing), then every
    seat of every table polls once with the version it had, seat after seat across the tables as
    polls spread over their interval; repeated until ``count`` polls."""
    rounds = -(-count // (len(tables) * PLAYERS))
    spent = 0.0
    for _ in range(rounds):
        # Django's database access is synchronous: the moves run in one thread beside the event loop
        seen = await asyncio.get_running_loop().run_in_executor(
            DATABASE, lambda: {t["game"]: bump(t["game"], redraw) for t in tables}
        )
        queue = [
            (session, path.format(v=seen[t["game"]]))
            for s in range(PLAYERS)
            for t in tables
            for session, path in [t["players"][s]]
        ]

        async def loop():
            while queue:
                session, url = queue.pop(0)
                status, _ = await get(port, url, session, htmx=True)
                if status != 200:
                    raise SystemExit(f"expected 200, got {status}")

        start = time.perf_counter()
        await asyncio.gather(*(loop() for _ in range(CONCURRENCY)))
        spent += time.perf_counter() - start
    return rounds * len(tables) * PLAYERS / spent


async def ratios(port: int, tables: list[dict]) -> dict:
    table = tables[0]
    session, path = table["players"][1]
    unchanged = path.format(v=table["version"])
    changed = path.format(v=0)
    status, body = await get(port, changed, session, htmx=True)
    assert status == 200 and VERSION.search(body), status
    entries = body.count(b'<li class="sg-event')
    print(f"  the changed poll's board: {len(body) / 1024:.1f} KiB, log entries in it: {entries} of {LOG_ENTRIES}")
    movers = tables[1 : 1 + max(1, min(len(tables) - 1, REQUESTS // PLAYERS))] or tables
    kinds = {
        "login page (anonymous)": (lambda: get(port, "/accounts/login/"), 200),
        "unchanged poll (204)": (lambda: get(port, unchanged, session, htmx=True), 204),
        "changed poll, same version": (lambda: get(port, changed, session, htmx=True), 200),
    }
    for request, expected in kinds.values():  # warm every worker
        await throughput(port, request, expected, count=CONCURRENCY * 4)
    runs: dict[str, list[float]] = {name: [] for name in [*kinds, FRESH, FRESH_REDRAWN]}
    for _ in range(REPEATS):
        for name, (request, expected) in kinds.items():
            runs[name].append(await throughput(port, request, expected))
        runs[FRESH].append(await fresh_polls(port, movers, REQUESTS, redraw=False))
        runs[FRESH_REDRAWN].append(await fresh_polls(port, movers, REQUESTS, redraw=True))
    return {name: statistics.median(values) for name, values in runs.items()}


FRESH = "changed poll, each seat once"
DATABASE = ThreadPoolExecutor(max_workers=1)  # the moves of the throughput runs
FRESH_REDRAWN = "  the same, mover redrew"


async def load(port: int, tables: list[dict], duration: float, move_every: float) -> dict:
    """Every player polls like app.js for ``duration`` seconds while the tables change now and then."""
    latencies: list[float] = []
    counts = {"204": 0, "200": 0, "other": 0, "timeout": 0}
    moves = 0
    end = time.monotonic() + duration
    rng = random.Random(len(tables) * 7919 + os.getpid())
    database = ThreadPoolExecutor(max_workers=1)

    def move(pk: int) -> None:
        bump(pk)  # no redraw: the first seat to poll builds the shared part (the worst case)

    async def player(session: str, path: str, version: int):
        await asyncio.sleep(rng.uniform(0, POLL_EVERY))
        while time.monotonic() < end:
            due = time.monotonic() + POLL_EVERY
            start = time.perf_counter()
            try:
                status, body = await get(port, path.format(v=version), session, htmx=True)
            except (asyncio.TimeoutError, OSError):
                counts["timeout"] += 1
            else:
                latencies.append(time.perf_counter() - start)
                if status == 200:
                    version = int(VERSION.search(body).group(1))
                counts[str(status) if status in (200, 204) else "other"] += 1
            await asyncio.sleep(max(0.0, min(due, end) - time.monotonic()))

    async def table_changes(table: dict):
        nonlocal moves
        await asyncio.sleep(min(rng.uniform(0, move_every), max(0.0, end - time.monotonic())))
        while time.monotonic() < end:
            await asyncio.get_running_loop().run_in_executor(database, move, table["game"])
            moves += 1
            await asyncio.sleep(min(rng.expovariate(1 / move_every), max(0.0, end - time.monotonic())))

    tasks = [player(session, path, table["version"]) for table in tables for session, path in table["players"]]
    tasks += [table_changes(table) for table in tables]
    await asyncio.gather(*tasks)
    database.shutdown()
    return {"latencies": latencies, "moves": moves, **counts}


def _load_part(job: tuple) -> dict:
    """One client process's share of the tables (its own event loop and database connection)."""
    from django.db import connection

    connection.close()  # never share the parent's connection across fork
    port, tables, duration, move_every = job
    return asyncio.run(load(port, tables, duration, move_every))


def load_in_processes(port: int, tables: list[dict], duration: float, move_every: float) -> dict:
    """The load, its players spread over CLIENT_PROCESSES processes: one Python process cannot open
    ~200 connections a second on a busy 2-core machine without becoming the bottleneck itself."""
    import multiprocessing

    from django.db import connection

    connection.close()
    jobs = [(port, tables[i::CLIENT_PROCESSES], duration, move_every) for i in range(CLIENT_PROCESSES)]
    with multiprocessing.get_context("fork").Pool(CLIENT_PROCESSES) as pool:
        parts = pool.map(_load_part, jobs)
    latencies = sorted(x for part in parts for x in part["latencies"])
    counts = {k: sum(part[k] for part in parts) for k in ("204", "200", "other", "timeout", "moves")}

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000 if latencies else float("nan")

    return {
        "polls": len(latencies) + counts["timeout"],
        "p50": pct(0.50),
        "p95": pct(0.95),
        "p99": pct(0.99),
        "max": latencies[-1] * 1000 if latencies else float("nan"),
        **counts,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=240)
    parser.add_argument("--duration", type=float, default=40.0, help="seconds of the load test")
    parser.add_argument(
        "--move-every",
        type=float,
        nargs="+",
        default=[MOVE_EVERY],
        help="seconds between two changes of a table, on average (one load run each)",
    )
    parser.add_argument("--no-load", action="store_true", help="only the throughput ratios")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 500 or not 5 <= args.duration <= 300:
        raise SystemExit("--tables from 1 to 500, --duration from 5 to 300 s")
    env = configure("bench-polls-" + secrets.token_urlsafe(48))
    started = time.perf_counter()
    tables = build(args.tables)
    print(
        f"  {args.tables} tables of {PLAYERS} players built in {time.perf_counter() - started:.0f} s "
        f"(SQLite, file cache under var/)"
    )
    port = free_port()
    server = start_server(env, port)
    try:
        figures = asyncio.run(ratios(port, tables))
        login = figures["login page (anonymous)"]
        print(f"  throughput, medians of {REPEATS} runs of {REQUESTS} requests on {CONCURRENCY} connections:")
        for name, rps in figures.items():
            print(f"    {name:<30} {rps:7.0f} req/s   ratio to the login page {rps / login:5.2f}")
        for move_every in [] if args.no_load else args.move_every:
            if not 5 <= move_every <= 600:
                raise SystemExit("--move-every from 5 to 600 s")
            needed = args.tables * PLAYERS / move_every
            result = load_in_processes(port, tables, args.duration, move_every)
            print(
                f"  load: {args.tables} tables x {PLAYERS} players polling every {POLL_EVERY:.0f} s for "
                f"{args.duration:.0f} s, a change per table every ~{move_every:.0f} s ({result['moves']} changes: "
                f"~{needed:.0f} changed polls/s needed, {figures[FRESH]:.0f}/s measured above)"
            )
            print(
                f"    {result['polls']} polls: {result['204']} unchanged (204), {result['200']} changed (200), "
                f"{result['other']} other, {result['timeout']} timed out"
            )
            print(
                f"    latency p50 {result['p50']:.0f} ms, p95 {result['p95']:.0f} ms, p99 {result['p99']:.0f} ms, "
                f"max {result['max']:.0f} ms (target p95 < 300 ms)"
            )
        peaks = worker_peak_rss_mib(server)
        if peaks:
            print(f"  gunicorn workers' peak RSS: {', '.join(f'{p:.0f}' for p in peaks)} MiB")
    finally:
        stop_server(server)
    return 0


if __name__ == "__main__":
    sys.exit(main())
