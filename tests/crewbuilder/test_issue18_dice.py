"""Issue 18, bug 2: the dice assistant says what it computes."""

import re

import pytest
from django.urls import reverse

from rules import odds

from .conftest import LEGAL

SWORDS = [
    {"name": "Sister Rake", "attributes": dict(LEGAL), "traits": ["ambidextrous"], "gear": ["sword"]},
    {"name": "Brother Gaunt", "attributes": {**LEGAL, "agility": 2, "strength": 1}, "gear": ["axe"]},
]


@pytest.fixture
def crew(make_crew, user):
    return make_crew(user, name="The Rust Choir", characters=SWORDS)


@pytest.fixture
def rake(crew):
    return f"crew:{crew.characters.get(name='Sister Rake').pk}"


@pytest.fixture
def gaunt(crew):
    return f"crew:{crew.characters.get(name='Brother Gaunt').pk}"


def _value(html, name):
    return re.search(rf'<input type="number" id="{name}" name="{name}" value="(-?\d+)"', html).group(1)


def _bars(html):
    return dict(re.findall(r'data-key="(\w+)".*?<span class="muted exact">([\d/]+)</span>', html, re.S))


def _page(client, **params):
    return client.get(reverse("dice-home"), params)


def test_picking_a_character_fills_its_fields(client, user, rake, gaunt):
    client.force_login(user)
    html = _page(client, attacker=rake, target=gaunt, weapon="sword").content.decode()
    assert (_value(html, "a_agility"), _value(html, "a_discipline"), _value(html, "a_strength")) == ("1", "-2", "2")
    assert (_value(html, "t_toughness"), _value(html, "t_strength"), _value(html, "t_armor")) == ("1", "1", "0")
    assert 'name="a_from" value="%s"' % rake in html
    assert "changed (own" not in html
    engine = odds(
        {
            "roll": "attack",
            "action": "fight",
            "weapon": "sword",
            "attacker": {"agility": 1, "discipline": -2, "strength": 2, "traits": ["ambidextrous"]},
            "target": {"toughness": 1, "strength": 1, "armor": 0},
        }
    )
    assert {k: v for k, v in _bars(html).items() if k in engine["exact"]["to_hit"]} == engine["exact"]["to_hit"]


def test_an_overridden_field_is_marked_and_used(client, user, rake, gaunt):
    client.force_login(user)
    html = _page(client, attacker=rake, a_from=rake, a_agility="4", target=gaunt, weapon="sword").content.decode()
    assert _value(html, "a_agility") == "4"
    assert "changed (own: +1)" in html
    engine = odds(
        {
            "roll": "attack",
            "action": "fight",
            "weapon": "sword",
            "attacker": {"agility": 4, "discipline": -2, "strength": 2, "traits": ["ambidextrous"]},
            "target": {"toughness": 1, "strength": 1, "armor": 0},
        }
    )
    assert _bars(html)["hit"] == engine["exact"]["to_hit"]["hit"]


def test_switching_character_fills_the_fields_afresh(client, user, rake, gaunt):
    client.force_login(user)
    # the form still carries Sister Rake's numbers, but Brother Gaunt was just picked
    html = _page(client, attacker=gaunt, a_from=rake, a_agility="1", a_strength="2", weapon="axe").content.decode()
    assert _value(html, "a_agility") == "2" and _value(html, "a_strength") == "1"
    assert "changed (own" not in html


def test_the_characters_own_weapons_come_first_and_others_on_request(client, user, rake):
    client.force_login(user)
    html = _page(client, attacker=rake).content.decode()
    select = html[html.index('id="weapon"') : html.index("</select>", html.index('id="weapon"'))]
    assert re.findall(r'<option value="([\w-]+)"', select) == ["fists", "sword"]
    assert "selected" in select.split('value="sword"')[1].split(">")[0]  # the real weapon, not the fists
    everything = _page(client, attacker=rake, all_weapons="1").content.decode()
    select = everything[
        everything.index('id="weapon"') : everything.index("</select>", everything.index('id="weapon"'))
    ]
    slugs = re.findall(r'<option value="([\w-]+)"', select)
    assert slugs[:2] == ["fists", "sword"] and "pistol" in slugs and slugs.count("sword") == 1
    assert "Not carried" in select


def test_a_weapon_not_carried_is_named_never_fists(client, user, rake):
    client.force_login(user)
    response = _page(client, attacker=rake, weapon="pistol")
    html = response.content.decode()
    assert response.status_code == 200
    assert "does not carry a pistol" in html
    assert re.search(r"<h2>Pistol: shoot against", html)
    fists = _page(client, attacker=rake, weapon="fists").content.decode()
    assert _bars(html) != _bars(fists)


def test_an_unknown_weapon_is_refused(client, user, rake):
    client.force_login(user)
    response = _page(client, attacker=rake, weapon="laser-sword")
    assert response.status_code == 422
    html = response.content.decode()
    assert "unknown “laser-sword”" in html and 'data-key="hit"' not in html


def test_traits_are_picked_by_name(client, user, catalogue):
    html = _page(client, weapon="axe").content.decode()
    assert "slugs" not in html
    assert re.search(r'<input type="checkbox" id="t_traits-big" name="t_traits" value="big"> Big</label>', html)
    ticked = _page(client, weapon="axe", t_traits=["", "big"], a_traits=["", "jinxed"]).content.decode()
    typed = _page(client, weapon="axe", t_traits="Big", a_traits="Jinxed").content.decode()
    engine = odds(
        {
            "roll": "attack",
            "action": "fight",
            "weapon": "axe",
            "attacker": {"traits": ["jinxed"]},
            "target": {"traits": ["big"]},
        }
    )
    assert _bars(ticked)["out_of_action"] == _bars(typed)["out_of_action"] == engine["exact"]["target"]["out_of_action"]
    assert 'id="t_traits-big" name="t_traits" value="big" checked' in ticked


def test_an_npc_target_keeps_its_hidden_traits_on_resubmit(client, catalogue):
    first = _page(client, weapon="axe", target="npc:rabid-machine").content.decode()
    kept = re.findall(r'<input type="hidden" name="t_traits" value="([\w-]+)">', first)
    assert "npc" in kept  # not a catalogue trait, so no box to tick: carried as it is
    kept += re.findall(r'name="t_traits" value="([\w-]+)" checked', first)
    again = _page(
        client,
        weapon="axe",
        target="npc:rabid-machine",
        t_from="npc:rabid-machine",
        t_traits=["", *kept],
        t_toughness=_value(first, "t_toughness"),
        t_armor=_value(first, "t_armor"),
        t_strength=_value(first, "t_strength"),
    ).content.decode()
    assert "changed (own" not in again and _bars(again) == _bars(first)


def test_a_typed_target_is_described_not_called_typed(client, catalogue):
    html = _page(client, weapon="axe", t_toughness="1", t_armor="2").content.decode()
    assert "Typed target" not in html
    assert "against a target with Toughness +1, Armor 2" in html
    roll = client.get(reverse("dice-attack-roll"), {"weapon": "axe", "t_toughness": "1", "t_armor": "2", "seed": "5"})
    assert (
        "Typed target" not in roll.content.decode() and "a target with Toughness +1, Armor 2" in roll.content.decode()
    )


# --- short links to stored rolls ---------------------------------------------------------------


def _dice(html):
    return re.findall(r'class="die[^"]*"[^>]*>(\d+)<', html)


@pytest.mark.parametrize(
    "path, query",
    [
        ("dice-attack-roll", "weapon=axe&a_agility=1&t_toughness=1&seed=4242"),
        ("dice-quick:test", "modifier=2&seed=99"),
    ],
)
def test_a_short_link_replays_the_stored_roll(client, catalogue, path, query):
    from crewbuilder.models import StoredRoll

    name, _, kind = path.partition(":")
    long_link = f"{reverse(name, args=[kind] if kind else [])}?{query}"
    page = client.get(long_link).content.decode()
    assert "Short link to this roll" in page
    response = client.post(reverse("dice-short-link"), {"link": long_link})
    stored = StoredRoll.objects.get()
    assert response.status_code == 302 and response.url == reverse("dice-stored-roll", args=[stored.token])
    assert len(response.url) < 30 and len(stored.token) <= 12
    short = client.get(response.url).content.decode()
    assert _dice(short) == _dice(page) and _dice(short)
    assert f"/dice/r/{stored.token}/" in short and 'id="short-link"' in short
    # the same roll keeps its one token
    assert client.post(reverse("dice-short-link"), {"link": long_link}).url == response.url
    assert StoredRoll.objects.count() == 1


@pytest.mark.parametrize(
    "link, message",
    [
        ("https://evil.example/dice/attack/roll/?seed=1", "Only a roll"),
        ("/crews/?seed=1", "Only a roll"),
        ("/dice/attack/roll/?weapon=axe", "Roll the dice first"),
        ("", "required"),
    ],
)
def test_a_short_link_is_only_for_a_seeded_roll(client, catalogue, link, message):
    from crewbuilder.models import StoredRoll

    response = client.post(reverse("dice-short-link"), {"link": link})
    assert response.status_code == 422 and message in response.content.decode()
    assert not StoredRoll.objects.exists()


def test_an_unknown_short_link_is_404(client, catalogue):
    assert client.get(reverse("dice-stored-roll", args=["nope1234"])).status_code == 404


def test_a_short_link_stores_no_crew_or_user(client, user, rake, gaunt):
    from crewbuilder.models import StoredRoll

    client.force_login(user)
    page = client.get(reverse("dice-attack-roll"), {"attacker": rake, "target": gaunt, "weapon": "sword", "seed": "8"})
    link = re.search(r'name="link" value="([^"]+)"', page.content.decode()).group(1).replace("&amp;", "&")
    client.post(reverse("dice-short-link"), {"link": link})
    stored = StoredRoll.objects.get().link
    assert "crew:" not in stored and "Rake" not in stored and "Choir" not in stored and user.username not in stored


# --- follow-up rolls ---------------------------------------------------------------------------------


def _seed_where(query, wanted):
    """The first seed whose roll of this typed attack ends as ``wanted(roll)`` (rolled with the engine itself)."""
    import random

    from django.http import QueryDict

    from crewbuilder import dice_service
    from rules import rolls

    params = QueryDict(query)
    attacker = dice_service.attacker_side(params, [])
    target = dice_service.target_side(params, [], [])
    inputs, errors = dice_service.build_inputs(params, attacker, target)
    assert not errors
    return next((s, r) for s in range(500) if wanted(r := rolls.planned_attack(random.Random(s), inputs.plan, s)))


def test_a_stagger_hit_offers_the_stagger_test(client, catalogue):
    query = "weapon=hammer-mace&a_agility=2&t_toughness=2&t_wounds=1"
    seed, roll = _seed_where(
        query, lambda r: r.get("to_hit") in ("success", "critical") and r.outcome != "out_of_action"
    )
    html = client.get(f"{reverse('dice-attack-roll')}?{query}&seed={seed}").content.decode()
    item = re.search(r'<li data-follow-up="stagger"><a class="button" href="([^"]+)">Stagger test', html)
    assert item, "the Stagger test is offered"
    assert item.group(1) == f"{reverse('dice-quick', args=['test'])}?modifier={2 - roll.get('wounds_after')}"
    assert "When hit the target must pass a Toughness test" in html  # the keyword's own rules text
    miss, _roll = _seed_where(query, lambda r: r.get("to_hit") in ("failure", "fumble"))
    assert (
        'data-follow-up="stagger"'
        not in client.get(f"{reverse('dice-attack-roll')}?{query}&seed={miss}").content.decode()
    )


# --- fate cards in the odds ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "card, engine_card",
    [("ace", "ace"), ("+4", 4), ("-3", -3), ("jack-critical", "jack-critical"), ("jack-fumble", "jack-fumble")],
)
def test_the_attribute_test_page_offers_every_fate_card(client, catalogue, card, engine_card):
    html = client.get(reverse("dice-quick", args=["test"]), {"modifier": "1", "card": card}).content.decode()
    for label in ("Ace: passes without rolling", "Numbered card +10", "Numbered card -2", "Jack: a regular success"):
        assert label in html
    expected = odds({"roll": "test", "modifier": 1, "card": engine_card})["exact"]
    assert {k: v for k, v in _bars(html).items()} == expected
    assert expected != odds({"roll": "test", "modifier": 1})["exact"]


def test_an_ace_roll_says_it_passed_without_rolling(client, catalogue):
    html = client.get(
        reverse("dice-quick", args=["test"]), {"modifier": "-5", "card": "ace", "seed": "3"}
    ).content.decode()
    assert "Ace played" in html and 'id="roll-outcome">Success' in html


def test_an_unknown_card_is_a_message(client, catalogue):
    response = client.get(reverse("dice-quick", args=["test"]), {"card": "+11"})
    assert response.status_code == 422 and "Fate card: choose one from the list" in response.content.decode()


def test_the_queen_is_in_the_attack_odds(client, catalogue):
    query = {"weapon": "axe", "a_agility": "3", "a_strength": "2", "t_prone": "1"}
    plain = _bars(_page(client, **query).content.decode())
    html = _page(client, **query, t_queen="1").content.decode()
    queen = _bars(html)
    assert "With a Queen played for the target" in html
    engine = odds(
        {
            "roll": "attack",
            "action": "fight",
            "weapon": "axe",
            "attacker": {"agility": 3, "strength": 2},
            "target": {"prone": True, "queen": True},
        }
    )["exact"]["target"]
    assert {k: queen[k] for k in engine} == engine and queen["out_of_action"] == "0" != plain["out_of_action"]
    roll_link = re.search(r'id="roll-button" href="([^"]+)"', html).group(1).replace("&amp;", "&")
    assert "t_queen=1" in roll_link


def test_switching_attacker_drops_the_previous_attackers_weapon(client, user, rake):
    client.force_login(user)
    # the form showed typed stats with the catalogue's first weapon; Sister Rake is picked
    html = _page(client, attacker=rake, a_from="", weapon="improvised-weapon").content.decode()
    assert "not-carried" not in html and re.search(r"<h2>Sword: fight against", html)
    # a link (no form) asking for it still gets it, named as not carried
    assert (
        "does not carry a improvised weapon"
        in _page(client, attacker=rake, weapon="improvised-weapon").content.decode()
    )


def test_the_attack_page_takes_a_fate_card_on_the_hit_roll(client, catalogue):
    query = {"weapon": "axe", "a_agility": "1", "t_toughness": "1"}
    for card, situation_card in (("ace", "ace"), ("jack-critical", "jack-critical"), ("+3", 3)):
        html = _page(client, **query, card=card).content.decode()
        engine = odds(
            {
                "roll": "attack",
                "action": "fight",
                "weapon": "axe",
                "attacker": {"agility": 1},
                "target": {"toughness": 1},
                "situation": {"card": situation_card},
            }
        )["exact"]
        assert {k: _bars(html)[k] for k in engine["to_hit"]} == engine["to_hit"]
        assert f'<option value="{card}" selected>' in html
        link = re.search(r'id="roll-button" href="([^"]+)"', html).group(1).replace("&amp;", "&")
        assert "card=" in link
    roll = client.get(reverse("dice-attack-roll"), {**query, "card": "ace", "seed": "4"}).content.decode()
    assert "Ace played" in roll
    bad = _page(client, **query, card="queen")
    assert bad.status_code == 422 and "Fate card on the hit roll: choose one from the list" in bad.content.decode()


def test_the_morale_traits_are_picked_by_name(client, catalogue):
    html = client.get(reverse("dice-quick", args=["morale"]), {"dread": "2"}).content.decode()
    assert re.search(r'id="traits-jinxed" name="traits" value="jinxed"> Jinxed</label>', html)
    ticked = client.get(
        reverse("dice-quick", args=["morale"]), {"dread": "2", "traits": ["", "jinxed"]}
    ).content.decode()
    assert 'value="jinxed" checked' in ticked
    engine = odds({"roll": "morale", "discipline": 0, "dread": 2, "traits": ["jinxed"]})["exact"]
    dread_left = ticked[ticked.index('id="quick"') : ticked.index("<h2>Flee moves")]
    assert _bars(dread_left) == {k: v for k, v in engine.items() if k.isdigit()}
