"""What Django's template language does not say itself."""

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def test_every_short_comment_closes_on_its_own_line():
    """`{# … #}` may not span lines: Django then prints it on the page as text (a comment
    over two lines did, on the tournament page)."""
    unclosed = [
        f"{path.relative_to(TEMPLATES)}:{number}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if len(re.findall(r"\{#", line)) != len(re.findall(r"#\}", line))
    ]

    assert unclosed == []
