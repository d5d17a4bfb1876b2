"""A Ghoul role sheet as the engine sees it (``rules.GhoulState``, ``VileBoard``, the turn rules' ``Sheet``) and
back; its Terror deck."""

from __future__ import annotations

from games.ghoul_role.models import GhoulSheet, TerrorCard
from rules import ghoul_role as rules

# --- the Terror deck ---------------------------------------------------------------------


def deck_size(sheet: GhoulSheet) -> int:
    """Cards in the sheet's Terror deck (fixed at creation from the catalogue)."""
    return sheet.terror_deck if sheet.terror_deck is not None else rules.TERROR_DECK


def deck_left(sheet: GhoulSheet, cards=None) -> int:
    """Cards still in the Terror deck: every card in hand, in play, removed or discarded is out
    of it; a card shuffled back (Pickpocket) is in it again. ``cards``: the sheet's cards if
    already fetched (no query)."""
    if cards is None:
        out = sheet.terror_cards.out_of_deck().count()
    else:
        out = sum(1 for c in cards if c.status in TerrorCard.OUT_OF_DECK)
    return rules.terror_cards_left(deck_size(sheet), out)


# --- state <-> engine ---------------------------------------------------------------------


def snapshot(sheet: GhoulSheet, cards) -> dict:
    state = {name: getattr(sheet, name) for name in GhoulSheet.STATE_FIELDS}
    state["cards"] = {str(c.pk): c.status for c in cards}
    return state


def engine_state(sheet: GhoulSheet) -> rules.GhoulState:
    return rules.GhoulState(
        fury=sheet.fury,
        treasures=sheet.treasures,
        movement=sheet.movement,
        attack_discs=sheet.attack_discs,
        defense=sheet.defense,
        crystals=sheet.crystals,
        attacked=frozenset(sheet.attacked),
    )


def store_state(sheet: GhoulSheet, state: rules.GhoulState) -> int:
    """Write the engine's state back; the Terror cards it says to draw."""
    sheet.fury, sheet.treasures, sheet.movement = state.fury, state.treasures, state.movement
    sheet.attack_discs, sheet.defense, sheet.crystals = state.attack_discs, state.defense, state.crystals
    sheet.attacked = sorted(state.attacked)
    return state.terror_draws


def vile_board(sheet: GhoulSheet) -> rules.VileBoard:
    return rules.VileBoard(tuple(sheet.supply), sheet.left, tuple(sheet.right))


def chart(sheet: GhoulSheet) -> dict[int, tuple[int, int]]:
    return {int(face): (row[0], row[1]) for face, row in sheet.chart.items()}


def sheet_state(sheet: GhoulSheet, cards=None, count_deck: bool = True) -> rules.Sheet:
    """The engine's view of the sheet for its turn rules (``rules.ghoul_role.check`` / ``legal``).
    ``count_deck=False``: the Terror deck is not counted (one query saved when the action is not a draw)."""
    return rules.Sheet(
        kind=sheet.kind,
        phase=sheet.phase,
        fury=sheet.fury,
        treasures=sheet.treasures,
        tracks_health=sheet.target_health is not None,
        kill_goal=bool(sheet.kill_goal),
        deck_left=deck_left(sheet, cards) if count_deck else 1,
        deck_size=deck_size(sheet),
    )
