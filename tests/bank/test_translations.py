"""The shipped bank's Chinese translations: every candidate-facing text of the two AI-lab
loops, the coding practice loop and the design review practice loop (their questions,
rubrics and the loops themselves) exists in zh-Hans and zh-Hant, keeps the English's code
and numbers, and the Traditional text is what `tools.hant` derives from the Simplified (so
it differs wherever OpenCC changes it).

Coding questions keep their translations in `tools/bankgen/i18n/<slug>.yaml` (the
generator copies them into `bank/coding-<slug>.yaml`); the hand-written files carry their
`i18n` blocks inline. These tests read the YAML itself; the last one imports the bank."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
import yaml

from tests.paths import BANKGEN_DIR, SHIPPED_BANK_DIR
from tools import hant

LANGUAGES = ("zh-Hans", "zh-Hant")
TRANSLATED_LOOPS = (
    "ai-lab-infra-sde",
    "ai-lab-infra-sde-b",
    "infra-coding-practice",
    "design-review-practice",
)

_FENCED = re.compile(r"^[ \t]*(```|~~~).*?^[ \t]*\1[ \t]*$", re.MULTILINE | re.DOTALL)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


@cache
def _files() -> dict[str, Any]:
    return {path.name: yaml.safe_load(path.read_text()) for path in SHIPPED_BANK_DIR.glob("*.yaml")}


def _section(name: str) -> dict[str, dict]:
    return {
        item["slug"]: item for document in _files().values() for item in document.get(name) or []
    }


def _loops() -> list[dict]:
    loops = _section("loops")
    return [loops[slug] for slug in TRANSLATED_LOOPS]


def _question_slugs() -> list[str]:
    stages = [stage for loop in _loops() for stage in loop["stages"]]
    return sorted({slug for stage in stages for slug in stage["questions"]})


def _rubric_slugs() -> list[str]:
    questions = _section("questions")
    stages = [stage for loop in _loops() for stage in loop["stages"]]
    slugs = {stage["rubric"] for stage in stages if stage.get("rubric")}
    slugs |= {questions[slug].get("rubric") for slug in _question_slugs()} - {None}
    return sorted(slugs)


def _translations(kind: str, slug: str) -> dict[str, dict]:
    """The object's `i18n` block; a coding question's comes from its bankgen file until the
    generator has copied it into the bank."""
    item = _section(kind)[slug]
    if item.get("i18n"):
        return item["i18n"]
    sidecar = BANKGEN_DIR / "i18n" / f"{slug}.yaml"
    if kind == "questions" and item.get("kind") == "coding" and sidecar.exists():
        return yaml.safe_load(sidecar.read_text())
    return {}


def _numbered(items: list[dict] | None) -> Iterator[tuple[int, dict]]:
    return enumerate(items or [], start=1)


def _question_fields(question: dict) -> Iterator[tuple[tuple, str]]:
    """(path in the i18n block, English text) of every candidate-facing text."""
    yield ("title",), question["title"]
    yield ("prompt",), question["prompt"]
    for n, part in _numbered((question.get("coding") or {}).get("parts")):
        yield ("parts", n, "title"), part["title"]
        if part.get("prompt"):
            yield ("parts", n, "prompt"), part["prompt"]
    for n, follow_up in _numbered(question.get("follow_ups")):
        yield ("follow_ups", n, "prompt"), follow_up["prompt"]
        if follow_up.get("coach_notes", "").strip():
            # What a strong answer covers: the model answer shown once the stage is done.
            yield ("follow_ups", n, "model_answer"), follow_up["coach_notes"]
        for m, point in _numbered(follow_up.get("key_points")):
            yield ("follow_ups", n, "key_points", m, "point"), point["point"]
    for m, point in _numbered(question.get("key_points")):
        yield ("key_points", m, "point"), point["point"]
    review = question.get("review") or {}
    for name in ("flaws", "known_issues"):
        for n, item in _numbered(review.get(name)):
            yield (name, n, "explanation"), item["explanation"]


def _rubric_fields(rubric: dict) -> Iterator[tuple[tuple, Any]]:
    yield ("title",), rubric["title"]
    for n, dimension in _numbered(rubric["dimensions"]):
        yield ("dimensions", n, "name"), dimension["name"]
        yield ("dimensions", n, "levels"), dimension["levels"]


def _loop_fields(loop: dict) -> Iterator[tuple[tuple, str]]:
    yield ("title",), loop["title"]
    yield ("description",), loop["description"]
    for n, stage in _numbered(loop["stages"]):
        yield ("stages", n, "title"), stage["title"]


def _lookup(block: Any, path: tuple) -> Any:
    for key in path:
        if not isinstance(block, dict) or key not in block:
            return None
        block = block[key]
    return block


def _all_fields() -> Iterator[tuple[str, tuple, Any, dict]]:
    """(owner, path, English, i18n block) for every translated object and field."""
    questions, rubrics, loops = _section("questions"), _section("rubrics"), _section("loops")
    for slug in _question_slugs():
        for path, english in _question_fields(questions[slug]):
            yield slug, path, english, _translations("questions", slug)
    for slug in _rubric_slugs():
        for path, english in _rubric_fields(rubrics[slug]):
            yield f"rubrics.{slug}", path, english, _translations("rubrics", slug)
    for slug in TRANSLATED_LOOPS:
        for path, english in _loop_fields(loops[slug]):
            yield f"loops.{slug}", path, english, _translations("loops", slug)


def _fences(text: str) -> list[str]:
    return [match.group(0).strip() for match in _FENCED.finditer(text)]


def _texts(value: Any) -> list[str]:
    return value if isinstance(value, list) else [value]


def _where(owner: str, language: str, path: tuple) -> str:
    return ".".join([owner, "i18n", language, *map(str, path)])


def test_the_loops_cover_every_kind_of_bank_text() -> None:
    """Guards the walk below: it reaches every question kind, rubrics and the loops."""
    kinds = {_section("questions")[slug]["kind"] for slug in _question_slugs()}
    assert kinds == {"coding", "design", "review", "discussion"}
    assert len(_rubric_slugs()) >= 8
    paths = {path[0] for _, path, _, _ in _all_fields()}
    assert {"parts", "follow_ups", "key_points", "flaws", "known_issues", "dimensions"} <= paths


def test_every_candidate_facing_text_is_translated() -> None:
    missing = []
    for owner, path, english, block in _all_fields():
        for language in LANGUAGES:
            translated = _lookup(block.get(language), path)
            if isinstance(english, list):
                ok = isinstance(translated, list) and len(translated) == len(english)
                ok = ok and all(isinstance(t, str) and t.strip() for t in translated)
            else:
                ok = isinstance(translated, str) and bool(translated.strip())
            if not ok:
                missing.append(_where(owner, language, path))
    assert not missing, "untranslated:\n" + "\n".join(missing)


def test_translations_keep_code_blocks_and_numbers() -> None:
    """A translation may reword the prose, never the code or a figure: fenced blocks are
    copied verbatim and the numbers (limits, examples, estimates) are the English's."""
    problems = []
    for owner, path, english, block in _all_fields():
        for language in LANGUAGES:
            translated = _lookup(block.get(language), path)
            if translated is None:
                continue
            for source, text in zip(_texts(english), _texts(translated), strict=False):
                where = _where(owner, language, path)
                if _fences(text) != _fences(source):
                    problems.append(f"{where}: a fenced code block differs from the English")
                lost = Counter(_NUMBER.findall(source)) - Counter(_NUMBER.findall(text))
                added = Counter(_NUMBER.findall(text)) - Counter(_NUMBER.findall(source))
                if lost or added:
                    problems.append(f"{where}: numbers lost {sorted(lost)} added {sorted(added)}")
    assert not problems, "\n".join(problems)


def test_traditional_is_derived_from_simplified() -> None:
    """zh-Hant is OpenCC's Taiwan conversion of zh-Hans plus the reviewed fixes: stale
    files are refused, and wherever the conversion changes a text, the two differ."""
    assert not hant.stale_files(hant.default_files())
    same = []
    for owner, path, _english, block in _all_fields():
        simplified = _lookup(block.get("zh-Hans"), path)
        traditional = _lookup(block.get("zh-Hant"), path)
        if simplified is None:
            continue
        for hans, hant_text in zip(_texts(simplified), _texts(traditional), strict=True):
            if hant.convert_block(hans.split("\n")) != hans.split("\n") and hant_text == hans:
                same.append(_where(owner, "zh-Hant", path))
    assert not same, "zh-Hant identical to zh-Hans:\n" + "\n".join(same)


def test_hant_converts_prose_but_not_code() -> None:
    lines = ["内存不足时 `服务器` 会重启", "```", "线程 = 1", "```", "线程"]
    expected = ["記憶體不足時 `服务器` 會重啟", "```", "线程 = 1", "```", "執行緒"]
    assert hant.convert_block(lines) == expected


@pytest.mark.django_db
def test_the_shipped_bank_imports_with_its_translations() -> None:
    """Once the bank format reads `i18n` blocks (issue #18, "bank content in three
    languages"), the validated bank carries these translations."""
    pytest.importorskip(
        "interviews.bankfile.translations", reason="the bank format does not read i18n yet"
    )
    from interviews.bankfile.validation import bank_load

    bank = bank_load(SHIPPED_BANK_DIR)
    questions = {entry.spec["slug"]: entry.spec for entry in bank.questions}
    for slug in _question_slugs():
        i18n = questions[slug].get("i18n") or {}
        assert set(LANGUAGES) <= set(i18n), slug
        assert i18n["zh-Hans"]["title"] == _translations("questions", slug)["zh-Hans"]["title"]
    rubrics = {entry.spec["slug"]: entry.spec for entry in bank.rubrics}
    loops = {entry.spec["slug"]: entry.spec for entry in bank.loops}
    assert all(set(LANGUAGES) <= set(rubrics[slug].get("i18n") or {}) for slug in _rubric_slugs())
    assert all(set(LANGUAGES) <= set(loops[slug].get("i18n") or {}) for slug in TRANSLATED_LOOPS)


_GLOSSARY_LINK = re.compile(r"\]\(/glossary#([^)\s]*)\)")


def test_glossary_links_name_terms_of_the_glossary() -> None:
    """Prompts link a term's first use to `/glossary#<term>`; every such anchor is a term of
    the glossary page (its catalogue), and the translations do link to it."""
    catalogue = json.loads((hant.LOCALES / "en" / "glossary.json").read_text())
    terms = set(catalogue["terms"])
    files = [*SHIPPED_BANK_DIR.glob("*.yaml"), *(BANKGEN_DIR / "i18n").glob("*.yaml")]
    links = {
        (path.name, slug) for path in files for slug in _GLOSSARY_LINK.findall(path.read_text())
    }
    assert not [link for link in links if link[1] not in terms]
    linked = {slug for _, slug in links}
    assert {"kv-cache", "prefill", "decode", "continuous-batching", "paged-attention"} <= linked
