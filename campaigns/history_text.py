"""A history entry's before and after, written as sentences with names.

An entry keeps its before and after as data (the organiser's reversal reads
them); people read this instead of "treasury 0→1" or "body_mods: reinforced-body".
Names come from the catalogue snapshot (cached per catalogue version, no query)
and from one query for the characters a page's entries name.
"""

from __future__ import annotations

from crewbuilder.crew_service import ATTRIBUTE_LABELS
from crewbuilder.models import Character
from crewbuilder.validation import with_changes
from crewbuilder.wording import count_noun

GAME_STATES = {
    "pending": "waiting for confirmation",
    "applied": "counted",
    "reversed": "reversed",
    "withdrawn": "withdrawn",
}
REQUEST_STATES = {"pending": "waiting for the organiser", "approved": "approved", "refused": "refused"}


def character_names(entries) -> dict[int, str]:
    """The names of the characters these entries name by id (one query; the dead are not found)."""
    ids = {side.get("character") for e in entries for side in (e.before, e.after)}
    ids = {i for i in ids if isinstance(i, int)}
    return dict(Character.objects.filter(pk__in=ids).values_list("pk", "name")) if ids else {}


def _tokens(n) -> str:
    return count_noun(n, "Treasure Token")


def _signed(n) -> str:
    return f"{n:+d}".replace("-", "−")


def _quoted(text) -> str:
    return f"“{text}”" if text else "nothing"


def _list(words) -> str:
    words = [w for w in words if w]
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


class _Names:
    def __init__(self, catalogue, characters: dict[int, str]):
        self.catalogue = catalogue
        self.characters = characters

    def _entry(self, table: str, slug) -> str:
        slug = slug.get("slug") if isinstance(slug, dict) else slug
        entry = getattr(self.catalogue, table, {}).get(slug) if self.catalogue else None
        return (entry or {}).get("name") or str(slug).replace("-", " ")

    def item(self, slug) -> str:
        return self._entry("items", slug)

    def trait(self, slug) -> str:
        return self._entry("traits", slug)

    def body_mod(self, slug) -> str:
        return self._entry("body_mods", slug)

    def character(self, entry, fallback="a character") -> str:
        for side in (entry.after, entry.before):
            name = self.characters.get(side.get("character")) if isinstance(side.get("character"), int) else None
            if name:
                return name
        return fallback


def _profile(snapshot: dict, names: _Names) -> str:
    """A dead character's profile as a sentence: attributes, traits, body-mods, gear."""
    attributes = with_changes(snapshot.get("attributes") or {}, snapshot.get("attribute_changes"))  # as played
    parts = [
        _list([f"{label} {_signed(attributes[key])}" for key, label in ATTRIBUTE_LABELS.items() if key in attributes])
    ]
    if snapshot.get("traits"):
        parts.append("traits " + _list([names.trait(t) for t in snapshot["traits"]]))
    if snapshot.get("body_mods"):
        parts.append("body-mods " + _list([names.body_mod(m) for m in snapshot["body_mods"]]))
    if snapshot.get("gear"):
        parts.append("carrying " + _list([names.item(g) for g in snapshot["gear"]]))
    return "; ".join(p for p in parts if p)


def sentences(entry, names: _Names) -> list[str]:
    """What changed, in words; empty when the summary says it all."""
    before, after = entry.before or {}, entry.after or {}
    crew = entry.campaign_crew.crew.name if entry.campaign_crew_id else "The crew"
    who = names.character(entry, fallback="")
    said = []

    def changed(key) -> bool:
        return key in after and before.get(key) != after.get(key)

    if entry.kind == "death" and before.get("snapshot"):
        name = before["snapshot"].get("name") or who or "The character"
        said.append(f"{name} left the roster for the memorial. At death: {_profile(before['snapshot'], names)}.")
    elif changed("roster"):
        subject = who if who and who not in after["roster"] else crew
        said.append(f"{subject}: {after['roster']}.")
    if changed("name"):
        what = "The crew " if "crew" in after else ""
        said.append(f"{what}{_quoted(before.get('name'))} was renamed {_quoted(after['name'])}.")
    if changed("notes"):
        whose = f"The notes on {who}" if who else "The crew notes" if "crew" in after else "The notes"
        if after.get("line") and entry.kind == "effect":
            said.append(f"{whose} gained {_quoted(after['line'])}.")
        else:
            said.append(f"{whose} changed from {_quoted(before.get('notes'))} to {_quoted(after['notes'])}.")
    for key, label in ATTRIBUTE_LABELS.items():
        if changed(key) and key in before:
            said.append(
                f"{label} of {who or 'the character'} went from {_signed(before[key])} to {_signed(after[key])}."
            )
    if entry.kind == "purchase" and after.get("item"):
        said.append(
            f"{who or 'A character'} now carries {names.item(after['item'])}"
            + (f", for {count_noun(after['cost'], 'point')}." if after.get("cost") else ".")
        )
    elif changed("item") and after["item"] == "refunded":
        said.append(f"{names.item(before.get('item'))} went back and was refunded.")
    if changed("treasury"):
        said.append(
            f"The treasury of {crew} went from {_tokens(before.get('treasury', 0))} to {_tokens(after['treasury'])}."
        )
    if changed("spare_points"):
        said.append(
            f"The spare points of {crew} (left over from Treasure Tokens spent) went from "
            f"{before.get('spare_points', 0)} to {after['spare_points']}."
        )
    if changed("budget"):
        said.append(f"The budget of {crew} went from {before.get('budget')} to {after['budget']} points.")
    if changed("game"):
        state = GAME_STATES.get(after["game"], after["game"])
        said.append(
            f"The game went from {GAME_STATES.get(before['game'], before['game'])} to {state}."
            if before.get("game")
            else f"The game is {state}."
        )
    if after.get("crews"):
        said.append(f"Crews: {_list(after['crews'])}.")
    if after.get("complication"):
        said.append(f"Complication: {after['complication']}.")
    if changed("request"):
        said.append(f"The enrolment request is {REQUEST_STATES.get(after['request'], after['request'])}.")
    if entry.kind in ("enrolled", "enrol-requested") and "points" in after:
        count = after.get("characters")
        said.append(
            f"{crew} enrols with {count_noun(after['points'], 'point')}"
            + (f" and {count} character{'' if count == 1 else 's'}." if count else ".")
        )
    rules = after.get("house_rules")
    if rules:
        said.append(
            "House rules: "
            + "; ".join(
                (f"{r.get('code')}: {_quoted(r.get('note'))}" if isinstance(r, dict) else str(r)) for r in rules
            )
            + "."
        )
    if entry.kind == "scenario-created":
        card = after.get("card")
        said.append(
            ("On the card " + card if card and card != "–" else "On no card: only picked")
            + ("; it draws a Complication." if after.get("draws_complication") else ".")
        )
    if after.get("steps"):
        said.append("Undone: " + "; ".join(s.removeprefix("undone: ").rstrip(".") for s in after["steps"]) + ".")
    if after.get("reason"):
        said.append(f"Reason: {_quoted(after['reason'])}.")
    return said


def describe(entries, catalogue) -> list[tuple]:
    """(entry, sentences) for a page of entries."""
    entries = list(entries)
    names = _Names(catalogue, character_names(entries))
    return [(e, sentences(e, names)) for e in entries]
