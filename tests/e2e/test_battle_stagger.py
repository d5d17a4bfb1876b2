"""On two phones: the attacker ticks the obstacle behind the target (Stagger), the attack is rolled with it, and
the target's Stagger test waits in the cards' window on its owner's phone until they let it stand."""

from playwright.sync_api import Browser, expect

from tests.e2e.conftest import assert_fits_a_phone, wait_for_htmx
from tests.e2e.test_battle_journey import (  # noqa: F401  (the catalogue fixture)
    catalogue,
    set_action_phase,
    two_phones_at_a_battle,
)


def _maul_against_armor(battle_id: int) -> str:
    """vox's first character, active, swings a Stagger maul (an Ace armed on its hit roll) at an armoured enemy."""
    from rules.cybernekro import engine as cn
    from rules.cybernekro.battle.state import WeaponUse

    maul = WeaponUse("maul", "maul", cn.Weapon(2, None, cn.Keywords.parse(["Stagger"]), "maul"))
    return set_action_phase(battle_id, {"weapons": (maul,), "traits": frozenset()}, {"armor": 20})


def test_a_stagger_hit_into_an_obstacle_is_tested_in_the_cards_window(
    browser: Browser,
    server_url: str,
    catalogue,
    django_user_model,  # noqa: F811
):
    a, b, target = two_phones_at_a_battle(browser, server_url, django_user_model, _maul_against_armor)

    obstacle = a.get_by_label("an obstacle right behind the target", exact=False)
    obstacle.check()
    wait_for_htmx(a)
    expect(a.get_by_label("an obstacle right behind the target", exact=False)).to_be_checked()  # redrawn, kept
    assert_fits_a_phone(a)
    a.get_by_role("button", name=f"maul → {target}").click()
    wait_for_htmx(a)
    a.get_by_role("button", name="Roll damage").click()
    wait_for_htmx(a)
    b.reload()
    expect(b.get_by_text(f"{target}'s stagger:")).to_be_visible()
    expect(b.get_by_text("fate cards may still change it")).to_be_visible()
    b.get_by_role("button", name="Let the test stand").click()
    wait_for_htmx(b)
    expect(b.get_by_text(f"{target}'s stagger stands:")).to_be_visible()  # in the public log
    assert_fits_a_phone(b)
