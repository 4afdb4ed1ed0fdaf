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
        "expired": 0,
        "abandoned": 0,
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
    idle = {"requeued": 0, "stale": 0, "expired": 0, "abandoned": 0}
    assert tasks.requeue_submissions() == {**idle, "stale": 1}
    assert sent == [submission.pk]
    assert tasks.requeue_submissions() == idle
    assert sent == [submission.pk]


def test_done_submissions_are_never_deferred():
    submission = _submission(status="done", verdict="accepted")
    judging.submission_defer(submission_id=submission.pk)
    submission.refresh_from_db()
    assert submission.verdict == "accepted"


def _expired_running(**kwargs) -> Submission:
    submission = _submission(status="running", attempts=1, **kwargs)
    Submission.objects.filter(pk=submission.pk).update(
        started_at=timezone.now() - timedelta(minutes=10),
        leased_until=timezone.now() - timedelta(seconds=1),
    )
    return submission


def test_a_running_job_whose_judge_died_is_judged_once_more_then_ends(sent):
    """Its worker died and the broker message may be gone too (a restarted Redis): the
    sweep queues it again once; if that judge dies as well, it ends as internal_error."""
    submission = _expired_running()
    first = tasks.requeue_submissions()
    assert (first["expired"], first["abandoned"]) == (1, 0)
    assert sent == [submission.pk]
    submission.refresh_from_db()
    assert (submission.status, submission.expired_leases) == ("queued", 1)
    assert tasks.requeue_submissions()["expired"] == 0  # not sent again every tick

    claim = judging.submission_claim(submission.pk)  # the re-judge takes it ...
    assert claim is not None and claim.attempt == 2
    Submission.objects.filter(pk=submission.pk).update(
        leased_until=timezone.now() - timedelta(seconds=1)
    )  # ... and dies too
    second = tasks.requeue_submissions()
    assert (second["expired"], second["abandoned"]) == (0, 1)
    assert sent == [submission.pk]
    submission.refresh_from_db()
    assert (submission.status, submission.verdict) == ("error", "internal_error")
    assert "interrupted twice" in submission.error
    assert submission.requeue_at is None
    event = StageEvent.objects.filter(stage=submission.stage, type="submission.status").last()
    assert (event.payload["status"], event.payload["verdict"]) == ("error", "internal_error")


def test_a_running_job_under_a_live_lease_is_left_alone(sent):
    submission = _submission(status="running", attempts=1)
    Submission.objects.filter(pk=submission.pk).update(
        started_at=timezone.now() - timedelta(minutes=10),  # long job, renewed lease
        leased_until=timezone.now() + timedelta(seconds=60),
    )
    assert tasks.requeue_submissions()["expired"] == 0
    with pytest.raises(judging.LeaseHeld):
        judging.submission_claim(submission.pk)
    submission.refresh_from_db()
    assert submission.status == "running"


def test_a_redelivered_message_rejudges_an_expired_job_once(sent):
    """The broker's redelivery claims the expired job itself (before any sweep): once."""
    submission = _expired_running()
    claim = judging.submission_claim(submission.pk)
    assert claim is not None and claim.attempt == 2
    Submission.objects.filter(pk=submission.pk).update(
        leased_until=timezone.now() - timedelta(seconds=1)
    )
    assert judging.submission_claim(submission.pk) is None
    submission.refresh_from_db()
    assert (submission.status, submission.verdict) == ("error", "internal_error")


def test_a_claim_renews_its_lease_while_it_holds_the_job():
    submission = _submission(status="queued")
    claim = judging.submission_claim(submission.pk)
    Submission.objects.filter(pk=submission.pk).update(leased_until=timezone.now())
    assert judging.submission_lease_renew(claim) is True
    submission.refresh_from_db()
    assert submission.leased_until > timezone.now() + timedelta(seconds=30)
    Submission.objects.filter(pk=submission.pk).update(attempts=5)  # someone else's now
    assert judging.submission_lease_renew(claim) is False
