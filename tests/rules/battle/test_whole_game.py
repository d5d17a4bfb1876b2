"""A whole Quick start game played by the engine's own legal steps: deterministic given the seeds, never stuck."""

import pkgutil
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

import rules.cybernekro.battle
from rules.cybernekro.battle import actions, legal, morale, npcs, rounds, scenario_steps, setup, sorcery
from rules.cybernekro.battle.state import Phase, Refused
from tests.rules.battle.helpers import crews, even_split, new

ROOT = Path(__file__).resolve().parents[3]


def play(seed: int, limit: int = 3000, scenario: str = "quick-start-scenario"):
    """Both players take a seeded-random legal step until the game ends (a0 and b0 are sorcerers)."""
    chooser = random.Random(seed)
    models = [replace(m, sorcerer=m.id in ("a0", "b0"), body_mods=frozenset({"extra-organs"})) for m in crews()]
    state = new(models, scenario=scenario, seed=seed)
    for n in range(limit):
        if state.phase is Phase.ENDED:
            return state
        dice = random.Random(seed * 10_000 + n)
        seat, option = pick(state, chooser)
        try:
            state = apply(state, seat, option, dice, seed * 10_000 + n)
        except Refused:
            if option.step != "cast":  # legal cannot know a sorcery's target is out of reach
                raise
    raise AssertionError(f"no end after {limit} steps: {state.phase} {state.pending} {state.log[-3:]}")


def pick(state, chooser):
    for seat in state.seats:
        options = legal.legal(state, seat)
        if options:
            preferred = [o for o in options if o.step not in ("pass_turn", "end_activation", "decline_reaction")]
            return seat, chooser.choice(preferred or options) if chooser.random() < 0.9 else chooser.choice(options)
    raise AssertionError(f"nobody may act: {state.phase} {state.pending}")


def apply(state, seat, option, rng, seed):
    step, args = option.step, option.args
    chosen = {s: free[0].id for s in state.seats if (free := [m for m in state.crew(s) if not m.imprisoned])}
    if step == "draw_complication":
        return setup.draw_complication(state, seat, rng, seed)
    if step == "deployment_initiative":
        return setup.deployment_initiative(state, seat, chosen, rng, seed)
    if step == "start_round":
        return rounds.start_round(state, seat, chosen, rng, seed)
    if step in ("take_terminal", "explore", "corpse_check", "pick_up", "open_prison", "perform_ritual"):
        return getattr(scenario_steps, step)(state, seat, *args, rng, seed)
    if step == "put_out_fire":
        return actions.put_out_fire(state, seat, *args, rng, seed)
    if step == "leave_table":
        return scenario_steps.leave_table(state, seat, *args)
    if step == "assign_ap":
        return rounds.assign_ap(state, seat, even_split(state, seat), rng, seed)
    if step == "deployed":
        return setup.deployed(state, seat, rng, seed)
    if step == "attack":
        return actions.attack(state, seat, *args, rng, seed)
    if step == "push":
        return actions.push(state, seat, *args, rng, seed)
    if step == "forced_move_ends":
        return actions.forced_move_ends(state, seat, *args, rng, seed, height=3 if args[0] == "ledge" else 0)
    if step == "flee_ends":
        return actions.flee_ends(state, seat, *args, rng, seed, height=3 if args[1] == "ledge" else 0)
    if step == "free_fight":
        return actions.free_fight(state, seat, *args, rng, seed)
    if step == "stray_shot":
        return actions.stray_shot(state, seat, args[:1], rng, seed)
    if step == "splash_hits":
        return actions.splash_hits(state, seat, args[:1], rng, seed)
    if step in ("move_on", "fall_on"):
        return getattr(actions, step)(state, seat, rng, seed)
    if step == "act":
        return actions.act(state, seat, args[0], rng, seed, item=args[1] if len(args) > 1 else None)
    if step == "use_equipment":
        from rules.cybernekro.battle import equipment

        return equipment.use_equipment(state, seat, args[0], rng, seed)
    if step in ("resolve_attack", "tough_it_out", "take_it", "second_attack"):
        return getattr(actions, step)(state, seat, rng, seed)
    if step == "attack_two":
        return actions.attack_two(state, seat, *args, rng, seed)
    if step == "choose_sorcery":
        return setup.choose_sorcery(state, seat, args[0], "bolt")
    if step == "roll_sorceries":
        return setup.roll_sorceries(state, seat, args[0], rng, seed)
    if step == "cast":
        caster = actions.acting_model(state, seat)
        enemies = state.enemies_of(caster)
        target = enemies[0] if enemies else caster
        weapon = next((w.slug for w in target.weapons if w.ranged), None)
        return sorcery.cast(
            state,
            seat,
            args[0],
            rng,
            seed,
            target_id=target.id,
            targets=[m.id for m in enemies],
            body_mod="extra-organs",
            weapon=weapon,
        )
    if step == "resolve_test":
        return actions.resolve_test(state, seat, rng, seed)
    if step == "reroll_with_body":
        return actions.reroll_with_body(state, seat, rng, seed)
    if step == "reroll_with_dread":
        return actions.reroll_with_dread(state, seat, rng, seed)
    if step == "react":
        return actions.react(state, seat, rng, seed, args[0])
    if step == "name_witnesses":
        return actions.name_witnesses(state, seat, args[:1], rng)
    if step == "begin_morale":
        return morale.begin_morale(state, seat, rng, seed)
    if step == "roll_morale":
        return morale.roll_morale(state, seat, args[0], 0, rng, seed)
    if step == "end_morale":
        return morale.end_morale(state, seat, rng, seed)
    if step == "finish_round":
        return scenario_steps.finish_round(state, seat)
    if step == "answer_card":
        return actions.answer_card(state, seat, *args)
    if step in ("play_before_test",):
        return actions.play_before_test(state, seat, *args)
    for module in (actions, rounds, npcs):
        if hasattr(module, step):
            return getattr(module, step)(state, seat, *args)
    raise AssertionError(step)


def test_a_whole_game_is_deterministic_given_its_seeds_and_always_ends():
    for seed in range(4):
        first, second = play(seed), play(seed)
        assert first.log == second.log
        assert first.phase is Phase.ENDED and first.winner is not None
        summary = scenario_steps.summary(first)
        assert summary.rounds <= 6 and len(summary.sides) == 2


@pytest.mark.parametrize("scenario", ["exploration", "prisoner", "stop-the-ritual"])
def test_the_other_scenarios_play_through_legal_steps(scenario):
    for seed in range(3):
        state = play(seed, scenario=scenario, limit=4000)
        assert state.phase is Phase.ENDED


def test_every_battle_module_imports_without_django():
    names = sorted(m.name for m in pkgutil.iter_modules(rules.cybernekro.battle.__path__))
    assert {"state", "fate", "rounds", "actions", "morale", "sorcery", "npcs", "legal"} <= set(names)
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module('rules.cybernekro.battle.' + name)\n"
        "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_every_state_of_a_game_is_stored_as_json_and_read_back_equal():
    from rules.cybernekro.battle import codec

    chooser, state = random.Random(7), new(scenario="exploration", seed=7)
    for n in range(400):
        if state.phase is Phase.ENDED:
            break
        text = codec.dumps(state)
        back = codec.loads(text)
        assert back == state and back.previous == state.previous and back.log == state.log
        seat, option = pick(state, chooser)
        state = apply(back, seat, option, random.Random(n), n)
    assert n > 50


def test_a_stored_battle_names_only_known_types():
    import json

    from rules.cybernekro.battle import codec

    text = codec.dumps(new())
    doc = json.loads(text)
    doc["__type"] = "Popen"
    with pytest.raises(KeyError):
        codec.loads(json.dumps(doc))
