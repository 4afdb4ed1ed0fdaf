"""Judging end to end: the API queues a submission, the real Celery worker runs it in the
real Docker engine, verdicts land in the database exactly once."""

import functools
import os
import time

import pytest
import redis
from django.core.management import call_command
from rest_framework.test import APIClient

from interviews.judging import tasks
from interviews.models import (
    Loop,
    LoopTemplate,
    Question,
    Stage,
    StageEvent,
    Submission,
    TestResult,
)
from interviews.services.loops import loop_start
from interviews.services.stages import stage_start
from sandbox.engine import LABEL, LABEL_OWNER, docker_client
from tests.factories import UserFactory

pytestmark = pytest.mark.integration

SLOW_PYTHON = "import time, sys\ntime.sleep(1.5)\n" + "sys.stdout.write(sys.stdin.read())\n"


def _challenge(candidate) -> tuple[Stage, Question]:
    call_command("import_bank", "bank", "--no-verify", verbosity=0)
    template = LoopTemplate.objects.get(slug="ai-lab-infra-sde")
    loop: Loop = loop_start(candidate=candidate, template=template, coached=False)
    stage = loop.stages.get(kind="challenge")
    stage_start(stage=stage, actor=candidate)
    return stage, stage.questions.get(slug="token-batcher")


def _submit(client: APIClient, stage: Stage, question: Question, code: str, **extra) -> int:
    body = {"stage": stage.pk, "question": question.pk, "part": 1, "language": "python"}
    response = client.post("/api/v1/submissions/", {**body, "code": code, **extra}, format="json")
    assert response.status_code == 202, response.content
    return response.json()["id"]


def _wait_done(client: APIClient, submission_id: int, timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        data = client.get(f"/api/v1/submissions/{submission_id}/").json()
        if data["status"] in ("done", "error"):
            return data
        time.sleep(0.1)
    raise AssertionError(f"submission {submission_id} not judged in {timeout}s: {data}")


@pytest.fixture
def candidate_client(transactional_db):
    candidate = UserFactory()
    client = APIClient()
    client.force_authenticate(candidate)
    return candidate, client


def test_reference_is_accepted_on_hidden_tests_and_hidden_data_stays_hidden(
    celery_worker, candidate_client
):
    candidate, client = candidate_client
    stage, question = _challenge(candidate)
    submission_id = _submit(client, stage, question, question.reference["python"], mode="submit")
    data = _wait_done(client, submission_id)
    assert data["verdict"] == "accepted", data
    assert data["passed"] == data["total"] > 0
    for test in data["tests"]:
        assert set(test) == {"index", "hidden", "verdict", "time_ms", "memory_kb"}
    statuses = list(
        StageEvent.objects.filter(stage=stage, type="submission.status")
        .order_by("seq")
        .values_list("payload__status", flat=True)
    )
    assert statuses == ["queued", "running", "done"]


def test_run_mode_shows_samples_and_custom_stdin(celery_worker, candidate_client):
    candidate, client = candidate_client
    stage, question = _challenge(candidate)
    run_id = _submit(client, stage, question, "print('nope')", mode="run")
    run = _wait_done(client, run_id)
    assert run["verdict"] == "wrong_answer"
    assert all({"input", "expected", "output"} <= set(t) for t in run["tests"])
    assert run["tests"][0]["output"].strip() == "nope"

    echo_id = _submit(client, stage, question, "print(input()[::-1])", mode="run", stdin="abc\n")
    echo = _wait_done(client, echo_id)
    assert echo["tests"][0]["output"] == "cba\n"
    assert echo["total"] == 1


def test_a_go_submission_is_compiled_and_judged(celery_worker, candidate_client):
    """Go end to end, once a question lists it: API, worker, compile, run."""
    candidate, client = candidate_client
    stage, question = _challenge(candidate)
    Question.objects.filter(pk=question.pk).update(languages=[*question.languages, "go"])
    code = (
        'package main\n\nimport (\n\t"bufio"\n\t"fmt"\n\t"os"\n)\n\n'
        "func main() {\n\ts, _ := bufio.NewReader(os.Stdin).ReadString('\\n')\n"
        "\tr := []rune(s[:len(s)-1])\n\tfor i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {\n"
        "\t\tr[i], r[j] = r[j], r[i]\n\t}\n\tfmt.Println(string(r))\n}\n"
    )
    run_id = _submit(client, stage, question, code, mode="run", stdin="abc\n", language="go")
    run = _wait_done(client, run_id)
    assert run["tests"][0]["output"] == "cba\n", run
    broken_id = _submit(client, stage, question, "package main\n", mode="run", language="go")
    broken = _wait_done(client, broken_id)
    assert broken["verdict"] == "compile_error", broken


def test_killed_worker_still_gives_exactly_one_verdict_and_leaves_no_container(
    start_worker, celery_worker, candidate_client
):
    """SIGKILL the worker mid-judge; a new worker re-judges once the lease and the
    broker's visibility timeout run out."""
    client, stage, submission_id = _killed_mid_judge(start_worker, celery_worker, candidate_client)

    replacement = start_worker()
    try:
        data = _wait_done(client, submission_id, timeout=90)
    finally:
        replacement.stop()  # later tests' worker (with beat) must be the only consumer
    submission = Submission.objects.get(pk=submission_id)
    assert data["status"] == "done"
    assert submission.attempts >= 2
    _assert_one_verdict(stage, submission, data)
    # The dead worker's containers are gone (the new worker swept them at start): every
    # sandbox container left belongs to a live process.
    for container in docker_client().containers.list(all=True, filters={"label": LABEL}):
        owner_pid = int(container.labels[LABEL_OWNER].rpartition("/")[2])
        assert _alive(owner_pid), f"container {container.short_id} of dead pid {owner_pid}"


def test_a_killed_worker_and_an_emptied_broker_still_give_exactly_one_verdict(
    start_worker, celery_worker, candidate_client
):
    """The issue's run: the worker is killed mid-judge and Redis comes back empty (as a
    Redis without persistence does after a restart), so no message will ever be redelivered.
    The requeue sweep of the next worker's beat finds the `running` job whose lease ran out
    and queues it again: one verdict within the lease plus a sweep interval (plus judging)."""
    client, stage, submission_id = _killed_mid_judge(start_worker, celery_worker, candidate_client)
    broker = redis.Redis.from_url(os.environ["REDIS_URL"])
    broker.flushdb()  # the unacked message is gone for good
    assert broker.dbsize() == 0

    replacement = start_worker(beat=True)  # beat runs the requeue sweep every 5 s
    try:
        data = _wait_done(client, submission_id, timeout=120)
    finally:
        replacement.stop()
    submission = Submission.objects.get(pk=submission_id)
    assert data["status"] == "done", data
    assert submission.expired_leases == 1
    _assert_one_verdict(stage, submission, data)


def _killed_mid_judge(start_worker, celery_worker, candidate_client):
    """A submission whose worker is SIGKILLed while it judges it: (client, stage, id). The
    shared worker is stopped first so the doomed one gets the job."""
    candidate, client = candidate_client
    stage, question = _challenge(candidate)
    celery_worker.stop()
    doomed = start_worker()
    submission_id = _submit(client, stage, question, SLOW_PYTHON, mode="submit")
    deadline = time.monotonic() + 30
    while Submission.objects.get(pk=submission_id).status != "running":
        assert time.monotonic() < deadline, doomed.log_tail()
        time.sleep(0.05)
    time.sleep(0.5)  # inside the container now
    doomed.kill()
    return client, stage, submission_id


def _assert_one_verdict(stage: Stage, submission: Submission, data: dict) -> None:
    assert TestResult.objects.filter(submission=submission).count() == data["total"]
    done_events = StageEvent.objects.filter(
        stage=stage, type="submission.status", payload__status="done"
    )
    assert done_events.count() == 1


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_run_goes_ahead_of_submits_queued_before_it(start_worker, monkeypatch, transactional_db):
    """Three candidates' submits wait in the queue, then a fourth runs the samples: the
    worker takes the run among the first two (broker priorities), not last. On a queue of
    its own, so no other worker of the session takes any of them."""
    queue = f"judge-priority-{os.getpid()}"
    send = tasks.judge_submission.apply_async
    monkeypatch.setattr(tasks.judge_submission, "apply_async", functools.partial(send, queue=queue))
    call_command("import_bank", "bank", "--no-verify", verbosity=0)
    template = LoopTemplate.objects.get(slug="ai-lab-infra-sde")
    ids = []
    for mode in ("submit", "submit", "submit", "run"):
        candidate = UserFactory()
        loop = loop_start(candidate=candidate, template=template, coached=False)
        stage = loop.stages.get(kind="challenge")
        stage_start(stage=stage, actor=candidate)
        question = stage.questions.get(slug="token-batcher")
        client = APIClient()
        client.force_authenticate(candidate)
        ids.append(_submit(client, stage, question, "print(1)\n", mode=mode))
    worker = start_worker(env={"CELERY_QUEUE": queue})
    try:
        deadline = time.monotonic() + 90
        while Submission.objects.filter(pk__in=ids, status__in=["queued", "running"]).exists():
            assert time.monotonic() < deadline, worker.log_tail()
            time.sleep(0.2)
    finally:
        worker.stop()
    started = dict(Submission.objects.filter(pk__in=ids).values_list("pk", "started_at"))
    run_started = started[ids[-1]]
    # the worker takes two at a time: the run is among the first two, never behind all
    assert sum(started[pk] < run_started for pk in ids[:3]) <= 1, started
