"""Ghoulash game boxes: a new box, and saving its cards and numbers without overwriting a newer save."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F

from games.ghoulash import services
from games.ghoulash.decks import known_cards, value_rows
from games.ghoulash.models import CHARACTER_SLUGS, BoxCard, GhoulashBox


@transaction.atomic
def create_box(owner, name: str) -> GhoulashBox:
    """A new box starting from what the text gives: a Value card row per value it names, then the catalogue's
    known cards, each in its decks (counts not entered: only the owner's printed decks hold them)."""
    name = (name or "").strip()[:100]
    if not name:
        raise services.GameError("Give the box a name.")
    box = GhoulashBox.objects.create(owner=owner, name=name)
    cat = services.catalogue()
    cards = []
    values = value_rows(cat)
    for position, row in enumerate(values):
        for slug in CHARACTER_SLUGS:
            cards.append(
                BoxCard(
                    box=box,
                    character=slug,
                    card_type=BoxCard.VALUE,
                    name=row["name"],
                    value=row["value"],
                    catalogue_slug=row["slug"],
                    position=position,
                )
            )
    for position, entry in enumerate(known_cards(cat), start=len(values)):
        card_type = entry.get("kind") or ""
        for slug in entry["decks"]:
            cards.append(
                BoxCard(
                    box=box,
                    character=slug,
                    card_type=card_type,
                    name=entry["name"],
                    text=entry.get("text", ""),
                    catalogue_slug=entry["slug"],
                    position=position,
                )
            )
    BoxCard.objects.bulk_create(cards)
    return box


class StaleCard(Exception):
    """The card was saved elsewhere (another tab or device) since the form was opened; ``card`` is the newer
    one (None: removed)."""

    def __init__(self, card: BoxCard | None):
        super().__init__("This card changed elsewhere since you opened it.")
        self.card = card


CARD_FIELDS = ["character", "card_type", "name", "value", "count", "text"]


def save_card(card: BoxCard, seen_version: int, fields=CARD_FIELDS) -> None:
    """Save ``card``'s ``fields`` only if nobody saved it since ``seen_version`` (optimistic locking, as the crew
    editor): raises StaleCard, never overwrites a newer save."""
    with transaction.atomic():
        saved = BoxCard.objects.filter(pk=card.pk, box_id=card.box_id, version=seen_version).update(
            **{f: getattr(card, f) for f in fields}, version=F("version") + 1
        )
        if not saved:
            raise StaleCard(BoxCard.objects.filter(pk=card.pk, box_id=card.box_id).first())
    card.version = seen_version + 1


class StaleCards(Exception):
    """Cards of a table saved elsewhere since it was opened: ``cards`` {pk: the newer card, None if removed}."""

    def __init__(self, cards: dict[int, BoxCard | None]):
        super().__init__("Some cards changed elsewhere since you opened the table.")
        self.cards = cards


@transaction.atomic
def save_cards(changes: list[tuple[BoxCard, int, list[str]]]) -> None:
    """Save several cards at once, each (card, version seen, fields changed), all or none: if one of them
    was saved elsewhere since, nothing is saved and StaleCards names them all."""
    stale: dict[int, BoxCard | None] = {}
    for card, seen, fields in changes:
        try:
            save_card(card, seen, fields)
        except StaleCard as exc:
            stale[card.pk] = exc.card
    if stale:
        transaction.set_rollback(True)
        raise StaleCards(stale)


class StaleBox(Exception):
    """The box's numbers were saved elsewhere since the form was opened; ``box`` is the newer one."""

    def __init__(self, box: GhoulashBox):
        super().__init__("The numbers changed elsewhere since you opened the box.")
        self.box = box


def save_numbers(box: GhoulashBox, stats: dict, ghoul_vp: dict, seen_version: int | None = None) -> None:
    """Store the owner's numbers (only those the rules text leaves out). With ``seen_version`` (a form's), only
    if nobody saved them since: raises StaleBox, never overwrites a newer save."""
    box.stats = {
        slug: kept for slug, numbers in stats.items() if (kept := {k: v for k, v in numbers.items() if v is not None})
    }
    box.ghoul_vp = {str(k): v for k, v in ghoul_vp.items() if v is not None}
    rows = GhoulashBox.objects.filter(pk=box.pk)
    if seen_version is not None:
        rows = rows.filter(version=seen_version)
    if not rows.update(stats=box.stats, ghoul_vp=box.ghoul_vp, version=F("version") + 1):
        raise StaleBox(GhoulashBox.objects.get(pk=box.pk))
    box.refresh_from_db(fields=["version"])
