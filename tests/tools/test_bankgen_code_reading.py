"""The code-reading question hides its bugs from a candidate who only runs the samples.

refactor-rate-limiter shows production code with planted bugs; if running that code on
the samples already printed a different answer, the samples would do the reading for the
candidate. The production code must pass every sample and fail some hidden test.
"""

import importlib

import yaml

from tests.paths import SHIPPED_BANK_DIR
from tools.bankgen.common import run_solution, same_output


def test_the_production_code_passes_the_samples_and_fails_the_hidden_tests(tmp_path):
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
