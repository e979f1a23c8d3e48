from django.urls import path

from evenings import views

app_name = "evenings"

urlpatterns = [
    path("verein/<int:club_id>/runde/<int:runde_id>/abend/neu/", views.start, name="start"),
    path(
        "verein/<int:club_id>/runde/<int:runde_id>/konten/",
        views.runde_balances,
        name="runde_balances",
    ),
    path(
        "verein/<int:club_id>/runde/<int:runde_id>/ausgleich/",
        views.ausgleich,
        name="ausgleich",
    ),
    path(
        "verein/<int:club_id>/runde/<int:runde_id>/csv/",
        views.runde_csv,
        name="runde_csv",
    ),
    path(
        "verein/<int:club_id>/runde/<int:runde_id>/zahlungen-csv/",
        views.runde_payments_csv,
        name="runde_payments_csv",
    ),
    path("abend/<int:evening_id>/", views.detail, name="detail"),
    path("abend/<int:evening_id>/drucken/", views.evening_print, name="print"),
    path("abend/<int:evening_id>/csv/", views.evening_csv, name="csv"),
    path("abend/<int:evening_id>/sitzordnung/", views.seats, name="seats"),
    path("abend/<int:evening_id>/buchen/", views.book, name="book"),
    path("abend/<int:evening_id>/vorschau/", views.preview, name="preview"),
    path("abend/<int:evening_id>/blatt/", views.sheet_poll, name="sheet"),
    path("abend/<int:evening_id>/spiel/<int:game_id>/", views.game_edit, name="game"),
    path(
        "abend/<int:evening_id>/spiel/<int:game_id>/vorschau/",
        views.correction_preview,
        name="correction_preview",
    ),
    path("abend/<int:evening_id>/spiel/<int:game_id>/streichen/", views.game_void, name="void"),
    path(
        "abend/<int:evening_id>/spiel/<int:game_id>/wiederherstellen/",
        views.restore,
        name="restore",
    ),
    path(
        "abend/<int:evening_id>/korrektur/<int:change_id>/zuruecknehmen/",
        views.uncorrect,
        name="uncorrect",
    ),
    path("abend/<int:evening_id>/zuruecknehmen/", views.undo, name="undo"),
    path("abend/<int:evening_id>/verlauf/", views.history, name="history"),
    path("abend/<int:evening_id>/abrechnung/", views.settlement, name="settlement"),
    path("abend/<int:evening_id>/zahlung/", views.payment, name="payment"),
    path(
        "abend/<int:evening_id>/zahlung/<int:change_id>/storno/",
        views.payment_cancel,
        name="payment_cancel",
    ),
    path("abend/<int:evening_id>/wieder-oeffnen/", views.reopen, name="reopen"),
    path("abend/<int:evening_id>/tarif/", views.evening_tariff, name="tariff"),
    path("abend/<int:evening_id>/zuschauer-link/", views.share, name="share"),
    # Tokens come from secrets.token_urlsafe, the slug alphabet: anything else (a NUL byte,
    # say) is no link of ours and is a 404 before it reaches a query.
    path("live/<slug:token>/", views.live, name="live"),
    path("live/<slug:token>/blatt/", views.live_poll, name="live_sheet"),
]
