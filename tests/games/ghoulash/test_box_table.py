"""Issue 19, the Ghoulash setup wall: a box starts from the text's numbers, the counts only the printed decks
hold go in one table saved once, every error is shown at once, and a game's refusal lists every gap."""

import re

import pytest
from django.urls import reverse

from games.ghoulash import services
from games.ghoulash.models import BoxCard
from tests.clients import logged_in

from .conftest import GHOUL_VP, STATS


def table_data(html: str) -> dict:
    """What the browser sends from the deck table as the page rendered it (pre-filled values included)."""
    form = html[html.index('id="deck-table"') :]
    form = form[: form.index("</form>")]
    data = {}
    for tag in re.findall(r"<input[^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        if name and "csrf" not in name.group(1):
            value = re.search(r'value="([^"]*)"', tag)
            data[name.group(1)] = value.group(1) if value else ""
    for name, body in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', form, re.S):
        chosen = re.search(r'<option value="([^"]*)" selected', body)
        data[name] = chosen.group(1) if chosen else ""
    return data


def rows(box) -> dict:
    """{(character, card name): form prefix} of the deck table, in the page's order."""
    return {(c.character, c.name): f"cards-{i}" for i, c in enumerate(box.cards.all())}


def test_the_table_is_pre_filled_and_one_save_enters_every_count(user, make_user, ghoulash_catalogue):
    box = services.create_box(user, "Attic copy")
    c = logged_in(user)
    html = c.get(box.get_absolute_url()).content.decode()
    data = table_data(html)
    prefix = rows(box)
    assert len(prefix) == box.cards.count() and data["cards-TOTAL_FORMS"] == str(len(prefix))
    # pre-filled with what is known: the types the text gives and the Value cards' values
    assert data[f"{prefix['lake', 'Hole']}-card_type"] == "action"
    assert data[f"{prefix['lake', 'Value 3']}-card_type"] == "value"
    assert data[f"{prefix['lake', 'Value 3']}-value"] == "3"
    assert data[f"{prefix['lake', 'Steal']}-card_type"] == ""
    assert "only your printed decks can say" in html and f"{len(prefix)} counts not entered yet" in html
    for (character, name), p in prefix.items():
        data[f"{p}-count"] = "0" if name == "Steal" else "1" if name not in ("Value 1", "Value 2", "Value 3") else "4"
    r = c.post(reverse("ghoulash-box-decks", args=[box.pk]), data)
    assert r.status_code == 302
    counts = {(b.character, b.name): b.count for b in box.cards.all()}
    assert counts[("zone", "Value 2")] == 4 and counts[("gray", "Steal")] == 0 and counts[("lake", "Hole")] == 1
    html = c.get(box.get_absolute_url()).content.decode()
    assert "The four decks pass the checks." in html and "counts not entered yet" not in html
    # with the profile numbers too, the box starts a game
    make_user("mara")
    services.save_numbers(box, STATS, GHOUL_VP)
    game = services.create_game(user, box, "x", [(user.username, "lake"), ("mara", "gray")])
    assert len(game.players.get(character="lake").deck) == 3 * 4 + 4  # twelve Value cards, four others


def test_every_error_of_the_table_at_once_and_nothing_saved(user, ghoulash_catalogue):
    box = services.create_box(user, "Box")
    c = logged_in(user)
    data = table_data(c.get(box.get_absolute_url()).content.decode())
    prefix = rows(box)
    data[f"{prefix['lake', 'Steal']}-count"] = "2"  # held but untyped
    data[f"{prefix['gray', 'Value 1']}-value"] = ""  # a Value card without its value
    data[f"{prefix['zone', 'Hole']}-value"] = "2"  # an Action card with a value
    data[f"{prefix['cornealius', 'Parry']}-count"] = "-1"
    data[f"{prefix['zone', 'Debris']}-count"] = "abc"
    data[f"{prefix['lake', 'Hole']}-count"] = "3"  # fine, but not saved with the others wrong
    r = c.post(reverse("ghoulash-box-decks", args=[box.pk]), data)
    html = r.content.decode()
    assert r.status_code == 422
    assert "Nothing was saved: 5 things to fix, all listed here and in their rows." in html
    for message in (
        "Lake, Steal: Choose its type",
        "Gray, Value 1: A Value card needs its value.",
        "Zone, Hole: Action and Rescue cards have no value",
        "Cornealius, Parry: Ensure this value is greater than or equal to 0.",
        "Zone, Debris: Enter a whole number.",
    ):
        assert message in html, message
    assert html.count('class="gh-row-error"') == 10  # each wrong row and its message row
    assert not BoxCard.objects.filter(box=box, count__isnull=False).exists()
    # what was typed is still there
    again = table_data(html)
    assert again[f"{prefix['lake', 'Hole']}-count"] == "3" and again[f"{prefix['lake', 'Steal']}-count"] == "2"


def test_a_table_from_an_older_tab_answers_409_and_keeps_what_was_typed(user, ghoulash_catalogue):
    box = services.create_box(user, "Box")
    tab_a, tab_b = logged_in(user), logged_in(user)
    data_a = table_data(tab_a.get(box.get_absolute_url()).content.decode())
    prefix = rows(box)
    hole = box.cards.get(character="lake", name="Hole")
    edit = reverse("ghoulash-card-edit", args=[box.pk, hole.pk])
    assert (
        tab_b.post(
            edit,
            {"character": "lake", "card_type": "action", "name": "Hole", "count": "3", "text": "", "seen_version": "1"},
        ).status_code
        == 302
    )
    data_a[f"{prefix['lake', 'Hole']}-count"] = "2"
    data_a[f"{prefix['lake', 'Debris']}-count"] = "2"
    r = tab_a.post(reverse("ghoulash-box-decks", args=[box.pk]), data_a)
    html = r.content.decode()
    assert r.status_code == 409 and "Some cards changed elsewhere" in html and "Hole (Lake) now counts 3" in html
    assert box.cards.get(pk=hole.pk).count == 3 and box.cards.get(character="lake", name="Debris").count is None
    again = table_data(html)
    assert again[f"{prefix['lake', 'Hole']}-count"] == "2" and again[f"{prefix['lake', 'Hole']}-seen_version"] == "2"
    assert tab_a.post(reverse("ghoulash-box-decks", args=[box.pk]), again).status_code == 302
    assert box.cards.get(pk=hole.pk).count == 2 and box.cards.get(character="lake", name="Debris").count == 2


def test_another_users_box_table_is_404(user, make_user, ghoulash_catalogue):
    box = services.create_box(user, "Box")
    r = logged_in(make_user("zed")).post(reverse("ghoulash-box-decks", args=[box.pk]), {})
    assert r.status_code == 404


def test_a_game_refused_lists_every_gap_at_once(user, make_user, ghoulash_catalogue):
    """ "It took 18 form submissions": the refusal names every missing number and count in one answer."""
    make_user("mara")
    box = services.create_box(user, "Box")
    with pytest.raises(services.SetupProblems) as caught:
        services.create_game(user, box, "x", [(user.username, "cornealius"), ("mara", "zone")])
    problems = caught.value.problems
    assert problems[:3] == [
        "Cornealius: enter Initial Combat Value and Health in the game box (the rules text does not give them).",
        "Gen. James Harold Zone: enter Initial Combat Value and Health in the game box (the rules text does not "
        "give them).",
        "Enter the Victory Points of the strength 6, 4 Ghouls in the game box.",
    ]
    assert any(p.startswith("Cornealius: enter how many Value 1,") for p in problems)
    assert any(p.startswith("Zone: enter how many Value 1,") for p in problems)
    r = logged_in(user).post(
        reverse("ghoulash-home"),
        {
            "form": "game",
            "name": "Friday",
            "box": box.pk,
            "player_1": user.username,
            "character_1": "cornealius",
            "player_2": "mara",
            "character_2": "zone",
        },
    )
    html = r.content.decode()
    assert r.status_code == 422 and f"({len(problems)} things to enter, all listed here)" in html
    assert all(p.replace("'", "&#x27;") in html for p in problems)


def test_the_box_page_query_budget(user, ghoulash_catalogue, django_assert_num_queries):
    """The box, the catalogue's edition and sections, the cards (read once for the table, the checks and the
    totals), whatever the number of cards; the session and the user from the cache."""
    box = services.create_box(user, "Box")
    c = logged_in(user)
    c.get(reverse("ghoulash-home"))  # the first page after signing in reads the user
    with django_assert_num_queries(4):
        assert c.get(box.get_absolute_url()).status_code == 200
    BoxCard.objects.bulk_create(
        [
            BoxCard(box=box, character="lake", card_type=BoxCard.VALUE, name=f"Extra {i}", value=1, count=1)
            for i in range(20)
        ]
    )
    with django_assert_num_queries(4):
        assert c.get(box.get_absolute_url()).status_code == 200
