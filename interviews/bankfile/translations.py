"""Bank text in other languages: the `i18n` block beside a question's, rubric's or loop
template's English fields, its validation against the English it translates, and the
per-field choice with English fallback that every reader of bank text uses.

```yaml
i18n:
  zh-Hans:
    title: …
    prompt: …
    parts: {1: {title: …, prompt: …}}                 # 1-based part number
    follow_ups: {1: {prompt: …, key_points: {1: {point: …}}, model_answer: …}}
    key_points: {1: {point: …}}
    flaws: {1: {explanation: …}}                      # review questions
    known_issues: {1: {explanation: …}}
  zh-Hant: {…}
```

A follow-up's `model_answer` translates its `coach_notes`: what a strong answer covers,
which the model answers show (to the candidate only once the stage is done). Rubrics:
`{title, dimensions: {1: {name, levels: [four]}}}`; loop templates: `{title,
description, stages: {1: {title}}}`. Every key is optional; a blank string is no
translation. Code, tests, identifiers and key-point patterns are never translated.

The canonical block (what validation returns and export writes) has the languages in
`TRANSLATION_LANGUAGES` order and integer numbers in ascending order; stored as JSON the
numbers become strings, which `translations_from_json` turns back.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from interviews.i18n import DEFAULT_LANGUAGE, LANGUAGES, content_language

#: The languages a bank object may be translated into (English is its own text).
TRANSLATION_LANGUAGES = tuple(language for language in LANGUAGES if language != DEFAULT_LANGUAGE)

ErrorSink = Callable[[str, str], None]

#: Every field a translation may name somewhere; one the English lacks where it is
#: named (a model answer of a follow-up without coach notes) is refused as such.
TRANSLATABLE_FIELDS = frozenset(
    {
        "title",
        "prompt",
        "parts",
        "follow_ups",
        "key_points",
        "point",
        "model_answer",
        "flaws",
        "known_issues",
        "explanation",
        "dimensions",
        "name",
        "levels",
        "description",
        "stages",
    }
)

# A field's schema: "text" (a string), a list's length check ("levels"), or a mapping
# {"numbered": (English items, item schema)} built per object below.
_Schema = dict[str, Any]


def _key(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _number(key: Any) -> int | None:
    """A 1-based item number as written in YAML (`1`) or JSON (`"1"`)."""
    if isinstance(key, bool):
        return None
    if isinstance(key, int):
        return key
    if isinstance(key, str) and key.isdigit() and not key.startswith("0"):
        return int(key)
    return None


class _Checker:
    """Validates one language's block against the English object it translates."""

    def __init__(self, error: ErrorSink):
        self.error = error

    def fields(self, raw: Any, path: str, schema: _Schema) -> dict[str, Any]:
        """`schema`: field → "text" | ("levels", count) | ("numbered", noun, [item schema
        per English item]). Only fields the English has appear in the schema."""
        if not isinstance(raw, Mapping):
            self.error(path, "must be a mapping")
            return {}
        result: dict[str, Any] = {}
        for key, value in raw.items():
            where = _key(path, str(key))
            if key not in schema:
                known = key in TRANSLATABLE_FIELDS
                self.error(
                    where, f"the English has no {key} to translate" if known else "unknown field"
                )
                continue
            kind = schema[key]
            if value is None:
                continue
            if kind == "text":
                if not isinstance(value, str):
                    self.error(where, "must be a string")
                elif value.strip():
                    result[key] = value
            elif kind[0] == "levels":
                levels = self.levels(value, where, kind[1])
                if levels:
                    result[key] = levels
            else:
                items = self.numbered(value, where, kind[1], kind[2])
                if items:
                    result[key] = items
        return result

    def levels(self, value: Any, path: str, count: int) -> list[str] | None:
        if not isinstance(value, list) or not all(isinstance(level, str) for level in value):
            self.error(path, "must be a list of strings")
            return None
        if len(value) != count:
            self.error(path, f"must have {count} descriptors, as the English has")
            return None
        filled = [bool(level.strip()) for level in value]
        if all(filled):
            return list(value)
        if any(filled):
            self.error(path, "translate every level or none")
        return None

    def numbered(
        self, value: Any, path: str, noun: str, schemas: list[_Schema]
    ) -> dict[int, dict[str, Any]]:
        if not isinstance(value, Mapping):
            self.error(path, f"must be a mapping of {noun} number to translated fields")
            return {}
        result: dict[int, dict[str, Any]] = {}
        for key, item in value.items():
            where = _key(path, str(key))
            number = _number(key)
            if number is None:
                self.error(where, f"must be a {noun} number (1, 2, …)")
                continue
            if not 1 <= number <= len(schemas):
                self.error(where, f"no {noun} {number}")
                continue
            if number in result:
                self.error(where, f"{noun} {number} is translated twice")
                continue
            fields = self.fields(item, where, schemas[number - 1])
            if fields:
                result[number] = fields
        return dict(sorted(result.items()))


def _text_fields(english: Mapping[str, Any], names: tuple[str, ...]) -> _Schema:
    return {name: "text" for name in names if english.get(name)}


def _key_points_schema(points: list[dict]) -> tuple[str, str, list[_Schema]]:
    return ("numbered", "key point", [{"point": "text"} for _ in points])


def question_schema(spec: Mapping[str, Any]) -> _Schema:
    """What a translation of this (validated, English) question may hold."""
    schema: _Schema = _text_fields(spec, ("title", "prompt"))
    parts = (spec.get("coding") or {}).get("parts") or []
    if parts:
        schema["parts"] = (
            "numbered",
            "part",
            [_text_fields(part, ("title", "prompt")) for part in parts],
        )
    follow_ups = spec.get("follow_ups") or []
    if follow_ups:
        items = []
        for follow_up in follow_ups:
            item: _Schema = {"prompt": "text"}
            if follow_up.get("coach_notes"):
                item["model_answer"] = "text"
            if follow_up.get("key_points"):
                item["key_points"] = _key_points_schema(follow_up["key_points"])
            items.append(item)
        schema["follow_ups"] = ("numbered", "follow-up", items)
    if spec.get("key_points"):
        schema["key_points"] = _key_points_schema(spec["key_points"])
    review = spec.get("review") or {}
    for name, noun in (("flaws", "flaw"), ("known_issues", "known issue")):
        if review.get(name):
            schema[name] = ("numbered", noun, [{"explanation": "text"} for _ in review[name]])
    return schema


def rubric_schema(spec: Mapping[str, Any]) -> _Schema:
    dimensions = spec.get("dimensions") or []
    return {
        "title": "text",
        "dimensions": (
            "numbered",
            "dimension",
            [
                {"name": "text", "levels": ("levels", len(d.get("levels") or []))}
                for d in dimensions
            ],
        ),
    }


def loop_template_schema(spec: Mapping[str, Any]) -> _Schema:
    schema: _Schema = {"title": "text", "description": "text"}
    stages = spec.get("stages") or []
    schema["stages"] = ("numbered", "stage", [{"title": "text"} for _ in stages])
    return schema


def translations_validate(raw: Any, path: str, schema: _Schema, error: ErrorSink) -> dict:
    """The canonical `i18n` block of an object whose English `schema` describes, with
    every problem reported through `error(path, message)` (`i18n.fr: unknown language`,
    `i18n.zh-Hans.parts.4: no part 4`)."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        error(path, "must be a mapping of language to translated fields")
        return {}
    checker = _Checker(error)
    result: dict[str, dict] = {}
    for language in raw:
        if language not in TRANSLATION_LANGUAGES:
            error(
                _key(path, str(language)),
                "unknown language; must be one of: " + ", ".join(TRANSLATION_LANGUAGES),
            )
    for language in TRANSLATION_LANGUAGES:
        if language in raw:
            fields = checker.fields(raw[language], _key(path, language), schema)
            if fields:
                result[language] = fields
    return result


def translations_from_json(data: Any) -> dict:
    """A stored block (JSON: numbers as strings) as the canonical one (numbers as ints)."""
    if isinstance(data, Mapping):
        converted = {(_number(k) or k) if isinstance(k, str) else k: v for k, v in data.items()}
        return {k: translations_from_json(v) for k, v in converted.items()}
    if isinstance(data, list):
        return [translations_from_json(item) for item in data]
    return data


# --- reading: one language, per field, English fallback -------------------------------

# CJK characters and their punctuation (CJK symbols, kana, ideographs, full-width forms).
_CJK = "\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
_ENDS_CJK = re.compile(f"[{_CJK}][ \t]*$")
_STARTS_CJK = re.compile(f"^[ \t]*[{_CJK}]")
_FENCE = re.compile(r"^[ \t]*(```|~~~)")


def joined_cjk_lines(text: str) -> str:
    """`text` with each line break between two CJK characters removed. Translations are
    wrapped at ~90 columns in the bank's YAML, and a break reads as a space wherever text
    is shown — right between English words, a stray gap in Chinese ("三天设计， 两天深挖").
    Fenced code, headings and blank lines (paragraphs) stay as written."""
    if "\n" not in text:
        return text
    lines = text.split("\n")
    out = [lines[0]]
    in_code = bool(_FENCE.match(lines[0]))
    for line in lines[1:]:
        previous = out[-1]
        if _FENCE.match(line):
            in_code = not in_code
        elif (
            not in_code
            and not previous.lstrip().startswith("#")
            and _ENDS_CJK.search(previous)
            and _STARTS_CJK.match(line)
        ):
            out[-1] = previous.rstrip(" \t") + line.lstrip(" \t")
            continue
        out.append(line)
    return "\n".join(out)


class Translation:
    """One object's fields in `language`, falling back to English per field, noting
    which fell back: `language` is the language the object's text is in (the requested
    one when at least one field is translated, else English) and `fallback_fields` the
    fields still in English while `language` is not."""

    def __init__(self, block: Mapping[str, Any] | None, language: str):
        self.block = block or {}
        self.requested = language
        self.translated: set[str] = set()
        self.fallback: list[str] = []

    def text(self, field: str, english: str, *, key: str | None = None) -> str:
        """The field in the requested language, else `english`; `key` names it in the
        block when the two differ (a follow-up's `coach_notes` is its `model_answer`)."""
        if self.requested == DEFAULT_LANGUAGE or not english:
            return english
        value = self.block.get(key or field)
        if isinstance(value, str) and value.strip():
            self.translated.add(field)
            return joined_cjk_lines(value)
        self.fallback.append(field)
        return english

    def levels(self, english: list[str]) -> list[str]:
        value = self.block.get("levels")
        translated = isinstance(value, list) and len(value) == len(english)
        if self.requested != DEFAULT_LANGUAGE and translated:
            self.translated.add("levels")
            return [joined_cjk_lines(level) for level in value]
        if self.requested != DEFAULT_LANGUAGE and english:
            self.fallback.append("levels")
        return list(english)

    def item(self, field: str, number: int) -> Mapping[str, Any]:
        """The translated fields of item `number` (1-based) of a numbered field."""
        items = self.block.get(field) or {}
        return items.get(number) or items.get(str(number)) or {}

    @property
    def language(self) -> str:
        return self.requested if self.translated else DEFAULT_LANGUAGE

    def stamp(self, out: dict[str, Any]) -> dict[str, Any]:
        """`out` with `language` and `fallback_fields` (the fields still in English)."""
        out["language"] = self.language
        out["fallback_fields"] = list(dict.fromkeys(self.fallback)) if self.translated else []
        return out


def translation_of(i18n: Mapping[str, Any] | None, language: str | None = None) -> Translation:
    """The object's translation into `language` (default: the language bank text is
    served in, looked up only when the object has translations at all)."""
    if not i18n:
        return Translation(None, DEFAULT_LANGUAGE)
    language = language or content_language()
    return Translation(i18n.get(language), language)


def child_translation(parent: Translation, field: str, number: int) -> Translation:
    """The translation of item `number` of the parent's numbered `field`."""
    return Translation(parent.item(field, number), parent.requested)
