from django.urls import path

from games.ghoulash import views

urlpatterns = [
    path("games/ghoulash/", views.home, name="ghoulash-home"),
    path("games/ghoulash/boxes/<int:pk>/", views.box_detail, name="ghoulash-box"),
    path("games/ghoulash/boxes/<int:pk>/cards/", views.box_card_add, name="ghoulash-card-add"),
    path("games/ghoulash/boxes/<int:pk>/decks/", views.box_decks, name="ghoulash-box-decks"),
    path("games/ghoulash/boxes/<int:pk>/cards/<int:card_pk>/", views.box_card_edit, name="ghoulash-card-edit"),
    path(
        "games/ghoulash/boxes/<int:pk>/cards/<int:card_pk>/delete/", views.box_card_delete, name="ghoulash-card-delete"
    ),
    path("games/ghoulash/boxes/<int:pk>/decks.pdf", views.box_pdf, name="ghoulash-box-pdf"),
    path("games/ghoulash/games/<int:pk>/", views.game_detail, name="ghoulash-game"),
    path("games/ghoulash/games/<int:pk>/act/", views.game_act, name="ghoulash-game-act"),
    path("games/ghoulash/games/<int:pk>/log/", views.game_log, name="ghoulash-game-log"),
]
