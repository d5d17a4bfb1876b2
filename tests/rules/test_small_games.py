from fractions import Fraction as F

import pytest

from rules import ghoul_role, odds
from rules.soylent_ghoul import panic as soylent


@pytest.mark.parametrize("nerve", range(0, 10))
@pytest.mark.parametrize("tokens", range(0, 6))
def test_panic_counts_d8_faces_over_nerve(nerve, tokens):
    dist = soylent.panic_distribution(nerve, tokens)
    assert dist["snapped"] == F(sum(1 for d in range(1, 9) if d + tokens > nerve), 8)
    assert dist["snapped"] + dist["holds"] == 1


def test_panic_examples_from_the_groups():
    # Eyes (Nerve 3) with no tokens snap on 4-8; Scene Shifters (Nerve 7) only on an 8.
    assert soylent.panic_distribution(3, 0)["snapped"] == F(5, 8)
    assert soylent.panic_distribution(7, 0)["snapped"] == F(1, 8)
    assert soylent.panic_distribution(7, 2)["snapped"] == F(3, 8)


@pytest.mark.parametrize(
    "players, difficulty, goal",
    [
        (2, "ghoul", 9),
        (5, "ghoul", 12),
        (2, "ragpicker", 7),
        (3, "scavenger", 9),
        (4, "stalker", 11),
        (4, "hunter", 12),
        (7, "ghoul", 14),
        (7, "hunter", 14),
    ],
)
def test_fury_goal_examples_and_cap(players, difficulty, goal):
    assert ghoul_role.fury_goal(players, difficulty) == goal


def test_ghoul_dice_by_difficulty():
    assert [ghoul_role.ghoul_dice_for(d) for d in ("ragpicker", "scavenger", "ghoul", "stalker", "hunter")] == [
        3,
        3,
        3,
        2,
        2,
    ]


def test_terror_thresholds():
    assert ghoul_role.draws_terror((2, 2, 3)) and not ghoul_role.draws_terror((2, 3, 3))
    assert ghoul_role.draws_terror((1, 3)) and not ghoul_role.draws_terror((2, 3))
    odds3 = ghoul_role.ghoul_dice_odds(3)
    assert odds3["terror"]["yes"] == F(35, 216)  # sums 3..7 of 3d6: 1+3+6+10+15
    assert ghoul_role.ghoul_dice_odds(2)["terror"]["yes"] == F(6, 36)  # sums 2..4: 1+2+3


def test_choosing_dice_higher_is_movement_lower_is_attack():
    assert ghoul_role.choose((5, 2, 4), "movement") == (5, 4)
    assert ghoul_role.choose((5, 2, 4), "attack") == (5, 4)
    answer = ghoul_role.ghoul_dice_odds(2)
    assert answer["max_movement"]["movement"]["6"] == F(11, 36)
    assert answer["max_movement"]["attack"]["6"] == F(1, 36)
    for plan in ("max_movement", "max_attack"):
        for stat in ("movement", "attack"):
            assert sum(answer[plan][stat].values()) == 1


def test_odds_requests_for_panic_and_ghoul_dice():
    assert odds({"roll": "panic", "nerve": 6, "tokens": 2})["exact"] == {"snapped": "1/2", "holds": "1/2"}
    answer = odds({"roll": "ghoul-dice", "dice": 3})
    assert answer["exact"]["terror"]["yes"] == "35/216"


def test_attack_cost_and_terror_cards_on_even_fury():
    assert ghoul_role.attack_cost(2) == 3
    assert ghoul_role.terror_cards_for_fury(1, 4) == 2
    assert ghoul_role.terror_cards_for_fury(4, 5) == 0
