"""The Slasher trial refereed by the app: the persisted state of one trial.

The rows hold exactly the engine's state (rules/slasher_trial.py
``Trial``): every change goes through one function in trials/services.py,
which locks the trial row, rebuilds the engine Trial from these rows, calls
the engine, writes the new state back and appends a public LogEntry, all in
one transaction.
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse


def _token() -> str:
    return secrets.token_urlsafe(16)


class TrialQuerySet(models.QuerySet):
    def for_participant(self, user):
        """Trials the user is a participant of (the Monster or a Survivor)."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(Q(participants__user=user)).distinct()


class Trial(models.Model):
    class State(models.TextChoices):
        OPEN = "open", "Gathering Survivors"
        PLAYING = "playing", "Under way"
        OVER = "over", "Over"

    class Outcome(models.TextChoices):
        NOT_OVER = "", "Not over"
        MONSTER = "monster", "The Monster won"
        SURVIVOR = "survivor", "A Survivor won"
        NOBODY = "nobody", "Nobody took part"

    OPEN, PLAYING, OVER = State.OPEN, State.PLAYING, State.OVER

    name = models.CharField(max_length=100)
    monster = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="monster_trials")
    join_token = models.CharField(max_length=32, unique=True, default=_token)
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN)
    # The reading of "adjacent" chosen for this trial (docs: "Slasher trial pages").
    diagonals = models.BooleanField(default=True)
    generators_placed = models.BooleanField(default=False)
    advancing = models.BooleanField(default=False)
    advances = models.PositiveIntegerField(default=0)
    # Survivor usernames hit since the last Advance (Hit: once per target).
    hit_since_advance = models.JSONField(default=list, blank=True)
    # Bumped by every change: the page polls with it and gets 204 when nothing changed.
    version = models.PositiveIntegerField(default=0)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, default=Outcome.NOT_OVER, blank=True)
    winner = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = TrialQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("trial-detail", args=[self.pk])


class Participant(models.Model):
    class Role(models.TextChoices):
        MONSTER = "monster", "Monster"
        SURVIVOR = "survivor", "Survivor"

    MONSTER, SURVIVOR = Role.MONSTER, Role.SURVIVOR

    trial = models.ForeignKey(Trial, on_delete=models.CASCADE, related_name="participants")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="trial_participations")
    role = models.CharField(max_length=10, choices=Role.choices)
    position = models.PositiveIntegerField(default=0)
    energy = models.PositiveIntegerField(default=0)
    location = models.CharField(max_length=4, blank=True)  # "" = blank
    # Survivors only (the Monster's are unused): the engine's Survivor fields.
    health = models.IntegerField(default=0)
    status = models.CharField(max_length=10, blank=True)  # "" = blank
    points = models.PositiveIntegerField(default=0)
    readiness = models.CharField(max_length=10, blank=True)
    participated = models.BooleanField(default=False)

    class Meta:
        ordering = ["position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["trial", "user"], name="one_participation_per_user"),
        ]

    def __str__(self):
        return f"{self.user} ({self.role})"

    @property
    def is_monster(self) -> bool:
        return self.role == self.MONSTER


class Generator(models.Model):
    trial = models.ForeignKey(Trial, on_delete=models.CASCADE, related_name="generators")
    square = models.CharField(max_length=4)
    position = models.PositiveIntegerField(default=0)
    progress = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position"]
        constraints = [models.UniqueConstraint(fields=["trial", "square"], name="one_generator_per_square")]


class LogEntry(models.Model):
    """One public line of a trial's log; ``seed`` replays its random draw."""

    trial = models.ForeignKey(Trial, on_delete=models.CASCADE, related_name="log")
    number = models.PositiveIntegerField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=20)
    target = models.CharField(max_length=150, blank=True)
    text = models.CharField(max_length=500)
    energy_spent = models.PositiveIntegerField(default=0)
    seed = models.BigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-number"]
        constraints = [models.UniqueConstraint(fields=["trial", "number"], name="one_log_number_per_trial")]
