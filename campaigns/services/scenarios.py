"""The organiser's scenarios, the scenarios a game may name, and the seeded scenario draw."""

from __future__ import annotations

import random
import secrets

from django.db import transaction

from campaigns.models import CampaignScenario
from campaigns.permissions import check_user_is_organiser
from campaigns.services.base import CampaignError
from campaigns.services.base import log as _log
from campaigns.services.base import people_errors as _people_errors
from crewbuilder import crew_edits
from crewbuilder.models import Complication, EnvironmentEffect, Scenario
from rules.cybernekro import scenarios as scenario_rules


@_people_errors
@transaction.atomic
def create_scenario(campaign, actor, *, name, text="", draws_complication=False, card=None) -> CampaignScenario:
    """A campaign scenario (reading C8): picked in the game form, drawn when it has a card."""
    check_user_is_organiser(actor, campaign)
    name = crew_edits._clean_text(name, "Scenario name", 100, required=True)
    text = crew_edits._clean_text(text, "Scenario text", 5000, required=False)
    if card in ("", None):
        card = None
    else:
        card = crew_edits._parse_int(card, "Card", 1, 13)
    if (
        Scenario.objects.filter(system=campaign.system, name__iexact=name).exists()
        or campaign.scenarios.filter(name__iexact=name).exists()
    ):
        raise CampaignError(f"There is already a scenario called “{name}”.")
    taken = campaign.scenarios.filter(card=card).first() if card else None
    if taken is not None:
        raise CampaignError(f"The {CampaignScenario.RANKS[card - 1]} already gives “{taken.name}”.")
    scenario = CampaignScenario.objects.create(
        campaign=campaign, name=name, text=text, draws_complication=bool(draws_complication), card=card
    )
    where = f" on the {scenario.card_label}" if card else ""
    _log(
        campaign,
        actor,
        "scenario-created",
        f"{actor.username} added the campaign scenario “{name}”{where}.",
        after={"name": name, "card": scenario.card_label or "–", "draws_complication": scenario.draws_complication},
    )
    return scenario


def scenario_choices(campaign) -> list[dict]:
    """Every scenario a game may name: the rules' (from the catalogue), then the campaign's."""
    rules = [
        {
            "key": f"rules:{s.slug}",
            "name": s.name,
            "text": s.text,
            "draws_complication": s.draws_complication,
            "source": "rules",
            "environment_effects": bool((s.effects or {}).get("environment_effects")),
            "card": None,
        }
        for s in Scenario.objects.filter(system=campaign.system)
    ]
    own = [
        {
            "key": f"campaign:{s.pk}",
            "name": s.name,
            "text": s.text,
            "draws_complication": s.draws_complication,
            "source": "campaign",
            "environment_effects": False,
            "card": s.card,
        }
        for s in campaign.scenarios.all()
    ]
    return rules + own


def generate_scenario(campaign, *, method: str = "deck", seed: int | None = None, pick: str = "") -> dict:
    """Random scenario generation as the rules describe (reading C4, C8), seeded and replayable.

    Without ``pick``: draw the scenario card (or roll a D12) and look it up in
    the campaign's list (the organiser's scenarios with a card); a card no
    scenario has is reported as not in the free rules. With ``pick`` (a key of
    ``scenario_choices``, "agree on which one to play"): no scenario card.
    The Complication card is drawn when the scenario says so, or when the
    scenario is unknown (the group decides whether its scenario needs it).
    """
    method = "d12" if method == "d12" else "deck"
    seed = secrets.randbits(32) if seed is None else seed
    rng = random.Random(seed)
    choices = scenario_choices(campaign)
    card, scenario = None, None
    if pick:
        scenario = next((c for c in choices if c["key"] == pick), None)
        if scenario is None:
            raise CampaignError("Choose one of the scenarios listed.")
    else:
        card = scenario_rules.draw(rng, method)
        scenario = next((c for c in choices if c["card"] == card.number), None)
    complication_card = complication = None
    if scenario is None or scenario["draws_complication"]:
        complication_card = scenario_rules.draw(rng, method)
        entries = [
            {"number": c.number, "name": c.name, "text": c.text}
            for c in Complication.objects.filter(system=campaign.system)
        ]
        complication = scenario_rules.complication_for(complication_card.number, entries)
    rounds = []
    if scenario is None or scenario["environment_effects"]:
        effects = [
            {"number": e.number, "name": e.name, "text": e.text}
            for e in EnvironmentEffect.objects.filter(system=campaign.system)
        ]
        rounds = [(n + 1, scenario_rules.environment_effect(rng.randint(1, 6), effects)) for n in range(6)]
    return {
        "seed": seed,
        "method": method,
        "pick": pick,
        "card": card,
        "scenario": scenario,
        "complication_card": complication_card,
        "complication": complication,
        "rounds": rounds,
    }
