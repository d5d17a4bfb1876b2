"""Who answers an NPC's windows (B33, B10): the game master when the battle has one, else the player who rolled;
an NPC's reaction never waits on a seat nobody holds."""

import random
from dataclasses import replace

import pytest

from rules.cybernekro.battle import actions, catalogue, legal, npcs, rounds
from rules.cybernekro.battle.state import GM, Phase, Refused
from tests.rules.battle import test_whole_game as whole
from tests.rules.battle.helpers import FISTS, Dice, crews, new, to_action


def _shooting_a_tomb_bot(game_master):
    """a0 shoots an Unstoppable Tomb Bot (it rolls Tough it Out) and hits: the bot's test is rolled by A."""
    state = npcs.place_npc(replace(to_action(), game_master=game_master), "A", "tomb-bots")
    bot = state.models[-1].id
    state = actions.attack(rounds.select_model(state, "A", "a0"), "A", "pistol", bot, Dice(15), 1)
    return actions.resolve_attack(state, "A", random.Random(0), 0), bot


def test_with_a_game_master_the_npcs_test_rolled_by_a_player_is_let_stand_by_the_game_master():
    state, bot = _shooting_a_tomb_bot(True)
    window = state.pending[0]
    assert window.kind == "test" and window.model == bot and window.get("what") == "tough it out"
    assert window.seat == GM
    assert legal.legal(state, GM) == (legal.Option("resolve_test"),)
    assert legal.Option("resolve_test") not in legal.legal(state, "A")  # A may still play a Jack on it
    with pytest.raises(Refused):
        actions.resolve_test(state, "A", random.Random(1), 1)
    after = actions.resolve_test(state, GM, random.Random(1), 1)
    assert not after.pending or after.pending[0].kind != "test" or after.pending[0].model != bot


def test_without_a_game_master_the_player_who_rolled_the_npcs_test_lets_it_stand():
    state, bot = _shooting_a_tomb_bot(False)
    window = state.pending[0]
    assert window.kind == "test" and window.model == bot and window.seat == "A"
    assert legal.Option("resolve_test") in legal.legal(state, "A") and legal.legal(state, GM) == ()


def _npc_attacks_a_character_turned_npc(game_master):
    """In the NPC Phase a Flesh Drone fights b0, turned NPC by Dread, and fumbles: b0 may react."""
    state = replace(to_action(), game_master=game_master)
    state = npcs.place_npc(state, "A", "flesh-drones")
    drone = state.models[-1].id
    state = state.with_model(replace(state.model("b0"), npc=True, ap=0, weapons=(FISTS,)))  # no Parry
    state = rounds.pass_turn(rounds.pass_turn(state, "A"), "B")
    mover = GM if game_master else "B"
    state = npcs.activate_npc(state, mover, drone)
    state = actions.attack(state, mover, "melee-attack", "b0", Dice(1), 1)  # a Fumble: missed
    return actions.resolve_attack(state, mover, Dice(), 1), mover


@pytest.mark.parametrize("game_master", [False, True])
def test_an_npc_missing_a_character_turned_npc_opens_a_reaction_someone_answers(game_master):
    # the reaction used to go to the attacker's seat: a scenario NPC has none, and nobody could answer it
    state, mover = _npc_attacks_a_character_turned_npc(game_master)
    reaction = state.pending[0]
    assert reaction.kind == "reaction" and reaction.model == "b0"
    assert reaction.seat == mover
    options = legal.legal(state, mover)
    assert options[0] == legal.Option("react", ("b0",))  # an NPC always reacts: no declining
    assert {o.step for o in options[1:]} <= {"play_before_test"}  # a numbered card on its test (B64)
    state = actions.react(state, mover, Dice(15), 1)
    assert state.pending[0].kind == "test" and state.pending[0].seat == mover
    state = actions.resolve_test(state, mover, random.Random(1), 1)
    assert state.reaction == ("b0", 1)
    if game_master:
        with pytest.raises(Refused, match="game master"):
            actions.end_reaction(state, "A")
    assert actions.end_reaction(state, mover).reaction is None


def test_a_character_turned_npc_offers_no_hand_to_the_player_who_moves_it():
    state = replace(to_action(), game_master=False)
    state = state.with_model(replace(state.model("a0"), npc=True))
    state = state.with_player(replace(state.player("A"), hand=("5♣", "A♣")))
    state = rounds.pass_turn(rounds.pass_turn(state, "A"), "B")
    state = npcs.activate_npc(state, "B", "a0")
    assert not [o for o in legal.legal(state, "B") if o.step == "play_before_test"]


@pytest.mark.parametrize("game_master", [False, True])
def test_a_game_with_every_npc_and_characters_turned_npc_never_waits_on_nobody(game_master):
    """Seeded-random legal steps (the game master's too) until the end; every open window has someone to answer."""
    for seed in range(2):
        chooser = random.Random(seed)
        models = [replace(m, npc=m.id in ("a2", "b2"), body_mods=frozenset({"extra-organs"})) for m in crews()]
        state = replace(new(models, seed=seed), game_master=game_master)
        for npc in catalogue.data()["npcs"]:
            state = npcs.place_npc(state, "A", npc["slug"])
        for n in range(4000):
            if state.phase is Phase.ENDED:
                break
            assert all(p.seat is not None for p in state.pending), state.pending
            seats = state.seats + ((GM,) if game_master else ())
            seat, options = next(((s, o) for s in seats if (o := legal.legal(state, s))), (None, ()))
            assert options, f"nobody may act: {state.phase} {state.pending}"
            option = chooser.choice(options)
            state = whole.apply(state, seat, option, random.Random(seed * 10_000 + n), seed * 10_000 + n)
        assert state.phase is Phase.ENDED
