"""PDF downloads; the project's urls.py includes these (``include("crewbuilder.urls_pdf")``)."""

from django.urls import path

from crewbuilder.views import pdfs

urlpatterns = [
    path("crews/<int:pk>/roster.pdf", pdfs.crew_roster, name="crew-roster"),
    path("s/<str:token>/roster.pdf", pdfs.crew_roster_shared, name="crew-roster-shared"),
    path("rules/<slug:system>/quick-reference.pdf", pdfs.quick_reference, name="quick-reference-pdf"),
]
