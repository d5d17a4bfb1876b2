"""The four Ghoul groups as the drone sets read them from the catalogue.

The expected numbers are copied by hand from ../shared/rules/soylent-ghoul.txt
("Ghoul Groups."), not from the data file.
"""

import pytest

from catalogue.loader import rules_entries
from games.soylent_ghoul.sets import services

# group: (M, Nerve, action names, start of the Snapped effect)
GROUPS = {
    "scene-shifters": ("Scene Shifters", 3, 7, ["Scene", "Shift"], "Remove the Drone’s markers"),
    "eyes": ("Eyes", 12, 3, ["Check"], "Enemy Characters can use this Drone’s line of sight"),
    "mannikins": ("Mannikins", 24, 6, ["Become"], "Enemy Characters can use this Drone’s line of sight"),
    "gardeners": ("Gardeners", 3, 6, ["Lighter", "Darker"], "All Gardener drones take the Darker action"),
}


def test_rules_entries_hold_the_four_groups_in_the_rules_order(catalogue):
    assert [g["slug"] for g in rules_entries("soylent-ghoul", "ghoul_groups")] == list(GROUPS)


@pytest.mark.parametrize("slug", GROUPS)
def test_group_numbers_actions_and_snapped_from_the_rules_text(catalogue, slug):
    name, move, nerve, actions, snapped = GROUPS[slug]
    card = services.group_card(services.groups()[slug])
    assert (card["name"], card["move"], card["nerve"]) == (name, move, nerve)
    assert [a["name"] for a in card["actions"]] == actions
    assert all(a["text"] for a in card["actions"])
    assert card["snapped"].startswith(snapped)


def test_five_tokens_per_drone_and_four_suggested_drones(catalogue):
    # "For each drone they should have five tokens", "4 is a good number"
    assert services.tokens_per_drone() == 5
    assert services.suggested_drones() == 4


def test_a_house_rule_on_the_group_reaches_the_drone_sets(catalogue):
    from crewbuilder.models import RulesEntry

    row = RulesEntry.objects.get(part="ghoul_groups", slug="eyes")
    row.effects = {**row.effects, "nerve": 4}
    row.save()
    assert services.groups()["eyes"]["nerve"] == 4


def test_without_a_database_catalogue_the_shipped_file_answers(db):
    # No loadcatalogue: the data file shipped with the app gives the same numbers.
    assert {slug: (g["M"], g["nerve"]) for slug, g in services.groups().items()} == {
        slug: (row[1], row[2]) for slug, row in GROUPS.items()
    }
    assert services.tokens_per_drone() == 5
