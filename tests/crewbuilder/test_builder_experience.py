"""Issue 18, "Builder experience": the pinned summary, collapsed characters, pickers, duplicate and
reorder, campaign copies, and the wording."""

import re

import pytest
from django.urls import reverse

from crewbuilder.models import Character, Crew

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def _post_edit(client, crew, action, htmx=True, **data):
    crew.refresh_from_db()
    data.setdefault("version", crew.version)
    return client.post(reverse("crew-edit-action", args=[crew.pk, action]), data, **(HX if htmx else {}))


def _text(html: str) -> str:
    """What the page reads, without its tags (a figure kept with its unit is a span) and with plain spaces."""
    return re.sub(r"<[^>]+>", "", html).replace("\xa0", " ").replace("&quot;", '"')


def _open_cards(html: str) -> list[str]:
    """The names of the characters shown expanded."""
    return re.findall(
        r'<details class="character-fold" name="character" open>\s*<summary[^>]*>.*?<h2 id="[^"]+">([^<]+)</h2>',
        html,
        re.S,
    )


# --- the pinned summary --------------------------------------------------------------------------


def test_summary_counts_errors_and_leads_to_the_first(client, user, make_crew):
    crew = make_crew(user, characters=[{"name": "Vox", "attributes": {}}])
    client.force_login(user)
    html = client.get(reverse("crew-edit", args=[crew.pk])).content.decode()
    summary = html[html.index('id="crew-summary"') : html.index('<header class="editor-head">')]
    # too few characters (crew) and Vox's unplaced modifiers
    assert ">2 errors</a>" in summary
    assert 'href="#crew-findings"' in summary
    assert "/ 150 pts" in summary


def test_summary_error_count_is_singular_and_points_at_the_character(client, user, make_crew, legal_attributes):
    crew = make_crew(
        user,
        characters=[{"name": n, "attributes": dict(legal_attributes)} for n in ("A", "B")]
        + [{"name": "C", "attributes": {}}],
    )
    client.force_login(user)
    html = client.get(reverse("crew-edit", args=[crew.pk])).content.decode()
    c = crew.characters.get(name="C")
    assert f'href="#findings-{c.pk}">1 error</a>' in html


def test_a_character_edit_updates_the_pinned_summary_out_of_band(client, user, make_crew, legal_attributes):
    crew = make_crew(user, characters=[{"name": n, "attributes": dict(legal_attributes)} for n in ("A", "B", "C")])
    client.force_login(user)
    a = crew.characters.get(name="A")
    html = _post_edit(client, crew, "attribute", character=a.pk, step="strength:1").content.decode()
    assert 'id="crew-summary" aria-live="polite" hx-swap-oob="true"' in html
    assert ">1 error</a>" in html
    html = _post_edit(client, crew, "attribute", character=a.pk, step="strength:-1").content.decode()
    assert "no errors" in html


def test_a_refused_edit_says_why_in_the_pinned_bar(client, user, make_crew):
    crew = make_crew(user, characters=[{"name": "Vox"}])
    client.force_login(user)
    response = _post_edit(client, crew, "add-character", name="x" * 101)
    assert response.status_code == 422
    html = response.content.decode()
    bar = html[html.index('<div class="summary-bar">') : html.index('<header class="editor-head">')]
    assert "Character name is 101 characters long; the limit is 100." in bar


# --- collapsed characters, one open at a time ---------------------------------------------------


def test_characters_are_collapsed_unless_asked_for(client, user, make_crew):
    crew = make_crew(user, characters=[{"name": "Vox"}, {"name": "Mara"}])
    client.force_login(user)
    url = reverse("crew-edit", args=[crew.pk])
    html = client.get(url).content.decode()
    assert _open_cards(html) == []
    # each collapsed character keeps a one-line summary: its choices and numbers
    assert 'id="character-line-' in html and "no traits, body-mods or gear · Armor 0" in _text(html)
    mara = crew.characters.get(name="Mara")
    assert _open_cards(client.get(url, {"open": mara.pk}).content.decode()) == ["Mara"]


def test_the_one_line_summary_lists_choices_with_quantities(client, user, make_crew):
    crew = make_crew(user, characters=[{"name": "Rake", "traits": ["big"], "gear": ["sword", "light-armor"]}])
    crew.characters.get().gear.filter(item__slug="sword").update(copies=2)
    client.force_login(user)
    html = client.get(reverse("crew-edit", args=[crew.pk])).content.decode()
    assert "BIG, sword ×2, light armor · Armor 1" in _text(html)


def test_after_an_edit_the_new_or_edited_character_is_open(client, user, make_crew):
    crew = make_crew(user, characters=[{"name": "Vox"}, {"name": "Mara"}])
    client.force_login(user)
    html = _post_edit(client, crew, "add-character", name="Ish").content.decode()
    assert _open_cards(html) == ["Ish"]
    vox = crew.characters.get(name="Vox")
    html = _post_edit(client, crew, "character", character=vox.pk, name="Vox", notes="n").content.decode()
    assert _open_cards(html) == ["Vox"]
    # a stepper is clicked in the open card: the answer is its attributes, and the card stays as it is
    step = _post_edit(client, crew, "attribute", character=vox.pk, step="agility:1")
    assert step["HX-Retarget"] == f"#attributes-{vox.pk}" and _open_cards(step.content.decode()) == []
    # a whole-editor redraw keeps open the character the browser had open
    mara = crew.characters.get(name="Mara")
    html = _post_edit(client, crew, "crew", name="Renamed", budget=150, notes="", open=mara.pk).content.decode()
    assert _open_cards(html) == ["Mara"]


def test_without_javascript_an_added_character_comes_back_open(client, user, make_crew):
    crew = make_crew(user)
    client.force_login(user)
    response = _post_edit(client, crew, "add-character", htmx=False, name="Vox")
    vox = crew.characters.get()
    assert response.url == reverse("crew-edit", args=[crew.pk]) + f"?open={vox.pk}#character-{vox.pk}"
    assert _open_cards(client.get(response.url).content.decode()) == ["Vox"]


def test_what_to_open_is_only_ever_an_id(client, user, make_crew):
    crew = make_crew(user, characters=[{"name": "Vox"}])
    client.force_login(user)
    response = _post_edit(
        client, crew, "crew", htmx=False, name="Renamed", budget=150, notes="", open="1#x?next=//evil.example"
    )
    assert response.status_code == 302 and response.url == reverse("crew-edit", args=[crew.pk])


# --- pickers ------------------------------------------------------------------------------------


def _picker(client, crew, character, kind, **params):
    url = reverse("crew-picker", args=[crew.pk, character.pk, kind])
    return client.get(url, params, **HX).content.decode()


def _option(html: str, name: str) -> str:
    """One option's list item."""
    match = re.search(rf'<li class="picker-option[^"]*" data-name="{re.escape(name.lower())}">.*?</li>', html, re.S)
    assert match, name
    return match.group(0)


def test_an_artificial_character_is_told_which_body_mods_it_cannot_take(client, user, make_crew):
    crew = make_crew(user, characters=[{"name": "Vox", "traits": ["artificial"]}])
    client.force_login(user)
    html = _picker(client, crew, crew.characters.get(), "body-mod")
    assert "models can only take body-mods marked // A; Neural cabling is not." in _option(html, "Neural cabling")
    assert "only take body-mods" not in _option(html, "Mechanical claw")
    assert "2 pts" in _option(html, "Mechanical claw")


def test_a_full_character_is_told_it_would_be_over_capacity(client, user, make_crew):
    # Strength +1: 6 items at most
    crew = make_crew(user, characters=[{"name": "Mule", "gear": ["sword"] * 6}])
    client.force_login(user)
    html = _picker(client, crew, crew.characters.get(), "gear")
    assert "Mule carries 7 items; the most is 6" in _option(html, "sword")
    assert "Mule carries 6.5 items; the most is 6" in _option(html, "knife")  # a small item counts half


def test_picker_groups_as_the_rules_do_and_filters_by_name(client, user, make_crew):
    crew = make_crew(user, characters=[{"name": "Vox"}])
    client.force_login(user)
    character = crew.characters.get()
    html = _picker(client, crew, character, "gear")
    assert html.index("1-handed melee weapons") < html.index("2-handed ranged weapons") < html.index("Equipment")
    found = _picker(client, crew, character, "gear", q="  SWORD ")
    names = re.findall(r'data-name="([^"]+)"', found)
    assert names and all("sword" in n for n in names)
    assert "rifle" not in names
    nothing = _picker(client, crew, character, "gear", q="no such thing")
    assert re.search(r"<p class=\"empty\" data-picker-none>\s*Nothing matches", nothing)


def test_picker_costs_are_singular_for_one_point(client, user, make_crew):
    crew = make_crew(user, characters=[{"name": "Vox"}])
    client.force_login(user)
    html = _picker(client, crew, crew.characters.get(), "gear")
    costs = re.findall(r'<span class="muted">(\d+) (pts?)</span>', html)
    assert costs and all((n == "1") == (unit == "pt") for n, unit in costs)


# --- duplicate and reorder ----------------------------------------------------------------------


def test_duplicate_character_copies_every_choice_right_after_it(client, user, make_crew):
    crew = make_crew(
        user,
        characters=[
            {"name": "A"},
            {
                "name": "Rake",
                "traits": [{"slug": "gifted", "raise": ["strength", "agility"]}],
                "body_mods": ["neural-cabling"],
                "gear": ["sword", "light-armor"],
            },
            {"name": "C"},
        ],
    )
    client.force_login(user)
    rake = crew.characters.get(name="Rake")
    rake.gear.filter(item__slug="sword").update(copies=2)
    response = _post_edit(client, crew, "duplicate-character", character=rake.pk)
    assert response.status_code == 200
    assert list(crew.characters.order_by("position").values_list("name", flat=True)) == [
        "A",
        "Rake",
        "Rake (copy)",
        "C",
    ]
    copy = crew.characters.get(name="Rake (copy)")
    assert _open_cards(response.content.decode()) == ["Rake (copy)"]
    assert [(t.trait.slug, t.choices) for t in copy.traits.all()] == [("gifted", {"raise": ["strength", "agility"]})]
    assert [m.body_mod.slug for m in copy.body_mods.all()] == ["neural-cabling"]
    assert sorted((g.item.slug, g.copies) for g in copy.gear.all()) == [("light-armor", 1), ("sword", 2)]
    assert copy.strength == rake.strength


def test_duplicate_from_a_stale_tab_is_a_conflict(client, user, make_crew):
    crew = make_crew(user, characters=[{"name": "A"}])
    client.force_login(user)
    a = crew.characters.get()
    response = client.post(
        reverse("crew-edit-action", args=[crew.pk, "duplicate-character"]),
        {"version": crew.version - 1, "character": a.pk},
        **HX,
    )
    assert response.status_code == 409
    assert crew.characters.count() == 1


@pytest.mark.parametrize("place, order", [(0, ["C", "A", "B"]), (1, ["A", "C", "B"]), (2, ["A", "B", "C"])])
def test_place_character_puts_it_where_it_was_dropped(client, user, make_crew, place, order):
    crew = make_crew(user, characters=[{"name": "A"}, {"name": "B"}, {"name": "C"}])
    client.force_login(user)
    a = crew.characters.get(name="A")
    response = _post_edit(
        client, crew, "place-character", character=crew.characters.get(name="C").pk, place=place, open=a.pk
    )
    assert response.status_code == 200
    assert list(crew.characters.order_by("position").values_list("name", flat=True)) == order
    assert _open_cards(response.content.decode()) == ["A"]  # a drag leaves open what was open


def test_place_character_out_of_range_says_why_and_changes_nothing(client, user, make_crew):
    crew = make_crew(user, characters=[{"name": "A"}, {"name": "B"}])
    client.force_login(user)
    response = _post_edit(client, crew, "place-character", character=crew.characters.get(name="A").pk, place=5)
    assert response.status_code == 422
    assert "Place must be between 0 and 1." in response.content.decode()
    assert list(crew.characters.order_by("position").values_list("name", flat=True)) == ["A", "B"]


# --- campaign copies ----------------------------------------------------------------------------


@pytest.fixture
def campaign_copy(user, make_crew):
    from campaigns.models import Campaign, CampaignCrew

    original = make_crew(user, name="The Rust Choir", characters=[{"name": "Rake"}])
    copy = make_crew(user, name="The Rust Choir", characters=[{"name": "Rake"}])
    campaign = Campaign.objects.create(name="Ashes of Vell", system=original.system, organiser=user)
    CampaignCrew.objects.create(campaign=campaign, player=user, crew=copy, source_crew=original)
    return original, copy, campaign


def test_my_crews_marks_campaign_copies_with_their_campaign(client, user, campaign_copy):
    original, copy, campaign = campaign_copy
    client.force_login(user)
    html = client.get(reverse("crew-list")).content.decode()
    rows = re.findall(r"<tr>.*?</tr>", html[html.index("<tbody>") :], re.S)
    copy_row = next(r for r in rows if reverse("crew-detail", args=[copy.pk]) + '"' in r and "data-campaign-copy" in r)
    assert reverse("campaign-detail", args=[campaign.pk]) in copy_row and "Ashes of Vell" in copy_row
    original_row = next(r for r in rows if reverse("crew-edit", args=[original.pk]) in r)
    assert "data-campaign-copy" not in original_row


def test_campaign_marks_add_no_query_per_crew(client, user, campaign_copy, make_crew):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(user)
    client.get(reverse("crew-list"))  # warm the catalogue snapshot
    with CaptureQueriesContext(connection) as two:
        client.get(reverse("crew-list"))
    make_crew(user, name="Third", characters=[{"name": "X"}])
    client.get(reverse("crew-list"))  # the new crew's list summary is stored on its first read
    with CaptureQueriesContext(connection) as three:
        client.get(reverse("crew-list"))
    assert len(three) == len(two)


def test_a_campaign_copy_opens_read_only_with_the_way_through_the_campaign(client, user, campaign_copy):
    _original, copy, campaign = campaign_copy
    client.force_login(user)
    response = client.get(reverse("crew-edit", args=[copy.pk]))
    assert response.status_code == 302 and response.url == reverse("crew-detail", args=[copy.pk])
    htmx = client.get(reverse("crew-edit", args=[copy.pk]), **HX)
    assert htmx["HX-Redirect"] == reverse("crew-detail", args=[copy.pk])
    html = client.get(response.url).content.decode()
    assert "Campaign copy · Ashes of Vell" in html
    assert reverse("campaign-shop", args=[campaign.pk]) in html
    assert reverse("crew-edit", args=[copy.pk]) not in html


def test_an_edit_to_a_campaign_copy_is_explained_on_its_read_only_page(client, user, campaign_copy):
    _original, copy, _campaign = campaign_copy
    client.force_login(user)
    rake = copy.characters.get()
    response = _post_edit(client, copy, "attribute", character=rake.pk, step="strength:1")
    assert response.status_code == 422
    assert response["HX-Redirect"] == reverse("crew-detail", args=[copy.pk])
    rake.refresh_from_db()
    assert rake.strength == 1  # unchanged (make_crew's default)
    html = client.get(reverse("crew-detail", args=[copy.pk])).content.decode()
    assert "This crew is enrolled in a campaign" in html


def test_a_campaign_copy_is_not_deleted_from_my_crews(client, user, campaign_copy):
    original, copy, _campaign = campaign_copy
    client.force_login(user)
    assert reverse("crew-delete", args=[copy.pk]) not in client.get(reverse("crew-list")).content.decode()
    page = client.get(reverse("crew-delete", args=[copy.pk])).content.decode()
    assert "is a campaign copy" in page and "Delete the crew" not in page
    response = client.post(reverse("crew-delete", args=[copy.pk]))
    assert response.status_code == 422
    assert Crew.objects.filter(pk=copy.pk).exists()
    assert client.post(reverse("crew-delete", args=[original.pk])).status_code == 302  # the player's own crew goes


def test_whole_crew_actions_refuse_another_crews_character(client, user, other_user, make_crew):
    mine = make_crew(user, characters=[{"name": "Mine"}])
    theirs = make_crew(other_user, characters=[{"name": "Theirs"}])
    client.force_login(user)
    stranger = theirs.characters.get().pk
    assert _post_edit(client, mine, "duplicate-character", character=stranger).status_code == 422
    assert _post_edit(client, mine, "place-character", character=stranger, place=0).status_code == 422
    assert Character.objects.filter(crew=theirs).count() == 1 and Character.objects.filter(crew=mine).count() == 1
    # and another user's crew is a 404, whatever the character
    client.force_login(other_user)
    response = _post_edit(client, mine, "duplicate-character", character=mine.characters.get().pk)
    assert response.status_code == 404


# --- wording ------------------------------------------------------------------------------------


def test_one_character_is_singular(client, user, make_crew):
    crew = make_crew(user, characters=[{"name": "Solo"}])
    client.force_login(user)
    html = client.get(reverse("crew-edit", args=[crew.pk])).content.decode()
    assert "The crew has 1 character; it needs at least 3." in html
    assert "1 characters" not in html


def test_no_house_rule_offer_for_an_empty_crew(client, user, make_crew):
    empty = make_crew(user, name="Empty")
    solo = make_crew(user, name="Solo", characters=[{"name": "Solo"}])
    client.force_login(user)
    empty_html = client.get(reverse("crew-edit", args=[empty.pk])).content.decode()
    assert 'data-code="too-few-characters"' in empty_html
    assert "Accept as house rule" not in empty_html
    assert "Accept as house rule" in client.get(reverse("crew-edit", args=[solo.pk])).content.decode()


def test_a_new_player_is_welcomed_not_welcomed_back(client, django_user_model):
    client.post(
        reverse("signup"),
        {"username": "newbie", "email": "", "password1": "rust-and-bone-42", "password2": "rust-and-bone-42"},
    )
    first = client.get(reverse("home")).content.decode()
    assert "<h1>Welcome, newbie</h1>" in first
    assert "<h1>Welcome back, newbie</h1>" in client.get(reverse("home")).content.decode()  # the next visit


def test_a_weak_password_is_explained_under_the_password_field(client):
    html = client.post(
        reverse("signup"), {"username": "newbie", "email": "", "password1": "123", "password2": "123"}
    ).content.decode()
    password = html.index('id="id_password1"')
    confirmation = html.index('for="id_password2"')
    error = html.index("too short")
    assert password < error < confirmation


def test_pages_have_a_local_favicon(client):
    from django.contrib.staticfiles import finders

    html = client.get(reverse("home")).content.decode()
    href = re.search(r'<link rel="icon" href="([^"]+)"', html).group(1)
    assert href.startswith("/static/") and finders.find(href.removeprefix("/static/"))


def test_treasure_tokens_are_counted_in_words(user, campaign_copy):
    from campaigns import services
    from campaigns.models import CampaignCrew

    _original, copy, campaign = campaign_copy
    campaign.treasure_value = 5
    campaign.save()
    entry = CampaignCrew.objects.get(crew=copy)
    with pytest.raises(services.CampaignError, match=r"= 1 Treasure Token; the treasury holds 0\."):
        services.buy_gear(entry, user, copy.characters.get().pk, "sword")


def test_exact_fractions_are_shown_on_request(client, catalogue):
    html = client.get(reverse("dice-quick", args=["test"])).content.decode()
    assert re.search(
        r'<details class="exact-fraction"><summary>exact</summary><span class="muted exact">\d+/\d+</span>', html
    )
