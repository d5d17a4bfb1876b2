from django.urls import path

from battles import views

urlpatterns = [
    path("", views.battle_list, name="battle-list"),
    path("campaign/<int:campaign_pk>/", views.campaign_battle, name="battle-campaign"),
    path("<int:pk>/", views.battle_detail, name="battle"),
    path("<int:pk>/join/", views.battle_join, name="battle-join"),
    path("<int:pk>/start/", views.battle_start, name="battle-start"),
    path("<int:pk>/act/", views.battle_act, name="battle-act"),
    path("<int:pk>/scenario/", views.battle_scenario, name="battle-scenario"),
    path("<int:pk>/game-master/", views.battle_game_master, name="battle-game-master"),
    path("<int:pk>/initiative/", views.battle_initiative, name="battle-initiative"),
    path("<int:pk>/share/", views.battle_share, name="battle-share"),
    path("<int:pk>/export.json", views.battle_export, name="battle-export"),
    path("shared/<str:token>/", views.battle_shared, name="battle-shared"),
]
