"""The organiser's roll tables (injury, loot, advancement) and a seeded roll on one."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.db import transaction

from campaigns.models import RollTable
from campaigns.permissions import check_user_is_organiser
from campaigns.services.base import CampaignError
from campaigns.services.base import log as _log
from crewbuilder.models.catalogue import ATTRIBUTES
from rules.tables import parse_die, roll_table_die, uncovered

EFFECT_MAX = 3  # one row's change to one attribute, either way: the whole creation range is -2..+3


def parse_rows(text: str, die: str) -> list[dict]:
    """Rows typed one per line: ``1-2 | Lost an eye | intellect -1`` (the effect part is optional). Each row's
    results are the die's, in order, and covered by no other row: a roll reads exactly one row."""
    outcomes = set(parse_die(die).outcomes())
    covered: dict[int, int] = {}  # result -> the line that covers it
    rows = []
    for number, line in enumerate((text or "").splitlines(), start=1):
        if not line.strip():
            continue
        parts = [p.strip() for p in line.split("|")]
        if len(parts) < 2 or not parts[1]:
            raise CampaignError(f"Line {number}: write “low-high | text”, e.g. “1-2 | Lost an eye”.")
        span = parts[0].replace("–", "-")
        try:
            low, high = (int(x) for x in span.split("-", 1)) if "-" in span else (int(span), int(span))
        except ValueError:
            raise CampaignError(f"Line {number}: “{parts[0]}” is not a result or a range like 1-2.") from None
        if low > high:
            raise CampaignError(f"Line {number}: the range {low}-{high} runs backwards; write {high}-{low}.")
        results = [n for n in range(low, high + 1) if n in outcomes]
        if low not in outcomes or high not in outcomes:
            die_range = f"{min(outcomes)} to {max(outcomes)}"
            raise CampaignError(
                f"Line {number}: {die.strip().upper()} rolls {die_range}; {parts[0]} is not among them."
            )
        clash = next((n for n in results if n in covered), None)
        if clash is not None:
            raise CampaignError(
                f"Line {number}: {clash} is already on line {covered[clash]}; each result needs exactly one row."
            )
        covered.update(dict.fromkeys(results, number))
        attributes = {}
        for effect in filter(None, (parts[2] if len(parts) > 2 else "").split(",")):
            bits = effect.split()
            if len(bits) != 2 or bits[0].lower() not in ATTRIBUTES:
                raise CampaignError(f"Line {number}: effects look like “toughness -1” (attribute and change).")
            try:
                change = int(bits[1])
            except ValueError:
                raise CampaignError(f"Line {number}: “{bits[1]}” is not a number.") from None
            name = bits[0].lower()
            if name in attributes:
                raise CampaignError(f"Line {number}: {name} is changed twice; write one change for it.")
            if not -EFFECT_MAX <= change <= EFFECT_MAX:
                raise CampaignError(
                    f"Line {number}: a row changes an attribute by at most {EFFECT_MAX} either way, not {change}."
                )
            attributes[name] = change
        rows.append({"low": low, "high": high, "text": parts[1][:300], "attributes": attributes})
    if not rows:
        raise CampaignError("A table needs at least one row.")
    return rows


@transaction.atomic
def create_table(campaign, actor, *, kind, name, die, rows_text) -> RollTable:
    check_user_is_organiser(actor, campaign)
    try:
        rows = parse_rows(rows_text, die)
    except ValueError as exc:
        raise CampaignError(str(exc)) from None
    missing = uncovered(die, [(r["low"], r["high"]) for r in rows])
    if missing:
        raise CampaignError(
            f"No row covers {', '.join(map(str, missing[:8]))}: every result of {die.upper()} needs a row."
        )
    table = RollTable.objects.create(
        campaign=campaign, kind=kind, name=name.strip()[:100], die=die.strip().upper(), rows=rows
    )
    _log(campaign, actor, "table-created", f"{actor.username} defined the {kind} table “{table.name}” ({table.die}).")
    return table


@dataclass(frozen=True)
class TableResult:
    table_id: int
    seed: int
    dice: tuple
    result: int
    row: dict


def roll_on_table(table: RollTable, seed: int | None = None) -> TableResult:
    seed = secrets.randbelow(2**31) if seed is None else seed
    roll = roll_table_die(table.die, seed)
    row = next((r for r in table.rows if r["low"] <= roll.result <= r["high"]), {"text": "(no row)", "attributes": {}})
    return TableResult(table.pk, seed, roll.dice, roll.result, row)
