"""Verification runs the reference on the samples candidates read as well as on the hidden
tests: a sample that contradicts the reference fails, named by what it shows, and a
draft part with samples only is checked too."""

import copy

import pytest

from interviews import models as m
from interviews.judging import verification
from interviews.judging.verification import LocalRunner, question_verify
from interviews.services.bank_import import bank_import
from sandbox import JobResult, TestResult
from tests.interviews import bank_data as data

pytestmark = pytest.mark.django_db


def _summing_sandbox(job, tests):
    """The bank test question's reference prints the sum of its input's numbers."""
    results = []
    for index, test in enumerate(tests):
        printed = f"{sum(int(n) for n in test.input.split())}\n"
        ok = printed.strip() == str(test.expected).strip()
        results.append(
            TestResult(
                index=index,
                verdict="accepted" if ok else "wrong_answer",
                message="" if ok else f"expected {str(test.expected).strip()!r}",
            )
        )
    verdict = next((r.verdict for r in results if r.verdict != "accepted"), "accepted")
    return JobResult(verdict=verdict, tests=results)


@pytest.fixture(autouse=True)
def summing_sandbox(monkeypatch):
    monkeypatch.setattr(verification, "run_tests", _summing_sandbox)


def _question(**changes) -> dict:
    question = copy.deepcopy(data.coding_question("adder-samples"))
    question["coding"]["reference"] = {"python": data.REFERENCE_CODE}
    first, second = question["coding"]["parts"]
    first["hidden"] = [{"input": "40 2\n", "output": "42\n"}]
    second["samples"] = [{"input": "3 1\n", "output": "4\n"}]
    second["hidden"] = [{"input": "9 9\n", "output": "18\n"}]
    for part, key, value in changes.get("parts", []):
        question["coding"]["parts"][part][key] = value
    if "status" in changes:
        question["status"] = changes["status"]
    return question


def _imported(question: dict) -> m.Question:
    bank_import({"questions": [question], "rubrics": [data.rubric()]}, verify=False)
    return m.Question.objects.get(slug=question["slug"])


def test_the_correct_samples_and_hidden_tests_all_pass():
    stored = _imported(_question())
    result = question_verify(stored, runner=LocalRunner())
    assert result.ok, result.failures
    assert stored.verification["total"] == 4  # (1 sample + 1 hidden) × 2 parts


def test_a_sample_that_contradicts_the_reference_fails_and_is_named():
    stored = _imported(_question(parts=[(0, "samples", [{"input": "1 2\n", "output": "999\n"}])]))
    result = question_verify(stored, runner=LocalRunner())
    assert not result.ok
    assert len(result.failures) == 1
    failure = result.failures[0]
    assert failure.startswith("python: parts[0].samples[0] wrong_answer (")
    assert 'sample 1 of part 1, shown to candidates: input "1 2", expects "999"' in failure
    assert stored.verification["state"] == "failed"
    assert stored.verified_at is None


def test_a_draft_part_with_samples_only_is_checked_too():
    stored = _imported(
        _question(
            status="draft",
            parts=[
                (1, "samples", [{"input": "3 1\n", "output": "5\n"}]),
                (1, "hidden", []),
            ],
        )
    )
    result = question_verify(stored, runner=LocalRunner())
    assert [f.split(" (")[0] for f in result.failures] == [
        "python: parts[1].samples[0] wrong_answer"
    ]


# --- a reference out of time ------------------------------------------------------------


def _sandbox_out_of_time_for(calls_out_of_time: int):
    """A sandbox whose first `calls_out_of_time` runs time out the first test (a busy
    machine), then sums as the reference does."""
    calls = []

    def run(job, tests):
        calls.append(len(tests))
        if len(calls) <= calls_out_of_time:
            skipped = [TestResult(index=i, verdict="skipped") for i in range(1, len(tests))]
            return JobResult(
                verdict="time_limit", tests=[TestResult(index=0, verdict="time_limit"), *skipped]
            )
        return _summing_sandbox(job, tests)

    return run, calls


def test_a_reference_that_only_ran_out_of_time_runs_once_more(monkeypatch):
    stored = _imported(_question())
    run, calls = _sandbox_out_of_time_for(1)
    monkeypatch.setattr(verification, "run_tests", run)
    result = question_verify(stored, runner=LocalRunner())
    assert result.ok, result.failures
    assert len(calls) == 3  # two parts, the first run again


def test_a_reference_out_of_time_twice_fails(monkeypatch):
    stored = _imported(_question())
    run, calls = _sandbox_out_of_time_for(10)
    monkeypatch.setattr(verification, "run_tests", run)
    result = question_verify(stored, runner=LocalRunner())
    assert not result.ok
    assert sorted(f.split(" (")[0] for f in result.failures) == [
        "python: parts[0].samples[0] time_limit",
        "python: parts[1].samples[0] time_limit",
    ]
    assert len(calls) == 4  # each part twice, no more


def test_a_wrong_answer_is_not_run_again(monkeypatch):
    stored = _imported(_question(parts=[(0, "samples", [{"input": "1 2\n", "output": "999\n"}])]))
    calls = []

    def counting(job, tests):
        calls.append(1)
        return _summing_sandbox(job, tests)

    monkeypatch.setattr(verification, "run_tests", counting)
    assert not question_verify(stored, runner=LocalRunner()).ok
    assert len(calls) == 2
