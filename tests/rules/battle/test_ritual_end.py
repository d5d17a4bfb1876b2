"""Stop the Ritual's end, judged at the Round End's scenario step (B52, no database).

"The defender wins if the ritual has been performed and all the other crews are either removed from the table or
turned into NPCs. The other crew(s) win when there are no defender models or NPCs on the table." / Round End:
"resolve any scenario specific steps that happen at the end of the round".
"""

from dataclasses import replace

from rules.cybernekro.battle import scenario_steps
from rules.cybernekro.battle.state import Phase, Status
from tests.rules.battle.helpers import new, to_action


def at_round_end(change):
    state = to_action(new(scenario="stop-the-ritual"))
    defender = state.scenario.defender
    state = change(state, defender)
    return replace(state, phase=Phase.ROUND_END, pending=(), active_model=None, reaction=None), defender


def _out(state, seat):
    for m in state.crew(seat):
        state = state.with_model(replace(m, status=Status.OUT_OF_ACTION))
    return state


def test_the_others_win_when_no_defender_model_or_npc_is_left_at_the_round_end():
    state, defender = at_round_end(lambda s, d: _out(s, d))
    ended = scenario_steps.finish_round(state, defender)
    assert ended.phase is Phase.ENDED and ended.winner == tuple(s for s in state.seats if s != defender)


def test_an_npc_left_on_the_table_at_the_round_end_keeps_the_game_going():
    def gone_but_one_turned_npc(state, defender):
        state = _out(state, defender)
        other = next(s for s in state.seats if s != defender)
        turned = state.crew(other)[0]
        return state.with_model(replace(turned, npc=True))

    state, defender = at_round_end(gone_but_one_turned_npc)
    going = scenario_steps.finish_round(state, defender)
    assert going.phase is Phase.ROUND_START and not going.winner


def test_the_defender_wins_once_the_ritual_is_done_and_no_other_crew_is_on_the_table():
    def done(state, defender):
        state = replace(state, scenario=replace(state.scenario, ritual=state.scenario.ritual_target))
        for seat in state.seats:
            if seat != defender:
                state = _out(state, seat)
        return state

    state, defender = at_round_end(done)
    ended = scenario_steps.finish_round(state, defender)
    assert ended.phase is Phase.ENDED and ended.winner == (defender,)
