"""Fixes from a review of Splash, stray shots, Kinesis and free Fights (B56-B59), each pinned (no database)."""

from dataclasses import replace

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import actions, legal, npcs, rounds
from rules.cybernekro.battle.state import GM, Pending, Phase, Status, WeaponUse
from tests.rules.battle.helpers import Dice, to_action

LAUNCHER = WeaponUse("launcher", "grenade launcher", cn.Weapon(2, 18, cn.Keywords.parse(["Splash"]), "launcher"))
HEAVY_PISTOL = WeaponUse("heavy-pistol", "heavy pistol", cn.Weapon(3, 12, cn.Keywords.parse(["Stagger"]), "hp"))


def _active(weapon, **scenario):
    state = to_action()
    state = replace(state, scenario=replace(state.scenario, environment=None, **scenario))
    state = state.with_model(replace(state.model("a0"), weapons=(weapon,), discipline=20))
    return rounds.select_model(state, "A", "a0")


def test_a_splash_victim_chooses_its_own_tough_it_out_though_the_target_took_its_hit():
    """ "the target model can attempt to Tough it Out": each model hit, not the attack, chooses (B42)."""
    shot = actions.resolve_attack(
        actions.attack(_active(LAUNCHER), "A", "launcher", "b0", Dice(15), 1), "A", Dice(4, 4), 1
    )
    assert shot.pending[0].kind == "tough_it_out"
    taken = actions.take_it(shot, "B", Dice(), 1)
    assert taken.pending[0].kind == "splash"
    splashed = actions.splash_hits(taken, "A", ["b1"], Dice(4), 1)  # one die: a Light Injury
    assert splashed.pending[0].kind == "tough_it_out" and splashed.pending[0].model == "b1"


def test_a_splash_lands_though_ammo_deficit_took_the_weapon():
    """Ammo deficit: "After completing each ranged attack roll a D6. On a 1 the weapon ... runs out of ammo"."""
    state = _active(LAUNCHER, complication="ammo-deficit")
    shot = actions.resolve_attack(actions.attack(state, "A", "launcher", "b0", Dice(15), 1), "A", Dice(1, 1, 1), 1)
    assert not any(w.slug == "launcher" for w in shot.model("a0").weapons)
    splashed = actions.splash_hits(shot, "A", ["b1"], Dice(1), 1)
    assert any(e.text.startswith("Splash on b1") for e in splashed.log)


def test_the_game_master_goes_on_with_an_npcs_move_out_of_melee():
    state = npcs.place_npc(replace(to_action(), game_master=True), "A", "tomb-bots")
    bot = state.models[-1]
    state = replace(rounds.pass_turn(rounds.pass_turn(state, "A"), "B"))
    assert state.phase is Phase.NPCS
    state = npcs.activate_npc(state, GM, bot.id)
    left = actions.act(state, GM, "move", Dice(), 1, in_melee=True)
    for seat in ("A", "B"):
        left = actions.no_free_fight(left, seat) if left.pending[0].seat == seat else left
    assert left.pending[0].kind == "move_on" and left.pending[0].seat == GM
    assert legal.legal(left, GM) == (legal.Option("move_on"),)


def test_a_free_fighter_that_fails_its_on_fire_test_has_spent_its_free_fight():
    """On Fire: "On failure it makes a D6" long Flee move ... instead, loses 1 AP and its activation/reaction
    ends": the attempt is spent."""
    state = to_action()
    state = rounds.select_model(state.with_model(replace(state.model("b0"), on_fire=True)), "A", "a0")
    left = actions.act(state, "A", "move", Dice(), 1, in_melee=True)
    fled = actions.resolve_test(actions.free_fight(left, "B", "b0", "sword", Dice(2), 1), "B", Dice(3), 1)
    assert not any(o.step == "free_fight" and o.args[0] == "b0" for o in legal.legal(fled, "B"))


def test_a_stray_shot_does_not_carry_the_targets_surroundings():
    """Stagger behind the target (an obstacle) is ticked for the target, not for the model hit instead."""
    state = _active(HEAVY_PISTOL)
    state = state.with_model(replace(state.model("a0"), discipline=1))
    ticks = cn.Situation(in_melee=True, stagger_into_obstacle=True)
    missed = actions.resolve_attack(
        actions.attack(state, "A", "heavy-pistol", "b0", Dice(12), 1, situation=ticks), "A", Dice(), 1
    )
    assert missed.pending[0].kind == "stray_shot"
    hit = actions.stray_shot(missed, "A", ["b1"], Dice(1, 1, 1, 3), 1)  # three dice, no injury; a failed test
    assert hit.pending[0].kind == "test" and hit.pending[0].get("what").startswith("stagger")  # B66
    pushed = actions.resolve_test(hit, hit.pending[0].seat, Dice(), 1)
    assert not pushed.model("b1").prone  # the obstacle was ticked behind b0, not b1: only pushed back 1"


def test_a_kinesis_window_for_a_model_gone_from_the_table_rolls_nothing():
    state = to_action()
    state = state.with_model(replace(state.model("b0"), status=Status.OUT_OF_ACTION))
    state = replace(state, pending=(Pending("forced_move", "A", "b0", (("cause", "Kinesis"),)),))
    after = actions.forced_move_ends(state, "A", "ledge", Dice(), 1, height=9)
    assert not after.pending and "b0 is no longer on the table" in after.log[-1].text
