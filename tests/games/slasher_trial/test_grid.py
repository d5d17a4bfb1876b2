"""The grid's rows drawn in Python: a viewer's rows are the version's rows with only their own Squares drawn
again, and they are what drawing every Square for that viewer gives."""

import random
from dataclasses import replace

from games.slasher_trial import grid
from rules import slasher_trial as sl

NOBODY = {"location": set(), "move": set(), "repair": set()}


def scene() -> sl.Trial:
    t = sl.place_generators(sl.new_trial(["ann", "bo"]), random.Random(7))
    t = replace(t, generators=(sl.Generator("B2", 2), sl.Generator("T20", 100), *t.generators[2:]))
    t = sl.set_location(sl.set_location(t, "ann", "B3"), "Monster", "J10")
    return sl._with_survivor(t, replace(t.survivor("ann"), status=sl.Status.CAGED))


def every_square_drawn(state: sl.Trial, legal: dict) -> str:
    grounds, mine = grid._Grounds(state), grid.acts(legal)
    return "".join(
        grid._ROW_START.format(letter=sl.ROW_LETTERS[r])
        + "".join(
            grounds.cell(sl.square_name(r, c), mine.get(sl.square_name(r, c), "")) for c in range(1, sl.COLUMNS + 1)
        )
        + grid._ROW_END
        for r in range(sl.ROWS)
    )


def test_a_viewers_rows_are_every_square_drawn_for_them():
    state = scene()
    rows = grid.rows(state)
    for legal in (
        NOBODY,
        {**NOBODY, "move": {"A1", "A2", "T19", "J11", "C20"}, "repair": {"B2", "A2"}},  # A2: move comes first
        {**NOBODY, "location": set(state.uninhabited())},
    ):
        assert grid.rows_html(state, rows, legal) == every_square_drawn(state, legal)
    assert "".join(rows.pieces) == grid.rows_html(state, rows, NOBODY)


def test_a_square_as_the_template_drew_it():
    state = scene()
    html = grid.rows_html(state, grid.rows(state), {**NOBODY, "move": {"B2"}, "repair": {"B2"}})
    assert (
        '\n        <td class="sq sq-generator sq-act" data-square="B2">\n'
        '          <button type="submit" name="act" value="move:B2" class="sq-button" aria-label="Move to B2">\n'
        '          <span class="sq-label" title="Generator on B2: 2/100">G<small>2</small></span>\n'
        "          \n"
        "          </button>\n"
        "        </td>\n      "
    ) in html
    assert (
        '\n        <td class="sq sq-survivor sq-caged" data-square="B3">\n          \n          \n'
        '          <span class="sq-label" title="ann on B3">S1</span>\n          \n        </td>\n      '
    ) in html
    assert '<td class="sq sq-generator sq-repaired" data-square="T20">' in html
    assert html.count("<button") == 1 and html.count("data-square=") == 400
