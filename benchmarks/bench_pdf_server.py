"""Pages stay responsive while PDFs render, on the production-like server (issue 17, 20).

Starts `scripts/serve.py` as `make serve` does (gunicorn, DEBUG=0, its PDF
worker) on a free port with a throwaway database and PDF cache, then prints:

- GET / idle, and while 3 worst-case rosters (crews at every limit of
  crewbuilder/limits.py) render cold: medians and the ratio (target < 10x);
- how long those rosters took to be ready, and a reprint from any worker
  (target <= 50 ms);
- the peak RSS (VmHWM) of every web and PDF worker after a mixed load.

For contrast it then does the same with the PDFs rendered in the request
(TASKS_BACKEND=immediate), the design this replaced. Figures only: nothing
here fails on timing. DATABASE_URL (e.g. PostgreSQL) is used if set, else a
temporary SQLite file.
"""

import concurrent.futures
import http.client
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TMP = Path(tempfile.mkdtemp(prefix="crewbuilder-bench-"))
os.environ.setdefault("DATABASE_URL", f"sqlite:///{TMP / 'bench.sqlite3'}")
os.environ["PDF_CACHE_DIR"] = str(TMP / "pdf-cache")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "bench-" + "x" * 60)
os.environ["ALLOWED_HOSTS"] = "127.0.0.1,localhost,testserver"
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
os.environ["DEBUG"] = "0"

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.urls import reverse  # noqa: E402

IDLE_SAMPLES = 30


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url, timeout=120):
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            body, status = response.read(), response.status
    except urllib.error.HTTPError as error:
        body, status = error.read(), error.code
    except (ConnectionError, http.client.HTTPException, TimeoutError) as error:
        if "/roster.pdf" not in url:
            raise
        body, status = str(error).encode(), 0  # a worker killed by gunicorn's timeout mid-render
    return status, body, time.perf_counter() - start


def descendants(pid: int) -> list:
    children = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def children_of(pid: int) -> list:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    return found


def memory(pid: int) -> tuple:
    status = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            status[key] = value.strip()
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return None
    return (
        cmdline,
        int(status.get("VmHWM", "0 kB").split()[0]) / 1024,
        int(status.get("VmRSS", "0 kB").split()[0]) / 1024,
    )


def setup_data() -> list:
    call_command("migrate", verbosity=0)
    with open(os.devnull, "w") as quiet:
        call_command("loadcatalogue", verbosity=0, stdout=quiet)
    from benchmarks.worst_case import worst_crew
    from crewbuilder.models import Crew, GameSystem, User

    system = GameSystem.objects.filter(slug="cybernekro").order_by("-edition").first()
    owner = User.objects.create_user("bench-owner", password="x" * 20)
    tokens = []
    for n in range(6):  # three per run, each run cold
        crew = worst_crew(owner, system, name=f"Worst {n}")
        Crew.objects.filter(pk=crew.pk).update(share_token=f"bench{n}")
        tokens.append(f"bench{n}")
    return tokens


def run(label: str, backend: str, tokens: list) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, TASKS_BACKEND=backend)
    server = subprocess.Popen(
        [sys.executable, "scripts/serve.py", "--bind", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 300  # collectstatic first, slow on a busy machine
        while time.monotonic() < deadline:
            try:
                if get(base + "/", timeout=5)[0] == 200:
                    break
            except OSError:
                time.sleep(0.5)
        for _ in range(10):
            get(base + "/")  # warm every worker a little
        idle = [get(base + "/")[2] for _ in range(IDLE_SAMPLES)]

        urls = [f"{base}/s/{token}/roster.pdf" for token in tokens]
        pool = concurrent.futures.ThreadPoolExecutor(len(urls))
        started = time.perf_counter()
        first = (
            list(pool.map(lambda url: get(url)[:1] + (time.perf_counter() - started,), urls))
            if backend != "immediate"
            else None
        )
        inline = [pool.submit(get, url) for url in urls] if backend == "immediate" else []
        busy, ready_at = [], {}
        time.sleep(0.2)
        while len(ready_at) < len(urls) and time.perf_counter() - started < 300:
            sent = time.perf_counter() - started
            busy.append((sent, get(base + "/")[2]))
            if backend == "immediate":
                for url, future in zip(urls, inline):
                    if future.done() and url not in ready_at:
                        ready_at[url] = (future.result()[0], time.perf_counter() - started)
            else:
                for url in urls:
                    if url not in ready_at:
                        status, body, _ = get(url)
                        if status != 202:
                            ready_at[url] = (status, time.perf_counter() - started)
            time.sleep(0.1)
        pool.shutdown()

        reprint = [get(urls[i % len(urls)])[2] for i in range(30)]
        for i in range(300):  # a mixed load before reading the memory figures
            get(
                (base + "/", base + reverse("login"), f"{base}/s/{tokens[i % len(tokens)]}/", urls[i % len(urls)])[
                    i % 4
                ]
            )
        processes = [(pid, m) for pid, m in ((pid, memory(pid)) for pid in descendants(server.pid)) if m]
        direct = set(children_of(server.pid))

        # Only the requests sent while a roster was still rendering count as "busy".
        last_ready = max((t for _, t in ready_at.values()), default=float("inf"))
        busy = [duration for sent, duration in busy if sent < last_ready] or [float("nan")]
        idle_ms = statistics.median(idle) * 1000
        figures = {
            "median": statistics.median(busy) * 1000,
            "p95": sorted(busy)[max(0, int(len(busy) * 0.95) - 1)] * 1000,
            "max": max(busy) * 1000,
        }
        print(f"--- {label}")
        if first:
            print(f"first answer to the 3 roster requests: {', '.join(f'{s} in {t * 1000:.0f} ms' for s, t in first)}")
        print("rosters ready after: " + ", ".join(f"{t:.1f} s ({s})" for s, t in ready_at.values()))
        print(f"GET / idle:              median {idle_ms:7.1f} ms  ({len(idle)} requests)")
        print(
            "GET / while PDFs render: "
            + "  ".join(f"{k} {v:8.1f} ms" for k, v in figures.items())
            + f"  ({len(busy)} requests, one after another)"
        )
        for name, value in figures.items():
            ratio = value / idle_ms
            print(f"ratio busy / idle ({name}): {ratio:.1f}x (target < 10x: {'met' if ratio < 10 else 'NOT met'})")
        reprint_ms = statistics.median(reprint) * 1000
        print(
            f"reprint from any worker (cached roster, {len(reprint)} requests): median {reprint_ms:.1f} ms, "
            f"max {max(reprint) * 1000:.1f} ms (target <= 50 ms: {'met' if reprint_ms <= 50 else 'NOT met'})"
        )
        for pid, (cmdline, peak, rss) in sorted(processes, key=lambda p: p[1][0]):
            if "db_worker" in cmdline:
                kind = "PDF worker"
            elif "gunicorn" in cmdline:
                kind = "gunicorn master" if pid in direct else "web worker"
            else:
                continue
            print(f"peak RSS {kind:<15} {peak:6.0f} MiB (now {rss:6.0f} MiB)")
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()


def main() -> int:
    tokens = setup_data()
    print(
        f"3 worst-case rosters at once (crews at every limit, see docs/limits.md); database {os.environ['DATABASE_URL'].split(':')[0]}"
    )
    run("PDFs in the task worker (make serve)", "database", tokens[:3])
    run("for contrast: PDFs rendered in the request (TASKS_BACKEND=immediate)", "immediate", tokens[3:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
