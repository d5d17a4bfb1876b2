"""The Trial Grounds' rows as HTML, drawn in Python: 400 Squares through the template cost most of a poll.

What stands on each Square is the same for every participant of one version, so the rows with no move on
them are drawn once per version (``Rows``, kept in the shared part), one piece per Square. A viewer's own
grid takes those pieces and draws again only the Squares they may act on (a few: the ones next to them).
Every piece is escaped when it is drawn. ``trials/_grid.html`` draws the table around the rows.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from rules import slasher_trial as sl

# what a viewer may do on a Square (a Square in several sets takes the first), and its button's name
ACTS = {"location": "Set your Location to", "move": "Move to", "repair": "Repair the Generator on"}

# the template's own whitespace, kept so the page is the same byte for byte as when the template drew it
_ROW_START = '\n      <tr><th scope="row">{letter}</th>\n      '
_ROW_END = "\n      </tr>\n    "
_CELL = '\n        <td class="{classes}" data-square="{square}">\n          {open}\n          {inside}\n          {close}\n        </td>\n      '
_BUTTON = '<button type="submit" name="act" value="{act}:{square}" class="sq-button" aria-label="{label} {square}">'
# where each Square's piece is in ``Rows.pieces``: a row is its start, its Squares, its end
_PIECE = {sl.square_name(r, c): r * (sl.COLUMNS + 2) + c for r in range(sl.ROWS) for c in range(1, sl.COLUMNS + 1)}


class Rows(NamedTuple):
    """The rows of one version with no move on them, as pieces (``"".join(pieces)`` draws them)."""

    pieces: tuple[str, ...]


class _Grounds:
    """What stands where in one state, to draw any Square of it."""

    def __init__(self, state: sl.Trial):
        self.generators = {g.square: g for g in state.generators or ()}
        self.people: dict[str, list[tuple[str, str, str]]] = {}
        if state.monster.location:
            self.people.setdefault(state.monster.location, []).append(("monster", state.monster.name, "M"))
        for i, s in enumerate(state.survivors, start=1):
            if s.location:
                self.people.setdefault(s.location, []).append(("survivor", s.name, f"S{i}"))
        self.status = {s.name: (s.status.value if s.status else "blank").lower() for s in state.survivors}
        self.state = state

    def cell(self, square: str, act: str = "") -> str:
        if square not in self.generators and square not in self.people:
            return _empty(square, act)
        g = self.generators.get(square)
        sq = escape(square)
        classes = ["sq"]
        generator = ""
        if g:
            classes += ["sq-generator"] + (["sq-repaired"] if self.state.is_repaired(g) else [])
            generator = (
                f'<span class="sq-label" title="Generator on {sq}: {g.progress}/{self.state.numbers.repair_max}">'
                f"G<small>{g.progress}</small></span>"
            )
        labels = []
        for kind, who, label in self.people.get(square, ()):
            classes += [f"sq-{kind}"] + ([f"sq-{self.status[who]}"] if kind == "survivor" else [])
            labels.append(f'<span class="sq-label" title="{escape(who)} on {sq}">{escape(label)}</span>')
        if act:
            classes.append("sq-act")
        return _cell(escape(" ".join(classes)), sq, act, f"{generator}\n          {''.join(labels)}")


def _cell(classes: str, square: str, act: str, inside: str) -> str:
    return _CELL.format(
        classes=classes,
        square=square,
        open=_BUTTON.format(act=act, square=square, label=ACTS[act]) if act else "",
        inside=inside,
        close="</button>" if act else "",
    )


@cache  # at most 400 Squares x (no act, 3 acts), the same in every trial: most Squares of a grid are empty
def _empty(square: str, act: str) -> str:
    return _cell("sq sq-act" if act else "sq", escape(square), act, "\n          ")


def rows(state: sl.Trial) -> Rows:
    """The rows as every participant sees them when they have no move on the grid (once per version)."""
    grounds = _Grounds(state)
    pieces = []
    for r in range(sl.ROWS):
        pieces.append(_ROW_START.format(letter=escape(sl.ROW_LETTERS[r])))
        pieces += [grounds.cell(sl.square_name(r, c)) for c in range(1, sl.COLUMNS + 1)]
        pieces.append(_ROW_END)
    return Rows(tuple(pieces))


def acts(legal: dict) -> dict[str, str]:
    """Square -> what the viewer may do there, from ``services.legal_moves``."""
    out: dict[str, str] = {}
    for act in reversed(ACTS):  # the first of ACTS wins
        out.update(dict.fromkeys(legal[act], act))
    return out


def rows_html(state: sl.Trial, drawn: Rows, legal: dict) -> SafeString:
    """The rows for one viewer: the version's pieces, with the Squares they may act on drawn again
    highlighted, each a button."""
    pieces = list(drawn.pieces)
    mine = acts(legal)
    if mine:
        grounds = _Grounds(state)
        for square, act in mine.items():
            pieces[_PIECE[square]] = grounds.cell(square, act)
    return mark_safe("".join(pieces))  # every piece escaped when it was drawn
