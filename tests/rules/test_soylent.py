"""Soylent Ghoul (soylent-ghoul.txt): panic tests, activation, group actions, catalogue."""

import itertools
import json
import random
import re
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

from catalogue import DATA_DIR
from rules.soylent_ghoul import panic as soylent

CATALOGUE = DATA_DIR / "soylent-ghoul-1.json"


@pytest.mark.parametrize("nerve", range(-1, 12))
@pytest.mark.parametrize("tokens", range(0, 9))
def test_panic_distribution_is_the_d8_count(nerve, tokens):
    snapped = sum(1 for die in range(1, 9) if die + tokens > nerve)
    assert soylent.panic_distribution(nerve, tokens) == {"snapped": F(snapped, 8), "holds": F(8 - snapped, 8)}


def test_panic_distribution_has_exactly_two_keys_summing_to_one():
    dist = soylent.panic_distribution(6, 2)
    assert set(dist) == {"snapped", "holds"}
    assert all(isinstance(v, F) for v in dist.values()) and sum(dist.values()) == 1


def test_over_is_strictly_greater():
    # odds-format.md's example request: Nerve 6, 2 tokens -> a 5-8 snaps (7 > 6), a 4 holds (6 is not over 6).
    assert soylent.panic_distribution(6, 2)["snapped"] == F(1, 2)
    assert not soylent.snaps(4, 2, 6) and soylent.snaps(5, 2, 6)


@pytest.mark.parametrize(
    "group, nerve, snapped_with_no_tokens",
    [
        ("scene-shifters", 7, F(1, 8)),
        ("eyes", 3, F(5, 8)),
        ("mannikins", 6, F(2, 8)),
        ("gardeners", 6, F(2, 8)),
    ],
)
def test_groups_nerve_from_the_text(group, nerve, snapped_with_no_tokens):
    groups = soylent.load_groups()
    assert groups[group]["nerve"] == nerve
    assert soylent.panic_distribution(groups[group]["nerve"], 0)["snapped"] == snapped_with_no_tokens


def test_certain_snap_and_certain_hold():
    assert soylent.panic_distribution(0, 0)["snapped"] == 1  # every D8 is over 0
    assert soylent.panic_distribution(8, 0)["snapped"] == 0  # 8 is not over 8
    assert soylent.panic_distribution(3, 5)["snapped"] == 1


def test_negative_tokens_rejected():
    with pytest.raises(ValueError):
        soylent.panic_distribution(6, -1)


@pytest.mark.parametrize("nerve, tokens, count", [(6, 0, 1), (6, 0, 3), (7, 2, 4), (3, 0, 2), (12, 0, 5)])
def test_batch_of_tokens_brute_force(nerve, tokens, count):
    # One D8 per token received, each adding the tokens already there; count the sequences with any snap.
    snapped = 0
    for dice in itertools.product(range(1, 9), repeat=count):
        if any(d + tokens + i > nerve for i, d in enumerate(dice)):
            snapped += 1
    assert soylent.panic_batch_distribution(nerve, tokens, count) == {
        "snapped": F(snapped, 8**count),
        "holds": F(8**count - snapped, 8**count),
    }


def test_roll_panic_is_seeded_and_shows_the_die():
    a = soylent.roll_panic(random.Random(42), 6, 2)
    b = soylent.roll_panic(random.Random(42), 6, 2)
    assert a == b and 1 <= a.die <= 8 and a.tokens_before == 2 and a.nerve == 6
    assert a.snapped == (a.die + 2 > 6) and a.total == a.die + 2
    with pytest.raises(Exception):
        a.die = 3  # frozen


def test_roll_panic_frequencies_match_the_distribution():
    rng = random.Random(7)
    dies = [soylent.roll_panic(rng, 5, 1).die for _ in range(8000)]
    assert set(dies) == set(range(1, 9))
    assert abs(sum(d + 1 > 5 for d in dies) / 8000 - 4 / 8) < 0.03


def test_receive_tokens_rolls_with_growing_count_and_stops_at_snap():
    batch = soylent.receive_panic_tokens(random.Random(3), 7, 0, 5)
    for i, roll in enumerate(batch.rolls):
        assert roll.tokens_before == i
    assert all(not r.snapped for r in batch.rolls[:-1])
    if batch.snapped:
        assert batch.rolls[-1].snapped and batch.tokens_after == len(batch.rolls)
    else:
        assert len(batch.rolls) == 5 and batch.tokens_after == 5
    assert batch == soylent.receive_panic_tokens(random.Random(3), 7, 0, 5)


@pytest.mark.parametrize("count", [-1, True, 1.5, "2"])
def test_a_number_of_tokens_received_is_a_whole_number_of_at_least_0(count):
    """Receiving tokens one at a time and its odds refuse the same bad counts (a negative count rolled
    nothing and said nothing before)."""
    with pytest.raises(ValueError, match="whole number >= 0"):
        soylent.receive_panic_tokens(random.Random(1), 7, 0, count)
    with pytest.raises(ValueError, match="whole number >= 0"):
        soylent.panic_batch_distribution(7, 0, count)


def test_activating_the_same_character_twice_in_a_row_adds_a_panic_token():
    assert soylent.activation_panic_tokens(soylent.LastTurn("activate", "eye-1"), "eye-1") == 1
    assert soylent.activation_panic_tokens(soylent.LastTurn("activate", "eye-2"), "eye-1") == 0
    assert soylent.activation_panic_tokens(soylent.LastTurn("place", "eye-1"), "eye-1") == 0
    assert soylent.activation_panic_tokens(None, "eye-1") == 0


def test_turns_pass_left_and_panic_phase_starts_with_the_mover():
    seating = ("ann", "bob", "cat")
    assert soylent.turn_order(seating, "bob") == ("bob", "cat", "ann")
    assert soylent.panic_phase_order(seating, "cat", rounds=2) == ("cat", "ann", "bob", "cat", "ann", "bob")


def test_last_player_with_an_unsnapped_drone_wins():
    D = soylent.Drone
    assert soylent.winner([D("a", "ann"), D("b", "bob")]) is None
    assert soylent.winner([D("a", "ann"), D("b", "bob", snapped=True), D("c", "ann", snapped=True)]) == "ann"


@pytest.mark.parametrize("inches, panic", [(0, 4), (2.9, 4), (3, 3), (6, 2), (9, 1), (12, 0), (20, 0)])
def test_mannikin_become(inches, panic):
    assert soylent.mannikin_become_panic(inches) == panic


def test_eyes_and_scene_shifters_counts():
    assert soylent.eyes_check_panic(0) == 1 and soylent.eyes_check_panic(2) == 3
    assert (
        soylent.shift_panic(True, 0) == 5 and soylent.shift_panic(True, 2) == 9 and soylent.shift_panic(False, 1) == 2
    )
    assert soylent.shift_self_panic(3) == 6


def test_gardener_darker():
    # Snapped: "reducing their lantern number by 6": a D8 of 6 or less removes it.
    assert soylent.darker_lantern_lost_chance(6) == F(6, 8)
    assert soylent.darker_lantern_lost_chance(0) == 0 and soylent.darker_lantern_lost_chance(9) == 1
    die, lost = soylent.darker_lantern_lost(random.Random(1), 3)
    assert lost == (die <= 3)


def test_catalogue_shape_and_numbers():
    data = json.loads(CATALOGUE.read_text(encoding="utf-8"))
    assert (data["system"], data["edition"], data["source"]) == ("soylent-ghoul", "1", "soylent-ghoul.txt")
    groups = {g["name"]: g for g in data["ghoul_groups"]}
    assert {n: (g["M"], g["nerve"]) for n, g in groups.items()} == {
        "Scene Shifters": (3, 7),
        "Eyes": (12, 3),
        "Mannikins": (24, 6),
        "Gardeners": (3, 6),
    }
    assert [a["name"] for a in groups["Scene Shifters"]["actions"]] == ["Scene", "Shift"]
    assert [a["name"] for a in groups["Gardeners"]["actions"]] == ["Lighter", "Darker"]
    assert groups["Gardeners"]["snapped"].startswith("All Gardener drones take the Darker action")
    for section in ("ghoul_groups", "rules"):
        for entry in data[section]:
            assert entry["slug"] == re.sub(r"[^a-z0-9]+", "-", entry["name"].lower()).strip("-")
            assert entry["text"] and entry["section"]


def test_small_game_modules_load_without_django():
    code = (
        "import sys; import rules.soylent_ghoul.panic, rules.ghoul_role, "
        "rules.ghoulash, rules.slasher_trial; "
        "sys.exit(1 if any(m == 'django' or m.startswith('django.') for m in sys.modules) else 0)"
    )
    root = Path(soylent.__file__).resolve().parents[2]
    assert subprocess.run([sys.executable, "-c", code], cwd=root).returncode == 0


def test_catalogue_quotes_are_the_texts_own_sentences():
    """Every action, Snapped effect and rule text in the catalogue is quoted sentence by sentence from
    soylent-ghoul.txt (whitespace aside): nothing shortened into a sentence the text does not have."""
    source = Path(__file__).resolve().parents[2].parent / "shared" / "rules" / "soylent-ghoul.txt"
    if not source.exists():
        source = Path("/work/shared/rules/soylent-ghoul.txt")
    if not source.exists():
        pytest.skip("the rules text is not here")
    text = re.sub(r"\s+", " ", source.read_text(encoding="utf-8"))
    data = json.loads(CATALOGUE.read_text(encoding="utf-8"))
    quotes = [r["text"] for r in data["rules"]]
    for group in data["ghoul_groups"]:
        quotes += [a["text"] for a in group["actions"]] + [group["snapped"]]
    for quote in quotes:
        for sentence in re.split(r"(?<=[.”])\s+", re.sub(r"\s+", " ", quote).strip()):
            assert sentence in text, sentence
