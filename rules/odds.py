"""``odds(request) -> answer``: the odds requests of /work/shared/odds-format.md (version 1).

Requests are checked strictly: unknown keys, wrong types and values out of
range raise :class:`OddsRequestError` (a ``ValueError``) with a message that
says what is wrong. Answers carry floats (``float(Fraction)``: 17 significant
digits) and, under ``"exact"``, the same keys with the exact fractions as
strings (``str(Fraction)``: "35/36", "1", "0"). Every group adds up to exactly 1.

Additions to the contract (all optional, their defaults give the plain
reading) are listed in docs/odds.md.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from functools import lru_cache
from typing import Callable

from catalogue import DATA_DIR
from rules import ghoul_role
from rules.cybernekro import engine as cn
from rules.soylent_ghoul import panic as soylent

CATALOGUE_FILE = DATA_DIR / "cybernekro-1.1.3.json"

MAX_DICE = 40
MAX_ABS_MODIFIER = 100
MAX_INT_DIGITS = 100  # no field takes more; far below Python's 4,300-digit limit on reading integers


class OddsRequestError(ValueError):
    """The request is not one the engine answers; the message says why."""


# --------------------------------------------------------------------------
# known slugs (the rules text; NPC abilities of chapter four)
# --------------------------------------------------------------------------

TRAITS = frozenset(
    {
        "big",
        "small",
        "sorcerer",
        "ambidextrous",
        "deformed",
        "long-arms",
        "extra-limbs",
        "lobotomised",
        "multi-headed",
        "bestial",
        "demonic",
        "inspiring",
        "unpredictable",
        "jinxed",
        "darkborn",
        "one-shotter",
        "reckless-sprinter",
        "driven-by-madness",
        "artificial",
        "withered",
        "gifted",
        # NPCs
        "npc",
        "monstrous",
        "unstoppable",
        "terrifying",
        "maddening-terror",
    }
)
BODY_MODS = frozenset(
    {
        "neural-cabling",
        "mechanical-claw",
        "jump-augmentation",
        "extra-organs",
        "excessive-neural-cabling",
        "auto-senses",
        "stim-injectors",
        "reinforced-body",
        "augmented-arms",
        "roly-poly-system",
    }
)
GEAR = frozenset(
    {
        "rope-and-hook",
        "spot-light",
        "lantern",
        "night-vision-goggles",
        "lockpicks",
        "cyber-jack",
        "mind-concealer",
        "trauma-kit",
        "gas-mask",
        "repair-kit",
        "esoteric-concoction",
        "extra-ammo",
        "gas-grenade",
        "light-armor",
        "medium-armor",
        "heavy-armor",
        "powered-armor",
        "shield",
        "tower-shield",
        "stealth-suit",
        "hazard-suit",
    }
)


# --------------------------------------------------------------------------
# answer formatting
# --------------------------------------------------------------------------


def format_answer(groups: dict) -> dict:
    """Any nested dict whose leaves are Fractions -> floats, plus the mirrored ``exact`` block."""

    def floats(node):
        if isinstance(node, dict):
            return {str(k): floats(v) for k, v in node.items()}
        return float(Fraction(node))

    def strings(node):
        if isinstance(node, dict):
            return {str(k): strings(v) for k, v in node.items()}
        return str(Fraction(node))

    return {**floats(groups), "exact": strings(groups)}


# --------------------------------------------------------------------------
# request checking
# --------------------------------------------------------------------------


def _object(obj, where: str, required=(), optional=()) -> dict:
    if not isinstance(obj, dict):
        raise OddsRequestError(f"{where}: expected a JSON object, got {type(obj).__name__}")
    unknown = set(obj) - set(required) - set(optional)
    if unknown:
        raise OddsRequestError(f"{where}: unknown key(s): {', '.join(sorted(map(str, unknown)))}")
    missing = [k for k in required if k not in obj]
    if missing:
        raise OddsRequestError(f"{where}: missing key(s): {', '.join(missing)}")
    return obj


def _int(obj: dict, key: str, where: str, default=None, low=None, high=None) -> int:
    if key not in obj:
        if default is None:
            raise OddsRequestError(f"{where}: missing key: {key}")
        return default
    value = obj[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise OddsRequestError(f"{where}.{key}: expected a whole number, got {json.dumps(value)}")
    if isinstance(value, float):
        if not value.is_integer():
            raise OddsRequestError(f"{where}.{key}: expected a whole number, got {value}")
        value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        span = (
            f"from {low} to {high}"
            if low is not None and high is not None
            else f"at least {low}"
            if low is not None
            else f"at most {high}"
        )
        raise OddsRequestError(f"{where}.{key}: expected a whole number {span}, got {value}")
    return value


def _bool(obj: dict, key: str, where: str, default: bool = False) -> bool:
    if key not in obj:
        return default
    value = obj[key]
    if not isinstance(value, bool):
        raise OddsRequestError(f"{where}.{key}: expected true or false, got {json.dumps(value)}")
    return value


def _slugs(obj: dict, key: str, where: str, known: frozenset) -> frozenset:
    value = obj.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise OddsRequestError(f"{where}.{key}: expected a list of strings")
    out = set()
    for item in value:
        s = cn.slug(item)
        if s not in known:
            raise OddsRequestError(f"{where}.{key}: unknown {key.rstrip('s').replace('_', ' ')} {item!r}")
        out.add(s)
    return frozenset(out)


def _keywords(value, where: str) -> cn.Keywords:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise OddsRequestError(f'{where}: expected a list of keyword strings such as "Piercing 2"')
    try:
        return cn.Keywords.parse(value)
    except ValueError as exc:
        raise OddsRequestError(f"{where}: {exc}") from None


# --------------------------------------------------------------------------
# weapons
# --------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _catalogue_weapons() -> dict:
    with open(CATALOGUE_FILE, encoding="utf-8") as handle:
        data = json.load(handle)
    return {w["slug"]: w for w in data.get("weapons", [])}


def file_weapons(slug: str) -> dict | None:
    """The default resolver: the bundled catalogue file (plain json)."""
    try:
        return _catalogue_weapons().get(slug)
    except (OSError, ValueError):
        return None


def _weapon(value, resolver: Callable | None) -> cn.Weapon:
    where = "weapon"
    if isinstance(value, str):
        s = cn.slug(value)
        found = (resolver or file_weapons)(s)
        if found is None:
            raise OddsRequestError(f"weapon: no weapon {value!r} in the catalogue")
        data, from_catalogue = dict(found), True
        data.setdefault("slug", s)
    elif isinstance(value, dict):
        data, from_catalogue = _object(value, where, ("damage", "keywords"), ("range", "slug", "name")), False
    else:
        raise OddsRequestError('weapon: expected a catalogue slug or {"damage", "range", "keywords"}')
    damage = _int(data, "damage", where, low=0, high=MAX_DICE)
    rng = data.get("range")
    if rng is not None:
        if isinstance(rng, bool) or not isinstance(rng, (int, float)) or not math.isfinite(rng) or rng <= 0:
            raise OddsRequestError(f"weapon.range: expected null (melee) or a positive number, got {json.dumps(rng)}")
    keywords = _keywords(data.get("keywords", []) if from_catalogue else data["keywords"], "weapon.keywords")
    name = data.get("slug") or data.get("name")
    if name is not None and not isinstance(name, str):
        raise OddsRequestError("weapon.slug: expected a string")
    return cn.Weapon(damage, rng, keywords, cn.slug(name) if name else None)


# --------------------------------------------------------------------------
# handlers
# --------------------------------------------------------------------------


def _test(request: dict, _resolver) -> dict:
    _object(request, "request", ("roll", "modifier"), ("jinxed", "card", "reroll_success"))
    modifier = _int(request, "modifier", "request", None, -MAX_ABS_MODIFIER, MAX_ABS_MODIFIER)
    jinxed = _bool(request, "jinxed", "request")
    card = request.get("card")
    if card is not None:
        if isinstance(card, str) and card in ("ace", "jack-critical", "jack-fumble"):
            pass
        elif isinstance(card, int) and not isinstance(card, bool) and 2 <= abs(card) <= 10:
            pass
        else:
            raise OddsRequestError(
                'request.card: "ace", "jack-critical", "jack-fumble" or a numbered card 2..10 with its sign (e.g. -3)'
            )
    dist = cn.test_distribution(modifier, jinxed, card, _bool(request, "reroll_success", "request"))
    return {o.value: dist[o] for o in cn.Outcome}


def _damage(request: dict, _resolver) -> dict:
    _object(request, "request", ("roll", "dice"), ("keywords", "armor", "wounds", "prone", "shield"))
    n = _int(request, "dice", "request", low=0, high=MAX_DICE)
    keywords = _keywords(request.get("keywords", []), "request.keywords")
    armor = _int(request, "armor", "request", 0, 0, MAX_ABS_MODIFIER)
    wounds = _int(request, "wounds", "request", 0, 0, cn.MAX_WOUNDS)
    _bool(request, "prone", "request")  # accepted: the rows reached do not depend on it
    dist = cn.damage_distribution(n, keywords, armor, wounds, _bool(request, "shield", "request"))
    return {row.key: dist[row] for row in cn.Row}


ATTACKER_KEYS = ("agility", "discipline", "strength", "traits", "body_mods", "dread", "gear")
TARGET_KEYS = ("toughness", "strength", "armor", "wounds", "prone", "traits", "body_mods", "gear", "dread", "queen")
SITUATION_BOOLS = (
    "cover",
    "long_range",
    "surrounded",
    "in_melee",
    "auto",
    "over_half_range",
    "splash_secondary",
    "touching_terrain",
    "stagger_into_obstacle",
    "tough_it_out",
)
SITUATION_DEFAULT_TRUE = {"auto", "touching_terrain", "tough_it_out"}


def _attack(request: dict, resolver) -> dict:
    _object(request, "request", ("roll", "action", "attacker", "weapon", "target"), ("situation",))
    action = request["action"]
    if action not in ("fight", "shoot"):
        raise OddsRequestError(f'request.action: "fight" or "shoot", got {json.dumps(action)}')
    a = _object(request["attacker"], "attacker", (), ATTACKER_KEYS)
    attacker = cn.Attacker(
        agility=_int(a, "agility", "attacker", 0, -MAX_ABS_MODIFIER, MAX_ABS_MODIFIER),
        discipline=_int(a, "discipline", "attacker", 0, -MAX_ABS_MODIFIER, MAX_ABS_MODIFIER),
        strength=_int(a, "strength", "attacker", 0, -MAX_ABS_MODIFIER, MAX_ABS_MODIFIER),
        traits=_slugs(a, "traits", "attacker", TRAITS),
        body_mods=_slugs(a, "body_mods", "attacker", BODY_MODS),
        dread=_int(a, "dread", "attacker", 0, 0, cn.MAX_DREAD),
        gear=_slugs(a, "gear", "attacker", GEAR),
    )
    t = _object(request["target"], "target", (), TARGET_KEYS)
    target = cn.Target(
        toughness=_int(t, "toughness", "target", 0, -MAX_ABS_MODIFIER, MAX_ABS_MODIFIER),
        strength=_int(t, "strength", "target", 0, -MAX_ABS_MODIFIER, MAX_ABS_MODIFIER),
        armor=_int(t, "armor", "target", 0, 0, MAX_ABS_MODIFIER),
        wounds=_int(t, "wounds", "target", 0, 0, cn.MAX_WOUNDS),
        prone=_bool(t, "prone", "target"),
        traits=_slugs(t, "traits", "target", TRAITS),
        body_mods=_slugs(t, "body_mods", "target", BODY_MODS),
        gear=_slugs(t, "gear", "target", GEAR),
        dread=_int(t, "dread", "target", 0, 0, cn.MAX_DREAD),
        queen=_bool(t, "queen", "target"),
    )
    s = _object(request.get("situation", {}), "situation", (), SITUATION_BOOLS + ("modifier", "card"))
    situation = cn.Situation(
        modifier=_int(s, "modifier", "situation", 0, -MAX_ABS_MODIFIER, MAX_ABS_MODIFIER),
        card=_fate_card(s.get("card"), "situation.card"),
        **{k: _bool(s, k, "situation", k in SITUATION_DEFAULT_TRUE) for k in SITUATION_BOOLS},
    )
    weapon = _weapon(request["weapon"], resolver)
    try:
        result = cn.attack_odds(action, attacker, weapon, target, situation)
    except ValueError as exc:
        raise OddsRequestError(str(exc)) from None
    to_hit = result.to_hit
    return {
        "to_hit": {
            "critical": to_hit[cn.Outcome.CRITICAL],
            "hit": to_hit[cn.Outcome.SUCCESS],
            "miss": to_hit[cn.Outcome.FAILURE],
            "fumble": to_hit[cn.Outcome.FUMBLE],
        },
        "target": {state.value: result.target[state] for state in cn.TargetState},
        "expected_wounds": result.expected_wounds,
    }


def _neural_overload(request: dict, _resolver) -> dict:
    _object(request, "request", ("roll", "dread"))
    dist = cn.neural_overload_distribution(_int(request, "dread", "request", low=0, high=cn.MAX_DREAD))
    return {str(row): p for row, p in dist.items()}


def _morale(request: dict, _resolver) -> dict:
    _object(request, "request", ("roll", "discipline", "dread"), ("wounds", "allies_in_los", "traits"))
    traits = _slugs(request, "traits", "request", TRAITS)
    left = cn.morale_distribution(
        _int(request, "discipline", "request", low=-MAX_ABS_MODIFIER, high=MAX_ABS_MODIFIER),
        _int(request, "dread", "request", low=0, high=cn.MAX_DREAD),
        _int(request, "wounds", "request", 0, 0, cn.MAX_WOUNDS),
        _int(request, "allies_in_los", "request", 0, 0, 50),
        "jinxed" in traits,
        "driven-by-madness" in traits,
        "artificial" in traits,
        "demonic" in traits,
    )
    flees, npc = cn.morale_consequences(left, "lobotomised" in traits)
    return {**{str(d): p for d, p in left.items()}, "flees": {str(k): p for k, p in flees.items()}, "becomes_npc": npc}


def _panic(request: dict, _resolver) -> dict:
    _object(request, "request", ("roll", "nerve", "tokens"))
    nerve = _int(request, "nerve", "request", low=-MAX_ABS_MODIFIER, high=MAX_ABS_MODIFIER)
    tokens = _int(request, "tokens", "request", low=0, high=MAX_ABS_MODIFIER)

    try:
        return dict(soylent.panic_distribution(nerve, tokens))
    except ValueError as exc:
        raise OddsRequestError(str(exc)) from None


def _ghoul_dice(request: dict, _resolver) -> dict:
    _object(request, "request", ("roll", "dice"))
    n = _int(request, "dice", "request", low=1, high=6)

    try:
        return dict(ghoul_role.ghoul_dice_odds(n))
    except ValueError as exc:
        raise OddsRequestError(str(exc)) from None


HANDLERS = {
    "test": _test,
    "damage": _damage,
    "attack": _attack,
    "neural-overload": _neural_overload,
    "morale": _morale,
    "panic": _panic,
    "ghoul-dice": _ghoul_dice,
}


def _not_a_number(word: str):
    raise ValueError(f"{word} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is too large a number")
    return value


def _whole(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise ValueError(f"a whole number of {digits} digits ({MAX_INT_DIGITS} at most)")
    return int(text)


class RepeatedKey(ValueError):
    """A JSON object naming a key twice (valid JSON, but which value was meant?)."""


def no_repeated_keys(pairs: list) -> dict:
    """json.loads's object_pairs_hook refusing an object that names a key twice (ValueError), as crew files do too."""
    seen: dict = {}
    for key, value in pairs:
        if key in seen:
            raise RepeatedKey(f"the key {json.dumps(key)} is given twice")
        seen[key] = value
    return seen


def read_request(text: str | bytes):
    """The JSON of a request, or OddsRequestError("not JSON: ..."). NaN and
    Infinity (which Python's json accepts) are not JSON; neither is an integer
    too long for Python to read (over 4,300 digits); nor is an object naming a key
    twice, which Python would read as its last value without a word."""
    try:
        return json.loads(
            text,
            parse_constant=_not_a_number,
            parse_float=_finite,
            parse_int=_whole,
            object_pairs_hook=no_repeated_keys,
        )
    except RecursionError:  # "[[[[...": deeper than the parser goes
        raise OddsRequestError("not JSON: nested too deeply") from None
    except RepeatedKey as exc:
        raise OddsRequestError(str(exc)) from None
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError and over-long integers alike
        raise OddsRequestError(f"not JSON: {exc}") from None


def odds(request: dict, weapons: Callable[[str], dict | None] | None = None) -> dict:
    """Answer one odds request (odds-format.md). ``weapons``: slug -> weapon dict or None."""
    if not isinstance(request, dict):
        raise OddsRequestError("the request must be a JSON object")
    kind = request.get("roll")
    if not isinstance(kind, str) or kind not in HANDLERS:
        raise OddsRequestError(f"request.roll: one of {', '.join(HANDLERS)}, got {json.dumps(kind)}")
    return format_answer(HANDLERS[kind](request, weapons))


def _fate_card(card, where: str):
    """A fate card on a test: "ace", "jack-critical", "jack-fumble", a signed numbered card 2..10, or none."""
    if card is None:
        return None
    if isinstance(card, str) and card in ("ace", "jack-critical", "jack-fumble"):
        return card
    if isinstance(card, int) and not isinstance(card, bool) and 2 <= abs(card) <= 10:
        return card
    raise OddsRequestError(
        f'{where}: "ace", "jack-critical", "jack-fumble" or a numbered card from -10 to -2 or 2 to 10 (got {card!r})'
    )
