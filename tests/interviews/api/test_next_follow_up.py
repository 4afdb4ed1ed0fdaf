"""`POST /stages/{id}/next-follow-up/`: the solo candidate's "Next question", and the
stage detail's count of scripted follow-ups left."""

from datetime import timedelta

import pytest
from django.utils import timezone

from interviews.models import StageQuestion
from tests.factories import (
    AdminFactory,
    FollowUpFactory,
    QuestionFactory,
    StageFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def _solo_values_stage():
    now = timezone.now()
    stage = StageFactory(
        kind="values", status="live", started_at=now, deadline=now + timedelta(minutes=30)
    )
    question = QuestionFactory(kind="discussion")
    StageQuestion.objects.create(stage=stage, question=question, position=1)
    follow_up = FollowUpFactory(
        question=question, trigger="after_answer", prompt="What would you do differently?"
    )
    return stage, question, follow_up


def test_the_candidate_asks_for_the_next_question_and_then_none_is_left(as_user):
    stage, question, follow_up = _solo_values_stage()
    client = as_user(stage.loop.candidate)
    url = f"/api/v1/stages/{stage.pk}/"
    assert client.get(url).json()["scripted_follow_ups_left"] == 1

    response = client.post(f"{url}next-follow-up/", {}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["text"] == follow_up.prompt
    assert response.json()["question"] == question.pk
    detail = client.get(url).json()
    assert detail["scripted_follow_ups_left"] == 0
    assert [f["text"] for f in detail["follow_ups"]] == [follow_up.prompt]

    again = client.post(f"{url}next-follow-up/", {"question": question.pk}, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "no_follow_up_left")


@pytest.mark.parametrize(("who", "status"), [("other", 404), ("admin", 403)])
def test_only_the_candidate_asks(as_user, who, status):
    stage, _, _ = _solo_values_stage()
    user = UserFactory() if who == "other" else AdminFactory()
    response = as_user(user).post(f"/api/v1/stages/{stage.pk}/next-follow-up/", {}, format="json")
    assert response.status_code == status
    assert stage.pushed_follow_ups.count() == 0


def test_a_question_must_be_a_json_integer(as_user):
    stage, _, _ = _solo_values_stage()
    response = as_user(stage.loop.candidate).post(
        f"/api/v1/stages/{stage.pk}/next-follow-up/", {"question": "1"}, format="json"
    )
    assert response.status_code == 400
