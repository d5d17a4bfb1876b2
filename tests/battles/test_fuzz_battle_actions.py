"""Hypothesis fuzz of the Cybernekr0 battle's POST endpoints: no request, however wrong, gets a 500."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battles import services, steps
from battles.models import Battle
from rules.cybernekro.battle import codec, legal
from tests.crewbuilder.conftest import LEGAL, catalogue, geared_crew, make_crew  # noqa: F401  (shared fixtures)
from tests.fuzz_posts import FUZZ, JUNK, check_no_500

FIELDS = ("cover", "long_range", "surrounded", "in_melee", "modifier", "allies", "sign", "sorcery", "target", "test")


@pytest.fixture
def battle(user, other_user, geared_crew):
    crews = [geared_crew(u, 3, name=f"Crew of {u.username}") for u in (user, other_user)]
    made = services.create_battle(user, "quick-start-scenario", crews[0].pk, [other_user.username])
    services.join(made.pk, other_user, crews[1].pk)
    services.start(made.pk, user, seed=1)
    return made


@pytest.fixture
def stranger(make_user):
    return make_user("stranger")


@FUZZ
@given(data=st.data())
def test_battle_actions(client, battle, user, other_user, stranger, data):
    game = Battle.objects.get(pk=battle.pk)
    who = data.draw(st.sampled_from(["0", "1", "stranger"]), label="who")
    player = {"0": user, "1": other_user, "stranger": stranger}[who]
    client.force_login(player)
    state = codec.loads(game.state)
    options = [steps.key(o) for o in legal.legal(state, who)] if who in ("0", "1") else []
    known = data.draw(st.booleans(), label="a legal option")
    index = data.draw(st.integers(0, 10**6), label="which option")
    junk = data.draw(JUNK, label="option")
    post = {
        "v": data.draw(st.one_of(st.just(str(game.version)), JUNK), label="v"),
        "option": options[index % len(options)] if known and options else junk,
    }
    for name in FIELDS:
        if data.draw(st.booleans(), label=f"has {name}"):
            post[name] = data.draw(JUNK, label=name)
    endpoint = data.draw(st.sampled_from(["act", "initiative", "start", "join", "scenario"]), label="endpoint")
    if endpoint == "initiative":
        post["model"] = data.draw(st.one_of(st.sampled_from(["0-0", "1-0", "0-1"]), JUNK), label="model")
    if endpoint == "join":
        post["crew"] = data.draw(JUNK, label="crew")
    if endpoint == "scenario":
        post["scenario"] = data.draw(st.one_of(st.sampled_from(["prisoner", "campaign:1"]), JUNK), label="scenario")
    headers = {"HX-Request": "true"} if data.draw(st.booleans(), label="htmx") else {}
    check_no_500(client.post(f"/battles/{game.pk}/{endpoint}/", post, headers=headers), post)
