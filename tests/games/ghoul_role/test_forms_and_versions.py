"""Issue 15 for the Ghoul role: every POST is read by a form (a bad one is a clear 422 with the sheet's
words, never a 500, and changes nothing), a move sent from a page older than the sheet gets the kit's
Stale (409, the sheet as it is now), the poll's one version parameter, the kit's share tokens, and
the permission check with its yes/no twin."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils.html import escape

from core.games import kit
from games.ghoul_role import permissions, services
from games.ghoul_role.action_forms import ACTION_FORMS, MISSING_VERSION
from games.ghoul_role.models import Event, GhoulSheet, TerrorCard
from tests.games.ghoul_role.conftest import post_act, with_version

HX = {"HTTP_HX_REQUEST": "true"}
STALE = "The sheet changed since this page was drawn: here it is as it is now."


@pytest.fixture
def owner_client(client, owner, catalogue):
    client.force_login(owner)
    return client


def state(sheet) -> dict:
    fresh = GhoulSheet.objects.get(pk=sheet.pk)
    return {
        "sheet": {f: getattr(fresh, f) for f in GhoulSheet.STATE_FIELDS} | {"share": fresh.share_token},
        "version": fresh.version,
        "events": Event.objects.filter(sheet=sheet).count(),
        "cards": list(TerrorCard.objects.filter(sheet=sheet).values_list("pk", "name", "status")),
    }


def _acting(make_sheet, **kwargs):
    """A Ghoul in its Move and Act phase, with a Terror card in hand."""
    sheet = make_sheet(phase=GhoulSheet.ACT, turn=1, movement=6, attack_discs=6, **kwargs)
    post_act(sheet.pk, sheet.owner, "draw", {})
    return sheet


def _card(sheet) -> str:
    return str(TerrorCard.objects.filter(sheet=sheet).values_list("pk", flat=True).first())


# (action, kind of sheet, the POST, the refusal the page shows)
BAD_POSTS = [
    ("roll", "roll", {"backstab": "x"}, "The Thief's Backstab Action cubes must be a whole number."),
    ("roll", "roll", {"backstab": "21"}, "The Thief's Backstab Action cubes must be 0 to 20."),
    ("choose", "choose", {"pair": "a-b"}, "Choose two of the dice."),
    ("choose", "choose", {"keep": ["0"]}, "Choose exactly two of the dice."),
    ("move", "act", {"occupied": "1", "defense": "x"}, "The piece's defense statistic must be a whole number."),
    ("spend", "act", {"points": ""}, "Give the movement points to spend."),
    ("gain", "act", {"what": "movement", "points": "0"}, "The points gained must be 1 to 20."),
    ("collect", "act", {"what": "gold"}, "Collect a Treasure token or a Dragon Gem."),
    ("attack", "act", {"target": "ghost", "defense": "1"}, "Choose the player piece you attack."),
    ("attack", "act", {"target": "goblins", "label": "Reds"}, "Give the Goblin Tribe (Reds)'s defense statistic."),
    ("attack", "act", {"target": "thief", "defense": "0", "loot": "x"}, "Loot Drop Level must be a whole number."),
    ("prepare", "prepare", {"backstab": "-1"}, "The Thief's Backstab Action cubes must be 0 to 20."),
    ("select", "select", {"face": "7"}, "The die you select must be 1 to 6."),
    ("boost", "vile-act", {"source": "hunt", "use": "attack", "points": "13"}, "What it is worth must be 1 to 12."),
    ("health", "vile-act", {"delta": "abc"}, "The change must be a whole number."),
    ("use", "act", {"card": "x"}, "Choose a Terror card."),
    ("play", "act", {}, "Choose a Terror card."),
    ("discard", "act", {"card": "CARD", "why": "nope"}, "Choose why the card is discarded."),
]


def _sheet_for(make_sheet, kind):
    if kind == "roll":
        return make_sheet()
    if kind == "choose":
        return make_sheet(phase=GhoulSheet.CHOOSE, turn=1, roll=[1, 4, 6])
    if kind == "act":
        return _acting(make_sheet)
    if kind == "prepare":
        return make_sheet("vile", variant="knight", players=3)
    if kind == "select":
        return make_sheet("vile", variant="knight", players=3, phase=GhoulSheet.SELECT, turn=1, supply=[2, 5])
    sheet = make_sheet("vile", variant="knight", players=3, phase=GhoulSheet.ACT, turn=1, movement=4)
    sheet.attack_discs, sheet.boost_dice, sheet.target_health = 3, 1, 8
    sheet.save()
    return sheet


@pytest.mark.parametrize("htmx", [True, False])
@pytest.mark.parametrize("action, kind, post, message", BAD_POSTS)
def test_each_forms_refusal_is_a_clear_422_and_changes_nothing(
    owner_client, make_sheet, action, kind, post, message, htmx
):
    sheet = _sheet_for(make_sheet, kind)
    post = {k: (_card(sheet) if v == "CARD" else v) for k, v in post.items()}
    before = state(sheet)
    url = reverse("ghoulrole-action", args=[sheet.pk, action])
    if htmx:
        response = owner_client.post(url, with_version(sheet, post), **HX)
        assert response.status_code == 422
        assert escape(message) in response.content.decode()
        assert 'id="sheet"' in response.content.decode()  # the sheet redrawn, the form's words on it
    else:
        response = owner_client.post(url, with_version(sheet, post), follow=True)
        assert response.redirect_chain == [(sheet.get_absolute_url(), 302)]
        assert escape(message) in response.content.decode()
    assert state(sheet) == before


def test_every_action_form_wants_the_pages_version(owner_client, make_sheet):
    sheet = make_sheet()
    before = state(sheet)
    for action in ACTION_FORMS:
        for v in ({}, {"v": ""}, {"v": "x"}, {"v": "0"}):
            response = owner_client.post(reverse("ghoulrole-action", args=[sheet.pk, action]), v, **HX)
            assert response.status_code == 422, (action, v)
            assert escape(MISSING_VERSION) in response.content.decode()
    for url in (reverse("ghoulrole-undo", args=[sheet.pk]), reverse("ghoulrole-card-name", args=[sheet.pk, 1])):
        response = owner_client.post(url, {"name": "Chase"}, **HX)
        assert response.status_code == 422 and escape(MISSING_VERSION) in response.content.decode()
    assert state(sheet) == before


def test_every_action_has_a_form_and_a_handler():
    assert set(ACTION_FORMS) == set(services.ACTIONS)


@pytest.mark.parametrize(
    "name, message", [(" ", "Type the card's name."), ("x" * 61, "A card name is at most 60 characters.")]
)
def test_card_name_form_refusals(owner_client, make_sheet, name, message):
    sheet = _acting(make_sheet)
    before = state(sheet)
    url = reverse("ghoulrole-card-name", args=[sheet.pk, _card(sheet)])
    response = owner_client.post(url, with_version(sheet, {"name": name}), **HX)
    assert response.status_code == 422 and escape(message) in response.content.decode()
    assert state(sheet) == before


def test_home_refuses_an_unknown_kind(owner_client):
    response = owner_client.post(reverse("ghoulrole-home"), {"kind": "ghost", "ghost-name": "x"})
    assert response.status_code == 422 and "Choose the Ghoul or the Vile Ghoul." in response.content.decode()
    assert not GhoulSheet.objects.exists()


def test_share_form_reads_a_flag(owner_client, make_sheet):
    sheet = make_sheet()
    url = reverse("ghoulrole-share", args=[sheet.pk])
    assert owner_client.post(url, {"share": "1"}).status_code == 302
    token = GhoulSheet.objects.get(pk=sheet.pk).share_token
    assert kit.share_token_ok(token) and len(token) >= 20
    owner_client.post(url, {"share": "junk"})  # anything but "1" stops sharing
    assert GhoulSheet.objects.get(pk=sheet.pk).share_token == ""
    assert owner_client.get(reverse("ghoulrole-shared", args=[token])).status_code == 404


# --- a page older than the sheet ------------------------------------------------------------------


def test_a_move_from_an_older_page_gets_409_and_the_sheet_as_it_is(owner_client, make_sheet):
    sheet = _acting(make_sheet)
    old_page = with_version(sheet)  # a second tab, drawn now
    owner_client.post(reverse("ghoulrole-action", args=[sheet.pk, "spend"]), with_version(sheet, {"points": "2"}), **HX)
    before = state(sheet)
    assert before["sheet"]["movement"] == 4
    response = owner_client.post(
        reverse("ghoulrole-action", args=[sheet.pk, "spend"]), {**old_page, "points": "3"}, **HX
    )
    body = response.content.decode()
    assert response.status_code == 409 and "HX-Request" in response["Vary"]
    assert escape(STALE) in body
    assert f'name="v" value="{before["version"]}"' in body  # the redrawn sheet carries the current version
    assert state(sheet) == before  # the older page's move changed nothing
    # the same move sent again from the redrawn sheet goes through
    response = owner_client.post(
        reverse("ghoulrole-action", args=[sheet.pk, "spend"]), with_version(sheet, {"points": "3"}), **HX
    )
    assert response.status_code == 200 and GhoulSheet.objects.get(pk=sheet.pk).movement == 1


def test_a_plain_post_from_an_older_page_goes_back_with_the_message(owner_client, make_sheet):
    sheet = make_sheet()
    old_page = with_version(sheet)
    post_act(sheet.pk, sheet.owner, "roll", {})
    before = state(sheet)
    response = owner_client.post(reverse("ghoulrole-action", args=[sheet.pk, "roll"]), old_page, follow=True)
    assert response.redirect_chain == [(sheet.get_absolute_url(), 302)]
    assert escape(STALE) in response.content.decode()
    assert state(sheet) == before


def test_undo_and_naming_from_an_older_page_are_stale(owner_client, make_sheet):
    sheet = _acting(make_sheet)
    card = _card(sheet)
    old_page = with_version(sheet)
    post_act(sheet.pk, sheet.owner, "spend", {"points": "1"})
    before = state(sheet)
    for url, data in (
        (reverse("ghoulrole-undo", args=[sheet.pk]), {}),
        (reverse("ghoulrole-card-name", args=[sheet.pk, card]), {"name": "Chase"}),
    ):
        response = owner_client.post(url, {**old_page, **data}, **HX)
        assert response.status_code == 409 and escape(STALE) in response.content.decode(), url
    assert state(sheet) == before


def test_the_service_refuses_a_stale_version_with_the_kits_stale(make_sheet, owner):
    sheet = make_sheet()
    seen = sheet.version
    services.act(sheet.pk, owner, "roll", seen_version=seen)
    with pytest.raises(kit.Stale) as refused:
        services.act(sheet.pk, owner, "choose", seen_version=seen, keep=(0, 1))
    assert refused.value.status == 409 and isinstance(refused.value, services.SheetError)
    assert GhoulSheet.objects.get(pk=sheet.pk).phase == GhoulSheet.CHOOSE


def test_a_refused_move_does_not_bump_the_version(make_sheet, owner):
    sheet = make_sheet()
    with pytest.raises(services.SheetError):
        services.act(sheet.pk, owner, "end", seen_version=sheet.version)  # not in the Roll phase
    assert GhoulSheet.objects.get(pk=sheet.pk).version == sheet.version
    services.act(sheet.pk, owner, "roll", seen_version=sheet.version)
    assert GhoulSheet.objects.get(pk=sheet.pk).version == sheet.version + 1


# --- the poll's version parameter ------------------------------------------------------------------


def test_an_htmx_get_with_the_current_version_is_204(owner_client, make_sheet):
    sheet = make_sheet()
    url = sheet.get_absolute_url()
    current = owner_client.get(url, {"v": str(sheet.version)}, **HX)
    assert current.status_code == 204 and "HX-Request" in current["Vary"]
    post_act(sheet.pk, sheet.owner, "roll", {})
    moved_on = owner_client.get(url, {"v": str(sheet.version)}, **HX)
    assert moved_on.status_code == 200 and 'id="sheet"' in moved_on.content.decode()


# --- permissions: the check and its yes/no twin ------------------------------------------------------


def test_permissions_check_and_twin(make_sheet, owner, stranger):
    sheet = make_sheet()
    assert permissions.user_owns_sheet(owner, sheet)
    assert not permissions.user_owns_sheet(stranger, sheet)
    assert not permissions.user_owns_sheet(AnonymousUser(), sheet)
    permissions.check_user_owns_sheet(owner, sheet)
    with pytest.raises(services.SheetError, match="No such sheet"):
        permissions.check_user_owns_sheet(stranger, sheet)


def test_a_malformed_share_token_is_404_without_a_query(client, make_sheet, django_assert_num_queries):
    sheet = make_sheet()
    sheet = services.set_sharing(sheet.pk, sheet.owner, on=True)
    assert client.get(reverse("ghoulrole-shared", args=[sheet.share_token])).status_code == 200
    with django_assert_num_queries(0):
        assert client.get(reverse("ghoulrole-shared", args=["x" * 65])).status_code == 404
