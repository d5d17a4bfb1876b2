"""Ghoulash game boxes (the owner's numbers and character decks) and games at the table.

A ``GhoulashBox`` holds what the rules text does not give: the characters'
missing profile numbers, the Victory Points of the Ghoul strengths the text
leaves out, and each character's deck (``BoxCard`` rows, the catalogue's known
cards pre-listed). Numbers the rules give (Lake's and Gray's Initial Combat
Value 1, a strength-5 Ghoul's 2 VP) come from the catalogue, never from here.

A ``Game`` copies the box's numbers and decks when it starts (a later box edit
cannot change a running game). ``Player.hand`` and the unrevealed ``TileToken``
kinds are secrets: only ``games.ghoulash.presenter.table`` reads them for display, a
hand for its owner only, a token once revealed.
"""

from django.conf import settings
from django.db import models
from django.urls import reverse

CHARACTER_SLUGS = ("lake", "gray", "cornealius", "zone")


class GhoulashBoxQuerySet(models.QuerySet):
    def owned_by(self, user):
        return self.filter(owner=user)


class GhoulashBox(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ghoulash_boxes")
    name = models.CharField(max_length=100)
    # {"cornealius": {"initial_combat_value": 2, "movement": 5, "health": 6}, ...}: the owner's numbers,
    # only for the ones the rules text does not give
    stats = models.JSONField(default=dict, blank=True)
    # {"6": 3, "4": 1}: the owner's green dots for the Ghoul strengths the text does not give
    ghoul_vp = models.JSONField(default=dict, blank=True)
    # bumped by every save of the numbers: a numbers form opened before another tab's save is stale (409)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = GhoulashBoxQuerySet.as_manager()

    class Meta:
        ordering = ["name", "id"]
        verbose_name = "Ghoulash game box"

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("ghoulash-box", args=[self.pk])


class BoxCard(models.Model):
    class CardType(models.TextChoices):
        VALUE = "value", "Value"
        ACTION = "action", "Action"
        RESCUE = "rescue", "Rescue"
        SPECIALTY = "specialty", "Specialty"
        SPECIALTY_VALUE = "specialty-value", "Specialty Value"
        SPECIALTY_ACTION = "specialty-action", "Specialty Action"
        SPECIALTY_RESCUE = "specialty-rescue", "Specialty Rescue"

    VALUE, ACTION, RESCUE, SPECIALTY = CardType.VALUE, CardType.ACTION, CardType.RESCUE, CardType.SPECIALTY
    SPECIALTY_VALUE, SPECIALTY_ACTION = CardType.SPECIALTY_VALUE, CardType.SPECIALTY_ACTION
    SPECIALTY_RESCUE = CardType.SPECIALTY_RESCUE
    TYPES = CardType.choices
    # the types put down as a Value in a battle or a challenge (a double label is played as its second label)
    VALUE_TYPES = (VALUE, SPECIALTY_VALUE)

    box = models.ForeignKey(GhoulashBox, on_delete=models.CASCADE, related_name="cards")
    character = models.CharField(max_length=20, choices=[(s, s.title()) for s in CHARACTER_SLUGS])
    # "" = not given: a catalogue card whose type the rules text does not name (Steal)
    card_type = models.CharField(max_length=20, choices=CardType.choices, blank=True)
    name = models.CharField(max_length=100)
    value = models.PositiveSmallIntegerField(null=True, blank=True)
    text = models.TextField(blank=True)
    # None = not entered yet (a card the rules name without saying how many a deck holds)
    count = models.PositiveSmallIntegerField(null=True, blank=True)
    catalogue_slug = models.SlugField(max_length=100, blank=True)  # pre-listed from the catalogue
    position = models.PositiveIntegerField(default=0)
    # bumped by every save from a form: a form opened before another tab's save is stale (409, never overwrites)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["character", "position", "id"]

    def __str__(self):
        return f"{self.name} ({self.character})"

    @property
    def value_unused(self) -> bool:
        """A value saved on a card that is never put down as a Value (kept, not used: GT2)."""
        return self.value is not None and self.card_type not in self.VALUE_TYPES


class GameQuerySet(models.QuerySet):
    def for_player(self, user):
        """The games where the user has a seat."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(players__user=user)


class Game(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", "playing"
        FINISHED = "finished", "finished"

    PLAYING, FINISHED = Status.PLAYING, Status.FINISHED
    # what the game waits for
    TURN_START, TURN, BATTLE, CHALLENGE, RESPONSE, FIRST_AID = (
        "turn-start",
        "turn",
        "battle",
        "challenge",
        "response",
        "first-aid",
    )

    box = models.ForeignKey(GhoulashBox, on_delete=models.SET_NULL, null=True, blank=True, related_name="games")
    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ghoulash_games")
    name = models.CharField(max_length=100)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    scenario_lock_and_load = models.BooleanField(default=False)
    deal_seed = models.BigIntegerField()  # SECRET until the game is over: it replays the whole token deal
    turn = models.PositiveIntegerField(default=1)
    current_seat = models.PositiveSmallIntegerField(default=0)
    phase = models.CharField(max_length=12, default=TURN_START)
    # the Ghoul battle under way: {"seat", "token", "played": [card ids], "offers": [seats], "challenger",
    # "challenge": [card ids], "parried": [card ids], "response": [card ids]}; public (cards put down)
    battle = models.JSONField(null=True, blank=True)
    action_taken = models.BooleanField(default=False)
    # the turn's Action in detail (GT9, GT18): Action cards played, the piece moved (entered a square),
    # Zone's trade of movement for a second Action card
    action_cards = models.PositiveSmallIntegerField(default=0)
    moved = models.BooleanField(default=False)
    gave_up_movement = models.BooleanField(default=False)
    encountered = models.BooleanField(default=False)  # an encounter ends the player's movement
    winners = models.JSONField(default=list, blank=True)  # usernames
    version = models.PositiveIntegerField(default=1)  # bumped by every change; the page polls with it
    created_at = models.DateTimeField(auto_now_add=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("ghoulash-game", args=[self.pk])


class PlayerQuerySet(models.QuerySet):
    def seats_of(self, user):
        """The user's seats, newest game first, with each game (the home page's list)."""
        return self.filter(user=user).select_related("game").order_by("-game__created_at")


class Player(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ghoulash_seats")
    seat = models.PositiveSmallIntegerField()  # table order: each seat is followed by the player on its left
    character = models.CharField(max_length=20)
    character_name = models.CharField(max_length=100)
    initial_combat_value = models.IntegerField()
    movement = models.IntegerField(null=True, blank=True)  # None: not entered (the tracker does not use it)
    health = models.IntegerField()
    specialty = models.TextField(blank=True)
    # the deck copied from the box: [{"id", "name", "type", "value", "text"}] (the printed deck list), and while
    # this player holds a card stolen from another, a copy standing for it: its "owner" (the owning character)
    # and "owner_id" (its id in the owner's deck) (GT20)
    deck = models.JSONField(default=list)
    # card ids; hand, draw, discard and wounds are the owner's SECRET (others see counts)
    hand = models.JSONField(default=list)
    draw = models.JSONField(default=list)  # top first
    discard = models.JSONField(default=list)
    wounds = models.JSONField(default=list)
    in_hole = models.BooleanField(default=False)
    dead = models.BooleanField(default=False)
    victory_points = models.IntegerField(default=0)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="ghoulash_one_seat_per_user"),
            models.UniqueConstraint(fields=["game", "seat"], name="ghoulash_unique_seat"),
            models.UniqueConstraint(fields=["game", "character"], name="ghoulash_one_deck_per_character"),
        ]

    def __str__(self):
        return f"{self.user} as {self.character_name}"


class TileToken(models.Model):
    """One Encounter Token on the board. ``kind``/``strength``/``victory_points`` are
    SECRET while ``revealed`` is False."""

    ON_BOARD, TAKEN, USED, SET_ASIDE = "board", "taken", "used", "set-aside"
    # a Hole token stacked on a square that already holds a Hole: "remove the uppermost Hole token"
    REMOVED = "removed"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="tokens")
    tile = models.PositiveSmallIntegerField()  # 1..4
    slot = models.PositiveSmallIntegerField()  # 1..: its place among the tile's tokens (random)
    kind = models.CharField(max_length=20)
    strength = models.PositiveSmallIntegerField(null=True, blank=True)
    victory_points = models.PositiveSmallIntegerField(null=True, blank=True)
    revealed = models.BooleanField(default=False)
    state = models.CharField(max_length=10, default=ON_BOARD)
    holder = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="tokens")

    class Meta:
        ordering = ["tile", "slot"]
        constraints = [models.UniqueConstraint(fields=["game", "tile", "slot"], name="ghoulash_one_token_per_slot")]

    def __str__(self):
        return f"tile {self.tile} token {self.slot}"

    @property
    def label(self) -> str:
        return f"Tile {self.tile}, token {self.slot}"


class Event(models.Model):
    """One public line of the game's log. ``seed`` replays its random step; seeds of
    shuffles, deals and blind picks are shown only once the game is over."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    number = models.PositiveIntegerField()
    turn = models.PositiveIntegerField(default=0)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    kind = models.CharField(max_length=20)
    text = models.CharField(max_length=500)
    seed = models.BigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="ghoulash_event_number")]

    def __str__(self):
        return f"{self.kind} #{self.number}"
