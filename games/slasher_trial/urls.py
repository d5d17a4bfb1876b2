from django.urls import path

from games.slasher_trial import views

urlpatterns = [
    path("games/trials/", views.trial_list, name="trial-list"),
    path("games/trials/<int:pk>/", views.trial_detail, name="trial-detail"),
    path("games/trials/<int:pk>/act/", views.trial_act, name="trial-act"),
    path("games/trials/<int:pk>/log/", views.trial_log, name="trial-log"),
    path("games/trials/join/<str:token>/", views.trial_join, name="trial-join"),
]
