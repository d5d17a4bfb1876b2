"""Lists that scale (issue 18): /crews/ and /dice/ with 1 and 200 crews (make bench, DEBUG off).

Prints figures and ratios only; the target is 200 crews within 1.5x of 1 crew.
"""

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.django_bench import fresh_database, make_crew, queries, start_django  # noqa: E402

start_django("bench_lists.sqlite3")

from django.test import Client  # noqa: E402

TARGET_RATIO = 1.5


def main():
    fresh_database()
    from crewbuilder import crew_service
    from crewbuilder.models import Crew, User

    clients = {}
    for count in (1, 200):
        owner = User.objects.create_user(f"bench{count}", password="x")
        first = make_crew(owner, "Crew 0", 5)
        for i in range(1, count):
            Crew.objects.filter(pk=crew_service.duplicate(first, owner).pk).update(name=f"Crew {i}")
        clients[count] = Client()
        clients[count].force_login(owner)
        for url in ("/crews/", "/dice/"):
            clients[count].get(url)  # the first visit stores the summaries of the page's crews

    print(f"Lists with 1 and 200 crews of 5 characters (DEBUG off; target: 200 within {TARGET_RATIO}x of 1)")
    print("  (requests to the two sizes alternate, so a busy machine slows both alike; min and median of 40)")
    for url in ("/crews/", "/dice/"):
        samples = {1: [], 200: []}
        for _ in range(40):
            for count, client in clients.items():
                start = time.perf_counter()
                client.get(url)
                samples[count].append((time.perf_counter() - start) * 1000)
        q1, q200 = queries(lambda: clients[1].get(url)), queries(lambda: clients[200].get(url))
        (min1, med1), (min200, med200) = ((min(samples[c]), statistics.median(samples[c])) for c in (1, 200))
        print(
            f"  {url:8} 1 crew: {q1} queries, min {min1:.1f} ms, median {med1:.1f} ms; "
            f"200 crews: {q200} queries, min {min200:.1f} ms, median {med200:.1f} ms; "
            f"ratio {min200 / min1:.2f}x (min), {med200 / med1:.2f}x (median)"
        )


if __name__ == "__main__":
    main()
