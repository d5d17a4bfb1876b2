from django.contrib import admin
from django.urls import include, path

from crewbuilder.views import account_settings, accounts, games, home, odds_api

urlpatterns = [
    path("", home.home, name="home"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/settings/", account_settings.account_settings, name="account-settings"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("crewbuilder.urls_crews")),
    path("", include("crewbuilder.urls_pdf")),
    path("", include("campaigns.urls")),
    path("", include("crewbuilder.urls_dice")),
    path("games/", games.games_home, name="games-home"),
    path("", include("soylent.urls")),
    path("", include("soylentgames.urls")),
    path("", include("ghoulrole.urls")),
    path("", include("ghoulash.urls")),
    path("", include("trials.urls")),
    path("api/odds/", odds_api.odds_endpoint, name="odds-api"),
    path("admin/", admin.site.urls),
]
