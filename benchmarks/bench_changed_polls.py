"""A changed poll of each tracker with two players, in process (Django test client, DEBUG off): CPU time
medians and their ratio to the anonymous login page of the same run.

Two figures per tracker, since what every seat sees alike is built once per version in the cache:
the first seat to poll a new version (the shared part built from nothing: the entry, with the pieces a
build would take from the previous version, deleted first; the worst case) and another seat after it
(the shared part from the cache). make bench prints them; nothing is asserted.
"""

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.django_bench import ROOT, fresh_database, make_crew, start_django  # noqa: E402

# its own cache, emptied below: a fresh database gives the same ids again, which an older run's entries hold
os.environ["CACHE_DIR"] = str(ROOT / "var" / "bench-changed-polls-cache")
start_django("bench-changed-polls.sqlite3")

from django.core.cache import cache  # noqa: E402
from django.test import Client  # noqa: E402

HX = {"HTTP_HX_REQUEST": "true"}
REPEAT = 31


def cpu_ms(fn, before=lambda: None) -> float:
    """The median CPU time of ``fn`` (``before`` runs untimed ahead of each call)."""
    fn()  # warm: templates compiled, imports done
    samples = []
    for _ in range(REPEAT):
        before()
        start = time.process_time()
        response = fn()
        samples.append(time.process_time() - start)
        assert response.status_code == 200, response.status_code
    return statistics.median(samples) * 1000


def seated(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def soylent(users):
    from games.soylent_ghoul.play import services
    from games.soylent_ghoul.sets import services as sets

    drone_sets = [sets.create_drone_set(u, f"Set {u.username}", "gardeners", count=1) for u in users]
    game = services.create_game(users[0], drone_sets[0], [users[1].username])
    services.join(game.pk, users[1], drone_sets[1])
    services.start(game.pk, users[0], 0)
    return services.LABEL, game.pk, "board", f"/games/soylent/games/{game.pk}/"


def ghoulash(users):
    from games.ghoulash import services, shared_table
    from tests.games.ghoulash.conftest import complete_box

    game = services.create_game(
        users[0], complete_box(users[0]), "Bench", [(users[0].username, "lake"), (users[1].username, "gray")]
    )
    return services.LABEL, game.pk, shared_table.NAME, f"/games/ghoulash/games/{game.pk}/"


def slasher(users):
    from games.slasher_trial import services, shared_board

    trial = services.create_trial(users[0], "Bench")
    services.join(trial, users[1])
    services.act(trial, users[0], "generators")
    return services.LABEL, trial.pk, shared_board.NAME, f"/games/trials/{trial.pk}/"


def battle(users):
    from battles import services, shared_board

    crews = [make_crew(u, f"{u.username} crew", 3) for u in users]
    b = services.create_battle(users[0], "quick-start-scenario", crews[0].pk, [users[1].username])
    services.join(b.pk, users[1], crews[1].pk)
    services.start(b.pk, users[0], seed=1)
    return services.LABEL, b.pk, shared_board.NAME, f"/battles/{b.pk}/"


def main():
    fresh_database()
    cache.clear()
    from core.games.shared_parts import shared_key
    from crewbuilder.models import User

    login = Client()
    base = cpu_ms(lambda: login.get("/accounts/login/"))
    print(f"Changed poll, two players (DEBUG off, CPU median of {REPEAT}); anonymous login page {base:.2f} ms")
    trackers = (("Soylent Ghoul", soylent), ("Ghoulash", ghoulash), ("Slasher trial", slasher), ("Battle", battle))
    for name, setup in trackers:
        users = [User.objects.create_user(f"{name[:3].lower()}{n}", password="x") for n in range(2)]
        label, pk, part, url = setup(users)
        first, second = seated(users[0]), seated(users[1])
        poll = lambda c: c.get(f"{url}?v=0", **HX)  # noqa: E731
        key = shared_key(label, pk, part)
        poll(first)
        assert cache.get(key) is not None, key  # the entry the first seat's figure drops before each poll
        built = cpu_ms(lambda: poll(first), before=lambda: cache.delete(key))
        poll(first)  # the first seat built the shared part of this version
        shared = cpu_ms(lambda: poll(second))
        print(
            f"  {name}: first seat {built:.2f} ms ({built / base:.2f}x login), "
            f"another seat {shared:.2f} ms ({shared / base:.2f}x login)"
        )


if __name__ == "__main__":
    main()
