"""The rules content a battle reads: the bundled Cybernekr0 catalogue file (plain JSON, no Django).

Scenarios, complications, the Quick start environmental effects, NPC profiles
and sorceries are data; the step functions look them up here (or take them
from the caller, who may pass the campaign's own catalogue).
"""

from __future__ import annotations

import json
from functools import lru_cache

from rules.cybernekro import engine as cn
from rules.odds import CATALOGUE_FILE


@lru_cache(maxsize=1)
def data() -> dict:
    with open(CATALOGUE_FILE, encoding="utf-8") as handle:
        return json.load(handle)


def entry(section: str, slug: str) -> dict:
    for item in data().get(section, []):
        if item.get("slug") == slug:
            return item
    raise KeyError(f"no {section} entry {slug!r} in the catalogue")


def scenario_rules(scenario) -> dict:
    """The catalogue entry of a battle's scenario (a ``state.Scenario``); a campaign's own scenario has none,
    only its name and whether its organiser said it draws a Complication (B32)."""
    if scenario.campaign:
        return {"slug": scenario.slug, "name": scenario.name, "draws_complication": scenario.draws_complication}
    return entry("scenarios", scenario.slug)


def by_number(section: str, number: int) -> dict | None:
    return next((item for item in data().get(section, []) if item.get("number") == number), None)


def npc_traits(npc: dict) -> frozenset:
    """An NPC's abilities as trait slugs ("Unstoppable" -> "unstoppable"), plus "npc"."""
    return frozenset({"npc"} | {cn.slug(a["name"]) for a in npc.get("abilities", [])})
