"""Campaign records: who plays, what happened, and what each crew has now.

Every change to a campaign crew goes through one service function in
campaigns/services.py, which runs in a transaction and writes a HistoryEntry.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse


class CampaignQuerySet(models.QuerySet):
    def for_member(self, user):
        """Campaigns the user organises or has joined (accepted invitation)."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(
            Q(organiser=user) | Q(memberships__user=user, memberships__status=Membership.ACCEPTED)
        ).distinct()


class Campaign(models.Model):
    name = models.CharField(max_length=100)
    system = models.ForeignKey("crewbuilder.GameSystem", on_delete=models.PROTECT, related_name="campaigns")
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organised_campaigns")
    description = models.TextField(blank=True)
    house_rules = models.TextField(blank=True, help_text="Your group's house rules, shown to every player.")
    starting_budget = models.PositiveIntegerField(default=150)
    # The free rules do not say what a Treasure Token buys: the organiser sets it.
    treasure_value = models.PositiveIntegerField(
        null=True, blank=True, help_text="Points one Treasure Token buys between games (your group's rule)."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = CampaignQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("campaign-detail", args=[self.pk])


class Membership(models.Model):
    INVITED, ACCEPTED, DECLINED = "invited", "accepted", "declined"
    STATUS_CHOICES = [(INVITED, "Invited"), (ACCEPTED, "Accepted"), (DECLINED, "Declined")]

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="campaign_memberships")
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=INVITED)
    invited_at = models.DateTimeField(auto_now_add=True)
    responded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user")]


class CampaignCrew(models.Model):
    """A player's crew as enrolled: a copy, so the original stays untouched."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="crews")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="campaign_crews")
    crew = models.OneToOneField("crewbuilder.Crew", on_delete=models.PROTECT, related_name="campaign_entry")
    source_crew = models.ForeignKey(
        "crewbuilder.Crew", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    treasury = models.IntegerField(default=0)
    enrolled_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["campaign", "player"], name="one_crew_per_player")]

    def __str__(self):
        return f"{self.crew.name} ({self.player})"


class RollTable(models.Model):
    """An organiser-defined table (injury, loot, advancement): the free rules have none."""

    INJURY, LOOT, ADVANCEMENT, OTHER = "injury", "loot", "advancement", "other"
    KIND_CHOICES = [(INJURY, "Injury"), (LOOT, "Loot"), (ADVANCEMENT, "Advancement"), (OTHER, "Other")]

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="tables")
    kind = models.CharField(max_length=12, choices=KIND_CHOICES, default=INJURY)
    name = models.CharField(max_length=100)
    die = models.CharField(max_length=10, help_text="D3, D6, D8, D12, D20, 2D6 or D66")
    # [{"low": 1, "high": 2, "text": "...", "attributes": {"toughness": -1}}]
    rows = models.JSONField(default=list)

    def __str__(self):
        return f"{self.name} ({self.die})"


class Game(models.Model):
    PENDING, APPLIED = "pending", "applied"
    STATUS_CHOICES = [(PENDING, "Waiting for confirmation"), (APPLIED, "Counted")]

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="games")
    played_on = models.DateField()
    scenario = models.CharField(max_length=100)
    complication = models.CharField(max_length=100, blank=True)
    winner = models.ForeignKey(CampaignCrew, null=True, blank=True, on_delete=models.SET_NULL, related_name="wins")
    is_draw = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=PENDING)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-played_on", "-created_at"]


class GameCrew(models.Model):
    """One crew's part in a game: its post-game steps, applied once confirmed."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="participants")
    campaign_crew = models.ForeignKey(CampaignCrew, on_delete=models.CASCADE, related_name="games")
    treasure = models.PositiveIntegerField(default=0)
    # [{"character": id, "name": str, "outcome": "ooa"|"dead"}]
    casualties = models.JSONField(default=list)
    # [{"character": id, "name": str, "table": id, "roll": {...}, "text": str, "attributes": {...}}]
    effects = models.JSONField(default=list)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "campaign_crew"], name="crew_once_per_game")]


class Memorial(models.Model):
    """The dead leave the roster for good; their names stay here."""

    campaign_crew = models.ForeignKey(CampaignCrew, on_delete=models.CASCADE, related_name="memorial")
    name = models.CharField(max_length=100)
    snapshot = models.JSONField(default=dict)
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    died_at = models.DateTimeField(auto_now_add=True)


class HistoryEntry(models.Model):
    """One change to a campaign: who, when, what, before and after. Never erased."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="history")
    campaign_crew = models.ForeignKey(
        CampaignCrew, null=True, blank=True, on_delete=models.CASCADE, related_name="history"
    )
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    kind = models.CharField(max_length=30)
    summary = models.CharField(max_length=300)
    before = models.JSONField(default=dict, blank=True)
    after = models.JSONField(default=dict, blank=True)
    reverses = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by"
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "history entries"
