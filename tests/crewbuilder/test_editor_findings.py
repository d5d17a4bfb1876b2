"""The editor and the crew page show alike findings as one line naming each part, with one house-rule offer."""

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

BESTIAL_PARTS = "auto pistol / crossbow / trauma kit"


@pytest.fixture
def beast(user, make_crew, legal_attributes):
    """A crew whose first character is Bestial and Artificial, carrying three things it cannot use and two
    body-mods it cannot take."""
    others = [{"name": n, "attributes": dict(legal_attributes)} for n in ("Ash", "Bo")]
    vox = {
        "name": "Vox",
        "attributes": dict(legal_attributes),
        "traits": ["bestial", "artificial"],
        "body_mods": ["neural-cabling", "extra-organs"],
        "gear": ["auto-pistol", "crossbow", "trauma-kit"],
    }
    return make_crew(user, characters=[vox, *others])


def test_alike_findings_are_one_line_with_one_offer(client, user, beast):
    client.force_login(user)
    html = client.get(reverse("crew-edit", args=[beast.pk])).content.decode()
    vox = beast.characters.get(name="Vox")
    block = html[html.index(f'id="findings-{vox.pk}"') :].split('id="findings-')[1]
    assert block.count('data-code="bestial-unusable-item"') == 1
    assert f'<b class="finding-parts">{BESTIAL_PARTS}</b> is carried but cannot be used.' in block
    assert block.count('data-code="artificial-body-mod"') == 1
    assert '<b class="finding-parts">Neural cabling / Extra organs</b> is not.' in block
    # one offer for the two body-mods: a house rule is kept by code and character
    assert block.count('name="code" value="artificial-body-mod"') == 1


def test_an_accepted_line_is_withdrawn_once(client, user, beast):
    client.force_login(user)
    beast.refresh_from_db()
    response = client.post(
        reverse("crew-edit-action", args=[beast.pk, "accept"]),
        {"version": beast.version, "code": "artificial-body-mod", "character": "Vox", "note": "our cyborgs"},
    )
    assert response.status_code in (200, 302)
    html = client.get(reverse("crew-edit", args=[beast.pk])).content.decode()
    accepted = html[html.index('id="house-rules-heading"') :]
    accepted = accepted[: accepted.index("</section>")]
    assert accepted.count('value="artificial-body-mod"') == 1
    assert re.search(r"Neural cabling / Extra organs</b> is not\. <em>— “our cyborgs”</em>", accepted)


def test_the_crew_page_shows_each_line_once(client, user, beast):
    client.force_login(user)
    html = client.get(reverse("crew-detail", args=[beast.pk])).content.decode()
    assert html.count("is carried but cannot be used.") == 1
    assert (
        f'<strong>Vox:</strong> BESTIAL models can only fight, get up, move; <b class="finding-parts">{BESTIAL_PARTS}</b>'
        in html
    )
    assert html.count("is not.") == 1


def test_a_renamed_character_keeps_its_house_rules(client, user, beast):
    from crewbuilder import crew_edits

    vox = beast.characters.get(name="Vox")
    crew_edits.accept_finding(beast, code="artificial-body-mod", character="Vox", note="our cyborgs")
    client.force_login(user)
    beast.refresh_from_db()
    client.post(
        reverse("crew-edit-action", args=[beast.pk, "character"]),
        {"version": beast.version, "character": vox.pk, "name": "Voxel", "notes": ""},
    )
    beast.refresh_from_db()
    assert beast.accepted_findings == [{"code": "artificial-body-mod", "character": "Voxel", "note": "our cyborgs"}]
    html = client.get(reverse("crew-edit", args=[beast.pk])).content.decode()
    accepted = html[html.index('id="house-rules-heading"') :]
    assert '<input type="hidden" name="character" value="Voxel">' in accepted[: accepted.index("</section>")]
    # a character given the old name later inherits nothing
    crew_edits.add_character(beast, name="Vox")
    beast.refresh_from_db()
    assert [f["character"] for f in beast.accepted_findings] == ["Voxel"]
