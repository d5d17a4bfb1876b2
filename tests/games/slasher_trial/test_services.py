"""The trial's every action and condition, the Advance, the end and the draw, through trials/services.py."""

import random

import pytest

from crewbuilder.models import GameSystem, RulesEntry
from games.slasher_trial import services
from games.slasher_trial.models import LogEntry, Trial
from rules import slasher_trial as sl
from tests.games.slasher_trial.conftest import place, row, setp

pytestmark = pytest.mark.django_db


def fresh(trial):
    return Trial.objects.get(pk=trial.pk)


def act_ok(trial, user, action, target=""):
    return services.act(trial, user, action, target)


def refused(trial, user, action, target="", match=""):
    before = LogEntry.objects.filter(trial=trial).count()
    version = fresh(trial).version
    with pytest.raises(services.TrialError, match=f"(?i){match}"):
        services.act(trial, user, action, target)
    # nothing changed: no log line, no version bump
    assert LogEntry.objects.filter(trial=trial).count() == before
    assert fresh(trial).version == version


def advance_once(trial, monster, survivors, actions=()):
    """Everyone Living Ready, then a whole Advance with the Monster's actions."""
    for user in survivors:
        p = row(trial, user)
        if p.status not in ("Dead", "Escaped") and p.readiness != "Ready":
            act_ok(trial, user, "ready")
    act_ok(trial, monster, "advance")
    for action, target in actions:
        act_ok(trial, monster, action, target)
    return act_ok(trial, monster, "end")


# --- creating and joining --------------------------------------------------


def test_participants_start_with_the_rules_defaults(open_trial, monster, survivors):
    m, mara = row(open_trial, monster), row(open_trial, survivors[0])
    assert (m.role, m.energy, m.location) == ("monster", 0, "")
    assert (mara.role, mara.energy, mara.location, mara.health, mara.status, mara.points, mara.readiness) == (
        "survivor",
        0,
        "",
        100,
        "Healthy",
        0,
        "Unready",
    )
    assert [e.action for e in open_trial.log.order_by("number")] == ["create", "join", "join"]


def _house_rule_health(number: int) -> None:
    entry = RulesEntry.objects.get(system=GameSystem.objects.get(slug="slasher-trial"), part="defaults", slug="health")
    entry.number = number
    entry.save()


def test_defaults_come_from_the_catalogue_rows(catalogue, monster, survivors):
    """An admin's house rule (Health 50) reaches a new Survivor."""
    _house_rule_health(50)
    trial = services.create_trial(monster, "House")
    services.join(trial, survivors[0])
    assert row(trial, survivors[0]).health == 50


def test_joining_refusals(open_trial, monster, survivors):
    with pytest.raises(services.TrialError, match="already in"):
        services.join(open_trial, survivors[0])
    with pytest.raises(services.TrialError, match="Monster"):
        services.join(open_trial, monster)
    place(open_trial, monster)
    with pytest.raises(services.TrialError, match="started"):
        services.join(open_trial, survivors[2])


def test_a_trial_needs_a_name(catalogue, monster):
    with pytest.raises(services.TrialError, match="name"):
        services.create_trial(monster, "  ")


# --- the Generators ---------------------------------------------------------


def test_the_monster_places_seven_generators_at_random_once(open_trial, monster, survivors):
    refused(open_trial, survivors[0], "generators", match="Only the Monster")
    refused(open_trial, survivors[0], "location", "B2", match="Wait for the Monster")
    outcome = act_ok(open_trial, monster, "generators")
    trial = fresh(open_trial)
    assert trial.state == Trial.PLAYING and trial.generators_placed
    squares = list(trial.generators.order_by("position").values_list("square", flat=True))
    assert len(set(squares)) == 7 and all(p == 0 for p in trial.generators.values_list("progress", flat=True))
    # replayable from the logged seed
    seed = outcome.entry.seed
    assert seed is not None
    replay = sl.place_generators(sl.new_trial(["mara", "zed"], monster="vox"), random.Random(seed))
    assert [g.square for g in replay.generators] == squares
    assert ", ".join(squares) in outcome.entry.text
    refused(trial, monster, "generators", match="already placed")


def test_generators_need_a_survivor(catalogue, monster):
    trial = services.create_trial(monster, "Alone")
    refused(trial, monster, "generators", match="at least one Survivor")


# --- Locations ----------------------------------------------------------------


def test_location_is_set_once_to_an_uninhabited_square(open_trial, monster, survivors):
    trial = place(open_trial, monster)
    mara, zed = survivors[:2]
    refused(trial, mara, "location", "A1", match="A1 is inhabited")  # a Generator
    refused(trial, mara, "location", "Z99", match="not a Square")
    act_ok(trial, mara, "location", "c3")
    assert row(trial, mara).location == "C3"
    refused(trial, zed, "location", "C3", match="inhabited")
    refused(trial, mara, "location", "C4", match="not blank")
    act_ok(trial, monster, "location", "J10")
    assert row(trial, monster).location == "J10"


# --- Survivor Actions ------------------------------------------------------------


def test_move_costs_one_and_needs_an_adjacent_uninhabited_square(started, monster, survivors):
    mara, zed = survivors[:2]
    refused(started, mara, "move", "C4", match="Move costs 1 Energy, mara has 0")
    setp(started, mara, energy=3)
    refused(started, mara, "move", "C6", match="not adjacent")
    act_ok(started, mara, "move", "B2")  # diagonal: adjacent in this trial
    p = row(started, mara)
    assert (p.location, p.energy, p.readiness, p.participated) == ("B2", 2, "Ready", True)
    refused(started, mara, "move", "A1", match="inhabited")  # the Generator on A1
    entry = started.log.order_by("-number").first()
    assert entry.text == "mara moved to B2. (-1 Energy)" and entry.energy_spent == 1 and entry.actor == mara


def test_orthogonal_trial_refuses_diagonal_moves(catalogue, monster, survivors):
    trial = services.create_trial(monster, "Square", diagonals=False)
    services.join(trial, survivors[0])
    trial = place(trial, monster)
    act_ok(trial, survivors[0], "location", "C3")
    setp(trial, survivors[0], energy=2)
    refused(trial, survivors[0], "move", "B2", match="not adjacent")
    act_ok(trial, survivors[0], "move", "B3")


def test_repair_an_adjacent_unrepaired_generator(started, survivors):
    mara = survivors[0]
    setp(started, mara, energy=2, location="B2")
    refused(started, mara, "repair", "A5", match="not adjacent")
    refused(started, mara, "repair", "B3", match="no Generator")
    act_ok(started, mara, "repair", "A1")
    p, g = row(started, mara), started.generators.get(square="A1")
    assert (p.energy, p.points, g.progress) == (1, 1, 1)
    g.progress = 100
    g.save()
    refused(started, mara, "repair", "A1", match="already Repaired")


def test_heal_dying_to_injured_to_healthy_and_two_points(started, survivors):
    mara, zed = survivors[:2]
    setp(started, mara, energy=10)
    refused(started, mara, "heal", "nobody", match="no Survivor")
    refused(started, mara, "heal", "zed", match="not adjacent")  # C3 and C5
    setp(started, zed, location="C4", status="Dying")
    act_ok(started, mara, "heal", "zed")
    assert row(started, zed).status == "Injured"
    act_ok(started, mara, "heal", "zed")
    assert row(started, zed).status == "Healthy"
    p = row(started, mara)
    assert (p.energy, p.points) == (0, 4)


def test_rescue_a_caged_neighbour(started, survivors):
    mara, zed = survivors[:2]
    setp(started, mara, energy=10)
    setp(started, zed, location="C4")
    refused(started, mara, "rescue", "zed", match="not Caged")
    setp(started, zed, status="Caged")
    act_ok(started, mara, "rescue", "zed")
    assert row(started, zed).status == "Injured"
    assert (row(started, mara).energy, row(started, mara).points) == (5, 2)


def test_caged_dead_and_escaped_may_not_act_but_caged_may_ready(started, survivors):
    mara = survivors[0]
    setp(started, mara, energy=5, status="Caged")
    refused(started, mara, "move", "C2", match="Caged and may not act")
    act_ok(started, mara, "ready")
    assert row(started, mara).readiness == "Ready"
    setp(started, mara, status="Dead", readiness="Unready")
    refused(started, mara, "move", "C2", match="Dead")
    refused(started, mara, "ready", match="not Living")


def test_escape_needs_five_repaired_generators(started, survivors):
    mara = survivors[0]
    refused(started, mara, "escape", match="5 Generators must be Repaired, 0 are")
    started.generators.filter(square__in=["A1", "A3", "A5", "A7", "A9"]).update(progress=100)
    act_ok(started, mara, "escape")
    p = row(started, mara)
    assert (p.status, p.location) == ("Escaped", "")
    assert fresh(started).state == Trial.PLAYING  # zed is still Living


def test_unknown_actions_are_refused(started, monster, survivors):
    refused(started, survivors[0], "hit", "zed", match="no action 'hit'")
    refused(started, monster, "heal", "zed", match="no action 'heal'")


def test_only_participants_act(started, make_user):
    stranger = make_user("eve")
    refused(started, stranger, "location", "H8", match="Only the trial's participants")


# --- Readiness and the Advance -----------------------------------------------------


def test_the_advance_needs_every_living_survivor_ready(started, monster, survivors):
    mara, zed = survivors[:2]
    refused(started, monster, "advance", match="not every Living Survivor is Ready: mara, zed")
    act_ok(started, mara, "ready")
    refused(started, monster, "advance", match="zed")
    setp(started, zed, status="Dead")  # the Dead are not waited for
    act_ok(started, monster, "advance")


def test_the_advance_in_order(started, monster, survivors):
    mara, zed = survivors[:2]
    refused(started, monster, "move", "J11", match="only during an Advance")
    refused(started, monster, "end", match="no Advance under way")
    act_ok(started, mara, "ready")
    act_ok(started, zed, "ready")
    entry = act_ok(started, monster, "advance").entry
    assert "gains 15 Energy, each Living Survivor 30" in entry.text  # 60 / 2 Survivors
    assert row(started, monster).energy == 15 and row(started, mara).energy == 30
    assert fresh(started).advancing
    refused(started, mara, "move", "C2", match="no Survivor Action during the Monster's Advance")
    refused(started, mara, "ready", match="Advance is under way")
    refused(started, monster, "advance", match="already under way")
    act_ok(started, monster, "move", "I9")
    assert row(started, monster).energy == 14
    act_ok(started, monster, "end")
    trial = fresh(started)
    assert not trial.advancing and trial.advances == 1 and trial.hit_since_advance == []
    assert {row(trial, u).readiness for u in (mara, zed)} == {"Unready"}


@pytest.mark.parametrize("joined, each", [(2, 30), (4, 15), (3, 20)])
def test_survivor_energy_is_sixty_over_the_survivors_rounded_down(catalogue, monster, survivors, joined, each):
    trial = services.create_trial(monster, "Count")
    for user in survivors[:joined]:
        services.join(trial, user)
    trial = place(trial, monster)
    setp(trial, survivors[0], status="Escaped")  # still counted, not fed
    advance_once(trial, monster, survivors[:joined])
    assert row(trial, survivors[0]).energy == 0
    assert all(row(trial, u).energy == each for u in survivors[1:joined])


def test_seven_survivors_gain_eight(catalogue, monster, make_user):
    trial = services.create_trial(monster, "Seven")
    users = [make_user(f"s{i}") for i in range(7)]
    for user in users:
        services.join(trial, user)
    trial = place(trial, monster)
    advance_once(trial, monster, users)
    assert {row(trial, u).energy for u in users} == {8}


def test_hit_once_per_survivor_per_advance_then_cage_then_health_loss(started, monster, survivors):
    mara, zed = survivors[:2]
    setp(started, monster, location="C4")  # between mara (C3) and zed (C5)
    for user in (mara, zed):
        act_ok(started, user, "ready")
    act_ok(started, monster, "advance")
    refused(started, monster, "hit", "ghost", match="no Survivor")
    act_ok(started, monster, "hit", "mara")
    p = row(started, mara)
    assert (p.status, p.health) == ("Injured", 99)
    refused(started, monster, "hit", "mara", match="already hit since the last Advance")
    refused(started, monster, "cage", "mara", match="not Dying")
    act_ok(started, monster, "hit", "zed")
    assert fresh(started).hit_since_advance == ["mara", "zed"]
    assert row(started, monster).energy == 15 - 3 - 3
    act_ok(started, monster, "end")
    # next Advance: Injured -> Dying, then Cage (seeded, replayable), then Health loss
    for user in (mara, zed):
        act_ok(started, user, "ready")
    act_ok(started, monster, "advance")
    act_ok(started, monster, "hit", "mara")
    assert (row(started, mara).status, row(started, mara).health) == ("Dying", 98)
    before = services.engine_trial(
        fresh(started),
        list(started.participants.select_related("user")),
        list(started.generators.all()),
        sl.DEFAULT_NUMBERS,
    )
    cage = act_ok(started, monster, "cage", "mara").entry
    expected = sl.cage(before, "mara", random.Random(cage.seed)).survivor("mara").location
    p = row(started, mara)
    assert (p.status, p.location) == ("Caged", expected) and expected in cage.text
    act_ok(started, monster, "hit", "zed")  # zed: Injured -> Dying
    act_ok(started, monster, "end")
    assert row(started, mara).health == 98 - 10  # Caged
    assert row(started, zed).health == 98 - 2  # Dying
    assert "mara 98 → 88 Health; zed 98 → 96 Health" in started.log.order_by("-number").first().text


def test_monster_energy_runs_out(started, monster, survivors):
    for user in survivors[:2]:
        act_ok(started, user, "ready")
    act_ok(started, monster, "advance")
    setp(started, monster, energy=2)
    setp(started, survivors[0], location="J11")
    refused(started, monster, "hit", "mara", match="hit costs 3 Energy, the Monster has 2")
    act_ok(started, monster, "move", "K11")
    act_ok(started, monster, "move", "K10")
    refused(started, monster, "move", "K9", match="costs 1 Energy, the Monster has 0")


def test_dead_at_or_below_zero_health(started, monster, survivors):
    mara, zed = survivors[:2]
    setp(started, mara, status="Dying", health=2)
    advance_once(started, monster, [mara, zed])
    assert (row(started, mara).health, row(started, mara).status) == (0, "Dead")
    assert "(Dead)" in started.log.order_by("-number").first().text
    assert fresh(started).state == Trial.PLAYING  # zed lives


# --- The end ------------------------------------------------------------------------


def test_the_monster_wins_when_every_survivor_is_dead(started, monster, survivors):
    mara, zed = survivors[:2]
    setp(started, mara, status="Dead", health=0)
    setp(started, zed, status="Caged", health=5)
    outcome = advance_once(started, monster, [mara, zed])
    trial = fresh(started)
    assert trial.state == Trial.OVER and trial.outcome == "monster" and trial.winner == "vox"
    assert outcome.finished.text == "Every Survivor is Dead: the Monster, vox, wins."
    refused(trial, monster, "advance", match="over")


def test_winner_drawn_by_points_among_those_who_took_part_seeded(started, monster, survivors):
    mara, zed = survivors[:2]
    setp(started, mara, points=3, participated=True)
    setp(started, zed, status="Dead", health=0, points=1, participated=True)
    started.generators.filter(square__in=["A1", "A3", "A5", "A7", "A9"]).update(progress=100)
    outcome = act_ok(started, mara, "escape")  # the last Living Survivor leaves: the end
    trial = fresh(started)
    assert trial.state == Trial.OVER and trial.outcome == "survivor"
    entry = outcome.finished
    state = sl.Trial(
        survivors=(
            sl.Survivor("mara", status=sl.Status.ESCAPED, points=3, participated=True),
            sl.Survivor("zed", status=sl.Status.DEAD, health=0, points=1, participated=True),
        )
    )
    assert trial.winner == sl.draw_winner(state, random.Random(entry.seed))  # replayable from the log
    assert "mara 3/4, zed 1/4" in entry.text


def test_the_draw_is_weighted(started, monster, survivors, monkeypatch):
    """Over 400 seeds the Survivor with 3 of the 4 Points wins 3 times in 4 (as the engine draws)."""
    mara, zed = survivors[:2]
    setp(started, mara, status="Escaped", location="", points=3, participated=True)
    setp(started, zed, status="Escaped", location="", points=1, participated=True)
    trial = fresh(started)
    participants = list(trial.participants.select_related("user"))
    state = services.engine_trial(trial, participants, list(trial.generators.all()), sl.DEFAULT_NUMBERS)
    wins = {"mara": 0, "zed": 0}
    for seed in range(400):
        monkeypatch.setattr(services.secrets, "randbits", lambda bits, seed=seed: seed)
        t = fresh(started)
        entry = services._finish(t, state)
        assert entry.seed == seed
        wins[t.winner] += 1
    assert wins == {
        name: sum(1 for s in range(400) if sl.draw_winner(state, random.Random(s)) == name) for name in wins
    }
    assert 270 <= wins["mara"] <= 330


def test_survivors_who_never_acted_are_not_drawn(started, monster, survivors):
    mara, zed = survivors[:2]
    setp(started, mara, points=0, participated=True)
    setp(started, zed, status="Dead", health=0, points=0, participated=False)
    started.generators.filter(square__in=["A1", "A3", "A5", "A7", "A9"]).update(progress=100)
    act_ok(started, mara, "escape")
    trial = fresh(started)
    assert trial.winner == "mara" and "mara 1/1" in trial.log.order_by("-number").first().text


def test_the_last_survivor_escaping_ends_the_trial(started, monster, survivors):
    mara, zed = survivors[:2]
    setp(started, zed, status="Dead", health=0)
    setp(started, mara, points=2, participated=True)
    started.generators.filter(square__in=["A1", "A3", "A5", "A7", "A9"]).update(progress=100)
    outcome = act_ok(started, mara, "escape")
    trial = fresh(started)
    assert outcome.finished is not None and trial.state == Trial.OVER and trial.winner == "mara"
    refused(trial, mara, "ready", match="over")


def test_every_action_is_logged_in_order(started, monster, survivors):
    mara = survivors[0]
    setp(started, mara, energy=2)
    act_ok(started, mara, "move", "C4")
    actions = list(started.log.order_by("number").values_list("action", flat=True))
    assert actions == ["create", "join", "join", "generators", "location", "location", "location", "move"]
    numbers = list(started.log.order_by("number").values_list("number", flat=True))
    assert numbers == list(range(1, 9))


# --- Audit against the text (slasher-trial.txt) ----------------------------------------


def test_a_ready_survivor_is_not_made_ready_again(started, survivors):
    # "A Living Survivor with a Readiness of Unready may change their Readiness to Ready"
    mara = survivors[0]
    act_ok(started, mara, "ready")
    refused(started, mara, "ready", match="^mara is already Ready")
    # a player's name is written as the player wrote it, not capitalised as a sentence would be
    with pytest.raises(services.TrialError) as refusal:
        services.act(started, mara, "ready", "")
    assert str(refusal.value) == "mara is already Ready."


def test_the_monster_places_itself_before_the_advance_not_inside_it(open_trial, monster, survivors):
    # "Advance, which is an atomic action with the following steps" (ST10)
    trial = place(open_trial, monster)
    mara, zed = survivors[:2]
    for user, square in ((mara, "C3"), (zed, "C5")):
        act_ok(trial, user, "location", square)
        act_ok(trial, user, "ready")
    act_ok(trial, monster, "advance")
    refused(trial, monster, "location", "C4", match="Advance is under way")
    act_ok(trial, monster, "end")
    act_ok(trial, monster, "location", "C4")
    assert row(trial, monster).location == "C4"


def test_a_caged_survivor_sets_no_blank_location(started, survivors):
    # "A Survivor whose status is Caged, Dead or Escaped may not take any dynastic actions."
    mara = survivors[0]
    setp(started, mara, status="Caged", location="")
    refused(started, mara, "location", "H8", match="mara is Caged")


def test_a_house_rule_health_of_zero_starts_a_survivor_dead(catalogue, monster, survivors):
    # "When a Survivor's Health is at or below 0, their Status is immediately set to Dead."
    _house_rule_health(0)
    trial = services.create_trial(monster, "House")
    services.join(trial, survivors[0])
    assert (row(trial, survivors[0]).health, row(trial, survivors[0]).status) == (0, "Dead")


def test_the_loaded_rows_give_every_number_of_the_text(catalogue):
    """Grid 20x20, 7 Generators (5 to Repair, Progress up to 100), Health 100, +15 / 60 per Advance,
    Caged -10, Dying -2, the Costs and Points: the catalogue rows reach the engine unchanged."""
    n = services.numbers()
    assert n == sl.DEFAULT_NUMBERS
    assert (n.monster_energy, n.survivor_energy_pool, n.caged_health_loss, n.dying_health_loss) == (15, 60, 10, 2)
    assert dict(n.survivor_costs) == {"move": 1, "repair": 1, "heal": 5, "rescue": 5}
    assert dict(n.monster_costs) == {"move": 1, "hit": 3, "cage": 3}
    assert (n.repair_progress, n.repair_points, n.heal_points, n.rescue_points, n.hit_health) == (1, 1, 2, 2, 1)
    assert (n.generators, n.to_repair, n.repair_max, n.health) == (7, 5, 100, 100)
    assert (sl.ROWS, sl.COLUMNS, sl.ROW_LETTERS[0], sl.ROW_LETTERS[-1]) == (20, 20, "A", "T")
