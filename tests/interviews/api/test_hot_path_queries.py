"""The two requests a live candidate sends most — the stage detail and the answer
autosave — run a small, fixed number of queries (issue #15: 100 req/s on one box). Warm:
the bank's structure comes from its cache."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from interviews.models import StageFollowUp, StageQuestion
from tests.factories import FollowUpFactory, QuestionFactory, StageFactory

API = "/api/v1"


@pytest.fixture
def warm_client(world, as_user):
    client = as_user(world.owner)
    assert client.get(f"{API}/stages/{world.coding.pk}/").status_code == 200
    body = {"question": world.coding_q.pk, "text": "first"}
    response = client.post(f"{API}/stages/{world.coding.pk}/answers/", body, format="json")
    assert response.status_code == 200
    return client


def test_stage_detail_reads_only_the_stage_s_own_rows(
    world, warm_client, django_assert_max_num_queries
):
    # token, stage, its questions, its pushed follow-ups, its answers
    with django_assert_max_num_queries(5):
        response = warm_client.get(f"{API}/stages/{world.coding.pk}/")
    assert response.status_code == 200


def test_an_autosave_checks_once_and_writes_one_row_and_its_event(
    world, warm_client, django_assert_max_num_queries
):
    """token, the stage's state, its lock (with its status), the answer's update (which
    returns it), the event's number (+ its row lock again on PostgreSQL) and insert, the
    scripted interviewer's one look (follow-ups left), and the test transaction's
    savepoint pair. Not the answer read first, nor the stage's tree (12 before)."""
    body = {"question": world.coding_q.pk, "text": "second"}
    with django_assert_max_num_queries(10 if connection.vendor == "postgresql" else 9):
        response = warm_client.post(f"{API}/stages/{world.coding.pk}/answers/", body, format="json")
    assert response.status_code == 200 and response.json()["text"] == "second"


def test_an_autosave_for_another_stage_s_question_is_refused(world, as_user):
    client = as_user(world.owner)
    body = {"question": 999_999, "text": "x"}
    response = client.post(f"{API}/stages/{world.coding.pk}/answers/", body, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == {"question": ["Not a question of this stage."]}


def test_a_solo_stage_s_detail_counts_its_scripted_follow_ups_from_the_cached_bank(
    db, as_user, django_assert_max_num_queries
):
    """The candidate's "Next question" count costs no query of its own."""
    now = timezone.now()
    stage = StageFactory(
        kind="values", status="live", started_at=now, deadline=now + timedelta(minutes=30)
    )
    question = QuestionFactory(kind="discussion")
    StageQuestion.objects.create(stage=stage, question=question, position=1)
    FollowUpFactory(question=question, position=1, trigger="after_answer")
    asked = FollowUpFactory(question=question, position=2, trigger="after_answer")
    FollowUpFactory(question=question, position=3, trigger="manual")
    StageFollowUp.objects.create(stage=stage, question=question, follow_up=asked, text="asked")
    client = as_user(stage.loop.candidate)
    url = f"{API}/stages/{stage.pk}/"
    assert client.get(url).json()["scripted_follow_ups_left"] == 1  # warms the bank cache
    with django_assert_max_num_queries(5):
        response = client.get(url)
    assert response.json()["scripted_follow_ups_left"] == 1
