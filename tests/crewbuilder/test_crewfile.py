"""Crew files: reading (bad-format with where), hostile strings, import/export round trip."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalogue.loader import catalogue_file_for
from crewbuilder.crewfile import (
    EXIT_ERRORS,
    EXIT_UNREADABLE,
    EXIT_VALID,
    MAX_BYTES,
    ImportRefused,
    check_crew_file,
    export_crew,
    import_crew_file,
)
from crewbuilder.models import Crew
from crewbuilder.validation import CatalogueSnapshot

LEGAL = {"strength": 2, "toughness": 1, "agility": 0, "intellect": -1, "discipline": -1}


def crew_data(**overrides):
    data = {
        "format": "crewbuilder.crew/1",
        "system": "cybernekro",
        "name": "Saints of Rust",
        "budget": 150,
        "characters": [
            {
                "name": "Vox the Hollow",
                "attributes": dict(LEGAL),
                "traits": ["big", {"slug": "deformed", "raise": ["strength", "agility"]}],
                "body_mods": ["neural-cabling"],
                "gear": ["sword", "light-armor", "trauma-kit", "trauma-kit"],
                "notes": "found in the ossuary",
            },
            {"name": "Mara", "attributes": dict(LEGAL), "traits": [], "body_mods": [], "gear": ["rifle"]},
            {
                "name": "Ilse",
                "attributes": dict(LEGAL),
                "traits": ["small"],
                "body_mods": [],
                "gear": ["knife", "lantern", "knife"],
            },
        ],
    }
    data.update(overrides)
    return data


def file_catalogue(system):
    """The shipped data file as the catalogue: these reading tests need no database."""
    data = catalogue_file_for(system)
    return CatalogueSnapshot(data) if data else None


def check(data):
    raw = data if isinstance(data, (bytes, str)) else json.dumps(data)
    return check_crew_file(raw, snapshot_lookup=file_catalogue)


def bad_format_message(data):
    _, report, code = check(data)
    assert code == EXIT_UNREADABLE
    assert [e["code"] for e in report["errors"]] == ["bad-format"]
    return report["errors"][0]["message"]


def test_good_file_is_valid():
    _, report, code = check(crew_data())
    assert code == EXIT_VALID and report["valid"]


def test_not_json():
    assert "not JSON" in bad_format_message(b"{nope")


def test_a_key_given_twice_is_refused_not_read_as_its_last_value():
    text = json.dumps(crew_data(budget=10))[:-1] + ', "budget": 150}'
    assert bad_format_message(text.encode()) == 'the key "budget" is given twice'
    character = '{"name": "A", "name": "B"}'
    assert bad_format_message(f'{{"characters": [{character}]}}'.encode()) == 'the key "name" is given twice'


def test_unknown_fields_are_warnings_naming_each():
    data = crew_data(budjet=100, colour="red")
    data["characters"][1]["note"] = "misspelt"
    _, report, code = check(data)
    assert code == EXIT_VALID and report["valid"] and report["budget"] == 150
    assert [(w["code"], w["character"], w["message"]) for w in report["warnings"][:3]] == [
        ("unknown-field", None, '"budjet" is not a field of the crew file: it was ignored (did you mean "budget"?).'),
        ("unknown-field", None, '"colour" is not a field of the crew file: it was ignored.'),
        (
            "unknown-field",
            "Mara",
            '"note" is not a field of a character in the crew file: it was ignored (did you mean "notes"?).',
        ),
    ]
    assert not any(w["code"] == "unknown-field" for w in check(crew_data())[1]["warnings"])


def test_an_unknown_systems_report_shows_the_files_budget():
    _, report, _ = check(crew_data(system="mordheim", budget=100))
    assert report["budget"] == 100 and [e["code"] for e in report["errors"]] == ["unknown-system"]


def test_not_utf8():
    assert "UTF-8" in bad_format_message(b'{"format": "\xff"}')


def test_wrong_format():
    assert bad_format_message(crew_data(format="crewbuilder.crew/2")).startswith("format:")


def test_top_level_not_object():
    assert bad_format_message(b"[]").startswith("(top level)")


def test_missing_field_says_where():
    data = crew_data()
    del data["characters"][1]["attributes"]["agility"]
    assert bad_format_message(data) == "characters[1].attributes.agility: missing"


def test_mistyped_field_says_where():
    data = crew_data()
    data["characters"][2]["attributes"]["strength"] = "2"
    assert bad_format_message(data) == "characters[2].attributes.strength: expected an integer"


def test_a_negative_budget_says_what_it_must_be():
    assert bad_format_message(crew_data(budget=-1)) == "budget: expected an integer of at least 0"


def test_boolean_is_not_an_integer():
    data = crew_data()
    data["characters"][0]["attributes"]["strength"] = True
    assert "expected an integer" in bad_format_message(data)


def test_gear_must_be_strings():
    data = crew_data()
    data["characters"][0]["gear"] = ["sword", 3]
    assert bad_format_message(data).startswith("characters[0].gear[1]:")


def test_file_too_large():
    data = crew_data(name="x")
    raw = json.dumps(data).encode()
    raw = raw[:-1] + b', "padding": "' + b"a" * MAX_BYTES + b'"}'
    assert "256 KiB" in bad_format_message(raw)


def test_file_just_under_the_limit_is_read():
    raw = json.dumps(crew_data()).encode()
    padding = MAX_BYTES - len(raw) - len(b', "padding": ""')
    raw = raw[:-1] + b', "padding": "' + b"a" * padding + b'"}'
    assert len(raw) == MAX_BYTES
    assert check(raw)[2] == EXIT_VALID


def test_reading_follows_the_format_alone_long_texts_big_numbers_included():
    # crew-format.md: bad-format is "not JSON, wrong format, missing or mistyped field, file too large".
    # Names are the exception, refused by `crew validate` as by the import (reading 8a,
    # test_validate_agrees_with_import.py).
    data = crew_data(budget=50_000, notes="n" * 20_000)
    data["characters"][0]["notes"] = "y" * 20_000
    assert check(data)[2] == EXIT_VALID
    data["characters"][0]["attributes"]["strength"] = 100
    crew, report, code = check(data)
    assert code == EXIT_ERRORS and [e["code"] for e in report["errors"]] == ["attribute-modifiers", "attribute-range"]


@pytest.mark.parametrize("key", ["traits", "body_mods", "gear"])
def test_a_character_without_its_lists_is_bad_format(key):
    # crew-format.md names only budget and notes as optional.
    data = crew_data()
    del data["characters"][1][key]
    assert bad_format_message(data) == f"characters[1].{key}: missing"


@pytest.mark.parametrize("name", ["Vox\x00", "Vox\nMara", "\u202eVox"])
def test_hostile_names_are_bad_format(name):
    assert bad_format_message(crew_data(name=name)).startswith("name:")


def test_deep_nesting_is_bad_format_not_a_traceback():
    raw = (
        b'{"format": "crewbuilder.crew/1", "system": "cybernekro", "characters": '
        + b"[" * 50_000
        + b"]" * 50_000
        + b"}"
    )
    assert "nested too deeply" in bad_format_message(raw)


def test_deeply_nested_trait_choice_is_refused():
    data = crew_data()
    data["characters"][0]["traits"][1]["raise"] = [[[["strength"]]]]
    assert bad_format_message(data).startswith("characters[0].traits[1].raise[0][0][0]:")


def test_a_wrong_but_well_typed_trait_choice_is_a_rules_error():
    data = crew_data()
    data["characters"][0]["traits"][1]["raise"] = ["strength", "strength"]
    _, report, code = check(data)
    assert code == EXIT_ERRORS and [e["code"] for e in report["errors"]] == ["trait-choice"]


def test_a_mistyped_trait_choice_is_bad_format():
    data = crew_data()
    data["characters"][0]["traits"][1]["raise"] = {"strength": 1}
    assert bad_format_message(data).startswith("characters[0].traits[1].raise:")


def test_unpaired_surrogate_is_bad_format():
    data = crew_data()
    data["characters"][0]["traits"][1]["raise"] = ["\ud800", "strength"]
    assert "unpaired surrogate" in bad_format_message(json.dumps(data))


def test_markup_is_just_text():
    data = crew_data(name="<script>alert(1)</script>")
    crew, report, code = check(data)
    assert code == EXIT_VALID and crew["name"] == "<script>alert(1)</script>"


def test_unknown_system():
    _, report, code = check(crew_data(system="warhammer"))
    assert code == EXIT_ERRORS and [e["code"] for e in report["errors"]] == ["unknown-system"]


@pytest.mark.parametrize("slug", ["", "   ", "x" * 101, "Sword"])
def test_a_string_that_names_nothing_is_an_unknown_slug_not_bad_format(slug):
    """crew-format.md: `unknown-item` etc. for "a slug not in the catalogue"; bad-format is for mistyped fields."""
    data = crew_data()
    data["characters"][0]["gear"] = ["sword", slug]
    data["characters"][1]["traits"] = [slug]
    data["characters"][1]["body_mods"] = [slug]
    _, report, code = check(data)
    assert code == EXIT_ERRORS
    assert {"unknown-item", "unknown-trait", "unknown-body-mod"} <= {e["code"] for e in report["errors"]}
    assert "bad-format" not in {e["code"] for e in report["errors"]}


@pytest.mark.parametrize("system", ["", "x" * 101])
def test_an_empty_or_overlong_system_is_unknown(system):
    _, report, code = check(crew_data(system=system))
    assert (code, [e["code"] for e in report["errors"]]) == (EXIT_ERRORS, ["unknown-system"])


def test_budget_is_optional():
    data = crew_data()
    del data["budget"]
    assert check(data)[1]["budget"] == 150


# ---- import / export (database)


@pytest.fixture
def catalogue(db):
    from django.core.management import call_command

    call_command("loadcatalogue", stdout=open("/dev/null", "w"))


def loaded(crew):
    return Crew.objects.with_everything().get(pk=crew.pk)


def test_round_trip_is_exact(catalogue, user):
    data = crew_data(notes="crew notes")
    crew, _ = import_crew_file(json.dumps(data), user)
    assert json.loads(export_crew(loaded(crew))) == data


def test_gear_order_and_copies_are_kept(catalogue, user):
    data = crew_data()
    crew, _ = import_crew_file(json.dumps(data), user)
    ilse = loaded(crew).characters.all()[2]
    assert [(g.item.slug, g.copies) for g in ilse.gear.all()] == [("knife", 1), ("lantern", 1), ("knife", 1)]
    vox = loaded(crew).characters.all()[0]
    assert [(g.item.slug, g.copies) for g in vox.gear.all()][-1] == ("trauma-kit", 2)


def test_crew_breaking_rules_is_imported_with_its_report(catalogue, user):
    data = crew_data(budget=10)
    crew, report = import_crew_file(json.dumps(data), user)
    assert crew.pk and [e["code"] for e in report["errors"]] == ["over-budget"]


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["characters"][1]["gear"].append("bazooka"),
        lambda d: d["characters"][1]["traits"].append("lucky"),
        lambda d: d["characters"][1]["body_mods"].append("wings"),
        lambda d: d["characters"][1]["gear"].append("fists"),
        lambda d: d.update(system="warhammer"),
        lambda d: d["characters"][2].update(name=""),
    ],
)
def test_unstorable_crew_imports_nothing(catalogue, user, change):
    data = crew_data()
    change(data)
    with pytest.raises(ImportRefused):
        import_crew_file(json.dumps(data), user)
    assert Crew.objects.count() == 0


@pytest.mark.parametrize(
    "change, where",
    [
        (lambda d: d.update(notes="n" * 5_001), "notes: longer than 5000"),
        (lambda d: d["characters"][1].update(notes="n" * 5_001), "characters[1].notes: longer than 5000"),
        (lambda d: d.update(budget=10_001), "budget: above 10000"),
        (lambda d: d["characters"][1].update(notes="n" * 1_001), "characters[1].notes: longer than 1000"),
        (
            lambda d: d["characters"].extend(dict(d["characters"][1], name=f"Extra {i}") for i in range(10)),
            "characters: more than 12",
        ),
        (lambda d: d["characters"][1].update(gear=["knife"] * 23), "characters[1].gear: more than 22 items"),
        (lambda d: d["characters"][1].update(traits=["small"] * 22), "characters[1].traits: more than 21 traits"),
        (
            lambda d: d["characters"][1].update(body_mods=["neural-cabling"] * 11),
            "characters[1].body_mods: more than 10",
        ),
        (
            lambda d: d["characters"][0]["attributes"].update(strength=10),
            "characters[0].attributes.strength: outside -9..9",
        ),
    ],
)
def test_import_refuses_what_the_editor_could_not_hold(catalogue, user, change, where):
    # Readable and judged by `crew validate`, but stored only within the editor's limits,
    # so an imported crew can always be edited and exported again.
    data = crew_data()
    change(data)
    assert check(data)[2] in (EXIT_VALID, EXIT_ERRORS)
    with pytest.raises(ImportRefused) as refused:
        import_crew_file(json.dumps(data), user)
    assert refused.value.report["errors"][0]["code"] == "bad-format"
    assert refused.value.report["errors"][0]["message"].startswith(where)
    assert Crew.objects.count() == 0


def _at_the_rules_most():
    """Three legal crews, each with one character holding the most the rules allow of one thing."""
    rules = catalogue_file_for("cybernekro")

    def slugs(section):
        entries = rules[section]
        return list(entries) if isinstance(entries, dict) else [entry["slug"] for entry in entries]

    deformed = {"slug": "deformed", "raise": ["strength", "toughness"]}
    every_trait = [deformed if slug == "deformed" else slug for slug in slugs("traits")]
    strong = {"strength": 3, "toughness": -1, "agility": -1, "intellect": 0, "discipline": 0}
    most = {
        # every trait once: 15 + 74 points, the three that cost points back included
        "traits": {"traits": every_trait},
        "body_mods": {"body_mods": slugs("body_mods")},
        # Strength 3, Deformed and Gifted: 5; 5 + 5 + Extra limbs = 11 items, 22 small knives
        "gear": {"attributes": strong, "traits": [deformed, "gifted", "extra-limbs"], "gear": ["knife"] * 22},
    }
    for field, holding in most.items():
        data = crew_data()
        for character in data["characters"]:
            character.update(traits=[], body_mods=[], gear=[])
        data["characters"][0].update(holding)
        yield field, data


def test_a_legal_crew_at_the_rules_most_imports_and_is_valid(catalogue, user):
    held = {}
    for field, data in _at_the_rules_most():
        _, report, code = check(data)
        assert (code, [e["code"] for e in report["errors"]]) == (EXIT_VALID, []), field
        crew, imported = import_crew_file(json.dumps(data), user)
        assert imported["valid"] and json.loads(export_crew(loaded(crew))) == data
        held[field] = len(data["characters"][0][field])
        if field == "gear":
            assert report["characters"][0]["carry"] == {"used": 11, "max": 11}
    assert held == {"traits": 21, "body_mods": 10, "gear": 22}


def test_the_limits_are_the_editors_so_an_import_can_be_edited(catalogue, user):
    from crewbuilder import crew_edits, limits

    data = crew_data(budget=crew_edits.BUDGET_MAX, notes="n" * crew_edits.NOTES_MAX)
    data["characters"][0]["name"] = "x" * crew_edits.NAME_MAX
    data["characters"][0]["notes"] = "y" * limits.CHARACTER_NOTES_MAX
    data["characters"][0]["gear"] = ["knife"] * limits.GEAR_MAX_PER_CHARACTER
    data["characters"][1]["traits"] = ["small"] * limits.TRAITS_MAX_PER_CHARACTER
    data["characters"][1]["body_mods"] = ["neural-cabling"] * limits.BODY_MODS_MAX_PER_CHARACTER
    data["characters"].extend(
        dict(data["characters"][2], name=f"Extra {i}") for i in range(limits.CHARACTERS_MAX - len(data["characters"]))
    )
    crew, _ = import_crew_file(json.dumps(data), user)
    crew_edits.update_crew(crew, name="Renamed")
    character = crew.characters.order_by("position").first()
    crew_edits.update_character(crew, character=character.pk, notes=character.notes + "")
    assert Crew.objects.get(pk=crew.pk).name == "Renamed"


def test_import_is_one_transaction(catalogue, user, monkeypatch):
    from crewbuilder.models import CharacterGear

    def explode(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(CharacterGear.objects, "bulk_create", explode)
    with pytest.raises(RuntimeError):
        import_crew_file(json.dumps(crew_data()), user)
    assert Crew.objects.count() == 0


CATALOGUE = json.loads(
    (__import__("pathlib").Path(__file__).resolve().parents[2] / "catalogue/data/cybernekro-1.1.3.json").read_text()
)
TRAITS = [t["slug"] for t in CATALOGUE["traits"] if t["slug"] != "deformed"]
MODS = [m["slug"] for m in CATALOGUE["body_mods"]]
ITEMS = [i["slug"] for k in ("equipment", "armor", "weapons") for i in CATALOGUE[k] if i["slug"] != "fists"]
ATTRS = ("strength", "toughness", "agility", "intellect", "discipline")
names = st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=100).filter(
    lambda s: s.strip() and not set(s) & {chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]}
)


@st.composite
def any_character(draw):
    traits = draw(st.lists(st.sampled_from(TRAITS), max_size=3))
    if draw(st.booleans()):
        traits.append({"slug": "deformed", "raise": draw(st.lists(st.sampled_from(ATTRS), max_size=2))})
    character = {
        "name": draw(names),
        "attributes": {a: draw(st.integers(-3, 4)) for a in ATTRS},
        "traits": traits,
        "body_mods": draw(st.lists(st.sampled_from(MODS), max_size=3)),
        "gear": draw(st.lists(st.sampled_from(ITEMS), max_size=8)),
    }
    if draw(st.booleans()):
        character["notes"] = draw(names)
    return character


@st.composite
def any_crew(draw):
    return crew_data(
        name=draw(names),
        budget=draw(st.integers(0, 300)),
        characters=draw(st.lists(any_character(), min_size=0, max_size=8)),
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=any_crew())
def test_export_then_import_is_identical(catalogue, user, data):
    crew, _ = import_crew_file(json.dumps(data), user)
    exported = export_crew(loaded(crew))
    assert json.loads(exported) == data
    again, _ = import_crew_file(exported, user)
    assert export_crew(loaded(again)) == exported


def test_the_attackers_crew_file_is_refused_as_bad_format(catalogue, user):
    # Issue 17: 30 characters with 250 swords each fit in 256 KiB but would take
    # a worker minutes to print; the file is read and judged, never stored.
    data = crew_data()
    data["characters"] = [dict(data["characters"][1], name=f"C{i}", gear=["sword"] * 250) for i in range(30)]
    raw = json.dumps(data)
    assert len(raw) < 256 * 1024
    with pytest.raises(ImportRefused) as refused:
        import_crew_file(raw, user)
    [error] = refused.value.report["errors"]
    assert error["code"] == "bad-format"
    assert error["message"].startswith("characters: more than 12")
    assert Crew.objects.count() == 0
