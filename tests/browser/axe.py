"""axe-core in the browser tests: `assert_accessible(page, name)` checks the page as it is
now against WCAG 2.1 A and AA (and axe's best practices) and fails on any serious or
critical violation, and on indistinguishable landmarks.

axe-core comes from npm (package.json; `make test` runs `npm ci`). Without it the checks
are skipped with a reason, except in CI (CI=true), where a missing axe-core is an error,
as a missing Chromium is in conftest.py.

The app's Content-Security-Policy allows no inline script, so a <script> tag with axe's
source would be refused; `page.evaluate` runs it through DevTools instead, which the
policy does not govern. Whatever the policy does refuse shows up as a console error and
fails the test through the page fixture.
"""

import functools
import os
import textwrap
from pathlib import Path

import pytest
from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]
AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"
OPTIONS = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"],
    },
    "resultTypes": ["violations"],
}
FAILING_IMPACTS = ("serious", "critical")
# Failing whatever their impact: two landmarks of one kind that a screen reader's landmark
# list cannot tell apart (axe rates that "moderate"; issue 8 asks for it all the same).
FAILING_RULES = ("landmark-unique",)


@functools.cache
def axe_source() -> str:
    return AXE_JS.read_text(encoding="utf-8")


def require_axe() -> None:
    """Skip the calling test without axe-core (fail in CI)."""
    if AXE_JS.is_file():
        return
    reason = (
        f"axe-core not installed ({AXE_JS.relative_to(ROOT)} is missing); "
        "`make test` installs it with npm (Debian/Ubuntu: `apt-get install npm`)"
    )
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


def violations(page: Page) -> list[dict]:
    """axe's violations on the page as it is now, of every impact."""
    require_axe()
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    results = page.evaluate("options => window.axe.run(document, options)", OPTIONS)
    return results["violations"]


def describe(found: list[dict]) -> str:
    """Each violation's rule, impact and help, then each offending element's selector and
    HTML, one paragraph per rule."""
    lines = []
    for violation in found:
        lines.append(f"- {violation['id']} ({violation['impact']}): {violation['help']}")
        lines.append(f"  {violation['helpUrl']}")
        for node in violation["nodes"]:
            lines.append(f"    at {' '.join(str(t) for t in node['target'])}")
            lines.append(textwrap.indent(textwrap.shorten(node["html"], 300), "      "))
            summary = node.get("failureSummary") or ""
            for line in summary.splitlines()[1:3]:  # the first two reasons are enough
                lines.append(f"      - {line.strip()}")
    return "\n".join(lines)


def assert_accessible(page: Page, name: str) -> None:
    """Fail if axe finds a serious or critical violation (or one of FAILING_RULES) on
    `page`, which shows `name`."""
    failing = [
        v for v in violations(page) if v["impact"] in FAILING_IMPACTS or v["id"] in FAILING_RULES
    ]
    assert not failing, (
        f"{name} ({page.url}) has {len(failing)} accessibility violation(s) of impact "
        f"{' or '.join(FAILING_IMPACTS)} or of {', '.join(FAILING_RULES)}:\n{describe(failing)}"
    )
