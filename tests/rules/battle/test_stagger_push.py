"""B66: Stagger "When hit the target must pass a Toughness test. On failure it is pushed back 1" ... If it was a
melee attack the attacker can move 1" towards the pushed model": the battle rolls the test after every Stagger
hit, and a failure tells the players to push the target (Prone only into an obstacle they ticked)."""

from dataclasses import replace

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import actions, rounds
from rules.cybernekro.battle.state import WeaponUse
from tests.rules.battle.helpers import Script, to_action

MAUL = WeaponUse("maul", "maul", cn.Weapon(2, None, cn.Keywords.parse(["Stagger"]), "maul"))


def _staggered(target_toughness=0, **situation):
    state = to_action()
    state = replace(state, scenario=replace(state.scenario, environment=None))
    state = state.with_model(replace(state.model("a0"), weapons=(MAUL,)))
    state = state.with_model(replace(state.model("b0"), armor=20, toughness=target_toughness, prone=False))
    state = rounds.select_model(state, "A", "a0")
    state = actions.attack(state, "A", "maul", "b0", Script(18), 1, situation=cn.Situation(**situation))
    return actions.resolve_attack(state, "A", Script(), 1)  # damage 1s (armor 20: unharmed), the test a 1


def test_a_stagger_hit_rolls_the_test_with_nothing_behind_the_target():
    state = _staggered()
    window = state.pending[0]
    assert window.kind == "test" and window.model == "b0" and window.get("what") == "stagger"
    assert window.get("outcome") == cn.Outcome.FUMBLE.value
    after = actions.resolve_test(state, "B", Script(), 1)
    line = after.log[-1].text
    assert 'b0 fails its Stagger test: pushed back 1" (move it on the table)' in line
    assert 'a0 may move 1" towards it' in line  # a melee attack
    assert not after.model("b0").prone


def test_into_an_obstacle_the_failed_test_also_drops_it_prone():
    after = actions.resolve_test(_staggered(stagger_into_obstacle=True), "B", Script(), 1)
    assert after.model("b0").prone and 'pushed back 1" into the obstacle' in after.log[-1].text


def test_a_passed_stagger_test_pushes_nothing():
    state = _staggered()
    window = state.pending[0]
    passed = tuple((k, "success" if k == "outcome" else v) for k, v in window.data)  # as a card might make it
    after = actions.resolve_test(replace(state, pending=(replace(window, data=passed),)), "B", Script(), 1)
    assert "stagger stands: success" in " ".join(e.text for e in after.log[-3:])
    assert "pushed back" not in after.log[-1].text and not after.model("b0").prone
