"""``odds(request) -> answer``: the odds requests of odds-format.md.

Requests are checked strictly (unknown keys and wrong types are errors,
never ignored); answers carry floats and, under ``exact``, the same keys as
exact fractions in strings. The Django doors (command, JSON endpoint) are
thin wrappers over this function.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Callable

from crewbuilder.rules import exact

CATALOGUE_FILE = Path(__file__).resolve().parent.parent / "catalogue" / "cybernekro-1.1.3.json"
ATTRIBUTE_LIMIT = 20
DICE_LIMIT = 30


class OddsRequestError(ValueError):
    """The request is not one the engine answers; the message says why."""


# --- answer formatting --------------------------------------------------------------


def _as_float(value: Fraction) -> float:
    return float(value)


def format_answer(groups: dict) -> dict:
    """Nested dicts of Fractions -> floats, plus the mirrored ``exact`` block."""

    def floats(node):
        if isinstance(node, dict):
            return {k: floats(v) for k, v in node.items()}
        return _as_float(node)

    def strings(node):
        if isinstance(node, dict):
            return {k: strings(v) for k, v in node.items()}
        return str(Fraction(node))

    return {**floats(groups), "exact": strings(groups)}


# --- request checking ---------------------------------------------------------------


def _keys(obj, where: str, required: set, optional: set = frozenset()) -> None:
    if not isinstance(obj, dict):
        raise OddsRequestError(f"{where}: expected an object")
    unknown = set(obj) - required - set(optional)
    if unknown:
        raise OddsRequestError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    missing = required - set(obj)
    if missing:
        raise OddsRequestError(f"{where}: missing key(s) {', '.join(sorted(missing))}")


def _int(obj, key: str, where: str, low: int, high: int, default=None) -> int:
    value = obj.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise OddsRequestError(f"{where}.{key}: expected a whole number")
    if not low <= value <= high:
        raise OddsRequestError(f"{where}.{key}: must be from {low} to {high}")
    return value


def _bool(obj, key: str, where: str, default: bool = False) -> bool:
    value = obj.get(key, default)
    if not isinstance(value, bool):
        raise OddsRequestError(f"{where}.{key}: expected true or false")
    return value


def _slugs(obj, key: str, where: str) -> frozenset:
    value = obj.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise OddsRequestError(f"{where}.{key}: expected a list of slugs")
    return frozenset(slug(v) for v in value)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


# --- weapons ------------------------------------------------------------------------


_FILE_WEAPONS: dict | None = None


def file_weapons(slug_: str) -> dict | None:
    """The bundled catalogue's weapon of that slug (used when no resolver is given)."""
    global _FILE_WEAPONS
    if _FILE_WEAPONS is None:
        data = json.loads(CATALOGUE_FILE.read_text(encoding="utf-8"))
        _FILE_WEAPONS = {w["slug"]: w for w in data.get("weapons", [])}
    return _FILE_WEAPONS.get(slug_)


def _weapon(value, resolver: Callable[[str], dict | None]) -> exact.Weapon:
    if isinstance(value, str):
        entry = resolver(slug(value))
        if entry is None:
            raise OddsRequestError(f"weapon: no weapon {value!r} in the catalogue")
        return exact.Weapon(int(entry["damage"]), entry.get("range"), exact.Keywords.parse(entry.get("keywords")),
                            is_fists=entry["slug"] == "fists")
    _keys(value, "weapon", {"damage"}, {"range", "keywords"})
    damage = _int(value, "damage", "weapon", 0, DICE_LIMIT)
    rng = value.get("range")
    if rng is not None and (isinstance(rng, bool) or not isinstance(rng, int) or rng < 0):
        raise OddsRequestError("weapon.range: expected a number of inches or null")
    keywords = value.get("keywords", [])
    if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
        raise OddsRequestError("weapon.keywords: expected a list of keyword strings such as \"Piercing 2\"")
    return exact.Weapon(damage, rng, exact.Keywords.parse(keywords))


# --- the roll kinds ---------------------------------------------------------------------


def _test(request, _resolver) -> dict:
    _keys(request, "request", {"roll", "modifier"}, {"jinxed"})
    modifier = _int(request, "modifier", "request", -100, 100)
    return exact.test_distribution(modifier, _bool(request, "jinxed", "request"))


def _damage(request, _resolver) -> dict:
    _keys(request, "request", {"roll", "dice"}, {"keywords", "armor", "wounds", "prone"})
    dice = _int(request, "dice", "request", 0, DICE_LIMIT)
    keywords = request.get("keywords", [])
    if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
        raise OddsRequestError("request.keywords: expected a list of keyword strings")
    parsed = exact.Keywords.parse(keywords)
    _bool(request, "prone", "request")
    return exact.damage_row_distribution(
        dice,
        _int(request, "armor", "request", 0, 50, 0),
        _int(request, "wounds", "request", 0, exact.MAX_WOUNDS, 0),
        parsed.has("overkill"),
        parsed.x("piercing", 0),
        parsed.has("electric"),
        parsed.has("energy"),
    )


def _attack(request, resolver) -> dict:
    _keys(request, "request", {"roll", "action", "attacker", "weapon", "target"}, {"situation"})
    action = request["action"]
    if action not in ("fight", "shoot"):
        raise OddsRequestError("request.action: must be \"fight\" or \"shoot\"")
    a = request["attacker"]
    _keys(a, "attacker", set(), {"agility", "discipline", "strength", "traits", "body_mods"})
    attacker = exact.Attacker(
        agility=_int(a, "agility", "attacker", -ATTRIBUTE_LIMIT, ATTRIBUTE_LIMIT, 0),
        discipline=_int(a, "discipline", "attacker", -ATTRIBUTE_LIMIT, ATTRIBUTE_LIMIT, 0),
        strength=_int(a, "strength", "attacker", -ATTRIBUTE_LIMIT, ATTRIBUTE_LIMIT, 0),
        traits=_slugs(a, "traits", "attacker"),
        body_mods=_slugs(a, "body_mods", "attacker"),
    )
    t = request["target"]
    _keys(t, "target", set(), {"toughness", "strength", "armor", "wounds", "prone", "traits", "body_mods", "gear"})
    target = exact.Target(
        toughness=_int(t, "toughness", "target", -ATTRIBUTE_LIMIT, ATTRIBUTE_LIMIT, 0),
        strength=_int(t, "strength", "target", -ATTRIBUTE_LIMIT, ATTRIBUTE_LIMIT, 0),
        armor=_int(t, "armor", "target", 0, 50, 0),
        wounds=_int(t, "wounds", "target", 0, exact.MAX_WOUNDS, 0),
        prone=_bool(t, "prone", "target"),
        traits=_slugs(t, "traits", "target"),
        body_mods=_slugs(t, "body_mods", "target"),
        gear=_slugs(t, "gear", "target"),
    )
    s = request.get("situation", {})
    _keys(s, "situation", set(), {"cover", "long_range", "surrounded", "modifier", "auto", "over_half_range"})
    situation = exact.Situation(
        cover=_bool(s, "cover", "situation"),
        long_range=_bool(s, "long_range", "situation"),
        surrounded=_bool(s, "surrounded", "situation"),
        modifier=_int(s, "modifier", "situation", -100, 100, 0),
        auto=_bool(s, "auto", "situation", True),
        over_half_range=_bool(s, "over_half_range", "situation"),
    )
    weapon = _weapon(request["weapon"], resolver)
    if action == "shoot" and weapon.range is None and not weapon.keywords.has("thrown"):
        raise OddsRequestError("weapon: a melee weapon without Thrown cannot Shoot")
    if action == "fight" and weapon.range is not None:
        raise OddsRequestError("weapon: a ranged weapon cannot Fight")
    return exact.attack_odds(action, attacker, weapon, target, situation)


def _neural(request, _resolver) -> dict:
    _keys(request, "request", {"roll", "dread"})
    return exact.neural_overload_distribution(_int(request, "dread", "request", 0, exact.MAX_DREAD))


def _morale(request, _resolver) -> dict:
    _keys(request, "request", {"roll", "discipline", "dread"}, {"wounds", "allies_in_los", "jinxed"})
    left, flees, npc = exact.morale_distribution(
        _int(request, "discipline", "request", -ATTRIBUTE_LIMIT, ATTRIBUTE_LIMIT),
        _int(request, "dread", "request", 0, exact.MAX_DREAD),
        _int(request, "wounds", "request", 0, exact.MAX_WOUNDS, 0),
        _int(request, "allies_in_los", "request", 0, 50, 0),
        _bool(request, "jinxed", "request"),
    )
    return {**left, "flees": flees, "becomes_npc": npc}


def _panic(request, _resolver) -> dict:
    _keys(request, "request", {"roll", "nerve"}, {"tokens"})
    from crewbuilder.rules import soylent

    return soylent.panic_distribution(_int(request, "nerve", "request", 0, 100), _int(request, "tokens", "request", 0, 100, 0))


def _ghoul_dice(request, _resolver) -> dict:
    _keys(request, "request", {"roll", "dice"})
    from crewbuilder.rules import ghoul_role

    try:
        return ghoul_role.ghoul_dice_odds(_int(request, "dice", "request", 0, 10))
    except ValueError as exc:
        raise OddsRequestError(str(exc)) from None


ROLLS = {
    "test": _test,
    "damage": _damage,
    "attack": _attack,
    "neural-overload": _neural,
    "morale": _morale,
    "panic": _panic,
    "ghoul-dice": _ghoul_dice,
}


def odds(request: dict, weapons: Callable[[str], dict | None] | None = None) -> dict:
    """Answer one odds request (odds-format.md). Raises OddsRequestError for a bad one."""
    if not isinstance(request, dict):
        raise OddsRequestError("request: expected a JSON object")
    roll = request.get("roll")
    if roll not in ROLLS:
        raise OddsRequestError(f"request.roll: expected one of {', '.join(ROLLS)}")
    return format_answer(ROLLS[roll](request, weapons or file_weapons))
