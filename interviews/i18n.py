"""The language of a request (DESIGN.md "Languages"): `?lang=`, else the user's saved
preference, else `Accept-Language`, else English. Bank text and API messages are chosen
by it; the codes are the ones the bank file and the frontend use (`zh-Hans`, not Django's
`zh-hans`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.core.exceptions import ObjectDoesNotExist

DEFAULT_LANGUAGE = "en"
LANGUAGES = ("en", "zh-Hans", "zh-Hant")

# Browser tags that name a script only by region (zh-TW, zh-HK …) map to one of ours.
_TRADITIONAL_REGIONS = ("tw", "hk", "mo")


def language_normalize(tag: str | None) -> str | None:
    """One of `LANGUAGES` for a BCP 47 tag (`zh-CN` → `zh-Hans`, `zh-hant-TW` →
    `zh-Hant`, `en-GB` → `en`), or None for a language we do not offer."""
    if not tag:
        return None
    parts = tag.strip().replace("_", "-").lower().split("-")
    if parts[0] == "en":
        return "en"
    if parts[0] != "zh":
        return None
    if "hant" in parts[1:]:
        return "zh-Hant"
    if "hans" in parts[1:]:
        return "zh-Hans"
    return "zh-Hant" if any(p in _TRADITIONAL_REGIONS for p in parts[1:]) else "zh-Hans"


def _accept_language(header: str) -> str | None:
    """The offered language the `Accept-Language` header ranks highest."""
    ranked: list[tuple[float, int, str]] = []
    for position, item in enumerate(header.split(",")):
        tag, _, params = item.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        language = language_normalize(tag)
        if language and quality > 0:
            ranked.append((-quality, position, language))
    return min(ranked)[2] if ranked else None


def _saved_language(user: Any) -> str | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    try:
        saved = user.account_profile.language
    except ObjectDoesNotExist:
        return None
    return language_normalize(saved)


def request_language(request: Any) -> str:
    """The language this request reads: `?lang=`, the user's saved preference, the
    `Accept-Language` header, or English."""
    if request is None:
        return DEFAULT_LANGUAGE
    params = getattr(request, "query_params", None) or getattr(request, "GET", {})
    chosen = language_normalize(params.get("lang"))
    if chosen:
        return chosen
    saved = _saved_language(getattr(request, "user", None))
    if saved:
        return saved
    header = getattr(request, "headers", {}).get("Accept-Language", "")
    return _accept_language(header) or DEFAULT_LANGUAGE


# --- the language bank text is served in ----------------------------------------------

_content_language: ContextVar[str | Callable[[], str]] = ContextVar(
    "content_language", default=DEFAULT_LANGUAGE
)


def content_language() -> str:
    """The language bank text is being served in (set per request by the API views;
    English elsewhere, e.g. in Celery tasks). Resolved on first use: a response with no
    translated bank text never looks up the user's saved preference."""
    value = _content_language.get()
    if callable(value):
        value = value()
        _content_language.set(value if value in LANGUAGES else DEFAULT_LANGUAGE)
    return value if value in LANGUAGES else DEFAULT_LANGUAGE


@contextmanager
def content_language_override(language: str | Callable[[], str]) -> Iterator[None]:
    """Serve bank text in `language` (or the one a callable gives when first needed)
    inside the block; an unknown one is English."""
    token = _content_language.set(language)
    try:
        yield
    finally:
        _content_language.reset(token)
