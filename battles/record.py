"""A finished campaign battle as the campaign's game record form pre-fills it (the engine's summary).

The players still confirm the record through the campaign's own flow; this only
fills the form in: the winner, each crew's casualties (by the campaign crew's
character ids kept in the seat's snapshot) and the treasure carried off.
"""

from __future__ import annotations

from django.http import Http404

from rules.cybernekro.battle import catalogue, codec, scenario_steps
from rules.cybernekro.battle.state import Phase

from .models import Battle


def campaign_prefill(campaign, user, battle_id) -> dict:
    """The pre-fill of ``campaign``'s record form from battle ``battle_id``: ``post`` holds the form's fields
    as the form would send them (the form shows a sent form back as it was); 404 unless it is this
    campaign's finished battle and ``user`` played in it."""
    try:
        battle = Battle.objects.get(pk=int(battle_id), campaign=campaign, seats__user=user)
    except (Battle.DoesNotExist, TypeError, ValueError):
        raise Http404("No such battle in this campaign.") from None
    state = codec.loads(battle.state) if battle.state else None
    if state is None or state.phase is not Phase.ENDED:
        raise Http404("The battle has not ended.")
    summary = scenario_steps.summary(state)
    seats = {str(s.seat): s for s in battle.seats.all()}
    post = {
        "scenario": state.scenario.name,  # the rules' name, or the campaign scenario's
        # a campaign scenario has no engine rules: its winner is the players' to record (B32)
        "result": "draw" if summary.draw else "",
    }
    for side in summary.sides:
        seat = seats[side.seat]
        if seat.campaign_crew_id is None:
            continue
        post[f"played-{seat.campaign_crew_id}"] = "1"
        post[f"treasure-{seat.campaign_crew_id}"] = str(side.treasure_carried_off)
        if side.won and len(summary.winners) == 1:
            post["result"] = str(seat.campaign_crew_id)
        ids = [c.get("id") for c in seat.crew.get("characters", [])]
        for casualty in side.casualties:
            index = int(casualty["character"].rsplit("-", 1)[1])
            if index < len(ids) and ids[index]:
                post[f"outcome-{ids[index]}"] = casualty["outcome"]
    try:
        post["complication"] = (
            catalogue.entry("complications", summary.complication)["name"] if summary.complication else ""
        )
    except KeyError:
        post["complication"] = summary.complication
    return {"battle": battle, "post": post}
