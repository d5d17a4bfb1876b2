"""The dice assistant's inputs: attackers, weapons and targets from crews the
user may see, NPCs from the catalogue, or typed stats — all turned into the
reference engine's frozen inputs (``rules.cybernekro.engine``). Rules come
from rules only; bad typed input becomes a message, never a guess."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field, replace

from django.db.models import Q

from crewbuilder import crew_service, permissions
from crewbuilder.models import BodyMod, Character, Crew, Item, Keyword, Npc, Trait
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


def fate_card(value: str, label: str, errors: list):
    """ "ace", "jack-critical", "jack-fumble" or "+N"/"-N" (a numbered card, 2 to 10) -> the engine's card."""
    value = (value or "").strip()
    if not value:
        return None
    if value in ("ace", "jack-critical", "jack-fumble"):
        return value
    if value[:1] in "+-" and value[1:].isdigit() and 2 <= int(value[1:]) <= 10:
        return int(value)
    errors.append(f"{label}: choose one from the list (got “{value}”).")
    return None


def flag(params, key) -> bool:
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
    weapons: list  # [{"slug", "name", "damage", "range", "keywords"}]: the character's own, or the catalogue's
    key: str = ""  # "crew:<id>" or "npc:<slug>" whose numbers filled the fields; "" for typed stats
    overrides: dict = field(default_factory=dict)  # field -> the character's own value, where the player changed it
    other_weapons: list = field(default_factory=list)  # catalogue weapons the character does not carry
    name: str = ""  # the character's name, for messages

    @property
    def typed(self) -> bool:
        return not self.key


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
    no_effect: list = field(default_factory=list)  # [{"slug", "name", "reason"}]: chosen, changing nothing here


DICE_CREWS = 8  # own crews offered at once (the most recently changed; a search finds the others)


def visible_characters(user, share_tokens=(), search: str = "", picked=()) -> list[dict]:
    """Characters the dice assistant offers: of the user's own crews and of crews whose share link they opened.

    One query whatever the number of crews: the user's ``DICE_CREWS`` most
    recently changed crews (or those whose name contains ``search``), the
    shared crews, and the crews of the characters already ``picked``
    ("crew:<id>"). A character's numbers are loaded only when it is picked
    (``load_details``).
    """
    picked_ids = [int(k[5:]) for k in picked if isinstance(k, str) and k.startswith("crew:") and k[5:].isdigit()]
    shared = Q(crew__share_token__in=[t for t in share_tokens if t])
    if user.is_authenticated:
        # The dice assistant is Cybernekr0's: other games' crews (drone sets) have other bodies.
        own = Crew.objects.filter(owner=user, system__slug="cybernekro")
        if search:
            own = own.filter(name__icontains=search)
        recent = own.order_by("-updated_at", "-id").values("pk")[:DICE_CREWS]
        mine = Q(crew__in=recent) | Q(crew__owner=user, pk__in=picked_ids)
    else:
        mine = Q(pk__in=[])
    rows = (
        Character.objects.filter(permissions.dice_assistant_crews(user, share_tokens))
        .filter(mine | shared, crew__system__slug="cybernekro")
        .values("id", "name", "crew_id", "crew__name", "crew__owner_id")
        .order_by("crew__owner_id", "crew__name", "crew_id", "position", "id")
    )
    out = []
    for row in rows:
        own_row = user.is_authenticated and row["crew__owner_id"] == user.pk
        out.append(
            {
                "id": row["id"],
                "key": f"crew:{row['id']}",
                "own": own_row,
                "crew_id": row["crew_id"],
                "name": row["name"],
                "label": f"{row['name']} ({row['crew__name']}{'' if own_row else ', shared'})",
            }
        )
    return out


def load_details(found: dict, characters: list) -> dict:
    """Fill in a picked character's report, traits, body-mods and gear (its whole crew, loaded once)."""
    if "report" in found:
        return found
    crew = Crew.objects.with_everything().get(pk=found["crew_id"])
    report = crew_service.report_for(crew)
    by_id = {c["id"]: c for c in characters if c["crew_id"] == crew.pk}
    for model, ch in zip(crew.characters.all(), report["characters"]):
        if model.pk in by_id:
            by_id[model.pk].update(
                {
                    "report": ch,
                    "traits": [t.trait.slug for t in model.traits.all()],
                    "body_mods": [m.body_mod.slug for m in model.body_mods.all()],
                    "gear": [g.item.slug for g in model.gear.all() for _ in range(g.copies)],
                }
            )
    found.setdefault("report", {"attributes": {}, "armor": 0, "weapons": []})
    return found


def own_character(params, characters, key: str):
    """The character named ``crew:<id>`` by ``params[key]`` if it is the user's own, else None."""
    source = params.get(key, "")
    found = next((c for c in characters if c["own"] and f"crew:{c['id']}" == source), None)
    return load_details(found, characters) if found else None


def catalogue_weapons(system_slug="cybernekro") -> list[dict]:
    return [
        {"slug": w.slug, "name": w.name, "damage": w.damage, "range": w.range, "keywords": list(w.keywords)}
        for w in Item.objects.filter(category=Item.WEAPON, system__slug=system_slug).order_by("position")
    ]


def npcs(system_slug="cybernekro") -> list[Npc]:
    return list(Npc.objects.filter(system__slug=system_slug).order_by("position"))


def picker_options(system_slug="cybernekro", kinds=("traits", "body_mods", "gear")) -> dict:
    """The traits, body-mods and gear that change a roll, by name, for the pickers (one query a kind)."""

    def options(model, known, **extra):
        rows = model.objects.filter(system__slug=system_slug, slug__in=known, **extra).order_by("position")
        return [{"slug": r.slug, "name": r.name.capitalize() if r.name.isupper() else r.name} for r in rows]

    makers = {
        "traits": lambda: options(Trait, TRAITS),
        "body_mods": lambda: options(BodyMod, BODY_MODS),
        "gear": lambda: options(Item, GEAR),
    }
    return {kind: makers[kind]() for kind in kinds}


def multi(params, key: str) -> str:
    """A picker's ticked boxes (several values) or typed names, as one comma-separated text."""
    values = params.getlist(key) if hasattr(params, "getlist") else [params.get(key, "")]
    return ",".join(v for v in values if v and v.strip())


LIST_FIELDS = ("a_traits", "a_body_mods", "a_gear", "t_traits", "t_body_mods", "t_gear")


def _same(field_name: str, typed: str, own) -> bool:
    if field_name in LIST_FIELDS:
        return {cn.slug(p) for p in typed.split(",") if p.strip()} == {p for p in str(own).split(",") if p}
    try:
        return int(str(typed).strip()) == int(own)
    except ValueError:
        return False


def _with_overrides(params, own: dict, key: str, from_field: str) -> tuple[dict, dict]:
    """The character's numbers, with the ones the player changed on the form (fields it filled itself).

    A field counts as changed only when the form was filled from this same
    character (``from_field``): switching character fills the fields afresh.
    """
    stats, overrides = dict(own), {}
    if params.get(from_field) != key:
        return stats, overrides
    for name, value in own.items():
        if name not in params:
            continue
        typed = multi(params, name) if name in LIST_FIELDS else str(params.get(name, ""))
        if name not in LIST_FIELDS and typed.strip() == "":
            continue
        if not _same(name, typed, value):
            stats[name], overrides[name] = typed, value
    return stats, overrides


def _typed(params, names) -> dict:
    return {k: multi(params, k) if k in LIST_FIELDS else params.get(k, "") for k in names}


def attacker_side(params, characters) -> Side:
    found = own_character(params, characters, "attacker")
    if found:
        attrs = found["report"]["attributes"]
        own = {
            "a_agility": attrs["agility"],
            "a_discipline": attrs["discipline"],
            "a_strength": attrs["strength"],
            "a_traits": _known(found["traits"], TRAITS),
            "a_body_mods": _known(found["body_mods"], BODY_MODS),
            "a_gear": _known(found["gear"], GEAR),
        }
        stats, overrides = _with_overrides(params, own, found["key"], "a_from")
        carried = found["report"].get("weapons", [])
        slugs_carried = {w["slug"] for w in carried}
        others = [w for w in catalogue_weapons() if w["slug"] not in slugs_carried]
        return Side(found["label"], stats, carried, found["key"], overrides, others, found["name"])
    stats = _typed(params, ("a_agility", "a_discipline", "a_strength", "a_traits", "a_body_mods", "a_gear"))
    return Side("Typed attacker", stats, catalogue_weapons())


def target_side(params, characters, npc_list) -> Side:
    source = params.get("target", "typed")
    found = next((c for c in characters if f"crew:{c['id']}" == source), None)
    if found:
        load_details(found, characters)
        attrs = found["report"]["attributes"]
        own = {
            "t_toughness": attrs["toughness"],
            "t_strength": attrs["strength"],
            "t_armor": found["report"]["armor"],
            "t_traits": _known(found["traits"], TRAITS),
            "t_body_mods": _known(found["body_mods"], BODY_MODS),
            "t_gear": _known(found["gear"], GEAR),
        }
        stats, overrides = _with_overrides(params, own, found["key"], "t_from")
        return Side(found["label"], stats, [], found["key"], overrides, name=found["name"])
    npc = next((n for n in npc_list if f"npc:{n.slug}" == source), None)
    if npc:
        abilities = [cn.slug(a.get("name", a) if isinstance(a, dict) else a) for a in npc.abilities]
        own = {
            "t_toughness": npc.attributes.get("toughness", 0),
            "t_strength": npc.attributes.get("strength", 0),
            "t_armor": npc.armor,
            "t_traits": _known(["npc", *abilities], TRAITS),
            "t_body_mods": "",
            "t_gear": "",
        }
        stats, overrides = _with_overrides(params, own, source, "t_from")
        return Side(npc.name, stats, [], source, overrides, name=npc.name)
    stats = _typed(params, ("t_toughness", "t_strength", "t_armor", "t_traits", "t_body_mods", "t_gear"))
    return Side("Typed target", stats, [])


def typed_target_label(target: cn.Target) -> str:
    """What a typed target is, in words ("a target with Toughness +1, Armor 2")."""
    return f"a target with Toughness {target.toughness:+d}, Armor {target.armor}"


def choose_weapon(params, side: Side) -> tuple[dict | None, list[str]]:
    """The weapon asked for: one the attacker carries, else a catalogue weapon clearly marked as not carried.

    Never a silent substitute: an unknown weapon is a message; with no choice
    the first weapon carried (not the fists, if there is another) is used.
    """
    wanted = params.get("weapon") or ""
    own = next((w for w in side.weapons if w["slug"] == wanted), None)
    if own is not None:
        return own, []
    if "a_from" in params and params.get("a_from") != side.key:
        wanted = ""  # the form was showing another attacker: its weapon was not chosen for this one
    other = next((w for w in side.other_weapons if w["slug"] == wanted), None)
    if other is not None:
        return {**other, "not_carried": True}, []
    if wanted:
        return None, [f"Weapon: unknown “{wanted}”; choose one from the list."]
    real = [w for w in side.weapons if w["slug"] != "fists"]
    return (real or side.weapons or [None])[0], []


def engine_weapon(entry: dict) -> cn.Weapon:
    """A weapon entry (catalogue or a character's profile) -> the engine's Weapon (ValueError if its keywords are unknown)."""
    return cn.Weapon(
        int(entry["damage"] or 0), entry.get("range"), cn.Keywords.parse(entry.get("keywords") or []), entry.get("slug")
    )


def action_for(weapon: cn.Weapon, wanted: str | None) -> str:
    """Fight with a melee weapon, Shoot with a ranged one; a Thrown melee weapon may Shoot when asked."""
    if weapon.ranged:
        return "shoot"
    return "shoot" if wanted == "shoot" and weapon.keywords.has("thrown") else "fight"


def plan(
    action: str, attacker: cn.Attacker, weapon: cn.Weapon, target: cn.Target, situation: cn.Situation, complications=()
) -> cn.AttackPlan:
    """The reference engine's plan of this attack, the complications folded in for this action."""
    attacker, target, situation = cn.apply_complications(complications, action, attacker, target, situation)
    return cn.plan_attack(action, attacker, weapon, target, situation)


def build_inputs(params, attacker: Side, target: Side) -> tuple[AttackInputs | None, list[str]]:
    """The engine's inputs and the messages about the typed input (inputs None when there is no attack to show)."""
    errors: list[str] = []
    a, t = attacker.stats, target.stats
    weapon_entry, errors = choose_weapon(params, attacker)
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
        gear=slugs(a.get("a_gear"), GEAR, "Attacker's gear", errors),
    )
    target_in = cn.Target(
        toughness=number(t, "t_toughness", "Toughness", 0, -20, 20, errors),
        strength=number(t, "t_strength", "Target's Strength", 0, -20, 20, errors),
        armor=number(t, "t_armor", "Armor", 0, 0, 50, errors),
        wounds=number(params, "t_wounds", "Wounds now", 0, 0, cn.MAX_WOUNDS, errors),
        prone=flag(params, "t_prone"),
        queen=flag(params, "t_queen"),
        traits=slugs(t.get("t_traits"), TRAITS, "Target's traits", errors),
        body_mods=slugs(t.get("t_body_mods"), BODY_MODS, "Target's body-mods", errors),
        gear=slugs(t.get("t_gear"), GEAR, "Target's gear", errors),
    )
    situation = cn.Situation(
        cover=flag(params, "cover"),
        long_range=flag(params, "long_range"),
        surrounded=flag(params, "surrounded"),
        modifier=number(params, "modifier", "Other modifier to hit", 0, -20, 20, errors),
        auto=params.get("auto", "1") != "0",
        over_half_range=flag(params, "over_half_range"),
        card=fate_card(params.get("card", ""), "Fate card on the hit roll", errors),
        **{name: flag(params, name) for name in cn.LIGHT_TICKS},
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
    effects = cn.complication_effects(complications, action, attacker_in, target_in, situation, weapon)
    inputs.no_effect = [
        {"slug": name, "name": cn.COMPLICATION_NAMES[name], "reason": reason}
        for name, reason in effects.items()
        if reason
    ]
    return inputs, errors


def with_target_wounds(inputs: AttackInputs, wounds: int) -> cn.AttackPlan:
    return plan(
        inputs.action,
        inputs.attacker,
        inputs.weapon,
        replace(inputs.target, wounds=wounds),
        inputs.situation,
        inputs.complications,
    )


def morale_character(params, characters) -> dict | None:
    """Discipline and the traits that change the Morale Phase, from one of the user's characters."""
    found = own_character(params, characters, "character")
    if not found:
        return None
    traits = [s for s in found["traits"] if s in MORALE_TRAITS]
    return {
        "label": found["label"],
        "discipline": found["report"]["attributes"]["discipline"],
        "traits": ",".join(traits),
    }


def keyword_texts(slugs, system_slug="cybernekro") -> dict:
    """The rules text of weapon keywords, by slug (one query; none when there are none)."""
    if not slugs:
        return {}

    return {k.slug: k.text for k in Keyword.objects.filter(system__slug=system_slug, slug__in=list(slugs))}


def new_seed() -> int:
    return secrets.randbits(32)
