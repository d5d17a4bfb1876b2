"""python manage.py odds FILE|-  — answer an odds request (odds-format.md)."""

import json
import sys

from django.core.management.base import BaseCommand

from crewbuilder.odds_weapons import catalogue_weapons
from rules import OddsRequestError, odds
from rules.odds import read_request


class Command(BaseCommand):
    help = "Print the exact odds for a request in odds-format.md (FILE or - for stdin)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="request JSON file, or - for standard input")

    def handle(self, *args, **options):
        try:
            if options["file"] == "-":
                text = sys.stdin.read()
            else:
                with open(options["file"], encoding="utf-8") as handle:
                    text = handle.read()
            # Windows editors save UTF-8 with a byte order mark; crew files accept it too.
            request = read_request(text.removeprefix("\ufeff"))
            answer = odds(request, weapons=catalogue_weapons())
        except (OSError, UnicodeDecodeError) as exc:
            self._fail(f"cannot read {options['file']}: {exc}")
        except OddsRequestError as exc:
            self._fail(str(exc))
        self.stdout.write(json.dumps(answer))

    def _fail(self, message: str):
        self.stdout.write(json.dumps({"error": message}))
        sys.exit(2)
