"""Run the generated coding questions in the real sandbox (Docker engine, runner images).

    .venv/bin/python -m tools.bankgen.sandbox_check [slug ...]

For every part: the reference on every hidden test (must be accepted, and stay under 40%
of the time limit), the naive solution on the part's largest hidden test (must hit the
time limit), and every starter on the samples (must compile and run: wrong answers are
expected). Prints one line per check; exits non-zero on any problem.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml
from sandbox import Job, Limits, Test, run_tests

from .common import BANK, TOOLS

REFERENCE_BUDGET = 0.4


def _tests(coding: dict, cases: list[dict]) -> list[Test]:
    function = coding["io"] == "function"
    return [
        Test(input=c["input"], expected=json.loads(c["output"]) if function else c["output"])
        for c in cases
    ]


def _job(coding: dict, language: str, code: str) -> Job:
    return Job(
        language=language,
        code=code,
        io=coding["io"],
        entrypoint=coding.get("entrypoint"),
        checker=coding["checker"],
        limits=Limits(
            time_limit_ms=coding["time_limit_ms"], memory_limit_mb=coding["memory_limit_mb"]
        ),
    )


def check(path: Path) -> list[str]:
    question = yaml.load(path.read_text(), Loader=yaml.CSafeLoader)["questions"][0]
    slug, coding = question["slug"], question["coding"]
    limit = coding["time_limit_ms"]
    naive = (TOOLS / "naive" / (slug.replace("-", "_") + ".py")).read_text()
    problems = []
    for p, part in enumerate(coding["parts"], start=1):
        result = run_tests(
            _job(coding, "python", coding["reference"]["python"]), _tests(coding, part["hidden"])
        )
        worst = max(t.time_ms for t in result.tests)
        print(f"{slug} part {p}: reference {result.verdict}, worst {worst} ms of {limit} ms")
        if result.verdict != "accepted" or worst > REFERENCE_BUDGET * limit:
            problems.append(f"{slug} part {p}: reference {result.verdict}, {worst} ms")
        largest = max(part["hidden"], key=lambda c: len(c["input"]))
        slow = run_tests(_job(coding, "python", naive), _tests(coding, [largest]))
        print(f"{slug} part {p}: naive on the largest test: {slow.tests[0].verdict}")
        if slow.tests[0].verdict != "time_limit":
            problems.append(f"{slug} part {p}: naive {slow.tests[0].verdict}")
    for language, code in coding["starter"].items():
        result = run_tests(
            _job(coding, language, code), _tests(coding, coding["parts"][0]["samples"])
        )
        verdicts = sorted({t.verdict for t in result.tests})
        print(f"{slug} starter {language}: {result.verdict} {verdicts}")
        if result.verdict in ("compile_error", "internal_error"):
            problems.append(f"{slug} starter {language}: {result.verdict}")
    return problems


def main() -> int:
    only = set(sys.argv[1:])
    problems = []
    for path in sorted(BANK.glob("coding-*.yaml")):
        if not only or path.stem.removeprefix("coding-") in only:
            problems += check(path)
    for problem in problems:
        print("PROBLEM:", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
