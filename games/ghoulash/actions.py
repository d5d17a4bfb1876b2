"""Ghoulash plays: one handler per action. ``play`` asks the engine whether the seat may make the play now
(``rules.ghoulash.check``: whose turn, what the game waits for, the turn's one Action, movement); each
handler reads the play's own choices (cards, tokens, squares), calls the engine and writes the rows back."""

from __future__ import annotations

import random
import secrets

from crewbuilder.wording import count_noun
from games.ghoulash import services
from games.ghoulash.decks import (
    SPECIALTY_TYPES,
    STRENGTH_ICV_CARDS,
    TYPE_LABELS,
    card_label,
    engine_card,
    is_card,
)
from games.ghoulash.models import BoxCard, Game, Player, TileToken
from games.ghoulash.moves import Move
from games.ghoulash.state import PENDING, current_icv, debris_in_game, piles_of, store_piles, table_state
from rules import ghoulash as gh


def _log(game: Game, actor, kind: str, text: str, seed: int | None = None):
    """Append to the game's public event log (``services._log``, the one place that writes it)."""
    return services._log(game, actor, kind, text, seed)


# What a wound (or a lost battle) can change on a player
WOUND_FIELDS = ["hand", "draw", "discard", "wounds", "dead", "victory_points"]


def _card_ids(ids) -> list[int]:
    """The cards chosen (a card not chosen, None, is refused)."""
    if any(i is None for i in ids):
        raise services.GameError("Choose cards from your hand.")
    return list(ids)


def _from_hand(player: Player, ids: list[int]) -> list[dict]:
    """The cards with these ids, each one in the player's hand (the same id twice is refused)."""
    by_id = {c["id"]: c for c in player.deck}
    if len(set(ids)) != len(ids) or any(i not in player.hand for i in ids):
        raise services.GameError("Those cards are not in your hand.")
    return [by_id[i] for i in ids]


def _values(cards: list[dict]) -> tuple[int, ...]:
    try:
        return gh.battle_values([engine_card(c) for c in cards])
    except gh.IllegalPlay as exc:
        raise services.GameError(str(exc)) from None


def _put_down(player: Player, ids: list[int]) -> None:
    player.hand = [i for i in player.hand if i not in ids]


def card_text(cards: list[dict]) -> str:
    return ", ".join(card_label(c) for c in cards) or "no cards"


def _scores(players: list[Player]) -> dict[str, int]:
    return {p.user.username: p.victory_points for p in players}


def _recount_vp(player: Player, tokens: list[TileToken]) -> None:
    won = [
        gh.EncounterToken(t.kind, t.strength, t.victory_points)
        for t in tokens
        if t.holder_id == player.pk and t.kind == "ghoul" and t.state == TileToken.TAKEN
    ]
    player.victory_points = gh.victory_points(won, dead=player.dead)


def _check_end(game: Game, players: list[Player], tokens: list[TileToken], actor) -> None:
    resolved = gh.all_tokens_resolved(
        [(t.revealed, t.kind == "ghoul" and t.state == TileToken.ON_BOARD) for t in tokens]
    )
    winners = gh.game_winners(_scores(players), all_tokens_resolved=resolved)
    if winners:
        game.status = Game.FINISHED
        game.winners = list(winners)
        game.battle = None
        how = (
            f"reached {gh.WINNING_VP} Victory Points"
            if any(p.victory_points >= gh.WINNING_VP for p in players)
            else "every Encounter Token is revealed and resolved: the most Victory Points"
        )
        _log(
            game,
            actor,
            "win",
            f"The game is over ({how}). Winner{'s' if len(winners) > 1 else ''}: {', '.join(winners)}.",
        )


def _end_if_over(game: Game, players: list[Player], tokens: list[TileToken], actor) -> None:
    """The end check after any step (GT4, GT12): 10 VP, or every token revealed and resolved, whatever the last
    one was; not while an encounter is still being resolved (a battle, a First-Aid Kit to use or leave)."""
    if game.status == Game.PLAYING and game.phase not in PENDING:
        _check_end(game, players, tokens, actor)


def _wound(game: Game, players: list[Player], player: Player, wounds: int, tokens: list[TileToken], why: str) -> None:
    seed = secrets.randbits(32)
    piles = gh.take_wounds(piles_of(player), random.Random(seed), wounds)
    store_piles(player, piles)
    text = f"{player.user.username} suffers {wounds} wound{'s' if wounds != 1 else ''} ({why}): cards taken at random."
    back: list[dict] = []
    if not player.dead and gh.is_dead(piles, player.health):
        player.dead = True
        for t in tokens:
            if t.holder_id == player.pk and t.kind == "ghoul" and t.state == TileToken.TAKEN:
                t.state = TileToken.SET_ASIDE
                t.save(update_fields=["state"])
        _recount_vp(player, tokens)
        text += (
            f" {len(piles.wounds)} wounds reach Health {player.health}: {player.character_name} is dead; "
            "their Ghoul tokens are set aside."
        )
        # stolen wound cards "are out of the game until the player heals or has died, then they are returned"
        piles, stolen = gh.returned_at_death(piles)
        store_piles(player, piles)
        back = _return_stolen(players, player, [c.copy for c in stolen])
    _log(game, player.user, "wounds", text, seed)
    _log_returned(game, player, back, "dead")


def _finish_battle(game: Game, players: list[Player], tokens: list[TileToken], result: gh.BattleResult) -> None:
    battle = game.battle
    by_seat = {p.seat: p for p in players}
    battler = by_seat[battle["seat"]]
    token = next(t for t in tokens if t.pk == battle["token"])
    back = _to_discard(players, battler, battle["played"] + battle.get("response", []) + battle.get("parry", []))
    if battle.get("challenger") is not None:
        challenger = by_seat[battle["challenger"]]
        back_challenge = _to_discard(players, challenger, battle["challenge"])
    how = {
        "no-value": "the cards put down do not beat it",
        "unchallenged": "nobody challenged",
        "answered": "the challenge was answered",
        "parried": "the challenge was parried",
        "withstood": "the challenge did not bring the total below it",
        "unanswered": "the challenge was not answered",
        "hole": "in a Hole",
    }.get(result.stage, result.stage)
    if result.won:
        token.holder, token.state = battler, TileToken.TAKEN
        token.save(update_fields=["holder", "state"])
        _recount_vp(battler, tokens)
        _log(
            game,
            battler.user,
            "battle-won",
            f"{battler.user.username} defeats the strength-{token.strength} Ghoul "
            f"with {result.total} against the {result.needed} needed ({how}) and wins "
            f"{count_noun(result.victory_points, 'Victory Point')} (now {battler.victory_points}).",
        )
    else:
        _log(
            game,
            battler.user,
            "battle-lost",
            f"{battler.user.username} loses the battle against the "
            f"strength-{token.strength} Ghoul: {result.total} of the {result.needed} needed ({how}). "
            "The Ghoul stays on its square.",
        )
        _wound(
            game,
            players,
            battler,
            result.wounds,
            tokens,
            f"a lost Ghoul battle, {count_noun(result.wounds, 'green dot')}",
        )
    _log_returned(game, battler, back, "played")
    if battle.get("challenger") is not None:
        _log_returned(game, challenger, back_challenge, "played")
    game.battle = None
    game.phase = Game.TURN
    Player.objects.bulk_update(players, WOUND_FIELDS)
    _check_end(game, players, tokens, battler.user)


def _battle_result(
    battle: dict, token: TileToken, battler: Player, icv: int, response: bool = False
) -> gh.BattleResult:
    by_id = {c["id"]: c for c in battler.deck}
    played = _values([by_id[i] for i in battle["played"]])
    challenge = tuple(battle.get("challenge_values", ()))
    parried = tuple(battle.get("parried_values", ()))
    resp = _values([by_id[i] for i in battle.get("response", [])]) if response else ()
    try:
        return gh.ghoul_battle(token.strength, token.victory_points, icv, played, challenge, resp, parried=parried)
    except gh.IllegalPlay as exc:
        raise services.GameError(str(exc)) from None


def _do_replenish(game, players, tokens, me, current, move: Move) -> None:
    ids = _card_ids(move.cards)
    discards = _from_hand(me, ids)
    seed = secrets.randbits(32)
    before = len(me.hand)
    piles, returned = gh.replenish(piles_of(me), random.Random(seed), [engine_card(c) for c in discards])
    store_piles(me, piles)
    me.save(update_fields=["hand", "draw", "discard"])
    drawn = len(me.hand) - (before - len(discards))
    game.phase = Game.TURN
    # "Stolen cards may be discarded during the Replenishment phase (they are returned to the owning player),
    # but they are not replaced with other non-player cards"
    back = _return_stolen(players, me, [c.copy for c in returned])
    _log(
        game,
        me.user,
        "replenish",
        f"{me.user.username} discards {len(discards)} card{'s' if len(discards) != 1 else ''} "
        f"and draws {drawn} (hand {len(me.hand)}).",
        seed,
    )
    _log_returned(game, me, back, "discarded")


def _token(tokens: list[TileToken], pk: int | None) -> TileToken:
    if pk is None:
        raise services.GameError("Choose a token.")
    token = next((t for t in tokens if t.pk == pk), None)
    if token is None:
        raise services.GameError("Choose a token on this board.")
    return token


def _chosen_token(tokens: list[TileToken], pk: int | None, action: str) -> TileToken:
    """The token the play ``action`` acts on, one the engine allows for it."""
    token = _token(tokens, pk)
    _engine(gh.check_token_choice, action, token.kind, token.revealed, token.state == TileToken.ON_BOARD)
    return token


def _start_battle(game: Game, me: Player, token: TileToken) -> None:
    game.phase = Game.BATTLE
    game.battle = {
        "seat": me.seat,
        "token": token.pk,
        "played": [],
        "offers": [],
        "challenger": None,
        "challenge": [],
        "challenge_values": [],
        "parry": [],
        "parried_values": [],
        "response": [],
    }


def _do_reveal(game, players, tokens, me, current, move: Move) -> None:
    game.moved = True
    token = _chosen_token(tokens, move.token, "reveal")
    token.revealed = True
    game.encountered = True
    _log(game, me.user, "reveal", f"{me.user.username} enters {token.label.lower()} and reveals {_what(token)}.")
    _encounter(game, players, tokens, me, token)


def _what(token: TileToken) -> str:
    return {
        "ghoul": f"a strength-{token.strength} Ghoul ({count_noun(token.victory_points, 'Victory Point')})",
        "hole": "a Hole",
        "first-aid": "a First-Aid Kit",
        "ghoo-gun": "a Ghoo Gun",
    }.get(token.kind, token.kind)


def _encounter(game: Game, players: list[Player], tokens: list[TileToken], who: Player, token: TileToken) -> None:
    """``who`` resolves the encounter with the revealed ``token``: entered by movement on their turn, or moved
    onto their square by the player whose turn it is ("that player must resolve that encounter immediately,
    even though it is not their turn"). A player in a Hole "is helpless against any encounter" (l.405-412)."""
    if token.kind == "ghoul":
        if who.in_hole:
            result = gh.ghoul_battle(token.strength, token.victory_points, current_icv(who, tokens), in_hole=True)
            _log(
                game,
                who.user,
                "battle-lost",
                f"{who.user.username} is in a Hole and cannot play Value cards: "
                f"the battle against the strength-{token.strength} Ghoul is lost. The Ghoul stays on its square.",
            )
            _wound(
                game,
                players,
                who,
                result.wounds,
                tokens,
                f"a lost Ghoul battle, {count_noun(result.wounds, 'green dot')}",
            )
            who.save(update_fields=WOUND_FIELDS)
        else:
            _start_battle(game, who, token)
    elif token.kind == "hole":
        if who.in_hole:
            token.state = TileToken.REMOVED
            _log(
                game,
                who.user,
                "hole",
                f"{who.user.username} is already in a Hole: only one Hole token can be "
                "placed on a square, so the uppermost Hole token is removed from the board.",
            )
        else:
            if who.seat == game.current_seat:
                token.save(update_fields=["revealed", "holder", "state"])  # before the end check (GT12)
            _fall_into_hole(game, players, tokens, who, "falls into the Hole")
    elif token.kind == "first-aid":
        if who.in_hole:
            _log(
                game,
                who.user,
                "first-aid",
                f"{who.user.username} is in a Hole and can take no action: the kit stays on the square, revealed.",
            )
        elif who.wounds:
            game.phase = Game.FIRST_AID
            game.battle = {"token": token.pk, "seat": who.seat}
        else:
            _log(
                game,
                who.user,
                "first-aid",
                f"{who.user.username} has no wounds: the kit stays on the square, revealed.",
            )
    elif token.kind == "ghoo-gun":
        token.holder, token.state = who, TileToken.TAKEN
        _log(
            game,
            who.user,
            "ghoo-gun",
            f"{who.user.username} takes the Ghoo Gun: Initial Combat Value "
            f"{current_icv(who, tokens)} for the rest of the game.",
        )
    token.save(update_fields=["revealed", "holder", "state"])


def _do_enter(game, players, tokens, me, current, move: Move) -> None:
    """The player enters a square holding a revealed Hole or Ghoo Gun (one left face up: by a Hole that took
    someone earlier, or by Cornealius' specialty). A Hole "can be encountered by other players"; Stacking,
    Example 1: "Because the Hole is the uppermost token, he is out of the game until the beginning of his next
    turn". A Ghoul is battled ("fight") and a First-Aid Kit used ("first-aid") through their own buttons."""
    game.moved = True
    token = _chosen_token(tokens, move.token, "enter")
    game.encountered = True
    _log(game, me.user, "enter", f"{me.user.username} enters {token.label.lower()}, {_what(token)}, and stops.")
    _encounter(game, players, tokens, me, token)


def _do_fight(game, players, tokens, me, current, move: Move) -> None:
    token = _chosen_token(tokens, move.token, "fight")
    game.encountered = True
    _log(
        game,
        me.user,
        "fight",
        f"{me.user.username} battles the strength-{token.strength} Ghoul on {token.label.lower()}.",
    )
    _start_battle(game, me, token)


def _heal(game: Game, players: list[Player], me: Player, token: TileToken) -> None:
    piles, stolen = gh.first_aid(piles_of(me))
    healed = len(me.wounds) - len(stolen)
    store_piles(me, piles)
    me.save(update_fields=["hand", "draw", "discard", "wounds"])
    # "Any stolen cards that are in the wound stack are returned to the owning player"
    back = _return_stolen(players, me, [c.copy for c in stolen])
    token.state = TileToken.USED
    token.save(update_fields=["state"])
    _log(
        game,
        me.user,
        "first-aid",
        f"{me.user.username} uses the First-Aid Kit: {healed} wound card"
        f"{'s' if healed != 1 else ''} back to the discard pile; the kit is removed from the board.",
    )
    _log_returned(game, me, back, "healed")


def _do_first_aid(game, players, tokens, me, current, move: Move) -> None:
    if game.phase == Game.FIRST_AID:
        token = _token(tokens, game.battle["token"])
    else:
        token = _chosen_token(tokens, move.token, "first-aid")
        game.encountered = True
    _heal(game, players, me, token)
    game.phase, game.battle = Game.TURN, None


def _do_leave_first_aid(game, players, tokens, me, current, move: Move) -> None:
    game.phase, game.battle = Game.TURN, None
    _log(game, me.user, "first-aid", f"{me.user.username} leaves the First-Aid Kit on the square, revealed.")


def _do_play(game, players, tokens, me, current, move: Move) -> None:
    battle = game.battle
    token = _token(tokens, battle["token"])
    ids = _card_ids(move.cards)
    cards = _from_hand(me, ids)
    _values(cards)
    reveals = _specialty_reveals(me, tokens, cards, move)
    battle["played"] = ids
    _put_down(me, ids)
    me.save(update_fields=["hand"])
    result = _battle_result(battle, token, me, current_icv(me, tokens, battle))
    _log(
        game,
        me.user,
        "play",
        f"{me.user.username} puts down {card_text(cards)}: Initial Combat Value "
        f"{current_icv(me, tokens, battle)} + {sum(c['value'] for c in cards)} = {result.total_before_challenge} "
        f"against strength {token.strength} ({result.needed} needed).",
    )
    _reveal_on_tile(game, me, reveals)
    if not result.won:
        _finish_battle(game, players, tokens, result)
        return
    seating = [p.seat for p in players]
    unable = [p.seat for p in players if p.in_hole]
    battle["offers"] = list(gh.challenge_order(seating, me.seat, unable=unable))
    if not battle["offers"]:
        _finish_battle(game, players, tokens, result)
    else:
        game.phase = Game.CHALLENGE


def _do_challenge(game, players, tokens, me, current, move: Move) -> None:
    battle = game.battle
    ids = _card_ids(move.cards)
    _engine(gh.check_challenge, len(ids))
    cards = _from_hand(me, ids)
    values = _values(cards)
    reveals = _specialty_reveals(me, tokens, cards, move)
    _put_down(me, ids)
    me.save(update_fields=["hand"])
    battle.update({"challenger": me.seat, "challenge": ids, "challenge_values": list(values), "offers": []})
    battler = next(p for p in players if p.seat == battle["seat"])
    token = _token(tokens, battle["token"])
    result = _battle_result(battle, token, battler, current_icv(battler, tokens, battle))
    _log(
        game,
        me.user,
        "challenge",
        f"{me.user.username} challenges with {card_text(cards)}: "
        f"{battler.user.username}'s total drops to {result.after_challenge} ({result.needed} needed).",
    )
    _reveal_on_tile(game, me, reveals)
    if result.won:
        _finish_battle(game, players, tokens, result)
    else:
        game.phase = Game.RESPONSE


def _do_decline(game, players, tokens, me, current, move: Move) -> None:
    battle = game.battle
    battle["offers"] = battle["offers"][1:]
    _log(game, me.user, "decline", f"{me.user.username} declines to challenge.")
    if not battle["offers"]:
        battler = next(p for p in players if p.seat == battle["seat"])
        token = _token(tokens, battle["token"])
        _finish_battle(
            game, players, tokens, _battle_result(battle, token, battler, current_icv(battler, tokens, battle))
        )


def _do_respond(game, players, tokens, me, current, move: Move) -> None:
    battle = game.battle
    ids = _card_ids(move.cards)
    parry_ids = _card_ids(move.parry)
    if set(ids) & set(parry_ids):
        _engine(gh.check_parries, True, True, 0, 0)
    cards = _from_hand(me, ids)
    parries = _from_hand(me, parry_ids)
    _engine(
        gh.check_parries,
        False,
        all(is_card(c, "parry") for c in parries),
        len(parries),
        len(battle["challenge_values"]),
    )
    _values(cards)
    reveals = _specialty_reveals(me, tokens, cards, move)
    # each Parry ignores one challenge card: the highest ones (the battling player's best choice)
    battle["parried_values"] = sorted(battle["challenge_values"], reverse=True)[: len(parries)]
    battle["parry"] = parry_ids
    battle["response"] = ids
    token = _token(tokens, battle["token"])
    result = _battle_result(battle, token, me, current_icv(me, tokens, battle), response=True)
    _put_down(me, ids + parry_ids)
    me.save(update_fields=["hand"])
    parry_text = f", Parry ignores {', '.join(map(str, battle['parried_values']))}" if parries else ""
    _log(
        game,
        me.user,
        "respond",
        f"{me.user.username} answers with {card_text(cards)}{parry_text}: "
        f"total {result.total} ({result.needed} needed)."
        if cards or parries
        else f"{me.user.username} has no answer to the challenge.",
    )
    _reveal_on_tile(game, me, reveals)
    _finish_battle(game, players, tokens, result)


def _specialty_reveals(me: Player, tokens: list[TileToken], cards: list[dict], move: Move) -> list[TileToken]:
    """The face-down tokens Cornealius reveals with the Specialty cards of this play ("Cornealius can reveal a
    token on his tile every time he uses a Specialty card"): at most one per Specialty card, all on one tile
    (his), each face down on the board. Checked before anything changes (GT16)."""
    raw = list(move.reveal)
    if not raw:
        return []
    used = sum(1 for c in cards if c["type"] in SPECIALTY_TYPES)
    # the rules first (who, how many), then which tokens: as many as allowed are read before they are checked
    _engine(
        gh.check_specialty_reveal_choice, me.character, me.dead, used, [gh.RevealChoice("", False, True, 0)] * len(raw)
    )
    chosen = [_token(tokens, x) for x in raw]
    _engine(
        gh.check_specialty_reveal_choice,
        me.character,
        me.dead,
        used,
        [gh.RevealChoice(t.label, t.revealed, t.state == TileToken.ON_BOARD, t.tile) for t in chosen],
        len({t.pk for t in chosen}) == len(chosen),
    )
    return chosen


def _reveal_on_tile(game: Game, me: Player, chosen: list[TileToken]) -> None:
    """Cornealius' specialty: the token is flipped over where it lies. He does not enter its square, so it is
    no encounter: nothing is resolved, his movement and his turn's encounter are untouched, and the token
    stays on its square, face up, for whoever enters it (GT16)."""
    for t in chosen:
        t.revealed = True
        t.save(update_fields=["revealed"])
        _log(
            game,
            me.user,
            "specialty-reveal",
            f"{me.user.username} (Cornealius' specialty, with the Specialty "
            f"card) reveals {t.label.lower()} on his tile: {_what(t)}. It stays on its square, face up; no "
            "encounter.",
        )


def _do_card(game, players, tokens, me, current, move: Move) -> None:
    """Play an Action, Rescue or Specialty card from the hand: it goes to the discard pile and the log;
    its effect is applied at the table (the tracker referees battles, tokens and wounds), except Heavy
    Artillery / The Right Ghoo for the Job, which set the battle's Initial Combat Value (GT13)."""
    ids = _card_ids([move.card])
    card = _from_hand(me, ids)[0]
    if card["type"] == BoxCard.VALUE:
        raise services.GameError("Value cards are put down in a Ghoul battle or a challenge.")
    is_action = card["type"] in (BoxCard.ACTION, BoxCard.SPECIALTY_ACTION)
    sets_icv = any(is_card(card, slug) for slug in STRENGTH_ICV_CARDS)
    _engine(gh.check_card, table_state(game, players), me.seat, is_action, sets_icv, card["name"])
    reveals = _specialty_reveals(me, tokens, [card], move)
    if is_action:
        _count_action_card(game)
    back = _discard(players, me, ids)
    me.save(update_fields=["hand", "discard"])
    if is_card(card, "steal"):
        # played without its form: nothing is taken (an Inaction cancelled it at the table, GT20); its
        # catalogue text is a rules sentence about stolen cards, not what happened
        effect = ": nothing is taken (settled at the table, e.g. cancelled by an Inaction)."
    else:
        effect = f": {card['text']}" if card.get("text") else "."
    _log(
        game,
        me.user,
        "card",
        f"{me.user.username} plays {card['name']} ({TYPE_LABELS.get(card['type'], card['type'])}){effect}",
    )
    _log_returned(game, me, back, "played")
    if sets_icv:
        game.battle["icv_card"] = card["id"]
        token = _token(tokens, game.battle["token"])
        _log(
            game,
            me.user,
            "icv",
            f"{me.user.username}'s Initial Combat Value in this battle becomes the Ghoul's "
            f"strength: {current_icv(me, tokens, game.battle)} ({token.strength + gh.BEAT_BY} needed).",
        )
    _reveal_on_tile(game, me, reveals)


def _discard(players: list[Player], player: Player, ids: list[int]) -> list[dict]:
    """Cards played from the hand: off the hand, then to the discard pile or back to their owners
    (``_to_discard``); returns the stolen ones given back."""
    _put_down(player, ids)
    return _to_discard(players, player, ids)


# ---------------------------------------------------------------------------
# Stolen cards (GT20)
# ---------------------------------------------------------------------------


def _to_discard(players: list[Player], player: Player, ids: list[int]) -> list[dict]:
    """Cards that have left ``player``'s hand (played, put down, discarded): their own go to their discard
    pile, the stolen ones back to the owning player (``gh.leaving_the_hand``); returns those given back."""
    by_id = {c["id"]: c for c in player.deck}
    own, stolen = gh.leaving_the_hand(player.character, [engine_card(by_id[i]) for i in ids])
    player.discard = player.discard + [c.copy for c in own]
    return _return_stolen(players, player, [c.copy for c in stolen])


def _return_stolen(players: list[Player], holder: Player, ids: list[int]) -> list[dict]:
    """Stolen cards leaving ``holder``'s piles go back to the owning player's discard pile ("they are returned
    to the owning player"; healed wounds "are returned to the player's discard stack"). The copy in the
    holder's deck, which only stood for the owner's card, is dropped. Returns the cards given back."""
    if not ids:
        return []
    by_id = {c["id"]: c for c in holder.deck}
    back = []
    for i in ids:
        card = by_id[i]
        owner = next(p for p in players if p.character == card["owner"])
        owner.discard = owner.discard + [card["owner_id"]]
        owner.save(update_fields=["discard"])
        back.append({**card, "owner_name": owner.user.username})
    holder.deck = [c for c in holder.deck if c["id"] not in ids]
    holder.save(update_fields=["deck"])
    return back


def _log_returned(game: Game, holder: Player, back: list[dict], how: str) -> None:
    """One log line for stolen cards given back. ``how``: "played" (put down in the open: a battle, a played
    card, so the line names them), "discarded" (at Replenishment), "healed" (First-Aid) or "dead" (the
    wound stack of a character who has died): these say only how many."""
    if not back:
        return
    owners = " and ".join(sorted({c["owner_name"] for c in back}))
    cards = count_noun(len(back), "stolen card")
    goes = "goes" if len(back) == 1 else "go"
    if how == "played":
        text = (
            f"{', '.join(card_label(c) for c in back)} {'was' if len(back) == 1 else 'were'} stolen from "
            f"{owners}: back to {owners}'s discard pile."
        )
    elif how == "discarded":
        text = f"{holder.user.username} discards {cards}: back to {owners}'s discard pile, not replaced."
    else:
        text = f"{cards} in {holder.user.username}'s wound stack {goes} back to {owners}'s discard pile" + (
            " (the character is dead)." if how == "dead" else "."
        )
    _log(game, holder.user, "stolen-back", text)


def _give(players: list[Player], thief: Player, victim: Player, card_id: int) -> dict:
    """The card ``card_id`` of the victim's hand goes into the thief's hand: the thief's own card again if it
    was theirs, otherwise a stolen card (a copy in the thief's deck naming its owner and the owner's id)."""
    by_id = {c["id"]: c for c in victim.deck}
    card = by_id[card_id]
    victim.hand = [i for i in victim.hand if i != card_id]
    owner_id = card.get("owner_id", card_id)
    if card.get("owner_id") is not None:  # a card the victim had stolen: its copy leaves their deck
        victim.deck = [c for c in victim.deck if c["id"] != card_id]
    if card["owner"] == thief.character:
        thief.hand = thief.hand + [owner_id]
        return next(c for c in thief.deck if c["id"] == owner_id)
    new_id = max((c["id"] for c in thief.deck), default=0) + 1
    copy = {k: v for k, v in card.items() if k != "owner_id"} | {"id": new_id, "owner_id": owner_id}
    thief.deck = thief.deck + [copy]
    thief.hand = thief.hand + [new_id]
    return copy


def _do_steal(game, players, tokens, me, current, move: Move) -> None:
    """The Steal card (GT20). The text names it ("Some cards, particularly the Steal card, may increase the
    number of cards in a hand to more than seven") and says what stolen cards do, not what the card says:
    the tracker takes one card at random from the hand of the opponent named (a blind pick, as wounds are
    taken), into the player's hand as a stolen card. The log says who stole from whom; which card, only the
    two of them see."""
    card = _from_hand(me, _card_ids([move.card]))[0]
    if not is_card(card, "steal") or card["type"] == BoxCard.VALUE:
        raise services.GameError("Choose a Steal card from your hand.")
    is_action = card["type"] in (BoxCard.ACTION, BoxCard.SPECIALTY_ACTION)
    _engine(gh.check_card, table_state(game, players), me.seat, is_action, False, card["name"])
    if len(move.targets) > 1:
        raise services.GameError("Name one opponent to steal from.")
    victim = next((p for p in players if move.targets and p.seat == move.targets[0]), None)
    _engine(
        gh.check_steal_target,
        me.seat,
        victim.seat if victim else None,
        victim.user.username if victim else "",
        len(victim.hand) if victim else 0,
    )
    assert victim is not None
    reveals = _specialty_reveals(me, tokens, [card], move)
    if is_action:
        _count_action_card(game)
    back = _discard(players, me, [card["id"]])
    seed = secrets.randbits(32)
    _piles, taken = gh.steal(piles_of(victim), random.Random(seed))
    _give(players, me, victim, taken.copy)
    me.save(update_fields=["deck", "hand", "discard"])
    victim.save(update_fields=["deck", "hand"])
    _log(
        game,
        me.user,
        "steal",
        f"{me.user.username} plays {card['name']} ({TYPE_LABELS.get(card['type'], card['type'])}) and takes a "
        f"card at random from {victim.user.username}'s hand (now {len(victim.hand)}): "
        f"a stolen card in {me.user.username}'s hand (now {len(me.hand)}), not counted toward the "
        f"{gh.HAND_SIZE}. Which card, only the two of them see.",
        seed,
    )
    _log_returned(game, me, back, "played")
    _reveal_on_tile(game, me, reveals)


def _action_card(me: Player, move: Move, slug: str, name: str) -> dict:
    card = _from_hand(me, _card_ids([move.card]))[0]
    if card["type"] != BoxCard.ACTION or not is_card(card, slug):
        raise services.GameError(f"Choose a {name} Action card from your hand.")
    return card


def _targets(players: list[Player], me: Player, move: Move) -> list[Player]:
    """The opponents standing on the square an Action card targets (FAQ: every player on it is hit)."""
    targets = _players_on_a_square(players, move.targets, "Choose the opponents on the target square.")
    if not targets or me in targets:
        raise services.GameError("Choose the opponents on the target square.")
    return targets


def _players_on_a_square(players: list[Player], seats: tuple[int, ...], message: str) -> list[Player]:
    """The living players a form names by seat, each once; ``message`` for anything else."""
    by_seat = {p.seat: p for p in players}
    if len(set(seats)) != len(seats) or any(x not in by_seat for x in seats):
        raise services.GameError(message)
    chosen = [by_seat[x] for x in seats]
    dead = [p.user.username for p in chosen if p.dead]
    if dead:
        raise services.GameError(f"{', '.join(dead)}: the character is dead, the playing piece is off the board.")
    return chosen


def _names(targets: list[Player]) -> str:
    return " and ".join(t.user.username for t in targets)


def _do_hole(game, players, tokens, me, current, move: Move) -> None:
    """A Hole Action card played on a square where opponents stand (l.385-402, FAQ): each falls into the Hole,
    out of the game until the beginning of their next turn (GT14)."""
    card = _action_card(me, move, "hole", "Hole")
    targets = _targets(players, me, move)
    _engine(gh.check_hole_targets, [t.user.username for t in targets if t.in_hole])
    _count_action_card(game)
    back = _discard(players, me, [card["id"]])
    me.save(update_fields=["hand", "discard"])
    _log_returned(game, me, back, "played")
    for t in targets:
        t.in_hole = True
        t.save(update_fields=["in_hole"])
    _log(
        game,
        me.user,
        "hole",
        f"{me.user.username} plays {card['name']} (Action) on the square of {_names(targets)}: "
        f"a Hole token under their playing piece; {_names(targets)} "
        f"{'falls' if len(targets) == 1 else 'fall'} into the Hole, out of the game until the beginning of "
        f"{'their' if len(targets) == 1 else 'each one’s'} next turn.",
    )


def _do_debris(game, players, tokens, me, current, move: Move) -> None:
    """A Debris Action card, perhaps with one Value card, played on a square where opponents stand
    (l.421-461, FAQ): each suffers 1 wound plus the Value, taken like battle wounds (GT15)."""
    card = _action_card(me, move, "debris", "Debris")
    targets = _targets(players, me, move)
    value_ids = list(move.value)
    _engine(gh.check_debris_values, len(value_ids))
    value_cards = _from_hand(me, [card["id"]] + value_ids)[1:]
    value = _values(value_cards)[0] if value_cards else None
    wounds = gh.debris_wounds(by_action=True, value_card=value)
    _count_action_card(game)
    back = _discard(players, me, [card["id"]] + value_ids)
    _log(
        game,
        me.user,
        "debris",
        f"{me.user.username} plays {card['name']} (Action)"
        + (f" with {card_text(value_cards)}" if value_cards else "")
        + f" on the square of {_names(targets)}: a Debris token under their playing piece.",
    )
    _log_returned(game, me, back, "played")
    for t in targets:
        _wound(game, players, t, wounds, tokens, "a Debris Action card" + (f" enhanced by a {value}" if value else ""))
    Player.objects.bulk_update(players, WOUND_FIELDS)


def _do_debris_square(game, players, tokens, me, current, move: Move) -> None:
    """The player enters a square holding Debris tokens: one wound per token, cumulative (l.421-461); it is the
    turn's encounter (Stacking, Example 2) (GT15)."""
    game.moved = True
    most = debris_in_game(players)
    count = move.tokens or 0
    _engine(gh.check_debris_tokens, count, most)
    game.encountered = True
    wounds = gh.debris_wounds(by_action=False, tokens=count)
    _log(
        game,
        me.user,
        "debris",
        f"{me.user.username} enters a square with {count} Debris token{'s' if count != 1 else ''} and stops.",
    )
    _wound(game, players, me, wounds, tokens, "Debris, one wound per token")
    Player.objects.bulk_update([me], WOUND_FIELDS)


def _do_hole_square(game, players, tokens, me, current, move: Move) -> None:
    """The player enters a square where a Hole Action card placed a Hole token: "The Hole token stays on the
    square for the remainder of the game and can be encountered by other players" (l.385-390); Stacking,
    Example 1: "Because the Hole is the uppermost token, he is out of the game until the beginning of his next
    turn". The Hole tokens of the deal are entered with their own "Enter" button (GT19)."""
    game.moved = True
    game.encountered = True
    _fall_into_hole(
        game, players, tokens, me, "enters a square with a Hole token placed by a Hole card and falls into the Hole"
    )


def _fall_into_hole(game: Game, players: list[Player], tokens: list[TileToken], who: Player, how: str) -> None:
    """``who`` is out of the game until the beginning of their next turn; on their own turn, that ends it
    (the last token may be this Hole: GT12)."""
    who.in_hole = True
    who.save(update_fields=["in_hole"])
    _log(game, who.user, "hole", f"{who.user.username} {how}: out of the game until the beginning of their next turn.")
    if who.seat == game.current_seat:
        _end_if_over(game, players, tokens, who.user)
        if game.status == Game.PLAYING:
            _end_turn(game, players, who)


def _engine(check, *args) -> None:
    """Run one of the engine's checks; its refusal becomes the player's message."""
    try:
        check(*args)
    except gh.NotNow as exc:  # already a sentence for the player
        raise services.GameError(str(exc)) from None
    except gh.IllegalPlay as exc:
        msg = str(exc)
        raise services.GameError(msg[0].upper() + msg[1:] + ".") from None


def _count_action_card(game: Game) -> None:
    """One more Action card this turn (the engine allowed it): the turn's Action is taken (GT9, GT18)."""
    game.action_cards += 1
    game.action_taken = True


def _do_give_up_movement(game, players, tokens, me, current, move: Move) -> None:
    """Zone's specialty: "sacrifice movement during a turn in order to play two Action cards in that turn,
    rather than one" (GT9). Declared before the second Action card; no square is entered afterwards."""
    game.gave_up_movement = True
    _log(
        game,
        me.user,
        "give-up-movement",
        f"{me.user.username} gives up movement this turn to play "
        f"{gh.trades_movement_for_action_cards(me.character)} Action cards (Zone's specialty).",
    )


def _tile(tile: int | None, message: str) -> int:
    if tile is None or not 1 <= tile <= gh.TILES:
        raise services.GameError(message)
    return tile


def _do_move_token(game, players, tokens, me, current, move: Move) -> None:
    """The Action's option B: "move an unrevealed Encounter Token up to five spaces ... The token being moved
    cannot be on the tile currently occupied by the player, nor can the player move the token onto their
    tile" (Lake excepted: "Lake can move tokens that are on his own tile"). "A token can be moved into a square
    occupied by another player, in which case that player must resolve that encounter immediately, even though
    it is not their turn" (GT17, GT18). The tracker has no squares: the player gives their tile, the tile the
    token goes to and who stands on the square it lands on; the spaces and walls are counted at the table."""
    token = _chosen_token(tokens, move.token, "move-token")
    to_tile = _tile(move.to_tile, f"Choose the tile the token is moved to (1 to {gh.TILES}).")
    my_tile = (
        None
        if me.dead
        else _tile(
            move.my_tile,
            f"Give the tile your playing piece is on (1 to {gh.TILES}): the tracker has no squares.",
        )
    )
    try:
        gh.check_token_move(me.character, token.tile, to_tile, my_tile)
    except gh.IllegalPlay as exc:
        msg = str(exc)
        raise services.GameError(msg[0].upper() + msg[1:] + ".") from None
    on_square = _players_on_a_square(
        players, move.on_square, "Choose the players standing on the square the token is moved to."
    )
    _engine(gh.check_landing, me in on_square, my_tile, to_tile)
    old_label, from_tile = token.label, token.tile
    if to_tile != token.tile:
        token.slot = max((t.slot for t in tokens if t.tile == to_tile), default=0) + 1
        token.tile = to_tile
    game.action_taken = True
    specialty = (
        " (Lake's specialty: he moves tokens on his own tile and onto it)"
        if me.character == gh.MOVES_TOKENS_ON_OWN_TILE and my_tile in (from_tile, to_tile)
        else ""
    )
    where = f"to tile {to_tile} (now {token.label.lower()})" if to_tile != from_tile else "on its tile"
    _log(
        game,
        me.user,
        "move-token",
        f"{me.user.username} moves the face-down {old_label.lower()} up to "
        f"{gh.MOVE_TOKEN_SPACES} spaces {where}{specialty}.",
    )
    if not on_square:
        token.save(update_fields=["tile", "slot"])
        return
    token.revealed = True
    token.save(update_fields=["tile", "slot", "revealed"])
    names = [p.user.username for p in on_square]
    _log(
        game, me.user, "move-token", f"It lands on the square of {' and '.join(names)} and is revealed: {_what(token)}."
    )
    if token.kind == "hole" and any(p.in_hole for p in on_square):
        token.state = TileToken.REMOVED
        token.save(update_fields=["state"])
        _log(
            game,
            me.user,
            "hole",
            "A Hole token is already on that square: only one Hole token can be placed "
            "on a square, so the uppermost Hole token is removed from the board.",
        )
        return
    order = gh.moved_token_resolvers([p.user.username for p in players], me.user.username, names, token.kind)
    by_name = {p.user.username: p for p in players}
    for name in order:
        who = by_name[name]
        if who.pk == me.pk:
            game.encountered = True  # "Any encounter ... ends the player's movement"
        _encounter(game, players, tokens, who, token)


def _end_turn(game: Game, players: list[Player], me: Player) -> None:
    seats = [p.seat for p in players]
    nxt = next(p for p in players if p.seat == seats[(seats.index(me.seat) + 1) % len(seats)])
    game.current_seat = nxt.seat
    game.turn += 1
    game.phase = Game.TURN_START
    game.encountered = False
    game.action_taken = False
    game.action_cards = 0
    game.moved = False
    game.gave_up_movement = False
    game.battle = None
    _log(game, nxt.user, "turn", f"Turn {game.turn}: {nxt.user.username}'s turn.")
    if nxt.in_hole:
        nxt.in_hole = False
        nxt.save(update_fields=["in_hole"])
        _log(game, nxt.user, "hole", f"{nxt.user.username} climbs out of the Hole.")


def _do_end_turn(game, players, tokens, me, current, move: Move) -> None:
    _end_turn(game, players, me)


HANDLERS = {
    "replenish": _do_replenish,
    "reveal": _do_reveal,
    "fight": _do_fight,
    "first-aid": _do_first_aid,
    "leave-first-aid": _do_leave_first_aid,
    "play": _do_play,
    "challenge": _do_challenge,
    "decline": _do_decline,
    "respond": _do_respond,
    "card": _do_card,
    "end-turn": _do_end_turn,
    "hole": _do_hole,
    "debris": _do_debris,
    "debris-square": _do_debris_square,
    "move-token": _do_move_token,
    "enter": _do_enter,
    "hole-square": _do_hole_square,
    "give-up-movement": _do_give_up_movement,
    "steal": _do_steal,
}


def play(game: Game, players: list[Player], tokens: list[TileToken], me: Player, action: str, move: Move) -> None:
    """``me`` makes the play ``action`` with the choices of ``move``: the engine says whether
    they may now, the handler reads the play's choices and applies it, then the end check (GT4, GT12)."""
    _engine(gh.check, table_state(game, players), me.seat, action)
    current = next(p for p in players if p.seat == game.current_seat)
    HANDLERS[action](game, players, tokens, me, current, move)
    _end_if_over(game, players, tokens, me.user)
