"""`python manage.py crew validate FILE | import FILE --owner USERNAME | export ID | pdf FILE -o OUT.pdf`.

Subcommands are dispatched from SUBCOMMANDS so other features (the PDF roster)
add theirs: ``SUBCOMMANDS["pdf"] = (add_pdf_arguments, run_pdf)`` where
``run(command, options)`` returns the exit code.
"""

import json
import sys
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from catalogue.loader import catalogue_file_for
from core.games import registry
from core.pdf import DEFAULT_PAPER
from crewbuilder.crewfile import (
    EXIT_UNREADABLE,
    MAX_BYTES,
    BadFormat,
    ImportRefused,
    bad_format_report,
    check_crew_file,
    export_crew,
    import_crew_file,
)
from crewbuilder.models import Crew
from crewbuilder.pdf import Catalogue, roster_pdf
from crewbuilder.validation import CatalogueSnapshot, for_programs


def read_file_bytes(path: str):
    """The file's bytes, or a BadFormat saying why it cannot be read (size checked before reading it all)."""

    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise BadFormat("", f"cannot read {path}: {exc.strerror or exc}") from None
    if len(raw) > MAX_BYTES:
        raise BadFormat("", f"the file is larger than {MAX_BYTES} bytes (256 KiB)")
    return raw


def add_validate_arguments(parser):
    parser.add_argument("file", help="Crew file (JSON); - reads standard input.")


def run_validate(command, options) -> int:
    try:
        raw = sys.stdin.buffer.read() if options["file"] == "-" else read_file_bytes(options["file"])
        _, report, code = check_crew_file(raw)
        report = for_programs(report)
    except BadFormat as error:
        report, code = bad_format_report(error), EXIT_UNREADABLE
    command.stdout.write(json.dumps(report, indent=2, ensure_ascii=False))
    return code


def add_import_arguments(parser):
    parser.add_argument("file", help="Crew file (JSON).")
    parser.add_argument("--owner", required=True, help="Username of the crew's owner.")


def run_import(command, options) -> int:
    owner = get_user_model().objects.named(options["owner"])
    if owner is None:
        raise CommandError(f"no user named {options['owner']!r}")
    try:
        crew, report = import_crew_file(read_file_bytes(options["file"]), owner)
    except BadFormat as error:
        report = bad_format_report(error)
        command.stderr.write(json.dumps(report, indent=2, ensure_ascii=False))
        return EXIT_UNREADABLE
    except ImportRefused as refused:
        command.stderr.write(json.dumps(refused.report, indent=2, ensure_ascii=False))
        codes = {e["code"] for e in refused.report["errors"]}
        return EXIT_UNREADABLE if "bad-format" in codes else 1
    command.stdout.write(str(crew.pk))
    for finding in report["errors"] + report["warnings"]:
        command.stderr.write(f"{finding['code']}: {finding['message']}")
    return 0


def add_export_arguments(parser):
    parser.add_argument("id", type=int, help="Crew id.")
    parser.add_argument(
        "--true-tokens",
        action="store_true",
        help="Soylent Ghoul drone sets: also write each drone's secret true token.",
    )


def run_export(command, options) -> int:

    crew = Crew.objects.with_everything().filter(pk=options["id"]).first()
    if crew is None:
        raise CommandError(f"no crew with id {options['id']}")
    options_for_system = {"true_tokens": True} if options.get("true_tokens") else {}
    command.stdout.write(export_crew(crew, **options_for_system), ending="")
    return 0


def crew_file_pdf(raw: bytes, paper: str = DEFAULT_PAPER):
    """(PDF bytes or None, report, exit code) for the raw bytes of a crew file.

    No database: the crew is read and validated against the catalogue data
    file shipped with the app (``manage.py crew pdf``). A crew that cannot be
    read gives no PDF; an invalid one prints, with its banner.
    """
    files = {}

    def snapshot_from_file(slug):
        data = catalogue_file_for(slug)
        if data is None:
            return None
        files[slug] = data
        return CatalogueSnapshot(data)

    crew, report, code = check_crew_file(raw, snapshot_lookup=snapshot_from_file)
    if crew is None:
        return None, report, code
    catalogue = Catalogue.from_data(files[crew.get("system", "cybernekro")])
    return roster_pdf(crew, report, catalogue, paper), report, code


def add_pdf_arguments(parser):
    parser.add_argument("file", help="Crew file (JSON); - reads standard input.")
    parser.add_argument("-o", "--output", required=True, help="PDF to write; - writes standard output.")
    parser.add_argument(
        "--paper", type=str.upper, choices=["A4", "LETTER"], default="A4", help="Paper size (default A4)."
    )


def run_pdf(command, options) -> int:
    """Print a crew file's roster, validated against the shipped catalogue file: no database."""

    try:
        raw = sys.stdin.buffer.read() if options["file"] == "-" else read_file_bytes(options["file"])
        data, report, code = _other_game_pdf(raw, options["paper"]) or crew_file_pdf(raw, options["paper"])
    except BadFormat as error:
        data, report, code = None, bad_format_report(error), EXIT_UNREADABLE
    if data is None:
        command.stderr.write(json.dumps(report, indent=2, ensure_ascii=False))
        return code
    if options["output"] == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        Path(options["output"]).write_bytes(data)
    if not report.get("valid"):
        command.stderr.write("The crew is not valid; the roster is printed with a banner:")
        for finding in report.get("errors", []):
            command.stderr.write(f"{finding['code']}: {finding['message']}")
    return 0


def _other_game_pdf(raw, paper):
    """A crew file of a registered game that prints its own cards; None for any other file."""
    for game in registry.games():
        if game.crew_file_pdf is not None:
            printed = game.crew_file_pdf(raw, paper)
            if printed is not None:
                return printed
    return None


# name -> (add_arguments(parser), run(command, options) -> exit code)
SUBCOMMANDS = {
    "validate": (add_validate_arguments, run_validate),
    "import": (add_import_arguments, run_import),
    "export": (add_export_arguments, run_export),
    "pdf": (add_pdf_arguments, run_pdf),
}


class Command(BaseCommand):
    help = (
        "Crew files: validate FILE, import FILE --owner USERNAME, export ID, pdf FILE -o OUT.pdf [--paper A4|LETTER]."
    )

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="subcommand", required=True)
        for name, (add_arguments, _) in SUBCOMMANDS.items():
            add_arguments(sub.add_parser(name))

    def handle(self, *args, **options):
        _, run = SUBCOMMANDS[options["subcommand"]]
        code = run(self, options)
        if code:
            sys.exit(code)
