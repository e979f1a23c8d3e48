from django.contrib import admin
from django.urls import include, path

from clubs import views as club_views

urlpatterns = [
    path("", club_views.start, name="start"),
    path("", include("clubs.urls")),
    path("", include("evenings.urls")),
    path("", include("tournaments.urls")),
    path("healthz", club_views.healthz, name="healthz"),
    path("konto/", include("clubs.account_urls")),
    path("betrieb/", admin.site.urls),
]

handler404 = "clubs.views.not_found"
