"""Judging a submission: claim it, run its tests in the sandbox, store the verdicts.

The Celery task (`sandbox.tasks.judge_submission`) only calls `submission_judge`. Running
code (sandbox) is kept apart from scoring (here) and from what the candidate may see
(serializers).

Exactly once, even when Celery delivers twice: a worker *claims* a submission by bumping
`attempts` under a lease; only the holder of the current attempt may write results. A
duplicate delivery while the lease is held is retried later (and then finds the job done);
a crashed worker's lease runs out and the re-delivered job judges again from scratch.
"""

import json
import logging
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from interviews.models import Question, Submission, TestCase, TestResult
from interviews.realtime.events import emit
from sandbox import UNCHECKED, Job, JobResult, Limits, Test, run_tests

from .submissions import submission_status_payload

logger = logging.getLogger(__name__)

STORED_TEXT_CAP = 16 * 1024
RESULT_FIELDS = ("status", "verdict", "passed", "total", "compile_output", "finished_at")


@dataclass
class Claim:
    """What a worker gets when it claims a submission (None: done, or someone else's)."""

    submission: Submission
    attempt: int


class LeaseHeld(Exception):
    """Another worker is judging this submission right now; retry after `seconds`."""

    def __init__(self, seconds: float):
        super().__init__(f"lease held for another {seconds:.0f}s")
        self.seconds = seconds


def judge_lease() -> timedelta:
    return timedelta(seconds=getattr(settings, "JUDGE_LEASE_SECONDS", 120))


def question_job(question: Question, *, language: str, code: str, job_id: str = "") -> Job:
    """The sandbox job for running `code` against one of the question's parts."""
    return Job(
        language=language,
        code=code,
        io=question.io,
        entrypoint=question.entrypoint or None,
        checker=question.checker,
        limits=Limits(
            time_limit_ms=question.time_limit_ms,
            memory_limit_mb=question.memory_limit_mb,
            output_limit_mb=question.output_limit_mb,
        ),
        job_id=job_id,
    )


def _tests_for(submission: Submission) -> list[tuple[TestCase | None, Test]]:
    if submission.mode == Submission.Mode.RUN and submission.stdin is not None:
        return [(None, Test(input=submission.stdin, expected=UNCHECKED))]
    visibility = (
        TestCase.Visibility.HIDDEN
        if submission.mode == Submission.Mode.SUBMIT
        else TestCase.Visibility.SAMPLE
    )
    cases = TestCase.objects.filter(
        part__question=submission.question, part__position=submission.part, visibility=visibility
    ).order_by("position")
    return [
        (case, Test(input=case.input, expected=_expected(submission.question, case)))
        for case in cases
    ]


def _expected(question: Question, case: TestCase):
    if question.io == "function":
        return json.loads(case.output) if case.output.strip() else None
    return case.output


def submission_claim(submission_id: int) -> Claim | None:
    """Take the submission for judging, or say why not (None = nothing to do)."""
    now = timezone.now()
    stale = now - judge_lease()
    claimable = Q(status=Submission.Status.QUEUED) | Q(
        status=Submission.Status.RUNNING, started_at__lt=stale
    )
    with transaction.atomic():
        updated = Submission.objects.filter(claimable, pk=submission_id).update(
            status=Submission.Status.RUNNING, started_at=now, attempts=F("attempts") + 1
        )
        submission = (
            Submission.objects.select_related("question", "stage").filter(pk=submission_id).first()
        )
        if submission is None:
            logger.warning("submission %s vanished before judging", submission_id)
            return None
        if not updated:
            if submission.status == Submission.Status.RUNNING:
                left = (submission.started_at + judge_lease() - now).total_seconds()
                raise LeaseHeld(max(1.0, left))
            return None  # done or error already: a re-delivery, nothing to do
        emit(submission.stage_id, "submission.status", submission_status_payload(submission))
    return Claim(submission=submission, attempt=submission.attempts)


def submission_judge(submission_id: int) -> Submission | None:
    """Judge a submission exactly once. Raises `sandbox.SandboxUnavailable` (the task
    retries) when the infrastructure fails; anything the code does ends in a verdict."""
    claim = submission_claim(submission_id)
    if claim is None:
        return None
    submission = claim.submission
    pairs = _tests_for(submission)
    job = question_job(
        submission.question,
        language=submission.language,
        code=submission.code,
        job_id=f"submission-{submission.pk}-{claim.attempt}",
    )
    result = run_tests(job, [test for _, test in pairs])
    return submission_record_result(claim=claim, pairs=pairs, result=result)


def _cap(text: str) -> str:
    return text if len(text) <= STORED_TEXT_CAP else text[:STORED_TEXT_CAP] + "\n… (truncated)"


@transaction.atomic
def submission_record_result(
    *, claim: Claim, pairs: list[tuple[TestCase | None, Test]], result: JobResult
) -> Submission | None:
    """Store verdicts, if this claim still holds the submission (else drop them)."""
    submission = claim.submission
    submission.status = Submission.Status.DONE
    submission.verdict = result.verdict
    submission.passed = result.passed
    submission.total = result.total
    submission.compile_output = _cap(result.compile_output)
    submission.finished_at = timezone.now()
    # One UPDATE both checks the claim and stores the verdict (per-job DB work is part of
    # every submission's cost: see bench/judge.py).
    still_ours = Submission.objects.filter(
        pk=submission.pk, status=Submission.Status.RUNNING, attempts=claim.attempt
    ).update(**{name: getattr(submission, name) for name in RESULT_FIELDS})
    if not still_ours:
        logger.info("submission %s attempt %s lost its claim", submission.pk, claim.attempt)
        return None
    hidden = submission.mode == Submission.Mode.SUBMIT
    if claim.attempt > 1:  # only an earlier attempt could have left rows (it cannot, as
        # rows are written with the claim check above; this keeps re-judging safe anyway)
        TestResult.objects.filter(submission=submission).delete()
    rows = []
    for (case, test), outcome in zip(pairs, result.tests, strict=False):
        rows.append(
            TestResult(
                submission=submission,
                index=outcome.index,
                hidden=hidden,
                verdict=outcome.verdict,
                time_ms=outcome.time_ms,
                memory_kb=outcome.memory_kb,
                exit_signal=outcome.exit_signal or "",
                message="" if hidden else _cap(outcome.message),
                input="" if hidden else _cap(str(test.input)),
                expected="" if hidden or case is None else _cap(case.output),
                output="" if hidden else _cap(outcome.output),
                stderr="" if hidden else _cap(outcome.stderr),
            )
        )
    TestResult.objects.bulk_create(rows)
    emit(submission.stage_id, "submission.status", submission_status_payload(submission))
    if hidden and result.verdict == "accepted" and result.total:
        from .live import stage_on_part_passed

        stage_on_part_passed(submission=submission)
    return submission


SANDBOX_DOWN_MESSAGE = (
    "The sandbox is unavailable right now, so this was not judged. "
    "It will be judged automatically as soon as the sandbox is back."
)
REQUEUE_DELAY = timedelta(seconds=10)
STALE_QUEUED = timedelta(seconds=90)
MAX_ATTEMPTS = 20


@transaction.atomic
def submission_defer(*, submission_id: int, error: str = SANDBOX_DOWN_MESSAGE) -> None:
    """The sandbox failed (engine down, image missing): show a clear `internal_error` now
    and let `submissions_requeue` judge it again once the sandbox answers."""
    submission = Submission.objects.select_for_update().filter(pk=submission_id).first()
    if submission is None or submission.status == Submission.Status.DONE:
        return
    submission.status = Submission.Status.ERROR
    submission.verdict = "internal_error"
    submission.error = error[:2000]
    submission.finished_at = timezone.now()
    submission.requeue_at = timezone.now() + REQUEUE_DELAY
    submission.save(update_fields=["status", "verdict", "error", "finished_at", "requeue_at"])
    emit(
        submission.stage_id,
        "submission.status",
        {**submission_status_payload(submission), "message": submission.error},
    )


def submissions_requeue(*, sandbox_ok: bool, now=None) -> dict[str, int]:
    """Hand submissions back to the judge (beat, every few seconds):

    - those deferred because the sandbox was down, once it answers again;
    - those queued for a while that no worker took (their broker message may have been
      lost, e.g. in a Redis restart). A duplicate message is harmless: claims are
      exactly-once.
    """
    from .submissions import queue_judging

    now = now or timezone.now()
    requeued = stale = 0
    if sandbox_ok:
        deferred = Submission.objects.filter(
            status=Submission.Status.ERROR, requeue_at__lte=now, attempts__lt=MAX_ATTEMPTS
        ).values_list("pk", flat=True)
        for pk in list(deferred[:200]):
            with transaction.atomic():
                updated = Submission.objects.filter(
                    pk=pk, status=Submission.Status.ERROR, requeue_at__isnull=False
                ).update(
                    status=Submission.Status.QUEUED,
                    verdict="",
                    error="",
                    finished_at=None,
                    requeue_at=now + STALE_QUEUED,
                )
                if updated:
                    submission = Submission.objects.get(pk=pk)
                    emit(
                        submission.stage_id,
                        "submission.status",
                        submission_status_payload(submission),
                    )
                    transaction.on_commit(lambda pk=pk: queue_judging(pk))
                    requeued += updated
    lost = Submission.objects.filter(
        status=Submission.Status.QUEUED, created_at__lte=now - STALE_QUEUED
    ).filter(Q(requeue_at__isnull=True) | Q(requeue_at__lte=now))
    for pk in list(lost.values_list("pk", flat=True)[:200]):
        Submission.objects.filter(pk=pk).update(requeue_at=now + STALE_QUEUED)
        queue_judging(pk)
        stale += 1
    return {"requeued": requeued, "stale": stale}


def sandbox_available() -> bool:
    """Whether the Docker engine answers (cheap ping, short timeout)."""
    from sandbox.engine import docker_client

    try:
        client = docker_client()
        try:
            return bool(client.ping())
        finally:
            client.close()
    except Exception:
        return False
