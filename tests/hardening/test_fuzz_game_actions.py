"""Issue 17: every game action endpoint answers anything a client can POST
without a 500 (a refusal is a 4xx with a message, a move a 2xx or 3xx).

Each example is one POST by one of the game's players (or a stranger), with an
action name from the game's own list (or not) and fields named as the services
read them, holding real ids, junk, huge numbers or NUL bytes. Examples run one
after another on the same game, so the fuzzer walks the game through its states.
"""

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
JUNK = st.one_of(
    st.sampled_from(
        [
            "",
            " ",
            "0",
            "1",
            "2",
            "3",
            "6",
            "-1",
            "99999999999999999999999",
            "1e3",
            "nan",
            "NaN",
            "A1",
            "J10",
            "C3",
            "T20",
            "lake",
            "gray",
            "vox",
            "mara",
            "del",
            "brian",
            "true",
            "\x00",
            "1\x00",
        ]
    ),
    st.text(max_size=8),
    st.integers(-5, 400).map(str),
)


def _fields(data, ids, names, list_names=()):
    # The game's ids change as it moves on between examples, and Hypothesis wants the same strategy
    # from one example to the next: draw a flag and an index every time, then pick from today's ids.
    def one(label):
        known = data.draw(st.booleans(), label=f"{label}: a known id")
        index = data.draw(st.integers(0, 10**6), label=f"{label}: which")
        junk = data.draw(JUNK, label=label)
        return ids[index % len(ids)] if known and ids else junk

    post = {}
    for name in names:
        if data.draw(st.booleans(), label=f"has {name}"):
            post[name] = one(name)
    for name in list_names:
        if data.draw(st.booleans(), label=f"has {name}"):
            post[name] = [one(name) for _ in range(data.draw(st.integers(0, 4), label=f"{name}: how many"))]
    return post


def _check(response, post):
    event(f"status {response.status_code}")  # --hypothesis-show-statistics: how far the fuzzer got
    assert response.status_code < 500, (response.status_code, post)


@pytest.fixture
def stranger(make_user):
    return make_user("stranger")


@FUZZ
@given(data=st.data())
def test_soylent_game_actions(client, soylent_game, stranger, data):
    from games.soylent_ghoul.play.models import Game, Piece
    from games.soylent_ghoul.play.services import ACTIONS

    game = Game.objects.get(pk=soylent_game.pk)
    client.force_login(data.draw(st.sampled_from([p.user for p in game.players.all()] + [stranger])))
    ids = [str(pk) for pk in Piece.objects.filter(game=game).values_list("pk", flat=True)]
    post = {
        "kind": data.draw(st.one_of(st.sampled_from([*ACTIONS, "undo"]), JUNK), label="kind"),
        "version": data.draw(st.one_of(st.just(str(game.version)), JUNK), label="version"),
        **_fields(data, ids, ("piece", "effect", "action", "seer", "level", "reduction"), ("piece", "lit")),
    }
    _check(
        client.post(
            reverse("soylent-game-act", args=[game.pk]),
            post,
            HTTP_HX_REQUEST=data.draw(st.sampled_from(["true", None]), label="htmx") or "",
        ),
        post,
    )


@FUZZ
@given(data=st.data())
def test_ghoulash_game_actions(client, ghoulash_game, data):
    from games.ghoulash.models import Game
    from games.ghoulash.services import HANDLERS

    game = Game.objects.get(pk=ghoulash_game.pk)
    client.force_login(data.draw(st.sampled_from([p.user for p in game.players.all()])))
    ids = [str(pk) for pk in game.tokens.values_list("pk", flat=True)]
    for p in game.players.all():  # hands hold card ids (or {"id": ...})
        ids += [str(c.get("id") if isinstance(c, dict) else c) for c in p.hand + p.wounds]
    post = {
        "action": data.draw(st.one_of(st.sampled_from(list(HANDLERS)), JUNK), label="action"),
        **_fields(
            data,
            ids,
            ("card", "token", "tokens", "to_tile", "my_tile"),
            ("cards", "parry", "reveal", "targets", "value", "on_square"),
        ),
    }
    _check(client.post(reverse("ghoulash-game-act", args=[game.pk]), post, HTTP_HX_REQUEST="true"), post)


@pytest.fixture
def trial(catalogue, make_user):
    from games.slasher_trial import services

    monster = make_user("vox")
    trial = services.create_trial(monster, "Night at the yard")
    for name in ("mara", "zed"):
        services.join(trial, make_user(name))
    return trial


@FUZZ
@given(data=st.data())
def test_trial_actions(client, trial, data):
    from games.slasher_trial.models import Trial
    from games.slasher_trial.services import MONSTER_ACTIONS, SURVIVOR_ACTIONS

    trial = Trial.objects.get(pk=trial.pk)
    users = [p.user for p in trial.participants.all()] if hasattr(trial, "participants") else [trial.creator]
    client.force_login(data.draw(st.sampled_from(users)))
    actions = [*SURVIVOR_ACTIONS, *MONSTER_ACTIONS, "generators", "location", "ready", "start", "advance"]
    post = {
        "action": data.draw(st.one_of(st.sampled_from(actions), JUNK), label="action"),
        "target": data.draw(JUNK, label="target"),
    }
    if data.draw(st.booleans(), label="act button"):
        post = {"act": f"{post['action']}:{post['target']}"}
    _check(
        client.post(
            reverse("trial-act", args=[trial.pk]),
            post,
            HTTP_HX_REQUEST=data.draw(st.sampled_from(["true", ""]), label="htmx"),
        ),
        post,
    )


@pytest.fixture
def sheet(catalogue, make_user):
    from games.ghoul_role import services

    goals = services.goals_for(services.catalogue(), "cave", "ghoul", "4-players", 4, None)
    return services.create_sheet(make_user("ghoul"), goals)


@FUZZ
@given(data=st.data())
def test_ghoul_role_actions(client, sheet, data):
    from games.ghoul_role.models import GhoulSheet
    from games.ghoul_role.services import ACTIONS

    client.force_login(sheet.owner)
    action = data.draw(st.sampled_from([*ACTIONS, "undo", "name"]), label="action")
    version = GhoulSheet.objects.get(pk=sheet.pk).version
    post = {
        "v": data.draw(st.one_of(st.just(str(version)), JUNK), label="v"),
        **_fields(
            data, [], ("card", "label", "pair", "source", "target", "use", "what", "why", "name", "kind"), ("keep",)
        ),
    }
    if action == "undo":
        url = reverse("ghoulrole-undo", args=[sheet.pk])
    elif action == "name":
        url = reverse("ghoulrole-card-name", args=[sheet.pk, data.draw(st.integers(0, 2**31), label="card id")])
    else:
        url = reverse("ghoulrole-action", args=[sheet.pk, action])
    _check(client.post(url, post, HTTP_HX_REQUEST=data.draw(st.sampled_from(["true", ""]), label="htmx")), post)
