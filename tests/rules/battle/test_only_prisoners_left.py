"""B38: a Prisoner game whose only characters left are behind the prison door is scored, not stuck."""

from dataclasses import replace

from rules.cybernekro.battle import scenario_steps
from rules.cybernekro.battle.state import Phase, Status
from tests.rules.battle.helpers import new, to_action


def test_a_game_with_only_imprisoned_characters_left_is_scored_at_the_rounds_end():
    state = to_action(new(scenario="prisoner"))
    state = replace(
        state,
        phase=Phase.ROUND_END,
        round=3,
        models=tuple(m if m.imprisoned else replace(m, status=Status.OUT_OF_ACTION) for m in state.models),
    )
    assert any(m.imprisoned and m.in_play for m in state.models)
    ended = scenario_steps.finish_round(state, "A")
    assert ended.phase is Phase.ENDED and ended.winner == (state.scenario.kidnapper,)
    freed = replace(state, models=tuple(replace(m, imprisoned=False) for m in state.models))
    assert scenario_steps.finish_round(freed, "A").phase is Phase.ROUND_START  # a character can still act
