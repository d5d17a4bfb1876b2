"""Seeded rolls, played out step by step with every die shown.

Each function takes a seed, makes its own ``random.Random(seed)`` and returns
a frozen log (dice shown, kept, dropped, re-rolled, result), so the same
seed always replays the same dice. The rules decisions are the ones of
``exact``: this module only draws dice and follows them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from crewbuilder.rules import exact


@dataclass(frozen=True)
class Step:
    label: str
    dice: tuple = ()
    kept: tuple = ()
    dropped: tuple = ()
    rerolled: tuple = ()  # (before, after) pairs
    result: str = ""

    @property
    def marked(self) -> list[tuple[int, bool]]:
        """Each die shown with whether it counted (duplicates matched by count)."""
        left = list(self.kept)
        out = []
        for die in self.dice:
            counted = die in left
            if counted:
                left.remove(die)
            out.append((die, counted))
        return out


@dataclass(frozen=True)
class RollLog:
    seed: int
    kind: str
    steps: tuple
    outcome: str
    detail: dict = field(default_factory=dict)


def _d(rng: random.Random, sides: int) -> int:
    return rng.randint(1, sides)


def roll_test(seed: int, modifier: int, jinxed: bool = False, label: str = "Attribute test") -> RollLog:
    rng = random.Random(seed)
    natural = _d(rng, 20)
    outcome = exact.test_outcome(natural, modifier, jinxed)
    step = Step(label, (natural,), (natural,), (), (), f"{natural} {modifier:+d} = {natural + modifier}: {outcome}")
    return RollLog(seed, "test", (step,), outcome)


def _test_step(rng, label, modifier, jinxed=False) -> tuple[str, Step]:
    natural = _d(rng, 20)
    outcome = exact.test_outcome(natural, modifier, jinxed)
    return outcome, Step(label, (natural,), (natural,), (), (), f"{natural} {modifier:+d} = {natural + modifier}: {outcome}")


def _damage_dice(rng, dice, keep, reroll_ones, reroll_sixes) -> tuple[int, list]:
    steps = []

    def one_die():
        first = _d(rng, 6)
        if (first == 1 and reroll_ones) or (first == 6 and reroll_sixes):
            second = _d(rng, 6)
            return second, (first, second)
        return first, None

    values, rerolls = [], []
    for _ in range(dice):
        value, reroll = one_die()
        values.append(value)
        if reroll:
            rerolls.append(reroll)
    bonus = None
    if 6 in values:
        bonus, reroll = one_die()
        if reroll:
            rerolls.append(reroll)
    rolled = values + ([bonus] if bonus is not None else [])
    ordered = sorted(rolled, reverse=True)
    kept, dropped = tuple(ordered[:keep]), tuple(ordered[keep:])
    label = f"Damage: {dice}D6" + (" + bonus die for a 6" if bonus is not None else "")
    steps.append(Step(label, tuple(rolled), kept, dropped, tuple(rerolls), f"kept {' + '.join(map(str, kept)) or '0'} = {sum(kept)}"))
    return sum(kept), steps


def roll_damage(seed: int, dice: int, armor: int = 0, wounds: int = 0, keywords=()) -> RollLog:
    rng = random.Random(seed)
    kw = exact.Keywords.parse(keywords)
    keep = 3 if kw.has("overkill") else 2
    total, steps = _damage_dice(rng, dice, keep, kw.has("energy"), False)
    reduction = exact.effective_armor(armor, kw.x("piercing", 0), kw.has("electric"))
    final = total + wounds - reduction
    row = exact.damage_row(final)
    steps.append(Step("Damage table", result=f"{total} + {wounds} Wounds − {reduction} armor = {final}: {row}"))
    return RollLog(seed, "damage", tuple(steps), row)


def roll_neural_overload(seed: int, dread: int) -> RollLog:
    rng = random.Random(seed)
    die = _d(rng, 6)
    reached = max(r for r in exact.NEURAL_ROWS if die + dread >= r) if die + dread >= 1 else 1
    step = Step("Neural Overload: D6 + Dread", (die,), (die,), (), (), f"{die} + {dread} = {die + dread}: rows up to {reached}+")
    return RollLog(seed, "neural-overload", (step,), str(reached))


def roll_morale(seed: int, discipline: int, dread: int, wounds: int = 0, allies_in_los: int = 0) -> RollLog:
    rng = random.Random(seed)
    held, steps = dread, []
    modifier = discipline + allies_in_los - wounds
    for i in range(dread):
        outcome, step = _test_step(rng, f"Morale test {i + 1}", modifier)
        held = {"critical": max(0, held - 2), "success": max(0, held - 1), "failure": held,
                "fumble": min(exact.MAX_DREAD, held + 1)}[outcome]
        steps.append(step)
    flees = min(held, 3)
    result = "no Dread left" if held == 0 else f"{held} Dread left: {flees} flee move(s)" + (", then becomes an NPC" if held >= 4 else "")
    steps.append(Step("Morale Phase", result=result))
    return RollLog(seed, "morale", tuple(steps), str(held), {"flees": flees, "becomes_npc": held >= 4})


def roll_attack(seed: int, action: str, attacker: exact.Attacker, weapon: exact.Weapon,
                target: exact.Target, situation: exact.Situation) -> RollLog:
    rng = random.Random(seed)
    weapon = exact.effective_weapon(weapon, attacker)
    steps = []
    modifier = exact.hit_attribute(action, attacker, weapon) + exact.hit_modifier(action, attacker, weapon, target, situation)
    dice = weapon.keywords.x("auto", 1) if action == "shoot" and exact.uses_auto(weapon, situation) else 1
    jinxed = "jinxed" in attacker.traits

    def hit_roll(label):
        naturals = tuple(_d(rng, 20) for _ in range(dice))
        high = max(naturals)
        crit_from, fumble_to = (19, 2) if jinxed else (20, 1)
        if high >= crit_from:
            kind = "critical"
        elif any(n <= fumble_to for n in naturals):
            kind = "fumble"
        else:
            kind = "hit" if high + modifier >= exact.SUCCESS_AT else "miss"
        dropped = tuple(sorted(naturals, reverse=True)[1:])
        steps.append(Step(label, naturals, (high,), dropped, (), f"{high} {modifier:+d} = {high + modifier}: {kind}"))
        return kind

    kind = hit_roll("To hit (D20)" if dice == 1 else f"To hit (Auto {dice}: highest of {dice}D20)")
    if kind in ("miss", "fumble") and situation.surrounded:
        kind = hit_roll("Surrounded: re-roll")
    if kind in ("miss", "fumble"):
        return RollLog(seed, "attack", tuple(steps), "unharmed", {"to_hit": kind, "wounds_gained": 0})

    profile = exact.damage_profile(action, attacker, weapon, target, situation)
    state = exact.State(target.wounds, target.prone)

    def wound(state, why):
        dist = exact.gain_wound(state, target, profile["feeble"] if why != "Demonic" else False)
        if len(dist) == 1:
            new = next(iter(dist))
        else:  # Extra organs: a Toughness test decides
            outcome, step = _test_step(rng, "Extra organs: Toughness test", target.toughness - state.wounds, "jinxed" in target.traits)
            steps.append(step)
            saved = outcome in ("critical", "success")
            new = next(s for s in dist if (s.gained == state.gained) == saved)
        steps.append(Step(why, result=_describe(state, new)))
        return new

    if kind == "critical":
        state = wound(state, "Critical hit: a Wound before the damage roll")
    if not state.out:
        keep = 3 if profile["overkill"] else 2
        total, dmg_steps = _damage_dice(rng, profile["dice"], keep, profile["energy"], profile["reroll_sixes"])
        steps.extend(dmg_steps)
        reduction = exact.effective_armor(profile["armor"], profile["piercing"], profile["electric"])
        final = total + state.wounds - reduction
        row = exact.damage_row(final)
        steps.append(Step("Damage table", result=f"{total} + {state.wounds} Wounds − {reduction} armor = {final}: {row}"))
        tio = exact.tough_it_out(row, state, target, profile["brutal"])
        after, failed = row, False
        if len(tio) > 1:
            test_mod = target.toughness - state.wounds - (4 if profile["brutal"] else 0)
            outcome, step = _test_step(rng, "Tough it Out (Toughness)", test_mod, "jinxed" in target.traits)
            steps.append(step)
            index = exact.ROW_INDEX[row]
            shift = {"critical": -2, "success": -1, "failure": 0, "fumble": 1}[outcome]
            after = exact.DAMAGE_ROWS[min(max(index + shift, 0), len(exact.DAMAGE_ROWS) - 1)][0]
            failed = outcome in ("failure", "fumble")
        elif tio:
            after = next(iter(tio))[0]
            if after != row:
                steps.append(Step("Tough it Out", result=f"passed automatically: {after}"))
        if failed and "demonic" in target.traits:
            state = wound(state, "Demonic: a Wound instead of Dread")
        if after != "none":
            dist = exact.apply_row(state, after, target, profile["feeble"])
            new = next(iter(dist)) if len(dist) == 1 else _extra_organs_pick(rng, dist, state, target, steps)
            steps.append(Step(f"{after.capitalize()} Injury", result=_describe(state, new)))
            state = new
    group = "out_of_action" if state.out else "prone" if state.knocked else "wounded" if state.gained else "unharmed"
    return RollLog(seed, "attack", tuple(steps), group, {"to_hit": kind, "wounds_gained": state.gained})


def _extra_organs_pick(rng, dist, state, target, steps):
    outcome, step = _test_step(rng, "Extra organs: Toughness test", target.toughness - state.wounds, "jinxed" in target.traits)
    steps.append(step)
    saved = outcome in ("critical", "success")
    return next(s for s in dist if (s.gained == state.gained) == saved)


def _describe(before: exact.State, after: exact.State) -> str:
    if after.out and not before.out:
        return "Out of Action"
    parts = []
    if after.gained > before.gained:
        parts.append(f"gains a Wound ({after.wounds})")
    if after.knocked and not before.knocked:
        parts.append("knocked Prone")
    return ", ".join(parts) or "no effect"
