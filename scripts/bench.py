"""Run every benchmark script in benchmarks/ with DEBUG off and print its figures.

Benchmarks print figures and ratios; they never fail the build on timing.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    env = dict(os.environ, DEBUG="0", SECRET_KEY="bench-" + "x" * 60, ALLOWED_HOSTS="testserver,localhost")
    env.setdefault("SECURE_SSL_REDIRECT", "0")
    scripts = sorted((ROOT / "benchmarks").glob("bench_*.py"))
    if not scripts:
        print("No benchmarks yet.")
        return 0
    failures = 0
    for script in scripts:
        print(f"\n=== {script.name}", flush=True)
        result = subprocess.run([sys.executable, str(script)], cwd=ROOT, env=env)
        failures += result.returncode != 0
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
