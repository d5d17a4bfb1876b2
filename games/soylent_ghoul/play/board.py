"""What one viewer sees of a game: the board, the choices they have now, the log.

This is the only place that reads ``Piece.is_true`` for display: the board
gives a token's truth only when it is revealed. The owner's key is not in the
board at all: ``key`` builds it for the hold-to-reveal fetch, for its owner only.
"""

from __future__ import annotations

from fractions import Fraction

from core.percent import percent
from games.soylent_ghoul.play import services
from games.soylent_ghoul.play.models import Game
from rules.soylent_ghoul import game as engine
from rules.soylent_ghoul import panic as soylent


def _pct(chance: Fraction) -> str:
    return percent(chance)


def _status(piece: engine.Piece) -> str:
    if piece.kind == "drone":
        if piece.removed:
            return "removed from the game"
        if piece.snapped:
            return "Snapped"
        if piece.revealed:
            return "on the table"
        return "tokens on the table" if piece.placed else "not placed yet"
    if piece.removed:
        return "removed"
    return "on the table" if piece.placed else "not placed"


def board(game: Game, players: list, pieces: list, events: list, viewer, others_drawn: bool = False) -> dict:
    """What ``viewer`` sees. ``others_drawn``: the other seats are drawn already (the shared part), so
    their drones are not viewed again here."""
    me = next((p for p in players if p.user_id == viewer.pk), None)
    context = {"game": game, "players": players, "me": me, "events": events}
    if game.status == Game.SETUP:
        return context
    state = services.build_state(game, players, pieces)
    my_seat = me.seat if me is not None else None

    def view(piece: engine.Piece) -> dict:
        row = {
            "id": piece.id,
            "kind": piece.kind,
            "code": piece.code,
            "panic": piece.panic,
            "status": _status(piece),
            "in_play": piece.in_play,
            "snapped": piece.snapped,
            "removed": piece.removed,
            "placed": piece.placed,
            "revealed": piece.revealed,
            "lantern": piece.lantern,
            "light": piece.light,
            "label": engine.label(state, piece),
            "active": piece.id == state.active,
            "mine": piece.seat == my_seat,
        }
        if piece.kind == "token" and piece.revealed:
            row["shown_truth"] = "true" if piece.is_true else "false"  # public once revealed
        if engine.can_receive_panic(piece):
            if piece.snapped:
                row["already_snapped"] = True  # it still receives panic tokens; nothing more happens (SG9)
            else:
                row["chance"] = _pct(engine.snap_chance(state, piece))
        if piece.kind == "drone":
            row["markers"] = [m["id"] for m in engine.markers_of(state, piece.id)]
        return row

    seats = []
    order = soylent.turn_order([s.seat for s in state.seats], game.first_seat) if game.first_seat is not None else ()
    alive = set(engine.standing(state))
    for p in players:
        drones = []
        for d in engine.drones(state, p.seat) if p.seat == my_seat or not others_drawn else ():
            tokens = [view(t) for t in engine.tokens_of(state, d.id)]
            # the owner replaces a true token by naming its Drone: offered for every drone whose tokens are
            # on the table, so the offer says nothing about which token is true
            replaceable = (
                p.seat == my_seat
                and game.status == Game.PLAYING
                and not d.revealed
                and any(t["in_play"] for t in tokens)
            )
            drones.append({**view(d), "tokens": tokens, "replaceable": replaceable})
        seats.append(
            {
                "player": p,
                "drones": drones,
                "standing": p.seat in alive,
                "is_current": p.seat == state.current and not state.finished,
                "is_panic": p.seat == state.panic_seat and state.phase == "panic",
                "is_me": p.seat == my_seat,
                "has_lantern": p.group == engine.GARDENERS,
            }
        )
    by_seat = {p.seat: p for p in players}
    active = state.pieces.get(state.active) if state.active is not None else None
    effect = engine.snap_effect(state)
    context.update(
        state=state,
        seats=seats,
        turn_order=[by_seat[s] for s in order],
        current=by_seat.get(state.current),
        panic_player=by_seat.get(state.panic_seat),
        winner=by_seat.get(state.winner) if state.finished else None,
        active=view(active) if active else None,
        active_player=by_seat.get(active.seat) if active else None,
        pending_player=by_seat.get(state.pending["seat"]) if state.pending else None,
        pending_from=view(state.pieces[state.pending["from"]]) if state.pending else None,
        waiting=engine.waiting_for(state) is not None,
        fatal_claim=(
            {
                "by": by_seat.get(state.fatal_claim["seat"]),
                "piece": view(state.pieces[state.fatal_claim["piece"]]),
                "owner": by_seat.get(state.pieces[state.fatal_claim["piece"]].seat),
            }
            if state.fatal_claim
            else None
        ),
        has_key=me is not None
        and any(p.kind == "token" and p.seat == me.seat and not p.revealed for p in state.pieces.values()),
        snap_player=by_seat.get(effect["seat"]) if effect else None,
        snap_drone=view(state.pieces[effect["drone"]]) if effect and effect.get("drone") in state.pieces else None,
        dark_drone=view(state.pieces[effect["darker"]]) if effect and effect.get("darker") in state.pieces else None,
    )
    if me is None or state.finished:
        return context
    targets = [view(p) for p in engine.characters(state) if engine.can_receive_panic(p)]
    acting = engine.acting_seat(state)
    if state.fatal_claim and state.pieces[state.fatal_claim["piece"]].seat == my_seat:
        context["fatal_answer"] = True  # SG21: my Character; I confirm or dispute
    if state.pending and state.pending["seat"] == my_seat:
        context["move_choices"] = [view(t) for t in engine.move_candidates(state)]
    if acting == my_seat and state.phase == "turn":
        context["can_place"] = [view(d) for d in engine.placeable(state, my_seat)]
        activatable = []
        for piece in engine.activatable(state, my_seat):
            row = view(piece)
            row["twice"] = engine.activation_gives_panic(state, my_seat, piece.id)
            activatable.append(row)
        context["can_activate"] = activatable
    if acting == my_seat and state.phase == "panic":
        context["panic_targets"] = targets
        context["panic_effects"] = list(engine.PANIC_EFFECTS.items())
    if acting == my_seat and state.phase == "action":
        context["action_step"] = True
        if not state.acted:
            drone = state.pieces[active.drone]
            actions = []
            for a in me.actions:
                row = dict(a)
                if not engine.can_perform(state, my_seat, a["slug"], active):
                    # "A Drone may ...": shown, not offered, to a token (SG19)
                    row["drone_only"] = True
                    actions.append(row)
                    continue
                if a["slug"] == "shift":
                    row["marker_choices"] = [
                        {"id": m["id"], "label": engine.marker_label(state, m)} for m in state.markers
                    ]
                    row["required"] = [view(d) for d in engine.shift_required(state, active.drone)]
                    row["section_choices"] = [view(p) for p in engine.characters(state)]
                    row["section_panic"] = engine.SHIFT_SECTION_PANIC
                    row["shift"] = True
                if a["slug"] == "lighter":
                    row["levels"] = engine.LIGHT_LEVELS
                    # SG14: the acting Character gains a light token anyway; the player ticks the others
                    row["lit_choices"] = [view(p) for p in engine.characters(state) if p.id != active.id]
                if a["slug"] == "darker":
                    if drone.lantern is None:
                        continue  # nothing to reduce
                    row["reductions"] = [
                        {"n": n, "pct": _pct(soylent.darker_lantern_lost_chance(n))}
                        for n in range(1, drone.lantern + 1)
                    ]
                actions.append(row)
            context["action_choices"] = actions
        elif state.performed not in engine.NO_COUNTED_PANIC:
            context["give_targets"] = [t for t in targets if engine.can_be_given(state, state.pieces[t["id"]])]
    if effect and effect["seat"] == my_seat and not state.pending and effect.get("out") is None:
        # SG16/SG17: tick who is out of the light; each gains 5 panic tokens, one test each
        dark = []
        for p in engine.dark_candidates(state):
            row = view(p)
            nerve = engine.seat_of(state, p.seat).nerve
            row["chance5"] = _pct(soylent.panic_batch_distribution(nerve, p.panic, engine.DARKNESS_PANIC)["snapped"])
            dark.append(row)
        context["dark_targets"] = dark
        context["lights"] = [view(d) for d in engine.lanterns(state)]
        context["darkness_panic"] = engine.DARKNESS_PANIC
    if acting == my_seat:
        context["fatal_targets"] = [view(p) for p in engine.characters(state)]
    elif acting is not None and state.pushed and state.pushed["seat"] == my_seat:
        # SG13: the player whose panic token pushed a Character may record where it went
        context["fatal_targets"] = [view(p) for p in engine.characters(state) if engine.pushed_by(state, my_seat, p.id)]
    if engine.waiting_for(state) is None:
        # SG8: any Drone on the table reveals any token it sees, recorded by any player
        seers = engine.seers(state, my_seat)
        gaze_targets = engine.gaze_targets(state)
        if seers and gaze_targets:
            context["seers"] = [view(s) for s in seers]
            context["gaze_targets"] = [view(t) for t in gaze_targets]
    last = services.latest_standing_event(game, events)
    if last is not None and last.actor_id == viewer.pk and last.kind != "start":
        final = services.why_final(last)
        if final:
            context["undo_final"] = final  # no button: say why in one line
        else:
            context["undo_event"] = last
    return context


def key(game: Game, pieces: list, viewer) -> list[dict] | None:
    """The viewer's own key: for each of their drones, its true token while it is still secret.
    None when the viewer has no seat at this game (the view answers 404)."""
    me = game.players.filter(user=viewer).first()
    if me is None:
        return None
    rows = []
    for drone in (p for p in pieces if p.player_id == me.pk and p.kind == "drone"):
        tokens = [t for t in pieces if t.drone_id == drone.pk]
        true = next((t for t in tokens if t.is_true), None)
        if true is None or true.revealed or true.removed:
            continue
        rows.append({"drone": drone.code, "true": true.code})
    return rows
