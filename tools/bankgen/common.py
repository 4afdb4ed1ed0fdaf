"""Shared pieces of the bank generator: question specs, running solutions, YAML output.

A coding question is described by a module in `questions/` (statement, parts, test
cases, follow-ups, starters); its reference solution lives in `references/<name>.py` and
an independent naive solution in `naive/<name>.py`. `build.py` runs the reference on every
test to get the expected outputs, cross-checks the naive solution on the small tests, and
checks that the naive one really runs out of time on the large tests.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from sandbox import judge

TOOLS = Path(__file__).resolve().parent
BANK = TOOLS.parent.parent / "bank"  # the shipped bank, at the repository's top level
PYTHON = sys.executable

# Runs a solution file like the sandbox does (stdio: as a script; function: calls the
# entrypoint with the JSON arguments from stdin and prints the JSON result), then reports
# its own CPU time on stderr.
DRIVER = """
import json, resource, runpy, sys
mode, path, entry = sys.argv[1], sys.argv[2], sys.argv[3]
try:
    if mode == "stdio":
        runpy.run_path(path, run_name="__main__")
    else:
        namespace = runpy.run_path(path, run_name="solution")
        args = json.loads(sys.stdin.read())
        print(json.dumps(namespace[entry](*args)))
finally:
    sys.stdout.flush()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    sys.stderr.write("\\n@@cpu %.1f\\n" % ((usage.ru_utime + usage.ru_stime) * 1000))
"""


@dataclass
class Case:
    """One test. `input` is stdin text (stdio) or the list of arguments (function).

    `large`: a performance test (the naive solution must run out of time on it; it is
    not cross-checked). `expect`: an output written by hand, checked against the
    reference."""

    input: Any
    large: bool = False
    expect: Any = None
    note: str = ""


@dataclass
class PartSpec:
    title: str
    prompt: str
    samples: list[Case]
    hidden: list[Case]


@dataclass
class QuestionSpec:
    slug: str
    name: str  # module / file stem under references/ and naive/
    title: str
    difficulty: str
    tags: list[str]
    prompt: str
    parts: list[PartSpec]
    starter: dict[str, str]
    follow_ups: list[dict]
    languages: list[str] = field(default_factory=lambda: ["python", "javascript", "cpp"])
    io: str = "stdio"
    entrypoint: str | None = None
    time_limit_ms: int = 2000
    memory_limit_mb: int = 256
    checker: str = "exact"
    rubric: str = "coding-default"
    header: str = ""

    @property
    def reference_path(self) -> Path:
        return TOOLS / "references" / f"{self.name}.py"

    @property
    def naive_path(self) -> Path:
        return TOOLS / "naive" / f"{self.name}.py"


# --- running solutions --------------------------------------------------------------------


@dataclass
class Run:
    output: str
    cpu_ms: float
    wall_ms: float
    timed_out: bool = False
    error: str = ""


def _stdin_text(spec: QuestionSpec, case_input: Any) -> str:
    if spec.io == "function":
        return json.dumps(case_input, ensure_ascii=False)
    return case_input


def run_solution(spec: QuestionSpec, path: Path, case_input: Any, timeout_s: float) -> Run:
    """Run a Python solution file on one test, with its CPU time."""
    args = [PYTHON, "-c", DRIVER, spec.io, str(path), spec.entrypoint or "-"]
    started = time.monotonic()
    try:
        proc = subprocess.run(
            args,
            input=_stdin_text(spec, case_input),
            capture_output=True,
            text=True,
            timeout=timeout_s,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
    except subprocess.TimeoutExpired:
        return Run("", timeout_s * 1000, timeout_s * 1000, timed_out=True)
    wall = (time.monotonic() - started) * 1000
    marks = re.findall(r"@@cpu ([0-9.]+)", proc.stderr)
    cpu = float(marks[-1]) if marks else wall
    if proc.returncode != 0:
        return Run(proc.stdout, cpu, wall, error=proc.stderr[-2000:] or f"exit {proc.returncode}")
    return Run(proc.stdout, cpu, wall)


# --- comparing outputs (the sandbox's own checkers) ---------------------------------------


def _lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def same_output(spec: QuestionSpec, got: str, want: str) -> bool:
    """Whether the judge would accept `got` for `want` (same checker, same grammar)."""
    if spec.io == "function":
        try:
            expected = json.loads(want)
        except ValueError:
            return False
        return judge.check_function(spec.checker, got, expected).ok
    return judge.check_stdio(spec.checker, got, want).ok


def canonical_output(spec: QuestionSpec, text: str) -> str:
    """What goes into the bank file: JSON text for function io, lines for stdio."""
    if spec.io == "function":
        return json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":"))
    lines = _lines(text)
    return "\n".join(lines) + "\n" if lines else ""


def expect_text(spec: QuestionSpec, expect: Any) -> str:
    if spec.io == "function":
        return json.dumps(expect, ensure_ascii=False)
    return expect


# --- YAML ----------------------------------------------------------------------------------


class BankDumper(yaml.SafeDumper):
    """Block style, indented lists, multi-line text as `|` literal blocks (like export)."""

    def increase_indent(self, flow: bool = False, indentless: bool = False):
        return super().increase_indent(flow, False)


LARGE_TEXT = 16 * 1024


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    # Large test data goes on one double-quoted line: a literal block would repeat its
    # indentation on every (short) line and double the file size.
    style = '"' if len(value) > LARGE_TEXT else "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


BankDumper.add_representer(str, _represent_str)


def dump_yaml(data: dict) -> str:
    return yaml.dump(
        data,
        Dumper=BankDumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=1 << 30,
    )
