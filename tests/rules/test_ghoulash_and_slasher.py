import pytest

from rules import ghoulash
from rules import slasher_trial as slasher


def test_example_1_del_wins_unchallenged():
    # Lake, Initial Combat Value 1; a strength-5 Ghoul worth 2 VP; Del plays a 3 and a 2.
    result = ghoulash.ghoul_battle(5, 2, 1, played=(3, 2))
    assert result.won and result.victory_points == 2 and result.total == 6 and result.needed == 6


def test_example_2_brian_challenges_and_del_answers():
    result = ghoulash.ghoul_battle(5, 2, 1, played=(3, 2), challenge=(2, 1), response=(3,))
    assert result.won and result.total == 6 and result.stage == "answered"


def test_example_3_del_cannot_answer_and_takes_two_wounds():
    result = ghoulash.ghoul_battle(5, 2, 1, played=(3, 2), challenge=(2, 1))
    assert not result.won and result.total == 3 and result.wounds == 2


def test_example_4_brian_lacks_the_value_and_loses_at_once():
    result = ghoulash.ghoul_battle(5, 2, 1, played=(2, 1))
    assert not result.won and result.stage == "no-value" and result.wounds == 2


def test_beat_by_at_least_one_and_challenge_limits():
    assert not ghoulash.ghoul_battle(5, 2, 0, played=(3, 2)).won  # a tie is not a win
    with pytest.raises(ghoulash.IllegalPlay):
        ghoulash.ghoul_battle(5, 2, 1, played=(3, 2), challenge=(1, 1, 1))


@pytest.mark.parametrize("survivors, energy", [(1, 60), (2, 30), (3, 20), (4, 15), (7, 8)])
def test_slasher_energy_per_advance(survivors, energy):
    assert slasher.survivor_energy_per_advance(survivors) == energy
    assert slasher.MONSTER_ENERGY_PER_ADVANCE == 15


def test_slasher_action_costs():
    assert [slasher.action_cost("survivor", a) for a in ("move", "repair", "heal", "rescue")] == [1, 1, 5, 5]
    assert [slasher.action_cost("monster", a) for a in ("move", "hit", "cage")] == [1, 3, 3]
    with pytest.raises(ValueError):
        slasher.action_cost("monster", "heal")
