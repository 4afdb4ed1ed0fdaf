"""The sandbox's public surface: run a job's tests in a container and judge them.

    from sandbox import Job, Limits, Test, run_tests
    result = run_tests(Job(language="python", code=src, checker="tokens"),
                       [Test(input="1 2\\n", expected="3\\n")])
    result.verdict, [t.verdict for t in result.tests]

Pure Python (dataclasses, no Django). ``run_tests`` raises ``SandboxUnavailable`` when
the infrastructure fails (engine down, image missing: retry later) and ``ValueError``
for a malformed job; anything the candidate's code does ends in a verdict.
"""

from __future__ import annotations

import functools
import json
import math
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

from sandbox import judge
from sandbox.engine import COMPILED, Engine, Frame, Profile, SandboxUnavailable, get_engine

LANGUAGES = ("python", "javascript", "cpp", "go")
IO_MODES = ("stdio", "function")
FUNCTION_LANGUAGES = ("python", "javascript", "cpp", "go")
_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
STDERR_CAP = 64 * 1024
COMPILE_OUTPUT_CAP = 64 * 1024
DISPLAY_CAP = 64 * 1024


class _Unchecked:
    def __repr__(self) -> str:
        return "UNCHECKED"


UNCHECKED: Any = _Unchecked()
"""``Test.expected`` for custom-stdin runs: run and show the output, compare nothing."""


@dataclass(frozen=True)
class Limits:
    time_limit_ms: int = 2000  # CPU time per test
    memory_limit_mb: int = 256
    output_limit_mb: float = 8  # stdout per test
    wall_time_limit_ms: int | None = None  # per test; default max(2 × time, time + 1 s)
    compile_time_limit_ms: int = 20_000
    pids: int = 64
    cpus: float = 1.0

    @property
    def wall_ms(self) -> int:
        if self.wall_time_limit_ms:
            return self.wall_time_limit_ms
        return max(2 * self.time_limit_ms, self.time_limit_ms + 1000)

    @property
    def output_bytes(self) -> int:
        return int(self.output_limit_mb * 1024 * 1024)


@dataclass(frozen=True)
class Job:
    language: str  # python | javascript | cpp | go
    code: str
    io: str = "stdio"  # stdio | function
    entrypoint: str | None = None  # io=function: the function to call
    checker: str = "exact"  # exact | tokens | float:EPS | unordered-lines
    limits: Limits = field(default_factory=Limits)
    job_id: str = ""  # shows in the container's labels
    # once a test hits its time or memory limit, the rest are not run (`skipped`): a
    # program that loops forever costs one time limit, not one per test
    fail_fast: bool = True

    def to_dict(self) -> dict:
        """Plain JSON-able data, e.g. to hand the job to another process."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Job:
        return cls(**{**data, "limits": Limits(**data.get("limits", {}))})

    def validate(self) -> None:
        if self.language not in LANGUAGES:
            raise ValueError(f"unsupported language {self.language!r}")
        if self.io not in IO_MODES:
            raise ValueError(f"unknown io mode {self.io!r}")
        if self.io == "function":
            if self.language not in FUNCTION_LANGUAGES:
                raise ValueError(f"io: function is not supported for {self.language}")
            if not self.entrypoint or not _IDENTIFIER.fullmatch(self.entrypoint):
                raise ValueError(f"bad entrypoint {self.entrypoint!r}")
        try:
            judge.parse_checker(self.checker)
        except judge.CheckerError as exc:
            raise ValueError(f"checker {self.checker!r}: {exc}") from None
        if self.limits.time_limit_ms <= 0 or self.limits.memory_limit_mb <= 0:
            raise ValueError("limits must be positive")


@dataclass(frozen=True)
class Test:
    """stdio: ``input``/``expected`` are text. function: ``input`` is the list of
    arguments (or its JSON text) and ``expected`` the return value (a JSON value)."""

    __test__: ClassVar[bool] = False  # not a pytest test class

    input: Any
    expected: Any = UNCHECKED


@dataclass
class TestResult:
    __test__: ClassVar[bool] = False

    index: int
    verdict: str
    time_ms: int = 0  # CPU time (wall time when the wall-clock limit struck)
    wall_ms: int = 0
    memory_kb: int = 0  # peak RSS of the program
    exit_code: int | None = None
    exit_signal: str | None = None  # e.g. "SIGSEGV"
    output: str = ""  # stdout, capped for display
    stderr: str = ""  # head and tail, capped
    output_truncated: bool = False
    message: str = ""  # why it is not accepted (checker diff, limit)


@dataclass
class JobResult:
    verdict: str
    tests: list[TestResult]
    compile_output: str = ""
    error: str = ""  # internal detail for logs, not for candidates
    duration_ms: int = 0
    warm: bool = False  # served by a pre-warmed container
    container_id: str = ""

    @property
    def passed(self) -> int:
        return sum(t.verdict == judge.ACCEPTED for t in self.tests)

    @property
    def total(self) -> int:
        return len(self.tests)

    def to_dict(self) -> dict:
        data = asdict(self)
        data.update(passed=self.passed, total=self.total)
        return data


@functools.cache
def _image(language: str) -> str:
    from sandbox.images.build import image_tag

    return image_tag(language)


def profile_for(job: Job, input_bytes: int = 0) -> Profile:
    """The container limits for a job (pooled containers are keyed by this)."""
    limits = job.limits
    # the program's memory plus its captured output (memfds) plus the runner itself,
    # which also holds every test's input (rounded up so big jobs share a profile)
    memory = limits.memory_limit_mb + 2 * math.ceil(limits.output_limit_mb) + 64
    if input_bytes > 8 << 20:
        memory += 64 * math.ceil(3 * input_bytes / (64 << 20))
    if job.language in COMPILED:
        # g++ -O2 peaks near 200 MB on a heavy #include; go build too when a program
        # imports net/http (rebuilt without cgo)
        memory = max(memory, 384)
    return Profile(
        language=job.language,
        image=_image(job.language),
        memory_mb=memory,
        pids=limits.pids,
        nano_cpus=int(limits.cpus * 1e9),
    )


def _encode_input(job: Job, test: Test) -> str:
    if job.io == "stdio":
        if test.input is None:
            return ""
        if isinstance(test.input, bytes):
            return test.input.decode()
        return str(test.input)
    if isinstance(test.input, str):
        json.loads(test.input)  # must be JSON text
        return test.input
    return json.dumps(test.input)


def _payload(job: Job, tests: Sequence[Test]) -> dict:
    limits = job.limits
    return {
        "protocol": 1,
        "language": job.language,
        "io": job.io,
        "entrypoint": job.entrypoint,
        "code": job.code,
        "fail_fast": job.fail_fast,
        "limits": {
            "time_ms": limits.time_limit_ms,
            "wall_ms": limits.wall_ms,
            "memory_kb": limits.memory_limit_mb * 1024,
            "output_bytes": limits.output_bytes,
            "stderr_bytes": STDERR_CAP,
            "compile_ms": limits.compile_time_limit_ms,
            "compile_output_bytes": COMPILE_OUTPUT_CAP,
        },
        "tests": [_encode_input(job, t) for t in tests],
    }


def _deadline_s(job: Job, n_tests: int) -> float:
    limits = job.limits
    compiled = job.language in COMPILED
    compile_s = 2 * limits.compile_time_limit_ms / 1000 if compiled else 0
    return compile_s + n_tests * (limits.wall_ms / 1000 + 0.5) + 10


def judge_test(job: Job, test: Test, frame: Frame, display_cap: int = DISPLAY_CAP) -> TestResult:
    """Turn one runner frame into a TestResult (limits first, then the checker)."""
    header = frame.header
    stdout, stderr = (frame.payloads + [b"", b""])[:2]
    run = dict(header, stderr_raw=stderr)
    limits = job.limits
    result = TestResult(
        index=int(header.get("index", 0)),
        verdict=judge.ACCEPTED,
        time_ms=int(header.get("time_ms", 0)),
        wall_ms=int(header.get("wall_ms", 0)),
        memory_kb=int(header.get("memory_kb", 0)),
        exit_code=header.get("exit_code"),
        exit_signal=judge.signal_name(header.get("signal")),
        output=stdout[:display_cap].decode(errors="replace"),
        stderr=stderr.decode(errors="replace")[:display_cap],
        output_truncated=len(stdout) > display_cap,
    )
    verdict = judge.limit_verdict(
        run,
        time_limit_ms=limits.time_limit_ms,
        memory_limit_kb=limits.memory_limit_mb * 1024,
        output_limit_bytes=limits.output_bytes,
    )
    if verdict == judge.TIME_LIMIT:
        # the limit, not when the kill landed (CPU rlimits strike on whole seconds, the
        # wall clock later still): "4007 ms" against a 2000 ms limit told nobody anything
        result.time_ms = limits.time_limit_ms
    if verdict is not None:
        result.verdict = verdict
        result.message = _limit_message(verdict, result, limits)
        return result
    if test.expected is UNCHECKED:
        return result
    text = stdout.decode(errors="replace")
    if job.io == "function":
        check = judge.check_function(job.checker, text, test.expected)
    else:
        check = judge.check_stdio(job.checker, text, str(test.expected))
    if not check.ok:
        result.verdict = judge.WRONG_ANSWER
        result.message = check.message
    return result


def _limit_message(verdict: str, result: TestResult, limits: Limits) -> str:
    if verdict == judge.TIME_LIMIT:
        return f"exceeded {limits.time_limit_ms} ms"
    if verdict == judge.MEMORY_LIMIT:
        return f"exceeded {limits.memory_limit_mb} MB"
    if verdict == judge.OUTPUT_LIMIT:
        return f"printed more than {limits.output_limit_mb:g} MB"
    if verdict == judge.RUNTIME_ERROR:
        if result.exit_signal:
            return f"killed by {result.exit_signal}"
        return f"exit code {result.exit_code}"
    return ""


def warm_up(
    languages: Sequence[str] = LANGUAGES,
    limits: Limits | None = None,
    *,
    engine: Engine | None = None,
) -> None:
    """Start idle containers for these languages (e.g. when a worker process starts)."""
    engine = engine or get_engine()
    for language in languages:
        engine.prewarm(profile_for(Job(language=language, code="", limits=limits or Limits())))


def run_tests(
    job: Job,
    tests: Sequence[Test],
    *,
    engine: Engine | None = None,
    on_test: Callable[[TestResult], None] | None = None,
    display_cap: int = DISPLAY_CAP,
) -> JobResult:
    """Compile once and run every test in one fresh container; judge in this process.

    ``on_test`` is called with each TestResult as soon as that test finishes (progress
    for long runs). Raises SandboxUnavailable on infrastructure failure.
    """
    job.validate()
    started = time.monotonic()
    if not tests:
        return JobResult(verdict=judge.ACCEPTED, tests=[])
    engine = engine or get_engine()
    payload = _payload(job, tests)
    profile = profile_for(job, sum(len(t) for t in payload["tests"]))
    limits = job.limits
    per_test = limits.output_bytes + 1 + STDERR_CAP + 1024
    max_bytes = len(tests) * per_test + COMPILE_OUTPUT_CAP + 65536
    results: dict[int, TestResult] = {}
    compile_frame: list[Frame] = []
    skipped_from: list[int] = []

    def on_frame(frame: Frame) -> None:
        kind = frame.header.get("type")
        if kind == "compile":
            compile_frame.append(frame)
        elif kind == "skipped":
            skipped_from.append(int(frame.header.get("from", len(tests))))
        elif kind == "test":
            index = int(frame.header["index"])
            if 0 <= index < len(tests) and index not in results:
                try:
                    results[index] = judge_test(job, tests[index], frame, display_cap)
                except Exception as exc:  # noqa: BLE001 - a judge bug must not lose the job
                    results[index] = TestResult(
                        index=index,
                        verdict=judge.INTERNAL_ERROR,
                        message=f"the judge failed on this test ({type(exc).__name__})",
                    )
                if on_test is not None:
                    on_test(results[index])

    raw = engine.run(
        profile,
        payload,
        deadline_s=_deadline_s(job, len(tests)),
        max_output_bytes=max_bytes,
        job_id=job.job_id or "",
        on_frame=on_frame,
    )
    compile_output = ""
    compile_ok = True
    if compile_frame:
        header = compile_frame[0].header
        compile_ok = bool(header.get("ok"))
        compile_output = (compile_frame[0].payloads or [b""])[0].decode(errors="replace")
    ran_at_all = any(f.header.get("type") == "hello" for f in raw.frames)
    out: list[TestResult] = []
    for index in range(len(tests)):
        if index in results:
            out.append(results[index])
        elif not compile_ok:
            out.append(TestResult(index=index, verdict=judge.COMPILE_ERROR))
        elif skipped_from and index >= skipped_from[0]:
            out.append(
                TestResult(
                    index=index,
                    verdict=judge.SKIPPED,
                    message="not run: an earlier test exceeded its time or memory limit",
                )
            )
        elif raw.host_killed and ran_at_all:
            out.append(
                TestResult(
                    index=index,
                    verdict=judge.TIME_LIMIT,
                    message="the job ran out of its overall time budget",
                )
            )
        else:
            out.append(TestResult(index=index, verdict=judge.INTERNAL_ERROR))
    verdict = judge.overall_verdict(compile_ok, [t.verdict for t in out])
    return JobResult(
        verdict=verdict,
        tests=out,
        compile_output=compile_output,
        error=raw.error,
        duration_ms=round((time.monotonic() - started) * 1000),
        warm=raw.warm,
        container_id=raw.container_id,
    )


__all__ = [
    "UNCHECKED",
    "Job",
    "JobResult",
    "Limits",
    "SandboxUnavailable",
    "Test",
    "TestResult",
    "judge_test",
    "profile_for",
    "run_tests",
    "warm_up",
]
