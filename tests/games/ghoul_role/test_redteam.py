"""Red-team probes of the Ghoul role sheet: a sheet is its owner's; the read-only link
reads and never writes; nothing another sheet owns can be reached through one's own;
no input answers a 500."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.ghoul_role import services, views
from games.ghoul_role.models import Event, GhoulSheet, TerrorCard
from tests.clients import logged_in
from tests.games.ghoul_role.conftest import post_act, with_version

HX = {"HTTP_HX_REQUEST": "true"}
FIELDS = (
    "pair",
    "keep",
    "why",
    "what",
    "target",
    "label",
    "use",
    "source",
    "card",
    "amount",
    "dice",
    "face",
    "n",
    "value",
    "count",
    "steps",
    "attack",
    "share",
    "name",
    "loot",
    "unattackable",
    "defense",
    "points",
    "delta",
    "backstab",
)
BAD = ["", "abc", "-1", "0-0", "0-9", "9-9", "-1--2", "1.5", "99999999999999999999999", "x" * 300, "\u0661", "0-1-2"]


def sheet_urls(sheet, card_id=1):
    return [
        reverse("ghoulrole-sheet", args=[sheet.pk]),
        reverse("ghoulrole-undo", args=[sheet.pk]),
        reverse("ghoulrole-card-name", args=[sheet.pk, card_id]),
        reverse("ghoulrole-share", args=[sheet.pk]),
        reverse("ghoulrole-delete", args=[sheet.pk]),
    ] + [reverse("ghoulrole-action", args=[sheet.pk, a]) for a in services.ACTIONS]


def state(sheet) -> dict:
    fresh = GhoulSheet.objects.get(pk=sheet.pk)
    return {
        "sheet": {f: getattr(fresh, f) for f in GhoulSheet.STATE_FIELDS} | {"share": fresh.share_token},
        "events": Event.objects.filter(sheet=sheet).count(),
        "cards": list(TerrorCard.objects.filter(sheet=sheet).values_list("pk", "name", "status")),
    }


@pytest.fixture
def shared(make_sheet, owner):
    sheet = make_sheet()
    return services.set_sharing(sheet.pk, owner, on=True)


def test_a_visitor_is_sent_to_log_in_everywhere(client, shared):
    before = state(shared)
    for u in sheet_urls(shared) + [reverse("ghoulrole-home")]:
        for r in (client.get(u), client.post(u, {"share": "1", "name": "x"})):
            assert r.status_code in (302, 405), u
            if r.status_code == 302:
                assert r["Location"].startswith("/accounts/login/"), u
    assert state(shared) == before


def test_another_user_gets_404_everywhere(shared, stranger):
    c = logged_in(stranger)
    before = state(shared)
    for u in sheet_urls(shared):
        assert c.get(u).status_code in (404, 405), u
        assert c.post(u, {"share": "1", "name": "x", "card": "1"}, **HX).status_code in (404, 405), u
    assert state(shared) == before and GhoulSheet.objects.filter(pk=shared.pk).exists()
    assert shared.title not in c.get(reverse("ghoulrole-home")).content.decode() or not shared.title


@pytest.mark.parametrize("who", ["visitor", "stranger", "owner"])
def test_the_read_only_link_has_no_way_to_change_anything(client, shared, stranger, owner, who):
    if who != "visitor":
        client.force_login(stranger if who == "stranger" else owner)
    link = reverse("ghoulrole-shared", args=[shared.share_token])
    for r in (client.get(link), client.get(link, **HX)):
        assert r.status_code == 200
        # the page without the site's own log-out form (in the menu of a signed-in user)
        html = re.sub(r'<form[^>]*action="/accounts/logout/".*?</form>', "", r.content.decode(), flags=re.S)
        # the owner's own page has the forms: the probe can fail
        assert 'method="post"' not in html and "<form" not in html
        assert "hx-post" not in html and "csrfmiddlewaretoken" not in html
        assert "Undo the last action" not in html
    for method in ("post", "put", "delete"):
        assert getattr(client, method)(link).status_code == 405
    owner_page = logged_in(owner).get(reverse("ghoulrole-sheet", args=[shared.pk])).content.decode()
    assert 'method="post"' in owner_page and "hx-post" in owner_page


def test_a_revoked_or_empty_link_is_404(client, shared, owner):
    token = shared.share_token
    services.set_sharing(shared.pk, owner, on=False)
    for t in (token, "x", token[:-1], "x" * 300):
        assert client.get(reverse("ghoulrole-shared", args=[t])).status_code == 404
    assert client.get("/games/ghoul-role/shared//").status_code == 404
    # an unshared sheet's empty token never matches
    assert GhoulSheet.objects.get(pk=shared.pk).share_token == ""


def test_a_card_of_another_sheet_cannot_be_named_played_or_discarded(make_sheet, owner, stranger):
    mine = make_sheet()
    theirs = make_sheet(user=stranger)
    post_act(theirs.pk, stranger, "draw", {})
    card = TerrorCard.objects.get(sheet=theirs)
    c = logged_in(owner)
    before = state(theirs)
    r = c.post(reverse("ghoulrole-card-name", args=[mine.pk, card.pk]), with_version(mine, {"name": "Stolen"}), **HX)
    assert r.status_code == 422
    for action in ("play", "discard"):
        r = c.post(reverse("ghoulrole-action", args=[mine.pk, action]), with_version(mine, {"card": card.pk}), **HX)
        assert r.status_code == 422, action
    assert state(theirs) == before and TerrorCard.objects.get(pk=card.pk).name == ""


@pytest.mark.parametrize("kind", ["cave", "vile"])
def test_no_input_is_a_500(make_sheet, owner, kind):
    sheet = make_sheet() if kind == "cave" else make_sheet(kind="vile", variant="knight", players=3)
    c = logged_in(owner)
    for action in services.ACTIONS:
        for bad in BAD:
            data = {f: bad for f in FIELDS}
            r = c.post(reverse("ghoulrole-action", args=[sheet.pk, action]), with_version(sheet, data), **HX)
            assert r.status_code in (200, 422), (action, bad, r.status_code)
        r = c.post(reverse("ghoulrole-action", args=[sheet.pk, action]), with_version(sheet, {}), **HX)
        assert r.status_code in (200, 422), (action, r.status_code)
    assert c.post(reverse("ghoulrole-action", args=[sheet.pk, "nonsense"]), **HX).status_code == 404
    for card in (0, 99999999, 2**63):
        r = c.post(reverse("ghoulrole-card-name", args=[sheet.pk, card]), with_version(sheet, {"name": "x"}), **HX)
        assert r.status_code == 422, card


def test_choosing_dice_that_were_not_rolled_is_refused(make_sheet, owner):
    """The Cave Ghoul keeps two of its three dice: positions outside the roll (or negative) are refused."""
    sheet = make_sheet()
    c = logged_in(owner)
    assert (
        c.post(reverse("ghoulrole-action", args=[sheet.pk, "roll"]), with_version(sheet, {}), **HX).status_code == 200
    )
    sheet.refresh_from_db()
    if sheet.phase != GhoulSheet.CHOOSE:
        pytest.fail(f"after a roll the sheet should wait for a choice, not {sheet.phase}")
    before = state(sheet)
    for keep in (["0", "0"], ["-1", "0"], ["0", "7"], ["2", "-3"], ["a", "b"], ["0"], ["0", "1", "2"]):
        r = c.post(reverse("ghoulrole-action", args=[sheet.pk, "choose"]), with_version(sheet, {"keep": keep}), **HX)
        assert r.status_code == 422, keep
    for pair in ("-1-0", "0-7", "1-1", "2--1"):
        r = c.post(reverse("ghoulrole-action", args=[sheet.pk, "choose"]), with_version(sheet, {"pair": pair}), **HX)
        assert r.status_code == 422, pair
    assert state(sheet) == before
    assert (
        c.post(
            reverse("ghoulrole-action", args=[sheet.pk, "choose"]), with_version(sheet, {"pair": "0-2"}), **HX
        ).status_code
        == 200
    )


def test_bad_input_on_the_home_page_is_a_422(client, cat, owner):
    client.force_login(owner)
    for data in (
        {},
        {"kind": "nonsense"},
        {"kind": "cave"},
        {"kind": "vile"},
        {"kind": "cave", "cave-name": "x" * 500, "cave-difficulty": "nope"},
    ):
        assert client.post(reverse("ghoulrole-home"), data).status_code == 422, data
    assert GhoulSheet.objects.count() == 0


def test_no_view_is_csrf_exempt_and_csrf_is_enforced(make_sheet, owner):
    for name in (
        "home",
        "sheet_detail",
        "sheet_action",
        "sheet_undo",
        "card_name",
        "sheet_share",
        "sheet_delete",
        "shared_sheet",
    ):
        assert not getattr(getattr(views, name), "csrf_exempt", False), name
    sheet = make_sheet()
    c = Client(enforce_csrf_checks=True)
    c.force_login(owner)
    assert c.post(reverse("ghoulrole-delete", args=[sheet.pk])).status_code == 403
    assert GhoulSheet.objects.filter(pk=sheet.pk).exists()


def test_bad_loot_levels_and_discard_reasons_are_422(make_sheet, owner):
    sheet = make_sheet(phase="act", turn=1, movement=6, attack_discs=9)
    post_act(sheet.pk, owner, "draw", {})
    card = TerrorCard.objects.get(sheet=sheet)
    c = logged_in(owner)
    before = state(sheet)
    for bad in [b for b in BAD[1:] if b != "\u0661"] + ["21"]:  # "\u0661" is the digit 1
        r = c.post(
            reverse("ghoulrole-action", args=[sheet.pk, "attack"]),
            with_version(sheet, {"target": "thief", "defense": "0", "loot": bad}),
            **HX,
        )
        assert r.status_code == 422, bad
        r = c.post(
            reverse("ghoulrole-action", args=[sheet.pk, "discard"]),
            with_version(sheet, {"card": card.pk, "why": bad}),
            **HX,
        )
        assert r.status_code == 422, bad
    assert state(sheet) == before
