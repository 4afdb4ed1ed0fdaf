"""`make run` survives a crashed process: honcho runs each Procfile line through
scripts/respawn.py, which starts a dead process again instead of letting honcho stop them
all; and the Procfile's Redis keeps its data across a restart (append-only file)."""

import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis

from mockloop.env import BASE_DIR

RESPAWN = BASE_DIR / "scripts" / "respawn.py"
HONCHO = Path(sys.executable).parent / "honcho"


def _procfile() -> dict[str, str]:
    lines = (BASE_DIR / "Procfile").read_text().splitlines()
    entries = (line.split(":", 1) for line in lines if line and not line.startswith("#"))
    return {name.strip(): command.strip() for name, command in entries}


def _wait_for(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    pytest.fail(f"timed out waiting for {what}")


def _read_pid(path: Path) -> int | None:
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        return None
    return int(text) if text else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_every_shipped_process_runs_under_respawn():
    for name, command in _procfile().items():
        words = shlex.split(command)
        words = [word for word in words if "=" not in word.split("/")[0]]  # VAR=... prefixes
        assert words[:3] == ["python3", "scripts/respawn.py", name], f"{name}: {command}"


def test_a_killed_process_group_is_started_again_and_the_others_keep_running(tmp_path):
    """As the issue saw it: `kill -9` of the worker's process group. Before, honcho then
    stopped every process; now the victim comes back and its neighbour never noticed."""
    script = (
        "import os, pathlib, sys, time; "
        "pathlib.Path(sys.argv[1]).write_text(str(os.getpid())); time.sleep(600)"
    )
    victim_pid, neighbour_pid = tmp_path / "victim.pid", tmp_path / "neighbour.pid"
    respawn = f"{sys.executable} {RESPAWN}"
    (tmp_path / "Procfile").write_text(
        f'victim: {respawn} victim {sys.executable} -c "{script}" {victim_pid}\n'
        f'neighbour: {respawn} neighbour {sys.executable} -c "{script}" {neighbour_pid}\n'
    )
    honcho = subprocess.Popen(
        [str(HONCHO), "start", "-f", str(tmp_path / "Procfile")],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        first = _wait_for(lambda: _read_pid(victim_pid), 20, "the victim to start")
        neighbour = _wait_for(lambda: _read_pid(neighbour_pid), 20, "the neighbour to start")
        victim_pid.unlink()

        os.killpg(os.getpgid(first), signal.SIGKILL)

        second = _wait_for(lambda: _read_pid(victim_pid), 20, "the victim to start again")
        assert second != first
        assert honcho.poll() is None, "honcho stopped everything"
        assert _alive(neighbour)
        assert _read_pid(neighbour_pid) == neighbour  # never restarted

        honcho.send_signal(signal.SIGINT)  # Ctrl-C
        output, _ = honcho.communicate(timeout=30)
    finally:
        if honcho.poll() is None:
            os.killpg(honcho.pid, signal.SIGKILL)
            honcho.wait()
    assert "victim was killed by SIGKILL; starting it again in 1 s" in output
    assert not _alive(second) and not _alive(neighbour), "Ctrl-C left a process behind"


def test_a_process_that_keeps_dying_is_restarted_ever_more_slowly(tmp_path):
    """A broken command must not spin: the waits grow (1 s, 2 s, ...)."""
    wrapper = subprocess.Popen(
        [sys.executable, str(RESPAWN), "broken", sys.executable, "-c", "raise SystemExit(3)"],
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    time.sleep(4.5)
    wrapper.send_signal(signal.SIGTERM)
    _, err = wrapper.communicate(timeout=10)
    assert wrapper.returncode == 0
    assert "broken exited with status 3; starting it again in 1 s" in err
    assert "starting it again in 2 s" in err


@pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server")
def test_the_procfile_redis_keeps_queued_messages_across_a_crash(tmp_path):
    """The broker Redis of `make run` loses nothing it acknowledged a second before a
    `kill -9`: the Procfile runs it with an append-only file."""
    from mockloop.web import free_port

    port = free_port()
    words = shlex.split(_procfile()["redis"])
    command = words[words.index("redis-server") :]
    command = [
        str(port) if word == "$REDIS_PORT" else str(tmp_path) if word == "var/redis" else word
        for word in command
    ]

    def start() -> subprocess.Popen:
        server = subprocess.Popen(command, cwd=tmp_path, start_new_session=True)
        client = redis.Redis(port=port)
        _wait_for(lambda: _ping(client), 20, "redis to answer")
        return server

    server = start()
    try:
        redis.Redis(port=port).lpush("judging", "submission 108")
        time.sleep(1.5)  # appendfsync everysec
        server.kill()
        server.wait(timeout=10)
        server = start()
        assert redis.Redis(port=port).lrange("judging", 0, -1) == [b"submission 108"]
    finally:
        server.kill()
        server.wait(timeout=10)


def _ping(client: redis.Redis) -> bool:
    try:
        return bool(client.ping())
    except redis.ConnectionError:
        return False
