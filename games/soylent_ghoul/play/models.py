"""Soylent Ghoul games at the table: players, their pieces, and the game log.

At a player's joining, their drone set's drones and tokens (code and truth) are
copied into ``Piece`` rows, and the group's numbers into ``Player``: a later
re-deal of the set, or a house-rule change, cannot change a running game.

``Piece.is_true`` is the owner's secret: only ``games.soylent_ghoul.play.board`` reads it
for display, and only for the owner or a revealed token.
"""

from django.conf import settings
from django.db import models
from django.urls import reverse


class GameQuerySet(models.QuerySet):
    def for_player(self, user):
        """The games where the user has a seat (joined, or invited and not yet joined)."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(players__user=user)


class Game(models.Model):
    class Status(models.TextChoices):
        SETUP = "setup", "waiting for players"
        PLAYING = "playing", "playing"
        FINISHED = "finished", "finished"

    SETUP, PLAYING, FINISHED = Status.SETUP, Status.PLAYING, Status.FINISHED

    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="soylent_games_created"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SETUP)
    drone_count = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    # bumped by every change; a submission carries the version it was made on
    version = models.PositiveIntegerField(default=1)
    # the engine's state (rules.soylent_ghoul.game.State), seats by number
    turn = models.PositiveIntegerField(default=0)
    current_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    first_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    phase = models.CharField(max_length=10, default="turn")
    active_piece = models.PositiveIntegerField(null=True, blank=True)  # a Piece id
    panic_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    passes = models.PositiveSmallIntegerField(default=0)
    # the seats that passed since the last panic token (SG7): who, not how many; a game stored before it
    # has [] here and its number of passes in ``passes``, which the engine reads back into seats
    passed = models.JSONField(default=list, blank=True)
    acted = models.BooleanField(default=False)
    performed = models.CharField(max_length=40, blank=True, default="")  # the action performed this turn
    pending = models.JSONField(null=True, blank=True)
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # Darker actions waiting for who is out of the light (the action step's, a Gardener's Snapped
    # effect's): [{"seat", "drone", "darker", "queue", "out"}], the latest last
    snap_effects = models.JSONField(default=list, blank=True)
    pushed = models.JSONField(null=True, blank=True)  # {"seat", "piece"}: whose panic token pushed what
    markers = models.JSONField(default=list, blank=True)  # Scene Shifters' markers: [{"id", "drone"}]
    # {"seat", "piece"}: another player's Character said to be in a fatal area, for its owner to answer
    fatal_claim = models.JSONField(null=True, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"Soylent Ghoul game {self.pk}"

    def get_absolute_url(self):
        return reverse("soylent-game", args=[self.pk])


class PlayerQuerySet(models.QuerySet):
    def seats_of(self, user):
        """The user's seats, newest game first, with each game and who set it up (the games list)."""
        return self.filter(user=user).select_related("game", "game__creator").order_by("-game__created_at", "-game_id")


class Player(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="soylent_seats")
    seat = models.PositiveSmallIntegerField()  # table order: each seat is followed by the player on its left
    drone_set = models.ForeignKey(
        "soylent.DroneSet", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    joined = models.BooleanField(default=False)
    # copied from the set and the catalogue when joining
    set_name = models.CharField(max_length=100, blank=True)
    group = models.SlugField(max_length=100, blank=True)
    group_name = models.CharField(max_length=100, blank=True)
    nerve = models.IntegerField(default=0)
    move = models.IntegerField(default=0)
    actions = models.JSONField(default=list, blank=True)  # [{"slug", "name", "text"}]
    snapped_text = models.TextField(blank=True)
    last_kind = models.CharField(max_length=10, null=True, blank=True)
    last_piece = models.PositiveIntegerField(null=True, blank=True)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="soylentgames_one_seat_per_user"),
            models.UniqueConstraint(fields=["game", "seat"], name="soylentgames_unique_seat"),
        ]

    def __str__(self):
        return f"{self.user} in {self.game}"


class Piece(models.Model):
    class Kind(models.TextChoices):
        DRONE = "drone", "drone"
        TOKEN = "token", "token"

    DRONE, TOKEN = Kind.DRONE, Kind.TOKEN

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="pieces")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="pieces")
    kind = models.CharField(max_length=5, choices=Kind.choices)
    drone = models.ForeignKey("self", on_delete=models.CASCADE, null=True, blank=True, related_name="tokens")
    code = models.CharField(max_length=100)  # a token's code, a drone's name
    position = models.PositiveSmallIntegerField(default=0)
    is_true = models.BooleanField(default=False)  # the owner's SECRET until revealed
    panic = models.PositiveSmallIntegerField(default=0)
    placed = models.BooleanField(default=False)
    revealed = models.BooleanField(default=False)
    snapped = models.BooleanField(default=False)
    removed = models.BooleanField(default=False)
    lantern = models.PositiveSmallIntegerField(null=True, blank=True)  # Gardeners' lantern number
    light = models.PositiveSmallIntegerField(default=0)  # light tokens on this Character (Lighter)

    class Meta:
        ordering = ["player__seat", "position", "code", "id"]

    def __str__(self):
        return self.code


class Event(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    number = models.PositiveIntegerField()
    turn = models.PositiveIntegerField(default=0)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    kind = models.CharField(max_length=20)
    payload = models.JSONField(default=dict)  # {"lines": [...], "rolls": [...]}: public, no unrevealed truth
    seed = models.BigIntegerField(null=True, blank=True)
    undone = models.BooleanField(default=False)
    undoable = models.BooleanField(default=True)
    before = models.JSONField(default=dict)  # the engine snapshot before the event (no truths); never shown
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="soylentgames_event_number")]

    def __str__(self):
        return f"{self.kind} #{self.number}"
