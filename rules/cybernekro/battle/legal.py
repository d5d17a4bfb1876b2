"""What a seat may do now (``legal``), and what a seat may see (``view_for``: the others' hands hidden).

``legal`` never depends on another player's hidden cards: the windows for a
Joker, a Queen or a Jack are offered to everyone they could concern, whatever
they hold; only the seat's own hand decides which card plays it is offered.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.cybernekro.battle import catalogue, fate, holds
from rules.cybernekro.battle.actions import (
    BESTIAL_ACTIONS,
    FORCED_MOVE_ENDS,
    PRONE_ACTIONS,
    free_fighters,
    move_reactors,
    splash_candidates,
    stims_ready,
    stray_candidates,
    tested_next,
    weapon_pairs,
)
from rules.cybernekro.battle.equipment import USABLE
from rules.cybernekro.battle.morale import pollen_testers, tremors_testers
from rules.cybernekro.battle.npcs import npcs_to_activate
from rules.cybernekro.battle.rounds import ap_order
from rules.cybernekro.battle.setup import _next_sorcerer_seat
from rules.cybernekro.battle.state import GM, Battle, Phase, controls_npcs
from rules.cybernekro.battle.turns import ap_models


@dataclass(frozen=True)
class Option:
    step: str  # the step function's name
    args: tuple = ()  # what to pass it (model ids, weapon slugs, cards ...)


def _cards(state: Battle, seat: str, kinds) -> list[str]:
    return [c for c in state.player(seat).hand if fate.kind(c) in kinds]


def before_test_cards(state: Battle, seat: str, model_ids) -> list[Option]:
    """An Ace or a numbered card played before a model's next test (B26, B35): an Ace on the seat's own
    models ("automatically pass that test"), a numbered card on any model ("the player playing the card
    deciding if the modifier is positive or negative")."""
    out = []
    for model_id in model_ids:
        own = state.model(model_id).seat == seat
        out += [Option("play_before_test", (c, model_id)) for c in _cards(state, seat, ("ace",) if own else ())]
        out += [Option("play_before_test", (c, model_id)) for c in _cards(state, seat, ("number",))]
    return out


def legal(state: Battle, seat: str) -> tuple[Option, ...]:
    """Every step ``seat`` may take now (an empty tuple: wait for someone else)."""
    out: list[Option] = []
    if state.phase is Phase.ENDED:
        return ()
    if seat == GM:
        return _game_master_options(state)
    state.player(seat)
    if state.pending:
        p = state.pending[0]
        if p.kind == "card":
            if p.seat == seat:
                out.append(Option("answer_card"))
                out += [Option("answer_card", (j,)) for j in _cards(state, seat, ("joker",))]
            return tuple(out)
        if p.kind in ("to_hit", "test"):
            if p.seat == seat and not p.get("roller_done"):  # B65: it may close once the others answered
                out.append(Option("resolve_attack" if p.kind == "to_hit" else "resolve_test"))
            waiting = holds.waiting_for(state, p)
            if seat in waiting:  # B65: every player answers the roll, whatever they hold
                out.append(Option("let_stand"))
            model = state.model(p.model)
            rolled = p.get("event") is not None
            if (
                p.get("outcome") in ("success", "critical")
                and model.dread > 0
                and not p.get("rerolled")
                and rolled
                and state.phase is Phase.ACTION
            ):
                out.append(Option("reroll_with_dread"))
            if (
                p.seat == seat
                and rolled
                and not p.get("rerolled")
                and model.seat == seat
                and (
                    (
                        "multi-headed" in model.traits
                        and p.get("then") == "reaction"
                        and p.get("outcome") in ("failure", "fumble")
                    )
                    or (p.get("attribute") == "intellect" and "neural-cabling" in model.body_mods)
                    or "excessive-neural-cabling" in model.body_mods
                )
            ):
                out.append(Option("reroll_with_body"))
            into = {"success": "critical", "failure": "fumble"}.get(p.get("outcome"))
            if into and rolled:
                out += [Option("play_jack", (c, into)) for c in _cards(state, seat, ("jack",))]
            # the step's next test, a hit roll's target's, the hit a Fumble brings on the window's own model
            out += before_test_cards(state, seat, tested_next(state, p))
            return tuple(out)
        if p.kind == "tough_it_out":  # the target's player chooses; any player may play a card on its test
            answers = [Option("tough_it_out"), Option("take_it")] if p.seat == seat else []
            if answers and stims_ready(state.model(p.model)):
                answers.append(Option("use_stims"))
            return tuple(answers + before_test_cards(state, seat, (p.model,)))
        if p.kind == "reaction":  # its player answers; any player may play a card on its Agility test (B64)
            answers = list(_window_options(state, p)) if p.seat == seat else []
            return tuple(answers + before_test_cards(state, seat, tested_next(state, p)))
        if p.seat != seat:
            return ()
        if p.kind == "free_fight":  # a fighter that failed its on-Fire test may end its Flee move first
            return _fled_options(state, seat) + _free_fight_options(state, p)
        if p.kind == "choose_active":
            return tuple(Option("choose_active", (s,)) for s in state.seats)
        if p.kind == "ooa":
            out.append(Option("accept_out_of_action"))
            if state.model(p.model).wounds < 6:
                out += [Option("play_queen", (c,)) for c in _cards(state, seat, ("queen",))]
            return tuple(out)
        if p.kind == "witnesses":
            return (Option("name_witnesses", tuple(m.id for m in state.crew(seat))),)
        return _window_options(state, p)
    if state.phase is Phase.SETUP:
        if catalogue.scenario_rules(state.scenario).get("draws_complication") and not state.scenario.complication:
            return (Option("draw_complication"),)
        if not state.active_seat:
            return (Option("deployment_initiative"),)
        return (Option("deployed"),)
    if state.phase is Phase.SORCERIES:
        if _next_sorcerer_seat(state) != seat:
            return ()
        for m in state.crew(seat):
            if m.sorcerer and m.id not in state.sorceries_done:
                out += [Option("choose_sorcery", (m.id,)), Option("roll_sorceries", (m.id,))]
        return tuple(out)
    if state.phase is Phase.ROUND_START:
        return (Option("start_round"),)
    if state.phase is Phase.AP:
        order = ap_order(state)
        if not order:
            return ()
        mine = (
            (Option("assign_ap", tuple((m.id, m.ap_cap) for m in ap_models(state, seat))),) if order[0] == seat else ()
        )
        # Extreme temperature: the splitting player's models may be tested (B36): cards may be played on them first
        tested = ap_models(state, order[0]) if state.scenario.complication == "extreme-temperature" else ()
        return mine + tuple(before_test_cards(state, seat, [m.id for m in tested]))
    if state.phase is Phase.ACTION:
        return _fled_options(state, seat) + tuple(_action_options(state, seat))
    if state.phase is Phase.NPCS:
        return _fled_options(state, seat) + _npc_phase_options(state, seat)
    if state.phase is Phase.MORALE:
        if not state.morale_started:
            return (Option("begin_morale"),) + tuple(before_test_cards(state, seat, pollen_testers(state)))
        fled = _fled_options(state, seat)
        if state.morale_queue:
            head = state.model(state.morale_queue[0])
            mine = (Option("roll_morale", (head.id,)),) if head.seat == seat else ()
            return fled + mine + tuple(before_test_cards(state, seat, (head.id,)))
        return fled + (Option("end_morale"),) + tuple(before_test_cards(state, seat, tremors_testers(state)))
    if state.phase is Phase.ROUND_END:
        return (Option("finish_round"),)
    return ()


def _window_options(state: Battle, p) -> tuple[Option, ...]:
    """The answers to a window that whoever holds it gives alike, a player or the game master (an NPC missed,
    the NPCs' window after a Move, their free Fights, an NPC's Splash or shot into melee, an NPC leaving melee)."""
    if p.kind == "reaction":
        return _reaction_options(state, p)
    if p.kind == "free_fight":
        return _free_fight_options(state, p)
    if p.kind in ("second_attack", "fall_on", "move_on"):
        return (Option(p.kind),)
    if p.kind == "forced_move":
        return tuple(Option("forced_move_ends", (where,)) for where in FORCED_MOVE_ENDS)
    if p.kind == "splash":
        return (Option("splash_hits", tuple(m.id for m in splash_candidates(state, p.model))),)
    if p.kind == "stray_shot":
        return (Option("stray_shot", tuple(m.id for m in stray_candidates(state, p))),)
    return ()


def _reaction_options(state: Battle, p) -> tuple[Option, ...]:
    """A reaction window's answers: the named model reacts, or one of the models the Move's window lets its seat
    claim; declining is open unless the model named is an NPC ("they will always choose to react"); the NPCs'
    window after a Move is declined when none of them is eligible."""
    out = [Option("react", (p.model,))] if p.model else [Option("react", (m.id,)) for m in move_reactors(state, p)]
    if not (p.model and state.model(p.model).npc):
        out.append(Option("decline_reaction"))
    return tuple(out)


def _free_fight_options(state: Battle, p) -> tuple[Option, ...]:
    """A free Fight against the model leaving melee (B56): each of the seat's models that may, with each of its
    melee weapons; or none (more)."""
    mover = state.model(p.model)
    out = [
        Option("free_fight", (m.id, w.slug)) for m in free_fighters(state, mover, p) for w in m.weapons if not w.ranged
    ]
    return tuple(out) + (Option("no_free_fight"),)


def _fled_options(state: Battle, seat: str) -> tuple[Option, ...]:
    """A Flee move just made (a failed on-Fire test's, a Morale Test's): "If the character was touching a board
    edge it leaves the board", "stopping and dropping Prone if it walks into a corner and falling down if it walks
    over a ledge" (the board is the players' to see; no AP)."""
    if not state.fled:
        return ()
    model = state.model(state.fled)
    if model.seat != seat or not model.in_play:
        return ()
    return (
        Option("leave_table", (model.id, True)),
        Option("flee_ends", (model.id, "corner")),
        Option("flee_ends", (model.id, "ledge")),
    )


def _npc_phase_options(state: Battle, seat: str) -> tuple[Option, ...]:
    """The NPC Phase: the NPCs' actions are decided by any player, or only by the game master (B33)."""
    if state.reaction:
        reacting = state.model(state.reaction[0])
        if not (controls_npcs(state, seat) if reacting.npc else reacting.seat == seat):
            return ()
        return tuple(_acting_options(state, reacting)) + (Option("end_reaction"),)
    if not controls_npcs(state, seat):
        return ()
    if state.active_model:
        return tuple(_acting_options(state, state.model(state.active_model))) + (Option("end_npc_activation"),)
    waiting = npcs_to_activate(state)
    if waiting:
        return tuple(Option("activate_npc", (m.id,)) for m in waiting)
    return (Option("end_npc_phase"),)


def _game_master_options(state: Battle) -> tuple[Option, ...]:
    """The game master holds no crew and no card: the NPCs' steps, and the tests of the NPCs they rolled."""
    if not state.game_master:
        return ()
    if state.pending:
        p = state.pending[0]
        if p.seat != GM:
            return ()
        if p.kind in ("to_hit", "test"):
            if p.get("roller_done"):  # B65: closed once the players have answered
                return ()
            return (Option("resolve_attack" if p.kind == "to_hit" else "resolve_test"),)
        return _window_options(state, p)
    if state.phase is Phase.NPCS:
        return _npc_phase_options(state, GM)
    if state.phase is Phase.ACTION and state.reaction and state.model(state.reaction[0]).npc:
        return tuple(_acting_options(state, state.model(state.reaction[0]))) + (Option("end_reaction"),)
    return ()


def _action_options(state: Battle, seat: str):
    acting = state.reaction[0] if state.reaction else state.active_model
    if acting and state.model(acting).seat != seat:  # a numbered card may worsen an enemy's next test
        yield from (Option("play_before_test", (c, acting)) for c in _cards(state, seat, ("number",)))
    if state.reaction:
        model = state.model(state.reaction[0])
        if controls_npcs(state, seat) if model.npc else model.seat == seat:  # NPCs: any player, or the GM
            yield from _acting_options(state, model)
            yield Option("end_reaction")
        return
    kings = _cards(state, seat, ("king",))
    if state.active_model and state.model(state.active_model).seat != seat:
        for c in kings:
            for m in state.crew(seat):
                if m.ap > 0:
                    yield Option("play_king", (c, m.id))
    if state.active_seat != seat:
        return
    if not state.active_model:
        for m in ap_models(state, seat):
            if m.ap > 0:
                yield Option("select_model", (m.id,))
        yield Option("pass_turn")
        return
    yield from _acting_options(state, state.model(state.active_model))
    yield Option("end_activation")


def _acting_options(state: Battle, model):
    ap = model.ap if not model.npc else 99
    if ap <= 0:
        return

    def allowed(action: str) -> bool:  # an NPC too: Prone and Bestial limit every model (AP aside)
        if "bestial" in model.traits and action not in BESTIAL_ACTIONS:
            return False
        return not (model.prone and action not in PRONE_ACTIONS)

    for action in ("move", "jump", "get-up", "interact"):
        if allowed(action) and (action != "get-up" or model.prone):
            yield Option("act", (action,))
    for weapon in sorted(model.jammed):
        if allowed("fix") and "lobotomised" not in model.traits:
            yield Option("act", ("fix", weapon))
    for weapon in sorted(model.unloaded):
        if allowed("reload"):
            yield Option("act", ("reload", weapon))
    if allowed("use-equipment") and "lobotomised" not in model.traits:
        for item in USABLE:
            if item in model.gear:
                yield Option("use_equipment", (item,))
    for enemy in state.enemies_of(model):
        if allowed("push") and not (model.prone or enemy.prone):  # only a model in melee is pushed (B56)
            yield Option("push", (enemy.id,))
        for use in model.weapons:
            cost = 2 if use.weapon.keywords.has("unwieldy") else 1
            kind = "shoot" if use.ranged else "fight"
            if use.slug not in model.jammed | model.unloaded and ap >= cost and allowed(kind):
                yield Option("attack", (use.slug, enemy.id))
            if not use.ranged and use.weapon.keywords.has("thrown") and ap >= cost and allowed("shoot"):
                yield Option("attack", (use.slug, enemy.id, "shoot"))  # thrown: a Shoot with Agility (B63)
        for first, second in weapon_pairs(model):  # Ambidextrous: both at this enemy, one action (B42)
            uses = (model.weapon(first), model.weapon(second))
            cost = 2 if any(u.weapon.keywords.has("unwieldy") for u in uses) else 1
            ready = not {first, second} & (model.jammed | model.unloaded)
            if ready and ap >= cost and allowed("shoot" if uses[0].ranged else "fight"):
                yield Option("attack_two", (first, second, enemy.id))
    if model.sorcerer and allowed("sorcery"):
        for sorcery in model.sorceries:
            if sorcery not in model.cast_this_round:
                yield Option("cast", (sorcery,))
    for c in _cards(state, model.seat, ("ace", "number")) if model.is_pc else ():  # never a hand to an NPC's mover
        yield Option("play_before_test", (c, model.id))
    yield from _scenario_options(state, model, allowed)


def _scenario_options(state: Battle, model, allowed):
    """The scenario's own steps for the acting model (an Interact, or leaving the table)."""
    s = state.scenario
    if model.npc:
        return
    element = allowed("interact") and "lobotomised" not in model.traits
    if s.slug == "quick-start-scenario" and element:
        for number, owner in s.terminals:
            if owner != model.seat:
                yield Option("take_terminal", (number,))
    if s.slug == "exploration" and element and s.explored < s.rooms:
        yield Option("explore")
    if s.slug == "exploration" and s.corpses:
        yield Option("corpse_check")
    if allowed("interact") and s.treasure_on_table:
        yield Option("pick_up", ("treasure",))
    if allowed("interact") and s.artifact_on_table:
        yield Option("pick_up", ("artifact",))
    if allowed("interact"):
        for slug in sorted({use.slug for use in s.weapons_on_ground}):
            yield Option("pick_up", (slug,))  # a thrown weapon, by anyone (B63)
    if s.slug == "prisoner" and element and any(m.imprisoned and m.in_play for m in state.models):
        yield Option("open_prison", ("strength",))
        yield Option("open_prison", ("intellect",))
    if (
        s.slug == "stop-the-ritual"
        and element
        and model.seat == s.defender
        and s.interacts_this_round < 2
        and s.ritual < s.ritual_target
    ):
        yield Option("perform_ritual")
    if allowed("interact"):
        for m in state.crew(model.seat):
            if m.on_fire:
                yield Option("put_out_fire", (m.id,))
    if allowed("move"):
        yield Option("leave_table", (model.id,))


def view_for(state: Battle, seat: str | None) -> Battle:
    """The battle as ``seat`` may see it: the others' hands as face-down cards, every deck's order
    hidden, face-down numbered cards of the others masked (``None``: a spectator sees no hand)."""
    hidden = "face-down card"
    players = tuple(
        replace(p, deck=(hidden,) * len(p.deck), hand=p.hand if p.seat == seat else (hidden,) * len(p.hand))
        for p in state.players
    )
    armed = tuple(a if a[0] == seat or fate.kind(a[2]) == "ace" else (a[0], a[1], hidden, 0) for a in state.armed)
    pending = tuple(
        replace(
            p,
            data=tuple(
                (
                    k,
                    hidden
                    if k in ("card", "effect")
                    and dict(p.data).get("by") != seat
                    and "face down" in str(dict(p.data).get("shown"))
                    else v,
                )
                for k, v in p.data
            ),
        )
        if p.kind == "card"
        else p
        for p in state.pending
    )
    return replace(state, players=players, armed=armed, pending=pending, previous=None)
