"""Non-player characters ("Non-player characters", p.37): placed from the scenario, activated at the round's end.

"They are activated one by one starting from the NPC that is closest to any
Player Character and ending with the one furthest away. When an NPC is
activated they will perform two actions chosen through the flowchart". The
distances are the players'; the flowchart is a picture the text does not
hold (B10), so the players or a game master choose each NPC's two actions
("Instead of using the flowchart you can also have an additional player control
all the NPCs"), and the engine rolls their attacks (``actions.attack``, any seat).
"""

from __future__ import annotations

from dataclasses import replace

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import catalogue
from rules.cybernekro.battle.actions import _check_can, _spend
from rules.cybernekro.battle.state import Battle, Model, Phase, Refused, WeaponUse, controls_npcs, step
from rules.cybernekro.battle.turns import calm_nerves

NPC_ACTIONS = 2  # "they will perform two actions"


def npc_model(slug: str, model_id: str, number: int | None = None) -> Model:
    """An NPC of the catalogue's list as a battle model (its attacks as weapons, its abilities as traits),
    named for one model ("Place a Tomb Bot": the catalogue's ``model_name``, where the rules head the
    section with the plural, "TOMB BOTS") and its ``number`` among those of its kind on the table."""
    entry = catalogue.entry("npcs", slug)
    attrs = entry["attributes"]
    weapons = []
    for attack in entry.get("attacks", []):
        kind = "ranged" if attack["kind"] == "ranged" else "melee"
        weapons.append(
            WeaponUse(
                f"{kind}-attack",
                f"{kind} attack",
                cn.Weapon(
                    attack["damage"],
                    attack.get("range"),
                    cn.Keywords.parse(attack.get("keywords", [])),
                    f"{kind}-attack",
                ),
            )
        )
    traits = catalogue.npc_traits(entry) - {"npc"}
    name = entry.get("model_name") or entry["name"].title()
    return Model(
        model_id,
        f"{name} {number}" if number else name,
        None,
        attrs["agility"],
        attrs["strength"],
        attrs["toughness"],
        attrs["intellect"],
        attrs["discipline"],
        entry.get("armor", 0),
        traits=traits,
        weapons=tuple(weapons),
        npc=True,
        npc_kind=slug,
    )


def place_npc(state: Battle, seat: str | None, slug: str, why: str = "") -> Battle:
    """Put an NPC of ``slug`` on the table (a scenario step or an exploration roll)."""
    try:
        catalogue.entry("npcs", slug)
    except KeyError:
        raise Refused(f"no NPC {slug!r} in the rules") from None
    n = sum(1 for m in state.models if m.npc_kind == slug) + 1
    model = npc_model(slug, f"npc-{slug}-{n}", n)
    after = replace(state, models=state.models + (model,))
    return after.logged(seat, f"{model.name} enters the table" + (f" ({why})" if why else ""))


def _check_controller(state: Battle, seat: str) -> None:
    if not controls_npcs(state, seat):
        raise Refused("the game master decides the NPCs' actions")


def npcs_to_activate(state: Battle) -> tuple[Model, ...]:
    return tuple(m for m in state.models if m.npc and m.in_play and m.id not in state.npcs_done)


def activate_npc(state: Battle, seat: str, npc_id: str) -> Battle:
    """The players name the NPC closest to any Player Character; it gets its two actions."""
    _check_controller(state, seat)
    if state.phase is not Phase.NPCS or state.pending or state.reaction:
        raise Refused("NPCs are activated at the end of the round, once all players have passed")
    if state.active_model:
        raise Refused(f"{state.model(state.active_model).name} is still acting")
    model = state.model(npc_id)
    if model not in npcs_to_activate(state):
        raise Refused(f"{model.name} is not an NPC waiting to activate")
    after = replace(state, active_model=model.id, npc_actions=NPC_ACTIONS)
    return step(state, after.logged(seat, f"{model.name} activates (two actions)"))


def npc_action(state: Battle, seat: str, action: str) -> Battle:
    """An NPC action with no roll (Move, Get up ...): counted, carried out on the table."""
    _check_controller(state, seat)
    if state.phase is not Phase.NPCS or not state.active_model or state.pending:
        raise Refused("activate an NPC first")
    model = state.model(state.active_model)
    _check_can(model, action, 1)  # a Prone NPC too "can only crawl or stand up"
    if action == "get-up" and "monstrous" not in model.traits:
        state = state.with_model(replace(model, prone=False))
    after = _spend(state, model, 1).logged(seat, f"{model.name}: {action.replace('-', ' ')}")
    return step(state, calm_nerves(after))  # its last action ends the activation


def end_npc_activation(state: Battle, seat: str) -> Battle:
    """An NPC with nothing to do (no enemy to reach) ends its activation early."""
    _check_controller(state, seat)
    if state.phase is not Phase.NPCS or not state.active_model or state.pending:
        raise Refused("no NPC is acting")
    model = state.model(state.active_model)
    after = replace(state, active_model=None, npc_actions=0, npcs_done=state.npcs_done | {model.id})
    return step(state, calm_nerves(after.logged(seat, f"{model.name} ends its activation")))


def end_npc_phase(state: Battle, seat: str) -> Battle:
    """Every NPC has acted: the Morale Phase."""
    _check_controller(state, seat)
    if state.phase is not Phase.NPCS or state.active_model or state.pending or state.reaction:
        raise Refused("the NPCs are still acting")
    waiting = npcs_to_activate(state)
    if waiting:
        raise Refused("still to activate: " + ", ".join(m.name for m in waiting))
    after = replace(state, phase=Phase.MORALE)
    return step(state, after.logged(seat, "The NPCs have acted: the Morale Phase"))


def npc_target(state: Battle, seat: str, npc_id: str, closest, rng, seed: int | None = None) -> tuple[Battle, str]:
    """TARGET PRIORITY: "it will choose the closest one. If there are multiple closest ones it will ignore prone
    models. If there are still multiple targets choose randomly." The players name the closest enemies (tied);
    the engine drops the Prone ones if any stand, and draws among the rest (seeded, logged)."""
    npc = state.model(npc_id)
    enemies = state.enemies_of(npc)
    chosen = [state.model(i) for i in dict.fromkeys(closest)]
    if not chosen or any(m not in enemies for m in chosen):
        raise Refused(f"name the enemies of {npc.name} closest to it")
    standing = [m for m in chosen if not m.prone] or chosen
    if len(standing) == 1:
        return state, standing[0].id
    pick = rng.randrange(len(standing))
    target = standing[pick]
    after = state.logged(
        seat,
        f"{npc.name} picks its target at random among {', '.join(m.name for m in standing)}: {target.name}",
        seed=seed,
        rolls=[{"what": "NPC target", "among": [m.id for m in standing], "pick": target.id}],
    )
    return step(state, after), target.id
