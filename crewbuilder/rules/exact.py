"""Exact Cybernekr0 odds: attribute tests, damage rolls, attacks, Neural
Overload and the Morale Phase, as distributions of Fractions.

Pure Python, no Django. Every function is a pure function of hashable
arguments, cached, and exact: dice are enumerated through small dynamic
programmes (the kept top dice as a sorted tuple), never sampled.
The readings where the rules text is open are in docs/rules-interpretations.md
("Engine" section); each is pinned by a test in tests/rules/.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

ONE = Fraction(1)
D20 = range(1, 21)
D6 = range(1, 7)

# Damage table rows, lowest first: (name, threshold). "none" is below 3.
DAMAGE_ROWS = (("none", None), ("light", 3), ("serious", 6), ("critical", 9), ("lethal", 12))
ROW_INDEX = {name: i for i, (name, _) in enumerate(DAMAGE_ROWS)}
NEURAL_ROWS = (1, 3, 5, 7, 9)
MAX_WOUNDS = 6
MAX_DREAD = 6
SUCCESS_AT = 11


# --- attribute tests --------------------------------------------------------------


def test_outcome(natural: int, modifier: int, jinxed: bool = False) -> str:
    """One D20 attribute test: critical, success, failure or fumble."""
    if natural >= (19 if jinxed else 20):
        return "critical"
    if natural <= (2 if jinxed else 1):
        return "fumble"
    return "success" if natural + modifier >= SUCCESS_AT else "failure"


@lru_cache(maxsize=4096)
def test_distribution(modifier: int, jinxed: bool = False) -> dict[str, Fraction]:
    counts = defaultdict(int)
    for natural in D20:
        counts[test_outcome(natural, modifier, jinxed)] += 1
    return {k: Fraction(counts[k], 20) for k in ("critical", "success", "failure", "fumble")}


# --- damage rolls -------------------------------------------------------------------


@lru_cache(maxsize=64)
def die_faces(reroll_ones: bool, reroll_sixes: bool) -> tuple[tuple[int, Fraction], ...]:
    """One damage die after its single permitted re-roll (Energy: 1s; shields: 6s)."""
    dist = defaultdict(Fraction)
    for first in D6:
        rerolled = (first == 1 and reroll_ones) or (first == 6 and reroll_sixes)
        if rerolled:
            for second in D6:
                dist[second] += Fraction(1, 36)
        else:
            dist[first] += Fraction(1, 6)
    return tuple(sorted(dist.items()))


# (kept, new die, keep) -> new kept: a few hundred entries, filled on first use.
_TOP: dict = {}


def _keep_top(kept: tuple, value: int, keep: int) -> tuple:
    return tuple(sorted(kept + (value,), reverse=True)[:keep])


@lru_cache(maxsize=64)
def _die_weights(reroll_ones: bool, reroll_sixes: bool) -> tuple[tuple[int, int], ...]:
    """``die_faces`` as integer weights out of 36 (exact, and fast to multiply)."""
    return tuple((face, int(p * 36)) for face, p in die_faces(reroll_ones, reroll_sixes))


@lru_cache(maxsize=4096)
def damage_sum_distribution(dice: int, keep: int, reroll_ones: bool, reroll_sixes: bool) -> dict[int, Fraction]:
    """Sum of the kept dice of a damage roll, the bonus die included.

    ``dice`` D6 are rolled (each re-rolled once as the keywords allow); if any
    shows a 6 one more D6 is rolled (exactly one, adding no further die);
    then the ``keep`` highest count (fewer if fewer dice were rolled).
    Counts are integers over 36 per die; Fractions only at the end.
    """
    if dice <= 0:
        return {0: ONE}
    weights = _die_weights(reroll_ones, reroll_sixes)
    states = {((), False): 1}
    for _ in range(dice):
        nxt = defaultdict(int)
        for (kept, six), n in states.items():
            for value, w in weights:
                step = (kept, value, keep)
                grown = _TOP.get(step)
                if grown is None:
                    grown = _TOP[step] = _keep_top(kept, value, keep)
                nxt[(grown, six or value == 6)] += n * w
        states = nxt
    denominator = 36 ** (dice + 1)
    sums = defaultdict(int)
    for (kept, six), n in states.items():
        if six:
            for value, w in weights:
                sums[sum(_keep_top(kept, value, keep))] += n * w
        else:
            sums[sum(kept)] += n * 36
    return {total: Fraction(n, denominator) for total, n in sums.items()}


def damage_row(total: int) -> str:
    row = "none"
    for name, threshold in DAMAGE_ROWS[1:]:
        if total >= threshold:
            row = name
    return row


def effective_armor(armor: int, piercing: int = 0, electric: bool = False) -> int:
    """Armor after Piercing X, then capped at 2 against Electric."""
    value = max(0, armor - piercing)
    return min(value, 2) if electric else value


@lru_cache(maxsize=4096)
def damage_row_distribution(
    dice: int, armor: int, wounds: int, overkill: bool = False, piercing: int = 0,
    electric: bool = False, energy: bool = False, reroll_sixes: bool = False,
) -> dict[str, Fraction]:
    keep = 3 if overkill else 2
    reduction = effective_armor(armor, piercing, electric)
    rows = {name: Fraction(0) for name, _ in DAMAGE_ROWS}
    # No dice (e.g. Short-ranged on a Damage 1 weapon): the picked dice sum to 0
    # and the Wounds and armor still apply, as the damage table's formula says.
    for total, p in damage_sum_distribution(dice, keep, energy, reroll_sixes).items():
        rows[damage_row(total + wounds - reduction)] += p
    return rows


# --- keywords -------------------------------------------------------------------------


@dataclass(frozen=True)
class Keywords:
    names: frozenset
    values: tuple  # ((name, x), ...)

    @classmethod
    def parse(cls, keywords) -> "Keywords":
        names, values = set(), {}
        for keyword in keywords or ():
            text = str(keyword).strip()
            parts = text.rsplit(" ", 1)
            if len(parts) == 2 and parts[1].lstrip("-").isdigit():
                name, x = parts[0].strip().lower(), int(parts[1])
            else:
                name, x = text.lower(), None
            names.add(name)
            if x is not None:
                values[name] = x
        return cls(frozenset(names), tuple(sorted(values.items())))

    def has(self, name: str) -> bool:
        return name in self.names

    def x(self, name: str, default: int = 0) -> int:
        return dict(self.values).get(name, default)


# --- Neural Overload and Morale ---------------------------------------------------------------


@lru_cache(maxsize=64)
def neural_overload_distribution(dread: int) -> dict[str, Fraction]:
    """Highest row reached by D6 + Dread (rows 1+, 3+, 5+, 7+, 9+; cumulative)."""
    dist = {str(row): Fraction(0) for row in NEURAL_ROWS}
    for roll in D6:
        total = roll + dread
        reached = [row for row in NEURAL_ROWS if total >= row]
        dist[str(reached[-1] if reached else NEURAL_ROWS[0])] += Fraction(1, 6)
    return dist


@lru_cache(maxsize=4096)
def morale_distribution(discipline: int, dread: int, wounds: int, allies_in_los: int, jinxed: bool = False):
    """Dread left after the Morale Phase: one Discipline test per Dread held at
    its start, + allies in LoS, -1 per Wound; success removes 1, critical 2,
    fumble adds 1 (Dread stays within 0..6)."""
    test = test_distribution(discipline + allies_in_los - wounds, jinxed)
    state = {min(max(dread, 0), MAX_DREAD): ONE}
    for _ in range(max(dread, 0)):
        nxt = defaultdict(Fraction)
        for held, p in state.items():
            nxt[max(0, held - 2)] += p * test["critical"]
            nxt[max(0, held - 1)] += p * test["success"]
            nxt[held] += p * test["failure"]
            nxt[min(MAX_DREAD, held + 1)] += p * test["fumble"]
        state = nxt
    left = {str(n): state.get(n, Fraction(0)) for n in range(MAX_DREAD + 1)}
    flees = {str(n): Fraction(0) for n in range(4)}
    for n in range(MAX_DREAD + 1):
        flees[str(min(n, 3))] += state.get(n, Fraction(0))
    becomes_npc = sum((state.get(n, Fraction(0)) for n in range(4, MAX_DREAD + 1)), Fraction(0))
    return left, flees, becomes_npc


# --- attacks ------------------------------------------------------------------------------

LIGHT_SOURCES = frozenset({"lantern", "spot-light"})
SHIELDS = frozenset({"shield", "tower-shield"})


@dataclass(frozen=True)
class Attacker:
    agility: int = 0
    discipline: int = 0
    strength: int = 0
    traits: frozenset = frozenset()
    body_mods: frozenset = frozenset()


@dataclass(frozen=True)
class Target:
    toughness: int = 0
    strength: int = 0
    armor: int = 0
    wounds: int = 0
    prone: bool = False
    traits: frozenset = frozenset()
    body_mods: frozenset = frozenset()
    gear: frozenset = frozenset()


@dataclass(frozen=True)
class Weapon:
    damage: int
    range: int | None
    keywords: Keywords
    is_fists: bool = False


@dataclass(frozen=True)
class Situation:
    cover: bool = False
    long_range: bool = False
    surrounded: bool = False
    modifier: int = 0
    auto: bool = True
    over_half_range: bool = False


def effective_weapon(weapon: Weapon, attacker: Attacker) -> Weapon:
    """Mechanical claw: fists lose Feeble and gain Brutal."""
    if weapon.is_fists and "mechanical-claw" in attacker.body_mods:
        names = (weapon.keywords.names - {"feeble"}) | {"brutal"}
        return Weapon(weapon.damage, weapon.range, Keywords(frozenset(names), weapon.keywords.values), True)
    return weapon


def hit_modifier(action: str, attacker: Attacker, weapon: Weapon, target: Target, situation: Situation) -> int:
    modifier = situation.modifier
    if "big" in target.traits:
        modifier += 2
    if "small" in target.traits:
        modifier -= 2
    if "monstrous" in target.traits:
        modifier += 4
    if "stealth-suit" in target.gear and not (target.gear & SHIELDS):
        modifier -= 2
    if "darkborn" in attacker.traits and target.gear & LIGHT_SOURCES:
        modifier -= 3
    if action == "fight":
        if target.prone:
            modifier += 2
    else:
        if situation.cover or "tower-shield" in target.gear:
            modifier -= 4
        if situation.long_range:
            modifier -= 2
        if uses_auto(weapon, situation):
            modifier -= 2
    return modifier


def uses_auto(weapon: Weapon, situation: Situation) -> bool:
    return weapon.keywords.has("auto") and weapon.keywords.x("auto", 1) > 1 and situation.auto


def hit_attribute(action: str, attacker: Attacker, weapon: Weapon) -> int:
    if action == "fight":
        return attacker.agility
    thrown_melee = weapon.range is None and weapon.keywords.has("thrown")
    return attacker.agility if thrown_melee else attacker.discipline


@lru_cache(maxsize=4096)
def single_hit_roll(total_modifier: int, dice: int, jinxed: bool) -> dict[str, Fraction]:
    """One hit roll of ``dice`` D20 keeping the highest (Auto X); a 1 on any die fumbles.

    A roll that is both a Critical and a Fumble counts as a Critical here:
    a Critical is always a success, so the attack hits (the Fumble's own
    effect, a jam, does not change the target's fate).
    """
    crit_from, fumble_to = (19, 2) if jinxed else (20, 1)
    counts = {"critical": 0, "hit": 0, "miss": 0, "fumble": 0}

    def classify(high: int, any_fumble: bool) -> str:
        if high >= crit_from:
            return "critical"
        if any_fumble:
            return "fumble"
        return "hit" if high + total_modifier >= SUCCESS_AT else "miss"

    # distribution of (highest, any die <= fumble_to) over ``dice`` D20
    states = {(0, False): 1}
    for _ in range(dice):
        nxt = defaultdict(int)
        for (high, fumbled), n in states.items():
            for natural in D20:
                nxt[(max(high, natural), fumbled or natural <= fumble_to)] += n
        states = nxt
    total = 20 ** dice
    for (high, fumbled), n in states.items():
        counts[classify(high, fumbled)] += n
    return {k: Fraction(v, total) for k, v in counts.items()}


def to_hit_distribution(action, attacker, weapon, target, situation) -> dict[str, Fraction]:
    modifier = hit_attribute(action, attacker, weapon) + hit_modifier(action, attacker, weapon, target, situation)
    dice = weapon.keywords.x("auto", 1) if action == "shoot" and uses_auto(weapon, situation) else 1
    once = single_hit_roll(modifier, dice, "jinxed" in attacker.traits)
    if not situation.surrounded:
        return once
    # Surrounded: the attacker re-rolls a missed (or fumbled) hit roll, once.
    again = sum((once[k] for k in ("miss", "fumble")), Fraction(0))
    return {
        "critical": once["critical"] + again * once["critical"],
        "hit": once["hit"] + again * once["hit"],
        "miss": again * once["miss"],
        "fumble": again * once["fumble"],
    }


@dataclass(frozen=True)
class State:
    wounds: int
    prone: bool
    out: bool = False
    knocked: bool = False
    gained: int = 0
    organs_used: bool = False


def _add(dist: dict, state: State, p: Fraction) -> None:
    dist[state] = dist.get(state, Fraction(0)) + p


def gain_wound(state: State, target: Target, feeble: bool) -> dict[State, Fraction]:
    if state.out:
        return {state: ONE}
    if feeble and not state.prone:
        return {state: ONE}
    if "one-shotter" in target.traits:
        if state.prone:
            return {State(state.wounds, True, True, state.knocked, state.gained, state.organs_used): ONE}
        return {State(state.wounds, True, False, True, state.gained, state.organs_used): ONE}

    def wounded(s: State) -> State:
        if s.wounds + 1 > MAX_WOUNDS:
            return State(s.wounds, s.prone, True, s.knocked, s.gained + 1, s.organs_used)
        return State(s.wounds + 1, s.prone, False, s.knocked, s.gained + 1, s.organs_used)

    if "extra-organs" in target.body_mods and state.wounds == 0 and state.gained == 0 and not state.organs_used:
        used = State(state.wounds, state.prone, state.out, state.knocked, state.gained, True)
        test = test_distribution(target.toughness - state.wounds, "jinxed" in target.traits)
        saved = test["critical"] + test["success"]
        dist = {}
        _add(dist, used, saved)
        _add(dist, wounded(used), ONE - saved)
        return dist
    return {wounded(state): ONE}


def knock_prone(state: State, target: Target) -> State:
    if state.out or "monstrous" in target.traits:
        return state
    if state.prone:
        return State(state.wounds, True, True, state.knocked, state.gained, state.organs_used)
    return State(state.wounds, True, False, True, state.gained, state.organs_used)


def apply_row(state: State, row: str, target: Target, feeble: bool) -> dict[State, Fraction]:
    if row == "none":
        return {state: ONE}
    dist = gain_wound(state, target, feeble)
    if row in ("critical", "lethal"):
        # Rows are cumulative: the Light row's Wound is gained, then the target is Out of Action.
        out = {}
        for s, p in dist.items():
            _add(out, State(s.wounds, s.prone, True, s.knocked, s.gained, s.organs_used), p)
        return out
    if row == "serious":
        merged = {}
        for s, p in dist.items():
            _add(merged, knock_prone(s, target), p)
        dist = merged
    return dist


def tough_it_out(row: str, state: State, target: Target, brutal: bool) -> dict[tuple[str, bool], Fraction]:
    """(row after Tough it Out, failed) for a row the target may try to downgrade."""
    index = ROW_INDEX[row]
    if row in ("none", "lethal") or state.out:
        return {(row, False): ONE}
    if "monstrous" in target.traits:
        return {(DAMAGE_ROWS[index - 1][0], False): ONE}
    if "npc" in target.traits and "unstoppable" not in target.traits:
        return {(row, False): ONE}
    modifier = target.toughness - state.wounds - (4 if brutal else 0)
    test = test_distribution(modifier, "jinxed" in target.traits)
    out = defaultdict(Fraction)
    out[(DAMAGE_ROWS[max(index - 2, 0)][0], False)] += test["critical"]
    out[(DAMAGE_ROWS[max(index - 1, 0)][0], False)] += test["success"]
    out[(row, True)] += test["failure"]
    out[(DAMAGE_ROWS[min(index + 1, len(DAMAGE_ROWS) - 1)][0], True)] += test["fumble"]
    return dict(out)


def damage_profile(action, attacker, weapon, target, situation) -> dict:
    keywords = weapon.keywords
    hazard = "hazard-suit" in target.gear and (keywords.has("electric") or keywords.has("fire"))
    dice = weapon.damage
    if action == "fight" and attacker.strength > target.strength:
        dice += 1
    if "artificial" in target.traits and keywords.has("electric") and not hazard:
        dice += 1
    if keywords.has("short-ranged") and situation.over_half_range:
        dice -= 1
    melee_hit = action == "fight"
    reroll_sixes = ("tower-shield" in target.gear) or (melee_hit and "shield" in target.gear)
    return {
        "dice": max(dice, 0),
        "armor": target.armor + 4 if hazard else target.armor,
        "overkill": keywords.has("overkill"),
        "piercing": keywords.x("piercing", 0),
        "electric": keywords.has("electric") and not hazard,
        "energy": keywords.has("energy"),
        "reroll_sixes": reroll_sixes,
        "feeble": keywords.has("feeble"),
        "brutal": keywords.has("brutal"),
    }


def resolve_hit(critical: bool, action, attacker, weapon, target, situation) -> dict[State, Fraction]:
    profile = damage_profile(action, attacker, weapon, target, situation)
    start = State(target.wounds, target.prone)
    states = gain_wound(start, target, profile["feeble"]) if critical else {start: ONE}
    final: dict[State, Fraction] = {}
    for state, p in states.items():
        if state.out:
            _add(final, state, p)
            continue
        rows = damage_row_distribution(
            profile["dice"], profile["armor"], state.wounds, profile["overkill"], profile["piercing"],
            profile["electric"], profile["energy"], profile["reroll_sixes"],
        )
        for row, q in rows.items():
            if not q:
                continue
            for (after, failed), r in tough_it_out(row, state, target, profile["brutal"]).items():
                current = {state: ONE}
                if failed and "demonic" in target.traits:
                    current = gain_wound(state, target, False)
                for s, w in current.items():
                    for s2, v in apply_row(s, after, target, profile["feeble"]).items():
                        _add(final, s2, p * q * r * w * v)
    return final


def attack_odds(action: str, attacker: Attacker, weapon: Weapon, target: Target, situation: Situation) -> dict:
    weapon = effective_weapon(weapon, attacker)
    to_hit = to_hit_distribution(action, attacker, weapon, target, situation)
    groups = {"unharmed": Fraction(0), "wounded": Fraction(0), "prone": Fraction(0), "out_of_action": Fraction(0)}
    expected = Fraction(0)
    groups["unharmed"] += to_hit["miss"] + to_hit["fumble"]
    for kind in ("critical", "hit"):
        if not to_hit[kind]:
            continue
        for state, p in resolve_hit(kind == "critical", action, attacker, weapon, target, situation).items():
            weight = to_hit[kind] * p
            if state.out:
                groups["out_of_action"] += weight
            elif state.knocked:
                groups["prone"] += weight
            elif state.gained:
                groups["wounded"] += weight
            else:
                groups["unharmed"] += weight
            expected += weight * state.gained
    return {"to_hit": to_hit, "target": groups, "expected_wounds": expected}


# --- complications and environment effects at the table ---------------------------------------

# Effects that change a roll in the attack chain, by complication slug:
# (hit modifier for Shoot, hit modifier for Fight, Toughness modifier unless protected)
COMPLICATION_EFFECTS = {
    "darkness": (-3, 0, 0),
    "partial-darkness": (-2, 0, 0),
    "slippery-ground": (0, -2, 0),
    "noxious-air": (0, 0, -2),
}
NOXIOUS_AIR_IMMUNE_GEAR = frozenset({"hazard-suit", "gas-mask", "powered-armor"})


def apply_complications(names, action: str, target: Target, situation: Situation) -> tuple[Target, Situation]:
    """Fold the chosen complications into the target and situation."""
    hit, toughness = 0, 0
    for name in names:
        shoot_mod, fight_mod, tough_mod = COMPLICATION_EFFECTS.get(name, (0, 0, 0))
        hit += shoot_mod if action == "shoot" else fight_mod
        immune = "artificial" in target.traits or target.gear & NOXIOUS_AIR_IMMUNE_GEAR
        toughness += 0 if immune else tough_mod
    if toughness:
        target = Target(target.toughness + toughness, target.strength, target.armor, target.wounds, target.prone,
                        target.traits, target.body_mods, target.gear)
    if hit:
        situation = Situation(situation.cover, situation.long_range, situation.surrounded, situation.modifier + hit,
                              situation.auto, situation.over_half_range)
    return target, situation
