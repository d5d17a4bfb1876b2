"""The Ghoul role sheet: one game of the Cave's Ghoul or the Vile Ghoul.

The goals are fixed when the sheet is made (from the catalogue's rows, house
rules included); the rest is the state of the role between and during turns.
Every change is an Event holding the state before it, so the last action can
be undone; Terror cards are rows named by the player (the rules do not print
their texts).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse


class Kind(models.TextChoices):
    CAVE = "cave", "The Ghoul"
    VILE = "vile", "The Vile Ghoul"


class Phase(models.TextChoices):
    """Turn phases. The Ghoul: roll -> choose -> act -> (end turn) roll ...
    The Vile Ghoul: prepare -> select -> act -> (end turn) prepare ..."""

    ROLL = "roll", "Roll and Set Statistics"
    CHOOSE = "choose", "Choose two dice"
    PREPARE = "prepare", "Prepare Board"
    SELECT = "select", "Select Statistics"
    ACT = "act", "Move and Act"
    OVER = "over", "Game over"


class Result(models.TextChoices):
    WON = "won", "Won"
    LOST = "lost", "Lost"


class GhoulSheetQuerySet(models.QuerySet):
    def owned_by(self, user):
        return self.filter(owner_id=user.pk)

    def in_progress(self):
        return self.filter(result="")

    def shared(self, token: str):
        """The sheet behind a read-only link (never one whose sharing is off)."""
        return self.filter(share_token=token).exclude(share_token="")


class GhoulSheet(models.Model):
    # the choices' values under their old names, for the engine's callers
    CAVE, VILE = Kind.CAVE, Kind.VILE
    ROLL, CHOOSE, PREPARE, SELECT, ACT, OVER = (
        Phase.ROLL,
        Phase.CHOOSE,
        Phase.PREPARE,
        Phase.SELECT,
        Phase.ACT,
        Phase.OVER,
    )
    WON, LOST = Result.WON, Result.LOST

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ghoul_sheets")
    name = models.CharField(max_length=100, blank=True)
    kind = models.CharField(max_length=4, choices=Kind.choices)
    difficulty = models.CharField(max_length=40)
    difficulty_name = models.CharField(max_length=60)
    players = models.PositiveSmallIntegerField()
    variant = models.CharField(max_length=60)
    variant_name = models.CharField(max_length=100)
    # Goals, fixed at creation.
    fury_goal = models.PositiveSmallIntegerField(null=True, blank=True)
    crystal_goal = models.PositiveSmallIntegerField(null=True, blank=True)
    kill_goal = models.CharField(max_length=10, blank=True)  # "knight", "dragon" or ""
    kill_health = models.PositiveSmallIntegerField(null=True, blank=True)  # Vile: the target's starting Health
    dice = models.PositiveSmallIntegerField()
    chart = models.JSONField(default=dict, blank=True)  # Vile: {"1": [movement, attack], ...} typed by the player
    # The Terror deck's size from the catalogue's components ("13 Terror Cards"), fixed at creation;
    # null on sheets made before it was kept: the catalogue file's number.
    terror_deck = models.PositiveSmallIntegerField(null=True, blank=True)

    # State.
    turn = models.PositiveIntegerField(default=0)
    phase = models.CharField(max_length=8, choices=Phase.choices)
    result = models.CharField(max_length=4, blank=True, choices=Result.choices)
    roll = models.JSONField(default=list, blank=True)
    backstab = models.PositiveSmallIntegerField(default=0)
    movement = models.PositiveSmallIntegerField(default=0)
    attack_discs = models.PositiveSmallIntegerField(default=0)  # Vile: the constant Attack
    defense = models.PositiveSmallIntegerField(default=0)
    fury = models.PositiveSmallIntegerField(default=0)
    treasures = models.PositiveSmallIntegerField(default=0)
    crystals = models.PositiveSmallIntegerField(default=0)
    attacked = models.JSONField(default=list, blank=True)
    target_health = models.SmallIntegerField(null=True, blank=True)
    supply = models.JSONField(default=list, blank=True)
    left = models.PositiveSmallIntegerField(null=True, blank=True)
    right = models.JSONField(default=list, blank=True)
    boost_dice = models.PositiveSmallIntegerField(default=0)
    boost_spent = models.PositiveSmallIntegerField(default=0)
    bonus = models.PositiveSmallIntegerField(default=0)

    share_token = models.CharField(max_length=40, blank=True, db_index=True)
    # bumped by every change under the lock (core.locking.run_locked): a move made from a page that
    # shows an older version is refused (kit.Stale)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = GhoulSheetQuerySet.as_manager()

    STATE_FIELDS = (
        "turn",
        "phase",
        "result",
        "roll",
        "backstab",
        "movement",
        "attack_discs",
        "defense",
        "fury",
        "treasures",
        "crystals",
        "attacked",
        "target_health",
        "supply",
        "left",
        "right",
        "boost_dice",
        "boost_spent",
        "bonus",
    )

    class Meta:
        ordering = ["-updated_at", "-id"]

    def __str__(self) -> str:
        return self.title

    @property
    def title(self) -> str:
        return self.name or f"{self.get_kind_display()} · {self.variant_name}"

    @property
    def between_turns(self) -> bool:
        """Waiting to begin a turn (Roll, or the Vile Ghoul's Prepare Board): ``turn`` is still the last one's."""
        return self.phase in (self.ROLL, self.PREPARE)

    @property
    def turn_shown(self) -> int:
        """The turn the sheet is in, for people: the next one once the last has ended (``turn`` counts on at
        the Roll or Prepare Board, which begin it)."""
        return self.turn + 1 if self.between_turns else self.turn

    @property
    def is_vile(self) -> bool:
        return self.kind == self.VILE

    def get_absolute_url(self) -> str:
        return reverse("ghoulrole-sheet", args=[self.pk])


class EventQuerySet(models.QuerySet):
    def standing(self):
        """The actions not undone (the sheet's creation is no action)."""
        return self.filter(undone=False).exclude(kind="created")


class Event(models.Model):
    """One action on a sheet: what was done, its seed if dice were rolled, and the state before it."""

    sheet = models.ForeignKey(GhoulSheet, on_delete=models.CASCADE, related_name="events")
    turn = models.PositiveIntegerField()
    kind = models.CharField(max_length=30)
    summary = models.CharField(max_length=300)
    seed = models.BigIntegerField(null=True, blank=True)
    data = models.JSONField(default=dict, blank=True)
    before = models.JSONField(default=dict, blank=True)
    undone = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return self.summary


class CardStatus(models.TextChoices):
    HAND = "hand", "In hand"
    # a once per game effect that begins "During this turn": removed at the end of the turn
    ACTIVE = "active", "In play until the end of this turn"
    PLAYED = "played", "Once per game effect used (removed)"
    DISCARDED = "discarded", "Discarded"
    # discarded "shuffling it back into the Terror deck" (Pickpocket): in the deck again
    RETURNED = "returned", "Shuffled back into the Terror deck"


class TerrorCardQuerySet(models.QuerySet):
    def in_hand(self):
        return self.filter(status=CardStatus.HAND)

    def out_of_deck(self):
        return self.filter(status__in=TerrorCard.OUT_OF_DECK)


class TerrorCard(models.Model):
    HAND, ACTIVE, PLAYED, DISCARDED, RETURNED = (
        CardStatus.HAND,
        CardStatus.ACTIVE,
        CardStatus.PLAYED,
        CardStatus.DISCARDED,
        CardStatus.RETURNED,
    )
    OUT_OF_DECK = (HAND, ACTIVE, PLAYED, DISCARDED)
    REASONS = {
        "roll": "low roll",
        "fury": "even Fury",
        "thief": "killed the Thief",
        "attack": "successful attack",
        "treasures": "two Treasures or Gems",
        "manual": "added by hand",
    }

    sheet = models.ForeignKey(GhoulSheet, on_delete=models.CASCADE, related_name="terror_cards")
    event = models.ForeignKey(Event, on_delete=models.SET_NULL, null=True, blank=True, related_name="cards")
    name = models.CharField(max_length=60, blank=True)
    drawn_turn = models.PositiveIntegerField()
    reason = models.CharField(max_length=12)
    status = models.CharField(max_length=10, choices=CardStatus.choices, default=CardStatus.HAND)

    objects = TerrorCardQuerySet.as_manager()

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.name or "Terror card (unnamed)"

    @property
    def reason_label(self) -> str:
        return self.REASONS.get(self.reason, self.reason)
