"""Bank export: the file format exactly, so export → import → export is byte-identical and
importing an export creates no new versions."""

import pytest
import yaml

from interviews import models as m
from interviews.bankfile.format import bank_dump
from interviews.bankfile.validation import bank_load
from interviews.selectors.bank import (
    bank_export,
    bank_export_yaml,
    question_list_latest,
    question_prefetch,
    question_to_dict,
    rubric_to_dict,
)
from interviews.services.bank_import import bank_import
from tests.interviews import bank_data as data
from tests.paths import SHIPPED_BANK_DIR

pytestmark = pytest.mark.django_db


def _varied_bank() -> dict:
    """The test bank plus the less common shapes: function io, a draft, non-default
    limits, fractional weights, a stage rubric, after_minutes and after_answer follow-ups,
    odd text."""
    bank = data.bank()
    function_q = data.coding_question("pairs", status="draft")
    function_q.pop("follow_ups")
    function_q["coding"].update(io="function", entrypoint="pairs", output_limit_mb=2)
    function_q["coding"]["checker"] = "float:1e-6"
    function_q["coding"]["parts"] = [
        {
            "title": "Pairs",
            "prompt": "",
            "samples": [{"input": [[1.5, "ü"], {"k": None}], "output": {"a": [1, 2]}}],
            "hidden": [{"input": "[]", "output": '"text"'}],
        }
    ]
    bank["questions"].append(function_q)
    bank["questions"][2]["follow_ups"].append(
        {"prompt": "Time check.", "trigger": "after_minutes", "after_minutes": 20}
    )
    bank["questions"][2]["follow_ups"].append({"prompt": "And then?", "trigger": "after_answer"})
    bank["questions"][2]["prompt"] = "Line with trailing spaces   \n\tand a tab\n\n"
    bank["rubrics"][0]["dimensions"][1]["weight"] = 0.25
    bank["loops"][0]["stages"][0]["rubric"] = "code-rubric"
    bank["loops"][0]["description"] = "Multi\nline\n"
    return bank


def _wipe_bank() -> None:
    for model in (m.StageTemplate, m.LoopTemplate, m.Question, m.Dimension, m.Rubric):
        model.objects.all().delete()


@pytest.mark.parametrize("source", ["shipped", "varied"])
def test_export_import_export_is_byte_identical(tmp_path, source):
    bank_import(SHIPPED_BANK_DIR if source == "shipped" else _varied_bank(), verify=False)
    first = bank_export_yaml()
    path = tmp_path / "export.yaml"
    path.write_text(first)

    # into the same database: nothing new
    result = bank_import(path, verify=False)
    assert result.created == []
    assert not result.rubrics["created"] and not result.rubrics["updated"]
    assert not result.loops["created"] and not result.loops["updated"]
    assert bank_export_yaml() == first

    # into an empty bank: the same bytes come back out
    _wipe_bank()
    bank_import(path, verify=False)
    assert bank_export_yaml() == first


def test_validated_dicts_are_exactly_what_export_produces():
    """Validation produces the canonical dict; the database gives it back unchanged."""
    bank = bank_load(_varied_bank())
    bank_import(_varied_bank(), verify=False)
    exported = bank_export()
    assert exported["questions"] == sorted(
        (e.spec for e in bank.questions), key=lambda spec: spec["slug"]
    )
    assert exported["rubrics"] == [e.spec for e in bank.rubrics]
    assert exported["loops"] == [e.spec for e in bank.loops]


def test_export_is_the_file_format():
    bank_import(_varied_bank(), verify=False)
    text = bank_export_yaml()
    parsed = yaml.safe_load(text)
    assert list(parsed) == ["questions", "rubrics", "loops"]
    adder = next(q for q in parsed["questions"] if q["slug"] == "adder")
    assert list(adder) == [
        "slug",
        "kind",
        "title",
        "difficulty",
        "tags",
        "prompt",
        "coding",
        "follow_ups",
        "rubric",
    ]
    assert adder["coding"]["parts"][0]["hidden"][0] == {
        "input": data.HIDDEN_INPUT,
        "output": data.HIDDEN_OUTPUT,
    }
    assert adder["follow_ups"][0] == data.coding_question()["follow_ups"][0]
    pairs = next(q for q in parsed["questions"] if q["slug"] == "pairs")
    assert pairs["status"] == "draft"
    assert pairs["coding"]["entrypoint"] == "pairs"
    assert pairs["coding"]["output_limit_mb"] == 2
    assert pairs["coding"]["parts"][0]["samples"][0]["input"] == '[[1.5, "ü"], {"k": null}]'
    assert "prompt: |" in text  # multi-line text as literal blocks


def test_export_writes_the_newest_version_only():
    bank_import(data.bank(), verify=False)
    changed = data.bank()
    changed["questions"][0]["title"] = "Add numbers, v2"
    bank_import(changed, verify=False)
    titles = [q["title"] for q in bank_export()["questions"] if q["slug"] == "adder"]
    assert titles == ["Add numbers, v2"]


def test_export_of_selected_items():
    bank_import(data.bank(), verify=False)
    exported = bank_export(
        questions=question_list_latest().filter(slug="why-here"),
        rubrics=[],
        loops=[],
    )
    assert list(exported) == ["questions"]
    assert [q["slug"] for q in exported["questions"]] == ["why-here"]


def test_canonical_dicts_of_rows_built_elsewhere():
    """Rows made by factories or the admin (no fingerprint) export in the same shape."""
    from tests import factories as f

    rubric = f.RubricFactory(slug="r1")
    part = f.PartFactory(question__slug="made-by-hand", question__rubric=rubric)
    f.TestCaseFactory(part=part, visibility="hidden", position=0)
    question = question_prefetch(m.Question.objects.filter(pk=part.question_id)).get()
    spec = question_to_dict(question)
    assert spec["coding"]["parts"][0]["hidden"] == [{"input": "1 2\n", "output": "3\n"}]
    assert spec["rubric"] == "r1"
    assert len(rubric_to_dict(rubric)["dimensions"]) == 2
    text = bank_dump(bank_export())
    assert bank_load(yaml.safe_load(text)).questions[0].spec == spec
