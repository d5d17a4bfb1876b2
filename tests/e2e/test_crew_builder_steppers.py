"""A stepper click in a real browser: the answer is the character's attributes and what they change, and the
rest of the open card (an open list, the focus on the button pressed) stays as the player left it."""

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE, assert_fits_a_phone, log_in, wait_for_htmx

PASSWORD = "neon-bones-1138"
LEGAL = {"strength": 2, "toughness": 1, "agility": 1, "intellect": -1, "discipline": -2}


@pytest.fixture
def crew(transactional_db, django_user_model):
    from crewbuilder.models import Character, CharacterGear, Crew, GameSystem, Item

    call_command("loadcatalogue", verbosity=0)
    user = django_user_model.objects.create_user(username="stepper", password=PASSWORD)
    system = GameSystem.objects.get(slug="cybernekro")
    crew = Crew.objects.create(owner=user, system=system, name="Steppers")
    for position, name in enumerate(["Rake", "Vox", "Mara"]):
        character = Character.objects.create(crew=crew, name=name, position=position, **LEGAL)
        CharacterGear.objects.create(character=character, item=Item.objects.get(system=system, slug="sword"))
    return crew


def test_stepping_by_keyboard_keeps_the_card_and_the_focus(browser, server_url, crew):
    page = log_in(browser, server_url, "stepper", PASSWORD, viewport=PHONE)
    rake = crew.characters.get(name="Rake")
    page.goto(f"{server_url}/crews/{crew.pk}/edit/?open={rake.pk}")
    card = page.locator(f"#character-{rake.pk}")
    gear = card.get_by_label("Gear of Rake")
    gear.locator("summary").first.click()  # an open list in the card, which a stepper click must leave open
    expect(gear.locator("details").first).to_have_attribute("open", "")
    points_before = page.locator(f"#character-points-{rake.pk}").inner_text()

    raise_agility = page.get_by_role("button", name="Raise Agility of Rake")
    raise_agility.focus()
    page.keyboard.press("Enter")
    wait_for_htmx(page)
    expect(page.locator(f"#base-agility-{rake.pk}")).to_have_text("+2")
    expect(raise_agility).to_be_focused()
    page.keyboard.press("Enter")  # again, without moving: the focus stayed on the button
    wait_for_htmx(page)
    expect(page.locator(f"#base-agility-{rake.pk}")).to_have_text("+3")
    # Two too many: the character's own findings, its line and the crew's summary say so, out of band.
    expect(card.locator(f"#findings-{rake.pk}")).to_contain_text("Error")
    expect(page.locator(f"#character-line-{rake.pk}")).to_contain_text("error")
    expect(page.locator("#crew-error-count")).not_to_have_text("no errors")
    expect(page.locator(f"#character-points-{rake.pk}")).to_have_text(points_before)  # attributes cost nothing
    expect(card.locator("details.character-fold")).to_have_attribute("open", "")
    expect(gear.locator("details").first).to_have_attribute("open", "")

    page.get_by_role("button", name="Lower Agility of Rake").click()
    wait_for_htmx(page)
    page.get_by_role("button", name="Lower Agility of Rake").click()
    wait_for_htmx(page)
    expect(page.locator(f"#base-agility-{rake.pk}")).to_have_text("+1")
    expect(page.locator("#crew-error-count")).to_have_text("no errors")
    assert page.locator(f"#character-{rake.pk}").count() == 1 and page.locator(f"#attributes-{rake.pk}").count() == 1
    assert_fits_a_phone(page)
    crew.refresh_from_db()
    assert crew.characters.get(pk=rake.pk).agility == 1
    assert page.locator("#crew-version").input_value() == str(crew.version)
