"""A double click or a retried request spends Treasure once (the class of
issue 17's finding 7, for the other forms that create or spend)."""

import re

import pytest
from django.urls import reverse

from campaigns import idempotency, services
from campaigns.models import CampaignCrew, HistoryEntry
from crewbuilder.models import CharacterGear

pytestmark = pytest.mark.django_db


def _shop_token(client, campaign) -> str:
    html = client.get(reverse("campaign-shop", args=[campaign.pk])).content.decode()
    tokens = set(re.findall(r'name="submission" value="([^"]+)"', html))
    assert len(tokens) == 1
    return tokens.pop()


@pytest.fixture
def rich(campaign, two_crews):
    mine, _ = two_crews
    CampaignCrew.objects.filter(pk=mine.pk).update(treasury=10)
    return mine


def _swords(entry, character):
    return sum(g.copies for g in CharacterGear.objects.filter(character=character, item__slug="sword"))


def test_a_double_click_on_buy_spends_once(client, campaign, user, rich):
    character = rich.crew.characters.first()
    client.force_login(user)
    data = {"character": character.pk, "item": "sword", "submission": _shop_token(client, campaign)}
    before = _swords(rich, character)
    client.post(reverse("campaign-shop", args=[campaign.pk]), data)
    response = client.post(reverse("campaign-shop", args=[campaign.pk]), data, follow=True)
    assert "the form was sent twice, and counted once" in response.content.decode()
    assert _swords(rich, character) == before + 1
    assert CampaignCrew.objects.get(pk=rich.pk).treasury == 9  # a sword is 4 points, a token 5
    assert HistoryEntry.objects.filter(kind="purchase").count() == 1
    # the reloaded page carries a new token: a second sword is a second purchase
    client.post(reverse("campaign-shop", args=[campaign.pk]), {**data, "submission": _shop_token(client, campaign)})
    assert _swords(rich, character) == before + 2


def test_a_double_click_on_hire_hires_once(client, campaign, user, rich):
    client.force_login(user)
    data = {
        "hire": "1",
        "name": "Newcomer",
        "strength": 1,
        "toughness": 1,
        "agility": 1,
        "intellect": -1,
        "discipline": -1,
        "submission": _shop_token(client, campaign),
    }
    for _ in range(2):
        client.post(reverse("campaign-shop", args=[campaign.pk]), data)
    assert rich.crew.characters.filter(name="Newcomer").count() == 1
    assert HistoryEntry.objects.filter(kind="hire").count() == 1


def test_a_refused_purchase_keeps_its_token_usable(client, campaign, user, two_crews):
    """Nothing was spent, so sending the same form again (after earning treasure) buys."""
    mine, _ = two_crews
    character = mine.crew.characters.first()
    client.force_login(user)
    data = {"character": character.pk, "item": "sword", "submission": _shop_token(client, campaign)}
    response = client.post(reverse("campaign-shop", args=[campaign.pk]), data, follow=True)
    assert "the treasury holds 0" in response.content.decode()
    CampaignCrew.objects.filter(pk=mine.pk).update(treasury=1)
    before = _swords(mine, character)
    client.post(reverse("campaign-shop", args=[campaign.pk]), data)
    assert _swords(mine, character) == before + 1


def test_forms_without_a_token_are_acted_on(campaign, user, rich):
    """Two identical purchases are legitimate: without a token, nothing is deduplicated."""
    character = rich.crew.characters.first()
    before = _swords(rich, character)
    for _ in range(2):
        services.buy_gear(rich, user, character.pk, "sword")
    assert _swords(rich, character) == before + 2
    with pytest.raises(idempotency.AlreadySubmitted):
        for _ in range(2):
            services.buy_gear(rich, user, character.pk, "sword", submission_key="k" * 64)
    assert _swords(rich, character) == before + 3


def test_a_double_click_starts_one_campaign(client, user, catalogue):
    from campaigns.models import Campaign

    client.force_login(user)
    html = client.get(reverse("campaign-list")).content.decode()
    token = re.search(r'name="submission" value="([^"]+)"', html).group(1)
    data = {"name": "The Rust Road", "starting_budget": 150, "submission": token}
    first = client.post(reverse("campaign-list"), data)
    second = client.post(reverse("campaign-list"), data, follow=True)
    assert Campaign.objects.count() == 1 and first.url == Campaign.objects.get().get_absolute_url()
    assert "one campaign was created" in second.content.decode()


def _form_as_a_browser_sends_it(html: str) -> list[tuple[str, str]]:
    """Every named input of the start-a-campaign form, in page order, as the browser posts them."""
    form = html.split('<h2 id="new-heading"', 1)[1].split("</form>", 1)[0]
    pairs = []
    for tag in re.findall(r"<(?:input|textarea)\b[^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        if name:
            value = re.search(r'value="([^"]*)"', tag)
            pairs.append((name.group(1), value.group(1) if value else ""))
    return pairs


def test_the_start_a_campaign_form_carries_its_token_once_hidden(client, user, catalogue):
    """The token was also shown as a "Submission" text box, posted empty after it: a double click
    in a real browser started two campaigns."""
    from campaigns.models import Campaign

    client.force_login(user)
    html = client.get(reverse("campaign-list")).content.decode()
    assert '<label for="id_submission">' not in html
    sent = _form_as_a_browser_sends_it(html)
    tokens = [value for name, value in sent if name == "submission"]
    assert len(tokens) == 1 and tokens[0]
    data: dict[str, list[str]] = {}  # a name sent twice is posted twice, as the browser does
    for name, value in sent:
        data.setdefault(name, []).append(value)
    data["name"] = ["The Rust Road"]
    client.post(reverse("campaign-list"), data)
    second = client.post(reverse("campaign-list"), data, follow=True)
    assert Campaign.objects.count() == 1
    assert "one campaign was created" in second.content.decode()
