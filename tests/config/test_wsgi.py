"""Issue 20: gunicorn loads the app once in its master (``--preload``) and forks every worker, a
recycled one included, from it. What the master loads is then already in each worker; what it must not
hold is a connection (the database's, or Redis's for the cache), which the fork would share between
workers."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import sys
import config.wsgi
from django.core.cache import caches
from django.db import connections
print(all(c.connection is None for c in connections.all()), caches.all(initialized_only=True) == [])
print("games.soylent_ghoul.play.views" in sys.modules, "crewbuilder.views" in sys.modules)
"""


def test_loading_the_app_imports_every_view_and_opens_no_connection(tmp_path):
    env = dict(os.environ, DEBUG="0", SECRET_KEY="w" * 60, ALLOWED_HOSTS="localhost", SECURE_SSL_REDIRECT="0")
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    env.pop("DJANGO_SETTINGS_MODULE", None)
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True", "True", "True"]


def test_make_serve_preloads_the_app_before_forking_its_workers():
    spec = importlib.util.spec_from_file_location("serve", ROOT / "scripts" / "serve.py")
    serve = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(serve)
    command = serve.gunicorn_command("127.0.0.1:0", 3)
    assert command[command.index("gunicorn") + 1] == "config.wsgi"
    assert "--preload" in command
