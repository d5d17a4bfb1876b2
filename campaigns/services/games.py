"""Recording a game, confirming it (its result counts once every player has), withdrawing it."""

from __future__ import annotations

import time

from django.db import IntegrityError, OperationalError, connection, transaction
from django.db.models import F
from django.utils import timezone

from campaigns.models import CampaignCrew, Game, GameCrew, Memorial
from campaigns.permissions import check_user_can_withdraw_game, check_user_is_member, user_is_organiser
from campaigns.services.base import CampaignError
from campaigns.services.base import log as _log
from crewbuilder import crew_edits
from crewbuilder.models import Character, Crew
from crewbuilder.models.catalogue import ATTRIBUTES
from crewbuilder.validation import crew_to_data, with_changes
from crewbuilder.wording import count_noun


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
def _record_game(
    campaign,
    actor,
    *,
    played_on,
    scenario,
    complication="",
    participants,
    winner=None,
    is_draw=False,
    submission_key="",
) -> Game:
    """participants: [{"crew": CampaignCrew, "treasure": int, "casualties": [...], "effects": [...]}]."""
    check_user_is_member(actor, campaign, "Only members record games.")
    if len(participants) < 2:
        raise CampaignError("A game needs at least two crews.")
    crews = [p["crew"] for p in participants]
    if any(c.campaign_id != campaign.pk for c in crews) or len(set(c.pk for c in crews)) != len(crews):
        raise CampaignError("Each crew must be in this campaign, once.")
    if winner is not None and winner not in crews:
        raise CampaignError("The winner must be one of the crews that played.")
    game = Game.objects.create(
        campaign=campaign,
        played_on=played_on,
        scenario=scenario,
        complication=complication,
        winner=None if is_draw else winner,
        is_draw=is_draw,
        recorded_by=actor,
        submission_key=submission_key,
    )
    for p in participants:
        GameCrew.objects.create(
            game=game,
            campaign_crew=p["crew"],
            treasure=p.get("treasure", 0),
            casualties=p.get("casualties", []),
            effects=p.get("effects", []),
        )
    result = "a draw" if is_draw else (f"won by {winner.crew.name}" if winner else "no result")
    _log(
        campaign,
        actor,
        "game-recorded",
        f"{actor.username} recorded {scenario} on {played_on}: {result}. Waiting for confirmation.",
        after={
            "game": Game.PENDING,
            "scenario": scenario,
            "complication": complication,
            "result": result,
            "crews": [c.crew.name for c in crews],
        },
        game=game,
    )
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
        organiser = user_is_organiser(actor, game.campaign)
        own = [
            p for p in parts if p.campaign_crew.player_id == actor.pk and (game_crew is None or p.pk == game_crew.pk)
        ]
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
        check_user_can_withdraw_game(actor, game)
        if game.status != Game.PENDING:
            raise CampaignError(
                "Only a game still waiting for confirmation can be withdrawn; "
                "the organiser reverses a counted game from the history instead."
            )
        game.status = Game.WITHDRAWN
        game.save(update_fields=["status"])
        reason = " ".join((reason or "").split())[:200]
        _log(
            game.campaign,
            actor,
            "game-withdrawn",
            f"{actor.username} withdrew {game.scenario} on {game.played_on} before it counted"
            + (f": {reason}" if reason else "."),
            before={"game": Game.PENDING},
            after={"game": Game.WITHDRAWN, "reason": reason},
            game=game,
        )
        return game


def _apply_game(game: Game, parts: list[GameCrew], actor) -> None:
    campaign = game.campaign
    for part in parts:
        entry = part.campaign_crew
        if part.treasure:
            before = CampaignCrew.objects.select_for_update().get(pk=entry.pk).treasury
            CampaignCrew.objects.filter(pk=entry.pk).update(treasury=before + part.treasure)
            _log(
                campaign,
                actor,
                "treasure",
                f"{entry.crew.name} carried off {count_noun(part.treasure, 'Treasure Token')}.",
                crew=entry,
                before={"treasury": before},
                after={"treasury": before + part.treasure},
                game=game,
            )
        for effect in part.effects:
            _apply_effect(campaign, actor, entry, effect, game)
        for casualty in part.casualties:
            if casualty.get("outcome") == "dead":
                _bury(campaign, actor, entry, casualty, game)
    _log(
        campaign,
        actor,
        "game-counted",
        f"The result of {game.scenario} on {game.played_on} now counts.",
        before={"game": Game.PENDING},
        after={"game": Game.APPLIED},
        game=game,
    )


def _character_state(character: Character) -> dict:
    """The attributes as played before traits (creation + campaign changes) and the notes: an effect's before
    and after, whose differences are what its reversal takes off."""
    return with_changes({a: getattr(character, a) for a in ATTRIBUTES}, character.attribute_changes) | {
        "notes": character.notes
    }


def change_attributes(character: Character, changes: dict) -> None:
    """Add ``changes`` ({"toughness": -1}) to the character's campaign changes, never to its base attributes:
    the creation placement stays as made and valid (reading C10). A change back to 0 leaves no key. The sum stays
    within what a crew file stores (crew_edits.ATTRIBUTE_STORAGE_RANGE), so the crew still exports and imports."""
    low, high = crew_edits.ATTRIBUTE_STORAGE_RANGE
    kept = dict(character.attribute_changes or {})
    for attribute, change in changes.items():
        if attribute in ATTRIBUTES and int(change):
            kept[attribute] = max(low, min(high, kept.get(attribute, 0) + int(change)))
    character.attribute_changes = {a: kept[a] for a in ATTRIBUTES if kept.get(a)}


def _apply_effect(campaign, actor, entry, effect, game=None) -> None:
    character = Character.objects.filter(pk=effect.get("character"), crew=entry.crew).first()
    if character is None:
        return
    before = _character_state(character)
    change_attributes(character, effect.get("attributes") or {})
    line = f"{effect.get('table_name', 'Effect')}: {effect.get('text', '')}".strip()
    character.notes = (character.notes + "\n" + line).strip()
    character.save()
    # an edit like any other: the stored list summary and any form opened on the older version know it changed
    Crew.objects.filter(pk=entry.crew_id).update(version=F("version") + 1, updated_at=timezone.now())
    _log(
        campaign,
        actor,
        "effect",
        f"{character.name} ({entry.crew.name}): {line}",
        crew=entry,
        before={"character": character.pk, **before},
        after={"character": character.pk, **_character_state(character), "line": line},
        game=game,
    )


def _character_rows(character: Character) -> dict:
    """Everything needed to put a character back exactly as it was (same id, same rows)."""
    return {
        "id": character.pk,
        "name": character.name,
        "position": character.position,
        "notes": character.notes,
        "attributes": {a: getattr(character, a) for a in ATTRIBUTES},
        "attribute_changes": dict(character.attribute_changes or {}),
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
    # an edit like any other: the crew list's stored summary (stamped with the version) counts the dead no more
    Crew.objects.filter(pk=entry.crew_id).update(version=F("version") + 1, updated_at=timezone.now())
    _log(
        campaign,
        actor,
        "death",
        f"{character.name} of {entry.crew.name} died.",
        crew=entry,
        before={"character": character_id, "roster": "on the roster", "snapshot": snapshot, "rows": rows},
        after={"character": character_id, "roster": "dead (in memoriam)", "memorial": memorial.pk},
        game=game,
    )
