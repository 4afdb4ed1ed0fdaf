"""Verifying a coding question: its reference solution, in every language it has, must
pass every hidden test of every part in the sandbox before the question may be published.

Jobs (one per language × part, compile once, run many) run two at a time; progress is
written onto `Question.verification` as they finish so a UI (or `import_bank`) can show it.
"""

import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field

from django.utils import timezone

from interviews.models import Part, Question, TestCase
from sandbox import JobResult, SandboxUnavailable, Test, run_tests

from .judging import _expected, question_job

logger = logging.getLogger(__name__)

PARALLEL_JOBS = 2


@dataclass
class VerificationResult:
    ok: bool
    failures: list[str] = field(default_factory=list)
    tests: int = 0


Progress = Callable[[int, int], None]


def _jobs(question: Question) -> list[tuple[str, int, list[Test]]]:
    parts = list(
        Part.objects.filter(question=question).order_by("position").prefetch_related("tests")
    )
    jobs = []
    for language in sorted(question.reference):
        for part in parts:
            hidden = sorted(
                (t for t in part.tests.all() if t.visibility == TestCase.Visibility.HIDDEN),
                key=lambda t: t.position,
            )
            tests = [Test(input=t.input, expected=_expected(question, t)) for t in hidden]
            if tests:
                jobs.append((language, part.position, tests))
    return jobs


def question_verify(
    question: Question, *, on_progress: Progress | None = None
) -> VerificationResult:
    """Run the reference on every hidden test; returns what failed, as
    `<language>: parts[i].hidden[j] <verdict>` (paths as in the bank file)."""
    from .bank_import import VerificationUnavailable

    jobs = _jobs(question)
    total = sum(len(tests) for _, _, tests in jobs)
    if not question.reference:
        return _finish(question, VerificationResult(ok=False, failures=["no reference solution"]))
    if total == 0:
        return _finish(question, VerificationResult(ok=False, failures=["no hidden tests"]))
    done = 0
    failures: list[str] = []
    _progress(question, done, total)

    def run(language: str, part: int, tests: list[Test]) -> JobResult:
        job = question_job(
            question,
            language=language,
            code=question.reference[language],
            job_id=f"verify-{question.pk}-{language}-{part}",
        )
        return run_tests(job, tests)

    try:
        with ThreadPoolExecutor(max_workers=PARALLEL_JOBS) as pool:
            futures = {pool.submit(run, *job): job for job in jobs}
            for future in as_completed(futures):
                language, part, tests = futures[future]
                result = future.result()
                if result.verdict == "compile_error":
                    failures.append(f"{language}: compile_error: {result.compile_output[:300]}")
                for outcome in result.tests:
                    if outcome.verdict != "accepted":
                        detail = f" ({outcome.message[:200]})" if outcome.message else ""
                        failures.append(
                            f"{language}: parts[{part - 1}].hidden[{outcome.index}] "
                            f"{outcome.verdict}{detail}"
                        )
                done += len(tests)
                _progress(question, done, total)
                if on_progress:
                    on_progress(done, total)
    except SandboxUnavailable as exc:
        _progress(question, done, total, state="unavailable")
        raise VerificationUnavailable(
            f"The sandbox is unavailable ({exc}). Start the Docker engine and try again."
        ) from exc
    failures.sort()
    return _finish(question, VerificationResult(ok=not failures, failures=failures, tests=total))


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
    logger.info("verified %s: %s", question, question.verification["state"])
    return result
