"""Drone sets of Soylent Ghoul (the game tracker is soylentgames/)."""

from django.urls import path

from . import views

urlpatterns = [
    path("games/soylent/", views.soylent_home, name="soylent-home"),
    path("games/soylent/sets/<int:pk>/", views.set_detail, name="soylent-set-detail"),
    path("games/soylent/sets/<int:pk>/edit/<slug:action>/", views.set_edit, name="soylent-set-edit"),
    path("games/soylent/sets/<int:pk>/redeal/", views.set_redeal, name="soylent-set-redeal"),
    path("games/soylent/sets/<int:pk>/share/", views.set_share, name="soylent-set-share"),
    path("games/soylent/sets/<int:pk>/delete/", views.set_delete, name="soylent-set-delete"),
    path("games/soylent/sets/<int:pk>/export/", views.set_export, name="soylent-set-export"),
    path("games/soylent/sets/<int:pk>/cards.pdf", views.cards_pdf, name="soylent-set-cards-pdf"),
    path("games/soylent/sets/<int:pk>/tokens.pdf", views.tokens_pdf, name="soylent-set-tokens-pdf"),
    path("games/soylent/sets/<int:pk>/key.pdf", views.key_pdf, name="soylent-set-key-pdf"),
    path("games/soylent/s/<str:token>/", views.set_shared, name="soylent-set-shared"),
    path("games/soylent/s/<str:token>/cards.pdf", views.shared_cards_pdf, name="soylent-set-shared-cards-pdf"),
    path("games/soylent/s/<str:token>/tokens.pdf", views.shared_tokens_pdf, name="soylent-set-shared-tokens-pdf"),
]
