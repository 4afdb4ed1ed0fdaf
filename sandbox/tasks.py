"""Celery tasks of the sandbox: thin wrappers that take an id and call one service.

`acks_late` + `reject_on_worker_lost` (settings) keep a job queued until it is judged; a
worker that dies mid-job has its message re-delivered, and the claim/lease in
`interviews.services.judging` makes the re-delivery judge exactly once.
"""

import logging

from celery import shared_task
from celery.signals import worker_process_shutdown, worker_ready

from sandbox.engine import SandboxUnavailable, get_engine, sweep_orphans

logger = logging.getLogger(__name__)


@shared_task(
    bind=True,
    name="sandbox.judge_submission",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
)
def judge_submission(self, submission_id: int) -> None:
    from interviews.services.judging import LeaseHeld, submission_defer, submission_judge
    from mockloop.logs import bind_log_context, log_context_var

    token = bind_log_context(submission_id=submission_id, task_id=self.request.id)
    try:
        submission_judge(submission_id)
    except LeaseHeld as held:
        # Another delivery of this job is running; come back when its lease is over.
        raise self.retry(countdown=held.seconds, max_retries=None) from held
    except SandboxUnavailable as exc:
        # Say so at once (a clear internal_error); `requeue_submissions` judges it again
        # when the engine answers.
        logger.warning("sandbox unavailable for submission %s: %s", submission_id, exc)
        _release(submission_id)
        submission_defer(submission_id=submission_id)
    finally:
        log_context_var.reset(token)


@shared_task(name="sandbox.requeue_submissions", ignore_result=True, expires=10)
def requeue_submissions() -> dict[str, int]:
    """Beat, every few seconds: re-judge what the sandbox could not, and re-send jobs
    whose queue message was lost."""
    from interviews.services.judging import sandbox_available, submissions_requeue

    return submissions_requeue(sandbox_ok=sandbox_available())


def _release(submission_id: int) -> None:
    from interviews.models import Submission

    Submission.objects.filter(pk=submission_id, status=Submission.Status.RUNNING).update(
        status=Submission.Status.QUEUED
    )


@shared_task(name="sandbox.verify_question", acks_late=True, ignore_result=True)
def verify_question(question_id: int) -> None:
    """Run a question's reference on every hidden test; progress lands on the question."""
    from interviews.models import Question
    from interviews.services.verification import question_verify

    question = Question.objects.filter(pk=question_id).first()
    if question is not None:
        question_verify(question)


@worker_ready.connect
def _sweep_on_start(**kwargs) -> None:
    """Containers left by a killed worker carry our label; remove them at start."""
    try:
        removed = sweep_orphans()
    except Exception:
        logger.warning("could not sweep orphaned sandbox containers", exc_info=True)
        return
    if removed:
        logger.info("removed %d orphaned sandbox containers", len(removed))


@worker_process_shutdown.connect
def _close_pool(**kwargs) -> None:
    """Remove this child's idle warm-pool containers when it exits."""
    try:
        get_engine().close()
    except Exception:
        logger.info("could not close the sandbox pool", exc_info=True)
