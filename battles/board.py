"""What one seat sees of a battle: ``legal.view_for`` (the others' hands face down), its legal options
as buttons, the odds table of the active model, one page of the log.

The full state (every hand, every deck) never leaves this module: the context
holds only the seat's view, so a template cannot show another player's card.
"""

from __future__ import annotations

from fractions import Fraction

from core.percent import percent as core_percent
from rules.cybernekro import engine as cn
from rules.cybernekro.battle import (
    actions,
    catalogue,
    codec,
    fate,
    holds,
    legal,
    next_tests,
    odds_table,
    scenario_steps,
)
from rules.cybernekro.battle.rounds import ap_order, ap_to_split
from rules.cybernekro.battle.state import GM, Phase, undoable_by
from rules.cybernekro.battle.state import Battle as State
from rules.cybernekro.battle.turns import ap_models
from rules.rolls import ROW_LABELS

from . import steps

# the rules' names for the parts of a round ("Action Phase", "Morale Phase"), shown as the phase now
PHASE_LABELS = {
    Phase.SETUP: "Setup",
    Phase.SORCERIES: "Sorceries",
    Phase.ROUND_START: "Initiative Test",
    Phase.AP: "AP split",
    Phase.ACTION: "Action Phase",
    Phase.NPCS: "NPCs",
    Phase.MORALE: "Morale Phase",
    Phase.ROUND_END: "End of the round",
    Phase.ENDED: "Game over",
}

# steps that play a card from the hand: shown only inside the hand, once its owner taps it open
CARD_STEPS = {"play_before_test", "play_jack", "play_queen", "play_king"}


def percent(q: Fraction) -> str:
    return f"{core_percent(q)}%"


def _name(state: State, mid) -> str:
    try:
        return state.model(str(mid)).name
    except Exception:  # noqa: BLE001 - an arg that is not a model id (a weapon, a card)
        return str(mid)


def label(state: State, option: legal.Option) -> str:
    """Words for a button; what the step does is the engine's."""
    s, a = option.step, option.args
    words = {
        "draw_complication": "Draw the complication",
        "deployment_initiative": "Roll for deployment (Initiative)",
        "deployed": "Crews deployed: draw fate cards",
        "start_round": "Start the round: Initiative Test",
        "pass_turn": "Pass",
        "end_activation": "End this model's activation",
        "resolve_attack": "Roll damage",
        "second_attack": "Roll the second attack (Ambidextrous)",
        "resolve_test": "Let the test stand",
        "let_stand": "Let the roll stand (no card, no re-roll)",
        "reroll_with_dread": "Force a re-roll (remove 1 Dread)",
        "reroll_with_body": "Re-roll (body-mod)",
        "decline_reaction": "Do not react",
        "end_reaction": "End the reaction",
        "accept_out_of_action": "Accept: Out of Action",
        "begin_morale": "Begin the Morale Phase",
        "end_morale": "End the Morale Phase",
        "end_npc_phase": "NPCs done: Morale Phase",
        "end_npc_activation": "End the NPC's activation",
        "finish_round": "Finish the round",
        "explore": "Explore a room (Interact)",
        "corpse_check": "Check a corpse",
        "perform_ritual": "Perform the ritual",
        "name_witnesses": "These allies saw it",
        "undo": "Undo my last step",
        "concede_end": "End the game now",
        "play_on": "Play on",
    }
    npc_window = s in ("react", "decline_reaction") and state.pending and state.pending[0].get("npcs")
    if npc_window:  # B49: the NPCs' window after a Move, answered for them
        mover = _name(state, state.pending[0].get("by"))
        if s == "decline_reaction":
            return f"No NPC may react to {mover}'s move"
        return f"{_name(state, a[0])} reacts to {mover}'s move (an eligible NPC always does)"
    if s in ("resolve_attack", "resolve_test") and state.pending:
        window = state.pending[0]
        text = words[s]
        if s == "resolve_attack" and window.get("outcome") in ("failure", "fumble"):  # a miss rolls no damage
            text = "Let the fumble stand" if window.get("outcome") == "fumble" else "Let the miss stand"
        waiting = holds.waiting_for(state, window)
        if waiting:  # B65: said now, it closes with the others' last answer
            have = "have" if len(waiting) > 1 else "has"
            text += f" (it goes on once {holds.names(state, waiting)} {have} answered)"
        return text
    if s in words:
        return words[s]
    if s == "assign_ap":
        return f"Split my {ap_to_split(cap for _, cap in a)} AP"
    if s == "answer_card":
        return f"Counter with {a[0]}" if a else "Let the card stand"
    if s == "choose_active":
        return f"{state.player(a[0]).name} is the Active Player"
    if s == "choose_sorcery":
        return f"{_name(state, a[0])}: choose a sorcery"
    if s == "roll_sorceries":
        return f"{_name(state, a[0])}: roll two D20 sorceries"
    if s == "select_model":
        return f"Activate {_name(state, a[0])}"
    if s == "attack":
        # a reaction's attack is the reacting model's, not the Active Model's (actions.acting_model)
        model = state.model(_acting_id(state) or "")
        if len(a) > 2:  # a melee weapon with Thrown (B63)
            return f'Throw the {model.weapon(a[0]).name} → {_name(state, a[1])} (a Shoot with Agility, up to 6")'
        return f"{model.weapon(a[0]).name} → {_name(state, a[1])}"
    if s == "attack_two":
        model = state.model(_acting_id(state) or "")
        pair = " + ".join(model.weapon(w).name for w in a[:2])
        return f"{pair} → {_name(state, a[2])} (Ambidextrous, −2 each)"
    if s in ("tough_it_out", "take_it", "use_stims"):
        target = _name(state, state.pending[0].model) if state.pending else ""
        return {
            "tough_it_out": f"{target}: Tough it Out (Toughness test)",
            "take_it": f"{target}: take it (no test)",
            "use_stims": f"{target}: Stim injectors (pass without a roll, then a Neural Overload; once per game)",
        }[s]
    if s == "push":
        return f"Push {_name(state, a[0])}"
    if s == "forced_move_ends":
        moved = _name(state, state.pending[0].model) if state.pending else ""
        return f"{moved} {actions.FORCED_MOVE_ENDS[a[0]]}" + {"obstacle": " (Prone)", "ledge": " (it falls)"}.get(
            a[0], ""
        )
    if s == "fall_on":
        faller = _name(state, state.pending[0].model) if state.pending else ""
        return f"{faller}'s fall goes on"
    if s == "stray_shot":
        target = _name(state, state.pending[0].model) if state.pending else ""
        return f'The shot strays: one of these models within ½" of {target}, at random, is hit'
    if s == "splash_hits":
        target = _name(state, state.pending[0].model) if state.pending else ""
        return f'Splash: hit these models within 1" of {target}'
    if s in ("free_fight", "no_free_fight", "move_on"):
        mover = _name(state, state.pending[0].model) if state.pending else ""
        if s == "free_fight":
            fighter = state.model(a[0])
            return f"{fighter.name}: free Fight against {mover} with {fighter.weapon(a[1]).name}"
        return f"No (more) free Fight against {mover}" if s == "no_free_fight" else f"{mover} makes its move"
    if s == "act" and a[0] == "move" and _acting_prone(state):
        return 'Crawl (Move, 1")'
    if s == "act" and len(a) > 1 and a[0] in ("fix", "reload"):  # the weapon by its name, as on the cards
        acting = _acting_id(state)
        names = {w.slug: w.name for w in state.model(acting).weapons} if acting else {}
        return f"{a[0].capitalize()} the {names.get(a[1], a[1].replace('-', ' '))}"
    if s == "act":
        return a[0].replace("-", " ").capitalize() + (f" {a[1]}" if len(a) > 1 else "")
    if s == "use_equipment":
        return f"Use {a[0].replace('-', ' ')}"
    if s == "cast":
        return f"Cast {catalogue.entry('sorceries', a[0])['name']}"
    if s == "play_before_test":
        return f"Play {a[0]} on {_name(state, a[1])}'s next test"
    if s == "play_jack":
        return f"Play {a[0]}: make it a {a[1]}"
    if s == "play_queen":
        return f"Play {a[0]}: a Wound instead"
    if s == "play_king":
        return f"Play {a[0]}: {_name(state, a[1])} reacts"
    if s == "react":
        return f"React with {_name(state, a[0])}"
    if s == "roll_morale":
        return f"Roll {_name(state, a[0])}'s Morale Tests"
    if s == "activate_npc":
        return f"Activate NPC {_name(state, a[0])}"
    if s == "take_terminal":
        return f"Take terminal {a[0]}"
    if s == "pick_up":
        lying = {use.slug: use.name for use in state.scenario.weapons_on_ground}
        return f"Pick up the {lying.get(a[0], a[0])}"
    if s == "open_prison":
        return f"Open the prison ({a[0]})"
    if s == "put_out_fire":
        return f"Put out {_name(state, a[0])}'s fire"
    if s == "flee_ends":
        where = "walks into a corner (Prone)" if a[1] == "corner" else "goes over a ledge (it falls)"
        return f"{_name(state, a[0])}'s Flee move {where}"
    if s == "leave_table":
        fleeing = " (its Flee move reached a board edge)" if len(a) > 1 and a[1] else ""
        return f"{_name(state, a[0])} leaves the table{fleeing}"
    return s.replace("_", " ")


def _acting_id(state: State) -> str | None:
    """The model acting now: a reacting model, else the Active Model (as the engine's actions.acting_model)."""
    return state.reaction[0] if state.reaction else state.active_model


def _acting_prone(state: State) -> bool:
    acting = _acting_id(state)
    return bool(acting) and state.model(acting).prone


# the steps of the model acting now, whose player says whether it is in melee (B24, B56)
ACTING_STEPS = {
    "act",
    "attack",
    "attack_two",
    "push",
    "use_equipment",
    "cast",
    "leave_table",
    "put_out_fire",
    "take_terminal",
    "explore",
    "pick_up",
    "open_prison",
    "perform_ritual",
}


def _acting(context: dict, view: State, opts) -> None:
    """The model acting now, when the page offers its actions: its "in melee" tick and its Move's choices."""
    acting = _acting_id(view)
    if acting and any(o.step in ACTING_STEPS for o in opts) and not view.model(acting).prone:
        model = view.model(acting)
        context["acting"] = model
        context["sprinter"] = actions.RECKLESS_SPRINTER in model.traits


def _odds_rows(view: State, seat: str, situation: cn.Situation) -> list[dict]:
    """The active model's weapons against every enemy, exact (odds_table), for the seat that moves it; while a
    seat chooses its free Fights (B56), its fighters' melee weapons against the model leaving melee."""
    situations = {m.id: situation for m in view.models}
    window = view.pending[0] if view.pending else None
    if window is not None and window.kind == "free_fight" and window.seat == seat:
        mover = view.model(window.model)
        return [
            _odds_row(view, fighter, cell, f"{fighter.name}: ")
            for fighter in actions.free_fighters(view, mover, window)
            for cell in odds_table.weapon_odds(view, fighter.id, situations, seat=seat)
            if cell.target == mover.id and cell.action == cn.Action.FIGHT.value and not cell.pair
        ]
    acting = _acting_id(view)
    if not acting or view.phase not in (Phase.ACTION, Phase.NPCS):
        return []
    model = view.model(acting)
    if model.seat != seat and not model.npc:
        return []
    return [_odds_row(view, model, cell) for cell in odds_table.weapon_odds(view, acting, situations, seat=seat)]


def _odds_row(view: State, model, cell, prefix: str = "") -> dict:
    name = prefix + model.weapon(cell.weapon).name
    if cell.action == cn.Action.SHOOT.value and not model.weapon(cell.weapon).ranged:
        name += " (thrown)"
    if cell.pair:  # one attack of an Ambidextrous pair (B42)
        name += f" (with {model.weapon(cell.pair).name}, −2)"
    row = {"weapon": name, "target": _name(view, cell.target), "reason": cell.reason}
    if cell.odds is not None:
        hit = cell.odds.to_hit
        row.update(
            hit=percent(hit[cn.Outcome.SUCCESS] + hit[cn.Outcome.CRITICAL]),
            wound=percent(cell.odds.target[cn.TargetState.WOUNDED]),
            prone=percent(cell.odds.target[cn.TargetState.PRONE]),
            ooa=percent(cell.odds.target[cn.TargetState.OUT_OF_ACTION]),
            expected=f"{float(cell.odds.expected_wounds):.2f}",
        )
    return row


# what an open question waits for, in words, on the status line
PENDING_WORDS = {
    "to_hit": "the hit roll (cards, then damage)",
    "test": "the test just rolled (cards, then let it stand)",
    "tough_it_out": "Tough it Out or take it",
    "second_attack": "the Ambidextrous second attack",
    "ooa": "Out of Action, or a Queen",
    "card": "a card played (a Joker, or let it stand)",
    "witnesses": "which allies saw it",
    "reaction": "a reaction",
    "choose_active": "the Active Player",
    "free_fight": "free Fights against a model leaving melee",
    "splash": "which models a Splash hit reaches",
    "stray_shot": "which models a shot into melee may hit instead",
    "fall_on": "the rest of a fall, once Out of Action is answered",
    "forced_move": "where a model moved by a sorcery ended",
    "move_on": "the move out of melee, once the free Fights are over",
}


def _tough_choice(view: State, seat: str | None) -> dict | None:
    """The damage result waiting for its target's player (B42), and what each answer leaves: shown to all."""
    choice = next_tests.tough_choice(view, seat)
    if choice is None:
        return None
    damage = choice.damage
    model = view.model(choice.model)
    penalty = "+1 Wound (Demonic)" if "demonic" in model.traits else ("+1 Dread" if model.gains_dread else "")
    return {
        "penalty": penalty,
        # Stim injectors (B43): the test passes without a roll, one step down, then a Neural Overload
        "stims": ROW_LABELS[cn.tough_it_out(choice.row, cn.Outcome.SUCCESS)] if actions.stims_ready(model) else "",
        "model": _name(view, choice.model),
        "player": view.player(choice.seat).name,
        "dice": ", ".join(str(d) for d in damage.get("kept", damage.get("dice", []))),
        "damage": damage,
        "row": ROW_LABELS[choice.row],
        "modifier": choice.modifier,
        "card": choice.card,
        "outcomes": [
            {"outcome": o.value, "chance": percent(p), "row": ROW_LABELS[row]} for o, p, row in choice.outcomes if p
        ],
    }


def _pending_test(view: State) -> dict | None:
    """A rolled test held open for the cards: whose, which, and its result so far (all public)."""
    p = view.pending[0] if view.pending else None
    if p is None or p.kind not in ("test", "to_hit"):
        return None
    if p.kind == "to_hit":  # the hit roll, as every player answering it needs to see it
        model = view.model(p.model)
        names = {w.slug: w.name for w in model.weapons}
        what = f"hit roll ({names.get(p.get('weapon'), p.get('weapon'))} → {_name(view, p.get('target'))})"
    else:
        what = p.get("what") or p.get("then")
    return {"model": _name(view, p.model), "what": what, "outcome": p.get("outcome")}


def board(
    battle,
    seats: list,
    user,
    events_page,
    situation: cn.Situation = cn.Situation(),
    state: State | None = None,
    allies: int = 0,
) -> dict:
    """The context of the battle's page for ``user`` (a spectator when they hold no seat). ``state``: the
    battle's state already read from ``battle.state`` (the shared part's), else it is read here; ``allies``:
    the allies in LoS typed for the next Morale Tests (their odds)."""
    me = next((s for s in seats if s.user_id == getattr(user, "pk", None)), None)
    # the game master sees what a spectator sees (no hand, view_for None) and moves as the GM seat (B33)
    gm = me is None and battle.game_master_id is not None and battle.game_master_id == getattr(user, "pk", None)
    context = {"battle": battle, "seats": seats, "me": me, "gm": gm, "events": events_page}
    if not battle.state:
        return context
    state = state if state is not None else codec.loads(battle.state)
    seat = str(me.seat) if me else None
    view = legal.view_for(state, seat)
    context["view"] = view
    context["phase_label"] = PHASE_LABELS[view.phase]
    if view.end_asked:  # B67: the game ends now once every player has asked
        context["end_asked"] = [view.player(s).name for s in view.end_asked]
        context["end_waits"] = [view.player(s).name for s in scenario_steps.end_waits_for(view)]
        context["end_mine"] = seat in view.end_asked
    # Between rounds the last round is over: the heading names the round its Initiative Test starts, and
    # the last round's environmental effect (drawn anew at the test) is no longer in play.
    between_rounds = view.phase is Phase.ROUND_START
    context["round_shown"] = view.round + 1 if between_rounds else view.round
    if view.scenario.complication:
        context["complication"] = _catalogue_name("complications", view.scenario.complication)
        context["complication_text"] = _catalogue_text("complications", view.scenario.complication)
    if view.scenario.environment and not between_rounds:
        context["environment"] = _catalogue_name("environment_effects", view.scenario.environment)
        try:
            context["environment_text"] = catalogue.entry("environment_effects", view.scenario.environment)["text"]
        except KeyError:  # a slug from an older catalogue: its name only
            pass
    context["models_by_seat"] = [(p, [m for m in view.models if m.seat == p.seat]) for p in view.players]
    context["npcs"] = [m for m in view.models if m.seat is None]
    context["hand"] = [{"card": c, "kind": fate.kind(c)} for c in view.player(seat).hand] if seat else []
    context["hand_counts"] = [(p.name, len(p.hand), len(p.deck), len(p.discard)) for p in view.players]
    if view.scenario.campaign:
        context["scenario_text"] = battle.campaign_scenario.text if battle.campaign_scenario else ""
    else:  # the published scenario's setup, mission and end, folded under the heading
        context["rules_text"] = _catalogue_text("scenarios", view.scenario.slug)
    context["tough_choice"] = _tough_choice(view, seat)
    if view.pending:
        context["pending_words"] = PENDING_WORDS.get(view.pending[0].kind, view.pending[0].kind.replace("_", " "))
        context["held_for"] = [view.player(s).name for s in holds.waiting_for(view, view.pending[0])]
    if (seat is None and not gm) or view.phase is Phase.ENDED:
        context["summary"] = scenario_steps.summary(view) if view.phase is Phase.ENDED else None
        context["options"] = []
        return context
    if seat is None:
        return _game_master_context(context, state, view, situation)
    opts = steps.options(state, seat)
    context["options"] = [
        {
            "key": steps.key(o),
            "label": label(view, o),
            "step": o.step,
            "args": o.args,
            "card": o.step in CARD_STEPS or (o.step == "answer_card" and bool(o.args)),
            "signed": o.step == "play_before_test" and fate.kind(o.args[0]) == "number",
        }
        for o in opts
    ]
    # Only fate cards open (a test's window): said under "Your move", which is otherwise empty.
    context["cards_only"] = bool(opts) and all(o["card"] for o in context["options"])
    _acting(context, view, opts)
    context["undoable"] = undoable_by(state, seat)
    if any(o.step == "assign_ap" for o in opts):
        context["ap_models"] = ap_models(state, seat)
        context["ap_total"] = ap_to_split(m.ap_cap for m in context["ap_models"])
    context["pending"] = view.pending[0] if view.pending else None
    if context["pending"] is not None and context["pending"].seat == seat:  # B65: the roller waits; said by its moves
        context["held_mine"] = context["held_for"]
        context["roller_done"] = bool(context["pending"].get("roller_done"))
    context["cards_too"] = not context["cards_only"] and any(o["card"] for o in context["options"])
    if not view.pending and view.phase is Phase.ACTION and view.active_seat not in (None, seat):
        context["their_turn"] = view.player(view.active_seat).name  # said to the player who waits
        context["their_turn_words"] = "to act or pass"
    splitting = ap_order(view) if view.phase is Phase.AP else []
    if splitting and splitting[0] != seat:
        context["their_turn"] = view.player(splitting[0]).name
        context["their_turn_words"] = "to split their AP"
    context["roller_said"] = bool(context["pending"] is not None and context["pending"].get("roller_done"))
    context["odds"] = _odds_rows(view, seat, situation)
    context["pending_test"] = _pending_test(view)
    context["next_tests"] = [
        {
            "model": _name(view, t.model),
            "what": t.what,
            "modifier": t.modifier,
            "card": t.card,
            "pass": percent(t.passed),
        }
        for t in next_tests.upcoming(view, seat, min(allies, _allies_on_table(view)))
    ]
    context["conditions"] = situation
    context["allies_max"] = _allies_on_table(view)
    context["allies"] = min(allies, context["allies_max"])
    context["light_ticks"] = _light_ticks(view, situation)
    context["auto_weapons"] = _auto_weapons(view, context["odds"])
    context["sorceries"] = catalogue.data().get("sorceries", [])
    context["crew_ids"] = [m for m in view.crew(seat)]
    context["targets"] = [m for m in view.models if m.in_play]
    context["body_mods"] = sorted({b for m in view.models for b in m.body_mods})
    context["weapons"] = sorted({(w.slug, w.name) for m in view.models for w in m.weapons})
    context["initiative_choices"] = [m for m in view.crew(seat) if not m.imprisoned]
    context["initiative_pick"] = me.initiative
    picks = {str(s.seat): s.initiative for s in seats}
    context["initiative_missing"] = [
        p.name
        for p in view.players
        if not steps.chosen_by_seat(view, picks).get(p.seat) and any(not m.imprisoned for m in view.crew(p.seat))
    ]
    return context


def _game_master_context(context: dict, state: State, view: State, situation: cn.Situation) -> dict:
    """The game master's moves: the NPCs' steps (legal for the GM seat) and undo; no hand, no crew."""
    opts = steps.options(state, GM)
    context["options"] = [
        {"key": steps.key(o), "label": label(view, o), "step": o.step, "args": o.args, "card": False, "signed": False}
        for o in opts
    ]
    # Only fate cards open (a test's window): said under "Your move", which is otherwise empty.
    context["cards_only"] = bool(opts) and all(o["card"] for o in context["options"])
    _acting(context, view, opts)
    context["undoable"] = undoable_by(state, GM)
    context["pending"] = view.pending[0] if view.pending else None
    context["odds"] = _odds_rows(view, GM, situation)
    context["conditions"] = situation
    context["light_ticks"] = _light_ticks(view, situation)
    context["auto_weapons"] = _auto_weapons(view, context["odds"])
    context["targets"] = [m for m in view.models if m.in_play]
    return context


def _allies_on_table(view: State) -> int:
    """The most allies the next Morale Tests' model may have in sight: its crew's other models on the table."""
    if view.phase is not Phase.MORALE or not view.morale_queue:
        return 0
    model = view.model(view.morale_queue[0])
    return len([m for m in view.crew(model.seat) if m.id != model.id])


def _auto_weapons(view: State, odds: list) -> list[str]:
    """The acting model's Auto X weapons, when its odds are shown: "Can choose to roll X dice" (one die, no -2)."""
    acting = _acting_id(view)
    if not odds or not acting:
        return []
    return [f"{w.name} (Auto {w.weapon.keywords.auto})" for w in view.model(acting).weapons if w.weapon.keywords.auto]


def _light_ticks(view: State, situation: cn.Situation) -> list[tuple[str, str, bool]]:
    """The lantern and spot light within 3" of a shot, for the players to tick while it is dark (E12b)."""
    if not actions.in_darkness(view):
        return []
    return [(name, label, getattr(situation, name)) for name, label in cn.LIGHT_TICKS.items()]


def _catalogue_text(section: str, slug: str) -> str:
    try:
        return catalogue.entry(section, slug).get("text") or ""
    except KeyError:  # a slug from an older catalogue: its name alone is shown
        return ""


def _catalogue_name(section: str, slug: str) -> str:
    try:
        return catalogue.entry(section, slug).get("name") or slug
    except KeyError:  # a slug from an older catalogue: shown as stored
        return slug
