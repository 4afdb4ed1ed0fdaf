"""Fixtures for the sandbox tests: a real Docker engine and the real runner images.

Integration tests (``@pytest.mark.integration``) need a running Docker engine; the
images are built on first use (``sandbox.images.build.ensure``, a no-op when present).
After every integration test the host is checked: no container with our label is left
except the engine's idle warm pool, and no process runs as the sandbox uid outside a
container.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox.engine import LABEL, LABEL_JOB, LABEL_OWNER, Engine, _owner, docker_client

SANDBOX_UID = 10001


@pytest.fixture(scope="session")
def docker():
    client = docker_client()
    try:
        client.ping()
    except Exception as exc:  # noqa: BLE001
        pytest.fail(f"the Docker engine is not running ({exc}); start dockerd (make test does)")
    return client


@pytest.fixture(scope="session")
def images(docker) -> dict[str, str]:
    from sandbox.images.build import ensure

    return ensure()


@pytest.fixture(scope="session")
def engine(images) -> Iterator[Engine]:
    _close_process_engine()
    eng = Engine(pool_size=1)
    yield eng
    eng.close()
    _close_process_engine()
    assert not labelled_containers(eng.api), "containers left after the engine closed"


def _close_process_engine() -> None:
    """Close the process-wide engine (and its warm pool) that earlier tests in the session
    may have started in this process — e.g. a bank import that verified references —
    so these tests see only the containers they made."""
    from sandbox import engine as engine_module

    with engine_module._default_lock:
        default, engine_module._default = engine_module._default, None
    if default is not None:
        default.close()


def labelled_containers(api, exclude: set[str] = frozenset(), *, mine: bool = True) -> list:
    """Sandbox containers (by default only those created by this test process: other
    workers or test runs on the same engine may have theirs)."""
    found = api.containers(all=True, filters={"label": LABEL})
    owner = _owner()
    return [
        c
        for c in found
        if c["Id"] not in exclude and (not mine or c["Labels"].get(LABEL_OWNER) == owner)
    ]


def escaped_sandbox_processes() -> list[str]:
    """Processes running as the sandbox uid outside any container's cgroup."""
    out = subprocess.run(
        ["ps", "-o", "pid=,args=", "-u", str(SANDBOX_UID)], capture_output=True, text=True
    ).stdout
    escaped = []
    for line in out.splitlines():
        pid = line.split()[0]
        try:
            cgroups = Path(f"/proc/{pid}/cgroup").read_text()
        except OSError:
            continue  # already gone
        if "docker" not in cgroups:
            escaped.append(line.strip())
    return escaped


def _live_in_this_process(engine: Engine) -> set[str]:
    """Containers this process still legitimately holds: the fixture engine's, and the
    process-wide engine's warm pool (earlier tests in the session, e.g. a bank import
    that verified references in-process, create that one)."""
    from sandbox import engine as engine_module

    live = set(engine.live_containers())
    default = engine_module._default
    if default is not None and default is not engine:
        live |= set(default.live_containers())
    return live


def assert_host_clean(engine: Engine, timeout: float = 15.0) -> None:
    """No leftover job container (idle pool ones excepted) and no escaped process."""
    engine.drain()
    deadline = time.monotonic() + timeout
    while True:
        left = labelled_containers(engine.api, exclude=_live_in_this_process(engine))
        procs = escaped_sandbox_processes()
        if not left and not procs:
            return
        if time.monotonic() > deadline:
            names = [(c["Id"][:12], c["State"], c["Labels"].get(LABEL_JOB)) for c in left]
            pytest.fail(f"left behind: containers {names}, processes {procs}")
        time.sleep(0.1)


@pytest.fixture
def clean_host(engine) -> Iterator[Engine]:
    yield engine
    assert_host_clean(engine)
