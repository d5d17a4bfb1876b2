"""On a phone, in the dark (E12b): the Conditions box offers a lantern near the target and an allied spot light
near the shooter; ticking one lifts the darkness from the shot's odds."""

import os

from playwright.sync_api import Browser, expect

from tests.e2e.conftest import assert_fits_a_phone, wait_for_htmx
from tests.e2e.test_battle_journey import (  # noqa: F401  (the catalogue fixture)
    catalogue,
    rewrite_state,
    set_action_phase,
    two_phones_at_a_battle,
)


def _in_the_dark(battle_id: int, weapons) -> str:
    from dataclasses import replace

    target = set_action_phase(battle_id, {"weapons": weapons, "traits": frozenset()}, {"armor": 0, "toughness": 0})
    # no Ace armed: the odds are below 100% and move with the light
    rewrite_state(battle_id, lambda s: replace(s, scenario=replace(s.scenario, environment="darkness"), armed=()))
    return target


def test_a_lantern_near_the_target_lifts_the_darkness_from_the_odds(
    browser: Browser,
    server_url: str,
    catalogue,
    django_user_model,  # noqa: F811
):
    from rules.cybernekro import engine as cn
    from rules.cybernekro.battle.state import WeaponUse

    pistol = WeaponUse("pistol", "pistol", cn.Weapon(2, 12, cn.Keywords(), "pistol"))
    a, _b, target = two_phones_at_a_battle(
        browser, server_url, django_user_model, lambda pk: _in_the_dark(pk, (pistol,))
    )
    row = a.locator(".bt-odds tbody tr", has_text=f"pistol → {target}")
    dark = row.inner_text()
    lantern = a.get_by_label("The target is within 3\" of a lantern (anyone's) (a Shoot ignores the darkness)")
    expect(lantern).to_be_visible()
    expect(
        a.get_by_label('The shooter is within 3" of an allied spot light (a Shoot ignores the darkness)')
    ).to_be_visible()
    lantern.check()
    wait_for_htmx(a)
    expect(
        a.get_by_label("The target is within 3\" of a lantern (anyone's) (a Shoot ignores the darkness)")
    ).to_be_checked()
    lit = a.locator(".bt-odds tbody tr", has_text=f"pistol → {target}").inner_text()
    assert lit != dark  # the shot's odds without the -3
    assert_fits_a_phone(a)
    if os.environ.get("E2E_SCREENSHOTS"):  # for people to look at; nothing asserted
        a.screenshot(path=f"{os.environ['E2E_SCREENSHOTS']}/battle-darkness-390.png", full_page=True)
