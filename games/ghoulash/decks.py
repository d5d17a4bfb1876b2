"""Ghoulash cards, decks and numbers as the engine sees them: the catalogue's cards (``services.catalogue``), the
box's own numbers where the rules text has none, the cards as the engine's ``Card`` and the checks that say
what stops a box being played."""

from __future__ import annotations

from django.utils.text import slugify

from games.ghoulash.models import CHARACTER_SLUGS, BoxCard, GhoulashBox
from rules import ghoulash as gh

STATS = ("initial_combat_value", "movement", "health")
STAT_LABELS = {"initial_combat_value": "Initial Combat Value", "movement": "Movement Points", "health": "Health"}
REQUIRED_STATS = ("initial_combat_value", "health")  # what the tracker needs to referee battles and death
MIN_PLAYERS, MAX_PLAYERS = 2, len(CHARACTER_SLUGS)
TYPE_KINDS = {
    BoxCard.VALUE: gh.CardKind.VALUE,
    BoxCard.ACTION: gh.CardKind.ACTION,
    BoxCard.RESCUE: gh.CardKind.RESCUE,
    BoxCard.SPECIALTY: gh.CardKind.SPECIALTY,
    BoxCard.SPECIALTY_VALUE: gh.CardKind.SPECIALTY,
    BoxCard.SPECIALTY_ACTION: gh.CardKind.SPECIALTY,
    BoxCard.SPECIALTY_RESCUE: gh.CardKind.SPECIALTY,
}
# a double-labelled Specialty card "is played with the limitations of the second label"
SECOND_LABELS = {
    BoxCard.SPECIALTY_VALUE: gh.CardKind.VALUE,
    BoxCard.SPECIALTY_ACTION: gh.CardKind.ACTION,
    BoxCard.SPECIALTY_RESCUE: gh.CardKind.RESCUE,
}
TYPE_LABELS = dict(BoxCard.TYPES)
# Specialty cards that make the Initial Combat Value the Ghoul's strength (FAQ: Heavy Artillery, The Right Ghoo)
STRENGTH_ICV_CARDS = ("heavy-artillery", "the-right-ghoo-for-the-job")


def known_cards(cat: dict) -> list[dict]:
    """The named cards of the catalogue (not the four type descriptions), each with the decks it goes in:
    a card with a ``deck`` is that character's; the others (Hole, Debris, Steal, Parry, Inaction) go in all."""
    out = []
    for entry in cat["cards"]:
        if entry.get("slug") == entry.get("kind"):  # "Value", "Action", ...: a type, not a card
            continue
        decks = [entry["deck"]] if entry.get("deck") else list(CHARACTER_SLUGS)
        out.append({**entry, "decks": decks})
    return out


# ---------------------------------------------------------------------------
# Game boxes
# ---------------------------------------------------------------------------


def value_rows(cat: dict) -> list[dict]:
    """One Value card row per value the text gives ("Value — ... ranging in value from 1 to 3"), for every
    deck ("All decks have Value cards in equal amounts"); how many of each only the printed decks say."""
    entry = next((c for c in cat["cards"] if c.get("slug") == BoxCard.VALUE), None)
    if entry is None or entry.get("min_value") is None or entry.get("max_value") is None:
        return []
    return [
        {"name": f"{entry['name']} {v}", "value": v, "slug": entry["slug"]}
        for v in range(entry["min_value"], entry["max_value"] + 1)
    ]


def profiles(box: GhoulashBox, cat: dict) -> list[dict]:
    """Each character's profile: every number with where it comes from ("rules", "box" or None)."""
    out = []
    for entry in cat["characters"]:
        mine = (box.stats or {}).get(entry["slug"], {})
        stats = []
        for stat in STATS:
            if entry.get(stat) is not None:
                stats.append({"stat": stat, "label": STAT_LABELS[stat], "value": entry[stat], "source": "rules"})
            elif mine.get(stat) is not None:
                stats.append({"stat": stat, "label": STAT_LABELS[stat], "value": mine[stat], "source": "box"})
            else:
                stats.append({"stat": stat, "label": STAT_LABELS[stat], "value": None, "source": None})
        out.append(
            {
                "slug": entry["slug"],
                "name": entry.get("name", entry["slug"]),
                "full_name": entry.get("full_name", entry.get("name", "")),
                "specialty": entry.get("specialty", ""),
                "stats": stats,
                "numbers": {s["stat"]: s["value"] for s in stats},
            }
        )
    return out


def ghoul_values(box: GhoulashBox, cat: dict) -> list[dict]:
    """Each Ghoul strength of the core tokens with its Victory Points and where they come from."""
    out = []
    for entry in cat["encounter_tokens"]:
        if entry.get("kind") != "ghoul":
            continue
        strength = entry["strength"]
        if entry.get("victory_points") is not None:
            vp, source = entry["victory_points"], "rules"
        elif (box.ghoul_vp or {}).get(str(strength)) is not None:
            vp, source = box.ghoul_vp[str(strength)], "box"
        else:
            vp, source = None, None
        out.append({"strength": strength, "count": entry.get("count", 0), "victory_points": vp, "source": source})
    return sorted(out, key=lambda g: -g["strength"])


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def engine_card(card: BoxCard | dict, copy: int = 0) -> gh.Card:
    if isinstance(card, dict):
        return gh.Card(
            card["name"],
            TYPE_KINDS[card["type"]],
            card.get("value"),
            card["owner"],
            card["id"],
            SECOND_LABELS.get(card["type"]),
        )
    return gh.Card(
        card.name, TYPE_KINDS[card.card_type], card.value, card.character, copy, SECOND_LABELS.get(card.card_type)
    )


def card_label(card: dict) -> str:
    """A card's name with its value, the value once: "Value 3" (a name that already ends with it), "Heavy
    Shot 3" otherwise."""
    name, value = card["name"], card.get("value")
    if value is None or name.split()[-1:] == [str(value)]:
        return name
    return f"{name} {value}"


def is_card(card: dict, slug: str) -> bool:
    """A deck card is the catalogue's ``slug`` card (pre-listed, or added by hand under the same name)."""
    return card.get("slug") == slug or slugify(card.get("name", "")) == slug


def is_value_card(card: dict) -> bool:
    """May be put down as a Value in a battle or a challenge: a Value or SPECIALTY VALUE card (GT2)."""
    return card["type"] in BoxCard.VALUE_TYPES and card.get("value") is not None


def engine_decks(cards: list[BoxCard], slugs) -> dict[str, list[gh.Card]]:
    """The decks of these characters as engine cards, each counted card repeated ``count`` times."""
    decks: dict[str, list[gh.Card]] = {slug: [] for slug in slugs}
    for card in cards:
        if card.character in decks and card.card_type and card.count:
            decks[card.character].extend(engine_card(card, i) for i in range(card.count))
    return decks


def deck_problems(cards: list[BoxCard], slugs, names: dict | None = None) -> list[str]:
    """What stops these decks being played together: unfinished cards, then the rules' checks."""
    names = names or {}
    problems = []
    uncounted: dict[str, list[str]] = {}
    for card in cards:
        if card.character not in slugs:
            continue
        who = names.get(card.character, card.character.title())
        if card.count is None:
            uncounted.setdefault(who, []).append(card.name)
        if not card.card_type and card.count != 0:  # a card the deck does not hold needs no type
            problems.append(f"{who}: choose the type of {card.name} (the rules text does not give it).")
        elif card.card_type in (BoxCard.VALUE, BoxCard.SPECIALTY_VALUE) and card.value is None and card.count:
            problems.append(f"{who}: {card.name} needs its value.")
    # one line per deck, not one per card: only the printed decks say how many of each card they hold
    problems[:0] = [
        f"{who}: enter how many {_listed(cards_)} cards the deck holds (0 if none)."
        for who, cards_ in uncounted.items()
    ]
    decks = engine_decks(cards, slugs)
    for slug in slugs:
        if not decks[slug]:
            problems.append(f"{names.get(slug, slug.title())}: the deck has no cards yet.")
    readable = {names.get(s, s.title()): d for s, d in decks.items()}
    problems.extend(gh.check_decks(readable))
    return problems


def box_problems(box: GhoulashBox, cat: dict, cards: list[BoxCard], slugs) -> list[str]:
    """Everything that stops a game with these characters: missing profile numbers, missing Ghoul Victory
    Points, then the decks (``deck_problems``), all at once."""
    profile = {p["slug"]: p for p in profiles(box, cat)}
    problems = []
    for slug in slugs:
        p = profile[slug]
        missing = [STAT_LABELS[s] for s in REQUIRED_STATS if p["numbers"][s] is None]
        if missing:
            problems.append(
                f"{p['full_name']}: enter {' and '.join(missing)} in the game box (the rules text does not give them)."
            )
    missing_vp = [str(g["strength"]) for g in ghoul_values(box, cat) if g["victory_points"] is None]
    if missing_vp:
        problems.append(f"Enter the Victory Points of the strength {', '.join(missing_vp)} Ghouls in the game box.")
    problems.extend(deck_problems(cards, list(slugs), {s: profile[s]["name"] for s in slugs}))
    return problems


SPECIALTY_TYPES = (BoxCard.SPECIALTY, BoxCard.SPECIALTY_VALUE, BoxCard.SPECIALTY_ACTION, BoxCard.SPECIALTY_RESCUE)
