"""The Slasher trial (slasher-trial.txt): grid, Energy, actions, Advance, the end."""

import json
import random
import re
from dataclasses import replace
from fractions import Fraction as F

import pytest

from rules import slasher_trial as sl
from rules.slasher_trial import IllegalAction, MonsterAction, Readiness, Status


def _trial(**survivors):
    """Monster on J10; survivors placed on the given squares."""
    t = sl.new_trial(list(survivors))
    t = sl.set_location(t, "Monster", "J10")
    for name, sq in survivors.items():
        t = sl.set_location(t, name, sq)
    return t


def _energy(t, name, e):
    return sl._with_survivor(t, replace(t.survivor(name), energy=e))


def _status(t, name, status, **kw):
    return sl._with_survivor(t, replace(t.survivor(name), status=status, **kw))


def _ready_all(t):
    for s in t.survivors:
        if s.living:
            t = sl.set_ready(t, s.name)
    return t


# --- Grid --------------------------------------------------------------------------------


def test_squares():
    assert sl.parse_square("A1") == (0, 1) and sl.parse_square("T20") == (19, 20) and sl.parse_square("A5") == (0, 5)
    assert len(sl.all_squares()) == 400 and sl.all_squares()[:2] == ("A1", "A2") and sl.all_squares()[-1] == "T20"
    for bad in ("U1", "A21", "A0", "A05", "5A", ""):
        with pytest.raises(ValueError):
            sl.parse_square(bad)


def test_adjacency_with_and_without_diagonals():
    assert sl.adjacent("B2", "C3") and not sl.adjacent("B2", "C3", diagonals=False)
    assert sl.adjacent("B2", "B3", diagonals=False) and not sl.adjacent("B2", "B4") and not sl.adjacent("B2", "B2")
    assert len(sl.neighbours("A1")) == 3 and len(sl.neighbours("A1", diagonals=False)) == 2
    assert len(sl.neighbours("J10")) == 8 and len(sl.neighbours("T20", diagonals=False)) == 2


# --- Energy --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "survivors, energy", [(1, 60), (2, 30), (3, 20), (4, 15), (5, 12), (6, 10), (7, 8), (8, 7), (13, 4)]
)
def test_energy_per_advance_rounded_down(survivors, energy):
    assert sl.survivor_energy_per_advance(survivors) == energy == 60 // survivors
    assert sl.MONSTER_ENERGY_PER_ADVANCE == 15


def test_advance_counts_every_survivor_with_a_status_but_feeds_only_the_living():
    t = _trial(a="A1", b="A3", c="A5", d="A7")
    t = _status(t, "d", Status.DEAD, health=0)
    t = sl.begin_advance(_ready_all(t))
    assert [s.energy for s in t.survivors] == [15, 15, 15, 0]  # 60 / 4, the Dead one counted but not fed
    assert t.monster.energy == 15


def test_costs():
    assert [sl.action_cost("survivor", a) for a in ("move", "repair", "heal", "rescue")] == [1, 1, 5, 5]
    assert [sl.action_cost("monster", a) for a in ("move", "hit", "cage")] == [1, 3, 3]


# --- Generators -------------------------------------------------------------------------------


def test_seeded_generators_on_seven_uninhabited_squares():
    t = _trial(a="A1")
    g1 = sl.place_generators(t, random.Random(5))
    squares = [g.square for g in g1.generators]
    assert len(set(squares)) == 7 and not {"A1", "J10"} & set(squares)
    assert g1 == sl.place_generators(t, random.Random(5))
    with pytest.raises(IllegalAction):
        sl.place_generators(g1, random.Random(5))


# --- Survivor actions -------------------------------------------------------------------------


def test_move_and_readiness():
    t = _energy(_trial(a="A1", b="A3"), "a", 2)
    t = sl.survivor_move(t, "a", "B2")  # diagonal
    s = t.survivor("a")
    assert s.location == "B2" and s.energy == 1 and s.readiness == Readiness.READY and s.participated
    with pytest.raises(IllegalAction, match="inhabited"):
        sl.survivor_move(t, "a", "A3")
    with pytest.raises(IllegalAction, match="adjacent"):
        sl.survivor_move(t, "a", "D4")
    t = sl.survivor_move(t, "a", "B3")
    with pytest.raises(IllegalAction, match="Energy"):
        sl.survivor_move(t, "a", "B4")


def test_orthogonal_option():
    t = replace(_energy(_trial(a="A1"), "a", 5), diagonals=False)
    with pytest.raises(IllegalAction):
        sl.survivor_move(t, "a", "B2")
    assert sl.survivor_move(t, "a", "B1").survivor("a").location == "B1"


def test_repair():
    t = replace(_energy(_trial(a="A1"), "a", 3), generators=(sl.Generator("A2", 99), sl.Generator("C3")))
    with pytest.raises(IllegalAction, match="not adjacent"):
        sl.repair(t, "a", "C3")
    t = sl.repair(t, "a", "A2")
    assert t.generators[0].progress == 100 and t.is_repaired(t.generators[0]) and t.survivor("a").points == 1
    with pytest.raises(IllegalAction, match="Repaired"):
        sl.repair(t, "a", "A2")
    with pytest.raises(IllegalAction, match="no Generator"):
        sl.repair(t, "a", "B1")


def test_repair_times_n_is_n_repairs_each_checked():
    """3.5.2 Repair, "Cost: 1 ... Increase the Repair Progress of an Unrepaired Generator adjacent to your
    Location by 1 and increase your Points by 1"; 3.5: a Survivor "may, at any time, spend an amount of Energy
    defined by the Cost of a Survivor Action to take that action". Repair x N is N such actions."""
    t = replace(_energy(_trial(a="A1"), "a", 40), generators=(sl.Generator("A2", 70), sl.Generator("C3")))
    states = sl.repeat_survivor_action(t, "a", "repair", "A2", 25)
    assert len(states) == 25
    assert [s.generators[0].progress for s in states] == list(range(71, 96))
    assert [s.survivor("a").energy for s in states] == list(range(39, 14, -1))
    assert states[-1].survivor("a").points == 25 and states[-1].survivor("a").readiness == Readiness.READY
    # the same as 25 single Repairs
    one_by_one = t
    for _ in range(25):
        one_by_one = sl.repair(one_by_one, "a", "A2")
    assert one_by_one == states[-1]
    # the Generator is Repaired after 30: the 31st Repair is refused, and so is the whole request
    with pytest.raises(
        IllegalAction,
        match=r"repair 31 of 35 is not allowed: the Generator on A2 is already "
        r"Repaired; 30 would be \(nothing was done\)",
    ):
        sl.repeat_survivor_action(t, "a", "repair", "A2", 35)
    assert sl.most_repeats(t, "a", "repair", "A2", 100) == 30
    # Energy runs out: 40 Energy, 40 Repairs at most
    poor = replace(t, generators=(sl.Generator("A2", 0),))
    with pytest.raises(IllegalAction, match=r"repair 41 of 50 is not allowed: repair costs 1 Energy, a has 0"):
        sl.repeat_survivor_action(poor, "a", "repair", "A2", 50)
    assert sl.most_repeats(poor, "a", "repair", "A2", 100) == 40
    assert sl.most_repeats(t, "a", "repair", "C3", 100) == 0  # not adjacent
    for bad in (0, -1, True, "3"):
        with pytest.raises(IllegalAction, match="1 or more times"):
            sl.repeat_survivor_action(t, "a", "repair", "A2", bad)


def test_heal_dying_to_injured_to_healthy_plus_two_points():
    t = _energy(_trial(a="A1", b="A2"), "a", 15)
    t = _status(t, "b", Status.DYING)
    t = sl.heal(t, "a", "b")
    assert t.survivor("b").status == Status.INJURED and t.survivor("a").points == 2 and t.survivor("a").energy == 10
    t = sl.heal(t, "a", "b")
    assert t.survivor("b").status == Status.HEALTHY
    t = sl.heal(t, "a", "b")  # as written: no Status change, the 2 Points still come
    assert t.survivor("b").status == Status.HEALTHY and t.survivor("a").points == 6 and t.survivor("a").energy == 0


def test_rescue_needs_a_caged_neighbour():
    t = _energy(_trial(a="A1", b="A2", c="E5"), "a", 10)
    with pytest.raises(IllegalAction, match="not Caged"):
        sl.rescue(t, "a", "b")
    with pytest.raises(IllegalAction, match="not adjacent"):
        sl.rescue(_status(t, "c", Status.CAGED), "a", "c")
    t = sl.rescue(_status(t, "b", Status.CAGED), "a", "b")
    assert t.survivor("b").status == Status.INJURED and t.survivor("a").points == 2


def test_caged_dead_escaped_may_not_act_but_caged_may_ready():
    t = _energy(_trial(a="A1"), "a", 5)
    for status in (Status.CAGED, Status.DEAD, Status.ESCAPED):
        with pytest.raises(IllegalAction, match="may not act"):
            sl.survivor_move(_status(t, "a", status), "a", "A2")
    assert sl.set_ready(_status(t, "a", Status.CAGED), "a").survivor("a").readiness == Readiness.READY
    with pytest.raises(IllegalAction):
        sl.set_ready(_status(t, "a", Status.DEAD), "a")
    # Dying Survivors are Living and not Caged: they may act.
    assert sl.survivor_move(_status(t, "a", Status.DYING), "a", "A2").survivor("a").location == "A2"


# --- The Monster and the Advance -------------------------------------------------------------


def test_monster_acts_only_inside_an_advance():
    t = _trial(a="J11")
    with pytest.raises(IllegalAction, match="only during an Advance"):
        sl.hit(replace(t, monster=replace(t.monster, energy=10)), "a")


def test_advance_needs_everyone_ready():
    t = _trial(a="A1", b="A3")
    with pytest.raises(IllegalAction, match="Ready"):
        sl.begin_advance(sl.set_ready(t, "a"))


def test_hit_twice_then_cage_then_health_loss():
    t = _ready_all(_trial(a="J11", b="A1"))
    t = sl.begin_advance(t)  # Monster 15 Energy
    t = sl.hit(t, "a")
    assert t.survivor("a").status == Status.INJURED and t.survivor("a").health == 99 and t.monster.energy == 12
    with pytest.raises(IllegalAction, match="already hit"):
        sl.hit(t, "a")
    with pytest.raises(IllegalAction, match="not adjacent"):
        sl.hit(t, "b")
    t = sl.end_advance(t)
    assert all(s.readiness == Readiness.UNREADY for s in t.survivors) and t.hit_since_advance == frozenset()
    t = sl.begin_advance(_ready_all(t))
    t = sl.hit(t, "a")  # a new Advance: may target a again
    assert t.survivor("a").status == Status.DYING and t.survivor("a").health == 98
    before = t.uninhabited()
    t = sl.cage(t, "a", random.Random(4))
    a = t.survivor("a")
    assert a.status == Status.CAGED and a.location in before
    assert t.monster.energy == 15 + 12 - 3 - 3
    t = sl.end_advance(t)
    assert t.survivor("a").health == 88  # Caged: -10


def test_cage_needs_dying_and_dying_loses_two():
    t = sl.begin_advance(_ready_all(_trial(a="J11")))
    with pytest.raises(IllegalAction, match="not Dying"):
        sl.cage(t, "a", random.Random(0))
    t = sl.end_advance(_status(t, "a", Status.DYING))
    assert t.survivor("a").health == 98


def test_advance_is_atomic_and_seeded():
    t = _ready_all(_trial(a="J11"))
    t = _status(t, "a", Status.INJURED)
    with pytest.raises(IllegalAction):
        sl.advance(t, [MonsterAction("hit", "a"), MonsterAction("hit", "a")], random.Random(1))
    acts = [MonsterAction("hit", "a"), MonsterAction("cage", "a")]
    done = sl.advance(t, acts, random.Random(1))
    assert done == sl.advance(t, acts, random.Random(1))
    assert done.survivor("a").status == Status.CAGED and done.survivor("a").health == 89  # -1 hit, -10 caged


def test_dead_at_or_below_zero():
    t = sl.begin_advance(_ready_all(_status(_trial(a="J11"), "a", Status.CAGED, health=10)))
    t = sl.end_advance(t)
    assert t.survivor("a").health == 0 and t.survivor("a").status == Status.DEAD
    t = sl.begin_advance(_ready_all(_status(_trial(a="J11", b="A1"), "a", Status.INJURED, health=1)))
    t = sl.hit(t, "a")
    assert t.survivor("a").status == Status.DEAD and t.survivor("a").health == 0


# --- Escape and the end ---------------------------------------------------------------------


def test_escape_needs_five_repaired_generators():
    gens = tuple(
        sl.Generator(sq, 100 if i < 4 else 0) for i, sq in enumerate(("C1", "C3", "C5", "C7", "C9", "C11", "C13"))
    )
    t = replace(_trial(a="A1"), generators=gens)
    with pytest.raises(IllegalAction, match="5 Generators"):
        sl.escape(t, "a")
    t = replace(t, generators=(replace(gens[4], progress=100),) + gens[:4] + gens[5:])
    t = sl.escape(t, "a")
    assert t.survivor("a").status == Status.ESCAPED and t.survivor("a").location is None


def test_monster_wins_when_every_survivor_is_dead():
    t = _status(_status(_trial(a="A1", b="A3"), "a", Status.DEAD, health=0), "b", Status.DEAD, health=-2)
    assert sl.is_over(t) and sl.monster_wins(t)
    assert sl.winner_odds(t) == {"Monster": F(1)} and sl.draw_winner(t, random.Random(0)) == "Monster"


def test_winner_weighted_by_points_among_those_who_took_part():
    t = _trial(a="A1", b="A3", c="A5", d="A7")
    t = _status(t, "a", Status.DEAD, health=0, points=3, participated=True)
    t = _status(t, "b", Status.ESCAPED, location=None, points=1, participated=True)
    t = _status(t, "c", Status.ESCAPED, location=None, points=0, participated=True)
    t = _status(t, "d", Status.ESCAPED, location=None, points=0)
    assert sl.is_over(t) and not sl.monster_wins(t)
    assert sl.winner_odds(t) == {"a": F(3, 4), "b": F(1, 4)}


class _Every:
    """A stand-in rng whose randrange returns a fixed value: enumerate every pick."""

    def __init__(self, value):
        self.value = value

    def randrange(self, n):
        assert 0 <= self.value < n
        return self.value


def test_draw_winner_brute_force_and_seeded():
    t = _trial(a="A1", b="A3", c="A5")
    t = _status(t, "a", Status.ESCAPED, points=5, participated=True)
    t = _status(t, "b", Status.DEAD, health=0, points=2, participated=True)
    t = _status(t, "c", Status.ESCAPED, points=3, participated=True)
    counts = {}
    for pick in range(10):
        w = sl.draw_winner(t, _Every(pick))
        counts[w] = counts.get(w, 0) + 1
    assert counts == {"a": 5, "b": 2, "c": 3}
    assert {k: F(v, 10) for k, v in counts.items()} == sl.winner_odds(t)
    assert sl.draw_winner(t, random.Random(3)) == sl.draw_winner(t, random.Random(3))


def test_all_zero_points_draws_evenly_among_participants():
    t = _status(
        _status(_trial(a="A1", b="A3"), "a", Status.ESCAPED, participated=True),
        "b",
        Status.DEAD,
        health=0,
        participated=True,
    )
    assert sl.winner_odds(t) == {"a": F(1, 2), "b": F(1, 2)}


def test_catalogue():
    data = json.loads(sl.CATALOGUE.read_text(encoding="utf-8"))
    assert (data["system"], data["edition"], data["source"]) == ("slasher-trial", "1", "slasher-trial.txt")
    assert {a["slug"]: a["cost"] for a in data["survivor_actions"]} == {"move": 1, "repair": 1, "heal": 5, "rescue": 5}
    assert {a["slug"]: a["cost"] for a in data["monster_actions"]} == {"move": 1, "hit": 3, "cage": 3}
    for value in data.values():
        if isinstance(value, list):
            for entry in value:
                assert entry["slug"] == re.sub(r"[^a-z0-9]+", "-", entry["name"].lower()).strip("-") and entry["text"]


# --- Numbers passed by the pages (trials app): house rules reach the engine ---


def _catalogue_sections():
    data = json.loads(sl.CATALOGUE.read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if isinstance(v, list)}


def test_numbers_from_the_data_file_are_the_defaults():
    assert sl.numbers_from_entries(_catalogue_sections()) == sl.DEFAULT_NUMBERS
    assert sl.numbers_from_entries({}) == sl.DEFAULT_NUMBERS
    n = sl.DEFAULT_NUMBERS
    assert (n.monster_energy, n.survivor_energy_pool, n.caged_health_loss, n.dying_health_loss) == (15, 60, 10, 2)
    assert [n.cost("survivor", a) for a in ("move", "repair", "heal", "rescue")] == [1, 1, 5, 5]
    assert [n.cost("monster", a) for a in ("move", "hit", "cage")] == [1, 3, 3]
    assert (n.generators, n.to_repair, n.repair_max, n.health) == (7, 5, 100, 100)
    with pytest.raises(ValueError):
        n.cost("monster", "heal")


def test_house_rule_entries_change_what_the_engine_does():
    sections = _catalogue_sections()
    # A later entry with the same slug (a house rule) wins.
    sections["survivor_actions"] = sections["survivor_actions"] + [{"slug": "move", "cost": 2}]
    sections["advance"] = sections["advance"] + [
        {"slug": "monster-energy", "number": 20},
        {"slug": "survivor-energy", "number": 30},
    ]
    sections["grid"] = sections["grid"] + [{"slug": "generators", "number": 3, "to_repair": 1, "repair_max": 2}]
    n = sl.numbers_from_entries(sections)
    trial = sl.new_trial(["ann", "bob"], numbers=n)
    trial = sl.set_location(sl.set_location(trial, "ann", "J10"), "Monster", "A1")
    trial = sl.place_generators(trial, random.Random(1))
    assert len(trial.generators) == 3
    trial = sl.set_ready(sl.set_ready(trial, "ann"), "bob")
    trial = sl.end_advance(sl.begin_advance(trial))
    assert trial.monster.energy == 20 and trial.survivor("ann").energy == 15  # 30 // 2
    trial = sl.survivor_move(trial, "ann", "J11")
    assert trial.survivor("ann").energy == 13
    # one Repair of 1 of a 2-progress Generator; escaping needs 1 Repaired
    gen = sl.Generator("J12", 1)
    trial = replace(trial, generators=(gen,) + trial.generators[1:])
    trial = sl.repair(trial, "ann", "J12")
    assert trial.is_repaired(trial.generators[0]) and trial.repaired() == 1
    assert sl.escape(trial, "ann").survivor("ann").status == Status.ESCAPED


def test_no_readiness_change_inside_the_atomic_advance():
    trial = sl.set_ready(sl.new_trial(["ann"]), "ann")
    trial = sl.begin_advance(trial)
    with pytest.raises(IllegalAction, match="Advance is under way"):
        sl.set_ready(trial, "ann")
    assert sl.set_ready(sl.end_advance(trial), "ann").survivor("ann").readiness == Readiness.READY


def test_no_survivor_places_themselves_inside_the_atomic_advance():
    # "Advance, which is an atomic action" (ST5): a blank Location cannot be set mid-Advance.
    trial = sl.set_ready(sl.set_location(sl.new_trial(["ann", "zed"]), "ann", "A1"), "ann")
    trial = sl.set_ready(trial, "zed")
    trial = sl.set_location(trial, trial.monster.name, "J10")
    trial = sl.begin_advance(trial)
    with pytest.raises(IllegalAction, match="Advance is under way"):
        sl.set_location(trial, "zed", "T20")
    assert sl.set_location(sl.end_advance(trial), "zed", "T20").survivor("zed").location == "T20"


def test_an_escapee_is_in_the_winners_draw_even_without_another_action():
    # "the winner is randomly picked from among every Survivor who participated" (ST9).
    gens = tuple(sl.Generator(sq, 100) for sq in ("C1", "C3", "C5", "C7", "C9", "C11", "C13"))
    t = replace(_trial(a="A1", b="A3"), generators=gens)
    t = _status(sl.escape(t, "a"), "b", Status.DEAD, health=0)
    assert t.survivor("a").participated
    assert sl.is_over(t) and sl.winner_odds(t) == {"a": F(1)}


# --- Audit against the text (slasher-trial.txt), edge cases ------------------------------


def test_the_grid_corners_and_edges():
    # "a 20x20 grid of squares ... columns numbered ... starting from 1 ... rows labeled ... starting from A"
    assert set(sl.neighbours("A1")) == {"A2", "B1", "B2"} and set(sl.neighbours("T20")) == {"S19", "S20", "T19"}
    assert set(sl.neighbours("A20", diagonals=False)) == {"A19", "B20"} and len(sl.neighbours("J1")) == 5
    t = _energy(_trial(a="T20"), "a", 5)
    for off_grid in ("U20", "T21", "U21"):
        with pytest.raises(IllegalAction, match="not a Square"):
            sl.survivor_move(t, "a", off_grid)
    assert sl.survivor_move(t, "a", "s19").survivor("a").location == "S19"


def test_a_square_is_written_with_plain_digits():
    # "{row}{column}, e.g. "A5"": other digit characters are not a Square (and say so).
    for bad in ("A\u00b2", "A\u0661", "A\uff11"):
        with pytest.raises(ValueError, match="not a Square of the Trial Grounds"):
            sl.parse_square(bad)


def test_exact_energy_for_each_cost():
    # "spend an amount of Energy defined by the Cost": exactly the Cost is enough, one less is not.
    t = replace(_trial(a="A1", b="A2"), generators=(sl.Generator("B1"),))
    for action, cost, target in (("move", 1, "B2"), ("repair", 1, "B1"), ("heal", 5, "b")):
        assert sl.survivor_action(_energy(t, "a", cost), "a", action, target).survivor("a").energy == 0
        with pytest.raises(IllegalAction, match=f"costs {cost} Energy, a has {cost - 1}"):
            sl.survivor_action(_energy(t, "a", cost - 1), "a", action, target)
    caged = _energy(_status(t, "b", Status.CAGED), "a", 5)
    assert sl.rescue(caged, "a", "b").survivor("a").energy == 0
    with pytest.raises(IllegalAction, match="costs 5 Energy, a has 4"):
        sl.rescue(_energy(caged, "a", 4), "a", "b")
    # The Monster: Hit and Cage cost 3, Move 1.
    m = sl.begin_advance(_ready_all(_trial(c="J11")))
    m = replace(m, monster=replace(m.monster, energy=3))
    assert sl.hit(m, "c").monster.energy == 0
    with pytest.raises(IllegalAction, match="hit costs 3 Energy, the Monster has 2"):
        sl.hit(replace(m, monster=replace(m.monster, energy=2)), "c")


def test_only_an_unready_survivor_becomes_ready():
    # "A Living Survivor with a Readiness of Unready may change their Readiness to Ready"
    t = sl.set_ready(_trial(a="A1"), "a")
    with pytest.raises(IllegalAction, match="already Ready"):
        sl.set_ready(t, "a")


def test_health_at_or_below_zero_is_dead_for_every_survivor():
    # "When a Survivor's Health is at or below 0, their Status is immediately set to Dead."
    t = _status(_trial(a="J11", b="A1"), "a", None, health=1)
    t = replace(t, advancing=True, monster=replace(t.monster, energy=3))
    assert sl.hit(t, "a").survivor("a").status == Status.DEAD  # a blank Status too
    n = replace(sl.DEFAULT_NUMBERS, health=0)  # a house-rule default Health of 0
    assert [s.status for s in sl.new_trial(["a", "b"], numbers=n).survivors] == [Status.DEAD, Status.DEAD]


def test_an_advance_with_no_survivor_counted_feeds_nobody():
    # "Increase the Energy of all Living Survivors according to the formula (60 / # of Survivors)":
    # with no Survivor with a Status there is no Living Survivor and no 60 / 0 (ST11).
    t = sl.begin_advance(sl.new_trial([]))
    assert t.monster.energy == 15 and t.advancing
    t = sl.begin_advance(_status(sl.new_trial(["a"]), "a", None))
    assert t.survivor("a").energy == 0 and t.monster.energy == 15


def test_caged_survivors_are_counted_and_fed():
    # Caged is Living (not Dead, Escaped or blank): counted in "# of Survivors" and fed.
    t = _status(_trial(a="A1", b="A3", c="A5"), "b", Status.CAGED)
    t = sl.begin_advance(_ready_all(t))
    assert [s.energy for s in t.survivors] == [20, 20, 20]


def test_a_caged_survivor_sets_no_location():
    # "A Survivor whose status is Caged, Dead or Escaped may not take any dynastic actions."
    t = sl.new_trial(["a"])
    for status in (Status.CAGED, Status.DEAD, Status.ESCAPED):
        with pytest.raises(IllegalAction, match=status.value):
            sl.set_location(_status(t, "a", status), "a", "B2")
    assert sl.set_location(_status(t, "a", Status.DYING), "a", "B2").survivor("a").location == "B2"


def _allowed_one_by_one(t, who):
    def ok(square):
        try:
            sl.set_location(t, who, square)
        except IllegalAction:
            return False
        return True

    return tuple(sq for sq in sl.all_squares() if ok(sq))


def test_location_choices_are_set_locations_answer_square_by_square():
    blank = sl.place_generators(sl.new_trial(["a", "b"]), random.Random(3))
    free = blank.uninhabited()  # the Generators landed at random
    placed = sl.set_location(sl.set_location(blank, "a", free[0]), "Monster", free[1])
    advancing = sl.begin_advance(sl.set_ready(sl.set_ready(sl.set_location(placed, "b", free[2]), "a"), "b"))
    cases = [
        (blank, "a"),
        (blank, "Monster"),
        (placed, "a"),  # not blank
        (placed, "b"),
        (placed, "Monster"),
        (_status(placed, "b", Status.CAGED), "b"),
        (_status(placed, "b", Status.DYING), "b"),
        (_status(advancing, "a", Status.HEALTHY, location=None), "a"),  # the Advance is under way
    ]
    for t, who in cases:
        assert sl.location_choices(t, who) == _allowed_one_by_one(t, who), who
    assert len(sl.location_choices(placed, "b")) == 400 - 7 - 2


def test_the_monster_sets_no_location_inside_the_atomic_advance():
    # "Advance, which is an atomic action with the following steps" (ST10): setting a Location is no step.
    t = sl.begin_advance(sl.set_ready(sl.set_location(sl.new_trial(["a"]), "a", "A1"), "a"))
    with pytest.raises(IllegalAction, match="Advance is under way"):
        sl.set_location(t, "Monster", "B5")
    assert sl.set_location(sl.end_advance(t), "Monster", "B5").monster.location == "B5"


def test_a_survivor_may_not_be_named_like_the_monster():
    with pytest.raises(ValueError, match="Monster's name"):
        sl.new_trial(["Monster"])


def test_the_order_within_an_advance():
    # "- Increase their Energy by 15 - Increase the Energy of all Living Survivors ...
    #  - Perform any legal sequence of Monster Actions - Reduce ... Caged by 10
    #  - Reduce ... Dying by 2 - Set the Readiness of all Survivors to Unready"
    t = _status(_trial(a="J11", b="J9", c="A1"), "a", Status.INJURED)
    t = _ready_all(t)
    t = sl.begin_advance(t)
    assert [s.energy for s in t.survivors] == [20, 20, 20]  # fed before the Monster acts
    t = sl.hit(t, "a")  # Injured -> Dying in this Advance: loses 2 at its end
    t = sl.hit(t, "b")  # Healthy -> Injured: no loss at the end
    t = sl.end_advance(t)
    assert [(s.status, s.health) for s in t.survivors] == [
        (Status.DYING, 97),
        (Status.INJURED, 99),
        (Status.HEALTHY, 100),
    ]
    assert {s.readiness for s in t.survivors} == {Readiness.UNREADY} and t.monster.energy == 15 - 6


def test_the_last_generators():
    # "repair five of the seven Generators"; Repair only "if a Square adjacent ... contains an
    # Unrepaired Generator"; Repair Progress "may not exceed 100".
    squares = ("B2", "C1", "C5", "C7", "C9", "C11", "C13")
    gens = tuple(sl.Generator(sq, 100 if i >= 3 else 99) for i, sq in enumerate(squares))
    t = _energy(replace(_trial(a="A1", b="A3"), generators=gens), "a", 5)
    t = replace(t, generators=(replace(gens[0], progress=99),) + gens[1:])
    assert t.repaired() == 4
    with pytest.raises(IllegalAction, match="5 Generators must be Repaired, 4 are"):
        sl.escape(t, "b")
    t = sl.repair(t, "a", "B2")  # the fifth: 99 -> 100
    assert t.repaired() == 5 and t.generators[0].progress == 100
    with pytest.raises(IllegalAction, match="already Repaired"):
        sl.repair(t, "a", "B2")
    assert sl.escape(t, "b").survivor("b").status == Status.ESCAPED


def test_the_last_survivor():
    # "repeat until everyone is either dead or has escaped"; a Caged Survivor is still Living.
    t = _status(_status(_trial(a="A1", b="A3"), "a", Status.DEAD, health=0), "b", Status.CAGED, health=10)
    assert not sl.is_over(t)
    t = sl.end_advance(sl.begin_advance(_ready_all(t)))
    assert t.survivor("b").status == Status.DEAD and sl.is_over(t) and sl.monster_wins(t)
    # One Survivor Escaped, the other Dead: not "everyone is dead", so a draw among those who took part.
    t = _status(t, "b", Status.ESCAPED, health=10, location=None, participated=True)
    assert sl.is_over(t) and not sl.monster_wins(t) and sl.winner_odds(t) == {"b": F(1)}


def test_a_tie_on_points_is_an_even_draw():
    # "weighted by Points gained": equal Points, equal chances.
    t = _trial(a="A1", b="A3", c="A5")
    for name in ("a", "b", "c"):
        t = _status(t, name, Status.ESCAPED, location=None, points=4, participated=True)
    assert sl.winner_odds(t) == {"a": F(1, 3), "b": F(1, 3), "c": F(1, 3)}
    assert [sl.draw_winner(t, _Every(p)) for p in range(12)] == ["a"] * 4 + ["b"] * 4 + ["c"] * 4


def test_heal_and_hit_reach_a_dead_neighbour_as_written():
    # T3 and ST12: "If a Survivor adjacent to you has a Status of Dying, change it to Injured; otherwise,
    # if their status is Injured, change it to Healthy. Increase your Points by 2." A Dead Survivor keeps
    # their Location (T9) and is still a Survivor: the Status stays Dead, the Points / Health change comes.
    t = _status(_energy(_trial(a="J11", b="J12"), "b", 5), "a", Status.DEAD, health=0)
    healed = sl.heal(t, "b", "a")
    assert healed.survivor("a").status == Status.DEAD and healed.survivor("b").points == 2
    t = replace(t, advancing=True, monster=replace(t.monster, energy=3))
    hit = sl.hit(t, "a").survivor("a")
    assert (hit.status, hit.health) == (Status.DEAD, -1)


def test_a_survivor_cannot_heal_or_rescue_themselves():
    """T10: Heal "If a Survivor adjacent to you has a Status of Dying"; Rescue "If a Survivor adjacent to
    you has a Status of Caged": a Square is not adjacent to itself, so the Survivor is never their own
    target; nothing is paid."""
    t = _energy(_status(_trial(a="A1", b="A2"), "a", Status.DYING), "a", 10)
    assert not sl.adjacent("A1", "A1") and not sl.adjacent("A1", "A1", diagonals=False)
    with pytest.raises(IllegalAction, match="not adjacent"):
        sl.heal(t, "a", "a")
    with pytest.raises(IllegalAction, match="not adjacent"):
        sl.rescue(t, "a", "a")
    with pytest.raises(IllegalAction, match="may not act"):  # and a Caged Survivor takes no action at all
        sl.rescue(_status(t, "a", Status.CAGED), "a", "a")
    assert t.survivor("a").energy == 10 and t.survivor("a").status == Status.DYING


def test_cage_draws_evenly_among_the_uninhabited_squares():
    """T11: Cage "change their Location to a randomly picked uninhabited Square": one seeded choice over the
    uninhabited Squares (row-major), never the Survivor's own Square, a Generator or another Participant."""
    t = _ready_all(_trial(a="J11", b="J9"))
    t = replace(t, generators=(sl.Generator("A1"), sl.Generator("T20")))
    t = _status(sl.begin_advance(t), "a", Status.DYING)
    free = t.uninhabited()
    assert {"J11", "J9", "J10", "A1", "T20"}.isdisjoint(free) and len(free) == 400 - 5
    for seed in range(20):
        caged = sl.cage(t, "a", random.Random(seed)).survivor("a")
        assert caged.status == Status.CAGED and caged.location == random.Random(seed).choice(free)
