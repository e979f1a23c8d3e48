from django.urls import path

from clubs import players, rules, views

app_name = "clubs"

urlpatterns = [
    path("verein/neu/", views.club_create, name="create"),
    path("verein/<int:club_id>/", views.club_detail, name="detail"),
    path("verein/<int:club_id>/name/", views.club_rename, name="rename"),
    path("verein/<int:club_id>/sicherung/", views.club_backup, name="backup"),
    path("verein/<int:club_id>/verlassen/", views.club_leave, name="leave"),
    path("verein/<int:club_id>/loeschen/", views.club_delete, name="delete"),
    path("verein/<int:club_id>/runden/neu/", views.runde_create, name="runde_create"),
    path("verein/<int:club_id>/runde/<int:runde_id>/", views.runde_detail, name="runde"),
    path(
        "verein/<int:club_id>/runde/<int:runde_id>/name/", views.runde_rename, name="runde_rename"
    ),
    path("verein/<int:club_id>/runde/<int:runde_id>/tarif/", views.tariff_edit, name="tariff"),
    path(
        "verein/<int:club_id>/runde/<int:runde_id>/tarif/vorschau/",
        views.tariff_preview,
        name="tariff_preview",
    ),
    path("verein/<int:club_id>/runde/<int:runde_id>/regeln/", rules.runde_rules, name="rules"),
    # The rules without a Runde, for anyone: the default tariff and the ProHof tournament.
    path("regeln/", rules.default_rules, name="rules_default"),
    path("regeln/prohof/", rules.prohof_rules, name="rules_prohof"),
    path("verein/<int:club_id>/spieler/", views.players, name="players"),
    path("verein/<int:club_id>/spieler/<int:player_id>/", views.player_edit, name="player"),
    path(
        "verein/<int:club_id>/spieler/<int:player_id>/loeschen/",
        views.player_delete,
        name="player_delete",
    ),
    path(
        "verein/<int:club_id>/spieler/<int:player_id>/uebersicht/",
        players.player_home,
        name="player_home",
    ),
    path(
        "verein/<int:club_id>/spieler/<int:player_id>/verlauf/",
        players.player_history,
        name="player_history",
    ),
    path("verein/<int:club_id>/mitglieder/", views.members, name="members"),
    path(
        "verein/<int:club_id>/mitglieder/<int:membership_id>/rolle/",
        views.member_role,
        name="member_role",
    ),
    path(
        "verein/<int:club_id>/mitglieder/<int:membership_id>/entfernen/",
        views.member_remove,
        name="member_remove",
    ),
    path("verein/<int:club_id>/einladungen/", views.invitation_create, name="invitation_create"),
    path(
        "verein/<int:club_id>/einladungen/<int:invitation_id>/widerrufen/",
        views.invitation_revoke,
        name="invitation_revoke",
    ),
    # Tokens come from secrets.token_urlsafe, the slug alphabet: anything else (a NUL byte,
    # say) is no link of ours and is a 404 before it reaches a query.
    path("einladung/<slug:token>/", views.join, name="join"),
]
