"""Campaign records: who plays, what happened, and what each crew has now.

Every change to a campaign crew goes through one service function in
campaigns/services/, which runs in a transaction and writes a HistoryEntry.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

# Longest campaign description and house rules: about three printed pages,
# far beyond what a group writes, and it keeps every member's campaign page light.
CAMPAIGN_TEXT_MAX = 5000


class CampaignQuerySet(models.QuerySet):
    def for_member(self, user):
        """Campaigns the user organises or has joined (accepted invitation).

        A union of two index lookups (campaigns by organiser, memberships by
        user and status), not ``organiser OR join`` with DISTINCT, which scans
        every campaign on the server (issue 20).
        """
        if not user.is_authenticated:
            return self.none()
        organised = Campaign.objects.organised_by(user).order_by().values("pk")
        joined = Membership.objects.accepted().filter(user=user).values("campaign_id")
        return self.filter(pk__in=organised.union(joined))

    def organised_by(self, user):
        return self.filter(organiser=user)


class MembershipQuerySet(models.QuerySet):
    def accepted(self):
        return self.filter(status=Membership.Status.ACCEPTED)

    def invited(self):
        return self.filter(status=Membership.Status.INVITED)

    def invitations_for(self, user):
        """The user's open invitations, with the campaign and its organiser for the list."""
        return self.invited().filter(user=user).select_related("campaign__organiser")


class Campaign(models.Model):
    name = models.CharField(max_length=100)
    system = models.ForeignKey("crewbuilder.GameSystem", on_delete=models.PROTECT, related_name="campaigns")
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organised_campaigns"
    )
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
    class Status(models.TextChoices):
        INVITED = "invited", "Invited"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"

    INVITED, ACCEPTED, DECLINED = Status.INVITED, Status.ACCEPTED, Status.DECLINED

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="campaign_memberships")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.INVITED)
    invited_at = models.DateTimeField(auto_now_add=True)
    responded_at = models.DateTimeField(null=True, blank=True)

    objects = MembershipQuerySet.as_manager()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user")]
        # A player's campaigns and invitations: by user, then status.
        indexes = [models.Index(fields=["user", "status"], name="membership_user_status")]


class CampaignCrewQuerySet(models.QuerySet):
    def for_game_form(self, campaign):
        """The campaign's crews with their players and characters, as the game form lists them."""
        return self.filter(campaign=campaign).select_related("crew", "player").prefetch_related("crew__characters")


class CampaignCrew(models.Model):
    """A player's crew as enrolled: a copy, so the original stays untouched."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="crews")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="campaign_crews")
    crew = models.OneToOneField("crewbuilder.Crew", on_delete=models.PROTECT, related_name="campaign_entry")
    source_crew = models.ForeignKey(
        "crewbuilder.Crew", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    treasury = models.IntegerField(default=0)
    # What the last Treasure Token spent bought beyond the price: a knife (1 point) paid with a 10-point
    # token leaves 9 points here, and the next purchase spends them before any new token (docs/campaigns.md).
    spare_points = models.PositiveIntegerField(
        default=0, help_text="Points left over from Treasure Tokens already spent, spent before the next token."
    )
    enrolled_at = models.DateTimeField(auto_now_add=True)

    objects = CampaignCrewQuerySet.as_manager()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["campaign", "player"], name="one_crew_per_player")]

    def __str__(self):
        return f"{self.crew.name} ({self.player})"


class RollTable(models.Model):
    """An organiser-defined table (injury, loot, advancement): the free rules have none."""

    class Kind(models.TextChoices):
        INJURY = "injury", "Injury"
        LOOT = "loot", "Loot"
        ADVANCEMENT = "advancement", "Advancement"
        OTHER = "other", "Other"

    INJURY, LOOT, ADVANCEMENT, OTHER = Kind.INJURY, Kind.LOOT, Kind.ADVANCEMENT, Kind.OTHER

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="tables")
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.INJURY)
    name = models.CharField(max_length=100)
    die = models.CharField(max_length=10, help_text="D3, D6, D8, D12, D20, 2D6 or D66")
    # [{"low": 1, "high": 2, "text": "...", "attributes": {"toughness": -1}}]
    rows = models.JSONField(default=list)

    def __str__(self):
        return f"{self.name} ({self.die})"


class CampaignScenario(models.Model):
    """A scenario the organiser defines: the free rules print only a few (reading C4, C8).

    ``card`` (1 = Ace ... 13 = King) puts it on the campaign's scenario list, so
    the rules' card or D12 draw can land on it; without a card it is only picked.
    """

    RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    CARD_CHOICES = [(n, f"{rank} ({n})") for n, rank in enumerate(RANKS, start=1)]

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="scenarios")
    name = models.CharField(max_length=100)
    text = models.TextField(blank=True)
    draws_complication = models.BooleanField(
        default=False, help_text="The scenario says to draw a card for a Complication before the game."
    )
    card = models.PositiveSmallIntegerField(null=True, blank=True, choices=CARD_CHOICES)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["card", "name"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="campaign_scenario_name_once"),
            models.UniqueConstraint(
                fields=["campaign", "card"], condition=Q(card__isnull=False), name="campaign_scenario_card_once"
            ),
        ]

    def __str__(self):
        return self.name

    @property
    def card_label(self) -> str:
        return self.RANKS[self.card - 1] if self.card else ""


class EnrolmentRequestQuerySet(models.QuerySet):
    def pending(self):
        return self.filter(status=EnrolmentRequest.Status.PENDING)


class EnrolmentRequest(models.Model):
    """A crew legal only with house rules waits here until the organiser approves it (reading C6)."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for the organiser"
        APPROVED = "approved", "Approved"
        REFUSED = "refused", "Refused"

    PENDING, APPROVED, REFUSED = Status.PENDING, Status.APPROVED, Status.REFUSED

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="enrolment_requests")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    crew = models.ForeignKey("crewbuilder.Crew", on_delete=models.CASCADE, related_name="+")
    crew_version = models.PositiveIntegerField()
    points = models.IntegerField(default=0)
    # The crew's house-rule findings as the organiser is asked to accept them:
    # [{"code", "character", "message", "note"}]
    findings = models.JSONField(default=list)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    reason = models.CharField(max_length=300, blank=True)
    entry = models.OneToOneField(CampaignCrew, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    objects = EnrolmentRequestQuerySet.as_manager()

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "player"], condition=Q(status="pending"), name="one_pending_enrolment_per_player"
            ),
        ]


class Game(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for confirmation"
        APPLIED = "applied", "Counted"
        REVERSED = "reversed", "Reversed"
        WITHDRAWN = "withdrawn", "Withdrawn before it counted"

    PENDING, APPLIED, REVERSED, WITHDRAWN = Status.PENDING, Status.APPLIED, Status.REVERSED, Status.WITHDRAWN

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="games")
    played_on = models.DateField()
    scenario = models.CharField(max_length=100)
    complication = models.CharField(max_length=100, blank=True)
    winner = models.ForeignKey(CampaignCrew, null=True, blank=True, on_delete=models.SET_NULL, related_name="wins")
    is_draw = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    # One key per submitted game form (campaigns/idempotency.py): a double
    # click or a retried request finds the game it already recorded.
    submission_key = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["-played_on", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "submission_key"],
                condition=~Q(submission_key=""),
                name="game_recorded_once_per_submission",
            ),
        ]


class GameCrewQuerySet(models.QuerySet):
    def awaiting_confirmation_by(self, user):
        """The user's unconfirmed parts in games still waiting for confirmation."""
        return self.filter(campaign_crew__player=user, confirmed_at__isnull=True, game__status=Game.Status.PENDING)


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

    objects = GameCrewQuerySet.as_manager()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "campaign_crew"], name="crew_once_per_game")]


class Memorial(models.Model):
    """The dead leave the roster for good; their names stay here."""

    campaign_crew = models.ForeignKey(CampaignCrew, on_delete=models.CASCADE, related_name="memorial")
    name = models.CharField(max_length=100)
    snapshot = models.JSONField(default=dict)
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    died_at = models.DateTimeField(auto_now_add=True)
    # Set when the organiser reverses the death: the character is back on the
    # roster and leaves the memorial listing; both history entries stay.
    returned_at = models.DateTimeField(null=True, blank=True)


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
    reverses = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by")
    # The reversal entry that undid this one (itself, or a game reversal undoing
    # all of that game's steps at once). Set once; an undone entry stays.
    undone_by = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="undoes")
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="history")

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "history entries"
        # The history page reads one campaign's entries newest first, a page at a time.
        indexes = [models.Index(fields=["campaign", "-created_at", "-id"], name="history_campaign_newest")]

    # Keys kept for the app (restoring a character), not for reading.
    HIDDEN_KEYS = {"rows"}

    def changes(self) -> list[tuple[str, str, str]]:
        """(what, before, after) as text, for every key that differs, for the timeline."""
        keys = [k for k in dict.fromkeys([*self.before, *self.after]) if k not in self.HIDDEN_KEYS]
        return [
            (k.replace("_", " "), _show(self.before.get(k)), _show(self.after.get(k)))
            for k in keys
            if self.before.get(k) != self.after.get(k)
        ]


def _show(value) -> str:
    if value is None or value == "" or value == [] or value == {}:
        return "–"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_show(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_show(v) for v in value)
    return str(value)


class SubmittedForm(models.Model):
    """A spending form already acted on (campaigns/idempotency.py): a double click
    or a retried request finds its key here and spends nothing twice."""

    key = models.CharField(max_length=64, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
