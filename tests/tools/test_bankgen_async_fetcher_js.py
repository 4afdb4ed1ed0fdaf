"""async-bounded-fetcher's JavaScript harness (a virtual clock under Promises) gives the
same log as the Python one: a correct JavaScript fetchAll, run on the starter's harness
with Node, produces the bank's expected output on every small test of both parts."""

import json
import shutil
import subprocess

import pytest
import yaml

from tests.paths import BANKGEN_DIR, SHIPPED_BANK_DIR
from tools.bankgen.questions import async_bounded_fetcher

NODE = shutil.which("node")
WRAPPER = """
const { run } = require(process.argv[1]);
const args = JSON.parse(require("fs").readFileSync(0, "utf8"));
Promise.resolve(run(...args)).then((r) => process.stdout.write(JSON.stringify(r)));
"""


@pytest.mark.skipif(NODE is None, reason="needs node")
def test_the_javascript_harness_agrees_with_the_python_one(tmp_path):
    solution = (BANKGEN_DIR / "references" / "async_bounded_fetcher.js").read_text()
    program = tmp_path / "solution.js"
    program.write_text(
        async_bounded_fetcher.HARNESS_JS + solution + "\nmodule.exports = { run };\n"
    )
    bank = yaml.safe_load((SHIPPED_BANK_DIR / "coding-async-bounded-fetcher.yaml").read_text())
    coding = bank["questions"][0]["coding"]
    assert coding["starter"]["javascript"].startswith(async_bounded_fetcher.HARNESS_JS)
    spec = async_bounded_fetcher.spec()
    checked = 0
    for part_spec, part in zip(spec.parts, coding["parts"], strict=True):
        small = [t for c, t in zip(part_spec.hidden, part["hidden"], strict=True) if not c.large]
        for test in part["samples"] + small:
            run = subprocess.run(
                [NODE, "-e", WRAPPER, str(program)],
                input=test["input"],
                capture_output=True,
                text=True,
                timeout=30,
            )
            assert run.returncode == 0, run.stderr[-500:]
            assert json.loads(run.stdout) == json.loads(test["output"]), test["input"][:200]
            checked += 1
    assert checked >= 30
