"""Battles play by the database's Cybernekr0 catalogue, house rules included (battles/roster.py installs it in
the engine at start): a row edited or added in the admin reaches the set-up form, the board and the engine."""

import json

import pytest
from django.core.cache import cache
from django.db.models import F

from battles import roster, services
from catalogue.loader import export_catalogue
from crewbuilder.models import GameSystem, Npc, Scenario, Sorcery
from crewbuilder.models.catalogue import CURRENT_VERSIONS_KEY
from rules.cybernekro.battle import catalogue as battle_catalogue
from rules.cybernekro.battle import codec, legal, npcs
from rules.odds import CATALOGUE_FILE
from tests.clients import logged_in

from .conftest import advance, post_step

pytestmark = pytest.mark.django_db

# the sections the battle code reads (rules/cybernekro/battle, battles/)
SECTIONS = ("scenarios", "complications", "environment_effects", "npcs", "sorceries", "equipment")


def test_the_loaded_catalogue_gives_battles_what_the_bundled_file_gives(catalogue):
    bundled = json.loads(CATALOGUE_FILE.read_text(encoding="utf-8"))
    exported = export_catalogue(catalogue)
    assert {s: exported[s] for s in SECTIONS} == {s: bundled[s] for s in SECTIONS}
    # what the engine reads in the app: the database's, not the bundled file
    assert battle_catalogue.data() == exported and battle_catalogue.data() is not battle_catalogue.file_data()


def test_a_house_rule_scenario_is_offered_set_up_and_played(catalogue, user, other_user, geared_crew):
    Scenario.objects.create(
        system=catalogue, slug="data-heist", name="Data heist", effects={"rounds": 4, "terminals": 2}
    )
    crew, me = geared_crew(user), logged_in(user)
    assert '<option value="data-heist">Data heist (house rule)</option>' in me.get("/battles/").content.decode()
    battle = services.create_battle(user, "data-heist", crew.pk, [other_user.username])
    services.join(battle.pk, other_user, geared_crew(other_user).pk)
    services.start(battle.pk, user, seed=2)
    battle.refresh_from_db()
    played = codec.loads(battle.state).scenario
    assert (played.slug, played.name, played.rounds, len(played.terminals)) == ("data-heist", "Data heist", 4, 2)
    assert "Data heist" in me.get("/battles/").content.decode().split('id="mine-heading"')[1]
    Scenario.objects.filter(slug="data-heist").delete()  # the group drops its house rule mid-game
    page = me.get(f"/battles/{battle.pk}/")
    assert page.status_code == 200 and "Data heist" in page.content.decode()  # played on as its state holds it


def test_an_npc_edited_in_the_admin_enters_the_table_as_edited(catalogue):
    bots = Npc.objects.get(system=catalogue, slug="tomb-bots")
    assert npcs.npc_model("tomb-bots", "npc-1").toughness == bots.attributes["toughness"] == 2
    bots.name, bots.attributes = "Tomb guardians", {**bots.attributes, "toughness": 5}
    bots.effects = {**bots.effects, "model_name": "Tomb Guardian"}  # one model's name ("Place a Tomb Bot")
    bots.save()  # as the admin saves it: the catalogue's version is bumped
    model = npcs.npc_model("tomb-bots", "npc-1", 2)
    assert (model.name, model.toughness) == ("Tomb Guardian 2", 5)
    bots.effects = {}
    bots.save()  # without a model name, the section's own, as the rules head it
    assert npcs.npc_model("tomb-bots", "npc-1").name == "Tomb Guardians"


def test_another_workers_change_is_read_once_its_version_is_bumped(started, catalogue, user, django_assert_num_queries):
    started()
    me = logged_in(user)
    assert "Quick start scenario" in me.get("/battles/").content.decode()
    # another worker renames the scenario: the rows and the version change, and the shared cache forgets the
    # version (GameSystem.bump_catalogue_version); nothing of this process is told
    Scenario.objects.filter(system=catalogue, slug="quick-start-scenario").update(name="Terminal war")
    with django_assert_num_queries(0):
        assert roster.rules_catalogue()["scenarios"][0]["name"] == "Quick start scenario"  # this request's
    GameSystem.objects.filter(pk=catalogue.pk).update(catalogue_version=F("catalogue_version") + 1)
    cache.delete(CURRENT_VERSIONS_KEY)
    page = me.get("/battles/").content.decode()
    assert "Terminal war" in page and "Quick start scenario" not in page


def test_a_sorcery_renamed_in_the_admin_is_chosen_by_its_new_name(
    catalogue, user, other_user, password, geared_crew, make_crew
):
    from tests.crewbuilder.conftest import LEGAL

    Sorcery.objects.filter(system=catalogue, slug="scream").update(name="Howl of the machine")
    catalogue.bump_catalogue_version()
    witches = [{"name": f"Witch {i}", "attributes": dict(LEGAL), "traits": ["sorcerer"]} for i in range(2)]
    battle = services.create_battle(
        user, "quick-start-scenario", make_crew(user, name="Witches", characters=witches).pk, [other_user.username]
    )
    services.join(battle.pk, other_user, geared_crew(other_user).pk)
    services.start(battle.pk, user, seed=2)
    for index, u in enumerate((user, other_user)):
        services.choose_initiative(battle.pk, u, model=f"{index}-0")
    me, clients = logged_in(user), {"0": logged_in(user), "1": logged_in(other_user)}
    advance(battle, clients, lambda s: s.phase.value == "sorceries")
    advance(battle, clients, lambda s: legal.legal(s, "0"))
    assert '<option value="scream">Howl of the machine</option>' in me.get(f"/battles/{battle.pk}/").content.decode()
    assert post_step(me, battle, "choose_sorcery:0-0", sorcery="scream").status_code == 200
    assert "Howl of the machine" in me.get(f"/battles/{battle.pk}/").content.decode()
