"""A Cybernekr0 battle at the table: the engine's state as JSON, the seats, and the public log.

``Battle.state`` is ``rules.cybernekro.battle.codec.dumps`` of the engine's
state: it holds every hand and deck, so it is never sent to a page; pages see
``legal.view_for(state, seat)`` only (battles.board). ``BattleEvent`` copies
the engine's public log lines (never a hand), so the log is read a page at a
time instead of decoding the state.
"""

from django.conf import settings
from django.db import models
from django.urls import reverse

from rules.cybernekro.battle import catalogue


def _scenario_name(slug: str) -> str:
    """The catalogue's name of a rules scenario (house rules included), or the slug of one it lacks."""
    try:
        return catalogue.entry("scenarios", slug)["name"]
    except KeyError:
        return slug


class BattleQuerySet(models.QuerySet):
    def for_user(self, user) -> "BattleQuerySet":
        """The battles the user plays in or is the game master of."""
        if not getattr(user, "is_authenticated", False):
            return self.none()
        seated = BattleSeat.objects.filter(battle=models.OuterRef("pk"), user=user)
        return self.filter(models.Q(models.Exists(seated)) | models.Q(game_master=user))

    def shared_by_token(self, token: str) -> "BattleQuerySet":
        """A standalone battle shared read-only by its link (campaign battles are the campaign's)."""
        return self.filter(share_token=token, campaign__isnull=True) if token else self.none()


class Battle(models.Model):
    class Status(models.TextChoices):
        SETUP = "setup", "waiting for players"
        PLAYING = "playing", "playing"
        FINISHED = "finished", "finished"

    CAMPAIGN_SCENARIO = "campaign"
    SETUP, PLAYING, FINISHED = Status.SETUP, Status.PLAYING, Status.FINISHED
    STATUSES = Status.choices

    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="battles_created")
    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.SET_NULL, null=True, blank=True, related_name="battles"
    )
    # a rules scenario's slug, CAMPAIGN_SCENARIO for ``campaign_scenario``, or "" while the card drawn names a
    # scenario the free rules lack and the group has not agreed on one yet (B30)
    scenario = models.SlugField(max_length=100, blank=True)
    campaign_scenario = models.ForeignKey(
        "campaigns.CampaignScenario", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # the scenario card drawn: {"method", "number", "label", "seed", "on_card"} (empty when chosen)
    scenario_draw = models.JSONField(default=dict, blank=True)
    # decides the NPCs' actions and may undo; sees what a spectator sees (B33); never holds a seat
    game_master = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="battles_mastered"
    )
    # each roll waits for every player before its roller closes it (B65): chosen at set-up, the engine's
    # state carries it from the start (and the players may switch it there)
    hold_rolls = models.BooleanField(default=False)
    state = models.TextField(blank=True, default="")  # codec JSON; empty until every seat has joined
    version = models.PositiveIntegerField(default=1)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SETUP)
    share_token = models.CharField(max_length=64, blank=True, default="", db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = BattleQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at", "-id"]

    def __str__(self):
        return f"Cybernekr0 battle {self.pk}"

    def get_absolute_url(self):
        return reverse("battle", args=[self.pk])

    @property
    def scenario_name(self) -> str:
        """The scenario's name for people: the rules' name, or the campaign scenario's own (B32); "" while the
        group has not agreed on one (B30). Select ``campaign_scenario`` with the battle to read it queryless."""
        if self.scenario == self.CAMPAIGN_SCENARIO:
            return self.campaign_scenario.name if self.campaign_scenario else "a campaign scenario (deleted)"
        return _scenario_name(self.scenario)


class BattleSeat(models.Model):
    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="battle_seats")
    seat = models.PositiveSmallIntegerField()  # table order; the engine's seat is str(seat)
    # the crew as it was when the player joined (battles.roster.snapshot); empty until they join
    crew = models.JSONField(default=dict, blank=True)
    crew_name = models.CharField(max_length=100, blank=True)
    source_crew = models.ForeignKey(
        "crewbuilder.Crew", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    campaign_crew = models.ForeignKey(
        "campaigns.CampaignCrew", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # the character this player rolls Initiative Tests with ("all players choose one of their characters"),
    # kept from round to round until they choose another; an engine model id
    initiative = models.CharField(max_length=20, blank=True)

    class Meta:
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "user"], name="battles_one_seat_per_user"),
            models.UniqueConstraint(fields=["battle", "seat"], name="battles_unique_seat"),
        ]

    def __str__(self):
        return f"{self.user} in {self.battle}"

    @property
    def joined(self) -> bool:
        return bool(self.crew)


class BattleEvent(models.Model):
    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="events")
    number = models.PositiveIntegerField()  # the engine's log sequence number
    round = models.PositiveIntegerField(default=0)
    seat = models.CharField(max_length=10, blank=True)
    text = models.TextField()
    seed = models.BigIntegerField(null=True, blank=True)
    rolls = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-number"]
        constraints = [models.UniqueConstraint(fields=["battle", "number"], name="battles_event_number")]

    def __str__(self):
        return f"#{self.number} {self.text[:40]}"
