"""Static files as production collects them (config.storage): hashed, compressed, the
stylesheet without its comments and the scripts without their comment lines; nobody
else's files touched."""

import gzip
import json
import re
import uuid
from pathlib import Path

import brotli
import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import override_settings

from bench.history import game_for
from config.storage import without_comment_lines, without_comments
from evenings import services as evening_services
from tests.test_compression import PHONE

SOURCE = settings.BASE_DIR / "static" / "css" / "app.css"


def test_comments_go_and_strings_that_look_like_one_stay():
    css = 'a { content: "/* no comment */"; } /* one */\n\n  \nb {\n  x: 1; } /* two,\n lines */\n'

    assert without_comments(css) == 'a { content: "/* no comment */"; }\nb {\nx: 1; }\n'


def test_a_script_loses_the_lines_that_are_only_a_comment():
    script = '// one\n  // two\nvar a = "http://x"; // after code\n\n  if (a) {\n    b = 1;\n  }\n'

    assert (
        without_comment_lines(script) == 'var a = "http://x"; // after code\nif (a) {\nb = 1;\n}\n'
    )


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    root = tmp_path_factory.mktemp("static")
    storages = {**settings.STORAGES, "staticfiles": {"BACKEND": "config.storage.StaticStorage"}}
    with override_settings(STATIC_ROOT=root, STORAGES=storages):
        call_command("collectstatic", interactive=False, verbosity=0)
    return root


def test_collected_the_stylesheet_keeps_every_rule_and_loses_its_comments(collected):
    tmp_path = collected

    (hashed,) = (tmp_path / "css").glob("app.*.css")
    served = hashed.read_text()
    source = SOURCE.read_text()
    assert "/*" not in served and "/*" in source
    # The rules are the source's, line for line, without what the comments took.
    uncommented = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
    assert served.split() == uncommented.split()
    assert len(served) < len(source) - 4000
    # What a phone is sent is that file compressed, in both encodings.
    assert gzip.decompress(hashed.with_name(hashed.name + ".gz").read_bytes()).decode() == served
    assert brotli.decompress(hashed.with_name(hashed.name + ".br").read_bytes()).decode() == served


def test_collected_a_script_keeps_its_code_and_others_files_are_as_they_were(collected):
    source = (settings.BASE_DIR / "static" / "js" / "evening.js").read_text()
    (hashed,) = (collected / "js").glob("evening.*.js")
    served = hashed.read_text()

    code = [line.strip() for line in source.splitlines()]
    assert served.splitlines() == [line for line in code if line and not line.startswith("//")]
    assert len(served) < len(source) - 1500
    assert brotli.decompress(hashed.with_name(hashed.name + ".br").read_bytes()).decode() == served
    # htmx and the admin's files, with their own comments, are served as they come.
    hashed_names = json.loads((collected / "staticfiles.json").read_text())["paths"]
    for name in ("django_htmx/htmx-2.js", "admin/js/core.js"):
        original = Path(finders.find(name)).read_text()
        assert (collected / hashed_names[name]).read_text() == original, name
        assert "//" in original


def test_the_cold_entry_screen_stays_within_its_30_kb(collected, client, admin, club, runde):
    """What a phone loads for its first look at an evening of 60 games: the page, in Brotli
    as Chromium asks for it, and every static file it names, as collected (issue #7's
    budget, 30 KB on the wire; bench/web_bench.py prints the same figure under load)."""
    seated = [club.players.get(), *(club.players.create(name=n) for n in ("Sepp", "Vroni"))]
    seated += [club.players.create(name=n) for n in ("Hias", "Wastl")]
    evening = evening_services.start_evening(runde, seated, 0, admin)
    for number in range(1, 61):
        deal = evening_services.next_deal(evening)
        evening_services.book(evening.pk, uuid.uuid4(), game_for(deal, number), admin, deal.token)
    client.force_login(admin)

    page = client.get(f"/abend/{evening.pk}/", headers={"Accept-Encoding": PHONE})

    assert page["Content-Encoding"] == "br"
    named = re.findall(r'(?:src|href)="/static/([^"]+)"', brotli.decompress(page.content).decode())
    # The other pages' rules (pages.css) are not among them.
    assert sorted(named) == [
        "css/app.css",
        "django_htmx/htmx-2.min.js",
        "favicon.svg",
        "js/evening.js",
        "js/site.js",
    ]
    hashed = json.loads((collected / "staticfiles.json").read_text())["paths"]
    files = [collected / hashed[name] for name in named]
    total = len(page.content) + sum(_sent(file) for file in files)
    assert total <= 30 * 1024, f"{total / 1024:.1f} KB"


def _sent(file: Path) -> int:
    """A collected file's bytes on the wire: its Brotli twin, if WhiteNoise made one."""
    packed = file.with_name(file.name + ".br")
    return (packed if packed.exists() else file).stat().st_size
