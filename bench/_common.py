"""Helpers the bench scripts share. They run as `.venv/bin/python bench/<name>.py`, so this
folder is first on sys.path and `from _common import ...` finds this module."""

from __future__ import annotations

import os
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


def manage(env: dict, *args: str, checkout: Path = ROOT) -> str:
    """`manage.py <args>` in the checkout (this one unless told) with `env`; its stdout, or
    exit with its stderr."""
    out = subprocess.run(
        [PY, "manage.py", *args], cwd=checkout, env=env, capture_output=True, text=True, check=False
    )
    if out.returncode:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{out.stderr[-3000:]}")
    return out.stdout


def bench_env(var_dir: Path, **extra: str) -> dict[str, str]:
    """The environment of the processes a bench starts: this one's, minus its database and
    Redis, plus a private var dir, production-like settings and quiet logs."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        MOCKLOOP_VAR_DIR=str(var_dir),
        SECRET_KEY="bench-" + "x" * 40,
        DEBUG="0",
        MOCKLOOP_TESTING="1",
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
        **extra,
    )
    return env


def postgres_url(name: str) -> str:
    """A fresh local PostgreSQL database `name` (scripts/postgres.sh), as a URL."""
    return subprocess.run(
        ["scripts/postgres.sh"],
        cwd=ROOT,
        env={**os.environ, "MOCKLOOP_PG_NAME": name},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
