"""One function per Ghoul role sheet operation.

The numbers come from the catalogue rows in the database (house rules
included) and every rule from ``rules.ghoul_role``. Each action
runs in one transaction on the locked sheet and writes an Event holding the
state before it, so the last action can be undone and every roll replayed
from its seed. A roll and a Terror card draw are final: such an event (and
so every event before it) cannot be undone (GS12). Cards are drawn from a
Terror deck of the catalogue's size: an empty deck gives none (GS15-GS17).
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field, replace
from typing import Mapping

from django.db import transaction

from catalogue.loader import current_system
from core.games import kit
from crewbuilder.models import RulesEntry
from rules import ghoul_role as rules
from games.ghoul_role.models import Event, GhoulSheet, TerrorCard

SYSTEM = "ghoul-role"
# "While you can add the Ghoul to the original roles to accommodate six players
# (or seven if you also include the Ghost)": the most players a game can have.
MAX_PLAYERS = 7
# The player pieces the Ghoul's attack list names ("When you attack, deal the following effect").
TARGETS = [("knight", "Knight"), ("goblins", "Goblin Tribe"), ("dragon", "Dragon"), ("unicorn", "Unicorn"),
           ("thief", "Thief")]
TARGET_NAMES = dict(TARGETS)
# The Vile Ghoul's opponents, which pick its goal ("Kill the Knight. If there is no
# Knight, you must kill the Dragon. If there is no Dragon or Knight, you must smash
# ... Crystals"); the catalogue's vile variants come after these.
VILE_OPPONENTS = [("knight", "2+ players, with the Knight"), ("dragon", "2+ players, with the Dragon (no Knight)"),
                  ("neither", "2+ players, no Knight or Dragon")]
LONG = 30  # events shown on the sheet


class SheetError(kit.Refused, ValueError):
    """The action is not allowed now; the message says why, for people (the game kit's refusal)."""


# --- catalogue ------------------------------------------------------------------------------


CATALOGUE_PARTS = ("rules", "difficulties", "vile_difficulties", "player_variants", "vile_variants", "components")


def catalogue() -> dict:
    """The Ghoul role's sections from the database, by slug where the engine wants tables: two queries (the
    last loaded edition, then all its sections at once; the order within a section is ``rules_entries``')."""
    system = current_system(SYSTEM)
    rows: dict[str, list[dict]] = {part: [] for part in CATALOGUE_PARTS}
    if system is not None:
        for row in RulesEntry.objects.filter(system=system, part__in=CATALOGUE_PARTS).order_by(
                "part", "house_rule", "position", "id"):
            rows[row.part].append(row.to_entry())
    by_slug = {part: {e["slug"]: e for e in entries} for part, entries in rows.items()}
    return {**by_slug, "lists": rows}


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
        raise SheetError("The catalogue's Terror cards (components) have no usable number.") from None


def goals_for(cat: dict, kind: str, difficulty: str, variant: str, players: int | None = None,
              thief_stash: int | None = None) -> dict:
    """The sheet's fixed numbers for a new game: players, goals, dice, names. Raises SheetError."""
    if kind == GhoulSheet.VILE:
        return _vile_goals(cat, difficulty, variant, players, thief_stash)
    if kind != GhoulSheet.CAVE:
        raise SheetError("Choose the Ghoul or the Vile Ghoul.")
    table = cat["difficulties"]
    if difficulty not in table:
        raise SheetError("Choose one of the difficulty levels.")
    entry = cat["player_variants"].get(variant)
    if entry is None:
        raise SheetError("Choose one of the player variants.")
    fixed = entry.get("players")
    if entry.get("fury") is None:  # 4+ players: the number is the game's
        if players is None or not (fixed <= players <= MAX_PLAYERS):
            raise SheetError(f"{entry['name']}: give the number of players, {fixed} to {MAX_PLAYERS}.")
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
        "kind": kind, "difficulty": difficulty, "difficulty_name": table[difficulty]["name"],
        "players": players, "variant": variant, "variant_name": entry["name"],
        "fury_goal": fury, "crystal_goal": crystals, "kill_goal": rules.variant_kill(variant) or "",
        "kill_health": None, "dice": rules.ghoul_dice_for(difficulty, table), "terror_deck": terror_deck_for(cat),
    }


def _vile_goals(cat, difficulty, variant, players, thief_stash) -> dict:
    table = cat["vile_difficulties"]
    if difficulty not in table:
        raise SheetError("Choose one of the difficulty levels.")
    names = dict(vile_variant_choices(cat))
    if variant not in names:
        raise SheetError("Choose who the Vile Ghoul plays against.")
    crystals = kill = health = None
    if variant in dict(VILE_OPPONENTS):
        if players is None or not (2 <= players <= MAX_PLAYERS):
            raise SheetError(f"Give the number of players, 2 to {MAX_PLAYERS}.")
        goal = rules.vile_goal(difficulty, knight=variant == "knight", dragon=variant in ("knight", "dragon"),
                               table=table)
        kill, health, crystals = goal.get("kill"), goal.get("health"), goal.get("smash_crystals")
    else:
        entry = cat["vile_variants"][variant]
        if "thief_stash" in entry:
            if players not in (2, 3):
                raise SheetError("Vile Ghoul vs. Thief (vs. Cave): 2 or 3 players.")
            try:
                crystals = rules.vile_crystals_vs_thief(thief_stash, entry)
            except (TypeError, ValueError):
                stashes = " or ".join(str(s) for s in entry["thief_stash"])
                raise SheetError(f"Agree how many Treasures the Thief must stash: {stashes}.") from None
        else:
            crystals = entry["crystals"]
            players = 1 if "solo" in variant else 2
    return {
        "kind": GhoulSheet.VILE, "difficulty": difficulty, "difficulty_name": table[difficulty]["name"],
        "players": players, "variant": variant, "variant_name": names[variant],
        "fury_goal": None, "crystal_goal": crystals, "kill_goal": kill or "", "kill_health": health,
        "dice": table[difficulty]["dice"], "terror_deck": terror_deck_for(cat),
    }


@transaction.atomic
def create_sheet(owner, goals: Mapping, name: str = "", chart: Mapping | None = None) -> GhoulSheet:
    vile = goals["kind"] == GhoulSheet.VILE
    if vile:
        chart = {str(face): [int(m), int(a)] for face, (m, a) in (chart or {}).items()}
        if sorted(chart) != [str(f) for f in rules.FACES]:
            raise SheetError("Type the dice chart's Movement and Attack for every face, 1 to 6.")
    sheet = GhoulSheet.objects.create(
        owner=owner, name=(name or "").strip()[:100], chart=chart or {}, **goals,
        phase=GhoulSheet.PREPARE if vile else GhoulSheet.ROLL,
        target_health=goals.get("kill_health") if vile else None,
    )
    goal = describe_goal(sheet)
    Event.objects.create(sheet=sheet, turn=0, kind="created", summary=f"New sheet: {goal}.",
                         data={"goals": dict(goals)}, before=_snapshot(sheet, []))
    return sheet


def describe_goal(sheet: GhoulSheet) -> str:
    parts = []
    if sheet.fury_goal is not None:
        parts.append(f"gain {sheet.fury_goal} Fury")
    if sheet.crystal_goal is not None:
        parts.append(f"smash {sheet.crystal_goal} Crystals")
    text = " or ".join(parts)
    if text:
        text += ", then escape the Cave by entering the Entrance tile"
    if sheet.kill_goal:
        who = TARGET_NAMES[sheet.kill_goal]
        health = f" (she starts with {sheet.kill_health} Health)" if sheet.kill_goal == "knight" else \
            f" (he starts with {sheet.kill_health} Health)"
        kill = f"kill the {who}" + (health if sheet.kill_health else "")
        text = f"{kill}, or {text}" if text else kill
    return text[0].upper() + text[1:]


# --- the Terror deck ---------------------------------------------------------------------


def deck_size(sheet: GhoulSheet) -> int:
    """Cards in the sheet's Terror deck (fixed at creation from the catalogue)."""
    return sheet.terror_deck if sheet.terror_deck is not None else rules.TERROR_DECK


def deck_left(sheet: GhoulSheet, cards=None) -> int:
    """Cards still in the Terror deck: every card in hand, in play, removed or discarded is out
    of it; a card shuffled back (Pickpocket) is in it again. ``cards``: the sheet's cards if
    already fetched (no query)."""
    if cards is None:
        out = sheet.terror_cards.filter(status__in=TerrorCard.OUT_OF_DECK).count()
    else:
        out = sum(1 for c in cards if c.status in TerrorCard.OUT_OF_DECK)
    return rules.terror_cards_left(deck_size(sheet), out)


# --- state <-> engine ---------------------------------------------------------------------


def _snapshot(sheet: GhoulSheet, cards) -> dict:
    state = {name: getattr(sheet, name) for name in GhoulSheet.STATE_FIELDS}
    state["cards"] = {str(c.pk): c.status for c in cards}
    return state


def _state(sheet: GhoulSheet) -> rules.GhoulState:
    return rules.GhoulState(fury=sheet.fury, treasures=sheet.treasures, movement=sheet.movement,
                            attack_discs=sheet.attack_discs, defense=sheet.defense, crystals=sheet.crystals,
                            attacked=frozenset(sheet.attacked))


def _store(sheet: GhoulSheet, state: rules.GhoulState) -> int:
    """Write the engine's state back; the Terror cards it says to draw."""
    sheet.fury, sheet.treasures, sheet.movement = state.fury, state.treasures, state.movement
    sheet.attack_discs, sheet.defense, sheet.crystals = state.attack_discs, state.defense, state.crystals
    sheet.attacked = sorted(state.attacked)
    return state.terror_draws


def _board(sheet: GhoulSheet) -> rules.VileBoard:
    return rules.VileBoard(tuple(sheet.supply), sheet.left, tuple(sheet.right))


def chart(sheet: GhoulSheet) -> dict[int, tuple[int, int]]:
    return {int(face): (row[0], row[1]) for face, row in sheet.chart.items()}


def _int(data: Mapping, key: str, label: str, low: int = 0, high: int = 20, default: int | None = None) -> int:
    raw = data.get(key)
    if isinstance(raw, str):
        raw = raw.strip()
    if raw in ("", None):
        if default is not None:
            return default
        raise SheetError(f"Give {label}.")
    try:
        value = int(raw)
    except (TypeError, ValueError):
        raise SheetError(f"{label[0].upper() + label[1:]} must be a whole number.") from None
    if not low <= value <= high:
        raise SheetError(f"{label[0].upper() + label[1:]} must be {low} to {high}.")
    return value


def _flag(data: Mapping, key: str) -> bool:
    return data.get(key) in ("1", "on", "true", True)


# --- actions ------------------------------------------------------------------------------


@dataclass
class Outcome:
    summary: str
    data: dict = field(default_factory=dict)
    seed: int | None = None
    cards: list[str] = field(default_factory=list)  # reasons of the Terror cards to draw


def _need_phase(sheet: GhoulSheet, *phases: str) -> None:
    if sheet.phase not in phases:
        if sheet.phase == GhoulSheet.OVER:
            raise SheetError("The game is over. Undo the last action to go back.")
        wanted = " or ".join(dict(GhoulSheet.PHASE_CHOICES)[p] for p in phases)
        raise SheetError(f"That belongs to {wanted}; now it is {sheet.get_phase_display()}.")


def _need_kind(sheet: GhoulSheet, kind: str) -> None:
    if sheet.kind != kind:
        raise SheetError(f"Only {dict(GhoulSheet.KIND_CHOICES)[kind]} does that.")


def _not_over(sheet: GhoulSheet) -> None:
    if sheet.phase == GhoulSheet.OVER:
        raise SheetError("The game is over. Undo the last action to go back.")


def _fury_cards(before: rules.GhoulState, after: rules.GhoulState) -> list[str]:
    return ["fury"] * (after.terror_draws - before.terror_draws)


def _apply_statistics(sheet: GhoulSheet, keep: tuple[int, int]) -> tuple[int, int]:
    try:
        state = rules.start_turn(_state(sheet), sheet.roll, keep, backstab=sheet.backstab)
    except ValueError as exc:
        raise SheetError(str(exc)) from None
    # start_turn also counts the low-roll Terror card: it was drawn when the dice were rolled.
    _store(sheet, replace(state, terror_draws=0))
    sheet.phase = GhoulSheet.ACT
    return state.movement, state.attack_discs


def do_roll(sheet: GhoulSheet, data: Mapping) -> Outcome:
    """Roll and Set Statistics: discs back to the supply, roll (seeded), Terror on a low sum."""
    _need_kind(sheet, GhoulSheet.CAVE)
    _need_phase(sheet, GhoulSheet.ROLL)
    backstab = _int(data, "backstab", "the Thief's Backstab Action cubes", 0, 20, default=0)
    seed = secrets.randbits(32)
    roll = rules.roll_ghoul_dice(random.Random(seed), sheet.dice, seed)
    sheet.turn += 1
    sheet.roll, sheet.backstab = list(roll.dice), backstab
    sheet.attack_discs = sheet.defense = sheet.movement = 0
    sheet.attacked = []
    sheet.phase = GhoulSheet.CHOOSE
    dice = ", ".join(str(d) for d in roll.dice)
    summary = f"Turn {sheet.turn}: rolled {dice} (sum {sum(roll.dice)})"
    if roll.terror:
        summary += ": draw a Terror card"
    if backstab:
        summary += f"; Backstab −{backstab} movement"
    data_out = {"dice": list(roll.dice), "terror": roll.terror, "backstab": backstab}
    if sheet.dice == 2:  # two dice: both are kept, no choice to make
        movement, attack = _apply_statistics(sheet, (0, 1))
        summary += f"; movement {movement}, attack {attack}"
        data_out["keep"] = [0, 1]
    return Outcome(summary + ".", data_out, seed, ["roll"] if roll.terror else [])


def do_choose(sheet: GhoulSheet, data) -> Outcome:
    _need_kind(sheet, GhoulSheet.CAVE)
    _need_phase(sheet, GhoulSheet.CHOOSE)
    if data.get("pair"):  # "0-2": the positions of the two dice kept
        raw = str(data.get("pair")).split("-")
    else:
        raw = data.getlist("keep") if hasattr(data, "getlist") else data.get("keep", [])
    try:
        keep = tuple(int(k) for k in raw)
    except (TypeError, ValueError):
        raise SheetError("Choose two of the dice.") from None
    if len(keep) != 2:
        raise SheetError("Choose exactly two of the dice.")
    movement, attack = _apply_statistics(sheet, keep)
    kept = [sheet.roll[i] for i in keep]
    return Outcome(f"Kept {kept[0]} and {kept[1]}: movement {movement}, attack {attack}.", {"keep": list(keep)})


def _won(sheet: GhoulSheet) -> None:
    sheet.result, sheet.phase = GhoulSheet.WON, GhoulSheet.OVER


def do_move(sheet: GhoulSheet, data: Mapping) -> Outcome:
    _need_phase(sheet, GhoulSheet.ACT)
    wall, occupied, attacking = _flag(data, "wall"), _flag(data, "occupied"), _flag(data, "attacking")
    entrance = _flag(data, "entrance")
    if attacking and not occupied:
        raise SheetError("You can only attack on entering a space that holds a player piece.")
    extras = [w for w, on in (("through a wall", wall), ("into an occupied space", occupied),
                              ("to attack at once", attacking)) if on]
    if attacking and not sheet.is_vile and sheet.attack_discs < rules.attack_cost(0):
        # an attack costs "Ghoul discs equal to 1 + the target's defense statistic": at least 1
        raise SheetError("With no Ghoul discs on your Attack space you cannot attack: entering an occupied space "
                         "costs +1.")
    unattackable = _flag(data, "unattackable")
    if unattackable and not occupied:
        raise SheetError("A piece you cannot attack is only there if the space is occupied.")
    if sheet.is_vile:
        if occupied:
            defense = _int(data, "defense", "the piece's defense statistic", 0, 20)
            cost = rules.vile_enter_cost(sheet.attack_discs, defense, attacking, sheet.bonus, wall, unattackable)
            extras.append(f"defense {defense}")
        else:
            cost = rules.move_cost(through_wall=wall)
    else:
        cost = rules.move_cost(wall, occupied, attacking, unattackable)
    if unattackable:
        extras.append("holding a piece you cannot attack")
    try:
        state = rules.spend_movement(_state(sheet), cost)
    except rules.IllegalGhoulAction as exc:
        raise SheetError(f"This move costs {cost}: {exc}.") from None
    _store(sheet, state)
    if sheet.is_vile and not attacking:
        sheet.bonus = 0  # the bonus lasts only for this movement and the attack on entering
    summary = f"Moved{' ' + ', '.join(extras) if extras else ''}: {cost} movement, {sheet.movement} left."
    if entrance:
        summary = summary[:-1] + "; entered the Entrance tile."
        reached = rules.has_won(sheet.fury, sheet.fury_goal if sheet.fury_goal is not None else 10**6, True,
                                sheet.crystals, sheet.crystal_goal)
        if reached:
            _won(sheet)
            summary += " The Ghoul escapes the Cave and wins!"
    return Outcome(summary, {"cost": cost, "wall": wall, "occupied": occupied, "attacking": attacking,
                             "entrance": entrance})


def do_spend(sheet: GhoulSheet, data: Mapping) -> Outcome:
    """Movement spent on something else (a Terror card's effect, Flare on your space)."""
    _need_phase(sheet, GhoulSheet.ACT)
    points = _int(data, "points", "the movement points to spend", 1, 20)
    why = (data.get("why") or "").strip()[:60]
    try:
        _store(sheet, rules.spend_movement(_state(sheet), points))
    except rules.IllegalGhoulAction as exc:
        raise SheetError(f"Cannot spend: {exc}.") from None
    return Outcome(f"Spent {points} movement{' (' + why + ')' if why else ''}; {sheet.movement} left.",
                   {"points": points, "why": why})


def do_gain(sheet: GhoulSheet, data: Mapping) -> Outcome:
    """Movement or attack points gained (from a Terror card: the player knows its text)."""
    _need_phase(sheet, GhoulSheet.ACT)
    what = data.get("what")
    points = _int(data, "points", "the points gained", 1, 20)
    if what == "movement":
        sheet.movement += points
    elif what == "attack" and not sheet.is_vile:
        sheet.attack_discs += points
    else:
        raise SheetError("Choose movement or attack points." if not sheet.is_vile else
                         "The Vile Ghoul's Attack stays the same all turn; use a temporary bonus.")
    return Outcome(f"Gained {points} {what} point{'s' if points != 1 else ''}.", {"what": what, "points": points})


def do_collect(sheet: GhoulSheet, data: Mapping) -> Outcome:
    _need_phase(sheet, GhoulSheet.ACT)
    what = data.get("what")
    if what not in ("treasure", "gem", "trap"):
        raise SheetError("Collect a Treasure token or a Dragon Gem.")
    before = _state(sheet)
    try:
        if what == "trap":
            after = rules.spend_movement(before, rules.COLLECT_COST)
        else:
            after = rules.collect_treasure(before)
    except rules.IllegalGhoulAction as exc:
        raise SheetError(f"Collecting costs {rules.COLLECT_COST} movement: {exc}.") from None
    cards: list[str] = []
    if sheet.is_vile:
        pairs = after.fury - before.fury  # the engine counts the pairs as Fury; the Vile draws instead
        after = replace(after, fury=before.fury, terror_draws=before.terror_draws)
        cards = ["treasures"] * rules.vile_terror_draws(0, pairs * rules.TREASURES_PER_FURY)
    else:
        cards = _fury_cards(before, after)
    _store(sheet, after)
    if what == "trap":
        summary = "Collected a Dragon Gem: the Dragon die hit the center tile, it's a trap! Skitter; the Gem goes back."
    else:
        summary = ("Collected a Dragon Gem: it becomes a Treasure token." if what == "gem"
                   else "Collected a Treasure token.")
        if after.treasures == 0:
            summary += (" Two Treasures: draw a Terror card; both go back to the Cave's supply." if sheet.is_vile
                        else f" Two Treasures make 1 Fury (now {sheet.fury}); both go back to the Cave's supply.")
    return Outcome(summary, {"what": what}, cards=cards)


def _target(data: Mapping) -> tuple[str, str]:
    role = data.get("target")
    if role not in TARGET_NAMES:
        raise SheetError("Choose the player piece you attack.")
    label = (data.get("label") or "").strip()[:30]
    name = TARGET_NAMES[role] + (f" ({label})" if label else "")
    return role, name


def do_attack(sheet: GhoulSheet, data: Mapping) -> Outcome:
    _need_phase(sheet, GhoulSheet.ACT)
    role, name = _target(data)
    defense = _int(data, "defense", f"the {name}'s defense statistic", 0, 20)
    thief_killed = role == "thief"
    loot = _int(data, "loot", "the Thief's Loot Drop Level", 0, 20, default=1) if thief_killed else 0
    before = _state(sheet)
    cards: list[str] = []
    if sheet.is_vile:
        if name in sheet.attacked:
            raise SheetError(f"{name} was already attacked this turn.")
        if not rules.vile_can_attack(sheet.attack_discs, defense, sheet.bonus):
            bonus = f" + {sheet.bonus}" if sheet.bonus else ""
            raise SheetError(f"Attack {sheet.attack_discs}{bonus} is not greater than the {name}'s defense {defense}.")
        sheet.attacked = sorted(set(sheet.attacked) | {name})
        cards = ["attack"] * rules.vile_terror_draws(1, 0)
        sheet.bonus = 0
        summary = f"Attacked the {name} (defense {defense}): draw a Terror card, then skitter."
        if role == sheet.kill_goal and sheet.target_health is not None:
            sheet.target_health -= 1
            summary = summary[:-1] + f"; the {TARGET_NAMES[role]} loses 1 Health ({sheet.target_health} left)."
    else:
        try:
            after = rules.attack(before, name, defense)
        except rules.IllegalGhoulAction as exc:
            raise SheetError(str(exc)[0].upper() + str(exc)[1:] + ".") from None
        cards = _fury_cards(before, after)
        _store(sheet, after)
        terror = ": even Fury, draw a Terror card" if cards else ""
        cost = rules.attack_cost(defense)
        summary = (f"Attacked the {name} (defense {defense}): {cost} Ghoul disc{'s' if cost != 1 else ''}, "
                   f"1 Fury (now {sheet.fury}){terror}; then skitter.")
    data_out = {"target": role, "name": name, "defense": defense}
    if thief_killed:
        # Resolving the attack (the Thief's cards) comes before the Fury gained after it.
        drawn, _kept, returned = rules.thief_loot(loot, deck_left(sheet))
        cards = ["thief"] + cards  # the card kept (none drawn from an empty deck: see act)
        summary += " The Thief is killed"
        if drawn:
            back = f", return {returned} to the bottom of the Terror deck" if returned else ""
            summary += (f": drew {drawn} Terror card{'s' if drawn != 1 else ''} (Loot Drop Level {loot}, "
                        f"minimum 1), keep one{back}.")
        else:
            summary += "."
        data_out.update(loot=loot, loot_drawn=drawn, loot_returned=returned)
    return Outcome(summary, data_out, cards=cards)


def do_crystal(sheet: GhoulSheet, data: Mapping) -> Outcome:
    _need_phase(sheet, GhoulSheet.ACT)
    if sheet.is_vile:
        if not rules.vile_can_smash_crystal(sheet.attack_discs, sheet.bonus):
            raise SheetError(f"To smash a Crystal the Vile Ghoul needs at least {rules.VILE_CRYSTAL_ATTACK} Attack.")
        sheet.crystals += 1
        sheet.bonus = 0
    else:
        try:
            _store(sheet, rules.smash_crystal(_state(sheet)))
        except rules.IllegalGhoulAction as exc:
            raise SheetError(str(exc)[0].upper() + str(exc)[1:] + ".") from None
    goal = f" of {sheet.crystal_goal}" if sheet.crystal_goal is not None else ""
    return Outcome(f"Smashed a Crystal ({sheet.crystals}{goal}), then skitter.", {})


def do_end(sheet: GhoulSheet, data: Mapping) -> Outcome:
    """Set Defense: the discs left on the Attack space (the Vile Ghoul: its Attack)."""
    _need_phase(sheet, GhoulSheet.ACT)
    if sheet.is_vile:
        sheet.defense = sheet.attack_discs
        sheet.phase = GhoulSheet.PREPARE
    else:
        _store(sheet, rules.set_defense(_state(sheet)))
        sheet.phase = GhoulSheet.ROLL
    sheet.movement = sheet.bonus = sheet.boost_dice = sheet.boost_spent = 0
    # "If you resolve a once per game effect that begins with "During this turn," remove the card
    # from the game at the end of your turn."
    ending = list(sheet.terror_cards.filter(status=TerrorCard.ACTIVE))
    for card in ending:
        card.status = TerrorCard.PLAYED
        card.save(update_fields=["status"])
    removed = f" {', '.join(str(c) for c in ending)} leave{'s' if len(ending) == 1 else ''} the game." if ending else ""
    return Outcome(f"End of turn {sheet.turn}: Defense {sheet.defense}.{removed}", {"defense": sheet.defense})


def do_prepare(sheet: GhoulSheet, data: Mapping) -> Outcome:
    """The Vile Ghoul's Prepare Board: roll an empty supply (seeded) or slide the left die right.
    The Thief's Backstab cubes are entered here, as the Ghoul enters them with its roll (GS13)."""
    _need_kind(sheet, GhoulSheet.VILE)
    _need_phase(sheet, GhoulSheet.PREPARE)
    backstab = _int(data, "backstab", "the Thief's Backstab Action cubes", 0, 20, default=0)
    seed = secrets.randbits(32)
    rolled = not sheet.supply
    board = rules.prepare_board(_board(sheet), random.Random(seed), sheet.dice)
    sheet.turn += 1
    sheet.supply, sheet.left, sheet.right = list(board.supply), board.left, list(board.right)
    sheet.attack_discs = sheet.defense = sheet.movement = sheet.bonus = 0
    sheet.attacked = []
    sheet.backstab = backstab
    sheet.phase = GhoulSheet.SELECT
    stab = f"; Backstab −{backstab} movement" if backstab else ""
    if rolled:
        dice = ", ".join(str(d) for d in board.supply)
        return Outcome(f"Turn {sheet.turn}: no dice in the supply, rolled {dice} into it{stab}.",
                       {"dice": list(board.supply), "backstab": backstab}, seed)
    return Outcome(f"Turn {sheet.turn}: the die on the left slides to the right side of its row{stab}.",
                   {"right": list(board.right), "backstab": backstab})


def do_select(sheet: GhoulSheet, data: Mapping) -> Outcome:
    _need_kind(sheet, GhoulSheet.VILE)
    _need_phase(sheet, GhoulSheet.SELECT)
    face = _int(data, "face", "the die you select", 1, 6)
    try:
        board, stats = rules.select_statistics(_board(sheet), face, chart(sheet))
    except ValueError as exc:
        raise SheetError(str(exc)) from None
    sheet.supply, sheet.left, sheet.right = list(board.supply), board.left, list(board.right)
    # Backstab "reduces your Movement during your next turn by 1 for each Action cube" (not below 0)
    movement = max(stats.movement - sheet.backstab, 0)
    sheet.movement, sheet.attack_discs, sheet.boost_dice = movement, stats.attack, stats.boost_dice
    sheet.boost_spent = sheet.bonus = 0
    sheet.phase = GhoulSheet.ACT
    boost = f", {stats.boost_dice} Boost dice" if stats.boost_dice else ""
    stab = f" (Backstab −{sheet.backstab})" if sheet.backstab else ""
    return Outcome(f"Selected the {face}: Movement {movement}{stab}, Attack {stats.attack}{boost}.",
                   {"face": face, "movement": movement, "attack": stats.attack, "boost": stats.boost_dice})


def do_boost(sheet: GhoulSheet, data: Mapping) -> Outcome:
    """A temporary Attack bonus (a Boost die or a Hunt card), or a Boost die spent as movement.
    What a Boost die is worth is printed on the board, not in the text: the player types it."""
    _need_kind(sheet, GhoulSheet.VILE)
    _need_phase(sheet, GhoulSheet.ACT)
    use, source = data.get("use"), data.get("source")
    if use not in ("movement", "attack") or source not in ("boost", "hunt"):
        raise SheetError("Choose what the bonus is for and where it comes from.")
    if use == "movement" and source != "boost":
        raise SheetError("Only Boost dice can be spent in place of movement points.")
    points = _int(data, "points", "what it is worth", 1, 12)
    if source == "boost":
        if sheet.boost_spent >= sheet.boost_dice:
            raise SheetError("No unspent Boost die is left this turn.")
        sheet.boost_spent += 1
    if use == "movement":
        sheet.movement += points
        summary = f"Spent a Boost die for {points} movement."
    else:
        sheet.bonus += points
        what = "a Boost die" if source == "boost" else "a Hunt card"
        summary = f"+{points} Attack from {what} for this movement and attack (Attack {sheet.attack_discs + sheet.bonus})."
    return Outcome(summary, {"use": use, "source": source, "points": points})


def do_spores(sheet: GhoulSheet, data: Mapping) -> Outcome:
    _need_kind(sheet, GhoulSheet.CAVE)
    _not_over(sheet)
    if sheet.fury == 0:
        raise SheetError("The Ghoul has no Fury to lose.")
    _store(sheet, rules.lose_fury(_state(sheet), 1))
    return Outcome(f"Soporific Spores: −1 Fury (now {sheet.fury}); Terror cards are kept.")


def do_pickpocket(sheet: GhoulSheet, data: Mapping) -> Outcome:
    _not_over(sheet)
    if sheet.treasures == 0:
        raise SheetError("No Treasure token on your Treasure space.")
    sheet.treasures -= 1
    return Outcome("The Thief's Pickpocket steals a Treasure token.")


def do_health(sheet: GhoulSheet, data: Mapping) -> Outcome:
    """The kill target's Health changed by something else (other players, effects)."""
    _not_over(sheet)
    if sheet.target_health is None:
        raise SheetError("This sheet does not track a target's Health.")
    delta = _int(data, "delta", "the change", -20, 20)
    if delta == 0:
        raise SheetError("Give a change other than 0.")
    sheet.target_health += delta
    who = TARGET_NAMES[sheet.kill_goal]
    return Outcome(f"The {who}'s Health {'+' if delta > 0 else '−'}{abs(delta)} (now {sheet.target_health}).")


def do_killed(sheet: GhoulSheet, data: Mapping) -> Outcome:
    _not_over(sheet)
    if not sheet.kill_goal:
        raise SheetError("Killing a player is not a goal of this game.")
    _won(sheet)
    who = TARGET_NAMES[sheet.kill_goal]
    return Outcome(f"The {who} is killed: {'the Vile Ghoul' if sheet.is_vile else 'the Ghoul'} wins!")


def do_lost(sheet: GhoulSheet, data: Mapping) -> Outcome:
    _not_over(sheet)
    sheet.result, sheet.phase = GhoulSheet.LOST, GhoulSheet.OVER
    return Outcome("The game ended without the Ghoul's win (the Cave collapsed or another player won).")


def do_draw(sheet: GhoulSheet, data: Mapping) -> Outcome:
    """A Terror card drawn by hand (an effect the sheet does not count); none from an empty deck."""
    _not_over(sheet)
    if deck_left(sheet) == 0:
        raise SheetError(_empty_deck(sheet))
    return Outcome("Drew a Terror card.", cards=["manual"])


def _empty_deck(sheet: GhoulSheet) -> str:
    size = deck_size(sheet)
    return (f"The Terror deck is empty: all {size} Terror cards are in your hand, in play, removed from the game "
            "or discarded. Only cards returned to the deck (the Thief's Pickpocket) can be drawn again.")


def _card(sheet: GhoulSheet, data: Mapping) -> TerrorCard:
    try:
        card_id = int(data.get("card", ""))
    except (TypeError, ValueError):
        raise SheetError("Choose a Terror card.") from None
    card = sheet.terror_cards.filter(pk=card_id, status=TerrorCard.HAND).first()
    if card is None:
        raise SheetError("That Terror card is not in your hand.")
    return card


def _cards_used_this_turn(sheet: GhoulSheet, kind: str) -> set:
    """The cards whose effect (``use``: persistent or once per turn; ``play``: once per game) was
    recorded this turn, from the standing events."""
    events = sheet.events.filter(turn=sheet.turn, kind=kind, undone=False)
    return {e.data.get("card") for e in events}


def do_use(sheet: GhoulSheet, data: Mapping) -> Outcome:
    """A card's persistent or once per turn effect used this turn (recorded so that its once per
    game effect is refused this turn: "You cannot use both of a card's effects on the same turn")."""
    _not_over(sheet)
    card = _card(sheet, data)
    return Outcome(f"Used the persistent or once per turn effect of {card}.", {"card": card.pk})


def do_play(sheet: GhoulSheet, data: Mapping) -> Outcome:
    """The once per game effect: the card leaves the game now, or at the end of the turn when the
    effect begins "During this turn" (GS14)."""
    _not_over(sheet)
    card = _card(sheet, data)
    if card.pk in _cards_used_this_turn(sheet, "use"):
        raise SheetError(f"You used the other effect of {card} this turn: you cannot use both of a card's "
                         "effects on the same turn.")
    name = card.name.strip().casefold()
    if name:
        played = sheet.terror_cards.filter(pk__in=_cards_used_this_turn(sheet, "play")).exclude(pk=card.pk)
        if any(other.name.strip().casefold() == name for other in played):
            raise SheetError(f"You already used the once per game effect of a {card.name} card this turn: "
                             "not that of identical cards on the same turn.")
    during = _flag(data, "during")
    card.status = TerrorCard.ACTIVE if during else TerrorCard.PLAYED
    card.save(update_fields=["status"])
    if during:
        return Outcome(f"Used the once per game effect of {card} (\u201cDuring this turn\u201d): it stays in play "
                       "until the end of the turn, then leaves the game.", {"card": card.pk, "during": True})
    return Outcome(f"Used the once per game effect of {card}: removed from the game.", {"card": card.pk})


# Why a Terror card is discarded (the text's cases) -> (its status afterwards, the log's words).
DISCARDS = {
    "other": (TerrorCard.DISCARDED, ""),
    "scratch": (TerrorCard.DISCARDED, " (the Dragon's Scratch)"),
    "unicorn": (TerrorCard.DISCARDED, " (the Unicorn attacked with 3 Anger)"),
    # "he may choose ... to discard a Terror card, shuffling it back into the Terror deck"
    "pickpocket": (TerrorCard.RETURNED, " (the Thief's Pickpocket), shuffling it back into the Terror deck"),
}
DISCARD_CHOICES = [("other", "Another effect"), ("scratch", "The Dragon's Scratch"),
                   ("unicorn", "The Unicorn, with 3 Anger"), ("pickpocket", "The Thief's Pickpocket: back into the deck")]


def do_discard(sheet: GhoulSheet, data: Mapping) -> Outcome:
    """Discard a card from the hand. Pickpocket shuffles it back into the Terror deck; the text
    names no place for the other discards, which stay out of the deck (GS16)."""
    _not_over(sheet)
    why = data.get("why") or "other"
    if why not in DISCARDS:
        raise SheetError("Choose why the card is discarded.")
    card = _card(sheet, data)  # a card in play "During this turn" is not in the hand to discard
    status, words = DISCARDS[why]
    card.status = status
    card.save(update_fields=["status"])
    return Outcome(f"Discarded {card}{words}.", {"card": card.pk, "why": why})


ACTIONS = {
    "roll": do_roll, "choose": do_choose, "move": do_move, "spend": do_spend, "gain": do_gain,
    "collect": do_collect, "attack": do_attack, "crystal": do_crystal, "end": do_end, "prepare": do_prepare,
    "select": do_select, "boost": do_boost, "spores": do_spores, "pickpocket": do_pickpocket,
    "health": do_health, "killed": do_killed, "lost": do_lost, "draw": do_draw, "play": do_play,
    "use": do_use, "discard": do_discard,
}


def _locked(sheet_id: int, user) -> GhoulSheet:
    sheet = GhoulSheet.objects.select_for_update().filter(pk=sheet_id, owner=user).first()
    if sheet is None:
        raise SheetError("No such sheet.")
    return sheet


@transaction.atomic
def act(sheet_id: int, user, action: str, data: Mapping) -> Event:
    """Apply one action to the owner's sheet (locked), with its Event and Terror cards."""
    handler = ACTIONS.get(action)
    if handler is None:
        raise SheetError("Unknown action.")
    sheet = _locked(sheet_id, user)
    before = _snapshot(sheet, sheet.terror_cards.all())
    turn = sheet.turn
    outcome = handler(sheet, data)
    cards = outcome.cards
    if cards:  # cards come off the Terror deck while it has any (GS15)
        drawn, _short = rules.draw_terror_cards(deck_left(sheet), len(cards))
        cards, missed = cards[:drawn], cards[drawn:]
        if missed:
            why = ", ".join(TerrorCard.REASONS.get(r, r) for r in missed)
            outcome.summary += (f" The Terror deck is empty: {len(missed)} Terror card{'s' if len(missed) != 1 else ''}"
                                f" not drawn ({why}).")
            outcome.data["not_drawn"] = missed
    sheet.save()
    event = Event.objects.create(sheet=sheet, turn=sheet.turn if action in ("roll", "prepare") else turn,
                                 kind=action, summary=outcome.summary[:300], seed=outcome.seed,
                                 data=outcome.data, before=before)
    if cards:
        TerrorCard.objects.bulk_create([TerrorCard(sheet=sheet, event=event, drawn_turn=sheet.turn, reason=r)
                                        for r in cards])
    return event


def why_final(event: Event, drew_cards: bool) -> str | None:
    """Why this event can never be undone (nor, so, any before it), or None (GS12)."""
    if event.seed is not None:
        return "it rolled dice, and a roll is final"
    if drew_cards:
        return "it drew a Terror card, and a card drawn is final"
    return None


def last_standing(events) -> Event | None:
    """The latest event not undone (newest first): the only one undo may take back."""
    return next((e for e in events if not e.undone and e.kind != "created"), None)


@transaction.atomic
def undo(sheet_id: int, user) -> Event:
    """Undo the last action not yet undone: its state back, its card plays undone.
    A roll or a Terror card draw cannot be undone (GS12)."""
    sheet = _locked(sheet_id, user)
    event = sheet.events.filter(undone=False).exclude(kind="created").first()
    if event is None:
        raise SheetError("Nothing to undo.")
    final = why_final(event, event.cards.exists())
    if final:
        raise SheetError(f"That action cannot be undone: {final}.")
    before = event.before
    for name in GhoulSheet.STATE_FIELDS:
        setattr(sheet, name, before[name])
    sheet.save()
    event.cards.all().delete()
    for card in sheet.terror_cards.all():
        status = before["cards"].get(str(card.pk))
        if status is not None and status != card.status:
            card.status = status
            card.save(update_fields=["status"])
    event.undone = True
    event.save(update_fields=["undone"])
    return event


@transaction.atomic
def name_card(sheet_id: int, user, card_id, name: str) -> TerrorCard:
    sheet = _locked(sheet_id, user)
    name = (name or "").strip()
    if not name:
        raise SheetError("Type the card's name.")
    if len(name) > 60:
        raise SheetError("A card name is at most 60 characters.")
    try:
        card = sheet.terror_cards.get(pk=int(card_id))
    except (TypeError, ValueError, TerrorCard.DoesNotExist):
        raise SheetError("No such Terror card on this sheet.") from None
    card.name = name
    card.save(update_fields=["name"])
    return card


@transaction.atomic
def set_sharing(sheet_id: int, user, on: bool) -> GhoulSheet:
    sheet = _locked(sheet_id, user)
    sheet.share_token = secrets.token_urlsafe(18) if on else ""
    sheet.save(update_fields=["share_token", "updated_at"])
    return sheet


def replay_roll(sheet: GhoulSheet, event: Event) -> tuple[int, ...]:
    """The dice of a logged roll, rolled again from its seed."""
    rng = random.Random(event.seed)
    if event.kind == "roll":
        return rules.roll_ghoul_dice(rng, sheet.dice, event.seed).dice
    if event.kind == "prepare":
        return rules.prepare_board(rules.VileBoard(), rng, sheet.dice).supply
    raise ValueError("this event rolled no dice")
