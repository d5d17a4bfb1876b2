"""Soylent Ghoul tracker: the text's Character/Drone words (SG19), Snapped Drones still receiving panic
(SG9), the power of the gaze for any Drone (SG8), Scene Shifters' markers (SG20), and a fatal area
recorded on another player's Character waiting for its owner (SG21)."""

import re

import pytest

from rules.soylent_ghoul import game as g
from tests.rules.test_soylent_game import GROUPS, Dice, drone, make_state, token


def to_action_step(state, seat, piece):
    g.activate(state, seat, piece.id, Dice(), g.Log())
    while state.phase == "panic":
        g.pass_panic(state, state.panic_seat, g.Log())
    assert state.phase == "action"


# --- SG19: "Character" is a token or a Drone; "Drone" is only the Drone --------------------------------


def test_the_catalogue_says_who_performs_each_action_as_the_text_words_it():
    """ "In the following rules, “Character” designates rules that are true for both Tokens and Drones."
    Scene: "A Character may place a marker"; Shift: "A Drone may select"; Check: "A Drone may draw";
    Become: "If this Drone is in target Character’s blind zone"; Lighter: "This Character sets";
    Darker names no performer ("Reduce this drone’s lantern number"): as for Lighter's "this drone",
    the acting Gardener Character (SG19)."""
    actions = {a["slug"]: a for group in GROUPS.values() for a in group["actions"]}
    openings = {
        "scene": "A Character may",
        "shift": "A Drone may",
        "check": "A Drone may",
        "become": "If this Drone is",
        "lighter": "This Character sets",
        "darker": "Reduce this drone",
    }
    for slug, opening in openings.items():
        assert actions[slug]["text"].startswith(opening)
        expected = "drone" if "Drone" in opening else "character"
        assert actions[slug]["by"] == expected, slug
    # who the counted panic tokens go to: Check's "target Drones" and "This Drone"; Shift's "Any
    # Character"/"Characters" and "The Drone"; Become's "target Character" and "this drone"
    assert "The target Drones gain" in actions["check"]["text"] and actions["check"]["panic_to"] == "drone"
    # Shift's tokens are all decided by its form (markers tracked, sections ticked): none given by hand (SG20)
    assert "Any Character in a section" in actions["shift"]["text"] and "panic_to" not in actions["shift"]
    assert "target Character" in actions["become"]["text"] and actions["become"]["panic_to"] == "character"
    assert not any("panic_to" in actions[s] for s in ("scene", "lighter", "darker", "shift"))


@pytest.mark.parametrize(
    "group,nerve,action", [("eyes", 3, "check"), ("mannikins", 6, "become"), ("scene-shifters", 7, "shift")]
)
def test_a_token_cannot_perform_a_drones_action_but_its_drone_can(group, nerve, action):
    state = make_state(groups=(group, "gardeners"), nerves=(nerve, 6))
    if group == "scene-shifters":  # a token has Scene, so it comes to the action step
        to_action_step(state, 0, token(state, "V00"))
        with pytest.raises(g.IllegalAction, match=f"Only a Drone may {action.title()}"):
            g.perform(state, 0, action, Dice(), g.Log())
        assert not state.acted
        g.end_turn(state, 0, g.Log())
    else:  # an Eyes or Mannikins token has no action at all: the turn passes after the panic phase (SG23)
        g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
        g.pass_panic(state, 0, g.Log())
        g.pass_panic(state, 1, g.Log())
        assert state.phase == "turn" and state.current == 1
        with pytest.raises(g.IllegalAction):
            g.perform(state, 0, action, Dice(), g.Log())
    to_action_step(state, 1, token(state, "M00"))
    g.end_turn(state, 1, g.Log())
    g.replace_with_drone(state, 0, token(state, "V02").id, g.Log())
    to_action_step(state, 0, drone(state, "vox0"))
    g.perform(state, 0, action, Dice(), g.Log())
    assert state.acted and state.performed == action


@pytest.mark.parametrize("group,nerve,action", [("scene-shifters", 7, "scene"), ("gardeners", 6, "lighter")])
def test_a_token_performs_a_characters_action(group, nerve, action):
    state = make_state(groups=(group, "eyes"), nerves=(nerve, 3))
    to_action_step(state, 0, token(state, "V00"))
    g.perform(state, 0, action, Dice(), g.Log(), level=3)
    assert state.performed == action


def test_checks_panic_tokens_go_to_drones_only_becomes_to_any_character():
    """Check: "The target Drones gain 1 panic token plus 1 for each other Eye Character ... This Drone
    suffers 1 panic token": a token is never given one. Become: "target suffers 4 panic" (target Character)."""
    state = make_state(groups=("eyes", "mannikins"), nerves=(3, 6))
    g.replace_with_drone(state, 0, token(state, "V02").id, g.Log())
    to_action_step(state, 0, drone(state, "vox0"))
    g.perform(state, 0, "check", Dice(), g.Log())
    with pytest.raises(g.IllegalAction, match="Drones only"):
        g.give_panic(state, 0, token(state, "M00").id, Dice(1), g.Log())
    assert token(state, "M00").panic == 0
    g.give_panic(state, 0, drone(state, "vox0").id, Dice(1), g.Log())  # "This Drone suffers"
    assert drone(state, "vox0").panic == 1
    g.end_turn(state, 0, g.Log())
    g.replace_with_drone(state, 1, token(state, "M02").id, g.Log())
    to_action_step(state, 1, drone(state, "mara0"))
    g.perform(state, 1, "become", Dice(), g.Log())
    # every token of vox was removed when its true token was replaced; the Drone is a Character too
    g.give_panic(state, 1, drone(state, "vox0").id, Dice(1), g.Log())
    assert drone(state, "vox0").panic == 2


def test_become_gives_a_panic_token_to_a_token():
    state = make_state(groups=("mannikins", "eyes"), nerves=(6, 3))
    g.replace_with_drone(state, 0, token(state, "V02").id, g.Log())
    to_action_step(state, 0, drone(state, "vox0"))
    g.perform(state, 0, "become", Dice(), g.Log())
    g.give_panic(state, 0, token(state, "M00").id, Dice(1), g.Log())
    assert token(state, "M00").panic == 1


# --- SG9 widened: a Snapped Drone still receives panic tokens -----------------------------------------


def test_a_snapped_drone_can_be_given_a_panic_token_to_spin_it():
    """ "players take turns selecting a single Character and placing 1 panic token on them to either spin
    them on the spot ... or move them 6” directly forwards": no line keeps a Snapped Drone out. "Whenever a
    Character receives a panic token roll a D8": it rolls; over its Nerve nothing more happens (SG9)."""
    state = make_state(groups=("eyes", "eyes"), nerves=(3, 3), drones=2)
    g.replace_with_drone(state, 1, token(state, "M02").id, g.Log())
    d = drone(state, "mara0")
    d.snapped, d.panic = True, 4
    g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
    log = g.Log()
    g.place_panic(state, 0, d.id, "spin", Dice(8), log)
    assert d.panic == 5 and d.snapped and d.in_play
    assert log.rolls[0]["die"] == 8 and not log.rolls[0]["snapped"]
    assert "is already Snapped: nothing more happens." in " ".join(log.lines)
    assert "spins on the spot" in " ".join(log.lines) and not state.finished


def test_a_snapped_gardener_given_more_panic_takes_no_second_darker():
    state = make_state(groups=("gardeners", "eyes"), nerves=(6, 3), drones=2)
    g.replace_with_drone(state, 0, token(state, "V02").id, g.Log())
    d = drone(state, "vox0")
    d.snapped, d.panic, d.lantern = True, 3, 5
    drone(state, "vox1").lantern = 7
    g.activate(state, 0, token(state, "V10").id, Dice(), g.Log())
    g.pass_panic(state, 0, g.Log())
    g.place_panic(state, 1, d.id, "spin", Dice(8), g.Log())
    assert state.snap_effects == [] and drone(state, "vox1").lantern == 7


def test_a_snapped_drone_with_a_light_token_may_be_out_of_the_light():
    state = make_state(groups=("gardeners", "eyes"), nerves=(6, 3), drones=2)
    g.replace_with_drone(state, 1, token(state, "M02").id, g.Log())
    d = drone(state, "mara0")
    d.snapped, d.light = True, 1
    assert d in g.dark_candidates(state)


def test_darker_ticks_a_snapped_drone_and_refuses_one_without_a_light_token_saying_why():
    """Darker: "All Characters with light tokens that are not within the light level ... gain 5 panic
    tokens." A Snapped Drone with a light token is ticked like any Character (SG9, SG16); the refusal names
    the one condition (a light token, on the table), not Snapped, which is no bar."""
    state = make_state(groups=("gardeners", "eyes"), nerves=(6, 3), drones=2)
    g.replace_with_drone(state, 1, token(state, "M02").id, g.Log())
    d = drone(state, "mara0")
    d.snapped, d.light = True, 1
    drone(state, "vox0").lantern = 4
    to_action_step(state, 0, token(state, "V00"))
    g.perform(state, 0, "darker", Dice(8), g.Log(), reduction=1)
    with pytest.raises(g.IllegalAction) as refused:
        g.darken(state, 0, [token(state, "M10").id], Dice(), g.Log())
    assert str(refused.value) == "Only Characters on the table with a light token can be out of the light."
    g.darken(state, 0, [d.id], Dice(8), g.Log())  # over its Nerve: it is already Snapped, the batch stops
    assert d.panic == 1 and d.snapped and not state.finished


# --- SG20: Scene Shifters' markers --------------------------------------------------------------------


def scene_state():
    state = make_state(groups=("scene-shifters", "scene-shifters"), nerves=(7, 7), drones=2)
    return state


def test_scene_places_a_marker_belonging_to_the_characters_drone():
    """ "Scene – A Character may place a marker identifiable as belonging to its Drone.\""""
    state = scene_state()
    to_action_step(state, 0, token(state, "V00"))
    log = g.Log()
    g.perform(state, 0, "scene", Dice(), log)
    assert state.markers == [{"id": 1, "drone": drone(state, "vox0").id}]
    assert "places marker 1 of vox's drone vox0" in " ".join(log.lines) and not log.final


def test_shift_counts_the_tokens_the_markers_decide():
    """Shift: "Characters gain 2 panic tokens for every marker belonging to its Drone not selected. The
    Drone that takes this action suffers 2 panic for every marker used in the action that does not belong
    to it.\""""
    state = scene_state()
    v0, v1, m0 = drone(state, "vox0").id, drone(state, "vox1").id, drone(state, "mara0").id
    state.markers = [
        {"id": 1, "drone": v0},
        {"id": 2, "drone": v0},
        {"id": 3, "drone": m0},
        {"id": 4, "drone": v1},
        {"id": 5, "drone": m0},
    ]
    counts = g.shift_counts(state, v0, [1, 3, 4])
    assert counts == {"self": 4, "unselected": {v0: 2, m0: 2}}
    g.replace_with_drone(state, 0, token(state, "V02").id, g.Log())
    to_action_step(state, 0, drone(state, "vox0"))
    log = g.Log()
    # "Any Character in a section described by those lines gains 5 panic tokens": M10, ticked (the table's)
    g.perform(state, 0, "shift", Dice(*[1] * 21), log, markers=["1", "3", "4"], section=[token(state, "M10").id])
    text = " ".join(log.lines)
    assert token(state, "M10").panic == 5  # 5 tests: in a section
    assert all(token(state, f"M0{i}").panic == 2 for i in range(5))  # marker 5 of mara0 not selected
    assert drone(state, "vox0").panic == 2 + 4  # marker 2 of its own not selected; markers 3 and 4 not its own
    assert len(log.rolls) == 21 and log.final and g.waiting_for(state) is None
    assert "token M10 (mara's mara1) is in a section described by the lines: it gains 5 panic tokens." in text
    assert "vox's drone vox0 used 2 marker(s) not its own: it gains 4 panic tokens." in text
    with pytest.raises(g.IllegalAction, match="given with it"):
        g.give_panic(state, 0, token(state, "M00").id, Dice(1), g.Log())


def test_shift_refuses_markers_not_on_the_table():
    state = scene_state()
    g.replace_with_drone(state, 0, token(state, "V02").id, g.Log())
    to_action_step(state, 0, drone(state, "vox0"))
    with pytest.raises(g.IllegalAction, match="markers that are on the table"):
        g.perform(state, 0, "shift", Dice(), g.Log(), markers=["1"])
    with pytest.raises(g.IllegalAction, match="Only Characters on the table"):
        g.perform(state, 0, "shift", Dice(), g.Log(), section=[token(state, "V00").id])  # removed on replacing
    assert not state.acted
    log = g.Log()
    g.perform(state, 0, "shift", Dice(), log)  # no marker anywhere, nobody in a section
    assert "Shift gives no panic tokens." in log.lines and not log.rolls


def test_a_snap_during_shift_waits_for_its_choice_then_shift_goes_on():
    """A token that Snaps in the middle of Shift's tokens hands its panic to its owner's choice (SG3); the
    rest of Shift's tokens follow once it is made."""
    state = scene_state()
    state.markers = [{"id": 1, "drone": drone(state, "mara0").id}]
    g.replace_with_drone(state, 0, token(state, "V02").id, g.Log())
    to_action_step(state, 0, drone(state, "vox0"))
    m = token(state, "M00")
    m.panic = 3
    # M00 first (marker 1 of mara0 not selected): D8 8 + 3 over Nerve 7: it Snaps with 4 panic; mara chooses
    g.perform(state, 0, "shift", Dice(8), g.Log(), section=[])
    assert m.removed and g.waiting_for(state) == 1
    g.choose_panic_token(state, 1, token(state, "M04").id, Dice(1, 1, 1, 1, 1, 1, 1, 1), g.Log())
    assert [token(state, f"M0{i}").panic for i in range(1, 5)] == [2, 2, 2, 6]
    assert g.waiting_for(state) is None and state.snap_effects == []


def test_a_snapped_scene_shifter_loses_its_markers_and_is_a_marker_every_other_shift_uses():
    """Snapped – "Remove the Drone’s markers, if its True token is in play, replace it with the Drone,
    counts as a marker for all other Scene Shifters that must be used during any Shift actions.\""""
    state = scene_state()
    m0 = drone(state, "mara0")
    state.markers = [{"id": 1, "drone": m0.id}, {"id": 2, "drone": drone(state, "vox0").id}]
    t = token(state, "M02")
    t.panic = 3
    g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
    log = g.Log()
    g.place_panic(state, 0, t.id, "spin", Dice(8), log)  # 8 + 3 over Nerve 7: mara0 Snaps
    assert m0.snapped and m0.in_play and state.markers == [{"id": 2, "drone": drone(state, "vox0").id}]
    assert g.shift_required(state, drone(state, "vox0").id) == [m0]
    assert g.shift_required(state, m0.id) == []
    # vox's Shift with no marker selected still uses mara0: 2 panic for it (not vox's), 2 for marker 2
    assert g.shift_counts(state, drone(state, "vox0").id, []) == {"self": 2, "unselected": {drone(state, "vox0").id: 2}}


def test_markers_are_undone_with_the_scene_that_placed_them():
    state = scene_state()
    to_action_step(state, 0, token(state, "V00"))
    before = g.snapshot(state)
    g.perform(state, 0, "scene", Dice(), g.Log())
    g.restore(state, before)
    assert state.markers == [] and not state.acted


# --- SG21: another player's Character in a fatal area waits for its owner --------------------------------


def test_a_fatal_area_on_another_players_character_is_its_owners_to_confirm_or_dispute():
    state = make_state(drones=2)
    g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
    m = token(state, "M00")
    g.fatal(state, 0, m.id, g.Log())
    assert m.in_play and g.waiting_for(state) == 1 and g.acting_seat(state) is None
    with pytest.raises(g.IllegalAction, match="confirm or dispute"):
        g.pass_panic(state, 0, g.Log())
    with pytest.raises(g.IllegalAction, match="mara confirms"):
        g.answer_fatal(state, 0, "confirm", g.Log())
    log = g.Log()
    g.answer_fatal(state, 1, "dispute", log)
    assert m.in_play and state.fatal_claim is None and "stays on the table" in " ".join(log.lines)
    assert not log.final  # nothing revealed: the claim and the answer can be undone
    g.fatal(state, 0, m.id, g.Log())
    g.answer_fatal(state, 1, "confirm", g.Log())
    assert m.removed


def test_a_player_removes_their_own_character_at_once():
    state = make_state(drones=2)
    g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
    g.fatal(state, 0, token(state, "V00").id, g.Log())
    assert token(state, "V00").removed and state.fatal_claim is None


def test_replace_a_drone_by_naming_the_drone_never_the_token():
    state = make_state()
    g.replace_drone(state, 0, drone(state, "vox0").id, g.Log())
    assert drone(state, "vox0").in_play and token(state, "V02").removed
    with pytest.raises(g.IllegalAction, match="only replace your own"):
        g.replace_drone(state, 0, drone(state, "mara0").id, g.Log())
    with pytest.raises(g.IllegalAction, match="not on the table"):
        g.replace_drone(state, 0, drone(state, "vox0").id, g.Log())


def test_every_refusal_names_no_token_truth():
    """A refusal to another player reads the same whichever token is true."""
    answers = []
    for true_index in (0, 3):
        state = make_state(true_index=true_index)
        with pytest.raises(g.IllegalAction) as exc:
            g.replace_drone(state, 0, drone(state, "mara0").id, g.Log())
        answers.append(re.sub(r"\d", "", str(exc.value)))
    assert answers[0] == answers[1]


# --- SG23: a Character with no action it may perform ---------------------------------------------------


@pytest.mark.parametrize("group,nerve", [("eyes", 3), ("mannikins", 6)])
def test_a_token_with_no_action_passes_the_turn_when_the_panic_phase_ends(group, nerve):
    """ "If the Character has any actions it may perform exactly one of them now, then the next player takes
    their turn." A token of the Eyes ("A Drone may draw Clear line of sight") or the Mannikins ("If this
    Drone is in target Character's blind zone") has no action: the next player's turn comes at once."""
    state = make_state(groups=(group, "gardeners"), nerves=(nerve, 6))
    g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
    g.pass_panic(state, 0, g.Log())
    log = g.Log()
    g.pass_panic(state, 1, log)
    assert (state.phase, state.current, state.turn, state.active) == ("turn", 1, 2, None)
    assert "has no action a token may perform" in " ".join(log.lines)
    with pytest.raises(g.IllegalAction):
        g.end_turn(state, 0, g.Log())
    # mara: a Gardener token has Lighter, so it comes to the action step
    to_action_step(state, 1, token(state, "M00"))
    g.end_turn(state, 1, g.Log())
    g.replace_with_drone(state, 0, token(state, "V02").id, g.Log())
    to_action_step(state, 0, drone(state, "vox0"))
    assert state.current == 0 and not state.acted
