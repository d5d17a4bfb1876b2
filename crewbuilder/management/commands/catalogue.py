"""`python manage.py catalogue export --system cybernekro`: the catalogue as JSON from the database."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from catalogue.loader import catalogue_file_for, current_system, export_catalogue, load_catalogues
from crewbuilder.models import GameSystem


def system_for_export(slug: str, edition):
    """The system row to export; loads the data files first when it is missing."""
    systems = GameSystem.objects.filter(slug=slug)
    if edition:
        systems = systems.filter(edition=edition)
    if not systems.exists():
        # A fresh database: the data files are the catalogue, so load them (idempotent).
        load_catalogues()
        systems = GameSystem.objects.filter(slug=slug)
        if edition:
            systems = systems.filter(edition=edition)
    return systems.order_by("-id").first() if edition else (current_system(slug) if systems.exists() else None)


class Command(BaseCommand):
    help = "Catalogue tools. `export --system SLUG [--edition E]` prints the whole catalogue as JSON."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        export = sub.add_parser("export", help="Print the catalogue of a game system as JSON.")
        export.add_argument("--system", required=True)
        export.add_argument("--edition", default=None)

    def handle(self, *args, **options):
        if options["action"] == "export":
            self.export(options["system"], options["edition"])

    def export(self, slug, edition):
        try:
            system = system_for_export(slug, edition)
            data = export_catalogue(system) if system else None
        except DatabaseError:
            # No tables yet (migrate not run): the data file is the same catalogue.
            sys.stderr.write("catalogue: database not ready; exporting the data file instead\n")
            data = catalogue_file_for(slug)
        if data is None:
            raise CommandError(f"unknown system: {slug}")
        self.stdout.write(json.dumps(data, indent=2, ensure_ascii=False))
