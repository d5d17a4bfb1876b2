"""Tough it Out is the target's choice (B42), no database.

> "After the damage table result is determined but before any effects are applied the target model
> *can* attempt to Tough it Out by rolling a Toughness test ... If the model decides to roll but fails
> it gains 1 Dread. On a Critical the result is downgraded two steps while on a Fumble the result is
> upgraded one step." / "12+ Lethal Injury: Target is OoA and cannot Tough it Out."
> NPCs: "NPC don't roll Tough it Out tests"; Unstoppable: "Rolls Tough it Out tests when suffering
> damage"; Monstrous: "automatically passes a Tough it Out test without rolling".
"""

from dataclasses import replace

import pytest

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import actions, rounds
from rules.cybernekro.battle.state import Refused, Status
from tests.rules.battle.helpers import Dice, to_action


def calm_shot(**target):
    """a0 (Discipline +1) shoots b0 with a pistol (2 dice) and hits: b0's damage comes next."""
    state = to_action()
    state = replace(state, scenario=replace(state.scenario, environment=None))
    if target:
        state = state.with_model(replace(state.model("b0"), **target))
    state = rounds.select_model(state, "A", "a0")
    return actions.attack(state, "A", "pistol", "b0", Dice(15), 1)


def test_the_damage_result_waits_for_the_targets_player_to_choose():
    # damage 4+3 = 7: Serious Injury; nothing is applied and no Toughness test is rolled yet
    state = actions.resolve_attack(calm_shot(), "A", Dice(4, 3), 2)
    choice = state.pending[0]
    assert choice.kind == "tough_it_out" and choice.seat == "B" and choice.model == "b0"
    assert choice.get("row") == "serious" and choice.get("damage")["result"] == 7
    b0 = state.model("b0")
    assert b0.wounds == 0 and not b0.prone and b0.dread == 0
    line = state.log[-1]
    assert "Serious Injury" in line.text and line.final and line.seed == 2 and line.rolls[0]["what"] == "damage"
    with pytest.raises(Refused, match="target's player"):
        actions.take_it(state, "A", Dice(), 3)
    with pytest.raises(Refused, match="tough it out"):
        actions.act(state, "A", "move", Dice(), 3)  # the attacker's other actions wait for the choice


def test_taking_it_applies_the_result_with_no_test_and_no_dread():
    state = actions.resolve_attack(calm_shot(), "A", Dice(4, 3), 2)
    taken = actions.take_it(state, "B", Dice(), 3)  # no die is rolled
    b0 = taken.model("b0")
    assert b0.wounds == 1 and b0.prone and b0.dread == 0
    assert not taken.pending or taken.pending[0].kind != "test"
    assert not any(r.get("what") == "tough it out" for e in taken.log for r in e.rolls)
    assert any("takes it" in e.text for e in taken.log)


def test_choosing_to_tough_it_out_rolls_the_test_in_its_window_and_a_failure_gains_dread():
    state = actions.resolve_attack(calm_shot(), "A", Dice(4, 3), 2)
    tried = actions.tough_it_out(state, "B", Dice(5), 3)  # 5 + Toughness 1 = 6: failure
    window = tried.pending[0]
    assert window.kind == "test" and window.get("what") == "tough it out" and window.get("outcome") == "failure"
    done = actions.resolve_test(tried, "B", Dice(), 4)
    b0 = done.model("b0")
    assert b0.wounds == 1 and b0.prone and b0.dread == 1


def test_declining_spares_a_demonic_model_the_wound_it_gains_instead_of_dread():
    state = actions.resolve_attack(calm_shot(traits=frozenset({"demonic"})), "A", Dice(1, 2), 2)
    assert state.pending[0].get("row") == "light"  # 1+2 = 3: Light Injury
    assert actions.take_it(state, "B", Dice(), 3).model("b0").wounds == 1
    failed = actions.resolve_test(actions.tough_it_out(state, "B", Dice(2), 3), "B", Dice(), 4)
    assert failed.model("b0").wounds == 2  # the Light Injury's Wound and the failed test's


def test_a_lethal_injury_offers_no_choice():
    # 6+6, one more die 6: 12: "OoA and cannot Tough it Out"
    state = actions.resolve_attack(calm_shot(), "A", Dice(6, 6, 6), 2)
    assert state.pending[0].kind == "ooa"


def test_npcs_never_choose_unstoppable_rolls_and_monstrous_passes_without_a_roll():
    plain = calm_shot(seat=None, npc=True, traits=frozenset())
    state = actions.resolve_attack(plain, "A", Dice(4, 3), 2)
    assert not state.pending or state.pending[0].kind not in ("tough_it_out", "test")
    assert state.model("b0").wounds == 1 and state.model("b0").prone
    bot = calm_shot(seat=None, npc=True, traits=frozenset({"unstoppable"}))
    state = actions.resolve_attack(bot, "A", Dice(4, 3, 5), 2)  # rolled at once: no choice
    assert state.pending[0].kind == "test" and state.pending[0].get("what") == "tough it out"
    horror = calm_shot(seat=None, npc=True, traits=frozenset({"monstrous"}))
    state = actions.resolve_attack(horror, "A", Dice(4, 3), 2)  # 7, passed without a roll: Light
    assert not state.pending or state.pending[0].kind != "tough_it_out"
    assert state.model("b0").wounds == 1 and not state.model("b0").prone


def test_a_hit_no_attack_made_offers_the_choice_too():
    """An Unstable weapon's fumble: "the damage is dealt to the user", a hit like any other."""
    state = to_action()
    a0 = state.model("a0")
    hit = cn.plan_attack(cn.Action.SHOOT, a0.attacker(), a0.weapon("pistol").weapon, a0.target()).hit
    state = actions.hit_with_cards(state, "A", a0, hit, "unstable", Dice(4, 3), 1, context=(("label", "Unstable"),))
    assert state.pending[0].kind == "tough_it_out" and state.pending[0].seat == "A"
    taken = actions.take_it(state, "A", Dice(), 2)
    assert taken.model("a0").wounds == 1 and taken.model("a0").prone and taken.model("a0").dread == 0
    assert taken.model("a0").status is Status.IN_PLAY


def test_cards_may_be_played_on_the_target_while_its_player_chooses():
    state = actions.resolve_attack(calm_shot(), "A", Dice(4, 3), 2)
    state = state.with_player(replace(state.player("B"), hand=("A♠",) + state.player("B").hand))
    ace = actions.play_before_test(state, "B", "A♠", "b0")
    stood = actions.answer_card(ace, "A")
    assert stood.pending[0].kind == "tough_it_out"
    tried = actions.tough_it_out(stood, "B", Dice(), 3)  # the Ace passes it without a roll
    assert tried.pending[0].get("outcome") == "success"
    done = actions.resolve_test(tried, "B", Dice(), 4)
    assert done.model("b0").wounds == 1 and not done.model("b0").prone  # Serious -> Light


def test_stim_injectors_pass_tough_it_out_without_a_roll_then_overload_once_per_game():
    """Stim injectors: "Once per game this model can automatically pass any Toughness test but suffers a Neural
    Overload as a result." (B43)"""
    from rules.cybernekro.battle.legal import legal

    plain = actions.resolve_attack(calm_shot(), "A", Dice(4, 3), 2)
    assert "use_stims" not in [o.step for o in legal(plain, "B")]  # no Stim injectors: no such answer
    state = actions.resolve_attack(calm_shot(body_mods=frozenset({"stim-injectors"})), "A", Dice(4, 3), 2)
    assert [o.step for o in legal(state, "B")][:3] == ["tough_it_out", "take_it", "use_stims"]
    assert "use_stims" not in [o.step for o in legal(state, "A")]  # the target's player answers
    with pytest.raises(Refused, match="target's player"):
        actions.use_stims(state, "A", Dice(1), 3)
    stimmed = actions.use_stims(state, "B", Dice(1), 3)  # one die: the Neural Overload's D6, no test
    b0 = stimmed.model("b0")
    assert b0.stims_used and b0.wounds == 1 and not b0.prone  # Serious -> Light, as a passed test leaves it
    assert not any(r.get("what") == "tough it out" and "d20" in r for e in stimmed.log for r in e.rolls)  # no die
    overload = [e for e in stimmed.log if "Neural Overload" in e.text]
    assert overload and "(Stim injectors)" in overload[-1].text and overload[-1].rolls[0]["d6"] == 1
    # as a rolled success that stood: the same hit applied
    rolled = actions.resolve_test(actions.tough_it_out(state, "B", Dice(19), 3), "B", Dice(), 4)
    assert (rolled.model("b0").wounds, rolled.model("b0").prone) == (b0.wounds, b0.prone)
    # once per game: the next hit offers no Stim injectors
    again = stimmed.with_model(replace(b0, wounds=0))
    again = replace(again, pending=state.pending)
    assert "use_stims" not in [o.step for o in legal(again, "B")]
    with pytest.raises(Refused, match="no Stim injectors left"):
        actions.use_stims(again, "B", Dice(1), 5)


def test_only_the_target_s_player_undoes_taking_it_though_the_hit_s_line_is_the_attacker_s():
    """The step "take it" writes the target's player's line, then the hit's result as the attacker's line: undo
    belongs to who made the step (a two-phone walk: the attacker could take back the target's choice)."""
    from rules.cybernekro.battle.state import undo, undoable_by

    state = actions.resolve_attack(calm_shot(), "A", Dice(4, 3), 2)  # a Serious Injury waits for B
    taken = actions.take_it(state, "B", Dice(), 3)
    assert [e.seat for e in taken.log[len(state.log) :]][0] == "B"
    assert not undoable_by(taken, "A") and undoable_by(taken, "B")
    with pytest.raises(Refused, match="only the player who made the last step"):
        undo(taken, "A")
    back = undo(taken, "B")
    assert back.pending[0].kind == "tough_it_out" and "undid:" in back.log[-1].text
