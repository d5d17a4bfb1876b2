"""`python manage.py loadcatalogue`: upsert every catalogue data file (idempotent)."""

from django.core.management.base import BaseCommand

from catalogue.loader import CATALOGUE_DIR, load_catalogues


class Command(BaseCommand):
    help = "Load catalogue/data/*.json into the catalogue tables (upsert by system + slug; never deletes)."

    def add_arguments(self, parser):
        parser.add_argument("--dir", default=str(CATALOGUE_DIR), help="Folder of catalogue JSON files.")

    def handle(self, *args, **options):
        for result in load_catalogues(options["dir"]):
            for message in result.messages:
                self.stdout.write(f"  {message}" if result.loaded else message)
            if not result.loaded:
                continue
            parts = [
                f"{section} {new + updated + unchanged} ({new} new, {updated} updated)"
                for section, (new, updated, unchanged) in result.counts.items()
            ]
            self.stdout.write(
                f"{result.label}: " + (", ".join(parts) or "no sections with a catalogue table (system row only)")
            )
