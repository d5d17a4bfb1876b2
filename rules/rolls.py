"""Seeded rolls, step by step, every die shown: the reference engine's decisions, rolled.

Pure Python, no Django. Every rolling function takes ``rng: random.Random``
(never the module-level generator): the caller makes it, as the app does with
``random.Random(seed)``, and passes ``seed`` only so that the log records it.
Each returns a frozen :class:`Roll`: the steps in order, each with every die
rolled (which counted and which were dropped, which were re-rolled) and what
it meant, then the result. The same ``rng`` state and the same inputs give the
same ``Roll`` (a shared link with its seed shows everyone the same dice).

No rule is written here. The decisions are the functions of the reference
engine (``cybernekro.py`` over ``dice.py``, and ``soylent.py``,
``ghoul_role.py``, ``ghoulash.py``); the attack is played by
``cybernekro.attack_process``, the very process the exact odds enumerate, so
a seeded attack here and ``cybernekro.roll_attack`` with the same generator
end the same way.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Sequence

from rules import ghoul_role, ghoulash
from rules.cybernekro import engine as cn
from rules.soylent_ghoul import panic as soylent

TEST_LABELS = {
    cn.Outcome.CRITICAL: "critical (always a success)",
    cn.Outcome.SUCCESS: "success",
    cn.Outcome.FAILURE: "failure",
    cn.Outcome.FUMBLE: "fumble (always a failure)",
}
HIT_LABELS = {"critical": "critical hit", "success": "hit", "failure": "miss", "fumble": "fumble"}
ROW_LABELS = {
    cn.Row.NONE: "no injury",
    cn.Row.LIGHT: "Light Injury",
    cn.Row.SERIOUS: "Serious Injury",
    cn.Row.CRITICAL: "Critical Injury",
    cn.Row.LETHAL: "Lethal Injury",
}
STATE_LABELS = {
    cn.TargetState.UNHARMED: "Unharmed",
    cn.TargetState.WOUNDED: "Wounded",
    cn.TargetState.PRONE: "Knocked prone",
    cn.TargetState.OUT_OF_ACTION: "Out of Action",
}


@dataclass(frozen=True)
class Step:
    """One thing that happened: the dice it rolled (``counted`` says, die by die, which counted)."""

    label: str
    dice: tuple[int, ...] = ()
    counted: tuple[bool, ...] = ()
    rerolled: tuple[tuple[int, int], ...] = ()  # (first roll, re-roll) pairs
    result: str = ""

    @property
    def kept(self) -> tuple[int, ...]:
        return tuple(d for d, c in zip(self.dice, self.counted) if c)

    @property
    def dropped(self) -> tuple[int, ...]:
        return tuple(d for d, c in zip(self.dice, self.counted) if not c)

    @property
    def marked(self) -> list[tuple[int, bool]]:
        """(die, counted) in the order rolled."""
        return list(zip(self.dice, self.counted))


@dataclass(frozen=True)
class Roll:
    """A seeded roll's log: ``outcome`` a key (e.g. "out_of_action"), ``summary`` for people."""

    kind: str
    seed: int | None
    steps: tuple[Step, ...]
    outcome: str
    summary: str
    detail: tuple[tuple[str, object], ...] = ()

    def get(self, key: str, default=None):
        return dict(self.detail).get(key, default)


def _all_counted(faces: Sequence[int]) -> tuple[bool, ...]:
    return (True,) * len(faces)


def _highest_counts(faces: Sequence[int]) -> tuple[bool, ...]:
    """Several D20 (Auto X): the highest counts, the first die showing it is marked."""
    best = faces.index(max(faces))
    return tuple(i == best for i in range(len(faces)))


def _counted_from(shown: Sequence[int], kept: Sequence[int]) -> tuple[bool, ...]:
    """Mark the dice of ``shown`` that make up the multiset ``kept`` (the engine's kept dice)."""
    left = list(kept)
    marks = []
    for die in shown:
        marks.append(die in left)
        if die in left:
            left.remove(die)
    return tuple(marks)


def _sum_text(faces: Sequence[int], modifier: int) -> str:
    return f"{max(faces)} {modifier:+d} = {max(faces) + modifier}"


# --------------------------------------------------------------------------
# an attack
# --------------------------------------------------------------------------

TEST_STEP_NAMES = {
    "to hit": "To hit",
    "tough it out": "Tough it Out (Toughness test)",
    "extra organs": "Extra organs: Toughness test to ignore the first Wound",
    "stagger": "Stagger: Toughness test",
}


def _test_steps(event: cn.TestEvent, outcome: cn.Outcome, log: dict) -> list[Step]:
    name = TEST_STEP_NAMES.get(event.what, event.what.capitalize())
    if event.what == "to hit":
        name += (
            " (D20)" if event.dice_count == 1 else f" (Auto {event.dice_count}: the highest of {event.dice_count} D20)"
        )
    labels = HIT_LABELS if event.what == "to hit" else {o.value: TEST_LABELS[o] for o in cn.Outcome}
    if log.get("card") == "ace":
        return [Step("Ace played", result=f"passes without rolling: {labels[outcome.value]}")]
    steps = []
    if "rerolled" in log:  # Surrounded: the failed roll first, then the re-roll that stands
        first = tuple(log["rerolled"])
        missed = cn.classify_auto(first, event.modifier, event.jinxed)
        steps.append(
            Step(name, first, _highest_counts(first), (), f"{_sum_text(first, event.modifier)}: {labels[missed.value]}")
        )
        name = "Surrounded: the failed hit roll is re-rolled once"
    faces = tuple(log["d20"])
    rolled = cn.Outcome(log.get("rolled", outcome.value))
    steps.append(
        Step(name, faces, _highest_counts(faces), (), f"{_sum_text(faces, event.modifier)}: {labels[rolled.value]}")
    )
    if "rolled" in log:
        steps.append(Step("Jack played", result=f"{labels[rolled.value]} → {labels[outcome.value]}"))
    return steps


def _damage_steps(log: dict) -> list[Step]:
    shown, kept = tuple(log["dice"]), tuple(log["kept"])
    bonus = log["bonus"] is not None
    label = f"Damage roll: {len(shown) - bonus}D6" + (" + one bonus D6 for the 6" if bonus else "")
    rerolled = tuple(tuple(pair) for pair in log["rerolled"])
    kept_text = " + ".join(map(str, kept)) or "0"
    steps = [
        Step(
            label,
            shown,
            _counted_from(shown, kept),
            rerolled,
            f"the {len(kept)} highest count: {kept_text} = {log['sum']}",
        )
    ]
    row = cn.Row[log["row"].upper()]
    steps.append(
        Step(
            "Damage table",
            result=f"{log['sum']} + {log['wounds']} Wounds − {log['armor']} armor = {log['result']}: {ROW_LABELS[row]}",
        )
    )
    return steps


def _final_text(state: cn.HitState | None, start_wounds: int) -> str:
    if state is None:
        return "the attack misses: the target is unharmed"
    if state.ooa:
        return "the target is Out of Action"
    parts = []
    if state.gained:
        parts.append(f"gains {state.gained} Wound{'s' if state.gained > 1 else ''} ({start_wounds} → {state.wounds})")
    if state.knocked:
        parts.append("is knocked Prone")
    return "the target " + (" and ".join(parts) if parts else "is unharmed")


def planned_attack(rng: random.Random, plan: cn.AttackPlan, seed: int | None = None) -> Roll:
    """Roll an attack already planned by ``cybernekro.plan_attack`` (every modifier resolved there)."""
    records: list[tuple[object, Any, dict]] = []

    def draw(event):
        value, log = event.roll(rng)
        records.append((event, value, log))
        return value

    outcome, state = cn.attack_process(draw, plan)
    steps: list[Step] = []
    row = None
    for event, value, log in records:
        if isinstance(event, cn.TestEvent):
            steps.extend(_test_steps(event, value, log))
            if event.what == "to hit" and value is cn.Outcome.CRITICAL and plan.hit.critical_wound:
                steps.append(
                    Step(
                        "Critical hit",
                        result="the target gains a Wound before the damage roll, and it counts in the roll",
                    )
                )
            if event.what == "tough it out" and row is not None:
                after = cn.tough_it_out(row, value)
                failed = (
                    ""
                    if value.passed
                    else (
                        " (failed: a Wound instead of the Dread, Demonic)"
                        if plan.hit.demonic
                        else " (failed: gains 1 Dread)"
                    )
                )
                steps.append(Step("Tough it Out", result=f"{ROW_LABELS[row]} → {ROW_LABELS[after]}{failed}"))
        elif isinstance(event, cn.DamageRowEvent):
            steps.extend(_damage_steps(log))
            row = value
            if cn.may_tough_it_out(row) and plan.hit.tio == "auto":
                steps.append(
                    Step(
                        "Tough it Out",
                        result=f"Monstrous: passes automatically, "
                        f"{ROW_LABELS[row]} → {ROW_LABELS[cn.tough_it_out(row, cn.Outcome.SUCCESS)]}",
                    )
                )
            elif cn.may_tough_it_out(row) and plan.hit.tio == "none":
                steps.append(Step("Tough it Out", result="not tried (an NPC, or declined)"))
    group = state.group if state else cn.TargetState.UNHARMED
    if state is not None and state.queen_played:
        steps.append(Step("Queen played", result="the target would go OoA: it suffers a Wound instead"))
    steps.append(Step("Result", result=_final_text(state, plan.hit.wounds)))
    return Roll(
        "attack",
        seed,
        tuple(steps),
        group.value,
        STATE_LABELS[group],
        (
            ("to_hit", outcome.value),
            ("wounds_gained", state.gained if state else 0),
            ("wounds_after", state.wounds if state else plan.hit.wounds),
            ("stagger_rolled", any(getattr(e, "what", "") == "stagger" for e, _v, _l in records)),
        ),
    )


def attack(
    rng: random.Random,
    action,
    attacker: cn.Attacker,
    weapon: cn.Weapon,
    target: cn.Target,
    situation: cn.Situation = cn.Situation(),
    seed: int | None = None,
) -> Roll:
    """One seeded attack (Fight or Shoot), planned and rolled by the reference engine."""
    return planned_attack(rng, cn.plan_attack(action, attacker, weapon, target, situation), seed)


# --------------------------------------------------------------------------
# single rolls
# --------------------------------------------------------------------------


def test(rng: random.Random, modifier: int = 0, jinxed: bool = False, seed: int | None = None, card=None) -> Roll:
    """An attribute test: D20 + modifier, 11+ (``cybernekro.roll_test``), with an optional fate card."""
    roll = cn.roll_test(rng, modifier, jinxed, card, seed=seed)
    if card == "ace":
        step = Step("Ace played", result=f"passes without rolling: {TEST_LABELS[roll.outcome]}")
        return Roll("test", seed, (step,), roll.outcome.value, TEST_LABELS[roll.outcome].capitalize())
    steps = [
        Step(
            "Attribute test (D20)",
            roll.d20,
            _all_counted(roll.d20),
            (),
            f"{_sum_text(roll.d20, roll.modifier)}: {TEST_LABELS[roll.outcome]}",
        )
    ]
    if card in ("jack-critical", "jack-fumble"):
        steps.append(
            Step(
                "Jack played",
                result="a regular success becomes a Critical"
                if card == "jack-critical"
                else "a regular failure becomes a Fumble",
            )
        )
    return Roll("test", seed, tuple(steps), roll.outcome.value, TEST_LABELS[roll.outcome].capitalize())


def damage(
    rng: random.Random,
    dice_count: int,
    keywords: cn.Keywords = cn.Keywords(),
    armor: int = 0,
    wounds: int = 0,
    shield: bool = False,
    seed: int | None = None,
) -> Roll:
    """A damage roll read on the damage table, before Tough it Out (``cybernekro.roll_damage``)."""
    row, log = cn.roll_damage(rng, dice_count, keywords, armor, wounds, shield, seed)
    armor_left = cn.effective_armor(armor, keywords.piercing, keywords.has("electric"))
    raw = log.result - log.modifier
    bonus = log.bonus is not None
    label = f"Damage roll: {len(log.shown) - bonus}D6" + (" + one bonus D6 for the 6" if bonus else "")
    kept_text = " + ".join(map(str, log.kept)) or "0"
    steps = (
        Step(
            label,
            log.shown,
            _counted_from(log.shown, log.kept),
            log.rerolled,
            f"the {len(log.kept)} highest count: {kept_text} = {raw}",
        ),
        Step("Damage table", result=f"{raw} + {wounds} Wounds − {armor_left} armor = {log.result}: {ROW_LABELS[row]}"),
    )
    return Roll("damage", seed, steps, row.key, ROW_LABELS[row])


def neural_overload(rng: random.Random, dread: int = 0, seed: int | None = None) -> Roll:
    """D6 + Dread on the Neural Overload table (``cybernekro.roll_neural_overload``)."""
    face, _result = cn.roll_neural_overload(rng, dread, seed=seed)
    row = cn.overload_row(face + dread)
    step = Step(
        "Neural Overload: D6 + Dread",
        (face,),
        (True,),
        (),
        f"{face} + {dread} = {face + dread}: apply the rows 1+ to {row}+, from the top down",
    )
    return Roll("neural-overload", seed, (step,), str(row), f"rows 1+ to {row}+ apply")


def morale(
    rng: random.Random,
    discipline: int,
    dread: int,
    wounds: int = 0,
    allies_in_los: int = 0,
    traits: frozenset = frozenset(),
    seed: int | None = None,
) -> Roll:
    """The Morale Phase: one Discipline test per Dread held (``cybernekro.roll_morale``).

    ``traits``: slugs; jinxed, driven-by-madness, artificial, demonic and
    lobotomised change the phase, the others change nothing.
    """
    roll = cn.roll_morale(
        rng,
        discipline,
        dread,
        wounds,
        allies_in_los,
        "jinxed" in traits,
        "driven-by-madness" in traits,
        seed,
        "artificial" in traits,
        "demonic" in traits,
        "lobotomised" in traits,
    )
    steps = [
        Step(
            f"Morale test {i} (D20 + Discipline + allies − Wounds)",
            (face,),
            (True,),
            (),
            f"{face} {mod:+d} = {face + mod}: {TEST_LABELS[cn.Outcome(outcome)]}",
        )
        for i, (face, mod, outcome) in enumerate(roll.tests, start=1)
    ]
    if roll.dread_left == 0:
        summary = "no Dread left"
    else:
        summary = f"{roll.dread_left} Dread left: {roll.flees} Flee move{'s' if roll.flees != 1 else ''}"
        if roll.becomes_npc:
            summary += ", then it becomes an NPC"
    if roll.wounds != wounds:
        summary += f" (Demonic: {roll.wounds - wounds} Wound{'s' if roll.wounds - wounds > 1 else ''} instead of Dread)"
    steps.append(Step("Morale Phase", result=summary))
    return Roll(
        "morale",
        seed,
        tuple(steps),
        str(roll.dread_left),
        summary,
        (("flees", roll.flees), ("becomes_npc", roll.becomes_npc), ("wounds", roll.wounds)),
    )


def panic(rng: random.Random, nerve: int, tokens: int, seed: int | None = None) -> Roll:
    """Soylent Ghoul: a D8 plus the panic tokens already there, over the Nerve (``soylent.roll_panic``)."""
    roll = soylent.roll_panic(rng, nerve, tokens)
    outcome = "snapped" if roll.snapped else "holds"
    step = Step(
        "Panic test: D8 + tokens already on it",
        (roll.die,),
        (True,),
        (),
        f"{roll.die} + {roll.tokens_before} = {roll.total} against Nerve {roll.nerve}: "
        f"{'over it, the Character snaps' if roll.snapped else 'not over it, the Character holds'}",
    )
    return Roll("panic", seed, (step,), outcome, "Snapped" if roll.snapped else "Holds")


def ghoul_dice(rng: random.Random, dice_count: int, prefer: str = "movement", seed: int | None = None) -> Roll:
    """The Ghoul role's dice: Terror card or not, then the best pair (``ghoul_role``)."""
    roll = ghoul_role.roll_ghoul_dice(rng, dice_count, seed)
    movement, attack_points = ghoul_role.choose(roll.dice, prefer)
    counted = _counted_from(roll.dice, (movement, attack_points))
    steps = (
        Step(
            f"Ghoul dice ({dice_count}D6)",
            roll.dice,
            _all_counted(roll.dice),
            (),
            f"sum {sum(roll.dice)}: {'a Terror card is drawn' if roll.terror else 'no Terror card'}",
        ),
        Step(
            f"Set statistics (best pair for {prefer})",
            roll.dice,
            counted,
            (),
            f"movement {movement}, attack {attack_points}",
        ),
    )
    outcome = "terror" if roll.terror else "no-terror"
    summary = f"{'Terror card' if roll.terror else 'No Terror card'}; movement {movement}, attack {attack_points}"
    return Roll("ghoul-dice", seed, steps, outcome, summary, (("movement", movement), ("attack", attack_points)))


def ghoul_battle(
    strength: int,
    victory_points: int,
    initial_combat_value: int,
    played: Sequence[int] = (),
    challenge: Sequence[int] = (),
    response: Sequence[int] = (),
) -> Roll:
    """A Ghoulash Ghoul battle from the cards played: no dice, the same log shape (``ghoulash.ghoul_battle``)."""
    try:
        result = ghoulash.ghoul_battle(
            strength, victory_points, initial_combat_value, tuple(played), tuple(challenge), tuple(response)
        )
    except ghoulash.IllegalPlay as exc:
        return Roll("ghoul-battle", None, (Step("Not a legal battle", result=str(exc)),), "illegal", str(exc))
    steps = [
        Step("Needed", result=f"strength {strength} + 1 = {result.needed}"),
        Step("Player", result=f"Initial Combat Value {initial_combat_value} + cards = {result.total_before_challenge}"),
    ]
    if result.stage != "no-value" and challenge:
        steps.append(Step("After the challenge and response", result=f"total {result.total}"))
    summary = f"won: {result.victory_points} Victory Points" if result.won else f"lost: {result.wounds} wounds"
    steps.append(Step("Result", result=summary))
    return Roll("ghoul-battle", None, tuple(steps), "won" if result.won else "lost", summary)


def replay(fn, seed: int, *args, **kwargs) -> Roll:
    """``fn(random.Random(seed), *args, seed=seed, **kwargs)``: how a logged roll is replayed."""
    return fn(random.Random(seed), *args, seed=seed, **kwargs)


__all__ = [
    "Step",
    "Roll",
    "attack",
    "planned_attack",
    "test",
    "damage",
    "neural_overload",
    "morale",
    "panic",
    "ghoul_dice",
    "ghoul_battle",
    "replay",
]
