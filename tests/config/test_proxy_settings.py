"""Issue 17, finding 9: X-Forwarded-Proto is believed only when BEHIND_PROXY says
a proxy sets it; production settings alone do not."""

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
}
PROBE = (
    "from django.conf import settings; from django.test import RequestFactory; "
    "r = RequestFactory().get('/', HTTP_X_FORWARDED_PROTO='https'); print(r.is_secure())"
)


def _is_secure_with_forged_header(**env_overrides) -> str:
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "BEHIND_PROXY"}}
    env.update(PROD, **env_overrides)
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize("behind_proxy, secure", [(None, "False"), ("0", "False"), ("1", "True")])
def test_forwarded_proto_is_trusted_only_when_configured(behind_proxy, secure):
    extra = {} if behind_proxy is None else {"BEHIND_PROXY": behind_proxy}
    assert _is_secure_with_forged_header(**extra) == secure
