"""Celery tasks of the judge: thin wrappers that take an id (or a job's data) and call one
function of `interviews.judging`.

`acks_late` + `reject_on_worker_lost` (settings) keep a job queued until it is judged; a
worker that dies mid-job has its message re-delivered, and the claim/lease in
`interviews.judging.submissions` makes the re-delivery judge exactly once.
"""

import logging

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from celery.signals import worker_process_shutdown, worker_ready
from django.conf import settings

import sandbox
from interviews.models import Submission
from mockloop.logs import bind_log_context, log_context_var

from .submissions import (
    LeaseHeld,
    submission_defer,
    submission_fail,
    submission_judge,
    submission_release,
    submissions_requeue,
)
from .verification import (
    ReferenceJob,
    reference_job_run,
    verification_abandon,
    verification_run,
)

logger = logging.getLogger(__name__)


# Message priorities on the Redis broker (kombu emulates them with one list per step and
# takes from the lowest step first): a run on the samples is someone waiting at the
# editor, so it goes ahead of submits of the hidden tests, however many are queued.
RUN_PRIORITY = 0
SUBMIT_PRIORITY = 6


def queue_judging(submission_id: int, *, mode: str | None = None) -> None:
    """Hand the submission to the judge, runs ahead of submits. If the broker is
    unreachable the row stays queued and the requeue sweep (beat) sends it again later.
    ``mode`` if the caller has it (the POST does), else read from the row."""
    if mode is None:
        mode = Submission.objects.filter(pk=submission_id).values_list("mode", flat=True).first()
    priority = RUN_PRIORITY if mode == Submission.Mode.RUN else SUBMIT_PRIORITY
    try:
        judge_submission.apply_async((submission_id,), priority=priority)
    except Exception:  # broker down: the row is the record; the sweep re-sends it
        logger.exception("could not queue submission %s for judging", submission_id)


def queue_verification(question_id: int, actor_id: int | None) -> None:
    """Hand a question's reference verification to the worker."""
    verify_question.delay(question_id, actor_id)


JUDGE_SOFT_S = settings.JUDGE_SOFT_TIME_LIMIT_SECONDS


@shared_task(
    bind=True,
    name="judging.judge_submission",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    soft_time_limit=JUDGE_SOFT_S,
    time_limit=JUDGE_SOFT_S + 30,
)
def judge_submission(self, submission_id: int) -> None:
    token = bind_log_context(submission_id=submission_id, task_id=self.request.id)
    try:
        submission_judge(submission_id)
    except LeaseHeld as held:
        # Another delivery of this job is running; come back when its lease is over.
        raise self.retry(countdown=held.seconds, max_retries=None) from held
    except sandbox.SandboxUnavailable as exc:
        # Say so at once (a clear internal_error); `requeue_submissions` judges it again
        # when the engine answers.
        logger.warning("sandbox unavailable for submission %s: %s", submission_id, exc)
        submission_release(submission_id)
        submission_defer(submission_id=submission_id)
    except SoftTimeLimitExceeded:
        logger.error("judging submission %s ran past %s s", submission_id, JUDGE_SOFT_S)
        submission_fail(
            submission_id=submission_id, reason=f"judging took longer than {JUDGE_SOFT_S} s."
        )
    except Exception as exc:
        # whatever went wrong in the judge (not in the candidate's code, which always ends
        # in a verdict), the submission must not stay `running`
        logger.exception("judging submission %s failed", submission_id)
        submission_fail(submission_id=submission_id, reason=f"{type(exc).__name__}.")
    finally:
        log_context_var.reset(token)


@shared_task(
    name="judging.requeue_submissions",
    ignore_result=True,
    expires=10,
    soft_time_limit=60,
    time_limit=90,
)
def requeue_submissions() -> dict[str, int]:
    """Beat, every few seconds: re-judge what the sandbox could not, and re-send jobs
    whose queue message was lost."""
    requeue = submissions_requeue(sandbox_ok=sandbox.ping())
    for submission_id in requeue.ids:
        queue_judging(submission_id)
    return requeue.counts()


@shared_task(
    name="judging.verify_question",
    acks_late=True,
    ignore_result=True,
    soft_time_limit=1800,
    time_limit=1830,
)
def verify_question(question_id: int, actor_id: int | None = None) -> None:
    """Run a question's reference on every sample and hidden test; progress and the
    outcome land on the question (the editor polls it)."""
    token = bind_log_context(question_id=question_id)
    try:
        verification_run(question_id=question_id, actor_id=actor_id)
    except SoftTimeLimitExceeded:
        logger.error("verifying question %s ran past its time limit", question_id)
        verification_abandon(
            question_id=question_id, reason="verification took longer than its time limit"
        )
    finally:
        log_context_var.reset(token)


@shared_task(
    name="judging.run_reference_job",
    acks_late=True,
    ignore_result=False,
    soft_time_limit=900,
    time_limit=930,
)
def run_reference_job(payload: dict) -> dict:
    """One language × part of a reference verification whose rows the caller has not
    committed yet (a bank import): the job's data comes with the message, the outcome
    goes back through the result backend."""
    return reference_job_run(ReferenceJob.from_payload(payload)).to_payload()


@worker_ready.connect
def _sweep_on_start(**kwargs) -> None:
    """Containers left by a killed worker carry our label; remove them at start."""
    try:
        removed = sandbox.sweep_orphans()
    except Exception:
        logger.warning("could not sweep orphaned sandbox containers", exc_info=True)
        return
    if removed:
        logger.info("removed %d orphaned sandbox containers", len(removed))


@worker_process_shutdown.connect
def _close_pool(**kwargs) -> None:
    """Remove this child's idle warm-pool containers when it exits."""
    try:
        sandbox.get_engine().close()
    except Exception:
        logger.info("could not close the sandbox pool", exc_info=True)
