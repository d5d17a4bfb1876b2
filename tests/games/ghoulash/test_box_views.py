"""Game boxes: the catalogue's cards pre-listed, the owner's numbers (never the rules' own), cards, checks, PDF."""

from django.urls import reverse

from games.ghoulash import services
from games.ghoulash.models import BoxCard, GhoulashBox
from rules import ghoulash as gh
from tests.clients import logged_in

from .conftest import complete_box


def test_the_games_menu_lists_ghoulash(client, user):
    client.force_login(user)
    html = client.get("/games/").content.decode()
    assert reverse("ghoulash-home") == "/games/ghoulash/" and "/games/ghoulash/" in html


def test_creating_a_box_prelists_the_catalogues_cards(user, ghoulash_catalogue):
    c = logged_in(user)
    r = c.post(reverse("ghoulash-home"), {"form": "box", "name": "Attic copy"})
    box = GhoulashBox.objects.get(owner=user)
    assert r.status_code == 302 and r["Location"] == box.get_absolute_url()
    cards = list(box.cards.all())
    by_deck = {
        slug: sorted(c.catalogue_slug for c in cards if c.character == slug)
        for slug in ("lake", "gray", "cornealius", "zone")
    }
    common = ["debris", "hole", "inaction", "parry", "steal", "value", "value", "value"]
    assert by_deck["lake"] == common
    assert by_deck["gray"] == sorted(common + ["ready-for-anything", "the-right-ghoo-for-the-job"])
    assert by_deck["cornealius"] == sorted(common + ["heavy-artillery"])
    assert by_deck["zone"] == sorted(common + ["strategic-intel"])
    assert all(c.count is None for c in cards)  # never made up
    # "Value — ... ranging in value from 1 to 3": the values are the text's, in every deck
    values = [(c.character, c.name, c.card_type, c.value) for c in cards if c.catalogue_slug == "value"]
    assert values == [
        (slug, f"Value {v}", "value", v) for slug in ("cornealius", "gray", "lake", "zone") for v in (1, 2, 3)
    ]
    assert all(c.value is None for c in cards if c.catalogue_slug != "value")
    steal = next(c for c in cards if c.catalogue_slug == "steal")
    assert steal.card_type == ""  # the text does not say what type Steal is
    html = c.get(box.get_absolute_url()).content.decode()
    assert "Lake: enter how many Value 1, Value 2, Value 3, Hole, Debris, Steal, Parry and Inaction cards" in html
    assert "choose the type of Steal" in html


def test_the_box_page_marks_rules_numbers_and_asks_only_for_the_missing_ones(user, ghoulash_catalogue):
    box = services.create_box(user, "Box")
    c = logged_in(user)
    html = c.get(box.get_absolute_url()).content.decode()
    assert 'name="lake__health"' in html and 'name="cornealius__initial_combat_value"' in html
    assert 'name="lake__initial_combat_value"' not in html  # Lake's 1 is the rules'
    assert 'name="ghoul_6"' in html and 'name="ghoul_4"' in html and 'name="ghoul_5"' not in html
    r = c.post(
        box.get_absolute_url(),
        {"seen_version": "1", "lake__health": "5", "ghoul_6": "3", "lake__initial_combat_value": "9", "ghoul_5": "7"},
    )
    assert r.status_code == 302
    box.refresh_from_db()
    assert box.stats == {"lake": {"health": 5}} and box.ghoul_vp == {"6": 3}
    profile = {p["slug"]: p for p in services.profiles(box, services.catalogue())}
    assert profile["lake"]["numbers"]["initial_combat_value"] == 1
    assert [s["source"] for s in profile["lake"]["stats"]] == ["rules", None, "box"]
    assert {
        g["strength"]: (g["victory_points"], g["source"]) for g in services.ghoul_values(box, services.catalogue())
    } == {6: (3, "box"), 5: (2, "rules"), 4: (None, None)}
    r = c.post(box.get_absolute_url(), {"seen_version": "2", "lake__health": "0"})
    assert r.status_code == 422


def test_cards_are_added_edited_and_removed_with_checked_values(user, ghoulash_catalogue):
    box = services.create_box(user, "Box")
    c = logged_in(user)
    add = reverse("ghoulash-card-add", args=[box.pk])
    ok = {"character": "lake", "card_type": "value", "name": "Ghoo Shot", "value": "3", "count": "4", "text": ""}
    assert c.post(add, ok).status_code == 302
    card = box.cards.get(name="Ghoo Shot")
    assert (card.value, card.count) == (3, 4)
    for bad, message in (
        ({"value": "4"}, f"range from 1 to {gh.VALUE_CARD_MAX}"),
        ({"value": ""}, "needs its value"),
        ({"card_type": "action", "value": "2"}, "have no value"),
        ({"card_type": "specialty-value", "value": "5"}, "value of 1 to 4"),
        ({"count": ""}, "required"),
        ({"card_type": ""}, "required"),
    ):
        r = c.post(add, {**ok, **bad})
        assert r.status_code == 422 and message in r.content.decode(), bad
    assert c.post(add, {**ok, "card_type": "specialty-value", "value": "4", "name": "Marked"}).status_code == 302
    edit = reverse("ghoulash-card-edit", args=[box.pk, card.pk])
    assert c.get(edit).status_code == 200
    assert c.post(edit, {**ok, "count": "5", "seen_version": "1"}).status_code == 302
    card.refresh_from_db()
    assert card.count == 5
    assert c.post(reverse("ghoulash-card-delete", args=[box.pk, card.pk])).status_code == 302
    assert not BoxCard.objects.filter(pk=card.pk).exists()


def test_the_box_page_shows_the_rules_deck_checks(user, ghoulash_catalogue):
    box = complete_box(user)
    c = logged_in(user)
    assert "The four decks pass the checks" in c.get(box.get_absolute_url()).content.decode()
    BoxCard.objects.create(box=box, character="zone", card_type=BoxCard.VALUE, name="Odd", value=1, count=1)
    html = c.get(box.get_absolute_url()).content.decode()
    assert "Value cards differ between Lake and Zone" in html


def test_the_deck_lists_print_as_a_pdf(user, ghoulash_catalogue):
    box = complete_box(user)
    r = logged_in(user).get(reverse("ghoulash-box-pdf", args=[box.pk]) + "?paper=A4")
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf"
    assert r.content.startswith(b"%PDF") and len(r.content) > 5000


def test_setting_up_a_game_from_the_home_page(user, make_user, ghoulash_catalogue):
    make_user("mara")
    box = complete_box(user)
    c = logged_in(user)
    form = {
        "form": "game",
        "name": "Friday",
        "box": box.pk,
        "player_1": "vox",
        "character_1": "lake",
        "player_2": "mara",
        "character_2": "zone",
    }
    r = c.post(reverse("ghoulash-home"), form)
    assert r.status_code == 302
    r = c.post(reverse("ghoulash-home"), {**form, "character_2": "lake"})
    assert r.status_code == 422 and "one player only" in r.content.decode()
    other = complete_box(make_user("zed"), "Not yours")
    r = c.post(reverse("ghoulash-home"), {**form, "box": other.pk})
    assert r.status_code == 422
    html = logged_in(user).get(reverse("ghoulash-home")).content.decode()
    assert "Friday" in html and "Not yours" not in html
