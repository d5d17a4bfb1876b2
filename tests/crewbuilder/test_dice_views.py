import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

AXE = "weapon=axe&a_agility=1&a_strength=2&t_toughness=1&t_armor=1"


def _bars(html):
    return dict(re.findall(r'data-key="(\w+)".*?<strong>([\d.]+)%', html, re.S))


def test_attack_odds_page_matches_the_engine(client, catalogue):
    from crewbuilder.rules import odds

    html = client.get(f"{reverse('dice-home')}?{AXE}").content.decode()
    bars = _bars(html)
    engine = odds({"roll": "attack", "action": "fight", "attacker": {"agility": 1, "strength": 2}, "weapon": "axe",
                   "target": {"toughness": 1, "armor": 1}})
    assert float(bars["out_of_action"]) == pytest.approx(100 * engine["target"]["out_of_action"], abs=0.05)
    assert float(bars["hit"]) == pytest.approx(100 * engine["to_hit"]["hit"], abs=0.05)


def test_htmx_change_returns_the_odds_fragment(client, catalogue):
    response = client.get(f"{reverse('dice-home')}?{AXE}&surrounded=1", HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert body.lstrip().startswith('<section id="odds"')
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
    steps = lambda page: page[page.index('<ol class="steps">'):page.index("</ol>", page.index('<ol class="steps">'))]  # noqa: E731
    again = client.get(f"{reverse('dice-quick', args=[kind])}?seed=99").content.decode()
    assert steps(again) == steps(html) and 'class="die' in steps(html)


def test_odds_api_endpoint(client):
    import json

    response = client.post(reverse("odds-api"), json.dumps({"roll": "test", "modifier": 0}), content_type="application/json")
    assert response.json()["exact"] == {"critical": "1/20", "success": "9/20", "failure": "9/20", "fumble": "1/20"}
    bad = client.post(reverse("odds-api"), json.dumps({"roll": "test", "modifier": 0, "x": 1}), content_type="application/json")
    assert bad.status_code == 400 and "unknown key" in bad.json()["error"]
    assert client.post(reverse("odds-api"), "{nope", content_type="application/json").status_code == 400


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
    target_select = html[html.index('id="target"'):html.index("</select>", html.index('id="target"'))]
    attacker_select = html[html.index('id="attacker"'):html.index("</select>", html.index('id="attacker"'))]
    assert "Shared Crew, shared" in target_select and "Shared Crew" not in attacker_select
    # revoking the link hides the crew again
    theirs.share_token = None
    theirs.save()
    assert "Shared Crew" not in client.get(reverse("dice-home")).content.decode()
