"""The Ghoul role and the Vile Ghoul (vast-ghoul-role.txt).

Pure Python, no Django. The numbers (Fury goals, difficulties, dice counts,
Terror thresholds, costs) are read with plain json from
``catalogue/data/ghoul-role-1.json``; every function also takes them as
arguments so a caller (or a house rule) can supply others.

Readings (docs/rules-interpretations.md (Part 5), "The Ghoul role"):
- The Ghoul rolls 3 dice (2 on Stalker/Hard and Hunter/Expert). Terror is
  drawn on this roll when the sum of *all* dice rolled is <= 7 (3 dice) or
  <= 4 (2 dice), before any choice.
- "choose two dice": the higher of the two chosen is movement, the lower is
  attack; the player cannot swap them. With 3 dice the two highest dice
  maximise movement and attack at the same time, so "max_movement" and
  "max_attack" give the same distributions; with 2 dice there is no choice.
- Fury goal = difficulty base + players, capped at 14; the fixed numbers of the
  2- and 3-player variants are that formula at standard difficulty.
- A Terror card each time the Fury cube *reaches* an even space (going up);
  Fury lost (Soporific Spores) and regained reaches that space again.
- Smashing a Crystal costs 3 discs and skitters but gives no Fury (the Fury
  section names only attacking a player and 2 Treasures); a parameter allows
  the other reading.
- The Terror deck is the components' "13 Terror Cards". A card drawn comes off
  the deck; cards returned "to the bottom of the Terror deck" or discarded
  "shuffling it back into the Terror deck" go back; the text prints no other
  way back (no reshuffle), so an empty deck gives no card.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Mapping, Sequence

from catalogue import DATA_DIR

CATALOGUE = DATA_DIR / "ghoul-role-1.json"
FACES = range(1, 7)


@lru_cache(maxsize=None)
def _catalogue() -> dict:
    return json.loads(CATALOGUE.read_text(encoding="utf-8"))


def _rule(slug: str) -> dict:
    return next(r for r in _catalogue()["rules"] if r["slug"] == slug)


def difficulties() -> dict[str, dict]:
    """The five difficulty variants of the Ghoul, by slug (ragpicker ... hunter)."""
    return {d["slug"]: d for d in _catalogue()["difficulties"]}


def vile_difficulties() -> dict[str, dict]:
    return {d["slug"]: d for d in _catalogue()["vile_difficulties"]}


def terror_thresholds() -> dict[int, int]:
    """Dice rolled -> the sum at or below which a Terror card is drawn ({3: 7, 2: 4})."""
    return {r["dice"]: r["terror_at_or_below"] for r in (_rule("ghoul-dice"), _rule("ghoul-dice-hard"))}


FURY_CAP = _rule("fury-goal")["fury_cap"]
CRYSTAL_COST = _rule("smash-a-crystal")["cost"]
COLLECT_COST = _rule("collect-treasures-and-gems")["cost"]
# "The Ghoul may target its current space with Flare, spending 1 movement point each time."
FLARE_COST = _rule("flare-on-own-space")["cost"]
TREASURES_PER_FURY = _rule("two-treasures-make-one-fury")["treasures"]
VILE_CRYSTAL_ATTACK = _rule("vile-ghoul-smash-a-crystal")["attack_at_least"]
TERROR_AT_OR_BELOW = terror_thresholds()


def terror_deck_size(components: Sequence[Mapping] | None = None) -> int:
    """Cards in the Terror deck: the components list's "13 Terror Cards".

    ``components`` (entries with slug and number) replaces the catalogue file's."""
    for entry in _catalogue()["components"] if components is None else components:
        if entry["slug"] == "terror-cards":
            number = entry["number"]
            if isinstance(number, bool) or not isinstance(number, int) or number < 0:
                raise ValueError(f"the Terror deck needs a whole number of cards, got {number!r}")
            return number
    raise ValueError("the components list has no Terror cards")


TERROR_DECK = terror_deck_size()


# ---------------------------------------------------------------------------
# Fury goal and difficulty
# ---------------------------------------------------------------------------


def _difficulty(difficulty: str, table: Mapping[str, dict] | None = None) -> dict:
    table = difficulties() if table is None else table
    if difficulty not in table:
        raise ValueError(f"unknown difficulty {difficulty!r}: one of {', '.join(table)}")
    return table[difficulty]


def fury_goal(
    players: int, difficulty: str = "ghoul", cap: int | None = None, table: Mapping[str, dict] | None = None
) -> int:
    """Fury goal = the difficulty's base + the number of players, never above 14.

    Standard (Ghoul): 7 + players, e.g. 9 for two players, 12 for five.
    ``table`` (slug -> entry with ``fury_base``) replaces the catalogue file's
    difficulties, e.g. the database's rows with house rules.
    """
    if not isinstance(players, int) or isinstance(players, bool) or players < 1:
        raise ValueError(f"the number of players is a whole number >= 1, got {players!r}")
    base = _difficulty(difficulty, table)["fury_base"]
    return min(base + players, FURY_CAP if cap is None else cap)


def ghoul_dice_for(difficulty: str, table: Mapping[str, dict] | None = None) -> int:
    """Ghoul dice rolled: 3, or 2 on Stalker (Hard) and Hunter (Expert)."""
    return _difficulty(difficulty, table)["dice"]


def variant_goal(variant: str, variants: Sequence[dict] | None = None) -> dict:
    """A player-count variant's own goal: {"fury": n or None, "crystals": n or None}.

    ``variants`` (entries with slug, fury, crystals) replaces the catalogue file's."""
    for v in _catalogue()["player_variants"] if variants is None else variants:
        if v["slug"] == variant:
            return {"fury": v["fury"], "crystals": v["crystals"]}
    raise ValueError(f"unknown player variant {variant!r}")


def variant_flare(variant: str, variants: Sequence[dict] | None = None) -> bool | None:
    """Whether the variant gives the Ghoul (or the Vile Ghoul) the Flare Variant card: True, False, or None
    where this text does not say (the Vile Ghoul's vs. Cave / vs. Thief use the Goblins' set-up).
    ``variants`` (entries with slug and flare) replaces the catalogue file's player and Vile variants."""
    table = _catalogue()["player_variants"] + _catalogue()["vile_variants"] if variants is None else variants
    for v in table:
        if v["slug"] == variant:
            return v.get("flare")
    return None


# "The Ghoul wins if the Knight is killed, or if it gains 9 Fury ..." (Knight vs. Ghoul);
# "The Ghoul wins if the Dragon is killed, or if it escapes the Cave after gaining 9 Fury" (Dragon vs. Ghoul).
VARIANT_KILLS = {"knight-vs-ghoul": "knight", "dragon-vs-ghoul": "dragon"}


def variant_kill(variant: str) -> str | None:
    """The role whose death also wins the game for the Ghoul in a two-player variant, or None."""
    return VARIANT_KILLS.get(variant)


def has_won(fury: int, goal: int, entered_entrance: bool, crystals: int = 0, crystal_goal: int | None = None) -> bool:
    """Gain the goal (Fury, or Crystals where the variant allows it), *then* enter the Entrance tile."""
    reached = fury >= goal or (crystal_goal is not None and crystals >= crystal_goal)
    return reached and entered_entrance


# ---------------------------------------------------------------------------
# Ghoul dice
# ---------------------------------------------------------------------------


def _check_dice(dice) -> None:
    if isinstance(dice, bool) or not isinstance(dice, int) or dice not in TERROR_AT_OR_BELOW:
        raise ValueError(
            f"impossible number of Ghoul dice {dice!r}: the Ghoul rolls 3 dice, or 2 on Stalker (Hard) "
            "or Hunter (Expert) difficulty"
        )


def draws_terror(roll: Sequence[int]) -> bool:
    """Sum of all the dice rolled at or below the threshold (7 for 3 dice, 4 for 2)."""
    _check_dice(len(roll))
    return sum(roll) <= TERROR_AT_OR_BELOW[len(roll)]


def statistics_from(pair: Sequence[int]) -> tuple[int, int]:
    """(movement, attack) from the two chosen dice: the higher is movement, the lower attack."""
    if len(pair) != 2:
        raise ValueError("choose exactly two dice")
    a, b = pair
    return max(a, b), min(a, b)


def choose_dice(roll: Sequence[int], keep: tuple[int, int]) -> tuple[int, int]:
    """(movement, attack) keeping the dice at positions ``keep`` (the third die is set aside)."""
    _check_dice(len(roll))
    i, j = keep
    if i == j or not (0 <= i < len(roll) and 0 <= j < len(roll)):
        raise ValueError(f"choose two different dice of the {len(roll)} rolled")
    return statistics_from((roll[i], roll[j]))


def choose(roll: Sequence[int], prefer: str) -> tuple[int, int]:
    """(movement, attack) from the best pair: ``prefer`` "movement" maximises movement
    then attack; "attack" maximises attack then movement."""
    _check_dice(len(roll))
    pairs = [statistics_from(p) for p in itertools.combinations(roll, 2)]
    if prefer == "movement":
        return max(pairs)
    if prefer == "attack":
        return max(pairs, key=lambda p: (p[1], p[0]))
    raise ValueError("prefer is 'movement' or 'attack'")


def best_keep(roll: Sequence[int]) -> tuple[int, int]:
    """The positions of the pair to keep that gives the most movement and the most attack at once. "The die
    with the higher value is your movement points, and the die with the lower value is your attack points"
    (G2): the two highest dice give the highest die as movement and the second highest as attack, which no
    other pair beats on either, whatever the goal (more discs, more movement, never less). Ties: the earlier
    die first."""
    _check_dice(len(roll))
    first, second = sorted(sorted(range(len(roll)), key=lambda i: (-roll[i], i))[:2])
    return first, second


def ghoul_dice_odds(dice: int) -> dict:
    """Exact odds of one Roll and Set Statistics phase with ``dice`` Ghoul dice (3, or 2).

    ``{"terror": {"yes", "no"}, "max_movement": {"movement": {"1".."6"}, "attack": {...}},
    "max_attack": {...}}``, every leaf a Fraction, every inner group summing to 1.
    """
    _check_dice(dice)
    total = 6**dice
    terror = 0
    plans: dict[str, tuple[str, Counter, Counter]] = {
        "max_movement": ("movement", Counter(), Counter()),
        "max_attack": ("attack", Counter(), Counter()),
    }
    for roll in itertools.product(FACES, repeat=dice):
        terror += draws_terror(roll)
        for prefer, moves, attacks in plans.values():
            movement, attack = choose(roll, prefer)
            moves[movement] += 1
            attacks[attack] += 1
    answer: dict = {"terror": {"yes": Fraction(terror, total), "no": Fraction(total - terror, total)}}
    for name, (_prefer, moves, attacks) in plans.items():
        answer[name] = {
            "movement": {str(f): Fraction(moves[f], total) for f in FACES},
            "attack": {str(f): Fraction(attacks[f], total) for f in FACES},
        }
    return answer


@dataclass(frozen=True)
class GhoulRoll:
    seed: int
    dice: tuple[int, ...]
    terror: bool


def roll_ghoul_dice(rng: random.Random, dice: int, seed: int | None = None) -> GhoulRoll:
    """Roll the Ghoul dice (seeded by the caller's ``rng``); ``seed`` is only recorded."""
    _check_dice(dice)
    roll = tuple(rng.randint(1, 6) for _ in range(dice))
    return GhoulRoll(seed if seed is not None else -1, roll, draws_terror(roll))


# ---------------------------------------------------------------------------
# A Ghoul turn: movement points, attack discs, Fury, Treasures, Terror
# ---------------------------------------------------------------------------


def attack_cost(defense: int) -> int:
    """Ghoul discs to attack a player piece: 1 + its defense statistic (Strength, Armor or Stealth)."""
    if defense < 0:
        raise ValueError("a defense statistic cannot be negative")
    return _rule("attack")["cost_base"] + defense


def terror_cards_for_fury(before: int, after: int) -> int:
    """Terror cards drawn as the Fury cube moves up from ``before`` to ``after``:
    one for each even-numbered space reached."""
    every = _rule("terror-card-on-even-fury")["every"]
    return sum(1 for f in range(before + 1, after + 1) if f % every == 0)


# ---------------------------------------------------------------------------
# The Terror deck
# ---------------------------------------------------------------------------


def terror_cards_left(deck: int, out_of_deck: int) -> int:
    """Cards still in the Terror deck: the deck minus the cards out of it (in hand, in
    play, removed from the game, discarded). Never below 0."""
    if deck < 0 or out_of_deck < 0:
        raise ValueError("card counts cannot be negative")
    return max(deck - out_of_deck, 0)


def draw_terror_cards(left: int, wanted: int) -> tuple[int, int]:
    """(drawn, not drawn): each draw takes the top card while the deck has one;
    the text has no rule to refill an empty deck, so the rest are not drawn."""
    if left < 0 or wanted < 0:
        raise ValueError("card counts cannot be negative")
    drawn = min(left, wanted)
    return drawn, wanted - drawn


def thief_loot(loot_drop_level: int, left: int) -> tuple[int, int, int]:
    """The Thief killed: "Draw Terror cards equal in number to the Thief's Loot Drop Level
    (minimum 1), keep one, and return the others to the bottom of the Terror deck."

    (drawn, kept, returned): as many as the deck holds; one is kept if any was drawn."""
    if loot_drop_level < 0 or left < 0:
        raise ValueError("card counts cannot be negative")
    drawn, _short = draw_terror_cards(left, max(loot_drop_level, _rule("thief-killed")["at_least"]))
    kept = min(drawn, _rule("thief-killed")["keep"])
    return drawn, kept, drawn - kept


def move_cost(
    through_wall: bool = False, occupied: bool = False, attacking: bool = False, holds_unattackable: bool = False
) -> int:
    """Movement points to move to an adjacent space.

    1, +1 through a wall, +1 to enter a space holding other player pieces
    without immediately attacking, and +1 anyway if the space holds a piece you
    cannot attack (even if you attack another there).
    """
    rule = _rule("move")
    cost = rule["cost"]
    if through_wall:
        cost += rule["wall_extra"]
    if (occupied and not attacking) or holds_unattackable:
        cost += rule["occupied_extra"]
    return cost


class IllegalGhoulAction(ValueError):
    """A Ghoul action whose cost or condition is not met."""


@dataclass(frozen=True)
class GhoulState:
    """The Ghoul between and during turns."""

    fury: int = 0
    treasures: int = 0
    movement: int = 0
    attack_discs: int = 0
    defense: int = 0
    crystals: int = 0
    terror_draws: int = 0
    attacked: frozenset[str] = frozenset()


def _gain_fury(state: GhoulState, amount: int) -> GhoulState:
    after = state.fury + amount
    return replace(state, fury=after, terror_draws=state.terror_draws + terror_cards_for_fury(state.fury, after))


def start_turn(
    state: GhoulState, roll: Sequence[int], keep: tuple[int, int] | None = None, backstab: int = 0
) -> GhoulState:
    """Roll and Set Statistics from a roll already made.

    Discs return from the Attack space, so last turn's Defense ends ("until
    the start of your next turn"); a Terror card is drawn if the roll is low;
    the kept pair sets movement (minus Backstab cubes, not below 0) and attack
    discs. ``keep`` defaults to the pair maximising movement.
    """
    movement, attack = choose_dice(roll, keep) if keep is not None else choose(roll, "movement")
    return replace(
        state,
        movement=max(movement - backstab, 0),
        attack_discs=attack,
        defense=0,
        attacked=frozenset(),
        terror_draws=state.terror_draws + (1 if draws_terror(roll) else 0),
    )


def spend_movement(state: GhoulState, points: int) -> GhoulState:
    if points > state.movement:
        raise IllegalGhoulAction(f"needs {points} movement points, has {state.movement}")
    return replace(state, movement=state.movement - points)


def collect_treasure(state: GhoulState) -> GhoulState:
    """2 movement points per Treasure; every 2 Treasures become 1 Fury."""
    state = spend_movement(state, COLLECT_COST)
    treasures = state.treasures + 1
    gained = treasures // TREASURES_PER_FURY
    state = replace(state, treasures=treasures % TREASURES_PER_FURY)
    return _gain_fury(state, gained) if gained else state


def attack(state: GhoulState, target: str, defense: int) -> GhoulState:
    """Spend 1 + defense discs, then gain 1 Fury (then skitter); once per target per turn."""
    if target in state.attacked:
        raise IllegalGhoulAction(f"{target} was already attacked this turn")
    cost = attack_cost(defense)
    if cost > state.attack_discs:
        raise IllegalGhoulAction(f"attacking {target} costs {cost} Ghoul discs, {state.attack_discs} left")
    state = replace(state, attack_discs=state.attack_discs - cost, attacked=state.attacked | {target})
    return _gain_fury(state, _rule("attack")["fury"])


def smash_crystal(state: GhoulState, crystal_gives_fury: bool = False) -> GhoulState:
    if CRYSTAL_COST > state.attack_discs:
        raise IllegalGhoulAction(f"smashing a Crystal costs {CRYSTAL_COST} Ghoul discs, {state.attack_discs} left")
    state = replace(state, attack_discs=state.attack_discs - CRYSTAL_COST, crystals=state.crystals + 1)
    return _gain_fury(state, 1) if crystal_gives_fury else state


def set_defense(state: GhoulState) -> GhoulState:
    """Defense = the Ghoul discs left on the Attack space (0 if none)."""
    return replace(state, defense=state.attack_discs)


def lose_fury(state: GhoulState, amount: int = 1) -> GhoulState:
    """Soporific Spores: Fury down by 1 (Terror cards are kept)."""
    return replace(state, fury=max(state.fury - amount, 0))


def can_enter_ghoul_space(statistic: int, defense: int) -> bool:
    """Knight (Strength), Goblins (Strength), surface Dragon (Armor), Thief (Stealth):
    only if the statistic is greater than the Ghoul's Defense."""
    return statistic > defense


# ---------------------------------------------------------------------------
# The Vile Ghoul
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class VileBoard:
    """The Vile Ghoul's dice: the supply, the die on the left side of the chart
    (face or None) and the dice on the right side (their faces = their rows)."""

    supply: tuple[int, ...] = ()
    left: int | None = None
    right: tuple[int, ...] = ()


def prepare_board(board: VileBoard, rng: random.Random, dice: int = 3) -> VileBoard:
    """No dice in supply: collect all the dice from the chart and roll them into the supply.
    Otherwise slide the left-side die to the right side of its row."""
    _check_dice(dice)
    if not board.supply:
        return VileBoard(tuple(rng.randint(1, 6) for _ in range(dice)), None, ())
    if board.left is None:
        return board
    return VileBoard(board.supply, None, tuple(sorted(board.right + (board.left,))))


@dataclass(frozen=True)
class VileStatistics:
    movement: int
    attack: int
    boost_dice: int


def select_statistics(
    board: VileBoard, face: int, chart: Mapping[int, tuple[int, int]]
) -> tuple[VileBoard, VileStatistics]:
    """Place a supply die (not rolled) on its face's row of the dice chart.

    ``chart`` maps a die face to that row's (Movement, Attack): the printed
    board's numbers, which the text does not give. Dice on the right side of
    the selected row are Boost dice.
    """
    if face not in board.supply:
        raise ValueError(f"no die showing {face} in the supply {board.supply}")
    if board.left is not None:
        raise ValueError("prepare the board first: a die is still on the left side")
    if face not in chart:
        raise ValueError(f"the dice chart has no row {face}")
    supply = list(board.supply)
    supply.remove(face)
    movement, attack_ = chart[face]
    return VileBoard(tuple(supply), face, board.right), VileStatistics(movement, attack_, board.right.count(face))


def vile_can_attack(attack_value: int, defense: int, bonus: int = 0) -> bool:
    """Only if Attack (plus temporary Boost / Hunt bonus) is greater than the defense statistic."""
    return attack_value + bonus > defense


def vile_can_smash_crystal(attack_value: int, bonus: int = 0) -> bool:
    return attack_value + bonus >= VILE_CRYSTAL_ATTACK


def vile_enter_cost(
    attack_value: int,
    defense: int,
    attacking: bool,
    bonus: int = 0,
    through_wall: bool = False,
    holds_unattackable: bool = False,
) -> int:
    """Movement to enter a space with a player piece: +1 if Attack <= its defense
    statistic or if not immediately attacking it; +1 (once) as well if the space also
    holds a piece you cannot attack, as for the Ghoul (GS18)."""
    rule = _rule("move")
    cost = rule["cost"] + (rule["wall_extra"] if through_wall else 0)
    if attack_value + bonus <= defense or not attacking or holds_unattackable:
        cost += rule["occupied_extra"]
    return cost


def vile_terror_draws(successful_attacks: int, treasures_or_gems: int) -> int:
    """A Terror card each successful attack and each 2 Treasures or Dragon Gems collected."""
    return successful_attacks + treasures_or_gems // TREASURES_PER_FURY


def vile_goal(
    difficulty: str = "ghoul", knight: bool = True, dragon: bool = True, table: Mapping[str, dict] | None = None
) -> dict:
    """What the Vile Ghoul must do: kill the Knight (her starting Health), else the
    Dragon, else smash Crystals (then escape). ``table`` replaces the file's difficulties."""
    table = vile_difficulties() if table is None else table
    if difficulty not in table:
        raise ValueError(f"unknown difficulty {difficulty!r}: one of {', '.join(table)}")
    d = table[difficulty]
    if knight:
        return {"kill": "knight", "health": d["knight_health"]}
    if dragon:
        return {"kill": "dragon", "health": d["dragon_health"]}
    return {"smash_crystals": d["crystals"], "then_escape": True}


def vile_crystals_vs_thief(thief_stash: int, variant: Mapping | None = None) -> int:
    """Vile Ghoul vs. Thief: one more Crystal than the Treasures the Thief must stash (5 or 6).
    ``variant`` (the entry with thief_stash and crystals_over_stash) replaces the file's."""
    if variant is None:
        variant = next(v for v in _catalogue()["vile_variants"] if v["slug"] == "vile-ghoul-vs-thief-vs-cave")
    if thief_stash not in variant["thief_stash"]:
        raise ValueError(f"the Thief must stash one of {variant['thief_stash']} Treasures")
    return thief_stash + variant["crystals_over_stash"]


# ---------------------------------------------------------------------------
# What one player's sheet may do now (the phases of a turn)
# ---------------------------------------------------------------------------

# The two roles and the phases of a turn (the tracker stores these words)
CAVE, VILE = "cave", "vile"
KINDS = {CAVE: "The Ghoul", VILE: "The Vile Ghoul"}
ROLL, CHOOSE, PREPARE, SELECT, ACT, OVER = "roll", "choose", "prepare", "select", "act", "over"
PHASES = {
    ROLL: "Roll and Set Statistics",
    CHOOSE: "Choose two dice",
    PREPARE: "Prepare Board",
    SELECT: "Select Statistics",
    ACT: "Move and Act",
    OVER: "Game over",
}

# Each action: the role that may take it (None: both) and the phases it belongs to (None: any until the game
# is over). The Ghoul: Roll and Set Statistics (roll, then choose two of three dice), Move and Act, Set
# Defense (end); the Vile Ghoul: Prepare Board, Select Statistics, Move and Act (with its Boost dice).
# Terror cards, the Thief's Pickpocket and the game's end come at any time.
ACTIONS: dict[str, tuple[str | None, tuple[str, ...] | None]] = {
    "roll": (CAVE, (ROLL,)),
    "choose": (CAVE, (CHOOSE,)),
    "move": (None, (ACT,)),
    "spend": (None, (ACT,)),
    "gain": (None, (ACT,)),
    "collect": (None, (ACT,)),
    "attack": (None, (ACT,)),
    "crystal": (None, (ACT,)),
    "end": (None, (ACT,)),
    "prepare": (VILE, (PREPARE,)),
    "select": (VILE, (SELECT,)),
    "boost": (VILE, (ACT,)),
    "spores": (CAVE, None),
    "pickpocket": (None, None),
    "health": (None, None),
    "killed": (None, None),
    "lost": (None, None),
    "draw": (None, None),
    "play": (None, None),
    "use": (None, None),
    "discard": (None, None),
}


class NotNow(IllegalGhoulAction):
    """An action refused by the turn's rules; the message is the player's."""


@dataclass(frozen=True)
class Sheet:
    """One player's sheet as the turn rules see it. ``tracks_health``: the kill target's Health is on the
    sheet; ``kill_goal``: killing a player is a goal; ``deck_left``/``deck_size``: the Terror deck."""

    kind: str
    phase: str
    fury: int = 0
    treasures: int = 0
    tracks_health: bool = False
    kill_goal: bool = False
    deck_left: int = 0
    deck_size: int = TERROR_DECK


def empty_deck_message(size: int) -> str:
    return (
        f"The Terror deck is empty: all {size} Terror cards are in your hand, in play, removed from the game "
        "or discarded. Only cards returned to the deck (the Thief's Pickpocket) can be drawn again."
    )


def check(sheet: Sheet, action: str) -> None:
    """Raise NotNow, with the player's message, unless the sheet may take ``action`` now. What only the
    action's own choices decide (points, a card, a target) is checked with them."""
    if action not in ACTIONS:
        raise NotNow("Unknown action.")
    kind, phases = ACTIONS[action]
    if kind is not None and sheet.kind != kind:
        raise NotNow(f"Only {KINDS[kind]} does that.")
    if sheet.phase == OVER:
        raise NotNow("The game is over. Undo the last action to go back.")
    if phases is not None and sheet.phase not in phases:
        wanted = " or ".join(PHASES[p] for p in phases)
        raise NotNow(f"That belongs to {wanted}; now it is {PHASES.get(sheet.phase, sheet.phase)}.")
    if action == "spores" and sheet.fury == 0:
        raise NotNow("The Ghoul has no Fury to lose.")
    if action == "pickpocket" and sheet.treasures == 0:
        raise NotNow("No Treasure token on your Treasure space.")
    if action == "health" and not sheet.tracks_health:
        raise NotNow("This sheet does not track a target's Health.")
    if action == "killed" and not sheet.kill_goal:
        raise NotNow("Killing a player is not a goal of this game.")
    if action == "draw" and sheet.deck_left == 0:
        raise NotNow(empty_deck_message(sheet.deck_size))


def legal(sheet: Sheet) -> frozenset[str]:
    """What the sheet may do now: the actions ``check`` allows."""
    allowed = set()
    for action in ACTIONS:
        try:
            check(sheet, action)
        except NotNow:
            continue
        allowed.add(action)
    return frozenset(allowed)


# ---------------------------------------------------------------------------
# What an action chooses: the space entered, the piece attacked, a bonus, a card's effect
# ---------------------------------------------------------------------------


def check_move_choice(
    vile: bool, attack_discs: int, occupied: bool, attacking: bool, unattackable: bool, defense: int | None = None
) -> None:
    """Entering a space: an attack on entering needs a piece there, and the Ghoul the discs that attack costs
    ("Ghoul discs equal to 1 + the target's defense statistic": at least 1, and 1 + ``defense`` once the
    piece's defense is given); a piece it cannot attack is only there if the space is occupied. Without those
    discs the Ghoul cannot "immediately attack", so the entry is refused before it is paid: entering costs +1
    (GS19)."""
    if attacking and not occupied:
        raise NotNow("You can only attack on entering a space that holds a player piece.")
    if attacking and not vile and attack_discs < attack_cost(0):
        raise NotNow("With no Ghoul discs on your Attack space you cannot attack: entering an occupied space costs +1.")
    if attacking and not vile and defense is not None and attack_discs < attack_cost(defense):
        raise NotNow(
            f"Attacking a piece with defense {defense} costs {attack_cost(defense)} Ghoul discs and your Attack "
            f"space holds {attack_discs}: you cannot attack it at once, so entering its space costs +1 "
            "(move without “…and I attack one of them at once”)."
        )
    if unattackable and not occupied:
        raise NotNow("A piece you cannot attack is only there if the space is occupied.")


def check_vile_attack(name: str, already_attacked: bool, attack_value: int, defense: int, bonus: int = 0) -> None:
    """The Vile Ghoul attacks each piece once a turn, only with Attack (plus a temporary bonus) greater than
    its defense."""
    if already_attacked:
        raise NotNow(f"{name} was already attacked this turn.")
    if not vile_can_attack(attack_value, defense, bonus):
        plus = f" + {bonus}" if bonus else ""
        raise NotNow(f"Attack {attack_value}{plus} is not greater than the {name}'s defense {defense}.")


def check_vile_crystal(attack_value: int, bonus: int = 0) -> None:
    if not vile_can_smash_crystal(attack_value, bonus):
        raise NotNow(f"To smash a Crystal the Vile Ghoul needs at least {VILE_CRYSTAL_ATTACK} Attack.")


def check_boost(use: str | None, source: str | None) -> None:
    """A temporary bonus from a Boost die or a Hunt card; only a Boost die is spent as movement, and only
    while one is left this turn."""
    if use not in ("movement", "attack") or source not in ("boost", "hunt"):
        raise NotNow("Choose what the bonus is for and where it comes from.")
    if use == "movement" and source != "boost":
        raise NotNow("Only Boost dice can be spent in place of movement points.")


def check_boost_die(boost_dice_left: int) -> None:
    if boost_dice_left <= 0:
        raise NotNow("No unspent Boost die is left this turn.")


def check_once_per_game(card: str, used_other_effect: bool, name: str = "", identical_played: bool = False) -> None:
    """ "You cannot use both of a card's effects on the same turn", nor the once per game effect of identical
    cards on the same turn (GS14)."""
    if used_other_effect:
        raise NotNow(
            f"You used the other effect of {card} this turn: you cannot use both of a card's effects on the same turn."
        )
    if identical_played:
        raise NotNow(
            f"You already used the once per game effect of a {name} card this turn: not that of "
            "identical cards on the same turn."
        )
