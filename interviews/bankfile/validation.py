"""Raw bank data → canonical dicts, collecting every problem on the way (with file, owner
and YAML path), or `BankValidationError` listing them all."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.db.models import Count

from interviews.bankfile.format import (
    DEFAULT_MEMORY_LIMIT_MB,
    DEFAULT_OUTPUT_LIMIT_MB,
    DEFAULT_TIME_LIMIT_MS,
    BankIssue,
    BankValidationError,
    bank_read,
    canonical_number,
)
from interviews.bankfile.translations import (
    loop_template_schema,
    question_schema,
    rubric_schema,
    translations_validate,
)
from interviews.models import FollowUp, LoopTemplate, Rubric
from interviews.models.bank import (
    Difficulty,
    FlawCategory,
    IoMode,
    Language,
    QuestionKind,
    QuestionStatus,
    Severity,
    StageKind,
)
from interviews.selectors.bank import question_list_latest
from interviews.stage_kinds import stage_kind_get
from sandbox.api import FUNCTION_LANGUAGES
from sandbox.api import LANGUAGES as SANDBOX_LANGUAGES
from sandbox.judge import CheckerError, parse_checker

SLUG_RE = re.compile(r"^[a-z0-9-]+$")
IDENTIFIER_RE = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")

QUESTION_FIELDS = (
    "slug",
    "kind",
    "status",
    "title",
    "difficulty",
    "tags",
    "prompt",
    "coding",
    "follow_ups",
    "key_points",
    "review",
    "rubric",
    "i18n",
)
CODING_FIELDS = (
    "languages",
    "io",
    "entrypoint",
    "time_limit_ms",
    "memory_limit_mb",
    "output_limit_mb",
    "checker",
    "starter",
    "reference",
    "parts",
)
PART_FIELDS = ("title", "prompt", "samples", "hidden")
TEST_FIELDS = ("input", "output")
FOLLOW_UP_FIELDS = (
    "prompt",
    "unlocks_part",
    "trigger",
    "after_minutes",
    "coach_notes",
    "key_points",
)
KEY_POINT_FIELDS = ("point", "patterns", "dimension")
#: Languages a key point's patterns may be written for (English and Chinese).
KEY_POINT_LANGUAGES = ("en", "zh")
REVIEW_FIELDS = ("document", "flaws", "known_issues")
KNOWN_ISSUE_FIELDS = ("category", "lines", "explanation")
FLAW_FIELDS = ("category", "lines", "severity", "explanation")
RUBRIC_FIELDS = ("slug", "title", "dimensions", "i18n")
DIMENSION_FIELDS = ("name", "weight", "levels")
LOOP_FIELDS = ("slug", "title", "description", "status", "stages", "i18n")
STAGE_FIELDS = ("kind", "title", "minutes", "questions", "rubric")
PLAN_FIELDS = ("slug", "title", "description", "status", "days", "i18n")
PLAN_DAY_FIELDS = ("title", "phase", "focus", "practice")
PLAN_PRACTICE_FIELDS = ("loop", "stage")
#: Languages a plan's `i18n` block may translate it into.
PLAN_LANGUAGES = ("zh-Hans", "zh-Hant")
PLAN_I18N_FIELDS = ("title", "description", "days")
PLAN_I18N_DAY_FIELDS = ("title", "phase", "focus")
MAX_PLAN_DAYS = 60
FILE_SECTIONS = ("questions", "rubrics", "loops", "plans")

# Read-only keys of the admin API's question dict; accepted (and ignored) on writes so a
# client can PUT back what it GOT. `confirm_reanchor` is a control flag of the write.
QUESTION_READ_ONLY_FIELDS = ("id", "version", "verified_at", "verification", "confirm_reanchor")


def _key(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _index(path: str, index: int) -> str:
    return f"{path}[{index}]"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return (_is_int(value) or isinstance(value, float)) and math.isfinite(value)


def _choices(enum) -> tuple[str, ...]:
    return tuple(enum.values)


def _one_of(values: Iterable[str]) -> str:
    return "must be one of: " + ", ".join(values)


_MISSING = object()


class _Scope:
    """Collects problems for one owner (a question, rubric or loop) of one file."""

    def __init__(self, issues: list[BankIssue], file: str, owner: str):
        self.issues = issues
        self.file = file
        self.owner = owner

    def error(self, path: str, message: str) -> None:
        self.issues.append(BankIssue(self.file, self.owner, path, message))

    def mapping(
        self, value: Any, path: str, allowed: Iterable[str], required: Iterable[str] = ()
    ) -> dict | None:
        if not isinstance(value, dict):
            self.error(path, "must be a mapping")
            return None
        allowed = tuple(allowed)
        for key in value:
            if key not in allowed:
                self.error(_key(path, str(key)), "unknown field")
        for key in required:
            if value.get(key) is None:
                self.error(_key(path, key), "missing")
        return value

    def get(self, obj: dict, key: str) -> Any:
        value = obj.get(key, _MISSING)
        return _MISSING if value is None else value

    def string(
        self,
        obj: dict,
        key: str,
        path: str,
        *,
        default: str = "",
        max_length: int | None = None,
        blank: bool = True,
    ) -> str:
        value = self.get(obj, key)
        if value is _MISSING:
            return default
        where = _key(path, key)
        if not isinstance(value, str):
            self.error(where, "must be a string")
            return default
        if not blank and not value.strip():
            self.error(where, "must not be empty")
        if max_length is not None and len(value) > max_length:
            self.error(where, f"must be at most {max_length} characters")
        return value

    def slug(self, obj: dict, key: str, path: str) -> str:
        value = self.get(obj, key)
        if value is _MISSING:
            return ""
        where = _key(path, key)
        if not isinstance(value, str) or not SLUG_RE.match(value):
            self.error(where, "must match [a-z0-9-]+")
            return ""
        if len(value) > 80:
            self.error(where, "must be at most 80 characters")
        return value

    def choice(self, obj: dict, key: str, path: str, choices: Iterable[str], default=None):
        value = self.get(obj, key)
        if value is _MISSING:
            return default
        choices = tuple(choices)
        if not isinstance(value, str) or value not in choices:
            self.error(_key(path, key), _one_of(choices))
            return default
        return value

    def integer(
        self, obj: dict, key: str, path: str, *, default=None, minimum: int = 0, maximum: int
    ) -> int | None:
        value = self.get(obj, key)
        if value is _MISSING:
            return default
        where = _key(path, key)
        if not _is_int(value):
            self.error(where, "must be an integer")
            return default
        if not minimum <= value <= maximum:
            self.error(where, f"must be between {minimum} and {maximum}")
            return default
        return value

    def items(self, obj: dict, key: str, path: str) -> list:
        value = self.get(obj, key)
        if value is _MISSING:
            return []
        if not isinstance(value, list):
            self.error(_key(path, key), "must be a list")
            return []
        return value

    def strings(
        self, obj: dict, key: str, path: str, *, choices: Iterable[str] | None = None
    ) -> list[str]:
        where = _key(path, key)
        result: list[str] = []
        choices = tuple(choices) if choices is not None else None
        for i, item in enumerate(self.items(obj, key, path)):
            if not isinstance(item, str) or (choices is None and not item.strip()):
                self.error(_index(where, i), "must be a non-empty string")
            elif choices is not None and item not in choices:
                self.error(_index(where, i), _one_of(choices))
            elif item in result:
                self.error(_index(where, i), f"duplicate {item!r}")
            else:
                result.append(item)
        return result


@dataclass
class BankEntry:
    """One validated question, rubric or loop: its canonical dict and where it came from."""

    file: str
    owner: str
    spec: dict


@dataclass
class _Reference:
    scope: _Scope
    path: str
    slug: str
    stage_kind: str | None = None


@dataclass
class Bank:
    """A validated bank: canonical dicts ready to import."""

    questions: list[BankEntry] = field(default_factory=list)
    rubrics: list[BankEntry] = field(default_factory=list)
    loops: list[BankEntry] = field(default_factory=list)
    plans: list[BankEntry] = field(default_factory=list)


@dataclass
class _StageReference:
    """A plan day's practice item: stage `stage` (1-based) of loop template `loop`."""

    scope: _Scope
    path: str
    loop: str
    stage: int


class _Validator:
    """Turns raw bank data into canonical dicts, collecting every problem on the way."""

    def __init__(self, *, default_status: str = QuestionStatus.PUBLISHED):
        self.issues: list[BankIssue] = []
        self.default_status = default_status
        self.bank = Bank()
        self._rubric_refs: list[_Reference] = []
        self._question_refs: list[_Reference] = []
        self._stage_refs: list[_StageReference] = []
        # section → slug → (where first declared, question kind)
        self._declared: dict[str, dict[str, tuple[str, str | None]]] = {
            section: {} for section in FILE_SECTIONS
        }

    # files ---------------------------------------------------------------------------

    def document(self, file: str, data: Any) -> None:
        top = _Scope(self.issues, file, "")
        if data is None:
            return
        if not isinstance(data, dict):
            top.error("", "must be a mapping with `questions`, `rubrics`, `loops` and/or `plans`")
            return
        for key in data:
            if key not in FILE_SECTIONS:
                top.error(str(key), "unknown field")
        for section, handle in (
            ("rubrics", self.rubric),
            ("questions", self.question),
            ("loops", self.loop),
            ("plans", self.plan),
        ):
            for i, raw in enumerate(top.items(data, section, "")):
                handle(file, i, raw)

    def _owner(self, section: str, index: int, raw: Any) -> tuple[str, str]:
        """How errors name the item (`token-batcher`, `loops[0] (ai-lab)`) and its slug."""
        slug = raw.get("slug") if isinstance(raw, dict) else None
        if not (isinstance(slug, str) and SLUG_RE.match(slug)):
            return _index(section, index), ""
        if section == "questions":
            return slug, slug
        return f"{_index(section, index)} ({slug})", slug

    def _claim(self, scope: _Scope, section: str, index: int, slug: str, kind: Any = None) -> bool:
        """Declare a slug (even if the item has other errors, so references to it resolve);
        False when an earlier item already declared it."""
        if not slug:
            return False
        first = self._declared[section].get(slug)
        if first is not None:
            scope.error("slug", f"duplicate slug (first defined at {first[0]})")
            return False
        where = f"{scope.file} {_index(section, index)}" if scope.file else _index(section, index)
        self._declared[section][slug] = (where, kind if kind in _choices(QuestionKind) else None)
        return True

    # questions -----------------------------------------------------------------------

    def question(self, file: str, index: int, raw: Any) -> None:
        owner, slug = self._owner("questions", index, raw)
        scope = _Scope(self.issues, file, owner)
        kind = raw.get("kind") if isinstance(raw, dict) else None
        first = self._claim(scope, "questions", index, slug, kind)
        spec = self.question_spec(scope, raw)
        if spec is not None and first:
            self.bank.questions.append(BankEntry(file, owner, spec))

    def question_spec(self, scope: _Scope, raw: Any) -> dict | None:
        errors_before = len(self.issues)
        obj = scope.mapping(raw, "", QUESTION_FIELDS, required=("slug", "kind", "title", "prompt"))
        if obj is None:
            return None
        slug = scope.slug(obj, "slug", "")
        kind = scope.choice(obj, "kind", "", _choices(QuestionKind))
        status = scope.choice(obj, "status", "", _choices(QuestionStatus), self.default_status)
        draft = status == QuestionStatus.DRAFT
        spec: dict[str, Any] = {"slug": slug, "kind": kind}
        if status != QuestionStatus.PUBLISHED:
            spec["status"] = status
        spec["title"] = scope.string(obj, "title", "", max_length=200, blank=False)
        spec["difficulty"] = scope.choice(
            obj, "difficulty", "", _choices(Difficulty), Difficulty.MEDIUM.value
        )
        spec["tags"] = scope.strings(obj, "tags", "")
        spec["prompt"] = scope.string(obj, "prompt", "", blank=False)

        part_count = 0
        if kind == QuestionKind.CODING:
            if scope.get(obj, "coding") is _MISSING:
                scope.error("coding", "missing (required for kind: coding)")
            else:
                coding = self.coding(scope, obj["coding"], "coding", draft=draft)
                if coding is not None:
                    spec["coding"] = coding
                    part_count = len(coding["parts"])
        elif scope.get(obj, "coding") is not _MISSING:
            scope.error("coding", "only for kind: coding")

        follow_ups = [
            self.follow_up(scope, item, _index("follow_ups", i), kind, part_count)
            for i, item in enumerate(scope.items(obj, "follow_ups", ""))
        ]
        unlocked: dict[int, int] = {}
        for i, follow_up in enumerate(follow_ups):
            part = (follow_up or {}).get("unlocks_part")
            if part is None:
                continue
            if part in unlocked:
                scope.error(
                    _key(_index("follow_ups", i), "unlocks_part"),
                    f"part {part} is already unlocked by follow_ups[{unlocked[part]}]",
                )
            unlocked.setdefault(part, i)
        if follow_ups:
            spec["follow_ups"] = follow_ups
        key_points = self.key_points(scope, obj, "")
        if key_points:
            spec["key_points"] = key_points

        if kind == QuestionKind.REVIEW:
            if scope.get(obj, "review") is _MISSING:
                scope.error("review", "missing (required for kind: review)")
            else:
                review = self.review(scope, obj["review"], "review", draft=draft)
                if review is not None:
                    spec["review"] = review
        elif scope.get(obj, "review") is not _MISSING:
            scope.error("review", "only for kind: review")

        rubric = scope.slug(obj, "rubric", "")
        if rubric:
            spec["rubric"] = rubric
            self._rubric_refs.append(_Reference(scope, "rubric", rubric))
        i18n = translations_validate(obj.get("i18n"), "i18n", question_schema(spec), scope.error)
        if i18n:
            spec["i18n"] = i18n
        return spec if len(self.issues) == errors_before else None

    def coding(self, scope: _Scope, raw: Any, path: str, *, draft: bool) -> dict | None:
        required = ("languages", "parts") if draft else ("languages", "reference", "parts")
        obj = scope.mapping(raw, path, CODING_FIELDS, required=required)
        if obj is None:
            return None
        languages = scope.strings(obj, "languages", path, choices=_choices(Language))
        if scope.get(obj, "languages") is not _MISSING and not languages:
            scope.error(_key(path, "languages"), "must list at least one language")
        io = scope.choice(obj, "io", path, _choices(IoMode), IoMode.STDIO.value)
        # A language the model knows but no runner image runs yet (java) would only fail
        # when the reference is verified or a candidate submits; say so at import.
        function = io == IoMode.FUNCTION
        runnable = FUNCTION_LANGUAGES if function else SANDBOX_LANGUAGES
        listed = obj.get("languages") if isinstance(obj.get("languages"), list) else []
        for i, language in enumerate(listed):
            if language in languages and language not in runnable:
                scope.error(
                    _index(_key(path, "languages"), i),
                    f"{language} cannot be judged {'in io: function' if function else 'yet'};"
                    f" use one of: {', '.join(runnable)}",
                )
        spec: dict[str, Any] = {"languages": languages, "io": io}
        entrypoint = scope.string(obj, "entrypoint", path, max_length=80)
        if io == IoMode.FUNCTION:
            if not entrypoint:
                scope.error(_key(path, "entrypoint"), "missing (required for io: function)")
            elif not IDENTIFIER_RE.match(entrypoint):
                scope.error(_key(path, "entrypoint"), "must be an identifier")
            spec["entrypoint"] = entrypoint
        elif entrypoint:
            scope.error(_key(path, "entrypoint"), "only for io: function")
        spec["time_limit_ms"] = scope.integer(
            obj, "time_limit_ms", path, default=DEFAULT_TIME_LIMIT_MS, minimum=1, maximum=60_000
        )
        spec["memory_limit_mb"] = scope.integer(
            obj, "memory_limit_mb", path, default=DEFAULT_MEMORY_LIMIT_MB, minimum=16, maximum=8192
        )
        output_limit = scope.integer(
            obj, "output_limit_mb", path, default=DEFAULT_OUTPUT_LIMIT_MB, minimum=1, maximum=256
        )
        if output_limit != DEFAULT_OUTPUT_LIMIT_MB:
            spec["output_limit_mb"] = output_limit
        spec["checker"] = self.checker(scope, obj, path)
        spec["starter"] = self.sources(scope, obj, "starter", path, languages)
        spec["reference"] = self.sources(scope, obj, "reference", path, languages)
        if not draft and scope.get(obj, "reference") is not _MISSING and not spec["reference"]:
            scope.error(_key(path, "reference"), "must give a solution in at least one language")
        parts_path = _key(path, "parts")
        raw_parts = scope.items(obj, "parts", path)
        if scope.get(obj, "parts") is not _MISSING and not raw_parts:
            scope.error(parts_path, "must have at least one part")
        spec["parts"] = [
            self.part(scope, item, _index(parts_path, i), io, draft=draft)
            for i, item in enumerate(raw_parts)
        ]
        return spec

    def checker(self, scope: _Scope, obj: dict, path: str) -> str:
        value = scope.get(obj, "checker")
        if value is _MISSING:
            return "exact"
        try:
            parse_checker(value)
        except CheckerError as exc:
            scope.error(_key(path, "checker"), str(exc))
            return "exact"
        return value

    def sources(
        self, scope: _Scope, obj: dict, key: str, path: str, languages: list[str]
    ) -> dict[str, str]:
        value = scope.get(obj, key)
        if value is _MISSING:
            return {}
        where = _key(path, key)
        if not isinstance(value, dict):
            scope.error(where, "must be a mapping of language to code")
            return {}
        result: dict[str, str] = {}
        for language, code in value.items():
            at = _key(where, str(language))
            if language not in _choices(Language):
                scope.error(at, "unknown language; " + _one_of(_choices(Language)))
            elif language not in languages:
                scope.error(at, "language not listed in `languages`")
            elif not isinstance(code, str):
                scope.error(at, "must be a string")
            else:
                result[language] = code
        return result

    def part(self, scope: _Scope, raw: Any, path: str, io: str, *, draft: bool) -> dict:
        obj = scope.mapping(raw, path, PART_FIELDS, required=("title",))
        if obj is None:
            return {}
        spec = {
            "title": scope.string(obj, "title", path, max_length=200, blank=False),
            "prompt": scope.string(obj, "prompt", path),
        }
        for key in ("samples", "hidden"):
            where = _key(path, key)
            spec[key] = [
                self.test(scope, item, _index(where, i), io)
                for i, item in enumerate(scope.items(obj, key, path))
            ]
        if not draft and not spec["hidden"] and scope.get(obj, "hidden") is not _MISSING:
            scope.error(_key(path, "hidden"), "must have at least one hidden test")
        elif not draft and scope.get(obj, "hidden") is _MISSING:
            scope.error(_key(path, "hidden"), "missing")
        return spec

    def test(self, scope: _Scope, raw: Any, path: str, io: str) -> dict:
        obj = scope.mapping(raw, path, TEST_FIELDS, required=TEST_FIELDS)
        if obj is None:
            return {}
        spec = {}
        for key in TEST_FIELDS:
            value = scope.get(obj, key)
            if value is _MISSING:
                continue
            where = _key(path, key)
            if io == IoMode.FUNCTION:
                spec[key] = self.json_value(scope, value, where, must_be_list=key == "input")
            elif isinstance(value, str):
                spec[key] = value
            else:
                scope.error(where, "must be a string for io: stdio (quote it)")
        return spec

    def json_value(self, scope: _Scope, value: Any, path: str, *, must_be_list: bool) -> str:
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError as exc:
                scope.error(path, f"is not valid JSON text: {exc}")
                return ""
        if must_be_list and not isinstance(value, list):
            scope.error(path, "must be a JSON array of arguments")
            return ""
        try:
            return json.dumps(value, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError):
            scope.error(path, "is not representable as JSON")
            return ""

    def follow_up(
        self, scope: _Scope, raw: Any, path: str, kind: str | None, part_count: int
    ) -> dict | None:
        obj = scope.mapping(raw, path, FOLLOW_UP_FIELDS, required=("prompt",))
        if obj is None:
            return None
        spec: dict[str, Any] = {"prompt": scope.string(obj, "prompt", path, blank=False)}
        unlocks = scope.integer(obj, "unlocks_part", path, minimum=1, maximum=1000)
        if unlocks is not None:
            where = _key(path, "unlocks_part")
            if kind != QuestionKind.CODING:
                scope.error(where, "only coding questions have parts")
            elif unlocks == 1:
                scope.error(where, "part 1 is always open; a follow-up can unlock parts 2 and up")
            elif part_count and unlocks > part_count:
                scope.error(where, f"there is no part {unlocks} (the question has {part_count})")
            spec["unlocks_part"] = unlocks
        trigger = scope.choice(
            obj, "trigger", path, _choices(FollowUp.Trigger), FollowUp.Trigger.MANUAL.value
        )
        spec["trigger"] = trigger
        if trigger == FollowUp.Trigger.ON_PART_PASSED and kind != QuestionKind.CODING:
            scope.error(_key(path, "trigger"), "on_part_passed needs a coding question")
        if trigger == FollowUp.Trigger.AFTER_ANSWER and kind == QuestionKind.CODING:
            scope.error(
                _key(path, "trigger"),
                "after_answer needs a written answer; a coding question uses on_part_passed",
            )
        minutes = scope.integer(obj, "after_minutes", path, minimum=1, maximum=600)
        if trigger == FollowUp.Trigger.AFTER_MINUTES:
            if minutes is None and scope.get(obj, "after_minutes") is _MISSING:
                scope.error(_key(path, "after_minutes"), "missing (required for after_minutes)")
            spec["after_minutes"] = minutes
        elif scope.get(obj, "after_minutes") is not _MISSING:
            scope.error(_key(path, "after_minutes"), "only for trigger: after_minutes")
        notes = scope.string(obj, "coach_notes", path)
        if notes:
            spec["coach_notes"] = notes
        key_points = self.key_points(scope, obj, path)
        if key_points:
            spec["key_points"] = key_points
        return spec

    def key_points(self, scope: _Scope, obj: dict, path: str) -> list[dict]:
        """`key_points: [{point, patterns: {en: [...], zh: [...]}, dimension}]`; each
        pattern a regular expression (matched case-insensitively), at least one per point."""
        where = _key(path, "key_points")
        points: list[dict] = []
        for i, raw in enumerate(scope.items(obj, "key_points", path)):
            item_path = _index(where, i)
            item = scope.mapping(raw, item_path, KEY_POINT_FIELDS, required=KEY_POINT_FIELDS)
            if item is None:
                continue
            point = scope.string(item, "point", item_path, blank=False, max_length=300)
            dimension = scope.string(item, "dimension", item_path, blank=False, max_length=120)
            patterns_path = _key(item_path, "patterns")
            raw_patterns = scope.mapping(
                scope.get(item, "patterns"), patterns_path, KEY_POINT_LANGUAGES
            )
            patterns: dict[str, list[str]] = {}
            for language in KEY_POINT_LANGUAGES:
                if raw_patterns is None:
                    break
                found = scope.strings(raw_patterns, language, patterns_path)
                for j, pattern in enumerate(found):
                    try:
                        re.compile(pattern)
                    except re.error as exc:
                        scope.error(
                            _index(_key(patterns_path, language), j),
                            f"not a regular expression: {exc}",
                        )
                if found:
                    patterns[language] = found
            if raw_patterns is not None and not patterns:
                scope.error(patterns_path, "needs at least one pattern (en or zh)")
            points.append({"point": point, "patterns": patterns, "dimension": dimension})
        return points

    def review(self, scope: _Scope, raw: Any, path: str, *, draft: bool) -> dict | None:
        obj = scope.mapping(raw, path, REVIEW_FIELDS, required=("document",))
        if obj is None:
            return None
        document = scope.string(obj, "document", path, blank=False)
        line_count = len(document.splitlines())
        flaws_path = _key(path, "flaws")
        raw_flaws = scope.items(obj, "flaws", path)
        if not raw_flaws and not draft:
            scope.error(flaws_path, "must plant at least one flaw")
        flaws = [
            self.flaw(scope, item, _index(flaws_path, i), line_count)
            for i, item in enumerate(raw_flaws)
        ]
        spec: dict[str, Any] = {"document": document, "flaws": flaws}
        issues_path = _key(path, "known_issues")
        known = [
            self.known_issue(scope, item, _index(issues_path, i), line_count)
            for i, item in enumerate(scope.items(obj, "known_issues", path))
        ]
        if known:
            spec["known_issues"] = known
        return spec

    def known_issue(self, scope: _Scope, raw: Any, path: str, line_count: int) -> dict:
        """A real problem of the doc that is not a planted flaw: category, lines and why."""
        obj = scope.mapping(raw, path, KNOWN_ISSUE_FIELDS, required=KNOWN_ISSUE_FIELDS)
        if obj is None:
            return {}
        flaw = self.flaw(scope, {**obj, "severity": "low"}, path, line_count)
        return {key: flaw[key] for key in KNOWN_ISSUE_FIELDS if key in flaw}

    def flaw(self, scope: _Scope, raw: Any, path: str, line_count: int) -> dict:
        obj = scope.mapping(raw, path, FLAW_FIELDS, required=("category", "lines", "explanation"))
        if obj is None:
            return {}
        spec: dict[str, Any] = {
            "category": scope.choice(obj, "category", path, _choices(FlawCategory)),
        }
        lines = scope.get(obj, "lines")
        if lines is not _MISSING:
            where = _key(path, "lines")
            if not (isinstance(lines, list) and len(lines) == 2 and all(map(_is_int, lines))):
                scope.error(where, "must be [first, last] line numbers")
            elif not 1 <= lines[0] <= lines[1] <= line_count:
                scope.error(
                    where,
                    f"must satisfy 1 <= first <= last <= {line_count} (the document's lines)",
                )
            else:
                spec["lines"] = list(lines)
        spec["severity"] = scope.choice(
            obj, "severity", path, _choices(Severity), Severity.MEDIUM.value
        )
        spec["explanation"] = scope.string(obj, "explanation", path, blank=False)
        return spec

    # rubrics ------------------------------------------------------------------------

    def rubric(self, file: str, index: int, raw: Any) -> None:
        owner, slug = self._owner("rubrics", index, raw)
        scope = _Scope(self.issues, file, owner)
        first = self._claim(scope, "rubrics", index, slug)
        errors_before = len(self.issues)
        obj = scope.mapping(raw, "", RUBRIC_FIELDS, required=("slug", "dimensions"))
        if obj is None:
            return
        spec: dict[str, Any] = {"slug": scope.slug(obj, "slug", "")}
        title = scope.string(obj, "title", "", max_length=200)
        if title:
            spec["title"] = title
        dimensions = []
        names: set[str] = set()
        raw_dimensions = scope.items(obj, "dimensions", "")
        if scope.get(obj, "dimensions") is not _MISSING and not raw_dimensions:
            scope.error("dimensions", "must have at least one dimension")
        for i, item in enumerate(raw_dimensions):
            path = _index("dimensions", i)
            dim = scope.mapping(item, path, DIMENSION_FIELDS, required=("name", "levels"))
            if dim is None:
                continue
            name = scope.string(dim, "name", path, max_length=120, blank=False)
            if name in names:
                scope.error(_key(path, "name"), f"duplicate dimension {name!r}")
            names.add(name)
            weight = scope.get(dim, "weight")
            if weight is _MISSING:
                weight = 1
            elif not _is_number(weight) or weight < 0:
                scope.error(_key(path, "weight"), "must be a number >= 0")
                weight = 1
            levels = scope.get(dim, "levels")
            if levels is not _MISSING and not (
                isinstance(levels, list)
                and len(levels) == 4
                and all(isinstance(level, str) and level.strip() for level in levels)
            ):
                scope.error(_key(path, "levels"), "must be four descriptors (levels 1 to 4)")
            dimensions.append({"name": name, "weight": canonical_number(weight), "levels": levels})
        spec["dimensions"] = dimensions
        i18n = translations_validate(obj.get("i18n"), "i18n", rubric_schema(spec), scope.error)
        if i18n:
            spec["i18n"] = i18n
        if len(self.issues) == errors_before and first:
            self.bank.rubrics.append(BankEntry(file, owner, spec))

    # loops --------------------------------------------------------------------------

    @staticmethod
    def _titled_spec(scope: _Scope, obj: dict) -> dict[str, Any]:
        """What loop templates and study plans share: slug, title, an optional
        description, and a status (published unless said)."""
        spec: dict[str, Any] = {
            "slug": scope.slug(obj, "slug", ""),
            "title": scope.string(obj, "title", "", max_length=200, blank=False),
        }
        description = scope.string(obj, "description", "")
        if description:
            spec["description"] = description
        status = scope.choice(
            obj, "status", "", _choices(QuestionStatus), QuestionStatus.PUBLISHED.value
        )
        if status != QuestionStatus.PUBLISHED:
            spec["status"] = status
        return spec

    def loop(self, file: str, index: int, raw: Any) -> None:
        owner, slug = self._owner("loops", index, raw)
        scope = _Scope(self.issues, file, owner)
        first = self._claim(scope, "loops", index, slug)
        errors_before = len(self.issues)
        obj = scope.mapping(raw, "", LOOP_FIELDS, required=("slug", "title", "stages"))
        if obj is None:
            return
        spec = self._titled_spec(scope, obj)
        raw_stages = scope.items(obj, "stages", "")
        if scope.get(obj, "stages") is not _MISSING and not raw_stages:
            scope.error("stages", "must have at least one stage")
        stages = []
        for i, item in enumerate(raw_stages):
            path = _index("stages", i)
            stage_obj = scope.mapping(
                item, path, STAGE_FIELDS, required=("kind", "title", "minutes", "questions")
            )
            if stage_obj is None:
                continue
            kind = scope.choice(stage_obj, "kind", path, _choices(StageKind))
            stage: dict[str, Any] = {
                "kind": kind,
                "title": scope.string(stage_obj, "title", path, max_length=200, blank=False),
                "minutes": scope.integer(stage_obj, "minutes", path, minimum=1, maximum=600),
            }
            questions_path = _key(path, "questions")
            questions = scope.strings(stage_obj, "questions", path)
            if scope.get(stage_obj, "questions") is not _MISSING and not questions:
                scope.error(questions_path, "must name at least one question")
            for j, question_slug in enumerate(questions):
                if not SLUG_RE.match(question_slug):
                    scope.error(_index(questions_path, j), "must match [a-z0-9-]+")
                else:
                    self._question_refs.append(
                        _Reference(scope, _index(questions_path, j), question_slug, kind)
                    )
            stage["questions"] = questions
            rubric = scope.slug(stage_obj, "rubric", path)
            if rubric:
                stage["rubric"] = rubric
                self._rubric_refs.append(_Reference(scope, _key(path, "rubric"), rubric))
            stages.append(stage)
        spec["stages"] = stages
        i18n = translations_validate(
            obj.get("i18n"), "i18n", loop_template_schema(spec), scope.error
        )
        if i18n:
            spec["i18n"] = i18n
        if len(self.issues) == errors_before and first:
            self.bank.loops.append(BankEntry(file, owner, spec))

    # plans --------------------------------------------------------------------------

    def plan(self, file: str, index: int, raw: Any) -> None:
        owner, slug = self._owner("plans", index, raw)
        scope = _Scope(self.issues, file, owner)
        first = self._claim(scope, "plans", index, slug)
        errors_before = len(self.issues)
        obj = scope.mapping(raw, "", PLAN_FIELDS, required=("slug", "title", "days"))
        if obj is None:
            return
        spec = self._titled_spec(scope, obj)
        raw_days = scope.items(obj, "days", "")
        if scope.get(obj, "days") is not _MISSING and not raw_days:
            scope.error("days", "must have at least one day")
        if len(raw_days) > MAX_PLAN_DAYS:
            scope.error("days", f"must have at most {MAX_PLAN_DAYS} days")
        days = []
        for i, item in enumerate(raw_days[:MAX_PLAN_DAYS]):
            path = _index("days", i)
            day_obj = scope.mapping(item, path, PLAN_DAY_FIELDS, required=("title",))
            if day_obj is None:
                continue
            day: dict[str, Any] = {
                "title": scope.string(day_obj, "title", path, max_length=200, blank=False)
            }
            for key in ("phase", "focus"):
                text = scope.string(day_obj, key, path, max_length=200 if key == "phase" else None)
                if text:
                    day[key] = text
            practice = []
            for j, ref in enumerate(scope.items(day_obj, "practice", path)):
                ref_path = _index(_key(path, "practice"), j)
                ref_obj = scope.mapping(
                    ref, ref_path, PLAN_PRACTICE_FIELDS, required=("loop", "stage")
                )
                if ref_obj is None:
                    continue
                loop_slug = scope.slug(ref_obj, "loop", ref_path)
                stage = scope.integer(ref_obj, "stage", ref_path, minimum=1, maximum=100)
                if loop_slug and stage is not None:
                    self._stage_refs.append(_StageReference(scope, ref_path, loop_slug, stage))
                    practice.append({"loop": loop_slug, "stage": stage})
            if practice:
                day["practice"] = practice
            days.append(day)
        spec["days"] = days
        translations = self._plan_translations(scope, obj, len(days))
        if translations:
            spec["i18n"] = translations
        if len(self.issues) == errors_before and first:
            self.bank.plans.append(BankEntry(file, owner, spec))

    def _plan_translations(self, scope: _Scope, obj: dict, day_count: int) -> dict[str, Any]:
        """`i18n: {zh-Hans: {title, description, days: {n: {title, phase, focus}}}}`: day
        numbers are 1-based and must exist; every field is optional (English stands in)."""
        raw = scope.get(obj, "i18n")
        if raw is _MISSING:
            return {}
        if scope.mapping(raw, "i18n", PLAN_LANGUAGES) is None:
            return {}
        result: dict[str, Any] = {}
        for language, block in raw.items():
            if language not in PLAN_LANGUAGES:
                continue
            path = _key("i18n", language)
            if scope.mapping(block, path, PLAN_I18N_FIELDS) is None:
                continue
            out: dict[str, Any] = {}
            for key in ("title", "description"):
                text = scope.string(block, key, path)
                if text:
                    out[key] = text
            raw_days = scope.get(block, "days")
            if raw_days is not _MISSING:
                days_path = _key(path, "days")
                if not isinstance(raw_days, dict):
                    scope.error(days_path, "must be a mapping of day numbers")
                else:
                    days: dict[str, Any] = {}
                    for number, fields in raw_days.items():
                        where = _key(days_path, str(number))
                        if not (_is_int(number) or (isinstance(number, str) and number.isdigit())):
                            scope.error(where, "must be a day number")
                            continue
                        if not 1 <= int(number) <= day_count:
                            scope.error(where, f"no day {number}")
                            continue
                        if scope.mapping(fields, where, PLAN_I18N_DAY_FIELDS) is None:
                            continue
                        texts = {k: scope.string(fields, k, where) for k in PLAN_I18N_DAY_FIELDS}
                        days[str(int(number))] = {k: v for k, v in texts.items() if v}
                    if days:
                        out["days"] = dict(sorted(days.items(), key=lambda kv: int(kv[0])))
            if out:
                result[language] = out
        return result

    # references ---------------------------------------------------------------------

    def resolve_references(self) -> None:
        """Rubrics and questions named must exist in this bank or in the database."""
        rubric_slugs = set(self._declared["rubrics"])
        wanted = {ref.slug for ref in self._rubric_refs} - rubric_slugs
        if wanted:
            rubric_slugs |= set(
                Rubric.objects.filter(slug__in=wanted).values_list("slug", flat=True)
            )
        for ref in self._rubric_refs:
            if ref.slug not in rubric_slugs:
                ref.scope.error(ref.path, f"unknown rubric {ref.slug!r}")

        kinds = {slug: kind for slug, (_, kind) in self._declared["questions"].items()}
        wanted = {ref.slug for ref in self._question_refs} - set(kinds)
        if wanted:
            for row in question_list_latest().filter(slug__in=wanted).values("slug", "kind"):
                kinds[row["slug"]] = row["kind"]
        for ref in self._question_refs:
            if ref.slug not in kinds:
                ref.scope.error(ref.path, f"unknown question {ref.slug!r}")
                continue
            kind = kinds[ref.slug]
            if kind is None:
                continue  # the question itself is broken and reported
            # A stage kind's room only shows the question kinds its spec names.
            spec = stage_kind_get(ref.stage_kind)
            if spec is not None and kind not in spec.question_kinds:
                needed = " or ".join(spec.question_kinds)
                ref.scope.error(
                    ref.path,
                    f"{ref.slug!r} is a {kind} question; a {ref.stage_kind} stage needs {needed}",
                )
        self._resolve_stage_references()

    def _resolve_stage_references(self) -> None:
        """A plan's practice item names a loop template of this bank or the database, and
        one of its stages."""
        stage_counts = {entry.spec["slug"]: len(entry.spec["stages"]) for entry in self.bank.loops}
        wanted = {ref.loop for ref in self._stage_refs} - set(self._declared["loops"])
        if wanted:
            for template in LoopTemplate.objects.filter(slug__in=wanted).annotate(
                stage_count=Count("stages")
            ):
                stage_counts[template.slug] = template.stage_count
        for ref in self._stage_refs:
            if ref.loop not in stage_counts:
                if ref.loop not in self._declared["loops"]:  # a broken declared loop is reported
                    ref.scope.error(_key(ref.path, "loop"), f"unknown loop template {ref.loop!r}")
            elif ref.stage > stage_counts[ref.loop]:
                ref.scope.error(
                    _key(ref.path, "stage"),
                    f"loop template {ref.loop!r} has {stage_counts[ref.loop]} stages",
                )


def bank_validate(
    documents: Iterable[tuple[str, Any]], *, issues: Iterable[BankIssue] = ()
) -> Bank:
    """Validate parsed bank files (`(file label, data)` pairs) as one bank: canonical
    dicts, or `BankValidationError` listing every problem (plus `issues` met earlier)."""
    validator = _Validator()
    validator.issues.extend(issues)
    for file, data in documents:
        validator.document(file, data)
    validator.resolve_references()
    if validator.issues:
        raise BankValidationError(validator.issues)
    return validator.bank


def bank_load(source: str | Path | Mapping[str, Any], *, label: str = "") -> Bank:
    """Read and validate a bank file, a directory of them, or an already-parsed dict."""
    if isinstance(source, Mapping):
        return bank_validate([(label, dict(source))])
    documents, issues = bank_read(source)
    return bank_validate(documents, issues=issues)


def question_validate(data: Any, *, default_status: str = QuestionStatus.DRAFT) -> dict:
    """Validate one question dict as in a bank file (API bodies): its canonical dict, or
    `BankValidationError` whose `errors` are keyed by field path (`coding.parts[0].title`)."""
    validator = _Validator(default_status=default_status)
    if isinstance(data, Mapping):
        data = {k: v for k, v in data.items() if k not in QUESTION_READ_ONLY_FIELDS}
    spec = validator.question_spec(_Scope(validator.issues, "", ""), data)
    validator.resolve_references()
    if validator.issues or spec is None:
        raise BankValidationError(validator.issues)
    return spec
