"""Every page that polls gives a poll up after a while: htmx queues the next poll behind one still in
flight, so a single request lost on the network would otherwise stop the page updating for good
(tests/e2e/test_polling.py shows it in a browser)."""

import re

from core.paths import TEMPLATES_DIR

TEMPLATES = TEMPLATES_DIR
POLLING = re.compile(r'<[^>]*hx-trigger="[^"]*every [^"]*"[^>]*>')


def _polling_tags():
    for path in sorted(TEMPLATES.rglob("*.html")):
        for tag in POLLING.findall(path.read_text()):
            yield path.relative_to(TEMPLATES), tag


def test_the_game_pages_poll():
    pages = {str(path) for path, _tag in _polling_tags()}
    assert {"ghoulash/game_detail.html", "soylentgames/game_detail.html", "trials/trial_detail.html"} <= pages


def test_every_poll_has_a_timeout_that_its_forms_do_not_inherit():
    for path, tag in _polling_tags():
        timeout = re.search(r"""hx-request='\{"timeout": (\d+)\}'""", tag)
        assert timeout, f"{path}: a poll without a timeout"
        interval = float(re.search(r"every (\d+)s", tag).group(1)) * 1000
        assert interval < int(timeout.group(1)) <= 15000, f"{path}: timeout {timeout.group(1)} ms"
        assert 'hx-disinherit="hx-request"' in tag, f"{path}: the forms inside would time out too"
