"""Baseline for bench/judge.py: run the same solutions bare with ``subprocess``.

``run_bare(job, tests)`` runs a ``sandbox.Job`` on the host without any container: one
compile for C++, then one process per test with the input on stdin, the same
function-mode wrappers the sandbox uses, and the same checkers. It returns
``(verdicts, seconds)``. No isolation at all: only for trusted benchmark solutions.

    python bench/judge_bare.py        # prints a quick self-check
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sandbox import judge  # noqa: E402
from sandbox.api import UNCHECKED, Job, Test, _encode_input  # noqa: E402

WRAPPERS = Path(__file__).resolve().parent.parent / "sandbox" / "wrappers"
# the system interpreter, like the runner image's (a venv/pyenv one starts slower)
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable


def _argv(job: Job, workdir: Path) -> list[str]:
    if job.language == "python":
        src = workdir / "main.py"
        src.write_text(job.code)
        if job.io == "function":
            return [PYTHON, "-B", str(WRAPPERS / "function_python.py"), job.entrypoint, str(src)]
        return [PYTHON, "-B", str(src)]
    if job.language == "javascript":
        node = shutil.which("node") or "node"
        src = workdir / "main.js"
        if job.io == "function":
            name = job.entrypoint
            footer = (
                f"\n;globalThis.__mockloop_entry = "
                f"(typeof {name} === 'function') ? {name} : undefined;\n"
            )
            src.write_text(job.code + footer)
            return [node, str(WRAPPERS / "function_node.js"), name, str(src)]
        src.write_text(job.code)
        return [node, str(src)]
    if job.language == "cpp":
        src, binary = workdir / "main.cpp", workdir / "main"
        src.write_text(job.code)
        subprocess.run(
            ["g++", "-O2", "-std=c++17", "-pipe", "-o", str(binary), str(src)],
            check=True,
            capture_output=True,
        )
        return [str(binary)]
    raise ValueError(job.language)


def run_bare(job: Job, tests: Sequence[Test]) -> tuple[list[str], float]:
    """Compile once, run each test as a plain subprocess; (per-test verdicts, seconds)."""
    started = time.monotonic()
    verdicts = []
    with tempfile.TemporaryDirectory(prefix="mockloop-bare-") as tmp:
        argv = _argv(job, Path(tmp))
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
        for test in tests:
            try:
                proc = subprocess.run(
                    argv,
                    input=_encode_input(job, test).encode(),
                    capture_output=True,
                    timeout=job.limits.wall_ms / 1000,
                    cwd=tmp,
                    env=env,
                )
            except subprocess.TimeoutExpired:
                verdicts.append(judge.TIME_LIMIT)
                continue
            if proc.returncode != 0:
                verdicts.append(judge.RUNTIME_ERROR)
                continue
            if test.expected is UNCHECKED:
                verdicts.append(judge.ACCEPTED)
                continue
            text = proc.stdout.decode(errors="replace")
            if job.io == "function":
                check = judge.check_function(job.checker, text, test.expected)
            else:
                check = judge.check_stdio(job.checker, text, str(test.expected))
            verdicts.append(judge.ACCEPTED if check.ok else judge.WRONG_ANSWER)
    return verdicts, time.monotonic() - started


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def compare(runs: int = 20, parallel: int = 2) -> dict:
    """Sandbox vs bare on a 10-test Python stdio problem: latency and throughput."""
    from concurrent.futures import ThreadPoolExecutor

    from sandbox import get_engine, run_tests

    job = Job(language="python", code="print(sum(map(int, input().split())))\n", checker="tokens")
    tests = [Test(f"{i} {i * 7}\n", f"{i * 8}\n") for i in range(10)]
    report: dict = {}
    for name, fn in (
        ("bare", lambda: run_bare(job, tests)[0]),
        ("sandbox", lambda: [t.verdict for t in run_tests(job, tests).tests]),
    ):
        fn()  # warm-up (and the first fill of the warm pool)
        times = []
        for _ in range(runs):
            t0 = time.monotonic()
            verdicts = fn()
            times.append((time.monotonic() - t0) * 1000)
            assert verdicts == [judge.ACCEPTED] * len(tests), verdicts
            time.sleep(0.15)  # a submission rarely follows the previous one within 150 ms
        n_jobs = runs * 2
        t0 = time.monotonic()
        with ThreadPoolExecutor(parallel) as pool:
            list(pool.map(lambda _, fn=fn: fn(), range(n_jobs)))
        report[name] = {
            "median_ms": round(_percentile(times, 0.5), 1),
            "p90_ms": round(_percentile(times, 0.9), 1),
            "jobs_per_s": round(n_jobs / (time.monotonic() - t0), 2),
        }
    get_engine().close()
    bare, box = report["bare"], report["sandbox"]
    report["overhead_median_ms"] = round(box["median_ms"] - bare["median_ms"], 1)
    report["overhead_p90_ms"] = round(box["p90_ms"] - bare["p90_ms"], 1)
    report["throughput_ratio"] = round(box["jobs_per_s"] / bare["jobs_per_s"], 2)
    return report


if __name__ == "__main__":
    if "--compare" in sys.argv:
        print(json.dumps(compare(), indent=2))
        sys.exit(0)
    job = Job(language="python", code="print(sum(map(int, input().split())))\n")
    tests = [Test(f"{i} {i}\n", f"{2 * i}\n") for i in range(10)]
    verdicts, seconds = run_bare(job, tests)
    print(json.dumps({"verdicts": verdicts, "ms": round(seconds * 1000, 1)}))
