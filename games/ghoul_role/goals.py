"""A Ghoul role sheet's goals: the catalogue's difficulties and variants, and a new sheet with its goal."""

from __future__ import annotations

from typing import Mapping

from django.db import transaction

from games.ghoul_role import services
from games.ghoul_role.models import Event, GhoulSheet
from games.ghoul_role.state import snapshot
from rules import ghoul_role as rules

# "While you can add the Ghoul to the original roles to accommodate six players
# (or seven if you also include the Ghost)": the most players a game can have.
MAX_PLAYERS = 7
# The player pieces the Ghoul's attack list names ("When you attack, deal the following effect").
TARGETS = [
    ("knight", "Knight"),
    ("goblins", "Goblin Tribe"),
    ("dragon", "Dragon"),
    ("unicorn", "Unicorn"),
    ("thief", "Thief"),
]
TARGET_NAMES = dict(TARGETS)
# The Vile Ghoul's opponents, which pick its goal ("Kill the Knight. If there is no
# Knight, you must kill the Dragon. If there is no Dragon or Knight, you must smash
# ... Crystals"); the catalogue's vile variants come after these.
VILE_OPPONENTS = [
    ("knight", "2+ players, with the Knight"),
    ("dragon", "2+ players, with the Dragon (no Knight)"),
    ("neither", "2+ players, no Knight or Dragon"),
]


def _ordered(cat: dict, part: str) -> list[dict]:
    seen, out = set(), []
    for entry in cat["lists"][part]:
        if entry["slug"] not in seen:
            seen.add(entry["slug"])
            out.append(cat[part][entry["slug"]])
    return out


def difficulty_choices(cat: dict, vile: bool = False) -> list[tuple[str, str]]:
    part = "vile_difficulties" if vile else "difficulties"
    return [(d["slug"], f"{d['name']} ({d.get('level', '')})") for d in _ordered(cat, part)]


def variant_choices(cat: dict) -> list[tuple[str, str]]:
    return [(v["slug"], v["name"]) for v in _ordered(cat, "player_variants")]


def vile_variant_choices(cat: dict) -> list[tuple[str, str]]:
    return VILE_OPPONENTS + [(v["slug"], v["name"]) for v in _ordered(cat, "vile_variants")]


def terror_deck_for(cat: dict) -> int:
    """The Terror deck's size from the catalogue's components ("13 Terror Cards"), house rules
    included; the catalogue file's when the database has no components section."""
    components = list(cat.get("components", {}).values())
    try:
        return rules.terror_deck_size(components) if components else rules.TERROR_DECK
    except (KeyError, TypeError, ValueError):
        raise services.SheetError("The catalogue's Terror cards (components) have no usable number.") from None


def goals_for(
    cat: dict, kind: str, difficulty: str, variant: str, players: int | None = None, thief_stash: int | None = None
) -> dict:
    """The sheet's fixed numbers for a new game: players, goals, dice, names. Raises services.SheetError."""
    if kind == GhoulSheet.VILE:
        return _vile_goals(cat, difficulty, variant, players, thief_stash)
    if kind != GhoulSheet.CAVE:
        raise services.SheetError("Choose the Ghoul or the Vile Ghoul.")
    table = cat["difficulties"]
    if difficulty not in table:
        raise services.SheetError("Choose one of the difficulty levels.")
    entry = cat["player_variants"].get(variant)
    if entry is None:
        raise services.SheetError("Choose one of the player variants.")
    fixed = entry.get("players")
    if entry.get("fury") is None:  # 4+ players: the number is the game's
        if players is None or not (fixed <= players <= MAX_PLAYERS):
            raise services.SheetError(f"{entry['name']}: give the number of players, {fixed} to {MAX_PLAYERS}.")
    else:
        players = fixed
    cap = cat["rules"].get("fury-goal", {}).get("fury_cap")
    stated = rules.variant_goal(variant, list(cat["player_variants"].values()))
    if players == 1:
        # Solo names its own Fury and Crystal goals (Easy 7/5, Medium 8/6, Hard 9/7).
        fury, crystals = stated["fury"], stated["crystals"]
    else:
        fury, crystals = rules.fury_goal(players, difficulty, cap, table), stated["crystals"]
    return {
        "kind": kind,
        "difficulty": difficulty,
        "difficulty_name": table[difficulty]["name"],
        "players": players,
        "variant": variant,
        "variant_name": entry["name"],
        "fury_goal": fury,
        "crystal_goal": crystals,
        "kill_goal": rules.variant_kill(variant) or "",
        "kill_health": None,
        "dice": rules.ghoul_dice_for(difficulty, table),
        "terror_deck": terror_deck_for(cat),
    }


def _vile_goals(cat, difficulty, variant, players, thief_stash) -> dict:
    table = cat["vile_difficulties"]
    if difficulty not in table:
        raise services.SheetError("Choose one of the difficulty levels.")
    names = dict(vile_variant_choices(cat))
    if variant not in names:
        raise services.SheetError("Choose who the Vile Ghoul plays against.")
    crystals = kill = health = None
    if variant in dict(VILE_OPPONENTS):
        if players is None or not (2 <= players <= MAX_PLAYERS):
            raise services.SheetError(f"Give the number of players, 2 to {MAX_PLAYERS}.")
        goal = rules.vile_goal(
            difficulty, knight=variant == "knight", dragon=variant in ("knight", "dragon"), table=table
        )
        kill, health, crystals = goal.get("kill"), goal.get("health"), goal.get("smash_crystals")
    else:
        entry = cat["vile_variants"][variant]
        if "thief_stash" in entry:
            if players not in (2, 3):
                raise services.SheetError("Vile Ghoul vs. Thief (vs. Cave): 2 or 3 players.")
            try:
                crystals = rules.vile_crystals_vs_thief(thief_stash, entry)
            except (TypeError, ValueError):
                stashes = " or ".join(str(s) for s in entry["thief_stash"])
                raise services.SheetError(f"Agree how many Treasures the Thief must stash: {stashes}.") from None
        else:
            crystals = entry["crystals"]
            players = 1 if "solo" in variant else 2
    return {
        "kind": GhoulSheet.VILE,
        "difficulty": difficulty,
        "difficulty_name": table[difficulty]["name"],
        "players": players,
        "variant": variant,
        "variant_name": names[variant],
        "fury_goal": None,
        "crystal_goal": crystals,
        "kill_goal": kill or "",
        "kill_health": health,
        "dice": table[difficulty]["dice"],
        "terror_deck": terror_deck_for(cat),
    }


@transaction.atomic
def create_sheet(owner, goals: Mapping, name: str = "", chart: Mapping | None = None) -> GhoulSheet:
    vile = goals["kind"] == GhoulSheet.VILE
    if vile:
        chart = {str(face): [int(m), int(a)] for face, (m, a) in (chart or {}).items()}
        if sorted(chart) != [str(f) for f in rules.FACES]:
            raise services.SheetError("Type the dice chart's Movement and Attack for every face, 1 to 6.")
    sheet = GhoulSheet.objects.create(
        owner=owner,
        name=(name or "").strip()[:100],
        chart=chart or {},
        **goals,
        phase=GhoulSheet.PREPARE if vile else GhoulSheet.ROLL,
        target_health=goals.get("kill_health") if vile else None,
    )
    goal = describe_goal(sheet)
    Event.objects.create(
        sheet=sheet,
        turn=0,
        kind="created",
        summary=f"New sheet: {goal}.",
        data={"goals": dict(goals)},
        before=snapshot(sheet, []),
    )
    return sheet


def describe_goal(sheet: GhoulSheet) -> str:
    """The sheet's goal in the text's own shape: "The Ghoul wins if the Knight is killed, or if it gains 9 Fury
    and then escapes the Cave" (the escape follows the Fury only); "if it gains 9 Fury or smashes 6 Crystals,
    and then escapes the Cave" (it follows either)."""
    parts = []
    if sheet.fury_goal is not None:
        parts.append(f"gain {sheet.fury_goal} Fury")
    if sheet.crystal_goal is not None:
        parts.append(f"smash {sheet.crystal_goal} Crystals")
    text = " or ".join(parts)
    if text:
        text += (", and" if len(parts) > 1 else " and") + " then escape the Cave by entering the Entrance tile"
    if sheet.kill_goal:
        who = TARGET_NAMES[sheet.kill_goal]
        health = (
            f" (she starts with {sheet.kill_health} Health)"
            if sheet.kill_goal == "knight"
            else f" (he starts with {sheet.kill_health} Health)"
        )
        kill = f"kill the {who}" + (health if sheet.kill_health else "")
        text = f"{kill}, or {text}" if text else kill
    return text[0].upper() + text[1:]


def goal_basis(sheet: GhoulSheet) -> str:
    """Where the sheet's numbers come from when a difficulty level meets a player variant (GS1, GS2, GS11):
    the Fury goal is the difficulty's base + the players (a 2- or 3-player variant's printed 9 or 10 is the
    Standard difficulty's); solo and the Vile Ghoul's printed variants give their own goal, and the difficulty
    then sets only the dice. The printed numbers (a difficulty's base, a variant's Fury) are the text's, read
    from the catalogue file (no query); a sheet made with house rules that differ is told plainly."""
    table = rules.vile_difficulties() if sheet.is_vile else rules.difficulties()
    entry = table.get(sheet.difficulty, {})
    level = f"{sheet.difficulty_name} ({entry['level']})" if entry.get("level") else sheet.difficulty_name
    dice = f"{sheet.dice} Ghoul dice"
    if sheet.is_vile:
        if sheet.variant in dict(VILE_OPPONENTS):  # vs. the Knight, the Dragon or neither: Health or Crystals
            return f"{level} sets the goal's numbers and the dice: {dice}."
        return (
            f"{sheet.crystal_goal} Crystals: the {sheet.variant_name} variant's own number; the difficulty "
            f"{level} sets only the dice here: {dice}."
        )
    if sheet.players == 1:
        return (
            f"{sheet.variant_name}: {sheet.fury_goal} Fury or {sheet.crystal_goal} Crystals, the solo level's own "
            f"goal; the difficulty {level} sets only the dice here: {dice}."
        )
    base = entry.get("fury_base")
    if base is None or sheet.fury_goal is None or min(base + sheet.players, rules.FURY_CAP) != sheet.fury_goal:
        return f"Fury goal {sheet.fury_goal}: {level} with {sheet.players} players (house rules); {dice}."
    text = f"Fury goal {sheet.fury_goal} = {level} {base} + {sheet.players} players"
    if base + sheet.players > sheet.fury_goal:
        text += f" ({base + sheet.players}), never above {rules.FURY_CAP}"
    try:
        printed = rules.variant_goal(sheet.variant)
    except ValueError:
        printed = {"fury": None, "crystals": None}
    if printed["fury"] is not None and printed["fury"] != sheet.fury_goal:
        text += (
            f"; the {sheet.variant_name} variant prints {printed['fury']}, the Standard difficulty's number: "
            "the difficulty level changes it"
        )
    elif printed["fury"] is not None:
        text += f", as the {sheet.variant_name} variant prints"
    if sheet.crystal_goal is not None and printed["crystals"] is not None:
        text += f"; the variant's {sheet.crystal_goal} Crystals on every difficulty"
    return f"{text}; {dice}."
