"""The bank that ships in interviews/bank/: it imports, covers the AI-lab loop, and every
Python reference solution really produces the expected output of every test.

The references run here as plain subprocesses (no Docker); `import_bank` without
`--no-verify` runs them again, for every language, in the sandbox.
"""

import json
import math
import subprocess
import sys

import pytest

from interviews import models as m
from interviews.services.bank import SHIPPED_BANK_DIR, bank_import, bank_load

pytestmark = pytest.mark.django_db

STAGE_KINDS = [
    "screen",
    "challenge",
    "hm_call",
    "coding",
    "design",
    "review",
    "deep_dive",
    "values",
]

# Calls the entrypoint with the JSON arguments from stdin and prints the JSON result.
FUNCTION_DRIVER = """
import json, sys
namespace = {}
exec(compile(sys.argv[1], "reference.py", "exec"), namespace)
args = json.loads(sys.stdin.read())
print(json.dumps(namespace[sys.argv[2]](*args)))
"""


def _coding_cases():
    bank = bank_load(SHIPPED_BANK_DIR)
    for entry in bank.questions:
        spec = entry.spec
        if spec["kind"] != "coding":
            continue
        for p, part in enumerate(spec["coding"]["parts"]):
            for key in ("samples", "hidden"):
                for i, test in enumerate(part[key]):
                    yield pytest.param(spec, test, id=f"{spec['slug']}.parts[{p}].{key}[{i}]")


def _normalise_stdout(text: str) -> str:
    """The `exact` checker: trailing whitespace per line and trailing blank lines ignored."""
    return "\n".join(line.rstrip() for line in text.rstrip().splitlines())


def _json_equal(a, b, eps: float) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return (
            isinstance(a, int | float)
            and isinstance(b, int | float)
            and math.isclose(a, b, rel_tol=eps, abs_tol=eps)
        )
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y, eps) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k], eps) for k in a)
    return a == b


def test_the_shipped_bank_imports():
    result = bank_import(SHIPPED_BANK_DIR, verify=False)
    kinds = {q.kind for q in result.created}
    assert kinds == {"coding", "design", "review", "discussion"}
    assert all(q.status == "published" for q in result.created)

    again = bank_import(SHIPPED_BANK_DIR, verify=False)
    assert again.created == []  # `make run` re-imports it idempotently


def test_the_ai_lab_loop_has_every_stage_kind_and_its_questions_exist():
    bank_import(SHIPPED_BANK_DIR, verify=False)
    template = m.LoopTemplate.objects.get(slug="ai-lab-infra-sde")
    stages = list(template.stages.order_by("position"))
    assert [s.kind for s in stages] == STAGE_KINDS
    slugs = set(m.Question.objects.values_list("slug", flat=True))
    for stage in stages:
        assert stage.question_slugs and set(stage.question_slugs) <= slugs


def test_rubrics_have_three_to_five_dimensions_with_four_levels():
    bank = bank_load(SHIPPED_BANK_DIR)
    slugs = {e.spec["slug"] for e in bank.rubrics}
    assert {"coding-default", "design-default", "review-default", "discussion-default"} <= slugs
    for entry in bank.rubrics:
        assert 3 <= len(entry.spec["dimensions"]) <= 5
        for dimension in entry.spec["dimensions"]:
            assert len(set(dimension["levels"])) == 4


def test_the_starter_questions_have_what_the_rounds_need():
    questions = {e.spec["slug"]: e.spec for e in bank_load(SHIPPED_BANK_DIR).questions}
    batcher = questions["token-batcher"]["coding"]
    assert batcher["io"] == "stdio"
    assert set(batcher["starter"]) >= {"javascript", "cpp"}
    assert "python" in batcher["reference"]
    assert len(batcher["parts"]) == 2
    for part in batcher["parts"]:
        assert len(part["samples"]) >= 3 and len(part["hidden"]) >= 3
    assert any(f.get("unlocks_part") == 2 for f in questions["token-batcher"]["follow_ups"])
    assert any(
        q["kind"] == "coding" and q["coding"]["io"] == "function" for q in questions.values()
    )
    design = questions["llm-serving-design"]
    assert design["kind"] == "design"
    assert all(f.get("coach_notes") for f in design["follow_ups"])
    review = questions["serving-doc-review"]
    assert len(review["review"]["flaws"]) >= 4
    assert {"why-this-lab", "hm-inference-performance", "project-deep-dive", "safety-values"} <= (
        {slug for slug, q in questions.items() if q["kind"] == "discussion"}
    )


@pytest.mark.parametrize(("spec", "test"), list(_coding_cases()))
def test_python_reference_passes(spec, test):
    coding = spec["coding"]
    reference = coding["reference"]["python"]
    if coding["io"] == "stdio":
        run = subprocess.run(
            [sys.executable, "-c", reference],
            input=test["input"],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert run.returncode == 0, run.stderr
        assert coding["checker"] == "exact"
        assert _normalise_stdout(run.stdout) == _normalise_stdout(test["output"])
    else:
        run = subprocess.run(
            [sys.executable, "-c", FUNCTION_DRIVER, reference, coding["entrypoint"]],
            input=test["input"],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert run.returncode == 0, run.stderr
        checker = coding["checker"]
        eps = float(checker.split(":", 1)[1]) if checker.startswith("float:") else 0.0
        assert _json_equal(json.loads(run.stdout), json.loads(test["output"]), eps)
