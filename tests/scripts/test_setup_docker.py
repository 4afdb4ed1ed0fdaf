"""scripts/setup.sh's docker step, run for real with stand-ins for the Docker binaries.

A developer may export DEBUG=1 for Django; dockerd reads the same variable and turns on its
debug log (measured: ~5 ms of dockerd CPU per sandbox container). The step must start
dockerd without it.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the step starts dockerd only as root")

FAKE_DOCKER = """#!/bin/sh
# `docker info` answers once the fake dockerd has started.
[ -f "$FAKE_DIR/started" ]
"""
FAKE_DOCKERD = """#!/bin/sh
env > "$FAKE_DIR/dockerd.env"
echo $$ > "$FAKE_DIR/dockerd.pid"
touch "$FAKE_DIR/started"
exec sleep 30
"""


def test_dockerd_is_started_without_debug(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, text in (("docker", FAKE_DOCKER), ("dockerd", FAKE_DOCKERD)):
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)
    env = {
        **os.environ,
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "FAKE_DIR": str(tmp_path),
        "DEBUG": "1",
        "MOCKLOOP_VAR_DIR": str(tmp_path / "var"),
    }
    out = subprocess.run(
        ["bash", "scripts/setup.sh", "docker"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    try:
        assert out.returncode == 0, out.stderr
        assert "dockerd started" in out.stdout
        started_with = dict(
            line.split("=", 1)
            for line in (tmp_path / "dockerd.env").read_text().splitlines()
            if "=" in line
        )
        assert "DEBUG" not in started_with
        assert started_with["FAKE_DIR"] == str(tmp_path), "the rest of the environment is kept"
    finally:
        pid_file = tmp_path / "dockerd.pid"
        if pid_file.exists():
            subprocess.run(["kill", pid_file.read_text().strip()], check=False)
