"""The crew builder on a 390 px phone, from a QA pass: a conflict seen where the player tapped, buttons and figures
that never break inside a word, crews named alike told apart, and the crew page's roster in view."""

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from tests.e2e.conftest import PHONE, log_in, wait_for_htmx

LEGAL = {"strength": 2, "toughness": 1, "agility": 1, "intellect": -1, "discipline": -2}
PASSWORD = "neon-bones-1138"
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture
def catalogue(transactional_db):
    call_command("loadcatalogue", verbosity=0)


@pytest.fixture
def saints(catalogue, django_user_model):
    """Two crews of four named alike (an imported file twice) and another: the editor is long on a phone."""
    from crewbuilder.models import Character, CharacterGear, Crew, GameSystem, Item

    user = django_user_model.objects.create_user(username="saint", password=PASSWORD)
    system = GameSystem.objects.get(slug="cybernekro")
    crews = []
    for crew_name in ("Saints of Rust", "Saints of Rust", "Ash Choir"):
        crew = Crew.objects.create(owner=user, system=system, name=crew_name)
        for position, name in enumerate(["Vox the Hollow", "Rattle", "Gilt", "Scrap"]):
            character = Character.objects.create(crew=crew, name=name, position=position, **LEGAL)
            for slot, slug in enumerate(["sword", "light-armor", "pistol"]):
                CharacterGear.objects.create(
                    character=character, item=Item.objects.get(system=system, slug=slug), position=slot
                )
        crews.append(crew)
    return crews


def _card(page: Page, name: str):
    return page.locator("li.character", has=page.get_by_role("heading", name=name, exact=True))


def _open(page: Page, name: str):
    card = _card(page, name)
    card.locator("summary.character-summary").click()
    wait_for_htmx(page)
    expect(card.locator("details.character-fold")).to_have_attribute("open", "")
    return card


# Every word of every visible button's label on one line: "Close" never shows as "Clos" / "e".
WORDS_BROKEN = """() => {
  const broken = [];
  document.querySelectorAll('button, .button, input[type="submit"]').forEach((button) => {
    if (!button.getClientRects().length) return;
    const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
    let node;
    while ((node = walker.nextNode())) {
      for (const word of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const tops = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(button.textContent.trim());
      }
    }
  });
  return broken;
}"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_conflict_from_a_long_gear_list_is_seen_where_the_player_tapped(browser, server_url, saints, viewport):
    crew = saints[0]
    phone = log_in(browser, server_url, "saint", PASSWORD, viewport=viewport)
    phone.goto(f"{server_url}/crews/{crew.pk}/edit/")
    other_tab = phone.context.new_page()
    other_tab.goto(f"{server_url}/crews/{crew.pk}/edit/")

    scrap = _open(phone, "Scrap")
    scrap.get_by_role("link", name="Add gear").click()
    wait_for_htmx(phone)
    # the other tab saves a change meanwhile
    other_tab.get_by_text("Crew name, budget and notes").click()
    other_tab.get_by_label("Notes").fill("Changed in the other tab")
    other_tab.get_by_role("button", name="Save crew details").click()
    wait_for_htmx(other_tab)

    last = scrap.locator("[data-picker-add]").last
    last.scroll_into_view_if_needed()
    scrolled = phone.evaluate("window.scrollY")
    assert scrolled > 600  # far below the top of the page
    last.click()
    wait_for_htmx(phone)
    notice = phone.locator("#conflict .conflict")
    expect(notice).to_contain_text("This crew changed elsewhere")
    expect(notice).to_be_in_viewport(ratio=1)
    # it stays there: nothing scrolls the player away (no focus given back to the picker's opener further down;
    # on a wide screen the pinned bar grows by the notice, and the browser keeps the list under the finger)
    phone.wait_for_timeout(300)
    expect(notice).to_be_in_viewport(ratio=1)
    assert abs(phone.evaluate("window.scrollY") - scrolled) < 200
    reload = notice.get_by_role("link", name="Reload the crew")
    expect(reload).to_be_focused()
    assert crew.characters.get(name="Scrap").gear.count() == 3  # nothing saved
    reload.click()
    expect(phone.get_by_role("heading", name="Scrap", exact=True)).to_be_visible()
    expect(phone.locator("#conflict .conflict")).to_have_count(0)


def test_buttons_never_break_inside_a_word_on_a_phone(browser, server_url, saints):
    page = log_in(browser, server_url, "saint", PASSWORD, viewport=PHONE)
    page.goto(f"{server_url}/crews/{saints[0].pk}/edit/")
    vox = _open(page, "Vox the Hollow")
    vox.get_by_role("link", name="Add body-mod").click()
    wait_for_htmx(page)
    close = vox.get_by_role("button", name="Close the list")
    expect(close).to_have_text("Close")
    assert page.evaluate(WORDS_BROKEN) == []
    for path in ("/crews/", f"/crews/{saints[0].pk}/"):
        page.goto(server_url + path)
        assert page.evaluate(WORDS_BROKEN) == [], path


def test_the_folded_line_keeps_move_with_its_inches(browser, server_url, saints):
    page = log_in(browser, server_url, "saint", PASSWORD, viewport=PHONE)
    page.goto(f"{server_url}/crews/{saints[0].pk}/edit/")
    figures = page.locator(".character-line .nowrap")
    expect(figures.filter(has_text='Move 6"')).to_have_count(4)
    # at every width a phone may give the card, each figure is on one line
    for width in range(220, 391, 6):
        page.evaluate(f"document.querySelectorAll('li.character').forEach(c => c.style.width = '{width}px')")
        lines = page.evaluate(
            "() => Array.from(document.querySelectorAll('.character-line .nowrap'), (s) => s.getClientRects().length)"
        )
        assert set(lines) == {1}, (width, lines)


def test_my_crews_and_the_dice_lists_tell_crews_named_alike_apart(browser, server_url, saints):
    page = log_in(browser, server_url, "saint", PASSWORD, viewport=PHONE)
    page.goto(server_url + "/crews/")
    rows = page.locator(".crew-table tbody tr")
    expect(rows).to_have_count(3)
    texts = rows.all_inner_texts()
    assert len(set(texts)) == 3
    for crew in saints[:2]:
        expect(page.locator(".crew-table tbody tr", has_text=f"#{crew.pk}")).to_have_count(1)
    expect(page.get_by_text("just now").first).to_be_visible()
    expect(page.get_by_text(re.compile(r"\b0 minutes"))).to_have_count(0)
    # on a phone each number says what it is (the table's head is hidden)
    expect(rows.first.get_by_role("cell", name=re.compile(r"^Points \d+ \/ 150$"))).to_be_visible()
    expect(rows.first.get_by_role("cell", name=re.compile(r"^Changed just now ·"))).to_be_visible()

    page.goto(server_url + "/dice/")
    attackers = page.locator("#attacker option").all_inner_texts()
    assert len(attackers) == len(set(attackers))
    assert f"Vox the Hollow (Saints of Rust #{saints[1].pk})" in attackers
    assert "Vox the Hollow (Ash Choir)" in attackers


def test_the_crew_pages_roster_fits_a_phone(browser, server_url, saints):
    page = log_in(browser, server_url, "saint", PASSWORD, viewport=PHONE)
    page.goto(f"{server_url}/crews/{saints[0].pk}/")
    roster = page.locator("table.roster")
    roster.scroll_into_view_if_needed()
    for label in ("Move", "AP", "Carry", "Pts"):
        expect(roster.get_by_role("columnheader", name=label, exact=True)).to_be_in_viewport(ratio=1)
    wrap = page.evaluate(
        "() => { const w = document.querySelector('table.roster').closest('.table-wrap');"
        " return [w.scrollWidth, w.clientWidth, w.getBoundingClientRect().right]; }"
    )
    assert wrap[0] <= wrap[1], "the roster scrolls sideways"
    # every number in view, under its column's label
    columns = page.evaluate(
        """() => {
          const table = document.querySelector('table.roster');
          const heads = Array.from(table.tHead.rows[0].cells).slice(1);
          return Array.from(table.tBodies[0].rows, (row) => Array.from(row.cells).slice(1).map((cell, i) => {
            const box = cell.getBoundingClientRect(), head = heads[i].getBoundingClientRect();
            return [heads[i].textContent, cell.textContent, box.right, Math.abs(box.right - head.right)];
          }));
        }"""
    )
    assert len(columns) == 4
    for row in columns:
        assert [head for head, *_ in row] == ["Str", "Tou", "Agi", "Int", "Dis", "Armor", "Move", "AP", "Carry", "Pts"]
        for head, value, right, off in row:
            assert right <= wrap[2] + 0.5 and off < 1, (head, value, right, off)
    expect(
        roster.get_by_role("row", name=re.compile(r'^Vox the Hollow \+2 \+1 \+1 -1 -2 1 6" 3 3\/7 \d+$'))
    ).to_be_visible()
