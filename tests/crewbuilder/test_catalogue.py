"""The catalogue holds every entry of the rules text with its numbers.

The expected tables below are copied by hand from
../shared/rules/cybernekro-core-rules-1.1.3.txt, not from the data file.
"""

import io
import json
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from catalogue.loader import load_catalogues, rules_entries
from crewbuilder.models import GameSystem, Item, RulesEntry, Trait

CATALOGUE_DIR = Path(__file__).resolve().parents[2] / "catalogue" / "data"
DATA = json.loads((CATALOGUE_DIR / "cybernekro-1.1.3.json").read_text())
OTHER = {data["system"]: data for data in (json.loads(p.read_text()) for p in CATALOGUE_DIR.glob("*.json"))}


def by_slug(section):
    return {e["slug"]: e for e in DATA[section]}


# name: (hands, kind, damage, range, keywords, cost, small)
WEAPONS = {
    "fists": (1, "melee", 1, None, ["Feeble"], 0, False),
    "improvised weapon": (1, "melee", 1, None, [], 0, False),
    "knife": (1, "melee", 1, None, ["Thrown"], 1, True),
    "sword": (1, "melee", 2, None, ["Parry"], 4, False),
    "axe": (1, "melee", 2, None, ["Piercing 2"], 4, False),
    "hammer/mace": (1, "melee", 2, None, ["Stagger"], 4, False),
    "whip": (1, "melee", 1, None, ["Reach"], 2, False),
    "energy weapon": (1, "melee", 3, None, ["Energy"], 7, False),
    "brutal weapon": (1, "melee", 3, None, ["Brutal", "Heavy 1"], 6, False),
    "heavy weapon": (2, "melee", 3, None, ["Heavy 2", "Stagger"], 5, False),
    "spear": (2, "melee", 2, None, ["Reach", "Thrown"], 5, False),
    "polearm": (2, "melee", 2, None, ["Piercing 2", "Reach"], 5, False),
    "arcane blade": (2, "melee", 3, None, ["Parry", "Electric"], 7, False),
    "industrial tool": (2, "melee", 3, None, ["Brutal", "Overkill", "Piercing 2", "Unwieldy"], 6, False),
    "staff": (2, "melee", 2, None, [], 3, False),
    "pistol": (1, "ranged", 2, 12, ["Reliable"], 6, False),
    "auto pistol": (1, "ranged", 2, 12, ["Auto 2"], 7, False),
    "heavy pistol": (1, "ranged", 3, 12, ["Stagger"], 9, False),
    "energy pistol": (1, "ranged", 3, 10, ["Energy", "Unstable"], 7, False),
    "archeogun": (1, "ranged", 3, 10, ["Brutal", "Piercing 1"], 10, False),
    "crossbow": (2, "ranged", 2, 18, ["Piercing 2", "Reliable", "Reload"], 6, False),
    "rifle": (2, "ranged", 2, 24, ["Reliable"], 8, False),
    "auto rifle": (2, "ranged", 2, 24, ["Auto 2"], 9, False),
    "heavy rifle": (2, "ranged", 3, 24, ["Heavy 1", "Stagger"], 9, False),
    "energy rifle": (2, "ranged", 3, 18, ["Energy", "Unstable"], 9, False),
    "new age musket": (2, "ranged", 3, 36, ["Piercing 3", "Reload"], 10, False),
    "chain gun": (2, "ranged", 3, 24, ["Auto 3", "Stagger", "Unwieldy"], 10, False),
    "shotgun": (2, "ranged", 3, 12, ["Short-ranged"], 7, False),
    "arc weapon": (2, "ranged", 2, 8, ["Electric"], 7, False),
    "flamethrower": (2, "ranged", 2, 6, ["Fire", "Splash"], 8, False),
    "grenade launcher": (2, "ranged", 4, 18, ["Reload", "Splash"], 10, False),
    "excavation laser": (2, "ranged", 3, 8, ["Heavy 2", "Overkill", "Short-ranged"], 10, False),
}
# (number as printed, name, cost)
TRAITS = [
    (1, "BIG", 5),
    (2, "SMALL", 5),
    (3, "SORCERER", 10),
    (4, "AMBIDEXTROUS", 5),
    (5, "DEFORMED", 3),
    (6, "LONG ARMS", 5),
    (7, "EXTRA LIMBS", 3),
    (11, "LOBOTOMISED", 3),
    (9, "MULTI-HEADED", 5),
    (10, "BESTIAL", 0),
    (11, "DEMONIC", 3),
    (12, "INSPIRING", 5),
    (13, "UNPREDICTABLE", -3),
    (14, "JINXED", 2),
    (15, "DARKBORN", 5),
    (16, "ONE-SHOTTER", -5),
    (17, "RECKLESS SPRINTER", 5),
    (18, "DRIVEN BY MADNESS", 5),
    (19, "ARTIFICIAL", 8),
    (20, "WITHERED", -5),
    (21, "GIFTED", 10),
]
# (number, name, cost, // A)
BODY_MODS = [
    (1, "Neural cabling", 5, False),
    (2, "Mechanical claw", 2, True),
    (3, "Jump augmentation", 5, True),
    (4, "Extra organs", 5, False),
    (5, "Excessive neural cabling", 5, False),
    (6, "Auto senses", 5, True),
    (7, "Stim injectors", 5, False),
    (8, "Reinforced body", 5, True),
    (9, "Augmented arms", 3, True),
    (10, "Roly-poly system", 5, True),
]
# name: (cost, small, single use)
EQUIPMENT = {
    "rope and hook": (1, False, False),
    "spot light": (2, False, False),
    "lantern": (2, False, False),
    "night vision goggles": (3, False, False),
    "lockpicks": (2, False, False),
    "cyber-jack": (2, False, False),
    "mind concealer": (2, False, False),
    "trauma kit": (2, False, True),
    "gas mask": (1, False, False),
    "repair kit": (3, False, False),
    "esoteric concoction": (2, True, True),
    "extra ammo": (1, True, True),
    "gas grenade": (2, True, True),
}
# name: (cost, kind, armor points, items)
ARMOR = {
    "light armor": (4, "armor", 1, 1),
    "medium armor": (8, "armor", 2, 1),
    "heavy armor": (12, "armor", 3, 2),
    "powered armor": (24, "armor", 4, 1),
    "shield": (3, "shield", 0, 1),
    "tower shield": (8, "shield", 0, 2),
    "stealth suit": (10, "suit", 0, 1),
    "hazard suit": (4, "suit", 0, 1),
}
SORCERIES = [
    "Bolt",
    "Shield",
    "Heal",
    "Leech",
    "Scream",
    "Nightmares",
    "Speed",
    "Kinesis",
    "Sleep",
    "Technomancy",
    "Pacify",
    "Gut Twist",
    "Prescience",
    "Mind Control",
    "Invisibility",
    "Combust",
    "Explode Head",
    "Reality Warp",
    "Fry",
    "Black Ink",
]
COMPLICATIONS = [
    "Darkness",
    "Partial darkness",
    "Noxious air",
    "Extreme temperature",
    "Ammo deficit",
    "Hallucinogenic pollen",
    "Electric discharges",
    "Firebug swarms",
    "Tremors",
    "Psychic disturbance",
    "Slippery ground",
    "Fog",
    "No complication",
]


def slug(name):
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def test_header():
    assert (DATA["system"], DATA["name"], DATA["edition"]) == ("cybernekro", "Cybernekr0", "1.1.3")


def test_every_weapon():
    weapons = by_slug("weapons")
    assert set(weapons) == {slug(n) for n in WEAPONS}
    for name, (hands, kind, damage, rng, keywords, cost, small) in WEAPONS.items():
        w = weapons[slug(name)]
        assert (w["name"], w["hands"], w["kind"], w["damage"], w["range"], w["keywords"], w["cost"], w["small"]) == (
            name,
            hands,
            kind,
            damage,
            rng,
            keywords,
            cost,
            small,
        ), name
    assert weapons["fists"]["purchasable"] is False and "purchasable" not in weapons["improvised-weapon"]


def test_trait_numbers_as_printed():
    assert [(t["number"], t["name"], t["cost"]) for t in DATA["traits"]] == TRAITS
    assert by_slug("traits")["lobotomised"]["list_position"] == 8


def test_trait_effects():
    t = by_slug("traits")
    assert t["big"]["attributes"] == {"toughness": 2} and t["small"]["attributes"] == {"toughness": -2}
    assert t["withered"]["attributes"] == {"strength": -1, "agility": -1, "toughness": -1}
    assert t["gifted"]["attributes"] == dict.fromkeys(
        ["strength", "toughness", "agility", "intellect", "discipline"], 1
    )
    assert (
        t["deformed"]["choice"]["raise"] == 2 and t["extra-limbs"]["carry_bonus"] == 1 and t["bestial"]["ap_cap"] == 4
    )


def test_every_body_mod():
    assert [(m["number"], m["name"], m["cost"], m["artificial"]) for m in DATA["body_mods"]] == BODY_MODS


def test_every_equipment_item():
    items = by_slug("equipment")
    assert {i["name"]: (i["cost"], i["small"], i["single_use"]) for i in items.values()} == EQUIPMENT


def test_every_armor():
    armor = by_slug("armor")
    assert {a["name"]: (a["cost"], a["kind"], a["armor"], a["items"]) for a in armor.values()} == ARMOR
    assert armor["heavy-armor"]["move_modifier"] == -1 and armor["powered-armor"]["gas_mask"] is True
    assert armor["hazard-suit"]["gas_mask"] is True and armor["hazard-suit"]["armor_against"] == {
        "Electric": 4,
        "Fire": 4,
    }


def test_keywords_sorceries_and_tables():
    keywords = by_slug("keywords")
    assert len(keywords) == 19 and keywords["heavy-x"]["has_x"] and not keywords["reach"]["has_x"]
    assert [(s["number"], s["name"]) for s in DATA["sorceries"]] == list(enumerate(SORCERIES, start=1))
    assert by_slug("sorceries")["bolt"]["range"] == 12 and by_slug("sorceries")["gut-twist"]["range"] == 8
    assert [c["name"] for c in DATA["complications"]] == COMPLICATIONS
    assert [(e["number"], e["name"]) for e in DATA["environment_effects"]] == list(
        enumerate(
            ["Darkness", "Partial darkness", "Noxious air", "Tremors", "Hallucinogenic pollen", "No effect"], start=1
        )
    )
    assert [r["number"] for r in DATA["neural_overload"]] == [1, 3, 5, 7, 9]
    assert [(r["number"], r["name"]) for r in DATA["damage_table"]] == [
        (3, "Light Injury"),
        (6, "Serious Injury"),
        (9, "Critical Injury"),
        (12, "Lethal Injury"),
    ]
    scenarios = {s["name"]: s["draws_complication"] for s in DATA["scenarios"]}
    assert scenarios == {"Quick start scenario": False, "Exploration": True, "Prisoner": True, "Stop the Ritual": True}


# name: range in inches as printed (None: the text names no range)
SORCERY_RANGES = {
    "Bolt": 12,
    "Shield": 6,
    "Heal": 6,
    "Leech": 1,
    "Scream": 6,
    "Nightmares": 12,
    "Speed": 6,
    "Kinesis": 6,
    "Sleep": None,
    "Technomancy": 12,
    "Pacify": 6,
    "Gut Twist": 8,
    "Prescience": None,
    "Mind Control": 8,
    "Invisibility": 6,
    "Combust": 12,
    "Explode Head": 8,
    "Reality Warp": 6,
    "Fry": 6,
    "Black Ink": 6,
}
# name: (armor, agility, strength, toughness, intellect, discipline, [(kind, damage, range, keywords)], abilities)
NPCS = {
    "TOMB BOTS": (4, 0, 2, 2, 0, 2, [("melee", 3, None, [])], ["Unstoppable", "Artificial"]),
    "FLESH DRONES": (0, 0, -1, 4, -2, 0, [("melee", 2, None, [])], ["Unstoppable"]),
    "RABID MACHINE": (
        5,
        0,
        4,
        6,
        -2,
        0,
        [("melee", 3, None, ["Stagger"]), ("ranged", 3, 6, ["Energy"])],
        ["Monstrous", "Terrifying", "Artificial"],
    ),
    "ANCIENT HORROR": (
        2,
        0,
        6,
        6,
        2,
        0,
        [("melee", 3, None, ["Brutal", "Overkill"])],
        ["Monstrous", "Maddening Terror"],
    ),
}


def test_sorcery_ranges():
    assert {s["name"]: s["range"] for s in DATA["sorceries"]} == SORCERY_RANGES


def test_npcs():
    found = {}
    for n in DATA["npcs"]:
        a = n["attributes"]
        found[n["name"]] = (
            n["armor"],
            a["agility"],
            a["strength"],
            a["toughness"],
            a["intellect"],
            a["discipline"],
            [(x["kind"], x["damage"], x["range"], x["keywords"]) for x in n["attacks"]],
            [ability["name"] for ability in n["abilities"]],
        )
    assert found == NPCS


def test_every_entry_has_the_common_keys_and_a_valid_slug():
    for section, entries in DATA.items():
        if isinstance(entries, list):
            for e in entries:
                assert {"slug", "name", "cost", "text", "section"} <= set(e), (section, e)
                assert isinstance(e["cost"], int)
                assert e["slug"] == slug(e["name"])


# ---- loader, export, admin (database)


def run(*args):
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_loadcatalogue_is_idempotent_and_prints_counts():
    first = run("loadcatalogue")
    assert "weapons 32 (32 new, 0 updated)" in first
    counts = Item.objects.count(), Trait.objects.count()
    second = run("loadcatalogue")
    assert "weapons 32 (0 new, 0 updated)" in second
    assert (Item.objects.count(), Trait.objects.count()) == counts == (53, 21)


@pytest.mark.django_db
def test_export_prints_the_whole_catalogue_from_the_database():
    run("loadcatalogue")
    system = GameSystem.objects.get(slug="cybernekro")
    Item.objects.create(
        system=system,
        slug="chainsword",
        name="chainsword",
        cost=9,
        category="weapon",
        kind="melee",
        hands=1,
        damage=3,
        keywords=["Brutal"],
    )
    exported = json.loads(run("catalogue", "export", "--system", "cybernekro"))
    house = exported["weapons"][-1]
    assert house["slug"] == "chainsword" and house["house_rule"] is True and house["damage"] == 3
    exported["weapons"].pop()
    assert exported == DATA


@pytest.mark.django_db
def test_export_on_an_empty_database_loads_first():
    assert json.loads(run("catalogue", "export", "--system", "cybernekro")) == DATA


@pytest.mark.django_db
def test_loader_keeps_house_rules(tmp_path):
    run("loadcatalogue")
    system = GameSystem.objects.get(slug="cybernekro")
    Item.objects.filter(system=system, slug="sword").update(house_rule=True, cost=99)
    Item.objects.create(system=system, slug="laser-lance", name="laser lance", category="weapon", cost=11)
    run("loadcatalogue")
    assert Item.objects.get(system=system, slug="sword").cost == 99
    assert Item.objects.filter(slug="laser-lance").exists()


@pytest.mark.django_db
def test_crew_rules_edited_as_house_rules_survive_a_reload():
    run("loadcatalogue")
    system = GameSystem.objects.get(slug="cybernekro")
    system.rules = {**system.rules, "budget": 200}
    system.save()
    run("loadcatalogue")
    system.refresh_from_db()
    assert system.rules["budget"] == 150  # not ticked: the data file wins, as for entries
    system.rules = {**system.rules, "budget": 200}
    system.rules_are_house_rules = True
    system.save()
    run("loadcatalogue")
    system.refresh_from_db()
    assert system.rules["budget"] == 200


@pytest.mark.django_db
def test_editing_the_crew_rules_bumps_the_catalogue_version():
    from catalogue.loader import snapshot_for_system
    from crewbuilder.crew_service import create_crew
    from crewbuilder.models import Crew

    run("loadcatalogue")
    system = GameSystem.objects.get(slug="cybernekro")
    assert snapshot_for_system(system).rules["budget"] == 150  # cached for this version
    before = system.catalogue_version
    system.rules = {**system.rules, "budget": 200}
    system.save()
    assert system.catalogue_version == before + 1
    assert GameSystem.objects.get(pk=system.pk).catalogue_version == before + 1
    owner = get_user_model().objects.create_user("org")
    crew = create_crew(owner=owner, system=GameSystem.objects.get(pk=system.pk), name="Big game")
    assert Crew.objects.get(pk=crew.pk).budget == 200


@pytest.mark.django_db
def test_other_and_broken_files_never_crash_the_loader(tmp_path):
    (tmp_path / "broken.json").write_text("{nope")
    (tmp_path / "noheader.json").write_text("[]")
    (tmp_path / "soylent-ghoul-1.json").write_text(
        json.dumps(
            {
                "system": "soylent-ghoul",
                "name": "Soylent Ghoul",
                "edition": "1",
                "drones": [{"slug": "eye", "name": "Eye", "nerve": 6}, {"slug": "nameless"}],
                "Bad Section": [{"slug": "x", "name": "X"}],
                "traits": [{"slug": "hungry", "name": "Hungry", "cost": 2}],
            }
        )
    )
    results = load_catalogues(tmp_path)
    assert [r.loaded for r in results] == [False, False, True]
    assert Trait.objects.get(slug="hungry").system.slug == "soylent-ghoul"
    eye = RulesEntry.objects.get(part="drones")
    assert (eye.slug, eye.name, eye.effects, eye.house_rule) == ("eye", "Eye", {"nerve": 6}, False)
    assert "entry 2: needs a slug and a name; skipped" in results[2].messages
    assert "Bad Section: no catalogue table for this section; skipped" in results[2].messages


@pytest.mark.django_db
def test_other_games_sections_load_as_rules_entries():
    run("loadcatalogue")
    groups = rules_entries("soylent-ghoul", "ghoul_groups")
    assert [g["name"] for g in groups] == [g["name"] for g in OTHER["soylent-ghoul"]["ghoul_groups"]]
    assert groups[0]["nerve"] == OTHER["soylent-ghoul"]["ghoul_groups"][0]["nerve"]
    # the same slug in two sections of one file is two rows, not a clash
    assert {e["slug"] for e in rules_entries("ghoul-role", "difficulties")} == {
        e["slug"] for e in OTHER["ghoul-role"]["difficulties"]
    }
    assert len(rules_entries("ghoul-role", "vile_difficulties")) == len(OTHER["ghoul-role"]["vile_difficulties"])
    assert rules_entries("ghoul-role", "no-such-part") == [] and rules_entries("no-such-game", "x") == []
    # a reload changes nothing; an edited row is kept as a house rule
    RulesEntry.objects.filter(part="ghoul_groups", slug=groups[0]["slug"]).update(house_rule=True, text="ours")
    run("loadcatalogue")
    assert RulesEntry.objects.get(part="ghoul_groups", slug=groups[0]["slug"]).text == "ours"
    assert RulesEntry.objects.filter(part="ghoul_groups").count() == len(groups)


@pytest.mark.django_db
def test_cybernekro_export_has_no_rules_entries():
    run("loadcatalogue")
    assert json.loads(run("catalogue", "export", "--system", "cybernekro")) == DATA


@pytest.mark.django_db
def test_staff_adds_a_house_rule_weapon_in_the_admin(client, make_user):
    run("loadcatalogue")
    admin = make_user("boss", is_staff=True, is_superuser=True)
    client.force_login(admin)
    system = GameSystem.objects.get(slug="cybernekro")
    response = client.get("/admin/crewbuilder/item/add/")
    assert response.status_code == 200
    assert response.context["adminform"].form["house_rule"].value() is True  # ticked by default
    response = client.post(
        "/admin/crewbuilder/item/add/",
        {
            "system": system.pk,
            "slug": "chainsword",
            "name": "chainsword",
            "cost": 9,
            "purchasable": "on",
            "text": "",
            "section": "",
            "effects": "{}",
            "house_rule": "on",
            "position": 0,
            "category": "weapon",
            "kind": "melee",
            "hands": 1,
            "damage": 3,
            "keywords": '["Brutal"]',
            "items": 1,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    item = Item.objects.get(slug="chainsword")
    assert item.house_rule and item.label == "chainsword (house rule)"
    listing = client.get("/admin/crewbuilder/item/").content.decode()
    assert "chainsword (house rule)" in listing


@pytest.mark.django_db
def test_admin_refuses_a_malformed_house_rule_weapon(client, make_user):
    run("loadcatalogue")
    admin = make_user("boss", is_staff=True, is_superuser=True)
    client.force_login(admin)
    system = GameSystem.objects.get(slug="cybernekro")
    response = client.post(
        "/admin/crewbuilder/item/add/",
        {
            "system": system.pk,
            "slug": "bad-gun",
            "name": "bad gun",
            "cost": 9,
            "purchasable": "on",
            "text": "",
            "section": "",
            "effects": "{}",
            "house_rule": "on",
            "position": 0,
            "category": "weapon",
            "kind": "ranged",
            "hands": 3,
            "damage": 3,
            "keywords": '"Reach"',
            "items": 1,
        },
    )
    assert response.status_code == 200  # the form again, with its errors
    errors = response.context["adminform"].form.errors
    assert set(errors) == {"hands", "range", "keywords"}
    assert not Item.objects.filter(slug="bad-gun").exists()
