"""The bank file's YAML (strict load, deterministic dump), its defaults, how a problem in
a file is named, and the fingerprint of a question's canonical dict."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from django.utils.translation import ngettext

from interviews.services.errors import InvalidInput

DEFAULT_TIME_LIMIT_MS = 2000
DEFAULT_MEMORY_LIMIT_MB = 256
DEFAULT_OUTPUT_LIMIT_MB = 8


# --- problems -------------------------------------------------------------------------


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
            message
            or ngettext(
                "%(count)s problem in the bank; nothing changed.",
                "%(count)s problems in the bank; nothing changed.",
                count,
            )
            % {"count": count},
            errors=_issues_by_path(self.issues),
        )


# --- YAML -----------------------------------------------------------------------------


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


def bank_parse_text(text: str, *, label: str) -> Mapping[str, Any]:
    """One bank file's YAML text (an upload) as a mapping, or `BankValidationError` naming
    `label` as the file: invalid YAML and a document that is not a mapping are problems
    like any other."""
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
    return data


def _yaml_error_text(exc: yaml.YAMLError) -> str:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    if mark is not None:
        return f"line {mark.line + 1}, column {mark.column + 1}: {problem}"
    return problem


# --- canonical values -----------------------------------------------------------------


def canonical_number(value: int | float) -> int | float:
    """`1.0` → `1`: a weight read from YAML and one read back from a FloatField must give
    the same canonical dict (and so the same export and fingerprint)."""
    return int(value) if float(value).is_integer() else float(value)


#: Keys of a question's canonical dict its fingerprint leaves out: publishing a version
#: or translating its text changes nothing a submission is judged against.
UNFINGERPRINTED_FIELDS = ("status", "i18n")


def question_fingerprint(spec: Mapping[str, Any]) -> str:
    """sha256 of a question's canonical dict without `status` and translations: what is
    asked and judged."""
    content = {key: value for key, value in spec.items() if key not in UNFINGERPRINTED_FIELDS}
    text = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
