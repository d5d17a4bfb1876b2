"""One locked transaction per battle operation (core.locking.run_locked).

A move loads the engine's state from ``Battle.state`` (codec), checks the
version the player saw, lets ``battles.steps`` call one engine step (the rules
are the engine's: ``rules/cybernekro/battle``), stores the new state, copies
the new public log lines into ``BattleEvent`` and publishes the version.
"""

from __future__ import annotations

import json
import random
import secrets

from django.contrib.auth import get_user_model
from django.db import transaction

from campaigns.models import Campaign, CampaignCrew
from campaigns.permissions import user_is_member
from core.games.kit import Refused, Stale, bump_version, new_share_token
from core.locking import run_locked
from crewbuilder.models import Crew
from rules.cybernekro.battle import catalogue, codec, setup
from rules.cybernekro.battle import state as st
from rules.cybernekro.battle.state import Phase

from . import roster, steps
from .models import Battle, BattleEvent, BattleSeat

MAX_SEATS = 8
LABEL = "battles"


def scenario_choices() -> list[tuple[str, str]]:
    return [(s["slug"], s["name"]) for s in catalogue.data().get("scenarios", [])]


def new_seed() -> int:
    return secrets.randbits(32)


def _own_crew(user, crew_id) -> Crew:
    crew = Crew.objects.with_everything().filter(pk=crew_id, owner=user, system__slug=roster.SYSTEM).first()
    if crew is None:
        raise Refused("Choose one of your own Cybernekr0 crews.")
    return crew


def _check_scenario(scenario: str) -> None:
    if scenario not in dict(scenario_choices()):
        raise Refused("Choose a scenario of the rules.")


@transaction.atomic
def create_battle(creator, scenario: str, crew_id: int, usernames=(), share_tokens=()) -> Battle:
    """A battle of the creator's crew, players invited by username (they bring their own crew) and crews
    added by their share link (the crew's owner plays it)."""
    _check_scenario(scenario)
    crew = _own_crew(creator, crew_id)
    User = get_user_model()
    invited = []  # (user, crew or None)
    for name in [n.strip() for n in usernames if n.strip()]:
        user = User.objects.with_username(name).first()
        if user is None:
            raise Refused(f"There is no user called {name!r}.")
        invited.append((user, None))
    for token in [t.strip().rstrip("/").rsplit("/", 1)[-1] for t in share_tokens if t.strip()]:
        shared = Crew.objects.with_everything().filter(share_token=token, system__slug=roster.SYSTEM).first()
        if shared is None:
            raise Refused("No Cybernekr0 crew has that share link.")
        invited.append((shared.owner, shared))
    users = [creator.pk] + [u.pk for u, _ in invited]
    if len(users) != len(set(users)):
        raise Refused("Each player takes one seat: invite each once (and not yourself).")
    if len(users) < 2:
        raise Refused("A battle needs at least two crews: invite a player or add a crew's share link.")
    if len(users) > MAX_SEATS:
        raise Refused(f"At most {MAX_SEATS} players.")
    battle = Battle.objects.create(creator=creator, scenario=scenario)
    _seat(battle, creator, 0, crew)
    for index, (user, shared) in enumerate(invited, start=1):
        _seat(battle, user, index, shared)
    return battle


@transaction.atomic
def create_from_campaign(creator, campaign: Campaign, scenario: str) -> Battle:
    """A battle of a campaign's enrolled crews; only its members may start one."""
    _check_scenario(scenario)
    if not user_is_member(creator, campaign):
        raise Refused("Only the campaign's members start its battles.")
    crews = list(CampaignCrew.objects.filter(campaign=campaign).select_related("player").order_by("enrolled_at", "pk"))
    if len(crews) < 2:
        raise Refused("The campaign needs at least two enrolled crews.")
    battle = Battle.objects.create(creator=creator, scenario=scenario, campaign=campaign)
    loaded = {c.pk: c for c in Crew.objects.with_everything().filter(pk__in=[cc.crew_id for cc in crews])}
    for index, cc in enumerate(crews):
        seat = _seat(battle, cc.player, index, loaded[cc.crew_id])
        seat.campaign_crew = cc
        seat.save(update_fields=["campaign_crew"])
    return battle


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
        models = [m for s in seats for m in roster.models_for(str(s.seat), s.crew)]
        players = [(str(s.seat), f"{s.user.username} ({s.crew_name})") for s in seats]
        used = new_seed() if seed is None else seed
        try:
            state = setup.new_battle(players, models, battle.scenario, random.Random(used), used)
        except st.Refused as exc:
            raise Refused(str(exc)) from None
        battle.status = Battle.PLAYING
        _store(battle, state, None)

    _locked(pk, work)


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
    seat = battle.seats.filter(user=user).values_list("seat", flat=True).first()
    return None if seat is None else str(seat)


def act(pk: int, user, seen_version, data, seed: int | None = None) -> None:
    """One engine step by the user's seat; ``data`` is the posted form (read by battles.forms)."""

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
            new = steps.run(state, seat, data, random.Random(used), used, picks)
        except st.Refused as exc:
            raise Refused(_sentence(str(exc))) from None
        _store(battle, new, state)

    _locked(pk, work)


def choose_initiative(pk: int, user, data) -> None:
    """The player's character for the Initiative Tests (theirs to choose, kept until they change it)."""
    from .forms import InitiativeForm  # cycle: forms imports this module (scenario_choices)

    def work(battle: Battle):
        seat = battle.seats.filter(user=user).first()
        if battle.status != Battle.PLAYING or seat is None:
            raise Refused("Choose an Initiative character in a battle you play.")
        form = InitiativeForm(data, state=codec.loads(battle.state), seat=str(seat.seat))
        if not form.is_valid():
            raise Refused("Choose one of your characters on the board.")
        seat.initiative = form.cleaned_data["model"]
        seat.save(update_fields=["initiative"])
        bump_version(LABEL, battle.pk, battle.version)

    _locked(pk, work)


def _sentence(text: str) -> str:
    text = text.strip()
    return (text[:1].upper() + text[1:]).rstrip(".") + "." if text else "Not allowed now."


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
