from django.urls import include, path

from tournaments import views

app_name = "tournaments"

# Everything of one tournament, under turnier/<id>/; its rounds under runde/<n>/.
round_urls = [
    path("karten/", views.cards, name="cards"),
    path("tauschen/", views.swap, name="swap"),
    path("schreiber/", views.scorekeepers, name="scorekeepers"),
    path("starten/", views.start, name="start"),
    path("tisch/<int:table>/beenden/", views.end_table, name="end_table"),
]
tournament_urls = [
    path("", views.tournament_detail, name="detail"),
    path("neu/", views.news, name="news"),
    path("einstellungen/", views.tournament_settings, name="settings"),
    path("loeschen/", views.tournament_delete, name="delete"),
    path("teilnehmer/", views.participants_add, name="participants"),
    path("teilnehmer/<int:participant_id>/entfernen/", views.participant_remove, name="remove"),
    path(
        "teilnehmer/<int:participant_id>/wieder-aufnehmen/",
        views.participant_reinstate,
        name="reinstate",
    ),
    path("gast/", views.guest_add, name="guest"),
    path("auslosen/", views.draw, name="draw"),
    path("runde/<int:number>/", include(round_urls)),
    path("abschliessen/", views.finish, name="finish"),
    path("wieder-oeffnen/", views.reopen, name="reopen"),
    path("rangliste/", views.ranking, name="ranking"),
    path("rangliste.csv", views.ranking_csv, name="csv"),
    path("hallenanzeige/", views.display_link, name="display_link"),
]

urlpatterns = [
    path("verein/<int:club_id>/turniere/", views.tournament_list, name="list"),
    path("verein/<int:club_id>/turniere/neu/", views.tournament_create, name="create"),
    path("verein/<int:club_id>/saison/<int:season_id>/", views.season, name="season"),
    path("turnier/<int:tournament_id>/", include(tournament_urls)),
    # Tokens come from secrets.token_urlsafe, the slug alphabet: anything else is no link
    # of ours and is a 404 before it reaches a query.
    path("halle/<slug:token>/", views.hall, name="hall"),
]
