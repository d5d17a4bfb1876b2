"""Issue 17, finding 6: a card edit from an older tab answers 409 with a clear message, never overwrites."""

import re

from django.urls import reverse

from games.ghoulash import services
from games.ghoulash.models import BoxCard
from tests.clients import logged_in


def _form(html: str) -> dict:
    """The values a browser would send from the card's edit form, as the page rendered it."""
    data = dict(re.findall(r'<input type="(?:hidden|number|text)" name="(\w+)" value="([^"]*)"', html))
    data.update(re.findall(r'<select name="(\w+)"[^>]*>.*?<option value="([^"]*)" selected', html, re.S))
    data["text"] = re.search(r'<textarea name="text"[^>]*>\n?(.*?)</textarea>', html, re.S).group(1)
    return data


def test_an_older_tab_gets_409_and_keeps_both_saves(user, ghoulash_catalogue):
    box = services.create_box(user, "Box")
    card = box.cards.get(character="lake", catalogue_slug="hole")
    edit = reverse("ghoulash-card-edit", args=[box.pk, card.pk])
    tab_a, tab_b = logged_in(user), logged_in(user)
    form_a, form_b = _form(tab_a.get(edit).content.decode()), _form(tab_b.get(edit).content.decode())
    assert form_a["seen_version"] == "1" and form_a["card_type"] == "action"  # pre-filled with what is known
    assert tab_b.post(edit, {**form_b, "count": "3"}).status_code == 302
    r = tab_a.post(edit, {**form_a, "count": "2", "text": "typed in tab A"})
    html = r.content.decode()
    assert r.status_code == 409
    assert "This card changed elsewhere" in html and "your change was not saved" in html and "3 in the deck" in html
    printed = card.text
    card.refresh_from_db()
    assert (card.count, card.text, card.version) == (3, printed, 2)  # tab B's save stands
    # what tab A typed is still in the form, now against the newer version: saving again is a choice
    again = _form(html)
    assert (again["count"], again["text"], again["seen_version"]) == ("2", "typed in tab A", "2")
    assert tab_a.post(edit, again).status_code == 302
    card.refresh_from_db()
    assert (card.count, card.text, card.version) == (2, "typed in tab A", 3)


def test_a_form_without_its_version_is_refused_with_a_message(user, ghoulash_catalogue):
    box = services.create_box(user, "Box")
    card = box.cards.get(character="lake", catalogue_slug="hole")
    edit = reverse("ghoulash-card-edit", args=[box.pk, card.pk])
    r = logged_in(user).post(edit, {"character": "lake", "card_type": "action", "name": "Hole", "count": "2"})
    assert r.status_code == 422 and "reload the card" in r.content.decode()
    assert BoxCard.objects.get(pk=card.pk).count is None


def test_numbers_from_an_older_tab_answer_409_and_keep_what_was_typed(user, ghoulash_catalogue):
    """The box's profile numbers, edited from two tabs: the older tab's save never wins silently."""
    box = services.create_box(user, "Box")
    tab_a, tab_b = logged_in(user), logged_in(user)
    html_a = tab_a.get(box.get_absolute_url()).content.decode()
    assert 'name="seen_version" value="1"' in html_a
    assert tab_b.post(box.get_absolute_url(), {"seen_version": "1", "lake__health": "5"}).status_code == 302
    r = tab_a.post(box.get_absolute_url(), {"seen_version": "1", "lake__health": "6", "gray__health": "4"})
    html = r.content.decode()
    assert r.status_code == 409 and "The numbers changed elsewhere" in html
    box.refresh_from_db()
    assert box.stats == {"lake": {"health": 5}} and box.version == 2  # tab B's save stands
    assert 'name="seen_version" value="2"' in html and 'name="lake__health" value="6"' in html
    assert (
        tab_a.post(box.get_absolute_url(), {"seen_version": "2", "lake__health": "6", "gray__health": "4"}).status_code
        == 302
    )
    box.refresh_from_db()
    assert box.stats == {"lake": {"health": 6}, "gray": {"health": 4}}
    r = tab_a.post(box.get_absolute_url(), {"lake__health": "7"})  # a form without its version
    assert r.status_code == 422 and "reload the box" in r.content.decode()
