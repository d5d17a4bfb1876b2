"""On two phones (B42): the target's player declines Tough it Out on their own phone while the attacker's phone
shows the damage waiting for that choice; then an Ambidextrous character attacks with two one-handed weapons
in one action, each attack at -2 to hit with its own damage."""

import os

from playwright.sync_api import Browser, expect

from tests.e2e.conftest import assert_fits_a_phone, wait_for_htmx
from tests.e2e.test_battle_journey import (  # noqa: F401  (the catalogue fixture)
    catalogue,
    rewrite_state,
    set_action_phase,
    two_phones_at_a_battle,
)


def _arrange(battle_id: int, armor: int = 0, **attacker) -> str:
    """vox's first character, active with an Ace armed on its hit roll, against mara's first (``armor``)."""
    return set_action_phase(battle_id, attacker, {"armor": armor, "toughness": 0})


def _shot(path: str, page) -> None:
    if os.environ.get("E2E_SCREENSHOTS"):  # for people to look at; nothing asserted
        page.screenshot(path=f"{os.environ['E2E_SCREENSHOTS']}/{path}", full_page=True)


def test_the_target_declines_tough_it_out_on_its_own_phone(
    browser: Browser,
    server_url: str,
    catalogue,
    django_user_model,  # noqa: F811
):
    from rules.cybernekro import engine as cn
    from rules.cybernekro.battle.state import WeaponUse

    maul = WeaponUse("maul", "maul", cn.Weapon(2, None, cn.Keywords(), "maul"))  # seeded: 10, a Critical Injury
    a, b, target = two_phones_at_a_battle(
        browser, server_url, django_user_model, lambda pk: _arrange(pk, weapons=(maul,), traits=frozenset())
    )
    a.get_by_role("button", name=f"maul → {target}").click()
    wait_for_htmx(a)
    a.get_by_role("button", name="Roll damage").click()
    wait_for_htmx(a)
    expect(a.get_by_role("heading", name="Tough it Out?")).to_be_visible()  # everyone sees the damage
    expect(a.locator(".bt-pending")).to_contain_text("Tough it Out or take it")
    expect(a.get_by_role("button", name=f"{target}: take it (no test)")).to_have_count(0)  # not the attacker's
    expect(b.get_by_role("heading", name="Tough it Out?")).to_be_visible(timeout=10000)  # the poll brings it
    take = b.get_by_role("button", name=f"{target}: take it (no test)")
    expect(take).to_be_visible()
    expect(b.get_by_role("button", name=f"{target}: Tough it Out (Toughness test)")).to_be_visible()
    assert_fits_a_phone(b)
    _shot("b42-tough-it-out-choice-390.png", b)
    take.click()
    wait_for_htmx(b)
    expect(b.get_by_text(f"{target} takes it: no Tough it Out")).to_be_visible()  # the public log
    expect(b.get_by_role("heading", name="Tough it Out?")).to_have_count(0)
    expect(a.get_by_text(f"{target} takes it: no Tough it Out")).to_be_visible(timeout=10000)


def test_an_ambidextrous_character_attacks_with_two_weapons_in_one_action(
    browser: Browser,
    server_url: str,
    catalogue,
    django_user_model,  # noqa: F811
):
    from rules.cybernekro import engine as cn
    from rules.cybernekro.battle.state import WeaponUse

    sword = WeaponUse("sword", "sword", cn.Weapon(2, None, cn.Keywords.parse(["Parry"]), "sword"), hands=1)
    axe = WeaponUse("axe", "axe", cn.Weapon(2, None, cn.Keywords.parse(["Piercing 2"]), "axe"), hands=1)
    a, b, target = two_phones_at_a_battle(
        browser,
        server_url,
        django_user_model,
        # armored: the sword's damage leaves it standing, so the axe has a target
        lambda pk: _arrange(pk, armor=20, weapons=(sword, axe), traits=frozenset({"ambidextrous"})),
    )
    pair = a.get_by_role("button", name=f"sword + axe → {target} (Ambidextrous, −2 each)")
    expect(pair).to_be_visible()
    assert_fits_a_phone(a)
    _shot("b42-two-weapons-390.png", a)
    pair.click()
    wait_for_htmx(a)
    expect(a.get_by_text("(Ambidextrous: sword and axe, -2 to hit each)")).to_be_visible()  # the log, 1 action
    second = a.get_by_role("button", name="Roll the second attack (Ambidextrous)")
    for _ in range(6):  # the sword's attack to its end: the damage, then mara's choice on her phone
        if second.count():
            break
        if a.get_by_role("button", name="Roll damage").count():
            a.get_by_role("button", name="Roll damage").click()
            wait_for_htmx(a)
            continue
        b.reload()
        for name in (f"{target}: take it (no test)", "Let the test stand", "Accept: Out of Action"):
            if b.get_by_role("button", name=name).count():
                b.get_by_role("button", name=name).click()
                wait_for_htmx(b)
                break
        a.reload()
    expect(second).to_be_visible()
    second.click()
    wait_for_htmx(a)
    expect(a.get_by_text(f"fights {target} with axe")).to_be_visible()
    expect(a.get_by_text("(Ambidextrous, the second attack)")).to_be_visible()


def _with_stims(battle_id: int, maul) -> str:
    """As the decline's arrangement, mara's first character with Stim injectors."""
    from dataclasses import replace

    target = _arrange(battle_id, weapons=(maul,), traits=frozenset())
    stims = frozenset({"stim-injectors"})
    rewrite_state(battle_id, lambda s: s.with_model(replace(s.model("1-0"), body_mods=stims)))
    return target


def test_the_target_uses_its_stim_injectors_on_its_own_phone(
    browser: Browser,
    server_url: str,
    catalogue,
    django_user_model,  # noqa: F811
):
    """Stim injectors (B43): "Once per game this model can automatically pass any Toughness test but suffers a
    Neural Overload as a result"."""
    from rules.cybernekro import engine as cn
    from rules.cybernekro.battle.state import WeaponUse

    maul = WeaponUse("maul", "maul", cn.Weapon(2, None, cn.Keywords(), "maul"))
    a, b, target = two_phones_at_a_battle(browser, server_url, django_user_model, lambda pk: _with_stims(pk, maul))
    a.get_by_role("button", name=f"maul → {target}").click()
    wait_for_htmx(a)
    a.get_by_role("button", name="Roll damage").click()
    wait_for_htmx(a)
    stims = b.get_by_role("button", name=f"{target}: Stim injectors", exact=False)
    expect(stims).to_be_visible(timeout=10000)
    expect(a.get_by_role("button", name=f"{target}: Stim injectors", exact=False)).to_have_count(0)
    assert_fits_a_phone(b)
    _shot("b43-stim-injectors-390.png", b)
    stims.click()
    wait_for_htmx(b)
    expect(b.get_by_text(f"{target} uses Stim injectors: Tough it Out passes without a roll")).to_be_visible()
    expect(b.get_by_text("(Stim injectors)", exact=False)).to_be_visible()
    expect(a.get_by_text(f"{target} uses Stim injectors", exact=False)).to_be_visible(timeout=10000)
