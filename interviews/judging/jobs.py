"""Sandbox jobs from bank rows: a question's limits and checker, a part's tests."""

import json

from interviews.models import Question, Submission, TestCase
from sandbox import UNCHECKED, Job, Limits, Test


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


def expected_output(question: Question, case: TestCase):
    """A test's expected output as the checker compares it (JSON value for `function`)."""
    if question.io == "function":
        return json.loads(case.output) if case.output.strip() else None
    return case.output


def submission_tests(submission: Submission) -> list[tuple[TestCase | None, Test]]:
    """A run's sample tests (or its custom stdin, compared with nothing), or a submit's
    hidden tests, in order, each with the row it came from."""
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
        (case, Test(input=case.input, expected=expected_output(submission.question, case)))
        for case in cases
    ]
