"""The game pages: who may see and act, secrecy of the true tokens, htmx, query budget."""

import re

import pytest
from django.urls import reverse

from games.soylent_ghoul.play import services
from games.soylent_ghoul.play.models import Event, Game, Piece
from tests.games.soylent_ghoul.play import posted

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(game, name="soylent-game"):
    return reverse(name, args=[game.pk])


def post_act(client, game, kind, htmx=True, **data):
    game.refresh_from_db()
    payload = {"kind": kind, "version": game.version, **data}
    return client.post(url(game, "soylent-game-act"), payload, **(HTMX if htmx else {}))


def placed(game, players):
    vox, mara = players
    posted.play(
        game.pk,
        vox,
        game.version,
        "place",
        {"piece": str(Piece.objects.get(game=game, player__user=vox, kind="drone").pk)},
    )
    game.refresh_from_db()
    posted.play(
        game.pk,
        mara,
        game.version,
        "place",
        {"piece": str(Piece.objects.get(game=game, player__user=mara, kind="drone").pk)},
    )
    game.refresh_from_db()
    return game


# --- permissions -------------------------------------------------------------


def test_non_players_get_404_everywhere(client, two_player_game, make_user):
    client.force_login(make_user("zed"))
    game = two_player_game
    assert client.get(url(game)).status_code == 404
    assert client.get(url(game), **HTMX).status_code == 404
    for name in ("soylent-game-act", "soylent-game-join", "soylent-game-start", "soylent-game-leave"):
        assert client.post(url(game, name), {"kind": "pass", "version": game.version}).status_code == 404
    assert Event.objects.filter(game=game).count() == 1


def test_anonymous_is_sent_to_log_in(client, two_player_game):
    assert client.get(url(two_player_game)).status_code == 302


def test_a_player_cannot_act_out_of_turn_or_for_someone_else(client, two_player_game, players):
    vox, mara = players
    game = two_player_game
    client.force_login(mara)
    mine = Piece.objects.get(game=game, player__user=mara, kind="drone")
    r = post_act(client, game, "place", piece=mine.pk)
    assert r.status_code == 422 and "vox&#x27;s go" in r.content.decode()
    theirs = Piece.objects.get(game=game, player__user=vox, kind="drone")
    r = post_act(client, game, "place", piece=theirs.pk)
    assert r.status_code == 422
    game.refresh_from_db()
    assert game.turn == 1 and not Piece.objects.filter(game=game, placed=True).exists()
    client.force_login(vox)
    r = post_act(client, game, "place", piece=mine.pk)  # vox's turn, mara's drone
    assert r.status_code == 422 and "your own drones" in r.content.decode()


def test_bad_input_is_a_422_not_a_500(client, two_player_game, players):
    client.force_login(players[0])
    for data in ({"piece": "abc"}, {"piece": "999999"}, {}):
        assert post_act(client, two_player_game, "place", **data).status_code == 422
    assert post_act(client, two_player_game, "nonsense").status_code == 422
    r = client.post(url(two_player_game, "soylent-game-act"), {"kind": "pass", "version": "x"}, **HTMX)
    assert r.status_code == 409


def test_stale_form_answers_409_with_the_fresh_board(client, two_player_game, players):
    vox, _ = players
    game = two_player_game
    client.force_login(vox)
    drone = Piece.objects.get(game=game, player__user=vox, kind="drone")
    stale = game.version
    first = client.post(url(game, "soylent-game-act"), {"kind": "place", "piece": drone.pk, "version": stale}, **HTMX)
    second = client.post(url(game, "soylent-game-act"), {"kind": "place", "piece": drone.pk, "version": stale}, **HTMX)
    assert first.status_code == 200 and second.status_code == 409
    assert "moved on" in second.content.decode()
    assert Event.objects.filter(game=game, kind="place").count() == 1


def test_without_htmx_actions_redirect_and_errors_become_messages(client, two_player_game, players):
    vox, mara = players
    client.force_login(mara)
    r = post_act(client, two_player_game, "pass", htmx=False)
    assert r.status_code == 302
    page = client.get(r["Location"]).content.decode()
    assert "not the panic phase" in page or "go, not yours" in page


# --- htmx --------------------------------------------------------------------


def test_board_partial_and_poll(client, two_player_game, players):
    client.force_login(players[1])
    game = two_player_game
    r = client.get(url(game), **HTMX)
    body = r.content.decode()
    assert r.status_code == 200 and "<html" not in body and 'id="board"' in body
    assert 'hx-trigger="every 5s"' in body and "HX-Request" in r["Vary"]
    unchanged = client.get(url(game) + f"?version={game.version}", **HTMX)
    assert unchanged.status_code == 204
    assert client.get(url(game) + f"?version={game.version - 1}", **HTMX).status_code == 200


# --- the game page shows the board -------------------------------------------


def test_game_page_shows_turn_order_whose_turn_panic_and_odds(client, two_player_game, players):
    game = placed(two_player_game, players)
    vox, mara = players
    client.force_login(vox)
    page = client.get(url(game)).content.decode()
    assert "Turn 3: vox to play" in page
    assert re.search(r"Turn order: .*vox.*→.*mara", page)
    # Eyes, Nerve 3, no panic: a D8 of 4-8 snaps -> 62.5%; Gardeners Nerve 6 -> 25%
    assert "next panic snaps on 62.5%" in page and "next panic snaps on 25.0%" in page
    assert "Activate P1K" in page and "Activate W1K" not in page


def test_list_page_creates_a_game_and_the_invitee_joins(client, players, make_set):
    vox, mara = players
    mine = make_set(vox, "Pale Hands")
    theirs = make_set(mara, "Watchers", "eyes")
    client.force_login(vox)
    r = client.post(reverse("soylent-game-list"), {"drone_set": mine.pk, "players": "mara"})
    game = Game.objects.get()
    assert r.status_code == 302 and r["Location"] == url(game)
    r = client.post(reverse("soylent-game-list"), {"drone_set": theirs.pk, "players": "mara"})
    assert r.status_code == 422 and "own drone sets" in r.content.decode()
    client.force_login(mara)
    listing = client.get(reverse("soylent-game-list")).content.decode()
    assert "choose your drone set" in listing
    assert client.post(url(game, "soylent-game-join"), {"drone_set": mine.pk}).status_code == 302
    assert not game.players.get(user=mara).joined  # someone else's set is refused
    client.post(url(game, "soylent-game-join"), {"drone_set": theirs.pk})
    assert game.players.get(user=mara).joined
    r = client.post(url(game, "soylent-game-start"), {"first": "0"}, **HTMX)
    assert r.status_code == 422 and "Only the player who set up" in r.content.decode()
    client.force_login(vox)
    client.post(url(game, "soylent-game-start"), {"first": "1"})
    game.refresh_from_db()
    assert game.status == Game.PLAYING and game.current_seat == 1


def test_undo_button_for_the_maker_only(client, two_player_game, players):
    vox, mara = players
    game = two_player_game
    client.force_login(vox)
    post_act(client, game, "place", piece=Piece.objects.get(game=game, player__user=vox, kind="drone").pk)
    assert "Undo your last change" in client.get(url(game)).content.decode()
    client.force_login(mara)
    assert "Undo your last change" not in client.get(url(game)).content.decode()
    assert post_act(client, game, "undo").status_code == 422
    client.force_login(vox)
    assert post_act(client, game, "undo").status_code == 200
    game.refresh_from_db()
    assert game.current_seat == 0 and "undone" in client.get(url(game)).content.decode()


# --- secrecy -----------------------------------------------------------------


def _alone(code: str, page: str) -> list:
    return list(re.finditer(rf"(?<![A-Za-z0-9]){code}(?![A-Za-z0-9])", page))


def _token_markup(page: str, code: str) -> str:
    match = re.search(r'<li class="sg-token[^"]*">\s*<span class="sg-code">' + code + r"</span>.*?</li>", page, re.S)
    assert match, code
    return match.group(0)


@pytest.mark.parametrize("stage", ["before placing", "placed", "in the panic phase"])
def test_another_player_cannot_tell_the_true_token(client, two_player_game, players, stage):
    vox, mara = players
    game = two_player_game
    if stage != "before placing":
        game = placed(game, players)
    if stage == "in the panic phase":
        posted.play(game.pk, vox, game.version, "activate", {"piece": str(Piece.objects.get(game=game, code="P1K").pk)})
    client.force_login(vox)
    # CSRF tokens (64 random letters and digits) may hold a token's code by chance: they are not the board
    pages = [
        re.sub(r"[A-Za-z0-9]{64}", "", client.get(url(game)).content.decode()),
        re.sub(r"[A-Za-z0-9]{64}", "", client.get(url(game), **HTMX).content.decode()),
    ]
    mara_tokens = list(Piece.objects.filter(game=game, player__user=mara, kind="token"))
    true_code = next(t.code for t in mara_tokens if t.is_true)
    for page in pages:
        # every occurrence of the true code, with what surrounds it, looks like a false code's (a code standing
        # alone: an all-digit code such as 4677 may sit inside a number or a static file's hash by chance)
        for t in mara_tokens:
            assert len(_alone(t.code, page)) == len(_alone(true_code, page))
        around = [m.start() for m in _alone(true_code, page)]
        for start in around:
            window = page[start - 200 : start + 200].lower()
            assert "true" not in window.replace("sg-code", "").replace(true_code.lower(), "")
        false_code = next(t.code for t in mara_tokens if not t.is_true)
        assert _token_markup(page, true_code).replace(true_code, "X") == _token_markup(page, false_code).replace(
            false_code, "X"
        )
        assert "your key" not in _token_markup(page, true_code)
        assert "<!--" not in page
    # the owner's page holds no key either; holding the button fetches it, for the owner only
    client.force_login(mara)
    own = client.get(url(game)).content.decode()
    assert len(_alone(true_code, own)) == len(_alone(next(t.code for t in mara_tokens if not t.is_true), own))
    key = client.get(reverse("soylent-game-key", args=[game.pk]), **HTMX).content.decode()
    assert f'true token <span class="sg-code">{true_code}</span>' in key


def test_the_log_and_errors_never_name_an_unrevealed_truth(client, two_player_game, players):
    vox, mara = players
    game = placed(two_player_game, players)
    client.force_login(vox)
    mara_true = Piece.objects.get(game=game, player__user=mara, is_true=True)
    mara_false = Piece.objects.filter(game=game, player__user=mara, kind="token", is_true=False).first()
    answers = [post_act(client, game, "replace", piece=p.pk).content.decode() for p in (mara_true, mara_false)]
    # the same refusal for the true and a false token of another player
    assert [a.count("only replace your own true token") for a in answers] == [1, 1]
    log = " ".join(" ".join(e.payload["lines"]) for e in Event.objects.filter(game=game))
    assert "TRUE" not in log and "true token" not in log.replace("the most morally", "")


def test_a_revealed_true_token_is_public(client, two_player_game, players):
    vox, mara = players
    game = placed(two_player_game, players)
    client.force_login(mara)
    mara_true = Piece.objects.get(game=game, player__user=mara, is_true=True)
    assert post_act(client, game, "replace", piece=mara_true.pk).status_code == 200
    client.force_login(vox)
    page = client.get(url(game)).content.decode()
    assert "revealed: TRUE" in _token_markup(page, mara_true.code)
    assert page.count("revealed: false") == 4


# --- query budget ------------------------------------------------------------


@pytest.fixture
def three_player_game(players, make_user, make_set):
    vox, mara = players
    zed = make_user("zed")
    game = services.create_game(vox, make_set(vox, "Pale Hands", "gardeners", drones=2), ["mara", "zed"])
    services.join(game.pk, mara, make_set(mara, "Watchers", "eyes", drones=2))
    services.join(game.pk, zed, make_set(zed, "Dolls", "mannikins", drones=2))
    return services.start(game.pk, vox, 0)


@pytest.fixture
def two_player_game_2_drones(players, make_set):
    vox, mara = players
    game = services.create_game(vox, make_set(vox, "Pale Hands", "gardeners", drones=2), ["mara"])
    services.join(game.pk, mara, make_set(mara, "Watchers", "eyes", drones=2))
    return services.start(game.pk, vox, 0)


def _play_a_little(game):
    players = list(game.players.select_related("user"))
    for p in players:
        game.refresh_from_db()
        drone = Piece.objects.filter(game=game, player=p, kind="drone").first()
        posted.play(game.pk, p.user, game.version, "place", {"piece": str(drone.pk)})


@pytest.mark.parametrize("size", [2, 3])
def test_game_page_query_budget(client, request, size, django_assert_num_queries):
    game = request.getfixturevalue("two_player_game_2_drones" if size == 2 else "three_player_game")
    _play_a_little(game)
    client.force_login(game.creator)
    # user (the first page after signing in; the session from the cache), game, players+users, pieces, events+actors
    with django_assert_num_queries(5):
        r = client.get(url(game))
    assert r.status_code == 200
    # the same version again (another seat's poll): the rows are shared through the cache, the user kept there
    with django_assert_num_queries(0):
        assert client.get(url(game), **HTMX).status_code == 200
    client.force_login(game.players.exclude(user=game.creator).first().user)
    with django_assert_num_queries(1):  # the user, on the first page after signing in
        assert client.get(url(game), **HTMX).status_code == 200


# --- rolls are final (SG10), the Snapped effect (SG12), the pusher (SG13) -----------------------


def _fix_seed(monkeypatch, *faces):
    from tests.games.soylent_ghoul.play.test_services import seed_rolling

    seed = seed_rolling(*faces)
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: seed)


def test_no_undo_button_after_a_roll_and_the_page_says_why(client, two_player_game, players, monkeypatch):
    vox, mara = players
    game = placed(two_player_game, players)
    client.force_login(vox)
    post_act(client, game, "activate", piece=Piece.objects.get(game=game, code="P1K").pk)
    assert "Undo your last change" in client.get(url(game)).content.decode()  # no dice yet
    _fix_seed(monkeypatch, 1)
    post_act(client, game, "panic", piece=Piece.objects.get(game=game, code="W1K").pk, effect="forward")
    page = client.get(url(game)).content.decode()
    assert "Undo your last change" not in page
    assert "Your last change cannot be undone: it rolled dice, and a roll is final." in page
    answer = post_act(client, game, "undo")
    assert answer.status_code == 422 and "a roll is final" in answer.content.decode()
    assert Piece.objects.get(game=game, code="W1K").panic == 1
    # the pusher may record that the Character it pushed went into a fatal area (SG13)
    assert 'name="kind" value="fatal"' in page and page.count('id="fatal-piece"') == 1
    fatal_form = page.split('id="fatal-piece"')[1].split("</select>")[0]
    assert "W1K" in fatal_form and "W1M" not in fatal_form


def test_the_snapped_gardeners_owner_gets_the_effect_form(client, players, make_set, monkeypatch):
    vox, mara = players
    game = services.create_game(vox, make_set(vox, "Pale Hands", "gardeners", drones=2), ["mara"])
    services.join(game.pk, mara, make_set(mara, "Watchers", "eyes", drones=2))
    game = services.start(game.pk, vox, 0)
    for user in (vox, mara, vox, mara):
        game.refresh_from_db()
        drone = Piece.objects.filter(game=game, player__user=user, kind="drone", placed=False).first()
        posted.play(game.pk, user, game.version, "place", {"piece": str(drone.pk)})
    for user, kind, data in (
        (vox, "activate", {"piece": Piece.objects.get(game=game, code="P2K").pk}),
        (vox, "pass", {}),
        (mara, "pass", {}),
    ):
        game.refresh_from_db()
        posted.play(game.pk, user, game.version, kind, {k: str(v) for k, v in data.items()})
    # the Lighter form: a light level and a box for every other Character on the table (SG14)
    client.force_login(vox)
    page = client.get(url(game)).content.decode()
    lighter = page.split('value="lighter"')[1].split("</form>")[0]
    assert 'name="level"' in lighter and lighter.count('name="lit"') == 19  # 20 tokens on the table, less P2K
    assert "gains one too" in lighter
    w1k = Piece.objects.get(game=game, code="W1K")
    assert post_act(client, game, "perform", action="lighter", level="3", lit=["nope"]).status_code == 422
    assert post_act(client, game, "perform", action="lighter", level="3", lit=[str(w1k.pk)]).status_code == 200
    page = client.get(url(game)).content.decode()
    assert "Lantern number (light level): 3" in page and page.count("1 light token") == 2
    assert 'value="give-panic"' not in page  # Lighter gives no panic tokens
    assert post_act(client, game, "end-turn").status_code == 200
    game.refresh_from_db()
    posted.play(game.pk, mara, game.version, "activate", {"piece": str(Piece.objects.get(game=game, code="W1M").pk)})
    client.force_login(mara)
    _fix_seed(monkeypatch, 7, 8)
    post_act(client, game, "panic", piece=Piece.objects.get(game=game, code="P1N").pk, effect="spin")
    page = client.get(url(game)).content.decode()
    assert "waiting for <strong>vox</strong> to mark who is out of the light" in page
    assert 'value="dark"' not in page and 'value="pass"' not in page
    client.force_login(vox)
    page = client.get(url(game)).content.decode()
    dark = page.split('value="dark"')[1].split("</form>")[0]
    assert dark.count('type="checkbox"') == 2 and "W1K" in dark and "P2K" in dark
    assert "Snaps within 5 tokens on 100%" in dark  # Eyes, Nerve 3: the 4th token always Snaps
    assert "Pale Hands 2: no lantern number" in page
    assert post_act(client, game, "dark", piece="abc").status_code == 422
    assert post_act(client, game, "dark", piece=str(Piece.objects.get(game=game, code="W1M").pk)).status_code == 422
    _fix_seed(monkeypatch, 1, 1, 1, 1, 1)
    p2k = Piece.objects.get(game=game, code="P2K")
    assert post_act(client, game, "dark", piece=[str(p2k.pk)]).status_code == 200
    game.refresh_from_db()
    assert game.snap_effects == [] and Piece.objects.get(game=game, code="P2K").panic == 5


def test_a_redeal_warns_of_the_games_still_played_with_the_set(client, two_player_game, players):
    from games.soylent_ghoul.play.models import Game, Player

    vox, _ = players
    drone_set = Player.objects.get(game=two_player_game, user=vox).drone_set
    client.force_login(vox)
    url = f"/games/soylent/sets/{drone_set.pk}/redeal/"
    page = client.get(url).content.decode()
    assert "A game is still being played with this set:" in page
    assert f'<a href="{two_player_game.get_absolute_url()}">Soylent Ghoul game {two_player_game.pk}</a>' in page
    answer = client.post(url, follow=True).content.decode()
    assert f"Soylent Ghoul game {two_player_game.pk} is still being played with this set" in answer
    # a finished game, or a set in none, says nothing of it
    Game.objects.filter(pk=two_player_game.pk).update(status=Game.FINISHED)
    assert "still being played" not in client.get(url).content.decode()


def test_the_organiser_invites_again_when_the_only_other_player_left(client, players, make_set, make_user):
    from games.soylent_ghoul.play import services

    vox, mara = players
    game = services.create_game(vox, make_set(vox, "Pale Hands", "gardeners"), ["mara"])
    services.decline(game.pk, mara)
    client.force_login(vox)
    page = client.get(f"/games/soylent/games/{game.pk}/").content.decode()
    assert "A game needs at least two players: invite someone to start it." in page
    assert "Start the game" not in page and 'name="username"' in page
    invite = f"/games/soylent/games/{game.pk}/invite/"
    assert (
        "There is no user called &#x27;nobody&#x27;."
        in client.post(invite, {"username": "nobody"}, **HTMX).content.decode()
    )
    make_user("ada")
    answer = client.post(invite, {"username": " Ada "}, **HTMX)
    assert (
        answer.status_code == 200 and "ada: " in answer.content.decode() and "Start the game" in answer.content.decode()
    )
    assert [(p.user.username, p.seat) for p in game.players.order_by("seat")] == [("vox", 0), ("ada", 1)]
    assert "ada is already in the game." in client.post(invite, {"username": "ada"}, **HTMX).content.decode()
    # only the organiser invites, and only before the game starts
    client.force_login(mara)
    assert client.post(invite, {"username": "mara"}).status_code == 404  # not a player of the game any more
