"""Issue 17, finding 9: with DEBUG on (`make run`) every page, the first one
included, says so; `make serve` runs with DEBUG off whatever the shell exports."""

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("debug", [True, False])
def test_the_first_screen_says_when_debug_is_on(client, settings, debug):
    settings.DEBUG = debug
    html = client.get("/").content.decode()
    assert ("Development mode" in html) is debug


def test_make_serve_turns_debug_off_even_when_the_shell_sets_it(monkeypatch):
    spec = importlib.util.spec_from_file_location("serve", ROOT / "scripts" / "serve.py")
    serve = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(serve)
    monkeypatch.setenv("DEBUG", "1")
    # every process make serve starts (collectstatic, gunicorn, the PDF worker) gets this environment
    assert serve.environment()["DEBUG"] == "0"
