"""Passwords a person can change and recover: changing needs the current one and ends every
other login; a reset link is mailed without telling who has an account, works once,
expires, and ends every login of the account."""

import re
from datetime import timedelta
from urllib.parse import parse_qs, urlparse

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.core import mail
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "pw-Correct-Horse-9"
NEW_PASSWORD = "another-Battery-Staple-7"


def sign_in(username: str, password: str = PASSWORD) -> tuple[APIClient, str]:
    """A browser-like client (session cookie) and the token this login was given."""
    client = APIClient()
    response = client.post(
        "/api/v1/auth/login/", {"username": username, "password": password}, format="json"
    )
    assert response.status_code == 200, response.content
    return client, response.json()["token"]


def with_token(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def change(client: APIClient, current: str = PASSWORD, new: str = NEW_PASSWORD):
    return client.post(
        "/api/v1/me/password/",
        {"current_password": current, "new_password": new},
        format="json",
    )


# --- change password -------------------------------------------------------------------


def test_changing_needs_the_current_password():
    user = UserFactory()
    _, token = sign_in(user.username)
    refused = change(with_token(token), current="not-my-password")
    assert refused.status_code == 400
    assert refused.json()["code"] == "wrong_password"
    assert "current_password" in refused.json()["errors"]
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def test_the_new_password_goes_through_djangos_validators():
    user = UserFactory()
    _, token = sign_in(user.username)
    refused = change(with_token(token), new="123")
    assert refused.status_code == 400
    assert refused.json()["code"] == "password_rejected"
    assert "new_password" in refused.json()["errors"]


def test_anonymous_cannot_change_a_password():
    response = change(APIClient())
    assert response.status_code == 401


def test_nobody_names_another_account_to_change():
    """The endpoint acts on the caller only; naming someone else is an unknown field."""
    victim = UserFactory()
    attacker = UserFactory()
    _, token = sign_in(attacker.username)
    response = with_token(token).post(
        "/api/v1/me/password/",
        {"current_password": PASSWORD, "new_password": NEW_PASSWORD, "user": victim.pk},
        format="json",
    )
    assert response.status_code == 400
    victim.refresh_from_db()
    assert victim.check_password(PASSWORD)


def test_a_token_caller_keeps_its_token_and_every_other_login_ends():
    user = UserFactory()
    _, current = sign_in(user.username)
    _, other_token = sign_in(user.username)
    other_browser, _ = sign_in(user.username)
    assert change(with_token(current)).status_code == 204
    assert with_token(current).get("/api/v1/me/").status_code == 200
    assert with_token(other_token).get("/api/v1/me/").status_code == 401
    assert other_browser.get("/api/v1/auth/session/").json()["me"] is None
    sign_in(user.username, NEW_PASSWORD)


def test_a_browser_caller_stays_signed_in_and_the_other_browsers_are_out():
    user = UserFactory()
    browser, token = sign_in(user.username)
    other_browser, _ = sign_in(user.username)
    assert change(browser).status_code == 204
    assert browser.get("/api/v1/auth/session/").json()["me"]["id"] == user.pk
    assert other_browser.get("/api/v1/auth/session/").json()["me"] is None
    assert with_token(token).get("/api/v1/me/").status_code == 401


# --- password reset --------------------------------------------------------------------


def request_reset(email: str):
    return APIClient().post("/api/v1/auth/password-reset/", {"email": email}, format="json")


def mailed_link() -> dict[str, str]:
    assert len(mail.outbox) == 1
    link = re.search(r"https?://\S+/reset-password\?\S+", mail.outbox[0].body).group(0)
    query = parse_qs(urlparse(link).query)
    return {"uid": query["uid"][0], "token": query["token"][0]}


def confirm(link: dict[str, str], new_password: str = NEW_PASSWORD):
    return APIClient().post(
        "/api/v1/auth/password-reset/confirm/",
        {**link, "new_password": new_password},
        format="json",
    )


def test_a_reset_request_answers_the_same_whether_or_not_the_address_has_an_account():
    UserFactory(email="ada@example.com")
    unknown = request_reset("nobody@example.com")
    assert unknown.status_code == 200
    assert mail.outbox == []
    known = request_reset("Ada@Example.com")
    assert known.status_code == 200
    assert known.json() == unknown.json()
    assert mail.outbox[0].to == ["ada@example.com"]


def test_the_mailed_link_opens_the_spa_and_sets_a_new_password_once(settings):
    settings.MOCKLOOP_PUBLIC_URL = "https://practice.example.org"
    user = UserFactory(email="ada@example.com")
    _, token = sign_in(user.username)
    browser, _ = sign_in(user.username)
    request_reset("ada@example.com")
    assert "https://practice.example.org/reset-password?uid=" in mail.outbox[0].body
    link = mailed_link()
    assert confirm(link).status_code == 204
    assert with_token(token).get("/api/v1/me/").status_code == 401
    assert browser.get("/api/v1/auth/session/").json()["me"] is None
    sign_in(user.username, NEW_PASSWORD)
    again = confirm(link, "yet-another-Password-3")
    assert again.status_code == 400
    assert again.json()["code"] == "reset_link_invalid"


def test_the_link_expires_after_password_reset_timeout(settings, monkeypatch):
    settings.PASSWORD_RESET_TIMEOUT = 60 * 60
    UserFactory(email="ada@example.com")
    request_reset("ada@example.com")
    link = mailed_link()
    issued = default_token_generator._now()
    monkeypatch.setattr(default_token_generator, "_now", lambda: issued + timedelta(hours=2))
    expired = confirm(link)
    assert expired.status_code == 400
    assert expired.json()["code"] == "reset_link_invalid"


@pytest.mark.parametrize("field", ["uid", "token"])
def test_a_wrong_link_is_refused_with_a_code(field):
    UserFactory(email="ada@example.com")
    request_reset("ada@example.com")
    link = mailed_link()
    link[field] = "AAAA" + link[field][4:] if field == "token" else "OTk5OTk"
    refused = confirm(link)
    assert refused.status_code == 400
    assert refused.json()["code"] == "reset_link_invalid"


def test_the_new_password_from_a_reset_is_validated_too():
    UserFactory(email="ada@example.com")
    request_reset("ada@example.com")
    refused = confirm(mailed_link(), "123")
    assert refused.status_code == 400
    assert refused.json()["code"] == "password_rejected"


def test_reset_requests_are_throttled(settings):
    rates = dict(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], password_reset="2/hour")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    assert request_reset("a@example.com").status_code == 200
    assert request_reset("b@example.com").status_code == 200
    assert request_reset("c@example.com").status_code == 429
