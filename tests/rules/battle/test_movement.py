"""Moving (B53–B56): Jump, falls, going Prone at the end of a move, Reckless sprinter, Push into an obstacle or
over a ledge, and what a model in melee may not do. No database."""

from dataclasses import replace

import pytest

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import actions, legal, morale, npcs, rounds, scenario_steps
from rules.cybernekro.battle.state import Phase, Refused, Status, WeaponUse
from tests.rules.battle.helpers import Dice, to_action


def _acting(**changes):
    """Ann's a0 (Agility 1) active in the Action Phase, changed as given; Bob's models still have AP."""
    state = to_action()
    state = state.with_model(replace(state.model("a0"), **changes))
    return rounds.select_model(state, "A", "a0")


def _reaction_windows(state):
    return [p for p in state.pending if p.kind == "reaction" and p.get("cause") == "move"]


def _texts(state):
    return [e.text for e in state.log]


def test_a_jump_is_a_move_made_by_passing_an_agility_test():
    """ "Instead of a regular move models can also jump up to 3" horizontally by passing an Agility test":
    1 AP, the test held for the cards, then the enemies' Move reactions."""
    state = _acting()
    ap = state.model("a0").ap
    assert legal.Option("act", ("jump",)) in legal.legal(state, "A")
    jumping = actions.act(state, "A", "jump", Dice(12), 1, height=4)
    window = jumping.pending[0]
    assert window.kind == "test" and window.get("what") == "jump: Agility" and window.get("outcome") == "success"
    landed = actions.resolve_test(jumping, "A", Dice(), 1)
    assert landed.model("a0").ap == ap - 1
    assert not landed.model("a0").prone and landed.model("a0").wounds == 0
    assert "a0 jumps" in _texts(landed)
    assert _reaction_windows(landed)  # a jump is "instead of a regular move": a Move for reactions (B53)


def test_a_failed_jump_from_two_inches_or_less_falls_without_damage():
    """ "On failure they fall from the starting point of the jump and suffer fall damage"; fall damage is only
    for falls "from terrain higher than 2"": no hit, not Prone."""
    state = _acting()
    ap = state.model("a0").ap
    failed = actions.resolve_test(actions.act(state, "A", "jump", Dice(3), 1, height=2), "A", Dice(), 1)
    a0 = failed.model("a0")
    assert a0.ap == ap - 1 and a0.wounds == 0 and not a0.prone
    assert 'a0 falls 2": no fall damage from 2" or less' in _texts(failed)
    assert _reaction_windows(failed)


def test_a_failed_jump_over_a_drop_takes_a_damage_1_hit_per_3_inches_and_lands_prone():
    """A 4" fall: "one Damage 1 hit per every 3" fallen (rounded up) and is then knocked Prone". Each hit is one
    die on the damage table: two 1s are no injury, so nothing to Tough it Out, but the model lands Prone."""
    state = _acting(armor=5)
    failed = actions.resolve_test(actions.act(state, "A", "jump", Dice(3), 1, height=4), "A", Dice(1, 1), 1)
    assert 'a0 falls 4": 2 Damage 1 hits, armor ignored' in _texts(failed)
    a0 = failed.model("a0")
    assert a0.prone and a0.wounds == 0 and "a0 lands Prone" in _texts(failed)
    assert not [p for p in failed.pending if p.kind == "tough_it_out"]
    assert _reaction_windows(failed)


def test_fall_damage_ignores_armor_and_leaves_a_shield_unspent():
    """ "Fall damage ignores all armor": a 6 on the die is a Wound and Prone (row 6+) whatever the armor, and the
    sorcery Shield ("disappears after reducing damage once") reduced nothing."""
    state = _acting(armor=5, magic_shield=True)
    failed = actions.resolve_test(actions.act(state, "A", "jump", Dice(3), 1, height=3), "A", Dice(6, 1), 1)
    failed = actions.take_it(failed, "A", Dice(), 1)
    a0 = failed.model("a0")
    assert a0.prone and a0.wounds >= 1 and a0.magic_shield


def test_the_fall_plan_keeps_driven_by_madness():
    """Driven by madness "adds +1 to all its Attribute Tests for each Dread": a fall's Tough it Out too."""
    target = cn.Target(toughness=1, dread=2, traits=frozenset({"driven-by-madness"}))
    assert cn.fall_plan(target).toughness == 3
    assert cn.fall_plan(cn.Target(toughness=1)).toughness == 1


def test_a_model_may_drop_prone_at_the_end_of_its_move():
    """ "At the end of a move a model can voluntarily become Prone"; the enemies may still react."""
    moved = actions.act(_acting(), "A", "move", Dice(), 1, prone_after=True)
    assert moved.model("a0").prone
    assert "a0 drops Prone at the end of its move" in _texts(moved)
    assert _reaction_windows(moved)
    with pytest.raises(Refused, match="Move"):
        actions.act(_acting(), "A", "interact", Dice(), 1, prone_after=True)


def test_a_prone_model_crawls_and_cannot_jump():
    """ "A Prone model can move but only by crawling 1"" / "It can only crawl or stand up"."""
    state = _acting(prone=True)
    offered = legal.legal(state, "A")
    assert legal.Option("act", ("move",)) in offered and legal.Option("act", ("jump",)) not in offered
    with pytest.raises(Refused, match="Prone"):
        actions.act(state, "A", "jump", Dice(12), 1)
    assert "a0 crawls" in _texts(actions.act(state, "A", "move", Dice(), 1))


def test_a_bestial_model_may_jump():
    """Bestial: "The only actions this model may perform are Move, Get Up and Fight"; a jump is a Move (B53)."""
    state = _acting(traits=frozenset({"bestial"}))
    assert legal.Option("act", ("jump",)) in legal.legal(state, "A")
    assert legal.Option("act", ("interact",)) not in legal.legal(state, "A")


def test_a_reckless_sprinter_tests_agility_at_the_end_of_a_sprint_or_falls_prone():
    """Reckless sprinter: "Can add +1" to all move distances (including jumping) but if it does has to pass an
    Agility test at the end of the move or fall prone"."""
    with pytest.raises(Refused, match="Reckless sprinter"):
        actions.act(_acting(), "A", "move", Dice(), 1, sprint=True)
    sprinter = _acting(traits=frozenset({"reckless-sprinter"}))
    fell = actions.resolve_test(actions.act(sprinter, "A", "move", Dice(3), 1, sprint=True), "A", Dice(), 1)
    assert fell.model("a0").prone and fell.model("a0").ap == sprinter.model("a0").ap - 1
    kept = actions.resolve_test(actions.act(sprinter, "A", "move", Dice(12), 1, sprint=True), "A", Dice(), 1)
    assert not kept.model("a0").prone
    assert 'a0 moves +1" (Reckless sprinter)' in _texts(kept)
    # a sprinting jump: the jump's test, then the sprint's at the end of the move
    jump = actions.act(sprinter, "A", "jump", Dice(12), 1, sprint=True)
    jump = actions.resolve_test(jump, "A", Dice(3), 1)
    assert jump.pending[0].get("what") == "Reckless sprinter: Agility"
    assert actions.resolve_test(jump, "A", Dice(), 1).model("a0").prone


def test_moving_out_of_melee_triggers_no_reaction():
    """ "Moving out of melee doesn't trigger reactions"; a Prone model is not in melee."""
    left = actions.move_on(actions.no_free_fight(_leaving_melee(), "B"), "A", Dice(), 1)
    assert not _reaction_windows(left)
    assert any("moved out of melee" in t for t in _texts(left))
    crawled = actions.act(_acting(prone=True), "A", "move", Dice(), 1, in_melee=True)
    assert _reaction_windows(crawled)


def test_a_model_in_melee_cannot_shoot_or_leave_the_board_but_can_fight():
    """ "A model cannot shoot while in melee"; "A model cannot leave the board if it is in melee"."""
    state = _acting()
    with pytest.raises(Refused, match="cannot shoot while in melee"):
        actions.attack(state, "A", "pistol", "b0", Dice(15), 1, in_melee=True)
    with pytest.raises(Refused, match="cannot leave the board"):
        scenario_steps.leave_table(state, "A", "a0", in_melee=True)
    assert actions.attack(state, "A", "sword", "b0", Dice(15), 1, in_melee=True).pending[0].kind == "to_hit"
    assert actions.attack(state, "A", "pistol", "b0", Dice(15), 1).pending[0].kind == "to_hit"


def test_a_push_into_an_obstacle_drops_the_target_prone():
    """Push: "the target is pushed 1" directly away, stopping and dropping Prone if pushed into an obstacle"."""
    pushed = actions.push(_acting(strength=2), "A", "b0", Dice(6, 1), 1, into="obstacle")
    assert pushed.model("b0").prone and "into an obstacle: b0 drops Prone" in pushed.log[-1].text
    held = actions.push(_acting(), "A", "b0", Dice(1, 6), 1, into="obstacle")
    assert not held.model("b0").prone  # not pushed: nothing behind it matters


def test_only_a_model_in_melee_is_pushed():
    """Push: "Select a model in melee with the attacker"; "A model is in melee if it is not Prone" (B56)."""
    state = _acting()
    prone_target = state.with_model(replace(state.model("b0"), prone=True))
    assert ("push", ("b0",)) not in [(o.step, o.args) for o in legal.legal(prone_target, "A")]
    with pytest.raises(Refused, match="a Push needs a model in melee: b0 is Prone"):
        actions.push(prone_target, "A", "b0", Dice(6, 1), 1)
    prone_pusher = state.with_model(replace(state.model("a0"), prone=True))
    assert not [o for o in legal.legal(prone_pusher, "A") if o.step == "push"]
    with pytest.raises(Refused, match="a0 is Prone"):
        actions.push(prone_pusher, "A", "b0", Dice(6, 1), 1)
    assert ("push", ("b0",)) in [(o.step, o.args) for o in legal.legal(state, "A")]


def test_a_push_over_a_ledge_is_a_fall():
    """ "... or falling down if pushed over a ledge": a 5" drop is 2 Damage 1 hits, then Prone. A 3 on the first
    is a Light Injury: its target's player chooses to Tough it Out or take it (B42) before the second hit."""
    pushed = actions.push(_acting(strength=2), "A", "b0", Dice(6, 1, 3), 1, into="ledge", height=5)
    assert 'b0 falls 5": 2 Damage 1 hits, armor ignored' in _texts(pushed)
    assert pushed.pending[0].kind == "tough_it_out" and pushed.pending[0].seat == "B"
    pushed = actions.take_it(pushed, "B", Dice(1), 1)  # the Wound; the second hit: 1 + 1 Wound, no injury
    assert pushed.model("b0").prone and pushed.model("b0").wounds == 1
    assert not pushed.pending or pushed.pending[0].kind != "tough_it_out"
    with pytest.raises(Refused, match="ledge"):
        actions.push(_acting(), "A", "b0", Dice(6, 1), 1, into="obstacle", height=3)


def test_a_fall_that_takes_a_model_out_of_action_stops_there():
    """A Prone model's Serious Injury takes it Out of Action ("If already Prone it is OoA"): the fall's
    other two hits have nothing left to act on, and the Queen's window (a PC would go OoA) is open."""
    state = _acting(strength=2)
    state = state.with_model(replace(state.model("b0"), prone=True))
    # a Prone model is not pushed (not in melee): it falls another way, Kinesis say
    pushed = actions.step(state, actions.fall(state, "A", state.model("b0"), 9, Dice(6, 1), 1))
    assert pushed.pending[0].kind == "tough_it_out"
    pushed = actions.take_it(pushed, "B", Dice(), 1)  # no die left to roll: the other hits are not rolled
    assert [(p.kind, p.model) for p in pushed.pending][:2] == [("ooa", "b0"), ("fall_on", "b0")]
    assert not any("lands Prone" in t for t in _texts(pushed))
    out = actions.accept_out_of_action(pushed, "B")
    assert out.pending[0].kind == "fall_on" and out.pending[0].seat == "A"
    assert "b0's fall ends: it is Out of Action" in _texts(actions.fall_on(out, "A", Dice(), 1))


def test_a_queen_played_mid_fall_keeps_the_model_on_the_table_and_the_fall_goes_on():
    """Queen: "The model suffers a Wound instead" of going Out of Action; the fall's other hits follow, then
    "is then knocked Prone"."""
    state = _acting(strength=2)
    state = state.with_model(replace(state.model("b0"), prone=True))
    state = state.with_player(replace(state.player("B"), hand=("Q♠",)))
    pushed = actions.step(state, actions.fall(state, "A", state.model("b0"), 6, Dice(6, 1), 1))
    pushed = actions.take_it(pushed, "B", Dice(), 1)
    assert legal.Option("play_queen", ("Q♠",)) in legal.legal(pushed, "B")
    saved = actions.answer_card(actions.play_queen(pushed, "B", "Q♠"), "A")
    # 6 + 1 was a Light Injury (a Wound) and a Serious one (Prone already: Out of Action), a Wound instead
    assert saved.model("b0").in_play and saved.model("b0").wounds == 2
    assert saved.pending[0].kind == "fall_on"
    going_on = actions.fall_on(saved, "A", Dice(1), 1)  # the second hit: one die, 1 + 2 Wounds, a Light Injury
    assert going_on.pending[0].kind == "tough_it_out" and going_on.pending[0].model == "b0"
    landed = actions.take_it(going_on, "B", Dice(), 1)
    assert landed.model("b0").in_play and landed.model("b0").prone and landed.model("b0").wounds == 3
    assert not landed.pending


def _leaving_melee(**changes):
    """a0 moves out of melee: Bob (b0, b1, b2 standing, each with fists and a sword) may first make free Fights."""
    return actions.act(_acting(**changes), "A", "move", Dice(), 1, in_melee=True)


def test_leaving_melee_first_offers_each_enemy_a_free_fight_then_the_move():
    """ "If a model in melee wants to move out of melee enemies within ½" can first make a free Fight action
    against it without paying AP. Moving out of melee doesn't trigger reactions." (B56)"""
    state = _leaving_melee()
    assert [p.kind for p in state.pending] == ["free_fight", "move_on"]
    assert state.pending[0].seat == "B" and state.pending[1].seat == "A"
    offered = legal.legal(state, "B")
    assert legal.Option("free_fight", ("b0", "sword")) in offered and legal.Option("no_free_fight") in offered
    assert legal.Option("free_fight", ("b0", "pistol")) not in offered  # a Fight: melee weapons only
    assert legal.legal(state, "A") == ()  # the mover waits
    ap = state.model("b0").ap
    fought = actions.free_fight(state, "B", "b0", "sword", Dice(1), 1)  # a fumbled Fight: a miss, Prone
    assert fought.pending[0].kind == "to_hit" and fought.model("b0").ap == ap  # "without paying AP"
    fought = actions.resolve_attack(fought, "B", Dice(), 1)
    assert fought.model("b0").prone
    assert not [p for p in fought.pending if p.kind == "reaction"]  # its miss opens no reaction
    window = fought.pending[0]
    assert window.kind == "free_fight" and window.get("done") == ("b0",)
    assert legal.Option("free_fight", ("b1", "sword")) in legal.legal(fought, "B")
    assert not any(o.args[:1] == ("b0",) for o in legal.legal(fought, "B") if o.step == "free_fight")
    done = actions.no_free_fight(fought, "B")
    assert [p.kind for p in done.pending] == ["move_on"]
    ap_a = done.model("a0").ap
    moved = actions.move_on(done, "A", Dice(), 1)
    assert moved.model("a0").ap == ap_a - 1 and not moved.pending  # no reactions
    assert "a0 moved out of melee: no reactions" in _texts(moved)


def test_a_mover_knocked_prone_by_a_free_fight_crawls_instead_of_jumping():
    """Prone, it is no longer in melee ("not Prone") and "can only crawl": the jump becomes a crawl."""
    state = actions.act(_acting(), "A", "jump", Dice(), 1, in_melee=True, height=3)
    state = actions.no_free_fight(state, "B")
    state = state.with_model(replace(state.model("a0"), prone=True))  # as a free Fight's Serious Injury would
    moved = actions.move_on(state, "A", Dice(), 1)
    assert "a0 was knocked Prone: it crawls instead" in _texts(moved) and "a0 crawls" in _texts(moved)
    assert _reaction_windows(moved)


def test_no_enemy_able_to_fight_means_no_free_fight_window():
    """Only unarmed enemies around (no melee weapon: no Fight): the move is made at once, with no reactions."""
    state = _acting()
    for m in state.crew("B"):
        state = state.with_model(replace(m, weapons=tuple(w for w in m.weapons if w.ranged)))
    moved = actions.act(state, "A", "move", Dice(), 1, in_melee=True)
    assert not moved.pending and "a0 moved out of melee: no reactions" in _texts(moved)


def test_a_hostile_npc_may_make_a_free_fight_decided_by_the_moving_player_without_a_game_master():
    """NPCs are enemies too; with no game master the player who moved decides for them (B33)."""
    state = npcs.place_npc(_acting(), "A", "tomb-bots")
    bot = state.models[-1]
    left = actions.act(state, "A", "move", Dice(), 1, in_melee=True)
    assert [(p.kind, p.seat) for p in left.pending] == [("free_fight", "B"), ("free_fight", "A"), ("move_on", "A")]
    left = actions.no_free_fight(left, "B")
    offered = legal.legal(left, "A")
    assert any(o.step == "free_fight" and o.args[0] == bot.id for o in offered)
    assert all(o.args[0] == bot.id for o in offered if o.step == "free_fight")


def _fled_on_fire():
    """a0, on Fire, fails its Discipline test before a Move: a D6" Flee move (a 4)."""
    state = to_action()
    state = replace(state, scenario=replace(state.scenario, environment=None))
    state = rounds.select_model(state.with_model(replace(state.model("a0"), on_fire=True)), "A", "a0")
    burnt = actions.resolve_test(actions.act(state, "A", "move", Dice(2), 1), "A", Dice(4), 1)
    assert burnt.fled == "a0"
    return burnt


def test_a_flee_move_into_a_corner_drops_prone_and_over_a_ledge_falls():
    """Flee: "stopping and dropping Prone if it walks into a corner and falling down if it walks over a ledge"."""
    burnt = _fled_on_fire()
    offered = legal.legal(burnt, "A")
    assert (
        legal.Option("flee_ends", ("a0", "corner")) in offered and legal.Option("flee_ends", ("a0", "ledge")) in offered
    )
    cornered = actions.flee_ends(burnt, "A", "a0", "corner", Dice(), 1)
    assert cornered.model("a0").prone and "a0's Flee move ends in a corner: it drops Prone" in _texts(cornered)
    fell = actions.flee_ends(burnt, "A", "a0", "ledge", Dice(1, 1), 1, height=6)
    assert 'a0 falls 6": 2 Damage 1 hits, armor ignored' in _texts(fell) and fell.model("a0").prone
    later = rounds.select_model(burnt, "B", "b0")  # another step first: the Flee move is behind
    assert not any(o.step == "flee_ends" for o in legal.legal(later, "A"))
    with pytest.raises(Refused, match="no Flee move"):
        actions.flee_ends(later, "A", "a0", "corner", Dice(), 1)
    with pytest.raises(Refused, match="ledge"):
        actions.flee_ends(burnt, "A", "a0", "corner", Dice(), 1, height=3)


def test_a_morale_flee_may_end_at_a_board_edge_in_a_corner_or_over_a_ledge():
    """The Morale Phase's Flee moves: the same ends, offered right after the character's tests."""
    state = to_action()
    state = replace(state, scenario=replace(state.scenario, environment=None))
    state = state.with_model(replace(state.model("a0"), dread=2))
    state = rounds.pass_turn(rounds.pass_turn(state, "A"), "B")
    state = morale.begin_morale(state, "A", Dice(), 1)
    assert state.morale_queue[0] == "a0"
    state = morale.roll_morale(state, "A", "a0", 0, Dice(3, 3), 1)
    while state.pending:
        state = actions.resolve_test(state, "A", Dice(3), 1)
    assert "Flee move" in state.log[-1].text and state.fled == "a0"
    offered = legal.legal(state, "A")
    assert legal.Option("leave_table", ("a0", True)) in offered
    assert legal.Option("flee_ends", ("a0", "corner")) in offered
    assert actions.flee_ends(state, "A", "a0", "corner", Dice(), 1).model("a0").prone
    assert not any(o.step == "flee_ends" for o in legal.legal(state, "B"))


def test_a_failed_stagger_test_over_a_ledge_is_a_fall():
    """Stagger: "On failure it is pushed back 1" stopping and dropping Prone if pushed into an obstacle and falling
    down if pushed over a ledge": the test is rolled for a ledge too, and its failure is the fall (B54)."""
    maul = WeaponUse("maul", "maul", cn.Weapon(2, None, cn.Keywords.parse(["Stagger"]), "maul"))
    state = _acting(weapons=(maul,), agility=20)
    state = state.with_model(replace(state.model("b0"), armor=20, toughness=0))
    ledge = cn.Situation(stagger_over_ledge=4)

    def staggered(test_face):  # the damage (two 1s: nothing through 20 armor), then the Stagger test
        hit = actions.attack(state, "A", "maul", "b0", Dice(15), 1, situation=ledge)
        hit = actions.resolve_attack(hit, "A", Dice(1, 1, test_face), 1)
        assert hit.pending[0].kind == "test" and hit.pending[0].get("what") == "stagger"
        return hit

    failed = actions.resolve_test(staggered(3), "B", Dice(1, 1), 1)
    assert 'b0 falls 4": 2 Damage 1 hits, armor ignored' in _texts(failed) and failed.model("b0").prone
    stood = actions.resolve_test(staggered(19), "B", Dice(), 1)
    assert not any("falls" in t for t in _texts(stood)) and not stood.model("b0").prone
    plain = actions.attack(state, "A", "maul", "b0", Dice(15), 1)  # no ledge, no obstacle: the test still (B66)
    pushed = actions.resolve_test(actions.resolve_attack(plain, "A", Dice(1, 1, 3), 1), "B", Dice(), 1)
    assert 'pushed back 1" (move it on the table)' in _texts(pushed)[-1] and not pushed.model("b0").prone
    assert not any("falls" in t for t in _texts(pushed))


def test_a_reactions_move_or_jump_opens_no_further_reaction():
    """B8: a reaction's Move triggers no reaction, though the reaction's last action ends it."""
    state = replace(_acting(), reaction=("b0", 1))
    moved = actions.act(state, "B", "move", Dice(), 1)
    assert moved.reaction is None and not _reaction_windows(moved)
    jumped = actions.resolve_test(actions.act(state, "B", "jump", Dice(3), 1, height=1), "B", Dice(), 1)
    assert not _reaction_windows(jumped)


def test_a_character_turned_npc_leaving_melee_faces_its_old_crew_too():
    """A character turned NPC by Dread "becomes an NPC hostile to all other models"."""
    state = _acting()
    state = state.with_model(replace(state.model("a2"), npc=True, ap=0))
    state = replace(state, active_seat=None, active_model=None, phase=Phase.NPCS)
    state = npcs.activate_npc(state, "A", "a2")
    left = actions.act(state, "A", "move", Dice(), 1, in_melee=True)
    assert {p.get("seat_of") for p in left.pending if p.kind == "free_fight"} >= {"A", "B"}


def test_a_sleeping_model_may_still_make_a_free_fight_and_none_is_offered_once_the_mover_is_out():
    """Sleep: "cannot perform Reactions this round": a free Fight is not a Reaction."""
    state = _acting()
    state = state.with_model(replace(state.model("b0"), asleep=True))
    left = actions.act(state, "A", "move", Dice(), 1, in_melee=True)
    assert legal.Option("free_fight", ("b0", "sword")) in legal.legal(left, "B")
    out = left.with_model(replace(left.model("a0"), status=Status.OUT_OF_ACTION))
    assert legal.legal(out, "B") == (legal.Option("no_free_fight"),)


def test_an_in_melee_tick_with_no_standing_enemy_is_not_leaving_melee():
    """ "within ½" of a non-Prone enemy": with every enemy Prone, the Move is a plain one, reactions and all."""
    state = _acting()
    for m in state.crew("B"):
        state = state.with_model(replace(m, prone=True))
    moved = actions.act(state, "A", "move", Dice(), 1, in_melee=True)
    assert _reaction_windows(moved) and not any("out of melee" in t for t in _texts(moved))


def test_a_free_fighter_on_fire_tests_first_and_then_makes_its_free_fight():
    """Being on Fire: "roll a Discipline test every time it attempts to take an action. On a success it can perform
    the action normally": the window stays open for it (B34)."""
    state = _acting()
    state = state.with_model(replace(state.model("b0"), on_fire=True))
    left = actions.act(state, "A", "move", Dice(), 1, in_melee=True)
    tested = actions.free_fight(left, "B", "b0", "sword", Dice(15), 1)
    assert tested.pending[0].kind == "test" and tested.pending[0].get("what") == "on Fire: Discipline"
    kept = actions.resolve_test(tested, "B", Dice(), 1)
    assert kept.model("b0").fire_nerve and kept.pending[0].kind == "free_fight"
    fought = actions.free_fight(kept, "B", "b0", "sword", Dice(15), 1)
    assert fought.pending[0].kind == "to_hit" and fought.pending[0].model == "b0"
    fled = actions.resolve_test(actions.free_fight(left, "B", "b0", "sword", Dice(2), 1), "B", Dice(3), 1)
    assert fled.fled == "b0" and legal.Option("flee_ends", ("b0", "corner")) in legal.legal(fled, "B")
