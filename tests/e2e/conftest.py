import os

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

# Another player's page catches up by polling (every 3 to 5 s; a poll lost on the way is given up
# after 10 s), so a check on it may wait longer than Playwright's 5 s default.
expect.set_options(timeout=25_000)


def pytest_collection_modifyitems(items):
    for item in items:
        if "/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture
def server_url(live_server) -> str:
    return live_server.url


def wait_for_htmx(page: Page) -> None:
    """Wait until htmx has no request in flight and has settled the DOM."""
    page.wait_for_function(
        "() => window.htmx && document.querySelectorAll('.htmx-request, .htmx-settling, .htmx-swapping').length === 0"
    )


def assert_fits_a_phone(page: Page) -> None:
    """On a phone-wide viewport the page never scrolls sideways (wide tables scroll in their own box)."""
    size = page.viewport_size
    page.set_viewport_size(PHONE)
    widths = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    if size:
        page.set_viewport_size(size)
    assert widths[0] <= widths[1], f"the page is {widths[0]}px wide on a {widths[1]}px phone"


@pytest.fixture(autouse=True)
def _screenshot_on_failure(request, page: Page):
    yield
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        from pathlib import Path

        out = Path("test-results")
        out.mkdir(exist_ok=True)
        page.screenshot(path=str(out / f"{request.node.name}.png"), full_page=True)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


PHONE = {"width": 390, "height": 844}
_OPEN_CONTEXTS: list = []


@pytest.fixture(autouse=True)
def _close_player_contexts(request):
    """Close every player's browser at the end of its test, so no polling
    request is still in flight when the live server stops.

    With E2E_SCREENSHOTS=DIR set, each player's last page is saved there first
    (for people to look at; nothing is asserted on it)."""
    yield
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        _print_player_pages()
    out = os.environ.get("E2E_SCREENSHOTS")
    if out:
        for number, context in enumerate(_OPEN_CONTEXTS):
            for page_number, page in enumerate(context.pages):
                try:
                    page.screenshot(path=f"{out}/{request.node.name}-{number}-{page_number}.png", full_page=True)
                except Exception:  # a page the test already closed
                    pass
    while _OPEN_CONTEXTS:
        context = _OPEN_CONTEXTS.pop()
        try:
            context.close()
        except Exception:  # already closed by the test
            pass


def _print_player_pages() -> None:
    """What each player's browser showed when the test failed, for CI's output (its screenshots stay on
    the CI machine)."""
    for number, context in enumerate(_OPEN_CONTEXTS):
        for page in context.pages:
            try:
                text = page.locator("main").inner_text(timeout=2000)
            except Exception as exc:  # a closed or crashed page
                text = f"(unreadable: {exc})"
            print(f"--- player {number}: {page.url}\n{text[:3000]}")


def log_in(browser, server_url: str, username: str, password: str, viewport: dict | None = None) -> Page:
    """A new browser context (its own cookies: another player) logged in through the login form."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport=viewport) if viewport else browser.new_context()
    _OPEN_CONTEXTS.append(context)
    page = context.new_page()
    page.goto(server_url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name=f"Welcome back, {username}")).to_be_visible()
    return page
