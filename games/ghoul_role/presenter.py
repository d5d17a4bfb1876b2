"""What the Ghoul role sheet's page shows: its context, built from the rows and the engine (the odds of
the Ghoul dice, the pairs of dice to keep, the Fury track). The owner's page and the read-only link
draw the same context (``editable`` says which)."""

from __future__ import annotations

import itertools

from core.percent import percent
from games.ghoul_role.actions import DISCARD_CHOICES
from games.ghoul_role.goals import TARGETS, describe_goal, goal_basis
from games.ghoul_role.models import GhoulSheet, TerrorCard
from games.ghoul_role.services import LONG, last_standing, why_final
from games.ghoul_role.state import chart, deck_left, deck_size
from rules import ghoul_role as rules


def _pct(value) -> str:
    return percent(value)


def _bars(dist: dict, label: str) -> list[dict]:
    return [
        {"key": k, "label": f"{label} {k}", "p": float(v), "pct": _pct(v), "exact": str(v)} for k, v in dist.items()
    ]


def odds_context(dice: int) -> dict:
    """What the engine's exact odds say about one Roll and Set Statistics phase with these dice."""
    odds = rules.ghoul_dice_odds(dice)
    plan = odds["max_movement"]  # keeping the two highest dice (the same as max_attack, reading G2)
    at_least, running = [], 0
    for face in reversed(range(1, 7)):
        running += plan["attack"][str(face)]
        at_least.append(
            {
                "key": f"attack-{face}",
                "label": f"{face}+ attack",
                "p": float(running),
                "pct": _pct(running),
                "exact": str(running),
            }
        )
    at_least.reverse()
    return {
        "terror": {
            "key": "terror",
            "label": "Terror card",
            "p": float(odds["terror"]["yes"]),
            "pct": _pct(odds["terror"]["yes"]),
            "exact": str(odds["terror"]["yes"]),
        },
        "threshold": rules.TERROR_AT_OR_BELOW[dice],
        "dice": dice,
        "movement": _bars(plan["movement"], "Movement"),
        "attack": _bars(plan["attack"], "Attack"),
        "at_least": at_least,
    }


def _fury_track(sheet: GhoulSheet) -> list[dict]:
    top = max(sheet.fury_goal or 0, sheet.fury)
    return (
        [
            {
                "n": n,
                "reached": n <= sheet.fury,
                "terror": rules.terror_cards_for_fury(n - 1, n) > 0,
                "goal": n == sheet.fury_goal,
            }
            for n in range(1, top + 1)
        ]
        if top
        else []
    )


def sheet_context(sheet: GhoulSheet, editable: bool, error: str = "") -> dict:
    cards = list(sheet.terror_cards.all())
    events = list(sheet.events.all()[:LONG])
    last = last_standing(events)
    final = why_final(last, any(c.event_id == last.pk for c in cards)) if last else None
    context = {
        "sheet": sheet,
        "editable": editable,
        "error": error,
        "goal": describe_goal(sheet),
        # what the difficulty level and the player variant each set (GS1, GS2, GS11)
        "goal_basis": goal_basis(sheet),
        "hand": [c for c in cards if c.status == TerrorCard.HAND],
        "in_play": [c for c in cards if c.status == TerrorCard.ACTIVE],
        "gone": [c for c in cards if c.status not in (TerrorCard.HAND, TerrorCard.ACTIVE)],
        "events": events,
        "can_undo": last is not None and not final,
        "undo_final": final,
        "targets": TARGETS,
        "fury_track": _fury_track(sheet),
        "attack_cost_base": rules.attack_cost(0),
        "crystal_cost": rules.CRYSTAL_COST,
        "collect_cost": rules.COLLECT_COST,
        # the variant's Flare card: True, False, or None where the text does not say (the help hedges then)
        "flare": rules.variant_flare(sheet.variant),
        "flare_cost": rules.FLARE_COST,
        "deck_size": deck_size(sheet),
        "deck_left": deck_left(sheet, cards),
        "discard_choices": DISCARD_CHOICES,
    }
    if sheet.is_vile:
        right = sheet.right
        context["chart_rows"] = [
            {
                "face": face,
                "movement": m,
                "attack": a,
                "left": sheet.left == face,
                "right_dice": [face] * right.count(face),
                "in_supply": sheet.supply.count(face),
            }
            for face, (m, a) in sorted(chart(sheet).items())
        ]
        context["supply_faces"] = sorted(set(sheet.supply))
        context["boost_left"] = sheet.boost_dice - sheet.boost_spent
        context["vile_crystal_attack"] = rules.VILE_CRYSTAL_ATTACK
    else:
        context["odds"] = odds_context(sheet.dice)
        if sheet.phase == GhoulSheet.CHOOSE and len(sheet.roll) == 3:
            context["pairs"] = []
            best = rules.best_keep(sheet.roll)  # preselected: the most movement and attack at once (G2)
            best_dice = sorted((sheet.roll[best[0]], sheet.roll[best[1]]))
            listed: set[tuple[int, ...]] = set()
            for pair in itertools.combinations(range(len(sheet.roll)), 2):
                dice = (sheet.roll[pair[0]], sheet.roll[pair[1]])
                # two pairs of the same faces (4, 1 and 4, 1 in a roll of 4, 1, 1) are one choice: listed once
                if tuple(sorted(dice)) in listed:
                    continue
                listed.add(tuple(sorted(dice)))
                state = rules.start_turn(rules.GhoulState(), sheet.roll, pair, backstab=sheet.backstab)
                context["pairs"].append(
                    {
                        "keep": pair,
                        "value": f"{pair[0]}-{pair[1]}",
                        "dice": dice,
                        "movement": state.movement,
                        "attack": state.attack_discs,
                        "best": sorted(dice) == best_dice,
                    }
                )
    return context
