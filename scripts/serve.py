"""Serve Crewbuilder like production: DEBUG off, gunicorn, whitenoise, a PDF worker.

Values already in the environment win; otherwise a local secret key is kept in
var/secret_key so sessions survive restarts, and the app answers on localhost.
Plain HTTP on localhost is allowed here (no TLS terminator in front).

Two kinds of process, started and stopped together:

- gunicorn's web workers (``--workers``, default 3, sync: a render that runs
  in a request can then be stopped by its time limit). The app is loaded
  once, in gunicorn's master (``--preload``, config/wsgi.py), and each worker
  is forked from it. Each is replaced after 5,000 requests plus up to 2,500 at
  random: memory a worker gathers (WeasyPrint's caches for the PDFs rendered
  in a request, fragmentation) is given back, never grows without bound.
  Why these figures: 240 tables polling every 5 s bring each worker about 65
  requests a second. After 1,000 requests (plus up to 100) the workers were
  replaced every 15 s, all three within a second or two of each other, and
  each new one spent about 1.5 s of CPU importing Django, WeasyPrint and every
  view before its first answer: the table's polls waited up to 2 s
  (benchmarks/load_polls.py). Forked from the loaded master, a new worker
  answers at once.
- ``--pdf-workers`` (default 1) django-tasks database workers
  (``manage.py db_worker``) that lay out PDFs off the request path
  (core/pdf_tasks.py). One worker uses at most one core, so on a small
  machine PDFs never take the CPU the pages need. Each worker exits after 100
  renders and is started again, for the same reason as above.
"""

import argparse
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_REQUESTS, MAX_REQUESTS_JITTER = 5000, 2500
PDF_WORKER_MAX_TASKS = 100


def secret_key() -> str:
    """The production-like servers' secret key: generated once, kept in var/secret_key."""
    key_file = ROOT / "var" / "secret_key"
    key_file.parent.mkdir(exist_ok=True)
    if not key_file.exists():
        key_file.write_text(secrets.token_urlsafe(64))
        key_file.chmod(0o600)
    return key_file.read_text().strip()


def environment() -> dict:
    env = dict(os.environ)
    env.setdefault("DEBUG", "0")
    env.setdefault("SECRET_KEY", secret_key())
    env.setdefault("ALLOWED_HOSTS", "127.0.0.1,localhost")
    env.setdefault("SECURE_SSL_REDIRECT", "0")
    env.setdefault("SECURE_HSTS_SECONDS", "0")
    env.setdefault("TASKS_BACKEND", "database")
    env["DEBUG"] = "0"  # even when the shell exports DEBUG=1: its error pages show settings and code
    return env


def gunicorn_command(bind: str, workers: int) -> list:
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "config.wsgi",
        "--bind",
        bind,
        "--workers",
        str(workers),
        "--max-requests",
        str(MAX_REQUESTS),
        "--max-requests-jitter",
        str(MAX_REQUESTS_JITTER),
        "--preload",
        "--timeout",
        "30",
    ]


def pdf_worker_command() -> list:
    return [
        sys.executable,
        "manage.py",
        "db_worker",
        "--no-reload",
        "--interval",
        "0.5",
        "--max-tasks",
        str(PDF_WORKER_MAX_TASKS),
    ]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bind", default="127.0.0.1:8000")
    parser.add_argument("--workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY", "3")))
    parser.add_argument("--pdf-workers", type=int, default=int(os.environ.get("PDF_WORKERS", "1")))
    args = parser.parse_args()

    env = environment()
    python = sys.executable
    subprocess.run([python, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    print(f"Crewbuilder (production mode) at http://{args.bind}/ with {args.pdf_workers} PDF worker(s)", flush=True)

    web = subprocess.Popen(gunicorn_command(args.bind, args.workers), cwd=ROOT, env=env)
    pdf_workers = [subprocess.Popen(pdf_worker_command(), cwd=ROOT, env=env) for _ in range(args.pdf_workers)]
    stopping = False

    def stop(signum, frame):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        while not stopping and web.poll() is None:
            for index, worker in enumerate(pdf_workers):
                if worker.poll() is not None:  # recycled after its renders, or crashed: start another
                    pdf_workers[index] = subprocess.Popen(pdf_worker_command(), cwd=ROOT, env=env)
            time.sleep(0.5)
    finally:
        for process in [web, *pdf_workers]:
            if process.poll() is None:
                process.terminate()
        for process in [web, *pdf_workers]:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
    return web.returncode or 0


if __name__ == "__main__":
    sys.exit(main())
