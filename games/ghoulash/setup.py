"""A new Ghoulash game: the players' seats checked, the tokens dealt and each deck shuffled and dealt."""

from __future__ import annotations

import random
import secrets

from django.contrib.auth import get_user_model
from django.db import transaction

from games.ghoulash import services
from games.ghoulash.decks import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    box_problems,
    engine_card,
    ghoul_values,
    profiles,
)
from games.ghoulash.models import Game, GhoulashBox, Player, TileToken
from games.ghoulash.permissions import check_user_can_play_box
from rules import ghoulash as gh


def _log(game: Game, actor, kind: str, text: str, seed: int | None = None):
    """Append to the game's public event log (``services._log``, the one place that writes it)."""
    return services._log(game, actor, kind, text, seed)


def game_tokens(
    cat: dict, box: GhoulashBox, lock_and_load: bool
) -> tuple[list[gh.EncounterToken], list[gh.EncounterToken]]:
    """The core Encounter Tokens (catalogue counts, Ghoul VP from the rules or the box) and the scenario extras."""
    vp = {g["strength"]: g["victory_points"] for g in ghoul_values(box, cat)}
    core = []
    for entry in cat["encounter_tokens"]:
        for i in range(int(entry.get("count") or 0)):
            strength = entry.get("strength")
            core.append(
                gh.EncounterToken(entry["kind"], strength, vp.get(strength) if entry["kind"] == "ghoul" else None, i)
            )
    extras = []
    if lock_and_load:
        gun = next((t for t in cat["other_tokens"] if t.get("slug") == "ghoo-gun"), None)
        if gun is None:
            raise services.GameError("The catalogue has no Ghoo Gun tokens (Lock and Load).")
        extras = [gh.EncounterToken("ghoo-gun", None, None, i) for i in range(int(gun.get("count") or 0))]
    return core, extras


@transaction.atomic
def create_game(
    creator, box: GhoulashBox, name: str, seats: list[tuple[str, str]], lock_and_load: bool = False
) -> Game:
    """Set up and start a game: ``seats`` are (username, character slug) in table order, the first plays first."""
    check_user_can_play_box(creator, box)
    name = (name or "").strip()[:100] or f"{box.name} game"
    seats = [(u.strip(), c) for u, c in seats if u.strip() or c]
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise services.GameError(f"A game has {MIN_PLAYERS} to {MAX_PLAYERS} players.")
    cat = services.catalogue()
    profile = {p["slug"]: p for p in profiles(box, cat)}
    User = get_user_model()
    users, chars = [], []
    for username, slug in seats:
        if not username or not slug:
            raise services.GameError("Give each seat a player and a character.")
        if slug not in profile:
            raise services.GameError(f"There is no character {slug!r}.")
        user = User.objects.named(username)
        if user is None:
            raise services.GameError(f"There is no user called {username!r}.")
        users.append(user)
        chars.append(slug)
    if len({u.pk for u in users}) != len(users):
        raise services.GameError("Each player takes one seat.")
    if len(set(chars)) != len(chars):
        raise services.GameError("Each character deck can be played by one player only.")
    if creator.pk not in {u.pk for u in users}:
        raise services.GameError("Take a seat yourself: the game belongs to its players.")
    cards = list(box.cards.all())
    problems = box_problems(box, cat, cards, chars)
    if problems:
        raise services.SetupProblems(problems)
    core, extras = game_tokens(cat, box, lock_and_load)
    if len(core) != gh.TILES * gh.TOKENS_PER_TILE:
        raise services.GameError(
            f"The catalogue lists {len(core)} core tokens; the board takes {gh.TILES * gh.TOKENS_PER_TILE}."
        )

    deal_seed = secrets.randbits(32)
    game = Game.objects.create(
        box=box, creator=creator, name=name, scenario_lock_and_load=lock_and_load, deal_seed=deal_seed
    )
    board = gh.deal_board(random.Random(deal_seed), core, extras)
    TileToken.objects.bulk_create(
        [
            TileToken(
                game=game,
                tile=tile + 1,
                slot=slot + 1,
                kind=p.token.kind,
                strength=p.token.strength,
                victory_points=p.token.victory_points,
            )
            for tile, placements in enumerate(board)
            for slot, p in enumerate(placements)
        ]
    )
    _log(
        game,
        creator,
        "deal",
        f"{creator.username} set up the game: {len(core)} core Encounter Tokens"
        + (f" and {len(extras)} Ghoo Gun tokens (Lock and Load)" if extras else "")
        + " shuffled face down onto the four tiles.",
        deal_seed,
    )
    for seat, (user, slug) in enumerate(zip(users, chars)):
        p = profile[slug]
        deck, n = [], 0
        for card in cards:
            if card.character == slug and card.count:
                for _ in range(card.count):
                    n += 1
                    deck.append(
                        {
                            "id": n,
                            "name": card.name,
                            "type": card.card_type,
                            "value": card.value,
                            "text": card.text,
                            "slug": card.catalogue_slug,
                            "owner": slug,
                        }
                    )
        seed = secrets.randbits(32)
        piles = gh.start_game(random.Random(seed), slug, [engine_card(c) for c in deck])
        Player.objects.create(
            game=game,
            user=user,
            seat=seat,
            character=slug,
            character_name=p["full_name"],
            initial_combat_value=p["numbers"]["initial_combat_value"],
            movement=p["numbers"]["movement"],
            health=p["numbers"]["health"],
            specialty=p["specialty"],
            deck=deck,
            hand=[c.copy for c in piles.hand],
            draw=[c.copy for c in piles.draw],
        )
        _log(
            game,
            user,
            "shuffle",
            f"{user.username} ({p['full_name']}) shuffles the deck of {len(deck)} and deals {len(piles.hand)} cards.",
            seed,
        )
    first = users[0]
    _log(game, first, "turn", f"Turn 1: {first.username} plays first.")
    return game
