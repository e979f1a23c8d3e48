"""The engine's promises about itself, checked on its source: no division in the amount
path, no float, no Decimal, no Django, no I/O outside the CLI, no clock.

Seed 001: "verteilt wird durch Multiplizieren mit drei — nie durch Teilen. Wo nicht geteilt
wird, muss nicht gerundet werden."
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "scoring"
# settlement.py is the payment proposal (another module's author, and the one place where
# rounding down is wanted); formatting.py splits finished amounts for display.
ENGINE = sorted(p for p in PACKAGE.glob("*.py") if p.name not in ("settlement.py", "formatting.py"))
DIVISION = (ast.Div, ast.FloorDiv, ast.Mod)
FORBIDDEN_NAMES = {"divmod", "float", "Decimal", "round", "open", "print", "input"}
FORBIDDEN_MODULES = {"django", "decimal", "fractions", "time", "datetime", "random", "os"}


def test_the_engine_modules_are_found() -> None:
    names = {p.name for p in ENGINE}
    assert {"engine.py", "model.py", "validation.py", "jsonio.py", "__main__.py"} <= names


@pytest.mark.parametrize("path", ENGINE, ids=lambda p: p.name)
def test_no_division_float_or_decimal_in_the_amount_path(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp | ast.AugAssign):
            assert not isinstance(node.op, DIVISION), f"{path.name}:{node.lineno} divides"
        if isinstance(node, ast.Name):
            assert node.id not in FORBIDDEN_NAMES, f"{path.name}:{node.lineno} uses {node.id}"
        if isinstance(node, ast.Constant):
            assert not isinstance(node.value, float), f"{path.name}:{node.lineno} float"


@pytest.mark.parametrize("path", ENGINE, ids=lambda p: p.name)
def test_no_django_no_clock_no_io_modules(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            modules = [node.module or ""]
        else:
            continue
        for module in modules:
            assert module.split(".")[0] not in FORBIDDEN_MODULES, f"{path.name} imports {module}"
            if module.split(".")[0] == "sys":
                assert path.name == "__main__.py", f"{path.name} imports sys"


def test_formatting_divides_only_in_format_cents() -> None:
    tree = ast.parse((PACKAGE / "formatting.py").read_text(encoding="utf-8"))
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    assert [f.name for f in functions] == ["format_cents"]
