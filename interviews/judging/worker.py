"""Handing judging work to the worker: verification requests, and a runner that sends a
bank import's reference jobs to the worker and waits for them."""

from __future__ import annotations

import time
from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from interviews.models import Question
from interviews.models.bank import QuestionKind
from interviews.services.errors import StateConflict

from .tasks import queue_verification, run_reference_job
from .verification import OnDone, ReferenceJob, ReferenceOutcome, VerificationUnavailable


def verification_request(*, question: Question, actor=None) -> Question:
    """Queue the verification of a coding question on the worker (API, admin). The
    question's `verification` says `queued` at once and moves on as the worker runs."""
    if question.kind != QuestionKind.CODING:
        raise StateConflict(_("Only coding questions have a reference solution to verify."))
    question.verification = {"state": "queued", "done": 0, "total": 0}
    Question.objects.filter(pk=question.pk).update(verification=question.verification)
    actor_id = actor.pk if actor is not None and actor.is_authenticated else None
    question_id = question.pk
    transaction.on_commit(lambda: queue_verification(question_id, actor_id))
    return question


class WorkerRunner:
    """Runs reference jobs on the judge workers (the only processes with a Docker
    engine in production) and waits for their outcomes."""

    def __init__(self, *, app=None, timeout_s: float = 1800, ping_timeout_s: float = 2.0):
        self.app = app or run_reference_job.app
        self.timeout_s = timeout_s
        self.ping_timeout_s = ping_timeout_s

    def run(self, jobs: Sequence[ReferenceJob], on_done: OnDone) -> None:
        if not jobs:
            return
        if not self.app.control.ping(timeout=self.ping_timeout_s):
            raise VerificationUnavailable(
                _(
                    "No judge worker answered, so the reference solutions cannot be verified. "
                    "Start one (make run, or docker compose up worker), or run import_bank "
                    "with --verify-here on a machine with the Docker engine."
                )
            )
        pending = {run_reference_job.delay(job.to_payload()): job for job in jobs}
        deadline = time.monotonic() + self.timeout_s
        try:
            while pending:
                for result in [r for r in pending if r.ready()]:
                    job = pending.pop(result)
                    if result.failed():
                        raise VerificationUnavailable(
                            _(
                                "The worker could not run the %(language)s reference of part "
                                "%(part)s: %(error)s"
                            )
                            % {"language": job.language, "part": job.part, "error": result.result}
                        )
                    on_done(job, ReferenceOutcome.from_payload(result.get()))
                    result.forget()
                if pending and time.monotonic() > deadline:
                    raise VerificationUnavailable(
                        _(
                            "%(count)s reference jobs did not finish within %(seconds)s s; is "
                            "the judge worker overloaded?"
                        )
                        % {"count": len(pending), "seconds": f"{self.timeout_s:.0f}"}
                    )
                time.sleep(0.1)
        finally:
            for result in pending:
                result.revoke()
