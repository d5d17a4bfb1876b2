"""Serve Crewbuilder to the phones around the table: `make table`.

Production-like (DEBUG off, gunicorn, whitenoise, a secret key generated once and
kept in var/), bound to every interface and answering on this machine's local
network addresses. It prints the address to open and a QR code to scan.
Plain HTTP on a home network has no TLS, so cookies are not marked Secure and
there is no HTTPS redirect; nothing is fetched from the internet.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import socket
import subprocess
import sys
from pathlib import Path

import segno

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from serve import secret_key  # noqa: E402  (scripts/ is not a package)


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on local networks (private ranges first)."""
    found: list[str] = []
    try:
        out = subprocess.run(
            ["ip", "-4", "-o", "addr", "show", "scope", "global"], capture_output=True, text=True, timeout=5
        ).stdout
        found = [line.split()[3].split("/")[0] for line in out.splitlines() if len(line.split()) > 3]
    except (OSError, subprocess.SubprocessError):
        pass
    if not found:
        try:
            found = [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
        except OSError:
            found = []
    addresses = [a for a in dict.fromkeys(found) if not ipaddress.ip_address(a).is_loopback]
    return sorted(addresses, key=lambda a: not ipaddress.ip_address(a).is_private)


def table_environment(base: dict, addresses: list[str], port: int) -> dict:
    env = dict(base)
    env.setdefault("DEBUG", "0")
    env.setdefault("SECRET_KEY", secret_key())
    hosts = ["127.0.0.1", "localhost", socket.gethostname(), f"{socket.gethostname()}.local", *addresses]
    env.setdefault("ALLOWED_HOSTS", ",".join(dict.fromkeys(hosts)))
    env.setdefault("CSRF_TRUSTED_ORIGINS", ",".join(f"http://{h}:{port}" for h in dict.fromkeys(hosts)))
    env.setdefault("SECURE_SSL_REDIRECT", "0")
    env.setdefault("SECURE_HSTS_SECONDS", "0")
    env.setdefault("SECURE_COOKIES", "0")  # no TLS on a home network: Secure cookies would never be sent
    return env


def print_join_banner(url: str) -> None:
    print(f"\nCrewbuilder is at the table: {url}\nScan to join from a phone on the same network:\n")
    segno.make(url, error="m").terminal(compact=True)
    print("\nCtrl-C stops it; data stays in var/.\n", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    args = parser.parse_args()
    addresses = lan_addresses()
    url = f"http://{addresses[0] if addresses else '127.0.0.1'}:{args.port}/"
    if not addresses:
        print("No local network address found: only this machine can reach the app.", file=sys.stderr)
    env = table_environment(dict(os.environ), addresses, args.port)
    print_join_banner(url)
    return subprocess.call(
        [sys.executable, str(ROOT / "scripts" / "serve.py"), "--bind", f"0.0.0.0:{args.port}"], cwd=ROOT, env=env
    )


if __name__ == "__main__":
    sys.exit(main())
