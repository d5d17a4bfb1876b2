"""Spending Treasure between games: gear, and new characters."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from campaigns import idempotency
from campaigns.models import Campaign, CampaignCrew, HistoryEntry
from campaigns.permissions import check_user_can_edit_crew
from campaigns.services.base import CampaignError
from campaigns.services.base import log as _log
from catalogue.loader import snapshot_for_system
from crewbuilder import crew_edits
from crewbuilder.models import Character, Crew
from crewbuilder.models.catalogue import ATTRIBUTES
from crewbuilder.validation import crew_to_data, validate_crew
from crewbuilder.wording import count_noun


def _treasury_for(entry: CampaignCrew, actor) -> tuple[CampaignCrew, Campaign]:
    """The crew entry locked for spending, after checking who spends and that tokens have a price."""
    check_user_can_edit_crew(actor, entry, "Only the crew's player can spend its treasury.")
    campaign = entry.campaign
    if not campaign.treasure_value:
        raise CampaignError("The organiser has not set what a Treasure Token buys yet.")
    return CampaignCrew.objects.select_for_update().get(pk=entry.pk), campaign


@dataclass(frozen=True)
class Payment:
    """How a price in points is paid: spare points first, then whole Treasure Tokens. What the last token
    buys beyond the price is kept as spare points for the next purchase, never lost (docs/campaigns.md)."""

    cost: int
    tokens: int
    from_spare: int
    spare_after: int

    def words(self) -> str:
        """What was handed over: "1 Treasure Token and 3 spare points", "2 spare points", "nothing"."""
        parts = []
        if self.tokens:
            parts.append(count_noun(self.tokens, "Treasure Token"))
        if self.from_spare:
            parts.append(count_noun(self.from_spare, "spare point"))
        return " and ".join(parts) or "nothing"

    def kept(self) -> str:
        """The change, when a token bought more than the price: "; 9 points kept as spare"."""
        left = self.tokens and self.spare_after
        return f"; {count_noun(left, 'point')} kept as spare" if left else ""


def _payment(entry: CampaignCrew, campaign: Campaign, cost: int, what: str) -> Payment:
    """Pay ``cost`` points from the crew's spare points, then whole tokens (rounded up); refused, saying
    what it costs and what the crew holds, when the treasury cannot pay."""
    from_spare = min(entry.spare_points, cost)
    tokens = -(-(cost - from_spare) // campaign.treasure_value)
    if tokens > entry.treasury:
        paid = count_noun(tokens, "Treasure Token")
        if from_spare:
            paid = f": the crew's {count_noun(from_spare, 'spare point')} and {paid}"
        else:
            paid = f" = {paid}"
        raise CampaignError(f"{what} costs {count_noun(cost, 'point')}{paid}; the treasury holds {entry.treasury}.")
    return Payment(cost, tokens, from_spare, entry.spare_points + tokens * campaign.treasure_value - cost)


def _pay(entry: CampaignCrew, payment: Payment) -> None:
    entry.treasury -= payment.tokens
    entry.spare_points = payment.spare_after
    entry.save(update_fields=["treasury", "spare_points"])


def _character_in(crew: Crew, character_id) -> Character:
    """The crew's character (from the loaded crew: no query), or a refusal when it is not there."""
    for character in crew.characters.all():
        if str(character.pk) == str(character_id).strip():
            return character
    raise CampaignError(crew_edits.CHARACTER_GONE)


def _errors_of(data: dict, catalogue, crew: Crew, name: str) -> list[dict]:
    report = validate_crew(data, catalogue, crew.accepted_findings)
    return [e for e in report["errors"] if e["character"] == name]


def _check_can_carry(crew: Crew, character: Character, item) -> None:
    """Refuse gear that brings the character a new error (over capacity, a second shield...), judged like the
    builder on a trial copy with the item added. The builder keeps such a draft as not valid; treasure is not
    spent on it. Errors the character already had are not the item's doing and do not block it; one whose
    message changes (a character already over capacity, now carrying more) is made worse by it, and does."""
    catalogue = snapshot_for_system(crew.system)
    had = {(e["code"], e["message"]) for e in _errors_of(crew_to_data(crew), catalogue, crew, character.name)}
    trial = crew_to_data(crew)
    trial["budget"] = crew.budget + item.cost
    # The trial's characters are in the crew's order; add_gear puts the item last, as here.
    position = list(crew.characters.all()).index(character)
    trial["characters"][position]["gear"].append(item.slug)
    problems = [
        e["message"] for e in _errors_of(trial, catalogue, crew, character.name) if (e["code"], e["message"]) not in had
    ]
    if problems:
        raise CampaignError(f"{character.name} cannot carry the {item.name}: {'; '.join(problems)}")


@transaction.atomic
def buy_gear(entry: CampaignCrew, actor, character_id: int, slug: str, *, submission_key: str = "") -> HistoryEntry:
    """Spend Treasure on gear (spare points first, then whole tokens; a token's change is kept as spare points),
    validated like the builder; the crew budget grows by the item's cost. Returns the purchase's history entry.
    A ``submission_key`` already used raises ``idempotency.AlreadySubmitted``: nothing is spent twice."""
    entry, campaign = _treasury_for(entry, actor)
    idempotency.claim(actor, submission_key)
    crew = Crew.objects.with_everything().get(pk=entry.crew_id)
    character = _character_in(crew, character_id)
    item = crew_edits._catalogue_entry(crew_edits.Item, crew, slug, "item")
    if (item.effects or {}).get("campaign_crew_creation_only"):
        raise CampaignError(f"{item.name} can only be bought at crew creation in a campaign.")
    payment = _payment(entry, campaign, item.cost, item.name)
    _check_can_carry(crew, character, item)
    before = {"treasury": entry.treasury, "spare_points": entry.spare_points, "budget": crew.budget}
    crew_edits.add_gear(crew, character=character.pk, slug=slug)
    crew.budget += item.cost
    crew.version += 1
    crew.save(update_fields=["budget", "version", "updated_at"])
    _pay(entry, payment)
    return _log(
        campaign,
        actor,
        "purchase",
        f"{crew.name} bought {item.name} ({count_noun(item.cost, 'point')}) for {payment.words()}{payment.kept()}.",
        crew=entry,
        before=before,
        after={
            "treasury": entry.treasury,
            "spare_points": entry.spare_points,
            "budget": crew.budget,
            "item": slug,
            "character": character.pk,
            "tokens": payment.tokens,
            "cost": item.cost,
        },
    )


@transaction.atomic
def hire_character(entry: CampaignCrew, actor, name: str, attributes: dict, *, submission_key: str = "") -> Character:
    """Spend Treasure on a new character (its base cost, paid like gear), validated like the builder.
    A ``submission_key`` already used raises ``idempotency.AlreadySubmitted``: nobody is hired twice."""
    entry, campaign = _treasury_for(entry, actor)
    idempotency.claim(actor, submission_key)
    crew = Crew.objects.with_everything().get(pk=entry.crew_id)
    catalogue = snapshot_for_system(crew.system)
    cost = catalogue.rules.get("character_base_cost", 15)
    payment = _payment(entry, campaign, cost, "A new character")
    name = crew_edits._clean_text(name, "Character name", crew_edits.NAME_MAX, required=True)
    values = {a: crew_edits._parse_int(attributes.get(a, 0), a.capitalize(), -2, 3) for a in ATTRIBUTES}
    trial = crew_to_data(crew)
    trial["budget"] = crew.budget + cost
    trial["characters"].append({"name": name, "attributes": values, "traits": [], "body_mods": [], "gear": []})
    report = validate_crew(trial, catalogue, crew.accepted_findings)
    problems = [e["message"] for e in report["errors"] if e["character"] in (name, None)]
    if problems:
        raise CampaignError("; ".join(problems))
    position = max((c.position for c in crew.characters.all()), default=-1) + 1
    character = Character.objects.create(crew=crew, name=name, position=position, **values)
    before = {"treasury": entry.treasury, "spare_points": entry.spare_points, "budget": crew.budget, "roster": "–"}
    Crew.objects.filter(pk=crew.pk).update(budget=crew.budget + cost, version=crew.version + 1)
    _pay(entry, payment)
    _log(
        campaign,
        actor,
        "hire",
        f"{crew.name} hired {name} ({count_noun(cost, 'point')}) for {payment.words()}{payment.kept()}.",
        crew=entry,
        before=before,
        after={
            "treasury": entry.treasury,
            "spare_points": entry.spare_points,
            "budget": crew.budget + cost,
            "character": character.pk,
            "roster": f"{name} hired",
            "tokens": payment.tokens,
            "cost": cost,
        },
    )
    return character
