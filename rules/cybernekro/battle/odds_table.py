"""The exact odds of each of the active model's weapons against every enemy in play.

One ``cn.attack_odds_for_plan`` per (weapon, enemy) pair, planned by
``actions.plan`` exactly as the roll would be (this battle's complications and
environmental effect, the target's Wounds, Prone, armor and traits), so the
table and the dice cannot disagree. Up to 7 x 7 pairs; the engine's caches
make repeated tables cheap (benchmarks/bench_battle.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import fate
from rules.cybernekro.battle.actions import plan, weapon_pairs
from rules.cybernekro.battle.state import Battle, Refused


@dataclass(frozen=True)
class Cell:
    weapon: str
    target: str
    action: str
    odds: cn.AttackOdds | None  # None: the weapon cannot make this attack (reason says why)
    reason: str = ""
    pair: str = ""  # an Ambidextrous pair's other weapon: this attack at -2, one of the two (B42)


def card_for(state: Battle, model_id: str, seat: str | None) -> tuple | None:
    """The cards played on the model's next test that ``seat`` may know of, as one (B62): an Ace (shown to
    all) or its own face-down numbers; another player's face-down card stays out of the odds (it is hidden)."""
    known = [a for a in state.armed if a[1] == model_id and (fate.kind(a[2]) == "ace" or a[0] == seat)]
    return fate.on_one_test(known)


def with_card(planned: cn.AttackPlan, armed: tuple | None, target_card: tuple | None = None) -> cn.AttackOdds:
    """The attack's odds with the card played on its hit roll ("The odds account for the card that was played"),
    and the one played on the target's next test: the first test of the hit (Extra organs, Tough it Out or
    Stagger), held open for the cards like every test (B35)."""
    if armed is None and target_card is None:
        return cn.attack_odds_for_plan(planned)
    to_hit_event = planned.to_hit
    if armed is not None:  # an Ace: "automatically pass that test without rolling", a plain success
        to_hit_event = _carded(to_hit_event, armed)
    to_hit = to_hit_event.distribution()
    target = dict.fromkeys(cn.TargetState, cn.ZERO)
    expected = cn.ZERO
    target[cn.TargetState.UNHARMED] += to_hit[cn.Outcome.FAILURE] + to_hit[cn.Outcome.FUMBLE]
    for outcome in (cn.Outcome.CRITICAL, cn.Outcome.SUCCESS):
        p = to_hit[outcome]
        if not p:
            continue
        for (group, gained), q in _hit_outcomes(planned.hit, outcome is cn.Outcome.CRITICAL, target_card).items():
            target[group] += p * q
            expected += p * q * gained
    return cn.AttackOdds(to_hit, target, expected)


def _carded(event: cn.TestEvent, armed: tuple) -> cn.TestEvent:
    if fate.kind(armed[2]) == "ace":
        return replace(event, card="ace")
    return replace(event, modifier=event.modifier + armed[3])


def _hit_outcomes(hit_plan: cn.HitPlan, critical: bool, target_card: tuple | None) -> dict:
    """(target group, Wounds gained) after the hit, exactly; the target's card on the hit's first test."""
    if target_card is None:
        return cn.hit_outcome_distribution(hit_plan, critical)

    def process(draw, plan, crit):
        first = True

        def carded(event):
            nonlocal first
            if first and isinstance(event, cn.TestEvent):
                first = False
                event = _carded(event, target_card)
            return draw(event)

        return cn.hit_process(carded, plan, crit)

    out: dict = {}
    for state, q in cn.enumerate_process(process, hit_plan, critical).items():
        key = (state.group, state.gained)
        out[key] = out.get(key, cn.ZERO) + q
    return out


def weapon_odds(
    state: Battle, model_id: str, situations: dict | None = None, seat: str | None = None
) -> tuple[Cell, ...]:
    """Every (weapon, enemy) pair of ``model_id``; ``situations`` maps a target id to the conditions the
    players ticked for it (cover, range, surrounded ...); ``seat``: whose screen (the cards it may know)."""
    model = state.model(model_id)
    situations = situations or {}
    armed = card_for(state, model_id, seat)
    cells = []
    for enemy in state.enemies_of(model):
        situation = situations.get(enemy.id, cn.Situation())
        for use in model.weapons:
            try:
                action, planned = plan(state, model, use.slug, enemy, situation)
            except Refused as error:
                cells.append(Cell(use.slug, enemy.id, "", None, str(error)))
                continue
            reason = (
                "jammed: Fix it first"
                if use.slug in model.jammed
                else "unloaded: Reload first"
                if use.slug in model.unloaded
                else ""
            )
            odds = with_card(planned, armed, card_for(state, enemy.id, seat))
            cells.append(Cell(use.slug, enemy.id, action.value, odds, reason))
            if not use.ranged and use.weapon.keywords.has("thrown"):  # thrown: a Shoot with Agility (B63)
                action, planned = plan(state, model, use.slug, enemy, situation, cn.Action.SHOOT.value)
                odds = with_card(planned, armed, card_for(state, enemy.id, seat))
                cells.append(Cell(use.slug, enemy.id, action.value, odds))
        # each attack of a pair at -2 against the target as it stands now; a card counts on the first only
        paired = replace(situation, modifier=situation.modifier - 2)
        for first, second in weapon_pairs(model):
            for slug, other, card in ((first, second, armed), (second, first, None)):
                action, planned = plan(state, model, slug, enemy, paired)
                target_card = card_for(state, enemy.id, seat) if card is armed else None
                odds = with_card(planned, card, target_card)
                idle = "jammed or unloaded" if {first, second} & (model.jammed | model.unloaded) else ""
                cells.append(Cell(slug, enemy.id, action.value, odds, idle, pair=other))
    return tuple(cells)
