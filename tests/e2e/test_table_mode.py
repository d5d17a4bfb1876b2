"""`make table` (scripts/table.py): phones on the local network sign up and play over plain HTTP.

The browser opens the app by this machine's host name (mapped to the loopback by
Chromium's resolver, so no traffic leaves the machine). That origin is not
localhost, so it is not a secure context: a Secure session cookie would be dropped
and signing up would not stick. DEBUG is off: an unknown page is the plain 404.
"""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.conftest import CHROMIUM

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _stop(server) -> None:
    try:
        os.killpg(server.pid, 15)
    except ProcessLookupError:
        pass
    server.wait(timeout=30)


@pytest.fixture
def table_server(tmp_path):
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'table.sqlite3'}", "PORT": str(port)}
    for name in ("DEBUG", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "SECRET_KEY", "DJANGO_SETTINGS_MODULE"):
        env.pop(name, None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env={**env, "DEBUG": "1"},
        check=True,
        timeout=300,
    )
    server = subprocess.Popen(
        [sys.executable, "scripts/table.py", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        for _ in range(240):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
                break
            except OSError:
                time.sleep(0.5)
        else:
            raise AssertionError("make table never answered")
        yield port, server
    finally:
        _stop(server)


def test_a_phone_on_the_lan_joins_over_plain_http(table_server, playwright):
    port, server = table_server
    host = socket.gethostname()
    browser = playwright.chromium.launch(
        executable_path=CHROMIUM,
        args=[
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            f"--host-resolver-rules=MAP {host} 127.0.0.1",
        ],
    )
    try:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        url = f"http://{host}:{port}"
        page.goto(url + "/accounts/signup/")
        assert page.url.startswith("http://")  # no redirect to HTTPS on a home network
        page.get_by_label("Username").fill("tablemate")
        page.get_by_label("Email address").fill("mate@example.com")
        page.get_by_label("Password", exact=True).fill("neon-bones-1138")
        page.get_by_label("Password confirmation").fill("neon-bones-1138")
        page.get_by_role("button", name="Sign up").click()
        expect(page.get_by_role("button", name="Log out")).to_be_visible()
        page.goto(url + "/crews/")
        expect(page.get_by_role("button", name="Log out")).to_be_visible()  # the session cookie stuck

        missing = page.goto(url + "/no-such-page/")
        assert missing.status == 404
        assert "Traceback" not in page.content() and "DEBUG" not in page.content()
    finally:
        browser.close()
    _stop(server)
    out = server.communicate(timeout=30)[0]
    assert f":{port}/" in out and "Scan to join" in out  # the address and a QR code were printed
