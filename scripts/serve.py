"""Serve Crewbuilder like production: DEBUG off, gunicorn, whitenoise.

Values already in the environment win; otherwise a local secret key is kept in
var/secret_key so sessions survive restarts, and the app answers on localhost.
Plain HTTP on localhost is allowed here (no TLS terminator in front).
"""

import argparse
import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def secret_key() -> str:
    """The production-like servers' secret key: generated once, kept in var/secret_key."""
    key_file = ROOT / "var" / "secret_key"
    key_file.parent.mkdir(exist_ok=True)
    if not key_file.exists():
        key_file.write_text(secrets.token_urlsafe(64))
        key_file.chmod(0o600)
    return key_file.read_text().strip()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bind", default="127.0.0.1:8000")
    parser.add_argument("--workers", default=os.environ.get("WEB_CONCURRENCY", "3"))
    args = parser.parse_args()

    env = dict(os.environ)
    env.setdefault("DEBUG", "0")
    env.setdefault("SECRET_KEY", secret_key())
    env.setdefault("ALLOWED_HOSTS", "127.0.0.1,localhost")
    env.setdefault("SECURE_SSL_REDIRECT", "0")
    env.setdefault("SECURE_HSTS_SECONDS", "0")
    env["DEBUG"] = "0"  # even when the shell exports DEBUG=1: its error pages show settings and code
    python = sys.executable
    subprocess.run([python, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    print(f"Crewbuilder (production mode) at http://{args.bind}/")
    return subprocess.call(
        [python, "-m", "gunicorn", "config.wsgi", "--bind", args.bind, "--workers", str(args.workers)],
        cwd=ROOT,
        env=env,
    )


if __name__ == "__main__":
    sys.exit(main())
