import json

import pytest
from django.test import Client
from django.urls import reverse

from crewbuilder import crewfile
from crewbuilder.models import Crew

pytestmark = pytest.mark.django_db

OWNER_GET_PAGES = ["crew-detail", "crew-edit", "crew-export", "crew-delete"]
HX = {"HTTP_HX_REQUEST": "true"}


def _post_edit(client, crew, action, htmx=True, **data):
    crew.refresh_from_db()
    data.setdefault("version", crew.version)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("crew-edit-action", args=[crew.pk, action]), data, **headers)


# --- permissions ---------------------------------------------------------------


@pytest.mark.parametrize("name", OWNER_GET_PAGES)
def test_owner_can_open_every_page(client, user, make_crew, name):
    crew = make_crew(user)
    client.force_login(user)
    assert client.get(reverse(name, args=[crew.pk])).status_code == 200


@pytest.mark.parametrize("name", OWNER_GET_PAGES)
def test_other_users_crew_is_404(client, user, other_user, make_crew, name):
    crew = make_crew(user)
    client.force_login(other_user)
    assert client.get(reverse(name, args=[crew.pk])).status_code == 404


@pytest.mark.parametrize("name", ["crew-duplicate", "crew-delete", "crew-share"])
def test_other_users_crew_posts_are_404_and_change_nothing(client, user, other_user, make_crew, name):
    crew = make_crew(user)
    client.force_login(other_user)
    assert client.post(reverse(name, args=[crew.pk])).status_code == 404
    assert Crew.objects.filter(pk=crew.pk, share_token=None).exists()
    assert Crew.objects.count() == 1


def test_other_users_edit_is_404(client, user, other_user, make_crew):
    crew = make_crew(user, characters=[{"name": "Vox"}])
    client.force_login(other_user)
    response = _post_edit(client, crew, "crew", name="Stolen")
    assert response.status_code == 404
    crew.refresh_from_db()
    assert crew.name == "Saints of Rust"


@pytest.mark.parametrize("name", OWNER_GET_PAGES + ["crew-list", "crew-create", "crew-import"])
def test_anonymous_is_sent_to_login(client, user, make_crew, name):
    crew = make_crew(user)
    args = [] if name in {"crew-list", "crew-create", "crew-import"} else [crew.pk]
    response = client.get(reverse(name, args=args))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_edits_need_post(client, user, make_crew):
    crew = make_crew(user)
    client.force_login(user)
    assert client.get(reverse("crew-edit-action", args=[crew.pk, "crew"])).status_code == 405


def test_unknown_edit_action_is_404(client, user, make_crew):
    crew = make_crew(user)
    client.force_login(user)
    assert _post_edit(client, crew, "make-me-win").status_code == 404


def test_edits_need_csrf(user, make_crew):
    from django.test import Client

    crew = make_crew(user)
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    response = client.post(reverse("crew-edit-action", args=[crew.pk, "crew"]), {"version": crew.version, "name": "X"})
    assert response.status_code == 403


# --- list, create ----------------------------------------------------------------


def test_list_shows_points_status_and_only_own_crews(client, user, other_user, geared_crew):
    geared_crew(user, 3, name="Mine")
    geared_crew(other_user, 3, name="Theirs")
    client.force_login(user)
    html = client.get(reverse("crew-list")).content.decode()
    assert "Mine" in html and "Theirs" not in html
    assert 'data-status="valid"' in html


def test_create_crew_then_editor(client, user, catalogue):
    client.force_login(user)
    response = client.post(reverse("crew-create"), {"name": "Saints of Rust", "system": catalogue.pk})
    crew = Crew.objects.get(owner=user)
    assert response.url == reverse("crew-edit", args=[crew.pk])
    assert crew.budget == 150


def test_create_with_empty_name_keeps_form_and_says_why(client, user, catalogue):
    client.force_login(user)
    response = client.post(reverse("crew-create"), {"name": "   "})
    assert response.status_code == 422
    assert "Crew name cannot be empty" in response.content.decode()
    assert not Crew.objects.exists()


# --- editor: htmx fragments and plain forms ---------------------------------------------


def test_editor_full_page_and_fragment(client, user, make_crew):
    crew = make_crew(user, characters=[{"name": "Vox"}])
    client.force_login(user)
    full = client.get(reverse("crew-edit", args=[crew.pk]))
    fragment = client.get(reverse("crew-edit", args=[crew.pk]), HTTP_HX_REQUEST="true")
    assert "<html" in full.content.decode()
    body = fragment.content.decode()
    assert "<html" not in body and body.lstrip().startswith('<div id="editor"')
    assert "HX-Request" in fragment["Vary"]


def test_attribute_change_returns_fragment_with_new_points_and_version(client, user, make_crew):
    crew = make_crew(user, characters=[{"name": "Vox", "attributes": {}}])
    client.force_login(user)
    character = crew.characters.get()
    response = _post_edit(client, crew, "attribute", character=character.pk, attribute="strength", delta=1)
    assert response.status_code == 200
    assert "HX-Request" in response["Vary"]
    character.refresh_from_db()
    assert character.strength == 1
    crew.refresh_from_db()
    assert f'name="version" value="{crew.version}"' in response.content.decode()


def test_plain_form_post_redirects_back_to_the_character(client, user, make_crew):
    crew = make_crew(user, characters=[{"name": "Vox", "attributes": {}}])
    client.force_login(user)
    character = crew.characters.get()
    response = _post_edit(client, crew, "attribute", htmx=False, character=character.pk, attribute="agility", delta=-1)
    assert response.status_code == 302
    # back to the character, shown expanded (the others stay collapsed)
    assert response.url == reverse("crew-edit", args=[crew.pk]) + f"?open={character.pk}#character-{character.pk}"
    character.refresh_from_db()
    assert character.agility == -1


def test_add_gear_trait_and_body_mod_update_points(client, user, make_crew):
    crew = make_crew(user, characters=[{"name": "Vox"}])
    client.force_login(user)
    character = crew.characters.get()
    _post_edit(client, crew, "add-gear", character=character.pk, slug="sword")
    _post_edit(client, crew, "add-gear", character=character.pk, slug="sword")
    _post_edit(client, crew, "add-trait", character=character.pk, slug="big")
    response = _post_edit(client, crew, "add-body-mod", character=character.pk, slug="neural-cabling")
    html = response.content.decode()
    # 15 base + 2 swords (4 each) + big 5 + neural cabling 5 = 33
    assert "<strong>33</strong> / 150 pts" in html
    assert list(character.gear.values_list("copies", flat=True)) == [2]


def test_over_budget_crew_saves_as_draft_with_error(client, user, make_crew):
    crew = make_crew(user, characters=[{"name": f"C{i}"} for i in range(3)], budget=40)
    client.force_login(user)
    response = _post_edit(client, crew, "add-gear", character=crew.characters.first().pk, slug="powered-armor")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'data-code="over-budget"' in html
    assert 'data-status="invalid"' in html
    assert crew.characters.first().gear.count() == 1


def test_rejected_name_keeps_what_the_user_typed(client, user, make_crew):
    crew = make_crew(user, characters=[{"name": "Vox"}])
    client.force_login(user)
    long_name = "Z" * 101
    response = _post_edit(client, crew, "character", character=crew.characters.get().pk, name=long_name)
    assert response.status_code == 422
    html = response.content.decode()
    assert "the limit is 100" in html
    assert f'value="{long_name}"' in html
    assert crew.characters.get().name == "Vox"


def test_unknown_slug_is_a_clear_message_not_a_500(client, user, make_crew):
    crew = make_crew(user, characters=[{"name": "Vox"}])
    client.force_login(user)
    response = _post_edit(client, crew, "add-gear", character=crew.characters.get().pk, slug="bfg-9000")
    assert response.status_code == 422
    assert "Unknown item" in response.content.decode()


def test_stale_version_is_a_conflict_not_an_overwrite(client, user, make_crew):
    crew = make_crew(user, characters=[{"name": "Vox"}])
    client.force_login(user)
    stale = crew.version
    _post_edit(client, crew, "crew", name="First tab", budget=150)
    response = client.post(
        reverse("crew-edit-action", args=[crew.pk, "crew"]),
        {"version": stale, "name": "Second tab", "budget": 150},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 409
    assert response["HX-Retarget"] == "#conflict" and response["HX-Reswap"] == "innerHTML"
    assert "This crew changed elsewhere" in response.content.decode()
    crew.refresh_from_db()
    assert crew.name == "First tab"


def test_stale_plain_form_shows_conflict_page(client, user, make_crew):
    crew = make_crew(user)
    client.force_login(user)
    response = client.post(
        reverse("crew-edit-action", args=[crew.pk, "crew"]), {"version": crew.version + 5, "name": "X"}
    )
    assert response.status_code == 409
    assert "Reload the crew" in response.content.decode()


def test_reorder_and_remove_characters(client, user, make_crew):
    crew = make_crew(user, characters=[{"name": "A"}, {"name": "B"}, {"name": "C"}])
    client.force_login(user)
    c = crew.characters.get(name="C")
    _post_edit(client, crew, "move-character", character=c.pk, direction="up")
    assert list(crew.characters.order_by("position").values_list("name", flat=True)) == ["A", "C", "B"]
    _post_edit(client, crew, "remove-character", character=crew.characters.get(name="A").pk)
    assert list(crew.characters.order_by("position").values_list("name", flat=True)) == ["C", "B"]


def test_cannot_touch_a_character_of_another_crew(client, user, other_user, make_crew):
    mine = make_crew(user, characters=[{"name": "Mine"}])
    theirs = make_crew(other_user, characters=[{"name": "Theirs"}])
    client.force_login(user)
    response = _post_edit(client, mine, "remove-character", character=theirs.characters.get().pk)
    assert response.status_code == 422
    assert theirs.characters.exists()


def test_accept_finding_as_house_rule(client, user, make_crew):
    crew = make_crew(user, characters=[{"name": "Solo", "attributes": {"strength": 1}}])
    client.force_login(user)
    response = _post_edit(client, crew, "accept", code="too-few-characters", character="", note="we play solo")
    html = response.content.decode()
    assert 'data-status="house_rules"' in html
    assert "we play solo" in html
    crew.refresh_from_db()
    assert crew.accepted_findings == [{"code": "too-few-characters", "character": None, "note": "we play solo"}]


# --- picker --------------------------------------------------------------------------------


def test_picker_lists_options_with_costs_and_reasons(client, user, make_crew):
    crew = make_crew(user, characters=[{"name": "Vox", "gear": ["light-armor"]}])
    client.force_login(user)
    character = crew.characters.get()
    response = client.get(reverse("crew-picker", args=[crew.pk, character.pk, "gear"]), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert "sword" in html and "4 pts" in html
    # a second set of armor is offered, with the reason it breaks a rule
    assert "medium armor" in html
    assert "⚠" in html


def test_picker_of_another_users_crew_is_404(client, user, other_user, make_crew):
    crew = make_crew(user, characters=[{"name": "Vox"}])
    client.force_login(other_user)
    url = reverse("crew-picker", args=[crew.pk, crew.characters.get().pk, "gear"])
    assert client.get(url).status_code == 404


# --- duplicate, delete, share, shared page -------------------------------------------------


def test_duplicate_copies_everything(client, user, geared_crew):
    crew = geared_crew(user, 3)
    client.force_login(user)
    client.post(reverse("crew-duplicate", args=[crew.pk]))
    copy = Crew.objects.exclude(pk=crew.pk).get()
    assert copy.name == "Saints of Rust (copy)"
    assert copy.characters.count() == 3
    assert sum(c.gear.count() + c.traits.count() + c.body_mods.count() for c in copy.characters.all()) == 12


def test_delete_needs_confirmation_post(client, user, make_crew):
    crew = make_crew(user)
    client.force_login(user)
    assert "Delete the crew" in client.get(reverse("crew-delete", args=[crew.pk])).content.decode()
    assert Crew.objects.exists()
    client.post(reverse("crew-delete", args=[crew.pk]))
    assert not Crew.objects.exists()


def test_share_link_shows_read_only_page_to_anyone_until_revoked(client, user, geared_crew):
    crew = geared_crew(user, 3)
    client.force_login(user)
    client.post(reverse("crew-share", args=[crew.pk]))
    crew.refresh_from_db()
    assert crew.share_token and len(crew.share_token) >= 32
    client.logout()
    response = client.get(reverse("crew-shared", args=[crew.share_token]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Ghoul 1" in html and "sword" in html
    assert reverse("crew-edit", args=[crew.pk]) not in html
    token = crew.share_token
    client.force_login(user)
    client.post(reverse("crew-share", args=[crew.pk]), {"revoke": "1"})
    client.logout()
    assert client.get(reverse("crew-shared", args=[token])).status_code == 404


def test_unknown_share_token_is_404(client):
    assert client.get(reverse("crew-shared", args=["nope"])).status_code == 404


def test_detail_page_explains_weapons_and_traits(client, user, make_crew):
    crew = make_crew(user, characters=[{"name": "Vox", "traits": ["big"], "gear": ["axe"]}])
    client.force_login(user)
    html = client.get(reverse("crew-detail", args=[crew.pk])).content.decode()
    assert "Piercing 2" in html
    assert "ignore up to X points of armor" in html
    assert "gains +2" in html


def test_markup_in_names_is_escaped(client, user, make_crew):
    crew = make_crew(user, name="<script>alert(1)</script>", characters=[{"name": "<b>bold</b>"}])
    client.force_login(user)
    for name in ("crew-detail", "crew-edit"):
        html = client.get(reverse(name, args=[crew.pk])).content.decode()
        assert "<script>alert(1)</script>" not in html
        assert "&lt;b&gt;bold&lt;/b&gt;" in html


# --- query budgets: constant in the crew size ------------------------------------------------


def test_crew_page_queries_do_not_grow_with_the_crew(client, user, geared_crew, django_assert_num_queries):
    small, large = geared_crew(user, 3, name="Small"), geared_crew(user, 7, name="Large")
    client.force_login(user)
    client.get(reverse("crew-detail", args=[small.pk]))  # warm the catalogue snapshot
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as small_queries:
        client.get(reverse("crew-detail", args=[small.pk]))
    with django_assert_num_queries(len(small_queries)):
        assert client.get(reverse("crew-detail", args=[large.pk])).status_code == 200
    assert len(small_queries) <= 12


# The crew (with its system and campaign entry; the session and the user come from the cache), then its characters
# with their traits, body-mods and gear; a second look at the same version of the crew takes the characters from the cache.
EDITOR_QUERIES_FIRST_LOOK = 5
EDITOR_QUERIES_SAME_VERSION = 1


@pytest.mark.parametrize("size", [3, 7])
def test_editor_queries_are_exact_and_do_not_grow_with_the_crew(
    client, user, geared_crew, django_assert_num_queries, size
):
    warm = geared_crew(user, 3, name="Warm")
    client.force_login(user)
    client.get(reverse("crew-edit", args=[warm.pk]))  # warm the catalogue snapshot
    crew = geared_crew(user, size, name=f"Crew {size}")
    url = reverse("crew-edit", args=[crew.pk])
    with django_assert_num_queries(EDITOR_QUERIES_FIRST_LOOK):
        assert client.get(url).status_code == 200
    with django_assert_num_queries(EDITOR_QUERIES_SAME_VERSION):
        assert client.get(url).status_code == 200
    card = reverse("crew-card", args=[crew.pk, crew.characters.last().pk])
    with django_assert_num_queries(EDITOR_QUERIES_SAME_VERSION):  # a folded character's controls, when opened
        assert client.get(card, **HX).status_code == 200


def test_the_editor_shows_a_change_made_through_an_edit_at_once(client, user, geared_crew):
    crew = geared_crew(user, 3, name="Fresh")
    client.force_login(user)
    character = crew.characters.first()
    url = reverse("crew-edit", args=[crew.pk])
    assert client.get(url, {"open": character.pk}).content.decode().count("Raise Agility of") == 1  # cached now
    before = character.agility
    _post_edit(client, crew, "attribute", character=character.pk, attribute="agility", delta=1)
    html = client.get(url, {"open": character.pk}).content.decode()
    assert f'id="base-agility-{character.pk}">{before + 1:+d}<' in html


def test_htmx_attribute_change_query_budget(client, user, geared_crew):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(user)
    counts = []
    for size in (3, 7):
        crew = geared_crew(user, size, name=f"Crew {size}")
        character = crew.characters.first()
        _post_edit(client, crew, "attribute", character=character.pk, attribute="agility", delta=1)  # warm
        with CaptureQueriesContext(connection) as queries:
            _post_edit(client, crew, "attribute", character=character.pk, attribute="agility", delta=-1)
        counts.append(len(queries) - 1)  # minus the test's own refresh_from_db
    assert counts[0] == counts[1]
    assert counts[0] <= 12


# --- export and import ------------------------------------------------------------------------


def test_export_downloads_the_crew_file(client, user, geared_crew):
    crew = geared_crew(user, 3)
    client.force_login(user)
    response = client.get(reverse("crew-export", args=[crew.pk]))
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == 'attachment; filename="saints-of-rust.json"'
    data = json.loads(response.content)
    assert data["format"] == "crewbuilder.crew/1" and data["system"] == "cybernekro"
    assert [c["name"] for c in data["characters"]] == ["Ghoul 1", "Ghoul 2", "Ghoul 3"]
    assert data["characters"][0]["gear"] == ["sword", "light-armor"]


def test_export_then_import_gives_the_same_crew(client, user, geared_crew):
    crew = geared_crew(user, 3)
    client.force_login(user)
    exported = client.get(reverse("crew-export", args=[crew.pk])).content
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = client.post(
        reverse("crew-import"), {"file": SimpleUploadedFile("crew.json", exported, "application/json")}
    )
    imported = Crew.objects.exclude(pk=crew.pk).get()
    assert response.url == reverse("crew-edit", args=[imported.pk])
    assert client.get(reverse("crew-export", args=[imported.pk])).content == exported


def test_an_imported_files_unknown_fields_are_named_beside_imported(client, user, geared_crew):
    from django.core.files.uploadedfile import SimpleUploadedFile

    data = json.loads(crewfile.export_crew(Crew.objects.with_everything().get(pk=geared_crew(user, 3).pk)))
    data["budjet"] = 100
    client.force_login(user)
    response = client.post(
        reverse("crew-import"),
        {"file": SimpleUploadedFile("crew.json", json.dumps(data).encode(), "application/json")},
        follow=True,
    )
    html = response.content.decode()
    assert "Imported “Saints of Rust”." in html
    assert (
        "&quot;budjet&quot; is not a field of the crew file: it was ignored (did you mean &quot;budget&quot;?)." in html
    )
    assert Crew.objects.order_by("-pk").first().budget == 150


@pytest.mark.parametrize(
    "content, message",
    [
        (b"{not json", "bad-format"),
        (b'{"format": "crewbuilder.crew/1", "system": "chess", "name": "X", "characters": []}', "chess"),
        (
            b'{"format": "crewbuilder.crew/1", "system": "cybernekro", "name": "X", "characters": [{"name": "A", "attributes": {"strength": 1, "toughness": 0, "agility": 0, "intellect": 0, "discipline": 0}, "traits": [], "body_mods": [], "gear": ["bfg-9000"]}]}',
            "bfg-9000",
        ),
    ],
)
def test_bad_files_get_a_clear_message_and_import_nothing(client, user, catalogue, content, message):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(user)
    response = client.post(reverse("crew-import"), {"file": SimpleUploadedFile("crew.json", content)})
    assert response.status_code == 422
    html = response.content.decode()
    assert "could not be imported" in html and "<code>characters[0]</code> is the first character" in html
    assert message in html or "JSON" in html
    assert not Crew.objects.exists()


def test_oversize_file_is_refused(client, user, catalogue):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(user)
    big = b"{" + b" " * (256 * 1024) + b"}"
    response = client.post(reverse("crew-import"), {"file": SimpleUploadedFile("crew.json", big)})
    assert response.status_code == 422
    assert "at most 256 KiB" in response.content.decode()
    assert not Crew.objects.exists()


def test_house_rules_travel_in_the_crew_file(client, user, make_crew):
    from django.core.files.uploadedfile import SimpleUploadedFile

    crew = make_crew(
        user,
        characters=[{"name": "Solo", "attributes": {"strength": 1}}],
        accepted_findings=[{"code": "too-few-characters", "character": None, "note": "we play solo"}],
    )
    client.force_login(user)
    exported = client.get(reverse("crew-export", args=[crew.pk])).content
    assert json.loads(exported)["house_rules"] == [
        {"code": "too-few-characters", "character": None, "note": "we play solo"}
    ]
    client.post(reverse("crew-import"), {"file": SimpleUploadedFile("crew.json", exported)})
    copy = Crew.objects.exclude(pk=crew.pk).get()
    assert copy.accepted_findings == crew.accepted_findings
    html = client.get(reverse("crew-detail", args=[copy.pk])).content.decode()
    assert "Valid with house rules" in html and "we play solo" in html


def test_character_edit_returns_only_that_card_with_out_of_band_updates(client, user, geared_crew):
    client.force_login(user)
    sizes = []
    for size in (3, 7):
        crew = geared_crew(user, size, name=f"Crew {size}")
        character = crew.characters.first()
        response = client.post(
            reverse("crew-edit-action", args=[crew.pk, "attribute"]),
            {"current_version": crew.version, "character": character.pk, "step": "agility:-1"},
            HTTP_HX_REQUEST="true",
        )
        html = response.content.decode()
        # a stepper click: the character's attributes (the rest of its open card stays), not its whole card
        assert response["HX-Retarget"] == f"#attributes-{character.pk}"
        assert html.count('class="card character"') == 0 and html.count('class="attributes"') == 1
        for piece in ("character-points", "character-line", "findings", "choices", "weapons"):
            assert f'id="{piece}-{character.pk}" hx-swap-oob="true"' in html, piece
        crew.refresh_from_db()
        assert f'id="crew-version" name="current_version" value="{crew.version}" hx-swap-oob="true"' in html
        assert 'id="crew-summary"' in html and 'id="crew-findings"' in html
        # its findings, and every other character's (this worker never drew the version before: a crew-wide
        # warning may have appeared or gone)
        assert html.count('class="character-findings"') == size
        sizes.append(len(html) - 220 * size)
    assert abs(sizes[0] - sizes[1]) < 2000


# --- a light editor: folded characters fetch their controls when opened ----------------------


def test_only_the_open_character_is_drawn_and_a_folded_one_fetches_its_controls(client, user, geared_crew):
    crew = geared_crew(user, 7, name="Seven")
    client.force_login(user)
    first, last = crew.characters.order_by("position")[0], crew.characters.order_by("position")[6]
    url = reverse("crew-edit", args=[crew.pk])
    html = client.get(url).content.decode()
    assert "Raise Agility of" not in html
    card = reverse("crew-card", args=[crew.pk, last.pk])
    assert f'hx-get="{card}"' in html
    assert f'href="{url}?open={last.pk}#character-{last.pk}"' in html  # without JavaScript
    assert len(html.encode()) <= 40 * 1024
    opened = client.get(url, {"open": first.pk}).content.decode()
    assert opened.count("Raise Agility of") == 1 and f"Raise Agility of {first.name}" in opened
    body = client.get(card, **HX)
    assert body.status_code == 200 and body["Vary"] and "HX-Request" in body["Vary"]
    assert f"Raise Agility of {last.name}" in body.content.decode()
    assert "<html" not in body.content.decode()


def test_a_character_card_without_htmx_is_the_editor_with_it_open(client, user, geared_crew):
    crew = geared_crew(user, 3)
    client.force_login(user)
    character = crew.characters.last()
    response = client.get(reverse("crew-card", args=[crew.pk, character.pk]))
    assert response.status_code == 302
    assert response.url == reverse("crew-edit", args=[crew.pk]) + f"?open={character.pk}#character-{character.pk}"


def test_a_character_card_is_private_and_of_its_own_crew(client, user, other_user, geared_crew):
    mine, theirs = geared_crew(user, 3, name="Mine"), geared_crew(other_user, 3, name="Theirs")
    client.force_login(user)
    assert client.get(reverse("crew-card", args=[theirs.pk, theirs.characters.first().pk]), **HX).status_code == 404
    assert client.get(reverse("crew-card", args=[mine.pk, theirs.characters.first().pk]), **HX).status_code == 404


def test_a_kept_editor_carries_each_sessions_own_csrf_token(user, geared_crew):
    import re

    crew = geared_crew(user, 3)
    url = reverse("crew-edit", args=[crew.pk])
    first = Client(enforce_csrf_checks=True)
    first.force_login(user)
    first.get(url, {"open": crew.characters.first().pk})  # drawn and kept with the first session's token
    second = Client(enforce_csrf_checks=True)
    second.force_login(user)
    html = second.get(url, {"open": crew.characters.first().pk}).content.decode()
    assert "\x00" not in html
    assert html.count("csrfmiddlewaretoken") > 5
    editor = html[html.index('id="editor"') :]  # the kept part (the page around it has a token of its own)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', editor).group(1)
    crew.refresh_from_db()
    response = second.post(
        reverse("crew-edit-action", args=[crew.pk, "crew"]),
        {"csrfmiddlewaretoken": token, "version": crew.version, "name": "Kept", "budget": 150, "notes": ""},
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    crew.refresh_from_db()
    assert crew.name == "Kept"


def test_a_character_changed_in_the_admin_shows_in_a_kept_editor(client, user, geared_crew, django_user_model):
    crew = geared_crew(user, 3)
    character = crew.characters.order_by("position").first()
    client.force_login(user)
    url = reverse("crew-edit", args=[crew.pk])
    assert "Renamed by the admin" not in client.get(url).content.decode()  # drawn and kept
    admin = Client()
    admin.force_login(django_user_model.objects.create_superuser("root", "root@example.org", "pw-for-the-admin-1"))
    change = reverse("admin:crewbuilder_character_change", args=[character.pk])
    form = {
        "name": "Renamed by the admin",
        "crew": crew.pk,
        "position": character.position,
        **{a: getattr(character, a) for a in ("strength", "toughness", "agility", "intellect", "discipline")},
        "notes": "",
    }
    for prefix in ("traits", "body_mods", "gear"):
        form.update({f"{prefix}-TOTAL_FORMS": 0, f"{prefix}-INITIAL_FORMS": 0})
    response = admin.post(change, form)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert "Renamed by the admin" in client.get(url).content.decode()


def test_a_stepper_click_sends_the_weapons_and_choices_only_where_the_attribute_changed_them(client, user, make_crew):
    """Heavy 2 needs Strength 2: lowering it makes the weapon Unwieldy (the weapons change), raising Agility
    changes neither list, so an open list in the card stays as the player left it."""
    legal = {"strength": 2, "toughness": 1, "agility": 1, "intellect": -1, "discipline": -2}
    crew = make_crew(user, characters=[{"name": "Hauler", "gear": ["heavy-weapon"], "attributes": legal}])
    hauler = crew.characters.get()
    client.force_login(user)
    client.get(reverse("crew-edit", args=[crew.pk]), {"open": hauler.pk})  # the page the clicks come from

    def step(attribute, delta):
        crew.refresh_from_db()
        response = client.post(
            reverse("crew-edit-action", args=[crew.pk, "attribute"]),
            {"current_version": crew.version, "character": hauler.pk, "step": f"{attribute}:{delta}"},
            HTTP_HX_REQUEST="true",
        )
        assert response.status_code == 200
        html = response.content.decode()
        return {piece for piece in ("choices", "weapons") if f'id="{piece}-{hauler.pk}" hx-swap-oob="true"' in html}

    assert hauler.strength == 2
    assert step("agility", 1) == set()
    assert step("strength", -1) == {"weapons"}  # Strength 1, below Heavy 2
    crew.refresh_from_db()
    assert "Unwieldy" in client.get(reverse("crew-edit", args=[crew.pk]), {"open": hauler.pk}).content.decode()


def test_the_editor_is_never_kept_by_the_browser(client, user, make_crew):
    """Back and Forward load the editor again: the copy before the htmx edits would send a stale version."""
    crew = make_crew(user)
    client.force_login(user)
    response = client.get(f"/crews/{crew.pk}/edit/")
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]


def test_the_editor_says_when_effective_includes_a_campaigns_changes(client, user, make_crew):
    """A copy of an injured campaign crew (or a file carrying attribute_changes) keeps the injury: say so."""
    crew = make_crew(user, characters=[{"name": "Scarred"}, {"name": "Whole"}])
    hurt = crew.characters.first()
    hurt.attribute_changes = {"toughness": -1}
    hurt.save(update_fields=["attribute_changes"])
    client.force_login(user)
    page = client.get(f"/crews/{crew.pk}/edit/", {"open": hurt.pk}).content.decode()
    assert "Effective includes changes from a campaign: Toughness -1 (injuries, advancement)." in page
    other = crew.characters.exclude(pk=hurt.pk).first()
    page = client.get(f"/crews/{crew.pk}/edit/", {"open": other.pk}).content.decode()
    assert "Effective includes changes from a campaign" not in page


@pytest.mark.parametrize("htmx", [True, False])
def test_out_of_a_campaign_its_changes_can_be_removed_in_the_editor(client, user, make_crew, htmx):
    """A copy of an injured campaign crew is the player's own: the editor can take the injury off."""
    crew = make_crew(user, characters=[{"name": "Scarred"}, {"name": "Hurt too"}])
    hurt, other = crew.characters.all()
    for c in (hurt, other):
        c.attribute_changes = {"toughness": -1}
        c.save(update_fields=["attribute_changes"])
    client.force_login(user)
    page = client.get(f"/crews/{crew.pk}/edit/", {"open": hurt.pk}).content.decode()
    assert f"aria-label=\"Remove the campaign's changes to {hurt.name}'s attributes\"" in page
    response = _post_edit(client, crew, "clear-changes", htmx=htmx, character=hurt.pk)
    assert response.status_code in (200, 302)
    hurt.refresh_from_db(), other.refresh_from_db()
    assert hurt.attribute_changes == {} and other.attribute_changes == {"toughness": -1}
    page = client.get(f"/crews/{crew.pk}/edit/", {"open": hurt.pk}).content.decode()
    assert "Effective includes changes from a campaign" not in page
    assert _post_edit(client, crew, "clear-changes", character=999999).status_code == 422


def test_a_rules_text_in_lines_keeps_its_lines_on_the_crew_page_and_in_the_editor(client, user, make_crew):
    """The tower shield's "Cannot be used with:" list ran into one line."""
    crew = make_crew(user, characters=[{"name": "Warden", "gear": ["tower-shield"]}])
    client.force_login(user)
    detail = client.get(f"/crews/{crew.pk}/").content.decode()
    assert "Cannot be used with:<br>- two-handed melee weapons other than a spear<br>" in detail
    editor = client.get(f"/crews/{crew.pk}/edit/", {"open": crew.characters.get().pk}).content.decode()
    assert "Cannot be used with:<br>- two-handed melee weapons" in editor
