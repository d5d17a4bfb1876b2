"""Campaign text is bounded (issue 17, finding 8): a description of 900 KB made
every member's campaign page 904 KB."""

import pytest
from django.urls import reverse

from campaigns import services
from campaigns.models import CAMPAIGN_TEXT_MAX, Campaign

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("field", ["description", "house_rules"])
def test_an_overlong_text_is_refused_with_its_limit_and_kept(client, user, catalogue, field):
    client.force_login(user)
    text = "x" * (CAMPAIGN_TEXT_MAX + 1)
    response = client.post(reverse("campaign-list"), {"name": "Long", "starting_budget": 150, field: text})
    assert response.status_code == 422
    html = response.content.decode()
    assert f"at most {CAMPAIGN_TEXT_MAX} characters" in html
    assert text in html  # the player's text is sent back, not lost
    assert not Campaign.objects.exists()


def test_the_longest_allowed_texts_are_saved(client, user, catalogue):
    client.force_login(user)
    text = "y" * CAMPAIGN_TEXT_MAX
    response = client.post(
        reverse("campaign-list"), {"name": "Long", "starting_budget": 150, "description": text, "house_rules": text}
    )
    campaign = Campaign.objects.get()
    assert response.status_code == 302 and campaign.description == campaign.house_rules == text
    page = client.get(campaign.get_absolute_url()).content
    assert len(page) < 2 * CAMPAIGN_TEXT_MAX + 30_000  # the two texts and the page around them


def test_the_service_refuses_an_overlong_description_too(user, catalogue):
    with pytest.raises(services.CampaignError, match=f"the limit is {CAMPAIGN_TEXT_MAX}"):
        services.create_campaign(user, name="Long", system=catalogue, description="z" * (CAMPAIGN_TEXT_MAX + 1))
    with pytest.raises(services.CampaignError, match=r"U\+0007, a control character"):
        services.create_campaign(user, name="Bell", system=catalogue, house_rules="ring \x07")
    assert not Campaign.objects.exists()


def test_a_service_refusal_is_a_message_on_the_form_not_a_500(client, user, catalogue):
    client.force_login(user)
    response = client.post(reverse("campaign-list"), {"name": "Bell", "starting_budget": 150, "description": "a\x07"})
    assert response.status_code == 422 and "U+0007, a control character" in response.content.decode()
