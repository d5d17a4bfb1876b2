"""Wounds no hit deals (Neural Overload, Leech, an Explode Head tie, Technomancy, a Demonic model's Wound instead
of Dread) are suffered as a hit's are: One-shotter, Extra organs, a 7th Wound Out of Action (no database).

Traits: "ONE-SHOTTER: Whenever this model would suffer a Wound it is knocked Prone instead. If it was already Prone
it immediately goes OoA." / Body-mods: "Extra organs: The first time this model gains a Wound in a game make a
Toughness test. On a success it doesn't gain a Wound." / Neural Overload: "3+ Lose 1 AP or fall Prone if have no
AP. 5+ Fall Prone or Gain 1 Wound if already Prone. 7+ Gain 1 Wound." / Monstrous: "This model cannot be knocked
Prone" / "NPCs do not use Action Points like the Player Characters."
"""

from dataclasses import replace

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import morale, npcs
from rules.cybernekro.battle.state import Status
from tests.rules.battle.helpers import Dice, settle, to_action
from tests.rules.battle.test_morale_and_round_end import at_morale
from tests.rules.battle.test_scenarios_sorcery_npcs import cast, sorcerer

ONE_SHOTTER = frozenset({"one-shotter"})
DEMONIC = frozenset({"demonic"})
SPELLS = ("leech", "explode-head", "fry", "nightmares", "technomancy")


def wizard(**target):
    """a0 knows the sorceries above; b0 (Toughness 1) is changed by ``target``."""
    state = sorcerer(to_action(), known=SPELLS)
    return state.with_model(replace(state.model("b0"), **target))


# --------------------------------------------------------------------------- One-shotter


def test_an_overload_of_seven_takes_a_one_shotter_out_of_action_at_row_seven():
    """Row 5 makes it fall Prone; row 7's Wound then finds it Prone: OoA (not a Wound)."""
    result = cn.apply_overload(7, ap=2, traits=ONE_SHOTTER)
    assert result.wounds == 0 and result.ooa and not result.dead
    assert result.effects[-2:] == ("out of action (One-shotter, already Prone)", "out of action")
    fried = cast(wizard(traits=ONE_SHOTTER, dread=1, ap=2), "fry", Dice(15, 6), target_id="b0")  # 6 + 1 Dread
    assert fried.model("b0").status is Status.OUT_OF_ACTION and fried.model("b0").wounds == 0
    assert any(p.kind == "witnesses" and p.model == "b0" for p in fried.pending)


def test_a_prone_one_shotter_goes_out_of_action_at_row_five_and_a_demonic_one_is_knocked_prone_at_row_one():
    prone = cn.apply_overload(5, ap=1, prone=True, traits=ONE_SHOTTER)
    assert prone.wounds == 0 and prone.ooa
    demonic = cn.apply_overload(1, traits=ONE_SHOTTER | DEMONIC)
    assert demonic.prone and demonic.wounds == 0 and not demonic.ooa


def test_leech_knocks_a_one_shotter_prone_instead_of_wounding_it_and_takes_a_prone_one_out():
    state = wizard(traits=ONE_SHOTTER)
    leeched = cast(state, "leech", Dice(15), target_id="b0")
    assert leeched.model("b0").wounds == 0 and leeched.model("b0").prone
    assert "knocked Prone instead of a Wound" in leeched.log[-1].text
    again = cast(state.with_model(replace(state.model("b0"), prone=True)), "leech", Dice(15), target_id="b0")
    assert again.model("b0").status is Status.OUT_OF_ACTION and again.model("b0").wounds == 0


def test_an_explode_head_tie_knocks_a_one_shotter_prone_and_wounds_the_caster():
    state = wizard(traits=ONE_SHOTTER)  # a0: 1 + 0 + 1; b0: 0 + 1 + 0
    tied = cast(state, "explode-head", Dice(15, 1, 2), target_id="b0")  # 1 + 2 = 2 + 1
    assert tied.model("a0").wounds == 1
    assert tied.model("b0").wounds == 0 and tied.model("b0").prone


def test_technomancy_on_an_artificial_one_shotter_knocks_it_prone():
    state = wizard(traits=ONE_SHOTTER | {"artificial"}, body_mods=frozenset({"stim-injectors"}))
    failed = settle(cast(state, "technomancy", Dice(15, 2), target_id="b0", body_mod="stim-injectors"), Dice())
    b0 = failed.model("b0")
    assert b0.body_mods == frozenset() and b0.wounds == 0 and b0.prone


def test_nightmares_on_a_demonic_one_shotter_knocks_it_prone_then_takes_it_out():
    """Two Dread, each a Wound instead: the first knocks it Prone, the second finds it Prone."""
    after = cast(wizard(traits=ONE_SHOTTER | DEMONIC), "nightmares", Dice(15), target_id="b0")
    assert after.model("b0").status is Status.OUT_OF_ACTION and after.model("b0").wounds == 0


def test_a_fumbled_morale_test_knocks_a_demonic_one_shotter_prone_instead_of_wounding_it():
    state = at_morale("A", {"a0": 2})
    state = state.with_model(replace(state.model("a0"), traits=ONE_SHOTTER | DEMONIC))
    state = morale.begin_morale(state, "A", Dice(), 1)
    dice = Dice(1, 15)  # a Fumble (a Wound instead: Prone), then a success
    after = settle(morale.roll_morale(state, "A", "a0", 0, dice, 1), dice)
    a0 = after.model("a0")
    assert a0.wounds == 0 and a0.in_play and a0.dread == 1


# --------------------------------------------------------------------------- Extra organs


def test_extra_organs_saves_the_first_leeched_wound_on_a_passed_toughness_test_once():
    organs = frozenset({"extra-organs"})
    saved = cast(wizard(body_mods=organs), "leech", Dice(15, 19), target_id="b0")  # 19 + 1 Toughness
    assert saved.model("b0").wounds == 0 and saved.model("b0").had_a_wound
    assert saved.log[-1].rolls[-1]["what"] == "extra organs"
    lost = cast(wizard(body_mods=organs), "leech", Dice(15, 2), target_id="b0")
    assert lost.model("b0").wounds == 1 and lost.model("b0").had_a_wound
    used = cast(wizard(body_mods=organs, had_a_wound=True), "leech", Dice(15), target_id="b0")  # no test
    assert used.model("b0").wounds == 1


def test_extra_organs_tests_the_first_wound_of_a_neural_overload():
    state = wizard(body_mods=frozenset({"extra-organs"}), dread=2, ap=2, prone=True)
    saved = cast(state, "fry", Dice(15, 3, 19), target_id="b0")  # 3 + 2 Dread: row 5 on a Prone model; organs 19 + 1
    assert saved.model("b0").wounds == 0 and saved.model("b0").had_a_wound
    roll = saved.log[-1].rolls[-1]
    assert roll["what"] == "neural overload" and roll["extra organs"] == "success"
    lost = cast(state, "fry", Dice(15, 5, 2), target_id="b0")  # 7: row 5's Wound tested (failed), row 7's not
    assert lost.model("b0").wounds == 2


def test_a_demonic_model_s_pollen_wounds_ask_for_the_extra_organs_test_once():
    state = at_morale("A", complication="hallucinogenic-pollen")
    state = state.with_model(
        replace(state.model("a1"), traits=DEMONIC, body_mods=frozenset({"extra-organs"}), toughness=0)
    )
    assert morale.pollen_testers(state) == ("a0", "a1", "a2", "b0", "b1", "b2")
    dice = Dice(15, 2, 19, 15, 15, 15, 15)  # a1 fails its Intellect test, then its organs test: 19 + 0
    after = settle(morale.begin_morale(state, "A", dice, 1), dice)
    # the complication's 2 Dread: two Wounds instead, the first saved by the organs, the second not tested
    assert after.model("a1").wounds == 1 and after.model("a1").had_a_wound
    breathed = next(e for e in after.log if e.text.startswith("a1 breathes the pollen"))
    assert [r["what"] for r in breathed.rolls] == ["extra organs"]


# --------------------------------------------------------------------------- Monstrous


def test_a_monstrous_npc_neither_falls_prone_nor_is_wounded_by_an_overload_of_five():
    result = cn.apply_overload(5, traits=frozenset({"monstrous"}))
    assert result.wounds == 0 and not result.prone
    assert result.effects == ("gain 1 Dread", "cannot fall Prone (Monstrous)", "cannot fall Prone (Monstrous)")
    state = npcs.place_npc(sorcerer(to_action(), known=SPELLS), "A", "rabid-machine")
    machine = state.models[-1].id
    fried = cast(state, "fry", Dice(15, 6), target_id=machine)  # 6: rows 1, 3 and 5
    assert fried.model(machine).wounds == 0 and not fried.model(machine).prone


def test_a_monstrous_model_already_prone_is_wounded_at_row_five():
    result = cn.apply_overload(5, prone=True, traits=frozenset({"monstrous"}))
    assert result.wounds == 1 and result.prone


def test_a_monstrous_one_shotter_is_neither_wounded_nor_knocked_prone_unless_already_prone():
    """R35: the Wound becomes a knock-down Monstrous prevents; already Prone: OoA."""
    both = frozenset({"monstrous", "one-shotter"})
    standing = cn.apply_overload(7, traits=both)
    assert standing.wounds == 0 and not standing.prone and not standing.ooa
    assert cn.apply_overload(5, prone=True, traits=both).ooa


def test_an_npc_has_no_ap_so_row_three_makes_it_fall_prone_and_row_five_then_wounds_it():
    """Reading: "NPCs do not use Action Points": it has none, so row 3's "fall Prone if have no AP" applies."""
    state = npcs.place_npc(sorcerer(to_action(), known=SPELLS), "A", "tomb-bots")
    bot = state.models[-1].id
    state = state.with_model(replace(state.model(bot), ap=2))  # AP it holds are not used
    fried = cast(state, "fry", Dice(15, 5), target_id=bot)
    assert fried.model(bot).prone and fried.model(bot).wounds == 1 and fried.model(bot).ap == 2


def test_the_extra_organs_test_of_a_wound_outside_a_hit_takes_noxious_air_as_a_hit_s_does():
    state = wizard(body_mods=frozenset({"extra-organs"}))
    state = replace(state, scenario=replace(state.scenario, complication="noxious-air", environment=None))
    leeched = cast(state, "leech", Dice(15, 19), target_id="b0")
    assert leeched.log[-1].rolls[-1]["modifier"] == -1  # Toughness 1, Noxious air -2


def test_a_demonic_one_shotter_who_sees_an_ally_fall_is_knocked_prone_instead_of_wounded():
    """Seeing an ally go OoA gives 1 Dread; a Demonic model gains a Wound instead, which a One-shotter takes as a
    knock-down."""
    from rules.cybernekro.battle import actions
    from tests.rules.battle.test_attacks import active, calm

    state = active(calm(to_action()))
    state = state.with_model(replace(state.model("b0"), wounds=6))
    state = state.with_model(replace(state.model("b1"), traits=DEMONIC | ONE_SHOTTER))
    state = actions.resolve_attack(actions.attack(state, "A", "pistol", "b0", Dice(20), 1), "A", Dice(), 2)
    assert state.pending[0].kind == "witnesses"
    seen = actions.name_witnesses(state, "B", ["b1"], Dice())
    assert seen.model("b1").prone and seen.model("b1").wounds == 0 and seen.model("b1").dread == 0
