"""Ghoulash: game boxes and the game tracker, one transactional function per change.

Every rule is the engine's (``rules.ghoulash``): a play locks the
game row (``select_for_update``), rebuilds the engine's ``Piles`` and numbers
from the rows, calls the engine, writes the result back and appends a public
``Event``. Random steps (the token deal, shuffles, replenishing, wound picks)
use ``random.Random(seed)`` with ``seed = secrets.randbits(32)`` stored on the
event; those seeds would replay hidden cards and tokens, so pages show them
only once the game is over.

Numbers come from the catalogue (``RulesEntry`` rows of "ghoulash", house
rules included) or, where the rules text has none, from the owner's game box.
"""

from __future__ import annotations

import random
import secrets

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.utils.text import slugify

from catalogue.loader import current_system
from core.games import kit
from core.locking import run_locked
from crewbuilder.models import RulesEntry
from rules import ghoulash as gh
from games.ghoulash.models import CHARACTER_SLUGS, BoxCard, Event, Game, GhoulashBox, Player, TileToken

SYSTEM = "ghoulash"
PARTS = ("characters", "encounter_tokens", "other_tokens", "cards", "rules")
STATS = ("initial_combat_value", "movement", "health")
STAT_LABELS = {"initial_combat_value": "Initial Combat Value", "movement": "Movement Points", "health": "Health"}
REQUIRED_STATS = ("initial_combat_value", "health")  # what the tracker needs to referee battles and death
MIN_PLAYERS, MAX_PLAYERS = 2, len(CHARACTER_SLUGS)
TYPE_KINDS = {
    BoxCard.VALUE: gh.CardKind.VALUE, BoxCard.ACTION: gh.CardKind.ACTION, BoxCard.RESCUE: gh.CardKind.RESCUE,
    BoxCard.SPECIALTY: gh.CardKind.SPECIALTY, BoxCard.SPECIALTY_VALUE: gh.CardKind.SPECIALTY,
    BoxCard.SPECIALTY_ACTION: gh.CardKind.SPECIALTY, BoxCard.SPECIALTY_RESCUE: gh.CardKind.SPECIALTY,
}
# a double-labelled Specialty card "is played with the limitations of the second label"
SECOND_LABELS = {BoxCard.SPECIALTY_VALUE: gh.CardKind.VALUE, BoxCard.SPECIALTY_ACTION: gh.CardKind.ACTION,
                 BoxCard.SPECIALTY_RESCUE: gh.CardKind.RESCUE}
TYPE_LABELS = dict(BoxCard.TYPES)
# Specialty cards that make the Initial Combat Value the Ghoul's strength (FAQ: Heavy Artillery, The Right Ghoo)
STRENGTH_ICV_CARDS = ("heavy-artillery", "the-right-ghoo-for-the-job")
# What a wound (or a lost battle) can change on a player
WOUND_FIELDS = ["hand", "draw", "discard", "wounds", "dead", "victory_points"]


class GameError(kit.Refused):
    """A refused change, with a message for the player."""


class SetupProblems(GameError):
    """A game box not ready for these characters: every gap at once (``problems``), not one per try."""

    def __init__(self, problems: list[str]):
        super().__init__("The game box is not ready for this game: " + " ".join(problems))
        self.problems = problems


# ---------------------------------------------------------------------------
# The catalogue
# ---------------------------------------------------------------------------

def catalogue() -> dict[str, list[dict]]:
    """The Ghoulash sections of the last loaded edition (house rules included): two queries."""
    system = current_system(SYSTEM)
    parts: dict[str, list[dict]] = {p: [] for p in PARTS}
    if system is None:
        return parts
    for row in RulesEntry.objects.filter(system=system, part__in=PARTS).order_by("part", "house_rule", "position", "id"):
        parts[row.part].append(row.to_entry())
    return parts


def known_cards(cat: dict) -> list[dict]:
    """The named cards of the catalogue (not the four type descriptions), each with the decks it goes in:
    a card with a ``deck`` is that character's; the others (Hole, Debris, Steal, Parry, Inaction) go in all."""
    out = []
    for entry in cat["cards"]:
        if entry.get("slug") == entry.get("kind"):  # "Value", "Action", ...: a type, not a card
            continue
        decks = [entry["deck"]] if entry.get("deck") else list(CHARACTER_SLUGS)
        out.append({**entry, "decks": decks})
    return out


# ---------------------------------------------------------------------------
# Game boxes
# ---------------------------------------------------------------------------

def value_rows(cat: dict) -> list[dict]:
    """One Value card row per value the text gives ("Value — ... ranging in value from 1 to 3"), for every
    deck ("All decks have Value cards in equal amounts"); how many of each only the printed decks say."""
    entry = next((c for c in cat["cards"] if c.get("slug") == BoxCard.VALUE), None)
    if entry is None or entry.get("min_value") is None or entry.get("max_value") is None:
        return []
    return [{"name": f"{entry['name']} {v}", "value": v, "slug": entry["slug"]}
            for v in range(entry["min_value"], entry["max_value"] + 1)]


@transaction.atomic
def create_box(owner, name: str) -> GhoulashBox:
    """A new box starting from what the text gives: a Value card row per value it names, then the catalogue's
    known cards, each in its decks (counts not entered: only the owner's printed decks hold them)."""
    name = (name or "").strip()[:100]
    if not name:
        raise GameError("Give the box a name.")
    box = GhoulashBox.objects.create(owner=owner, name=name)
    cat = catalogue()
    cards = []
    values = value_rows(cat)
    for position, row in enumerate(values):
        for slug in CHARACTER_SLUGS:
            cards.append(BoxCard(box=box, character=slug, card_type=BoxCard.VALUE, name=row["name"],
                                 value=row["value"], catalogue_slug=row["slug"], position=position))
    for position, entry in enumerate(known_cards(cat), start=len(values)):
        card_type = entry.get("kind") or ""
        for slug in entry["decks"]:
            cards.append(BoxCard(box=box, character=slug, card_type=card_type, name=entry["name"],
                                 text=entry.get("text", ""), catalogue_slug=entry["slug"], position=position))
    BoxCard.objects.bulk_create(cards)
    return box


class StaleCard(Exception):
    """The card was saved elsewhere (another tab or device) since the form was opened; ``card`` is the newer
    one (None: removed)."""

    def __init__(self, card: BoxCard | None):
        super().__init__("This card changed elsewhere since you opened it.")
        self.card = card


CARD_FIELDS = ["character", "card_type", "name", "value", "count", "text"]


def save_card(card: BoxCard, seen_version: int, fields=CARD_FIELDS) -> None:
    """Save ``card``'s ``fields`` only if nobody saved it since ``seen_version`` (optimistic locking, as the crew
    editor): raises StaleCard, never overwrites a newer save."""
    with transaction.atomic():
        saved = BoxCard.objects.filter(pk=card.pk, box_id=card.box_id, version=seen_version).update(
            **{f: getattr(card, f) for f in fields}, version=F("version") + 1)
        if not saved:
            raise StaleCard(BoxCard.objects.filter(pk=card.pk, box_id=card.box_id).first())
    card.version = seen_version + 1


class StaleCards(Exception):
    """Cards of a table saved elsewhere since it was opened: ``cards`` {pk: the newer card, None if removed}."""

    def __init__(self, cards: dict[int, BoxCard | None]):
        super().__init__("Some cards changed elsewhere since you opened the table.")
        self.cards = cards


@transaction.atomic
def save_cards(changes: list[tuple[BoxCard, int, list[str]]]) -> None:
    """Save several cards at once, each (card, version seen, fields changed), all or none: if one of them
    was saved elsewhere since, nothing is saved and StaleCards names them all."""
    stale: dict[int, BoxCard | None] = {}
    for card, seen, fields in changes:
        try:
            save_card(card, seen, fields)
        except StaleCard as exc:
            stale[card.pk] = exc.card
    if stale:
        transaction.set_rollback(True)
        raise StaleCards(stale)


def profiles(box: GhoulashBox, cat: dict) -> list[dict]:
    """Each character's profile: every number with where it comes from ("rules", "box" or None)."""
    out = []
    for entry in cat["characters"]:
        mine = (box.stats or {}).get(entry["slug"], {})
        stats = []
        for stat in STATS:
            if entry.get(stat) is not None:
                stats.append({"stat": stat, "label": STAT_LABELS[stat], "value": entry[stat], "source": "rules"})
            elif mine.get(stat) is not None:
                stats.append({"stat": stat, "label": STAT_LABELS[stat], "value": mine[stat], "source": "box"})
            else:
                stats.append({"stat": stat, "label": STAT_LABELS[stat], "value": None, "source": None})
        out.append({"slug": entry["slug"], "name": entry.get("name", entry["slug"]),
                    "full_name": entry.get("full_name", entry.get("name", "")), "specialty": entry.get("specialty", ""),
                    "stats": stats, "numbers": {s["stat"]: s["value"] for s in stats}})
    return out


def ghoul_values(box: GhoulashBox, cat: dict) -> list[dict]:
    """Each Ghoul strength of the core tokens with its Victory Points and where they come from."""
    out = []
    for entry in cat["encounter_tokens"]:
        if entry.get("kind") != "ghoul":
            continue
        strength = entry["strength"]
        if entry.get("victory_points") is not None:
            vp, source = entry["victory_points"], "rules"
        elif (box.ghoul_vp or {}).get(str(strength)) is not None:
            vp, source = box.ghoul_vp[str(strength)], "box"
        else:
            vp, source = None, None
        out.append({"strength": strength, "count": entry.get("count", 0), "victory_points": vp, "source": source})
    return sorted(out, key=lambda g: -g["strength"])


class StaleBox(Exception):
    """The box's numbers were saved elsewhere since the form was opened; ``box`` is the newer one."""

    def __init__(self, box: GhoulashBox):
        super().__init__("The numbers changed elsewhere since you opened the box.")
        self.box = box


def save_numbers(box: GhoulashBox, stats: dict, ghoul_vp: dict, seen_version: int | None = None) -> None:
    """Store the owner's numbers (only those the rules text leaves out). With ``seen_version`` (a form's), only
    if nobody saved them since: raises StaleBox, never overwrites a newer save."""
    box.stats = {slug: kept for slug, numbers in stats.items()
                 if (kept := {k: v for k, v in numbers.items() if v is not None})}
    box.ghoul_vp = {str(k): v for k, v in ghoul_vp.items() if v is not None}
    rows = GhoulashBox.objects.filter(pk=box.pk)
    if seen_version is not None:
        rows = rows.filter(version=seen_version)
    if not rows.update(stats=box.stats, ghoul_vp=box.ghoul_vp, version=F("version") + 1):
        raise StaleBox(GhoulashBox.objects.get(pk=box.pk))
    box.refresh_from_db(fields=["version"])


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def engine_card(card: BoxCard | dict, copy: int = 0) -> gh.Card:
    if isinstance(card, dict):
        return gh.Card(card["name"], TYPE_KINDS[card["type"]], card.get("value"), card["owner"], card["id"],
                       SECOND_LABELS.get(card["type"]))
    return gh.Card(card.name, TYPE_KINDS[card.card_type], card.value, card.character, copy,
                   SECOND_LABELS.get(card.card_type))


def is_card(card: dict, slug: str) -> bool:
    """A deck card is the catalogue's ``slug`` card (pre-listed, or added by hand under the same name)."""
    return card.get("slug") == slug or slugify(card.get("name", "")) == slug


def is_value_card(card: dict) -> bool:
    """May be put down as a Value in a battle or a challenge: a Value or SPECIALTY VALUE card (GT2)."""
    return card["type"] in BoxCard.VALUE_TYPES and card.get("value") is not None


def engine_decks(cards: list[BoxCard], slugs) -> dict[str, list[gh.Card]]:
    """The decks of these characters as engine cards, each counted card repeated ``count`` times."""
    decks: dict[str, list[gh.Card]] = {slug: [] for slug in slugs}
    for card in cards:
        if card.character in decks and card.card_type and card.count:
            decks[card.character].extend(engine_card(card, i) for i in range(card.count))
    return decks


def deck_problems(cards: list[BoxCard], slugs, names: dict | None = None) -> list[str]:
    """What stops these decks being played together: unfinished cards, then the rules' checks."""
    names = names or {}
    problems = []
    uncounted: dict[str, list[str]] = {}
    for card in cards:
        if card.character not in slugs:
            continue
        who = names.get(card.character, card.character.title())
        if card.count is None:
            uncounted.setdefault(who, []).append(card.name)
        if not card.card_type and card.count != 0:  # a card the deck does not hold needs no type
            problems.append(f"{who}: choose the type of {card.name} (the rules text does not give it).")
        elif card.card_type in (BoxCard.VALUE, BoxCard.SPECIALTY_VALUE) and card.value is None and card.count:
            problems.append(f"{who}: {card.name} needs its value.")
    # one line per deck, not one per card: only the printed decks say how many of each card they hold
    problems[:0] = [f"{who}: enter how many {_listed(cards_)} cards the deck holds (0 if none)."
                    for who, cards_ in uncounted.items()]
    decks = engine_decks(cards, slugs)
    for slug in slugs:
        if not decks[slug]:
            problems.append(f"{names.get(slug, slug.title())}: the deck has no cards yet.")
    readable = {names.get(s, s.title()): d for s, d in decks.items()}
    problems.extend(gh.check_decks(readable))
    return problems


def box_problems(box: GhoulashBox, cat: dict, cards: list[BoxCard], slugs) -> list[str]:
    """Everything that stops a game with these characters: missing profile numbers, missing Ghoul Victory
    Points, then the decks (``deck_problems``), all at once."""
    profile = {p["slug"]: p for p in profiles(box, cat)}
    problems = []
    for slug in slugs:
        p = profile[slug]
        missing = [STAT_LABELS[s] for s in REQUIRED_STATS if p["numbers"][s] is None]
        if missing:
            problems.append(f"{p['full_name']}: enter {' and '.join(missing)} in the game box (the rules text does "
                            "not give them).")
    missing_vp = [str(g["strength"]) for g in ghoul_values(box, cat) if g["victory_points"] is None]
    if missing_vp:
        problems.append(f"Enter the Victory Points of the strength {', '.join(missing_vp)} Ghouls in the game box.")
    problems.extend(deck_problems(cards, list(slugs), {s: profile[s]["name"] for s in slugs}))
    return problems


# ---------------------------------------------------------------------------
# Creating a game
# ---------------------------------------------------------------------------

LABEL = Game._meta.label_lower  # the key of the game's version in the cache (the polls')


def current_version(pk: int) -> int | None:
    """The game's version from the database (the polls' fallback when the cache has none)."""
    return Game.objects.filter(pk=pk).values_list("version", flat=True).first()


def _locked(pk: int, work):
    """Run ``work(game)`` in a transaction holding the game row's lock (core.locking, which bumps its
    version); the new version is published to the polls once committed."""
    def locked(game: Game):
        result = work(game)
        kit.bump_version(LABEL, game.pk, game.version)
        return result
    return run_locked(Game, pk, locked, missing=GameError("No such game."),
                      busy=GameError("The game is busy: try again."))


def _log(game: Game, actor, kind: str, text: str, seed: int | None = None) -> Event:
    return Event.objects.create(game=game, number=kit.next_event_number(Event.objects.filter(game=game)),
                                turn=game.turn, actor=actor, kind=kind,
                                text=text[:500], seed=seed)


def game_tokens(cat: dict, box: GhoulashBox, lock_and_load: bool) -> tuple[list[gh.EncounterToken], list[gh.EncounterToken]]:
    """The core Encounter Tokens (catalogue counts, Ghoul VP from the rules or the box) and the scenario extras."""
    vp = {g["strength"]: g["victory_points"] for g in ghoul_values(box, cat)}
    core = []
    for entry in cat["encounter_tokens"]:
        for i in range(int(entry.get("count") or 0)):
            strength = entry.get("strength")
            core.append(gh.EncounterToken(entry["kind"], strength, vp.get(strength) if entry["kind"] == "ghoul" else None, i))
    extras = []
    if lock_and_load:
        gun = next((t for t in cat["other_tokens"] if t.get("slug") == "ghoo-gun"), None)
        if gun is None:
            raise GameError("The catalogue has no Ghoo Gun tokens (Lock and Load).")
        extras = [gh.EncounterToken("ghoo-gun", None, None, i) for i in range(int(gun.get("count") or 0))]
    return core, extras


@transaction.atomic
def create_game(creator, box: GhoulashBox, name: str, seats: list[tuple[str, str]], lock_and_load: bool = False) -> Game:
    """Set up and start a game: ``seats`` are (username, character slug) in table order, the first plays first."""
    if box.owner_id != creator.pk:
        raise GameError("Choose one of your own game boxes.")
    name = (name or "").strip()[:100] or f"{box.name} game"
    seats = [(u.strip(), c) for u, c in seats if u.strip() or c]
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise GameError(f"A game has {MIN_PLAYERS} to {MAX_PLAYERS} players.")
    cat = catalogue()
    profile = {p["slug"]: p for p in profiles(box, cat)}
    User = get_user_model()
    users, chars = [], []
    for username, slug in seats:
        if not username or not slug:
            raise GameError("Give each seat a player and a character.")
        if slug not in profile:
            raise GameError(f"There is no character {slug!r}.")
        user = User.objects.with_username(username).first()
        if user is None:
            raise GameError(f"There is no user called {username!r}.")
        users.append(user)
        chars.append(slug)
    if len({u.pk for u in users}) != len(users):
        raise GameError("Each player takes one seat.")
    if len(set(chars)) != len(chars):
        raise GameError("Each character deck can be played by one player only.")
    if creator.pk not in {u.pk for u in users}:
        raise GameError("Take a seat yourself: the game belongs to its players.")
    cards = list(box.cards.all())
    problems = box_problems(box, cat, cards, chars)
    if problems:
        raise SetupProblems(problems)
    core, extras = game_tokens(cat, box, lock_and_load)
    if len(core) != gh.TILES * gh.TOKENS_PER_TILE:
        raise GameError(f"The catalogue lists {len(core)} core tokens; the board takes {gh.TILES * gh.TOKENS_PER_TILE}.")

    deal_seed = secrets.randbits(32)
    game = Game.objects.create(box=box, creator=creator, name=name, scenario_lock_and_load=lock_and_load,
                               deal_seed=deal_seed)
    board = gh.deal_board(random.Random(deal_seed), core, extras)
    TileToken.objects.bulk_create([
        TileToken(game=game, tile=tile + 1, slot=slot + 1, kind=p.token.kind, strength=p.token.strength,
                  victory_points=p.token.victory_points)
        for tile, placements in enumerate(board) for slot, p in enumerate(placements)
    ])
    _log(game, creator, "deal", f"{creator.username} set up the game: {len(core)} core Encounter Tokens"
         + (f" and {len(extras)} Ghoo Gun tokens (Lock and Load)" if extras else "")
         + " shuffled face down onto the four tiles.", deal_seed)
    for seat, (user, slug) in enumerate(zip(users, chars)):
        p = profile[slug]
        deck, n = [], 0
        for card in cards:
            if card.character == slug and card.count:
                for _ in range(card.count):
                    n += 1
                    deck.append({"id": n, "name": card.name, "type": card.card_type, "value": card.value,
                                 "text": card.text, "slug": card.catalogue_slug, "owner": slug})
        seed = secrets.randbits(32)
        piles = gh.start_game(random.Random(seed), slug, [engine_card(c) for c in deck])
        Player.objects.create(
            game=game, user=user, seat=seat, character=slug, character_name=p["full_name"],
            initial_combat_value=p["numbers"]["initial_combat_value"], movement=p["numbers"]["movement"],
            health=p["numbers"]["health"], specialty=p["specialty"], deck=deck,
            hand=[c.copy for c in piles.hand], draw=[c.copy for c in piles.draw])
        _log(game, user, "shuffle", f"{user.username} ({p['full_name']}) shuffles the deck of {len(deck)} "
             f"and deals {len(piles.hand)} cards.", seed)
    first = users[0]
    _log(game, first, "turn", f"Turn 1: {first.username} plays first.")
    return game


# ---------------------------------------------------------------------------
# Playing
# ---------------------------------------------------------------------------

def piles_of(player: Player) -> gh.Piles:
    cards = {c["id"]: engine_card(c) for c in player.deck}
    return gh.Piles(player.character, tuple(cards[i] for i in player.hand), tuple(cards[i] for i in player.draw),
                    tuple(cards[i] for i in player.discard), tuple(cards[i] for i in player.wounds))


def _store(player: Player, piles: gh.Piles) -> None:
    player.hand = [c.copy for c in piles.hand]
    player.draw = [c.copy for c in piles.draw]
    player.discard = [c.copy for c in piles.discard]
    player.wounds = [c.copy for c in piles.wounds]


def _card_ids(raw) -> list[int]:
    try:
        return [int(x) for x in raw]
    except (TypeError, ValueError):
        raise GameError("Choose cards from your hand.") from None


def _from_hand(player: Player, ids: list[int]) -> list[dict]:
    """The cards with these ids, each one in the player's hand (the same id twice is refused)."""
    by_id = {c["id"]: c for c in player.deck}
    if len(set(ids)) != len(ids) or any(i not in player.hand for i in ids):
        raise GameError("Those cards are not in your hand.")
    return [by_id[i] for i in ids]


def _values(cards: list[dict]) -> tuple[int, ...]:
    try:
        return gh.battle_values([engine_card(c) for c in cards])
    except gh.IllegalPlay as exc:
        raise GameError(str(exc)) from None


def _put_down(player: Player, ids: list[int]) -> None:
    player.hand = [i for i in player.hand if i not in ids]


def card_text(cards: list[dict]) -> str:
    return ", ".join(f"{c['name']} {c['value']}" if c.get("value") is not None else c["name"] for c in cards) or "no cards"


def current_icv(player: Player, tokens: list[TileToken], battle: dict | None = None) -> int:
    """The player's Initial Combat Value: the character's plus the Ghoo Guns held; in ``battle``, where they
    played Heavy Artillery / The Right Ghoo for the Job, the Ghoul's strength instead (FAQ; H4: Guns dropped)."""
    guns = sum(1 for t in tokens if t.holder_id == player.pk and t.kind == "ghoo-gun" and t.state == TileToken.TAKEN)
    if battle and battle.get("icv_card") is not None and battle["seat"] == player.seat:
        token = next(t for t in tokens if t.pk == battle["token"])
        return gh.initial_combat_value(player.initial_combat_value, guns, token.strength, becomes_ghoul_strength=True)
    return gh.initial_combat_value(player.initial_combat_value, ghoo_guns=guns)


def _scores(players: list[Player]) -> dict[str, int]:
    return {p.user.username: p.victory_points for p in players}


def _recount_vp(player: Player, tokens: list[TileToken]) -> None:
    won = [gh.EncounterToken(t.kind, t.strength, t.victory_points) for t in tokens
           if t.holder_id == player.pk and t.kind == "ghoul" and t.state == TileToken.TAKEN]
    player.victory_points = gh.victory_points(won, dead=player.dead)


def _check_end(game: Game, players: list[Player], tokens: list[TileToken], actor) -> None:
    resolved = gh.all_tokens_resolved([(t.revealed, t.kind == "ghoul" and t.state == TileToken.ON_BOARD)
                                       for t in tokens])
    winners = gh.game_winners(_scores(players), all_tokens_resolved=resolved)
    if winners:
        game.status = Game.FINISHED
        game.winners = list(winners)
        game.battle = None
        how = f"reached {gh.WINNING_VP} Victory Points" if any(p.victory_points >= gh.WINNING_VP for p in players) \
            else "every Encounter Token is revealed and resolved: the most Victory Points"
        _log(game, actor, "win", f"The game is over ({how}). Winner{'s' if len(winners) > 1 else ''}: "
             f"{', '.join(winners)}.")


# what the game waits for while an encounter is being resolved: no end check then
PENDING = (Game.BATTLE, Game.CHALLENGE, Game.RESPONSE, Game.FIRST_AID)


def _end_if_over(game: Game, players: list[Player], tokens: list[TileToken], actor) -> None:
    """The end check after any step (GT4, GT12): 10 VP, or every token revealed and resolved, whatever the last
    one was; not while an encounter is still being resolved (a battle, a First-Aid Kit to use or leave)."""
    if game.status == Game.PLAYING and game.phase not in PENDING:
        _check_end(game, players, tokens, actor)


def _wound(game: Game, player: Player, wounds: int, tokens: list[TileToken], why: str) -> None:
    seed = secrets.randbits(32)
    piles = gh.take_wounds(piles_of(player), random.Random(seed), wounds)
    _store(player, piles)
    text = f"{player.user.username} suffers {wounds} wound{'s' if wounds != 1 else ''} ({why}): cards taken at random."
    if not player.dead and gh.is_dead(piles, player.health):
        player.dead = True
        for t in tokens:
            if t.holder_id == player.pk and t.kind == "ghoul" and t.state == TileToken.TAKEN:
                t.state = TileToken.SET_ASIDE
                t.save(update_fields=["state"])
        _recount_vp(player, tokens)
        text += f" {len(piles.wounds)} wounds reach Health {player.health}: {player.character_name} is dead; " \
                "their Ghoul tokens are set aside."
    _log(game, player.user, "wounds", text, seed)


def _finish_battle(game: Game, players: list[Player], tokens: list[TileToken], result: gh.BattleResult) -> None:
    battle = game.battle
    by_seat = {p.seat: p for p in players}
    battler = by_seat[battle["seat"]]
    token = next(t for t in tokens if t.pk == battle["token"])
    battler.discard = battler.discard + battle["played"] + battle.get("response", []) + battle.get("parry", [])
    if battle.get("challenger") is not None:
        challenger = by_seat[battle["challenger"]]
        challenger.discard = challenger.discard + battle["challenge"]
    how = {"no-value": "the cards put down do not beat it", "unchallenged": "nobody challenged",
           "answered": "the challenge was answered", "unanswered": "the challenge was not answered",
           "hole": "in a Hole"}.get(result.stage, result.stage)
    if result.won:
        token.holder, token.state = battler, TileToken.TAKEN
        token.save(update_fields=["holder", "state"])
        _recount_vp(battler, tokens)
        _log(game, battler.user, "battle-won", f"{battler.user.username} defeats the strength-{token.strength} Ghoul "
             f"with {result.total} against the {result.needed} needed ({how}) and wins {result.victory_points} "
             f"Victory Points (now {battler.victory_points}).")
    else:
        _log(game, battler.user, "battle-lost", f"{battler.user.username} loses the battle against the "
             f"strength-{token.strength} Ghoul: {result.total} of the {result.needed} needed ({how}). "
             "The Ghoul stays on its square.")
        _wound(game, battler, result.wounds, tokens, f"a lost Ghoul battle, {result.wounds} green dots")
    game.battle = None
    game.phase = Game.TURN
    Player.objects.bulk_update(players, WOUND_FIELDS)
    _check_end(game, players, tokens, battler.user)


def _battle_result(battle: dict, token: TileToken, battler: Player, icv: int, response: bool = False) -> gh.BattleResult:
    by_id = {c["id"]: c for c in battler.deck}
    played = _values([by_id[i] for i in battle["played"]])
    challenge = tuple(battle.get("challenge_values", ()))
    parried = tuple(battle.get("parried_values", ()))
    resp = _values([by_id[i] for i in battle.get("response", [])]) if response else ()
    try:
        return gh.ghoul_battle(token.strength, token.victory_points, icv, played, challenge, resp, parried=parried)
    except gh.IllegalPlay as exc:
        raise GameError(str(exc)) from None


def act(game_pk: int, user, action: str, data) -> Game:
    """One player's move; ``data`` is the POST (``getlist`` for cards)."""
    if action not in HANDLERS:
        raise GameError("Unknown action.")

    def work(game: Game) -> Game:
        if game.status != Game.PLAYING:
            raise GameError("The game is over.")
        players = list(game.players.select_related("user").order_by("seat"))
        me = next((p for p in players if p.user_id == user.pk), None)
        if me is None:
            raise GameError("You are not playing in this game.")
        tokens = list(game.tokens.all())
        current = next(p for p in players if p.seat == game.current_seat)
        HANDLERS[action](game, players, tokens, me, current, data)
        _end_if_over(game, players, tokens, user)
        game.save()
        return game

    return _locked(game_pk, work)


def _my_turn(game: Game, me: Player, current: Player, phase: str | tuple) -> None:
    if me.pk != current.pk:
        raise GameError(f"It is {current.user.username}'s turn.")
    phases = (phase,) if isinstance(phase, str) else phase
    seat = (game.battle or {}).get("seat") if game.phase in PENDING else None
    if game.phase not in phases and seat is not None and seat != me.seat:
        raise GameError("Wait for the player on whose square the token was moved to resolve the encounter.")
    if game.phase not in phases:
        raise GameError({Game.TURN_START: "Replenish your hand first: it begins the turn.",
                         Game.BATTLE: "Put down your Value cards against the Ghoul first.",
                         Game.CHALLENGE: "Wait for the challenge to be offered around the table.",
                         Game.RESPONSE: "Answer the challenge first.",
                         Game.FIRST_AID: "Use the First-Aid Kit or leave it first."}.get(game.phase, "Not now."))


def _resolving(game: Game, players: list[Player], me: Player, current: Player, phase: str) -> None:
    """The encounter waiting in ``phase`` is resolved by the player it happened to: on their own turn, or on
    the turn of whoever moved the token onto their square (it is still that player's turn afterwards)."""
    seat = (game.battle or {}).get("seat")
    if game.phase == phase and seat is not None:
        who = next(p for p in players if p.seat == seat)
        if me.pk != who.pk:
            raise GameError(f"{who.user.username} is resolving the encounter now.")
        return
    _my_turn(game, me, current, phase)


def _do_replenish(game, players, tokens, me, current, data) -> None:
    _my_turn(game, me, current, Game.TURN_START)
    ids = _card_ids(data.getlist("cards"))
    discards = _from_hand(me, ids)
    seed = secrets.randbits(32)
    before = len(me.hand)
    piles, _returned = gh.replenish(piles_of(me), random.Random(seed), [engine_card(c) for c in discards])
    _store(me, piles)
    me.save(update_fields=["hand", "draw", "discard"])
    drawn = len(me.hand) - (before - len(discards))
    game.phase = Game.TURN
    _log(game, me.user, "replenish", f"{me.user.username} discards {len(discards)} card{'s' if len(discards) != 1 else ''} "
         f"and draws {drawn} (hand {len(me.hand)}).", seed)


def _may_enter_a_square(game: Game, me: Player, current: Player) -> None:
    """The player moves onto a square: their turn, their piece on the board, no encounter yet."""
    _my_turn(game, me, current, Game.TURN)
    _no_piece(me)
    if game.encountered:
        raise GameError("You already had an encounter this turn: it ended your movement.")
    _engine(gh.check_movement, turn_so_far(game))
    game.moved = True


def _no_piece(me: Player) -> None:
    if me.dead:
        raise GameError("Your character is dead: the playing piece is off the board (you still replenish, "
                        "play cards and challenge).")
    if me.in_hole:
        raise GameError("You are in a Hole until the beginning of your next turn.")


def _token(tokens: list[TileToken], raw) -> TileToken:
    try:
        pk = int(raw)
    except (TypeError, ValueError):
        raise GameError("Choose a token.") from None
    token = next((t for t in tokens if t.pk == pk), None)
    if token is None:
        raise GameError("Choose a token on this board.")
    return token


def _start_battle(game: Game, me: Player, token: TileToken) -> None:
    game.phase = Game.BATTLE
    game.battle = {"seat": me.seat, "token": token.pk, "played": [], "offers": [], "challenger": None,
                   "challenge": [], "challenge_values": [], "parry": [], "parried_values": [], "response": []}


def _do_reveal(game, players, tokens, me, current, data) -> None:
    _may_enter_a_square(game, me, current)
    token = _token(tokens, data.get("token"))
    if token.revealed or token.state != TileToken.ON_BOARD:
        raise GameError("That token is already revealed.")
    token.revealed = True
    game.encountered = True
    _log(game, me.user, "reveal", f"{me.user.username} enters {token.label.lower()} and reveals {_what(token)}.")
    _encounter(game, players, tokens, me, token)


def _what(token: TileToken) -> str:
    return {"ghoul": f"a strength-{token.strength} Ghoul ({token.victory_points} Victory Points)", "hole": "a Hole",
            "first-aid": "a First-Aid Kit", "ghoo-gun": "a Ghoo Gun"}.get(token.kind, token.kind)


def _encounter(game: Game, players: list[Player], tokens: list[TileToken], who: Player, token: TileToken) -> None:
    """``who`` resolves the encounter with the revealed ``token``: entered by movement on their turn, or moved
    onto their square by the player whose turn it is ("that player must resolve that encounter immediately,
    even though it is not their turn"). A player in a Hole "is helpless against any encounter" (l.405-412)."""
    if token.kind == "ghoul":
        if who.in_hole:
            result = gh.ghoul_battle(token.strength, token.victory_points, current_icv(who, tokens), in_hole=True)
            _log(game, who.user, "battle-lost", f"{who.user.username} is in a Hole and cannot play Value cards: "
                 f"the battle against the strength-{token.strength} Ghoul is lost. The Ghoul stays on its square.")
            _wound(game, who, result.wounds, tokens, f"a lost Ghoul battle, {result.wounds} green dots")
            who.save(update_fields=WOUND_FIELDS)
        else:
            _start_battle(game, who, token)
    elif token.kind == "hole":
        if who.in_hole:
            token.state = TileToken.REMOVED
            _log(game, who.user, "hole", f"{who.user.username} is already in a Hole: only one Hole token can be "
                 "placed on a square, so the uppermost Hole token is removed from the board.")
        else:
            if who.seat == game.current_seat:
                token.save(update_fields=["revealed", "holder", "state"])  # before the end check (GT12)
            _fall_into_hole(game, players, tokens, who, "falls into the Hole")
    elif token.kind == "first-aid":
        if who.in_hole:
            _log(game, who.user, "first-aid", f"{who.user.username} is in a Hole and can take no action: the kit "
                 "stays on the square, revealed.")
        elif who.wounds:
            game.phase = Game.FIRST_AID
            game.battle = {"token": token.pk, "seat": who.seat}
        else:
            _log(game, who.user, "first-aid", f"{who.user.username} has no wounds: the kit stays on the square, revealed.")
    elif token.kind == "ghoo-gun":
        token.holder, token.state = who, TileToken.TAKEN
        _log(game, who.user, "ghoo-gun", f"{who.user.username} takes the Ghoo Gun: Initial Combat Value "
             f"{current_icv(who, tokens)} for the rest of the game.")
    token.save(update_fields=["revealed", "holder", "state"])


def _do_enter(game, players, tokens, me, current, data) -> None:
    """The player enters a square holding a revealed Hole or Ghoo Gun (one left face up: by a Hole that took
    someone earlier, or by Cornealius' specialty). A Hole "can be encountered by other players"; Stacking,
    Example 1: "Because the Hole is the uppermost token, he is out of the game until the beginning of his next
    turn". A Ghoul is battled ("fight") and a First-Aid Kit used ("first-aid") through their own buttons."""
    _may_enter_a_square(game, me, current)
    token = _token(tokens, data.get("token"))
    if not (token.revealed and token.state == TileToken.ON_BOARD and token.kind in ("hole", "ghoo-gun")):
        raise GameError("Choose a revealed Hole or Ghoo Gun on the board (a revealed Ghoul is battled, a "
                        "First-Aid Kit used, a face-down token revealed).")
    game.encountered = True
    _log(game, me.user, "enter", f"{me.user.username} enters {token.label.lower()}, {_what(token)}, and stops.")
    _encounter(game, players, tokens, me, token)


def _do_fight(game, players, tokens, me, current, data) -> None:
    _my_turn(game, me, current, Game.TURN)
    _no_piece(me)
    if game.encountered:
        raise GameError("You already had an encounter this turn.")
    token = _token(tokens, data.get("token"))
    if not (token.revealed and token.kind == "ghoul" and token.state == TileToken.ON_BOARD):
        raise GameError("Only a revealed Ghoul still on the board can be battled again.")
    game.encountered = True
    _log(game, me.user, "fight", f"{me.user.username} battles the strength-{token.strength} Ghoul on "
         f"{token.label.lower()}.")
    _start_battle(game, me, token)


def _heal(game: Game, me: Player, token: TileToken) -> None:
    piles, _stolen = gh.first_aid(piles_of(me))
    healed = len(me.wounds)
    _store(me, piles)
    me.save(update_fields=["hand", "draw", "discard", "wounds"])
    token.state = TileToken.USED
    token.save(update_fields=["state"])
    _log(game, me.user, "first-aid", f"{me.user.username} uses the First-Aid Kit: {healed} wound card"
         f"{'s' if healed != 1 else ''} back to the discard pile; the kit is removed from the board.")


def _do_first_aid(game, players, tokens, me, current, data) -> None:
    if game.phase == Game.FIRST_AID:
        _resolving(game, players, me, current, Game.FIRST_AID)
        token = _token(tokens, game.battle["token"])
    else:
        _my_turn(game, me, current, Game.TURN)
        _no_piece(me)
        if game.encountered:
            raise GameError("You already had an encounter this turn.")
        token = _token(tokens, data.get("token"))
        if not (token.revealed and token.kind == "first-aid" and token.state == TileToken.ON_BOARD):
            raise GameError("Choose a revealed First-Aid Kit on the board.")
        game.encountered = True
    if not me.wounds:
        raise GameError("You must have wounds to use a First-Aid Kit.")
    _heal(game, me, token)
    game.phase, game.battle = Game.TURN, None


def _do_leave_first_aid(game, players, tokens, me, current, data) -> None:
    _resolving(game, players, me, current, Game.FIRST_AID)
    game.phase, game.battle = Game.TURN, None
    _log(game, me.user, "first-aid", f"{me.user.username} leaves the First-Aid Kit on the square, revealed.")


def _do_play(game, players, tokens, me, current, data) -> None:
    _resolving(game, players, me, current, Game.BATTLE)
    battle = game.battle
    token = _token(tokens, battle["token"])
    ids = _card_ids(data.getlist("cards"))
    cards = _from_hand(me, ids)
    _values(cards)
    reveals = _specialty_reveals(me, tokens, cards, data)
    battle["played"] = ids
    _put_down(me, ids)
    me.save(update_fields=["hand"])
    result = _battle_result(battle, token, me, current_icv(me, tokens, battle))
    _log(game, me.user, "play", f"{me.user.username} puts down {card_text(cards)}: Initial Combat Value "
         f"{current_icv(me, tokens, battle)} + {sum(c['value'] for c in cards)} = {result.total_before_challenge} "
         f"against strength {token.strength} ({result.needed} needed).")
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


def _offered(game: Game, players: list[Player], me: Player) -> None:
    if game.phase != Game.CHALLENGE:
        raise GameError("No challenge is being offered now.")
    seat = game.battle["offers"][0]
    if me.seat != seat:
        who = next(p for p in players if p.seat == seat)
        raise GameError(f"The challenge is offered to {who.user.username} now.")


def _do_challenge(game, players, tokens, me, current, data) -> None:
    _offered(game, players, me)
    battle = game.battle
    ids = _card_ids(data.getlist("cards"))
    if not 1 <= len(ids) <= gh.CHALLENGE_MAX_CARDS:
        raise GameError(f"A challenge is 1 to {gh.CHALLENGE_MAX_CARDS} Value cards.")
    cards = _from_hand(me, ids)
    values = _values(cards)
    reveals = _specialty_reveals(me, tokens, cards, data)
    _put_down(me, ids)
    me.save(update_fields=["hand"])
    battle.update({"challenger": me.seat, "challenge": ids, "challenge_values": list(values), "offers": []})
    battler = next(p for p in players if p.seat == battle["seat"])
    token = _token(tokens, battle["token"])
    result = _battle_result(battle, token, battler, current_icv(battler, tokens, battle))
    _log(game, me.user, "challenge", f"{me.user.username} challenges with {card_text(cards)}: "
         f"{battler.user.username}'s total drops to {result.after_challenge} ({result.needed} needed).")
    _reveal_on_tile(game, me, reveals)
    if result.won:
        _finish_battle(game, players, tokens, result)
    else:
        game.phase = Game.RESPONSE


def _do_decline(game, players, tokens, me, current, data) -> None:
    _offered(game, players, me)
    battle = game.battle
    battle["offers"] = battle["offers"][1:]
    _log(game, me.user, "decline", f"{me.user.username} declines to challenge.")
    if not battle["offers"]:
        battler = next(p for p in players if p.seat == battle["seat"])
        token = _token(tokens, battle["token"])
        _finish_battle(game, players, tokens, _battle_result(battle, token, battler, current_icv(battler, tokens, battle)))


def _do_respond(game, players, tokens, me, current, data) -> None:
    _resolving(game, players, me, current, Game.RESPONSE)
    battle = game.battle
    ids = _card_ids(data.getlist("cards"))
    parry_ids = _card_ids(data.getlist("parry"))
    if set(ids) & set(parry_ids):
        raise GameError("A card is either a Value card put down or a Parry.")
    cards = _from_hand(me, ids)
    parries = _from_hand(me, parry_ids)
    if any(c.get("slug") != "parry" and c["name"].lower() != "parry" for c in parries):
        raise GameError("Only Parry cards ignore a challenge card.")
    if len(parries) > len(battle["challenge_values"]):
        raise GameError("Each Parry ignores one challenge card: that is more Parry cards than challenge cards.")
    _values(cards)
    reveals = _specialty_reveals(me, tokens, cards, data)
    # each Parry ignores one challenge card: the highest ones (the battling player's best choice)
    battle["parried_values"] = sorted(battle["challenge_values"], reverse=True)[:len(parries)]
    battle["parry"] = parry_ids
    battle["response"] = ids
    token = _token(tokens, battle["token"])
    result = _battle_result(battle, token, me, current_icv(me, tokens, battle), response=True)
    _put_down(me, ids + parry_ids)
    me.save(update_fields=["hand"])
    parry_text = f", Parry ignores {', '.join(map(str, battle['parried_values']))}" if parries else ""
    _log(game, me.user, "respond", f"{me.user.username} answers with {card_text(cards)}{parry_text}: "
         f"total {result.total} ({result.needed} needed)." if cards or parries else
         f"{me.user.username} has no answer to the challenge.")
    _reveal_on_tile(game, me, reveals)
    _finish_battle(game, players, tokens, result)


SPECIALTY_TYPES = (BoxCard.SPECIALTY, BoxCard.SPECIALTY_VALUE, BoxCard.SPECIALTY_ACTION, BoxCard.SPECIALTY_RESCUE)


def _specialty_reveals(me: Player, tokens: list[TileToken], cards: list[dict], data) -> list[TileToken]:
    """The face-down tokens Cornealius reveals with the Specialty cards of this play ("Cornealius can reveal a
    token on his tile every time he uses a Specialty card"): at most one per Specialty card, all on one tile
    (his), each face down on the board. Checked before anything changes (GT16)."""
    raw = [x for x in data.getlist("reveal") if x]
    if not raw:
        return []
    if me.character != gh.REVEALS_WITH_SPECIALTY:
        raise GameError("Only Cornealius reveals a token when he uses a Specialty card.")
    if me.dead:
        raise GameError("Cornealius is dead: his playing piece is off the board, so he has no tile to reveal a "
                        "token on.")
    used = sum(1 for c in cards if c["type"] in SPECIALTY_TYPES)
    allowed = gh.specialty_reveals(me.character, used, has_piece=True)
    if not allowed:
        raise GameError("Cornealius reveals a token on his tile when he uses a Specialty card: these cards are "
                        "not Specialty cards.")
    if len(raw) > allowed:
        raise GameError(f"One token per Specialty card used: at most {allowed} here.")
    chosen = [_token(tokens, x) for x in raw]
    if len({t.pk for t in chosen}) != len(chosen):
        raise GameError("Choose each token to reveal once.")
    for t in chosen:
        if t.revealed or t.state != TileToken.ON_BOARD:
            raise GameError(f"{t.label} is already face up: choose a face-down token on your tile.")
    if len({t.tile for t in chosen}) > 1:
        raise GameError("The tokens Cornealius reveals are on his tile: choose them on one tile.")
    return chosen


def _reveal_on_tile(game: Game, me: Player, chosen: list[TileToken]) -> None:
    """Cornealius' specialty: the token is flipped over where it lies. He does not enter its square, so it is
    no encounter: nothing is resolved, his movement and his turn's encounter are untouched, and the token
    stays on its square, face up, for whoever enters it (GT16)."""
    for t in chosen:
        t.revealed = True
        t.save(update_fields=["revealed"])
        _log(game, me.user, "specialty-reveal", f"{me.user.username} (Cornealius' specialty, with the Specialty "
             f"card) reveals {t.label.lower()} on his tile: {_what(t)}. It stays on its square, face up; no "
             "encounter.")


def _strength_icv_check(game: Game, me: Player, card: dict) -> None:
    """Heavy Artillery / The Right Ghoo for the Job "change the player's initial combat value in a Ghoul
    battle" (FAQ): played in the player's own battle as it begins, before the Value cards are put down (GT13)."""
    battle = game.battle
    if not (game.phase == Game.BATTLE and battle and battle["seat"] == me.seat):
        raise GameError(f"{card['name']} changes your Initial Combat Value in your own Ghoul battle: play it "
                        "when the battle begins, before putting down your Value cards.")
    if battle.get("icv_card") is not None:
        raise GameError("Your Initial Combat Value is already the Ghoul's strength in this battle.")


def _do_card(game, players, tokens, me, current, data) -> None:
    """Play an Action, Rescue or Specialty card from the hand: it goes to the discard pile and the log;
    its effect is applied at the table (the tracker referees battles, tokens and wounds), except Heavy
    Artillery / The Right Ghoo for the Job, which set the battle's Initial Combat Value (GT13)."""
    ids = _card_ids([data.get("card")])
    card = _from_hand(me, ids)[0]
    if card["type"] == BoxCard.VALUE:
        raise GameError("Value cards are put down in a Ghoul battle or a challenge.")
    is_action = card["type"] in (BoxCard.ACTION, BoxCard.SPECIALTY_ACTION)
    if is_action:
        _my_turn(game, me, current, (Game.TURN,))
    if me.in_hole:
        raise GameError("You are in a Hole: no cards until the beginning of your next turn.")
    sets_icv = any(is_card(card, slug) for slug in STRENGTH_ICV_CARDS)
    if sets_icv:
        _strength_icv_check(game, me, card)
    reveals = _specialty_reveals(me, tokens, [card], data)
    if is_action:
        _take_action_card(game, me)
    _discard(me, ids)
    me.save(update_fields=["hand", "discard"])
    _log(game, me.user, "card", f"{me.user.username} plays {card['name']} ({TYPE_LABELS.get(card['type'], card['type'])})"
         + (f": {card['text']}" if card.get("text") else "."))
    if sets_icv:
        game.battle["icv_card"] = card["id"]
        token = _token(tokens, game.battle["token"])
        _log(game, me.user, "icv", f"{me.user.username}'s Initial Combat Value in this battle becomes the Ghoul's "
             f"strength: {current_icv(me, tokens, game.battle)} ({token.strength + gh.BEAT_BY} needed).")
    _reveal_on_tile(game, me, reveals)


def _discard(player: Player, ids: list[int]) -> None:
    _put_down(player, ids)
    player.discard = player.discard + ids


def _action_card(me: Player, data, slug: str, name: str) -> dict:
    card = _from_hand(me, _card_ids([data.get("card")]))[0]
    if card["type"] != BoxCard.ACTION or not is_card(card, slug):
        raise GameError(f"Choose a {name} Action card from your hand.")
    return card


def _targets(players: list[Player], me: Player, data) -> list[Player]:
    """The opponents standing on the square an Action card targets (FAQ: every player on it is hit)."""
    targets = _players_on_a_square(players, data.getlist("targets"), "Choose the opponents on the target square.")
    if not targets or me in targets:
        raise GameError("Choose the opponents on the target square.")
    return targets


def _players_on_a_square(players: list[Player], raw_seats: list, message: str) -> list[Player]:
    """The living players a form names by seat, each once; ``message`` for anything else."""
    try:
        seats = [int(x) for x in raw_seats if x != ""]
    except (TypeError, ValueError):
        raise GameError(message) from None
    by_seat = {p.seat: p for p in players}
    if len(set(seats)) != len(seats) or any(x not in by_seat for x in seats):
        raise GameError(message)
    chosen = [by_seat[x] for x in seats]
    dead = [p.user.username for p in chosen if p.dead]
    if dead:
        raise GameError(f"{', '.join(dead)}: the character is dead, the playing piece is off the board.")
    return chosen


def _names(targets: list[Player]) -> str:
    return " and ".join(t.user.username for t in targets)


def _do_hole(game, players, tokens, me, current, data) -> None:
    """A Hole Action card played on a square where opponents stand (l.385-402, FAQ): each falls into the Hole,
    out of the game until the beginning of their next turn (GT14)."""
    _my_turn(game, me, current, Game.TURN)
    card = _action_card(me, data, "hole", "Hole")
    targets = _targets(players, me, data)
    _take_action_card(game, me, check_only=True)
    already = [t.user.username for t in targets if t.in_hole]
    if already:
        raise GameError(f"{', '.join(already)} already in a Hole: only one Hole token can be placed on a square.")
    _take_action_card(game, me)
    _discard(me, [card["id"]])
    me.save(update_fields=["hand", "discard"])
    for t in targets:
        t.in_hole = True
        t.save(update_fields=["in_hole"])
    _log(game, me.user, "hole", f"{me.user.username} plays {card['name']} (Action) on the square of {_names(targets)}: "
         f"a Hole token under their playing piece; {_names(targets)} "
         f"{'falls' if len(targets) == 1 else 'fall'} into the Hole, out of the game until the beginning of "
         f"{'their' if len(targets) == 1 else 'each one’s'} next turn.")


def _do_debris(game, players, tokens, me, current, data) -> None:
    """A Debris Action card, perhaps with one Value card, played on a square where opponents stand
    (l.421-461, FAQ): each suffers 1 wound plus the Value, taken like battle wounds (GT15)."""
    _my_turn(game, me, current, Game.TURN)
    card = _action_card(me, data, "debris", "Debris")
    targets = _targets(players, me, data)
    value_ids = _card_ids([v for v in data.getlist("value") if v])
    if len(value_ids) > 1:
        raise GameError("One Value card can be played with the Debris card.")
    value_cards = _from_hand(me, [card["id"]] + value_ids)[1:]
    value = _values(value_cards)[0] if value_cards else None
    wounds = gh.debris_wounds(by_action=True, value_card=value)
    _take_action_card(game, me)
    _discard(me, [card["id"]] + value_ids)
    _log(game, me.user, "debris", f"{me.user.username} plays {card['name']} (Action)"
         + (f" with {card_text(value_cards)}" if value_cards else "")
         + f" on the square of {_names(targets)}: a Debris token under their playing piece.")
    for t in targets:
        _wound(game, t, wounds, tokens, "a Debris Action card" + (f" enhanced by a {value}" if value else ""))
    Player.objects.bulk_update(players, WOUND_FIELDS)


def debris_in_game(players: list[Player]) -> int:
    """How many Debris tokens can be on the board: one per Debris Action card in the game's decks."""
    return sum(1 for p in players for c in p.deck if c["type"] == BoxCard.ACTION and is_card(c, "debris"))


def _do_debris_square(game, players, tokens, me, current, data) -> None:
    """The player enters a square holding Debris tokens: one wound per token, cumulative (l.421-461); it is the
    turn's encounter (Stacking, Example 2) (GT15)."""
    _may_enter_a_square(game, me, current)
    most = debris_in_game(players)
    try:
        count = int(data.get("tokens"))
    except (TypeError, ValueError):
        count = 0
    if not 1 <= count <= most:
        raise GameError(f"Give the number of Debris tokens on the square (1 to {most}: one per Debris card)."
                        if most else "The decks hold no Debris cards: no Debris token can be on the board.")
    game.encountered = True
    wounds = gh.debris_wounds(by_action=False, tokens=count)
    _log(game, me.user, "debris", f"{me.user.username} enters a square with {count} Debris token"
         f"{'s' if count != 1 else ''} and stops.")
    _wound(game, me, wounds, tokens, "Debris, one wound per token")
    Player.objects.bulk_update([me], WOUND_FIELDS)


def holes_in_game(players: list[Player]) -> int:
    """How many Hole tokens Hole Action cards can place: one per Hole Action card in the game's decks."""
    return sum(1 for p in players for c in p.deck if c["type"] == BoxCard.ACTION and is_card(c, "hole"))


def _do_hole_square(game, players, tokens, me, current, data) -> None:
    """The player enters a square where a Hole Action card placed a Hole token: "The Hole token stays on the
    square for the remainder of the game and can be encountered by other players" (l.385-390); Stacking,
    Example 1: "Because the Hole is the uppermost token, he is out of the game until the beginning of his next
    turn". The Hole tokens of the deal are entered with their own "Enter" button (GT19)."""
    _may_enter_a_square(game, me, current)
    if not holes_in_game(players):
        raise GameError("The decks hold no Hole cards: no Hole token can have been placed by a card.")
    game.encountered = True
    _fall_into_hole(game, players, tokens, me, "enters a square with a Hole token placed by a Hole card and falls "
                    "into the Hole")


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


def turn_so_far(game: Game) -> gh.TurnSoFar:
    """The engine's view of the current turn's Action and movement (a token move is an Action taken without
    an Action card)."""
    return gh.TurnSoFar(action_cards=game.action_cards, token_moved=game.action_taken and not game.action_cards,
                        # "Any encounter ... ends the player's movement": none left to give up after one
                        moved=game.moved or game.encountered, gave_up_movement=game.gave_up_movement)


def _engine(check, *args) -> None:
    """Run one of the engine's checks; its refusal becomes the player's message."""
    try:
        check(*args)
    except gh.IllegalPlay as exc:
        msg = str(exc)
        raise GameError(msg[0].upper() + msg[1:] + ".") from None


def _take_action_card(game: Game, me: Player, check_only: bool = False) -> None:
    """"Usually only one Action card is played per turn, although some characters can play more than one";
    "When taking an action, a player has two options: A. They can play an Action card ... B. They can move
    an unrevealed Encounter Token" (GT9, GT18). The engine says whether one more Action card is allowed."""
    _engine(gh.check_action_card, me.character, turn_so_far(game))
    if not check_only:
        game.action_cards += 1
        game.action_taken = True


def _do_give_up_movement(game, players, tokens, me, current, data) -> None:
    """Zone's specialty: "sacrifice movement during a turn in order to play two Action cards in that turn,
    rather than one" (GT9). Declared before the second Action card; no square is entered afterwards."""
    _my_turn(game, me, current, Game.TURN)
    if me.in_hole:
        raise GameError("You are in a Hole until the beginning of your next turn.")
    _engine(gh.check_give_up_movement, me.character, turn_so_far(game), not me.dead)
    game.gave_up_movement = True
    _log(game, me.user, "give-up-movement", f"{me.user.username} gives up movement this turn to play "
         f"{gh.trades_movement_for_action_cards(me.character)} Action cards (Zone's specialty).")


def _tile(raw, message: str) -> int:
    try:
        tile = int(raw)
    except (TypeError, ValueError):
        raise GameError(message) from None
    if not 1 <= tile <= gh.TILES:
        raise GameError(message)
    return tile


def _do_move_token(game, players, tokens, me, current, data) -> None:
    """The Action's option B: "move an unrevealed Encounter Token up to five spaces ... The token being moved
    cannot be on the tile currently occupied by the player, nor can the player move the token onto their
    tile" (Lake excepted: "Lake can move tokens that are on his own tile"). "A token can be moved into a square
    occupied by another player, in which case that player must resolve that encounter immediately, even though
    it is not their turn" (GT17, GT18). The tracker has no squares: the player gives their tile, the tile the
    token goes to and who stands on the square it lands on; the spaces and walls are counted at the table."""
    _my_turn(game, me, current, Game.TURN)
    if me.in_hole:
        raise GameError("You are in a Hole: no action until the beginning of your next turn.")
    _engine(gh.check_token_move_action, turn_so_far(game))
    token = _token(tokens, data.get("token"))
    if token.revealed or token.state != TileToken.ON_BOARD:
        raise GameError("Only an unrevealed Encounter Token on the board can be moved.")
    to_tile = _tile(data.get("to_tile"), f"Choose the tile the token is moved to (1 to {gh.TILES}).")
    my_tile = None if me.dead else _tile(data.get("my_tile"), f"Give the tile your playing piece is on (1 to "
                                                             f"{gh.TILES}): the tracker has no squares.")
    try:
        gh.check_token_move(me.character, token.tile, to_tile, my_tile)
    except gh.IllegalPlay as exc:
        msg = str(exc)
        raise GameError(msg[0].upper() + msg[1:] + ".") from None
    on_square = _players_on_a_square(players, data.getlist("on_square"),
                                     "Choose the players standing on the square the token is moved to.")
    if me in on_square and my_tile != to_tile:
        raise GameError(f"You are on tile {my_tile}: a token moved to tile {to_tile} cannot land on your square.")
    old_label, from_tile = token.label, token.tile
    if to_tile != token.tile:
        token.slot = max((t.slot for t in tokens if t.tile == to_tile), default=0) + 1
        token.tile = to_tile
    game.action_taken = True
    specialty = (" (Lake's specialty: he moves tokens on his own tile and onto it)"
                 if me.character == gh.MOVES_TOKENS_ON_OWN_TILE and my_tile in (from_tile, to_tile) else "")
    where = f"to tile {to_tile} (now {token.label.lower()})" if to_tile != from_tile else "on its tile"
    _log(game, me.user, "move-token", f"{me.user.username} moves the face-down {old_label.lower()} up to "
         f"{gh.MOVE_TOKEN_SPACES} spaces {where}{specialty}.")
    if not on_square:
        token.save(update_fields=["tile", "slot"])
        return
    token.revealed = True
    token.save(update_fields=["tile", "slot", "revealed"])
    names = [p.user.username for p in on_square]
    _log(game, me.user, "move-token", f"It lands on the square of {' and '.join(names)} and is revealed: "
         f"{_what(token)}.")
    if token.kind == "hole" and any(p.in_hole for p in on_square):
        token.state = TileToken.REMOVED
        token.save(update_fields=["state"])
        _log(game, me.user, "hole", "A Hole token is already on that square: only one Hole token can be placed "
             "on a square, so the uppermost Hole token is removed from the board.")
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


def _do_end_turn(game, players, tokens, me, current, data) -> None:
    _my_turn(game, me, current, Game.TURN)
    _end_turn(game, players, me)


HANDLERS = {
    "replenish": _do_replenish, "reveal": _do_reveal, "fight": _do_fight, "first-aid": _do_first_aid,
    "leave-first-aid": _do_leave_first_aid, "play": _do_play, "challenge": _do_challenge, "decline": _do_decline,
    "respond": _do_respond, "card": _do_card, "end-turn": _do_end_turn,
    "hole": _do_hole, "debris": _do_debris, "debris-square": _do_debris_square,
    "move-token": _do_move_token, "enter": _do_enter, "hole-square": _do_hole_square,
    "give-up-movement": _do_give_up_movement,
}


# ---------------------------------------------------------------------------
# What a player sees
# ---------------------------------------------------------------------------

def table(game: Game, players: list[Player], tokens: list[TileToken], events: list[Event], user) -> dict:
    """The page's view of the game for ``user``: their own hand only, unrevealed tokens without their kind,
    no seeds while the game is on. The one place that reads the secrets for display."""
    me = next((p for p in players if p.user_id == user.pk), None)
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
                public.update({"kind": t.kind, "strength": t.strength, "victory_points": t.victory_points,
                               "holder": by_pk[t.holder_id].user.username if t.holder_id in by_pk else ""})
            here.append(public)
        tiles.append({"number": tile, "tokens": here})
    seats = []
    for p in players:
        won = [t for t in tokens if t.holder_id == p.pk]
        seats.append({
            "player": p, "username": p.user.username, "icv": current_icv(p, tokens),
            "hand": len(p.hand), "draw": len(p.draw), "discard": len(p.discard), "wounds": len(p.wounds),
            "ghouls": [t for t in won if t.kind == "ghoul"], "guns": sum(1 for t in won if t.kind == "ghoo-gun"),
            "is_current": p.seat == game.current_seat and game.status == Game.PLAYING,
        })
    battle = None
    if game.battle and game.phase in (Game.BATTLE, Game.CHALLENGE, Game.RESPONSE):
        b = game.battle
        battler = by_seat[b["seat"]]
        token = next(t for t in tokens if t.pk == b["token"])
        deck = {c["id"]: c for c in battler.deck}
        played = [deck[i] for i in b["played"]]
        challenger = by_seat.get(b["challenger"]) if b.get("challenger") is not None else None
        icv = current_icv(battler, tokens, b)
        total = icv + sum(c["value"] for c in played)
        after = total - sum(b.get("challenge_values", []))
        battle = {
            "battler": battler.user.username, "token": token, "needed": token.strength + gh.BEAT_BY, "icv": icv,
            "played": played, "total": total, "challenger": challenger.user.username if challenger else "",
            "challenge": [({c["id"]: c for c in challenger.deck})[i] for i in b["challenge"]] if challenger else [],
            "after": after, "offered_to": by_seat[b["offers"][0]].user.username if b.get("offers") else "",
            "icv_card": ({c["id"]: c for c in battler.deck})[b["icv_card"]]["name"] if b.get("icv_card") is not None
            else "",
        }
    mine = {}
    if me is not None:
        deck = {c["id"]: c for c in me.deck}
        # Action cards: on one's own turn, while the turn's Action allows one more (GT9, GT18)
        turn = turn_so_far(game)
        my_turn_now = (me.seat == game.current_seat and game.phase == Game.TURN
                       and gh.action_cards_allowed(me.character, turn) > turn.action_cards)
        playing = game.status == Game.PLAYING and not me.in_hole

        def playable(card: dict) -> bool:  # what _do_card accepts: Action cards on your own turn only
            if not playing or card["type"] == BoxCard.VALUE:
                return False
            if any(is_card(card, slug) for slug in STRENGTH_ICV_CARDS):  # in one's own battle, as it begins
                try:
                    _strength_icv_check(game, me, card)
                except GameError:
                    return False
                return True
            return my_turn_now or card["type"] not in (BoxCard.ACTION, BoxCard.SPECIALTY_ACTION)

        hand = [{**deck[i], "type_label": TYPE_LABELS.get(deck[i]["type"], ""), "playable": playable(deck[i]),
                 "is_value": is_value_card(deck[i]), "is_specialty": deck[i]["type"] in SPECIALTY_TYPES}
                for i in me.hand]
        face_down = [{"id": t.pk, "label": t.label, "tile": t.tile} for t in tokens
                     if not t.revealed and t.state == TileToken.ON_BOARD]
        # Cornealius' specialty: a face-down token on his tile with each Specialty card he uses (GT16)
        reveals = me.character == gh.REVEALS_WITH_SPECIALTY and not me.dead and not me.in_hole and bool(face_down)
        on_players = my_turn_now and playing
        mine = {
            "hand": hand,
            "wound_cards": [deck[i] for i in me.wounds],
            "discard_cards": [deck[i] for i in me.discard],
            # Hole and Debris Action cards played on opponents' squares (GT14, GT15)
            "hole_card": next((c for c in hand if on_players and c["type"] == BoxCard.ACTION
                               and is_card(c, "hole")), None),
            "debris_card": next((c for c in hand if on_players and c["type"] == BoxCard.ACTION
                                 and is_card(c, "debris")), None),
            "targets": [{"seat": p.seat, "username": p.user.username, "in_hole": p.in_hole}
                        for p in players if p.pk != me.pk and not p.dead],
            "face_down": face_down,
            "reveal_tokens": face_down if reveals else [],
            "specialty_value_slots": list(range(sum(1 for c in hand if c["is_value"] and c["is_specialty"])))
            if reveals else [],
            # players who may stand on the square a moved token lands on: Lake's own square too (GT17)
            "move_targets": [{"seat": p.seat, "username": p.user.username, "in_hole": p.in_hole, "me": p.pk == me.pk}
                             for p in players if not p.dead
                             and (p.pk != me.pk or me.character == gh.MOVES_TOKENS_ON_OWN_TILE)],
            "lake": me.character == gh.MOVES_TOKENS_ON_OWN_TILE,
        }
    can = {}
    if me is not None and game.status == Game.PLAYING:
        my_turn = me.seat == game.current_seat
        # who resolves the pending encounter (a First-Aid Kit found before GT17 carries no seat: the current player)
        resolving = game.battle is not None and game.battle.get("seat", game.current_seat) == me.seat
        turn = turn_so_far(game)
        # an encounter where the piece stands (a revealed Ghoul or First-Aid Kit): no movement needed
        here = my_turn and game.phase == Game.TURN and not game.encountered and not me.dead and not me.in_hole
        try:  # Zone's trade (GT9), offered while the engine allows it
            gh.check_give_up_movement(me.character, turn, not me.dead)
            trade = my_turn and game.phase == Game.TURN and not me.in_hole
        except gh.IllegalPlay:
            trade = False
        can = {
            "replenish": my_turn and game.phase == Game.TURN_START,
            "turn": my_turn and game.phase == Game.TURN,
            "here": here,
            "move": here and not game.gave_up_movement,
            "give_up_movement": trade,
            "play": resolving and game.phase == Game.BATTLE,
            "challenge": game.phase == Game.CHALLENGE and bool(game.battle.get("offers"))
            and game.battle["offers"][0] == me.seat,
            "respond": resolving and game.phase == Game.RESPONSE,
            "first_aid": resolving and game.phase == Game.FIRST_AID,
            # the Action's option B (GT17, GT18)
            "move_token": my_turn and game.phase == Game.TURN and not game.action_taken and not me.in_hole,
        }
        can["debris_square"] = can["move"] and debris_in_game(players) > 0
        can["hole_square"] = can["move"] and holes_in_game(players) > 0
    current = by_seat.get(game.current_seat)
    resolver = by_seat.get((game.battle or {}).get("seat", game.current_seat)) if game.phase in PENDING else None
    return {
        "game": game, "me": me, "seats": seats, "tiles": tiles, "battle": battle, "mine": mine, "can": can,
        "current": current, "events": events, "show_seeds": game.status == Game.FINISHED,
        "winning_vp": gh.WINNING_VP, "hand_size": gh.HAND_SIZE, "challenge_max": gh.CHALLENGE_MAX_CARDS,
        "debris_max": debris_in_game(players), "resolver": resolver or current, "tiles_count": range(1, gh.TILES + 1),
        "move_spaces": gh.MOVE_TOKEN_SPACES,
    }


