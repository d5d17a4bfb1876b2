"""A new version's shared part takes from the previous build the pieces a move left alone (issue 20)."""

import pytest
from django.core.cache import cache

from core.games.shared_parts import Pieces, SharedPart

pytestmark = pytest.mark.django_db


class Game:
    def __init__(self, pk, version):
        self.pk, self.version = pk, version


@pytest.fixture(autouse=True)
def fragment(settings, tmp_path):
    (tmp_path / "fragment").mkdir()
    (tmp_path / "fragment" / "x.html").write_text("<p>{{ x }}</p>")
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [tmp_path]}]


def test_only_the_pieces_whose_key_is_new_are_drawn():
    first = Pieces()
    a, b = first.render("fragment/x.html", {"x": "a"}, ("a",)), first.render("fragment/x.html", {"x": "b"}, ("b",))
    second = Pieces(first.drawn)
    assert second.render("fragment/x.html", {"x": "changed"}, ("b",)) == b  # the same key: taken as it was
    assert second.render("fragment/x.html", {"x": "c"}, ("c",)) == "<p>c</p>" and a == "<p>a</p>"
    assert second.taken == 1 and len(second.drawn) == 2  # only what this build used is kept


def test_a_build_takes_the_last_build_s_pieces_of_the_same_game_only():
    cache.clear()
    drawn = []

    def build(game, pieces):
        drawn.append(game.version)
        return [pieces.render("fragment/x.html", {"x": n}, (n,)) for n in range(game.version, game.version + 2)]

    part = SharedPart("app.game", "board", lambda: None, build)
    assert part.for_game(Game(1, 4)) == ["<p>4</p>", "<p>5</p>"]
    assert part.for_game(Game(1, 4)) == ["<p>4</p>", "<p>5</p>"] and drawn == [4]  # once per version
    value, pieces = part.build_new(Game(1, 5))
    assert value == ["<p>5</p>", "<p>6</p>"] and pieces.taken == 1  # "5" taken from version 4's build
    assert part.build_new(Game(2, 5))[1].taken == 0  # another game's pieces are never taken
