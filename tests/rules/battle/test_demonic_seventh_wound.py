"""A Demonic model's Wound "instead" of Dread that is its 7th takes it Out of Action by the usual path (no database).

Traits, p.8: "DEMONIC: Whenever this model would gain Dread it gains a Wound instead." / p.6: "A model can never
have more than 6 Wounds. If it would receive a 7th Wound it is taken OoA instead." / Morale, p.25: Player
Characters gain 1 Dread when "An ally goes OoA while in LoS of the character".
"""

from dataclasses import replace

from rules.cybernekro.battle import actions, morale
from rules.cybernekro.battle.state import Status
from tests.rules.battle.helpers import Dice, settle, to_action
from tests.rules.battle.test_attacks import active, calm
from tests.rules.battle.test_morale_and_round_end import at_morale
from tests.rules.battle.test_scenarios_sorcery_npcs import cast, sorcerer

DEMONIC = frozenset({"demonic"})


def test_a_demonic_witness_with_six_wounds_goes_out_of_action_and_its_allies_are_asked_who_saw_it():
    state = active(calm(to_action()))
    state = state.with_model(replace(state.model("b0"), wounds=6))
    state = state.with_model(replace(state.model("b1"), wounds=6, traits=DEMONIC, treasure=1))
    state = actions.resolve_attack(actions.attack(state, "A", "pistol", "b0", Dice(20), 1), "A", Dice(), 2)
    assert state.pending[0].kind == "witnesses"
    seen = actions.name_witnesses(state, "B", ["b1"], Dice())
    b1 = seen.model("b1")
    assert b1.status is Status.OUT_OF_ACTION and b1.wounds == 6 and b1.treasure == 0
    assert seen.scenario.treasure_on_table == state.scenario.treasure_on_table + 1  # dropped where it fell
    assert [(p.kind, p.model) for p in seen.pending] == [("witnesses", "b1")]
    assert "b1 is Out of Action" in seen.log[-1].text


def test_nightmares_on_a_demonic_model_with_five_wounds_takes_it_out_of_action():
    state = sorcerer(to_action())
    state = state.with_model(replace(state.model("b0"), wounds=5, traits=DEMONIC))
    after = cast(state, "nightmares", Dice(15), target_id="b0")
    assert after.model("b0").status is Status.OUT_OF_ACTION
    assert any(p.kind == "witnesses" and p.model == "b0" for p in after.pending)


def test_a_fumbled_morale_test_of_a_demonic_model_with_six_wounds_takes_it_out_of_action():
    """Morale, p.25: "on a Fumble the character gains one Dread": a Wound instead, the 7th; its tests stop there."""
    state = at_morale("A", {"a0": 2})
    state = state.with_model(replace(state.model("a0"), wounds=6, traits=DEMONIC))
    state = morale.begin_morale(state, "A", Dice(), 1)
    dice = Dice(1)
    after = settle(morale.roll_morale(state, "A", "a0", 0, dice, 1), dice)
    assert after.model("a0").status is Status.OUT_OF_ACTION
    assert after.morale_queue == ()
    assert any(p.kind == "witnesses" and p.model == "a0" for p in after.pending)
