"""Reinforced body's extra Neural Overload on any Fumble of the model (no database).

Body-mods, p.9: "8. Reinforced body (5 points) // A: Increase armor by 1 but any
Fumble for this model results in an extra Neural Overload in addition to any
existing effects."
"""

from dataclasses import replace

from rules.cybernekro.battle import actions
from tests.rules.battle.helpers import Dice, settle, to_action
from tests.rules.battle.test_attacks import active, calm
from tests.rules.battle.test_scenarios_sorcery_npcs import cast, sorcerer

REINFORCED = frozenset({"reinforced-body"})


def test_a_fumbled_fight_brings_the_extra_neural_overload():
    """ "any Fumble": the hit roll's too. The Fumble's own effect (Prone) stays; the overload is D6 + Dread."""
    state = active(calm(to_action()), body_mods=REINFORCED)
    fight = actions.resolve_attack(actions.attack(state, "A", "sword", "b0", Dice(1), 1), "A", Dice(2), 1)
    a0 = fight.model("a0")
    assert a0.prone and a0.dread == 1  # 2 + 0 Dread: row 1+, gain 1 Dread
    assert "Neural Overload" in fight.log[-1].text
    plain = active(calm(to_action()))
    fight = actions.resolve_attack(actions.attack(plain, "A", "sword", "b0", Dice(1), 1), "A", Dice(), 1)
    assert fight.model("a0").prone and fight.model("a0").dread == 0


def test_a_fumbled_interact_test_brings_the_extra_neural_overload():
    state = active(calm(to_action()), body_mods=REINFORCED)
    tried = settle(actions.act(state, "A", "interact", Dice(1), 1, test="intellect"), Dice(4))
    a0 = tried.model("a0")
    assert a0.prone  # "On a Fumble the interaction backfires and the model is knocked Prone"
    assert a0.dread == 1 and a0.ap == 1  # overload 4 + 0: Dread, then 1 AP lost (3 - 1 paid - 1)


def test_a_passed_or_failed_test_brings_none():
    state = active(calm(to_action()), body_mods=REINFORCED)
    failed = settle(actions.act(state, "A", "interact", Dice(2), 1, test="intellect"))
    assert failed.model("a0").dread == 0 and not failed.model("a0").prone


def test_a_fumbled_sorcery_still_brings_two_overloads_in_all():
    """The sorcery's own Neural Overload and the extra one: two, not three."""
    state = sorcerer(to_action())
    state = state.with_model(replace(state.model("a0"), body_mods=REINFORCED))
    after = cast(state, "nightmares", Dice(1, 1, 1), target_id="a1")  # fumble; 1 + 0; 1 + 1
    assert after.model("a0").dread == 2
