"""Run every benchmark script in benchmarks/ with DEBUG off and print its figures.

Benchmarks print figures and ratios; they never fail the build on timing. The ones whose figures depend on
the database (ON_POSTGRES) run again on a throwaway PostgreSQL (scripts/with-postgres.sh), as issue 20 measured,
where PostgreSQL is installed.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ON_POSTGRES = ("bench_editor_http.py",)


def postgres_installed() -> bool:
    # where scripts/with-postgres.sh looks for it
    return Path("/usr/local/bin/initdb").exists() or any(Path("/usr/lib/postgresql").glob("*/bin/initdb"))


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
        if script.name in ON_POSTGRES and postgres_installed():
            print(f"\n=== {script.name} (PostgreSQL)", flush=True)
            command = [str(ROOT / "scripts" / "with-postgres.sh"), sys.executable, str(script)]
            failures += subprocess.run(command, cwd=ROOT, env=env).returncode != 0
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
