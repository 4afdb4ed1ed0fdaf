"""Usernames: NFKC-normalised on signup and login, ASCII for new accounts, and no new name
that reads as a taken one (the red team's "сoach_rt", with a Cyrillic с, beside
"coach_rt")."""

import pytest
from rest_framework.test import APIClient

from interviews.services.accounts import user_create
from interviews.services.errors import InvalidInput
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "pw-Correct-Horse-9"


@pytest.mark.parametrize(
    "lookalike",
    [
        "\u0441oach_rt",  # Cyrillic с
        "co\u0430ch_rt",  # Cyrillic а
        "\uff43\uff4f\uff41\uff43\uff48_rt",  # full-width, NFKC makes it "coach_rt"
        "COACH_RT",
        "c0ach_rt",  # digit zero
        "coach_rt\u200b",  # zero-width space
    ],
    ids=["cyrillic-c", "cyrillic-a", "fullwidth", "upper", "zero", "zero-width"],
)
def test_a_name_that_reads_as_a_taken_one_is_refused(lookalike):
    UserFactory(username="coach_rt")
    with pytest.raises(InvalidInput) as refused:
        user_create(username=lookalike, password=PASSWORD)
    assert "username" in refused.value.errors


def test_lookalikes_are_caught_in_both_directions():
    UserFactory(username="l1ly")
    for name in ("lily", "1ily", "LILY", "iily"):
        with pytest.raises(InvalidInput):
            user_create(username=name, password=PASSWORD)
    assert user_create(username="lilly", password=PASSWORD).username == "lilly"


def test_names_are_stored_normalised_and_log_in_either_way():
    user = user_create(username="\uff41\uff4e\uff4e\uff41", password=PASSWORD)  # full-width
    assert user.username == "anna"
    for typed in ("anna", "\uff41\uff4e\uff4e\uff41"):
        response = APIClient().post(
            "/api/v1/auth/login/", {"username": typed, "password": PASSWORD}, format="json"
        )
        assert response.status_code == 200, response.content


def test_the_api_refuses_a_confusable_signup_with_a_field_error():
    UserFactory(username="coach_rt")
    response = APIClient().post(
        "/api/v1/auth/signup/",
        {"username": "\u0441oach_rt", "password": PASSWORD},
        format="json",
    )
    assert response.status_code == 400
    assert "username" in response.json()["errors"]
