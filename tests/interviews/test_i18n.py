"""The language of a request (DESIGN.md, "Languages"): `?lang=`, else the saved preference,
else Accept-Language, else English; said in Content-Language; `me.language` is "" until the
person chooses."""

import pytest
from django.test import Client, RequestFactory
from django.utils import translation
from rest_framework.test import APIClient

from interviews import i18n
from interviews.services.account_settings import account_settings_update
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("tag", "language"),
    [
        ("en", "en"),
        ("en-GB", "en"),
        ("zh", "zh-Hans"),
        ("zh-CN", "zh-Hans"),
        ("zh_Hans", "zh-Hans"),
        ("zh-hans-SG", "zh-Hans"),
        ("zh-TW", "zh-Hant"),
        ("zh-HK", "zh-Hant"),
        ("zh-Hant", "zh-Hant"),
        ("fr", None),
        ("", None),
    ],
)
def test_client_tags_map_to_the_languages_we_speak(tag, language):
    assert i18n.supported_language(tag) == language


def test_api_and_django_codes_map_both_ways():
    assert [i18n.to_django(code) for code in i18n.LANGUAGES] == ["en", "zh-hans", "zh-hant"]
    assert [i18n.from_django(code) for code in ("en", "zh-hans", "zh-hant", "de")] == [
        "en",
        "zh-Hans",
        "zh-Hant",
        "en",
    ]


def test_accept_language_takes_the_first_we_speak_by_quality():
    assert i18n.accept_language("fr-FR, zh-TW;q=0.8, en;q=0.5") == "zh-Hant"
    assert i18n.accept_language("en;q=0.2, zh-CN;q=0.9") == "zh-Hans"
    assert i18n.accept_language("fr, de") is None


def test_precedence_query_then_preference_then_header_then_english():
    user = UserFactory()
    account_settings_update(actor=user, user=user, language="zh-Hant")
    factory = RequestFactory()

    request = factory.get("/", {"lang": "zh-Hans"}, HTTP_ACCEPT_LANGUAGE="en")
    request.user = user
    assert i18n.request_language(request) == "zh-Hans"

    request = factory.get("/", HTTP_ACCEPT_LANGUAGE="en")
    request.user = user
    assert i18n.request_language(request) == "zh-Hant"

    request = factory.get("/", {"lang": "klingon"}, HTTP_ACCEPT_LANGUAGE="zh-CN")
    request.user = UserFactory()  # never chose
    assert i18n.request_language(request) == "zh-Hans"

    request = factory.get("/")
    request.user = UserFactory()
    assert i18n.request_language(request) == "en"


def test_me_language_is_blank_until_chosen_so_the_browser_decides():
    user = UserFactory()
    client = APIClient()
    client.force_authenticate(user)
    assert client.get("/api/v1/me/").json()["language"] == ""
    response = client.get("/api/v1/me/", HTTP_ACCEPT_LANGUAGE="zh-TW")
    assert response["Content-Language"] == "zh-Hant"
    assert "Accept-Language" in response["Vary"]
    # A time zone saved first does not pin English.
    client.patch("/api/v1/me/settings/", {"time_zone": "Asia/Taipei"}, format="json")
    assert client.get("/api/v1/me/").json()["language"] == ""
    client.patch("/api/v1/me/settings/", {"language": "zh-Hans"}, format="json")
    response = client.get("/api/v1/me/", HTTP_ACCEPT_LANGUAGE="zh-TW")
    assert (response.json()["language"], response["Content-Language"]) == ("zh-Hans", "zh-Hans")
    # "" gives the choice back to the browser.
    client.patch("/api/v1/me/settings/", {"language": ""}, format="json")
    assert client.get("/api/v1/me/", HTTP_ACCEPT_LANGUAGE="zh-TW")["Content-Language"] == (
        "zh-Hant"
    )


def test_a_token_users_saved_language_applies():
    """Token authentication happens in DRF, after the middleware: the view re-picks."""
    user = UserFactory()
    account_settings_update(actor=user, user=user, language="zh-Hant")
    login = APIClient().post(
        "/api/v1/auth/login/",
        {"username": user.username, "password": "pw-Correct-Horse-9"},
        format="json",
    )
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {login.json()['token']}")
    response = client.get("/api/v1/me/", HTTP_ACCEPT_LANGUAGE="en")
    assert response["Content-Language"] == "zh-Hant"


def test_a_session_users_saved_language_applies_to_the_printable_report(world):
    account_settings_update(actor=world.owner, user=world.owner, language="zh-Hans")
    client = Client()
    client.force_login(world.owner)
    response = client.get(f"/loops/{world.loop.pk}/report.html", HTTP_ACCEPT_LANGUAGE="en")
    assert response["Content-Language"] == "zh-Hans"
    assert "环节" in response.content.decode()
    # Pages that say nothing of their own read no user: the header decides.
    assert client.get("/healthz", HTTP_ACCEPT_LANGUAGE="zh-TW")["Content-Language"] == "zh-Hant"


def test_the_language_does_not_outlive_the_request():
    APIClient().get("/api/v1/me/", {"lang": "zh-Hant"})
    assert translation.get_language() == "en"
