"""`GET /api/v1/rtc/ice-servers/`: STUN/TURN servers from settings, with TURN credentials in
coturn's shared-secret REST scheme that expire after `ttl` seconds."""

import base64
import hashlib
import hmac

import pytest

from interviews.services.calls import call_ice_servers_issue
from interviews.services.errors import NotAllowed
from tests.factories import UserFactory

URL = "/api/v1/rtc/ice-servers/"
SECRET = "north-wind-shared-secret"

pytestmark = pytest.mark.django_db


@pytest.fixture
def relay(settings):
    settings.RTC_STUN_URLS = ["stun:turn.example.com:3478"]
    settings.RTC_TURN_URLS = [
        "turn:turn.example.com:3478?transport=udp",
        "turns:turn.example.com:5349",
    ]
    settings.RTC_TURN_SECRET = SECRET
    settings.RTC_TURN_TTL = 600
    return settings


def test_signed_in_users_get_stun_and_turn_with_credentials_that_expire(
    relay, as_user, monkeypatch
):
    user = UserFactory()
    monkeypatch.setattr("interviews.services.calls.clock", lambda: 1_800_000_000.7)
    response = as_user(user).get(URL)
    assert response.status_code == 200
    body = response.json()
    assert body["ttl"] == 600
    stun, turn = body["ice_servers"]
    assert stun == {"urls": ["stun:turn.example.com:3478"]}
    assert turn["urls"] == relay.RTC_TURN_URLS
    # username = expiry:user id, the expiry being now + ttl (coturn refuses it after that)
    assert turn["username"] == f"{1_800_000_000 + 600}:{user.pk}"
    expected = hmac.new(SECRET.encode(), turn["username"].encode(), hashlib.sha1).digest()
    assert base64.b64decode(turn["credential"]) == expected


def test_each_request_issues_credentials_expiring_ttl_from_then(relay):
    user = UserFactory()
    first = call_ice_servers_issue(actor=user, now=1_000)["ice_servers"][1]
    later = call_ice_servers_issue(actor=user, now=5_000)["ice_servers"][1]
    assert first["username"] == f"1600:{user.pk}"
    assert later["username"] == f"5600:{user.pk}"
    assert first["credential"] != later["credential"]
    # Known answer, so a change of scheme (SHA-256, hex) cannot slip through.
    assert call_ice_servers_issue(actor=user, now=0)["ice_servers"][1]["credential"] == (
        base64.b64encode(
            hmac.new(SECRET.encode(), f"600:{user.pk}".encode(), hashlib.sha1).digest()
        ).decode()
    )


def test_without_a_relay_configured_the_list_is_empty(settings, as_user):
    settings.RTC_STUN_URLS = []
    settings.RTC_TURN_URLS = []
    response = as_user(UserFactory()).get(URL)
    assert response.status_code == 200
    assert response.json()["ice_servers"] == []


def test_stun_only_carries_no_credentials(settings, as_user):
    settings.RTC_STUN_URLS = ["stun:stun.example.com:3478"]
    settings.RTC_TURN_URLS = []
    assert as_user(UserFactory()).get(URL).json()["ice_servers"] == [
        {"urls": ["stun:stun.example.com:3478"]}
    ]


def test_anonymous_callers_get_no_credentials(relay, client):
    response = client.get(URL)
    assert response.status_code == 401
    assert "ice_servers" not in response.json()


def test_an_inactive_user_is_refused_by_the_service(relay):
    user = UserFactory(is_active=False)
    with pytest.raises(NotAllowed):
        call_ice_servers_issue(actor=user)
