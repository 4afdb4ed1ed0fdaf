"""Generate the coding questions of the shipped bank: `bank/coding-<slug>.yaml`.

    .venv/bin/python -m tools.bankgen.build [--check] [--fast] [slug ...]

For every test of every part: the expected output is what the reference solution
(`references/<name>.py`) prints; the independent naive solution (`naive/<name>.py`) must
print the same on every small test and must run out of time on every large one; the
reference must stay under 40% of the time limit everywhere; hand-written expected outputs
(`Case.expect`) must match; every correct-but-slow solution (`slow/<name>/*.py`) must agree
on the small tests and run out of time on a large one. Everything is deterministic
(seeded), so running it again gives the same files. `--check` compares with the files on
disk instead of writing; `--fast` skips running the naive and slow solutions on the large
tests.

A question's translations are written by hand in `i18n/<slug>.yaml` (top level: `{zh-Hans:
{...}, zh-Hant: {...}}`, the bank file's `i18n` block) and copied into its file as is; the
bank import validates them against the English.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import yaml

from .common import (
    BANK,
    TOOLS,
    Case,
    QuestionSpec,
    canonical_output,
    dump_yaml,
    expect_text,
    run_solution,
    same_output,
)

TRANSLATIONS = TOOLS / "i18n"
REFERENCE_BUDGET = 0.4  # of the time limit, on every test
NAIVE_MARGIN = 1.5  # the naive solution gets this many time limits before it counts as TLE


def load_specs(only: list[str]) -> list[QuestionSpec]:
    specs = []
    for path in sorted((TOOLS / "questions").glob("*.py")):
        if path.stem.startswith("_"):
            continue
        module = importlib.import_module(f"{__package__}.questions.{path.stem}")
        spec = module.spec()
        if not only or spec.slug in only:
            specs.append(spec)
    return specs


class Problems(list):
    def add(self, message: str) -> None:
        self.append(message)
        print("  PROBLEM:", message, flush=True)


def _size(spec: QuestionSpec, case: Case) -> int:
    import json

    text = case.input if spec.io == "stdio" else json.dumps(case.input)
    return len(text.encode())


def question_translations(slug: str, *, directory: Path = TRANSLATIONS) -> dict | None:
    """The question's `i18n` block from `<directory>/<slug>.yaml`, or None without one."""
    path = directory / f"{slug}.yaml"
    if not path.exists():
        return None
    block = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(block, dict):
        raise ValueError(f"{path}: must be a mapping of language to translated fields")
    return block


def build_question(spec: QuestionSpec, *, fast: bool, problems: Problems) -> dict:
    limit_s = spec.time_limit_ms / 1000
    parts = []
    for p, part in enumerate(spec.parts):
        where = f"{spec.slug}.parts[{p}]"
        cases = [("samples", i, c) for i, c in enumerate(part.samples)]
        cases += [("hidden", i, c) for i, c in enumerate(part.hidden)]

        def job(item, spec=spec, where=where):
            key, i, case = item
            label = f"{where}.{key}[{i}]"
            ref = run_solution(spec, spec.reference_path, case.input, timeout_s=30)
            naive = None
            if not case.large:
                naive = run_solution(spec, spec.naive_path, case.input, timeout_s=60)
            elif not fast:
                naive = run_solution(
                    spec, spec.naive_path, case.input, timeout_s=limit_s * NAIVE_MARGIN
                )
            return label, case, ref, naive

        with ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(job, cases))

        out = {"title": part.title, "prompt": part.prompt, "samples": [], "hidden": []}
        worst = 0.0
        for (key, _, case), (label, _, ref, naive) in zip(cases, results, strict=True):
            if ref.error or ref.timed_out:
                problems.add(f"{label}: reference failed: {ref.error or 'timeout'}")
                continue
            expected = canonical_output(spec, ref.output)
            worst = max(worst, ref.cpu_ms)
            if ref.cpu_ms > REFERENCE_BUDGET * spec.time_limit_ms:
                problems.add(
                    f"{label}: reference took {ref.cpu_ms:.0f} ms CPU "
                    f"(> {REFERENCE_BUDGET:.0%} of {spec.time_limit_ms} ms)"
                )
            if case.expect is not None and not same_output(
                spec, expected, expect_text(spec, case.expect)
            ):
                problems.add(f"{label}: reference disagrees with the hand-written output")
            if naive is not None and not case.large:
                if naive.error or naive.timed_out:
                    problems.add(f"{label}: naive failed: {naive.error or 'timeout'}")
                elif not same_output(spec, naive.output, expected):
                    problems.add(f"{label}: naive and reference disagree")
            if naive is not None and case.large:
                if not naive.timed_out and naive.cpu_ms < spec.time_limit_ms:
                    problems.add(
                        f"{label}: naive solution finished the large test in "
                        f"{naive.cpu_ms:.0f} ms (limit {spec.time_limit_ms} ms)"
                    )
                elif (
                    not naive.timed_out
                    and not naive.error
                    and not same_output(spec, naive.output, expected)
                ):
                    problems.add(f"{label}: naive and reference disagree (large)")
            if case.large:
                naive_note = (
                    "naive skipped"
                    if naive is None
                    else ("naive TLE" if naive.timed_out else f"naive {naive.cpu_ms:.0f} ms")
                )
                print(
                    f"  {label}: large, {_size(spec, case) / 1024:.0f} KiB, "
                    f"reference {ref.cpu_ms:.0f} ms, {naive_note}",
                    flush=True,
                )
            test_input = case.input
            if spec.io == "function":
                import json

                test_input = json.dumps(case.input, ensure_ascii=False, separators=(",", ":"))
            out[key].append({"input": test_input, "output": expected})
        print(
            f"  {where}: {len(out['samples'])} samples, {len(out['hidden'])} hidden, "
            f"reference worst {worst:.0f} ms",
            flush=True,
        )
        parts.append(out)

    coding = {"languages": spec.languages, "io": spec.io}
    if spec.io == "function":
        coding["entrypoint"] = spec.entrypoint
    coding.update(
        time_limit_ms=spec.time_limit_ms,
        memory_limit_mb=spec.memory_limit_mb,
        checker=spec.checker,
        starter=spec.starter,
        reference={"python": spec.reference_path.read_text()},
        parts=parts,
    )
    question = {
        "slug": spec.slug,
        "kind": "coding",
        "title": spec.title,
        "difficulty": spec.difficulty,
        "tags": spec.tags,
        "prompt": spec.prompt,
        "coding": coding,
    }
    if spec.follow_ups:
        question["follow_ups"] = spec.follow_ups
    question["rubric"] = spec.rubric
    translations = question_translations(spec.slug)
    if translations:
        question["i18n"] = translations
    return question


def check_slow_solutions(spec: QuestionSpec, problems: Problems) -> None:
    """Each `slow/<name>/*.py` is a correct but too slow solution that the statement's
    limits rule out: it must agree with the reference on every small test of its part
    and run out of time on at least one large test."""
    limit_s = spec.time_limit_ms / 1000
    for path in sorted((TOOLS / "slow" / spec.name).glob("*.py")):
        label = f"{spec.slug}: slow/{path.name}"
        if not path.read_text().startswith('"""Too slow: '):
            problems.add(f"{label}: its docstring must start with 'Too slow: '")
        cases = [c for part in spec.parts for c in (*part.samples, *part.hidden)]
        small = [c for c in cases if not c.large]
        large = [c for c in cases if c.large]

        def disagrees(case, path=path):
            ref = run_solution(spec, spec.reference_path, case.input, timeout_s=30)
            run = run_solution(spec, path, case.input, timeout_s=60)
            return bool(run.error or run.timed_out) or not same_output(spec, run.output, ref.output)

        with ThreadPoolExecutor(max_workers=2) as pool:
            if any(pool.map(disagrees, small)):
                problems.add(f"{label}: disagrees with the reference on a small test")
        runs = [
            run_solution(spec, path, case.input, timeout_s=limit_s * NAIVE_MARGIN) for case in large
        ]
        if not any(run.timed_out or run.cpu_ms >= spec.time_limit_ms for run in runs):
            worst = max((run.cpu_ms for run in runs), default=0.0)
            problems.add(f"{label}: finished every large test (worst {worst:.0f} ms)")
        else:
            print(f"  {label}: times out on a large test, as it should", flush=True)


def file_text(spec: QuestionSpec, question: dict) -> str:
    header = (
        f"# GENERATED by tools/bankgen/build.py from tools/bankgen/questions/{spec.name}.py,\n"
        f"# tools/bankgen/references/{spec.name}.py and tools/bankgen/naive/{spec.name}.py.\n"
        "# Do not edit by hand: edit those and run `.venv/bin/python -m tools.bankgen.build`.\n"
    )
    return header + dump_yaml({"questions": [question]})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("slugs", nargs="*")
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument("--fast", action="store_true", help="skip naive runs on large tests")
    args = parser.parse_args()
    problems = Problems()
    stale = []
    for spec in load_specs(args.slugs):
        print(f"{spec.slug}:", flush=True)
        text = file_text(spec, build_question(spec, fast=args.fast, problems=problems))
        target = BANK / f"coding-{spec.slug}.yaml"
        size = len(text.encode())
        print(f"  -> {target.name} ({size / 1024:.0f} KiB)", flush=True)
        if size > 1_500_000:
            problems.add(f"{target.name} is {size} bytes (keep bank files under 1.5 MB)")
        if args.check:
            if not target.exists() or target.read_text() != text:
                stale.append(target.name)
        else:
            target.write_text(text)
    for name in stale:
        print(f"STALE: {name} differs from what the generator produces")
    if problems:
        print(f"{len(problems)} problem(s)")
    if not args.fast:
        for spec in load_specs(args.slugs):
            check_slow_solutions(spec, problems)
    return 1 if problems or stale else 0


if __name__ == "__main__":
    sys.exit(main())
