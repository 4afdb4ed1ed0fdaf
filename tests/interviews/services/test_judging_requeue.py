"""When the sandbox is down a submission says so at once (internal_error) and is judged
again when it returns; a queued job whose broker message was lost is sent again."""

from datetime import timedelta

import pytest
from django.utils import timezone

from interviews.judging import submissions as judging
from interviews.judging import tasks
from interviews.models import StageEvent, Submission
from tests.factories import PartFactory, StageFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    calls: list[int] = []
    monkeypatch.setattr(tasks, "queue_judging", calls.append)
    monkeypatch.setattr(tasks.sandbox, "ping", lambda: True)
    return calls


def _submission(**kwargs) -> Submission:
    stage = StageFactory(status="live")
    part = PartFactory()
    return Submission.objects.create(
        stage=stage,
        question=part.question,
        part=1,
        author=stage.loop.candidate,
        language="python",
        code="print(1)",
        mode="submit",
        **kwargs,
    )


def test_defer_shows_a_clear_internal_error(django_capture_on_commit_callbacks):
    submission = _submission(status="running")
    judging.submission_defer(submission_id=submission.pk)
    submission.refresh_from_db()
    assert (submission.status, submission.verdict) == ("error", "internal_error")
    assert "judged automatically" in submission.error
    event = StageEvent.objects.filter(stage=submission.stage).last()
    assert event.payload["verdict"] == "internal_error"
    assert "sandbox is unavailable" in event.payload["message"]


def test_deferred_submission_waits_for_the_sandbox(sent, django_capture_on_commit_callbacks):
    submission = _submission(status="running")
    judging.submission_defer(submission_id=submission.pk)
    later = timezone.now() + timedelta(minutes=1)
    assert judging.submissions_requeue(sandbox_ok=False, now=later).counts() == {
        "requeued": 0,
        "stale": 0,
    }
    result = judging.submissions_requeue(sandbox_ok=True, now=later)
    assert result.deferred == [submission.pk] and result.lost == []
    submission.refresh_from_db()
    assert (submission.status, submission.verdict, submission.error) == ("queued", "", "")


def test_a_queued_job_nobody_took_is_sent_again_but_not_every_tick(sent):
    submission = _submission(status="queued")
    Submission.objects.filter(pk=submission.pk).update(
        created_at=timezone.now() - timedelta(minutes=5)
    )
    now = timezone.now()
    assert judging.submissions_requeue(sandbox_ok=True, now=now).lost == [submission.pk]
    assert judging.submissions_requeue(sandbox_ok=True, now=now + timedelta(seconds=5)).lost == []


def test_the_sweep_task_sends_what_the_sweep_picked(sent):
    submission = _submission(status="queued")
    Submission.objects.filter(pk=submission.pk).update(
        created_at=timezone.now() - timedelta(minutes=5)
    )
    assert tasks.requeue_submissions() == {"requeued": 0, "stale": 1}
    assert sent == [submission.pk]
    assert tasks.requeue_submissions() == {"requeued": 0, "stale": 0}
    assert sent == [submission.pk]


def test_done_submissions_are_never_deferred():
    submission = _submission(status="done", verdict="accepted")
    judging.submission_defer(submission_id=submission.pk)
    submission.refresh_from_db()
    assert submission.verdict == "accepted"
