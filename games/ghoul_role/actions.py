"""The Ghoul role's actions, one handler each. ``services.act`` first asks the engine whether the sheet may take
the action now (``rules.ghoul_role.check``: the role, the phase, the game not over, something to act on); a
handler takes the action's own choices as typed keyword arguments (read from the POST by
``action_forms``), calls the engine and writes the sheet back."""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field, replace

from games.ghoul_role import services
from games.ghoul_role.goals import TARGET_NAMES
from games.ghoul_role.models import GhoulSheet, TerrorCard
from games.ghoul_role.state import chart, deck_left, engine_state, store_state, vile_board
from rules import ghoul_role as rules


def _engine(check, *args) -> None:
    """Run one of the engine's checks of what the action chose; its refusal is the player's message."""
    try:
        check(*args)
    except rules.NotNow as exc:
        raise services.SheetError(str(exc)) from None


# --- actions ------------------------------------------------------------------------------


@dataclass
class Outcome:
    summary: str
    data: dict = field(default_factory=dict)
    seed: int | None = None
    cards: list[str] = field(default_factory=list)  # reasons of the Terror cards to draw


def _fury_cards(before: rules.GhoulState, after: rules.GhoulState) -> list[str]:
    return ["fury"] * (after.terror_draws - before.terror_draws)


def _apply_statistics(sheet: GhoulSheet, keep: tuple[int, int]) -> tuple[int, int]:
    try:
        state = rules.start_turn(engine_state(sheet), sheet.roll, keep, backstab=sheet.backstab)
    except ValueError as exc:
        raise services.SheetError(str(exc)) from None
    # start_turn also counts the low-roll Terror card: it was drawn when the dice were rolled.
    store_state(sheet, replace(state, terror_draws=0))
    sheet.phase = GhoulSheet.ACT
    return state.movement, state.attack_discs


def do_roll(sheet: GhoulSheet, *, backstab: int = 0) -> Outcome:
    """Roll and Set Statistics: discs back to the supply, roll (seeded), Terror on a low sum."""
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


def do_choose(sheet: GhoulSheet, *, keep: tuple[int, int]) -> Outcome:
    """``keep``: the positions of the two dice kept."""
    if len(keep) != 2:
        raise services.SheetError("Choose exactly two of the dice.")
    movement, attack = _apply_statistics(sheet, keep)
    kept = [sheet.roll[i] for i in keep]
    return Outcome(f"Kept {kept[0]} and {kept[1]}: movement {movement}, attack {attack}.", {"keep": list(keep)})


def _won(sheet: GhoulSheet) -> None:
    sheet.result, sheet.phase = GhoulSheet.WON, GhoulSheet.OVER


def do_move(
    sheet: GhoulSheet,
    *,
    wall: bool = False,
    occupied: bool = False,
    attacking: bool = False,
    entrance: bool = False,
    unattackable: bool = False,
    defense: int | None = None,
) -> Outcome:
    """``defense``: the defense statistic of the piece in the occupied space the Vile Ghoul enters, or of the
    piece the Ghoul enters to attack at once (its attack costs 1 + that in Ghoul discs: GS19)."""
    _engine(rules.check_move_choice, sheet.is_vile, sheet.attack_discs, occupied, attacking, unattackable, defense)
    extras = [
        w
        for w, on in (("through a wall", wall), ("into an occupied space", occupied), ("to attack at once", attacking))
        if on
    ]
    if not sheet.is_vile and attacking:
        if defense is None:
            raise services.SheetError(
                "Give the defense statistic of the piece you attack at once: the attack costs 1 + it in Ghoul discs."
            )
        extras.append(f"defense {defense}")
    if sheet.is_vile:
        if occupied:
            if defense is None:
                raise services.SheetError("Give the piece's defense statistic.")
            cost = rules.vile_enter_cost(sheet.attack_discs, defense, attacking, sheet.bonus, wall, unattackable)
            extras.append(f"defense {defense}")
        else:
            cost = rules.move_cost(through_wall=wall)
    else:
        cost = rules.move_cost(wall, occupied, attacking, unattackable)
    if unattackable:
        extras.append("holding a piece you cannot attack")
    try:
        state = rules.spend_movement(engine_state(sheet), cost)
    except rules.IllegalGhoulAction as exc:
        raise services.SheetError(f"This move costs {cost}: {exc}.") from None
    store_state(sheet, state)
    if sheet.is_vile and not attacking:
        sheet.bonus = 0  # the bonus lasts only for this movement and the attack on entering
    summary = f"Moved{' ' + ', '.join(extras) if extras else ''}: {cost} movement, {sheet.movement} left."
    if entrance:
        summary = summary[:-1] + "; entered the Entrance tile."
        reached = rules.has_won(
            sheet.fury,
            sheet.fury_goal if sheet.fury_goal is not None else 10**6,
            True,
            sheet.crystals,
            sheet.crystal_goal,
        )
        if reached:
            _won(sheet)
            summary += " The Ghoul escapes the Cave and wins!"
    return Outcome(
        summary, {"cost": cost, "wall": wall, "occupied": occupied, "attacking": attacking, "entrance": entrance}
    )


def do_spend(sheet: GhoulSheet, *, points: int, why: str = "") -> Outcome:
    """Movement spent on something else (a Terror card's effect, Flare on your space)."""
    try:
        store_state(sheet, rules.spend_movement(engine_state(sheet), points))
    except rules.IllegalGhoulAction as exc:
        raise services.SheetError(f"Cannot spend: {exc}.") from None
    return Outcome(
        f"Spent {points} movement{' (' + why + ')' if why else ''}; {sheet.movement} left.",
        {"points": points, "why": why},
    )


def do_gain(sheet: GhoulSheet, *, what: str, points: int) -> Outcome:
    """Movement or attack points gained (from a Terror card: the player knows its text)."""
    if what == "movement":
        sheet.movement += points
    elif what == "attack" and not sheet.is_vile:
        sheet.attack_discs += points
    else:
        raise services.SheetError(
            "Choose movement or attack points."
            if not sheet.is_vile
            else "The Vile Ghoul's Attack stays the same all turn; use a temporary bonus."
        )
    return Outcome(f"Gained {points} {what} point{'s' if points != 1 else ''}.", {"what": what, "points": points})


def do_collect(sheet: GhoulSheet, *, what: str) -> Outcome:
    if what not in ("treasure", "gem", "trap"):
        raise services.SheetError("Collect a Treasure token or a Dragon Gem.")
    before = engine_state(sheet)
    try:
        if what == "trap":
            after = rules.spend_movement(before, rules.COLLECT_COST)
        else:
            after = rules.collect_treasure(before)
    except rules.IllegalGhoulAction as exc:
        raise services.SheetError(f"Collecting costs {rules.COLLECT_COST} movement: {exc}.") from None
    cards: list[str] = []
    if sheet.is_vile:
        pairs = after.fury - before.fury  # the engine counts the pairs as Fury; the Vile draws instead
        after = replace(after, fury=before.fury, terror_draws=before.terror_draws)
        cards = ["treasures"] * rules.vile_terror_draws(0, pairs * rules.TREASURES_PER_FURY)
    else:
        cards = _fury_cards(before, after)
    store_state(sheet, after)
    if what == "trap":
        summary = "Collected a Dragon Gem: the Dragon die hit the center tile, it's a trap! Skitter; the Gem goes back."
    else:
        summary = (
            "Collected a Dragon Gem: it becomes a Treasure token." if what == "gem" else "Collected a Treasure token."
        )
        if after.treasures == 0:
            summary += (
                " Two Treasures: draw a Terror card; both go back to the Cave's supply."
                if sheet.is_vile
                else f" Two Treasures make 1 Fury (now {sheet.fury})"
                + (": even Fury, draw a Terror card" if cards else "")
                + "; both go back to the Cave's supply."
            )
    return Outcome(summary, {"what": what}, cards=cards)


def do_attack(sheet: GhoulSheet, *, target: str, defense: int, label: str = "", loot: int = 1) -> Outcome:
    """``target``: the player piece attacked (``label``: which one); ``loot``: the Thief's Loot Drop Level."""
    role = target
    if role not in TARGET_NAMES:
        raise services.SheetError("Choose the player piece you attack.")
    name = TARGET_NAMES[role] + (f" ({label})" if label else "")
    thief_killed = role == "thief"
    before = engine_state(sheet)
    cards: list[str] = []
    if sheet.is_vile:
        _engine(rules.check_vile_attack, name, name in sheet.attacked, sheet.attack_discs, defense, sheet.bonus)
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
            raise services.SheetError(str(exc)[0].upper() + str(exc)[1:] + ".") from None
        cards = _fury_cards(before, after)
        store_state(sheet, after)
        terror = ": even Fury, draw a Terror card" if cards else ""
        cost = rules.attack_cost(defense)
        summary = (
            f"Attacked the {name} (defense {defense}): {cost} Ghoul disc{'s' if cost != 1 else ''}, "
            f"1 Fury (now {sheet.fury}){terror}; then skitter."
        )
    data_out = {"target": role, "name": name, "defense": defense}
    if thief_killed:
        # Resolving the attack (the Thief's cards) comes before the Fury gained after it.
        drawn, _kept, returned = rules.thief_loot(loot, deck_left(sheet))
        cards = ["thief"] + cards  # the card kept (none drawn from an empty deck: see act)
        summary += " The Thief is killed"
        if drawn:
            back = f", return {returned} to the bottom of the Terror deck" if returned else ""
            summary += (
                f": drew {drawn} Terror card{'s' if drawn != 1 else ''} (Loot Drop Level {loot}, "
                f"minimum 1), keep one{back}."
            )
        else:
            summary += "."
        data_out.update(loot=loot, loot_drawn=drawn, loot_returned=returned)
    return Outcome(summary, data_out, cards=cards)


def do_crystal(sheet: GhoulSheet) -> Outcome:
    if sheet.is_vile:
        _engine(rules.check_vile_crystal, sheet.attack_discs, sheet.bonus)
        sheet.crystals += 1
        sheet.bonus = 0
    else:
        try:
            store_state(sheet, rules.smash_crystal(engine_state(sheet)))
        except rules.IllegalGhoulAction as exc:
            raise services.SheetError(str(exc)[0].upper() + str(exc)[1:] + ".") from None
    goal = f" of {sheet.crystal_goal}" if sheet.crystal_goal is not None else ""
    return Outcome(f"Smashed a Crystal ({sheet.crystals}{goal}), then skitter.", {})


def do_end(sheet: GhoulSheet) -> Outcome:
    """Set Defense: the discs left on the Attack space (the Vile Ghoul: its Attack)."""
    if sheet.is_vile:
        sheet.defense = sheet.attack_discs
        sheet.phase = GhoulSheet.PREPARE
    else:
        store_state(sheet, rules.set_defense(engine_state(sheet)))
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


def do_prepare(sheet: GhoulSheet, *, backstab: int = 0) -> Outcome:
    """The Vile Ghoul's Prepare Board: roll an empty supply (seeded) or slide the left die right.
    The Thief's Backstab cubes are entered here, as the Ghoul enters them with its roll (GS13)."""
    seed = secrets.randbits(32)
    rolled = not sheet.supply
    board = rules.prepare_board(vile_board(sheet), random.Random(seed), sheet.dice)
    sheet.turn += 1
    sheet.supply, sheet.left, sheet.right = list(board.supply), board.left, list(board.right)
    sheet.attack_discs = sheet.defense = sheet.movement = sheet.bonus = 0
    sheet.attacked = []
    sheet.backstab = backstab
    sheet.phase = GhoulSheet.SELECT
    stab = f"; Backstab −{backstab} movement" if backstab else ""
    if rolled:
        dice = ", ".join(str(d) for d in board.supply)
        return Outcome(
            f"Turn {sheet.turn}: no dice in the supply, rolled {dice} into it{stab}.",
            {"dice": list(board.supply), "backstab": backstab},
            seed,
        )
    return Outcome(
        f"Turn {sheet.turn}: the die on the left slides to the right side of its row{stab}.",
        {"right": list(board.right), "backstab": backstab},
    )


def do_select(sheet: GhoulSheet, *, face: int) -> Outcome:
    try:
        board, stats = rules.select_statistics(vile_board(sheet), face, chart(sheet))
    except ValueError as exc:
        raise services.SheetError(str(exc)) from None
    sheet.supply, sheet.left, sheet.right = list(board.supply), board.left, list(board.right)
    # Backstab "reduces your Movement during your next turn by 1 for each Action cube" (not below 0)
    movement = max(stats.movement - sheet.backstab, 0)
    sheet.movement, sheet.attack_discs, sheet.boost_dice = movement, stats.attack, stats.boost_dice
    sheet.boost_spent = sheet.bonus = 0
    sheet.phase = GhoulSheet.ACT
    boost = f", {stats.boost_dice} Boost {'die' if stats.boost_dice == 1 else 'dice'}" if stats.boost_dice else ""
    stab = f" (Backstab −{sheet.backstab})" if sheet.backstab else ""
    return Outcome(
        f"Selected the {face}: Movement {movement}{stab}, Attack {stats.attack}{boost}.",
        {"face": face, "movement": movement, "attack": stats.attack, "boost": stats.boost_dice},
    )


def do_boost(sheet: GhoulSheet, *, use: str | None, source: str | None, points: int) -> Outcome:
    """A temporary Attack bonus (a Boost die or a Hunt card), or a Boost die spent as movement.
    What a Boost die is worth is printed on the board, not in the text: the player types it."""
    _engine(rules.check_boost, use, source)
    if source == "boost":
        _engine(rules.check_boost_die, sheet.boost_dice - sheet.boost_spent)
        sheet.boost_spent += 1
    if use == "movement":
        sheet.movement += points
        summary = f"Spent a Boost die for {points} movement."
    else:
        sheet.bonus += points
        what = "a Boost die" if source == "boost" else "a Hunt card"
        summary = (
            f"+{points} Attack from {what} for this movement and attack (Attack {sheet.attack_discs + sheet.bonus})."
        )
    return Outcome(summary, {"use": use, "source": source, "points": points})


def do_spores(sheet: GhoulSheet) -> Outcome:
    store_state(sheet, rules.lose_fury(engine_state(sheet), 1))
    return Outcome(f"Soporific Spores: −1 Fury (now {sheet.fury}); Terror cards are kept.")


def do_pickpocket(sheet: GhoulSheet) -> Outcome:
    sheet.treasures -= 1
    return Outcome("The Thief's Pickpocket steals a Treasure token.")


def do_health(sheet: GhoulSheet, *, delta: int) -> Outcome:
    """The kill target's Health changed by something else (other players, effects)."""
    if delta == 0:
        raise services.SheetError("Give a change other than 0.")
    sheet.target_health += delta
    who = TARGET_NAMES[sheet.kill_goal]
    return Outcome(f"The {who}'s Health {'+' if delta > 0 else '−'}{abs(delta)} (now {sheet.target_health}).")


def do_killed(sheet: GhoulSheet) -> Outcome:
    _won(sheet)
    who = TARGET_NAMES[sheet.kill_goal]
    return Outcome(f"The {who} is killed: {'the Vile Ghoul' if sheet.is_vile else 'the Ghoul'} wins!")


def do_lost(sheet: GhoulSheet) -> Outcome:
    sheet.result, sheet.phase = GhoulSheet.LOST, GhoulSheet.OVER
    return Outcome("The game ended without the Ghoul's win (the Cave collapsed or another player won).")


def do_draw(sheet: GhoulSheet) -> Outcome:
    """A Terror card drawn by hand (an effect the sheet does not count); none from an empty deck (the engine's
    check)."""
    return Outcome("Drew a Terror card.", cards=["manual"])


def _card(sheet: GhoulSheet, card_id: int) -> TerrorCard:
    card = sheet.terror_cards.in_hand().filter(pk=card_id).first()
    if card is None:
        raise services.SheetError("That Terror card is not in your hand.")
    return card


def _cards_used_this_turn(sheet: GhoulSheet, kind: str) -> set:
    """The cards whose effect (``use``: persistent or once per turn; ``play``: once per game) was
    recorded this turn, from the standing events."""
    events = sheet.events.standing().filter(turn=sheet.turn, kind=kind)
    return {e.data.get("card") for e in events}


def do_use(sheet: GhoulSheet, *, card: int) -> Outcome:
    """A card's persistent or once per turn effect used this turn (recorded so that its once per
    game effect is refused this turn: "You cannot use both of a card's effects on the same turn")."""
    chosen = _card(sheet, card)
    return Outcome(f"Used the persistent or once per turn effect of {chosen}.", {"card": chosen.pk})


def do_play(sheet: GhoulSheet, *, card: int, during: bool = False) -> Outcome:
    """The once per game effect: the card leaves the game now, or at the end of the turn when the
    effect begins "During this turn" (GS14)."""
    chosen = _card(sheet, card)
    _engine(rules.check_once_per_game, str(chosen), chosen.pk in _cards_used_this_turn(sheet, "use"))
    name = chosen.name.strip().casefold()
    if name:
        played = sheet.terror_cards.filter(pk__in=_cards_used_this_turn(sheet, "play")).exclude(pk=chosen.pk)
        _engine(
            rules.check_once_per_game,
            str(chosen),
            False,
            chosen.name,
            any(other.name.strip().casefold() == name for other in played),
        )
    chosen.status = TerrorCard.ACTIVE if during else TerrorCard.PLAYED
    chosen.save(update_fields=["status"])
    if during:
        return Outcome(
            f"Used the once per game effect of {chosen} (\u201cDuring this turn\u201d): it stays in play "
            "until the end of the turn, then leaves the game.",
            {"card": chosen.pk, "during": True},
        )
    return Outcome(f"Used the once per game effect of {chosen}: removed from the game.", {"card": chosen.pk})


# Why a Terror card is discarded (the text's cases) -> (its status afterwards, the log's words).
DISCARDS = {
    "other": (TerrorCard.DISCARDED, ""),
    "scratch": (TerrorCard.DISCARDED, " (the Dragon's Scratch)"),
    "unicorn": (TerrorCard.DISCARDED, " (the Unicorn attacked with 3 Anger)"),
    # "he may choose ... to discard a Terror card, shuffling it back into the Terror deck"
    "pickpocket": (TerrorCard.RETURNED, " (the Thief's Pickpocket), shuffling it back into the Terror deck"),
}
DISCARD_CHOICES = [
    ("other", "Another effect"),
    ("scratch", "The Dragon's Scratch"),
    ("unicorn", "The Unicorn, with 3 Anger"),
    ("pickpocket", "The Thief's Pickpocket: back into the deck"),
]


def do_discard(sheet: GhoulSheet, *, card: int, why: str = "other") -> Outcome:
    """Discard a card from the hand. Pickpocket shuffles it back into the Terror deck; the text
    names no place for the other discards, which stay out of the deck (GS16)."""
    if why not in DISCARDS:
        raise services.SheetError("Choose why the card is discarded.")
    chosen = _card(sheet, card)  # a card in play "During this turn" is not in the hand to discard
    status, words = DISCARDS[why]
    chosen.status = status
    chosen.save(update_fields=["status"])
    return Outcome(f"Discarded {chosen}{words}.", {"card": chosen.pk, "why": why})


ACTIONS = {
    "roll": do_roll,
    "choose": do_choose,
    "move": do_move,
    "spend": do_spend,
    "gain": do_gain,
    "collect": do_collect,
    "attack": do_attack,
    "crystal": do_crystal,
    "end": do_end,
    "prepare": do_prepare,
    "select": do_select,
    "boost": do_boost,
    "spores": do_spores,
    "pickpocket": do_pickpocket,
    "health": do_health,
    "killed": do_killed,
    "lost": do_lost,
    "draw": do_draw,
    "play": do_play,
    "use": do_use,
    "discard": do_discard,
}
