"""A crew as a battle keeps it: a snapshot taken when its player joins, and the engine's models built from it.

The snapshot is the validation report's numbers (effective attributes, armor,
AP cap, weapon profiles) plus the trait, body-mod and gear slugs, so a later
edit of the crew cannot change a running battle. Nothing here decides a rule:
the numbers are the crew builder's, the engine reads them.
"""

from __future__ import annotations

from catalogue.loader import current_catalogue
from crewbuilder import crew_service
from crewbuilder.dice_service import engine_weapon
from crewbuilder.models import Crew
from rules.cybernekro.battle import catalogue as battle_catalogue
from rules.cybernekro.battle.state import Model, WeaponUse

SYSTEM = "cybernekro"
SORCERER_TRAIT = "sorcerer"


def rules_catalogue() -> dict:
    """The Cybernekr0 catalogue battles play by: the database's, house rules included (the bundled file
    until one is loaded). A battle reads the current one: a house rule changed mid-game applies from the
    next step on (docs/architecture.md)."""
    return current_catalogue(SYSTEM) or battle_catalogue.file_data()


def install_catalogue() -> None:
    battle_catalogue.install(rules_catalogue)


def snapshot(crew: Crew) -> dict:
    """``crew`` (loaded ``with_everything``) as JSON: what the battle needs of each character."""
    report = crew_service.report_for(crew)
    characters = []
    for model, ch in zip(crew.characters.all(), report["characters"]):
        characters.append(
            {
                "id": model.pk,
                "name": ch["name"],
                "attributes": ch["attributes"],
                "armor": ch["armor"],
                "ap": ch.get("ap", 3),
                "weapons": ch.get("weapons", []),
                "traits": [t.trait.slug for t in model.traits.all()],
                "body_mods": [m.body_mod.slug for m in model.body_mods.all()],
                "gear": [g.item.slug for g in model.gear.all()],
            }
        )
    return {"name": crew.name, "crew_id": crew.pk, "characters": characters}


def models_for(seat: str, crew: dict) -> list[Model]:
    """The engine's models of one seat's snapshot; ids ``<seat>-<n>`` (unique in the battle)."""
    out = []
    for n, ch in enumerate(crew["characters"]):
        attrs = ch["attributes"]
        weapons = []
        for w in ch.get("weapons", []):
            try:
                use = WeaponUse(w["slug"], w["name"], engine_weapon(w), w.get("hands"), w.get("copies") or 1)
                weapons.append(use)
            except (ValueError, KeyError):
                continue  # a house-rule keyword the engine cannot read: the weapon is left off this battle
        traits = frozenset(ch.get("traits", []))
        out.append(
            Model(
                id=f"{seat}-{n}",
                name=ch["name"],
                seat=seat,
                agility=attrs.get("agility", 0),
                strength=attrs.get("strength", 0),
                toughness=attrs.get("toughness", 0),
                intellect=attrs.get("intellect", 0),
                discipline=attrs.get("discipline", 0),
                armor=ch.get("armor", 0),
                ap_cap=ch.get("ap", 3),
                traits=traits,
                body_mods=frozenset(ch.get("body_mods", [])),
                gear=frozenset(ch.get("gear", [])),
                weapons=tuple(weapons),
                sorcerer=SORCERER_TRAIT in traits,
            )
        )
    return out
