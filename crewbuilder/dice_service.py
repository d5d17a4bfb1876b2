"""The dice assistant's inputs: attackers, weapons and targets from crews the
user may see, NPCs from the catalogue, or typed stats — all turned into the
engine's frozen inputs. Rules come from crewbuilder.rules only."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from crewbuilder import crew_service
from crewbuilder.models import Crew, Item, Npc
from crewbuilder.rules import exact

COMPLICATION_CHOICES = [
    ("darkness", "Darkness (ranged −3)"),
    ("partial-darkness", "Partial darkness (ranged −2)"),
    ("slippery-ground", "Slippery ground (Agility −2)"),
    ("noxious-air", "Noxious air (Toughness −2)"),
]


def _int(params, key, default=0, low=-20, high=50) -> int:
    try:
        return min(max(int(params.get(key, default)), low), high)
    except (TypeError, ValueError):
        return default


def _flag(params, key) -> bool:
    return params.get(key) in ("1", "on", "true")


def _slugs(text: str) -> frozenset:
    return frozenset(s for s in (crew_service._slug(p) for p in (text or "").split(",")) if s)


@dataclass
class Side:
    label: str
    stats: dict  # the typed-stat form of this side, for share links
    weapons: list  # [{"slug", "name", "damage", "range", "keywords"}]


def visible_characters(user, share_tokens=()) -> list[dict]:
    """Characters of the user's own crews and of crews whose share link they opened."""
    from django.db.models import Q

    mine = Q(owner=user) if user.is_authenticated else Q(pk__in=[])
    shared = Q(share_token__in=[t for t in share_tokens if t])
    out = []
    for crew in Crew.objects.with_everything().filter(mine | shared).order_by("owner_id", "name"):
        own = user.is_authenticated and crew.owner_id == user.pk
        report = crew_service.report_for(crew)
        for model, ch in zip(crew.characters.all(), report["characters"]):
            out.append({
                "id": model.pk, "own": own,
                "label": f"{ch['name']} ({crew.name}{'' if own else ', shared'})", "report": ch,
                "traits": [t.trait.slug for t in model.traits.all()],
                "body_mods": [m.body_mod.slug for m in model.body_mods.all()],
                "gear": [g.item.slug for g in model.gear.all()],
            })
    return out


def catalogue_weapons(system_slug="cybernekro") -> list[dict]:
    return [
        {"slug": w.slug, "name": w.name, "damage": w.damage, "range": w.range, "keywords": list(w.keywords)}
        for w in Item.objects.filter(category=Item.WEAPON, system__slug=system_slug).order_by("position")
    ]


def npcs(system_slug="cybernekro") -> list[Npc]:
    return list(Npc.objects.filter(system__slug=system_slug).order_by("position"))


def attacker_side(params, characters) -> Side:
    source = params.get("attacker", "typed")
    found = next((c for c in characters if c["own"] and f"crew:{c['id']}" == source), None)
    if found:
        attrs = found["report"]["attributes"]
        stats = {"a_agility": attrs["agility"], "a_discipline": attrs["discipline"], "a_strength": attrs["strength"],
                 "a_traits": ",".join(found["traits"]), "a_body_mods": ",".join(found["body_mods"])}
        return Side(found["label"], stats, found["report"].get("weapons", []))
    stats = {k: params.get(k, "") for k in ("a_agility", "a_discipline", "a_strength", "a_traits", "a_body_mods")}
    return Side("Typed attacker", stats, catalogue_weapons())


def target_side(params, characters, npc_list) -> Side:
    source = params.get("target", "typed")
    found = next((c for c in characters if f"crew:{c['id']}" == source), None)
    if found:
        attrs = found["report"]["attributes"]
        stats = {"t_toughness": attrs["toughness"], "t_strength": attrs["strength"], "t_armor": found["report"]["armor"],
                 "t_traits": ",".join(found["traits"]), "t_body_mods": ",".join(found["body_mods"]),
                 "t_gear": ",".join(found["gear"])}
        return Side(found["label"], stats, [])
    npc = next((n for n in npc_list if f"npc:{n.slug}" == source), None)
    if npc:
        abilities = [crew_service._slug(a.get("name", a) if isinstance(a, dict) else a) for a in npc.abilities]
        stats = {"t_toughness": npc.attributes.get("toughness", 0), "t_strength": npc.attributes.get("strength", 0),
                 "t_armor": npc.armor, "t_traits": ",".join(["npc", *abilities]), "t_body_mods": "", "t_gear": ""}
        return Side(npc.name, stats, [])
    stats = {k: params.get(k, "") for k in ("t_toughness", "t_strength", "t_armor", "t_traits", "t_body_mods", "t_gear")}
    return Side("Typed target", stats, [])


def build_inputs(params, attacker: Side, target: Side):
    """The engine's inputs, or None when no weapon is chosen."""
    a, t = attacker.stats, target.stats
    weapon_entry = next((w for w in attacker.weapons if w["slug"] == params.get("weapon")), None)
    if weapon_entry is None and attacker.weapons:
        weapon_entry = attacker.weapons[0]
    if weapon_entry is None:
        return None
    weapon = exact.Weapon(int(weapon_entry["damage"]), weapon_entry.get("range"),
                          exact.Keywords.parse(weapon_entry.get("keywords")))
    action = params.get("action")
    if action not in ("fight", "shoot"):
        action = "fight" if weapon.range is None else "shoot"
    if action == "shoot" and weapon.range is None and not weapon.keywords.has("thrown"):
        action = "fight"
    if action == "fight" and weapon.range is not None:
        action = "shoot"
    attacker_in = exact.Attacker(_int(a, "a_agility"), _int(a, "a_discipline"), _int(a, "a_strength"),
                                 _slugs(a.get("a_traits")), _slugs(a.get("a_body_mods")))
    target_in = exact.Target(_int(t, "t_toughness"), _int(t, "t_strength"), _int(t, "t_armor", 0, 0, 50),
                             _int(params, "t_wounds", 0, 0, 6), _flag(params, "t_prone"),
                             _slugs(t.get("t_traits")), _slugs(t.get("t_body_mods")), _slugs(t.get("t_gear")))
    situation = exact.Situation(_flag(params, "cover"), _flag(params, "long_range"), _flag(params, "surrounded"),
                                _int(params, "modifier", 0, -20, 20), params.get("auto", "1") != "0",
                                _flag(params, "over_half_range"))
    complications = [c for c in params.getlist("complication") if c in dict(COMPLICATION_CHOICES)] if hasattr(params, "getlist") else []
    target_in, situation = exact.apply_complications(complications, action, target_in, situation)
    return {"action": action, "attacker": attacker_in, "weapon": weapon, "weapon_entry": weapon_entry,
            "target": target_in, "situation": situation}


def new_seed() -> int:
    return secrets.randbelow(2**31)
