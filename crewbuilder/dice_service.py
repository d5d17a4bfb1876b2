"""The dice assistant's inputs: attackers, weapons and targets from crews the
user may see, NPCs from the catalogue, or typed stats — all turned into the
reference engine's frozen inputs (``rules.cybernekro.engine``). Rules come
from rules only; bad typed input becomes a message, never a guess."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field, replace

from crewbuilder import crew_service
from crewbuilder.models import Crew, Item, Npc
from rules.cybernekro import engine as cn
from rules.odds import BODY_MODS, GEAR, TRAITS

COMPLICATION_CHOICES = list(cn.COMPLICATIONS.items())
SEED_LIMIT = 2**32 - 1
MORALE_TRAITS = ("jinxed", "driven-by-madness", "artificial", "demonic", "lobotomised")


def number(params, key: str, label: str, default: int, low: int, high: int, errors: list) -> int:
    """A whole number from the query string; a message in ``errors`` when it is not one or out of range."""
    raw = params.get(key, "")
    if raw is None or str(raw).strip() == "":
        return default
    try:
        value = int(str(raw).strip())
    except ValueError:
        errors.append(f"{label}: enter a whole number (got “{raw}”).")
        return default
    if not low <= value <= high:
        errors.append(f"{label}: from {low} to {high} (got {value}).")
        return default
    return value


def _flag(params, key) -> bool:
    return params.get(key) in ("1", "on", "true")


def slugs(text: str, known: frozenset, label: str, errors: list | None) -> frozenset:
    """Comma-separated names -> slugs; unknown ones are a message (or dropped when ``errors`` is None)."""
    out = set()
    for part in (text or "").split(","):
        s = cn.slug(part)
        if not s:
            continue
        if s in known:
            out.add(s)
        elif errors is not None:
            errors.append(f"{label}: unknown “{part.strip()}”.")
    return frozenset(out)


def _known(names, known: frozenset) -> str:
    """A crew character's slugs that the engine knows (others change no roll), as typed text."""
    return ",".join(s for s in names if s in known)


@dataclass
class Side:
    label: str
    stats: dict  # the typed-stat form of this side, for share links
    weapons: list  # [{"slug", "name", "damage", "range", "keywords"}]


@dataclass
class AttackInputs:
    action: str
    attacker: cn.Attacker
    weapon: cn.Weapon
    weapon_entry: dict
    target: cn.Target
    situation: cn.Situation
    complications: tuple = ()
    plan: cn.AttackPlan | None = field(default=None)


def visible_characters(user, share_tokens=()) -> list[dict]:
    """Characters of the user's own crews and of crews whose share link they opened."""
    from django.db.models import Q

    mine = Q(owner=user) if user.is_authenticated else Q(pk__in=[])
    shared = Q(share_token__in=[t for t in share_tokens if t])
    out = []
    # The dice assistant is Cybernekr0's: other games' crews (drone sets) have other bodies.
    crews = Crew.objects.with_everything().filter(mine | shared, system__slug="cybernekro")
    for crew in crews.order_by("owner_id", "name"):
        own = user.is_authenticated and crew.owner_id == user.pk
        report = crew_service.report_for(crew)
        for model, ch in zip(crew.characters.all(), report["characters"]):
            out.append({
                "id": model.pk, "key": f"crew:{model.pk}", "own": own,
                "label": f"{ch['name']} ({crew.name}{'' if own else ', shared'})", "report": ch,
                "traits": [t.trait.slug for t in model.traits.all()],
                "body_mods": [m.body_mod.slug for m in model.body_mods.all()],
                "gear": [g.item.slug for g in model.gear.all()],
            })
    return out


def own_character(params, characters, key: str):
    """The character named ``crew:<id>`` by ``params[key]`` if it is the user's own, else None."""
    source = params.get(key, "")
    return next((c for c in characters if c["own"] and f"crew:{c['id']}" == source), None)


def catalogue_weapons(system_slug="cybernekro") -> list[dict]:
    return [
        {"slug": w.slug, "name": w.name, "damage": w.damage, "range": w.range, "keywords": list(w.keywords)}
        for w in Item.objects.filter(category=Item.WEAPON, system__slug=system_slug).order_by("position")
    ]


def npcs(system_slug="cybernekro") -> list[Npc]:
    return list(Npc.objects.filter(system__slug=system_slug).order_by("position"))


def attacker_side(params, characters) -> Side:
    found = own_character(params, characters, "attacker")
    if found:
        attrs = found["report"]["attributes"]
        stats = {"a_agility": attrs["agility"], "a_discipline": attrs["discipline"], "a_strength": attrs["strength"],
                 "a_traits": _known(found["traits"], TRAITS), "a_body_mods": _known(found["body_mods"], BODY_MODS)}
        return Side(found["label"], stats, found["report"].get("weapons", []))
    stats = {k: params.get(k, "") for k in ("a_agility", "a_discipline", "a_strength", "a_traits", "a_body_mods")}
    return Side("Typed attacker", stats, catalogue_weapons())


def target_side(params, characters, npc_list) -> Side:
    source = params.get("target", "typed")
    found = next((c for c in characters if f"crew:{c['id']}" == source), None)
    if found:
        attrs = found["report"]["attributes"]
        stats = {"t_toughness": attrs["toughness"], "t_strength": attrs["strength"], "t_armor": found["report"]["armor"],
                 "t_traits": _known(found["traits"], TRAITS), "t_body_mods": _known(found["body_mods"], BODY_MODS),
                 "t_gear": _known(found["gear"], GEAR)}
        return Side(found["label"], stats, [])
    npc = next((n for n in npc_list if f"npc:{n.slug}" == source), None)
    if npc:
        abilities = [cn.slug(a.get("name", a) if isinstance(a, dict) else a) for a in npc.abilities]
        stats = {"t_toughness": npc.attributes.get("toughness", 0), "t_strength": npc.attributes.get("strength", 0),
                 "t_armor": npc.armor, "t_traits": _known(["npc", *abilities], TRAITS), "t_body_mods": "", "t_gear": ""}
        return Side(npc.name, stats, [])
    stats = {k: params.get(k, "") for k in ("t_toughness", "t_strength", "t_armor", "t_traits", "t_body_mods", "t_gear")}
    return Side("Typed target", stats, [])


def engine_weapon(entry: dict) -> cn.Weapon:
    """A weapon entry (catalogue or a character's profile) -> the engine's Weapon (ValueError if its keywords are unknown)."""
    return cn.Weapon(int(entry["damage"] or 0), entry.get("range"), cn.Keywords.parse(entry.get("keywords") or []),
                     entry.get("slug"))


def action_for(weapon: cn.Weapon, wanted: str | None) -> str:
    """Fight with a melee weapon, Shoot with a ranged one; a Thrown melee weapon may Shoot when asked."""
    if weapon.ranged:
        return "shoot"
    return "shoot" if wanted == "shoot" and weapon.keywords.has("thrown") else "fight"


def plan(action: str, attacker: cn.Attacker, weapon: cn.Weapon, target: cn.Target, situation: cn.Situation,
         complications=()) -> cn.AttackPlan:
    """The reference engine's plan of this attack, the complications folded in for this action."""
    attacker, target, situation = cn.apply_complications(complications, action, attacker, target, situation)
    return cn.plan_attack(action, attacker, weapon, target, situation)


def build_inputs(params, attacker: Side, target: Side) -> tuple[AttackInputs | None, list[str]]:
    """The engine's inputs and the messages about the typed input (inputs None when there is no attack to show)."""
    errors: list[str] = []
    a, t = attacker.stats, target.stats
    weapon_entry = next((w for w in attacker.weapons if w["slug"] == params.get("weapon")), None)
    if weapon_entry is None and attacker.weapons:
        weapon_entry = attacker.weapons[0]
    if weapon_entry is None:
        return None, errors
    try:
        weapon = engine_weapon(weapon_entry)
    except ValueError as exc:
        return None, [f"{weapon_entry['name']}: {exc}"]
    action = action_for(weapon, params.get("action"))
    attacker_in = cn.Attacker(
        agility=number(a, "a_agility", "Agility", 0, -20, 20, errors),
        discipline=number(a, "a_discipline", "Discipline", 0, -20, 20, errors),
        strength=number(a, "a_strength", "Strength", 0, -20, 20, errors),
        traits=slugs(a.get("a_traits"), TRAITS, "Attacker's traits", errors),
        body_mods=slugs(a.get("a_body_mods"), BODY_MODS, "Attacker's body-mods", errors),
    )
    target_in = cn.Target(
        toughness=number(t, "t_toughness", "Toughness", 0, -20, 20, errors),
        strength=number(t, "t_strength", "Target's Strength", 0, -20, 20, errors),
        armor=number(t, "t_armor", "Armor", 0, 0, 50, errors),
        wounds=number(params, "t_wounds", "Wounds now", 0, 0, cn.MAX_WOUNDS, errors),
        prone=_flag(params, "t_prone"),
        traits=slugs(t.get("t_traits"), TRAITS, "Target's traits", errors),
        body_mods=slugs(t.get("t_body_mods"), BODY_MODS, "Target's body-mods", errors),
        gear=slugs(t.get("t_gear"), GEAR, "Target's gear", errors),
    )
    situation = cn.Situation(
        cover=_flag(params, "cover"), long_range=_flag(params, "long_range"), surrounded=_flag(params, "surrounded"),
        modifier=number(params, "modifier", "Other modifier to hit", 0, -20, 20, errors),
        auto=params.get("auto", "1") != "0", over_half_range=_flag(params, "over_half_range"),
    )
    complications = tuple(params.getlist("complication")) if hasattr(params, "getlist") else ()
    unknown = [c for c in complications if c not in cn.COMPLICATIONS]
    if unknown:
        errors.append(f"Unknown complication: {', '.join(unknown)}.")
    if errors:
        return None, errors
    inputs = AttackInputs(action, attacker_in, weapon, weapon_entry, target_in, situation, complications)
    try:
        inputs.plan = plan(action, attacker_in, weapon, target_in, situation, complications)
    except ValueError as exc:
        return None, [str(exc)]
    return inputs, errors


def with_target_wounds(inputs: AttackInputs, wounds: int) -> cn.AttackPlan:
    return plan(inputs.action, inputs.attacker, inputs.weapon, replace(inputs.target, wounds=wounds),
                inputs.situation, inputs.complications)


def morale_character(params, characters) -> dict | None:
    """Discipline and the traits that change the Morale Phase, from one of the user's characters."""
    found = own_character(params, characters, "character")
    if not found:
        return None
    traits = [s for s in found["traits"] if s in MORALE_TRAITS]
    return {"label": found["label"], "discipline": found["report"]["attributes"]["discipline"],
            "traits": ",".join(traits)}


def new_seed() -> int:
    return secrets.randbits(32)
