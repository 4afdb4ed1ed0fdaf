"""Account settings: email, an IANA time zone and a language, each validated, stored per
user, and changed only by the user themselves."""

import pytest
from rest_framework.test import APIClient

from interviews.services.account_settings import account_settings_update
from interviews.services.errors import NotAllowed
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

URL = "/api/v1/me/settings/"


def client_of(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_defaults_before_any_change_are_the_browsers_zone_and_language():
    user = UserFactory(email="ada@example.com")
    response = client_of(user).get(URL)
    assert response.status_code == 200
    assert response.json() == {
        "email": "ada@example.com",
        "time_zone": "",
        "language": "",
        "email_verified": False,
        "email_verification": "none",
    }


def test_settings_are_stored_and_the_session_carries_zone_and_language():
    user = UserFactory()
    client = client_of(user)
    changed = client.patch(
        URL,
        {"email": "new@example.com", "time_zone": "Asia/Shanghai", "language": "zh-Hans"},
        format="json",
    )
    assert changed.status_code == 200, changed.content
    assert changed.json() == {
        "email": "new@example.com",
        "time_zone": "Asia/Shanghai",
        "language": "zh-Hans",
        "email_verified": False,
        "email_verification": "none",
    }
    me = client.get("/api/v1/me/").json()
    assert (me["email"], me["time_zone"], me["language"]) == (
        "new@example.com",
        "Asia/Shanghai",
        "zh-Hans",
    )
    assert client.patch(URL, {"language": "zh-Hant"}, format="json").json()["time_zone"] == (
        "Asia/Shanghai"
    )


def test_a_blank_zone_goes_back_to_the_browsers():
    user = UserFactory()
    client = client_of(user)
    client.patch(URL, {"time_zone": "Europe/Paris"}, format="json")
    assert client.patch(URL, {"time_zone": ""}, format="json").json()["time_zone"] == ""


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"time_zone": "Mars/Olympus_Mons"}, "unknown_time_zone"),
        ({"time_zone": "../../etc/passwd"}, "unknown_time_zone"),
        ({"language": "fr"}, "unknown_language"),
        ({"language": "zh-hans"}, "unknown_language"),
        ({"email": "not-an-address"}, "invalid_email"),
    ],
)
def test_bad_settings_are_refused_with_a_code(body, code):
    user = UserFactory()
    response = client_of(user).patch(URL, body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert list(response.json()["errors"]) == list(body)


def test_anonymous_has_no_settings():
    assert APIClient().get(URL).status_code == 401
    assert APIClient().patch(URL, {"language": "en"}, format="json").status_code == 401


def test_nobody_changes_another_persons_settings():
    owner = UserFactory(email="owner@example.com")
    other = UserFactory()
    refused = client_of(other).patch(
        URL, {"user": owner.pk, "email": "x@example.com"}, format="json"
    )
    assert refused.status_code == 400  # there is no way to name another account
    with pytest.raises(NotAllowed) as not_own:
        account_settings_update(actor=other, user=owner, email="x@example.com")
    assert not_own.value.code == "not_own_account"
    owner.refresh_from_db()
    assert owner.email == "owner@example.com"
