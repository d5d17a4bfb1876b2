"""The organiser undoes a mistaken entry with a new "reversal" entry; nothing is erased (reading C5).

Each undo works on differences (tokens, points, attribute changes), not by
copying old values back, so unrelated later changes survive; it refuses,
naming the later entry, when a later change depends on the one being undone.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from campaigns.models import CampaignCrew, Game, HistoryEntry, Memorial
from campaigns.permissions import check_user_is_organiser
from campaigns.services.base import CampaignError
from campaigns.services.base import log as _log
from campaigns.services.games import _character_state, change_attributes
from crewbuilder import crew_edits
from crewbuilder.models import Character, CharacterBodyMod, CharacterGear, CharacterTrait, Crew
from crewbuilder.models.catalogue import ATTRIBUTES
from crewbuilder.wording import count_noun

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
    later = (
        HistoryEntry.objects.filter(
            campaign_crew_id=entry.campaign_crew_id,
            pk__gt=entry.pk,
            kind__in=kinds,
            undone_by__isnull=True,
        )
        .exclude(pk__in=[e.pk for e in skip])
        .order_by("pk")
    )
    return next((e for e in later if _character_id(e) == character_id), None)


def _blocked(later: HistoryEntry, what: str) -> CampaignError:
    return CampaignError(
        f"Cannot reverse this: {what} A later entry depends on it (“{later.summary}”, "
        f"{timezone.localtime(later.created_at):%Y-%m-%d %H:%M}); reverse that one first."
    )


def _change_holding(crew_entry: CampaignCrew, field: str, change: int, holds: str, noun: str) -> tuple[int, int]:
    """Add ``change`` to the crew's ``field`` (treasury, spare points); refused when what would come out was
    spent since (``holds`` words what the crew has, "the treasury holds {}", counted in ``noun``)."""
    locked = CampaignCrew.objects.select_for_update().get(pk=crew_entry.pk)
    was = getattr(locked, field)
    if was + change < 0:
        raise CampaignError(
            f"Cannot reverse this: {holds.format(count_noun(was, noun))} and {-change} would have to come out; they were spent since. "
            "Reverse the later purchase or hire first."
        )
    CampaignCrew.objects.filter(pk=locked.pk).update(**{field: was + change})
    return was, was + change


def _change_treasury(crew_entry: CampaignCrew, change: int) -> tuple[int, int]:
    return _change_holding(crew_entry, "treasury", change, "the treasury holds {}", "Treasure Token")


def _change_spare(crew_entry: CampaignCrew, entry: HistoryEntry) -> tuple[dict, dict]:
    """Give back the spare points a purchase or hire used and take back those it left (its difference);
    refused when they were spent since. Entries from before spare points were kept change nothing."""
    if "spare_points" not in entry.after:
        return {}, {}
    change = entry.before.get("spare_points", 0) - entry.after["spare_points"]
    was, now = _change_holding(crew_entry, "spare_points", change, "the crew has {}", "spare point")
    return {"spare_points": was}, {"spare_points": now}


def _change_budget(crew_entry: CampaignCrew, change: int) -> tuple[int, int]:
    crew = Crew.objects.select_for_update().get(pk=crew_entry.crew_id)
    Crew.objects.filter(pk=crew.pk).update(
        budget=crew.budget + change, version=crew.version + 1, updated_at=timezone.now()
    )
    return crew.budget, crew.budget + change


def _living(entry: HistoryEntry, character_id, skip=()) -> Character:
    character = (
        Character.objects.select_for_update().filter(pk=character_id, crew_id=entry.campaign_crew.crew_id).first()
    )
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
    crew_edits.remove_gear(entry.campaign_crew.crew, character=character.pk, row=gear.pk)
    was_t, now_t = _change_treasury(entry.campaign_crew, tokens)
    was_s, now_s = _change_spare(entry.campaign_crew, entry)
    was_b, now_b = _change_budget(entry.campaign_crew, -cost)
    return (
        {"treasury": was_t, **was_s, "budget": was_b, "item": entry.after.get("item")},
        {"treasury": now_t, **now_s, "budget": now_b, "item": "refunded"},
    )


def _undo_effect(entry, skip):
    character = _living(entry, entry.before.get("character"), skip)
    before = _character_state(character)
    # Its differences come off the campaign changes, where the effect put them (reading C10).
    change_attributes(
        character, {a: entry.before[a] - entry.after[a] for a in ATTRIBUTES if a in entry.before and a in entry.after}
    )
    line = entry.after.get("line")
    if line is None:  # entries written before the line was kept: it is what the effect appended
        line = entry.after["notes"][len(entry.before["notes"]) :].strip()
    lines = character.notes.split("\n")
    if line in lines:
        del lines[len(lines) - 1 - lines[::-1].index(line)]
        character.notes = "\n".join(lines).strip()
    character.save()
    Crew.objects.filter(pk=character.crew_id).update(version=F("version") + 1, updated_at=timezone.now())
    return {"character": character.pk, **before}, {"character": character.pk, **_character_state(character)}


def _undo_death(entry, skip):
    rows = entry.before.get("rows")
    if not rows:
        raise CampaignError("Cannot reverse this death automatically: the entry predates saved rosters.")
    crew = Crew.objects.select_for_update().get(pk=entry.campaign_crew.crew_id)
    if Character.objects.filter(pk=rows["id"]).exists():
        raise CampaignError("Cannot reverse this: the character is already on a roster.")
    character = Character.objects.create(
        pk=rows["id"],
        crew=crew,
        name=rows["name"],
        position=rows["position"],
        notes=rows["notes"],
        attribute_changes=rows.get("attribute_changes") or {},
        **rows["attributes"],
    )
    CharacterTrait.objects.bulk_create(
        CharacterTrait(character=character, trait_id=t["trait"], choices=t["choices"], position=t["position"])
        for t in rows["traits"]
    )
    CharacterBodyMod.objects.bulk_create(
        CharacterBodyMod(character=character, body_mod_id=m["body_mod"], position=m["position"])
        for m in rows["body_mods"]
    )
    CharacterGear.objects.bulk_create(
        CharacterGear(character=character, item_id=g["item"], copies=g["copies"], position=g["position"])
        for g in rows["gear"]
    )
    Crew.objects.filter(pk=crew.pk).update(version=crew.version + 1, updated_at=timezone.now())
    Memorial.objects.filter(pk=entry.after.get("memorial")).update(returned_at=timezone.now())
    return (
        {"character": character.pk, "roster": "dead (in memoriam)"},
        {"character": character.pk, "roster": "back on the roster"},
    )


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
    was_s, now_s = _change_spare(entry.campaign_crew, entry)
    was_b, now_b = _change_budget(entry.campaign_crew, -cost)
    return (
        {"treasury": was_t, **was_s, "budget": was_b, "roster": name},
        {"treasury": now_t, **now_s, "budget": now_b, "roster": f"{name} left, cost refunded"},
    )


def _undo_edit(entry, skip):
    fields = ("name", "notes")
    if "crew" in entry.after:
        target = Crew.objects.select_for_update().get(pk=entry.after["crew"])
    else:
        target = _living(entry, entry.after.get("character"), skip)
    current = {f: getattr(target, f) for f in fields}
    if current != {f: entry.after[f] for f in fields}:
        later = HistoryEntry.objects.filter(
            campaign_crew_id=entry.campaign_crew_id, pk__gt=entry.pk, kind="edit", undone_by__isnull=True
        ).order_by("pk")
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
    steps = list(
        HistoryEntry.objects.select_for_update()
        .filter(game=game, kind__in={"treasure", "effect", "death"}, undone_by__isnull=True)
        .order_by("-pk")
    )
    done = []
    for step in steps:
        # Later steps of this same game are being undone too (newest first), so they do not block.
        before, after = UNDO[step.kind](step, skip=steps)
        done.append({"entry": step.pk, "what": step.summary, "before": before, "after": after})
    game.status = Game.REVERSED
    game.save(update_fields=["status"])
    return (
        {"game": Game.APPLIED, "steps": [d["what"] for d in done]},
        {"game": Game.REVERSED, "steps": [f"undone: {d['what']}" for d in done]},
    ), steps


UNDO = {
    "treasure": _undo_treasure,
    "purchase": _undo_purchase,
    "effect": _undo_effect,
    "death": _undo_death,
    "hire": _undo_hire,
    "edit": _undo_edit,
}


@transaction.atomic
def reverse_entry(entry: HistoryEntry, actor) -> HistoryEntry:
    """Undo a mistaken entry with a new one, in one transaction; nothing is erased."""
    campaign = entry.campaign
    check_user_is_organiser(actor, campaign)
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
    reversal = _log(
        campaign,
        actor,
        "reversal",
        f"{actor.username} reversed: {entry.summary}",
        crew=entry.campaign_crew,
        before=before,
        after=after,
        reverses=entry,
        game=entry.game,
    )
    HistoryEntry.objects.filter(pk__in=[e.pk for e in undone]).update(undone_by=reversal)
    return reversal
