"""What every participant of one version of a Slasher trial sees alike, built once per version and shared
by every participant's poll through the kit's cache (``core.games.shared_parts``).

The trial holds no hidden information: the shared part is the rows, the rules numbers and the engine's
state read from them, the figures every participant sees, and the public HTML (the grid as a viewer with
no move on it sees it, the latest log entries). What one participant sees (their moves and highlighted
Squares, the forms with their CSRF token, their row marked in the table) is drawn per request.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from core.games.shared_parts import Pieces, SharedPart
from games.slasher_trial import services
from games.slasher_trial.models import Trial
from rules import slasher_trial as sl

NAME = "board"
LOG_SHOWN = 20  # log entries on the board; the log page has the rest


@dataclass(frozen=True)
class Shared:
    trial: Trial
    participants: list
    state: sl.Trial
    public: dict  # what every participant sees alike (the figures, the grid with no move on it)
    grid_html: str
    log_html: str

    def html(self, part: str) -> SafeString:
        return mark_safe(getattr(self, f"{part}_html"))  # our own rendering, escaped when it was drawn


def build(trial: Trial, pieces: Pieces | None = None) -> Shared:
    """Drawn whole each version: ``pieces`` is not used (``SharedPart`` passes it to every build). The log
    lines are one short line each: drawn again, they cost about what fingerprinting them would save."""
    participants = list(trial.participants.select_related("user"))
    generators = list(trial.generators.all())
    sections = services.rules_sections()
    rules = services.numbers(sections)
    state = services.engine_trial(trial, participants, generators, rules)
    nobody = services.legal_moves(state, None, "")
    counted = sum(1 for s in state.survivors if s.status is not None)
    odds = []
    if trial.state == Trial.OVER and sl.is_over(state):
        odds = [
            (n, f"{o.numerator}/{o.denominator}", f"{100 * float(o):.0f}") for n, o in sl.winner_odds(state).items()
        ]
    latest = list(trial.log.all()[: LOG_SHOWN + 1])
    public = {
        "trial": trial,
        "participants": participants,
        "survivors": [p for p in participants if not p.is_monster],
        "state": state,
        "rules": rules,
        "grid": services.grid(state, nobody),
        "columns": range(1, sl.COLUMNS + 1),
        # the latest entries only: a poll that redraws the board never sends the whole log
        "log": latest[:LOG_SHOWN],
        "older_log": len(latest) > LOG_SHOWN,
        "energy_each": sl.survivor_energy_per_advance(counted, rules.survivor_energy_pool) if counted else None,
        "counted": counted,
        "costs": {
            role: [
                (a["name"], a["slug"], rules.cost(role, a["slug"]))
                for a in sections.get(f"{role}_actions", [])
                if a["slug"] in dict(getattr(rules, f"{role}_costs"))
            ]
            for role in ("survivor", "monster")
        },
        "waiting": [s.name for s in state.survivors if s.living and s.readiness != sl.Readiness.READY],
        "odds": odds,
        "escape_cost": services.ESCAPE_COST,
        "repaired": state.repaired(),
    }
    context = {**public, "me": None, "legal": nobody}
    return Shared(
        trial,
        participants,
        state,
        public,
        render_to_string("trials/_grid.html", context),
        render_to_string("trials/_log.html", context),
    )


def trials():
    """The trials with their Monster, whom the page names: kept in the shared part with the trial."""
    return Trial.objects.select_related("monster")


PART = SharedPart(services.LABEL, NAME, trials, build)


def for_game(trial: Trial) -> Shared:
    return PART.for_game(trial)


def current(pk: int) -> Shared | None:
    return PART.current(pk)
