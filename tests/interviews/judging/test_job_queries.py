"""The judge's database work per job stays small and bounded (it is part of every
submission's cost: bench/judge.py), and the tests it keeps in memory are never stale."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from interviews.judging import jobs
from interviews.judging import submissions as judging
from interviews.models import Part, Stage, StageFollowUp, Submission, TestCase
from sandbox import JobResult
from sandbox import TestResult as SandboxTestResult
from tests.factories import FollowUpFactory, TestCaseFactory
from tests.interviews.world import World

API = "/api/v1"
N_TESTS = 10


@pytest.fixture
def ten_hidden_tests(world: World, monkeypatch) -> Part:
    """Part 1 of the world's coding question with 10 hidden tests, judged by a stand-in
    sandbox that echoes each test's input (the real one: tests/integration)."""
    part = Part.objects.get(question=world.coding_q, position=1)
    TestCase.objects.filter(part=part, visibility="hidden").delete()
    for n in range(N_TESTS):
        TestCaseFactory(part=part, visibility="hidden", position=n, input=f"{n}\n", output=f"{n}\n")
    monkeypatch.setattr(judging, "run_tests", _echoing_sandbox)
    monkeypatch.setattr(jobs, "_part_tests", type(jobs._part_tests)())
    return part


def _echoing_sandbox(job, tests, **options) -> JobResult:
    results = [
        SandboxTestResult(
            index=n,
            verdict="accepted" if test.input == test.expected else "wrong_answer",
            output=test.input,
        )
        for n, test in enumerate(tests)
    ]
    passed = all(result.verdict == "accepted" for result in results)
    return JobResult(verdict="accepted" if passed else "wrong_answer", tests=results)


def _submit(world: World) -> Submission:
    return Submission.objects.create(
        stage=world.coding,
        question=world.coding_q,
        part=1,
        author=world.owner,
        language="python",
        code="print(input())",
        mode="submit",
    )


def _submission_body(world: World) -> dict:
    """A submit of part 1 of the world's coding question, as the candidate's page POSTs it."""
    return {
        "stage": world.coding.pk,
        "question": world.coding_q.pk,
        "part": 1,
        "language": "python",
        "code": "print(3)",
        "mode": "submit",
    }


def _tables_written(queries: CaptureQueriesContext, verb: str) -> list[str]:
    return [q["sql"].split('"')[1] for q in queries.captured_queries if q["sql"].startswith(verb)]


@pytest.mark.django_db
def test_a_ten_test_job_runs_a_bounded_number_of_queries(world: World, ten_hidden_tests):
    """Claim (one UPDATE, one SELECT, the `running` event), the tests, the verdict (one
    UPDATE), every test result in one INSERT, the `done` event, and the scripted
    interviewer's check after an accepted submit."""
    submission = _submit(world)
    with CaptureQueriesContext(connection) as queries:
        judging.submission_judge(submission.pk)
    assert len(queries.captured_queries) <= 18, [q["sql"] for q in queries.captured_queries]
    assert _tables_written(queries, "INSERT") == [
        "interviews_stageevent",
        "interviews_testresult",
        "interviews_stageevent",
    ]
    assert _tables_written(queries, "UPDATE").count("interviews_submission") == 2
    submission.refresh_from_db()
    assert (submission.verdict, submission.passed, submission.tests.count()) == (
        "accepted",
        N_TESTS,
        N_TESTS,
    )


@pytest.mark.django_db
def test_the_next_job_of_a_part_reads_its_tests_from_memory(world: World, ten_hidden_tests):
    judging.submission_judge(_submit(world).pk)
    submission = _submit(world)
    with CaptureQueriesContext(connection) as queries:
        judging.submission_judge(submission.pk)
    assert not [q for q in queries.captured_queries if "interviews_testcase" in q["sql"]]
    assert len(queries.captured_queries) <= 17
    submission.refresh_from_db()
    assert (submission.verdict, submission.passed) == ("accepted", N_TESTS)


@pytest.mark.django_db
def test_a_bank_change_is_seen_by_the_next_job(world: World, ten_hidden_tests):
    """Any bank write moves the generation on: the worker reads the tests again."""
    judging.submission_judge(_submit(world).pk)
    TestCaseFactory(
        part=ten_hidden_tests, visibility="hidden", position=N_TESTS, input="a", output="b"
    )
    submission = _submit(world)
    judging.submission_judge(submission.pk)
    submission.refresh_from_db()
    assert (submission.verdict, submission.passed, submission.total) == (
        "wrong_answer",
        N_TESTS,
        N_TESTS + 1,
    )


@pytest.mark.django_db
def test_without_the_cache_tests_come_from_the_database(
    world: World, ten_hidden_tests, monkeypatch
):
    monkeypatch.setattr(jobs.bank_cache, "bank_generation", lambda: None)
    for _ in range(2):
        submission = _submit(world)
        with CaptureQueriesContext(connection) as queries:
            judging.submission_judge(submission.pk)
        assert [q for q in queries.captured_queries if "interviews_testcase" in q["sql"]]
    assert not jobs._part_tests


@pytest.mark.django_db
def test_submission_detail_joins_nothing_it_does_not_show(world: World, as_user):
    """The detail a room polls for each verdict: the submission and its test results."""
    client = as_user(world.owner)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"{API}/submissions/{world.submission.pk}/")
    assert response.status_code == 200
    # Signing in reads the token with the account's profile (its language): not counted.
    ours = [
        q["sql"]
        for q in queries.captured_queries
        if '"interviews_' in q["sql"] and '"knox_authtoken"' not in q["sql"]
    ]
    assert len(ours) == 2, ours
    assert 'JOIN "interviews_question"' not in ours[0], ours[0]
    assert 'JOIN "interviews_loop"' not in ours[0].split("WHERE")[0], ours[0]


@pytest.mark.django_db
def test_a_submission_post_loads_the_stage_without_joins(world: World, as_user, monkeypatch):
    """The view checks the stage is visible; the service loads and locks it itself, so
    the view's lookup has no joins of the stage detail (loop, coach, scorecard)."""
    monkeypatch.setattr("interviews.services.submissions.queue_judging", lambda pk, **_: None)
    client = as_user(world.owner)
    body = _submission_body(world)
    with CaptureQueriesContext(connection) as queries:
        response = client.post(f"{API}/submissions/", body, format="json")
    assert response.status_code == 202, response.content
    ours = [q["sql"] for q in queries.captured_queries if '"interviews_' in q["sql"]]
    assert len(ours) <= 16, ours
    assert not [sql for sql in ours if "interviews_scorecard" in sql]
    assert as_user(world.other).post(f"{API}/submissions/", body, format="json").status_code == 404


@pytest.mark.django_db
def test_a_submission_post_and_its_queuing_run_a_bounded_number_of_queries(
    world: World, as_user, monkeypatch, django_capture_on_commit_callbacks
):
    """The whole POST, sign-in and throttles included, and what runs on its commit
    (queuing, the event's broadcast): the queuing reads nothing back, and on SQLite the
    in-flight check takes no row lock (there are none)."""
    from interviews.judging import tasks

    queued = []
    monkeypatch.setattr(
        tasks.judge_submission, "apply_async", lambda args, **options: queued.append(args)
    )
    client = as_user(world.owner)
    body = _submission_body(world)
    with (
        CaptureQueriesContext(connection) as queries,
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = client.post(f"{API}/submissions/", body, format="json")
    assert response.status_code == 202, response.content
    assert queued == [(response.json()["id"],)]
    sqls = [q["sql"] for q in queries.captured_queries]
    assert not [sql for sql in sqls if sql.startswith('SELECT "interviews_submission"."mode"')]
    if not connection.features.has_select_for_update:
        assert not [sql for sql in sqls if sql.startswith('SELECT "auth_user"')], sqls
    assert len(sqls) <= (16 if connection.features.has_select_for_update else 15), sqls


@pytest.mark.django_db
def test_the_worker_judges_a_warm_ten_test_job_in_twelve_queries(
    world: World, ten_hidden_tests, django_assert_max_num_queries
):
    """Warm (the part's tests and the question's facts in this process's memory): the
    claim's UPDATE, then the submission with only its question's job settings (one
    compiled SELECT, no stage, no prompt), the `running` event (number, row); the verdict's
    UPDATE, every test result in one INSERT, the `done` event; and nothing for the
    scripted interviewer, as the question has no `on_part_passed` follow-up. Plus the two
    transactions' savepoints in a test; on PostgreSQL each event also locks the stage."""
    judging.submission_judge(_submit(world).pk)
    submission = _submit(world)
    bound = 14 if connection.vendor == "postgresql" else 12
    with django_assert_max_num_queries(bound) as queries:
        judging.submission_judge(submission.pk)
    sqls = [q["sql"] for q in queries.captured_queries]
    assert not [sql for sql in sqls if '"interviews_question"."prompt"' in sql], sqls
    assert not [sql for sql in sqls if sql.startswith('SELECT "interviews_stage"')], sqls
    assert not [sql for sql in sqls if "interviews_followup" in sql], sqls
    submission.refresh_from_db()
    assert (submission.verdict, submission.passed) == ("accepted", N_TESTS)


@pytest.mark.django_db
def test_a_follow_up_added_to_the_bank_fires_on_the_next_passed_part(
    world: World, ten_hidden_tests
):
    """The question's facts are kept under the bank generation: once an `on_part_passed`
    follow-up is added, the next accepted submit fires it."""
    # continued solo: the scripted interviewer asks (world.coding's coach is not in the room)
    Stage.objects.filter(pk=world.coding.pk).update(coach=None, coach_requested=False)
    judging.submission_judge(_submit(world).pk)
    assert not StageFollowUp.objects.filter(stage=world.coding).exists()
    follow_up = FollowUpFactory(
        question=world.coding_q, position=3, trigger="on_part_passed", unlocks_part=None
    )
    judging.submission_judge(_submit(world).pk)
    assert StageFollowUp.objects.filter(stage=world.coding, follow_up=follow_up).exists()


@pytest.mark.django_db
def test_a_warm_submission_post_runs_ten_queries(
    world: World, as_user, monkeypatch, django_assert_max_num_queries
):
    """Warm (the stage's question ids and the question's facts in the process memo):
    the token, the stage's state (the visibility rule), its lock with its status, the
    in-flight count, the INSERT, the `queued` event (number, row), the queue position,
    and the test transaction's savepoint pair. Not the question's row, its parts or its
    follow-ups (part 1 is never locked). PostgreSQL: + the author's and the stage's row
    locks."""
    monkeypatch.setattr("interviews.services.submissions.queue_judging", lambda pk, **_: None)
    client = as_user(world.owner)
    body = _submission_body(world)
    assert client.post(f"{API}/submissions/", body, format="json").status_code == 202
    Submission.objects.filter(status="queued").update(status="done")
    bound = 12 if connection.vendor == "postgresql" else 10
    with django_assert_max_num_queries(bound) as queries:
        response = client.post(f"{API}/submissions/", body, format="json")
    assert response.status_code == 202, response.content
    assert response.json()["queue_position"] == 1
    sqls = [q["sql"] for q in queries.captured_queries]
    assert not [sql for sql in sqls if "interviews_question" in sql or "interviews_part" in sql]
    assert not [sql for sql in sqls if "interviews_followup" in sql]
