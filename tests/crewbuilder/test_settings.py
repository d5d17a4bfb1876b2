"""Settings come from the environment and fail loudly on bad values."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROD = {
    "DEBUG": "0",
    "SECRET_KEY": "k" * 20 + "-production-secret-value-0123456789-abcdefghij",
    "ALLOWED_HOSTS": "crew.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://crew.example.org",
}


def _manage(*args, **env_overrides):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    env.update(env_overrides)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_check_deploy_is_clean_with_production_settings():
    result = _manage("check", "--deploy", "--fail-level", "WARNING", **PROD)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize(
    "variable, value",
    [
        ("DEBUG", "maybe"),
        ("DATABASE_URL", "nonsense://x"),
        ("SECURE_HSTS_SECONDS", "a year"),
        ("TASKS_BACKEND", "celery"),
    ],
)
def test_bad_value_names_the_variable(variable, value):
    result = _manage("check", **{**PROD, variable: value})
    assert result.returncode != 0
    assert variable in result.stderr


def test_production_needs_a_real_secret_key():
    env = dict(PROD)
    env.pop("SECRET_KEY")
    result = _manage("check", **env)
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_production_needs_allowed_hosts():
    result = _manage("check", **{**PROD, "ALLOWED_HOSTS": ""})
    assert result.returncode != 0
    assert "ALLOWED_HOSTS" in result.stderr


@pytest.mark.parametrize(
    "env, backend",
    [
        (PROD, "django_tasks_db.DatabaseBackend"),  # make serve starts its worker
        ({"DEBUG": "1"}, "django_tasks.backends.immediate.ImmediateBackend"),  # make run: PDFs in the request
        ({**PROD, "TASKS_BACKEND": "immediate"}, "django_tasks.backends.immediate.ImmediateBackend"),
    ],
)
def test_the_task_backend_follows_debug_unless_set(env, backend):
    result = _manage(
        "shell", "-c", "from django.conf import settings; print(settings.TASKS['default']['BACKEND'])", **env
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == backend
