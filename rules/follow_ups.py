"""The rolls the Cybernekr0 rules call for after an attack, which the attack
itself does not resolve (pure: no Django).

Each comes from the rules text: Stagger ("When hit the target must pass a
Toughness test"), Fire ("Models hit with this weapon must pass an Agility test
or catch Fire"), Splash ("all models within 1" of the original target are hit
as well but decrease the damage roll by 1 die"), Unstable ("On a Fumble the
damage is dealt to the user") and the Shoot action ("On a Fumble the weapon
jams and a Fix action is needed"; Fix: "requires passing an Intellect test";
Reliable: "never jams"). A number the engine cannot know (another model's
Agility, Armor or Intellect) is left for the player to type, and said so.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.cybernekro.engine import MAX_WOUNDS, AttackPlan, Outcome, Weapon


@dataclass(frozen=True)
class FollowUp:
    key: str  # "stagger", "fire", "splash", "unstable", "jam"
    name: str  # for people
    keyword: str  # the weapon keyword whose rule calls for it ("" for the jam)
    roll: str  # the quick roll: "test" or "damage"
    values: tuple  # ((field, value), ...) already known
    asks: str  # what the player still has to type ("" when nothing)


def after_attack(
    action: str,
    weapon: Weapon,
    keywords: list,
    plan: AttackPlan,
    to_hit: Outcome,
    wounds_after: int,
    out_of_action: bool,
    stagger_rolled: bool,
) -> list[FollowUp]:
    """The follow-up rolls, in the order the rules resolve them.

    ``keywords`` is the weapon's keyword list as written (for the damage rolls);
    ``wounds_after`` the target's Wounds after the attack.
    """
    kw = weapon.keywords
    hit = to_hit.passed
    out: list[FollowUp] = []
    if hit and kw.has("splash"):
        out.append(
            FollowUp(
                "splash",
                'Splash: each model within 1" of the target',
                "splash",
                "damage",
                (("dice", max(plan.hit.dice - 1, 0)), ("keywords", ", ".join(keywords))),
                "that model's Armor and Wounds",
            )
        )
    if hit and not out_of_action and kw.has("stagger") and not stagger_rolled:
        # A Toughness test: -1 per Wound (rules: "Each Wound gives a -1 modifier to Toughness").
        wounds = min(wounds_after, MAX_WOUNDS)
        out.append(
            FollowUp(
                "stagger",
                "Stagger test (Toughness)",
                "stagger",
                "test",
                (("modifier", plan.hit.toughness - wounds), ("jinxed", plan.hit.jinxed)),
                "",
            )
        )
    if hit and not out_of_action and kw.has("fire"):
        out.append(FollowUp("fire", "Fire: Agility test or catch Fire", "fire", "test", (), "the target's Agility"))
    if to_hit is Outcome.FUMBLE and kw.has("unstable"):
        out.append(
            FollowUp(
                "unstable",
                "Unstable: the damage is dealt to the user",
                "unstable",
                "damage",
                (("dice", weapon.damage), ("keywords", ", ".join(keywords))),
                "the attacker's Armor and Wounds",
            )
        )
    if to_hit is Outcome.FUMBLE and action == "shoot" and not kw.has("reliable"):
        out.append(
            FollowUp("jam", "The weapon jams: Fix action (Intellect test)", "", "test", (), "the attacker's Intellect")
        )
    return out
