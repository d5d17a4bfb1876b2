"""One function per Ghoul role sheet operation.

The numbers come from the catalogue rows in the database (house rules
included) and every rule from ``rules.ghoul_role``. Each action
runs in one transaction holding the sheet's lock (``core.locking.run_locked``,
which bumps the sheet's version: a move sent from a page that shows an older
version is refused with the kit's ``Stale``) and writes an Event holding the
state before it, so the last action can be undone and every roll replayed
from its seed. A roll and a Terror card draw are final: such an event (and
so every event before it) cannot be undone (GS12). Cards are drawn from a
Terror deck of the catalogue's size: an empty deck gives none (GS15-GS17).

This module holds the catalogue reader, the lock, ``act`` and undo; the rest
is in modules by role: ``errors`` (the refusals), ``goals`` (difficulties,
variants, goals, a new sheet), ``state`` (the sheet as the engine sees it, the
Terror deck), ``actions`` (one handler per action, its choices as typed keyword
arguments) and ``presenter`` (the page). Their public names are still reachable
here for existing callers.
"""

from __future__ import annotations

import random

from catalogue.loader import current_system
from core.games import kit
from core.locking import run_locked
from crewbuilder.models import RulesEntry
from games.ghoul_role import actions, goals, permissions, state
from games.ghoul_role.errors import SheetError, StaleSheet
from games.ghoul_role.models import Event, GhoulSheet, TerrorCard
from games.ghoul_role.state import deck_left, sheet_state, snapshot
from rules import ghoul_role as rules

SYSTEM = "ghoul-role"
LONG = 30  # events shown on the sheet
LABEL = GhoulSheet._meta.label_lower  # the key of the sheet's version in the cache (the kit's polls)


# --- catalogue ------------------------------------------------------------------------------


CATALOGUE_PARTS = ("rules", "difficulties", "vile_difficulties", "player_variants", "vile_variants", "components")


def catalogue() -> dict:
    """The Ghoul role's sections from the database, by slug where the engine wants tables: two queries (the
    last loaded edition, then all its sections at once; the order within a section is ``rules_entries``')."""
    system = current_system(SYSTEM)
    rows: dict[str, list[dict]] = {part: [] for part in CATALOGUE_PARTS}
    if system is not None:
        for row in RulesEntry.objects.filter(system=system, part__in=CATALOGUE_PARTS).order_by(
            "part", "house_rule", "position", "id"
        ):
            rows[row.part].append(row.to_entry())
    by_slug = {part: {e["slug"]: e for e in entries} for part, entries in rows.items()}
    return {**by_slug, "lists": rows}


def _allowed(sheet: GhoulSheet, action: str) -> None:
    """The engine's turn rules: this role, this phase, not after the game's end, something to act on."""
    try:
        rules.check(sheet_state(sheet, count_deck=action == "draw"), action)
    except rules.NotNow as exc:
        raise SheetError(str(exc)) from None


def current_version(pk: int) -> int | None:
    """The sheet's version from the database (the kit's polls' fallback when the cache has none)."""
    return GhoulSheet.objects.filter(pk=pk).values_list("version", flat=True).first()


def _locked(sheet_id: int, user, seen_version: int | None, work):
    """``work(sheet)`` in one transaction holding the owner's sheet's lock (``core.locking``, which bumps
    its version, so ``sheet.version - 1`` is the version the page showed). ``seen_version``: the version
    of the page the move was sent from (None: a caller with no page); an older one is refused (409).
    The new version is published to the kit's polls once committed."""

    def locked(sheet: GhoulSheet):
        permissions.check_user_owns_sheet(user, sheet)
        if seen_version is not None and seen_version != sheet.version - 1:
            raise StaleSheet("The sheet changed since this page was drawn: here it is as it is now.")
        result = work(sheet)
        kit.bump_version(LABEL, sheet.pk, sheet.version)
        return result

    return run_locked(
        GhoulSheet,
        sheet_id,
        locked,
        missing=SheetError("No such sheet."),
        busy=SheetError("The sheet is busy: try again."),
    )


def act(sheet_id: int, user, action: str, *, seen_version: int | None = None, **choices) -> Event:
    """Apply one action to the owner's sheet (locked), with its Event and Terror cards. ``choices``: the
    action's own, as its handler's typed keyword arguments (``action_forms`` reads them from a POST)."""
    handler = actions.ACTIONS.get(action)
    if handler is None:
        raise SheetError("Unknown action.")
    return _locked(sheet_id, user, seen_version, lambda sheet: _act(sheet, action, handler, choices))


def _act(sheet: GhoulSheet, action: str, handler, choices: dict) -> Event:
    _allowed(sheet, action)
    before = snapshot(sheet, sheet.terror_cards.all())
    turn = sheet.turn
    outcome = handler(sheet, **choices)
    cards = outcome.cards
    if cards:  # cards come off the Terror deck while it has any (GS15)
        drawn, _short = rules.draw_terror_cards(deck_left(sheet), len(cards))
        cards, missed = cards[:drawn], cards[drawn:]
        if missed:
            why = ", ".join(TerrorCard.REASONS.get(r, r) for r in missed)
            outcome.summary += (
                f" The Terror deck is empty: {len(missed)} Terror card{'s' if len(missed) != 1 else ''}"
                f" not drawn ({why})."
            )
            outcome.data["not_drawn"] = missed
    sheet.save()
    event = Event.objects.create(
        sheet=sheet,
        turn=sheet.turn if action in ("roll", "prepare") else turn,
        kind=action,
        summary=outcome.summary[:300],
        seed=outcome.seed,
        data=outcome.data,
        before=before,
    )
    if cards:
        TerrorCard.objects.bulk_create(
            [TerrorCard(sheet=sheet, event=event, drawn_turn=sheet.turn, reason=r) for r in cards]
        )
    return event


def why_final(event: Event, drew_cards: bool) -> str | None:
    """Why this event can never be undone (nor, so, any before it), or None (GS12)."""
    if event.seed is not None:
        return "it rolled dice, and a roll is final"
    if drew_cards:
        return "it drew a Terror card, and a card drawn is final"
    return None


def last_standing(events) -> Event | None:
    """The latest event not undone (newest first): the only one undo may take back."""
    return next((e for e in events if not e.undone and e.kind != "created"), None)


def undo(sheet_id: int, user, *, seen_version: int | None = None) -> Event:
    """Undo the last action not yet undone: its state back, its card plays undone.
    A roll or a Terror card draw cannot be undone (GS12)."""
    return _locked(sheet_id, user, seen_version, _undo)


def _undo(sheet: GhoulSheet) -> Event:
    event = sheet.events.standing().first()
    if event is None:
        raise SheetError("Nothing to undo.")
    final = why_final(event, event.cards.exists())
    if final:
        raise SheetError(f"That action cannot be undone: {final}.")
    before = event.before
    for name in GhoulSheet.STATE_FIELDS:
        setattr(sheet, name, before[name])
    sheet.save()
    event.cards.all().delete()
    for card in sheet.terror_cards.all():
        status = before["cards"].get(str(card.pk))
        if status is not None and status != card.status:
            card.status = status
            card.save(update_fields=["status"])
    event.undone = True
    event.save(update_fields=["undone"])
    return event


def name_card(sheet_id: int, user, *, card_id: int, name: str, seen_version: int | None = None) -> TerrorCard:
    name = name.strip()
    if not name:
        raise SheetError("Type the card's name.")
    if len(name) > 60:
        raise SheetError("A card name is at most 60 characters.")

    def work(sheet: GhoulSheet) -> TerrorCard:
        card = sheet.terror_cards.filter(pk=card_id).first()
        if card is None:
            raise SheetError("No such Terror card on this sheet.")
        card.name = name
        card.save(update_fields=["name"])
        return card

    return _locked(sheet_id, user, seen_version, work)


def set_sharing(sheet_id: int, user, *, on: bool) -> GhoulSheet:
    """A read-only link on (a new token: an older link stays dead) or off."""

    def work(sheet: GhoulSheet) -> GhoulSheet:
        sheet.share_token = kit.new_share_token() if on else ""
        sheet.save(update_fields=["share_token", "updated_at"])
        return sheet

    return _locked(sheet_id, user, None, work)


def replay_roll(sheet: GhoulSheet, event: Event) -> tuple[int, ...]:
    """The dice of a logged roll, rolled again from its seed."""
    rng = random.Random(event.seed)
    if event.kind == "roll":
        return rules.roll_ghoul_dice(rng, sheet.dice, event.seed).dice
    if event.kind == "prepare":
        return rules.prepare_board(rules.VileBoard(), rng, sheet.dice).supply
    raise ValueError("this event rolled no dice")


_MOVED = (goals, state, actions)


def __getattr__(name: str):
    """The names that moved to the role modules, for existing callers (``services.create_sheet``)."""
    for module in _MOVED:
        if hasattr(module, name):
            return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
