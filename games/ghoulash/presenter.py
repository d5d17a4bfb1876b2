"""What a Ghoulash player sees: the page's context, built from the rows and the engine's ``legal``."""

from __future__ import annotations

from games.ghoulash.decks import SPECIALTY_TYPES, STRENGTH_ICV_CARDS, TYPE_LABELS, card_label, is_card, is_value_card
from games.ghoulash.models import BoxCard, Event, Game, Player, TileToken
from games.ghoulash.state import PENDING, current_icv, debris_in_game, table_state
from rules import ghoulash as gh

# ---------------------------------------------------------------------------
# What a player sees
# ---------------------------------------------------------------------------


def table(game: Game, players: list[Player], tokens: list[TileToken], events: list[Event], user) -> dict:
    """The page's view of the game for ``user``: their own hand only, unrevealed tokens without their kind,
    no seeds while the game is on. The one place that reads the secrets for display."""
    return {**public_table(game, players, tokens, events), **own_table(game, players, tokens, user)}


def public_table(game: Game, players: list[Player], tokens: list[TileToken], events: list[Event]) -> dict:
    """What every seat sees alike (the same for a viewer with no seat): built once per version."""
    by_seat = {p.seat: p for p in players}
    by_pk = {p.pk: p for p in players}
    tiles = []
    for tile in range(1, gh.TILES + 1):
        here = []
        for t in tokens:
            if t.tile != tile:
                continue
            public = {"id": t.pk, "slot": t.slot, "label": t.label, "revealed": t.revealed, "state": t.state}
            if t.revealed:
                public.update(
                    {
                        "kind": t.kind,
                        "strength": t.strength,
                        "victory_points": t.victory_points,
                        "holder": by_pk[t.holder_id].user.username if t.holder_id in by_pk else "",
                    }
                )
            here.append(public)
        tiles.append({"number": tile, "tokens": here})
    seats = []
    for p in players:
        won = [t for t in tokens if t.holder_id == p.pk]
        seats.append(
            {
                "player": p,
                "username": p.user.username,
                "icv": current_icv(p, tokens),
                "hand": len(p.hand),
                "draw": len(p.draw),
                "discard": len(p.discard),
                "wounds": len(p.wounds),
                "ghouls": [t for t in won if t.kind == "ghoul"],
                "guns": sum(1 for t in won if t.kind == "ghoo-gun"),
                "is_current": p.seat == game.current_seat and game.status == Game.PLAYING,
            }
        )
    battle = None
    if game.battle and game.phase in (Game.BATTLE, Game.CHALLENGE, Game.RESPONSE):
        b = game.battle
        battler = by_seat[b["seat"]]
        token = next(t for t in tokens if t.pk == b["token"])
        deck = {c["id"]: c for c in battler.deck}
        played = [{**deck[i], "label": card_label(deck[i])} for i in b["played"]]
        challenger = by_seat.get(b["challenger"]) if b.get("challenger") is not None else None
        icv = current_icv(battler, tokens, b)
        total = icv + sum(c["value"] for c in played)
        after = total - sum(b.get("challenge_values", []))
        battle = {
            "battler": battler.user.username,
            "token": token,
            "needed": token.strength + gh.BEAT_BY,
            "icv": icv,
            "played": played,
            "total": total,
            "challenger": challenger.user.username if challenger else "",
            "challenge": [({c["id"]: c for c in challenger.deck})[i] for i in b["challenge"]] if challenger else [],
            "after": after,
            "offered_to": by_seat[b["offers"][0]].user.username if b.get("offers") else "",
            "icv_card": ({c["id"]: c for c in battler.deck})[b["icv_card"]]["name"]
            if b.get("icv_card") is not None
            else "",
        }
    current = by_seat.get(game.current_seat)
    resolver = by_seat.get((game.battle or {}).get("seat", game.current_seat)) if game.phase in PENDING else None
    return {
        "game": game,
        "seats": seats,
        "tiles": tiles,
        "battle": battle,
        "current": current,
        "events": events,
        "show_seeds": game.status == Game.FINISHED,
        "winning_vp": gh.WINNING_VP,
        "hand_size": gh.HAND_SIZE,
        "challenge_max": gh.CHALLENGE_MAX_CARDS,
        "debris_max": debris_in_game(players),
        "resolver": resolver or current,
        "tiles_count": range(1, gh.TILES + 1),
        "move_spaces": gh.MOVE_TOKEN_SPACES,
    }


def own_table(game: Game, players: list[Player], tokens: list[TileToken], user) -> dict:
    """What only ``user`` sees: their seat, hand, wounds and the moves the engine allows them now."""
    me = next((p for p in players if p.user_id == user.pk), None)
    state = table_state(game, players)
    legal = gh.legal(state, me.seat) if me is not None else frozenset()
    mine = {}
    if me is not None:
        deck = {c["id"]: c for c in me.deck}
        # Action cards: on one's own turn, while the turn's Action allows one more (GT9, GT18)
        my_turn_now = "hole" in legal  # the engine's check for one more Action card now

        def playable(card: dict) -> bool:  # what the "card" play accepts, asked of the engine
            if "card" not in legal or card["type"] == BoxCard.VALUE:
                return False
            try:
                gh.check_card(
                    state,
                    me.seat,
                    card["type"] in (BoxCard.ACTION, BoxCard.SPECIALTY_ACTION),
                    any(is_card(card, slug) for slug in STRENGTH_ICV_CARDS),
                    card["name"],
                )
            except gh.NotNow:
                return False
            return True

        names = {p.character: p.user.username for p in players}
        hand = [
            {
                **deck[i],
                "type_label": TYPE_LABELS.get(deck[i]["type"], ""),
                "playable": playable(deck[i]),
                "is_value": is_value_card(deck[i]),
                "is_specialty": deck[i]["type"] in SPECIALTY_TYPES,
                "is_parry": is_card(deck[i], "parry"),  # what the answer takes as a Parry (typed-in ones too)
                # the Steal card is played with its own form (GT20); a stolen card names its owner
                "is_steal": is_card(deck[i], "steal") and deck[i]["type"] != BoxCard.VALUE,
                "stolen_from": names.get(deck[i]["owner"], "") if deck[i].get("owner_id") is not None else "",
            }
            for i in me.hand
        ]
        # my cards in other players' hands or wound stacks (stolen): only the two players involved see which
        held_by_others = [
            {"label": card_label(c), "holder": p.user.username}
            for p in players
            if p.pk != me.pk
            for c in p.deck
            if c.get("owner_id") is not None
            and c["owner"] == me.character
            and (c["id"] in p.hand or c["id"] in p.wounds)
        ]
        face_down = [
            {"id": t.pk, "label": t.label, "tile": t.tile}
            for t in tokens
            if not t.revealed and t.state == TileToken.ON_BOARD
        ]
        # Cornealius' specialty: a face-down token on his tile with each Specialty card he uses (GT16)
        reveals = me.character == gh.REVEALS_WITH_SPECIALTY and not me.dead and not me.in_hole and bool(face_down)
        on_players = my_turn_now
        mine = {
            "hand": hand,
            "wound_cards": [{**deck[i], "label": card_label(deck[i])} for i in me.wounds],
            "discard_cards": [deck[i] for i in me.discard],
            # Hole and Debris Action cards played on opponents' squares (GT14, GT15)
            "hole_card": next(
                (c for c in hand if on_players and c["type"] == BoxCard.ACTION and is_card(c, "hole")), None
            ),
            "debris_card": next(
                (c for c in hand if on_players and c["type"] == BoxCard.ACTION and is_card(c, "debris")), None
            ),
            "targets": [
                {"seat": p.seat, "username": p.user.username, "in_hole": p.in_hole}
                for p in players
                if p.pk != me.pk and not p.dead
            ],
            "face_down": face_down,
            "reveal_tokens": face_down if reveals else [],
            "specialty_value_slots": list(range(sum(1 for c in hand if c["is_value"] and c["is_specialty"])))
            if reveals
            else [],
            # players who may stand on the square a moved token lands on: Lake's own square too (GT17)
            "move_targets": [
                {"seat": p.seat, "username": p.user.username, "in_hole": p.in_hole, "me": p.pk == me.pk}
                for p in players
                if not p.dead and (p.pk != me.pk or me.character == gh.MOVES_TOKENS_ON_OWN_TILE)
            ],
            "lake": me.character == gh.MOVES_TOKENS_ON_OWN_TILE,
            "steal_card": next((c for c in hand if c["is_steal"] and c["playable"]), None),
            "steal_targets": [
                {"seat": p.seat, "username": p.user.username, "hand": len(p.hand)}
                for p in players
                if p.pk != me.pk and p.hand
            ],
            "stolen_in_hand": sum(1 for c in hand if c["stolen_from"]),
            "held_by_others": held_by_others,
        }
    # what the page offers: what the engine allows this seat now
    can = (
        {
            "replenish": "replenish" in legal,
            "turn": "end-turn" in legal,
            # an encounter where the piece stands (a revealed Ghoul or First-Aid Kit): no movement needed
            "here": "fight" in legal,
            "move": "reveal" in legal,
            "give_up_movement": "give-up-movement" in legal,  # Zone's trade (GT9)
            "play": "play" in legal,
            "challenge": "challenge" in legal,
            "respond": "respond" in legal,
            "first_aid": "leave-first-aid" in legal,
            "move_token": "move-token" in legal,  # the Action's option B (GT17, GT18)
            "debris_square": "debris-square" in legal,
            "hole_square": "hole-square" in legal,
        }
        if me is not None and game.status == Game.PLAYING
        else {}
    )
    return {"me": me, "mine": mine, "can": can}
