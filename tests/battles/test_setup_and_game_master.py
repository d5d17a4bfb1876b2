"""The battle's set-up: the scenario chosen or drawn (a card or a D12), a campaign's own scenarios, the game master."""

import html
import random
from dataclasses import replace

import pytest

from battles import record, services
from battles.models import Battle, BattleEvent
from campaigns import services as campaign_services
from core.games.kit import Refused
from rules.cybernekro import scenarios
from rules.cybernekro.battle import codec, legal, npcs, rounds
from rules.cybernekro.battle.state import GM, Phase
from tests.campaigns.conftest import campaign, two_crews  # noqa: F401  (shared fixtures)
from tests.clients import logged_in

from .conftest import advance, post_step
from .test_views import CSRF

pytestmark = pytest.mark.django_db

FIRST_SEED = 1001  # the first seed of a test battle (conftest.seeded)


def state(battle):
    battle.refresh_from_db()
    return codec.loads(battle.state)


def test_a_drawn_card_the_free_rules_lack_is_agreed_on_then_logged_with_its_seed(
    user, other_user, password, geared_crew
):
    me = logged_in(user)
    r = me.post(
        "/battles/",
        {"how": "deck", "crew": geared_crew(user).pk, "players": other_user.username},
    )
    battle = Battle.objects.get()
    assert r.status_code == 302
    card = scenarios.draw(random.Random(FIRST_SEED), "deck")
    assert battle.scenario == "" and battle.scenario_draw["label"] == card.label
    assert battle.scenario_draw["seed"] == FIRST_SEED and battle.scenario_draw["on_card"] is None
    services.join(battle.pk, other_user, geared_crew(other_user).pk)
    page = me.get(f"/battles/{battle.pk}/").content.decode()
    assert card.label in page and "not in the free rules" in page and 'name="scenario"' in page
    r = me.post(f"/battles/{battle.pk}/start/", headers={"HX-Request": "true"})
    assert r.status_code == 422 and b"Agree on the scenario" in r.content
    theirs = logged_in(other_user)
    r = theirs.post(f"/battles/{battle.pk}/scenario/", {"scenario": "prisoner"}, headers={"HX-Request": "true"})
    assert r.status_code == 422 and Battle.objects.get().scenario == ""  # the creator records it
    r = me.post(f"/battles/{battle.pk}/scenario/", {"scenario": "nope"}, headers={"HX-Request": "true"})
    assert r.status_code == 422
    r = me.post(f"/battles/{battle.pk}/scenario/", {"scenario": "prisoner"}, headers={"HX-Request": "true"})
    assert r.status_code == 200 and Battle.objects.get().scenario == "prisoner"
    assert me.post(f"/battles/{battle.pk}/start/", headers={"HX-Request": "true"}).status_code == 200
    first = BattleEvent.objects.filter(battle=battle).order_by("number").first()
    assert first.seed == FIRST_SEED and card.label in first.text and "agreed on Prisoner" in first.text
    assert state(battle).scenario.slug == "prisoner"


def test_a_d12_draw_lands_on_the_campaign_scenario_its_organiser_put_on_that_card(
    campaign, two_crews, user, other_user, password
):
    card = scenarios.draw(random.Random(FIRST_SEED), "d12")
    assert card.number <= 12
    heist = campaign_services.create_scenario(
        campaign, user, name="Data heist", text="Hack the vault.", draws_complication=True, card=card.number
    )
    r = logged_in(other_user).post(f"/battles/campaign/{campaign.pk}/", {"how": "d12"})
    battle = Battle.objects.get()
    assert r.status_code == 302 and battle.campaign_scenario == heist and battle.scenario == "campaign"
    assert battle.scenario_draw["on_card"] == f"campaign:{heist.pk}"
    services.start(battle.pk, other_user, seed=3)
    s = state(battle)
    assert s.scenario.campaign and s.scenario.name == "Data heist" and s.scenario.draws_complication
    assert "it gives Data heist" in s.log[0].text and s.log[0].seed == FIRST_SEED
    assert legal.legal(s, "0") == (legal.Option("draw_complication"),)  # its organiser said it draws one
    page = logged_in(user).get(f"/battles/{battle.pk}/").content.decode()
    assert "Hack the vault." in page and "the players decide who won" in page


def test_a_campaign_scenario_is_offered_only_in_its_own_campaign(
    campaign, two_crews, user, other_user, password, geared_crew, catalogue
):
    heist = campaign_services.create_scenario(campaign, user, name="Data heist")
    key = f"campaign:{heist.pk}"
    me = logged_in(user)
    assert "Data heist (campaign scenario)" in me.get(f"/battles/campaign/{campaign.pk}/").content.decode()
    assert "Data heist" not in me.get("/battles/").content.decode()
    r = me.post("/battles/", {"scenario": key, "crew": geared_crew(user).pk, "players": other_user.username})
    assert r.status_code == 422 and not Battle.objects.exists()
    other = campaign_services.create_campaign(other_user, name="Elsewhere", system=catalogue, treasure_value=5)
    assert key not in logged_in(other_user).get(f"/battles/campaign/{other.pk}/").content.decode()
    with pytest.raises(Refused):
        services.create_battle(user, key, geared_crew(user).pk, [other_user.username])
    r = me.post(f"/battles/campaign/{campaign.pk}/", {"scenario": key})
    assert r.status_code == 302 and Battle.objects.get().campaign_scenario == heist


def test_a_campaign_scenario_ends_with_the_winner_left_to_the_players_record(
    campaign, two_crews, user, other_user, password
):
    heist = campaign_services.create_scenario(campaign, user, name="Data heist")
    battle = services.create_from_campaign(user, campaign, f"campaign:{heist.pk}")
    services.start(battle.pk, user, seed=2)
    me = logged_in(user)
    r = post_step(me, battle, "concede_end")
    assert r.status_code == 200 and state(battle).phase is not Phase.ENDED  # the other player agrees too (B67)
    page = html.unescape(logged_in(other_user).get(f"/battles/{battle.pk}/").content.decode())
    assert "asked to end the game now" in page and ">Agree: end the game</button>" in page
    r = post_step(logged_in(other_user), battle, "concede_end")
    assert r.status_code == 200 and state(battle).phase is Phase.ENDED
    post = record.campaign_prefill(campaign, user, battle.pk)["post"]
    assert post["scenario"] == "Data heist" and post["result"] == ""
    page = me.get(f"/campaigns/{campaign.pk}/games/new/?battle={battle.pk}").content.decode()
    assert "Data heist" in page


@pytest.fixture
def with_gm(user, other_user, make_user, password, geared_crew):
    """A started Quick start between user (seat 0) and other_user (seat 1), with ``gm`` its game master."""
    gm = make_user("gamemaster")
    crews = [geared_crew(u, 3) for u in (user, other_user)]
    r = logged_in(user).post(
        "/battles/",
        {
            "how": "choose",
            "scenario": "quick-start-scenario",
            "crew": crews[0].pk,
            "players": other_user.username,
            "game_master": gm.username,
        },
    )
    assert r.status_code == 302
    battle = Battle.objects.get()
    services.join(battle.pk, other_user, crews[1].pk)
    services.start(battle.pk, user, seed=1)
    for index, u in enumerate((user, other_user)):
        services.choose_initiative(battle.pk, u, model=f"{index}-0")
    battle.refresh_from_db()
    return battle, gm


def test_a_game_master_sees_the_battle_holds_no_seat_and_makes_no_players_move(
    with_gm, user, other_user, make_user, password
):
    battle, gm = with_gm
    assert battle.game_master == gm and not battle.seats.filter(user=gm).exists()
    master = logged_in(gm)
    page = master.get(f"/battles/{battle.pk}/").content.decode()
    assert "game master" in page and "Tap to show my hand" not in page
    assert "Battles you are the game master of" in master.get("/battles/").content.decode()
    assert f"/battles/{battle.pk}/" in master.get("/").content.decode()  # in progress on the home page
    r = post_step(master, battle, "deployment_initiative")  # a player's step
    assert r.status_code == 422 and state(battle).phase is Phase.SETUP
    r = master.post(f"/battles/{battle.pk}/initiative/", {"model": "0-0"}, headers={"HX-Request": "true"})
    assert r.status_code == 422
    assert logged_in(make_user("stranger")).get(f"/battles/{battle.pk}/").status_code == 404


def _gm_responses(client, battle):
    base = f"/battles/{battle.pk}/"
    out = [
        client.get(base),
        client.get(base, headers={"HX-Request": "true"}),
        client.get(f"{base}?v=0", headers={"HX-Request": "true"}),
        client.get(f"{base}export.json"),
    ]
    return [CSRF.sub(r"\1", r.content.decode()) for r in out]


def test_no_response_to_the_game_master_shows_a_players_hand(with_gm, user, other_user, password):
    battle, gm = with_gm
    clients = {"0": logged_in(user), "1": logged_in(other_user)}
    advance(battle, clients, lambda s: s.player("0").hand and s.player("1").hand)
    master = logged_in(gm)
    before = _gm_responses(master, battle)
    for seat in ("0", "1"):  # change only the hidden cards: each hand swapped with the top of its deck
        s = state(battle)
        p = s.player(seat)
        n = len(p.hand)
        swapped = replace(p, hand=p.deck[:n], deck=p.hand + p.deck[n:])
        assert swapped.hand != p.hand
        battle.state = codec.dumps(s.with_player(swapped))
        battle.save(update_fields=["state"])
    assert _gm_responses(master, battle) == before


def test_the_game_master_decides_the_npcs_actions_and_may_undo(with_gm, user, other_user, password):
    battle, gm = with_gm
    clients = {"0": logged_in(user), "1": logged_in(other_user)}
    advance(battle, clients, lambda s: s.phase is Phase.ACTION and not s.pending)
    s = npcs.place_npc(state(battle), None, "flesh-drones")
    drone = s.models[-1].id
    for _ in range(2):
        s = rounds.pass_turn(s, s.active_seat)
    assert s.phase is Phase.NPCS and s.game_master
    battle.state = codec.dumps(s)
    battle.save(update_fields=["state"])
    r = post_step(clients["0"], battle, f"activate_npc:{drone}")
    assert r.status_code == 422 and state(battle).active_model is None
    master = logged_in(gm)
    page = master.get(f"/battles/{battle.pk}/").content.decode()
    assert f'value="activate_npc:{drone}"' in page
    assert f'value="activate_npc:{drone}"' not in clients["0"].get(f"/battles/{battle.pk}/").content.decode()
    r = post_step(master, battle, f"activate_npc:{drone}")
    assert r.status_code == 200 and state(battle).active_model == drone
    assert BattleEvent.objects.filter(battle=battle, seat=GM).exists()
    assert post_step(clients["1"], battle, "undo").status_code == 422  # not theirs to take back
    r = post_step(master, battle, "undo")
    assert r.status_code == 200 and state(battle).active_model is None


def test_the_creator_may_be_the_game_master_and_plays_no_crew(user, other_user, make_user, password, geared_crew):
    third = make_user("third")
    battle = services.create_battle(
        user, "exploration", None, [other_user.username, third.username], game_master=user.username
    )
    assert battle.game_master == user and [s.user for s in battle.seats.all()] == [other_user, third]
    for u in (other_user, third):
        services.join(battle.pk, u, geared_crew(u).pk)
    services.start(battle.pk, user, seed=1)
    assert state(battle).game_master
    with pytest.raises(Refused, match="game master plays no crew"):
        services.create_battle(user, "exploration", geared_crew(user).pk, [third.username], game_master="third")
    with pytest.raises(Refused, match="no user called 'nobody' to be the game master"):
        services.create_battle(user, "exploration", geared_crew(user).pk, [third.username], game_master="nobody")
    with pytest.raises(Refused, match="own Cybernekr0 crews"):
        services.create_battle(user, "exploration", None, [other_user.username])
    with pytest.raises(Refused, match="at least two crews"):
        services.create_battle(user, "exploration", None, [other_user.username], game_master=user.username)


def test_a_campaign_battle_s_game_master_is_a_member_with_no_crew(
    campaign, two_crews, user, other_user, make_user, password
):
    referee = make_user("referee")
    campaign_services.invite(campaign, user, referee.username)
    campaign_services.respond(campaign, referee, accept=True)
    assert services.game_master_candidates(campaign) == [referee]
    me = logged_in(user)
    r = me.post(f"/battles/campaign/{campaign.pk}/", {"scenario": "exploration", "game_master": other_user.pk})
    assert r.status_code == 422 and not Battle.objects.exists()
    with pytest.raises(Refused, match="plays no crew"):
        services.create_from_campaign(user, campaign, "exploration", game_master=other_user)
    r = me.post(f"/battles/campaign/{campaign.pk}/", {"scenario": "exploration", "game_master": referee.pk})
    battle = Battle.objects.get()
    assert r.status_code == 302 and battle.game_master == referee
    assert logged_in(referee).get(f"/battles/{battle.pk}/").status_code == 200


def test_a_campaign_member_with_no_crew_joins_a_waiting_battle_as_its_only_game_master(
    campaign, two_crews, user, other_user, make_user, password
):
    referee, second = make_user("referee"), make_user("second")
    for member in (referee, second):
        campaign_services.invite(campaign, user, member.username)
        campaign_services.respond(campaign, member, accept=True)
    battle = services.create_from_campaign(user, campaign, "exploration")
    ref = logged_in(referee)
    page = ref.get(f"/battles/campaign/{campaign.pk}/").content.decode()
    assert f"/battles/{battle.pk}/game-master/" in page
    assert (
        f"/battles/{battle.pk}/game-master/"
        not in logged_in(user).get(f"/battles/campaign/{campaign.pk}/").content.decode()
    )
    assert logged_in(make_user("outsider")).post(f"/battles/{battle.pk}/game-master/").status_code == 404
    logged_in(user).post(f"/battles/{battle.pk}/game-master/")  # a player: refused, with a message
    assert Battle.objects.get().game_master is None
    r = ref.post(f"/battles/{battle.pk}/game-master/")
    assert r.status_code == 302 and Battle.objects.get().game_master == referee
    logged_in(second).post(f"/battles/{battle.pk}/game-master/")  # at most one
    assert Battle.objects.get().game_master == referee
    assert ref.get(f"/battles/{battle.pk}/").status_code == 200
    services.start(battle.pk, user, seed=1)
    assert state(battle).game_master
    with pytest.raises(Refused, match="started"):
        services.join_as_game_master(battle.pk, second)
