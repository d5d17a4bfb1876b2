import pytest
from django.core.cache import cache

from battles import services
from battles.models import Battle
from rules.cybernekro.battle import codec
from tests.crewbuilder.conftest import LEGAL, catalogue, geared_crew, make_crew  # noqa: F401  (shared fixtures)


@pytest.fixture
def started(user, other_user, geared_crew):
    """A started battle (Quick start) of ``size`` characters a side between user (seat 0) and other_user."""

    def make(size=3, seed=1, players=None):
        players = players or [user, other_user]
        crews = [geared_crew(u, size, name=f"Crew of {u.username}") for u in players]
        battle = services.create_battle(
            players[0], "quick-start-scenario", crews[0].pk, [u.username for u in players[1:]]
        )
        for u, crew in zip(players[1:], crews[1:]):
            services.join(battle.pk, u, crew.pk)
        services.start(battle.pk, players[0], seed=seed)
        for index, u in enumerate(players):  # each player's Initiative character: their first
            services.choose_initiative(battle.pk, u, model=f"{index}-0")
        return Battle.objects.get(pk=battle.pk)

    return make


def post_step(client, battle, option, htmx=True, **extra):
    battle.refresh_from_db()
    data = {"v": battle.version, "option": option, **extra}
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(f"/battles/{battle.pk}/act/", data, headers=headers)


@pytest.fixture(autouse=True)
def seeded(monkeypatch):
    """Every roll of a test battle seeded in order (1001, 1002, ...): the tests are repeatable."""
    import itertools

    counter = itertools.count(1001)
    monkeypatch.setattr(services, "new_seed", lambda: next(counter))


def advance(battle, clients, until, limit=60, prefer=()):
    """Whoever may move takes their first legal step (a preferred step first) until ``until(state)``."""
    from battles import steps
    from rules.cybernekro.battle import codec, legal

    for _ in range(limit):
        battle.refresh_from_db()
        state = codec.loads(battle.state)
        if until(state):
            return state
        seat, options = next((s, o) for s in state.seats if (o := legal.legal(state, s)))
        option = next((o for o in options if o.step in prefer), options[0])
        extra = {}
        if option.step == "assign_ap":
            extra = even_split(option.args)
        r = post_step(clients[seat], battle, steps.key(option), **extra)
        assert r.status_code == 200, r.content.decode()[:500]
    raise AssertionError("the battle never got there")


def even_split(args):
    """10 AP over the models (1 to their cap each), as the form would post it."""
    split = {mid: 1 for mid, _cap in args}
    left = min(10, sum(cap for _mid, cap in args)) - len(args)
    for mid, cap in list(args) * 4:
        if left and split[mid] < cap:
            split[mid] += 1
            left -= 1
    return {f"ap_{mid}": ap for mid, ap in split.items()}


def put(battle, state):
    """Set a scene: the battle's state written as it is, not by a move."""
    battle.state = codec.dumps(state)
    battle.save(update_fields=["state"])
    cache.clear()  # not a move, so the version is the same: the shared part is rebuilt from the new state


def load(battle):
    """The battle's state as stored now."""
    battle.refresh_from_db()
    return codec.loads(battle.state)


def action_scene(battle, clients):
    """Steps taken until an Active Player may act with nothing open: (state, that seat, its first model, the
    other seat's first model)."""
    from rules.cybernekro.battle.state import Phase

    state = advance(battle, clients, lambda s: s.phase is Phase.ACTION and s.active_seat and not s.pending)
    seat = state.active_seat
    return state, seat, f"{seat}-0", f"{'1' if seat == '0' else '0'}-0"
