"""Every domain error has a stable `code` and a message people can read in every language
(DESIGN.md, "HTTP API" and "Languages"): each raise site's sentence is marked for
translation as a whole (no f-string, no glued pieces), its code is a literal, and the
catalogues translate it into Simplified and Traditional Chinese."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.utils import translation

from interviews.services import errors
from mockloop.env import BASE_DIR

CODE = re.compile(r"^[a-z][a-z0-9_]*$")
PLACEHOLDER = re.compile(r"%\((\w+)\)s")
GETTEXT = {"_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy"}
CHINESE = ("zh-hans", "zh-hant")


def error_classes() -> list[type[errors.DomainError]]:
    """DomainError and every subclass the app defines (imports pull them all in)."""
    import interviews.bankfile.format  # noqa: F401
    import interviews.services.bank_import  # noqa: F401

    seen, todo = [], [errors.DomainError]
    while todo:
        cls = todo.pop()
        seen.append(cls)
        todo.extend(cls.__subclasses__())
    return seen


@dataclass(frozen=True)
class Site:
    where: str
    call: ast.Call
    #: A domain error made here, or an access check given the sentence it refuses with.
    is_error: bool


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def raise_sites() -> Iterator[Site]:
    """Every call that makes a domain error in the app's code, or hands an access check the
    sentence it refuses with (`refusal=`)."""
    names = {cls.__name__ for cls in error_classes()}
    for path in sorted((BASE_DIR / "interviews").rglob("*.py")):
        if "migrations" in path.parts:
            continue
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            is_error = _name(node.func) in names
            if is_error or any(keyword.arg == "refusal" for keyword in node.keywords):
                yield Site(f"{path.relative_to(BASE_DIR)}:{node.lineno}", node, is_error)


def message_nodes(site: Site) -> Iterator[ast.AST]:
    """What people read: an error's message argument and `errors=` values (not their keys,
    which are field names); an access check's `refusal=`."""
    if site.is_error and site.call.args:
        yield site.call.args[0]
    for keyword in site.call.keywords:
        if keyword.arg == ("errors" if site.is_error else "refusal"):
            yield keyword.value


def untranslated_text(node: ast.AST) -> Iterator[ast.AST]:
    """String literals and f-strings outside a gettext call."""
    if isinstance(node, ast.Call) and _name(node.func) in GETTEXT:
        return
    if isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str)
    ):
        yield node
        return
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        # `_("… %(part)s …") % {"part": part}`: the values filled in are data, not text.
        children = [node.left]
    elif isinstance(node, ast.Dict):
        children = node.values
    elif isinstance(node, ast.Call):
        # Issue records of a bank validation error carry their own (admin-facing) text.
        children = [] if _name(node.func) == "BankIssue" else [*node.args]
    else:
        children = list(ast.iter_child_nodes(node))
    for child in children:
        yield from untranslated_text(child)


def msgids(node: ast.AST) -> Iterator[str]:
    for child in ast.walk(node):
        if isinstance(child, ast.Call) and _name(child.func) in GETTEXT and child.args:
            first = child.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                yield first.value


SITES = list(raise_sites())


def test_the_scan_finds_the_raise_sites():
    assert len(SITES) > 150


@pytest.mark.parametrize("cls", error_classes(), ids=lambda cls: cls.__name__)
def test_every_error_class_has_a_code_and_a_translated_default_message(cls):
    assert isinstance(cls.code, str) and CODE.match(cls.code), cls
    english = str(cls.default_message)
    for language in CHINESE:
        with translation.override(language):
            error = cls() if cls.__init__ is errors.DomainError.__init__ else None
            message = str(cls.default_message)
        assert message != english, (cls, language)
        if error is not None:
            assert (error.message, error.code) == (message, cls.code)


def test_every_raise_site_marks_whole_sentences_for_translation():
    glued = [
        f"{site.where}: {ast.unparse(text)}"
        for site in SITES
        for node in message_nodes(site)
        for text in untranslated_text(node)
    ]
    assert glued == []


def test_every_raise_site_gives_a_literal_snake_case_code():
    bad = []
    for site in SITES:
        for keyword in site.call.keywords:
            if keyword.arg != "code":
                continue
            value = keyword.value
            if not (
                isinstance(value, ast.Constant)
                and isinstance(value.value, str)
                and CODE.match(value.value)
            ):
                bad.append(f"{site.where}: code={ast.unparse(value)}")
    assert bad == []


def test_every_raise_site_message_is_translated_into_both_chinese_scripts():
    """Rendered as the API would, with translation.override: differs from the English, keeps
    its placeholders; the two scripts are not the same text where they can differ."""
    untranslated = []
    for site in SITES:
        for node in message_nodes(site):
            for msgid in msgids(node):
                rendered = {}
                for language in CHINESE:
                    with translation.override(language):
                        rendered[language] = translation.gettext(msgid)
                    if rendered[language] == msgid:
                        untranslated.append(f"{site.where} [{language}]: {msgid}")
                    elif set(PLACEHOLDER.findall(rendered[language])) != set(
                        PLACEHOLDER.findall(msgid)
                    ):
                        untranslated.append(f"{site.where} [{language}] placeholders: {msgid}")
    assert untranslated == []


def test_a_domain_error_raised_in_chinese_keeps_its_code():
    from interviews.access import access_stage

    class Nobody:
        is_authenticated = False

    stage = type("FakeStage", (), {})()
    raised = {}
    for language in ("en", *CHINESE):
        with translation.override(language), pytest.raises(errors.NotFound) as caught:
            access_stage(Nobody(), stage)
        raised[language] = (caught.value.message, caught.value.code)
    assert raised["en"] == ("Stage not found.", "not_found")
    assert raised["zh-hans"] == ("找不到该环节。", "not_found")
    assert raised["zh-hant"] == ("找不到該環節。", "not_found")


def test_the_catalogues_are_compiled():
    for catalogue in ("zh_Hans", "zh_Hant"):
        assert Path(BASE_DIR, "locale", catalogue, "LC_MESSAGES", "django.mo").exists(), (
            "run `make setup` (or scripts/setup.sh catalogues)"
        )
