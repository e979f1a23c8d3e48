"""Shared setup of the scoring tests (plain Python: run with ``-p no:django``)."""

from __future__ import annotations

import sys
from pathlib import Path

# The hypothesis strategies live beside the tests (scoring_strategies.py); make them
# importable whatever import mode pytest runs in.
HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
