from django.urls import path

from campaigns.views import campaigns, games

urlpatterns = [
    path("campaigns/", campaigns.campaign_list, name="campaign-list"),
    path("campaigns/<int:pk>/", campaigns.campaign_detail, name="campaign-detail"),
    path("campaigns/<int:pk>/invite/", campaigns.campaign_invite, name="campaign-invite"),
    path("campaigns/<int:pk>/respond/", campaigns.campaign_respond, name="campaign-respond"),
    path("campaigns/<int:pk>/enrol/", campaigns.campaign_enrol, name="campaign-enrol"),
    path(
        "campaigns/<int:pk>/enrolments/<int:request_id>/", campaigns.enrolment_decide, name="campaign-enrolment-decide"
    ),
    path("campaigns/<int:pk>/scenarios/", campaigns.scenario_create, name="campaign-scenario-create"),
    path("campaigns/<int:pk>/crew/", campaigns.crew_edit, name="campaign-crew-edit"),
    path("campaigns/<int:pk>/tables/", campaigns.table_create, name="campaign-table-create"),
    path("campaigns/<int:pk>/summary.pdf", campaigns.summary_pdf, name="campaign-summary-pdf"),
    path("campaigns/<int:pk>/history/", campaigns.campaign_history, name="campaign-history"),
    path("campaigns/<int:pk>/history/<int:entry_id>/reverse/", campaigns.history_reverse, name="history-reverse"),
    path("campaigns/<int:pk>/games/new/", games.game_create, name="game-create"),
    path("campaigns/<int:pk>/games/<int:game_id>/", games.game_detail, name="game-detail"),
    path("campaigns/<int:pk>/games/<int:game_id>/confirm/", games.game_confirm, name="game-confirm"),
    path("campaigns/<int:pk>/games/<int:game_id>/withdraw/", games.game_withdraw, name="game-withdraw"),
    path("campaigns/<int:pk>/shop/", games.crew_shop, name="campaign-shop"),
]
