from django.urls import path

from games.soylent_ghoul.play import views

urlpatterns = [
    path("games/soylent/games/", views.game_list, name="soylent-game-list"),
    path("games/soylent/games/<int:pk>/", views.game_detail, name="soylent-game"),
    path("games/soylent/games/<int:pk>/join/", views.game_join, name="soylent-game-join"),
    path("games/soylent/games/<int:pk>/leave/", views.game_decline, name="soylent-game-leave"),
    path("games/soylent/games/<int:pk>/invite/", views.game_invite, name="soylent-game-invite"),
    path("games/soylent/games/<int:pk>/start/", views.game_start, name="soylent-game-start"),
    path("games/soylent/games/<int:pk>/act/", views.game_act, name="soylent-game-act"),
    path("games/soylent/games/<int:pk>/key/", views.game_key, name="soylent-game-key"),
    path("games/soylent/games/<int:pk>/log/", views.game_log, name="soylent-game-log"),
]
