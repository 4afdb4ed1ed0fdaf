"""The runner's cheaper mechanics (issue 15): frames written together but never held long,
and Python tests spawned without a fork of the runner, with the same limits."""

from __future__ import annotations

import os
import subprocess
import time

import pytest

from sandbox import Job, Limits, Test, run_tests
from sandbox import runner as runner_module


@pytest.fixture
def frames(monkeypatch) -> list[bytes]:
    """The runner's writes to stdout, one entry per write."""
    writes: list[bytes] = []
    monkeypatch.setattr(runner_module, "_write_all", lambda fd, data: writes.append(bytes(data)))
    monkeypatch.setattr(runner_module, "FRAMES", runner_module._Frames())
    return writes


def test_frames_that_come_together_go_in_one_write(frames) -> None:
    for index in range(10):
        runner_module.emit({"type": "test", "index": index, "stdout_bytes": 2}, b"ok")
    assert frames == []
    runner_module.FRAMES.flush()
    assert len(frames) == 1
    assert frames[0].count(b'"type":"test"') == 10
    assert frames[0].endswith(b'"stdout_bytes":2}\nok')


def test_no_frame_waits_longer_than_the_flush_interval(frames) -> None:
    runner_module.emit({"type": "hello", "protocol": 1})
    started = time.monotonic()
    # a test that runs for long: the runner waits in poll, woken up for the frame
    timeout_ms = runner_module._poll_ms(5.0)
    assert timeout_ms <= runner_module._Frames.FLUSH_S * 1000 + 1
    time.sleep(timeout_ms / 1000)
    runner_module._poll_ms(5.0 - (time.monotonic() - started))
    assert frames == [b'{"type":"hello","protocol":1}\n']
    assert runner_module._poll_ms(5.0) == 5000  # nothing waits: the whole wait


def test_a_big_output_is_written_at_once(frames) -> None:
    runner_module.emit({"type": "test", "stdout_bytes": 1 << 17}, b"x" * (1 << 17))
    assert len(frames) == 1


def test_a_python_test_is_spawned_without_forking_the_runner(monkeypatch, tmp_path) -> None:
    """The exec path runs Python tests through posix_spawn; the test's process still
    gets every per-test limit, the OOM score, only fds 0-2 and the work directory."""

    def no_fork() -> int:
        raise AssertionError("the runner forked")

    monkeypatch.setattr(runner_module, "WORK", str(tmp_path))
    monkeypatch.setattr(os, "fork", no_fork)
    script = tmp_path / "main.py"
    script.write_text(
        "import os, resource\n"
        "print([resource.getrlimit(r) for r in (resource.RLIMIT_CPU, resource.RLIMIT_FSIZE,"
        " resource.RLIMIT_CORE)], resource.getrlimit(resource.RLIMIT_STACK)[0])\n"
        "print(open('/proc/self/oom_score_adj').read().strip(), os.getcwd())\n"
        "print(sorted(os.listdir('/proc/self/fd')))\n"
        "print(input())\n"
    )
    argv = [*runner_module.PYTHON_ARGV, str(script)]
    env = runner_module._child_env(runner_module.PYTHON_ENV)
    result, out_fd, stderr = runner_module.run_process(
        argv,
        env,
        b"hello\n",
        time_ms=1500,
        wall_ms=5000,
        memory_kb=65536,
        fsize=4096,
        stderr_cap=4096,
    )
    out, _ = runner_module._read_head(out_fd, 4096)
    os.close(out_fd)
    assert result["exit_code"] == 0, stderr
    limits, score, fds, echo = out.decode().splitlines()
    assert limits == f"[(2, 3), (4096, 4096), (0, 0)] {64 << 20}"
    assert score == f"1000 {tmp_path}"
    assert fds == "['0', '1', '2', '3']"  # 3: the listing's own directory
    assert echo == "hello"


def test_a_script_cannot_start_without_its_limits(tmp_path) -> None:
    """If the limits cannot be applied, python_start refuses to run the script."""
    script = tmp_path / "main.py"
    script.write_text("print('ran')\n")
    limits = f"1,1024,{64 << 20},{tmp_path}/missing"
    done = subprocess.run(
        [*runner_module.PYTHON_ARGV, "--limits", limits, str(script)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 127
    assert "ran" not in done.stdout
    assert "cannot start the test" in done.stderr


@pytest.mark.integration
def test_a_fast_tests_verdict_is_not_held_back_by_a_slow_one(clean_host) -> None:
    """Frames are batched, but a test's frame reaches the worker while the next test is
    still running (at most ~20 ms late), so progress stays live."""
    code = "import time\nif input() == 'slow':\n    time.sleep(1.5)\nprint('done')\n"
    job = Job(language="python", code=code, limits=Limits(time_limit_ms=1000))
    seen: dict[int, float] = {}
    result = run_tests(
        job,
        [Test("fast\n", "done\n"), Test("slow\n", "done\n")],
        engine=clean_host,
        on_test=lambda t: seen.setdefault(t.index, time.monotonic()),
    )
    assert result.verdict == "accepted"
    assert seen[1] - seen[0] > 1.0
