"""B53–B56 on two phones: the mover ticks "in melee" and moves out of it dropping Prone; the other phone is offered
its free Fights first and declines; the move is made with no reaction; then the mover may only crawl."""

import os
from dataclasses import replace

from django.core.cache import cache
from playwright.sync_api import Browser, expect

from tests.e2e.conftest import wait_for_htmx
from tests.e2e.test_battle_journey import (  # noqa: F401  (the catalogue fixture)
    _state,
    catalogue,
    rewrite_state,
    set_action_phase,
    two_phones_at_a_battle,
)


def test_moving_out_of_melee_prone_offers_no_reaction_and_leaves_only_a_crawl(
    browser: Browser,
    server_url: str,
    catalogue,
    django_user_model,  # noqa: F811
):
    a, b, _ = two_phones_at_a_battle(
        browser, server_url, django_user_model, lambda pk: set_action_phase(pk, {"prone": False}, {})
    )
    battle_id = int(a.url.rstrip("/").split("/")[-1])
    mover = _state(battle_id).model("0-0").name
    expect(a.get_by_role("button", name="Jump", exact=True)).to_be_visible()
    jump = a.locator("form.bt-step", has=a.get_by_role("button", name="Jump", exact=True))
    expect(jump.get_by_label("the drop there (inches)")).to_have_value("0")
    a.get_by_label("in melee: not Prone").check()
    move = a.locator("form.bt-step", has=a.get_by_role("button", name="Move", exact=True))
    move.get_by_label("drop Prone at the end").check()
    if os.environ.get("E2E_SHOTS"):
        a.screenshot(path=os.path.join(os.environ["E2E_SHOTS"], "movement-choices.png"), full_page=True)
    move.get_by_role("button", name="Move", exact=True).click()
    wait_for_htmx(a)
    # the other phone first: its models' free Fights against the model leaving melee (B56)
    b.reload()
    expect(b.get_by_role("button", name=f"free Fight against {mover} with").first).to_be_visible()
    if os.environ.get("E2E_SHOTS"):
        b.screenshot(path=os.path.join(os.environ["E2E_SHOTS"], "free-fights.png"), full_page=True)
    b.get_by_role("button", name=f"No (more) free Fight against {mover}").click()
    wait_for_htmx(b)
    a.reload()
    a.get_by_role("button", name=f"{mover} makes its move").click()
    wait_for_htmx(a)
    state = _state(battle_id)
    assert state.model("0-0").prone
    assert any(f"{mover} moved out of melee" in e.text for e in state.log)
    expect(a.locator("body")).to_contain_text("drops Prone at the end of its move")
    expect(a.get_by_role("button", name='Crawl (Move, 1")')).to_be_visible()
    expect(a.get_by_role("button", name="Jump", exact=True)).to_have_count(0)
    b.reload()
    expect(b.locator("body")).to_contain_text(f"{mover} moved out of melee")
    expect(b.get_by_role("button", name="Do not react")).to_have_count(0)

    # a poll's redraw keeps the tick; a move made clears it (a scene where no window follows the move: the
    # enemies are Prone, so none may fight it, and have no AP, so none may react)
    def standing_again(state):
        state = state.with_model(replace(state.model("0-0"), prone=False, ap=3))
        for enemy in state.crew("1"):
            state = state.with_model(replace(enemy, ap=0, prone=True))
        return state

    rewrite_state(battle_id, standing_again)
    cache.clear()
    a.reload()
    a.get_by_label("in melee: not Prone").check()
    rewrite_state(battle_id, lambda state: state)  # another player's move: the next poll redraws the board
    cache.clear()  # scenes set by hand, not moves: the board's shared parts are rebuilt
    a.wait_for_timeout(4000)
    expect(a.get_by_label("in melee: not Prone")).to_be_checked()
    a.get_by_role("button", name="Move", exact=True).click()
    wait_for_htmx(a)
    expect(a.locator("body")).to_contain_text(f"{mover} moved out of melee: no reactions")
    expect(a.get_by_label("in melee: not Prone")).not_to_be_checked()
