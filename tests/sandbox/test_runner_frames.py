"""The runner's cheaper mechanics (issue 15): frames written together but never held long."""

from __future__ import annotations

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
