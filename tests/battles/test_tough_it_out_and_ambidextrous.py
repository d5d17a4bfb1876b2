"""The battle page's Tough it Out choice and Ambidextrous pair (B42).

> "the target model *can* attempt to Tough it Out by rolling a Toughness test ... If the model decides
> to roll but fails it gains 1 Dread."
> AMBIDEXTROUS: "The model can attack with two one-handed weapons in a single action. Both attacks need
> to target the same model and both suffer a -2 to hit."
"""

from dataclasses import replace
from html import escape

import pytest

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import actions
from rules.cybernekro.battle.state import WeaponUse
from tests.rules.battle.helpers import Dice

from .conftest import post_step, put
from .test_fate_on_tests import _acting, load, other, page, table  # noqa: F401  (the fixture)
from .test_views import _page_and_poll_queries, _responses

pytestmark = pytest.mark.django_db

SWORD = WeaponUse("sword", "sword", cn.Weapon(2, None, cn.Keywords.parse(["Parry"]), "sword"), hands=1)
AXE = WeaponUse("axe", "axe", cn.Weapon(2, None, cn.Keywords.parse(["Piercing 2"]), "axe"), hands=1)


def _damage_waiting(state):
    """The active model's first weapon hits a plain enemy: a Light Injury waits for its player's choice."""
    state, mid = _acting(state)
    seat = state.active_seat
    target = next(m for m in state.models if m.seat == other(seat))
    state = state.with_model(replace(target, armor=0, toughness=0, traits=frozenset(), body_mods=frozenset()))
    weapon = next(w.slug for w in state.model(mid).weapons if not w.weapon.keywords.has("feeble"))
    hit = actions.attack(state, seat, weapon, target.id, Dice(19), 1)
    planned = actions.plan(state, state.model(mid), weapon, state.model(target.id))[1].hit
    faces = [2] * planned.dice if planned.dice > 1 else [3]  # 2 + 2 (or one 3): 3+ Light Injury
    return actions.resolve_attack(hit, seat, Dice(*faces), 1), seat, target.id


def test_the_choice_is_shown_to_everyone_and_only_the_targets_player_answers_it(table, django_assert_num_queries):
    battle, clients, state = table
    waiting, seat, target = _damage_waiting(state)
    assert waiting.pending[0].kind == "tough_it_out"
    put(battle, waiting)
    owner = other(seat)
    theirs, mine = page(clients[owner], battle), page(clients[seat], battle)
    for shown in (theirs, mine):  # the damage and what each answer leaves: public
        assert (
            "Tough it Out?" in shown and "<strong>Light Injury</strong>" in shown and "Nothing is applied yet" in shown
        )
    assert 'value="take_it"' in theirs and 'value="tough_it_out"' in theirs
    assert "{#" not in theirs  # no template comment leaks onto the page (the log's used to)
    assert 'value="take_it"' not in mine and "Tough it Out or take it" in mine
    refused = post_step(clients[seat], battle, "take_it")
    assert refused.status_code != 200 and "not open to you" in refused.content.decode()
    assert post_step(clients[seat], battle, "end_activation").status_code != 200  # the others wait
    assert load(battle).pending[0].kind == "tough_it_out"
    for s in ("0", "1"):  # only the other's hand changed: nothing a seat sees changes
        before = _responses(clients[s], battle)
        put(battle, waiting.with_player(replace(waiting.player(other(s)), hand=("2♦", "3♦", "Q♦", "K♦"))))
        assert _responses(clients[s], battle) == before, s
        put(battle, waiting)
    # an enemy's face-down card on the target's test: only its value changes, the owner's pages do not
    shown = []
    for card, value in (("5♥", -5), ("9♥", -9)):
        put(battle, replace(waiting, armed=((seat, target, card, value),)))
        shown.append(_responses(clients[owner], battle))
    assert shown[0] == shown[1]
    put(battle, waiting)
    _page_and_poll_queries(clients[owner], battle, django_assert_num_queries)  # the panel costs no query
    assert post_step(clients[owner], battle, "take_it").status_code == 200
    after = load(battle)
    hurt = after.model(target)
    assert hurt.wounds == 1 and hurt.dread == 0 and not any(p.kind == "tough_it_out" for p in after.pending)
    texts = [e.text for e in after.log]
    assert any("takes it: no Tough it Out" in t for t in texts)
    assert not any(r.get("what") == "tough it out" for e in after.log for r in e.rolls)


def test_the_targets_player_may_use_stim_injectors_once(table):
    """Stim injectors: "Once per game this model can automatically pass any Toughness test but suffers a Neural
    Overload as a result." (B43)"""
    battle, clients, state = table
    waiting, seat, target = _damage_waiting(state)
    waiting = waiting.with_model(replace(waiting.model(target), body_mods=frozenset({"stim-injectors"})))
    put(battle, waiting)
    owner = other(seat)
    assert 'value="use_stims"' in page(clients[owner], battle)
    # a Light Injury, passed: nothing; public, as the body-mod is
    assert "Stim injectors (once per game): no injury, no test, then a Neural Overload." in page(clients[seat], battle)
    assert 'value="use_stims"' not in page(clients[seat], battle)
    assert post_step(clients[owner], battle, "use_stims").status_code == 200
    after = load(battle)
    assert after.model(target).stims_used and not any(p.kind == "tough_it_out" for p in after.pending)
    texts = [e.text for e in after.log]
    assert any("uses Stim injectors" in t for t in texts) and any("(Stim injectors)" in t for t in texts)
    assert 'value="use_stims"' not in page(clients[owner], battle)
    assert "Stim injectors (once per game)" not in page(clients[owner], battle)


def test_choosing_to_roll_opens_the_tests_window_for_the_cards(table):
    battle, clients, state = table
    waiting, seat, target = _damage_waiting(state)
    put(battle, waiting)
    assert post_step(clients[other(seat)], battle, "tough_it_out").status_code == 200
    top = load(battle).pending[0]
    assert top.kind == "test" and top.model == target and top.get("what") == "tough it out"
    assert "Let the test stand" in page(clients[other(seat)], battle)


def test_a_two_weapon_attack_from_the_page(table):
    battle, clients, state = table
    state, mid = _acting(state)
    seat = state.active_seat
    state = state.with_model(
        replace(state.model(mid), traits=frozenset({"ambidextrous"}), weapons=(SWORD, AXE), agility=1)
    )
    target = next(m for m in state.models if m.seat == other(seat))
    put(battle, state)
    option = f"attack_two:sword:axe:{target.id}"
    shown = page(clients[seat], battle)
    assert escape(option) in shown and f"sword + axe → {escape(target.name)} (Ambidextrous, −2 each)" in shown
    assert "sword (with axe, −2) → " in shown and "axe (with sword, −2) → " in shown  # the odds of each
    ap = state.model(mid).ap
    alone = {w: actions.plan(state, state.model(mid), w, target)[1].to_hit.modifier for w in ("sword", "axe")}
    assert post_step(clients[seat], battle, option).status_code == 200
    after = load(battle)
    first, second = after.pending[0], after.pending[1]
    assert (
        first.kind == "to_hit" and first.get("weapon") == "sword" and first.get("event").modifier == alone["sword"] - 2
    )
    assert second.kind == "second_attack" and second.get("weapon") == "axe"
    assert after.model(mid).ap == ap - 1
    while load(battle).pending[0].kind != "second_attack":  # the sword's attack resolved, whatever it rolled
        top = load(battle).pending[0]
        answer = {"to_hit": "resolve_attack", "test": "resolve_test", "tough_it_out": "take_it"}[top.kind]
        assert post_step(clients[top.seat], battle, answer).status_code == 200
    assert "Roll the second attack (Ambidextrous)" in page(clients[seat], battle)
    assert post_step(clients[seat], battle, "second_attack").status_code == 200
    top = load(battle).pending[0]
    assert top.kind == "to_hit" and top.get("weapon") == "axe" and top.get("event").modifier == alone["axe"] - 2
    assert load(battle).model(mid).ap == ap - 1  # one action for both


def test_a_crews_snapshot_keeps_each_weapons_hands_and_copies(user, make_crew):
    from battles import roster
    from crewbuilder.models import Crew
    from rules.cybernekro.battle.actions import weapon_pairs

    from .conftest import LEGAL

    spec = {"name": "Rake", "attributes": dict(LEGAL), "traits": ["ambidextrous"], "gear": ["sword", "sword", "staff"]}
    crew = make_crew(user, name="Twins", characters=[spec])
    snapshot = roster.snapshot(Crew.objects.with_everything().get(pk=crew.pk))
    (rake,) = roster.models_for("0", snapshot)
    hands = {w.slug: (w.hands, w.copies) for w in rake.weapons}
    assert hands == {"fists": (1, 1), "sword": (1, 2), "staff": (2, 1)}
    assert weapon_pairs(rake) == [("sword", "sword")]  # two swords; never the staff, never the fists
