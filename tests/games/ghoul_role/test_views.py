"""The Ghoul role pages: new sheets through the form, the tracker, htmx partials, who may see what."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.ghoul_role.models import Event, GhoulSheet, TerrorCard
from tests.games.ghoul_role.conftest import with_version

HOME = "/games/ghoul-role/"
HX = {"HTTP_HX_REQUEST": "true"}


def _cave(**data):
    return {
        "kind": "cave",
        "cave-difficulty": "ghoul",
        "cave-variant": "4-players",
        "cave-players": "",
        **{f"cave-{k}": v for k, v in data.items()},
    }


def _vile(**data):
    post = {"kind": "vile", "vile-difficulty": "ghoul", "vile-variant": "knight", "vile-players": "3"}
    for face in range(1, 7):
        post[f"vile-movement_{face}"] = str(face)
        post[f"vile-attack_{face}"] = str((face + 1) // 2)
    post.update({f"vile-{k}": v for k, v in data.items()})
    return post


@pytest.fixture
def owner_client(client, owner, catalogue):
    client.force_login(owner)
    return client


def test_url_name_and_games_menu(owner_client):
    assert reverse("ghoulrole-home") == HOME
    page = owner_client.get("/games/")
    assert HOME in page.content.decode()


def test_home_needs_login(client, catalogue):
    response = client.get(HOME)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_home_lists_only_your_sheets(owner_client, make_sheet, stranger):
    mine = make_sheet()
    theirs = make_sheet(user=stranger, variant="solo-hard")
    page = owner_client.get(HOME).content.decode()
    assert "Gain 11 Fury" in page and mine.get_absolute_url() in page
    assert "Gain 9 Fury or smash 7 Crystals" not in page and theirs.get_absolute_url() not in page
    assert "Ragpicker (Easiest)" in page and "Hunter (Expert)" in page  # the difficulty choices
    assert "Knight vs. Ghoul" in page and "Vile Ghoul vs. Thief (vs. Cave)" in page


@pytest.mark.parametrize(
    "variant, players, fury",
    [
        ("knight-vs-ghoul", "", 9),
        ("4-players", "5", 12),
        ("3-players-any-2-roles-vs-ghoul", "", 10),
        ("4-players", "7", 14),
        ("solo-easy", "", 7),
    ],
)
def test_new_sheet_through_the_form(owner_client, owner, variant, players, fury):
    response = owner_client.post(HOME, _cave(variant=variant, players=players, name="Tuesday"))
    sheet = GhoulSheet.objects.get(owner=owner)
    assert response.status_code == 302 and response["Location"] == sheet.get_absolute_url()
    assert (sheet.fury_goal, sheet.name, sheet.kind, sheet.dice) == (fury, "Tuesday", "cave", 3)
    page = owner_client.get(sheet.get_absolute_url()).content.decode()
    assert f"gain {fury} fury" in page.lower()


@pytest.mark.parametrize(
    "difficulty, players, fury, dice",
    [
        ("ragpicker", "4", 9, 3),
        ("scavenger", "4", 10, 3),
        ("ghoul", "4", 11, 3),
        ("stalker", "4", 11, 2),
        ("hunter", "4", 12, 2),
        ("hunter", "6", 14, 2),
        ("hunter", "7", 14, 2),
    ],
)
def test_difficulty_through_the_form(owner_client, owner, difficulty, players, fury, dice):
    owner_client.post(HOME, _cave(difficulty=difficulty, players=players))
    sheet = GhoulSheet.objects.get(owner=owner)
    assert (sheet.fury_goal, sheet.dice) == (fury, dice)


@pytest.mark.parametrize(
    "data, message",
    [
        ({"players": "3"}, "4 to 7"),
        ({"players": ""}, "give the number of players"),
        ({"difficulty": "nightmare"}, "Select a valid choice"),
        ({"players": "9"}, "less than or equal to 7"),
    ],
)
def test_bad_new_sheet_answers_422(owner_client, data, message):
    response = owner_client.post(HOME, _cave(**data))
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not GhoulSheet.objects.exists()


def test_new_vile_sheet_through_the_form(owner_client, owner):
    response = owner_client.post(HOME, _vile(difficulty="hunter"))
    sheet = GhoulSheet.objects.get(owner=owner)
    assert response.status_code == 302
    assert (sheet.kind, sheet.kill_goal, sheet.kill_health, sheet.dice) == ("vile", "knight", 8, 2)
    assert sheet.chart == {str(f): [f, (f + 1) // 2] for f in range(1, 7)}
    page = owner_client.get(sheet.get_absolute_url()).content.decode()
    assert "Kill the Knight (she starts with 8 Health)" in page and "typed by you" in page


def test_vile_form_needs_the_chart_and_the_thief_stash(owner_client):
    post = _vile()
    del post["vile-attack_4"]
    response = owner_client.post(HOME, post)
    assert response.status_code == 422 and not GhoulSheet.objects.exists()
    response = owner_client.post(HOME, _vile(variant="vile-ghoul-vs-thief-vs-cave", players="2", thief_stash="4"))
    assert response.status_code == 422 and "5 or 6" in response.content.decode()
    owner_client.post(HOME, _vile(variant="vile-ghoul-vs-thief-vs-cave", players="2", thief_stash="6"))
    assert GhoulSheet.objects.get().crystal_goal == 7


def test_no_kind_answers_422(owner_client):
    assert owner_client.post(HOME, {"kind": "ghost"}).status_code == 422


# --- the tracker page ---------------------------------------------------------------------------


def test_sheet_page_shows_the_engines_odds(owner_client, make_sheet):
    page = owner_client.get(make_sheet().get_absolute_url()).content.decode()
    assert "35/216" in page and "16.2%" in page  # P(sum of 3 dice <= 7)
    assert re.search(r'<meter class="bar"[^>]*value="0\.162037"', page)
    assert "style=" not in page and "<style" not in page
    hard = owner_client.get(make_sheet(difficulty="stalker").get_absolute_url()).content.decode()
    assert "1/6" in hard and "16.7%" in hard  # P(sum of 2 dice <= 4)


def test_htmx_roll_returns_the_partial(owner_client, make_sheet):
    sheet = make_sheet()
    response = owner_client.post(f"{HOME}{sheet.pk}/act/roll/", with_version(sheet, {"backstab": "0"}), **HX)
    body = response.content.decode()
    assert response.status_code == 200 and "HX-Request" in response["Vary"]
    assert body.lstrip().startswith('<div id="sheet"') and "<html" not in body
    assert "Choose two dice" in body and "Keep" in body
    sheet.refresh_from_db()
    assert f"seed {sheet.events.first().seed}" in body


def test_the_dice_choice_preselects_the_best_pair(owner_client, make_sheet, monkeypatch):
    """ "The die with the higher value is your movement points, and the die with the lower value is your attack
    points": the pair preselected is the one no other beats on movement or attack (it was the first pair,
    whatever the dice)."""
    from games.ghoul_role import services

    from .test_services import _seed_for

    # rolls whose best pair is the last, the middle and the first one
    for wanted in (lambda r: r[0] < r[1] < r[2], lambda r: r[1] < r[0] < r[2], lambda r: r[2] < r[0] < r[1]):
        seed = _seed_for(3, wanted)
        monkeypatch.setattr(services.secrets, "randbits", lambda bits, seed=seed: seed)
        sheet = make_sheet()
        body = owner_client.post(f"{HOME}{sheet.pk}/act/roll/", with_version(sheet), **HX).content.decode()
        pairs = re.findall(
            r'<input type="radio" name="pair" value="(\d-\d)" required( checked)?> Keep \d and \d: '
            r"movement (\d+), attack (\d+)",
            body,
        )
        assert len(pairs) == 3 and [p[1] for p in pairs].count(" checked") == 1
        best = next(p for p in pairs if p[1])
        assert all(int(best[2]) >= int(p[2]) and int(best[3]) >= int(p[3]) for p in pairs)
    response = owner_client.post(f"{HOME}{sheet.pk}/act/choose/", with_version(sheet, {}), **HX)  # sent with no choice
    assert response.status_code == 422 and "Choose exactly two of the dice." in response.content.decode()


def test_full_turn_through_the_views(owner_client, make_sheet):
    sheet = make_sheet()
    owner_client.post(f"{HOME}{sheet.pk}/act/roll/", with_version(sheet), **HX)
    owner_client.post(f"{HOME}{sheet.pk}/act/choose/", with_version(sheet, {"pair": "0-1"}), **HX)
    sheet.refresh_from_db()
    assert sheet.phase == "act"
    sheet.movement, sheet.attack_discs = 4, 4
    sheet.save()
    owner_client.post(f"{HOME}{sheet.pk}/act/move/", with_version(sheet, {"wall": "1"}), **HX)
    owner_client.post(f"{HOME}{sheet.pk}/act/attack/", with_version(sheet, {"target": "dragon", "defense": "1"}), **HX)
    body = owner_client.post(f"{HOME}{sheet.pk}/act/end/", with_version(sheet), **HX).content.decode()
    sheet.refresh_from_db()
    assert (sheet.movement, sheet.fury, sheet.defense, sheet.phase) == (0, 1, 2, "roll")
    assert "End of turn 1: Defense 2." in body


def test_bad_action_answers_422_with_the_message(owner_client, make_sheet):
    sheet = make_sheet(phase="act", turn=1, movement=1, attack_discs=1)
    response = owner_client.post(
        f"{HOME}{sheet.pk}/act/attack/", with_version(sheet, {"target": "knight", "defense": "2"}), **HX
    )
    assert response.status_code == 422
    assert "costs 3 Ghoul discs" in response.content.decode()
    sheet.refresh_from_db()
    assert sheet.attack_discs == 1 and sheet.events.count() == 1
    # without htmx: the message and back to the page
    response = owner_client.post(
        f"{HOME}{sheet.pk}/act/attack/", with_version(sheet, {"target": "knight", "defense": "x"}), follow=True
    )
    assert "must be a whole number" in response.content.decode()


def test_the_ghouls_move_form_asks_the_defense_of_the_piece_attacked_at_once(owner_client, make_sheet):
    """GS19: the entry "to attack at once" needs 1 + that piece's defense in discs; too few answer 422, unpaid."""
    sheet = make_sheet(phase="act", turn=1, movement=3, attack_discs=1)
    body = owner_client.get(f"{HOME}{sheet.pk}/").content.decode()
    assert "The defense statistic of the piece I attack (if I attack at once)" in body
    assert "Attacking at once needs 1 + its defense in Ghoul discs (1 on your Attack space)" in body
    move = with_version(sheet, {"occupied": "1", "attacking": "1", "defense": "2"})
    response = owner_client.post(f"{HOME}{sheet.pk}/act/move/", move, **HX)
    assert response.status_code == 422 and "costs 3 Ghoul discs" in response.content.decode()
    sheet.refresh_from_db()
    assert sheet.movement == 3 and sheet.events.count() == 1


def test_unknown_action_is_404(owner_client, make_sheet):
    assert owner_client.post(f"{HOME}{make_sheet().pk}/act/teleport/").status_code == 404


def test_actions_need_post(owner_client, make_sheet):
    assert owner_client.get(f"{HOME}{make_sheet().pk}/act/roll/").status_code == 405


def test_terror_card_named_then_undo(owner_client, make_sheet):
    sheet = make_sheet(phase="act", turn=1, attack_discs=2, fury=1)
    owner_client.post(f"{HOME}{sheet.pk}/act/attack/", with_version(sheet, {"target": "unicorn", "defense": "0"}), **HX)
    card = TerrorCard.objects.get(sheet=sheet)
    body = owner_client.post(
        f"{HOME}{sheet.pk}/cards/{card.pk}/name/", with_version(sheet, {"name": "Hunt"}), **HX
    ).content.decode()
    assert 'value="Hunt"' in body and "even Fury" in body
    response = owner_client.post(f"{HOME}{sheet.pk}/cards/{card.pk}/name/", with_version(sheet, {"name": " "}), **HX)
    assert response.status_code == 422
    assert 'id="undo"' not in body  # a card drawn is final (GS12): no undo button, one line says why
    assert "The last action cannot be undone: it drew a Terror card, and a card drawn is final." in body
    response = owner_client.post(f"{HOME}{sheet.pk}/undo/", with_version(sheet), **HX)
    assert response.status_code == 422 and "a card drawn is final" in response.content.decode()
    sheet.refresh_from_db()
    assert (sheet.fury, sheet.attack_discs, TerrorCard.objects.count()) == (2, 1, 1)


def test_no_undo_button_after_a_roll(owner_client, make_sheet):
    sheet = make_sheet()
    page = owner_client.post(f"{HOME}{sheet.pk}/act/roll/", with_version(sheet), **HX).content.decode()
    assert 'id="undo"' not in page and "it rolled dice, and a roll is final" in page
    assert owner_client.post(f"{HOME}{sheet.pk}/undo/", with_version(sheet), **HX).status_code == 422
    sheet.refresh_from_db()
    roll = sheet.roll
    page = owner_client.post(
        f"{HOME}{sheet.pk}/act/choose/", with_version(sheet, {"pair": "0-1"}), **HX
    ).content.decode()
    assert 'id="undo"' in page and 'id="undo-final"' not in page  # bookkeeping can be taken back
    owner_client.post(f"{HOME}{sheet.pk}/undo/", with_version(sheet), **HX)
    sheet.refresh_from_db()
    assert sheet.roll == roll and sheet.phase == "choose"


def test_vile_prepare_takes_backstab_cubes(owner_client, make_sheet):
    sheet = make_sheet("vile", variant="knight", players=3)
    page = owner_client.get(sheet.get_absolute_url()).content.decode()
    assert 'name="backstab"' in page.split('id="prepare-heading"')[1].split("</section>")[0]
    page = owner_client.post(
        f"{HOME}{sheet.pk}/act/prepare/", with_version(sheet, {"backstab": "1"}), **HX
    ).content.decode()
    assert "Backstab: −1 movement this turn" in page
    sheet.refresh_from_db()
    face = sheet.supply[0]
    owner_client.post(f"{HOME}{sheet.pk}/act/select/", with_version(sheet, {"face": str(face)}), **HX)
    sheet.refresh_from_db()
    assert sheet.movement == max(face - 1, 0)  # the test chart's Movement is the face


# --- permissions ------------------------------------------------------------------------------------


def test_other_users_get_404_everywhere(client, make_sheet, stranger):
    sheet = make_sheet()
    sheet_card = TerrorCard.objects.create(sheet=sheet, drawn_turn=0, reason="manual")
    client.force_login(stranger)
    assert client.get(sheet.get_absolute_url()).status_code == 404
    assert client.get(sheet.get_absolute_url(), **HX).status_code == 404
    for url in (
        f"{HOME}{sheet.pk}/act/roll/",
        f"{HOME}{sheet.pk}/undo/",
        f"{HOME}{sheet.pk}/share/",
        f"{HOME}{sheet.pk}/delete/",
        f"{HOME}{sheet.pk}/cards/{sheet_card.pk}/name/",
    ):
        assert client.post(url, {"name": "x", "share": "1"}).status_code == 404, url
    sheet.refresh_from_db()
    assert (sheet.turn, sheet.share_token, Event.objects.count()) == (0, "", 1)
    assert GhoulSheet.objects.filter(pk=sheet.pk).exists()


def test_anonymous_is_sent_to_log_in(client, make_sheet):
    sheet = make_sheet()
    assert client.get(sheet.get_absolute_url()).status_code == 302
    assert client.post(f"{HOME}{sheet.pk}/act/roll/", with_version(sheet)).status_code == 302
    sheet.refresh_from_db()
    assert sheet.turn == 0


def test_read_only_link(owner_client, make_sheet, owner, stranger):
    client = Client()
    sheet = make_sheet()
    owner_client.post(f"{HOME}{sheet.pk}/share/", {"share": "1"})
    sheet.refresh_from_db()
    assert sheet.share_token
    url = reverse("ghoulrole-shared", args=[sheet.share_token])
    assert url in owner_client.get(sheet.get_absolute_url()).content.decode()
    page = client.get(url).content.decode()
    assert "Gain 11 Fury" in page and "read-only copy of ghoul" in page
    assert "<form" not in page.split('id="sheet"')[1]  # nothing to change
    assert client.get(reverse("ghoulrole-shared", args=["nope"])).status_code == 404
    owner_client.post(f"{HOME}{sheet.pk}/share/", {"share": "0"})
    assert client.get(url).status_code == 404


def test_owner_deletes(owner_client, make_sheet):
    sheet = make_sheet()
    response = owner_client.post(f"{HOME}{sheet.pk}/delete/")
    assert response.status_code == 302 and not GhoulSheet.objects.exists()


# --- query budget ---------------------------------------------------------------------------------


@pytest.mark.parametrize("cards", [2, 8])
def test_sheet_page_query_budget_does_not_grow(owner_client, make_sheet, django_assert_num_queries, cards):
    sheet = make_sheet(phase="act", turn=1, movement=20, attack_discs=9)
    for n in range(cards):
        owner_client.post(f"{HOME}{sheet.pk}/act/draw/", with_version(sheet))
        owner_client.post(f"{HOME}{sheet.pk}/act/move/", with_version(sheet))
    # sheet, cards, events (the session and the user from the cache)
    with django_assert_num_queries(3):
        response = owner_client.get(sheet.get_absolute_url())
    assert response.content.decode().count('class="terror-card"') == cards


@pytest.mark.parametrize("cards", [2, 8])
def test_vile_page_query_budget_does_not_grow(owner_client, make_sheet, django_assert_num_queries, cards):
    sheet = make_sheet("vile", variant="knight", players=3)
    for n in range(cards):
        owner_client.post(f"{HOME}{sheet.pk}/act/draw/", with_version(sheet))
    with django_assert_num_queries(3):
        owner_client.get(sheet.get_absolute_url(), **HX)


def _draw_named(client, sheet, name: str) -> TerrorCard:
    """Draw the sheet's one Terror card and write its name on it."""
    client.post(f"{HOME}{sheet.pk}/act/draw/", with_version(sheet), **HX)
    card = TerrorCard.objects.get(sheet=sheet)
    client.post(f"{HOME}{sheet.pk}/cards/{card.pk}/name/", with_version(sheet, {"name": name}), **HX)
    return card


def test_a_during_this_turn_card_is_shown_in_play(owner_client, make_sheet):
    sheet = make_sheet(phase="act", turn=1, movement=3, attack_discs=3)
    card = _draw_named(owner_client, sheet, "Hunt")
    page = owner_client.get(sheet.get_absolute_url()).content.decode()
    assert 'name="during"' in page and "/act/use/" in page
    page = owner_client.post(
        f"{HOME}{sheet.pk}/act/play/", with_version(sheet, {"card": str(card.pk), "during": "1"}), **HX
    ).content.decode()
    assert "In play until the end of this turn: Hunt" in page
    response = owner_client.post(f"{HOME}{sheet.pk}/act/use/", with_version(sheet, {"card": str(card.pk)}), **HX)
    assert response.status_code == 422


# --- the Terror deck (GS15, GS16) -----------------------------------------------------------------


def test_the_page_counts_the_terror_deck_and_stops_at_thirteen(owner_client, make_sheet):
    sheet = make_sheet(phase="act", turn=1, movement=3, attack_discs=3)
    page = owner_client.get(sheet.get_absolute_url()).content.decode()
    assert "Terror deck: 13 of 13 cards left." in page and "/act/draw/" in page
    TerrorCard.objects.bulk_create([TerrorCard(sheet=sheet, drawn_turn=1, reason="manual") for _ in range(12)])
    page = owner_client.post(f"{HOME}{sheet.pk}/act/draw/", with_version(sheet), **HX).content.decode()
    assert "Terror deck: 0 of 13 cards left: no more cards can be drawn." in page
    assert "/act/draw/" not in page and 'id="deck-empty"' in page
    response = owner_client.post(f"{HOME}{sheet.pk}/act/draw/", with_version(sheet), **HX)
    assert response.status_code == 422 and "The Terror deck is empty" in response.content.decode()
    assert TerrorCard.objects.filter(sheet=sheet).count() == 13


def test_a_pickpocketed_card_goes_back_into_the_deck(owner_client, make_sheet):
    sheet = make_sheet(phase="act", turn=1, movement=3, attack_discs=3)
    card = _draw_named(owner_client, sheet, "Drawn")
    page = owner_client.get(sheet.get_absolute_url()).content.decode()
    assert f'id="discard-why-{card.pk}"' in page and 'value="pickpocket"' in page and 'value="scratch"' in page
    page = owner_client.post(
        f"{HOME}{sheet.pk}/act/discard/", with_version(sheet, {"card": str(card.pk), "why": "pickpocket"}), **HX
    ).content.decode()
    assert "Terror deck: 13 of 13 cards left." in page
    assert "Gone: Drawn (shuffled back into the Terror deck)" in page
    response = owner_client.post(
        f"{HOME}{sheet.pk}/act/discard/", with_version(sheet, {"card": str(card.pk), "why": "nope"}), **HX
    )
    assert response.status_code == 422


def test_thief_loot_field_and_defense_help(owner_client, make_sheet):
    sheet = make_sheet(phase="act", turn=1, movement=3, attack_discs=3)
    page = owner_client.get(sheet.get_absolute_url()).content.decode()
    assert 'name="loot"' in page and 'name="unattackable"' in page
    vile = make_sheet("vile", variant="knight", players=3, phase="act", turn=1, movement=3, attack_discs=3)
    assert 'name="unattackable"' in owner_client.get(vile.get_absolute_url()).content.decode()
    page = owner_client.post(f"{HOME}{sheet.pk}/act/end/", with_version(sheet), **HX).content.decode()
    assert "can enter your space only if that statistic is greater than your Defense 3" in page


@pytest.mark.parametrize("sheets", [1, 6])
def test_home_page_query_budget(owner_client, make_sheet, django_assert_num_queries, sheets):
    """Issue 20: the home loaded the catalogue once per section (15 queries); every page stays within 12.
    The catalogue's edition and its sections, the user's sheets (the session and the user from the cache)."""
    for _ in range(sheets):
        make_sheet()
    owner_client.get(HOME)  # the first page after signing in reads the user
    with django_assert_num_queries(3):
        response = owner_client.get(HOME)
    assert response.status_code == 200 and response.content.decode().count("/games/ghoul-role/") >= sheets
    # a form sent with an error: the same page, with the same queries
    with django_assert_num_queries(3):
        response = owner_client.post(HOME, _cave(difficulty="nope"))
    assert response.status_code == 422


def test_the_spend_help_offers_flare_only_where_the_variant_gives_it(owner_client, make_sheet):
    """ "Give the Ghoul the *Flare* Variant card. The Ghoul may target its current space with *Flare*, spending
    1 movement point each time" (Cave vs. Ghoul); Knight vs. Ghoul gives the Ghoul only Past Plunder."""
    cave = make_sheet(variant="cave-vs-ghoul", phase="act", turn=1, movement=3, attack_discs=1)
    page = owner_client.get(cave.get_absolute_url()).content.decode()
    assert "or Flare on your own space (1 each time)." in page
    knight = make_sheet(variant="knight-vs-ghoul", phase="act", turn=1, movement=3, attack_discs=1)
    page = owner_client.get(knight.get_absolute_url()).content.decode()
    assert "For a Terror card's effect.</p>" in page and "Flare on your own space" not in page
    vile = make_sheet("vile", variant="vile-ghoul-vs-cave", players=2, phase="act", turn=1, movement=3)
    page = owner_client.get(vile.get_absolute_url()).content.decode()
    assert "Flare on your own space if your variant gives you the Flare card (1 each time)" in page


def test_the_heading_names_the_turn_the_sheet_is_in(owner_client, make_sheet):
    from games.ghoul_role.models import GhoulSheet

    def heading(sheet):
        page = owner_client.get(sheet.get_absolute_url()).content.decode()
        return page.split('id="status-heading">')[1].split("</h2>")[0], page

    assert heading(make_sheet())[0] == "Turn 1 · Roll and Set Statistics"  # no turn played yet
    # the Vile Ghoul's turn 1 ended: the Prepare Board begins turn 2, and the Knight attacked in turn 1 is free
    vile = make_sheet("vile", variant="knight", players=3, phase=GhoulSheet.PREPARE, turn=1, attacked=["Knight"])
    text, page = heading(vile)
    assert text == "Turn 2 · Prepare Board" and "Attacked this turn" not in page
    vile.phase = GhoulSheet.ACT
    vile.save(update_fields=["phase"])
    text, page = heading(vile)
    assert text == "Turn 1 · Move and Act" and "Attacked this turn: Knight" in page
