"""The hidden tests of the generated coding questions catch the plausible bugs.

Each file under tools/bankgen/wrong/<question>/ is a plausible wrong solution of that
question (its docstring names the bug). Every one must fail at least one small
(non-large) hidden test of the shipped bank file: a bug caught only by the largest test
would hide behind a time-out, and a bug no test catches means the tests are weaker than
the statement. The expected outputs are the ones in bank/, run as the build runs them.
"""

import importlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import yaml

from tests.paths import BANKGEN_DIR, SHIPPED_BANK_DIR
from tools.bankgen.common import run_solution, same_output

WRONG = sorted((BANKGEN_DIR / "wrong").glob("*/*.py"))


def _small_hidden_tests(name: str) -> tuple:
    spec = importlib.import_module(f"tools.bankgen.questions.{name}").spec()
    bank_file = SHIPPED_BANK_DIR / f"coding-{spec.slug}.yaml"
    question = yaml.safe_load(bank_file.read_text())["questions"][0]
    tests = []
    for part_spec, part in zip(spec.parts, question["coding"]["parts"], strict=True):
        for case, test in zip(part_spec.hidden, part["hidden"], strict=True):
            if not case.large:
                tests.append((case, test["output"]))
    return spec, tests


def test_every_wrong_solution_names_its_bug_and_a_generated_question():
    assert WRONG
    questions = {p.stem for p in (BANKGEN_DIR / "questions").glob("[!_]*.py")}
    for path in WRONG:
        assert path.parent.name in questions, path
        assert path.read_text().startswith('"""Wrong: '), path


@pytest.mark.parametrize("path", WRONG, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_small_hidden_test_rejects_the_wrong_solution(path: Path):
    spec, tests = _small_hidden_tests(path.parent.name)

    def rejected(item) -> bool:
        case, want = item
        run = run_solution(spec, path, case.input, timeout_s=20)
        return bool(run.error or run.timed_out) or not same_output(spec, run.output, want)

    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = list(pool.map(rejected, tests))
    assert any(outcomes), f"{path.name}: no small hidden test catches this bug"
