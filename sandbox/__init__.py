"""Running untrusted candidate code: runner images, the in-container harness, the Docker
engine calls and the judge (checkers and verdicts). A library: no Django app, no models,
no tasks, and nothing here imports the interview domain (`interviews`) or the project
(`mockloop`); the judging workflow in `interviews.judging` calls it, never the reverse.

Public surface (pure Python, no Django)::

    run_tests(job: Job, tests: Sequence[Test], *, engine=None, on_test=None) -> JobResult
    sweep_orphans(client=None, *, everything=False) -> list[str]   # at worker start
    warm_up(languages=LANGUAGES, limits=None) -> None               # pre-start idle containers
    get_engine() -> Engine                                          # per-process, warm pool
    ping(timeout=3.0) -> bool                                       # does the engine answer?

Modules: ``api`` (dataclasses, run_tests), ``engine`` (Docker SDK), ``runner``
(in-container harness, protocol), ``judge`` (checkers, verdicts), ``images/build.py``
(``python -m sandbox.images.build ensure``).
"""

from sandbox.api import (
    UNCHECKED,
    Job,
    JobResult,
    Limits,
    Test,
    TestResult,
    run_tests,
    warm_up,
)
from sandbox.engine import Engine, SandboxUnavailable, get_engine, ping, sweep_orphans
from sandbox.judge import VERDICTS

__all__ = [
    "UNCHECKED",
    "VERDICTS",
    "Engine",
    "Job",
    "JobResult",
    "Limits",
    "SandboxUnavailable",
    "Test",
    "TestResult",
    "get_engine",
    "ping",
    "run_tests",
    "sweep_orphans",
    "warm_up",
]
