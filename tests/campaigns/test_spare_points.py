"""QA report: "a Treasure Token buys 10 pts"; a knife (1 pt) spent a whole token and 9 points were lost.

A token's change is kept as spare points, spent before the next token (docs/campaigns.md, "Spending treasure").
"""

import re

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import CampaignCrew, HistoryEntry
from crewbuilder.models import Crew
from tests.crewbuilder.conftest import LEGAL

pytestmark = pytest.mark.django_db


@pytest.fixture
def shop(campaign, user, make_crew):
    """A crew of three with empty hands, 2 Treasure Tokens, in a campaign where a token buys 10 points."""
    campaign.treasure_value = 10
    campaign.save()
    specs = [{"name": name, "attributes": dict(LEGAL)} for name in ("Brute", "Ada", "Vex")]
    entry = services.enrol(campaign, user, make_crew(user, name="Saints", characters=specs))
    CampaignCrew.objects.filter(pk=entry.pk).update(treasury=2)
    entry.refresh_from_db()
    return entry, entry.crew.characters.get(name="Ada")


def _held(entry):
    entry.refresh_from_db()
    return entry.treasury, entry.spare_points, Crew.objects.get(pk=entry.crew_id).budget


def test_a_token_s_change_is_kept_as_spare_points(user, shop):
    entry, ada = shop
    bought = services.buy_gear(entry, user, ada.pk, "knife")
    assert _held(entry) == (1, 9, 151)
    assert bought.summary == "Saints bought knife (1 point) for 1 Treasure Token; 9 points kept as spare."
    assert (bought.before["spare_points"], bought.after["spare_points"]) == (0, 9)


def test_spare_points_are_spent_before_a_new_token(user, shop):
    entry, ada = shop
    services.buy_gear(entry, user, ada.pk, "knife")  # 2 tokens -> 1 token + 9
    second = services.buy_gear(entry, user, ada.pk, "sword")  # 4 of the 9 spare points
    assert _held(entry) == (1, 5, 155)
    assert second.summary == "Saints bought sword (4 points) for 4 spare points."
    third = services.buy_gear(entry, user, ada.pk, "spear")  # 5 points: the 5 spare points exactly
    assert _held(entry) == (1, 0, 160)
    assert third.summary == "Saints bought spear (5 points) for 5 spare points."


def test_spare_points_and_a_token_together(user, shop):
    entry, ada = shop
    CampaignCrew.objects.filter(pk=entry.pk).update(spare_points=3)
    entry.refresh_from_db()
    bought = services.buy_gear(entry, user, ada.pk, "spear")  # 5 = 3 spare + 1 token (10): 8 left over
    assert _held(entry) == (1, 8, 155)
    assert bought.summary == (
        "Saints bought spear (5 points) for 1 Treasure Token and 3 spare points; 8 points kept as spare."
    )


def test_refusal_counts_the_spare_points(user, shop):
    entry, ada = shop
    CampaignCrew.objects.filter(pk=entry.pk).update(treasury=0, spare_points=3)
    entry.refresh_from_db()
    with pytest.raises(
        services.CampaignError,
        match=r"^spear costs 5 points: the crew's 3 spare points and 1 Treasure Token; the treasury holds 0\.$",
    ):
        services.buy_gear(entry, user, ada.pk, "spear")
    assert _held(entry) == (0, 3, 150)


def test_hiring_keeps_the_change_too(user, shop):
    entry, _ = shop
    services.hire_character(entry, user, "Newcomer", LEGAL)  # 15 points = 2 tokens (20): 5 left over
    assert _held(entry) == (0, 5, 165)
    assert HistoryEntry.objects.get(kind="hire").summary == (
        "Saints hired Newcomer (15 points) for 2 Treasure Tokens; 5 points kept as spare."
    )


def test_reversing_a_purchase_gives_back_the_token_and_takes_back_the_change(user, shop):
    entry, ada = shop
    services.buy_gear(entry, user, ada.pk, "knife")
    reversal = services.reverse_entry(HistoryEntry.objects.get(kind="purchase"), user)
    assert _held(entry) == (2, 0, 150)
    assert (reversal.before["spare_points"], reversal.after["spare_points"]) == (9, 0)


def test_reversing_a_purchase_paid_with_spare_points_gives_them_back(user, shop):
    entry, ada = shop
    services.buy_gear(entry, user, ada.pk, "knife")
    services.buy_gear(entry, user, ada.pk, "sword")
    services.reverse_entry(HistoryEntry.objects.get(kind="purchase", after__item="sword"), user)
    assert _held(entry) == (1, 9, 151)


def test_reversal_refused_once_the_change_is_spent_then_allowed_in_order(user, shop):
    entry, ada = shop
    services.buy_gear(entry, user, ada.pk, "knife")  # 1 token + 9 spare
    services.buy_gear(entry, user, ada.pk, "sword")  # 1 token + 5 spare: 4 of the knife's change spent
    knife = HistoryEntry.objects.get(kind="purchase", after__item="knife")
    with pytest.raises(services.CampaignError, match="has 5 spare points and 9 would have to come out"):
        services.reverse_entry(knife, user)
    assert _held(entry) == (1, 5, 155)  # nothing applied
    services.reverse_entry(HistoryEntry.objects.get(kind="purchase", after__item="sword"), user)
    services.reverse_entry(knife, user)
    assert _held(entry) == (2, 0, 150)


def test_hire_reversal_takes_back_its_change(user, shop):
    entry, _ = shop
    services.hire_character(entry, user, "Newcomer", LEGAL)
    services.reverse_entry(HistoryEntry.objects.get(kind="hire"), user)
    assert _held(entry) == (2, 0, 150)


def test_a_purchase_logged_before_spare_points_reverses_as_before(user, shop):
    """An entry written when a token's change was lost has no spare points: its reversal refunds the token only."""
    entry, ada = shop
    bought = services.buy_gear(entry, user, ada.pk, "knife")
    CampaignCrew.objects.filter(pk=entry.pk).update(spare_points=0)  # as the old code left it
    for side in (bought.before, bought.after):
        del side["spare_points"]
    bought.save()
    services.reverse_entry(bought, user)
    assert _held(entry) == (2, 0, 150)


def test_the_shop_shows_the_spare_points_and_says_what_a_purchase_spent(client, user, shop):
    entry, ada = shop
    client.force_login(user)
    url = reverse("campaign-shop", args=[entry.campaign_id])
    html = client.get(url).content.decode()
    assert "When a token buys more than the price, the rest is kept as spare points" in html
    form = re.search(r'name="submission" value="([^"]+)"', html).group(1)
    page = client.post(url, {"submission": form, "character": ada.pk, "item": "knife"}, follow=True)
    html = page.content.decode()
    assert "Saints bought knife (1 point) for 1 Treasure Token; 9 points kept as spare." in html
    assert "Treasury: <strong>1</strong> Treasure Token, 10 points each, and <strong>9</strong> spare points." in html
    campaign_page = client.get(reverse("campaign-detail", args=[entry.campaign_id])).content.decode()
    assert "Spend treasure (1 + 9 spare pts)" in campaign_page


def test_history_says_1_point_and_the_spare_points(client, user, shop):
    entry, ada = shop
    services.buy_gear(entry, user, ada.pk, "knife")
    client.force_login(user)
    html = client.get(reverse("campaign-history", args=[entry.campaign_id])).content.decode()
    said = re.findall(r"<li>([^<]+)</li>", html)
    assert "Ada now carries knife, for 1 point." in said
    assert "The spare points of Saints (left over from Treasure Tokens spent) went from 0 to 9." in said
    assert not re.search(r"\b1 points", html)
