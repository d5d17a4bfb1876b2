"""Issue 17, finding 4: every malformed odds request is a 400 naming the field
(``{"error": "..."}``, docs/odds.md), never a 500; good ones are 200."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import OddsRequestError, odds
from rules.odds import ATTACKER_KEYS, SITUATION_BOOLS, TARGET_KEYS
from tests.strategies import JSON, objects

URL = "/api/odds/"

WEAPON = st.one_of(
    JSON,
    st.sampled_from(["axe", "sword", "no-such"]),
    objects(("damage", "range", "keywords", "slug", "name"), required=("damage", "keywords")),
)
REQUESTS = st.one_of(
    JSON,
    objects(("roll", "modifier", "jinxed", "card", "reroll_success"), required=("roll",)),
    st.builds(
        lambda body, roll: {**body, "roll": roll},
        st.one_of(
            objects(("modifier", "jinxed", "card", "reroll_success")),
            objects(("dice", "keywords", "armor", "wounds", "prone", "shield")),
            objects(("dread", "discipline", "wounds", "allies_in_los", "traits", "nerve", "tokens", "dice")),
            st.fixed_dictionaries(
                {
                    "action": st.one_of(st.sampled_from(["fight", "shoot"]), JSON),
                    "attacker": st.one_of(objects(ATTACKER_KEYS), JSON),
                    "weapon": WEAPON,
                    "target": st.one_of(objects(TARGET_KEYS), JSON),
                },
                optional={"situation": st.one_of(objects(SITUATION_BOOLS + ("modifier",)), JSON)},
            ),
        ),
        st.one_of(
            st.sampled_from(["test", "damage", "attack", "neural-overload", "morale", "panic", "ghoul-dice"]), JSON
        ),
    ),
)


def _post(client, text: str):
    return client.post(URL, data=text, content_type="application/json")


def _check(response):
    assert response.status_code in (200, 400), (response.status_code, response.content[:300])
    body = response.json()
    if response.status_code == 400:
        assert set(body) == {"error"} and body["error"]


@pytest.mark.django_db
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(request=REQUESTS)
def test_no_odds_request_is_a_500(client, request):
    # json.dumps writes NaN and Infinity as bare words, as a careless client would.
    _check(_post(client, json.dumps(request)))


@pytest.mark.django_db
@pytest.mark.parametrize(
    "text, field",
    [
        ('{"roll": []}', "request.roll"),
        ('{"roll": {}}', "request.roll"),
        ('{"roll": "test", "modifier": ' + "9" * 5000 + "}", "not JSON: a whole number of 5000 digits"),
        ('{"roll": "test", "modifier": -' + "9" * 101 + "}", "not JSON: a whole number of 101 digits"),
        (
            '{"roll": "attack", "action": "shoot", "attacker": {}, "target": {}, '
            '"weapon": {"damage": 2, "range": NaN, "keywords": []}}',
            "NaN",
        ),
        (
            '{"roll": "attack", "action": "shoot", "attacker": {}, "target": {}, '
            '"weapon": {"damage": 2, "range": Infinity, "keywords": []}}',
            "Infinity",
        ),
        (
            '{"roll": "attack", "action": "shoot", "attacker": {}, "target": {}, '
            '"weapon": {"damage": 2, "range": 1e999, "keywords": []}}',
            "1e999",
        ),
        # a key given twice is refused rather than read as its last value
        ('{"roll": "test", "modifier": 2, "modifier": -3}', 'the key "modifier" is given twice'),
        ('{"roll": "damage", "dice": 2, "armor": 1, "armor": 0}', 'the key "armor" is given twice'),
    ],
)
def test_the_reviewers_requests_are_400s_naming_the_field(client, text, field):
    response = _post(client, text)
    assert response.status_code == 400
    assert field in response.json()["error"]


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf")])
def test_the_engine_refuses_a_range_that_is_not_a_finite_number(value):
    request = {
        "roll": "attack",
        "action": "shoot",
        "attacker": {},
        "target": {},
        "weapon": {"damage": 2, "range": value, "keywords": []},
    }
    with pytest.raises(OddsRequestError, match="weapon.range"):
        odds(request)
