"""Two small crews and a battle in its Action Phase, for the battle engine's tests."""

import random
from dataclasses import replace

from rules.cybernekro import engine as cn
from rules.cybernekro.battle import actions, rounds, setup
from rules.cybernekro.battle.state import Model, WeaponUse

SWORD = WeaponUse("sword", "sword", cn.Weapon(2, None, cn.Keywords.parse(["Parry"]), "sword"))
PISTOL = WeaponUse("pistol", "pistol", cn.Weapon(2, 12, cn.Keywords.parse(["Reliable"]), "pistol"))
RIFLE = WeaponUse("auto-rifle", "auto rifle", cn.Weapon(2, 24, cn.Keywords.parse(["Auto 2"]), "auto-rifle"))
FISTS = WeaponUse("fists", "fists", cn.Weapon(1, None, cn.Keywords.parse(["Feeble"]), "fists"))


def model(mid, seat, **kw):
    kw.setdefault("weapons", (FISTS, SWORD, PISTOL))
    return Model(mid, kw.pop("name", mid), seat, **kw)


def crews(n=3, intellect=1):
    a = [model(f"a{i}", "A", intellect=intellect if i == 0 else 0, discipline=1, agility=1) for i in range(n)]
    b = [model(f"b{i}", "B", intellect=0, toughness=1) for i in range(n)]
    return a + b


def new(models=None, scenario="quick-start-scenario", seed=1):
    return setup.new_battle([("A", "Ann"), ("B", "Bob")], models or crews(), scenario, random.Random(seed), seed)


def to_action(state=None, seed=2, first="A", splits=None, complication="no-complication"):
    """Setup, deployment, round 1 started, AP split: the Action Phase with ``first`` active."""
    state = state or new()
    rng = random.Random(seed)
    if state.scenario.slug != "quick-start-scenario" and not state.scenario.complication:
        state = replace(state, scenario=replace(state.scenario, complication=complication))
    state = setup.deployment_initiative(state, "A", {"A": "a0", "B": "b0"}, rng, seed)
    state = rounds.choose_active(state, state.pending[0].seat, first)
    state = setup.deployed(state, "A", rng, seed)
    chosen = {s: next(m.id for m in state.crew(s) if not m.imprisoned) for s in state.seats}
    state = rounds.start_round(state, "A", chosen, rng, seed)
    state = rounds.choose_active(state, state.pending[0].seat, first)
    for seat in rounds.seats_from(state, first):
        split = (splits or {}).get(seat) or even_split(state, seat)
        state = rounds.assign_ap(state, seat, split, rng, seed)
    return state


def even_split(state, seat):
    models = rounds.ap_models(state, seat)
    split = {m.id: 1 for m in models}
    left = min(10, sum(m.ap_cap for m in models)) - len(models)
    for m in models * 3:
        if left and split[m.id] < m.ap_cap:
            split[m.id] += 1
            left -= 1
    return split


class Dice(random.Random):
    """A generator whose randint answers from a script (the rules' examples, exact cases); shuffles stay seeded."""

    def __init__(self, *faces, seed=0):
        super().__init__(seed)
        self.faces = list(faces)

    def randint(self, a, b):
        if not self.faces:
            raise AssertionError("the script ran out of dice")
        face = self.faces.pop(0)
        assert a <= face <= b, (face, a, b)
        return face


def rolled_tio(state, rng, seed=1):
    """A Player Character's Tough it Out choice (B42) answered "Tough it Out": its test rolls with ``rng``."""
    if state.pending and state.pending[0].kind == "tough_it_out":
        return actions.tough_it_out(state, state.pending[0].seat, rng, seed)
    return state


def settle(state, rng=None, seed=1):
    """Let every open test window stand (nobody plays a card), a Player Character choosing to Tough it Out
    (B42): the step's next tests roll with ``rng``."""
    rng = rng or random.Random(seed)
    while state.pending and state.pending[0].kind in ("test", "tough_it_out"):
        if state.pending[0].kind == "tough_it_out":
            state = actions.tough_it_out(state, state.pending[0].seat, rng, seed)
        else:
            state = actions.resolve_test(state, state.pending[0].seat, rng, seed)
    return state


class Script(random.Random):
    """Dice from a script, each clipped to the die; then the lowest face."""

    def __init__(self, *faces):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a, b):
        return max(a, min(b, self.faces.pop(0))) if self.faces else a
