import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

AXE = "weapon=axe&a_agility=1&a_strength=2&t_toughness=1&t_armor=1"


def _bars(html):
    return dict(re.findall(r'data-key="(\w+)".*?<strong>([\d.]+)%', html, re.S))


def test_attack_odds_page_matches_the_engine(client, catalogue):
    from rules import odds

    html = client.get(f"{reverse('dice-home')}?{AXE}").content.decode()
    bars = _bars(html)
    engine = odds(
        {
            "roll": "attack",
            "action": "fight",
            "attacker": {"agility": 1, "strength": 2},
            "weapon": "axe",
            "target": {"toughness": 1, "armor": 1},
        }
    )
    assert float(bars["out_of_action"]) == pytest.approx(100 * engine["target"]["out_of_action"], abs=0.05)
    assert float(bars["hit"]) == pytest.approx(100 * engine["to_hit"]["hit"], abs=0.05)


def test_htmx_change_returns_the_set_up_and_odds_fragment(client, catalogue):
    response = client.get(f"{reverse('dice-home')}?{AXE}&surrounded=1", HTTP_HX_REQUEST="true")
    body = response.content.decode()
    # the whole set-up is redrawn, so a picked character's numbers fill the fields (issue 18)
    assert body.lstrip().startswith('<div class="grid-2 dice-grid" id="dice-attack">') and '<section id="odds"' in body
    assert "<html" not in body
    assert "HX-Request" in response["Vary"]


def test_roll_redirects_to_a_seeded_link_that_replays(client, catalogue):
    first = client.get(f"{reverse('dice-attack-roll')}?{AXE}")
    assert first.status_code == 302 and "seed=" in first.url
    a = client.get(first.url).content.decode()
    b = client.get(first.url).content.decode()
    dice = lambda html: re.findall(r'class="die[^"]*"[^>]*>(\d+)<', html)  # noqa: E731
    assert dice(a) and dice(a) == dice(b)


def test_shared_roll_works_logged_out_and_reveals_no_crew(client, user, geared_crew):
    crew = geared_crew(user, 3)
    character = crew.characters.first()
    client.force_login(user)
    page = client.get(f"{reverse('dice-home')}?attacker=crew:{character.pk}&weapon=sword").content.decode()
    link = re.search(r'id="roll-button" href="([^"]+)"', page).group(1).replace("&amp;", "&")
    assert f"crew:{character.pk}" not in link and "attacker=typed" in link
    client.logout()
    rolled = client.get(link, follow=True)
    assert rolled.status_code == 200 and "roll-outcome" in rolled.content.decode()


def test_other_users_characters_are_not_offered(client, user, other_user, geared_crew):
    crew = geared_crew(other_user, 3, name="Secret Crew")
    client.force_login(user)
    html = client.get(reverse("dice-home")).content.decode()
    assert "Secret Crew" not in html
    # naming another user's character by id falls back to typed stats
    html = client.get(f"{reverse('dice-home')}?attacker=crew:{crew.characters.first().pk}").content.decode()
    assert "Secret Crew" not in html


def test_npc_targets_use_their_profile(client, catalogue):
    html = client.get(f"{reverse('dice-home')}?{AXE}&target=npc:rabid-machine").content.decode()
    assert "Rabid Machine" in html or "RABID MACHINE" in html.upper()
    # Monstrous: +4 to hit, cannot be knocked prone
    assert float(_bars(html)["prone"]) == 0


@pytest.mark.parametrize("kind", ["test", "damage", "neural-overload", "morale", "panic", "ghoul-dice"])
def test_quick_rolls_show_odds_and_a_seeded_roll(client, catalogue, kind):
    response = client.get(f"{reverse('dice-quick', args=[kind])}?seed=99")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Roll (seed 99)" in html
    steps = lambda page: page[page.index('<ol class="steps">') : page.index("</ol>", page.index('<ol class="steps">'))]  # noqa: E731
    again = client.get(f"{reverse('dice-quick', args=[kind])}?seed=99").content.decode()
    assert steps(again) == steps(html) and 'class="die' in steps(html)


def test_odds_api_endpoint(client):
    import json

    response = client.post(
        reverse("odds-api"), json.dumps({"roll": "test", "modifier": 0}), content_type="application/json"
    )
    assert response.json()["exact"] == {"critical": "1/20", "success": "9/20", "failure": "9/20", "fumble": "1/20"}
    bad = client.post(
        reverse("odds-api"), json.dumps({"roll": "test", "modifier": 0, "x": 1}), content_type="application/json"
    )
    assert bad.status_code == 400 and "unknown key" in bad.json()["error"]
    assert client.post(reverse("odds-api"), "{nope", content_type="application/json").status_code == 400


def test_odds_api_takes_the_attackers_gear_and_refuses_unknown_slugs(client, catalogue):
    import json

    request = {"roll": "attack", "action": "shoot", "weapon": "pistol", "target": {}}
    plain = client.post(reverse("odds-api"), json.dumps({**request, "attacker": {}}), content_type="application/json")
    lit = {**request, "attacker": {"discipline": 0, "gear": ["Spot light"]}}
    answer = client.post(reverse("odds-api"), json.dumps(lit), content_type="application/json")
    assert answer.status_code == 200 and answer.json() == plain.json()
    bad = {**request, "attacker": {"gear": ["torch"]}}
    refused = client.post(reverse("odds-api"), json.dumps(bad), content_type="application/json")
    assert refused.status_code == 400 and refused.json()["error"].startswith("attacker.gear: unknown gear")


def test_ghoul_battle_tool_follows_the_rules_examples(client):
    url = reverse("dice-quick", args=["ghoul-battle"])
    won = client.get(url + "?strength=5&vp=2&icv=1&played=3+2&challenge=2+1&response=3").content.decode()
    assert "won: 2 Victory Points" in won
    lost = client.get(url + "?strength=5&vp=2&icv=1&played=3+2&challenge=2+1").content.decode()
    assert "lost: 2 wounds" in lost


def test_crews_opened_by_share_link_become_targets_but_not_attackers(client, user, other_user, geared_crew):
    theirs = geared_crew(other_user, 3, name="Shared Crew")
    theirs.share_token = "t" * 32
    theirs.save()
    client.force_login(user)
    assert "Shared Crew" not in client.get(reverse("dice-home")).content.decode()
    client.get(reverse("crew-shared", args=[theirs.share_token]))
    html = client.get(reverse("dice-home")).content.decode()
    target_select = html[html.index('id="target"') : html.index("</select>", html.index('id="target"'))]
    attacker_select = html[html.index('id="attacker"') : html.index("</select>", html.index('id="attacker"'))]
    assert "Shared Crew, shared" in target_select and "Shared Crew" not in attacker_select
    # revoking the link hides the crew again
    theirs.share_token = None
    theirs.save()
    assert "Shared Crew" not in client.get(reverse("dice-home")).content.decode()


# --- one engine: every number on the pages is the reference engine's ----------------


def _exact_bars(html):
    return dict(re.findall(r'data-key="([\w+]+)".*?<span class="muted exact">([\d/]+)</span>', html, re.S))


@pytest.mark.parametrize(
    "kind, query, request_",
    [
        ("test", "modifier=3&jinxed=1", {"roll": "test", "modifier": 3, "jinxed": True}),
        (
            "damage",
            "dice=3&armor=2&wounds=1&keywords=Overkill,Piercing+1",
            {"roll": "damage", "dice": 3, "keywords": ["Overkill", "Piercing 1"], "armor": 2, "wounds": 1},
        ),
        ("panic", "nerve=6&tokens=2", {"roll": "panic", "nerve": 6, "tokens": 2}),
    ],
)
def test_quick_odds_are_the_odds_function_exactly(client, kind, query, request_):
    from rules import odds

    html = client.get(f"{reverse('dice-quick', args=[kind])}?{query}").content.decode()
    assert _exact_bars(html) == odds(request_)["exact"]


def test_attack_page_shows_the_exact_fractions_of_the_odds_request(client, catalogue):
    from rules import odds

    html = client.get(f"{reverse('dice-home')}?{AXE}&t_wounds=2&surrounded=1").content.decode()
    engine = odds(
        {
            "roll": "attack",
            "action": "fight",
            "attacker": {"agility": 1, "strength": 2},
            "weapon": "axe",
            "target": {"toughness": 1, "armor": 1, "wounds": 2},
            "situation": {"surrounded": True},
        }
    )["exact"]
    odds_section = html[html.index('id="odds"') :]
    bars = _exact_bars(odds_section)
    assert {k: bars[k] for k in engine["target"]} == engine["target"]
    assert {k: bars[k] for k in engine["to_hit"]} == engine["to_hit"]


def test_complications_change_the_odds_as_the_engine_says(client, catalogue):
    from rules import odds

    base = f"{reverse('dice-home')}?weapon=pistol&a_discipline=2"
    dark = _exact_bars(client.get(base + "&complication=darkness").content.decode())
    engine = odds(
        {
            "roll": "attack",
            "action": "shoot",
            "attacker": {"discipline": 2},
            "weapon": "pistol",
            "target": {},
            "situation": {"modifier": -3},
        }
    )["exact"]
    assert dark["hit"] == engine["to_hit"]["hit"]
    bad = client.get(base + "&complication=meteor-shower")
    assert bad.status_code == 422 and "Unknown complication" in bad.content.decode()


def test_bad_typed_stats_are_a_message_not_a_guess(client, catalogue):
    response = client.get(f"{reverse('dice-home')}?{AXE}&t_traits=bigg&a_agility=lots", HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 422 and body.lstrip().startswith('<div class="grid-2 dice-grid" id="dice-attack">')
    assert "unknown “bigg”" in body and "Agility: enter a whole number" in body
    assert 'data-key="hit"' not in body


@pytest.mark.parametrize(
    "kind, query, message",
    [
        ("neural-overload", "dread=9", "Dread: from 0 to 6"),
        ("damage", "dice=2&keywords=Bogus", "Keywords: unknown keyword"),
        ("morale", "dread=2&traits=fearless", "Traits: unknown trait"),
        ("ghoul-dice", "dice=4", "from 2 to 3"),
        ("test", "modifier=abc", "enter a whole number"),
        ("test", "modifier=1&seed=-5", "Seed: from 0"),
    ],
)
def test_bad_quick_input_is_a_422_with_a_message(client, kind, query, message):
    response = client.get(f"{reverse('dice-quick', args=[kind])}?{query}", HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 422 and message in body
    assert body.lstrip().startswith('<section id="quick"') and "Roll (seed" not in body


def test_roll_button_gets_a_fresh_32_bit_seed_and_the_link_replays(client):
    first = client.get(f"{reverse('dice-quick', args=['damage'])}?dice=4&keywords=Overkill&roll=1")
    assert first.status_code == 302
    seed = int(re.search(r"seed=(\d+)", first.url).group(1))
    assert 0 <= seed < 2**32 and "roll=" not in first.url
    a, b = client.get(first.url).content.decode(), client.get(first.url).content.decode()
    dice = lambda html: re.findall(r'class="die[^"]*"[^>]*>(\d+)<', html)  # noqa: E731
    assert dice(a) and dice(a) == dice(b)
    big = client.get(f"{reverse('dice-quick', args=['test'])}?seed={2**32 - 1}")
    assert big.status_code == 200 and f"Roll (seed {2**32 - 1})" in big.content.decode()


def test_quick_roll_shows_the_rolls_module_log(client):
    import random

    from rules import rolls
    from rules.cybernekro import engine as cn

    html = client.get(
        f"{reverse('dice-quick', args=['damage'])}?dice=4&armor=1&keywords=Energy&seed=1234"
    ).content.decode()
    expected = rolls.damage(random.Random(1234), 4, cn.Keywords.parse(["Energy"]), 1, seed=1234)
    shown = [int(d) for d in re.findall(r'class="die[^"]*"[^>]*>(\d+)<', html)]
    assert shown == [d for step in expected.steps for d in step.dice]
    assert expected.summary in html
    kept = re.findall(r'class="die die-kept"[^>]*>(\d+)<', html)
    assert sorted(map(int, kept)) == sorted(expected.steps[0].kept)


def test_attack_roll_is_the_rolls_module_on_the_engines_plan(client, catalogue):
    import random

    from rules import rolls
    from rules.cybernekro import engine as cn
    from rules.odds import file_weapons

    html = client.get(f"{reverse('dice-attack-roll')}?{AXE}&seed=77").content.decode()
    axe = file_weapons("axe")
    expected = rolls.attack(
        random.Random(77),
        "fight",
        cn.Attacker(agility=1, strength=2),
        cn.Weapon(axe["damage"], None, cn.Keywords.parse(axe["keywords"]), "axe"),
        cn.Target(toughness=1, armor=1),
        seed=77,
    )
    assert re.search(r'id="roll-outcome">([^<]+)<', html).group(1) == expected.summary
    shown = [int(d) for d in re.findall(r'class="die[^"]*"[^>]*>(\d+)<', html)]
    assert shown == [d for step in expected.steps for d in step.dice]


# --- the Morale Phase with a character from the player's crews ----------------------


def test_morale_uses_a_picked_characters_discipline_and_traits(client, user, make_crew):
    from rules import odds

    crew = make_crew(
        user, characters=[{"name": "Jinx", "attributes": {"discipline": 1, "strength": 1}, "traits": ["jinxed"]}]
    )
    character = crew.characters.get()
    client.force_login(user)
    url = reverse("dice-quick", args=["morale"])
    page = client.get(url).content.decode()
    picker = page[page.index('id="character"') : page.index("</select>", page.index('id="character"'))]
    assert f'value="crew:{character.pk}"' in picker and "Jinx (Saints of Rust)" in picker
    html = client.get(
        f"{url}?character=crew:{character.pk}&discipline=-5&dread=3&allies_in_los=1&seed=8"
    ).content.decode()
    from crewbuilder.crew_service import report_for

    discipline = report_for(crew)["characters"][0]["attributes"]["discipline"]
    engine = odds(
        {"roll": "morale", "discipline": discipline, "dread": 3, "wounds": 0, "allies_in_los": 1, "traits": ["jinxed"]}
    )["exact"]
    bars = _exact_bars(html[html.index('id="quick"') : html.index("<h2>Flee moves")])
    assert bars == {k: v for k, v in engine.items() if k.isdigit()}
    assert "Jinx (Saints of Rust)" in html
    # the link to the roll carries the numbers, not the private character
    link = re.search(r'href="([^"]+)">link to this roll', html).group(1).replace("&amp;", "&")
    assert "character=" not in link and f"discipline={discipline}" in link and "traits=jinxed" in link
    client.logout()
    again = client.get(link).content.decode()
    steps = lambda page: page[page.index('<ol class="steps">') : page.index("</ol>", page.index('<ol class="steps">'))]  # noqa: E731
    assert steps(again) == steps(html)


def test_morale_picker_offers_only_the_users_own_characters(client, user, other_user, geared_crew):
    theirs = geared_crew(other_user, 2, name="Secret Crew")
    client.force_login(user)
    url = reverse("dice-quick", args=["morale"])
    assert "Secret Crew" not in client.get(url).content.decode()
    # naming another user's character falls back to the typed numbers
    html = client.get(f"{url}?character=crew:{theirs.characters.first().pk}&discipline=2&dread=2").content.decode()
    assert "Secret Crew" not in html and 'id="picked-character"' not in html
    from rules import odds

    engine = odds({"roll": "morale", "discipline": 2, "dread": 2})["exact"]
    bars = _exact_bars(html[html.index('id="quick"') : html.index("<h2>Flee moves")])
    assert bars == {k: v for k, v in engine.items() if k.isdigit()}


@pytest.mark.parametrize("size", [2, 4])
def test_morale_page_query_budget_does_not_grow_with_the_crew(
    client, user, geared_crew, size, django_assert_num_queries
):
    crew = geared_crew(user, size)
    client.force_login(user)
    url = reverse("dice-quick", args=["morale"]) + f"?character=crew:{crew.characters.first().pk}&dread=2&seed=3"
    client.get(url)  # warm the session
    with django_assert_num_queries(MORALE_QUERIES):
        assert client.get(url).status_code == 200


# the characters offered (one query; the session and the user from the cache), the picked character's crew with its choices
# (prefetched), the catalogue, the trait names of the picker: not per character nor per crew
MORALE_QUERIES = 10


def test_picked_characters_stay_selected_on_a_full_page_load(client, user, make_crew):
    crew = make_crew(
        user, characters=[{"name": "Jinx", "attributes": {"discipline": 1, "strength": 1}, "traits": ["jinxed"]}]
    )
    key = f"crew:{crew.characters.get().pk}"
    client.force_login(user)

    def selected(html, select_id):
        start = html.index(f'id="{select_id}"')
        options = html[start : html.index("</select>", start)]
        return re.findall(r'<option value="([^"]+)" selected', options)

    morale = client.get(reverse("dice-quick", args=["morale"]) + f"?character={key}&dread=2").content.decode()
    assert selected(morale, "character") == [key]
    attack = client.get(f"{reverse('dice-home')}?attacker={key}&target={key}&weapon=fists").content.decode()
    assert key in selected(attack, "attacker") and key in selected(attack, "target")
    typed = client.get(reverse("dice-quick", args=["morale"]) + "?character=typed&dread=2").content.decode()
    assert selected(typed, "character") == []


# --- darkness and light (reading E12b) ------------------------------------------------------------
# Darkness: "All ranged attacks suffer a -3 modifier". Darkborn: "Ignores effects of darkness". Spot light:
# "All allies within 3" ignore the effects of darkness, but enemies also ignore darkness when targeting
# this model." Lantern: "Models ignore darkness when targeting a model that is within 3" of a lantern."

PISTOL = "/dice/?weapon=pistol&a_discipline=2"


def _no_effect_notes(html):
    return re.findall(r'<li data-complication="([\w-]+)">(.*?)</li>', html, re.S)


def _hit(html):
    return _exact_bars(html[html.index('id="odds"') :])["hit"]


@pytest.mark.parametrize(
    "extra, reason",
    [
        ("&a_traits=darkborn", "the shooter is Darkborn"),
        ("&a_gear=spot-light", "the shooter carries a spot light"),
        ("&t_gear=spot-light", "the target carries a spot light"),
        ("&target_near_lantern=1", "the target is within 3&quot; of a lantern"),
        ("&shooter_near_allied_spot_light=1", "the shooter is within 3&quot; of an allied spot light"),
    ],
)
def test_darkness_that_does_not_apply_is_said_with_the_engines_reason(client, catalogue, extra, reason):
    lit = client.get(PISTOL + extra + "&complication=darkness").content.decode()
    unlit = client.get(PISTOL + extra).content.decode()
    assert _hit(lit) == _hit(unlit)  # no -3
    assert _no_effect_notes(lit) == [("darkness", f"Darkness: no effect — {reason}")]
    assert _no_effect_notes(unlit) == []


def test_darkness_that_applies_says_nothing_and_a_fight_says_why_not(client, catalogue):
    dark = client.get(PISTOL + "&complication=darkness").content.decode()
    assert _no_effect_notes(dark) == [] and _hit(dark) != _hit(client.get(PISTOL).content.decode())
    fight = client.get(f"/dice/?{AXE}&complication=darkness&complication=slippery-ground").content.decode()
    assert _no_effect_notes(fight) == [("darkness", "Darkness: no effect — a Fight is not a ranged attack")]


def test_the_light_ticks_show_for_a_shot_in_darkness_and_stay_out_of_a_fight(client, catalogue):
    ticks = ('name="target_near_lantern"', 'name="shooter_near_allied_spot_light"')
    shot = client.get(PISTOL + "&complication=partial-darkness").content.decode()
    assert all(f'type="checkbox" {t}' in shot for t in ticks)
    for page in (PISTOL, f"/dice/?{AXE}&complication=darkness"):
        html = client.get(page).content.decode()
        assert not any(f'type="checkbox" {t}' in html for t in ticks)
    # a tick set before switching to a Fight is kept (hidden), not lost
    kept = client.get(f"/dice/?{AXE}&complication=darkness&target_near_lantern=1").content.decode()
    assert '<input type="hidden" name="target_near_lantern" value="1">' in kept


def test_the_attackers_gear_comes_from_the_picked_character(client, user, make_crew):
    crew = make_crew(
        user,
        characters=[{"name": "Lamp", "attributes": {"discipline": 2}, "gear": ["pistol", "spot-light", "sword"]}],
    )
    lamp = crew.characters.get()
    client.force_login(user)
    html = client.get(f"/dice/?attacker=crew:{lamp.pk}&weapon=pistol&complication=darkness").content.decode()
    assert 'id="a_gear-spot-light" name="a_gear" value="spot-light" checked' in html
    assert _no_effect_notes(html) == [("darkness", "Darkness: no effect — the shooter carries a spot light")]
    # the share link carries it as typed gear (no crew), and the roll says it too
    link = re.search(r'id="roll-button" href="([^"]+)"', html).group(1).replace("&amp;", "&")
    assert "a_gear=spot-light" in link and f"crew:{lamp.pk}" not in link
    rolled = client.get(link, follow=True).content.decode()
    assert _no_effect_notes(rolled) == [("darkness", "Darkness: no effect — the shooter carries a spot light")]
    # the player may take the light away on the form: the darkness is back
    unlit = client.get(
        f"/dice/?attacker=crew:{lamp.pk}&a_from=crew:{lamp.pk}&a_gear=&weapon=pistol&complication=darkness"
    ).content.decode()
    assert _no_effect_notes(unlit) == [] and "changed (own: spot light)" in unlit


def test_typed_attacker_gear_is_checked_against_the_catalogue(client, catalogue):
    response = client.get(PISTOL + "&a_gear=torch&complication=darkness")
    assert response.status_code == 422 and "Attacker&#x27;s gear: unknown “torch”" in response.content.decode()


def test_the_light_ticks_travel_in_the_share_link_and_the_stored_roll(client, catalogue):
    page = client.get(PISTOL + "&complication=darkness&target_near_lantern=1").content.decode()
    link = re.search(r'id="roll-button" href="([^"]+)"', page).group(1).replace("&amp;", "&")
    assert "target_near_lantern=1" in link
    rolled = client.get(link)
    stored = client.post(reverse("dice-short-link"), {"link": rolled.url})
    replay = client.get(stored.url).content.decode()
    assert _no_effect_notes(replay) == [("darkness", "Darkness: no effect — the target is within 3&quot; of a lantern")]
