"""The question bank as files, and the verbs that change it.

The bank file format is a contract (DESIGN.md, "Question bank file format"). One
function turns a parsed file into the *canonical dict* of each question, rubric and
loop; export produces exactly the same dict from the database. That single shape is

- what `import_bank` validates (every problem collected, each with file and YAML path),
- what `export_bank` writes (so export → import → export is byte-identical),
- what the admin API reads and writes,
- what a question version's `fingerprint` hashes (status left out: publishing or
  archiving a version does not change what a submission is judged against).

A `Question` row is one version of a slug. Import never changes an existing version:
identical content is left alone, changed content becomes `version + 1`. The admin API
edits a version in place only while nothing (stage, submission, answer, comment) uses it.
"""

from __future__ import annotations

import copy
import hashlib
import importlib
import json
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from django.db import transaction
from django.db.models import (
    Count,
    Exists,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.fields.json import KT
from django.db.models.functions import Coalesce
from django.utils import timezone

from interviews.models import (
    Answer,
    Dimension,
    FollowUp,
    LoopTemplate,
    Part,
    PlantedFlaw,
    Question,
    ReviewComment,
    Rubric,
    StageFollowUp,
    StageQuestion,
    StageTemplate,
    Submission,
    TestCase,
)
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
from interviews.services.audit import audit_record
from interviews.services.errors import DomainError, InvalidInput, StateConflict
from interviews.stage_kinds import stage_kind_get
from sandbox.api import FUNCTION_LANGUAGES
from sandbox.api import LANGUAGES as SANDBOX_LANGUAGES

SHIPPED_BANK_DIR = Path(__file__).resolve().parent.parent / "bank"

SLUG_RE = re.compile(r"^[a-z0-9-]+$")
IDENTIFIER_RE = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")
FLOAT_CHECKER_RE = re.compile(r"^float:(.+)$")
SIMPLE_CHECKERS = ("exact", "tokens", "unordered-lines")

DEFAULT_TIME_LIMIT_MS = 2000
DEFAULT_MEMORY_LIMIT_MB = 256
DEFAULT_OUTPUT_LIMIT_MB = 8

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
    "review",
    "rubric",
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
FOLLOW_UP_FIELDS = ("prompt", "unlocks_part", "trigger", "after_minutes", "coach_notes")
REVIEW_FIELDS = ("document", "flaws")
FLAW_FIELDS = ("category", "lines", "severity", "explanation")
RUBRIC_FIELDS = ("slug", "title", "dimensions")
DIMENSION_FIELDS = ("name", "weight", "levels")
LOOP_FIELDS = ("slug", "title", "description", "status", "stages")
STAGE_FIELDS = ("kind", "title", "minutes", "questions", "rubric")
FILE_SECTIONS = ("questions", "rubrics", "loops")
TEST_SECTIONS = ((TestCase.Visibility.SAMPLE, "samples"), (TestCase.Visibility.HIDDEN, "hidden"))

# Read-only keys of the admin API's question dict; accepted (and ignored) on writes so a
# client can PUT back what it GOT.
QUESTION_READ_ONLY_FIELDS = ("id", "version", "verified_at", "verification")


# --- errors ------------------------------------------------------------------------------


@dataclass(frozen=True)
class BankIssue:
    """One problem: where (file, owner such as `token-batcher` or `loops[0] (x)`, field
    path inside it) and what."""

    file: str
    owner: str
    path: str
    message: str

    @property
    def location(self) -> str:
        return ".".join(part for part in (self.owner, self.path) if part)

    def __str__(self) -> str:
        return ": ".join(part for part in (self.file, self.location, self.message) if part)


def _issues_by_path(issues: Iterable[BankIssue]) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    for issue in issues:
        errors.setdefault(issue.location or "non_field_errors", []).append(issue.message)
    return errors


class BankValidationError(InvalidInput):
    """The bank (a file, a directory or one question dict) has problems; nothing changed."""

    def __init__(self, issues: Iterable[BankIssue], message: str | None = None):
        self.issues = list(issues)
        count = len(self.issues)
        super().__init__(
            message or f"{count} problem{'s' if count != 1 else ''} in the bank; nothing changed.",
            errors=_issues_by_path(self.issues),
        )


class BankVerificationError(BankValidationError):
    """A reference solution failed a hidden test in the sandbox; the import was rolled back."""


class VerificationUnavailable(DomainError):
    """The sandbox verification service is not installed (→ 503)."""

    default_message = (
        "Reference verification is not available: the sandbox verification service "
        "(interviews.services.verification) is not installed yet."
    )


class QuestionNotVerified(StateConflict):
    """A coding question can only be published once its reference passed every hidden test."""


# --- YAML --------------------------------------------------------------------------------


class _BankLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """SafeLoader (libyaml's C parser when present: the shipped bank is several MB) that
    refuses duplicate mapping keys instead of keeping the last one."""


def _construct_mapping(loader: _BankLoader, node: yaml.MappingNode) -> dict:
    loader.flatten_mapping(node)
    result: dict = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            duplicate = key in result
        except TypeError:
            raise yaml.constructor.ConstructorError(
                None, None, "a mapping key must be a plain value", key_node.start_mark
            ) from None
        if duplicate:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark
            )
        result[key] = loader.construct_object(value_node, deep=True)
    return result


_BankLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


class _BankDumper(yaml.SafeDumper):
    """Block style, indented lists, multi-line text as `|` literal blocks."""

    def increase_indent(self, flow: bool = False, indentless: bool = False):
        return super().increase_indent(flow, False)


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_BankDumper.add_representer(str, _represent_str)


def bank_dump(data: Mapping[str, Any]) -> str:
    """The YAML text of a bank dict; deterministic, so equal dicts give equal bytes."""
    return yaml.dump(
        dict(data),
        Dumper=_BankDumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=100,
    )


def bank_read(source: str | Path) -> tuple[list[tuple[str, Any]], list[BankIssue]]:
    """Load a bank file, or every `*.yaml`/`*.yml` under a directory (sorted), as
    `(file label, data)` pairs, plus the problems met while reading."""
    path = Path(source)
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in (".yaml", ".yml"))
        if not files:
            return [], [BankIssue(str(path), "", "", "no *.yaml or *.yml files in this directory")]
    elif path.is_file():
        files = [path]
    else:
        return [], [BankIssue(str(path), "", "", "no such file or directory")]
    documents: list[tuple[str, Any]] = []
    issues: list[BankIssue] = []
    for file in files:
        label = str(file)
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            issues.append(BankIssue(label, "", "", f"cannot read: {exc}"))
            continue
        try:
            documents.append((label, yaml.load(text, Loader=_BankLoader)))  # noqa: S506 - safe loader
        except yaml.YAMLError as exc:
            issues.append(BankIssue(label, "", "", f"invalid YAML: {_yaml_error_text(exc)}"))
    return documents, issues


def _yaml_error_text(exc: yaml.YAMLError) -> str:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    if mark is not None:
        return f"line {mark.line + 1}, column {mark.column + 1}: {problem}"
    return problem


# --- validation --------------------------------------------------------------------------


def _key(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _index(path: str, index: int) -> str:
    return f"{path}[{index}]"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return (_is_int(value) or isinstance(value, float)) and math.isfinite(value)


def _canonical_number(value: int | float) -> int | float:
    return int(value) if float(value).is_integer() else float(value)


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


class _Validator:
    """Turns raw bank data into canonical dicts, collecting every problem on the way."""

    def __init__(self, *, default_status: str = QuestionStatus.PUBLISHED):
        self.issues: list[BankIssue] = []
        self.default_status = default_status
        self.bank = Bank()
        self._rubric_refs: list[_Reference] = []
        self._question_refs: list[_Reference] = []
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
            top.error("", "must be a mapping with `questions`, `rubrics` and/or `loops`")
            return
        for key in data:
            if key not in FILE_SECTIONS:
                top.error(str(key), "unknown field")
        for section, handle in (
            ("rubrics", self.rubric),
            ("questions", self.question),
            ("loops", self.loop),
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
        message = "must be exact, tokens, unordered-lines or float:<eps> (e.g. float:1e-6)"
        if isinstance(value, str):
            if value in SIMPLE_CHECKERS:
                return value
            match = FLOAT_CHECKER_RE.match(value)
            if match:
                try:
                    eps = float(match.group(1))
                except ValueError:
                    eps = -1.0
                if math.isfinite(eps) and eps > 0:
                    return value
                message = "float:<eps> needs a positive number, e.g. float:1e-6"
        scope.error(_key(path, "checker"), message)
        return "exact"

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
        return spec

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
        return {"document": document, "flaws": flaws}

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
            dimensions.append({"name": name, "weight": _canonical_number(weight), "levels": levels})
        spec["dimensions"] = dimensions
        if len(self.issues) == errors_before and first:
            self.bank.rubrics.append(BankEntry(file, owner, spec))

    # loops --------------------------------------------------------------------------

    def loop(self, file: str, index: int, raw: Any) -> None:
        owner, slug = self._owner("loops", index, raw)
        scope = _Scope(self.issues, file, owner)
        first = self._claim(scope, "loops", index, slug)
        errors_before = len(self.issues)
        obj = scope.mapping(raw, "", LOOP_FIELDS, required=("slug", "title", "stages"))
        if obj is None:
            return
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
        if len(self.issues) == errors_before and first:
            self.bank.loops.append(BankEntry(file, owner, spec))

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


# --- canonical dicts from the database ---------------------------------------------------


def question_prefetch(questions: QuerySet[Question]) -> QuerySet[Question]:
    """Everything `question_to_dict` reads, in a constant number of queries."""
    return questions.select_related("rubric").prefetch_related(
        Prefetch("parts", queryset=Part.objects.order_by("position").prefetch_related("tests")),
        Prefetch("follow_ups", queryset=FollowUp.objects.order_by("position")),
        Prefetch("flaws", queryset=PlantedFlaw.objects.order_by("position")),
    )


def question_public_prefetch(questions: QuerySet[Question]) -> QuerySet[Question]:
    """What a candidate may see of questions, and nothing more: `open_parts` (parts no
    follow-up unlocks, with `sample_tests` and a `hidden_count`). Hidden tests, locked
    parts, follow-ups and flaws are never loaded."""
    gated = FollowUp.objects.filter(
        question=OuterRef("question"), unlocks_part=OuterRef("position")
    )
    sample_tests = TestCase.objects.filter(visibility=TestCase.Visibility.SAMPLE).order_by(
        "position"
    )
    parts = (
        Part.objects.filter(Q(position=1) | ~Exists(gated))
        .annotate(
            hidden_count=Count("tests", filter=Q(tests__visibility=TestCase.Visibility.HIDDEN))
        )
        .order_by("position")
        .prefetch_related(Prefetch("tests", queryset=sample_tests, to_attr="sample_tests"))
    )
    return questions.select_related("rubric").prefetch_related(
        Prefetch("parts", queryset=parts, to_attr="open_parts")
    )


#: The columns a question summary reads; the large ones (prompt, reference, starter,
#: review document, verification failures) stay in the database.
SUMMARY_FIELDS = (
    "id",
    "slug",
    "version",
    "kind",
    "title",
    "difficulty",
    "tags",
    "status",
    "verified_at",
    "created_at",
)


def _count_of(rows: QuerySet, *, per: str) -> Coalesce:
    """How many `rows` belong to the outer question (`per` is the path to its id), as a
    correlated subquery: counting several relations through joins would multiply rows."""
    counted = (
        rows.filter(**{per: OuterRef("pk")})
        .order_by()
        .values(per)
        .annotate(n=Count("pk"))
        .values("n")[:1]
    )
    return Coalesce(Subquery(counted, output_field=IntegerField()), Value(0))


def question_summary_annotate(questions: QuerySet[Question]) -> QuerySet[Question]:
    """Question rows for a bank listing, in one query however many there are: the
    identity and state columns plus counts of parts, tests, follow-ups and flaws and the
    verification state. Test data, references, prompts and flaw keys are never loaded."""
    tests = TestCase.objects.all()
    return questions.only(*SUMMARY_FIELDS).annotate(
        part_count=_count_of(Part.objects.all(), per="question"),
        sample_count=_count_of(
            tests.filter(visibility=TestCase.Visibility.SAMPLE), per="part__question"
        ),
        hidden_count=_count_of(
            tests.filter(visibility=TestCase.Visibility.HIDDEN), per="part__question"
        ),
        follow_up_count=_count_of(FollowUp.objects.all(), per="question"),
        flaw_count=_count_of(PlantedFlaw.objects.all(), per="question"),
        verification_state=KT("verification__state"),
    )


def question_list_latest(*, status: str | None = None) -> QuerySet[Question]:
    """The newest version of every slug (the newest with `status`, when given)."""
    versions = Question.objects.all() if status is None else Question.objects.filter(status=status)
    newest = versions.filter(slug=OuterRef("slug")).order_by("-version").values("version")[:1]
    return versions.filter(version=Subquery(newest)).order_by("slug")


def question_to_dict(question: Question) -> dict[str, Any]:
    """The question version as it appears in a bank file (canonical: same keys, order
    and defaults as validation produces)."""
    spec: dict[str, Any] = {"slug": question.slug, "kind": question.kind}
    if question.status != QuestionStatus.PUBLISHED:
        spec["status"] = question.status
    spec.update(
        title=question.title,
        difficulty=question.difficulty,
        tags=list(question.tags),
        prompt=question.prompt,
    )
    if question.kind == QuestionKind.CODING:
        coding: dict[str, Any] = {"languages": list(question.languages), "io": question.io}
        if question.io == IoMode.FUNCTION:
            coding["entrypoint"] = question.entrypoint
        coding["time_limit_ms"] = question.time_limit_ms
        coding["memory_limit_mb"] = question.memory_limit_mb
        if question.output_limit_mb != DEFAULT_OUTPUT_LIMIT_MB:
            coding["output_limit_mb"] = question.output_limit_mb
        coding["checker"] = question.checker
        coding["starter"] = dict(question.starter)
        coding["reference"] = dict(question.reference)
        parts = []
        for part in sorted(question.parts.all(), key=lambda p: p.position):
            tests = sorted(part.tests.all(), key=lambda t: t.position)
            parts.append(
                {
                    "title": part.title,
                    "prompt": part.prompt,
                    "samples": [
                        {"input": t.input, "output": t.output}
                        for t in tests
                        if t.visibility == TestCase.Visibility.SAMPLE
                    ],
                    "hidden": [
                        {"input": t.input, "output": t.output}
                        for t in tests
                        if t.visibility == TestCase.Visibility.HIDDEN
                    ],
                }
            )
        coding["parts"] = parts
        spec["coding"] = coding
    follow_ups = []
    for follow_up in sorted(question.follow_ups.all(), key=lambda f: f.position):
        item: dict[str, Any] = {"prompt": follow_up.prompt}
        if follow_up.unlocks_part is not None:
            item["unlocks_part"] = follow_up.unlocks_part
        item["trigger"] = follow_up.trigger
        if follow_up.trigger == FollowUp.Trigger.AFTER_MINUTES:
            item["after_minutes"] = follow_up.after_minutes
        if follow_up.coach_notes:
            item["coach_notes"] = follow_up.coach_notes
        follow_ups.append(item)
    if follow_ups:
        spec["follow_ups"] = follow_ups
    if question.kind == QuestionKind.REVIEW:
        spec["review"] = {
            "document": question.document,
            "flaws": [
                {
                    "category": flaw.category,
                    "lines": [flaw.line_start, flaw.line_end],
                    "severity": flaw.severity,
                    "explanation": flaw.explanation,
                }
                for flaw in sorted(question.flaws.all(), key=lambda f: f.position)
            ],
        }
    if question.rubric_id:
        spec["rubric"] = question.rubric.slug
    return spec


def rubric_to_dict(rubric: Rubric) -> dict[str, Any]:
    spec: dict[str, Any] = {"slug": rubric.slug}
    if rubric.title:
        spec["title"] = rubric.title
    spec["dimensions"] = [
        {"name": d.name, "weight": _canonical_number(d.weight), "levels": list(d.levels)}
        for d in sorted(rubric.dimensions.all(), key=lambda d: d.position)
    ]
    return spec


def loop_template_to_dict(template: LoopTemplate) -> dict[str, Any]:
    spec: dict[str, Any] = {"slug": template.slug, "title": template.title}
    if template.description:
        spec["description"] = template.description
    if template.status != QuestionStatus.PUBLISHED:
        spec["status"] = template.status
    stages = []
    for stage in sorted(template.stages.all(), key=lambda s: s.position):
        item: dict[str, Any] = {
            "kind": stage.kind,
            "title": stage.title,
            "minutes": stage.minutes,
            "questions": list(stage.question_slugs),
        }
        if stage.rubric_id:
            item["rubric"] = stage.rubric.slug
        stages.append(item)
    spec["stages"] = stages
    return spec


def question_fingerprint(spec: Mapping[str, Any]) -> str:
    """sha256 of a question's canonical dict without `status`: what is asked and judged."""
    content = {key: value for key, value in spec.items() if key != "status"}
    text = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _stored_fingerprint(question: Question) -> str:
    if question.fingerprint:
        return question.fingerprint
    fresh = question_prefetch(Question.objects.filter(pk=question.pk)).get()
    return question_fingerprint(question_to_dict(fresh))


# --- export ------------------------------------------------------------------------------


def bank_export(
    *,
    questions: Iterable[Question] | None = None,
    rubrics: Iterable[Rubric] | None = None,
    loops: Iterable[LoopTemplate] | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """The bank as a file dict. Defaults: the newest version of every question, every
    rubric, every loop template. Empty sections are left out."""
    if questions is None:
        questions = question_list_latest()
    if isinstance(questions, QuerySet):
        questions = question_prefetch(questions)
    if rubrics is None:
        rubrics = Rubric.objects.all()
    if isinstance(rubrics, QuerySet):
        rubrics = rubrics.prefetch_related("dimensions")
    if loops is None:
        loops = LoopTemplate.objects.all()
    if isinstance(loops, QuerySet):
        loops = loops.prefetch_related(
            Prefetch("stages", queryset=StageTemplate.objects.select_related("rubric"))
        )
    data: dict[str, list[dict[str, Any]]] = {}
    sections = (
        ("questions", [question_to_dict(q) for q in sorted(questions, key=lambda q: q.slug)]),
        ("rubrics", [rubric_to_dict(r) for r in sorted(rubrics, key=lambda r: r.slug)]),
        ("loops", [loop_template_to_dict(t) for t in sorted(loops, key=lambda t: t.slug)]),
    )
    for name, items in sections:
        if items:
            data[name] = items
    return data


def bank_export_yaml(**kwargs: Any) -> str:
    return bank_dump(bank_export(**kwargs))


# --- import ------------------------------------------------------------------------------


@dataclass
class BankImportResult:
    created: list[Question] = field(default_factory=list)
    unchanged: list[Question] = field(default_factory=list)
    verified: list[Question] = field(default_factory=list)
    rubrics: dict[str, list[str]] = field(
        default_factory=lambda: {"created": [], "updated": [], "unchanged": []}
    )
    loops: dict[str, list[str]] = field(
        default_factory=lambda: {"created": [], "updated": [], "unchanged": []}
    )

    def summary(self) -> str:
        def counts(states: dict[str, list[str]]) -> str:
            return ", ".join(f"{len(slugs)} {state}" for state, slugs in states.items())

        lines = [
            f"questions: {len(self.created)} new version{'s' if len(self.created) != 1 else ''}"
            f", {len(self.unchanged)} unchanged, {len(self.verified)} verified",
            f"rubrics: {counts(self.rubrics)}",
            f"loops: {counts(self.loops)}",
        ]
        lines += [
            f"  + {q.slug} v{q.version} ({q.status}{', unverified' if _unverified(q) else ''})"
            for q in self.created
        ]
        return "\n".join(lines)


def _unverified(question: Question) -> bool:
    return question.kind == QuestionKind.CODING and question.verified_at is None


def bank_import(
    source: str | Path | Mapping[str, Any],
    *,
    verify: bool = True,
    actor=None,
    label: str = "",
) -> BankImportResult:
    """Import a bank file, a directory of bank files, or a parsed bank dict: all or nothing.

    Rubrics and loop templates are updated in place by slug; a question whose content
    differs from its newest version becomes a new version (identical content: nothing
    happens). With `verify`, every imported coding version that is not verified yet has
    its reference run on every hidden test in the sandbox; one failure rolls back the
    whole import (`BankVerificationError`)."""
    with transaction.atomic():
        bank = bank_load(source, label=label)
        result = BankImportResult()
        for entry in bank.rubrics:
            state = _rubric_upsert(entry.spec)
            result.rubrics[state].append(entry.spec["slug"])
        entry_of: dict[int, BankEntry] = {}
        for entry in bank.questions:
            question, created = _question_import(entry.spec, actor=actor)
            (result.created if created else result.unchanged).append(question)
            entry_of[question.pk] = entry
        for entry in bank.loops:
            state = _loop_template_upsert(entry.spec)
            result.loops[state].append(entry.spec["slug"])
        if verify:
            pending = [q for q in (*result.created, *result.unchanged) if _unverified(q)]
            result.verified = _bank_verify(pending, entry_of)
        if (
            result.created
            or any(result.rubrics[k] for k in ("created", "updated"))
            or any(result.loops[k] for k in ("created", "updated"))
        ):
            audit_record(
                actor=actor,
                action="bank.import",
                source=label or str(source)[:200],
                created=[str(q) for q in result.created],
                verified=len(result.verified),
            )
    return result


def bank_import_text(
    text: str, *, verify: bool = True, actor=None, label: str = "upload"
) -> BankImportResult:
    """`bank_import` of a bank file's YAML text (an upload): YAML errors and a document
    that is not a mapping are reported like any other problem, with `label` as the file."""
    try:
        data = yaml.load(text, Loader=_BankLoader)  # noqa: S506 - safe loader
    except yaml.YAMLError as exc:
        raise BankValidationError(
            [BankIssue(label, "", "", f"invalid YAML: {_yaml_error_text(exc)}")]
        ) from exc
    if not isinstance(data, Mapping):
        raise BankValidationError(
            [
                BankIssue(
                    label, "", "", "must be a mapping with `questions`, `rubrics` and/or `loops`"
                )
            ]
        )
    return bank_import(data, verify=verify, actor=actor, label=label)


def _rubric_upsert(spec: dict) -> str:
    rubric = Rubric.objects.filter(slug=spec["slug"]).prefetch_related("dimensions").first()
    if rubric is not None and rubric_to_dict(rubric) == spec:
        return "unchanged"
    state = "updated" if rubric else "created"
    if rubric is None:
        rubric = Rubric(slug=spec["slug"])
    rubric.title = spec.get("title", "")
    rubric.save()
    rubric.dimensions.all().delete()
    Dimension.objects.bulk_create(
        Dimension(rubric=rubric, position=i, name=d["name"], weight=d["weight"], levels=d["levels"])
        for i, d in enumerate(spec["dimensions"], start=1)
    )
    return state


def _loop_template_upsert(spec: dict) -> str:
    template = (
        LoopTemplate.objects.filter(slug=spec["slug"])
        .prefetch_related(
            Prefetch("stages", queryset=StageTemplate.objects.select_related("rubric"))
        )
        .first()
    )
    if template is not None and loop_template_to_dict(template) == spec:
        return "unchanged"
    state = "updated" if template else "created"
    if template is None:
        template = LoopTemplate(slug=spec["slug"])
    template.title = spec["title"]
    template.description = spec.get("description", "")
    template.status = spec.get("status", QuestionStatus.PUBLISHED)
    template.save()
    template.stages.all().delete()
    rubrics = _rubrics_by_slug(s.get("rubric") for s in spec["stages"])
    StageTemplate.objects.bulk_create(
        StageTemplate(
            loop_template=template,
            position=i,
            kind=stage["kind"],
            title=stage["title"],
            minutes=stage["minutes"],
            question_slugs=stage["questions"],
            rubric=rubrics.get(stage.get("rubric")),
        )
        for i, stage in enumerate(spec["stages"], start=1)
    )
    return state


def _rubrics_by_slug(slugs: Iterable[str | None]) -> dict[str, Rubric]:
    wanted = {slug for slug in slugs if slug}
    return {r.slug: r for r in Rubric.objects.filter(slug__in=wanted)} if wanted else {}


def _latest_locked(slug: str) -> Question | None:
    return Question.objects.select_for_update().filter(slug=slug).order_by("-version").first()


def _question_import(spec: dict, *, actor) -> tuple[Question, bool]:
    fingerprint = question_fingerprint(spec)
    latest = _latest_locked(spec["slug"])
    if latest is not None and _stored_fingerprint(latest) == fingerprint:
        return latest, False
    version = latest.version + 1 if latest else 1
    return _question_build(spec, version=version, fingerprint=fingerprint, actor=actor), True


def _question_build(spec: dict, *, version: int, fingerprint: str, actor) -> Question:
    """A new Question row (one version) with its parts, tests, follow-ups and flaws."""
    question = Question(slug=spec["slug"], version=version, created_by=actor)
    _question_fill(question, spec, fingerprint=fingerprint)
    question.save()
    _question_children_create(question, spec)
    return question


def _question_fill(question: Question, spec: dict, *, fingerprint: str) -> None:
    coding = spec.get("coding") or {}
    question.kind = spec["kind"]
    question.status = spec.get("status", QuestionStatus.PUBLISHED)
    question.title = spec["title"]
    question.difficulty = spec["difficulty"]
    question.tags = spec["tags"]
    question.prompt = spec["prompt"]
    question.rubric = _rubrics_by_slug([spec.get("rubric")]).get(spec.get("rubric"))
    question.languages = coding.get("languages", [])
    question.io = coding.get("io", IoMode.STDIO)
    question.entrypoint = coding.get("entrypoint", "")
    question.time_limit_ms = coding.get("time_limit_ms", DEFAULT_TIME_LIMIT_MS)
    question.memory_limit_mb = coding.get("memory_limit_mb", DEFAULT_MEMORY_LIMIT_MB)
    question.output_limit_mb = coding.get("output_limit_mb", DEFAULT_OUTPUT_LIMIT_MB)
    question.checker = coding.get("checker", "exact")
    question.starter = coding.get("starter", {})
    question.reference = coding.get("reference", {})
    question.document = (spec.get("review") or {}).get("document", "")
    question.fingerprint = fingerprint
    question.verified_at = None
    question.verification = {}


def _question_children_create(question: Question, spec: dict) -> None:
    coding = spec.get("coding") or {}
    tests = []
    for number, part_spec in enumerate(coding.get("parts", []), start=1):
        part = Part.objects.create(
            question=question, position=number, title=part_spec["title"], prompt=part_spec["prompt"]
        )
        for visibility, key in (
            (TestCase.Visibility.SAMPLE, "samples"),
            (TestCase.Visibility.HIDDEN, "hidden"),
        ):
            tests += [
                TestCase(
                    part=part,
                    visibility=visibility,
                    position=index,
                    input=test["input"],
                    output=test["output"],
                )
                for index, test in enumerate(part_spec[key])
            ]
    TestCase.objects.bulk_create(tests)
    FollowUp.objects.bulk_create(
        FollowUp(
            question=question,
            position=number,
            prompt=item["prompt"],
            unlocks_part=item.get("unlocks_part"),
            trigger=item["trigger"],
            after_minutes=item.get("after_minutes"),
            coach_notes=item.get("coach_notes", ""),
        )
        for number, item in enumerate(spec.get("follow_ups", []), start=1)
    )
    PlantedFlaw.objects.bulk_create(
        PlantedFlaw(
            question=question,
            position=number,
            category=flaw["category"],
            line_start=flaw["lines"][0],
            line_end=flaw["lines"][1],
            severity=flaw["severity"],
            explanation=flaw["explanation"],
        )
        for number, flaw in enumerate((spec.get("review") or {}).get("flaws", []), start=1)
    )


# --- verification ------------------------------------------------------------------------


def _verification_module():
    """`interviews.services.verification`, imported lazily: it runs the sandbox."""
    name = "interviews.services.verification"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        raise VerificationUnavailable() from exc


def question_verify_reference(*, question: Question, actor=None):
    """Run the question's reference on every hidden test in the sandbox (sets
    `verified_at` on success). Returns the verification result (`.ok`, `.failures`)."""
    if question.kind != QuestionKind.CODING:
        raise StateConflict("Only coding questions have a reference solution to verify.")
    result = _verification_module().question_verify(question)
    if result.ok and question.verified_at is None:
        question.verified_at = timezone.now()
    question.save(update_fields=["verified_at", "verification"])
    audit_record(
        actor=actor,
        action="question.verify",
        target=question,
        ok=bool(result.ok),
        failures=[str(f) for f in result.failures][:20],
    )
    return result


def _bank_verify(questions: list[Question], entry_of: dict[int, BankEntry]) -> list[Question]:
    if not questions:
        return []
    verify = _verification_module().question_verify
    issues: list[BankIssue] = []
    for question in questions:
        result = verify(question)
        entry = entry_of[question.pk]
        if result.ok:
            if question.verified_at is None:
                question.verified_at = timezone.now()
            question.save(update_fields=["verified_at", "verification"])
            continue
        for failure in result.failures or ["the reference solution failed"]:
            path, message = _reference_failure_path(question, str(failure))
            issues.append(BankIssue(entry.file, entry.owner, path, message))
    if issues:
        raise BankVerificationError(
            issues,
            f"{len(issues)} reference failure{'s' if len(issues) != 1 else ''} in the sandbox; "
            "nothing was imported.",
        )
    return questions


def _reference_failure_path(question: Question, failure: str) -> tuple[str, str]:
    """`python: hidden[3] wrong_answer` → (`coding.reference.python`, `hidden[3] wrong_answer`)."""
    language, sep, rest = failure.partition(":")
    if sep and language.strip() in question.reference:
        return f"coding.reference.{language.strip()}", rest.strip()
    return "coding.reference", failure


# --- the admin's verbs on one question ---------------------------------------------------


def question_is_used(question: Question) -> bool:
    """Whether anything that happened refers to this version (then it must not change)."""
    used_by = (
        StageQuestion.objects.filter(question=question),
        Submission.objects.filter(question=question),
        Answer.objects.filter(question=question),
        ReviewComment.objects.filter(question=question),
        StageFollowUp.objects.filter(question=question),
    )
    return any(qs.exists() for qs in used_by)


def _ensure_publishable(question: Question, status: str) -> None:
    if status == QuestionStatus.PUBLISHED and _unverified(question):
        raise QuestionNotVerified(
            f"{question.slug} v{question.version} is not verified: its reference solution "
            "must pass every hidden test in the sandbox before it can be published "
            f"(POST /api/v1/questions/{question.pk}/verify/)."
        )


def _new_content_not_publishable(spec: dict) -> QuestionNotVerified:
    return QuestionNotVerified(
        f"{spec['slug']} is a coding question with new, unverified content: save it as a "
        "draft, verify its reference solution in the sandbox, then publish it."
    )


def _with_status(spec: dict, status: str) -> dict:
    """The canonical dict with `status` (which it names only when not published)."""
    spec = {key: value for key, value in spec.items() if key != "status"}
    if status == QuestionStatus.PUBLISHED:
        return spec
    ordered = {"slug": spec["slug"], "kind": spec["kind"], "status": status}
    ordered.update(spec)
    return ordered


@transaction.atomic
def question_create(*, data: Any, actor=None) -> Question:
    """A new question (version 1) from a bank-file question dict; `status` defaults to
    draft, and a coding question cannot start out published (it is not verified yet)."""
    spec = question_validate(data)
    if Question.objects.filter(slug=spec["slug"]).exists():
        raise BankValidationError(
            [BankIssue("", "", "slug", "a question with this slug exists; edit it instead")]
        )
    published = spec.get("status", QuestionStatus.PUBLISHED) == QuestionStatus.PUBLISHED
    if spec["kind"] == QuestionKind.CODING and published:
        raise _new_content_not_publishable(spec)
    question = _question_build(spec, version=1, fingerprint=question_fingerprint(spec), actor=actor)
    audit_record(actor=actor, action="question.create", target=question, status=question.status)
    return question


def _merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386 JSON merge patch: mappings merge recursively, `null` removes, the rest
    replaces."""
    if not isinstance(patch, Mapping):
        return copy.deepcopy(patch)
    result = dict(target) if isinstance(target, Mapping) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = _merge_patch(result.get(key), value)
    return result


@transaction.atomic
def question_update(
    *, question: Question, data: Any, partial: bool = False, actor=None
) -> tuple[Question, bool]:
    """Edit a question version from a bank-file dict (`partial`: a JSON merge patch onto
    its current dict). Returns `(version, created)`.

    Same content, other status → the status changes in place. Changed content → the
    version is rewritten in place while nothing uses it, else a new version is created
    (the used one never changes). Changed content is unverified again; when the body does
    not name a status, a changed coding question becomes a draft rather than an
    unverified published question."""
    if not isinstance(data, Mapping):
        raise BankValidationError([BankIssue("", "", "", "must be a JSON object")])
    # Lock the row alone: FOR UPDATE may not reach the nullable side of the rubric join.
    Question.objects.select_for_update().filter(pk=question.pk).values_list("pk").get()
    question = question_prefetch(Question.objects.filter(pk=question.pk)).get()
    current = question_to_dict(question)
    body = {k: v for k, v in data.items() if k not in QUESTION_READ_ONLY_FIELDS}
    merged = _merge_patch(current, body) if partial else body
    spec = question_validate(merged, default_status=question.status)
    if spec["slug"] != question.slug:
        raise BankValidationError(
            [BankIssue("", "", "slug", "cannot change; create a new question instead")]
        )
    status = spec.get("status", QuestionStatus.PUBLISHED)
    fingerprint = question_fingerprint(spec)
    if fingerprint == _stored_fingerprint(question):
        if status != question.status:
            _ensure_publishable(question, status)
            question.status = status
            question.save(update_fields=["status"])
            audit_record(actor=actor, action="question.status", target=question, status=status)
        return question, False

    if spec["kind"] == QuestionKind.CODING and status == QuestionStatus.PUBLISHED:
        if "status" in body:
            raise _new_content_not_publishable(spec)
        spec = _with_status(spec, QuestionStatus.DRAFT)

    if question_is_used(question):
        newest = _latest_locked(question.slug)
        created = _question_build(
            spec, version=newest.version + 1, fingerprint=fingerprint, actor=actor
        )
        audit_record(
            actor=actor, action="question.new_version", target=created, previous=question.pk
        )
        return created, True
    _question_fill(question, spec, fingerprint=fingerprint)
    question.save()
    question.parts.all().delete()
    question.follow_ups.all().delete()
    question.flaws.all().delete()
    _question_children_create(question, spec)
    audit_record(actor=actor, action="question.update", target=question)
    return question, False


@transaction.atomic
def question_publish(*, question: Question, actor=None) -> Question:
    """Publish one version; a coding question must have passed verification first."""
    _ensure_publishable(question, QuestionStatus.PUBLISHED)
    if question.status != QuestionStatus.PUBLISHED:
        question.status = QuestionStatus.PUBLISHED
        question.save(update_fields=["status"])
        audit_record(actor=actor, action="question.publish", target=question)
    return question


@transaction.atomic
def question_archive(*, question: Question, actor=None) -> int:
    """Take the question (every version of its slug) out of the bank. Stages that use a
    version keep it; new loops no longer find it. Returns how many versions changed."""
    changed = (
        Question.objects.filter(slug=question.slug)
        .exclude(status=QuestionStatus.ARCHIVED)
        .update(status=QuestionStatus.ARCHIVED)
    )
    audit_record(actor=actor, action="question.archive", target=question, versions=changed)
    return changed


__all__ = [
    "SHIPPED_BANK_DIR",
    "Bank",
    "BankEntry",
    "BankImportResult",
    "BankIssue",
    "BankValidationError",
    "BankVerificationError",
    "QuestionNotVerified",
    "VerificationUnavailable",
    "bank_dump",
    "bank_export",
    "bank_export_yaml",
    "bank_import",
    "bank_import_text",
    "bank_load",
    "bank_read",
    "bank_validate",
    "loop_template_to_dict",
    "question_archive",
    "question_create",
    "question_fingerprint",
    "question_is_used",
    "question_list_latest",
    "question_prefetch",
    "question_publish",
    "question_to_dict",
    "question_update",
    "question_validate",
    "question_verify_reference",
    "rubric_to_dict",
]
