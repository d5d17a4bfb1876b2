"""Scenario steps, Techno-Sorcery actions and NPCs (no database)."""

import random
from dataclasses import replace

import pytest

from rules.cybernekro.battle import actions, npcs, rounds, scenario_steps, sorcery
from rules.cybernekro.battle.state import Phase, Refused, Status
from tests.rules.battle.helpers import Dice, new, settle, to_action


def exploring(**scenario):
    state = to_action(new(scenario="exploration"))
    state = replace(state, scenario=replace(state.scenario, complication="no-complication", **scenario))
    return rounds.select_model(state, "A", "a0")


def test_exploration_room_table():
    state = exploring(exploration_rolls=1)
    cache = scenario_steps.explore(state, "A", Dice(5), 1)
    assert cache.scenario.treasure_on_table == 1 and cache.scenario.explored == 1 and cache.model("a0").ap == 2
    corpses = scenario_steps.explore(state, "A", Dice(1), 1)
    assert corpses.scenario.corpses == 3
    machine = scenario_steps.explore(state, "A", Dice(3), 1)
    bot = machine.models[-1]
    assert bot.npc and bot.npc_kind == "tomb-bots" and bot.armor == 4 and "unstoppable" in bot.traits
    # "Place a Tomb Bot": one model, named as one and numbered; the roll's line comes before what it places
    assert bot.name == "Tomb Bot 1" and scenario_steps.explore(machine, "A", Dice(3), 1).models[-1].name == "Tomb Bot 2"
    assert [e.text for e in machine.log[-2:]] == [
        f"{state.model('a0').name} explores a room (D6 3): awakened machine",
        "Tomb Bot 1 enters the table (awakened machine)",
    ]
    dice = Dice(2, 3, 4, 4, 2)  # the trap; Agility 3+1 fails (its window); 4+4 = 8 Serious; TiO fails
    trap = scenario_steps.explore(state, "A", dice, 1)
    assert trap.pending[0].get("then") == "trap" and trap.model("a0").wounds == 0
    trap = settle(trap, dice)
    assert trap.model("a0").wounds == 1 and trap.model("a0").prone
    artifact = scenario_steps.explore(state, "A", Dice(6), 1)
    assert artifact.scenario.artifact_found and artifact.scenario.artifact_on_table


def test_a_six_on_the_first_exploration_roll_or_after_the_artifact_is_found_is_ignored():
    first = scenario_steps.explore(exploring(), "A", Dice(6), 1)
    assert not first.scenario.artifact_found and "ignored" in first.log[-1].text
    again = scenario_steps.explore(exploring(exploration_rolls=2, artifact_found=True), "A", Dice(6), 1)
    assert not again.scenario.artifact_on_table


def test_the_last_room_holds_the_artifact_without_a_roll():
    state = exploring(explored=5, exploration_rolls=5)
    last = scenario_steps.explore(state, "A", Dice(), 1)
    assert last.scenario.artifact_found and "no roll" in last.log[-1].text
    with pytest.raises(Refused, match="every room"):
        scenario_steps.explore(replace(last, active_model="a0"), "A", Dice(), 1)


def test_treasure_is_carried_dropped_when_prone_and_carried_off_the_table():
    state = exploring(treasure_on_table=1)
    state = scenario_steps.pick_up(state, "A", "treasure", Dice(), 1)
    assert state.model("a0").treasure == 1 and state.scenario.treasure_on_table == 0
    knocked = state.with_model(replace(state.model("a0"), prone=True))
    assert knocked.model("a0").treasure == 0 and knocked.scenario.treasure_on_table == 1
    gone = scenario_steps.leave_table(state, "A", "a0")
    assert gone.model("a0").status is Status.LEFT and gone.scenario.carried_off == (("A", 1, False, False),)


def test_exploration_is_won_by_carrying_the_artifact_off_with_everyone_else_removed():
    state = exploring()
    off = replace(state, scenario=replace(state.scenario, carried_off=(("A", 0, True, False),)))
    assert scenario_steps.winners(off, False) is None  # B still has models on the table
    for m in off.crew("B"):
        off = off.with_model(replace(m, status=Status.OUT_OF_ACTION))
    assert scenario_steps.winners(off, False) == ("A",)


def test_a_corpse_rises_as_a_flesh_drone_on_four_or_more():
    state = exploring(corpses=3)
    still = scenario_steps.corpse_check(state, "A", Dice(3), 1)
    assert still.scenario.corpses == 3 and not any(m.npc for m in still.models)
    risen = scenario_steps.corpse_check(state, "A", Dice(4), 1)
    assert risen.scenario.corpses == 2 and risen.models[-1].npc_kind == "flesh-drones"


def test_quick_start_terminals_need_an_interact_and_an_intellect_test():
    state = rounds.select_model(to_action(), "A", "a0")
    taken = settle(scenario_steps.take_terminal(state, "A", 3, Dice(10), 1))  # 10 + Intellect 1
    assert dict(taken.scenario.terminals)[3] == "A" and taken.model("a0").ap == 2
    crit = settle(scenario_steps.take_terminal(state, "A", 3, Dice(20), 1))
    assert crit.model("a0").ap == 3  # "On a Critical the action doesn't cost any AP"
    fumble = settle(scenario_steps.take_terminal(state, "A", 3, Dice(1), 1))
    assert fumble.model("a0").prone and dict(fumble.scenario.terminals)[3] is None
    with pytest.raises(Refused, match="terminals 1 to 5"):
        scenario_steps.take_terminal(state, "A", 6, Dice(10), 1)


def cast(state, spell, dice, **kw):
    """Attempt the sorcery and resolve its test (no Jack nor Dread in between)."""
    return actions.resolve_test(sorcery.cast(state, "A", spell, dice, 1, **kw), "A", dice, 1)


def sorcerer(state, known=("heal", "nightmares", "explode-head", "bolt", "fry")):
    state = state.with_model(replace(state.model("a0"), sorcerer=True, sorceries=known, intellect=1))
    return rounds.select_model(state, "A", "a0")


def test_a_sorcery_is_an_intellect_test_minus_four_in_melee_once_per_round():
    state = sorcerer(replace(to_action(), scenario=replace(to_action().scenario, environment=None)))
    state = state.with_model(replace(state.model("b0"), wounds=2))
    healed = cast(state, "heal", Dice(10), target_id="b0")
    assert healed.model("b0").wounds == 1 and healed.model("a0").ap == 2
    with pytest.raises(Refused, match="already attempted"):
        cast(healed, "heal", Dice(10), target_id="b0")
    in_melee = cast(state, "heal", Dice(10), target_id="b0", in_melee=True)  # 10 + 1 - 4
    attempt = next(e for e in in_melee.log if "attempts" in e.text)
    assert in_melee.model("b0").wounds == 2 and attempt.rolls[0]["modifier"] == -3
    with pytest.raises(Refused, match="does not know"):
        cast(state, "speed", Dice(10), target_id="a1")


def test_a_fumbled_sorcery_brings_a_neural_overload():
    state = sorcerer(to_action())
    after = cast(state, "nightmares", Dice(1, 5), target_id="b0")  # fumble; overload 5+0
    model = after.model("a0")
    assert model.dread == 1 and model.ap == 1 and model.prone  # rows 1, 3 and 5, from the top down
    assert after.model("b0").dread == 0


def test_explode_head_costs_two_ap_and_kills_the_lower_roll():
    state = cast(sorcerer(to_action()), "explode-head", Dice(15, 6, 1), target_id="b0")
    assert state.model("a0").ap == 1 and state.model("b0").status is Status.DEAD


def test_nightmares_and_bolt_and_fry():
    state = sorcerer(to_action())
    scared = cast(state, "nightmares", Dice(15), target_id="b0")
    assert scared.model("b0").dread == 2
    bolt = cast(state, "bolt", Dice(15, 3, 4), target_id="b1")  # a Damage 1 hit: 3 Light; TiO 4+1
    assert bolt.pending[0].model == "b1" and bolt.model("b1").wounds == 0  # its Tough it Out waits (B36)
    bolt = settle(bolt)
    assert bolt.log[-1].text.startswith("Bolt: b1 gains 1 Wound")
    assert bolt.model("b1").wounds == 1 and bolt.model("b1").dread == 1
    fried = cast(state, "fry", Dice(15, 2), target_id="b2")
    assert fried.model("b2").dread == 1


def test_npcs_activate_after_the_players_pass_with_two_actions_and_attack():
    state = to_action()
    state = npcs.place_npc(state, "A", "flesh-drones")
    drone = state.models[-1].id
    state = rounds.pass_turn(state, "A")
    state = rounds.pass_turn(state, "B")
    assert state.phase is Phase.NPCS
    with pytest.raises(Refused, match="still to activate"):
        npcs.end_npc_phase(state, "A")
    state = npcs.activate_npc(state, "B", drone)
    state = npcs.npc_action(state, "B", "move")
    assert state.npc_actions == 1
    state = actions.attack(state, "B", "melee-attack", "a0", Dice(15), 1)
    dice = Dice(1, 1, 15)
    state = settle(actions.resolve_attack(state, "B", dice, 1), dice)  # 1+1 = 2: no injury
    assert state.active_model is None and drone in state.npcs_done
    state = npcs.end_npc_phase(state, "A")
    assert state.phase is Phase.MORALE


def test_npcs_are_friends_of_each_other_and_enemies_of_every_pc():
    state = npcs.place_npc(npcs.place_npc(to_action(), "A", "tomb-bots"), "A", "rabid-machine")
    bot, machine = state.models[-2], state.models[-1]
    assert machine not in state.enemies_of(bot)
    assert {m.id for m in state.enemies_of(bot)} == {"a0", "a1", "a2", "b0", "b1", "b2"}
    assert "monstrous" in machine.traits and machine.target().traits >= {"npc", "monstrous"}


def test_an_ancient_horror_gives_dread_every_time_it_attacks():
    state = npcs.place_npc(to_action(), "A", "ancient-horror")
    horror = state.models[-1].id
    state = rounds.pass_turn(rounds.pass_turn(state, "A"), "B")
    state = npcs.activate_npc(state, "A", horror)
    state = actions.resolve_attack(actions.attack(state, "A", "melee-attack", "b0", Dice(5), 1), "A", Dice(), 1)
    assert state.model("b0").dread == 1


def test_a_rabid_machine_taking_a_model_out_terrifies_every_player_s_models_in_los():
    state = npcs.place_npc(to_action(), "A", "rabid-machine")
    machine = state.models[-1].id
    state = state.with_model(replace(state.model("a0"), wounds=6))
    state = rounds.pass_turn(rounds.pass_turn(state, "A"), "B")
    state = npcs.activate_npc(state, "B", machine)
    state = actions.attack(state, "B", "melee-attack", "a0", Dice(20), 1)
    state = actions.resolve_attack(state, "B", Dice(), 1)  # the critical's 7th Wound: Out of Action
    assert state.model("a0").status is Status.OUT_OF_ACTION
    assert [(p.kind, p.seat, p.get("terror")) for p in state.pending] == [
        ("witnesses", "A", None),
        ("witnesses", "A", machine),
        ("witnesses", "B", machine),
    ]
    state = actions.name_witnesses(state, "A", ["a1"], Dice())
    state = actions.name_witnesses(state, "A", ["a1", "a2"], Dice())
    state = actions.name_witnesses(state, "B", ["b0"], Dice())
    assert [state.model(i).dread for i in ("a1", "a2", "b0", "b1")] == [2, 1, 1, 0]


def test_under_maddening_terror_a_character_turned_npc_is_friendly_to_the_npcs():
    from rules.cybernekro.battle import morale

    state = npcs.place_npc(to_action(), "A", "ancient-horror")
    horror = state.models[-1]
    state = state.with_model(replace(state.model("a0"), dread=4))
    state = rounds.pass_turn(rounds.pass_turn(state, "A"), "B")
    state = npcs.end_npc_phase(npcs.end_npc_activation(npcs.activate_npc(state, "A", horror.id), "A"), "A")
    state = morale.begin_morale(state, "A", Dice(), 1)
    dice = Dice(2, 2, 2, 2)
    state = settle(morale.roll_morale(state, "A", "a0", 0, dice, 1), dice)
    turned = state.model("a0")
    assert turned.npc and turned.npc_friendly
    assert turned not in state.enemies_of(state.model(horror.id))
    assert turned in state.enemies_of(state.model("a1"))


def test_an_interact_action_puts_out_the_flames():
    state = rounds.select_model(to_action(), "A", "a0")
    state = state.with_model(replace(state.model("a1"), on_fire=True))
    out = actions.put_out_fire(state, "A", "a1", Dice(), 1)
    assert not out.model("a1").on_fire and out.model("a0").ap == 2
    with pytest.raises(Refused, match="not on Fire"):
        actions.put_out_fire(out, "A", "a1", Dice(), 1)


def test_an_npc_missing_with_its_last_action_lets_the_target_react():
    state = npcs.place_npc(to_action(), "A", "flesh-drones")
    drone = state.models[-1].id
    state = rounds.pass_turn(rounds.pass_turn(state, "A"), "B")
    state = npcs.npc_action(npcs.activate_npc(state, "A", drone), "A", "move")
    state = actions.resolve_attack(actions.attack(state, "A", "melee-attack", "b0", Dice(3), 1), "A", Dice(), 1)
    assert state.active_model is None and state.pending[0].kind == "reaction" and state.pending[0].seat == "B"


def test_prisoner_winners_are_the_rescuers_and_the_kidnapper_while_a_prisoner_is_on_the_table():
    state = to_action(new(scenario="prisoner"))
    b_prisoner = next(m for m in state.models if m.imprisoned)
    assert state.scenario.kidnapper == "A" and b_prisoner.seat == "B"
    final = replace(state, round=6)
    assert scenario_steps.winners(final, True) == ("A",)  # the prisoner is still on the table
    state = replace(state, active_seat="B", active_model=None)
    state = state.with_model(replace(state.model("b0") if b_prisoner.id != "b0" else state.model("b1"), ap=3))
    helper = "b0" if b_prisoner.id != "b0" else "b1"
    state = rounds.select_model(state, "B", helper)
    with pytest.raises(Refused, match="Strength or an Intellect"):
        scenario_steps.open_prison(state, "B", "agility", Dice(15), 1)
    opened = settle(scenario_steps.open_prison(state, "B", "strength", Dice(15), 1))
    assert not opened.model(b_prisoner.id).imprisoned
    freed = replace(opened, active_model=b_prisoner.id).with_model(replace(opened.model(b_prisoner.id), ap=2))
    gone = scenario_steps.leave_table(freed, "B", b_prisoner.id)
    assert gone.scenario.carried_off[-1] == ("B", 0, False, True)
    assert scenario_steps.winners(replace(gone, round=6), True) == ("B",)


def test_an_npc_never_gains_dread_from_a_neural_overload():
    state = npcs.place_npc(sorcerer(to_action()), "A", "tomb-bots")
    bot = state.models[-1].id
    fried = cast(state, "fry", Dice(15, 6), target_id=bot)  # 6: Dread, AP, Prone rows
    assert fried.model(bot).dread == 0 and fried.model(bot).prone


def test_an_npc_targets_the_closest_ignoring_prone_models_then_at_random():
    state = npcs.place_npc(to_action(), "A", "flesh-drones")
    drone = state.models[-1].id
    state = state.with_model(replace(state.model("a1"), prone=True))
    same, target = npcs.npc_target(state, "A", drone, ["a1", "a2"], Dice())
    assert target == "a2" and same is state  # no draw needed: the Prone one is ignored
    drawn, target = npcs.npc_target(state, "A", drone, ["a0", "a1", "a2"], random.Random(3), 3)
    assert target in ("a0", "a2") and drawn.log[-1].rolls[0]["among"] == ["a0", "a2"]
    with pytest.raises(Refused, match="closest"):
        npcs.npc_target(state, "A", drone, [drone], Dice())


def test_neural_cabling_rerolls_an_intellect_test_and_overloads_when_it_fails_again():
    state = sorcerer(to_action())
    state = state.with_model(replace(state.model("a0"), body_mods=frozenset({"neural-cabling"})))
    tried = sorcery.cast(state, "A", "nightmares", Dice(3), 1, target_id="b0")
    again = actions.reroll_with_body(tried, "A", Dice(4, 2), 2)  # still a failure: Neural Overload 2+0
    assert again.model("a0").dread == 1
    saved = actions.resolve_test(actions.reroll_with_body(tried, "A", Dice(15), 2), "A", Dice(), 2)
    assert saved.model("b0").dread == 2 and saved.model("a0").dread == 0
