"""The Soylent Ghoul tracker's state transitions (rules/soylent_ghoul/game.py)."""

import random

import pytest

from rules.soylent_ghoul import game as g
from rules.soylent_ghoul import panic as soylent

GROUPS = soylent.load_groups()


def seat(seat, name, group, nerve, actions=None):
    """A seat with its group's actions and, from the catalogue, who performs them and who gets their panic."""
    rules = {a["slug"]: a for a in GROUPS[group]["actions"]}
    actions = tuple(rules) if actions is None else actions
    return g.Seat(
        seat=seat,
        name=name,
        group=group,
        nerve=nerve,
        actions=actions,
        performers={a: rules[a]["by"] for a in actions},
        panic_to={a: rules[a]["panic_to"] for a in actions if "panic_to" in rules[a]},
    )


class Dice:
    """A random.Random stand-in that rolls the given D8 faces in order."""

    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, a, b):
        assert (a, b) == (1, 8)
        return self.faces.pop(0)


def make_state(groups=("gardeners", "eyes"), nerves=(6, 3), drones=1, true_index=2, placed=True):
    seats, pieces, pid = [], {}, 1
    for seat, (group, nerve) in enumerate(zip(groups, nerves)):
        name = ["vox", "mara", "zed"][seat]
        seats.append(globals()["seat"](seat, name, group, nerve))
        for d in range(drones):
            drone_id = pid
            pieces[pid] = g.Piece(id=pid, seat=seat, kind="drone", drone=pid, code=f"{name}{d}", placed=placed)
            pid += 1
            for i in range(5):
                pieces[pid] = g.Piece(
                    id=pid,
                    seat=seat,
                    kind="token",
                    drone=drone_id,
                    code=f"{name[0].upper()}{d}{i}",
                    is_true=(i == true_index),
                    placed=placed,
                )
                pid += 1
    return g.State(seats=seats, pieces=pieces, current=0)


def token(state, code):
    return next(p for p in state.pieces.values() if p.code == code)


def drone(state, name):
    return next(p for p in state.pieces.values() if p.kind == "drone" and p.code == name)


def activate_and_end(state, seat, piece, rng=None):
    log = g.Log()
    g.activate(state, seat, piece.id, rng or Dice(), log)
    for s in list(g.standing(state)):
        g.pass_panic(state, state.panic_seat, log)
    if state.phase == "action":  # an Eyes or Mannikins token has no action: its turn is over already (SG23)
        g.end_turn(state, seat, log)
    return log


def test_place_stacks_five_tokens_and_passes_the_turn():
    state = make_state(placed=False)
    log = g.Log()
    g.place(state, 0, drone(state, "vox0").id, log)
    assert all(t.placed for t in g.tokens_of(state, drone(state, "vox0").id))
    assert state.current == 1 and state.turn == 2 and state.phase == "turn"
    with pytest.raises(g.IllegalAction):  # not vox's turn any more
        g.place(state, 0, drone(state, "vox0").id, g.Log())
    with pytest.raises(g.IllegalAction):  # mara cannot place vox's drone
        g.place(state, 1, drone(state, "vox0").id, g.Log())


def test_activating_the_same_character_twice_in_a_row_adds_a_panic_token():
    state = make_state()
    v0 = token(state, "V00")
    activate_and_end(state, 0, v0)
    assert v0.panic == 0
    activate_and_end(state, 1, token(state, "M00"))
    log = activate_and_end(state, 0, v0, Dice(1))  # 1 + 0 is not over Nerve 6
    assert v0.panic == 1 and log.rolls[0]["die"] == 1 and not log.rolls[0]["snapped"]
    assert log.rolls[0]["chance"] == "1/4"  # D8 7-8 over 6 with no tokens
    # a different character breaks the row
    activate_and_end(state, 1, token(state, "M00"), Dice(1))
    activate_and_end(state, 0, token(state, "V01"))
    assert token(state, "V01").panic == 0


def test_a_place_turn_breaks_the_row():
    state = make_state(drones=2)
    vox1 = drone(state, "vox1")
    vox1.placed = False
    for t in g.tokens_of(state, vox1.id):
        t.placed = False
    activate_and_end(state, 0, token(state, "V00"))
    activate_and_end(state, 1, token(state, "M00"))
    g.place(state, 0, vox1.id, g.Log())
    activate_and_end(state, 1, token(state, "M01"))
    activate_and_end(state, 0, token(state, "V00"))  # no Dice: a roll would fail the test
    assert token(state, "V00").panic == 0


def test_panic_phase_goes_round_until_everyone_passes():
    state = make_state()
    log = g.Log()
    g.activate(state, 0, token(state, "V00").id, Dice(), log)
    assert state.phase == "panic" and state.panic_seat == 0
    g.place_panic(state, 0, token(state, "M00").id, "spin", Dice(1), log)  # 1+0 over Nerve 3? no
    assert state.panic_seat == 1 and token(state, "M00").panic == 1
    with pytest.raises(g.IllegalAction):
        g.pass_panic(state, 0, g.Log())  # not vox's go
    g.pass_panic(state, 1, log)
    g.place_panic(state, 0, token(state, "M01").id, "forward", Dice(2), log)
    g.pass_panic(state, 1, log)
    assert state.phase == "panic"  # vox has not passed since the last token
    g.pass_panic(state, 0, log)
    assert state.phase == "action" and state.current == 0


def test_false_token_snaps_and_its_panic_is_moved_by_its_owner():
    state = make_state()
    m0 = token(state, "M00")
    m0.panic = 2
    g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
    log = g.Log()
    g.place_panic(state, 0, m0.id, "spin", Dice(2), log)  # 2 + 2 = 4 > Nerve 3
    assert m0.removed and m0.snapped and state.pending == {"seat": 1, "from": m0.id, "panic": 3}
    assert "TRUE" not in " ".join(log.lines) and not log.reveals_truth
    with pytest.raises(g.IllegalAction):  # vox waits
        g.pass_panic(state, 1, g.Log())
    with pytest.raises(g.IllegalAction):  # not vox's choice
        g.choose_panic_token(state, 0, token(state, "M01").id, Dice(), g.Log())
    with pytest.raises(g.IllegalAction):  # another drone's token
        g.choose_panic_token(state, 1, token(state, "V01").id, Dice(), g.Log())
    g.choose_panic_token(state, 1, token(state, "M03").id, Dice(), g.Log())
    assert token(state, "M03").panic == 3 and m0.panic == 0 and state.pending is None
    assert state.panic_seat == 1  # the panic phase goes on


def test_true_token_snaps_its_drone_and_the_last_drone_standing_wins():
    state = make_state()
    m_true = token(state, "M02")
    g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
    log = g.Log()
    g.place_panic(state, 0, m_true.id, "spin", Dice(4), log)  # 4 > 3
    assert drone(state, "mara0").snapped and all(t.removed and t.revealed for t in g.tokens_of(state, m_true.drone))
    assert log.reveals_truth and state.finished and state.winner == 0


def test_scene_shifters_true_token_snapping_is_replaced_by_the_drone():
    state = make_state(groups=("gardeners", "scene-shifters"), nerves=(6, 7))
    t = token(state, "M02")
    t.panic = 3
    g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
    g.place_panic(state, 0, t.id, "spin", Dice(8), g.Log())
    d = drone(state, "mara0")
    assert d.snapped and d.revealed and d.in_play and d.panic == 4 and t.removed


def test_gaze_reveals_false_and_removes_it_and_true_replaces_with_the_drone():
    state = make_state(drones=2)
    # vox's first drone is on the table (its true token replaced)
    g.replace_with_drone(state, 0, token(state, "V02").id, g.Log())
    seer = drone(state, "vox0")
    assert seer.in_play and not token(state, "V00").in_play
    log = g.Log()
    g.gaze(state, 0, token(state, "M00").id, seer.id, log)
    assert token(state, "M00").removed and token(state, "M00").revealed and not token(state, "M00").is_true
    assert "not the true token" in " ".join(log.lines)
    log = g.Log()
    g.gaze(state, 0, token(state, "M12").id, seer.id, log)
    assert drone(state, "mara1").in_play and all(t.removed for t in g.tokens_of(state, drone(state, "mara1").id))
    assert "TRUE" in " ".join(log.lines)


def test_gaze_needs_a_drone_that_sees():
    state = make_state()
    with pytest.raises(g.IllegalAction):  # no drone on the table yet
        g.gaze(state, 0, token(state, "M00").id, drone(state, "vox0").id, g.Log())


def test_any_drone_on_the_table_reveals_any_token_it_sees_whoever_records_it():
    """SG8, widened: "If a Drone has clear line of sight to a token reveal it, if it is a true token
    replace it with its Drone, if not, remove it." No owner, no state: mara may record that vox's own
    Drone sees vox's own token (a decoy kept in sight of its own Drone), and a Snapped Drone still sees."""
    state = make_state(drones=2)
    g.replace_with_drone(state, 0, token(state, "V02").id, g.Log())
    seer = drone(state, "vox0")
    assert seer in g.seers(state, 1) and seer in g.seers(state, 0)
    log = g.Log()
    g.gaze(state, 1, token(state, "V10").id, seer.id, log)  # vox's Drone sees vox's own false token
    assert token(state, "V10").removed and token(state, "V10").revealed and log.reveals_truth
    seer.snapped = True
    assert seer in g.seers(state, 1)
    g.gaze(state, 1, token(state, "M10").id, seer.id, g.Log())
    assert token(state, "M10").removed
    with pytest.raises(g.IllegalAction, match="Drone on the table"):  # a token is not a Drone
        g.gaze(state, 1, token(state, "M11").id, token(state, "V11").id, g.Log())


def test_refusing_to_replace_never_tells_another_player_the_truth():
    state = make_state()
    for code in ("M00", "M02"):  # a false and the true token of mara: the same answer to vox
        with pytest.raises(g.IllegalAction, match="only replace your own true token"):
            g.replace_with_drone(state, 0, token(state, code).id, g.Log())
    with pytest.raises(g.IllegalAction, match="Only the true token"):
        g.replace_with_drone(state, 1, token(state, "M00").id, g.Log())


def test_replacing_keeps_the_activation_row_and_the_panic():
    state = make_state()
    t = token(state, "V02")
    t.panic = 2
    activate_and_end(state, 0, t)
    g.replace_with_drone(state, 0, t.id, g.Log())
    d = drone(state, "vox0")
    assert d.panic == 2 and state.seats[0].last_piece == d.id
    activate_and_end(state, 1, token(state, "M00"))
    activate_and_end(state, 0, d, Dice(1))
    assert d.panic == 3


def test_gardener_lighter_darker_and_snapped_effect():
    state = make_state(groups=("gardeners", "gardeners"), nerves=(6, 6))
    g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
    g.pass_panic(state, 0, g.Log())
    g.pass_panic(state, 1, g.Log())
    with pytest.raises(g.IllegalAction):
        g.perform(state, 0, "lighter", Dice(), g.Log(), level=8)
    g.perform(state, 0, "lighter", Dice(), g.Log(), level=5)
    assert drone(state, "vox0").lantern == 5
    with pytest.raises(g.IllegalAction):  # exactly one action
        g.perform(state, 0, "darker", Dice(8), g.Log(), reduction=2)
    g.end_turn(state, 0, g.Log())
    # mara's Darker: lantern 4 reduced by 2, D8 3 is over 2: the lantern stays, at 2
    drone(state, "mara0").lantern = 4
    token(state, "M02").light = 1
    g.activate(state, 1, token(state, "M00").id, Dice(), g.Log())
    g.pass_panic(state, 1, g.Log())
    g.pass_panic(state, 0, g.Log())
    log = g.Log()
    g.perform(state, 1, "darker", Dice(3), log, reduction=2)
    assert drone(state, "mara0").lantern == 2 and log.rolls[0]["chance"] == "1/4"
    # mara ticks her own lit true token as out of the light: its first panic test (D8 8) Snaps mara0;
    # the game is over, so no Gardener takes a Darker for the Snapped effect
    g.darken(state, 1, [token(state, "M02").id], Dice(8), g.Log())
    assert drone(state, "mara0").snapped and token(state, "M02").panic == 1
    assert state.finished and state.winner == 0 and state.snap_effects == []
    assert drone(state, "vox0").lantern == 5


def test_three_players_skip_the_one_who_is_out():
    state = make_state(groups=("eyes", "eyes", "eyes"), nerves=(3, 3, 3))
    g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
    g.place_panic(state, 0, token(state, "M02").id, "spin", Dice(8), g.Log())  # mara's drone Snaps
    assert not state.finished and g.standing(state) == [0, 2]
    assert state.panic_seat == 2  # mara is skipped
    g.pass_panic(state, 2, g.Log())
    g.pass_panic(state, 0, g.Log())  # an Eyes token has no action (Check is a Drone's): the turn passes
    assert state.current == 2


def test_the_panic_phase_goes_on_when_the_movers_player_is_out():
    """ "Once a move is made ... players take turns selecting a single Character and placing 1 panic token on
    them ... Continue until no player wants to place panic tokens": the mover's player going out in the panic
    phase skips them (SG7); the other players still place or pass before the next turn."""
    state = make_state(groups=("eyes", "gardeners", "mannikins"), nerves=(3, 6, 6))
    moved = token(state, "V02")  # vox's true token
    g.activate(state, 0, moved.id, Dice(), g.Log())
    g.pass_panic(state, 0, g.Log())
    g.place_panic(state, 1, moved.id, "spin", Dice(8), g.Log())  # 8 + 0 > 3: vox's only drone Snaps
    assert g.standing(state) == [1, 2] and not state.finished
    assert state.phase == "panic" and state.panic_seat == 2  # zed may still place a panic token
    g.place_panic(state, 2, token(state, "M00").id, "spin", Dice(1), g.Log())
    assert token(state, "M00").panic == 1 and state.panic_seat == 1
    g.pass_panic(state, 1, g.Log())
    assert state.phase == "panic"
    g.pass_panic(state, 2, g.Log())
    assert state.phase == "turn" and state.current == 1  # then the next player still standing


def test_a_pass_by_a_player_who_then_goes_out_does_not_end_the_panic_phase():
    """ "starting with the player controlling the moved Character players take turns ... Continue until no
    player wants to place panic tokens": who passed counts, not how many (SG7). vox and mara pass, then vox
    goes out (his true token recorded in a fatal area, he confirms): zed never passed, so it is zed's go."""
    state = make_state(groups=("gardeners", "eyes", "eyes"), nerves=(6, 3, 3))
    g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
    g.pass_panic(state, 0, g.Log())
    g.pass_panic(state, 1, g.Log())
    assert state.passed == [0, 1] and state.passes == 2 and state.panic_seat == 2
    g.fatal(state, 2, token(state, "V02").id, g.Log())
    g.answer_fatal(state, 0, "confirm", g.Log())
    assert g.standing(state) == [1, 2] and not state.finished
    assert state.phase == "panic" and state.panic_seat == 2  # zed may still place a panic token
    g.pass_panic(state, 2, g.Log())  # now every player still in has passed since the last token
    assert state.phase == "turn" and state.current == 1 and state.passed == [] and state.passes == 0


def test_a_state_stored_with_only_a_number_of_passes_reads_them_as_the_players_before():
    """Games and undo snapshots stored before ``passed`` hold only ``passes``: those are the players still in
    who passed in a row just before the one placing now."""
    old = make_state(groups=("gardeners", "eyes", "eyes"), nerves=(6, 3, 3))
    moved = token(old, "V00").id
    stored = g.State(seats=old.seats, pieces=old.pieces, current=0, phase="panic", active=moved, panic_seat=2, passes=2)
    assert stored.passed == [0, 1]
    g.pass_panic(stored, 2, g.Log())
    assert stored.phase == "action" and stored.current == 0
    state = make_state(groups=("gardeners", "eyes", "eyes"), nerves=(6, 3, 3))
    g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
    g.pass_panic(state, 0, g.Log())
    snap = g.snapshot(state)
    del snap["game"]["passed"]  # a snapshot from before
    g.pass_panic(state, 1, g.Log())
    g.restore(state, snap)
    assert state.passed == [0] and state.passes == 1 and state.panic_seat == 1


def test_fatal_area_removes_a_drone_from_the_game():
    state = make_state()
    g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
    with pytest.raises(g.IllegalAction):  # mara is not moving anything now
        g.fatal(state, 1, token(state, "V00").id, g.Log())
    g.fatal(state, 0, token(state, "M02").id, g.Log())
    assert not token(state, "M02").removed and g.waiting_for(state) == 1  # mara's to confirm (SG21)
    g.answer_fatal(state, 1, "confirm", g.Log())
    assert drone(state, "mara0").removed and state.finished and state.winner == 0


def test_snapshot_restores_everything_and_holds_no_truth():
    state = make_state()
    snap = g.snapshot(state)
    assert "is_true" not in repr(snap)
    activate_and_end(state, 0, token(state, "V00"))
    g.restore(state, snap)
    assert g.snapshot(state) == snap


def test_seeded_rolls_replay():
    a, b = make_state(), make_state()
    for s in (a, b):
        g.activate(s, 0, token(s, "V00").id, Dice(), g.Log())
    la, lb = g.Log(), g.Log()
    g.place_panic(a, 0, token(a, "M00").id, "spin", random.Random(99), la)
    g.place_panic(b, 0, token(b, "M00").id, "spin", random.Random(99), lb)
    assert la.rolls == lb.rolls and la.lines == lb.lines


# --- rolls are final (SG10), the Gardeners' Snapped effect (SG12), a push into a fatal area (SG13) ---


def test_a_roll_makes_the_log_final():
    state = make_state()
    plain = g.Log()
    g.activate(state, 0, token(state, "V00").id, Dice(), plain)
    assert not plain.final  # no die rolled, no truth shown
    rolled = g.Log()
    g.place_panic(state, 0, token(state, "M00").id, "spin", Dice(1), rolled)  # holds
    assert rolled.rolls and not rolled.reveals_truth and rolled.final


def test_lighter_gives_a_light_token_to_the_acting_character_and_each_one_ticked():
    """SG14: "all Characters within the number in inches from this drone (including this drone) gains a
    light token"; the lantern number is the light level (SG9); no die, so it stays undoable."""
    state = make_state()
    g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
    g.pass_panic(state, 0, g.Log())
    g.pass_panic(state, 1, g.Log())
    before = g.snapshot(state)
    with pytest.raises(g.IllegalAction, match="on the table"):  # a removed token is not a Character
        token(state, "M04").removed = True
        g.perform(state, 0, "lighter", Dice(), g.Log(), level=3, lit=[token(state, "M04").id])
    with pytest.raises(g.IllegalAction):
        g.perform(state, 0, "lighter", Dice(), g.Log(), level=3, lit=["x"])
    assert drone(state, "vox0").lantern is None and state.performed is None  # refusals change nothing
    log = g.Log()
    g.perform(state, 0, "lighter", Dice(), log, level=3, lit=[token(state, "M00").id, str(token(state, "M01").id)])
    assert drone(state, "vox0").lantern == 3 and not log.final
    assert [t.light for t in g.tokens_of(state, drone(state, "mara0").id)] == [1, 1, 0, 0, 0]
    assert token(state, "V00").light == 1 and token(state, "V01").light == 0
    assert "light level (lantern number) 3" in log.lines[0]
    with pytest.raises(g.IllegalAction, match="Lighter gives no panic tokens"):
        g.give_panic(state, 0, token(state, "M00").id, Dice(1), g.Log())
    g.restore(state, before)
    assert token(state, "M00").light == 0 and drone(state, "vox0").lantern is None and state.performed is None


def test_light_tokens_stay_and_a_replaced_true_token_hands_them_to_its_drone():
    """SG15: the text never takes a light token away; the Drone replacing its true token is the same
    Character (SG4) and keeps them."""
    state = make_state()
    token(state, "V02").light = 2
    g.replace_with_drone(state, 0, token(state, "V02").id, g.Log())
    assert drone(state, "vox0").light == 2 and token(state, "V02").light == 0


def test_darker_rolls_then_its_player_ticks_who_is_out_of_the_light():
    """SG16: the D8 first (the light may be gone), then 5 panic tokens to each Character ticked, one
    panic test each; a Snap that awaits the owner's choice (SG3) holds the rest until it is made."""
    state = make_state(groups=("gardeners", "scene-shifters"), nerves=(6, 7))
    for code in ("V00", "M00", "M01"):
        token(state, code).light = 1
    token(state, "M00").panic = 3
    drone(state, "vox0").lantern = 4
    g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
    g.pass_panic(state, 0, g.Log())
    g.pass_panic(state, 1, g.Log())
    log = g.Log()
    g.perform(state, 0, "darker", Dice(3), log, reduction=2)  # 3 is over 2: the lantern is now 2
    assert drone(state, "vox0").lantern == 2 and log.final
    assert g.waiting_for(state) == 0 and g.acting_seat(state) is None
    assert [p.code for p in g.dark_candidates(state)] == ["V00", "M00", "M01"]
    with pytest.raises(g.IllegalAction, match="Waiting for vox to mark who is out of the light"):
        g.end_turn(state, 0, g.Log())
    with pytest.raises(g.IllegalAction, match="vox marks"):
        g.darken(state, 1, [token(state, "M00").id], Dice(), g.Log())
    with pytest.raises(g.IllegalAction, match="light token"):  # M02 has no light token
        g.darken(state, 0, [token(state, "M02").id], Dice(), g.Log())
    dark = g.Log()
    # M00: D8 5 + 3 is over Nerve 7: it Snaps on its first token and is removed; mara chooses where
    # its 4 panic tokens go before M01 gains its 5
    g.darken(state, 0, [token(state, "M01").id, token(state, "M00").id], Dice(5), dark)
    assert token(state, "M00").removed and state.pending == {"seat": 1, "from": token(state, "M00").id, "panic": 4}
    assert token(state, "M01").panic == 0 and g.waiting_for(state) == 1
    assert "M00 (mara's mara0) is out of the light: it gains 5 panic tokens" in " ".join(dark.lines)
    moved = g.Log()
    g.choose_panic_token(state, 1, token(state, "M03").id, Dice(1, 1, 1, 1, 1), moved)
    assert token(state, "M03").panic == 4 and token(state, "M01").panic == 5 and len(moved.rolls) == 5
    assert state.snap_effects == [] and g.acting_seat(state) == 0 and state.phase == "action"
    with pytest.raises(g.IllegalAction, match="out of the light"):  # Darker gives no other panic
        g.give_panic(state, 0, token(state, "M02").id, Dice(1), g.Log())
    with pytest.raises(g.IllegalAction, match="No Darker"):
        g.darken(state, 0, [], Dice(), g.Log())
    g.end_turn(state, 0, g.Log())
    assert state.current == 1 and state.performed is None
    assert token(state, "V00").light == 1  # light tokens stay (SG15)


def test_darker_with_nobody_lit_asks_nothing():
    state = make_state()
    drone(state, "vox0").lantern = 2
    g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
    g.pass_panic(state, 0, g.Log())
    g.pass_panic(state, 1, g.Log())
    log = g.Log()
    g.perform(state, 0, "darker", Dice(1), log, reduction=2)  # 1 is under 2: the lantern number is removed
    assert drone(state, "vox0").lantern is None and state.snap_effects == [] and g.acting_seat(state) == 0
    assert any("nobody gains panic tokens" in line for line in log.lines)


def test_a_gardener_snap_makes_each_gardener_drone_take_darker_in_turn():
    """SG17: "All Gardener drones take the Darker action reducing their lantern number by 6": the
    Snapped drone first, then table order; each with a lantern number rolls, then the Snapped drone's
    owner ticks who is out of the light; drones without a lantern number take no Darker."""
    state = make_state(groups=("gardeners", "gardeners"), nerves=(6, 6), drones=2)
    drone(state, "vox1").lantern, drone(state, "mara1").lantern = 7, 3
    token(state, "M00").light = token(state, "M10").light = 1
    g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
    g.pass_panic(state, 0, g.Log())
    log = g.Log()
    # mara's panic token on V02 (vox0's true token): D8 7 over Nerve 6, vox0 Snaps; vox0 has no
    # lantern number; vox1's Darker: 7 - 6, D8 8 is over 6: its lantern number is now 1
    g.place_panic(state, 1, token(state, "V02").id, "spin", Dice(7, 8), log)
    assert drone(state, "vox0").snapped and drone(state, "vox1").lantern == 1 and drone(state, "mara1").lantern == 3
    assert state.snap_effects[-1]["darker"] == drone(state, "vox1").id and g.waiting_for(state) == 0
    assert "vox's drone vox0 has no lantern number to reduce: it takes no Darker action." in log.lines
    with pytest.raises(g.IllegalAction, match="Waiting for vox"):
        g.pass_panic(state, 0, g.Log())
    with pytest.raises(g.IllegalAction, match="vox marks"):
        g.darken(state, 1, [], Dice(), g.Log())
    first = g.Log()
    # M00 gains 5 (D8 1 each: 1..5, never over 6); then mara1's Darker: D8 2, its lantern number goes
    g.darken(state, 0, [token(state, "M00").id], Dice(1, 1, 1, 1, 1, 2), first)
    assert token(state, "M00").panic == 5 and drone(state, "mara1").lantern is None
    assert state.snap_effects[-1]["darker"] == drone(state, "mara1").id and first.final
    g.darken(state, 0, [], Dice(), g.Log())  # nobody is out of the light this time
    assert state.snap_effects == [] and token(state, "M10").panic == 0
    assert state.phase == "panic" and state.panic_seat == 0  # the panic phase goes on


def test_a_gardener_snap_with_no_lantern_number_anywhere_takes_no_darker():
    state = make_state(drones=2)
    token(state, "M00").light = 1
    g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
    g.pass_panic(state, 0, g.Log())
    log = g.Log()
    g.place_panic(state, 1, token(state, "V02").id, "spin", Dice(7), log)
    assert drone(state, "vox0").snapped and not state.finished and state.snap_effects == []
    assert g.waiting_for(state) is None and len(log.rolls) == 1


def test_a_snap_in_the_darkness_opens_that_snaps_effect_first():
    """SG12 with SG16: vox's Darker Snaps mara's Gardener; mara ticks for its Snapped effect, then
    vox's action step goes on."""
    state = make_state(groups=("gardeners", "gardeners"), nerves=(6, 6), drones=2)
    drone(state, "vox0").lantern = 5
    token(state, "M02").light = token(state, "V01").light = 1
    g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
    g.pass_panic(state, 0, g.Log())
    g.pass_panic(state, 1, g.Log())
    g.perform(state, 0, "darker", Dice(5), g.Log(), reduction=1)  # 5 is over 1: lantern 4
    assert drone(state, "vox0").lantern == 4
    # M02 (mara0's true token) Snaps on D8 8: mara0's Snapped effect: mara0, mara1 have no lantern
    # number; vox0's Darker by 6 (D8 1): its lantern number goes; mara ticks
    g.darken(state, 0, [token(state, "M02").id], Dice(8, 1), g.Log())
    assert drone(state, "mara0").snapped and drone(state, "vox0").lantern is None
    assert g.waiting_for(state) == 1 and len(state.snap_effects) == 2
    with pytest.raises(g.IllegalAction, match="Waiting for mara"):
        g.end_turn(state, 0, g.Log())
    g.darken(state, 1, [token(state, "V01").id], Dice(1, 1, 1, 1, 1), g.Log())
    assert token(state, "V01").panic == 5 and state.snap_effects == [] and g.acting_seat(state) == 0
    g.end_turn(state, 0, g.Log())
    assert state.current == 1


def test_an_entry_from_before_the_darker_steps_still_resolves():
    state = make_state()
    token(state, "M00").light = 1
    state.snap_effects = [{"seat": 0, "drone": drone(state, "vox0").id}]  # as the tracker stored them before
    g.darken(state, 0, [token(state, "M00").id], Dice(1, 1, 1, 1), g.Log())
    assert token(state, "M00").removed and state.pending  # Eyes, Nerve 3: 1 + 3 Snaps; mara chooses (SG3)
    g.choose_panic_token(state, 1, token(state, "M01").id, Dice(), g.Log())
    assert token(state, "M01").panic == 4 and state.snap_effects == [] and g.waiting_for(state) is None


def test_a_gardener_snap_that_ends_the_game_opens_no_effect():
    state = make_state(groups=("gardeners", "eyes"))
    g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
    g.pass_panic(state, 0, g.Log())
    g.place_panic(state, 1, token(state, "V02").id, "spin", Dice(8), g.Log())
    assert state.finished and state.winner == 1 and state.snap_effects == []


def test_the_player_whose_panic_token_pushed_a_character_records_the_fatal_area():
    state = make_state(groups=("eyes", "eyes"), nerves=(3, 3), drones=2)
    g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
    g.place_panic(state, 0, token(state, "M00").id, "forward", Dice(1), g.Log())  # holds, moves 6"
    assert state.panic_seat == 1 and state.pushed == {"seat": 0, "piece": token(state, "M00").id}
    with pytest.raises(g.IllegalAction, match="pushed"):  # only the Character it pushed
        g.fatal(state, 0, token(state, "M01").id, g.Log())
    g.fatal(state, 0, token(state, "M00").id, g.Log())
    assert state.pushed is None and state.fatal_claim == {"seat": 0, "piece": token(state, "M00").id}
    g.answer_fatal(state, 1, "confirm", g.Log())  # mara's Character: mara confirms (SG21)
    assert token(state, "M00").removed
    g.choose_panic_token(state, 1, token(state, "M03").id, Dice(), g.Log())  # its panic token moves (SG3)
    # mara (moving now) pushes V01 forwards; vox's pass ends her say as the pusher
    g.place_panic(state, 1, token(state, "V01").id, "forward", Dice(1), g.Log())
    assert state.pushed == {"seat": 1, "piece": token(state, "V01").id}
    g.pass_panic(state, 0, g.Log())
    assert state.pushed is None
    # a spin moves nothing: its placer may not record a fatal area once the go has passed on
    g.place_panic(state, 1, token(state, "M01").id, "spin", Dice(1), g.Log())
    assert state.pushed is None and g.acting_seat(state) == 0
    with pytest.raises(g.IllegalAction):
        g.fatal(state, 1, token(state, "M01").id, g.Log())


def test_an_old_snapshot_restores_the_new_fields_to_their_defaults():
    state = make_state()
    snap = g.snapshot(state)
    del snap["game"]["snap_effects"], snap["game"]["pushed"], snap["game"]["performed"]
    for piece in snap["pieces"].values():
        del piece["light"]
    state.snap_effects, state.pushed = [{"seat": 0, "drone": 1}], {"seat": 0, "piece": 2}
    state.performed, token(state, "M00").light = "lighter", 1
    g.restore(state, snap)
    assert state.snap_effects == [] and state.pushed is None
    assert state.performed is None and token(state, "M00").light == 0


def test_only_actions_whose_text_gives_panic_let_the_player_give_panic_tokens():
    """Scene ("place a marker") and Lighter give no panic tokens; Check, Shift and Become do (the table
    counts them: S5); Darker's go to the Characters ticked out of the light (SG16)."""
    state = make_state(groups=("scene-shifters", "eyes"), nerves=(7, 3))
    state.seats[0].actions = ("scene", "shift")
    g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
    g.pass_panic(state, 0, g.Log())
    g.pass_panic(state, 1, g.Log())
    g.perform(state, 0, "scene", Dice(), g.Log())
    with pytest.raises(g.IllegalAction, match="Scene gives no panic tokens"):
        g.give_panic(state, 0, token(state, "M00").id, Dice(1), g.Log())
    g.end_turn(state, 0, g.Log())
    g.replace_with_drone(state, 1, token(state, "M02").id, g.Log())  # Check is a Drone's action (SG19)
    g.activate(state, 1, drone(state, "mara0").id, Dice(), g.Log())
    g.pass_panic(state, 1, g.Log())
    g.pass_panic(state, 0, g.Log())
    g.perform(state, 1, "check", Dice(), g.Log())
    g.replace_with_drone(state, 0, token(state, "V02").id, g.Log())  # and its panic tokens go to Drones
    g.give_panic(state, 1, drone(state, "vox0").id, Dice(1), g.Log())
    assert drone(state, "vox0").panic == 1


def test_a_snapped_effects_darker_with_nobody_lit_goes_on_by_itself():
    """SG17: with no light token on the table nobody can be out of the light: each Darker only rolls."""
    state = make_state(groups=("gardeners", "gardeners"), nerves=(6, 6), drones=2)
    drone(state, "vox1").lantern, drone(state, "mara1").lantern = 7, 7
    g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
    g.pass_panic(state, 0, g.Log())
    log = g.Log()
    g.place_panic(state, 1, token(state, "V02").id, "spin", Dice(7, 8, 8), log)  # vox0 Snaps; two Darkers
    assert drone(state, "vox1").lantern == 1 and drone(state, "mara1").lantern == 1
    assert state.snap_effects == [] and g.waiting_for(state) is None and len(log.rolls) == 3
    assert "The Snapped effect of vox's drone vox0 is over." in log.lines


def test_the_panic_test_adds_panic_tokens_only_not_light_tokens():
    """S7: "roll a D8 and add the number of tokens already on it (before the addition of the current
    token)": the panic tokens ("Drones will gain panic tokens; these are any convenient token placed next
    to the drone"), not the Gardeners' light tokens, which the text names apart ("a light token")."""
    state = make_state()
    lit = token(state, "M00")  # an Eyes token, Nerve 3
    lit.light, lit.panic = 4, 1
    g.activate(state, 0, token(state, "V00").id, Dice(), g.Log())
    log = g.Log()
    g.place_panic(state, 0, lit.id, "spin", Dice(2), log)  # 2 + 1 = 3 is not over 3; with the light, 7
    assert log.rolls[0]["tokens_before"] == 1 and log.rolls[0]["total"] == 3 and not log.rolls[0]["snapped"]
    assert lit.panic == 2 and lit.light == 4 and lit.in_play
