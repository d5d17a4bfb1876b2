"""One function per campaign operation.

Each runs in one transaction and writes a HistoryEntry (who, when, what,
before and after), so a failure half-way leaves nothing applied and every
change can be read back, and reversed by the organiser with a new entry.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import IntegrityError, OperationalError, connection, transaction
from django.utils import timezone

import random

from campaigns import idempotency
from campaigns.models import (
    CAMPAIGN_TEXT_MAX, Campaign, CampaignCrew, CampaignScenario, EnrolmentRequest, Game, GameCrew, HistoryEntry, Memorial, Membership,
    RollTable,
)
from crewbuilder import crew_edits, crew_service
from catalogue.loader import snapshot_for_system
from crewbuilder.validation import crew_to_data, validate_crew
from crewbuilder.models import (
    Character, CharacterBodyMod, CharacterGear, CharacterTrait, Complication, Crew, EnvironmentEffect, Scenario,
)
from crewbuilder.models.catalogue import ATTRIBUTES
from crewbuilder.wording import count_noun
from rules.cybernekro import scenarios as scenario_rules
from rules.tables import parse_die, roll_table_die, uncovered


class CampaignError(ValueError):
    """The operation is not allowed; the message says why, for people."""


def _log(campaign, actor, kind, summary, *, crew=None, before=None, after=None, reverses=None, game=None) -> HistoryEntry:
    return HistoryEntry.objects.create(
        campaign=campaign, campaign_crew=crew, actor=actor, kind=kind, summary=summary[:300],
        before=before or {}, after=after or {}, reverses=reverses, game=game,
    )


def _people_errors(function):
    """Input checks borrowed from the builder raise EditError; callers of this module get CampaignError."""
    import functools

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except crew_edits.EditError as exc:
            raise CampaignError(str(exc)) from None

    return wrapper


def is_organiser(campaign: Campaign, user) -> bool:
    return campaign.organiser_id == user.pk


def is_member(campaign: Campaign, user) -> bool:
    return is_organiser(campaign, user) or campaign.memberships.filter(user=user, status=Membership.ACCEPTED).exists()


def catalogue_for(campaign: Campaign):
    """The campaign's catalogue snapshot (cached per catalogue version: no query when warm)."""
    return snapshot_for_system(campaign.system)


def _require_organiser(campaign, user):
    if not is_organiser(campaign, user):
        raise CampaignError("Only the organiser can do that.")


# --- campaign and members ------------------------------------------------------------


@_people_errors
@transaction.atomic
def create_campaign(organiser, *, name, system, description="", house_rules="", starting_budget=150, treasure_value=None,
                    submission_key=""):
    idempotency.claim(organiser, submission_key)  # a double click starts one campaign
    name = crew_edits._clean_text(name, "Campaign name", 100, required=True)
    description = crew_edits._clean_text(description, "Description", CAMPAIGN_TEXT_MAX, required=False)
    house_rules = crew_edits._clean_text(house_rules, "House rules", CAMPAIGN_TEXT_MAX, required=False)
    campaign = Campaign.objects.create(
        name=name, system=system, organiser=organiser, description=description, house_rules=house_rules,
        starting_budget=starting_budget, treasure_value=treasure_value,
    )
    _log(campaign, organiser, "campaign-created", f"{organiser.username} started the campaign “{name}”.")
    return campaign


@transaction.atomic
def invite(campaign, actor, username: str) -> Membership:
    _require_organiser(campaign, actor)
    user = get_user_model().objects.with_username((username or "").strip()).first()
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


def _enrolment_report(crew: Crew) -> tuple[Crew, dict]:
    full = Crew.objects.with_everything().get(pk=crew.pk)
    return full, crew_service.report_for(full)


def needs_approval(report: dict) -> bool:
    """A crew legal only with house rules (accepted findings, house-rule entries) waits for the organiser."""
    return bool(report.get("accepted") or report.get("house_rules"))


def _check_can_enrol(campaign, user, crew: Crew) -> None:
    if not is_member(campaign, user):
        raise CampaignError("Join the campaign before enrolling a crew.")
    if crew.owner_id != user.pk:
        raise CampaignError("You can only enrol your own crew.")
    if crew.system_id != campaign.system_id:
        raise CampaignError(f"This campaign plays {campaign.system}; that crew is for {crew.system}.")
    if CampaignCrew.objects.filter(campaign=campaign, player=user).exists():
        raise CampaignError("You already have a crew in this campaign.")
    if hasattr(crew, "campaign_entry"):
        raise CampaignError("That crew is itself a campaign copy; enrol your original crew.")


def _check_legal(report: dict) -> None:
    if not report["valid"] and not report.get("valid_with_house_rules"):
        problems = "; ".join(e["message"] for e in report["errors"][:3])
        raise CampaignError(f"Only a valid crew can be enrolled. Fix it first: {problems}")


@transaction.atomic
def enrol(campaign, user, crew: Crew) -> CampaignCrew | EnrolmentRequest:
    """Enrol a copy of the player's crew; the original stays untouched.

    A valid crew joins at once. A crew legal only with house rules (reading C6)
    joins only when the organiser approves: this returns the pending
    ``EnrolmentRequest`` instead. The organiser's own crew joins at once, its
    house rules being the organiser's to accept.
    """
    _check_can_enrol(campaign, user, crew)
    if EnrolmentRequest.objects.filter(campaign=campaign, player=user, status=EnrolmentRequest.PENDING).exists():
        raise CampaignError("Your crew is already waiting for the organiser's approval.")
    full, report = _enrolment_report(crew)
    _check_legal(report)
    if needs_approval(report) and not is_organiser(campaign, user):
        findings = [{"code": a["code"], "character": a.get("character"), "message": a.get("message", ""),
                     "note": a.get("note", "")} for a in report.get("accepted", [])]
        request = EnrolmentRequest.objects.create(
            campaign=campaign, player=user, crew=crew, crew_version=crew.version, points=report["points"],
            findings=findings,
        )
        _log(campaign, user, "enrol-requested",
             f"{user.username} asked to enrol “{crew.name}”, legal with house rules: waiting for the organiser.",
             after={"crew": crew.name, "points": report["points"], "house_rules": findings})
        return request
    return _enrol_copy(campaign, user, full, report, actor=user)


def _enrol_copy(campaign, player, full: Crew, report: dict, *, actor) -> CampaignCrew:
    copy = crew_service.duplicate(full, player)
    copy.name = full.name
    copy.save(update_fields=["name"])
    entry = CampaignCrew.objects.create(campaign=campaign, player=player, crew=copy, source_crew=full)
    after = {"points": report["points"], "characters": len(report["characters"])}
    if report.get("accepted"):
        after["house_rules"] = [f'{a["code"]}: {a.get("note", "")}' for a in report["accepted"]]
    _log(campaign, actor, "enrolled", f"“{full.name}” of {player.username} enrolled ({report['points']} points).",
         crew=entry, after=after)
    return entry


def _locked_request(request: EnrolmentRequest, actor) -> EnrolmentRequest:
    _require_organiser(request.campaign, actor)
    request = EnrolmentRequest.objects.select_for_update().select_related("campaign", "player").get(pk=request.pk)
    if request.status != EnrolmentRequest.PENDING:
        raise CampaignError(f"That request was already {request.get_status_display().lower()}.")
    return request


@transaction.atomic
def approve_enrolment(request: EnrolmentRequest, actor) -> CampaignCrew:
    """The organiser accepts the crew's house rules: the campaign copy joins now."""
    request = _locked_request(request, actor)
    campaign, player = request.campaign, request.player
    crew = Crew.objects.select_for_update().get(pk=request.crew_id)
    if crew.version != request.crew_version:
        raise CampaignError("The crew changed since it was submitted: refuse this request and let the player enrol it again.")
    _check_can_enrol(campaign, player, crew)
    full, report = _enrolment_report(crew)
    _check_legal(report)
    entry = _enrol_copy(campaign, player, full, report, actor=actor)
    request.status, request.decided_by, request.decided_at, request.entry = (
        EnrolmentRequest.APPROVED, actor, timezone.now(), entry)
    request.save(update_fields=["status", "decided_by", "decided_at", "entry"])
    _log(campaign, actor, "enrol-approved",
         f"{actor.username} accepted the house rules of “{crew.name}” ({player.username}).", crew=entry,
         before={"request": EnrolmentRequest.PENDING}, after={"request": EnrolmentRequest.APPROVED,
                                                             "house_rules": request.findings})
    return entry


@_people_errors
@transaction.atomic
def refuse_enrolment(request: EnrolmentRequest, actor, reason: str = "") -> EnrolmentRequest:
    request = _locked_request(request, actor)
    reason = crew_edits._clean_text(reason, "Reason", 300, required=False)
    request.status, request.decided_by, request.decided_at, request.reason = (
        EnrolmentRequest.REFUSED, actor, timezone.now(), reason)
    request.save(update_fields=["status", "decided_by", "decided_at", "reason"])
    _log(request.campaign, actor, "enrol-refused",
         f"{actor.username} refused “{request.crew.name}” ({request.player.username})"
         + (f": {reason}" if reason else "."),
         before={"request": EnrolmentRequest.PENDING}, after={"request": EnrolmentRequest.REFUSED, "reason": reason})
    return request


# --- organiser's scenarios ------------------------------------------------------------


@_people_errors
@transaction.atomic
def create_scenario(campaign, actor, *, name, text="", draws_complication=False, card=None) -> CampaignScenario:
    """A campaign scenario (reading C8): picked in the game form, drawn when it has a card."""
    _require_organiser(campaign, actor)
    name = crew_edits._clean_text(name, "Scenario name", 100, required=True)
    text = crew_edits._clean_text(text, "Scenario text", 5000, required=False)
    if card in ("", None):
        card = None
    else:
        card = crew_edits._parse_int(card, "Card", 1, 13)
    if Scenario.objects.filter(system=campaign.system, name__iexact=name).exists() or \
            campaign.scenarios.filter(name__iexact=name).exists():
        raise CampaignError(f"There is already a scenario called “{name}”.")
    taken = campaign.scenarios.filter(card=card).first() if card else None
    if taken is not None:
        raise CampaignError(f"The {CampaignScenario.RANKS[card - 1]} already gives “{taken.name}”.")
    scenario = CampaignScenario.objects.create(campaign=campaign, name=name, text=text,
                                               draws_complication=bool(draws_complication), card=card)
    where = f" on the {scenario.card_label}" if card else ""
    _log(campaign, actor, "scenario-created", f"{actor.username} added the campaign scenario “{name}”{where}.",
         after={"name": name, "card": scenario.card_label or "–", "draws_complication": scenario.draws_complication})
    return scenario


def scenario_choices(campaign) -> list[dict]:
    """Every scenario a game may name: the rules' (from the catalogue), then the campaign's."""
    rules = [{"key": f"rules:{s.slug}", "name": s.name, "text": s.text, "draws_complication": s.draws_complication,
              "source": "rules", "environment_effects": bool((s.effects or {}).get("environment_effects")),
              "card": None}
             for s in Scenario.objects.filter(system=campaign.system)]
    own = [{"key": f"campaign:{s.pk}", "name": s.name, "text": s.text, "draws_complication": s.draws_complication,
            "source": "campaign", "environment_effects": False, "card": s.card}
           for s in campaign.scenarios.all()]
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
        entries = [{"number": c.number, "name": c.name, "text": c.text}
                   for c in Complication.objects.filter(system=campaign.system)]
        complication = scenario_rules.complication_for(complication_card.number, entries)
    rounds = []
    if scenario is None or scenario["environment_effects"]:
        effects = [{"number": e.number, "name": e.name, "text": e.text}
                   for e in EnvironmentEffect.objects.filter(system=campaign.system)]
        rounds = [(n + 1, scenario_rules.environment_effect(rng.randint(1, 6), effects)) for n in range(6)]
    return {"seed": seed, "method": method, "pick": pick, "card": card, "scenario": scenario,
            "complication_card": complication_card, "complication": complication, "rounds": rounds}


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


def record_game(campaign, actor, *, submission_key: str = "", **details) -> Game:
    """Record a game waiting for confirmation (see ``_record_game`` for ``details``).

    With a ``submission_key`` (campaigns/idempotency.py) at most one game is
    recorded per key: a repeat, even one racing the first, gets the game
    already recorded, with ``repeated = True`` on it.
    """
    if not submission_key:
        return _record_game(campaign, actor, **details)
    for attempt in range(200):
        try:
            existing = Game.objects.filter(campaign=campaign, submission_key=submission_key).first()
            if existing is not None:
                existing.repeated = True
                return existing
            return _record_game(campaign, actor, submission_key=submission_key, **details)
        except IntegrityError:
            # A twin committed the same key first: the next lookup finds it.
            if not Game.objects.filter(campaign=campaign, submission_key=submission_key).exists():
                raise
        except OperationalError as exc:
            # SQLite serialises writers; its test database refuses a locked table
            # at once instead of waiting (as the games' locking.py explains).
            if connection.vendor != "sqlite" or "locked" not in str(exc) or connection.in_atomic_block:
                raise
            time.sleep(0.01 + 0.005 * attempt)
    raise CampaignError("The database is busy: send the game again in a moment (it will be recorded once).")


@transaction.atomic
def _record_game(campaign, actor, *, played_on, scenario, complication="", participants, winner=None, is_draw=False,
                 submission_key="") -> Game:
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
        winner=None if is_draw else winner, is_draw=is_draw, recorded_by=actor, submission_key=submission_key,
    )
    for p in participants:
        GameCrew.objects.create(game=game, campaign_crew=p["crew"], treasure=p.get("treasure", 0),
                                casualties=p.get("casualties", []), effects=p.get("effects", []))
    result = "a draw" if is_draw else (f"won by {winner.crew.name}" if winner else "no result")
    _log(campaign, actor, "game-recorded", f"{actor.username} recorded {scenario} on {played_on}: {result}. Waiting for confirmation.",
         after={"game": Game.PENDING, "scenario": scenario, "complication": complication, "result": result,
                "crews": [c.crew.name for c in crews]}, game=game)
    return game


def confirm_game(game: Game, actor, game_crew: GameCrew | None = None, for_everyone: bool = False) -> bool:
    """Confirm a game for the actor's own crew, or (the organiser, ``for_everyone``) for all.

    Returns True when this confirmation made the result count. Concurrent
    confirmations serialise on the game row, so a result applies once.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.PENDING:  # counted already, or counted and reversed: never again
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


def withdraw_game(game: Game, actor, reason: str = "") -> Game:
    """Take back a game recorded by mistake, before it counts: its recorder or the
    organiser. Nothing was applied, so nothing is undone; the game stays, marked
    withdrawn, and the history says who withdrew it and why."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if not (game.recorded_by_id == actor.pk or is_organiser(game.campaign, actor)):
            raise CampaignError("Only whoever recorded the game, or the organiser, can withdraw it.")
        if game.status != Game.PENDING:
            raise CampaignError("Only a game still waiting for confirmation can be withdrawn; "
                                "the organiser reverses a counted game from the history instead.")
        game.status = Game.WITHDRAWN
        game.save(update_fields=["status"])
        reason = " ".join((reason or "").split())[:200]
        _log(game.campaign, actor, "game-withdrawn",
             f"{actor.username} withdrew {game.scenario} on {game.played_on} before it counted"
             + (f": {reason}" if reason else "."),
             before={"game": Game.PENDING}, after={"game": Game.WITHDRAWN, "reason": reason}, game=game)
        return game


def _apply_game(game: Game, parts: list[GameCrew], actor) -> None:
    campaign = game.campaign
    for part in parts:
        entry = part.campaign_crew
        if part.treasure:
            before = CampaignCrew.objects.select_for_update().get(pk=entry.pk).treasury
            CampaignCrew.objects.filter(pk=entry.pk).update(treasury=before + part.treasure)
            _log(campaign, actor, "treasure", f"{entry.crew.name} carried off {count_noun(part.treasure, 'Treasure Token')}.",
                 crew=entry, before={"treasury": before}, after={"treasury": before + part.treasure}, game=game)
        for effect in part.effects:
            _apply_effect(campaign, actor, entry, effect, game)
        for casualty in part.casualties:
            if casualty.get("outcome") == "dead":
                _bury(campaign, actor, entry, casualty, game)
    _log(campaign, actor, "game-counted", f"The result of {game.scenario} on {game.played_on} now counts.",
         before={"game": Game.PENDING}, after={"game": Game.APPLIED}, game=game)


def _character_state(character: Character) -> dict:
    return {a: getattr(character, a) for a in ATTRIBUTES} | {"notes": character.notes}


def _apply_effect(campaign, actor, entry, effect, game=None) -> None:
    character = Character.objects.filter(pk=effect.get("character"), crew=entry.crew).first()
    if character is None:
        return
    before = _character_state(character)
    for attribute, change in (effect.get("attributes") or {}).items():
        if attribute in ATTRIBUTES:
            setattr(character, attribute, getattr(character, attribute) + int(change))
    line = f"{effect.get('table_name', 'Effect')}: {effect.get('text', '')}".strip()
    character.notes = (character.notes + "\n" + line).strip()
    character.save()
    _log(campaign, actor, "effect", f"{character.name} ({entry.crew.name}): {line}", crew=entry,
         before={"character": character.pk, **before},
         after={"character": character.pk, **_character_state(character), "line": line}, game=game)


def _character_rows(character: Character) -> dict:
    """Everything needed to put a character back exactly as it was (same id, same rows)."""
    return {
        "id": character.pk, "name": character.name, "position": character.position, "notes": character.notes,
        "attributes": {a: getattr(character, a) for a in ATTRIBUTES},
        "traits": [{"trait": t.trait_id, "choices": t.choices, "position": t.position} for t in character.traits.all()],
        "body_mods": [{"body_mod": m.body_mod_id, "position": m.position} for m in character.body_mods.all()],
        "gear": [{"item": g.item_id, "copies": g.copies, "position": g.position} for g in character.gear.all()],
    }


def _bury(campaign, actor, entry, casualty, game) -> None:
    character = Character.objects.filter(pk=casualty.get("character"), crew=entry.crew).first()
    if character is None:
        return
    full = Crew.objects.with_everything().get(pk=entry.crew_id)
    snapshot = next((c for c in crew_to_data(full)["characters"] if c["name"] == character.name), {})
    rows = _character_rows(next(c for c in full.characters.all() if c.pk == character.pk))
    memorial = Memorial.objects.create(campaign_crew=entry, name=character.name, snapshot=snapshot, game=game)
    character_id = character.pk  # delete() clears it
    character.delete()
    _log(campaign, actor, "death", f"{character.name} of {entry.crew.name} died.", crew=entry,
         before={"character": character_id, "roster": "on the roster", "snapshot": snapshot, "rows": rows},
         after={"character": character_id, "roster": "dead (in memoriam)", "memorial": memorial.pk}, game=game)


# --- edits ---------------------------------------------------------------------------------


@_people_errors
@transaction.atomic
def edit_crew(entry: CampaignCrew, actor, *, name=None, notes=None, expected_version=None) -> HistoryEntry | None:
    """Rename the campaign crew or change its notes; logged with before and after.

    ``expected_version`` is the crew version the form was rendered with: when
    the crew changed since (another tab, a purchase, a game), this raises
    ``crew_edits.StaleCrew`` and nothing is saved (issue 17, finding 6).
    """
    if entry.player_id != actor.pk:
        raise CampaignError("Only the crew's player can edit it.")
    crew = Crew.objects.select_for_update().get(pk=entry.crew_id)
    before = {"crew": crew.pk, "name": crew.name, "notes": crew.notes}
    if name is not None:
        crew.name = crew_edits._clean_text(name, "Crew name", crew_edits.NAME_MAX, required=True)
    if notes is not None:
        crew.notes = crew_edits._clean_text(notes, "Notes", crew_edits.NOTES_MAX, required=False)
    after = {"crew": crew.pk, "name": crew.name, "notes": crew.notes}
    if after == before:
        return None
    _claim_crew_version(crew, expected_version)
    crew.save(update_fields=["name", "notes", "updated_at"])
    return _log(entry.campaign, actor, "edit", f"{actor.username} edited the crew “{crew.name}”.", crew=entry,
                before=before, after=after)


@_people_errors
@transaction.atomic
def edit_character(entry: CampaignCrew, actor, character_id, *, name=None, notes=None,
                   expected_version=None) -> HistoryEntry | None:
    """Rename a character of the campaign crew or change its notes; logged with before and after.

    ``expected_version``: as for ``edit_crew``, a stale form raises ``crew_edits.StaleCrew``."""
    if entry.player_id != actor.pk:
        raise CampaignError("Only the crew's player can edit it.")
    crew = Crew.objects.select_for_update().get(pk=entry.crew_id)
    try:
        character = Character.objects.select_for_update().get(pk=int(character_id), crew=crew)
    except (TypeError, ValueError, Character.DoesNotExist):
        raise CampaignError("That character is not in your campaign crew.") from None
    before = {"character": character.pk, "name": character.name, "notes": character.notes}
    if name is not None:
        character.name = crew_edits._clean_text(name, "Character name", crew_edits.NAME_MAX, required=True)
    if notes is not None:
        character.notes = crew_edits._clean_text(notes, "Notes", crew_edits.NOTES_MAX, required=False)
    after = {"character": character.pk, "name": character.name, "notes": character.notes}
    if after == before:
        return None
    _claim_crew_version(crew, expected_version)
    character.save(update_fields=["name", "notes"])
    return _log(entry.campaign, actor, "edit", f"{actor.username} edited {before['name']} of {crew.name}.",
                crew=entry, before=before, after=after)


def _claim_crew_version(crew: Crew, expected_version) -> None:
    """Bump the crew's version in one conditional UPDATE (atomic on SQLite too); a
    form rendered from an older version raises StaleCrew. ``None``: no form, no check."""
    crew_edits.claim_version(crew.pk, crew.version if expected_version is None else expected_version)
    crew.version += 1


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
def buy_gear(entry: CampaignCrew, actor, character_id: int, slug: str, *, submission_key: str = "") -> None:
    """Spend Treasure on gear, validated like the builder; the crew budget grows by what was spent.
    A ``submission_key`` already used raises ``idempotency.AlreadySubmitted``: nothing is spent twice."""
    entry, campaign = _treasury_for(entry, actor)
    idempotency.claim(actor, submission_key)
    crew = entry.crew
    item = crew_edits._catalogue_entry(crew_edits.Item, crew, slug, "item")
    if (item.effects or {}).get("campaign_crew_creation_only"):
        raise CampaignError(f"{item.name} can only be bought at crew creation in a campaign.")
    tokens = _tokens_for(item.cost, campaign)
    if tokens > entry.treasury:
        raise CampaignError(f"{item.name} costs {item.cost} points = {count_noun(tokens, 'Treasure Token')}; the treasury holds {entry.treasury}.")
    before = {"treasury": entry.treasury, "budget": crew.budget}
    crew_edits.add_gear(crew, {"character": character_id, "slug": slug})
    crew.budget += item.cost
    crew.version += 1
    crew.save(update_fields=["budget", "version", "updated_at"])
    entry.treasury -= tokens
    entry.save(update_fields=["treasury"])
    _log(campaign, actor, "purchase", f"{crew.name} bought {item.name} for {count_noun(tokens, 'Treasure Token')}.", crew=entry,
         before=before, after={"treasury": entry.treasury, "budget": crew.budget, "item": slug,
                               "character": int(character_id), "tokens": tokens, "cost": item.cost})


@transaction.atomic
def hire_character(entry: CampaignCrew, actor, name: str, attributes: dict, *, submission_key: str = "") -> Character:
    """Spend Treasure on a new character (its base cost), validated like the builder.
    A ``submission_key`` already used raises ``idempotency.AlreadySubmitted``: nobody is hired twice."""
    entry, campaign = _treasury_for(entry, actor)
    idempotency.claim(actor, submission_key)
    crew = Crew.objects.with_everything().get(pk=entry.crew_id)
    catalogue = snapshot_for_system(crew.system)
    cost = catalogue.rules.get("character_base_cost", 15)
    tokens = _tokens_for(cost, campaign)
    if tokens > entry.treasury:
        raise CampaignError(f"A new character costs {cost} points = {count_noun(tokens, 'Treasure Token')}; the treasury holds {entry.treasury}.")
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
    before = {"treasury": entry.treasury, "budget": crew.budget, "roster": "–"}
    Crew.objects.filter(pk=crew.pk).update(budget=crew.budget + cost, version=crew.version + 1)
    entry.treasury -= tokens
    entry.save(update_fields=["treasury"])
    _log(campaign, actor, "hire", f"{crew.name} hired {name} for {count_noun(tokens, 'Treasure Token')}.", crew=entry,
         before=before, after={"treasury": entry.treasury, "budget": crew.budget + cost, "character": character.pk,
                               "roster": f"{name} hired", "tokens": tokens, "cost": cost})
    return character


# --- reversal --------------------------------------------------------------------------------
#
# The organiser undoes a mistaken entry with a new "reversal" entry; nothing is
# erased (reading C5). Each undo works on differences (tokens, points,
# attribute changes), not by copying old values back, so unrelated later
# changes survive; it refuses, naming the later entry, when a later change
# depends on the one being undone.

REVERSIBLE = {"treasure", "purchase", "effect", "death", "hire", "edit", "game-counted"}
_CHARACTER_KINDS = {"effect", "purchase", "hire", "death", "edit"}


def _character_id(entry: HistoryEntry) -> int | None:
    for side in (entry.after, entry.before):
        value = side.get("character")
        if isinstance(value, int):
            return value
    return None


def _later_on_character(entry: HistoryEntry, character_id, kinds=_CHARACTER_KINDS, skip=()) -> HistoryEntry | None:
    """The first later, still standing entry about the same character (one of ``kinds``)."""
    later = HistoryEntry.objects.filter(
        campaign_crew_id=entry.campaign_crew_id, pk__gt=entry.pk, kind__in=kinds, undone_by__isnull=True,
    ).exclude(pk__in=[e.pk for e in skip]).order_by("pk")
    return next((e for e in later if _character_id(e) == character_id), None)


def _blocked(later: HistoryEntry, what: str) -> CampaignError:
    return CampaignError(
        f"Cannot reverse this: {what} A later entry depends on it (“{later.summary}”, "
        f"{timezone.localtime(later.created_at):%Y-%m-%d %H:%M}); reverse that one first."
    )


def _change_treasury(crew_entry: CampaignCrew, change: int) -> tuple[int, int]:
    locked = CampaignCrew.objects.select_for_update().get(pk=crew_entry.pk)
    if locked.treasury + change < 0:
        raise CampaignError(
            f"Cannot reverse this: the treasury holds {count_noun(locked.treasury, 'Treasure Token')} and {-change} would have "
            "to come out; they were spent since. Reverse the later purchase or hire first."
        )
    CampaignCrew.objects.filter(pk=locked.pk).update(treasury=locked.treasury + change)
    return locked.treasury, locked.treasury + change


def _change_budget(crew_entry: CampaignCrew, change: int) -> tuple[int, int]:
    crew = Crew.objects.select_for_update().get(pk=crew_entry.crew_id)
    Crew.objects.filter(pk=crew.pk).update(budget=crew.budget + change, version=crew.version + 1,
                                           updated_at=timezone.now())
    return crew.budget, crew.budget + change


def _living(entry: HistoryEntry, character_id, skip=()) -> Character:
    character = Character.objects.select_for_update().filter(pk=character_id, crew_id=entry.campaign_crew.crew_id).first()
    if character is None:
        death = _later_on_character(entry, character_id, kinds={"death"}, skip=skip)
        if death is not None:
            raise _blocked(death, "the character has died since.")
        raise CampaignError("Cannot reverse this: the character is no longer in the crew.")
    return character


def _undo_treasure(entry, skip):
    amount = entry.after["treasury"] - entry.before["treasury"]
    was, now = _change_treasury(entry.campaign_crew, -amount)
    return {"treasury": was}, {"treasury": now}


def _undo_purchase(entry, skip):
    character = _living(entry, entry.after.get("character"), skip)
    gear = character.gear.filter(item__slug=entry.after.get("item")).order_by("-position", "-id").first()
    if gear is None:
        raise CampaignError("Cannot reverse this: the item is no longer carried by that character.")
    tokens = entry.after.get("tokens", entry.before["treasury"] - entry.after["treasury"])
    cost = entry.after.get("cost", entry.after["budget"] - entry.before["budget"])
    crew_edits.remove_gear(entry.campaign_crew.crew, {"character": character.pk, "row": gear.pk})
    was_t, now_t = _change_treasury(entry.campaign_crew, tokens)
    was_b, now_b = _change_budget(entry.campaign_crew, -cost)
    return ({"treasury": was_t, "budget": was_b, "item": entry.after.get("item")},
            {"treasury": now_t, "budget": now_b, "item": "refunded"})


def _undo_effect(entry, skip):
    character = _living(entry, entry.before.get("character"), skip)
    before = _character_state(character)
    for attribute in ATTRIBUTES:
        setattr(character, attribute, getattr(character, attribute) - (entry.after[attribute] - entry.before[attribute]))
    line = entry.after.get("line")
    if line is None:  # entries written before the line was kept: it is what the effect appended
        line = entry.after["notes"][len(entry.before["notes"]):].strip()
    lines = character.notes.split("\n")
    if line in lines:
        del lines[len(lines) - 1 - lines[::-1].index(line)]
        character.notes = "\n".join(lines).strip()
    character.save()
    return {"character": character.pk, **before}, {"character": character.pk, **_character_state(character)}


def _undo_death(entry, skip):
    rows = entry.before.get("rows")
    if not rows:
        raise CampaignError("Cannot reverse this death automatically: the entry predates saved rosters.")
    crew = Crew.objects.select_for_update().get(pk=entry.campaign_crew.crew_id)
    if Character.objects.filter(pk=rows["id"]).exists():
        raise CampaignError("Cannot reverse this: the character is already on a roster.")
    character = Character.objects.create(pk=rows["id"], crew=crew, name=rows["name"], position=rows["position"],
                                         notes=rows["notes"], **rows["attributes"])
    CharacterTrait.objects.bulk_create(CharacterTrait(character=character, trait_id=t["trait"], choices=t["choices"],
                                                      position=t["position"]) for t in rows["traits"])
    CharacterBodyMod.objects.bulk_create(CharacterBodyMod(character=character, body_mod_id=m["body_mod"],
                                                          position=m["position"]) for m in rows["body_mods"])
    CharacterGear.objects.bulk_create(CharacterGear(character=character, item_id=g["item"], copies=g["copies"],
                                                    position=g["position"]) for g in rows["gear"])
    Crew.objects.filter(pk=crew.pk).update(version=crew.version + 1, updated_at=timezone.now())
    Memorial.objects.filter(pk=entry.after.get("memorial")).update(returned_at=timezone.now())
    return ({"character": character.pk, "roster": "dead (in memoriam)"},
            {"character": character.pk, "roster": "back on the roster"})


def _undo_hire(entry, skip):
    character_id = entry.after["character"]
    later = _later_on_character(entry, character_id, skip=skip)
    if later is not None:
        raise _blocked(later, f"{entry.summary}")
    character = Character.objects.select_for_update().filter(pk=character_id).first()
    if character is None:
        raise CampaignError("Cannot reverse this: the hired character is no longer in the crew.")
    tokens = entry.after.get("tokens", entry.before["treasury"] - entry.after["treasury"])
    cost = entry.after.get("cost", entry.after["budget"] - entry.before["budget"])
    name = character.name
    character.delete()
    was_t, now_t = _change_treasury(entry.campaign_crew, tokens)
    was_b, now_b = _change_budget(entry.campaign_crew, -cost)
    return ({"treasury": was_t, "budget": was_b, "roster": name},
            {"treasury": now_t, "budget": now_b, "roster": f"{name} left, cost refunded"})


def _undo_edit(entry, skip):
    fields = ("name", "notes")
    if "crew" in entry.after:
        target = Crew.objects.select_for_update().get(pk=entry.after["crew"])
    else:
        target = _living(entry, entry.after.get("character"), skip)
    current = {f: getattr(target, f) for f in fields}
    if current != {f: entry.after[f] for f in fields}:
        later = HistoryEntry.objects.filter(campaign_crew_id=entry.campaign_crew_id, pk__gt=entry.pk, kind="edit",
                                            undone_by__isnull=True).order_by("pk")
        key = "crew" if "crew" in entry.after else "character"
        dependent = next((e for e in later if e.after.get(key) == entry.after[key]), None)
        if dependent is not None:
            raise _blocked(dependent, "it was edited again since.")
        raise CampaignError("Cannot reverse this: the name or notes changed since (a game's lasting effect).")
    for f in fields:
        setattr(target, f, entry.before[f])
    target.save(update_fields=list(fields))
    ident = {"crew": target.pk} if "crew" in entry.after else {"character": target.pk}
    return ident | current, ident | {f: entry.before[f] for f in fields}


def _undo_game(entry, skip):
    """Undo every step a counted game applied, newest first, as one reversal."""
    if entry.game_id is None:
        raise CampaignError("Cannot reverse this: the entry does not name its game.")
    game = Game.objects.select_for_update().get(pk=entry.game_id)
    if game.status != Game.APPLIED:
        raise CampaignError("That game does not count at the moment.")
    steps = list(HistoryEntry.objects.select_for_update().filter(game=game, kind__in={"treasure", "effect", "death"},
                                                                 undone_by__isnull=True).order_by("-pk"))
    done = []
    for step in steps:
        # Later steps of this same game are being undone too (newest first), so they do not block.
        before, after = UNDO[step.kind](step, skip=steps)
        done.append({"entry": step.pk, "what": step.summary, "before": before, "after": after})
    game.status = Game.REVERSED
    game.save(update_fields=["status"])
    return ({"game": Game.APPLIED, "steps": [d["what"] for d in done]},
            {"game": Game.REVERSED, "steps": [f"undone: {d['what']}" for d in done]}), steps


UNDO = {
    "treasure": _undo_treasure, "purchase": _undo_purchase, "effect": _undo_effect, "death": _undo_death,
    "hire": _undo_hire, "edit": _undo_edit,
}


@transaction.atomic
def reverse_entry(entry: HistoryEntry, actor) -> HistoryEntry:
    """Undo a mistaken entry with a new one, in one transaction; nothing is erased."""
    campaign = entry.campaign
    _require_organiser(campaign, actor)
    entry = HistoryEntry.objects.select_for_update(of=("self",)).select_related("campaign_crew__crew").get(pk=entry.pk)
    if entry.undone_by_id is not None or HistoryEntry.objects.filter(reverses=entry).exists():
        raise CampaignError("That entry was already reversed.")
    if entry.kind not in REVERSIBLE:
        raise CampaignError("That kind of entry cannot be reversed automatically.")
    undone = [entry]
    if entry.kind == "game-counted":
        (before, after), steps = _undo_game(entry, ())
        undone += steps
    else:
        before, after = UNDO[entry.kind](entry, ())
    reversal = _log(campaign, actor, "reversal", f"{actor.username} reversed: {entry.summary}",
                    crew=entry.campaign_crew, before=before, after=after, reverses=entry, game=entry.game)
    HistoryEntry.objects.filter(pk__in=[e.pk for e in undone]).update(undone_by=reversal)
    return reversal
