from django.contrib import admin
from django.urls import include, path

from crewbuilder.views import account_settings, accounts, games, home, odds_api

urlpatterns = [
    path("", home.home, name="home"),
    path("favicon.ico", home.favicon),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/settings/", account_settings.account_settings, name="account-settings"),
    path("accounts/password_reset/", accounts.password_reset, name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("crewbuilder.urls_crews")),
    path("", include("crewbuilder.urls_pdf")),
    path("", include("campaigns.urls")),
    path("", include("crewbuilder.urls_dice")),
    path("games/", games.games_home, name="games-home"),
    path("", include("games.soylent_ghoul.sets.urls")),
    path("", include("games.soylent_ghoul.play.urls")),
    path("", include("games.ghoul_role.urls")),
    path("", include("games.ghoulash.urls")),
    path("", include("games.slasher_trial.urls")),
    path("battles/", include("battles.urls")),
    path("api/odds/", odds_api.odds_endpoint, name="odds-api"),
    path("admin/", admin.site.urls),
]
