"""Setting up and playing games through the services (the rows, the log, undo, versions)."""

import random

import pytest

from games.soylent_ghoul.play import services
from games.soylent_ghoul.play.models import Event, Game, Piece
from games.soylent_ghoul.sets.models import Token
from tests.games.soylent_ghoul.play import posted


def seed_rolling(*faces):
    """A 32-bit seed whose random.Random rolls these D8 faces first."""
    for seed in range(100000):
        rng = random.Random(seed)
        if all(rng.randint(1, 8) == f for f in faces):
            return seed
    raise AssertionError("no seed found")


@pytest.fixture
def fixed_seed(monkeypatch):
    def use(*faces):
        seed = seed_rolling(*faces)
        monkeypatch.setattr(services.secrets, "randbits", lambda bits: seed)
        return seed

    return use


def piece(game, code):
    return Piece.objects.get(game=game, code=code)


def act(game, user, kind, **data):
    game.refresh_from_db()
    return posted.play(game.pk, user, game.version, kind, {k: str(v) for k, v in data.items()})


def place_both_drones(game, vox, mara):
    """Turns 1 and 2: each player stacks their one drone's tokens on the table."""
    act(game, vox, "place", piece=Piece.objects.get(game=game, player__user=vox, kind="drone").pk)
    act(game, mara, "place", piece=Piece.objects.get(game=game, player__user=mara, kind="drone").pk)


def test_create_requires_own_set_known_users_and_equal_drone_counts(players, make_set, make_user):
    vox, mara = players
    mine = make_set(vox, "Pale Hands", drones=2)
    theirs = make_set(mara, "Watchers", "eyes", drones=1)
    with pytest.raises(services.GameError, match="own drone sets"):
        services.create_game(mara, mine, ["vox"])
    with pytest.raises(services.GameError, match="no user"):
        services.create_game(vox, mine, ["nobody"])
    with pytest.raises(services.GameError, match="Invite"):
        services.create_game(vox, mine, [" "])
    game = services.create_game(vox, mine, ["mara"])
    assert game.drone_count == 2 and game.status == Game.SETUP
    with pytest.raises(services.GameError, match="same number of drones"):
        services.join(game.pk, mara, theirs)
    with pytest.raises(services.GameError, match="Waiting for mara"):
        services.start(game.pk, vox, 0)
    services.join(game.pk, mara, make_set(mara, "Others", "eyes", drones=2))
    with pytest.raises(services.GameError, match="Only the player who set up"):
        services.start(game.pk, mara, 0)
    started = services.start(game.pk, vox, 1)
    assert started.status == Game.PLAYING and started.current_seat == 1


def test_a_set_needs_five_tokens_with_one_true(players, make_set):
    vox, mara = players
    broken = make_set(vox, "Broken")
    Token.objects.filter(drone__drone_set=broken, is_true=True).update(is_true=False)
    with pytest.raises(services.GameError, match="exactly one of them true"):
        services.create_game(vox, broken, ["mara"])


def test_tokens_are_copied_so_a_redeal_cannot_change_the_game(two_player_game, players):
    game = two_player_game
    vox, mara = players
    true_code = Token.objects.get(drone__drone_set__crew__owner=mara, is_true=True).code
    Token.objects.filter(drone__drone_set__crew__owner=mara).update(is_true=False)  # a re-deal
    Token.objects.filter(drone__drone_set__crew__owner=mara, code__endswith="K").update(is_true=True)
    assert piece(game, true_code).is_true
    assert Piece.objects.filter(game=game, player__user=mara, is_true=True).count() == 1
    assert Piece.objects.filter(game=game, kind="token").count() == 10


def test_a_short_game_to_a_win_with_the_log(two_player_game, players, fixed_seed):
    game = two_player_game
    vox, mara = players
    vox_drone = Piece.objects.get(game=game, player__user=vox, kind="drone")
    mara_drone = Piece.objects.get(game=game, player__user=mara, kind="drone")
    act(game, vox, "place", piece=vox_drone.pk)
    act(game, mara, "place", piece=mara_drone.pk)
    watcher_true = Piece.objects.get(game=game, player__user=mara, kind="token", is_true=True)
    act(game, vox, "activate", piece=piece(game, "P1K").pk)
    seed = fixed_seed(4)  # 4 + 0 is over the Eyes' Nerve 3
    event = act(game, vox, "panic", piece=watcher_true.pk, effect="spin")
    game.refresh_from_db()
    assert game.status == Game.FINISHED and game.winner_seat == 0
    assert event.seed == seed and event.payload["rolls"][0]["die"] == 4
    assert not event.undoable  # the true token is public now
    assert Event.objects.filter(game=game).count() == 5


def test_twice_in_a_row_panic_through_the_service(two_player_game, players, fixed_seed):
    game = two_player_game
    vox, mara = players
    place_both_drones(game, vox, mara)
    mine = piece(game, "P1K")
    for _ in range(2):
        fixed_seed(1)
        act(game, vox, "activate", piece=mine.pk)
        act(game, vox, "pass")
        act(game, mara, "pass")
        act(game, vox, "end-turn")
        act(game, mara, "activate", piece=piece(game, "W1K").pk)
        act(game, mara, "pass")
        act(game, vox, "pass")  # an Eyes token has no action: vox's turn comes at once (SG23)
    mine.refresh_from_db()
    assert mine.panic == 1


def test_stale_submissions_cannot_double_apply(two_player_game, players):
    game = two_player_game
    vox, _ = players
    drone = Piece.objects.get(game=game, player__user=vox, kind="drone")
    seen = game.version
    posted.play(game.pk, vox, seen, "place", {"piece": str(drone.pk)})
    with pytest.raises(services.StaleVersion):
        posted.play(game.pk, vox, seen, "place", {"piece": str(drone.pk)})
    with pytest.raises(services.StaleVersion):
        posted.play(game.pk, vox, seen, "place", {"piece": str(drone.pk)})
    assert Event.objects.filter(game=game, kind="place").count() == 1
    game.refresh_from_db()
    assert game.turn == 2 and game.version == seen + 1


def test_undo_by_its_maker_only_and_before_the_next_turn(two_player_game, players):
    game = two_player_game
    vox, mara = players
    place_both_drones(game, vox, mara)
    act(game, vox, "activate", piece=piece(game, "P1K").pk)
    act(game, vox, "pass")
    game.refresh_from_db()
    assert game.panic_seat == 1
    with pytest.raises(services.GameError, match="Only the player who made"):
        services.undo(game.pk, mara, game.version)
    services.undo(game.pk, vox, game.version)
    game.refresh_from_db()
    assert game.panic_seat == 0 and game.phase == "panic" and game.passes == 0
    assert Event.objects.get(game=game, kind="pass").undone
    # then the activation itself; then mara's place is hers, not vox's
    services.undo(game.pk, vox, game.version)
    game.refresh_from_db()
    assert game.phase == "turn" and game.current_seat == 0
    with pytest.raises(services.GameError, match="Only the player who made"):
        services.undo(game.pk, vox, game.version)


def test_a_panic_test_that_held_cannot_be_undone_and_rolled_again(two_player_game, players, fixed_seed):
    """SG10: a roll is final. Undoing a test that held would let the placer roll until it Snaps."""
    game = two_player_game
    vox, mara = players
    place_both_drones(game, vox, mara)
    act(game, vox, "activate", piece=piece(game, "P1K").pk)
    fixed_seed(1)
    event = act(game, vox, "panic", piece=piece(game, "W1K").pk, effect="spin")
    assert not event.undoable and event.payload["rolls"][0]["snapped"] is False
    game.refresh_from_db()
    version = game.version
    with pytest.raises(services.GameError, match="a roll is final"):
        services.undo(game.pk, vox, version)
    game.refresh_from_db()
    assert piece(game, "W1K").panic == 1 and game.panic_seat == 1 and game.version == version
    assert not Event.objects.filter(game=game, undone=True).exists()  # nor the activation before it


def test_a_snap_that_ended_the_game_cannot_be_undone(two_player_game, players, fixed_seed):
    """The audit's case: a revealed Eyes drone activated twice in a row rolls, Snaps and ends the game."""
    game = two_player_game
    vox, mara = players
    place_both_drones(game, vox, mara)
    watcher = Piece.objects.get(game=game, player__user=mara, kind="drone")
    for vox_piece in ("P1K", "P1M"):
        act(game, vox, "activate", piece=piece(game, vox_piece).pk)
        act(game, vox, "pass")
        act(game, mara, "pass")
        act(game, vox, "end-turn")
        if vox_piece == "P1K":
            act(game, mara, "replace", piece=Piece.objects.get(game=game, player__user=mara, is_true=True).pk)
            act(game, mara, "activate", piece=watcher.pk)
            act(game, mara, "pass")
            act(game, vox, "pass")
            act(game, mara, "end-turn")
    fixed_seed(4)  # 4 + 0 is over the Eyes' Nerve 3
    event = act(game, mara, "activate", piece=watcher.pk)  # twice in a row: a panic token
    game.refresh_from_db()
    assert game.status == Game.FINISHED and game.winner_seat == 0 and not event.undoable
    with pytest.raises(services.GameError, match="a roll is final"):
        services.undo(game.pk, mara, game.version)
    game.refresh_from_db()
    assert game.status == Game.FINISHED and Piece.objects.get(pk=watcher.pk).snapped


def test_an_event_logged_with_dice_before_rolls_were_final_is_final(two_player_game, players, fixed_seed):
    game = two_player_game
    vox, mara = players
    place_both_drones(game, vox, mara)
    act(game, vox, "activate", piece=piece(game, "P1K").pk)
    fixed_seed(1)
    event = act(game, vox, "panic", piece=piece(game, "W1K").pk, effect="spin")
    Event.objects.filter(pk=event.pk).update(undoable=True)  # a row written by the old rule
    game.refresh_from_db()
    with pytest.raises(services.GameError, match="a roll is final"):
        services.undo(game.pk, vox, game.version)


@pytest.fixture
def two_drone_game(players, make_set):
    """Gardeners (vox, true tokens P1N and P2N) vs Eyes (mara), 2 drones each, all placed; vox to play."""
    vox, mara = players
    game = services.create_game(vox, make_set(vox, "Pale Hands", "gardeners", drones=2), ["mara"])
    services.join(game.pk, mara, make_set(mara, "Watchers", "eyes", drones=2))
    game = services.start(game.pk, vox, 0)
    for user in (vox, mara, vox, mara):
        drone = Piece.objects.filter(game=game, player__user=user, kind="drone", placed=False).first()
        act(game, user, "place", piece=drone.pk)
    return game


def test_a_gardener_snapped_in_the_panic_phase_gives_its_panic_tokens_then(two_drone_game, players, fixed_seed):
    """SG12, SG14, SG16, SG17 through the rows: Lighter's light tokens, then a Gardener Snapping in the
    panic phase: each Gardener drone with a lantern number takes Darker; its owner ticks who is out."""
    game = two_drone_game
    vox, mara = players
    act(game, vox, "activate", piece=piece(game, "P2K").pk)
    act(game, vox, "pass")
    act(game, mara, "pass")
    game.refresh_from_db()
    lighter = posted.play(
        game.pk, vox, game.version, "perform", {"action": "lighter", "level": "3", "lit": [str(piece(game, "W1K").pk)]}
    )
    assert piece(game, "Pale Hands 2").lantern == 3 and piece(game, "P2K").light == 1 and piece(game, "W1K").light == 1
    assert lighter.undoable and lighter.seed is None  # no die
    game.refresh_from_db()
    services.undo(game.pk, vox, game.version)
    assert piece(game, "W1K").light == 0 and piece(game, "Pale Hands 2").lantern is None
    game.refresh_from_db()
    posted.play(
        game.pk, vox, game.version, "perform", {"action": "lighter", "level": "3", "lit": [str(piece(game, "W1K").pk)]}
    )
    with pytest.raises(services.GameError, match="Lighter gives no panic tokens"):
        act(game, vox, "give-panic", piece=piece(game, "W1K").pk)
    act(game, vox, "end-turn")
    act(game, mara, "activate", piece=piece(game, "W1M").pk)
    # 7 + 0 over the Gardeners' Nerve 6: vox's true token P1N Snaps its drone; Pale Hands 1 has no
    # lantern number; Pale Hands 2's Darker by 6: D8 8, but 3 - 6 leaves no light level
    fixed_seed(7, 8)
    snap = act(game, mara, "panic", piece=piece(game, "P1N").pk, effect="spin")
    game.refresh_from_db()
    assert game.status == Game.PLAYING and piece(game, "Pale Hands 2").lantern is None and not snap.undoable
    assert game.snap_effects == [
        {
            "seat": 0,
            "drone": piece(game, "Pale Hands 1").pk,
            "darker": piece(game, "Pale Hands 2").pk,
            "queue": [],
            "out": None,
        }
    ]
    with pytest.raises(services.GameError, match="Waiting for vox"):
        act(game, vox, "pass")
    with pytest.raises(services.GameError, match="vox marks"):
        act(game, mara, "dark", piece=piece(game, "P2K").pk)
    with pytest.raises(services.GameError, match="light token"):
        act(game, vox, "dark", piece=piece(game, "W1M").pk)
    with pytest.raises(services.GameError, match="Unknown"):  # the old one-token-at-a-time form is gone
        act(game, vox, "snap-panic", piece=piece(game, "W1K").pk)
    fixed_seed(1, 1, 1, 1, 1)
    game.refresh_from_db()
    event = posted.play(game.pk, vox, game.version, "dark", {"piece": [str(piece(game, "P2K").pk)]})
    assert piece(game, "P2K").panic == 5 and piece(game, "W1K").panic == 0
    assert not event.undoable and event.seed is not None
    assert any("out of the light: it gains 5 panic tokens" in line for line in event.payload["lines"])
    game.refresh_from_db()
    assert game.snap_effects == [] and game.phase == "panic" and game.panic_seat == 0
    assert piece(game, "W1K").light == 1  # light tokens stay (SG15)


def test_the_pusher_records_a_push_into_a_fatal_area(two_player_game, players, fixed_seed):
    """SG13: the player whose panic token moved a Character 6" forwards may record where it went."""
    game = two_player_game
    vox, mara = players
    place_both_drones(game, vox, mara)
    act(game, vox, "activate", piece=piece(game, "P1K").pk)
    fixed_seed(1)
    act(game, vox, "panic", piece=piece(game, "W1K").pk, effect="forward")
    game.refresh_from_db()
    assert game.panic_seat == 1 and game.pushed == {"seat": 0, "piece": piece(game, "W1K").pk}
    with pytest.raises(services.GameError, match="pushed"):
        act(game, vox, "fatal", piece=piece(game, "W1M").pk)
    act(game, vox, "fatal", piece=piece(game, "W1K").pk)
    assert not piece(game, "W1K").removed  # mara's token: she confirms it (SG21)
    act(game, mara, "fatal-answer", answer="confirm")
    assert piece(game, "W1K").removed


def test_a_gaze_cannot_be_undone(two_player_game, players):
    game = two_player_game
    vox, mara = players
    place_both_drones(game, vox, mara)
    act(game, vox, "replace", piece=Piece.objects.get(game=game, player__user=vox, is_true=True).pk)
    seer = Piece.objects.get(game=game, player__user=vox, kind="drone")
    act(game, vox, "gaze", piece=piece(game, "W1K").pk, seer=seer.pk)
    game.refresh_from_db()
    with pytest.raises(services.GameError, match="cannot be undone"):
        services.undo(game.pk, vox, game.version)


def test_refusals_change_nothing(two_player_game, players):
    game = two_player_game
    vox, mara = players
    version = game.version
    with pytest.raises(services.GameError, match="vox's go"):
        posted.play(
            game.pk,
            mara,
            version,
            "place",
            {"piece": str(Piece.objects.get(game=game, player__user=mara, kind="drone").pk)},
        )
    with pytest.raises(services.GameError):
        posted.play(
            game.pk,
            vox,
            version,
            "place",
            {"piece": str(Piece.objects.get(game=game, player__user=mara, kind="drone").pk)},
        )
    with pytest.raises(services.GameError, match="Unknown"):
        posted.play(game.pk, vox, version, "cheat", {})
    game.refresh_from_db()
    assert game.version == version and Event.objects.filter(game=game).count() == 1


def test_only_the_organiser_invites_and_only_before_the_start(two_player_game, players, make_set, make_user):
    vox, mara = players
    make_user("ada")
    with pytest.raises(services.GameError, match="The game has started."):
        services.invite(two_player_game.pk, vox, "ada")
    game = services.create_game(vox, make_set(vox, "Other Hands", "gardeners"), ["mara"])
    with pytest.raises(services.GameError, match="Only the player who set up the game invites players."):
        services.invite(game.pk, mara, "ada")
    with pytest.raises(services.GameError, match="Invite another player by username."):
        services.invite(game.pk, vox, "  ")
    before = game.version
    services.invite(game.pk, vox, "ada")
    game.refresh_from_db()
    assert game.version == before + 1 and game.players.get(user__username="ada").seat == 2


def test_a_game_stored_before_passed_seats_keeps_its_passes_and_a_passer_going_out_counts_no_more(
    players, make_set, make_user
):
    """SG7: who passed counts, not how many. vox and mara pass; the row is then read as one stored before
    ``passed`` (only ``passes`` = 2); zed records vox's true token in a fatal area and vox confirms: vox is
    out, but zed never passed, so the panic phase goes on with zed's go."""
    vox, mara = players
    zed = make_user("zed")
    game = services.create_game(vox, make_set(vox, "Pale Hands", "gardeners"), ["mara", "zed"])
    services.join(game.pk, mara, make_set(mara, "Watchers", "eyes"))
    services.join(game.pk, zed, make_set(zed, "Others", "eyes"))
    game = services.start(game.pk, vox, 0)
    for user in (vox, mara, zed):
        act(game, user, "place", piece=Piece.objects.get(game=game, player__user=user, kind="drone").pk)
    first = Piece.objects.filter(game=game, player__user=vox, kind="token", is_true=False).first()
    act(game, vox, "activate", piece=first.pk)
    act(game, vox, "pass")
    act(game, mara, "pass")
    game.refresh_from_db()
    assert game.passed == [0, 1] and game.passes == 2 and game.panic_seat == 2
    Game.objects.filter(pk=game.pk).update(passed=[])  # as the migration leaves a game stored before it
    true = Piece.objects.get(game=game, player__user=vox, kind="token", is_true=True)
    act(game, zed, "fatal", piece=true.pk)
    act(game, vox, "fatal-answer", answer="confirm")
    game.refresh_from_db()
    assert game.phase == "panic" and game.panic_seat == 2 and game.passed == [0, 1]  # vox's pass: out, uncounted
    act(game, zed, "pass")
    game.refresh_from_db()
    assert game.phase == "turn" and game.current_seat == 1 and game.passed == [] and game.passes == 0
