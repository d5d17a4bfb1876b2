"""Setting up and playing games through the services (the rows, the log, undo, versions)."""

import random

import pytest

from soylent.models import Token
from soylentgames import services
from soylentgames.models import Event, Game, Piece


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
    return services.play(game.pk, user, game.version, kind, {k: str(v) for k, v in data.items()})


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
    act(game, vox, "place", piece=Piece.objects.get(game=game, player__user=vox, kind="drone").pk)
    act(game, mara, "place", piece=Piece.objects.get(game=game, player__user=mara, kind="drone").pk)
    mine = piece(game, "P1K")
    for _ in range(2):
        fixed_seed(1)
        act(game, vox, "activate", piece=mine.pk)
        act(game, vox, "pass")
        act(game, mara, "pass")
        act(game, vox, "end-turn")
        act(game, mara, "activate", piece=piece(game, "W1K").pk)
        act(game, mara, "pass")
        act(game, vox, "pass")
        act(game, mara, "end-turn")
    mine.refresh_from_db()
    assert mine.panic == 1


def test_stale_submissions_cannot_double_apply(two_player_game, players):
    game = two_player_game
    vox, _ = players
    drone = Piece.objects.get(game=game, player__user=vox, kind="drone")
    seen = game.version
    services.play(game.pk, vox, seen, "place", {"piece": str(drone.pk)})
    with pytest.raises(services.StaleVersion):
        services.play(game.pk, vox, seen, "place", {"piece": str(drone.pk)})
    with pytest.raises(services.StaleVersion):
        services.play(game.pk, vox, seen, "place", {"piece": str(drone.pk)})
    assert Event.objects.filter(game=game, kind="place").count() == 1
    game.refresh_from_db()
    assert game.turn == 2 and game.version == seen + 1


def test_undo_by_its_maker_only_and_before_the_next_turn(two_player_game, players, fixed_seed):
    game = two_player_game
    vox, mara = players
    act(game, vox, "place", piece=Piece.objects.get(game=game, player__user=vox, kind="drone").pk)
    act(game, mara, "place", piece=Piece.objects.get(game=game, player__user=mara, kind="drone").pk)
    act(game, vox, "activate", piece=piece(game, "P1K").pk)
    fixed_seed(1)
    act(game, vox, "panic", piece=piece(game, "W1K").pk, effect="spin")
    assert piece(game, "W1K").panic == 1
    game.refresh_from_db()
    with pytest.raises(services.GameError, match="Only the player who made"):
        services.undo(game.pk, mara, game.version)
    services.undo(game.pk, vox, game.version)
    game.refresh_from_db()
    assert piece(game, "W1K").panic == 0 and game.panic_seat == 0 and game.phase == "panic"
    assert Event.objects.get(game=game, kind="panic").undone
    # then the activation itself; then mara's place is hers, not vox's
    services.undo(game.pk, vox, game.version)
    game.refresh_from_db()
    assert game.phase == "turn" and game.current_seat == 0
    with pytest.raises(services.GameError, match="Only the player who made"):
        services.undo(game.pk, vox, game.version)


def test_a_gaze_cannot_be_undone(two_player_game, players):
    game = two_player_game
    vox, mara = players
    act(game, vox, "place", piece=Piece.objects.get(game=game, player__user=vox, kind="drone").pk)
    act(game, mara, "place", piece=Piece.objects.get(game=game, player__user=mara, kind="drone").pk)
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
        services.play(game.pk, mara, version, "place",
                      {"piece": str(Piece.objects.get(game=game, player__user=mara, kind="drone").pk)})
    with pytest.raises(services.GameError):
        services.play(game.pk, vox, version, "place",
                      {"piece": str(Piece.objects.get(game=game, player__user=mara, kind="drone").pk)})
    with pytest.raises(services.GameError, match="Unknown"):
        services.play(game.pk, vox, version, "cheat", {})
    game.refresh_from_db()
    assert game.version == version and Event.objects.filter(game=game).count() == 1
