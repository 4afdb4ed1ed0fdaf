"""Sandbox jobs from bank rows: a question's limits and checker, a part's tests."""

import json
import threading
from collections import OrderedDict

from interviews import bank_cache
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
    return part_tests(submission.question, part=submission.part, visibility=visibility)


# A part's tests, kept in each worker process under the bank generation (see bank_cache):
# a question version's tests never change while submissions are judged against it, and
# any bank write moves the generation on, so a stale copy is never read. Bounded in
# entries and size; never in the shared cache (hidden tests stay in the database and in
# the judge's memory only).
PART_TESTS_ENTRIES = 64
PART_TESTS_MAX_CHARS = 4 * 1024 * 1024
_part_tests: OrderedDict[tuple, list[tuple[TestCase, Test]]] = OrderedDict()
_part_tests_lock = threading.Lock()


def part_tests(question: Question, *, part: int, visibility: str) -> list[tuple[TestCase, Test]]:
    """A part's sample or hidden tests in order, each with its row: from this process's
    copy when the bank has not changed since it was read."""
    generation = bank_cache.bank_generation()
    key = (generation, question.pk, part, visibility)
    if generation is not None:
        with _part_tests_lock:
            cached = _part_tests.get(key)
            if cached is not None:
                _part_tests.move_to_end(key)
                return cached
    cases = TestCase.objects.filter(
        part__question=question, part__position=part, visibility=visibility
    ).order_by("position")
    pairs = [
        (case, Test(input=case.input, expected=expected_output(question, case))) for case in cases
    ]
    size = sum(len(case.input) + len(case.output) for case, _ in pairs)
    if generation is not None and size <= PART_TESTS_MAX_CHARS:
        with _part_tests_lock:
            _part_tests[key] = pairs
            while len(_part_tests) > PART_TESTS_ENTRIES:
                _part_tests.popitem(last=False)
    return pairs
