"""Judging a submission: claim it, run its tests in the sandbox, store the verdicts.

The Celery task (`interviews.judging.tasks.judge_submission`) only calls
`submission_judge`. Running code (sandbox) is kept apart from scoring (here) and from what
the candidate may see (serializers).

Exactly once, even when Celery delivers twice: a worker *claims* a submission by bumping
`attempts` under a lease; only the holder of the current attempt may write results. A
duplicate delivery while the lease is held is retried later (and then finds the job done);
a crashed worker's lease runs out and the re-delivered job judges again from scratch.
"""

import logging
import time
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from interviews.models import Question, Submission, TestCase, TestResult
from interviews.realtime.events import emit
from interviews.selectors.compiled import CompiledValues, instance_from_columns
from sandbox import JobResult, Test, run_tests

from .jobs import question_job, submission_tests
from .signals import part_passed

logger = logging.getLogger(__name__)

STORED_TEXT_CAP = 16 * 1024
RESULT_FIELDS = (
    "status",
    "verdict",
    "passed",
    "total",
    "max_time_ms",
    "max_memory_kb",
    "compile_output",
    "finished_at",
)


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


def submission_status_payload(submission: Submission) -> dict:
    """The `submission.status` event payload (event_types.SubmissionStatusPayload); only a
    deferral (`submission_defer`) fills in `message`."""
    return {
        "id": submission.pk,
        "status": submission.status,
        "verdict": submission.verdict,
        "passed": submission.passed,
        "total": submission.total,
        "question": submission.question_id,
        "part": submission.part,
        "mode": submission.mode,
        "message": None,
    }


INTERRUPTED_TWICE = "its judging was interrupted twice (the worker judging it stopped)."

#: What judging reads of a claimed submission and its question (the sandbox job's
#: settings): not the question's prompt, translations or starter code, nor the stage.
CLAIMED_COLUMNS = (
    "id",
    "stage_id",
    "question_id",
    "part",
    "author_id",
    "language",
    "code",
    "mode",
    "stdin",
    "status",
    "verdict",
    "passed",
    "total",
    "attempts",
    "leased_until",
)
JOB_COLUMNS = (
    "id",
    "io",
    "entrypoint",
    "checker",
    "time_limit_ms",
    "memory_limit_mb",
    "output_limit_mb",
)
# Compiled to SQL once per worker thread (CompiledValues): building the join for every
# job was most of the claim's CPU.
_CLAIMED = CompiledValues(
    lambda submission_id: Submission.objects.filter(pk=submission_id).values(
        *CLAIMED_COLUMNS, *(f"question__{name}" for name in JOB_COLUMNS)
    )[:1],
    "submission_id",
)


def _claimed_submission(submission_id: int) -> Submission | None:
    """The submission with its question's job settings loaded (the rest deferred)."""
    found = _CLAIMED.rows(submission_id=submission_id)
    if not found:
        return None
    columns = found[0]
    question = {name: columns.pop(f"question__{name}") for name in JOB_COLUMNS}
    submission = instance_from_columns(Submission, columns)
    submission.question = instance_from_columns(Question, question)
    return submission


def submission_claim(submission_id: int) -> Claim | None:
    """Take the submission for judging, or say why not (None = nothing to do).

    A queued submission is claimed under a fresh lease. A running one whose lease expired
    (its worker died, and the broker delivered the message again) is claimed once more;
    if that re-judge's lease expires too, it ends as internal_error.
    """
    now = timezone.now()
    lease_until = now + judge_lease()
    expired = Q(status=Submission.Status.RUNNING, leased_until__lt=now)
    take = {
        "status": Submission.Status.RUNNING,
        "started_at": now,
        "leased_until": lease_until,
        "attempts": F("attempts") + 1,
    }
    with transaction.atomic():
        rows = Submission.objects.filter(pk=submission_id)
        updated = rows.filter(status=Submission.Status.QUEUED).update(**take)
        if not updated:
            updated = rows.filter(expired, expired_leases=0).update(
                **take, expired_leases=F("expired_leases") + 1
            )
        if not updated and rows.filter(expired).exists():
            submission_fail(submission_id=submission_id, reason=INTERRUPTED_TWICE)
            return None
        submission = _claimed_submission(submission_id)
        if submission is None:
            logger.warning("submission %s vanished before judging", submission_id)
            return None
        if not updated:
            if submission.status == Submission.Status.RUNNING:
                left = (submission.leased_until - now).total_seconds()
                raise LeaseHeld(max(1.0, left))
            return None  # done or error already: a re-delivery, nothing to do
        emit(submission.stage_id, "submission.status", submission_status_payload(submission))
    return Claim(submission=submission, attempt=submission.attempts)


def submission_lease_renew(claim: Claim) -> bool:
    """Extend the claim's lease (a long job's worker is alive: its tests keep finishing).
    False if the claim no longer holds the submission."""
    return bool(
        Submission.objects.filter(
            pk=claim.submission.pk, status=Submission.Status.RUNNING, attempts=claim.attempt
        ).update(leased_until=timezone.now() + judge_lease())
    )


def submission_judge(submission_id: int) -> Submission | None:
    """Judge a submission exactly once. Raises `sandbox.SandboxUnavailable` (the task
    retries) when the infrastructure fails; anything the code does ends in a verdict."""
    claim = submission_claim(submission_id)
    if claim is None:
        return None
    submission = claim.submission
    pairs = submission_tests(submission)
    job = question_job(
        submission.question,
        language=submission.language,
        code=submission.code,
        job_id=f"submission-{submission.pk}-{claim.attempt}",
    )
    renew_every = judge_lease().total_seconds() / 4
    renewed = time.monotonic()

    def on_test(_outcome) -> None:
        nonlocal renewed
        if time.monotonic() - renewed > renew_every:
            submission_lease_renew(claim)
            renewed = time.monotonic()

    result = run_tests(job, [test for _, test in pairs], on_test=on_test)
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
    submission.max_time_ms = max((t.time_ms for t in result.tests), default=0)
    submission.max_memory_kb = max((t.memory_kb for t in result.tests), default=0)
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
        part_passed.send(sender=Submission, submission=submission)
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


JUDGE_FAILED_MESSAGE = "The judge failed on this submission, so it has no verdict: {reason}"


@transaction.atomic
def submission_fail(*, submission_id: int, reason: str) -> bool:
    """End a submission that cannot be judged (the judge itself failed, or it ran past its
    time limit) as `internal_error` with a message, for good: never left `running`, not
    re-judged by the sweep. False if it was already finished."""
    submission = Submission.objects.select_for_update().filter(pk=submission_id).first()
    if submission is None or submission.status not in (
        Submission.Status.QUEUED,
        Submission.Status.RUNNING,
    ):
        return False
    submission.status = Submission.Status.ERROR
    submission.verdict = "internal_error"
    submission.error = JUDGE_FAILED_MESSAGE.format(reason=reason)[:2000]
    submission.finished_at = timezone.now()
    submission.requeue_at = None
    submission.save(update_fields=["status", "verdict", "error", "finished_at", "requeue_at"])
    emit(
        submission.stage_id,
        "submission.status",
        {**submission_status_payload(submission), "message": submission.error},
    )
    return True


@dataclass
class Requeue:
    """What one sweep handed back to the judge (the task sends these ids)."""

    deferred: list[int] = field(default_factory=list)  # the sandbox is back: judge again
    lost: list[int] = field(default_factory=list)  # queued too long: the message was lost
    expired: list[int] = field(default_factory=list)  # its judge died: judge it once more
    abandoned: list[int] = field(default_factory=list)  # its judge died twice: internal_error

    @property
    def ids(self) -> list[int]:
        return [*self.deferred, *self.lost, *self.expired]

    def counts(self) -> dict[str, int]:
        return {
            "requeued": len(self.deferred),
            "stale": len(self.lost),
            "expired": len(self.expired),
            "abandoned": len(self.abandoned),
        }


def submissions_requeue(*, sandbox_ok: bool, now=None) -> Requeue:
    """Pick the submissions to hand back to the judge (beat, every few seconds):

    - those deferred because the sandbox was down, once it answers again;
    - those queued for a while that no worker took (their broker message may have been
      lost, e.g. in a Redis restart). A duplicate message is harmless: claims are
      exactly-once;
    - those running whose lease expired (the worker died, and its message may be gone
      with a restarted Redis): queued again the first time, ended as internal_error the
      second.

    Each is marked as re-sent (committed) before this returns; the caller queues them.
    """
    now = now or timezone.now()
    requeue = Requeue()
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
                    requeue.deferred.append(pk)
    lost = Submission.objects.filter(
        status=Submission.Status.QUEUED, created_at__lte=now - STALE_QUEUED
    ).filter(Q(requeue_at__isnull=True) | Q(requeue_at__lte=now))
    for pk in list(lost.values_list("pk", flat=True)[:200]):
        Submission.objects.filter(pk=pk).update(requeue_at=now + STALE_QUEUED)
        requeue.lost.append(pk)
    expired = Submission.objects.filter(status=Submission.Status.RUNNING, leased_until__lt=now)
    for pk, times in list(expired.values_list("pk", "expired_leases")[:200]):
        with transaction.atomic():
            if times:
                if submission_fail(submission_id=pk, reason=INTERRUPTED_TWICE):
                    requeue.abandoned.append(pk)
                continue
            updated = Submission.objects.filter(
                pk=pk, status=Submission.Status.RUNNING, leased_until__lt=now, expired_leases=0
            ).update(
                status=Submission.Status.QUEUED,
                expired_leases=1,
                leased_until=None,
                requeue_at=now + STALE_QUEUED,
            )
            if updated:
                submission = Submission.objects.get(pk=pk)
                emit(
                    submission.stage_id, "submission.status", submission_status_payload(submission)
                )
                requeue.expired.append(pk)
    return requeue


def submission_release(submission_id: int) -> None:
    """Hand a claimed submission back to the queue (this worker could not judge it)."""
    Submission.objects.filter(pk=submission_id, status=Submission.Status.RUNNING).update(
        status=Submission.Status.QUEUED
    )
