"""List and detail endpoints run a bounded number of queries, however many rows."""

import pytest

from interviews.services.answers import answer_save
from interviews.services.follow_ups import stage_push_follow_up
from interviews.services.loops import loop_start
from interviews.services.reviews import review_comment_create
from tests import factories as f

API = "/api/v1"


@pytest.fixture
def busy_world(world):
    for _ in range(5):
        loop_start(candidate=world.owner, template=world.template, coached=True)
    for n in range(3):
        f.UserFactory(username=f"extra{n}")
        loop_start(
            candidate=f.UserFactory(username=f"queued{n}"), template=world.template, coached=True
        )
    stage_push_follow_up(stage=world.coding, actor=world.assigned, follow_up=world.unlock_follow_up)
    stage_push_follow_up(stage=world.coding, actor=world.assigned, text="free text")
    answer_save(stage=world.coding, actor=world.owner, question=world.coding_q, text="a")
    return world


@pytest.mark.parametrize("who", ["owner", "assigned", "admin"])
def test_loop_list(busy_world, as_user, django_assert_max_num_queries, who):
    client = as_user(getattr(busy_world, who))
    with django_assert_max_num_queries(5):
        response = client.get(f"{API}/loops/")
    assert response.status_code == 200 and response.json()


def test_loop_templates(busy_world, as_user, django_assert_max_num_queries):
    for n in range(4):
        f.StageTemplateFactory(loop_template=f.LoopTemplateFactory(slug=f"t{n}"))
    client = as_user(busy_world.owner)
    with django_assert_max_num_queries(3):
        response = client.get(f"{API}/loop-templates/")
    assert len(response.json()) == 5


def test_coach_queue(busy_world, as_user, django_assert_max_num_queries):
    client = as_user(busy_world.coach)
    with django_assert_max_num_queries(3):
        response = client.get(f"{API}/coach/queue/")
    # The world's entry, and the three live rounds of each of the 8 other coached loops.
    assert len(response.json()) == 1 + 8 * 3


@pytest.mark.parametrize("who", ["owner", "assigned"])
def test_stage_detail(busy_world, as_user, django_assert_max_num_queries, who):
    """Cold: the bank's structure is loaded (and cached); warm: only the stage's own rows
    (the token, the stage, its pushed follow-ups and answers)."""
    client = as_user(getattr(busy_world, who))
    with django_assert_max_num_queries(13):
        response = client.get(f"{API}/stages/{busy_world.coding.pk}/")
    assert response.status_code == 200
    with django_assert_max_num_queries(4):
        response = client.get(f"{API}/stages/{busy_world.coding.pk}/")
    assert response.status_code == 200


def test_events_and_review_comments(busy_world, as_user, django_assert_max_num_queries):
    from interviews.models import Stage

    Stage.objects.filter(pk=busy_world.coding.pk).update(status="done")
    Stage.objects.filter(pk=busy_world.review.pk).update(status="live")
    for line in range(1, 8):
        review_comment_create(
            stage=busy_world.review,
            author=busy_world.owner,
            line_start=line,
            line_end=line,
            category="spof",
            text="x",
        )
    client = as_user(busy_world.assigned)
    with django_assert_max_num_queries(4):
        events = client.get(f"{API}/stages/{busy_world.review.pk}/events/").json()
    assert len(events) == 7
    with django_assert_max_num_queries(4):
        comments = client.get(f"{API}/stages/{busy_world.review.pk}/review-comments/").json()
    assert len(comments) == 7


def test_submission_detail(busy_world, as_user, django_assert_max_num_queries):
    client = as_user(busy_world.owner)
    with django_assert_max_num_queries(4):
        response = client.get(f"{API}/submissions/{busy_world.submission.pk}/")
    assert len(response.json()["tests"]) == 2
