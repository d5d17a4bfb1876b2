"""The cache every worker shares (a game's version for the polls): files under var/ by default, with no
server to run; Django's RedisCache when REDIS_URL is set. Its keys carry the database, so that two instances
on other databases sharing one cache keep apart."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHOW = "from django.conf import settings; c = settings.CACHES['default']; print(c['BACKEND'], c['LOCATION'])"
PREFIX = "from django.conf import settings; print(settings.CACHES['default']['KEY_PREFIX'])"


def _cache_setting(show: str = SHOW, **env_overrides) -> str:
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "CACHE_DIR", "VAR_DIR", "DATABASE_URL"}}
    env.update(env_overrides)
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", show],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]  # after the shell's own notes


def test_the_default_cache_is_files_under_var(tmp_path):
    assert _cache_setting(VAR_DIR=str(tmp_path)) == (f"core.file_cache.FileCache {tmp_path / 'cache'}")


def test_redis_url_puts_the_cache_in_redis():
    assert _cache_setting(REDIS_URL="redis://127.0.0.1:6379/2") == (
        "django.core.cache.backends.redis.RedisCache redis://127.0.0.1:6379/2"
    )


def test_the_cache_keys_carry_the_database(tmp_path):
    # cached entries name rows by id (a session's user, a game's version): another database's must not be read
    one, other = f"sqlite:///{tmp_path / 'one.sqlite3'}", f"sqlite:///{tmp_path / 'other.sqlite3'}"
    assert _cache_setting(PREFIX, DATABASE_URL=one) == _cache_setting(PREFIX, DATABASE_URL=one)
    assert _cache_setting(PREFIX, DATABASE_URL=one) != _cache_setting(PREFIX, DATABASE_URL=other)
    redis = {"REDIS_URL": "redis://127.0.0.1:6379/2"}
    assert _cache_setting(PREFIX, DATABASE_URL=one, **redis) != _cache_setting(PREFIX, DATABASE_URL=other, **redis)
