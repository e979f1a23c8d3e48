"""Static files as production collects them (config.storage): hashed, compressed, the
stylesheet without its comments and the scripts without their comment lines; nobody
else's files touched."""

import gzip
import json
import re
from pathlib import Path

import brotli
import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import override_settings

from config.storage import without_comment_lines, without_comments

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
