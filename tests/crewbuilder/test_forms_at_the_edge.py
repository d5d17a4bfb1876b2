"""Every POST to the crew pages is read by a form (crewbuilder/forms_crews.py), and every view asks
crewbuilder/permissions.py who may see and change what (issue 15, items 5-7).

A refused form answers 4xx with the message a player reads, changes nothing, and keeps the order the
edit always had: a campaign's crew first, then a stale page (409), then the input (422)."""

import html

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import Http404
from django.urls import reverse

from crewbuilder import crew_edits, forms_crews, permissions
from crewbuilder.models import Character, CharacterGear, CharacterTrait, Crew, Item, TableRow, User

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def crew(make_crew, user):
    spec = [
        {"name": "Rake", "traits": ["big"], "gear": ["sword"]},
        {"name": "Sable"},
    ]
    return make_crew(user, "Saints of Rust", spec, notes="Kept notes")


def snapshot(crew) -> dict:
    fresh = Crew.objects.get(pk=crew.pk)
    return {
        "crew": (fresh.name, fresh.notes, fresh.budget, fresh.version, fresh.accepted_findings),
        "characters": list(Character.objects.filter(crew=crew).order_by("pk").values()),
        "traits": list(CharacterTrait.objects.filter(character__crew=crew).values()),
        "gear": list(CharacterGear.objects.filter(character__crew=crew).values()),
    }


def post_edit(client, crew, action, htmx=True, **data):
    data.setdefault("version", Crew.objects.get(pk=crew.pk).version)
    return client.post(reverse("crew-edit-action", args=[crew.pk, action]), data, **(HX if htmx else {}))


def text_of(response) -> str:
    return html.unescape(response.content.decode())


def refusals(crew):
    rake = crew.characters.get(name="Rake")
    trait = rake.traits.get()
    return [
        ("crew", {"budget": "abc"}, "Budget must be a whole number."),
        ("crew", {"budget": "-1"}, "Budget must be between 0 and 10000."),
        ("crew", {"name": "   "}, "Crew name cannot be empty."),
        ("crew", {"name": "Two\nlines"}, "Crew name must be on one line."),
        ("crew", {"notes": "bell\x07"}, "Notes contains U+0007, a control character."),
        (
            "character",
            {"character": rake.pk, "name": "Mira \u202eevil"},
            "Character name contains U+202E, a control character.",
        ),
        ("accept", {"code": "over_budget", "note": ""}, "House-rule note cannot be empty."),
        ("add-character", {"name": "  "}, "Character name cannot be empty."),
        ("character", {"character": "x", "name": "Hacked"}, crew_edits.CHARACTER_GONE),
        ("character", {"character": rake.pk, "name": "n" * 101}, "Character name is 101 characters long"),
        ("remove-character", {}, crew_edits.CHARACTER_GONE),
        ("move-character", {"character": rake.pk, "direction": "left"}, "Move a character up or down."),
        ("place-character", {"character": rake.pk, "place": "first"}, "Place must be a whole number."),
        ("place-character", {"character": rake.pk, "place": "9"}, "Place must be between 0 and 1."),
        ("attribute", {"character": rake.pk, "step": "luck:1"}, "Unknown attribute."),
        ("attribute", {"character": rake.pk, "attribute": "strength", "delta": "2"}, "Change must be between"),
        ("attribute", {"character": rake.pk, "attribute": "strength", "value": "10"}, "Strength must be between"),
        ("attribute", {"character": rake.pk, "attribute": "strength", "value": "1.5"}, "must be a whole number."),
        ("add-trait", {"character": rake.pk, "slug": "big", "raise": "luck"}, crew_edits.UNKNOWN_RAISED),
        ("add-trait", {"character": rake.pk, "slug": "no-such-trait"}, "Unknown trait: 'no-such-trait'."),
        ("trait-choice", {"character": rake.pk, "row": "x"}, crew_edits.TRAIT_GONE),
        ("trait-choice", {"character": rake.pk, "row": trait.pk, "raise": ["strength", "luck"]}, "Unknown attribute"),
        ("remove-trait", {"character": rake.pk}, "Which entry? The form did not say."),
        ("remove-body-mod", {"character": rake.pk, "row": "1e3"}, "Which entry? The form did not say."),
        ("remove-gear", {"character": rake.pk, "row": ""}, "Which entry? The form did not say."),
        ("add-gear", {"character": rake.pk, "slug": "fists"}, "cannot be bought"),
        ("add-body-mod", {"character": "", "slug": "neural-cabling"}, crew_edits.CHARACTER_GONE),
        ("clear-changes", {"character": "0x1"}, crew_edits.CHARACTER_GONE),
    ]


def test_every_edit_form_refuses_bad_input_with_its_message_and_changes_nothing(client, user, crew):
    client.force_login(user)
    cases = refusals(crew)
    assert {action for action, _data, _message in cases} >= set(crew_edits.EDITS) - {"unaccept", "duplicate-character"}
    for action, data, message in cases:
        before = snapshot(crew)
        for htmx in (True, False):
            response = post_edit(client, crew, action, htmx=htmx, **data)
            assert response.status_code == 422, (action, data, htmx, response.status_code)
            assert message in text_of(response), (action, data, htmx)
        assert snapshot(crew) == before, (action, data)


def test_the_refused_input_is_put_back_in_the_form(client, user, crew):
    client.force_login(user)
    response = post_edit(client, crew, "crew", name="Saints of Rust", budget="12x", notes="Half typed")
    assert response.status_code == 422
    assert "Half typed" in text_of(response) and "12x" in text_of(response)


def test_a_stale_page_is_409_before_its_input_is_read(client, user, crew):
    client.force_login(user)
    old = Crew.objects.get(pk=crew.pk).version
    assert post_edit(client, crew, "crew", name="Fresh").status_code == 200
    before = snapshot(crew)
    for version in (old, "", "abc"):
        for data in ({"budget": "abc"}, {"budget": "5"}):
            response = post_edit(client, crew, "crew", version=version, **data)
            assert response.status_code == 409, (version, data)
    assert snapshot(crew) == before


def test_a_field_the_form_does_not_carry_is_left_as_it_is(client, user, crew):
    client.force_login(user)
    assert post_edit(client, crew, "crew", budget="120").status_code == 200
    fresh = Crew.objects.get(pk=crew.pk)
    assert (fresh.name, fresh.notes, fresh.budget) == ("Saints of Rust", "Kept notes", 120)
    rake = crew.characters.get(name="Rake")
    assert post_edit(client, crew, "character", character=rake.pk, notes="Scarred").status_code == 200
    rake.refresh_from_db()
    assert (rake.name, rake.notes) == ("Rake", "Scarred")
    # An empty value is a value: the notes are emptied, the name refused.
    assert post_edit(client, crew, "character", character=rake.pk, notes="").status_code == 200
    rake.refresh_from_db()
    assert rake.notes == ""


def test_good_input_reaches_the_edit_typed(client, user, crew):
    client.force_login(user)
    rake = crew.characters.get(name="Rake")
    assert post_edit(client, crew, "attribute", character=rake.pk, step="strength:-1").status_code == 200
    assert (
        post_edit(client, crew, "attribute", character=f" {rake.pk} ", attribute="agility", value="3").status_code
        == 200
    )
    rake.refresh_from_db()
    assert (rake.strength, rake.agility) == (0, 3)
    assert post_edit(client, crew, "add-trait", character=rake.pk, slug=" inspiring ").status_code == 200
    assert rake.traits.filter(trait__slug="inspiring").exists()
    response = post_edit(client, crew, "add-character", name="")
    assert response.status_code == 200 and crew.characters.filter(name="Character 3").exists()
    response = post_edit(client, crew, "accept", code="over_budget", character="", note="We allow it")
    assert response.status_code == 200
    assert Crew.objects.get(pk=crew.pk).accepted_findings == [
        {"code": "over_budget", "character": None, "note": "We allow it"}
    ]
    assert post_edit(client, crew, "unaccept", code=" over_budget ").status_code == 200
    assert Crew.objects.get(pk=crew.pk).accepted_findings == []


def test_an_edit_to_a_campaign_copy_says_why_before_reading_its_input(client, user, crew, make_crew):
    from campaigns.models import Campaign, CampaignCrew

    copy = make_crew(user, "The Copy", [{"name": "Rake"}])
    campaign = Campaign.objects.create(name="Ashes of Vell", system=copy.system, organiser=user)
    CampaignCrew.objects.create(campaign=campaign, player=user, crew=copy, source_crew=crew)
    client.force_login(user)
    before = snapshot(copy)
    for data in ({"budget": "abc"}, {"budget": "5"}, {"budget": "5", "version": "stale"}):
        response = post_edit(client, copy, "crew", **data)
        assert response.status_code == 422 and response["HX-Redirect"] == reverse("crew-detail", args=[copy.pk])
        assert crew_edits.CAMPAIGN_COPY_MESSAGE in text_of(response)
    assert snapshot(copy) == before


def test_create_refuses_a_bad_name_and_keeps_what_was_typed(client, user, catalogue):
    client.force_login(user)
    response = client.post(reverse("crew-create"), {"name": "x" * 101, "system": catalogue.pk})
    assert response.status_code == 422 and "Crew name is 101 characters long" in text_of(response)
    assert 'value="' + "x" * 101 + '"' in response.content.decode()
    response = client.post(reverse("crew-create"), {"name": "   "})
    assert response.status_code == 422 and "Crew name cannot be empty." in text_of(response)
    assert not Crew.objects.filter(owner=user).exists()
    # A system the form does not name (or names wrongly) is the newest edition, as the page offers it.
    response = client.post(reverse("crew-create"), {"name": " Lamplit ", "system": "nonsense"})
    assert response.status_code == 302
    assert Crew.objects.get(owner=user).name == "Lamplit"


def test_create_without_a_catalogue_says_how_to_load_it(client, user, db):
    client.force_login(user)
    response = client.post(reverse("crew-create"), {"name": "Lamplit"})
    assert response.status_code == 422 and forms_crews.CATALOGUE_MISSING in text_of(response)


def test_import_refuses_no_file_and_a_big_file(client, user, catalogue):
    client.force_login(user)
    response = client.post(reverse("crew-import"), {})
    assert response.status_code == 422 and "Choose a crew file (.json) to import." in text_of(response)
    big = SimpleUploadedFile("big.json", b" " * (forms_crews.CREW_FILE_MAX_BYTES + 1024))
    response = client.post(reverse("crew-import"), {"file": big})
    assert response.status_code == 422 and "The file is 257 KiB; crew files are at most 256 KiB." in text_of(response)
    assert not Crew.objects.filter(owner=user).exists()


def test_share_and_revoke_through_the_form(client, user, crew):
    client.force_login(user)
    client.post(reverse("crew-share", args=[crew.pk]))
    token = Crew.objects.get(pk=crew.pk).share_token
    assert token
    client.post(reverse("crew-share", args=[crew.pk]), {"revoke": ""})  # an empty flag makes a new link
    assert Crew.objects.get(pk=crew.pk).share_token not in (None, token)
    client.post(reverse("crew-share", args=[crew.pk]), {"revoke": "1"})
    assert Crew.objects.get(pk=crew.pk).share_token is None


# --- permissions.py: each yes/no question agrees with its raising check ----------------------------


def _raises(check, *args) -> bool:
    try:
        check(*args)
    except (Http404, crew_edits.EditError):
        return True
    return False


PAIRS = [
    (permissions.user_can_see_crew, permissions.check_user_can_see_crew),
    (permissions.user_can_edit_crew, permissions.check_user_can_edit_crew),
    (permissions.user_can_delete_crew, permissions.check_user_can_delete_crew),
    (permissions.user_can_share_crew, permissions.check_user_can_share_crew),
    (permissions.user_can_copy_crew, permissions.check_user_can_copy_crew),
    (permissions.user_can_print_crew, permissions.check_user_can_print_crew),
]


def test_each_permission_question_agrees_with_its_check(user, other_user, crew, make_crew):
    from campaigns.models import Campaign, CampaignCrew

    copy = make_crew(user, "The Copy", [{"name": "Rake"}])
    campaign = Campaign.objects.create(name="Ashes of Vell", system=copy.system, organiser=user)
    CampaignCrew.objects.create(campaign=campaign, player=user, crew=copy, source_crew=crew)
    copy = Crew.objects.select_related("campaign_entry").get(pk=copy.pk)
    expected = {
        # (who, crew): see, edit, delete, share, copy, print
        ("owner", "crew"): (True, True, True, True, True, True),
        ("owner", "copy"): (True, False, False, True, True, True),
        ("other", "crew"): (False,) * 6,
        ("other", "copy"): (False,) * 6,
        ("visitor", "crew"): (False,) * 6,
    }
    people = {"owner": user, "other": other_user, "visitor": AnonymousUser()}
    crews = {"crew": crew, "copy": copy}
    for (who, which), answers in expected.items():
        for (question, check), answer in zip(PAIRS, answers):
            assert question(people[who], crews[which]) is answer, (question.__name__, who, which)
            assert _raises(check, people[who], crews[which]) is not answer, (check.__name__, who, which)
    # Another player is told nothing (404); the owner of a campaign copy is told why.
    with pytest.raises(Http404):
        permissions.check_user_can_edit_crew(other_user, copy)
    with pytest.raises(crew_edits.CampaignCopy, match="enrolled in a campaign"):
        permissions.check_user_can_edit_crew(user, copy)


def test_get_crew_for_user_is_404_for_anyone_but_the_owner(user, other_user, crew):
    assert permissions.get_crew_for_user(user, crew.pk) == crew
    for who in (other_user, AnonymousUser()):
        with pytest.raises(Http404):
            permissions.get_crew_for_user(who, crew.pk)


def test_a_share_token_no_link_can_have_finds_nothing_without_a_query(crew, django_assert_num_queries):
    Crew.objects.filter(pk=crew.pk).update(share_token="t" * 32)
    with django_assert_num_queries(0):
        for token in ("", None, "t" * 65):
            assert list(Crew.objects.shared_by_token(token)) == []
    assert permissions.get_shared_crew("t" * 32) == crew
    with pytest.raises(Http404):
        permissions.get_shared_crew("t" * 31)


def test_the_dice_assistant_offers_own_and_opened_shared_crews_only(client, user, other_user, crew, make_crew):
    theirs = make_crew(other_user, "Mara's Own", [{"name": "Mara Blade"}], share_token="m" * 32)
    hidden = make_crew(other_user, "Hidden", [{"name": "Secret Blade"}])
    allowed = set(
        Character.objects.filter(permissions.dice_assistant_crews(user, ["m" * 32])).values_list("crew", flat=True)
    )
    assert allowed == {crew.pk, theirs.pk}
    visitor = set(
        Character.objects.filter(permissions.dice_assistant_crews(AnonymousUser(), [])).values_list("crew", flat=True)
    )
    assert visitor == set()
    client.force_login(user)
    page = client.get(reverse("dice-home")).content.decode()
    assert "Rake" in page and "Mara Blade" not in page and "Secret Blade" not in page
    assert hidden.pk not in allowed


# --- querysets and choices ----------------------------------------------------------------------


def test_a_users_crews_leave_out_drone_sets(user, other_user, crew, make_crew):
    mine = make_crew(user, "Second")
    make_crew(other_user, "Not mine")
    assert set(Crew.objects.owned_by(user).without_drone_sets()) == {crew, mine}


def test_username_lookup_ignores_case_and_spaces(user):
    assert User.objects.named("  VOX ") == user
    assert User.objects.named("vo") is None and User.objects.named(None) is None


def test_choices_are_text_choices_with_the_stored_values():
    assert User.PaperSize.choices == [("A4", "A4"), ("LETTER", "US Letter")]
    assert Item.WEAPON == Item.Category.WEAPON == "weapon"
    assert Item.Kind.NONE == "" and TableRow.DAMAGE_TABLE == "damage_table"


def test_the_locked_out_login_page_keeps_the_username_and_where_to_go(client, user):
    for _ in range(10):
        client.post(reverse("login"), {"username": "Vox ", "password": "wrong"}, REMOTE_ADDR="10.0.0.7")
    response = client.post(
        reverse("login") + "?next=/ignored/",
        {"username": "Vox ", "password": "wrong", "next": "/crews/"},
        REMOTE_ADDR="10.0.0.7",
    )
    page = response.content.decode()
    assert response.status_code == 429 and "Too many wrong passwords" in page
    assert 'value="Vox "' in page and 'name="next" value="/crews/"' in page
    response = client.post(
        reverse("login") + "?next=/dice/", {"username": "vox", "password": "x"}, REMOTE_ADDR="10.0.0.7"
    )
    assert response.status_code == 429 and 'name="next" value="/dice/"' in response.content.decode()
