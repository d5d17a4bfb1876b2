"""The Slasher trial (slasher-trial.txt): pure state transitions over frozen dataclasses.

Pure Python, no Django: the Django side persists a ``Trial`` and calls these
functions, each returning a new ``Trial`` or raising ``IllegalAction(reason)``.
Numbers (Energy per Advance, costs, Health defaults) are read with plain json
from ``catalogue/data/slasher-trial-1.json`` as the defaults; a page passes
the catalogue rows' (house-rule) numbers as ``Trial.numbers`` (``numbers_from_entries``).

Readings (docs/rules-interpretations.md (Part 5), "The Slasher trial"):
- Adjacent = the 8 surrounding squares (diagonals included); ``Trial.diagonals``
  set to False gives the 4 orthogonal neighbours.
- Survivor Energy per Advance = 60 // (Survivors with a non-blank Status, any
  Status, Dead and Escaped included), rounded down; given to Living Survivors.
- Heal and Hit need an adjacent Survivor; their Status change is conditional
  but the Points (+2) / Health (-1) are not (as written). Rescue needs an adjacent
  Caged Survivor and Cage an adjacent Dying one (otherwise they would do nothing).
- Monster Actions are taken only inside an Advance; Survivor Actions never inside one,
  nor any other change (Readiness, a blank Location set, the Monster's too: ST5, ST10).
- Only an Unready Survivor becomes Ready; Health at or below 0 makes any Survivor Dead.
- Dead Survivors keep their Location (nothing in the text clears it).
- A Caged Survivor takes no actions but may still become Ready (it is Living;
  otherwise no Advance could ever happen again).
- Escaping is not defined by the text: ``escape`` (house reading) needs five
  Repaired Generators, costs ``escape_cost`` (default 0) and blanks the Location.
- The end: no Living Survivor left. Every Survivor Dead: the Monster wins;
  otherwise a winner is drawn among the Survivors who took at least one
  Survivor Action (Dead or Escaped alike), weighted by Points (evenly if all have 0).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from functools import lru_cache
from typing import Mapping, Sequence

from catalogue import DATA_DIR

CATALOGUE = DATA_DIR / "slasher-trial-1.json"


@lru_cache(maxsize=None)
def _catalogue() -> dict:
    return json.loads(CATALOGUE.read_text(encoding="utf-8"))


def _entry(section: str, slug: str) -> dict:
    return next(e for e in _catalogue()[section] if e["slug"] == slug)


MONSTER_ENERGY_PER_ADVANCE = _entry("advance", "monster-energy")["number"]
SURVIVOR_ENERGY_POOL = _entry("advance", "survivor-energy")["number"]
CAGED_HEALTH_LOSS = _entry("advance", "caged-health-loss")["number"]
DYING_HEALTH_LOSS = _entry("advance", "dying-health-loss")["number"]
SURVIVOR_ACTIONS = {a["slug"]: a["cost"] for a in _catalogue()["survivor_actions"]}
MONSTER_ACTIONS = {a["slug"]: a["cost"] for a in _catalogue()["monster_actions"]}
ROWS = _entry("grid", "the-trial-grounds")["rows"]
COLUMNS = _entry("grid", "the-trial-grounds")["columns"]
GENERATORS = _entry("grid", "generators")["number"]
GENERATORS_TO_REPAIR = _entry("grid", "generators")["to_repair"]
REPAIR_MAX = _entry("grid", "generators")["repair_max"]
DEFAULT_HEALTH = _entry("defaults", "health")["number"]
ROW_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:ROWS]


@dataclass(frozen=True)
class Numbers:
    """Every number the engine uses, so a page can pass the catalogue's (house-rule)
    values: ``numbers_from_entries`` builds one from the catalogue sections. The
    defaults are the data file's numbers (the rules text's)."""

    monster_energy: int = MONSTER_ENERGY_PER_ADVANCE
    survivor_energy_pool: int = SURVIVOR_ENERGY_POOL
    caged_health_loss: int = CAGED_HEALTH_LOSS
    dying_health_loss: int = DYING_HEALTH_LOSS
    survivor_costs: tuple[tuple[str, int], ...] = tuple(SURVIVOR_ACTIONS.items())
    monster_costs: tuple[tuple[str, int], ...] = tuple(MONSTER_ACTIONS.items())
    repair_progress: int = _entry("survivor_actions", "repair")["progress"]
    repair_points: int = _entry("survivor_actions", "repair")["points"]
    heal_points: int = _entry("survivor_actions", "heal")["points"]
    rescue_points: int = _entry("survivor_actions", "rescue")["points"]
    hit_health: int = _entry("monster_actions", "hit")["health"]
    generators: int = GENERATORS
    to_repair: int = GENERATORS_TO_REPAIR
    repair_max: int = REPAIR_MAX
    health: int = DEFAULT_HEALTH

    def cost(self, role: str, action: str) -> int:
        table = dict(self.survivor_costs if role == "survivor" else self.monster_costs if role == "monster" else ())
        if action not in table:
            raise ValueError(f"no {role} action {action!r}")
        return table[action]


DEFAULT_NUMBERS = Numbers()


def numbers_from_entries(sections: Mapping[str, Sequence[dict]]) -> Numbers:
    """A ``Numbers`` from catalogue sections (``{"advance": [entry, ...], ...}``, as
    the data file or the database rows give them). A later entry with the same slug
    (a house rule) wins; a missing section or entry keeps the data file's number."""

    def by_slug(section: str) -> dict[str, dict]:
        return {e["slug"]: e for e in sections.get(section) or ()}

    d = DEFAULT_NUMBERS
    advance, grid, defaults = by_slug("advance"), by_slug("grid"), by_slug("defaults")
    survivor, monster = by_slug("survivor_actions"), by_slug("monster_actions")

    def num(table: dict, slug: str, key: str, default: int) -> int:
        value = table.get(slug, {}).get(key)
        return default if value is None else int(value)

    return Numbers(
        monster_energy=num(advance, "monster-energy", "number", d.monster_energy),
        survivor_energy_pool=num(advance, "survivor-energy", "number", d.survivor_energy_pool),
        caged_health_loss=num(advance, "caged-health-loss", "number", d.caged_health_loss),
        dying_health_loss=num(advance, "dying-health-loss", "number", d.dying_health_loss),
        survivor_costs=tuple((slug, num(survivor, slug, "cost", cost)) for slug, cost in d.survivor_costs),
        monster_costs=tuple((slug, num(monster, slug, "cost", cost)) for slug, cost in d.monster_costs),
        repair_progress=num(survivor, "repair", "progress", d.repair_progress),
        repair_points=num(survivor, "repair", "points", d.repair_points),
        heal_points=num(survivor, "heal", "points", d.heal_points),
        rescue_points=num(survivor, "rescue", "points", d.rescue_points),
        hit_health=num(monster, "hit", "health", d.hit_health),
        generators=num(grid, "generators", "number", d.generators),
        to_repair=num(grid, "generators", "to_repair", d.to_repair),
        repair_max=num(grid, "generators", "repair_max", d.repair_max),
        health=num(defaults, "health", "number", d.health),
    )


class IllegalAction(Exception):
    """An action whose cost or condition is not met; ``reason`` says which."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def survivor_energy_per_advance(survivors: int, pool: int = SURVIVOR_ENERGY_POOL) -> int:
    """Energy each Living Survivor gains at an Advance: 60 / number of Survivors, rounded down."""
    if survivors < 1:
        raise ValueError("an Advance needs at least one Survivor")
    return pool // survivors


def action_cost(role: str, action: str) -> int:
    table = SURVIVOR_ACTIONS if role == "survivor" else MONSTER_ACTIONS if role == "monster" else None
    if table is None or action not in table:
        raise ValueError(f"no {role} action {action!r}")
    return table[action]


# ---------------------------------------------------------------------------
# The grid
# ---------------------------------------------------------------------------


def parse_square(square: str) -> tuple[int, int]:
    """ "A5" -> (row index 0, column 5). Rows A-T top to bottom, columns 1-20 left to right."""
    if not isinstance(square, str) or len(square) < 2:
        raise ValueError(f"not a Square: {square!r}")
    row, col = square[0].upper(), square[1:]
    if (
        row not in ROW_LETTERS
        or not (col.isascii() and col.isdigit())
        or not 1 <= int(col) <= COLUMNS
        or col != str(int(col))
    ):
        raise ValueError(f"not a Square of the Trial Grounds (A1-{ROW_LETTERS[-1]}{COLUMNS}): {square!r}")
    return ROW_LETTERS.index(row), int(col)


def square_name(row: int, column: int) -> str:
    return f"{ROW_LETTERS[row]}{column}"


def all_squares() -> tuple[str, ...]:
    """Every Square, row by row (A1..A20, B1..T20)."""
    return _ALL_SQUARES


_ALL_SQUARES = tuple(square_name(r, c) for r in range(ROWS) for c in range(1, COLUMNS + 1))  # asked per page


def adjacent(a: str | None, b: str, diagonals: bool = True) -> bool:
    if a is None:  # no Location yet: next to nothing
        return False
    (r1, c1), (r2, c2) = parse_square(a), parse_square(b)
    dr, dc = abs(r1 - r2), abs(c1 - c2)
    if diagonals:
        return max(dr, dc) == 1
    return dr + dc == 1


def neighbours(square: str, diagonals: bool = True) -> tuple[str, ...]:
    r, c = parse_square(square)
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr, dc) == (0, 0) or (not diagonals and dr and dc):
                continue
            if 0 <= r + dr < ROWS and 1 <= c + dc <= COLUMNS:
                out.append(square_name(r + dr, c + dc))
    return tuple(out)


# ---------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------


class Status(str, Enum):
    HEALTHY = "Healthy"
    INJURED = "Injured"
    DYING = "Dying"
    CAGED = "Caged"
    DEAD = "Dead"
    ESCAPED = "Escaped"


class Readiness(str, Enum):
    READY = "Ready"
    UNREADY = "Unready"


@dataclass(frozen=True)
class Survivor:
    name: str
    energy: int = 0
    location: str | None = None
    health: int = DEFAULT_HEALTH
    status: Status | None = Status.HEALTHY  # None = blank
    points: int = 0
    readiness: Readiness = Readiness.UNREADY
    participated: bool = False  # took at least one Survivor Action

    @property
    def living(self) -> bool:
        return self.status is not None and self.status not in (Status.DEAD, Status.ESCAPED)

    @property
    def can_act(self) -> bool:
        return self.living and self.status != Status.CAGED


@dataclass(frozen=True)
class Monster:
    name: str = "Monster"
    energy: int = 0
    location: str | None = None


@dataclass(frozen=True)
class Generator:
    square: str
    progress: int = 0

    # Repaired or not depends on the trial's (possibly house-ruled) numbers:
    # ask Trial.is_repaired(generator).


@dataclass(frozen=True)
class Trial:
    monster: Monster = Monster()
    survivors: tuple[Survivor, ...] = ()
    generators: tuple[Generator, ...] | None = None  # None until the Monster places them
    hit_since_advance: frozenset[str] = frozenset()
    advancing: bool = False
    diagonals: bool = True
    numbers: Numbers = DEFAULT_NUMBERS

    def survivor(self, name: str) -> Survivor:
        for s in self.survivors:
            if s.name == name:
                return s
        raise IllegalAction(f"no Survivor named {name!r}")

    def inhabited(self) -> frozenset[str]:
        squares = {g.square for g in self.generators or ()}
        squares |= {s.location for s in self.survivors if s.location}
        if self.monster.location:
            squares.add(self.monster.location)
        return frozenset(squares)

    def uninhabited(self) -> tuple[str, ...]:
        taken = self.inhabited()
        return tuple(sq for sq in all_squares() if sq not in taken)

    def is_repaired(self, generator: Generator) -> bool:
        return generator.progress >= self.numbers.repair_max

    def repaired(self) -> int:
        return sum(1 for g in self.generators or () if self.is_repaired(g))


def new_trial(
    survivor_names: Sequence[str], monster: str = "Monster", diagonals: bool = True, numbers: Numbers = DEFAULT_NUMBERS
) -> Trial:
    if len(set(survivor_names)) != len(survivor_names):
        raise ValueError("Survivor names must be unique")
    if monster in survivor_names:
        raise ValueError("a Survivor may not share the Monster's name")
    # "When a Survivor's Health is at or below 0, their Status is immediately set to
    # Dead": a (house-rule) default Health of 0 or less starts the Survivor Dead.
    return Trial(
        Monster(monster),
        tuple(_set_health(Survivor(n), numbers.health) for n in survivor_names),
        diagonals=diagonals,
        numbers=numbers,
    )


def _with_survivor(trial: Trial, survivor: Survivor) -> Trial:
    return replace(trial, survivors=tuple(survivor if s.name == survivor.name else s for s in trial.survivors))


def status_at_health(health: int, status):
    """ "When a Survivor's Health is at or below 0, their Status is immediately set to
    Dead": every Survivor, a blank Status included. ``status`` (a Status, its text or
    None) is kept otherwise."""
    return Status.DEAD if health <= 0 else status


def _set_health(survivor: Survivor, health: int) -> Survivor:
    return replace(survivor, health=health, status=status_at_health(health, survivor.status))


def _check_square(square: str) -> str:
    try:
        parse_square(square)
    except ValueError as exc:
        raise IllegalAction(str(exc)) from None
    return square[0].upper() + square[1:]


# ---------------------------------------------------------------------------
# Set-up: Locations and Generators
# ---------------------------------------------------------------------------


def set_location(trial: Trial, who: str, square: str) -> Trial:
    """A Participant with a blank Location may set it to an uninhabited Square (free)."""
    square = _check_square(square)
    if square in trial.inhabited():
        raise IllegalAction(f"{square} is inhabited")
    if trial.advancing:
        # ST5: the Advance is atomic; a Survivor placing themselves mid-Advance
        # could dodge after seeing the Monster's moves. ST10: the Monster neither
        # (setting a Location is not one of the Advance's steps).
        raise IllegalAction("the Monster's Advance is under way (it is one atomic action)")
    if who == trial.monster.name:
        if trial.monster.location is not None:
            raise IllegalAction("the Monster's Location is not blank")
        return replace(trial, monster=replace(trial.monster, location=square))
    s = trial.survivor(who)
    if s.location is not None:
        raise IllegalAction(f"{who}'s Location is not blank")
    # "A Survivor whose status is Caged, Dead or Escaped may not take any dynastic actions."
    if s.status in (Status.CAGED, Status.DEAD, Status.ESCAPED):
        raise IllegalAction(f"{who} is {s.status.value}")
    return _with_survivor(trial, replace(s, location=square))


def location_choices(trial: Trial, who: str) -> tuple[str, ...]:
    """The Squares ``who`` may set their blank Location to now, in grid order: ``set_location``'s answer for
    every Square, asked once. Its one check on the Square is that it is uninhabited, so either every
    uninhabited Square is allowed or none is (a page asks this for all 400 Squares on every redraw)."""
    free = trial.uninhabited()
    if not free:
        return ()
    try:
        set_location(trial, who, free[0])
    except IllegalAction:
        return ()
    return free


def place_generators(trial: Trial, rng: random.Random) -> Trial:
    """The Monster randomly chooses seven uninhabited Squares for the Generators (once)."""
    if trial.generators is not None:
        raise IllegalAction("the Generators are already placed")
    squares = rng.sample(trial.uninhabited(), trial.numbers.generators)
    return replace(trial, generators=tuple(Generator(sq) for sq in squares))


# ---------------------------------------------------------------------------
# Survivors
# ---------------------------------------------------------------------------


def set_ready(trial: Trial, name: str) -> Trial:
    if trial.advancing:
        raise IllegalAction("the Monster's Advance is under way (it is one atomic action)")
    s = trial.survivor(name)
    if not s.living:
        raise IllegalAction(f"{name} is not Living")
    # "A Living Survivor with a Readiness of Unready may change their Readiness to Ready"
    if s.readiness == Readiness.READY:
        raise IllegalAction(f"{name} is already Ready")
    return _with_survivor(trial, replace(s, readiness=Readiness.READY))


def _survivor_pays(trial: Trial, name: str, action: str) -> Survivor:
    if trial.advancing:
        raise IllegalAction("no Survivor Action during the Monster's Advance")
    s = trial.survivor(name)
    if not s.can_act:
        raise IllegalAction(f"{name} is {s.status.value if s.status else 'without a Status'} and may not act")
    cost = trial.numbers.cost("survivor", action)
    if s.energy < cost:
        raise IllegalAction(f"{action} costs {cost} Energy, {name} has {s.energy}")
    if s.location is None and action != "move":
        raise IllegalAction(f"{name} has no Location")
    return replace(s, energy=s.energy - cost, readiness=Readiness.READY, participated=True)


def _adjacent_survivor(trial: Trial, actor_location: str | None, target: str) -> Survivor:
    t = trial.survivor(target)
    if actor_location is None or t.location is None or not adjacent(actor_location, t.location, trial.diagonals):
        raise IllegalAction(f"{target} is not adjacent")
    return t


def survivor_move(trial: Trial, name: str, square: str) -> Trial:
    """Move (1): to an uninhabited Square adjacent to your Location."""
    square = _check_square(square)
    s = _survivor_pays(trial, name, "move")
    if s.location is None:
        raise IllegalAction(f"{name} has no Location: set one first")
    if not adjacent(s.location, square, trial.diagonals):
        raise IllegalAction(f"{square} is not adjacent to {s.location}")
    if square in trial.inhabited():
        raise IllegalAction(f"{square} is inhabited")
    return _with_survivor(trial, replace(s, location=square))


def repair(trial: Trial, name: str, generator: str) -> Trial:
    """Repair (1): an Unrepaired Generator adjacent to you gets +1 Repair Progress; +1 Point."""
    generator = _check_square(generator)
    s = _survivor_pays(trial, name, "repair")
    gens = {g.square: g for g in trial.generators or ()}
    if generator not in gens:
        raise IllegalAction(f"no Generator on {generator}")
    g = gens[generator]
    if trial.is_repaired(g):
        raise IllegalAction(f"the Generator on {generator} is already Repaired")
    if not adjacent(s.location, generator, trial.diagonals):
        raise IllegalAction(f"the Generator on {generator} is not adjacent to {s.location}")
    n = trial.numbers
    new_g = replace(g, progress=min(g.progress + n.repair_progress, n.repair_max))
    trial = replace(trial, generators=tuple(new_g if x.square == generator else x for x in trial.generators or ()))
    return _with_survivor(trial, replace(s, points=s.points + n.repair_points))


def heal(trial: Trial, name: str, target: str) -> Trial:
    """Heal (5): an adjacent Survivor Dying -> Injured, else Injured -> Healthy; +2 Points."""
    s = _survivor_pays(trial, name, "heal")
    t = _adjacent_survivor(trial, s.location, target)
    if t.status == Status.DYING:
        t = replace(t, status=Status.INJURED)
    elif t.status == Status.INJURED:
        t = replace(t, status=Status.HEALTHY)
    trial = _with_survivor(trial, t)
    return _with_survivor(trial, replace(s, points=s.points + trial.numbers.heal_points))


def rescue(trial: Trial, name: str, target: str) -> Trial:
    """Rescue (5): an adjacent Caged Survivor becomes Injured; +2 Points."""
    s = _survivor_pays(trial, name, "rescue")
    t = _adjacent_survivor(trial, s.location, target)
    if t.status != Status.CAGED:
        raise IllegalAction(f"{target} is not Caged")
    trial = _with_survivor(trial, replace(t, status=Status.INJURED))
    return _with_survivor(trial, replace(s, points=s.points + trial.numbers.rescue_points))


def escape(trial: Trial, name: str, escape_cost: int = 0) -> Trial:
    """House reading (the text defines no escape): with five Generators Repaired, a
    Survivor who may act escapes: Status Escaped, Location blank."""
    if trial.advancing:
        raise IllegalAction("no Survivor Action during the Monster's Advance")
    s = trial.survivor(name)
    if not s.can_act:
        raise IllegalAction(f"{name} may not act")
    if trial.repaired() < trial.numbers.to_repair:
        raise IllegalAction(f"{trial.numbers.to_repair} Generators must be Repaired, {trial.repaired()} are")
    if s.energy < escape_cost:
        raise IllegalAction(f"escaping costs {escape_cost} Energy, {name} has {s.energy}")
    # Escaping is taking part in the trial: the escapee is in the winner's draw (ST9).
    return _with_survivor(
        trial, replace(s, energy=s.energy - escape_cost, status=Status.ESCAPED, location=None, participated=True)
    )


SURVIVOR_ACTION_FUNCTIONS = {"move": survivor_move, "repair": repair, "heal": heal, "rescue": rescue}


def survivor_action(trial: Trial, name: str, action: str, target: str) -> Trial:
    """Dispatch: ``target`` is a Square (move, repair) or a Survivor's name (heal, rescue)."""
    if action not in SURVIVOR_ACTION_FUNCTIONS:
        raise IllegalAction(f"no Survivor Action {action!r}")
    return SURVIVOR_ACTION_FUNCTIONS[action](trial, name, target)


def repeat_survivor_action(trial: Trial, name: str, action: str, target: str, times: int) -> tuple[Trial, ...]:
    """``times`` Survivor Actions in a row, each taken and checked as the one action it is ("A Living Survivor
    who is not Caged may, at any time, spend an amount of Energy defined by the Cost of a Survivor Action to
    take that action"): Repair x5 is five Repairs of 1 Energy each, each needing an adjacent Unrepaired
    Generator (3.5.2). Returns the state after each action, in order; all or nothing: if one of them is not
    allowed, IllegalAction says which and why, and none is taken."""
    if isinstance(times, bool) or not isinstance(times, int) or times < 1:
        raise IllegalAction(f"repeat an action 1 or more times, not {times!r}")
    states = []
    for i in range(1, times + 1):
        try:
            trial = survivor_action(trial, name, action, target)
        except IllegalAction as exc:
            if times == 1:
                raise
            raise IllegalAction(
                f"{action} {i} of {times} is not allowed: {exc.reason}; {i - 1} would be (nothing was done)"
            ) from None
        states.append(trial)
    return tuple(states)


def most_repeats(trial: Trial, name: str, action: str, target: str, up_to: int) -> int:
    """How many times in a row (at most ``up_to``) the Survivor may take this action now, each checked by the
    rules: what a "Repair xN" form offers."""
    count = 0
    while count < up_to:
        try:
            trial = survivor_action(trial, name, action, target)
        except (IllegalAction, ValueError):
            break
        count += 1
    return count


# ---------------------------------------------------------------------------
# The Monster and the Advance
# ---------------------------------------------------------------------------


def _monster_pays(trial: Trial, action: str) -> Monster:
    if not trial.advancing:
        raise IllegalAction("the Monster acts only during an Advance")
    cost = trial.numbers.cost("monster", action)
    if trial.monster.energy < cost:
        raise IllegalAction(f"{action} costs {cost} Energy, the Monster has {trial.monster.energy}")
    if trial.monster.location is None:
        raise IllegalAction("the Monster has no Location: set one first")
    return replace(trial.monster, energy=trial.monster.energy - cost)


def monster_move(trial: Trial, square: str) -> Trial:
    square = _check_square(square)
    m = _monster_pays(trial, "move")
    if not adjacent(m.location, square, trial.diagonals):
        raise IllegalAction(f"{square} is not adjacent to {m.location}")
    if square in trial.inhabited():
        raise IllegalAction(f"{square} is inhabited")
    return replace(trial, monster=replace(m, location=square))


def hit(trial: Trial, target: str) -> Trial:
    """Hit (3): adjacent Survivor Healthy -> Injured, else Injured -> Dying; Health -1;
    each Survivor at most once since the last Advance."""
    m = _monster_pays(trial, "hit")
    if target in trial.hit_since_advance:
        raise IllegalAction(f"{target} was already hit since the last Advance")
    t = _adjacent_survivor(trial, m.location, target)
    if t.status == Status.HEALTHY:
        t = replace(t, status=Status.INJURED)
    elif t.status == Status.INJURED:
        t = replace(t, status=Status.DYING)
    t = _set_health(t, t.health - trial.numbers.hit_health)
    trial = _with_survivor(replace(trial, monster=m, hit_since_advance=trial.hit_since_advance | {target}), t)
    return trial


def cage(trial: Trial, target: str, rng: random.Random) -> Trial:
    """Cage (3): an adjacent Dying Survivor becomes Caged, moved to a random uninhabited Square."""
    m = _monster_pays(trial, "cage")
    t = _adjacent_survivor(trial, m.location, target)
    if t.status != Status.DYING:
        raise IllegalAction(f"{target} is not Dying")
    trial = replace(trial, monster=m)
    square = rng.choice(trial.uninhabited())
    return _with_survivor(trial, replace(t, status=Status.CAGED, location=square))


@dataclass(frozen=True)
class MonsterAction:
    action: str  # "move", "hit", "cage"
    target: str  # a Square (move) or a Survivor's name


def monster_action(trial: Trial, act: MonsterAction, rng: random.Random) -> Trial:
    if act.action == "move":
        return monster_move(trial, act.target)
    if act.action == "hit":
        return hit(trial, act.target)
    if act.action == "cage":
        return cage(trial, act.target, rng)
    raise IllegalAction(f"no Monster Action {act.action!r}")


def all_ready(trial: Trial) -> bool:
    return all(s.readiness == Readiness.READY for s in trial.survivors if s.living)


def begin_advance(trial: Trial) -> Trial:
    """Advance steps 1-2: Monster +15 Energy; each Living Survivor + 60 // Survivors."""
    if trial.advancing:
        raise IllegalAction("an Advance is already under way")
    if is_over(trial):
        raise IllegalAction("the trial is over")
    if not all_ready(trial):
        waiting = ", ".join(s.name for s in trial.survivors if s.living and s.readiness != Readiness.READY)
        raise IllegalAction(f"not every Living Survivor is Ready: {waiting}")
    counted = sum(1 for s in trial.survivors if s.status is not None)
    # No Survivor with a Status means no Living Survivor to feed (ST11): no 60 / 0.
    gain = survivor_energy_per_advance(counted, trial.numbers.survivor_energy_pool) if counted else 0
    survivors = tuple(replace(s, energy=s.energy + gain) if s.living else s for s in trial.survivors)
    monster = replace(trial.monster, energy=trial.monster.energy + trial.numbers.monster_energy)
    return replace(trial, monster=monster, survivors=survivors, advancing=True)


def end_advance(trial: Trial) -> Trial:
    """Advance steps 4-6: Caged -10 Health, Dying -2 Health, everyone Unready."""
    if not trial.advancing:
        raise IllegalAction("no Advance under way")
    survivors = []
    for s in trial.survivors:
        if s.status == Status.CAGED:
            s = _set_health(s, s.health - trial.numbers.caged_health_loss)
        elif s.status == Status.DYING:
            s = _set_health(s, s.health - trial.numbers.dying_health_loss)
        survivors.append(replace(s, readiness=Readiness.UNREADY))
    return replace(trial, survivors=tuple(survivors), advancing=False, hit_since_advance=frozenset())


def advance(trial: Trial, actions: Sequence[MonsterAction], rng: random.Random) -> Trial:
    """The whole atomic Advance; any illegal Monster Action raises and nothing changes."""
    trial = begin_advance(trial)
    for act in actions:
        trial = monster_action(trial, act, rng)
    return end_advance(trial)


# ---------------------------------------------------------------------------
# The end
# ---------------------------------------------------------------------------


def _in_game(trial: Trial) -> tuple[Survivor, ...]:
    return tuple(s for s in trial.survivors if s.status is not None)


def is_over(trial: Trial) -> bool:
    """Over when every Survivor is Dead or Escaped (no Living Survivor left)."""
    survivors = _in_game(trial)
    return bool(survivors) and not any(s.living for s in survivors)


def monster_wins(trial: Trial) -> bool:
    survivors = _in_game(trial)
    return bool(survivors) and all(s.status == Status.DEAD for s in survivors)


def winner_odds(trial: Trial) -> dict[str, Fraction]:
    """Exact chance of each possible winner once the trial is over."""
    if not is_over(trial):
        raise IllegalAction("the trial is not over")
    if monster_wins(trial):
        return {trial.monster.name: Fraction(1)}
    pool = [s for s in trial.survivors if s.participated]
    if not pool:
        return {}
    total = sum(s.points for s in pool)
    if total == 0:
        return {s.name: Fraction(1, len(pool)) for s in pool}
    return {s.name: Fraction(s.points, total) for s in pool if s.points}


def draw_winner(trial: Trial, rng: random.Random) -> str | None:
    """The winner: the Monster if every Survivor is dead, else a Survivor drawn at
    random weighted by Points (one ``rng.randrange`` over the Points, Survivors in
    the trial's order). None if no Survivor ever took part."""
    odds = winner_odds(trial)
    if not odds:
        return None
    if monster_wins(trial):
        return trial.monster.name
    names = list(odds)
    pool = [s for s in trial.survivors if s.name in odds]
    total = sum(s.points for s in pool)
    if total == 0:
        return names[rng.randrange(len(names))]
    pick = rng.randrange(total)
    for s in pool:
        if pick < s.points:
            return s.name
        pick -= s.points
    raise AssertionError("unreachable")  # pragma: no cover
