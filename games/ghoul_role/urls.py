from django.urls import path

from games.ghoul_role import views

urlpatterns = [
    path("games/ghoul-role/", views.home, name="ghoulrole-home"),
    path("games/ghoul-role/<int:pk>/", views.sheet_detail, name="ghoulrole-sheet"),
    path("games/ghoul-role/<int:pk>/act/<slug:action>/", views.sheet_action, name="ghoulrole-action"),
    path("games/ghoul-role/<int:pk>/undo/", views.sheet_undo, name="ghoulrole-undo"),
    path("games/ghoul-role/<int:pk>/cards/<int:card_id>/name/", views.card_name, name="ghoulrole-card-name"),
    path("games/ghoul-role/<int:pk>/share/", views.sheet_share, name="ghoulrole-share"),
    path("games/ghoul-role/<int:pk>/delete/", views.sheet_delete, name="ghoulrole-delete"),
    path("games/ghoul-role/shared/<str:token>/", views.shared_sheet, name="ghoulrole-shared"),
]
