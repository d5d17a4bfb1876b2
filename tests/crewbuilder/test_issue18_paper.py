"""Issue 18, bug 4: US Letter chosen by a visible control on every print button and in the settings."""

import re

import pytest
from django.urls import reverse


def _paper_selects(html):
    return re.findall(
        r'<form method="get" action="([^"]+)" class="inline-form print-form">.*?<select name="paper"'
        r'.*?<option value="A4"( selected)?>A4</option>\s*<option value="LETTER"( selected)?>US Letter',
        html,
        re.S,
    )


def test_settings_save_the_paper_by_post(client, user):
    client.force_login(user)
    page = client.get(reverse("account-settings")).content.decode()
    assert 'value="LETTER"' in page and "US Letter" in page
    response = client.post(reverse("account-settings"), {"paper_size": "LETTER"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.paper_size == "LETTER"
    assert "now print on US Letter" in client.get(response.url).content.decode()


def test_settings_refuse_a_bad_paper_with_a_message(client, user):
    client.force_login(user)
    response = client.post(reverse("account-settings"), {"paper_size": "A3"})
    assert response.status_code == 422 and "Select a valid choice" in response.content.decode()
    user.refresh_from_db()
    assert user.paper_size == "A4"


def test_settings_need_a_login(client, db):
    assert client.get(reverse("account-settings")).status_code == 302
    assert client.post(reverse("account-settings"), {"paper_size": "LETTER"}).status_code == 302


def test_a_get_never_changes_the_setting(client, user):
    client.force_login(user)
    client.get(reverse("account-settings"), {"paper_size": "LETTER"})
    user.refresh_from_db()
    assert user.paper_size == "A4"


def test_the_header_links_to_the_settings(client, user):
    client.force_login(user)
    html = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("account-settings")}"' in html


def test_the_crew_print_button_has_a_paper_control_defaulting_to_the_setting(client, user, geared_crew):
    crew = geared_crew(user, 3)
    client.force_login(user)
    html = client.get(reverse("crew-detail", args=[crew.pk])).content.decode()
    assert _paper_selects(html) == [(reverse("crew-roster", args=[crew.pk]), " selected", "")]
    user.paper_size = "LETTER"
    user.save()  # as the settings page saves it
    html = client.get(reverse("crew-detail", args=[crew.pk])).content.decode()
    assert _paper_selects(html) == [(reverse("crew-roster", args=[crew.pk]), "", " selected")]


def test_the_shared_page_and_quick_reference_have_the_control(client, user, geared_crew):
    crew = geared_crew(user, 3)
    crew.share_token = "paper-share-token"
    crew.save(update_fields=["share_token"])
    shared = client.get(reverse("crew-shared", args=["paper-share-token"])).content.decode()
    assert [a for a, *_ in _paper_selects(shared)] == [reverse("crew-roster-shared", args=["paper-share-token"])]
    client.force_login(user)
    home = client.get(reverse("home")).content.decode()
    assert reverse("quick-reference-pdf", args=["cybernekro"]) in [a for a, *_ in _paper_selects(home)]


def _mediabox(data: bytes):
    from io import BytesIO

    from pypdf import PdfReader

    box = PdfReader(BytesIO(data)).pages[0].mediabox
    return round(float(box.width)), round(float(box.height))


@pytest.mark.parametrize("paper, size", [("LETTER", (612, 792)), ("A4", (595, 842))])
def test_the_print_control_prints_on_that_paper(client, user, geared_crew, paper, size):
    crew = geared_crew(user, 3)
    client.force_login(user)
    response = client.get(reverse("crew-roster", args=[crew.pk]), {"paper": paper})
    assert response.status_code == 200 and _mediabox(response.content) == size
    quick = client.get(reverse("quick-reference-pdf", args=["cybernekro"]), {"paper": paper})
    assert _mediabox(quick.content) == size


@pytest.mark.parametrize("paper", ["A4", "LETTER"])
def test_the_quick_reference_states_the_attribute_test(client, catalogue, paper):
    from io import BytesIO

    from pypdf import PdfReader

    response = client.get(reverse("quick-reference-pdf", args=["cybernekro"]), {"paper": paper})
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(BytesIO(response.content)).pages)
    assert "Attribute test: D20 + Attribute (modifiers stack): 11+ succeeds" in text
    assert "Natural 20: Critical, always succeeds" in text
    assert "natural 1: Fumble, always fails" in text
    assert len(PdfReader(BytesIO(response.content)).pages) == 1  # still one sheet
