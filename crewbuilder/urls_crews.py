from django.urls import path

from crewbuilder.views import crews

urlpatterns = [
    path("crews/", crews.crew_list, name="crew-list"),
    path("crews/new/", crews.crew_create, name="crew-create"),
    path("crews/import/", crews.crew_import, name="crew-import"),
    path("crews/<int:pk>/", crews.crew_detail, name="crew-detail"),
    path("crews/<int:pk>/edit/", crews.crew_edit, name="crew-edit"),
    path("crews/<int:pk>/edit/<slug:action>/", crews.crew_edit_action, name="crew-edit-action"),
    path("crews/<int:pk>/card/<int:character_id>/", crews.crew_card, name="crew-card"),
    path("crews/<int:pk>/pick/<int:character_id>/<slug:kind>/", crews.crew_picker, name="crew-picker"),
    path("crews/<int:pk>/export/", crews.crew_export, name="crew-export"),
    path("crews/<int:pk>/duplicate/", crews.crew_duplicate, name="crew-duplicate"),
    path("crews/<int:pk>/delete/", crews.crew_delete, name="crew-delete"),
    path("crews/<int:pk>/share/", crews.crew_share, name="crew-share"),
    path("s/<str:token>/", crews.crew_shared, name="crew-shared"),
]
