"""A player makes a Soylent Ghoul drone set, looks at the secret key, re-deals
it, and prints the token sheet; an opponent with the share link sees the codes
but never the key."""

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import PHONE, assert_fits_a_phone, log_in, wait_for_htmx

PASSWORD = "neon-bones-1138"


@pytest.fixture
def catalogue(transactional_db):
    call_command("loadcatalogue", verbosity=0)


def _login(browser: Browser, server_url: str, username: str) -> Page:
    return log_in(browser, server_url, username, PASSWORD, viewport=PHONE)  # a phone at the table


def _key(page: Page) -> list[str]:
    return page.locator("#secret-key .sg-true").all_inner_texts()


def test_create_show_key_redeal_print_and_share(browser: Browser, server_url: str, catalogue, django_user_model):
    django_user_model.objects.create_user("vox", password=PASSWORD)
    django_user_model.objects.create_user("mara", password=PASSWORD)
    page = _login(browser, server_url, "vox")
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)

    page.goto(server_url + "/games/soylent/")
    page.get_by_label("Set name").fill("The Lamplit")
    page.get_by_role("radio", name=re.compile("Gardeners")).check()
    page.get_by_label("Number of drones").fill("4")
    page.get_by_role("button", name="Create drone set").click()
    expect(page.get_by_role("heading", name="The Lamplit", exact=True)).to_be_visible()
    expect(page.get_by_text("Lighter", exact=True)).to_be_visible()
    codes = page.locator(".sg-drone .sg-code").all_inner_texts()
    assert len(codes) == 20 and len(set(codes)) == 20
    set_url = page.url

    # The key is not on screen until asked for, and comes in without a reload.
    assert _key(page) == []
    page.evaluate("window.__noReload = 1")
    page.get_by_role("link", name="Show my secret key").click()
    wait_for_htmx(page)
    key = _key(page)
    assert len(key) == 4 and all(code in codes for code in key)
    for i, code in enumerate(key):  # one true token per drone, among its own five
        assert code in codes[5 * i : 5 * i + 5]
    assert page.evaluate("window.__noReload") == 1
    page.get_by_role("link", name="Hide my secret key").click()
    wait_for_htmx(page)
    assert _key(page) == []

    # Re-deal: asks first, keeps the codes, stamps a new deal.
    page.get_by_role("link", name="Re-deal true tokens").click()
    page.get_by_role("button", name="Re-deal the true tokens").click()
    expect(page.get_by_text("True tokens re-dealt")).to_be_visible()
    assert page.locator(".sg-drone .sg-code").all_inner_texts() == codes
    page.get_by_role("link", name="Show my secret key").click()
    wait_for_htmx(page)
    new_key = _key(page)
    assert len(new_key) == 4 and all(code in codes[5 * i : 5 * i + 5] for i, code in enumerate(new_key))

    # The token sheet link returns a PDF.
    href = page.locator("form.print-form", has=page.get_by_role("button", name="Token sheet (PDF)")).get_attribute(
        "action"
    )
    response = page.request.get(server_url + href)
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    assert response.body().startswith(b"%PDF")

    # An opponent with the share link sees the codes, never the key.
    page.goto(set_url)
    page.get_by_role("button", name="Create share link").click()
    share_url = page.locator("#share-link").get_attribute("href")
    assert_fits_a_phone(page)
    # The name fields are fields like the others on a phone (without a type they were bare 21 px boxes).
    for field in (page.get_by_label("Name of drone 1"), page.get_by_label("New drone's name")):
        box = field.bounding_box()
        assert box and box["height"] >= 44
    mara = _login(browser, server_url, "mara")
    mara.goto(server_url + share_url)
    expect(mara.get_by_role("heading", name="The Lamplit")).to_be_visible()
    assert mara.locator(".sg-code").all_inner_texts() == codes
    assert mara.locator(".sg-true").count() == 0 and "secret key" not in mara.content().lower()
    assert mara.goto(set_url).status == 404
    assert not [e for e in errors if "Content Security Policy" in e], errors
