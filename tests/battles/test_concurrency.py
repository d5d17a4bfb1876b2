"""Two players act at once on the same version: one move is made, the other is cleanly refused."""

import pytest

from battles import services, steps
from battles.models import BattleEvent
from core.games.kit import Refused
from rules.cybernekro.battle import codec, legal
from tests.race import race


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_two_players_acting_at_once_make_one_move(started, user, other_user, attempt):
    battle = started(seed=attempt)
    state = codec.loads(battle.state)
    option = steps.key(legal.legal(state, "0")[0])  # deployment initiative: either seat may roll it
    assert option == steps.key(legal.legal(state, "1")[0])
    seen = battle.version
    events = BattleEvent.objects.filter(battle=battle).count()

    def move(who):
        return lambda: services.act(battle.pk, who, seen_version=seen, option=option, inputs={})

    outcomes = race([move(user), move(other_user)], Refused)
    assert sorted(outcomes) == ["The battle moved on since your page was drawn: here it is now.", "ok"], outcomes
    battle.refresh_from_db()
    assert battle.version == seen + 1
    assert BattleEvent.objects.filter(battle=battle).count() == events + 1  # one Initiative roll, not two
