"""Email verification per deployment (`ACCOUNT_EMAIL_VERIFICATION`): `none` mails nothing,
`optional` mails a signed link on signup and on an email change, `mandatory` also refuses
to sign in (403 `email_not_verified`) until the link is opened."""

import re
from datetime import timedelta
from urllib.parse import parse_qs, urlparse

import pytest
from django.core import mail, signing
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)  # the mail goes on commit

PASSWORD = "pw-Correct-Horse-9"


def signup(email: str = "ada@example.com", username: str = "ada"):
    return APIClient().post(
        "/api/v1/auth/signup/",
        {"username": username, "password": PASSWORD, "email": email},
        format="json",
    )


def login(username: str = "ada"):
    return APIClient().post(
        "/api/v1/auth/login/", {"username": username, "password": PASSWORD}, format="json"
    )


def mailed_token(index: int = -1) -> str:
    link = re.search(r"https?://\S+/verify-email\?\S+", mail.outbox[index].body).group(0)
    return parse_qs(urlparse(link).query)["token"][0]


def verify(token: str):
    return APIClient().post("/api/v1/auth/verify-email/", {"token": token}, format="json")


def test_none_mails_nothing_and_signs_in(settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = "none"
    assert signup().status_code == 201
    assert mail.outbox == []
    assert login().status_code == 200


def test_optional_mails_a_link_on_signup_and_still_signs_in(settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = "optional"
    created = signup()
    assert created.status_code == 201
    assert mail.outbox[0].to == ["ada@example.com"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {created.json()['token']}")
    assert client.get("/api/v1/me/settings/").json()["email_verified"] is False
    assert verify(mailed_token()).status_code == 204
    assert client.get("/api/v1/me/settings/").json()["email_verified"] is True


def test_optional_mails_a_new_link_on_an_email_change_and_the_old_link_proves_nothing(settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = "optional"
    created = signup()
    old_token = mailed_token()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {created.json()['token']}")
    client.patch("/api/v1/me/settings/", {"email": "ada@new.example.com"}, format="json")
    assert mail.outbox[-1].to == ["ada@new.example.com"]
    stale = verify(old_token)
    assert stale.status_code == 400
    assert stale.json()["code"] == "verification_link_invalid"
    assert verify(mailed_token()).status_code == 204
    assert client.get("/api/v1/me/settings/").json()["email_verified"] is True


def test_mandatory_refuses_login_until_the_link_is_opened(settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    created = signup()
    assert created.status_code == 202
    assert "token" not in created.json()
    refused = login()
    assert refused.status_code == 403
    assert refused.json()["code"] == "email_not_verified"
    assert verify(mailed_token()).status_code == 204
    assert login().status_code == 200


def test_mandatory_needs_an_address_at_signup(settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    refused = signup(email="")
    assert refused.status_code == 400
    assert "email" in refused.json()["errors"]


def test_mandatory_refuses_existing_unconfirmed_accounts_too(settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    UserFactory(username="old")
    refused = login("old")
    assert refused.status_code == 403
    assert refused.json()["code"] == "email_not_verified"


@pytest.mark.parametrize("kind", ["forged", "expired"])
def test_a_forged_or_expired_link_is_refused_with_a_code(settings, kind, monkeypatch):
    settings.ACCOUNT_EMAIL_VERIFICATION = "optional"
    signup()
    token = mailed_token()
    if kind == "forged":
        token = token[:-4] + "AAAA"
    else:
        settings.ACCOUNT_EMAIL_VERIFICATION_MAX_AGE = 60
        real_time = signing.time.time
        monkeypatch.setattr(
            signing.time, "time", lambda: real_time() + timedelta(hours=1).total_seconds()
        )
    refused = verify(token)
    assert refused.status_code == 400
    assert refused.json()["code"] == "verification_link_invalid"


def test_a_lost_link_can_be_sent_again_with_the_same_answer_for_any_address(settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    signup()
    mail.outbox.clear()
    resend = "/api/v1/auth/verify-email/resend/"
    unknown = APIClient().post(resend, {"email": "nobody@example.com"}, format="json")
    known = APIClient().post(resend, {"email": "ada@example.com"}, format="json")
    assert unknown.status_code == known.status_code == 200
    assert unknown.json() == known.json()
    assert [message.to for message in mail.outbox] == [["ada@example.com"]]
    assert verify(mailed_token()).status_code == 204
    mail.outbox.clear()
    APIClient().post(resend, {"email": "ada@example.com"}, format="json")
    assert mail.outbox == []  # confirmed already: nothing more to send


def test_a_password_reset_confirms_the_address_it_was_mailed_to(settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    signup()
    APIClient().post("/api/v1/auth/password-reset/", {"email": "ada@example.com"}, format="json")
    link = re.search(r"/reset-password\?uid=([^&\s]+)&token=(\S+)", mail.outbox[-1].body)
    done = APIClient().post(
        "/api/v1/auth/password-reset/confirm/",
        {"uid": link.group(1), "token": link.group(2), "new_password": "another-Battery-Staple-7"},
        format="json",
    )
    assert done.status_code == 204
    signed_in = APIClient().post(
        "/api/v1/auth/login/",
        {"username": "ada", "password": "another-Battery-Staple-7"},
        format="json",
    )
    assert signed_in.status_code == 200
