"""Integration fixtures: a real Celery worker (and beat) in subprocesses, on the real Redis
broker from `make test`, against the test database, judging in the real Docker engine."""

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from mockloop.env import BASE_DIR, VAR_DIR

WORKER_START_TIMEOUT_S = 60


@dataclass
class WorkerProcess:
    process: subprocess.Popen
    log_path: Path

    def log_tail(self, lines: int = 60) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def kill(self) -> None:
        """SIGKILL the whole worker (main process and its prefork children)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture(scope="session")
def worker_env(live_server_env: dict[str, str]) -> dict[str, str]:
    if not os.environ.get("REDIS_URL"):
        pytest.fail("integration tests need REDIS_URL (make test starts a Redis)")
    return {
        **live_server_env,
        # Short lease and visibility timeout so a killed worker's job comes back quickly.
        "JUDGE_LEASE_SECONDS": "8",
        "CELERY_VISIBILITY_TIMEOUT": "10",
    }


@pytest.fixture(scope="session")
def start_worker(worker_env: dict[str, str]) -> Iterator[Callable[..., WorkerProcess]]:
    """`start_worker(beat=False)` → a running Celery worker; all are stopped at the end."""
    started: list[WorkerProcess] = []
    celery = shutil.which("celery", path=str(Path(sys.executable).parent)) or "celery"
    log_dir = VAR_DIR / "log"
    log_dir.mkdir(parents=True, exist_ok=True)

    def start(*, beat: bool = False, env: dict[str, str] | None = None) -> WorkerProcess:
        log_path = log_dir / f"test-worker-{len(started)}-{os.getpid()}.log"
        args = [celery, "-A", "mockloop", "worker", "-l", "info", "--concurrency", "2"]
        args += [
            "-n",
            f"test{len(started)}-{os.getpid()}@%h",
            "--without-gossip",
            "--without-mingle",
        ]
        if beat:
            args += ["-B", "--schedule", str(VAR_DIR / f"test-beat-{os.getpid()}")]
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                args,
                cwd=BASE_DIR,
                env={**worker_env, **(env or {})},
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        worker = WorkerProcess(process, log_path)
        started.append(worker)
        deadline = time.monotonic() + WORKER_START_TIMEOUT_S
        while time.monotonic() < deadline:
            if process.poll() is not None:
                pytest.fail(f"celery worker exited:\n{worker.log_tail()}")
            if "ready." in worker.log_tail(200):
                return worker
            time.sleep(0.2)
        pytest.fail(f"celery worker not ready in {WORKER_START_TIMEOUT_S}s:\n{worker.log_tail()}")

    yield start
    for worker in started:
        worker.stop()


class SharedWorker:
    """The session's worker with beat; started again if a test stopped or killed it."""

    def __init__(self, start: Callable[..., WorkerProcess]):
        self._start = start
        self.worker: WorkerProcess | None = None

    def get(self) -> WorkerProcess:
        if self.worker is None or self.worker.process.poll() is not None:
            self.worker = self._start(beat=True)
        return self.worker


@pytest.fixture(scope="session")
def _shared_worker(start_worker) -> SharedWorker:
    return SharedWorker(start_worker)


@pytest.fixture
def celery_worker(_shared_worker: SharedWorker, transactional_db) -> WorkerProcess:
    """The session's worker (with beat), restarted if an earlier test stopped it."""
    return _shared_worker.get()
