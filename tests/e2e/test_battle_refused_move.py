"""On a phone, a move the engine refuses says why where the player is looking: the message is drawn at the top
of the board, a screen or more above the form that was sent."""

from dataclasses import replace

from playwright.sync_api import Browser, expect

from tests.e2e.conftest import wait_for_htmx
from tests.e2e.test_battle_journey import (  # noqa: F401  (the catalogue fixture)
    catalogue,
    rewrite_state,
    two_phones_at_a_battle,
)


def _vox_splits_ap(battle_id: int) -> None:
    from rules.cybernekro.battle.state import Phase

    rewrite_state(battle_id, lambda s: replace(s, phase=Phase.AP, round=1, first_seat="0", active_seat="0", pending=()))


def test_a_refused_ap_split_scrolls_its_message_into_view(
    browser: Browser,
    server_url: str,
    catalogue,
    django_user_model,  # noqa: F811
):
    a, _, _ = two_phones_at_a_battle(browser, server_url, django_user_model, _vox_splits_ap)

    split = a.locator("form").filter(has=a.locator('button[name="option"][value="assign_ap"]'))
    for box in split.locator('input[type="number"]').all():
        box.fill("1")
    split.get_by_role("button", name="Split my 9 AP").click()
    wait_for_htmx(a)
    refusal = a.locator(".bt-error")
    expect(refusal).to_contain_text("Distribute exactly 9 AP (you gave 3)")
    expect(refusal).to_be_in_viewport()
