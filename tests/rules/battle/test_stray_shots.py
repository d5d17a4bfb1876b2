"""A shot into melee that misses by less than 4 hits a random model within ½" of its target instead (B58).
No database."""

import random
from dataclasses import replace

import pytest

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import actions, legal, rounds
from rules.cybernekro.battle.state import Refused
from tests.rules.battle.helpers import PISTOL, Dice, to_action

IN_MELEE = cn.Situation(in_melee=True)


def _shot(face, situation=IN_MELEE):
    """a0 (Discipline 1) shoots b0 with a pistol: 1 + face - 4 (target in melee) against 11."""
    state = to_action()
    state = replace(state, scenario=replace(state.scenario, environment=None))
    state = rounds.select_model(state.with_model(replace(state.model("a0"), weapons=(PISTOL,))), "A", "a0")
    shot = actions.attack(state, "A", "pistol", "b0", Dice(face), 1, situation=situation)
    assert shot.pending[0].get("total") == face + 1 - (4 if situation.in_melee else 0)
    return actions.resolve_attack(shot, "A", Dice(), 1)


def test_a_shot_into_melee_that_fails_by_less_than_4_strays_to_a_random_model_named_within_half_an_inch():
    missed = _shot(12)  # 12 + 1 - 4 = 9: fails by 2
    window = missed.pending[0]
    assert window.kind == "stray_shot" and window.seat == "A" and window.model == "b0"
    option = legal.legal(missed, "A")[0]
    assert option.step == "stray_shot" and not {"a0", "b0"} & set(option.args)
    assert [p.kind for p in missed.pending][1:] == ["reaction"]  # the target, missed, may still react after
    strayed = actions.stray_shot(missed, "A", ["a1", "b1"], Dice(1, 1), 1)  # the pistol's two dice: no injury
    texts = [e.text for e in strayed.log]
    hit_line = next(t for t in texts if t.startswith("The shot at b0 strays: of a1, b1, "))
    victim = hit_line.split(", ")[-1].split(" is hit")[0]
    assert victim in ("a1", "b1")
    assert any(t.startswith(f"Stray shot on {victim}:") for t in texts)
    with pytest.raises(Refused, match="other than its target and its shooter"):
        actions.stray_shot(missed, "A", ["b0"], Dice(), 1)
    lost = actions.stray_shot(missed, "A", [], Dice(), 1)
    assert 'No model within ½" of b0: the shot is lost' in lost.log[-1].text


@pytest.mark.parametrize("face", [8, 9])
def test_a_shot_failing_by_4_or_more_a_fumble_or_a_target_not_in_melee_does_not_stray(face):
    assert not any(p.kind == "stray_shot" for p in _shot(face).pending)  # 8 + 1 - 4 = 5: fails by 6
    assert not any(p.kind == "stray_shot" for p in _shot(1).pending)  # a Fumble: the weapon jams instead
    assert not any(p.kind == "stray_shot" for p in _shot(9, cn.Situation()).pending)  # 10: fails by 1, no melee


def test_the_random_model_is_drawn_by_the_battles_generator():
    missed = _shot(13)  # 10: fails by 1
    picks = set()
    for seed in range(20):
        rng = random.Random(seed)
        strayed = actions.stray_shot(missed, "A", ["a1", "a2", "b1"], rng, seed)
        line = next(e.text for e in strayed.log if "strays" in e.text)
        picks.add(line.split(", ")[-1].split(" is hit")[0])
    assert picks == {"a1", "a2", "b1"}
