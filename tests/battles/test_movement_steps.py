"""The battle page's moving steps (B53–B56): the Jump's drop, going Prone, the Push's obstacle or ledge, and the
acting model's "in melee" tick, each read by the step form and refused or applied by the engine; and the models a
Splash hit reaches (B57), named on the page like the moves' distances."""

from dataclasses import replace

import pytest

from rules.cybernekro.battle import rounds
from tests.clients import logged_in
from tests.rules.battle.helpers import PISTOL

from .conftest import action_scene, load, post_step, put

pytestmark = pytest.mark.django_db


@pytest.fixture
def moving(started, user, other_user):
    """The Active Model selected, not Prone nor on Fire, a Reckless sprinter with a pistol."""
    battle = started()
    clients = {"0": logged_in(user), "1": logged_in(other_user)}
    state, seat, mid, enemy = action_scene(battle, clients)
    state = state.with_model(
        replace(
            state.model(mid),
            prone=False,
            on_fire=False,
            traits=frozenset({"reckless-sprinter"}),
            weapons=state.model(mid).weapons + (PISTOL,),
        )
    )
    state = state.with_model(replace(state.model(enemy), prone=False))
    put(battle, rounds.select_model(state, seat, mid))
    return battle, clients, seat, mid, enemy


def test_the_page_offers_the_moving_choices_and_the_in_melee_tick(moving):
    battle, clients, seat, mid, enemy = moving
    page = clients[seat].get(f"/battles/{battle.pk}/").content.decode()
    assert 'value="act:jump"' in page and 'name="height"' in page
    assert 'name="prone_after"' in page and 'name="sprint"' in page and 'name="pushed_into"' in page
    assert 'id="acting-melee" type="checkbox" name="in_melee" value="1">' in page
    assert 'hx-include="#conditions, #acting"' in page
    kept = clients[seat].get(f"/battles/{battle.pk}/", {"in_melee": "1"}).content.decode()
    assert 'id="acting-melee" type="checkbox" name="in_melee" value="1" checked>' in kept  # kept by the polls
    other = "1" if seat == "0" else "0"
    assert 'id="acting-melee"' not in clients[other].get(f"/battles/{battle.pk}/").content.decode()


def test_a_move_dropping_prone_out_of_melee_is_applied_after_the_free_fights(moving):
    battle, clients, seat, mid, enemy = moving
    other = "1" if seat == "0" else "0"
    assert post_step(clients[seat], battle, "act:move", prone_after="1", in_melee="1").status_code == 200
    assert [p.kind for p in load(battle).pending] == ["free_fight", "move_on"]
    page = clients[other].get(f"/battles/{battle.pk}/").content.decode()
    assert "free Fight against" in page and 'value="no_free_fight"' in page
    assert post_step(clients[other], battle, "no_free_fight").status_code == 200
    assert post_step(clients[seat], battle, "move_on").status_code == 200
    state = load(battle)
    assert state.model(mid).prone
    assert not [p for p in state.pending if p.kind == "reaction"]  # out of melee: no reactions
    assert any("moved out of melee" in e.text for e in state.log)


def test_a_shot_in_melee_is_refused_with_the_rule(moving):
    battle, clients, seat, mid, enemy = moving
    before = battle.version
    response = post_step(clients[seat], battle, f"attack:pistol:{enemy}", in_melee="1", cover="1")
    assert "A model cannot shoot while in melee" in response.content.decode()
    battle.refresh_from_db()
    assert battle.version == before
    # the refusal leaves the player's ticks as they were, to choose another move
    assert 'id="acting-melee" type="checkbox" name="in_melee" value="1" checked>' in response.content.decode()
    assert 'id="cond-cover" type="checkbox" name="cover" value="1" checked' in response.content.decode()


def test_a_jump_with_a_bad_drop_is_refused_by_the_form(moving):
    battle, clients, seat, mid, enemy = moving
    before = battle.version
    response = post_step(clients[seat], battle, "act:jump", height="-3")
    assert "Drop" in response.content.decode()
    battle.refresh_from_db()
    assert battle.version == before


def test_a_jump_rolls_agility_and_a_push_names_what_is_behind(moving):
    battle, clients, seat, mid, enemy = moving
    assert post_step(clients[seat], battle, "act:jump", height="4", sprint="1").status_code == 200
    window = load(battle).pending[0]
    assert window.kind == "test" and window.get("what") == "jump: Agility"
    assert dict(window.get("move"))["height"] == 4.0 and dict(window.get("move"))["sprint"] is True


def test_a_ledge_behind_a_staggered_target_is_a_condition_with_its_drop(moving):
    battle, clients, seat, mid, enemy = moving
    page = clients[seat].get(f"/battles/{battle.pk}/", {"stagger_over_ledge": "4.5"}).content.decode()
    assert 'name="stagger_over_ledge" min="0" max="60" step="0.5" value="4.5"' in page
    before = battle.version
    both = post_step(clients[seat], battle, f"attack:sword:{enemy}", stagger_into_obstacle="1", stagger_over_ledge="3")
    assert "an obstacle or a ledge, not both" in both.content.decode()
    battle.refresh_from_db()
    assert battle.version == before


def test_a_flee_move_just_made_offers_its_ends_with_the_drop(moving):
    battle, clients, seat, mid, enemy = moving
    put(battle, replace(load(battle), fled=mid, active_model=None))
    page = clients[seat].get(f"/battles/{battle.pk}/").content.decode()
    assert f'value="flee_ends:{mid}:corner"' in page and f'value="flee_ends:{mid}:ledge"' in page
    assert "The drop below the ledge (inches)" in page
    assert post_step(clients[seat], battle, f"flee_ends:{mid}:ledge", height="2").status_code == 200
    state = load(battle)
    assert state.fled is None and any('falls 2": no fall damage' in e.text for e in state.log)


def test_a_splash_hit_names_the_models_within_1_inch_on_the_page(moving):
    from rules.cybernekro import engine as cn
    from rules.cybernekro.battle.state import WeaponUse

    battle, clients, seat, mid, enemy = moving
    launcher = WeaponUse("launcher", "grenade launcher", cn.Weapon(2, 18, cn.Keywords.parse(["Splash"]), "launcher"))
    state = load(battle)
    state = state.with_model(replace(state.model(mid), weapons=(launcher,), discipline=30))
    state = state.with_model(replace(state.model(enemy), armor=30))
    put(battle, replace(state, armed=()))
    assert post_step(clients[seat], battle, f"attack:launcher:{enemy}").status_code == 200
    assert post_step(clients[seat], battle, "resolve_attack").status_code == 200
    assert load(battle).pending[0].kind == "splash"
    page = clients[seat].get(f"/battles/{battle.pk}/").content.decode()
    other = f"{'1' if seat == '0' else '0'}-1"
    assert 'value="splash_hits"' in page and f'name="targets" value="{other}"' in page
    assert f'name="targets" value="{enemy}"' not in page.split('value="splash_hits"')[0].rsplit("<form", 1)[-1]
    assert post_step(clients[seat], battle, "splash_hits", targets=[other]).status_code == 200
    assert any(e.text.startswith("Splash around") for e in load(battle).log)


def test_a_shot_at_a_model_in_melee_that_just_misses_asks_which_models_are_near(moving):
    battle, clients, seat, mid, enemy = moving
    state = load(battle)
    state = state.with_model(replace(state.model(mid), discipline=2))
    put(battle, replace(state, armed=()))
    # the page rolls with the battle's seeds (repeatable): shots until one fails by 1 to 3
    for _ in range(40):
        state = load(battle)
        if state.active_model != mid or state.model(mid).ap < 1:
            break
        response = post_step(clients[seat], battle, f"attack:pistol:{enemy}", target_in_melee="1")
        assert response.status_code == 200
        window = load(battle).pending[0]
        total = window.get("total")
        assert window.get("situation").in_melee  # the conditions' tick reached the attack
        assert post_step(clients[seat], battle, "resolve_attack").status_code == 200
        after = load(battle)
        if window.get("outcome") == "failure" and 11 - total < 4:
            assert after.pending[0].kind == "stray_shot"
            page = clients[seat].get(f"/battles/{battle.pk}/").content.decode()
            assert 'value="stray_shot"' in page and "Which models are within ½" in page
            return
        put(battle, replace(after, pending=(), reaction=None))
        state = load(battle)
        put(battle, state.with_model(replace(state.model(mid), ap=3, jammed=frozenset(), unloaded=frozenset())))
    pytest.fail("no shot failed by less than 4 in 40 seeded tries")


def test_a_model_moved_by_kinesis_ends_where_its_casters_player_says(moving):
    from rules.cybernekro.battle.state import Pending

    battle, clients, seat, mid, enemy = moving
    window = Pending("forced_move", seat, enemy, (("cause", "Kinesis"),))
    put(battle, replace(load(battle), pending=(window,)))
    page = clients[seat].get(f"/battles/{battle.pk}/").content.decode()
    assert 'value="forced_move_ends:obstacle"' in page and 'value="forced_move_ends:ledge"' in page
    assert 'id="forced-drop-' in page
    assert post_step(clients[seat], battle, "forced_move_ends:obstacle").status_code == 200
    state = load(battle)
    assert state.model(enemy).prone and not state.pending


def test_the_player_choosing_free_fights_sees_each_fighters_odds_against_the_model_leaving(moving):
    battle, clients, seat, mid, enemy = moving
    other = "1" if seat == "0" else "0"
    assert post_step(clients[seat], battle, "act:move", in_melee="1").status_code == 200
    page = clients[other].get(f"/battles/{battle.pk}/").content.decode()
    state = load(battle)
    fighter = state.model(enemy)
    assert "Odds before the roll" in page
    melee = next(w for w in fighter.weapons if not w.ranged)
    assert f"{fighter.name}: {melee.name} → {state.model(mid).name}" in page
    assert not any(f"{fighter.name}: {w.name} →" in page for w in fighter.weapons if w.ranged)
