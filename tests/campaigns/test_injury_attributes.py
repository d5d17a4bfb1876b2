"""An injury (any campaign change to an attribute) is kept apart from the creation placement (reading C10).

The creation check judges the attributes as created; everything played (reports, sheets, PDFs, battles,
capacity) reads the effective value: creation + campaign changes + traits."""

import json
import re

import pytest
from django.urls import reverse

from campaigns import history_text, services
from campaigns.models import HistoryEntry
from crewbuilder import crew_service
from crewbuilder.crewfile import EXIT_VALID, check_crew_file, export_crew, import_crew_file
from crewbuilder.models import Character, Crew, Trait
from tests.campaigns.effects import rolled_effect
from tests.crewbuilder.conftest import LEGAL

pytestmark = pytest.mark.django_db


@pytest.fixture
def crews(campaign, user, other_user, make_crew):
    """Organiser and one player, each with an enrolled crew of three LEGAL characters (Toughness +1)."""
    services.invite(campaign, user, other_user.username)
    services.respond(campaign, other_user, accept=True)

    def crew(owner, name):
        specs = [{"name": f"{name} {i}", "attributes": dict(LEGAL), "gear": ["sword"]} for i in (1, 2, 3)]
        return services.enrol(campaign, owner, make_crew(owner, name=name, characters=specs))

    return crew(user, "Saints"), crew(other_user, "Sinners")


def _effect(campaign, user, character, rows="1-6 | Cracked ribs | toughness -1"):
    return rolled_effect(campaign, user, character, rows, seed=5)


def _counted_game(campaign, user, mine, theirs, today, *, effects=(), casualties=()):
    game = services.record_game(
        campaign,
        user,
        played_on=today,
        scenario="Exploration",
        participants=[
            {"crew": mine, "treasure": 0, "effects": list(effects), "casualties": list(casualties)},
            {"crew": theirs, "treasure": 0},
        ],
        winner=mine,
    )
    services.confirm_game(game, user, for_everyone=True)
    return game


def _report(entry):
    return crew_service.report_for(Crew.objects.with_everything().get(pk=entry.crew_id))


def _injure(campaign, user, crews, today, rows="1-6 | Cracked ribs | toughness -1"):
    mine, theirs = crews
    hurt = mine.crew.characters.first()
    _counted_game(campaign, user, mine, theirs, today, effects=[_effect(campaign, user, hurt, rows)])
    hurt.refresh_from_db()
    return hurt


def test_an_injured_campaign_crew_stays_valid(campaign, user, crews, today):
    hurt = _injure(campaign, user, crews, today)
    # the creation placement is untouched; the injury is kept apart
    assert {a: getattr(hurt, a) for a in LEGAL} == LEGAL
    assert hurt.attribute_changes == {"toughness": -1}
    report = _report(crews[0])
    assert report["valid"], report["errors"]
    sheet = next(c for c in report["characters"] if c["name"] == hurt.name)
    assert sheet["attributes"]["toughness"] == LEGAL["toughness"] - 1
    assert sheet["attributes"]["strength"] == LEGAL["strength"]


def test_an_injury_below_the_creation_range_is_no_error(campaign, user, crews, today):
    # Discipline -2 is the lowest a new character may have; an injury takes it to -3 in play.
    hurt = _injure(campaign, user, crews, today, rows="1-6 | Shell shock | discipline -1")
    report = _report(crews[0])
    assert report["valid"], report["errors"]
    assert next(c for c in report["characters"] if c["name"] == hurt.name)["attributes"]["discipline"] == -3
    assert hurt.discipline == LEGAL["discipline"]


def test_an_injury_to_strength_lowers_carrying_capacity(campaign, user, crews, today):
    hurt = _injure(campaign, user, crews, today, rows="1-6 | Torn arm | strength -2")
    sheet = next(c for c in _report(crews[0])["characters"] if c["name"] == hurt.name)
    assert sheet["carry"]["max"] == 5 + LEGAL["strength"] - 2


def test_traits_apply_on_top_of_the_injury(campaign, user, crews, today):
    mine, _ = crews
    hurt = mine.crew.characters.first()
    hurt.traits.create(trait=Trait.objects.get(system=campaign.system, slug="big"), position=0)  # Toughness +2
    hurt = _injure(campaign, user, crews, today)
    report = _report(mine)
    assert report["valid"], report["errors"]
    sheet = next(c for c in report["characters"] if c["name"] == hurt.name)
    assert sheet["attributes"]["toughness"] == LEGAL["toughness"] + 2 - 1


def test_the_pages_show_the_effective_value(client, campaign, user, crews, today):
    hurt = _injure(campaign, user, crews, today)
    client.force_login(user)
    page = client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
    assert f'<strong>{hurt.name}</strong> <span class="muted">STR +2 TOU +0 AGI +1 INT -1 DIS -2</span>' in page
    page = client.get(reverse("crew-detail", args=[crews[0].crew_id])).content.decode()
    row = re.search(rf">{re.escape(hurt.name)}</a></th>.*?</tr>", page, re.S)
    assert row is not None
    cells = re.findall(r'<td class="num">([^<]*)</td>', row.group(0))
    assert cells[:5] == ["+2", "+0", "+1", "-1", "-2"]


def test_the_roster_pdf_prints_the_injury(campaign, user, crews, today):
    from crewbuilder import pdf
    from crewbuilder.validation import crew_to_data

    hurt = _injure(campaign, user, crews, today)
    crew = Crew.objects.with_everything().get(pk=crews[0].crew_id)
    context = pdf.roster_context(crew_to_data(crew), crew_service.report_for(crew), pdf.Catalogue.from_db(crew.system))
    card = next(c for c in context["cards"] if c["name"] == hurt.name)
    assert next(a["value"] for a in card["attributes"] if a["name"] == "toughness") == "0"  # was +1
    assert context["status"]["state"] == "valid"  # the sheet does not say "Not valid"


def test_the_battle_snapshot_plays_the_injury(campaign, user, crews, today):
    from battles.roster import snapshot

    hurt = _injure(campaign, user, crews, today)
    played = snapshot(Crew.objects.with_everything().get(pk=crews[0].crew_id))
    assert next(c for c in played["characters"] if c["id"] == hurt.pk)["attributes"]["toughness"] == 0


def test_reversing_the_injury_takes_the_change_off(campaign, user, crews, today):
    hurt = _injure(campaign, user, crews, today)
    services.reverse_entry(HistoryEntry.objects.get(kind="effect"), user)
    hurt.refresh_from_db()
    assert hurt.attribute_changes == {}
    assert {a: getattr(hurt, a) for a in LEGAL} == LEGAL
    assert hurt.notes == ""


def test_the_history_says_what_the_injury_changed(campaign, user, crews, today):
    _injure(campaign, user, crews, today)
    entry = HistoryEntry.objects.get(kind="effect")
    assert (entry.before["toughness"], entry.after["toughness"]) == (1, 0)


def test_a_reversed_death_brings_the_injury_back(campaign, user, crews, today):
    mine, theirs = crews
    hurt = _injure(campaign, user, crews, today)
    _counted_game(
        campaign, user, mine, theirs, today, casualties=[{"character": hurt.pk, "name": hurt.name, "outcome": "dead"}]
    )
    death = HistoryEntry.objects.get(kind="death")
    said = " ".join(history_text.describe([death], services.catalogue_for(campaign))[0][1])
    assert "Toughness +0" in said  # the memorial profile as played
    services.reverse_entry(death, user)
    back = Character.objects.get(pk=hurt.pk)
    assert back.attribute_changes == {"toughness": -1}
    assert back.toughness == LEGAL["toughness"]
    assert _report(mine)["valid"]


def test_the_crew_file_keeps_the_creation_placement_and_the_change(campaign, user, crews, today):
    hurt = _injure(campaign, user, crews, today)
    text = export_crew(Crew.objects.with_everything().get(pk=crews[0].crew_id))
    data = json.loads(text)
    exported = next(c for c in data["characters"] if c["name"] == hurt.name)
    assert exported["attributes"] == LEGAL  # what crew-format.md defines: the creation placement
    assert exported["attribute_changes"] == {"toughness": -1}
    assert all("attribute_changes" not in c for c in data["characters"] if c["name"] != hurt.name)
    _, report, code = check_crew_file(text)
    assert code == EXIT_VALID and not report["warnings"], report
    assert next(c for c in report["characters"] if c["name"] == hurt.name)["attributes"]["toughness"] == 0
    copy, _ = import_crew_file(text, user)
    copy = Crew.objects.with_everything().get(pk=copy.pk)
    assert export_crew(copy) == text  # round trip
    assert copy.characters.get(name=hurt.name).attribute_changes == {"toughness": -1}


@pytest.mark.parametrize(
    "changes, where",
    [
        ({"luck": 1}, "characters[0].attribute_changes.luck"),
        ({"toughness": "-1"}, "characters[0].attribute_changes.toughness"),
        ([1], "characters[0].attribute_changes"),
    ],
)
def test_a_bad_attribute_change_in_a_file_is_bad_format(changes, where):
    character = {"name": "A", "attributes": dict(LEGAL), "traits": [], "body_mods": [], "gear": []}
    data = {
        "format": "crewbuilder.crew/1",
        "system": "cybernekro",
        "name": "X",
        "characters": [{**character, "attribute_changes": changes}, character, {**character, "name": "B"}],
    }
    _, report, _ = check_crew_file(json.dumps(data))
    assert report["errors"][0]["code"] == "bad-format"
    assert where in report["errors"][0]["message"]


def test_a_duplicate_keeps_the_change(campaign, user, crews, today):
    hurt = _injure(campaign, user, crews, today)
    copy = crew_service.duplicate(Crew.objects.with_everything().get(pk=crews[0].crew_id), user)
    assert copy.characters.get(name=hurt.name).attribute_changes == {"toughness": -1}


# --- crews injured before the changes were kept apart (campaigns/migrations/0006) ----------------


def _migration():
    import importlib

    return importlib.import_module("campaigns.migrations.0006_injuries_off_the_creation_attributes")


def test_the_migration_takes_old_injuries_off_the_creation_placement(campaign, user, crews, today):
    from django.apps import apps

    hurt = _injure(campaign, user, crews, today)
    Character.objects.filter(pk=hurt.pk).update(toughness=0, attribute_changes={})  # as the old code left it
    assert not _report(crews[0])["valid"]

    _migration().forwards(apps, None)

    hurt.refresh_from_db()
    assert (hurt.toughness, hurt.attribute_changes) == (LEGAL["toughness"], {"toughness": -1})
    assert _report(crews[0])["valid"]
    _migration().backwards(apps, None)
    hurt.refresh_from_db()
    assert (hurt.toughness, hurt.attribute_changes) == (0, {})


def test_the_migration_mends_the_rows_a_death_reversal_restores(campaign, user, crews, today):
    from django.apps import apps

    mine, theirs = crews
    hurt = _injure(campaign, user, crews, today)
    _counted_game(
        campaign, user, mine, theirs, today, casualties=[{"character": hurt.pk, "name": hurt.name, "outcome": "dead"}]
    )
    death = HistoryEntry.objects.get(kind="death")
    rows = death.before["rows"]
    rows["attributes"]["toughness"] = 0  # as the old code saved them
    del rows["attribute_changes"]
    death.save(update_fields=["before"])

    _migration().forwards(apps, None)
    services.reverse_entry(HistoryEntry.objects.get(pk=death.pk), user)

    back = Character.objects.get(pk=hurt.pk)
    assert (back.toughness, back.attribute_changes) == (LEGAL["toughness"], {"toughness": -1})
    assert _report(mine)["valid"]


def test_the_crew_page_says_what_the_campaign_changed(client, campaign, user, crews, today):
    hurt = _injure(campaign, user, crews, today)
    client.force_login(user)
    page = client.get(reverse("crew-detail", args=[crews[0].crew_id])).content.decode()
    sheet = page.split(f'id="c-{hurt.pk}"')[1].split("</section>")[0]
    assert "Changed in the campaign: Toughness -1" in sheet
    other = crews[0].crew.characters.exclude(pk=hurt.pk).first()
    assert "Changed in the campaign" not in page.split(f'id="c-{other.pk}"')[1].split("</section>")[0]


def test_a_death_is_an_edit_the_crew_lists_see(campaign, user, crews, today):
    """Lists show a crew's stored summary while its stamp (the version) holds: a death must change the version."""
    from crewbuilder import crew_summary

    mine, theirs = crews
    dead = mine.crew.characters.first()
    crew = Crew.objects.get(pk=mine.crew_id)
    crew_summary.refresh_stale([crew])  # as a list does
    assert crew_summary.is_fresh(Crew.objects.get(pk=crew.pk))
    _counted_game(
        campaign, user, mine, theirs, today, casualties=[{"character": dead.pk, "name": dead.name, "outcome": "dead"}]
    )
    assert not crew_summary.is_fresh(Crew.objects.get(pk=crew.pk))  # the next list counts the crew again
