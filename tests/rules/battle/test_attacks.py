"""Attacks applied to the target, the windows after the hit roll, reactions, Out of Action (no database)."""

import random
from dataclasses import replace

import pytest

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import actions, rounds
from rules.cybernekro.battle.state import Refused, Status, WeaponUse
from tests.rules.battle.helpers import Dice, settle, to_action

AXE = WeaponUse(
    "industrial-tool",
    "industrial tool",
    cn.Weapon(3, None, cn.Keywords.parse(["Brutal", "Overkill", "Piercing 2", "Unwieldy"]), "industrial-tool"),
)


def active(state, model_id="a0", **changes):
    state = state.with_model(replace(state.model(model_id), **changes)) if changes else state
    return rounds.select_model(state, state.model(model_id).seat, model_id)


def calm(state):
    """No environmental effect: the attack's inputs are the models' own."""
    return replace(state, scenario=replace(state.scenario, environment=None))


@pytest.mark.parametrize("seed", range(60))
def test_an_attack_ends_as_the_reference_engine_rolls_it(seed):
    state = active(calm(to_action()))
    target = state.model("b0")
    reference = cn.roll_attack(
        random.Random(seed),
        "shoot",
        state.model("a0").attacker(),
        state.model("a0").weapon("pistol").weapon,
        target.target(),
    )
    rng = random.Random(seed)
    state = actions.attack(state, "A", "pistol", "b0", rng, seed)
    state = settle(actions.resolve_attack(state, "A", rng, seed), rng, seed)
    after = state.model("b0")
    if reference.state is cn.TargetState.OUT_OF_ACTION:
        assert state.pending[0].kind == "ooa" or after.status is Status.OUT_OF_ACTION
    else:
        assert after.status is Status.IN_PLAY
        assert after.wounds == target.wounds + reference.wounds_gained
        assert after.prone == (reference.state is cn.TargetState.PRONE)
    shot = next(e for e in state.log if "shoots" in e.text)
    assert shot.seed == seed and shot.rolls[0]["d20"]  # every die logged with its seed
    if reference.to_hit.passed:
        assert state.log[-1].seed == seed and state.log[-1].rolls


def test_a_critical_hit_wounds_then_damage_and_a_failed_tough_it_out_gives_dread():
    state = active(calm(to_action()))
    # to hit 20 (critical: +1 Wound); damage 4+4 +1 Wound = 9 Critical Injury; Tough it Out 5+1-1: failure
    state = actions.attack(state, "A", "pistol", "b0", Dice(20), 1)
    dice = Dice(4, 4, 5)
    state = settle(actions.resolve_attack(state, "A", dice, 2), dice)
    assert state.pending[0].kind == "ooa" and state.pending[0].seat == "B"
    assert state.model("b0").wounds == 2 and state.model("b0").dread == 1  # crit Wound + the Light row's Wound


def test_queen_turns_out_of_action_into_a_wound_unless_countered():
    state = active(calm(to_action()))
    state = actions.attack(state, "A", "pistol", "b0", Dice(20), 1)
    dice = Dice(4, 4, 5)
    state = settle(actions.resolve_attack(state, "A", dice, 2), dice)
    state = state.with_player(replace(state.player("B"), hand=("Q♠",) + state.player("B").hand))
    state = state.with_player(replace(state.player("A"), hand=("Joker (red)",)))
    with pytest.raises(Refused, match="model's player"):
        actions.accept_out_of_action(state, "A")
    queen = actions.play_queen(state, "B", "Q♠")
    assert queen.pending[0].kind == "card" and queen.pending[0].seat == "A"
    kept = actions.answer_card(queen, "A")
    assert kept.model("b0").status is Status.IN_PLAY and kept.model("b0").wounds == 3
    assert "Q♠" in kept.player("B").discard
    countered = actions.answer_card(queen, "A", "Joker (red)")
    assert countered.pending[0].kind == "ooa"  # back to going Out of Action
    assert "Q♠" in countered.player("B").discard and "Joker (red)" in countered.player("A").discard
    out = actions.accept_out_of_action(countered, "B")
    assert out.model("b0").status is Status.OUT_OF_ACTION
    assert out.pending[0].kind == "witnesses"
    seen = actions.name_witnesses(out, "B", ["b1"], Dice())
    assert seen.model("b1").dread == 1 and seen.model("b2").dread == 0
    with pytest.raises(Refused, match="not allies"):
        actions.name_witnesses(out, "B", ["a1"], Dice())


def test_a_seventh_wound_takes_it_out_of_action_with_no_queen_window():
    state = active(calm(to_action()))
    state = state.with_model(replace(state.model("b0"), wounds=6))
    state = actions.attack(state, "A", "pistol", "b0", Dice(20), 1)
    state = actions.resolve_attack(state, "A", Dice(), 2)
    assert state.model("b0").status is Status.OUT_OF_ACTION
    assert state.pending[0].kind == "witnesses"


def test_a_fumbled_fight_knocks_the_attacker_prone_and_a_fumbled_shot_jams_unless_reliable():
    state = active(calm(to_action()))
    fight = actions.resolve_attack(actions.attack(state, "A", "sword", "b0", Dice(1), 1), "A", Dice(), 1)
    assert fight.model("a0").prone
    rifle = WeaponUse("rifle", "rifle", cn.Weapon(2, 24, cn.Keywords(), "rifle"))
    state = state.with_model(replace(state.model("a0"), weapons=state.model("a0").weapons + (rifle,)))
    shot = actions.resolve_attack(actions.attack(state, "A", "rifle", "b0", Dice(1), 1), "A", Dice(), 1)
    assert shot.model("a0").jammed == {"rifle"}
    pistol = actions.resolve_attack(actions.attack(state, "A", "pistol", "b0", Dice(1), 1), "A", Dice(), 1)
    assert pistol.model("a0").jammed == frozenset()
    with pytest.raises(Refused, match="jammed"):
        actions.attack(replace(shot, pending=()), "A", "rifle", "b0", Dice(10), 1)


def test_unwieldy_costs_two_ap():
    state = active(calm(to_action()))
    state = state.with_model(replace(state.model("a0"), weapons=(AXE,), ap=1))
    with pytest.raises(Refused, match="costs 2"):
        actions.attack(state, "A", "industrial-tool", "b0", Dice(10), 1)
    state = state.with_model(replace(state.model("a0"), ap=3))
    state = actions.attack(state, "A", "industrial-tool", "b0", Dice(2), 1)
    assert state.model("a0").ap == 1


def test_a_miss_lets_the_target_react_critical_two_actions_fumble_loses_an_ap():
    state = active(calm(to_action()))
    missed = actions.resolve_attack(actions.attack(state, "A", "pistol", "b0", Dice(5), 1), "A", Dice(), 1)
    assert missed.pending[0].kind == "reaction" and missed.pending[0].seat == "B"
    with pytest.raises(Refused, match="another player's"):
        actions.react(missed, "A", Dice(20), 1)
    crit = actions.resolve_test(actions.react(missed, "B", Dice(20), 2), "B", Dice(), 2)
    assert crit.reaction == ("b0", 2)
    once = actions.attack(crit, "B", "fists", "a0", Dice(5), 3)  # b0 reacts with a Fight
    once = actions.resolve_attack(once, "B", Dice(), 3)
    assert once.reaction == ("b0", 1) and once.model("b0").ap == 2
    assert not any(p.kind == "reaction" for p in once.pending)  # a reaction's miss opens no reaction
    fumble = actions.resolve_test(actions.react(missed, "B", Dice(1), 2), "B", Dice(), 2)
    assert fumble.reaction is None and fumble.model("b0").ap == 2
    declined = actions.decline_reaction(missed, "B")
    assert declined.pending == () and declined.active_model == "a0"


def test_parry_passes_the_reaction_test_when_missed_in_melee():
    state = active(calm(to_action()))
    missed = actions.resolve_attack(actions.attack(state, "A", "fists", "b0", Dice(2), 1), "A", Dice(), 1)
    reacted = actions.react(missed, "B", Dice(), 2)  # no die is rolled
    assert reacted.reaction == ("b0", 1)


def test_dread_forces_a_reroll_of_a_passed_hit_once():
    state = active(calm(to_action()), dread=2)
    hit = actions.attack(state, "A", "pistol", "b0", Dice(15), 1)
    again = actions.reroll_with_dread(hit, "B", Dice(3), 2)
    assert again.pending[0].get("outcome") == "failure" and again.model("a0").dread == 1
    with pytest.raises(Refused, match="passed"):
        actions.reroll_with_dread(again, "A", Dice(3), 2)
    twice = actions.reroll_with_dread(hit, "A", Dice(15), 2)
    with pytest.raises(Refused, match="already"):
        actions.reroll_with_dread(twice, "A", Dice(15), 2)


def test_a_jack_turns_a_regular_success_into_a_critical():
    state = active(calm(to_action()))
    state = state.with_player(replace(state.player("A"), hand=("J♥",)))
    hit = actions.attack(state, "A", "pistol", "b0", Dice(15), 1)
    with pytest.raises(Refused, match="regular failure"):
        actions.play_jack(hit, "A", "J♥", "fumble")
    jack = actions.answer_card(actions.play_jack(hit, "A", "J♥", "critical"), "B")
    assert jack.pending[0].get("outcome") == "critical"
    dice = Dice(1, 1, 5)
    done = settle(actions.resolve_attack(jack, "A", dice, 2), dice)  # the critical's Wound, 1+1+1 = 3: Light; TiO fails
    assert done.model("b0").wounds == 2 and done.model("b0").dread == 1


def test_an_ace_passes_the_hit_without_rolling_and_a_number_is_added():
    state = active(calm(to_action()))
    state = state.with_player(replace(state.player("A"), hand=("A♥", "7♦")))
    ace = actions.answer_card(actions.play_before_test(state, "A", "A♥", "a0"), "B")
    hit = actions.attack(ace, "A", "pistol", "b0", Dice(), 1)  # no die rolled
    assert hit.pending[0].get("outcome") == "success" and hit.armed == ()
    assert hit.player("A").discard == ("A♥",) and hit.player("A").hand == ("7♦",)
    seven = actions.answer_card(actions.play_before_test(state, "A", "7♦", "a0"), "B")
    rolled = actions.attack(seven, "A", "pistol", "b0", Dice(4), 1)  # 4 + 1 Discipline + 7 = 12
    assert rolled.pending[0].get("outcome") == "success"
    assert seven.player("A").discard == () and rolled.player("A").discard == ("7♦",)  # face down until rolled
    # "Place the card face down before rolling and reveal after the roll": the log names it once rolled
    assert not any("7♦" in e.text for e in seven.log)
    assert any(e.text.endswith("face-down card on a0's test: 7♦ (+7)") for e in rolled.log)
    minus = actions.answer_card(actions.play_before_test(state, "A", "7♦", "b0", sign=-1), "B")
    assert minus.armed == (("A", "b0", "7♦", -7),)


def test_a_king_lets_a_model_react_without_a_roll():
    state = active(calm(to_action()))
    state = state.with_player(replace(state.player("B"), hand=("K♠",)))
    with pytest.raises(Refused, match="enemy"):
        actions.play_king(state.with_player(replace(state.player("A"), hand=("K♥",))), "A", "K♥", "a1")
    king = actions.answer_card(actions.play_king(state, "B", "K♠", "b2"), "A")
    assert king.reaction == ("b2", 1)
    moved = actions.act(king, "B", "move", Dice(), 1)
    assert moved.reaction is None and moved.model("b2").ap == 2 and moved.active_model == "a0"


def test_being_on_fire_tests_discipline_before_each_action():
    state = active(calm(to_action()), on_fire=True)
    tried = actions.act(state, "A", "move", Dice(2), 1)  # failure: the test waits for the cards
    assert tried.pending[0].get("then") == "on-fire" and tried.model("a0").ap == 3
    burnt = settle(tried, Dice(4))  # a 4" flee, -1 AP, activation over
    assert burnt.model("a0").ap == 2 and burnt.active_model is None and burnt.active_seat == "B"
    nerve = settle(actions.act(state, "A", "move", Dice(15), 1))
    assert nerve.model("a0").ap == 3 and nerve.model("a0").fire_nerve  # passed: the action is taken now
    fine = actions.act(nerve, "A", "move", Dice(), 1)  # no second test for the action it attempted
    assert fine.model("a0").ap == 2 and fine.active_model == "a0" and not fine.model("a0").fire_nerve
    again = actions.act(actions.decline_reaction(fine, "B"), "A", "move", Dice(3), 1)  # the next one tests again
    assert again.pending[0].get("then") == "on-fire"


def test_a_fire_weapon_sets_the_target_on_fire_on_a_failed_agility_test():
    flamer = WeaponUse(
        "flamethrower", "flamethrower", cn.Weapon(2, 6, cn.Keywords.parse(["Fire", "Splash"]), "flamethrower")
    )
    state = active(calm(to_action()))
    state = state.with_model(replace(state.model("a0"), weapons=(flamer,)))
    state = actions.attack(state, "A", "flamethrower", "b0", Dice(15), 1)
    state = actions.resolve_attack(state, "A", Dice(1, 1, 3), 2)  # no injury; Agility 3: fails
    assert state.pending[0].get("then") == "catch-fire" and not state.model("b0").on_fire
    assert settle(state).model("b0").on_fire


def test_prone_and_bestial_models_are_limited_to_their_actions():
    state = active(calm(to_action()), prone=True)
    with pytest.raises(Refused, match="Prone"):
        actions.attack(state, "A", "pistol", "b0", Dice(10), 1)
    up = actions.act(state, "A", "get-up", Dice(), 1)
    assert not up.model("a0").prone and up.model("a0").ap == 2
    beast = active(calm(to_action()), traits=frozenset({"bestial"}))
    with pytest.raises(Refused, match="Bestial"):
        actions.attack(beast, "A", "pistol", "b0", Dice(10), 1)
    with pytest.raises(Refused, match="melee"):
        actions.act(up, "A", "interact", Dice(), 1, in_melee=True)


def test_complications_reach_the_attack():
    state = active(to_action())
    state = replace(state, scenario=replace(state.scenario, environment="darkness"))
    hit = actions.attack(state, "A", "pistol", "b0", Dice(12), 1)  # 12 + 1 - 3 = 10: a miss in darkness
    assert hit.pending[0].get("outcome") == "failure"


@pytest.mark.parametrize("tick", sorted(cn.LIGHT_TICKS))
def test_light_near_the_shot_lifts_the_darkness(tick):
    """Lantern: "Models ignore darkness when targeting a model that is within 3" of a lantern"; spot light: "All
    allies within 3" ignore the effects of darkness" (E12b): distances are the players', who tick them."""
    state = active(calm(to_action()))
    assert not actions.in_darkness(state)
    state = replace(state, scenario=replace(state.scenario, environment="darkness"))
    assert actions.in_darkness(state)
    lit = actions.attack(state, "A", "pistol", "b0", Dice(12), 1, situation=cn.Situation(**{tick: True}))
    assert lit.pending[0].get("outcome") == "success"  # 12 + 1 with no -3 for the darkness
    dark = actions.attack(state, "A", "pistol", "b0", Dice(12), 1)
    assert dark.pending[0].get("outcome") == "failure"


def test_ap_spent_ends_the_activation_and_the_phase_moves_on():
    state = active(calm(to_action()), ap=1)
    state = actions.resolve_attack(actions.attack(state, "A", "pistol", "b0", Dice(5), 1), "A", Dice(), 1)
    state = actions.decline_reaction(state, "B")
    assert state.active_model is None and state.active_seat == "B"


def test_hit_roll_window_is_open_to_both_players_whatever_they_hold():
    from rules.cybernekro.battle.legal import legal

    state = active(calm(to_action()), dread=1)
    hit = actions.attack(state, "A", "pistol", "b0", Dice(15), 1)
    empty = hit.with_player(replace(hit.player("B"), hand=()))
    assert legal(hit, "A") == legal(empty, "A")
    assert [o.step for o in legal(empty, "B")] == ["reroll_with_dread"]


def test_a_burning_model_that_flees_drops_its_treasure_and_an_npc_ends_its_activation():
    from rules.cybernekro.battle import npcs

    state = active(calm(to_action()), on_fire=True, treasure=1)
    burnt = settle(actions.act(state, "A", "move", Dice(2), 1), Dice(4))
    assert burnt.model("a0").treasure == 0 and burnt.scenario.treasure_on_table == 1
    state = npcs.place_npc(calm(to_action()), "A", "flesh-drones")
    drone = state.models[-1]
    state = state.with_model(replace(drone, on_fire=True))
    state = rounds.pass_turn(rounds.pass_turn(state, "A"), "B")
    state = npcs.activate_npc(state, "A", drone.id)
    state = actions.attack(state, "A", "melee-attack", "a0", Dice(2), 1)  # Discipline 2+0 fails: flees 3"
    state = settle(state, Dice(3))
    assert state.phase.value == "npcs" and state.active_model is None and drone.id in state.npcs_done


def test_a_reaction_test_waits_for_a_jack_or_a_dread_reroll_before_it_stands():
    from rules.cybernekro.battle.legal import Option, legal

    state = active(calm(to_action()))
    missed = actions.resolve_attack(actions.attack(state, "A", "pistol", "b0", Dice(5), 1), "A", Dice(), 1)
    missed = missed.with_player(replace(missed.player("A"), hand=("J♥",)))
    tried = actions.react(missed, "B", Dice(6), 2)  # 6 + Agility 0: a regular failure
    assert tried.pending[0].kind == "test" and tried.reaction is None
    assert Option("resolve_test") in legal(tried, "B") and Option("play_jack", ("J♥", "fumble")) in legal(tried, "A")
    jacked = actions.answer_card(actions.play_jack(tried, "A", "J♥", "fumble"), "B")
    done = actions.resolve_test(jacked, "B", Dice(), 2)
    assert done.model("b0").ap == 2 and done.reaction is None  # the Fumble costs 1 AP
    dreadful = missed.with_model(replace(missed.model("b0"), dread=1))
    passed = actions.react(dreadful, "B", Dice(15), 2)
    again = actions.reroll_with_dread(passed, "A", Dice(4), 3)
    assert actions.resolve_test(again, "B", Dice(), 3).reaction is None and again.model("b0").dread == 0


def test_an_ace_passed_test_has_no_die_to_reroll_or_jack():
    state = active(calm(to_action()), dread=2)
    state = state.with_player(replace(state.player("A"), hand=("A♥", "J♥")))
    ace = actions.answer_card(actions.play_before_test(state, "A", "A♥", "a0"), "B")
    hit = actions.attack(ace, "A", "pistol", "b0", Dice(), 1)
    with pytest.raises(Refused, match="without a roll"):
        actions.reroll_with_dread(hit, "B", Dice(3), 1)
    with pytest.raises(Refused, match="without a roll"):
        actions.play_jack(hit, "A", "J♥", "critical")


def test_the_damage_tables_own_example_a_seven_wounds_then_knocks_prone():
    # "The results are cumulative, so for example a result of 7 means the target gains a Wound and then is
    # knocked Prone." 4+3 = 7, b0 (Toughness 1) fails its Tough it Out with 2.
    state = active(calm(to_action()))
    dice = Dice(4, 3, 2)
    state = settle(actions.resolve_attack(actions.attack(state, "A", "pistol", "b0", Dice(15), 1), "A", dice, 1), dice)
    b0 = state.model("b0")
    assert b0.wounds == 1 and b0.prone and b0.dread == 1 and b0.status is Status.IN_PLAY


def test_fix_and_reload_name_the_weapon_and_fix_is_an_intellect_test():
    crossbow = WeaponUse(
        "crossbow", "crossbow", cn.Weapon(2, 18, cn.Keywords.parse(["Piercing 2", "Reliable", "Reload"]), "crossbow")
    )
    rifle = WeaponUse("rifle", "rifle", cn.Weapon(2, 24, cn.Keywords(), "rifle"))
    state = active(calm(to_action()))
    state = state.with_model(replace(state.model("a0"), weapons=(crossbow, rifle)))
    shot = actions.resolve_attack(actions.attack(state, "A", "crossbow", "b0", Dice(5), 1), "A", Dice(), 1)
    shot = actions.decline_reaction(shot, "B")
    assert shot.model("a0").unloaded == {"crossbow"} and shot.model("a0").jammed == frozenset()
    with pytest.raises(Refused, match="reloaded"):
        actions.attack(shot, "A", "crossbow", "b0", Dice(15), 1)
    with pytest.raises(Refused, match="jammed weapon to fix: none"):
        actions.act(shot, "A", "fix", Dice(15), 1, item="crossbow")
    loaded = actions.act(shot, "A", "reload", Dice(), 1, item="crossbow")
    assert loaded.model("a0").unloaded == frozenset() and loaded.model("a0").ap == 1
    jammed = state.with_model(replace(state.model("a0"), jammed=frozenset({"rifle"})))
    fixed = settle(actions.act(jammed, "A", "fix", Dice(9), 1, item="rifle"))  # 9 + Intellect 1 = 10: not fixed
    assert fixed.model("a0").jammed == {"rifle"}
    crit = settle(actions.act(jammed, "A", "fix", Dice(20), 1, item="rifle"))
    assert crit.model("a0").jammed == frozenset() and crit.model("a0").ap == 3
    broken = settle(actions.act(jammed, "A", "fix", Dice(1), 1, item="rifle"))
    assert [w.slug for w in broken.model("a0").weapons] == ["crossbow"]


def test_roly_poly_gets_up_free_on_a_success_and_stays_prone_on_a_fumble():
    state = active(calm(to_action()), prone=True, body_mods=frozenset({"roly-poly-system"}))
    free = settle(actions.act(state, "A", "get-up", Dice(15), 1))
    assert not free.model("a0").prone and free.model("a0").ap == 3
    paid = settle(actions.act(state, "A", "get-up", Dice(5), 1))
    assert not paid.model("a0").prone and paid.model("a0").ap == 2
    stuck = settle(actions.act(state, "A", "get-up", Dice(1), 1))
    assert stuck.model("a0").prone and stuck.model("a0").ap == 2


def test_equipment_used_as_an_action():
    from rules.cybernekro.battle import equipment

    state = active(calm(to_action()), gear=frozenset({"trauma-kit", "esoteric-concoction"}), dread=3)
    state = state.with_model(replace(state.model("a1"), wounds=3))
    healed = equipment.use_equipment(state, "A", "trauma-kit", Dice(), 1, target_id="a1")
    assert healed.model("a1").wounds == 1 and "trauma-kit" not in healed.model("a0").gear
    calm_again = equipment.use_equipment(state, "A", "esoteric-concoction", Dice(), 1)
    assert calm_again.model("a0").dread == 0 and calm_again.model("a0").ap == 2
    robot = state.with_model(replace(state.model("a1"), traits=frozenset({"artificial"})))
    with pytest.raises(Refused, match="Artificial"):
        equipment.use_equipment(robot, "A", "trauma-kit", Dice(), 1, target_id="a1")
    with pytest.raises(Refused, match="carries no"):
        equipment.use_equipment(state, "A", "gas-grenade", Dice(), 1)


def test_multi_headed_rerolls_a_failed_reaction_and_loses_an_ap_if_it_fails_again():
    state = active(calm(to_action()))
    missed = actions.resolve_attack(actions.attack(state, "A", "pistol", "b0", Dice(5), 1), "A", Dice(), 1)
    heads = missed.with_model(replace(missed.model("b0"), traits=frozenset({"multi-headed"})))
    failed = actions.react(heads, "B", Dice(4), 2)
    again = actions.reroll_with_body(failed, "B", Dice(6), 3)
    assert again.model("b0").ap == 2 and again.pending[0].get("outcome") == "failure"
    with pytest.raises(Refused, match="already"):
        actions.reroll_with_body(again, "B", Dice(15), 3)
    good = actions.reroll_with_body(failed, "B", Dice(15), 3)
    assert actions.resolve_test(good, "B", Dice(), 3).reaction == ("b0", 1)
    with pytest.raises(Refused, match="nothing that re-rolls"):
        actions.reroll_with_body(actions.react(missed, "B", Dice(4), 2), "B", Dice(15), 3)


def test_excessive_neural_cabling_rerolls_any_test_at_the_price_of_overloads():
    state = active(calm(to_action()), body_mods=frozenset({"excessive-neural-cabling"}))
    hit = actions.attack(state, "A", "pistol", "b0", Dice(3), 1)
    with pytest.raises(Refused, match="own player"):
        actions.reroll_with_body(hit, "B", Dice(15), 2)
    passed = actions.reroll_with_body(hit, "A", Dice(15, 1), 2)  # success: one Neural Overload (1+0: 1 Dread)
    assert passed.pending[0].get("outcome") == "success" and passed.model("a0").dread == 1
    failed = actions.reroll_with_body(hit, "A", Dice(3, 1, 1), 2)  # failure: two Neural Overloads (1, then 1+1)
    assert failed.model("a0").dread == 2
