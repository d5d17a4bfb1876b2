"""One function per campaign operation.

Each runs in one transaction and writes a HistoryEntry (who, when, what,
before and after), so a failure half-way leaves nothing applied and every
change can be read back, and reversed by the organiser with a new entry.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from campaigns.models import Campaign, CampaignCrew, Game, GameCrew, HistoryEntry, Memorial, Membership, RollTable
from crewbuilder import crew_edits, crew_service
from crewbuilder.catalogue.loader import snapshot_for_system
from crewbuilder.validation import crew_to_data, validate_crew
from crewbuilder.models import Character, Crew
from crewbuilder.models.catalogue import ATTRIBUTES
from crewbuilder.rules.tables import parse_die, roll_table_die, uncovered


class CampaignError(ValueError):
    """The operation is not allowed; the message says why, for people."""


def _log(campaign, actor, kind, summary, *, crew=None, before=None, after=None, reverses=None) -> HistoryEntry:
    return HistoryEntry.objects.create(
        campaign=campaign, campaign_crew=crew, actor=actor, kind=kind, summary=summary[:300],
        before=before or {}, after=after or {}, reverses=reverses,
    )


def is_organiser(campaign: Campaign, user) -> bool:
    return campaign.organiser_id == user.pk


def is_member(campaign: Campaign, user) -> bool:
    return is_organiser(campaign, user) or campaign.memberships.filter(user=user, status=Membership.ACCEPTED).exists()


def _require_organiser(campaign, user):
    if not is_organiser(campaign, user):
        raise CampaignError("Only the organiser can do that.")


# --- campaign and members ------------------------------------------------------------


@transaction.atomic
def create_campaign(organiser, *, name, system, description="", house_rules="", starting_budget=150, treasure_value=None):
    name = crew_edits._clean_text(name, "Campaign name", 100, required=True)
    campaign = Campaign.objects.create(
        name=name, system=system, organiser=organiser, description=description, house_rules=house_rules,
        starting_budget=starting_budget, treasure_value=treasure_value,
    )
    _log(campaign, organiser, "campaign-created", f"{organiser.username} started the campaign “{name}”.")
    return campaign


@transaction.atomic
def invite(campaign, actor, username: str) -> Membership:
    _require_organiser(campaign, actor)
    user = get_user_model().objects.filter(username__iexact=(username or "").strip()).first()
    if user is None:
        raise CampaignError(f"No player is called “{username}”.")
    if user.pk == campaign.organiser_id:
        raise CampaignError("The organiser is already in the campaign.")
    membership, created = Membership.objects.get_or_create(campaign=campaign, user=user)
    if not created and membership.status != Membership.DECLINED:
        raise CampaignError(f"{user.username} is already {membership.get_status_display().lower()}.")
    membership.status = Membership.INVITED
    membership.responded_at = None
    membership.save()
    _log(campaign, actor, "invited", f"{actor.username} invited {user.username}.")
    return membership


@transaction.atomic
def respond(campaign, user, accept: bool) -> Membership:
    membership = Membership.objects.select_for_update().filter(campaign=campaign, user=user).first()
    if membership is None or membership.status != Membership.INVITED:
        raise CampaignError("There is no open invitation for you.")
    membership.status = Membership.ACCEPTED if accept else Membership.DECLINED
    membership.responded_at = timezone.now()
    membership.save()
    _log(campaign, user, "joined" if accept else "declined",
         f"{user.username} {'joined' if accept else 'declined the invitation'}.")
    return membership


@transaction.atomic
def enrol(campaign, user, crew: Crew) -> CampaignCrew:
    """Enrol a copy of the player's crew; the original stays untouched."""
    if not is_member(campaign, user):
        raise CampaignError("Join the campaign before enrolling a crew.")
    if crew.owner_id != user.pk:
        raise CampaignError("You can only enrol your own crew.")
    if crew.system_id != campaign.system_id:
        raise CampaignError(f"This campaign plays {campaign.system}; that crew is for {crew.system}.")
    if CampaignCrew.objects.filter(campaign=campaign, player=user).exists():
        raise CampaignError("You already have a crew in this campaign.")
    full = Crew.objects.with_everything().get(pk=crew.pk)
    report = crew_service.report_for(full)
    status = crew_service.status_of(report)
    if status == "invalid":
        problems = "; ".join(e["message"] for e in report["errors"][:3])
        raise CampaignError(f"Only a valid crew can be enrolled. Fix it first: {problems}")
    if status == "house_rules" and not is_organiser(campaign, user):
        # The organiser's own crew may carry its house rules; a player's needs them listed in the campaign.
        accepted = "; ".join(f'{a["code"]}: “{a["note"]}”' for a in report.get("accepted", []))
        if accepted and accepted not in campaign.house_rules:
            raise CampaignError(
                "This crew is valid only with house rules the organiser has not accepted in the campaign's "
                f"house rules text ({accepted})."
            )
    copy = crew_service.duplicate(full, user)
    copy.name = crew.name
    copy.save(update_fields=["name"])
    entry = CampaignCrew.objects.create(campaign=campaign, player=user, crew=copy, source_crew=crew)
    _log(campaign, user, "enrolled", f"{user.username} enrolled “{crew.name}” ({report['points']} points).",
         crew=entry, after={"points": report["points"], "characters": len(report["characters"])})
    return entry


# --- tables ---------------------------------------------------------------------------


def parse_rows(text: str, die: str) -> list[dict]:
    """Rows typed one per line: ``1-2 | Lost an eye | intellect -1`` (the effect part is optional)."""
    parse_die(die)
    rows = []
    for number, line in enumerate((text or "").splitlines(), start=1):
        if not line.strip():
            continue
        parts = [p.strip() for p in line.split("|")]
        if len(parts) < 2 or not parts[1]:
            raise CampaignError(f"Line {number}: write “low-high | text”, e.g. “1-2 | Lost an eye”.")
        span = parts[0].replace("–", "-")
        try:
            low, high = (int(x) for x in span.split("-", 1)) if "-" in span else (int(span), int(span))
        except ValueError:
            raise CampaignError(f"Line {number}: “{parts[0]}” is not a result or a range like 1-2.") from None
        attributes = {}
        for effect in filter(None, (parts[2] if len(parts) > 2 else "").split(",")):
            bits = effect.split()
            if len(bits) != 2 or bits[0].lower() not in ATTRIBUTES:
                raise CampaignError(f"Line {number}: effects look like “toughness -1” (attribute and change).")
            try:
                attributes[bits[0].lower()] = int(bits[1])
            except ValueError:
                raise CampaignError(f"Line {number}: “{bits[1]}” is not a number.") from None
        rows.append({"low": low, "high": high, "text": parts[1][:300], "attributes": attributes})
    if not rows:
        raise CampaignError("A table needs at least one row.")
    return rows


@transaction.atomic
def create_table(campaign, actor, *, kind, name, die, rows_text) -> RollTable:
    _require_organiser(campaign, actor)
    try:
        rows = parse_rows(rows_text, die)
    except ValueError as exc:
        raise CampaignError(str(exc)) from None
    missing = uncovered(die, [(r["low"], r["high"]) for r in rows])
    if missing:
        raise CampaignError(f"No row covers {', '.join(map(str, missing[:8]))}: every result of {die.upper()} needs a row.")
    table = RollTable.objects.create(campaign=campaign, kind=kind, name=name.strip()[:100], die=die.strip().upper(), rows=rows)
    _log(campaign, actor, "table-created", f"{actor.username} defined the {kind} table “{table.name}” ({table.die}).")
    return table


@dataclass(frozen=True)
class TableResult:
    table_id: int
    seed: int
    dice: tuple
    result: int
    row: dict


def roll_on_table(table: RollTable, seed: int | None = None) -> TableResult:
    seed = secrets.randbelow(2**31) if seed is None else seed
    roll = roll_table_die(table.die, seed)
    row = next((r for r in table.rows if r["low"] <= roll.result <= r["high"]), {"text": "(no row)", "attributes": {}})
    return TableResult(table.pk, seed, roll.dice, roll.result, row)


# --- games ------------------------------------------------------------------------------


@transaction.atomic
def record_game(campaign, actor, *, played_on, scenario, complication="", participants, winner=None, is_draw=False) -> Game:
    """participants: [{"crew": CampaignCrew, "treasure": int, "casualties": [...], "effects": [...]}]."""
    if not is_member(campaign, actor):
        raise CampaignError("Only members record games.")
    if len(participants) < 2:
        raise CampaignError("A game needs at least two crews.")
    crews = [p["crew"] for p in participants]
    if any(c.campaign_id != campaign.pk for c in crews) or len(set(c.pk for c in crews)) != len(crews):
        raise CampaignError("Each crew must be in this campaign, once.")
    if winner is not None and winner not in crews:
        raise CampaignError("The winner must be one of the crews that played.")
    game = Game.objects.create(
        campaign=campaign, played_on=played_on, scenario=scenario, complication=complication,
        winner=None if is_draw else winner, is_draw=is_draw, recorded_by=actor,
    )
    for p in participants:
        GameCrew.objects.create(game=game, campaign_crew=p["crew"], treasure=p.get("treasure", 0),
                                casualties=p.get("casualties", []), effects=p.get("effects", []))
    result = "a draw" if is_draw else (f"won by {winner.crew.name}" if winner else "no result")
    _log(campaign, actor, "game-recorded", f"{actor.username} recorded {scenario} on {played_on}: {result}. Waiting for confirmation.")
    return game


def confirm_game(game: Game, actor, game_crew: GameCrew | None = None, for_everyone: bool = False) -> bool:
    """Confirm a game for the actor's own crew, or (the organiser, ``for_everyone``) for all.

    Returns True when this confirmation made the result count. Concurrent
    confirmations serialise on the game row, so a result applies once.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status == Game.APPLIED:
            return False
        parts = list(game.participants.select_related("campaign_crew__crew"))
        organiser = is_organiser(game.campaign, actor)
        own = [p for p in parts if p.campaign_crew.player_id == actor.pk and (game_crew is None or p.pk == game_crew.pk)]
        targets = parts if organiser and (for_everyone or not own) else own
        if not targets:
            raise CampaignError("You have no crew in this game to confirm for.")
        now = timezone.now()
        for part in targets:
            if part.confirmed_at is None:
                part.confirmed_by, part.confirmed_at = actor, now
                part.save(update_fields=["confirmed_by", "confirmed_at"])
        if any(p.confirmed_at is None for p in parts):
            return False
        _apply_game(game, parts, actor)
        game.status = Game.APPLIED
        game.save(update_fields=["status"])
        return True


def _apply_game(game: Game, parts: list[GameCrew], actor) -> None:
    campaign = game.campaign
    for part in parts:
        entry = part.campaign_crew
        if part.treasure:
            before = entry.treasury
            CampaignCrew.objects.filter(pk=entry.pk).update(treasury=before + part.treasure)
            _log(campaign, actor, "treasure", f"{entry.crew.name} carried off {part.treasure} Treasure Token(s).",
                 crew=entry, before={"treasury": before}, after={"treasury": before + part.treasure})
        for effect in part.effects:
            _apply_effect(campaign, actor, entry, effect)
        for casualty in part.casualties:
            if casualty.get("outcome") == "dead":
                _bury(campaign, actor, entry, casualty, game)
    _log(campaign, actor, "game-counted", f"The result of {game.scenario} on {game.played_on} now counts.")


def _apply_effect(campaign, actor, entry, effect) -> None:
    character = Character.objects.filter(pk=effect.get("character"), crew=entry.crew).first()
    if character is None:
        return
    before = {a: getattr(character, a) for a in ATTRIBUTES} | {"notes": character.notes}
    for attribute, change in (effect.get("attributes") or {}).items():
        if attribute in ATTRIBUTES:
            setattr(character, attribute, getattr(character, attribute) + int(change))
    line = f"{effect.get('table_name', 'Effect')}: {effect.get('text', '')}".strip()
    character.notes = (character.notes + "\n" + line).strip()
    character.save()
    after = {a: getattr(character, a) for a in ATTRIBUTES} | {"notes": character.notes}
    _log(campaign, actor, "effect", f"{character.name} ({entry.crew.name}): {line}", crew=entry,
         before={"character": character.pk, **before}, after={"character": character.pk, **after})


def _bury(campaign, actor, entry, casualty, game) -> None:
    character = Character.objects.filter(pk=casualty.get("character"), crew=entry.crew).first()
    if character is None:
        return
    full = Crew.objects.with_everything().get(pk=entry.crew_id)
    snapshot = next((c for c in crew_to_data(full)["characters"] if c["name"] == character.name), {})
    Memorial.objects.create(campaign_crew=entry, name=character.name, snapshot=snapshot, game=game)
    character.delete()
    _log(campaign, actor, "death", f"{character.name} of {entry.crew.name} died.", crew=entry,
         before={"character": snapshot}, after={})


# --- between games ------------------------------------------------------------------------


def _treasury_for(entry: CampaignCrew, actor) -> tuple[CampaignCrew, Campaign]:
    """The crew entry locked for spending, after checking who spends and that tokens have a price."""
    if entry.player_id != actor.pk:
        raise CampaignError("Only the crew's player can spend its treasury.")
    campaign = entry.campaign
    if not campaign.treasure_value:
        raise CampaignError("The organiser has not set what a Treasure Token buys yet.")
    return CampaignCrew.objects.select_for_update().get(pk=entry.pk), campaign


def _tokens_for(points: int, campaign: Campaign) -> int:
    """Whole Treasure Tokens to pay ``points`` (rounded up)."""
    return -(-points // campaign.treasure_value)


@transaction.atomic
def buy_gear(entry: CampaignCrew, actor, character_id: int, slug: str) -> None:
    """Spend Treasure on gear, validated like the builder; the crew budget grows by what was spent."""
    entry, campaign = _treasury_for(entry, actor)
    crew = entry.crew
    item = crew_edits._catalogue_entry(crew_edits.Item, crew, slug, "item")
    if (item.effects or {}).get("campaign_crew_creation_only"):
        raise CampaignError(f"{item.name} can only be bought at crew creation in a campaign.")
    tokens = _tokens_for(item.cost, campaign)
    if tokens > entry.treasury:
        raise CampaignError(f"{item.name} costs {item.cost} points = {tokens} Treasure Token(s); the treasury holds {entry.treasury}.")
    before = {"treasury": entry.treasury, "budget": crew.budget}
    crew_edits.add_gear(crew, {"character": character_id, "slug": slug})
    crew.budget += item.cost
    crew.version += 1
    crew.save(update_fields=["budget", "version", "updated_at"])
    entry.treasury -= tokens
    entry.save(update_fields=["treasury"])
    _log(campaign, actor, "purchase", f"{crew.name} bought {item.name} for {tokens} Treasure Token(s).", crew=entry,
         before=before, after={"treasury": entry.treasury, "budget": crew.budget, "item": slug, "character": int(character_id)})


@transaction.atomic
def hire_character(entry: CampaignCrew, actor, name: str, attributes: dict) -> Character:
    """Spend Treasure on a new character (its base cost), validated like the builder."""
    entry, campaign = _treasury_for(entry, actor)
    crew = Crew.objects.with_everything().get(pk=entry.crew_id)
    catalogue = snapshot_for_system(crew.system)
    cost = catalogue.rules.get("character_base_cost", 15)
    tokens = _tokens_for(cost, campaign)
    if tokens > entry.treasury:
        raise CampaignError(f"A new character costs {cost} points = {tokens} Treasure Token(s); the treasury holds {entry.treasury}.")
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
    before = {"treasury": entry.treasury, "budget": crew.budget}
    Crew.objects.filter(pk=crew.pk).update(budget=crew.budget + cost, version=crew.version + 1)
    entry.treasury -= tokens
    entry.save(update_fields=["treasury"])
    _log(campaign, actor, "hire", f"{crew.name} hired {name} for {tokens} Treasure Token(s).", crew=entry,
         before=before, after={"treasury": entry.treasury, "budget": crew.budget + cost, "character": character.pk})
    return character


# --- reversal --------------------------------------------------------------------------------


REVERSIBLE = {"treasure", "purchase", "effect"}


@transaction.atomic
def reverse_entry(entry: HistoryEntry, actor) -> HistoryEntry:
    """Undo a mistaken entry with a new one; nothing is erased."""
    campaign = entry.campaign
    _require_organiser(campaign, actor)
    entry = HistoryEntry.objects.select_for_update().get(pk=entry.pk)
    if HistoryEntry.objects.filter(reverses=entry).exists():
        raise CampaignError("That entry was already reversed.")
    if entry.kind not in REVERSIBLE:
        raise CampaignError("That kind of entry cannot be reversed automatically.")
    crew_entry = entry.campaign_crew
    if entry.kind in {"treasure", "purchase"}:
        CampaignCrew.objects.filter(pk=crew_entry.pk).update(treasury=entry.before["treasury"])
        if entry.kind == "purchase":
            crew = crew_entry.crew
            row = crew.characters.filter(pk=entry.after.get("character")).first()
            gear = row.gear.filter(item__slug=entry.after.get("item")).order_by("-position").first() if row else None
            if gear is not None:
                crew_edits.remove_gear(crew, {"character": row.pk, "row": gear.pk})
            Crew.objects.filter(pk=crew.pk).update(budget=entry.before["budget"])
    elif entry.kind == "effect":
        character = Character.objects.filter(pk=entry.before.get("character")).first()
        if character is not None:
            for attribute in ATTRIBUTES:
                setattr(character, attribute, entry.before[attribute])
            character.notes = entry.before["notes"]
            character.save()
    return _log(campaign, actor, "reversal", f"{actor.username} reversed: {entry.summary}", crew=crew_entry,
                before=entry.after, after=entry.before, reverses=entry)
