"""Morale Phase with the traits that change it (Artificial, Demonic, Lobotomised), against brute force.

Oracle: every sequence of D20 faces for the tests (one test per Dread at the
start of the phase), applied literally from the text:

* "For every success remove one Dread ... On a Critical remove two Dread while
  on a Fumble the character gains one Dread";
* Artificial: "It can never gain Dread";
* Demonic: "Whenever this model would gain Dread it gains a Wound instead";
  quick reference: "Each Wound gives a -1 modifier to ... Morale rolls";
* Lobotomised: "Never performs Flee moves" (4+ Dread still makes it an NPC).
"""

import itertools
import random
from fractions import Fraction as F

import pytest

from rules import odds
from rules.cybernekro import engine as cn


def brute_morale(discipline, dread, wounds, allies, artificial=False, demonic=False, jinxed=False):
    counts = {d: 0 for d in range(7)}
    for faces in itertools.product(range(1, 21), repeat=dread):
        d, w = dread, wounds
        for face in faces:
            crit = face >= (19 if jinxed else 20)
            fumble = face <= (2 if jinxed else 1)
            if crit:
                d = max(d - 2, 0)
            elif fumble:
                if artificial:
                    pass
                elif demonic:
                    w = min(w + 1, 6)
                else:
                    d = min(d + 1, 6)
            elif face + discipline + allies - w >= 11:
                d = max(d - 1, 0)
        counts[d] += 1
    total = 20**dread
    return {d: F(c, total) for d, c in counts.items()}


@pytest.mark.parametrize(
    "discipline,dread,wounds,allies",
    [
        (0, 1, 0, 0),
        (0, 3, 0, 1),
        (-2, 3, 2, 0),
        (3, 2, 5, 2),
        (1, 3, 6, 0),
    ],
)
@pytest.mark.parametrize("artificial,demonic", [(False, False), (True, False), (False, True), (True, True)])
def test_morale_traits_match_brute_force(discipline, dread, wounds, allies, artificial, demonic):
    exact = cn.morale_distribution(discipline, dread, wounds, allies, False, False, artificial, demonic)
    assert exact == brute_morale(discipline, dread, wounds, allies, artificial, demonic)
    assert sum(exact.values()) == 1


def test_demonic_fumble_wound_makes_later_tests_harder():
    # Discipline +1, 2 Dread: a fumble on the first test gives a Wound, so the second needs 11 - 1 + 1.
    plain = cn.morale_distribution(1, 2)
    demonic = cn.morale_distribution(1, 2, demonic=True)
    assert demonic != plain
    assert demonic == brute_morale(1, 2, 0, 0, demonic=True)
    # A Demonic model never ends with more Dread than it started with.
    assert demonic[3] == 0 and plain[3] > 0


def test_artificial_never_gains_dread_in_the_morale_phase():
    left = cn.morale_distribution(-2, 3, artificial=True)
    assert left[4] == left[5] == left[6] == 0
    assert cn.morale_distribution(-2, 3)[4] > 0


def test_lobotomised_never_flees_but_still_becomes_an_npc():
    request = {"roll": "morale", "discipline": -1, "dread": 5, "wounds": 0, "allies_in_los": 0}
    plain = odds(request)
    lobo = odds({**request, "traits": ["Lobotomised"]})
    assert lobo["exact"]["flees"] == {"0": "1", "1": "0", "2": "0", "3": "0"}
    assert lobo["exact"]["becomes_npc"] == plain["exact"]["becomes_npc"]
    assert {k: lobo["exact"][k] for k in map(str, range(7))} == {k: plain["exact"][k] for k in map(str, range(7))}
    assert F(plain["exact"]["flees"]["3"]) > 0


def test_morale_request_with_traits_matches_engine():
    answer = odds(
        {"roll": "morale", "discipline": 0, "dread": 3, "wounds": 1, "allies_in_los": 1, "traits": ["demonic"]}
    )
    expected = brute_morale(0, 3, 1, 1, demonic=True)
    assert {int(k): F(v) for k, v in answer["exact"].items() if k.isdigit()} == expected
    assert sum(F(v) for v in answer["exact"]["flees"].values()) == 1


@pytest.mark.parametrize("seed", range(5))
def test_seeded_morale_with_traits_replays_and_follows_the_steps(seed):
    kwargs = dict(discipline=-3, dread=4, wounds=1, allies_in_los=0, artificial=False, demonic=True)
    a = cn.roll_morale(random.Random(seed), seed=seed, **kwargs)
    b = cn.roll_morale(random.Random(seed), seed=seed, **kwargs)
    assert a == b
    fumbles = sum(1 for face, _mod, outcome in a.tests if outcome == "fumble")
    assert a.wounds == min(1 + fumbles, 6)
    assert a.dread_left <= 4
