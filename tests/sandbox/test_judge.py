"""Checkers and verdict mapping (pure functions, no Docker)."""

from __future__ import annotations

import signal

import pytest

from sandbox import judge
from sandbox.api import Job, Limits, Test, judge_test
from sandbox.engine import Frame


@pytest.mark.parametrize(
    ("output", "expected", "ok"),
    [
        ("3\n", "3\n", True),
        ("3", "3\n", True),  # missing final newline
        ("3   \n\n\n", "3\n", True),  # trailing spaces and blank lines
        ("a b  \r\nc\r\n", "a b\nc\n", True),  # CRLF
        ("", "", True),  # empty expected
        ("\n\n", "", True),
        ("x\n", "", False),
        ("", "0\n", False),
        ("a  b\n", "a b\n", False),  # inner whitespace matters
        ("\n3\n", "3\n", False),  # leading blank line matters
        ("3\n4\n", "3\n", False),
    ],
)
def test_exact(output, expected, ok):
    assert judge.check_stdio("exact", output, expected).ok is ok


def test_exact_message_names_the_line():
    result = judge.check_stdio("exact", "1\n2\n", "1\n3\n")
    assert result.message == "line 2: expected '3', got '2'"


@pytest.mark.parametrize(
    ("output", "expected", "ok"),
    [
        ("1 2\n3", "1\n2 3\n", True),
        ("1 2", "1 2 3", False),
        ("", "", True),
        ("   \n", "", True),
        ("1.0", "1", False),
    ],
)
def test_tokens(output, expected, ok):
    assert judge.check_stdio("tokens", output, expected).ok is ok


@pytest.mark.parametrize(
    ("checker", "output", "expected", "ok"),
    [
        ("float:1e-6", "0.3333333", "0.333333333", True),
        ("float:1e-6", "0.3334", "0.3333", False),
        ("float:1e-6", "1000000.5", "1000000.0", True),  # relative
        ("float:1e-6", "1e3 abc", "1000 abc", True),
        ("float:1e-6", "1e3 abd", "1000 abc", False),  # non-numbers compare exactly
        ("float:1e-6", "1 2", "1 2 3", False),
        ("float:0", "0.1", "0.1", True),
        ("float:1e-3", "nan", "nan", True),
        ("float:1e-3", "1", "nan", False),
        ("float:1e-3", "inf", "inf", True),
        ("float:1e-3", "-inf", "inf", False),
        ("float:1e-9", "-0.0", "0", True),
    ],
)
def test_float(checker, output, expected, ok):
    assert judge.check_stdio(checker, output, expected).ok is ok


@pytest.mark.parametrize(
    ("output", "expected", "ok"),
    [
        ("b\na\nc\n", "a\nb\nc\n", True),
        ("b  \na\n\n", "a\nb", True),
        ("a\na\nb\n", "a\nb\nb\n", False),  # a multiset, not a set
        ("a\n", "a\nb\n", False),
        ("", "", True),
    ],
)
def test_unordered_lines(output, expected, ok):
    assert judge.check_stdio("unordered-lines", output, expected).ok is ok


#: The checker grammar's edge cases; bank validation must agree with the judge on each
#: (tests/interviews/bankfile/test_validation.py imports this list).
CHECKER_SPECS_ACCEPTED = ["exact", "tokens", "unordered-lines", "float:1e-6", "float:0", "float:.5"]
CHECKER_SPECS_REFUSED = [
    "exactly",
    "float:",
    "float:abc",
    "float:-1",
    "float:-0",
    "float:+1e-6",
    "float:nan",
    "float:inf",
    "float: 1e-6",
    "float:1_0",
    " exact",
    "Exact",
    "",
]


@pytest.mark.parametrize("name", CHECKER_SPECS_REFUSED)
def test_bad_checker_names(name):
    with pytest.raises(judge.CheckerError):
        judge.parse_checker(name)


@pytest.mark.parametrize(
    ("name", "parsed"),
    [
        ("exact", ("exact", 0.0)),
        ("unordered-lines", ("unordered-lines", 0.0)),
        ("float:1e-6", ("float", 1e-6)),
        ("float:0", ("float", 0.0)),
        ("float:.5", ("float", 0.5)),
    ],
)
def test_checker_names(name, parsed):
    assert judge.parse_checker(name) == parsed


def test_zero_tolerance_compares_numbers_by_value():
    """`float:0` is a legitimate exact numeric compare: `1.0` is `1`, `1.5` is not `1.25`."""
    assert judge.check_stdio("float:0", "1.0 2e0", "1 2").ok
    assert not judge.check_stdio("tokens", "1.0", "1").ok
    assert not judge.check_stdio("float:0", "1.5", "1.25").ok
    assert judge.check_function("float:0", "[1.0]", [1]).ok


@pytest.mark.parametrize(
    ("checker", "output", "expected", "ok"),
    [
        ("exact", "[1, 2]", [1, 2], True),
        ("exact", "[2, 1]", [1, 2], False),
        ("exact", '{"a": 1, "b": [true, null]}', {"b": [True, None], "a": 1}, True),
        ("exact", "1", True, False),  # true is not 1
        ("exact", "true", 1, False),
        ("exact", "1.0", 1, True),  # the same JSON number
        ("exact", "0.30000000000000004", 0.3, False),
        ("float:1e-9", "0.30000000000000004", 0.3, True),
        ("float:1e-9", "[0.1, 0.30000000000000004]", [0.1, 0.3], True),
        ("exact", '"abc"', "abc", True),
        ("exact", "null", None, True),
        ("exact", "not json", "x", False),
        ("unordered-lines", "[3, 1, 2]", [1, 2, 3], True),
        ("unordered-lines", '[[1], {"a": 2}]', [{"a": 2}, [1]], True),
        ("exact", '{"a": 1}', {"a": 1, "b": 2}, False),
    ],
)
def test_function_json(checker, output, expected, ok):
    assert judge.check_function(checker, output, expected).ok is ok


def _frame(stdout: bytes = b"3\n", stderr: bytes = b"", **header) -> Frame:
    base = {
        "type": "test",
        "index": 0,
        "status": "ok",
        "exit_code": 0,
        "signal": None,
        "time_ms": 10,
        "wall_ms": 12,
        "memory_kb": 9000,
        "oom_killed": False,
        "wall_timeout": False,
        "stdout_size": len(stdout),
    }
    return Frame({**base, **header}, [stdout, stderr])


LIMITS = Limits(time_limit_ms=1000, memory_limit_mb=64, output_limit_mb=1)


@pytest.mark.parametrize(
    ("header", "verdict"),
    [
        ({}, "accepted"),
        ({"stdout": b"4\n"}, "wrong_answer"),
        ({"wall_timeout": True, "signal": 9, "exit_code": None}, "time_limit"),
        ({"time_ms": 1001}, "time_limit"),
        ({"signal": int(signal.SIGXCPU), "exit_code": None}, "time_limit"),
        ({"oom_killed": True, "signal": 9, "exit_code": None}, "memory_limit"),
        ({"memory_kb": 64 * 1024 + 1}, "memory_limit"),
        ({"exit_code": 1, "stderr": b"Traceback...\nMemoryError\n"}, "memory_limit"),
        ({"exit_code": 1, "stderr": b"MemoryError"}, "memory_limit"),
        ({"exit_code": 0, "stderr": b"MemoryError"}, "accepted"),  # exited 0: the checker decides
        ({"exit_code": 2, "stderr": b"fatal error: runtime: out of memory\n"}, "memory_limit"),
        ({"exit_code": 2, "stderr": b"panic: runtime error: index out of range"}, "runtime_error"),
        ({"stdout_size": 1024 * 1024 + 1}, "output_limit"),
        ({"signal": int(signal.SIGXFSZ), "exit_code": None}, "output_limit"),
        ({"signal": int(signal.SIGSEGV), "exit_code": None}, "runtime_error"),
        ({"exit_code": 3}, "runtime_error"),
        ({"status": "error"}, "internal_error"),
        # precedence: output beats memory beats time beats runtime error
        ({"stdout_size": 2 << 20, "oom_killed": True, "wall_timeout": True}, "output_limit"),
        ({"oom_killed": True, "wall_timeout": True}, "memory_limit"),
        ({"wall_timeout": True, "exit_code": 1}, "time_limit"),
    ],
)
def test_verdict_mapping(header, verdict):
    job = Job(language="python", code="", limits=LIMITS)
    result = judge_test(job, Test("", "3\n"), _frame(**header))
    assert result.verdict == verdict, result


def test_runtime_error_reports_the_signal():
    job = Job(language="cpp", code="", limits=LIMITS)
    frame = _frame(signal=int(signal.SIGSEGV), exit_code=None)
    result = judge_test(job, Test("", "3\n"), frame)
    assert (result.exit_signal, result.message) == ("SIGSEGV", "killed by SIGSEGV")


def test_a_timed_out_test_shows_the_limit_not_the_kill_time():
    """Issue 15: "4007 ms" against a stated 2000 ms limit; the limit is what it exceeded."""
    job = Job(language="python", code="", limits=LIMITS)
    slept = judge_test(job, Test(""), _frame(wall_timeout=True, time_ms=3, wall_ms=2000))
    spun = judge_test(job, Test(""), _frame(time_ms=2004, wall_ms=2010, signal=signal.SIGXCPU))
    assert (slept.verdict, slept.time_ms) == ("time_limit", 1000)
    assert (spun.verdict, spun.time_ms) == ("time_limit", 1000)


def test_overall_verdict_is_the_first_failure_in_test_order():
    assert judge.overall_verdict(True, ["accepted", "time_limit", "wrong_answer"]) == "time_limit"
    assert judge.overall_verdict(True, ["accepted", "accepted"]) == "accepted"
    assert judge.overall_verdict(True, ["wrong_answer", "internal_error"]) == "internal_error"
    assert judge.overall_verdict(False, []) == "compile_error"


@pytest.mark.parametrize(
    "job",
    [
        Job(language="ruby", code=""),
        Job(language="python", code="", io="socket"),
        Job(language="cpp", code="", io="function"),
        Job(language="go", code="", io="function", entrypoint="not valid"),
        Job(language="python", code="", io="function", entrypoint="not valid"),
        Job(language="python", code="", io="function"),
        Job(language="python", code="", checker="fuzzy"),
    ],
)
def test_malformed_jobs_are_refused(job):
    with pytest.raises(ValueError):
        job.validate()


# ------------------------------------------------------------------ pathological outputs

MB = 1 << 20
CPU_BUDGET_S = 20  # linear checkers need well under a second for these; quadratic, hours


class _OutOfBudget(Exception):
    pass


def _judged_within_cpu_budget(check):
    """Run `check()` with a CPU-time budget (ITIMER_PROF: CPU, not wall time, so a busy
    machine does not make it flaky); a runaway checker fails instead of hanging."""

    def out_of_budget(signum, frame):
        raise _OutOfBudget

    previous = signal.signal(signal.SIGPROF, out_of_budget)
    signal.setitimer(signal.ITIMER_PROF, CPU_BUDGET_S)
    try:
        return check()
    except _OutOfBudget:
        pytest.fail(f"the checker used more than {CPU_BUDGET_S} s of CPU")
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


PATHOLOGICAL_STDIO = [
    ("exact", "1" * (8 * MB) + "x", "1\n"),
    ("exact", "a \t" * (2 * MB) + "\n" * (2 * MB), "a\n"),
    ("tokens", "1" * (8 * MB) + "x", "1\n"),
    ("tokens", "1 " * (4 * MB), "1\n"),
    ("float:1e-6", "1" * 8000 + "x", "1\n"),  # 21.6 s before numbers were parsed linearly
    ("float:1e-6", "1" * (8 * MB) + "x", "1\n"),
    ("float:1e-6", "1." + "1" * (8 * MB) + "e", "1\n"),
    ("float:1e-6", "-" + "1" * (8 * MB) + "e+" + "1" * 1000 + "x", "1\n"),
    ("float:1e-6", "1" * (8 * MB), "1\n"),  # a valid (huge) number
    ("float:1e-6", "1.5 " * (2 * MB), "1.5\n"),
    ("unordered-lines", "a\n" * (4 * MB), "a\n"),
    ("unordered-lines", "x" * (8 * MB), "a\n"),
]


@pytest.mark.parametrize(("checker", "output", "expected"), PATHOLOGICAL_STDIO)
def test_pathological_stdio_output_is_judged_in_bounded_work(checker, output, expected):
    result = _judged_within_cpu_budget(lambda: judge.check_stdio(checker, output, expected))
    assert result.ok is False


PATHOLOGICAL_FUNCTION = [
    ("exact", "[" * 200_000),  # RecursionError in json.loads left a submission running
    ("exact", "[" * 900 + "]" * 900),  # valid JSON, deeper than the comparison recursed
    ("exact", '{"a":' * 900 + "1" + "}" * 900),
    ("float:1e-6", "[" * (4 * MB)),
    ("exact", "1" * (8 * MB)),  # over Python's int digit limit
    ("float:1e-6", "[" + "1.5," * (2 * MB) + "1]"),
    ("unordered-lines", "[" + "[1]," * (2 * MB) + "[2]]"),
    ("exact", '"' + "\\u0041" * (1 * MB) + '"'),
]


@pytest.mark.parametrize(("checker", "output"), PATHOLOGICAL_FUNCTION)
def test_pathological_function_output_is_judged_in_bounded_work(checker, output):
    result = _judged_within_cpu_budget(lambda: judge.check_function(checker, output, [1]))
    assert result.ok is False
    assert result.message


def test_deep_but_equal_json_is_accepted():
    deep = "[" * 900 + "]" * 900
    expected = []
    for _ in range(899):
        expected = [expected]
    assert judge.check_function("exact", deep, expected).ok is True


def test_a_judge_failure_on_one_test_is_that_tests_internal_error(monkeypatch):
    """Result handling never loses the job: a checker bug becomes internal_error."""
    from sandbox import api
    from sandbox.engine import RawRun

    class OneFrameEngine:
        def run(self, profile, payload, *, on_frame, **kwargs):
            frames = [Frame({"type": "hello"}), Frame({"type": "test", "index": 0}, [b"", b""])]
            for frame in frames:
                on_frame(frame)
            return RawRun(frames=frames, finished=True)

    def broken(*args, **kwargs):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(api, "judge_test", broken)
    monkeypatch.setattr(api, "_image", lambda language: "runner")
    result = api.run_tests(Job(language="python", code=""), [Test("")], engine=OneFrameEngine())
    assert result.verdict == judge.INTERNAL_ERROR
    assert "RecursionError" in result.tests[0].message
