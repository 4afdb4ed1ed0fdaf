"""Checkers and verdicts. Runs in the worker: expected outputs never enter a container.

Checkers (the bank's ``checker:`` field):

- ``exact`` — equal after removing trailing whitespace on every line and trailing blank
  lines (so ``\\r\\n`` vs ``\\n`` and a missing final newline do not matter);
- ``tokens`` — equal sequences of whitespace-separated tokens;
- ``float:EPS`` (EPS a decimal >= 0) — token-wise; two numeric tokens match when within
  EPS absolutely or relatively (``|a-b| <= EPS * max(1, |b|)``), other tokens must be equal;
- ``unordered-lines`` — the same multiset of lines (each right-stripped, blank lines
  ignored).

``function`` problems compare JSON values: same types (``true`` is not ``1``), same
keys, lists element-wise; numbers equal, or within EPS under ``float:EPS``; under
``unordered-lines`` a top-level list is compared as a multiset.

Per-test verdict precedence (the first that applies): internal_error, output_limit,
memory_limit, time_limit, runtime_error, then the checker (accepted / wrong_answer).
The job's verdict is compile_error if compilation failed, internal_error if any test
had one (the result is not trustworthy: retry), else the first non-accepted test verdict
in test order, else accepted. ``skipped``: not run, because an earlier test of the job
hit its time or memory limit (fail fast); it always follows that test's own verdict.
"""

from __future__ import annotations

import json
import math
import re
import signal
from collections import Counter
from dataclasses import dataclass
from typing import Any

ACCEPTED = "accepted"
WRONG_ANSWER = "wrong_answer"
TIME_LIMIT = "time_limit"
MEMORY_LIMIT = "memory_limit"
RUNTIME_ERROR = "runtime_error"
COMPILE_ERROR = "compile_error"
OUTPUT_LIMIT = "output_limit"
INTERNAL_ERROR = "internal_error"
SKIPPED = "skipped"
VERDICTS = (
    ACCEPTED,
    WRONG_ANSWER,
    TIME_LIMIT,
    MEMORY_LIMIT,
    RUNTIME_ERROR,
    COMPILE_ERROR,
    OUTPUT_LIMIT,
    INTERNAL_ERROR,
    SKIPPED,
)

# A number token, matched in time linear in its length: every quantifier is possessive
# (no backtracking), and no two of them can take the same characters. The old
# `\d+\.?\d*` could split a run of digits between `\d+` and `\d*` in n ways and tried
# each of them on a failing token: quadratic (`"1" * 8000 + "x"`: seconds; 8 MB: months).
_NUMBER = re.compile(
    r"[+-]?+(?:\d++(?:\.\d*+)?+|\.\d++)(?:[eE][+-]?+\d++)?+|[+-]?+(?:inf|infinity|nan)", re.I
)
_MEMORY_MESSAGES = (
    b"MemoryError",  # Python: an allocation the kernel refused outright
    b"JavaScript heap out of memory",  # Node: --max-old-space-size reached
    b"std::bad_alloc",  # C++: operator new failed
    b"fatal error: runtime: out of memory",  # Go: the kernel refused the heap's growth
)


@dataclass(frozen=True)
class CheckResult:
    ok: bool
    message: str = ""


class CheckerError(ValueError):
    """The checker spec is not in the grammar; the message says what is allowed."""


# `float:EPS`: EPS is a plain non-negative decimal literal (no sign, no inf/nan, no spaces).
_TOLERANCE = re.compile(r"(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_CHECKER_HELP = "must be exact, tokens, unordered-lines or float:<eps> (e.g. float:1e-6)"
_TOLERANCE_HELP = "float:<eps> needs a number >= 0, e.g. float:1e-6"


def parse_checker(spec: str) -> tuple[str, float]:
    """``"float:1e-6"`` → ``("float", 1e-6)``: the one parser of the checker grammar
    (``exact | tokens | unordered-lines | float:EPS``), shared by bank validation and the
    judge so that what imports is exactly what can be judged.

    ``float:0`` is accepted: numeric tokens then compare by value with no tolerance
    (``1.0`` matches ``1`` and ``1e0``, which ``tokens`` would refuse)."""
    if not isinstance(spec, str):
        raise CheckerError(_CHECKER_HELP)
    if spec in ("exact", "tokens", "unordered-lines"):
        return spec, 0.0
    if spec.startswith("float:"):
        tolerance = spec.removeprefix("float:")
        if not _TOLERANCE.fullmatch(tolerance) or not math.isfinite(float(tolerance)):
            raise CheckerError(_TOLERANCE_HELP)
        return "float", float(tolerance)
    raise CheckerError(_CHECKER_HELP)


# ------------------------------------------------------------------------------- stdio


def _lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _clip(text: str, n: int = 60) -> str:
    return repr(text if len(text) <= n else text[:n] + "…")


def check_exact(output: str, expected: str) -> CheckResult:
    got, want = _lines(output), _lines(expected)
    for i, (g, w) in enumerate(zip(got, want, strict=False), start=1):
        if g != w:
            return CheckResult(False, f"line {i}: expected {_clip(w)}, got {_clip(g)}")
    if len(got) != len(want):
        return CheckResult(False, f"expected {len(want)} lines, got {len(got)}")
    return CheckResult(True)


def _numbers_close(a: float, b: float, eps: float) -> bool:
    if math.isnan(b):
        return math.isnan(a)
    if math.isinf(b) or math.isinf(a):
        return a == b
    return abs(a - b) <= eps * max(1.0, abs(b))


def check_tokens(output: str, expected: str, eps: float | None = None) -> CheckResult:
    got, want = output.split(), expected.split()
    for i, (g, w) in enumerate(zip(got, want, strict=False), start=1):
        if g == w:
            continue
        if eps is not None and _NUMBER.fullmatch(g) and _NUMBER.fullmatch(w):
            if _numbers_close(float(g), float(w), eps):
                continue
            return CheckResult(False, f"token {i}: expected {w} (±{eps:g}), got {g}")
        return CheckResult(False, f"token {i}: expected {_clip(w)}, got {_clip(g)}")
    if len(got) != len(want):
        return CheckResult(False, f"expected {len(want)} tokens, got {len(got)}")
    return CheckResult(True)


def check_unordered_lines(output: str, expected: str) -> CheckResult:
    got = Counter(line for line in _lines(output) if line)
    want = Counter(line for line in _lines(expected) if line)
    if got == want:
        return CheckResult(True)
    missing = list((want - got).elements())
    extra = list((got - want).elements())
    if missing:
        return CheckResult(False, f"missing line {_clip(missing[0])} ({len(missing)} missing)")
    return CheckResult(False, f"unexpected line {_clip(extra[0])} ({len(extra)} extra)")


def check_stdio(checker: str, output: str, expected: str) -> CheckResult:
    kind, eps = parse_checker(checker)
    if kind == "exact":
        return check_exact(output, expected)
    if kind == "tokens":
        return check_tokens(output, expected)
    if kind == "float":
        return check_tokens(output, expected, eps)
    return check_unordered_lines(output, expected)


# ------------------------------------------------------------------------------- function


def _json_equal(got: Any, want: Any, eps: float | None, path: str) -> str | None:
    """None when equal, else where and how they differ."""
    if isinstance(want, bool) or isinstance(got, bool):
        if type(got) is type(want) and got == want:
            return None
        return f"{path}: expected {json.dumps(want)}, got {json.dumps(got)}"
    if isinstance(want, int | float) and isinstance(got, int | float):
        if got == want:
            return None
        if eps is not None and _numbers_close(float(got), float(want), eps):
            return None
        return f"{path}: expected {want!r}, got {got!r}"
    if isinstance(want, list) and isinstance(got, list):
        if len(got) != len(want):
            return f"{path}: expected {len(want)} items, got {len(got)}"
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            diff = _json_equal(g, w, eps, f"{path}[{i}]")
            if diff:
                return diff
        return None
    if isinstance(want, dict) and isinstance(got, dict):
        if set(got) != set(want):
            missing = sorted(set(want) - set(got))
            extra = sorted(set(got) - set(want))
            return f"{path}: keys differ (missing {missing}, extra {extra})"
        for key in want:
            diff = _json_equal(got[key], want[key], eps, f"{path}.{key}")
            if diff:
                return diff
        return None
    if type(got) is type(want) and got == want:
        return None
    return f"{path}: expected {_clip(json.dumps(want))}, got {_clip(json.dumps(got))}"


def check_function(checker: str, output: str, expected: Any) -> CheckResult:
    """A program's return value (JSON text) against the expected value. Never raises for
    what the program wrote: JSON nested deeper than the parser or the comparison can
    recurse (`"[" * 200000` made `json.loads` raise RecursionError and left a submission
    `running`) is a wrong answer like any other bad value."""
    kind, eps = parse_checker(checker)
    try:
        got = json.loads(output)
    except RecursionError:
        return CheckResult(False, "the return value is nested too deeply")
    except ValueError:
        return CheckResult(False, f"the return value is not JSON: {_clip(output.strip())}")
    tolerance = eps if kind == "float" else None
    try:
        if kind == "unordered-lines" and isinstance(got, list) and isinstance(expected, list):
            key = lambda v: json.dumps(v, sort_keys=True)  # noqa: E731
            got, expected = sorted(got, key=key), sorted(expected, key=key)
        diff = _json_equal(got, expected, tolerance, "$")
    except RecursionError:
        return CheckResult(False, "the return value is nested too deeply to compare")
    return CheckResult(diff is None, diff or "")


# ------------------------------------------------------------------------------- verdicts


def signal_name(number: int | None) -> str | None:
    if number is None:
        return None
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"SIG{number}"


def limit_verdict(
    run: dict, *, time_limit_ms: int, memory_limit_kb: int, output_limit_bytes: int
) -> str | None:
    """The verdict a run gets from its limits and exit alone, or None if it ran cleanly."""
    if run.get("status") not in (None, "ok"):
        return INTERNAL_ERROR
    if run.get("stdout_size", 0) > output_limit_bytes or run.get("signal") == signal.SIGXFSZ:
        return OUTPUT_LIMIT
    stderr = run.get("stderr_raw", b"")
    failed = run.get("exit_code") not in (0, None) or run.get("signal") is not None
    if (
        run.get("oom_killed")
        or run.get("memory_kb", 0) > memory_limit_kb
        or (failed and any(m in stderr for m in _MEMORY_MESSAGES))
    ):
        return MEMORY_LIMIT
    if (
        run.get("wall_timeout")
        or run.get("time_ms", 0) > time_limit_ms
        or run.get("signal") == signal.SIGXCPU
    ):
        return TIME_LIMIT
    if failed:
        return RUNTIME_ERROR
    return None


def overall_verdict(compile_ok: bool, verdicts: list[str]) -> str:
    if not compile_ok:
        return COMPILE_ERROR
    if INTERNAL_ERROR in verdicts:
        return INTERNAL_ERROR
    for verdict in verdicts:
        if verdict != ACCEPTED:
            return verdict
    return ACCEPTED
