"""What every participant of one version of a Slasher trial sees alike, built once per version and shared
by every participant's poll through the kit's cache (``core.games.shared_parts``).

The trial holds no hidden information: the shared part is the rows, the rules numbers and the engine's
state read from them, the figures every participant sees, and the public HTML (the grid's rows as a
viewer with no move on it sees them, the latest log entries). What one participant sees (their moves and
highlighted Squares, the forms with their CSRF token, their row marked in the table) is drawn per request,
from those rows: only the few Squares next to them are drawn again (``grid.rows_html``).

One grid with moves on it is the same for several participants: while Locations are blank, each who may
set theirs may set it on every uninhabited Square (``sl.location_choices``). That grid is drawn once too,
and a participant gets it only when their own Squares are exactly the ones it was drawn with.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from core.games.shared_parts import Pieces, SharedPart
from games.slasher_trial import grid, services
from games.slasher_trial.models import Trial
from rules import slasher_trial as sl

NAME = "board"
LOG_SHOWN = 20  # log entries on the board; the log page has the rest


@dataclass(frozen=True)
class Shared:
    trial: Trial
    participants: list
    state: sl.Trial
    public: dict  # what every participant sees alike (the figures)
    grid_rows: grid.Rows  # the grid's rows with no move on them, a piece per Square
    grid_html: str  # the grid with no move on it
    log_html: str
    location_squares: frozenset[str]  # where a blank Location may be set now (none when nobody may)
    location_grid_html: str  # the grid with those Squares to choose from

    def html(self, part: str) -> SafeString:
        return mark_safe(getattr(self, f"{part}_html"))  # our own rendering, escaped when it was drawn

    def own_grid(self, legal: dict) -> dict:
        """The grid of a participant with these legal moves (``services.legal_moves``), for the page's
        context: the grid drawn for the version when it is theirs exactly, else their rows drawn now."""
        squares = legal["location"] or legal["move"] or legal["repair"]
        if not squares:
            return {"grid_html": self.html("grid")}
        if legal["location"] == self.location_squares and not (legal["move"] or legal["repair"]):
            return {"grid_html": self.html("location_grid")}
        return {"grid_rows": grid.rows_html(self.state, self.grid_rows, legal)}


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
    rows = grid.rows(state)
    location_squares: frozenset[str] = frozenset()
    location_grid = ""
    if trial.state == Trial.PLAYING:  # the view asks for moves only then
        names = [state.monster.name, *(s.name for s in state.survivors)]
        location_squares = next((frozenset(c) for n in names if (c := sl.location_choices(state, n))), frozenset())
    if location_squares:
        choosing = {**nobody, "location": location_squares}
        location_grid = _grid(context, grid.rows_html(state, rows, choosing))
    return Shared(
        trial,
        participants,
        state,
        public,
        rows,
        _grid(context, grid.rows_html(state, rows, nobody)),
        render_to_string("trials/_log.html", context),
        location_squares,
        location_grid,
    )


def _grid(context: dict, rows: SafeString) -> str:
    return render_to_string("trials/_grid.html", {**context, "grid_rows": rows})


def trials():
    """The trials with their Monster, whom the page names: kept in the shared part with the trial."""
    return Trial.objects.select_related("monster")


PART = SharedPart(services.LABEL, NAME, trials, build)


def for_game(trial: Trial) -> Shared:
    return PART.for_game(trial)


def current(pk: int) -> Shared | None:
    return PART.current(pk)
