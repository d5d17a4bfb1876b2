"""On two phones: a fate card played on a Morale Test from the hidden hand, the rolled test held open for a Jack,
then let stand. The same card picker as the attack's, inside the hand that only its owner taps open."""

from dataclasses import replace

from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import assert_fits_a_phone, wait_for_htmx
from tests.e2e.test_battle_journey import (  # noqa: F401  (the catalogue fixture)
    catalogue,
    rewrite_state,
    two_phones_at_a_battle,
)

HANDS = {"0": ("A♥", "5♥", "J♥", "Joker (red)"), "1": ("A♠", "5♠", "J♠", "Joker (black)")}


def _at_morale(battle_id: int) -> str:
    """Put the stored battle at its Morale Phase: vox's first character holds 2 Dread and hardly passes a test."""
    from battles.models import Battle
    from rules.cybernekro.battle import codec
    from rules.cybernekro.battle.state import Phase

    battle = Battle.objects.get(pk=battle_id)
    state = codec.loads(battle.state)
    state = state.with_model(replace(state.model("0-0"), dread=2, discipline=-9, traits=frozenset()))
    for seat, hand in HANDS.items():
        state = state.with_player(replace(state.player(seat), hand=hand))
    state = replace(
        state, phase=Phase.MORALE, round=1, first_seat="0", active_seat="0", morale_started=True, morale_queue=("0-0",)
    )
    battle.state = codec.dumps(state)
    battle.version += 1
    battle.save(update_fields=["state", "version"])
    return state.model("0-0").name


def _tap(page: Page, name: str, in_hand: bool = False) -> None:
    if in_hand:
        page.get_by_text("Tap to show my hand").click()
    page.get_by_role("button", name=name).click()
    wait_for_htmx(page)
    expect(page.locator(".bt-error")).to_have_count(0)


def test_a_card_is_played_on_a_morale_test_from_the_hidden_hand(
    browser: Browser,
    server_url: str,
    catalogue,
    django_user_model,  # noqa: F811
):
    a, b, name = two_phones_at_a_battle(browser, server_url, django_user_model, _at_morale)

    ace = f"Play A♥ on {name}'s next test"
    expect(a.get_by_role("button", name=ace)).to_be_hidden()  # the hand is closed until its owner taps it
    expect(b.get_by_text("A♥")).to_have_count(0)  # and never on another player's phone
    expect(a.get_by_text("Next tests: odds before the roll")).to_be_visible()
    a.get_by_label("Allies in line of sight").fill("1")
    a.get_by_label("Allies in line of sight").press("Tab")  # a change: the odds count the ally
    wait_for_htmx(a)
    expect(a.get_by_text("morale: Discipline (1 ally in LoS)")).to_be_visible()
    expect(a.get_by_label("Allies in line of sight")).to_have_value("1")
    _tap(a, ace, in_hand=True)
    _tap(b, "Let the card stand")  # mara's page caught up by polling: she may counter with her Joker
    a.reload()
    expect(a.get_by_text("with A♥:")).to_be_visible()  # the odds count the Ace: 100%
    _tap(a, f"Roll {name}'s Morale Tests")
    expect(a.get_by_text("fate cards may still change it")).to_be_visible()
    assert_fits_a_phone(a)
    b.reload()
    b.get_by_text("Tap to show my hand").click()
    expect(b.get_by_role("button", name="Play J♠: make it a fumble")).to_have_count(0)  # an Ace: no roll to Jack
    _tap(a, "Let the test stand")  # the first test stands; the second is rolled, held open in turn

    b.reload()
    expect(b.get_by_text(f"{name}'s morale: Discipline: failure")).to_be_visible()
    _tap(b, "Play J♠: make it a fumble", in_hand=True)
    _tap(a, "Let the card stand")
    expect(a.get_by_text(f"{name}'s morale: Discipline: fumble")).to_be_visible()
    _tap(a, "Let the test stand")
    expect(a.get_by_text("morale: Discipline stands: fumble")).to_be_visible()  # in the public log
    assert_fits_a_phone(b)


def test_a_poll_redraw_leaves_an_opened_hand_open(
    browser: Browser,
    server_url: str,
    catalogue,
    django_user_model,  # noqa: F811
):
    """The other player's move redraws the board on this phone while its player is choosing a card."""
    from django.core.cache import cache

    from battles.models import Battle

    a, b, name = two_phones_at_a_battle(browser, server_url, django_user_model, _at_morale)
    ace = f"Play A♥ on {name}'s next test"
    a.get_by_text("Tap to show my hand").click()
    expect(a.get_by_role("button", name=ace)).to_be_visible()
    a.evaluate("document.getElementById('board').dataset.before = 'yes'")
    rewrite_state(Battle.objects.latest("pk").pk, lambda state: state)  # another player's move: a new version
    cache.clear()  # a scene set by hand, not a move: the board's shared parts are rebuilt
    expect(a.locator("#board[data-before]")).to_have_count(0, timeout=20000)  # the board was redrawn
    expect(a.get_by_role("button", name=ace)).to_be_visible()  # and the hand is still open
    b.close()
