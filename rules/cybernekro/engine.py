"""Cybernekr0 core rules 1.1.3: tests, to-hit, damage, Tough it Out, Neural Overload, morale.

Pure Python. Every random step of a rule is written once, as a *process*: a
function that asks ``draw(event)`` for each random thing that happens. The
same process gives

* exact odds (:func:`enumerate_process` walks every branch, weighting it by
  the event's exact distribution), and
* seeded rolls (:func:`sample_process` rolls the event's physical dice with a
  ``random.Random`` and logs them),

so the numbers and the dice assistant can never disagree on a reading. The
readings where the text is open are in docs/rules-interpretations.md (Part 4).
"""

from __future__ import annotations

import math
import random
import re
from collections import defaultdict
from dataclasses import dataclass, replace
from enum import Enum, IntEnum
from fractions import Fraction
from functools import lru_cache
from typing import Callable, NamedTuple

from rules import dice

ONE = Fraction(1)
ZERO = Fraction(0)

MAX_WOUNDS = 6
MAX_DREAD = 6
SUCCESS_AT = 11


# ==========================================================================
# enums and inputs
# ==========================================================================


class Outcome(str, Enum):
    CRITICAL = "critical"
    SUCCESS = "success"
    FAILURE = "failure"
    FUMBLE = "fumble"

    @property
    def passed(self) -> bool:
        return self in (Outcome.CRITICAL, Outcome.SUCCESS)


class Row(IntEnum):
    """Highest row of the damage table reached."""

    NONE = 0
    LIGHT = 1
    SERIOUS = 2
    CRITICAL = 3
    LETHAL = 4

    @property
    def key(self) -> str:
        return self.name.lower()


class TargetState(str, Enum):
    UNHARMED = "unharmed"
    WOUNDED = "wounded"
    PRONE = "prone"
    OUT_OF_ACTION = "out_of_action"


class Action(str, Enum):
    FIGHT = "fight"
    SHOOT = "shoot"


def slug(text: str) -> str:
    """lower-case, runs of anything but [a-z0-9] -> "-", trimmed."""
    return re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-")


KEYWORDS_WITH_X = {"auto", "heavy", "piercing"}
KEYWORDS_PLAIN = {
    "brutal",
    "electric",
    "energy",
    "feeble",
    "fire",
    "overkill",
    "parry",
    "reach",
    "reliable",
    "reload",
    "short-ranged",
    "splash",
    "stagger",
    "thrown",
    "unstable",
    "unwieldy",
}


@dataclass(frozen=True)
class Keywords:
    auto: int = 0
    heavy: int = 0
    piercing: int = 0
    flags: frozenset = frozenset()

    def has(self, name: str) -> bool:
        return name in self.flags

    @classmethod
    def parse(cls, items) -> "Keywords":
        """["Piercing 2", "Overkill", "Auto 3"] -> Keywords. Unknown names are a ValueError."""
        values = {"auto": 0, "heavy": 0, "piercing": 0}
        flags = set()
        for item in items:
            if not isinstance(item, str):
                raise ValueError(f"keyword {item!r} is not a string")
            m = re.fullmatch(r"\s*([A-Za-z][A-Za-z \-]*?)\s*(?:\s(\d+))?\s*", item)
            if not m:
                raise ValueError(f"keyword {item!r} is not 'Name' or 'Name X'")
            name, number = slug(m.group(1)), m.group(2)
            if name in KEYWORDS_WITH_X:
                if number is None:
                    raise ValueError(f"keyword {item!r} needs a number, e.g. '{m.group(1)} 2'")
                values[name] = max(values[name], int(number))
            elif name in KEYWORDS_PLAIN:
                if number is not None:
                    raise ValueError(f"keyword {item!r} takes no number")
                flags.add(name)
            else:
                raise ValueError(f"unknown keyword {item!r}")
        return cls(values["auto"], values["heavy"], values["piercing"], frozenset(flags))

    def without(self, *names: str) -> "Keywords":
        return replace(self, flags=self.flags - set(names))

    def adding(self, *names: str) -> "Keywords":
        return replace(self, flags=self.flags | set(names))


@dataclass(frozen=True)
class Weapon:
    damage: int
    range: int | None = None
    keywords: Keywords = Keywords()
    slug: str | None = None

    @property
    def ranged(self) -> bool:
        return self.range is not None


@dataclass(frozen=True)
class Attacker:
    agility: int = 0
    discipline: int = 0
    strength: int = 0
    traits: frozenset = frozenset()
    body_mods: frozenset = frozenset()
    dread: int = 0
    gear: frozenset = frozenset()  # last, so positional construction keeps working


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
    dread: int = 0
    queen: bool = False  # its player holds a Queen for it (fate card): an OoA with < 6 Wounds is a Wound


@dataclass(frozen=True)
class Situation:
    cover: bool = False
    long_range: bool = False
    surrounded: bool = False
    modifier: int = 0
    in_melee: bool = False  # Shoot at a target in melee: the same -4 row as cover (not added twice)
    auto: bool = True  # use Auto X when the weapon has it
    over_half_range: bool = False  # Short-ranged: one die less
    splash_secondary: bool = False  # a model within 1" of the original target: one die less, no critical Wound
    touching_terrain: bool = True  # stealth suit works only in base contact with terrain
    stagger_into_obstacle: bool = False  # a failed Stagger test pushes into an obstacle: drops Prone
    # a failed Stagger test pushes it over a ledge this many inches high: it falls (the caller rolls the fall)
    stagger_over_ledge: float = 0.0
    tough_it_out: bool = True  # the target tries Tough it Out (odds-format: always)
    card: object = None  # a fate card on the hit roll: "ace", "jack-critical", "jack-fumble" or a signed 2..10
    # Distances to light the engine cannot see, ticked by the player (reading E12b): the target is within
    # 3" of a lantern (anyone's); the shooter is within 3" of an allied spot light. Each lifts darkness.
    target_near_lantern: bool = False
    shooter_near_allied_spot_light: bool = False


LIGHT_SOURCES = frozenset({"lantern", "spot-light"})
SHIELDS = frozenset({"shield", "tower-shield"})


# ==========================================================================
# attribute tests
# ==========================================================================


def classify(natural: int, modifier: int, jinxed: bool = False) -> Outcome:
    """One D20: critical on 20 (19-20 jinxed), fumble on 1 (1-2 jinxed), else 11+ after modifiers."""
    if natural >= (19 if jinxed else 20):
        return Outcome.CRITICAL
    if natural <= (2 if jinxed else 1):
        return Outcome.FUMBLE
    return Outcome.SUCCESS if natural + modifier >= SUCCESS_AT else Outcome.FAILURE


def classify_auto(faces: tuple[int, ...], modifier: int, jinxed: bool = False) -> Outcome:
    """Auto X: the highest die counts; any die on a fumble face fumbles; critical wins over fumble."""
    best = max(faces)
    if best >= (19 if jinxed else 20):
        return Outcome.CRITICAL
    if min(faces) <= (2 if jinxed else 1):
        return Outcome.FUMBLE
    return Outcome.SUCCESS if best + modifier >= SUCCESS_AT else Outcome.FAILURE


@lru_cache(maxsize=4096)
def hit_roll_distribution(modifier: int, jinxed: bool = False, dice_count: int = 1) -> dict[Outcome, Fraction]:
    """``dice_count`` D20, the highest counts (one die: a plain attribute test)."""
    n = max(1, dice_count)
    fumble_top = 2 if jinxed else 1
    counts = dict.fromkeys(Outcome, 0)
    for h in range(1, 21):
        with_max = h**n - (h - 1) ** n
        clean = (h - fumble_top) ** n - (h - 1 - fumble_top) ** n if h > fumble_top else 0
        if h >= (19 if jinxed else 20):
            counts[Outcome.CRITICAL] += with_max
            continue
        counts[Outcome.FUMBLE] += with_max - clean
        counts[Outcome.SUCCESS if h + modifier >= SUCCESS_AT else Outcome.FAILURE] += clean
    den = 20**n
    return {o: Fraction(c, den) for o, c in counts.items()}


@lru_cache(maxsize=4096)
def test_distribution(
    modifier: int = 0, jinxed: bool = False, card: str | int | None = None, reroll_success: bool = False
) -> dict[Outcome, Fraction]:
    """An attribute test with an optional fate card and a Dread re-roll.

    ``card``: "ace" (passes without rolling: a success), an int (a numbered
    card, sign chosen by its player, added to the result), "jack-critical" (a
    regular success becomes a Critical) or "jack-fumble" (a regular failure
    becomes a Fumble). ``reroll_success``: a passed test (success or
    critical) is re-rolled once by removing a Dread; the new result stands.
    The Jack is played after the (final) roll.
    """
    if card == "ace":
        return {Outcome.CRITICAL: ZERO, Outcome.SUCCESS: ONE, Outcome.FAILURE: ZERO, Outcome.FUMBLE: ZERO}
    mod = modifier + (card if isinstance(card, int) and not isinstance(card, bool) else 0)
    base = hit_roll_distribution(mod, jinxed, 1)
    dist = dict(base)
    if reroll_success:
        passed = base[Outcome.CRITICAL] + base[Outcome.SUCCESS]
        dist = {o: (ZERO if o.passed else p) + passed * base[o] for o, p in base.items()}
    if card == "jack-critical":
        dist[Outcome.CRITICAL] += dist[Outcome.SUCCESS]
        dist[Outcome.SUCCESS] = ZERO
    elif card == "jack-fumble":
        dist[Outcome.FUMBLE] += dist[Outcome.FAILURE]
        dist[Outcome.FAILURE] = ZERO
    return dist


def surrounded_reroll(dist: dict[Outcome, Fraction]) -> dict[Outcome, Fraction]:
    """A missed or fumbled hit roll is re-rolled once (a hit is kept)."""
    failed = dist[Outcome.FAILURE] + dist[Outcome.FUMBLE]
    return {o: (p if o.passed else ZERO) + failed * dist[o] for o, p in dist.items()}


# ==========================================================================
# events: one random thing, exact and physical
# ==========================================================================


@dataclass(frozen=True)
class TestEvent:
    """An attribute test (``dice_count`` > 1: Auto X)."""

    what: str
    modifier: int
    jinxed: bool = False
    dice_count: int = 1
    reroll_failures: bool = False  # Surrounded
    # A fate card (rules, Fate Cards): "ace" passes without rolling; "jack-critical" / "jack-fumble" are
    # played after the (final) roll. A numbered card is already in ``modifier``.
    card: object = None

    def distribution(self) -> dict:
        if self.card == "ace":
            return {Outcome.CRITICAL: ZERO, Outcome.SUCCESS: ONE, Outcome.FAILURE: ZERO, Outcome.FUMBLE: ZERO}
        dist = hit_roll_distribution(self.modifier, self.jinxed, self.dice_count)
        dist = surrounded_reroll(dist) if self.reroll_failures else dict(dist)
        return _jack(dist, self.card)

    def sample(self, rng: random.Random) -> Outcome:
        """The same roll as :meth:`roll` (same generator calls), without the log."""
        if self.card == "ace":
            return Outcome.SUCCESS
        n = self.dice_count
        outcome = classify_auto(tuple(rng.randint(1, 20) for _ in range(n)), self.modifier, self.jinxed)
        if self.reroll_failures and not outcome.passed:
            outcome = classify_auto(tuple(rng.randint(1, 20) for _ in range(n)), self.modifier, self.jinxed)
        return _jack_outcome(outcome, self.card)

    def roll(self, rng: random.Random) -> tuple[Outcome, dict]:
        if self.card == "ace":
            return Outcome.SUCCESS, {
                "what": self.what,
                "d20": [],
                "modifier": self.modifier,
                "card": "ace",
                "outcome": Outcome.SUCCESS.value,
            }
        faces = tuple(rng.randint(1, 20) for _ in range(self.dice_count))
        outcome = classify_auto(faces, self.modifier, self.jinxed)
        log = {"what": self.what, "d20": list(faces), "modifier": self.modifier, "outcome": outcome.value}
        if self.reroll_failures and not outcome.passed:
            again = tuple(rng.randint(1, 20) for _ in range(self.dice_count))
            outcome = classify_auto(again, self.modifier, self.jinxed)
            log.update({"rerolled": list(faces), "d20": list(again), "outcome": outcome.value})
        played = _jack_outcome(outcome, self.card)
        if played is not outcome:
            log.update({"card": self.card, "rolled": outcome.value, "outcome": played.value})
        return played, log


def _jack(dist: dict, card) -> dict:
    """A Jack played after the roll: a regular success becomes a Critical, or a regular failure a Fumble."""
    dist = dict(dist)
    if card == "jack-critical":
        dist[Outcome.CRITICAL] += dist[Outcome.SUCCESS]
        dist[Outcome.SUCCESS] = ZERO
    elif card == "jack-fumble":
        dist[Outcome.FUMBLE] += dist[Outcome.FAILURE]
        dist[Outcome.FAILURE] = ZERO
    return dist


def _jack_outcome(outcome: Outcome, card) -> Outcome:
    if card == "jack-critical" and outcome is Outcome.SUCCESS:
        return Outcome.CRITICAL
    if card == "jack-fumble" and outcome is Outcome.FAILURE:
        return Outcome.FUMBLE
    return outcome


@dataclass(frozen=True)
class DamageEvent:
    """A damage roll: the kept sum (before Wounds and armor)."""

    dice: int
    keep: int
    reroll: frozenset = frozenset()

    def distribution(self) -> dict:
        return dice.damage_pool_distribution(self.dice, self.keep, self.reroll)

    def sample(self, rng: random.Random) -> int:
        """The same roll as :meth:`roll` (same generator calls), without the log."""
        reroll, randint = self.reroll, rng.randint
        faces = []
        for _ in range(self.dice):
            f = randint(1, 6)
            faces.append(randint(1, 6) if f in reroll else f)
        if 6 in faces:
            f = randint(1, 6)
            faces.append(randint(1, 6) if f in reroll else f)
        faces.sort(reverse=True)
        return sum(faces[: self.keep])

    def roll(self, rng: random.Random) -> tuple[int, dict]:
        log = dice.roll_damage_pool(rng, self.dice, self.keep, self.reroll)
        return log.result, {
            "what": "damage",
            "dice": list(log.shown),
            "kept": list(log.kept),
            "dropped": list(log.dropped),
            "rerolled": [list(r) for r in log.rerolled],
            "bonus": log.bonus,
            "sum": log.result,
        }


@dataclass(frozen=True)
class DamageRowEvent:
    """A damage roll read on the table: the highest row reached by kept sum + Wounds - armor.

    Exact enumeration branches on the five rows rather than on every sum.
    """

    dice: int
    keep: int
    reroll: frozenset
    armor: int
    wounds: int

    def distribution(self) -> dict:
        return damage_row_distribution(self.dice, self.keep, self.reroll, self.armor, self.wounds)

    def sample(self, rng: random.Random) -> Row:
        return damage_row(DamageEvent(self.dice, self.keep, self.reroll).sample(rng) + self.wounds - self.armor)

    def roll(self, rng: random.Random) -> tuple[Row, dict]:
        total, log = DamageEvent(self.dice, self.keep, self.reroll).roll(rng)
        row = damage_row(total + self.wounds - self.armor)
        log.update(
            {"wounds": self.wounds, "armor": self.armor, "result": total + self.wounds - self.armor, "row": row.key}
        )
        return row, log


@dataclass(frozen=True)
class DieEvent:
    what: str
    sides: int = 6

    def distribution(self) -> dict:
        return dice.uniform(self.sides)

    def sample(self, rng: random.Random) -> int:
        return rng.randint(1, self.sides)

    def roll(self, rng: random.Random) -> tuple[int, dict]:
        value = rng.randint(1, self.sides)
        return value, {"what": self.what, f"d{self.sides}": value}


class _Branch(Exception):
    def __init__(self, event):
        self.event = event


def enumerate_process(process: Callable, *args) -> dict:
    """Exact distribution of ``process(draw, *args)``'s result over every branch."""
    results: dict = defaultdict(Fraction)
    stack: list[tuple[tuple, Fraction]] = [((), ONE)]
    while stack:
        prefix, p = stack.pop()
        position = 0

        def draw(event, _prefix=prefix):
            nonlocal position
            if position < len(_prefix):
                position += 1
                return _prefix[position - 1]
            raise _Branch(event)

        try:
            result = process(draw, *args)
        except _Branch as branch:
            for value, q in branch.event.distribution().items():
                if q:
                    stack.append((prefix + (value,), p * q))
            continue
        results[result] += p
    return dict(results)


def sample_process(process: Callable, rng: random.Random, *args, log: bool = True) -> tuple:
    """One seeded run of ``process``: (result, log of every event rolled).

    ``log=False`` rolls the very same dice (same generator calls) without
    keeping a log: the result is the same, the steps are empty (simulations).
    """
    steps: list[dict] = []
    if not log:
        return process(lambda event: event.sample(rng), *args), ()

    def draw(event):
        value, log = event.roll(rng)
        steps.append(log)
        return value

    return process(draw, *args), tuple(steps)


# ==========================================================================
# damage table and Tough it Out
# ==========================================================================


def damage_row(result: int) -> Row:
    """Highest row reached: below 3 none, 3+ Light, 6+ Serious, 9+ Critical, 12+ Lethal."""
    if result >= 12:
        return Row.LETHAL
    if result >= 9:
        return Row.CRITICAL
    if result >= 6:
        return Row.SERIOUS
    if result >= 3:
        return Row.LIGHT
    return Row.NONE


def effective_armor(armor: int, piercing: int = 0, electric: bool = False) -> int:
    """Piercing X ignores up to X points; Electric then lets armor reduce by at most 2."""
    a = max(armor - piercing, 0)
    return min(a, 2) if electric else a


@lru_cache(maxsize=8192)
def damage_row_distribution(
    dice_count: int, keep: int = 2, reroll: frozenset = frozenset(), armor: int = 0, wounds: int = 0
) -> dict[Row, Fraction]:
    """Rows of one damage roll; ``armor`` is what the armor reduces (after Piercing/Electric)."""
    counts, den = dice.damage_pool_counts(dice_count, keep, reroll)
    rows = dict.fromkeys(Row, 0)
    for s, c in counts:
        rows[damage_row(s + wounds - armor)] += c
    return {row: Fraction(c, den) for row, c in rows.items()}


def tough_it_out(row: Row, outcome: Outcome) -> Row:
    """Success: one step down; Critical: two; failure: unchanged; Fumble: one step up."""
    if outcome is Outcome.CRITICAL:
        return Row(max(row - 2, 0))
    if outcome is Outcome.SUCCESS:
        return Row(max(row - 1, 0))
    if outcome is Outcome.FUMBLE:
        return Row(min(row + 1, Row.LETHAL))
    return row


def may_tough_it_out(row: Row) -> bool:
    return row in (Row.LIGHT, Row.SERIOUS, Row.CRITICAL)


# ==========================================================================
# an attack
# ==========================================================================


@dataclass(frozen=True)
class HitPlan:
    """Everything a hit needs, resolved from the inputs (hashable, so cached)."""

    dice: int
    keep: int
    reroll: frozenset
    armor: int
    wounds: int
    prone: bool
    toughness: int  # Toughness test modifier before Wounds (Driven by madness included)
    jinxed: bool
    brutal: bool
    tio: str  # "roll", "auto" (Monstrous), "none" (NPC)
    feeble: bool
    one_shotter: bool
    demonic: bool
    extra_organs: bool  # the first Wound of the game is still to come
    monstrous: bool
    stagger_prone: bool  # Stagger and a failed test drops it Prone
    critical_wound: bool = True  # a critical hit's extra Wound (not for Splash secondaries)
    queen: bool = False  # a Queen is played if the hit would take it OoA (see _queen)
    stagger_ledge: bool = False  # Stagger over a ledge: the test is drawn; its failure is a fall the caller rolls
    stagger: bool = False  # the weapon has Stagger (whatever stands behind the target)
    # a battle at the table: the Stagger test is drawn even when a failure only pushes the target back 1" (the
    # players move it); the odds leave it out, as it changes no group (R19)
    stagger_push: bool = False


class HitState(NamedTuple):
    """The target during one hit (a NamedTuple: immutable and quick to copy in simulations)."""

    wounds: int
    prone: bool
    ooa: bool = False
    gained: int = 0
    organs: bool = False
    knocked: bool = False
    queen_played: bool = False

    @property
    def group(self) -> TargetState:
        if self.ooa:
            return TargetState.OUT_OF_ACTION
        if self.knocked:
            return TargetState.PRONE
        if self.gained:
            return TargetState.WOUNDED
        return TargetState.UNHARMED


def _toughness_test(plan: HitPlan, state: HitState, what: str, extra: int = 0) -> TestEvent:
    return TestEvent(what, plan.toughness - state.wounds + extra, plan.jinxed)


def _gain_wound(draw, plan: HitPlan, state: HitState, from_weapon: bool = True) -> HitState:
    if state.ooa:
        return state
    if from_weapon and plan.feeble and not state.prone:
        return state  # Feeble: no Wounds unless the target is Prone
    if plan.one_shotter:  # a Wound knocks it Prone instead; already Prone: OoA
        if state.prone:
            return state._replace(ooa=True)
        if plan.monstrous:
            return state  # R35: the Wound became a knock-down that Monstrous prevents
        return state._replace(prone=True, knocked=True)
    if state.organs:  # Extra organs: the first Wound of the game asks for a Toughness test
        state = state._replace(organs=False)
        if draw(_toughness_test(plan, state, "extra organs")).passed:
            return state
    if state.wounds >= MAX_WOUNDS:
        return state._replace(ooa=True, gained=state.gained + 1)
    return state._replace(wounds=state.wounds + 1, gained=state.gained + 1)


def _knock_prone(state: HitState, plan: HitPlan) -> HitState:
    """Serious Injury: knocked Prone; if already Prone, OoA. Monstrous cannot be knocked Prone,
    but one already Prone is taken Out of Action as any other (reading R36)."""
    if state.ooa:
        return state
    if state.prone:
        return state._replace(ooa=True)
    if plan.monstrous:
        return state
    return state._replace(prone=True, knocked=True)


def _queen(state: HitState, plan: HitPlan) -> tuple[HitState, HitPlan]:
    """The Queen: "Play when a model with less than 6 Wounds would go OoA. The model suffers a Wound instead."

    Played on the hit's OoA (the damage table's results are cumulative, so the
    OoA is the end of the hit: reading R37), once: the plan comes back without it.
    """
    if plan.queen and state.ooa and state.wounds < MAX_WOUNDS:
        state = state._replace(ooa=False, wounds=state.wounds + 1, gained=state.gained + 1, queen_played=True)
        return state, replace(plan, queen=False)
    return state, plan


def hit_process(draw, plan: HitPlan, critical: bool) -> HitState:
    """Resolve one hit on the target; returns its state afterwards."""
    state = HitState(plan.wounds, plan.prone, organs=plan.extra_organs)
    if critical and plan.critical_wound:
        state = _gain_wound(draw, plan, state)
        state, plan = _queen(state, plan)
        if state.ooa:
            return state
    row = draw(DamageRowEvent(plan.dice, plan.keep, plan.reroll, plan.armor, state.wounds))
    if may_tough_it_out(row) and plan.tio != "none":
        if plan.tio == "auto":
            outcome = Outcome.SUCCESS
        else:
            outcome = draw(_toughness_test(plan, state, "tough it out", -4 if plan.brutal else 0))
        if not outcome.passed and plan.demonic:  # gains a Wound instead of the Dread
            state = _gain_wound(draw, plan, state, from_weapon=False)
        row = tough_it_out(row, outcome)
    if row >= Row.LIGHT:
        state = _gain_wound(draw, plan, state)
    if row >= Row.SERIOUS:
        state = _knock_prone(state, plan)
    if row >= Row.CRITICAL:
        state = state._replace(ooa=True)
    state, plan = _queen(state, plan)
    if plan.stagger_prone and not state.ooa and not state.prone and not plan.monstrous:
        if not draw(_toughness_test(plan, state, "stagger")).passed:
            state = state._replace(prone=True, knocked=True)
    elif (plan.stagger_ledge or plan.stagger_push) and not state.ooa:
        # a failure pushes it over the ledge (the caller's fall), or back 1" on the table (the players')
        draw(_toughness_test(plan, state, "stagger"))
    return state


@lru_cache(maxsize=8192)
def hit_outcome_distribution(plan: HitPlan, critical: bool) -> dict[tuple[TargetState, int], Fraction]:
    """(target group, Wounds gained) after one hit, exactly."""
    out: dict = defaultdict(Fraction)
    for state, p in enumerate_process(hit_process, plan, critical).items():
        out[(state.group, state.gained)] += p
    return dict(out)


@dataclass(frozen=True)
class AttackPlan:
    to_hit: TestEvent
    hit: HitPlan


def resolve_weapon_for_attacker(weapon: Weapon, attacker: Attacker) -> Weapon:
    """Mechanical claw: fists lose Feeble and gain Brutal."""
    if weapon.slug == "fists" and "mechanical-claw" in attacker.body_mods:
        return replace(weapon, keywords=weapon.keywords.without("feeble").adding("brutal"))
    return weapon


def plan_attack(
    action: Action | str, attacker: Attacker, weapon: Weapon, target: Target, situation: Situation = Situation()
) -> AttackPlan:
    """Turn the inputs into the to-hit roll and the hit plan (every modifier of the rules)."""
    action = Action(action)
    weapon = resolve_weapon_for_attacker(weapon, attacker)
    kw = weapon.keywords
    traits, gear = target.traits, target.gear

    # --- to hit ---------------------------------------------------------
    if action is Action.FIGHT:
        if weapon.ranged:
            raise ValueError("Fight needs a melee weapon (this one has a range)")
        attribute = attacker.agility
    else:
        if not weapon.ranged and not kw.has("thrown"):
            raise ValueError("Shoot needs a ranged weapon or one with Thrown")
        attribute = attacker.agility if not weapon.ranged else attacker.discipline
    mod = attribute + situation.modifier
    if action is Action.FIGHT:
        if target.prone:
            mod += 2
    else:
        if situation.cover or situation.in_melee or "tower-shield" in gear:
            mod -= 4
        if situation.long_range:
            mod -= 2
    if "big" in traits:
        mod += 2
    if "small" in traits:
        mod -= 2
    if "stealth-suit" in gear and not (gear & SHIELDS) and situation.touching_terrain:
        mod -= 2
    if "monstrous" in traits:
        mod += 4
    if "darkborn" in attacker.traits and (gear & LIGHT_SOURCES):
        mod -= 3
    if "driven-by-madness" in attacker.traits:
        mod += attacker.dread
    dice_count = 1
    if kw.auto and situation.auto:
        dice_count = kw.auto
        mod -= 2
    card = situation.card
    if isinstance(card, int) and not isinstance(card, bool):
        mod += card  # a numbered card modifies the final result (its sign the player's)
        card = None
    to_hit = TestEvent("to hit", mod, "jinxed" in attacker.traits, dice_count, situation.surrounded, card)

    # --- damage -------------------------------------------------------
    hazard = "hazard-suit" in gear
    electric = kw.has("electric")
    armor = target.armor
    if hazard and (electric or kw.has("fire")):
        armor += 4  # 4 armor points against Electric and Fire damage
        electric = False  # and the Electric effects are ignored
    n = weapon.damage
    if action is Action.FIGHT and attacker.strength > target.strength:
        n += 1
    if electric and "artificial" in traits:
        n += 1
    if kw.has("short-ranged") and situation.over_half_range:
        n -= 1
    if kw.has("splash") and situation.splash_secondary:
        n -= 1
    reroll = set()
    if kw.has("energy"):
        reroll.add(1)
    if "tower-shield" in gear or ("shield" in gear and action is Action.FIGHT):
        reroll.add(6)
    npc_no_tio = ("npc" in traits and "unstoppable" not in traits) or not situation.tough_it_out
    tio = "auto" if "monstrous" in traits else ("none" if npc_no_tio else "roll")
    hit = HitPlan(
        dice=max(n, 0),
        keep=3 if kw.has("overkill") else 2,
        reroll=frozenset(reroll),
        armor=effective_armor(armor, kw.piercing, electric),
        wounds=target.wounds,
        prone=target.prone,
        toughness=target.toughness + (target.dread if "driven-by-madness" in traits else 0),
        jinxed="jinxed" in traits,
        brutal=kw.has("brutal"),
        tio=tio,
        feeble=kw.has("feeble"),
        one_shotter="one-shotter" in traits,
        demonic="demonic" in traits,
        extra_organs="extra-organs" in target.body_mods and target.wounds == 0,
        monstrous="monstrous" in traits,
        stagger_prone=kw.has("stagger") and situation.stagger_into_obstacle,
        critical_wound=not (kw.has("splash") and situation.splash_secondary),
        queen=target.queen,
        stagger_ledge=kw.has("stagger") and situation.stagger_over_ledge > 0 and not situation.stagger_into_obstacle,
        stagger=kw.has("stagger"),
    )
    return AttackPlan(to_hit, hit)


@dataclass(frozen=True)
class AttackOdds:
    to_hit: dict  # Outcome -> Fraction
    target: dict  # TargetState -> Fraction
    expected_wounds: Fraction


@lru_cache(maxsize=4096)
def attack_odds_for_plan(plan: AttackPlan) -> AttackOdds:
    to_hit = plan.to_hit.distribution()
    target = dict.fromkeys(TargetState, ZERO)
    expected = ZERO
    target[TargetState.UNHARMED] += to_hit[Outcome.FAILURE] + to_hit[Outcome.FUMBLE]
    for outcome in (Outcome.CRITICAL, Outcome.SUCCESS):
        p = to_hit[outcome]
        if not p:
            continue
        for (group, gained), q in hit_outcome_distribution(plan.hit, outcome is Outcome.CRITICAL).items():
            target[group] += p * q
            expected += p * q * gained
    return AttackOdds(to_hit, target, expected)


def attack_odds(
    action, attacker: Attacker, weapon: Weapon, target: Target, situation: Situation = Situation()
) -> AttackOdds:
    return attack_odds_for_plan(plan_attack(action, attacker, weapon, target, situation))


def attack_process(draw, plan: AttackPlan) -> tuple[Outcome, HitState | None]:
    outcome = draw(plan.to_hit)
    if not outcome.passed:
        return outcome, None
    return outcome, hit_process(draw, plan.hit, outcome is Outcome.CRITICAL)


@dataclass(frozen=True)
class AttackRoll:
    seed: int | None
    to_hit: Outcome
    state: TargetState
    wounds_gained: int
    steps: tuple


def roll_attack(
    rng: random.Random,
    action,
    attacker: Attacker,
    weapon: Weapon,
    target: Target,
    situation: Situation = Situation(),
    seed: int | None = None,
) -> AttackRoll:
    """One seeded attack, every die logged (replay: the same seed and inputs)."""
    return roll_planned_attack(rng, plan_attack(action, attacker, weapon, target, situation), seed)


def roll_planned_attack(rng: random.Random, plan: AttackPlan, seed: int | None = None, log: bool = True) -> AttackRoll:
    """:func:`roll_attack` for an already planned attack (simulations plan once, and skip the log)."""
    (outcome, state), steps = sample_process(attack_process, rng, plan, log=log)
    group = state.group if state else TargetState.UNHARMED
    return AttackRoll(seed, outcome, group, state.gained if state else 0, steps)


# ==========================================================================
# single tests, damage rolls (seeded)
# ==========================================================================


@dataclass(frozen=True)
class TestRoll:
    seed: int | None
    d20: tuple[int, ...]
    modifier: int
    outcome: Outcome
    card: str | int | None = None
    rerolled: tuple[int, ...] = ()


def roll_test(
    rng: random.Random,
    modifier: int = 0,
    jinxed: bool = False,
    card=None,
    reroll_success: bool = False,
    seed: int | None = None,
) -> TestRoll:
    if card == "ace":
        return TestRoll(seed, (), modifier, Outcome.SUCCESS, card)
    mod = modifier + (card if isinstance(card, int) and not isinstance(card, bool) else 0)
    first = rng.randint(1, 20)
    outcome = classify(first, mod, jinxed)
    faces: tuple[int, ...] = (first,)
    rerolled: tuple[int, ...] = ()
    if reroll_success and outcome.passed:
        second = rng.randint(1, 20)
        outcome = classify(second, mod, jinxed)
        faces, rerolled = (second,), (first,)
    if card == "jack-critical" and outcome is Outcome.SUCCESS:
        outcome = Outcome.CRITICAL
    elif card == "jack-fumble" and outcome is Outcome.FAILURE:
        outcome = Outcome.FUMBLE
    return TestRoll(seed, faces, mod, outcome, card, rerolled)


def damage_distribution(
    dice_count: int, keywords: Keywords = Keywords(), armor: int = 0, wounds: int = 0, reroll_sixes: bool = False
) -> dict[Row, Fraction]:
    """The "damage" request: rows reached before Tough it Out."""
    reroll = set()
    if keywords.has("energy"):
        reroll.add(1)
    if reroll_sixes:
        reroll.add(6)
    return damage_row_distribution(
        dice_count,
        3 if keywords.has("overkill") else 2,
        frozenset(reroll),
        effective_armor(armor, keywords.piercing, keywords.has("electric")),
        wounds,
    )


def roll_damage(
    rng: random.Random,
    dice_count: int,
    keywords: Keywords = Keywords(),
    armor: int = 0,
    wounds: int = 0,
    reroll_sixes: bool = False,
    seed: int | None = None,
) -> tuple[Row, dice.RollLog]:
    reroll = {1} if keywords.has("energy") else set()
    if reroll_sixes:
        reroll.add(6)
    modifier = wounds - effective_armor(armor, keywords.piercing, keywords.has("electric"))
    log = dice.roll_damage_pool(
        rng, dice_count, 3 if keywords.has("overkill") else 2, frozenset(reroll), modifier, seed
    )
    return damage_row(log.result), log


# ==========================================================================
# Neural Overload
# ==========================================================================

OVERLOAD_ROWS = (1, 3, 5, 7, 9)


def overload_row(total: int) -> int:
    """Highest row reached by D6 + Dread."""
    return max(r for r in OVERLOAD_ROWS if r <= max(total, 1))


@lru_cache(maxsize=64)
def neural_overload_distribution(dread: int) -> dict[int, Fraction]:
    out = dict.fromkeys(OVERLOAD_ROWS, ZERO)
    for face, p in dice.d6().items():
        out[overload_row(face + dread)] += p
    return out


@dataclass(frozen=True)
class OverloadResult:
    total: int
    dread: int
    wounds: int
    ap: int
    prone: bool
    dead: bool
    effects: tuple[str, ...]
    ooa: bool = False  # Out of Action (a 7th Wound, a One-shotter already Prone); not when ``dead``
    gained: int = 0  # Wounds gained (a 7th, OoA instead, counted)
    organs_used: bool = False  # the Extra organs test was made (passed or not)


def wound_plan(target: Target) -> HitPlan:
    """The target's side of a hit, for a Wound that no hit deals (a Neural Overload's, a sorcery's, a Demonic
    model's instead of Dread): One-shotter, Monstrous, Extra organs and its Toughness test as
    :func:`plan_attack` reads them; no weapon (no Feeble, no damage)."""
    traits = target.traits
    return HitPlan(
        dice=0,
        keep=2,
        reroll=frozenset(),
        armor=0,
        wounds=target.wounds,
        prone=target.prone,
        toughness=target.toughness + (target.dread if "driven-by-madness" in traits else 0),
        jinxed="jinxed" in traits,
        brutal=False,
        tio="none",
        feeble=False,
        one_shotter="one-shotter" in traits,
        demonic="demonic" in traits,
        extra_organs="extra-organs" in target.body_mods and target.wounds == 0,
        monstrous="monstrous" in traits,
        stagger_prone=False,
        critical_wound=False,
    )


def suffer_wound(draw, plan: HitPlan, state: HitState) -> HitState:
    """One Wound no hit deals, by the hit's own path (:func:`_gain_wound`, not a weapon's: no Feeble).

    One-shotter: "Whenever this model would suffer a Wound it is knocked Prone instead. If it was already
    Prone it immediately goes OoA" (Monstrous: the knock-down is prevented, R35); Extra organs: "The first
    time this model gains a Wound in a game make a Toughness test. On a success it doesn't gain a Wound"
    (``state.organs``; the test is drawn); a 7th Wound is OoA instead.
    """
    return _gain_wound(draw, plan, state, from_weapon=False)


def _no_draw(event):
    raise ValueError(f"{event.what}: a test needs a draw")


def _wound_effect(before: HitState, after: HitState, plan: HitPlan) -> str:
    if after.ooa and not before.ooa:
        if plan.one_shotter:
            return "out of action (One-shotter, already Prone)"
        return "out of action (7th Wound)"
    if after.gained > before.gained:
        return "gain 1 Wound"
    if after.knocked and not before.knocked:
        return "knocked Prone instead of a Wound (One-shotter)"
    if before.organs and not after.organs:
        return "no Wound (Extra organs)"
    if plan.one_shotter and plan.monstrous:
        return "no Wound: knocked Prone instead, which Monstrous prevents"
    return "no Wound"


def apply_overload(
    total: int,
    dread: int = 0,
    wounds: int = 0,
    ap: int = 0,
    prone: bool = False,
    traits: frozenset = frozenset(),
    draw=None,
    plan: HitPlan | None = None,
) -> OverloadResult:
    """The table's rows from the top down, cumulatively.

    Artificial never gains Dread; Demonic gains a Wound instead. Every Wound is suffered through
    :func:`suffer_wound` (One-shotter, Extra organs, a 7th Wound OoA; ``dead`` stays False): ``plan`` is the
    model's :func:`wound_plan` (by default from ``wounds``, ``prone`` and ``traits``, no Extra organs) and
    ``draw`` rolls the Extra organs test. Monstrous "cannot be knocked Prone": rows 3 and 5 do not make it
    Prone, so row 5 wounds it only if it was Prone already. ``ap`` 0 is "no AP" (an NPC's: it uses none).
    """
    if plan is None:
        plan = wound_plan(Target(wounds=wounds, prone=prone, traits=frozenset(traits)))
    draw = draw or _no_draw
    monstrous = plan.monstrous or "monstrous" in traits
    hit = HitState(wounds, prone, organs=plan.extra_organs)
    effects = []
    dead = False

    def wound():
        nonlocal hit
        if hit.ooa:
            return  # already Out of Action: nothing more to suffer
        before = hit
        hit = suffer_wound(draw, plan, hit)
        effects.append(_wound_effect(before, hit, plan))

    def fall(text: str):
        nonlocal hit
        if monstrous:
            effects.append("cannot fall Prone (Monstrous)")
        else:
            hit = hit._replace(prone=True)
            effects.append(text)

    if total >= 1:
        if "artificial" in traits:
            effects.append("no Dread (Artificial)")
        elif "demonic" in traits:
            wound()
        else:
            dread = min(dread + 1, MAX_DREAD)
            effects.append("gain 1 Dread")
    if total >= 3:
        if ap > 0:
            ap -= 1
            effects.append("lose 1 AP")
        elif not hit.prone:
            fall("fall Prone (no AP)")
        else:
            effects.append("no AP, already Prone")
    if total >= 5:
        if hit.prone:
            wound()
        else:
            fall("fall Prone")
    if total >= 7:
        wound()
    if total >= 9:
        dead = True
        effects.append("head explodes: dies")
    if hit.ooa and not dead:
        effects.append("out of action")
    return OverloadResult(
        total,
        dread,
        hit.wounds,
        ap,
        hit.prone,
        dead,
        tuple(effects),
        hit.ooa and not dead,
        hit.gained,
        plan.extra_organs and not hit.organs,
    )


def roll_neural_overload(
    rng: random.Random,
    dread: int = 0,
    wounds: int = 0,
    ap: int = 0,
    prone: bool = False,
    traits: frozenset = frozenset(),
    seed: int | None = None,
    draw=None,
    plan: HitPlan | None = None,
) -> tuple[int, OverloadResult]:
    """D6 + Dread, then :func:`apply_overload` (``draw`` and ``plan``: its Wounds' Extra organs test)."""
    face = rng.randint(1, 6)
    return face, apply_overload(face + dread, dread, wounds, ap, prone, traits, draw, plan)


# ==========================================================================
# Morale Phase
# ==========================================================================


def morale_step(dread: int, outcome: Outcome, gains_dread: bool = True) -> int:
    """Success removes 1 Dread, critical 2, fumble adds 1 (none if the model cannot gain Dread); within 0..6."""
    if outcome is Outcome.CRITICAL:
        dread -= 2
    elif outcome is Outcome.SUCCESS:
        dread -= 1
    elif outcome is Outcome.FUMBLE and gains_dread:
        dread += 1
    return min(max(dread, 0), MAX_DREAD)


def morale_modifier(
    discipline: int, allies_in_los: int, wounds: int, dread_now: int = 0, driven_by_madness: bool = False
) -> int:
    return discipline + allies_in_los - wounds + (dread_now if driven_by_madness else 0)


def flees_for(dread_left: int, lobotomised: bool = False) -> tuple[int, bool]:
    """(Flee moves, becomes an NPC): 1-3 Dread: that many; 4+: three, then an NPC.

    Lobotomised "Never performs Flee moves": no moves, but 4+ Dread still makes it an NPC.
    """
    if dread_left >= 4:
        return (0 if lobotomised else 3), True
    return (0 if lobotomised else dread_left), False


def _morale_test(d: int, w: int, outcome: Outcome, artificial: bool, demonic: bool) -> tuple[int, int]:
    """(Dread, Wounds) after one Morale Test.

    A fumble's Dread: none for an Artificial model ("can never gain Dread"), a
    Wound instead for a Demonic one ("Whenever this model would gain Dread it
    gains a Wound instead"), which gives -1 to its later tests (kept at 6 at
    most: a 7th Wound, Out of Action, is not part of the Dread answer).
    """
    if outcome is Outcome.FUMBLE and demonic and not artificial:
        return d, min(w + 1, MAX_WOUNDS)
    return morale_step(d, outcome, gains_dread=not artificial), w


@lru_cache(maxsize=4096)
def morale_distribution(
    discipline: int,
    dread: int,
    wounds: int = 0,
    allies_in_los: int = 0,
    jinxed: bool = False,
    driven_by_madness: bool = False,
    artificial: bool = False,
    demonic: bool = False,
) -> dict[int, Fraction]:
    """Dread left after the phase: one test per Dread held when it starts."""
    states = {(dread, wounds): ONE}
    for _ in range(dread):
        nxt: dict = defaultdict(Fraction)
        for (d, w), p in states.items():
            mod = morale_modifier(discipline, allies_in_los, w, d, driven_by_madness)
            for outcome, q in hit_roll_distribution(mod, jinxed, 1).items():
                if q:
                    nxt[_morale_test(d, w, outcome, artificial, demonic)] += p * q
        states = nxt
    out = dict.fromkeys(range(MAX_DREAD + 1), ZERO)
    for (d, _w), p in states.items():
        out[d] += p
    return out


def morale_consequences(left: dict[int, Fraction], lobotomised: bool = False) -> tuple[dict[int, Fraction], Fraction]:
    flees = dict.fromkeys(range(4), ZERO)
    npc = ZERO
    for d, p in left.items():
        moves, becomes = flees_for(d, lobotomised)
        flees[moves] += p
        if becomes:
            npc += p
    return flees, npc


@dataclass(frozen=True)
class MoraleRoll:
    seed: int | None
    tests: tuple[tuple[int, int, str], ...]  # (d20, modifier, outcome)
    dread_left: int
    flees: int
    becomes_npc: bool
    wounds: int = 0


def roll_morale(
    rng: random.Random,
    discipline: int,
    dread: int,
    wounds: int = 0,
    allies_in_los: int = 0,
    jinxed: bool = False,
    driven_by_madness: bool = False,
    seed: int | None = None,
    artificial: bool = False,
    demonic: bool = False,
    lobotomised: bool = False,
) -> MoraleRoll:
    d, w, tests = dread, wounds, []
    for _ in range(dread):
        mod = morale_modifier(discipline, allies_in_los, w, d, driven_by_madness)
        face = rng.randint(1, 20)
        outcome = classify(face, mod, jinxed)
        tests.append((face, mod, outcome.value))
        d, w = _morale_test(d, w, outcome, artificial, demonic)
    moves, npc = flees_for(d, lobotomised)
    return MoraleRoll(seed, tuple(tests), d, moves, npc, w)


# ==========================================================================
# contests, falls, initiative
# ==========================================================================


def explode_head_distribution(caster: tuple[int, int, int], target: tuple[int, int, int]) -> dict[str, Fraction]:
    """Each side D6 + Intellect + Toughness + Discipline: the lower dies; a tie wounds both."""
    c = dice.contest_distribution(sum(caster), sum(target))
    return {"target_dies": c["first"], "caster_dies": c["second"], "both_wounded": c["tie"]}


def push_distribution(attacker_strength: int, target_strength: int) -> dict[str, Fraction]:
    """Both D6 + Strength; the target is pushed only if the attacker rolls higher (a tie: not pushed)."""
    c = dice.contest_distribution(attacker_strength, target_strength)
    return {"pushed": c["first"], "not_pushed": c["tie"] + c["second"]}


def initiative_distribution(first_intellect: int, second_intellect: int) -> dict[str, Fraction]:
    """D6 + Intellect each; a tie is reported (the seeded roll re-rolls ties)."""
    return dice.contest_distribution(first_intellect, second_intellect)


def roll_initiative(
    rng: random.Random, first_intellect: int, second_intellect: int, seed: int | None = None
) -> tuple[str, tuple[dice.RollLog, ...]]:
    logs = []
    while True:
        winner, log = dice.roll_contest(rng, first_intellect, second_intellect, seed=seed)
        logs.append(log)
        if winner != "tie":
            return winner, tuple(logs)


def roll_explode_head(rng, caster, target, seed=None) -> tuple[str, dice.RollLog]:
    winner, log = dice.roll_contest(rng, sum(caster), sum(target), seed=seed)
    return {"first": "target_dies", "second": "caster_dies", "tie": "both_wounded"}[winner], log


def roll_push(rng, attacker_strength, target_strength, seed=None) -> tuple[bool, dice.RollLog]:
    winner, log = dice.roll_contest(rng, attacker_strength, target_strength, seed=seed)
    return winner == "first", log


def fall_hits(height: float) -> int:
    """Falls from higher than 2": one Damage 1 hit per 3" fallen, rounded up."""
    if height <= 2:
        return 0
    return math.ceil(height / 3)


def fall_process(draw, plan: HitPlan, hits: int) -> HitState:
    state = HitState(plan.wounds, plan.prone, organs=plan.extra_organs)
    for _ in range(hits):
        if state.ooa:
            break
        hit = hit_process(draw, replace(plan, wounds=state.wounds, prone=state.prone, extra_organs=state.organs), False)
        state = hit._replace(gained=state.gained + hit.gained, knocked=state.knocked or hit.knocked)
    if hits and not state.ooa and not state.prone and not plan.monstrous:
        state = state._replace(prone=True, knocked=True)  # "and is then knocked Prone"
    return state


def fall_plan(target: Target) -> HitPlan:
    """A fall's hits: Damage 1 ignoring armor, each with Tough it Out as an attack's (the target's side is
    :func:`wound_plan`'s; a fall rolls no hit, so no critical)."""
    traits = target.traits
    return replace(
        wound_plan(target),
        dice=1,
        tio="auto"
        if "monstrous" in traits
        else ("none" if "npc" in traits and "unstoppable" not in traits else "roll"),
    )


def fall_distribution(height: float, target: Target) -> dict[TargetState, Fraction]:
    """A fall: Damage 1 hits ignoring armor, each with the usual damage table and Tough it Out."""
    out = dict.fromkeys(TargetState, ZERO)
    for state, p in enumerate_process(fall_process, fall_plan(target), fall_hits(height)).items():
        out[state.group] += p
    return out


# ==========================================================================
# complications at the table (scenario complications that change an attack)
# ==========================================================================

# "Darkness. All ranged attacks suffer a -3 modifier"; "Partial darkness. All
# ranged attacks suffer a -2 modifier"; "Slippery ground: -2 to all Agility
# rolls"; "Noxious air: Models suffer -2 to their Toughness rolls. Models with
# hazard suits, gas masks or the Artificial trait are immune" (powered armor and
# the hazard suit "count as a gas mask"). Reading E12 of rules-interpretations.md.
COMPLICATIONS = {
    "darkness": "Darkness (ranged −3)",
    "partial-darkness": "Partial darkness (ranged −2)",
    "slippery-ground": "Slippery ground (Agility −2)",
    "noxious-air": "Noxious air (Toughness −2)",
}
RANGED_PENALTY = {"darkness": -3, "partial-darkness": -2}
GAS_MASKS = frozenset({"gas-mask", "hazard-suit", "powered-armor"})

# Why a chosen complication changes nothing in this attack, in the words the dice assistant shows
# ("Darkness: no effect — the shooter is Darkborn"). Reading E12b of rules-interpretations.md.
COMPLICATION_NAMES = {
    "darkness": "Darkness",
    "partial-darkness": "Partial darkness",
    "slippery-ground": "Slippery ground",
    "noxious-air": "Noxious air",
}
NO_EFFECT = {
    "fight": "a Fight is not a ranged attack",
    "darkborn": "the shooter is Darkborn",
    "own-spot-light": "the shooter carries a spot light",
    "allied-spot-light": 'the shooter is within 3" of an allied spot light',
    "target-spot-light": "the target carries a spot light",
    "target-lantern": "the target carries a lantern",
    "near-lantern": 'the target is within 3" of a lantern',
    "discipline": "a ranged weapon's shot rolls Discipline, not Agility",
    "artificial": "the target is Artificial",
    "gas-mask": "the target wears a gas mask or what counts as one",
}

# The Situation flags a player ticks for light the engine cannot see (distances), with their words.
LIGHT_TICKS = {
    "target_near_lantern": "The target is within 3\" of a lantern (anyone's)",
    "shooter_near_allied_spot_light": 'The shooter is within 3" of an allied spot light',
}


def _darkness_lifted(action: Action, attacker: Attacker, target: Target, situation: Situation) -> str:
    """Why darkness does not touch this attack (a NO_EFFECT key), or "" when it does.

    "All ranged attacks suffer": not a Fight. Darkborn "Ignores effects of
    darkness". Spot light: "All allies within 3" ignore the effects of
    darkness" (its bearer is within 3" of it), "but enemies also ignore
    darkness when targeting this model". Lantern: "Models ignore darkness when
    targeting a model that is within 3" of a lantern" (its bearer, or one the
    player says is near one).
    """
    if action is not Action.SHOOT:
        return "fight"
    if "darkborn" in attacker.traits:
        return "darkborn"
    if "spot-light" in attacker.gear:
        return "own-spot-light"
    if situation.shooter_near_allied_spot_light:
        return "allied-spot-light"
    if "spot-light" in target.gear:
        return "target-spot-light"
    if "lantern" in target.gear:
        return "target-lantern"
    if situation.target_near_lantern:
        return "near-lantern"
    return ""


def _no_effect(name: str, action: Action, attacker: Attacker, target: Target, situation: Situation, weapon) -> str:
    if name in RANGED_PENALTY:
        return _darkness_lifted(action, attacker, target, situation)
    if name == "slippery-ground":
        return "discipline" if weapon is not None and action is Action.SHOOT and weapon.ranged else ""
    if "artificial" in target.traits:
        return "artificial"
    return "gas-mask" if target.gear & GAS_MASKS else ""


def _known_complications(names) -> set:
    chosen = set(names)
    unknown = chosen - set(COMPLICATIONS)
    if unknown:
        raise ValueError(f"unknown complication(s): {', '.join(sorted(unknown))}")
    return chosen


def complication_effects(
    names, action, attacker: Attacker, target: Target, situation: Situation = Situation(), weapon: Weapon | None = None
) -> dict[str, str]:
    """Each chosen complication -> why it changes nothing in this attack ("" when it applies).

    The same rules as ``apply_complications``; ``weapon`` tells whether a
    Shoot rolls Agility (Slippery ground): without it that case is not judged.
    """
    action = Action(action)
    chosen = _known_complications(names)
    return {
        name: NO_EFFECT.get(_no_effect(name, action, attacker, target, situation, weapon), "")
        for name in COMPLICATIONS
        if name in chosen
    }


def apply_complications(
    names, action, attacker: Attacker, target: Target, situation: Situation = Situation()
) -> tuple[Attacker, Target, Situation]:
    """Fold the chosen complications into the attack's inputs (unknown names are a ValueError).

    Ranged penalties go to a Shoot's hit roll, unless something lifts the
    darkness (``_darkness_lifted``: Darkborn, a spot light, a lantern);
    Slippery ground lowers the attacker's Agility for its rolls (Fight, or
    Shoot with a Thrown melee weapon); Noxious air lowers the target's
    Toughness (Tough it Out, Extra organs, Stagger) unless it is Artificial or
    wears a gas mask or what counts as one. The Darkborn's own -3 against a
    target carrying a light stays, in plan_attack: it is not an effect of darkness.
    """
    action = Action(action)
    chosen = _known_complications(names)
    if not _darkness_lifted(action, attacker, target, situation):
        penalty = sum(RANGED_PENALTY.get(name, 0) for name in chosen)
        if penalty:
            situation = replace(situation, modifier=situation.modifier + penalty)
    if "slippery-ground" in chosen:
        attacker = replace(attacker, agility=attacker.agility - 2)
    if "noxious-air" in chosen and not _no_effect("noxious-air", action, attacker, target, situation, None):
        target = replace(target, toughness=target.toughness - 2)
    return attacker, target, situation
