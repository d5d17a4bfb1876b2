"""A new version's shared part takes from the previous one the parts a move left alone (issue 20)."""

import pytest
from django.core.cache import cache

from core.games import kit

pytestmark = pytest.mark.django_db


def test_the_previous_shared_value_is_there_whatever_its_version():
    cache.clear()
    assert kit.shared_previous("app.game", 1, "board") is None
    kit.shared_for_version("app.game", 1, 4, "board", lambda: "drawn for 4")
    assert kit.shared_previous("app.game", 1, "board") == "drawn for 4"
    assert kit.shared_previous("app.game", 2, "board") is None  # another game's is never taken


def test_only_the_parts_whose_key_is_new_are_drawn():
    drawn = []

    def draw(text):
        drawn.append(text)
        return f"<p>{text}</p>"

    first = kit.reuse_drawn(None, [("a", lambda: draw("a")), ("b", lambda: draw("b"))])
    second = kit.reuse_drawn(first, [("b", lambda: draw("b")), ("c", lambda: draw("c"))])
    assert second == {"b": "<p>b</p>", "c": "<p>c</p>"} and drawn == ["a", "b", "c"]
