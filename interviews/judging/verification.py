"""Verifying a coding question: its reference solution, in every language it has, must
pass every sample and hidden test of every part in the sandbox before the question may
be published.

Verification runs where the Docker engine is, on the worker, never in the web process
(in production web has no Docker socket):

- the API and the admin call `verification_request` (`interviews.judging.worker`): the
  question's verification becomes `queued`, and `judging.verify_question` runs
  `verification_run` on the worker, which
  writes progress and the outcome onto `Question.verification` (the editor polls it);
- a bank import verifies inside its own transaction, so its rows are not visible to any
  other process: it builds the jobs itself (`reference_jobs`) and runs them through a
  runner, `WorkerRunner` (`interviews.judging.worker`: the jobs' data travel with the
  messages) or `LocalRunner` (this process has the engine: the worker itself, or
  `import_bank --verify-here` before any worker runs).

Jobs (one per language × part, compile once, run many) run two at a time.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Protocol

from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from interviews.models import Part, Question, TestCase
from interviews.services.audit import audit_record
from interviews.services.errors import Unavailable
from sandbox import Job, SandboxUnavailable, Test, run_tests

from .jobs import expected_output, question_job

logger = logging.getLogger(__name__)

PARALLEL_JOBS = 2


class VerificationUnavailable(Unavailable):
    """Nothing can run the references right now: no Docker engine, or no worker (→ 503)."""

    code = "verification_unavailable"
    default_message = gettext_lazy(
        "Reference verification is unavailable: the sandbox's Docker engine or the judge "
        "worker does not answer."
    )


@dataclass
class VerificationResult:
    ok: bool
    failures: list[str] = field(default_factory=list)
    tests: int = 0
    #: The slowest hidden test per language and part ({"python": {"1": 90}}), in ms.
    reference_time_ms: dict[str, dict[str, int]] = field(default_factory=dict)


@dataclass
class ReferenceJob:
    """One language × part of a question's reference, with its tests (samples first)."""

    language: str
    part: int  # 1-based
    job: Job
    tests: list[Test]
    kinds: list[str]  # "samples" | "hidden", one per test: for failure paths
    #: The samples' text as the candidate reads it (input, expected output), so a failing
    #: sample is named by what it shows rather than by its index alone.
    samples: list[tuple[str, str]] = field(default_factory=list)

    def to_payload(self) -> dict:
        return {
            "language": self.language,
            "part": self.part,
            "job": self.job.to_dict(),
            "tests": [{"input": t.input, "expected": t.expected} for t in self.tests],
            "kinds": self.kinds,
            "samples": [list(sample) for sample in self.samples],
        }

    @classmethod
    def from_payload(cls, data: dict) -> ReferenceJob:
        return cls(
            language=data["language"],
            part=data["part"],
            job=Job.from_dict(data["job"]),
            tests=[Test(input=t["input"], expected=t["expected"]) for t in data["tests"]],
            kinds=list(data["kinds"]),
            samples=[(i, o) for i, o in data.get("samples", [])],
        )


@dataclass
class ReferenceOutcome:
    tests: int
    failures: list[str]
    #: The CPU time of the slowest hidden test: what a candidate's submit (which runs the
    #: hidden tests only) is compared with.
    max_hidden_time_ms: int = 0

    def to_payload(self) -> dict:
        return {
            "tests": self.tests,
            "failures": self.failures,
            "max_hidden_time_ms": self.max_hidden_time_ms,
        }

    @classmethod
    def from_payload(cls, data: dict) -> ReferenceOutcome:
        return cls(
            tests=data["tests"],
            failures=list(data["failures"]),
            max_hidden_time_ms=int(data.get("max_hidden_time_ms", 0)),
        )


OnDone = Callable[[ReferenceJob, ReferenceOutcome], None]


class ReferenceRunner(Protocol):
    def run(self, jobs: Sequence[ReferenceJob], on_done: OnDone) -> None:
        """Run every job, calling `on_done` (in this thread) as each one finishes.
        Raises `VerificationUnavailable` when nothing can run them."""


def reference_jobs(question: Question) -> list[ReferenceJob]:
    """Every language × part of the question's reference, with its sample tests and
    hidden tests (a sample that contradicts the reference misleads every candidate, so a
    part with samples alone is checked too)."""
    parts = Part.objects.filter(question=question).order_by("position").prefetch_related("tests")
    jobs = []
    for language in sorted(question.reference):
        for part in parts:
            cases = sorted(part.tests.all(), key=lambda t: (t.visibility != "sample", t.position))
            if not cases:
                continue
            job = question_job(
                question,
                language=language,
                code=question.reference[language],
                job_id=f"verify-{question.slug}-{language}-{part.position}",
            )
            jobs.append(
                ReferenceJob(
                    language=language,
                    part=part.position,
                    job=job,
                    tests=[
                        Test(input=c.input, expected=expected_output(question, c)) for c in cases
                    ],
                    kinds=[
                        "samples" if c.visibility == TestCase.Visibility.SAMPLE else "hidden"
                        for c in cases
                    ],
                    samples=[
                        (c.input, c.output)
                        for c in cases
                        if c.visibility == TestCase.Visibility.SAMPLE
                    ],
                )
            )
    return jobs


def _only_out_of_time(result) -> bool:
    """Whether the reference failed by its time limit alone (nothing wrong otherwise)."""
    verdicts = {outcome.verdict for outcome in result.tests}
    return "time_limit" in verdicts and verdicts <= {"accepted", "skipped", "time_limit"}


def reference_job_run(job: ReferenceJob) -> ReferenceOutcome:
    """Run one reference job in the sandbox (here, in this process) and describe what
    failed as `<language>: parts[i].hidden[j] <verdict>` (paths as in the bank file).
    A reference that only ran out of time runs once more: on a machine busy with other
    work (set-up beside a test run, say) a correct one can miss its limit, and refusing
    the whole bank for it would be wrong; a really slow one misses it twice."""
    result = run_tests(job.job, job.tests)
    if _only_out_of_time(result):
        logger.info(
            "%s part %s: reference over its time limit; running it again", job.language, job.part
        )
        result = run_tests(job.job, job.tests)
    failures: list[str] = []
    if result.verdict == "compile_error":
        failures.append(f"{job.language}: compile_error: {result.compile_output[:300]}")
    counters = {"samples": 0, "hidden": 0}
    max_hidden_time_ms = 0
    for outcome, kind in zip(result.tests, job.kinds, strict=False):
        index = counters[kind]
        counters[kind] += 1
        if kind == "hidden":
            max_hidden_time_ms = max(max_hidden_time_ms, outcome.time_ms)
        if outcome.verdict not in ("accepted", "skipped"):  # skipped: after a failure
            notes = [outcome.message[:200]] if outcome.message else []
            if kind == "samples" and index < len(job.samples):
                notes.insert(0, _sample_named(job.part, index, *job.samples[index]))
            detail = f" ({'; '.join(notes)})" if notes else ""
            failures.append(
                f"{job.language}: parts[{job.part - 1}].{kind}[{index}] {outcome.verdict}{detail}"
            )
    return ReferenceOutcome(
        tests=len(job.tests), failures=failures, max_hidden_time_ms=max_hidden_time_ms
    )


def _sample_named(part: int, index: int, given: str, expected: str) -> str:
    """`sample 1 of part 1, input "1 2", expects "999"`: the sample as candidates see it."""

    def shown(text: str) -> str:
        text = text.strip()
        return json.dumps(text if len(text) <= 60 else text[:57] + "...", ensure_ascii=False)

    return (
        f"sample {index + 1} of part {part}, shown to candidates: input {shown(given)}, "
        f"expects {shown(expected)}"
    )


class LocalRunner:
    """Runs the jobs in this process's sandbox engine, two at a time."""

    def run(self, jobs: Sequence[ReferenceJob], on_done: OnDone) -> None:
        try:
            with ThreadPoolExecutor(max_workers=PARALLEL_JOBS) as pool:
                futures = {pool.submit(reference_job_run, job): job for job in jobs}
                for future in as_completed(futures):
                    on_done(futures[future], future.result())
        except SandboxUnavailable as exc:
            raise VerificationUnavailable(
                _("The sandbox is unavailable (%(error)s). Start the Docker engine and try again.")
                % {"error": exc}
            ) from exc


Progress = Callable[[int, int], None]


def question_verify(
    question: Question, *, runner: ReferenceRunner, on_progress: Progress | None = None
) -> VerificationResult:
    """Run the reference on every test; progress and the outcome are written onto the
    question's `verification` (and, on success, `verified_at` and the reference's run
    times, `reference_time_ms`; not saved here)."""
    jobs = reference_jobs(question)
    total = sum(len(job.tests) for job in jobs)
    if not question.reference:
        return _finish(question, VerificationResult(ok=False, failures=["no reference solution"]))
    if not any("hidden" in job.kinds for job in jobs):
        return _finish(question, VerificationResult(ok=False, failures=["no hidden tests"]))
    done = 0
    failures: list[str] = []
    times: dict[str, dict[str, int]] = {}
    _progress(question, done, total)

    def job_done(job: ReferenceJob, outcome: ReferenceOutcome) -> None:
        nonlocal done
        failures.extend(outcome.failures)
        times.setdefault(job.language, {})[str(job.part)] = outcome.max_hidden_time_ms
        done += outcome.tests
        _progress(question, done, total)
        if on_progress:
            on_progress(done, total)

    try:
        runner.run(jobs, job_done)
    except VerificationUnavailable:
        _progress(question, done, total, state="unavailable")
        raise
    failures.sort()
    return _finish(
        question,
        VerificationResult(
            ok=not failures, failures=failures, tests=total, reference_time_ms=times
        ),
    )


def _progress(question: Question, done: int, total: int, state: str = "running") -> None:
    question.verification = {"state": state, "done": done, "total": total}
    if question.pk:
        Question.objects.filter(pk=question.pk).update(verification=question.verification)


def _finish(question: Question, result: VerificationResult) -> VerificationResult:
    question.verification = {
        "state": "passed" if result.ok else "failed",
        "done": result.tests,
        "total": result.tests,
        "failures": result.failures[:50],
        "checked_at": timezone.now().isoformat(),
    }
    if result.ok:
        question.verified_at = question.verified_at or timezone.now()
        question.reference_time_ms = result.reference_time_ms
    logger.info("verified %s: %s", question, question.verification["state"])
    return result


def verification_run(*, question_id: int, actor_id: int | None = None) -> VerificationResult | None:
    """The worker's side of `worker.verification_request`: run, store, audit."""
    question = Question.objects.filter(pk=question_id).first()
    if question is None:
        return None
    actor = get_user_model().objects.filter(pk=actor_id).first() if actor_id else None
    try:
        result = question_verify(question, runner=LocalRunner())
    except VerificationUnavailable as exc:
        logger.warning("verification of %s unavailable: %s", question, exc)
        return None
    question.save(update_fields=["verified_at", "verification", "reference_time_ms"])
    audit_record(
        actor=actor,
        action="question.verify",
        target=question,
        ok=bool(result.ok),
        failures=[str(f) for f in result.failures][:20],
    )
    return result


def verification_abandon(*, question_id: int, reason: str) -> None:
    """End a verification that could not finish (it ran past its time limit) as failed,
    so the editor stops showing it as running."""
    question = Question.objects.filter(pk=question_id).first()
    if question is None:
        return
    _finish(question, VerificationResult(ok=False, failures=[reason]))
    Question.objects.filter(pk=question_id).update(verification=question.verification)
