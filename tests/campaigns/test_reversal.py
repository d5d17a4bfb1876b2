"""Reversal of every kind of entry (reading C5): a new entry undoes the old one, nothing is erased."""

import pytest

from campaigns import services
from campaigns.models import CampaignCrew, Game, HistoryEntry, Memorial
from crewbuilder.models import Character, CharacterGear, Crew
from tests.campaigns.effects import rolled_effect

pytestmark = pytest.mark.django_db

LEGAL = {"strength": 2, "toughness": 1, "agility": 1, "intellect": -1, "discipline": -2}


def _explode(*args, **kwargs):
    raise RuntimeError("disk on fire")


def _counted_game(campaign, user, mine, theirs, today, *, treasure=2, casualties=(), effects=()):
    game = services.record_game(
        campaign,
        user,
        played_on=today,
        scenario="Exploration",
        participants=[
            {"crew": mine, "treasure": treasure, "casualties": list(casualties), "effects": list(effects)},
            {"crew": theirs, "treasure": 1},
        ],
        winner=mine,
    )
    services.confirm_game(game, user, for_everyone=True)
    game.refresh_from_db()
    return game


def _scar(campaign, user, character, seed=3):
    return rolled_effect(campaign, user, character, "1-6 | Lost an eye | discipline -1, agility 1", seed)


def _treasury(entry):
    return CampaignCrew.objects.get(pk=entry.pk).treasury


def _state(entry):
    """Everything a reversal may touch, to compare before and after a failed one."""
    crew = Crew.objects.get(pk=entry.crew_id)
    characters = [
        (
            c.pk,
            c.name,
            c.notes,
            c.strength,
            c.toughness,
            c.agility,
            c.intellect,
            c.discipline,
            sorted((g.item_id, g.copies) for g in c.gear.all()),
            sorted(t.trait_id for t in c.traits.all()),
        )
        for c in Character.objects.filter(crew=crew).order_by("pk")
    ]
    return (
        _treasury(entry),
        crew.budget,
        characters,
        list(Memorial.objects.values_list("pk", "returned_at")),
        list(Game.objects.values_list("pk", "status")),
        HistoryEntry.objects.count(),
        list(HistoryEntry.objects.exclude(undone_by=None).values_list("pk", flat=True)),
    )


# --- deaths ---------------------------------------------------------------------------------


def test_reversing_a_death_brings_the_character_back_as_it_was(campaign, user, two_crews, today):
    mine, theirs = two_crews
    victim = mine.crew.characters.first()
    gear_before = sorted((g.item_id, g.copies, g.position) for g in victim.gear.all())
    traits_before = sorted((t.trait_id, t.position) for t in victim.traits.all())
    _counted_game(
        campaign,
        user,
        mine,
        theirs,
        today,
        casualties=[{"character": victim.pk, "name": victim.name, "outcome": "dead"}],
    )
    assert not Character.objects.filter(pk=victim.pk).exists()
    death = HistoryEntry.objects.get(kind="death")

    reversal = services.reverse_entry(death, user)

    back = Character.objects.get(pk=victim.pk)  # the same id: every older entry still points at it
    assert (back.crew_id, back.name, back.strength, back.discipline) == (mine.crew_id, victim.name, 2, -2)
    assert sorted((g.item_id, g.copies, g.position) for g in back.gear.all()) == gear_before
    assert sorted((t.trait_id, t.position) for t in back.traits.all()) == traits_before
    memorial = Memorial.objects.get()
    assert memorial.returned_at is not None  # kept, but off the memorial listing
    assert HistoryEntry.objects.filter(pk=death.pk).exists()
    assert reversal.reverses == death and reversal.kind == "reversal"
    assert reversal.before["roster"] == "dead (in memoriam)" and reversal.after["roster"] == "back on the roster"
    death.refresh_from_db()
    assert death.undone_by == reversal


def test_reversed_death_leaves_standings_and_memorial(client, campaign, user, two_crews, today):
    from django.urls import reverse

    from campaigns.views.campaigns import standings

    mine, theirs = two_crews
    victim = mine.crew.characters.first()
    _counted_game(
        campaign,
        user,
        mine,
        theirs,
        today,
        casualties=[{"character": victim.pk, "name": victim.name, "outcome": "dead"}],
    )
    assert next(c for c in standings(campaign) if c.pk == mine.pk).lost_characters == 1
    client.force_login(user)
    assert "In memoriam" in client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
    services.reverse_entry(HistoryEntry.objects.get(kind="death"), user)
    assert next(c for c in standings(campaign) if c.pk == mine.pk).lost_characters == 0
    html = client.get(reverse("campaign-detail", args=[campaign.pk])).content.decode()
    assert "In memoriam" not in html
    history = client.get(reverse("campaign-history", args=[campaign.pk])).content.decode()
    assert f"{victim.name} of Saints died" in history and f"reversed: {victim.name} of Saints died" in history


def test_death_reversal_failure_applies_nothing(campaign, user, two_crews, today, monkeypatch):
    mine, theirs = two_crews
    victim = mine.crew.characters.first()
    _counted_game(
        campaign,
        user,
        mine,
        theirs,
        today,
        casualties=[{"character": victim.pk, "name": victim.name, "outcome": "dead"}],
    )
    before = _state(mine)
    monkeypatch.setattr(CharacterGear.objects, "bulk_create", _explode)
    with pytest.raises(RuntimeError):
        services.reverse_entry(HistoryEntry.objects.get(kind="death"), user)
    assert _state(mine) == before
    assert not Character.objects.filter(pk=victim.pk).exists()


# --- hires ------------------------------------------------------------------------------------


def _rich(entry, tokens=10):
    CampaignCrew.objects.filter(pk=entry.pk).update(treasury=tokens)
    entry.refresh_from_db()
    return entry


def test_reversing_a_hire_removes_the_character_and_refunds(campaign, user, two_crews):
    mine, _ = two_crews
    _rich(mine)
    hired = services.hire_character(mine, user, "Newcomer", LEGAL)
    assert (_treasury(mine), Crew.objects.get(pk=mine.crew_id).budget) == (7, 165)
    reversal = services.reverse_entry(HistoryEntry.objects.get(kind="hire"), user)
    assert not Character.objects.filter(pk=hired.pk).exists()
    assert (_treasury(mine), Crew.objects.get(pk=mine.crew_id).budget) == (10, 150)
    assert (reversal.before["treasury"], reversal.after["treasury"]) == (7, 10)
    assert "Newcomer left" in reversal.after["roster"]


def test_hire_cannot_be_reversed_after_the_character_died(campaign, user, two_crews, today):
    mine, theirs = two_crews
    _rich(mine)
    hired = services.hire_character(mine, user, "Newcomer", LEGAL)
    _counted_game(
        campaign, user, mine, theirs, today, casualties=[{"character": hired.pk, "name": hired.name, "outcome": "dead"}]
    )
    hire = HistoryEntry.objects.get(kind="hire")
    before = _state(mine)
    with pytest.raises(services.CampaignError, match="Newcomer of Saints died.*reverse that one first"):
        services.reverse_entry(hire, user)
    assert _state(mine) == before
    # Undo the death first, then the hire goes.
    services.reverse_entry(HistoryEntry.objects.get(kind="death"), user)
    services.reverse_entry(hire, user)
    assert not Character.objects.filter(pk=hired.pk).exists()


def test_hire_cannot_be_reversed_after_gear_was_bought_for_the_character(campaign, user, two_crews):
    mine, _ = two_crews
    _rich(mine)
    hired = services.hire_character(mine, user, "Newcomer", LEGAL)
    services.buy_gear(mine, user, hired.pk, "sword")
    with pytest.raises(services.CampaignError, match="bought sword.*reverse that one first"):
        services.reverse_entry(HistoryEntry.objects.get(kind="hire"), user)
    services.reverse_entry(HistoryEntry.objects.get(kind="purchase"), user)
    services.reverse_entry(HistoryEntry.objects.get(kind="hire"), user)
    assert (_treasury(mine), Crew.objects.get(pk=mine.crew_id).budget) == (10, 150)


def test_hire_reversal_refused_when_its_tokens_cannot_come_back_wrongly(campaign, user, two_crews):
    """The refund is added to what the treasury holds now, whatever was spent since on others."""
    mine, _ = two_crews
    _rich(mine)
    services.hire_character(mine, user, "Newcomer", LEGAL)  # 10 -> 7
    services.buy_gear(mine, user, mine.crew.characters.first().pk, "sword")  # 7 -> 6
    services.reverse_entry(HistoryEntry.objects.get(kind="hire"), user)
    assert _treasury(mine) == 9


def test_hire_reversal_failure_applies_nothing(campaign, user, two_crews, monkeypatch):
    mine, _ = two_crews
    _rich(mine)
    hired = services.hire_character(mine, user, "Newcomer", LEGAL)
    before = _state(mine)
    monkeypatch.setattr("campaigns.services.reversal._change_budget", _explode)
    with pytest.raises(RuntimeError):
        services.reverse_entry(HistoryEntry.objects.get(kind="hire"), user)
    assert _state(mine) == before
    assert Character.objects.filter(pk=hired.pk).exists()


# --- treasure, purchases, effects ---------------------------------------------------------------------


def test_treasure_reversal_refused_once_the_tokens_are_spent(campaign, user, two_crews, today):
    mine, theirs = two_crews
    _counted_game(campaign, user, mine, theirs, today, treasure=2)
    services.buy_gear(mine, user, mine.crew.characters.first().pk, "sword")  # 2 -> 1
    treasure = HistoryEntry.objects.get(kind="treasure", campaign_crew=mine)
    with pytest.raises(services.CampaignError, match="holds 1 Treasure Token.*Reverse the later purchase"):
        services.reverse_entry(treasure, user)
    services.reverse_entry(HistoryEntry.objects.get(kind="purchase"), user)
    services.reverse_entry(treasure, user)
    assert _treasury(mine) == 0


def test_purchase_reversal_removes_the_item_and_refunds(campaign, user, two_crews):
    mine, _ = two_crews
    _rich(mine, 3)
    character = mine.crew.characters.first()
    swords = character.gear.filter(item__slug="sword").count()
    services.buy_gear(mine, user, character.pk, "sword")
    services.reverse_entry(HistoryEntry.objects.get(kind="purchase"), user)
    assert character.gear.filter(item__slug="sword").count() == swords
    assert sum(g.copies for g in character.gear.filter(item__slug="sword")) == 1  # only the crew's own sword
    assert (_treasury(mine), Crew.objects.get(pk=mine.crew_id).budget) == (3, 150)


def test_effect_reversal_undoes_only_its_own_change(campaign, user, two_crews, today):
    mine, theirs = two_crews
    hurt = mine.crew.characters.first()
    _counted_game(campaign, user, mine, theirs, today, effects=[_scar(campaign, user, hurt)])
    services.edit_character(mine, user, hurt.pk, notes=Character.objects.get(pk=hurt.pk).notes + "\nVeteran")
    hurt.refresh_from_db()
    # the injury is kept apart from the creation placement (reading C10)
    assert (hurt.discipline, hurt.agility, hurt.attribute_changes) == (-2, 1, {"agility": 1, "discipline": -1})
    services.reverse_entry(HistoryEntry.objects.get(kind="effect"), user)
    hurt.refresh_from_db()
    assert (hurt.discipline, hurt.agility, hurt.attribute_changes) == (-2, 1, {})
    assert hurt.notes == "Veteran"  # the later note stays; the effect's line goes


def test_effect_reversal_refused_after_the_character_died(campaign, user, two_crews, today):
    mine, theirs = two_crews
    hurt = mine.crew.characters.first()
    _counted_game(campaign, user, mine, theirs, today, effects=[_scar(campaign, user, hurt)])
    _counted_game(
        campaign,
        user,
        mine,
        theirs,
        today,
        treasure=0,
        casualties=[{"character": hurt.pk, "name": hurt.name, "outcome": "dead"}],
    )
    with pytest.raises(services.CampaignError, match="died since"):
        services.reverse_entry(HistoryEntry.objects.get(kind="effect"), user)


# --- games -------------------------------------------------------------------------------------------


def test_reversing_a_game_undoes_every_step_in_one_entry(campaign, user, two_crews, today):
    from campaigns.views.campaigns import standings

    mine, theirs = two_crews
    dead, hurt = list(mine.crew.characters.all())[:2]
    game = _counted_game(
        campaign,
        user,
        mine,
        theirs,
        today,
        effects=[_scar(campaign, user, hurt)],
        casualties=[{"character": dead.pk, "name": dead.name, "outcome": "dead"}],
    )
    assert next(c for c in standings(campaign) if c.pk == mine.pk).won == 1
    counted = HistoryEntry.objects.get(kind="game-counted")
    entries_before = HistoryEntry.objects.count()

    reversal = services.reverse_entry(counted, user)

    assert HistoryEntry.objects.count() == entries_before + 1  # one new entry
    game.refresh_from_db()
    assert game.status == Game.REVERSED
    assert (_treasury(mine), _treasury(theirs)) == (0, 0)
    assert Character.objects.filter(pk=dead.pk).exists()
    hurt.refresh_from_db()
    assert (hurt.discipline, hurt.agility, hurt.attribute_changes, hurt.notes) == (-2, 1, {}, "")
    row = next(c for c in standings(campaign) if c.pk == mine.pk)
    assert (row.played, row.won, row.lost_characters) == (0, 0, 0)
    steps = HistoryEntry.objects.filter(game=game).exclude(kind__in=["reversal", "game-recorded"])
    assert {e.kind for e in steps} == {"treasure", "effect", "death", "game-counted"}
    assert all(e.undone_by_id == reversal.pk for e in steps)
    assert len(reversal.after["steps"]) == 4  # two treasures, the effect, the death
    # the parts cannot be reversed a second time on their own, nor the game
    for entry in [counted, *steps]:
        with pytest.raises(services.CampaignError, match="already reversed"):
            services.reverse_entry(entry, user)
    # and nobody can confirm it back into the standings
    assert services.confirm_game(game, user, for_everyone=True) is False


def test_game_reversal_skips_steps_already_reversed(campaign, user, two_crews, today):
    mine, theirs = two_crews
    _counted_game(campaign, user, mine, theirs, today, treasure=2)
    services.reverse_entry(HistoryEntry.objects.get(kind="treasure", campaign_crew=mine), user)
    services.reverse_entry(HistoryEntry.objects.get(kind="game-counted"), user)
    assert (_treasury(mine), _treasury(theirs)) == (0, 0)


def test_game_reversal_refused_when_its_treasure_was_spent(campaign, user, two_crews, today):
    mine, theirs = two_crews
    _counted_game(campaign, user, mine, theirs, today, treasure=2)
    services.buy_gear(mine, user, mine.crew.characters.first().pk, "sword")
    before = _state(mine)
    with pytest.raises(services.CampaignError, match="spent since"):
        services.reverse_entry(HistoryEntry.objects.get(kind="game-counted"), user)
    assert _state(mine) == before
    assert _treasury(theirs) == 1


def test_game_reversal_failure_half_way_applies_nothing(campaign, user, two_crews, today, monkeypatch):
    mine, theirs = two_crews
    dead = mine.crew.characters.first()
    _counted_game(
        campaign, user, mine, theirs, today, casualties=[{"character": dead.pk, "name": dead.name, "outcome": "dead"}]
    )
    before, theirs_before = _state(mine), _treasury(theirs)
    # The death is undone first (newest first), then the treasure: fail on the treasure.
    monkeypatch.setitem(services.UNDO, "treasure", _explode)
    with pytest.raises(RuntimeError):
        services.reverse_entry(HistoryEntry.objects.get(kind="game-counted"), user)
    assert _state(mine) == before and _treasury(theirs) == theirs_before
    assert not Character.objects.filter(pk=dead.pk).exists()


# --- rules for every reversal -------------------------------------------------------------------------


def test_only_the_organiser_reverses_and_never_twice(campaign, user, other_user, two_crews):
    mine, _ = two_crews
    _rich(mine)
    services.hire_character(mine, user, "Newcomer", LEGAL)
    hire = HistoryEntry.objects.get(kind="hire")
    with pytest.raises(services.CampaignError, match="Only the organiser"):
        services.reverse_entry(hire, other_user)
    reversal = services.reverse_entry(hire, user)
    with pytest.raises(services.CampaignError, match="already reversed"):
        services.reverse_entry(hire, user)
    with pytest.raises(services.CampaignError, match="cannot be reversed"):
        services.reverse_entry(reversal, user)


def test_history_page_shows_before_and_after_and_the_reversed_mark(client, campaign, user, two_crews, today):
    from django.urls import reverse

    mine, theirs = two_crews
    _counted_game(campaign, user, mine, theirs, today, treasure=2)
    treasure = HistoryEntry.objects.get(kind="treasure", campaign_crew=mine)
    client.force_login(user)
    client.post(reverse("history-reverse", args=[campaign.pk, treasure.pk]))
    html = client.get(reverse("campaign-history", args=[campaign.pk])).content.decode()
    assert "The treasury of Saints went from 0 Treasure Tokens to 2 Treasure Tokens." in html  # the treasure entry
    assert "The treasury of Saints went from 2 Treasure Tokens to 0 Treasure Tokens." in html  # its reversal
    assert "reversed</span>" in html
    response = client.post(reverse("history-reverse", args=[campaign.pk, treasure.pk]), follow=True)
    assert "already reversed" in response.content.decode()


def test_game_reversal_through_the_pages(client, campaign, user, other_user, two_crews, today):
    from django.urls import reverse

    mine, theirs = two_crews
    game = _counted_game(campaign, user, mine, theirs, today, treasure=2)
    counted = HistoryEntry.objects.get(kind="game-counted")
    url = reverse("history-reverse", args=[campaign.pk, counted.pk])
    client.force_login(other_user)  # a player: refused, nothing changes
    response = client.post(url, follow=True)
    assert "Only the organiser" in response.content.decode()
    assert Game.objects.get(pk=game.pk).status == Game.APPLIED and _treasury(mine) == 2
    client.force_login(user)
    history = client.get(reverse("campaign-history", args=[campaign.pk])).content.decode()
    assert history.count(">reverse</button>") == 3  # the game and its two treasure entries
    client.post(url)
    assert Game.objects.get(pk=game.pk).status == Game.REVERSED and _treasury(mine) == 0
    html = client.get(reverse("game-detail", args=[campaign.pk, game.pk])).content.decode()
    assert "reversed by the organiser: does not count" in html
    history = client.get(reverse("campaign-history", args=[campaign.pk])).content.decode()
    assert ">reverse</button>" not in history
    assert "The game went from counted to reversed." in history
