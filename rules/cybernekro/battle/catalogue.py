"""The rules content a battle reads: scenarios, complications, the Quick start environmental effects,
NPC profiles and sorceries are data; the step functions look them up here (or take them from the
caller, who may pass the campaign's own catalogue).

Where the data comes from is the caller's: the web app installs a provider at start (``install``) that
gives the Cybernekr0 catalogue of its database, house rules included (battles/roster.py). With none
installed (the engine on its own, the odds engine, the engine's unit tests) it is the bundled file.
A provider returns the catalogue data file's shape (``catalogue.loader.export_catalogue``).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Callable

from rules.cybernekro import engine as cn
from rules.odds import CATALOGUE_FILE

_provider: Callable[[], dict] | None = None


def install(provider: Callable[[], dict] | None) -> None:
    """Read the catalogue from ``provider()`` from now on (None: the bundled file again)."""
    global _provider
    _provider = provider


@lru_cache(maxsize=1)
def file_data() -> dict:
    """The bundled catalogue file, read once."""
    with open(CATALOGUE_FILE, encoding="utf-8") as handle:
        return json.load(handle)


def data() -> dict:
    return _provider() if _provider is not None else file_data()


def entry(section: str, slug: str) -> dict:
    for item in data().get(section, []):
        if item.get("slug") == slug:
            return item
    raise KeyError(f"no {section} entry {slug!r} in the catalogue")


def scenario_rules(scenario) -> dict:
    """The catalogue entry of a battle's scenario (a ``state.Scenario``); a campaign's own scenario has none,
    only its name and whether its organiser said it draws a Complication (B32). Neither has a house-rule
    scenario deleted while a battle plays it: that battle plays on with what its state holds."""
    if not scenario.campaign:
        try:
            return entry("scenarios", scenario.slug)
        except KeyError:
            pass
    return {"slug": scenario.slug, "name": scenario.name, "draws_complication": scenario.draws_complication}


def by_number(section: str, number: int) -> dict | None:
    return next((item for item in data().get(section, []) if item.get("number") == number), None)


def npc_traits(npc: dict) -> frozenset:
    """An NPC's abilities as trait slugs ("Unstoppable" -> "unstoppable"), plus "npc"."""
    return frozenset({"npc"} | {cn.slug(a["name"]) for a in npc.get("abilities", [])})
