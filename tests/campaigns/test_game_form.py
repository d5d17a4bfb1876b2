"""The game form has one scenario picker (issue 19); drawing the agreed
scenario's Complication from it records nothing and keeps every choice."""

import re

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.forms import GameRecordForm
from campaigns.models import CampaignCrew, Game

pytestmark = pytest.mark.django_db


def test_one_scenario_picker(client, campaign, user, two_crews):
    client.force_login(user)
    html = client.get(reverse("game-create", args=[campaign.pk])).content.decode()
    assert 'name="pick"' not in html
    assert len(re.findall(r'<select[^>]*name="scenario"', html)) == 1
    assert 'name="draw" value="deck"' in html


def test_drawing_the_complication_of_the_chosen_scenario_keeps_the_form(client, campaign, user, two_crews):
    mine, theirs = two_crews
    services.create_scenario(campaign, user, name="Scrapyard Brawl", draws_complication=True)
    table = services.create_table(campaign, user, kind="injury", name="Scars", die="D6", rows_text="1-6 | Scarred")
    hurt = mine.crew.characters.first()
    client.force_login(user)
    response = client.post(
        reverse("game-create", args=[campaign.pk]),
        {
            "draw": "deck",
            "played_on": "2026-11-20",
            "scenario": "Scrapyard Brawl",
            "result": str(theirs.pk),
            f"played-{mine.pk}": "1",
            f"treasure-{mine.pk}": "3",
            f"outcome-{hurt.pk}": "ooa",
            f"table-{hurt.pk}": str(table.pk),
            "submission": "s" * 24,
        },
    )
    assert response.status_code == 200 and not Game.objects.exists()
    html = response.content.decode()
    assert "Agreed scenario: <strong>Scrapyard Brawl</strong>" in html
    assert "<p>Complication (" in html and "draws no Complication" not in html  # Scrapyard Brawl draws one
    assert '<option value="Scrapyard Brawl" selected>' in html
    assert f'name="result" value="{theirs.pk}" checked' in html
    assert f'name="played-{mine.pk}" value="1" checked' in html
    assert f'name="played-{theirs.pk}" value="1" checked' not in html  # unticked stays unticked
    assert f'name="treasure-{mine.pk}" value="3"' in html
    assert '<option value="ooa" selected>' in html
    assert f'<option value="{table.pk}" selected>' in html
    assert 'name="submission" value="' + "s" * 24 + '"' in html
    assert "&amp;pick=campaign%3A" in html  # the link to this draw replays it


def test_drawing_for_your_own_scenario_says_what_to_do(client, campaign, user, two_crews):
    client.force_login(user)
    response = client.post(
        reverse("game-create", args=[campaign.pk]),
        {"draw": "deck", "scenario": "Exploration", "scenario_other": "Bridge at dawn"},
    )
    assert response.status_code == 422 and not Game.objects.exists()
    html = response.content.decode()
    assert "for your own scenario, choose its Complication" in html and 'value="Bridge at dawn"' in html


@pytest.fixture
def table_rolls(monkeypatch):
    """Every die rolled on a campaign table, counted where the roll happens."""
    from campaigns.services import tables

    rolls = []
    real = tables.roll_table_die

    def counted(die, seed):
        rolls.append(die)
        return real(die, seed)

    monkeypatch.setattr(tables, "roll_table_die", counted)
    return rolls


def _form_with_a_table_roll(campaign, user, mine, theirs, **changes):
    table = services.create_table(campaign, user, kind="injury", name="Scars", die="D6", rows_text="1-6 | Scarred")
    hurt = mine.crew.characters.first()
    return {
        "played_on": "2026-11-20",
        "scenario": "Exploration",
        "result": str(mine.pk),
        f"played-{mine.pk}": "1",
        f"played-{theirs.pk}": "1",
        f"treasure-{mine.pk}": "2",
        f"table-{hurt.pk}": str(table.pk),
        **changes,
    }


@pytest.mark.parametrize(
    "changes",
    [
        {"result": ""},  # no winner
        {"played_on": "last Tuesday"},
        {"scenario": "", "scenario_other": ""},
        {"treasure-MINE": "lots"},
        {"played-THEIRS": ""},  # one crew only
    ],
    ids=["no-winner", "bad-date", "no-scenario", "bad-treasure", "one-crew"],
)
def test_an_invalid_game_form_rolls_nothing(client, campaign, user, two_crews, table_rolls, changes):
    mine, theirs = two_crews
    changes = {k.replace("MINE", str(mine.pk)).replace("THEIRS", str(theirs.pk)): v for k, v in changes.items()}
    client.force_login(user)
    response = client.post(
        reverse("game-create", args=[campaign.pk]), _form_with_a_table_roll(campaign, user, mine, theirs, **changes)
    )
    assert response.status_code == 422 and not Game.objects.exists()
    assert table_rolls == []


def test_a_valid_game_form_rolls_each_chosen_table_once(client, campaign, user, two_crews, table_rolls):
    mine, theirs = two_crews
    client.force_login(user)
    response = client.post(
        reverse("game-create", args=[campaign.pk]), _form_with_a_table_roll(campaign, user, mine, theirs)
    )
    assert response.status_code == 302 and Game.objects.count() == 1
    assert table_rolls == ["D6"]


def test_the_winner_choices_name_each_crews_player(client, campaign, user, other_user, geared_crew):
    """Two crews of one name (a crew file shared around the table) gave two identical "… won" choices."""
    services.invite(campaign, user, other_user.username)
    services.respond(campaign, other_user, accept=True)
    for player in (user, other_user):
        services.enrol(campaign, player, geared_crew(player, 3, name="Saints"))
    client.force_login(user)
    html = client.get(reverse("game-create", args=[campaign.pk])).content.decode()
    for player in (user, other_user):
        assert f'Saints won <span class="muted">({player.username})</span></label>' in html


def _won_by_mine(mine, theirs, treasure: str) -> dict:
    """A game both crews played, won by the organiser's, with ``treasure`` for it."""
    return {
        "played_on": "2026-11-20",
        "scenario": "Exploration",
        "result": str(mine.pk),
        f"played-{mine.pk}": "1",
        f"played-{theirs.pk}": "1",
        f"treasure-{mine.pk}": treasure,
    }


def test_a_negative_treasure_is_refused_not_changed(client, campaign, user, two_crews):
    mine, theirs = two_crews
    client.force_login(user)
    response = client.post(reverse("game-create", args=[campaign.pk]), _won_by_mine(mine, theirs, treasure="-3"))
    assert response.status_code == 422 and not Game.objects.exists()
    assert "Treasure for Saints cannot be negative." in response.content.decode()


@pytest.mark.parametrize("treasure", ["100", "99999", str(10**20)])
def test_more_treasure_than_a_game_gives_is_refused_with_a_message(client, campaign, user, two_crews, treasure):
    """The field's max of 99 was only the browser's: the server took 99,999 tokens (and a number
    too big for the database would have failed)."""
    mine, theirs = two_crews
    client.force_login(user)
    response = client.post(reverse("game-create", args=[campaign.pk]), _won_by_mine(mine, theirs, treasure))
    assert response.status_code == 422 and not Game.objects.exists()
    html = response.content.decode()
    assert "Treasure for Saints is at most 99 tokens." in html
    assert f'id="treasure-{mine.pk}" type="number" min="0" max="99"' in html


def test_a_new_game_form_shows_its_initial_values(campaign, user, two_crews):
    """What a pre-filled form (e.g. from a tracked battle) shows; without initial values every crew played."""
    mine, theirs = two_crews
    crews = list(CampaignCrew.objects.for_game_form(campaign))
    plain = GameRecordForm(crews=crews, tables=[]).shown()
    assert plain[f"played-{mine.pk}"] == plain[f"played-{theirs.pk}"] == "1" and "result" not in plain
    filled = GameRecordForm(
        crews=crews,
        tables=[],
        initial={"result": mine.pk, f"treasure-{mine.pk}": 3, f"played-{theirs.pk}": False, "played_on": "2026-11-20"},
    ).shown()
    assert filled["result"] == str(mine.pk) and filled[f"treasure-{mine.pk}"] == "3"
    assert filled[f"played-{theirs.pk}"] == "" and filled["played_on"] == "2026-11-20"
