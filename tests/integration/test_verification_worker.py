"""Reference verification runs on the judge worker, never in the web process: a web
server with no Docker engine reachable (as the production compose file gives web no
Docker socket) queues it (202), and the real worker, with the real sandbox, runs it and
writes progress and the outcome onto the question; a bank import from that web process
sends its reference jobs to the worker and waits for them."""

import copy
import os
import time

import pytest
import requests
from celery import Celery

from interviews import models as m
from interviews.judging.verification import VerificationUnavailable, question_verify
from interviews.judging.worker import WorkerRunner, verification_request
from interviews.services.bank_import import bank_import
from tests.conftest import running_web_server
from tests.factories import AdminFactory, api_token_for
from tests.interviews import bank_data as data

pytestmark = pytest.mark.integration


def _bank(*questions: dict) -> dict:
    return {"questions": list(questions), "rubrics": [data.rubric()]}


def _correct(question: dict) -> dict:
    """The bank test question with outputs its reference (a sum) really prints."""
    question = copy.deepcopy(question)
    first, second = question["coding"]["parts"]
    first["hidden"][0]["output"] = "42\n"
    second["samples"] = [{"input": "3 1\n", "output": "4\n"}]
    second["hidden"] = [{"input": "9 9\n", "output": "18\n"}]
    return question


@pytest.fixture
def web_without_docker(live_server_env):
    env = {**live_server_env, "DOCKER_HOST": "unix:///nonexistent/docker.sock"}
    with running_web_server(env, name="web-no-docker") as server:
        yield server


@pytest.fixture
def admin_api():
    session = requests.Session()
    session.headers["Authorization"] = f"Token {api_token_for(AdminFactory())}"
    return session


def _wait_verification(server, api, question_id: int, timeout: float = 90) -> dict:
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = api.get(f"{server.url}/api/v1/questions/{question_id}/", timeout=10).json()
        state = body["verification"].get("state")
        seen.append(state)
        if state in ("passed", "failed", "unavailable"):
            return {**body, "states_seen": seen}
        time.sleep(0.2)
    pytest.fail(f"verification still {seen[-1:]} after {timeout}s")


def test_verify_from_a_web_process_without_docker_runs_on_the_worker(
    celery_worker, web_without_docker, admin_api
):
    good = _correct(data.coding_question("adder-ok"))
    bad = _correct(data.coding_question("adder-bad"))
    bad["coding"]["parts"][0]["hidden"][0]["output"] = data.HIDDEN_OUTPUT  # not what it prints
    bank_import(_bank(good, bad), verify=False)
    ids = {q.slug: q.pk for q in m.Question.objects.filter(slug__in=["adder-ok", "adder-bad"])}

    for slug in ("adder-ok", "adder-bad"):
        response = admin_api.post(
            f"{web_without_docker.url}/api/v1/questions/{ids[slug]}/verify/", timeout=10
        )
        assert response.status_code == 202, response.text
        assert response.json()["verification"]["state"] == "queued"

    passed = _wait_verification(web_without_docker, admin_api, ids["adder-ok"])
    assert passed["verification"]["state"] == "passed", passed["verification"]
    # the python reference × 2 parts, samples and hidden tests alike: (1 + 2) + (1 + 1)
    assert passed["verification"]["total"] == 5
    assert passed["verified_at"]
    # the reference's slowest hidden test per part, for the scorecard's run-time comparison
    times = m.Question.objects.get(pk=ids["adder-ok"]).reference_time_ms
    assert set(times) == {"python"} and set(times["python"]) == {"1", "2"}
    assert all(isinstance(ms, int) and ms >= 0 for ms in times["python"].values())

    failed = _wait_verification(web_without_docker, admin_api, ids["adder-bad"])
    assert failed["verification"]["state"] == "failed"
    failures = failed["verification"]["failures"]
    assert [f.split(" (")[0] for f in failures] == ["python: parts[0].hidden[0] wrong_answer"]
    assert failed["verified_at"] is None
    assert m.AuditEntry.objects.filter(action="question.verify").count() == 2


def test_a_sample_that_contradicts_the_reference_fails_verification(celery_worker, admin_api):
    question = _correct(data.coding_question("adder-sample"))
    question["coding"]["parts"][0]["samples"] = [{"input": "1 2\n", "output": "999\n"}]
    bank_import(_bank(question), verify=False)
    stored = m.Question.objects.get(slug="adder-sample")
    verification_request(question=stored)  # outside a transaction: queued at once
    deadline = time.monotonic() + 90
    while m.Question.objects.get(pk=stored.pk).verification.get("state") in ("queued", "running"):
        assert time.monotonic() < deadline, celery_worker.log_tail()
        time.sleep(0.2)
    verification = m.Question.objects.get(pk=stored.pk).verification
    assert verification["state"] == "failed"
    assert [f.split(" (")[0] for f in verification["failures"]] == [
        "python: parts[0].samples[0] wrong_answer"
    ]


def test_bank_import_from_a_web_process_without_docker_verifies_on_the_worker(
    celery_worker, web_without_docker, admin_api
):
    bank = _bank(_correct(data.coding_question("adder-import")))
    response = admin_api.post(
        f"{web_without_docker.url}/api/v1/bank/import/", json={"bank": bank}, timeout=120
    )
    assert response.status_code == 200, response.text
    assert response.json()["questions"]["verified"] == ["adder-import"]
    imported = m.Question.objects.get(slug="adder-import")
    assert imported.verified_at is not None
    assert set(imported.reference_time_ms["python"]) == {"1", "2"}  # saved by the import too

    broken = _bank(data.coding_question("adder-import-bad"))
    response = admin_api.post(
        f"{web_without_docker.url}/api/v1/bank/import/", json={"bank": broken}, timeout=120
    )
    assert response.status_code == 400, response.text
    assert "adder-import-bad.coding.reference.python" in str(response.json()["errors"])
    assert not m.Question.objects.filter(slug="adder-import-bad").exists()


def test_without_a_worker_verification_says_what_to_do(transactional_db):
    """No worker listens on this broker (another Redis database of the same server):
    the runner refuses at once, saying what to do, and the question says `unavailable`."""
    lonely = Celery(
        "nobody-listens",
        broker=os.environ["REDIS_URL"].rsplit("/", 1)[0] + "/15",
        set_as_current=False,
    )
    bank_import(_bank(_correct(data.coding_question("adder-lonely"))), verify=False)
    question = m.Question.objects.get(slug="adder-lonely")
    with pytest.raises(VerificationUnavailable, match="No judge worker answered.*--verify-here"):
        question_verify(question, runner=WorkerRunner(app=lonely, ping_timeout_s=0.5))
    assert m.Question.objects.get(pk=question.pk).verification["state"] == "unavailable"
