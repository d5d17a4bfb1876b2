"""Issue 17, finding 6: a card edit from an older tab answers 409 with a clear message, never overwrites."""

import re

from django.urls import reverse

from ghoulash import services
from ghoulash.models import BoxCard
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
