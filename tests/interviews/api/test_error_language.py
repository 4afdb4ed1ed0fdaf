"""API errors speak the request's language (DESIGN.md, "Languages"): `?lang=` over the saved
preference over Accept-Language over English; `detail` translated, `code` never."""

import pytest
from django.core.cache import cache
from django.utils import translation
from rest_framework.test import APIClient

from interviews.api.drf_messages import MESSAGES
from interviews.services.account_settings import account_settings_update
from tests import factories as f

pytestmark = pytest.mark.django_db

MISSING_LOOP = "/api/v1/loops/999999/"
NOT_FOUND = {
    "en": "Loop not found.",
    "zh-Hans": "找不到该面试流程。",
    "zh-Hant": "找不到該面試流程。",
}


def signed_in(language: str = "") -> APIClient:
    user = f.UserFactory()
    if language:
        account_settings_update(actor=user, user=user, language=language)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {f.api_token_for(user)}")
    return client


def answer(client: APIClient, **extra) -> tuple[str, str, str]:
    response = client.get(MISSING_LOOP, **extra)
    assert response.status_code == 404
    body = response.json()
    return body["detail"], body["code"], response["Content-Language"]


@pytest.mark.parametrize("language", ["en", "zh-Hans", "zh-Hant"])
def test_each_language_by_query_by_preference_and_by_accept_language(language):
    expected = (NOT_FOUND[language], "not_found", language)
    assert answer(signed_in(), data={"lang": language}) == expected
    assert answer(signed_in(language)) == expected
    header = {"en": "en-US", "zh-Hans": "zh-CN,zh;q=0.9", "zh-Hant": "zh-TW"}[language]
    assert answer(signed_in(), HTTP_ACCEPT_LANGUAGE=header) == expected


def test_precedence():
    """?lang= beats the saved preference, which beats Accept-Language; English last."""
    chose_traditional = signed_in("zh-Hant")
    assert (
        answer(chose_traditional, data={"lang": "en"}, HTTP_ACCEPT_LANGUAGE="zh-CN")[0]
        == (NOT_FOUND["en"])
    )
    assert answer(chose_traditional, HTTP_ACCEPT_LANGUAGE="zh-CN")[0] == NOT_FOUND["zh-Hant"]
    # An unknown ?lang= is ignored, not an error.
    assert (
        answer(signed_in(), data={"lang": "fr"}, HTTP_ACCEPT_LANGUAGE="zh-CN")[0]
        == (NOT_FOUND["zh-Hans"])
    )
    assert answer(signed_in(), HTTP_ACCEPT_LANGUAGE="fr, de")[0] == NOT_FOUND["en"]


def test_drf_validation_messages_are_translated_with_the_same_code():
    bodies = {
        language: signed_in(language).post("/api/v1/loops/", {}, format="json").json()
        for language in ("en", "zh-Hans", "zh-Hant")
    }
    assert bodies["en"]["errors"]["template"] == ["This field is required."]
    assert bodies["zh-Hans"]["errors"]["template"] == ["该字段是必填项。"]
    assert bodies["zh-Hant"]["errors"]["template"] == ["此為必需欄位。"]
    assert {body["code"] for body in bodies.values()} == {"invalid"}


def test_authentication_errors_are_translated():
    response = APIClient().get("/api/v1/me/", HTTP_ACCEPT_LANGUAGE="zh-TW")
    assert response.status_code == 401
    assert response.json() == {
        "detail": "身份認證資訊未提供。",
        "errors": {},
        "code": "not_authenticated",
    }
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    response = client.get("/api/v1/me/", {"lang": "zh-Hans"})
    assert (response.json()["detail"], response.json()["code"]) == (
        "令牌（token）无效。",
        "authentication_failed",
    )


def test_throttling_is_translated(settings):
    cache.clear()
    rates = dict(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], login="1/min")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    body = {"username": "nobody", "password": "wrong"}
    client = APIClient(HTTP_ACCEPT_LANGUAGE="zh-Hant")
    first = client.post("/api/v1/auth/login/", body, format="json")
    assert first.json()["detail"] == "使用者名稱或密碼錯誤。"
    refused = client.post("/api/v1/auth/login/", body, format="json")
    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled"
    assert refused.json()["detail"] == "請求過於頻繁，請在 60 秒後再試。"
    english = APIClient().post("/api/v1/auth/login/", body, format="json").json()["detail"]
    assert english == "Request was throttled. Expected available in 60 seconds."


@pytest.mark.parametrize("language", ["zh-hans", "zh-hant"])
def test_drf_messages_its_catalogues_lack_are_in_ours(language):
    with translation.override(language):
        assert [m for m in MESSAGES if translation.gettext(m) == m] == []
