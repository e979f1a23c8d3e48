from django.db import connection


def test_the_database_is_postgresql(db):
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('server_version_num')::int")
        (version,) = cursor.fetchone()

    assert connection.vendor == "postgresql"
    assert version >= 140000


def test_the_health_check_answers_ok(client, db):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.content == b"ok"


def test_the_start_page_needs_a_login(client, db):
    response = client.get("/")

    assert response.status_code == 302
    assert response["Location"] == "/konto/login/?next=/"


def test_pages_carry_a_content_security_policy_with_a_nonce(client, user):
    client.force_login(user)

    response = client.get("/")

    policy = response["Content-Security-Policy"]
    assert "script-src 'self' 'nonce-" in policy
    assert "unsafe-inline" not in policy
    nonce = policy.split("'nonce-")[1].split("'")[0]
    assert f'nonce="{nonce}"' in response.text
    assert "<script>" not in response.text  # no inline script without the nonce
