"""Repair xN on a phone: one form, N Repairs of 1 Energy each, each a line of the log."""

import shutil

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, expect

from catalogue.loader import CATALOGUE_DIR
from tests.e2e.conftest import PHONE, assert_fits_a_phone, log_in, wait_for_htmx

PASSWORD = "neon-bones-1138"


@pytest.fixture
def catalogue(transactional_db, tmp_path):
    shutil.copy(CATALOGUE_DIR / "slasher-trial-1.json", tmp_path / "slasher-trial-1.json")
    call_command("loadcatalogue", "--dir", str(tmp_path), verbosity=0)


def test_repair_times_n_on_a_phone(browser: Browser, server_url: str, catalogue, django_user_model):
    from games.slasher_trial import services
    from games.slasher_trial.models import Generator, LogEntry, Participant

    vox = django_user_model.objects.create_user("vox", password=PASSWORD)
    mara = django_user_model.objects.create_user("mara", password=PASSWORD)
    trial = services.create_trial(vox, "Night at the yard")
    services.join(trial, mara)
    services.act(trial, vox, "generators")
    for i, g in enumerate(Generator.objects.filter(trial=trial).order_by("position")):  # onto known Squares
        g.square = f"x{i}"
        g.save()
    for i, g in enumerate(Generator.objects.filter(trial=trial).order_by("position")):
        g.square = f"A{2 * i + 1}"
        g.save()
    square, beside = "A1", "B1"  # B1 touches A1 only (A2 is free)
    services.act(trial, mara, "location", beside)
    Participant.objects.filter(trial=trial, user=mara).update(energy=30)

    page = log_in(browser, server_url, "mara", PASSWORD)
    page.set_viewport_size(PHONE)
    page.goto(server_url + trial.get_absolute_url())
    count = page.get_by_label(f"Generator on {square}: Repairs")
    expect(count).to_have_value("30")  # what the rules allow now: 30 Energy
    assert_fits_a_phone(page)
    count.fill("25")
    page.get_by_role("button", name=f"Repair ×N on {square}").click()
    wait_for_htmx(page)
    expect(page.locator("ol.trial-log li").first).to_have_text(
        f"mara repaired the Generator on {square} ×25 (0 → 25/100). (-25 Energy)"
    )
    expect(page.get_by_label(f"Generator on {square}: Repairs")).to_have_value("5")
    assert LogEntry.objects.filter(trial=trial, action="repair").count() == 1  # one line for the ×25
    assert Generator.objects.get(trial=trial, square=square).progress == 25
    # more than the Energy allows: refused whole, with the reason
    page.get_by_label(f"Generator on {square}: Repairs").evaluate("el => el.removeAttribute('max')")
    page.get_by_label(f"Generator on {square}: Repairs").fill("6")
    page.get_by_role("button", name=f"Repair ×N on {square}").click()
    expect(page.get_by_role("alert")).to_contain_text("Repair 6 of 6 is not allowed")
    assert Generator.objects.get(trial=trial, square=square).progress == 25
