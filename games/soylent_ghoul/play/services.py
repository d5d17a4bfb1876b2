"""One transactional function per game operation.

The rules live in ``rules.soylent_ghoul.game``: a play loads the rows
into the engine's ``State`` under the game's lock (``core.locking.run_locked``,
which also bumps the game's version), checks the version the player saw, calls
one engine action, writes the state back and records an ``Event`` with the
engine's log, the seed and a snapshot for undo. Once committed, the new version
is published to the cache for the polls (``core.games.kit.bump_version``).
"""

from __future__ import annotations

import random
import secrets

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count

from catalogue.loader import rules_entries
from core.games import kit
from core.locking import run_locked
from games.soylent_ghoul.play.errors import GameError, StaleVersion
from games.soylent_ghoul.play.models import Event, Game, Piece, Player
from games.soylent_ghoul.play.permissions import check_user_owns_drone_set, check_user_set_up_game, user_set_up_game
from games.soylent_ghoul.sets.models import DroneSet
from rules.soylent_ghoul import game as engine

MAX_PLAYERS = 8

LABEL = Game._meta.label_lower  # the key of the game's version in the cache


def current_version(pk: int) -> int | None:
    """The game's version from the database (the polls' fallback when the cache has none)."""
    return Game.objects.filter(pk=pk).values_list("version", flat=True).first()


def _under_lock(game_id: int, work):
    """``work(game)`` under the game's lock; the lock bumps ``game.version`` (so ``game.version - 1``
    is the version the player saw) and the new version is published once committed."""

    def locked(game: Game):
        result = work(game)
        kit.bump_version(LABEL, game.pk, game.version)
        return result

    return run_locked(
        Game,
        game_id,
        locked,
        missing=GameError("There is no such game."),
        busy=GameError("The game is busy; try again."),
    )


def own_sets(user):
    """The user's drone sets with their drone counts (one query)."""
    return list(
        DroneSet.objects.owned_by(user)
        .select_related("crew")
        .annotate(n_drones=Count("drones", distinct=True))
        .order_by("crew__name", "id")
    )


def _group(slug: str) -> dict:
    for entry in rules_entries("soylent-ghoul", "ghoul_groups"):
        if entry.get("slug") == slug:
            return entry
    raise GameError(f"The Ghoul group {slug!r} of this drone set is not in the catalogue.")


def _check_set(drone_set: DroneSet) -> list:
    drones = list(drone_set.drones.prefetch_related("tokens"))
    if not drones:
        raise GameError(f"{drone_set.crew.name} has no drones.")
    for drone in drones:
        tokens = list(drone.tokens.all())
        if len(tokens) != engine.TOKENS_PER_DRONE or sum(t.is_true for t in tokens) != 1:
            raise GameError(
                f"{drone.name} of {drone_set.crew.name} needs five tokens, exactly one of them true "
                "(deal its tokens on the drone set's page)."
            )
    return drones


def _action_row(action: dict) -> dict:
    """An action as a game keeps it: its words, who performs it and who its panic tokens go to (SG19)."""
    row = {"slug": action["slug"], "name": action["name"], "text": action.get("text", ""), "by": action.get("by")}
    if action.get("panic_to"):
        row["panic_to"] = action["panic_to"]
    return row


def _seat_actions(player: Player) -> list[dict]:
    """The player's actions; a game that started before the catalogue said who performs them reads it now."""
    if all(a.get("by") for a in player.actions):
        return player.actions
    known = {a["slug"]: _action_row(a) for a in _group(player.group).get("actions", [])}
    return [{**known.get(a["slug"], {}), **{k: v for k, v in a.items() if v}} for a in player.actions]


def _take_seat(player: Player, drone_set: DroneSet, drones: list) -> None:
    """Copy the set's group numbers, drones and tokens (code and truth) into the game."""
    group = _group(drone_set.group)
    player.drone_set = drone_set
    player.joined = True
    player.set_name = drone_set.crew.name
    player.group = group["slug"]
    player.group_name = group.get("name", group["slug"])
    player.nerve = int(group["nerve"])
    player.move = int(group.get("M", group.get("move", 0)))
    player.actions = [_action_row(a) for a in group.get("actions", [])]
    player.snapped_text = group.get("snapped", "")
    player.save()
    for position, drone in enumerate(drones):
        d = Piece.objects.create(game=player.game, player=player, kind=Piece.DRONE, code=drone.name, position=position)
        # created in code order: neither the order nor the ids tell which token is true
        Piece.objects.bulk_create(
            [
                Piece(
                    game=player.game,
                    player=player,
                    kind=Piece.TOKEN,
                    drone=d,
                    code=t.code,
                    is_true=t.is_true,
                    position=position,
                )
                for t in sorted(drone.tokens.all(), key=lambda t: t.code)
            ]
        )


@transaction.atomic
def create_game(creator, drone_set: DroneSet, usernames: list[str]) -> Game:
    check_user_owns_drone_set(creator, drone_set)
    names = [u.strip() for u in usernames if u.strip()]
    if not names:
        raise GameError("Invite at least one other player by username.")
    if len({n.lower() for n in names}) != len(names):
        raise GameError("Each player may be invited once.")
    if len(names) + 1 > MAX_PLAYERS:
        raise GameError(f"At most {MAX_PLAYERS} players.")
    users = []
    User = get_user_model()
    for name in names:
        user = User.objects.named(name)
        if user is None:
            raise GameError(f"There is no user called {name!r}.")
        if user.pk == creator.pk:
            raise GameError("You are already in the game; invite the other players.")
        users.append(user)
    drones = _check_set(drone_set)
    game = Game.objects.create(creator=creator, drone_count=len(drones))
    me = Player.objects.create(game=game, user=creator, seat=0)
    _take_seat(me, drone_set, drones)
    for seat, user in enumerate(users, start=1):
        Player.objects.create(game=game, user=user, seat=seat)
    return game


def join(game_id: int, user, drone_set: DroneSet) -> Game:
    return _under_lock(game_id, lambda game: _join(game, user, drone_set))


def _join(game: Game, user, drone_set: DroneSet) -> Game:
    player = Player.objects.filter(game=game, user=user).first()
    if player is None:
        raise GameError("You are not invited to this game.")
    if game.status != Game.SETUP or player.joined:
        raise GameError("You have already chosen your drone set.")
    check_user_owns_drone_set(user, drone_set)
    drones = _check_set(drone_set)
    if len(drones) != game.drone_count:
        raise GameError(
            f"Every player needs the same number of drones: this game uses {game.drone_count}, "
            f"{drone_set.crew.name} has {len(drones)}."
        )
    _take_seat(player, drone_set, drones)
    return game


def invite(game_id: int, user, username: str) -> Game:
    """The organiser invites one more player while the game waits for players (one who left, say)."""
    return _under_lock(game_id, lambda game: _invite(game, user, username))


def _invite(game: Game, user, username: str) -> Game:
    if not user_set_up_game(user, game):
        raise GameError("Only the player who set up the game invites players.")
    if game.status != Game.SETUP:
        raise GameError("The game has started.")
    name = username.strip()
    if not name:
        raise GameError("Invite another player by username.")
    players = list(game.players.all())
    if len(players) >= MAX_PLAYERS:
        raise GameError(f"At most {MAX_PLAYERS} players.")
    invited = get_user_model().objects.named(name)
    if invited is None:
        raise GameError(f"There is no user called {name!r}.")
    if any(p.user_id == invited.pk for p in players):
        raise GameError(f"{invited.username} is already in the game.")
    # the next seat round the table: the organiser seats them, as at the game's setting up
    Player.objects.create(game=game, user=invited, seat=max(p.seat for p in players) + 1)
    return game


def decline(game_id: int, user) -> None:
    _under_lock(game_id, lambda game: _decline(game, user))


def _decline(game: Game, user) -> None:
    if game.status != Game.SETUP:
        raise GameError("The game has started.")
    if game.creator_id == user.pk:
        game.delete()
        return
    Player.objects.filter(game=game, user=user).delete()


def start(game_id: int, user, first_seat: int | None) -> Game:
    return _under_lock(game_id, lambda game: _start(game, user, first_seat))


def _start(game: Game, user, first_seat: int | None) -> Game:
    check_user_set_up_game(user, game)
    if game.status != Game.SETUP:
        raise GameError("The game has already started.")
    players = list(game.players.select_related("user"))
    if len(players) < 2:
        raise GameError("A game needs at least two players.")
    waiting = [p.user.username for p in players if not p.joined]
    if waiting:
        raise GameError(f"Waiting for {', '.join(waiting)} to choose a drone set.")
    seats = [p.seat for p in players]
    first = first_seat
    if first not in seats:
        raise GameError("Choose who goes first (the most morally suspect player).")
    game.status = Game.PLAYING
    game.first_seat = game.current_seat = first
    game.turn = 1
    game.save()
    name = next(p.user.username for p in players if p.seat == first)
    Event.objects.create(
        game=game,
        number=kit.next_event_number(game.events),
        turn=1,
        actor=user,
        kind="start",
        undoable=False,
        payload={"lines": [f"The game begins. Turn 1: {name} to play (the most morally suspect player)."], "rolls": []},
    )
    return game


# ---------------------------------------------------------------------------
# Playing
# ---------------------------------------------------------------------------


def build_state(game: Game, players: list[Player], pieces: list[Piece]) -> engine.State:
    seats = []
    for p in players:
        actions = _seat_actions(p)
        seats.append(
            engine.Seat(
                seat=p.seat,
                name=p.user.username,
                group=p.group,
                nerve=p.nerve,
                actions=tuple(a["slug"] for a in actions),
                last_kind=p.last_kind,
                last_piece=p.last_piece,
                performers={a["slug"]: a.get("by") for a in actions},
                panic_to={a["slug"]: a["panic_to"] for a in actions if a.get("panic_to")},
            )
        )
    seat_by_player = {p.pk: p.seat for p in players}
    state_pieces = {
        piece.pk: engine.Piece(
            id=piece.pk,
            seat=seat_by_player[piece.player_id],
            kind=piece.kind,
            drone=piece.drone_id or piece.pk,
            code=piece.code,
            is_true=piece.is_true,
            panic=piece.panic,
            placed=piece.placed,
            revealed=piece.revealed,
            snapped=piece.snapped,
            removed=piece.removed,
            lantern=piece.lantern,
            light=piece.light,
        )
        for piece in pieces
    }
    return engine.State(
        seats=seats,
        pieces=state_pieces,
        current=game.current_seat,
        turn=game.turn,
        phase=game.phase,
        active=game.active_piece,
        panic_seat=game.panic_seat,
        passes=game.passes,
        passed=list(game.passed or []),
        acted=game.acted,
        pending=game.pending,
        finished=game.status == Game.FINISHED,
        winner=game.winner_seat,
        snap_effects=list(game.snap_effects or []),
        pushed=game.pushed,
        performed=game.performed or None,
        markers=list(game.markers or []),
        fatal_claim=game.fatal_claim,
    )


def _write_back(game: Game, players: list[Player], pieces: list[Piece], state: engine.State) -> None:
    game.current_seat, game.turn, game.phase = state.current, state.turn, state.phase
    game.active_piece, game.panic_seat, game.passes = state.active, state.panic_seat, state.passes
    game.passed = list(state.passed)
    game.acted, game.pending, game.winner_seat = state.acted, state.pending, state.winner
    game.snap_effects, game.pushed = list(state.snap_effects), state.pushed
    game.performed = state.performed or ""
    game.markers, game.fatal_claim = list(state.markers), state.fatal_claim
    if state.finished:
        game.status = Game.FINISHED
    elif game.status == Game.FINISHED:
        game.status = Game.PLAYING
    game.save()  # its version was bumped by the lock
    for p in players:
        s = engine.seat_of(state, p.seat)
        p.last_kind, p.last_piece = s.last_kind, s.last_piece
    Player.objects.bulk_update(players, ["last_kind", "last_piece"])
    for piece in pieces:
        for f in engine.PIECE_FIELDS:
            setattr(piece, f, getattr(state.pieces[piece.pk], f))
    Piece.objects.bulk_update(pieces, list(engine.PIECE_FIELDS))


def _load_for_play(game: Game, user, version: int | None) -> tuple[Game, list[Player], list[Piece], Player]:
    players = list(game.players.select_related("user"))
    me = next((p for p in players if p.user_id == user.pk), None)
    if me is None:
        raise GameError("You are not playing in this game.")
    if game.status == Game.SETUP:
        raise GameError("The game has not started yet.")
    if version != game.version - 1:  # the lock has bumped it already
        raise StaleVersion("The game moved on since your page was drawn; here is the board as it is now.")
    pieces = list(game.pieces.all())
    return game, players, pieces, me


ACTIONS = {
    # kind: (engine function, the move's choices it takes, rolls dice?)
    "place": (engine.place, ("piece",), False),
    "activate": (engine.activate, ("piece",), True),
    "panic": (engine.place_panic, ("piece", "effect"), True),
    "pass": (engine.pass_panic, (), False),
    "perform": (engine.perform, ("action",), True),
    "give-panic": (engine.give_panic, ("piece",), True),
    "end-turn": (engine.end_turn, (), False),
    "move-panic": (engine.choose_panic_token, ("piece",), True),  # the darkness may go on (rolls)
    "replace": (engine.replace_with_drone, ("piece",), False),
    "replace-drone": (engine.replace_drone, ("piece",), False),  # names the Drone: no key on the page
    "fatal-answer": (engine.answer_fatal, ("answer",), False),  # SG21: the owner confirms or disputes
    "gaze": (engine.gaze, ("piece", "seer"), False),
    "fatal": (engine.fatal, ("piece",), False),
    "dark": (engine.darken, ("pieces",), True),  # the Characters ticked as out of the light
}

# what ``perform`` passes on to the engine besides the action (Lighter's, Darker's, the markers')
PERFORM_CHOICES = ("level", "reduction", "lit", "markers", "section")


def play(
    game_id: int,
    user,
    *,
    version: int | None,
    kind: str,
    piece: int | None = None,
    pieces: list[int] | None = None,
    effect: str = "",
    action: str = "",
    answer: str = "",
    seer: int | None = None,
    level: int | None = None,
    reduction: int | None = None,
    lit: list[int] | None = None,
    markers: list[int] | None = None,
    section: list[int] | None = None,
) -> Event:
    """Apply one action for ``user`` (the game page's ``MoveForm`` reads it); raise GameError (nothing
    changed) if it is not allowed."""
    if kind not in ACTIONS:
        raise GameError("Unknown action.")
    choices = {
        "piece": piece,
        "pieces": pieces or [],
        "effect": effect,
        "action": action,
        "answer": answer,
        "seer": seer,
        "level": level,
        "reduction": reduction,
        "lit": lit or [],
        "markers": markers or [],
        "section": section or [],
    }
    return _under_lock(game_id, lambda game: _play(game, user, version, kind, choices))


def _play(game: Game, user, version: int | None, kind: str, choices: dict) -> Event:
    game, players, pieces, me = _load_for_play(game, user, version)
    state = build_state(game, players, pieces)
    before = engine.snapshot(state)
    func, fields, rolls = ACTIONS[kind]
    log = engine.Log()
    seed = secrets.randbits(32)
    args = [choices[f] for f in fields]
    try:
        if kind == "perform":
            func(state, me.seat, args[0], random.Random(seed), log, **{k: choices[k] for k in PERFORM_CHOICES})
        elif rolls:
            func(state, me.seat, *args, random.Random(seed), log)
        else:
            func(state, me.seat, *args, log)
    except engine.IllegalAction as exc:
        raise GameError(str(exc)) from None
    turn = game.turn
    # a token removed (Snapped, fatal area) is known to be false from then on: that cannot be
    # taken back either, or a player could test another player's tokens and undo each test.
    # Nor can a die roll (log.final): undoing it would let a player roll again (SG10).
    removed_token = any(
        p.kind == "token" and p.removed and not before["pieces"][str(p.id)]["removed"] for p in state.pieces.values()
    )
    _write_back(game, players, pieces, state)
    return Event.objects.create(
        game=game,
        number=kit.next_event_number(game.events),
        turn=turn,
        actor=user,
        kind=kind,
        payload=log.as_payload(),
        seed=seed if log.rolls else None,
        undoable=not (log.final or removed_token),
        before=before,
    )


def undoable_event(events) -> Event | None:
    """The latest event still standing: the only one that may be undone."""
    return next((e for e in events if not e.undone), None)


def latest_standing_event(game: Game, shown: list) -> Event | None:
    """The latest event still standing, from the log entries a board shows when it is among them
    (no query), else from the database."""
    found = undoable_event(shown)
    if found is None and len(shown) >= kit.BOARD_EVENTS:
        found = game.events.select_related("actor").filter(undone=False).order_by("-number").first()
    return found


def why_final(event: Event) -> str | None:
    """Why this event can never be undone (so neither can any before it), or None.

    The dice are checked in the payload too, so an event logged before rolls were final is final."""
    if (event.payload or {}).get("rolls"):
        return "it rolled dice, and a roll is final"
    if not event.undoable:
        return "it revealed or removed a token, and that cannot be taken back"
    return None


def undo(game_id: int, user, version: int | None) -> Event:
    """Undo the latest event, by the player who made it; a revealed truth or a roll cannot be taken back."""
    return _under_lock(game_id, lambda game: _undo(game, user, version))


def _undo(game: Game, user, version: int | None) -> Event:
    game, players, pieces, me = _load_for_play(game, user, version)
    event = game.events.filter(undone=False).order_by("-number").first()
    if event is None or event.kind == "start":
        raise GameError("There is nothing to undo.")
    if event.actor_id != user.pk:
        raise GameError("Only the player who made the last change may undo it.")
    final = why_final(event)
    if final:
        raise GameError(f"That event cannot be undone: {final}.")
    state = build_state(game, players, pieces)
    engine.restore(state, event.before)
    _write_back(game, players, pieces, state)
    event.undone = True
    event.save(update_fields=["undone"])
    return event
