import pytest
from playwright.sync_api import Page

pytestmark = pytest.mark.e2e


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
