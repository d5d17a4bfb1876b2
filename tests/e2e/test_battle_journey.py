"""Two players in two browsers play a Cybernekr0 battle, then a campaign battle whose record arrives pre-filled.

Which button to press is decided from the engine's legal options (the test plays
to its goals: attacks until a character is Out of Action, a fate card played, a
Morale Phase run); every press is a click in the player's own browser, and the
other player's page catches up by polling. The rolls are seeded in order.
"""

import itertools
import os
import random

import pytest
from django.core.cache import cache
from django.core.management import call_command
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import PHONE, assert_fits_a_phone, log_in, wait_for_htmx

PASSWORD = "neon-bones-1138"
LEGAL = {"strength": 2, "toughness": 1, "agility": 1, "intellect": -1, "discipline": -2}
# the steps the journey takes, best first (moves about the table and scenario steps are left out)
PREFERRED = (
    "play_before_test",
    "accept_out_of_action",
    "name_witnesses",
    "let_stand",  # B65: the set-up form holds each roll for the other player, who lets it stand on their phone
    "resolve_attack",
    "resolve_test",
    "tough_it_out",  # the target's player tries it (B42: the choice; declining has its own journey)
    "second_attack",
    "answer_card",
    "choose_active",
    "deployment_initiative",
    "draw_complication",
    "deployed",
    "roll_sorceries",
    "start_round",
    "assign_ap",
    "get_up",
    "attack",
    "select_model",
    "decline_reaction",
    "begin_morale",
    "roll_morale",
    "end_morale",
    "end_npc_phase",
    "finish_round",
    "end_activation",
    "pass_turn",
)


@pytest.fixture
def catalogue(transactional_db, monkeypatch):
    from battles import services

    call_command("loadcatalogue", verbosity=0)
    counter = itertools.count(7001)
    monkeypatch.setattr(services, "new_seed", lambda: next(counter))


def _crew(user, name):
    from crewbuilder.models import Character, CharacterGear, Crew, GameSystem, Item

    system = GameSystem.objects.get(slug="cybernekro")
    crew = Crew.objects.create(owner=user, system=system, name=name)
    for i in range(3):
        ch = Character.objects.create(crew=crew, name=f"{name} {i + 1}", position=i, **LEGAL)
        CharacterGear.objects.create(character=ch, item=Item.objects.get(system=system, slug="sword"))
    return crew


def two_phones_at_a_battle(browser: Browser, server_url: str, users, arrange):
    """vox and mara at a started Quick start battle (seed 5), each on a phone showing it; the stored state is
    first set by ``arrange(battle_id)``, whose answer is handed back with the two pages."""
    from battles import services

    vox = users.objects.create_user("vox", password=PASSWORD)
    mara = users.objects.create_user("mara", password=PASSWORD)
    battle = services.create_battle(vox, "quick-start-scenario", _crew(vox, "Saints").pk, ["mara"])
    services.join(battle.pk, mara, _crew(mara, "Sinners").pk)
    services.start(battle.pk, vox, seed=5)
    arranged = arrange(battle.pk)
    url = f"{server_url}/battles/{battle.pk}/"
    a = log_in(browser, server_url, "vox", PASSWORD, viewport=PHONE)
    b = log_in(browser, server_url, "mara", PASSWORD, viewport=PHONE)
    a.goto(url)
    b.goto(url)
    return a, b, arranged


def rewrite_state(battle_id: int, change) -> None:
    """Set a scene: the battle's state changed by ``change(state)``, as a move would publish it."""
    from battles.models import Battle
    from rules.cybernekro.battle import codec

    battle = Battle.objects.get(pk=battle_id)
    battle.state = codec.dumps(change(codec.loads(battle.state)))
    battle.version += 1
    battle.save(update_fields=["state", "version"])


def set_action_phase(battle_id: int, attacker: dict, target: dict) -> str:
    """vox's first character active in round 1's Action Phase (an Ace armed on its hit roll, no environmental
    effect), with ``attacker``'s changes; mara's first with ``target``'s; its name handed back."""
    from dataclasses import replace

    from battles.models import Battle
    from rules.cybernekro.battle import codec
    from rules.cybernekro.battle.state import Phase

    battle = Battle.objects.get(pk=battle_id)
    state = codec.loads(battle.state)
    state = state.with_model(replace(state.model("0-0"), ap=3, **attacker))
    state = state.with_model(replace(state.model("1-0"), ap=3, traits=frozenset(), body_mods=frozenset(), **target))
    state = replace(
        state,
        phase=Phase.ACTION,
        round=1,
        first_seat="0",
        active_seat="0",
        active_model="0-0",
        pending=(),
        armed=(("0", "0-0", "A♥", 0),),
        scenario=replace(state.scenario, environment=None),
    )
    battle.state = codec.dumps(state)
    battle.version += 1
    battle.save(update_fields=["state", "version"])
    return state.model("1-0").name


def _state(battle_id):
    from battles.models import Battle
    from rules.cybernekro.battle import codec

    return codec.loads(Battle.objects.get(pk=battle_id).state)


def _next(state, played_card):
    from rules.cybernekro.battle import legal

    best = None
    for seat in state.seats:
        for option in legal.legal(state, seat):
            if (option.step not in PREFERRED and option.step != "act") or (
                option.step == "play_before_test" and played_card
            ):
                continue
            if option.step == "answer_card" and option.args:
                continue  # no Joker counter: let the card stand
            if option.step == "attack" and option.args[0] != "sword":
                continue
            if option.step == "select_model" and not state.enemies_of(state.model(option.args[0])):
                continue  # nobody left to fight: pass, so the round goes on to its Morale Phase
            if option.step == "act" and option.args == ("get-up",):
                option_rank = "get_up"
            elif option.step == "act":
                continue
            else:
                option_rank = option.step
            rank = PREFERRED.index(option_rank)
            if best is None or rank < best[0]:
                best = (rank, seat, option)
    assert best, f"nothing to press: {state.phase} {state.pending}"
    return best[1], best[2]


def _press(page: Page, url: str, option, key: str, cover: bool = False) -> None:
    page.goto(url)
    if cover:  # tick a condition: the odds table is redrawn with it, and the attack is rolled with it
        before = page.locator(".bt-odds table").inner_text()
        page.get_by_label("cover").check()
        wait_for_htmx(page)
        expect(page.locator(".bt-odds table")).not_to_have_text(before)
        expect(page.get_by_label("cover")).to_be_checked()
        assert_fits_a_phone(page)  # the odds table, the moves and the hand on a phone
        if os.environ.get("E2E_SCREENSHOTS"):  # for people to look at; nothing asserted
            page.locator(".bt-odds").screenshot(path=f"{os.environ['E2E_SCREENSHOTS']}/battle-odds-390.png")
    if option.step == "play_before_test":
        page.get_by_text("Tap to show my hand").click()
    form = page.locator("form").filter(has=page.locator(f'button[name="option"][value="{key}"]'))
    if option.step == "assign_ap":
        from tests.battles.conftest import even_split

        for name, value in even_split(option.args).items():
            form.locator(f'input[name="{name}"]').fill(str(value))
    form.locator(f'button[name="option"][value="{key}"]').click()
    wait_for_htmx(page)
    expect(page.locator(".bt-error")).to_have_count(0)


def _play(pages: dict, battle_id: int, url: str, limit: int = 300) -> None:
    """Play until a character is Out of Action, a fate card was played and a Morale Phase has run."""
    from battles import steps
    from rules.cybernekro.battle.state import Status

    played_card = morale_done = covered = held = False
    for _ in range(limit):
        state = _state(battle_id)
        ooa = any(m.status in (Status.OUT_OF_ACTION, Status.DEAD) for m in state.models)
        if ooa and played_card and morale_done:
            return
        seat, option = _next(state, played_card)
        if option.step == "let_stand" and not held:  # B65: the roll waits for this player's answer
            roller = pages[state.pending[0].seat]
            roller.goto(url)
            expect(roller.locator(".bt-held")).to_contain_text(f"and for {state.player(seat).name} to answer the roll")
            expect(roller.locator(".bt-held-mine")).to_contain_text("to answer the roll: let it stand now")
            closing = roller.locator('button[value="resolve_attack"], button[value="resolve_test"]')
            expect(closing).to_contain_text(f"(it goes on once {state.player(seat).name} has answered)")
            closing.click()  # the roller's word first: the window stays open for the other player's answer
            wait_for_htmx(roller)
            expect(roller.locator(".bt-held-mine")).to_contain_text("You let the roll stand")
            assert _state(battle_id).pending[0].get("roller_done")
            held = True
            continue
        cover = option.step == "attack" and not covered
        _press(pages[seat], url, option, steps.key(option), cover=cover)
        if cover:
            assert dict(_state(battle_id).pending[0].data)["situation"].cover is True
            covered = True
        played_card = played_card or option.step == "play_before_test"
        morale_done = morale_done or option.step == "end_morale"
    raise AssertionError("the journey never reached its goals")


def _choose_initiative(a: Page, b: Page) -> None:
    """Each player chooses the character they roll Initiative Tests with, on their own phone."""
    expect(a.get_by_text("Still to choose a character for the Initiative Test")).to_be_visible()
    for page in (a, b):
        page.get_by_label("My character for Initiative Tests").select_option(index=0)
        page.get_by_role("button", name="Choose").click()
        wait_for_htmx(page)
    a.reload()
    expect(a.get_by_text("Still to choose a character for the Initiative Test")).to_have_count(0)


def _end(page: Page, other: Page, url: str) -> None:
    """One player asks to end the game now; it ends when the other agrees on their own phone (B67)."""
    page.goto(url)
    page.get_by_text("End the game now").click()
    page.get_by_role("button", name="Ask to end the game").click()
    wait_for_htmx(page)
    expect(page.get_by_role("heading", name="End the game now?")).to_be_visible()
    expect(page.get_by_role("button", name="Agree: end the game")).to_have_count(0)  # asked: nothing to agree to
    other.goto(url)
    expect(other.get_by_role("heading", name="End the game now?")).to_be_visible()
    asked = []
    other.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))  # it asks first
    other.get_by_role("button", name="Agree: end the game").click()
    expect(other.get_by_role("heading", name="The game is over")).to_be_visible()
    assert asked == ["End the game for every player now? It cannot be undone."]


def test_two_players_play_a_battle_then_a_campaign_battle_fills_the_record(
    browser: Browser, server_url: str, catalogue, django_user_model
):
    from battles.models import Battle

    vox = django_user_model.objects.create_user("vox", password=PASSWORD)
    mara = django_user_model.objects.create_user("mara", password=PASSWORD)
    _crew(vox, "Saints")
    _crew(mara, "Sinners")
    a = log_in(browser, server_url, "vox", PASSWORD, viewport=PHONE)
    b = log_in(browser, server_url, "mara", PASSWORD, viewport=PHONE)

    # vox sets the battle up with his crew and invites mara, who joins with hers on her phone
    a.goto(server_url + "/battles/")
    a.get_by_label("Scenario").select_option(label="Quick start scenario")
    a.get_by_label("Your crew").select_option(label="Saints")
    a.get_by_label("Players").fill("mara")
    a.get_by_role("button", name="Set up the battle").click()
    url = a.url
    b.goto(url)
    b.get_by_role("button", name="Join with this crew").click()
    expect(a.get_by_text("Sinners", exact=True)).to_be_visible()  # vox's page caught up by polling
    a.get_by_role("button", name="Start the battle").click()
    expect(b.get_by_role("heading", name="Quick start scenario")).to_be_visible()  # mara's too
    battle_id = Battle.objects.get().pk
    assert_fits_a_phone(a)
    _choose_initiative(a, b)

    _play({"0": a, "1": b}, battle_id, url)
    a.goto(url)
    expect(a.locator(".bt-out").first).to_be_visible()  # the character Out of Action is struck out
    expect(a.get_by_text("Morale Phase", exact=False).first).to_be_visible()  # in the log
    _end(b, a, url)
    expect(a.get_by_role("heading", name="The game is over")).to_be_visible()  # by polling
    expect(a.get_by_role("link", name="Export as a file").first).to_be_visible()

    # a campaign: both enrolled; the battle's end fills the record in, both confirm it
    from campaigns import services as campaigns
    from crewbuilder.models import GameSystem

    campaign = campaigns.create_campaign(
        vox, name="The Rust Road", system=GameSystem.objects.get(slug="cybernekro"), treasure_value=5
    )
    campaigns.invite(campaign, vox, "mara")
    campaigns.respond(campaign, mara, accept=True)
    campaigns.enrol(campaign, vox, _crew(vox, "Rust Saints"))
    campaigns.enrol(campaign, mara, _crew(mara, "Rust Sinners"))
    a.goto(f"{server_url}/campaigns/{campaign.pk}/")
    a.get_by_role("link", name="Play a battle").click()
    a.get_by_label("Scenario").select_option(label="Quick start scenario")
    a.get_by_role("button", name="Start the battle").click()
    url = a.url
    a.get_by_role("button", name="Start the battle").click()
    battle_id = Battle.objects.get(campaign=campaign).pk
    b.goto(url)
    _choose_initiative(a, b)
    _play({"0": a, "1": b}, battle_id, url)
    _end(a, b, url)
    a.get_by_role("link", name="Record this game in the campaign").click()
    expect(a.get_by_text("Filled in from")).to_be_visible()
    out = [m for m in _state(battle_id).models if m.status.value in ("out_of_action", "dead")]
    assert out
    for model in out:
        expect(a.get_by_label(f"Outcome for {model.name}")).not_to_have_value("")
    a.get_by_role("button", name="Record the game").click()
    expect(a.get_by_text("waiting for confirmation")).to_be_visible()
    game_url = a.url
    a.get_by_role("button", name="Confirm this result").click()
    expect(a.get_by_text("Waiting for the other players")).to_be_visible()
    b.goto(game_url)
    b.get_by_role("button", name="Confirm this result").click()
    expect(b.get_by_text("The result now counts")).to_be_visible()


def test_a_drawn_scenario_and_a_game_master_who_moves_the_npcs(
    browser: Browser, server_url: str, catalogue, django_user_model
):
    """vox rolls a D12 for the scenario (the free rules do not say which card gives which: the group agrees
    on one), rex is the game master: he sees no hand and decides an NPC's action on his own phone."""
    from battles import steps
    from battles.models import Battle
    from rules.cybernekro import scenarios
    from rules.cybernekro.battle import codec, npcs, rounds
    from rules.cybernekro.battle.state import GM, Phase

    vox = django_user_model.objects.create_user("vox", password=PASSWORD)
    mara = django_user_model.objects.create_user("mara", password=PASSWORD)
    django_user_model.objects.create_user("rex", password=PASSWORD)
    _crew(vox, "Saints")
    _crew(mara, "Sinners")
    a = log_in(browser, server_url, "vox", PASSWORD, viewport=PHONE)
    b = log_in(browser, server_url, "mara", PASSWORD, viewport=PHONE)
    g = log_in(browser, server_url, "rex", PASSWORD, viewport=PHONE)

    a.goto(server_url + "/battles/")
    a.get_by_label("Roll a D12").check()
    a.get_by_label("Your crew").select_option(label="Saints")
    a.get_by_label("Players").fill("mara")
    a.get_by_label("Game master (optional)").fill("rex")
    a.get_by_role("button", name="Set up the battle").click()
    url = a.url
    card = scenarios.draw(random.Random(7001), "d12")  # the first seed of the journey
    expect(a.locator(".bt-drawn")).to_contain_text(f"Scenario card: {card.label}")
    expect(a.locator(".bt-drawn")).to_contain_text("not in the free rules")
    assert_fits_a_phone(a)
    a.get_by_label("The scenario you agreed on").select_option(label="Exploration")
    a.get_by_role("button", name="Play this scenario").click()
    wait_for_htmx(a)
    expect(a.get_by_text("Scenario: Exploration")).to_be_visible()
    b.goto(url)
    b.get_by_role("button", name="Join with this crew").click()
    expect(a.get_by_text("Sinners", exact=True)).to_be_visible()
    a.get_by_role("button", name="Start the battle").click()
    expect(a.get_by_role("heading", name="Exploration")).to_be_visible()
    battle_id = Battle.objects.get().pk
    g.goto(url)
    expect(g.get_by_text("You decide the NPCs' actions")).to_be_visible()
    expect(g.get_by_text("Tap to show my hand")).to_have_count(0)
    expect(g.locator(".bt-log")).to_contain_text(f"Scenario card: {card.label}")
    b.goto(url)
    _choose_initiative(a, b)

    for _ in range(60):  # the players set up and split their AP, on their own phones
        state = _state(battle_id)
        if state.phase is Phase.ACTION and not state.pending:
            break
        seat, option = _next(state, True)
        _press({"0": a, "1": b}[seat], url, option, steps.key(option))
    # a Flesh Drone comes on the table (as an exploration roll would place it) and both players pass
    state = npcs.place_npc(_state(battle_id), None, "flesh-drones")
    drone = state.models[-1].id
    for _ in range(2):
        state = rounds.pass_turn(state, state.active_seat)
    assert state.phase is Phase.NPCS
    Battle.objects.filter(pk=battle_id).update(state=codec.dumps(state))
    cache.clear()  # a scene set by hand, not a move (same version): the board's shared part is rebuilt

    a.goto(url)
    expect(a.locator(f'button[value="activate_npc:{drone}"]')).to_have_count(0)  # the game master's to decide
    g.goto(url)
    g.locator(f'button[value="activate_npc:{drone}"]').click()
    wait_for_htmx(g)
    expect(g.locator(".bt-error")).to_have_count(0)
    g.locator('button[value="act:move"]').click()
    wait_for_htmx(g)
    expect(g.locator(".bt-error")).to_have_count(0)
    assert_fits_a_phone(g)
    after = _state(battle_id)
    assert after.active_model == drone and [e.seat for e in after.log[-2:]] == [GM, GM]
    expect(a.locator(".bt-log")).to_contain_text("activates (two actions)")  # vox's page, by polling
