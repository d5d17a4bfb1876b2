"""B49 on two phones: a character's Move with an NPC on the table asks the other player about their own
reaction, then the mover names the NPC that reacts (or says none may); the other phone sees it happen."""

from dataclasses import replace

from playwright.sync_api import Browser, expect

from tests.e2e.conftest import wait_for_htmx
from tests.e2e.test_battle_journey import (  # noqa: F401  (the catalogue fixture)
    _state,
    catalogue,
    set_action_phase,
    two_phones_at_a_battle,
)


def _with_a_tomb_bot(battle_id: int) -> str:
    from battles.models import Battle
    from rules.cybernekro.battle import codec, npcs

    set_action_phase(battle_id, {}, {})
    battle = Battle.objects.get(pk=battle_id)
    state = npcs.place_npc(codec.loads(battle.state), None, "tomb-bots")
    battle.state = codec.dumps(replace(state, armed=()))
    battle.version += 1
    battle.save(update_fields=["state", "version"])
    return state.models[-1].name


def test_a_move_asks_the_mover_which_npc_reacts_and_both_phones_see_it(
    browser: Browser,
    server_url: str,
    catalogue,
    django_user_model,  # noqa: F811
):
    a, b, bot = two_phones_at_a_battle(browser, server_url, django_user_model, _with_a_tomb_bot)
    a.get_by_role("button", name="Move", exact=True).click()
    wait_for_htmx(a)
    # the other player first: their own models' reaction
    b.reload()
    b.get_by_role("button", name="Do not react").click()
    wait_for_htmx(b)
    a.reload()
    none = a.get_by_role("button", name="No NPC may react to")
    expect(none).to_be_visible()
    a.get_by_role("button", name=f"{bot} reacts to").click()
    wait_for_htmx(a)
    battle_id = int(a.url.rstrip("/").split("/")[-1])
    assert f"{bot} tries to react" in _state(battle_id).log[-1].text
    b.reload()
    expect(b.locator("body")).to_contain_text(f"{bot} tries to react")
    expect(b.get_by_role("button", name="No NPC may react to")).to_have_count(0)
