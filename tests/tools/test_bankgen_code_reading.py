"""Code-reading questions hand the candidate production code with planted bugs. Running
the samples must not find the bugs for them: the shipped production code (the Python
starter) passes every sample, and still fails a hidden test (the wrong-solutions test
runs it as tools/bankgen/wrong/<question>/production_code.py)."""

import importlib

import pytest
import yaml

from tests.paths import BANKGEN_DIR, SHIPPED_BANK_DIR
from tools.bankgen.common import run_solution, same_output
from tools.bankgen.questions import debug_sessionizer

# refactor-rate-limiter keeps its production code in the question module (BUGGY_PY):
# tested below.
QUESTIONS = [debug_sessionizer]


@pytest.mark.parametrize("module", QUESTIONS, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_the_production_code_passes_every_sample(module, tmp_path):
    spec = module.spec()
    question = yaml.safe_load((SHIPPED_BANK_DIR / f"coding-{spec.slug}.yaml").read_text())
    coding = question["questions"][0]["coding"]
    production = BANKGEN_DIR / "wrong" / spec.name / "production_code.py"
    assert production.exists()
    starter = tmp_path / "starter.py"
    starter.write_text(coding["starter"]["python"])
    for part in coding["parts"]:
        for i, sample in enumerate(part["samples"]):
            run = run_solution(spec, starter, sample["input"], timeout_s=20)
            assert not run.error, run.error
            assert run.output == sample["output"], f"sample {i} reveals a planted bug"


def test_the_rate_limiters_production_code_passes_the_samples_and_fails_hidden_tests(tmp_path):
    """refactor-rate-limiter shows production code with planted bugs: it passes every
    sample and fails some small hidden test."""
    module = importlib.import_module("tools.bankgen.questions.refactor_rate_limiter")
    spec = module.spec()
    production = tmp_path / "production.py"
    production.write_text(module.BUGGY_PY)
    bank_file = SHIPPED_BANK_DIR / f"coding-{spec.slug}.yaml"
    part = yaml.safe_load(bank_file.read_text())["questions"][0]["coding"]["parts"][0]

    def passes(test: dict) -> bool:
        run = run_solution(spec, production, test["input"], timeout_s=20)
        return not (run.error or run.timed_out) and same_output(spec, run.output, test["output"])

    assert all(passes(test) for test in part["samples"])
    small_hidden = [t for t in part["hidden"] if len(t["input"]) < 16 * 1024]
    assert not all(passes(test) for test in small_hidden)
