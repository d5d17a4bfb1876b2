"""Soylent Ghoul at the table: the game tracker's state and its transitions.

Pure Python, no Django. The tracker (``soylentgames``) loads its rows into a
``State``, calls one action function here, and writes the changed state back
with the returned ``Log`` as its event. Every roll uses the ``random.Random``
passed in (seeded by the caller, the seed kept in the event) and the panic
test of ``soylent.py``.

Secrecy: a token's ``is_true`` is the owner's secret. The texts written into a
``Log`` name a token's truth only when the rules reveal it (the power of the
gaze, the true token replaced by its Drone, the true token removed), and the
checks that refuse an action never depend on the truth of a token the actor
does not own.

Readings (docs/rules-interpretations.md, "Soylent Ghoul game tracker"):
- The true token represents its Drone: if it Snaps, the Drone Snaps (its set's
  other tokens are removed; Scene Shifters replace it with the Drone).
- Moved panic tokens are not "received": no panic test for them.
- The panic phase ends once every player still in the game has passed since the last panic token
  placed: who passed is kept (``State.passed``), not how many, so a pass by a player who then goes
  out does not count for a player who never passed (SG7).
- A player with no un-Snapped drone left is out: skipped in turns and panic.
- Lighter sets the drone's lantern number (the light level) and gives a light token to
  the acting Character and to each Character the player ticks as within range (SG14).
  Light tokens stay on a Character until it leaves the table (SG15).
- Darker (and each Darker of a Gardener's Snapped effect, one drone after another) rolls
  its D8, then waits while one player ticks the Characters with light tokens that are out
  of the light; each gains 5 panic tokens, one panic test each (SG16, SG17, SG12).
- The player whose panic token pushed a Character 6" forwards may record that it
  went into a fatal area, until the next panic token or pass (SG13).
- Dice and revealed truths are final: ``Log.final`` (SG10).
- The text's words decide who may act and who receives: "Character" is a token or a Drone, "Drone"
  only the Drone itself (SG19); each action's ``by`` and ``panic_to`` come from the catalogue.
- A Snapped Drone still receives panic tokens; a result over its Nerve changes nothing more (SG9).
- Any Drone on the table reveals the tokens it sees, whoever records it (SG8).
- Scene Shifters' markers are tracked: Scene places one, Shift selects them, a Snap removes the Drone's
  and the Snapped Drone counts as a marker every other Scene Shifter's Shift must use (SG20).
- A Character of another player recorded as gone into a fatal area waits for its owner (SG21).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction

from rules.soylent_ghoul import panic as soylent

SCENE_SHIFTERS = "scene-shifters"
GARDENERS = "gardeners"
# Gardeners, Snapped: "All Gardener drones take the Darker action reducing their lantern number by 6."
GARDENER_SNAP_REDUCTION = 6
# Lighter: "This Character sets a light level from 1-7"
LIGHT_LEVELS = tuple(range(1, 8))
# Darker: "All Characters with light tokens that are not within the light level ... gain 5 panic tokens."
DARKNESS_PANIC = 5
# Shift: "Any Character in a section described by those lines gains 5 panic tokens."
SHIFT_SECTION_PANIC = 5
# Actions whose text gives no panic tokens to count at the table (Darker's are given by ticking
# who is out of the light): "give a panic token" is not offered after them
NO_COUNTED_PANIC = frozenset({"scene", "lighter", "darker", "shift"})  # Shift's are given by its form (SG20)
# Panic: "placing 1 panic token on them to either spin them on the spot up to a facing of
# their choice or move them 6” directly forwards"
PANIC_EFFECTS = {"spin": "spins on the spot", "forward": "moves 6\u201d directly forwards"}
TOKENS_PER_DRONE = 5  # "For each drone they should have five tokens ... with one marked as “true”"

PHASES = ("turn", "panic", "action")


class IllegalAction(ValueError):
    """The action is not allowed now; the message is safe to show to the actor."""


@dataclass
class Piece:
    """A Character or a Drone still off the table.

    kind "drone": ``placed`` = its tokens were placed, ``revealed`` = the Drone
    itself stands on the table. kind "token": ``placed`` = on the table,
    ``revealed`` = its truth is public.
    """

    id: int
    seat: int
    kind: str
    drone: int  # the id of the drone piece (a drone's own id)
    code: str  # a token's code, a drone's name
    is_true: bool = False
    panic: int = 0
    placed: bool = False
    revealed: bool = False
    snapped: bool = False
    removed: bool = False
    lantern: int | None = None
    light: int = 0  # light tokens on this Character (Lighter); any number > 0 counts as "with light tokens"

    @property
    def in_play(self) -> bool:
        """A Character on the table (a token placed, a Drone revealed), not removed."""
        if self.removed:
            return False
        return self.placed if self.kind == "token" else self.revealed


@dataclass
class Seat:
    seat: int
    name: str
    group: str
    nerve: int
    actions: tuple[str, ...] = ()
    last_kind: str | None = None
    last_piece: int | None = None
    # per action slug, from the catalogue: who may perform it ("character": a token or the Drone,
    # "drone": only the Drone) and who its panic tokens go to (SG19)
    performers: dict = field(default_factory=dict)
    panic_to: dict = field(default_factory=dict)


@dataclass
class State:
    seats: list[Seat]  # in table order: each followed by the player on their left
    pieces: dict[int, Piece]
    current: int
    turn: int = 1
    phase: str = "turn"
    active: int | None = None
    panic_seat: int | None = None
    # the seats that passed in the panic phase since the last panic token was placed (replaced, never
    # mutated in place: snapshots share the list); ``passes`` is their number, kept for the stored games
    # and snapshots made before ``passed`` existed: read by ``_upgrade_passes`` when ``passed`` is empty
    passes: int = 0
    acted: bool = False
    performed: str | None = None  # the action the active Character performed this turn
    pending: dict | None = None  # {"seat", "from", "panic"}: the owner chooses where panic goes
    finished: bool = False
    winner: int | None = None
    # Darker actions waiting for who is out of the light, the latest last (SG12, SG16, SG17):
    # [{"seat": who ticks, "drone": the Snapped Gardener (None for the action step's Darker),
    #   "darker": the drone whose Darker it is, "queue": Gardener drones still to take Darker,
    #   "out": None until ticked, then the Characters still to gain their 5 panic tokens}]
    # (replaced, never mutated in place: snapshots share the list)
    snap_effects: list = field(default_factory=list)
    pushed: dict | None = None  # {"seat", "piece"}: the last panic token moved this Character 6" forwards
    # Scene Shifters' markers on the table: [{"id", "drone"}] (replaced, never mutated in place) (SG20)
    markers: list = field(default_factory=list)
    # {"seat": who says so, "piece"}: another player's Character recorded as gone into a fatal area,
    # waiting for its owner to confirm or dispute (SG21)
    fatal_claim: dict | None = None
    passed: list = field(default_factory=list)

    def __post_init__(self) -> None:
        _upgrade_passes(self)


def _upgrade_passes(state: State) -> None:
    """A state stored before ``passed`` has only the number of passes: those were the players still in
    who passed in a row just before the one placing now (each pass hands the go to the next player
    still in), so take that many of them, going back round the table from ``panic_seat``."""
    if state.passed or not state.passes:
        return
    if state.phase != "panic" or state.panic_seat is None or state.panic_seat not in {s.seat for s in state.seats}:
        state.passes = 0
        return
    order = [s.seat for s in state.seats]
    alive = set(standing(state))
    start = order.index(state.panic_seat)
    back = [order[(start - step) % len(order)] for step in range(1, len(order))]
    state.passed = list(reversed([s for s in back if s in alive][: state.passes]))
    state.passes = len(state.passed)


def _set_passed(state: State, seats: list[int]) -> None:
    state.passed = list(seats)
    state.passes = len(state.passed)


def _all_passed(state: State) -> bool:
    """ "Continue until no player wants to place panic tokens": every player still in the game has
    passed since the last panic token (a player who went out meanwhile no longer counts, SG7)."""
    return set(standing(state)) <= set(state.passed)


@dataclass
class Log:
    """What an action did, for the game log: lines of text and the dice rolled."""

    lines: list[str] = field(default_factory=list)
    rolls: list[dict] = field(default_factory=list)
    reveals_truth: bool = False  # a token's truth became public (cannot be undone)

    @property
    def final(self) -> bool:
        """The event cannot be undone: it made a truth public or its outcome came from a die
        (a roll is final: undoing it would let a player roll again, SG10)."""
        return self.reveals_truth or bool(self.rolls)

    def say(self, text: str) -> None:
        self.lines.append(text)

    def as_payload(self) -> dict:
        return {"lines": list(self.lines), "rolls": list(self.rolls)}


# ---------------------------------------------------------------------------
# Reading the state
# ---------------------------------------------------------------------------


def seat_of(state: State, seat: int) -> Seat:
    for s in state.seats:
        if s.seat == seat:
            return s
    raise IllegalAction("That player is not in this game.")


def piece_of(state: State, piece_id) -> Piece:
    if not str(piece_id).strip().isascii():  # a form's id is ASCII digits; int() would read "１" as 1
        raise IllegalAction("There is no such character in this game.")
    try:
        return state.pieces[int(piece_id)]
    except (KeyError, TypeError, ValueError):
        raise IllegalAction("There is no such character in this game.") from None


def drones(state: State, seat: int | None = None) -> list[Piece]:
    return [p for p in state.pieces.values() if p.kind == "drone" and (seat is None or p.seat == seat)]


def tokens_of(state: State, drone_id: int) -> list[Piece]:
    return sorted((p for p in state.pieces.values() if p.kind == "token" and p.drone == drone_id), key=lambda p: p.code)


def label(state: State, piece: Piece) -> str:
    owner = seat_of(state, piece.seat).name
    if piece.kind == "drone":
        return f"{owner}'s drone {piece.code}"
    return f"token {piece.code} ({owner}'s {state.pieces[piece.drone].code})"


def standing(state: State) -> list[int]:
    """Seats (in table order) with at least one un-Snapped drone still in the game."""
    alive = {d.seat for d in drones(state) if not d.snapped and not d.removed}
    return [s.seat for s in state.seats if s.seat in alive]


def next_standing(state: State, seat: int) -> int | None:
    order = [s.seat for s in state.seats]
    alive = set(standing(state))
    i = order.index(seat)
    for step in range(1, len(order) + 1):
        candidate = order[(i + step) % len(order)]
        if candidate in alive:
            return candidate
    return None


def characters(state: State) -> list[Piece]:
    """Every Character on the table, in a stable order (seat, drone, kind, code)."""
    order = {s.seat: i for i, s in enumerate(state.seats)}
    return sorted(
        (p for p in state.pieces.values() if p.in_play),
        key=lambda p: (order[p.seat], p.drone, p.kind != "drone", p.code),
    )


def can_receive_panic(piece: Piece) -> bool:
    """Any Character on the table: "players take turns selecting a single Character and placing 1 panic
    token on them"; a Snapped Drone is still a Character on the table (SG9)."""
    return piece.in_play


def snap_chance(state: State, piece: Piece) -> Fraction:
    """Chance that one more panic token snaps this Character."""
    return soylent.panic_distribution(seat_of(state, piece.seat).nerve, piece.panic)["snapped"]


def placeable(state: State, seat: int) -> list[Piece]:
    return [d for d in drones(state, seat) if not d.placed and not d.removed and not d.snapped]


def activatable(state: State, seat: int) -> list[Piece]:
    """ "The player selects one of their Characters": a Snapped Drone "may no longer move"."""
    return [p for p in characters(state) if p.seat == seat and not p.snapped]


def activation_gives_panic(state: State, seat: int, piece_id: int) -> bool:
    s = seat_of(state, seat)
    last = soylent.LastTurn(s.last_kind, str(s.last_piece)) if s.last_kind else None
    return soylent.activation_panic_tokens(last, str(piece_id)) > 0


def seers(state: State, seat: int) -> list[Piece]:
    """Drones whose sight reveals tokens by the power of the gaze: "If a Drone has clear line of sight
    to a token reveal it" names no owner and no state, so every Drone on the table, whoever records
    it (SG8)."""
    return [d for d in drones(state) if d.in_play]


def gaze_targets(state: State) -> list[Piece]:
    return [p for p in characters(state) if p.kind == "token"]


def move_candidates(state: State) -> list[Piece]:
    """Tokens the pending panic may be moved to: the same Drone's other tokens in play."""
    if not state.pending:
        return []
    source = state.pieces[state.pending["from"]]
    return [t for t in tokens_of(state, source.drone) if t.in_play and t.id != source.id]


def snap_effect(state: State) -> dict | None:
    """The Darker action waiting now (the latest; from the action step or a Gardener's Snap), or None."""
    return state.snap_effects[-1] if state.snap_effects and not state.finished else None


def dark_candidates(state: State) -> list[Piece]:
    """Characters that may be ticked as out of the light: on the table, with a light token
    (a Snapped Drone too: it still receives panic tokens, SG9)."""
    return [p for p in characters(state) if p.light > 0 and can_receive_panic(p)]


def lanterns(state: State) -> list[Piece]:
    """Every Gardener drone still in the game, in table order (for the lights shown to the table)."""
    order = {s.seat: i for i, s in enumerate(state.seats)}
    return sorted(
        (d for d in drones(state) if seat_of(state, d.seat).group == GARDENERS and not d.removed),
        key=lambda d: (order[d.seat], d.id),
    )


def waiting_for(state: State) -> int | None:
    """The seat everyone waits for (a fatal area to confirm, a panic choice, then a Snapped effect), or None."""
    if state.finished:
        return None
    if state.fatal_claim:
        return state.pieces[state.fatal_claim["piece"]].seat
    if state.pending:
        return state.pending["seat"]
    effect = snap_effect(state)
    return effect["seat"] if effect else None


def pushed_by(state: State, seat: int, piece_id) -> bool:
    """Whether ``seat``'s last panic token moved this Character 6" forwards (SG13)."""
    pushed = state.pushed
    return pushed is not None and pushed["seat"] == seat and str(pushed["piece"]) == str(piece_id)


def acting_seat(state: State) -> int | None:
    """Who acts now for turn steps: the panic phase's player, else the player whose turn it is."""
    if state.finished or waiting_for(state) is not None:
        return None
    return state.panic_seat if state.phase == "panic" else state.current


# ---------------------------------------------------------------------------
# Snapshots (undo): every mutable field, never a token's truth
# ---------------------------------------------------------------------------

GAME_FIELDS = (
    "current",
    "turn",
    "phase",
    "active",
    "panic_seat",
    "passes",
    "acted",
    "pending",
    "finished",
    "winner",
    "snap_effects",
    "pushed",
    "performed",
    "markers",
    "fatal_claim",
    "passed",
)
# fields added later: a snapshot made before them restores them to these
GAME_DEFAULTS: dict[str, object] = {
    "passed": [],
    "snap_effects": [],
    "pushed": None,
    "performed": None,
    "markers": [],
    "fatal_claim": None,
}
PIECE_FIELDS = ("panic", "placed", "revealed", "snapped", "removed", "lantern", "light")
PIECE_DEFAULTS = {"light": 0}
SEAT_FIELDS = ("last_kind", "last_piece")


def snapshot(state: State) -> dict:
    return {
        "game": {f: getattr(state, f) for f in GAME_FIELDS},
        "seats": {str(s.seat): {f: getattr(s, f) for f in SEAT_FIELDS} for s in state.seats},
        "pieces": {str(p.id): {f: getattr(p, f) for f in PIECE_FIELDS} for p in state.pieces.values()},
    }


def restore(state: State, snap: dict) -> None:
    for f in GAME_FIELDS:
        setattr(state, f, snap["game"].get(f, GAME_DEFAULTS.get(f)))
    for s in state.seats:
        for f in SEAT_FIELDS:
            setattr(s, f, snap["seats"][str(s.seat)][f])
    for p in state.pieces.values():
        for f in PIECE_FIELDS:
            setattr(p, f, snap["pieces"][str(p.id)].get(f, PIECE_DEFAULTS.get(f)))
    state.passed = list(state.passed or [])
    _upgrade_passes(state)  # a snapshot made before ``passed``: its number of passes


# ---------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------


def _require_playing(state: State) -> None:
    if state.finished:
        raise IllegalAction("The game is over.")


def _require_no_pending(state: State) -> None:
    if state.fatal_claim:
        owner = seat_of(state, state.pieces[state.fatal_claim["piece"]].seat).name
        raise IllegalAction(f"Waiting for {owner} to confirm or dispute the fatal area.")
    if state.pending:
        owner = seat_of(state, state.pending["seat"]).name
        raise IllegalAction(f"Waiting for {owner} to choose where the panic tokens go.")
    effect = snap_effect(state)
    if effect:
        owner = seat_of(state, effect["seat"]).name
        raise IllegalAction(f"Waiting for {owner} to mark who is out of the light (Darker).")


def _require_step(state: State, seat: int, phase: str) -> None:
    _require_playing(state)
    _require_no_pending(state)
    if state.phase != phase:
        raise IllegalAction(
            {
                "turn": "This turn has already begun.",
                "panic": "It is not the panic phase.",
                "action": "It is not the time for an action.",
            }[phase]
        )
    who = state.panic_seat if phase == "panic" else state.current
    if who is None:
        raise IllegalAction("It is not your go.")
    if who != seat:
        raise IllegalAction(f"It is {seat_of(state, who).name}'s go, not yours.")


# ---------------------------------------------------------------------------
# Panic, Snapping, removing and revealing
# ---------------------------------------------------------------------------


def _receive(state: State, piece: Piece, count: int, rng: random.Random, log: Log) -> None:
    """``count`` panic tokens, one panic test each; stops at the first Snap."""
    nerve = seat_of(state, piece.seat).nerve
    for _ in range(count):
        if not can_receive_panic(piece):
            break
        already_snapped = piece.snapped
        chance = soylent.panic_distribution(nerve, piece.panic)["snapped"]
        roll = soylent.roll_panic(rng, nerve, piece.panic)
        piece.panic += 1
        log.rolls.append(
            {
                "character": label(state, piece),
                "die": roll.die,
                "tokens_before": roll.tokens_before,
                "total": roll.total,
                "nerve": nerve,
                "snapped": roll.snapped and not already_snapped,
                "chance": f"{chance.numerator}/{chance.denominator}" if chance not in (0, 1) else str(chance),
                "percent": f"{100 * float(chance):.1f}",
            }
        )
        log.say(
            f"Panic test for {label(state, piece)}: D8 {roll.die} + {roll.tokens_before} "
            f"= {roll.total} against Nerve {nerve}: "
            + ("over its Nerve." if roll.snapped and already_snapped else "Snapped!" if roll.snapped else "holds.")
        )
        if roll.snapped:
            if already_snapped:
                # "Snapped" is a state a Drone enters once: its effect has taken place (SG9)
                log.say(f"{label(state, piece)} is already Snapped: nothing more happens.")
            else:
                _snap(state, piece, rng, log)
            break


def _snap(state: State, piece: Piece, rng: random.Random, log: Log) -> None:
    if piece.kind == "token" and not piece.is_true:
        piece.snapped = True
        piece.removed = True
        log.say(f"{label(state, piece)} Snaps and is removed.")
        _move_panic_away(state, piece, log)
        return
    drone = state.pieces[piece.drone]
    if piece.kind == "token":  # the true token: its Drone Snaps
        piece.snapped = True
        group = seat_of(state, piece.seat).group
        if group == SCENE_SHIFTERS:
            log.say(
                f"{label(state, piece)} was the true token: the Scene Shifter {drone.code} Snaps "
                "and its true token is replaced with the Drone."
            )
            _replace_with_drone(state, piece, log)
        else:
            # "Tokens that Snap are removed immediately": the Drone is not put where the token was; only
            # the Scene Shifters' Snapped effect says "replace it with the Drone" (SG2)
            log.say(
                f"{label(state, piece)} was the true token: {label(state, drone)} Snaps; the token and the "
                "set's other tokens are removed, and the Drone is not placed on the table (only a Scene "
                "Shifter's Snapped effect replaces its true token with the Drone)."
            )
            piece.removed = True
            piece.revealed = True
            _remove_set(state, piece)
        log.reveals_truth = True
    drone.snapped = True
    log.say(
        f"{label(state, drone)} is Snapped: it may no longer move or take actions "
        f"({seat_of(state, drone.seat).group} Snapped effect)."
    )
    if seat_of(state, drone.seat).group == SCENE_SHIFTERS:
        _snap_scene_shifter(state, drone, log)
    _check_winner(state, log)
    if seat_of(state, drone.seat).group == GARDENERS and not state.finished:
        # "All Gardener drones take the Darker action reducing their lantern number by 6": one after
        # another (the Snapped drone first, then table order), each with its D8 and then its darkness,
        # ticked by the Snapped drone's owner whatever the phase (SG12, SG17)
        others = [d.id for d in _table_order_from(state, drone.seat, lanterns(state)) if d.id != drone.id]
        log.say(
            f"Snapped: all Gardener drones take the Darker action reducing their lantern number by "
            f"{GARDENER_SNAP_REDUCTION}."
        )
        _next_darker(state, drone.seat, drone.id, [drone.id, *others], rng, log)


def _snap_scene_shifter(state: State, drone: Piece, log: Log) -> None:
    """Scene Shifters, Snapped: "Remove the Drone’s markers" (the true token is replaced by the Drone
    in ``_snap``; from now on the Drone "counts as a marker for all other Scene Shifters that must be
    used during any Shift actions": ``shift_required``)."""
    mine = [m for m in state.markers if m["drone"] == drone.id]
    if mine:
        state.markers = [m for m in state.markers if m["drone"] != drone.id]
        log.say(f"The markers of {label(state, drone)} are removed ({len(mine)}).")
    log.say(f"{label(state, drone)} counts as a marker that every other Scene Shifter's Shift must use.")


def _remove_set(state: State, true_token: Piece) -> None:
    """ "If the true token of a set is removed or revealed, remove all other tokens of the set."
    The set's truth is public now, so its tokens are revealed."""
    for t in tokens_of(state, true_token.drone):
        if t.id != true_token.id:
            t.revealed = True
            t.removed = True
            t.panic = 0


def _replace_with_drone(state: State, token: Piece, log: Log) -> None:
    """The true token leaves the table and its Drone stands in its place, with its panic."""
    drone = state.pieces[token.drone]
    drone.revealed = True
    drone.panic = token.panic
    token.panic = 0
    drone.light += token.light  # the same Character (SG4), in the same place: it keeps its light tokens (SG15)
    token.light = 0
    token.removed = True
    token.revealed = True
    _remove_set(state, token)
    if state.active == token.id:
        state.active = drone.id
    for s in state.seats:
        if s.last_piece == token.id:
            s.last_piece = drone.id
    log.reveals_truth = True


def _move_panic_away(state: State, token: Piece, log: Log) -> None:
    """ "If a token is removed for any reason, all panic tokens on it are moved to another
    token attached to the same Drone of the controlling player's choice." """
    if token.panic == 0:
        return
    candidates = [t for t in tokens_of(state, token.drone) if t.in_play and t.id != token.id]
    if not candidates:
        log.say(
            f"No other token of {state.pieces[token.drone].code} is on the table: "
            f"its {token.panic} panic token(s) leave the game."
        )
        token.panic = 0
    elif len(candidates) == 1:
        _move_panic(state, token, candidates[0], log)
    else:
        state.pending = {"seat": token.seat, "from": token.id, "panic": token.panic}
        log.say(
            f"{seat_of(state, token.seat).name} chooses which token of {state.pieces[token.drone].code} "
            f"takes its {token.panic} panic token(s)."
        )


def _move_panic(state: State, source: Piece, target: Piece, log: Log) -> None:
    log.say(f"{source.panic} panic token(s) move from {source.code} to {label(state, target)} (no panic test).")
    target.panic += source.panic
    source.panic = 0
    state.pending = None


def _darker(state: State, drone: Piece, reduction: int, rng: random.Random, log: Log) -> None:
    if drone.lantern is None:
        log.say(f"{label(state, drone)} has no lantern number to reduce.")
        return
    chance = soylent.darker_lantern_lost_chance(reduction)
    die, lost = soylent.darker_lantern_lost(rng, reduction)
    before = drone.lantern
    drone.lantern = None if lost or before - reduction <= 0 else before - reduction
    log.rolls.append(
        {
            "character": label(state, drone),
            "die": die,
            "reduction": reduction,
            "lost": lost,
            "chance": str(chance),
            "percent": f"{100 * float(chance):.1f}",
        }
    )
    outcome = "the lantern number is removed" if drone.lantern is None else f"the lantern is now {drone.lantern}"
    log.say(
        f"Darker for {label(state, drone)}: lantern {before} reduced by {reduction}, "
        f"D8 {die} ({'equal to or under' if lost else 'over'} {reduction}): {outcome}."
    )


def _table_order_from(state: State, seat: int, pieces: list[Piece]) -> list[Piece]:
    order = [s.seat for s in state.seats]
    start = order.index(seat)
    rank = {s: (i - start) % len(order) for i, s in enumerate(order)}
    return sorted(pieces, key=lambda p: (rank[p.seat], p.id))


def _next_darker(state: State, seat: int, snapped: int | None, queue: list, rng: random.Random, log: Log) -> None:
    """The next Gardener drone of a Snapped effect with a lantern number takes Darker (its D8 now);
    then the game waits for ``seat`` to tick who is out of the light. Drones without a lantern
    number have nothing to reduce and take no Darker."""
    queue = list(queue)
    while queue:
        gardener = state.pieces.get(queue.pop(0))
        if gardener is None or gardener.removed:
            continue
        if gardener.lantern is None:
            log.say(f"{label(state, gardener)} has no lantern number to reduce: it takes no Darker action.")
            continue
        _darker(state, gardener, GARDENER_SNAP_REDUCTION, rng, log)
        state.snap_effects = [
            *state.snap_effects,
            {"seat": seat, "drone": snapped, "darker": gardener.id, "queue": queue, "out": None},
        ]
        return
    if snapped is not None:
        log.say(f"The Snapped effect of {label(state, state.pieces[snapped])} is over.")


def _run_darkness(state: State, rng: random.Random, log: Log) -> None:
    """Give the ticked Characters their 5 panic tokens, one Character after another; stop while a
    choice is awaited (moved panic, SG3) or a new Snap's Darker waits to be ticked; then go on with
    the next Gardener drone of a Snapped effect."""
    while not state.finished and not state.pending and state.snap_effects:
        effects = state.snap_effects
        top = effects[-1]
        out = top.get("out")
        if out is None:
            if dark_candidates(state):
                return  # waiting for the player to tick who is out of the light
            log.say(
                "No Character on the table that can gain panic tokens has a light token: "
                "nobody gains panic tokens from the darkness."
            )
            state.snap_effects = [*effects[:-1], {**top, "out": []}]
        elif out:
            state.snap_effects = [*effects[:-1], {**top, "out": list(out[1:])}]
            piece = state.pieces.get(out[0])
            if piece is not None and can_receive_panic(piece):
                count = top.get("panic", DARKNESS_PANIC)
                why = top.get("why", "is out of the light")
                log.say(f"{label(state, piece)} {why}: it gains {count} panic tokens.")
                _receive(state, piece, count, rng, log)
        else:
            state.snap_effects = effects[:-1]
            if top.get("drone") is not None:
                _next_darker(state, top["seat"], top["drone"], top.get("queue") or [], rng, log)


def _check_winner(state: State, log: Log) -> None:
    if state.finished:
        return
    result = soylent.winner([soylent.Drone(d.code, str(d.seat), d.snapped or d.removed) for d in drones(state)])
    if result is not None:
        state.finished = True
        state.winner = int(result)
        log.say(f"{seat_of(state, state.winner).name} has the last un-Snapped drone and wins!")
    elif not standing(state):
        state.finished = True
        state.winner = None
        log.say("No player has an un-Snapped drone left: nobody wins.")


def _settle(state: State, log: Log) -> None:
    """After any change: the winner, and skip players who are out of the game."""
    _check_winner(state, log)
    if state.finished:
        state.phase = "turn"
        state.active = None
        state.panic_seat = None
        state.snap_effects = []
        state.pushed = None
        return
    alive = standing(state)
    if state.phase == "panic" and state.panic_seat is not None:
        # "Once a move is made ... players take turns ... Continue until no player wants to place panic
        # tokens": the phase goes on for the move made even when the mover's player is out (SG7)
        if state.panic_seat not in alive:
            state.panic_seat = next_standing(state, state.panic_seat)
        if _all_passed(state):
            _panic_over(state, log)
    elif state.current not in alive:
        _end_turn(state, log)


def _end_turn(state: State, log: Log) -> None:
    if state.finished:
        return
    state.phase = "turn"
    state.active = None
    state.panic_seat = None
    _set_passed(state, [])
    state.acted = False
    state.performed = None
    state.pushed = None
    following = next_standing(state, state.current)
    assert following is not None, "a game with nobody standing is finished"
    state.current = following
    state.turn += 1
    log.say(f"Turn {state.turn}: {seat_of(state, state.current).name} to play.")


def _panic_over(state: State, log: Log) -> None:
    log.say("Nobody wants to place more panic tokens.")
    active = state.pieces.get(state.active) if state.active is not None else None
    state.panic_seat = None
    _set_passed(state, [])
    state.pushed = None
    # "If the Character has any actions it may perform exactly one of them now, then the next player takes
    # their turn": a token of a group whose actions are all a Drone's (Check, Become) has none (SG19, SG23)
    if active is not None and active.in_play and not active.snapped:
        if has_actions(state, active):
            state.phase = "action"
            log.say(f"{label(state, active)} may perform one action.")
            return
        if seat_of(state, active.seat).actions:
            log.say(f"{label(state, active)} has no action a token may perform: the next player takes their turn.")
    _end_turn(state, log)


# ---------------------------------------------------------------------------
# Actions (each checks, changes ``state`` and writes ``log``; IllegalAction changes nothing)
# ---------------------------------------------------------------------------


def place(state: State, seat: int, drone_id, log: Log) -> None:
    """ "If a Drone has not been placed yet this game take its five tokens and stack them"."""
    _require_step(state, seat, "turn")
    drone = piece_of(state, drone_id)
    if drone.kind != "drone" or drone.seat != seat:
        raise IllegalAction("Place one of your own drones.")
    if drone.placed:
        raise IllegalAction(f"{drone.code} has already been placed this game.")
    drone.placed = True
    for t in tokens_of(state, drone.id):
        t.placed = True
    s = seat_of(state, seat)
    s.last_kind, s.last_piece = "place", drone.id
    log.say(f"{s.name} places {drone.code}: its {len(tokens_of(state, drone.id))} tokens are stacked on the table.")
    _end_turn(state, log)


def activate(state: State, seat: int, piece_id, rng: random.Random, log: Log) -> None:
    """Activate one of your Characters: it moves, then the panic phase begins."""
    _require_step(state, seat, "turn")
    piece = piece_of(state, piece_id)
    if piece.seat != seat or not piece.in_play:
        raise IllegalAction("Activate one of your own characters on the table.")
    if piece.snapped:
        raise IllegalAction("A Snapped drone may no longer move or take actions.")
    s = seat_of(state, seat)
    twice = activation_gives_panic(state, seat, piece.id)
    s.last_kind, s.last_piece = "activate", piece.id
    state.active = piece.id
    log.say(f"{s.name} activates {label(state, piece)}.")
    if twice:
        log.say("Activated twice in a row: it gains a panic token.")
        _receive(state, piece, 1, rng, log)
        _run_darkness(state, rng, log)
    _settle(state, log)
    if state.finished or state.current != seat:
        return
    if not piece.in_play or piece.snapped:
        log.say(f"{label(state, piece)} does not move.")
        _end_turn(state, log)
        return
    state.phase = "panic"
    state.panic_seat = seat
    _set_passed(state, [])
    log.say(f"{label(state, piece)} moves. Panic: {s.name} places first.")


def place_panic(state: State, seat: int, piece_id, effect: str, rng: random.Random, log: Log) -> None:
    _require_step(state, seat, "panic")
    if effect not in PANIC_EFFECTS:
        raise IllegalAction("Choose what the panic token does: spin, or 6\u201d forwards.")
    piece = piece_of(state, piece_id)
    if not piece.in_play:
        raise IllegalAction("That character is not on the table.")
    log.say(f"{seat_of(state, seat).name} places a panic token on {label(state, piece)}: it {PANIC_EFFECTS[effect]}.")
    state.pushed = {"seat": seat, "piece": piece.id} if effect == "forward" else None
    _receive(state, piece, 1, rng, log)
    _run_darkness(state, rng, log)
    _set_passed(state, [])
    if not state.finished:
        state.panic_seat = next_standing(state, seat)
    _settle(state, log)


def pass_panic(state: State, seat: int, log: Log) -> None:
    _require_step(state, seat, "panic")
    _set_passed(state, [*(s for s in state.passed if s != seat), seat])
    state.pushed = None
    log.say(f"{seat_of(state, seat).name} places no panic token.")
    if _all_passed(state):
        _panic_over(state, log)
    else:
        state.panic_seat = next_standing(state, seat)


# ---------------------------------------------------------------------------
# Scene Shifters' markers (SG20)
# ---------------------------------------------------------------------------


def markers_of(state: State, drone_id: int) -> list[dict]:
    return [m for m in state.markers if m["drone"] == drone_id]


def marker_label(state: State, marker: dict) -> str:
    return f"marker {marker['id']} of {label(state, state.pieces[marker['drone']])}"


def shift_required(state: State, actor_drone: int) -> list[Piece]:
    """Snapped Scene Shifter Drones on the table other than the actor: each "counts as a marker for all
    other Scene Shifters that must be used during any Shift actions"."""
    return [
        d
        for d in drones(state)
        if d.in_play and d.snapped and d.id != actor_drone and seat_of(state, d.seat).group == SCENE_SHIFTERS
    ]


def shift_counts(state: State, actor_drone: int, selected: list[int]) -> dict:
    """The panic tokens a Shift gives that the tracked markers decide (the section is the table's):
    "Characters gain 2 panic tokens for every marker belonging to its Drone not selected" and "The Drone
    that takes this action suffers 2 panic for every marker used in the action that does not belong to it"
    (a Snapped Scene Shifter used as a marker belongs to another Drone)."""
    chosen = set(selected)
    foreign = sum(1 for m in state.markers if m["id"] in chosen and m["drone"] != actor_drone)
    foreign += len(shift_required(state, actor_drone))
    unselected: dict[int, int] = {}
    for m in state.markers:
        if m["id"] not in chosen:
            unselected[m["drone"]] = unselected.get(m["drone"], 0) + 1
    return {
        "self": soylent.shift_self_panic(foreign),
        "unselected": {d: soylent.shift_panic(False, n) for d, n in unselected.items()},
    }


def _ids(values) -> list[int]:
    if values is None:
        return []
    if isinstance(values, (str, int)):
        values = [values]
    try:
        return [int(v) for v in values if str(v).strip() != ""]
    except (TypeError, ValueError):
        raise IllegalAction("There is no such character in this game.") from None


def can_perform(state: State, seat: int, action: str, piece: Piece) -> bool:
    """ "In the following rules, “Character” designates rules that are true for both Tokens and Drones":
    an action whose text gives it to "a Drone" ("A Drone may", "If this Drone") is not a token's (SG19)."""
    by = seat_of(state, seat).performers.get(action)
    return by == "character" or (by == "drone" and piece.kind == "drone")


def has_actions(state: State, piece: Piece) -> bool:
    """Whether this Character has any action it may perform (its group's, by the text's words: SG19)."""
    return any(can_perform(state, piece.seat, a, piece) for a in seat_of(state, piece.seat).actions)


def perform(
    state: State,
    seat: int,
    action: str,
    rng: random.Random,
    log: Log,
    *,
    level=None,
    reduction=None,
    lit=None,
    markers=None,
    section=None,
) -> None:
    """ "If the Character has any actions it may perform exactly one of them now"."""
    _require_step(state, seat, "action")
    s = seat_of(state, seat)
    if state.acted:
        raise IllegalAction("This character has already performed its action this turn.")
    if action not in s.actions:
        raise IllegalAction("That is not one of this group's actions.")
    if state.active is None:
        raise IllegalAction("Activate a character first.")
    piece = state.pieces[state.active]
    drone = state.pieces[piece.drone]
    if not can_perform(state, seat, action, piece):
        if s.performers.get(action) == "drone":
            raise IllegalAction(f"Only a Drone may {action.replace('-', ' ').title()}: a token cannot.")
        raise IllegalAction("That action's text does not say who may perform it.")
    if action == "scene":
        # "A Character may place a marker identifiable as belonging to its Drone."
        marker = {"id": max((m["id"] for m in state.markers), default=0) + 1, "drone": drone.id}
        state.markers = [*state.markers, marker]
        log.say(f"{label(state, piece)} performs Scene: it places {marker_label(state, marker)}.")
    elif action == "shift":
        known = {m["id"] for m in state.markers}
        chosen = set(_ids(markers))
        if not chosen <= known:
            raise IllegalAction("Select markers that are on the table.")
        inside = set(_ids(section))
        if not inside <= {p.id for p in characters(state)}:
            raise IllegalAction("Only Characters on the table can be in a section.")
        required = shift_required(state, drone.id)
        counts = shift_counts(state, drone.id, sorted(chosen))
        used = [marker_label(state, m) for m in state.markers if m["id"] in chosen]
        used += [f"{label(state, d)} (Snapped: must be used)" for d in required]
        log.say(f"{label(state, piece)} performs Shift with {', '.join(used) if used else 'no marker'}.")
        # the panic tokens, in the text's order, each Character's one panic test at a time (S2): those in
        # a section (ticked: the table's geometry), those whose Drone's markers were not selected, the actor
        grants = [
            (
                [p.id for p in characters(state) if p.id in inside],
                SHIFT_SECTION_PANIC,
                "is in a section described by the lines",
            )
        ]
        for d, n in counts["unselected"].items():
            grants.append(
                (
                    [p.id for p in characters(state) if p.drone == d],
                    n,
                    f"has {n // 2} marker(s) of its Drone not selected",
                )
            )
        grants.append(([piece.id], counts["self"], f"used {counts['self'] // 2} marker(s) not its own"))
        grants = [(ids, n, why) for ids, n, why in grants if ids and n > 0]
        if not grants:
            log.say("Shift gives no panic tokens.")
        # a stack: the first to give goes on top (replaced, never mutated in place)
        state.snap_effects = [
            *state.snap_effects,
            *(
                {"seat": seat, "drone": None, "darker": None, "queue": [], "out": ids, "panic": n, "why": why}
                for ids, n, why in reversed(grants)
            ),
        ]
    elif action == "lighter":
        try:
            level = int(level)
        except (TypeError, ValueError):
            level = None
        if level not in LIGHT_LEVELS:
            raise IllegalAction("Lighter sets a light level from 1 to 7.")
        on_table = {p.id for p in characters(state)}
        chosen = set(_ids(lit))
        if not chosen <= on_table:
            raise IllegalAction("Only Characters on the table can gain a light token.")
        # "all Characters within the number in inches from this drone (including this drone) gains a
        # light token": the acting Character always, the others the player ticks (SG14)
        chosen.add(piece.id)
        drone.lantern = level
        gained = [p for p in characters(state) if p.id in chosen]
        for p in gained:
            p.light += 1
        log.say(
            f"{label(state, piece)} performs Lighter: light level (lantern number) {level}. "
            f"A light token each for: {', '.join(label(state, p) for p in gained)}."
        )
    elif action == "darker":
        try:
            reduction = int(reduction)
        except (TypeError, ValueError):
            reduction = None
        if drone.lantern is None:
            raise IllegalAction(f"{drone.code} has no lantern number to reduce.")
        if reduction is None or not 1 <= reduction <= drone.lantern:
            raise IllegalAction(f"Reduce the lantern number by 1 to {drone.lantern}.")
        log.say(f"{label(state, piece)} performs Darker.")
        _darker(state, drone, reduction, rng, log)
        # then "All Characters with light tokens that are not within the light level ... gain 5 panic
        # tokens": the player ticks them, knowing the new light (SG16)
        state.snap_effects = [
            *state.snap_effects,
            {"seat": seat, "drone": None, "darker": drone.id, "queue": [], "out": None},
        ]
    else:
        log.say(f"{label(state, piece)} performs {action.replace('-', ' ').title()}.")
    state.acted = True
    state.performed = action
    _run_darkness(state, rng, log)
    _settle(state, log)


def can_be_given(state: State, piece: Piece) -> bool:
    """Check: "The target Drones gain 1 panic token ..." and "This Drone suffers ...": its panic tokens go
    to Drones only; Shift's and Become's go to Characters (SG19)."""
    to = seat_of(state, state.current).panic_to.get(state.performed or "")
    return to == "character" or (to == "drone" and piece.kind == "drone")


def give_panic(state: State, seat: int, piece_id, rng: random.Random, log: Log) -> None:
    """A panic token that the action's text gives (its geometry is checked at the table)."""
    _require_step(state, seat, "action")
    if not state.acted:
        raise IllegalAction("Perform the action first; then give the panic tokens it causes.")
    if state.performed == "darker":
        raise IllegalAction("Darker's panic tokens go to the Characters marked out of the light.")
    if state.performed == "shift":
        raise IllegalAction("Shift's panic tokens were given with it.")
    if state.performed in NO_COUNTED_PANIC or not seat_of(state, seat).panic_to.get(state.performed):
        raise IllegalAction(f"{(state.performed or 'That action').title()} gives no panic tokens.")
    piece = piece_of(state, piece_id)
    if not can_receive_panic(piece):
        raise IllegalAction("That character cannot receive panic tokens.")
    if not can_be_given(state, piece):
        raise IllegalAction(
            f"{(state.performed or 'That action').title()} gives panic tokens to Drones only, not to tokens."
        )
    log.say(f"The action gives {label(state, piece)} a panic token.")
    _receive(state, piece, 1, rng, log)
    _run_darkness(state, rng, log)
    _settle(state, log)


def darken(state: State, seat: int, piece_ids, rng: random.Random, log: Log) -> None:
    """Darker, its second sentence: "All Characters with light tokens that are not within the light level
    in inches of a gardener or able to trace clear line of sight to a Gardener Drone other than themselves
    gain 5 panic tokens." The player ticks them (the table judges light and sight); each gains 5 panic
    tokens, one panic test each (S2)."""
    _require_playing(state)
    if state.pending:
        _require_no_pending(state)
    effect = snap_effect(state)
    if effect is None or effect.get("out") is not None:
        raise IllegalAction("No Darker action is waiting for who is out of the light.")
    if effect["seat"] != seat:
        raise IllegalAction(f"{seat_of(state, effect['seat']).name} marks who is out of the light, not you.")
    candidates = {p.id for p in dark_candidates(state)}
    chosen = set(_ids(piece_ids))
    if not chosen <= candidates:
        raise IllegalAction("Only Characters on the table with a light token can be out of the light.")
    out = [p for p in characters(state) if p.id in chosen]
    whose = label(state, state.pieces[effect["darker"]]) if effect.get("darker") in state.pieces else "the Gardeners"
    log.say(
        f"{seat_of(state, seat).name} marks who is out of the light after the Darker of {whose}: "
        + (", ".join(label(state, p) for p in out) if out else "nobody")
        + "."
    )
    state.snap_effects = [*state.snap_effects[:-1], {**effect, "out": [p.id for p in out]}]
    _run_darkness(state, rng, log)
    _settle(state, log)


def end_turn(state: State, seat: int, log: Log) -> None:
    _require_step(state, seat, "action")
    log.say(f"{seat_of(state, seat).name} ends the turn.")
    _end_turn(state, log)


def choose_panic_token(state: State, seat: int, target_id, rng: random.Random, log: Log) -> None:
    """The owner picks the token that takes a removed token's panic (then any darkness goes on)."""
    _require_playing(state)
    if not state.pending:
        raise IllegalAction("No panic tokens are waiting to be moved.")
    if state.pending["seat"] != seat:
        raise IllegalAction(f"{seat_of(state, state.pending['seat']).name} chooses, not you.")
    target = piece_of(state, target_id)
    if target not in move_candidates(state):
        raise IllegalAction("Choose another token of the same drone that is on the table.")
    _move_panic(state, state.pieces[state.pending["from"]], target, log)
    _run_darkness(state, rng, log)
    _settle(state, log)


def replace_with_drone(state: State, seat: int, token_id, log: Log) -> None:
    """ "A player may replace the true token of a set with its Drone at any time"."""
    _require_playing(state)
    _require_no_pending(state)
    token = piece_of(state, token_id)
    # ownership first: a refusal must never tell another player whether a token is true
    if token.seat != seat or token.kind != "token":
        raise IllegalAction("You may only replace your own true token.")
    if not token.in_play:
        raise IllegalAction("That token is not on the table.")
    if not token.is_true:
        raise IllegalAction("Only the true token of a set can be replaced by its Drone.")
    log.say(
        f"{seat_of(state, seat).name} reveals {label(state, token)} as the true token "
        f"and replaces it with the Drone; the set's other tokens are removed."
    )
    _replace_with_drone(state, token, log)
    _settle(state, log)


def replace_drone(state: State, seat: int, drone_id, log: Log) -> None:
    """Replace a Drone's true token with the Drone, naming the Drone: the page never needs to say which
    token is true to offer it (the owner's key stays off the page)."""
    _require_playing(state)
    _require_no_pending(state)
    drone = piece_of(state, drone_id)
    if drone.seat != seat or drone.kind != "drone":
        raise IllegalAction("You may only replace your own true token.")
    true = next((t for t in tokens_of(state, drone.id) if t.in_play and t.is_true), None)
    if true is None:
        raise IllegalAction(f"The tokens of {drone.code} are not on the table.")
    replace_with_drone(state, seat, true.id, log)


def gaze(state: State, seat: int, token_id, seer_id, log: Log) -> None:
    """The power of the gaze: "If a Drone has clear line of sight to a token reveal it, if it is
    a true token replace it with its Drone, if not, remove it." (the sight is checked at the table;
    any Drone, any token, recorded by any player: SG8)"""
    _require_playing(state)
    _require_no_pending(state)
    seat_of(state, seat)
    seer = piece_of(state, seer_id)
    if seer not in seers(state, seat):
        raise IllegalAction("Choose a Drone on the table.")
    token = piece_of(state, token_id)
    if token.kind != "token" or not token.in_play:
        raise IllegalAction("Choose a token on the table.")
    log.say(f"{label(state, seer)} sees {label(state, token)}: the power of the gaze reveals it.")
    log.reveals_truth = True
    if token.is_true:
        log.say(
            f"{token.code} is the TRUE token: it is replaced by {label(state, state.pieces[token.drone])}; "
            "the set's other tokens are removed."
        )
        _replace_with_drone(state, token, log)
    else:
        token.revealed = True
        token.removed = True
        log.say(f"{token.code} is not the true token: it is removed.")
        _move_panic_away(state, token, log)
    _settle(state, log)


def fatal(state: State, seat: int, piece_id, log: Log) -> None:
    """ "Off the playing area is considered “fatal”, any drone moved there is removed from the game".
    Recorded by the player moving characters now, or by the player whose panic token just pushed
    this Character 6" forwards (SG13)."""
    acting = acting_seat(state)
    if acting is None:
        _require_playing(state)
        _require_no_pending(state)
    if seat != acting and not pushed_by(state, seat, piece_id):
        raise IllegalAction(
            "Only the player moving characters now (or whose panic token pushed it) may record "
            "that one went into a fatal area."
        )
    piece = piece_of(state, piece_id)
    if not piece.in_play:
        raise IllegalAction("That character is not on the table.")
    if state.pushed and str(state.pushed["piece"]) == str(piece.id):
        state.pushed = None
    if piece.seat != seat:
        # another player's Character: its owner confirms or disputes first (SG21)
        state.fatal_claim = {"seat": seat, "piece": piece.id}
        log.say(
            f"{seat_of(state, seat).name} says {label(state, piece)} went into a fatal area: waiting for "
            f"{seat_of(state, piece.seat).name} to confirm or dispute."
        )
        return
    _remove_fatal(state, piece, log)


def answer_fatal(state: State, seat: int, answer: str, log: Log) -> None:
    """The owner of a Character another player said went into a fatal area confirms (it is removed)
    or disputes (it stays) (SG21)."""
    _require_playing(state)
    claim = state.fatal_claim
    if not claim:
        raise IllegalAction("No fatal area is waiting to be confirmed.")
    piece = state.pieces[claim["piece"]]
    if piece.seat != seat:
        raise IllegalAction(f"{seat_of(state, piece.seat).name} confirms or disputes it, not you.")
    if answer not in ("confirm", "dispute"):
        raise IllegalAction("Confirm or dispute the fatal area.")
    state.fatal_claim = None
    if answer == "dispute":
        log.say(f"{seat_of(state, seat).name} disputes it: {label(state, piece)} stays on the table.")
        return
    log.say(f"{seat_of(state, seat).name} confirms it.")
    _remove_fatal(state, piece, log)


def _remove_fatal(state: State, piece: Piece, log: Log) -> None:
    log.say(f"{label(state, piece)} goes into a fatal area and is removed.")
    if piece.kind == "token" and not piece.is_true:
        piece.removed = True
        _move_panic_away(state, piece, log)
    else:
        drone = state.pieces[piece.drone]
        if piece.kind == "token":
            log.say(
                f"{piece.code} was the true token: {label(state, drone)} is removed from the game "
                "with the set's other tokens."
            )
            piece.removed = True
            piece.revealed = True
            _remove_set(state, piece)
            log.reveals_truth = True
        drone.removed = True
    _settle(state, log)
