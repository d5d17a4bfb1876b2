"""Names of 100 characters without a space (the most a name may have) stay inside their boxes.

The campaign summary PDF: every piece of text is laid out inside the content box of the block,
table cell or margin box that holds it, so no name runs over the next cell, the card border or the
page edge. The campaign pages on a phone: the templates use the classes whose campaigns.css rules
let such a name wrap (the pages themselves are measured in a browser by hand; see the report of
the change).
"""

import re
from pathlib import Path

import pytest
from django.urls import reverse
from weasyprint.formatting_structure import boxes

import core.pdf
from campaigns import services

from .conftest import LEGAL

LONG = 100
CSS_DIR = Path(__file__).resolve().parents[2] / "core" / "static" / "css"


def _long(letter):
    return letter * LONG


@pytest.fixture
def long_campaign(user, other_user, catalogue, make_crew, today):
    """Everything a player names is 100 characters without a space (W and M: the widest letters)."""
    campaign = services.create_campaign(
        user, name=_long("W"), system=catalogue, treasure_value=5, house_rules=_long("R") + " no spaces here"
    )
    services.invite(campaign, user, other_user.username)
    services.respond(campaign, other_user, accept=True)
    entries = []
    for owner, crew_letter, letters in ((user, "X", "ABC"), (other_user, "Y", "DEF")):
        specs = [{"name": _long(c), "attributes": dict(LEGAL), "gear": ["sword", "light-armor"]} for c in letters]
        entries.append(services.enrol(campaign, owner, make_crew(owner, name=_long(crew_letter), characters=specs)))
    mine, theirs = entries
    dead = theirs.crew.characters.order_by("position").first()
    game = services.record_game(
        campaign,
        user,
        played_on=today,
        scenario=_long("M"),
        complication=_long("Q"),
        participants=[
            {"crew": mine, "treasure": 3},
            {"crew": theirs, "casualties": [{"character": dead.pk, "name": dead.name, "outcome": "dead"}]},
        ],
        winner=theirs,
    )
    services.confirm_game(game, user, for_everyone=True)
    services.record_game(
        campaign,
        user,
        played_on=today,
        scenario="Prisoner",
        participants=[{"crew": mine}, {"crew": theirs}],
        winner=mine,
    )
    return campaign


def _summary_html(client, monkeypatch, campaign, paper):
    """The HTML the campaign summary view prints (taken on its way to WeasyPrint)."""
    printed = []
    real = core.pdf.html_to_pdf

    def capture(html, paper="A4", *args, **kwargs):
        printed.append(html)
        return real(html, paper, *args, **kwargs)

    monkeypatch.setattr(core.pdf, "html_to_pdf", capture)
    response = client.get(reverse("campaign-summary-pdf", args=[campaign.pk]), {"paper": paper})
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    (html,) = printed
    return html


def _text_outside_its_box(document, slack=0.5):
    """(page, text, how far it sticks out) for each text box not inside its container's content box."""
    found = []

    def walk(box, container, page_number):
        if isinstance(box, boxes.BlockContainerBox):
            container = box
        if isinstance(box, boxes.TextBox) and box.text.strip() and container is not None:
            left = container.content_box_x()
            right = left + container.width
            over = max(left - box.position_x, box.position_x + box.width - right)
            if over > slack:
                found.append((page_number, box.text[:30], round(over, 1)))
        for child in getattr(box, "children", ()):
            walk(child, container, page_number)

    for number, page in enumerate(document.pages, 1):
        walk(page._page_box, None, number)
    return found


@pytest.mark.parametrize("paper", ["A4", "LETTER"])
def test_long_names_stay_inside_their_cells_in_the_campaign_summary(client, monkeypatch, user, long_campaign, paper):
    client.force_login(user)
    html = _summary_html(client, monkeypatch, long_campaign, paper)
    for name in (_long("W"), _long("X"), _long("Y"), _long("A"), _long("D"), _long("M"), _long("Q")):
        assert name in html
    document = core.pdf.layout_document(html, paper)
    assert _text_outside_its_box(document) == []
    # Still a summary, not one character a line: the crew table's crew name column keeps its width.
    assert len(document.pages) <= 3


def test_ordinary_names_lay_out_as_before(client, monkeypatch, campaign, user, two_crews, today):
    mine, theirs = two_crews
    services.record_game(
        campaign, user, played_on=today, scenario="Prisoner", participants=[{"crew": mine}, {"crew": theirs}]
    )
    client.force_login(user)
    html = _summary_html(client, monkeypatch, campaign, "A4")
    document = core.pdf.layout_document(html, "A4")
    assert _text_outside_its_box(document) == []
    assert len(document.pages) == 1


def _rule_wraps(css, selector):
    """Whether campaigns.css gives ``selector`` overflow-wrap: anywhere (a rule naming it among its selectors)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        if selector in [s.strip() for s in selectors.split(",")] and re.search(r"overflow-wrap:\s*anywhere", body):
            return True
    return False


def test_campaign_pages_with_long_names_use_the_wrapping_rules(client, user, long_campaign):
    """Record a game and the shop link campaigns.css, and it wraps the names they show in flex rows, legends,
    grid cells, table headers and buttons (none of which a long word would otherwise shrink)."""
    css = (CSS_DIR / "campaigns.css").read_text()
    for selector in (
        ".campaign-form .radio",
        ".campaign-form legend",
        ".campaign-form tbody th",
        ".campaign-form label",
        ".campaign-form .button",
    ):
        assert _rule_wraps(css, selector), selector
    assert re.search(r"\.campaign-form \.character-edit > \*[^{]*\{[^}]*min-width:\s*0", css)
    client.force_login(user)
    for url in (
        reverse("game-create", args=[long_campaign.pk]),
        reverse("campaign-shop", args=[long_campaign.pk]),
    ):
        html = client.get(url).content.decode()
        assert "css/campaigns.css" in html, url
        assert 'class="campaign-form' in html, url
        assert _long("A") in html, url


def test_the_summary_tables_size_their_columns_for_what_they_hold(
    client, monkeypatch, campaign, user, two_crews, today
):
    """Names get the room, counts and attributes little: each table's first column is wider than a count's."""
    mine, theirs = two_crews
    services.record_game(
        campaign, user, played_on=today, scenario="Prisoner", participants=[{"crew": mine}, {"crew": theirs}]
    )
    client.force_login(user)
    document = core.pdf.layout_document(_summary_html(client, monkeypatch, campaign, "A4"), "A4")
    widths = []

    def walk(box):
        if isinstance(box, boxes.TableBox):
            row = next(r for group in box.children for r in group.children if isinstance(r, boxes.TableRowBox))
            if len(row.children) > 2:  # a table of the summary's, not a card's head (display: table)
                widths.append([cell.border_width() for cell in row.children])
        for child in getattr(box, "children", []):
            walk(child)

    walk(document.pages[0]._page_box)
    standings, games, *rosters = widths
    assert standings[0] > 2.5 * standings[2] and standings[1] > 1.5 * standings[2]  # crew, player vs games
    assert games[1] > 1.8 * games[0]  # the scenario vs the date
    for roster in rosters:
        assert roster[0] > 3 * roster[1] and roster[7] > 5 * roster[1]  # character and gear vs STR
