"""The orphan sweep's notion of a live owner (no Docker needed)."""

import os
import time

from sandbox.engine import _pid_alive


def test_a_zombie_owner_counts_as_dead():
    """A SIGKILLed worker's processes can stay zombies until an init reaps them: their
    containers (e.g. a warm-pool one) must still be swept at the next worker start."""
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    try:
        deadline = time.monotonic() + 5
        while _pid_alive(pid) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not _pid_alive(pid)  # exited, not yet reaped
    finally:
        os.waitpid(pid, 0)
    assert not _pid_alive(pid)
    assert _pid_alive(os.getpid())
