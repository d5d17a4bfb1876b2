"""PDF downloads: roster (owner, share link), quick reference, paper setting, CLI."""

import json
import re
import subprocess
import sys
import types
from io import BytesIO

import pytest
from django.core.management import call_command
from django.urls import include, path, reverse
from pypdf import PdfReader

A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)


@pytest.fixture(autouse=True)
def pdf_urls(settings):
    """Serve urls_pdf even before the lead includes it from crewbuilder/urls.py."""
    from django.urls import NoReverseMatch

    try:
        reverse("crew-roster", args=[1])
        return
    except NoReverseMatch:
        pass
    module = types.ModuleType("crewbuilder_pdf_test_urls")
    module.urlpatterns = [path("", include("crewbuilder.urls_pdf")), path("", include("config.urls"))]
    sys.modules[module.__name__] = module
    settings.ROOT_URLCONF = module.__name__


def pdf_text(data: bytes) -> str:
    out = subprocess.run(["pdftotext", "-enc", "UTF-8", "-", "-"], input=data, capture_output=True, check=True).stdout
    return re.sub(r"\s+", " ", out.decode("utf-8"))


def page_sizes(data: bytes):
    return [(float(p.mediabox.width), float(p.mediabox.height)) for p in PdfReader(BytesIO(data)).pages]


def content(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


SEVEN = [
    {
        "name": "Vox the Hollow",
        "traits": ["big"],
        "body_mods": ["neural-cabling"],
        "gear": ["heavy-weapon", "light-armor", "trauma-kit"],
    },
    {"name": "Sister Cathode", "traits": ["sorcerer"], "gear": ["staff", "mind-concealer"]},
    {"name": "Gutter Kell", "traits": ["ambidextrous"], "gear": ["sword", "axe", "stealth-suit"]},
    {
        "name": "Ossuary Unit 9",
        "traits": ["artificial"],
        "body_mods": ["reinforced-body"],
        "gear": ["chain-gun", "medium-armor"],
    },
    {
        "name": "Mother Pell",
        "traits": ["darkborn"],
        "body_mods": ["extra-organs"],
        "gear": ["crossbow", "knife", "light-armor"],
    },
    {"name": "The Brothers Quill", "traits": ["long-arms"], "gear": ["polearm", "lantern", "gas-mask"]},
    {"name": "Ash-Eater", "traits": ["driven-by-madness"], "gear": ["flamethrower", "pistol", "hazard-suit"]},
]
ATTRIBUTES = {"strength": 2, "toughness": 1, "agility": 1, "intellect": -1, "discipline": -2}


@pytest.fixture
def seven(make_crew, user):
    return make_crew(user, name="Saints of <Rust>", characters=[{**c, "attributes": dict(ATTRIBUTES)} for c in SEVEN])


# --- the owner's roster ------------------------------------------------------------


def test_owner_gets_the_roster_pdf(client, user, seven):
    client.force_login(user)
    response = client.get(reverse("crew-roster", args=[seven.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'inline; filename="saints-of-rust-roster.pdf"'
    data = content(response)
    assert data.startswith(b"%PDF")
    text = pdf_text(data)
    assert "Saints of <Rust>" in text
    for character in SEVEN:
        assert character["name"] in text
    for weapon in [
        "heavy weapon",
        "staff",
        "sword",
        "axe",
        "chain gun",
        "crossbow",
        "knife",
        "polearm",
        "flamethrower",
        "pistol",
    ]:
        assert weapon.capitalize() in text  # weapon names print capitalised
    # rules text from the catalogue, and the sorceries of the sorcerer
    assert "All melee and ranged attacks against this model suffer a +2 to hit rolls" in text
    assert "Hits with this weapon ignore up to X points of armor." in text  # Piercing X (axe, crossbow, polearm)
    assert "black ink" in text.lower()
    assert len(page_sizes(data)) <= 2


def test_other_users_crew_is_404(client, other_user, seven):
    client.force_login(other_user)
    assert client.get(reverse("crew-roster", args=[seven.pk])).status_code == 404


def test_missing_crew_is_404(client, user):
    client.force_login(user)
    assert client.get(reverse("crew-roster", args=[999999])).status_code == 404


def test_anonymous_is_sent_to_login(client, seven):
    url = reverse("crew-roster", args=[seven.pk])
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert "next=" in response["Location"]


def test_roster_only_answers_get(client, user, seven):
    client.force_login(user)
    assert client.post(reverse("crew-roster", args=[seven.pk])).status_code == 405


def test_invalid_crew_prints_with_a_banner(client, user, make_crew):
    crew = make_crew(
        user, name="Too Few", characters=[{"name": "Alone", "attributes": dict(ATTRIBUTES), "gear": ["sword"]}]
    )
    client.force_login(user)
    text = pdf_text(content(client.get(reverse("crew-roster", args=[crew.pk]))))
    assert "not valid — this crew breaks the crew rules" in text.lower()
    assert "too-few-characters" in text


def test_accepted_findings_print_as_house_rules(client, user, make_crew):
    specs = [{"name": f"Ghoul {i}", "attributes": dict(ATTRIBUTES), "gear": ["sword"]} for i in range(2)]
    crew = make_crew(
        user,
        name="Pair",
        characters=specs,
        accepted_findings=[{"code": "too-few-characters", "character": None, "note": "a duel"}],
    )
    client.force_login(user)
    text = pdf_text(content(client.get(reverse("crew-roster", args=[crew.pk]))))
    assert "Valid with house rules" in text
    assert "a duel" in text


# --- paper -------------------------------------------------------------------------


def test_paper_comes_from_the_query_for_that_pdf_and_from_the_saved_setting(client, user, seven):
    client.force_login(user)
    url = reverse("crew-roster", args=[seven.pk])
    assert all(size == pytest.approx(A4, abs=1) for size in page_sizes(content(client.get(url))))

    letter = content(client.get(url, {"paper": "LETTER"}))
    assert all(size == pytest.approx(LETTER, abs=1) for size in page_sizes(letter))
    # A GET never writes the setting (issue 17): any site can make a browser send one.
    user.refresh_from_db()
    assert user.paper_size == "A4"
    assert all(size == pytest.approx(A4, abs=1) for size in page_sizes(content(client.get(url))))

    # The settings form (a POST) saves it; then no ?paper= gives Letter.
    assert client.post(reverse("account-settings"), {"paper_size": "LETTER"}).status_code == 302
    assert all(size == pytest.approx(LETTER, abs=1) for size in page_sizes(content(client.get(url))))

    # Nonsense is ignored, the setting stays.
    assert all(
        size == pytest.approx(LETTER, abs=1) for size in page_sizes(content(client.get(url, {"paper": "tabloid"})))
    )
    client.get(url, {"paper": "a4"})
    user.refresh_from_db()
    assert user.paper_size == "LETTER"


# --- share links ---------------------------------------------------------------------


def test_share_link_prints_until_revoked(client, user, seven):
    seven.share_token = "t" * 32
    seven.save(update_fields=["share_token"])
    url = reverse("crew-roster-shared", args=[seven.share_token])
    response = client.get(url)  # anonymous
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'inline; filename="saints-of-rust-roster.pdf"'
    assert response["X-Robots-Tag"] == "noindex"
    assert "Vox the Hollow" in pdf_text(content(response))

    seven.share_token = None
    seven.save(update_fields=["share_token"])
    assert client.get(url).status_code == 404


def test_unknown_share_token_is_404(client, seven):
    assert client.get(reverse("crew-roster-shared", args=["nope"])).status_code == 404
    assert client.get(reverse("crew-roster-shared", args=["x" * 65])).status_code == 404


# --- quick reference -------------------------------------------------------------------


def test_quick_reference_is_public(client, catalogue):
    response = client.get(reverse("quick-reference-pdf", args=["cybernekro"]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'inline; filename="cybernekr0-1-1-3-quick-reference.pdf"'
    text = pdf_text(content(response))
    assert "Tough it Out" in text
    assert "Target is OoA and cannot Tough it Out." in text
    assert "The model's head explodes and it dies." in text


def test_quick_reference_letter(client, catalogue):
    data = content(client.get(reverse("quick-reference-pdf", args=["cybernekro"]), {"paper": "LETTER"}))
    assert all(size == pytest.approx(LETTER, abs=1) for size in page_sizes(data))


def test_quick_reference_of_unknown_system_is_404(client, catalogue):
    assert client.get(reverse("quick-reference-pdf", args=["chess"])).status_code == 404


# --- manage.py crew pdf ------------------------------------------------------------------


def crew_file(tmp_path, crew):
    path = tmp_path / "crew.json"
    path.write_text(json.dumps(crew), encoding="utf-8")
    return path


FILE_CREW = {
    "format": "crewbuilder.crew/1",
    "system": "cybernekro",
    "name": "Saints of Rust",
    "characters": [
        {"name": n, "attributes": dict(ATTRIBUTES), "traits": [], "body_mods": [], "gear": ["sword"]}
        for n in ["Vox the Hollow", "Sister Cathode", "Gutter Kell"]
    ],
}


def test_cli_renders_a_crew_file_without_the_database(tmp_path):
    # No `db` fixture: any query would fail the test.
    out = tmp_path / "out.pdf"
    call_command("crew", "pdf", str(crew_file(tmp_path, FILE_CREW)), "-o", str(out), "--paper", "letter")
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    assert all(size == pytest.approx(LETTER, abs=1) for size in page_sizes(data))
    text = pdf_text(data)
    for name in ["Saints of Rust", "Vox the Hollow", "Sister Cathode", "Gutter Kell", "Sword", "Valid"]:
        assert name in text
    assert "Automatically pass reaction tests when missed in melee." in text  # Parry


def test_cli_prints_an_invalid_crew_and_refuses_an_unreadable_file(tmp_path, capsys):
    out = tmp_path / "out.pdf"
    crew = dict(FILE_CREW, characters=FILE_CREW["characters"][:1])
    call_command("crew", "pdf", str(crew_file(tmp_path, crew)), "-o", str(out))
    assert "not valid" in pdf_text(out.read_bytes()).lower()

    bad = tmp_path / "bad.json"
    bad.write_text("{nope", encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        call_command("crew", "pdf", str(bad), "-o", str(tmp_path / "never.pdf"))
    assert exit_.value.code == 2
    assert not (tmp_path / "never.pdf").exists()
    assert "bad-format" in capsys.readouterr().err


def test_catalogue_from_the_database_matches_the_data_file(catalogue):
    from crewbuilder import pdf

    from_db, from_file = pdf.Catalogue.from_db(catalogue), pdf.Catalogue.from_file("cybernekro")
    assert from_db.title == from_file.title == "Cybernekr0 1.1.3"
    for section in ["traits", "body_mods", "equipment", "armor", "weapons", "keywords", "sorceries"]:
        assert [(e["slug"], e["text"]) for e in from_db.entries(section)] == [
            (e["slug"], e["text"]) for e in from_file.entries(section)
        ]
    assert from_db.table("damage_table") and from_db.table("neural_overload")
    assert [r["text"] for r in from_db.table("damage_table")] == [r["text"] for r in from_file.table("damage_table")]
    assert from_db.rules.get("ap") == 3
