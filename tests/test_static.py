"""Static files as production collects them (config.storage): hashed, compressed, and the
stylesheet without its comments."""

import gzip
import re

import brotli
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

from config.storage import without_comments

SOURCE = settings.BASE_DIR / "static" / "css" / "app.css"


def test_comments_go_and_strings_that_look_like_one_stay():
    css = 'a { content: "/* no comment */"; } /* one */\n\n  \nb { x: 1; } /* two,\n lines */\n'

    assert without_comments(css) == 'a { content: "/* no comment */"; }\nb { x: 1; }\n'


def test_collected_the_stylesheet_keeps_every_rule_and_loses_its_comments(tmp_path):
    storages = {**settings.STORAGES, "staticfiles": {"BACKEND": "config.storage.StaticStorage"}}
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=storages):
        call_command("collectstatic", interactive=False, verbosity=0)

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
