"""The Steal card at the table (GT20): a card taken at random from the hand of the opponent named, a stolen
card in the thief's hand (not counted toward the seven), back to its owner when it leaves that hand; which card
only the two players involved see.

"Some cards, particularly the Steal card, may increase the number of cards in a hand to more than seven.
Stolen cards are not counted toward the seven-count. Stolen cards may be discarded during the Replenishment
phase (they are returned to the owning player), but they are not replaced with other non-player cards."
"""

import re

import pytest
from django.core.cache import cache

from games.ghoulash import services
from games.ghoulash.models import BoxCard, Event, Player
from tests.clients import logged_in

from .conftest import arrange_hand, complete_box, ghoul, page_url, player, refresh
from .test_rules_fixes import HTMX, act, give, texts

CSRF = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')


@pytest.fixture
def three(ghoulash_catalogue, make_user):
    """Del (Lake, first), Brian (Gray) and Zed (Cornealius), from a box whose decks each hold one Steal card,
    typed as an Action card (the printed card's type; the text does not give it)."""
    del_, brian, zed = make_user("del"), make_user("brian"), make_user("zed")
    box = complete_box(del_)
    for slug in ("lake", "gray", "cornealius", "zone"):
        BoxCard.objects.create(
            box=box, character=slug, card_type=BoxCard.ACTION, name="Steal", catalogue_slug="steal", count=1
        )
    game = services.create_game(del_, box, "Three", [("del", "lake"), ("brian", "gray"), ("zed", "cornealius")])
    return game, del_, brian, zed


def _brians_hand(game, brian) -> list[int]:
    """Brian holds seven Value cards of different names: which one is stolen shows in the thief's hand."""
    return arrange_hand(player(game, brian), [1, 2, 3, 1, 2, 3, 1])


def _steal(game, del_, brian, seed: int, monkeypatch) -> tuple[Player, Player, dict]:
    """Del, with seven own Value cards and a Steal card, steals from Brian with the pick's seed ``seed``."""
    act(game, del_, "replenish")
    arrange_hand(player(game, del_), [1, 1, 2, 2, 3, 3, 1])
    steal = give(player(game, del_), "steal")
    monkeypatch.setattr(services.actions.secrets, "randbits", lambda bits: seed)
    act(game, del_, "steal", card=steal, targets=["1"])
    d, b = player(game, del_), player(game, brian)
    stolen = [c for c in d.deck if c.get("owner_id") is not None]
    assert len(stolen) == 1
    return d, b, stolen[0]


def test_steal_takes_a_card_at_random_from_the_named_opponent(three, monkeypatch):
    game, del_, brian, zed = three
    hand = _brians_hand(game, brian)
    d, b, stolen = _steal(game, del_, brian, 7, monkeypatch)
    # one of brian's cards, now in del's hand as a stolen card naming its owner and the owner's id
    assert stolen["owner"] == "gray" and stolen["owner_id"] in hand and stolen["id"] in d.hand
    assert sorted(b.hand) == sorted(i for i in hand if i != stolen["owner_id"])
    assert len(d.hand) == 8  # seven own cards and the stolen one: "more than seven"
    steal_card = next(c for c in d.deck if c.get("slug") == "steal")
    assert steal_card["id"] in d.discard and steal_card["id"] not in d.hand
    event = Event.objects.filter(game=game, kind="steal").get()
    assert event.text == (
        "del plays Steal (Action) and takes a card at random from brian's hand (now 6): a stolen card in del's "
        "hand (now 8), not counted toward the 7. Which card, only the two of them see."
    )
    assert event.seed == 7
    # the Steal card was an Action card: the turn's Action is taken
    with pytest.raises(services.GameError, match="taken your Action"):
        act(game, del_, "card", card=give(player(game, del_), "debris"))
    # the two involved see which card; the thief's hand marks it
    d_html = logged_in(del_).get(page_url(game)).content.decode()
    assert "stolen from brian" in d_html and ", 1 stolen (not counted toward the 7)" in d_html
    b_html = logged_in(brian).get(page_url(game)).content.decode()
    assert f"Your cards held by other players (stolen): {stolen['name']} (del)" in b_html


def test_the_steal_form_says_what_the_tracker_does_before_the_card_is_spent(three):
    game, del_, brian, zed = three
    act(game, del_, "replenish")
    give(player(game, del_), "steal")
    html = logged_in(del_).get(page_url(game)).content.decode()
    assert 'value="steal"' in html and "Steal: take one card at random from the hand of" in html
    assert "The rules text does not print the Steal card's own words, only what stolen cards do." in html
    assert 'name="targets" value="1"' in html and 'name="targets" value="2"' in html
    assert "Play without taking a card" in html


def test_what_a_third_player_sees_does_not_depend_on_the_card_stolen(three, monkeypatch):
    game, del_, brian, zed = three
    _brians_hand(game, brian)
    d, b, stolen = _steal(game, del_, brian, 7, monkeypatch)
    z = logged_in(zed)
    game = refresh(game)

    def seen(client) -> list[tuple]:
        pages = [
            client.get(page_url(game)),
            client.get(page_url(game) + "?v=0", **HTMX),
            client.get(page_url(game) + f"?v={game.version}", **HTMX),
        ]
        return [(r.status_code, CSRF.sub(r"\1", r.content.decode())) for r in pages]

    before_zed, before_del = seen(z), seen(logged_in(del_))
    # change only the secret: another of brian's cards is the one del took
    other = next(i for i in b.hand if next(c for c in b.deck if c["id"] == i)["value"] != stolen["value"])
    card = next(c for c in b.deck if c["id"] == other)
    b.hand = [stolen["owner_id"] if i == other else i for i in b.hand]
    b.save()
    d.deck = [({**card, "id": stolen["id"], "owner_id": other} if c["id"] == stolen["id"] else c) for c in d.deck]
    d.save()
    cache.clear()  # an edit, not a move: same version, so the shared part is rebuilt from the new secret by hand
    assert seen(z) == before_zed  # zed sees exactly the same pages
    assert seen(logged_in(del_)) != before_del  # the probe can fail: the thief's own page shows the card


def test_a_stolen_card_put_down_goes_back_to_its_owner(three, monkeypatch):
    game, del_, brian, zed = three
    arrange_hand(player(game, brian), [3, 3, 3, 3, 2, 2, 2])
    d, b, stolen = _steal(game, del_, brian, 3, monkeypatch)
    token = ghoul(game, 4)
    act(game, del_, "reveal", token=token.pk)
    # Initial Combat Value 1 + the stolen 2 or 3 does not reach the 5 needed: lost at once, the card put down
    # leaves the hand
    act(game, del_, "play", cards=[stolen["id"]])
    assert refresh(game).phase == "turn"
    d, b = player(game, del_), player(game, brian)
    assert stolen["owner_id"] in b.discard  # back to brian's discard pile
    assert stolen["id"] not in d.discard and all(c["id"] != stolen["id"] for c in d.deck)
    assert texts(game, "stolen-back") == [f"{stolen['name']} was stolen from brian: back to brian's discard pile."]


def test_a_stolen_card_discarded_at_replenishment_is_returned_and_not_replaced(three, monkeypatch):
    game, del_, brian, zed = three
    _brians_hand(game, brian)
    d, b, stolen = _steal(game, del_, brian, 5, monkeypatch)
    for user, action in ((del_, "end-turn"), (brian, "replenish"), (brian, "end-turn")):
        act(game, user, action)
    act(game, zed, "replenish")
    act(game, zed, "end-turn")
    d = player(game, del_)
    assert len(d.hand) == 8
    act(game, del_, "replenish", cards=[stolen["id"]])
    d, b = player(game, del_), player(game, brian)
    assert len(d.hand) == 7 and stolen["id"] not in d.hand  # seven own cards: nothing drawn in its place
    assert stolen["owner_id"] in b.discard
    assert texts(game, "stolen-back")[-1] == "del discards 1 stolen card: back to brian's discard pile, not replaced."


def test_a_stolen_wound_card_goes_back_when_healed(three, monkeypatch):
    game, del_, brian, zed = three
    _brians_hand(game, brian)
    d, b, stolen = _steal(game, del_, brian, 5, monkeypatch)
    d.hand = [i for i in d.hand if i != stolen["id"]]
    d.wounds = [stolen["id"]]
    d.save()
    kit = next(t for t in game.tokens.all() if t.kind == "first-aid")
    kit.revealed = True
    kit.save()
    act(game, del_, "first-aid", token=kit.pk)
    d, b = player(game, del_), player(game, brian)
    assert d.wounds == [] and stolen["owner_id"] in b.discard and stolen["id"] not in d.discard
    assert texts(game, "stolen-back") == ["1 stolen card in del's wound stack goes back to brian's discard pile."]


def test_the_steal_card_played_without_its_form_takes_nothing_and_says_so(three):
    game, del_, brian, zed = three
    act(game, del_, "replenish")
    act(game, del_, "card", card=give(player(game, del_), "steal"))
    assert texts(game, "card") == [
        "del plays Steal (Action): nothing is taken (settled at the table, e.g. cancelled by an Inaction)."
    ]
    assert "particularly the Steal card" not in " ".join(texts(game, "card"))


def test_steal_refusals(three, monkeypatch):
    game, del_, brian, zed = three
    act(game, del_, "replenish")
    steal = give(player(game, del_), "steal")
    with pytest.raises(services.GameError, match="^Name the opponent you steal from.$"):
        act(game, del_, "steal", card=steal, targets=["0"])
    with pytest.raises(services.GameError, match="^Name the opponent you steal from.$"):
        act(game, del_, "steal", card=steal)
    with pytest.raises(services.GameError, match="Name one opponent"):
        act(game, del_, "steal", card=steal, targets=["1", "2"])
    Player.objects.filter(game=game, user=brian).update(hand=[])
    with pytest.raises(services.GameError, match="^brian has no cards in hand: there is nothing to steal.$"):
        act(game, del_, "steal", card=steal, targets=["1"])
    debris = give(player(game, del_), "debris")
    with pytest.raises(services.GameError, match="Choose a Steal card"):
        act(game, del_, "steal", card=debris, targets=["2"])
    with pytest.raises(services.GameError, match="turn"):  # an Action card: on one's own turn only
        act(game, zed, "steal", card=give(player(game, zed), "steal"), targets=["2"])
    assert not Event.objects.filter(game=game, kind="steal").exists()
    assert steal in player(game, del_).hand
