"""The largest page each limit allows (docs/limits.md), in KB and ms. Figures only.

Builds the largest crew, campaign and Ghoulash box the limits of
crewbuilder/limits.py allow in a throwaway database, then prints each page's
size and median time through Django's test client (DEBUG=0), and each PDF's
size and cold render time (rendered in the request, as `make run` does;
`make serve` renders them in its PDF worker instead, see bench_pdf_server.py).
"""

import logging
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TMP = Path(tempfile.mkdtemp(prefix="crewbuilder-limits-"))
os.environ["DATABASE_URL"] = f"sqlite:///{TMP / 'bench.sqlite3'}"
os.environ["PDF_CACHE_DIR"] = str(TMP / "pdf-cache")
os.environ["TASKS_BACKEND"] = "immediate"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "bench-" + "x" * 60)
os.environ.setdefault("ALLOWED_HOSTS", "testserver")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

REPEAT = int(os.environ.get("BENCH_RUNS", "7"))
logging.getLogger("weasyprint").setLevel(logging.ERROR)  # CSS it skips, printed once per render


def page(client, url, repeat=REPEAT):
    client.get(url)  # warm-up
    samples, size, status = [], 0, None
    for _ in range(repeat):
        start = time.perf_counter()
        response = client.get(url)
        samples.append(time.perf_counter() - start)
        size, status = len(response.content), response.status_code
    return status, size, statistics.median(samples)


def cold_pdf(client, url):
    shutil.rmtree(os.environ["PDF_CACHE_DIR"], ignore_errors=True)
    start = time.perf_counter()
    response = client.get(url)
    return response.status_code, len(response.content), time.perf_counter() - start


def main() -> int:
    from benchmarks.worst_case import worst_crew
    from campaigns import services as campaign_services
    from crewbuilder import limits
    from crewbuilder.models import Crew, GameSystem, User
    from games.ghoulash import services as ghoulash_services

    call_command("migrate", verbosity=0)
    with open(os.devnull, "w") as quiet:
        call_command("loadcatalogue", verbosity=0, stdout=quiet)
        call_command("collectstatic", interactive=False, verbosity=0, stdout=quiet)
    system = GameSystem.objects.filter(slug="cybernekro").order_by("-edition").first()
    owner = User.objects.create_user("limits", password="x" * 20)
    crew = worst_crew(owner, system)
    Crew.objects.filter(pk=crew.pk).update(share_token="limits")
    campaign = campaign_services.create_campaign(
        owner,
        name="Longest",
        system=system,
        description="d" * limits.CAMPAIGN_DESCRIPTION_MAX,
        house_rules="h" * limits.CAMPAIGN_HOUSE_RULES_MAX,
    )
    box = ghoulash_services.create_box(owner, "Wordiest")
    box.cards.update(text="t" * limits.CARD_TEXT_MAX, count=limits.CARD_COUNT_MAX)

    client = Client()
    client.force_login(owner)
    rows = [
        (
            f"crew editor, {limits.CHARACTERS_MAX} characters at every limit",
            page(client, reverse("crew-edit", args=[crew.pk])),
        ),
        ("crew page, the same crew", page(client, reverse("crew-detail", args=[crew.pk]))),
        ("shared crew page, the same crew", page(Client(), reverse("crew-shared", args=["limits"]))),
        ("crew file export, the same crew", page(client, reverse("crew-export", args=[crew.pk]))),
        (
            f"campaign page, {limits.CAMPAIGN_DESCRIPTION_MAX:,}-character description and house rules",
            page(client, reverse("campaign-detail", args=[campaign.pk])),
        ),
        (
            f"Ghoulash box page, {box.cards.count()} cards of {limits.CARD_TEXT_MAX:,} characters",
            page(client, reverse("ghoulash-box", args=[box.pk])),
        ),
        ("roster PDF, the same crew (cold)", cold_pdf(client, reverse("crew-roster", args=[crew.pk]))),
        ("roster PDF again (from the shared cache)", page(client, reverse("crew-roster", args=[crew.pk]))),
        (
            f"Ghoulash decks PDF, {box.cards.count()} cards x {limits.CARD_COUNT_MAX} (cold)",
            cold_pdf(client, reverse("ghoulash-box-pdf", args=[box.pk])),
        ),
    ]
    login = page(Client(), reverse("login"))
    print(
        f"medians of {REPEAT} (cold PDFs: one render); the login page for scale: "
        f"{login[1] / 1024:.1f} KB in {login[2] * 1000:.1f} ms"
    )
    for label, (status, size, seconds) in rows:
        print(
            f"{label:<72} {status} {size / 1024:8.1f} KB {seconds * 1000:9.1f} ms  "
            f"({seconds / login[2]:.1f}x the login page)"
        )
    shutil.rmtree(TMP, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
