"""With production values, Django's deployment check has nothing to say."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def check_deploy(**env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG", "DATABASE_URL"}}
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        env=base | env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


PRODUCTION = {
    "DEBUG": "off",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "schafkopf.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://schafkopf.example.org",
    "HTTPS": "on",
    "EMAIL_HOST": "smtp.example.org",
}


def test_the_deploy_check_passes_with_production_values():
    result = check_deploy(**PRODUCTION)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout
    assert "WARNING" not in result.stdout + result.stderr


def test_the_deploy_check_warns_when_https_is_off():
    result = check_deploy(**(PRODUCTION | {"HTTPS": "off"}))

    assert result.returncode != 0
    assert "security.W004" in result.stderr + result.stdout  # no HSTS
