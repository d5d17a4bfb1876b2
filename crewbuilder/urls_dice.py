from django.urls import path

from crewbuilder.views import dice

urlpatterns = [
    path("dice/", dice.dice_home, name="dice-home"),
    path("dice/attack/roll/", dice.attack_roll, name="dice-attack-roll"),
    path("dice/link/", dice.short_link, name="dice-short-link"),
    path("dice/r/<str:token>/", dice.stored_roll, name="dice-stored-roll"),
    path("dice/<slug:kind>/", dice.quick_roll, name="dice-quick"),
]
