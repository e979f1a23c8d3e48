"""The admin saves the club's data on a phone: one tap on the club page, one JSON file."""

import json
import re
from pathlib import Path

from django.utils import timezone

from tests.browser.evening_screen import book, no_horizontal_scroll, start


def test_the_admin_downloads_the_clubs_backup_from_the_club_page(
    page, log_in, admin, club, runde, players
):
    evening = start(runde, players, ["Sepp", "Vroni", "Hias", "Resi"], admin)
    book(evening, admin, type="sauspiel", declarer=players["Vroni"].pk,
         partner=players["Resi"].pk, won=True)  # fmt: skip
    log_in(admin)
    page.goto(f"/verein/{club.pk}/")
    no_horizontal_scroll(page)

    with page.expect_download() as download:
        page.get_by_role("link", name="Sicherung herunterladen (JSON)").click()

    saved = download.value
    day = timezone.localdate().isoformat()
    assert saved.suggested_filename == f"schafkopffreunde-au-{day}.json"
    data = json.loads(Path(saved.path()).read_text(encoding="utf-8"))
    assert data["club"]["name"] == "Schafkopffreunde Au"
    ledger = {row["player_id"]: row["amount"] for row in data["tables"]["evenings.ledgerentry"]}
    assert ledger == {players["Vroni"].pk: 10, players["Resi"].pk: 10,
                      players["Sepp"].pk: -10, players["Hias"].pk: -10}  # fmt: skip
    assert not any("password" in row for row in data["tables"]["auth.user"])
    assert re.search(r"/verein/\d+/$", page.url)  # the page stays where it was
