"""The production stack really starts: `docker-compose up` of docker-compose.yml with the
offline images (deploy/offline/), then the product used through its API only — migrate and
the bank import, `/readyz`, sign-up, a submission judged by the worker container through
the host's Docker socket, a reference verification on the worker, and a worker killed
mid-job whose submission still ends with exactly one verdict after it restarts.

Slow (a few minutes; the first run on a host also builds the images, which are cached).
Every run has its own compose project and tears it down (containers, network, volumes)."""

import os
import secrets
import shutil
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests
import yaml

from mockloop.env import BASE_DIR

pytestmark = [pytest.mark.integration, pytest.mark.slow]

COMPOSE_FILES = ("docker-compose.yml", "deploy/offline/docker-compose.offline.yml")
APP_SERVICES = ("web", "worker", "beat")
QUESTION = "token-batcher"
TEMPLATE = "ai-lab-infra-sde"
ADMIN_PASSWORD = "offline-stack-admin-1"
# The reference, slowed down per test: the job is still running when the worker is killed.
SLOW_PREFIX = "import time\ntime.sleep(0.5)\n"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Stack:
    directory: Path
    project: str
    env: dict[str, str]
    url: str

    def compose(self, *args: str, timeout: float = 300, check: bool = True):
        command = ["docker-compose", "-p", self.project]
        for name in COMPOSE_FILES:
            command += ["-f", name]
        result = subprocess.run(
            [*command, *args],
            cwd=self.directory,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if check and result.returncode != 0:
            pytest.fail(f"docker-compose {' '.join(args)}: {result.stderr[-3000:]}")
        return result

    def logs(self, service: str) -> str:
        return self.compose("logs", "--no-color", "--tail", "60", service, check=False).stdout

    def container_exit_code(self, service: str, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ids = self.compose("ps", "-a", "-q", service).stdout.split()
            if ids:
                state = subprocess.run(
                    ["docker", "inspect", "-f", "{{.State.Status}} {{.State.ExitCode}}", ids[0]],
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout.split()
                if state[0] == "exited":
                    return int(state[1])
            time.sleep(1)
        pytest.fail(f"{service} still running after {timeout}s:\n{self.logs(service)}")


def _build_images() -> dict[str, str]:
    from deploy.offline import build as offline
    from sandbox.images import build as runners

    if os.geteuid() != 0 or not shutil.which("debootstrap"):
        pytest.skip("the offline images are built with debootstrap, as root")
    if not shutil.which("docker-compose"):
        pytest.skip("docker-compose is not installed (apt-get install docker-compose)")
    runners.ensure()  # the worker container starts the same runner images the host built
    return offline.ensure()


@pytest.fixture(scope="module")
def stack(tmp_path_factory) -> Iterator[Stack]:
    images = _build_images()
    directory = tmp_path_factory.mktemp("offline-stack")
    shutil.copy(BASE_DIR / "docker-compose.yml", directory / "docker-compose.yml")
    shutil.copytree(BASE_DIR / "deploy", directory / "deploy")
    port = _free_port()
    (directory / ".env").write_text(
        "\n".join(
            [
                f"SECRET_KEY={secrets.token_urlsafe(40)}",
                "ALLOWED_HOSTS=127.0.0.1,localhost",
                f"CSRF_TRUSTED_ORIGINS=http://127.0.0.1:{port}",
                f"POSTGRES_PASSWORD={secrets.token_urlsafe(12)}",
                "SECURE_COOKIES=0",
                "SECURE_HSTS_SECONDS=0",
                "WEB_CONCURRENCY=1",
                # a killed worker's job comes back within seconds, not minutes
                "JUDGE_LEASE_SECONDS=8",
                "CELERY_VISIBILITY_TIMEOUT=10",
                "",
            ]
        )
    )
    env = {
        "PATH": os.environ["PATH"],
        "WEB_PORT": str(port),
        **{f"MOCKLOOP_OFFLINE_{name.upper()}_IMAGE": tag for name, tag in images.items()},
    }
    running = Stack(
        directory, f"mockloop-it-{uuid.uuid4().hex[:8]}", env, f"http://127.0.0.1:{port}"
    )
    try:
        running.compose("up", "-d", "migrate", "images")
        for service, limit in (("migrate", 300), ("images", 120)):
            code = running.container_exit_code(service, limit)
            assert code == 0, running.logs(service)
        running.compose("up", "-d", *APP_SERVICES)
        yield running
    finally:
        _tear_down(running)


def _docker_ids(*args: str) -> list[str]:
    out = subprocess.run(["docker", *args], capture_output=True, text=True, check=True)
    return out.stdout.split()


def _tear_down(stack: Stack) -> None:
    """compose down -v, then whatever the workers left on the host's engine (sandbox
    containers are owned by "<worker hostname>/<pid>"; a container's hostname is its
    short id); nothing of the project may remain."""
    workers = {
        cid[:12] for cid in stack.compose("ps", "-a", "-q", "worker", check=False).stdout.split()
    }
    stack.compose("down", "-v", "--remove-orphans", "--timeout", "5", check=False)
    sandboxes = subprocess.run(
        ["docker", "ps", "-a", "--filter", "label=mockloop.sandbox.owner", "--format",
         '{{.ID}} {{.Label "mockloop.sandbox.owner"}}'],
        capture_output=True, text=True, check=True,
    ).stdout.splitlines()  # fmt: skip
    for line in sandboxes:
        container, owner = line.split()
        if owner.split("/")[0] in workers:
            subprocess.run(["docker", "rm", "-f", container], capture_output=True, check=False)
    project = f"label=com.docker.compose.project={stack.project}"
    assert not _docker_ids("ps", "-a", "-q", "--filter", project), "containers left"
    assert not _docker_ids("network", "ls", "-q", "--filter", project), "networks left"
    assert not _docker_ids("volume", "ls", "-q", "--filter", project), "volumes left"


def _ready(stack: Stack, timeout: float = 120) -> dict:
    deadline = time.monotonic() + timeout
    body: dict = {}
    while time.monotonic() < deadline:
        try:
            response = requests.get(f"{stack.url}/readyz", timeout=5)
            body = response.json()
            if response.status_code == 200:
                return body
        except (requests.ConnectionError, ValueError):
            pass
        time.sleep(1)
    pytest.fail(f"/readyz not green after {timeout}s: {body}\n{stack.logs('web')}")


def _api(stack: Stack, token: str) -> requests.Session:
    session = requests.Session()
    session.headers["Authorization"] = f"Token {token}"
    return session


def _challenge(stack: Stack, api: requests.Session) -> tuple[int, int]:
    """Start a loop and its challenge stage; the stage's and the question's ids."""
    loop = api.post(f"{stack.url}/api/v1/loops/", json={"template": TEMPLATE}, timeout=10)
    assert loop.status_code == 201, loop.text
    stage = next(s for s in loop.json()["stages"] if s["kind"] == "challenge")
    started = api.post(f"{stack.url}/api/v1/stages/{stage['id']}/start/", timeout=10)
    assert started.status_code == 200, started.text
    detail = api.get(f"{stack.url}/api/v1/stages/{stage['id']}/", timeout=10).json()
    question = next(q for q in detail["questions"] if q["slug"] == QUESTION)
    return stage["id"], question["id"]


def _submit(stack: Stack, api: requests.Session, stage: int, question: int, code: str) -> int:
    body = {"stage": stage, "question": question, "part": 1, "language": "python"}
    response = api.post(
        f"{stack.url}/api/v1/submissions/",
        json={**body, "code": code, "mode": "submit"},
        timeout=10,
    )
    assert response.status_code == 202, response.text
    return response.json()["id"]


def _wait_submission(stack, api, submission: int, until: tuple[str, ...], timeout: float) -> dict:
    deadline = time.monotonic() + timeout
    data: dict = {}
    while time.monotonic() < deadline:
        data = api.get(f"{stack.url}/api/v1/submissions/{submission}/", timeout=10).json()
        if data["status"] in until:
            return data
        time.sleep(0.3)
    pytest.fail(
        f"submission {submission} not {until} in {timeout}s: {data}\n{stack.logs('worker')}"
    )


def _reference() -> str:
    bank = yaml.safe_load((BASE_DIR / "bank" / f"coding-{QUESTION}.yaml").read_text())
    question = next(q for q in bank["questions"] if q["slug"] == QUESTION)
    return question["coding"]["reference"]["python"]


def test_the_compose_stack_migrates_judges_verifies_and_survives_a_worker_kill(stack):
    ready = _ready(stack)
    assert {"database", "redis", "queue"} <= set(ready["checks"])

    signup = requests.post(
        f"{stack.url}/api/v1/auth/signup/",
        json={"username": "offline_candidate", "password": "a-long-candidate-pass-1"},
        timeout=10,
    )
    assert signup.status_code == 201, signup.text
    candidate = _api(stack, signup.json()["token"])
    stage, question = _challenge(stack, candidate)

    # a verdict through the worker container and the host's Docker engine
    accepted = _submit(stack, candidate, stage, question, _reference())
    data = _wait_submission(stack, candidate, accepted, ("done", "error"), 180)
    assert data["verdict"] == "accepted", data

    # reference verification runs on the worker (web has no Docker socket)
    stack.compose(
        "exec", "-T", "-e", f"DJANGO_SUPERUSER_PASSWORD={ADMIN_PASSWORD}", "web",
        "python", "manage.py", "createsuperuser", "--noinput",
        "--username", "offline_admin", "--email", "admin@example.com",
    )  # fmt: skip
    login = requests.post(
        f"{stack.url}/api/v1/auth/login/",
        json={"username": "offline_admin", "password": ADMIN_PASSWORD},
        timeout=10,
    )
    assert login.status_code == 200, login.text
    admin = _api(stack, login.json()["token"])
    verify = admin.post(f"{stack.url}/api/v1/questions/{question}/verify/", timeout=10)
    assert verify.status_code == 202, verify.text
    deadline = time.monotonic() + 240
    state = None
    while time.monotonic() < deadline and state not in ("passed", "failed", "unavailable"):
        time.sleep(1)
        body = admin.get(f"{stack.url}/api/v1/questions/{question}/", timeout=10).json()
        state = body["verification"].get("state")
    assert state == "passed", f"{body['verification']}\n{stack.logs('worker')}"

    # the worker dies mid-job (SIGKILL, no warm shutdown) and comes back
    slow = _submit(stack, candidate, stage, question, SLOW_PREFIX + _reference())
    before = _wait_submission(stack, candidate, slow, ("running", "done", "error"), 60)
    stack.compose("kill", "-s", "SIGKILL", "worker")
    assert before["status"] == "running", before
    time.sleep(2)
    stack.compose("start", "worker")
    data = _wait_submission(stack, candidate, slow, ("done", "error"), 180)
    assert data["status"] == "done" and data["verdict"] == "accepted", data
    assert len(data["tests"]) == data["total"] == data["passed"], data  # one judging
