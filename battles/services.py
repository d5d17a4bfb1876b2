"""One locked transaction per battle operation (core.locking.run_locked).

A move loads the engine's state from ``Battle.state`` (codec), checks the
version the player saw, lets ``battles.steps`` call one engine step (the rules
are the engine's: ``rules/cybernekro/battle``), stores the new state, copies
the new public log lines into ``BattleEvent`` and publishes the version.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import secrets
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q

from campaigns.models import Campaign, CampaignCrew, CampaignScenario, Membership
from campaigns.permissions import user_is_member
from core.games.kit import Refused, Stale, bump_version, new_share_token
from core.games.sentences import as_sentence
from core.locking import run_locked
from crewbuilder.models import Crew
from rules.cybernekro import scenarios as draws
from rules.cybernekro.battle import catalogue, codec, setup
from rules.cybernekro.battle import state as st
from rules.cybernekro.battle.generator import TableRandom
from rules.cybernekro.battle.state import Phase

from . import roster, steps
from .models import Battle, BattleEvent, BattleSeat

MAX_SEATS = 8
LABEL = "battles"


DRAW_METHODS = ("deck", "d12")
CAMPAIGN_KEY = "campaign:"  # a campaign scenario's choice key: "campaign:<pk>"


def scenario_choices(campaign: Campaign | None = None) -> list[tuple[str, str]]:
    """The rules' scenarios (the group's house rules marked), then (in a campaign's battle) the campaign's own (B32)."""
    rules = [
        (s["slug"], f"{s['name']} (house rule)" if s.get("house_rule") else s["name"])
        for s in catalogue.data().get("scenarios", [])
    ]
    if campaign is None:
        return rules
    own = [(f"{CAMPAIGN_KEY}{s.pk}", f"{s.name} (campaign scenario)") for s in campaign.scenarios.all()]
    return rules + own


def new_seed() -> int:
    return secrets.randbits(32)


def _own_crew(user, crew_id) -> Crew:
    crew = Crew.objects.with_everything().filter(pk=crew_id, owner=user, system__slug=roster.SYSTEM).first()
    if crew is None:
        raise Refused("Choose one of your own Cybernekr0 crews.")
    return crew


def _set_scenario(battle: Battle, key: str) -> None:
    """Put the scenario ``key`` (a rules slug, or "campaign:<pk>" of the battle's campaign) on the battle."""
    campaign_scenario = None
    if key.startswith(CAMPAIGN_KEY):
        number = key.removeprefix(CAMPAIGN_KEY)
        if battle.campaign_id and number.isdigit():
            campaign_scenario = CampaignScenario.objects.filter(pk=int(number), campaign_id=battle.campaign_id).first()
        if campaign_scenario is None:
            raise Refused("Choose one of the scenarios listed.")
    elif key not in dict(scenario_choices()):
        raise Refused("Choose a scenario of the rules.")
    battle.scenario = Battle.CAMPAIGN_SCENARIO if campaign_scenario else key
    battle.campaign_scenario = campaign_scenario


def _draw_scenario(battle: Battle, method: str, seed: int | None) -> None:
    """ "Draw a card ... or use a D12": the card gives the campaign scenario its organiser put on it (C8),
    else the group agrees on one (``pick_scenario``) since the free rules do not say which it is (C4)."""
    if method not in DRAW_METHODS:
        raise Refused("Draw a card or roll a D12.")
    used = new_seed() if seed is None else seed
    cards = {}
    if battle.campaign_id:
        cards = {s.card: f"{CAMPAIGN_KEY}{s.pk}" for s in battle.campaign.scenarios.exclude(card=None)}
    drawn = setup.draw_scenario(random.Random(used), method, cards)
    battle.scenario_draw = {
        "method": drawn.card.method,
        "number": drawn.card.number,
        "label": drawn.card.label,
        "seed": used,
        "on_card": drawn.on_card,
    }
    battle.scenario, battle.campaign_scenario = "", None
    if drawn.on_card:
        _set_scenario(battle, drawn.on_card)


def _scenario(battle: Battle, scenario: str, draw: str, seed: int | None) -> None:
    if draw:
        _draw_scenario(battle, draw, seed)
    else:
        _set_scenario(battle, scenario)


def _game_master(name: str):
    user = get_user_model().objects.named(name) if name.strip() else None
    if name.strip() and user is None:
        raise Refused(f"There is no user called {name.strip()!r} to be the game master.")
    return user


@transaction.atomic
def create_battle(
    creator,
    scenario: str,
    crew_id: int | None,
    usernames=(),
    share_tokens=(),
    *,
    draw: str = "",
    game_master: str = "",
    hold_rolls: bool = False,
    seed: int | None = None,
) -> Battle:
    """A battle of the creator's crew, players invited by username (they bring their own crew) and crews
    added by their share link (the crew's owner plays it). ``draw`` ("deck" or "d12") draws the scenario
    instead of ``scenario`` (seeded by ``seed``). ``game_master``: a username, maybe the creator's own
    (then the creator plays no crew). ``hold_rolls``: each roll waits for every player (B65)."""
    gm = _game_master(game_master)
    creator_plays = gm is None or gm.pk != creator.pk
    crew = _own_crew(creator, crew_id) if creator_plays else None
    User = get_user_model()
    invited = []  # (user, crew or None)
    for name in [n.strip() for n in usernames if n.strip()]:
        user = User.objects.named(name)
        if user is None:
            raise Refused(f"There is no user called {name!r}.")
        invited.append((user, None))
    for token in [t.strip().rstrip("/").rsplit("/", 1)[-1] for t in share_tokens if t.strip()]:
        shared = Crew.objects.with_everything().filter(share_token=token, system__slug=roster.SYSTEM).first()
        if shared is None:
            raise Refused("No Cybernekr0 crew has that share link.")
        invited.append((shared.owner, shared))
    users = ([creator.pk] if creator_plays else []) + [u.pk for u, _ in invited]
    if len(users) != len(set(users)):
        raise Refused("Each player takes one seat: invite each once (and not yourself).")
    if gm is not None and gm.pk in users:
        raise Refused("The game master plays no crew: name someone who is not a player.")
    if len(users) < 2:
        raise Refused("A battle needs at least two crews: invite a player or add a crew's share link.")
    if len(users) > MAX_SEATS:
        raise Refused(f"At most {MAX_SEATS} players.")
    battle = Battle(creator=creator, game_master=gm, hold_rolls=hold_rolls)
    _scenario(battle, scenario, draw, seed)
    battle.save()
    seated = ([(creator, crew)] if creator_plays else []) + invited
    for index, (user, own) in enumerate(seated):
        _seat(battle, user, index, own)
    return battle


@transaction.atomic
def create_from_campaign(
    creator,
    campaign: Campaign,
    scenario: str,
    *,
    draw: str = "",
    game_master=None,
    hold_rolls: bool = False,
    seed: int | None = None,
) -> Battle:
    """A battle of a campaign's enrolled crews; only its members may start one. ``game_master``: a member
    with no enrolled crew (maybe the creator)."""
    if not user_is_member(creator, campaign):
        raise Refused("Only the campaign's members start its battles.")
    crews = list(CampaignCrew.objects.filter(campaign=campaign).select_related("player").order_by("enrolled_at", "pk"))
    if len(crews) < 2:
        raise Refused("The campaign needs at least two enrolled crews.")
    if game_master is not None and not user_is_member(game_master, campaign):
        raise Refused("The game master is one of the campaign's members.")
    if game_master is not None and any(cc.player_id == game_master.pk for cc in crews):
        raise Refused("The game master plays no crew: choose a member with no crew enrolled.")
    battle = Battle(creator=creator, campaign=campaign, game_master=game_master, hold_rolls=hold_rolls)
    _scenario(battle, scenario, draw, seed)
    battle.save()
    loaded = {c.pk: c for c in Crew.objects.with_everything().filter(pk__in=[cc.crew_id for cc in crews])}
    for index, cc in enumerate(crews):
        seat = _seat(battle, cc.player, index, loaded[cc.crew_id])
        seat.campaign_crew = cc
        seat.save(update_fields=["campaign_crew"])
    return battle


def game_master_candidates(campaign: Campaign) -> list:
    """The campaign's members with no crew enrolled (a game master plays no crew)."""
    User = get_user_model()
    players = CampaignCrew.objects.filter(campaign=campaign).values("player_id")
    members = Membership.objects.accepted().filter(campaign=campaign).values("user_id")
    chosen = User.objects.filter(Q(pk=campaign.organiser_id) | Q(pk__in=members)).exclude(pk__in=players)
    return list(chosen.order_by("username"))


def join_as_game_master(pk: int, user) -> None:
    """A campaign member with no crew in the battle becomes its game master before it starts (at most one)."""

    def work(battle: Battle):
        if battle.status != Battle.SETUP:
            raise Refused("The battle has started.")
        if battle.campaign_id is None or not user_is_member(user, battle.campaign):
            raise Refused("Only the campaign's members join its battles.")
        if battle.seats.filter(user=user).exists():
            raise Refused("The game master plays no crew: you have one in this battle.")
        if battle.game_master_id is not None:
            raise Refused("The battle already has a game master.")
        battle.game_master = user
        battle.save()
        bump_version(LABEL, battle.pk, battle.version)

    _locked(pk, work)


def pick_scenario(pk: int, user, *, scenario: str) -> None:
    """The card drawn names a scenario the free rules lack: "you can simply agree on which one to play"."""

    def work(battle: Battle):
        if battle.status != Battle.SETUP:
            raise Refused("The battle has started.")
        if battle.creator_id != user.pk:
            raise Refused("The player who set the battle up records the scenario agreed on.")
        if battle.scenario:
            raise Refused("The battle's scenario is already set.")
        _set_scenario(battle, scenario)
        battle.save()
        bump_version(LABEL, battle.pk, battle.version)

    _locked(pk, work)


def _seat(battle: Battle, user, index: int, crew: Crew | None) -> BattleSeat:
    seat = BattleSeat(battle=battle, user=user, seat=index)
    if crew is not None:
        seat.crew, seat.crew_name, seat.source_crew = roster.snapshot(crew), crew.name, crew
    seat.save()
    return seat


def _locked(pk: int, work):
    return run_locked(
        Battle, pk, work, missing=Refused("No such battle."), busy=Refused("The battle is busy: try again.")
    )


def _check_version(battle: Battle, seen) -> None:
    # run_locked has already bumped the row's version by one
    if str(seen) != str(battle.version - 1):
        raise Stale("The battle moved on since your page was drawn: here it is now.")


def join(pk: int, user, crew_id) -> None:
    def work(battle: Battle):
        if battle.status != Battle.SETUP:
            raise Refused("The battle has started.")
        seat = battle.seats.filter(user=user).first()
        if seat is None:
            raise Refused("You have no seat in this battle.")
        if battle.campaign_id:
            raise Refused("A campaign battle plays the enrolled crews.")
        crew = _own_crew(user, crew_id)
        seat.crew, seat.crew_name, seat.source_crew = roster.snapshot(crew), crew.name, crew
        seat.save()
        bump_version(LABEL, battle.pk, battle.version)

    _locked(pk, work)


def start(pk: int, user, seed: int | None = None) -> None:
    """Every seat has its crew: the engine sets the battle up (decks shuffled, seeded)."""

    def work(battle: Battle):
        if battle.status != Battle.SETUP:
            raise Refused("The battle has started.")
        if battle.creator_id != user.pk:
            raise Refused("The player who set the battle up starts it.")
        seats = list(battle.seats.select_related("user").order_by("seat"))
        waiting = [s.user.username for s in seats if not s.joined]
        if waiting:
            raise Refused("Waiting for " + ", ".join(waiting) + " to choose a crew.")
        if not battle.scenario:
            raise Refused("Agree on the scenario to play first.")
        models = [m for s in seats for m in roster.models_for(str(s.seat), s.crew)]
        players = [(str(s.seat), f"{s.user.username} ({s.crew_name})") for s in seats]
        used = new_seed() if seed is None else seed
        try:
            state = setup.new_battle(
                players,
                models,
                _played(battle),
                _generator(battle, used),
                used,
                drawn=_drawn(battle),
                draw_seed=battle.scenario_draw.get("seed"),
                game_master=battle.game_master_id is not None,
                hold_rolls=battle.hold_rolls,
            )
        except st.Refused as exc:
            raise Refused(str(exc)) from None
        battle.status = Battle.PLAYING
        _store(battle, state, None)

    _locked(pk, work)


def _played(battle: Battle) -> str | setup.OwnScenario:
    if battle.scenario != Battle.CAMPAIGN_SCENARIO:
        return battle.scenario
    own = battle.campaign_scenario
    if own is None:
        raise Refused("The campaign scenario was removed: choose another one.")
    return setup.OwnScenario(own.name, own.draws_complication)


def _drawn(battle: Battle) -> setup.ScenarioDraw | None:
    d = battle.scenario_draw
    if not d:
        return None
    return setup.ScenarioDraw(draws.Draw(d["method"], d["number"], d["label"]), d.get("on_card"))


def _store(battle: Battle, state: st.Battle, old: st.Battle | None) -> None:
    """Save the state, append its new public log lines, publish the version."""
    common = 0
    if old is not None:
        for a, b in zip(old.log, state.log):
            if a != b:
                break
            common += 1
        if common < len(old.log):  # an undo took lines back (never a roll: those are final)
            BattleEvent.objects.filter(battle=battle, number__gt=common).delete()
    BattleEvent.objects.bulk_create(
        [
            BattleEvent(
                battle=battle,
                number=e.seq,
                round=state.round,
                seat=e.seat or "",
                text=e.text,
                seed=e.seed,
                rolls=json.loads(json.dumps(list(e.rolls), default=str)),
            )
            for e in state.log[common:]
        ]
    )
    battle.state = codec.dumps(state)
    if state.phase is Phase.ENDED:
        battle.status = Battle.FINISHED
    battle.save()
    bump_version(LABEL, battle.pk, battle.version)


def seat_of(battle: Battle, user) -> str | None:
    """The user's engine seat: their table seat, the game master's, or None (not in this battle)."""
    seat = battle.seats.filter(user=user).values_list("seat", flat=True).first()
    if seat is None:
        return st.GM if battle.game_master_id is not None and battle.game_master_id == user.pk else None
    return str(seat)


def _generator(battle: Battle, seed: int) -> TableRandom:
    """A step's generator: its dice from the logged seed, its deck shuffles from the seed and the battle's secret
    (derived from the server's SECRET_KEY: never in the log, the export or a page), so no hand can be rebuilt."""
    secret = hmac.new(settings.SECRET_KEY.encode(), f"battle-decks:{battle.pk}".encode(), hashlib.sha256).hexdigest()
    return TableRandom(seed, secret)


def act(pk: int, user, *, seen_version: int, option: str, inputs: Mapping[str, Any], seed: int | None = None) -> None:
    """One engine step by the user's seat (or the game master): ``option`` the key of a legal step,
    ``inputs`` its checked inputs (battles.forms.StepForm.inputs)."""

    def work(battle: Battle):
        if battle.status != Battle.PLAYING:
            raise Refused("The battle is not being played.")
        seat = seat_of(battle, user)
        if seat is None:
            raise Refused("You have no seat in this battle.")
        _check_version(battle, seen_version)
        state = codec.loads(battle.state)
        used = new_seed() if seed is None else seed
        picks = {str(s.seat): s.initiative for s in battle.seats.all() if s.initiative}
        try:
            new = steps.run(state, seat, option, inputs, _generator(battle, used), used, picks)
        except st.Refused as exc:
            raise Refused(_sentence(str(exc), state)) from None
        _store(battle, new, state)

    _locked(pk, work)


def choose_initiative(pk: int, user, *, model: str) -> None:
    """The player's character for the Initiative Tests (theirs to choose, kept until they change it)."""

    def work(battle: Battle):
        seat = battle.seats.filter(user=user).first()
        if battle.status != Battle.PLAYING or seat is None:
            raise Refused("Choose an Initiative character in a battle you play.")
        state = codec.loads(battle.state)
        if model not in {m.id for m in state.crew(str(seat.seat)) if not m.imprisoned}:
            raise Refused("Choose one of your characters on the board.")
        seat.initiative = model
        seat.save(update_fields=["initiative"])
        bump_version(LABEL, battle.pk, battle.version)

    _locked(pk, work)


def _sentence(text: str, state: st.Battle | None = None) -> str:
    """The engine's refusal as a sentence: a capital first, unless it starts with a player's or a model's name,
    written as its player wrote it ("alice must choose ...")."""
    names = [p.name for p in state.players] + [m.name for m in state.models] if state is not None else []
    return as_sentence(text, names)


def share(pk: int, user) -> str:
    def work(battle: Battle):
        if battle.campaign_id or not battle.seats.filter(user=user).exists():
            raise Refused("Only a standalone battle's players share it.")
        if not battle.share_token:
            battle.share_token = new_share_token()
        battle.save(update_fields=["share_token", "version"])
        bump_version(LABEL, battle.pk, battle.version)  # the polls' cached version must move with the row
        return battle.share_token

    return _locked(pk, work)
