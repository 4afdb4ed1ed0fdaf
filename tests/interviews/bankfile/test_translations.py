"""Translations in the bank file (`i18n` beside the English): validated against the
English they translate with path-named errors, stored with the version, exported
round-trip, and a translation-only change never makes a new version."""

import copy

import pytest

from interviews import models as m
from interviews.bankfile.format import BankValidationError
from interviews.bankfile.validation import bank_load
from interviews.selectors.bank import bank_export, bank_export_yaml, question_to_dict
from interviews.services.bank_import import bank_import
from tests.interviews import bank_data as data

pytestmark = pytest.mark.django_db


def messages(exc) -> list[str]:
    return [str(issue) for issue in exc.value.issues]


def test_a_valid_block_is_canonical_numbers_and_language_order():
    bank = data.translated_bank()
    coding = bank["questions"][0]
    # JSON from the editor writes numbers as strings, and languages in any order.
    coding["i18n"] = {
        "zh-Hant": coding["i18n"]["zh-Hant"],
        "zh-Hans": {
            **coding["i18n"]["zh-Hans"],
            "parts": {"2": {"prompt": "第二部分"}, "1": {"title": "求和", "prompt": "  "}},
        },
    }
    spec = bank_load(bank).questions[0].spec
    assert list(spec["i18n"]) == ["zh-Hans", "zh-Hant"]
    # A blank string is no translation; numbers are ints in ascending order.
    assert spec["i18n"]["zh-Hans"]["parts"] == {1: {"title": "求和"}, 2: {"prompt": "第二部分"}}


@pytest.mark.parametrize(
    ("owner", "mutate", "path", "message"),
    [
        (
            "adder",
            lambda b: b["questions"][0]["i18n"].update(fr={"title": "Additionner"}),
            "i18n.fr",
            "unknown language",
        ),
        (
            "adder",
            lambda b: b["questions"][0]["i18n"]["zh-Hans"]["parts"].update({4: {"title": "四"}}),
            "i18n.zh-Hans.parts.4",
            "no part 4",
        ),
        (
            "adder",
            lambda b: b["questions"][0]["i18n"]["zh-Hans"]["follow_ups"].update(
                {2: {"prompt": "?"}}
            ),
            "i18n.zh-Hans.follow_ups.2",
            "no follow-up 2",
        ),
        (
            "adder",
            lambda b: b["questions"][0]["i18n"]["zh-Hans"]["parts"][1].update(hidden="x"),
            "i18n.zh-Hans.parts.1.hidden",
            "unknown field",
        ),
        (
            "adder",
            lambda b: b["questions"][0]["i18n"]["zh-Hans"].update(title=["数字"]),
            "i18n.zh-Hans.title",
            "must be a string",
        ),
        (
            "adder",
            lambda b: b["questions"][0]["i18n"]["zh-Hans"]["parts"].update(first={"title": "一"}),
            "i18n.zh-Hans.parts.first",
            "must be a part number",
        ),
        (
            "adder",
            lambda b: b["questions"][0]["i18n"]["zh-Hans"].update(key_points={1: {"point": "x"}}),
            "i18n.zh-Hans.key_points",
            "the English has no key_points to translate",
        ),
        (
            "doc-review",
            lambda b: b["questions"][1]["i18n"]["zh-Hans"]["flaws"].update(
                {2: {"explanation": "x"}}
            ),
            "i18n.zh-Hans.flaws.2",
            "no flaw 2",
        ),
        (
            "why-here",
            # The discussion follow-up has no coach notes, so no model answer to translate.
            lambda b: b["questions"][2].update(
                i18n={"zh-Hans": {"follow_ups": {1: {"model_answer": "x"}}}}
            ),
            "i18n.zh-Hans.follow_ups.1.model_answer",
            "the English has no model_answer to translate",
        ),
        (
            "rubrics[0] (code-rubric)",
            lambda b: b["rubrics"][0]["i18n"]["zh-Hans"]["dimensions"][1].update(
                levels=["甲", "乙", "丙"]
            ),
            "i18n.zh-Hans.dimensions.1.levels",
            "must have 4 descriptors",
        ),
        (
            "rubrics[0] (code-rubric)",
            lambda b: b["rubrics"][0]["i18n"]["zh-Hans"]["dimensions"].update({3: {"name": "x"}}),
            "i18n.zh-Hans.dimensions.3",
            "no dimension 3",
        ),
        (
            "loops[0] (mini-loop)",
            lambda b: b["loops"][0]["i18n"]["zh-Hans"]["stages"].update({7: {"title": "x"}}),
            "i18n.zh-Hans.stages.7",
            "no stage 7",
        ),
        (
            "loops[0] (mini-loop)",
            lambda b: b["loops"][0]["i18n"].update(en={"title": "x"}),
            "i18n.en",
            "unknown language",
        ),
    ],
)
def test_bad_translations_are_refused_with_their_paths(owner, mutate, path, message):
    bank = data.translated_bank()
    mutate(bank)
    with pytest.raises(BankValidationError) as exc:
        bank_load(bank, label="t.yaml")
    assert any(line.startswith(f"t.yaml: {owner}.{path}: {message}") for line in messages(exc)), (
        messages(exc)
    )


def test_import_export_import_gives_the_same_translations(tmp_path):
    bank_import(data.translated_bank(), verify=False)
    adder = m.Question.objects.get(slug="adder")
    assert adder.i18n["zh-Hans"]["parts"]["2"]["prompt"] == data.ZH_LOCKED_PART_PROMPT
    first = bank_export()
    wanted = bank_load(data.translated_bank())
    assert [q["i18n"] for q in first["questions"] if "i18n" in q] == [
        e.spec["i18n"]
        for e in sorted(wanted.questions, key=lambda e: e.spec["slug"])
        if "i18n" in e.spec
    ]
    assert first["rubrics"][0]["i18n"] == wanted.rubrics[0].spec["i18n"]
    assert first["loops"][0]["i18n"] == wanted.loops[0].spec["i18n"]

    path = tmp_path / "export.yaml"
    path.write_text(bank_export_yaml())
    for model in (m.StageTemplate, m.LoopTemplate, m.Question, m.Dimension, m.Rubric):
        model.objects.all().delete()
    bank_import(path, verify=False)
    assert bank_export() == first


def test_a_translation_only_change_updates_the_version_in_place():
    """Translations are not judged: the same version (and its verification) takes them."""
    bank_import(data.bank(), verify=False)
    before = m.Question.objects.get(slug="adder")
    m.Question.objects.filter(pk=before.pk).update(verified_at="2026-01-01T00:00:00Z")
    result = bank_import(data.translated_bank(), verify=False)
    after = m.Question.objects.get(slug="adder")
    assert after.pk == before.pk and result.created == []
    assert after.verified_at is not None
    assert question_to_dict(after)["i18n"]["zh-Hant"] == {"title": "數字相加"}
    assert m.Rubric.objects.get().i18n["zh-Hans"]["dimensions"]["2"] == {"name": "清晰"}

    # Removing the translations again is a change too.
    bank_import(data.bank(), verify=False)
    assert m.Question.objects.get(slug="adder").i18n == {}


def test_the_admin_api_round_trips_translations(world, as_user):
    bank_import(data.translated_bank(), verify=False)
    adder = m.Question.objects.get(slug="adder")
    client = as_user(world.admin)
    body = client.get(f"/api/v1/questions/{adder.pk}/").json()
    assert body["i18n"]["zh-Hans"]["parts"]["2"]["prompt"] == data.ZH_LOCKED_PART_PROMPT

    body["i18n"]["zh-Hant"]["prompt"] = "把數字加起來。"
    response = client.put(f"/api/v1/questions/{adder.pk}/", body, format="json")
    assert response.status_code == 200, response.json()
    adder.refresh_from_db()
    assert adder.i18n["zh-Hant"] == {"title": "數字相加", "prompt": "把數字加起來。"}

    bad = copy.deepcopy(body)
    bad["i18n"]["zh-Hans"]["parts"]["9"] = {"title": "九"}
    response = client.put(f"/api/v1/questions/{adder.pk}/", bad, format="json")
    assert response.status_code == 400
    assert response.json()["errors"]["i18n.zh-Hans.parts.9"] == ["no part 9"]


# --- served text: wrapped lines ----------------------------------------------------------


def test_a_wrapped_chinese_line_is_served_without_a_stray_space():
    """The YAML wraps translations at ~90 columns; a break between two CJK characters
    would read as a space wherever the text is shown (plain text or Markdown)."""
    from interviews.bankfile.translations import joined_cjk_lines, translation_of

    text = "三天系统设计，\n  两天项目深挖。\n\n## 标题\n正文\n第二行\n指出每个\nbug"
    assert (
        joined_cjk_lines(text) == "三天系统设计，两天项目深挖。\n\n## 标题\n正文第二行指出每个\nbug"
    )
    code = "看代码：\n```python\n# 第一\n# 第二\n```\n完"
    assert joined_cjk_lines(code) == code
    assert joined_cjk_lines("one\ntwo") == "one\ntwo"
    served = translation_of({"zh-Hans": {"title": "甲\n乙", "levels": ["一\n二"] * 4}}, "zh-Hans")
    assert served.text("title", "A B") == "甲乙"
    assert served.levels(["a", "b", "c", "d"]) == ["一二"] * 4
