"""Issue 18 in a real browser: an Ambidextrous character's two swords everywhere, the dice assistant's
filled fields, and the US Letter choice."""

from io import BytesIO

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from tests.e2e.conftest import assert_fits_a_phone, wait_for_htmx

PASSWORD = "neon-bones-1138"
LEGAL = {"strength": 2, "toughness": 1, "agility": 1, "intellect": -1, "discipline": -2}


@pytest.fixture
def rake_crew(transactional_db, django_user_model):
    call_command("loadcatalogue", verbosity=0)
    from crewbuilder.models import Character, CharacterGear, CharacterTrait, Crew, GameSystem, Item, Trait

    user = django_user_model.objects.create_user("rake", password=PASSWORD)
    system = GameSystem.objects.get(slug="cybernekro")
    crew = Crew.objects.create(owner=user, system=system, name="The Rust Choir")
    for position, name in enumerate(["Sister Rake", "Brother Gaunt", "Mother Ash"]):
        character = Character.objects.create(crew=crew, name=name, position=position, **LEGAL)
        CharacterGear.objects.create(
            character=character,
            item=Item.objects.get(system=system, slug="sword"),
            copies=2 if name == "Sister Rake" else 1,
        )
        if name == "Sister Rake":
            CharacterTrait.objects.create(
                character=character, trait=Trait.objects.get(system=system, slug="ambidextrous")
            )
    return crew


def _log_in(page: Page, server_url: str):
    page.goto(server_url + "/accounts/login/")
    page.get_by_label("Username").fill("rake")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def _print(page: Page, server_url: str, button: str, paper_label: str | None = None) -> tuple[str, bytes]:
    """Choose the paper on the print button, click it: the URL the browser asked for, and that PDF."""
    form = page.locator("form.print-form", has=page.get_by_role("button", name=button))
    if paper_label:
        form.get_by_role("combobox").select_option(label=paper_label)
    with page.expect_request(lambda r: r.url.split("?")[0].endswith(".pdf")) as request_info:
        form.get_by_role("button", name=button).click()
    url = request_info.value.url
    return url, page.request.get(url).body()


def test_two_swords_on_the_crew_page_the_pdf_and_the_dice_assistant(page: Page, server_url: str, rake_crew):
    _log_in(page, server_url)
    page.goto(f"{server_url}/crews/{rake_crew.pk}/")
    rake = page.locator("section.character-sheet", has=page.get_by_role("heading", name="Sister Rake"))
    expect(rake.locator("table.weapons")).to_contain_text("sword ×2")
    gaunt = page.locator("section.character-sheet", has=page.get_by_role("heading", name="Brother Gaunt"))
    expect(gaunt.locator("table.weapons")).not_to_contain_text("×")
    assert_fits_a_phone(page)

    _url, data = _print(page, server_url, "Print roster (PDF)")
    text = "".join(p.extract_text() for p in PdfReader(BytesIO(data)).pages)
    assert text.count("Sword ×2") == 1  # Sister Rake's card only

    page.goto(f"{server_url}/dice/")
    expect(page.locator("#a_agility")).to_have_value("0")
    page.get_by_label("Who attacks").select_option(label="Sister Rake (The Rust Choir)")
    wait_for_htmx(page)
    # the fields show her numbers (not 0), and her own weapons, the swords with their quantity
    expect(page.locator("#a_agility")).to_have_value("1")
    expect(page.locator("#a_strength")).to_have_value("2")
    expect(page.locator("#weapon option:checked")).to_contain_text("sword ×2")
    expect(page.locator("#weapon optgroup")).to_have_count(1)
    assert "Ambidextrous" in page.locator('[data-picker="a_traits"] .picker-chosen').inner_text()

    # an override is marked, and the odds follow it
    hit = page.locator('#odds [data-key="hit"] strong').inner_text()
    page.locator("#a_agility").fill("5")
    page.locator("#a_agility").dispatch_event("change")
    wait_for_htmx(page)
    expect(page.locator(".stat-field.overridden")).to_contain_text("changed (own: +1)")
    assert page.locator('#odds [data-key="hit"] strong').inner_text() != hit

    # another weapon only on request, and then named as not carried
    page.get_by_label("Offer weapons Sister Rake does not carry").check()
    wait_for_htmx(page)
    page.locator("#weapon").select_option(value="pistol")
    wait_for_htmx(page)
    expect(page.locator(".not-carried")).to_contain_text("Sister Rake does not carry a pistol")
    expect(page.locator("#odds h2").first).to_contain_text("Pistol: shoot against")
    assert_fits_a_phone(page)


def test_the_trait_picker_keeps_open_while_ticking(page: Page, server_url: str, rake_crew):
    page.goto(f"{server_url}/dice/?weapon=axe")
    picker = page.locator('[data-picker="t_traits"]')
    picker.locator("summary").click()
    before = page.locator('#odds [data-key="out_of_action"] strong').inner_text()
    picker.get_by_label("Big", exact=True).check()
    wait_for_htmx(page)
    picker = page.locator('[data-picker="t_traits"]')
    expect(picker).to_have_attribute("open", "")
    expect(picker.locator(".picker-chosen")).to_have_text("Big")
    assert page.locator('#odds [data-key="out_of_action"] strong').inner_text() != before


def test_the_us_letter_choice_gives_a_letter_pdf(page: Page, server_url: str, rake_crew):
    _log_in(page, server_url)
    page.goto(f"{server_url}/crews/{rake_crew.pk}/")
    url, data = _print(page, server_url, "Print roster (PDF)", "US Letter")
    assert "paper=LETTER" in url
    box = PdfReader(BytesIO(data)).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)

    # the saved setting: chosen in Settings by a POST, then every print button starts on it
    page.goto(f"{server_url}/crews/{rake_crew.pk}/")
    page.get_by_role("link", name="rake", exact=True).click()
    page.get_by_label("US Letter").check()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("PDFs now print on US Letter")).to_be_visible()
    page.goto(f"{server_url}/crews/{rake_crew.pk}/")
    expect(page.locator("form.print-form select option:checked")).to_have_text("US Letter")
    _url, data = _print(page, server_url, "Print roster (PDF)")
    box = PdfReader(BytesIO(data)).pages[0].mediabox
    assert round(float(box.height)) == 792
    assert_fits_a_phone(page)
