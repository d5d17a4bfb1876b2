"""The battle page: the Stagger test rolled after every Stagger hit, through the cards' window, Prone when the
players tick the obstacle behind the target; an NPC's test window let stand by the game master only."""

from dataclasses import replace

import pytest

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import npcs, rounds
from rules.cybernekro.battle.state import GM, Phase, WeaponUse
from tests.clients import logged_in

from .conftest import action_scene, advance, load, post_step, put
from .test_setup_and_game_master import with_gm  # noqa: F401  (shared fixture)

pytestmark = pytest.mark.django_db

MAUL = WeaponUse("maul", "maul", cn.Weapon(2, None, cn.Keywords.parse(["Stagger"]), "maul"))


@pytest.fixture
def fighting(started, user, other_user):
    """The Active Model carries a Stagger maul (a sure hit) against an enemy its damage cannot hurt."""
    battle = started()
    clients = {"0": logged_in(user), "1": logged_in(other_user)}
    state, seat, mid, enemy = action_scene(battle, clients)
    state = replace(state, scenario=replace(state.scenario, environment=None))
    state = state.with_model(replace(state.model(mid), weapons=(MAUL,), agility=20, on_fire=False))
    state = state.with_model(replace(state.model(enemy), armor=20, toughness=0, prone=False, traits=frozenset()))
    put(battle, rounds.select_model(state, seat, mid))
    return battle, clients, seat, enemy


def _attack_and_resolve(battle, clients, seat, enemy, **conditions):
    assert post_step(clients[seat], battle, f"attack:maul:{enemy}", **conditions).status_code == 200
    assert load(battle).pending[0].get("outcome") in ("success", "critical")
    assert post_step(clients[seat], battle, "resolve_attack").status_code == 200
    return load(battle)


def test_the_obstacle_behind_the_target_is_a_condition_the_players_tick(fighting):
    battle, clients, seat, enemy = fighting
    page = clients[seat].get(f"/battles/{battle.pk}/").content.decode()
    assert 'name="stagger_into_obstacle"' in page
    ticked = clients[seat].get(f"/battles/{battle.pk}/", {"stagger_into_obstacle": "1"}).content.decode()
    assert 'name="stagger_into_obstacle" value="1" checked' in ticked


def test_a_stagger_hit_into_an_obstacle_rolls_the_targets_toughness_test_in_the_cards_window(fighting):
    battle, clients, seat, enemy = fighting
    state = _attack_and_resolve(battle, clients, seat, enemy, stagger_into_obstacle="1")
    top = state.pending[0]
    assert top.kind == "test" and top.model == enemy and top.get("what") == "stagger" and top.get("then") == "hit"
    owner = state.model(enemy).seat
    page = clients[owner].get(f"/battles/{battle.pk}/").content.decode()
    assert "stagger" in page and "fate cards may still change it" in page
    assert post_step(clients[owner], battle, "resolve_test").status_code == 200
    after = load(battle)
    assert "stagger stands" in " ".join(e.text for e in after.log)
    assert after.model(enemy).prone == (top.get("outcome") in ("failure", "fumble"))


def test_without_the_obstacle_a_stagger_hit_still_rolls_the_test_and_says_to_push_the_target(fighting):
    """B66: "When hit the target must pass a Toughness test. On failure it is pushed back 1"": rolled, and a
    failure tells the players to move the models (the attacker may follow 1" after a melee attack)."""
    battle, clients, seat, enemy = fighting
    state = _attack_and_resolve(battle, clients, seat, enemy)
    top = state.pending[0]
    assert top.kind == "test" and top.model == enemy and top.get("what") == "stagger"
    owner = state.model(enemy).seat
    assert post_step(clients[owner], battle, "resolve_test").status_code == 200
    after = load(battle)
    text = " ".join(e.text for e in after.log)
    assert "stagger stands" in text and not after.model(enemy).prone  # no obstacle: only pushed, not Prone
    pushed = top.get("outcome") in ("failure", "fumble")
    assert ('pushed back 1" (move it on the table)' in text) == pushed
    assert ('may move 1" towards it' in text) == pushed


def test_with_a_game_master_the_npcs_test_a_player_rolled_waits_for_the_game_master(with_gm, user, other_user):
    battle, gm = with_gm
    clients = {"0": logged_in(user), "1": logged_in(other_user)}
    state = advance(battle, clients, lambda s: s.phase is Phase.ACTION and s.active_seat and not s.pending)
    state = npcs.place_npc(replace(state, scenario=replace(state.scenario, environment=None)), None, "tomb-bots")
    bot, seat = state.models[-1].id, state.active_seat
    mid = f"{seat}-0"
    state = state.with_model(replace(state.model(mid), weapons=(MAUL,), agility=20, on_fire=False))
    # Unstoppable: the bot rolls Tough it Out; the maul's Stagger test follows with the obstacle ticked
    put(battle, rounds.select_model(state, seat, mid))
    assert post_step(clients[seat], battle, f"attack:maul:{bot}", stagger_into_obstacle="1").status_code == 200
    assert post_step(clients[seat], battle, "resolve_attack").status_code == 200
    top = load(battle).pending[0]
    assert top.kind == "test" and top.model == bot and top.seat == GM
    master = logged_in(gm)
    assert 'value="resolve_test"' in master.get(f"/battles/{battle.pk}/").content.decode()
    assert 'value="resolve_test"' not in clients[seat].get(f"/battles/{battle.pk}/").content.decode()
    assert post_step(clients[seat], battle, "resolve_test").status_code == 422
    assert post_step(master, battle, "resolve_test").status_code == 200
    assert any("stands" in e.text and e.seat == GM for e in load(battle).log)


def test_a_characters_move_with_an_npc_on_the_table_asks_the_mover_which_npc_reacts(started, user, other_user):
    """B49: without a game master the mover's player answers the NPCs' window: the NPC reacts, or none may."""
    battle = started()
    clients = {"0": logged_in(user), "1": logged_in(other_user)}
    state = advance(battle, clients, lambda s: s.phase is Phase.ACTION and s.active_seat and not s.pending)
    state = npcs.place_npc(replace(state, scenario=replace(state.scenario, environment=None)), None, "tomb-bots")
    bot, seat = state.models[-1].id, state.active_seat
    mid = f"{seat}-0"
    put(battle, rounds.select_model(state, seat, mid))
    assert post_step(clients[seat], battle, "act:move").status_code == 200
    windows = [p for p in load(battle).pending if p.kind == "reaction"]
    assert windows[-1].get("npcs") and windows[-1].seat == seat
    while load(battle).pending[0] is not windows[-1] and not load(battle).pending[0].get("npcs"):
        other = load(battle).pending[0].seat
        assert post_step(clients[other], battle, "decline_reaction").status_code == 200
    page = clients[seat].get(f"/battles/{battle.pk}/").content.decode()
    name = load(battle).model(mid).name
    assert f"No NPC may react to {name}&#x27;s move" in page or f"No NPC may react to {name}'s move" in page
    assert "reacts to" in page and "(an eligible NPC always does)" in page
    assert post_step(clients[seat], battle, f"react:{bot}").status_code == 200
    after = load(battle)
    assert f"{after.model(bot).name} tries to react" in after.log[-1].text
    assert not any(p.kind == "reaction" for p in after.pending)  # one reaction per action: the window closed
