"""``python -m scoring < evening.json > result.json``: the contract's stable CLI.

Reads one request on standard input and writes the response on standard output. Bad
input: exit status 2, nothing on standard output, one line on standard error naming
the game's position and the key, e.g. ``game 3: partner: must be one of the four players``.
"""

from __future__ import annotations

import sys
from typing import BinaryIO, TextIO

from scoring.errors import ScoringError
from scoring.jsonio import answer, dumps, load_request

EXIT_BAD_INPUT = 2


def main(stdin: BinaryIO, stdout: TextIO, stderr: TextIO) -> int:
    try:
        response = answer(load_request(stdin.read()))
    except ScoringError as err:
        # One line, whatever the input put into the message.
        line = str(err).replace("\r", "\\r").replace("\n", "\\n")
        stderr.write(line + "\n")
        return EXIT_BAD_INPUT
    stdout.write(dumps(response))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.stdin.buffer, sys.stdout, sys.stderr))
