"""Issue 17, finding 5: no crew file makes the import a 500. A file that is not
a crew file is refused with one ``bad-format`` error saying where; one that
reads but breaks crew rules is judged by them (crew-format.md)."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalogue.loader import catalogue_file_for
from crewbuilder.crewfile import check_crew_file
from crewbuilder.validation import CatalogueSnapshot
from tests.strategies import JSON, mostly, objects

NAMES = mostly(st.text(st.characters(categories=("L", "N", "Zs")), min_size=1, max_size=20), st.text(max_size=20))
ATTRS = ("strength", "toughness", "agility", "intellect", "discipline")
TRAIT = mostly(
    st.one_of(
        st.sampled_from(["big", "deformed", "small", "no-such"]),
        st.fixed_dictionaries(
            {"slug": st.sampled_from(["deformed", "big"])},
            optional={"raise": mostly(st.lists(mostly(st.sampled_from(ATTRS), JSON), min_size=1, max_size=3), JSON)},
        ),
    ),
    JSON,
)
SLUGS = st.lists(
    mostly(st.sampled_from(["sword", "axe", "light-armor", "neural-cabling", "no-such"]), JSON), max_size=3
)
CHARACTER = mostly(
    st.fixed_dictionaries(
        {
            "name": mostly(NAMES, JSON),
            "attributes": mostly(
                st.fixed_dictionaries({a: mostly(st.integers(-3, 4), JSON) for a in ATTRS}), objects(ATTRS)
            ),
            "traits": mostly(st.lists(TRAIT, max_size=3), JSON),
            "body_mods": mostly(SLUGS, JSON),
            "gear": mostly(SLUGS, JSON),
        },
        optional={"notes": mostly(NAMES, JSON)},
    ),
    JSON,
)
CYBERNEKRO = st.fixed_dictionaries(
    {
        "format": st.just("crewbuilder.crew/1"),
        "system": st.just("cybernekro"),
        "name": mostly(NAMES, JSON),
        "characters": mostly(st.lists(CHARACTER, max_size=3), JSON),
    },
    optional={
        "budget": mostly(st.integers(-10, 10**6), JSON),
        "notes": mostly(NAMES, JSON),
        "house_rules": mostly(st.lists(objects(("code", "character", "note")), max_size=2), JSON),
    },
)
DRONE = mostly(objects(("name", "tokens", "true_token"), mostly(NAMES, JSON)), JSON)
SOYLENT = st.fixed_dictionaries(
    {
        "format": st.just("crewbuilder.crew/1"),
        "system": st.just("soylent-ghoul"),
        "name": mostly(NAMES, JSON),
        "group": mostly(st.sampled_from(["eyes", "gardeners"]), JSON),
        "drones": mostly(st.lists(DRONE, max_size=4), JSON),
    },
)
FILES = st.one_of(CYBERNEKRO, SOYLENT, objects(("format", "system", "name", "characters", "drones")), JSON)


def _text(data) -> str:
    return json.dumps(data)  # NaN and Infinity written as bare words, as a careless program would


def _file_catalogue(system):
    return CatalogueSnapshot(catalogue_file_for(system))


@pytest.mark.django_db
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(data=FILES)
def test_no_crew_file_makes_the_import_a_500(client, catalogue, user, data):
    client.force_login(user)
    upload = SimpleUploadedFile("crew.json", _text(data).encode(), content_type="application/json")
    response = client.post(reverse("crew-import"), {"file": upload})
    assert response.status_code in (302, 422), response.status_code
    crew, report, _code = check_crew_file(_text(data), _file_catalogue)
    if crew is None and report["errors"][0]["code"] == "bad-format":
        assert len(report["errors"]) == 1 and report["errors"][0]["message"]


def _one_character(**changes):
    character = {
        "name": "Vox",
        "attributes": {"strength": 2, "toughness": 1, "agility": 1, "intellect": -1, "discipline": -2},
        "traits": ["big"],
        "body_mods": [],
        "gear": ["sword"],
        **changes,
    }
    return {"format": "crewbuilder.crew/1", "system": "cybernekro", "name": "Saints", "characters": [character]}


@settings(max_examples=300, deadline=None)
@given(
    field=st.sampled_from(["name", "attributes", "traits", "body_mods", "gear", "notes"]),
    value=st.one_of(
        JSON,
        st.lists(TRAIT, max_size=3),
        st.lists(st.fixed_dictionaries({"slug": st.just("deformed"), "raise": JSON}), max_size=2),
    ),
)
def test_one_wrong_field_in_a_good_crew_is_reported_never_raised(field, value):
    """A good crew with one field replaced: the reader or the rules judge it (the engine's own fuzz)."""
    _crew, report, _code = check_crew_file(_text(_one_character(**{field: value})), _file_catalogue)
    assert report["errors"] or report["valid"]
    bad = [e for e in report["errors"] if e["code"] == "bad-format"]
    assert not bad or (len(report["errors"]) == 1 and bad[0]["message"])


@pytest.mark.parametrize(
    "raised, where",
    [
        (["strength", ["agility"]], "characters[0].traits[0].raise[1]"),
        ([{"a": 1}, "strength"], "characters[0].traits[0].raise[0]"),
        ([["x"], ["y"]], "characters[0].traits[0].raise[0]"),
        ({"strength": 1}, "characters[0].traits[0].raise"),
        ("strength", "characters[0].traits[0].raise"),
    ],
)
def test_a_raise_holding_a_list_or_dict_is_bad_format_saying_where(raised, where):
    data = _one_character(traits=[{"slug": "deformed", "raise": raised}])
    _crew, report, _code = check_crew_file(json.dumps(data), _file_catalogue)
    assert [e["code"] for e in report["errors"]] == ["bad-format"]
    assert report["errors"][0]["message"].startswith(where + ":")


@pytest.mark.parametrize("raised", [["strength"], ["strength", "strength"], ["luck", "agility"], []])
def test_a_raise_of_names_the_rules_refuse_is_a_trait_choice(raised):
    data = _one_character(traits=[{"slug": "deformed", "raise": raised}])
    _crew, report, _code = check_crew_file(json.dumps(data), _file_catalogue)
    assert "trait-choice" in [e["code"] for e in report["errors"]]
