"""Reading a club's export file (export_club, "Sicherung herunterladen"), without Django:
`make restore` reads it first (python -m clubs.export_file FILE), so that a file that
cannot be read makes no data directory."""

import json
import sys
from pathlib import Path
from typing import Any


class UnreadableExport(Exception):
    """The file cannot be read as an export; the message says why, for the operator."""


def read(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise UnreadableExport(f"Cannot read {path}: {error}") from error
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        # An export ends with its closing brace: a file that does not was cut off, as a
        # download broken off or a copy not finished leaves it.
        cut = "" if text.rstrip().endswith("}") else " The file ends early: it was cut off."
        raise UnreadableExport(f"Cannot read {path}: {error}.{cut}") from error


if __name__ == "__main__":
    try:
        read(Path(sys.argv[1]))
    except UnreadableExport as error:
        sys.exit(str(error))
