"""A QA pass on a 390 px phone: where the conflict notice is drawn, crews named alike told apart, "just now",
figures kept with their units, and the crew page's roster as cards on a phone (the browser side is in
tests/e2e/test_crew_builder_phone.py)."""

import re
from datetime import timedelta

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from crewbuilder import crew_service
from crewbuilder.models import Crew
from crewbuilder.templatetags.crew_text import keep_figures


def _post_edit(client, crew, action, **data):
    crew.refresh_from_db()
    data.setdefault("version", crew.version)
    return client.post(reverse("crew-edit-action", args=[crew.pk, action]), data, HTTP_HX_REQUEST="true")


def _summary_bar(html: str) -> str:
    start = html.index('<div class="summary-bar">')
    return html[start : html.index('<header class="editor-head">', start)]


# --- 1. a change refused because the crew changed elsewhere ---------------------------------------------------


def test_the_conflict_notice_is_drawn_in_the_pinned_summary_bar(client, user, geared_crew):
    """Where a refused edit (422) says why: in view wherever the player tapped, not at the top of a long page."""
    crew = geared_crew(user, 3)
    client.force_login(user)
    html = client.get(reverse("crew-edit", args=[crew.pk])).content.decode()
    assert html.count('id="conflict"') == 1
    assert 'id="conflict"' in _summary_bar(html)
    # and the htmx answer of a stale edit still goes into that slot
    stale = crew.version
    _post_edit(client, crew, "crew", name="First tab", budget=150)
    response = client.post(
        reverse("crew-edit-action", args=[crew.pk, "add-gear"]),
        {"version": stale, "character": crew.characters.first().pk, "slug": "pistol"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 409
    assert response["HX-Retarget"] == "#conflict" and response["HX-Reswap"] == "innerHTML"
    assert "Reload the crew" in response.content.decode()


def test_the_conflict_slot_is_in_the_bar_of_a_refused_edit_too(client, user, geared_crew):
    crew = geared_crew(user, 3)
    client.force_login(user)
    response = _post_edit(client, crew, "add-gear", character=crew.characters.first().pk, slug="bfg-9000")
    assert response.status_code == 422
    bar = _summary_bar(response.content.decode())
    assert 'id="edit-error"' in bar and 'id="conflict"' in bar


def test_without_javascript_a_stale_form_still_gets_the_conflict_page(client, user, geared_crew):
    crew = geared_crew(user, 3)
    client.force_login(user)
    response = client.post(
        reverse("crew-edit-action", args=[crew.pk, "crew"]), {"version": crew.version + 5, "name": "X"}
    )
    assert response.status_code == 409
    assert "This crew changed elsewhere" in response.content.decode()
    assert "Reload the crew" in response.content.decode()


# --- 3. crews named alike -------------------------------------------------------------------------------------


def _rows(html: str) -> list[str]:
    body = html[html.index("<tbody>") : html.index("</tbody>")]
    return re.findall(r"<tr>.*?</tr>", body, re.S)


def test_my_crews_tells_crews_named_alike_apart(client, user, geared_crew):
    first = geared_crew(user, 3, name="Saints of Rust")
    second = geared_crew(user, 2, name="saints of rust ")  # alike: case and spaces aside
    other = geared_crew(user, 3, name="Ash Choir")
    client.force_login(user)
    rows = _rows(client.get(reverse("crew-list")).content.decode())
    assert len(rows) == 3 and len(set(rows)) == 3
    by_crew = {
        crew.pk: next(r for r in rows if reverse("crew-edit", args=[crew.pk]) in r) for crew in (first, second, other)
    }
    assert f">#{first.pk}<" in by_crew[first.pk] and f">#{second.pk}<" in by_crew[second.pk]
    assert "crew-number" not in by_crew[other.pk]  # a name shown once needs no number
    # the points and when each changed, to the minute
    for crew in (first, second):
        crew = Crew.objects.get(pk=crew.pk)
        changed = timezone.localtime(crew.updated_at)
        assert f"{crew.summary_points} / {crew.budget}" in by_crew[crew.pk]
        assert f"{changed.day} {changed:%b}, {changed:%H:%M} UTC" in by_crew[crew.pk]


def test_my_crews_says_just_now_below_a_minute(client, user, geared_crew):
    fresh = geared_crew(user, 3, name="Fresh")
    older = geared_crew(user, 3, name="Older")
    Crew.objects.filter(pk=older.pk).update(updated_at=timezone.now() - timedelta(minutes=5, seconds=10))
    client.force_login(user)
    html = client.get(reverse("crew-list")).content.decode()
    assert "0 minutes" not in html
    rows = {r.split("</a>")[0].rsplit(">", 1)[1]: r for r in _rows(html)}
    assert ">just now</time>" in rows["Fresh"]
    assert ">5\xa0minutes ago</time>" in rows["Older"]


def test_an_older_change_shows_its_year(client, user, geared_crew):
    crew = geared_crew(user, 3, name="Old")
    Crew.objects.filter(pk=crew.pk).update(updated_at=timezone.now() - timedelta(days=800))
    client.force_login(user)
    changed = timezone.localtime(Crew.objects.get(pk=crew.pk).updated_at)
    assert f"{changed.day} {changed:%b %Y}, {changed:%H:%M} UTC" in client.get(reverse("crew-list")).content.decode()


def _options(html: str, select_id: str) -> list[str]:
    start = html.index(f'id="{select_id}"')
    return re.findall(r"<option [^>]*>([^<]*)</option>", html[start : html.index("</select>", start)])


def test_dice_lists_add_the_crew_number_only_when_two_crews_share_a_name(client, user, other_user, geared_crew):
    first = geared_crew(user, 2, name="Saints of Rust")
    second = geared_crew(user, 2, name="Saints of Rust")
    geared_crew(user, 2, name="Ash Choir")
    theirs = geared_crew(other_user, 2, name="Saints of Rust")  # shared: its label says so already
    theirs.share_token = "s" * 32
    theirs.save()
    client.force_login(user)
    client.get(reverse("crew-shared", args=[theirs.share_token]))
    html = client.get(reverse("dice-home")).content.decode()
    attackers = _options(html, "attacker")
    assert f"Ghoul 1 (Saints of Rust #{first.pk})" in attackers
    assert f"Ghoul 1 (Saints of Rust #{second.pk})" in attackers
    assert "Ghoul 1 (Ash Choir)" in attackers
    targets = _options(html, "target")
    assert len(targets) == len(set(targets))
    assert "Ghoul 1 (Saints of Rust, shared)" in targets
    # the morale test's list of one's own characters too
    morale = client.get(reverse("dice-quick", args=["morale"])).content.decode()
    assert f"Ghoul 2 (Saints of Rust #{second.pk})" in _options(morale, "character")


def test_two_shared_crews_named_alike_are_told_apart(client, user, other_user, make_user, geared_crew):
    third = make_user("ish")
    shared = []
    for owner, token in ((other_user, "a" * 32), (third, "b" * 32)):
        crew = geared_crew(owner, 2, name="Saints of Rust")
        crew.share_token = token
        crew.save()
        shared.append(crew)
        client.force_login(user)
        client.get(reverse("crew-shared", args=[token]))
    targets = _options(client.get(reverse("dice-home")).content.decode(), "target")
    for crew in shared:
        assert f"Ghoul 1 (Saints of Rust #{crew.pk}, shared)" in targets


def _queries(client, url) -> int:
    client.get(url)  # warm: stale summaries are computed once, the catalogue snapshot cached
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_telling_crews_apart_costs_no_query(client, make_user, geared_crew):
    """The lists' query budgets hold: crews named alike cost the same queries as crews named apart."""
    apart, alike = make_user("apart"), make_user("alike")
    for i in range(4):
        geared_crew(apart, 2, name=f"Crew {i}")
        geared_crew(alike, 2, name="Crew")
    for url in (reverse("crew-list"), reverse("dice-home"), reverse("dice-quick", args=["morale"])):
        client.force_login(apart)
        expected = _queries(client, url)
        client.force_login(alike)
        assert _queries(client, url) == expected, url


def test_a_page_of_crews_named_alike_numbers_each_row(client, user, geared_crew):
    for _ in range(crew_service.LIST_PAGE_SIZE + 1):
        geared_crew(user, 1, name="Clone")
    client.force_login(user)
    rows = _rows(client.get(reverse("crew-list")).content.decode())
    assert len(rows) == crew_service.LIST_PAGE_SIZE and all("crew-number" in r for r in rows)


# --- 5. a figure kept with its unit ---------------------------------------------------------------------------


def test_the_folded_line_keeps_each_figure_with_its_unit(client, user, geared_crew):
    crew = geared_crew(user, 3)
    client.force_login(user)
    html = client.get(reverse("crew-edit", args=[crew.pk])).content.decode()
    line = html[html.index('id="character-line-') : html.index("</span></span>", html.index('id="character-line-'))]
    assert '<span class="nowrap">Move 6&quot;</span>' in line
    assert '<span class="nowrap">Armor ' in line and '<span class="nowrap">AP ' in line
    assert " · " not in line  # a separating dot never starts a line: it keeps to what it follows


def test_the_folded_line_is_still_escaped():
    assert keep_figures('<b>Move</b> 6" · x') == "&lt;b&gt;Move&lt;/b&gt; 6&quot;\xa0· x"
    assert keep_figures('sword ×2 · Move 6"') == 'sword\xa0×2\xa0· <span class="nowrap">Move 6&quot;</span>'


def test_the_open_card_keeps_each_figure_with_its_unit(client, user, geared_crew):
    crew = geared_crew(user, 3)
    client.force_login(user)
    first = crew.characters.first()
    html = client.get(reverse("crew-edit", args=[crew.pk]), {"open": first.pk}).content.decode()
    derived = html[html.index('<p class="derived">') : html.index("</p>", html.index('<p class="derived">'))]
    assert derived.count('<span class="nowrap">') == 4
    assert re.search(r'<span class="nowrap">Move <strong>\d+"</strong></span>', derived)


# --- 6. the crew page's roster on a phone ---------------------------------------------------------------------


def test_the_roster_is_drawn_to_fit_a_phone(client, user, geared_crew):
    """Two lines per character on a phone (app.css .roster-grid), under the table's head: the same cells."""
    crew = geared_crew(user, 3)
    client.force_login(user)
    html = client.get(reverse("crew-detail", args=[crew.pk])).content.decode()
    table = html[html.index('<table class="roster') : html.index("</table>", html.index('<table class="roster'))]
    assert 'class="roster roster-grid"' in table
    heads = re.findall(r'<th scope="col"[^>]*>([^<]+)</th>', table)
    assert heads == ["Character", "Str", "Tou", "Agi", "Int", "Dis", "Armor", "Move", "AP", "Carry", "Pts"]
    first_row = table[table.index("<tbody>") : table.index("</tr>", table.index("<tbody>"))]
    assert len(re.findall(r'<td class="num">', first_row)) == 10
