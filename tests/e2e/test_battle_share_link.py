"""A battle's read-only link, once made, is shown whole without widening the page on a phone."""

from playwright.sync_api import Browser, expect

from tests.e2e.conftest import assert_fits_a_phone
from tests.e2e.test_battle_journey import (  # noqa: F401  (the catalogue fixture)
    catalogue,
    two_phones_at_a_battle,
)


def test_the_read_only_link_wraps_on_a_phone(
    browser: Browser,
    server_url: str,
    catalogue,
    django_user_model,  # noqa: F811
):
    a, _, _ = two_phones_at_a_battle(browser, server_url, django_user_model, lambda battle_id: None)
    a.get_by_role("button", name="Share read-only by link").click()
    expect(a.get_by_text("Read-only link:")).to_be_visible()
    assert_fits_a_phone(a)  # the long address made the page scroll sideways
