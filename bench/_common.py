"""Helpers the bench scripts share. They run as `.venv/bin/python bench/<name>.py`, so this
folder is first on sys.path and `from _common import ...` finds this module."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable


def wait_http(url: str, proc: subprocess.Popen | None = None, timeout: float = 60) -> None:
    """Until `url` answers 200; with `proc` (the server), give up as soon as it exits."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise SystemExit(f"{url}: server exited with {proc.returncode}")
        try:
            if requests.get(url, timeout=2).status_code == 200:
                return
        except requests.RequestException:
            time.sleep(0.2)
    raise SystemExit(f"server at {url} did not come up")


def manage(env: dict, *args: str) -> str:
    """`manage.py <args>` in the checkout with `env`; its stdout, or exit with its stderr."""
    out = subprocess.run(
        [PY, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    if out.returncode:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{out.stderr[-3000:]}")
    return out.stdout
