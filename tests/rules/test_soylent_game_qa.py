"""A true token that Snaps (soylent-ghoul.txt): the Drone Snaps, and is not placed on the table unless it is
a Scene Shifter's ("Snapped – Remove the Drone's markers, if its True token is in play, replace it with the
Drone"); "Tokens that Snap are removed immediately". The log says where the Drone is (SG2)."""

import pytest

from rules.soylent_ghoul import game as g
from tests.rules.test_soylent_game import Dice, drone, make_state, token


def test_an_eyes_true_token_snapping_snaps_the_drone_off_the_table_and_the_log_says_so():
    state = make_state(drones=2)  # two drones each: the game goes on after one Snaps
    g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
    log = g.Log()
    g.place_panic(state, 0, token(state, "M02").id, "spin", Dice(4), log)  # the true token: 4 > Nerve 3
    mara0 = drone(state, "mara0")
    assert mara0.snapped and not mara0.in_play and not state.finished
    text = " ".join(log.lines)
    assert "Snaps; the token and the set's other tokens are removed, and the Drone is not placed on the table" in text
    assert "only a Scene Shifter's Snapped effect replaces its true token with the Drone" in text
    # off the table, it is no line of sight for the gaze
    with pytest.raises(g.IllegalAction):
        g.gaze(state, 0, token(state, "V10").id, mara0.id, g.Log())


def test_a_scene_shifters_true_token_snapping_puts_the_drone_on_the_table():
    state = make_state(groups=("gardeners", "scene-shifters"), nerves=(6, 7), drones=2)
    t = token(state, "M02")
    t.panic = 3
    g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
    log = g.Log()
    g.place_panic(state, 0, t.id, "spin", Dice(8), log)
    assert drone(state, "mara0").in_play and drone(state, "mara0").snapped
    assert "its true token is replaced with the Drone" in " ".join(log.lines)
    assert "not placed on the table" not in " ".join(log.lines)
