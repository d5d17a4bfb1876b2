"""An organiser's roll table reads exactly one row for each result of its die, and its effects stay small."""

import pytest

from campaigns.services.base import CampaignError
from campaigns.services.tables import parse_rows


@pytest.mark.parametrize(
    ("rows", "die", "message"),
    [
        ("1-3 | Scar\n3-6 | Limp", "D6", "Line 2: 3 is already on line 1; each result needs exactly one row."),
        ("6-1 | Scar", "D6", "Line 1: the range 6-1 runs backwards; write 1-6."),
        ("0-6 | Scar", "D6", "Line 1: D6 rolls 1 to 6; 0-6 is not among them."),
        ("1-7 | Scar", "D6", "Line 1: D6 rolls 1 to 6; 1-7 is not among them."),
        ("1-6 | Scar | toughness -4", "D6", "Line 1: a row changes an attribute by at most 3 either way, not -4."),
        ("1-6 | Scar | toughness -1, toughness -1", "D6", "Line 1: toughness is changed twice"),
        ("11-16 | Scar\n17-66 | Limp", "D66", "Line 2: D66 rolls 11 to 66; 17-66 is not among them."),
    ],
)
def test_a_table_that_would_read_two_rows_or_none_is_refused(rows, die, message):
    with pytest.raises(CampaignError, match=message.replace("(", r"\(").replace(")", r"\)").replace("+", r"\+")):
        parse_rows(rows, die)


def test_a_table_whose_rows_take_each_result_once_is_read():
    rows = parse_rows("1-2 | Scar | toughness -1, agility 3\n3 | Limp\n4-6 | Fine", "D6")
    assert [(r["low"], r["high"]) for r in rows] == [(1, 2), (3, 3), (4, 6)]
    assert rows[0]["attributes"] == {"toughness": -1, "agility": 3}
    assert [(r["low"], r["high"]) for r in parse_rows("11-36 | A\n41-66 | B", "D66")] == [(11, 36), (41, 66)]


def test_changes_add_up_within_what_a_crew_file_stores():
    from campaigns.services.games import change_attributes
    from crewbuilder.models import Character

    character = Character(name="Scarred")
    for _ in range(4):
        change_attributes(character, {"toughness": -3})
    assert character.attribute_changes == {"toughness": -9}  # -12 would not export (crew_edits.ATTRIBUTE_STORAGE_RANGE)
    change_attributes(character, {"toughness": 9})
    assert character.attribute_changes == {}  # back to none: no key
