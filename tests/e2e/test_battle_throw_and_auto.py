"""On a phone: an Auto weapon rolled with one die (Auto X: "Can choose to roll X dice"), and a knife thrown (B63):
the throw has its own button and odds row, and the knife then lies on the table for anyone to pick up."""

import os
from dataclasses import replace

from playwright.sync_api import Browser, expect

from tests.e2e.conftest import assert_fits_a_phone, wait_for_htmx
from tests.e2e.test_battle_journey import (  # noqa: F401  (the catalogue fixture)
    _state,
    catalogue,
    rewrite_state,
    set_action_phase,
    two_phones_at_a_battle,
)


def _armed_with(battle_id: int) -> str:
    from rules.cybernekro import engine as cn
    from rules.cybernekro.battle.state import WeaponUse

    knife = WeaponUse("knife", "knife", cn.Weapon(1, None, cn.Keywords.parse(["Thrown"]), "knife"), hands=1)
    auto = WeaponUse("auto-pistol", "auto pistol", cn.Weapon(2, 12, cn.Keywords.parse(["Auto 2"]), "auto-pistol"))
    target = set_action_phase(battle_id, {"weapons": (knife, auto), "traits": frozenset()}, {"armor": 0})
    rewrite_state(battle_id, lambda s: replace(s, armed=()))  # no Ace: the odds move with the tick
    return target


def test_one_die_for_an_auto_weapon_and_a_knife_thrown(
    browser: Browser,
    server_url: str,
    catalogue,
    django_user_model,  # noqa: F811
):
    a, b, target = two_phones_at_a_battle(browser, server_url, django_user_model, _armed_with)
    auto_row = a.locator(".bt-odds tbody tr", has_text=f"auto pistol → {target}")
    several = auto_row.inner_text()
    one_die = a.get_by_label("one die with auto pistol (Auto 2)", exact=False)
    one_die.check()
    wait_for_htmx(a)
    expect(a.get_by_label("one die with auto pistol (Auto 2)", exact=False)).to_be_checked()
    assert a.locator(".bt-odds tbody tr", has_text=f"auto pistol → {target}").inner_text() != several
    expect(a.locator(".bt-odds tbody tr", has_text=f"knife (thrown) → {target}")).to_be_visible()
    assert_fits_a_phone(a)
    if os.environ.get("E2E_SCREENSHOTS"):  # for people to look at; nothing asserted
        a.screenshot(path=f"{os.environ['E2E_SCREENSHOTS']}/battle-throw-390.png", full_page=True)

    a.get_by_role("button", name=f"Throw the knife → {target}").click()
    wait_for_htmx(a)
    expect(a.locator("body")).to_contain_text(f"throws the knife at {target}")
    a.get_by_role("button", name="Let the miss stand").or_(a.get_by_role("button", name="Roll damage")).first.click()
    wait_for_htmx(a)
    battle_id = int(a.url.rstrip("/").rsplit("/", 1)[1])
    if _state(battle_id).pending[:1] and _state(battle_id).pending[0].kind == "tough_it_out":
        b.reload()  # a hit: its target's player chooses first, then the attack is over
        b.get_by_role("button", name=f"{target}: take it (no test)").click()
        wait_for_htmx(b)
    state = _state(battle_id)
    assert [w.slug for w in state.scenario.weapons_on_ground] == ["knife"]
    assert "knife" not in {w.slug for w in state.model("0-0").weapons}
    a.reload()
    expect(a.locator("body")).to_contain_text("On the ground: knife")
