"""Security pass: CSRF on session-authenticated writes, production cookie flags, throttles."""

import os
import subprocess
import sys

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from mockloop.env import BASE_DIR
from tests.factories import LoopTemplateFactory, StageTemplateFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _clear_throttles():
    cache.clear()
    yield
    cache.clear()


def test_session_writes_without_csrf_token_are_refused_and_change_nothing():
    StageTemplateFactory(loop_template=LoopTemplateFactory(slug="practice"))
    user = UserFactory()
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    response = client.post("/api/v1/loops/", {"template": "practice"}, format="json")
    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]
    assert user.loops.count() == 0

    client.get("/")  # the SPA page sets the csrftoken cookie
    token = client.cookies["csrftoken"].value
    response = client.post(
        "/api/v1/loops/", {"template": "practice"}, format="json", HTTP_X_CSRFTOKEN=token
    )
    assert response.status_code == 201, response.content


def test_login_accepts_only_json_so_a_cross_site_form_cannot_log_anyone_in():
    UserFactory(username="victim")
    response = APIClient().post(
        "/api/v1/auth/login/",
        "username=victim&password=pw-Correct-Horse-9",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 415


def test_production_settings_set_secure_cookie_flags_and_hsts():
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "MOCKLOOP_TESTING")}
    env.update(SECRET_KEY="x" * 50, DJANGO_SETTINGS_MODULE="mockloop.settings")
    code = (
        "from django.conf import settings as s;"
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SESSION_COOKIE_HTTPONLY,"
        " s.SECURE_HSTS_SECONDS > 0, s.SECURE_CONTENT_TYPE_NOSNIFF, s.DEBUG)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=BASE_DIR, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True", "True", "True", "True", "False"]


def test_production_refuses_to_start_without_a_secret_key():
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "MOCKLOOP_TESTING")}
    env.pop("SECRET_KEY", None)
    env["DJANGO_SETTINGS_MODULE"] = "mockloop.settings"
    out = subprocess.run(
        [sys.executable, "-c", "from django.conf import settings; settings.DEBUG"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
    )
    assert out.returncode != 0 and "SECRET_KEY" in out.stderr


def test_login_is_throttled(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "login": "3/min",
        },
    }
    client = APIClient()
    body = {"username": "nobody", "password": "wrong"}
    statuses = [
        client.post("/api/v1/auth/login/", body, format="json").status_code for _ in range(4)
    ]
    assert statuses[:3] == [400, 400, 400] or statuses[:3] == [401, 401, 401]
    assert statuses[3] == 429
    assert client.post("/api/v1/auth/login/", body, format="json").has_header("Retry-After")


def _rates(settings, **rates: str) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], **rates},
    }


def test_a_new_x_forwarded_for_per_login_does_not_dodge_the_login_throttle(settings):
    """The red team's attack: 25 wrong-password logins, each claiming another client
    address in X-Forwarded-For, never hit 429. The header is the client's own word; only
    the connection's address (which the ASGI server sets from trusted proxies) counts."""
    _rates(settings, login="20/hour")  # per hour: the logins may take over a minute
    client = APIClient()
    body = {"username": "nobody", "password": "wrong"}
    statuses = [
        client.post(
            "/api/v1/auth/login/", body, format="json", HTTP_X_FORWARDED_FOR=f"10.9.{i}.1"
        ).status_code
        for i in range(25)
    ]
    assert statuses[:20] == [400] * 20
    assert set(statuses[20:]) == {429}


def test_signup_has_its_own_throttle_scope(settings):
    """Signups count apart from logins: a burst of new accounts from one address stops at
    the signup rate, and it does not use up that address's logins."""
    _rates(settings, signup="2/hour", login="20/hour")
    client = APIClient()
    statuses = [
        client.post(
            "/api/v1/auth/signup/",
            {"username": f"fresh{i}", "password": "pw-Correct-Horse-9"},
            format="json",
            HTTP_X_FORWARDED_FOR=f"10.8.{i}.1",
        ).status_code
        for i in range(3)
    ]
    assert statuses == [201, 201, 429]
    login = client.post(
        "/api/v1/auth/login/",
        {"username": "fresh0", "password": "pw-Correct-Horse-9"},
        format="json",
    )
    assert login.status_code == 200


def test_the_local_web_process_believes_no_forwarded_header():
    """`make run` and the tests' live server have no proxy in front: uvicorn must not take
    a local client's X-Forwarded-For as its address (it does by default from 127.0.0.1)."""
    from mockloop.web import web_command

    assert "--no-proxy-headers" in web_command(8000)
    procfile = (BASE_DIR / "Procfile").read_text()
    web_line = next(line for line in procfile.splitlines() if line.startswith("web:"))
    assert "--no-proxy-headers" in web_line
