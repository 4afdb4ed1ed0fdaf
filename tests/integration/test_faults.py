"""Fault tolerance with real services: the Docker engine goes away and comes back; the
database drops its connections under a running server."""

import asyncio
import contextlib
import os
import threading
import time
from pathlib import Path

import pytest
import requests
from django.db import connection
from rest_framework.test import APIClient

from interviews.models import StageEvent, Submission
from tests.conftest import running_web_server
from tests.integration.test_judging import _challenge, _submit, _wait_done

pytestmark = pytest.mark.integration

DOCKER_SOCKET = "/var/run/docker.sock"


class DockerProxy:
    """A unix-socket proxy in front of the real engine that the test can cut: the worker
    sees an engine that is down, then back, while other tests keep the real one."""

    def __init__(self, path: Path):
        self.path = path
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server = None
        self.tasks: set[asyncio.Task] = set()

    async def _pipe(self, reader, writer):
        with contextlib.suppress(Exception):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        with contextlib.suppress(Exception):
            writer.close()

    async def _handle(self, reader, writer):
        try:
            up_reader, up_writer = await asyncio.open_unix_connection(DOCKER_SOCKET)
        except OSError:
            writer.close()
            return
        for coro in (self._pipe(reader, up_writer), self._pipe(up_reader, writer)):
            task = asyncio.ensure_future(coro)
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _start(self):
        self.server = await asyncio.start_unix_server(self._handle, path=str(self.path))

    async def _stop(self):
        if self.server is not None:
            self.server.close()
            self.server = None
        for task in list(self.tasks):
            task.cancel()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    def up(self) -> None:
        asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(5)

    def down(self) -> None:
        asyncio.run_coroutine_threadsafe(self._stop(), self.loop).result(5)

    def close(self) -> None:
        self.down()
        self.loop.call_soon_threadsafe(self.loop.stop)


@pytest.fixture
def docker_proxy(tmp_path):
    proxy = DockerProxy(tmp_path / "docker.sock")
    yield proxy
    proxy.close()


def test_engine_down_gives_internal_error_then_rejudges_when_it_returns(
    start_worker, _shared_worker, transactional_db, docker_proxy
):
    # Only a worker behind the proxy may take the job (and run the requeue sweep).
    if _shared_worker.worker is not None:
        _shared_worker.worker.stop()
    worker = start_worker(beat=True, env={"DOCKER_HOST": f"unix://{docker_proxy.path}"})
    try:
        from tests.factories import UserFactory

        candidate = UserFactory()
        client = APIClient()
        client.force_authenticate(candidate)
        stage, question = _challenge(candidate)
        submission_id = _submit(
            client, stage, question, question.reference["python"], mode="submit"
        )
        failed = _wait_done(client, submission_id, timeout=30)
        assert (failed["status"], failed["verdict"]) == ("error", "internal_error"), failed
        message = (
            StageEvent.objects.filter(stage=stage, payload__verdict="internal_error")
            .values_list("payload__message", flat=True)
            .first()
        )
        assert "sandbox is unavailable" in message

        docker_proxy.up()
        deadline = time.monotonic() + 60
        while Submission.objects.get(pk=submission_id).verdict != "accepted":
            assert time.monotonic() < deadline, worker.log_tail()
            time.sleep(0.3)
        done = _wait_done(client, submission_id)
        assert done["passed"] == done["total"] > 0
    finally:
        worker.stop()


@pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="connection drops are a PostgreSQL fault (CI runs on PostgreSQL)",
)
@pytest.mark.parametrize(
    "db_env", [{"DB_CONN_MAX_AGE": "600"}, {"DB_POOL_MAX_SIZE": "4"}], ids=["persistent", "pool"]
)
def test_database_connection_drop_fails_one_request_cleanly_then_recovers(
    live_server_env, transactional_db, db_env
):
    """A web server holding open connections (persistent, or pooled as the Procfile's web);
    PostgreSQL kills them; the next request fails cleanly (JSON 5xx, no hang) or succeeds,
    and the one after succeeds. A pool checks connections before lending them, so with it
    not even the first request fails."""
    with running_web_server({**live_server_env, **db_env}, "db-drop-server") as server:
        base = server.url
        # the server holds database connections (opened by readyz) when PostgreSQL kills them
        assert requests.get(f"{base}/readyz", timeout=10).json()["checks"]["database"]["ok"]
        assert requests.get(f"{base}/api/v1/loop-templates/", timeout=5).status_code == 401
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        first = requests.get(f"{base}/readyz", timeout=10)
        assert first.status_code in (200, 503)
        assert first.headers["Content-Type"].startswith("application/json")
        if "DB_POOL_MAX_SIZE" in db_env:
            assert first.json()["checks"]["database"] == {"ok": True}
        second = requests.get(f"{base}/readyz", timeout=10)
        assert second.json()["checks"]["database"] == {"ok": True}
