"""The battle page and its poll: queries and time for 2x3 and 4x7 characters, 1 and 30 rounds of log.

make bench (DEBUG off). Prints figures and ratios only; nothing is asserted.
A long game is stood in for by 20 log lines a round, in the engine's state and
in the paginated log table alike.
"""

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.django_bench import fresh_database, median_ms, queries, start_django  # noqa: E402

start_django("bench-battles.sqlite3")

from django.test import Client  # noqa: E402

LINES_PER_ROUND = 20


def main():
    fresh_database()
    from battles import services
    from battles.models import Battle, BattleEvent
    from crewbuilder.models import Character, CharacterGear, Crew, GameSystem, Item, User
    from rules.cybernekro.battle import codec

    system = GameSystem.objects.get(slug="cybernekro")
    items = {slug: Item.objects.get(system=system, slug=slug) for slug in ("sword", "pistol", "light-armor")}

    def crew(user, size):
        c = Crew.objects.create(owner=user, system=system, name=f"{user.username} {size}")
        for i in range(size):
            ch = Character.objects.create(
                crew=c,
                name=f"{user.username} {i}",
                position=i,
                strength=2,
                toughness=1,
                agility=1,
                intellect=-1,
                discipline=-2,
            )
            for j, item in enumerate(items.values()):
                CharacterGear.objects.create(character=ch, item=item, position=j)
        return c

    def battle(players, size, rounds, tag):
        users = [User.objects.create_user(f"{tag}{n}", password="x") for n in range(players)]
        crews = [crew(u, size) for u in users]
        b = services.create_battle(users[0], "quick-start-scenario", crews[0].pk, [u.username for u in users[1:]])
        for u, c in zip(users[1:], crews[1:]):
            services.join(b.pk, u, c.pk)
        services.start(b.pk, users[0], seed=1)
        b = Battle.objects.get(pk=b.pk)
        state = codec.loads(b.state)
        for n in range(rounds * LINES_PER_ROUND):
            state = state.logged("0", f"bench line {n}", seed=n, rolls=({"what": "bench", "d20": [n % 20 + 1]},))
        b.state = codec.dumps(replace(state, round=rounds))
        b.save()
        BattleEvent.objects.bulk_create(
            [BattleEvent(battle=b, number=e.seq, text=e.text, seed=e.seed, rolls=list(e.rolls)) for e in state.log[1:]]
        )
        client = Client()
        client.force_login(users[0])
        return Battle.objects.get(pk=b.pk), client

    print("Battle page and poll (DEBUG off)")
    figures = {}
    for players, size in ((2, 3), (4, 7)):
        for rounds in (1, 30):
            b, client = battle(players, size, rounds, f"p{players}x{size}r{rounds}u")
            url = f"/battles/{b.pk}/"
            page = lambda: client.get(url)  # noqa: E731
            redraw = lambda: client.get(f"{url}?v=0", HTTP_HX_REQUEST="true")  # noqa: E731
            idle = lambda: client.get(f"{url}?v={b.version}", HTTP_HX_REQUEST="true")  # noqa: E731
            assert idle().status_code == 204
            row = {
                "page": (queries(page), median_ms(page)),
                "redraw": (queries(redraw), median_ms(redraw)),
                "idle": (queries(idle), median_ms(idle)),
                "state_kb": len(b.state) / 1024,
            }
            figures[(players, size, rounds)] = row
            print(
                f"  {players}x{size} characters, {rounds:2d} round(s) of log (state {row['state_kb']:.0f} kB): "
                f"page {row['page'][0]} queries {row['page'][1]:.1f} ms; poll after a change {row['redraw'][0]} "
                f"queries {row['redraw'][1]:.1f} ms; poll with no change (204) {row['idle'][0]} queries "
                f"{row['idle'][1]:.2f} ms"
            )
    base = figures[(2, 3, 1)]
    for key, row in figures.items():
        if key == (2, 3, 1):
            continue
        print(
            f"  ratio {key[0]}x{key[1]}, {key[2]} rounds / 2x3, 1 round: page {row['page'][1] / base['page'][1]:.2f}x, "
            f"queries {row['page'][0]}/{base['page'][0]}, poll {row['redraw'][1] / base['redraw'][1]:.2f}x, "
            f"204 poll {row['idle'][1] / base['idle'][1]:.2f}x"
        )


if __name__ == "__main__":
    main()
