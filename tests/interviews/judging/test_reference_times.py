"""Verification stores the reference's run time (its slowest hidden test per language and
part), which the automatic scorecard compares a candidate's slowest test with."""

import pytest

from interviews.judging import verification
from interviews.judging.verification import LocalRunner, question_verify
from sandbox import JobResult
from sandbox import TestResult as SandboxTestResult
from tests import factories as f

pytestmark = pytest.mark.django_db


def test_a_passed_verification_stores_the_slowest_hidden_test_per_language_and_part(
    monkeypatch,
):
    question = f.CodingQuestionFactory(status="draft")
    for position in (1, 2):
        part = f.PartFactory(question=question, position=position)
        f.TestCaseFactory(part=part, visibility="sample")
        f.TestCaseFactory(part=part, visibility="hidden")
        f.TestCaseFactory(part=part, visibility="hidden")
    # samples first, then the hidden tests; the sample is the slowest and does not count
    times = {1: [500, 40, 90], 2: [500, 120, 30]}

    def run_tests(job, tests):
        part = int(job.job_id.rsplit("-", 1)[1])
        return JobResult(
            verdict="accepted",
            tests=[
                SandboxTestResult(index=i, verdict="accepted", time_ms=ms)
                for i, ms in enumerate(times[part])
            ],
        )

    monkeypatch.setattr(verification, "run_tests", run_tests)
    result = question_verify(question, runner=LocalRunner())
    assert result.ok
    assert question.reference_time_ms == {"python": {"1": 90, "2": 120}}


def test_a_failed_verification_keeps_no_run_time(monkeypatch):
    question = f.CodingQuestionFactory(status="draft")
    f.TestCaseFactory(part=f.PartFactory(question=question), visibility="hidden")
    monkeypatch.setattr(
        verification,
        "run_tests",
        lambda job, tests: JobResult(
            verdict="wrong_answer", tests=[SandboxTestResult(index=0, verdict="wrong_answer")]
        ),
    )
    assert not question_verify(question, runner=LocalRunner()).ok
    assert question.reference_time_ms == {}


def test_the_run_time_travels_with_the_worker_message():
    outcome = verification.ReferenceOutcome(tests=3, failures=[], max_hidden_time_ms=77)
    back = verification.ReferenceOutcome.from_payload(outcome.to_payload())
    assert back.max_hidden_time_ms == 77
