"""Which language a request, or a person, reads (DESIGN.md, "Languages").

The API speaks BCP 47 tags as the frontend and the bank do (`en`, `zh-Hans`, `zh-Hant`);
Django's translation machinery names the same languages `en`, `zh-hans`, `zh-hant` (and
its catalogues `zh_Hans`, `zh_Hant`). The two meet here and nowhere else: `to_django` and
`from_django` map one to the other.

Beneath the services, selectors and api (it reads only models), so any of them may call
`request_language(request)` or `user_language(user)`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any
from urllib.parse import parse_qs

from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation.trans_real import parse_accept_lang_header

from interviews.models import AccountProfile

#: The languages the server speaks, as the API names them; the first is the fallback.
LANGUAGES: tuple[str, ...] = tuple(AccountProfile.Language.values)
DEFAULT_LANGUAGE = "en"
#: The query parameter that overrides everything else for one request (the feedback
#: view's "read it in Chinese" toggle).
QUERY_PARAMETER = "lang"

_TO_DJANGO = {language: language.lower() for language in LANGUAGES}
_FROM_DJANGO = {django: language for language, django in _TO_DJANGO.items()}


def to_django(language: str) -> str:
    """`zh-Hans` → `zh-hans`: the code `translation.activate` and settings.LANGUAGES use."""
    return _TO_DJANGO.get(language, DEFAULT_LANGUAGE)


def from_django(code: str | None) -> str:
    """`zh-hans` → `zh-Hans`; anything the server does not speak → `en`."""
    return _FROM_DJANGO.get((code or "").lower(), DEFAULT_LANGUAGE)


def supported_language(tag: str | None) -> str | None:
    """A language tag as a client may write it (`zh-CN`, `zh_TW`, `zh-Hant-HK`, `EN-gb`)
    → the one we speak for it, or None. Bare `zh` and mainland/Singapore regions read
    Simplified; Taiwan, Hong Kong and Macau read Traditional."""
    if not tag:
        return None
    parts = [part.lower() for part in tag.replace("_", "-").split("-") if part]
    if not parts:
        return None
    if parts[0] == "en":
        return "en"
    if parts[0] != "zh":
        return None
    rest = parts[1:]
    if "hant" in rest or set(rest) & {"tw", "hk", "mo"}:
        return "zh-Hant"
    return "zh-Hans"


def user_language(user: Any) -> str:
    """The language the person chose in their settings, or "" if they never chose one
    (then the browser's Accept-Language decides for requests, English for mails)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return ""
    # The authentication backends load the profile with the user (interviews/auth.py),
    # so this is no query on a request; elsewhere it is one, cached on the user.
    profile = getattr(user, "account_profile", None)
    return profile.language if profile is not None else ""


def recipient_language(user: Any, *, fallback: str | None = None) -> str:
    """The language of a mail to this person: their saved choice, else `fallback` (the
    language of the request that made the mail, when the recipient made it themselves:
    signing up, asking for a reset), else English (a mail has no browser to ask)."""
    return user_language(user) or fallback or DEFAULT_LANGUAGE


def accept_language(header: str) -> str | None:
    """The first language of an Accept-Language header (by q) that we speak, or None."""
    for tag, _quality in parse_accept_lang_header(header or ""):
        language = supported_language(tag)
        if language:
            return language
    return None


def request_language(request: Any) -> str:
    """The language of a request, by the contract: `?lang=` if given (and one we speak),
    else the signed-in user's saved preference, else the first of Accept-Language we
    speak, else English. Takes a Django HttpRequest or a DRF Request (call it once the
    user is authenticated); returns the API's tag (`en`, `zh-Hans`, `zh-Hant`)."""
    query, accept = _request_asks(request)
    return _by_contract(query, getattr(request, "user", None), accept)


def _request_asks(request: Any) -> tuple[str | None, str]:
    """A request's `?lang=` and Accept-Language header."""
    query = getattr(request, "GET", None) or {}
    headers = getattr(request, "headers", None) or {}
    return query.get(QUERY_PARAMETER), headers.get("Accept-Language", "")


def socket_language(scope: Mapping[str, Any], user: Any) -> str:
    """The language of a websocket's error frames, by the same contract as a request's
    (its URL's `?lang=`, the user's preference, the handshake's Accept-Language, which
    the browser sends)."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    headers = dict(scope.get("headers") or ())
    return _by_contract(
        (query.get(QUERY_PARAMETER) or [""])[0],
        user,
        headers.get(b"accept-language", b"").decode("latin-1"),
    )


def _by_contract(query: str | None, user: Any, accept: str) -> str:
    """The contract's order, once for requests and sockets alike."""
    return (
        supported_language(query)
        or user_language(user)
        or accept_language(accept)
        or DEFAULT_LANGUAGE
    )


def activate(language: str) -> None:
    """Make `language` (an API tag) the one gettext answers in, for this thread/task."""
    translation.activate(to_django(language))


def activate_for(request: Any) -> str:
    """Activate the request's language by the whole contract (the user's saved preference
    included); returns it."""
    language = request_language(request)
    activate(language)
    return language


def active_language() -> str:
    """The API tag of the language gettext answers in now."""
    return from_django(translation.get_language())


@contextmanager
def language_of(user: Any, *, fallback: str | None = None) -> Iterator[str]:
    """Render something (a mail, a calendar invite) in the recipient's language; each
    recipient separately (a coach and a candidate may read different ones)."""
    language = recipient_language(user, fallback=fallback)
    with translation.override(to_django(language)):
        yield language


class LanguageMiddleware:
    """Activates the language `?lang=` or Accept-Language asks for, says which one answered
    in `Content-Language`, and deactivates it after, so nothing that runs later in the same
    thread (a test, a task) inherits it. It reads no user (the SPA's page and the static
    files need no database): the views that speak call `activate_for(request)` once the
    user is known — every API view (interviews/api/base.py, after token or session
    authentication) and the printable report."""

    def __init__(self, get_response: Any):
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        query, accept = _request_asks(request)
        activate(_by_contract(query, None, accept))  # the user is not known yet
        try:
            response = self.get_response(request)
            response.headers.setdefault("Content-Language", active_language())
            # The same URL answers in another language for another Accept-Language.
            patch_vary_headers(response, ("Accept-Language",))
            return response
        finally:
            translation.deactivate()


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
