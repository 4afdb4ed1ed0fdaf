"""The correct-but-too-slow solutions under tools/bankgen/slow/ are correct.

Each file under tools/bankgen/slow/<question>/ is a solution the statement's limits rule
out (its docstring says why); tools/bankgen/build.py checks that it runs out of time on a
large test. Here, cheaply, that it is a real solution: it gives the expected output of
every small hidden test in the shipped bank, so its time-out is about speed alone.
"""

from pathlib import Path

import pytest

from tests.paths import BANKGEN_DIR
from tests.tools.test_bankgen_wrong_solutions import _small_hidden_tests
from tools.bankgen.common import run_solution, same_output

SLOW = sorted((BANKGEN_DIR / "slow").glob("*/*.py"))


def test_every_slow_solution_says_why_and_names_a_generated_question():
    assert SLOW
    questions = {p.stem for p in (BANKGEN_DIR / "questions").glob("[!_]*.py")}
    for path in SLOW:
        assert path.parent.name in questions, path
        assert path.read_text().startswith('"""Too slow: '), path


@pytest.mark.parametrize("path", SLOW, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_slow_solution_passes_every_small_hidden_test(path: Path):
    spec, tests = _small_hidden_tests(path.parent.name)
    for case, want in tests:
        run = run_solution(spec, path, case.input, timeout_s=20)
        assert not run.error and not run.timed_out, run.error
        assert same_output(spec, run.output, want)
