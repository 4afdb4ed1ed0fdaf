"""Every Celery task is bounded in time, and a judge that runs out of time (or fails in
any way) ends its submission as internal_error instead of leaving it `running`."""

import pytest
from celery.exceptions import SoftTimeLimitExceeded

from interviews.judging import tasks
from interviews.models import StageEvent, Submission
from mockloop.celery import app
from tests.factories import PartFactory, StageFactory


def test_every_task_has_a_soft_and_a_hard_time_limit():
    app.loader.import_default_modules()
    ours = [task for name, task in app.tasks.items() if not name.startswith("celery.")]
    assert {t.name for t in ours} >= {
        "judging.judge_submission",
        "judging.requeue_submissions",
        "judging.verify_question",
        "judging.run_reference_job",
        "interviews.stages_tick",
    }
    for task in ours:
        soft = task.soft_time_limit or app.conf.task_soft_time_limit
        hard = task.time_limit or app.conf.task_time_limit
        assert soft and hard and soft < hard, (task.name, soft, hard)


def _running_submission() -> Submission:
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
        status="running",
        attempts=1,
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("failure", "says"),
    [
        (SoftTimeLimitExceeded(), "judging took longer than"),
        (RecursionError("maximum recursion depth exceeded"), "RecursionError"),
        (KeyError("index"), "KeyError"),
    ],
)
def test_a_judge_that_fails_ends_the_submission_as_internal_error(monkeypatch, failure, says):
    submission = _running_submission()

    def judge(submission_id):
        raise failure

    monkeypatch.setattr(tasks, "submission_judge", judge)
    tasks.judge_submission.apply(args=[submission.pk])
    submission.refresh_from_db()
    assert (submission.status, submission.verdict) == ("error", "internal_error")
    assert says in submission.error
    assert submission.requeue_at is None  # final: the sweep does not send it again
    event = StageEvent.objects.filter(stage=submission.stage, type="submission.status").last()
    assert event.payload["status"] == "error"
    assert says in event.payload["message"]
