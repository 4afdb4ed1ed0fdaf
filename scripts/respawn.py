#!/usr/bin/env python3
"""Run one process of `make run` and start it again whenever it dies.

honcho stops every process as soon as one exits, so a crashed (or `kill -9`-ed) Celery
worker used to take web, beat and Redis down with it. Each Procfile line runs through
this wrapper instead: the child gets a session of its own (a kill of the child's process
group does not reach the wrapper), a crash is answered with a restart after a short,
growing delay, and SIGTERM/SIGINT from honcho (Ctrl-C) stop the child and the wrapper.

    respawn.py NAME COMMAND [ARG ...]

Standard library only: it must work before the virtualenv exists.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time

FIRST_DELAY_S = 1.0
MAX_DELAY_S = 30.0
# A child that ran this long before dying was healthy: its next restart is quick again.
HEALTHY_AFTER_S = 30.0
STOP_GRACE_S = 20.0


def describe_exit(returncode: int) -> str:
    """`-9` → "was killed by SIGKILL"; 3 → "exited with status 3"."""
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"was killed by {name}"
    return f"exited with status {returncode}"


class Respawner:
    def __init__(self, name: str, command: list[str]):
        self.name = name
        self.command = command
        self.child: subprocess.Popen | None = None
        self.stopping = False

    def log(self, message: str) -> None:
        print(f"respawn: {self.name} {message}", file=sys.stderr, flush=True)

    def stop(self, signum: int, _frame) -> None:
        """Forward honcho's stop to the child's whole group and leave the loop."""
        self.stopping = True
        if self.child is not None and self.child.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.child.pid, signal.SIGTERM)

    def run(self) -> int:
        signal.signal(signal.SIGTERM, self.stop)
        signal.signal(signal.SIGINT, self.stop)
        delay = FIRST_DELAY_S
        while True:
            started = time.monotonic()
            self.child = subprocess.Popen(self.command, start_new_session=True)
            returncode = self.wait_child()
            if self.stopping:
                return returncode if returncode >= 0 else 0
            if time.monotonic() - started >= HEALTHY_AFTER_S:
                delay = FIRST_DELAY_S
            self.log(f"{describe_exit(returncode)}; starting it again in {delay:g} s")
            if self.sleep(delay):
                return 0
            # Doubles while the child keeps dying at once, so a broken one doesn't spin.
            delay = min(delay * 2, MAX_DELAY_S)

    def wait_child(self) -> int:
        """Wait for the child; once stopping, give it STOP_GRACE_S before SIGKILL."""
        assert self.child is not None
        deadline = None
        while True:
            try:
                return self.child.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                pass
            if self.stopping:
                deadline = deadline or time.monotonic() + STOP_GRACE_S
                if time.monotonic() > deadline:
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(self.child.pid, signal.SIGKILL)

    def sleep(self, seconds: float) -> bool:
        """Sleep before a restart; True if asked to stop meanwhile."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.stopping:
                return True
            time.sleep(0.1)
        return self.stopping


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print("usage: respawn.py NAME COMMAND [ARG ...]", file=sys.stderr)
        return 2
    return Respawner(argv[1], argv[2:]).run()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
